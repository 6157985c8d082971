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
``"sufficient"``  Theorem 8 (:mod:`fhsym.accounting.sufficient`): D*(b) is the largest D at which
    Theorem 8's restriction and inequality hold (bisection on that predicate).
``"exact"``       the exact K-fold profile (:mod:`fhsym.accounting.pld`), certified upper bound
    delta_upper(eps) <= delta.  Search -> certify: :func:`calibrate_exact` searches with a coarse
    PLD (D*(b) by a bracketed Brent root on its log; the shape scan, the atom transition and a
    Brent refinement in b are described there); :func:`certified_delta_upper` is the certify
    primitive evaluated at the returned floats by ``_certify_exact``.  This is exact for the
    l_inf box ||d||_inf <= Delta (worst case d = (Delta, ..., Delta), see
    :mod:`fhsym.accounting.kdim`); tighter Delta_2 / Delta_1 are not used by it (the box bound stays
    valid for the smaller set).
``"auto"``        both; the smaller certified variance wins.  For a sensitivity set tighter than
    the box only ``"exact"`` is certified (see below), so ``"auto"`` uses ``"exact"`` alone there.

Bounded work: ``dim`` above :data:`fhsym._core.limits.MAX_FOLDS` is refused before any search (the one policy of
:func:`fhsym._core.limits.check_folds`).

Certification (never under-noised).  The returned floats are re-checked:

* ``exact``: the proven K-fold PLD upper bound (:mod:`fhsym.accounting.pld_exact`: ball-arithmetic
  profile nodes, exact integer composition) at the returned (alpha, gamma, Delta), on the default
  lattice aligned with the loss atoms, must be <= delta; gamma (and alpha with it) is scaled up until
  it is.  The certificate records the grid (``extra["pld_grid"]``), from which
  :func:`fhsym.verify_certificate` recomputes the same bound.  At alpha = 0 the bound is the Gaussian
  profile at sqrt(K) Delta in ball arithmetic.
* ``sufficient``: Theorem 8 at the returned floats with margin 1e-10, and -- for the box
  (Delta_2 = sqrt(K) Delta, Delta_1 = K Delta), where Theorem 8 is proven (``docs/kdim.md``) --
  also the proven PLD upper bound <= delta, which does not depend on Theorem 8 at all (it is what
  the certificate records: claim ``"pld-kfold"``).  For a
  set tighter than the box Theorem 8's proof is incomplete (its Lemma 7 fails for non-extreme
  d); the PLD upper bound of every extreme vector of :func:`fhsym.accounting.worst_case_candidates`
  is then checked instead, ``achieved_delta`` is the larger of Theorem 8's left-hand side and
  those bounds, and the certificate says that this is not a proof for the whole set (only an
  explicit ``method="sufficient"`` returns such a result).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Optional, Tuple

import numpy as np
from scipy import optimize

from .._core import domains as V
from .._core.limits import check_folds
from .._generated.flipped_huber_pieces import log_kappa_std
from ..accounting import sufficient as S
from ..accounting.kdim import aligned_step, default_step, kdim_pld, worst_case_candidates
from ..accounting.mechanism_pld import kfold_delta_proven
from ..accounting.pld import from_privacy_profile
from ..accounting.pld_exact import ExactBound
from ..noise.flipped_huber import FlippedHuber
from ..privacy.bounds import Bound
from ..privacy.profile import PROFILE_RTOL, log_profile_std
from .engine import Request, certify, representable_variance, result
from .flipped_huber import variance_std
from .result import Calibration

__all__ = ["calibrate_kdim", "calibrate_sufficient", "calibrate_exact", "certified_delta_upper"]

