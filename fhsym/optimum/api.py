"""A certified interval for the least variance of any additive (eps, delta)-DP noise in one dimension.

    V*(eps, delta, Delta) = inf { Var(T) : f(D) + T is (eps, delta)-DP whenever |f(D) - f(D')| <= Delta }

:func:`optimal_variance` returns ``lower <= V* <= upper``:

* ``lower``: the value of the quantised-output LP (:mod:`.lp`) certified by a dual solution checked
  in exact rationals (:mod:`.dual`), minus ``w^2/4``, times ``Delta^2``;
* ``upper``: the exact variance of an explicit piecewise-uniform noise (:mod:`.primal`) whose
  privacy at every shift ``|d| <= Delta`` is proven in exact rationals, or the proven variance of a closed-form law
  (the pure-DP staircase, the truncated staircase) where that is smaller.

``w = Delta/m`` with ``m`` bins per unit sensitivity (a power of two); ``upper - lower`` is about
``w^2/3``.  By default ``m`` is the smallest power of two with ``w^2/3 <= 2.5e-3 V`` (``V`` the pure-DP
staircase variance, within 1 % of ``V*`` in the cases measured), or larger while the LP keeps at
most :data:`CHEAP_COLUMNS` columns, and reduced until it has at most :data:`MAX_COLUMNS`; if the
interval is then wider than ``REFINE_PRIMAL`` (0.5 %), the grid is refined while the LP stays within
:data:`MAX_COLUMNS`; if the interval (its upper end the best proven law's) is still wider than ``REFINE`` (0.19 %),
its lower end comes from the dual of one restricted LP on a grid twice as fine (:func:`_sharpen`).  Literature:
Geng & Viswanath (2016) and Geng, Ding, Guo & Kumar (AISTATS 2019); the method and the proofs: ``docs/optimum.md``.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from flint import arb, ctx, fmpq

from .._core.arb.core import float_up
from ..noise.plans.piecewise_uniform import fraction_down, fraction_up
from .._core.domains import Domain, check_scalar
from ..noise.piecewise_uniform import PiecewiseUniform
from ..noise.staircase import Staircase, staircase_optimal_gamma
from ..noise.truncated_staircase import TruncatedStaircase
from .dual import DualCertificate
from .lp import QuantisedLP
from .primal import solve_private
from .rowgen import IterationBudget, finer_dual
from .recorded import Checked, checked, recheck, record_of, recorded_points
from .solve import LPSolution
from .transport import TRANSPORT_MIN_EPSILON, best_transport

__all__ = ["OptimumInterval", "optimal_variance", "calibrate_piecewise_uniform", "solve_calibration", "choose_grid",
           "MAX_COLUMNS", "staircase_variance_up", "smallest_epsilon", "compute_record", "NEAR"]

EPSILON = Domain("epsilon", 0.0, 20.0, closed_upper=True)
#: delta below 1e-12: the LP in units of delta has right-hand sides 1/delta beyond what HiGHS handles (1e-300: "Model error")
DELTA = Domain("delta", 1e-12, 1.0, closed_lower=True)
#: the variance scales with Delta^2: within [1e-100, 1e100] it stays inside the float range on the whole domain
SENSITIVITY = Domain("sensitivity", 1e-100, 1e100, closed_lower=True, closed_upper=True)
#: the largest LP at one bin per unit sensitivity: smaller epsilon (for its delta) is refused (the support grows ~ 1/eps)
SMALL_EPS_COLUMNS = 30_000
#: below it the staircase that sets the grid (variance ~ 2/eps^2) and the LP's costs leave the tested range
EPS_FLOOR = 1e-3
#: the largest LP (columns) the automatic grid will build
MAX_COLUMNS = 60_000
#: default target of (upper - lower)/lower from the grid alone
TARGET = 2.5e-3
#: finer grids are used while the LP stays this small (a few seconds)
CHEAP_COLUMNS = 20_000
#: with the automatic grid, an interval wider than this (upper/lower - 1) is solved again on a grid twice as fine
REFINE_PRIMAL = 5e-3
#: then an interval (its upper end the best proven law's: the LP noise or a closed-form law) still wider than this
#: gets its lower end from the dual of the LP on a grid twice as fine (:func:`_sharpen`): the target 0.2 % less a margin
REFINE = 1.9e-3
#: the dual simplex iterations :func:`_sharpen`'s restricted LP may take (deterministic, unlike a time limit); it is
#: not solved when it holds more than REFINE_ROWS rows.  Measured (2026-11-30, load ~2.4) between eps 3.25 and 3.9:
#: 6,583-9,925 rows, 7,088-9,259 iterations, 1.3-2.6 s
REFINE_ITERATIONS = 15_000
REFINE_ROWS = 12_000
MAX_BINS = 1 << 12


@dataclass(frozen=True)
class OptimumInterval:
    """``lower <= V*(eps, delta, Delta) <= upper`` with the noise at the upper end and the dual behind the lower.

    ``noise`` is the witness of ``upper``: (eps, delta)-DP for every ``|d| <= Delta`` (``proven_delta``
    bounds its worst profile, proven), with variance at most ``upper``.  It is the LP's piecewise-uniform
    noise (``upper`` its exact variance rounded up, ``noise.exact_variance()``) unless a closed-form law has a
    smaller proven variance: the pure-DP staircase at the optimal gamma (Geng & Viswanath;
    :func:`staircase_variance_up`) or the truncated staircase fhsym calibrates at (eps, delta)
    (:class:`~fhsym.noise.TruncatedStaircase`, its ``variance_upper()``); then ``noise`` is that law,
    ``proven_delta`` its proven worst profile at eps and ``upper`` its variance.  ``primal`` is the LP's
    piecewise-uniform noise (where the transport dual answers without an LP: a staircase on 8 bins per unit, proven
    private) and ``primal_upper`` its variance rounded up.
    ``dual`` is the certificate of the lower end at sensitivity 1 (re-check:
    ``dual.variance_bound() * Delta**2 >= lower``).  ``bins`` is the dual's ``m`` (bins per unit sensitivity of the
    LP behind the lower end), ``support`` its ``M``, ``lp_rows``/``lp_columns`` the size of that LP; ``primal`` may
    come from a coarser solve (its own ``width``: a record keeps the better end of two solves,
    :func:`.recorded.best_of`, and a point near the data takes the noise of another record).
    ``source``: ``"computed"`` (the LP solved now; ``"computed (the lower end on m bins per unit: ..."`` where the
    dual of the grid twice as fine, :func:`_sharpen`, ran out of its budget) or a text starting ``"recorded"`` (the records of
    ``fhsym/optimum/data`` at this eps: the one at this (eps, delta), or ``"recorded near"`` the neighbouring deltas';
    the dual and noise used re-checked in exact rationals), or ``"transport dual ..."`` (:mod:`.transport`: the lower end
    from a dual written down, no LP solved); a ``"; the lower end: transport dual"`` suffix where that dual proved more
    than the data or the LP.
    """

    epsilon: float
    delta: float
    sensitivity: float
    lower: float
    upper: float
    noise: Union[PiecewiseUniform, Staircase, TruncatedStaircase]
    proven_delta: float
    dual: DualCertificate
    bins: int
    support: int
    lp_rows: int
    lp_columns: int
    primal: PiecewiseUniform
    primal_upper: float
    source: str = "computed"

    @property
    def ratio(self) -> float:
        """``upper / lower`` (``inf`` if ``lower`` is 0)."""
        return self.upper / self.lower if self.lower > 0 else math.inf

    @property
    def width(self) -> float:
        """``upper / lower - 1``: the interval's width relative to its lower end (``inf`` if ``lower`` is 0)."""
        return self.ratio - 1.0

    def excess(self, variance: float) -> Tuple[float, float]:
        """The certified interval of ``variance / V* - 1``: (over ``upper``, clipped at 0; over ``lower``).

        >>> iv = optimal_variance(1.0, 1e-6, bins=2)
        >>> [round(x, 4) for x in iv.excess(2.0)]
        [0.0428, 0.0718]
        """
        hi = variance / self.lower - 1.0 if self.lower > 0 else math.inf
        return max(0.0, variance / self.upper - 1.0), hi

    def __str__(self) -> str:
        """One screen: the interval with its width, what proves each end; the fields hold everything.

        >>> print(optimal_variance(1.0, 1e-6, bins=2))  # doctest: +NORMALIZE_WHITESPACE
        least variance of additive (1, 1e-06)-DP noise at sensitivity 1: V* in [1.866038, 1.917856] (width 2.78 %)
          upper: TruncatedStaircase(epsilon=1.0, sensitivity=1.0, gamma=0.41673698237410295, bound=13.600740500733405), proven delta <= 1e-06
          lower: LP dual checked in exact rationals (2 bins per unit sensitivity, support 39 bins; 160 x 198 LP)
        """
        noise = (f"piecewise-uniform noise, {2 * len(self.noise.weights) - 1} bins of width {self.noise.width:g}"
                 if isinstance(self.noise, PiecewiseUniform) else repr(self.noise))
        return (f"least variance of additive ({self.epsilon:g}, {self.delta:g})-DP noise at sensitivity "
                f"{self.sensitivity:g}: V* in [{self.lower:.7g}, {self.upper:.7g}] (width {100.0 * self.width:.3g} %)\n"
                f"  upper: {noise}, proven delta <= {self.proven_delta:.3g}\n"
                f"  lower: LP dual checked in exact rationals ({self.bins} bins per unit sensitivity, support "
                f"{self.support} bins; {self.lp_rows} x {self.lp_columns} LP)"
                + ("" if self.source == "computed" else f"\n  from: {self.source}"))

    def __repr__(self) -> str:
        """:meth:`__str__` (not the dual's and the noises' arrays: ``dual``, ``noise``, ``primal`` hold them)."""
        return str(self) + "\n(an fhsym OptimumInterval: .lower, .upper, .noise, .dual, .primal, ...)"


