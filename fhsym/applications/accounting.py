"""Privacy accounting and noise calibration for DP coordinate descent (paper Algorithm 3).

The mechanism being accounted
-----------------------------
A DP-CD run (:mod:`fhsym.applications.dpcd`) makes ``n_passes * n_coordinates`` = L K releases.
Release (l, i) is the clipped average gradient of coordinate i plus independent noise,
``nu = (1/N) sum_n clip(grad_i J(theta; D_n), C_i) + t``, where theta depends on the earlier
releases only.  Under *replace-one* neighbouring (swap one record) the clipped average moves by at
most ``lambda_i = 2 C_i / N`` whatever theta is, so every release is a one-dimensional additive
noise mechanism with sensitivity lambda_i, chosen adaptively.  The noise of coordinate i is
Gaussian N(0, sigma_i^2) or flipped Huber FH(alpha_i, gamma_i^2).

Parametrisation (scale family).  Both noises are scale families and the privacy of a 1-D
additive mechanism depends only on (noise parameters) / (sensitivity).  We use a common *noise
multiplier* ``g`` and, for FH, a common *shape* ``b``::

    Gaussian:       sigma_i = g lambda_i
    flipped Huber:  gamma_i = g lambda_i,  alpha_i = b gamma_i       (b = 0 is the Gaussian)

so the noise of every coordinate is proportional to its sensitivity (as in Mangold et al. 2022)
and every one of the L K releases has the same privacy curve.  The per-coordinate noise variance
is ``variance_factor * lambda_i^2`` with ``variance_factor = g^2 v(b)``, v(b) = Var FH(b, 1).

Accountants
-----------
``"zcdp"`` -- as in the paper (talk slides, Sec VI-A).  Release i is
    (R_{lambda_i}(alpha_i) / (2 gamma_i^2), lambda_i^2 / (2 gamma_i^2))-zCDP,
    R_Delta(alpha) = alpha^2 - [alpha - Delta]_+^2 (the Gaussian: alpha = 0, xi = 0);
    zCDP composes additively over the L K adaptive releases, and the sum is converted to
    (eps, delta) with the optimal-order conversion of Canonne, Kamath & Steinke (2020, Prop 12).
    Functions used: :func:`fhsym.kdim.zcdp_params`, :func:`fhsym.kdim.zcdp_compose`,
    :func:`fhsym.kdim.zcdp_to_dp`, :func:`fhsym.kdim.zcdp_delta`.
``"pld"`` -- exact composition of the privacy loss distributions.  Each release is dominated by
    the pair (noise, noise + lambda_i) (for symmetric log-concave noise -- Gaussian and FH both --
    the shift lambda_i is the worst |d| <= lambda_i, see :mod:`fhsym.kdim.profile`); adaptive
    composition of mechanisms with dominating pairs is dominated by the product of the pairs
    (Zhu, Dong & Wang, AISTATS 2022, Thm 10; Dong, Roth & Su 2022), whose PLD is the convolution of
    the one-dimensional PLDs.  fhsym's PLDs (:mod:`fhsym.kdim.pld`) carry a *pessimistic*
    discretisation, so the delta they report is a certified upper bound on the delta of the
    whole run.  Functions used: :func:`fhsym.kdim.flipped_huber_pld`,
    :func:`fhsym.kdim.gaussian_pld`, :func:`fhsym.kdim.kdim_pld`,
    :meth:`fhsym.kdim.PrivacyLossDistribution.compose` / ``self_compose``.

Calibration (:func:`calibrate_dpcd_noise`): for a fixed shape b, privacy improves monotonically
with g (a larger g is the same mechanism with a smaller sensitivity; for log-concave noise the
hockey-stick curve is monotone in the sensitivity), so the least multiplier g*(b) meeting (eps,
delta) for the whole run is one monotone root (Brent's method on log g).  For FH the shape is
chosen to minimise the per-coordinate variance g*(b)^2 v(b): a scan over b in {0} U [1e-3, 100]
(log grid) and a bounded Brent refinement around the best grid point.

What is certified.  The returned :class:`NoiseCalibration` is re-checked at the floats it
returns, with the accountant it names: ``zcdp`` -- the CKS conversion of the summed (xi, eta),
which :func:`fhsym.kdim.zcdp_to_dp` evaluates at a concrete order and rounds up, is <= eps;
``pld`` -- the certified PLD upper bound delta_upper(eps) of the whole run, built at a finer step
than the search used, is <= delta (1 - 1e-9).  If a check fails the multiplier is raised until it
passes; the search result is never returned unchecked.  :func:`account_run` re-checks a run from
its *absolute* per-coordinate parameters (alpha_i, gamma_i, lambda_i) -- a separate code path
from the scale-free calibration -- and :func:`fhsym.applications.dp_coordinate_descent` calls it
for every private run.

Not covered: the data-independence of C_i, tau_i and theta0 is assumed (see
:mod:`fhsym.applications.dpcd` on the smoothness constants M_i), and the floating-point
side channels of any sampler (Mironov 2012).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Dict, Optional, Sequence, Tuple

import numpy as np
from scipy import optimize

from .._core import domains as V
from .._core.random import RandomState, as_generator
from ..calibration.flipped_huber import _variance_std
from ..noise.flipped_huber import FlippedHuber
from ..accounting import (
    PrivacyLossDistribution,
    aligned_step,
    flipped_huber_pld,
    kdim_pld,
    zcdp_compose,
    zcdp_delta,
    zcdp_params,
    zcdp_to_dp,
)

__all__ = [
    "MECHANISMS",
    "ACCOUNTANTS",
    "NoiseCalibration",
    "RunPrivacy",
    "calibrate_dpcd_noise",
    "account_run",
    "run_zcdp",
    "run_pld",
    "noise_variance_factor",
]

MECHANISMS = ("gaussian", "flipped_huber")
ACCOUNTANTS = ("zcdp", "pld")
CERT_MARGIN = 1e-9  # PLD: delta_upper <= delta (1 - CERT_MARGIN)
SEARCH_RESOLUTION = 40.0  # PLD search: lattice step = (1-D loss scale) / this
CERT_RESOLUTION = 200.0  # PLD certification: a finer lattice
SHAPE_GRID = np.concatenate([[0.0], np.geomspace(1e-3, 100.0, 16)])
_MAX_RELEASES = 10**6


# ---------------------------------------------------------------------------
# validation helpers
# ---------------------------------------------------------------------------


def _check_choice(value: object, name: str, choices: Sequence[str]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(repr(c) for c in choices)}; got {value!r}")
    return value


def _check_epsilon(epsilon: object) -> float:
    e = V.check_scalar(epsilon, V.Domain("epsilon", 0.0, math.inf))
    return e


def _check_counts(n_passes: object, n_coordinates: object) -> Tuple[int, int]:
    L = V.check_int(n_passes, "n_passes", 1)
    K = V.check_int(n_coordinates, "n_coordinates", 1)
    if L * K > _MAX_RELEASES:
        raise ValueError(f"n_passes * n_coordinates must be at most {_MAX_RELEASES}; got {L} * {K} = {L * K}")
    return L, K


# ---------------------------------------------------------------------------
# the noise
# ---------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def noise_variance_factor(shape: float) -> float:
    """v(b) = Var FH(b, 1) (variance of FH(alpha, gamma^2) is gamma^2 v(alpha/gamma)); v(0) = 1."""
    b = V.check_scalar(shape, V.Domain("shape", 0.0, math.inf, closed_lower=True))
    return _variance_std(b)


@dataclass(frozen=True)
class NoiseCalibration:
    """Calibrated noise for a DP-CD run: release (l, i) gets noise with scale proportional to lambda_i.

    Attributes
    ----------
    mechanism, accountant:
        ``"gaussian"`` / ``"flipped_huber"`` and ``"zcdp"`` / ``"pld"``.
    epsilon, delta:
        The target guarantee for the whole run.
    n_passes, n_coordinates:
        L and K; the run makes L K releases.
    multiplier:
        g = sigma_i / lambda_i (Gaussian) or gamma_i / lambda_i (FH).
    shape:
        b = alpha_i / gamma_i (0 for the Gaussian).
    variance_factor:
        Var(noise_i) / lambda_i^2 = g^2 v(b).
    achieved_delta, achieved_epsilon:
        The accountant's delta at ``epsilon`` and eps at ``delta`` for the whole run at the returned
        floats (certified: ``achieved_delta <= delta`` and ``achieved_epsilon <= epsilon``).
    certificate:
        What was checked, in words.
    """

    mechanism: str
    accountant: str
    epsilon: float
    delta: float
    n_passes: int
    n_coordinates: int
    multiplier: float
    shape: float
    variance_factor: float
    achieved_delta: float
    achieved_epsilon: float
    certificate: str
    details: Dict[str, float] = field(default_factory=dict, compare=False)

    @property
    def n_releases(self) -> int:
        return self.n_passes * self.n_coordinates

    def parameters(self, sensitivities) -> Tuple[np.ndarray, np.ndarray]:
        """Per-coordinate (alpha_i, gamma_i) for the sensitivities lambda_i (alpha_i = 0 for the Gaussian)."""
        lam = _check_sensitivities(sensitivities, self.n_coordinates)
        gamma = self.multiplier * lam
        return self.shape * gamma, gamma

    def noise_std(self, sensitivities) -> np.ndarray:
        """Per-coordinate noise standard deviation."""
        lam = _check_sensitivities(sensitivities, self.n_coordinates)
        return math.sqrt(self.variance_factor) * lam

    def sample(self, sensitivities, size: Tuple[int, ...] = (), random_state: RandomState = None) -> np.ndarray:
        """Noise of shape ``size + (K,)``: column i from N(0, sigma_i^2) or FH(alpha_i, gamma_i^2).

        Both mechanisms are sampled by inversion, FH(alpha_i, gamma_i^2) with alpha_i = 0 being
        N(0, gamma_i^2) (:meth:`fhsym.FlippedHuber.rvs`), column by column from one generator.  So the
        same ``random_state`` gives the same uniforms whatever the calibration: runs with different
        noise are coupled (common random numbers), which sharpens paired comparisons; each run's
        noise has exactly its own distribution.
        """
        alpha, gamma = self.parameters(sensitivities)
        rng = as_generator(random_state)
        size = tuple(int(s) for s in size)
        out = np.empty(size + (self.n_coordinates,))
        for i in range(self.n_coordinates):
            out[..., i] = FlippedHuber(float(alpha[i]), float(gamma[i])).rvs(size=size if size else None, random_state=rng)
        return out


def _check_sensitivities(sensitivities, K: Optional[int] = None) -> np.ndarray:
    lam = np.atleast_1d(V.check_array(sensitivities, V.Domain("sensitivities", 0.0, math.inf)))
    if lam.ndim != 1:
        raise ValueError(f"sensitivities must be a 1-D array; got shape {lam.shape}")
    if K is not None and lam.size != K:
        raise ValueError(f"sensitivities must have n_coordinates = {K} entries; got {lam.size}")
    return lam


# ---------------------------------------------------------------------------
# accounting of a run from its absolute per-coordinate parameters
# ---------------------------------------------------------------------------


def _check_run(alphas, gammas, sensitivities, n_passes):
    lam = _check_sensitivities(sensitivities)
    K = lam.size
    a = np.atleast_1d(V.check_array(alphas, V.ALPHA))
    g = np.atleast_1d(V.check_array(gammas, V.GAMMA))
    if a.shape != (K,) or g.shape != (K,):
        raise ValueError(f"alphas and gammas must have n_coordinates = {K} entries; got {a.shape} and {g.shape}")
    L = V.check_int(n_passes, "n_passes", 1)
    _check_counts(L, K)
    return a, g, lam, L


def run_zcdp(alphas, gammas, sensitivities, n_passes: int) -> Tuple[float, float]:
    """(xi, eta)-zCDP of the whole run: per release (R_{lambda_i}(alpha_i)/(2 gamma_i^2), lambda_i^2/(2 gamma_i^2)), summed."""
    a, g, lam, L = _check_run(alphas, gammas, sensitivities, n_passes)
    per = [zcdp_params(float(a[i]), float(g[i]), float(lam[i])) for i in range(lam.size)]
    return zcdp_compose(per, rounds=L)


def _pld_step(alphas, gammas, lam, resolution: float) -> float:
    """The smallest 1-D loss scale / resolution (as fhsym.kdim.default_step), aligned with the loss atoms.

    The loss atoms +-alpha_i lambda_i/gamma_i^2 (releases with alpha_i > lambda_i) are put on the lattice
    (:func:`fhsym.kdim.aligned_step`) when they all coincide (to 1e-9 relative) -- as in every calibrated run,
    where alpha_i lambda_i/gamma_i^2 = b/g for all i; otherwise the step is left as it is.
    """
    D = lam / gammas
    b = alphas / gammas
    scale = float(np.min(np.maximum(D, np.minimum(b, 1e6) * D)))
    h = float(min(max(scale / resolution, 1e-6), 2e-3))
    has = alphas > lam
    if has.any():
        atoms = alphas[has] * lam[has] / gammas[has] ** 2
        if float(np.max(atoms)) <= float(np.min(atoms)) * (1.0 + 1e-9):
            i = int(np.argmin(np.where(has, alphas * lam / gammas**2, np.inf)))
            h = aligned_step(h, float(alphas[i]), float(gammas[i]), float(lam[i]))
    return h


def _unit_step(g: float, b: float, resolution: float) -> float:
    """The lattice step of the scale-free run (unit sensitivity, gamma = g, alpha = b g), aligned with its loss atoms."""
    return _pld_step(np.array([b * g]), np.array([g]), np.array([1.0]), resolution)


def run_pld(alphas, gammas, sensitivities, n_passes: int, *, step: Optional[float] = None,
            resolution: float = CERT_RESOLUTION, upper_only: bool = False) -> PrivacyLossDistribution:
    """Certified PLD of the whole run: the K coordinate PLDs composed, then L-fold self-composed.

    Coordinates with identical (alpha_i, gamma_i, lambda_i) are built once and self-composed.
    ``step=None``: the smallest 1-D loss scale / ``resolution``.
    """
    a, g, lam, L = _check_run(alphas, gammas, sensitivities, n_passes)
    h = _pld_step(a, g, lam, resolution) if step is None else V.check_scalar(step, V.Domain("step", 0.0, math.inf))
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


def account_run(alphas, gammas, sensitivities, n_passes: int, epsilon: float, delta: float,
                accountant: str = "pld", *, with_lower: bool = False) -> RunPrivacy:
    """Certified (eps, delta) accounting of a DP-CD run from its absolute noise parameters.

    ``alphas`` (0 for Gaussian coordinates), ``gammas`` (sigma for Gaussian coordinates) and
    ``sensitivities`` lambda_i are per coordinate; the run is ``n_passes`` passes over them.
    """
    acc = _check_choice(accountant, "accountant", ACCOUNTANTS)
    eps = _check_epsilon(epsilon)
    dl = V.check_scalar(delta, V.DELTA)
    a, g, lam, L = _check_run(alphas, gammas, sensitivities, n_passes)
    if acc == "zcdp":
        xi, eta = run_zcdp(a, g, lam, L)
        d = zcdp_delta(xi, eta, eps)
        e = zcdp_to_dp(xi, eta, dl)
        ok = e <= eps
        return RunPrivacy("zcdp", eps, dl, d, e, ok, None, (xi, eta),
                          f"({xi:.6g}, {eta:.6g})-zCDP over {L} x {lam.size} releases (additive composition); "
                          f"CKS conversion: ({e:.6g}, {dl:.3g})-DP, i.e. delta({eps:g}) <= {d:.6g}")
    pld = run_pld(a, g, lam, L, upper_only=not with_lower)
    d = float(pld.delta_upper(eps))
    e = float(pld.epsilon(dl))
    lo = float(pld.delta_lower(eps)) if with_lower else None
    ok = d <= dl
    return RunPrivacy("pld", eps, dl, d, e, ok, lo, None,
                      f"PLD of {L} x {lam.size} releases (pessimistic discretisation, step {pld.step:.3g}): "
                      f"delta({eps:g}) <= {d:.6g}" + (f" (lower end of the bracket {lo:.6g})" if lo is not None else ""))


# ---------------------------------------------------------------------------
# scale-free calibration (unit sensitivity; every release identical)
# ---------------------------------------------------------------------------


def _zcdp_eps(g: float, b: float, n: int, dl: float) -> float:
    xi, eta = zcdp_params(b * g, g, 1.0)
    return zcdp_to_dp(n * xi, n * eta, dl)


def _pld_log_delta(g: float, b: float, L: int, K: int, eps: float, resolution: float) -> float:
    up = float(kdim_pld(b * g, g, K, 1.0, rounds=L, step=_unit_step(g, b, resolution), upper_only=True,
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
                         shape: Optional[float] = None, rtol: float = 1e-4) -> NoiseCalibration:
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

    Returns a :class:`NoiseCalibration` (scale-free: multiply by the sensitivities lambda_i).
    The result depends on L and K only through L K, and on nothing about the data.
    """
    eps = _check_epsilon(epsilon)
    dl = V.check_scalar(delta, V.DELTA)
    L, K = _check_counts(n_passes, n_coordinates)
    mech = _check_choice(mechanism, "mechanism", MECHANISMS)
    acc = _check_choice(accountant, "accountant", ACCOUNTANTS)
    rt = V.check_scalar(rtol, V.Domain("rtol", 1e-10, 0.1, closed_lower=True, closed_upper=True))
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
        lt = math.log(dl) + math.log1p(-CERT_MARGIN)

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
        lr = math.log(dl) + math.log1p(-CERT_MARGIN) + math.log1p(-1e-7)
        g = _root_log(lambda x: _pld_log_delta(x, b, L, K, eps, CERT_RESOLUTION) - lr, g, min(rt, 1e-6), w=1e-3)
    return _certify(eps, dl, L, K, mech, acc, b, g, rt)


