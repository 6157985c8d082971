"""One private release of a scalar or vector query: calibrate for its dimension and norm, draw, add.

:func:`release` is the short path from a query answer to a differentially private one:

1. the value is a real number (K = 1) or a 1-D array of K finite reals;
2. the noise is calibrated by :func:`fhsym.calibrate` for dimension K and the query's
   sensitivity set -- ``sensitivity`` in the norm ``norm`` (``"linf"``: per coordinate,
   ``"l2"``, ``"l1"``), optionally intersected with ``l2_sensitivity`` / ``l1_sensitivity``
   -- or taken from a ``calibration=`` made earlier, which must cover that dimension and set
   (a calibration for another dimension, or for a smaller sensitivity set, is refused);
3. K i.i.d. draws of ``cal.mechanism.rvs(K, random_state=rng)`` are added.

The floating-point sampler is not hardened against floating-point attacks (Mironov 2012);
see docs/security.md.  Fixing ``rng`` to a seed makes a release reproducible: do that in
tests only, never for data you publish.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Dict, Mapping, Optional, Union

import numpy as np
from numpy.typing import ArrayLike

from .._core import domains as V
from .._core.config import UNSET, config_signature, resolve_config
from .._core.random import RandomState, as_generator
from .._core.sensitivities import resolve_sensitivities
from ..calibration import Calibration, calibrate
from ..noise.discrete_flipped_huber import DiscreteFlippedHuber, lattice_index
from ..noise.flipped_huber import FlippedHuber

__all__ = ["Release", "ReleaseConfig", "release"]

_NORMS = {"linf": "sensitivity", "l2": "l2_sensitivity", "l1": "l1_sensitivity"}


@dataclass(frozen=True)
class Release:
    """A released value and the calibration that makes it private.

    Attributes
    ----------
    value : float or numpy.ndarray
        The noisy value (a float for a scalar query, a 1-D array for a vector).
    calibration : Calibration
        The noise's calibration and certificate (``calibration.dim`` = the vector length).

    lattice_index : int or None
        With ``secure=True``: the released lattice point k (``value`` = k * step, rounded once to a float).

    The true value and the noise are not kept.

    Examples
    --------
    >>> import fhsym
    >>> r = fhsym.release([1.0, 2.0], 1.0, 1e-6, sensitivity=1.0, mechanism="laplace", rng=0)
    >>> isinstance(r, fhsym.Release), r.value.shape, r.calibration.dim, r.calibration.method
    (True, (2,), 2, 'kfold-pld')
    """

    value: Union[float, np.ndarray]
    calibration: Calibration
    lattice_index: Optional[int] = None  # secure=True: the released value is lattice_index * step exactly


def _query(value: Any) -> np.ndarray:
    """The value as a float array of shape (K,), or ValueError."""
    if isinstance(value, (str, bytes)):
        raise ValueError(f"value must be a real number or a 1-D array of real numbers; got {value!r}")
    arr = np.asarray(value)
    if arr.dtype.kind not in "iuf":
        raise ValueError(f"value must be a real number or a 1-D array of real numbers; got dtype {arr.dtype}")
    if arr.ndim > 1:
        raise ValueError(f"value must be a real number or a 1-D array; got an array of shape {arr.shape} "
                         "(release each row, or flatten it and account for the composition)")
    arr = arr.astype(float).reshape(-1)
    if arr.size == 0:
        raise ValueError("value must not be empty; got an array of length 0")
    if not np.all(np.isfinite(arr)):
        raise ValueError("value must be finite; got a NaN or an infinity")
    return arr


def _sensitivities(sensitivity: Optional[float], norm: str, l2: Optional[float], l1: Optional[float]) -> Dict[str, Optional[float]]:
    """The sensitivity keywords of :func:`fhsym.calibrate` from (sensitivity, norm) and the explicit radii."""
    if not isinstance(norm, str) or norm not in _NORMS:
        raise ValueError(f"norm must be one of {sorted(_NORMS)}; got {norm!r}")
    given = {"sensitivity": None, "l2_sensitivity": l2, "l1_sensitivity": l1}
    if sensitivity is None:
        if norm != "linf":
            raise ValueError(f"norm={norm!r} names the norm of `sensitivity`, which was not given")
        return given
    key = _NORMS[norm]
    if given[key] is not None:
        raise ValueError(f"the {norm} sensitivity is given twice (sensitivity={sensitivity!r} with norm={norm!r} "
                         f"and {key}={given[key]!r}); give it once")
    given[key] = sensitivity
    return given


def _check_covers(cal: Calibration, K: int, sens: Dict[str, Optional[float]], epsilon: Optional[float], delta: Optional[float]) -> None:
    """ValueError unless ``cal`` certifies this release (same dim, a sensitivity set containing the query's)."""
    if cal.dim != K:
        raise ValueError(f"calibration is for dim={cal.dim} but the value has {K} coordinate(s); "
                         f"calibrate for dim={K}")
    if getattr(cal.mechanism, "parameter_shape", ()) != ():
        raise ValueError("calibration.mechanism must have scalar parameters")
    if any(v is not None for v in sens.values()):
        _, D, D2, D1 = resolve_sensitivities(K, sens["sensitivity"], sens["l2_sensitivity"], sens["l1_sensitivity"])
        for name, mine, theirs in (("l_inf", D, cal.sensitivity), ("l2", D2, cal.l2_sensitivity),
                                   ("l1", D1, cal.l1_sensitivity)):
            if mine > theirs:
                raise ValueError(f"calibration covers {name} sensitivity {theirs!r} but the query's sensitivity set "
                                 f"reaches {mine!r} in that norm; calibrate for this sensitivity set")
    if epsilon is not None and V.check_scalar(epsilon, V.EPSILON) < cal.epsilon:
        raise ValueError(f"calibration is for epsilon={cal.epsilon!r} > the requested epsilon={epsilon!r}")
    if delta is not None and cal.achieved_delta > V.check_scalar(delta, V.DELTA):
        raise ValueError(f"calibration certifies delta <= {cal.achieved_delta!r} > the requested delta={delta!r}")


@dataclass(frozen=True)
class ReleaseConfig:
    """How :func:`release` calibrates its noise: the guarantee, the query's sensitivity set, the noise.

    Guarantee: ``epsilon`` >= 0, ``delta`` in (0, 1) (None when a ``calibration=`` is passed to
    :func:`release`).  Sensitivity set: ``sensitivity`` > 0 in the norm ``norm`` (``"linf"``,
    ``"l2"``, ``"l1"``), intersected with ``l2_sensitivity`` / ``l1_sensitivity`` > 0.  Noise:
    ``mechanism`` and ``method`` (see :func:`fhsym.calibrate`), ``secure`` (the exact lattice
    mechanism), ``options`` further keywords of :func:`fhsym.calibrate` (e.g. ``{"step": 0.5}``).

    >>> import fhsym
    >>> cfg = fhsym.ReleaseConfig(epsilon=1.0, delta=1e-6, sensitivity=1.0, norm="l2", mechanism="gaussian")
    >>> fhsym.release([3.0, 1.0], config=cfg, rng=0).calibration.l2_sensitivity
    1.0
    >>> fhsym.ReleaseConfig(delta=2.0)
    Traceback (most recent call last):
    ...
    ValueError: delta must be a finite real number in (0, 1); got 2.0
    """

    epsilon: Optional[float] = None
    delta: Optional[float] = None
    sensitivity: Optional[float] = None
    norm: str = "linf"
    l2_sensitivity: Optional[float] = None
    l1_sensitivity: Optional[float] = None
    mechanism: Optional[str] = None
    method: Optional[str] = None
    secure: bool = False
    options: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.epsilon is not None:
            V.check_scalar(self.epsilon, V.EPSILON)
        if self.delta is not None:
            V.check_scalar(self.delta, V.DELTA)
        for name in ("sensitivity", "l2_sensitivity", "l1_sensitivity"):
            if getattr(self, name) is not None:
                V.check_scalar(getattr(self, name), V.Domain(name, 0.0, math.inf))
        _sensitivities(self.sensitivity, self.norm, self.l2_sensitivity, self.l1_sensitivity)
        for name in ("mechanism", "method"):
            if getattr(self, name) is not None and not isinstance(getattr(self, name), str):
                raise ValueError(f"{name} must be a string or None; got {getattr(self, name)!r}")
        if not isinstance(self.secure, bool):
            raise ValueError(f"secure must be True or False; got {self.secure!r}")
        if not isinstance(self.options, Mapping) or not all(isinstance(k, str) for k in self.options):
            raise ValueError(f"options must be a mapping of keyword names to values; got {self.options!r}")
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))  # read-only, as the rest


