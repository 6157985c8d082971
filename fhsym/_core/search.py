"""The searches every calibration uses: monotone predicates over the doubles, in one place.

Calibration is a search for the least noise that meets a privacy target, followed by a check
at the exact returned floats.  The search half lives here; it knows nothing about privacy:

* :func:`smallest_true_many` -- :func:`smallest_true` for many independent predicates at once, step for step (so
  the same doubles), one call of the vectorised predicate per step;
* :func:`smallest_true` / :func:`largest_true` -- the extreme double at which a monotone
  boolean predicate holds, by doubling/halving to a bracket and then bisection on the bit
  patterns of the doubles, so the answer is exact to the last ulp *with respect to the
  predicate* (the style of OpenDP's ``binary_search`` and dp_accounting's
  ``calibrate_dp_mechanism``: only passing points are returned);
* :func:`largest_true_many` -- the same for many independent predicates at once (vectorised
  bracketing, then bisection in log space), used to scan many shapes of a noise family;
* :func:`largest_true_geometric` / :func:`least_true_geometric` -- the same to a relative tolerance by geometric
  bisection (searches whose predicate is a float bound, certified afterwards);
* :func:`increasing_roots` -- vectorised roots of many increasing functions (Illinois false
  position), returning the feasible side of each root; :func:`increasing_root` (Brent) and
  :func:`sup_feasible` the same for one scalar function, one point at a time;
* the minimisations over a shape (golden sections, a descent by comparisons, a log grid then Brent) are in
  :mod:`fhsym._core.minimise`;
* :class:`CalibrationError` -- the one exception for a search that cannot succeed (no finite
  parameter meets the target).  It is a ``ValueError``: the request, not the code, is at fault.
"""

from __future__ import annotations

import math
import struct
from typing import Callable, Optional, Sequence, Tuple

import numpy as np

__all__ = ["CalibrationError", "first_true_int", "increasing_root", "largest_true_geometric", "least_true_geometric",
           "increasing_roots", "sup_feasible", "smallest_true", "smallest_true_many", "smallest_true_smooth",
           "largest_true", "largest_true_many", "largest_true_between", "least_true_double", "least_scale",
           "least_true_double_near"]


class CalibrationError(ValueError):
    """No parameter in the supported range meets the privacy target (the search cannot succeed).

    >>> smallest_true(lambda x: False, 1.0, name="sigma")
    Traceback (most recent call last):
    ...
    fhsym._core.search.CalibrationError: cannot calibrate: no finite sigma meets the target
    """


def _f2i(x: float) -> int:
    i: int = struct.unpack("<q", struct.pack("<d", x))[0]
    return i


def _i2f(i: int) -> float:
    x: float = struct.unpack("<d", struct.pack("<q", i))[0]
    return x


def _switch_bits(switched: Callable[[float], bool], lo: float, hi: float) -> tuple[float, float]:
    """Given 0 <= lo < hi with switched(hi) and not switched(lo), for a predicate False then True as x
    grows: the adjacent doubles (x, x+) in [lo, hi] at which it switches, by bisection on the bits."""
    ilo, ihi = _f2i(lo), _f2i(hi)
    while ihi - ilo > 1:
        mid = (ilo + ihi) // 2
        if switched(_i2f(mid)):
            ihi = mid
        else:
            ilo = mid
    return _i2f(ilo), _i2f(ihi)


def _bisect_bits(ok: Callable[[float], bool], lo: float, hi: float) -> float:
    """Given 0 <= lo < hi with ok(hi) and not ok(lo): the smallest double in (lo, hi] with ok."""
    return _switch_bits(ok, lo, hi)[1]


def least_true_double(ok: Callable[[float], bool], lo: float, hi: float) -> float:
    """The least double in (lo, hi] found with ``ok``, for 0 <= lo < hi, ``ok(hi)`` true (not evaluated) and ``ok``
    false then true as x grows: bisection on the bit patterns (about log2 of the doubles between them); only a
    passing x (or ``hi``) is returned, whatever ``ok`` does.

    >>> x = least_true_double(lambda x: x * x >= 2.0, 1.0, 2.0)
    >>> x * x >= 2.0 and math.nextafter(x, 0.0) ** 2 < 2.0
    True
    """
    return _bisect_bits(ok, lo, hi)


