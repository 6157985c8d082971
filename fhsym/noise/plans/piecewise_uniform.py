"""Proven bounds on the privacy profile of piecewise-uniform noise, in exact rational arithmetic.

The noise (:class:`fhsym.noise.PiecewiseUniform`) has width ``w > 0`` and non-negative integer
weights ``n_0, ..., n_M``: bin ``k`` (``|k| <= M``) is ``[(k - 1/2) w, (k + 1/2) w)`` for ``k >= 0``, its mirror
image for ``k < 0`` (a function of ``|x|``), and holds
probability ``q_k = n_|k| / N``, ``N = n_0 + 2 (n_1 + ... + n_M)``, spread uniformly.

Profile at a shift ``d = (j + theta) w`` (integer ``j >= 0``, ``theta`` in ``[0, 1)``)::

    delta(eps; d) = int [g(t) - e^eps g(t + d)]_+ dt = (1 - theta) D_j + theta D_{j+1},
    D_j = sum_k [q_k - e^eps q_{k+j}]_+                           (sum over all integers k).

Proof: for ``t`` in bin ``k`` the point ``t + d`` lies in bin ``k + j`` on the first ``(1 - theta) w``
of the bin and in bin ``k + j + 1`` on the last ``theta w``; on each sub-piece the integrand is the
constant ``[q_k - e^eps q_{k+j}]_+ / w`` (resp. ``q_{k+j+1}``).  Summing over ``k`` gives the formula.
(The weights are symmetric, so ``D_j`` is also ``sum_k [q_k - e^eps q_{k-j}]_+``: the profile at
``-d`` equals the profile at ``d``.)  Consequences: ``delta(eps; d)`` is piecewise linear in ``d``
with nodes at the lattice ``j w``, so ``sup_{0 < d <= Delta} delta(eps; d)`` is the largest of
``D_1, ..., D_J`` and ``delta(eps; Delta)`` (``J = floor(Delta/w)``, ``D_0 = 0``); ``D_j = 1``
when ``j > 2 M'`` (``M'`` the largest index with a positive weight: disjoint supports).

How the bounds are proven: ``e^eps`` is enclosed in a rational interval ``[lo, hi]`` (the end
points of a python-flint ``arb`` ball, exact dyadic numbers).  For each term,
``[n_k - hi n_{k+j}]_+ <= N [q_k - e^eps q_{k+j}]_+ <= [n_k - lo n_{k+j}]_+``, so summing the outer
forms in exact rationals bounds ``D_j`` from both sides; ``theta = Delta/w - j`` is an exact
rational (both floats are exact dyadic numbers).  The rational bounds are rounded outward to
floats (toward -inf / +inf, checked by exact comparison).  Only python-flint, integers and
:class:`fractions.Fraction` enter a computed value: floats only decide which terms are positive where the margin
is 1e-9 relative, a million times their rounding error (:func:`lattice_deficits`; the rest in integers).

Example
-------
Weights (2, 1) at width 1 (q_0 = 1/2, q_1 = 1/4), eps = 1/2, Delta = 1: D_1 = 3/4 - e^(1/2)/4.

>>> lo, hi = profile_bounds(1.0, (2, 1), 0.5, 1.0)
>>> f"{lo:.15f} {hi:.15f}", lo < hi, hi - lo < 1e-16
('0.337819682324968 0.337819682324968', True, True)
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import List, Optional, Sequence, Tuple

import numpy as np
from flint import arb, ctx, fmpq

__all__ = [
    "check_weights",
    "exp_enclosure",
    "lattice_deficit_bounds",
    "lattice_deficits",
    "profile_bounds",
    "sup_profile_bounds",
    "sup_profile_terms",
    "fraction_down",
    "fraction_up",
]

#: terms held in memory at a time by :func:`lattice_deficits` (Python ints in numpy object arrays)
_CHUNK = 1 << 16
_PREC = 192  # bits of the enclosure of e^eps: its relative width is ~2^-190


def check_weights(weights: Sequence[int]) -> Tuple[int, ...]:
    """``weights`` as a tuple of Python ints >= 0, not all 0 (``ValueError`` naming ``weights`` otherwise)."""
    msg = "weights must be a non-empty sequence of non-negative integers, not all zero"
    if isinstance(weights, (str, bytes)):
        raise ValueError(f"{msg}; got {weights!r}")
    try:
        items = list(weights)
    except TypeError:
        raise ValueError(f"{msg}; got {weights!r}") from None
    out: List[int] = []
    for v in items:
        if isinstance(v, bool) or not hasattr(v, "__index__"):
            raise ValueError(f"{msg}; got the element {v!r}")
        iv = int(v.__index__())
        if iv < 0:
            raise ValueError(f"{msg}; got the element {iv!r}")
        out.append(iv)
    if not out or not any(out):
        raise ValueError(f"{msg}; got {items!r}")
    return tuple(out)


def _exact(x: float) -> Fraction:
    return Fraction(*float(x).as_integer_ratio())


def _arb_point(x: arb) -> Fraction:
    """An exact (finite) arb point as a Fraction."""
    man_f, ex_f = x.man_exp()
    man, ex = int(man_f), int(ex_f)
    return Fraction(man * 2**ex) if ex >= 0 else Fraction(man, 2**-ex)


def exp_enclosure(epsilon: float) -> Tuple[Fraction, Fraction]:
    """Rationals ``lo <= e^eps <= hi`` (exact at ``eps = 0``), from an arb ball at 192 bits.

    >>> lo, hi = exp_enclosure(1.0)
    >>> float(lo) == float(hi) == math.e, 0 < hi - lo < Fraction(1, 2**180)
    (True, True)
    """
    eps = _exact(epsilon)
    if eps == 0:
        return Fraction(1), Fraction(1)
    with ctx.workprec(_PREC):
        e = arb(fmpq(eps.numerator, eps.denominator)).exp()
        if not e.is_finite():
            raise ValueError(f"epsilon must be at most ~7e8 (e^epsilon in the arb range); got {epsilon!r}")
        return _arb_point(e.lower()), _arb_point(e.upper())


def fraction_up(x: Fraction) -> float:
    """The smallest binary64 float >= ``x`` (rounding checked by exact comparison)."""
    f = float(x)
    if Fraction(f) < x:
        f = math.nextafter(f, math.inf)
    return f


def fraction_down(x: Fraction) -> float:
    """The largest binary64 float <= ``x`` (rounding checked by exact comparison)."""
    f = float(x)
    if Fraction(f) > x:
        f = math.nextafter(f, -math.inf)
    return f


def lattice_deficit_bounds(weights: Sequence[int], j: int, lo: Fraction, hi: Fraction) -> Tuple[Fraction, Fraction]:
    """Exact rationals bounding ``D_j = sum_k [q_k - e^eps q_{k+j}]_+`` given ``lo <= e^eps <= hi``.

    ``weights`` are the checked integers ``n_0..n_M``; ``j >= 0``.  The lower bound uses ``hi`` in
    every term, the upper bound ``lo``; both are exact (:func:`lattice_deficits` at one shift).

    >>> lattice_deficit_bounds((2, 1), 3, Fraction(2), Fraction(3))   # disjoint supports: D = 1
    (Fraction(1, 1), Fraction(1, 1))
    """
    return lattice_deficits(weights, [j], lo, hi)[0]


def lattice_deficits(weights: Sequence[int], js: Sequence[int], lo: Fraction, hi: Fraction,
                     ) -> List[Tuple[Fraction, Fraction]]:
    """:func:`lattice_deficit_bounds` at every shift of ``js``, all in one pass (the same exact rationals).

    Each sum is ``b sum_S n_k - a sum_S n_{k+j}`` over the set ``S`` of its positive terms (``e^eps``'s bound
    ``a/b``).  Which terms are positive is decided by a float comparison where it is clear by a margin of ``1e-9``
    (the float forms of ``n_k`` and ``(a/b) n_{k+j}`` are within a few units in the last place of the exact ones,
    ~1e-15 relative) and exactly in integers for the rest; the sums are exact integer sums.  Where the weights or the
    bound are out of float range the term-by-term route is used.

    >>> lattice_deficits((2, 1), [0, 1, 3], Fraction(2), Fraction(3))   # D_1 = q_1 = 1/4: the other terms <= 0
    [(Fraction(0, 1), Fraction(0, 1)), (Fraction(1, 4), Fraction(1, 4)), (Fraction(1, 1), Fraction(1, 1))]
    """
    n = weights
    M = len(n) - 1
    total = n[0] + 2 * sum(n[1:])
    inner = sorted({j for j in js if 0 < j <= 2 * M})
    out = {j: (Fraction(0), Fraction(0)) if j == 0 else (Fraction(1), Fraction(1)) for j in js if not 0 < j <= 2 * M}
    if inner and (max(n) >= 2 ** 1000 or hi >= 2 ** 900):
        out.update((j, _deficit_loop(n, j, lo, hi)) for j in inner)
        inner = []
    if inner:
        small = max(n) < 2 ** 62
        full = np.array([n[abs(k)] for k in range(-M, M + 1)] + [0] * (max(inner) + 1),
                        dtype=np.int64 if small else object)
        full_f = full.astype(float)
        rows = max(1, _CHUNK // (2 * M + 1))  # shifts per pass: about _CHUNK terms in memory at a time
        for c in range(0, len(inner), rows):
            out.update(zip(inner[c:c + rows], _deficit_rows(full, full_f, inner[c:c + rows], M, total, lo, hi)))
    return [out[j] for j in js]


def _deficit_rows(full: "np.ndarray", full_f: "np.ndarray", js: List[int], M: int, total: int, lo: Fraction,
                  hi: Fraction) -> List[Tuple[Fraction, Fraction]]:
    """The bounds of ``D_j`` for ``0 < j <= 2 M`` (:func:`lattice_deficits`); ``full`` holds ``n_|k|`` for
    ``k = -M..M`` then zeros (int64 below 2^62, else Python ints; ``full_f``: as floats)."""
    idx = np.arange(2 * M + 1)[None, :] + np.asarray(js)[:, None]
    nk_f, nkj_f = full_f[None, : 2 * M + 1], full_f[idx]
    present = nk_f > 0.0
    sums = []
    for r in (lo, hi):
        a, b = r.numerator, r.denominator
        scaled = float(r) * nkj_f  # (a/b) n_{k+j} to ~3 units in the last place
        pos = present & (nk_f > scaled * (1.0 + 1e-9))
        unclear = present & ~pos & (nk_f * (1.0 + 1e-9) >= scaled)
        for i, k in zip(*np.nonzero(unclear)):
            pos[i, k] = b * int(full[k]) > a * int(full[idx[i, k]])
        s_nk, s_nkj = _masked_row_sums(full, pos, None), _masked_row_sums(full, pos, idx)
        sums.append([Fraction(b * x - a * y, b * total) for x, y in zip(s_nk, s_nkj)])
    return list(zip(sums[1], sums[0]))


def _masked_row_sums(full: "np.ndarray", mask: "np.ndarray", idx: "Optional[np.ndarray]") -> List[int]:
    """Exact integer sums over each row of ``mask`` of ``full[k]`` (``idx`` None) or ``full[idx[i, k]]``.

    Weights below 2^62 are summed in int64 as two 31-bit halves (each half-sum below 2^62 for rows of fewer than
    2^31 terms: exact); larger ones as Python ints."""
    if full.dtype != object:
        vals = full[None, : mask.shape[1]] if idx is None else full[idx]
        high = np.where(mask, vals >> 31, 0).sum(axis=1)
        low = np.where(mask, vals & ((1 << 31) - 1), 0).sum(axis=1)
        return [(int(h) << 31) + int(lo) for h, lo in zip(high, low)]
    vals = full[None, : mask.shape[1]] if idx is None else full[idx]
    return [int(x) for x in np.where(mask, vals, 0).sum(axis=1)]


def _deficit_loop(weights: Sequence[int], j: int, lo: Fraction, hi: Fraction) -> Tuple[Fraction, Fraction]:
    """``D_j``'s bounds term by term (the reference route of :func:`lattice_deficits`)."""
    n = weights
    M = len(n) - 1
    total = n[0] + 2 * sum(n[1:])
    if j == 0:
        return Fraction(0), Fraction(0)
    if j > 2 * M:
        return Fraction(1), Fraction(1)
    a_lo, b_lo = lo.numerator, lo.denominator
    a_hi, b_hi = hi.numerator, hi.denominator
    up = 0    # sum [b_lo n_k - a_lo n_{k+j}]_+  (over denominator b_lo N)
    down = 0  # sum [b_hi n_k - a_hi n_{k+j}]_+  (over denominator b_hi N)
    for k in range(-M, M + 1):
        nk = n[abs(k)]
        if nk == 0:
            continue
        kj = k + j
        nkj = n[abs(kj)] if abs(kj) <= M else 0
        if nkj == 0:
            up += b_lo * nk
            down += b_hi * nk
            continue
        v = b_lo * nk - a_lo * nkj
        if v > 0:
            up += v
            v2 = b_hi * nk - a_hi * nkj
            if v2 > 0:
                down += v2
    return Fraction(down, b_hi * total), Fraction(up, b_lo * total)


