"""Stable kernels of ``PROFILE_KERNELS`` and ``LOSS_KERNELS``: the profile and loss families of the generic kernel check.

The check itself (stable form == paper form, negative control) is :mod:`proofs._kernels`; this
module says where to sample (eps inside each case's range of Table I; s around the kinks of the
loss), the precision the paper forms need and how SymPy closes the identities.  Two kinds of
SymPy step are decided numerically, so those kernels are at most VERIFIED: ``Max(x, 0) -> x`` in
``log_profile_case_iii``/``iv`` (x > 0 is checked at the sample points only), and the branches of
rho and the signs inside the loss kernels (read at the sample points).  Also: the float64 loss
kernels' error against exact rational arithmetic.
"""

from __future__ import annotations

import math
from fractions import Fraction as F
from typing import Dict, List, Optional, Tuple

import mpmath
import numpy as np
import sympy as sp
from mpmath import mp, mpf

from fhsym.symbolic import privacy as P
from fhsym.symbolic import stable as S
from fhsym.symbolic.special import rewrite_naive

from .. import _fmt
from .. import _mp as M
from .._harness import Outcome, verified
from .._kernels import Family, register_kernel_checks, satisfies
from .._symbolic import STRATEGIES, prove_zero
from ._base import Dn, b, s, topic
from .inverse import _case_range
from .loss import _rho_exact
from .profile import _KERNEL_OF_CASE, _paper_need

_pt = _fmt.pt
_satisfies = satisfies


def _loguni(rng, lo, hi) -> float:
    return float(math.exp(rng.uniform(math.log(lo), math.log(hi))))


def _rejection_sample(k, n: int, max_tries: int, draw, stats: Dict[str, int]) -> List[Tuple[float, float, float]]:
    """Up to ``n`` points ``draw()`` (None: no point) satisfying the kernel's constraint; counts in ``stats``."""
    pts = []
    for _ in range(max_tries):
        if stats["random"] >= n:
            break
        p = draw()
        if p is None:
            continue
        if not _satisfies(k, p):
            stats["rejected"] += 1
            continue
        pts.append(p)
        stats["random"] += 1
    return pts


_CASE_OF_KERNEL = {v: c for c, v in _KERNEL_OF_CASE.items()}


def _sample_profile(k, n: int, rng, ctx) -> Tuple[List[Tuple[float, float, float]], Dict[str, int]]:
    """Points (b, D, eps) of the kernel's case: b, D log-uniform on the domain, eps uniform in the case's range
    (within the eps domain), plus edge points: eps at the closed lower end, just below the open upper end, and the ties
    b = D/2, b = D where they bound the case."""
    c = _CASE_OF_KERNEL[k.name]
    (blo, bhi), (Dlo, Dhi), (elo, ehi) = k.domain["b"], k.domain["D"], k.domain["epsilon"]
    stats = {"random": 0, "edge": 0, "rejected": 0}
    pts = []

    def rng_eps(bb, DD, where):
        lo, hi, cond = _case_range(c, bb, DD, 1.0)
        if not cond:
            return None
        top = min(hi if hi is not None else lo + 20.0, ehi)
        if lo >= top:
            return None
        if where == "lo":
            return float(lo)
        if where == "hi":
            return float(np.nextafter(top, -np.inf) * (1 - 2.0**-30)) if hi is not None and hi <= ehi else None
        return float(rng.uniform(lo, top))

    def draw():
        bb, DD = _loguni(rng, blo, bhi), _loguni(rng, Dlo, Dhi)
        e = rng_eps(bb, DD, "mid")
        return None if e is None else (bb, DD, e)

    pts += _rejection_sample(k, n, 20000, draw, stats)
    n_edge = 0
    for where in ("lo", "hi"):
        for _ in range(ctx.n(3, 1)):
            for _t in range(500):
                bb, DD = _loguni(rng, blo, bhi), _loguni(rng, Dlo, Dhi)
                if c == "iii" and where == "lo" and n_edge == 0:
                    DD = 2 * bb if 2 * bb <= Dhi else DD  # tie alpha = Delta/2: case (iii) starts at 0
                if c == "iv" and where == "lo" and n_edge == 0:
                    DD = bb  # tie alpha = Delta
                e = rng_eps(bb, DD, where)
                if e is None or e < elo:
                    continue
                p = (bb, DD, e)
                if _satisfies(k, p):
                    pts.append(p)
                    stats["edge"] += 1
                    n_edge += 1
                    break
    return pts, stats


