"""Solve the quantised LP (:mod:`.lp`) with HiGHS' dual simplex and collect its primal and dual.

``scipy.optimize.linprog(method="highs-ds")`` with feasibility tolerances 1e-10, on the LP with its
costs scaled by a power of two to at most 1 (:func:`objective_scale`; the duals are scaled back exactly) and in units
of delta: the variables are ``x / delta`` (the rows ``(j, k)`` and ``(j, E)`` are homogeneous, the
normalisation's right-hand side becomes ``1/delta``, the delta rows' 1), so the solver's absolute
tolerances are relative to delta.  (Unscaled, at delta = 1e-8 the float primal broke the delta rows
by 9 %, at delta = 1e-10 by a factor 42.)  The duals need no rescaling: the reduced costs are the same
and the bound is ``y + delta sum_j z_j``.  Nothing here is trusted: the dual is re-checked exactly by
:class:`.dual.DualCertificate`, the primal by :mod:`.primal`.

>>> sol = solve_lp(1.0, 1e-6, m=2, M=30)
>>> sol.status, round(sol.value, 4), sol.n_rows, sol.n_cols
(0, 1.9285, 124, 153)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Dict, Optional, Sequence, Tuple

import numpy as np
from scipy.optimize import linprog

from ..noise.plans.piecewise_uniform import exp_enclosure, fraction_up
from .dual import DualCertificate
from .lp import QuantisedLP

__all__ = ["LPSolution", "solve_lp", "ratio_above", "short", "objective_scale", "cap_of"]

TOLERANCE = 1e-10
#: significant bits kept of each dual value (the certified bound moves by ~1e-10 relative)
DUAL_BITS = 32


@dataclass(frozen=True)
class LPSolution:
    """The LP's float value, its primal masses ``q_0..q_M`` and tail ``t``, and its dual certificate."""

    value: float
    q: np.ndarray
    t: float
    dual: DualCertificate
    status: int
    n_rows: int
    n_cols: int


def short(x: float, bits: int = DUAL_BITS) -> float:
    """``x`` rounded to ``bits`` significant bits (any dual values give a valid bound; short ones store compactly).

    >>> short(0.1), short(-3.0)
    (0.10000000000582077, -3.0)
    """
    if x == 0.0 or not math.isfinite(x):
        return x
    mant, ex = math.frexp(x)
    return math.ldexp(round(mant * 2**bits), ex - bits)


def cap_of(y: float, delta: float, z: Sequence[float]) -> float:
    """``U`` of the capped bound (:class:`.dual.DualCertificate`, ``cap``): a little above ``y + delta sum_j min(z_j,
    0)``, so that the proven bound is ``y + delta sum_j z_j - W(U)`` (any ``U >= 0`` gives a valid bound).

    >>> cap_of(1.0, 0.5, [-1.0, 0.25]) > 0.5
    True
    """
    return max(y + delta * sum(min(v, 0.0) for v in z), 0.0) * (1.0 + 2.0**-20)


def objective_scale(c: np.ndarray) -> int:
    """``s`` with the largest cost times ``2^-s`` in [1/2, 1): HiGHS solves the LP with the costs ``c 2^-s``.

    At small eps the costs ``(k w)^2`` reach ``~1e8`` (M ~ 8000 bins at eps = 0.001, delta = 1e-6) and HiGHS
    stopped with "Solve error" on the unscaled LP; a power of two keeps the scaling exact both ways.

    >>> objective_scale(np.array([0.0, 3.0, 6.0e7]))
    26
    """
    top = float(np.max(c)) if c.size else 0.0
    return math.frexp(top)[1] if top > 0 else 0


def ratio_above(epsilon: float) -> float:
    """A float ``r >= e^eps``, proven (the upper end of a ball enclosure, rounded up)."""
    return fraction_up(exp_enclosure(epsilon)[1])


def solve_lp(epsilon: float, delta: float, m: int, M: int, bound_delta: Optional[float] = None) -> LPSolution:
    """Solve the LP at ``eps, delta`` with ``m`` bins per unit sensitivity and support ``|k| <= M``.

    The dual certificate bounds the LP at ``bound_delta`` (default ``delta``): a dual solution is
    feasible for every right-hand side, so the LP solved at a smaller delta (for a primal with
    slack, :mod:`.primal`) still certifies the bound at the true delta (its tangent there).
    Raises ``ArithmeticError`` if HiGHS does not report an optimum.
    """
    lp = QuantisedLP(m=m, M=M, r=ratio_above(epsilon), delta=1.0)  # in units of delta (module docstring)
    A, b = lp.inequalities()
    Aeq, beq = lp.equality()
    c = lp.objective()
    scale = objective_scale(c)
    res = linprog(np.ldexp(c, -scale), A_ub=A, b_ub=b, A_eq=Aeq, b_eq=beq / delta, bounds=(0, None),
                  method="highs-ds",
                  options={"primal_feasibility_tolerance": TOLERANCE, "dual_feasibility_tolerance": TOLERANCE})
    if res.status != 0:
        raise ArithmeticError(f"HiGHS did not solve the LP (eps={epsilon}, delta={delta}, m={m}, M={M}): "
                              f"{res.message}")
    # the duals of the scaled objective times 2^scale (exact) are duals of the LP; the exact check re-derives the bound
    marg = np.ldexp(np.asarray(res.ineqlin.marginals, dtype=float), scale)
    u: Dict[Tuple[int, int], float] = {}
    for j in range(1, m + 1):
        start = lp.row_of(j, -M + j)
        block = marg[start: start + 2 * M - j + 1]
        for off in np.flatnonzero(block):
            u[(j, int(off) - M + j)] = short(float(block[off]))
    bd = float(delta if bound_delta is None else bound_delta)
    y = short(math.ldexp(float(res.eqlin.marginals[0]), scale))
    z = tuple(short(float(marg[lp.delta_row(j)])) for j in range(1, m + 1))
    dual = DualCertificate(epsilon=float(epsilon), delta=bd, m=m, M=M, r=lp.r, y=y, z=z,
                           u_e=tuple(short(float(marg[lp.e_row(j)])) for j in range(1, m + 1)), u=u,
                           cap=cap_of(y, bd, z))
    x = np.asarray(res.x, dtype=float) * delta
    return LPSolution(value=math.ldexp(float(res.fun), scale) * delta, q=x[: M + 1].copy(), t=float(x[M + 1]), dual=dual,
                      status=int(res.status),
                      n_rows=lp.n_rows + 1, n_cols=lp.n_cols)