def _split(width: float, sensitivity: float) -> Tuple[int, Fraction]:
    u = _exact(sensitivity) / _exact(width)
    j = u.numerator // u.denominator
    return j, u - j


def _check_float(value: float, name: str, closed_lower: bool) -> float:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(float(value))
    if ok:
        v = float(value)
        ok = v >= 0.0 if closed_lower else v > 0.0
    if not ok:
        rng = "[0, inf)" if closed_lower else "(0, inf)"
        raise ValueError(f"{name} must be a finite real number in {rng}; got {value!r}")
    return float(value)


def _prepare(width: float, weights: Sequence[int], epsilon: float, sensitivity: float,
             ) -> Tuple[Tuple[int, ...], Fraction, Fraction, int, Fraction]:
    """Validated weights, the enclosure ``lo <= e^eps <= hi`` and ``Delta/w = J + theta``."""
    w = _check_float(width, "width", False)
    n = check_weights(weights)
    eps = _check_float(epsilon, "epsilon", True)
    dl = _check_float(sensitivity, "sensitivity", False)
    lo, hi = exp_enclosure(eps)
    J, theta = _split(w, dl)
    return n, lo, hi, J, theta


def _at_shift(n: Tuple[int, ...], lo: Fraction, hi: Fraction, J: int, theta: Fraction) -> Tuple[Fraction, Fraction]:
    """Exact bounds on ``(1 - theta) D_J + theta D_{J+1}``."""
    (a0, a1), (b0, b1) = lattice_deficits(n, [J, J + 1] if theta else [J, J], lo, hi)
    return (1 - theta) * a0 + theta * b0, (1 - theta) * a1 + theta * b1


