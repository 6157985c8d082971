"""The arbitrary-precision namespaces of the generated mpmath module (``fhsym._generated.mp_kernels``).

Every kernel of ``mp_kernels`` is printed once, against a namespace ``xp`` (like the numpy/JAX
kernels, :mod:`fhsym._core.backends`), but with exact constants: a rational is ``xp.q(1, 3)``
and pi is ``xp.pi()``, so that nothing is rounded to a double.  Three namespaces bind the names:

* :data:`MP` -- mpmath numbers (``mpf``) at the precision of mpmath's context (``mp.prec``, set by
  the caller with ``mpmath.workprec``).  The stable nodes of :mod:`fhsym.symbolic.special` are
  evaluated from their definitions with guard bits, never through a double: erfcx(x) =
  exp(x^2) erfc(x), log_ndtr(x) = log Phi(x) (log1p of -Q(x) where Phi is near 1), ndtri_exp by
  Newton's method on log_ndtr started from a first approximation (``ndtri`` near p = 1/2 by
  mpmath's erfinv), the differences erfcx_diff/gauss_profile at a precision raised by the number
  of bits they cancel, sub_prod/abs_sum_sub with an exact product/sum rounded once.
* :data:`EXACT` -- the region tests on exact rationals (:class:`fractions.Fraction`): the
  ``<name>_region`` functions decide a piece by exact comparison when the ball target needs it.
* ``fhsym._core.arb.special.ARB`` -- the same names on python-flint ``arb`` balls.

Accuracy: each MP function returns its value with relative error a few units of the context
precision (absolute near a zero of the function); the callers add 32 guard bits.
"""

from __future__ import annotations

import math
import types
from fractions import Fraction
from typing import Any, Callable

import mpmath
import scipy.special as sc
from mpmath import mp, mpf

__all__ = ["MP", "EXACT", "GUARD_BITS", "exact_fraction", "to_mpf"]

#: guard bits the precise API adds to the requested precision for every evaluation
GUARD_BITS = 32


def exact_fraction(x: Any) -> Fraction:
    """The exact rational value of a float, int, Fraction or finite ``mpf`` (no rounding)."""
    if isinstance(x, Fraction):
        return x
    if isinstance(x, (int, float)):
        return Fraction(x)
    if isinstance(x, mpf):
        if not mpmath.isfinite(x):
            raise ValueError(f"cannot take the exact value of {x}")
        man, exp = x.man_exp  # mpmath's man_exp drops the sign
        return (-1 if x < 0 else 1) * Fraction(abs(int(man))) * (Fraction(2) ** int(exp))
    raise TypeError(f"cannot take the exact value of {type(x).__name__}")


def to_mpf(x: Any) -> mpf:
    """``x`` as an mpf at the current precision (exact for floats, ints and dyadic rationals)."""
    if isinstance(x, Fraction):
        d = x.denominator
        if d & (d - 1) == 0:  # dyadic: an exact scaling, no division of long integers
            return mpmath.ldexp(mpf(x.numerator), -(d.bit_length() - 1))
        return mpf(x.numerator) / d
    return mpf(x)


def _extra_bits(big: Any, small: Any) -> int:
    """Bits lost when a difference of terms of size ``big`` comes out of size ``small``."""
    if small == 0:
        return 0
    return max(0, int(mpmath.log(abs(big) / abs(small), 2)) + 1)


def _cancelling(terms: Callable[[], Any]) -> Any:
    """A difference ``a - b`` (``terms()`` returns (a, b)), recomputed at a precision raised by the
    bits it cancels until the result carries the context's precision."""
    prec = mp.prec
    extra = 0
    for _ in range(8):
        with mpmath.workprec(prec + extra + 16):
            a, c = terms()
            d = a - c
            lost = _extra_bits(max(abs(a), abs(c)), d) if d != 0 else prec + extra + 32
        if lost + prec <= prec + extra + 8:
            return +d
        extra = lost + 16
    return +d


def _erfcx(x: Any) -> Any:
    with mpmath.extraprec(20):
        return +(mpmath.exp(x * x) * mpmath.erfc(x))


def _log_ndtr(x: Any) -> Any:
    with mpmath.extraprec(20):
        if x > 0:
            return +mpmath.log1p(-mpmath.erfc(x / mpmath.sqrt(2)) / 2)
        return +mpmath.log(mpmath.erfc(-x / mpmath.sqrt(2)) / 2)


