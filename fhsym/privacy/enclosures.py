"""Rigorous enclosures of the exact 1-D privacy profiles (python-flint ``arb``): see :mod:`fhsym._core.arb`.

This is the privacy layer's name for them; the code lives in the bottom layer because it depends on
nothing else in fhsym.
"""

from .._core.arb.enclosures import *  # noqa: F401,F403
from .._core.arb.enclosures import __all__  # noqa: F401
