"""One generic calibrator over (noise family, claim): every mechanism, one release or K-fold.

A request (epsilon, delta, the sensitivity set of ``dim`` coordinates, ``compositions`` releases)
and a noise law give the *candidates*, each a claim with the search that fits it:

==========================  ==================================================================  ==========
candidate                   when                                                                claim
==========================  ==================================================================  ==========
pure                        the law is pure DP (:meth:`~fhsym.NoiseDistribution.pure_calibration`:  ``pure``
                            Laplace, the staircase); closed form
1-D profile                 one release of one coordinate; :func:`~.search.search_1d` at Delta  ``profile-1d``
                            (lattice noise: ``profile-lattice``)
l2 profile                  K T > 1, the law's shape-0 member is Gaussian: the 1-D profile at    ``profile-1d-l2``
                            sqrt(T) Delta_2 (:func:`~.search.search_1d` on shape 0); for laws
                            with shapes, only where the set is tighter than the box
K-fold                      K T > 1, symmetric log-concave law (not the Gaussian itself, whose  ``pld-kfold``
                            l2 candidate is never worse): :func:`~.search.search_kfold` over the
                            box corner, the scale then shaved on the certificate's lattice
solver                      the law is calibrated by its own solver (the piecewise-uniform noise  ``profile-1d``
                            of the optimum's linear program, one release of one coordinate)
Theorem 8                   flipped Huber, ``method="sufficient"``: the paper's sufficient       ``pld-kfold``
                            condition as the search (:mod:`fhsym.accounting.sufficient`)
==========================  ==================================================================  ==========

``method="auto"`` tries the pure and the exact candidates (not Theorem 8, which never beats the exact
K-fold bound it is certified by) and returns the least variance; ``"exact"``, ``"pure"`` and
``"sufficient"`` restrict to theirs.  Every candidate ends in :func:`fhsym.calibration.engine.certify`
through its claim, at the exact returned floats.
"""

from __future__ import annotations

import functools
import inspect
import math
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple

import numpy as np

from .._core.limits import check_folds
from .._core.search import CalibrationError
from .._core.sensitivities import mul_sqrt_up
from ..accounting.claims import KFOLD
from ..accounting.mechanism_pld import kfold_delta_upper, step_for
from ..noise.family import Family
from ..noise.piecewise_uniform import PiecewiseUniform
from ..optimum.api import solve_calibration
from ..privacy.claims import PROFILE_1D, PROFILE_1D_L2, PROFILE_LATTICE, PURE
from .engine import Request, certify, representable_variance, result
from .result import Calibration
from .search import least_double_scale, search_1d, search_kfold

__all__ = ["calibrate_law", "check_options", "fixed_shape", "law_options", "GAUSS_PREFERENCE", "SOLVERS"]

#: K-fold: the shape-0 (Gaussian) member is kept unless another shape beats it by this much relative variance:
#: its certificate is one ball-arithmetic evaluation, a shape's is a proven PLD (0.5-3 s at K = 20 ... 1000)
GAUSS_PREFERENCE = 1e-5
_KFOLD_MARGIN = 1e-6  # the K-fold search aims at delta (1 - this): its float bound lies above the proven one


def _is_box(request: Request) -> bool:
    s = request.sensitivities
    return s.l2_sensitivity >= mul_sqrt_up(s.sensitivity, s.dim) and s.l1_sensitivity >= s.dim * s.sensitivity


def _gaussian_member(family: Family) -> bool:
    has_zero = family.shape_range is None or family.shape_range[2]
    return bool(has_zero and family.make(0.0, 1.0).gaussian_sigma() is not None)


def _target(cls: Any, delta: float) -> float:
    """The 1-D search's target: delta (1 - 4 r), r the float profile's relative error (the arb certificate then
    passes at once)."""
    return delta * (1.0 - 4.0 * getattr(cls, "profile_rtol", 1e-13))


class _FixedShape(Family):
    """A family restricted to one shape (no shape search): the member ``make(shape, scale)`` of ``base``."""

    def __init__(self, base: Family, shape: float) -> None:
        super().__init__(base.cls, None)
        self.base, self.fixed = base, float(shape)

    def make(self, shape: float, scale: float) -> Any:
        return self.base.make(self.fixed, scale)

    def log_profile(self, eps: float, shapes: np.ndarray, u: np.ndarray, sensitivity: float) -> np.ndarray:
        return self.base.log_profile(eps, np.full(np.shape(shapes), self.fixed), u, sensitivity)

    def log_profile_point(self, eps: float, shape: float, u: float, sensitivity: float) -> float:
        return self.base.log_profile_point(eps, self.fixed, u, sensitivity)

    def log_variance_point(self, shape: float) -> float:
        return self.base.log_variance_point(self.fixed)

    def log_variance(self, shapes: np.ndarray) -> np.ndarray:
        return self.base.log_variance(np.full(np.shape(shapes), self.fixed))

    def profile_members(self, eps: float, shapes: np.ndarray, scales: np.ndarray, sensitivity: float) -> np.ndarray:
        return self.base.profile_members(eps, np.full(np.shape(shapes), self.fixed), scales, sensitivity)

    @property
    def polish(self) -> bool:  # type: ignore[override]
        return self.base.polish

    @property
    def point_search(self) -> bool:  # type: ignore[override]
        return self.base.point_search

    def objective(self, shapes: np.ndarray, u: np.ndarray, sensitivity: float) -> np.ndarray:
        return self.base.objective(np.full(np.shape(shapes), self.fixed), u, sensitivity)

    def kinks(self, eps: float, shapes: np.ndarray) -> Optional[np.ndarray]:
        return self.base.kinks(eps, np.full(np.shape(shapes), self.fixed))