def _check_bins(bins: object) -> int:
    if isinstance(bins, int) and not isinstance(bins, bool) and 1 <= bins <= MAX_BINS and bins & (bins - 1) == 0:
        return int(bins)
    raise ValueError(f"bins must be a power of two in [1, {MAX_BINS}] or None; got {bins!r}")


def _support(epsilon: float, delta: float, m: int) -> int:
    """``M``: 1.25 times the truncated-Laplace support ``log(1 + (e^eps - 1)/(2 delta))/eps`` in bins, plus ``2m``."""
    a = (math.log1p(math.expm1(epsilon) / (2.0 * delta)) if epsilon < 700 else epsilon - math.log(2.0 * delta)) / epsilon
    return int(math.ceil(1.25 * a * m)) + 2 * m


def _columns(m: int, M: int) -> int:
    return M + 2 + m * (2 * M + 1) - m * (m + 1) // 2 + m


def choose_grid(epsilon: float, delta: float, bins: Optional[int] = None) -> Tuple[int, int]:
    """``(m, M)``: bins per unit sensitivity and the LP's support (see the module docstring).

    >>> choose_grid(1.0, 1e-6), choose_grid(3.0, 1e-6)
    ((16, 306), (32, 279))
    """
    if bins is not None:
        m = _check_bins(bins)
        return m, _support(epsilon, delta, m)
    v = Staircase(epsilon, 1.0, staircase_optimal_gamma(epsilon)).var()
    m = 1
    while m < MAX_BINS and ((1.0 / m) ** 2 / 3.0 > TARGET * v
                            or _columns(2 * m, _support(epsilon, delta, 2 * m)) <= CHEAP_COLUMNS):
        m *= 2
    while m > 1 and _columns(m, _support(epsilon, delta, m)) > MAX_COLUMNS:
        m //= 2
    return m, _support(epsilon, delta, m)


