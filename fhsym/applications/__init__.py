"""Applications of the flipped Huber mechanism (mission row H).

* :mod:`fhsym.applications.dpcd` -- differentially private coordinate descent (paper
  Appendix D, Algorithm 3) for least squares and logistic regression with l1 / l2
  regularisation.
* :mod:`fhsym.applications.accounting` -- privacy accounting of a whole DP-CD run and
  certified noise calibration, Gaussian or flipped Huber, under zCDP (the paper's) or by
  exact composition of privacy loss distributions (:mod:`fhsym.accounting.pld`).

>>> import numpy as np
>>> from fhsym.applications import dp_coordinate_descent
>>> rng = np.random.default_rng(0)
>>> X = rng.standard_normal((500, 3)); y = X @ np.array([1.0, -0.5, 0.0]) + 0.1 * rng.standard_normal(500)
>>> res = dp_coordinate_descent(X, y, loss="squared", regularizer="l2", lam=1e-3, n_passes=2,
...                             step=0.5, clip=2.0, epsilon=1.0, delta=1e-6, mechanism="gaussian",
...                             accountant="pld", smoothness=np.ones(3), random_state=1)
>>> bool(res.privacy.ok and res.privacy.delta <= 1e-6)
True
"""

from ..accounting.dpcd import ACCOUNTANTS, MECHANISMS, RunPrivacy, account_run, run_pld, run_zcdp
from .dpcd_noise import calibrate_dpcd_noise, dpcd_noise_std, dpcd_parameters, dpcd_sample, noise_variance_factor
from ..calibration.result import Calibration as NoiseCalibration  # fhsym 0.1 name: the one Calibration
from .dpcd import (
    LOSSES,
    REGULARIZERS,
    DPCDConfig,
    DPCDResult,
    clipped_coordinate_gradient,
    clipping_thresholds,
    coordinate_descent,
    coordinate_sensitivities,
    coordinate_smoothness,
    dp_coordinate_descent,
    objective,
    per_sample_coordinate_gradients,
    prox,
)

__all__ = [
    "ACCOUNTANTS",
    "MECHANISMS",
    "LOSSES",
    "REGULARIZERS",
    "NoiseCalibration",
    "RunPrivacy",
    "DPCDResult",
    "account_run",
    "calibrate_dpcd_noise",
    "dpcd_noise_std",
    "dpcd_parameters",
    "dpcd_sample",
    "noise_variance_factor",
    "run_pld",
    "run_zcdp",
    "clipped_coordinate_gradient",
    "clipping_thresholds",
    "coordinate_descent",
    "coordinate_sensitivities",
    "coordinate_smoothness",
    "DPCDConfig",
    "dp_coordinate_descent",
    "objective",
    "per_sample_coordinate_gradients",
    "prox",
]
