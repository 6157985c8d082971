"""The declared finite-cell law (issue 28): piecewise uniform, derived from its cells with the weights as data.

``fhsym/symbolic/laws/piecewise_uniform.py`` declares the law once, as a :class:`~fhsym.symbolic.cells.CellDeclaration`
(unit cells at the integers, height ``n[|k|]``, ``0 <= k <= M`` symbolic); :func:`~fhsym.symbolic.cells.derive_cells`
derives the forms and ``python -m fhsym.codegen`` prints them into ``fhsym/_generated/declared/piecewise_uniform.py``,
which ``fhsym.noise.PiecewiseUniform`` runs.  One topic, ``step_piecewise_uniform``:

* proven by SymPy, generic in the cell index k and the number of cells M (partial sums of the weights kept as
  ``Sum``; a sum is peeled or split at an inner index by the definition of a sum): the cells tile the support,
  ``d sf/dt = -g/Z`` per cell, continuity across cells, ``sf(0) = 1/2``, ``sf = 0`` at the top,
  ``sf + P(0 < T <= t) = 1/2``, the quantile, the printed forms equal to the derived ones, the cell moment integral
  for a symbolic order, the exact cell overlaps of a shift;
* checked at 50 digits, and the class's generated float code, against the definition integrated exactly (constant
  on each cell: exact piece sums, formerly mpmath quadrature of each piece; ``proofs/reference_cells.py``) at random
  weight vectors.
"""

from __future__ import annotations

import importlib
import math
from fractions import Fraction
from typing import Any, Dict, List

import mpmath
import numpy as np
import sympy as sp

from fhsym._generated.declared import piecewise_uniform as gen
from fhsym.symbolic.cells import (HALF, a, below, cell_index, d_j, d_j1, derive_cells, j_shift, p, peel,
                                  q0, qk, qm, tail, theta, top, v, weights)
from fhsym.noise import PiecewiseUniform
from fhsym.symbolic.steps import Sub

from ._harness import Context, Outcome, Topic, proven, verified
from .reference_cells import CellRef

DPS = 50
SOURCE = "fhsym.symbolic.laws.piecewise_uniform"
KEY = "piecewise_uniform"

k, M, n = cell_index, top, weights


def _plain(e: sp.Expr) -> sp.Expr:
    return sp.sympify(e).replace(Sub, lambda x, y: x - y)


def _zero(e: sp.Expr) -> bool:
    return bool(sp.simplify(e) == 0)


def _split_at(e: sp.Expr, c: sp.Expr) -> sp.Expr:
    """``Sum(f, (i, lo, hi)) -> Sum(f, (i, lo, c - 1)) + f(c) + Sum(f, (i, c + 1, hi))`` for the sums over ``1..M``
    (the definition of a sum, ``lo <= c <= hi``)."""
    def one(s: sp.Sum) -> sp.Expr:
        f, (j, lo, hi) = s.function, s.limits[0]
        return sp.Sum(f, (j, lo, c - 1)) + f.subs(j, c) + sp.Sum(f, (j, c + 1, hi))
    return sp.sympify(e).replace(lambda s: isinstance(s, sp.Sum) and s.limits[0][1:] == (1, M), one)


def _weights(ctx: Context, what: str, count: int) -> List[tuple]:
    """Random weight vectors: 1..8 cells, weights 0..10^j (j in 1..6), n_0 or another positive."""
    g = ctx.rng(what)
    out = []
    for _ in range(count):
        m = int(g.integers(1, 9))
        w = [int(x) for x in g.integers(0, 10 ** int(g.integers(1, 7)), m)]
        if not any(w):
            w[-1] = 1
        out.append(tuple(w))
    return out


def _raw_at(e: sp.Expr, wts: tuple, extra: Dict[sp.Symbol, Any]) -> Any:
    """A raw derived form (Sums over the weights) at the weights ``wts`` and 50-digit values of its other symbols."""
    vals = {M: len(wts) - 1, **extra}
    e = sp.sympify(e).subs(vals).doit()
    e = e.replace(lambda x: isinstance(x, sp.Indexed) and x.base == n, lambda x: sp.Integer(wts[int(x.indices[0])]))
    return mpmath.mpf(str(sp.N(e, DPS + 5)))


