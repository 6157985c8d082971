"""Shared test configuration: hypothesis profiles and mpmath precision hygiene.

Hypothesis profiles
-------------------
``ci`` (default)
    derandomized (the same examples on every run and every machine), no example
    database, no deadline, 50 examples per property, failing examples printed
    with a reproduction blob.
``deep``
    2000 random examples per property (not derandomized, so repeated runs
    explore new inputs); select with ``FHSYM_HYPOTHESIS_PROFILE=deep``.
"""

from __future__ import annotations

import os

import mpmath
import pytest
from hypothesis import settings

settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=50,
    print_blob=True,
)
settings.register_profile(
    "deep",
    derandomize=False,
    database=None,
    deadline=None,
    max_examples=2000,
    print_blob=True,
)
settings.load_profile(os.environ.get("FHSYM_HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True)
def _restore_mpmath_precision():
    """Tests may change mpmath.mp.dps/prec; put them back afterwards."""
    prec = mpmath.mp.prec
    try:
        yield
    finally:
        mpmath.mp.prec = prec
