"""Flipped Huber noise inside Google's ``dp_accounting`` (optional: ``pip install dp-accounting``).

Four layers, all for the additive FH mechanism M(D) = f(D) + T, T ~ FH(alpha, gamma^2), sensitivity Delta:

* :class:`FlippedHuberPrivacyLoss` -- a subclass of dp_accounting's extension point
  ``privacy_loss_mechanism.AdditiveNoisePrivacyLoss`` (its contract: symmetric noise, privacy loss
  non-increasing in x; REMOVE convention mu_upper(x) = mu(x + Delta), mu_lower(x) = mu(x); Poisson
  subsampling with probability q through the base class's ``sampling_prob``, ADD and REMOVE).  The seven
  abstract methods come from fhsym's verified distribution: the loss ``log g(x + Delta) - log g(x)``
  (= -zeta_Delta(x) in the paper's notation), its inverse (the *largest* x with loss(x) >= l, by
  bisection on the predicate), ``noise_cdf`` / ``noise_log_cdf``, ``privacy_loss_tail`` and
  ``connect_dots_bounds`` (the Gaussian recipe) and ``from_privacy_guarantee`` (fhsym's certified 1-D
  calibration).  ``get_delta_for_epsilon`` is overridden by :func:`subsampled_privacy_profile` (closed
  form, vectorised); the inherited generic route (inverse loss + CDFs, a Python loop) stays available
  as :meth:`FlippedHuberPrivacyLoss.generic_delta_for_epsilon` and agrees with it to ~1e-9 relative.
* :func:`flipped_huber_pld` -- a dp_accounting ``PrivacyLossDistribution`` built with dp_accounting's
  *public* pessimistic connect-the-dots (``pld_pmf.create_pmf_pessimistic_connect_dots_fixed_gap``) from
  certified upper bounds on the exact profile; for q < 1 it carries the REMOVE and the ADD pmf, as
  dp_accounting's own subsampled Gaussian does.  It composes with every dp_accounting PLD built at the
  same ``value_discretization_interval``.
* :class:`FlippedHuberDpEvent` and :class:`FlippedHuberPLDAccountant` -- a ``DpEvent`` for the FH
  mechanism and a ``PLDAccountant`` that accepts it anywhere among dp_accounting's own events
  (``GaussianDpEvent``, ``LaplaceDpEvent``, ``SelfComposedDpEvent``, ``ComposedDpEvent``,
  ``PoissonSampledDpEvent`` of an FH event, ...).  Every PLD is built at the accountant's one
  ``value_discretization_interval``, so nothing has to match by hand.  dp_accounting's accountants
  dispatch on event types in one ``isinstance`` chain (no registry), so a subclass is the only way to
  add an event; every stock event goes to dp_accounting's own code.
* :class:`FlippedHuberRdpAccountant` and :func:`to_zcdp_event` (from
  :mod:`fhsym.integrations.dp_accounting_rdp`) -- the RDP route: certified Renyi divergences,
  Poisson and without-replacement subsampling; or fhsym's zCDP bound as a stock ``ZCDpEvent``.

Subsampled profile (the amplification identity, exact).  With P0 = mu(. + Delta), Q0 = mu and
delta_0 the 1-D profile of Theorem 3 (extended to eps < 0 by delta_0(e) = 1 - e^e + e^e delta_0(-e),
the pair being symmetric):

* REMOVE, pair (q P0 + (1-q) Q0, Q0): delta(eps) = q delta_0(log(1 + (e^eps - 1)/q)) for
  eps > log(1-q), and 1 - e^eps below;
* ADD, pair (Q0, q P0 + (1-q) Q0): with a = 1 - (1-q) e^eps,
  delta(eps) = a delta_0(eps + log q - log a) for eps < -log(1-q), and 0 above.

Both follow from [A - c B]_+ = s [A' - c' B']_+ after collecting the terms of the mixture.

What is certified.  Each FH PLD is a pessimistic discretisation: its hockey-stick curve is the chord
interpolation of over-estimates w_j >= delta(j h) (the profile times 1 + ``CERTIFIED_RTOL``, made
non-increasing), which lies above the convex true curve, hence dominates the true pair, and stays
dominating under composition.  The composition itself is dp_accounting's (FFT convolution with
pessimistic tail truncation), whose floating-point rounding dp_accounting does not bound (of the
order of 1e-15 absolute per convolution); fhsym's own engine (:mod:`fhsym.accounting.pld`) does, and the
tests check the accountant against its certified bracket.

fhsym's core never imports this module; importing it without dp_accounting installed raises
ImportError with the install command.
"""

