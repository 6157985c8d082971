"""Deterministic formatting of the numbers the proofs print.

Two runs must write the same report, so a printed number never shows digits that
float noise can change:

* :func:`err` prints an error figure with two significant digits, and as
  ``< 1e-N`` when it is below the resolution ``floor`` of the comparison (a
  residual of two 50-digit evaluations, a quadrature reference good to 36
  digits: the digits below the resolution are noise);
* :func:`num` prints a computed value with a fixed number of significant digits;
* :func:`pt` prints an input point (inputs are exact binary numbers from seeded
  generators, so their digits are not noise).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Optional, Sequence

import mpmath
from mpmath import mpf

__all__ = ["err", "num", "pt", "below", "decade"]


def decade(floor: float) -> str:
    """``1e-N`` for a power of ten ``floor``."""
    return f"1e{int(round(math.log10(floor))):d}"


def below(x: Any, floor: Optional[float]) -> bool:
    """True if the error figure ``x`` is below the resolution ``floor``."""
    if floor is None:
        return False
    try:
        return 0 <= float(x) < floor
    except (TypeError, ValueError, OverflowError):
        return False


def err(x: Any, floor: Optional[float] = None, sig: int = 2) -> str:
    """An error figure: ``< 1e-N`` below ``floor``, ``0`` when exactly 0, else ``sig`` significant digits."""
    if x is None:
        return "0 (exact)"
    if isinstance(x, mpf):
        if x == 0:
            return "0"
        if below(x, floor):
            return f"< {decade(floor)}"
        if not mpmath.isfinite(x) or mpf("1e-300") < abs(x) < mpf("1e300"):
            x = float(x)
        else:
            return mpmath.nstr(x, sig)
    x = float(x)
    if x == 0:
        return "0"
    if below(x, floor):
        return f"< {decade(floor)}"
    if not math.isfinite(x):
        return str(x)
    return f"{x:.{sig - 1}e}"


def num(x: Any, sig: int = 4) -> str:
    """A computed value with ``sig`` significant digits."""
    if isinstance(x, Fraction):
        return str(x) if x.denominator < 10**6 else f"{float(x):.{sig}g}"
    if isinstance(x, mpf):
        return mpmath.nstr(x, sig)
    if isinstance(x, float):
        return f"{x:.{sig}g}"
    return str(x)


def pt(names: Sequence[str], values: Sequence[Any], sig: int = 6) -> str:
    """An input point ``name=value, ...``."""
    return ", ".join(f"{n}={num(v, sig)}" for n, v in zip(names, values))
