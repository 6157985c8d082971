"""One generic calibrator over (noise law, claim): every mechanism, one release or K-fold or composed.

A request (epsilon, delta, the sensitivity set of ``dim`` coordinates, ``compositions`` releases) and a noise
law select the *plans* (:data:`fhsym.calibration.plans.PLANS`: the strategies as data, each a claim with the
search that fits it) that the law declares and that apply to the request; :func:`calibrate_law` runs them and
returns the least variance.  The law's ``method=`` values are the keys of the plans it declares
(:func:`methods_of`); ``"auto"`` runs every plan keyed ``auto``, all of them proven claims, and keeps only
proven certificates.  No law is named here: a plan reads a law's hooks (:mod:`fhsym.noise.contract`).
"""

from __future__ import annotations

import functools
import inspect
from typing import Any, Hashable, List, Mapping, Optional, Tuple, cast

from .._core.search import CalibrationError
from ..noise.contract import LawClass
from ..noise.family import Family
from ..privacy.claims import PURE
from .engine import Request
from .plans import GAUSS_PREFERENCE, PLANS, SOLVER, Job, Plan
from .result import Calibration
from .search import fixed_shape

__all__ = ["calibrate_law", "check_options", "fixed_shape", "law_options", "methods_of", "plans_for",
           "GAUSS_PREFERENCE", "SOLVER"]


def methods_of(cls: LawClass) -> Tuple[str, ...]:
    """The ``method=`` values a law takes: "auto" and the keys of the plans it declares, in the plans' order.

    >>> import fhsym
    >>> methods_of(fhsym.Gaussian), methods_of(fhsym.Staircase)
    (('auto', 'exact', 'zcdp'), ('auto', 'pure', 'kfold-pld-sup'))
    """
    return _methods(cast(Hashable, cls))


@functools.lru_cache(maxsize=None)
def _methods(cls: Any) -> Tuple[str, ...]:  # cached per law class
    keys = [k for plan in PLANS if plan.declared(cls) for k in plan.keys]
    return tuple(dict.fromkeys(["auto"] + keys))


def plans_for(cls: LawClass, method: str) -> List[Plan]:
    """The plans ``method`` selects for the law ``cls`` (before the request is looked at)."""
    return [plan for plan in PLANS if method in plan.keys and plan.declared(cls)]


def law_options(cls: LawClass) -> Tuple[str, ...]:
    """The calibration options a law takes: the keyword parameters of its ``family``, ``pure_calibration`` and
    ``sup_calibration`` hooks (and of its solver)."""
    return _options(cast(Hashable, cls))


@functools.lru_cache(maxsize=None)
def _options(cls: Any) -> Tuple[str, ...]:  # cached per law class
    names = []
    hooks = [(cls.family, 0), (cls.pure_calibration, 6), (cls.sup_calibration, 4)]
    if cls.solver_calibrated:
        hooks.append((SOLVER, 3))
    for hook, skip in hooks:
        params = list(inspect.signature(hook).parameters.values())[skip:]
        names += [p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    return tuple(dict.fromkeys(names))


_SUBSAMPLING_OPTIONS = ("sampling_rate", "sampling_prob", "sampling_probability", "sample_rate")


def check_options(cls: LawClass, options: Mapping[str, Any]) -> None:
    """``ValueError`` naming an option the law does not take."""
    allowed = law_options(cls)
    for key in options:
        if key in _SUBSAMPLING_OPTIONS:
            raise ValueError(f"calibrate certifies one (or `compositions`) un-subsampled release and takes no {key}; "
                             "for Poisson-subsampled releases (DP-SGD) account them with "
                             "fhsym.integrations.dp_accounting.FlippedHuberRdpAccountant (exact subsampled RDP; "
                             "PoissonSampledDpEvent(q, FlippedHuberDpEvent(alpha, gamma, dim=..., l2_sensitivity=...))) "
                             f"or FlippedHuberPLDAccountant (scalar events); got {key}={options[key]!r}")
        if key not in allowed:
            takes = f"takes the options {list(allowed)}" if allowed else "takes no options"
            raise ValueError(f"mechanism {cls.name!r} {takes}; got {key}={options[key]!r}")


def calibrate_law(cls: LawClass, request: Request, method: str = "auto", options: Optional[Mapping[str, Any]] = None,
                  family: Optional[Family] = None) -> Calibration:
    """The least-variance certified calibration of noise law ``cls`` for ``request`` (module docstring).

    ``family``: the law's family to search instead of ``cls.family(...)`` (e.g. one shape, :func:`fixed_shape`).
    With ``method="auto"`` only proven certificates are returned (``rigorous``); a plan with an unproven claim
    (zCDP) runs only when its own key is asked for.

    >>> import fhsym
    >>> from fhsym._core.sensitivities import resolve_sensitivities
    >>> req = Request(1.0, 1e-6, resolve_sensitivities(1, 1.0, None, None))
    >>> cal = calibrate_law(fhsym.Gaussian, req)
    >>> cal.certificate.claim, round(cal.sigma, 6)
    ('profile-1d', 4.224679)
    """
    opts = dict(options or {})
    check_options(cls, opts)
    if method not in methods_of(cls):
        raise ValueError(f"method must be one of {list(methods_of(cls))} for mechanism {cls.name!r}; got {method!r}")
    job = Job(cls, request, opts, family)
    found: List[Calibration] = []
    errors: List[Exception] = []
    reasons: List[str] = []  # why a plan did not apply: reported only when no plan applied
    for plan in plans_for(cls, method):
        if request.delta == 0.0 and plan.claim is not PURE:
            continue  # delta = 0 is pure DP: only the pure claim states it
        try:
            why = plan.applies(job)
            if why is not None:
                reasons.append(why)
                continue
            cal = plan.run(job)
        except ValueError as exc:  # includes CalibrationError: another plan may still answer
            errors.append(exc)
            continue
        if cal is not None:
            found.append(cal)
    if method == "auto":
        found = [c for c in found if c.certificate.rigorous]  # auto never returns an unproven claim
    if not found:
        if errors:
            raise errors[0]
        if reasons:
            raise ValueError(reasons[0])
        raise CalibrationError(f"mechanism {cls.name!r} has no calibration for this request (method={method!r})")
    return min(found, key=lambda c: c.variance)