from __future__ import annotations

import math
from typing import Optional

import numpy as np
from numpy.typing import ArrayLike

try:
    from dp_accounting import dp_event
    from dp_accounting import privacy_accountant as _pa
    from dp_accounting.pld import pld_pmf
    from dp_accounting.pld import pld_privacy_accountant as _pldacc
    from dp_accounting.pld import privacy_loss_distribution as _pldlib
    from dp_accounting.pld import privacy_loss_mechanism as _plm
except ImportError as exc:  # pragma: no cover - exercised only without the optional dependency
    raise ImportError("fhsym.integrations.dp_accounting needs dp_accounting: pip install dp-accounting",
                      name="dp_accounting") from exc

from .._core import domains as V
from .._core.types import FloatArray, Real
from ..accounting.pld import PrivacyLossDistribution as FhsymPLD
from ..noise.flipped_huber import FlippedHuber
from ..privacy.profile import PROFILE_RTOL, privacy_profile
from .dp_accounting_events import FlippedHuberDpEvent
from .dp_accounting_rdp import FlippedHuberRdpAccountant, to_zcdp_event

__all__ = [
    "CERTIFIED_RTOL",
    "FlippedHuberPrivacyLoss",
    "FlippedHuberDpEvent",
    "FlippedHuberPLDAccountant",
    "FlippedHuberRdpAccountant",
    "subsampled_privacy_profile",
    "flipped_huber_pld",
    "to_dp_accounting",
    "to_zcdp_event",
]

NeighborRel = _pa.NeighboringRelation
AdjacencyType = _plm.AdjacencyType

#: Relative margin put on the exact profile before it enters a pessimistic discretisation: the profile's
#: certified relative error (:data:`fhsym.PROFILE_RTOL`) plus the rounding of the subsampling transform
#: (a few ulp of the transformed eps times the log-slope of delta_0, below 1e-13 over the grids used).
CERTIFIED_RTOL = PROFILE_RTOL + 1e-12

MAX_GRID = 50_000_000  # refuse discretisations with more loss points than this (memory)

_Q = V.Domain("sampling_prob", 0.0, 1.0, closed_upper=True)
_H = V.Domain("value_discretization_interval", 0.0, math.inf)
_EPS_ANY = V.Domain("epsilon", -math.inf, math.inf, closed_lower=True, closed_upper=True, allow_inf=True)


# ---------------------------------------------------------------------------
# the exact (subsampled) profile
# ---------------------------------------------------------------------------


def _symmetric_profile(eps: FloatArray, alpha: float, gamma: float, sensitivity: float) -> FloatArray:
    """delta_0(eps) of the pair (mu(. + Delta), mu) for every real eps (duality below 0, 0 at +inf, 1 at -inf)."""
    out = np.empty(eps.shape, dtype=float)
    fin = np.isfinite(eps)
    out[eps == math.inf] = 0.0
    out[eps == -math.inf] = 1.0
    e = eps[fin]
    d = np.asarray(privacy_profile(np.abs(e), alpha, gamma, sensitivity), dtype=float)
    with np.errstate(over="ignore"):
        out[fin] = np.where(e >= 0, d, -np.expm1(e) + np.exp(np.minimum(e, 0.0)) * d)
    return out


