"""Privacy accounting of DP coordinate descent (paper Algorithm 3): a run from its per-coordinate noise.

A DP-CD run (:mod:`fhsym.applications.dpcd`) makes ``n_passes * n_coordinates`` = L K releases.
Release (l, i) is the clipped average gradient of coordinate i plus independent noise; under
replace-one neighbouring the clipped average moves by at most ``lambda_i = 2 C_i / N`` whatever
theta is, so every release is a one-dimensional additive noise mechanism with sensitivity
lambda_i, chosen adaptively.  The noise of coordinate i is Gaussian N(0, sigma_i^2) or flipped
Huber FH(alpha_i, gamma_i^2) (alpha_i = 0 for the Gaussian).

Accountants
-----------
``"zcdp"`` -- as in the paper (talk slides, Sec VI-A): release i is
    (R_{lambda_i}(alpha_i) / (2 gamma_i^2), lambda_i^2 / (2 gamma_i^2))-zCDP; zCDP composes
    additively over the L K adaptive releases; the sum is converted to (eps, delta) with the
    optimal-order conversion of Canonne, Kamath & Steinke (2020, Prop 12).
``"pld"`` -- exact composition of the privacy loss distributions: each release is dominated by
    the pair (noise, noise + lambda_i) (for symmetric log-concave noise the shift lambda_i is the
    worst |d| <= lambda_i); adaptive composition of mechanisms with dominating pairs is dominated by
    the product of the pairs (Zhu, Dong & Wang 2022, Thm 10), whose PLD is the convolution of the
    1-D PLDs, each with a pessimistic discretisation: the delta reported is a certified upper bound.

Not covered: the data-independence of C_i, tau_i and theta0 is assumed (see
:mod:`fhsym.applications.dpcd`), and the floating-point side channels of any sampler (Mironov 2012).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Dict, Optional, Sequence, Tuple

import numpy as np
from numpy.typing import ArrayLike

from .._core import domains as V
from ..noise.flipped_huber import FlippedHuber
from ..noise.gaussian import Gaussian
from .kdim import aligned_step
from .pld import PrivacyLossDistribution, flipped_huber_pld
from .zcdp import zcdp_compose, zcdp_delta, zcdp_params, zcdp_to_dp

__all__ = [
    "ACCOUNTANTS",
    "MECHANISMS",
    "RunPrivacy",
    "account_run",
    "check_choice",
    "check_counts",
    "check_epsilon",
    "check_run",
    "check_sensitivities",
    "pld_step",
    "run_pld",
    "run_zcdp",
    "unit_step",
]

MECHANISMS = (Gaussian.name, FlippedHuber.name)
ACCOUNTANTS = ("zcdp", "pld")
CERT_RESOLUTION = 200.0  # PLD certification: lattice step = (1-D loss scale) / this
MAX_RELEASES = 10**6


def check_choice(value: object, name: str, choices: Sequence[str]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(repr(c) for c in choices)}; got {value!r}")
    return value


def check_epsilon(epsilon: object) -> float:
    e = V.check_scalar(epsilon, V.Domain("epsilon", 0.0, math.inf))
    return e


def check_counts(n_passes: object, n_coordinates: object) -> Tuple[int, int]:
    L = V.check_int(n_passes, "n_passes", 1)
    K = V.check_int(n_coordinates, "n_coordinates", 1)
    if L * K > MAX_RELEASES:
        raise ValueError(f"n_passes * n_coordinates must be at most {MAX_RELEASES}; got {L} * {K} = {L * K}")
    return L, K


def check_sensitivities(sensitivities: ArrayLike, K: Optional[int] = None) -> np.ndarray:
    lam = np.atleast_1d(V.check_array(sensitivities, V.Domain("sensitivities", 0.0, math.inf)))
    if lam.ndim != 1:
        raise ValueError(f"sensitivities must be a 1-D array; got shape {lam.shape}")
    if K is not None and lam.size != K:
        raise ValueError(f"sensitivities must have n_coordinates = {K} entries; got {lam.size}")
    return lam


def check_run(alphas: ArrayLike, gammas: ArrayLike, sensitivities: ArrayLike, n_passes: int
              ) -> Tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    lam = check_sensitivities(sensitivities)
    K = lam.size
    a = np.atleast_1d(V.check_array(alphas, V.ALPHA))
    g = np.atleast_1d(V.check_array(gammas, V.GAMMA))
    if a.shape != (K,) or g.shape != (K,):
        raise ValueError(f"alphas and gammas must have n_coordinates = {K} entries; got {a.shape} and {g.shape}")
    L = V.check_int(n_passes, "n_passes", 1)
    check_counts(L, K)
    return a, g, lam, L


def run_zcdp(alphas: ArrayLike, gammas: ArrayLike, sensitivities: ArrayLike, n_passes: int) -> Tuple[float, float]:
    """(xi, eta)-zCDP of the whole run: per release (R_{lambda_i}(alpha_i)/(2 gamma_i^2), lambda_i^2/(2 gamma_i^2)), summed."""
    a, g, lam, L = check_run(alphas, gammas, sensitivities, n_passes)
    per = [zcdp_params(float(a[i]), float(g[i]), float(lam[i])) for i in range(lam.size)]
    return zcdp_compose(per, rounds=L)


def pld_step(alphas: np.ndarray, gammas: np.ndarray, lam: np.ndarray, resolution: float) -> float:
    """The smallest 1-D loss scale / resolution (as fhsym.accounting.default_step), aligned with the loss atoms.

    The loss atoms +-alpha_i lambda_i/gamma_i^2 (releases with alpha_i > lambda_i) are put on the lattice
    (:func:`fhsym.accounting.aligned_step`) when they all coincide (to 1e-9 relative) -- as in every calibrated run,
    where alpha_i lambda_i/gamma_i^2 = b/g for all i; otherwise the step is left as it is.
    """
    D = lam / gammas
    b = alphas / gammas
    scale = float(np.min(np.maximum(D, np.minimum(b, 1e6) * D)))
    h = float(min(max(scale / resolution, 1e-6), 2e-3))
    has = alphas > lam
    if has.any():
        atoms = (alphas[has] / gammas[has]) * (lam[has] / gammas[has])
        if float(np.max(atoms)) <= float(np.min(atoms)) * (1.0 + 1e-9):
            i = int(np.argmin(np.where(has, alphas * lam / gammas**2, np.inf)))
            h = aligned_step(h, float(alphas[i]), float(gammas[i]), float(lam[i]))
    return h


def unit_step(g: float, b: float, resolution: float) -> float:
    """The lattice step of the scale-free run (unit sensitivity, gamma = g, alpha = b g), aligned with its loss atoms."""
    return pld_step(np.array([b * g]), np.array([g]), np.array([1.0]), resolution)


def run_pld(alphas: ArrayLike, gammas: ArrayLike, sensitivities: ArrayLike, n_passes: int, *, step: Optional[float] = None,
            resolution: Optional[float] = None, upper_only: bool = False) -> PrivacyLossDistribution:
    """Certified PLD of the whole run: the K coordinate PLDs composed, then L-fold self-composed.

    Coordinates with identical (alpha_i, gamma_i, lambda_i) are built once and self-composed.
    ``step=None``: the smallest 1-D loss scale / ``resolution`` (> 0; None: :data:`CERT_RESOLUTION`); a ``step``
    given fixes the grid, and a ``resolution`` given with it (which would be ignored) raises ``ValueError``.
    """
    a, g, lam, L = check_run(alphas, gammas, sensitivities, n_passes)
    if step is not None and resolution is not None:
        raise ValueError(f"resolution = {resolution!r} is not used when step = {step!r} is given (the step fixes the "
                         "grid; resolution sets it only with step=None); give one of them")
    if step is None:
        res = CERT_RESOLUTION if resolution is None else V.check_scalar(resolution, V.Domain("resolution", 0.0, math.inf))
        h = pld_step(a, g, lam, res)
    else:
        h = V.check_scalar(step, V.Domain("step", 0.0, math.inf))
    groups: Dict[Tuple[float, float, float], int] = {}
    for i in range(lam.size):
        key = (float(a[i]), float(g[i]), float(lam[i]))
        groups[key] = groups.get(key, 0) + 1
    one_pass = None
    for (ai, gi, li), c in groups.items():
        p = flipped_huber_pld(ai, gi, li, step=h, upper_only=upper_only)
        if c > 1:
            p = p.self_compose(c)
        one_pass = p if one_pass is None else one_pass.compose(p)
    assert one_pass is not None  # lam has at least one coordinate (checked by the caller)
    out = one_pass.self_compose(L) if L > 1 else one_pass
    out.label = f"DP-CD run: {L} passes x {lam.size} coordinates"
    return out


@dataclass(frozen=True)
class RunPrivacy:
    """The privacy of one DP-CD run, as certified by one accountant.

    ``delta`` is the accountant's certified delta(epsilon) for the whole run and ``epsilon_at_target``
    its certified eps(target_delta); ``ok`` is ``delta <= target_delta``.  For ``pld`` also the
    lower end of the bracket (how tight the certificate is).
    """

    accountant: str
    epsilon: float
    target_delta: float
    delta: float
    epsilon_at_target: float
    ok: bool
    delta_lower: Optional[float] = None
    zcdp: Optional[Tuple[float, float]] = None
    statement: str = ""


def account_run(alphas: ArrayLike, gammas: ArrayLike, sensitivities: ArrayLike, n_passes: int, epsilon: float, delta: float,
                accountant: str = "pld", *, with_lower: bool = False) -> RunPrivacy:
    """Certified (eps, delta) accounting of a DP-CD run from its absolute noise parameters.

    ``alphas`` (0 for Gaussian coordinates), ``gammas`` (sigma for Gaussian coordinates) and
    ``sensitivities`` lambda_i are per coordinate; the run is ``n_passes`` passes over them.  ``with_lower``
    (``accountant="pld"`` only; refused with ``"zcdp"``) also gives the lower end of the PLD bracket.
    """
    acc = check_choice(accountant, "accountant", ACCOUNTANTS)
    if acc == "zcdp" and with_lower is not False:  # zCDP has no lower bound: the flag would be ignored
        raise ValueError(f"with_lower = {with_lower!r} applies to accountant='pld' (the lower end of its bracket); "
                         "accountant='zcdp' gives an upper bound only")
    eps = check_epsilon(epsilon)
    dl = V.check_scalar(delta, V.DELTA)
    a, g, lam, L = check_run(alphas, gammas, sensitivities, n_passes)
    if acc == "zcdp":
        xi, eta = run_zcdp(a, g, lam, L)
        d = zcdp_delta(xi, eta, eps)
        e = zcdp_to_dp(xi, eta, dl)
        ok = e <= eps
        return RunPrivacy("zcdp", eps, dl, d, e, ok, None, (xi, eta),
                          f"({xi:.6g}, {eta:.6g})-zCDP over {L} x {lam.size} releases (additive composition); "
                          f"CKS conversion: ({e:.6g}, {dl:.3g})-DP, i.e. delta({eps:g}) <= {d:.6g}")
    if not np.any(a) and not with_lower:
        # every coordinate Gaussian: the run is mu-GDP with mu^2 = L sum (lambda_i/sigma_i)^2, exactly (Dong, Roth &
        # Su 2022, Cor 3.3): the profile of one Gaussian at sensitivity mu, sigma 1 (Balle & Wang)
        mu = math.sqrt(L * float(np.sum((lam / g) ** 2)))
        unit = Gaussian(1.0)
        d = float(unit.privacy_profile(eps, mu)) * (1.0 + 1e-13)  # the float profile's error (<= 2e-15), and mu's
        e = float(unit.epsilon_for_delta(dl, mu))
        return RunPrivacy("pld", eps, dl, d, e, d <= dl, None, None,
                          f"{L} x {lam.size} Gaussian releases: mu-GDP with mu = {mu:.6g} (exact composition); "
                          f"delta({eps:g}) = {d:.6g}")
    # the pessimistic discretisation over-estimates by O(step): a run calibrated close to its target (the calibrator's
    # exact K-fold certificate) may read above it at the default step; refine (each bound certified, the last kept)
    resolution = CERT_RESOLUTION
    for _ in range(3):
        pld = run_pld(a, g, lam, L, resolution=resolution, upper_only=not with_lower)
        d = float(pld.delta_upper(eps))
        if d <= dl:
            break
        resolution *= 4.0
    e = float(pld.epsilon(dl))
    lo = float(pld.delta_lower(eps)) if with_lower else None
    ok = d <= dl
    return RunPrivacy("pld", eps, dl, d, e, ok, lo, None,
                      f"PLD of {L} x {lam.size} releases (pessimistic discretisation, step {pld.step:.3g}): "
                      f"delta({eps:g}) <= {d:.6g}" + (f" (lower end of the bracket {lo:.6g})" if lo is not None else ""))
