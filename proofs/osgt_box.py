"""The paper's box-constrained OSGT protocol (Appendix F), done continuously, for the reproduction.

The paper calibrates OSGT by a grid search over a box of (vartheta, varrho); fhsym's own OSGT
calibration (:func:`fhsym.calibrate` with ``mechanism="osgt"``) is unconstrained and minimises the
variance over the shape theta = vartheta/varrho.  This module reproduces the paper's protocol: for
each vartheta in the box (61 points, then bounded Brent) the least varrho meeting the exact two-case
condition (a Brent root of log delta in log varrho), clipped to the box; the chosen pair is then
certified by fhsym's one engine through the ``"profile-1d"`` claim, like every calibration.

>>> cal = calibrate_osgt_box(3.0, 1e-6, ((0.02, 150.0), (0.02, 50.0)))
>>> cal.achieved_delta <= 1e-6, cal.method, cal.certificate.claim
(True, 'osgt-box', 'profile-1d')
"""

from __future__ import annotations

import math
from typing import Tuple

import numpy as np
from scipy import optimize

from fhsym._core import domains as V
from fhsym._core.search import CalibrationError, smallest_true
from fhsym._core.sensitivities import resolve_sensitivities
from fhsym.calibration.engine import Request, certify, result
from fhsym.calibration.result import Calibration
from fhsym.noise.osgt import OSGT, VARRHO, VARTHETA, osgt_profile
from fhsym.privacy.claims import PROFILE_1D

__all__ = ["calibrate_osgt_box"]

_MARGIN = 4e-13  # the float search aims at delta (1 - this); the arb certificate then passes at once


def _log_delta(val: float) -> float:
    return math.log(val) if val > 0 else -1e4


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


def _box_search(eps: float, d: float, log_thr: float, box) -> Tuple[float, float]:
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


def calibrate_osgt_box(epsilon: float, delta: float, box, sensitivity: float = 1.0) -> Calibration:
    """The least-variance OSGT(vartheta, varrho) with (vartheta, varrho) in ``box``, certified (module docstring)."""
    eps = V.check_scalar(epsilon, V.EPSILON)
    target = V.check_scalar(delta, V.DELTA)
    d = V.check_scalar(sensitivity, V.SENSITIVITY)
    thr = target * (1.0 - _MARGIN)
    vartheta, rho0 = _box_search(eps, d, math.log(thr), box)
    e1 = np.array([eps])
    rho = smallest_true(lambda r: bool(osgt_profile(e1, d, vartheta, r)[0] <= thr), rho0 * (1.0 + 1e-9), name="varrho")
    rho = max(rho, box[1][0])
    request = Request(eps, target, resolve_sensitivities(1, d, None, None))
    noise, ev, steps = certify(lambda r: OSGT(vartheta, r), rho, PROFILE_1D, request, what="varrho")
    return result(noise, ev, steps, request, PROFILE_1D, "osgt-box")
