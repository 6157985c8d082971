"""Old home of the DP coordinate descent accounting and calibration (fhsym 0.1).

The accounting of a run from its per-coordinate noise lives in :mod:`fhsym.accounting.dpcd`; the
certified calibration of its noise in :mod:`fhsym.applications.dpcd_noise`.  ``NoiseCalibration`` is now the
one :class:`fhsym.Calibration` (``calibrate_dpcd_noise`` returns it, DP-CD specifics in ``cal.extra``).
"""

from ..accounting.dpcd import ACCOUNTANTS, MECHANISMS, RunPrivacy, account_run, run_pld, run_zcdp
from .dpcd_noise import calibrate_dpcd_noise, dpcd_noise_std, dpcd_parameters, dpcd_sample, noise_variance_factor
from ..calibration.result import Calibration as NoiseCalibration

__all__ = [
    "MECHANISMS",
    "ACCOUNTANTS",
    "NoiseCalibration",
    "RunPrivacy",
    "calibrate_dpcd_noise",
    "account_run",
    "run_zcdp",
    "run_pld",
    "noise_variance_factor",
    "dpcd_parameters",
    "dpcd_sample",
    "dpcd_noise_std",
]
