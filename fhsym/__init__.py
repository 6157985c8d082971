"""fhsym: the flipped Huber noise mechanism for differential privacy.

Reference implementation of G. Muthukrishnan and S. Kalyani, *Grafting Laplace
and Gaussian distributions: A new noise mechanism for differential privacy*
(arXiv:2212.09657):
symbolic derivations (:mod:`fhsym.symbolic`, ``proofs/``), generated stable
numerics (:mod:`fhsym._generated`) and the numeric API exported here.

The names are imported on first use (PEP 562): ``import fhsym`` costs a few
milliseconds, and ``fhsym --help`` does not load numpy, scipy or mpmath.  The
first lookup of any name below (``fhsym.calibrate``, ``fhsym.noise``, ...) loads
the whole public API at once, as ``import fhsym`` did before, so every module
reachable then (``fhsym.applications.frontier``, ...) is reachable the same way.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, List

from ._core.version import __version__

#: where each public name lives (imported on first attribute access)
_LAZY = {
    "CalibrateConfig": ".calibration", "Calibration": ".calibration", "CalibrationError": ".calibration",
    "calibrate": ".calibration", "gaussian_dominance": ".applications.dominance",
    # the privacy of one release: every name of fhsym.privacy.__all__ (tests/test_public_api.py checks they agree)
    "PROFILE_RTOL": ".privacy", "certified_profile": ".privacy", "centered_privacy_loss": ".privacy",
    "epsilon_for_delta": ".privacy", "is_private": ".privacy", "log_privacy_profile": ".privacy",
    "privacy_loss": ".privacy", "privacy_profile": ".privacy",
    "KDimPLDConfig": ".accounting", "PrivacyLossDistribution": ".accounting", "kdim_privacy_profile": ".accounting",
    "zcdp_to_dp": ".accounting",
    "OSGT": ".noise", "FlippedHuber": ".noise", "Gaussian": ".noise", "Laplace": ".noise",
    "NoiseDistribution": ".noise", "Staircase": ".noise", "TruncatedLaplace": ".noise", "TruncatedStaircase": ".noise",
    "PiecewiseUniform": ".noise",
    "DiscreteFlippedHuber": ".noise.discrete_flipped_huber",
    "Certificate": ".privacy.certificate",
    "verify_certificate": ".calibration.verify",
    "advise": ".applications.advise",
    "Release": ".applications.release", "ReleaseConfig": ".applications.release", "release": ".applications.release",
    "DPCDConfig": ".applications.dpcd",
    "optimal_variance": ".optimum",
    # a noise law of one's own, declared in SymPy (issue 28)
    "Declaration": ".symbolic.declaration", "ShapeParameter": ".symbolic.declaration", "declare_law": ".noise.declared",
}
#: subpackages reachable as attributes of ``fhsym`` without importing them first
_SUBPACKAGES = ("accounting", "applications", "calibration", "noise", "optimum", "privacy", "_core", "_generated")

__all__ = [
    "NoiseDistribution",
    "DiscreteFlippedHuber",
    "FlippedHuber",
    "Gaussian",
    "Laplace",
    "TruncatedLaplace",
    "TruncatedStaircase",
    "PiecewiseUniform",
    "Staircase",
    "OSGT",
    "Certificate",
    "verify_certificate",
    "CalibrationError",
    "PROFILE_RTOL",
    "certified_profile",
    "centered_privacy_loss",
    "epsilon_for_delta",
    "is_private",
    "log_privacy_profile",
    "privacy_loss",
    "privacy_profile",
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
    "Declaration",
    "ShapeParameter",
    "declare_law",
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

if TYPE_CHECKING:  # type checkers see the names eagerly; at run time they load on first use
    from . import accounting, applications, calibration, noise, privacy
    from .accounting import KDimPLDConfig, PrivacyLossDistribution, kdim_privacy_profile, zcdp_to_dp
    from .applications.advise import advise
    from .applications.dpcd import DPCDConfig
    from .applications.release import Release, ReleaseConfig, release
    from .applications.dominance import gaussian_dominance
    from .calibration import CalibrateConfig, Calibration, CalibrationError, calibrate
    from .calibration.verify import verify_certificate
    from .noise import (OSGT, FlippedHuber, Gaussian, Laplace, NoiseDistribution, PiecewiseUniform, Staircase,
                        TruncatedLaplace, TruncatedStaircase)
    from .noise.discrete_flipped_huber import DiscreteFlippedHuber
    from .optimum import optimal_variance
    from .noise.declared import declare_law
    from .symbolic.declaration import Declaration, ShapeParameter
    from .privacy import (PROFILE_RTOL, centered_privacy_loss, certified_profile, epsilon_for_delta, is_private,
                          log_privacy_profile, privacy_loss, privacy_profile)
    from .privacy.certificate import Certificate
else:

    def _load_api() -> None:
        """Import every module of the public API and bind its names here (what ``import fhsym`` did eagerly)."""
        for name, where in _LAZY.items():
            globals()[name] = getattr(importlib.import_module(where, __name__), name)
        for name in _SUBPACKAGES:
            importlib.import_module("." + name, __name__)

    def __getattr__(name: str) -> Any:
        """Load the public API on the first lookup of one of its names or subpackages (PEP 562)."""
        if name not in _LAZY and name not in _SUBPACKAGES:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        _load_api()
        return globals()[name]

    def __dir__() -> List[str]:
        return sorted(set(globals()) | set(__all__) | set(_SUBPACKAGES))