def first_true_int(ok: Callable[[int], bool], lo: int, hi: int) -> int:
    """The least integer k > lo with ok(k), for ok False at ``lo`` and non-decreasing in k (exact integers).

    ``hi`` is a first guess; it is raised to 2 hi + 1 until ok(hi), then the bracket (lo, hi] is bisected.

    >>> first_true_int(lambda k: k * k > 50, 0, 1)
    8
    """
    while not ok(hi):
        lo, hi = hi, 2 * hi + 1
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return hi


def smallest_true(ok: Callable[[float], bool], x0: float, *, name: str, allow_zero: bool = False) -> float:
    """Smallest positive double x with ``ok(x)``, for ``ok`` False then True as x grows.

    Starts at ``x0 > 0``.  With ``allow_zero``, returns 0.0 when ``ok(0.0)``.  Raises
    :class:`CalibrationError` naming ``name`` when no finite double passes.

    >>> smallest_true(lambda x: x * x >= 2.0, 1.0, name="x") == math.sqrt(2.0)
    True
    """
    if allow_zero and ok(0.0):
        return 0.0
    x0 = float(x0)
    hi = max(x0, 5e-324) if math.isfinite(x0) else 1.0  # an overflowed first guess (inf) would never halve
    for _ in range(2200):
        if ok(hi):
            break
        hi *= 2.0
        if not math.isfinite(hi):
            raise CalibrationError(f"cannot calibrate: no finite {name} meets the target")
    else:  # pragma: no cover - 2200 doublings leave the floats
        raise CalibrationError(f"cannot calibrate: no finite {name} meets the target")
    lo = hi / 2.0
    while lo > 0.0 and ok(lo):
        hi, lo = lo, lo / 2.0
    return _bisect_bits(ok, lo, hi)


def smallest_true_many(ok: Callable[[np.ndarray, np.ndarray], np.ndarray], n: int, x0: float = 1.0, *, name: str,
                       allow_zero: bool = False) -> np.ndarray:
    """:func:`smallest_true` for n independent predicates at once, the same double for each.

    ``ok(x, idx)`` tells, for the predicates numbered ``idx`` (an int array), whether each holds at the matching
    element of ``x``; each must be False then True as x grows.  Every predicate follows the steps of
    :func:`smallest_true` from ``x0`` (test 0 with ``allow_zero``; double to a passing ``hi``; halve while ``hi/2``
    passes; bisect the bit patterns of (hi/2, hi]), all predicates of one step in one call, so the result is the double
    :func:`smallest_true` returns for each predicate, bit for bit (``tests/test_epsilon_arrays.py``).

    >>> smallest_true_many(lambda x, i: x * x >= (i + 2.0) ** 2, 3, name="x") == np.array([2.0, 3.0, 4.0])
    array([ True,  True,  True])
    """
    out = np.zeros(n)
    todo = np.arange(n)
    if allow_zero and n:
        todo = todo[~np.asarray(ok(np.zeros(n), todo), dtype=bool)]
    x0 = float(x0)
    hi = np.full(todo.size, max(x0, 5e-324) if math.isfinite(x0) else 1.0)
    grow = np.arange(todo.size)  # positions (in todo) still doubling
    for _ in range(2200):
        if not grow.size:
            break
        grow = grow[~np.asarray(ok(hi[grow], todo[grow]), dtype=bool)]
        with np.errstate(over="ignore"):
            hi[grow] *= 2.0
        if not np.all(np.isfinite(hi[grow])):
            raise CalibrationError(f"cannot calibrate: no finite {name} meets the target")
    else:  # pragma: no cover - 2200 doublings leave the floats
        raise CalibrationError(f"cannot calibrate: no finite {name} meets the target")
    lo = hi / 2.0
    shrink = np.arange(todo.size)
    while shrink.size:
        shrink = shrink[lo[shrink] > 0.0]
        shrink = shrink[np.asarray(ok(lo[shrink], todo[shrink]), dtype=bool)]
        hi[shrink] = lo[shrink]
        lo[shrink] = lo[shrink] / 2.0
    ilo, ihi = lo.view(np.int64).copy(), hi.view(np.int64).copy()  # non-negative doubles: ordered as their bits
    live = np.flatnonzero(ihi - ilo > 1)
    while live.size:
        mid = ilo[live] + (ihi[live] - ilo[live]) // 2  # = (ilo + ihi) // 2, without overflowing int64
        passed = np.asarray(ok(mid.view(np.float64), todo[live]), dtype=bool)
        ihi[live[passed]] = mid[passed]
        ilo[live[~passed]] = mid[~passed]
        live = live[ihi[live] - ilo[live] > 1]
    out[todo] = ihi.view(np.float64)
    return out