def subsampled_privacy_profile(epsilon: ArrayLike, alpha: float, gamma: float, sensitivity: float = 1.0,
                               sampling_prob: float = 1.0, adjacency_type: "_plm.AdjacencyType" = AdjacencyType.REMOVE
                               ) -> Real:
    """Exact delta(eps) of the Poisson-subsampled FH mechanism in dp_accounting's ADD / REMOVE convention.

    REMOVE (pair (q P0 + (1-q) Q0, Q0)): q delta_0(log(1 + (e^eps - 1)/q)) for eps > log(1-q), else
    1 - e^eps.  ADD (pair (Q0, q P0 + (1-q) Q0)): a delta_0(eps + log q - log a), a = 1 - (1-q) e^eps,
    for eps < -log(1-q), else 0.  delta_0 is the 1-D profile of Theorem 3 (eq 13), any real eps.
    q = 1 gives delta_0 itself for both.  Vectorised in ``epsilon`` (any real, +-inf allowed).

    >>> import math
    >>> d = subsampled_privacy_profile(0.5, 0.0, 1.0, 1.0, sampling_prob=0.1)
    >>> math.isclose(d, 0.1 * float(privacy_profile(math.log1p(math.expm1(0.5) / 0.1), 0.0, 1.0)), rel_tol=1e-14)
    True
    """
    eps = np.asarray(V.check_array(epsilon, _EPS_ANY), dtype=float)
    a_ = V.check_scalar(alpha, V.ALPHA)
    g_ = V.check_scalar(gamma, V.GAMMA)
    dl = V.check_scalar(sensitivity, V.SENSITIVITY)
    q = V.check_scalar(sampling_prob, _Q)
    if adjacency_type not in (AdjacencyType.REMOVE, AdjacencyType.ADD):
        raise ValueError(f"adjacency_type must be AdjacencyType.REMOVE or AdjacencyType.ADD; got {adjacency_type!r}")
    e = np.atleast_1d(eps)
    if q == 1.0:
        out = _symmetric_profile(e, a_, g_, dl)
    else:
        out = np.zeros(e.shape, dtype=float)
        l1q = math.log1p(-q)
        if adjacency_type == AdjacencyType.REMOVE:
            live = e > l1q
            out[~live] = -np.expm1(e[~live])
            x = e[live]
            # t = log(1 + (e^x - 1)/q): log1p of (e^x - 1)/q for x <= 1 (no cancellation), and for x > 1
            # x - log q + log1p(-(1-q) e^-x), whose argument is in (-0.37, 0] (no overflow for large x)
            t = np.empty(x.shape, dtype=float)
            big = x > 1.0
            with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
                t[big] = x[big] - math.log(q) + np.log1p(-(1.0 - q) * np.exp(-x[big]))
                xs = x[~big]
                em = np.expm1(xs)
                r = em / q
                t[~big] = np.where(np.isfinite(r), np.log1p(r), np.log(em) - math.log(q) + np.log1p(q / em))
            out[live] = q * _symmetric_profile(t, a_, g_, dl)
        else:
            live = e < -l1q
            x = e[live]
            a = -np.expm1(x + l1q)  # 1 - (1-q) e^x > 0
            with np.errstate(divide="ignore"):
                t = x + math.log(q) - np.log(a)
            out[live] = a * _symmetric_profile(t, a_, g_, dl)
    out = np.clip(out, 0.0, 1.0)
    return float(out[0]) if eps.ndim == 0 else out.reshape(eps.shape)


# ---------------------------------------------------------------------------
# the AdditiveNoisePrivacyLoss
# ---------------------------------------------------------------------------


