"""Certified minimum-variance calibration: one entry point, one result type, one certification policy.

* :func:`calibrate` (:mod:`~fhsym.calibration.api`) -- every mechanism, every dimension;
* :class:`Calibration` (:mod:`~fhsym.calibration.result`) -- the result, the same fields everywhere;
* :mod:`~fhsym.calibration.calibrator` -- the one generic calibrator over (noise law, claim);
* :mod:`~fhsym.calibration.plans` -- its strategies as data (one :class:`~fhsym.calibration.plans.Plan` each);
* :mod:`~fhsym.calibration.search` -- its searches over a family (1-D vectorised, per shape);
* :mod:`~fhsym.calibration.search_kfold` -- its K-fold searches (the float PLD bound, then the certificate's lattices);
* :mod:`~fhsym.calibration.engine` -- the one "move to the safe side until certified" policy;
* :mod:`~fhsym.calibration.verify` -- re-checking a certificate through the same claims.
"""

from .._core.search import CalibrationError
from .api import MECHANISMS, CalibrateConfig, calibrate
from .result import Calibration

__all__ = ["MECHANISMS", "CalibrateConfig", "Calibration", "CalibrationError", "calibrate"]