def profile_bounds(width: float, weights: Sequence[int], epsilon: float, sensitivity: float) -> Tuple[float, float]:
    """Floats ``lower <= delta(eps; Delta) <= upper`` at the exact inputs (the shift ``d = Delta`` only).

    >>> profile_bounds(1.0, (1,), 0.0, 0.5)       # uniform on [-1/2, 1/2): delta = TV = 1/2
    (0.5, 0.5)
    """
    n, lo, hi, J, theta = _prepare(width, weights, epsilon, sensitivity)
    low, high = _at_shift(n, lo, hi, J, theta)
    return max(fraction_down(low), 0.0), min(fraction_up(high), 1.0)


def sup_profile_bounds(width: float, weights: Sequence[int], epsilon: float, sensitivity: float,
                       ) -> Tuple[float, float]:
    """Floats bounding ``sup_{0 < d <= Delta} delta(eps; d)``: the guarantee for every ``|f(D) - f(D')| <= Delta``.

    The profile is piecewise linear in ``d`` with nodes at the lattice (module docstring), so the
    supremum is the largest of the lattice values ``D_1..D_J`` and the value at ``Delta``
    (``D_j = 1`` for ``j > 2M``: disjoint supports).

    >>> sup_profile_bounds(1.0, (1,), 0.0, 0.5)
    (0.5, 0.5)
    """
    n, lo, hi, J, theta = _prepare(width, weights, epsilon, sensitivity)
    lattice = list(range(1, min(J, 2 * len(n) - 1) + 1))
    *nodes, (a0, a1), (b0, b1) = lattice_deficits(n, lattice + [J, J + 1], lo, hi)
    best_lo, best_hi = (1 - theta) * a0 + theta * b0, (1 - theta) * a1 + theta * b1
    for lo_j, hi_j in nodes:
        best_lo, best_hi = max(best_lo, lo_j), max(best_hi, hi_j)
    return max(fraction_down(best_lo), 0.0), min(fraction_up(best_hi), 1.0)


def sup_profile_terms(width: float, weights: Sequence[int], sensitivity: float) -> int:
    """How many exact terms ``[b n_k - a n_{k+j}]_+`` :func:`sup_profile_bounds` sums at these inputs (its cost,
    computed without summing): ``2 M + 1`` per lattice deficit ``D_j``, for ``j = 1..min(J, 2 M + 1)`` and the
    two around ``Delta`` (``J = floor(Delta/w)``, ``M + 1`` weights).

    >>> sup_profile_terms(1.0, (2, 1), 1.0), sup_profile_terms(2.0**-10, [1] * 6000, 6000 * 2.0**-10)
    (9, 72017998)
    """
    w = _check_float(width, "width", False)
    dl = _check_float(sensitivity, "sensitivity", False)
    width_terms = 2 * len(weights) - 1
    J, _ = _split(w, dl)
    return (min(J, width_terms) + 2) * width_terms
