"""Closed forms against quadrature of the definitions (:mod:`proofs.reference`), at >= 30 digits.

Every check is VERIFIED: the reference integrates eq 7-8 only (it never uses a closed form),
at 36 digits; a relative error below 1e-36 is below the resolution of the comparison.
"""

from __future__ import annotations

import functools
from typing import Callable, Dict, List, Sequence, Tuple

import mpmath
from mpmath import mp, mpf

from fhsym.symbolic import definitions as D

from .. import _fmt
from .. import _mp as M
from .._harness import Outcome, verified
from ._base import LN10, QUAD_DPS, QUAD_FLOOR, QUAD_TOL, al, b, g, lg, q, reference, t, topic, v, worst_of

_R = reference
_pt = _fmt.pt

B_SWEEP = [1e-3, 1e-2, 0.1, 0.3, 1.0, 2.0, 5.0, 10.0, 30.0]
B_WIDE = B_SWEEP + [100.0, 1e3, 1e4]
B_QUICK = [1e-3, 1.0, 10.0]
GAMMAS = [0.5, 1.0, 3.0]


def _grid(ctx, wide: bool = False, all_gammas: bool = False) -> List[Tuple[float, float, float]]:
    """(b, alpha, gamma) triples; alpha = b*gamma rounded to float (the harness uses the same floats).

    gamma cycles through GAMMAS along the b sweep (the family is a scale family, so gamma
    only tests the scaling); with ``all_gammas`` every gamma is also used at b = 1.
    """
    bs = B_QUICK if ctx.quick else (B_WIDE if wide else B_SWEEP)
    out = []
    for i, bb in enumerate(bs):
        gs = GAMMAS if (all_gammas and bb == 1.0) else [GAMMAS[i % len(GAMMAS)]]
        for gg in gs:
            a = float(bb * gg)
            out.append((a / gg, a, gg))
    return out


@functools.lru_cache(maxsize=None)
def _paper_fn(name: str, expr_key: str = "") -> Callable:
    exprs = {
        "omega": ((al, g), D.omega),
        "kappa": ((al, g), D.kappa),
        "variance": ((al, g), D.variance),
        "fisher": ((al, g), D.fisher_information),
        "nfi": ((al, g), D.nfi),
        "cdf_center": ((t, al, g), D.cdf_center),
        "cdf_tail_upper": ((t, al, g), D.cdf_tail_upper),
        "cdf_tail_lower": ((t, al, g), D.cdf_tail_lower),
        "sf_center": ((t, al, g), 1 - D.cdf_center),
        "sf_tail_upper": ((t, al, g), 1 - D.cdf_tail_upper),
        "ppf_center": ((q, al, g), D.ppf_center),
        "ppf_center_p": ((D.u, al, g), D.ppf_center.subs(q, 1 - D.u)),  # u = 1 - q
        "ppf_tail_p": ((D.u, al, g), D.ppf_tail_upper.subs(q, 1 - D.u)),  # u = 1 - q, no cancellation
        "mgf": ((D.s, al, g), D.mgf),
        "orlicz_C": ((v, al, g), D.orlicz_C),
        "density": ((t, al, g), D.density),
        "psi": ((t, al, g), D.psi),
        "tail_mass": ((al, g), D.tail_mass_of_b.subs(b, al / g)),
    }
    args, e = exprs[name]
    return M.mp_function(args, e)


def _closed(name: str, point: Sequence, need: float = 0.0) -> mpf:
    val, _ = M.evaluate(_paper_fn(name), point, digits=QUAD_DPS + 2, need=need)
    return val


def _need_from(ref: mpf) -> float:
    """Digits lost forming a quantity of size |ref| as a difference of O(1) terms."""
    with mp.workdps(30):
        r = abs(mpf(ref))
        return 10.0 + (float(-mpmath.log10(r)) if 0 < r < 1 else 0.0)


def _quad_outcome(errs: List[Tuple[float, str]], n: int, ev: List[str]) -> Outcome:
    worst, where = worst_of(errs)
    ok = worst <= QUAD_TOL and len(errs) == n and n > 0
    ev.insert(0, f"- {n} points; tolerance {QUAD_TOL:g} relative; reference `proofs/reference.py` at {QUAD_DPS} digits")
    return verified(ok, "closed form vs quadrature of the definition", n, f"{QUAD_DPS}-digit reference",
                    _fmt.err(worst, QUAD_FLOOR), "" if worst < QUAD_FLOOR else where, ev)