def fixed_shape(family: Family, shape: float) -> Family:
    """``family`` with its shape fixed at ``shape`` (the calibrator then searches the scale only)."""
    return _FixedShape(family, shape)


def _one_d(family: Family, request: Request, claim: Any, sensitivity: float, method: str,
           shape_zero_only: bool = False, extra: Optional[Dict[str, Any]] = None) -> Calibration:
    thr = _target(family.cls, request.delta)
    if shape_zero_only:
        family = fixed_shape(family, 0.0)
    shape, u, exact = search_1d(family, request.epsilon, math.log(thr), sensitivity)
    scale = sensitivity / u
    if family.polish and not exact:
        scale = least_double_scale(family, request.epsilon, thr, shape, sensitivity, scale)
    noise, ev, steps = certify(lambda s: family.make(shape, s), scale, claim, request, what="scale")
    return result(noise, ev, steps, request, claim, method, extra)


def _shave(family: Family, shape: float, scale: float, request: Request, thr: float) -> float:
    """The search ran on a coarse lattice (pessimistic): the least scale in [0.97 s, s] on the certificate's lattice."""
    D, folds = request.sensitivities.sensitivity, request.folds

    def ok(s: float) -> bool:
        noise = family.make(shape, s)
        return kfold_delta_upper(noise, request.epsilon, folds, D, 1, step=step_for(noise, D)) <= thr

    lo, hi = scale * 0.97, scale
    if ok(lo):
        return lo
    for _ in range(10):
        mid = math.sqrt(lo * hi)
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return hi


def _kfold(family: Family, request: Request, method: str) -> Calibration:
    check_folds(request.dim, request.compositions, f"the K-fold {family.name} calibration")  # bounded work, up front
    eps, D = request.epsilon, request.sensitivities.sensitivity
    thr = request.delta * (1.0 - _KFOLD_MARGIN)
    shape, scale = search_kfold(family, eps, math.log(thr), D, request.folds, GAUSS_PREFERENCE)
    representable_variance(family.make(shape, scale), request)  # refused before the proven bound
    if shape == 0.0 and _gaussian_member(family):
        # a Gaussian: its K-fold profile at the corner is the 1-D one at sqrt(K T) Delta, searched exactly
        zero = fixed_shape(family, 0.0)
        _, u, _ = search_1d(zero, eps, math.log(_target(family.cls, request.delta)), mul_sqrt_up(D, request.folds))
        scale = mul_sqrt_up(D, request.folds) / u
    else:
        scale = _shave(family, shape, scale, request, thr)
    noise, ev, steps = certify(lambda s: family.make(shape, s), scale, KFOLD, request, what="scale", first_step=1e-6)
    return result(noise, ev, steps, request, KFOLD, method)


def _sufficient(family: Family, request: Request) -> Calibration:
    """Flipped Huber by Theorem 8 (the paper's sufficient condition) as the search; certified by the K-fold claim."""
    from ..accounting.sufficient import theorem8_minimum

    check_folds(request.dim, request.compositions, "the K-fold flipped Huber calibration")
    # Theorem 8 over the box of the request (where its proof is complete, docs/kdim.md), which the K-fold claim
    # then certifies; a tighter set is covered through the box that contains it
    D, n = request.sensitivities.sensitivity, request.folds
    alpha, gamma = theorem8_minimum(request.epsilon, request.delta, n, D, mul_sqrt_up(D, n), n * D)
    shape = alpha / gamma
    representable_variance(family.make(shape, gamma), request)
    noise, ev, steps = certify(lambda g: family.make(shape, g), gamma, KFOLD, request, what="gamma", first_step=1e-9)
    return result(noise, ev, steps, request, KFOLD, "sufficient-thm8")


def _pure(cls: Any, request: Request, options: Mapping[str, Any]) -> Optional[Calibration]:
    s = request.sensitivities
    built = cls.pure_calibration(request.epsilon, s.dim, s.sensitivity, s.l2_sensitivity, s.l1_sensitivity,
                                 request.compositions, **options)
    if built is None:
        return None
    make, scale = built
    noise, ev, steps = certify(make, scale, PURE, request, what="scale")
    return result(noise, ev, steps, request, PURE, "pure")


#: the laws calibrated by a solver of their own (``solver_calibrated``): the optimum's linear program
SOLVERS: Dict[type, Callable[..., Tuple[Callable[[float], Any], float]]] = {PiecewiseUniform: solve_calibration}


