"""Arbitrary-precision certification of a 1-D privacy claim at exact float parameters.

The float profile (:mod:`fhsym.privacy_profile`) is accurate to ~1e-10 relative in
its arguments b = alpha/gamma and D = Delta/gamma, but those quotients are rounded.
Next to the case boundary eps = alpha Delta/gamma^2 (where calibrated optima
sit) delta depends on eps - alpha Delta/gamma^2 through a square root, so a
one-ulp rounding of b or D can move delta by ~1e-8 relative.  A certificate must
therefore evaluate delta at the exact binary values of (eps, alpha, gamma, Delta).

Method (independent of the float kernels and of the case algebra of eq 13):

1. the crossing point t1 of the privacy loss, zeta_Delta(t1) = eps (eq 16, Lemma 11),
   by bisection on the loss itself, rho(t + Delta) - rho(t), at high precision;
   delta(t) = G_bar(t) - e^eps G_bar(t + Delta) is maximal at t1 with zero
   derivative, so an error h in t1 changes delta only at second order;
2. delta = G_bar(t1) - e^eps G_bar(t1 + Delta) with the survival function in closed
   form (eq 10, written as integrals of exp(-rho) that mpmath evaluates exactly);
3. repeated at a second working precision; the certified value is the larger one,
   inflated by the disagreement.

Cost: a few milliseconds.
"""

from __future__ import annotations

import mpmath as mp

from .._core import domains as V
from ..noise.flipped_huber import FlippedHuber

__all__ = ["certified_profile", "is_private", "profile_mpmath"]

_BISECT = 400  # bisection steps for t1 (interval shrinks by 2^-400)


def _profile_mp(eps: mp.mpf, b: mp.mpf, D: mp.mpf) -> mp.mpf:
    """delta^(1)(eps) in standard units (gamma = 1) at the current mpmath precision."""

    def rho(x: mp.mpf) -> mp.mpf:
        ax = abs(x)
        return b * ax if ax <= b else (x * x + b * b) / 2

    def loss(t: mp.mpf) -> mp.mpf:
        return rho(t + D) - rho(t)

    sq2pi = mp.sqrt(2 * mp.pi)
    tail_b = mp.exp(-b * b / 2) * sq2pi * mp.ncdf(-b)  # int_b^inf exp(-(s^2 + b^2)/2) ds

    def S(x: mp.mpf) -> mp.mpf:  # int_x^inf exp(-rho(s)) ds, x >= 0
        if x >= b:
            return mp.exp(-b * b / 2) * sq2pi * mp.ncdf(-x)
        return (mp.exp(-b * x) - mp.exp(-b * b)) / b + tail_b

    Z = 2 * S(mp.mpf(0)) if b > 0 else sq2pi

    def sf(x: mp.mpf) -> mp.mpf:
        return S(x) if x >= 0 else Z - S(-x)

    # bracket and bisect the crossing point of the non-decreasing loss
    lo, hi = -b - D - 1, b + 1
    while loss(hi) < eps:
        hi = 2 * hi + 1
    while loss(lo) >= eps:
        lo = 2 * lo - 1
    for _ in range(_BISECT):
        mid = (lo + hi) / 2
        if loss(mid) >= eps:
            hi = mid
        else:
            lo = mid
    t1 = hi
    val = (sf(t1) - mp.exp(eps) * sf(t1 + D)) / Z
    return max(val, mp.mpf(0))