def _scalar_vs_quadrature(name: str, ref_fn: Callable, ctx, wide: bool = True) -> Outcome:
    """The closed form ``name`` of (alpha, gamma) against ``ref_fn(reference, alpha, gamma)``."""
    R = _R()
    errs = []
    for bb, a, gg in _grid(ctx, wide=wide, all_gammas=True):
        ref = ref_fn(R, a, gg)
        errs.append((M.rel_diff(_closed(name, (a, gg), 10 + 4 * max(0.0, -lg(bb)) + 2 * lg(1 + bb)), ref), _pt(["b", "gamma"], [bb, gg])))
    return _quad_outcome(errs, len(errs), [])


def _omega_ref(R, a, gg) -> mpf:
    with mp.workdps(QUAD_DPS + 10):
        return mpmath.exp(R.log_omega(a, gg, dps=QUAD_DPS + 10))


# the scalars of (alpha, gamma): check `<name>_vs_quadrature` compares the closed form `name` with its reference
for _name, _obj, _paper, _claim, _ref in (
    ("omega", "omega", "eq 9", "eq 9 vs quadrature: omega = Z(b) e^{b^2/2}, b in [1e-3, 1e4]", _omega_ref),
    ("kappa", "kappa", "Definition 7", "kappa = gamma omega e^{-b^2/2} vs quadrature",
     lambda R, a, gg: R.kappa(a, gg, dps=QUAD_DPS)),
    ("variance", "variance", "eq 11", "eq 11 vs quadrature of E[T^2], b in [1e-3, 1e4]",
     lambda R, a, gg: R.variance(a, gg, dps=QUAD_DPS)),
    ("fisher", "fisher_information", "eq 12", "eq 12 vs quadrature of E[psi'^2], b in [1e-3, 1e4]",
     lambda R, a, gg: R.fisher_information(a, gg, dps=QUAD_DPS)),
    # reference.nfi recomputes both integrals at dps + 5; the product of the two 36-digit integrals suffices
    ("nfi", "nfi", "Sec II-D, Fig 2", "I sigma^2 from eq 11-12 vs quadrature, b in [1e-3, 1e4]",
     lambda R, a, gg: R.variance(a, gg, dps=QUAD_DPS) * R.fisher_information(a, gg, dps=QUAD_DPS)),
):
    _f = functools.partial(_scalar_vs_quadrature, _name, _ref)
    _f.__module__ = __name__
    topic.add(_f, obj=_obj, paper=_paper, claim=_claim, name=f"{_name}_vs_quadrature")


@topic.check(obj="density", paper="eq 8", claim="g(t) and psi(t) = -log g(t) vs quadrature normaliser, both pieces and |t| = alpha")
def density_vs_quadrature(ctx) -> Outcome:
    R = _R()
    errs = []
    for bb, a, gg in _grid(ctx):
        for sf in (0.5, 1.0, -1.0, 1.7):
            tt = float(sf * a) if abs(sf) <= 1 else float(sf * (a + gg))
            lab = _pt(["b", "gamma", "t"], [bb, gg, tt])
            ref = R.pdf(tt, a, gg, dps=QUAD_DPS)
            errs.append((M.rel_diff(_closed("density", (tt, a, gg), 10 + lg(1 + bb * bb + (tt / gg) ** 2)), ref), "g: " + lab))
            if sf in (0.5, 1.7):
                refp = R.psi(tt, a, gg, dps=QUAD_DPS)
                errs.append((M.rel_diff(_closed("psi", (tt, a, gg), 10 + 2 * lg(1 + bb)), refp), "psi: " + lab))
    return _quad_outcome(errs, len(errs), ["- objects: density (eq 8) and psi (Model 1)"])


