"""fhsym: the flipped Huber noise mechanism for differential privacy.

Reference implementation of Muthukrishnan & Kalyani, *Grafting Laplace and
Gaussian distributions: a new noise mechanism for differential privacy*:
symbolic derivations (:mod:`fhsym.symbolic`, ``proofs/``), generated stable
numerics (:mod:`fhsym._generated`) and the numeric API exported here.
"""

from .calibration import Calibration, calibrate, gaussian_dominance
from .certify import certified_profile, is_private
from . import kdim, mechanisms
from .kdim import PrivacyLossDistribution, kdim_privacy_profile, zcdp_to_dp
from .distribution import FlippedHuber
from .privacy_profile import (
    PROFILE_RTOL,
    centered_privacy_loss,
    epsilon_for_delta,
    log_privacy_profile,
    privacy_loss,
    privacy_profile,
)

__version__ = "0.1.0"

__all__ = [
    "FlippedHuber",
    "privacy_profile",
    "log_privacy_profile",
    "epsilon_for_delta",
    "privacy_loss",
    "centered_privacy_loss",
    "PROFILE_RTOL",
    "calibrate",
    "Calibration",
    "gaussian_dominance",
    "certified_profile",
    "is_private",
    "kdim",
    "mechanisms",
    "PrivacyLossDistribution",
    "kdim_privacy_profile",
    "zcdp_to_dp",
    "__version__",
]
