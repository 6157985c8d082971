"""Double-double (error-free) arithmetic helpers for the stable forms of the mechanisms' profiles.

Each value is an unevaluated sum ``hi + lo`` with ``|lo| <= ulp(hi)/2``, formed with Knuth's
TwoSum and Dekker's TwoProduct (:mod:`fhsym._core.numerics`), so differences that vanish at the
kinks of a profile (``eps - Delta/beta``, ``eps_boundary - eps``) keep full relative accuracy.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Tuple

import numpy as np

from .numerics import two_prod, two_sum
from .types import FloatArray, Real

__all__ = ["div_dd", "dd_add", "dd_mul", "dd_div", "ratio_dd", "exact_quotient", "int_times", "sym_sign_min", "two_prod",
           "two_sum"]

DD = Tuple[FloatArray, FloatArray]  # a double-double (hi, lo)


def div_dd(num: FloatArray, den: float) -> DD:
    """``num / den = hi + lo`` to about 2^-104 relative (num array, den scalar)."""
    hi = num / den
    p, e = two_prod(hi, np.full(np.shape(hi), den))
    lo = ((num - p) - e) / den
    lo = np.where(np.isfinite(lo), lo, 0.0)
    return hi, lo


def dd_add(a_hi: Real, a_lo: Real, b_hi: Real, b_lo: Real) -> DD:
    """Double-double sum (vectorised)."""
    s, e = two_sum(np.asarray(a_hi, dtype=float), np.asarray(b_hi, dtype=float))
    e = e + (a_lo + b_lo)
    hi = s + e
    return hi, e - (hi - s)


def dd_mul(a_hi: Real, a_lo: Real, b_hi: Real, b_lo: Real) -> DD:
    """Double-double product (vectorised, |values| < 1e150)."""
    p, e = two_prod(np.asarray(a_hi, dtype=float), np.asarray(b_hi, dtype=float))
    e = e + (a_hi * b_lo + a_lo * b_hi)
    hi = p + e
    return hi, e - (hi - p)


def dd_div(a_hi: Real, a_lo: Real, b_hi: Real, b_lo: Real) -> DD:
    """Double-double quotient (vectorised)."""
    a_hi = np.asarray(a_hi, dtype=float)
    q1 = a_hi / b_hi
    p, e = two_prod(q1, np.broadcast_to(np.asarray(b_hi, dtype=float), np.shape(q1)))
    r = (((a_hi - p) - e) + a_lo - q1 * b_lo) / b_hi
    hi = q1 + r
    with np.errstate(invalid="ignore"):
        lo = r - (hi - q1)
        lo = np.where(np.isfinite(lo), lo, 0.0)
    return hi, lo


def ratio_dd(x_hi: FloatArray, x_lo: FloatArray, y: float, z: float) -> DD:
    """``(x_hi + x_lo) * y / z`` as a double-double (x arrays, y, z positive scalars)."""
    p, e = two_prod(x_hi, np.full(np.shape(x_hi), y))
    e = e + x_lo * y
    hi = p / z
    ph, pe = two_prod(hi, np.full(np.shape(hi), z))
    lo = (((p - ph) - pe) + e) / z
    with np.errstate(invalid="ignore"):
        lo = np.where(np.isfinite(lo), lo, 0.0)
    return hi, lo


def int_times(n: int, x: float) -> tuple[float, float]:
    """``n x`` for an integer ``n`` (any size) as ``(hi, lo)``: ``hi`` the double nearest ``n x`` (inf past the float
    range, then ``lo = 0``), ``lo = fl(n x - hi)`` from exact rationals, so ``hi + lo`` is ``n x`` within an ulp of
    ``lo`` (the step laws' exponents ``k eps0`` over many periods: a plain product loses ``ulp(k eps0)``).

    >>> int_times(3, 0.1)   # 3 x 0.1 = 0.30000000000000001665..., the nearest double 0.30000000000000004
    (0.30000000000000004, -2.7755575615628914e-17)
    """
    q = Fraction(n) * Fraction(x)
    try:
        hi = float(q)
    except OverflowError:  # rounds past the largest double, as the float product would
        return (math.inf if q > 0 else -math.inf), 0.0
    return hi, float(q - Fraction(hi))


def exact_quotient(num: float, den: float) -> tuple[float, float]:
    """``num/den = hi + lo`` with ``hi = fl(num/den)`` and ``lo`` the rounded remainder."""
    hi = num / den
    if not math.isfinite(hi) or hi == 0.0:
        return hi, 0.0
    lo = float((Fraction(num) - Fraction(hi) * Fraction(den)) / Fraction(den))
    return hi, lo


def sym_sign_min(t: FloatArray, d: FloatArray) -> FloatArray:
    """``|t + d/2| - |t - d/2| = 2 sgn(t) sgn(d) min(|t|, |d|/2)`` without cancellation."""
    return 2.0 * np.sign(t) * np.sign(d) * np.minimum(np.abs(t), 0.5 * np.abs(d))
