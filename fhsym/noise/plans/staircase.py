"""The certificate plan of the staircase (design ``eps0``, ``Delta0``, ``gamma``; step edge ``w = fl(gamma Delta0)``,
the double the mechanism uses).

In units of ``Delta0`` (``d = Delta/Delta0``, ``W = w/Delta0``, ``b = e^{-eps0}``, level
``l(x) = floor(x) + [frac(x) >= W]``, density ``a b^{l(|x|)}`` with ``a = (1 - b)/(2(W + (1 - W) b))``).  The integrand
vanishes for ``t < -d/2`` (there ``|t + d| <= |t|``).  On ``t >= 0`` it repeats with factor ``b`` per period, so that
part is ``1/(1 - b)`` times the integral over ``[0, 1)``.  On ``[-d/2, 0)`` put ``v = -t = j + w``: the level
difference is ``n0(w) - 2j`` and the weight ``b^{j + l(w)}``; summing the geometric series over the ``M`` periods with
a positive factor gives, exactly,
``sum_{j<M} b^j (1 - e^{eps - (n0 - 2j) eps0}) = (1 - b^M)/(1 - b) (1 - e^{eps - (n0 - M + 1) eps0})``.
Lengths, levels, ``M`` and every exponent are exact rationals; the number of pieces is O(1) for any ``Delta/Delta0``.
delta is exactly 0 when no factor is positive.  That this is the profile of the declared step density
(``fhsym/symbolic/laws/staircase.py``): ``python -m proofs --only step_staircase``, row ``certificate_plan``.

>>> from functools import partial
>>> from fhsym._core.arb import enclose
>>> enclose(partial(staircase_plan_of, epsilon0=1.0, sensitivity0=1.0, width=0.5), 1.0, 1.0).upper  # pure eps0-DP
0.0
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Tuple

from flint import arb, ctx, fmpq, fmpz

from ..._core.arb import Plan
from ..._core.arb.core import bits, exact

__all__ = ["StaircasePlan", "staircase_plan", "staircase_eval", "staircase_plan_of"]

_ZERO = fmpq(0)


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


def staircase_plan_of(eps: fmpq, delta_s: fmpq, epsilon0: float, sensitivity0: float, width: float) -> Plan:
    """The staircase (design eps0, Delta0; step edge the double ``width`` = fl(gamma Delta0) it uses)."""
    d0 = exact(sensitivity0)
    plan = staircase_plan(eps, delta_s / d0, exact(epsilon0), exact(width) / d0)
    how = "no positive level difference: delta = 0 exactly" if plan.zero else (
        f"{len(plan.part1)} + {len(plan.part2)} pieces, geometric sums in closed form")
    return staircase_eval, plan, f"staircase: {how}"