def smallest_true_smooth(ok: Callable[[float], bool], g: Callable[[float], float], x0: float, *, name: str) -> float:
    """:func:`smallest_true` for a predicate ``ok(x) <=> g(x) <= 0`` with g continuous and decreasing in x.

    Brent's method on u = log x finds the root of g in ~10 evaluations (instead of ~60 bisections
    on the bits), then the answer is moved ulp by ulp to the smallest double that passes ``ok``
    (with a bit-bisection fallback), so it is the same double :func:`smallest_true` returns.
    """
    from scipy import optimize

    x0 = float(x0) if math.isfinite(float(x0)) else 1.0
    u0 = math.log(max(x0, 5e-324))

    def gu(u: float) -> float:
        return g(math.exp(u))

    lo = hi = u0
    if gu(u0) <= 0:
        while gu(lo) <= 0:
            hi, lo = lo, lo - 1.0
            if lo < -744.0:
                return smallest_true(ok, x0, name=name)
    else:
        while gu(hi) > 0:
            lo, hi = hi, hi + 1.0
            if hi > 709.0:
                raise CalibrationError(f"cannot calibrate: no finite {name} meets the target")
    root = optimize.brentq(gu, lo, hi, xtol=1e-300, rtol=8.9e-16, maxiter=200)
    x = math.exp(root)
    for _ in range(64):
        if ok(x):
            break
        x = math.nextafter(x, math.inf)
    else:
        return smallest_true(ok, x, name=name)
    for _ in range(64):
        below = math.nextafter(x, 0.0)
        if below <= 0.0 or not ok(below):
            return x
        x = below
    return _bisect_bits(ok, 0.0, x) if not ok(5e-324) else 5e-324


def largest_true(ok: Callable[[float], bool], x0: float, *, name: str) -> float:
    """Largest positive double x with ``ok(x)``, for ``ok`` True then False as x grows.

    Returns ``inf`` when every finite double passes and raises :class:`CalibrationError`
    when none does (not even the smallest subnormal).
    """
    lo = max(float(x0), 5e-324)
    if ok(lo):
        hi = lo * 2.0
        while ok(hi):
            lo, hi = hi, hi * 2.0
            if not math.isfinite(hi):
                return math.inf
    else:
        hi = lo
        lo = hi / 2.0
        while not ok(lo):
            hi, lo = lo, lo / 2.0
            if lo == 0.0:
                raise CalibrationError(f"cannot calibrate: no positive {name} meets the target")
    # ok(lo), not ok(hi): bisect on bits for the last passing double
    return _switch_bits(lambda x: not ok(x), lo, hi)[0]


