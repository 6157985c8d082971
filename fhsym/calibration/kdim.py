"""Certified minimum-variance calibration of the K-dimensional flipped Huber mechanism.

Problem: minimise the per-coordinate variance Var FH(alpha, gamma^2) = gamma^2 v(b), b = alpha/gamma,
subject to (eps, delta)-DP of the mechanism that adds i.i.d. FH noise to K coordinates.

Structure used (as in 1-D, :mod:`fhsym.calibration`): for a fixed shape b the family is a scale
family, and the privacy of the mechanism depends on gamma only through D = Delta/gamma (and
Delta_2/gamma, Delta_1/gamma, fixed multiples of it), monotonically (more noise is more private).
So for each b the least noise is one monotone root D*(b), and the optimum is a 1-D search of
v(b)/D*(b)^2 over b in {0} U [1e-3, b_max].

Methods
-------
``"sufficient"``  Theorem 8 (:mod:`fhsym.kdim.sufficient`): D*(b) is the largest D at which
    Theorem 8's restriction and inequality hold (bisection on that predicate).
``"exact"``       the exact K-fold profile (:mod:`fhsym.kdim.pld`), certified upper bound
    delta_upper(eps) <= delta; D*(b) by Brent's method on log delta_upper.  This is exact for the
    l_inf box ||d||_inf <= Delta (worst case d = (Delta, ..., Delta), see
    :mod:`fhsym.kdim.profile`); tighter Delta_2 / Delta_1 are not used by it (the box bound stays
    valid for the smaller set).
``"auto"``        both; the smaller certified variance wins.  For a sensitivity set tighter than
    the box only ``"exact"`` is certified (see below), so ``"auto"`` uses ``"exact"`` alone there.

Certification (never under-noised).  The returned floats are re-checked:

* ``exact``: the K-fold PLD upper bound at the returned (alpha, gamma, Delta), at the default
  step, must be <= delta (1 - 1e-9); gamma (and alpha with it) is scaled up until it is.
  The builder uses the public profile, whose error (<= 1e-10 relative, the neighbourhood of the
  kink eps = alpha Delta/gamma^2 re-evaluated by mpmath) the 1e-9 margin covers.
* ``sufficient``: Theorem 8 at the returned floats with margin 1e-10, and -- for the box
  (Delta_2 = sqrt(K) Delta, Delta_1 = K Delta), where Theorem 8 is proven (``docs/kdim.md``) --
  also the exact PLD upper bound <= delta, which does not depend on Theorem 8 at all.  For a
  set tighter than the box Theorem 8's proof is incomplete (its Lemma 7 fails for non-extreme
  d); the PLD upper bound of every extreme vector of :func:`fhsym.kdim.worst_case_candidates`
  is then checked instead, ``achieved_delta`` is the larger of Theorem 8's left-hand side and
  those bounds, and the certificate says that this is not a proof for the whole set (only an
  explicit ``method="sufficient"`` returns such a result).
"""

from __future__ import annotations

import math
from typing import Optional, Tuple

import numpy as np
from scipy import optimize

from .._core import domains as V
from ..privacy.bounds import Bound
from .engine import Request, certify, result
from .flipped_huber import _variance_std
from .result import Calibration
from ..noise.flipped_huber import FlippedHuber
from ..accounting import sufficient as S
from ..accounting.kdim import default_step, kdim_pld, worst_case_candidates

__all__ = ["calibrate_kdim", "calibrate_sufficient", "calibrate_exact", "CERT_MARGIN"]

CERT_MARGIN = 1e-9  # delta_upper <= delta * (1 - CERT_MARGIN)
_THM8_RTOL = 1e-10
B_MAX = 1e4


_v = _variance_std  # v(b) = Var FH(b, 1), eq 11 in standard units


def _is_box(K: int, D: float, D2: float, D1: float) -> bool:
    return D2 >= math.sqrt(K) * D * (1 - 1e-12) and D1 >= K * D * (1 - 1e-12)


def _minimise_over_b(obj, grid: np.ndarray, include_zero: bool = True, xatol: float = 1e-6) -> Tuple[float, float]:
    """min over b of obj(b) (log-space scan, then bounded Brent around the best grid point)."""
    vals = np.array([obj(float(b)) for b in grid])
    i = int(np.argmin(vals))
    best_b, best = float(grid[i]), float(vals[i])
    if 0 < i < len(grid) - 1 and math.isfinite(best):
        f = lambda lb: obj(math.exp(lb))  # noqa: E731
        res = optimize.minimize_scalar(f, bounds=(math.log(grid[i - 1]), math.log(grid[i + 1])), method="bounded",
                                       options={"xatol": xatol, "maxiter": 60})
        if res.fun < best:
            best_b, best = math.exp(res.x), float(res.fun)
    if include_zero:
        z = obj(0.0)
        if z <= best:
            best_b, best = 0.0, z
    return best_b, best