class FlippedHuberPrivacyLoss(_plm.AdditiveNoisePrivacyLoss):  # type: ignore[misc]  # dp_accounting is untyped
    """Privacy loss of the additive flipped Huber mechanism, for dp_accounting.

    Parameters: ``alpha`` >= 0, ``gamma`` > 0 (the noise FH(alpha, gamma^2)), ``sensitivity`` > 0,
    ``log_mass_truncation_bound`` <= 0 (log of the noise mass that may be put at the +inf loss),
    ``sampling_prob`` in (0, 1] (Poisson subsampling), ``adjacency_type`` (REMOVE or ADD; REPLACE is not
    supported).
    """

    def __init__(self, alpha: float, gamma: float, sensitivity: float = 1.0, log_mass_truncation_bound: float = -50.0,
                 sampling_prob: float = 1.0, adjacency_type: "_plm.AdjacencyType" = AdjacencyType.REMOVE) -> None:
        self.noise = FlippedHuber(alpha, gamma)
        lmtb = V.check_scalar(log_mass_truncation_bound, V.Domain("log_mass_truncation_bound", -math.inf, 0.0, closed_upper=True))
        self._lmtb = lmtb
        if adjacency_type not in (AdjacencyType.REMOVE, AdjacencyType.ADD):
            raise ValueError(f"adjacency_type must be REMOVE or ADD; got {adjacency_type!r}")
        super().__init__(V.check_scalar(sensitivity, V.SENSITIVITY), False, V.check_scalar(sampling_prob, _Q), adjacency_type)
        # bracket for the inverse-loss bisection: beyond the truncation points the loss is monotone and unbounded
        tail = self.privacy_loss_tail()
        self._xlo: float = tail.lower_x_truncation - 4.0 * (self.sensitivity + self.noise.gamma)
        self._xhi: float = tail.upper_x_truncation + 4.0 * (self.sensitivity + self.noise.gamma)

    # -- the seven abstract methods -----------------------------------------
    def _privacy_loss_without_subsampling_remove(self, x: float) -> float:
        """ln(mu(x + Delta)/mu(x)) = psi(x) - psi(x + Delta); non-increasing in x (log-concave noise)."""
        return float(self.noise.logpdf(x + self.sensitivity) - self.noise.logpdf(x))

    def _inverse_privacy_loss_without_subsampling_remove(self, privacy_loss: float) -> float:
        """Largest x with loss(x) >= l (+inf if l <= inf loss, -inf if l > sup loss): bisection on the predicate."""
        L = self._privacy_loss_without_subsampling_remove
        lo, hi = self._xlo, self._xhi
        while L(hi) >= privacy_loss:
            hi = 2.0 * hi + 1.0
            if hi > 1e300:
                return math.inf
        while L(lo) < privacy_loss:
            lo = 2.0 * lo - 1.0
            if lo < -1e300:
                return -math.inf
        for _ in range(2000):
            mid = 0.5 * (lo + hi)
            if mid in (lo, hi):
                break
            if L(mid) >= privacy_loss:
                lo = mid
            else:
                hi = mid
        return lo

    def noise_cdf(self, x: ArrayLike) -> Real:
        out: Real = self.noise.cdf(x)
        return out

    def noise_log_cdf(self, x: ArrayLike) -> Real:
        out: Real = self.noise.logcdf(x)
        return out

    def privacy_loss_tail(self) -> "_plm.TailPrivacyLossDistribution":
        lower = float(self.noise.ppf(0.5 * math.exp(self._lmtb)))
        upper = -lower
        if self.adjacency_type == AdjacencyType.ADD:
            upper += self.sensitivity
        else:
            lower -= self.sensitivity
        return _plm.TailPrivacyLossDistribution(lower, upper, {
            math.inf: self.mu_upper_cdf(lower),
            self.privacy_loss(upper): 1.0 - self.mu_upper_cdf(upper),
        })

    def connect_dots_bounds(self) -> "_plm.ConnectDotsBounds":
        t = self.privacy_loss_tail()
        return _plm.ConnectDotsBounds(epsilon_upper=self.privacy_loss(t.lower_x_truncation),
                                      epsilon_lower=self.privacy_loss(t.upper_x_truncation))

    @classmethod
    def from_privacy_guarantee(cls, privacy_parameters: "_plm.DifferentialPrivacyParameters", sensitivity: float = 1,
                               pessimistic_estimate: bool = True, sampling_prob: float = 1.0,
                               adjacency_type: "_plm.AdjacencyType" = AdjacencyType.REMOVE) -> "FlippedHuberPrivacyLoss":
        """The minimum-variance FH mechanism meeting ``privacy_parameters`` (fhsym's certified 1-D calibration; q = 1 only).

        The calibration is always certified (a pessimistic estimate: it never under-noises), so
        ``pessimistic_estimate=False`` (which would be ignored) raises ``ValueError``."""
        if pessimistic_estimate is not True:
            raise ValueError(f"pessimistic_estimate must be True (fhsym's calibration is certified: it never "
                             f"under-noises, there is no optimistic one); got {pessimistic_estimate!r}")
        if sampling_prob != 1.0:
            raise NotImplementedError("from_privacy_guarantee: sampling_prob < 1 is not supported for flipped Huber noise")
        from ..calibration import calibrate

        cal = calibrate(privacy_parameters.epsilon, privacy_parameters.delta, sensitivity)
        return cls(cal.alpha, cal.gamma, sensitivity, adjacency_type=adjacency_type)

    # -- vectorised exact profile -------------------------------------------
    def get_delta_for_epsilon(self, epsilon: ArrayLike) -> Real:
        """delta(eps) of the pair (mu_upper, mu_lower), clipped to [0, 1]; vectorised (:func:`subsampled_privacy_profile`)."""
        return subsampled_privacy_profile(epsilon, self.noise.alpha, self.noise.gamma, self.sensitivity,
                                          self.sampling_prob, self.adjacency_type)

    def certified_delta_for_epsilon(self, epsilon: ArrayLike) -> Real:
        """An upper bound on delta(eps): the exact value times (1 + :data:`CERTIFIED_RTOL`), at most 1."""
        d = np.asarray(self.get_delta_for_epsilon(epsilon), dtype=float)
        out = np.minimum(d * (1.0 + CERTIFIED_RTOL) + 1e-300, 1.0)
        return float(out) if np.ndim(epsilon) == 0 else out

    def generic_delta_for_epsilon(self, epsilon: ArrayLike) -> Real:
        """dp_accounting's inherited route: delta = mu_upper_cdf(x*) - e^eps exp(mu_lower_log_cdf(x*)), x* = inverse loss."""
        out: Real = _plm.AdditiveNoisePrivacyLoss.get_delta_for_epsilon(self, epsilon)
        return out


# ---------------------------------------------------------------------------
# PLDs
# ---------------------------------------------------------------------------


def _pessimistic_pmf(pl: FlippedHuberPrivacyLoss, h: float) -> "pld_pmf.PLDPmf":
    """dp_accounting's public pessimistic connect-the-dots pmf from certified over-estimates of delta(k h)."""
    b = pl.connect_dots_bounds()
    k_lo = int(math.floor(b.epsilon_lower / h))
    k_hi = int(math.ceil(b.epsilon_upper / h))
    if k_hi - k_lo + 1 > MAX_GRID:
        raise ValueError(
            f"value_discretization_interval must be larger for this mechanism: the loss grid would have "
            f"{k_hi - k_lo + 1} points (losses in [{b.epsilon_lower:.3g}, {b.epsilon_upper:.3g}], interval {h:g}; at most {MAX_GRID})")
    w = np.asarray(pl.certified_delta_for_epsilon(np.arange(k_lo, k_hi + 1) * h), dtype=float)
    w = np.minimum.accumulate(w)  # the exact profile is non-increasing: the running minimum of upper bounds is one
    return pld_pmf.create_pmf_pessimistic_connect_dots_fixed_gap(h, k_lo, k_hi, w)


def flipped_huber_pld(alpha: float, gamma: float, sensitivity: float = 1.0, value_discretization_interval: float = 1e-4,
                      log_mass_truncation_bound: float = -50.0, *, sampling_prob: float = 1.0,
                      neighboring_relation: "_pa.NeighboringRelation" = NeighborRel.ADD_OR_REMOVE_ONE
                      ) -> "_pldlib.PrivacyLossDistribution":
    """dp_accounting PLD (pessimistic connect-the-dots, public API only) of the 1-D FH mechanism.

    ``sampling_prob`` q < 1: Poisson subsampling; the PLD holds the REMOVE and the ADD pmf (dp_accounting
    reports the larger delta of the two), exactly as ``from_gaussian_mechanism(sampling_prob=q)``.
    ``neighboring_relation``: ADD_OR_REMOVE_ONE or REPLACE_SPECIAL (the same PLD), or REPLACE_ONE
    (q = 1 only: the pair mu(x + Delta), mu(x - Delta), i.e. the profile at sensitivity 2 Delta, as
    dp_accounting's Gaussian).  Compose it with dp_accounting PLDs of the same
    ``value_discretization_interval``; :class:`FlippedHuberPLDAccountant` does that for you.

    >>> from dp_accounting.pld import privacy_loss_distribution as pldlib
    >>> pld = flipped_huber_pld(1.0, 2.0, value_discretization_interval=1e-3).compose(
    ...     pldlib.from_gaussian_mechanism(2.0, value_discretization_interval=1e-3))
    >>> 0.0 < float(pld.get_delta_for_epsilon(1.0)) < 0.1
    True
    """
    h = V.check_scalar(value_discretization_interval, _H)
    q = V.check_scalar(sampling_prob, _Q)
    D = V.check_scalar(sensitivity, V.SENSITIVITY)
    if neighboring_relation == NeighborRel.REPLACE_ONE:
        if q != 1.0:
            raise ValueError("sampling_prob must be 1 under NeighboringRelation.REPLACE_ONE (Poisson subsampling of flipped "
                             "Huber noise is supported for ADD_OR_REMOVE_ONE and REPLACE_SPECIAL)")
        D = 2.0 * D
    elif neighboring_relation not in (NeighborRel.ADD_OR_REMOVE_ONE, NeighborRel.REPLACE_SPECIAL):
        raise ValueError(f"neighboring_relation must be a dp_accounting NeighboringRelation; got {neighboring_relation!r}")
    remove = _pessimistic_pmf(FlippedHuberPrivacyLoss(alpha, gamma, D, log_mass_truncation_bound, q, AdjacencyType.REMOVE), h)
    if q == 1.0:
        return _pldlib.PrivacyLossDistribution(remove)
    add = _pessimistic_pmf(FlippedHuberPrivacyLoss(alpha, gamma, D, log_mass_truncation_bound, q, AdjacencyType.ADD), h)
    return _pldlib.PrivacyLossDistribution(remove, add)


