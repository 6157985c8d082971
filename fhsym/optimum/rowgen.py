"""The quantised LP of :mod:`.lp` solved by row generation (cutting planes) on a sequence of grids.

Why a restricted LP still certifies the lower end.  Keep only a set ``S`` of the rows ``(j, k)`` (and their
columns ``s_{j,k}``); keep every row ``(j, E)``, every delta row and the normalisation.  A feasible point of the
full LP, with the columns ``s_{j,k}``, ``(j, k)`` not in ``S``, dropped, is feasible for the restricted LP (each
delta row loses non-negative terms), so the restricted value is at most the full value.  Its dual ``(y, z, u_S,
u_E)``, extended by ``u_{j,k} = 0`` on the rows not in ``S``, is a set of numbers of the kind
:class:`.dual.DualCertificate` accepts (``z_j <= 0``, ``u`` in ``[z_j, 0]`` after clipping), and weak duality
(``docs/optimum.md``, Theorem 4) holds for ANY such numbers: the exact check of :mod:`.dual` recomputes the
reduced costs of the full LP's columns ``q_0..q_M, t`` from them and proves ``LP value >= L`` without knowing
how the numbers were found.  (The omitted columns ``s_{j,k}`` have reduced cost ``0 - z_j >= 0``.)  So every
iteration below gives a valid lower end; the iterations only make it tighter.

The upper end needs a primal of the FULL LP: the restricted LP's masses may break rows it does not hold.  The
separation adds, for every shift ``j`` whose delta row the masses break (``sum_k [q_|k| - r q_|k-j|]_+ +
[sum_{i > M-j} q_i - r t]_+ > delta (1 + tol)``), every row ``(j, k)`` with a positive term, and solves again,
until no shift breaks its row.  The masses then become the piecewise-uniform noise of :mod:`.primal`, whose
privacy is proven in exact rationals as before (nothing here is trusted).

Grids: the LP is solved in full on the coarsest grid ``m0`` (at most :data:`SEED_COLUMNS` columns), then on grids
twice as fine up to ``m``; each finer grid starts from the rows where the coarse masses, lifted to the fine grid
(each bin's mass spread evenly over the half-bins it covers), have ``q_|k| >= r q_|k-j| (1 - 1e-6)``: the
staircase-like optimum is tight on them.

>>> sol = solve_lp_rows(10.0, 1e-6, m=32, M=157, full_columns=0)
>>> full = solve_lp(10.0, 1e-6, m=32, M=157)
>>> abs(sol.value / full.value - 1) < 1e-6, sol.n_rows < full.n_rows
(True, True)
>>> float(sol.dual.lp_bound()) <= sol.value
True
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Callable, Dict, List, Optional, Set, Tuple

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

from .dual import DualCertificate
from .lp import cost_vector, normalisation_row
from .solve import LPSolution, cap_of, objective_scale, ratio_above, short, solve_lp

__all__ = ["solve_lp_rows", "restricted_lp", "unit_factor", "finer_dual", "IterationBudget", "SEED_COLUMNS", "FULL_COLUMNS", "TOLERANCE", "SEPARATION"]

#: the coarsest grid is solved in full while its LP has at most this many columns
SEED_COLUMNS = 8_000
#: an LP with at most this many columns is solved in full, a larger one by row generation (measured at delta = 1e-7,
#: two calls each, interleaved, load 6-7: eps = 0.3 (7,925 rows) 1.3-2.1 s against 5.3-6.2 s in full, eps = 1
#: 1.7-1.9 s against 6.1-8.3 s, eps = 3 5.4-6.8 s against 9.8-13.6 s)
FULL_COLUMNS = 8_000
#: the dual of an LP solved at delta' < delta bounds the LP at delta only by its tangent, ``(delta - delta') sum_j z_j``
#: lower; where that costs more than this fraction of the value the restricted LP is solved again at delta itself
TANGENT_LOSS = 1e-5
#: HiGHS' feasibility tolerances on the restricted LPs (in units of delta).  At 1e-10 the dual simplex cycled on a
#: restricted LP at eps = 10, m = 64 (95,000 iterations without an answer); at 1e-9 it solved it in 0.8 s.  The
#: tolerance only affects the float solution: the dual is re-checked exactly and the primal's privacy is proven.
TOLERANCE = 1e-9
#: a restricted LP whose dual simplex takes more than this many iterations per row (at least MIN_ITERATIONS) is taken
#: to cycle and is solved again at RETRY_TOLERANCE.  Measured in units of delta (before UNIT_RHS): solves that finish
#: take 1.2-1.3 per row ((2.5, 1e-8) and (2, 1e-10) on 32 bins: 5,665 and 8,714 iterations); at (2.5, 1e-10) on 32
#: bins the first restricted LP (5,610 rows) ran past 138,000-260,000 iterations in 120 s at 1e-9 (dual simplex with
#: any edge weights, presolve off, slack 2e-3, M = 472, or the interior point method) and finished at 1e-8 (202,047
#: iterations, 79 s).  In units of 1024 delta it is solved at 1e-9 in 5,290 iterations (the whole call 0.64 s).
CYCLE_ITERATIONS = 20
MIN_ITERATIONS = 50_000
#: the restricted LP's variables are in units of ``delta * unit_factor(delta)``, a power of two that keeps the
#: normalisation's right-hand side ``1/(delta * units)`` at most UNIT_RHS.  In units of delta alone (right-hand side
#: 1/delta) the masses near the centre are 1e10 at delta = 1e-10, where an absolute tolerance of 1e-9 is below the
#: rounding of the rows (q_|k| - r q_|k-j|) they enter: the dual simplex cycled on the restricted LP of (2.25, 1e-10)
#: on 32 bins (6,221 rows: 124,420 iterations at 1e-9, then 704,328 and 93 s at the retry's 1e-8) and solved it in
#: 5,672 iterations (0.5 s) in units of 1024 delta, with the same value.  The duals do not change with the unit (the
#: LP is homogeneous of degree one in its right-hand side); the delta rows then hold to ``tolerance * units`` of delta
#: (1e-9 * 1024 ~ 1e-6 at delta = 1e-10), far inside the slack of :mod:`.primal`, whose exact check decides.
UNIT_RHS = 1e7
#: ... and at most 1024 where the primal is used: each row (j, k) holds to the tolerance in these units, ``tolerance *
#: units`` of delta, and the separation sums hundreds of them in a delta row (SEPARATION 5e-4).  With 2^17 at (3.9,
#: 1e-12) on 32 bins the separation did not close in MAX_ROUNDS rounds; below delta ~1e-10 the right-hand side grows
#: above UNIT_RHS again (at 1e-9 the dual simplex still cycled at (2.5, 1e-12) and (2.25, 1e-12) on 32 bins, until
#: the retry; starting those at RETRY_TOLERANCE broke (2.75, 1e-12): the separation did not close on 16 bins).
#: :func:`finer_dual` uses the dual alone and takes no cap
UNIT_MAX = 1024
#: the tolerance of the retry, and its iteration budget per row
RETRY_TOLERANCE = 1e-8
RETRY_ITERATIONS = 200
#: a shift's delta row counts as broken above delta (1 + SEPARATION): the LP runs at delta (1 - slack) with
#: slack >= 1e-3, so the masses stay below delta (1 - 1e-3)(1 + 5e-4) < delta (and the exact check decides)
SEPARATION = 5e-4
#: iterations of the separation per grid before giving up (ArithmeticError)
MAX_ROUNDS = 60


def unit_factor(delta: float, cap: Optional[int] = UNIT_MAX) -> int:
    """The least power of two ``u >= 1`` with ``1/(delta u) <= UNIT_RHS`` (:data:`UNIT_RHS`), at most ``cap``
    (:data:`UNIT_MAX`; None: no cap, for a restricted LP whose dual alone is used).

    >>> unit_factor(1e-6), unit_factor(1e-8), unit_factor(1e-10), unit_factor(1e-12), unit_factor(1e-12, None)
    (1, 16, 1024, 1024, 131072)
    """
    need = 1.0 / (delta * UNIT_RHS)
    units = 1 if need <= 1.0 else 1 << math.ceil(math.log2(need))
    return units if cap is None else min(cap, units)


def restricted_lp(m: int, M: int, r: float, J: np.ndarray, K: np.ndarray
                  ) -> Tuple[np.ndarray, sp.csr_matrix, np.ndarray, sp.csr_matrix]:
    """``c, A_ub, b_ub, A_eq`` of the LP of :mod:`.lp` in units of delta with only the rows ``(J[i], K[i])``.

    Columns: ``q_0..q_M``, ``t``, ``s`` of the kept rows (in their order), ``s_{1,E}..s_{m,E}``.  Rows: the kept
    rows ``(j, k)``, then ``(1, E)..(m, E)``, then the ``m`` delta rows (right-hand side 1)."""
    n = len(J)
    nc = M + 2 + n + m
    rr = np.arange(n)
    a, b = np.abs(K), np.abs(K - J)
    same = a == b
    rows = [rr, rr[~same], rr, n + m + (J - 1)]
    cols = [a, b[~same], M + 2 + rr, M + 2 + rr]
    vals = [np.where(same, 1.0 - r, 1.0), np.full(int((~same).sum()), -r), np.full(n, -1.0), np.ones(n)]
    e0 = M + 2 + n
    for j in range(1, m + 1):
        er = n + j - 1
        idx = np.arange(M - j + 1, M + 1)
        rows += [np.full(len(idx), er), np.array([er, er]), np.array([n + m + j - 1])]
        cols += [idx, np.array([M + 1, e0 + j - 1]), np.array([e0 + j - 1])]
        vals += [np.ones(len(idx)), np.array([-r, -1.0]), np.array([1.0])]
    A = sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(n + 2 * m, nc))
    b_ub = np.zeros(n + 2 * m)
    b_ub[n + m:] = 1.0
    return cost_vector(m, M, nc), A, b_ub, normalisation_row(M, nc)


def _columns(m: int, M: int) -> int:
    return M + 2 + m * (2 * M + 1) - m * (m + 1) // 2 + m


def _broken(q: np.ndarray, t: float, m: int, M: int, r: float, tol: float) -> List[Tuple[int, int]]:
    """The rows to add: for every shift ``j`` whose delta row (in units of delta, right-hand side 1) the masses break
    by more than ``tol``, every ``(j, k)`` with ``q_|k| - r q_|k-j| > 0``."""
    new: List[Tuple[int, int]] = []
    for j in range(1, m + 1):
        k = np.arange(-M + j, M + 1)
        term = q[np.abs(k)] - r * q[np.abs(k - j)]
        pos = term > 0
        total = float(term[pos].sum()) + max(float(q[M - j + 1: M + 1].sum()) - r * t, 0.0)
        if total > 1.0 + tol:
            new += [(j, int(x)) for x in k[pos]]
    return new


def _from_dual(dual: DualCertificate, m: int, M: int) -> Set[Tuple[int, int]]:
    """The rows ``(2j + a, 2k + b)``, ``a, b`` in ``{-1, 0, 1}``, of a grid twice as fine for every row ``(j, k)``
    with a non-zero dual on the coarse grid."""
    rows: Set[Tuple[int, int]] = set()
    for (j, k) in dual.u:
        for jj in (2 * j - 1, 2 * j, 2 * j + 1):
            if 1 <= jj <= m:
                rows.update((jj, kk) for kk in (2 * k - 1, 2 * k, 2 * k + 1) if -M + jj <= kk <= M)
    return rows


def _tight(q: np.ndarray, m: int, M: int, r: float) -> Set[Tuple[int, int]]:
    """The rows where ``q_|k| > 0`` and ``q_|k| >= r q_|k-j| (1 - 1e-6)`` (the seed of a finer grid)."""
    rows: Set[Tuple[int, int]] = set()
    for j in range(1, m + 1):
        k = np.arange(-M + j, M + 1)
        qa, qb = q[np.abs(k)], q[np.abs(k - j)]
        rows.update((j, int(x)) for x in k[(qa > 0) & (qa - r * qb > -1e-6 * qa)])
    return rows


def _lift(q: np.ndarray, M: int) -> np.ndarray:
    """Masses on a grid twice as fine (support ``M``): coarse bin ``k`` covers fine bin ``2k`` and half of ``2k +- 1``."""
    fine = np.zeros(2 * len(q) + 1)
    fine[0: 2 * len(q): 2] = q / 2.0
    qn = np.append(q, 0.0)
    fine[1: 2 * len(q): 2] = (qn[:-1] + qn[1:]) / 4.0
    out = np.zeros(M + 1)
    n = min(M + 1, len(fine))
    out[:n] = fine[:n]
    return out


class IterationBudget(ArithmeticError):
    """The restricted LP of :func:`finer_dual` ran past its ``max_iterations`` (deterministic: simplex iterations,
    not time); the caller keeps its coarser, still valid, bound."""


def _solve_restricted(epsilon: float, delta: float, m: int, M: int, r: float, keys: List[Tuple[int, int]],
                      bound_delta: float, budget: Optional[int] = None, units: Optional[int] = None
                      ) -> Tuple[LPSolution, np.ndarray]:
    J = np.fromiter((j for j, _ in keys), dtype=np.int64, count=len(keys))
    K = np.fromiter((k for _, k in keys), dtype=np.int64, count=len(keys))
    c, A, b, Aeq = restricted_lp(m, M, r, J, K)
    scale = objective_scale(c)
    if units is None:  # the variables in units of delta * units (a power of two): the duals are the same
        units = unit_factor(delta)
    tries = ((TOLERANCE, CYCLE_ITERATIONS), (RETRY_TOLERANCE, RETRY_ITERATIONS)) if budget is None else ((TOLERANCE, 0),)
    for tol, per_row in tries:
        res = linprog(np.ldexp(c, -scale), A_ub=A, b_ub=b / units, A_eq=Aeq, b_eq=np.array([1.0 / (delta * units)]),
                      bounds=(0, None),
                      method="highs-ds",
                      options={"primal_feasibility_tolerance": tol, "dual_feasibility_tolerance": tol,
                               "maxiter": max(MIN_ITERATIONS, per_row * A.shape[0]) if budget is None
                               else max(int(budget), 1)})
        if budget is not None and res.status == 1:  # the caller's budget ran out: no retry
            raise IterationBudget(f"the LP on {m} bins ({len(keys):,} rows) ran past its {budget:,} dual simplex "
                                  f"iterations")
        if res.status != 1:  # 1: the iteration budget ran out (cycling): once more at the looser tolerance
            break
    if res.status != 0:
        raise ArithmeticError(f"HiGHS did not solve the restricted LP (eps={epsilon}, delta={delta}, m={m}, M={M}, "
                              f"{len(keys)} rows): {res.message}")
    n = len(keys)
    marg = np.ldexp(np.asarray(res.ineqlin.marginals, dtype=float), scale)
    u: Dict[Tuple[int, int], float] = {keys[i]: short(float(marg[i])) for i in np.flatnonzero(marg[:n])}
    y = short(math.ldexp(float(res.eqlin.marginals[0]), scale))
    z = tuple(short(float(v)) for v in marg[n + m: n + 2 * m])
    dual = DualCertificate(epsilon=float(epsilon), delta=float(bound_delta), m=m, M=M, r=r, y=y, z=z,
                           u_e=tuple(short(float(v)) for v in marg[n: n + m]), u=u, cap=cap_of(y, float(bound_delta), z))
    x = np.asarray(res.x, dtype=float) * units  # in units of delta
    sol = LPSolution(value=math.ldexp(float(res.fun), scale) * units * delta, q=x[: M + 1] * delta,
                     t=float(x[M + 1]) * delta,
                     dual=dual, status=int(res.status), n_rows=A.shape[0] + 1, n_cols=A.shape[1])
    return sol, x


def solve_lp_rows(epsilon: float, delta: float, m: int, M: int, bound_delta: Optional[float] = None,
                  support_of: Optional[Callable[[int], int]] = None, full_columns: Optional[int] = None,
                  seed_columns: int = SEED_COLUMNS) -> LPSolution:
    """:func:`.solve.solve_lp` by row generation over grids ``m0, 2 m0, ..., m`` (module docstring).

    Same arguments and result as :func:`.solve.solve_lp`; ``n_rows``/``n_cols`` are the final restricted LP's.
    An LP of at most ``full_columns`` columns (default :data:`FULL_COLUMNS`, read at the call) is solved in full; the coarsest grid has at most ``seed_columns``
    (or one bin per unit).  ``support_of(g)`` gives the support of an
    intermediate grid ``g`` (default: ``M`` scaled by ``g/m``).  Raises ``ArithmeticError`` if HiGHS fails or the
    separation does not close within :data:`MAX_ROUNDS` rounds on a grid."""
    bd = delta if bound_delta is None else bound_delta
    if _columns(m, M) <= (FULL_COLUMNS if full_columns is None else full_columns):
        return solve_lp(epsilon, delta, m, M, bound_delta=bd)
    r = ratio_above(epsilon)
    grids = [m]
    while grids[-1] > 1 and _columns(grids[-1], _level_support(grids[-1], m, M, support_of)) > seed_columns:
        grids.append(grids[-1] // 2)
    grids.reverse()
    if len(grids) == 1:  # one bin per unit and still large (small eps): no coarser grid to start from
        return solve_lp(epsilon, delta, m, M, bound_delta=bd)
    g = grids[0]
    Mg = _level_support(g, m, M, support_of)
    sol = solve_lp(epsilon, delta, g, Mg, bound_delta=bd)
    q_units = sol.q / delta
    for g in grids[1:]:
        Mg = _level_support(g, m, M, support_of)
        rows = _tight(_lift(q_units, Mg), g, Mg, r) | _from_dual(sol.dual, g, Mg)
        for _ in range(MAX_ROUNDS):
            keys = sorted(rows)
            sol, x = _solve_restricted(epsilon, delta, g, Mg, r, keys, bd)
            new = _broken(x[: Mg + 1], float(x[Mg + 1]), g, Mg, r, SEPARATION)
            if not new:
                break
            rows.update(new)
        else:
            raise ArithmeticError(f"row generation did not close in {MAX_ROUNDS} rounds (eps={epsilon}, "
                                  f"delta={delta}, m={g})")
        q_units = x[: Mg + 1]
    zsum = -sum(min(v, 0.0) for v in sol.dual.z)
    if bd != delta and (bd - delta) * zsum > TANGENT_LOSS * sol.value:
        at_bd, _ = _solve_restricted(epsilon, bd, m, M, r, keys, bd)  # the same rows at delta: its own dual
        sol = replace(sol, dual=at_bd.dual)
    return sol


def finer_dual(epsilon: float, delta: float, coarse: LPSolution, M: int, max_iterations: int,
               max_rows: Optional[int] = None) -> LPSolution:
    """A dual of the LP on the grid ``2 m`` (support ``M``) from one restricted LP, ``m`` the grid of ``coarse`` (any
    solution of the LP at ``epsilon``): its rows are the fine neighbours of the rows with a non-zero dual in
    ``coarse`` (:func:`_from_dual`), solved at ``delta`` itself with at most ``max_iterations`` dual simplex
    iterations and no separation (:class:`IterationBudget` past them, or, unsolved, where it holds more than
    ``max_rows`` rows).  The dual bounds the full LP on ``2 m``
    whatever rows it held (module docstring); its primal may break rows it does not hold, so it is no noise
    (``tests/optimum/test_optimum_sharpen.py`` checks its bound against the full LP rebuilt independently)."""
    m = 2 * coarse.dual.m
    r = ratio_above(epsilon)
    keys = sorted(_from_dual(coarse.dual, m, M))
    if max_rows is not None and len(keys) > max_rows:
        raise IterationBudget(f"the LP on {m} bins would start from {len(keys):,} rows, more than {max_rows:,}")
    sol, _ = _solve_restricted(epsilon, delta, m, M, r, keys, delta, max_iterations, unit_factor(delta, None))
    return sol


def _level_support(g: int, m: int, M: int, support_of: Optional[Callable[[int], int]]) -> int:
    if g == m:
        return M
    if support_of is not None:
        return int(support_of(g))
    return max(g, (M * g + m - 1) // m)
