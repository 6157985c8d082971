"""Privacy of flipped Huber noise as methods of :class:`fhsym.FlippedHuber`: privacy loss (Sec II-C1), the
exact 1-D profile (Theorem 3, eq 13), its inverse in eps, and zCDP parameters (talk slides).

Each method delegates to the module-level function of the same name in
:mod:`fhsym.noise.flipped_huber_profile` (or :mod:`fhsym.noise.flipped_huber_zcdp`) at the instance's
``alpha`` and ``gamma``.

>>> import fhsym
>>> f"{float(fhsym.FlippedHuber(alpha=1.0, gamma=2.0).privacy_profile(1.0)):.10g}"
'0.006715055727'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Union

import numpy as np
from numpy.typing import ArrayLike

from . import flipped_huber_profile as _pp

if TYPE_CHECKING:
    from .flipped_huber_zcdp import ZCDP

__all__ = ["FlippedHuberPrivacyMethods"]

Float = Union[float, np.ndarray]


class FlippedHuberPrivacyMethods:
    """privacy_loss, privacy_profile, epsilon_for_delta and zcdp of :class:`fhsym.FlippedHuber`."""

    # ----------------------------------------------------------------- privacy
    def privacy_loss(self, t: ArrayLike, d: ArrayLike) -> Float:
        """zeta_d(t) = psi(t + d) - psi(t) (Sec II-C1); see :func:`fhsym.privacy_loss`.

        psi = -log g, so zeta_d(t) = log g(t)/g(t + d) = (rho_alpha(t + d) - rho_alpha(t))/gamma^2
        (eq 7; log kappa cancels).  Its centred form and that form's partial inverse (eq 15)
        give the crossing points of Theorem 3's condition (eq 14, 16).  Vectorised in ``t``
        and ``d``.

        Examples
        --------
        >>> import math
        >>> from fhsym import FlippedHuber
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> float(fh.privacy_loss(0.5, 1.0))               # (rho(1.5) - rho(0.5))/4 = (1.625 - 0.5)/4
        0.28125
        >>> math.isclose(float(fh.privacy_loss(0.5, 1.0)), float(fh.logpdf(0.5) - fh.logpdf(1.5)), rel_tol=1e-14)
        True
        """
        return _pp.privacy_loss(t, d, self.alpha, self.gamma)

    def centered_privacy_loss(self, t: ArrayLike, d: ArrayLike) -> Float:
        """zeta~_d(t) = psi(t + d/2) - psi(t - d/2) (Sec II-C1); see :func:`fhsym.centered_privacy_loss`.

        = zeta_d(t - d/2) = (rho_alpha(t + d/2) - rho_alpha(t - d/2))/gamma^2 (eq 7); odd in t.
        eq 15 is its partial inverse zeta~_Delta^{-1}, which gives the crossing points t1,2 of
        Theorem 3's condition (eq 14, 16).
        Vectorised in ``t`` and ``d``.

        Examples
        --------
        >>> from fhsym import FlippedHuber
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> t = np.array([-3.0, -0.5, 0.2, 3.0])
        >>> fh.centered_privacy_loss(t, 1.0)
        array([-0.75, -0.25,  0.1 ,  0.75])
        >>> bool(np.allclose(fh.centered_privacy_loss(-t, 1.0), -fh.centered_privacy_loss(t, 1.0), rtol=1e-14, atol=0))
        True
        >>> float(fh.centered_privacy_loss(0.2, 1.0)) == float(fh.privacy_loss(0.2 - 0.5, 1.0))
        True
        """
        return _pp.centered_privacy_loss(t, d, self.alpha, self.gamma)

    def privacy_profile(self, epsilon: ArrayLike, sensitivity: float = 1.0) -> Float:
        """Exact 1-D privacy profile delta^(1)(eps) of the mechanism adding this noise (Theorem 3, eq 13).

        delta^(1)(eps) = int [g(t) - e^eps g(t + Delta)]_+ dt (eq 16), in the closed form of
        eq 13 (five cases, Table I); the mechanism is (eps, delta)-DP iff delta >= delta^(1)(eps).
        ``sensitivity`` is Delta.  See :func:`fhsym.privacy_profile`.

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
        """
        return _pp.privacy_profile(epsilon, self.alpha, self.gamma, sensitivity)

    def log_privacy_profile(self, epsilon: ArrayLike, sensitivity: float = 1.0) -> Float:
        """log delta^(1)(eps), finite where delta underflows.

        The log of eq 13 (Theorem 3), cases (iii)-(v) evaluated in log space; -inf only
        where delta = 0 exactly.  See :func:`fhsym.log_privacy_profile`.

        Examples
        --------
        >>> import math
        >>> from fhsym import FlippedHuber
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> math.isclose(float(fh.log_privacy_profile(1.0)), math.log(float(fh.privacy_profile(1.0))), rel_tol=1e-14)
        True
        >>> float(fh.privacy_profile(2000.0))                            # underflows
        0.0
        >>> f"{float(fh.log_privacy_profile(2000.0)):.10g}"
        '-7999018.248'
        """
        return _pp.log_privacy_profile(epsilon, self.alpha, self.gamma, sensitivity)

    def zcdp(self, sensitivity: Optional[float] = None, dim: int = 1, l2_sensitivity=None, l1_sensitivity=None,
             refine: bool = False) -> ZCDP:
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

    def epsilon_for_delta(self, delta: ArrayLike, sensitivity: float = 1.0) -> Float:
        """Smallest eps with delta^(1)(eps) <= delta (certified, never under-reported).

        Inverts eq 13 (Theorem 3) in eps by a root search on :meth:`log_privacy_profile`,
        then steps to the side where privacy_profile(eps) * (1 + PROFILE_RTOL) <= delta.
        See :func:`fhsym.epsilon_for_delta`.

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
        return _pp.epsilon_for_delta(delta, self.alpha, self.gamma, sensitivity)
