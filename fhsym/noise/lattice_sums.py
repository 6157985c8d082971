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

Every formula here is printed from the law's declaration (issue 28;
``fhsym/_generated/declared/discrete_flipped_huber.py``, derived by :mod:`fhsym.symbolic.lattice_laws` and
:mod:`fhsym.symbolic.lattice_em`): the tail's summand exponent and its p = 2 factor, the Euler-Maclaurin programs
``em_log_r0``/``em_log_r2``, the n^2 centre's summands and its Euler-Maclaurin program ``em_centre2``.  What stays
here is the choice of path (how many terms matter, direct or Euler-Maclaurin) and the chunking of direct
sums.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._core.types import FloatArray
from .._generated.declared import discrete_flipped_huber as _gen

__all__ = ["DIRECT_TERMS", "terms_needed", "log_r0", "log_r2", "geometric2", "log_geometric2"]

DIRECT_TERMS = 2048
_CUT = 44.0  # exponent at which a direct sum stops: e^-44 = 7.8e-20


def terms_needed(m: np.ndarray, c: float) -> FloatArray:
    """Number of terms j = 0..J-1 after which exp(-(c^2 m j + c^2 j^2/2)) < e^-44."""
    beta = c * c * m
    with np.errstate(divide="ignore", over="ignore"):  # a subnormal beta: 44/beta is inf, j_quad is the count
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
            ex = ex + _gen.tail_log_power_2(mm, jj)
        out[s : s + step] = np.log(np.exp(ex).sum(axis=1))
    return out


#: the u = c m past which the program runs at u = _U_MAP, by p: below where its Hermite polynomials overflow to NaN
#: (R_0's u^11 from u = 2e28, R_2's u^13 from u = 5.4e23)
_U_FAR = {0: 1e25, 2: 1e23}
_U_MAP = 1e12


def _em_one(m: Any, c: float, p: int) -> Any:
    with np.errstate(under="ignore"):
        return _gen.em_log_r0(m, c) if p == 0 else _gen.em_log_r2(m, c)


def _em(m: Any, c: float, p: int) -> Any:
    """log R_p(m) by Euler-Maclaurin: the program printed from the declaration (``em_log_r0``/``em_log_r2`` of
    ``fhsym/_generated/declared/discrete_flipped_huber.py``, :mod:`fhsym.symbolic.lattice_em`).

    Its Hermite polynomials (u^11, u = c m; u^13 for R_2) overflow to NaN from u = 2e28 (reached at c below about
    1e-30; R_2 from u = 5.4e23).  There, u > 1e25 (R_2: 1e23), the program runs at (m', c') with the same
    beta = c^2 m = c u and u' = c' m' = 1e12: R_p(m) =
    sum_j (1 + j/m)^p e^(-beta j (1 + j/(2 m))) depends on m beyond beta only through j/m, at most 44/u^2 over the
    terms that matter (j <= 44/beta; the rest below e^-44), so the two values differ by about 1e-22 relative
    (m' = 1e24/beta = 1e24/(c^2 m) stays finite: it is below 1e24/(c 1e23) <= 4.5e308 for a normal c)."""
    u = c * np.asarray(m, dtype=float)
    far = u > _U_FAR[p]
    if not np.any(far):
        return _em_one(m, c, p)
    out = np.array(_em_one(np.where(far, 1.0, m), c, p), dtype=float)
    for i in zip(*np.nonzero(far)) if out.ndim else [()]:
        beta = c * float(u[i])
        cc = beta / _U_MAP
        out[i] = _em_one(_U_MAP / cc, cc, p)
    return out[()] if out.ndim == 0 else out


def _terms_one(m: float, c: float) -> float:
    """:func:`terms_needed` at one m (the same operations)."""
    beta = c * c * m
    j_lin = _CUT / beta if beta > 0 else math.inf
    j = min(j_lin, math.sqrt(2 * _CUT) / c)  # inf for c below 5.2e-308 (as numpy's: then Euler-Maclaurin)
    return j if j == math.inf else float(math.ceil(j) + 2)


def _log_r(m: np.ndarray, c: float, p: int) -> FloatArray:
    m = np.asarray(m, dtype=float)
    flat = m.ravel()
    if flat.size == 1 and _terms_one(float(flat[0]), c) > DIRECT_TERMS:  # one point in the Euler-Maclaurin range
        return np.full(m.shape, float(_em(float(flat[0]), c, p)))  # one point: the same program on floats
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


def log_geometric2(K: float, lam: float) -> float:
    """log sum_{n=1}^{K} n^2 e^{-lam n} (K >= 1), without underflow for large lam: -lam + log sum n^2 e^{-lam (n-1)}."""
    if lam <= 1.0:
        return math.log(geometric2(K, lam))
    J = int(min(K, math.ceil(_CUT / lam) + 2))
    nn = np.arange(1.0, J + 1.0)
    return -lam + math.log(float(np.sum(_gen.centre2_term_shifted(nn, lam))))


def geometric2(K: float, lam: float) -> float:
    """sum_{n=1}^{K} n^2 e^{-lam n} (K >= 1): direct sum of the terms that matter, else Euler-Maclaurin."""
    J = min(K, math.ceil((_CUT + 2 * math.log(max(K, 2.0))) / lam) + 2)
    if J <= 200_000:
        nn = np.arange(1.0, J + 1.0)
        return float(np.sum(_gen.centre2_term(nn, lam)))
    # Euler-Maclaurin on f(x) = x^2 e^{-lam x} over [1, K] (printed: em_centre2); here lam < 4e-4, so the
    # corrections decay like (lam/2pi)^(2q) and four of them leave < 1e-25 relative.
    return float(_gen.em_centre2(K, lam))
