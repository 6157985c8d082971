"""The scalar namespace: the generated kernels on one point of Python floats (the searches' fast path).

A generated kernel takes its functions from a namespace ``xp`` (:mod:`fhsym._core.backends`);
:data:`SCALAR` binds the same names to :mod:`math`, to ``scipy.special`` called on a float, and to
ports of :mod:`fhsym._core.numerics` that follow the same branches and formulas point by point.
numpy pays ~1 us of dispatch per operation and a few per masked branch however small the array;
a search that evaluates one point at a time pays that for every operation, so the searches of
:mod:`fhsym.calibration.search` evaluate single points through the ``*_point`` functions of the
generated modules (printed by ``python -m fhsym.codegen``) on this namespace.

Contract: Python floats in and out, no validation.  Where numpy would return inf or NaN through an
overflow, a domain error or a division by zero, :mod:`math` raises ``ArithmeticError`` or
``ValueError`` instead: the caller then evaluates the point with the numpy kernels
(:func:`point_or_array`).  Nothing here decides privacy: the searches only propose, and every
calibration is certified in ball arithmetic at the returned floats.

>>> from fhsym._core.scalar import SCALAR
>>> round(SCALAR.erfcx_diff(1.0, 0.5), 12), round(SCALAR.gauss_profile(0.5, 1.0), 12)
(0.105998159701, 0.126936737507)
"""

from __future__ import annotations

import math
import types
from typing import Any, Callable, Tuple

import numpy as np
from scipy import special as sc

from . import numerics as nx
from .gaussian_tail import CF_DEPTHS

__all__ = ["SCALAR", "lowergamma_scaled", "log_mills", "k_fun", "j_fun", "erfcx_diff", "gauss_profile", "log_gauss_profile", "sub_prod", "abs_sum_sub", "point_or_array"]

_LN2 = math.log(2.0)
_SQRT1_2 = math.sqrt(0.5)
_SQRT_PI = math.sqrt(math.pi)
_INF = math.inf
_NAN = math.nan
_GL = [(float(x), float(w)) for x, w in zip(nx.GL8_X, nx.GL8_W)]
_ASYM = [float(c) for c in nx.ERFCX_ASYMPTOTIC]
_BANDS = tuple((float(u), int(t)) for u, t in nx.ERFCX_ASYMPTOTIC_BANDS)
_erfcx = sc.erfcx


def _log(x: float) -> float:
    if x > 0.0:
        return math.log(x)
    return -_INF if x == 0.0 else _NAN


def _maximum(a: float, b: float) -> float:  # numpy's: NaN propagates
    if a > b:
        return a
    return b if b >= a else _NAN


def _minimum(a: float, b: float) -> float:
    if a < b:
        return a
    return b if b <= a else _NAN


def _logaddexp(a: float, b: float) -> float:
    if a == b:
        return a + _LN2
    if a != a or b != b:
        return _NAN
    if a > b:
        return a + math.log1p(math.exp(b - a))
    return b + math.log1p(math.exp(a - b))


def _log_max0(y: float) -> float:
    if y > 0.0:
        return math.log(y)
    return -_INF if y <= 0.0 else _NAN


def _sign(x: float) -> float:
    if x > 0.0:
        return 1.0
    if x < 0.0:
        return -1.0
    return x  # 0.0, -0.0 or NaN


def _exprel(x: float) -> float:
    return float(sc.exprel(x))


def _log1mexp(x: float) -> float:
    if x <= _LN2:
        return math.log(-math.expm1(-x))
    return math.log1p(-math.exp(-x))


def erfcx_diff(y: float, k: float) -> float:
    """erfcx(y) - erfcx(y + k), k >= 0: :func:`fhsym._core.numerics.erfcx_diff` at one point (same regimes)."""
    if y == _INF:  # erfcx(inf) = erfcx(inf + k) = 0
        return 0.0
    if y >= 7.0:
        terms = _BANDS[-1][1]
        for upper, n_terms in _BANDS:
            if y < upper:
                terms = n_terms
                break
        inv = 1.0 / y
        inv2 = inv * inv
        s = y + k
        q = y / s
        c = 1.0 if k == _INF else k / s
        q2 = q * q
        d = c * (1.0 + q)
        acc = 0.0
        pw = inv
        for m in range(terms):
            acc += _ASYM[m] * pw * c
            pw *= inv2
            c = d + q2 * c
        return acc
    if k * (1.0 if y > -1.0 else -y) >= 0.5:
        return float(_erfcx(y)) - float(_erfcx(y + k))
    half = 0.5 * k
    mid = y + half
    tot = 0.0
    for xg, wg in _GL:
        t = mid + half * xg
        tot += wg * (2.0 / _SQRT_PI - 2.0 * t * float(_erfcx(t)))
    return tot * half


def _gauss_hi(x: float, D: float) -> float:
    return 0.5 * math.exp(-0.5 * x * x) * erfcx_diff(x * _SQRT1_2, D * _SQRT1_2)


