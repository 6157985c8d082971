"""Reference implementations of existing additive noise mechanisms.

One module per mechanism; every class offers ``pdf``, ``logpdf``, ``cdf``,
``sf``, ``variance``, ``rvs``, the exact one-dimensional
``privacy_profile(epsilon, sensitivity)`` in a numerically stable form and
``centered_privacy_loss(t, d)``; every ``calibrate_*`` function returns a
certified :class:`Calibration`.  See ``docs/mechanisms.md`` for formulas,
sources and measured accuracy.
"""

from ._core import CERTIFICATION_MARGIN, Calibration
from .gaussian import GaussianMechanism, calibrate_gaussian
from .laplace import LaplaceMechanism, calibrate_laplace
from .osgt import OSGTMechanism, calibrate_osgt
from .staircase import StaircaseMechanism, calibrate_staircase, staircase_optimal_gamma
from .truncated_laplace import TruncatedLaplaceMechanism, calibrate_truncated_laplace

__all__ = [
    "CERTIFICATION_MARGIN",
    "Calibration",
    "GaussianMechanism",
    "LaplaceMechanism",
    "OSGTMechanism",
    "StaircaseMechanism",
    "TruncatedLaplaceMechanism",
    "calibrate_gaussian",
    "calibrate_laplace",
    "calibrate_osgt",
    "calibrate_staircase",
    "calibrate_truncated_laplace",
    "staircase_optimal_gamma",
]