def largest_true_many(feasible: Callable[[np.ndarray, np.ndarray], np.ndarray], n: int, *,
                      grow: float = 4.0, steps: int = 52, span: float = 1e300) -> np.ndarray:
    """For n independent predicates, sup{x > 0 : feasible(x)} each, to ~2^-steps in log x.

    ``feasible(x, idx)`` evaluates predicates ``idx`` (an index array) at the points ``x``
    (same length) and returns booleans; each predicate must be True then False as x grows.
    Bracketing from x = 1 by factors ``grow``, then ``steps`` bisections of log x.  Returns
    the last feasible point found (a lower bound of the supremum within the resolution): 0
    where nothing above 1/span is feasible, inf where everything below span is.
    """
    lo, hi = np.zeros(n), np.full(n, np.inf)
    ok1 = np.asarray(feasible(np.ones(n), np.arange(n)), dtype=bool)
    for factor, active in ((grow, ok1.copy()), (1.0 / grow, ~ok1)):
        cur = np.ones(n)
        if factor > 1:
            lo[active] = 1.0
        else:
            hi[active] = 1.0
        while active.any():
            idx = np.flatnonzero(active)
            cur[idx] *= factor
            out = (cur[idx] > span) | (cur[idx] < 1.0 / span)
            if out.any():  # the bracket leaves the range: inf (always feasible) or 0 (never)
                lo[idx[out]] = np.inf if factor > 1 else 0.0
                hi[idx[out]] = np.inf if factor > 1 else 0.0
                active[idx[out]] = False
                idx = idx[~out]
                if idx.size == 0:
                    break
            f = np.asarray(feasible(cur[idx], idx), dtype=bool)
            if factor > 1:
                lo[idx[f]] = cur[idx[f]]
                hi[idx[~f]] = cur[idx[~f]]
                active[idx[~f]] = False
            else:
                hi[idx[~f]] = cur[idx[~f]]
                lo[idx[f]] = cur[idx[f]]
                active[idx[f]] = False
    todo = np.flatnonzero((lo > 0) & np.isfinite(hi))
    for _ in range(steps):
        if todo.size == 0:
            break
        mid = np.sqrt(lo[todo] * hi[todo])
        f = np.asarray(feasible(mid, todo), dtype=bool)
        lo[todo[f]] = mid[f]
        hi[todo[~f]] = mid[~f]
    return lo


def increasing_roots(f: Callable[[np.ndarray, np.ndarray], np.ndarray], lo: np.ndarray, hi: np.ndarray,
                     flo: np.ndarray, fhi: np.ndarray, *, xtol: float = 1e-12, maxiter: int = 100) -> np.ndarray:
    """Vectorised roots of increasing functions, returning the side where f <= 0.

    For each i, ``f(x, idx)`` evaluates the functions ``idx`` at ``x`` (an increasing function
    of x for every i); ``[lo_i, hi_i]`` brackets the root: ``flo_i = f_i(lo_i) <= 0 < fhi_i``.
    Illinois false position (superlinear, safeguarded by bisection when the secant point is
    not strictly inside) until ``hi - lo <= xtol (1 + |lo|)``.  Returns the final ``lo``: a
    point where f <= 0 (the feasible side), within the tolerance of the root.
    """
    lo, hi = np.array(lo, dtype=float), np.array(hi, dtype=float)
    flo, fhi = np.array(flo, dtype=float), np.array(fhi, dtype=float)
    side = np.zeros(lo.shape, dtype=np.int8)  # which end was kept last time (Illinois halving)
    active = np.flatnonzero(hi - lo > xtol * (1.0 + np.abs(lo)))
    for _ in range(maxiter):
        if active.size == 0:
            break
        a, b, fa, fb = lo[active], hi[active], flo[active], fhi[active]
        with np.errstate(all="ignore"):
            x = b - fb * (b - a) / (fb - fa)
        bad = ~np.isfinite(x) | (x <= a) | (x >= b)
        x[bad] = 0.5 * (a[bad] + b[bad])
        fx = np.asarray(f(x, active), dtype=float)
        fx = np.where(np.isnan(fx), np.inf, fx)  # an undefined value counts as infeasible
        left = fx <= 0.0
        ia, ib = active[left], active[~left]
        # x becomes the new lo (feasible) or hi; halve the stale end's value when an end is kept twice
        lo[ia], flo[ia] = x[left], fx[left]
        stale = side[ia] == -1
        fhi[ia[stale]] *= 0.5
        side[ia] = -1
        hi[ib], fhi[ib] = x[~left], fx[~left]
        stale = side[ib] == 1
        flo[ib[stale]] *= 0.5
        side[ib] = 1
        active = active[hi[active] - lo[active] > xtol * (1.0 + np.abs(lo[active]))]
    return lo


