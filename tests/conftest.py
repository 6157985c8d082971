"""Shared test configuration: hypothesis profiles and mpmath precision hygiene.

Deep tests (``slow``)
---------------------
Tests marked ``slow`` (the quick proof subsets, the quadrature sweeps, the experiment scripts, the JAX
gradients, ...) are left out of the whole-suite run -- ``python -m pytest`` with no path, the README's
test command -- which then takes under 5 minutes on 2 cores; ``.ci/run`` runs them in a step of their
own (``python -m pytest -m slow``).  Naming a test file or test, or giving any ``-m`` expression, runs
what was named: ``pytest tests/test_calibration_sweep.py`` runs the whole sweep.

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


def pytest_collection_modifyitems(config, items):
    """The whole-suite run (no path given, no ``-m``) leaves out the tests marked ``slow`` (module docstring)."""
    if config.args_source != pytest.Config.ArgsSource.TESTPATHS or config.getoption("markexpr"):
        return
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if item.get_closest_marker("slow") is None]
