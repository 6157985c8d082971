"""The sensitivity set of a query, resolved once from the arguments a user gives, in exact arithmetic.

A radius that a computation derives (sqrt(K) Delta, K Delta, sqrt(T) Delta_2, T Delta_1, ...) is an
upper bound of a norm over the set: rounded DOWN it would describe a smaller set, and noise
calibrated for it would be too little for the user's set (fhsym 0.2.0.dev0 certified pure Laplace
in 3-D against l1 radius fl(sqrt(3) * sqrt(3)) = 2.9999999999999996 < 3).  Every derived radius
here is the smallest double >= the exact real value, decided by exact rational comparison
(:class:`fractions.Fraction`): for r = sqrt(k) x, r >= sqrt(k) x  <=>  r^2 >= k x^2.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Callable, Dict, NamedTuple, Optional

from . import domains as V

__all__ = ["SensitivitySet", "resolve_sensitivities", "float_at_least", "mul_up", "mul_sqrt_up", "div_up",
           "div_sqrt_up", "composed_set"]


def _nearest_up(r: float, ok: Callable[[float], bool]) -> float:
    """The smallest double >= the exact value, given a float estimate ``r`` within a few ulps and the
    exact test ``ok(x)`` (x >= the exact value)."""
    if math.isnan(r):  # pragma: no cover - callers pass finite inputs
        raise ValueError("internal error: NaN radius")
    if math.isinf(r):
        return r
    while not ok(r):
        r = math.nextafter(r, math.inf)
        if math.isinf(r):
            return r
    while True:
        below = math.nextafter(r, -math.inf)
        if below > 0.0 and ok(below):
            r = below
        else:
            return r


def float_at_least(q: Fraction) -> float:
    """The smallest double >= the exact rational ``q`` (q >= 0); inf beyond the float range.

    >>> float_at_least(Fraction(1, 3)) >= Fraction(1, 3) > Fraction(math.nextafter(float_at_least(Fraction(1, 3)), 0))
    True
    """
    try:
        r = float(q)
    except OverflowError:
        return math.inf
    return _nearest_up(r, lambda x: Fraction(x) >= q)


def mul_up(x: float, k: int) -> float:
    """The smallest double >= k * x (x >= 0, k >= 1 an integer); inf if k x exceeds the float range.

    >>> mul_up(0.1, 3), 0.1 * 3
    (0.30000000000000004, 0.30000000000000004)
    >>> Fraction(mul_up(1e-300 / 3, 3)) >= 3 * Fraction(1e-300 / 3)
    True
    """
    exact = Fraction(x) * k
    return _nearest_up(x * k, lambda r: Fraction(r) >= exact)


def mul_sqrt_up(x: float, k: int) -> float:
    """The smallest double >= sqrt(k) * x (x >= 0, k >= 1); inf if it exceeds the float range.

    >>> mul_sqrt_up(math.sqrt(3.0), 3), math.sqrt(3.0) * math.sqrt(3.0)   # sqrt(3) fl(sqrt(3)) < 3
    (3.0, 2.9999999999999996)
    """
    exact_sq = Fraction(x) ** 2 * k
    return _nearest_up(math.sqrt(k) * x, lambda r: Fraction(r) ** 2 >= exact_sq)


def div_up(x: float, k: int) -> float:
    """The smallest double >= x / k (x >= 0, k >= 1 an integer).

    >>> div_up(1.0, 3) >= Fraction(1, 3)
    True
    """
    exact = Fraction(x) / k
    return _nearest_up(x / k, lambda r: Fraction(r) >= exact)


def div_sqrt_up(x: float, k: int) -> float:
    """The smallest double >= x / sqrt(k) (x >= 0, k >= 1).

    >>> Fraction(div_sqrt_up(1.0, 3)) ** 2 * 3 >= 1
    True
    """
    exact_sq = Fraction(x) ** 2 / k
    return _nearest_up(x / math.sqrt(k), lambda r: Fraction(r) ** 2 >= exact_sq)


class SensitivitySet(NamedTuple):
    """{d in R^dim : ||d||_inf <= sensitivity, ||d||_2 <= l2_sensitivity, ||d||_1 <= l1_sensitivity}."""

    dim: int
    sensitivity: float
    l2_sensitivity: float
    l1_sensitivity: float


def _finite_radius(value: float, name: str, what: str) -> float:
    if not math.isfinite(value):
        raise ValueError(f"{name} is too large: the derived radius {what} exceeds the float range (1.8e308); "
                         f"rescale the query (express it in larger units)")
    return value


def resolve_sensitivities(
    dim: int, sensitivity: Optional[float], l2_sensitivity: Optional[float], l1_sensitivity: Optional[float]
) -> SensitivitySet:
    """The sensitivity set as (K, Delta, Delta_2, Delta_1): every given sensitivity is used.

    The set of difference vectors is {d : ||d||_inf <= Delta, ||d||_2 <= Delta_2, ||d||_1 <= Delta_1},
    the intersection of the balls whose radii are given (``None`` = not given).

    * ``dim = 1``: the three norms coincide, so the given values must be equal (two that
      disagree raise ``ValueError`` naming both); the one value is the sensitivity.
    * ``dim = K > 1``: each bound implies the others (||d||_inf <= ||d||_2 <= ||d||_1 <=
      sqrt(K) ||d||_2 <= K ||d||_inf), so the returned radii are the tightest the given
      ones imply: Delta = min(given), Delta_2 = min(l2, sqrt(K) Delta, l1),
      Delta_1 = min(l1, sqrt(K) Delta_2, K Delta), each product rounded UP to a double (exact
      rational comparison), so the returned set contains the user's.  An l2 ball alone gives
      Delta = Delta_2.
    * none given: the unit box, Delta = 1.

    Examples
    --------
    >>> resolve_sensitivities(1, None, 2.0, None)
    SensitivitySet(dim=1, sensitivity=2.0, l2_sensitivity=2.0, l1_sensitivity=2.0)
    >>> tuple(resolve_sensitivities(4, None, 2.0, None))
    (4, 2.0, 2.0, 4.0)
    >>> tuple(resolve_sensitivities(3, 1.0, None, None))     # l1 radius 3 exactly (fl(sqrt 3 * sqrt 3) is below 3)
    (3, 1.0, 1.7320508075688774, 3.0)
    """
    K = V.check_int(dim, "dim", 1)
    given: Dict[str, float] = {}
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
        return SensitivitySet(1, D, D, D)
    D = min(given.values()) if given else 1.0  # ||d||_inf <= ||d||_2 <= ||d||_1
    name_D = min(given, key=lambda n: given[n]) if given else "sensitivity"
    D2 = min(given.get("l2_sensitivity", math.inf), mul_sqrt_up(D, K), given.get("l1_sensitivity", math.inf))
    D2 = _finite_radius(D2, name_D, f"sqrt(dim) * {D!r}")
    D1 = min(given.get("l1_sensitivity", math.inf), mul_sqrt_up(D2, K), mul_up(D, K))
    D1 = _finite_radius(D1, name_D, f"dim * {D!r}")
    return SensitivitySet(K, D, D2, D1)


def composed_set(s: SensitivitySet, compositions: int) -> SensitivitySet:
    """The set of the concatenated difference vector of ``compositions`` = T releases over ``s``.

    T releases of K coordinates are one K T-coordinate release over the product of the sets, which
    lies inside {||d||_inf <= Delta, ||d||_2 <= sqrt(T) Delta_2, ||d||_1 <= T Delta_1}: the radii
    rounded up (a superset, so a guarantee for it covers the product).

    >>> tuple(composed_set(resolve_sensitivities(2, 1.0, None, None), 3))
    (6, 1.0, 2.4494897427831783, 6.0)
    """
    T = V.check_int(compositions, "compositions", 1)
    if T == 1:
        return s
    D2 = _finite_radius(mul_sqrt_up(s.l2_sensitivity, T), "compositions", f"sqrt({T}) * {s.l2_sensitivity!r}")
    D1 = _finite_radius(mul_up(s.l1_sensitivity, T), "compositions", f"{T} * {s.l1_sensitivity!r}")
    return SensitivitySet(s.dim * T, s.sensitivity, D2, D1)
