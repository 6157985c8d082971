"""Certified minimum-variance calibration of the flipped Huber mechanism.

Problem (1-D, Theorem 3): minimise Var FH(alpha, gamma^2) subject to
delta^(1)(eps; alpha, gamma, Delta) <= delta.

Structure used.  For a fixed shape b = alpha/gamma the family is a scale family:
Var = gamma^2 v(b) and delta depends on gamma only through D = Delta/gamma, and
delta is non-decreasing in D (Lemma 11: the profile is non-decreasing in the
sensitivity).  So for each b the least gamma is one monotone 1-D root
D*(b) = sup{D : delta(eps; b, D) <= delta}, and the optimum is a 1-D search of
v(b)/D*(b)^2 over b >= 0: a log-spaced scan of 57 shapes plus b = 0, then 7 zoom rounds of 33
shapes across the best one's neighbours, D*(b) for all shapes at once by vectorised bracketing
and bisection (:func:`_max_D_many`); the chosen shape's D* is recomputed by Brent (:func:`_max_D`).

Certification.  The returned (alpha, gamma) are floats, re-checked twice: with
:func:`fhsym.privacy_profile` under the margin PROFILE_RTOL (1e-9; the profile's
measured error is <= 1e-10), and with :func:`fhsym.privacy.certify.certified_profile`,
which evaluates delta at the exact binary values of (eps, alpha, gamma, Delta) to
60 digits (confirmed at 120) by code independent of the float kernels — needed
because calibrated optima sit at the kink eps = alpha Delta/gamma^2, where
delta depends on the rounding of alpha/gamma through a square root.  Any rounding
is toward more noise: gamma (and alpha with it, at fixed b) is scaled up until
both checks pass.  ``achieved_delta`` is the certified value.  A calibration never
under-noises.
"""

from __future__ import annotations

import math
from typing import Optional

import numpy as np
from scipy import optimize

from .._core import domains as V
from .._core.search import CalibrationError, increasing_roots, largest_true_many
from .._generated import flipped_huber_pieces as KP
from ..noise.flipped_huber import FlippedHuber
from ..privacy.bounds import profile_bound
from ..privacy.certify import certified_profile
from ..privacy.profile import PROFILE_RTOL, log_profile_std
from .engine import Request, certify, result
from .result import Calibration

__all__ = ["calibrate_flipped_huber", "gaussian_dominance", "max_D_many", "search_flipped_huber", "variance_std"]


def variance_std(b: float) -> float:
    lw = float(KP.log_kappa_std(np.float64(b)))
    return float(KP.variance_of_b(np.float64(b), lw))


def _max_D(eps: float, log_target: float, b: float) -> float:
    """sup{D > 0 : log delta(eps; b, D) <= log_target} (standard units, gamma = 1)."""
    lw = float(KP.log_kappa_std(np.float64(b)))

    def f(D: float) -> float:
        return float(log_profile_std(np.array([eps]), b, D, lw)[0]) - log_target

    lo, hi = 1.0, 1.0
    if f(1.0) <= 0:
        while f(hi) <= 0:
            lo, hi = hi, hi * 2.0
            if hi > 1e300:
                return math.inf
    else:
        while f(lo) > 0:
            hi, lo = lo, lo / 2.0
            if lo < 1e-300:
                return 0.0
    return optimize.brentq(f, lo, hi, xtol=1e-300, rtol=8 * np.finfo(float).eps, maxiter=400)