#: a float sampler draws from uniforms on a grid of 2^-53: events rarer than this it cannot produce
FLOAT_RESOLUTION = 2.0**-53


def _noise(cal: Calibration, K: int, rng: RandomState) -> np.ndarray:
    """K i.i.d. draws of the calibrated noise (the one place a secure sampler will branch in).

    A pure-DP guarantee (delta = 0) rests on events of every probability: the output must land
    beyond one sensitivity from the true value with probability ~e^-eps (times the density's
    ratio), never exactly 0.  Where P(T > Delta) is below the float sampler's resolution
    (:data:`FLOAT_RESOLUTION`), no float draw gets there and the output shows the input: refused
    (docs/security.md), with the exact lattice sampler as the alternative.
    """
    noise = cal.mechanism
    if cal.achieved_delta == 0.0 and float(noise.sf(cal.sensitivity)) < FLOAT_RESOLUTION:
        raise ValueError(
            f"epsilon={cal.epsilon!r} is too large for a floating-point sampler of pure-DP noise: {noise!r} exceeds the "
            f"sensitivity {cal.sensitivity!r} with probability {float(noise.sf(cal.sensitivity)):.3g} < 2^-53, which no "
            f"float draw realises, so the output would reveal the input (docs/security.md). Use secure=True (exact "
            f"lattice noise, integer arithmetic) or a smaller epsilon")
    return np.asarray(noise.rvs(K, random_state=rng), dtype=float).reshape(K)


