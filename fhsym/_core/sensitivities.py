"""The sensitivity set of a query, resolved once from the arguments a user gives."""

from __future__ import annotations

import math
from typing import Optional, Tuple

from . import domains as V

__all__ = ["resolve_sensitivities"]


def resolve_sensitivities(
    dim: int, sensitivity: Optional[float], l2_sensitivity: Optional[float], l1_sensitivity: Optional[float]
) -> Tuple[int, float, float, float]:
    """The sensitivity set as (K, Delta, Delta_2, Delta_1): every given sensitivity is used.

    The set of difference vectors is {d : ||d||_inf <= Delta, ||d||_2 <= Delta_2, ||d||_1 <= Delta_1},
    the intersection of the balls whose radii are given (``None`` = not given).

    * ``dim = 1``: the three norms coincide, so the given values must be equal (two that
      disagree raise ``ValueError`` naming both); the one value is the sensitivity.
    * ``dim = K > 1``: each bound implies the others (||d||_inf <= ||d||_2 <= ||d||_1 <=
      sqrt(K) ||d||_2 <= K ||d||_inf), so the returned radii are the tightest the given
      ones imply: Delta = min(given), Delta_2 = min(l2, sqrt(K) Delta, l1),
      Delta_1 = min(l1, sqrt(K) Delta_2, K Delta).  An l2 ball alone gives Delta = Delta_2.
    * none given: the unit box, Delta = 1.

    Examples
    --------
    >>> resolve_sensitivities(1, None, 2.0, None)
    (1, 2.0, 2.0, 2.0)
    >>> resolve_sensitivities(4, None, 2.0, None)
    (4, 2.0, 2.0, 4.0)
    >>> resolve_sensitivities(4, 1.0, None, None)
    (4, 1.0, 2.0, 4.0)
    """
    K = V.check_int(dim, "dim", 1)
    given = {}
    for name, val, dom in (("sensitivity", sensitivity, V.SENSITIVITY), ("l2_sensitivity", l2_sensitivity, V.L2_SENSITIVITY),
                           ("l1_sensitivity", l1_sensitivity, V.L1_SENSITIVITY)):
        if val is not None:
            given[name] = V.check_scalar(val, dom)
    if K == 1:
        names = list(given)
        for other in names[1:]:
            if given[other] != given[names[0]]:
                raise ValueError(
                    f"in one dimension the l_inf, l2 and l1 sensitivities are the same number, but "
                    f"{names[0]}={given[names[0]]!r} and {other}={given[other]!r} disagree; give one of them")
        D = given[names[0]] if names else 1.0
        return 1, D, D, D
    if not given:
        D = 1.0
    else:
        D = min(given.values())  # ||d||_inf <= ||d||_2 <= ||d||_1
    D2 = min(given.get("l2_sensitivity", math.inf), math.sqrt(K) * D, given.get("l1_sensitivity", math.inf))
    D1 = min(given.get("l1_sensitivity", math.inf), math.sqrt(K) * D2, K * D)
    return K, D, D2, D1
