"""Privacy of flipped Huber noise: the kernels of :class:`fhsym.FlippedHuber` behind the template's privacy
methods (:class:`fhsym.noise.base.NoiseDistribution`): privacy loss (Sec II-C1), the exact 1-D profile
(Theorem 3, eq 13) and its inverse in eps; and the zCDP parameters (talk slides).

Each kernel delegates to the module-level function of :mod:`fhsym.noise.flipped_huber_profile` (or
:mod:`fhsym.noise.flipped_huber_zcdp`) at the instance's ``alpha`` and ``gamma``.

>>> import fhsym
>>> f"{float(fhsym.FlippedHuber(alpha=1.0, gamma=2.0).privacy_profile(1.0)):.10g}"
'0.006715055727'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, List, Optional, Tuple

import numpy as np

from .plans.fh_nodes import fh_upper_ends
from . import flipped_huber_profile as _pp

if TYPE_CHECKING:
    from .flipped_huber_zcdp import ZCDP

__all__ = ["FlippedHuberPrivacyMethods"]


class FlippedHuberPrivacyMethods:
    """The privacy kernels of :class:`fhsym.FlippedHuber` (behind the template's privacy_loss,
    centered_privacy_loss, privacy_profile, log_privacy_profile and epsilon_for_delta) and its zcdp."""

    # what the mixin reads of the law (FlippedHuber sets them; arrays for array parameters)
    alpha: float
    gamma: float
    b: float
    _lw: float

    # ----------------------------------------------------------------- privacy
    def _privacy_loss(self, t: np.ndarray, d: np.ndarray) -> np.ndarray:
        """zeta_d(t) = psi(t + d) - psi(t) = log g(t)/g(t + d) (Sec II-C1), for t and d broadcast together.

        psi = -log g, so zeta_d(t) = (rho_alpha(t + d) - rho_alpha(t))/gamma^2 (eq 7; log kappa cancels), by regime
        without cancellation (:func:`fhsym.noise.flipped_huber_profile.loss_std`); zeta_{-d}(t) = zeta_d(-t).  Its
        centred form zeta~_d(t) = zeta_d(t - d/2) = (rho_alpha(t + d/2) - rho_alpha(t - d/2))/gamma^2 is odd in t;
        eq 15 is that form's partial inverse, which gives the crossing points of Theorem 3's condition (eq 14, 16).

        Examples
        --------
        >>> import math
        >>> from fhsym import FlippedHuber
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> float(fh.privacy_loss(0.5, 1.0))               # (rho(1.5) - rho(0.5))/4 = (1.625 - 0.5)/4
        0.28125
        >>> math.isclose(float(fh.privacy_loss(0.5, 1.0)), float(fh.logpdf(0.5) - fh.logpdf(1.5)), rel_tol=1e-14)
        True
        >>> t = np.array([-3.0, -0.5, 0.2, 3.0])
        >>> fh.centered_privacy_loss(t, 1.0)
        array([-0.75, -0.25,  0.1 ,  0.75])
        >>> bool(np.allclose(fh.centered_privacy_loss(-t, 1.0), -fh.centered_privacy_loss(t, 1.0), rtol=1e-14, atol=0))
        True
        >>> float(fh.centered_privacy_loss(0.2, 1.0)) == float(fh.privacy_loss(0.2 - 0.5, 1.0))
        True
        """
        s, D = t / self.gamma, d / self.gamma
        s = np.where(D < 0, -s, s)  # zeta_{-d}(t) = zeta_d(-t)
        return _pp.loss_std(s, np.abs(D), self.b)

    def _log_profile(self, eps: np.ndarray, sensitivity: Any) -> np.ndarray:
        """log delta^(1)(eps) (Theorem 3, eq 13), finite where delta underflows; -inf only where delta = 0.

        delta^(1)(eps) = int [g(t) - e^eps g(t + Delta)]_+ dt (eq 16) = G_bar(t1) - e^eps G_bar(t2), in the closed
        form of eq 13 (five cases, Table I), cases (iii)-(v) in log space; the mechanism is (eps, delta)-DP iff
        delta >= delta^(1)(eps).  Within 1e-6 (relative) of the kink eps = alpha Delta/gamma^2 the value is the
        upper end of the ball-arithmetic profile (:func:`fhsym.noise.flipped_huber_profile.log_privacy_profile`).
        ``sensitivity`` (Delta) may be an array broadcast with eps.

        Examples
        --------
        >>> import math
        >>> from fhsym import FlippedHuber
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> [f"{d:.6g}" for d in fh.privacy_profile([0.0, 0.5, 1.0, 2.0])]   # decreasing in eps
        ['0.208911', '0.0515608', '0.00671506', '9.28086e-06']
        >>> tv = float(fh.cdf(0.5) - fh.cdf(-0.5))                      # eps = 0: total variation
        >>> math.isclose(float(fh.privacy_profile(0.0)), tv, rel_tol=1e-13)
        True
        >>> math.isclose(float(fh.log_privacy_profile(1.0)), math.log(float(fh.privacy_profile(1.0))), rel_tol=1e-14)
        True
        >>> float(fh.privacy_profile(2000.0))                            # underflows
        0.0
        >>> f"{float(fh.log_privacy_profile(2000.0)):.10g}"
        '-7999018.248'
        """
        return _pp.log_profile_of(eps, self.alpha, self.gamma, sensitivity, self.b, self._lw)

    def _profile(self, eps: np.ndarray, sensitivity: Any) -> np.ndarray:
        """delta^(1)(eps) = exp(:meth:`_log_profile`) (Theorem 3, eq 13)."""
        out: np.ndarray = np.exp(self._log_profile(eps, sensitivity))
        return out

    def _epsilon_for_delta(self, delta: np.ndarray, sensitivity: float) -> np.ndarray:
        """Smallest eps with delta^(1)(eps) <= delta (certified, never under-reported): the inverse of eq 13 in eps.

        The smallest double with privacy_profile(eps) * (1 + PROFILE_RTOL) <= delta, by bisection on the bit patterns
        of the doubles (:func:`fhsym.noise.flipped_huber_profile.epsilon_for_delta_of`); with array parameters
        (``delta`` broadcast with them) every element in one bisection, the same doubles as the scalar laws.

        Examples
        --------
        >>> from fhsym import FlippedHuber
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> eps = fh.epsilon_for_delta(1e-6)
        >>> round(float(eps), 8)
        2.25226642
        >>> bool(fh.privacy_profile(eps) <= 1e-6 < fh.privacy_profile(eps * (1 - 1e-9)))
        True
        """
        _pp.sensitivity_units(self.b, self.gamma, sensitivity)  # its checks (ValueError naming the sensitivity)
        return _pp.epsilon_for_delta_of(delta, self.alpha, self.gamma, sensitivity, self.b, self._lw)

    def profile_upper_ends(self, epsilons: Any, sensitivity: float, *, rel_width: float = 2.0**-40,
                           max_prec: int = 1024) -> List[Tuple[int, int]]:
        """Upper ends of :meth:`profile_enclosure`'s balls at many epsilons, exactly, as ``(man, exp)`` pairs: the
        template's ends (:func:`fhsym._core.arb.profile_upper_ends` of this law's plan), bit for bit, by the fast
        path of :func:`fhsym.noise.plans.fh_nodes.fh_upper_ends` (the nodes of a proven PLD)."""
        if np.ndim(self.alpha) or np.ndim(self.gamma):
            ends: List[Tuple[int, int]] = super().profile_upper_ends(  # type: ignore[misc]
                epsilons, sensitivity, rel_width=rel_width, max_prec=max_prec)
            return ends
        return fh_upper_ends(epsilons, sensitivity, self.alpha, self.gamma, rel_width=rel_width, max_prec=max_prec)

    def profile_series_upper_ends(self, epsilons: Any, sensitivity: float, *, rel_width: float = 2.0**-40,
                                  max_prec: int = 1024) -> List[Tuple[int, int]]:
        """Upper ends of balls containing the profile at many epsilons, as ``(man, exp)`` pairs, by the series rule
        of :func:`fhsym.noise.plans.fh_nodes.fh_upper_ends` (``series=True``: the Gaussian-branch nodes' Mills
        ratios from Taylor series shared by the nodes of a cell, every other node as :meth:`profile_upper_ends`):
        the nodes of a proven PLD of grid format "pld-exact-2" (:mod:`fhsym.accounting.pld_exact`).  Other balls
        than :meth:`profile_upper_ends`' (as tight: tests/test_pld_exact_series.py), so other ends."""
        if np.ndim(self.alpha) or np.ndim(self.gamma):
            raise ValueError("profile_series_upper_ends needs scalar parameters (one law); got arrays of shape "
                             f"{np.shape(self.alpha)}")
        return fh_upper_ends(epsilons, sensitivity, self.alpha, self.gamma, rel_width=rel_width, max_prec=max_prec,
                             series=True)

    def zcdp(self, sensitivity: Optional[float] = None, dim: int = 1, l2_sensitivity: Optional[float] = None,
             l1_sensitivity: Optional[float] = None, refine: bool = False) -> ZCDP:
        """zCDP parameters of the mechanism (talk slides, Sec VI-A): a named tuple ``ZCDP(xi, eta)``.

        1-D: (R_Delta(alpha)/(2 gamma^2), Delta^2/(2 gamma^2)) with R_Delta(alpha) = alpha^2 - [alpha - Delta]_+^2;
        K-dim: (K R_Delta(alpha)/(2 gamma^2), Delta_2^2/(2 gamma^2)).  See :func:`fhsym.accounting.zcdp.zcdp`.
        A few roundings (R_Delta is evaluated as Delta (2 alpha - Delta), without cancellation).

        Examples
        --------
        >>> from fhsym import FlippedHuber
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> fh.zcdp()                                   # R_1(1) = 1: (1/8, 1/8)
        ZCDP(xi=0.125, eta=0.125)
        >>> xi, eta = fh.zcdp(dim=4, l2_sensitivity=2.0)   # (4 * 1/8, 2^2/8)
        >>> xi, eta
        (0.5, 0.5)
        """
        from .flipped_huber_zcdp import zcdp_params

        return zcdp_params(self.alpha, self.gamma, sensitivity, dim, l2_sensitivity, l1_sensitivity, refine)
