"""Privacy loss distributions: the public face of :mod:`~fhsym.accounting.pld_core` (the class, composition,
certified error bounds) and :mod:`~fhsym.accounting.pld_builders` (PLDs from exact privacy profiles).

>>> from fhsym.accounting.pld import gaussian_pld
>>> lo, up = gaussian_pld(sigma=1.0, sensitivity=1.0, step=1e-3).self_compose(4).delta_bounds(1.0)
>>> bool(0.0 <= lo <= up)
True
"""

from __future__ import annotations

from .pld_builders import flipped_huber_pld, from_privacy_profile, gaussian_pld, laplace_pld
from .pld_core import (
    DEFAULT_FP_BUDGET,
    DEFAULT_TAIL_MASS,
    MAX_FFT,
    MAX_GRID,
    DiscreteLoss,
    PrivacyLossDistribution,
    compose,
    fft_size,
)

__all__ = [
    "DiscreteLoss",
    "PrivacyLossDistribution",
    "from_privacy_profile",
    "flipped_huber_pld",
    "gaussian_pld",
    "laplace_pld",
    "compose",
    "fft_size",
    "DEFAULT_TAIL_MASS",
    "DEFAULT_FP_BUDGET",
    "MAX_FFT",
    "MAX_GRID",
]