def _solved(cls: Any, request: Request, options: Mapping[str, Any]) -> Calibration:
    if request.folds != 1:
        raise ValueError(f"mechanism {cls.name!r} is calibrated for one release of one coordinate; got dim = "
                         f"{request.dim}, compositions = {request.compositions}")
    make, scale = SOLVERS[cls](request.epsilon, request.delta, request.sensitivities.sensitivity, **options)
    noise, ev, steps = certify(make, scale, PROFILE_1D, request, what="scale")
    return result(noise, ev, steps, request, PROFILE_1D, "lp-optimum")


def _strategies(cls: Any, request: Request, method: str, options: Mapping[str, Any],
                family: Optional[Family] = None) -> List[Tuple[str, Callable[[], Optional[Calibration]]]]:
    out: List[Tuple[str, Callable[[], Optional[Calibration]]]] = []
    if cls.solver_calibrated:
        return [("solver", lambda: _solved(cls, request, options))]
    pure_law = "pure" in cls.calibration_methods
    if method in ("auto", "pure") and pure_law:
        out.append(("pure", lambda: _pure(cls, request, options)))
    if method == "pure" or request.delta == 0.0 or (pure_law and "exact" not in cls.calibration_methods):
        return out
    if family is None:
        family = cls.family(**({} if pure_law else options))
    if method == "sufficient":
        if request.folds == 1:
            raise ValueError("method='sufficient' applies to dim * compositions > 1; in one dimension the exact "
                             "condition (Theorem 3) is used")
        return [("sufficient", lambda: _sufficient(family, request))]
    D = request.sensitivities.sensitivity
    if request.folds == 1:
        if cls.lattice:
            step = getattr(family, "step")  # a LatticeFamily's lattice step
            extra = {"step": step, "sensitivity_steps": cls.lattice_steps(D, step)}
            out.append(("exact", lambda: _one_d(family, request, PROFILE_LATTICE, D, "exact-lattice", extra=extra)))
        else:
            out.append(("exact", lambda: _one_d(family, request, PROFILE_1D, D, "exact-1d")))
        return out
    if cls.lattice:
        raise ValueError(f"mechanism {cls.name!r} is calibrated for one release of one coordinate; got dim = "
                         f"{request.dim}, compositions = {request.compositions}")
    gaussian = _gaussian_member(family)
    r = mul_sqrt_up(request.sensitivities.l2_sensitivity, request.compositions)
    if gaussian and (family.shape_range is None or not _is_box(request)):
        out.append(("l2", lambda: _one_d(family, request, PROFILE_1D_L2, r, "l2-gaussian", shape_zero_only=True)))
    if cls.log_concave and not (gaussian and family.shape_range is None):
        out.append(("kfold", lambda: _kfold(family, request, "kfold-pld")))
    return out


@functools.lru_cache(maxsize=None)
def law_options(cls: Any) -> Tuple[str, ...]:
    """The calibration options a law takes: the keyword parameters of its ``family`` and ``pure_calibration`` hooks."""
    names = []
    hooks = [(cls.family, 0), (cls.pure_calibration, 6)] + ([(SOLVERS[cls], 3)] if cls.solver_calibrated else [])
    for hook, skip in hooks:
        params = list(inspect.signature(hook).parameters.values())[skip:]
        names += [p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    return tuple(dict.fromkeys(names))


_SUBSAMPLING_OPTIONS = ("sampling_rate", "sampling_prob", "sampling_probability", "sample_rate")


def check_options(cls: Any, options: Mapping[str, Any]) -> None:
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


def calibrate_law(cls: Any, request: Request, method: str = "auto", options: Optional[Mapping[str, Any]] = None,
                  family: Optional[Family] = None) -> Calibration:
    """The least-variance certified calibration of noise law ``cls`` for ``request`` (module docstring).

    >>> import fhsym
    >>> from fhsym._core.sensitivities import resolve_sensitivities
    >>> req = Request(1.0, 1e-6, resolve_sensitivities(1, 1.0, None, None))
    >>> cal = calibrate_law(fhsym.Gaussian, req)
    >>> cal.certificate.claim, round(cal.sigma, 6)
    ('profile-1d', 4.224679)
    """
    opts = dict(options or {})
    check_options(cls, opts)
    if method not in cls.calibration_methods:
        raise ValueError(f"method must be one of {list(cls.calibration_methods)} for mechanism {cls.name!r}; "
                         f"got {method!r}")
    strategies = _strategies(cls, request, method, opts, family)
    found: List[Calibration] = []
    errors: List[Exception] = []
    for _, run in strategies:
        try:
            cal = run()
        except ValueError as exc:  # includes CalibrationError: another candidate may still answer
            errors.append(exc)
            continue
        if cal is not None:
            found.append(cal)
    if not found:
        if errors:
            raise errors[0]
        raise CalibrationError(f"mechanism {cls.name!r} has no calibration for this request (method={method!r})")
    return min(found, key=lambda c: c.variance)
