"""The calibrator's K-fold searches (``"pld-kfold"``): the least scale per shape, the best shape, for one family.

The bound is a float privacy-loss distribution at a coarse lattice (a few ms each, not vectorised): the least scale
per shape by a bracketed Brent root in log scale (:func:`fhsym._core.search.least_scale`), shapes on a coarse grid,
a shape that cannot beat the best so far skipped after one evaluation, the family's corner curves, golden-section
refinement (:func:`search_kfold`); then the shape and scale on the certificate's lattices (:func:`refine_kfold`).
The 1-D searches are in :mod:`fhsym.calibration.search`.
"""
from __future__ import annotations

import math
from typing import Any, Callable, List, Optional, Tuple

import numpy as np

from .._core.minimise import descend_by_ties, golden_by_ties
from .._core.search import CalibrationError, least_scale
from ..accounting.mechanism_pld import kfold_delta_lower, kfold_delta_upper, step_for
from ..noise.family import Family
from .search import max_u_point

__all__ = ["search_kfold", "refine_kfold", "search_bound", "shave_scale"]

_KSCAN = 10  # shapes of the K-fold scan
_MIN_GAIN = 1e-6  # a K-fold shape is skipped when it cannot beat the best by this (relative)
_K_RESOLUTION = 80.0  # the K-fold search's lattice: loss scale / this (the certificate's is finer)
_K_XTOL = 2e-6  # the K-fold search's tolerance in log scale
_K_WARM_STEP = 0.02  # the first bracket step of a K-fold root warm-started at a neighbouring shape's root
_SHAVE_STEP, _SHAVE_XTOL = 1e-5, 1e-7  # the shave's first bracket step and tolerance (log scale)
_REFINE_STEP, _REFINE_XTOL = 0.05, 4e-3  # the refinement's first step and tolerance in log shape (refine_kfold)
#: refine_kfold searches shapes only where the coarse lattice's error at the search's shape (relative variance) is at
#: least this (measured gains: 3.7e-7 at an error of 1.8e-5, flipped Huber T = 10; 3.3e-5 to 1.2e-3 at 8.7e-4 to
#: 4.9e-3, OSGT K = 2...5); and takes the halved lattice (its proof ~3 x the work) where that saves _HALVE_GAIN
_REFINE_GATE = 1e-4
_HALVE_GAIN = 2e-4
_FFT_SHARE = 1e-4  # the FFT power's error bound may be this share of the target delta in a search's bound
_K_TIE_STEP = 1e-3  # the first (downward) bracket step of a root from a feasible tie point
# a tie test after one _LOWER_GATE x over the target: first a float PLD lower bound on a lattice _LOWER_COARSE x coarser
_LOWER_COARSE, _LOWER_GATE, _LOWER_MARGIN = 16.0, 4.0, 1.5  # (skip if above _LOWER_MARGIN x: the search bound is higher)


