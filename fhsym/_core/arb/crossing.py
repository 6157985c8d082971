"""The generic ball-arithmetic plan of a symmetric log-concave noise law: a certified crossing bracket.

For a law with density ``g`` (symmetric, log-concave, positive and continuous on R), CDF ``F`` and
``psi = -log g`` (convex), in standard units with sensitivity ``D`` > 0, the exact 1-D profile is::

    delta(eps) = sup_y f(y),   f(y) = F(y) - e^eps F(y - D)

(the hockey-stick divergence of T against T + D).  Why the ball of :func:`crossing_eval` contains it:

1. ``f'(y) = g(y - D) (e^{l(y)} - e^eps)`` with ``l(y) = psi(|y - D|) - psi(|y|) = log g(y)/g(y - D)``,
   non-increasing in y because psi is convex (the proven log-concavity); so f increases while
   ``l > eps``, decreases while ``l < eps``, and every crossing ``y*`` (``l(y*) = eps``) maximises f.
2. ``l(D/2) = 0 <= eps``: ``hi = D/2`` is a right end.  A left end ``lo`` with ``l(lo) >= eps`` is
   searched at ``D/2 - 2^k`` (k = 0 .. 127); each sign is decided by arb (a ball certainly >= 0 or
   certainly <= 0), never by a float.  Bisection at exact midpoints keeps ``l(lo) >= eps >= l(hi)``
   while the sign of ``l(mid) - eps`` is certain; where it is not (a crossing at or next to mid),
   the ends move to ``mid -+ w`` (w halving) while their signs are certain.  By continuity a crossing
   lies in ``[lo, hi]``.
3. *Upper end*: F is non-decreasing and ``lo <= y* <= hi``, so
   ``delta = F(y*) - e^eps F(y* - D) <= F(hi) - e^eps F(lo - D)``; without a left end,
   ``delta <= F(hi)``.  *Lower end*: delta is a supremum, so ``delta >= f(m)`` for any m (the midpoint).
   The returned ball is the union of the two balls, so it holds every value between them.
4. *No crossing*: when the loss is bounded, ``sup l = L(D) = lim_{t -> oo} psi(t + D) - psi(t)``
   (derived by SymPy).  If ``eps >= L(D)`` is certain in arb (exact when both are exact), f is
   non-increasing with ``f(-oo) = 0``, so delta = 0 exactly.
5. Each value of psi and F is an arb function of the derived SymPy formula of its piece (piece chosen
   by exact rational comparison of |y| with the rational joins), which returns a ball containing
   the exact value (:mod:`fhsym.codegen.declared`).
6. *Bounded support* ``[-b, b]`` (``end = b``; density 0 beyond, ``F = 0`` below -b and 1 above b): for
   ``D >= 2b`` the supports are disjoint and delta = 1.  Otherwise f increases on ``(-b, L]``, ``L = D - b``
   (there ``g(y - D) = 0``: the loss is +oo), decreases beyond b (``g(y) = 0``), and on the overlap
   ``(L, b)`` the loss is finite and non-increasing, its limit at L being ``psi(b) - psi(|L|)`` (the last
   piece's formula at b).  The left-end search stops at L: if ``l(L+) < eps`` is certain the loss is
   below eps on the whole overlap, so ``y* = L`` and ``delta = F(L) - e^eps F(-b) = F(D - b)`` (the mass of
   the infinite loss); if ``l(L+) >= eps`` is certain, L is a left end and steps 2-3 apply unchanged
   (``hi = D/2`` lies in the overlap, ``l(D/2) = 0``).

Example
-------
>>> from flint import arb, ctx, fmpq
>>> plan = CrossingPlan((lambda t: t,), (lambda t: (-t).exp() / 2,), (), (lambda d: d), (), fmpq(1, 2), fmpq(1))
>>> with ctx.workprec(160):                         # Laplace(1) at eps = 1/2, D = 1: -expm1(-1/4)
...     x = crossing_eval(plan, 128)
...     bool(x.contains(-(arb(-0.25).expm1()))), x.rad() < 1e-30
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence, Tuple

from flint import arb, fmpq

__all__ = ["CrossingPlan", "crossing_eval"]

Fn = Callable[..., Any]


@dataclass(frozen=True)
class CrossingPlan:
    """The exact inputs of :func:`crossing_eval`: per-piece arb functions psi_k(t, *shapes) and sf_k(t, *shapes),
    the rational joins, the sup of the loss as a function of D (None: unbounded), the exact shapes, eps and D."""

    psi: Tuple[Fn, ...]
    sf: Tuple[Fn, ...]
    joins: Tuple[fmpq, ...]
    loss_sup: Optional[Fn]
    shapes: Tuple[fmpq, ...]
    eps: fmpq
    D: fmpq
    boost: int = 32
    #: the end b of a bounded support [-b, b] (None: the density is positive on all of R)
    end: Optional[fmpq] = None


def _piece(joins: Sequence[fmpq], x: fmpq) -> int:
    for k, b in enumerate(joins):
        if x < b:
            return k
    return len(joins)


def _abs(x: fmpq) -> fmpq:
    return -x if x < 0 else x


def crossing_eval(plan: CrossingPlan, prec: int) -> arb:
    """A ball containing delta(eps) at the plan's exact inputs (module docstring for the proof)."""
    shapes = tuple(arb(s) for s in plan.shapes)
    joins = plan.joins

    def psi(v: fmpq) -> arb:
        a = _abs(v)
        return arb(plan.psi[_piece(joins, a)](arb(a), *shapes))

    end = plan.end

    def F(v: fmpq) -> arb:
        a = _abs(v)
        if end is not None and a >= end:  # beyond the support: F = 0 below -b, 1 above b
            return arb(0) if v < 0 else arb(1)
        s = arb(plan.sf[_piece(joins, a)](arb(a), *shapes))
        return s if v <= 0 else 1 - s

    eps, D = plan.eps, plan.D
    e = arb(eps)
    if plan.loss_sup is not None and e >= arb(plan.loss_sup(arb(D), *shapes)):
        return arb(0)
    if end is not None and D >= 2 * end:  # disjoint supports
        return arb(1)

    def gap(v: fmpq) -> arb:  # l(v) - eps (at v = D - b: the limit from the overlap, psi(b) - psi(|D - b|))
        return psi(v - D) - psi(v) - e

    hi = D / 2
    lo: Optional[fmpq] = None
    for k in range(128):
        cand = hi - fmpq(2) ** k
        if end is not None and cand <= D - end:  # the overlap's left end L = D - b
            g_end = gap(D - end)
            if g_end < 0:  # the loss is below eps on the whole overlap: y* = L, delta = F(D - b)
                return F(D - end)
            if g_end >= 0:
                lo = D - end
            break
        if gap(cand) >= 0:
            lo = cand
            break
    ee = e.exp()
    if lo is None:  # no certified left end: delta <= F(hi), delta >= f(hi)
        return (F(hi) - ee * F(hi - D)).union(F(hi))
    mid = (lo + hi) / 2
    for _ in range(prec + 64):  # bisection while the sign at the midpoint is certain
        mid = (lo + hi) / 2
        s = gap(mid)
        if s >= 0:
            lo = mid
        elif s <= 0:
            hi = mid
        else:
            break
    w = (hi - lo) / 4
    for _ in range(prec + 64):  # the sign at mid is not certain (a crossing at or next to mid): close in on both sides
        left, right = gap(mid - w) >= 0, gap(mid + w) <= 0
        lo, hi = (mid - w if left else lo), (mid + w if right else hi)
        if not (left and right):
            break
        w /= 2
    mid = (lo + hi) / 2
    lower = F(mid) - ee * F(mid - D)
    upper = F(hi) - ee * F(lo - D)
    return lower.union(upper)
