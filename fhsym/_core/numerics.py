"""Vectorised special functions that ``scipy.special`` does not provide.

These are the numeric implementations of the SymPy nodes
:class:`fhsym.symbolic.special.lowergamma3_scaled` and
:class:`fhsym.symbolic.special.log1mexp`; the generated kernels call them.
Their accuracy against mpmath is tested in ``tests/test_numerics.py``.
"""

from __future__ import annotations

from typing import Tuple, overload

import numpy as np
from scipy import special as sc

from .types import FloatArray, Real

__all__ = ["lowergamma_scaled", "uppergamma", "log_uppergamma", "lowergamma3_scaled", "log1mexp", "erfcx_diff", "gauss_profile", "log_gauss_profile", "two_sum", "two_prod", "sub_prod", "abs_sum_sub"]

# int_0^1 u^n exp(-y u) du = sum_k (-y)^k / (k! (n + 1 + k)).  With |y| <= 0.5, 16 terms leave a
# truncation error below 0.5^16/16! < 1e-18 relative to the value (>= e^{-0.5}/(n+1)).
SERIES_CUT = 0.5
SERIES_TERMS = 16
FACTORIALS = np.array([float(np.prod(np.arange(1, k + 1))) for k in range(SERIES_TERMS)])


def lowergamma_scaled(n: int, y: Real) -> Real:
    """lowergamma(n + 1, y)/y^(n+1) = int_0^1 u^n e^{-y u} du for integer n >= 0 and y >= 0.

    Equals 1/(n + 1) at y = 0; it gives the Laplace-centre moments of the flipped Huber
    density, int_0^b s^n e^{-b s} ds = b^(n+1) lowergamma_scaled(n, b^2).
    """
    n = int(n)
    y = np.asarray(y, dtype=float)
    out = np.empty_like(y)
    small = y <= SERIES_CUT
    ys = y[small]
    acc = np.zeros_like(ys)
    for k in range(SERIES_TERMS - 1, -1, -1):  # Horner in y
        acc = acc * ys + (-1.0) ** k / (FACTORIALS[k] * (n + 1 + k))
    out[small] = acc
    yl = y[~small]
    with np.errstate(over="ignore"):
        out[~small] = float(np.prod(np.arange(1, n + 1))) * sc.gammainc(n + 1.0, yl) / yl ** (n + 1)
    return out[()] if out.ndim == 0 else out


def uppergamma(s: Real, z: Real) -> FloatArray:
    """Gamma(s, z) = gammaincc(s, z) Gamma(s) (scipy), the numpy column of the runtime's ``uppergamma``."""
    out: FloatArray = np.asarray(sc.gammaincc(s, z) * sc.gamma(s), dtype=float)
    return out


def log_uppergamma(s: Real, z: Real) -> FloatArray:
    """log Gamma(s, z) for z > 0: log(gammaincc * gamma) where the tail is a normal float, else (z > s + 1 there)
    -z + s log z + log of Legendre's continued fraction 1/(z + 1 - s - 1 (1 - s)/(z + 3 - s - ...)) (modified Lentz,
    60 terms: where the tail underflows z > 600, its terms shrink like k^2/z^2 and it has converged long before).

    >>> float(log_uppergamma(2 / 3, 1000.0)), float(sc.gammaincc(2 / 3, 1000.0))  # mpmath: -1002.30291803833669...
    (-1002.3029180383367, 0.0)
    """
    s, z = np.broadcast_arrays(np.asarray(s, dtype=float), np.asarray(z, dtype=float))
    shape = z.shape
    s, z = s.reshape(-1), z.reshape(-1)
    with np.errstate(all="ignore"):
        out = np.log(sc.gammaincc(s, z) * sc.gamma(s))
        far = ~(out > -690.0) & (z > s + 1.0)
        if np.any(far):
            a, x = s[far], z[far]
            b = x + 1.0 - a
            c, d = np.full(x.shape, 1e300), 1.0 / b
            h = d.copy()
            for k in range(1, 60):
                an = -k * (k - a)
                b = b + 2.0
                d = 1.0 / (an * d + b)
                c = b + an / c
                h = h * d * c
            out[far] = -x + a * np.log(x) + np.log(h)
    result: FloatArray = out.reshape(shape)
    return result


