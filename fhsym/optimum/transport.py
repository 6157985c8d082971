"""A dual of the quantised LP built without solving it: the lower end at large eps on fine grids (issue 31).

Why.  At large eps the optimum is a staircase whose centre has half-width ``s ~ (e^-eps/2)^(1/3)`` (0.0053 at
eps = 15) and whose variance is ``~ 0.63 e^(-2 eps/3)``; the lower end of :mod:`.lp` loses about ``w^2/3`` to the
lattice, so a width of 1 % at eps = 20 needs ``w ~ 1e-4`` (8,192 bins per unit).  HiGHS cannot solve that LP in
seconds (``optimal_variance(15, 1e-6, transport=False)`` proves 0 on 64 bins), but its dual has a simple shape that can be
written down: every dual solution gives a proven bound (:class:`.dual.DualCertificate` checks it in exact
rationals; nothing here is trusted), so this module only has to find a good one.

The dual as a transport (``v = -u >= 0``, ``a_i`` the normalisation weights, ``w = 1/m``).  The reduced cost of the
column ``q_i`` is ``rho_i = a_i ((i w)^2 - y) + sum_{rows (j,k): |k| = i} v_{j,k} - r sum_{rows (j,k): |k-j| = i}
v_{j,k}``.  A row ``(j, k)`` moves credit ``v`` to the column ``|k|`` at the price ``r v`` to the column ``|k - j|``.
With ``y`` (the bound) fixed, the *sinks* ``i <= c`` (``(c w)^2 < y``) need ``a_i (y - (i w)^2)``; the columns
``p > c`` have ``a_p ((p w)^2 - y) > 0`` to spend, at rate ``1/r``.  A sink ``i`` reaches every ``p`` in
``[c + 1, m + i]`` through the row ``(j, k) = (p - i, -i)`` (``1 <= j <= m``).  The columns of ring ``l >= 2``
(``p`` in ``[c + 1 + (l-1) m, c + l m]``) are out of reach of the sinks; each pays into ``p - m`` (row
``(m, -(p - m))``), raising what that column can spend.  So ring 1's column ``p`` can give
``sum_l a_(p + l m) (((p + l m) w)^2 - y) / r^(l+1)`` (the staircase's further steps).  ``y`` is the largest value
(bisection) at which the sinks' needs can be met.  The sinks ``0..t`` reach exactly the columns ``p <= m + t``; these
sets are nested, so by Hall's theorem the needs can be met iff every such prefix of sinks needs at most what its
columns give (cumulative sums: exact for this structure).  The flows are then filled sink by sink, each sink taking
the same fraction of what every column it reaches has left (:meth:`_Plan.flows`), which meets every need there and
spreads the flows over the shifts.  (Until issue 31's (4.5, 1e-10) the columns were split in proportion to iterated
weights; that split cannot reach the prefix condition's ``y`` and lost 0.035-0.45 % of ``y`` at (4.5, 1e-10) on
64-1024 bins.)  ``z_j`` is the largest ``-u`` of shift ``j``; the bound is ``y + delta sum_j z_j`` less the
losses of :class:`.dual.DualCertificate` (none when every reduced cost is >= 0, which the margins below ensure).
The continuous limit of this dual is the staircase's balance ``int (y - x^2)_+ = e^-eps int_reach (x^2 - y)_+``:
it ignores what delta can buy (the LP of :mod:`.lp` does not), so it is tight where delta buys almost nothing,
at large eps (measured in ``docs/optimum.md``).

>>> cert = transport_certificate(10.0, 1e-6, 256)
>>> lo = cert.variance_bound(); 0.000842 < lo < 0.0008472    # V*(10, 1e-6) <= 0.00084721 (truncated staircase)
True
"""

from __future__ import annotations

import dataclasses
import functools
import math
from fractions import Fraction
from typing import Dict, List, Optional, Tuple

import numpy as np

from .dual import DualCertificate
from .solve import cap_of, ratio_above

__all__ = ["transport_certificate", "transport_bins", "best_transport", "TRANSPORT_MIN_EPSILON", "TRANSPORT_MAX_BINS"]

#: below this eps :func:`fhsym.optimal_variance` does not try it: its best bound at delta = 1e-6 is 4.7 %, 0.67 % and
#: 0.29 % under the truncated staircase at eps = 2, 3 and 3.5, outside the 0.2 % the data and the LP reach there
#: (0.13 % at 4, 0.058 % at 4.5; ``python scripts/optimum_gap_study.py transport``)
TRANSPORT_MIN_EPSILON = 4.0
#: the finest grid (bins per unit sensitivity) the automatic choice uses: 16,384 (eps = 20: 2.8e5 dual entries)
TRANSPORT_MAX_BINS = 1 << 14
#: the grid's loss (about (5/12) w^2 of the lower end) kept below this fraction of V*
GRID_LOSS = 2.5e-4
#: the dual entries the automatic grid allows (the build and the exact check are linear in them)
MAX_ENTRIES = 400_000
#: relative margins: what a column spends is scaled by (1 - SPEND), y is lowered by LOWER after the flows are fixed
SPEND = 2.0 ** -40
LOWER = 1e-10
BISECTIONS = 80


