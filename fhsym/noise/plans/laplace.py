"""The certificate plan of Laplace ``L(0, beta)``.

``delta = -expm1((eps - s)/2)`` for ``eps < s = Delta/beta``, exactly 0 otherwise (decided in Q).  That this is the
profile derived from the declaration (``fhsym/symbolic/laws/laplace.py``): ``python -m proofs --only
shipped_laplace``, row ``certificate_plan``.

>>> from functools import partial
>>> from fhsym._core.arb import enclose
>>> enclose(partial(laplace_plan_of, beta=1.0), 1.0, 1.0).upper
0.0
"""

from __future__ import annotations

from typing import Optional

from flint import arb, ctx, fmpq

from ..._core.arb import Plan
from ..._core.arb.core import exact

__all__ = ["laplace_plan", "laplace_eval", "laplace_plan_of"]


def laplace_plan(eps: fmpq, s: fmpq) -> Optional[fmpq]:
    """None when delta = 0 exactly (eps >= s), else the exact exponent (eps - s)/2."""
    if eps >= s:
        return None
    return (eps - s) / 2


def laplace_eval(half_gap: Optional[fmpq], prec: int) -> arb:
    if half_gap is None:
        return arb(0)
    with ctx.workprec(prec + 16):
        return -(arb(half_gap).expm1())


def laplace_plan_of(eps: fmpq, delta_s: fmpq, beta: float) -> Plan:
    """L(0, beta): -expm1((eps - Delta/beta)/2), exactly 0 for eps >= Delta/beta (decided in Q)."""
    plan = laplace_plan(eps, delta_s / exact(beta))
    how = "eps >= Delta/beta: delta = 0 exactly" if plan is None else "-expm1((eps - Delta/beta)/2)"
    return laplace_eval, plan, f"Laplace: {how}"
