"""Staircase mechanism (Geng & Viswanath, IEEE Trans. Inf. Theory 62(2), 2016).

Declared once as a step pattern (``fhsym/symbolic/laws/staircase.py``, issue 28): logpdf, sf, ``P(0 < T <= x)``,
the quantile per step, the variance, ``E|T|^n`` (n <= 6), the entropy and the profile (its lattice form at
``Delta <= Delta0``, its per-period form beyond) are the forms :mod:`fhsym.symbolic.steps` derives, printed into
``fhsym/_generated/declared/staircase.py`` (``python -m proofs --only step_staircase``).  This class finds the period
and the step of a point (in absolute units, exact for the double ``w``), splits a shift into whole periods and a
fraction in exact rationals, and keeps by hand: the variance in log space at eps0 >= 600, moments n > 6, the
certificate plan, the sampler.  The formulas below are what the derivation gives.

Formula
-------
With design privacy ``eps0``, design sensitivity ``Delta0``, ``b = e^{-eps0}``
and ``gamma in [0, 1]`` the density is constant on steps::

    g(t) = a                   0 <= |t| < gamma Delta0
         = a b                 gamma Delta0 <= |t| < Delta0
         = b^k g(|t| - k Delta0)   k Delta0 <= |t| < (k+1) Delta0,
    a = (1 - b) / (2 Delta0 (gamma + (1 - gamma) b)),

i.e. ``g(t) = a b^{l(|t|)}`` with the step index ``l(x) = floor(x/Delta0) +
[x - floor(x/Delta0) Delta0 >= gamma Delta0]``.  It is ``eps0``-DP for
sensitivity ``Delta0`` for every ``gamma``.

Variance (derived from the geometric sums, all terms positive, so stable as
``eps0 -> 0`` with ``1 - b = -expm1(-eps0)``)::

    Var / Delta0^2 = b (1 + b)/(1 - b)^2
                     + [b (gamma^2 + b (1 - gamma^2))/(1 - b) + (gamma^3 + b (1 - gamma^3))/3]
                       / (gamma + (1 - gamma) b).

Optimal ``gamma`` (Geng & Viswanath 2016, Section V): for the noise power
(cost ``x^2``) setting ``dVar/dgamma = 0`` gives the cubic
``2(1-b)^2 g^3 + 6b(1-b) g^2 + 6b^2 g - (2b^2 + b) = 0`` whose real root is
``gamma* = ((b(1+b)/2)^{1/3} - b)/(1 - b)`` (equal to the paper's
``-b/(1-b) + (b - 2b^2 + 2b^4 - b^5)^{1/3} / (2^{1/3} (1-b)^2)``) and
``Var* = Delta0^2 (2^{-2/3} b^{2/3} (1+b)^{2/3} + b) / (1-b)^2``;
evaluated as ``expm1(z)/expm1(eps0)`` with ``z = (eps0 + log((1+e^eps0)/2))/3``.
For the noise magnitude (cost ``|x|``) the optimum is
``gamma = 1/(1 + e^{eps0/2})``.

Moments and entropy (derived here from the geometric sums, all terms positive; ``w = gamma
Delta0``, ``S_j = sum_k k^j b^k = b A_j(b)/(1 - b)^{j+1}`` with the Eulerian polynomial ``A_j``)::

    E|T|^n = 2a sum_{j=0}^n C(n, j) Delta0^j S_j [w^{n-j+1} + b (Delta0^{n-j+1} - w^{n-j+1})]/(n - j + 1),
    h      = -log a + eps0 b Delta0 / ((1 - b) (w + (Delta0 - w) b))    (= -log a + eps0 E[l(|T|)]).

Exact profile for any query sensitivity ``Delta`` (derived): the
integrand ``[g(t) - e^eps g(t+Delta)]_+`` is piecewise constant, so
``delta(eps) = sum_n W_n [1 - exp(eps - n eps0)]_+`` over the step
differences ``n = l(|t+Delta|) - l(|t|)``.  For ``Delta <= Delta0`` the
weights are ``fhsym.symbolic.steps.profile_weights``; beyond, with
``Delta/Delta0 = p + f`` (split in exact rationals), on ``t >= 0`` the
difference is ``p + m`` with a mass ``head_m(f)`` and on ``-Delta < t < 0``
period j of ``|t|`` adds ``r^j block_c(f)`` at ``p + c - 2j``, summed over
the j with a positive term in closed form
(``fhsym.symbolic.steps.profile_periods``): O(1) in Delta, up to 2^52
periods.  The cells' overlaps are exact (rational f, W), every exponent
``eps - n eps0`` an exact double-double product: 2.8e-16 worst relative
error against the definition's 50-digit piece sums at 468 points up to
10^6 periods (``tests/test_step_laws.py``).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Callable, Dict, List, Optional, Tuple, Type

import numpy as np
from flint import fmpq

from .._generated.declared import staircase as _gen
from .._core.random import Rng
from .._core.types import BoolArray, FloatArray
from .._core.arb import Enclosure, Plan
from .._core.domains import Domain, check_scalar
from .._core.doubledouble import int_times
from .base import NoiseDistribution
from .plans.staircase import staircase_plan_of
from .staircase_composed import search as search_composed

__all__ = ["Staircase", "staircase_optimal_gamma"]

POS_EPSILON = Domain("epsilon", 0.0, math.inf, typical=(0.2, 3.0))

GAMMA01 = Domain("gamma", 0.0, 1.0, closed_lower=True, closed_upper=True, typical=(0.1, 0.9))
STAIR_SENS = Domain("sensitivity", 0.0, math.inf, typical=(0.5, 2.0))
_MAX_PERIODS = 2**52  # whole periods of a shift (the printed C and JAX profile's range)
_LOG_TINY = math.log(2.2250738585072014e-308)
#: the float sampler draws the period index with P(k >= 1) = e^-eps0; below 2^-53 a float draw cannot realise it
#: (every draw stays in the first period, and the output shows the input): it refuses above this epsilon
FLOAT_SAMPLER_MAX_EPSILON = 53.0 * math.log(2.0)


def _power_sum(j: int, b: float, omb: float) -> float:
    """sum_{k >= 0} k^j b^k = sum_m A(j, m) b^{m+1} / (1 - b)^{j+1} (Eulerian numbers A; 1/(1 - b) at j = 0)."""
    if j == 0:
        return 1.0 / omb
    row = [1]  # A(1, m)
    for i in range(2, j + 1):
        row = [(m + 1) * (row[m] if m < len(row) else 0) + (i - m) * (row[m - 1] if m >= 1 else 0) for m in range(i)]
    poly = 0.0
    for coef in reversed(row):  # Horner: sum_m A(j, m) b^m
        poly = poly * b + coef
    return b * poly / omb ** (j + 1)


def staircase_optimal_gamma(epsilon: float, cost: str = "variance") -> float:
    """Geng & Viswanath's optimal ``gamma`` for ``cost='variance'`` (x^2) or ``'magnitude'`` (|x|)."""
    eps = check_scalar(epsilon, POS_EPSILON)
    if cost == "variance":
        z = (eps + (np.logaddexp(0.0, eps) - math.log(2.0))) / 3.0
        return float(math.exp(z - eps) * -math.expm1(-z) / -math.expm1(-eps))
    if cost == "magnitude":
        return float(math.exp(-np.logaddexp(0.0, eps / 2.0)))
    raise ValueError(f"cost must be 'variance' or 'magnitude'; got {cost!r}")


