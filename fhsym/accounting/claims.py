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
"""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional

from .._core.sensitivities import mul_sqrt_up
from ..privacy.claims import ONE_RELEASE, Claim, Evidence, Release
from .mechanism_pld import kfold_delta_proven
from .pld_exact import ExactBound, ExactGrid, exact_delta_upper
from .zcdp import zcdp_delta

__all__ = ["CLAIMS", "KFOLD", "ZCDP", "claim_named"]


class _KFoldCorner(Claim):
    name = "pld-kfold"

    def check(self, release: Release) -> None:
        if not getattr(release.noise, "log_concave", False):
            raise ValueError(f"claim 'pld-kfold' needs noise with a symmetric log-concave density (the box corner is "
                             f"its worst difference vector); got {release.noise!r}")
        if release.folds < 2:
            raise ValueError(f"claim 'pld-kfold' is for dim * compositions >= 2; got {release.folds}")

    def _gaussian(self, release: Release) -> Evidence:
        D, KT = release.sensitivities.sensitivity, release.folds
        r = mul_sqrt_up(D, KT)
        enc = release.noise.profile_enclosure(release.epsilon, r)
        return Evidence(enc.lower, enc.upper, "arb", True,
                        f"the {KT}-fold profile at the box corner d = (Delta, ..., Delta) of Gaussian noise: the 1-D "
                        f"profile at sqrt({KT}) Delta = {r!r} (rounded up), ball arithmetic (python-flint arb) at the "
                        f"exact binary parameters, {enc.method}")

    @staticmethod
    def _pld(release: Release, bound: ExactBound) -> Evidence:
        g = bound.grid
        return Evidence(0.0, bound.upper, "pld-exact", True,
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
        return self._pld(release, kfold_delta_proven(release.noise, release.epsilon, release.folds, D,
                                                     delta=min(target, 0.5) if target > 0 else 1e-300, refine=1))

    def evidence(self, release: Release, grid: Optional[Mapping[str, Any]] = None) -> Evidence:
        if release.noise.gaussian_sigma() is not None:
            if grid is not None:
                raise ValueError(f"claim 'pld-kfold' of Gaussian noise takes no grid; got grid={dict(grid)!r}")
            return self._gaussian(release)
        if grid is None:
            raise ValueError("claim 'pld-kfold' needs the grid of its privacy-loss distribution (certificate field "
                             "'grid')")
        g = ExactGrid.from_dict(grid)
        if grid.get("folds") != release.folds:
            raise ValueError(f"certificate field 'grid.folds' = {grid.get('folds')!r} is not dim * compositions = "
                             f"{release.folds}")
        D = release.sensitivities.sensitivity
        return self._pld(release, exact_delta_upper(release.noise, D, release.epsilon, release.folds, g))

    def covers(self, release: Release) -> str:
        s = release.sensitivities
        return (f"every d with ||d||_inf <= {s.sensitivity!r} in each of {release.compositions} release(s) of {s.dim} "
                f"coordinate(s), the box that contains the stated set ||d||_inf <= {s.sensitivity!r}, "
                f"||d||_2 <= {s.l2_sensitivity!r}, ||d||_1 <= {s.l1_sensitivity!r}")


KFOLD = _KFoldCorner()


class _ZCDP(Claim):
    """zCDP composition: each of the K T releases is (xi, eta)-zCDP at Delta, the sum converted to (eps, delta)."""

    name = "zcdp"

    def check(self, release: Release) -> None:
        if release.noise.zcdp_parameters(release.sensitivities.sensitivity) is None:
            raise ValueError(f"claim 'zcdp' needs a noise law with zCDP parameters; got {release.noise!r}")

    def evidence(self, release: Release, grid: Optional[Mapping[str, Any]] = None) -> Evidence:
        if grid is not None:
            raise ValueError(f"claim 'zcdp' takes no grid; got grid={dict(grid)!r}")
        xi, eta = release.noise.zcdp_parameters(release.sensitivities.sensitivity)
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
CLAIMS: Dict[str, Claim] = {**ONE_RELEASE, KFOLD.name: KFOLD, ZCDP.name: ZCDP}


def claim_named(name: object) -> Claim:
    """The claim of the table called ``name`` (``ValueError`` naming the known ones otherwise)."""
    if not isinstance(name, str) or name not in CLAIMS:
        raise ValueError(f"certificate field 'claim' must be one of {sorted(CLAIMS)}; got {name!r}")
    return CLAIMS[name]
