"""Certified noise for DP coordinate descent (paper Algorithm 3): one multiplier and shape for a whole run.

Parametrisation (scale family).  Both noises are scale families and the privacy of a 1-D additive
mechanism depends only on (noise parameters) / (sensitivity): a common *noise multiplier* g and, for
FH, a common *shape* b give every coordinate noise proportional to its sensitivity::

    Gaussian:       sigma_i = g lambda_i
    flipped Huber:  gamma_i = g lambda_i,  alpha_i = b gamma_i       (b = 0 is the Gaussian)

so every one of the L K releases has the same privacy curve (Mangold et al. 2022); the noise
variance per coordinate is ``g^2 v(b) lambda_i^2``, v(b) = Var FH(b, 1).

Search: for a fixed shape b privacy improves monotonically with g (log-concave noise: the hockey
stick curve is monotone in the sensitivity), so the least g*(b) is one monotone root (Brent on log
g); for FH the shape minimises g*(b)^2 v(b) over a scan of b in {0} U [1e-3, 100] and a bounded Brent
refinement.  Certification goes through :func:`fhsym.calibration.engine.certify` with the named
accountant as the bound: ``zcdp`` -- the CKS conversion of the summed (xi, eta), evaluated at a
concrete order and rounded up (:func:`fhsym.accounting.zcdp.zcdp_to_dp`), is <= eps and its delta
<= target; ``pld`` -- the proven PLD upper bound of the whole run (L K folds,
:func:`fhsym.accounting.mechanism_pld.kfold_delta_proven`: ball-arithmetic profile nodes, exact integer
composition) at a finer lattice than the search's, <= delta; the certificate records its grid.  :func:`fhsym.accounting.dpcd.account_run` re-checks a run from its
absolute parameters (a separate code path), and :func:`fhsym.applications.dp_coordinate_descent`
calls it for every private run.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, Dict, Optional, Tuple

import numpy as np
from scipy import optimize

from .._core import domains as V
from .._core.random import RandomState, as_generator
from ..accounting.dpcd import ACCOUNTANTS, MECHANISMS, check_choice, check_counts, check_epsilon, check_sensitivities, unit_step
from ..accounting.kdim import kdim_pld
from ..accounting.mechanism_pld import kfold_delta_proven
from ..accounting.zcdp import zcdp_compose, zcdp_delta, zcdp_params, zcdp_to_dp
from ..noise.flipped_huber import FlippedHuber
from ..noise.gaussian import Gaussian
from ..privacy.bounds import Bound
from .engine import Request, certify, result
from .flipped_huber import variance_std
from .result import Calibration

__all__ = ["calibrate_dpcd_noise", "dpcd_noise_std", "dpcd_parameters", "dpcd_sample", "noise_variance_factor"]

SEARCH_RESOLUTION = 40.0  # PLD search: lattice step = (1-D loss scale) / this
CERT_RESOLUTION = 200.0  # PLD certification: a finer lattice
SHAPE_GRID = np.concatenate([[0.0], np.geomspace(1e-3, 100.0, 16)])


@lru_cache(maxsize=4096)
def noise_variance_factor(shape: float) -> float:
    """v(b) = Var FH(b, 1) (variance of FH(alpha, gamma^2) is gamma^2 v(alpha/gamma)); v(0) = 1."""
    b = V.check_scalar(shape, V.Domain("shape", 0.0, math.inf, closed_lower=True))
    return variance_std(b)


def _zcdp_eps(g: float, b: float, n: int, dl: float) -> float:
    xi, eta = zcdp_params(b * g, g, 1.0)
    return zcdp_to_dp(n * xi, n * eta, dl)


def _pld_log_delta(g: float, b: float, L: int, K: int, eps: float, resolution: float) -> float:
    up = float(kdim_pld(b * g, g, K, 1.0, rounds=L, step=unit_step(g, b, resolution), upper_only=True,
                        certified=False).delta_upper(eps))
    return math.log(max(up, 1e-300))


def _root_log(f, g0: float, rtol: float, w: float = 0.05) -> float:
    """Smallest g (to ``rtol``) with f(g) <= 0 for a function non-increasing in g; returns a feasible g.

    The bracket starts at g0 e^{+-w} and widens geometrically; Brent's method on log g.
    """
    lo, hi = math.log(g0) - w, math.log(g0) + w
    flo, fhi = f(math.exp(lo)), f(math.exp(hi))
    n = 0
    while flo <= 0:
        hi, fhi = lo, flo
        w *= 2.0
        lo -= w
        flo = f(math.exp(lo))
        n += 1
        if n > 60:
            return math.exp(hi)
    while fhi > 0:
        lo, flo = hi, fhi
        w *= 2.0
        hi += w
        fhi = f(math.exp(hi))
        n += 1
        if n > 60:
            raise RuntimeError("no noise multiplier meets the target (search diverged)")
    r = optimize.brentq(lambda x: f(math.exp(x)), lo, hi, xtol=rtol / 4, rtol=1e-12)
    g = math.exp(r)
    while f(g) > 0:  # the feasible side
        g *= 1.0 + rtol
    return g


def _gaussian_start(eps: float, dl: float, n: int) -> float:
    """sigma/lambda of the analytic Gaussian for n releases (mu-GDP composition): a starting point only."""
    from scipy.stats import norm

    def f(mu):
        return norm.cdf(-eps / mu + mu / 2) - math.exp(eps) * norm.cdf(-eps / mu - mu / 2) - dl

    mu = optimize.brentq(f, 1e-6, 50.0)
    return math.sqrt(n) / mu


def _minimise_shape(obj, ties, grid: np.ndarray, min_gain: float = 1e-4) -> Tuple[float, float]:
    """min over b of obj(b) = g*(b)^2 v(b): a scan of ``grid`` (b = grid[0] first), then bounded Brent.

    ``ties(b, best)`` is True when obj(b) >= best is certain from one cheap check (the privacy target
    fails at the multiplier that would tie ``best``); such grid points are skipped.  A point must
    beat the best by the relative margin ``min_gain`` to count (differences below it are search noise).
    """
    best_b, best = float(grid[0]), obj(float(grid[0]))
    vals = [best]
    for b in grid[1:]:
        b = float(b)
        if ties(b, best * (1.0 - min_gain)):
            vals.append(math.inf)
            continue
        val = obj(b)
        vals.append(val)
        if val < best * (1.0 - min_gain):
            best_b, best = b, val
    i = int(np.argmin(vals))
    if 0 < i < len(grid) - 1 and grid[i] == best_b:
        lo = grid[i - 1] if grid[i - 1] > 0 else grid[i] / 10.0
        res = optimize.minimize_scalar(lambda lb: obj(math.exp(lb)), bounds=(math.log(lo), math.log(grid[i + 1])),
                                       method="bounded", options={"xatol": 0.01})
        if res.fun < best * (1.0 - min_gain):
            best_b, best = math.exp(float(res.x)), float(res.fun)
    return best_b, best


def calibrate_dpcd_noise(epsilon: float, delta: float, n_passes: int, n_coordinates: int,
                         mechanism: str = "flipped_huber", accountant: str = "pld", *,
                         shape: Optional[float] = None, rtol: float = 1e-4) -> Calibration:
    """Least noise meeting (epsilon, delta)-DP for a whole DP-CD run, certified.

    Parameters
    ----------
    epsilon : float > 0;  delta : float in (0, 1)
        The guarantee for the whole run (L K releases).
    n_passes, n_coordinates : int >= 1
        L and K.
    mechanism : ``"gaussian"`` or ``"flipped_huber"``
    accountant : ``"zcdp"`` (paper) or ``"pld"`` (exact composition, certified upper bound)
    shape : float >= 0, optional
        Fix b = alpha/gamma for FH instead of minimising the variance over it.
    rtol : float
        Relative resolution of the multiplier search.

    Returns the :class:`~fhsym.Calibration` of the noise at unit sensitivity (scale-free: coordinate i
    gets it scaled by lambda_i, :func:`dpcd_parameters`), ``dim = K``, ``compositions = L``, ``variance``
    the variance per unit lambda^2, and in ``cal.extra`` the accountant, the multiplier g, the shape b
    and the achieved epsilon at the target delta.  The result depends on L and K only through L K,
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
    rt = V.check_scalar(rtol, V.Domain("rtol", 1e-10, 0.1, closed_lower=True, closed_upper=True))
    b_fixed: Optional[float]
    if shape is not None:
        b_fixed = V.check_scalar(shape, V.Domain("shape", 0.0, 1e6, closed_lower=True))
        if mech == "gaussian" and b_fixed != 0.0:
            raise ValueError(f"shape must be 0 for mechanism='gaussian'; got {shape!r}")
    else:
        b_fixed = 0.0 if mech == "gaussian" else None
    n = L * K
    g0 = _gaussian_start(eps, dl, n)

    last = {"g": g0}  # warm start: g*(b) varies smoothly along the shape scan

    if acc == "zcdp":
        def fz(b: float):
            return lambda g: _zcdp_eps(g, b, n, dl) - eps
        make = fz
    else:
        lt = math.log(dl)

        def fp(b: float):
            return lambda g: _pld_log_delta(g, b, L, K, eps, SEARCH_RESOLUTION) - lt
        make = fp

    def gstar(b: float, rtol_: float = rt) -> float:
        g_ = _root_log(make(b), last["g"], rtol_)
        last["g"] = g_
        return g_

    if b_fixed is not None:
        b = b_fixed
        g = gstar(b)
    else:
        def obj(b: float) -> float:
            gs = gstar(b, max(rt, 1e-3) if acc == "pld" else rt)
            return gs * gs * noise_variance_factor(b)

        def ties(b: float, best: float) -> bool:
            # the multiplier at which shape b would only tie ``best``; if the target fails there, g*(b) is larger
            return make(b)(math.sqrt(best / noise_variance_factor(b))) > 0

        b, _ = _minimise_shape(obj, ties, SHAPE_GRID)
        g = gstar(b)  # at the full resolution
    if acc == "pld":  # the coarse search is pessimistic: the least g at the certification lattice (float kernels)
        lr = math.log(dl) + math.log1p(-1e-7)
        g = _root_log(lambda x: _pld_log_delta(x, b, L, K, eps, CERT_RESOLUTION) - lr, g, min(rt, 1e-6), w=1e-3)
    return _certify(eps, dl, L, K, mech, acc, b, g, rt)