def search_kfold(family: Family, eps: float, log_target: float, sensitivity: float, folds: int,
                 gaussian_preference: float = 0.0) -> Tuple[float, float]:
    """The minimum-variance member for a ``folds``-fold release over the box: (shape, scale), search bound.

    The bound is the float K-fold PLD at a coarse lattice (:func:`fhsym.accounting.kfold_delta_upper`, the
    fast profile, FFT power); see the module docstring.  Of the scan's shapes at or past the family's ``limit_shape``
    (members that are one law at a given variance) only the first is evaluated.  ``gaussian_preference``: shape 0 (a Gaussian member,
    certified by one ball-arithmetic evaluation) is kept unless another shape beats it by this
    (relative variance).
    """
    gaussian_zero = (family.shape_range is None or family.shape_range[2]) and \
        family.make(0.0, 1.0).gaussian_sigma() is not None
    corner = math.sqrt(folds) * sensitivity  # Gaussian noise: the K-fold profile at the corner is the 1-D one here

    def bound_of(shape: float) -> Callable[[float], float]:
        def bound(scale: float) -> float:
            try:
                noise = family.make(shape, scale)
                if shape == 0.0 and gaussian_zero:
                    return float(noise.privacy_profile(eps, corner))
                return search_bound(noise, eps, folds, sensitivity, step_for(noise, sensitivity, _K_RESOLUTION),
                                    math.exp(log_target))
            except (ValueError, FloatingPointError):
                return math.inf
        return bound

    def lower_exceeds(shape: float, scale: float) -> bool:  # the tie test's skip, decided by a cheap lower bound
        try:
            noise, target = family.make(shape, scale), math.exp(log_target)
            h = _LOWER_COARSE * step_for(noise, sensitivity, _K_RESOLUTION)
            return kfold_delta_lower(noise, eps, folds, sensitivity, h, _FFT_SHARE * target) > _LOWER_MARGIN * target
        except (ValueError, FloatingPointError):
            return False

    x0 = math.log(sensitivity * math.sqrt(folds) * math.sqrt(2.0 * math.log(1.25 / math.exp(log_target)))
                  / max(eps, 1e-2))  # about the Gaussian's scale for the same guarantee
    shapes = family.shapes(_KSCAN)
    logv = family.log_variance(shapes)
    best = (math.inf, 0.0, math.inf)  # (F, shape, x)
    found = {}
    past_limit = False  # a shape at or past the family's limit shape was evaluated: the others there are that member
    far = False  # the last tie's bound was _LOWER_GATE x the target or more
    for sh, lv in zip(shapes, logv):
        if not math.isfinite(lv):
            continue
        if family.limit_shape is not None and sh >= family.limit_shape:
            if past_limit:
                continue
            past_limit = True
        known = None
        if math.isfinite(best[0]):  # the log-scale at which this shape would tie the best: infeasible there -> skip
            x_tie = 0.5 * (best[0] + math.log1p(-_MIN_GAIN) - lv)
            if far and not (sh == 0.0 and gaussian_zero) and lower_exceeds(float(sh), math.exp(x_tie)):
                continue
            g_tie = bound_of(float(sh))(math.exp(x_tie))
            far = g_tie > _LOWER_GATE * math.exp(log_target)
            if not (g_tie > 0 and math.log(g_tie) <= log_target):
                continue
            known = (x_tie, math.log(g_tie) - log_target)
        if sh == 0.0 and gaussian_zero and known is None:  # the Gaussian: its 1-D root at the corner, one point at a time
            u = max_u_point(family, eps, log_target, 0.0, corner)
            x = math.log(corner / u) if 0.0 < u < math.inf else math.inf
        else:
            x = least_scale(bound_of(float(sh)), log_target, x0 if known is None else known[0], known=known,
                            xtol=_K_XTOL)
        if math.isfinite(x):
            x0 = x
            found[float(sh)] = x
            F = lv + 2.0 * x
            if F < best[0]:
                best = (F, float(sh), x)
    for curve in family.curves(eps, folds):  # the atoms of K releases adding up to eps: a corner candidate
        if not math.isfinite(best[0]):
            break

        def on_curve(scale: float, c: Callable[[float], float] = curve) -> float:
            return bound_of(c(sensitivity / scale))(scale)

        # any gain (not _MIN_GAIN): a corner is one root, and its gain can be below 1e-6 (flipped Huber's K-fold atoms)
        x_tie = _curve_tie(family, curve, sensitivity, best[0], best[2])
        if x_tie is not None and not on_curve(math.exp(x_tie)) <= math.exp(log_target):
            continue  # infeasible where the curve would tie the best: its root cannot beat the best (as the scan's skip)
        xc = least_scale(on_curve, log_target, best[2], xtol=_K_XTOL)
        if math.isfinite(xc):
            sh = curve(sensitivity / math.exp(xc))
            F = float(family.log_variance(np.array([sh]))[0]) + 2.0 * xc
            if F < best[0]:
                best = (F, sh, xc)
    if not math.isfinite(best[0]):
        raise CalibrationError(f"cannot calibrate {family.name} noise for epsilon={eps!r} in {folds} folds: no shape "
                               f"meets the target")
    if best[1] > 0 and family.shape_range is not None:  # golden-section refinement in log shape
        # bracket by the scan's neighbours (also those the tie test skipped: the optimum may lie next to them)
        pos = sorted(float(s) for s in shapes if s > 0)
        i = min(range(len(pos)), key=lambda j: abs(math.log(pos[j]) - math.log(best[1])))
        lim_lo, lim_hi = math.log(family.shape_range[0]), math.log(family.shape_range[1])
        lo = math.log(pos[i - 1]) if i > 0 else lim_lo
        hi = math.log(pos[i + 1]) if i + 1 < len(pos) else lim_hi
        def full(z: float) -> float:  # F(shape e^z) from its root, warm-started at the best root so far
            nonlocal best
            sh = math.exp(z)
            x = least_scale(bound_of(sh), log_target, best[2], step=_K_WARM_STEP, xtol=_K_XTOL)
            F = family.log_variance_point(sh) + 2.0 * x
            if F < best[0]:
                best = (F, sh, x)
            return F

        def challenge(z: float, F_kept: float) -> float:
            """F(shape e^z) if it is below ``F_kept``, else inf (it loses): one bound at the scale where the shape
            would tie ``F_kept`` decides (infeasible there: its root lies above, its F above ``F_kept``)."""
            nonlocal best
            sh = math.exp(z)
            lv = family.log_variance_point(sh)
            x_tie = 0.5 * (F_kept - lv)
            g_tie = bound_of(sh)(math.exp(x_tie))
            if not (g_tie > 0 and math.log(g_tie) <= log_target):
                return math.inf
            x = least_scale(bound_of(sh), log_target, x_tie, known=(x_tie, math.log(g_tie) - log_target),
                            step=_K_TIE_STEP)
            F = lv + 2.0 * x
            if F < best[0]:
                best = (F, sh, x)
            return F

        golden_by_ties(full, challenge, lo, hi, 10)  # on [lo, hi] (log shape): 12 points, width x 0.007
    if 0.0 in found and best[1] != 0.0:
        F0 = float(logv[0]) + 2.0 * found[0.0]
        if best[0] > F0 + math.log1p(-gaussian_preference):
            best = (F0, 0.0, found[0.0])
    return best[1], math.exp(best[2])


