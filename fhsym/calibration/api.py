"""``fhsym.calibrate``: one entry point for every mechanism and dimension."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Mapping, Optional

from .._core import domains as V
from .._core.config import UNSET, config_signature, resolve_config
from .._core.sensitivities import resolve_sensitivities
from ..noise import NOISE_CLASSES, FlippedHuber, noise_class
from .calibrator import calibrate_law, check_options, methods_of
from .engine import Request
from .result import Calibration

__all__ = ["MECHANISMS", "CalibrateConfig", "calibrate"]

#: the noise laws :func:`calibrate` knows, by key (the registry of :mod:`fhsym.noise`)
MECHANISMS = NOISE_CLASSES
_PURE_DELTA = V.Domain("delta", 0.0, 1.0, closed_lower=True)


def _check_mechanism_method(mechanism: object, method: object) -> Any:
    cls = noise_class(mechanism)
    if not isinstance(method, str) or method not in methods_of(cls):
        raise ValueError(f"method must be one of {list(methods_of(cls))} for mechanism {mechanism!r}; got {method!r}")
    return cls


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
    mechanism: str = FlippedHuber.name
    compositions: int = 1
    options: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.options, Mapping) or not all(isinstance(k, str) for k in self.options):
            raise ValueError(f"options must be a mapping of option names to values; got {self.options!r}")
        check_options(_check_mechanism_method(self.mechanism, self.method), self.options)
        resolve_sensitivities(self.dim, self.sensitivity, self.l2_sensitivity, self.l1_sensitivity)
        V.check_int(self.compositions, "compositions", 1)
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))  # read-only, as the rest


@config_signature(CalibrateConfig)
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
    delta : float in (0, 1); 0 (pure DP) for the mechanisms that have a pure-DP calibration (Laplace, the
        staircase), with ``method="auto"`` or ``"pure"``
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
        ``"auto"`` (the least variance among the proven claims that apply) or one of the keys of the plans the
        law declares (:func:`fhsym.calibration.calibrator.methods_of`, :mod:`fhsym.calibration.plans`):
        ``"exact"`` (Theorem 3 in 1-D, the exact K-fold profile by privacy-loss distributions in K dimensions),
        ``"pure"`` (Laplace, the staircase: delta = 0 allowed), ``"kfold-pld-sup"`` (the staircase composed
        through the proven PLD of the sup over the shifts, K T > 1; also tried by ``"auto"``), ``"sufficient"``
        (flipped Huber, Theorem 8, K > 1) or ``"zcdp"`` (laws with zCDP parameters: flipped Huber, Gaussian; a
        float conversion, NOT proven: the certificate says so, ``auto`` never picks it).
    mechanism : str
        ``"flipped_huber"`` (default), ``"gaussian"``, ``"laplace"``, ``"truncated_laplace"``,
        ``"staircase"``, ``"osgt"``, ``"discrete_flipped_huber"`` (noise on the lattice ``step`` * Z, for the
        exact sampler; one dimension, one release, sensitivity a multiple of ``step``) or ``"piecewise_uniform"``
        (the noise of :func:`fhsym.optimal_variance`'s linear program; one dimension, one release) or
        ``"truncated_staircase"`` (the staircase cut so that its cut carries delta, designed in closed form; within
        0.2 % of the optimum on the frontier's 1-D grid; one dimension, one release; ``method="closed"``).
    **options
        Mechanism options: staircase ``cost`` ("variance" or "magnitude"); OSGT ``theta_max``; discrete
        flipped Huber ``step`` (required); piecewise uniform ``bins`` (bins per unit sensitivity, a power of
        two; default automatic).  Any other keyword raises ``ValueError``.

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
    eps = V.check_scalar(epsilon, V.EPSILON)
    cls = _check_mechanism_method(cfg.mechanism, cfg.method)
    pure_ok = "pure" in methods_of(cls) and cfg.method in ("auto", "pure")
    dlt = V.check_scalar(delta, _PURE_DELTA if pure_ok else V.DELTA)  # delta = 0: pure DP, where the law has it
    sens = resolve_sensitivities(cfg.dim, cfg.sensitivity, cfg.l2_sensitivity, cfg.l1_sensitivity)
    T = V.check_int(cfg.compositions, "compositions", 1)
    return calibrate_law(cls, Request(eps, dlt, sens, T), cfg.method, cfg.options)