def _centre(epsilon: float) -> float:
    """``s^2``: the root of the one-ring balance ``2 (1 - b) s^3 + 3 b s^2 = b`` (``b = e^-eps``), a start for y."""
    b = math.exp(-epsilon)
    s: float = (b / 2.0) ** (1.0 / 3.0)
    for _ in range(60):  # Newton on a convex increasing cubic from the right of its root
        f = 2.0 * (1.0 - b) * s ** 3 + 3.0 * b * s * s - b
        s -= f / (6.0 * (1.0 - b) * s * s + 6.0 * b * s)
    return float(s * s)


def transport_bins(epsilon: float) -> int:
    """The automatic grid: the least power of two ``m`` with ``(5/12) w^2 <= GRID_LOSS y`` (``y`` the one-ring
    balance), at most :data:`TRANSPORT_MAX_BINS` and at most :data:`MAX_ENTRIES` dual entries (~ ``s m^2``).

    >>> transport_bins(10.0), transport_bins(15.0), transport_bins(20.0)
    (2048, 8192, 16384)
    """
    y = _centre(epsilon)
    m = 64
    while m < TRANSPORT_MAX_BINS and 5.0 / (12.0 * m * m) > GRID_LOSS * y and \
            math.sqrt(y) * (2 * m) ** 2 <= MAX_ENTRIES:
        m *= 2
    return m