def _curve_tie(family: Family, curve: Callable[[float], float], sensitivity: float, F: float, x0: float
               ) -> Optional[float]:
    """The log-scale x at which the member on ``curve`` (shape curve(Delta/e^x)) has objective log v + 2 x = ``F``,
    where that objective is non-decreasing in x on [x0 - 8, x0 + 8] (checked at 17 points; flat towards the Laplace
    limit), else None (no tie test).  Feasibility falls along the curve as x falls, so a curve infeasible at its tie
    has its root above the tie, where the objective is at least ``F``."""
    def obj(x: float) -> float:
        sh = curve(sensitivity / math.exp(x))
        return family.log_variance_point(sh) + 2.0 * x if math.isfinite(sh) and sh >= 0 else math.nan

    xs = [x0 + k for k in range(-8, 9)]
    vals = [obj(x) for x in xs]
    if not all(map(math.isfinite, vals)) or any(b < a - 1e-12 * abs(a) for a, b in zip(vals, vals[1:])) \
            or not vals[0] < F < vals[-1]:
        return None  # not non-decreasing (the Laplace limit is flat: allowed), or no tie on the range
    lo, hi = next((a, b) for a, b, fb in zip(xs, xs[1:], vals[1:]) if fb >= F)
    for _ in range(40):  # bisection to ~1e-12: the tie need not be exact (a skip test)
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if obj(mid) < F else (lo, mid)
    return hi


def search_bound(noise: Any, eps: float, folds: int, sensitivity: float, step: float, target: float) -> float:
    """The K-fold search's float bound: the fast profile and the one-shot FFT power where its error bound is at most
    ``_FFT_SHARE`` of the ``target`` delta (moving a search's scale by < ~5e-6), binary powering otherwise."""
    return kfold_delta_upper(noise, eps, folds, sensitivity, 1, step=step, certified=False,
                             fp_budget=_FFT_SHARE * target)


def shave_scale(bound: Callable[[float], float], log_target: float, scale: float) -> float:
    """The least scale (to 1e-7 in log scale, feasible side) at or below the search's ``scale`` with
    log bound(scale) <= ``log_target``: a K-fold search ran on a coarse lattice (pessimistic, ~1e-5 above), ``bound`` is
    the bound on the certificate's lattice; a short bracket down from ``scale`` (steps 1e-5, 2e-5, ...), then Brent.
    ``scale`` itself where ``bound`` exceeds the target there (never more noise than the search asked for: the
    certificate then decides, stepping up from it as it would)."""
    g0 = bound(scale)
    if not (g0 > 0 and math.log(g0) <= log_target):
        return scale
    x = least_scale(bound, log_target, math.log(scale), known=(math.log(scale), math.log(g0) - log_target),
                    xtol=_SHAVE_XTOL, step=_SHAVE_STEP, max_evals=24)
    return math.exp(x) if math.isfinite(x) else scale


