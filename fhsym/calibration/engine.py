"""The one certification policy: move to the safe side until the claim is certified.

Every calibration in fhsym ends here.  A search proposes the noise; this module turns a proposal
into a :class:`~fhsym.Calibration` only if the claim's proven upper bound of delta(epsilon)
(:data:`fhsym.accounting.claims.CLAIMS`: ball arithmetic, exact rationals, or an exact-arithmetic
privacy-loss distribution), computed at the exact floats that will be returned, is <= the target:

1. evaluate the claim's evidence for ``family(scale)`` (:meth:`~fhsym.privacy.claims.Claim.certify_evidence`);
2. if it exceeds the target, multiply the scale by ``1 + r`` with r = ``first_step`` (2^-50, about
   9e-16, by default) doubling at every step -- more noise, geometrically larger steps -- and go to 1;
3. after :data:`MAX_STEPS` steps, or when r would exceed 1/4, raise
   :class:`~fhsym.CalibrationError`: the bound and the search disagree by more than any rounding can
   explain.

A scale is the parameter that makes a noise family noisier (sigma, beta, gamma at a fixed shape,
...).  Nothing else in fhsym decides that a calibration is private.  The certificate is built here
from the same evidence and the same statement :func:`fhsym.verify_certificate` rebuilds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Dict, Optional, Tuple, TypeVar

from .._core import limits
from .._core.search import CalibrationError
from .._core.sensitivities import SensitivitySet
from ..privacy.certificate import Certificate
from ..privacy.claims import Claim, Evidence, Release, statement
from .result import Calibration

__all__ = ["MAX_STEPS", "Request", "certify", "representable_variance", "result"]

MAX_STEPS = 48
_FIRST_STEP = 2.0**-50

N = TypeVar("N")


@dataclass(frozen=True)
class Request:
    """What a calibration is asked for: the guarantee, the sensitivity set it must cover, the releases."""

    epsilon: float
    delta: float
    sensitivities: SensitivitySet
    compositions: int = 1

    @property
    def dim(self) -> int:
        return self.sensitivities.dim

    @property
    def folds(self) -> int:
        """dim * compositions: the number of 1-D mechanisms composed."""
        return self.sensitivities.dim * self.compositions

    def release(self, noise: Any) -> Release:
        return Release(noise, self.epsilon, self.sensitivities, self.compositions)

    def describe(self) -> str:
        s = self.sensitivities
        sens = (f"sensitivity={s.sensitivity!r}" if s.dim == 1 else
                f"the sensitivity set (sensitivity={s.sensitivity!r}, l2_sensitivity={s.l2_sensitivity!r}, "
                f"l1_sensitivity={s.l1_sensitivity!r})")
        return f"{sens} with epsilon={self.epsilon!r}"


def certify(family: Callable[[float], N], scale: float, claim: Claim, request: Request, *, what: str,
            first_step: float = _FIRST_STEP, max_steps: int = MAX_STEPS) -> Tuple[N, Evidence, int]:
    """The noise ``family(s)`` for the least s >= ``scale`` tried whose claim is certified within the target.

    Returns ``(noise, evidence, steps)``; ``steps`` counts the upward moves (0 when the search's
    proposal was certified as it was).  ``what`` names the scale in error messages;
    ``first_step`` is the first relative step (the search's own resolution: an ulp-exact search
    starts at 2^-50, a PLD search accurate to 1e-6 at 1e-6); ``max_steps`` the most upward moves (0: the proposal
    as it is, or :class:`~fhsym.CalibrationError`).
    """
    if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 0:
        raise ValueError(f"max_steps must be an integer >= 0; got {max_steps!r}")
    if not (0.0 < first_step <= 0.25):
        raise ValueError(f"first_step must be in (0, 0.25]; got {first_step!r}")
    s = float(scale)
    if not (s > 0 and math.isfinite(s)):
        raise CalibrationError(f"cannot calibrate: the search returned {what} = {s!r}")
    r = first_step
    target = request.delta
    tried, steps = s, 0  # the last scale evaluated and the upward moves made to it (the error message's figures)
    for steps in range(max_steps + 1):
        noise = family(s)
        release = request.release(noise)
        if steps == 0:
            claim.check(release)
            representable_variance(noise, request)
        ev = claim.certify_evidence(release, target)
        if ev.upper <= target:
            return noise, ev, steps
        tried = s
        s = s * (1.0 + r)
        r *= 2.0
        if not math.isfinite(s) or r > 0.25:
            break
    raise CalibrationError(
        f"cannot certify the calibration: the proven delta at {what} = {tried!r} still exceeds {target!r} "
        f"after {steps} upward steps")


def representable_variance(noise: Any, request: Request) -> float:
    """``noise.var()``, or a ``ValueError`` naming the request's sensitivity set and epsilon when the variance of the
    calibrated noise is outside the float range [2.2e-308, 1.8e308] (checked before certifying, and in :func:`result`)."""
    try:
        return float(noise.var())
    except ValueError:
        raise ValueError(
            f"{request.describe()}: the calibrated noise {noise!r} has a variance outside the float range "
            f"[2.2e-308, 1.8e308]; rescale the query (express it in other units)") from None


def result(noise: Any, evidence: Evidence, steps: int, request: Request, claim: Claim, method: str,
           extra: Optional[Dict[str, Any]] = None) -> Calibration:
    """The :class:`~fhsym.Calibration` of certified noise, with its :class:`~fhsym.Certificate`."""
    from .._core.version import __version__

    if evidence.upper > request.delta:  # pragma: no cover - certify() never hands this over
        raise CalibrationError("internal error: an uncertified result reached the result builder")
    var = representable_variance(noise, request)
    release = request.release(noise)
    s = request.sensitivities
    cost = claim.cost(release, evidence.grid)
    if not cost.within(limits.VERIFY_BUDGET):  # never issue a certificate that fhsym.verify_certificate would refuse
        raise CalibrationError(
            f"{request.describe()}: the certificate of {noise!r} would take {cost.work} to re-check, estimated "
            f"{cost.seconds:.3g} s and {cost.bytes / 2**20:.0f} MB, over the verification budget of "
            f"{limits.VERIFY_BUDGET.seconds:g} s and {limits.VERIFY_BUDGET.bytes / 2**20:.0f} MB (docs/certificates.md); no "
            f"certificate is issued that fhsym.verify_certificate would refuse")
    cert = Certificate(
        mechanism=noise.name, parameters=dict(noise.parameters), epsilon=request.epsilon,
        target_delta=request.delta, sensitivity=s.sensitivity, l2_sensitivity=s.l2_sensitivity,
        l1_sensitivity=s.l1_sensitivity, dim=s.dim, compositions=request.compositions,
        lower=evidence.lower, upper=evidence.upper, method=evidence.method, rigorous=evidence.rigorous,
        claim=claim.name, grid=evidence.grid, text=statement(release, claim, evidence, request.delta),
        version=__version__, upward_steps=steps)
    return Calibration(
        mechanism=noise, epsilon=request.epsilon, target_delta=request.delta, achieved_delta=evidence.upper,
        sensitivity=s.sensitivity, l2_sensitivity=s.l2_sensitivity, l1_sensitivity=s.l1_sensitivity, dim=s.dim,
        variance=var, method=method, certificate=cert, compositions=request.compositions, extra=dict(extra or {}))
