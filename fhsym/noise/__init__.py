"""Noise distributions: one base class and every noise law of fhsym.

:class:`NoiseDistribution` fixes the API (scipy.stats names plus the privacy profile);
:class:`FlippedHuber` and the comparison mechanisms :class:`Gaussian`, :class:`Laplace`,
:class:`TruncatedLaplace`, :class:`Staircase` and :class:`OSGT` are its subclasses, each with
its exact one-dimensional privacy profile; so is :class:`PiecewiseUniform`, the noise at the upper
end of :func:`fhsym.optimal_variance` (not yet a ``mechanism=`` of :func:`fhsym.calibrate`).
"""

from .base import NoiseDistribution
from .flipped_huber import FlippedHuber
from .gaussian import Gaussian, GaussianMechanism
from .laplace import Laplace, LaplaceMechanism
from .osgt import OSGT, OSGTMechanism
from .piecewise_uniform import PiecewiseUniform
from .staircase import Staircase, StaircaseMechanism, staircase_optimal_gamma
from .truncated_laplace import TruncatedLaplace, TruncatedLaplaceMechanism

#: every noise law by its key (the ``mechanism=`` argument of :func:`fhsym.calibrate`)
NOISE_CLASSES = {cls.name: cls for cls in (FlippedHuber, Gaussian, Laplace, TruncatedLaplace, Staircase, OSGT)}

__all__ = [
    "NOISE_CLASSES",
    "NoiseDistribution",
    "FlippedHuber",
    "Gaussian",
    "Laplace",
    "TruncatedLaplace",
    "Staircase",
    "OSGT",
    "PiecewiseUniform",
    "staircase_optimal_gamma",
    "GaussianMechanism",
    "LaplaceMechanism",
    "OSGTMechanism",
    "StaircaseMechanism",
    "TruncatedLaplaceMechanism",
]