def smallest_epsilon(delta: float) -> float:
    """The least supported epsilon at ``delta``: :data:`EPS_FLOOR` (1e-3), or more where the LP at one bin per unit
    sensitivity would have more than :data:`SMALL_EPS_COLUMNS` columns.

    The support ``M`` grows like ``log(1 + eps/(2 delta))/eps`` bins as eps -> 0 (the truncated Laplace's);
    below this epsilon the LP is refused.  Bisection in log(eps) on the (decreasing) column count; the
    returned value is on the accepted side.

    >>> smallest_epsilon(0.5), smallest_epsilon(1e-6), round(smallest_epsilon(1e-12), 5)
    (0.001, 0.001, 0.00263)
    """
    def fits(e: float) -> bool:
        return _columns(1, _support(e, delta, 1)) <= SMALL_EPS_COLUMNS

    if fits(EPS_FLOOR):
        return EPS_FLOOR
    lo, hi = math.log(EPS_FLOOR), math.log(EPSILON.upper)  # log eps: fits(e^hi) holds on the domain
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if fits(math.exp(mid)):
            hi = mid
        else:
            lo = mid
    return math.exp(hi)


def _validate(epsilon: float, delta: float, sensitivity: float) -> Tuple[float, float, float]:
    eps = check_scalar(epsilon, EPSILON)
    dl = check_scalar(delta, DELTA)
    sens = check_scalar(sensitivity, SENSITIVITY)
    if eps < EPS_FLOOR or _columns(1, _support(eps, dl, 1)) > SMALL_EPS_COLUMNS:
        least = smallest_epsilon(dl)
        raise ValueError(f"epsilon must be at least {least:.4g} for delta = {dl!r} (supported: epsilon in "
                         f"[{least:.4g}, {EPSILON.upper:g}] at this delta: at least {EPS_FLOOR:g}, and the "
                         f"optimum's LP at one bin per unit sensitivity at most {SMALL_EPS_COLUMNS} columns); "
                         f"got epsilon={epsilon!r}")
    return eps, dl, sens


def staircase_variance_up(st: Staircase) -> float:
    """A float >= the variance of ``st``, proven: the closed form of :mod:`fhsym.noise.staircase` in ball arithmetic.

    ``Var / Delta0^2 = b(1+b)/(1-b)^2 + [b(g^2 + b(1-g^2))/(1-b) + (g^3 + b(1-g^3))/3] / (g + (1-g) b)``,
    ``b = e^-eps0``, ``g = gamma``, at the noise's float parameters (exact rationals), 256 bits.

    >>> st = Staircase(6.0, 1.0, staircase_optimal_gamma(6.0))
    >>> v = staircase_variance_up(st); v, abs(v / st.var() - 1) < 1e-14
    (0.014105783386800191, True)
    """
    with ctx.workprec(256):
        e0, d0, g = (arb(fmpq(*Fraction(x).as_integer_ratio())) for x in (st.epsilon, st.sensitivity, st.gamma))
        b = (-e0).exp()
        omb = -(-e0).expm1()
        first = b * (1 + b) / (omb * omb)
        second = (b * (g * g + b * (1 - g * g)) / omb + (g ** 3 + b * (1 - g ** 3)) / 3) / (g + (1 - g) * b)
        return float_up(d0 * d0 * (first + second))