def _certify(eps, dl, L, K, mech, acc, b, g, rt) -> Calibration:
    """The engine's policy with the named accountant as the bound, at unit sensitivity."""
    info: Dict[str, Any] = {}

    def bound(noise) -> Bound:
        gg = noise.parameters["gamma"] if mech == "flipped_huber" else noise.parameters["sigma"]
        if acc == "zcdp":
            xi, eta = zcdp_params(b * gg, gg, 1.0)
            xi, eta = zcdp_compose([(xi, eta)], rounds=L * K)
            e_ach = zcdp_to_dp(xi, eta, dl)
            d_ach = zcdp_delta(xi, eta, eps)
            info.update(achieved_epsilon=e_ach, xi=xi, eta=eta)
            if e_ach > eps:
                return Bound(0.0, math.inf, "zcdp", False, "CKS conversion above the target epsilon")
            return Bound(0.0, d_ach, "zcdp", False,
                         f"zCDP: each of the {L * K} releases is (R_1({b * gg:.6g})/(2 {gg:.6g}^2), 1/(2 {gg:.6g}^2))-zCDP "
                         f"at unit sensitivity; composed ({xi:.6g}, {eta:.6g})-zCDP; CKS conversion gives "
                         f"eps = {e_ach:.6g} <= {eps:g} at delta = {dl:.3g} (a concrete order, rounded up)")
        h = unit_step(gg, b, CERT_RESOLUTION)
        pb = kfold_delta_proven(noise, eps, K, 1.0, L, delta=dl, step=h, refine=1)
        if pb.upper > dl:
            return Bound(0.0, math.inf, "pld", False, "PLD bound above the target")
        pld = kdim_pld(b * gg, gg, K, 1.0, rounds=L, upper_only=True, step=h)  # the achieved epsilon (information)
        info.update(achieved_epsilon=float(pld.epsilon(dl)), step=pld.step)
        g_ = pb.grid
        return Bound(0.0, pb.upper, "pld", True,
                     f"PLD: {L} x {K} releases of {noise.name}({', '.join(f'{k} = {v:.6g}' for k, v in noise.parameters.items())}) "
                     f"at unit sensitivity, composed; proven upper bound (ball-arithmetic profile nodes, exact integer "
                     f"composition; lattice step {float(g_.step):.4g}, {g_.nodes} nodes, 2^-{g_.bits} units)", pb.record())

    family = (lambda s: Gaussian(s)) if mech == "gaussian" else (lambda s: FlippedHuber(b * s, s))
    noise, bd, steps = certify(family, g, bound, dl, what="multiplier", first_step=max(rt, 1e-9))
    gg = noise.parameters["gamma"] if mech == "flipped_huber" else noise.parameters["sigma"]
    cal = result(noise, bd, steps, Request(eps, dl, 1.0, 1.0, 1.0, K, L), f"dpcd-{acc}",
                 variance=gg * gg * noise_variance_factor(b),
                 claim=("pld-kfold" if mech == "flipped_huber" else "pld-kfold-noise") if acc == "pld" else f"dpcd-{acc}",
                 covers=f"per coordinate i the noise is this law scaled by its sensitivity lambda_i "
                        f"({L} passes x {K} coordinates, replace-one neighbours)")
    cal.extra.update(accountant=acc, multiplier=gg, shape=b, n_passes=L, n_coordinates=K, n_releases=L * K,
                     variance_factor=gg * gg * noise_variance_factor(b), **info)
    return cal


def dpcd_parameters(cal: Calibration, sensitivities) -> Tuple[np.ndarray, np.ndarray]:
    """Per-coordinate (alpha_i, gamma_i) of a DP-CD calibration for the sensitivities lambda_i (alpha_i = 0: Gaussian)."""
    lam = check_sensitivities(sensitivities, cal.dim)
    gamma = cal.extra["multiplier"] * lam
    return cal.extra["shape"] * gamma, gamma


def dpcd_noise_std(cal: Calibration, sensitivities) -> np.ndarray:
    """Per-coordinate noise standard deviation sqrt(variance) lambda_i."""
    lam = check_sensitivities(sensitivities, cal.dim)
    return math.sqrt(cal.variance) * lam


def dpcd_sample(cal: Calibration, sensitivities, size: Tuple[int, ...] = (), random_state: RandomState = None) -> np.ndarray:
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