def increasing_root(g: Callable[[float], float], lo: float, hi: float, glo: float, ghi: float,
                    xtol: float = 2.0**-52, ftol: float = 0.0, maxiter: int = 200) -> float:
    """The last x with g(x) <= 0 for an increasing scalar g bracketed by g(lo) <= 0 < g(hi): Brent's method (inverse
    quadratic and secant steps, bisection where they do not shrink the bracket fast enough, e.g. at an infinite end;
    the step logic of scipy's ``brentq``), every evaluation recorded, until the bracket is below xtol (1 + |x|), the
    two ends are adjacent doubles, or -ftol <= g <= 0 at a point (a feasible point within ``ftol`` of the target:
    the stop for a function that is only known to rounding near its root).  Returns the largest feasible point
    evaluated: the feasible side, within the tolerance of the root (by default the last ulps).

    >>> x = increasing_root(lambda x: x * x - 2.0, 1.0, 2.0, -1.0, 2.0)
    >>> x * x <= 2.0, abs(x - 2.0 ** 0.5) < 1e-15
    (True, True)
    """
    best, gbest = lo, glo
    if glo >= -ftol:
        return best
    xpre, fpre, xcur, fcur = lo, glo, hi, ghi
    xblk = fblk = spre = scur = 0.0
    for _ in range(maxiter):
        if (fpre <= 0.0) != (fcur <= 0.0):
            xblk, fblk = xpre, fpre
            spre = scur = xcur - xpre
        if abs(fblk) < abs(fcur):
            xpre, xcur, xblk = xcur, xblk, xcur
            fpre, fcur, fblk = fcur, fblk, fcur
        tol = 0.5 * xtol * (1.0 + abs(xcur))
        sbis = 0.5 * (xblk - xcur)
        if abs(sbis) < tol or not (min(xblk, xcur) < xcur + sbis < max(xblk, xcur)):
            break
        stry = math.nan
        if abs(spre) > tol and abs(fcur) < abs(fpre):
            with_inf = not (math.isfinite(fcur) and math.isfinite(fpre) and math.isfinite(fblk))
            if not with_inf:
                if xpre == xblk:  # secant
                    stry = -fcur * (xcur - xpre) / (fcur - fpre) if fcur != fpre else math.nan
                else:  # inverse quadratic interpolation
                    dpre = (fpre - fcur) / (xpre - xcur)
                    dblk = (fblk - fcur) / (xblk - xcur)
                    den = dblk * dpre * (fblk - fpre)
                    stry = -fcur * (fblk * dblk - fpre * dpre) / den if den != 0.0 else math.nan
        if 2.0 * abs(stry) < min(abs(spre), 3.0 * abs(sbis) - tol):  # False for NaN
            spre, scur = scur, stry
        else:
            spre = scur = sbis
        xpre, fpre = xcur, fcur
        xcur = xcur + (scur if abs(scur) > tol else math.copysign(tol, sbis))
        fcur = g(xcur)
        if fcur != fcur:  # NaN counts as infeasible
            fcur = math.inf
        if fcur <= 0.0 and xcur > best:
            best, gbest = xcur, fcur
            if gbest >= -ftol:
                break
    return best


