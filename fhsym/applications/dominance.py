"""The paper's Gaussian-dominance construction (Section IV-A): flipped Huber noise no larger than a Gaussian's."""

from __future__ import annotations

import math
from typing import Optional, Tuple

from .._core import domains as V
from ..noise.flipped_huber import FlippedHuber
from ..noise.gaussian import Gaussian
from ..privacy.certify import certified_profile

__all__ = ["gaussian_dominance"]


def gaussian_dominance(epsilon: float, delta: float, sensitivity: float = 1.0,
                       sigma: Optional[float] = None) -> Tuple[FlippedHuber, float, float]:
    """The Section IV-A construction: gamma = sigma_Gauss, alpha = [gamma^2 eps/Delta - Delta/2]_+.

    With sigma the least Gaussian scale meeting (eps, delta) (the certified analytic Gaussian of
    :func:`fhsym.calibrate`, unless given), FH(alpha, sigma^2) is also (eps, delta)-DP (the paper's
    argument: case (v) of eq 13 and omega >= sqrt(2 pi)) and has variance <= sigma^2.  Returns
    (FlippedHuber, sigma, achieved_delta).  A ``sigma`` given must meet (eps, delta) too: where the returned FH's
    certified delta exceeds ``delta`` a ``ValueError`` names ``sigma`` (delta is used, never ignored).

    ``achieved_delta`` is :func:`fhsym.certified_profile` of the returned FH at eps (a float): a
    ball-arithmetic upper bound of delta^(1)(eps) (eq 13) at the exact floats.  It can be far below
    delta (1.1e-9 for delta = 1e-6 in the example): the construction is not variance-optimal;
    :func:`fhsym.calibrate` is.

    Examples
    --------
    >>> fh, sigma, achieved = gaussian_dominance(1.0, 1e-6)
    >>> f"{sigma:.6g}"
    '4.22468'
    >>> fh.gamma == sigma and fh.alpha == max(sigma**2 * 1.0 / 1.0 - 1.0 / 2, 0.0)
    True
    >>> achieved <= 1e-6 and fh.var() <= sigma**2
    True
    >>> gaussian_dominance(1.0, 1e-6, sigma=5.0)[0]          # sigma given: alpha = 25 - 1/2
    FlippedHuber(alpha=24.5, gamma=5.0)
    """
    eps = V.check_scalar(epsilon, V.EPSILON)
    dlt = V.check_scalar(delta, V.DELTA)
    Delta = V.check_scalar(sensitivity, V.SENSITIVITY)
    if sigma is None:
        from ..calibration.api import calibrate

        sigma = calibrate(eps, dlt, sensitivity=Delta, mechanism=Gaussian.name).mechanism.gaussian_sigma()
    sigma = V.check_scalar(sigma, V.Domain("sigma", 0.0, math.inf))
    alpha = max(sigma**2 * eps / Delta - Delta / 2.0, 0.0)
    fh = FlippedHuber(alpha, sigma)
    achieved = float(certified_profile(eps, alpha, sigma, Delta))
    if achieved > dlt:  # a sigma given: delta is used, the construction must meet it (never a too-small sigma)
        raise ValueError(f"sigma = {sigma!r} is too small for (epsilon, delta) = ({eps!r}, {dlt!r}) at sensitivity "
                         f"{Delta!r}: FH(alpha={alpha!r}, gamma={sigma!r}) certifies delta <= {achieved!r} > delta; "
                         "leave sigma=None for the least Gaussian scale meeting them")
    return fh, sigma, achieved
