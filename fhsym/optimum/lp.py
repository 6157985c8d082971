"""The quantised-output linear program whose value bounds the optimal variance from below.

Setting (sensitivity 1; ``docs/optimum.md`` proves each step).  ``T`` is symmetric, additive and
(eps, delta)-DP for every shift ``|d| <= 1``; ``w = 1/m`` (``m`` a power of two, so ``w`` is exact);
``Z = round((T + U)/w)``, ``U ~ Uniform[-w/2, w/2)`` independent (dithered quantisation: post-
processing).  ``q_k = P(Z = k) = q_{-k}``; ``t = P(Z > M) = P(Z < -M)``.  Then

    E[T^2] >= sum_k q_k (k w)^2 - w^2/4                       (E[wZ | T] = T, Var(wZ | T) <= w^2/4)

and, for each lattice shift ``j = 1..m`` and rational ``r >= e^eps``, the variables

    x = (q_0..q_M, t, s_{j,k} (j = 1..m, k = -M+j..M), s_{j,E} (j = 1..m)) >= 0

with ``s_{j,k} = [q_k - r q_{k-j}]_+`` and ``s_{j,E} = [q_{-M} + ... + q_{-M+j-1} - r t]_+`` satisfy

    minimise   sum_{|k| <= M} (k w)^2 q_k + 2 ((M+1) w)^2 t
    subject to q_0 + 2 (q_1 + ... + q_M) + 2 t = 1                                  (normalisation)
               q_|k| - r q_|k-j| - s_{j,k} <= 0          (j = 1..m, k = -M+j..M)       (rows "jk")
               sum_{i=M-j+1}^{M} q_i - r t - s_{j,E} <= 0 (j = 1..m)                    (rows "E")
               sum_k s_{j,k} + s_{j,E} <= delta          (j = 1..m)                    (rows "delta")

(the last rows are the privacy of ``Z`` against ``Z + j`` on the set where the summands are
positive, weakened by ``r >= e^eps`` and by ``P(Z < -M - j + ...) <= t`` for the unknown tail).
So the LP value is at most ``E[(wZ)^2]``; see :mod:`.dual` for the certified lower bound.

Variable order: ``q_0..q_M`` (columns ``0..M``), ``t`` (column ``M+1``), then ``s_{j,k}`` by
``j`` then ``k``, then ``s_{1,E}..s_{m,E}``.  Row order: for each ``j`` the rows ``(j, k)`` for
``k = -M+j..M`` then the row ``(j, E)``; then the ``m`` delta rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Tuple

import numpy as np
import scipy.sparse as sp

__all__ = ["QuantisedLP", "cost_vector", "normalisation_row"]


def cost_vector(m: int, M: int, n_cols: int) -> np.ndarray:
    """The objective over ``n_cols`` columns (``q_0..q_M``, ``t``, then the ``s`` columns at cost 0):
    ``a_i (i w)^2`` for ``q_i`` (``a_0 = 1``, ``a_i = 2``), ``2 ((M+1) w)^2`` for ``t``, ``w = 1/m``."""
    w = 1.0 / m
    c = np.zeros(n_cols)
    i = np.arange(M + 1, dtype=float)
    c[: M + 1] = np.where(i == 0, 1.0, 2.0) * (i * w) ** 2
    c[M + 1] = 2.0 * ((M + 1) * w) ** 2
    return c


def normalisation_row(M: int, n_cols: int) -> sp.csr_matrix:
    """``q_0 + 2 (q_1 + ... + q_M) + 2 t`` over ``n_cols`` columns (the equality row)."""
    a = np.zeros(n_cols)
    a[0] = 1.0
    a[1: M + 2] = 2.0
    return sp.csr_matrix(a.reshape(1, -1))


@dataclass(frozen=True)
class QuantisedLP:
    """The LP at ``m`` bins per unit sensitivity, support ``|k| <= M``, ratio ``r >= e^eps`` (float) and ``delta``."""

    m: int
    M: int
    r: float
    delta: float

    @property
    def n_s(self) -> int:
        """Number of ``s_{j,k}`` columns: ``sum_j (2M - j + 1)``."""
        return self.m * (2 * self.M + 1) - self.m * (self.m + 1) // 2

    @property
    def n_cols(self) -> int:
        return self.M + 2 + self.n_s + self.m

    @property
    def n_rows(self) -> int:
        """Inequality rows (the equality row is separate)."""
        return self.n_s + 2 * self.m

    def row_of(self, j: int, k: int) -> int:
        """Index of row ``(j, k)`` (``-M + j <= k <= M``)."""
        return self._block_start(j) + (k + self.M - j)

    def e_row(self, j: int) -> int:
        """Index of row ``(j, E)``."""
        return self._block_start(j) + 2 * self.M - j + 1

    def delta_row(self, j: int) -> int:
        return self.n_s + self.m + (j - 1)

    def _block_start(self, j: int) -> int:
        # rows of j' < j: sum_{j' < j} (2M - j' + 2)
        return (j - 1) * (2 * self.M + 2) - (j - 1) * j // 2

    def objective(self) -> np.ndarray:
        """c: ``a_i (i w)^2`` for ``q_i`` (``a_0 = 1``, ``a_i = 2``), ``2 ((M+1) w)^2`` for ``t``, 0 else."""
        return cost_vector(self.m, self.M, self.n_cols)

    def equality(self) -> Tuple[sp.csr_matrix, np.ndarray]:
        """The normalisation row and its right-hand side 1."""
        return normalisation_row(self.M, self.n_cols), np.array([1.0])

    def inequalities(self) -> Tuple[sp.csr_matrix, np.ndarray]:
        """``A_ub``, ``b_ub`` in the row order of the module docstring."""
        m, M, r = self.m, self.M, self.r
        rows, cols, vals = [], [], []
        s_col = M + 2
        for j in range(1, m + 1):
            k = np.arange(-M + j, M + 1)
            base = self._block_start(j)
            rr = base + np.arange(len(k))
            a, b = np.abs(k), np.abs(k - j)
            same = a == b
            rows += [rr, rr[~same], rr]
            cols += [a, b[~same], s_col + np.arange(len(k))]
            vals += [np.where(same, 1.0 - r, 1.0), np.full(int((~same).sum()), -r), np.full(len(k), -1.0)]
            # delta row of j: the s_{j,k} of this block
            drow = self.delta_row(j)
            rows.append(np.full(len(k), drow))
            cols.append(s_col + np.arange(len(k)))
            vals.append(np.ones(len(k)))
            s_col += len(k)
        e_col0 = M + 2 + self.n_s
        for j in range(1, m + 1):
            er = self.e_row(j)
            idx = np.arange(M - j + 1, M + 1)
            rows += [np.full(len(idx), er), np.array([er, er]), np.array([self.delta_row(j)])]
            cols += [idx, np.array([M + 1, e_col0 + j - 1]), np.array([e_col0 + j - 1])]
            vals += [np.ones(len(idx)), np.array([-r, -1.0]), np.array([1.0])]
        A = sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                          shape=(self.n_rows, self.n_cols))
        b = np.zeros(self.n_rows)
        b[self.n_s + m:] = self.delta
        return A, b
