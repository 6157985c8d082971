"""The claim table: every claim a certificate can make, by name (one bound per claim, two callers).

The one-release claims are in :mod:`fhsym.privacy.claims`; the K-fold claim lives here because
its bound is a composition (privacy-loss distributions).  :data:`CLAIMS` is the table that
:func:`fhsym.calibrate` certifies through and :func:`fhsym.verify_certificate` re-checks through.

``"pld-kfold"``: i.i.d. noise with a symmetric log-concave density on K coordinates, T releases,
over the box ||d||_inf <= Delta.  The location family has a monotone likelihood ratio, so the
Neyman-Pearson tests between T and T + d are threshold tests and the trade-off function of the pair
is non-increasing in |d|; tensor products of trade-off functions are monotone in each factor (Dong,
Roth & Su 2022, Lemma C.3), so the release is least private at the corner d = (Delta, ..., Delta),
every time: delta is that of the K T-fold composition of the 1-D mechanism at Delta.  For Gaussian
noise that composition is the 1-D Gaussian at sqrt(K T) Delta (rounded up), enclosed in ball
arithmetic; otherwise it is bounded by a proven privacy-loss distribution computed in exact arithmetic
(:mod:`fhsym.accounting.pld_exact`) whose grid is recorded in the certificate's ``grid``, so that a
re-check repeats the computation bit for bit.

``"pld-kfold-sup"``: i.i.d. symmetric noise that need not be log-concave (the staircase), over the same
box: the K T-fold composition of the symmetric pair built from the sup over the shifts 0 < d <= Delta
of the 1-D profile, which dominates every coordinate's pair whatever its shift (:class:`_KFoldSup`),
in the same exact arithmetic, its grid recorded.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Dict, Mapping, Optional, Tuple

from .._core.limits import Cost, base_cost
from .._core.sensitivities import mul_sqrt_up
from ..noise.contract import NoiseLaw, continuous
from ..privacy.claims import ONE_RELEASE, Claim, Evidence, Release
from .mechanism_pld import exact_grid, kfold_delta_proven
from .pld_exact import GRID_FORMAT, MAX_TERMS, METHOD, ExactBound, ExactGrid, exact_cost, exact_delta_upper
from .zcdp import zcdp_delta

__all__ = ["CLAIMS", "KFOLD", "KFOLD_SUP", "ZCDP", "claim_named"]



_SIZES = ("support_1d", "max_window", "final_window")


def _recorded_grid(claim: str, release: Release, grid: Optional[Mapping[str, Any]]) -> Tuple[ExactGrid, Tuple[int, ...]]:
    """The proven PLD's grid a certificate records (field ``grid``), parsed, for the release's dim * compositions,
    with its recorded sizes (support_1d, max_window, final_window: the cost of the re-check)."""
    if grid is None:
        raise ValueError(f"claim {claim!r} needs the grid of its privacy-loss distribution (certificate field 'grid')")
    try:
        g = ExactGrid.from_dict(grid)
    except ValueError as exc:
        raise ValueError(f"certificate field 'grid': {exc}") from None
    if grid.get("folds") != release.folds:
        raise ValueError(f"certificate field 'grid.folds' = {grid.get('folds')!r} is not dim * compositions = "
                         f"{release.folds}")
    sizes = []
    for k in _SIZES:
        v = grid.get(k)
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAX_TERMS:
            raise ValueError(f"certificate field 'grid.{k}' must be an integer in [0, {MAX_TERMS}]; got {v!r}")
        sizes.append(v)
    return g, tuple(sizes)


def _grid_cost(claim: Claim, release: Release, grid: Optional[Mapping[str, Any]]) -> Cost:
    g, (_, longest, final) = _recorded_grid(claim.name, release, grid)
    return exact_cost(g, release.folds, longest, final)


def _recorded_bound(claim: Claim, noise: Any, release: Release, grid: Optional[Mapping[str, Any]]) -> ExactBound:
    """The proven bound on the recorded grid, stopped as soon as a window exceeds the recorded ``max_window``."""
    g, (_, longest, _) = _recorded_grid(claim.name, release, grid)
    D = release.sensitivities.sensitivity
    return exact_delta_upper(noise, D, release.epsilon, release.folds, g, max_window=longest)


class _KFoldCorner(Claim):
    name = "pld-kfold"

    def check(self, release: Release) -> None:
        if release.noise.lattice or not release.noise.log_concave:
            raise ValueError(f"claim 'pld-kfold' needs noise with a symmetric log-concave density (the box corner is "
                             f"its worst difference vector); got {release.noise!r}")
        if release.folds < 2:
            raise ValueError(f"claim 'pld-kfold' is for dim * compositions >= 2; got {release.folds}")

    def _gaussian(self, release: Release) -> Evidence:
        D, KT = release.sensitivities.sensitivity, release.folds
        r = mul_sqrt_up(D, KT)
        enc = continuous(release.noise, "claim 'pld-kfold'").profile_enclosure(release.epsilon, r)
        return Evidence(enc.lower, enc.upper, "arb", True,
                        f"the {KT}-fold profile at the box corner d = (Delta, ..., Delta) of Gaussian noise: the 1-D "
                        f"profile at sqrt({KT}) Delta = {r!r} (rounded up), ball arithmetic (python-flint arb) at the "
                        f"exact binary parameters, {enc.method}")

    @staticmethod
    def _pld(release: Release, bound: ExactBound) -> Evidence:
        g = bound.grid
        return Evidence(0.0, bound.upper, METHOD[bound.grid.format], True,
                        f"the {release.folds}-fold profile at the box corner d = (Delta, ..., Delta) (symmetric "
                        f"log-concave noise: the worst vector of the box), a proven privacy-loss-distribution upper "
                        f"bound: ball-arithmetic profile nodes on the lattice {g.step.numerator}/{g.step.denominator} * Z, "
                        f"the dominating pair and its {release.folds}-fold composition in integers rounded up "
                        f"(units 2^-{g.bits})", bound.record())

    def certify_evidence(self, release: Release, target: float) -> Evidence:
        if release.noise.gaussian_sigma() is not None:
            return self._gaussian(release)
        D = release.sensitivities.sensitivity
        # the grid sized for the target; one finer lattice is tried before the noise is raised (each is a proof)
        noise = continuous(release.noise, "claim 'pld-kfold'")
        return self._pld(release, kfold_delta_proven(noise, release.epsilon, release.folds, D,
                                                     delta=min(target, 0.5) if target > 0 else 1e-300, refine=1))

    def cost(self, release: Release, grid: Optional[Mapping[str, Any]] = None) -> Cost:
        if release.noise.gaussian_sigma() is not None:
            return base_cost("parameters")
        return _grid_cost(self, release, grid)

    def evidence(self, release: Release, grid: Optional[Mapping[str, Any]] = None) -> Evidence:
        if release.noise.gaussian_sigma() is not None:
            if grid is not None:
                raise ValueError("claim 'pld-kfold' of Gaussian noise takes no grid (certificate field 'grid' must be "
                                 "null)")
            return self._gaussian(release)
        return self._pld(release, _recorded_bound(self, release.noise, release, grid))

    def covers(self, release: Release) -> str:
        s = release.sensitivities
        return (f"every d with ||d||_inf <= {s.sensitivity!r} in each of {release.compositions} release(s) of {s.dim} "
                f"coordinate(s), the box that contains the stated set ||d||_inf <= {s.sensitivity!r}, "
                f"||d||_2 <= {s.l2_sensitivity!r}, ||d||_1 <= {s.l1_sensitivity!r}")


KFOLD = _KFoldCorner()


class _SupNodes:
    """A noise law seen through the sup of its 1-D profile over the shifts: the nodes of the dominating pair."""

    def __init__(self, noise: NoiseLaw) -> None:
        self.noise = continuous(noise, "claim 'pld-kfold-sup'")

    def profile_upper_ends(self, epsilons: Any, sensitivity: float, **kw: Any) -> Any:
        return self.noise.worst_profile_upper_ends(epsilons, sensitivity, **kw)


class _KFoldSup(Claim):
    """K T-fold composition of a dominating pair built from the sup over the shifts of the 1-D profile.

    For symmetric noise whose density need not be log-concave (the staircase): every coordinate of every release
    adds the noise to a shift d_i with |d_i| <= Delta.  The 1-D pair (T, T + d) and its swap have the same
    hockey-stick curve (the noise is symmetric), so the curve H_d on u >= 1 determines it.  The nodes W_j are
    upper ends of ball-arithmetic enclosures of sup_{0 < d <= Delta} delta(j h; d)
    (``noise.worst_profile_upper_ends``); sup_d H_d is convex and non-increasing on u >= 1 (a sup of such
    curves), so the chord interpolation of the nodes lies above every H_d, and the symmetric pair that
    :func:`fhsym.accounting.pld_exact.exact_delta_upper` builds from it has a curve above every H_d on u >= 1,
    hence everywhere (on u <= 1 the curve is the perspective u H(1/u) + 1 - u, monotone in H): it dominates
    (Blackwell) the pair of every shift |d| <= Delta, d = 0 included.  The product of dominating pairs dominates
    the product (and the adaptive composition of the T releases: Zhu, Dong & Wang 2022, Theorem 10), so delta of
    the K T-fold composition of the pair, computed in exact arithmetic on the recorded grid, bounds every d in
    the box ||d||_inf <= Delta.
    """

    name = "pld-kfold-sup"

    def check(self, release: Release) -> None:
        noise = continuous(release.noise, "claim 'pld-kfold-sup'")
        if release.folds < 2:
            raise ValueError(f"claim 'pld-kfold-sup' is for dim * compositions >= 2; got {release.folds}")
        try:  # ValueError for a law without a proven sup over the shifts, or outside its shifts
            noise.worst_profile_upper_ends([0.0], release.sensitivities.sensitivity)
        except ValueError as exc:
            raise ValueError(f"claim 'pld-kfold-sup' needs noise with proven upper ends of the sup of its profile over "
                             f"the shifts (worst_profile_upper_ends): {exc}") from None

    @staticmethod
    def _evidence(release: Release, bound: ExactBound) -> Evidence:
        g = bound.grid
        return Evidence(0.0, bound.upper, METHOD[bound.grid.format], True,
                        f"the {release.folds}-fold composition of the symmetric pair built from the sup over the "
                        f"shifts 0 < d <= Delta of the 1-D profile (it dominates every shift |d_i| <= Delta of every "
                        f"coordinate), a proven privacy-loss-distribution upper bound: ball-arithmetic nodes of the sup "
                        f"on the lattice {g.step.numerator}/{g.step.denominator} * Z, the pair and its "
                        f"{release.folds}-fold composition in integers rounded up (units 2^-{g.bits})", bound.record())

    def certify_evidence(self, release: Release, target: float) -> Evidence:
        noise, D = continuous(release.noise, "claim 'pld-kfold-sup'"), release.sensitivities.sensitivity
        atoms = noise.loss_atoms(D)
        step = float(max(atoms)) if atoms else None  # the loss lattice of the sup (the staircase: eps0 Z)
        grid = exact_grid(noise, D, min(target, 0.5) if target > 0 else 1e-300, release.folds, step=step)
        # the nodes are the sup's (_SupNodes: per-node enclosures only), not the law's: exact_grid picks the series
        # format for a law that has series nodes (flipped Huber), which _SupNodes would refuse
        grid = replace(grid, format=GRID_FORMAT)
        return self._evidence(release, exact_delta_upper(_SupNodes(noise), D, release.epsilon, release.folds, grid))

    def cost(self, release: Release, grid: Optional[Mapping[str, Any]] = None) -> Cost:
        return _grid_cost(self, release, grid)

    def evidence(self, release: Release, grid: Optional[Mapping[str, Any]] = None) -> Evidence:
        return self._evidence(release, _recorded_bound(self, _SupNodes(release.noise), release, grid))

    def covers(self, release: Release) -> str:
        return KFOLD.covers(release)


KFOLD_SUP = _KFoldSup()


class _ZCDP(Claim):
    """zCDP composition: each of the K T releases is (xi, eta)-zCDP at Delta, the sum converted to (eps, delta)."""

    name = "zcdp"

    def check(self, release: Release) -> None:
        if release.noise.zcdp_parameters(release.sensitivities.sensitivity) is None:
            raise ValueError(f"claim 'zcdp' needs a noise law with zCDP parameters; got {release.noise!r}")

    def evidence(self, release: Release, grid: Optional[Mapping[str, Any]] = None) -> Evidence:
        if grid is not None:
            raise ValueError("claim 'zcdp' takes no grid (certificate field 'grid' must be null)")
        zc = release.noise.zcdp_parameters(release.sensitivities.sensitivity)
        if zc is None:
            raise ValueError(f"claim 'zcdp' needs a noise law with zCDP parameters; got {release.noise!r}")
        xi, eta = zc
        n = release.folds
        d = zcdp_delta(n * xi, n * eta, release.epsilon)
        return Evidence(0.0, d, "zcdp-cks", False,
                        f"zCDP: each of the {n} releases is ({xi!r}, {eta!r})-zCDP at Delta (paper, slides), composed "
                        f"({n * xi!r}, {n * eta!r})-zCDP, converted to delta by Canonne, Kamath & Steinke (2020, "
                        f"Prop 12) at a concrete order, in floating point")

    def covers(self, release: Release) -> str:
        s = release.sensitivities
        return (f"every sequence of {release.folds} adaptively chosen releases of sensitivity {s.sensitivity!r} "
                f"(each coordinate of each of {release.compositions} release(s))")


ZCDP = _ZCDP()

#: every claim a certificate can make
CLAIMS: Dict[str, Claim] = {**ONE_RELEASE, KFOLD.name: KFOLD, KFOLD_SUP.name: KFOLD_SUP, ZCDP.name: ZCDP}


def claim_named(name: object) -> Claim:
    """The claim of the table called ``name`` (``ValueError`` naming the known ones otherwise)."""
    if not isinstance(name, str) or name not in CLAIMS:
        raise ValueError(f"certificate field 'claim' must be one of {sorted(CLAIMS)}; got {name!r}")
    return CLAIMS[name]