def _exact_width(sens: float, m: int) -> None:
    if Fraction(sens / m) * m != Fraction(sens):
        raise ValueError(f"sensitivity must be at least {m} * 2^-1074 so that sensitivity/bins is exact; got {sens!r}")


def _solve(eps: float, dl: float, sens: float, bins: Optional[int]) -> Tuple[PiecewiseUniform, float, LPSolution]:
    """The LP's noise made private (:func:`.primal.solve_private`: proven in exact rationals), its proven delta and the
    LP solution; with the automatic grid, the grid is refined while the interval is wider than REFINE."""
    m, M = choose_grid(eps, dl, bins)
    while True:
        _exact_width(sens, m)
        noise, proven, sol = solve_private(eps, dl, sens, m, M)
        w2 = 1.0 / (m * m)
        low, up = sol.value - w2 / 4.0, sol.value + w2 / 12.0  # the interval's ends at Delta = 1, to float accuracy
        if (bins is not None or m >= MAX_BINS or (low > 0 and up <= (1.0 + REFINE_PRIMAL) * low)
                or _columns(2 * m, _support(eps, dl, 2 * m)) > MAX_COLUMNS):
            return noise, proven, sol
        m *= 2
        M = _support(eps, dl, m)


def _sharpen(eps: float, dl: float, sens: float, sol: LPSolution, upper: float
             ) -> Tuple[LPSolution, str, Fraction]:
    """The LP solution behind the lower end, ``source`` and its exact bound at Delta = 1: ``sol``, or where
    ``upper / lower - 1`` (``upper`` the interval's upper end at ``sens``) is above :data:`REFINE`, the dual of the LP
    on a grid twice as fine (:func:`.rowgen.finer_dual`: one restricted LP from the rows of ``sol``'s dual, at most
    :data:`REFINE_ITERATIONS` dual simplex iterations and :data:`REFINE_ROWS` rows) where it proves more.
    Deterministic: the budget counts iterations, not time; where it runs out ``sol`` is kept and ``source`` says so."""
    bound = sol.dual.variance_bound()  # exact rationals, once per dual
    lower = fraction_down(bound * Fraction(sens) ** 2)
    m2 = 2 * sol.dual.m
    M2 = _support(eps, dl, m2)
    if (lower > 0 and upper <= (1.0 + REFINE) * lower) or m2 > MAX_BINS:
        return sol, "computed", bound
    try:
        fine = finer_dual(eps, dl, sol, M2, REFINE_ITERATIONS, REFINE_ROWS)
        fine_bound = fine.dual.variance_bound()
    except IterationBudget as exc:
        return sol, f"computed (the lower end on {sol.dual.m} bins per unit: {exc})", bound
    except (ArithmeticError, ValueError) as exc:  # HiGHS failed on the finer LP, or its dual is not finite: the
        # coarse bound is proven already, so it is kept rather than failing the call
        return sol, (f"computed (the lower end on {sol.dual.m} bins per unit: the finer LP failed: "
                     f"{type(exc).__name__}: {exc})"), bound
    return (fine, "computed", fine_bound) if fine_bound > bound else (sol, "computed", bound)


def calibrate_piecewise_uniform(epsilon: float, delta: float, sensitivity: float = 1.0, *,
                                bins: Optional[int] = None) -> Tuple[PiecewiseUniform, float]:
    """The near-optimal noise of :func:`optimal_variance` (its upper end) and its proven delta.

    Returns ``(noise, proven)`` with ``proven >= sup_{0 < d <= Delta} delta(eps; d)`` proven in exact
    rationals and ``proven <= delta``.  With the automatic grid (``bins=None``) at a recorded (eps, delta) the
    recorded noise is returned, its privacy re-proven now (:func:`fhsym.optimum.recorded.checked`; milliseconds);
    elsewhere the LP is solved.

    >>> noise, proven = calibrate_piecewise_uniform(1.0, 1e-6, bins=2)
    >>> proven <= 1e-6, noise.width, round(noise.var(), 3)
    (True, 0.5, 1.949)
    """
    eps, dl, sens = _validate(epsilon, delta, sensitivity)
    if bins is None:
        hit = _recorded(eps, dl, sens)
        if hit is not None:
            return hit[0], hit[1]
    noise, proven, _ = _solve(eps, dl, sens, bins)
    return noise, proven


def solve_calibration(epsilon: float, delta: float, sensitivity: float, bins: Optional[int] = None
                      ) -> Tuple[Callable[[float], PiecewiseUniform], float]:
    """The solver :func:`fhsym.calibrate` uses for ``mechanism="piecewise_uniform"``: (width -> noise with the
    weights of :func:`calibrate_piecewise_uniform`, its width), which the ``"profile-1d"`` claim then certifies.

    >>> make, width = solve_calibration(1.0, 1e-6, 1.0, bins=2)
    >>> width, round(make(width).var(), 3)
    (0.5, 1.949)
    """
    noise, _ = calibrate_piecewise_uniform(epsilon, delta, sensitivity, bins=bins)
    weights = noise.weights
    return (lambda w: PiecewiseUniform(w, weights)), noise.width


