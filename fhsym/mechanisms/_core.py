"""Shared numerics and plumbing for :mod:`fhsym.mechanisms` (private).

Notation used throughout the package
------------------------------------
``Q(x)``   standard normal survival function, ``Q(x) = P(Z > x)``.
``phi(x)`` standard normal density.
``R(x)``   Mills ratio ``Q(x) / phi(x)``; ``R(x) = sqrt(pi/2) erfcx(x / sqrt 2)``,
           equivalently ``R(x) = int_0^inf exp(-x u - u^2/2) du``.
``K(x)``   ``1/R(x) - x = -(log R)'(x) > 0``.  For ``x >= 2`` it is evaluated by
           Laplace's continued fraction ``K = 1/(x + 2/(x + 3/(x + ...)))``
           (120 levels at x = 2 down to 12 for x >= 20; full double accuracy,
           checked against mpmath), below by ``1/R - x`` (loses at most a
           factor ~6.4, at ``x = 2``).
``J(b,h)`` ``log R(b) - log R(b+h) = int_b^{b+h} K(s) ds  (> 0 for h > 0)``.

``J`` is the work-horse of every Gaussian-type privacy profile: the naive
difference ``Q(b) - e^eps Q(b+h)`` is rewritten as ``Q(b) * (1 - exp(-J(b,h)))``
and ``J`` is computed either as a difference of ``log R`` values (when that
difference is not small compared with the values) or by a 20-point
Gauss-Legendre rule applied to the positive integrand ``K`` (when ``h`` is
small compared with ``max(1, b)``; ``K`` is analytic with its nearest complex
singularities at distance > 2.8 from ``[-1/4, inf)``, so the rule is exact to
rounding).  Neither branch subtracts nearly equal numbers by more than a
factor ~60.

The steep factor ``Q(b)`` is evaluated as ``exp(-b^2/2) R(b)/sqrt(2 pi)`` with
``b`` carried as a double-double and ``b^2`` formed exactly (``q_dd``): the
naive ``ndtr(-b)`` costs ~``b^2`` ulp in the far tail (1e-13 at
delta ~ 1e-300).  Differences that vanish at the kinks of a profile (for
example ``eps - Delta/beta`` or ``eps_boundary - eps``) are likewise formed
in double-double arithmetic (TwoSum/TwoProduct).  Together these give the
measured <= 2.8e-15 relative accuracy of every profile.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable

import numpy as np
from scipy import special as sc

from .._validation import Domain, REAL, check_array, check_scalar
from .._numerics import two_prod, two_sum  # noqa: F401  (re-exported for the mechanisms)
from .._random import as_generator

__all__ = ["Calibration", "CERTIFICATION_MARGIN", "Mechanism"]

#: Domains that are specific to this package (the shared ones live in
#: ``fhsym._validation``).
POS_EPSILON = Domain("epsilon", 0.0, math.inf)
EPS_PROFILE = Domain("epsilon", 0.0, math.inf, closed_lower=True)
SIGMA = Domain("sigma", 0.0, math.inf)
D_ARG = Domain("d", -math.inf, math.inf)
T_ARG = Domain("t", -math.inf, math.inf, closed_lower=True, closed_upper=True, allow_inf=True)

#: Calibrations require the *computed* delta to be <= target * (1 - margin).
#: The margin is ~35x the worst relative error measured for any profile
#: (2.8e-15 over the documented ranges, see docs/mechanisms.md), so the
#: certificate still holds if the evaluation were 35x less accurate than
#: measured.  Its cost is a relative excess of about margin / |dlog delta /
#: dlog scale| (< 1e-13) in the returned scale parameter.
CERTIFICATION_MARGIN = 1e-13

SQRT2 = math.sqrt(2.0)
LOG_SQRT_PI_2 = 0.5 * math.log(math.pi / 2.0)
LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)
SQRT_PI_2 = math.sqrt(math.pi / 2.0)

_GL_X, _GL_W = np.polynomial.legendre.leggauss(20)


_CF_DEPTHS = ((3.0, 120), (4.0, 60), (6.0, 40), (10.0, 24), (20.0, 16))


def _cf_depth(xmin: float) -> int:
    """Continued-fraction depth giving full double accuracy for all x >= xmin >= 2."""
    for lim, depth in _CF_DEPTHS:
        if xmin < lim:
            return depth
    return 12


def _cf_bins(x: np.ndarray):
    """(mask, depth) per band [2, 3), [3, 4), ..., [20, inf) of x >= 2: each band gets the depth of its lower end."""
    lower = 2.0
    for lim, depth in _CF_DEPTHS + ((np.inf, 12),):
        m = (x >= lower) & (x < lim) if lim < np.inf else x >= lower
        if m.any():
            yield m, depth
        lower = lim


# --------------------------------------------------------------------------
# special functions


def mills(x: np.ndarray) -> np.ndarray:
    """Mills ratio ``R(x)`` (finite for x > -37)."""
    with np.errstate(over="ignore"):
        return SQRT_PI_2 * sc.erfcx(np.asarray(x, dtype=float) / SQRT2)


def log_mills(x: np.ndarray) -> np.ndarray:
    """``log R(x)`` for all real ``x`` (``+inf`` at ``-inf``, ``-inf`` at ``+inf``)."""
    x = np.asarray(x, dtype=float)
    out = np.empty(x.shape)
    pos = x >= 0
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        xp = x[pos]
        out[pos] = np.log(sc.erfcx(xp / SQRT2)) + LOG_SQRT_PI_2
        xn = x[~pos]
        out[~pos] = sc.log_ndtr(-xn) + 0.5 * xn * xn + LOG_SQRT_2PI
    return out


def k_fun(x: np.ndarray) -> np.ndarray:
    """``K(x) = 1/R(x) - x`` (see module docstring)."""
    x = np.asarray(x, dtype=float)
    out = np.empty(x.shape)
    small = x < 2.0
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        xs = x[small]
        out[small] = 1.0 / mills(xs) - xs
        xl = x[~small]
        if xl.size:
            res = np.empty(xl.shape)
            for m, depth in _cf_bins(xl):  # the depth each band needs, not the worst band's
                xm = xl[m]
                t = np.zeros(xm.shape)
                for n in range(depth, 1, -1):
                    t = n / (xm + t)
                res[m] = 1.0 / (xm + t)
            out[~small] = res
    return out


def r2_fun(x: np.ndarray) -> np.ndarray:
    """``I_2(x)/I_1(x)`` where ``I_n(x) = int_0^inf u^n exp(-x u - u^2/2) du``.

    Only used for x >= 0.  ``I_2/I_0 = K * r2`` is the normalised second moment
    of a one-sided offset Gaussian (OSGT variance).  For x >= 2 the continued
    fraction ``r2 = 2/(x + 3/(x + 4/(x + ...)))``; below, ``(1 - xK)/K``.
    """
    x = np.asarray(x, dtype=float)
    out = np.empty(x.shape)
    small = x < 2.0
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        xs = x[small]
        ks = k_fun(xs)
        out[small] = (1.0 - xs * ks) / ks
        xl = x[~small]
        if xl.size:
            res = np.empty(xl.shape)
            for m, depth in _cf_bins(xl):
                xm = xl[m]
                t = np.zeros(xm.shape)
                for n in range(depth + 1, 2, -1):
                    t = n / (xm + t)
                res[m] = 2.0 / (xm + t)
            out[~small] = res
    return out


def second_moment_ratio(x: float) -> float:
    """``I_2(x)/I_0(x)``: variance factor of the one-sided offset Gaussian (x >= 0).

    For ``x >= 2`` the continued-fraction product ``K(x) r2(x)``; below, both
    integrals by 14 x 20-point composite Gauss-Legendre on ``[0, 14]`` (integrand
    analytic, ``e^{-98}`` beyond), which avoids the cancellation in
    ``1 - x K(x)``.
    """
    if x >= 2.0:
        xa = np.array([x])
        return float((k_fun(xa) * r2_fun(xa))[0])
    edges = np.linspace(0.0, 14.0, 15)
    nodes = (edges[:-1, None] + 0.5 * np.diff(edges)[:, None] * (1.0 + _GL_X[None, :])).ravel()
    weights = np.tile(0.5 * np.diff(edges)[0] * _GL_W, len(edges) - 1)
    w = weights * np.exp(-x * nodes - 0.5 * nodes * nodes)
    return float(np.sum(w * nodes * nodes) / np.sum(w))


def j_fun(b: np.ndarray, h: np.ndarray) -> np.ndarray:
    """``J(b, h) = log R(b) - log R(b + h) = int_b^{b+h} K`` for ``h >= 0``, ``b >= -h/2``."""
    b, h = np.broadcast_arrays(np.asarray(b, dtype=float), np.asarray(h, dtype=float))
    out = np.empty(b.shape)
    with np.errstate(invalid="ignore", over="ignore"):
        quad = h <= 0.5 * np.maximum(1.0, b)
    quad &= np.isfinite(b)
    if np.any(quad):
        bq = b[quad][:, None]
        hq = h[quad][:, None]
        nodes = bq + 0.5 * hq * (1.0 + _GL_X[None, :])
        with np.errstate(invalid="ignore"):
            out[quad] = 0.5 * h[quad] * (k_fun(nodes) @ _GL_W)
    rest = ~quad
    if np.any(rest):
        br, hr = b[rest], h[rest]
        with np.errstate(invalid="ignore"):
            val = log_mills(br) - log_mills(br + hr)
        # b = +inf (profile far in the tail): J is irrelevant, Q(b) = 0.
        val = np.where(np.isnan(val), 0.0, val)
        out[rest] = val
    return out


def gaussian_type_delta(b: np.ndarray, h: np.ndarray, b_lo: np.ndarray | float = 0.0) -> np.ndarray:
    """``Q(b) - e^{eps} Q(b + h)`` with ``eps = h (b + h/2)``, i.e. ``Q(b)(1 - e^{-J(b,h)})``.

    ``b + b_lo`` is ``b`` as an unevaluated double-double sum (``b_lo`` tiny).
    """
    jv = j_fun(b, h)
    return q_dd(b, b_lo) * -np.expm1(-jv)


def div_dd(num: np.ndarray, den: float) -> tuple[np.ndarray, np.ndarray]:
    """``num / den = hi + lo`` to about 2^-104 relative (num array, den scalar)."""
    hi = num / den
    p, e = two_prod(hi, np.full(np.shape(hi), den))
    lo = ((num - p) - e) / den
    lo = np.where(np.isfinite(lo), lo, 0.0)
    return hi, lo


def dd_add(a_hi, a_lo, b_hi, b_lo):
    """Double-double sum (vectorised)."""
    s, e = two_sum(np.asarray(a_hi, dtype=float), np.asarray(b_hi, dtype=float))
    e = e + (a_lo + b_lo)
    hi = s + e
    return hi, e - (hi - s)


def dd_mul(a_hi, a_lo, b_hi, b_lo):
    """Double-double product (vectorised, |values| < 1e150)."""
    p, e = two_prod(np.asarray(a_hi, dtype=float), np.asarray(b_hi, dtype=float))
    e = e + (a_hi * b_lo + a_lo * b_hi)
    hi = p + e
    return hi, e - (hi - p)


def dd_div(a_hi, a_lo, b_hi, b_lo):
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


def ratio_dd(x_hi: np.ndarray, x_lo: np.ndarray, y: float, z: float) -> tuple[np.ndarray, np.ndarray]:
    """``(x_hi + x_lo) * y / z`` as a double-double (x arrays, y, z positive scalars)."""
    p, e = two_prod(x_hi, np.full(np.shape(x_hi), y))
    e = e + x_lo * y
    hi = p / z
    ph, pe = two_prod(hi, np.full(np.shape(hi), z))
    lo = (((p - ph) - pe) + e) / z
    with np.errstate(invalid="ignore"):
        lo = np.where(np.isfinite(lo), lo, 0.0)
    return hi, lo


def q_dd(b: np.ndarray, b_lo: np.ndarray | float = 0.0) -> np.ndarray:
    """``Q(b + b_lo)`` with relative accuracy ~ a few ulp in the upper tail.

    scipy's ``ndtr(-b)`` evaluates ``erfc(b / sqrt 2)``; rounding the argument
    costs ~ ``b^2`` ulp in the tail.  Here ``Q = exp(-b^2/2) R(b) / sqrt(2 pi)``
    with ``b^2`` formed exactly (TwoProduct) and ``R`` (well conditioned)
    from ``erfcx``.
    """
    b = np.asarray(b, dtype=float)
    b_lo = np.broadcast_to(np.asarray(b_lo, dtype=float), b.shape)
    out = np.empty(b.shape)
    big = (b > 1.0) & (b < 1e150)
    nb = ~big
    out[nb] = sc.ndtr(-(b[nb] + b_lo[nb]))
    if np.any(big):
        bh, bl = b[big], b_lo[big]
        p, e = two_prod(bh, bh)
        e = e + 2.0 * bh * bl
        with np.errstate(under="ignore", over="ignore", invalid="ignore"):
            val = np.exp(-0.5 * p) * np.exp(-0.5 * e) * mills(bh + bl) / math.sqrt(2.0 * math.pi)
        out[big] = np.where(p > 1600.0, 0.0, val)  # Q(b) < 1e-340 underflows anyway
    return out


def gl_integrate(f: Callable[[np.ndarray], np.ndarray], lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """20-point Gauss-Legendre rule on ``[lo, hi]`` (vectorised over the ends)."""
    lo = np.asarray(lo, dtype=float)[..., None]
    hi = np.asarray(hi, dtype=float)[..., None]
    nodes = lo + 0.5 * (hi - lo) * (1.0 + _GL_X)
    return 0.5 * (hi - lo)[..., 0] * (f(nodes) @ _GL_W)


# --------------------------------------------------------------------------
# exact helpers


def exact_quotient(num: float, den: float) -> tuple[float, float]:
    """``num/den = hi + lo`` with ``hi = fl(num/den)`` and ``lo`` the rounded remainder."""
    hi = num / den
    if not math.isfinite(hi) or hi == 0.0:
        return hi, 0.0
    lo = float((Fraction(num) - Fraction(hi) * Fraction(den)) / Fraction(den))
    return hi, lo


def _f2i(x: float) -> int:
    return struct.unpack("<q", struct.pack("<d", x))[0]


def _i2f(i: int) -> float:
    return struct.unpack("<d", struct.pack("<q", i))[0]


def smallest_ok(ok: Callable[[float], bool], x0: float, what: str) -> float:
    """Smallest positive double ``x`` with ``ok(x)``, for ``ok`` monotone (False then True).

    Brackets by doubling/halving from ``x0`` and then bisects on the bit
    patterns of the doubles, so the answer is exact to the last ulp with
    respect to the predicate.
    """
    hi = float(x0)
    for _ in range(2100):
        if ok(hi):
            break
        hi *= 2.0
        if not math.isfinite(hi):
            raise ValueError(f"cannot calibrate {what}: no finite value is private enough")
    else:  # pragma: no cover - defensive
        raise ValueError(f"cannot calibrate {what}")
    lo = hi / 2.0
    for _ in range(2100):
        if lo == 0.0 or not ok(lo):
            break
        hi, lo = lo, lo / 2.0
    ilo, ihi = _f2i(lo), _f2i(hi)
    while ihi - ilo > 1:
        mid = (ilo + ihi) // 2
        if ok(_i2f(mid)):
            ihi = mid
        else:
            ilo = mid
    return _i2f(ihi)


# --------------------------------------------------------------------------
# argument handling


def as_float_array(value: object, domain: Domain) -> tuple[np.ndarray, bool]:
    """Validated float array and whether the input was a scalar."""
    arr = check_array(value, domain)
    return arr, arr.ndim == 0


def finish(out: np.ndarray, scalar: bool) -> Any:
    out = np.asarray(out, dtype=float)
    return float(out) if scalar else out


def rng_from(random_state: object):
    """None / int seed / Generator / RandomState -> a numpy random generator (fhsym._random)."""
    return as_generator(random_state)


def check_size(size: object) -> Any:
    if size is None:
        return None
    if isinstance(size, (int, np.integer)) and not isinstance(size, bool):
        if size < 0:
            raise ValueError(f"size must be None, a non-negative int or a tuple of them; got {size!r}")
        return int(size)
    if isinstance(size, tuple) and all(
        isinstance(s, (int, np.integer)) and not isinstance(s, bool) and s >= 0 for s in size
    ):
        return tuple(int(s) for s in size)
    raise ValueError(f"size must be None, a non-negative int or a tuple of them; got {size!r}")


def x_array(x: object) -> tuple[np.ndarray, bool]:
    return as_float_array(x, REAL)


def profile_args(epsilon: object, sensitivity: object) -> tuple[np.ndarray, bool, float]:
    from .._validation import SENSITIVITY

    eps, scalar = as_float_array(epsilon, EPS_PROFILE)
    d = check_scalar(sensitivity, SENSITIVITY)
    return eps, scalar, d


def clip01(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=float)
    if np.any(np.isnan(x)):  # pragma: no cover - guarded against; never expected
        raise FloatingPointError("internal error: NaN in privacy profile")
    return np.clip(x, 0.0, 1.0)


def sym_sign_min(t: np.ndarray, d: np.ndarray) -> np.ndarray:
    """``|t + d/2| - |t - d/2| = 2 sgn(t) sgn(d) min(|t|, |d|/2)`` without cancellation."""
    return 2.0 * np.sign(t) * np.sign(d) * np.minimum(np.abs(t), 0.5 * np.abs(d))


@dataclass(frozen=True)
class Calibration:
    """Result of a certified calibration.

    Attributes
    ----------
    mechanism:
        The calibrated mechanism object.
    variance:
        Its noise variance.
    delta:
        ``mechanism.privacy_profile(epsilon, sensitivity)`` at the returned
        parameters; certified to be ``<= target_delta * (1 - CERTIFICATION_MARGIN)``
        (or exactly 0 for pure DP).
    epsilon, target_delta, sensitivity:
        The request.
    """

    mechanism: Any
    variance: float
    delta: float
    epsilon: float
    target_delta: float
    sensitivity: float


class Mechanism:
    """Shared public interface: validation, vectorisation and scalar handling.

    Subclasses provide ``_logpdf``, ``_sf`` (survival function; the noise is
    symmetric so ``cdf(x) = sf(-x)``), ``_profile``, ``_cpl`` and ``_rvs`` on
    validated float arrays, plus ``variance()``.
    """

    def pdf(self, x: object) -> Any:
        x, scalar = x_array(x)
        with np.errstate(all="ignore"):
            out = np.exp(self._logpdf(x))
        return finish(out, scalar)

    def logpdf(self, x: object) -> Any:
        x, scalar = x_array(x)
        with np.errstate(all="ignore"):
            out = self._logpdf(x)
        return finish(out, scalar)

    def cdf(self, x: object) -> Any:
        x, scalar = x_array(x)
        with np.errstate(all="ignore"):
            out = self._sf(-x)  # symmetric noise
        return finish(out, scalar)

    def sf(self, x: object) -> Any:
        x, scalar = x_array(x)
        with np.errstate(all="ignore"):
            out = self._sf(x)
        return finish(out, scalar)

    def privacy_profile(self, epsilon: object, sensitivity: object = 1.0) -> Any:
        eps, scalar, d = profile_args(epsilon, sensitivity)
        with np.errstate(all="ignore"):
            out = clip01(self._profile(eps, d))
        return finish(out, scalar)

    def centered_privacy_loss(self, t: object, d: object) -> Any:
        t_arr = check_array(t, T_ARG)
        d_arr = check_array(d, D_ARG)
        scalar = t_arr.ndim == 0 and d_arr.ndim == 0
        t_arr, d_arr = np.broadcast_arrays(t_arr, d_arr)
        with np.errstate(all="ignore"):
            out = np.where(d_arr == 0, 0.0, self._cpl(t_arr, d_arr))
        return finish(out, scalar)

    def rvs(self, size: object = None, random_state: object = None) -> Any:
        size = check_size(size)
        rng = rng_from(random_state)
        out = self._rvs(rng, size)
        if size is None:
            return float(np.asarray(out).reshape(()))
        return np.asarray(out, dtype=float)

    # to be provided by subclasses
    def _logpdf(self, x: np.ndarray) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError

    def _sf(self, x: np.ndarray) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError

    def _profile(self, eps: np.ndarray, d: float) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError

    def _cpl(self, t: np.ndarray, d: np.ndarray) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError

    def _rvs(self, rng: np.random.Generator, size: Any) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError
