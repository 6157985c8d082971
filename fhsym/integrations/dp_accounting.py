"""Flipped Huber noise inside Google's ``dp_accounting`` (optional: ``pip install dp-accounting``).

Two routes, both for the additive FH mechanism with sensitivity Delta:

* :class:`FlippedHuberPrivacyLoss` -- a subclass of dp_accounting's extension point
  ``privacy_loss_mechanism.AdditiveNoisePrivacyLoss`` (its contract: symmetric noise, privacy loss
  non-increasing in x; REMOVE convention mu_upper(x) = mu(x + Delta), mu_lower(x) = mu(x)).  The seven
  abstract methods are implemented from fhsym's verified distribution: the loss
  ``log g(x + Delta) - log g(x)`` (= -zeta_Delta(x) in the paper's notation), its inverse (the *largest*
  x with loss(x) >= l, by bisection on the predicate, so flat pieces of the loss take their right end),
  ``noise_cdf`` / ``noise_log_cdf`` (fhsym's ``cdf`` / ``logcdf``, accurate far into the tails),
  ``privacy_loss_tail`` and ``connect_dots_bounds`` (the Gaussian recipe: drop 0.5 e^{lmtb} per
  side, left tail to +inf) and ``from_privacy_guarantee`` (fhsym's certified 1-D calibration).
  ``get_delta_for_epsilon`` is overridden (q = 1) by fhsym's closed-form, vectorised profile
  (Theorem 3, eq 13) clipped to [0, 1]; the inherited generic route (inverse loss + CDFs, a Python
  loop) stays available as :meth:`FlippedHuberPrivacyLoss.generic_delta_for_epsilon` and agrees with
  it to ~1e-12 relative (``tests/kdim/test_kdim_dp_accounting.py``).
* :func:`flipped_huber_pld` -- a ``dp_accounting.pld.privacy_loss_distribution.PrivacyLossDistribution``
  built through dp_accounting's *public* ``pld_pmf.create_pmf_pessimistic_connect_dots_fixed_gap`` from
  the exact profile on the grid k d, k in [floor(eps_lower/d), ceil(eps_upper/d)] (no private API), with
  infinity mass delta(eps_upper).  It composes with any dp_accounting PLD of the same discretisation
  (``pld.compose(other)``, ``pld.self_compose(k)``).

:func:`to_dp_accounting` converts the certified upper bound of an fhsym
:class:`~fhsym.kdim.pld.PrivacyLossDistribution` (e.g. a K-dimensional FH mechanism) into a
dp_accounting PLD (pessimistic).

fhsym's core never imports this module; importing it without dp_accounting installed raises
ImportError with the install command.
"""

from __future__ import annotations

import math

import numpy as np

try:
    from dp_accounting.pld import pld_pmf
    from dp_accounting.pld import privacy_loss_distribution as _pldlib
    from dp_accounting.pld import privacy_loss_mechanism as _plm
except ImportError as exc:  # pragma: no cover - exercised only without the optional dependency
    raise ImportError("fhsym.integrations.dp_accounting needs dp_accounting: pip install dp-accounting") from exc

from .._core import domains as V
from ..noise.flipped_huber import FlippedHuber
from ..privacy.profile import privacy_profile

__all__ = ["FlippedHuberPrivacyLoss", "flipped_huber_pld", "to_dp_accounting"]


class FlippedHuberPrivacyLoss(_plm.AdditiveNoisePrivacyLoss):
    """Privacy loss of the additive flipped Huber mechanism, for dp_accounting.

    Parameters: ``alpha`` >= 0, ``gamma`` > 0 (the noise FH(alpha, gamma^2)), ``sensitivity`` > 0,
    ``log_mass_truncation_bound`` <= 0 (log of the noise mass that may be put at the +inf loss),
    ``sampling_prob`` in (0, 1], ``adjacency_type`` (REMOVE or ADD; REPLACE is not supported).
    """

    def __init__(self, alpha: float, gamma: float, sensitivity: float = 1.0, log_mass_truncation_bound: float = -50.0,
                 sampling_prob: float = 1.0, adjacency_type=_plm.AdjacencyType.REMOVE) -> None:
        self.noise = FlippedHuber(alpha, gamma)
        lmtb = V.check_scalar(log_mass_truncation_bound, V.Domain("log_mass_truncation_bound", -math.inf, 0.0, closed_upper=True))
        self._lmtb = lmtb
        if adjacency_type not in (_plm.AdjacencyType.REMOVE, _plm.AdjacencyType.ADD):
            raise ValueError(f"adjacency_type must be REMOVE or ADD; got {adjacency_type!r}")
        super().__init__(V.check_scalar(sensitivity, V.SENSITIVITY), False, sampling_prob, adjacency_type)
        # bracket for the inverse-loss bisection: beyond the truncation points the loss is monotone and unbounded
        tail = self.privacy_loss_tail()
        self._xlo = tail.lower_x_truncation - 4.0 * (self.sensitivity + self.noise.gamma)
        self._xhi = tail.upper_x_truncation + 4.0 * (self.sensitivity + self.noise.gamma)

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

    def noise_cdf(self, x):
        return self.noise.cdf(x)

    def noise_log_cdf(self, x):
        return self.noise.logcdf(x)

    def privacy_loss_tail(self) -> "_plm.TailPrivacyLossDistribution":
        lower = float(self.noise.ppf(0.5 * math.exp(self._lmtb)))
        upper = -lower
        if self.adjacency_type == _plm.AdjacencyType.ADD:
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
    def from_privacy_guarantee(cls, privacy_parameters, sensitivity: float = 1, pessimistic_estimate: bool = True,
                               sampling_prob: float = 1.0, adjacency_type=_plm.AdjacencyType.REMOVE) -> "FlippedHuberPrivacyLoss":
        """The minimum-variance FH mechanism meeting ``privacy_parameters`` (fhsym's certified 1-D calibration; q = 1 only)."""
        if sampling_prob != 1.0:
            raise NotImplementedError("from_privacy_guarantee: sampling_prob < 1 is not supported for flipped Huber noise")
        from ..calibration import calibrate

        cal = calibrate(privacy_parameters.epsilon, privacy_parameters.delta, sensitivity)
        return cls(cal.alpha, cal.gamma, sensitivity, adjacency_type=adjacency_type)

    # -- vectorised exact profile -------------------------------------------
    def get_delta_for_epsilon(self, epsilon):
        """delta(eps) of the pair (mu_upper, mu_lower), clipped to [0, 1]; vectorised.

        For q = 1 the closed form of Theorem 3 (the pair is symmetric, so ADD = REMOVE), with
        delta(eps) = 1 - e^eps + e^eps delta(-eps) for eps < 0; otherwise dp_accounting's generic route.
        """
        if self.sampling_prob != 1.0:
            return super().get_delta_for_epsilon(epsilon)
        eps = np.asarray(epsilon, dtype=float)
        a = np.abs(eps)
        d = np.asarray(privacy_profile(a, self.noise.alpha, self.noise.gamma, self.sensitivity), dtype=float)
        out = np.where(eps >= 0, d, -np.expm1(eps) + np.exp(eps) * d)
        out = np.clip(out, 0.0, 1.0)
        return float(out) if np.ndim(epsilon) == 0 else out

    def generic_delta_for_epsilon(self, epsilon):
        """dp_accounting's inherited route: delta = mu_upper_cdf(x*) - e^eps exp(mu_lower_log_cdf(x*)), x* = inverse loss."""
        return _plm.AdditiveNoisePrivacyLoss.get_delta_for_epsilon(self, epsilon)


def flipped_huber_pld(alpha: float, gamma: float, sensitivity: float = 1.0, value_discretization_interval: float = 1e-4,
                      log_mass_truncation_bound: float = -50.0) -> "_pldlib.PrivacyLossDistribution":
    """dp_accounting PLD (pessimistic connect-the-dots, public API only) of the 1-D FH mechanism (q = 1)."""
    d = V.check_scalar(value_discretization_interval, V.Domain("value_discretization_interval", 0.0, math.inf))
    pl = FlippedHuberPrivacyLoss(alpha, gamma, sensitivity, log_mass_truncation_bound)
    b = pl.connect_dots_bounds()
    k_lo = int(math.floor(b.epsilon_lower / d))
    k_hi = int(math.ceil(b.epsilon_upper / d))
    deltas = pl.get_delta_for_epsilon(np.arange(k_lo, k_hi + 1) * d)
    deltas = np.minimum.accumulate(np.asarray(deltas, dtype=float))  # exact values are non-increasing
    pmf = pld_pmf.create_pmf_pessimistic_connect_dots_fixed_gap(d, k_lo, k_hi, deltas)
    return _pldlib.PrivacyLossDistribution(pmf)


def to_dp_accounting(pld) -> "_pldlib.PrivacyLossDistribution":
    """The certified upper bound of an fhsym :class:`~fhsym.kdim.pld.PrivacyLossDistribution` as a dp_accounting PLD.

    The masses are those of fhsym's pessimistic discretisation plus its floating-point slack added to
    the infinity mass, so dp_accounting's delta is still an upper bound.
    """
    up = pld.upper
    pmf = pld_pmf.DensePLDPmf(pld.step, int(up.offset), np.asarray(up.pmf, dtype=float),
                              min(float(up.inf_mass + up.slack), 1.0), True)
    return _pldlib.PrivacyLossDistribution(pmf)