def _sample_loss(k, n: int, rng) -> Tuple[List[Tuple[float, float, float]], Dict[str, int]]:
    (blo, bhi), (Dlo, Dhi), (slo, shi) = k.domain["b"], k.domain["D"], k.domain["s"]
    stats = {"random": 0, "edge": 0, "rejected": 0}

    def draw():
        bb, DD = _loguni(rng, blo, bhi), _loguni(rng, Dlo, Dhi)
        ss = float(rng.uniform(slo, shi)) if rng.random() < 0.5 else float(rng.uniform(max(slo, -bb - DD - 1), min(shi, bb + 1)))
        return (bb, DD, ss)

    pts = _rejection_sample(k, n, 200000, draw, stats)
    # edge points: arguments on the kinks s, s + D in {-b, 0, b}
    for bb, DD in ((1.0, 0.5), (1.0, 1.5), (2.0, 3.0), (0.5, 0.25)):
        for ss in (-bb, bb, 0.0, -DD, bb - DD, -bb - DD):
            p = (bb, DD, ss)
            if _satisfies(k, p) and (k.name != "loss_center_cross" or ss + DD / 2 != 0):
                pts.append(p)
                stats["edge"] += 1
    return pts, stats


def _profile_need(k, p) -> float:
    """Starting precision hint for the paper form (the adaptive evaluation corrects it)."""
    import fhsym

    bb, DD, e = p
    c = _CASE_OF_KERNEL[k.name]
    with np.errstate(all="ignore"):
        ld = float(fhsym.log_privacy_profile(e, bb, 1.0, DD))
    delta = mpmath.exp(ld) if math.isfinite(ld) else mpf(10) ** -300
    return _paper_need(c, delta, bb, DD)


def _symbolic_profile_kernel(k) -> Tuple[Optional[str], List[str]]:
    notes = []
    st = rewrite_naive(k.expr).subs(S.lw, S.LW_PAPER)
    pa = k.paper.subs(S.lw, S.LW_PAPER)
    if st.has(sp.Max):
        # log(Max(x, 0)) = log x where x >= 0: the pieces are integrals of non-negative integrands (the numeric check
        # confirms x > 0 at every sampled point)
        st = st.replace(sp.Max, lambda *a: [x for x in a if x != 0][0])
        notes.append("Max(x, 0) -> x in the stable form (x = CT-, CT+: integrals of non-negative integrands; x > 0 at every sampled point)")
    if k.name.startswith("log_"):
        # log A == log B for real A, B > 0: prove A == B (the direct difference of the logs is far slower to simplify)
        how = prove_zero(sp.exp(st) - sp.exp(pa), STRATEGIES[:2])
        how = "exp of both sides, " + how if how else None
    else:
        how = prove_zero(st - pa, STRATEGIES[:2])
    return how, notes


def _symbolic_loss_kernel(k, pts) -> Tuple[Optional[str], List[str]]:
    """Per branch combination seen at the sample points: select rho's branches, resolve sign/Abs, prove the identity."""
    groups: Dict[tuple, list] = {}
    for p in pts:
        bb, DD, ss = p
        key = []
        xs = (ss + DD, ss)
        for i, x in enumerate(xs):
            other = xs[1 - i]
            pos = x > 0 or (x == 0 and other >= 0)  # an argument at 0 takes the side of the other one
            key.append(("c" if abs(x) <= bb else "t") + ("+" if pos else "-"))
        groups.setdefault(tuple(key), []).append(p)
    hows, notes = [], []
    u = s + Dn
    for key, gp in sorted(groups.items()):
        classes = {u: key[0], s: key[1]}
        paper = k.paper
        repl = {}
        for pw in paper.atoms(sp.Piecewise):
            absn = list(pw.args[0].cond.atoms(sp.Abs))[0]
            arg = absn.args[0]
            kk = next(x for x in classes if sp.expand(arg - x) == 0 or sp.expand(arg + x) == 0)
            cls = classes[kk]
            sign = 1 if cls.endswith("+") else -1
            branch = pw.args[0].expr if cls.startswith("c") else pw.args[1].expr
            repl[pw] = branch.xreplace({absn: sign * kk})
        paper_r = paper.xreplace(repl)
        # resolve sign()/Abs() in the kernel by their (constant) sign over the group
        expr = k.expr
        for node in sorted(expr.atoms(sp.sign, sp.Abs), key=str):
            f = M.mp_function((b, Dn, s), node.args[0])
            with mp.workdps(30):
                sg = {int(mpmath.sign(f(*[mpf(x) for x in p]))) for p in gp}
            if len(sg) > 1 and isinstance(node, sp.Abs):
                sg.discard(0)  # |x| at x = 0 is consistent with either sign
            if len(sg) != 1:
                return None, [f"sign of {node.args[0]} not constant on branch {key}"]
            v = sg.pop()
            expr = expr.xreplace({node: (v if isinstance(node, sp.sign) else (v if v != 0 else 1) * node.args[0])})
        how = prove_zero(expr - paper_r)
        hows.append(how)
        notes.append(f"branches (s + D: {key[0]}, s: {key[1]}) at {len(gp)} points: `{how or 'NOT CLOSED'}`")
    if hows and all(hows):
        return "per branch: " + "; ".join(sorted(set(hows))), notes
    return None, notes


