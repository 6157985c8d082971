"""Float evaluation of the lattice sums of the discrete flipped Huber (stable, log space).

The formulas are those of :mod:`fhsym.symbolic.discrete`; ``proofs/discrete.py`` checks
these functions against exact 60-digit summation.  Notation: ``c = step/gamma``,
``lam = alpha step/gamma^2``; a tail sum starting at index m is written as
``exp(-c^2 m^2/2) R_p(m)`` with the scaled sum

    R_p(m) = sum_{j >= 0} ((m + j)/m)^p exp(-(c^2 m j + c^2 j^2/2))  (p = 0: no power factor),

so that ``log R_p`` is O(1)-sized and never overflows.  R_p is summed directly when at most
:data:`DIRECT_TERMS` terms matter (the omitted tail is below 2^-56 relative), otherwise by
the Euler-Maclaurin expansion of :func:`fhsym.symbolic.discrete.em_theta` with six
corrections (then c < 0.005 and c^2 m < 0.03, where the first omitted term is below 1e-25
relative).
"""

from __future__ import annotations

import math
from typing import List

import numpy as np
from scipy import special as sc

from .._core.types import FloatArray
from .._generated.declared import discrete_flipped_huber as _gen

__all__ = ["DIRECT_TERMS", "terms_needed", "log_r0", "log_r2", "log_geometric", "geometric2", "log_geometric2"]

DIRECT_TERMS = 2048
_CUT = 44.0  # exponent at which a direct sum stops: e^-44 = 7.8e-20
_EM_ORDER = 6
_SQRT_HALF_PI = math.sqrt(math.pi / 2)
_SQRT_HALF = math.sqrt(0.5)
# Bernoulli numbers B_2q / (2q)!, q = 1..6
_BF = [1 / 12, -1 / 720, 1 / 30240, -1 / 1209600, 1 / 47900160, -691 / 1307674368000]


def _hermite(u: FloatArray, top: int) -> List[FloatArray]:
    """Probabilists' Hermite polynomials He_0..He_top at u (three-term recurrence)."""
    he = [np.ones_like(u), u.copy()]
    for q in range(1, top):
        he.append(u * he[q] - q * he[q - 1])
    return he


def terms_needed(m: np.ndarray, c: float) -> FloatArray:
    """Number of terms j = 0..J-1 after which exp(-(c^2 m j + c^2 j^2/2)) < e^-44."""
    beta = c * c * m
    with np.errstate(divide="ignore"):
        j_lin = np.where(beta > 0, _CUT / np.where(beta > 0, beta, 1.0), np.inf)
    j_quad = math.sqrt(2 * _CUT) / c
    return np.ceil(np.minimum(j_lin, j_quad)) + 2