def _max_D_many(eps: float, log_target: float, bs: np.ndarray) -> np.ndarray:
    """:func:`_max_D` for many shapes at once: vectorised bracketing, then 52 bisection steps in log D.

    Returns sup{D : log delta(eps; b, D) <= log_target} for each b to ~1e-15 relative (0 or inf
    where the bracket leaves [1e-300, 1e300]).  Used by the scan over shapes; the chosen shape's D
    is recomputed by :func:`_max_D` (Brent) before certification.
    """
    bs = np.asarray(bs, dtype=float)
    lw = KP.log_kappa_std(bs)
    e = np.float64(eps)

    def feasible(D: np.ndarray, idx: np.ndarray) -> np.ndarray:
        with np.errstate(all="ignore"):
            v = log_profile_std(e, bs[idx], D, lw[idx])
        return v <= log_target  # NaN counts as infeasible

    # bracketing by factors 4 from D = 1, then 52 bisections of log D: 4^(2^-52), ~3e-16 relative
    return largest_true_many(feasible, bs.size, grow=4.0, steps=52, span=1e300)


def _objective_many(bs: np.ndarray, eps: float, log_target: float) -> np.ndarray:
    """log(Var / Delta^2) at the least feasible gamma, for each shape b (inf where infeasible)."""
    bs = np.asarray(bs, dtype=float)
    D = _max_D_many(eps, log_target, bs)
    v = KP.variance_of_b(bs, KP.log_kappa_std(bs))
    with np.errstate(divide="ignore"):
        return np.where(D > 0, np.log(v) - 2.0 * np.log(D), np.inf)


def _certify(eps: float, delta: float, sensitivity: float, b: float, gamma: float):
    """Certified FH(b gamma', gamma') for the least gamma' >= gamma the engine accepts: (noise, bound, steps).

    The bound is the ball-arithmetic enclosure of :func:`fhsym.privacy.bounds.profile_bound` at the
    exact returned floats (the search's float profile is not part of the claim).
    """
    return certify(lambda g: FlippedHuber(b * g, g), gamma, lambda n: profile_bound(n, eps, sensitivity), delta,
                   what="gamma")


_U_MAX = 700.0  # |log D| beyond which D* is taken as 0 or inf (D = Delta/gamma outside the floats' use)


