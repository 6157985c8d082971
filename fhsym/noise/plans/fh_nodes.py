"""The flipped Huber profile's ball upper ends at many epsilons (the nodes of a proven PLD), quickly and identically.

:func:`fh_upper_ends` returns exactly what :func:`fhsym._core.arb.enclosures.profile_upper_ends` returns for the
flipped Huber plan (:func:`.flipped_huber.flipped_huber_plan`): the same ``(man, exp)`` upper end of the same ball at every epsilon, bit for
bit, so a certificate computed one way re-checks the other way.  It is faster because at most nodes of a proven PLD
the crossing ``t1`` lies inside a piece of ``P`` where the plan and the ball take a handful of operations, and there
it runs them without the general path's dispatch:

* the plan: the piece of ``P`` that holds ``t1`` (:func:`.flipped_huber.fh_plan`) found by comparing the float
  ``eps`` with the floats of the exact losses at the points of ``P`` (exactly in Q when they are within 1e-12 of
  each other), then ``t1 = (eps - C)/B`` and the precision boost as :func:`.flipped_huber.fh_plan` forms them;
* the ball: :func:`.flipped_huber.fh_eval`'s operations for that case at the first precision ``START_PREC + boost``
  -- ``t1 > 0`` on the Gaussian branch (Table I case (v)): ``e^{-r(t1)} (R(t1) - R(t2)) / Z`` with the Mills ratio
  ``R`` as :func:`fhsym._core.arb.core.mills` forms it; case (ii) (``-b <= t1 < 0``, ``t2 <= b``): the Laplace branch's closed
  form -- then :func:`fhsym._core.arb.enclosures.profile_upper_ends`' clip and stopping test.

Every other node (a crossing at a point of ``P`` or on a quadratic piece, cases (i), (iii), (iv), a Mills ratio in
its asymptotic regime, or a ball that needs more precision) takes the general path.  The ball is a function of the
operations and their inputs and precisions only (arb is deterministic), so the ends are the same;
tests/test_pld_exact_nodes.py compares the two paths end for end.
"""

from __future__ import annotations

import math
from math import frexp as _frexp
from typing import Any, Dict, Iterable, List, Tuple

from flint import arb, ctx, fmpq

from ..._core.arb.core import bits, sqrt2, sqrt_half_pi
from ..._core.arb.enclosures import (EPSILON, SENSITIVITY, START_PREC, SUBNORMAL, check_end_options, clip_unit,
                                     upper_end)
from .flipped_huber import fh_constants, fh_geometry, fh_mills_excess, flipped_huber_plan

__all__ = ["fh_upper_ends"]

_MARGIN = 1e-12  # float losses within this (relative) of eps are compared exactly in Q


_CONST: Dict[int, Tuple[Any, Any]] = {}  # precision -> (sqrt(pi/2), sqrt 2) at that precision (core.sqrt_half_pi, core.sqrt2)


def _mills(x: arb, p: int) -> Any:
    """:func:`.core.mills` of a ball with a positive lower end at the current precision ``p``, or None where it would
    take the asymptotic series: R(m) at the midpoint m as :func:`.core._mills_point_eval` forms it (m^2 < 4 prec: the
    erfc form, at ``2 log2 m + 16`` more bits), widened by the radius over 1 + lo^2.

    The same arb operations on the same inputs at the same precisions as before, so the same ball; only the
    bookkeeping is cheaper: the exponent of ``m`` from ``math.frexp`` of its float (which can differ only where the
    float rounds up to a power of two: then from ``man_exp`` as before), the precision set directly and the radius
    read without a copy (``rad()`` is an exact ball already)."""
    m = x.mid()
    m2 = m * m
    if not m2 < 4 * p:
        return None
    f, e = _frexp(float(m))
    if f == 0.5 or f == -0.5 or not f:  # rounded to a power of two (or 0): the exact exponent, as core.arb_bits
        man, ex = m.man_exp()
        e = int(abs(man)).bit_length() + int(ex)
    q = p + 2 * e + 16 if e > 0 else p + 16  # core.arb_bits
    c = _CONST.get(q)
    if c is None:
        with ctx.workprec(q):
            c = _CONST[q] = (sqrt_half_pi(), sqrt2())
    ctx.prec = q
    try:
        val = c[0] * (m / c[1]).erfc() * (m2 / 2).exp()
    finally:
        ctx.prec = p
    val = +val
    r = x.rad()
    if r.is_zero():
        return val
    lo = x.lower()
    if not lo > 0:
        lo = _ZERO
    return val + arb(0, (r * (1 / (1 + lo * lo))).upper())


_ZERO = arb(0)