def _cdf_points(bb: float, a: float, gg: float) -> Dict[str, List[float]]:
    """t values (floats) per piece; the boundary points t = +-alpha are included in the centre piece
    and, as the tails' end points, in the tail pieces (continuity of eq 10 at |t| = alpha)."""
    centre = [0.5 * a, -0.5 * a, 0.9 * a, a, -a]
    upper = [a + 0.5 * gg, a + 3 * gg, a + 10 * gg, a]
    lower = [-(a + 0.5 * gg), -(a + 3 * gg), -a]
    return {"cdf_center": [float(x) for x in centre], "cdf_tail_upper": [float(x) for x in upper], "cdf_tail_lower": [float(x) for x in lower]}


def _cdf_vs_quadrature(piece: str, ctx) -> Outcome:
    R = _R()
    errs = []
    for bb, a, gg in _grid(ctx):
        for tt in _cdf_points(bb, a, gg)[piece]:
            ref = R.tail_bundle(tt, a, gg, dps=QUAD_DPS)
            lab = _pt(["b", "gamma", "t/alpha"], [bb, gg, tt / a])
            G = _closed(piece, (tt, a, gg), _need_from(ref["cdf"]))
            errs.append((M.rel_diff(G, ref["cdf"]), "G: " + lab))
            # the smaller tail: 1 - G for t > 0 (needs -log10(sf) extra digits), G itself for t < 0
            if tt > 0:
                sfname = "sf_center" if piece == "cdf_center" else "sf_tail_upper"
                errs.append((M.rel_diff(_closed(sfname, (tt, a, gg), _need_from(ref["sf"])), ref["sf"]), "1-G: " + lab))
    return _quad_outcome(
        errs, len(errs),
        ["- compared: G(t) and the smaller tail (1 - G(t) for t > 0, computed from eq 10 with enough digits), so the "
         "far-tail values are checked in relative terms; t = +-alpha evaluated with this piece's formula"],
    )


for _piece, _claim in (
    ("cdf_center", "eq 10 centre vs quadrature: |t| <= alpha incl. t = +-alpha"),
    ("cdf_tail_upper", "eq 10 upper tail vs quadrature: t > alpha and t = alpha"),
    ("cdf_tail_lower", "eq 10 lower tail vs quadrature: t < -alpha and t = -alpha"),
):
    _f = functools.partial(_cdf_vs_quadrature, _piece)
    _f.__module__ = __name__
    topic.add(_f, obj=_piece, paper="eq 10", claim=_claim, name=f"{_piece}_vs_quadrature")


def _tail_mass_mp(a: float, gg: float) -> mpf:
    with mp.workdps(60):
        return _closed("tail_mass", (a, gg), 10 + (a / gg) ** 2 / LN10)


def _quantile_errs(ctx, name: str, p_label: str, points: Callable, need: Callable) -> List[Tuple[float, str]]:
    """Quantile formula ``name`` (a function of p = 1 - q) vs the quadrature root ``reference.isf(p)``.

    At the points ``points(reference, alpha, gamma, tail mass)`` of every (b, alpha, gamma) of the grid, each
    evaluated to ``need(b, alpha, gamma, p)`` digits; and at the piece boundary q = G(alpha), where it must give alpha.
    """
    R = _R()
    errs = []
    for bb, a, gg in _grid(ctx):
        tm = _tail_mass_mp(a, gg)
        for pp in points(R, a, gg, tm):
            lab = _pt(["b", "gamma", p_label], [bb, gg, pp])
            ref = R.isf(pp, a, gg, dps=QUAD_DPS)  # t with P(T > t) = p, i.e. G(t) = q = 1 - p
            val = _closed(name, (pp, a, gg), need(bb, a, gg, pp))
            errs.append((M.rel_diff(val, ref), lab))
        with mp.workdps(80 + int((a / gg) ** 2 / LN10)):
            vb = _paper_fn(name)(tm, mpf(a), mpf(gg))
            errs.append((M.rel_diff(vb, mpf(a)), "q = G(alpha), " + _pt(["b", "gamma"], [bb, gg])))
    return errs


