"""fhsym: the flipped Huber noise mechanism for differential privacy.

Reference implementation of Muthukrishnan & Kalyani, *Grafting Laplace and
Gaussian distributions: a new noise mechanism for differential privacy*:
symbolic derivations (:mod:`fhsym.symbolic`, ``proofs/``), generated stable
numerics (:mod:`fhsym._generated`) and the numeric API exported here.
"""

from .calibration import CalibrateConfig, Calibration, CalibrationError, calibrate, gaussian_dominance
from .privacy import *  # noqa: F401,F403  (the privacy of one release: every name of fhsym.privacy)
from .privacy import __all__ as _privacy_all
from . import accounting, calibration, noise, privacy
from .accounting import KDimPLDConfig, PrivacyLossDistribution, kdim_privacy_profile, zcdp_to_dp
from .noise import OSGT, FlippedHuber, Gaussian, Laplace, NoiseDistribution, Staircase, TruncatedLaplace
from .noise.discrete_flipped_huber import DiscreteFlippedHuber
from .privacy.certificate import Certificate
from .calibration.verify import verify_certificate
from .applications.advise import advise
from .optimum import optimal_variance

from .applications.release import Release, ReleaseConfig, release
from .applications.dpcd import DPCDConfig

from ._core.version import __version__

__all__ = [
    "NoiseDistribution",
    "DiscreteFlippedHuber",
    "FlippedHuber",
    "Gaussian",
    "Laplace",
    "TruncatedLaplace",
    "Staircase",
    "OSGT",
    "Certificate",
    "verify_certificate",
    "CalibrationError",
    *_privacy_all,  # privacy_profile, log_privacy_profile, epsilon_for_delta, privacy_loss, ... (fhsym.privacy)
    "calibrate",
    "CalibrateConfig",
    "Calibration",
    "release",
    "Release",
    "ReleaseConfig",
    "DPCDConfig",
    "gaussian_dominance",
    "advise",
    "optimal_variance",
    "accounting",
    "calibration",
    "noise",
    "privacy",
    "PrivacyLossDistribution",
    "KDimPLDConfig",
    "kdim_privacy_profile",
    "zcdp_to_dp",
    "__version__",
]
