"""The calibration plans: every strategy of the one calibrator, as data.

A :class:`Plan` names the claim its certificate makes, the ``method=`` values that select it, what a law must
declare for it (its hooks, :mod:`fhsym.noise.contract`), when it applies to a request, and how it proposes the
noise; every plan ends in :func:`fhsym.calibration.engine.certify` through its claim, at the exact returned floats.

==============  ============================  =======================================================  ================
plan            method= keys                  the law declares / the request                           claim
==============  ============================  =======================================================  ================
solver          auto, exact                   ``solver_calibrated`` (the optimum's linear program); one  ``profile-1d``
                                              release of one coordinate
pure            auto, pure                    ``pure_calibration`` (closed form; delta = 0 allowed)      ``pure``
closed-1d       auto, closed                  ``closed_calibration`` (a closed-form (eps, delta) design); ``profile-1d``
                                              one release of one coordinate
exact-1d        auto, exact                   "exact" in ``calibration_methods``; K T = 1:               ``profile-1d``
                                              :func:`~.search.search_1d` at Delta                      (``profile-lattice``
                                                                                                       on a lattice)
l2              auto, exact                   K T > 1, the family's shape-0 member Gaussian: the 1-D     ``profile-1d-l2``
                                              profile at sqrt(T) Delta_2 (a law with shapes: only where
                                              the set is tighter than the box)
kfold           auto, exact                   K T > 1, ``log_concave`` (not the Gaussian itself):        ``pld-kfold``
                                              :func:`~.search_kfold.search_kfold` at the corner, refined
kfold-sup       auto, kfold-pld-sup           K T > 1, ``sup_calibration`` (its own float bound of the    ``pld-kfold-sup``
                                              sup pair's composition; ``worst_profile_upper_ends``)
sufficient      sufficient                    "sufficient" in ``calibration_methods``, K T > 1: the      ``pld-kfold``
                                              paper's Theorem 8 as the search
zcdp            zcdp                          ``zcdp_parameters``: the least scale per shape whose       ``zcdp``
                                              composed zCDP converts to delta (a float bound: UNPROVEN)
==============  ============================  =======================================================  ================

``method="auto"`` runs every applicable plan keyed ``auto`` and returns the least variance among the *proven*
certificates: the zCDP plan is keyed ``zcdp`` only (its bound is a float conversion, ``rigorous: false``), so
``auto`` never returns it; asked for by ``method="zcdp"``, its certificate says "not proven" and
:func:`fhsym.verify_certificate` answers ``UNPROVEN``.  Theorem 8 is not keyed ``auto`` either (it never beats the
exact K-fold bound it is certified by).
"""

from __future__ import annotations

import inspect
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Dict, Mapping, Optional, Tuple

from .._core.limits import check_folds
from .._core.search import CalibrationError, least_true_double
from .._core.sensitivities import mul_sqrt_up
from ..accounting.claims import KFOLD, KFOLD_SUP, ZCDP
from ..accounting.mechanism_pld import kfold_delta_upper, step_for
from ..accounting.zcdp import zcdp_to_dp
from ..noise.contract import LawClass, Maker, declares
from ..noise.family import Family
from ..noise.lattice import LatticeFamily
from ..optimum.api import solve_calibration
from ..privacy.claims import PROFILE_1D, PROFILE_1D_L2, PROFILE_LATTICE, PURE, Claim, Evidence
from .engine import MAX_STEPS, Request, certify, representable_variance, result
from .result import Calibration
from .search import fixed_shape, least_double_scale, least_scale_per_shape, search_1d
from .search_kfold import refine_kfold, search_kfold, shave_scale

__all__ = ["Job", "Plan", "PLANS", "SOLVER", "GAUSS_PREFERENCE", "hook_options"]

