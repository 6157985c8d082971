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
arithmetic; otherwise it is bounded by a privacy-loss distribution (:mod:`fhsym.accounting.pld`)
whose lattice is recorded in the certificate's ``grid``.
"""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional

from .._core.sensitivities import mul_sqrt_up
from ..privacy.claims import ONE_RELEASE, Claim, Evidence, Release
from .mechanism_pld import kfold_delta_upper, step_for

__all__ = ["CLAIMS", "KFOLD", "claim_named"]


def _grid_step(grid: Optional[Mapping[str, Any]]) -> float:
    if grid is None or set(grid) != {"step"}:
        raise ValueError(f"claim 'pld-kfold' needs grid = {{'step': h}} (the PLD's lattice step); got {grid!r}")
    step = grid["step"]
    if not (isinstance(step, float) and 0.0 < step < 1.0):
        raise ValueError(f"grid.step must be a float in (0, 1); got {step!r}")
    return step


class _KFoldCorner(Claim):
    name = "pld-kfold"

    def check(self, release: Release) -> None:
        if not getattr(release.noise, "log_concave", False):
            raise ValueError(f"claim 'pld-kfold' needs noise with a symmetric log-concave density (the box corner is "
                             f"its worst difference vector); got {release.noise!r}")
        if release.folds < 2:
            raise ValueError(f"claim 'pld-kfold' is for dim * compositions >= 2; got {release.folds}")

    def default_grid(self, release: Release, target: float) -> Optional[Dict[str, Any]]:
        if release.noise.gaussian_sigma() is not None:
            return None
        return {"step": step_for(release.noise, release.sensitivities.sensitivity)}

    def evidence(self, release: Release, grid: Optional[Mapping[str, Any]] = None) -> Evidence:
        noise, D, KT = release.noise, release.sensitivities.sensitivity, release.folds
        if noise.gaussian_sigma() is not None:
            if grid is not None:
                raise ValueError(f"claim 'pld-kfold' of Gaussian noise takes no grid; got grid={dict(grid)!r}")
            r = mul_sqrt_up(D, KT)
            enc = noise.profile_enclosure(release.epsilon, r)
            return Evidence(enc.lower, enc.upper, "arb", True,
                            f"the {KT}-fold profile at the box corner d = (Delta, ..., Delta) of Gaussian noise: the 1-D "
                            f"profile at sqrt({KT}) Delta = {r!r} (rounded up), ball arithmetic (python-flint arb) at the "
                            f"exact binary parameters, {enc.method}")
        step = _grid_step(grid)
        up = kfold_delta_upper(noise, release.epsilon, KT, D, 1, step=step)
        return Evidence(0.0, up, "pld", False,
                        f"the {KT}-fold profile at the box corner d = (Delta, ..., Delta) (symmetric log-concave noise: "
                        f"the worst vector of the box): privacy-loss-distribution upper bound on the lattice "
                        f"{step!r} * Z, in floating point", {"step": step})

    def covers(self, release: Release) -> str:
        s = release.sensitivities
        return (f"every d with ||d||_inf <= {s.sensitivity!r} in each of {release.compositions} release(s) of {s.dim} "
                f"coordinate(s) (the box contains the stated set)")


KFOLD = _KFoldCorner()

#: every claim a certificate can make
CLAIMS: Dict[str, Claim] = {**ONE_RELEASE, KFOLD.name: KFOLD}


def claim_named(name: object) -> Claim:
    """The claim of the table called ``name`` (``ValueError`` naming the known ones otherwise)."""
    if not isinstance(name, str) or name not in CLAIMS:
        raise ValueError(f"certificate field 'claim' must be one of {sorted(CLAIMS)}; got {name!r}")
    return CLAIMS[name]
