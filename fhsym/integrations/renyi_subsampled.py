"""Exact Poisson-subsampled Renyi DP of flipped Huber noise, scalar and i.i.d. vector, certified.

Setting.  M(D) = sum_{i in S} v_i + T with T ~ FH(alpha, gamma^2) (density g, paper eq 8), S a Poisson
sample with rate q, add/remove-one neighbours.  Conditioning on the other records' sample, the pair of
output laws is a common translate of (P, P_q) = (g, (1-q) g + q g(. - v)) or its swap, |v| <= Delta; a
common translate changes no divergence and mixtures with equal weights never exceed their worst
component (joint quasi-convexity of D_lam), so the RDP at order lam > 1 is

    sup_{|v| <= Delta} max{ D_lam(P_q || P), D_lam(P || P_q) }.

Three facts make this computable (proofs here; the Gaussian case of (B) is Mironov, Talwar & Zhang,
"Renyi differential privacy of the sampled Gaussian mechanism", 2019, Sec 3.3, which dp_accounting uses):

(A) The worst shift is |v| = Delta.  FH is symmetric and log-concave (rho_alpha is convex), so
    L_v = g(. - v)/g is monotone and the Neyman-Pearson tests of (g, g(. - v)) are thresholds: its trade-off
    function is x -> F(F^-1(1 - x) - v), non-increasing in v >= 0.  By Blackwell's theorem (Dong, Roth & Su
    2022, Thm 2.10) a kernel K maps (g, g(. - v')) to (g, g(. - v)) for v <= v'; K is linear, so it maps
    the subsampled pair at v' to the one at v, and D_lam cannot grow under K.
(B) The second direction never dominates.  Let X = L_Delta(T), T ~ g: E[X] = 1, and the reflection
    t -> Delta - t swaps g and g(. - Delta), so E[h(X)] = E[X h(1/X)] for every h >= 0.  With
    A(x) = 1 - q + q x and f(y) = y^lam - y^(1-lam), the two exponentiated divergences differ by
    E[f(A(X))] = E[phi(X)]/2, phi(x) = f(A(x)) + x f(A(1/x)).  phi(x) = x phi(1/x), and for x >= 1, with
    e = q (x - 1): A(x) = 1 + e, A(1/x) = 1 - e/x, and x (-f(A(1/x))) = e N(d)/d with d = e/x,
    N(d) = (1 - d)^(1 - lam) - (1 - d)^lam; N(0) = 0 and N'' = lam (lam - 1) [(1 - d)^(-lam-1) - (1 - d)^(lam-2)]
    >= 0, so N(d)/d is non-decreasing, and d <= e/(1 + e) (x >= 1 + e) gives x (-f(A(1/x))) <= f(1 + e).
    Hence phi >= 0 and D_lam(P || P_q) <= D_lam(P_q || P).  The argument uses only the symmetry, so it
    holds for any product of shifted symmetric laws (the vector case).
(C) For the forward direction, E_P[(P_q/P)^lam] = E[(1 - q + q X)^lam]:
    * integer lam: the binomial sum  sum_k C(lam, k) (1-q)^(lam-k) q^k E[X^k],  E[X^k] = exp((k-1) D_k(g(. - Delta) || g)),
      every term positive (:func:`binomial_subsampled_rdp`; the divergences from
      :func:`~fhsym.integrations.renyi.flipped_huber_rdp`, certified upper ends: each term grows with them);
    * fractional lam (scalar): the integral int g(t) (1 - q + q L(t))^lam dt itself, in arb
      (``acb.integral``, Petras-type rigorous Gauss-Legendre, on each piece between the breakpoints
      {0, +-alpha, Delta, Delta +- alpha} where log g and log L are polynomials), the two tails bounded in
      closed form: t <= Delta/2 has L <= 1, so the integrand is <= g; t >= Delta/2 has L >= 1, so it is
      <= g L^lam = g^(1-lam) g(. - Delta)^lam, both Gaussian integrals.  The upper end of the ball is returned.

Vector (i.i.d. FH on K coordinates, difference vector d in {||d||_inf <= c, ||d||_2 <= C}).  The RDP of
the product pair is sum_i r_lam(|d_i|), r_lam the scalar RDP at shift s.  (lam - 1) r_lam(s) =
log int g^lam(t) g(t - s)^(1-lam) dt is convex in s (for each t the integrand is log-convex in s since rho
is convex and lam > 1; sums of log-convex functions are log-convex), and even, so r_lam is convex and
non-decreasing in s >= 0.  :func:`vector_rdp` bounds sup_d sum_i r(|d_i|) by weak Lagrange duality: for
every mu >= 0, sum_i r(s_i) <= mu C^2 + K max_{0 <= s <= c} (r(s) - mu s^2)_+, with r bounded on a grid by
its chords (convexity) through certified upper values; mu is optimised numerically and the bound at the
chosen mu is evaluated in exact rational arithmetic.  When K c^2 <= C^2 (ball inactive) it is K r(c),
attained at a corner; at alpha = 0 it is the Gaussian's lam C^2/(2 gamma^2).  It is also capped by fhsym's
zCDP bound over the set (``FlippedHuber.zcdp(..., refine=True)``).  The subsampled vector RDP uses (C) at
integer orders with E[X^k] <= exp((k-1) R_k), R_k the vector bound (valid: every term grows with it, and
(A) is replaced by the supremum over d in each term); fractional orders take the chord of the cumulant
between integers (convex in lam).  Orders k > :data:`DENSE_VECTOR_ORDER` use R at the next power of two
(RDP is non-decreasing in the order), to bound the work.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import Callable, List, Optional, Tuple

import numpy as np
from flint import acb, arb, ctx, fmpq, fmpz

from .._core import domains as V
from ..noise.flipped_huber import FlippedHuber
from .renyi import (
    KL_ORDER,
    ORDER,
    SAMPLING_PROB,
    exact_fraction,
    flipped_huber_rdp,
    interpolated_rdp,
    quadratic_exp_integral,
    rho_coefficients,
    shifted_pair_rdp_upper,
    upper_float,
)

__all__ = [
    "DENSE_VECTOR_ORDER",
    "binomial_subsampled_rdp",
    "flipped_huber_subsampled_rdp",
    "vector_rdp",
    "vector_subsampled_rdp",
]

_REL_BITS = 50
_MAX_PREC = 1024
_FRAC_REL_BITS = 36  # fractional orders: the ball of D_lam is refined to 2^-36 relative (then its upper end)
_FRAC_TOL_BITS = 44

#: vector bounds are computed at every integer order up to this one; above, at the next power of two
DENSE_VECTOR_ORDER = 64
_VECTOR_EPS = 4e-3      # target relative slack of the vector bound's grid (not a guarantee: the bound is valid anyway)
_VECTOR_MAX_GRID = 400  # most grid shifts per order


# ---------------------------------------------------------------------------
# integer orders: the binomial expansion (any symmetric pair with known RDP at the integers)
# ---------------------------------------------------------------------------


def binomial_subsampled_rdp(order: int, sampling_prob: float, rdp: Callable[[int], float]) -> float:
    """(1/(lam-1)) log sum_k C(lam,k) (1-q)^(lam-k) q^k exp((k-1) rdp(k)) at integer ``order`` lam >= 2.

    The exact Poisson-subsampled RDP of a symmetric shifted pair (module docstring, (B), (C)) when ``rdp(k)``
    is the pair's RDP at order k; an upper bound when ``rdp(k)`` is an upper bound.  Arb sum, upper end.

    >>> v = binomial_subsampled_rdp(3, 0.01, lambda k: k / 2.0)      # the sampled Gaussian, sigma = 1
    >>> bool(0.000264 < v < 0.000265)   # (1/2) log(0.99^3 + 3 0.99^2 0.01 + 3 0.99 0.01^2 e + 0.01^3 e^3)
    True
    """
    if isinstance(order, bool) or not float(order).is_integer() or order < 2:
        raise ValueError(f"order must be an integer >= 2 for the binomial expansion; got {order!r}")
    lam = int(order)
    q = V.check_scalar(sampling_prob, SAMPLING_PROB)
    if q == 0.0:
        return 0.0
    with ctx.workprec(128 + 2 * lam.bit_length()):
        Q = arb(exact_fraction(q))
        P = arb(1) - Q
        total = arb(0)
        binom = fmpz(1)
        for k in range(lam + 1):
            if k > 0:
                binom = binom * (lam - k + 1) // k
            term = arb(binom) * Q**k * P ** (lam - k)
            if k >= 2:
                e = float(rdp(k))
                if e == math.inf:
                    return math.inf
                term *= (arb(exact_fraction(e)) * (k - 1)).exp()
            total += term
        return max(upper_float(total.log() / (lam - 1)), 0.0)


# ---------------------------------------------------------------------------
# fractional orders, scalar FH: the integral in arb
# ---------------------------------------------------------------------------


def _poly(c: Tuple[fmpq, fmpq, fmpq], x: acb) -> acb:
    return (arb(c[0]) * x + arb(c[1])) * x + arb(c[2])


def _fractional_ball(lam: fmpq, q: fmpq, a: fmpq, g: fmpq, D: fmpq, tol_bits: int) -> arb:
    """An enclosure of E_g[(1 - q + q L)^lam], L = g(. - D)/g, at the current precision."""
    g2 = g * g
    # Z = 2 (int_0^a e^{-a t/g^2} + int_a^inf e^{-(t^2 + a^2)/(2 g^2)})
    Z = 2 * (quadratic_exp_integral(fmpq(0), -a / g2, fmpq(0), fmpq(0), a)
             + quadratic_exp_integral(fmpq(-1, 2) / g2, fmpq(0), -a * a / (2 * g2), a, None))
    # the tails: Gaussian pieces bounding the integrand (module docstring (C)); widen until negligible
    width = 12 * g
    while True:
        tl = -a - width
        tr = max(D + a, lam * D) + width
        left = quadratic_exp_integral(fmpq(-1, 2) / g2, fmpq(0), -a * a / (2 * g2), None, tl) / Z
        right = quadratic_exp_integral(fmpq(-1, 2) / g2, lam * D / g2, -(lam * D * D + a * a) / (2 * g2), tr, None) / Z
        if (left + right) < arb(2) ** (-tol_bits - 8) or width > 10**6 * g:
            break
        width *= 2
    pts = sorted({tl, tr, *(p for p in (fmpq(0), a, -a, D, D - a, D + a, lam * D) if tl < p < tr)})
    core = arb(0)
    one_minus_q = acb(arb(1) - arb(q))
    lam_acb = acb(arb(lam))
    step = g  # sub-pieces no longer than gamma: fewer evaluations than acb.integral's own bisection
    for lo, hi in zip(pts[:-1], pts[1:]):
        if lo == hi:
            continue
        c2, c1, c0 = rho_coefficients(lo, hi, a)                                   # rho(t)
        s2, s1, s0 = rho_coefficients(lo - D, hi - D, a)                           # rho(t - D) in (t - D)
        p2, p1, p0 = arb(c2 / g2), arb(c1 / g2), arb(c0 / g2)
        # log L(t) = (rho(t) - rho(t - D))/g^2 = l2 t^2 + l1 t + l0, and log q
        l2 = p2 - arb(s2 / g2)
        l1 = p1 - arb((s1 - 2 * s2 * D) / g2)
        l0 = p0 - arb((s2 * D * D - s1 * D + s0) / g2)
        lq = arb(q).log()

        def f(x: acb, analytic: bool, p2: arb = p2, p1: arb = p1, p0: arb = p0, l2: arb = l2, l1: arb = l1,
              l0: arb = l0, lq: arb = lq) -> acb:
            w = one_minus_q + ((l2 * x + l1) * x + (l0 + lq)).exp()
            return (w.pow(lam_acb, analytic=analytic)) * (-((p2 * x + p1) * x + p0)).exp()

        n = max(1, int(math.ceil(float((hi - lo) / step))))
        for i in range(n):
            x0, x1 = lo + (hi - lo) * fmpq(i, n), lo + (hi - lo) * fmpq(i + 1, n)
            core += acb.integral(f, arb(x0), arb(x1), rel_tol=arb(2) ** (-tol_bits)).real
    total = core / Z
    return total + arb(0).union(left + right)


@functools.lru_cache(maxsize=65536)
def _fractional_cached(lam: float, q: float, a: float, g: float, D: float) -> float:
    # A_lam - 1 ~ (lam - 1) D_lam can be small: the absolute tolerance grows until D_lam's ball is 2^-36 relative
    tol = _FRAC_TOL_BITS
    while True:
        with ctx.workprec(tol + 24):
            A = _fractional_ball(exact_fraction(lam), exact_fraction(q), exact_fraction(a), exact_fraction(g),
                                 exact_fraction(D), tol)
            d = A.log() / (arb(exact_fraction(lam)) - 1)
            acc = d.rel_accuracy_bits() if d.is_finite() else -1
            if acc >= _FRAC_REL_BITS or tol >= _MAX_PREC:
                return max(upper_float(d), 0.0)
        tol += max(_FRAC_REL_BITS - acc, 4) + 4


def flipped_huber_subsampled_rdp(order: float, sampling_prob: float, alpha: float, gamma: float,
                                 sensitivity: float = 1.0) -> float:
    """Certified upper bound on the RDP at ``order`` of Poisson-subsampled FH noise (add/remove-one, both directions).

    Integer orders: :func:`binomial_subsampled_rdp` of :func:`~fhsym.integrations.renyi.flipped_huber_rdp`;
    fractional orders: the arb integral of the definition (module docstring).  Exact up to the 2^-50
    relative accuracy of the balls (the upper end is returned); never above the un-subsampled RDP.
    ``order`` 1 (KL) is bounded by the order 1 + 2^-20; ``math.inf`` gives +inf.  At alpha = 0 it is
    dp_accounting's sampled-Gaussian RDP.

    >>> v = flipped_huber_subsampled_rdp(2.5, 0.01, 1.0, 2.0)
    >>> bool(0.0 < v < flipped_huber_rdp(2.5, 1.0, 2.0))
    True
    """
    lam = V.check_scalar(order, ORDER)
    q = V.check_scalar(sampling_prob, SAMPLING_PROB)
    fh = FlippedHuber(alpha, gamma)
    D = V.check_scalar(sensitivity, V.SENSITIVITY)
    if q == 0.0:
        return 0.0
    if lam == math.inf:
        return math.inf
    full = flipped_huber_rdp(lam, fh.alpha, fh.gamma, D)
    if q == 1.0:
        return full
    if lam == 1.0:
        lam = KL_ORDER
    if float(lam).is_integer():
        v = binomial_subsampled_rdp(int(lam), q, lambda k: flipped_huber_rdp(float(k), fh.alpha, fh.gamma, D))
    else:
        v = _fractional_cached(lam, q, fh.alpha, fh.gamma, D)
    return min(v, full)


# ---------------------------------------------------------------------------
# vectors: i.i.d. FH on K coordinates, difference vector in a box and an l2 ball
# ---------------------------------------------------------------------------


def _dual_bound(mu: Fraction, C2: Fraction, K: int, s: List[Fraction], r: List[Fraction]) -> Fraction:
    """mu C^2 + K max_s (chord(s) - mu s^2)_+ over the chords of the grid (exact rationals)."""
    best = Fraction(0)
    for j in range(len(s) - 1):
        s0, s1, r0, r1 = s[j], s[j + 1], r[j], r[j + 1]
        b = (r1 - r0) / (s1 - s0)
        a0 = r0 - b * s0
        x = min(max(b / (2 * mu), s0), s1) if mu > 0 else s1
        best = max(best, a0 + b * x - mu * x * x)
    return mu * C2 + K * best


def _upper_of(x: Fraction) -> float:
    f = float(x)
    return math.nextafter(f, math.inf) if Fraction(f) < x else f


def _dual_float(mu: np.ndarray, C2: float, K: int, s: np.ndarray, r: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Float version of :func:`_dual_bound` at each mu (for the search only) and the maximising chords."""
    b = np.diff(r) / np.diff(s)
    a0 = r[:-1] - b * s[:-1]
    m = mu[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        x = np.where(m > 0, np.clip(b / (2 * m), s[:-1], s[1:]), s[1:])
    v = a0 + b * x - m * x * x
    j = np.argmax(v, axis=1)
    return mu * C2 + K * np.maximum(v[np.arange(len(mu)), j], 0.0), j


@functools.lru_cache(maxsize=16384)
def _vector_cached(lam: float, a: float, g: float, K: int, c: float, C: float) -> float:
    # a chord of a convex r with curvature ~2 mu over a step h overshoots by ~mu h^2/4; K of them against mu C^2:
    # steps h = 2 C sqrt(eps/K) keep the dual bound within ~eps relative (then refined where it is attained)
    u = C / math.sqrt(K)
    n = min(_VECTOR_MAX_GRID, max(8, math.ceil(c / (2 * C * math.sqrt(_VECTOR_EPS / K)))))
    pts = {c, u, *(c * i / n for i in range(1, n)), *(c / n * 2.0**-j for j in range(1, 8))}
    grid = {0.0: 0.0, **{p: shifted_pair_rdp_upper(lam, a, g, p) for p in pts}}
    C2 = C * C

    def search() -> Tuple[float, float, int]:
        s = np.array(sorted(grid))
        r = np.array([grid[x] for x in s])
        top = math.log(float(np.max(r[1:] / s[1:] ** 2)))
        logs = np.linspace(top - 40.0, top + 1.0, 161)     # B(mu) is convex in mu: a grid, then a finer one
        for _ in range(3):
            vals, js = _dual_float(np.exp(logs), C2, K, s, r)
            i = int(np.argmin(vals))
            h = logs[1] - logs[0]
            logs = np.linspace(logs[i] - h, logs[i] + h, 41)
        v0, j0 = _dual_float(np.array([0.0]), C2, K, s, r)
        if v0[0] <= vals[i]:
            return 0.0, float(v0[0]), int(j0[0])
        return float(np.exp(np.linspace(logs[0], logs[-1], 41)[20])), float(vals[i]), int(js[i])

    prev, stale = math.inf, 0
    for _ in range(20):
        mu, val, _ = search()
        stale = stale + 1 if val >= prev * (1 - 1e-4) else 0
        if stale >= 2:
            break
        prev = min(prev, val)
        xa = np.array(sorted(grid))
        rs = np.array([grid[x] for x in xa])
        b = np.diff(rs) / np.diff(xa)
        x = np.clip(b / (2 * mu), xa[:-1], xa[1:]) if mu > 0 else xa[1:]
        v = rs[:-1] - b * xa[:-1] + b * x - mu * x * x
        near = np.flatnonzero(v >= np.max(v) - 1e-3 * (abs(np.max(v)) + mu * C2 / K))
        for jj in sorted({int(i) + d for i in near for d in (-1, 0, 1)}):  # refine the (nearly) maximising chords
            if 0 <= jj < len(xa) - 1 and xa[jj + 1] - xa[jj] > 1e-9 * c:
                mid = math.sqrt(xa[jj] * xa[jj + 1]) if xa[jj] > 0 else xa[jj + 1] / 4
                grid.setdefault(float(mid), shifted_pair_rdp_upper(lam, a, g, float(mid)))
    mu, _, _ = search()
    xs = sorted(grid)
    return _upper_of(_dual_bound(Fraction(mu), Fraction(C) ** 2, K, [Fraction(x) for x in xs],
                                 [Fraction(grid[x]) for x in xs]))


def vector_rdp(order: float, alpha: float, gamma: float, dim: int, sensitivity: float,
               l2_sensitivity: Optional[float] = None) -> float:
    """Certified upper bound on sup_d D_order of i.i.d. FH noise on ``dim`` coordinates shifted by d,
    ||d||_inf <= ``sensitivity``, ||d||_2 <= ``l2_sensitivity`` (module docstring, "Vector").

    >>> round(vector_rdp(2.0, 0.0, 1.0, 10, 1.0, 1.0), 12)   # the Gaussian: lam C^2 / (2 gamma^2), rounded up
    1.0
    >>> bool(vector_rdp(2.0, 1.0, 1.0, 10, 1.0, 1.0) <= 10 * flipped_huber_rdp(2.0, 1.0, 1.0, 1.0))
    True
    """
    lam = V.check_scalar(order, ORDER)
    fh = FlippedHuber(alpha, gamma)
    K = V.check_int(dim, "dim", 1)
    c = V.check_scalar(sensitivity, V.SENSITIVITY)
    C = math.inf if l2_sensitivity is None else V.check_scalar(l2_sensitivity, V.Domain("l2_sensitivity", 0.0, math.inf))
    c = min(c, C)
    if lam == math.inf:
        return math.inf
    if K * c * c <= C * C:                                 # the ball does not bind: the corner of the box
        with ctx.workprec(128):
            return upper_float(arb(K) * arb(exact_fraction(flipped_huber_rdp(lam, fh.alpha, fh.gamma, c))))
    if fh.alpha == 0.0:
        return flipped_huber_rdp(lam, 0.0, fh.gamma, C)
    xi, eta = fh.zcdp(sensitivity=c, dim=K, l2_sensitivity=C, refine=True)
    zc = (float(xi) + lam * float(eta)) * (1 + 1e-12)
    return min(_vector_cached(lam, fh.alpha, fh.gamma, K, c, C), zc)


def vector_subsampled_rdp(order: float, sampling_prob: float, alpha: float, gamma: float, dim: int,
                          sensitivity: float, l2_sensitivity: Optional[float] = None) -> float:
    """Certified upper bound on the Poisson-subsampled RDP of the vector FH mechanism (add/remove-one).

    Integer orders: :func:`binomial_subsampled_rdp` of :func:`vector_rdp` (orders above
    :data:`DENSE_VECTOR_ORDER` take the vector bound at the next power of two); fractional orders: the chord
    of the cumulant between the integers.  ``dim`` = 1 is :func:`flipped_huber_subsampled_rdp` at the shift
    min(sensitivity, l2_sensitivity).

    >>> bool(vector_subsampled_rdp(4.0, 0.01, 1.0, 2.0, 10, 1.0, 1.0) < vector_rdp(4.0, 1.0, 2.0, 10, 1.0, 1.0))
    True
    """
    lam = V.check_scalar(order, ORDER)
    q = V.check_scalar(sampling_prob, SAMPLING_PROB)
    K = V.check_int(dim, "dim", 1)
    if K == 1:
        D = sensitivity if l2_sensitivity is None else min(sensitivity, l2_sensitivity)
        return flipped_huber_subsampled_rdp(lam, q, alpha, gamma, D)

    def R(k: float) -> float:
        return vector_rdp(k, alpha, gamma, K, sensitivity, l2_sensitivity)

    if q == 0.0:
        return 0.0
    if q == 1.0 or lam == math.inf:
        return R(lam)

    def at_integer(n: int) -> float:
        return binomial_subsampled_rdp(n, q, lambda k: R(k if k <= DENSE_VECTOR_ORDER else 2 ** (k - 1).bit_length()))

    return interpolated_rdp(lam, at_integer)