# ---------------------------------------------------------------------------
# sufficient condition (Theorem 8)
# ---------------------------------------------------------------------------


def _thm8_ok(eps: float, dl: float, b: float, D: float, K: int, c2: float, c1: float) -> bool:
    """Theorem 8 in standard units (gamma = 1, alpha = b, Delta = D, Delta_2 = c2 D, Delta_1 = c1 D)."""
    return S.theorem8_holds(eps, dl, b, 1.0, K, D, c2 * D, c1 * D, rtol=_THM8_RTOL)


def _thm8_Dstar(eps: float, dl: float, b: float, K: int, c2: float, c1: float) -> float:
    lo, hi = 1e-12, 1.0
    if not _thm8_ok(eps, dl, b, lo, K, c2, c1):
        return 0.0
    while _thm8_ok(eps, dl, b, hi, K, c2, c1):
        lo, hi = hi, hi * 2.0
        if hi > 1e12:
            return math.inf
    for _ in range(200):
        mid = math.sqrt(lo * hi)
        if mid in (lo, hi):
            break
        if _thm8_ok(eps, dl, b, mid, K, c2, c1):
            lo = mid
        else:
            hi = mid
        if hi / lo - 1.0 < 1e-13:
            break
    return lo


def calibrate_sufficient(epsilon, delta, dim, sensitivity=None, l2_sensitivity=None, l1_sensitivity=None, *, b_max: float = B_MAX):
    """Minimum variance under Theorem 8 (uncertified search result): returns (alpha, gamma, variance)."""
    eps = V.check_scalar(epsilon, V.EPSILON)
    dl = V.check_scalar(delta, V.DELTA)
    K, D, D2, D1 = S.resolve_sensitivities(dim, sensitivity, l2_sensitivity, l1_sensitivity)
    c2, c1 = D2 / D, D1 / D

    def obj(b: float) -> float:
        Ds = _thm8_Dstar(eps, dl, b, K, c2, c1)
        return _v(b) / Ds**2 if Ds > 0 else math.inf

    grid = np.geomspace(1e-3, b_max, 90)
    b, val = _minimise_over_b(obj, grid)
    if not math.isfinite(val):
        raise ValueError(f"Theorem 8 cannot be met for epsilon={eps!r}, delta={dl!r}, dim={K}")
    Ds = _thm8_Dstar(eps, dl, b, K, c2, c1)
    gamma = D / Ds
    return b * gamma, gamma, gamma**2 * _v(b)


# ---------------------------------------------------------------------------
# exact K-fold profile
# ---------------------------------------------------------------------------


def _exact_log_delta(eps: float, b: float, D: float, K: int, step: Optional[float] = None) -> float:
    """log of the certified K-fold upper bound; ``step=None``: the default step, aligned with the loss atoms."""
    up = float(kdim_pld(b, 1.0, K, D, step=step, upper_only=True).delta_upper(eps))
    return math.log(max(up, 1e-300))


def _exact_Dstar(eps: float, dl: float, b: float, K: int, D0: float) -> Tuple[float, float]:
    """Largest D with delta_upper(eps; b, D) <= delta (1 - margin) (default steps, aligned with the loss atoms).

    Returns (D*, the step at D0) -- the step only for information.
    """
    log_t = math.log(dl) + math.log1p(-CERT_MARGIN)
    step = default_step(b, 1.0, K, D0)
    if b == 0.0:  # the analytic Gaussian with l2 sensitivity sqrt(K) D
        return _gauss_D(eps, dl * (1.0 - CERT_MARGIN), K), step

    def f(lD: float) -> float:
        return _exact_log_delta(eps, b, math.exp(lD), K) - log_t

    lo, hi = math.log(D0) - 0.5, math.log(D0) + 0.5
    flo, fhi = f(lo), f(hi)
    n = 0
    while flo > 0:
        hi, fhi = lo, flo
        lo -= 1.0
        flo = f(lo)
        n += 1
        if n > 40:
            return 0.0, step
    while fhi <= 0:
        lo, flo = hi, fhi
        hi += 1.0
        fhi = f(hi)
        n += 1
        if n > 40:
            return math.inf, step
    r = optimize.brentq(f, lo, hi, xtol=1e-6, rtol=1e-8)
    while f(r) > 0:  # the feasible side
        r -= 1e-6
    return math.exp(r), step


def _gauss_D(eps: float, dl: float, K: int) -> float:
    """Delta/sigma of the analytic Gaussian meeting (eps, delta) with l2 sensitivity sqrt(K) Delta (a starting point)."""
    from .mechanisms import calibrate_gaussian

    return 1.0 / calibrate_gaussian(eps, dl, math.sqrt(K)).mechanism.sigma


