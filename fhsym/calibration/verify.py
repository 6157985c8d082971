"""Re-check a certificate from its recorded inputs alone.

:func:`verify_certificate` reads the claim (mechanism, exact parameters, epsilon, sensitivity
set, target) and re-derives an enclosure of delta(epsilon) without fhsym's float kernels:

* ``"profile-1d"`` / ``"profile-1d-l2"``: ball arithmetic (python-flint ``arb``, proven error
  bounds) on the exact profile of the mechanism at the exact binary parameters
  (:func:`fhsym.privacy.enclosures.enclose_profile`), at ``sensitivity`` or, for the Gaussian
  mechanism in ``dim`` coordinates, at ``l2_sensitivity``;
* ``"pure-l1"``: exact rational arithmetic, epsilon * beta >= l1_sensitivity (Laplace noise);
* ``"pure-composition"``: exact rational arithmetic, dim * eps0 <= epsilon and the sensitivity
  within the staircase's design sensitivity;
* ``"pld-kfold"`` / ``"pld-kfold-noise"``: the proven upper bound of the (dim x compositions)-fold
  privacy-loss distribution (:mod:`fhsym.accounting.pld_exact`: ball-arithmetic profile nodes, exact
  integer composition, no float kernel) recomputed on the grid the certificate records
  (``extra["pld_grid"]``; bit for bit the recorded bound).  Any grid gives a valid proof, so an edited
  grid is still checked correctly (a grid too large to compute is refused with ``ValueError``); a
  certificate without a grid is checked on the grid :func:`fhsym.accounting.mechanism_pld.exact_grid`
  chooses.  Flipped Huber at alpha = 0 is the Gaussian profile at sqrt(dim compositions) Delta in ball
  arithmetic.

The check passes only when the re-derived upper end is <= the target and the re-derived
enclosure meets the recorded one (they overlap): a certificate whose parameters or epsilon
were edited fails.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Mapping, Union

from .._core.sensitivities import mul_sqrt_up
from ..privacy.certificate import Certificate

__all__ = ["Verification", "verify_certificate", "check_certificate"]

CertificateLike = Union[Certificate, str, bytes, Mapping[str, Any]]


@dataclass(frozen=True)
class Verification:
    """The outcome of a re-check: ``ok`` and why."""

    ok: bool
    lower: float
    upper: float
    rigorous: bool
    reason: str

    def __bool__(self) -> bool:
        return self.ok


def _load(cert: CertificateLike) -> Certificate:
    if isinstance(cert, Certificate):
        return cert
    if isinstance(cert, Mapping):
        return Certificate.from_dict(cert)
    if isinstance(cert, (str, bytes)):
        return Certificate.from_json(cert)
    raise ValueError(f"certificate must be a Certificate, its JSON text or dict; got {type(cert).__name__}")


def check_certificate(cert: CertificateLike) -> Verification:
    """Re-derive the enclosure of a certificate and compare (see the module docstring)."""
    c = _load(cert)
    c.check_finite()
    target = c.target_delta
    if c.claim in ("profile-1d", "profile-1d-l2"):
        from ..privacy.enclosures import enclose_profile

        if c.claim == "profile-1d-l2" and c.mechanism != "gaussian":
            raise ValueError(f"claim 'profile-1d-l2' is for the Gaussian mechanism; got {c.mechanism!r}")
        if c.claim == "profile-1d" and c.dim != 1:
            raise ValueError(f"claim 'profile-1d' is for dim = 1; got dim = {c.dim}")
        # T releases of the Gaussian: the 1-D profile at sqrt(T) Delta_2, the same float the calibration used
        sens = mul_sqrt_up(c.l2_sensitivity, c.compositions) if c.claim == "profile-1d-l2" else c.sensitivity
        enc = enclose_profile(c.mechanism, c.parameters, c.epsilon, sens)
        lo, hi = enc.lower, enc.upper
        rigorous, how = True, f"arb enclosure [{lo:.17g}, {hi:.17g}] at {enc.prec} bits"
    elif c.claim == "profile-lattice":
        from ..noise.discrete_profile_arb import profile_enclosure_steps
        from ..noise.discrete_flipped_huber import lattice_sensitivity

        if c.mechanism != "discrete_flipped_huber" or c.dim != 1:
            raise ValueError(f"claim 'profile-lattice' is for the discrete flipped Huber in one dimension; got {c.mechanism!r}")
        p = c.parameters
        s = lattice_sensitivity(c.sensitivity, p["step"])
        lo, hi = profile_enclosure_steps(c.epsilon, p["alpha"], p["gamma"], p["step"], s)
        rigorous, how = True, f"arb enclosure of the lattice sum [{lo:.17g}, {hi:.17g}], {s} steps"
    elif c.claim == "pure-l1":
        if c.mechanism != "laplace":
            raise ValueError(f"claim 'pure-l1' is for the Laplace mechanism; got {c.mechanism!r}")
        # T releases: eps-DP in total when eps beta >= T Delta_1 (pure DP composes additively)
        pure = Fraction(c.epsilon) * Fraction(c.parameters["beta"]) >= c.compositions * Fraction(c.l1_sensitivity)
        lo, hi = 0.0, (0.0 if pure else 1.0)
        rigorous, how = True, f"exact rationals: epsilon * beta {'>=' if pure else '<'} compositions * l1_sensitivity"
    elif c.claim == "pure-composition":
        if c.mechanism != "staircase":
            raise ValueError(f"claim 'pure-composition' is for the staircase mechanism; got {c.mechanism!r}")
        eps0, design = c.parameters["epsilon"], c.parameters["sensitivity"]
        pure = Fraction(c.dim * c.compositions) * Fraction(eps0) <= Fraction(c.epsilon) and c.sensitivity <= design
        lo, hi = 0.0, (0.0 if pure else 1.0)
        rigorous, how = (True, f"exact rationals: dim * compositions * eps0 {'<=' if pure else '>'} epsilon, "
                         f"sensitivity within design")
    elif c.claim in ("pld-kfold", "pld-kfold-noise"):
        from ..noise import NOISE_CLASSES

        if c.mechanism not in NOISE_CLASSES:
            raise ValueError(f"unknown mechanism {c.mechanism!r} in the certificate")
        noise = NOISE_CLASSES[c.mechanism].from_parameters(c.parameters)
        KT = c.dim * c.compositions
        if c.claim == "pld-kfold" and c.parameters["alpha"] == 0.0:
            # FH at alpha = 0 is the Gaussian with sigma = gamma: its K-fold profile at d = (Delta, ..., Delta) is
            # the 1-D profile at sqrt(K T) Delta (rounded up: the profile increases with it), enclosed in
            # ball arithmetic (the calibration certified it this way; the PLD bound is looser by ~1e-5 relative)
            from ..privacy.enclosures import enclose_profile

            l2 = mul_sqrt_up(c.sensitivity, KT)
            enc = enclose_profile("gaussian", {"sigma": c.parameters["gamma"]}, c.epsilon, l2)
            lo, hi = 0.0, enc.upper
            rigorous, how = True, (f"alpha = 0: the Gaussian profile at sqrt({KT}) Delta, arb upper bound {hi:.17g} "
                                   f"at {enc.prec} bits")
        else:
            if c.claim == "pld-kfold" and c.mechanism != "flipped_huber":
                raise ValueError(f"claim 'pld-kfold' is for the flipped Huber mechanism; got {c.mechanism!r}")
            b = _proven_kfold(c, noise, KT)
            lo, hi = 0.0, b.upper
            same = "bit for bit the recorded upper bound" if hi == c.upper else f"the recorded upper bound is {c.upper!r}"
            rigorous, how = True, (f"proven {KT}-fold PLD upper bound {hi:.17g} (ball-arithmetic nodes, exact integer "
                                   f"composition; step {float(b.grid.step):.6g}, {b.grid.nodes} nodes, 2^-{b.grid.bits} "
                                   f"units); {same}")
    else:
        raise ValueError(f"certificate claim {c.claim!r} cannot be re-checked (theorem8 is not a certificate)")
    if hi > target:
        return Verification(False, lo, hi, rigorous, f"re-derived upper bound {hi:.17g} exceeds the target {target:.17g} ({how})")
    if lo > c.upper or c.lower > hi:
        return Verification(False, lo, hi, rigorous,
                            f"re-derived enclosure [{lo:.17g}, {hi:.17g}] does not meet the recorded [{c.lower:.17g}, {c.upper:.17g}]")
    return Verification(True, lo, hi, rigorous, f"re-derived upper bound {hi:.17g} <= target {target:.17g} ({how})")


def _proven_kfold(c: Certificate, noise: Any, KT: int) -> Any:
    """The proven K-fold bound on the recorded grid (or on the default one when none is recorded)."""
    from ..accounting.mechanism_pld import kfold_delta_proven
    from ..accounting.pld_exact import ExactGrid

    rec = c.extra.get("pld_grid")
    if rec is None:  # a certificate written before grids were recorded: the calibrations' lattice, refined once
        step = None
        if c.mechanism == "flipped_huber":
            from ..accounting.kdim import aligned_step, default_step

            a, g = c.parameters["alpha"], c.parameters["gamma"]
            step = aligned_step(default_step(a, g, KT, c.sensitivity), a, g, c.sensitivity)
        return kfold_delta_proven(noise, c.epsilon, c.dim, c.sensitivity, c.compositions, delta=c.target_delta,
                                  step=step, refine=1)
    grid = ExactGrid.from_dict(rec)
    folds = rec.get("folds") if hasattr(rec, "get") else None
    if folds != KT:
        raise ValueError(f"certificate field 'extra.pld_grid.folds' must be dim * compositions = {KT}; got {folds!r}")
    return kfold_delta_proven(noise, c.epsilon, c.dim, c.sensitivity, c.compositions, grid=grid)


def verify_certificate(cert: Union[CertificateLike, Path]) -> bool:
    """True only when the certificate's claim is re-derived from its recorded inputs alone.

    ``cert``: a :class:`~fhsym.Certificate`, its JSON text, its dict, or a path to a JSON file.
    Malformed input raises ``ValueError``.  See :func:`check_certificate` for the reason.

    >>> import fhsym
    >>> cal = fhsym.calibrate(1.0, 1e-6, mechanism="laplace", method="pure")
    >>> fhsym.verify_certificate(cal.certificate.to_json())
    True
    """
    if isinstance(cert, Path):
        try:
            cert = cert.read_text()
        except OSError as exc:
            raise ValueError(f"cannot read certificate file {str(cert)!r}: {exc.strerror}") from None
    return check_certificate(cert).ok
