"""The searches of the one calibrator: the least scale per shape, the best shape, for one family.

1-D (a claim whose bound is the 1-D profile at a sensitivity R: ``"profile-1d"``, ``"profile-1d-l2"``,
``"profile-lattice"``).  The profile grows with R/scale, so for each shape the least scale is one monotone root
u*(shape) = sup{u : log delta(eps; shape, u) <= log target}; the shape minimises F = log v(shape) - 2 log u*(shape)
(:func:`search_1d`).  One point at a time where that settles it (the family's scalar profile on Python floats,
Brent roots to the last ulps, :func:`max_u_point`; a corner checked against every scan shape by one evaluation
each); otherwise a scan, zoom rounds and parabolic steps, the roots of many shapes at once (:func:`max_u`).
Every u returned is on the feasible side of its root.

K-fold (``"pld-kfold"``): :mod:`fhsym.calibration.search_kfold`.
"""
from __future__ import annotations

import math
from typing import Any, Callable, Dict, List, Optional, Tuple

import numpy as np

from .._core.search import CalibrationError, increasing_roots, least_true_double_near, smallest_true, sup_feasible
from ..noise.family import Family

__all__ = ["max_u", "max_u_point", "search_1d", "least_double_scale", "U_MAX", "fixed_shape", "least_scale_per_shape"]

U_MAX = 700.0  # |log u| beyond which u* is taken as 0 or inf
_SCAN = 36  # shapes of the 1-D scan
# a root along a corner curve: to 1e-14 in log u, or log delta within _FTOL of the target (along the kink b = eps/u the
# rounded b u falls on either side of eps: the float profile is only known to ~1e-10 there, not to the last ulps)
_FTOL = 1e-14


# ---------------------------------------------------------------------------
# a family at one shape


class _FixedShape(Family):
    """A family restricted to one shape (no shape search): the member ``make(shape, scale)`` of ``base``."""

    def __init__(self, base: Family, shape: float) -> None:
        super().__init__(base.cls, None)
        self.base, self.fixed = base, float(shape)

    def make(self, shape: float, scale: float) -> Any:
        return self.base.make(self.fixed, scale)

    def log_profile(self, eps: float, shapes: np.ndarray, u: np.ndarray, sensitivity: float) -> np.ndarray:
        return self.base.log_profile(eps, np.full(np.shape(shapes), self.fixed), u, sensitivity)

    def log_profile_point(self, eps: float, shape: float, u: float, sensitivity: float) -> float:
        return self.base.log_profile_point(eps, self.fixed, u, sensitivity)

    def log_variance_point(self, shape: float) -> float:
        return self.base.log_variance_point(self.fixed)

    def log_variance(self, shapes: np.ndarray) -> np.ndarray:
        return self.base.log_variance(np.full(np.shape(shapes), self.fixed))

    def profile_members(self, eps: float, shapes: np.ndarray, scales: np.ndarray, sensitivity: float) -> np.ndarray:
        return self.base.profile_members(eps, np.full(np.shape(shapes), self.fixed), scales, sensitivity)

    @property
    def polish(self) -> bool:  # type: ignore[override]
        return self.base.polish

    @property
    def point_search(self) -> bool:  # type: ignore[override]
        return self.base.point_search

    def objective(self, shapes: np.ndarray, u: np.ndarray, sensitivity: float) -> np.ndarray:
        return self.base.objective(np.full(np.shape(shapes), self.fixed), u, sensitivity)

    def kinks(self, eps: float, shapes: np.ndarray) -> Optional[np.ndarray]:
        return self.base.kinks(eps, np.full(np.shape(shapes), self.fixed))


def fixed_shape(family: Family, shape: float) -> Family:
    """``family`` with its shape fixed at ``shape`` (the calibrator then searches the scale only)."""
    return _FixedShape(family, shape)


# ---------------------------------------------------------------------------
# one dimension