@topic.check(obj="ppf_center", paper="Appendix B (derived)", claim="centre quantile vs quadrature root: 1/2 <= q <= G(alpha) incl. q = G(alpha)")
def ppf_center_vs_quadrature(ctx) -> Outcome:
    def points(R, a, gg, tm):
        with mp.workdps(60):
            # p = 1 - q as exact mpf (q itself would round to 1 for large b): the point t = alpha/2,
            # the median region and just inside the piece boundary
            ps = [mpf(mpmath.nstr(R.sf(0.5 * a, a, gg, dps=30), 25)), mpf(0.5) - mpf(2) ** -30]
            if 1.5 * tm < mpf(0.5):
                ps.append(mpf(mpmath.nstr(1.5 * tm, 25)))
        assert all(tm < pp <= 0.5 for pp in ps)
        return ps

    errs = _quantile_errs(ctx, "ppf_center_p", "1-q", points,
                          lambda bb, a, gg, pp: 20 + min((a / gg) ** 2 / LN10, 500.0) + 2 * max(0.0, -lg(0.5 - float(pp))))
    return _quad_outcome(
        errs, len(errs),
        ["- the centre formula is evaluated at q = 1 - p with p exact (SymPy substitutes q = 1 - p before evaluation); "
         "the reference root is `reference.isf(p)`; q = G(alpha) must give t = alpha (the piece boundary)",
         "- q < 1/2: ppf(q) = -ppf(1 - q) follows from G(-t) = 1 - G(t) (proven symbolically under `cdf_tail_lower`); "
         "the reference computes its ppf the same way, so it is not compared again"],
    )


@topic.check(obj="ppf_tail_upper", paper="Appendix B (derived)", claim="tail quantile vs quadrature root: p = 1 - q <= P(T > alpha) incl. q = G(alpha)")
def ppf_tail_vs_quadrature(ctx) -> Outcome:
    def points(R, a, gg, tm):
        with mp.workdps(40):
            ps = [mpf(mpmath.nstr(tm / 2, 25)), mpf(mpmath.nstr(tm * mpf(10) ** -12, 25))]
            if tm > mpf(10) ** -6:
                ps.append(mpf(mpmath.nstr(tm * (1 - mpf(10) ** -6), 25)))  # just inside the tail piece
        return ps

    errs = _quantile_errs(ctx, "ppf_tail_p", "p", points, lambda bb, a, gg, pp: 20 + 2 * lg(1 + bb))
    return _quad_outcome(errs, len(errs), ["- p given as exact mpf (they underflow float64 for b >~ 26); reference.isf / reference.ppf are quadrature roots"])


@topic.check(obj="mgf", paper="Sec III-B2", claim="MGF vs quadrature of E[e^{sT}]: gamma s in {0.5, -3, b+1}, b in [1e-3, 100]")
def mgf_vs_quadrature(ctx) -> Outcome:
    R = _R()
    errs = []
    grid = _grid(ctx)
    if not ctx.quick:
        grid.append((100.0, 100.0, 1.0))
    for bb, a, gg in grid:
        # M(s) = M(-s) (the printed form is symmetric in s), so one sign per magnitude; these cover
        # m_s = b +- gamma s of both signs for every b
        cs = [0.5, -3.0, bb + 1.0] if not ctx.quick else [0.5, -(bb + 1.0)]
        for c in cs:
            ss = float(c / gg)
            ref = R.mgf(ss, a, gg, dps=QUAD_DPS)
            errs.append((M.rel_diff(_closed("mgf", (ss, a, gg), 20 + 2 * lg(1 + bb)), ref), _pt(["b", "gamma", "gamma*s"], [bb, gg, ss * gg])))
    return _quad_outcome(errs, len(errs), ["- gamma s = -b (m_s = 0) is a removable singularity of the printed P; not sampled"])


@topic.check(obj="orlicz_C", paper="Lemma 2", claim="C(v) vs quadrature of sqrt(1-v) E[exp(v T^2/2gamma^2)], b in [1e-3, 1e4]")
def orlicz_vs_quadrature(ctx) -> Outcome:
    R = _R()
    errs = []
    for bb, a, gg in _grid(ctx, wide=True):
        for vv in ([1e-4, 0.3, 0.9, 0.999] if not ctx.quick else [0.1, 0.9]):
            ref = R.orlicz(vv, a, gg, dps=QUAD_DPS)
            errs.append((M.rel_diff(_closed("orlicz_C", (vv, a, gg), 20 - lg(vv) + 2 * lg(1 + bb)), ref), _pt(["b", "gamma", "v"], [bb, gg, vv])))
    return _quad_outcome(errs, len(errs), [])

