"""Two-precision confirmation of a reference value (part of :mod:`proofs.reference`).

:func:`confirm` evaluates a reference function at ``dps`` and ``dps + extra`` and raises
:class:`proofs.reference.HarnessError` unless the two agree (imported from there as
``reference.confirm``).
"""

from __future__ import annotations

import math
from typing import Any, Callable

import mpmath
from mpmath import mp, mpf

from .reference import CONFIRM_EXTRA, DEFAULT_DPS, HarnessError

__all__ = ["agree_digits", "confirm_report", "confirm"]


# ---------------------------------------------------------------------------
# two-precision confirmation
# ---------------------------------------------------------------------------


def agree_digits(a: Any, b: Any) -> float:
    """Number of agreeing significant digits of two mpf (inf when equal)."""
    with mp.workdps(400):  # exact: never rounds an mpf of <= 400 digits
        a, b = mpf(a), mpf(b)
        if a == b:
            return math.inf
        if mpmath.isinf(a) or mpmath.isinf(b):
            return -math.inf
        scale = max(abs(a), abs(b))
        return float(-mpmath.log10(abs(a - b) / scale))


def _compare(lo_val, hi_val, digits: float, label: str) -> float:
    if isinstance(hi_val, dict):
        worst = math.inf
        for k in hi_val:
            worst = min(worst, _compare(lo_val[k], hi_val[k], digits, "%s[%s]" % (label, k)))
        return worst
    if isinstance(hi_val, (tuple, list)):
        worst = math.inf
        for i, (a, b) in enumerate(zip(lo_val, hi_val)):
            worst = min(worst, _compare(a, b, digits, "%s[%d]" % (label, i)))
        return worst
    got = agree_digits(lo_val, hi_val)
    if got < digits:
        raise HarnessError(
            "%s: dps and dps+%d results agree to only %.1f digits (< %s): %s vs %s"
            % (label, CONFIRM_EXTRA, got, digits, mpmath.nstr(lo_val, 20), mpmath.nstr(hi_val, 20))
        )
    return got


def confirm_report(
    func: Callable, *args: Any, dps: int = DEFAULT_DPS, extra: int = CONFIRM_EXTRA, digits: float | None = None, **kw: Any
) -> tuple[Any, float]:
    """Evaluate ``func(*args, dps=dps)`` and at ``dps + extra``; raise HarnessError
    unless they agree to ``digits`` significant digits (default ``dps - 5``).

    Returns (higher-precision value, worst agreement in digits).  Works for
    functions returning an mpf, a tuple or a dict of mpf.
    """
    if digits is None:
        digits = dps - 5
    a = func(*args, dps=dps, **kw)
    b = func(*args, dps=dps + extra, **kw)
    got = _compare(a, b, digits, getattr(func, "__name__", "value"))
    return b, got


def confirm(func: Callable, *args: Any, dps: int = DEFAULT_DPS, extra: int = CONFIRM_EXTRA, digits: float | None = None, **kw: Any) -> Any:
    """:func:`confirm_report` without the agreement figure."""
    return confirm_report(func, *args, dps=dps, extra=extra, digits=digits, **kw)[0]