def lowergamma3_scaled(y: Real) -> Real:
    """lowergamma(3, y)/y^3 = int_0^1 u^2 e^{-y u} du = :func:`lowergamma_scaled` (2, y)."""
    return lowergamma_scaled(2, y)


def log1mexp(x: Real) -> Real:
    """log(1 - exp(-x)) for x > 0, accurate to a few ulp (Maechler 2012).

    Uses ``log(-expm1(-x))`` for x <= log 2 and ``log1p(-exp(-x))`` above.
    """
    x = np.asarray(x, dtype=float)
    with np.errstate(divide="ignore"):
        out = np.where(x <= np.log(2.0), np.log(-np.expm1(-np.minimum(x, np.log(2.0)))),
                       np.log1p(-np.exp(-np.maximum(x, np.log(2.0)))))
    return out[()] if out.ndim == 0 else out


# ---------------------------------------------------------------------------
# erfcx_diff(y, k) = erfcx(y) - erfcx(y + k), k >= 0, without cancellation
# ---------------------------------------------------------------------------
_SQRT_PI = float(np.sqrt(np.pi))
ERFCX_ASYMPTOTIC_FROM = 7.0  # y >= this: asymptotic series (remainder of the differenced series ~ 1e-18 relative)
ERFCX_ASYMPTOTIC_TERMS = 40
ERFCX_DIRECT_K = 0.5  # y < 7 and k max(1,-y) >= this: direct difference (relative error <~ 12 eps); below: Gauss-Legendre
GL8_X, GL8_W = np.polynomial.legendre.leggauss(8)


def _erfcx_asym_coeffs(n: int) -> FloatArray:
    # erfcx(y) ~ (1/sqrt(pi)) sum_m (-1)^m (2m-1)!! / 2^m * y^{-(2m+1)}
    c = np.empty(n)
    c[0] = 1.0
    for m in range(1, n):
        c[m] = -c[m - 1] * (2 * m - 1) / 2.0
    return c / _SQRT_PI


ERFCX_ASYMPTOTIC = _erfcx_asym_coeffs(ERFCX_ASYMPTOTIC_TERMS)
# (upper end of the band of y, terms): the first omitted differenced term, (2n+1) (2n-1)!! / (2 y^2)^n relative
# to the leading one, is < 1e-18 at the band's lower end with these n (33 at y = 7, 16 at 10, 12 at 14, 10 at 20,
# 8 at 30, 7 at 50, 6 at 100, 4 at 1e3), each rounded up
ERFCX_ASYMPTOTIC_BANDS = ((10.0, ERFCX_ASYMPTOTIC_TERMS), (14.0, 18), (20.0, 13), (30.0, 11), (50.0, 9), (100.0, 8),
                     (1e3, 7), (np.inf, 5))


_BAND_UPPER = np.array([u for u, _ in ERFCX_ASYMPTOTIC_BANDS])
_BAND_TERMS = np.array([t for _, t in ERFCX_ASYMPTOTIC_BANDS])
_ASYM_2D_MAX = 1 << 16  # points x terms up to which the asymptotic series is summed on a 2-D array


def _asymptotic_2d(yb: FloatArray, kb: FloatArray) -> FloatArray:
    """The asymptotic branch of :func:`erfcx_diff` (7 <= y < inf) for all bands at once, the same operations in the
    same order for each point: the powers y^{-(2m+1)} by a cumulative product (sequential: pw *= y^-2), the
    recurrence c_{2m+3} = (1 - q^2) + q^2 c_{2m+1} row by row, the terms (C_m pw) c, and their sums by a cumulative
    sum (sequential: acc += term) read at each point's band's term count."""
    n = yb.size
    inv = 1.0 / yb
    inv2 = inv * inv
    s = yb + kb
    q = yb / s
    c0 = np.where(np.isinf(kb), 1.0, kb / np.where(np.isinf(kb), 1.0, s))
    q2 = q * q
    d = c0 * (1.0 + q)
    terms = _BAND_TERMS[np.searchsorted(_BAND_UPPER, yb, side="right")]
    top = int(terms.max())
    pw = np.empty((top, n))
    pw[0] = inv
    pw[1:] = inv2
    np.cumprod(pw, axis=0, out=pw)
    c = np.empty((top, n))
    c[0] = c0
    for m in range(1, top):
        np.multiply(q2, c[m - 1], out=c[m])
        np.add(d, c[m], out=c[m])
    t = ERFCX_ASYMPTOTIC[:top, None] * pw
    t *= c
    np.cumsum(t, axis=0, out=t)
    acc: FloatArray = t[terms - 1, np.arange(n)]
    return acc