_GAUSS_SEARCH_MARGIN = 1e-9  # b = 0: the Gaussian is certified in ball arithmetic (arb) against delta itself
GAUSS_PREFERENCE = 1e-5  # b = 0 is returned unless a shape b > 0 beats it by this (relative variance; see calibrate_exact)
MIN_GAIN = 1e-6  # the shape scan skips a shape that cannot beat the best by this (relative; below the search's resolution)
SEARCH_RESOLUTION = 100.0  # the search's lattice: (1-D loss scale) / this (the certify step uses default_step's 400)
_THM8_RTOL = 1e-10
B_MAX = 1e4


_v = variance_std  # v(b) = Var FH(b, 1), eq 11 in standard units


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
# exact K-fold profile: the certify primitive and the search
# ---------------------------------------------------------------------------


@lru_cache(maxsize=64)
def certified_delta_upper(epsilon: float, alpha: float, gamma: float, dim: int, sensitivity: float = 1.0,
                          delta: Optional[float] = None) -> ExactBound:
    """The certify step: the proven upper bound on delta_K(epsilon) at the given floats (an :class:`ExactBound`).

    The exact K-fold profile at d = (Delta, ..., Delta) (covers every d with ||d||_inf <= Delta,
    :mod:`fhsym.accounting.kdim`), bounded by :func:`fhsym.accounting.mechanism_pld.kfold_delta_proven`
    (ball-arithmetic nodes, exact integer composition; :mod:`fhsym.accounting.pld_exact`) on the float
    PLD's default lattice aligned with the loss atoms, its grid sized for the target ``delta``; if the
    bound exceeds ``delta``, once more on a lattice twice as fine.  Memoised.

    >>> b = certified_delta_upper(1.0, 1.0, 3.0, 4, 1.0, 1e-2)
    >>> bool(0.0 < b.upper < 1.0), b.folds
    (True, 4)
    """
    h = aligned_step(default_step(alpha, gamma, dim, sensitivity), alpha, gamma, sensitivity)
    return kfold_delta_proven(FlippedHuber(alpha, gamma), epsilon, dim, sensitivity, delta=delta, step=h, refine=1)


def _search_log_delta(eps: float, b: float, D: float, K: int) -> float:
    """log of the K-fold PLD upper bound at a coarse step, from the float kernels (search only, not a certificate).

    Standard units (gamma = 1, alpha = b, Delta = D); step = (1-D loss scale) / SEARCH_RESOLUTION,
    aligned with the loss atoms.  Near the kink the kernels are not corrected (the certify step is).
    """
    if not 0.0 < D < math.inf:  # exp(x) under/overflowed in the bracket walk: no certificate there (infeasible)
        return math.inf
    h = aligned_step(default_step(b, 1.0, K, D, resolution=SEARCH_RESOLUTION), b, 1.0, D)
    lw = float(log_kappa_std(np.float64(b)))

    def prof(e: np.ndarray) -> np.ndarray:
        with np.errstate(under="ignore"):
            return np.exp(log_profile_std(np.asarray(e, dtype=float), b, D, lw))

    # the top of the grid: beyond it delta < ~1e-18 (the Gaussian tail of the noise past max(b, 10)); any top is valid
    try:
        one = from_privacy_profile(prof, h, profile_rtol=PROFILE_RTOL, eps_max=D * (b + 10.0) + 0.5 * D * D,
                                   upper_only=True)
    except FloatingPointError:  # the float profile is not finite at this D: treated as infeasible (never less noise)
        return math.inf
    up = float(one.self_compose(K).delta_upper(eps)) if K > 1 else float(one.delta_upper(eps))
    return math.log(max(up, 1e-300))


