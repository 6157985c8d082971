"""Moved: the naive float64 paper forms and their stress points live in fhsym.symbolic.naive / each Kernel's declaration."""
from fhsym.symbolic.naive import *  # noqa: F401,F403
