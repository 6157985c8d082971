"""Deprecated: old name of the comparison mechanisms (fhsym 0.1); they live in :mod:`fhsym.noise` and
:mod:`fhsym.calibration.mechanisms`.

Gaussian, Laplace, OSGT, truncated Laplace and staircase noise with their exact profiles and
certified calibrations.  See ``docs/mechanisms.md`` for formulas, sources and measured accuracy.
"""

from .._core import compat as _compat
from ..calibration.mechanisms import (
    calibrate_gaussian,
    calibrate_laplace,
    calibrate_osgt,
    calibrate_staircase,
    calibrate_truncated_laplace,
)
from ..calibration.result import Calibration
from ..noise import (
    GaussianMechanism,
    LaplaceMechanism,
    OSGTMechanism,
    StaircaseMechanism,
    TruncatedLaplaceMechanism,
    staircase_optimal_gamma,
)
from ..privacy.bounds import FLOAT_PROFILE_RTOL as CERTIFICATION_MARGIN

_compat.warn_package(__name__)


# fhsym.mechanisms.gaussian and the other old module paths as attributes (deprecated)
__getattr__ = _compat.module_getattr(__name__)


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