def _direct(m: np.ndarray, c: float, p: int, J: int) -> FloatArray:
    """log R_p(m) by direct summation of J terms, in chunks of bounded memory."""
    out = np.empty(m.size)
    jj = np.arange(J, dtype=float)
    step = max(1, (1 << 20) // J)
    for s in range(0, m.size, step):
        mm = m[s : s + step, None]
        with np.errstate(over="ignore", invalid="ignore"):  # c^2 may overflow: then every term but j = 0 is 0
            ex = _gen.tail_exponent(mm, jj, c)  # -c^2 (m j + j^2/2) = E(m) - E(m + j)
        ex[:, 0] = 0.0  # the j = 0 term is exp(0) = 1 exactly (inf * 0 would make it NaN)
        if p == 2:  # ((m + j)/m)^2 with m >= 1
            ex = ex + 2.0 * np.log1p(jj / mm)
        out[s : s + step] = np.log(np.exp(ex).sum(axis=1))
    return out


def _em(m: np.ndarray, c: float, p: int) -> FloatArray:
    """log R_p(m) by Euler-Maclaurin (symbolic.discrete.em_theta divided by e^{-u^2/2} m^p)."""
    u = c * m
    mills: FloatArray = _SQRT_HALF_PI * sc.erfcx(u * _SQRT_HALF)  # scipy is untyped
    he = _hermite(u, 2 * _EM_ORDER + 1)
    if p == 0:
        corr = sum(_BF[q - 1] * c ** (2 * q - 1) * he[2 * q - 1] for q in range(1, _EM_ORDER + 1))
        return np.log(mills / c + 0.5 + corr)
    corr = sum(_BF[q - 1] * c ** (2 * q - 3) * (he[2 * q + 1] + he[2 * q - 1]) for q in range(1, _EM_ORDER + 1))
    # divide by m^2: (u + mills)/(c^3 m^2) + 1/2 + corr/m^2, the first term in log space (c^3 m^2 may underflow)
    log_first = np.log(u + mills) - math.log(c) - 2.0 * np.log(u)
    with np.errstate(under="ignore"):
        out: FloatArray = log_first + np.log1p((0.5 + corr / (m * m)) * np.exp(-log_first))
    return out


def _em_one(m: float, c: float, p: int) -> float:
    """:func:`_em` at one m, on numpy scalars: the same operations in the same order as the array form (so the same
    bits, ``tests/test_discrete.py``) without the cost of one-element arrays (a calibration's search asks one point at
    a time)."""
    u = c * m
    mills = _SQRT_HALF_PI * sc.erfcx(np.float64(u * _SQRT_HALF))
    he = [1.0, u]
    for q in range(1, 2 * _EM_ORDER + 1):
        he.append(u * he[q] - q * he[q - 1])
    if p == 0:
        corr = sum(_BF[q - 1] * c ** (2 * q - 1) * he[2 * q - 1] for q in range(1, _EM_ORDER + 1))
        return float(np.log(mills / c + 0.5 + corr))
    corr = sum(_BF[q - 1] * c ** (2 * q - 3) * (he[2 * q + 1] + he[2 * q - 1]) for q in range(1, _EM_ORDER + 1))
    log_first = np.log(u + mills) - math.log(c) - 2.0 * np.log(np.float64(u))
    with np.errstate(under="ignore"):
        return float(log_first + np.log1p((0.5 + corr / (m * m)) * np.exp(-log_first)))


def _terms_one(m: float, c: float) -> float:
    """:func:`terms_needed` at one m (the same operations)."""
    beta = c * c * m
    j_lin = _CUT / beta if beta > 0 else math.inf
    return float(math.ceil(min(j_lin, math.sqrt(2 * _CUT) / c)) + 2)


def _log_r(m: np.ndarray, c: float, p: int) -> FloatArray:
    m = np.asarray(m, dtype=float)
    flat = m.ravel()
    if flat.size == 1 and _terms_one(float(flat[0]), c) > DIRECT_TERMS:  # one point in the Euler-Maclaurin range
        return np.full(m.shape, _em_one(float(flat[0]), c, p))
    out = np.empty(flat.size)
    J = terms_needed(flat, c)
    direct = J <= DIRECT_TERMS
    if direct.any():
        idx = np.flatnonzero(direct)
        order = idx[np.argsort(J[idx])]
        # group by similar J so that short sums are not padded to the longest one
        bounds = np.searchsorted(J[order], [16, 64, 256, 1024, DIRECT_TERMS + 2], side="right")
        lo = 0
        for hi in bounds:
            if hi > lo:
                sel = order[lo:hi]
                out[sel] = _direct(flat[sel], c, p, int(J[sel].max()))
            lo = hi
    if (~direct).any():
        out[~direct] = _em(flat[~direct], c, p)
    return out.reshape(m.shape)


def log_r0(m: np.ndarray, c: float) -> FloatArray:
    """log of e^{c^2 m^2/2} sum_{n >= m} e^{-c^2 n^2/2} (m >= 0 integer-valued floats)."""
    return _log_r(m, c, 0)


def log_r2(m: np.ndarray, c: float) -> FloatArray:
    """log of e^{c^2 m^2/2} m^-2 sum_{n >= m} n^2 e^{-c^2 n^2/2} (m >= 1)."""
    return _log_r(m, c, 2)


def log_geometric(lo: np.ndarray, hi: float, lam: float) -> FloatArray:
    """log sum_{n=lo}^{hi} e^{-lam n} = -lam lo + log(-expm1(-lam (hi - lo + 1))) - log(-expm1(-lam)); lo <= hi."""
    lo = np.asarray(lo, dtype=float)
    return -lam * lo + np.log(-np.expm1(-lam * (hi - lo + 1.0))) - math.log(-math.expm1(-lam))


def log_geometric2(K: float, lam: float) -> float:
    """log sum_{n=1}^{K} n^2 e^{-lam n} (K >= 1), without underflow for large lam: -lam + log sum n^2 e^{-lam (n-1)}."""
    if lam <= 1.0:
        return math.log(geometric2(K, lam))
    J = int(min(K, math.ceil(_CUT / lam) + 2))
    nn = np.arange(1.0, J + 1.0)
    return -lam + math.log(float(np.sum(nn * nn * np.exp(-lam * (nn - 1.0)))))


def geometric2(K: float, lam: float) -> float:
    """sum_{n=1}^{K} n^2 e^{-lam n} (K >= 1): direct sum of the terms that matter, else Euler-Maclaurin."""
    J = min(K, math.ceil((_CUT + 2 * math.log(max(K, 2.0))) / lam) + 2)
    if J <= 200_000:
        nn = np.arange(1.0, J + 1.0)
        return float(np.sum(nn * nn * np.exp(-lam * nn)))
    # Euler-Maclaurin on f(x) = x^2 e^{-lam x} over [1, K]; here lam < 4e-4, so the
    # corrections decay like (lam/2pi)^(2q) and four of them leave < 1e-25 relative.
    integral = 2.0 / lam**3 * float(sc.gammainc(3, lam * K) - sc.gammainc(3, lam))

    def f_der(q: int, x: float) -> float:  # (x^2 e^{-lam x})^{(q)}
        poly = lam**q * x * x - 2 * q * lam ** (q - 1) * x + (q * (q - 1) * lam ** (q - 2) if q >= 2 else 0.0)
        sign: int = (-1) ** q  # int ** int is typed Any (a negative exponent gives a float)
        return sign * math.exp(-lam * x) * poly

    total = integral + 0.5 * (f_der(0, 1.0) + f_der(0, K))
    for q in range(1, 5):
        total += _BF[q - 1] * (f_der(2 * q - 1, K) - f_der(2 * q - 1, 1.0))
    return total
