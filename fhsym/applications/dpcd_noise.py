"""Certified noise for DP coordinate descent (paper Algorithm 3): one multiplier and shape for a whole run.

Parametrisation (scale family).  Both noises are scale families and the privacy of a 1-D additive
mechanism depends only on (noise parameters) / (sensitivity): a common *noise multiplier* g and, for
FH, a common *shape* b give every coordinate noise proportional to its sensitivity::

    Gaussian:       sigma_i = g lambda_i
    flipped Huber:  gamma_i = g lambda_i,  alpha_i = b gamma_i       (b = 0 is the Gaussian)

so every one of the L K releases has the same privacy curve (Mangold et al. 2022); the noise
variance per coordinate is ``g^2 v(b) lambda_i^2``, v(b) = Var FH(b, 1).

Search and certification are the one calibrator's (:func:`fhsym.calibration.calibrator.calibrate_law` over K
coordinates and L compositions at unit sensitivity), with the named accountant as its plan
(:mod:`fhsym.calibration.plans`): ``zcdp`` -- plan ``zcdp``: per shape the least multiplier whose summed (xi, eta)
converts (Canonne, Kamath & Steinke, at a concrete order, rounded up: :func:`fhsym.accounting.zcdp.zcdp_delta`) to
delta <= target, the shape minimising g^2 v(b) over a scan of b in {0} U [1e-3, 1e4]; a float bound, so the
certificate says "not proven"; ``pld`` -- method ``exact``: the proven PLD upper bound of the whole run (L K folds,
:func:`fhsym.accounting.mechanism_pld.kfold_delta_proven`: ball-arithmetic profile nodes, exact integer
composition) at a finer lattice than the search's, <= delta; the certificate records its grid.  :func:`fhsym.accounting.dpcd.account_run` re-checks a run from its
absolute parameters (a separate code path), and :func:`fhsym.applications.dp_coordinate_descent`
calls it for every private run.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, Optional, Tuple

import numpy as np
from numpy.typing import ArrayLike

from .._core.types import FloatArray
from .._core import domains as V
from .._core.random import RandomState, as_generator
from .._core.sensitivities import resolve_sensitivities
from ..accounting.dpcd import ACCOUNTANTS, MECHANISMS, check_choice, check_counts, check_epsilon, check_sensitivities
from ..accounting.mechanism_pld import noise_pld
from ..accounting.zcdp import zcdp_to_dp
from ..noise import noise_class
from ..noise.flipped_huber import FlippedHuber
from ..calibration.calibrator import calibrate_law, fixed_shape
from ..calibration.engine import Request
from ..calibration.result import Calibration

__all__ = ["calibrate_dpcd_noise", "dpcd_noise_std", "dpcd_parameters", "dpcd_sample", "noise_variance_factor"]


def noise_variance_factor(shape: float) -> float:
    """v(b) = Var FH(b, 1) (variance of FH(alpha, gamma^2) is gamma^2 v(alpha/gamma)); v(0) = 1."""
    b = V.check_scalar(shape, V.Domain("shape", 0.0, math.inf, closed_lower=True))
    return FlippedHuber(b, 1.0).var()


def calibrate_dpcd_noise(epsilon: float, delta: float, n_passes: int, n_coordinates: int,
                         mechanism: str = FlippedHuber.name, accountant: str = "pld", *,
                         shape: Optional[float] = None) -> Calibration:
    """Least noise meeting (epsilon, delta)-DP for a whole DP-CD run, certified.

    Parameters
    ----------
    epsilon : float > 0;  delta : float in (0, 1)
        The guarantee for the whole run (L K releases).
    n_passes, n_coordinates : int >= 1
        L and K.
    mechanism : ``"gaussian"`` or ``"flipped_huber"``
    accountant : ``"zcdp"`` (paper) or ``"pld"`` (exact composition: the calibrator's K-fold claim, proven)
    shape : float >= 0, optional
        Fix b = alpha/gamma for FH instead of minimising the variance over it.

    Returns the :class:`~fhsym.Calibration` of the noise at unit sensitivity (scale-free: coordinate i
    gets it scaled by lambda_i, :func:`dpcd_parameters`), ``dim = K``, ``compositions = L``, ``variance``
    the variance per unit lambda^2, and in ``cal.extra`` the accountant, the multiplier g, the shape b
    and the achieved epsilon at the target delta (zCDP).  The result depends on L and K only through L K,
    and on nothing about the data.

    >>> cal = calibrate_dpcd_noise(1.0, 1e-5, n_passes=1, n_coordinates=2, accountant="zcdp")
    >>> cal.dim, cal.compositions, cal.extra["accountant"], cal.achieved_delta <= 1e-5
    (2, 1, 'zcdp', True)
    """
    eps = check_epsilon(epsilon)
    dl = V.check_scalar(delta, V.DELTA)
    L, K = check_counts(n_passes, n_coordinates)
    mech = check_choice(mechanism, "mechanism", MECHANISMS)
    acc = check_choice(accountant, "accountant", ACCOUNTANTS)
    cls = noise_class(mech)
    request = Request(eps, dl, resolve_sensitivities(K, 1.0, None, None), L)
    family = cls.family()
    if shape is not None:
        b = V.check_scalar(shape, V.Domain("shape", 0.0, 1e6, closed_lower=True))
        if family.shape_range is None and b != 0.0:
            raise ValueError(f"shape must be 0 for mechanism={mech!r}; got {shape!r}")
        family = fixed_shape(family, b)
    # the accountant is the calibrator's plan: "zcdp" (the paper's, unproven) or the proven K-fold claim ("exact")
    cal = calibrate_law(cls, request, "zcdp" if acc == "zcdp" else "exact", family=family)
    noise = cal.mechanism
    g = noise.family_scale
    n = L * K
    extra: dict[str, Any] = dict(accountant=acc, multiplier=g, shape=noise.family_shape, n_passes=L, n_coordinates=K,
                                 n_releases=n, variance_factor=cal.variance)
    if acc == "zcdp":
        zc = noise.zcdp_parameters(1.0)
        assert zc is not None  # the zCDP accountant is offered only for laws with zCDP parameters
        xi, eta = zc
        extra.update(achieved_epsilon=zcdp_to_dp(n * xi, n * eta, dl), xi=n * xi, eta=n * eta)
    elif noise.gaussian_sigma() is not None:  # the n-fold Gaussian is the 1-D one at sqrt(n): its epsilon at delta
        extra["achieved_epsilon"] = float(noise.epsilon_for_delta(dl, math.sqrt(n)))
    else:  # information only (the certificate is the proven bound): the float PLD's epsilon at delta
        extra["achieved_epsilon"] = float(noise_pld(noise, 1.0, upper_only=True).self_compose(n).epsilon(dl))
    cal.extra.update(extra)
    return dataclasses.replace(cal, method=f"dpcd-{acc}")


def dpcd_parameters(cal: Calibration, sensitivities: ArrayLike) -> Tuple[FloatArray, FloatArray]:
    """Per-coordinate (alpha_i, gamma_i) of a DP-CD calibration for the sensitivities lambda_i (alpha_i = 0: Gaussian)."""
    lam = check_sensitivities(sensitivities, cal.dim)
    gamma = cal.extra["multiplier"] * lam
    return cal.extra["shape"] * gamma, gamma


def dpcd_noise_std(cal: Calibration, sensitivities: ArrayLike) -> FloatArray:
    """Per-coordinate noise standard deviation sqrt(variance) lambda_i."""
    lam = check_sensitivities(sensitivities, cal.dim)
    return math.sqrt(cal.variance) * lam


def dpcd_sample(cal: Calibration, sensitivities: ArrayLike, size: Tuple[int, ...] = (), random_state: RandomState = None) -> FloatArray:
    """Noise of shape ``size + (K,)``: column i from FH(alpha_i, gamma_i^2) (alpha_i = 0: N(0, gamma_i^2)).

    Sampled by inversion (``FlippedHuber.rvs_inversion``) column by column from one generator, so the
    same ``random_state`` gives the same uniforms whatever the calibration: common random numbers,
    monotonely coupled (sharper paired comparisons; a column with alpha_i = 0 is the same Gaussian
    noise for every method).
    """
    alpha, gamma = dpcd_parameters(cal, sensitivities)
    rng = as_generator(random_state)
    size = tuple(int(s) for s in size)
    out = np.empty(size + (cal.dim,))
    for i in range(cal.dim):
        out[..., i] = FlippedHuber(float(alpha[i]), float(gamma[i])).rvs_inversion(size=size if size else None,
                                                                                     random_state=rng)
    return out
