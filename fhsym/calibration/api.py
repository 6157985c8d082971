"""``fhsym.calibrate``: one entry point for every mechanism and dimension."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Mapping, Optional

from .._core import domains as V
from .._core.config import UNSET, resolve_config
from .._core.sensitivities import composed_set, mul_sqrt_up, mul_up, resolve_sensitivities
from . import mechanisms as M
from .engine import Request, result
from .flipped_huber import calibrate_flipped_huber
from .result import Calibration

__all__ = ["MECHANISMS", "CalibrateConfig", "calibrate"]

#: the mechanisms :func:`calibrate` knows, with the options each one takes
MECHANISMS = {
    "flipped_huber": (),
    "gaussian": (),
    "laplace": (),
    "truncated_laplace": (),
    "staircase": ("cost",),
    "osgt": ("theta_max", "box"),
    "discrete_flipped_huber": ("step",),
}

_METHODS = {
    "flipped_huber": ("auto", "exact", "sufficient"),
    "gaussian": ("auto", "exact"),
    "laplace": ("auto", "exact", "pure"),
    "truncated_laplace": ("auto", "exact"),
    "staircase": ("auto", "pure"),
    "osgt": ("auto", "exact"),
    "discrete_flipped_huber": ("auto", "exact"),
}


def _check_mechanism_method_options(mechanism: object, method: object, options: Mapping[str, Any]) -> None:
    if not isinstance(mechanism, str) or mechanism not in MECHANISMS:
        raise ValueError(f"mechanism must be one of {sorted(MECHANISMS)}; got {mechanism!r}")
    allowed = MECHANISMS[mechanism]
    for key in options:
        if key not in allowed:
            takes = f"takes the options {list(allowed)}" if allowed else "takes no options"
            raise ValueError(f"mechanism {mechanism!r} {takes}; got {key}={options[key]!r}")
    if not isinstance(method, str) or method not in _METHODS[mechanism]:
        raise ValueError(f"method must be one of {list(_METHODS[mechanism])} for mechanism {mechanism!r}; got {method!r}")


@dataclass(frozen=True)
class CalibrateConfig:
    """What :func:`calibrate` calibrates for (epsilon and delta apart): the sensitivity set, the size
    of the release, and the noise.

    ``sensitivity``, ``l2_sensitivity``, ``l1_sensitivity`` > 0 or None (the set is the
    intersection of the given balls; none: the unit box); ``dim`` K >= 1 coordinates;
    ``compositions`` T >= 1 releases; ``mechanism`` one of :data:`MECHANISMS`, ``method`` one of
    its methods, ``options`` its options (e.g. ``{"cost": "magnitude"}`` for the staircase).

    >>> import fhsym
    >>> cfg = fhsym.CalibrateConfig(mechanism="gaussian", dim=3, l2_sensitivity=1.0)
    >>> fhsym.calibrate(1.0, 1e-6, config=cfg) == fhsym.calibrate(1.0, 1e-6, mechanism="gaussian", dim=3,
    ...                                                           l2_sensitivity=1.0)
    True
    >>> fhsym.CalibrateConfig(dim=0)
    Traceback (most recent call last):
    ...
    ValueError: dim must be an integer >= 1; got 0
    """

    sensitivity: Optional[float] = None
    dim: int = 1
    l2_sensitivity: Optional[float] = None
    l1_sensitivity: Optional[float] = None
    method: str = "auto"
    mechanism: str = "flipped_huber"
    compositions: int = 1
    options: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.options, Mapping) or not all(isinstance(k, str) for k in self.options):
            raise ValueError(f"options must be a mapping of option names to values; got {self.options!r}")
        _check_mechanism_method_options(self.mechanism, self.method, self.options)
        resolve_sensitivities(self.dim, self.sensitivity, self.l2_sensitivity, self.l1_sensitivity)
        V.check_int(self.compositions, "compositions", 1)
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))  # read-only, as the rest


def _relabel(cal: Calibration, request: Request, method: str, covers: str, claim: str) -> Calibration:
    """A 1-D calibration re-stated for the K-dimensional request it certifies (same noise, same bound)."""
    from ..privacy.bounds import Bound

    c = cal.certificate
    bound = Bound(c.lower, c.upper, c.method, c.rigorous, c.extra.get("detail", ""), c.extra.get("pld_grid"))
    return result(cal.mechanism, bound, int(c.extra.get("upward_steps", 0)), request, method, covers=covers,
                  claim=claim)


def calibrate(
    epsilon: float,
    delta: float,
    sensitivity: Optional[float] = UNSET,
    dim: int = UNSET,
    l2_sensitivity: Optional[float] = UNSET,
    l1_sensitivity: Optional[float] = UNSET,
    method: str = UNSET,
    mechanism: str = UNSET,
    compositions: int = UNSET,
    *,
    config: Optional[CalibrateConfig] = None,
    **options: Any,
) -> Calibration:
    """Minimum-variance noise meeting (epsilon, delta)-DP, certified: the one calibration entry point.

    The arguments after ``delta`` come either as arguments or as one :class:`CalibrateConfig`
    (``config=``), not both: one passed together with ``config`` raises ``ValueError`` naming it.

    Parameters
    ----------
    epsilon : float >= 0
    delta : float in (0, 1)  (``mechanism="staircase"`` and pure Laplace meet it with delta = 0)
    sensitivity, l2_sensitivity, l1_sensitivity : float > 0, optional
        The sensitivity set.  Every given value is used: in one dimension the three are the same
        number (give any one; two that disagree raise ``ValueError``); in ``dim`` = K dimensions
        the set is the intersection of the given balls (:func:`resolve_sensitivities`); none
        given means the unit box (sensitivity 1).
    dim : int >= 1
        Number of coordinates receiving i.i.d. noise.
    compositions : int >= 1
        Number of releases composed (the same noise each time; the guarantee is for all of them).
    method : str
        ``"auto"`` or a mechanism-specific method: flipped Huber ``"exact"`` (Theorem 3 in 1-D,
        the exact K-fold profile by privacy-loss distributions in K dimensions) or
        ``"sufficient"`` (Theorem 8, K > 1); Laplace ``"pure"`` (delta = 0, l1 sensitivity) or
        ``"exact"``.
    mechanism : str
        ``"flipped_huber"`` (default), ``"gaussian"``, ``"laplace"``, ``"truncated_laplace"``,
        ``"staircase"``, ``"osgt"`` or ``"discrete_flipped_huber"`` (noise on the lattice
        ``step`` * Z, for the exact sampler; one dimension, one release, sensitivity a multiple of ``step``).
    **options
        Mechanism options: staircase ``cost`` ("variance" or "magnitude"); OSGT ``theta_max``,
        ``box``; discrete flipped Huber ``step`` (required).  Any other keyword raises ``ValueError``.

    Returns
    -------
    Calibration
        The noise (``cal.mechanism``), its parameters, the per-coordinate variance, and a
        certificate: ``cal.achieved_delta`` is a certified upper bound of delta(epsilon) at the
        exact returned parameters and never exceeds ``delta``.

    Examples
    --------
    >>> import fhsym
    >>> cal = fhsym.calibrate(1.0, 1e-6)
    >>> cal.mechanism.name, cal.achieved_delta <= cal.target_delta
    ('flipped_huber', True)
    >>> f"{cal.variance:.5g}", f"{fhsym.calibrate(1.0, 1e-6, mechanism='gaussian').variance:.5g}"
    ('1.9998', '17.848')
    """
    if config is not None and options:
        raise ValueError(f"calibrate: {sorted(options)[0]}= was passed together with config=; put it in "
                         "config.options instead so that no argument is ignored")
    cfg = resolve_config(CalibrateConfig, config, dict(
        sensitivity=sensitivity, dim=dim, l2_sensitivity=l2_sensitivity, l1_sensitivity=l1_sensitivity,
        method=method, mechanism=mechanism, compositions=compositions, options=options if options else UNSET),
        "calibrate")
    sensitivity, dim, l2_sensitivity, l1_sensitivity = cfg.sensitivity, cfg.dim, cfg.l2_sensitivity, cfg.l1_sensitivity
    method, mechanism, compositions, options = cfg.method, cfg.mechanism, cfg.compositions, dict(cfg.options)
    eps = V.check_scalar(epsilon, V.EPSILON)
    dlt = V.check_scalar(delta, V.DELTA)
    K, D, D2, D1 = resolve_sensitivities(dim, sensitivity, l2_sensitivity, l1_sensitivity)
    T = V.check_int(compositions, "compositions", 1)
    request = Request(eps, dlt, D, D2, D1, K, T)
    KT = K * T

    if mechanism == "discrete_flipped_huber":
        from .discrete import calibrate_discrete_flipped_huber

        if "step" not in options:
            raise ValueError("mechanism 'discrete_flipped_huber' needs step=h > 0 (the lattice spacing of the noise)")
        if KT != 1:
            raise ValueError(f"mechanism 'discrete_flipped_huber' is calibrated for dim = 1 and compositions = 1; "
                             f"got dim = {K}, compositions = {T}")
        return calibrate_discrete_flipped_huber(eps, dlt, options["step"], D)

    if mechanism == "flipped_huber":
        if KT == 1:
            if method == "sufficient":
                raise ValueError("method='sufficient' applies to dim > 1; in one dimension the exact condition is used")
            return calibrate_flipped_huber(eps, dlt, D)
        from .kdim import calibrate_kdim

        if T == 1:
            return calibrate_kdim(eps, dlt, K, D, D2, D1, method)
        # T releases of K coordinates: the (K T)-coordinate mechanism over the product of the sets, which
        # lies inside {||d||_inf <= Delta, ||d||_2 <= sqrt(T) Delta_2, ||d||_1 <= T Delta_1} (radii rounded up: a superset)
        big = composed_set(resolve_sensitivities(K, D, D2, D1), T)
        cal = calibrate_kdim(eps, dlt, KT, big.sensitivity, big.l2_sensitivity, big.l1_sensitivity, method)
        return _relabel(cal, request, cal.method, f"{T} releases of {K} coordinates as one {KT}-coordinate release "
                        f"(||d||_inf <= {D:g}, ||d||_2 <= {big.l2_sensitivity!r}, ||d||_1 <= {big.l1_sensitivity!r})",
                        cal.certificate.claim)

    if KT == 1:
        if mechanism == "gaussian":
            return M.calibrate_gaussian(eps, dlt, D)
        if mechanism == "laplace":
            if method == "pure":
                return _relabel(M.calibrate_laplace(eps, 0.0, D), request, "laplace-pure",
                                "pure eps-DP, so delta = 0 <= the target", "pure-l1")
            return M.calibrate_laplace(eps, dlt, D)
        if mechanism == "truncated_laplace":
            return M.calibrate_truncated_laplace(eps, dlt, D)
        if mechanism == "staircase":
            return _relabel(M.calibrate_staircase(eps, D, **options), request, "staircase-pure",
                            "pure eps-DP, so delta = 0 <= the target", "profile-1d")
        return M.calibrate_osgt(eps, dlt, D, **options)

    # K coordinates and/or T releases
    if mechanism == "gaussian":  # depends on the total ||d||_2 only: exact in 1-D at sqrt(T) Delta_2
        l2 = mul_sqrt_up(D2, T)  # rounded up: the set it covers contains the user's
        cal = M.calibrate_gaussian(eps, dlt, l2)
        return _relabel(cal, request, "analytic-gaussian-l2",
                        f"i.i.d. Gaussian noise on {K} coordinates, {T} release(s): the profile depends on the total "
                        f"||d||_2 only, so the 1-D profile at sqrt(T) Delta_2 = {l2:g} is exact", "profile-1d-l2")
    if mechanism == "staircase":
        # basic composition: each coordinate of each release is eps/(K T)-DP for |d_i| <= Delta; pure DP adds up
        eps0 = eps / KT
        if Fraction(KT) * Fraction(eps0) > Fraction(eps):  # the division rounded up: K T eps0 must not exceed eps
            eps0 = math.nextafter(eps0, 0.0)
        cal = M.calibrate_staircase(eps0, D, **options)
        return _relabel(cal, request, "staircase-pure-composed",
                        f"each of the {K} coordinates in each of {T} release(s) is eps/{KT}-DP for |d_i| <= {D:g}; "
                        f"pure DP composes additively", "pure-composition")
    if options:
        raise ValueError(f"mechanism {mechanism!r} takes its options {sorted(options)} in one dimension only")
    candidates = []
    if mechanism == "laplace" and (method == "pure" or (method == "auto" and eps > 0)):
        l1_total = mul_up(D1, T)  # rounded up: beta must cover T Delta_1 exactly
        cal = M.calibrate_laplace(eps, 0.0, l1_total)
        candidates.append(_relabel(cal, request, "laplace-pure-l1",
                                   f"i.i.d. Laplace noise with beta >= T Delta_1/eps is eps-DP over {T} release(s) for "
                                   f"every d with ||d||_1 <= {D1:g}", "pure-l1"))
    if mechanism != "laplace" or method in ("auto", "exact"):
        from .kdim_mechanisms import calibrate_kfold

        try:
            candidates.append(calibrate_kfold(mechanism, request))
        except ValueError:  # includes CalibrationError; with method="auto" the pure-DP candidate still answers
            if not candidates:
                raise
    return min(candidates, key=lambda c: c.variance)
