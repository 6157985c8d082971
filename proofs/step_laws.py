"""The declared step laws (issue 28): the staircase and the truncated staircase, derived from their step patterns.

``fhsym/symbolic/laws/staircase.py`` and ``truncated_staircase.py`` declare each law once, as a
:class:`~fhsym.symbolic.steps.StepDeclaration` (cells ``[0, W)`` of height 1 and ``[W, 1)`` of height r, repeated with
factor ``r = e^-eps`` per period, cut at ``K + rho`` periods for the truncated law); :func:`~fhsym.symbolic.steps.
derive_steps` derives the forms and ``python -m fhsym.codegen`` prints them into ``fhsym/_generated/declared/``, which
``fhsym.Staircase`` and ``fhsym.TruncatedStaircase`` run.  Per law, one topic ``step_<law>``:

* the forms are proven by SymPy where it closes them: the stable printed forms equal SymPy's own sums (raw); sf is
  the tail integral of the density (``d sf/du = -r^k h_i/Z`` per cell, continuous across cells and periods,
  ``sf(0) = 1/2``, 0 at the end); ``sf + P(0 < T <= x) = 1/2``; the per-cell quantile and the period solve give back
  q when put into sf;
* the derived forms (at 50 digits) and the law classes' generated float code are checked against the step density's
  definition integrated exactly (constant between its edges: exact piece sums, formerly mpmath quadrature of each
  piece; ``proofs/reference_steps.py``) at random parameters and points.
"""

from __future__ import annotations

import functools
import importlib
import math
from fractions import Fraction
from typing import Any, Dict, List, Tuple

import mpmath
import numpy as np
import sympy as sp

import fhsym
from fhsym.symbolic.steps import (J_run, K, Sub, a, cut_far_plan, d_shift, derive_steps, f_shift, k, n_top,
                                  profile_periods, profile_periods_cut, profile_weights, profile_weights_cut, q, r,
                                  rho, u, unstable, v, x_eps)
from fhsym.symbolic.steps import eps as eps_

from . import _plans
from ._harness import Context, Outcome, Topic, proven, verified
from .reference_steps import StepRef

DPS = 50
SOURCES = (("staircase", "fhsym.symbolic.laws.staircase"),
           ("truncated_staircase", "fhsym.symbolic.laws.truncated_staircase"))


def _zero(e: sp.Expr) -> bool:
    return bool(sp.simplify(e) == 0)


@functools.lru_cache(maxsize=None)
def _plain(e: sp.Expr) -> sp.Expr:
    """``e`` with its ``Sub`` nodes written as subtractions (what :func:`_mp` evaluates; once per form)."""
    return sp.sympify(e).replace(Sub, lambda x, y: x - y)


def _mp(e: sp.Expr, values: Dict[sp.Symbol, Any]) -> Any:
    """A derived form at 50 digits (its symbols replaced by mpmath numbers)."""
    with mpmath.workdps(DPS + 10):
        return sp.N(_plain(sp.sympify(e)).subs(values), DPS + 5)


def _rel(x: Any, ref: Any) -> Any:
    return abs(mpmath.mpf(x) - ref) / abs(ref) if ref != 0 else abs(mpmath.mpf(x))


def _worst(errs: List[Any]) -> str:
    return mpmath.nstr(max(errs), 2) if errs and max(errs) > 0 else "0"


def _period_integrals(d: Any, quick: bool) -> List[Tuple[str, bool]]:
    """The cut law's printed per-period summands = SymPy integrals of the declared density: ``moment_period_n(k) =
    int_0^1 (k + y)^n g``, ``nlog_period(k) = -int_0^1 g log g`` over period k (g = r^k h per cell, r = e^-eps), and
    the same over the cut period K (``y < rho``) on both of its branches (rho <= W: the clips are rho and W; W <= rho
    < 1: W and rho).  The quick subset proves n = 2 and the entropy's summands only."""
    cells = d.decl.cells
    W = d.decl.shape_symbols[0]
    y = sp.Symbol("y", nonnegative=True)
    on_r = {r: sp.exp(-eps_)}
    out: List[Tuple[str, bool]] = []
    branches = (("rho <= W", {sp.Min(W, rho): rho, sp.Min(1, sp.Max(W, rho)): W}, [(0, rho, 1)]),
                ("W <= rho < 1", {sp.Min(W, rho): W, sp.Min(1, sp.Max(W, rho)): rho}, [(0, W, 1), (W, rho, r)]))

    def integral(f: Any, pieces: Any, period: sp.Expr) -> sp.Expr:
        return sum((sp.integrate(f(period + y, r**period * h), (y, lo, hi)) for lo, hi, h in pieces), sp.Integer(0))

    def neg_log(t: sp.Expr, g: sp.Expr) -> sp.Expr:
        return -g * sp.expand_log(sp.log(g.subs(on_r)), force=True)

    for n in sorted(d.moment_period)[:1 if quick else None]:
        diff = sp.simplify(unstable(d.moment_period[n]) - integral(lambda t, g: t**n * g, cells, k))
        out.append((f"- moment_period_{n}(k) - int_k^(k+1) t^{n} g(t) dt = {diff}", diff == 0))
        for name, clip, pieces in branches:
            diff = sp.simplify(d.moment_last[n].xreplace(clip) - integral(lambda t, g: t**n * g, pieces, K))
            out.append((f"- moment_last_{n} ({name}) - int_K^(K+rho) t^{n} g(t) dt = {diff}", diff == 0))
    diff = sp.simplify((d.nlog_period - integral(neg_log, cells, k)).subs(on_r))
    out.append((f"- nlog_period(k) + int_k^(k+1) g log g dt = {diff}", diff == 0))
    for name, clip, pieces in branches:
        diff = sp.simplify((d.nlog_last.xreplace(clip) - integral(neg_log, pieces, K)).subs(on_r))
        out.append((f"- nlog_last ({name}) + int_K^(K+rho) g log g dt = {diff}", diff == 0))
    return out


