"""Certified one-dimensional calibration of the comparison mechanisms.

Each function searches the least noise with the mechanism's stable float profile (the
searches of :mod:`fhsym._core.search`) and hands the proposal to
:func:`fhsym.calibration.engine.certify`, which re-checks delta at the exact returned floats
(:func:`fhsym.privacy.bounds.profile_bound`) and moves to more noise until it is certified.

* Gaussian: the analytic Gaussian mechanism (Balle & Wang 2018; paper eq 29): the least sigma.
* Laplace: beta = Delta/(eps - 2 log(1 - delta)) (Appendix F-A(b)); pure DP for delta = 0.
* truncated Laplace: lambda = Delta/eps and the least half-width A (Geng et al. 2020).
* staircase: the variance-optimal eps-DP staircase (Geng & Viswanath 2016); pure DP.
* OSGT: minimum variance over (vartheta, varrho) under the exact two-case condition.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Optional, Tuple

import numpy as np
from scipy import optimize

from .._core import domains as V
from .._core.search import CalibrationError, smallest_true, smallest_true_smooth
from ..noise.gaussian import Gaussian, gaussian_profile
from ..noise.laplace import Laplace, laplace_profile
from ..noise.osgt import OSGT, VARRHO, VARTHETA, osgt_profile
from ..noise.staircase import Staircase, staircase_optimal_gamma
from ..noise.truncated_laplace import TruncatedLaplace, tl_profile
from ..privacy.bounds import FLOAT_PROFILE_RTOL, profile_bound
from .engine import Request, certify, result
from .result import Calibration

__all__ = [
    "SEARCH_MARGIN",
    "calibrate_gaussian",
    "calibrate_laplace",
    "calibrate_osgt",
    "calibrate_staircase",
    "calibrate_truncated_laplace",
]

#: the float searches aim at delta * (1 - SEARCH_MARGIN), so that the certified bound (the float
#: profile widened by FLOAT_PROFILE_RTOL, or an exact enclosure) passes without upward steps
SEARCH_MARGIN = 4 * FLOAT_PROFILE_RTOL

_POS_EPSILON = V.Domain("epsilon", 0.0, math.inf)
_DELTA_OR_ZERO = V.Domain("delta", 0.0, 1.0, closed_lower=True)


def _request(eps: float, delta: float, Delta: float) -> Request:
    return Request(eps, delta, Delta, Delta, Delta)


def _bound_at(eps: float, Delta: float):
    return lambda noise: profile_bound(noise, eps, Delta)


def calibrate_gaussian(epsilon: float, delta: float, sensitivity: float = 1.0) -> Calibration:
    """The analytic Gaussian mechanism: the least sigma with delta(eps) <= delta (paper eq 29).

    The stable profile is monotone in sigma; the search returns the smallest double sigma whose
    float profile is <= delta (1 - SEARCH_MARGIN), and the engine certifies it.

    >>> cal = calibrate_gaussian(1.0, 1e-6)
    >>> f"{cal.sigma:.6f}", cal.achieved_delta <= 1e-6
    ('4.224679', True)
    """
    eps = V.check_scalar(epsilon, V.EPSILON)
    target = V.check_scalar(delta, V.DELTA)
    d = V.check_scalar(sensitivity, V.SENSITIVITY)
    thr = target * (1.0 - SEARCH_MARGIN)
    e1 = np.array([eps])
    x0 = d * math.sqrt(2.0 * math.log(1.25 / target)) / max(eps, 1e-3)
    log_thr = math.log(thr)

    def g(s: float) -> float:
        v = float(gaussian_profile(e1, d, s)[0])
        return (math.log(v) if v > 0 else -1e300) - log_thr

    sigma = smallest_true_smooth(lambda s: bool(gaussian_profile(e1, d, s)[0] <= thr), g, x0, name="sigma")
    noise, bound, steps = certify(Gaussian, sigma, _bound_at(eps, d), target, what="sigma")
    return result(noise, bound, steps, _request(eps, target, d), "analytic-gaussian")


def calibrate_laplace(epsilon: float, delta: float = 0.0, sensitivity: float = 1.0) -> Calibration:
    """The least beta with delta_L(eps) <= delta: beta >= Delta/(eps - 2 log(1 - delta)).

    ``delta = 0``: pure DP, beta the smallest double with beta * eps >= Delta (exact rationals).

    >>> calibrate_laplace(1.0).beta, calibrate_laplace(1.0).achieved_delta
    (1.0, 0.0)
    """
    eps = V.check_scalar(epsilon, V.EPSILON)
    target = V.check_scalar(delta, _DELTA_OR_ZERO)
    d = V.check_scalar(sensitivity, V.SENSITIVITY)
    if target == 0.0:
        if eps == 0.0:
            raise ValueError("epsilon must be a finite real number in (0, inf) when delta = 0 "
                             "(pure 0-DP is impossible with additive noise); got 0.0")
        fe, fd = Fraction(eps), Fraction(d)
        beta = smallest_true(lambda b: Fraction(b) * fe >= fd, d / eps, name="beta")
    else:
        thr = target * (1.0 - SEARCH_MARGIN)
        e1 = np.array([eps])
        beta = smallest_true(lambda b: bool(laplace_profile(e1, d, b)[0] <= thr),
                             d / (eps - 2.0 * math.log1p(-target)), name="beta")
    noise, bound, steps = certify(Laplace, beta, _bound_at(eps, d), target, what="beta")
    pure = target == 0.0
    return result(noise, bound, steps, _request(eps, target, d), "laplace-pure" if pure else "laplace",
                  claim="pure-l1" if pure else "profile-1d")


def _tl_least_bound(eps: float, d: float, lam: float, thr: float) -> float:
    """The least half-width A with the truncated Laplace profile <= thr at scale lam (inf if none)."""
    e1 = np.array([eps])
    if tl_profile(e1, d, lam, 1e300)[0] > thr:  # the centre alone leaks more than thr
        return math.inf
    log_thr = math.log(thr)

    def g(A: float) -> float:
        v = float(tl_profile(e1, d, lam, A)[0])
        return (math.log(v) if v > 0 else -1e300) - log_thr

    a0 = lam * (math.log1p(math.expm1(min(eps, 700.0)) / (2.0 * thr)) if eps < 700 else eps - math.log(2.0 * thr))
    return smallest_true_smooth(lambda A: bool(tl_profile(e1, d, lam, A)[0] <= thr), g, max(a0, d), name="bound")


def _golden(f, lo: float, hi: float, iters: int = 45, tol: float = 1e-9):
    """Golden-section minimisation of f on [lo, hi] (one evaluation per step); returns the best (x, f(x))."""
    r = (math.sqrt(5.0) - 1.0) / 2.0
    x1, x2 = hi - r * (hi - lo), lo + r * (hi - lo)
    f1, f2 = f(x1), f(x2)
    best = min((f1, x1), (f2, x2))
    for _ in range(iters):
        if hi - lo < tol:
            break
        if f1 <= f2:
            hi, x2, f2 = x2, x1, f1
            x1 = hi - r * (hi - lo)
            f1 = f(x1)
            best = min(best, (f1, x1))
        else:
            lo, x1, f1 = x1, x2, f2
            x2 = lo + r * (hi - lo)
            f2 = f(x2)
            best = min(best, (f2, x2))
    return best[1], best[0]


def calibrate_truncated_laplace(epsilon: float, delta: float, sensitivity: float = 1.0) -> Calibration:
    """Minimum-variance truncated Laplace noise (scale lambda, half-width A) for (eps, delta)-DP, certified.

    Geng et al. (2020) take lambda = Delta/eps and A = lambda log(1 + (e^eps - 1)/(2 delta)), which
    is optimal in the high-privacy regime; for large delta another lambda (with its own least A)
    can have less variance.  So the variance is minimised over lambda (a log grid from Delta/(20 eps)
    to 20 Delta/eps, then golden-section steps), each
    lambda with its least A; Geng's lambda (the smallest double with lambda eps >= Delta, exact
    rationals) is always a candidate.  The engine certifies A at the chosen lambda.

    >>> cal = calibrate_truncated_laplace(0.3, 1e-6)
    >>> f"{cal.variance:.4f}"
    '22.2114'
    """
    eps = V.check_scalar(epsilon, _POS_EPSILON)
    target = V.check_scalar(delta, V.DELTA)
    d = V.check_scalar(sensitivity, V.SENSITIVITY)
    thr = target * (1.0 - SEARCH_MARGIN)
    fe, fd = Fraction(eps), Fraction(d)
    geng = smallest_true(lambda v: Fraction(v) * fe >= fd, d / eps, name="scale")

    def var_at(lam: float):
        A = _tl_least_bound(eps, d, lam, thr)
        return (TruncatedLaplace(lam, A).var() if math.isfinite(A) else math.inf), A

    grid = geng * np.geomspace(0.05, 20.0, 33)
    grid[16] = geng  # the middle of the symmetric log grid: Geng's lambda itself
    vals = [var_at(float(x)) for x in grid]
    i = int(np.argmin([v for v, _ in vals]))
    best_v, best_A, best_lam = vals[i][0], vals[i][1], float(grid[i])
    lo, hi = math.log(grid[max(i - 1, 0)]), math.log(grid[min(i + 1, grid.size - 1)])
    x, v = _golden(lambda y: var_at(math.exp(y))[0], lo, hi)
    if v < best_v:
        best_lam = math.exp(x)
        best_v, best_A = var_at(best_lam)
    if not math.isfinite(best_A):
        raise CalibrationError(f"cannot calibrate truncated Laplace noise for ({eps}, {target})")
    lam = best_lam
    noise, b, steps = certify(lambda A: TruncatedLaplace(lam, A), best_A, _bound_at(eps, d), target, what="bound")
    return result(noise, b, steps, _request(eps, target, d), "truncated-laplace")


def calibrate_staircase(epsilon: float, sensitivity: float = 1.0, *, cost: str = "variance") -> Calibration:
    """The optimal eps-DP staircase for sensitivity Delta (Geng & Viswanath 2016); delta = 0.

    ``cost='variance'`` minimises the noise power (gamma* from the cubic); ``'magnitude'`` uses
    gamma = 1/(1 + e^{eps/2}), optimal for E|X|.  The staircase is eps-DP for every sensitivity
    up to its design sensitivity, so the certificate is exact.

    >>> cal = calibrate_staircase(1.0)
    >>> cal.achieved_delta, cal.mechanism.epsilon
    (0.0, 1.0)
    """
    eps = V.check_scalar(epsilon, _POS_EPSILON)
    d = V.check_scalar(sensitivity, V.SENSITIVITY)
    g = staircase_optimal_gamma(eps, cost)
    noise, bound, steps = certify(lambda s: Staircase(eps, s, g), d, _bound_at(eps, d), 0.0, what="sensitivity")
    return result(noise, bound, steps, _request(eps, 0.0, d), f"staircase-{cost}")


# ---------------------------------------------------------------------------
# OSGT: a two-parameter search (shape theta = vartheta/varrho, then the scale)


def _solve_log(f, x0: float, xtol: float) -> float:
    """Root of an increasing function ``f`` of a log-parameter (bracketing by steps of 2)."""
    lo = hi = x0
    if f(x0) > 0:
        while f(lo) > 0:
            lo -= 2.0
            if lo < -700:
                raise CalibrationError("cannot calibrate OSGT: no admissible parameter")
        hi = lo + 2.0
    else:
        while f(hi) <= 0:
            hi += 2.0
            if hi > 700:
                raise CalibrationError("cannot calibrate OSGT: no admissible parameter")
        lo = hi - 2.0
    return optimize.brentq(f, lo, hi, xtol=xtol, rtol=4 * np.finfo(float).eps)


def _log_delta(val: float) -> float:
    return math.log(val) if val > 0 else -1e4


def _s_star(eps: float, theta: float, log_thr: float, xtol: float = 1e-13) -> float:
    """Largest normalised sensitivity s = Delta/varrho with delta(theta, s) = thr."""
    e1 = np.array([eps])

    def f(log_s: float) -> float:
        return _log_delta(float(osgt_profile(e1, math.exp(log_s), theta, 1.0)[0])) - log_thr

    return math.exp(_solve_log(f, 0.0, xtol))


def _minimise(fun, grid: np.ndarray) -> float:
    """Grid scan followed by bounded Brent between the neighbours of the best point."""
    vals = np.array([fun(float(x)) for x in grid])
    i = int(np.argmin(vals))
    best_x, best_v = float(grid[i]), float(vals[i])
    lo, hi = float(grid[max(i - 1, 0)]), float(grid[min(i + 1, len(grid) - 1)])
    if hi > lo:
        res = optimize.minimize_scalar(fun, bounds=(lo, hi), method="bounded", options={"xatol": 1e-6})
        if res.fun < best_v:
            best_x, best_v = float(res.x), float(res.fun)
    return best_x


def _osgt_box_search(eps: float, d: float, log_thr: float, box) -> Tuple[float, float]:
    try:
        (vt_lo, vt_hi), (vr_lo, vr_hi) = box
    except (TypeError, ValueError):
        raise ValueError(f"box must be ((vartheta_lo, vartheta_hi), (varrho_lo, varrho_hi)); got {box!r}") from None
    vt_lo, vt_hi = V.check_scalar(vt_lo, VARTHETA), V.check_scalar(vt_hi, VARTHETA)
    vr_lo, vr_hi = V.check_scalar(vr_lo, VARRHO), V.check_scalar(vr_hi, VARRHO)
    if not (vt_lo <= vt_hi and vr_lo <= vr_hi):
        raise ValueError(f"box must have lo <= hi in both coordinates; got {box!r}")
    e1 = np.array([eps])

    def rho_star(vt: float, xtol: float) -> float:
        def f(log_r: float) -> float:  # decreasing in varrho -> -log(varrho) is the increasing variable
            return _log_delta(float(osgt_profile(e1, d, vt, math.exp(-log_r))[0])) - log_thr

        return math.exp(-_solve_log(f, -math.log(vr_hi), xtol))

    def var_of(vt: float) -> float:
        r = rho_star(vt, 1e-10)
        if r > vr_hi:
            return math.inf
        return OSGT(vt, max(r, vr_lo)).var()

    vartheta = _minimise(var_of, np.linspace(vt_lo, vt_hi, 61))
    if not math.isfinite(var_of(vartheta)):
        raise CalibrationError(f"no OSGT parameters in box {box!r} achieve ({eps}, {math.exp(log_thr)})-DP")
    return vartheta, max(rho_star(vartheta, 1e-13), vr_lo)


def calibrate_osgt(epsilon: float, delta: float, sensitivity: float = 1.0, *, theta_max: float = 1e4,
                   box: Optional[Tuple[Tuple[float, float], Tuple[float, float]]] = None) -> Calibration:
    """Minimum-variance OSGT parameters meeting the exact condition delta_O(eps) <= delta.

    Unconstrained (``box=None``): the profile depends on (theta, s) = (vartheta/varrho,
    Delta/varrho) only and increases with s; for each theta the largest admissible s*(theta) is a
    Brent root of log delta, and Delta^2 (1 - theta K(theta))/s*(theta)^2 is minimised over
    theta in [0, theta_max] (log-spaced scan, then bounded Brent).  As theta -> inf with
    varrho^2/vartheta fixed OSGT tends to Laplace, so for large eps the infimum is approached at
    theta_max.  ``box=((vt_lo, vt_hi), (vr_lo, vr_hi))``: the paper's box-constrained protocol,
    done continuously.  The scale varrho (vartheta fixed) is then certified by the engine.

    >>> cal = calibrate_osgt(3.0, 1e-6)
    >>> f"{cal.variance:.3f}"
    '0.222'
    """
    eps = V.check_scalar(epsilon, V.EPSILON)
    target = V.check_scalar(delta, V.DELTA)
    d = V.check_scalar(sensitivity, V.SENSITIVITY)
    tmax = V.check_scalar(theta_max, V.Domain("theta_max", 0.0, math.inf))
    thr = target * (1.0 - SEARCH_MARGIN)
    log_thr = math.log(thr)
    e1 = np.array([eps])
    if box is None:
        def vnorm(z: float) -> float:  # z = log(theta)
            theta = math.exp(z)
            return OSGT(theta, 1.0).var() / _s_star(eps, theta, log_thr, 1e-10) ** 2

        zmax = math.log(tmax)
        grid = np.linspace(math.log(1e-3), zmax, max(int((zmax - math.log(1e-3)) / 0.5), 4))
        z = _minimise(vnorm, grid)
        theta = math.exp(z)
        if 1.0 / _s_star(eps, 0.0, log_thr, 1e-10) ** 2 < vnorm(z):
            theta = 0.0
        rho0 = d / _s_star(eps, theta, log_thr)
        vartheta = theta * rho0
    else:
        vartheta, rho0 = _osgt_box_search(eps, d, log_thr, box)
    rho = smallest_true(lambda r: bool(osgt_profile(e1, d, vartheta, r)[0] <= thr), rho0 * (1.0 + 1e-9), name="varrho")
    if box is not None:
        rho = max(rho, box[1][0])
    noise, bound, steps = certify(lambda r: OSGT(vartheta, r), rho, _bound_at(eps, d), target, what="varrho")
    return result(noise, bound, steps, _request(eps, target, d), "osgt" if box is None else "osgt-box")