def _gauss_direct(x: float, D: float) -> float:
    return 0.5 * math.erfc(x * _SQRT1_2) - 0.5 * math.exp(-0.5 * x * x) * float(_erfcx((x + D) * _SQRT1_2))


def gauss_profile(x: float, D: float) -> float:
    """H(x, D) = Q(x) - e^{D x + D^2/2} Q(x + D): :func:`fhsym._core.numerics.gauss_profile` at one point."""
    if x >= -5.0:
        return _gauss_hi(x, D)
    if x + 0.5 * D > 0.0:
        return _gauss_direct(x, D)
    a = D * (x + 0.5 * D)
    xm = -x - D
    hm = _gauss_hi(xm, D) if xm >= -5.0 else _gauss_direct(xm, D)
    return -math.expm1(a) + math.exp(a) * hm


def log_gauss_profile(x: float, D: float) -> float:
    """log H(x, D): :func:`fhsym._core.numerics.log_gauss_profile` at one point."""
    if x >= -5.0:
        return -0.5 * x * x + _log(0.5 * erfcx_diff(x * _SQRT1_2, D * _SQRT1_2))
    return _log(gauss_profile(x, D))


# Gaussian-tail functions (fhsym._core.gaussian_tail) at one point
_LOG_SQRT_PI_2 = 0.5 * math.log(math.pi / 2.0)
_LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)
_SQRT_PI_2 = math.sqrt(math.pi / 2.0)
_GL10 = [(float(x), float(w)) for x, w in zip(*np.polynomial.legendre.leggauss(10))]


def log_mills(x: float) -> float:
    """log R(x), R the Mills ratio: :func:`fhsym._core.gaussian_tail.log_mills` at one point."""
    if x >= 0.0:
        return _log(float(_erfcx(x * _SQRT1_2))) + _LOG_SQRT_PI_2
    return float(sc.log_ndtr(-x)) + 0.5 * x * x + _LOG_SQRT_2PI


# the continued fraction's partial numerators depth, ..., 2 as floats, for every depth of CF_DEPTHS (int / float
# divides as float / float: the same quotients)
_CF_NS = {d: tuple(float(n) for n in range(d, 1, -1)) for d in {12} | {d for _, d in CF_DEPTHS}}


_LIM_LAST = max(lim for lim, _ in CF_DEPTHS)  # from here on the depth is 12
_NS_LAST = _CF_NS[12]


def _cf_ns(x: float) -> Tuple[float, ...]:
    for lim, d in CF_DEPTHS:
        if x < lim:
            return _CF_NS[d]
    return _CF_NS[12]


def k_fun(x: float) -> float:
    """K(x) = 1/R(x) - x: :func:`fhsym._core.gaussian_tail.k_fun` at one point (the same continued fraction)."""
    if x < 2.0:
        return 1.0 / (_SQRT_PI_2 * float(_erfcx(x * _SQRT1_2))) - x
    t = 0.0
    for n in _cf_ns(x):
        t = n / (x + t)
    return 1.0 / (x + t)


(_X0, _W0), (_X1, _W1), (_X2, _W2), (_X3, _W3), (_X4, _W4), (_X5, _W5), (_X6, _W6), (_X7, _W7), (_X8, _W8), \
    (_X9, _W9) = _GL10