@config_signature(ReleaseConfig)
def release(
    value: ArrayLike,
    epsilon: Optional[float] = UNSET,
    delta: Optional[float] = UNSET,
    sensitivity: Optional[float] = UNSET,
    norm: str = UNSET,
    mechanism: Optional[str] = UNSET,
    rng: RandomState = None,
    *,
    config: Optional[ReleaseConfig] = None,
    l2_sensitivity: Optional[float] = UNSET,
    l1_sensitivity: Optional[float] = UNSET,
    method: Optional[str] = UNSET,
    calibration: Optional[Calibration] = None,
    secure: bool = UNSET,
    **options: Any,
) -> Release:
    """Release ``value + noise`` with (epsilon, delta)-DP noise calibrated for its dimension and norm.

    The calibration settings come either as arguments or as one :class:`ReleaseConfig`
    (``config=``), not both: an argument passed together with ``config`` raises ``ValueError``
    naming it.  ``value``, ``rng`` and ``calibration`` are always arguments.

    Parameters
    ----------
    value : float or 1-D array of K floats
        The query answer (finite).  Other shapes raise ``ValueError``.
    config : ReleaseConfig, optional
        All the settings below except ``rng`` and ``calibration``.
    epsilon, delta : float
        The guarantee (required unless ``calibration`` is given; then, if given, the
        calibration must meet them).
    sensitivity : float > 0, optional
        The query's sensitivity in the norm ``norm``: ``"linf"`` (per coordinate, the
        default), ``"l2"`` or ``"l1"``.  ``l2_sensitivity`` / ``l1_sensitivity`` add further
        bounds (the sensitivity set is the intersection, see :func:`fhsym.calibrate`).  One
        of them is required unless ``calibration`` is given.
    mechanism : str, optional
        The noise (default ``"flipped_huber"``); see :func:`fhsym.calibrate`.
    rng : None, int, numpy Generator or RandomState
        The random source (None: fresh OS entropy).
    method, **options
        Passed to :func:`fhsym.calibrate` (e.g. ``method="sufficient"`` in K dimensions).
    calibration : Calibration, optional
        A calibration made earlier (to release many values with one calibration).  It must
        be for ``dim = K`` and cover the given sensitivity set; ``mechanism``, ``method``
        and options must not be given with it.
    secure : bool
        False (default): float noise from the ziggurat sampler (fast; its low-order bits can leak the
        value, Mironov 2012, see docs/security.md).  True: the exact lattice mechanism -- the value is
        snapped to the lattice ``step`` * Z (``step=`` is required; the sensitivity must be a multiple of
        it), and discrete flipped Huber noise is drawn with integer arithmetic only, from the operating
        system's CSPRNG unless ``rng`` is given (a seed is for tests only).  One number per call.

    Returns
    -------
    Release
        ``.value`` (float for a scalar, array for a vector) and ``.calibration``.

    Examples
    --------
    >>> import numpy as np, fhsym
    >>> r = fhsym.release(np.array([3.0, 1.0, 2.0]), 1.0, 1e-6, sensitivity=1.0, norm="l2",
    ...                   mechanism="gaussian", rng=0)
    >>> r.value.shape, r.calibration.dim, r.calibration.l2_sensitivity
    ((3,), 3, 1.0)
    >>> type(fhsym.release(5.0, 1.0, 1e-6, sensitivity=1.0, rng=0).value)
    <class 'float'>
    """
    if config is not None and options:
        raise ValueError(f"release: {sorted(options)[0]}= was passed together with config=; put it in "
                         "config.options instead so that no argument is ignored")
    cfg = resolve_config(ReleaseConfig, config, dict(
        epsilon=epsilon, delta=delta, sensitivity=sensitivity, norm=norm, mechanism=mechanism,
        l2_sensitivity=l2_sensitivity, l1_sensitivity=l1_sensitivity, method=method, secure=secure,
        options=options if options else UNSET), "release")
    epsilon, delta, sensitivity, norm, mechanism = cfg.epsilon, cfg.delta, cfg.sensitivity, cfg.norm, cfg.mechanism
    l2_sensitivity, l1_sensitivity, method, secure = cfg.l2_sensitivity, cfg.l1_sensitivity, cfg.method, cfg.secure
    options = dict(cfg.options)
    x = _query(value)
    K = x.size
    if not isinstance(secure, bool):
        raise ValueError(f"secure must be True or False; got {secure!r}")
    lattice = DiscreteFlippedHuber.name
    if secure:
        if K != 1:
            raise ValueError(f"secure=True releases one number per call (the exact lattice mechanism is calibrated in "
                             f"one dimension); got a value with {K} coordinates")
        if mechanism not in (None, lattice):
            raise ValueError(f"secure=True uses mechanism {lattice!r} (exact lattice noise); got {mechanism!r}")
        mechanism = None if calibration is not None else lattice
    elif "step" in options or mechanism == lattice or getattr(getattr(calibration, "mechanism", None), "name", None) == lattice:
        raise ValueError(f"the lattice mechanism (step=, mechanism={lattice!r}) is released with secure=True "
                         "(the value snapped to the lattice, exact noise); with secure=False it is not used")
    if not secure:  # the exact sampler takes rng as it is: None means the OS CSPRNG there
        try:
            rng = as_generator(rng)
        except ValueError:
            raise ValueError(f"rng must be None, an int seed, a numpy Generator or RandomState; got {rng!r}") from None
    sens = _sensitivities(sensitivity, norm, l2_sensitivity, l1_sensitivity)
    if calibration is None:
        if epsilon is None or delta is None:
            raise ValueError("epsilon and delta are required (or pass calibration=)")
        if all(v is None for v in sens.values()):
            raise ValueError("the query's sensitivity is required: give sensitivity= (with norm=) or "
                             "l2_sensitivity= / l1_sensitivity=")
        cal = calibrate(epsilon, delta, dim=K, method="auto" if method is None else method,
                        mechanism=FlippedHuber.name if mechanism is None else mechanism, sensitivity=sens["sensitivity"],
                        l2_sensitivity=sens["l2_sensitivity"], l1_sensitivity=sens["l1_sensitivity"], **options)
    else:
        if not isinstance(calibration, Calibration):
            raise ValueError(f"calibration must be a fhsym.Calibration; got {type(calibration).__name__}")
        unused = {k: v for k, v in (("mechanism", mechanism), ("method", method)) if v is not None}
        unused.update(options)
        if unused.get("mechanism") == calibration.mechanism.name:
            unused.pop("mechanism")
        if unused:
            raise ValueError(f"{sorted(unused)} cannot be used with calibration= (the calibration fixes the noise)")
        if secure and calibration.mechanism.name != lattice:
            raise ValueError(f"secure=True with calibration= needs a calibration of mechanism {lattice!r} "
                             f"(fhsym.calibrate(..., mechanism={lattice!r}, step=...))")
        _check_covers(calibration, K, sens, epsilon, delta)
        cal = calibration
    if secure:  # snap to the lattice, add exact integer-only noise; one rounding of k * step at the very end
        noise: Any = cal.mechanism  # a DiscreteFlippedHuber (not a NoiseDistribution: it lives on a lattice)
        k = lattice_index(float(x[0]), noise.step) + int(noise.rvs(None, random_state=rng, output="index"))
        return Release(float(Fraction(k) * Fraction(noise.step)), cal, lattice_index=k)
    noisy = x + _noise(cal, K, rng)
    out: Union[float, np.ndarray] = float(noisy[0]) if np.ndim(value) == 0 else noisy
    return Release(out, cal)

