"""Renyi differential privacy of the flipped Huber mechanism, certified, with subsampling bounds.

Renyi divergence of the shifted pair (Mironov 2017).  For T ~ FH(alpha, gamma^2), density
g(t) = exp(-rho_alpha(t)/gamma^2)/Z (paper eq 8) and a shift Delta > 0, for an order lam > 1

    D_lam(T || T + Delta) = log I / (lam - 1),   I = (1/Z) int exp(-[lam rho(t) + (1 - lam) rho(t + Delta)]/gamma^2) dt.

(The pair is symmetric, so D_lam(T + Delta || T) is the same number.)  rho_alpha is linear on
[-alpha, alpha] and quadratic outside, so between the breakpoints {0, +-alpha, -Delta, -Delta +- alpha}
the exponent is a quadratic A t^2 + B t + C with exact rational coefficients, and each piece integrates
in closed form: error functions (A < 0; the two unbounded pieces have A = -1/(2 gamma^2)), imaginary
error functions (A > 0, only on bounded pieces) or exponentials (A = 0).  :func:`flipped_huber_rdp`
evaluates these in python-flint ``arb`` ball arithmetic at the exact binary (alpha, gamma, Delta, lam),
doubling the precision until the ball of D_lam is 2^-50 relative, and returns its upper end rounded up;
it is also never above fhsym's zCDP bound xi + eta lam (the minimum of the two is returned; the arb value
is the tighter).  Order 1 (KL) is bounded by the order 1 + 2^-20 (RDP is non-decreasing in the order);
order infinity is +inf (the FH privacy loss is unbounded).

Subsampling, for any mechanism whose RDP eps(l) is known (bounded) at the integer orders l >= 2:

* Poisson sampling with probability q, add/remove-one neighbours (Zhu & Wang, "Poisson subsampled
  Renyi differential privacy", ICML 2019, Theorem 6, the general upper bound), integer alpha >= 2:
  eps'(alpha) <= 1/(alpha - 1) log[ (1-q)^(alpha-1) (alpha q - q + 1) + C(alpha,2) q^2 (1-q)^(alpha-2) e^eps(2)
                                  + 3 sum_{l=3}^{alpha} C(alpha,l) (1-q)^(alpha-l) q^l e^((l-1) eps(l)) ].
* Sampling a fixed-size subset of m out of n without replacement, q = m/n, replace-one neighbours
  (Wang, Balle & Kasiviswanathan, "Subsampled Renyi differential privacy and analytical moments
  accountant", AISTATS 2019, Theorem 9), integer alpha >= 2, with eps(inf) = inf (min{2, .} = 2):
  eps'(alpha) <= 1/(alpha - 1) log[ 1 + q^2 C(alpha,2) min{4 (e^eps(2) - 1), 2 e^eps(2)}
                                  + 2 sum_{l=3}^{alpha} q^l C(alpha,l) e^((l-1) eps(l)) ].
* Non-integer orders: the cumulant (lam - 1) D_lam of any pair is convex in lam (Hoelder), so it lies
  below the chord between floor(lam) and ceil(lam) (Wang, Balle & Kasiviswanathan 2019, Corollary 10);
  (lam - 1) D_lam = 0 at lam = 1.
* Both bounds are also capped by eps(alpha) itself: the subsampled output laws are mixtures with the
  same weights, and by the joint quasi-convexity of D_alpha, D_alpha((1-q)P + qQ || P) <=
  D_alpha(Q || P) (and the same in the other direction), so subsampling never increases the RDP.

The sums are evaluated in arb from upper bounds on eps(l) (each term is non-decreasing in eps(l)) and
the upper end is returned, so the bounds are certified given certified eps(l).

>>> d = flipped_huber_rdp(2.0, alpha=0.0, gamma=1.0)       # Gaussian: lam Delta^2/(2 sigma^2) = 1
>>> abs(d - 1.0) < 1e-14
True
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import Callable, List, Optional, Tuple

from flint import arb, ctx, fmpq, fmpz

from .._core import domains as V
from ..noise.flipped_huber import FlippedHuber

__all__ = [
    "flipped_huber_rdp",
    "flipped_huber_rdp_zcdp",
    "poisson_subsampled_rdp",
    "without_replacement_subsampled_rdp",
    "interpolated_rdp",
]

#: the domains of a Renyi order and of a sampling probability; the order that stands for the KL divergence (order 1)
ORDER = V.Domain("order", 1.0, math.inf, closed_lower=True, closed_upper=True, allow_inf=True)
SAMPLING_PROB = V.Domain("sampling_prob", 0.0, 1.0, closed_lower=True, closed_upper=True)
KL_ORDER = 1.0 + 2.0**-20
_REL_BITS = 50
_START_PREC = 128
_MAX_PREC = 4096


def exact_fraction(x: float) -> fmpq:
    """The float x as the exact rational it is."""
    n, d = Fraction(x).as_integer_ratio()
    return fmpq(n, d)


def upper_float(x: arb) -> float:
    """The upper end of the ball x as a float rounded up (+inf if x is not finite)."""
    if not x.is_finite():
        return math.inf
    man, ex = x.upper().man_exp()
    m, e = int(man), int(ex)
    v = Fraction(m * 2**e) if e >= 0 else Fraction(m, 2 ** (-e))
    try:
        f = float(v)
    except OverflowError:
        return math.inf
    return math.nextafter(f, math.inf) if Fraction(f) < v else f


def rho_coefficients(t_lo: fmpq, t_hi: fmpq, a: fmpq) -> Tuple[fmpq, fmpq, fmpq]:
    """(p2, p1, p0) with rho_alpha(t) = p2 t^2 + p1 t + p0 on [t_lo, t_hi] (a piece between breakpoints)."""
    mid = (t_lo + t_hi) / 2
    if mid >= a:
        return fmpq(1, 2), fmpq(0), a * a / 2
    if mid <= -a:
        return fmpq(1, 2), fmpq(0), a * a / 2
    return fmpq(0), (a if mid >= 0 else -a), fmpq(0)


def quadratic_exp_integral(A: fmpq, B: fmpq, C: fmpq, lo: Optional[fmpq], hi: Optional[fmpq]) -> arb:
    """int_lo^hi exp(A t^2 + B t + C) dt; lo = None is -inf, hi = None is +inf (then A < 0)."""
    if A == 0:
        if lo is None or hi is None:
            raise ArithmeticError("unbounded piece with a non-Gaussian exponent")
        if B == 0:
            return arb(C).exp() * arb(hi - lo)
        return (arb(B * hi + C).exp() - arb(B * lo + C).exp()) / arb(B)
    m = -B / (2 * A)
    K = arb(C - B * B / (4 * A)).exp()
    if A > 0:
        if lo is None or hi is None:
            raise ArithmeticError("unbounded piece with a growing exponent")
        s = arb(A).sqrt()
        return K * arb.pi().sqrt() / (2 * s) * ((s * arb(hi - m)).erfi() - (s * arb(lo - m)).erfi())
    s = arb(-A).sqrt()
    half = arb.pi().sqrt() / (2 * s)
    if lo is not None and lo - m >= 0:  # the whole piece right of the vertex: a difference of erfc
        return K * half * ((s * arb(lo - m)).erfc() - (arb(0) if hi is None else (s * arb(hi - m)).erfc()))
    if hi is not None and hi - m <= 0:  # the whole piece left of the vertex
        return K * half * ((s * arb(m - hi)).erfc() - (arb(0) if lo is None else (s * arb(m - lo)).erfc()))
    top = arb(1) if hi is None else (s * arb(hi - m)).erf()
    bottom = arb(-1) if lo is None else (s * arb(lo - m)).erf()
    return K * half * (top - bottom)


def _integral(lam: fmpq, a: fmpq, g: fmpq, D: fmpq) -> arb:
    """int exp(-[lam rho(t) + (1 - lam) rho(t + D)]/g^2) dt over the real line, piece by piece."""
    pts = sorted({fmpq(0), a, -a, -D, -D + a, -D - a})
    g2 = g * g
    edges: List[Optional[fmpq]] = [None, *pts, None]
    total = arb(0)
    for lo, hi in zip(edges[:-1], edges[1:]):
        if lo is not None and hi is not None and lo == hi:
            continue
        # a bounded stand-in for the piece (the formulas of rho are the same on all of it)
        if lo is None:
            assert hi is not None
            rlo, rhi = hi - fmpq(2), hi
        elif hi is None:
            rlo, rhi = lo, lo + fmpq(2)
        else:
            rlo, rhi = lo, hi
        p2, p1, p0 = rho_coefficients(rlo, rhi, a)
        r2, r1, r0 = rho_coefficients(rlo + D, rhi + D, a)
        # rho(t + D) = r2 t^2 + (2 r2 D + r1) t + (r2 D^2 + r1 D + r0)
        A = -(lam * p2 + (1 - lam) * r2) / g2
        B = -(lam * p1 + (1 - lam) * (2 * r2 * D + r1)) / g2
        C = -(lam * p0 + (1 - lam) * (r2 * D * D + r1 * D + r0)) / g2
        total += quadratic_exp_integral(A, B, C, lo, hi)
    return total


def _rdp_ball(lam: fmpq, a: fmpq, g: fmpq, D: fmpq) -> arb:
    prec = _START_PREC
    while True:
        with ctx.workprec(prec):
            Z = _integral(fmpq(1), a, g, fmpq(0))
            d = (_integral(lam, a, g, D) / Z).log() / arb(lam - 1)
            if (d.is_finite() and d.rel_accuracy_bits() >= _REL_BITS) or prec >= _MAX_PREC:
                return d
        prec *= 2


def flipped_huber_rdp_zcdp(order: float, alpha: float, gamma: float, sensitivity: float = 1.0) -> float:
    """fhsym's zCDP bound xi + eta lam on D_lam (valid for every order), rounded up by 1e-12 relative.

    >>> flipped_huber_rdp_zcdp(2.0, 1.0, 2.0) >= flipped_huber_rdp(2.0, 1.0, 2.0)
    True
    """
    lam = V.check_scalar(order, ORDER)
    xi, eta = FlippedHuber(alpha, gamma).zcdp(sensitivity)
    return (float(xi) + float(eta) * lam) * (1.0 + 1e-12)


@functools.lru_cache(maxsize=65536)
def _rdp_cached(lam: float, a: float, g: float, D: float) -> float:
    if lam == math.inf:
        return math.inf
    if lam == 1.0:
        lam = KL_ORDER
    d = _rdp_ball(exact_fraction(lam), exact_fraction(a), exact_fraction(g), exact_fraction(D))
    return max(upper_float(d), 0.0)


def shifted_pair_rdp_upper(order: float, alpha: float, gamma: float, sensitivity: float) -> float:
    """The arb upper end of D_order(T || T + Delta) without argument checks or the zCDP cap (for callers that
    checked the arguments and evaluate many shifts; :func:`flipped_huber_rdp` is the public entry point)."""
    return _rdp_cached(order, alpha, gamma, sensitivity)


def flipped_huber_rdp(order: float, alpha: float, gamma: float, sensitivity: float = 1.0) -> float:
    """Certified upper bound on the Renyi divergence D_order(T || T + Delta), T ~ FH(alpha, gamma^2).

    The arb evaluation of the closed form (module docstring) at the exact binary inputs, its upper end
    rounded up, and never above :func:`flipped_huber_rdp_zcdp`.  ``order`` >= 1 (1: the KL divergence,
    bounded by the order 1 + 2^-20; ``math.inf``: +inf).

    >>> import math
    >>> d = flipped_huber_rdp(3.0, alpha=1.0, gamma=2.0, sensitivity=1.0)
    >>> 0.3 < d < flipped_huber_rdp_zcdp(3.0, 1.0, 2.0, 1.0)
    True
    """
    lam = V.check_scalar(order, ORDER)
    fh = FlippedHuber(alpha, gamma)
    D = V.check_scalar(sensitivity, V.SENSITIVITY)
    if lam == math.inf:
        return math.inf
    return min(_rdp_cached(lam, fh.alpha, fh.gamma, D), flipped_huber_rdp_zcdp(lam, fh.alpha, fh.gamma, D))


# ---------------------------------------------------------------------------
# subsampling (any mechanism with RDP bounds at the integer orders)
# ---------------------------------------------------------------------------


def _log_sum_upper(terms: List[arb], alpha: int) -> float:
    s = arb(0)
    for t in terms:
        s += t
    return upper_float(s.log() / (alpha - 1))


def _check_integer_order(order: int) -> int:
    if isinstance(order, bool) or not float(order).is_integer() or order < 2:
        raise ValueError(f"order must be an integer >= 2 for the subsampling bounds; got {order!r}")
    return int(order)


def poisson_subsampled_rdp(order: int, sampling_prob: float, rdp: Callable[[int], float]) -> float:
    """Zhu & Wang (ICML 2019) Theorem 6: RDP at integer ``order`` of the Poisson-subsampled mechanism.

    ``rdp(l)`` must be an upper bound on the mechanism's RDP at the integer order l (add/remove-one
    neighbours, both directions); q = ``sampling_prob``.  Certified given ``rdp``: arb sum, upper end.
    Capped by ``rdp(order)``.

    >>> g = lambda l: l / 2.0                              # Gaussian, sigma = 1
    >>> poisson_subsampled_rdp(2, 0.01, g) < 0.01 < g(2)
    True
    """
    alpha = _check_integer_order(order)
    q = V.check_scalar(sampling_prob, SAMPLING_PROB)
    if q == 0.0:
        return 0.0
    full = float(rdp(alpha))
    if q == 1.0:
        return full
    Q, P = arb(exact_fraction(q)), arb(exact_fraction(1.0 - q))  # 1 - q is exact for q in [1/2, 1]; else rounded: see below
    if Fraction(1) - Fraction(q) != Fraction(1.0 - q):
        P = arb(1) - Q
    with ctx.workprec(128):
        terms = [P ** (alpha - 1) * (alpha * Q - Q + 1)]
        terms.append(arb(fmpz(alpha) * (alpha - 1) / 2) * Q**2 * P ** (alpha - 2) * arb(exact_fraction(float(rdp(2)))).exp())
        binom = fmpz(alpha) * (alpha - 1) // 2
        for ell in range(3, alpha + 1):
            binom = binom * (alpha - ell + 1) // ell
            e = float(rdp(ell))
            if e == math.inf:
                return full
            terms.append(3 * arb(binom) * P ** (alpha - ell) * Q**ell * (arb(exact_fraction(e)) * (ell - 1)).exp())
        return min(_log_sum_upper(terms, alpha), full)


def without_replacement_subsampled_rdp(order: int, sampling_ratio: float, rdp: Callable[[int], float]) -> float:
    """Wang, Balle & Kasiviswanathan (AISTATS 2019) Theorem 9 with eps(inf) = inf, integer ``order``.

    ``rdp(l)``: upper bound on the RDP at integer order l of the mechanism run on the subsample, under
    replace-one neighbours; ``sampling_ratio`` = m/n (m of n records, without replacement).  Capped by
    ``rdp(order)``.

    >>> g = lambda l: l / 2.0
    >>> without_replacement_subsampled_rdp(2, 0.01, g) < g(2)
    True
    """
    alpha = _check_integer_order(order)
    q = V.check_scalar(sampling_ratio, V.Domain("sampling_ratio", 0.0, 1.0, closed_lower=True, closed_upper=True))
    if q == 0.0:
        return 0.0
    full = float(rdp(alpha))
    if q == 1.0:
        return full
    Q = arb(exact_fraction(q))
    with ctx.workprec(128):
        e2 = arb(exact_fraction(float(rdp(2)))).exp()
        second = 4 * (e2 - 1)
        two = 2 * e2
        terms = [arb(1), Q**2 * arb(fmpz(alpha) * (alpha - 1) / 2) * (second if second < two else two)]
        binom = fmpz(alpha) * (alpha - 1) // 2
        for ell in range(3, alpha + 1):
            binom = binom * (alpha - ell + 1) // ell
            e = float(rdp(ell))
            if e == math.inf:
                return full
            terms.append(2 * Q**ell * arb(binom) * (arb(exact_fraction(e)) * (ell - 1)).exp())
        return min(_log_sum_upper(terms, alpha), full)


def interpolated_rdp(order: float, at_integer: Callable[[int], float]) -> float:
    """An RDP bound at any ``order`` >= 1 from bounds at the integers: the cumulant (lam - 1) eps(lam)
    is convex, so it is below its chord between floor and ceil (zero at lam = 1; WBK 2019, Corollary 10);
    order 1 (KL) is bounded by the order-2 value.

    >>> interpolated_rdp(2.5, lambda l: l / 2.0) >= 2.5 / 2.0
    True
    """
    lam = V.check_scalar(order, ORDER)
    if lam == math.inf:
        return math.inf
    if lam == 1.0:  # KL <= D_2 (RDP is non-decreasing in the order)
        return float(at_integer(2))
    if float(lam).is_integer():
        return float(at_integer(int(lam)))
    lo, hi = math.floor(lam), math.ceil(lam)
    k_lo = 0.0 if lo == 1 else (lo - 1) * float(at_integer(lo))
    k_hi = (hi - 1) * float(at_integer(hi))
    t = lam - lo
    with ctx.workprec(128):
        v = ((1 - arb(exact_fraction(t))) * arb(exact_fraction(k_lo)) + arb(exact_fraction(t)) * arb(exact_fraction(k_hi))) / (arb(exact_fraction(lam)) - 1)
    return upper_float(v)