def _certify(eps, dl, L, K, mech, acc, b, g, rt) -> NoiseCalibration:
    steps = 0
    while True:
        if acc == "zcdp":
            xi, eta = zcdp_params(b * g, g, 1.0)
            xi, eta = zcdp_compose([(xi, eta)], rounds=L * K)
            e_ach = zcdp_to_dp(xi, eta, dl)
            d_ach = zcdp_delta(xi, eta, eps)
            ok = e_ach <= eps and d_ach <= dl
            cert = (f"zCDP: each of the {L * K} releases is (R_1({b * g:.6g})/(2 {g:.6g}^2), 1/(2 {g:.6g}^2))-zCDP at unit "
                    f"sensitivity; composed ({xi:.6g}, {eta:.6g})-zCDP; CKS conversion gives eps = {e_ach:.6g} <= {eps:g} "
                    f"at delta = {dl:.3g}")
            extra = {"xi": xi, "eta": eta}
        else:
            pld = kdim_pld(b * g, g, K, 1.0, rounds=L, upper_only=True, step=_unit_step(g, b, CERT_RESOLUTION))
            d_ach = float(pld.delta_upper(eps))
            ok = d_ach <= dl * (1.0 - CERT_MARGIN)
            e_ach = float(pld.epsilon(dl)) if ok else math.inf
            cert = (f"PLD: {L} x {K} releases of FH(alpha = {b * g:.6g}, gamma = {g:.6g}) at unit sensitivity "
                    f"(b = 0: Gaussian), composed; certified upper bound delta({eps:g}) <= {d_ach:.6g} "
                    f"<= delta (1 - {CERT_MARGIN:g}) (pessimistic discretisation, step {pld.step:.3g})")
            extra = {"step": pld.step}
        if ok:
            break
        g *= 1.0 + max(rt, 1e-9) * 2.0**steps
        steps += 1
        if steps > 60:
            raise RuntimeError("the calibration could not be certified")
    v = g * g * noise_variance_factor(b)
    return NoiseCalibration(mech, acc, eps, dl, L, K, g, b, v, d_ach, e_ach,
                            cert + (f"; {steps} upward correction(s)" if steps else ""), extra)
