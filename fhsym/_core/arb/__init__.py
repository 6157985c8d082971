"""Ball arithmetic (python-flint ``arb``) on the exact 1-D privacy profiles: the ground the certificates stand on.

:func:`enclose` returns an :class:`Enclosure` ``lower <= delta(eps) <= upper`` of a noise law's
exact profile at the exact binary values of its float parameters, with proven error bounds and no
float kernel involved (see :mod:`.enclosures` for the argument), from the law's *plan*, which the noise classes
supply through their ``_arb_plan`` hook: every shipped law's plan lives with the law (:mod:`fhsym.noise.plans`:
flipped Huber's and piecewise uniform's exact bounds among them), a declared law's is the generic crossing bracket
(:mod:`.crossing`).  It
depends on nothing else in fhsym, which is why it sits in the bottom layer: the certificates
(:mod:`fhsym.privacy`), the calibrations and the float profile's kink fallback all stand on it.
"""

from .enclosures import (
    Enclosure,
    Plan,
    ball,
    enclose,
    profile_upper_ends,
)

__all__ = [
    "Enclosure",
    "Plan",
    "ball",
    "enclose",
    "profile_upper_ends",
]