def max_u(family: Family, eps: float, log_target: float, shapes: np.ndarray, sensitivity: float,
          guess: Optional[np.ndarray] = None) -> np.ndarray:
    """u*(shape) = sup{u : log delta(eps; shape, u) <= log_target} for every shape at once (feasible side).

    0 where no u above e^-700 is feasible, inf where every u below e^700 is.
    """
    shapes = np.asarray(shapes, dtype=float)
    n = shapes.size

    def f(x: np.ndarray, idx: np.ndarray) -> np.ndarray:
        v = family.log_profile(eps, shapes[idx], np.exp(x), sensitivity) - log_target
        return np.maximum(np.where(np.isnan(v), np.inf, v), -1e300)

    u = np.zeros(n) if guess is None else np.log(np.asarray(guess, dtype=float))
    u = np.clip(np.where(np.isfinite(u), u, 0.0), -U_MAX, U_MAX)
    allidx = np.arange(n)
    fu = f(u, allidx)
    lo, hi = np.full(n, -np.inf), np.full(n, np.inf)
    flo, fhi = np.full(n, -np.inf), np.full(n, np.inf)
    up = fu <= 0
    lo[up], flo[up] = u[up], fu[up]
    hi[~up], fhi[~up] = u[~up], fu[~up]
    kinks = family.kinks(eps, shapes)
    if kinks is not None:  # a cliff of the profile: the pair (kink, kink + 1e-12) brackets a root sitting there
        ok = np.isfinite(kinks) & (kinks > 0)
        ki = np.flatnonzero(ok)
        if ki.size:
            uk = np.log(kinks[ki])
            inside = np.abs(uk) < U_MAX
            ki, uk = ki[inside], uk[inside]
            for x in (uk, uk + 1e-12):
                fx = f(x, ki)
                feas = fx <= 0
                raise_lo = feas & (x > lo[ki])
                lo[ki[raise_lo]], flo[ki[raise_lo]] = x[raise_lo], fx[raise_lo]
                drop_hi = ~feas & (x < hi[ki])
                hi[ki[drop_hi]], fhi[ki[drop_hi]] = x[drop_hi], fx[drop_hi]
    for direction in (2.0, -2.0):  # bracket: walk in steps of 2 in log u
        idx = np.flatnonzero(~np.isfinite(hi) if direction > 0 else ~np.isfinite(lo))
        cur = (lo if direction > 0 else hi)[idx].copy()
        cur = np.where(np.isfinite(cur), cur, 0.0)
        while idx.size:
            cur = cur + direction
            out = np.abs(cur) > U_MAX
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
    out = np.where(np.isposinf(lo), np.inf, 0.0)
    todo = np.flatnonzero(np.isfinite(lo) & np.isfinite(hi))
    if todo.size:
        ulo = increasing_roots(lambda x, sub: f(x, todo[sub]), lo[todo], hi[todo], flo[todo], fhi[todo], xtol=1e-12)
        out[todo] = np.exp(ulo)
    return out


def _point_profile(family: Family, eps: float, log_target: float, sensitivity: float
                   ) -> Callable[[float, float], float]:
    def g(shape: float, x: float) -> float:
        v = family.log_profile_point(eps, shape, math.exp(x), sensitivity) - log_target
        return math.inf if v != v else max(v, -1e300)
    return g


def max_u_point(family: Family, eps: float, log_target: float, shape: float, sensitivity: float,
                guess: float = 1.0, near: Optional[Tuple[float, float]] = None) -> float:
    """:func:`max_u` of one shape, one point at a time (:meth:`~fhsym.noise.family.Family.log_profile_point`), to the
    last ulps of log u; the family's kink as a seed (the pair (kink, kink + 1e-12) brackets a root sitting there).

    ``near`` = (x, w): a predicted log u* within about w (from the roots of neighbouring shapes): the pair x -+ w is
    the seed instead, and the kink pair only where it lies within 2 w of x.  Any seeds give the same root (the walk
    of :func:`sup_feasible` brackets it from them when they miss); good ones save most of the bracket walk."""
    g = _point_profile(family, eps, log_target, sensitivity)
    seeds: List[float] = []
    kinks = family.kinks(eps, np.array([shape]))
    if kinks is not None and math.isfinite(kinks[0]) and kinks[0] > 0:
        seeds = [math.log(float(kinks[0])), math.log(float(kinks[0])) + 1e-12]
    if near is not None and all(map(math.isfinite, near)):
        xp, w = near
        seeds = [x for x in seeds if abs(x - xp) <= 2.0 * w] + [xp - w, xp + w]
        guess = math.exp(xp)
    x = sup_feasible(lambda x: g(shape, x), math.log(guess) if 0 < guess < math.inf else 0.0, seeds)
    return 0.0 if x == -math.inf else math.exp(x)


