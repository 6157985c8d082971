"""Accessors shared by the C99/JAX target tests (tests/test_step_targets.py, tests/test_lattice_targets.py,
tests/test_declared_profile_targets.py): a generated function by name, called with doubles, returning a float."""

from __future__ import annotations

import ctypes
import importlib
from typing import Any, Callable

import numpy as np
import pytest


def c_getter(lib: Any, law: str) -> Callable[[str], Callable[..., float]]:
    """name -> the C function fhsym_<law>_<name> of ``lib`` (every argument a double)."""
    def get(name: str) -> Callable[..., float]:
        f = getattr(lib, f"fhsym_{law}_{name}")
        f.restype = ctypes.c_double

        def call(*args: Any) -> float:
            f.argtypes = [ctypes.c_double] * len(args)
            return float(f(*(float(v) for v in args)))
        return call
    return get


def jax_getter(law: str) -> Callable[[str], Callable[..., float]]:
    """name -> the function of fhsym/_generated/declared/jax_<law>.py (skips without the optional extra jax; its
    declaration digest must be the numpy module's)."""
    pytest.importorskip("jax", reason="the JAX target needs the optional extra jax")
    mod = importlib.import_module(f"fhsym._generated.declared.jax_{law}")
    assert mod.DIGEST == importlib.import_module(f"fhsym._generated.declared.{law}").DIGEST

    def get(name: str) -> Callable[..., float]:
        fn = getattr(mod, name)
        return lambda *args: float(np.asarray(fn(*(np.float64(v) for v in args))))
    return get