def _topic(key: str, source: str) -> Topic:
    decl = importlib.import_module(source).DECLARATION
    W = decl.shape_symbols[0]
    cut = decl.truncated
    cls = fhsym.TruncatedStaircase if cut else fhsym.Staircase
    topic = Topic(f"step_{key}", f"Declared step law `{key}` ({decl.display_name}): derived forms vs the step density "
                  f"(`fhsym/symbolic/laws/{key}.py`)", order=62,
                  description=f"Declared cells (lo, hi, height) of one period, r = e^-eps per period: {decl.cells}"
                              f"{'; cut at beta = K + rho periods' if cut else ''} ({decl.source}). fhsym.{cls.__name__}"
                              f" takes logpdf, sf, P(0 < T <= x), isf, the variance"
                              f"{', moments n <= 6, the entropy and the profile at shifts <= Delta0' if not cut else ''}"
                              f"{', moments n = 4, 6, the entropy and the normaliser' if cut else ''} from the code printed from "
                              f"these forms (fhsym/_generated/declared/{key}.py).")
    dv = topic.shared(lambda: derive_steps(decl))  # the checks' shared derivation
    periods = topic.shared(lambda: profile_periods(decl))  # the profile's periods: rows profile_run, profile_beyond

    def params(ctx: Context, what: str, n: int) -> List[Tuple[float, float, float]]:
        """(eps, W, beta) at random: eps in [0.3, 3], W in [0, 1], beta in [1, 12] (cut law) else 0."""
        g = ctx.rng(what)
        out = []
        for _ in range(n):
            e, w = float(g.uniform(0.3, 3.0)), float(g.uniform(0.0, 1.0))
            out.append((e, w, float(g.uniform(1.0, 12.0)) if cut else 0.0))
        return out

    def values(e: float, w: float, beta: float) -> Dict[sp.Symbol, Any]:
        vals: Dict[sp.Symbol, Any] = {r: sp.exp(-sp.Float(e, DPS + 10)), W: sp.Float(w, DPS + 10)}
        if cut:
            kk = int(np.floor(beta))
            vals.update({K: kk, rho: sp.Float(beta, DPS + 10) - kk})
        return vals

    def ref_of(e: float, w: Any, beta: Any) -> StepRef:
        return StepRef(e, w, beta if cut else None, dps=DPS)

    def facts(ctx: Context) -> Outcome:
        return proven(len(decl.facts) == 2, "the declaration's checks (StepDeclaration.__post_init__)",
                      [f"- {f}" for f in decl.facts])

    def sf_is_the_tail(ctx: Context) -> Outcome:
        d = dv()
        cells = decl.cells
        steps, ok = [], True
        for i, ((lo, hi, h), s) in enumerate(zip(cells, d.sf_raw)):
            der = sp.diff(s, u) + r**k * h / d.Z_raw
            ok &= _zero(der)
            steps.append(f"- cell {i} [{lo}, {hi}): d sf/du + r^k h/Z = {sp.simplify(der)}")
            nxt = d.sf_raw[i + 1].subs(u, hi) if i + 1 < len(cells) else d.sf_raw[0].subs({k: k + 1, u: 0})
            jump = s.subs(u, hi) - nxt
            ok &= _zero(jump)
            steps.append(f"- at its upper edge {hi}: sf continuous into the next {'cell' if i + 1 < len(cells) else 'period'}"
                         f" (difference {sp.simplify(jump)})")
            stab = unstable(d.sf[i]).subs(a, hi - u) - s
            ok &= _zero(stab)
            steps.append(f"- printed form (over omr, 1 - r^X, in a = hi - u) minus SymPy's sum: {sp.simplify(stab)}")
        s0 = sp.simplify(d.sf_raw[0].subs({k: 0, u: 0}))
        ok &= s0 == sp.Rational(1, 2)
        steps.append(f"- sf(0) = {s0}")
        if cut:
            assert d.sf_top_raw is not None
            # W <= 1 on its domain: Min(1, W) = W (the clips of the cut period meet the cells' edges)
            top = unstable(d.sf_top_raw).subs(sp.Min(1, W), W)
            end = sp.simplify(top.subs(u, rho))
            into = sp.simplify((d.sf_raw[-1].subs({k: K - 1, u: 1}) - top.subs(u, 0)).subs(sp.Min(1, W), W))
            ok &= end == 0 and into == 0
            steps.append(f"- cut period (W <= 1): sf_top(rho) = {end}; sf_top(0) - sf(K - 1, 1) = {into} (continuous "
                         f"into it); sf_top (clips of the cells at u and rho) at a point of every cut period below")
        else:
            hom = sp.simplify(d.sf_raw[0].subs(u, 0) - r**k * s0)
            ok &= hom == 0
            steps.append(f"- sf(k) = r^k sf(0) (difference {hom}): 0 < r < 1 so sf -> 0 as k -> oo")
        with mpmath.workdps(DPS + 10):
            errs = []
            for e, w, beta in params(ctx, "sf", ctx.n(8, 3)):
                ref, vals = ref_of(e, w, beta), values(e, w, beta)
                zref = ref.Z
                errs.append(_rel(_mp(d.Z_raw, vals), zref))
                xs = list(ctx.rng(f"sf x {e}").uniform(0.0, beta if cut else 6.0, 4))
                for x in xs + ([np.floor(beta) + (beta - np.floor(beta)) / 2] if cut else []):
                    kk = int(np.floor(x))
                    uu = sp.Float(float(x), DPS + 10) - kk
                    if cut and kk >= int(np.floor(beta)):
                        form = unstable(d.sf_top_raw).subs(u, uu)
                    else:
                        i = 0 if float(uu) < w else 1
                        form = d.sf_raw[i].subs({k: kk, u: uu})
                    errs.append(_rel(_mp(form, vals), ref.sf(float(x))))
        steps.append(f"- Z and sf (SymPy's forms at {DPS} digits) against the definition integrated exactly (exact piece sums) at "
                     f"{len(errs)} points (eps in [0.3, 3], W in [0, 1]{', beta in [1, 12]' if cut else ''}): worst "
                     f"{_worst(errs)}")
        ok &= max(errs) < mpmath.mpf(10) ** -40
        return proven(bool(ok), "SymPy: per cell d sf/du = -g/Z, continuity, sf(0) = 1/2, end; printed = summed form",
                      steps)

    def half_and_quantile(ctx: Context) -> Outcome:
        d = dv()
        steps, ok = [], True
        for i, (lo, hi, h) in enumerate(decl.cells):
            tot = sp.simplify(d.sf_raw[i] + d.half_raw[i] - sp.Rational(1, 2))
            stab = sp.simplify(unstable(d.half[i]).subs(v, u - lo) - d.half_raw[i])
            back = sp.simplify(unstable(d.sf[i]).subs(a, unstable(d.isf[i])) - q)
            ok &= tot == 0 and stab == 0 and back == 0
            steps.append(f"- cell {i}: sf + P(0 < T <= k + u) - 1/2 = {tot}; printed half - summed = {stab}; "
                         f"sf(isf(q)) - q = {back}")
        x_k = unstable(d.period_of)
        start = sp.simplify(sp.expand_power_exp(unstable(d.sf[0]).subs(a, decl.cells[0][1])).subs(r**k, x_k) - q)
        ok &= start == 0
        steps.append(f"- the period whose start has tail q: r^k = {d.period_of}; sf(k, 0) there - q = {start}")
        return proven(bool(ok), "SymPy: sf + half = 1/2; isf substituted into sf gives q; the period solve", steps)

    def quantile_top(ctx: Context) -> Outcome:
        """The quantile inside the cut period (u <= rho): clipped forms, checked at 50 digits (not closed by SymPy)."""
        d = dv()
        assert d.isf_top is not None
        errs = []
        with mpmath.workdps(DPS + 10):
            for e, w, beta in params(ctx, "isf top", ctx.n(6, 3)):
                kk = int(np.floor(beta))
                if beta - kk < 1e-3:
                    continue
                ref, vals = ref_of(e, w, beta), values(e, w, beta)
                top_mass = ref.sf(float(kk))  # the tail at the start of the cut period
                for frac in (0.2, 0.7):
                    u_ref = ref.isf(top_mass * frac) - kk
                    i = 0 if u_ref < w else 1
                    got = _mp(unstable(d.isf_top[i]), {**vals, q: sp.Float(top_mass * frac, DPS + 10)})
                    errs.append(abs(got - u_ref))
        steps = [f"- cell {i}: u = {e}" for i, e in enumerate(d.isf_top)]
        steps.append(f"- at {DPS} digits against the quantile of the definition (its tail by exact piece sums, inverted on "
                     f"the interval that holds q) at {len(errs)} points: worst |error| {_worst(errs)}")
        return verified(bool(errs) and max(errs) < mpmath.mpf(10) ** -40, "derived cut-period quantile vs the "
                        "definition's quantile (exact piece sums)", len(errs), f"{DPS} digits", _worst(errs), evidence=steps)

    def moments(ctx: Context) -> Outcome:
        d = dv()
        steps, ok, errs = [], True, []
        if not cut:
            for n, raw in sorted(d.moments_raw.items()):
                if ctx.quick and n > 2:  # the quick subset: E|T| and E|T|^2 (and the entropy) only
                    continue
                diff = sp.simplify(unstable(d.moments[n]) - raw)
                ok &= diff == 0
                steps.append(f"- E|T|^{n}: printed - summed = {diff}")
            assert d.entropy is not None and d.entropy_raw is not None
            diff = sp.simplify(unstable(d.entropy) - d.entropy_raw)
            ok &= diff == 0
            steps.append(f"- entropy: printed - summed = {diff}")
        else:
            assert d.var_period is not None and d.var_last is not None
            closed = sp.simplify((2 * sp.summation(unstable(d.var_period).subs(k, sp.Symbol("j", integer=True)),
                                                   (sp.Symbol("j", integer=True), 0, K - 1)) + 2 * d.var_last) / d.Z_raw
                                 - d.moments_raw[2])
            steps.append(f"- variance = (2 sum_(k<K) var_period(k) + 2 var_last)/Z: printed summands vs SymPy's sum "
                         f"{'equal' if closed == 0 else closed}")
            ok &= closed == 0
            for line, good in _period_integrals(d, ctx.quick):
                ok &= good
                steps.append(line)
        with mpmath.workdps(DPS + 10):
            for e, w, beta in params(ctx, "moments", ctx.n(4, 1)):
                ref, vals = ref_of(e, w, beta), values(e, w, beta)
                errs.append(_rel(_mp(d.moments_raw[2], vals), ref.moment(2)))
                if not cut:
                    for n in (1, 3, 4):
                        errs.append(_rel(_mp(d.moments_raw[n], vals), ref.moment(n)))
                    errs.append(_rel(_mp(d.entropy_raw, vals), ref.entropy()))
                else:  # the printed per-period summands, summed over the K whole periods, plus the cut period
                    assert d.moment_period is not None and d.moment_last is not None
                    H = _mp(d.Z_raw, vals) / 2
                    ev = {**vals, eps_: -sp.log(vals[r])}

                    def summed(per: sp.Expr, last: sp.Expr) -> Any:
                        return sum(_mp(per, {**ev, k: j}) for j in range(int(vals[K]))) + _mp(last, ev)

                    for n in (4, 6):
                        errs.append(_rel(summed(d.moment_period[n], d.moment_last[n]) / H, ref.moment(n)))
                    errs.append(_rel(sp.log(2 * H) + summed(d.nlog_period, d.nlog_last) / H, ref.entropy()))
        steps.append(f"- {'E|T|^n (n = 1..4) and the entropy' if not cut else 'the variance, E[T^4], E[T^6] and the entropy'}"
                     f" at {DPS} digits against the definition integrated exactly (exact piece sums): {len(errs)} values, "
                     f"worst {_worst(errs)}")
        return verified(bool(ok) and max(errs) < mpmath.mpf(10) ** -40,
                        "SymPy: printed = summed; 50-digit forms vs the step density integrated exactly (exact piece sums)",
                        len(errs), f"{DPS} digits", _worst(errs), evidence=steps)

    def generated(ctx: Context) -> Outcome:
        """The class at Delta0 = 0.37, 2.5 (not powers of two) against the reference at the law and the points it
        holds exactly: W = fl(w Delta0)/Delta0, beta = fl(beta Delta0)/Delta0, x = fl(x Delta0)/Delta0 as rationals;
        its outputs divided by powers of Delta0 at 60 digits, not in floats."""
        errs: Dict[str, List[float]] = {}
        n = 0
        for e, w, beta in params(ctx, "generated", ctx.n(6, 1)):
            for d0 in ((2.5,) if ctx.quick else (0.37, 2.5)):
                law = cls(e, d0, w, beta * d0) if cut else cls(e, d0, w)
                q0 = Fraction(d0)
                ref = ref_of(e, Fraction(law.width) / q0, Fraction(law.bound) / q0 if cut else 0.0)
                xs = ctx.rng(f"gen x {e}").uniform(-1.0, 1.0, 5) * (beta if cut else 6.0)
                with mpmath.workdps(DPS + 10):
                    m0 = mpmath.mpf(d0)
                    for x in xs:
                        n += 1
                        xd = float(x) * d0  # the class's point; the reference's: xd/Delta0 exactly
                        xq = Fraction(xd) / q0
                        errs.setdefault("sf", []).append(float(_rel(float(law.sf(xd)), ref.sf(xq))))
                        errs.setdefault("cdf", []).append(float(_rel(float(law.cdf(xd)), 1 - ref.sf(xq))))
                        errs.setdefault("pdf", []).append(float(_rel(float(law.pdf(xd)), ref.pdf(xq) / m0)))
                    for p in (1e-12, 1e-3, 0.2, 0.45):  # against the definition's tail inverted interval by interval
                        xq_, x_ref = mpmath.mpf(float(law.isf(p))) / m0, ref.isf(p)
                        errs.setdefault("isf (|error| / max(x, Delta0))", []).append(
                            float(abs(xq_ - x_ref) / max(x_ref, 1)))
                    errs.setdefault("var", []).append(float(_rel(mpmath.mpf(law.var()), ref.moment(2) * m0**2)))
                    if not cut:  # the profile at shifts d <= Delta0: the derived lattice weights (generated)
                        for dd, ee in zip(ctx.rng(f"gen d {e}").uniform(0.0, 1.0, 2), (0.0, 0.5 * e)):
                            sh = float(dd) * d0
                            errs.setdefault("profile (d <= Delta0)", []).append(
                                float(_rel(float(law.privacy_profile(ee, sh)), ref.profile(ee, Fraction(sh) / q0))))
                    far = [1 + 2 * beta * float(x) for x in ctx.rng(f"gen far {e}").uniform(0.0, 1.0, 2)] if cut else \
                        [1 + 30 * float(x) for x in ctx.rng(f"gen far {e}").uniform(0.0, 1.0, 2)]
                    for dd, ee in zip(far, (0.0, 0.5 * e)):  # beyond one period: the derived per-period forms (generated)
                        sh = dd * d0
                        if 1.0 < Fraction(sh) / q0 < (2 * Fraction(law.bound) / q0 if cut else math.inf):
                            errs.setdefault("profile (d > Delta0)", []).append(float(_rel(
                                float(law.privacy_profile(ee, sh)), ref.profile_far(ee, Fraction(sh) / q0))))
                    errs.setdefault("entropy", []).append(float(abs(law.entropy() - mpmath.log(m0) - ref.entropy())))
                    if cut:  # the derived per-period summands of E[T^4] (E[T^2] is var above)
                        errs.setdefault("E[T^4]", []).append(float(_rel(mpmath.mpf(law.moment(4)),
                                                                        ref.moment(4) * m0**4)))
        worst = max(max(v) for v in errs.values())
        return verified(worst < 1e-12, f"fhsym.{cls.__name__} (the generated code) vs exact piece sums of the "
                        f"definition, Delta0 in {{0.37, 2.5}}", n, f"{DPS} digits", f"{worst:.1e}",
                        evidence=[f"- {k}: worst {max(v):.1e}{' (absolute)' if k == 'entropy' else ''}"
                                  for k, v in errs.items()])

    def profile(ctx: Context) -> Outcome:
        weights = profile_weights(decl)
        steps = [f"- W_{n}(d) = {e}" for n, e in weights.items()]
        errs = []
        with mpmath.workdps(DPS + 10):
            for e, w, _ in params(ctx, "profile", ctx.n(6, 1)):
                ref, vals = ref_of(e, w, 0.0), values(e, w, 0.0)
                for dd in list(ctx.rng(f"profile d {e}").uniform(0.0, 1.0, 2)) + [w, min(2 * w, 1.0)]:
                    if not 0.0 < dd <= 1.0:
                        continue
                    for ee in (0.0, 0.37 * e):
                        vals_d = {**vals, d_shift: sp.Float(float(dd), DPS + 10)}
                        got = sum(_mp(unstable(wn), vals_d) * (1 - sp.exp(sp.Float(ee, DPS + 10) - n * sp.Float(e, DPS + 10)))
                                  for n, wn in weights.items() if ee < n * e)
                        errs.append(_rel(sp.N(got, DPS), ref.profile(ee, float(dd))))
        steps.append(f"- sum_n W_n(d) (1 - e^(eps - n eps0))_+ at {DPS} digits against exact piece sums of "
                     f"[f(t) - e^eps f(t + d)]_+ at {len(errs)} points (d in (0, 1] periods, among them d = W, 2W): worst "
                     f"{_worst(errs)}")
        return verified(bool(weights) and max(errs) < mpmath.mpf(10) ** -40,
                        "derived lattice weights (exact cell overlaps, geometric sums) vs exact piece sums of the definition",
                        len(errs), f"{DPS} digits", _worst(errs), evidence=steps)

    def profile_run(ctx: Context) -> Outcome:
        pp = periods()
        ok = pp is not None
        steps: List[str] = []
        if pp is not None:
            diff = sp.simplify(unstable(pp.run) - pp.run_raw)
            steps.append(f"- sum_(j<J) r^j (1 - x r^(N - 2j)) = {pp.run_raw} (SymPy summation, r < 1); stable form "
                         f"{pp.run} minus it: {diff}")
            # N + 1 - J is the mean of the run's level differences N and N - 2(J - 1): the closed factor's exponent
            mean = sp.simplify((n_top + (n_top - 2 * (J_run - 1))) / 2 - (n_top + 1 - J_run))
            steps.append(f"- (N + (N - 2(J - 1)))/2 - (N + 1 - J) = {mean}: 1 - x r^(N + 1 - J) > 0 when the run's last "
                         f"term 1 - x r^(N - 2(J - 1)) is (x r^mean <= x r^last)")
            ok = diff == 0 and mean == 0
        return proven(ok, "the run's closed form = SymPy's summation (symbolic in r, x = e^eps, N, J)", steps)

    def profile_beyond(ctx: Context) -> Outcome:
        pp = periods()
        if pp is None:
            return verified(False, "no profile_periods", 0, "-", "-")
        steps = [f"- head_{m}(f) = {e}" for m, e in pp.head.items()] + [f"- block_{c}(f) = {e}" for c, e in pp.block.items()]
        # exact: the head masses are P(T >= 0) = 1/2, the blocks one period of |T| (sum_c = (1 - r)/2 = m/Z)
        exact_bad, n_exact = [], 0
        g = ctx.rng("profile beyond exact")
        for _ in range(ctx.n(12, 3)):
            vals = {r: sp.Rational(int(g.integers(1, 99)), 100), W: sp.Rational(int(g.integers(0, 101)), 100),
                    f_shift: sp.Rational(int(g.integers(0, 1000)), 1000)}
            n_exact += 1
            hs = sum(unstable(e).subs(vals) for e in pp.head.values())
            bs = sum(unstable(e).subs(vals) for e in pp.block.values())
            if sp.nsimplify(hs) != sp.Rational(1, 2) or sp.nsimplify(bs - (1 - vals[r]) / 2) != 0:
                exact_bad.append(vals)
        steps.append(f"- exactly at {n_exact} rational (r, W, f): sum_m head_m = 1/2 (the mass of T >= 0) and sum_c "
                     f"block_c = (1 - r)/2 (one period of |T|, m/Z): {len(exact_bad)} failures")
        errs = []
        head_u = {m: unstable(hm) for m, hm in pp.head.items()}  # the forms prepared once, not per point
        block_u = {c: unstable(bc) for c, bc in pp.block.items()}
        run_u = unstable(pp.run)
        with mpmath.workdps(DPS + 10):
            for e, w, _ in params(ctx, "profile beyond", ctx.n(5, 1)):
                ref, vals = ref_of(e, w, 0.0), values(e, w, 0.0)
                ds = [1.0 + float(x) for x in ctx.rng(f"beyond d {e}").uniform(0.0, 11.0, 3)] + [2.0, 3.0 + w]
                for dd in ds:
                    p = int(np.floor(dd))
                    vals_d = {**vals, f_shift: sp.Float(dd - p, DPS + 10)}
                    head_d = {m: mpmath.mpf(_mp(hm, vals_d)) for m, hm in head_u.items()}  # once per shift
                    block_d = {c: mpmath.mpf(_mp(bc, vals_d)) for c, bc in block_u.items()}
                    for ee in (0.0, 0.37 * e, (p + 0.5) * e):
                        E, e0 = mpmath.mpf(ee), mpmath.mpf(e)
                        got = sum((head_d[m] * -mpmath.expm1(E - (p + m) * e0)
                                   for m in head_u if ee < (p + m) * e), mpmath.mpf(0))
                        for c in block_u:
                            J = sum(1 for j in range(p) if ee < (p + c - 2 * j) * e)
                            run = run_u.subs({J_run: J, n_top: p + c, x_eps: sp.exp(sp.Float(ee, DPS + 10))})
                            got += block_d[c] * mpmath.mpf(_mp(run, vals_d))
                        errs.append(_rel(got, ref.profile(ee, dd)))
        steps.append(f"- delta(eps; p + f) = sum_m head_m (1 - e^eps r^(p+m))_+ + sum_c block_c run(J_c, p + c) at {DPS} "
                     f"digits against exact piece sums of [f(t) - e^eps f(t + d)]_+ at {len(errs)} points (d in [1, 12] "
                     f"periods, among them d = 2, 3 + W): worst {_worst(errs)}")
        return verified(not exact_bad and max(errs) < mpmath.mpf(10) ** -40,
                        "derived masses (exact cell overlaps, geometric sums over the periods) vs exact piece sums of "
                        "the definition", len(errs) + n_exact, f"{DPS} digits; exact sums", _worst(errs), evidence=steps)

    def profile_cut(ctx: Context) -> Outcome:
        weights, inf = profile_weights_cut(decl)
        weights_u, inf_u = {n: unstable(wn) for n, wn in weights.items()}, unstable(inf)  # once, not per point
        steps = [f"- W_{n}(d) = {e}" for n, e in weights.items()] + [f"- I(d) = {inf}"]
        errs = []
        with mpmath.workdps(DPS + 10):
            for e, w, beta in params(ctx, "profile cut", ctx.n(6, 2)):
                ref, vals = ref_of(e, w, beta), values(e, w, beta)
                rh = float(beta - np.floor(beta))
                for dd in list(ctx.rng(f"profile cut d {e}").uniform(0.0, 1.0, 2)) + [w, rh, 1.0]:
                    if not 0.0 < dd <= 1.0:
                        continue
                    vals_d = {**vals, d_shift: sp.Float(float(dd), DPS + 10)}
                    inf_d = mpmath.mpf(_mp(inf_u, vals_d))
                    w_d = {n: mpmath.mpf(_mp(wn, vals_d)) for n, wn in weights_u.items()}
                    for ee in (0.0, 0.37 * e, 2.5 * e):
                        got = inf_d + sum((w_d[n] * -mpmath.expm1(mpmath.mpf(ee) - n * mpmath.mpf(e))
                                           for n in weights_u if ee < n * e), mpmath.mpf(0))
                        errs.append(_rel(got, ref.profile(ee, float(dd))))
        steps.append(f"- I(d) + sum_n W_n(d) (1 - e^(eps - n eps0))_+ at {DPS} digits against exact piece sums of "
                     f"[f(t) - e^eps f(t + d)]_+ (the cut beta among the edges) at {len(errs)} points (beta in [1, 12], "
                     f"d in (0, 1] periods, among them d = W, rho, 1): worst {_worst(errs)}")
        return verified(bool(weights) and max(errs) < mpmath.mpf(10) ** -40,
                        "derived cut-law weights and infinite-loss mass (exact cell overlaps clipped at the cut, geometric "
                        "sums) vs exact piece sums of the definition", len(errs), f"{DPS} digits", _worst(errs),
                        evidence=steps)

    def run_length(ctx: Context) -> Outcome:
        """The classes count a run's positive terms as J = clamp(ceil((N - x)/2), 0, n) (x = eps/eps0 rational): for an
        integer j, N - 2j > x iff j < (N - x)/2 iff j < ceil((N - x)/2), so the j in [0, n) with a positive term are
        the first clamp(ceil((N - x)/2), 0, n); checked exactly against the count of the definition."""
        bad, n_pts = [], 0
        for N in range(-3, 9):
            for n in range(0, 7):
                for num in range(-8, 40):
                    x = sp.Rational(num, 4)  # eps/eps0 on quarter steps: every integer and half-integer boundary
                    count = sum(1 for j in range(n) if N - 2 * j > x)
                    n_pts += 1
                    if count != min(max(sp.ceiling((N - x) / 2), 0), n):
                        bad.append((N, n, x))
        return verified(not bad, "J = clamp(ceil((N - eps/eps0)/2), 0, n) = #{j < n : (N - 2j) eps0 > eps}", n_pts,
                        "exact rationals", "0" if not bad else str(bad[:3]),
                        evidence=[f"- N in [-3, 8], n in [0, 6], eps/eps0 in [-2, 9.75] on quarter steps (every integer "
                                  f"and half-integer boundary): {len(bad)} mismatches"])

    def tail_shift(ctx: Context) -> Outcome:
        """The cut law's tail with its first s periods factored out (what the class does for the infinite-loss mass):
        sf_i(k, a; K) Z(K) = r^s sf_i(k - s, a; K - s) Z(K - s), and the same for the cut period's sf_top."""
        d = dv()
        s_ = sp.Symbol("s", integer=True, nonnegative=True)
        steps, ok = [], True
        for name, form in [(f"sf_{i}(k, a)", f_) for i, f_ in enumerate(d.sf)] + [("sf_top(u)", d.sf_top)]:
            e = unstable(form * d.Z)
            diff = sp.simplify(sp.expand(e - r**s_ * e.subs({k: k - s_, K: K - s_}, simultaneous=True)))
            ok &= diff == 0
            steps.append(f"- {name} Z(K) - r^s ({name} Z)(k - s, K - s) = {diff}")
        return proven(ok, "tail from the top = r^s times the tail of the law cut s periods earlier", steps)

    def profile_cut_beyond(ctx: Context) -> Outcome:
        far = profile_periods_cut(decl)
        if far is None:
            return verified(False, "no profile_periods_cut", 0, "-", "-")
        args = (f_shift, eps_, W, K, rho)
        fns = {part: {clip: {key: sp.lambdify(args, _plain(unstable(e).subs(r, sp.exp(-eps_))), modules="mpmath")
                             for key, e in masses.items()} for clip, masses in clips.items()}
               for part, clips in far.items() if part != "run"}
        sf_fns = [sp.lambdify((k, a, eps_, W, K, rho), _plain(unstable(e).subs(r, sp.exp(-eps_))), modules="mpmath")
                  for e in dv().sf]
        top_fn = sp.lambdify((u, eps_, W, K, rho), _plain(unstable(dv().sf_top).subs(r, sp.exp(-eps_))), modules="mpmath")
        steps = [f"- `{part}[{clip}][{key}](f)` = {e}" for part, clips in far.items() if part != "run"
                 for clip, masses in clips.items() for key, e in masses.items()]
        errs = []
        with mpmath.workdps(DPS + 10):
            for e, w, beta in params(ctx, "profile cut beyond", ctx.n(8, 2)):
                ref = ref_of(e, w, beta)
                E0, Wm, B = mpmath.mpf(e), mpmath.mpf(w), mpmath.mpf(beta)
                Kk = int(mpmath.floor(B))
                rh = B - Kk

                def sf(x: Any) -> Any:  # the derived tail at 0 <= x <= beta
                    kk = int(mpmath.floor(x))
                    uu = x - kk
                    if kk >= Kk:
                        return top_fn(uu, E0, Wm, Kk, rh)
                    return sf_fns[0](kk, Wm - uu, E0, Wm, Kk, rh) if uu < Wm else sf_fns[1](kk, 1 - uu, E0, Wm, Kk, rh)

                g = ctx.rng(f"cut beyond d {e}")
                ds = [1 + float(x) for x in g.uniform(0.0, 2 * beta - 1, 2)] + [2.0, float(Kk), beta, beta - 2.0**-30,
                                                                              1 + w + 2.0**-40, 2 + w - 2.0**-40,
                                                                              2 * beta - 0.01]
                for dd in ds:
                    if not 1 < dd < 2 * beta:
                        continue
                    D = mpmath.mpf(dd)
                    p = int(mpmath.floor(D))
                    f = D - p
                    heads, blocks = cut_far_plan(p, Kk)
                    for ee in (0.0, 0.37 * e, (p + 0.5) * e):
                        E = mpmath.mpf(ee)
                        x = B - D
                        got = sf(x) if x >= 0 else 1 - sf(min(-x, B))
                        r_ = mpmath.exp(-E0)
                        for clip, k0, n in heads:
                            for m, fn in fns["head"][clip].items():
                                if ee < (p + m) * e:
                                    got += fn(f, E0, Wm, Kk, rh) * r_**k0 * (1 - r_**n) / (1 - r_) * -mpmath.expm1(E - (p + m) * E0)
                        for clip, j0, n in blocks:
                            for c, fn in fns["block"][clip].items():
                                N = p + c - 2 * j0
                                L = min(n, max(0, int(mpmath.ceil((N - E / E0) / 2))))
                                if L > 0:
                                    got += fn(f, E0, Wm, Kk, rh) * r_**j0 * (1 - r_**L) / (1 - r_) * \
                                        -mpmath.expm1(E - (N + 1 - L) * E0)
                        errs.append(_rel(got, ref.profile_far(ee, dd)))
        steps.append(f"- delta(eps; p + f) = P(T > beta - d) (the derived sf) + the head and block runs of cut_far_plan "
                     f"at {DPS} digits against exact piece sums of [f(t) - e^eps f(t + d)]_+ (the cut among the edges) at "
                     f"{len(errs)} points (beta in [1, 12], d in (1, 2 beta), among them whole periods, d = K, beta, "
                     f"beta - 2^-30, a cell edge +- 2^-40, 2 beta - 0.01): worst {_worst(errs)}")
        return verified(bool(errs) and max(errs) < mpmath.mpf(10) ** -40,
                        "derived cut-law masses beyond one period (cells clipped at the cut, runs of periods, the "
                        "infinite-loss tail) vs exact piece sums of the definition", len(errs), f"{DPS} digits",
                        _worst(errs), evidence=steps)

    topic.add(facts, obj="declaration", paper="-", claim="cells tile [0, 1); lengths >= 0; heights > 0", name="facts")
    topic.add(sf_is_the_tail, obj="Z, sf", paper="-", claim="sf is the tail integral of the declared density",
              name="sf")
    topic.add(half_and_quantile, obj="P(0<T<=x), isf", paper="-", claim="half = 1/2 - sf; isf inverts sf per cell",
              name="quantile")
    if cut:
        topic.add(quantile_top, obj="isf in the cut period", paper="-", claim="the clipped quantile inverts sf there",
                  name="quantile_top")
    topic.add(moments, obj="moments, variance, entropy", paper="-", claim="derived forms = the definition's integrals", name="moments")
    if not cut:
        topic.add(profile, obj="privacy profile, shift <= Delta0", paper="-",
                  claim="delta(eps; d) = sum_n W_n(d) (1 - e^(eps - n eps0))_+ (lattice form)", name="profile")
        topic.add(profile_run, obj="privacy profile, shift > Delta0", paper="-",
                  claim="sum_(j<J) r^j (1 - e^eps r^(N-2j)) = (1 - r^J)/(1 - r) (1 - e^eps r^(N+1-J))", name="profile_run")
        topic.add(run_length, obj="privacy profile, shift > Delta0", paper="-",
                  claim="the positive terms of a run are its first clamp(ceil((N - eps/eps0)/2), 0, n)", name="run_length")
        topic.add(profile_beyond, obj="privacy profile, shift > Delta0", paper="-",
                  claim="delta(eps; p + f) = sum_m head_m(f) (1 - e^(eps - (p+m) eps0))_+ + sum_c block_c(f) run(J_c, p + c)",
                  name="profile_beyond")
        _staircase_plan_rows(topic, decl)
    if cut:
        topic.add(profile_cut, obj="privacy profile, shift <= Delta0", paper="-",
                  claim="delta(eps; d) = I(d) + sum_n W_n(d) (1 - e^(eps - n eps0))_+ (cut lattice form)", name="profile")
        topic.add(profile_cut_beyond, obj="privacy profile, shift > Delta0", paper="-",
                  claim="delta(eps; p + f) = P(T > beta - d) + the clipped head and block runs (profile_periods_cut)",
                  name="profile_beyond")
        topic.add(tail_shift, obj="sf (infinite-loss mass)", paper="-",
                  claim="sf(k, a; K) Z(K) = r^s (sf Z)(k - s, a; K - s)", name="tail_shift")
    topic.add(generated, obj="generated code", paper="-", claim="the law class's numerics = the definition's integrals to 1e-12",
              name="generated")
    return topic