def _gap(v: float, log_target: float) -> float:
    """log v - ``log_target`` (-1e300 where v = 0, inf where v is not a number): <= 0 is feasible."""
    return math.log(v) - log_target if v > 0 else (-1e300 if v == 0 else math.inf)


def refine_kfold(family: Family, bound_of: Callable[[float, int], Callable[[float], float]], log_target: float,
                 shape: float, scale: float) -> List[Tuple[float, float]]:
    """The K-fold search's (``shape``, ``scale``) refined on the certificate's lattices: ``bound_of(shape, level)``
    is the float bound of that shape's members (a function of the scale) on the certificate's first lattice
    (``level`` 0) or on the one it tries next (1: the step halved, twice the proof's work).

    On the first lattice: the least scale of ``shape`` (to 1e-7 in log scale, feasible side; as :func:`shave_scale`,
    and upwards where the coarse search's fast profile was optimistic, at a kink); then, where that moved the variance
    by :data:`_REFINE_GATE` or more, for a family with shapes and a positive ``shape``, the shape: the coarse
    lattice's error varies with the shape (up to ~3e-3 of the variance, OSGT) over landscapes flatter than that, so
    the coarse optimum need not be this lattice's.  A local descent in
    log shape (:func:`fhsym._core.minimise.descend_by_ties`, first step :data:`_REFINE_STEP`, to :data:`_REFINE_XTOL`)
    within the family's range: a shape wins when its members meet the target at the scale where they would tie the
    kept variance (then its least scale is found).  Where the halved lattice saves at least :data:`_HALVE_GAIN` of
    the variance (one bound decides), the same on it.  Returns [(shape, scale)]: the refined point, and after it the
    first lattice's where the halved one was taken (its proof may be over the verification budget).  The certificate
    decides."""
    def root(sh: float, x: float, level: int) -> float:
        b = bound_of(sh, level)
        gl = _gap(b(math.exp(x)), log_target)
        return math.inf if gl == math.inf else least_scale(b, log_target, x, known=(x, gl), xtol=_SHAVE_XTOL,
                                                           step=_SHAVE_STEP, max_evals=24)

    def descend(level: int, sh: float, x: float) -> Tuple[float, float]:
        if not sh > 0 or family.shape_range is None:
            return sh, x
        xs = {math.log(sh): x}

        def challenge(z: float, F_kept: float) -> float:
            lv = family.log_variance_point(math.exp(z))
            if not math.isfinite(lv):
                return math.inf
            x_tie = 0.5 * (F_kept - lv)
            b = bound_of(math.exp(z), level)
            gl = _gap(b(math.exp(x_tie)), log_target)
            if not gl <= 0:
                return math.inf  # infeasible where it would tie: its least scale lies above, its variance too
            xs[z] = least_scale(b, log_target, x_tie, known=(x_tie, gl), xtol=_SHAVE_XTOL, step=_K_TIE_STEP,
                                max_evals=24)
            return lv + 2.0 * xs[z]

        lo, hi, _ = family.shape_range
        z0 = math.log(sh)
        z, _ = descend_by_ties(challenge, z0, family.log_variance_point(sh) + 2.0 * x, math.log(lo), math.log(hi),
                               step=_REFINE_STEP, xtol=_REFINE_XTOL)
        return (sh, x) if z == z0 else (math.exp(z), xs[z])

    x = root(shape, math.log(scale), 0)
    if not math.isfinite(x):
        return [(shape, scale)]  # none found: the certificate decides, stepping up from the search's scale
    if abs(2.0 * (math.log(scale) - x)) < _REFINE_GATE:
        return [(shape, math.exp(x))]  # the coarse lattice's error is small here: so are its shifts of the optimum
    shape, x = descend(0, shape, x)
    x_gain = x + 0.5 * math.log1p(-_HALVE_GAIN)  # the halved lattice, if it is feasible where it saves _HALVE_GAIN
    if _gap(bound_of(shape, 1)(math.exp(x_gain)), log_target) <= 0:
        sh1, x1 = descend(1, shape, root(shape, x_gain, 1))
        return [(sh1, math.exp(x1)), (shape, math.exp(x))]
    return [(shape, math.exp(x))]
