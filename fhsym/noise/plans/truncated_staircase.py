"""Exact plans and ball-arithmetic evaluations for the truncated staircase (an (eps, delta) law near the optimum).

Units of the period ``Delta0`` throughout: ``W = w/Delta0`` (the first step's edge), ``beta = B/Delta0`` (the
truncation), ``d = Delta/Delta0`` (the shift), ``b = e^{-eps0}``.  The level of ``x >= 0`` is
``l(x) = #{k >= 0 : e_k <= x}`` with the edges ``e_k = k + W``; the unnormalised density is ``h(x) = b^{l(|x|)}`` on
``[-beta, beta]`` (0 outside), with ``H(x) = int_0^x h = m (1 - b^K)/(1 - b) + b^K c(r)`` for ``x = K + r``
(``0 <= r < 1``), ``m = W + b (1 - W)``, ``c(r) = min(r, W) + b [r - W]_+``; the density is ``h/(2 H(beta))``.

Profile, ``0 < d <= 1 <= beta`` (the lemma of :mod:`fhsym.noise.truncated_staircase`)::

    delta(eps; d) = ( [H(beta) - H(beta - d)] + (1 - e^{eps - eps0})_+ P_A ) / (2 H(beta)),
    P_A = L_0 + d b (1 - b^N)/(1 - b) + b^{N+1} L_{N+1} + [d > W] min(d - W, W),

with ``N = max(0, floor(beta - d - W))``, ``L_0 = [min(W, beta - d) - max(W - d, 0)]_+`` and
``L_{N+1} = [beta - e_{N+1}]_+``.  The first bracket is the mass whose shifted density is 0 (infinite loss), as a
sum of non-negative pieces (:func:`window_pieces`); every count, length and case is decided in Q.

For ``d >= 2 beta`` the supports are disjoint and delta = 1 exactly.  For ``1 < d < 2 beta`` the plan lists the pieces of the support where the integrand is positive, grouped by (level, level
difference), from every breakpoint of ``l(|t|)``, ``l(|t + d|)`` and the support (:func:`pieces`): exact and bounded
by ``MAX_PERIODS``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

from flint import arb, ctx, fmpq, fmpz

from ..._core.arb.core import bits

__all__ = ["TSPlan", "ts_plan", "ts_eval", "ts_variance", "ts_mass", "pieces", "window_pieces", "MAX_PERIODS"]

#: the law's bound is at most this many periods (its constructor refuses more): the general (``d > Delta0``) piece
#: list then has at most ~12 MAX_PERIODS breakpoints (shifts ``d >= 2 beta`` give exactly 1 without pieces)
MAX_PERIODS = 50_000
_ZERO = fmpq(0)
_ONE = fmpq(1)


def _floor(x: fmpq) -> int:
    return int(x.floor())


def level(x: fmpq, W: fmpq) -> int:
    """``l(|x|)``: the number of edges ``k + W`` (k >= 0) at or below ``|x|``."""
    ax = -x if x < 0 else x
    k = _floor(ax)
    return k + (1 if ax - k >= W else 0)


def window_pieces(lo: fmpq, hi: fmpq, W: fmpq) -> List[Tuple[fmpq, int]]:
    """``int_lo^hi h`` for ``0 <= lo <= hi`` as (length, level) pieces: cut at the edges inside (lo, hi)."""
    cuts = [lo]
    k = max(_floor(lo - W), 0)
    while k + W < hi:
        e = k + W
        if e > lo:
            cuts.append(e)
        k += 1
    cuts.append(hi)
    return [(y - x, level((x + y) / 2, W)) for x, y in zip(cuts[:-1], cuts[1:]) if y > x]


def pieces(d: fmpq, W: fmpq, beta: fmpq) -> Dict[Tuple[int, Optional[int]], fmpq]:
    """Total length per (level of t, level difference n >= 1, or None for the infinite loss) of the t in
    ``[-beta, beta]`` where ``[h(t) - e^eps h(t + d)]_+`` can be positive for some eps >= 0; any d > 0."""
    if beta + d > 3 * MAX_PERIODS:
        raise ValueError(f"sensitivity + bound must be at most {3 * MAX_PERIODS} design sensitivities for the truncated "
                         f"staircase's general profile; got {float(beta + d)!r} (in units of Delta0)")
    pts = {-beta, beta, beta - d, -beta - d}
    K = _floor(beta + d) + 1
    for k in range(K + 1):
        for e in (fmpq(k), k + W):
            for p in (e, -e, e - d, -e - d):
                pts.add(p)
    cuts = sorted(p for p in pts if -beta <= p <= beta)
    out: Dict[Tuple[int, Optional[int]], fmpq] = {}
    for x, y in zip(cuts[:-1], cuts[1:]):
        if y <= x:
            continue
        mid = (x + y) / 2
        l0 = level(mid, W)
        if abs(mid + d) > beta:
            key: Tuple[int, Optional[int]] = (l0, None)
        else:
            n = level(mid + d, W) - l0
            if n <= 0:
                continue
            key = (l0, n)
        out[key] = out.get(key, _ZERO) + (y - x)
    return out


@dataclass(frozen=True)
class TSPlan:
    eps: fmpq
    eps0: fmpq
    W: fmpq
    beta: fmpq
    K: int          # floor(beta)
    r: fmpq         # beta - K
    window: Tuple[Tuple[fmpq, int], ...]   # (beta - d, beta]: the infinite loss (closed form case)
    active: bool    # eps < eps0: the level-difference-1 term counts
    N: int
    L0: fmpq
    LN: fmpq
    t_neg: fmpq     # [d > W] min(d - W, W)
    d: fmpq
    general: Optional[Tuple[Tuple[int, Optional[int], fmpq], ...]]  # d > 1: every positive piece
    boost: int
    one: bool = False  # d >= 2 beta: disjoint supports, delta = 1 exactly


def ts_plan(eps: fmpq, d: fmpq, eps0: fmpq, W: fmpq, beta: fmpq) -> TSPlan:
    """The exact case data of the profile at eps, shift d (units of Delta0; needs 1 <= beta)."""
    if beta < 1:
        raise ValueError(f"bound must be at least the design sensitivity (beta >= 1 in its units); got {float(beta)!r}")
    K = _floor(beta)
    r = beta - K
    if d >= 2 * beta:
        return TSPlan(eps, eps0, W, beta, K, r, (), False, 0, _ZERO, _ZERO, _ZERO, d, None, 16, True)
    big = bits(eps0 * (beta + d + 2) + eps + 1) * 2 + 16
    if d > 1:
        general = tuple((l0, n, length) for (l0, n), length in sorted(pieces(d, W, beta).items(),
                                                                        key=lambda kv: (kv[0][0], kv[0][1] or 0)))
        return TSPlan(eps, eps0, W, beta, K, r, (), False, 0, _ZERO, _ZERO, _ZERO, d, general, big)
    window = tuple(window_pieces(beta - d, beta, W))
    N = max(0, _floor(beta - d - W))
    L0 = min(W, beta - d) - max(W - d, _ZERO)
    L0 = L0 if L0 > 0 else _ZERO
    LN = beta - (N + 1 + W)
    LN = LN if LN > 0 else _ZERO
    t_neg = min(d - W, W) if d > W else _ZERO
    return TSPlan(eps, eps0, W, beta, K, r, window, eps < eps0, N, L0, LN, t_neg, d, None, big)


def _bpow(k: int, eps0: fmpq) -> arb:
    return arb(-(fmpz(k) * eps0)).exp()


def _norm(plan: TSPlan, b: arb, omb: arb) -> arb:
    """H(beta) = m (1 - b^K)/(1 - b) + b^K c(r), a sum of non-negative terms."""
    W, r = plan.W, plan.r
    m = arb(W) + b * arb(1 - W)
    geo = -(arb(-(fmpz(plan.K) * plan.eps0)).expm1()) / omb
    c = arb(min(r, W)) + b * arb(r - W if r > W else _ZERO)
    return m * geo + _bpow(plan.K, plan.eps0) * c


def ts_mass(plan: TSPlan, prec: int) -> arb:
    """``2 H(beta)``: the normaliser (1/density of the first step)."""
    with ctx.workprec(prec + plan.boost):
        b = arb(-plan.eps0).exp()
        omb = -(arb(-plan.eps0).expm1())
        return 2 * _norm(plan, b, omb)


def ts_eval(plan: TSPlan, prec: int) -> arb:
    if plan.one:
        return arb(1)
    with ctx.workprec(prec + plan.boost):
        eps, eps0 = plan.eps, plan.eps0
        b = arb(-eps0).exp()
        omb = -(arb(-eps0).expm1())
        norm = 2 * _norm(plan, b, omb)
        if plan.general is not None:
            total = arb(0)
            for l0, n, length in plan.general:
                w = arb(length) * _bpow(l0, eps0)
                if n is None:
                    total += w
                elif n * eps0 > eps:
                    total += w * -(arb(eps - n * eps0).expm1())
            return total / norm
        inf_part = arb(0)
        for length, lev in plan.window:
            inf_part += arb(length) * _bpow(lev, eps0)
        if not plan.active:
            return inf_part / norm
        d = arb(plan.d)
        pa = arb(plan.L0) + arb(plan.t_neg)
        if plan.N >= 1:
            pa += d * b * -(arb(-(fmpz(plan.N) * eps0)).expm1()) / omb
        if plan.LN > 0:
            pa += _bpow(plan.N + 1, eps0) * arb(plan.LN)
        return (inf_part + pa * -(arb(eps - eps0).expm1())) / norm


def ts_variance(eps0: fmpq, W: fmpq, beta: fmpq, prec: int = 256) -> arb:
    """The variance ``S2(beta)/H(beta)`` (units of Delta0^2), ``S2(x) = int_0^x y^2 h(y) dy``: every term non-negative.

    ``S2 = sum_{k<K} b^k (k^2 m + 2k m1 + m2) + b^K (K^2 c + 2K c1 + c2)``, ``m1 = (W^2 + b(1 - W^2))/2``,
    ``m2 = (W^3 + b(1 - W^3))/3``, ``c1, c2`` the same integrals over ``[0, r]``; ``G_j = sum_{k<K} k^j b^k`` by the
    telescoping identities ``(1 - b) G1 = b G0 - K b^K`` and ``(1 - b) G2 = b (G0 + 2 G1) - K^2 b^K`` (balls: any
    cancellation widens the ball, never breaks it).
    """
    if beta < 1:
        raise ValueError(f"bound must be at least the design sensitivity; got {float(beta)!r}")
    K = _floor(beta)
    r = beta - K
    with ctx.workprec(prec + bits(eps0 * (beta + 2) + 1) * 2 + 16):
        b = arb(-eps0).exp()
        omb = -(arb(-eps0).expm1())
        m = arb(W) + b * arb(1 - W)
        m1 = (arb(W * W) + b * arb(1 - W * W)) / 2
        m2 = (arb(W * W * W) + b * arb(1 - W * W * W)) / 3
        rw = min(r, W)
        c = arb(rw) + b * arb(r - W if r > W else _ZERO)
        c1 = (arb(rw * rw) + b * arb(r * r - W * W if r > W else _ZERO)) / 2
        c2 = (arb(rw * rw * rw) + b * arb(r * r * r - W * W * W if r > W else _ZERO)) / 3
        bK = _bpow(K, eps0)
        # sum_{k<K} k^j b^k = S_j - b^K sum_i (K + i)^j b^i, S_0 = 1/(1-b), S_1 = b/(1-b)^2, S_2 = b(1+b)/(1-b)^3;
        # written as b^K-free positive sums: G0 = (1 - b^K)/(1-b); G1, G2 from the derivative identities
        G0 = -(arb(-(fmpz(K) * eps0)).expm1()) / omb
        G1 = (b * G0 - fmpz(K) * bK) / omb  # (1 - b) G1 = b G0 - K b^K (telescoping)
        G2 = (b * (G0 + 2 * G1) - fmpz(K * K) * bK) / omb  # (1 - b) G2 = b (G0 + 2 G1) - K^2 b^K (telescoping)
        full = G2 * m + 2 * G1 * m1 + G0 * m2
        part = bK * (fmpz(K * K) * c + 2 * fmpz(K) * c1 + c2)
        H = m * G0 + bK * c
        return (full + part) / H