def _feasible_root(f, x0: float, dx: float, xtol: float, known: Optional[Tuple[float, float]] = None,
                   max_evals: int = 60) -> Tuple[float, float]:
    """Largest x (to ``xtol``) with f(x) <= 0, for f non-decreasing: (x, f(x)) with f(x) <= 0.

    Brackets from x0 by steps dx, 2 dx, 4 dx, ...; then Brent's method (robust at steep steps of f,
    as where the loss atoms add up to eps), every evaluation recorded: the largest feasible and the
    smallest infeasible point seen bracket the root, bisected further if wider than xtol.
    ``known = (x, f(x))`` with f(x) <= 0 saves an evaluation.  Returns (-inf, nan) / (inf, nan)
    if no sign change is found.
    """
    n = 0
    if known is not None:
        lo, flo = known
        hi, fhi = lo, flo
    else:
        lo = hi = x0
        flo = fhi = f(x0)
        n = 1
    step = dx
    while flo > 0:  # walk down
        hi, fhi = lo, flo
        lo = hi - step
        flo = f(lo)
        n += 1
        step *= 2.0
        if n > max_evals:
            return -math.inf, math.nan
    while fhi <= 0:  # walk up
        lo, flo = hi, fhi
        hi = lo + step
        fhi = f(hi)
        n += 1
        step *= 2.0
        if n > max_evals:
            return math.inf, math.nan
    # Brent's method on the bracket (robust at steep steps), recording every evaluation: the largest feasible x
    # and the smallest infeasible x seen bracket the root
    seen = {lo: flo, hi: fhi}

    def rec(x: float) -> float:
        if x not in seen:
            seen[x] = f(x)
        return seen[x]

    if hi - lo > xtol:
        try:
            optimize.brentq(rec, lo, hi, xtol=xtol / 4.0, rtol=4 * np.finfo(float).eps, maxiter=max(max_evals - n, 1))
        except RuntimeError:  # pragma: no cover - maxiter reached: the recorded bracket is still valid
            pass
    lo = max(x for x, fx in seen.items() if fx <= 0)
    flo = seen[lo]
    hi = min(x for x, fx in seen.items() if fx > 0)
    while hi - lo > xtol and len(seen) < max_evals + 2:
        x = 0.5 * (lo + hi)
        fx = rec(x)
        if fx <= 0:
            lo, flo = x, fx
        else:
            hi = x
    return lo, flo


def _gauss_D(eps: float, dl: float, K: int) -> float:
    """Delta/sigma of the analytic Gaussian meeting (eps, delta) with l2 sensitivity sqrt(K) Delta (a starting point)."""
    from .mechanisms import calibrate_gaussian

    return 1.0 / calibrate_gaussian(eps, dl, math.sqrt(K)).mechanism.sigma


def calibrate_exact(epsilon, delta, dim, sensitivity=1.0, *, b_max: float = 50.0, b_grid: int = 12):
    """Minimum variance under the exact K-fold profile (search result): returns (alpha, gamma, variance).

    Search: for each shape b the largest D = Delta/gamma with the coarse search bound (:func:`_search_log_delta`)
    <= delta, by :func:`_feasible_root` warm-started at the previous shape's root; shapes on a log
    grid of ``b_grid`` points in [1e-2, ``b_max``] (a shape whose D at the best variance so far already fails is
    skipped after one evaluation), a bounded Brent refinement around the best, and b = 0 (the analytic Gaussian).
    The chosen shape's gamma is then found at the certify step's lattice with the float kernels, to delta
    (1 - 1e-7), so that the certify step (:func:`certified_delta_upper`, the proven bound on the same lattice,
    which the float bound's error allowances lie above) normally passes at once.  The shape is returned only
    if its variance is below the Gaussian's (b = 0) by more than :data:`GAUSS_PREFERENCE` (1e-5 relative):
    the Gaussian's certificate is one ball-arithmetic evaluation, the shape's a proven PLD (0.5-3 s at
    K = 20 ... 1000), and the Gaussian then costs at most 1e-5 more variance (at K = 20, eps = 1,
    delta = 1e-6 the shape gains 2.2e-6).
    """
    eps = V.check_scalar(epsilon, V.EPSILON)
    dl = V.check_scalar(delta, V.DELTA)
    K = V.check_int(dim, "dim", 1)
    check_folds(K)
    scale = V.check_scalar(sensitivity, V.SENSITIVITY)
    # a scale family: search in standard units (Delta = 1), then scale (the certify step re-checks the scaled floats)
    alpha, gamma, var = _calibrate_exact_std(eps, dl, K, b_max, b_grid)
    with np.errstate(over="ignore", under="ignore"):
        return alpha * scale, gamma * scale, float(np.float64(var) * scale * scale)


