"""Generic quadrature behind :meth:`NoiseDistribution.expect` and the moment/entropy fallbacks.

A noise law whose subclass supplies no closed form for a moment or the entropy still gets
one here, by adaptive Gauss-Kronrod quadrature (``scipy.integrate.quad``) of the definition:

    E[f(T); lb <= T <= ub] = int_lb^ub f(t) g(t) dt,
    E[T^n]  = 2 int_0^inf t^n g(t) dt                     (n even; symmetric g),
    h(T)    = -int g(t) log g(t) dt                        (differential entropy).

The range is split at 0, at the density's kinks (the hook ``_kinks()``: the points where
g or its derivative jumps, e.g. ``+-alpha`` for the flipped Huber law, ``+-A`` for the
truncated Laplace law, the step edges of the staircase) and at the quantiles
``+-isf(p)`` for p = 1/4, 1e-1, 1e-2, ..., 1e-256, so that every piece holds the bulk of
the mass on the scale where the density varies, whatever the parameters (a Laplace centre
of width 1e-4 next to a Gaussian tail at 1e4).  Each piece is integrated with
``epsrel = 1e-13``; the achieved accuracy is reported in ``docs/accuracy.md``.
"""

from __future__ import annotations

import math
import warnings
from typing import Callable, List, Protocol, SupportsFloat, Tuple

import numpy as np
from numpy.typing import ArrayLike

from .._core.types import FloatArray

__all__ = ["Law", "breakpoints", "expect", "moment", "entropy"]


class Law(Protocol):
    """What the quadratures read of a noise law (every :class:`~fhsym.NoiseDistribution` has it)."""

    def pdf(self, x: float) -> SupportsFloat: ...

    def logpdf(self, x: float) -> SupportsFloat: ...

    def isf(self, q: FloatArray) -> ArrayLike: ...

    def support(self) -> Tuple[float, float]: ...

    def _kinks(self) -> Tuple[float, ...]: ...

_TAIL_PROBS = np.array([0.25, 1e-1, 1e-2, 1e-3, 1e-4, 1e-6, 1e-8, 1e-12, 1e-16, 1e-24, 1e-32, 1e-48, 1e-64,
                        1e-96, 1e-128, 1e-192, 1e-256])
_EPSREL = 1e-13
_EPSABS_REL = 1e-16
_LIMIT = 200
#: a quadrature whose error estimate exceeds this (relative) is reported with a warning
_WARN_REL = 1e-9


def breakpoints(dist: Law, lo: float, hi: float) -> List[float]:
    """The split points of [lo, hi] (ends included, sorted): 0, the kinks and tail quantiles."""
    qs = np.asarray(dist.isf(_TAIL_PROBS), dtype=float)
    pts = {0.0}
    for x in list(qs[np.isfinite(qs)]) + [float(k) for k in dist._kinks()]:
        pts.update((float(x), -float(x)))
    s_lo, s_hi = dist.support()
    pts.update(p for p in (s_lo, s_hi) if math.isfinite(p))
    lo, hi = max(lo, s_lo), min(hi, s_hi)
    inner = sorted(p for p in pts if lo < p < hi)
    return [lo] + inner + [hi]


def _integrand(dist: Law, func: Callable[[float], float]) -> Callable[[float], float]:
    def f(x: float) -> float:
        g = float(dist.pdf(x))
        return 0.0 if g == 0.0 else float(func(x)) * g

    return f


def _integrate(f: Callable[[float], float], pts: List[float]) -> float:
    """Sum of the pieces, nearest to 0 first: each later piece needs only an absolute error of
    1e-16 times the magnitude integrated so far (negligible far-tail pieces end at once)."""
    from scipy import integrate  # imported on first use: ~0.8 s that `import fhsym` need not pay

    pieces = [(a, b) for a, b in zip(pts[:-1], pts[1:]) if b > a]
    pieces.sort(key=lambda ab: min(abs(ab[0]), abs(ab[1])) if ab[0] * ab[1] > 0 else 0.0)
    total, err, size = 0.0, 0.0, 0.0
    for a, b in pieces:
        res = integrate.quad(f, a, b, epsabs=_EPSABS_REL * size, epsrel=_EPSREL, limit=_LIMIT, full_output=1)
        total += res[0]
        err += res[1]
        size += abs(res[0])  # the scale of the integral when the pieces cancel (E[T] = 0)
    if not math.isfinite(total):
        raise FloatingPointError(f"the quadrature did not give a finite value (got {total!r})")
    if err > _WARN_REL * size and err > 1e-300:
        warnings.warn(f"quadrature error estimate {err:.2g} exceeds {_WARN_REL:g} relative to the "
                      f"scale {size:.6g}", RuntimeWarning, stacklevel=3)
    return total


def expect(dist: Law, func: Callable[[float], float], lb: float, ub: float) -> float:
    """int_lb^ub func(t) g(t) dt over [lb, ub] intersected with the support."""
    pts = breakpoints(dist, lb, ub)
    if not pts[-1] > pts[0]:
        return 0.0
    return _integrate(_integrand(dist, func), pts)


def moment(dist: Law, n: int) -> float:
    """E[T^n] = 2 int_0^inf t^n g(t) dt for even n (symmetric density)."""
    pts = breakpoints(dist, 0.0, math.inf)
    return 2.0 * _integrate(_integrand(dist, lambda x: x**n), pts)


def entropy(dist: Law) -> float:
    """h = 2 int_0^inf -log g(t) g(t) dt (symmetric density)."""
    pts = breakpoints(dist, 0.0, math.inf)

    def f(x: float) -> float:
        lg = float(dist.logpdf(x))
        return 0.0 if lg == -math.inf else -lg * math.exp(lg)

    return 2.0 * _integrate(f, pts)