def _point_roots(family: Family, eps: float, log_target: float, sensitivity: float, shapes: List[float],
                 guesses: List[float], known: Dict[float, Tuple[float, float, float]]) -> List[float]:
    """:func:`max_u_point` of each shape in turn (a root already in ``known`` is reused, a new one recorded there as
    (u*, offset, log shape)), seeded by a prediction from the roots known so far: the offset log u* - log kink (log u* without a
    kink) taken as linear in log shape through the two known positive shapes nearest this one, to within twice its
    change from the nearest (one known shape: that offset, to within 0.05).  u* is smooth in the shape; a prediction
    that misses costs a few evaluations of the bracket walk, never the root."""
    out: List[float] = []
    kinks = family.kinks(eps, np.asarray(shapes, dtype=float))
    for i, (sh, gs) in enumerate(zip(shapes, guesses)):
        ref = math.log(float(kinks[i])) if kinks is not None and math.isfinite(kinks[i]) and kinks[i] > 0 else 0.0
        if sh in known:
            out.append(known[sh][0])
            continue
        near = None
        if sh > 0:
            z = math.log(sh)
            pts = sorted((abs(lk - z), lk, off) for k, (_, off, lk) in known.items()
                         if k > 0 and math.isfinite(off))[:2]
            if len(pts) == 2:
                (_, z1, o1), (_, z0, o0) = pts
                pred = o1 + ((o1 - o0) / (z1 - z0) * (z - z1) if z1 != z0 else 0.0)
                near = (ref + pred, max(2.0 * abs(pred - o1), 1e-9 * (1.0 + abs(ref + pred))))
            elif len(pts) == 1:
                near = (ref + pts[0][2], 0.05)
        u = max_u_point(family, eps, log_target, sh, sensitivity, gs, near)
        known[sh] = (u, math.log(u) - ref if 0.0 < u < math.inf else math.nan, math.log(sh) if sh > 0 else math.nan)
        out.append(u)
    return out


def _curve_root(family: Family, curve: Callable[[float], float], eps: float, log_target: float, sensitivity: float,
                u0: float) -> Optional[Tuple[float, float]]:
    """(shape, u) on ``curve`` where log delta = log_target (delta increases along it with u), or None."""
    g0 = _point_profile(family, eps, log_target, sensitivity)

    def g(x: float) -> float:
        sh = curve(math.exp(x))
        if not (math.isfinite(sh) and sh >= 0):
            return math.inf
        return g0(sh, x)

    x = sup_feasible(g, math.log(u0), step=0.5, xtol=1e-14, ftol=_FTOL)
    if not math.isfinite(x):
        return None
    return curve(math.exp(x)), math.exp(x)


def _line_root(family: Family, u: float, eps: float, log_target: float, sensitivity: float
               ) -> Optional[Tuple[float, float]]:
    """(shape, u) on the kink line u: the least shape meeting the target there (delta decreases with the shape), or None.

    Bisection on the bit patterns of log shape over the family's range: exact to the last ulp of the shape.
    """
    if family.shape_range is None:
        return None
    lo_s, hi_s, _ = family.shape_range

    def ok(sh: float) -> bool:
        return family.log_profile_point(eps, sh, u, sensitivity) <= log_target

    if not ok(hi_s):
        return None
    if ok(lo_s):
        return lo_s, u
    lo, hi = lo_s, hi_s
    for _ in range(200):
        mid = math.sqrt(lo * hi)
        if mid in (lo, hi):
            break
        lo, hi = (lo, mid) if ok(mid) else (mid, hi)
    while True:  # the last ulps
        below = math.nextafter(hi, 0.0)
        if below <= lo or not ok(below):
            return hi, u
        hi = below


def _corners(family: Family, eps: float, log_target: float, sensitivity: float, u0: float
             ) -> List[Tuple[float, float, float]]:
    """(F, shape, u) of the family's corner candidates: a root along each corner curve, the least shape on each
    kink line."""
    hits = [_curve_root(family, curve, eps, log_target, sensitivity, u0) for curve in family.curves(eps, 1)]
    hits += [_line_root(family, uk, eps, log_target, sensitivity) for uk in family.kink_lines(eps)]
    out = []
    for hit in hits:
        if hit is not None:
            sk, uk = hit
            F = family.log_variance_point(sk) - 2.0 * math.log(uk) if uk > 0 else math.inf
            out.append((F if F == F else math.inf, sk, uk))
    return out


_SCAN_LV: Dict[Tuple[Any, ...], List[float]] = {}


