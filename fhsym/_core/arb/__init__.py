"""Ball arithmetic (python-flint ``arb``) on the exact 1-D privacy profiles: the ground the certificates stand on.

:func:`enclose` returns an :class:`Enclosure` ``lower <= delta(eps) <= upper`` of a noise law's
exact profile at the exact binary values of its float parameters, with proven error bounds and no
float kernel involved (see :mod:`.enclosures` for the argument), from the law's *plan* (one
``*_plan`` function per law, which the noise classes call from their ``_arb_plan`` hook).  It
depends on nothing else in fhsym, which is why it sits in the bottom layer: the certificates
(:mod:`fhsym.privacy`), the calibrations and the float profile's kink fallback all stand on it.
"""

from .enclosures import (
    Enclosure,
    Plan,
    ball,
    enclose,
    flipped_huber_plan,
    gaussian_plan,
    laplace_plan_of,
    osgt_plan_of,
    staircase_plan_of,
    profile_upper_ends,
    truncated_laplace_plan,
)

__all__ = [
    "Enclosure",
    "Plan",
    "ball",
    "enclose",
    "flipped_huber_plan",
    "gaussian_plan",
    "laplace_plan_of",
    "osgt_plan_of",
    "profile_upper_ends",
    "staircase_plan_of",
    "truncated_laplace_plan",
]