class _Plan:
    """The flows at one ``y``: what each ring-1 column can give, and whether the sinks' needs can be met (module
    docstring)."""

    def __init__(self, epsilon: float, m: int, y: float, r: float, levels: int) -> None:
        w2 = 1.0 / (m * m)
        c = int(math.floor(math.sqrt(y) * m))
        while c > 0 and c * c * w2 >= y:  # (c w)^2 < y strictly: every sink has a positive need
            c -= 1
        while (c + 1) * (c + 1) * w2 < y:
            c += 1
        self.m, self.y, self.r, self.c, self.levels = m, y, r, c, levels
        i = np.arange(c + 1, dtype=float)
        self.need = np.where(i == 0, 1.0, 2.0) * (y - i * i * w2)
        self.p = np.arange(c + 1, m + c + 1)
        # ring by ring from the outermost: E_l(q) = a ((q w)^2 - y) + out_(l+1)(q + m), out_l = E_l (1 - SPEND) / r
        self.chain: List[Tuple[np.ndarray, np.ndarray]] = []  # (q, out) of rings l >= 2: column q pays out into q - m
        inflow = np.zeros(m)
        for lev in range(levels, 1, -1):
            q = self.p + (lev - 1) * m
            give = (2.0 * (q * q * w2 - y) + inflow) * (1.0 - SPEND) / r
            self.chain.append((q, give))
            inflow = give
        self.cap = (2.0 * (self.p * self.p * w2 - y) + inflow) * (1.0 - SPEND) / r
        # Hall's condition: the sinks 0..t reach exactly the columns p <= m + t (the first m - c + t of them), and these
        # sets are nested, so the needs can be met iff each prefix of sinks needs at most what its columns can give
        reach = m - c + np.arange(c + 1)  # how many columns the sinks 0..t reach
        gives = np.concatenate([[0.0], np.cumsum(self.cap)])[np.clip(reach, 0, m)]
        self.slack = float(np.min(gives - np.cumsum(self.need)))

    def flows(self) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(i, p, v)``: sink ``i`` takes ``v`` from column ``p``.  The sinks in order, each the same fraction of what
        every column it reaches has left: sink ``t`` then finds what the columns ``p <= m + t`` gave less the needs of
        the sinks before it (they reach no other columns), so every need is met where Hall's condition holds, and the
        flows are spread over all the shifts (``delta sum_j z_j`` stays small).  The rounding of each step is relative
        to one column's remainder and one sink's need, far below the margins ``SPEND`` and ``LOWER``."""
        m, c = self.m, self.c
        left = self.cap.copy()
        ii, pp, vv = [], [], []
        for i, need in enumerate(self.need.tolist()):
            n = min(m - c + i, m)  # sink i reaches the columns p <= m + i: the first n
            if n <= 0:
                continue
            have = float(left[:n].sum())
            if have <= 0.0:
                continue
            f = min(need / have, 1.0)
            v = left[:n] * f
            left[:n] = np.maximum(left[:n] - v, 0.0)
            pos = np.flatnonzero(v > 0.0)
            ii.append(np.full(len(pos), i, dtype=np.int64))
            pp.append(self.p[pos])
            vv.append(v[pos])
        if not ii:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0)
        return np.concatenate(ii), np.concatenate(pp).astype(np.int64), np.concatenate(vv)


def _plan(epsilon: float, m: int, r: float, levels: int) -> _Plan:
    """The flows at the largest ``y`` (bisection) whose sinks all get their needs."""
    y0 = _centre(epsilon)
    lo, hi = 0.0, 4.0 * y0  # on a coarse grid the centre is one bin and y can be far below y0
    best = None
    for _ in range(BISECTIONS):
        mid = 0.5 * (lo + hi)
        plan = _Plan(epsilon, m, mid, r, levels)
        if plan.slack >= 0.0:
            lo, best = mid, plan
        else:
            hi = mid
        if hi - lo <= 1e-13 * hi:
            break
    if best is None:
        raise ArithmeticError(f"no transport dual found at eps={epsilon}, m={m}")
    return best


def _levels(r: float) -> int:
    """Rings until the next one adds less than 1e-18 relative (``(l + 1)^2 / r^l``), at least 1, at most 40."""
    lev = 1
    while lev < 40 and (lev + 2) ** 2 / r ** lev > 1e-18:
        lev += 1
    return lev


def transport_certificate(epsilon: float, delta: float, m: int) -> DualCertificate:
    """A dual of the LP of :mod:`.lp` at ``m`` bins per unit sensitivity built as a transport (module docstring).

    Its ``variance_bound()`` is a proven lower bound on ``V*(eps, delta, 1)`` (the exact check of
    :class:`.dual.DualCertificate`; any numbers would give a valid, maybe poor, bound).  ``M = levels m + c``.
    Raises ``ValueError`` unless ``epsilon`` is finite and > 0, ``delta`` in [0, 1) and ``m`` a power of two in
    [1, 2^20]."""
    if not (isinstance(epsilon, (int, float)) and 0.0 < epsilon < math.inf):
        raise ValueError(f"epsilon must be finite and > 0; got {epsilon!r}")
    if not (isinstance(delta, (int, float)) and 0.0 <= delta < 1.0):
        raise ValueError(f"delta must be in [0, 1); got {delta!r}")
    if not (isinstance(m, int) and 1 <= m <= 1 << 20 and m & (m - 1) == 0):
        raise ValueError(f"m must be a power of two in [1, 2^20]; got {m!r}")
    r = ratio_above(epsilon)
    levels = _levels(r)
    plan = _plan(epsilon, m, r, levels)
    si, sp_, sv = plan.flows()  # sink i from the ring-1 column p: row (p - i, -i)
    js, ks, vs = [sp_ - si], [-si], [sv]
    for q, give in plan.chain:  # column q pays into q - m: row (m, -(q - m))
        js.append(np.full(len(q), m))
        ks.append(-(q - m))
        vs.append(give)
    J = np.concatenate(js).astype(np.int64)
    K = np.concatenate(ks).astype(np.int64)
    V = np.concatenate(vs)
    keep = V > 0
    J, K, V = J[keep], K[keep], V[keep]
    zeta = np.zeros(m + 1)
    np.maximum.at(zeta, J, V)
    y = plan.y * (1.0 - LOWER)
    z = tuple(float(-v) for v in zeta[1:])
    u: Dict[Tuple[int, int], float] = dict(zip(zip(J.tolist(), K.tolist()), (-V).tolist()))
    M = levels * m + plan.c
    return DualCertificate(epsilon=float(epsilon), delta=float(delta), m=m, M=M, r=r, y=y, z=z,
                           u_e=(0.0,) * m, u=u, cap=cap_of(y, float(delta), z))


def best_transport(epsilon: float, delta: float, top: int = 0) -> Tuple[Fraction, DualCertificate]:
    """The best proven lower bound on ``V*(eps, delta, 1)`` among the transport duals on the grids ``64, 128, ...,
    top`` (default :func:`transport_bins`), and its certificate; the ladder stops at the first grid whose bound is
    below the previous one (at eps = 4, delta = 1e-6: 128 bins, 1.7e-6 relative above the bound on 256).  Each bound
    is :meth:`.dual.DualCertificate.variance_bound`, exact.  Memoised per arguments (the construction is
    deterministic); each call returns its own copy of the dual's entries, so that editing one cannot change a later
    answer.

    >>> lo, cert = best_transport(12.0, 1e-6, top=512)
    >>> cert.m, 0.000216 < float(lo) < 0.00021748     # V*(12, 1e-6) <= 0.00021748 (truncated staircase)
    (512, True)
    """
    bound, cert = _best_transport(epsilon, delta, top)
    return bound, dataclasses.replace(cert, u=dict(cert.u))  # the memo's dual stays as built: the caller gets a copy


@functools.lru_cache(maxsize=32)
def _best_transport(epsilon: float, delta: float, top: int) -> Tuple[Fraction, DualCertificate]:
    top = top or transport_bins(epsilon)
    best: Optional[Tuple[Fraction, DualCertificate]] = None
    m = 64
    while m <= top:
        cert = transport_certificate(epsilon, delta, m)
        bound = cert.variance_bound()
        if best is not None and 0 < bound <= best[0]:
            break  # past the peak (a bound of 0: the grid is still coarser than the centre, go on)
        best = (bound, cert)
        m *= 2
    if best is None:
        raise ValueError(f"top must be at least 64; got {top!r}")
    return best