def _usable(eps: float, dl: float) -> Optional[Checked]:
    """The record at (eps, dl) re-checked, if it is one this module can use (sensitivity 1, its noise private at
    dl by the re-check, a non-empty interval, the noise's width a power of two); else None."""
    try:
        chk = checked(eps, dl)
    except (OSError, ValueError, KeyError, TypeError, ArithmeticError):
        return None  # an unreadable or malformed data file: the LP is the answer
    if chk is None:
        return None
    rec, res = chk.record, chk.result
    w = Fraction(chk.noise.width)
    if (rec.get("sensitivity") != 1.0 or res.proven_delta > dl or not 0 < res.lower <= res.upper
            or w.numerator != 1 or w.denominator & (w.denominator - 1)):  # a width 2^-k: scaled exactly by sens
        return None
    return chk


def _at_sensitivity(chk: Checked, eps: float, dl: float, sens: float) -> Optional[Tuple[PiecewiseUniform, float]]:
    """The recorded noise at sensitivity ``sens`` (width times ``sens``: exact, a power of two times sens) and its
    proven delta (the re-checked one at sens = 1, else proven again at sens), or None if that is above ``dl``.
    The noise's width is its own (``recorded.best_of`` may keep a noise from a coarser solve than the dual's)."""
    if sens == 1.0:
        return chk.noise, chk.result.proven_delta
    width = sens * chk.noise.width
    if Fraction(width) != Fraction(sens) * Fraction(chk.noise.width):
        return None
    noise = PiecewiseUniform(width, chk.noise.weights)
    proven = noise.certified_sup_profile(eps, sens)
    return (noise, proven) if proven <= dl else None


def _recorded(eps: float, dl: float, sens: float) -> Optional[Tuple[PiecewiseUniform, float, Fraction, Checked]]:
    """The record at (eps, dl) re-checked for sensitivity ``sens``: ``(noise, proven delta, exact lower bound at
    sens, the checked record)``, or None (no record, or one whose re-check does not give a valid interval: then the
    caller solves the LP)."""
    chk = _usable(eps, dl)
    at = None if chk is None else _at_sensitivity(chk, eps, dl, sens)
    if chk is None or at is None:
        return None
    return at[0], at[1], chk.bound * Fraction(sens) ** 2, chk


#: a point near the data (the same epsilon, another delta) is answered from the neighbouring records when the
#: interval they give is at most this wide (upper/lower - 1); else the LP is solved
NEAR = 2e-3


def _tangent(chk: Checked, dl: float) -> Tuple[Fraction, DualCertificate]:
    """The recorded dual relabelled with ``dl`` and its proven lower bound on V*(eps, dl, 1) (per unit sensitivity:
    the caller scales it by ``sens**2``): exactly ``replace(chk.dual, delta=dl).variance_bound()``.

    A dual solution is feasible for every right-hand side, and ``A(delta) = y + delta sum_j min(z_j, 0) - W``
    (:class:`.dual.DualCertificate`; ``W`` the worst loss, or ``W(U)`` of a capped dual, both independent of delta) is
    affine in delta; the bound is ``B(delta) = max(0, A(delta) - w^2/4)``, or ``max(0, min(U, A(delta)) - w^2/4)``
    capped.  ``chk.bound`` is ``B(delta_rec) sens_rec^2`` (:func:`.recorded.recheck`): divided by ``sens_rec^2`` it is
    ``B(delta_rec)``.  Where that is positive and (capped) below ``U - w^2/4``, it equals ``A(delta_rec) - w^2/4``, so
    ``B(dl) = max(0, min(U - w^2/4, B(delta_rec) + (dl - delta_rec) sum_j min(z_j, 0)))``, exactly (no LP data
    re-read).  Elsewhere (the recorded bound at 0, or at the cap: ``A(delta_rec)`` is not known from it) the dual is
    evaluated at ``dl`` directly.  Both routes give the same exact rational (``tests/optimum``)."""
    dual = replace(chk.dual, delta=dl)
    s = Fraction(chk.record["sensitivity"])
    if s <= 0:
        return dual.variance_bound(), dual
    own = chk.bound / (s * s)  # B(delta_rec): per unit sensitivity, as the dual's LP is
    w2 = Fraction(1, 4 * chk.dual.m ** 2)
    top = None if chk.dual.cap is None else Fraction(chk.dual.cap) - w2
    if own > 0 and (top is None or own < top):
        zsum = sum((min(Fraction(v), Fraction(0)) for v in chk.dual.z), Fraction(0))
        at = own + (Fraction(dl) - Fraction(chk.dual.delta)) * zsum
        if top is not None:
            at = min(at, top)
        return max(Fraction(0), at), dual
    return dual.variance_bound(), dual