def _calibrate_exact_std(eps: float, dl: float, K: int, b_max: float, b_grid: int):
    """:func:`calibrate_exact` at sensitivity 1."""
    Dl = 1.0
    log_t = math.log(dl)
    warm = {"x": math.log(_gauss_D(eps, dl, K))}
    roots = {}

    def f_of(b: float):
        return lambda x: _search_log_delta(eps, b, math.exp(x), K) - log_t

    def crossing(b: float) -> Tuple[float, float]:
        """(x_c, f(b, x_c)): x_c = log D where the K atoms +-b D add up to eps; f = nan where no atom exists there."""
        if eps <= 0.0:  # the atoms never add up to eps = 0
            return -math.inf, math.nan
        xc = math.log(eps / (K * b))
        return xc, (f_of(b)(xc) if b > math.exp(xc) else math.nan)

    def Dstar(b: float, known=None, dx: float = 0.01) -> float:
        if b not in roots:
            x, _ = _feasible_root(f_of(b), warm["x"], dx, 1e-5, known)
            if math.isfinite(x):
                warm["x"] = x
            roots[b] = math.exp(x)
        return roots[b]

    def obj(b: float, known=None, dx: float = 0.01) -> float:
        Ds = Dstar(b, known, dx)
        return _v(b) / Ds**2 if 0 < Ds < math.inf else math.inf

    # 1. the scan; a shape whose crossing x_c is feasible has its root just above x_c (a steep step of delta)
    grid = [float(b) for b in np.geomspace(1e-2, b_max, b_grid)]
    vals, feas = [], []
    best_b, best = grid[0], math.inf
    for b in grid:
        xc, fc = crossing(b)
        feas.append(fc <= 0)
        if fc <= 0:
            start = (xc, fc), 1e-5
        else:
            start = None, 0.01
        if math.isfinite(best):
            x_tie = 0.5 * math.log(_v(b) / (best * (1.0 - MIN_GAIN)))
            f_tie = f_of(b)(x_tie)
            if f_tie > 0:  # the target fails at the D that would beat the best by MIN_GAIN: no better here
                vals.append(math.inf)
                continue
            if start[0] is None or x_tie > start[0][0]:
                start = (x_tie, f_tie), start[1]
        val = obj(b, *start)
        vals.append(val)
        if val < best:
            best_b, best = b, val
    # 2. the transition b_c (smallest b whose crossing is feasible): the variance has a V-shaped minimum there
    for i in range(1, len(grid)):
        if feas[i] and not feas[i - 1]:
            def g(y: float) -> float:  # y = -log b: non-decreasing
                fc = crossing(math.exp(-y))[1]
                return math.inf if math.isnan(fc) else fc  # no atom at this b: no feasible crossing (as in the scan)

            y, gy = _feasible_root(g, -math.log(grid[i]), math.log(grid[i] / grid[i - 1]), 1e-4,
                                   known=(-math.log(grid[i]), crossing(grid[i])[1]))
            if math.isfinite(y):
                bc = math.exp(-y)
                val = obj(bc, (math.log(eps / (K * bc)), gy), 1e-6)
                if val < best:
                    best_b, best = bc, val
            break
    # 3. a bounded Brent refinement around the best grid point in the smooth regime
    i = int(np.argmin(vals))
    if 0 < i < len(grid) - 1 and math.isfinite(vals[i]) and not feas[i + 1]:
        res = optimize.minimize_scalar(lambda lb: obj(math.exp(lb)), bounds=(math.log(grid[i - 1]), math.log(grid[i + 1])),
                                       method="bounded", options={"xatol": 1e-2, "maxiter": 12})
        if res.fun < best:
            best_b, best = math.exp(float(res.x)), float(res.fun)
    gauss_gamma = Dl / _gauss_D(eps, dl * (1.0 - _GAUSS_SEARCH_MARGIN), K)  # b = 0: the analytic Gaussian, sqrt(K) Delta
    gauss = (0.0, gauss_gamma, gauss_gamma**2 * _v(0.0))
    if not best < (gauss[2] / Dl**2) * (1.0 + 1e-4):  # the coarse search is pessimistic by ~1e-5: a near tie is refined
        return gauss
    b = best_b
    # the chosen shape at the certify step's lattice (float kernels, so cheap at the kink): the smallest gamma
    # (to 1e-7 relative) meeting delta (1 - 1e-7); the certify step then re-evaluates at these floats
    log_r = log_t + math.log1p(-1e-7)

    def g_of(x: float) -> float:  # x = -log gamma: non-decreasing like log delta
        gm = math.exp(-x)
        up = float(kdim_pld(b * gm, gm, K, Dl, upper_only=True, certified=False).delta_upper(eps))
        return math.log(max(up, 1e-300)) - log_r

    x, _ = _feasible_root(g_of, -math.log(Dl / Dstar(b)), 2e-5, 1e-7)
    if not math.isfinite(x):
        return gauss
    gamma = math.exp(-x)
    fh = (b * gamma, gamma, gamma**2 * _v(b))
    return fh if fh[2] < gauss[2] * (1.0 - GAUSS_PREFERENCE) else gauss