def sup_feasible(g: Callable[[float], float], x0: float, seeds: Sequence[float] = (), step: float = 2.0,
                 span: float = 700.0, xtol: float = 2.0**-52, ftol: float = 0.0) -> float:
    """sup{x : g(x) <= 0} for an increasing scalar g (x = log u in the searches): the ``seeds`` classified (and
    ``x0`` unless they bracket the root), a walk by ``step`` (from a seed by 1e-3, x8 per step up to ``step``) to the
    first sign change, then :func:`increasing_root` (``xtol``, ``ftol`` its tolerances); -inf /
    inf when the walk leaves [-span, span] (nothing feasible / everything feasible there).

    >>> import math
    >>> round(sup_feasible(lambda x: x - 10.3, 0.0), 12), sup_feasible(lambda x: -1.0, 0.0)
    (10.3, inf)
    """
    lo = glo = -math.inf
    hi = ghi = math.inf

    def put(x: float) -> None:
        nonlocal lo, glo, hi, ghi
        gx = g(x)
        if gx <= 0.0:
            if x > lo:
                lo, glo = x, gx
        elif x < hi:
            hi, ghi = x, gx

    for x in seeds:
        if abs(x) <= span:
            put(x)
    if not (math.isfinite(lo) and math.isfinite(hi)):
        put(x0)
    walk = step if not seeds else min(step, 1e-3)  # from a seed (a kink: the root is often just beside it), growing
    while hi == math.inf:
        x = (lo if lo > -math.inf else x0) + walk
        if x > span:
            return math.inf
        put(x)
        walk = min(8.0 * walk, step) if seeds else walk
    while lo == -math.inf:
        x = hi - walk
        if x < -span:
            return -math.inf
        put(x)
        walk = min(8.0 * walk, step) if seeds else walk
    return increasing_root(g, lo, hi, glo, ghi, xtol=xtol, ftol=ftol)


def largest_true_geometric(ok: Callable[[float], bool], lo: float, *, limit: float, rtol: float = 1e-10,
                           rounds: int = 64) -> float:
    """The largest x (to ``rtol`` relative, on the feasible side) with ``ok(x)``, for ``ok(lo)`` true (not evaluated)
    and ``ok`` true then false as x grows: doubling from ``lo`` while ``ok`` holds and x < ``limit``, then at most
    ``rounds`` geometric bisections of [lo, the first double that failed].

    >>> x = largest_true_geometric(lambda x: x * x <= 2.0, 1.0, limit=1e3)
    >>> x * x <= 2.0 and abs(x - math.sqrt(2.0)) < 1e-9
    True
    """
    hi = lo
    while ok(hi * 2.0) and hi < limit:
        hi *= 2.0
    return largest_true_between(ok, lo, hi * 2.0, rtol=rtol, rounds=rounds)


def largest_true_between(ok: Callable[[float], bool], lo: float, hi: float, *, rtol: float = 1e-10,
                         rounds: int = 64) -> float:
    """The largest x in [lo, hi] (to ``rtol`` relative, on the feasible side) with ``ok(x)``, for ``ok(lo)`` true and
    ``ok(hi)`` false (neither evaluated) and ``ok`` true then false as x grows: at most ``rounds`` geometric
    bisections, stopping when hi/lo - 1 < ``rtol`` or the midpoint is an end (adjacent doubles).

    >>> x = largest_true_between(lambda x: x * x <= 2.0, 1e-12, 1e3, rtol=1e-13, rounds=200)
    >>> x * x <= 2.0 and abs(x - math.sqrt(2.0)) < 1e-12
    True
    """
    for _ in range(rounds):
        if hi / lo - 1.0 < rtol:
            break
        mid = math.sqrt(lo * hi)
        if mid in (lo, hi):
            break
        if ok(mid):
            lo = mid
        else:
            hi = mid
    return lo


def least_true_geometric(ok: Callable[[float], bool], lo: float, hi: float, rounds: int) -> float:
    """The least x in [lo, hi] found with ``ok(x)``, for ``ok(hi)`` true (not evaluated) and ``ok`` false then true
    as x grows: ``lo`` if it passes, else ``rounds`` geometric bisections; only a passing x (or ``hi``) is returned.

    >>> y = least_true_geometric(lambda x: x * x >= 2.0, 1.0, 2.0, 40)
    >>> y * y >= 2.0 and abs(y - math.sqrt(2.0)) < 1e-9
    True
    """
    if ok(lo):
        return lo
    for _ in range(rounds):
        mid = math.sqrt(lo * hi)
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return hi


