"""The comparison mechanisms' calibrations as the tests call them: each is ``fhsym.calibrate`` with its ``mechanism=``.

(fhsym has one calibration entry point; these names only keep the tests short.)  The paper's box-constrained OSGT
protocol is :func:`proofs.osgt_box.calibrate_osgt_box`.
"""

from __future__ import annotations

import fhsym
from proofs.osgt_box import calibrate_osgt_box


def calibrate_gaussian(epsilon, delta, sensitivity=1.0):
    return fhsym.calibrate(epsilon, delta, sensitivity=sensitivity, mechanism="gaussian")


def calibrate_laplace(epsilon, delta=0.0, sensitivity=1.0):
    return fhsym.calibrate(epsilon, delta, sensitivity=sensitivity, mechanism="laplace")


def calibrate_truncated_laplace(epsilon, delta, sensitivity=1.0):
    return fhsym.calibrate(epsilon, delta, sensitivity=sensitivity, mechanism="truncated_laplace")


def calibrate_staircase(epsilon, sensitivity=1.0, *, cost="variance"):
    return fhsym.calibrate(epsilon, 0.0, sensitivity=sensitivity, mechanism="staircase", cost=cost)


def calibrate_osgt(epsilon, delta, sensitivity=1.0, *, theta_max=None, box=None):
    if box is not None:
        if theta_max is not None:
            raise ValueError("theta_max is for the unconstrained calibration; got it with box=")
        return calibrate_osgt_box(epsilon, delta, box, sensitivity)
    kw = {} if theta_max is None else {"theta_max": theta_max}
    return fhsym.calibrate(epsilon, delta, sensitivity=sensitivity, mechanism="osgt", **kw)
