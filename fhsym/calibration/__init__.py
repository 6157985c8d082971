"""Certified minimum-variance calibration: one entry point, one result type, one certification policy.

* :func:`calibrate` (:mod:`~fhsym.calibration.api`) -- every mechanism, every dimension;
* :class:`Calibration` (:mod:`~fhsym.calibration.result`) -- the result, the same fields everywhere;
* :mod:`~fhsym.calibration.calibrator` -- the one generic calibrator over (noise family, claim);
* :mod:`~fhsym.calibration.search` -- its searches (1-D vectorised, K-fold);
* :mod:`~fhsym.calibration.engine` -- the one "move to the safe side until certified" policy;
* :mod:`~fhsym.calibration.verify` -- re-checking a certificate through the same claims.
"""

from .._core.search import CalibrationError
from .api import MECHANISMS, CalibrateConfig, calibrate
from .result import Calibration

__all__ = ["MECHANISMS", "CalibrateConfig", "Calibration", "CalibrationError", "calibrate"]
