"""The law contract: every hook the claims and the calibrator read of a noise law, as typed protocols.

A noise law states its mechanism facts through the hooks of :data:`fhsym.noise.base.PUBLIC_HOOKS`;
:mod:`fhsym.privacy.claims`, :mod:`fhsym.accounting.claims` and :mod:`fhsym.calibration` read them
through these protocols, never by ``getattr``/``hasattr`` on a name:

* :class:`NoiseLaw` -- what every law instance has, continuous or on a lattice (the common root
  :class:`~fhsym.noise.parametrised.Parametrised` gives the defaults: "no such fact");
* :class:`ContinuousLaw` -- a law with a continuous 1-D privacy profile (:class:`~fhsym.NoiseDistribution`);
* :class:`LatticeLaw` -- a law on ``step * Z`` (:class:`~fhsym.noise.lattice.LatticeNoise`): its profile's
  enclosure and the sensitivity in lattice steps;
* :class:`LawClass` -- the class-level hooks the calibrator reads (its plans are chosen by them).

:func:`continuous` and :func:`on_lattice` narrow a :class:`NoiseLaw` by its declared ``lattice`` flag
(``ValueError`` naming the law otherwise); :func:`declares` says whether a law overrides a hook's
default (the calibrator offers a plan only to a law that declares what the plan needs).
``tests/test_calibration_plans.py`` checks that every registered law (and every declared example law) has every
member of its protocols and that the protocols name every public hook.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Dict, List, Mapping, Optional, Protocol, Tuple, cast, runtime_checkable

import numpy as np

from .._core.arb import Enclosure
from .._core.limits import Cost
from .family import Family
from .parametrised import Parametrised

__all__ = ["NoiseLaw", "ContinuousLaw", "LatticeLaw", "LawClass", "Maker", "continuous", "on_lattice", "declares"]

#: a law's closed-form calibration: (scale -> noise, the proposed scale); more scale is more noise
Maker = Tuple[Callable[[float], Any], float]


@runtime_checkable
class NoiseLaw(Protocol):
    """What the claims read of every noise law instance (the defaults of :class:`Parametrised` answer "none")."""

    @property
    def name(self) -> str: ...

    @property
    def log_concave(self) -> bool: ...

    @property
    def lattice(self) -> bool: ...

    @property
    def parameters(self) -> Dict[str, Any]: ...

    @property
    def parameter_shape(self) -> Tuple[int, ...]: ...

    def var(self) -> float: ...

    def gaussian_sigma(self) -> Optional[float]: ...

    def pure_loss(self, dim: int, sensitivity: float, l2_sensitivity: float,
                  l1_sensitivity: float) -> Optional[Fraction]: ...

    def zcdp_parameters(self, sensitivity: float) -> Optional[Tuple[float, float]]: ...


@runtime_checkable
class ContinuousLaw(NoiseLaw, Protocol):
    """A law with a continuous 1-D privacy profile: the hooks of the profile and PLD claims."""

    @property
    def profile_rtol(self) -> float: ...

    def privacy_profile(self, epsilon: Any, sensitivity: Any = 1.0) -> Any: ...

    def profile_enclosure(self, epsilon: float, sensitivity: float = 1.0) -> Enclosure: ...

    def worst_profile_enclosure(self, epsilon: float, sensitivity: float = 1.0) -> Enclosure: ...

    def profile_cost(self, epsilon: float, sensitivity: float = 1.0) -> Cost: ...

    def profile_upper_ends(self, epsilons: Any, sensitivity: float) -> List[Tuple[int, int]]: ...

    def worst_profile_upper_ends(self, epsilons: Any, sensitivity: float) -> List[Tuple[int, int]]: ...

    def loss_atoms(self, sensitivity: float) -> Tuple[Fraction, ...]: ...

    def loss_range(self, sensitivity: float) -> Optional[Fraction]: ...

    def pld_profile(self, sensitivity: float, certified: bool = True) -> Callable[[np.ndarray], np.ndarray]: ...

    @classmethod
    def from_family(cls, shape: float, scale: float) -> Any: ...

    @property
    def family_shape(self) -> float: ...

    @property
    def family_scale(self) -> float: ...


@runtime_checkable
class LatticeLaw(NoiseLaw, Protocol):
    """A law on ``step * Z``: the hooks of the ``"profile-lattice"`` claim and of the calibrator's lattice plan."""

    @property
    def step(self) -> float: ...

    def lattice_profile_enclosure(self, epsilon: float, sensitivity: Any) -> Tuple[float, float, int]: ...

    @classmethod
    def lattice_steps(cls, sensitivity: Any, step: float) -> int: ...  # the calibrator's lattice plan records it


class LawClass(Protocol):
    """The class-level hooks of a noise law that the calibrator reads (:mod:`fhsym.calibration.plans`)."""

    @property
    def name(self) -> str: ...

    @property
    def calibration_methods(self) -> Tuple[str, ...]: ...

    def from_parameters(self, parameters: Mapping[str, Any]) -> NoiseLaw: ...

    @property
    def solver_calibrated(self) -> bool: ...

    @property
    def log_concave(self) -> bool: ...

    @property
    def lattice(self) -> bool: ...

    @property
    def profile_rtol(self) -> float: ...

    # the hooks below take the law's options by keyword: their signatures differ per law (any arguments here)
    def family(self, *args: Any, **options: Any) -> Family: ...

    def pure_calibration(self, *args: Any, **options: Any) -> Optional[Maker]: ...

    def sup_calibration(self, *args: Any, **options: Any) -> Optional[Maker]: ...

    def closed_calibration(self, epsilon: float, delta: float, sensitivity: float) -> Optional[Maker]: ...


def continuous(noise: NoiseLaw, what: str) -> ContinuousLaw:
    """``noise`` as a law with a continuous profile; ``ValueError`` (``what`` needs one) for a lattice law."""
    if noise.lattice:
        raise ValueError(f"{what} needs a noise law with a continuous profile; got {noise!r}")
    return cast(ContinuousLaw, noise)


def on_lattice(noise: NoiseLaw, what: str) -> LatticeLaw:
    """``noise`` as a lattice law; ``ValueError`` (``what`` is for lattice noise) otherwise."""
    if not noise.lattice:
        raise ValueError(f"{what} is for lattice noise; got {noise!r}")
    return cast(LatticeLaw, noise)


def declares(cls: LawClass, hook: str) -> bool:
    """Whether the law ``cls`` overrides the default of ``hook`` (:class:`Parametrised` gives "none").

    >>> import fhsym
    >>> declares(fhsym.Gaussian, "zcdp_parameters"), declares(fhsym.Laplace, "zcdp_parameters")
    (True, False)
    """
    for k in cast(type, cls).__mro__:
        if hook in vars(k):
            return k is not Parametrised
    raise ValueError(f"{hook!r} is not a hook of the law contract")  # pragma: no cover - a typo in fhsym