#: (class, epsilon, delta, folds, cost) -> (eps0, gamma): the memo of :func:`_composed_design` (at most 256 entries)
_DESIGNS: Dict[Tuple[Any, ...], Tuple[float, float]] = {}


def _composed_design(cls: Type["Staircase"], epsilon: float, delta: float, folds: int,
                     cost: str) -> Tuple[float, float]:
    """(eps0, gamma) of :meth:`Staircase.sup_calibration` at unit sensitivity (the search is scale-free: the
    sensitivity only scales the law it returns), memoised: a calibration at several sensitivities, or ``auto``
    trying the plan again, searches once.  Deterministic floats, so the memo changes no result."""
    key = (cls, epsilon, delta, folds, cost)
    if key not in _DESIGNS:
        if len(_DESIGNS) >= 256:
            _DESIGNS.clear()
        _DESIGNS[key] = search_composed(epsilon, delta, folds, lambda e, g: cls(e, 1.0, g).var(),
                                        lambda e: staircase_optimal_gamma(e, cost), shapes=cost == "variance")
    return _DESIGNS[key]


class Staircase(NoiseDistribution):
    """Staircase noise, ``eps0``-DP for sensitivity ``Delta0``.

    Parameters
    ----------
    epsilon : float in (0, inf)
        Design privacy ``eps0``.
    sensitivity : float in (0, inf)
        Design sensitivity ``Delta0`` (period of the staircase).
    gamma : float in [0, 1] or None
        Relative width of the first step; ``None`` selects the
        variance-optimal ``gamma*`` (see :func:`staircase_optimal_gamma`).

    The step edge is the double ``w = gamma * Delta0``; the density, profile
    and variance are exact for that ``w``.

    Formulas: see the module docstring.  ``centered_privacy_loss(t, d) =
    eps0 (l(|t + d/2|) - l(|t - d/2|))`` (right-continuous steps).

    Examples
    --------
    >>> st = Staircase(epsilon=1.0, sensitivity=1.0)
    >>> float(st.privacy_profile(1.0)), float(st.privacy_profile(0.5)) > 0
    (0.0, True)
    """

    name = "staircase"
    display_name = "staircase"
    parameter_domains = (POS_EPSILON, STAIR_SENS, GAMMA01)

    def __init__(self, epsilon: float, sensitivity: float = 1.0, gamma: float | None = None) -> None:
        self.epsilon = check_scalar(epsilon, POS_EPSILON)
        self.sensitivity = check_scalar(sensitivity, STAIR_SENS)
        if gamma is None:
            gamma = staircase_optimal_gamma(self.epsilon)
        self.gamma = check_scalar(gamma, GAMMA01)
        self.width = self.gamma * self.sensitivity
        self._b = math.exp(-self.epsilon)
        self._omb = -math.expm1(-self.epsilon)  # 1 - b
        d0, w, b = self.sensitivity, self.width, self._b
        # a = (1 - b) / (2 (w + (d0 - w) b)): the density of the first step
        mass = w + (d0 - w) * b
        self._a = self._omb / (2.0 * mass) if mass > 0.0 else math.inf
        if not math.isfinite(self._a):
            raise ValueError(
                f"epsilon must be smaller for a staircase with gamma={self.gamma!r} and sensitivity={self.sensitivity!r}: "
                f"its first step (width gamma * sensitivity = {w!r}) carries probability 1 - O(e^-epsilon) on a width "
                f"the float range cannot represent (density {self._a!r}); got epsilon={self.epsilon!r}")
        self._W = self.width / self.sensitivity  # the first step in units of Delta0 (the generated module's W)
        self._cache: dict[float, tuple[FloatArray, FloatArray]] = {}
        self._far_cache: Dict[float, Tuple[int, Dict[int, float], Dict[int, float]]] = {}

    # -- mechanism facts
    log_concave = False  # a step density: the corner argument of the K-fold claims does not apply

    def _arb_plan(self, eps: fmpq, sensitivity: fmpq) -> Plan:
        return staircase_plan_of(eps, sensitivity, self.epsilon, self.sensitivity, self.width)

    def _precise_view(self, digits: Optional[int], bits: Optional[int], ball: bool) -> Any:
        from .precise_step_laws import StaircaseAtPrecision  # at_precision's view of this law (issue 29)

        return StaircaseAtPrecision(self, digits, bits=bits, ball=ball)

    def pure_loss(self, dim: int, sensitivity: float, l2_sensitivity: float, l1_sensitivity: float) -> Optional[Fraction]:
        # eps0-DP for every |d_i| <= Delta0 (Geng & Viswanath), and pure DP adds up over the dim coordinates
        return dim * Fraction(self.epsilon) if sensitivity <= self.sensitivity else None

    def loss_atoms(self, sensitivity: float) -> Tuple[Fraction, ...]:
        """eps0, exactly, for 0 < Delta <= Delta0: the loss of a shift d <= Delta0 takes only -eps0, 0 and eps0
        (:meth:`worst_profile_enclosure`), eps0 with probability >= 1/2; none claimed beyond Delta0.

        >>> Staircase(0.5, 1.0, 0.3).loss_atoms(1.0), Staircase(0.5, 1.0, 0.3).loss_atoms(2.0)
        ((Fraction(1, 2),), ())
        """
        return (Fraction(self.epsilon),) if 0.0 < sensitivity <= self.sensitivity else ()

    def _check_shift_range(self, sensitivity: float) -> None:
        if not (0.0 < sensitivity <= self.sensitivity):
            raise ValueError(f"sensitivity must be in (0, {self.sensitivity!r}] (the staircase's design sensitivity "
                             f"Delta0) for its sup over the shifts; got {sensitivity!r}")

    def worst_profile_enclosure(self, epsilon: float, sensitivity: float = 1.0) -> Enclosure:
        """A proven enclosure of ``sup_{0 < d <= Delta} delta(eps; d)`` for ``Delta <= Delta0``: the profile at Delta.

        Lemma (derived here; checked against an independent quadrature in tests/test_frontier_staircase.py).
        The level ``l(x)`` of ``|t|`` jumps by one at the edges ``e_k = k Delta0 + w`` only, Delta0 apart, and
        ``g(t + d) = g(t) e^{-n eps0}`` with ``n = l(|t + d|) - l(|t|)``.  For ``0 < d <= Delta0``:
        on ``t >= 0``, ``n = #{k : t < e_k <= t + d}`` is 0 or 1 (an interval of length <= Delta0);
        on ``t <= -d`` the point moves towards 0 and ``n <= 0``; on ``-d < t < 0`` both ``|t|`` and
        ``|t + d|`` are below Delta0, so ``n = [t + d >= w] - [-t >= w]``.  So the loss takes only
        ``-eps0, 0, eps0`` and ``delta(eps; d) = P(A_d) (1 - e^{eps - eps0})_+`` for ``eps >= 0``, with
        ``A_d = {t : n = 1} = U_k [e_k - d, e_k) n [0, inf)  U  [max(w - d, -w), 0)`` (the second part
        when d > w): every piece grows with d, so ``A_d`` does, and the profile is non-decreasing in
        ``d``: the supremum over ``0 < d <= Delta`` is the profile at Delta.  (For ``eps < 0`` the same
        holds through ``delta(eps) = 1 - e^eps + e^eps delta(-eps)``, the pair being symmetric.)

        >>> st = Staircase(1.0, 1.0, 0.3)
        >>> st.worst_profile_enclosure(0.5, 0.8) == st.profile_enclosure(0.5, 0.8)
        True
        """
        self._check_shift_range(sensitivity)
        return self.profile_enclosure(epsilon, sensitivity)

    def worst_profile_upper_ends(self, epsilons: Any, sensitivity: float, *, rel_width: float = 2.0**-40,
                                 max_prec: int = 1024) -> List[Tuple[int, int]]:
        """Upper ends of :meth:`worst_profile_enclosure`'s balls at many epsilons, exactly, as ``(man, exp)`` pairs
        (the nodes of a proven PLD that dominates every shift ``|d| <= Delta``, ``Delta <= Delta0``)."""
        self._check_shift_range(sensitivity)
        return self.profile_upper_ends(epsilons, sensitivity, rel_width=rel_width, max_prec=max_prec)

    def loss_range(self, sensitivity: float) -> Optional[Fraction]:
        # level differences are at most ceil(Delta/Delta0) + 1
        return (math.ceil(Fraction(sensitivity) / Fraction(self.sensitivity)) + 1) * Fraction(self.epsilon)

    @property
    def family_scale(self) -> float:
        return self.sensitivity

    @classmethod
    def from_family(cls, shape: float, scale: float) -> "Staircase":
        raise ValueError("the staircase is not a scale family in fhsym's calibrator: it is built in closed form")

    calibration_methods = ("auto", "pure")

    @classmethod
    def pure_calibration(cls, epsilon: float, dim: int, sensitivity: float, l2_sensitivity: float,  # type: ignore[override]  # its one option (cost), read by the calibrator from this signature
                         l1_sensitivity: float, compositions: int, cost: str = "variance"
                         ) -> Optional[Tuple[Callable[[float], Any], float]]:
        """The variance-optimal (``cost="variance"``) or magnitude-optimal staircase (Geng & Viswanath 2016) with
        design eps0 = the largest double with dim * compositions * eps0 <= epsilon (basic composition of pure DP)
        and design sensitivity Delta0 = the l_inf sensitivity."""
        if not epsilon > 0:
            raise ValueError(f"epsilon must be a finite real number in (0, inf) for the staircase (pure DP); got {epsilon!r}")
        n = dim * compositions
        eps0 = epsilon / n
        while n * Fraction(eps0) > Fraction(epsilon):  # the division rounded up: step down
            eps0 = math.nextafter(eps0, 0.0)
        gamma = staircase_optimal_gamma(eps0, cost)
        return (lambda s: cls(eps0, s, gamma)), sensitivity

    @classmethod
    def sup_calibration(cls, epsilon: float, delta: float, folds: int, sensitivity: float,  # type: ignore[override]  # its one option (cost), read by the calibrator from this signature
                        cost: str = "variance") -> Optional[Tuple[Callable[[float], Any], float]]:
        """The staircase of ``folds`` = K T >= 2 compositions over the box of half-width ``sensitivity`` = Delta0,
        searched by its float composed bound (:mod:`fhsym.noise.staircase_composed`): (r -> the staircase at
        design eps0 / r, 1.0), r >= 1 adding noise; the ``"pld-kfold-sup"`` claim certifies it.  ``cost="variance"``
        searches the shape gamma = c gamma*(eps0) too; ``"magnitude"`` keeps the magnitude-optimal gamma(eps0)."""
        staircase_optimal_gamma(1.0, cost)  # ValueError naming cost
        e0, gamma = _composed_design(cls, epsilon, delta, folds, cost)
        return (lambda r: cls(e0 / r, sensitivity, gamma)), 1.0

    # -- step index ---------------------------------------------------------
    def _level(self, x: FloatArray) -> FloatArray:
        ax = np.abs(x)
        k = np.floor(ax / self.sensitivity)
        r = ax - k * self.sensitivity
        # guard against r slightly outside [0, Delta0) from rounding
        k = np.where(r < 0, k - 1, np.where(r >= self.sensitivity, k + 1, k))
        r = ax - k * self.sensitivity
        return k + (r >= self.width)

    def _var(self) -> float:
        g, e0 = self.gamma, self.epsilon
        if e0 < 600.0 and (g == 0.0 or g > 1e-90):  # no term underflows: the derived form (generated module)
            return self.sensitivity**2 * float(_gen.variance(e0, self._W))
        b, omb = self._b, self._omb
        # the same sum in log space (b = e^-eps0 and g^3 underflow at large eps0; the variance, ~ e^{-2 eps0/3}
        # Delta0^2, does not): every term is positive, log b = -eps0 exactly
        with np.errstate(divide="ignore"):
            lg = np.log(g)
            l_omb = math.log(omb)
            terms = [-e0 + 2.0 * lg - l_omb, -2.0 * e0 + np.log1p(-g * g) - l_omb, 3.0 * lg - math.log(3.0),
                     -e0 + np.log1p(-g**3) - math.log(3.0)]
            log_second = float(np.logaddexp.reduce(terms) - np.logaddexp(lg, np.log1p(-g) - e0))
            log_first = -e0 + math.log1p(b) - 2.0 * l_omb
        log_var = 2.0 * math.log(self.sensitivity) + float(np.logaddexp(log_first, log_second))
        return math.exp(log_var) if log_var > _LOG_TINY else 0.0  # 0: below the float range (var() refuses it)

    def _cells(self, ax: FloatArray) -> Tuple[FloatArray, FloatArray, FloatArray, BoolArray]:
        """(k, a, v, outer) of ``|x| = k Delta0 + r``: the period, the distances below the upper edge and above the lower
        edge of r's step (units of Delta0: the generated module's a, v), the outer step (``r >= w``); edges are
        compared and subtracted in absolute units, exact for the double ``w``."""
        d0, w = self.sensitivity, self.width
        k = np.floor(ax / d0)
        r = ax - k * d0
        k = np.where(r < 0, k - 1, np.where(r >= d0, k + 1, k))  # guard against rounding out of [0, Delta0)
        r = np.clip(ax - k * d0, 0.0, d0)
        outer = r >= w
        return k, np.where(outer, d0 - r, w - r) / d0, np.where(outer, r - w, r) / d0, outer

    def _logpdf(self, x: FloatArray) -> FloatArray:
        k, _, _, outer = self._cells(np.abs(x))
        e0, W = self.epsilon, self._W
        with np.errstate(invalid="ignore"):
            out = np.where(outer, _gen.logpdf_1(k, e0, W), _gen.logpdf_0(k, e0, W)) - math.log(self.sensitivity)
        return np.where(np.isinf(x), -np.inf, out)

    def _sf(self, x: FloatArray) -> FloatArray:
        ax = np.abs(x)
        k, a, _, outer = self._cells(ax)
        e0, W = self.epsilon, self._W
        with np.errstate(invalid="ignore", under="ignore"):
            tail = np.where(outer, _gen.sf_1(k, a, e0, W), _gen.sf_0(k, a, e0, W))
        tail = np.where(np.isinf(ax), 0.0, tail)
        return np.where(x >= 0, tail, 1.0 - tail)

    # -- profile ----------------------------------------------------------------
    def _weights(self, d: float) -> tuple[FloatArray, FloatArray]:
        """Integer step differences ``n`` and their weights ``W_n`` for ``0 < d <= Delta0`` (cached per ``d``)."""
        cached = self._cache.get(d)
        if cached is not None:
            return cached
        # the derived lattice form (fhsym.symbolic.steps.profile_weights, generated): the shift and the step in units
        # of Delta0 as exact rationals, so the cells' overlaps (min/max of linear forms such as W + d - 1) are exact
        du, Wq = Fraction(d) / Fraction(self.sensitivity), Fraction(self.width) / Fraction(self.sensitivity)
        ns = np.array(sorted(_gen.PROFILE_WEIGHTS), dtype=float)
        ws = np.array([float(_gen.PROFILE_WEIGHTS[int(n)](du, self.epsilon, Wq)) for n in ns])
        result = (ns[ws > 0.0], ws[ws > 0.0])
        if len(self._cache) < 64:
            self._cache[d] = result
        return result

    def _far(self, d: float) -> Tuple[int, Dict[int, float], Dict[int, float]]:
        """``d > Delta0``: ``(p, head, block)`` of the derived per-period form (fhsym.symbolic.steps.profile_periods,
        generated): ``d/Delta0 = p + f`` split in exact rationals (``p`` whole periods, ``0 <= f < 1``; the float
        ``d/Delta0 - p`` would carry ``ulp(p)`` into f), the masses ``head[m](f)``,
        ``block[c](f)`` with their cells' overlaps exact (cached per ``d``)."""
        cached = self._far_cache.get(d)
        if cached is not None:
            return cached
        FD = Fraction(d) / Fraction(self.sensitivity)
        p = math.floor(FD)
        if p > _MAX_PERIODS:
            raise ValueError(f"sensitivity must be at most 2^52 = {_MAX_PERIODS} times the design sensitivity "
                             f"{self.sensitivity!r} for the staircase profile; got {d!r}")
        f, Wq = FD - p, Fraction(self.width) / Fraction(self.sensitivity)
        head = {m: float(fn(f, self.epsilon, Wq)) for m, fn in _gen.PROFILE_HEAD.items()}
        block = {c: float(fn(f, self.epsilon, Wq)) for c, fn in _gen.PROFILE_BLOCK.items()}
        result = (p, {m: v for m, v in head.items() if v > 0.0}, {c: v for c, v in block.items() if v > 0.0})
        if len(self._far_cache) < 64:
            self._far_cache[d] = result
        return result

    def _sub_prod(self, eps: FloatArray, n: int) -> FloatArray:
        """``eps - n eps0`` with ``n eps0`` an exact double-double: its sign is exact (zero only where ``n eps0`` is
        the double eps), its value within an ulp."""
        p, e = int_times(n, self.epsilon)
        return (eps - p) - e

    def _far_profile(self, eps: FloatArray, d: float) -> FloatArray:
        """delta(eps; p + f) = sum_m head_m(f) (1 - e^(eps - (p + m) eps0))_+ + sum_c block_c(f) run(J_c)
        (1 - e^(eps - (p + c + 1 - J_c) eps0)) (fhsym.symbolic.steps.profile_periods; every term non-negative), J_c the
        number of j = 0 .. p-1 with (p + c - 2j) eps0 > eps, counted in exact rationals."""
        p, head, block = self._far(d)
        out = np.zeros(eps.shape)
        with np.errstate(under="ignore"):
            for m, h in head.items():
                x = self._sub_prod(eps, p + m)
                out += np.where(x < 0.0, h * -np.expm1(np.minimum(x, 0.0)), 0.0)
            if block:
                E0 = Fraction(self.epsilon)
                for i, e in enumerate(eps):
                    ratio = Fraction(float(e)) / E0
                    for c, bc in block.items():
                        # j < J iff j < (N - eps/eps0)/2: J = clamp(ceil((N - eps/eps0)/2), 0, p), exactly
                        J = min(max(math.ceil((p + c - ratio) / 2), 0), p)
                        if J > 0:  # N + 1 - J: the mean of the run's level differences, > eps/eps0 (proofs profile_run)
                            # clamped at -800 (e^-800 = 0 in doubles) before the float conversion (no overflow)
                            y = float(max(Fraction(float(e)) - (p + c + 1 - J) * E0, Fraction(-800)))
                            out[i] += bc * float(_gen.profile_run(J, self.epsilon)) * -math.expm1(y)
        return out

    def _profile(self, eps: FloatArray, d: float) -> FloatArray:
        flat = np.asarray(eps, dtype=float).reshape(-1)
        if float(d) > self.sensitivity:
            return self._far_profile(flat, float(d)).reshape(np.shape(eps))
        ns, ws = self._weights(float(d))
        res = np.zeros(flat.shape)
        for n, wgt in zip(ns, ws):
            diff = self._sub_prod(flat, int(n))  # eps - n eps0 (exact double-double product)
            res += np.where(diff < 0, wgt * -np.expm1(diff), 0.0)
        return res.reshape(np.shape(eps))

    def _isf(self, q: FloatArray) -> FloatArray:
        """Invert sf on x >= 0 (q <= 1/2) period by period (the derived quantile per cell, generated module)."""
        d0, e0, W = self.sensitivity, self.epsilon, self._W
        p = np.where(q <= 0.5, q, 1.0 - q)  # the upper tail mass
        with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
            # sf(k D0) = b^k / 2: the period k holds p when b^(k+1)/2 < p <= b^k/2
            k = np.floor(_gen.period(p, e0, W))
            k = np.where(np.isfinite(k), np.maximum(k, 0.0), 0.0)
            inner = p >= _gen.sf_0(k, 0.0, e0, W)  # at or above the tail at the edge w: the first step of period k
            # the distance below the step's upper edge (w or Delta0) where the tail is p
            a = np.where(inner, _gen.isf_0(k, p, e0, W), _gen.isf_1(k, p, e0, W))
            r = np.where(inner, self.width - np.clip(a, 0.0, W) * d0, d0 - np.clip(a, 0.0, 1.0 - W) * d0)
            x = k * d0 + np.clip(r, 0.0, d0)
        x = np.where(p == 0.0, np.inf, x)
        return np.where(q <= 0.5, x, -x)

    def _centered_privacy_loss(self, t: FloatArray, d: FloatArray) -> FloatArray:
        with np.errstate(invalid="ignore"):
            out = self.epsilon * (self._level(t + 0.5 * d) - self._level(t - 0.5 * d))
        return np.where(d == 0, 0.0, np.nan_to_num(out, nan=0.0))

    # -- moments, entropy ---------------------------------------------------------
    def _moment(self, n: int) -> float:
        """E|T|^n: the derived form for n <= 6 (generated); beyond, the same sum by Eulerian numbers (positive terms):
        2a sum_j C(n, j) D0^j S_j [w^{m} + b (D0^{m} - w^{m})]/m, m = n - j + 1."""
        if n in _gen.MOMENTS:
            return self.sensitivity**n * float(_gen.MOMENTS[n](self.epsilon, self._W))
        d0, w, b, omb = self.sensitivity, self.width, self._b, self._omb
        total = 0.0
        for j in range(n + 1):
            m = n - j + 1
            piece = (w**m + b * (d0**m - w**m)) / m
            total += math.comb(n, j) * d0**j * _power_sum(j, b, omb) * piece
        return 2.0 * self._a * total

    def _entropy(self) -> float:
        # h = log(Z Delta0) - E[log g] (the derived form: -log a + eps0 E[l(|T|)])
        return float(_gen.entropy(self.epsilon, self._W)) + math.log(self.sensitivity)

    def _half_mass(self, x: FloatArray) -> FloatArray:
        # P(0 < T <= x) = (1 - b^k)/2 + b^k (a min(r, w) + a b [r - w]_+),  x = k D0 + r  (derived, generated)
        k, _, v, outer = self._cells(x)
        e0, W = self.epsilon, self._W
        with np.errstate(under="ignore"):
            out: FloatArray = np.where(outer, _gen.half_1(k, v, e0, W), _gen.half_0(k, v, e0, W))
        return out

    def _kinks(self) -> Tuple[float, ...]:
        # the step edges k D0 and k D0 + w up to the 1e-32 tail quantile, at most 1000 periods
        top = float(self.isf(1e-32))
        kmax = min(int(top / self.sensitivity) + 1, 1000)
        edges = [k * self.sensitivity + e for k in range(kmax + 1) for e in (0.0, self.width)]
        return tuple(sorted({x for x in edges if x > 0.0}))

    def _rvs(self, rng: Rng, size: Tuple[int, ...]) -> FloatArray:  # size: the sample shape
        if self.epsilon > FLOAT_SAMPLER_MAX_EPSILON:
            raise ValueError(
                f"epsilon must be <= {FLOAT_SAMPLER_MAX_EPSILON:.4g} (53 log 2) for the floating-point staircase sampler; "
                f"got {self.epsilon!r}: the probability e^-epsilon of leaving the first step is below 2^-53, so every float "
                f"draw would stay within {self.width:.3g} of 0 and the output would reveal the input (docs/security.md). "
                f"Use the exact lattice sampler instead: fhsym.release(..., secure=True, step=...)")
        d0, w = self.sensitivity, self.width
        b = self._b
        sign = np.where(rng.random(size) < 0.5, -1.0, 1.0)
        geo = rng.geometric(self._omb, size) - 1.0  # P(G = k) = (1 - b) b^k
        u = rng.random(size)
        p_first = w / (w + (d0 - w) * b)
        first = rng.random(size) < p_first
        mag = np.where(first, geo * d0 + w * u, geo * d0 + w + (d0 - w) * u)
        return sign * mag

