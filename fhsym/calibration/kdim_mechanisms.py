"""Certified K-dimensional (and composed) calibration of the comparison mechanisms.

i.i.d. noise on K coordinates, released T times, over the box ||d||_inf <= Delta: for log-concave
noise the worst difference vector is the corner, so delta(eps) is that of the (K T)-fold
composition of the 1-D mechanism at sensitivity Delta (:mod:`fhsym.accounting.mechanism_pld`),
bounded above by a proven privacy-loss distribution (:mod:`fhsym.accounting.pld_exact`).

A noise family is a shape (truncated Laplace: a = A/lambda; OSGT: theta = vartheta/varrho;
Laplace: none) times a scale; more scale is more noise.  For each shape on a grid the least scale
meeting the target is found by bisection in log scale on the certified K-fold bound at a coarse
lattice (float PLD, a search only); the best shapes are refined, and the engine
(:func:`fhsym.calibration.engine.certify`) certifies the result with the proven bound on the default
lattice (:func:`fhsym.accounting.mechanism_pld.kfold_delta_proven`), moving to more noise until it holds;
the certificate records the grid.
"""

from __future__ import annotations

import math
from typing import Callable, Dict, Optional, Tuple

import numpy as np

from .._core.limits import check_folds
from .._core.search import CalibrationError
from ..accounting.mechanism_pld import kfold_delta_proven, kfold_delta_upper, step_for
from ..noise.base import NoiseDistribution
from ..noise.laplace import Laplace
from ..noise.osgt import OSGT
from ..noise.truncated_laplace import TruncatedLaplace
from ..privacy.bounds import Bound
from .engine import Request, certify, result
from .result import Calibration

__all__ = ["FAMILIES", "calibrate_kfold"]

# shape grids and the noise at (shape, scale)
FAMILIES: Dict[str, Tuple[Tuple[float, ...], Callable[[float, float], NoiseDistribution]]] = {
    "laplace": ((0.0,), lambda shape, s: Laplace(s)),
    "truncated_laplace": (tuple(np.geomspace(0.5, 64.0, 8)), lambda a, s: TruncatedLaplace(s, a * s)),
    "osgt": ((0.0, *np.geomspace(0.03, 30.0, 7)), lambda th, s: OSGT(th * s, s)),
}
_SEARCH_RESOLUTION = 80.0   # coarse lattice for the search (the certificate uses the default 400)
_SEARCH_RTOL = 2e-6         # bisection tolerance in log scale


def _least_scale(make: Callable[[float], NoiseDistribution], eps: float, thr: float, K: int, D: float, T: int,
                 s0: float) -> float:
    """Least scale s (to _SEARCH_RTOL) with the coarse certified K-fold bound <= thr; inf if none below 1e300."""

    def ok(s: float) -> bool:
        noise = make(s)
        return kfold_delta_upper(noise, eps, K, D, T, step=step_for(noise, D, _SEARCH_RESOLUTION)) <= thr

    lo = hi = s0
    if ok(s0):
        while ok(lo):
            hi, lo = lo, lo / 2.0
            if lo < 1e-300:
                return hi
    else:
        while not ok(hi):  # s0 is about the Gaussian's scale: far more than 2^30 of it means the bound cannot be met
            lo, hi = hi, hi * 2.0
            if hi > min(1e300, s0 * 2.0**30):
                return math.inf
    while math.log(hi / lo) > _SEARCH_RTOL:
        mid = math.sqrt(lo * hi)
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return hi


def calibrate_kfold(mechanism: str, request: Request) -> Calibration:
    """Minimum-variance ``mechanism`` noise for a K-dimensional, T-fold request over the box, certified.

    >>> import fhsym
    >>> from fhsym.calibration.engine import Request
    >>> cal = calibrate_kfold("laplace", Request(1.0, 1e-6, 1.0, 2**0.5, 2.0, dim=2))
    >>> cal.achieved_delta <= 1e-6, cal.dim, cal.method
    (True, 2, 'kfold-pld-box')
    """
    if mechanism not in FAMILIES:
        raise ValueError(f"mechanism must be one of {sorted(FAMILIES)} for the K-fold calibration; got {mechanism!r}")
    shapes, make = FAMILIES[mechanism]
    eps, dl, D, K, T = request.epsilon, request.delta, request.sensitivity, request.dim, request.compositions
    check_folds(K, T, f"the K-fold {mechanism} calibration")  # bounded work, refused before any search
    thr = dl * (1.0 - 1e-6)  # the search's target: the float bound lies above the proven one on the same lattice
    # a start: the Gaussian scale for the same guarantee (l2 sensitivity sqrt(K T) Delta), roughly
    s0 = D * math.sqrt(K * T) * math.sqrt(2.0 * math.log(1.25 / dl)) / max(eps, 1e-2)
    best: Optional[Tuple[float, float, float]] = None  # (variance, shape, scale)
    found = {}
    for shape in shapes:
        s = _least_scale(lambda x, sh=shape: make(sh, x), eps, thr, K, D, T, s0)
        if math.isfinite(s):
            v = make(shape, s).var()
            found[shape] = (v, s)
            if best is None or v < best[0]:
                best = (v, shape, s)
    if best is None:
        raise CalibrationError(f"cannot calibrate {mechanism} noise: no shape meets ({eps}, {dl}) in {K} x {T} releases")
    if len(shapes) > 1 and best[1] > 0:  # refine the shape: golden-section steps between the grid neighbours
        grid = [x for x in shapes if x > 0]
        i = grid.index(best[1])
        lo, hi = math.log(grid[max(i - 1, 0)]), math.log(grid[min(i + 1, len(grid) - 1)])
        for _ in range(4):
            for x in (lo + 0.382 * (hi - lo), lo + 0.618 * (hi - lo)):
                shape = math.exp(x)
                s = _least_scale(lambda y, sh=shape: make(sh, y), eps, thr, K, D, T, best[2])
                if math.isfinite(s) and make(shape, s).var() < best[0]:
                    best = (make(shape, s).var(), shape, s)
            c = math.log(best[1])
            w = 0.3 * (hi - lo)
            lo, hi = c - w, c + w
    _, shape, scale = best
    # the coarse lattice over-estimates delta: shave the scale with the certificate's own lattice
    lo, hi = scale * 0.97, scale
    if kfold_delta_upper(make(shape, lo), eps, K, D, T) <= thr:
        hi = lo
    else:
        for _ in range(10):
            mid = math.sqrt(lo * hi)
            if kfold_delta_upper(make(shape, mid), eps, K, D, T) <= thr:
                hi = mid
            else:
                lo = mid
    scale = hi

    def bound(noise: NoiseDistribution) -> Bound:
        pb = kfold_delta_proven(noise, eps, K, D, T, delta=dl, refine=1)
        g = pb.grid
        return Bound(0.0, pb.upper, "pld", True,
                     f"exact {K * T}-fold profile at the box corner d = (Delta, ..., Delta) (log-concave noise: the "
                     f"worst vector of the box), proven PLD upper bound (ball-arithmetic profile nodes, exact integer "
                     f"composition; lattice step {float(g.step):.4g}, {g.nodes} nodes, 2^-{g.bits} units)", pb.record())

    noise, b, steps = certify(lambda s: make(shape, s), scale, bound, dl, what="scale", first_step=1e-6)
    return result(noise, b, steps, request, "kfold-pld-box", claim="pld-kfold-noise",
                  covers=f"covers every d with ||d||_inf <= {D:g} in each of {T} release(s)")