def _sample_profile_family(k, n: int, rng, ctx):
    pts, stats = _sample_profile(k, n, rng, ctx)
    return pts, stats, "; eps inside the case's range: edge points at its closed lower end, just below its open upper end and at the ties"


def _sample_loss_family(k, n: int, rng, ctx):
    pts, stats = _sample_loss(k, n, rng)
    return pts, stats, ": the kinks s, s + D in {-b, 0, b}"


def _profile_symbolic(k, pts):
    how, notes = _symbolic_profile_kernel(k)
    gap = "Max(x, 0) -> x, where x > 0 is checked at the sample points only" if k.expr.has(sp.Max) else None
    return how, [f"- {x}" for x in notes], gap


def _loss_symbolic(k, pts):
    how, notes = _symbolic_loss_kernel(k, pts)
    ev = ["- SymPy per branch combination of rho for (s + D, s) seen at the sample points (branches and signs read there):"]
    return how, ev + [f"  * {x}" for x in notes], "the branches of rho and the signs are read at the sample points"


PROFILE_FAMILY = Family("profile", sample=_sample_profile_family,
                        need=lambda k, p: _profile_need(k, (p["b"], p["D"], p["epsilon"])),
                        symbolic=_profile_symbolic, f64_tol=1e-13, log_abs_error=True)
LOSS_FAMILY = Family("loss", sample=_sample_loss_family, need=lambda k, p: 10.0, symbolic=_loss_symbolic, f64_tol=1e-13)
KERNEL_NAMES = register_kernel_checks(topic, {"profile": PROFILE_FAMILY, "loss": LOSS_FAMILY}, __name__)


@topic.check(obj="LOSS_KERNELS", paper="Sec II-C1", claim="float64 loss kernels: error within a few ulps of the terms' scale; relative error near the kinks reported")
def loss_kernels_float64(ctx) -> Outcome:
    from fhsym._generated import privacy_loss as GL

    rng = ctx.rng()
    ulp = 2.0**-52
    rows, ok = [], True
    overall = 0.0
    n_pts = 0
    for k in P.LOSS_KERNELS:
        pts, _ = _sample_loss(k, ctx.n(400, 60), rng)
        # near the kinks: s or s + D within 1e-9 of +-b, small D
        for bb in (0.5, 1.0, 3.0):
            for DD in (1e-10, 1e-6, 1e-3):
                for ss in (bb - DD / 2, bb, -bb - DD / 2, -bb - DD, -DD / 2 + 1e-12, bb - DD - 1e-12, -bb + 1e-12):
                    p = (bb, DD, ss)
                    if _satisfies(k, p):
                        pts.append(p)
        worst_rel, worst_mixed, where = 0.0, 0.0, ""
        fk = getattr(GL, k.name)
        for p in pts:
            bb, DD, ss = (F(x) for x in p)
            tr = _rho_exact(ss + DD, bb) - _rho_exact(ss, bb)
            v = F(float(fk(*[np.float64(x) for x in p])))
            e_abs = abs(v - tr)
            scale = (bb * bb + ss * ss + (ss + DD) ** 2) / 2 + bb * (abs(ss) + abs(ss + DD))
            mixed = float(e_abs / scale) / ulp
            rel = float(e_abs / abs(tr)) if tr != 0 else 0.0
            worst_mixed = max(worst_mixed, mixed)
            if rel > worst_rel:
                worst_rel, where = rel, _pt(["b", "D", "s"], p)
        good = worst_mixed <= 8
        n_pts += len(pts)
        ok &= good
        overall = max(overall, worst_mixed)
        rows.append(f"- `{k.name}`: {len(pts)} points; worst error / (ulp x scale of the terms) = {worst_mixed:.2g} (<= 8: {good}); worst relative error {worst_rel:.2e} at {where}")
    ev = rows + [
        "- scale of the terms = (b^2 + s^2 + (s + D)^2)/2 + b(|s| + |s + D|): the float64 kernels are backward-stable in this sense",
        "- relative accuracy: the mixed-regime kernels `loss_center_tail` and `loss_tail_center` are written in the "
        "offsets |s| - b and |s + D| - b (node abs_sum_sub, error-free sum), two non-negative terms each, so they keep "
        "relative accuracy next to the kinks where the printed branches lose ~log10(b/D) digits (worst relative errors above)",
    ]
    return verified(ok, "float64 kernels vs exact rational arithmetic of eq 7", n_pts, "float64 vs exact rationals",
                    f"{overall:.2g} ulp x term scale", "", ev)
