"""The ``distribution`` topic, its erratum, symbols and small helpers shared by its modules."""

from __future__ import annotations

import functools
import math
from typing import Callable, List, Tuple

import sympy as sp
from mpmath import mpf

from fhsym.symbolic import definitions as D

from .. import _mp as M
from .._harness import Topic

topic = Topic(
    "distribution",
    "The flipped Huber distribution: definitions, closed forms, stable kernels, claims (A1-A5)",
    order=10,
    description=(
        "Objects are named as in `fhsym.symbolic.definitions.OBJECTS` and `fhsym.symbolic.stable.KERNELS`. "
        "Standard units: b = alpha/gamma, s = t/gamma, lw = log(kappa/gamma) = log(omega) - b^2/2."
    ),
)

E1 = topic.erratum(
    "E1",
    "Lemma 6's proof misquotes Esseen's inequality (valid only for both arguments >= 0) and its intermediate "
    "step fails for t > 0 (at t = theta for every alpha > 0); the lemma itself is true (HAND PROOF in docs/errata.md, E1; "
    "its steps and conclusion checked in the rows `theta`)",
)

al, g, t, q, b, v = D.alpha, D.gamma, D.t, D.q, D.b, D.v
LN10 = math.log(10.0)
QUAD_DPS = 36  # digits requested from proofs/reference.py
QUAD_TOL = 1e-30  # closed form vs quadrature: relative
QUAD_FLOOR = 1e-36  # resolution of a comparison with a 36-digit reference

# integration variables (positive: |t|, or the variable of a one-sided integral)
_u = sp.Symbol("u", positive=True)
_tp = sp.Symbol("tp", positive=True)
_x = sp.Symbol("x", positive=True)
_c = sp.Symbol("c", real=True)  # gamma * (MGF argument)


def reference():
    """proofs.reference, imported lazily (only the quadrature checks need it)."""
    from .. import reference as R

    return R


def worst_of(errs: List[Tuple[float, str]]) -> Tuple[float, str]:
    if not errs:
        return 0.0, ""
    return max(errs, key=lambda z: z[0])


def lg(x: float) -> float:
    return math.log10(max(abs(x), 1e-300))


@functools.lru_cache(maxsize=None)
def fn(args: Tuple[sp.Symbol, ...], expr: sp.Expr) -> Callable:
    return M.mp_function(args, expr)


def val(args, expr, point, need=0.0, digits=30) -> mpf:
    """``expr(point)`` to ``digits`` significant digits (adaptive precision)."""
    return M.evaluate(fn(tuple(args), expr), point, digits=digits, need=need)[0]