def _near(eps: float, dl: float, sens: float
          ) -> Optional[Tuple[PiecewiseUniform, float, Fraction, DualCertificate, Checked, str]]:
    """The interval from every record at the same eps (none: None; the caller then solves the LP).

    Lower end: the best of their duals evaluated at ``dl`` (:func:`_tangent`; V* decreases in delta, and a dual
    recorded at a larger delta, often on a finer grid, can beat the record at ``dl`` itself).  Upper end: the
    least variance among their noises recorded at deltas at most ``dl`` (each private at its delta, so at ``dl``).
    ``source`` starts ``"recorded"`` when (eps, dl) itself is recorded, ``"recorded near"`` otherwise."""
    try:
        deltas = sorted(d for e, d in recorded_points() if e == eps)
    except (OSError, ValueError):
        return None
    chks = {d: c for d in deltas for c in [_usable(eps, d)] if c is not None}
    noises = []
    for d, chk in chks.items():
        if d <= dl:
            at = _at_sensitivity(chk, eps, dl, sens)
            if at is not None:
                noises.append((at[0].exact_variance(), d, at))
    if not noises:
        return None
    _, noise_delta, (noise, proven) = min(noises, key=lambda x: x[0])
    bound, dual, chk = max(((*_tangent(c, dl), c) for c in chks.values()), key=lambda x: x[0])
    kind = "recorded" if dl in chks else "recorded near"
    source = (f"{kind}: fhsym/optimum/data at eps={eps:g}, the noise of delta={noise_delta:g} and the dual of "
              f"delta={chk.dual.delta:g} evaluated at delta={dl:g}, both re-checked in exact rationals")
    return noise, proven, bound * Fraction(sens) ** 2, dual, chk, source


def _truncated_staircase(eps: float, delta: float, sens: float) -> Optional[TruncatedStaircase]:
    """The truncated staircase of its closed-form design at (eps, delta) (~1 ms), its bound raised (a larger bound
    carries less delta) until its proven worst profile is at most delta, as the calibrator's ``closed-1d`` plan
    does; None where the law is not defined (delta >= 1/2, or eps too small for its bounded exact profile)."""
    try:
        built = TruncatedStaircase.closed_calibration(eps, delta, sens)
    except ValueError:
        return None
    if built is None:
        return None
    make, bound = built
    for k in range(-1, 40):
        ts = make(bound if k < 0 else bound * (1.0 + 1e-12 * 2.0 ** k))
        if isinstance(ts, TruncatedStaircase) and ts.worst_profile_enclosure(eps, sens).upper <= delta:
            return ts
    return None


#: ``source`` of an interval whose lower end is the transport dual (:mod:`.transport`)
TRANSPORT_SOURCE = "transport dual (fhsym.optimum.transport; checked in exact rationals)"
#: bins per unit of the lattice staircase that is the ``primal`` beside a transport dual
COARSE_BINS = 8


def _coarse_primal(eps: float, dl: float, sens: float) -> Tuple[PiecewiseUniform, float]:
    """The ``primal`` where the transport dual gives the lower end and no LP is solved: a staircase on 8 bins per unit
    (:func:`_lattice_staircase`, microseconds), proven private; the closed-form laws are the upper end there.  (The
    LP's noise on 8, 16 and 32 bins took 0.01-0.13 s where it passed its exact check, and failed it at (13.7, 1e-12)
    and (20, 1e-10) on 8 bins after seconds of retries.)"""
    _exact_width(sens, COARSE_BINS)
    return _lattice_staircase(eps, dl, sens, COARSE_BINS)