def erfcx_diff(y: Real, k: Real) -> Real:
    """erfcx(y) - erfcx(y + k) for real y and k >= 0, accurate in relative terms.

    The Gaussian privacy profile Q(x) - e^{Dx + D^2/2} Q(x + D) equals
    (1/2) e^{-x^2/2} erfcx_diff(x/sqrt2, D/sqrt2); a plain subtraction loses
    ~log10(max(1, y)/k) digits.  Requires erfcx(y) finite (y > -26.6).  Three regimes:

    * y >= 7: the asymptotic series of erfcx, differenced term by term, each
      bracket y^{-(2m+1)} - (y+k)^{-(2m+1)} = y^{-(2m+1)} c_{2m+1}, c_n = 1 - q^n, q = y/(y+k),
      by the recurrence c_1 = k/(y+k), c_{n+2} = (1 - q^2) + q^2 c_n (positive terms only, so
      no cancellation however small k/y is, and no transcendental function per term);
      the series is truncated after 40 terms at y in [7, 10) and after fewer as y grows
      (``ERFCX_ASYMPTOTIC_BANDS``; remainder < ~1e-18 relative in every band: the differenced terms
      carry an extra factor 2m+1, so y = 6 would leave ~2e-14);
    * y < 7 and k max(1, -y) >= 1/2: the direct difference (it cancels by at most ~12x);
    * y < 7 and k max(1, -y) < 1/2: 8-point Gauss-Legendre quadrature (erfcx is entire) of
      -erfcx'(t) = 2/sqrt(pi) - 2 t erfcx(t) > 0 over [y, y + k].

    """
    y, k = np.broadcast_arrays(np.asarray(y, dtype=float), np.asarray(k, dtype=float))
    out = np.empty(y.shape, dtype=float)
    if out.size == 0:
        return out
    big = y >= ERFCX_ASYMPTOTIC_FROM
    top = y == np.inf  # erfcx(inf) = erfcx(inf + k) = 0: the limit, set here (no band holds y = inf)
    if top.any():
        out[top] = 0.0
        big &= ~top
    if big.any():
        yall, kall = y[big], k[big]
        if yall.size * ERFCX_ASYMPTOTIC_TERMS <= _ASYM_2D_MAX and np.all(yall < np.inf):
            out[big] = _asymptotic_2d(yall, kall)
            yall = yall[:0]  # done: the band loop below sees no point
        res = np.empty(yall.shape)
        lower = ERFCX_ASYMPTOTIC_FROM
        for upper, terms in ERFCX_ASYMPTOTIC_BANDS:  # fewer terms as y grows (remainder bound < 1e-18 in each band)
            band = (yall >= lower) & (yall < upper)
            lower = upper
            if not band.any():
                continue
            yb, kb = yall[band], kall[band]
            inv = 1.0 / yb
            inv2 = inv * inv
            s = yb + kb
            q = yb / s  # y / (y + k)
            c = np.where(np.isinf(kb), 1.0, kb / np.where(np.isinf(kb), 1.0, s))  # c_1 = 1 - q, no cancellation
            q2 = q * q
            d = c * (1.0 + q)  # 1 - q^2
            acc = np.zeros_like(yb)
            pw = inv.copy()  # y^{-(2m+1)}
            for m in range(terms):
                acc += ERFCX_ASYMPTOTIC[m] * pw * c  # c = c_{2m+1} = 1 - q^{2m+1}
                pw *= inv2
                c = d + q2 * c  # c_{2m+3} = (1 - q^2) + q^2 c_{2m+1}: a sum of positive terms
            res[band] = acc
        if yall.size:
            out[big] = res
    small = ~big & ~top
    if small.any():
        ys, ks = y[small], k[small]
        res = np.empty_like(ys)
        # erfcx varies on the scale 1/max(1, -y) for y < 0 (where erfcx' ~ 2 y erfcx): the direct
        # difference cancels by at most 1/(2 k max(1,-y)) and Gauss-Legendre resolves k max(1,-y) <= 1/2.
        direct = ks * np.maximum(1.0, -ys) >= ERFCX_DIRECT_K
        res[direct] = sc.erfcx(ys[direct]) - sc.erfcx(ys[direct] + ks[direct])
        quad = ~direct
        if quad.any():
            yq, kq = ys[quad], ks[quad]
            half = 0.5 * kq
            mid = yq + half
            # the 8 nodes' terms on one 2-D array (the same operations per point), summed node by node in order
            t = mid[None, :] + half[None, :] * GL8_X[:, None]
            terms = GL8_W[:, None] * (2.0 / _SQRT_PI - 2.0 * t * sc.erfcx(t))
            tot = np.zeros_like(yq)
            for row in terms:
                tot += row
            res[quad] = tot * half
        out[small] = res
    return out[()] if out.ndim == 0 else out


