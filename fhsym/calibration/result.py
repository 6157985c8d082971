"""The one result type of every calibration in fhsym."""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any, Dict

from ..noise.base import NoiseDistribution
from ..privacy.certificate import Certificate

__all__ = ["Calibration"]


@dataclass(frozen=True)
class Calibration:
    """A certified calibration: the noise, the claim it meets and the evidence.

    The same fields mean the same thing for every mechanism and every dimension:

    Attributes
    ----------
    mechanism : NoiseDistribution
        The calibrated noise law (per coordinate; i.i.d. over ``dim`` coordinates).
    epsilon : float
        The privacy budget asked for.
    target_delta : float
        The delta asked for.
    achieved_delta : float
        A certified upper bound on delta(epsilon) at the exact returned parameters;
        ``achieved_delta <= target_delta`` always.
    sensitivity, l2_sensitivity, l1_sensitivity : float
        The sensitivity set used: every d with ||d||_inf <= sensitivity, ||d||_2 <= l2 and
        ||d||_1 <= l1 (in one dimension the three are equal).
    dim : int
        Number of coordinates.
    compositions : int
        Number of releases composed (1 for one release).
    variance : float
        Per-coordinate noise variance (the quantity minimised).
    method : str
        How the parameters were found and certified (e.g. ``"exact-1d"``, ``"kfold-pld"``, ``"pure"``).
    extra : dict
        Method-specific results (e.g. a DP-CD calibration's accountant, multiplier and shape); each
        key is also readable as an attribute.
    certificate : Certificate
        The evidence, as data (``certificate.to_json()``; re-check with
        :func:`fhsym.verify_certificate`).

    Notes
    -----
    ``cal.parameters`` is the mechanism's parameter dict, and each parameter is also an
    attribute (``cal.alpha``, ``cal.gamma`` for flipped Huber, ``cal.sigma`` for the Gaussian).

    Examples
    --------
    >>> import fhsym
    >>> cal = fhsym.calibrate(1.0, 1e-6, mechanism="gaussian")
    >>> cal.mechanism.name, sorted(cal.parameters)
    ('gaussian', ['sigma'])
    >>> cal.achieved_delta <= cal.target_delta == 1e-6
    True
    >>> cal.variance == cal.sigma ** 2
    True
    """

    mechanism: NoiseDistribution
    epsilon: float
    target_delta: float
    achieved_delta: float
    sensitivity: float
    l2_sensitivity: float
    l1_sensitivity: float
    dim: int
    variance: float
    method: str
    certificate: Certificate = field(repr=False)
    compositions: int = 1
    extra: Dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def parameters(self) -> Dict[str, float]:
        """The mechanism's parameters, e.g. ``{'alpha': ..., 'gamma': ...}``."""
        return self.mechanism.parameters

    @property
    def std(self) -> float:
        """Per-coordinate noise standard deviation, sqrt(variance)."""
        s: float = self.variance ** 0.5
        return s

    def __getattr__(self, name: str) -> Any:
        # parameters as attributes (cal.alpha, cal.sigma); only called for missing attributes
        if name.startswith("__"):
            raise AttributeError(name)
        params = object.__getattribute__(self, "mechanism").parameters
        if name in params:
            return params[name]
        extra = object.__getattribute__(self, "extra")
        if name in extra:
            return extra[name]
        raise AttributeError(f"{type(self).__name__} of {type(self.mechanism).__name__} has no attribute {name!r}")

    @property
    def delta(self) -> float:
        """Deprecated: ``target_delta`` (fhsym 0.1's ``fhsym.Calibration.delta``).

        fhsym 0.1 had two calibration types whose ``.delta`` meant opposite things (the target
        in ``fhsym.calibrate``, the achieved value in ``fhsym.mechanisms``); use
        ``target_delta`` or ``achieved_delta``.
        """
        warnings.warn("Calibration.delta is deprecated: use target_delta or achieved_delta",
                      DeprecationWarning, stacklevel=2)
        return self.target_delta

    def as_dict(self) -> Dict[str, Any]:
        """Every field but the objects, JSON-ready: the parameters are inlined."""
        return {
            "mechanism": self.mechanism.name,
            **self.parameters,
            "variance": self.variance,
            "std": self.std,
            "epsilon": self.epsilon,
            "target_delta": self.target_delta,
            "achieved_delta": self.achieved_delta,
            "sensitivity": self.sensitivity,
            "l2_sensitivity": self.l2_sensitivity,
            "l1_sensitivity": self.l1_sensitivity,
            "dim": self.dim,
            "compositions": self.compositions,
            "method": self.method,
            "certificate": self.certificate.text,
        }
