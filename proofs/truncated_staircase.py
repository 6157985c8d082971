"""Proofs for the truncated staircase (issue 31 item 1): the closed forms, the profile, the design.

1. **Symbolic** (SymPy): one period of ``b^{l(y)}`` integrates to ``m = W + b (1 - W)`` (first and second moments
   ``m1``, ``m2`` likewise); the normaliser ``H(K + r)`` is SymPy's own summation of the periods plus the partial
   one; the telescoping identities of ``G1 = sum_{k<K} k b^k`` and ``G2 = sum_{k<K} k^2 b^k`` used by the variance;
   the cut window ``int_{B-1}^{B} h = b^{K-1} (m - (1 - b) c(r))`` and the design's explicit ``c(r)`` solving
   ``window / (2 H) = delta``.
2. **Against the definition** (:mod:`proofs.reference_truncated_staircase`: piece sums of ``b^{l(|t|)}`` at 50
   digits, breakpoints from the definition in exact rationals): variance (float and the 256-bit ball), CDF, quantile,
   the profile (float kernel and arb enclosure) for shifts below, at and above Delta0 and eps below, at and above
   eps0; the supremum over the shifts at the shift Delta0 (the monotonicity lemma, on a grid of 24 shifts); and the
   calibrated laws' delta at 50 digits.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, List, Tuple

import mpmath

import sympy as sp

import fhsym
from fhsym import TruncatedStaircase

from . import _plans
from ._harness import Outcome, Topic, proven, verified
from .reference_steps import StepRef
from .reference_truncated_staircase import Ref, rel

topic = Topic(
    "truncated_staircase",
    "The truncated staircase: closed forms, exact profile, calibration (issue 31)",
    order=45,
    description=(
        "density b^{l(|t|)}/(2 Delta0 H(beta)) on [-B, B], b = e^{-eps0}, l(x) = #{k >= 0: k + W <= x} in units of "
        "Delta0; references are piece sums of the definition at 50 digits (proofs/reference_truncated_staircase.py)."),
)

b, W, r, K, k = sp.symbols("b W r K k", positive=True)
y = sp.Symbol("y", positive=True)


def _period(weight: int, lo: sp.Expr, hi: sp.Expr) -> sp.Expr:
    """int_lo^hi y^weight h0(y) dy with h0 = 1 on [0, W), b on [W, 1) (the first period, 0 <= lo <= hi <= 1)."""
    return sp.integrate(y**weight, (y, lo, hi))


@topic.check(obj="period_moments", paper="-", claim="int_0^1 y^j b^{l(y)} dy = m, m1, m2; int_0^r = c, c1, c2 (both sides of W)")
def period_moments(ctx) -> Outcome:
    m = W + b * (1 - W)
    m1 = (W**2 + b * (1 - W**2)) / 2
    m2 = (W**3 + b * (1 - W**3)) / 3
    ok = True
    for j, closed in enumerate((m, m1, m2)):
        full = _period(j, 0, W) + b * _period(j, W, 1)
        ok &= sp.simplify(full - closed) == 0
        # c_j(r): r <= W (inner step only) and r > W (both steps)
        inner = _period(j, 0, r)
        both = _period(j, 0, W) + b * _period(j, W, r)
        c_in = r ** (j + 1) / (j + 1)
        c_out = (W ** (j + 1) + b * (r ** (j + 1) - W ** (j + 1))) / (j + 1)
        ok &= sp.simplify(inner - c_in) == 0 and sp.simplify(both - c_out) == 0
    return proven(ok, "symbolic (integrate, simplify)",
                  ["- each step is a constant times y^j: the integrals reduce to the closed forms of the module"])


@topic.check(obj="normaliser_and_sums", paper="-", claim="H(K + r) = m (1 - b^K)/(1 - b) + b^K c(r); (1-b) G1 = b G0 - K b^K; (1-b) G2 = b (G0 + 2 G1) - K^2 b^K")
def sums(ctx) -> Outcome:
    Kn = sp.Symbol("K", integer=True, positive=True)
    kk = sp.Symbol("k", integer=True, nonnegative=True)
    m = W + b * (1 - W)
    G0 = sp.summation(b**kk, (kk, 0, Kn - 1))
    G1 = sp.summation(kk * b**kk, (kk, 0, Kn - 1))
    G2 = sp.summation(kk**2 * b**kk, (kk, 0, Kn - 1))

    def generic(e: sp.Expr) -> sp.Expr:  # SymPy's case split at b = 1: the generic branch
        return e.args[-1][0] if isinstance(e, sp.Piecewise) else e

    G0, G1, G2 = generic(G0), generic(G1), generic(G2)
    d0 = sp.simplify(m * G0 - m * (1 - b**Kn) / (1 - b))
    d1 = sp.simplify((1 - b) * G1 - (b * G0 - Kn * b**Kn))
    d2 = sp.simplify((1 - b) * G2 - (b * (G0 + 2 * G1) - Kn**2 * b**Kn))
    ok = d0 == 0 and d1 == 0 and d2 == 0
    return proven(ok, "symbolic (summation, simplify)",
                  ["- SymPy's finite sums minus the closed forms / telescoping identities simplify to 0 (b != 1)",
                   "- the period k of the density is b^k times the first (l(k + y) = k + l(y)), so H sums b^k m "
                   "over the K full periods and adds b^K c(r)"])


@topic.check(obj="design", paper="-", claim="window = b^{K-1}(m - (1-b) c); window/(2H) = delta <=> c = (b^{K-1} m - 2 delta m (1-b^K)/(1-b)) / (b^{K-1}(1-b) + 2 delta b^K)")
def design(ctx) -> Outcome:
    c, delta = sp.symbols("c delta", positive=True)
    m = W + b * (1 - W)
    bK1 = sp.Symbol("bK1", positive=True)  # b^{K-1}
    # (B - 1, B] with B = K + r: the rest of period K-1 above r (b^{K-1}(m - c)) and period K up to r (b^K c)
    window = bK1 * (m - c) + bK1 * b * c
    ok_w = sp.simplify(window - bK1 * (m - (1 - b) * c)) == 0
    H = m * (1 - bK1 * b) / (1 - b) + bK1 * b * c
    sol = sp.solve(sp.Eq(window, 2 * delta * H), c)
    closed = (bK1 * m - 2 * delta * m * (1 - bK1 * b) / (1 - b)) / (bK1 * (1 - b) + 2 * delta * bK1 * b)
    ok = ok_w and len(sol) == 1 and sp.simplify(sol[0] - closed) == 0
    # at r = 0 (c = 0): delta = b^{K-1}(1 - b)/(2 (1 - b^K)), free of W
    at0 = sp.simplify((window / (2 * H)).subs(c, 0) - bK1 * (1 - b) / (2 * (1 - bK1 * b)))
    ok = ok and at0 == 0
    return proven(ok, "symbolic (solve, simplify)",
                  ["- the equation is linear in c: one solution, equal to the design's closed form",
                   "- at integer B the cut's delta does not depend on W: K = floor(beta) is found before gamma"])


CASES: List[Tuple[float, float, float, float]] = [
    (1.0, 1.0, 0.4, 5.3), (0.3, 2.0, 0.47, 31.7), (3.0, 0.5, 0.26, 2.1), (10.0, 1.0, 0.028, 2.0158),
    (0.05, 1.0, 0.0, 3.0), (2.0, 1.0, 1.0, 4.0), (0.7, 1.0, 0.3, 1.0), (0.1, 3.0, 0.49, 60.1), (6.0, 1.0, 0.1, 3.3)]


def _cases(ctx) -> List[Tuple[float, float, float, float]]:
    return CASES[:5] if ctx.quick else CASES


def _worst(rows: List[Tuple[float, str]], tol: float, method: str, extra: List[str]) -> Outcome:
    worst, where = max(rows, key=lambda t: t[0])
    return verified(worst <= tol, method, len(rows), "50 digits", f"{worst:.1e}", where,
                    [f"- {len(rows)} points; worst relative error {worst:.2e} at {where}; tolerance {tol:.0e}", *extra])


@topic.check(obj="variance", paper="-", claim="var() and the 256-bit ball variance = piece sums of t^2 g(t) (50 digits)")
def variance(ctx) -> Outcome:
    rows, contained = [], True
    for c in _cases(ctx):
        ts, ref = TruncatedStaircase(*c), Ref(*c)
        v = ref.var()
        rows.append((rel(ts.var(), v), f"{c}"))
        contained &= ts.variance_upper() >= v
    out = _worst(rows, 1e-12, "piece sums of the definition, 50 digits", ["- variance_upper() >= the reference at every point"])
    return out if contained else verified(False, "variance_upper below the reference", len(rows), "50 digits", "-")


@topic.check(obj="cdf_quantile", paper="-", claim="sf/cdf/pdf = piece sums of the definition; sf(isf(q)) = q up to the float x's ulp")
def cdf_quantile(ctx) -> Outcome:
    rows = []
    for c in _cases(ctx):
        ts, ref = TruncatedStaircase(*c), Ref(*c)
        B = c[3]
        for x in (0.0, 0.1, 0.9 * c[1], 0.5 * B, 0.99 * B, -0.7 * B):
            rows.append((rel(float(ts.sf(x)), ref.sf(x)), f"sf {c} x={x:g}"))
        for q in (1e-12, 1e-6, 0.01, 0.3, 0.8):
            x = float(ts.isf(q))
            slack = 4 * math.ulp(max(abs(x), c[1])) * float(ref.pdf(min(abs(x), B)))
            err = float(abs(ref.sf(x) - q)) / min(q, 1 - q)
            rows.append((max(0.0, err - slack / min(q, 1 - q)), f"isf {c} q={q:g}"))
    return _worst(rows, 1e-13, "piece sums of the definition, 50 digits",
                  ["- quantile errors are stated beyond the conditioning of the float x (density x 4 ulp)"])


@topic.check(obj="profile", paper="-", claim="delta(eps; d) (float kernel and arb enclosure) = int [g(t) - e^eps g(t+d)]_+ summed from the definition")
def profile(ctx) -> Outcome:
    rows, contained = [], 0
    for c in _cases(ctx):
        ts, ref = TruncatedStaircase(*c), Ref(*c)
        for eps in (0.0, 0.5 * c[0], c[0], 2.0 * c[0]):
            for d in (0.3 * c[1], c[1], 2.5 * c[1]):
                r = ref.profile(eps, d)
                rows.append((rel(float(ts.privacy_profile(eps, d)), r) if r > 1e-300 else 0.0, f"{c} eps={eps:g} d={d:g}"))
                enc = ts.profile_enclosure(eps, d)
                contained += int(enc.lower <= r <= enc.upper)
    out = _worst(rows, 1e-13, "piece sums of the definition, 50 digits",
                 [f"- the arb enclosure contains the reference at {contained} of {len(rows)} points"])
    return out if contained == len(rows) else verified(False, "enclosure misses the reference", len(rows), "50 digits", "-")


@topic.check(obj="sup_over_shifts", paper="-", claim="sup_{0 < d <= Delta} delta(eps; d) = delta(eps; Delta) for Delta <= Delta0 (24 shifts per point)")
def sup_over_shifts(ctx) -> Outcome:
    rows = []
    for c in _cases(ctx)[:4]:
        ts, ref = TruncatedStaircase(*c), Ref(*c)
        for eps in (0.5 * c[0], c[0]):
            for frac in (0.6, 1.0):
                d = frac * c[1]
                grid = [ref.profile(eps, d * j / 24) for j in range(1, 25)]
                ok = all(a <= bb for a, bb in zip(grid[:-1], grid[1:])) and grid[-1] <= ts.worst_profile_enclosure(eps, d).upper
                rows.append((0.0 if ok else 1.0, f"{c} eps={eps:g} d={d:g}"))
    return _worst(rows, 0.0, "piece sums of the definition at 24 shifts, 50 digits",
                  ["- the reference profile is non-decreasing along the shifts and at most the claimed enclosure's upper end",
                   "- the proof (pointwise monotonicity of the integrand in d) is in fhsym/noise/truncated_staircase.py"])


@topic.check(obj="calibration", paper="-", claim="calibrate(..., mechanism='truncated_staircase'): the reference delta at (eps, Delta) <= delta; the certificate is PROVEN")
def calibration(ctx) -> Outcome:
    rows = []
    pts = [(0.1, 1e-6), (1.0, 1e-5), (3.0, 1e-8), (10.0, 1e-10)] + ([] if ctx.quick else [(0.3, 1e-10), (6.0, 1e-5)])
    for eps, dl in pts:
        cal = fhsym.calibrate(eps, dl, mechanism="truncated_staircase")
        ts = cal.mechanism
        ref = Ref(ts.epsilon, ts.sensitivity, ts.gamma, ts.bound)
        r = ref.profile(eps, 1.0)
        ok = r <= dl and fhsym.verify_certificate(cal.certificate).name == "PROVEN"
        rows.append((0.0 if ok else 1.0, f"eps={eps:g} delta={dl:g}: reference {float(r):.6e}"))
    return _worst(rows, 0.0, "piece sums of the definition, 50 digits; verify_certificate",
                  [f"- {r[1]}" for r in rows])


# ------------------------------------------------------------------ the hand-written plan (issue 28): its edges
#: (eps0, Delta0, W, beta): beta with a cut period (rho = 1/2, 0.3 < W, 0.05 < W), whole periods (rho = 0), one period;
#: Delta0 = 0.37 and 0.3 (not powers of two: W Delta0, beta Delta0 and d Delta0 round)
EDGE_CASES: List[Tuple[float, float, float, float]] = [(1.0, 1.0, 0.4167, 3.5), (2.0, 1.0, 0.25, 1.0),
                                                       (0.5, 2.0, 0.7, 5.3), (3.0, 1.0, 0.1, 2.05), (20.0, 1.0, 0.5, 2.5),
                                                       (1.0, 0.37, 0.4167, 3.5), (0.5, 0.3, 0.7, 5.3)]


def _law(e0: float, d0: float, W_: float, beta: float) -> Tuple[TruncatedStaircase, Fraction, Fraction]:
    """The class at (eps0, Delta0, gamma = W, bound = beta Delta0) and the W and beta it holds, in periods, exactly:
    fl(W Delta0)/Delta0 and fl(beta Delta0)/Delta0 as rationals (W and beta when Delta0 is a power of two)."""
    ts = TruncatedStaircase(e0, d0, W_, beta * d0)
    return ts, Fraction(ts.width) / Fraction(d0), Fraction(ts.bound) / Fraction(d0)


def _shift(d: float, d0: float) -> Tuple[float, Fraction]:
    """The shift of d periods as the class gets it (fl(d Delta0)) and that shift in periods exactly (the reference's)."""
    shift = d * d0
    return shift, Fraction(shift) / Fraction(d0)


def _edge_points(e0: float, W_: float, beta: float, far: bool) -> List[Tuple[float, float]]:
    """(eps, d) in units of Delta0: d at W, 1 - W, rho, 1, beta - d at a cell edge (d = beta - K' - W), a tiny d, and
    (far) 1 + W, 2, beta, 2 beta - 1/100, 2 beta; eps at 0, eps0/2, eps0 and its float neighbours, 2 eps0."""
    import math as m

    K_ = m.floor(beta)
    ds = [W_, 1.0 - W_, beta - K_, 1.0, 1e-290] + [beta - kk - W_ for kk in (K_ - 1, K_)]
    ds = [x for x in ds if 0.0 < x <= 1.0]
    if far:
        ds += [x for x in (1.0 + W_, 2.0, beta, 2 * beta - 0.01, 2 * beta) if x > 1.0]
    es = [0.0, e0 / 2, m.nextafter(e0, 0.0), e0, m.nextafter(e0, m.inf), 2 * e0]
    return [(e, d) for d in sorted(set(ds)) for e in es]


def _step_ref(e0: float, W_: Any, beta: Any, dps: int, refs: dict) -> StepRef:
    if (e0, W_, beta, dps) not in refs:
        refs[e0, W_, beta, dps] = StepRef(e0, W_, beta, dps=dps)
    return refs[e0, W_, beta, dps]


def _ref50(e0: float, W_: Any, beta: Any, e: float, d: Any, refs: dict) -> Any:
    """The definition's piece sum at 50 digits; below 1e-45 again at 400 digits (0 below 1e-380: a zero integrand
    left at ~1e-60 by rounding; the staircase's certificate_plan_balls does the same)."""
    lo = _step_ref(e0, W_, beta, 50, refs).profile(e, d)
    if abs(lo) > mpmath.mpf(10) ** -45:
        return lo
    hi = _step_ref(e0, W_, beta, 400, refs).profile(e, d)
    return mpmath.mpf(0) if abs(hi) < mpmath.mpf(10) ** -380 else hi


@topic.check(obj="certificate plan", paper="-", claim="profile_enclosure (fhsym/noise/plans/truncated_staircase.py) contains "
             "the definition's integral (50 digits) at the plan's level changes and the cut; width <= 2^-60")
def certificate_plan_balls(ctx) -> Outcome:
    refs: dict = {}
    cases: List[_plans.Case] = []
    for e0, d0, W_, beta in EDGE_CASES[:ctx.n(7, 2)]:
        ts, Wq, bq = _law(e0, d0, W_, beta)
        pts = _edge_points(e0, W_, beta, far=True)
        for e, d in pts[::ctx.n(1, 3)]:
            shift, dq = _shift(d, d0)  # the class and the reference at the same shift and law, exactly
            cases.append((ts, e, shift, (lambda e0=e0, Wq=Wq, bq=bq, e=e, dq=dq: _ref50(e0, Wq, bq, e, dq, refs)),
                          f"eps0 = {e0:g}, Delta0 = {d0:g}, W = {W_:g}, beta = {beta:g}"))
    return _plans.balls_outcome(cases, "eps0, Delta0, W, beta; eps, d: every level change of the plan, the cut, d up to "
                                       "2 beta; reference: the definition's integral int [f(t) - e^eps f(t + d)]_+ dt, "
                                       "constant between the edges, summed at 60 digits (410 below 1e-45): StepRef")


@topic.check(obj="class profile, shift <= Delta0", paper="-", claim="privacy_profile (the plan's closed form in floats) = "
             "the definition's integral at the plan's level changes and the cut (50 digits)")
def class_profile(ctx) -> Outcome:
    refs: dict = {}
    rows = []
    for e0, d0, W_, beta in EDGE_CASES[:ctx.n(7, 3)]:
        ts, Wq, bq = _law(e0, d0, W_, beta)
        for e, d in _edge_points(e0, W_, beta, far=False)[::ctx.n(1, 2)]:
            shift, dq = _shift(d, d0)  # the class and the reference at the same shift and law, exactly
            want = _ref50(e0, Wq, bq, e, dq, refs)
            got = float(ts.privacy_profile(e, shift))
            err = rel(got, want) if want > 1e-300 else (0.0 if got == 0.0 or abs(got) < 1e-300 else 1.0)
            rows.append((float(err), f"eps0 = {e0:g}, Delta0 = {d0:g}, W = {W_:g}, beta = {beta:g}, eps = {e!r}, "
                         f"d = {d!r}"))
    return _worst(rows, 1e-15, "piece sums of the definition, 50 digits (400 below 1e-45)",
                  ["- d in units of Delta0 at W, 1 - W, rho, 1, 1e-290 and where beta - d is a cell edge; eps at 0, "
                   "eps0/2, eps0 and its float neighbours, 2 eps0; Delta0 = 1, 2, 0.37, 0.3: the reference at the "
                   "class's exact W, beta and shift (fl(x Delta0)/Delta0)"])


@topic.check(obj="certificate plan", paper="-", quick=False, claim="ts_eval (fhsym/noise/plans/truncated_staircase.py) at "
             "shifts <= Delta0 = the derived cut lattice profile I(d) + W_1(d) (1 - e^(eps - eps0))_+, exactly")
def certificate_plan(ctx) -> Outcome:
    """ts_plan's data (exact) put into ts_eval's formula with r = e^-eps0 and E = e^eps symbolic, minus the derived
    ``profile_weights_cut`` (fhsym.symbolic.steps) at the same rational (d, W, beta): SymPy cancels the difference."""
    from flint import fmpq

    from fhsym.noise.plans.truncated_staircase import ts_plan
    from fhsym.symbolic import steps as S
    from fhsym.symbolic.laws import truncated_staircase as TL

    Wsym = TL.DECLARATION.shape_symbols[0]
    rr, E = S.r, sp.Symbol("E", positive=True)
    weights, inf = S.profile_weights_cut(TL.DECLARATION)
    weights = {n: S.unstable(w_).replace(S.Sub, lambda a_, b_: a_ - b_) for n, w_ in weights.items()}
    inf = S.unstable(inf).replace(S.Sub, lambda a_, b_: a_ - b_)
    Q = lambda x: sp.Rational(int(x.p), int(x.q))  # noqa: E731 - fmpq to SymPy

    def plan_expr(p) -> sp.Expr:  # ts_eval transcribed (d <= 1)
        Wq, rh = Q(p.W), Q(p.r)
        m = Wq + rr * (1 - Wq)
        H = m * (1 - rr**p.K) / (1 - rr) + rr**p.K * (sp.Min(rh, Wq) + rr * sp.Max(rh - Wq, 0))
        total = sum((Q(length) * rr**lev for length, lev in p.window), sp.Integer(0))
        if p.active:
            pa = Q(p.L0) + Q(p.t_neg)
            if p.N >= 1:
                pa += Q(p.d) * rr * (1 - rr**p.N) / (1 - rr)
            if p.LN > 0:
                pa += rr**(p.N + 1) * Q(p.LN)
            total += pa * (1 - E * rr)
        return total / (2 * H)

    bad, n = [], 0
    Ws = [sp.Rational(1, 5), sp.Rational(1, 2), sp.Rational(4, 5)] + ([] if ctx.quick else [sp.Rational(1, 3)])
    betas = [sp.Integer(1), sp.Rational(3, 2), sp.Rational(7, 3), sp.Integer(5), sp.Rational(21, 4)]
    for wq in Ws:
        for bq in betas:
            Kq = sp.floor(bq)
            ds = {sp.Rational(1, 8), sp.Rational(1, 3), sp.Rational(1, 2), sp.Rational(3, 4), sp.Integer(1), wq, 1 - wq,
                  bq - Kq, bq - Kq - wq, bq - Kq + 1 - wq}
            for dq in sorted(x for x in ds if 0 < x <= 1):
                for ratio in (sp.Rational(1, 2), sp.Integer(1)):  # eps/eps0: the level-difference-1 term on, off
                    p = ts_plan(fmpq(int(ratio.p), int(ratio.q)), fmpq(int(dq.p), int(dq.q)), fmpq(1),
                                fmpq(int(wq.p), int(wq.q)), fmpq(int(bq.p), int(bq.q)))
                    at = {S.d_shift: dq, Wsym: wq, S.K: Kq, S.rho: bq - Kq}
                    derived = inf.subs(at) + sum((w_.subs(at) * (1 - E * rr**k_) for k_, w_ in weights.items()
                                                  if ratio < k_), sp.Integer(0))
                    diff = sp.cancel(sp.together(plan_expr(p) - derived))
                    n += 1
                    if diff != 0:
                        bad.append(f"d = {dq}, W = {wq}, beta = {bq}, eps/eps0 = {ratio}: plan - derived = {diff}")
    return verified(not bad, "ts_eval transcribed = the derived cut lattice profile, exactly (SymPy, symbolic in "
                    "r = e^-eps0 and e^eps) at rational (d, W, beta); beyond one period the balls row checks the plan "
                    "against the definition", n, "exact (SymPy, symbolic in r and e^eps)", "0",
                    evidence=[f"- {n} points: W in {{{', '.join(map(str, Ws))}}} x beta in {{{', '.join(map(str, betas))}}}"
                              f" x d in (0, 1] (1/8, 1/3, 1/2, 3/4, 1, W, 1 - W, rho and where beta - d is a cell edge) x "
                              f"eps/eps0 in {{1/2, 1}}: SymPy cancels every difference to 0: {not bad}"]
                    + [f"  - {x}" for x in bad[:5]])
