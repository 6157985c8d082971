"""Truncated staircase: the staircase of Geng & Viswanath cut at ``+-B`` so that the cut carries delta.

Declared once as a step pattern cut at ``beta = K + rho`` periods (``fhsym/symbolic/laws/truncated_staircase.py``,
issue 28): logpdf, sf (from the top down), ``P(0 < T <= x)``, the quantile, the normaliser ``H(beta)``, the
variance's per-period summands and the profile beyond one period are the forms :mod:`fhsym.symbolic.steps` derives,
printed into ``fhsym/_generated/declared/truncated_staircase.py`` (``python -m proofs --only
step_truncated_staircase``).  The profile at shifts up to one period (exact closed form), the design search and the
certificate plan stay here and in :mod:`fhsym.noise.plans.truncated_staircase`.

Why this law
------------
The primal solutions of the optimum's linear program (:mod:`fhsym.optimum`) are, at every recorded point, a
staircase with ratio ``e^-eps`` per period ``Delta`` whose support ends at a finite ``B``: the mass of the outermost
window ``(B - Delta, B]`` is exactly delta (the part of the output that the shifted law cannot produce).  Geng,
Ding, Guo & Kumar (AISTATS 2019/2020) truncate the Laplace law the same way; the staircase's steps are what makes
it optimal at eps >= 1 (docs/optimum.md).  fhsym calls it ``truncated_staircase``.

Formula
-------
Design privacy ``eps0``, period (design sensitivity) ``Delta0``, first step ``w = fl(gamma Delta0)``, bound
``B >= Delta0``; ``b = e^{-eps0}``, level ``l(x) = #{k >= 0 : k Delta0 + w <= x}``::

    g(t) = b^{l(|t|)} / (2 Delta0 H(B/Delta0))      |t| <= B,  0 outside,
    H(x) = m (1 - b^K)/(1 - b) + b^K c(r)            x = K + r (0 <= r < 1),  m = W + b (1 - W),
    c(r) = min(r, W) + b [r - W]_+,                 W = w/Delta0.

CDF: ``P(0 < T <= x) = H(x/Delta0)/(2 H(beta))``, ``beta = B/Delta0``; the upper tail is formed from the top down
as a sum of non-negative terms and inverted period by period (quantile).  Variance ``Delta0^2 S2(beta)/H(beta)``,
``S2(x) = int_0^x y^2 b^{l(y)} dy`` (:func:`fhsym.noise.plans.truncated_staircase.ts_variance`).

Profile (derived here, proven in ``proofs/truncated_staircase.py``).  For ``0 < d <= Delta0 <= B`` and
``eps >= 0``, ``delta(eps; d) = P(T > B - d) + (1 - e^{eps - eps0})_+ P(A_d)``: on ``t > B - d`` the shifted
density is 0 (infinite loss); elsewhere in the support the loss is ``eps0 n`` with ``n in {-1, 0, 1}`` (the
staircase's lemma: an interval of length ``<= Delta0`` holds at most one edge), and ``A_d = {n = 1}`` is
``U_k [e_k - d, e_k) n [0, B - d]`` and ``[max(w - d, -w), 0)`` (``d > w``).  Pointwise in t the integrand
``[g(t) - e^eps g(t + d)]_+`` does not decrease with d (on ``t >= 0`` the density is non-increasing up to the cut;
on ``t < 0`` the set ``A_d`` grows with d and ``t + d <= d <= B``), so the supremum over ``0 < d <= Delta`` is the
profile at Delta: :meth:`TruncatedStaircase.worst_profile_enclosure`.  Calibrated with ``eps0 = eps`` and
``Delta0 = Delta``, ``delta = P(T > B - Delta)`` in closed form, and for a fixed gamma the least ``B`` meeting
delta is explicit: ``K = floor(beta)`` does not depend on gamma (``P(T > K - 1) = b^{K-1}(1 - b)/(2(1 - b^K))``)
and ``c(r) = (b^{K-1} m - 2 delta m (1 - b^K)/(1 - b)) / (b^{K-1}(1 - b) + 2 delta b^K)``; gamma is then chosen by a
golden-section search on the variance.  For ``Delta0 < d < 2B`` the profile is the derived per-period form
(:func:`fhsym.symbolic.steps.profile_periods_cut`, printed): the staircase's masses clipped at the cut in the periods
next to it, summed over runs of whole periods in closed form, plus the infinite-loss mass ``P(T > B - d)`` from the
derived tail; the shift, W and beta split in exact rationals (4.3e-16 against the definition's 50-digit piece sums at
540 points, ``tests/test_step_laws.py``); ``d >= 2B``: 1.  The certificate plan keeps the exact pieces of the support
(:func:`fhsym.noise.plans.truncated_staircase.pieces`).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np
from flint import fmpq

from .._core.arb import Enclosure, Plan
from .._core.arb.core import exact
from .plans.truncated_staircase import MAX_PERIODS, TSPlan, ts_eval, ts_plan, ts_variance
from .._core.arb.core import float_up
from .._core.declared_runtime import cut_far_plan
from .._core.domains import Domain, check_scalar
from .._core.doubledouble import int_times
from .._core.random import Rng
from .._core.minimise import golden_section
from .._core.types import BoolArray, FloatArray
from .._generated.declared import truncated_staircase as _gen
from .base import NoiseDistribution

__all__ = ["TruncatedStaircase", "truncated_staircase_design"]

#: an exponent eps - n eps0 below this is -inf for expm1 (e^-800 = 0 in doubles): clamped before its float conversion
_FLOOR = Fraction(-800)
#: the profile beyond one period at one shift (``TruncatedStaircase._far``): the infinite-loss mass, the head runs
#: ``(scale, p, {m: mass})`` and the block runs ``(r^j0, p - 2 j0, periods, {c: mass})``
_Far = Tuple[float, List[Tuple[float, int, Dict[int, float]]], List[Tuple[float, int, int, Dict[int, float]]]]

EPS0 = Domain("epsilon", 0.0, math.inf, typical=(0.2, 2.0))
SENS0 = Domain("sensitivity", 0.0, math.inf, typical=(0.5, 1.0))
GAMMA = Domain("gamma", 0.0, 1.0, closed_lower=True, closed_upper=True, typical=(0.1, 0.9))
BOUND = Domain("bound", 0.0, math.inf, typical=(1.0, 4.0))
DELTA = Domain("delta", 0.0, 0.5)
#: above this design epsilon the float sampler refuses (as the staircase's: a float draw cannot realise e^-eps)
FLOAT_SAMPLER_MAX_EPSILON = 53.0 * math.log(2.0)
#: the design aims at delta (1 - this): the float design then passes the ball-arithmetic certificate at once
_AIM = 1e-10
#: the golden-section rounds of the design search over log gamma in [-(eps/3 + 12), 0] (resolution 0.618^48 (eps/3 + 12),
#: ~1e-9 relative in gamma at eps = 1; the variance is flat to second order there)
_ROUNDS = 48


def _unit_var(b: float, omb: float, eps0: float, W: float, K: int, r: float) -> float:
    """S2(beta)/H(beta) by the telescoping closed forms (the design search's objective; b^K is small there)."""
    bK = math.exp(-K * eps0)
    m = W + b * (1.0 - W)
    m1 = 0.5 * (W * W + b * (1.0 - W * W))
    m2 = (W**3 + b * (1.0 - W**3)) / 3.0
    rw = min(r, W)
    c = rw + b * max(r - W, 0.0)
    c1 = 0.5 * (rw * rw + b * max(r * r - W * W, 0.0))
    c2 = (rw**3 + b * max(r**3 - W**3, 0.0)) / 3.0
    G0 = -math.expm1(-K * eps0) / omb
    G1 = (b * G0 - K * bK) / omb
    G2 = (b * (G0 + 2.0 * G1) - K * K * bK) / omb
    S2 = G2 * m + 2.0 * G1 * m1 + G0 * m2 + bK * (K * K * c + 2.0 * K * c1 + c2)
    return S2 / (m * G0 + bK * c)


def _design_K(eps: float, delta: float) -> int:
    """The least K >= 1 with P(T > K) = b^K (1 - b)/(2 (1 - b^{K+1})) <= delta (independent of gamma)."""
    # b^K (1 - b) / (2 (1 - b^{K+1})) <= delta  <=>  b^K <= 2 delta / (1 - b + 2 delta b)
    omb = -math.expm1(-eps)
    b = math.exp(-eps)
    K = max(1, math.ceil(math.log(2.0 * delta / (omb + 2.0 * delta * b)) / -eps))

    def meets(k: int) -> bool:  # P(T > k) at B = k + 1
        return math.exp(-k * eps) * omb / (2.0 * -math.expm1(-(k + 1) * eps)) <= delta

    if K > 1 and meets(K - 1):
        K -= 1  # the float log rounded a boundary case up
    elif not meets(K):
        K += 1  # ... or down
    return K


def _design_r(eps: float, delta: float, W: float, K: int) -> float:
    """r in [0, 1] with P(T > K + r - 1) = delta at this W (K = floor(beta) from :func:`_design_K`)."""
    b = math.exp(-eps)
    omb = -math.expm1(-eps)
    m = W + b * (1.0 - W)
    bK1 = math.exp(-(K - 1) * eps)
    c = (bK1 * m - 2.0 * delta * m * -math.expm1(-K * eps) / omb) / (bK1 * omb + 2.0 * delta * bK1 * b)
    c = min(max(c, 0.0), m)
    return c if c <= W else W + (c - W) / b


_LOG_TINY = math.log(2.2250738585072014e-308)  # the smallest normal double


def truncated_staircase_design(epsilon: float, delta: float) -> Tuple[float, float]:
    """(gamma, beta = B/Delta) of the least-variance truncated staircase with eps0 = epsilon whose cut carries delta
    (``P(T > B - Delta) = delta``, i.e. (epsilon, delta)-DP at sensitivity Delta = Delta0), both floats.

    >>> g, beta = truncated_staircase_design(1.0, 1e-6)
    >>> round(g, 4), round(beta, 4)
    (0.4167, 13.6007)
    """
    eps = check_scalar(epsilon, EPS0)
    dl = check_scalar(delta, DELTA)
    K = _design_K(eps, dl)
    b, omb = math.exp(-eps), -math.expm1(-eps)

    def var(s: float) -> float:  # s = log W: the optimal W is ~ (b/2)^{1/3} for large eps
        W = math.exp(s)
        r = _design_r(eps, dl, W, K)
        k, rr = (K + 1, r - 1.0) if r >= 1.0 else (K, r)
        return _unit_var(b, omb, eps, W, k, rr)

    # the search's lower end, kept where W = e^s is a normal float (eps > ~2090 would make W underflow to 0 and the
    # variance 0/0; such an eps is then refused by the calibration's own check, naming epsilon)
    s, _ = golden_section(var, max(-(eps / 3.0 + 12.0), _LOG_TINY), 0.0, _ROUNDS)
    W = math.exp(s)
    r = _design_r(eps, dl, W, K)
    return W, K + r


class TruncatedStaircase(NoiseDistribution):
    """Staircase noise (design ``eps0``, period ``Delta0``, first step ``gamma Delta0``) truncated to ``[-B, B]``.

    Parameters
    ----------
    epsilon : float in (0, inf)
        Design privacy ``eps0`` (ratio ``e^-eps0`` per period).
    sensitivity : float in (0, inf)
        Design sensitivity ``Delta0`` (the period).
    gamma : float in [0, 1]
        Relative width of the first step (edge ``w = fl(gamma Delta0)``).
    bound : float in [sensitivity, 50000 sensitivity]
        The truncation ``B`` (at most 50000 periods: the exact profile's work is bounded).

    ``fhsym.calibrate(eps, delta, mechanism="truncated_staircase")`` chooses ``eps0 = eps``, ``Delta0 = Delta``
    and the least-variance ``(gamma, B)`` whose cut carries delta (:func:`truncated_staircase_design`); the
    certificate re-checks ``P(T > B - Delta) <= delta`` in ball arithmetic.  Formulas: the module docstring.

    Examples
    --------
    >>> ts = TruncatedStaircase(1.0, 1.0, 0.5, 3.0)
    >>> ts.support(), float(ts.cdf(3.0)), float(ts.privacy_profile(1.0)) == float(ts.sf(2.0))
    ((-3.0, 3.0), 1.0, True)
    """

    name = "truncated_staircase"
    display_name = "truncated staircase"
    parameter_domains = (EPS0, SENS0, GAMMA, BOUND)
    log_concave = False  # a step density: no K-fold corner claim
    calibration_methods = ("auto", "closed")

    def __init__(self, epsilon: float, sensitivity: float = 1.0, gamma: float = 0.5, bound: float = 1.0) -> None:
        self.epsilon = check_scalar(epsilon, EPS0)
        self.sensitivity = check_scalar(sensitivity, SENS0)
        self.gamma = check_scalar(gamma, GAMMA)
        self.bound = check_scalar(bound, BOUND)
        if not self.sensitivity <= self.bound <= MAX_PERIODS * self.sensitivity:
            raise ValueError(f"bound must be in [sensitivity, {MAX_PERIODS} sensitivity] = [{self.sensitivity!r}, "
                             f"{MAX_PERIODS * self.sensitivity!r}] for the truncated staircase (at most {MAX_PERIODS} "
                             f"periods: bounded work for its exact profile); got {self.bound!r}")
        self.width = self.gamma * self.sensitivity
        d0 = self.sensitivity
        self._W = self.width / d0  # float view; the exact plans use the rationals below
        self._beta = self.bound / d0
        self._b = math.exp(-self.epsilon)
        self._omb = -math.expm1(-self.epsilon)
        self._K = float(math.floor(self._beta))  # the cut at beta = K + rho periods (the generated module's K, rho)
        self._rho = self._beta - self._K
        self._H = 0.5 * float(_gen.norm(self.epsilon, self._W, self._K, self._rho))  # H(beta): the derived normaliser
        if not (self._H > 0.0 and math.isfinite(self._H)):
            raise ValueError(f"epsilon must be smaller for a truncated staircase with gamma={self.gamma!r}: its "
                             f"first step carries a mass the float range cannot represent; got epsilon={self.epsilon!r}")
        self._plans: Dict[Tuple[float, bool], TSPlan] = {}
        self._far_cache: Dict[float, _Far] = {}

    # ---------------------------------------------------------------- exact parameters
    def _exact(self) -> Tuple[fmpq, fmpq, fmpq, fmpq]:
        d0 = exact(self.sensitivity)
        return exact(self.epsilon), exact(self.width) / d0, exact(self.bound) / d0, d0

    # ---------------------------------------------------------------- mechanism facts
    def _arb_plan(self, eps: fmpq, sensitivity: fmpq) -> Plan:
        e0, W, beta, d0 = self._exact()
        plan = ts_plan(eps, sensitivity / d0, e0, W, beta)
        how = ("shift >= 2 bound: disjoint supports, delta = 1 exactly" if plan.one else
               f"{len(plan.general)} exact pieces (shift > Delta0)" if plan.general is not None else
               "cut window" + (" + level-difference-1 set" if plan.active else " only (eps >= eps0)"))
        return ts_eval, plan, f"truncated staircase: {how}"

    def _check_shift_range(self, sensitivity: float) -> None:
        if not (0.0 < sensitivity <= self.sensitivity):
            raise ValueError(f"sensitivity must be in (0, {self.sensitivity!r}] (the truncated staircase's design "
                             f"sensitivity Delta0) for its sup over the shifts; got {sensitivity!r}")

    def worst_profile_enclosure(self, epsilon: float, sensitivity: float = 1.0) -> Enclosure:
        """A proven enclosure of ``sup_{0 < d <= Delta} delta(eps; d)`` for ``Delta <= Delta0``: the profile at Delta
        (the integrand does not decrease with d, pointwise: module docstring; checked in proofs/truncated_staircase.py).

        >>> ts = TruncatedStaircase(1.0, 1.0, 0.4, 5.0)
        >>> ts.worst_profile_enclosure(0.5, 0.8) == ts.profile_enclosure(0.5, 0.8)
        True
        """
        self._check_shift_range(sensitivity)
        return self.profile_enclosure(epsilon, sensitivity)

    def loss_range(self, sensitivity: float) -> Optional[Fraction]:
        return None  # the loss is infinite on the cut window

    def variance_upper(self) -> float:
        """The exact variance (at the float parameters) rounded up: a 256-bit ball's upper end."""
        e0, W, beta, d0 = self._exact()
        return float_up(ts_variance(e0, W, beta) * (d0 * d0))

    def _precise_view(self, digits: Optional[int], bits: Optional[int], ball: bool) -> Any:
        from .precise_step_laws import TruncatedStaircaseAtPrecision  # at_precision's view of this law (issue 29)

        return TruncatedStaircaseAtPrecision(self, digits, bits=bits, ball=ball)

    @property
    def family_scale(self) -> float:
        return self.sensitivity

    @classmethod
    def from_family(cls, shape: float, scale: float) -> "TruncatedStaircase":
        raise ValueError("the truncated staircase is not a scale family in fhsym's calibrator: it is built in "
                         "closed form (truncated_staircase_design)")

    @classmethod
    def closed_calibration(cls, epsilon: float, delta: float, sensitivity: float
                           ) -> Optional[Tuple[Callable[[float], Any], float]]:
        """(bound -> the law with eps0 = epsilon, Delta0 = sensitivity and the designed gamma, the designed bound):
        a larger bound carries less delta; the ``"profile-1d"`` claim certifies it."""
        if not delta < 0.5:
            raise ValueError(f"delta must be in (0, 0.5) for the truncated staircase (its cut window carries delta, "
                             f"at most 1/2); got {delta!r}")
        gamma, beta = truncated_staircase_design(epsilon, delta * (1.0 - _AIM))
        if beta > MAX_PERIODS / 2:
            raise ValueError(f"epsilon must be larger for the truncated staircase at delta = {delta!r}: its cut would lie "
                             f"{beta:.4g} periods out, above the {MAX_PERIODS // 2} its calibration allows (bounded "
                             f"work for the exact profile); got epsilon = {epsilon!r}")
        bound = max(beta * sensitivity, sensitivity)
        return (lambda B: cls(epsilon, sensitivity, gamma, max(B, sensitivity))), bound

    # ---------------------------------------------------------------- distribution kernels
    def support(self) -> Tuple[float, float]:
        """The closed interval [-B, B]."""
        return (-self.bound, self.bound)

    def _level(self, u: FloatArray) -> FloatArray:
        """l(u) for u >= 0 in units of Delta0."""
        k = np.floor(u)
        return k + (u - k >= self._W)

    def _args(self) -> Tuple[float, float, float, float]:
        return self.epsilon, self._W, self._K, self._rho

    def _split(self, u: FloatArray) -> Tuple[FloatArray, FloatArray, BoolArray]:
        """(k, r, outer) of ``u = k + r`` in units of Delta0, ``outer``: ``r >= W`` (the level-(k+1) step)."""
        k = np.floor(u)
        r = u - k
        return k, r, r >= self._W

    def _period_sum(self, per_period: Callable[..., Any], last: Callable[..., Any]) -> float:
        """``sum_{k<K} per_period(k) + last``: a derived per-period integral (non-negative terms) summed over the
        whole periods (numpy's pairwise sum), plus the cut period K."""
        with np.errstate(under="ignore"):
            return float(np.sum(per_period(np.arange(self._K), self.epsilon, self._W))) + float(last(*self._args()))

    def _var(self) -> float:  # the derived per-period second moments summed (K <= MAX_PERIODS), and the cut period
        return self.sensitivity**2 * self._period_sum(_gen.var_period, _gen.var_last) / self._H

    def _moment(self, n: int) -> float:
        """E[T^n] = Delta0^n (sum_{k<K} moment_period_n(k) + moment_last_n)/H (derived, n = 2, 4, 6; K <=
        MAX_PERIODS whole periods), else quadrature of the density."""
        if n in _gen.MOMENT_PERIOD:
            return self.sensitivity**n * self._period_sum(_gen.MOMENT_PERIOD[n], _gen.MOMENT_LAST[n]) / self._H
        return float(super()._moment(n))

    def _entropy(self) -> float:
        """h = log(2 H Delta0) + (sum_{k<K} nlog_period(k) + nlog_last)/H, ``nlog`` = -int g log g per period of the
        unnormalised density (derived; K <= MAX_PERIODS whole periods)."""
        return math.log(2.0 * self._H * self.sensitivity) + self._period_sum(_gen.nlog_period, _gen.nlog_last) / self._H

    def _logpdf(self, x: FloatArray) -> FloatArray:
        u = np.abs(x) / self.sensitivity
        inside = np.abs(x) <= self.bound
        k, _, outer = self._split(np.where(inside, u, 0.0))
        with np.errstate(invalid="ignore"):
            val = np.where(outer, _gen.logpdf_1(k, *self._args()), _gen.logpdf_0(k, *self._args()))
        return np.where(inside, val - math.log(self.sensitivity), -np.inf)

    def _upper(self, u: FloatArray) -> FloatArray:
        """P(T > u Delta0) for 0 <= u <= beta: the derived tail of u's step, from the top down (non-negative terms)."""
        k, r, outer = self._split(u)
        W = self._W
        with np.errstate(under="ignore", invalid="ignore"):
            a = np.where(outer, 1.0 - r, W - r)  # the distance below the step's upper edge
            below = np.where(outer, _gen.sf_1(k, a, *self._args()), _gen.sf_0(k, a, *self._args()))
            top = _gen.sf_top(r, *self._args())
        out: FloatArray = np.where(k >= self._K, np.maximum(top, 0.0), below)
        return out

    def _sf(self, x: FloatArray) -> FloatArray:
        u = np.minimum(np.abs(x), self.bound) / self.sensitivity
        tail = self._upper(np.minimum(u, self._beta))
        return np.where(x >= 0, tail, 1.0 - tail)

    def _half_mass(self, x: FloatArray) -> FloatArray:
        u = np.minimum(np.maximum(x, 0.0), self.bound) / self.sensitivity
        k, r, outer = self._split(u)
        with np.errstate(under="ignore"):
            out: FloatArray = np.where(outer, _gen.half_1(k, r - self._W, *self._args()), _gen.half_0(k, r, *self._args()))
        return out

    def _isf(self, q: FloatArray) -> FloatArray:
        """Invert the upper tail from the top: the cut period K when q is at most its mass, else the period k whose
        start has tail >= q (the derived ``period``, floored), then the step and the derived quantile in it."""
        W, beta, K = self._W, self._beta, self._K
        args = self._args()
        p = np.where(q <= 0.5, q, 1.0 - q)
        with np.errstate(divide="ignore", invalid="ignore", under="ignore", over="ignore"):
            last = _gen.sf_top(0.0, *args)  # the tail at the start of the cut period
            x_top = np.where(p >= _gen.sf_top(W, *args), _gen.isf_top_0(p, *args), _gen.isf_top_1(p, *args))
            k = np.floor(_gen.period(p, *args))
            k = np.clip(np.where(np.isfinite(k), k, 0.0), 0.0, max(K - 1.0, 0.0))
            inner = p >= _gen.sf_0(k, 0.0, *args)  # at or above the tail at the edge W: the first step of period k
            a = np.where(inner, _gen.isf_0(k, p, *args), _gen.isf_1(k, p, *args))
            x_full = k + np.where(inner, W - np.clip(a, 0.0, W), 1.0 - np.clip(a, 0.0, 1.0 - W))
            x = np.where(p <= last, K + x_top, x_full)
        x = np.clip(x, 0.0, beta) * self.sensitivity
        x = np.where(p == 0.0, self.bound, x)
        return np.where(q <= 0.5, x, -x)

    def _rvs(self, rng: Rng, size: Tuple[int, ...]) -> FloatArray:  # size: the sample shape
        if self.epsilon > FLOAT_SAMPLER_MAX_EPSILON:
            raise ValueError(
                f"epsilon must be <= {FLOAT_SAMPLER_MAX_EPSILON:.4g} (53 log 2) for the floating-point truncated "
                f"staircase sampler; got {self.epsilon!r}: the probability e^-epsilon of leaving a step is below 2^-53, so "
                f"float draws cannot realise it and the output would reveal the input (docs/security.md)")
        u = rng.random(size)
        return self._isf(u)

    def _kinks(self) -> Tuple[float, ...]:
        d0, w = self.sensitivity, self.width
        kmax = min(math.floor(self._beta) + 1, 1000)
        pts = {k * d0 + w for k in range(kmax + 1)} | {self.bound}
        return tuple(sorted(x for x in pts if 0.0 < x <= self.bound))

    def _centered_privacy_loss(self, t: FloatArray, d: FloatArray) -> FloatArray:
        up, lo = t + 0.5 * d, t - 0.5 * d
        in_up = np.abs(up) <= self.bound
        in_lo = np.abs(lo) <= self.bound
        with np.errstate(invalid="ignore"):
            val = self.epsilon * (self._level(np.abs(np.where(in_up, up, 0.0)) / self.sensitivity)
                                  - self._level(np.abs(np.where(in_lo, lo, 0.0)) / self.sensitivity))
        out = np.where(in_up & in_lo, val, 0.0)
        out = np.where(~in_up & in_lo, np.inf, out)
        out = np.where(in_up & ~in_lo, -np.inf, out)
        return np.where(d == 0, 0.0, out)

    # ---------------------------------------------------------------- profile
    def _plan(self, d: float, eps_below: bool) -> TSPlan:
        key = (d, eps_below)
        plan = self._plans.get(key)
        if plan is None:
            e0, W, beta, d0 = self._exact()
            # eps only decides whether the level-difference-1 term is active: 0 (< eps0) or eps0 (not)
            plan = ts_plan(fmpq(0) if eps_below else e0, exact(d) / d0, e0, W, beta)
            if len(self._plans) < 64:
                self._plans[key] = plan
        return plan

    def _far(self, d: float) -> "_Far":
        """``d > Delta0``: ``(I, heads, blocks)`` of the derived form (fhsym.symbolic.steps.profile_periods_cut,
        generated), in exact rationals where it decides: ``d/Delta0 = p + f``, ``beta = K + rho``, W; the runs of
        periods (:func:`~fhsym._core.declared_runtime.cut_far_plan`) as ``(r^k0 (1 - r^n)/(1 - r), p, {m: mass})``
        and ``(r^j0, N0 = p - 2 j0, n, {c: mass})``; I = P(T > beta - d), the infinite loss, from the derived tail at
        the exact point (cached per d)."""
        cached = self._far_cache.get(d)
        if cached is not None:
            return cached
        d0 = Fraction(self.sensitivity)
        FD, beta, Wq = Fraction(d) / d0, Fraction(self.bound) / d0, Fraction(self.width) / d0
        p, K = math.floor(FD), math.floor(beta)
        f, rho, e0, E0 = FD - p, beta - K, self.epsilon, Fraction(self.epsilon)

        def rpow(k: int) -> float:  # r^k = e^(-k eps0), k eps0 split exactly (double-double)
            if k * E0 > 800:  # below the float range
                return 0.0
            hi, lo = int_times(k, e0)
            return math.exp(-hi) * math.exp(-lo)

        def tail(x: Fraction) -> float:
            """P(T > x), 0 <= x <= beta: the derived tail of x's cell (exact a, u) with its first s = min(k, K - 1)
            periods taken out, ``sf(k, a; K) = r^s sf(k - s, a; K - s) Z(K - s)/Z(K)`` (the sum from the top is r^s
            times the law cut s periods earlier): r^s from the exact product, where the printed r^k would carry k eps0
            ulp (1.2e-15 at k eps0 = 11)."""
            k = math.floor(x)
            u = x - k
            if k >= K and rho == 0:
                return 0.0
            s = min(k, K - 1)
            k, Ks = k - s, K - s
            if k >= Ks:
                val = _gen.sf_top(u, e0, Wq, Ks, rho)
            else:
                val = _gen.sf_0(k, Wq - u, e0, Wq, Ks, rho) if u < Wq else _gen.sf_1(k, 1 - u, e0, Wq, Ks, rho)
            return rpow(s) * float(val) * (float(_gen.norm(e0, Wq, Ks, rho)) / float(_gen.norm(e0, Wq, K, rho)))

        x = beta - FD
        with np.errstate(under="ignore"):
            inf = tail(x) if x >= 0 else 1.0 - tail(min(-x, beta))
            heads_plan, blocks_plan = cut_far_plan(p, K)
            heads = [(rpow(k0) * float(_gen.profile_run(n, e0)), p,
                      {m: float(fn(f, e0, Wq, K, rho)) for m, fn in _gen.PROFILE_FAR["head"][clip].items()})
                     for clip, k0, n in heads_plan]
            blocks = [(rpow(j0), p - 2 * j0, n,
                       {c: float(fn(f, e0, Wq, K, rho)) for c, fn in _gen.PROFILE_FAR["block"][clip].items()})
                      for clip, j0, n in blocks_plan]
        result = (inf, heads, blocks)
        if len(self._far_cache) < 64:
            self._far_cache[d] = result
        return result

    def _far_profile(self, eps: FloatArray, d: float) -> FloatArray:
        """delta(eps; p + f) = I + sum over the runs of :meth:`_far` (every term non-negative): a head run adds
        ``scale mass_m (1 - e^(eps - (p + m) eps0))_+``, a block run of n periods from j0 ``r^j0 mass_c (1 - r^L)/(1 -
        r) (1 - e^(eps - (N + 1 - L) eps0))`` with ``N = p + c - 2 j0`` and L the count of its periods i < n with
        ``(N - 2i) eps0 > eps`` (exact rationals); each exponent ``eps - n eps0`` from the exact product."""
        inf, heads, blocks = self._far(d)
        E0 = Fraction(self.epsilon)
        out = np.full(eps.shape, inf)
        with np.errstate(under="ignore"):
            for i, e in enumerate(eps):
                E = Fraction(float(e))
                ratio = E / E0
                for scale, p, masses in heads:
                    for m, mass in masses.items():
                        if p + m > ratio and mass > 0.0:
                            out[i] += scale * mass * -math.expm1(float(max(E - (p + m) * E0, _FLOOR)))
                for rj, N0, n, masses in blocks:
                    for c, mass in masses.items():
                        L = min(n, max(0, math.ceil((N0 + c - ratio) / 2)))
                        if L > 0 and mass > 0.0:
                            out[i] += rj * mass * float(_gen.profile_run(L, self.epsilon)) * \
                                -math.expm1(float(max(E - (N0 + c + 1 - L) * E0, _FLOOR)))
        return out

    def _profile(self, eps: FloatArray, d: float) -> FloatArray:
        e0 = self.epsilon
        flat = np.asarray(eps, dtype=float).reshape(-1)
        if Fraction(float(d)) >= 2 * Fraction(self.bound):  # disjoint supports: delta = 1 exactly
            return np.ones(np.shape(eps))
        if Fraction(float(d)) > Fraction(self.sensitivity):  # beyond one period: the derived form
            return self._far_profile(flat, float(d)).reshape(np.shape(eps))
        plan = self._plan(float(d), True)
        norm = 2.0 * self._H
        with np.errstate(under="ignore"):
            inf_part = sum(float(length) * math.exp(-lev * e0) for length, lev in plan.window)
            pa = float(plan.L0) + float(plan.t_neg)
            if plan.N >= 1:
                pa += float(plan.d) * self._b * -math.expm1(-plan.N * e0) / self._omb
            if plan.LN > 0:
                pa += math.exp(-(plan.N + 1) * e0) * float(plan.LN)
            out = inf_part + pa * np.where(flat < e0, -np.expm1(flat - e0), 0.0)
        return (out / norm).reshape(np.shape(eps))