def _scan_lv(family: Family) -> List[float]:
    """log v of the scan shapes of a scale family (the same for every call: kept per law and shape range)."""
    key = (type(family), family.cls, family.shape_range)
    if key not in _SCAN_LV:
        if len(_SCAN_LV) >= 64:
            _SCAN_LV.clear()
        _SCAN_LV[key] = family.log_variance(family.shapes(_SCAN)).tolist()
    return _SCAN_LV[key]


def _beats_all(family: Family, eps: float, log_target: float, sensitivity: float, corner: Tuple[float, float, float]
               ) -> bool:
    """Whether the corner (F, shape, u) has a smaller objective than every shape of the scan and than the shapes
    shape (1 +- 1e-4) next to it, by one profile evaluation per shape (a scale family): F(s) > F iff u*(s) < u_tie(s),
    u_tie the u at which s would tie, iff delta(eps; s, u_tie(s)) > target."""
    Fk, sk, _ = corner
    g = _point_profile(family, eps, log_target, sensitivity)
    near = [sk * (1 - 1e-4), sk * (1 + 1e-4)]
    for s, lv in zip(near + family.shapes(_SCAN).tolist(), [family.log_variance_point(x) for x in near] + _scan_lv(family)):
        if lv == math.inf:
            continue
        x = 0.5 * (lv - Fk)
        if x > U_MAX:
            continue
        if not (x == x and g(s, x) > 0.0):
            return False
    return True


