"""Parameter domains, declared once as data.

Every public entry point of fhsym validates its inputs through a :class:`Domain`
defined here.  The ``ValueError`` messages, the docs and the hypothesis
strategies of the tests are all derived from the same declaration, so they
cannot drift apart.  A message always names the parameter, its valid range and
the offending value, e.g.::

    ValueError: gamma must be a finite real number in (0, inf); got -1.0
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Optional, Tuple

import numpy as np
from numpy.typing import ArrayLike

from .types import BoolArray

__all__ = [
    "Domain",
    "ALPHA",
    "GAMMA",
    "EPSILON",
    "DELTA",
    "SENSITIVITY",
    "L2_SENSITIVITY",
    "L1_SENSITIVITY",
    "PROBABILITY",
    "MGF_ARGUMENT",
    "REAL",
    "DIM",
    "check_scalar",
    "check_array",
    "check_int",
]


@dataclass(frozen=True)
class Domain:
    """A real interval with open/closed ends, and whether +-inf is allowed.

    ``lower``/``upper`` are the ends; ``closed_lower``/``closed_upper`` say
    whether the end itself is valid.  ``allow_inf`` admits the infinite end
    points (for example ``x = +inf`` in a CDF); NaN is never valid.  ``typical`` (a law's parameter) is a range
    inside the domain where the law is at home, from which a test of every registered law draws its parameters
    (:meth:`fhsym.noise.parametrised.Parametrised.typical_parameters`); None: not a law's parameter.
    """

    name: str
    lower: float = -math.inf
    upper: float = math.inf
    closed_lower: bool = False
    closed_upper: bool = False
    allow_inf: bool = False
    typical: Optional[Tuple[float, float]] = None

    def describe(self) -> str:
        """Human-readable range, e.g. ``'a finite real number in [0, inf)'``."""
        lo = "[" if self.closed_lower else "("
        hi = "]" if self.closed_upper else ")"
        kind = "a real number" if self.allow_inf else "a finite real number"
        return f"{kind} in {lo}{_fmt(self.lower)}, {_fmt(self.upper)}{hi}"

    def message(self, value: object) -> str:
        return f"{self.name} must be {self.describe()}; got {value!r}"

    def contains(self, x: ArrayLike) -> BoolArray:
        """Elementwise membership test (NaN is never a member)."""
        x = np.asarray(x, dtype=float)
        ok: BoolArray = ~np.isnan(x)
        if not self.allow_inf:
            ok &= np.isfinite(x)
        ok &= (x >= self.lower) if self.closed_lower else (x > self.lower)
        ok &= (x <= self.upper) if self.closed_upper else (x < self.upper)
        return ok


def _fmt(v: float) -> str:
    if v == math.inf:
        return "inf"
    if v == -math.inf:
        return "-inf"
    return f"{v:g}"


def _as_float_array(value: object, domain: Domain) -> np.ndarray:
    if isinstance(value, (str, bytes)) or value is None or isinstance(value, bool):
        raise ValueError(domain.message(value))
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(domain.message(value)) from None
    return arr


def check_scalar(value: object, domain: Domain) -> float:
    """Return ``value`` as a Python float after checking it lies in ``domain``."""
    arr = _as_float_array(value, domain)
    if arr.ndim != 0:
        raise ValueError(f"{domain.name} must be a scalar; got an array of shape {arr.shape}")
    if not bool(domain.contains(arr)):
        raise ValueError(domain.message(value))
    if isinstance(value, numbers.Integral) and int(arr) != value:  # an integer the float would silently round
        raise ValueError(f"{domain.name} must be exactly representable as a binary64 float; got {value!r}")
    return float(arr)


def check_array(value: object, domain: Domain) -> np.ndarray:
    """Return ``value`` as a float ndarray after checking every element."""
    arr = _as_float_array(value, domain)
    ok = domain.contains(arr)
    if not np.all(ok):
        bad = arr[~ok] if arr.ndim else arr
        first = float(np.ravel(bad)[0])
        raise ValueError(domain.message(first))
    return arr


def check_int(value: object, name: str, lower: int) -> int:
    """An integer >= ``lower`` (bool and non-integral floats are rejected)."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Integral, float, np.floating)):
        raise ValueError(f"{name} must be an integer >= {lower}; got {value!r}")
    if isinstance(value, (float, np.floating)) and (not math.isfinite(value) or value != int(value)):
        raise ValueError(f"{name} must be an integer >= {lower}; got {value!r}")
    iv = int(value)
    if iv < lower:
        raise ValueError(f"{name} must be an integer >= {lower}; got {value!r}")
    return iv


ALPHA = Domain("alpha", 0.0, math.inf, closed_lower=True, typical=(0.0, 3.0))
GAMMA = Domain("gamma", 0.0, math.inf, typical=(0.5, 3.0))
EPSILON = Domain("epsilon", 0.0, math.inf, closed_lower=True)
DELTA = Domain("delta", 0.0, 1.0)
SENSITIVITY = Domain("sensitivity", 0.0, math.inf)
L2_SENSITIVITY = Domain("l2_sensitivity", 0.0, math.inf)
L1_SENSITIVITY = Domain("l1_sensitivity", 0.0, math.inf)
STEP = Domain("step", 0.0, math.inf, typical=(0.25, 1.0))  # lattice spacing of the discrete noise
PROBABILITY = Domain("q", 0.0, 1.0, closed_lower=True, closed_upper=True)
MGF_ARGUMENT = Domain("s", -math.inf, math.inf)
REAL = Domain("x", -math.inf, math.inf, closed_lower=True, closed_upper=True, allow_inf=True)
DIM = "dim"