# ---------------------------------------------------------------------------
# The Gaussian privacy-loss integral H(x, D) = Q(x) - e^{D x + D^2/2} Q(x + D)
# ---------------------------------------------------------------------------
_SQRT1_2 = float(np.sqrt(0.5))
_H_SPLIT = -5.0


def _gauss_profile_hi(x: FloatArray, D: FloatArray) -> FloatArray:
    # x >= -5: (1/2) e^{-x^2/2} erfcx_diff(x/sqrt2, D/sqrt2), no cancellation
    with np.errstate(under="ignore"):
        return 0.5 * np.exp(-0.5 * x * x) * erfcx_diff(x * _SQRT1_2, D * _SQRT1_2)


def _gauss_profile_direct(x: FloatArray, D: FloatArray) -> FloatArray:
    # x < -5 < x + D/2: Q(x) ~ 1 and e^{Dx+D^2/2} Q(x+D) = phi(x) Mills(x+D) <= phi(5)/5: no cancellation
    with np.errstate(under="ignore"):
        h: FloatArray = 0.5 * sc.erfc(x * _SQRT1_2) - 0.5 * np.exp(-0.5 * x * x) * sc.erfcx((x + D) * _SQRT1_2)
    return h


def gauss_profile(x: Real, D: Real) -> Real:
    """H(x, D) = Q(x) - e^{D x + D^2/2} Q(x + D) = int_x^inf phi(v) (1 - e^{-D (v - x)}) dv >= 0.

    The Gaussian mechanism's privacy profile is H(eps/mu - mu/2, mu), mu = Delta/sigma
    (Balle & Wang 2018), and the Gaussian-tail pieces of the flipped Huber profile
    are multiples of it.  Evaluated without cancellation for every x and D > 0:

    * x >= -5: H = (1/2) e^{-x^2/2} erfcx_diff(x/sqrt2, D/sqrt2);
    * x < -5 and x + D/2 > 0: the direct form (the subtracted term is <= phi(5)/5);
    * x < -5 and x + D/2 <= 0: the reflection H(x, D) = -expm1(a) + e^a H(-x - D, D),
      a = D (x + D/2) <= 0, two non-negative terms (from Q(x) = 1 - Q(-x)).

    """
    x, D = np.broadcast_arrays(np.asarray(x, dtype=float), np.asarray(D, dtype=float))
    out = np.empty(x.shape, dtype=float)
    hi = x >= _H_SPLIT
    out[hi] = _gauss_profile_hi(x[hi], D[hi])
    lo = ~hi
    direct = lo & (x + 0.5 * D > 0)
    out[direct] = _gauss_profile_direct(x[direct], D[direct])
    refl = lo & ~direct
    if refl.any():
        xr, Dr = x[refl], D[refl]
        a = Dr * (xr + 0.5 * Dr)
        xm = -xr - Dr  # >= -D/2: either >= -5 or in the direct regime
        hm = np.empty_like(xm)
        m = xm >= _H_SPLIT
        hm[m] = _gauss_profile_hi(xm[m], Dr[m])
        hm[~m] = _gauss_profile_direct(xm[~m], Dr[~m])
        with np.errstate(under="ignore"):
            out[refl] = -np.expm1(a) + np.exp(a) * hm
    return out[()] if out.ndim == 0 else out