def search_1d(family: Family, eps: float, log_target: float, sensitivity: float) -> Tuple[float, float, bool]:
    """The minimum-variance member in standard units: (shape, u, exact) with log delta(eps; shape, u) <= log_target.

    A family without shapes: one root, one point at a time (:func:`max_u_point`).  Otherwise:

    1. the family's corners (:func:`_corners`; flipped Huber: the kink eps = b u, where the optimum sits when the
       feasible set has a corner there), one point at a time; if the best beats every scan shape and the shapes
       (1 +- 1e-4) next to it (:func:`_beats_all`, a scale family), it is the answer;
    2. otherwise u*(shape) on the family's scan grid (a log grid, and 0 where the family has it), all at once;
       a corner that beats the grid and rises on both sides is the answer;
    3. otherwise four zoom rounds of 9 shapes between the best grid shape's neighbours, then up to three
       parabolic steps in log shape (smooth interior optima).

    ``exact``: u is the root to the last ulps (the one-point roots, also those of the scan where the family searches
    one point at a time, ``family.point_search``); else to 1e-12 in log u.
    """
    if family.shape_range is None:
        u = max_u_point(family, eps, log_target, 0.0, sensitivity)
        return (*_finish((family.log_variance_point(0.0) - 2.0 * math.log(u) if 0 < u < math.inf else math.inf,
                          0.0, u), eps), True)
    corners = sorted(c for c in _corners(family, eps, log_target, sensitivity, family.curve_guess(eps, log_target))
                     if math.isfinite(c[0]))
    if corners and family.scale_family and _beats_all(family, eps, log_target, sensitivity, corners[0]):
        return (*_finish(corners[0], eps), True)
    grid = family.shapes(_SCAN)

    known: Dict[float, Tuple[float, float, float]] = {}  # the roots found so far (the zoom's ends and the parabolic steps recur)

    def roots(shapes: np.ndarray, guess: Optional[np.ndarray] = None) -> np.ndarray:
        if not family.point_search:  # all shapes at once
            return max_u(family, eps, log_target, shapes, sensitivity, guess)
        return np.array(_point_roots(family, eps, log_target, sensitivity, [float(sh) for sh in shapes],
                                     [1.0] * shapes.size if guess is None else [float(g) for g in guess], known))

    U = roots(grid)
    F = family.objective(grid, U, sensitivity)
    i = int(np.argmin(F))
    best = (float(F[i]), float(grid[i]), float(U[i]))

    def consider(shapes: np.ndarray, guess: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        nonlocal best
        Uz = roots(shapes, guess)
        Fz = family.objective(shapes, Uz, sensitivity)
        j = int(np.argmin(Fz))
        if Fz[j] < best[0]:
            best = (float(Fz[j]), float(shapes[j]), float(Uz[j]))
        return Uz, Fz

    for Fk, sk, uk in corners:
        Fk = float(family.objective(np.array([sk]), np.array([uk]), sensitivity)[0])  # the family's own objective
        if Fk <= best[0]:
            _, Fs = consider(np.array([sk * (1 - 1e-4), sk * (1 + 1e-4)]), np.array([uk, uk]))
            if np.all(Fs >= Fk):  # a corner minimum that beats every grid shape
                return (*_finish((Fk, sk, uk), eps), True)
        if Fk < best[0]:
            best = (Fk, sk, uk)
    positive = grid[grid > 0]
    flat = np.isfinite(F[-1]) and F[-1] - best[0] <= 1e-12  # flat in the shape towards the top (a limit law)
    if best[1] > 0 and not flat:
        k = int(np.searchsorted(positive, best[1]))
        lo_s, hi_s = positive[max(k - 1, 0)], positive[min(k + 1, positive.size - 1)]
        pos_u = U[grid > 0]
        logU = np.log(np.where(pos_u > 0, pos_u, 1.0))
        zoom, Fz, Uz = positive, F[grid > 0], pos_u
        for _ in range(4):
            zoom = np.geomspace(lo_s, hi_s, 9)
            Uz, Fz = consider(zoom, np.exp(np.interp(np.log(zoom), np.log(positive), logU)))
            j = int(np.argmin(Fz))
            lo_s, hi_s = zoom[max(j - 1, 0)], zoom[min(j + 1, zoom.size - 1)]
        pts = sorted([(float(np.log(z)), float(fz), float(uz)) for z, fz, uz in zip(zoom, Fz, Uz) if np.isfinite(fz)])
        for _ in range(3):  # parabolic steps in x = log shape through the best point and its neighbours
            if len(pts) < 3:
                break
            m = min(range(len(pts)), key=lambda q: pts[q][1])
            if m == 0 or m == len(pts) - 1:
                break
            (x0, f0, _), (x1, f1, u1), (x2, f2, _) = pts[m - 1], pts[m], pts[m + 1]
            den = (x1 - x0) * (f1 - f2) - (x1 - x2) * (f1 - f0)
            if den == 0:
                break
            xv = x1 - 0.5 * ((x1 - x0) ** 2 * (f1 - f2) - (x1 - x2) ** 2 * (f1 - f0)) / den
            if not (x0 < xv < x2) or abs(xv - x1) < 1e-9:
                break
            Uv, Fv = consider(np.array([math.exp(xv)]), np.array([u1]))
            pts = sorted(pts + [(xv, float(Fv[0]), float(Uv[0]))])
    return (*_finish(best, eps), family.point_search)


def least_double_scale(family: Family, eps: float, target: float, shape: float, sensitivity: float,
                       scale: float, points: int = 64) -> float:
    """The smallest double s with delta(eps) <= ``target`` for the member (shape, s), from a feasible ``scale``
    within ~1e-11 of it: k-ary search on the bit patterns of the doubles, ``points`` per vectorised call
    (2-3 calls; :func:`fhsym._core.search.least_true_double_near`), so the noise is exact to the last ulp with
    respect to the float profile."""
    def feasible(s: np.ndarray) -> np.ndarray:
        return family.profile_members(eps, np.full(s.shape, shape), s, sensitivity) <= target

    return least_true_double_near(feasible, scale, points)


def _finish(best: Tuple[float, float, float], eps: float) -> Tuple[float, float]:
    F, shape, u = best
    if not (math.isfinite(F) and 0 < u < math.inf):
        raise CalibrationError(f"cannot calibrate: no parameter of the noise family meets the target at epsilon={eps!r}")
    return shape, u


def least_scale_per_shape(family: Family, feasible: Callable[[float, float], bool], shapes: np.ndarray
                          ) -> Tuple[float, float]:
    """(shape, scale) of least variance scale^2 v(shape) over ``shapes``, each shape's least scale with
    ``feasible(shape, scale)`` (monotone in the scale; :func:`fhsym._core.search.smallest_true`, exact to the ulp of
    the predicate).  A bound that is no closed form of the profile (zCDP) is searched this way."""
    best = (math.inf, 0.0, math.inf)
    for sh in (float(x) for x in shapes):
        lv = family.log_variance_point(sh)
        if not math.isfinite(lv):
            continue
        try:
            scale = smallest_true(lambda s: feasible(sh, s), 1.0, name="scale")
        except CalibrationError:
            continue
        F = lv + 2.0 * math.log(scale)
        if F < best[0]:
            best = (F, sh, scale)
    if not math.isfinite(best[0]):
        raise CalibrationError(f"cannot calibrate {family.name} noise: no shape meets the target")
    return best[1], best[2]