# ---------------------------------------------------------------------------
# certification and the public entry point
# ---------------------------------------------------------------------------


def _gauss_box_upper(eps: float, gamma: float, K: int, Dl: float) -> float:
    """At alpha = 0 the K-fold profile at d = (Delta, ..., Delta) is the Gaussian profile with l2 sensitivity
    sqrt(K) Delta (Balle & Wang): certified at the exact binary values by :func:`fhsym.privacy.certify.certified_profile`
    (ball arithmetic, python-flint arb), with sqrt(K) Delta rounded up (the profile increases with it)."""
    from .._core.sensitivities import mul_sqrt_up
    from ..privacy.certify import certified_profile

    D2 = mul_sqrt_up(Dl, K)
    return float(certified_profile(eps, 0.0, gamma, D2))


def _pld_upper(eps: float, alpha: float, gamma: float, K: int, Dl: float, difference) -> float:
    """The float PLD upper bound for one difference vector (sets tighter than the box: no certificate)."""
    pld = kdim_pld(alpha, gamma, K, Dl, difference=difference, upper_only=True)
    return float(pld.delta_upper(eps))


def _box_bound(eps: float, a: float, g: float, K: int, D: float, dl: float, text: str) -> Optional[Bound]:
    """The certificate's bound over the box at (alpha, gamma): ball arithmetic at alpha = 0, else the proven PLD."""
    if a == 0.0:
        up = _gauss_box_upper(eps, g, K, D)
        how = (f"alpha = 0: the Gaussian profile with l2 sensitivity sqrt(K) Delta, {up:.6e} <= delta at the returned "
               f"floats (ball arithmetic, arb)")
        return Bound(0.0, up, "arb", True, f"{text}{how}; covers every d with ||d||_inf <= {D:g}") if up <= dl else None
    b = certified_delta_upper(float(eps), float(a), float(g), int(K), float(D), float(dl))
    if b.upper > dl:
        return None
    g_ = b.grid
    how = (f"proven PLD upper bound {b.upper:.6e} <= delta at the returned floats (ball-arithmetic profile nodes, "
           f"exact integer composition; lattice step {float(g_.step):.4g}, {g_.nodes} nodes, 2^-{g_.bits} units)")
    return Bound(0.0, b.upper, "pld", True, f"{text}{how}; covers every d with ||d||_inf <= {D:g}", b.record())


