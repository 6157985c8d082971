"""Rigorous enclosures of the exact 1-D privacy profiles of the comparison mechanisms.

Each mechanism has a *plan* (exact rational work: ratios of the inputs, the
crossing point, every case decision) and an *evaluation* at a given precision
(arb balls).  All inputs are exact rationals (the binary values of the floats).

Gaussian ``N(0, sigma^2)`` and OSGT ``O(vartheta, varrho^2)``
    One formula: the Gaussian is OSGT with ``theta = 0``.  In units of
    ``varrho`` (``S = Delta/varrho``, ``theta = vartheta/varrho``) the density
    is ``e^{-(|s| + theta)^2/2}/Z``, ``Z = 2 e^{-theta^2/2} R(theta)``, log-concave,
    and the loss ``L = psi(s + S) - psi(s)`` is ``(2s + S)(S + 2 theta)/2`` on
    ``[-S, 0]`` and ``S(s + theta) + S^2/2`` on ``[0, inf)``, so the crossing
    point is rational: ``t1 = eps/(S + 2 theta) - S/2`` if
    ``eps <= S(S + 2 theta)/2`` (paper's first OSGT case), else
    ``t1 = (eps - S^2/2)/S - theta``.  As for FH (``delta = F(t1)``,
    ``U(x) = e^{-(x + theta)^2/2} R(x + theta)`` for ``x >= 0``)::

        delta = [t1 < 0] G(theta, |t1|)/R(theta)
                + e^{-|t1|(|t1| + 2 theta)/2} (R(|t1| + theta) - R(t2 + theta)) / (2 R(theta)),

    ``t2 = t1 + S``, ``G`` of :func:`.core.gauss_strip`; for theta = 0 and
    ``t1 >= 0`` this is Balle-Wang's ``Q(t1) - e^eps Q(t2) = phi(t1)(R(t1) - R(t2))``.

Laplace ``L(0, beta)``
    ``delta = -expm1((eps - s)/2)`` for ``eps < s = Delta/beta``, exactly 0 otherwise
    (decided in Q).

Truncated Laplace (``lambda`` = scale, ``A`` = bound)
    Exactly 1 when ``Delta >= 2A`` (disjoint supports).  Otherwise, in units of
    lambda (``a = A/lambda``, ``s = Delta/lambda``, ``x = a - s``,
    ``u = min(0, x)``, ``t0 = (eps - s)/2``, ``N = 1 - e^{-a}``)::

        delta = P(T > A - Delta) + [eps < s] ( e^{u} (1 - e^{-(u - t0)})^2 [t0 < u]
                                              + (1 - e^{-x})(1 - e^{eps - s}) [x > 0] ) / (2N),
        P(T > A - Delta) = e^{-x} (1 - e^{-s}) / (2N)            (x >= 0)
                         = 1/2 + (1 - e^{x}) / (2N)                (x < 0),

    every term a product of non-negative factors (``expm1``), all exponents exact rationals.

Staircase (design ``eps0``, ``Delta0``, ``gamma``; step edge ``w = fl(gamma Delta0)``,
the double the mechanism uses)
    In units of ``Delta0`` (``d = Delta/Delta0``, ``W = w/Delta0``, ``b = e^{-eps0}``,
    level ``l(x) = floor(x) + [frac(x) >= W]``, density ``a b^{l(|x|)}`` with
    ``a = (1 - b)/(2(W + (1 - W) b))``).  The integrand vanishes for ``t < -d/2``
    (there ``|t + d| <= |t|``).  On ``t >= 0`` it repeats with factor ``b`` per
    period, so that part is ``1/(1 - b)`` times the integral over ``[0, 1)``.  On
    ``[-d/2, 0)`` put ``v = -t = j + w``: the level difference is ``n0(w) - 2j`` and
    the weight ``b^{j + l(w)}``; summing the geometric series over the ``M``
    periods with a positive factor gives, exactly,
    ``sum_{j<M} b^j (1 - e^{eps - (n0 - 2j) eps0}) = (1 - b^M)/(1 - b) (1 - e^{eps - (n0 - M + 1) eps0})``.
    Lengths, levels, ``M`` and every exponent are exact rationals; the number of
    pieces is O(1) for any ``Delta/Delta0``.  delta is exactly 0 when no factor is positive.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Tuple

from flint import arb, ctx, fmpq, fmpz

from .core import bits, gauss_strip, mills

__all__ = [
    "OSGTPlan",
    "osgt_plan",
    "osgt_eval",
    "laplace_plan",
    "laplace_eval",
    "TLPlan",
    "tl_plan",
    "tl_eval",
    "StaircasePlan",
    "staircase_plan",
    "staircase_eval",
]

_ZERO = fmpq(0)


# ---------------------------------------------------------------------------
# Gaussian / OSGT


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


# ---------------------------------------------------------------------------
# Laplace


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


# ---------------------------------------------------------------------------
# truncated Laplace


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


# ---------------------------------------------------------------------------
# staircase


@dataclass(frozen=True)
class StaircasePlan:
    zero: bool
    eps: fmpq
    eps0: fmpq
    W: fmpq
    part1: Tuple[Tuple[fmpq, int, int], ...]  # ((length, l0, n), ...) with n eps0 > eps
    part2: Tuple[Tuple[fmpq, int, int, int], ...]  # ((length, l0, n0, M), ...) with M >= 1
    boost: int


def _floor(q: fmpq) -> int:
    return int(q.floor())


def _level(x: fmpq, W: fmpq) -> int:
    k = _floor(x)
    return k + (1 if x - k >= W else 0)


def _frac_points(x: fmpq) -> List[fmpq]:
    """The point of (0, 1) congruent to x mod 1 (empty if x is an integer)."""
    f = x - _floor(x)
    return [f] if 0 < f < 1 else []


def staircase_plan(eps: fmpq, d: fmpq, eps0: fmpq, W: fmpq) -> StaircasePlan:
    """Pieces of one period with their level data (exact), see the module docstring."""
    one = fmpq(1)
    # part 1: t in [0, 1); breakpoints where l(t) or l(t + d) jumps
    pts = {_ZERO, one}
    if 0 < W < 1:
        pts.add(W)
    for p in _frac_points(-d) + _frac_points(W - d):
        pts.add(p)
    cuts = sorted(pts)
    part1: List[Tuple[fmpq, int, int]] = []
    for lo, hi in zip(cuts[:-1], cuts[1:]):
        mid = (lo + hi) / 2
        l0 = _level(mid, W)
        n = _level(mid + d, W) - l0
        if n * eps0 > eps:
            part1.append((hi - lo, l0, n))
    # part 2: v = -t in [0, d/2]; v = j + w, w in [0, 1)
    J = _floor(d / 2)
    rho = d / 2 - J
    pts = {_ZERO, one}
    for p in ([W] if 0 < W < 1 else []) + _frac_points(d) + _frac_points(d - W) + ([rho] if 0 < rho < 1 else []):
        pts.add(p)
    cuts = sorted(pts)
    part2: List[Tuple[fmpq, int, int, int]] = []
    for lo, hi in zip(cuts[:-1], cuts[1:]):
        jp = J + 1 if hi <= rho else J
        if jp == 0:
            continue
        mid = (lo + hi) / 2
        l0 = _level(mid, W)
        n0 = _level(d - mid, W) - l0
        q = (n0 * eps0 - eps) / (2 * eps0)  # positive factor iff j < q
        m = int(q.ceil()) if q > 0 else 0
        m = min(jp, m)
        if m >= 1:
            part2.append((hi - lo, l0, n0, m))
    zero = not part1 and not part2
    big = eps + eps0 + 1
    return StaircasePlan(zero, eps, eps0, W, tuple(part1), tuple(part2), bits(big) + 16)


def staircase_eval(plan: StaircasePlan, prec: int) -> arb:
    if plan.zero:
        return arb(0)
    with ctx.workprec(prec + plan.boost):
        eps, eps0, W = plan.eps, plan.eps0, plan.W
        omb = -(arb(-eps0).expm1())  # 1 - b
        b = arb(-eps0).exp()
        a = omb / (2 * (arb(W) + arb(1 - W) * b))
        s1 = arb(0)
        for length, l0, n in plan.part1:
            s1 += arb(length) * (b if l0 else 1) * -(arb(eps - n * eps0).expm1())
        s2 = arb(0)
        for length, l0, n0, m in plan.part2:
            geo = -(arb(-(fmpz(m) * eps0)).expm1()) / omb
            s2 += arb(length) * (b if l0 else 1) * geo * -(arb(eps - (n0 - m + 1) * eps0).expm1())
        return a * (s1 / omb + s2)
