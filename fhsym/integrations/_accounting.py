"""The one place where :mod:`fhsym.integrations` (and its tests) name fhsym's accounting package.

fhsym's own certified privacy loss distributions (a certified upper and a lower bound on
delta(eps), with the FFT error carried as slack) and the K-dimensional FH profile.  When the
package moves only this import changes.
"""

from __future__ import annotations

from ..accounting import (
    PrivacyLossDistribution,
    aligned_step,
    compose,
    default_step,
    flipped_huber_pld,
    from_privacy_profile,
    gaussian_pld,
    kdim_pld,
    laplace_pld,
)

__all__ = [
    "PrivacyLossDistribution",
    "aligned_step",
    "compose",
    "default_step",
    "flipped_huber_pld",
    "from_privacy_profile",
    "gaussian_pld",
    "kdim_pld",
    "laplace_pld",
]
