"""A dual solution of the quantised LP, checked in exact rational arithmetic: the certified lower bound.

Weak duality (``docs/optimum.md``).  For the LP of :mod:`.lp` (``min c.x``, ``A_eq x = 1``,
``A_ub x <= b``, ``x >= 0``) take ANY numbers ``y`` (normalisation row), ``z_j <= 0`` (delta rows),
``u_{j,k}, u_{j,E}`` in ``[z_j, 0]`` (the other rows).  With the reduced costs
``rho = c - y A_eq - A_ub^T (u, z)``, every feasible ``x`` obeys

    c.x = rho.x + y + (u, z).A_ub x >= rho.x + y + delta sum_j z_j          (z, u <= 0, A_ub x <= b)

The ``s`` columns have ``rho = u - z_j >= 0`` by the clipping; the columns ``q_0..q_M, t`` carry
the normalisation weights ``a_i`` (1 for ``q_0``, 2 otherwise) with ``sum_i a_i x_i = 1``, so
``rho.x >= -max(0, max_i (-rho_i / a_i))``.  Hence

    LP value >= L = y + delta sum_j z_j - max(0, max_i (-rho_i / a_i)),

and ``V*(eps, delta, 1) >= L - w^2/4``.

Capped (``cap = U``, any float ``U >= 0``; issue 31).  Every cost is ``>= 0``, so a feasible ``x`` with ``c.x <= U``
has ``c_i x_i <= U``: ``a_i x_i <= U m^2 / i^2`` for ``q_i`` (``i >= 1``) and ``<= U m^2 / (M+1)^2`` for ``t``
(``q_0`` costs 0: no cap).  Then ``rho.x >= -W(U)``, ``W(U)`` the fractional knapsack that spends the weight
``sum_i a_i x_i <= 1`` on the columns with ``rho_i < 0`` in decreasing order of ``-rho_i / a_i``, each up to its cap;
so every feasible ``x`` has ``c.x > U`` or ``c.x >= y + delta sum_j z_j - W(U)``, and

    LP value >= L_U = min(U, y + delta sum_j z_j - W(U)).

With ``U`` at least ``y + delta sum_j z_j`` this is ``y + delta sum_j z_j - W(U) >= L`` (``W(U)`` is at most the
uncapped ``max(0, max_i (-rho_i / a_i))``).  It matters where one reduced cost is far below zero on a column that
holds little mass: at eps = 10 HiGHS returned ``u_{j,k} = +2.1e-8`` (its dual tolerance), which the clipping to
``[z_j, 0]`` turns into ``rho_i = -4.6e-4`` at ``i = |k - j|`` (times ``r = e^10``): ``L`` lost 27 % of the value,
``L_U`` 0.04 %.  The numbers come from a floating-point solver, but floats
are exact dyadic rationals and every step above is computed in :class:`fractions.Fraction`, so
``L`` is a proven bound whatever their accuracy (a poor dual only gives a lower ``L``); the only
other ingredient, ``r >= e^eps``, is checked with a ball enclosure of ``e^eps``.  Only the non-zero
``u_{j,k}`` are stored.

Example: the LP at ``eps = 1, delta = 1e-6``, 2 bins per unit, solved and re-checked.

>>> from fhsym.optimum.solve import solve_lp
>>> sol = solve_lp(1.0, 1e-6, m=2, M=30)
>>> bound = sol.dual.lp_bound()
>>> float(bound) <= sol.value, abs(float(bound) - sol.value) < 1e-7
(True, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Dict, List, Mapping, Optional, Tuple

import numpy as np

from ..noise.plans.piecewise_uniform import exp_enclosure

__all__ = ["DualCertificate"]


@dataclass(frozen=True)
class DualCertificate:
    """Dual values of the LP (floats; any values give a valid bound) with the LP's data.

    ``u`` maps ``(j, k)`` to the dual of row ``(j, k)`` (non-zero entries only); ``z[j-1]`` and
    ``u_e[j-1]`` are the duals of the delta row and the row ``(j, E)``; ``y`` of the normalisation.
    """

    epsilon: float
    delta: float
    m: int
    M: int
    r: float
    y: float
    z: Tuple[float, ...]
    u_e: Tuple[float, ...]
    u: Mapping[Tuple[int, int], float]
    cap: Optional[float] = None  # U of the capped bound (module docstring); None: the uncapped bound L

    def reduced_costs(self) -> Tuple[List[Fraction], Fraction]:
        """Exact reduced costs ``rho_0..rho_M`` (columns ``q_i``) and ``rho_t`` after clipping the duals."""
        m, M = self.m, self.M
        r = Fraction(self.r)
        y = Fraction(self.y)
        z = [min(Fraction(v), Fraction(0)) for v in self.z]
        w2 = Fraction(1, m * m)
        rho = [(1 if i == 0 else 2) * i * i * w2 - (1 if i == 0 else 2) * y for i in range(M + 1)]
        for (j, k), v in self.u.items():
            if not (1 <= j <= m and -M + j <= k <= M):
                raise ValueError(f"dual entry (j, k) = ({j}, {k}) is not a row of the LP with m={m}, M={M}")
            u = min(max(Fraction(v), z[j - 1]), Fraction(0))
            rho[abs(k)] -= u
            rho[abs(k - j)] += r * u
        rho_t = 2 * (M + 1) ** 2 * w2 - 2 * y
        for j in range(1, m + 1):
            ue = min(max(Fraction(self.u_e[j - 1]), z[j - 1]), Fraction(0))
            for i in range(M - j + 1, M + 1):
                rho[i] -= ue
            rho_t += r * ue
        return rho, rho_t

    def lp_bound(self) -> Fraction:
        """The proven lower bound ``L`` on the LP value (module docstring); checks ``r >= e^eps``.

        Computed in integers: every number here is a dyadic rational (floats, ``r`` a float, ``w^2 = 1/m^2`` with
        ``m`` a power of two), so scaled by one power of two ``D`` the reduced costs are integers and the bound is
        the same exact rational as :meth:`reduced_costs` gives in :class:`~fractions.Fraction`.  The sums over the
        dual's entries are exact integer sums per column from numpy arrays (:func:`_dyadic_bin_sums`); the two routes
        agree exactly in ``tests/optimum`` (also at subnormal and 1e5-sized entries)."""
        if len(self.z) != self.m or len(self.u_e) != self.m:
            raise ValueError(f"z and u_e must have m={self.m} entries; got {len(self.z)} and {len(self.u_e)}")
        _, hi = exp_enclosure(self.epsilon)
        if Fraction(self.r) < hi:
            raise ValueError(f"r={self.r!r} is not proven >= e^epsilon for epsilon={self.epsilon!r}")
        m, M = self.m, self.M
        if not 1 <= m <= M + 1:
            raise ValueError(f"m must be in [1, M + 1] (the rows (j, E) sum q_(M-j+1)..q_M); got m={m}, M={M}")
        if m & (m - 1):
            return self._lp_bound_fractions()  # w^2 not dyadic: the general route
        keys = np.array(list(self.u), dtype=np.int64).reshape(-1, 2)
        J, Kc = keys[:, 0], keys[:, 1]
        bad = ~((1 <= J) & (J <= m) & (-M + J <= Kc) & (Kc <= M))
        if bad.any():
            j, k = (int(x) for x in keys[int(np.argmax(bad))])
            raise ValueError(f"dual entry (j, k) = ({j}, {k}) is not a row of the LP with m={m}, M={M}")
        z = np.minimum(np.array(self.z, dtype=float), 0.0)
        u = np.fromiter(self.u.values(), dtype=float, count=len(self.u))
        if not all(map(math.isfinite, (self.y, self.r))) or not np.isfinite(z).all() or not np.isfinite(u).all() \
                or not np.isfinite(self.u_e).all():
            raise ValueError("dual values must be finite")
        u = np.minimum(np.maximum(u, z[J - 1]), 0.0) if len(u) else u  # float clipping is exact
        ue = np.minimum(np.maximum(np.array(self.u_e, dtype=float), z), 0.0)
        rn, rd = self.r.as_integer_ratio()
        rbits = rd.bit_length() - 1
        bits = max(self.y.as_integer_ratio()[1].bit_length() - 1, _denominator_bits(u), _denominator_bits(ue))
        K = max(bits + rbits, 2 * (m.bit_length() - 1))
        D = 1 << K
        w2 = D // (m * m)
        yn, yd = self.y.as_integer_ratio()
        Y = yn * (D // yd)
        rho = [(1 if i == 0 else 2) * (i * i * w2 - Y) for i in range(M + 1)]
        # u_{j,k}: rho_|k| -= u D, rho_|k-j| += r u D (= rn u 2^(K - rbits))
        own = _dyadic_bin_sums(u, np.abs(Kc), M + 1, K)
        shifted = _dyadic_bin_sums(u, np.abs(Kc - J), M + 1, K - rbits)
        rho = [x - a + rn * b for x, a, b in zip(rho, own, shifted)]
        # u_{j,E}: rho_i -= u_{j,E} D for i = M - j + 1..M (a suffix sum over j), rho_t += r u_{j,E} D
        sv = _dyadic_bin_sums(ue, np.arange(m), m, K)
        suffix = [0] * (m + 2)
        for j in range(m, 0, -1):
            suffix[j] = suffix[j + 1] + sv[j - 1]
        for i in range(M + 1):
            rho[i] -= suffix[min(max(M + 1 - i, 1), m + 1)]
        rho_t = 2 * (M + 1) ** 2 * w2 - 2 * Y + rn * sum(_dyadic_bin_sums(ue, np.zeros(m, dtype=np.int64), 1,
                                                                            K - rbits))
        zsum = sum((Fraction(float(v)) for v in z), Fraction(0))
        base = Fraction(self.y) + Fraction(self.delta) * zsum
        if self.cap is None:
            worst2 = max([0, -rho_t, -2 * rho[0]] + [-x for x in rho[1:]])  # 2 D max(0, -rho_t/2, -rho_i/a_i)
            return base - Fraction(worst2, 2 * D)
        # the losses -rho/a in units 1/(2 D), with the column's index (M + 1: t)
        losses = [(-2 * rho[0], 0)] + [(-x, i) for i, x in enumerate(rho[1:], 1)] + [(-rho_t, M + 1)]
        return self._capped(base, [(Fraction(v, 2 * D), i) for v, i in losses if v > 0])

    def _capped(self, base: Fraction, losses: List[Tuple[Fraction, int]]) -> Fraction:
        """``min(U, base - W(U))`` from the columns' losses ``-rho_i / a_i > 0`` (index ``M + 1``: ``t``)."""
        cap = self.cap
        if cap is None or not (math.isfinite(cap) and cap >= 0.0):
            raise ValueError(f"cap must be a finite float >= 0; got {cap!r}")
        U = Fraction(cap)
        left = Fraction(1)  # the normalisation weight sum_i a_i x_i still to spend
        loss = Fraction(0)
        for v, i in sorted(losses, reverse=True):
            take = left if i == 0 else min(left, U * self.m * self.m / (i * i))
            loss += v * take
            left -= take
            if left == 0:
                break
        return min(U, base - loss)

    def _lp_bound_fractions(self) -> Fraction:
        """:meth:`lp_bound` in :class:`~fractions.Fraction` throughout (the reference route)."""
        rho, rho_t = self.reduced_costs()
        z = [min(Fraction(v), Fraction(0)) for v in self.z]
        base = Fraction(self.y) + Fraction(self.delta) * sum(z)
        if self.cap is not None:
            losses = [(-v / (1 if i == 0 else 2), i) for i, v in enumerate(rho)] + [(-rho_t / 2, self.M + 1)]
            return self._capped(base, [(v, i) for v, i in losses if v > 0])
        worst = max([Fraction(0), -rho_t / 2] + [-v / (1 if i == 0 else 2) for i, v in enumerate(rho)])
        return base - worst

    def variance_bound(self) -> Fraction:
        """The proven lower bound ``L - w^2/4`` on ``V*(eps, delta, 1)`` (at least 0)."""
        return max(Fraction(0), self.lp_bound() - Fraction(1, 4 * self.m * self.m))

    # ------------------------------------------------------------ JSON
    def to_json(self) -> Dict[str, Any]:
        """A JSON-able dict (floats round-trip exactly through ``repr``); ``u`` as columns ``j``, ``k``, ``value``."""
        keys = sorted(self.u)
        out: Dict[str, Any] = {
            "epsilon": self.epsilon, "delta": self.delta, "m": self.m, "M": self.M, "r": self.r, "y": self.y,
            "z": list(self.z), "u_e": list(self.u_e),
            "u": {"j": [j for j, _ in keys], "k": [k for _, k in keys], "value": [self.u[key] for key in keys]},
        }
        if self.cap is not None:
            out["cap"] = self.cap
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "DualCertificate":
        """The inverse of :meth:`to_json`."""
        return cls(epsilon=float(data["epsilon"]), delta=float(data["delta"]), m=int(data["m"]), M=int(data["M"]),
                   r=float(data["r"]), y=float(data["y"]), z=tuple(float(v) for v in data["z"]),
                   u_e=tuple(float(v) for v in data["u_e"]),
                   u={(int(j), int(k)): float(v) for j, k, v in zip(data["u"]["j"], data["u"]["k"], data["u"]["value"])},
                   cap=float(data["cap"]) if data.get("cap") is not None else None)