def max_D_many(eps: float, log_target: float, bs: np.ndarray, guess: Optional[np.ndarray] = None) -> np.ndarray:
    """D*(b) = sup{D : log delta(eps; b, D) <= log_target} for many shapes b at once (standard units).

    delta is non-decreasing in D (Lemma 11), so each D* is the root of an increasing function of
    u = log D: bracketed by steps of 2 in u from ``guess`` (default D = 1), then Illinois false
    position (:func:`fhsym._core.search.increasing_roots`) to ~2 ulp of u.  The returned D is on
    the feasible side.  0 (inf) where no D above e^-700 (every D below e^700) is feasible.
    """
    bs = np.asarray(bs, dtype=float)
    n = bs.size
    lw = KP.log_kappa_std(bs)
    e = np.float64(eps)

    def f(u: np.ndarray, idx: np.ndarray) -> np.ndarray:
        with np.errstate(all="ignore"):
            v = log_profile_std(e, bs[idx], np.exp(u), lw[idx]) - log_target
        return np.maximum(np.where(np.isnan(v), np.inf, v), -1e300)

    u = np.zeros(n) if guess is None else np.log(np.asarray(guess, dtype=float))
    u = np.clip(np.where(np.isfinite(u), u, 0.0), -_U_MAX, _U_MAX)
    everywhere = np.arange(n)
    fu = f(u, everywhere)
    lo, hi = np.full(n, -np.inf), np.full(n, np.inf)
    flo, fhi = np.full(n, -np.inf), np.full(n, np.inf)
    up = fu <= 0
    lo[up], flo[up] = u[up], fu[up]
    hi[~up], fhi[~up] = u[~up], fu[~up]
    # The kink eps = b D: for large b the profile falls there from the Laplace value to the
    # Gaussian-tail value (a cliff a root finder could only bisect); when the root is at the
    # cliff, the pair (kink, kink + 1e-12) brackets it at once.
    kinky = np.flatnonzero((bs > 0) & (eps > 0))
    if kinky.size:
        uk = np.log(eps / bs[kinky])
        ok = np.abs(uk) < _U_MAX
        kinky, uk = kinky[ok], uk[ok]
        for x in (uk, uk + 1e-12):
            fx = f(x, kinky)
            feas = fx <= 0
            raise_lo = feas & (x > lo[kinky])
            lo[kinky[raise_lo]], flo[kinky[raise_lo]] = x[raise_lo], fx[raise_lo]
            drop_hi = ~feas & (x < hi[kinky])
            hi[kinky[drop_hi]], fhi[kinky[drop_hi]] = x[drop_hi], fx[drop_hi]
        up = ~np.isfinite(hi)
        u = np.where(up, lo, hi)
    for direction in (2.0, -2.0):
        idx = np.flatnonzero(~np.isfinite(hi) if direction > 0 else ~np.isfinite(lo))
        cur = (lo if direction > 0 else hi)[idx].copy()
        while idx.size:
            cur = cur + direction
            out = np.abs(cur) > _U_MAX
            if out.any():
                done = idx[out]
                lo[done] = np.inf if direction > 0 else -np.inf
                idx, cur = idx[~out], cur[~out]
                if idx.size == 0:
                    break
            fv = f(cur, idx)
            crossed = (fv > 0) if direction > 0 else (fv <= 0)
            if direction > 0:
                hi[idx[crossed]], fhi[idx[crossed]] = cur[crossed], fv[crossed]
                lo[idx[~crossed]], flo[idx[~crossed]] = cur[~crossed], fv[~crossed]
            else:
                lo[idx[crossed]], flo[idx[crossed]] = cur[crossed], fv[crossed]
                hi[idx[~crossed]], fhi[idx[~crossed]] = cur[~crossed], fv[~crossed]
            idx, cur = idx[~crossed], cur[~crossed]
    D = np.where(np.isposinf(lo), np.inf, 0.0)
    todo = np.flatnonzero(np.isfinite(lo) & np.isfinite(hi))
    if todo.size:
        def g(x: np.ndarray, sub: np.ndarray) -> np.ndarray:
            return f(x, todo[sub])

        ulo = increasing_roots(g, lo[todo], hi[todo], flo[todo], fhi[todo], xtol=1e-12)
        D[todo] = np.exp(ulo)
    return D


def _objective(bs: np.ndarray, D: np.ndarray) -> np.ndarray:
    """log(Var / Delta^2) = log v(b) - 2 log D*(b); inf where no D is feasible."""
    v = KP.variance_of_b(bs, KP.log_kappa_std(bs))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(D > 0, np.log(v) - 2.0 * np.log(D), np.inf)


def _kink_candidate(eps: float, log_target: float, D_guess: float):
    """The best shape on the kink eps = b D (where 1-D optima sit for small delta): (b, D) or None.

    Along the kink, b = eps/D and log delta(eps; eps/D, D) is increasing in D; its root is found
    like D*(b) (bracket in log D, then Illinois).
    """
    if not (eps > 0 and D_guess > 0 and math.isfinite(D_guess)):
        return None
    e = np.float64(eps)

    def f(u: np.ndarray, idx: np.ndarray) -> np.ndarray:
        D = np.exp(u)
        b = eps / D
        with np.errstate(all="ignore"):
            v = log_profile_std(e, b, D, KP.log_kappa_std(b)) - log_target
        return np.maximum(np.where(np.isnan(v), np.inf, v), -1e300)

    u0 = math.log(D_guess)
    lo = hi = None
    f0 = float(f(np.array([u0]), np.zeros(1, dtype=int))[0])
    step = 1.0 if f0 <= 0 else -1.0
    prev_u, prev_f = u0, f0
    for _ in range(60):
        cur = prev_u + step
        fc = float(f(np.array([cur]), np.zeros(1, dtype=int))[0])
        if (fc > 0) != (prev_f > 0):
            lo, hi, flo, fhi = (prev_u, cur, prev_f, fc) if step > 0 else (cur, prev_u, fc, prev_f)
            break
        prev_u, prev_f = cur, fc
    if lo is None:
        return None
    u = float(increasing_roots(f, np.array([lo]), np.array([hi]), np.array([flo]), np.array([fhi]))[0])
    D = math.exp(u)
    return eps / D, D


