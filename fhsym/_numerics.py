"""Vectorised special functions that ``scipy.special`` does not provide.

These are the numeric implementations of the SymPy nodes
:class:`fhsym.symbolic.special.lowergamma3_scaled` and
:class:`fhsym.symbolic.special.log1mexp`; the generated kernels call them.
Their accuracy against mpmath is tested in ``tests/test_numerics.py``.
"""

from __future__ import annotations

import numpy as np
from scipy import special as sc

__all__ = ["lowergamma3_scaled", "log1mexp"]

# Taylor coefficients of int_0^1 u^2 exp(-y u) du = sum_k (-y)^k / (k! (k + 3)).
# With |y| <= 0.5, 14 terms leave a truncation error below 0.5^14/(14! 17) ~ 4e-17
# relative to the value (>= 0.2): the sum is exact to double precision.
_SERIES_CUT = 0.5
_SERIES = np.array([(-1.0) ** k / (float(np.prod(np.arange(1, k + 1))) * (k + 3)) for k in range(14)])


def lowergamma3_scaled(y):
    """lowergamma(3, y)/y^3 = int_0^1 u^2 e^{-y u} du for y >= 0 (1/3 at y = 0).

    Accuracy: relative error below 4e-16 for all y >= 0 (Taylor series for
    y <= 0.5, ``2 * scipy.special.gammainc(3, y) / y**3`` above), see
    ``tests/test_numerics.py``.
    """
    y = np.asarray(y, dtype=float)
    out = np.empty_like(y)
    small = y <= _SERIES_CUT
    ys = y[small]
    # Horner evaluation of the series.
    acc = np.zeros_like(ys)
    for c in _SERIES[::-1]:
        acc = acc * ys + c
    out[small] = acc
    yl = y[~small]
    out[~small] = 2.0 * sc.gammainc(3.0, yl) / yl**3
    return out[()] if out.ndim == 0 else out


def log1mexp(x):
    """log(1 - exp(-x)) for x > 0, accurate to a few ulp (Maechler 2012).

    Uses ``log(-expm1(-x))`` for x <= log 2 and ``log1p(-exp(-x))`` above.
    """
    x = np.asarray(x, dtype=float)
    with np.errstate(divide="ignore"):
        out = np.where(x <= np.log(2.0), np.log(-np.expm1(-np.minimum(x, np.log(2.0)))),
                       np.log1p(-np.exp(-np.maximum(x, np.log(2.0)))))
    return out[()] if out.ndim == 0 else out