def j_fun(b: float, h: float) -> float:
    """J(b, h) = log R(b) - log R(b + h) = int_b^{b+h} K: :func:`fhsym._core.gaussian_tail.j_fun` at one point, with
    10 Gauss-Legendre nodes instead of 20 where h <= max(1, b)/2 (K analytic, its singularities > 2.8 away: the
    rule's error is below 1e-16 relative there).  The nodes' K inline (:func:`k_fun`'s operations, summed in the
    same order).  Where the 10 nodes are all >= 2 and take the same continued-fraction depth (its depth is
    non-increasing in y: the first and last node decide), the ten fractions run side by side in one loop over the
    partial numerators: each node's own operations in its own order, so the same doubles (tests/test_scalar.py)."""
    if h <= 0.5 * (b if b > 1.0 else 1.0) and math.isfinite(b):
        half = 0.5 * h
        mid = b + half
        y0 = mid + half * _X0
        y9 = mid + half * _X9
        if y0 >= 2.0 and y9 >= 2.0:  # (h < 0: y9 is the smaller)
            ns = _NS_LAST if y0 >= _LIM_LAST else _cf_ns(y0)
            if ns is (_NS_LAST if y9 >= _LIM_LAST else _cf_ns(y9)):
                y1, y2, y3, y4 = mid + half * _X1, mid + half * _X2, mid + half * _X3, mid + half * _X4
                y5, y6, y7, y8 = mid + half * _X5, mid + half * _X6, mid + half * _X7, mid + half * _X8
                t0 = t1 = t2 = t3 = t4 = t5 = t6 = t7 = t8 = t9 = 0.0
                for n in ns:
                    t0 = n / (y0 + t0)
                    t1 = n / (y1 + t1)
                    t2 = n / (y2 + t2)
                    t3 = n / (y3 + t3)
                    t4 = n / (y4 + t4)
                    t5 = n / (y5 + t5)
                    t6 = n / (y6 + t6)
                    t7 = n / (y7 + t7)
                    t8 = n / (y8 + t8)
                    t9 = n / (y9 + t9)
                acc = 0.0
                acc += _W0 * (1.0 / (y0 + t0))
                acc += _W1 * (1.0 / (y1 + t1))
                acc += _W2 * (1.0 / (y2 + t2))
                acc += _W3 * (1.0 / (y3 + t3))
                acc += _W4 * (1.0 / (y4 + t4))
                acc += _W5 * (1.0 / (y5 + t5))
                acc += _W6 * (1.0 / (y6 + t6))
                acc += _W7 * (1.0 / (y7 + t7))
                acc += _W8 * (1.0 / (y8 + t8))
                acc += _W9 * (1.0 / (y9 + t9))
                return half * acc
        acc = 0.0
        for x, w in _GL10:
            y = mid + half * x
            if y < 2.0:
                k = 1.0 / (_SQRT_PI_2 * float(_erfcx(y * _SQRT1_2))) - y
            else:
                t = 0.0
                for n in (_NS_LAST if y >= _LIM_LAST else _cf_ns(y)):
                    t = n / (y + t)
                k = 1.0 / (y + t)
            acc += w * k
        return half * acc
    v = log_mills(b) - log_mills(b + h)
    return 0.0 if v != v else v


def _split(x: float) -> Tuple[float, float]:
    c = 134217729.0 * x
    hi = c - (c - x)
    return hi, x - hi


def sub_prod(e: float, x: float, y: float) -> float:
    """e - x*y with the product taken exactly (:func:`fhsym._core.numerics.sub_prod` at one point)."""
    p = x * y
    ah, al = _split(x)
    bh, bl = _split(y)
    err = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    if not math.isfinite(err):
        return e - p
    return (e - p) - err


def abs_sum_sub(x: float, y: float, c: float) -> float:
    """|x + y| - c with x + y taken error-free (:func:`fhsym._core.numerics.abs_sum_sub` at one point)."""
    h = x + y
    bb = h - x
    lo = (x - (h - bb)) + (y - bb)
    if not math.isfinite(lo):
        return abs(x + y) - c
    return (abs(h) - c) + (-lo if h < 0 else lo)


_FACT = [float(f) for f in nx.FACTORIALS]


def lowergamma_scaled(n: int, y: float) -> float:
    """int_0^1 u^n e^{-y u} du: :func:`fhsym._core.numerics.lowergamma_scaled` at one point (same series and cut)."""
    n = int(n)
    if y <= nx.SERIES_CUT:
        acc = 0.0
        for k in range(nx.SERIES_TERMS - 1, -1, -1):  # Horner in y
            acc = acc * y + (-1.0) ** k / (_FACT[k] * (n + 1 + k))
        return acc
    return math.factorial(n) * float(sc.gammainc(n + 1.0, y)) / y ** (n + 1)


def _scipy(name: str) -> Callable[..., float]:
    fn = getattr(sc, name)
    return lambda *args: float(fn(*args))


#: the generated kernels' names bound to scalar implementations (see the module docstring)
SCALAR = types.SimpleNamespace(
    name="scalar", pi=math.pi, inf=_INF, nan=_NAN, exp=math.exp, expm1=math.expm1, log=_log, log1p=math.log1p, sqrt=math.sqrt,
    sign=_sign, maximum=_maximum, minimum=_minimum, logaddexp=_logaddexp, log_max0=_log_max0,
    logical_not=lambda c: not c, where=lambda c, a, b: a if c else b, erf=math.erf, erfc=math.erfc,
    erfinv=_scipy("erfinv"), ndtri=_scipy("ndtri"), gamma=_scipy("gamma"), gammaincc=_scipy("gammaincc"),
    erfcx=lambda x: float(_erfcx(x)), log_ndtr=_scipy("log_ndtr"), ndtri_exp=_scipy("ndtri_exp"), exprel=_exprel,
    lowergamma_scaled=lowergamma_scaled, lowergamma3_scaled=lambda y: lowergamma_scaled(2, y),
    log1mexp=_log1mexp, erfcx_diff=erfcx_diff, gauss_profile=gauss_profile, log_gauss_profile=log_gauss_profile,
    sub_prod=sub_prod, abs_sum_sub=abs_sum_sub)


def point_or_array(point: Callable[..., float], array: Callable[..., Any], *args: float) -> float:
    """``point(*args)`` on the scalar namespace, or ``array`` (the numpy kernels) where :mod:`math` raises."""
    try:
        return point(*args)
    except (ArithmeticError, ValueError):
        return float(array(*args))