def _scale_until(ok, b: float, gamma: float, what: str, dl: float):
    """The engine's policy (:func:`fhsym.calibration.engine.certify`) with ``ok(alpha, gamma)`` as the bound.

    ``ok`` returns the :class:`Bound` or None; the first upward step is 1e-9 relative (the PLD search
    is accurate to ~1e-9, not to an ulp).
    """

    def bound(noise: FlippedHuber) -> Bound:
        res = ok(noise.alpha, noise.gamma)
        return Bound(0.0, math.inf, "pld", False, "not certified") if res is None else res

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
    dl = V.check_scalar(delta, V.DELTA)
    K, D, D2, D1 = S.resolve_sensitivities(dim, sensitivity, l2_sensitivity, l1_sensitivity)
    check_folds(K)  # bounded work: refused before any search
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
    representable_variance(FlippedHuber(alpha, gamma), Request(eps, dl, D, D2, D1, K))  # refused before certifying
    b = alpha / gamma

    def ok(a, g):
        if not S.theorem8_holds(eps, dl, a, g, K, D, D2, D1, rtol=_THM8_RTOL):
            return None
        if box:
            return _box_bound(eps, a, g, K, D, dl, f"Theorem 8 holds at the returned floats (LHS = "
                              f"{S.theorem8_lhs(eps, a, g, K, D, D2, D1):.6e}); independently, the exact K-fold profile: ")
        worst = 0.0
        for d in worst_case_candidates(K, D, D2, D1):
            worst = max(worst, _pld_upper(eps, a, g, K, D, d))
        if worst > dl:
            return None
        lhs = S.theorem8_lhs(eps, a, g, K, D, D2, D1)
        return Bound(0.0, max(lhs, worst), "pld", False,
                     f"NOT a certificate for the whole set: Theorem 8 holds at the returned floats (LHS = {lhs:.6e}) "
                     f"for ||d||_inf <= {D:g}, ||d||_2 <= {D2:g}, ||d||_1 <= {D1:g}, but Theorem 8's proof is incomplete for "
                     f"sets tighter than the box (docs/kdim.md); the float PLD upper bound of each of "
                     f"{len(worst_case_candidates(K, D, D2, D1))} extreme difference vectors is <= {worst:.6e}; use "
                     f"method='exact' for a certified result")

    noise, bound, steps = _scale_until(ok, b, gamma, "sufficient", dl)
    # on the box the evidence is the exact K-fold bound (the Gaussian's arb profile at alpha = 0, else the PLD): a
    # "pld-kfold" claim that verify_certificate re-checks; off the box it is Theorem 8 alone, which is not a certificate
    return result(noise, bound, steps, Request(eps, dl, D, D2, D1, K), "sufficient-thm8",
                  claim="pld-kfold" if box else "theorem8")


def _certify_exact(eps, dl, K, D, D2, D1, box) -> Calibration:
    alpha, gamma, _ = calibrate_exact(eps, dl, K, D)
    representable_variance(FlippedHuber(alpha, gamma), Request(eps, dl, D, D2, D1, K))  # refused before certifying
    b = alpha / gamma
    note = "" if box else f" (the l2/l1 sensitivities {D2:g}/{D1:g} are tighter than the box and are not used: conservative)"

    def ok(a, g):
        bd = _box_bound(eps, a, g, K, D, dl, "exact K-fold profile at d = (Delta,...,Delta): ")
        return None if bd is None else Bound(bd.lower, bd.upper, bd.method, bd.rigorous, bd.detail + note, bd.evidence)

    noise, bound, steps = _scale_until(ok, b, gamma, "exact", dl)
    return result(noise, bound, steps, Request(eps, dl, D, D2, D1, K), "exact-kdim-pld", claim="pld-kfold")
