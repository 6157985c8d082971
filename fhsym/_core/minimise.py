"""The minimisations the calibrations use: a unimodal objective over one shape parameter, in one place.

The companion of :mod:`fhsym._core.search` (monotone predicates and roots); like it, it knows nothing about privacy:

* :func:`golden_section` -- golden-section search of a unimodal minimum;
* :func:`golden_by_ties` -- the same choices where a new point need only be compared with the kept one (a loser's
  value is never computed in full: the K-fold search's shapes);
* :func:`descend_by_ties` -- a local descent from a known point by such comparisons (a walk, then golden sections);
* :func:`minimise_on_log_grid` -- a grid in log x, then bounded Brent between the best point's neighbours.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

__all__ = ["golden_section", "golden_by_ties", "descend_by_ties", "minimise_on_log_grid"]


def golden_section(f: Callable[[float], float], lo: float, hi: float, rounds: int) -> tuple[float, float]:
    """Minimise ``f``, unimodal on [lo, hi], by golden-section search: ``f`` at 2 + ``rounds`` points, the bracket
    shrunk by (sqrt(5) - 1)/2 a round; the best ``(x, f(x))`` evaluated.

    >>> x, fx = golden_section(lambda x: (x - 0.3) ** 2, 0.0, 1.0, 30)
    >>> abs(x - 0.3) < 1e-6
    True
    """
    r = 0.5 * (math.sqrt(5.0) - 1.0)
    a, b = hi - r * (hi - lo), lo + r * (hi - lo)
    fa, fb = f(a), f(b)
    best = min((fa, a), (fb, b))
    for _ in range(rounds):
        if fa <= fb:
            hi, b, fb = b, a, fa
            a = hi - r * (hi - lo)
            fa = f(a)
            best = min(best, (fa, a))
        else:
            lo, a, fa = a, b, fb
            b = lo + r * (hi - lo)
            fb = f(b)
            best = min(best, (fb, b))
    return best[1], best[0]


def golden_by_ties(full: Callable[[float], float], challenge: Callable[[float, float], float], lo: float, hi: float,
                   rounds: int) -> None:
    """Golden-section minimisation on [lo, hi] (as :func:`golden_section`: 2 + ``rounds`` points,
    the same choices) where a new point need only be compared with the kept one: ``full(z)`` the value at the two
    first points, ``challenge(z, f_kept)`` the value of z if below ``f_kept``, else inf (a loser's value is never
    compared again: the kept point is always the better one of the pair)."""
    r = 0.5 * (math.sqrt(5.0) - 1.0)
    a, b = hi - r * (hi - lo), lo + r * (hi - lo)
    fa, fb = full(a), full(b)
    for _ in range(rounds):
        if fa <= fb:
            hi, b, fb = b, a, fa
            a = hi - r * (hi - lo)
            fa = challenge(a, fb)
        else:
            lo, a, fa = a, b, fb
            b = lo + r * (hi - lo)
            fb = challenge(b, fa)


def minimise_on_log_grid(obj: Callable[[float], float], grid: np.ndarray, *, include_zero: bool = True,
                         xatol: float = 1e-6, maxiter: int = 60) -> tuple[float, float]:
    """min over x > 0 of ``obj(x)``: ``obj`` on ``grid`` (increasing, positive), then bounded Brent in log x between the
    best grid point's neighbours (``xatol`` in log x, at most ``maxiter`` evaluations), and x = 0 where
    ``include_zero`` (kept when it is at least as good).  Returns ``(x, obj(x))``, the best evaluated.

    >>> x, fx = minimise_on_log_grid(lambda x: (math.log(x) - 1.0) ** 2 if x > 0 else 5.0, np.geomspace(1e-3, 1e3, 30))
    >>> abs(x - math.e) < 1e-4
    True
    """
    from scipy import optimize

    vals = np.array([obj(float(b)) for b in grid])
    i = int(np.argmin(vals))
    best_x, best = float(grid[i]), float(vals[i])
    if 0 < i < len(grid) - 1 and math.isfinite(best):
        res = optimize.minimize_scalar(lambda lx: obj(math.exp(lx)), bounds=(math.log(grid[i - 1]),
                                       math.log(grid[i + 1])), method="bounded",
                                       options={"xatol": xatol, "maxiter": maxiter})
        if res.fun < best:
            best_x, best = math.exp(res.x), float(res.fun)
    if include_zero:
        z = obj(0.0)
        if z <= best:
            best_x, best = 0.0, z
    return best_x, best


def descend_by_ties(challenge: Callable[[float, float], float], z0: float, f0: float, lo: float, hi: float, *,
                    step: float, xtol: float, max_points: int = 40) -> tuple[float, float]:
    """A local minimum of f on [lo, hi] from a known point (``z0``, ``f0`` = f(z0)), by comparisons with the kept
    point only: ``challenge(z, f_kept)`` is f(z) if below ``f_kept``, else inf (a loser).

    A walk first: z0 + ``step``, and z0 - ``step`` where that loses; on in the winning direction, the step doubled,
    while it wins (clipped to [lo, hi]).  Then golden sections of the bracket around the kept point (its ends lost,
    or are ends of the range), a new point in the wider side, until the bracket is narrower than ``xtol`` or
    ``max_points`` challenges were made.  Returns the kept (z, f): never worse than (``z0``, ``f0``); the minimum
    where f is unimodal on the walk's range.

    >>> z, f = descend_by_ties(lambda z, k: (z - 1.3) ** 2 if (z - 1.3) ** 2 < k else math.inf, 0.0, 1.69, -5.0,
    ...                        5.0, step=0.1, xtol=1e-6)
    >>> abs(z - 1.3) < 1e-6
    True
    """
    zk, fk, a, b, n = z0, f0, lo, hi, 0
    for d in (1.0, -1.0):  # the walk
        s, moved = step, False
        while n < max_points:
            z = min(max(zk + d * s, lo), hi)
            if z == zk:
                break  # at an end of the range
            f, n = challenge(z, fk), n + 1
            if not f < fk:
                a, b = (a, z) if d > 0 else (z, b)
                break
            a, b = (zk, b) if d > 0 else (a, zk)
            zk, fk, moved, s = z, f, True, 2.0 * s
        if moved:
            break
    r = 0.5 * (3.0 - math.sqrt(5.0))
    while b - a > xtol and n < max_points:  # golden sections of (a, zk, b)
        left = zk - a > b - zk
        z = zk - r * (zk - a) if left else zk + r * (b - zk)
        f, n = challenge(z, fk), n + 1
        if f < fk:
            a, b, zk, fk = (a, zk, z, f) if left else (zk, b, z, f)
        else:
            a, b = (z, b) if left else (a, z)
    return zk, fk