def search_flipped_huber(eps: float, log_target: float, b_max: float = 1e4):
    """The minimum-variance shape and scale in standard units: (b, D) with delta(eps; b, D) <= target.

    F(b) = log v(b) - 2 log D*(b) is minimised over b >= 0:

    1. D*(b) on a log grid of 36 shapes in [1e-3, b_max] plus b = 0 (the Gaussian), all at once;
    2. the kink candidate b = eps/D on the curve eps = b D, where the optimum sits when the
       feasible set has a corner there (small delta), found by a 1-D root; if it beats the grid
       and F rises on both sides of it (b (1 +- 1e-4)), it is the answer;
    3. otherwise four zoom rounds of 9 shapes between the best grid shape's neighbours (each
       narrows log b four-fold), then up to three parabolic steps in log b (smooth interior
       optima, large delta).
    Every D returned is on the feasible side of its root (by the float profile).
    """
    grid = np.concatenate([[0.0], np.geomspace(1e-3, b_max, 36)])
    D = max_D_many(eps, log_target, grid)
    F = _objective(grid, D)
    i = int(np.argmin(F))
    best = (float(F[i]), float(grid[i]), float(D[i]))

    def consider(bs: np.ndarray, guess: np.ndarray):
        nonlocal best
        Dz = max_D_many(eps, log_target, bs, guess)
        Fz = _objective(bs, Dz)
        j = int(np.argmin(Fz))
        if Fz[j] < best[0]:
            best = (float(Fz[j]), float(bs[j]), float(Dz[j]))
        return Dz, Fz

    kink = _kink_candidate(eps, log_target, best[2] if best[2] > 0 else 1.0)
    if kink is not None:
        bk, Dk = kink
        Fk = float(_objective(np.array([bk]), np.array([Dk]))[0])
        if Fk <= best[0]:
            _, Fs = consider(np.array([bk * (1 - 1e-4), bk * (1 + 1e-4)]), np.array([Dk, Dk]))
            if np.all(Fs >= Fk):  # a corner minimum that beats every grid shape
                best = (Fk, bk, Dk)
                return best[1], best[2]
        if Fk < best[0]:
            best = (Fk, bk, Dk)
    flat = np.isfinite(F[-1]) and F[-1] - best[0] <= 1e-12  # the Laplace limit: F flat in b
    if (best[1] > 0 or i > 0) and not flat:
        b0 = best[1] if best[1] > 0 else grid[1]
        k = int(np.searchsorted(grid, b0))
        lo_b, hi_b = grid[max(k - 1, 1)], grid[min(k + 1, grid.size - 1)]
        logD = np.log(np.where(D[1:] > 0, D[1:], 1.0))
        for _ in range(4):
            zoom = np.geomspace(lo_b, hi_b, 9)
            Dz, Fz = consider(zoom, np.exp(np.interp(np.log(zoom), np.log(grid[1:]), logD)))
            j = int(np.argmin(Fz))
            lo_b, hi_b = zoom[max(j - 1, 0)], zoom[min(j + 1, zoom.size - 1)]
        # parabolic steps in x = log b through the best point and its zoom neighbours
        pts = sorted([(float(np.log(z)), float(f), float(d)) for z, f, d in zip(zoom, Fz, Dz) if np.isfinite(f)])
        for _ in range(3):
            if len(pts) < 3:
                break
            m = min(range(len(pts)), key=lambda q: pts[q][1])
            if m == 0 or m == len(pts) - 1:
                break
            (x0, f0, _), (x1, f1, d1), (x2, f2, _) = pts[m - 1], pts[m], pts[m + 1]
            den = (x1 - x0) * (f1 - f2) - (x1 - x2) * (f1 - f0)
            if den == 0:
                break
            xv = x1 - 0.5 * ((x1 - x0) ** 2 * (f1 - f2) - (x1 - x2) ** 2 * (f1 - f0)) / den
            if not (x0 < xv < x2) or abs(xv - x1) < 1e-9:
                break
            Dv, Fv = consider(np.array([math.exp(xv)]), np.array([d1]))
            pts = sorted(pts + [(xv, float(Fv[0]), float(Dv[0]))])
    F_best, b, D_best = best
    if not (np.isfinite(F_best) and D_best > 0):
        raise CalibrationError(f"cannot calibrate flipped Huber noise for epsilon={eps!r}: no shape meets the target")
    return b, D_best


