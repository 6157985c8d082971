"""Certified minimum-variance calibration: one entry point, one result type, one certification policy.

* :func:`calibrate` (:mod:`~fhsym.calibration.api`) -- every mechanism, every dimension;
* :class:`Calibration` (:mod:`~fhsym.calibration.result`) -- the result, the same fields everywhere;
* :mod:`~fhsym.calibration.engine` -- the one "move to the safe side until certified" policy;
* the searches: :mod:`~fhsym.calibration.flipped_huber` (1-D, Theorem 3),
  :mod:`~fhsym.calibration.kdim` (K dimensions), :mod:`~fhsym.calibration.mechanisms`
  (Gaussian, Laplace, truncated Laplace, staircase, OSGT).
"""

from .._core.search import CalibrationError
from .api import MECHANISMS, CalibrateConfig, calibrate
from .flipped_huber import calibrate_flipped_huber, gaussian_dominance
from .result import Calibration

__all__ = ["MECHANISMS", "CalibrateConfig", "Calibration", "CalibrationError", "calibrate", "calibrate_flipped_huber", "gaussian_dominance"]
