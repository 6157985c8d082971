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
           "div_sqrt_up", "sqrt_up", "box_l1_l2_max", "composed_set"]


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


def sqrt_up(q: Fraction) -> float:
    """The smallest double >= sqrt(q) (q >= 0 an exact rational); inf beyond the float range.

    >>> sqrt_up(Fraction(10)), sqrt_up(Fraction(0))
    (3.1622776601683795, 0.0)
    """
    if q < 0:  # pragma: no cover - callers pass squares
        raise ValueError(f"internal error: sqrt_up of a negative number {q!r}")
    if q == 0:
        return 0.0
    e = q.numerator.bit_length() - q.denominator.bit_length()  # q ~ 2^e
    s = -(e // 2)  # q 4^s ~ 1: its float is finite and normal whatever the size of q
    try:
        est = math.ldexp(math.sqrt(float(q * Fraction(4) ** s)), -s)
    except OverflowError:
        return math.inf
    return _nearest_up(est, lambda r: Fraction(r) ** 2 >= q)


def box_l1_l2_max(D: float, l1: Optional[float], K: int) -> float:
    """The largest l2 norm over {d in R^K : ||d||_inf <= D, ||d||_1 <= l1} (``l1`` None: no l1 ball), rounded up.

    Exactly ``sqrt(k D^2 + r^2)`` with ``k = min(K, floor(l1 / D))``, ``r = l1 - k D`` if ``k < K``
    else 0 (proof: :func:`resolve_sensitivities`), computed in exact rationals and rounded up.

    >>> box_l1_l2_max(1.0, 10.0, 30), box_l1_l2_max(1.0, 1.5, 4), box_l1_l2_max(1.0, None, 4)
    (3.1622776601683795, 1.118033988749895, 2.0)
    """
    d = Fraction(D)
    if l1 is None or Fraction(l1) >= K * d:
        return mul_sqrt_up(D, K)
    c = Fraction(l1)
    k = math.floor(c / d)
    r = c - k * d
    return sqrt_up(k * d * d + r * r)


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
    * ``dim = K > 1``: the returned radii are the exact maxima of the three norms over the set
      (the tightest radii it implies), each rounded UP to the nearest double by exact rational
      comparison, so the returned set is the user's set.  With ``a``, ``b``, ``c`` the given l_inf,
      l2, l1 radii (``inf`` if not given):

      - ``Delta = min(a, b, c)``;
      - ``Delta_2 = min(b, sqrt(k Delta^2 + r^2))`` with ``k = min(K, floor(c / Delta))`` and
        ``r = c - k Delta`` if ``k < K``, else ``r = 0`` (no l1 ball: ``sqrt(K) Delta``);
      - ``Delta_1 = min(c, K Delta, sqrt(K) b)``.

      Proof.  Write ``B`` for the box ``|d_i| <= Delta``; the set is ``S = B ∩ {||d||_2 <= b} ∩
      {||d||_1 <= c}`` (``Delta <= a`` and the other two balls bound ``|d_i|`` by ``b`` and ``c``, so
      ``Delta = min(a, b, c)`` loses nothing; ``Delta e_1`` is in ``S``, so it is the maximum of
      ``||d||_inf``).  Two facts: (i) if ``C`` is convex, contains 0 and ``f`` is a norm whose maximum
      over ``C`` is ``m``, then the maximum over ``C ∩ {f <= t}`` is ``min(t, m)`` (the segment from 0 to
      a maximiser stays in ``C`` and ``f`` runs continuously from 0 to ``m`` along it); (ii) norms here
      depend on ``|d_i|`` only, so it suffices to take ``x_i = |d_i| >= 0``.  l2: over
      ``C = B ∩ {||d||_1 <= c}``, ``sum x_i^2`` is Schur-convex and any ``x`` in ``[0, Delta]^K`` with
      ``sum x_i = s <= c`` is majorised by ``v(s) = (Delta, ..., Delta, s - j Delta, 0, ...)``
      (``j = floor(s / Delta)`` full coordinates, capped at ``K``), whose ``sum v_i^2`` grows with ``s``;
      ``v(min(c, K Delta))`` lies in ``C``, so the maximum is ``k Delta^2 + r^2``, and (i) adds the l2
      ball.  l1: over ``C = B ∩ {||d||_2 <= b}``, ``sum x_i`` is linear and ``C`` is convex and
      invariant under permuting coordinates, so the average of the permutations of a maximiser, the
      constant vector ``(t, ..., t)``, is a maximiser; the largest feasible ``t`` is
      ``min(Delta, b / sqrt(K))``, giving ``min(K Delta, sqrt(K) b)``, and (i) adds the l1 ball.
      Resolving a resolved set returns it unchanged (its radii are maxima over the same set).
      An l2 ball alone gives ``Delta = Delta_2``; a box of side 1 with ``l1_sensitivity = 10`` in
      30 dimensions has ``Delta_2 = sqrt(10)`` (not ``sqrt(30)``).
    * none given: the unit box, Delta = 1.

    Examples
    --------
    >>> resolve_sensitivities(1, None, 2.0, None)
    SensitivitySet(dim=1, sensitivity=2.0, l2_sensitivity=2.0, l1_sensitivity=2.0)
    >>> tuple(resolve_sensitivities(4, None, 2.0, None))
    (4, 2.0, 2.0, 4.0)
    >>> tuple(resolve_sensitivities(3, 1.0, None, None))     # l1 radius 3 exactly (fl(sqrt 3 * sqrt 3) is below 3)
    (3, 1.0, 1.7320508075688774, 3.0)
    >>> tuple(resolve_sensitivities(30, 1.0, None, 10.0))    # box and l1 ball: l2 radius sqrt(10)
    (30, 1.0, 3.1622776601683795, 10.0)
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
    b, c = given.get("l2_sensitivity"), given.get("l1_sensitivity")
    D2 = min(math.inf if b is None else b, box_l1_l2_max(D, c, K))
    D2 = _finite_radius(D2, name_D, f"sqrt(dim) * {D!r}")
    D1 = min(math.inf if c is None else c, mul_up(D, K), math.inf if b is None else mul_sqrt_up(b, K))
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
