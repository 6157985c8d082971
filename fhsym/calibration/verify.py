"""Re-check a certificate from its recorded inputs alone, through the claim table.

:func:`check_certificate` parses the certificate strictly (:meth:`fhsym.Certificate.from_dict`),
rebuilds the release it is about -- the noise law from its exact parameters (the constructor checks
every domain), the sensitivity set (which must be in the resolved form
:func:`fhsym._core.sensitivities.resolve_sensitivities` writes), dim and compositions -- checks that
the recorded claim applies to it, and re-derives the evidence with the claim's one bound
(:data:`fhsym.accounting.claims.CLAIMS`, the very function :func:`fhsym.calibrate` certified with),
from the recorded grid.  The claim holds only when

* the re-derived upper bound is <= target_delta;
* the recorded enclosure is the re-derived one, exactly (every bound is a deterministic computation
  from the inputs: ball arithmetic at a fixed precision policy, exact rationals, or a PLD recomputed
  from its recorded grid), and ``method``, ``rigorous``, ``grid`` and ``text`` equal what the claim
  produces.

Before re-deriving anything, the claim states what its recorded inputs will cost (:meth:`Claim.cost
<fhsym.privacy.claims.Claim.cost>`: profile nodes x bits x products of a PLD grid, lattice terms of the
piecewise-uniform sup); a certificate whose cost exceeds the budget (:data:`fhsym._core.limits.VERIFY_BUDGET`:
10 s and 512 MB on the reference machine) is refused with a ``ValueError`` naming the field that drives it.

Three verdicts (:mod:`fhsym.privacy.verdict`): ``PROVEN``, ``UNPROVEN`` (a float estimate) and ``FALSE``.  A
malformed certificate (missing, unknown, duplicated or mistyped field, out-of-domain value, a claim that
does not apply, a ``decimal`` copy that differs, a cost over the budget) raises ``ValueError`` naming the
field.  The CLI maps them to exit statuses 0, 3, 1 and 2 (``fhsym check-certificate``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Tuple, Union

from .._core.limits import VERIFY_BUDGET, Budget, OverBudget
from .._core.sensitivities import SensitivitySet, resolve_sensitivities
from ..accounting.claims import claim_named
from ..noise import noise_class
from ..privacy.certificate import Certificate
from ..privacy.claims import Claim, Release, statement
from ..privacy.verdict import Verdict, Verification

__all__ = ["Verdict", "Verification", "verify_certificate", "check_certificate", "release_of"]

CertificateLike = Union[Certificate, str, bytes, Mapping[str, Any]]


def _load(cert: CertificateLike) -> Certificate:
    if isinstance(cert, Certificate):
        cert.check_domains()
        return cert
    if isinstance(cert, Mapping):
        return Certificate.from_dict(cert)
    if isinstance(cert, (str, bytes)):
        return Certificate.from_json(cert)
    raise ValueError(f"certificate must be a Certificate, its JSON text or dict; got {type(cert).__name__}")


def release_of(c: Certificate) -> Tuple[Release, Claim]:
    """The release a certificate is about and its claim; ``ValueError`` naming the field if they do not fit."""
    cls = noise_class(c.mechanism)
    try:
        noise = cls.from_parameters(c.parameters)
    except ValueError as exc:
        raise ValueError(f"certificate field 'parameters': {exc}") from None
    if noise.parameter_shape != ():
        raise ValueError(f"certificate field 'parameters' must hold one noise law (scalar parameters); got arrays of "
                         f"shape {noise.parameter_shape}")
    s = SensitivitySet(c.dim, c.sensitivity, c.l2_sensitivity, c.l1_sensitivity)
    resolved = resolve_sensitivities(c.dim, c.sensitivity, c.l2_sensitivity, c.l1_sensitivity)
    if resolved != s:
        field = next(k for k, a, b in zip(s._fields, s, resolved) if a != b)
        raise ValueError(f"certificate field {field!r} = {getattr(s, field)!r} is not the resolved sensitivity set "
                         f"{tuple(resolved)} of dim = {c.dim} (its radii must be the tightest the set implies)")
    release = Release(noise, c.epsilon, s, c.compositions)
    claim = claim_named(c.claim)
    claim.check(release)
    return release, claim


def check_certificate(cert: CertificateLike, budget: Budget = VERIFY_BUDGET) -> Verification:
    """Re-derive the evidence of a certificate through its claim and compare (see the module docstring).

    ``budget``: the most the re-check may cost (:class:`fhsym._core.limits.Budget`); more: ``ValueError``.

    >>> import fhsym
    >>> v = check_certificate(fhsym.calibrate(1.0, 1e-6).certificate)
    >>> v.verdict, v.ok, v.rigorous
    (<Verdict.PROVEN: 'proven'>, True, True)
    """
    if not isinstance(budget, Budget):
        raise ValueError(f"budget must be a fhsym._core.limits.Budget; got {type(budget).__name__}")
    c = _load(cert)
    release, claim = release_of(c)
    cost = claim.cost(release, c.grid)
    if not cost.within(budget):
        raise OverBudget(f"certificate field {cost.field!r}: re-checking claim {claim.name!r} would take {cost.work}, "
                         f"estimated {cost.seconds:.3g} s and {cost.bytes / 2**20:.0f} MB, over the verification "
                         f"budget of {budget.seconds:g} s and {budget.bytes / 2**20:.0f} MB (docs/certificates.md); "
                         f"refused before any work")
    ev = claim.evidence(release, c.grid)
    problems = []
    if ev.upper > c.target_delta:
        problems.append(f"re-derived upper bound {ev.upper!r} exceeds target_delta {c.target_delta!r}")
    if c.upper > c.target_delta:
        problems.append(f"recorded upper {c.upper!r} exceeds target_delta {c.target_delta!r}")
    if (c.lower, c.upper) != (ev.lower, ev.upper):
        problems.append(f"recorded enclosure [{c.lower!r}, {c.upper!r}] is not the re-derived "
                        f"[{ev.lower!r}, {ev.upper!r}]")
    for field, want in (("method", ev.method), ("rigorous", ev.rigorous), ("grid", ev.grid)):
        if getattr(c, field) != want:
            problems.append(f"field {field!r} is {getattr(c, field)!r}, but claim {claim.name!r} gives {want!r}")
    if c.text != statement(release, claim, ev, c.target_delta):
        problems.append("field 'text' is not the statement of the recorded fields")
    if problems:
        return Verification(False, ev.lower, ev.upper, ev.rigorous, "; ".join(problems))
    return Verification(True, ev.lower, ev.upper, ev.rigorous,
                        f"re-derived upper bound {ev.upper!r} <= target {c.target_delta!r} (claim {claim.name!r}, "
                        f"{'proven' if ev.rigorous else 'not proven: a floating-point estimate'}, method {ev.method!r})")


def verify_certificate(cert: Union[CertificateLike, Path], budget: Budget = VERIFY_BUDGET) -> Verdict:
    """The verdict of re-deriving the certificate's claim from its recorded inputs alone.

    ``cert``: a :class:`~fhsym.Certificate`, its JSON text, its dict, or a path to a JSON file.
    Returns :attr:`Verdict.PROVEN` (the claim holds, proven), :attr:`Verdict.UNPROVEN` (it holds only
    as a floating-point estimate: ``rigorous`` false) or :attr:`Verdict.FALSE`; only ``PROVEN`` is true
    in a boolean context.  (Until 0.2 this returned a bool, True for an unproven claim too.)  Malformed
    input, or a re-check that would cost more than ``budget``, raises ``ValueError`` naming the field.
    See :func:`check_certificate` for the reason.

    >>> import fhsym
    >>> cal = fhsym.calibrate(1.0, 1e-6, mechanism="laplace", method="pure")
    >>> fhsym.verify_certificate(cal.certificate.to_json())
    <Verdict.PROVEN: 'proven'>
    >>> bool(fhsym.verify_certificate(cal.certificate))
    True
    """
    if isinstance(cert, Path):
        try:
            cert = cert.read_text()
        except OSError as exc:
            raise ValueError(f"cannot read certificate file {str(cert)!r}: {exc.strerror}") from None
    return check_certificate(cert, budget).verdict
