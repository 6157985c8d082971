"""Proofs for the discrete flipped Huber on the lattice h*Z (issue 10).

Three groups of checks:

1. **Symbolic** (SymPy), on the objects of :mod:`fhsym.symbolic.discrete`: the energy is
   rho_alpha(n h)/gamma^2 on both pieces; the hinge form; the geometric closed forms equal
   SymPy's own summation; E is a convex sequence (the second differences at the joints
   reduce to manifestly non-negative forms), so the privacy loss is monotone; the hinge form
   of the loss equals E(k+S) - E(k) (exact rational arithmetic at every region); the Hermite
   derivative identity behind Euler-Maclaurin; the two tail integrals.
2. **Bounds**: the Euler-Maclaurin values of the discrete Gaussian tails against exact
   summation, with the error inside the proven remainder bound; the geometric truncation
   bound above the true omitted tail.
3. **Numeric API against exact summation of the definition** (:class:`Reference`: the pmf
   terms exp(-rho_alpha(n h)/gamma^2) from exact rationals, summed at 80 digits until a proven
   geometric bound on the rest is below 1e-62 relative): log Z, pmf, cdf/sf/logsf, variance,
   the privacy profile (computed by the reference as sum_k [p(k) - e^eps p(k+S)]_+ directly,
   not through k*), and the arb enclosure (contains the reference, width <= 1e-15 relative).
   Regimes: alpha << step, alpha ~ step (including alpha just below a lattice point),
   alpha >> step, gamma << step (a near point mass), large gamma (the Euler-Maclaurin path),
   sensitivities of 1 to 1000 steps.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any, Callable, Dict, List, Sequence, Tuple

import mpmath
import numpy as np
import sympy as sp
from mpmath import mp, mpf

from fhsym.noise import lattice_sums as LS
from fhsym.noise.discrete_flipped_huber import DiscreteFlippedHuber
from fhsym.privacy.discrete_enclosure import discrete_profile_enclosure
from fhsym.symbolic import discrete as SD
from fhsym.symbolic.definitions import rho as rho_def

from ._harness import Outcome, Topic, proven, verified
from ._symbolic import prove_zero

topic = Topic(
    "discrete",
    "The discrete flipped Huber on the lattice h*Z: sums, bounds, profile (issue 10)",
    order=40,
    description=(
        "pmf exp(-rho_alpha(n h)/gamma^2)/Z on n in Z; standard units lam = alpha h/gamma^2, b = alpha/gamma, "
        "c = h/gamma, K = floor(alpha/h). References are exact 80-digit sums of the definition with a proven "
        "bound (< 1e-62 relative) on the omitted tail."
    ),
)

TOL = 1e-12  # float API vs exact summation, relative
REF_DPS = 80
TAIL_REL = mpf(10) ** -62

# (alpha, gamma, step, label)
REGIMES: List[Tuple[float, float, float, str]] = [
    (1e-3, 1.0, 0.5, "alpha << step"),
    (0.01, 2.0, 1.0, "alpha << step"),
    (1.0, 2.0, 1.0, "alpha = step"),
    (0.75, 1.0, 0.5, "alpha ~ step"),
    (1.0 - 2.0**-20, 1.0, 0.5, "alpha just below 2 steps"),
    (1.0, 2.0, 0.25, "alpha = 4 steps"),
    (2.0, 1.5, 2.0**-7, "alpha >> step"),
    (5.0, 1.0, 0.01, "alpha >> step"),
    (1.0, 1.0, 1e-3, "alpha >> step, EM tails"),
    (20.0, 1.0, 0.1, "alpha >> gamma (Laplace-like)"),
    (0.0, 0.1, 1.0, "gamma << step (point mass)"),
    (1.0, 0.2, 1.0, "gamma << step"),
    (0.3, 0.05, 0.25, "gamma << step"),
    (0.0, 10.0, 1.0, "discrete Gaussian"),
    (0.0, 500.0, 1.0, "discrete Gaussian, EM tails"),
    (1.0, 30.0, 0.5, "large gamma, EM tails"),
]
QUICK = [0, 3, 4, 6, 10, 13, 14]
SENS_STEPS = [1, 2, 5, 17, 100, 1000]
EPSILONS = [0.0, 0.1, 0.5, 1.0, 2.0, 5.0, 20.0]


def _f(x: float) -> Fraction:
    return Fraction(x)


def _mpq(q: Fraction) -> mpf:
    return mpf(q.numerator) / q.denominator


class Reference:
    """Exact summation of the definition at ``REF_DPS`` digits (independent of fhsym's formulas).

    Terms w_n = exp(-rho_alpha(n h)/gamma^2), with the exponent an exact rational computed from
    the exact binary inputs.  E(n) is convex and increasing in n >= 0, so for n >= N the
    ratio w_{n+1}/w_n <= r_N = exp(-(E(N+1) - E(N))), and sum_{n >= N} w_n <= w_N/(1 - r_N);
    every sum below is continued until that bound is under 1e-62 of the partial sum.
    """

    def __init__(self, alpha: float, gamma: float, step: float) -> None:
        self.A, self.G, self.H = _f(alpha), _f(gamma), _f(step)
        self.K = (self.A / self.H).numerator // (self.A / self.H).denominator
        self._w: List[mpf] = []
        self._far: Dict[int, mpf] = {}
        self._profile: Dict[Tuple[float, int], mpf] = {}  # profile(eps, s), computed once (two checks use it)
        with mp.workdps(REF_DPS):
            self._extend_until(lambda n, part, bound: bound < TAIL_REL * part)
            ws = self._w
            self.Z = ws[0] + 2 * mpmath.fsum(ws[1:])
            # reverse cumulative sums T[n] = sum_{j >= n} w_j (up to the computed terms)
            T = [mpf(0)] * (len(ws) + 1)
            acc = mpf(0)
            for i in range(len(ws) - 1, -1, -1):
                acc += ws[i]
                T[i] = acc
            self._T = T
            self._N = len(ws)

    def energy(self, n: int) -> Fraction:
        n = abs(n)
        t = n * self.H
        e = self.A * t if t <= self.A else (t * t + self.A * self.A) / 2
        return e / (self.G * self.G)

    def w(self, n: int) -> mpf:
        n = abs(n)
        if n < len(self._w):
            return self._w[n]
        if n == len(self._w) and n < 10**6:
            self._w.append(mpmath.exp(-_mpq(self.energy(n))))
            return self._w[n]
        v = self._far.get(n)
        if v is None:
            v = self._far[n] = mpmath.exp(-_mpq(self.energy(n)))
        return v

    def tail_bound(self, N: int) -> mpf:
        """A proven upper bound on sum_{n >= N} w_n."""
        r = mpmath.exp(-_mpq(self.energy(N + 1) - self.energy(N)))
        return self.w(N) / (1 - r)

    def _extend_until(self, done) -> None:
        part = mpf(0)
        n = 0
        while True:
            part += self.w(n)
            n += 1
            if n > 2 and n % 16 == 0 and done(n, part, self.tail_bound(n)):
                return

    def upper_tail(self, n: int) -> mpf:
        """T(n) = sum_{j >= n} w_j for n >= 1 (exact to 1e-62 relative)."""
        with mp.workdps(REF_DPS):
            if n < self._N and self._T[n] > 0 and self.tail_bound(self._N) < TAIL_REL * self._T[n]:
                return self._T[n]
            part = mpf(0)
            j = n
            while True:
                part += self.w(j)
                j += 1
                if j % 16 == 0 and self.tail_bound(j) < TAIL_REL * part:
                    return part

    def cdf(self, k: int) -> mpf:
        with mp.workdps(REF_DPS):
            return 1 - self.upper_tail(k + 1) / self.Z if k >= 0 else self.upper_tail(-k) / self.Z

    def sf(self, k: int) -> mpf:
        with mp.workdps(REF_DPS):
            return self.upper_tail(k + 1) / self.Z if k >= 0 else 1 - self.upper_tail(-k) / self.Z

    def logsf(self, k: int) -> mpf:
        """log P(X > k h), accurate also where it is a tiny negative number (k < 0)."""
        with mp.workdps(REF_DPS):
            if k >= 0:
                return mpmath.log(self.upper_tail(k + 1) / self.Z)
            return mpmath.log1p(-self.upper_tail(-k) / self.Z)

    def var(self) -> mpf:
        with mp.workdps(REF_DPS):
            s2 = mpf(0)
            n = 1
            while True:
                s2 += n * n * self.w(n)
                n += 1
                # n^2 w_n is log-concave beyond K + 1 too; bound the rest by a geometric series
                r = ((n + 1) / mpf(n)) ** 2 * mpmath.exp(-_mpq(self.energy(n + 1) - self.energy(n)))
                if r < 1 and n * n * self.w(n) / (1 - r) < TAIL_REL * s2:
                    break
            return 2 * _mpq(self.H) ** 2 * s2 / self.Z

    def profile(self, eps: float, s: int) -> mpf:
        """sum_k [p(k) - e^eps p(k + s)]_+ by direct summation of the definition's terms.

        The positive terms are those with L(k) = E(k+s) - E(k) > eps, a set of the form
        k >= k0 because L is non-decreasing (check ``convexity``); k0 is located by bisection
        on that exact rational inequality, and the sum starts two terms before it.
        """
        if (eps, s) not in self._profile:
            self._profile[(eps, s)] = self._profile_sum(eps, s)
        return self._profile[(eps, s)]

    def _profile_sum(self, eps: float, s: int) -> mpf:
        E = self.energy
        e_q = _f(eps)
        lo, hi = -(s // 2) - 1, self.K + 1
        while E(hi + s) - E(hi) <= e_q:
            hi = 2 * hi + 1
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (lo, mid) if E(mid + s) - E(mid) > e_q else (mid, hi)
        with mp.workdps(REF_DPS):
            ee = mpmath.exp(_mpq(e_q))
            tot = mpf(0)
            k = hi - 2
            while True:
                d = self.w(k) - ee * self.w(k + s)
                if d > 0:
                    tot += d
                k += 1
                # the rest is at most sum_{n >= k} w_n (k > 0 beyond this point); checked every 16 terms
                if k % 16 == 0 and k > self.K + 1 and tot > 0 and self.tail_bound(k) < TAIL_REL * tot:
                    return tot / self.Z


_REFS: Dict[int, Reference] = {}


def reference(i: int) -> Reference:
    if i not in _REFS:
        a, g, h, _ = REGIMES[i]
        _REFS[i] = Reference(a, g, h)
    return _REFS[i]


def _prepare_quick() -> None:
    """The exact sums every check of the quick subset compares with, computed once: the references of the quick regimes
    (five checks use them) and their profile at the quick points (``profile`` and ``enclosure``).  A parallel run
    computes them in the parent before the topic's first check forks (Topic.shared); a check that runs without it
    computes what it needs itself, the same way."""
    for i in QUICK:
        ref = reference(i)
        for e, s in _profile_points(i, True):
            ref.profile(e, s)


topic.shared(_prepare_quick)


def _rel(x: float, ref: mpf) -> float:
    if ref == 0:
        return 0.0 if x == 0 else float("inf")
    return abs(float((mpf(x) - ref) / ref))


def _regimes(ctx) -> List[int]:
    return QUICK if ctx.quick else list(range(len(REGIMES)))


def _worst(rows: Sequence[Tuple[float, str]], tol: float, method: str, extra: Sequence[str] = ()) -> Outcome:
    worst, where = max(rows, key=lambda r: r[0])
    ev = [f"- {len(rows)} points; worst relative error {worst:.2e} at {where}; tolerance {tol:.0e}", *extra]
    digits = re.search(r"(\d+) digits", method)
    return verified(worst <= tol, method, len(rows), f"{digits.group(1)} digits" if digits else "exact", f"{worst:.1e}", where, ev)


# ---------------------------------------------------------------------------
# 1. symbolic
# ---------------------------------------------------------------------------


@topic.check(obj="energy", paper="eq 7 on h*Z", claim="E(n) = rho_alpha(n h)/gamma^2 = lam|n| (|n| <= K), (c^2 n^2 + b^2)/2 beyond; = hinge form")
def energy_pieces(ctx) -> Outcome:
    nn = sp.Symbol("nn", positive=True)
    a, g, h = SD.alpha, SD.gamma, SD.h
    sub = SD.STANDARD_UNITS
    centre = sp.simplify(a * (nn * h) / g**2 - (SD.lam * nn).subs(sub))
    tail = sp.simplify(((nn * h) ** 2 + a**2) / (2 * g**2) - ((SD.c**2 * nn**2 + SD.b**2) / 2).subs(sub))
    # the definition's pieces: rho(t) = alpha|t| for |t| <= alpha, so |n| <= alpha/h <=> |n| <= K (n integer)
    pieces = rho_def(nn * h, a).args
    ok_def = sp.simplify(pieces[0][0] - a * nn * h) == 0 and sp.simplify(pieces[1][0] - ((nn * h) ** 2 + a**2) / 2) == 0
    # hinge: for c n <= b the max term vanishes; for c n > b: lam n + (c n - b)^2/2 = (c^2 n^2 + b^2)/2 with lam = b c
    hinge = sp.expand((SD.b * SD.c * nn + (SD.c * nn - SD.b) ** 2 / 2) - (SD.c**2 * nn**2 + SD.b**2) / 2)
    passed = centre == 0 and tail == 0 and ok_def and hinge == 0
    return proven(passed, "symbolic (simplify / expand)",
                  evidence=["- centre, tail and hinge differences reduce to 0; K = floor(alpha/h) selects the piece exactly for integer n"])


@topic.check(obj="geometric_closed", paper="-", claim="sum_{n=lo}^{hi} e^{-lam n} and sum_{n=1}^{K} n^2 e^{-lam n} closed forms = SymPy summation")
def geometric_forms(ctx) -> Outcome:
    lo, hi = sp.symbols("lo hi", integer=True, positive=True)
    s0 = sp.summation(sp.exp(-SD.lam * SD.n), (SD.n, lo, hi))
    s0 = s0.args[-1][0] if isinstance(s0, sp.Piecewise) and len(s0.args) > 1 else s0
    d0 = sp.simplify(sp.expand(s0 - SD.geometric_closed(lo, hi)))
    if isinstance(s0, sp.Piecewise):  # SymPy's case split: take the generic branch
        d0 = sp.simplify(s0.args[-1][0] - SD.geometric_closed(lo, hi))
    # n^2 r^n: verify exactly at rational r and integer K (the closed form is a rational function of r)
    worst = Fraction(0)
    r = sp.Symbol("r", positive=True)
    closed2 = SD.geometric2_closed(SD.K).subs(sp.exp(-SD.lam), r)
    closed2 = closed2.subs(SD.lam, -sp.log(r))
    for rv in (Fraction(1, 3), Fraction(9, 10), Fraction(999, 1000), Fraction(1, 10**6)):
        for Kv in (1, 2, 7, 50):
            exact = sum(Fraction(i * i) * rv**i for i in range(1, Kv + 1))
            val = sp.simplify(closed2.subs({r: sp.Rational(rv.numerator, rv.denominator), SD.K: Kv}))
            assert val.is_Rational, val
            diff = Fraction(str(sp.Rational(val) - sp.Rational(exact.numerator, exact.denominator)))
            worst = max(worst, abs(diff))
    passed = d0 == 0 and worst == 0
    return verified(passed, "symbolic (summation) + exact rationals", 16, "exact rationals",
                    "0 (exact)" if passed else f"{float(worst):.1e}", evidence=["- sum r^n: SymPy summation minus the closed form simplifies to 0",
                             "- sum n^2 r^n: the closed form equals the exact rational sum at r in {1/3, 9/10, 999/1000, 1e-6}, K in {1, 2, 7, 50}"])


@topic.check(obj="convexity_gaps", paper="-", claim="E is a convex sequence (second differences >= 0 at every joint), so L(k) = E(k+S) - E(k) is non-decreasing")
def convexity(ctx) -> Outcome:
    ev = []
    passed = True
    d = sp.Symbol("d", positive=True)
    for name, (lhs, claimed, sub) in SD.convexity_gaps().items():
        diff = sp.simplify(sp.expand(lhs.subs(sub) - claimed.subs(sub)))
        passed &= diff == 0
        ev.append(f"- {name}: second difference = `{sp.sstr(claimed)}` (difference {diff})")
    # non-negativity of the claimed forms for 0 < d <= c: (c^2 - d^2)/2 + c d >= c d > 0, d^2/2 > 0, c^2 > 0
    x = sp.Symbol("x", nonnegative=True)  # c = d + x
    tail_entry = sp.expand(((SD.c**2 - d**2) / 2 + SD.c * d).subs(SD.c, d + x))
    passed &= all(cf >= 0 for cf in sp.Poly(tail_entry, d, x).coeffs())
    ev.append(f"- tail_entry with c = d + x (x >= 0): `{tail_entry}`, all coefficients >= 0")
    # also: exact second differences at random exact parameters are >= 0
    rng = ctx.rng()
    for _ in range(ctx.n(400, 100)):
        A = Fraction(int(rng.integers(0, 2000)), int(rng.integers(1, 200)))
        H = Fraction(int(rng.integers(1, 400)), int(rng.integers(1, 200)))
        G = Fraction(int(rng.integers(1, 400)), int(rng.integers(1, 100)))
        K = (A / H).numerator // (A / H).denominator

        def E(n):
            t = abs(n) * H
            return (A * t if t <= A else (t * t + A * A) / 2) / (G * G)

        for n in {0, 1, K - 1, K, K + 1, K + 2, K + 3}:
            if n >= 0:
                passed &= E(n + 1) - 2 * E(n) + E(n - 1) >= 0
    ev.append("- exact rational second differences >= 0 at n in {0, 1, K-1..K+3}, random exact (alpha, gamma, h)")
    return proven(passed, "symbolic (second differences, coefficient signs) + exact rational spot checks", evidence=ev)


@topic.check(obj="privacy_loss_hinge", paper="-", claim="hinge form of L(k) = E(k+S) - E(k) in every region (exact rationals)")
def loss_hinge(ctx) -> Outcome:
    rng = ctx.rng()
    bad = 0
    npts = 0
    for _ in range(ctx.n(300, 80)):
        A = Fraction(int(rng.integers(0, 300)), int(rng.integers(1, 50)))
        H = Fraction(int(rng.integers(1, 100)), int(rng.integers(1, 50)))
        G = Fraction(int(rng.integers(1, 100)), int(rng.integers(1, 30)))
        K = (A / H).numerator // (A / H).denominator
        lam, c, b = A * H / (G * G), H / G, A / G

        def e(n):
            return lam * abs(n) if abs(n) <= K else (c * c * n * n + b * b) / 2

        for S in (1, 2, 3, 2 * K + 3):
            # every region of (k, k+S) relative to -K..K: the points next to each joint
            joints = {-K - S, -K, K - S, K, -(S // 2), 0}
            ks = {j + o for j in joints for o in (-2, -1, 0, 1, 2)}
            for k in ks:
                npts += 1
                direct = e(k + S) - e(k)
                ha = c * abs(k + S) - b
                hb = c * abs(k) - b
                zero = Fraction(0)
                hinge = lam * (abs(k + S) - abs(k)) + ((ha if ha > 0 else zero) ** 2 - (hb if hb > 0 else zero) ** 2) / 2
                bad += direct != hinge
    return verified(bad == 0, "exact rationals", npts, "exact rationals", "0 (exact)" if bad == 0 else f"{bad} mismatches",
                    evidence=[f"- {npts} (alpha, gamma, h, S, k) points: k within 2 of every joint (-K-S, -K, K-S, K, -S/2, 0), so every region of (k, k+S)"])


@topic.check(obj="hermite_derivative", paper="-", claim="d^q/dx^q e^{-c^2 x^2/2} = (-c)^q He_q(c x) e^{-c^2 x^2/2}, q = 0..17")
def hermite(ctx) -> Outcome:
    x = SD.n
    f = sp.exp(-(SD.c**2) * x**2 / 2)
    bad = [q for q in range(18) if sp.simplify(sp.diff(f, x, q) - SD.hermite_derivative(q, x)) != 0]
    # the two tail integrals used by em_theta
    m_ = sp.Symbol("m", positive=True)
    i0 = sp.integrate(f, (x, m_, sp.oo))
    i2 = sp.integrate(x**2 * f, (x, m_, sp.oo))
    u = SD.c * m_
    c0 = prove_zero(i0 - sp.sqrt(sp.pi / 2) * sp.erfc(u / sp.sqrt(2)) / SD.c)
    c2 = prove_zero(i2 - (u * sp.exp(-(u**2) / 2) + sp.sqrt(sp.pi / 2) * sp.erfc(u / sp.sqrt(2))) / SD.c**3)
    passed = not bad and c0 is not None and c2 is not None
    return proven(passed, "symbolic (diff, integrate)", worst="0 (exact)" if passed else f"orders {bad}, {c0}, {c2}",
                  evidence=["- Rodrigues' formula for q = 0..17 and the integrals int_m^oo e^{-c^2x^2/2}, int_m^oo x^2 e^{-c^2x^2/2} reduce to 0"])


# ---------------------------------------------------------------------------
# 2. bounds
# ---------------------------------------------------------------------------


def _theta_exact(c: mpf, m: int, p: int) -> mpf:
    """sum_{n >= m} n^p e^{-c^2 n^2/2} to 1e-70 relative (log-concave terms, geometric majorant).

    Terms by the exact recurrence g_{n+1} = g_n q_n, q_{n+1} = q_n e^{-c^2} (g_n = e^{-c^2 n^2/2},
    q_n = e^{-c^2 (2n+1)/2}); the stopping rule (checked every 32 terms) is the proven bound
    sum_{j >= n} j^p g_j <= n^p g_n / (1 - r_n), r_n = ((n+1)/n)^p q_n < 1.
    """
    tot = mpf(0)
    n = m
    g = mpmath.exp(-c * c * n * n / 2)
    q = mpmath.exp(-c * c * (2 * n + 1) / 2)
    e = mpmath.exp(-c * c)
    while True:
        tot += (mpf(n) ** p) * g if p else g
        g *= q
        q *= e
        n += 1
        if n % 32 == 0 or g < mpf(10) ** -80 * tot:
            r = ((n + 1) / mpf(n)) ** p * q
            if r < 1 and mpf(n) ** p * g / (1 - r) < mpf(10) ** -70 * tot:
                return tot


@topic.check(obj="em_theta", paper="-", claim="Euler-Maclaurin tails within the proven remainder bound; truncation bound >= true tail")
def em_bounds(ctx) -> Outcome:
    cs = [mpf(1) / 2**9, mpf("0.001"), mpf("0.004"), mpf("0.02"), mpf("0.1")]
    ms = [1, 7, 100, 2000, 9000]
    rows, ev = [], []
    ok = True
    npts = 0
    Q = 4
    u_, c_ = SD.u, SD.c
    em = {p: sp.lambdify((u_, c_), SD.em_theta(p, Q), modules=[{"erfcx": lambda z: mpmath.exp(z * z) * mpmath.erfc(z)}, "mpmath"]) for p in (0, 2)}
    rem = {(p, bz): sp.lambdify((u_, c_), SD.em_remainder_bound(p, Q, bz), "mpmath") for p in (0, 2) for bz in (True, False)}
    trunc = {p: sp.lambdify((SD.m, c_), SD.truncation_bound(p), "mpmath") for p in (0, 2)}
    ratio = {p: sp.lambdify((SD.m, c_), SD.ratio_bound(p), "mpmath") for p in (0, 2)}
    with mp.workdps(60):
        for c in cs[: 3 if ctx.quick else 5]:
            for m in ms[: 3 if ctx.quick else 5]:
                if c * c * m > 1:
                    continue
                for p in (0, 2):
                    ex = _theta_exact(c, m, p)
                    val = em[p](c * m, c)
                    bz = c * m >= mpmath.sqrt(8 * Q + 10)
                    bound = rem[(p, bz)](c * m, c)
                    err = abs(val - ex)
                    ok &= err <= bound
                    npts += 1
                    rows.append((float(err / ex), f"p={p}, c={mpmath.nstr(c, 3)}, m={m}"))
                    # truncation bound at M = m + 10: >= the true rest, when rho_M < 1
                    M = m + 10
                    if ratio[p](M, c) < 1:
                        rest = _theta_exact(c, M, p)
                        ok &= trunc[p](M, c) >= rest
        worst = max(rows, key=lambda r: r[0])
    ev.append(f"- {len(rows)} (p, c, m) points: |EM_{Q} - exact| <= proven remainder bound at all; worst relative EM error {worst[0]:.1e} ({worst[1]})")
    ev.append("- geometric truncation bound >= exact omitted tail at M = m + 10 wherever rho_M < 1")
    return verified(ok, "numeric 60 digits vs exact summation", npts, "60 digits", f"{worst[0]:.1e} (EM, Q=4)", worst[1], ev)


# ---------------------------------------------------------------------------
# 3. the float API against exact summation
# ---------------------------------------------------------------------------


def _label(i: int) -> str:
    a, g, h, lab = REGIMES[i]
    return f"(alpha, gamma, step) = ({a:g}, {g:g}, {h:g}) [{lab}]"


def _per_regime(ctx, error: Callable[[DiscreteFlippedHuber, Any], float]) -> Outcome:
    """``error(distribution, exact reference)`` in every regime, within TOL."""
    rows = [(error(DiscreteFlippedHuber(*REGIMES[i][:3]), reference(i)), _label(i)) for i in _regimes(ctx)]
    return _worst(rows, TOL, "exact summation, 80 digits")


def _normaliser_error(d: DiscreteFlippedHuber, ref) -> float:
    with mp.workdps(REF_DPS):
        z = mpmath.exp(mpf(d.log_normaliser()))
    return _rel(float(z), ref.Z) if ref.Z != 1 else abs(d.log_normaliser() - float(mpmath.log(ref.Z)))


@topic.check(obj="log_normaliser", paper="-", claim="log Z within 1e-12 relative of exact summation, every regime")
def normaliser(ctx) -> Outcome:
    return _per_regime(ctx, _normaliser_error)


def _points(i: int) -> List[int]:
    ref = reference(i)
    K = ref.K
    a, g, h, _ = REGIMES[i]
    width = int(max(g / h, 1) * 8) + K
    pts = {0, 1, 2, K - 1, K, K + 1, K + 2, width // 3, width, 2 * width}
    return sorted({p for p in pts if p >= 0} | {-p for p in pts})


@topic.check(obj="pmf, cdf, sf, logsf", paper="-", claim="pmf, cdf, sf, logsf within 1e-12 relative of exact summation")
def cdf_sf(ctx) -> Outcome:
    rows = {"pmf": [], "cdf": [], "sf": [], "logsf": []}
    for i in _regimes(ctx):
        ref = reference(i)
        a, g, h, _ = REGIMES[i]
        d = DiscreteFlippedHuber(a, g, h)
        for k in _points(i):
            x = k * h
            with mp.workdps(REF_DPS):
                p = ref.w(k) / ref.Z
                cd, sf = ref.cdf(k), ref.sf(k)
            where = f"k={k}, {_label(i)}"
            if p > mpf(10) ** -300:
                rows["pmf"].append((_rel(float(d.pmf(x)), p), where))
            if cd > mpf(10) ** -300:
                rows["cdf"].append((_rel(float(d.cdf(x)), cd), where))
            if sf > mpf(10) ** -300:
                rows["sf"].append((_rel(float(d.sf(x)), sf), where))
            lsf = ref.logsf(k)
            got = float(d.logsf(x))
            # a log below 1e-300 in magnitude underflows in float: then the absolute error must be < 1e-300
            rows["logsf"].append((_rel(got, lsf) if abs(lsf) > mpf(10) ** -300 else float(abs(got - lsf)) * 1e300, where))
    ev = []
    ok = True
    worst_all = (0.0, "")
    for name, r in rows.items():
        w = max(r, key=lambda t: t[0])
        ok &= w[0] <= TOL
        ev.append(f"- {name}: {len(r)} points, worst relative error {w[0]:.2e} at {w[1]}")
        worst_all = max(worst_all, w, key=lambda t: t[0])
    return verified(ok, "exact summation, 80 digits", sum(len(r) for r in rows.values()), "80 digits", f"{worst_all[0]:.1e}",
                    worst_all[1], ev)


@topic.check(obj="variance", paper="-", claim="Var within 1e-12 relative of exact summation")
def variance(ctx) -> Outcome:
    return _per_regime(ctx, lambda d, ref: _rel(d.var(), ref.var()))


def _profile_points(i: int, quick: bool) -> List[Tuple[float, int]]:
    a, g, h, _ = REGIMES[i]
    lam = a * h / (g * g)
    pts = []
    sens = SENS_STEPS[:4] if quick else SENS_STEPS
    for s in sens:
        eps = EPSILONS[::2] if quick else EPSILONS
        extra = [lam * s, lam * s * (1 - 1e-9), lam * s * (1 + 1e-9)] if lam > 0 else []
        for e in list(eps) + [x for x in extra if x > 0]:
            pts.append((e, s))
    return pts


@topic.check(obj="privacy_profile", paper="Thm 3 on h*Z", claim="delta(eps) within 1e-12 relative of sum_k [p(k) - e^eps p(k+S)]_+, S = 1..1000 steps", quick=True)
def profile(ctx) -> Outcome:
    rows = []
    skipped = 0
    for i in _regimes(ctx):
        ref = reference(i)
        a, g, h, _ = REGIMES[i]
        d = DiscreteFlippedHuber(a, g, h)
        for e, s in _profile_points(i, ctx.quick):
            r = ref.profile(e, s)
            if r < mpf(10) ** -300:
                lr = float(mpmath.log(r))
                rows.append((abs(float(d.log_privacy_profile(e, s * Fraction(h))) - lr) / abs(lr), f"log, eps={e:.6g}, S={s}, {_label(i)}"))
                skipped += 1
                continue
            rows.append((_rel(float(d.privacy_profile(e, s * Fraction(h))), r), f"eps={e:.6g}, S={s}, {_label(i)}"))
    return _worst(rows, TOL, "exact summation of the definition, 80 digits",
                  [f"- {skipped} points with delta < 1e-300 compared in log space (log_privacy_profile)",
                   "- includes eps = lam S and lam S (1 +- 1e-9), where the float form cancels and the arb fallback is used"])


@topic.check(obj="discrete_profile_enclosure", paper="Thm 3 on h*Z", claim="the arb enclosure contains the exact sum and is <= 1e-15 relative wide")
def enclosure(ctx) -> Outcome:
    rows = []
    ok = True
    bad = []
    for i in _regimes(ctx):
        ref = reference(i)
        a, g, h, _ = REGIMES[i]
        for e, s in _profile_points(i, True):
            r = ref.profile(e, s)
            if r < mpf(10) ** -300:
                lo, hi = discrete_profile_enclosure(e, a, g, h, s * Fraction(h), log=True)
                lr = mpmath.log(r)
                inside = mpf(lo) <= lr <= mpf(hi)
                width = (hi - lo) / abs(lr)
            else:
                lo, hi = discrete_profile_enclosure(e, a, g, h, s * Fraction(h))
                inside = mpf(lo) <= r <= mpf(hi)
                width = (hi - lo) / float(r)
            ok &= inside and width <= 1e-15
            if not inside:
                bad.append(f"eps={e}, S={s}, {_label(i)}")
            rows.append((width, f"eps={e:.6g}, S={s}, {_label(i)}"))
    w = max(rows, key=lambda t: t[0])
    ev = [f"- {len(rows)} points; every enclosure contains the 80-digit sum: {not bad}; widest {w[0]:.1e} relative at {w[1]}"]
    ev += [f"- NOT inside: {b}" for b in bad]
    return verified(ok, "arb vs exact summation", len(rows), "80 digits", f"width {w[0]:.1e}", w[1], ev)


@topic.check(obj="lattice_sums", paper="-", claim="log R_0, log R_2 (direct and Euler-Maclaurin paths) within 1e-13 of exact sums")
def lattice_sums(ctx) -> Outcome:
    rows = []
    with mp.workdps(60):
        for c in [5e-4, 1e-3, 4e-3, 5e-3, 0.05, 0.5, 3.0]:
            for m in [1, 3, 40, 1000, 30000]:
                mc = mpf(c)
                for p, fn in ((0, LS.log_r0), (2, LS.log_r2)):
                    if mc * mc * m > 400:
                        continue
                    ex = _theta_exact(mc, m, p) * mpmath.exp(mc * mc * m * m / 2) / mpf(m) ** p
                    got = float(fn(np.array(float(m)), c))
                    path = "direct" if LS.terms_needed(np.array([float(m)]), c)[0] <= LS.DIRECT_TERMS else "EM"
                    rows.append((abs(got - float(mpmath.log(ex))) / max(1.0, abs(float(mpmath.log(ex)))), f"p={p}, c={c:g}, m={m} ({path})"))
    return _worst(rows, 1e-13, "exact summation, 60 digits (absolute error of the log, relative when |log| > 1)")