def _settle(x: arb, rel_ball: arb, pr: int, boost: int, max_prec: int) -> Any:
    """``x``, or None where :func:`.enclosures.upper_end` would go on to a higher precision (its stopping test)."""
    lo_x, hi_x = x.lower(), x.upper()
    if lo_x == hi_x:
        return x
    p = ctx.prec
    ctx.prec = p + 64
    try:
        done = bool(lo_x > 0 and (hi_x - lo_x) <= lo_x * rel_ball)
    finally:
        ctx.prec = p
    if not (done or hi_x < SUBNORMAL) and 2 * pr + boost <= max_prec:  # enclosures.below_subnormal, hi_x at hand
        return None
    return x


def fh_upper_ends(epsilons: Iterable[float], sensitivity: float, alpha: float, gamma: float, *,
                  rel_width: float = 2.0**-40, max_prec: int = 1024) -> List[Tuple[int, int]]:
    """:func:`.enclosures.profile_upper_ends` of ``FH(alpha, gamma^2)`` (the same ends; see the module docstring)."""
    dl = SENSITIVITY.check(sensitivity)
    rel = check_end_options(rel_width, max_prec)
    rel_ball = arb(rel)  # exact (a float), at any precision
    pr = min(START_PREC, max_prec)
    _, plan0, _ = flipped_huber_plan(fmpq(0), dl, alpha, gamma)
    bq, Dq = plan0.b, plan0.D  # the objects every plan of this law at dl holds (memoised by flipped_huber_plan)
    geo = fh_geometry(bq, Dq)
    losses = geo.losses
    lf = [float(x) for x in losses]
    lo_f = [x - _MARGIN * abs(x) - 1e-300 for x in lf]
    hi_f = [x + _MARGIN * abs(x) + 1e-300 for x in lf]
    bb_q = bq * bq
    bD1, b_boost = geo.bD1, geo.b_boost
    out: List[Tuple[int, int]] = []
    zs: Dict[int, Any] = {}  # working precision -> Z (fh_constants) at it
    home = ctx.prec
    for e in epsilons:
        if type(e) is float and e >= 0.0 and e != math.inf:
            eq = fmpq(*e.as_integer_ratio())  # EPSILON.check of a float: its exact value
        else:
            eq = EPSILON.check(e)
            e = float(eq)
        j = None
        exact_point = False
        for i in range(len(lf)):
            if e < lo_f[i]:
                j = i
                break
            if e <= hi_f[i] and losses[i] >= eq:
                j = i
                exact_point = losses[i] == eq
                break
        pc = None if exact_point else geo.piece(j)
        laplace = pc is not None and pc.neg and pc.x_lin and pc.y_lin  # Table I case (ii): t1 < 0, t2 <= b
        if pc is None or pc.A != 0 or not (laplace or not (pc.neg or pc.x_lin)):
            out.append(upper_end(*flipped_huber_plan(eq, dl, alpha, gamma)[:2], rel, max_prec))
            continue
        t1 = (eq - pc.C) / pc.B
        if laplace:  # -b <= t1 < 0, t2 <= b: |t1| = -t1, r(t1) = b |t1|
            ax_q = -t1
            boost = 2 * bits(ax_q + bD1) + b_boost
            with ctx.workprec(pr + boost):
                b, D, bb, hb, z = fh_constants(bq, Dq)
                ax = arb(ax_q)
                t2 = arb(t1 + Dq)
                r1 = arb(bq * ax_q)
                w = arb(2 * t1 + Dq)
                vd = fh_mills_excess(bq, Dq) * (-(b * (b - t2))).exp() * -((-(b * w)).expm1())
                total = (-r1).exp() * vd
                total = total + 2 * (-((-(b * ax)).expm1()) / b)
                x = _settle(clip_unit(total / z), rel_ball, pr, boost, max_prec)
        else:  # t1 > 0 on the Gaussian branch: |t1| = t1, r(t1) = (t1^2 + b^2)/2
            boost = 2 * bits(t1 + bD1) + b_boost
            wp = pr + boost
            zg = zs.get(wp)
            if zg is None:
                with ctx.workprec(wp):
                    zg = zs[wp] = fh_constants(bq, Dq)[4]
            ctx.prec = wp
            try:
                m1 = _mills(arb(t1), wp)
                m2 = None if m1 is None else _mills(arb(t1 + Dq), wp)  # t1 + D > t1: None too where m1 is
                x = None if m2 is None else \
                    _settle(clip_unit(((-arb((t1 * t1 + bb_q) / 2)).exp() * (m1 - m2)) / zg), rel_ball, pr, boost,
                            max_prec)
            finally:
                ctx.prec = home
        if x is None:
            out.append(upper_end(*flipped_huber_plan(eq, dl, alpha, gamma)[:2], rel, max_prec))
            continue
        man, ex = x.upper().man_exp()  # at the caller's precision (rounded up to it), as upper_end
        out.append((int(man), int(ex)))
    return out

