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

With ``series=True`` (grid format "pld-exact-2" of :mod:`fhsym.accounting.pld_exact`) the Gaussian-branch nodes take
another ball: the difference of Mills ratios from a Taylor series shared by the nodes of a cell (the series rule,
below), no erfc per node; tests/test_pld_exact_series.py checks its enclosure against mpmath and that on issued grids
it gives the same integer nodes, hence the same bound, as the per-node balls.
"""

from __future__ import annotations

import math
from bisect import bisect_left as _bisect_left
from math import frexp as _frexp
from typing import Any, Dict, Iterable, List, Optional, Tuple

from flint import arb, arb_poly, ctx, fmpq

from ..._core.arb.core import bits, mills, sqrt2, sqrt_half_pi
from ..._core.arb.enclosures import (EPSILON, SENSITIVITY, START_PREC, SUBNORMAL, check_end_options, clip_unit,
                                     upper_end)
from .flipped_huber import fh_constants, fh_geometry, fh_mills_excess, flipped_huber_plan

__all__ = ["fh_upper_ends", "SERIES_TERMS", "SERIES_CELLS_LOG2"]

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

# The series rule (grid format "pld-exact-2" of :mod:`fhsym.accounting.pld_exact`): at a node on the Gaussian
# branch (t1 > 0), R(t1) - R(t1 + D) (R the Mills ratio) from the Taylor polynomial of F(t) = R(t) - R(t + D) about the
# centre of t1's cell.  A binade [2^e, 2^(e+1)) is cut into 2^SERIES_CELLS_LOG2 cells of width
# w = 2^(e - SERIES_CELLS_LOG2); t1's cell [i w, (i + 1) w) has the centre c = (i + 1/2) w, |t1 - c| <= rho = w/2
# (checked on the ball of s = t1 - c), and every point between c and t1 is >= xi = i w >= 2^e.  With
# R(x) = int_0^inf e^{-x u - u^2/2} du (x >= 0), |R^(n)(y)| = int_0^inf u^n e^{-y u - u^2/2} du <= n!/y^(n+1) for y > 0,
# so |F^(N)(y)| <= 2 N!/y^(N+1) (D > 0) and Lagrange's remainder of the degree-(N - 1) Taylor polynomial is at most
# 2 rho^N / xi^(N + 1) (rho/xi <= 2^-(SERIES_CELLS_LOG2 + 1): 2^-131 / xi at N = 22).  The Taylor coefficients
# a_n = R^(n)(x0)/n! at x0 = c and at x0 = c + D come from a_0 = R(x0) (:func:`fhsym._core.arb.core.mills` of the
# exact x0) and R' = x R - 1, i.e. a_1 = x0 a_0 - 1, (n + 1) a_(n+1) = x0 a_n + a_(n-1), in ball arithmetic at a
# precision fixed by the cell alone (the recurrence loses at most about 2 N log2(x0) bits; arb accounts for every one);
# F's are their differences.  The polynomial is evaluated at the ball of s.  The ball is deterministic in t1, D and
# the working precision: the same on every machine and in every order (a cell's coefficients are memoised, never a
# function of which node came first).
SERIES_TERMS = 22
SERIES_CELLS_LOG2 = 5
_SERIES: Dict[Tuple[int, int], Dict[Tuple[int, int], Tuple[Any, Any, Any, Any, fmpq]]] = {}  # D -> (e, i) -> cell


def _taylor_mills(x0: arb, terms: int) -> List[Any]:
    a = [mills(x0)]
    a.append(x0 * a[0] - 1)
    for n in range(1, terms - 1):
        a.append((x0 * a[n] + a[n - 1]) / (n + 1))
    return a


def _cells(Dq: fmpq) -> Dict[Tuple[int, int], Tuple[Any, Any, Any, Any, fmpq]]:
    """The memo of the cells of D (one dict per D: a node looks its cell up by two small integers)."""
    key = (int(Dq.p), int(Dq.q))
    got = _SERIES.get(key)
    if got is None:
        if len(_SERIES) >= 64:
            _SERIES.clear()
        got = _SERIES[key] = {}
    return got


def _cell_series(e: int, i: int, Dq: fmpq, cells: Dict[Tuple[int, int], Tuple[Any, Any, Any, Any, fmpq]]
                 ) -> Tuple[Any, Any, Any, Any, fmpq]:
    """(Taylor polynomial of F about c, remainder ball, c, rho as balls, c exact) of cell (e, i) (memoised in
    ``cells``, :func:`_cells` of D)."""
    got = cells.get((e, i))
    if got is not None:
        return got
    k = SERIES_CELLS_LOG2 + 1
    rho = fmpq(1, 2 ** (k - e)) if e < k else fmpq(2 ** (e - k))
    cq = (2 * i + 1) * rho  # (i + 1/2) w, an exact dyadic
    xi = 2 * i * rho
    top = cq + Dq + rho  # the largest argument of R: its size sets the recurrence's precision
    with ctx.workprec(START_PREC + 64 + 2 * SERIES_TERMS * (bits(top) + 1)):
        a = _taylor_mills(arb(cq), SERIES_TERMS)
        b = _taylor_mills(arb(cq + Dq), SERIES_TERMS)
        rem = arb(0, (2 * arb(rho) ** SERIES_TERMS / arb(xi) ** (SERIES_TERMS + 1)).upper())
        diff = [x - y for x, y in zip(a, b)]
        c_ball, rho_ball = arb(cq), arb(rho)  # exact here (7-bit mantissas), whatever the caller's precision
    with ctx.workprec(START_PREC + 32):  # rounded (a ball containing each coefficient's) for a cheaper evaluation
        poly = arb_poly([+x for x in diff])
    if len(cells) >= 4096:  # (a grid of ~3000 nodes uses ~120 cells)
        cells.clear()
    out = (poly, rem, c_ball, rho_ball, cq)
    cells[(e, i)] = out
    return out


def _cell_of(x: fmpq) -> Tuple[int, int]:
    """(e, i) of the exact x > 0: 2^e <= x < 2^(e+1), i = floor(x / 2^(e - SERIES_CELLS_LOG2)) (integers only)."""
    n, d = x.p, x.q
    e = int(n.bit_length()) - int(d.bit_length())
    if not ((n >= d << e) if e >= 0 else (n << -e >= d)):
        e -= 1
    sh = SERIES_CELLS_LOG2 - e
    return e, int((n << sh) // d if sh >= 0 else n // (d << -sh))


def _fdiff_series(tb: arb, xf: float, t1: Any, Dq: fmpq, cells: Dict[Tuple[int, int], Tuple[Any, Any, Any, Any, fmpq]]
                  ) -> Any:
    """R(t1) - R(t1 + D) for t1 > 0 in the ball ``tb`` (``xf`` a float near it, ``t1`` a callable giving it exactly) and
    D > 0 at the current precision, by the series rule above; None where t1 is not > 0.

    The cell is first taken from ``xf`` (``math.frexp``); where the ball of s = t1 - c is not within rho of 0 (t1 near
    a cell's edge, or the float rounded across it) the exact cell of t1 (:func:`_cell_of`) is used: either way
    |t1 - c| <= rho holds for the exact t1 (checked: on the ball, or exactly in Q; None where it would not)."""
    f, e = _frexp(xf)
    if f > 0.0:
        poly, rem, c, rho, _ = _cell_series(e - 1, int(math.ldexp(f, SERIES_CELLS_LOG2 + 1)), Dq, cells)
        sb = tb - c
        if sb.upper() <= rho and sb.lower() >= -rho:
            return poly(sb) + rem
    tq = t1()
    if not tq > 0:
        return None
    e, i = _cell_of(tq)
    poly, rem, _, _, cq = _cell_series(e, i, Dq, cells)
    sq = tq - cq
    if not abs(sq) * (2 * i + 1) <= cq:  # |t1 - c| <= rho = c/(2i + 1), exactly: the remainder bound's premise
        return None  # (never, _cell_of being right; checked rather than assumed)
    return poly(arb(sq)) + rem


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


def _exact_t1(geo: Any, j: int, npts: int, e: float) -> fmpq:
    pc = geo.piece(j if j < npts else None)
    t1: fmpq = (fmpq(*e.as_integer_ratio()) - pc.C) / pc.B
    return t1


def _series_ends(epsilons: List[Any], geo: Any, lo_f: List[float], hi_f: List[float], bq: fmpq, Dq: fmpq,
                 rel_ball: arb, pr: int, max_prec: int) -> Tuple[List[Optional[Tuple[int, int]]], List[int]]:
    """The series rule's ends at the Gaussian-branch nodes (t1 > 0 on a linear piece of ``P``, eps a float not
    within the margin of a point of ``P``) whose ball passes the stopping test; the indices of the others."""
    out: List[Optional[Tuple[int, int]]] = [None] * len(epsilons)
    rest: List[int] = []
    if not Dq > 0:
        return out, list(range(len(epsilons)))
    cells = _cells(Dq)
    pf: Dict[int, Tuple[float, float]] = {}  # j -> (float C, float B) of a Gaussian-branch piece
    sc: Dict[Tuple[int, int], Tuple[Any, Any, Any, Any]] = {}  # (j, precision) -> C, B, b^2, Z as balls
    bD1f = float(geo.bD1)
    b_boost = geo.b_boost
    npts = len(hi_f)
    home = ctx.prec
    for k, e in enumerate(epsilons):
        if not (type(e) is float and 0.0 <= e < math.inf):
            rest.append(k)
            continue
        j = _bisect_left(hi_f, e)  # hi_f[i] < e for i < j: the loop of fh_upper_ends passes them
        if j < npts and e >= lo_f[j]:  # within the margin of a point of P: compared exactly there
            rest.append(k)
            continue
        pcf = pf.get(j)
        if pcf is None:
            pc = geo.piece(j if j < npts else None)
            if pc.A != 0 or pc.neg or pc.x_lin:  # not the Gaussian branch (Table I case (v))
                pf[j] = (math.nan, math.nan)
                rest.append(k)
                continue
            pcf = pf[j] = (float(pc.C), float(pc.B))
        xf = (e - pcf[0]) / pcf[1]  # t1, roughly: it picks the precision and the cell, never a value
        if not 0.0 < xf < 1e300:  # (nan: not the Gaussian branch)
            rest.append(k)
            continue
        wp = pr + 2 * max(0, _frexp(xf + bD1f)[1] + 1) + b_boost
        cst = sc.get((j, wp))
        if cst is None:
            pc = geo.piece(j if j < npts else None)
            with ctx.workprec(wp):
                cb = fh_constants(bq, Dq)
                cst = sc[(j, wp)] = (arb(pc.C), arb(pc.B), cb[2], cb[4])
        ctx.prec = wp
        try:
            tb = (arb(e) - cst[0]) / cst[1]  # a ball containing t1 = (eps - C)/B (e is eps exactly)
            dm = _fdiff_series(tb, xf, lambda: _exact_t1(geo, j, npts, e), Dq, cells)
            x = None if dm is None else \
                _settle(clip_unit(((-((tb * tb + cst[2]) / 2)).exp() * dm) / cst[3]), rel_ball, pr, wp - pr, max_prec)
        finally:
            ctx.prec = home
        if x is None:
            rest.append(k)
            continue
        man, ex = x.upper().man_exp()
        out[k] = (int(man), int(ex))
    return out, rest


def fh_upper_ends(epsilons: Iterable[float], sensitivity: float, alpha: float, gamma: float, *,
                  rel_width: float = 2.0**-40, max_prec: int = 1024, series: bool = False) -> List[Tuple[int, int]]:
    """:func:`.enclosures.profile_upper_ends` of ``FH(alpha, gamma^2)`` (the same ends; see the module docstring).

    ``series``: the series rule (grid format "pld-exact-2"): at the Gaussian-branch nodes (eps a float, not within
    the margin of a point of ``P``), R(t1) - R(t1 + D) from :func:`_fdiff_series` instead of two erfc balls, t1 as
    the ball (eps - C)/B, its stopping test as :func:`_settle` (:func:`_series_ends`) -- other balls, so other ends;
    every other node, and a node whose ball fails the stopping test, as without it."""
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
    if series:
        epsilons = list(epsilons)
        got, rest = _series_ends(epsilons, geo, lo_f, hi_f, bq, Dq, rel_ball, pr, max_prec)
        if rest:  # every other node as without the series rule
            for k, end in zip(rest, fh_upper_ends([epsilons[k] for k in rest], sensitivity, alpha, gamma,
                                                   rel_width=rel_width, max_prec=max_prec)):
                got[k] = end
        return got  # type: ignore[return-value]  # every entry is set: a series end or one of the rest
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