#: K-fold: the shape-0 (Gaussian) member is kept unless another shape beats it by this much relative variance:
#: its certificate is one ball-arithmetic evaluation, a shape's is a proven PLD (0.5-3 s at K = 20 ... 1000)
GAUSS_PREFERENCE = 1e-5
_KFOLD_MARGIN = 1e-6  # the K-fold search aims at delta (1 - this): its float bound lies above the proven one
#: a certified K-fold point is shaved by its proof's measure of the float bound (_proof_shave) where that saves this
#: much variance (one more proof): a quarter of the frontier test's K-fold tolerance
_PROOF_SHAVE_GAIN = 1e-7
#: ... and by at most this in log scale: the ratio holds over short moves (FFT errors: moves of 1e-7 to 1.6e-5 met the
#: first lattice's proof); at delta 1e-10 OSGT's ratio (0.99) drifts, moves of 5e-5 to 1.6e-4 took the halved lattice
_PROOF_SHAVE_MOVE = 2e-5

#: the solver of a ``solver_calibrated`` law: the optimum's linear program (:func:`fhsym.optimum.solve_calibration`),
#: which builds the law of its solution (checked: the noise it returns is of the law asked for)
SOLVER: Callable[..., Maker] = solve_calibration


def hook_options(hook: Callable[..., Any], skip: int, options: Mapping[str, Any]) -> Dict[str, Any]:
    """The options a hook takes (its keyword parameters after the first ``skip``), picked from ``options``."""
    params = list(inspect.signature(hook).parameters.values())[skip:]
    names = {p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    return {k: v for k, v in options.items() if k in names}


class Job:
    """One calibration request for one law: what every plan reads (the family is built once, when first needed)."""

    def __init__(self, cls: LawClass, request: Request, options: Mapping[str, Any],
                 family: Optional[Family] = None) -> None:
        self.cls, self.request, self.options, self._family = cls, request, dict(options), family

    @property
    def family(self) -> Family:
        if self._family is None:
            self._family = self.cls.family(**hook_options(self.cls.family, 0, self.options))
        return self._family

    def one_release(self) -> Optional[str]:
        r = self.request
        if r.folds == 1:
            return None
        return (f"mechanism {self.cls.name!r} is calibrated for one release of one coordinate; got dim = {r.dim}, "
                f"compositions = {r.compositions}")

    def gaussian_member(self) -> bool:
        f = self.family
        has_zero = f.shape_range is None or f.shape_range[2]
        return bool(has_zero and f.make(0.0, 1.0).gaussian_sigma() is not None)

    def is_box(self) -> bool:
        s = self.request.sensitivities
        return s.l2_sensitivity >= mul_sqrt_up(s.sensitivity, s.dim) and s.l1_sensitivity >= s.dim * s.sensitivity


@dataclass(frozen=True)
class Plan:
    """One calibration strategy: ``claim`` certifies it; ``keys`` are the ``method=`` values that select it ("auto"
    among them: :func:`fhsym.calibrate` tries it by default); ``declared(cls)`` whether the law declares what it
    needs; ``applies(job)`` None when it applies to the request, else why not; ``run(job)`` the certified
    calibration (None: the law's hook has none for this request)."""

    name: str
    claim: Claim
    keys: Tuple[str, ...]
    declared: Callable[[LawClass], bool]
    applies: Callable[[Job], Optional[str]]
    run: Callable[[Job], Optional[Calibration]]


def _target(cls: LawClass, delta: float) -> float:
    """The 1-D search's target: delta (1 - 4 r), r the float profile's relative error (the arb certificate then
    passes at once)."""
    return delta * (1.0 - 4.0 * cls.profile_rtol)


def _one_d(job: Job, claim: Claim, sensitivity: float, method: str, shape_zero_only: bool = False,
           extra: Optional[Dict[str, Any]] = None) -> Calibration:
    request, family = job.request, job.family
    thr = _target(job.cls, request.delta)
    if shape_zero_only:
        family = fixed_shape(family, 0.0)
    shape, u, exact = search_1d(family, request.epsilon, math.log(thr), sensitivity)
    scale = sensitivity / u
    if family.polish and not exact:
        scale = least_double_scale(family, request.epsilon, thr, shape, sensitivity, scale)
    if shape_zero_only:
        scale = _tighten(job, claim, lambda s: family.make(shape, s), scale)
    noise, ev, steps = certify(lambda s: family.make(shape, s), scale, claim, request, what="scale")
    return result(noise, ev, steps, request, claim, method, extra)


#: the l2 plan aims its proven delta this far (relative) below the target, as a search with a float profile accurate
#: to 1e-13 does: a float re-check of the release (fhsym.accounting.dpcd.account_run: the Gaussian profile times
#: 1 + 1e-13) then passes too.  An aim, not a guarantee: where the float search's scale misses it (the Gaussian's
#: own, by ~2e-15: tests/test_l2_plan.py), that scale is kept and certified against delta itself
_PROVEN_SLACK = 4e-13


def _tighten(job: Job, claim: Claim, make: Callable[[float], Any], scale: float) -> float:
    """The least double scale in [scale (1 - 16 r), scale] whose proven bound (the claim's evidence) is within
    delta (1 - :data:`_PROVEN_SLACK`), r the law's ``profile_rtol``: the float search aimed at delta (1 - 4 r), so a
    law whose float profile is less accurate than its member's (flipped Huber's Gaussian member: r = 1e-9) is not
    calibrated more conservatively than the member's own law.  ``scale`` itself where its bound does not pass (the
    certification then decides, stepping up).

    Left as it is (front36): its general form, the search aimed at the member's own accuracy (the Gaussian's 1e-13)
    instead of the law's, needs the law contract to state the accuracy of a member's float profile (a hook per law,
    measured at shape 0), which no law declares; this costs 1-29 ball-arithmetic evaluations, <= 0.06 s measured."""
    request = job.request
    aim = request.delta * (1.0 - _PROVEN_SLACK)

    def passes(s: float) -> bool:
        return claim.certify_evidence(request.release(make(s)), request.delta).upper <= aim

    lo = scale * (1.0 - 16.0 * job.cls.profile_rtol)
    if not passes(scale):
        return scale
    return lo if passes(lo) else least_true_double(passes, lo, scale)


def _exact_1d(job: Job) -> Calibration:
    return _one_d(job, PROFILE_1D, job.request.sensitivities.sensitivity, "exact-1d")


def _exact_lattice(job: Job) -> Calibration:
    family, D = job.family, job.request.sensitivities.sensitivity
    if not isinstance(family, LatticeFamily):  # pragma: no cover - a lattice law's family is a LatticeFamily
        raise TypeError(f"the family of a lattice law must be a LatticeFamily; got {family!r}")
    extra = {"step": family.step, "sensitivity_steps": family.cls.lattice_steps(D, family.step)}
    return _one_d(job, PROFILE_LATTICE, D, "exact-lattice", extra=extra)


def _l2(job: Job) -> Calibration:
    r = mul_sqrt_up(job.request.sensitivities.l2_sensitivity, job.request.compositions)
    return _one_d(job, PROFILE_1D_L2, r, "l2-gaussian", shape_zero_only=True)


def _kfold(job: Job) -> Calibration:
    family, request = job.family, job.request
    check_folds(request.dim, request.compositions, f"the K-fold {family.name} calibration")  # bounded work, up front
    eps, D = request.epsilon, request.sensitivities.sensitivity
    thr = request.delta * (1.0 - _KFOLD_MARGIN)
    shape, scale = search_kfold(family, eps, math.log(thr), D, request.folds, GAUSS_PREFERENCE)
    representable_variance(family.make(shape, scale), request)  # refused before the proven bound
    if shape == 0.0 and job.gaussian_member():
        # a Gaussian: its K-fold profile at the corner is the 1-D one at sqrt(K T) Delta, searched exactly
        zero = fixed_shape(family, 0.0)
        _, u, _ = search_1d(zero, eps, math.log(_target(job.cls, request.delta)), mul_sqrt_up(D, request.folds))
        scale = mul_sqrt_up(D, request.folds) / u
    else:  # the search ran on a coarse lattice (pessimistic): the least scale and shape on the certificate's lattice
        memo: Dict[Tuple[float, int, float], float] = {}  # the proof shave re-reads the refinement's last bound

        def bound_of(sh: float, level: int) -> Callable[[float], float]:  # the certificate's lattices (refine=1)
            def bound(s: float) -> float:  # the profile exact at the kink (the fast form is off there at a tiny delta)
                if (sh, level, s) not in memo:
                    try:
                        noise = family.make(sh, s)
                        memo[sh, level, s] = kfold_delta_upper(noise, eps, request.folds, D, 1,
                                                               step=step_for(noise, D) / 2**level)
                    except (ValueError, FloatingPointError):
                        memo[sh, level, s] = math.inf
                return memo[sh, level, s]
            return bound

        points = refine_kfold(family, bound_of, math.log(thr), shape, scale)
        tries = [(sh, s, MAX_STEPS) for sh, s in points]
        if family.make(shape, scale).var() < family.make(*points[0]).var():
            # the certificate's lattice (float) found the search's point infeasible, and the refinement moved up: at a
            # cliff the float bound can be pessimistic against the proof (3e-4 of delta, flipped Huber on its atom
            # curve) as well as the search's fast profile optimistic (OSGT): the proof decides the point, once
            tries.insert(0, (shape, scale, 0))
        for i, (sh, sc, n) in enumerate(tries):  # the first certified within the verification budget
            try:
                noise, ev, steps = certify(lambda s: family.make(sh, s), sc, KFOLD, request, what="scale",
                                           first_step=1e-6, max_steps=n)
                cal = result(noise, ev, steps, request, KFOLD, "kfold-pld")
            except CalibrationError:
                if i + 1 == len(tries):
                    raise
                continue
            lower = None if steps else _proof_shave(family, bound_of, sh, sc, ev, math.log(thr), D)
            if lower is not None:  # the float bound's error measured against this proof: one proof decides
                try:
                    noise, ev, steps = certify(lambda s: family.make(sh, s), lower, KFOLD, request, what="scale",
                                               max_steps=0)
                    return result(noise, ev, steps, request, KFOLD, "kfold-pld")
                except CalibrationError:
                    pass  # the certified point stands
            return cal
    noise, ev, steps = certify(lambda s: family.make(shape, s), scale, KFOLD, request, what="scale", first_step=1e-6)
    return result(noise, ev, steps, request, KFOLD, "kfold-pld")


def _proof_shave(family: Family, bound_of: Callable[[float, int], Callable[[float], float]], shape: float,
                 scale: float, ev: Evidence, log_target: float, D: float) -> Optional[float]:
    """A lower scale for ``shape`` than the certified ``scale`` whose proof may pass, else None.  The refinement's
    float bound on the proof's lattice is pessimistic by its FFT products' error bounds (5.4e-5 of delta at
    K T = 100, Laplace: its root ~7e-6 of the variance above the proof's); its ratio to the proof at ``scale``
    (``ev.upper``) varies little over the shave's range, so the float bound rescaled by it is shaved
    (:func:`~.search_kfold.shave_scale`), by at most :data:`_PROOF_SHAVE_MOVE` in log scale.  None unless that saves
    :data:`_PROOF_SHAVE_GAIN` of the variance (decided by one bound: the refinement's at ``scale`` is remembered)."""
    step = (ev.grid or {}).get("step")
    if step is None or not ev.upper > 0:
        return None
    h0, h = step_for(family.make(shape, scale), D), float(Fraction(step))
    level = round(math.log2(h0 / h))
    if level not in (0, 1) or abs(h0 / 2**level / h - 1.0) > 1e-9:
        return None  # not one of the refinement's lattices
    b = bound_of(shape, level)
    f = b(scale)
    if not (f > 0 and math.isfinite(f)):
        return None
    ratio = ev.upper / f
    gate = scale * math.exp(-0.5 * _PROOF_SHAVE_GAIN)  # one bound decides whether the shave can save that much
    if not b(gate) * ratio <= math.exp(log_target):
        return None
    return max(shave_scale(lambda s: b(s) * ratio, log_target, gate), scale * math.exp(-_PROOF_SHAVE_MOVE))


def _sup(job: Job) -> Optional[Calibration]:
    cls, request = job.cls, job.request
    check_folds(request.dim, request.compositions, f"the composed {cls.name} calibration")  # bounded work, up front
    built = cls.sup_calibration(request.epsilon, request.delta, request.folds, request.sensitivities.sensitivity,
                                **hook_options(cls.sup_calibration, 4, job.options))
    if built is None:
        return None
    make, scale = built
    noise, ev, steps = certify(make, scale, KFOLD_SUP, request, what="scale", first_step=1e-9)
    return result(noise, ev, steps, request, KFOLD_SUP, "kfold-pld-sup")


def _sufficient(job: Job) -> Calibration:
    """The paper's Theorem 8 (sufficient condition) as the search; certified by the K-fold claim."""
    from ..accounting.sufficient import theorem8_minimum

    family, request = job.family, job.request
    check_folds(request.dim, request.compositions, f"the K-fold {family.name} calibration")
    # Theorem 8 over the box of the request (where its proof is complete, docs/kdim.md), which the K-fold claim
    # then certifies; a tighter set is covered through the box that contains it
    D, n = request.sensitivities.sensitivity, request.folds
    alpha, gamma = theorem8_minimum(request.epsilon, request.delta, n, D, mul_sqrt_up(D, n), n * D)
    shape = alpha / gamma
    representable_variance(family.make(shape, gamma), request)
    noise, ev, steps = certify(lambda g: family.make(shape, g), gamma, KFOLD, request, what="gamma", first_step=1e-9)
    return result(noise, ev, steps, request, KFOLD, "sufficient-thm8")


def _zcdp(job: Job) -> Calibration:
    """Per shape the least scale whose composed zCDP converts to epsilon (1 - 1e-12) at delta (Canonne, Kamath &
    Steinke, :func:`~fhsym.accounting.zcdp.zcdp_to_dp`), the shape of least variance; certified (unproven: a float
    conversion) by the ``"zcdp"`` claim, whose delta at epsilon is the other side of the same conversion: both hold."""
    family, request = job.family, job.request
    n, D, aim = request.folds, request.sensitivities.sensitivity, request.epsilon * (1.0 - 1e-12)

    def feasible(shape: float, scale: float) -> bool:
        zc = family.make(shape, scale).zcdp_parameters(D)
        return zc is not None and zcdp_to_dp(n * zc[0], n * zc[1], request.delta) <= aim

    shape, scale = least_scale_per_shape(family, feasible, family.shapes(17))
    noise, ev, steps = certify(lambda s: family.make(shape, s), scale, ZCDP, request, what="scale", first_step=1e-12)
    return result(noise, ev, steps, request, ZCDP, "zcdp")


def _pure(job: Job) -> Optional[Calibration]:
    cls, request = job.cls, job.request
    s = request.sensitivities
    built = cls.pure_calibration(request.epsilon, s.dim, s.sensitivity, s.l2_sensitivity, s.l1_sensitivity,
                                 request.compositions, **hook_options(cls.pure_calibration, 6, job.options))
    if built is None:
        return None
    make, scale = built
    noise, ev, steps = certify(make, scale, PURE, request, what="scale")
    return result(noise, ev, steps, request, PURE, "pure")


def _closed(job: Job) -> Optional[Calibration]:
    cls, request = job.cls, job.request
    built = cls.closed_calibration(request.epsilon, request.delta, request.sensitivities.sensitivity)
    if built is None:
        return None
    make, scale = built
    noise, ev, steps = certify(make, scale, PROFILE_1D, request, what="scale", first_step=1e-12)
    return result(noise, ev, steps, request, PROFILE_1D, "closed-1d")


def _solved(job: Job) -> Calibration:
    cls, request = job.cls, job.request
    make, scale = SOLVER(request.epsilon, request.delta, request.sensitivities.sensitivity,
                         **hook_options(SOLVER, 3, job.options))
    if make(scale).name != cls.name:  # pragma: no cover - the one solver builds the one solver_calibrated law
        raise ValueError(f"mechanism {cls.name!r} is solver_calibrated, but the solver builds {make(scale).name!r}")
    noise, ev, steps = certify(make, scale, PROFILE_1D, request, what="scale")
    return result(noise, ev, steps, request, PROFILE_1D, "lp-optimum")


def _family_law(cls: LawClass) -> bool:
    return not cls.solver_calibrated and "exact" in cls.calibration_methods


def _several(job: Job) -> Optional[str]:
    r = job.request
    return None if r.folds > 1 else f"claim for dim * compositions > 1; got dim = {r.dim}, compositions = {r.compositions}"


def _l2_applies(job: Job) -> Optional[str]:
    if _several(job) is not None:
        return _several(job)
    ok = job.gaussian_member() and (job.family.shape_range is None or not job.is_box())
    return None if ok else "the l2 claim is for a Gaussian member where the set is tighter than the box"


def _kfold_applies(job: Job) -> Optional[str]:
    if _several(job) is not None:
        return _several(job)
    if job.gaussian_member() and job.family.shape_range is None:
        return "a Gaussian law's l2 calibration is never worse than its K-fold one"
    return None


def _sup_applies(job: Job) -> Optional[str]:
    r = job.request
    return None if r.folds > 1 else (f"method 'kfold-pld-sup' composes dim * compositions >= 2 releases; got dim = "
                                     f"{r.dim}, compositions = {r.compositions}")


def _sufficient_applies(job: Job) -> Optional[str]:
    return None if job.request.folds > 1 else ("method='sufficient' applies to dim * compositions > 1; in one "
                                               "dimension the exact condition (Theorem 3) is used")


#: every calibration strategy, in the order they are tried (the first error is the one reported when none answers)
PLANS: Tuple[Plan, ...] = (
    Plan("solver", PROFILE_1D, ("auto", "exact"), lambda c: c.solver_calibrated, Job.one_release, _solved),
    Plan("pure", PURE, ("auto", "pure"), lambda c: declares(c, "pure_calibration"), lambda j: None, _pure),
    Plan("closed-1d", PROFILE_1D, ("auto", "closed"), lambda c: declares(c, "closed_calibration"), Job.one_release,
         _closed),
    Plan("exact-1d", PROFILE_1D, ("auto", "exact"), lambda c: _family_law(c) and not c.lattice, Job.one_release,
         _exact_1d),
    Plan("exact-lattice", PROFILE_LATTICE, ("auto", "exact"), lambda c: _family_law(c) and c.lattice,
         Job.one_release, _exact_lattice),
    Plan("l2", PROFILE_1D_L2, ("auto", "exact"), lambda c: _family_law(c) and not c.lattice, _l2_applies, _l2),
    Plan("kfold", KFOLD, ("auto", "exact"), lambda c: _family_law(c) and c.log_concave and not c.lattice,
         _kfold_applies, _kfold),
    Plan("kfold-sup", KFOLD_SUP, ("auto", "kfold-pld-sup"), lambda c: declares(c, "sup_calibration"), _sup_applies,
         _sup),
    Plan("sufficient", KFOLD, ("sufficient",), lambda c: "sufficient" in c.calibration_methods, _sufficient_applies,
         _sufficient),
    Plan("zcdp", ZCDP, ("zcdp",), lambda c: declares(c, "zcdp_parameters"), lambda j: None, _zcdp),
)
