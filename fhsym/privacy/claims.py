"""The claims a certificate can make about one release, each with the one function that bounds it.

A *release* is noise (a noise law with exact float parameters) added to a query of ``dim``
coordinates with sensitivity set {d : ||d||_inf <= Delta, ||d||_2 <= Delta_2, ||d||_1 <= Delta_1},
``compositions`` = T times.  A *claim* says how delta(epsilon) of that release is bounded; its
:meth:`Claim.evidence` turns the release's inputs into a proven enclosure :class:`Evidence`.
:func:`fhsym.calibrate` certifies through it and :func:`fhsym.verify_certificate` re-checks through
the same function with the inputs recorded in the certificate: one bound, two callers.

=======================  ====================================================================
claim                    bound
=======================  ====================================================================
``"profile-1d"``         dim = T = 1: the exact 1-D profile, sup over the shifts 0 < d <= Delta
                         (:meth:`fhsym.NoiseDistribution.worst_profile_enclosure`): at Delta for
                         symmetric log-concave noise, in ball arithmetic at the exact parameters; the
                         piecewise-uniform noise: every lattice node, exact rationals
``"profile-1d-l2"``      Gaussian noise (also FH at alpha = 0, OSGT at vartheta = 0): its K-fold,
                         T-fold profile depends on ||d||_2 only (Balle & Wang 2018), so it is the
                         1-D profile at sqrt(T) Delta_2 (rounded up), in ball arithmetic
``"pure"``               pure DP: T times the noise law's exact worst-case loss over the set
                         (:meth:`~fhsym.NoiseDistribution.pure_loss`: Laplace Delta_1/beta; the
                         staircase dim eps0 when Delta <= Delta0) is <= epsilon, in exact rationals;
                         then delta = 0
``"profile-lattice"``    the discrete flipped Huber on step*Z, dim = T = 1, Delta a whole number of
                         steps: its exact lattice profile in ball arithmetic
``"pld-kfold"``          (:mod:`fhsym.accounting.claims`) symmetric log-concave noise, K T > 1: the
                         K T-fold profile at the box corner (Delta, ..., Delta)
=======================  ====================================================================
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Dict, Mapping, Optional

from .._core.limits import Cost, base_cost
from .._core.sensitivities import SensitivitySet, mul_sqrt_up
from ..noise.contract import NoiseLaw, continuous, on_lattice

__all__ = ["Claim", "Cost", "Evidence", "Release", "PROFILE_1D", "PROFILE_1D_L2", "PURE", "PROFILE_LATTICE", "ONE_RELEASE",
           "statement"]


@dataclass(frozen=True)
class Release:
    """What a claim is about: ``noise`` on ``sensitivities.dim`` coordinates, ``compositions`` releases; the claims
    read the noise law through its contract (:class:`fhsym.noise.contract.NoiseLaw`)."""

    noise: NoiseLaw
    epsilon: float
    sensitivities: SensitivitySet
    compositions: int = 1

    @property
    def folds(self) -> int:
        """dim * compositions: the number of 1-D mechanisms composed."""
        return self.sensitivities.dim * self.compositions


@dataclass(frozen=True)
class Evidence:
    """A proven enclosure ``lower <= delta(epsilon) <= upper`` and how it was obtained.

    ``method`` names the computation, ``rigorous`` says whether ``upper`` is proven, ``grid`` holds
    the computation's own inputs (a PLD's lattice) so that a re-check repeats it exactly, and
    ``detail`` says what was computed (the certificate's text is built from it).
    """

    lower: float
    upper: float
    method: str
    rigorous: bool
    detail: str = ""
    grid: Optional[Dict[str, Any]] = None


class Claim:
    """One kind of privacy claim: :meth:`check` says whether it applies to a release, :meth:`evidence` bounds it."""

    name: str = ""

    def check(self, release: Release) -> None:
        """``ValueError`` naming the field when the claim does not apply to ``release``."""
        raise NotImplementedError  # pragma: no cover

    def cost(self, release: Release, grid: Optional[Mapping[str, Any]] = None) -> Cost:
        """What :meth:`evidence` at these inputs will cost, stated before any of it is computed
        (:func:`fhsym.verify_certificate` refuses a certificate whose cost exceeds its budget).  The
        default: one enclosure whose work does not grow with the inputs; a claim whose work does
        overrides it (the recorded grid of a PLD, the lattice of the piecewise-uniform noise).

        >>> import fhsym
        >>> release = Release(fhsym.Laplace(1.0), 1.0, SensitivitySet(1, 1.0, 1.0, 1.0))
        >>> PURE.cost(release).work
        'one ball-arithmetic or exact-rational enclosure'
        """
        return base_cost("parameters")

    def evidence(self, release: Release, grid: Optional[Mapping[str, Any]] = None) -> Evidence:
        """The proven enclosure of delta(epsilon) of ``release`` (``grid``: a recorded computation's inputs)."""
        raise NotImplementedError  # pragma: no cover

    def certify_evidence(self, release: Release, target: float) -> Evidence:
        """The evidence :func:`fhsym.calibrate` records for a new certificate aiming at ``target``: the claim's
        bound with the computation's inputs (its ``grid``) chosen for that target."""
        return self.evidence(release)

    def covers(self, release: Release) -> str:
        """Which difference vectors the claim covers, in words."""
        s = release.sensitivities
        return (f"every d with ||d||_inf <= {s.sensitivity!r}, ||d||_2 <= {s.l2_sensitivity!r}, "
                f"||d||_1 <= {s.l1_sensitivity!r} in each of {release.compositions} release(s) of {s.dim} coordinate(s)")

    def __repr__(self) -> str:
        return f"<claim {self.name!r}>"


def _no_grid(claim: Claim, grid: Optional[Mapping[str, Any]]) -> None:
    if grid is not None:
        raise ValueError(f"claim {claim.name!r} takes no grid (certificate field 'grid' must be null)")


def _enclosure_evidence(enc: Any, what: str) -> Evidence:
    if enc.prec > 0:
        return Evidence(enc.lower, enc.upper, "arb", True,
                        f"{what}: ball arithmetic (python-flint arb) at the exact binary parameters, {enc.method}")
    return Evidence(enc.lower, enc.upper, "exact-rational", True, f"{what}: {enc.method}")


def _one_coordinate(claim: Claim, release: Release) -> None:
    """A one-dimensional claim refuses a release of several coordinates or compositions."""
    if release.sensitivities.dim != 1 or release.compositions != 1:
        raise ValueError(f"claim {claim.name!r} is for one release of one coordinate; got dim = "
                         f"{release.sensitivities.dim}, compositions = {release.compositions}")


class _Profile1D(Claim):
    name = "profile-1d"

    def check(self, release: Release) -> None:
        _one_coordinate(self, release)
        continuous(release.noise, "claim 'profile-1d'")

    def cost(self, release: Release, grid: Optional[Mapping[str, Any]] = None) -> Cost:
        noise = continuous(release.noise, "claim 'profile-1d'")
        return noise.profile_cost(release.epsilon, release.sensitivities.sensitivity)

    def evidence(self, release: Release, grid: Optional[Mapping[str, Any]] = None) -> Evidence:
        _no_grid(self, grid)
        noise, s = continuous(release.noise, "claim 'profile-1d'"), release.sensitivities.sensitivity
        enc = noise.worst_profile_enclosure(release.epsilon, s)
        what = (f"the exact 1-D profile at Delta = {s!r} (symmetric log-concave noise: the profile increases with "
                f"the shift)" if noise.log_concave else f"the exact 1-D profile, sup over 0 < d <= Delta = {s!r}")
        return _enclosure_evidence(enc, what)


class _ProfileL2(Claim):
    name = "profile-1d-l2"

    def check(self, release: Release) -> None:
        if release.noise.gaussian_sigma() is None:
            raise ValueError(f"claim 'profile-1d-l2' is for Gaussian noise (its profile depends on ||d||_2 only); got "
                             f"{release.noise!r}")

    def radius(self, release: Release) -> float:
        """sqrt(T) Delta_2, rounded up: the l2 radius of the concatenated difference of T releases."""
        return mul_sqrt_up(release.sensitivities.l2_sensitivity, release.compositions)

    def evidence(self, release: Release, grid: Optional[Mapping[str, Any]] = None) -> Evidence:
        _no_grid(self, grid)
        r = self.radius(release)
        noise = continuous(release.noise, "claim 'profile-1d-l2'")
        return _enclosure_evidence(noise.profile_enclosure(release.epsilon, r),
                                   f"Gaussian noise: the profile of the {release.folds}-fold release depends on ||d||_2 "
                                   f"only; the 1-D profile at sqrt(T) Delta_2 = {r!r} (rounded up)")

    def covers(self, release: Release) -> str:
        s = release.sensitivities
        return (f"every d with ||d||_2 <= {s.l2_sensitivity!r} in each of {release.compositions} release(s) of "
                f"{s.dim} coordinate(s), a superset of the stated set ||d||_inf <= {s.sensitivity!r}, "
                f"||d||_2 <= {s.l2_sensitivity!r}, ||d||_1 <= {s.l1_sensitivity!r}")


class _Pure(Claim):
    name = "pure"

    def loss(self, release: Release) -> Fraction:
        s = release.sensitivities
        loss: Optional[Fraction] = release.noise.pure_loss(s.dim, s.sensitivity, s.l2_sensitivity, s.l1_sensitivity)
        if loss is None:
            raise ValueError(f"claim 'pure' needs noise whose privacy loss is bounded over the set; {release.noise!r} "
                             f"has no bounded loss for sensitivity {s.sensitivity!r}")
        return loss

    def check(self, release: Release) -> None:
        self.loss(release)

    def evidence(self, release: Release, grid: Optional[Mapping[str, Any]] = None) -> Evidence:
        _no_grid(self, grid)
        total = release.compositions * self.loss(release)
        holds = total <= Fraction(release.epsilon)
        rel = "<=" if holds else ">"
        detail = (f"pure DP in exact rational arithmetic: {release.compositions} release(s) x worst-case loss "
                  f"{float(total / release.compositions)!r} over the set = {float(total)!r} {rel} epsilon; pure DP "
                  f"composes additively")
        return Evidence(0.0, 0.0 if holds else 1.0, "exact-rational", True, detail)


class _Lattice(Claim):
    name = "profile-lattice"

    def check(self, release: Release) -> None:
        _one_coordinate(self, release)
        on_lattice(release.noise, "claim 'profile-lattice'")

    def evidence(self, release: Release, grid: Optional[Mapping[str, Any]] = None) -> Evidence:
        _no_grid(self, grid)
        noise, s = on_lattice(release.noise, "claim 'profile-lattice'"), release.sensitivities.sensitivity
        lo, hi, steps = noise.lattice_profile_enclosure(release.epsilon, s)
        return Evidence(lo, hi, "arb-lattice", True,
                        f"the exact lattice profile on {noise.step!r}*Z at a sensitivity of {steps} steps: the lattice "
                        f"sum in ball arithmetic (python-flint arb) at the exact binary parameters")


PROFILE_1D = _Profile1D()
PROFILE_1D_L2 = _ProfileL2()
PURE = _Pure()
PROFILE_LATTICE = _Lattice()

#: the claims about one release that need nothing beyond this layer (the K-fold one is in fhsym.accounting)
ONE_RELEASE = {c.name: c for c in (PROFILE_1D, PROFILE_1D_L2, PURE, PROFILE_LATTICE)}


def statement(release: Release, claim: Claim, ev: Evidence, target: float) -> str:
    """A certificate's text: the claim in words, built from its fields (so a re-check rebuilds it exactly)."""
    rel = "<=" if ev.upper <= target else ">"
    return (f"{release.noise!r} is ({release.epsilon!r}, {target!r})-DP for {claim.covers(release)}: claim "
            f"{claim.name!r}, {ev.detail}; delta({release.epsilon!r}) <= {ev.upper!r} {rel} {target!r} "
            f"({'proven' if ev.rigorous else 'not proven'}, method {ev.method!r})")
