"""The certificate plan of OSGT ``O(vartheta, varrho^2)`` and of the Gaussian ``N(0, sigma^2)`` (OSGT with theta = 0).

In units of ``varrho`` (``S = Delta/varrho``, ``theta = vartheta/varrho``) the density is
``e^{-(|s| + theta)^2/2}/Z``, ``Z = 2 e^{-theta^2/2} R(theta)`` (``R`` the Mills ratio), log-concave, and the loss
``L = psi(s + S) - psi(s)`` is ``(2s + S)(S + 2 theta)/2`` on ``[-S, 0]`` and ``S(s + theta) + S^2/2`` on
``[0, inf)``, so the crossing point is rational: ``t1 = eps/(S + 2 theta) - S/2`` if ``eps <= S(S + 2 theta)/2``
(paper's first OSGT case), else ``t1 = (eps - S^2/2)/S - theta``.  As for FH (``delta = F(t1)``,
``U(x) = e^{-(x + theta)^2/2} R(x + theta)`` for ``x >= 0``)::

    delta = [t1 < 0] G(theta, |t1|)/R(theta)
            + e^{-|t1|(|t1| + 2 theta)/2} (R(|t1| + theta) - R(t2 + theta)) / (2 R(theta)),

``t2 = t1 + S``, ``G`` of :func:`fhsym._core.arb.core.gauss_strip`; for theta = 0 and ``t1 >= 0`` this is
Balle-Wang's ``Q(t1) - e^eps Q(t2) = phi(t1)(R(t1) - R(t2))``.  That this is the profile derived from the laws'
declarations (``fhsym/symbolic/laws/osgt.py``, ``gaussian.py``): ``python -m proofs --only shipped_osgt`` and
``--only shipped_gaussian``, row ``certificate_plan``.

>>> from functools import partial
>>> from fhsym._core.arb import enclose
>>> e = enclose(partial(gaussian_plan, sigma=1.0), 1.0, 1.0)
>>> f"{e.lower:.12g} {e.upper:.12g}"
'0.126936737507 0.126936737507'
"""

from __future__ import annotations

from dataclasses import dataclass

from flint import arb, ctx, fmpq

from ..._core.arb import Plan
from ..._core.arb.core import bits, exact, gauss_strip, mills

__all__ = ["OSGTPlan", "osgt_plan", "osgt_eval", "gaussian_plan", "osgt_plan_of"]


@dataclass(frozen=True)
class OSGTPlan:
    theta: fmpq
    S: fmpq
    t1: fmpq
    case: str
    boost: int


def osgt_plan(eps: fmpq, theta: fmpq, S: fmpq) -> OSGTPlan:
    """Exact crossing point t1 (units of varrho)."""
    if eps <= S * (S + 2 * theta) / 2:
        t1 = eps / (S + 2 * theta) - S / 2
        case = "first case: eps <= varpi Delta/(2 varrho^2), t1 in [-Delta/2, 0]"
    else:
        t1 = (eps - S * S / 2) / S - theta
        case = "second case: eps > varpi Delta/(2 varrho^2), t1 > 0"
    big = abs(t1) + S + theta + 1
    return OSGTPlan(theta, S, t1, case + ", t1 rational", 2 * bits(big) + 16)


def osgt_eval(plan: OSGTPlan, prec: int) -> arb:
    with ctx.workprec(prec + plan.boost):
        tq, thq, Sq = plan.t1, plan.theta, plan.S
        ax = abs(tq)
        th = arb(thq)
        r_th = mills(th)
        expo = arb(ax * (ax + 2 * thq) / 2)
        diff = mills(arb(ax + thq)) - mills(arb(tq + Sq + thq))
        total = (-expo).exp() * diff / (2 * r_th)
        if tq < 0:
            total = total + gauss_strip(th, arb(ax)) / r_th
        return total


def gaussian_plan(eps: fmpq, delta_s: fmpq, sigma: float) -> Plan:
    """N(0, sigma^2): OSGT with theta = 0 (Balle-Wang, eq 29), rational crossing point."""
    plan = osgt_plan(eps, fmpq(0), delta_s / exact(sigma))
    side = "t1 >= 0: phi(t1)(R(t1) - R(t2))" if plan.t1 >= 0 else "t1 < 0: strip + tail terms"
    return osgt_eval, plan, f"Gaussian (Balle-Wang, eq 29) at rational t1 = eps sigma/Delta - Delta/(2 sigma), {side}"


def osgt_plan_of(eps: fmpq, delta_s: fmpq, vartheta: float, varrho: float) -> Plan:
    """OSGT(vartheta, varrho^2), both cases of Appendix F-A(c)."""
    r = exact(varrho)
    plan = osgt_plan(eps, exact(vartheta) / r, delta_s / r)
    return osgt_eval, plan, f"OSGT {plan.case}"
