"""The upper end: a piecewise-uniform noise built from the LP primal, private by an exact check.

The LP masses ``q_0..q_M`` (floats) become integer weights ``n_k = round(q_k 2^60)``; the noise
is :class:`fhsym.noise.PiecewiseUniform` with width ``Delta/m`` and these weights (normalised
exactly by their sum).  Its privacy for every ``|d| <= Delta`` is
``sup_d delta(eps; d) = max_j D_j`` (lattice values, interpolation between them), proven in exact
rationals by :func:`fhsym.noise.plans.piecewise_uniform.sup_profile_bounds`.  The float LP is
solved with a smaller delta (``delta (1 - slack)``) so that its tolerances and the rounding of the
weights cannot push ``max_j D_j`` above delta; a failed check retries with a larger slack, and an
LP that leans on its tail variable retries with a larger support.  LPs of more than 8,000 columns are solved by
row generation (:mod:`.rowgen`): the same LP, the same kind of dual, fewer rows held at once.

>>> noise, proven = private_noise(1.0, 1e-6, 1.0, m=2, M=30)
>>> proven <= 1e-6, round(noise.var(), 3)
(True, 1.949)
"""

from __future__ import annotations

from typing import Optional, Tuple

import numpy as np

from ..noise.piecewise_uniform import PiecewiseUniform
from .rowgen import solve_lp_rows
from .solve import LPSolution

__all__ = ["weights_from_masses", "private_noise", "solve_private", "SCALE_BITS"]

#: the first slack (fraction of delta given up so that the float primal keeps delta)
SLACK = 1e-3
SCALE_BITS = 60
ATTEMPTS = 6
#: a tail mass t above TAIL * delta means the LP leans on its tail relaxation: enlarge M
TAIL = 1e-3


def weights_from_masses(q: np.ndarray) -> Tuple[int, ...]:
    """Integer weights ``round(max(q_k, 0) 2^60)`` (trailing zero weights dropped, at least one kept)."""
    n = [int(round(float(v) * 2.0**SCALE_BITS)) if v > 0 else 0 for v in np.asarray(q, dtype=float)]
    while len(n) > 1 and n[-1] == 0:
        n.pop()
    return tuple(n)


def private_noise(epsilon: float, delta: float, sensitivity: float, m: int, M: int,
                  ) -> Tuple[PiecewiseUniform, float]:
    """The noise at the upper end and a proven bound ``<= delta`` on ``sup_{|d| <= Delta} delta(eps; d)``.

    Raises ``ArithmeticError`` if no attempt gives an exactly private noise.
    """
    noise, proven, _ = solve_private(epsilon, delta, sensitivity, m, M)
    return noise, proven


def solve_private(epsilon: float, delta: float, sensitivity: float, m: int, M: int,
                  ) -> Tuple[PiecewiseUniform, float, LPSolution]:
    """:func:`private_noise` and the LP solution it came from (its dual bounds the LP at ``delta``).

    The LP is solved at ``delta (1 - slack)``, first ``slack = 1e-3``.  If the LP puts more than
    ``1e-3 delta`` on its tail variable ``t``, ``M`` grows by half; if the exact check finds
    ``sup delta = delta (1 - slack) + e`` above ``delta``, the next slack is ``2 e/delta + 0.01``
    (at most 0.9).
    """
    slack = SLACK
    last: Optional[float] = None
    for _ in range(ATTEMPTS):
        sol = solve_lp_rows(epsilon, delta * (1.0 - slack), m, M, bound_delta=delta)
        noise = PiecewiseUniform(width=sensitivity / m, weights=weights_from_masses(sol.q))
        if sol.t > TAIL * delta:
            M = int(M * 1.5) + m
            continue
        proven = noise.certified_sup_profile(epsilon, sensitivity)
        if proven <= delta:
            return noise, proven, sol
        last = proven
        slack = min(0.9, 2.0 * (proven - delta * (1.0 - slack)) / delta + 0.01)
    raise ArithmeticError(f"no exactly private primal at eps={epsilon}, delta={delta}, m={m}: "
                          f"the last proven sup delta was {last!r}, the last M {M}")