def calibrate_exact(epsilon, delta, dim, sensitivity=1.0, *, b_max: float = 50.0, b_grid: int = 14):
    """Minimum variance under the exact K-fold profile (search result, uncertified): returns (alpha, gamma, variance)."""
    eps = V.check_scalar(epsilon, V.EPSILON)
    dl = V.check_scalar(delta, V.DELTA)
    K = V.check_int(dim, "dim", 1)
    Dl = V.check_scalar(sensitivity, V.SENSITIVITY)
    D0 = _gauss_D(eps, dl, K)
    cache = {}

    def obj(b: float) -> float:
        Ds, st = _exact_Dstar(eps, dl, b, K, D0)
        cache[b] = (Ds, st)
        return _v(b) / Ds**2 if Ds > 0 else math.inf

    grid = np.geomspace(1e-2, b_max, b_grid)
    b, val = _minimise_over_b(obj, grid, xatol=2e-3)  # the variance is flat at the optimum: 2e-3 in log b is ~1e-6 in it
    if not math.isfinite(val):
        raise ValueError(f"no flipped Huber parameters meet epsilon={eps!r}, delta={dl!r} in dim={K}")
    Ds, _ = cache[b] if b in cache else _exact_Dstar(eps, dl, b, K, D0)
    gamma = Dl / Ds
    return b * gamma, gamma, gamma**2 * _v(b)


# ---------------------------------------------------------------------------
# certification and the public entry point
# ---------------------------------------------------------------------------


def _gauss_box_upper(eps: float, gamma: float, K: int, Dl: float) -> float:
    """At alpha = 0 the K-fold profile at d = (Delta, ..., Delta) is the Gaussian profile with l2 sensitivity
    sqrt(K) Delta (Balle & Wang): certified at the exact binary values by :func:`fhsym.certify.certified_profile`
    (mpmath, 60/120 digits), with sqrt(K) Delta rounded up by two ulps (the profile increases with it)."""
    from ..privacy.certify import certified_profile

    D2 = float(np.nextafter(np.nextafter(math.sqrt(K) * Dl, math.inf), math.inf))
    return float(certified_profile(eps, 0.0, gamma, D2))


def _pld_upper(eps: float, alpha: float, gamma: float, K: int, Dl: float, difference=None) -> Tuple[float, float]:
    """Certified K-fold upper bound at the returned floats (default step, aligned with the loss atoms)."""
    pld = kdim_pld(alpha, gamma, K, Dl, difference=difference, upper_only=True)
    return float(pld.delta_upper(eps)), pld.step


def _scale_until(ok, b: float, gamma: float, what: str, dl: float):
    """The engine's policy (:func:`fhsym.calibration.engine.certify`) with ``ok(alpha, gamma)`` as the bound.

    ``ok`` returns ``(certified upper bound, certificate text)`` or None; the first upward step is
    1e-9 relative (the PLD search is accurate to ~1e-9, not to an ulp).
    """

    def bound(noise: FlippedHuber) -> Bound:
        res = ok(noise.alpha, noise.gamma)
        if res is None:
            return Bound(0.0, math.inf, "pld", False, "not certified")
        up, text = res
        return Bound(0.0, float(up), "pld", False, text)

    noise, b_, steps = certify(lambda g: FlippedHuber(b * g, g), gamma, bound, dl, what=f"gamma ({what})",
                               first_step=1e-9)
    return noise, b_, steps


def calibrate_kdim(
    epsilon: float,
    delta: float,
    dim: int,
    sensitivity: Optional[float] = None,
    l2_sensitivity: Optional[float] = None,
    l1_sensitivity: Optional[float] = None,
    method: str = "auto",
) -> Calibration:
    """Minimum per-coordinate variance FH parameters for (eps, delta)-DP of the K-dim mechanism, certified.

    Parameters: ``epsilon`` > 0, ``delta`` in (0, 1), ``dim`` = K >= 1, ``sensitivity`` = Delta
    (l_inf), ``l2_sensitivity`` = Delta_2 (default sqrt(K) Delta), ``l1_sensitivity`` = Delta_1
    (default K Delta), ``method`` in {"auto", "exact", "sufficient"} (see the module docstring).

    Returns the :class:`fhsym.Calibration` of the 1-D API with ``dim = K``; ``achieved_delta`` is
    the certified upper bound re-evaluated at the returned floats and ``certificate`` states
    which difference vectors it covers.
    """
    eps = V.check_scalar(epsilon, V.EPSILON)
    if eps == 0.0:
        raise ValueError("epsilon must be a finite real number in (0, inf) for dim > 1; got 0.0")
    dl = V.check_scalar(delta, V.DELTA)
    K, D, D2, D1 = S.resolve_sensitivities(dim, sensitivity, l2_sensitivity, l1_sensitivity)
    if method not in ("auto", "exact", "sufficient"):
        raise ValueError(f"method must be one of 'auto', 'exact', 'sufficient'; got {method!r}")
    box = _is_box(K, D, D2, D1)
    results = []
    if method == "sufficient" or (method == "auto" and box):  # off the box Theorem 8 is not a certificate
        try:
            results.append(_certify_sufficient(eps, dl, K, D, D2, D1, box))
        except ValueError:
            if method == "sufficient":
                raise
    if method in ("exact", "auto"):
        results.append(_certify_exact(eps, dl, K, D, D2, D1, box))
    return min(results, key=lambda c: c.variance)


