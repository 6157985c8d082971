"""The one certification policy: move to the safe side until the claim is certified.

Every calibration in fhsym ends here.  The search (per mechanism, in the sibling modules, with
the helpers of :mod:`fhsym._core.search`) proposes the noise; this module turns a proposal
into a :class:`~fhsym.Calibration` only if a certified upper bound of delta(epsilon),
computed at the exact floats that will be returned, is <= the target:

1. evaluate the bound at ``family(scale)`` (the bound function is the evidence: an arb
   enclosure in one dimension, the proven PLD upper bound in K dimensions
   (:mod:`fhsym.accounting.pld_exact`, whose grid the certificate records), an exact
   rational check for pure DP);
2. if it exceeds the target, multiply the scale by ``1 + r`` with r = 2^-50 (about 9e-16)
   doubling at every step -- more noise, geometrically larger steps -- and go to 1;
3. after :data:`MAX_STEPS` steps (r would exceed 2^-50 * 2^48 = 1/4), raise
   :class:`~fhsym.CalibrationError`: the bound and the search disagree by more than any
   rounding can explain.

A scale is the parameter that makes a noise family noisier (sigma, beta, gamma at a fixed
shape alpha/gamma, ...).  Nothing else in fhsym decides that a calibration is private.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Tuple, TypeVar

from .._core.search import CalibrationError
from ..privacy.bounds import Bound
from ..privacy.certificate import Certificate
from .result import Calibration

__all__ = ["Bound", "MAX_STEPS", "Request", "certify", "representable_variance", "result"]

MAX_STEPS = 48
_FIRST_STEP = 2.0**-50

N = TypeVar("N")


def certify(family: Callable[[float], N], scale: float, bound: Callable[[N], Bound], target: float, *,
            what: str, first_step: float = _FIRST_STEP) -> Tuple[N, Bound, int]:
    """The noise ``family(s)`` for the least s >= ``scale`` tried whose bound is <= ``target``.

    Returns ``(noise, bound, steps)``; ``steps`` counts the upward moves (0 when the search's
    proposal was certified as it was).  ``what`` names the scale in error messages;
    ``first_step`` is the first relative step (the search's own resolution: an ulp-exact
    search starts at 2^-50, a PLD search accurate to 1e-9 at 1e-9).
    """
    s = float(scale)
    if not (s > 0 and math.isfinite(s)):
        raise CalibrationError(f"cannot calibrate: the search returned {what} = {s!r}")
    r = first_step
    for steps in range(MAX_STEPS + 1):
        noise = family(s)
        b = bound(noise)
        if b.upper <= target:
            return noise, b, steps
        s = s * (1.0 + r)
        r *= 2.0
        if not math.isfinite(s) or r > 0.25:
            break
    raise CalibrationError(
        f"cannot certify the calibration: the certified delta at {what} = {s!r} still exceeds {target!r} "
        f"after {MAX_STEPS} upward steps")


@dataclass(frozen=True)
class Request:
    """What a calibration is asked for: the guarantee and the sensitivity set it must cover."""

    epsilon: float
    delta: float
    sensitivity: float
    l2_sensitivity: float
    l1_sensitivity: float
    dim: int = 1
    compositions: int = 1


def representable_variance(noise, request: Request) -> float:
    """``noise.var()``, or a ``ValueError`` naming the request's sensitivity set and epsilon when the variance of the
    calibrated noise is outside the float range [2.2e-308, 1.8e308] (checked before certifying, and in :func:`result`)."""
    try:
        return noise.var()
    except ValueError:
        sens = (f"sensitivity={request.sensitivity!r}" if request.dim == 1 else
                f"the sensitivity set (sensitivity={request.sensitivity!r}, l2_sensitivity={request.l2_sensitivity!r}, "
                f"l1_sensitivity={request.l1_sensitivity!r})")
        raise ValueError(
            f"{sens} with epsilon={request.epsilon!r}: the calibrated noise {noise!r} has a variance outside the float "
            f"range [2.2e-308, 1.8e308]; rescale the query (express it in other units)") from None


def result(noise, bound: Bound, steps: int, request: Request, method: str, variance: float = None,
           covers: str = "", claim: str = "profile-1d") -> Calibration:
    """The :class:`~fhsym.Calibration` of certified noise, with its :class:`~fhsym.Certificate`."""
    from .._core.version import __version__

    if bound.upper > request.delta:  # pragma: no cover - certify() never hands this over
        raise CalibrationError("internal error: an uncertified result reached the result builder")
    var = representable_variance(noise, request) if variance is None else variance
    text = (f"{bound.detail}: delta({request.epsilon:g}) <= {bound.upper:.12e} <= {request.delta:g} at the exact "
            f"returned parameters ({bound.method}{', rigorous' if bound.rigorous else ''}); "
            f"{steps} upward rounding step(s)")
    if covers:
        text += f"; {covers}"
    cert = Certificate(
        mechanism=noise.name, parameters=dict(noise.parameters), epsilon=request.epsilon,
        target_delta=request.delta, sensitivity=request.sensitivity, l2_sensitivity=request.l2_sensitivity,
        l1_sensitivity=request.l1_sensitivity, dim=request.dim, compositions=request.compositions,
        lower=bound.lower, upper=bound.upper, method=bound.method, rigorous=bound.rigorous, text=text,
        version=__version__, claim=claim, extra={"upward_steps": steps, "detail": bound.detail,
                                                 **({"pld_grid": dict(bound.evidence)} if bound.evidence else {})})
    return Calibration(
        mechanism=noise, epsilon=request.epsilon, target_delta=request.delta, achieved_delta=bound.upper,
        sensitivity=request.sensitivity, l2_sensitivity=request.l2_sensitivity,
        l1_sensitivity=request.l1_sensitivity, dim=request.dim, variance=var, method=method,
        certificate=cert, compositions=request.compositions)
