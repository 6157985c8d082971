"""The searches of the one calibrator: the least scale per shape, the best shape, for one family.

1-D (a claim whose bound is the 1-D profile at a sensitivity R: ``"profile-1d"``, ``"profile-1d-l2"``,
``"profile-lattice"``).  The profile grows with R/scale, so for each shape the least scale is one monotone root
u*(shape) = sup{u : log delta(eps; shape, u) <= log target}; the shape minimises F = log v(shape) - 2 log u*(shape)
(:func:`search_1d`).  One point at a time where that settles it (the family's scalar profile on Python floats,
Brent roots to the last ulps, :func:`max_u_point`; a corner checked against every scan shape by one evaluation
each); otherwise a scan, zoom rounds and parabolic steps, the roots of many shapes at once (:func:`max_u`).
Every u returned is on the feasible side of its root.

K-fold (``"pld-kfold"``).  The bound is a float privacy-loss distribution at a coarse lattice (a few
ms each, not vectorised): the least scale per shape by a bracketed Brent root in log scale
(:func:`least_scale`), shapes on a coarse grid, a shape that cannot beat the best so far skipped
after one evaluation, the family's corner curves, golden-section refinement (:func:`search_kfold`); then the
shape and scale on the certificate's lattices (:func:`refine_kfold`).
"""
from __future__ import annotations

import math
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np

from .._core.search import (CalibrationError, descend_by_ties, golden_by_ties, increasing_roots, least_scale,
                            least_true_double_near, smallest_true, sup_feasible)
from ..accounting.mechanism_pld import kfold_delta_lower, kfold_delta_upper, step_for
from ..noise.family import Family

__all__ = ["max_u", "max_u_point", "search_1d", "least_double_scale", "least_scale", "search_kfold", "U_MAX",
           "fixed_shape", "least_scale_per_shape", "shave_scale", "refine_kfold", "search_bound"]

U_MAX = 700.0  # |log u| beyond which u* is taken as 0 or inf
_SCAN = 36  # shapes of the 1-D scan
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


# ---------------------------------------------------------------------------
# K-fold


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
            x = least_scale(bound_of(float(sh)), log_target, x0, known=known, xtol=_K_XTOL)
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
    log shape (:func:`fhsym._core.search.descend_by_ties`, first step :data:`_REFINE_STEP`, to :data:`_REFINE_XTOL`)
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