def _staircase_plan_rows(topic: Topic, decl: Any) -> None:
    """The staircase's hand-written certificate plan (fhsym/noise/plans/staircase.py) against the derived lattice
    weights (d <= 1 period, exactly) and against quadrature of the step density (any d, the balls)."""
    from flint import fmpq

    from fhsym.noise.plans.staircase import staircase_plan

    W = decl.shape_symbols[0]
    E = sp.Symbol("E", positive=True)  # e^eps

    def plan_expr(p: Any) -> sp.Expr:
        """staircase_eval transcribed with b = r = e^-eps0 and e^{eps - n eps0} = E r^n symbolic (the plan's data
        -- lengths, levels, n, M -- exact rationals)."""
        if p.zero:
            return sp.Integer(0)
        Wq = sp.Rational(int(p.W.p), int(p.W.q))
        omb = 1 - r
        a_ = omb / (2 * (Wq + (1 - Wq) * r))
        s1 = sum((sp.Rational(int(ln.p), int(ln.q)) * (r if l0 else 1) * (1 - E * r**n) for ln, l0, n in p.part1),
                 sp.Integer(0))
        s2 = sum((sp.Rational(int(ln.p), int(ln.q)) * (r if l0 else 1) * (1 - r**m) / omb * (1 - E * r**(n0 - m + 1))
                  for ln, l0, n0, m in p.part2), sp.Integer(0))
        return a_ * (s1 / omb + s2)

    def certificate_plan(ctx: Context) -> Outcome:
        weights = profile_weights(decl)
        ds = [sp.Rational(1, 8), sp.Rational(1, 4), sp.Rational(1, 3), sp.Rational(1, 2), sp.Rational(2, 3),
              sp.Rational(3, 4), sp.Integer(1)]
        Ws = [sp.Rational(1, 5), sp.Rational(1, 3), sp.Rational(1, 2), sp.Rational(2, 3), sp.Rational(4, 5)]
        ratios = [sp.Integer(0), sp.Rational(1, 2), sp.Integer(1)]  # eps/eps0: every n >= 1, n >= 1 again, none
        bad, n = [], 0
        for dq in ds:
            for wq in Ws:
                for rho_ in ratios:
                    p = staircase_plan(fmpq(int(rho_.p), int(rho_.q)), fmpq(int(dq.p), int(dq.q)), fmpq(1),
                                       fmpq(int(wq.p), int(wq.q)))
                    derived = sum((unstable(wn).subs({d_shift: dq, W: wq}) * (1 - E * r**k) for k, wn in weights.items()
                                   if rho_ < k), sp.Integer(0))
                    diff = sp.cancel(sp.together(plan_expr(p) - derived))
                    n += 1
                    if diff != 0:
                        bad.append(f"d = {dq}, W = {wq}, eps/eps0 = {rho_}: plan - derived = {diff}")
        steps = [f"- {n} points: d in {{{', '.join(map(str, ds))}}} periods x W in {{{', '.join(map(str, Ws))}}} x "
                 f"eps/eps0 in {{0, 1/2, 1}}; staircase_plan's pieces (exact) put into staircase_eval's formula with "
                 f"r = e^-eps0 and e^eps symbolic, minus sum_n W_n(d) (1 - e^eps r^n) over n > eps/eps0 with the derived "
                 f"lattice weights: SymPy cancels every difference to 0: {not bad}"] + [f"  - {b}" for b in bad]
        return verified(not bad, "staircase_eval transcribed = the derived lattice profile, exactly (SymPy, symbolic "
                        "in r = e^-eps0 and e^eps) at rational (d, W) pairs; the plan's formula for d > 1 periods has no "
                        "derived counterpart: the balls row checks it against quadrature", n,
                        "exact (SymPy, symbolic in r and e^eps)", "0", evidence=steps)

    def certificate_plan_balls(ctx: Context) -> Outcome:
        """(eps0, W, eps, d) at Delta0 = 1: level changes d = W, 1 - W, 1, 1 + W, 2, 2 + W, eps = n eps0 and its
        float neighbours, d/2 an integer, eps0 = 700, and tails: a shift d = 1e-290 (1e-310) with eps one ulp below
        eps0 (delta ~ d 2^-53: ~1e-307, and below the subnormals)."""
        import math

        rows = []
        for e0, w, pts in ((1.0, 0.4167, [(0.0, 0.4167), (0.5, 0.4167), (0.5, 0.5833), (0.5, 1.0), (1.0, 1.0),
                                          (math.nextafter(1.0, 0.0), 1.0), (0.5, 1.4167), (1.5, 2.0), (2.0, 2.0),
                                          (math.nextafter(2.0, 0.0), 2.4167), (2.5, 3.7), (0.0, 4.0)]),
                           (2.0, 0.25, [(1.0, 0.25), (2.0, 0.5), (3.0, 1.25), (4.0, 2.5), (math.nextafter(4.0, 0.0), 2.5),
                                        (0.0, 6.0)]),
                           (700.0, 0.5, [(1000.0, 0.75), (650.0, 0.75)]),
                           (20.0, 0.5, [(math.nextafter(20.0, 0.0), 1e-290), (math.nextafter(20.0, 0.0), 1e-310),
                                       (1.0, 1e-290)])):
            rows += [(e0, w, e, d) for e, d in pts]
        g = ctx.rng("staircase plan points")
        for _ in range(ctx.n(4, 1)):
            e0, w = float(g.uniform(0.5, 3.0)), float(g.uniform(0.05, 0.95))
            rows += [(e0, w, float(g.uniform(0.0, 3.0 * e0)), float(g.uniform(0.0, 4.0))) for _ in range(3)]
        refs: Dict[Tuple[float, float, int], StepRef] = {}

        def ref(e0: float, w: float, dps: int) -> StepRef:
            """The step density's reference at dps digits, built once per (eps0, W, dps)."""
            if (e0, w, dps) not in refs:
                refs[e0, w, dps] = StepRef(e0, w, None, dps=dps)
            return refs[e0, w, dps]

        def ref_of(e0: float, w: float, e: float, d: float) -> Any:
            """The definition's sum at 50 digits (60 working); a value below 1e-45 again at 400 digits (410 working):
            there a shift d ~ 1e-290 has its own edges (t and t - d apart at 60 digits only below 1e-60), and where
            the integrand's positive part is zero (eps = n eps0 on every cell) rounding leaves ~1e-60, which is below
            1e-380 at 400 digits: 0."""
            lo = ref(e0, w, DPS).profile(e, d)
            if abs(lo) > mpmath.mpf(10) ** -45:
                return lo
            hi = ref(e0, w, 400).profile(e, d)
            return mpmath.mpf(0) if abs(hi) < mpmath.mpf(10) ** -380 else hi

        cases: List[_plans.Case] = []
        for e0, w, e, d in rows:
            cases.append((fhsym.Staircase(e0, 1.0, w), e, d, (lambda e0=e0, w=w, e=e, d=d: ref_of(e0, w, e, d)),
                          f"eps0 = {e0:g}, W = {w:g}"))
        return _plans.balls_outcome(cases, "eps0, W at Delta0 = 1; eps, d; reference: the definition's integral "
                                           "int [f(t) - e^eps f(t + d)]_+ dt of the step density, constant between the "
                                           "edges, summed at 60 digits (410 below 1e-45): StepRef.profile")

    topic.add(certificate_plan, obj="certificate plan", paper="-", quick=False,
              claim="the hand-written plan (fhsym/noise/plans/staircase.py) = the derived lattice profile (d <= Delta0)",
              name="certificate_plan")
    topic.add(certificate_plan_balls, obj="certificate plan", paper="-",
              claim="profile_enclosure contains the definition's integral (50 digits) at the plan's level changes; "
                    "width <= 2^-60", name="certificate_plan_balls")


#: one topic per declared step law (the harness reads ``topics``: proofs._harness.discover)
topics = [_topic(key, src) for key, src in SOURCES]