def certified_profile(epsilon: float, alpha: float, gamma: float, sensitivity: float = 1.0, dps: int = 20) -> mp.mpf:
    """A proven upper bound on delta^(1)(eps) at the exact binary values of the arguments (an mpf).

    The upper end of a ball-arithmetic enclosure (python-flint ``arb``,
    :meth:`fhsym.NoiseDistribution.profile_enclosure`) of the exact profile of Theorem 3 (eq 13-16) at the
    exact floats, of relative width at most 10^-``dps`` (where delta is above the float range's
    floor), returned exactly as an ``mpmath.mpf``.  Independent of the float kernels.  (fhsym 0.1
    evaluated the crossing-point formula in mpmath at ``dps`` and ``2 dps`` digits: accurate, but
    not a proof; that evaluation is :func:`profile_mpmath`, kept as a cross-check.)

    Examples
    --------
    >>> import math
    >>> from fhsym import privacy_profile
    >>> c = certified_profile(1.0, alpha=1.0, gamma=2.0)
    >>> type(c).__name__
    'mpf'
    >>> f"{float(c):.10g}"
    '0.006715055727'
    >>> math.isclose(float(c), float(privacy_profile(1.0, 1.0, 2.0)), rel_tol=1e-12)
    True
    """
    eps = V.check_scalar(epsilon, V.EPSILON)
    a = V.check_scalar(alpha, V.ALPHA)
    g = V.check_scalar(gamma, V.GAMMA)
    Delta = V.check_scalar(sensitivity, V.SENSITIVITY)
    digits = V.check_int(dps, "dps", 1)
    enc = FlippedHuber(a, g).profile_enclosure(eps, Delta, rel_width=10.0 ** -min(digits, 300),
                          max_prec=max(1 << 14, 4 * digits))
    man, exp = enc.upper_man_exp()
    with mp.workprec(max(enc.prec, man.bit_length() + 8)):
        return mp.ldexp(mp.mpf(man), exp)


def profile_mpmath(epsilon: float, alpha: float, gamma: float, sensitivity: float = 1.0, dps: int = 60) -> mp.mpf:
    """delta^(1)(eps) by mpmath at ``dps`` and ``2 dps`` digits (fhsym 0.1's certificate; now a cross-check).

    Raises ``ArithmeticError`` if the two disagree by more than 1e-20 relative.  Slow (~0.1 s) and
    not a proof; :func:`certified_profile` is.

    >>> f"{float(profile_mpmath(1.0, 1.0, 2.0)):.10g}"
    '0.006715055727'
    """
    eps = V.check_scalar(epsilon, V.EPSILON)
    a = V.check_scalar(alpha, V.ALPHA)
    g = V.check_scalar(gamma, V.GAMMA)
    Delta = V.check_scalar(sensitivity, V.SENSITIVITY)
    vals = []
    for p in (dps, 2 * dps):
        with mp.workdps(p):
            e, A, G, Dl = (mp.mpf(x) for x in (eps, a, g, Delta))  # exact binary values
            vals.append(_profile_mp(e, A / G, Dl / G))
    lo, hi = sorted(vals)
    with mp.workdps(2 * dps):
        if hi > 0 and (hi - lo) > mp.mpf(10) ** -20 * hi:
            raise ArithmeticError(f"profile not resolved at {dps} digits: {mp.nstr(lo, 25)} vs {mp.nstr(hi, 25)}")
        return hi * (1 + mp.mpf(10) ** -20) + (hi - lo)


def is_private(epsilon: float, delta: float, alpha: float, gamma: float, sensitivity: float = 1.0) -> bool:
    """True iff FH(alpha, gamma^2) noise is certified (eps, delta)-DP for this sensitivity (Theorem 3).

    The test is: the upper end of the ball-arithmetic enclosure of delta^(1)(eps) (eq 13, 16)
    at the exact binary values of the arguments (:func:`certified_profile`) is <= delta, so a
    True is a proof; a False can also come from within ~1e-18 relative of the boundary (the
    width of the ball).

    Examples
    --------
    >>> from fhsym import privacy_profile
    >>> f"{float(privacy_profile(1.0, alpha=1.0, gamma=2.0)):.4g}"
    '0.006715'
    >>> is_private(1.0, 6.8e-3, alpha=1.0, gamma=2.0)
    True
    >>> is_private(1.0, 6.7e-3, alpha=1.0, gamma=2.0)
    False
    """
    dlt = V.check_scalar(delta, V.DELTA)
    eps = V.check_scalar(epsilon, V.EPSILON)
    a = V.check_scalar(alpha, V.ALPHA)
    g = V.check_scalar(gamma, V.GAMMA)
    Delta = V.check_scalar(sensitivity, V.SENSITIVITY)
    return FlippedHuber(a, g).profile_enclosure(eps, Delta).upper <= dlt
