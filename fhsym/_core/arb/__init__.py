"""Ball arithmetic (python-flint ``arb``) on the exact 1-D privacy profiles: the ground the certificates stand on.

:func:`enclose_profile` returns an :class:`Enclosure` ``lower <= delta(eps) <= upper`` of any
mechanism's exact profile at the exact binary values of its float parameters, with proven error
bounds and no float kernel involved (see :mod:`.enclosures` for the argument).  It depends on
nothing else in fhsym, which is why it sits in the bottom layer: the certificates
(:mod:`fhsym.privacy`), the calibrations and the float profile's kink fallback all stand on it.
"""

from .enclosures import MECHANISMS, Enclosure, enclose_profile, profile_upper_ends

__all__ = ["MECHANISMS", "Enclosure", "enclose_profile", "profile_upper_ends"]