def least_scale(bound: Callable[[float], float], log_target: float, x0: float, *,
                known: Optional[Tuple[float, float]] = None, xtol: float = 2e-6, max_evals: int = 60,
                step: float = 0.5, limit: float = 700.0) -> float:
    """The least log-scale x (to ``xtol``) with log bound(e^x) <= log_target, for a bound decreasing in x.

    Brackets from ``x0`` by steps ``step``, 2 ``step``, 4 ``step``, ... (``known`` = (x0, g(x0)) saves an
    evaluation; a small ``step`` when ``x0`` is a close prediction), then Brent's method with every evaluation
    recorded; returns the smallest feasible x seen (inf if none; |x| beyond ``limit``: the walk stops there).
    ``ValueError`` if ``known`` is given at another point than ``x0``.

    >>> x = least_scale(lambda s: 1.0 / s, math.log(0.5), 0.0, xtol=1e-9)
    >>> 1.0 / math.exp(x) <= 0.5 and abs(x - math.log(2.0)) < 1e-9
    True
    """
    seen = {}

    def g(x: float) -> float:
        if x not in seen:
            v = bound(math.exp(x))
            seen[x] = (math.log(v) if v > 0 else (-1e300 if v == 0 else math.inf)) - log_target  # nan: infeasible
        return seen[x]

    if known is not None:
        if known[0] != x0:
            raise ValueError(f"known must be (x0, g(x0)), at x0 = {x0!r}; got it at x = {known[0]!r}")
        seen[known[0]] = known[1]
    lo = hi = x0
    if g(x0) <= 0:
        while g(lo) <= 0:
            hi, lo = lo, lo - step
            step *= 2.0
            if len(seen) > max_evals or lo < -limit:
                return hi
    else:
        while g(hi) > 0:
            lo, hi = hi, hi + step
            step *= 2.0
            if len(seen) > max_evals or hi > limit:
                return math.inf
    if hi - lo > xtol:
        from scipy import optimize

        try:
            optimize.brentq(g, lo, hi, xtol=xtol / 4.0, maxiter=max(max_evals - len(seen), 1))
        except (RuntimeError, ValueError):  # pragma: no cover - the recorded bracket stays valid
            pass
    return min(x for x, v in seen.items() if v <= 0)


def least_true_double_near(feasible: Callable[[np.ndarray], np.ndarray], x: float, points: int = 64) -> float:
    """The least positive double with ``feasible`` (a vectorised predicate on arrays of doubles, false then true as
    they grow) from a feasible ``x`` within ~1e-11 of it: k-ary search on the bit patterns of the doubles,
    ``points`` per call (2-3 calls), exact to the last ulp with respect to the predicate.  Where ``x`` fails, up by
    1e-12, 2e-12, ... to 1e-6; ``x`` itself where nothing there passes.

    >>> y = least_true_double_near(lambda s: s * s >= 2.0, 1.4142135623731)
    >>> y * y >= 2.0 and math.nextafter(y, 0.0) ** 2 < 2.0
    True
    """
    def ok(ks: np.ndarray) -> np.ndarray:
        return np.asarray(feasible(ks.astype(np.int64).view(np.float64)), dtype=bool)

    hi = _f2i(x)
    step = 1e-12
    while not ok(np.array([hi]))[0]:  # a search's root may sit a few ulps on the wrong side of this predicate
        hi = _f2i(x * (1.0 + step))
        step *= 2.0
        if step > 1e-6:
            return x
    lo = _f2i(_i2f(hi) * (1.0 - 1e-11))
    while lo > 0 and ok(np.array([lo]))[0]:  # widen until the low end fails
        hi, lo = lo, _f2i(_i2f(lo) * (1.0 - 1e-9))
    while hi - lo > 1:
        n = min(points, hi - lo)
        ks = np.unique(lo + (np.arange(1, n, dtype=np.int64) * (hi - lo)) // n)  # exact integer spacing
        ks = ks[(ks > lo) & (ks < hi)]
        if ks.size == 0:
            break
        passed = ok(ks)
        if passed.any():
            j = int(np.argmax(passed))  # the first feasible point: the switch lies just below it
            hi = int(ks[j])
            lo = int(ks[j - 1]) if j > 0 else lo
        else:
            lo = int(ks[-1])
    return _i2f(hi)