def _ndtri_exp(y: Any) -> Any:
    """Phi^{-1}(e^y) for y <= 0: Newton's method on log_ndtr(x) = y (quadratic convergence)."""
    if y == 0:
        return mpmath.inf
    if y == -mpmath.inf:
        return -mpmath.inf
    with mpmath.extraprec(20):
        if y > math.log(0.25) and y < math.log(0.75):
            return +(mpmath.sqrt(2) * mpmath.erfinv(2 * mpmath.exp(y) - 1))
        # a first approximation: the double-precision quantile (scipy) where y is a double, else the tail asymptote
        if y < -1e300:
            z = -mpmath.sqrt(-2 * y - mpmath.log(-4 * mpmath.pi * y))
        else:
            z = mpf(float(sc.ndtri_exp(float(y))))
        tol = mpf(2) ** (-mp.prec + 4)
        for _ in range(200):
            ln = _log_ndtr(z)
            # d/dz log Phi(z) = phi(z)/Phi(z) = exp(log phi(z) - log Phi(z))
            slope = mpmath.exp(-z * z / 2 - mpmath.log(2 * mpmath.pi) / 2 - ln)
            step = (ln - y) / slope
            z -= step
            if abs(step) <= tol * max(1, abs(z)):
                break
        return +z


def _ndtri(p: Any) -> Any:
    if p <= 0:
        return -mpmath.inf
    if p >= 1:
        return mpmath.inf
    if 0.25 < p < 0.75:
        with mpmath.extraprec(20):
            return +(mpmath.sqrt(2) * mpmath.erfinv(2 * p - 1))
    if p < 0.5:
        return _ndtri_exp(mpmath.log(p))
    return -_ndtri_exp(mpmath.log1p(-p))


def _exprel(x: Any) -> Any:
    if x == 0:
        return mpf(1)
    with mpmath.extraprec(20):
        return +(mpmath.expm1(x) / x)


def _lowergamma_scaled(n: Any, y: Any) -> Any:
    """int_0^1 u^n e^{-y u} du = 1F1(n + 1; n + 2; -y)/(n + 1) (mpmath's hypergeometric series, which
    raises its own precision where its terms cancel)."""
    if y == 0:
        return mpf(1) / (n + 1)
    return mpmath.hyp1f1(n + 1, n + 2, -y) / (n + 1)


def _log1mexp(x: Any) -> Any:
    with mpmath.extraprec(20):
        return +mpmath.log(-mpmath.expm1(-x))


def _logaddexp(x: Any, y: Any) -> Any:
    if x == -mpmath.inf and y == -mpmath.inf:
        return -mpmath.inf
    hi, lo = (x, y) if x >= y else (y, x)
    with mpmath.extraprec(20):
        return +(hi + mpmath.log1p(mpmath.exp(lo - hi)))


def _erfcx_diff(y: Any, k: Any) -> Any:
    return _cancelling(lambda: (_erfcx(y), _erfcx(y + k)))


def _gauss_profile(x: Any, D: Any) -> Any:
    def q(z: Any) -> Any:
        return mpmath.erfc(z / mpmath.sqrt(2)) / 2

    def terms() -> tuple[Any, Any]:
        return q(x), mpmath.exp(D * x + D * D / 2) * q(x + D)

    return _cancelling(terms)


def _sub_prod(e: Any, x: Any, y: Any) -> Any:
    return mpmath.fsub(e, mpmath.fmul(x, y, exact=True))


def _abs_sum_sub(x: Any, y: Any, c: Any) -> Any:
    return mpmath.fsub(abs(mpmath.fadd(x, y, exact=True)), c)


def _gammaincc(a: Any, x: Any) -> Any:
    return mpmath.gammainc(a, x, mpmath.inf, regularized=True)


MP = types.SimpleNamespace(
    name="mpmath",
    q=lambda p, r: mpf(p) / r,
    pi=lambda: +mp.pi,
    inf=mpmath.inf,
    nan=mpmath.nan,
    exp=mpmath.exp, expm1=mpmath.expm1, log=mpmath.log, log1p=mpmath.log1p, sqrt=mpmath.sqrt, sign=mpmath.sign,
    erf=mpmath.erf, erfc=mpmath.erfc, erfinv=mpmath.erfinv, gamma=mpmath.gamma, gammaincc=_gammaincc,
    maximum=max, minimum=min,
    erfcx=_erfcx, log_ndtr=_log_ndtr, ndtri=_ndtri, ndtri_exp=_ndtri_exp, exprel=_exprel,
    lowergamma_scaled=_lowergamma_scaled, lowergamma3_scaled=lambda y: _lowergamma_scaled(2, y),
    log1mexp=_log1mexp, logaddexp=_logaddexp, erfcx_diff=_erfcx_diff, gauss_profile=_gauss_profile,
    log_gauss_profile=lambda x, D: mpmath.log(_gauss_profile(x, D)), sub_prod=_sub_prod, abs_sum_sub=_abs_sum_sub,
)

EXACT = types.SimpleNamespace(
    name="exact",
    q=Fraction,
    maximum=max, minimum=min,
    sub_prod=lambda e, x, y: e - x * y,
    abs_sum_sub=lambda x, y, c: abs(x + y) - c,
)
