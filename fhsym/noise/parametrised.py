"""What every noise law of fhsym has, continuous or on a lattice: its key, its parameters, its mechanism facts.

:class:`Parametrised` is the common root of :class:`~fhsym.NoiseDistribution` (continuous laws) and
:class:`~fhsym.noise.lattice.LatticeNoise` (laws on step*Z with exact samplers): the parameters
declared once with their domains (:class:`fhsym._core.domains.Domain`), the value semantics, and the
default answers to the questions the claims and the calibrator ask (:mod:`fhsym.privacy.claims`,
:mod:`fhsym.calibration.calibrator`), which a law overrides where its answer differs.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, ClassVar, Dict, Mapping, Optional, Tuple, TypeVar

import numpy as np

from .._core import domains as V

__all__ = ["Parametrised"]

P = TypeVar("P", bound="Parametrised")


def _value(v: Any, domain: V.Domain, arrays: bool) -> Any:
    if not arrays or np.ndim(v) == 0:  # a scalar: also refused when an integer would round to another float
        return V.check_scalar(v, domain)
    return V.check_array(v, domain)


class Parametrised:
    """A noise law with named parameters: ``name``, ``parameter_domains``, ``parameters``, ``from_parameters``.

    >>> import fhsym
    >>> fhsym.Gaussian.from_parameters({"sigma": 2.0}) == fhsym.Gaussian(2.0)
    True
    """

    #: the mechanism's key in :func:`fhsym.calibrate` and in certificates
    name: ClassVar[str] = ""
    #: the law's name in prose (tables, the CLI)
    display_name: ClassVar[str] = ""
    #: the parameters in constructor order, each with its domain
    parameter_domains: ClassVar[Tuple[V.Domain, ...]] = ()
    #: symmetric log-concave density: the location family has a monotone likelihood ratio, so over the
    #: box ||d||_inf <= Delta a K-fold (or T-fold) release is least private at the corner (Delta, ..., Delta)
    #: (Dong, Roth & Su 2022, Lemma C.3); K-fold claims are made only for such noise
    log_concave: ClassVar[bool] = False
    #: noise on a lattice step*Z (claim ``"profile-lattice"``)
    lattice: ClassVar[bool] = False
    #: the parameters may be arrays (one law per element, broadcast as in scipy.stats)
    broadcast_parameters: ClassVar[bool] = False
    #: the ``method=`` values :func:`fhsym.calibrate` accepts for this law
    calibration_methods: ClassVar[Tuple[str, ...]] = ("auto", "exact")

    #: calibrated by its own solver (:data:`fhsym.calibration.plans.SOLVER`) instead of a search over a scale
    #: family
    solver_calibrated: ClassVar[bool] = False
    #: relative error of the float privacy profile where it feeds a float PLD or a search (the calibrator aims that
    #: much below the target, so that the proven bound passes at once)
    profile_rtol: ClassVar[float] = 1e-13

    @property
    def parameters(self) -> Dict[str, Any]:
        """The parameters as a dict (constructor order), e.g. ``{'alpha': 1.0, 'gamma': 2.0}``."""
        return {d.name: getattr(self, d.name) for d in self.parameter_domains}

    @property
    def parameter_shape(self) -> Tuple[int, ...]:
        """The broadcast shape of the parameters: ``()`` for one law (a law with array parameters overrides it)."""
        return ()

    @classmethod
    def from_parameters(cls: "type[P]", parameters: Mapping[str, Any]) -> P:
        """The law with these parameters; unknown or missing names raise ``ValueError`` (the constructor checks
        every domain)."""
        names = [d.name for d in cls.parameter_domains]
        extra = sorted(set(parameters) - set(names))
        missing = [n for n in names if n not in parameters]
        if extra or missing:
            raise ValueError(f"{cls.__name__} takes parameters {names}; got {sorted(parameters)}")
        # every value a number (or, for laws with broadcast parameters, an array of numbers) in its domain: a
        # constructor's optional default, e.g. None, is not a parameter value
        return cls(**{d.name: _value(parameters[d.name], d, cls.broadcast_parameters) for d in cls.parameter_domains})

    @classmethod
    def typical_parameters(cls, rng: np.random.Generator) -> Dict[str, Any]:
        """Parameters drawn from the typical ranges of the law's domains (``Domain.typical``: log-uniform where the
        range is positive, else uniform): what a test of every registered law builds its laws from
        (``cls.from_parameters(cls.typical_parameters(rng))``).  ``ValueError`` naming a domain without one.

        >>> import fhsym
        >>> p = fhsym.Gaussian.typical_parameters(np.random.default_rng(0))
        >>> sorted(p), 0.5 <= p["sigma"] <= 3.0
        (['sigma'], True)
        """
        out: Dict[str, Any] = {}
        for d in cls.parameter_domains:
            if d.typical is None:
                raise ValueError(f"{cls.__name__}: parameter {d.name} has no typical range (Domain.typical)")
            lo, hi = d.typical
            out[d.name] = float(np.exp(rng.uniform(np.log(lo), np.log(hi))) if lo > 0 else rng.uniform(lo, hi))
        return out

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.parameters.items())
        return f"{type(self).__name__}({args})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.parameters == other.parameters

    def __hash__(self) -> int:
        return hash((type(self), tuple(self.parameters.items())))

    # ------------------------------------------------ mechanism facts (privacy hooks)
    def gaussian_sigma(self) -> Optional[float]:
        """sigma when this noise law is the Gaussian N(0, sigma^2), else None.

        The K-fold (and T-fold) profile of Gaussian noise depends on the difference vector through
        ||d||_2 only (Balle & Wang 2018): the l2-ball claim (``"profile-1d-l2"``) applies to it.
        """
        return None

    def pure_loss(self, dim: int, sensitivity: float, l2_sensitivity: float, l1_sensitivity: float) -> Optional[Fraction]:
        """An exact upper bound of the privacy loss of one release of ``dim`` i.i.d. coordinates over the set
        {||d||_inf <= sensitivity, ||d||_2 <= l2, ||d||_1 <= l1}, when it is bounded (pure DP); else None.

        The ``"pure"`` claim compares it, times the number of releases, with epsilon in exact rationals.
        """
        return None

    def zcdp_parameters(self, sensitivity: float) -> Optional[Tuple[float, float]]:
        """(xi, eta) with which one release at ``sensitivity`` is (xi, eta)-zCDP, if the law has them; else None."""
        return None

    @classmethod
    def pure_calibration(cls, epsilon: float, dim: int, sensitivity: float, l2_sensitivity: float,
                         l1_sensitivity: float, compositions: int, **options: Any
                         ) -> Optional[Tuple[Callable[[float], Any], float]]:
        """For a pure-DP law: (scale -> noise, the least scale by the closed form) whose ``compositions`` releases
        are epsilon-DP over the set (the ``"pure"`` claim re-checks it exactly); None if the law is not pure DP."""
        return None

    @classmethod
    def closed_calibration(cls, epsilon: float, delta: float, sensitivity: float
                           ) -> Optional[Tuple[Callable[[float], Any], float]]:
        """For a law with a closed-form one-release (eps, delta) design: (scale -> noise, the designed scale), more
        scale adding noise, certified by the ``"profile-1d"`` claim at the returned floats; None if the law has none."""
        return None

    @classmethod
    def sup_calibration(cls, epsilon: float, delta: float, folds: int, sensitivity: float, **options: Any
                        ) -> Optional[Tuple[Callable[[float], Any], float]]:
        """For a law whose ``folds`` (>= 2) compositions over the box of half-width ``sensitivity`` are certified by
        the sup of its profile over the shifts (claim ``"pld-kfold-sup"``, hook ``worst_profile_upper_ends``), not by
        the box corner: (scale -> noise, the least scale by the law's own float bound of that composition); None if
        the law has no such search (a log-concave law is calibrated at the corner, claim ``"pld-kfold"``)."""
        return None