def _lattice_staircase(eps: float, dl: float, sens: float, m: int) -> Tuple[PiecewiseUniform, float]:
    """A staircase on the lattice of ``m`` bins per unit, proven private (:func:`_coarse_primal`).  Weights ``n_0 = 2^60`` on the centre
    bin, then ``m`` bins per ring with ``n_l = ceil(n_(l-1) / rho)``, ``rho <= e^eps`` (so a bin shifted by at most
    ``Delta`` meets a weight at least its own over ``e^eps``), until a ring holds at most ``delta / 2``; the support's
    edge is then all a shift can charge.  Its privacy is proven by ``certified_sup_profile`` all the same."""
    rho = Fraction(math.exp(eps) * (1.0 - 1e-9))
    levels = [1 << 60]
    while True:
        nxt = -((-levels[-1] * rho.denominator) // rho.numerator)  # ceil(n / rho)
        levels.append(nxt)
        total = levels[0] + 2 * m * sum(levels[1:])
        if Fraction(m * nxt, total) <= Fraction(dl) / 2 or len(levels) > 200:
            break
    weights = tuple([levels[0]] + [lev for lev in levels[1:] for _ in range(m)])
    noise = PiecewiseUniform(sens / m, weights)
    proven = noise.certified_sup_profile(eps, sens)
    if proven > dl:
        raise ArithmeticError(f"no private lattice staircase at eps={eps}, delta={dl}: proven {proven!r}")
    return noise, proven


def optimal_variance(epsilon: float, delta: float, sensitivity: float = 1.0, *,
                     bins: Optional[int] = None, recorded: Optional[bool] = None,
                     transport: Optional[bool] = None) -> OptimumInterval:
    """A certified interval ``[lower, upper]`` holding the least variance of any additive (eps, delta)-DP noise.

    ``V* = inf Var(T)`` over all noise laws ``T`` such that ``f(D) + T`` is (eps, delta)-DP for
    every pair with ``|f(D) - f(D')| <= Delta`` (``sensitivity``).  ``lower`` is proven by weak
    duality with a dual solution checked in exact rationals (``V* >= L - w^2/4``, ``L`` the certified
    LP value, ``w = Delta/m``); ``upper = Var(noise)`` of an explicit piecewise-uniform noise
    proven private in exact rationals, or the proven variance of a closed-form law (the pure-DP staircase, the
    truncated staircase) where that is smaller (:class:`OptimumInterval`); ``upper - lower ~ w^2/3``.
    ``bins`` (``m``, a power of two) overrides the automatic grid.  With the automatic grid and ``recorded``
    (``None``, the default, or ``True``; ``True`` with ``bins`` is refused: the data hold no other grid), a point of ``fhsym/optimum/data`` (the frontier's 1-D grid: :func:`fhsym.optimum.recorded.recorded_points`)
    is answered from its record, whose dual and noise are re-checked in exact rationals before anything is returned
    (``source`` starts ``"recorded"``; tens of milliseconds the first time, memoised by the record's digest after
    that).  Where that interval is wider than :data:`NEAR` (0.2 %), and at a recorded epsilon with another delta,
    every record at that epsilon contributes: the least-variance noise among those recorded at deltas at most delta
    (private there, so at delta) and the best of their duals evaluated at delta (a dual is feasible for every delta;
    its bound is affine in delta); another delta is answered so only if the interval is within :data:`NEAR`
    (``source`` starts ``"recorded near"``).  ``recorded=False`` never reads the data file.  With the automatic grid
    and ``transport`` (``None``, the default, or ``True``) at eps >= 4, where the data does not answer within 0.2 %,
    a dual of the LP on a fine grid is written down without solving it (:mod:`.transport`; checked in exact
    rationals like a solved one): if the best closed-form law is within 0.2 % of its bound no LP is solved
    (``source`` starts ``"transport dual"``, the ``primal`` a staircase on 8 bins per unit, proven private), else the
    lower end is the larger of the two proven bounds.  ``transport=True`` tries the dual also where the data answer
    within 0.2 % (its bound replaces the lower end where it proves more); ``transport=False`` keeps the data and the
    LP alone; ``transport=True`` is refused where the dual is never tried (eps < 4, or ``bins`` given).

    Domain: ``epsilon`` in (0, 20] and at least :func:`smallest_epsilon` (delta) (1e-3 for delta >= 1e-6, 1.4e-3 at 1e-8,
    2.6e-3 at 1e-12: the LP's support grows like log(1/delta)/eps), ``delta`` in [1e-12, 1), ``sensitivity`` in
    [1e-100, 1e100]; outside it ``ValueError`` names the parameter and its range.  Method, proofs and
    sources (Geng & Viswanath 2016; Geng, Ding, Guo & Kumar 2019): ``docs/optimum.md``.

    >>> import fhsym
    >>> iv = fhsym.optimal_variance(1.0, 1e-6, bins=2)
    >>> iv.lower <= 1.9178 <= iv.upper      # at the upper end: the truncated staircase's 1.91786
    True
    >>> round(iv.lower, 3), round(iv.upper, 3), iv.bins, iv.proven_delta <= 1e-6
    (1.866, 1.918, 2, True)
    >>> type(iv.noise).__name__, round(iv.primal_upper, 3)     # 2 bins: a closed-form law is below the LP's noise
    ('TruncatedStaircase', 1.949)
    """
    eps, dl, sens = _validate(epsilon, delta, sensitivity)
    if recorded is not None and not isinstance(recorded, bool):
        raise ValueError(f"recorded must be None, True or False; got {recorded!r}")
    if recorded is True and bins is not None:  # the data are read only on the automatic grid
        raise ValueError(f"recorded=True applies only with the automatic grid (bins=None): the data file holds no "
                         f"other grid; got bins = {bins!r} (leave recorded=None)")
    recorded = recorded is not False
    if transport is not None and not isinstance(transport, bool):
        raise ValueError(f"transport must be None, True or False; got {transport!r}")
    if transport is True and (bins is not None or eps < TRANSPORT_MIN_EPSILON):
        raise ValueError(f"transport=True applies only with the automatic grid (bins=None) at epsilon >= "
                         f"{TRANSPORT_MIN_EPSILON:g}; got epsilon = {eps!r}, bins = {bins!r} (leave transport=None)")
    # the closed-form laws: each a candidate for the upper end where its proven worst profile is <= delta
    closed: List[Tuple[float, float, Union[Staircase, TruncatedStaircase]]] = []
    st = Staircase(eps, sens, staircase_optimal_gamma(eps))  # pure eps-DP for |d| <= Delta (Geng & Viswanath)
    closed.append((staircase_variance_up(st), st.worst_profile_enclosure(eps, sens).upper, st))
    ts = _truncated_staircase(eps, dl, sens)
    if ts is not None:
        closed.append((ts.variance_upper(), ts.worst_profile_enclosure(eps, sens).upper, ts))
    closed = sorted((c for c in closed if c[1] <= dl), key=lambda c: c[0])
    best_st = closed[0][0] if closed else math.inf

    def narrow(noise: PiecewiseUniform, exact_lower: Fraction) -> bool:
        up = min(fraction_up(noise.exact_variance()), best_st)
        return exact_lower > 0 and up <= (1.0 + NEAR) * fraction_down(exact_lower)

    hit = _recorded(eps, dl, sens) if recorded and bins is None else None
    near = None
    if recorded and bins is None and (hit is None or not narrow(hit[0], hit[2])):
        near = _near(eps, dl, sens)  # the other records at this eps: a recorded point's own is wider than NEAR
        if near is not None and hit is None and not narrow(near[0], near[2]):
            near = None  # not recorded, and the neighbours are too far apart: the LP
    data = hit if near is None else near
    moved: Optional[Tuple[Fraction, DualCertificate]] = None  # the transport dual's bound at sens, and the dual
    # transport=True: the dual is tried even where the data answer within NEAR (it may prove more: at eps = 5,
    # delta = 1e-6 its bound is 4.3e-4 relative above the recorded dual's); None tries it only where they do not
    wanted = transport is True or (transport is None and (data is None or not narrow(data[0], data[2])))
    if wanted and bins is None and eps >= TRANSPORT_MIN_EPSILON:
        t_bound, t_dual = best_transport(eps, dl)
        moved = (t_bound * Fraction(sens) ** 2, t_dual)
    if hit is not None and near is None:
        primal, primal_proven, exact_lower, chk = hit
        dual, source = chk.dual, "recorded (fhsym/optimum/data; dual and noise re-checked in exact rationals)"
        rows, cols = int(chk.record["lp_rows"]), int(chk.record["lp_columns"])
    elif near is not None:
        primal, primal_proven, exact_lower, dual, chk, source = near
        rows, cols = int(chk.record["lp_rows"]), int(chk.record["lp_columns"])
    elif moved is not None and moved[0] > 0 and best_st <= (1.0 + NEAR) * fraction_down(moved[0]):
        primal, primal_proven = _coarse_primal(eps, dl, sens)
        exact_lower, dual, source = moved[0], moved[1], TRANSPORT_SOURCE
        lp = QuantisedLP(m=dual.m, M=dual.M, r=dual.r, delta=dl)
        rows, cols = lp.n_rows + 1, lp.n_cols
    else:
        primal, primal_proven, sol = _solve(eps, dl, sens, bins)
        if bins is None:  # the lower end from a grid twice as fine where the interval is wider than REFINE
            sol, source, bound = _sharpen(eps, dl, sens, sol, min(fraction_up(primal.exact_variance()), best_st))
        else:
            source, bound = "computed", sol.dual.variance_bound()
        dual = sol.dual
        exact_lower = bound * Fraction(sens) ** 2
        rows, cols = sol.n_rows, sol.n_cols
    if moved is not None and moved[0] > exact_lower:  # the transport dual proves more than the data or the LP
        exact_lower, dual, source = moved[0], moved[1], f"{source}; the lower end: {TRANSPORT_SOURCE}"
        lp = QuantisedLP(m=dual.m, M=dual.M, r=dual.r, delta=dl)
        rows, cols = lp.n_rows + 1, lp.n_cols
    lower = fraction_down(exact_lower)
    m = dual.m
    primal_upper = fraction_up(primal.exact_variance())
    noise: Union[PiecewiseUniform, Staircase, TruncatedStaircase] = primal
    upper, proven = primal_upper, primal_proven
    if closed and closed[0][0] < upper:
        upper, proven, noise = closed[0]
    return OptimumInterval(epsilon=eps, delta=dl, sensitivity=sens, lower=lower, upper=upper, noise=noise,
                           proven_delta=proven, dual=dual, bins=m, support=dual.M, lp_rows=rows,
                           lp_columns=cols, primal=primal, primal_upper=primal_upper, source=source)


def compute_record(epsilon: float, delta: float, bins: Optional[int] = None) -> Dict[str, Any]:
    """The record at (epsilon, delta), computed now (the LP, never the data file): one task of the frontier's sweep
    runner (:func:`fhsym.applications.frontier.optimum_grid_task`; ``scripts/optimum_table.py --grid frontier``).
    ``bins`` overrides the automatic grid (``scripts/optimum_table.py --bins``)."""
    t0 = time.perf_counter()
    iv = optimal_variance(epsilon, delta, recorded=False, bins=bins, transport=False)
    rec = record_of(iv, time.perf_counter() - t0)
    chk = recheck(rec)
    if (chk.lower, chk.upper) != (rec["lower"], rec["upper"]) or chk.proven_delta > delta:
        raise ArithmeticError(f"the record at eps={epsilon}, delta={delta} does not re-check: {chk}")
    return rec
