"""The certificate plan of the truncated Laplace (``lambda`` = scale, ``A`` = bound).

Exactly 1 when ``Delta >= 2A`` (disjoint supports).  Otherwise, in units of lambda (``a = A/lambda``,
``s = Delta/lambda``, ``x = a - s``, ``u = min(0, x)``, ``t0 = (eps - s)/2``, ``N = 1 - e^{-a}``)::

    delta = P(T > A - Delta) + [eps < s] ( e^{u} (1 - e^{-(u - t0)})^2 [t0 < u]
                                          + (1 - e^{-x})(1 - e^{eps - s}) [x > 0] ) / (2N),
    P(T > A - Delta) = e^{-x} (1 - e^{-s}) / (2N)            (x >= 0)
                     = 1/2 + (1 - e^{x}) / (2N)                (x < 0),

every term a product of non-negative factors (``expm1``), all exponents exact rationals.  That this is the profile
derived from the declaration (``fhsym/symbolic/laws/truncated_laplace.py``): ``python -m proofs --only
shipped_truncated_laplace``, row ``certificate_plan``.

>>> from functools import partial
>>> from fhsym._core.arb import enclose
>>> enclose(partial(truncated_laplace_plan, scale=1.0, bound=1.0), 0.5, 2.0).lower   # Delta >= 2A: delta = 1
1.0
"""

from __future__ import annotations

from dataclasses import dataclass

from flint import arb, ctx, fmpq

from ..._core.arb import Plan
from ..._core.arb.core import bits, exact

__all__ = ["TLPlan", "tl_plan", "tl_eval", "truncated_laplace_plan"]

_ZERO = fmpq(0)


@dataclass(frozen=True)
class TLPlan:
    one: bool  # Delta >= 2A: delta = 1 exactly
    a: fmpq
    s: fmpq
    eps: fmpq
    boost: int


def tl_plan(eps: fmpq, a: fmpq, s: fmpq) -> TLPlan:
    return TLPlan(s >= 2 * a, a, s, eps, bits(a + s + eps + 1) + 16)


def _neg_expm1(q: fmpq) -> arb:
    """1 - e^{-q} for an exact rational q >= 0, as a ball."""
    return -((-arb(q)).expm1())


def tl_eval(plan: TLPlan, prec: int) -> arb:
    if plan.one:
        return arb(1)
    with ctx.workprec(prec + plan.boost):
        a, s, eps = plan.a, plan.s, plan.eps
        norm2 = 2 * _neg_expm1(a)  # 2N
        x = a - s
        if x >= 0:
            total = (-arb(x)).exp() * _neg_expm1(s) / norm2
        else:
            total = arb(1) / 2 + _neg_expm1(-x) / norm2  # 1/2 + P(0 < T <= |x|)
        if eps < s:
            t0 = (eps - s) / 2
            u = x if x < 0 else _ZERO
            if t0 < u:
                g = _neg_expm1(u - t0)
                total = total + arb(u).exp() * g * g / norm2
            if x > 0:
                total = total + _neg_expm1(x) * -(arb(eps - s).expm1()) / norm2
        return total


def truncated_laplace_plan(eps: fmpq, delta_s: fmpq, scale: float, bound: float) -> Plan:
    """Truncated Laplace (scale lambda, half-width A): three non-negative terms, or exactly 1."""
    lam = exact(scale)
    plan = tl_plan(eps, exact(bound) / lam, delta_s / lam)
    how = "Delta >= 2 bound: delta = 1 exactly" if plan.one else "three non-negative terms"
    return tl_eval, plan, f"truncated Laplace: {how}"