def _certify_sufficient(eps, dl, K, D, D2, D1, box) -> Calibration:
    alpha, gamma, _ = calibrate_sufficient(eps, dl, K, D, D2, D1)
    b = alpha / gamma

    def ok(a, g):
        if not S.theorem8_holds(eps, dl, a, g, K, D, D2, D1, rtol=_THM8_RTOL):
            return None
        if box and a == 0.0:
            up = _gauss_box_upper(eps, g, K, D)
            return (up, f"Theorem 8 holds at the returned floats (alpha = 0: it is the exact Gaussian profile with l2 "
                        f"sensitivity sqrt(K) Delta); independently certified by mpmath at the returned floats: {up:.6e} <= delta; "
                        f"covers every d with ||d||_inf <= {D:g}") if up <= dl else None
        if box:
            up, st = _pld_upper(eps, a, g, K, D)
            return (up, f"Theorem 8 holds at the returned floats (LHS = {S.theorem8_lhs(eps, a, g, K, D, D2, D1):.6e}); "
                        f"independently, the exact K-fold profile's certified upper bound (PLD, step {st:.3g}) is {up:.6e} "
                        f"<= delta (1 - {CERT_MARGIN:g}); covers every d with ||d||_inf <= {D:g}") if up <= dl * (1 - CERT_MARGIN) else None
        worst = 0.0
        for d in worst_case_candidates(K, D, D2, D1):
            up, _ = _pld_upper(eps, a, g, K, D, difference=d)
            worst = max(worst, up)
        if worst > dl * (1 - CERT_MARGIN):
            return None
        lhs = S.theorem8_lhs(eps, a, g, K, D, D2, D1)
        return (max(lhs, worst), f"NOT a certificate for the whole set: Theorem 8 holds at the returned floats (LHS = {lhs:.6e}) "
                     f"for ||d||_inf <= {D:g}, ||d||_2 <= {D2:g}, ||d||_1 <= {D1:g}, but Theorem 8's proof is incomplete for "
                     f"sets tighter than the box (docs/kdim.md); the exact PLD upper bound of each of "
                     f"{len(worst_case_candidates(K, D, D2, D1))} extreme difference vectors is <= {worst:.6e}; use "
                     f"method='exact' for a certified result")

    noise, bound, steps = _scale_until(ok, b, gamma, "sufficient", dl)
    return result(noise, bound, steps, Request(eps, dl, D, D2, D1, K), "sufficient-thm8", claim="theorem8")


def _certify_exact(eps, dl, K, D, D2, D1, box) -> Calibration:
    alpha, gamma, _ = calibrate_exact(eps, dl, K, D)
    b = alpha / gamma

    def ok(a, g):
        note = "" if box else f" (the l2/l1 sensitivities {D2:g}/{D1:g} are tighter than the box and are not used: conservative)"
        if a == 0.0:
            up = _gauss_box_upper(eps, g, K, D)
            if up > dl:
                return None
            return up, (f"exact K-fold profile at d = (Delta,...,Delta), alpha = 0: the Gaussian profile with l2 sensitivity "
                        f"sqrt(K) Delta, {up:.6e} <= delta at the returned floats (mpmath, 60/120 digits); covers every d "
                        f"with ||d||_inf <= {D:g}{note}")
        up, st = _pld_upper(eps, a, g, K, D)
        if up > dl * (1 - CERT_MARGIN):
            return None
        return up, (f"exact K-fold profile at d = (Delta,...,Delta): certified PLD upper bound {up:.6e} <= delta (1 - {CERT_MARGIN:g}) "
                    f"at the returned floats (step {st:.3g}); covers every d with ||d||_inf <= {D:g}{note}")

    noise, bound, steps = _scale_until(ok, b, gamma, "exact", dl)
    return result(noise, bound, steps, Request(eps, dl, D, D2, D1, K), "exact-kdim-pld", claim="pld-kfold")