def to_dp_accounting(pld: FhsymPLD) -> "_pldlib.PrivacyLossDistribution":
    """The certified upper bound of an fhsym :class:`~fhsym.accounting.pld.PrivacyLossDistribution` as a dp_accounting PLD.

    The masses are those of fhsym's pessimistic discretisation plus its floating-point slack added to
    the infinity mass, so dp_accounting's delta is still an upper bound.
    """
    up = pld.upper
    pmf = pld_pmf.DensePLDPmf(pld.step, int(up.offset), np.asarray(up.pmf, dtype=float),
                              min(float(up.inf_mass + up.slack), 1.0), True)
    return _pldlib.PrivacyLossDistribution(pmf)


# ---------------------------------------------------------------------------
# the DpEvent and the accountant
# ---------------------------------------------------------------------------


class FlippedHuberPLDAccountant(_pldacc.PLDAccountant):  # type: ignore[misc]  # dp_accounting is untyped
    """dp_accounting's ``PLDAccountant`` that also accepts :class:`FlippedHuberDpEvent`.

    Every event -- FH or dp_accounting's own -- becomes a pessimistic PLD at this accountant's single
    ``value_discretization_interval`` and is composed by dp_accounting.  FH events are accepted bare,
    inside ``SelfComposedDpEvent`` / ``ComposedDpEvent`` (at any depth) and as the sub-event of a
    ``PoissonSampledDpEvent`` (ADD_OR_REMOVE_ONE and REPLACE_SPECIAL; the PLD then holds the ADD and the
    REMOVE pmf, as dp_accounting's subsampled Gaussian).  Everything else is dp_accounting's
    ``PLDAccountant``: an event neither supports raises dp_accounting's ``UnsupportedEventError``
    naming it.  ``get_epsilon(delta)`` / ``get_delta(epsilon)`` are upper bounds (see the module
    docstring for what is certified).

    >>> from dp_accounting import dp_event
    >>> acc = FlippedHuberPLDAccountant(value_discretization_interval=1e-3)
    >>> _ = acc.compose(dp_event.ComposedDpEvent([FlippedHuberDpEvent(1.0, 3.0), dp_event.GaussianDpEvent(3.0)]))
    >>> 0.0 < acc.get_epsilon(1e-5) < 5.0
    True
    """

    _pld: "_pldlib.PrivacyLossDistribution"  # the running composition (dp_accounting's attribute)

    def __init__(self, neighboring_relation: "_pa.NeighboringRelation" = NeighborRel.ADD_OR_REMOVE_ONE,
                 value_discretization_interval: float = 1e-4) -> None:
        h = V.check_scalar(value_discretization_interval, _H)
        if neighboring_relation not in (NeighborRel.ADD_OR_REMOVE_ONE, NeighborRel.REPLACE_ONE, NeighborRel.REPLACE_SPECIAL):
            raise ValueError(f"neighboring_relation must be a dp_accounting NeighboringRelation; got {neighboring_relation!r}")
        super().__init__(neighboring_relation, h)
        self._identity: _pldlib.PrivacyLossDistribution = self._pld

    def _compose_pld(self, pld: "_pldlib.PrivacyLossDistribution") -> None:
        """Compose ``pld`` into the running PLD; the first one replaces dp_accounting's initial identity PLD.

        identity o pld = pld exactly, but dp_accounting's ``compose`` also truncates up to 1e-15 of tail
        mass to +inf (pessimistically), which adds up to 1e-15 to every delta: skipped when nothing has
        been composed yet (docs/integrations.md, "What the accountant's delta means").
        """
        self._pld = pld if self._pld is self._identity else self._pld.compose(pld)

    @property
    def value_discretization_interval(self) -> float:
        h: float = self._value_discretization_interval  # set by PLDAccountant.__init__
        return h

    def _fh_pld(self, event: FlippedHuberDpEvent, q: float, count: int) -> "_pldlib.PrivacyLossDistribution":
        D = event.sensitivity if event.l2_sensitivity is None else min(event.sensitivity, event.l2_sensitivity)
        pld = flipped_huber_pld(event.alpha, event.gamma, D, self._value_discretization_interval,
                                sampling_prob=q, neighboring_relation=self.neighboring_relation)
        return pld if count == 1 else pld.self_compose(count)

    def _maybe_compose(self, event: "dp_event.DpEvent", count: int, do_compose: bool
                       ) -> Optional["_pa.PrivacyAccountant.CompositionErrorDetails"]:
        inner = event.event if isinstance(event, dp_event.PoissonSampledDpEvent) else event
        if isinstance(inner, FlippedHuberDpEvent) and inner.dim > 1:
            return self.CompositionErrorDetails(
                invalid_event=event,
                error_message=("a vector `FlippedHuberDpEvent` (dim > 1) is accounted by "
                               "fhsym.integrations.dp_accounting.FlippedHuberRdpAccountant; this accountant's FH "
                               f"PLDs are one-dimensional. Found dim={inner.dim}."))
        if isinstance(event, FlippedHuberDpEvent):
            if do_compose and count > 0:
                self._compose_pld(self._fh_pld(event, 1.0, count))
            return None
        if isinstance(event, dp_event.PoissonSampledDpEvent) and isinstance(event.event, FlippedHuberDpEvent):
            if self.neighboring_relation == NeighborRel.REPLACE_ONE:
                return self.CompositionErrorDetails(
                    invalid_event=event,
                    error_message=("neighboring_relation must be `ADD_OR_REMOVE_ONE` or `REPLACE_SPECIAL` for a "
                                   "`PoissonSampledDpEvent` of a `FlippedHuberDpEvent`. Found "
                                   f"{self.neighboring_relation}."))
            q = event.sampling_probability
            if not (isinstance(q, (int, float)) and 0.0 <= q <= 1.0):
                return self.CompositionErrorDetails(invalid_event=event,
                                                    error_message=f"sampling_probability must be in [0, 1]; got {q!r}")
            if do_compose and count > 0 and q > 0:
                self._compose_pld(self._fh_pld(event.event, float(q), count))
            return None
        return super()._maybe_compose(event, count, do_compose)