def _rel(x: Any, ref: Any) -> Any:
    return abs(mpmath.mpf(x) - ref) / abs(ref) if ref != 0 else abs(mpmath.mpf(x))


def _worst(errs: List[Any]) -> str:
    return mpmath.nstr(max(errs), 2) if errs and max(errs) > 0 else "0"


def _topic() -> Topic:
    decl = importlib.import_module(SOURCE).DECLARATION
    topic = Topic(f"step_{KEY}", f"Declared finite-cell law `{KEY}` ({decl.display_name}): derived forms vs the cell "
                  f"density (`fhsym/symbolic/laws/{KEY}.py`)", order=62,
                  description="Declared: g(t) = n[|k|] on the unit cells [k - 1/2, k + 1/2), |k| <= M (units of the "
                              f"width w), the integer weights n[0..M] the data of one instance ({decl.source}). "
                              "fhsym.noise.PiecewiseUniform takes logpdf, sf, P(0 < T <= x), the in-cell quantile, the cell "
                              "moment integral (exact, Fractions), the entropy per cell and the profile's deficit terms "
                              "and interpolation from the code printed from these forms "
                              f"(fhsym/_generated/declared/{KEY}.py); it keeps the exact partial sums of the weights, the "
                              "cell lookup and the exact-rational certificate.")
    dv = topic.shared(lambda: derive_cells(decl))  # the checks' shared derivation (before: one per check, ~0.5 s)

    def facts(ctx: Context) -> Outcome:
        edge = sp.simplify((k + HALF) - ((k + 1) - HALF))
        pos = decl.density(k).is_positive
        ok = edge == 0 and bool(pos)
        return proven(ok, "SymPy: consecutive cells share their edge; the height n[k] is a positive symbol",
                      [f"- upper edge of cell k minus lower edge of cell k + 1: {edge}",
                       f"- n[k] positive (IndexedBase assumption; the law checks non-negative integers, not all 0): {pos}",
                       "- symmetric by construction: the density reads n[|k|]", *[f"- {f}" for f in decl.facts]])

    def sf_is_the_tail(ctx: Context) -> Outcome:
        d = dv()
        steps, ok = [], True
        der = sp.simplify(-sp.diff(d.sf_raw, a) + n[k] / d.Z)  # t = k + 1/2 - a: d/dt = -d/da
        cont = sp.simplify(peel(d.sf_raw.subs(a, 0)) - d.sf_raw.subs(k, k + 1).subs(a, 1))
        s0 = sp.simplify(d.sf_raw.subs({k: 0, a: HALF}))
        end = sp.simplify(d.sf_raw.subs({k: M, a: 0}).doit())
        printed = sp.simplify(d.sf.subs({qk: d.mass, tail: d.tail_raw}) - d.sf_raw)
        ok = der == 0 and cont == 0 and s0 == HALF and end == 0 and printed == 0
        steps += [f"- Z = {d.Z}; in cell k at t = k + 1/2 - a: sf = {d.sf_raw}",
                  f"- d sf/dt + g/Z = {der}",
                  f"- sf(k, a = 0) - sf(k + 1, a = 1) (first term of the tail sum peeled): {cont}",
                  f"- sf(0) = sf(k = 0, a = 1/2) = {s0}; sf at the top (k = M, a = 0; empty sum) = {end}",
                  f"- printed {d.sf} (q_k = n[k]/Z, tail = T_(k+1)) minus derived: {printed}"]
        errs = []
        with mpmath.workdps(DPS + 10):
            for wts in _weights(ctx, "sf", ctx.n(6, 2)):
                ref = CellRef(wts, DPS)
                errs.append(_rel(_raw_at(d.Z, wts, {}), ref.Z))
                for x in ctx.rng(f"sf x {wts}").uniform(0, len(wts) - 0.5, 4):
                    kk = int(np.floor(x + 0.5))
                    aa = sp.Float(kk + 0.5, DPS + 10) - sp.Float(float(x), DPS + 10)
                    r_sf = ref.sf(mpmath.mpf(float(x)))
                    if r_sf > 0:
                        errs.append(_rel(_raw_at(d.sf_raw, wts, {k: kk, a: aa}), r_sf))
        steps.append(f"- Z and sf (SymPy's forms at {DPS} digits) against the definition integrated exactly (exact piece sums) at "
                     f"{len(errs)} points (1..8 cells, weights up to 10^6): worst {_worst(errs)}")
        ok &= bool(errs) and max(errs) < mpmath.mpf(10) ** -40
        return proven(bool(ok), "SymPy: per cell d sf/dt = -g/Z, continuity, sf(0) = 1/2, 0 at the top; printed = "
                      "derived; 50-digit values vs exact piece sums of the definition", steps)

    def half_and_quantile(ctx: Context) -> Outcome:
        d = dv()
        tot = sp.simplify(_split_at(d.sf_raw + d.half_raw.subs(v, 1 - a) - HALF, k))  # cell k >= 1, t = k - 1/2 + v
        tot0 = sp.simplify(d.sf_raw.subs(k, 0) + d.half0_raw.subs(v, HALF - a) - HALF)  # cell 0, t = v
        ph = sp.simplify(d.half.subs({qk: d.mass, below: d.below_raw}) - d.half_raw)
        ph0 = sp.simplify(d.half0.subs(q0, d.mass.subs(k, 0)) - d.half0_raw)
        back = sp.simplify(d.sf.subs(a, d.isf) - p)
        ok = tot == 0 and tot0 == 0 and ph == 0 and ph0 == 0 and back == 0
        return proven(bool(ok), "SymPy: sf + P(0 < T <= t) = 1/2 per cell; printed = derived; isf put into sf gives p", [
            f"- cell k >= 1 (t = k - 1/2 + v = k + 1/2 - a): sf + half - 1/2 (the sum over 1..M split at k) = {tot}",
            f"- cell 0 (t = v): sf + half - 1/2 = {tot0}",
            f"- printed half {d.half} (below = B_k) minus derived: {ph}; cell 0 {d.half0}: {ph0}",
            f"- isf: a = {d.isf}; sf(a) - p = {back}"])

    def moments(ctx: Context) -> Outcome:
        d = dv()
        cell = sp.simplify(_plain(d.moment_cell) - d.moment_cell_raw)
        ent = sp.simplify(sp.expand_log(_plain(d.entropy_cell) - d.entropy_cell_raw, force=True))
        errs: List[Any] = []
        with mpmath.workdps(DPS + 10):
            for wts in _weights(ctx, "moments", ctx.n(5, 2)):
                ref = CellRef(wts, DPS)
                N = wts[0] + 2 * sum(wts[1:])
                for nu in (2, 4, 6):  # the generated exact cell integral, summed over the cells (the law's sum)
                    tot = sum((1 if kk == 0 else 2) * wv * gen.moment_cell(nu, kk) for kk, wv in enumerate(wts))
                    val = Fraction(tot) / N
                    errs.append(_rel(mpmath.mpf(val.numerator) / val.denominator, ref.moment(nu)))
                h = mpmath.fsum((1 if kk == 0 else 2) * -mpmath.mpf(wv) / N * mpmath.log(mpmath.mpf(wv) / N)
                                for kk, wv in enumerate(wts) if wv)
                errs.append(_rel(h, ref.entropy()))
        ok = cell == 0 and ent == 0 and max(errs) < mpmath.mpf(10) ** -40
        return verified(bool(ok), "SymPy: cell integral of t^nu (nu symbolic) and -f log f per cell = printed; E[T^n] "
                        "(n = 2, 4, 6, exact Fractions from the generated moment_cell) and the entropy at 50 digits vs "
                        "exact piece sums of the definition", len(errs), f"{DPS} digits", _worst(errs), evidence=[
                            f"- int_(k-1/2)^(k+1/2) t^nu dt = {d.moment_cell_raw}; printed {d.moment_cell}: difference "
                            f"{cell}",
                            f"- -int over a cell of width w of (q/w) log(q/w) = {d.entropy_cell_raw}; printed "
                            f"{d.entropy_cell}: difference {ent}",
                            f"- E[T^n] = sum_|k|<=M q_|k| c_n(k) (n = 2, 4, 6) and the entropy against exact piece sums of the "
                            f"definition: {len(errs)} values, worst {_worst(errs)}"])

    def profile(ctx: Context) -> Outcome:
        d = dv()
        phi = sp.Symbol("phi", positive=True)  # theta = 1 - phi: theta < 1
        s = sp.Symbol("s", integer=True, nonnegative=True)
        steps, ok = [], True
        for o, e in d.overlaps.items():
            got = sp.simplify(e)
            if got.has(sp.Max, sp.Min):  # uses theta < 1 as well as theta >= 0
                got = sp.simplify(sp.simplify(e.subs(theta, 1 - phi)).subs(phi, 1 - theta))
            want = {0: 1 - theta, 1: theta}.get(o, sp.Integer(0))
            ok &= sp.simplify(got - want) == 0
            steps.append(f"- cell k of t against cell k + j + ({o}) of t + d, d = j + theta: overlap {got}")
        far = [sp.simplify(sp.simplify(sp.Max(0, sp.Min(k + HALF, m + HALF - j_shift - theta)
                                              - sp.Max(k - HALF, m - HALF - j_shift - theta))
                                       .subs(theta, 1 - phi)).subs(phi, 1 - theta))
               for m in (k + j_shift - 1 - s, k + j_shift + 2 + s)]
        ok &= all(f == 0 for f in far)
        steps.append(f"- cells k + j - 1 - s and k + j + 2 + s (s >= 0): overlaps {far[0]}, {far[1]}; so "
                     f"delta = {d.profile} with D_j = sum_k {d.deficit_term.subs({qm: sp.Symbol('q_(k+j)')})}")
        errs = []
        with mpmath.workdps(DPS + 10):
            for wts in _weights(ctx, "profile", ctx.n(5, 2)):
                ref = CellRef(wts, DPS)
                N = wts[0] + 2 * sum(wts[1:])
                Mw = len(wts) - 1
                q = [mpmath.mpf(wts[abs(kk)]) / N for kk in range(-Mw, Mw + 1)]
                for dd, ee in zip(ctx.rng(f"profile d {wts}").uniform(0, 2 * Mw + 1.5, 3), (0.0, 0.4, 1.3)):
                    E = mpmath.exp(mpmath.mpf(ee))
                    jj = int(np.floor(dd))
                    th = mpmath.mpf(float(dd)) - jj

                    def D(j: int) -> Any:
                        return mpmath.fsum(max(q[i] - E * (q[i + j] if i + j < len(q) else 0), 0) for i in range(len(q)))
                    got = _raw_at(d.profile, wts, {theta: sp.Float(str(th), DPS + 10), d_j: sp.Float(str(D(jj)), DPS + 10),
                                                   d_j1: sp.Float(str(D(jj + 1)), DPS + 10)})
                    errs.append(_rel(got, ref.profile(ee, float(dd))))
        steps.append(f"- (1 - theta) D_j + theta D_(j+1) at {DPS} digits against exact piece sums of "
                     f"[f(t) - e^eps f(t + d)]_+ at {len(errs)} shifts: worst {_worst(errs)}")
        ok &= max(errs) < mpmath.mpf(10) ** -40
        return verified(bool(ok), "SymPy: exact cell overlaps of a shift; the lattice form vs exact piece sums of the "
                        "definition", len(errs), f"{DPS} digits", _worst(errs), evidence=steps)

    def generated(ctx: Context) -> Outcome:
        errs: Dict[str, List[float]] = {}
        npts = 0
        for wts in _weights(ctx, "generated", ctx.n(5, 2)):
            ref = CellRef(wts, DPS)
            Mw = len(wts) - 1
            # the quantile reference is in units of w, the same for both widths: one bisection per level
            isf_ref = {pp: ref.isf(pp) for pp in (1e-3, 0.2, 0.45)[:ctx.n(3, 2)]}
            for w in (0.37, 2.5):
                law = PiecewiseUniform(w, wts)
                xs = ctx.rng(f"gen x {wts}").uniform(-1.0, 1.0, 6) * (Mw + 0.45)
                for x in xs:
                    npts += 1
                    xx = mpmath.mpf(float(x * w)) / mpmath.mpf(w)  # the law's own point, in units of w
                    r_sf, r_pdf = ref.sf(xx), ref.pdf(xx)
                    if r_sf > 0:
                        errs.setdefault("sf", []).append(float(_rel(float(law.sf(x * w)), r_sf)))
                    errs.setdefault("cdf", []).append(float(_rel(float(law.cdf(x * w)), 1 - r_sf)))
                    if r_pdf > 0:
                        errs.setdefault("pdf", []).append(float(_rel(float(law.pdf(x * w)) * w, r_pdf)))
                    errs.setdefault("P(0 < T <= x)", []).append(float(_rel(float(law._half_mass(abs(x * w))),
                                                                           ref.half(abs(xx)))))
                for pp, x_ref in isf_ref.items():
                    errs.setdefault("isf (|error| / w)", []).append(float(abs(float(law.isf(pp)) / w - x_ref)))
                errs.setdefault("var", []).append(float(_rel(law.var() / w**2, ref.moment(2))))
                errs.setdefault("E[T^4]", []).append(float(_rel(law.moment(4) / w**4, ref.moment(4))))
                errs.setdefault("entropy (absolute)", []).append(float(abs(law.entropy() - mpmath.log(w) - ref.entropy())))
                for dd, ee in ((0.6, 0.0), (1.0, 0.5), (2.3, 1.1)):
                    r_prof = ref.profile(ee, mpmath.mpf(dd * w) / mpmath.mpf(w))  # the law's own float shift
                    if r_prof > 0:
                        errs.setdefault("profile", []).append(float(_rel(float(law.privacy_profile(ee, dd * w)), r_prof)))
                    enc = law.profile_enclosure(ee, dd * w)
                    errs.setdefault("certified enclosure misses (count)", []).append(
                        0.0 if enc.lower <= r_prof <= enc.upper else 1.0)
        worst = max(max(v) for v in errs.values())
        return verified(worst < 1e-12, "fhsym.noise.PiecewiseUniform (the generated code) vs exact piece sums of the "
                        "definition, widths 0.37 and 2.5; the exact-rational enclosure contains the reference profile",
                        npts, f"{DPS} digits", f"{worst:.1e}",
                        evidence=[f"- {key}: worst {max(v):.1e}" for key, v in errs.items()])

    def balls(ctx: Context) -> Outcome:
        """at_precision(50, ball=True) runs the printed ball forms (logpdf_arb, entropy_cell_arb, deficit_term_arb)
        and the rational ones: every ball against the definition integrated exactly (CellRef, units of w)."""
        misses, errs, pts = [], [], 0
        for wts in _weights(ctx, "balls", ctx.n(5, 2)):
            ref = CellRef(wts, DPS)
            Mw = len(wts) - 1
            w = 0.37
            B = PiecewiseUniform(w, wts).at_precision(DPS, ball=True)
            W = mpmath.mpf(w)
            with mpmath.workdps(DPS + 10):
                vals = [("entropy", B.entropy(), ref.entropy() + mpmath.log(W))]
                for x in ctx.rng(f"balls x {wts}").uniform(-1.0, 1.0, 4) * (Mw + 0.45):
                    xx = float(x * w)
                    g = ref.pdf(mpmath.mpf(xx) / W) / W
                    if g > 0:
                        vals.append((f"logpdf({xx:.4g})", B.logpdf(xx), mpmath.log(g)))
                    vals.append((f"sf({xx:.4g})", B.sf(xx), ref.sf(mpmath.mpf(xx) / W)))
                for dd, ee in ((0.6, 0.0), (1.0, 0.5), (2.3, 1.1)):
                    vals.append((f"profile({ee}, {dd} w)", B.privacy_profile(ee, dd * w),
                                 ref.profile(ee, mpmath.mpf(dd * w) / W)))
                for name, ball, want in vals:
                    pts += 1
                    mid = mpmath.mpf(ball.mid().str(DPS + 30, radius=False))
                    rad = mpmath.mpf(ball.rad().str(5, radius=False))
                    if abs(mid - want) > rad + abs(want) * mpmath.mpf(10) ** -(DPS + 5):  # the reference's rounding at DPS + 10
                        misses.append(f"{name}, weights {wts}")
                    errs.append(_rel(mid, want))
        ok = not misses and max(errs) < mpmath.mpf(10) ** -40
        return verified(ok, "at_precision(50, ball=True) (printed ball forms) vs the definition integrated exactly (exact piece sums)",
                        pts, f"{DPS} digits", _worst(errs), evidence=[
                            f"- {pts} values (entropy, logpdf, sf, profile at eps 0/0.5/1.1), width 0.37: every ball "
                            f"contains the exact piece sum (to 1e-55 relative, its rounding): {not misses}; worst midpoint error "
                            f"{_worst(errs)}"] + [f"- NOT inside: {x}" for x in misses])

    def certificate_plan(ctx: Context) -> Outcome:
        """profile_enclosure and worst_profile_enclosure (fhsym/noise/plans/piecewise_uniform.py: exact rationals and a
        ball of e^eps) against the definition integrated exactly; the sup's reference is the largest of the profile at
        the lattice nodes j w <= Delta and at Delta (the profile is linear between the nodes: row `profile`)."""
        misses, pts, n_sup = [], 0, 0
        cases = [((2, 1), 0.5), ((1,), 1.0), ((0, 1), 1.0), ((5, 3, 3, 1), 0.37)]
        cases += [(wts, 0.37) for wts in _weights(ctx, "certificate plan", ctx.n(5, 1))]
        for wts, w in cases:
            ref = CellRef(wts, DPS)
            top = max(k for k, n_ in enumerate(wts) if n_)  # M': beyond 2 M' + 1 cells the supports are disjoint
            pos = [n_ for n_ in wts if n_]
            ratios = sorted({math.log(x / y) for x in pos for y in pos if x > y})[:ctx.n(3, 1)]  # a term exactly 0
            eps_pts = [0.0, 0.5] + [e for x in ratios for e in (x, math.nextafter(x, 0.0), math.nextafter(x, math.inf))]
            us = [0.5, 1.0, 1.0 + 2.0**-30, 2.3, float(2 * top + 1), float(2 * top + 2)][:ctx.n(6, 4)]
            with mpmath.workdps(DPS + 10):
                for e in eps_pts:
                    for u_ in us:
                        d = u_ * w
                        dd = mpmath.mpf(d) / mpmath.mpf(w)  # the law's own float shift, in units of w
                        want = ref.profile(e, dd)
                        sup = max([ref.profile(e, j) for j in range(1, min(int(dd), 2 * top + 2) + 1)] + [want])
                        for what, enc, r in (("profile_enclosure", PiecewiseUniform(w, wts).profile_enclosure(e, d), want),
                                             ("worst_profile_enclosure", PiecewiseUniform(w, wts).worst_profile_enclosure(e, d),
                                              sup)):
                            pts += 1
                            if not mpmath.mpf(enc.lower) <= r <= mpmath.mpf(enc.upper):
                                misses.append(f"{what}, weights {wts}, w = {w}, eps = {e!r}, Delta = {d!r}: "
                                              f"[{enc.lower!r}, {enc.upper!r}] vs {mpmath.nstr(r, 20)}")
                        n_sup += int(sup > want)
        return verified(not misses, "profile_bounds / sup_profile_bounds (exact rationals, e^eps in a ball) contain the "
                        "definition integrated exactly (exact piece sums, 50 digits)", pts, f"{DPS} digits",
                        "0 outside", evidence=[
                            f"- {pts} enclosures: eps 0, 0.5 and log(n_k/n_l) (a term exactly 0) with its float "
                            f"neighbours; Delta/w in {{1/2, 1, 1 + 2^-30, 2.3, 2 M' + 1, 2 M' + 2}} (disjoint supports "
                            f"from 2 M' + 1); widths 0.5, 0.37; at {n_sup} the sup over the shifts exceeds the profile "
                            f"at Delta; every enclosure contains its reference: {not misses}"]
                        + [f"- NOT inside: {x}" for x in misses])

    def loss_balls(ctx: Context) -> Outcome:
        """at_precision(50, ball=True).privacy_loss(t, d): the ball logpdf_arb(q_k, w) - logpdf_arb(q_l, w) (+-inf where
        one side has no mass, 0 where neither has) against log(g(t)/g(t + d)) of the definition."""
        misses, errs, pts = [], [], 0
        for wts in [(2, 1), (5, 0, 3)] + _weights(ctx, "loss balls", ctx.n(4, 1)):
            ref, Mw = CellRef(wts, DPS), len(wts) - 1
            for w in (0.5, 0.37):
                B = PiecewiseUniform(w, wts).at_precision(DPS, ball=True)
                xs = [k + 0.5 for k in range(Mw + 2)] + list(ctx.rng(f"loss {wts}").uniform(-1.0, 1.0, ctx.n(6, 2))
                                                             * (Mw + 1))
                with mpmath.workdps(DPS + 10):
                    for x in xs:
                        for dd in (0.25, 1.0, 2.6):
                            t, d = float(x * w), float(dd * w)
                            # t/w and (t + d)/w of the law's own floats, exact (an edge stays an edge)
                            a_, b_ = (ref.g(mpmath.mpf(u.numerator) / u.denominator) for u in
                                      (Fraction(t) / Fraction(w), (Fraction(t) + Fraction(d)) / Fraction(w)))
                            want = (mpmath.log(a_ / b_) if a_ and b_ else mpmath.inf if a_ else
                                    -mpmath.inf if b_ else mpmath.mpf(0))
                            got = B.privacy_loss(t, d)
                            pts += 1
                            if not mpmath.isfinite(want):
                                ok = float(got if isinstance(got, float) else got.mid()) == want and (
                                    isinstance(got, float) or got.is_exact())  # arb(+-inf): exact, its sign kept
                            elif isinstance(got, float) or not got.is_finite():
                                ok = False
                            else:
                                mid = mpmath.mpf(got.mid().str(DPS + 30, radius=False))
                                rad = mpmath.mpf(got.rad().str(5, radius=False))
                                ok = abs(mid - want) <= rad + mpmath.mpf(10) ** -(DPS + 5)
                                errs.append(abs(mid - want))
                            if not ok:
                                misses.append(f"weights {wts}, w = {w}, t = {t!r}, d = {d!r}: {got} vs {want}")
        return verified(not misses and max(errs) < mpmath.mpf(10) ** -45, "at_precision(50, ball=True).privacy_loss vs "
                        "log g(t)/g(t + d) of the definition (50 digits)", pts, f"{DPS} digits", _worst(errs), evidence=[
                            f"- {pts} losses (t at the cell edges and at random, d/w in {{0.25, 1, 2.6}}, widths 0.5 "
                            f"and 0.37; +-inf and 0 off the supports): every ball contains the definition's value: "
                            f"{not misses}; worst absolute midpoint error {_worst(errs)}"]
                        + [f"- NOT inside: {x}" for x in misses])

    topic.add(facts, obj="declaration", paper="-", claim="cells tile the support; heights >= 0; symmetric", name="facts")
    topic.add(sf_is_the_tail, obj="Z, sf", paper="-", claim="sf is the tail integral of the declared density", name="sf")
    topic.add(half_and_quantile, obj="P(0<T<=x), isf", paper="-", claim="half = 1/2 - sf; isf inverts sf per cell",
              name="quantile")
    topic.add(moments, obj="moments, variance, entropy", paper="-", claim="cell integrals = printed; sums = the definition's integrals",
              name="moments")
    topic.add(profile, obj="privacy profile", paper="-", claim="delta(eps; (j + theta) w) = (1 - theta) D_j + theta "
              "D_(j+1) (exact overlaps)", name="profile")
    topic.add(generated, obj="generated code", paper="-", claim="the law class's numerics = the definition's integrals to 1e-12",
              name="generated")
    topic.add(balls, obj="ball view (class)", paper="-", claim="at_precision's balls (printed ball forms) contain the "
              "definition's exact integrals", name="balls")
    topic.add(loss_balls, obj="ball view (class)", paper="-", claim="at_precision's ball loss contains log g(t)/g(t + d) "
              "of the definition", name="loss_balls")
    topic.add(certificate_plan, obj="certificate plan", paper="-", claim="profile_enclosure and worst_profile_enclosure "
              "(fhsym/noise/plans/piecewise_uniform.py) contain the definition's exact integrals", name="certificate_plan")
    return topic



#: the harness reads ``topics`` (proofs._harness.discover)
topics = [_topic()]