def log_gauss_profile(x: Real, D: Real) -> Real:
    """log H(x, D), finite wherever H > 0 is (x up to ~1e154); see :func:`gauss_profile`."""
    x, D = np.broadcast_arrays(np.asarray(x, dtype=float), np.asarray(D, dtype=float))
    out = np.empty(x.shape, dtype=float)
    hi = x >= _H_SPLIT
    xh, Dh = x[hi], D[hi]
    with np.errstate(divide="ignore"):
        out[hi] = -0.5 * xh * xh + np.log(0.5 * erfcx_diff(xh * _SQRT1_2, Dh * _SQRT1_2))
        out[~hi] = np.log(gauss_profile(x[~hi], D[~hi]))
    return out[()] if out.ndim == 0 else out


# ---------------------------------------------------------------------------
# Error-free transformations (Knuth TwoSum, Dekker TwoProduct) and eps - b*D
# ---------------------------------------------------------------------------
_SPLITTER = 134217729.0  # 2^27 + 1


def _split(x: Real) -> Tuple[Real, Real]:
    c = _SPLITTER * x
    hi = c - (c - x)
    return hi, x - hi


@overload
def two_sum(a: float, b: float) -> Tuple[float, float]: ...
@overload
def two_sum(a: FloatArray, b: Real) -> Tuple[FloatArray, FloatArray]: ...
@overload
def two_sum(a: Real, b: FloatArray) -> Tuple[FloatArray, FloatArray]: ...
def two_sum(a: Real, b: Real) -> Tuple[Real, Real]:
    """Knuth's TwoSum: a + b = s + e exactly (error-free transformation)."""
    s = a + b
    bb = s - a
    e = (a - (s - bb)) + (b - bb)
    return s, e


@overload
def two_prod(a: float, b: float) -> Tuple[float, float]: ...
@overload
def two_prod(a: FloatArray, b: Real) -> Tuple[FloatArray, FloatArray]: ...
@overload
def two_prod(a: Real, b: FloatArray) -> Tuple[FloatArray, FloatArray]: ...
def two_prod(a: Real, b: Real) -> Tuple[Real, Real]:
    """Dekker's TwoProduct: a * b = p + e exactly for |a|, |b| < ~1e150."""
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    return p, e


def sub_prod(e: Real, x: Real, y: Real) -> Real:
    """e - x*y with the product taken exactly (error of the result: one rounding).

    The profile's case boundary eps = alpha*Delta/gamma^2 = b*D is a point where
    delta(eps) ~ (bD - eps)/2 vanishes linearly; rounding b*D first would lose all
    relative accuracy within an ulp of it and could misplace eps across the
    boundary.  With x*y = p + err exactly (:func:`two_prod`), returns (e - p) - err.
    Falls back to e - x*y where the splitting overflows (|x|, |y| > ~1e290).
    """
    e, x, y = np.broadcast_arrays(np.asarray(e, dtype=float), np.asarray(x, dtype=float), np.asarray(y, dtype=float))
    with np.errstate(over="ignore", invalid="ignore"):
        p, err = two_prod(x, y)
        out = (e - p) - err
        bad = ~np.isfinite(err)
        if bad.any():
            out = np.where(bad, e - p, out)
    return out[()] if out.ndim == 0 else out


def abs_sum_sub(x: Real, y: Real, c: Real) -> Real:
    """|x + y| - c with x + y taken error-free (:func:`two_sum`): one rounding in all.

    The privacy loss in its mixed regimes needs the distance of u = s + D from the kink
    b; forming u first would lose ~log10(b/D) digits when D is small and u is near b.
    """
    x, y, c = np.broadcast_arrays(np.asarray(x, dtype=float), np.asarray(y, dtype=float), np.asarray(c, dtype=float))
    with np.errstate(over="ignore", invalid="ignore"):
        h, l = two_sum(x, y)
        sign = np.where(h < 0, -1.0, 1.0)
        out = (np.abs(h) - c) + sign * l
        bad = ~np.isfinite(l)
        if bad.any():
            out = np.where(bad, np.abs(x + y) - c, out)
    return out[()] if out.ndim == 0 else out