def calibrate_flipped_huber(epsilon: float, delta: float, sensitivity: float = 1.0) -> Calibration:
    """Minimum-variance 1-D flipped Huber parameters meeting (eps, delta)-DP, certified.

    The exact condition of Theorem 3 (eq 13): minimise Var FH(alpha, gamma^2) (eq 11) subject
    to delta^(1)(eps) <= delta.  In standard units (b = alpha/gamma, D = Delta/gamma) the
    variance is Delta^2 v(b)/D^2 and delta depends on (b, D) only, non-decreasing in D: the
    search (:func:`search_flipped_huber`) finds the shape minimising v(b)/D*(b)^2; the engine
    (:func:`fhsym.calibration.engine.certify`) certifies the returned floats.

    >>> cal = calibrate_flipped_huber(1.0, 1e-6)
    >>> cal.achieved_delta <= 1e-6, f"{cal.variance:.5g}"
    (True, '1.9998')
    """
    eps = V.check_scalar(epsilon, V.EPSILON)
    dlt = V.check_scalar(delta, V.DELTA)
    Delta = V.check_scalar(sensitivity, V.SENSITIVITY)
    log_target = math.log(dlt) - math.log1p(PROFILE_RTOL)
    b, D = search_flipped_huber(eps, log_target)
    noise, bound, steps = _certify(eps, dlt, Delta, b, Delta / D)
    return result(noise, bound, steps, Request(eps, dlt, Delta, Delta, Delta), "exact-1d")


def gaussian_dominance(epsilon: float, delta: float, sensitivity: float = 1.0, sigma: Optional[float] = None):
    """The Section IV-A construction: gamma = sigma_Gauss, alpha = [gamma^2 eps/Delta - Delta/2]_+.

    With sigma the least Gaussian scale meeting (eps, delta) (computed here from the
    exact Gaussian profile, alpha = 0, unless given), FH(alpha, sigma^2) is also
    (eps, delta)-DP (the paper's argument: case (v) of eq 13 and omega >= sqrt(2 pi))
    and has variance <= sigma^2.  Returns (FlippedHuber, sigma, achieved_delta).

    ``achieved_delta`` is :func:`fhsym.certified_profile` of the returned FH at eps (a float):
    a certified upper bound of delta^(1)(eps) (eq 13) at the exact floats, evaluated at 60
    digits and confirmed at 120.  It can be far below delta (1.1e-9 for delta = 1e-6 in the
    example): the construction is not variance-optimal; :func:`calibrate` is.

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
        log_target = math.log(dlt) - math.log1p(PROFILE_RTOL)
        sigma = Delta / _max_D(eps, log_target, 0.0)
        sigma = _certify(eps, dlt, Delta, 0.0, sigma)[0].gamma
    sigma = V.check_scalar(sigma, V.Domain("sigma", 0.0, math.inf))
    alpha = max(sigma**2 * eps / Delta - Delta / 2.0, 0.0)
    fh = FlippedHuber(alpha, sigma)
    return fh, sigma, float(certified_profile(eps, alpha, sigma, Delta))
