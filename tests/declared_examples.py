"""The declared example laws (docs/examples/<name>_law.py) and the tests' own bounded-support laws, declared on first
use and once per process.

Loading an example declares its law (``fhsym.declare_law``: SymPy derivations, printed and compiled numerics, the
law registered under its name), 0.2-3 s each.  The test modules used to load them at import, which every pytest-xdist
worker paid at collection whether or not it ran one of their tests; they call :func:`example` now, inside the tests
(or fixtures) that use a law.  A test whose claim ranges over every registered law (the declared ones included) calls
:func:`register_all` first, so that what it covers does not depend on which other tests ran before it.
"""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any, Tuple

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"

#: every example law of docs/examples (tests/test_declared.py::test_byo_module_is_one_small_file: no file left out)
NAMES = ("logistic", "laplace", "gaussian", "gengauss", "osgt")


@functools.cache
def example(name: str) -> ModuleType:
    """The module docs/examples/<name>_law.py, executed once per process (its law declared and registered)."""
    spec = importlib.util.spec_from_file_location(f"example_{name}_law", EXAMPLES / f"{name}_law.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@functools.cache
def bounded_laws() -> Tuple[Any, Any]:
    """The bounded-support laws of tests/test_declared_bounded.py, declared and registered: a truncated Gaussian
    e^{-t^2/2} on [-2, 2] (scale sigma) and a twin of the shipped truncated Laplace declaration (scale bound, shape a)."""
    import sympy as sp

    import fhsym
    from fhsym.symbolic.laws import truncated_laplace as TLD

    t = sp.Symbol("t", positive=True)
    tg = fhsym.declare_law(fhsym.Declaration("t28_trunc_gauss", "truncated Gaussian", t,
                                             ((sp.exp(-t**2 / 2), (0, 2)),), scale="sigma"))
    tlt = fhsym.declare_law(fhsym.Declaration("t28_tl_twin", "truncated Laplace twin", TLD.t, TLD.DECLARATION.pieces,
                                              scale="bound", shapes=TLD.DECLARATION.shapes))
    return tg, tlt


def register_all() -> None:
    """Every example law and the bounded-support laws above, declared and registered (see the module docstring)."""
    for name in NAMES:
        example(name)
    bounded_laws()
