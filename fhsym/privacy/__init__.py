"""Privacy of one release: exact 1-D privacy profiles and losses, and their certification."""

from .certify import certified_profile, is_private
from .profile import (
    PROFILE_RTOL,
    centered_privacy_loss,
    epsilon_for_delta,
    log_privacy_profile,
    privacy_loss,
    privacy_profile,
)

__all__ = [
    "PROFILE_RTOL",
    "certified_profile",
    "centered_privacy_loss",
    "epsilon_for_delta",
    "is_private",
    "log_privacy_profile",
    "privacy_loss",
    "privacy_profile",
]

