"""Moved: the naive float64 paper forms live in fhsym.symbolic.naive, their stress points in each Kernel's declaration (tables: fhsym.symbolic.stress)."""
from fhsym.symbolic.naive import *  # noqa: F401,F403
from fhsym.symbolic.stress import *  # noqa: F401,F403
