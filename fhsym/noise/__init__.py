"""Noise distributions: one base class and every noise law of fhsym.

:class:`NoiseDistribution` fixes the API (scipy.stats names plus the privacy profile);
:class:`FlippedHuber` and the comparison mechanisms :class:`Gaussian`, :class:`Laplace`,
:class:`TruncatedLaplace`, :class:`Staircase` and :class:`OSGT` are its subclasses, each with
its exact one-dimensional privacy profile; so is :class:`PiecewiseUniform`, the noise at the upper
end of :func:`fhsym.optimal_variance` (``mechanism="piecewise_uniform"`` of :func:`fhsym.calibrate`), and
:class:`TruncatedStaircase`, the closed-form (eps, delta) law near that optimum.
"""

from typing import Any, Dict

from .base import NoiseDistribution
from .flipped_huber import FlippedHuber
from .gaussian import Gaussian
from .laplace import Laplace
from .osgt import OSGT
from .staircase import Staircase, staircase_optimal_gamma
from .truncated_laplace import TruncatedLaplace
from .truncated_staircase import TruncatedStaircase
from .discrete_flipped_huber import DiscreteFlippedHuber
from .piecewise_uniform import PiecewiseUniform

#: every noise law by its key (the ``mechanism=`` argument of :func:`fhsym.calibrate`)
NOISE_CLASSES: Dict[str, Any] = {cls.name: cls for cls in (FlippedHuber, Gaussian, Laplace, TruncatedLaplace, Staircase, OSGT,
                                          DiscreteFlippedHuber, PiecewiseUniform, TruncatedStaircase)}


def noise_class(name: object) -> Any:
    """The noise law registered under ``name`` (``ValueError`` naming the known ones otherwise).

    >>> noise_class("gaussian").__name__
    'Gaussian'
    """
    if not isinstance(name, str) or name not in NOISE_CLASSES:
        raise ValueError(f"mechanism must be one of {sorted(NOISE_CLASSES)}; got {name!r}")
    return NOISE_CLASSES[name]

__all__ = [
    "NOISE_CLASSES",
    "noise_class",
    "NoiseDistribution",
    "DiscreteFlippedHuber",
    "FlippedHuber",
    "Gaussian",
    "Laplace",
    "TruncatedLaplace",
    "TruncatedStaircase",
    "Staircase",
    "OSGT",
    "PiecewiseUniform",
    "staircase_optimal_gamma",
]