def _denominator_bits(x: "np.ndarray") -> int:
    """An exponent ``b`` with ``v 2^b`` an integer for every float ``v`` of ``x`` (0 for an empty or all-zero array)."""
    nz = x[x != 0.0]
    if not len(nz):
        return 0
    return max(0, int((53 - np.frexp(nz)[1]).max()))


def _dyadic_bin_sums(values: "np.ndarray", bins: "np.ndarray", nbins: int, shift: int) -> List[int]:
    """Exact ``sum_{t: bins[t] = i} values[t] 2^shift`` for ``i < nbins``, as Python ints.

    Each float is ``m 2^(e - 53)`` with an integer ``|m| < 2^53`` (``numpy.frexp``); ``shift`` must make every product an
    integer (``shift >= 53 - e``: :func:`_denominator_bits`).  The values are grouped by ``e // 8``; in a group
    ``m 2^(e mod 8)`` (< 2^61) is split in two 31-bit halves summed per bin in int64 (no overflow below 2^31 terms),
    and the groups' integer sums are shifted and added as Python ints: the same integer as summing
    ``Fraction(v) * 2^shift`` one by one.
    """
    out = [0] * nbins
    keep = values != 0.0
    if not keep.any():
        return out
    mant, ex = np.frexp(values[keep])
    m = (mant * 2.0 ** 53).astype(np.int64)  # exact: |mant| in [1/2, 1)
    b = np.asarray(bins)[keep]
    low_shift = ex - 53 + shift
    if int(low_shift.min()) < 0:
        raise ValueError("shift does not make every value an integer")
    group, within = np.divmod(low_shift, 8)
    m = m << within
    mask = (1 << 31) - 1
    for g in np.unique(group):
        sel = group == g
        hi = np.zeros(nbins, dtype=np.int64)
        lo = np.zeros(nbins, dtype=np.int64)
        np.add.at(hi, b[sel], m[sel] >> 31)
        np.add.at(lo, b[sel], m[sel] & mask)
        gs = 8 * int(g)
        for i in np.flatnonzero(hi | lo):
            out[i] += ((int(hi[i]) << 31) + int(lo[i])) << gs
    return out
