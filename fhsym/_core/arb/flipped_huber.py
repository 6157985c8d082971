"""Rigorous enclosure of the 1-D flipped Huber privacy profile (Theorem 3, eq 13-16).

Standard units (gamma = 1): ``b = alpha/gamma``, ``D = Delta/gamma`` (exact
rationals), unnormalised density ``h(s) = exp(-r(s))`` with the flipped Huber
loss (eq 7) ``r(s) = b|s|`` for ``|s| <= b`` and ``(s^2 + b^2)/2`` beyond.

Crossing point.  The privacy loss ``L(s) = r(s + D) - r(s)`` is continuous and
non-decreasing (``h`` is log-concave) and, between consecutive points of
``P = {-b-D, -D, b-D, -b, 0, b}``, both ``r(s)`` and ``r(s + D)`` stay on one
branch, so ``L`` is a polynomial of degree <= 2 with rational coefficients there.
``L`` is evaluated exactly (in Q) at the points of ``P``; the first point with
``L >= eps`` either has ``L = eps`` (then ``t1`` is that rational point: this
covers every Table I boundary, including the flat stretch ``L = bD`` of the
Laplace part at the kink ``eps = alpha Delta/gamma^2``) or ``t1`` is the unique
root of ``A s^2 + B s + C = eps`` in the open piece before it: rational when
``A = 0``, otherwise ``t1 = (sqrt(disc) - B)/(2A) = 2(eps - C)/(B + sqrt(disc))``
(the root with ``L'(t1) >= 0``), ``disc`` an exact rational.  So the Table I case
is decided exactly, never by a ball comparison.

Profile.  With ``U(x) = int_x^inf h``, ``F(t) = U(t) - e^eps U(t + D)`` and any
``t1`` with ``L(t1) = eps``: the integrand of ``delta Z = int [h(s) - e^eps h(s + D)]_+``
is positive exactly where ``L > eps`` and zero on a flat stretch ``L = eps``, so
``delta Z = F(t1)`` (eq 16).  Writing ``U(x) = e^{-r(x)} V(x)`` for ``x >= 0``
with ``V(x) = R(x)`` (``x >= b``) and ``V(x) = 1/b + e^{-b(b - x)} (R(b) - 1/b)``
(``0 <= x <= b``; ``R`` the Mills ratio), using ``eps - r(t2) = -r(t1)``
(``t2 = t1 + D``) and ``U(t) = 2H(|t|) + U(|t|)`` for ``t < 0``
(``H(y) = int_0^y h``)::

    delta = ( [t1 < 0] 2 H(|t1|) + e^{-r(t1)} (V(|t1|) - V(t2)) ) / Z,
    Z = 2 (1 - e^{-b^2})/b + 2 e^{-b^2} R(b)      (Z = sqrt(2 pi) for b = 0).

Both terms are >= 0 (``V`` is decreasing and ``t2 >= |t1|``), ``e^eps`` never
appears (no overflow for eps up to 1e300), and ``V(x) - V(y)`` is written
without cancellation across the branch point:
``(1/b - R(b)) e^{-b(b - y)} (1 - e^{-b(y - x)})`` when both are <= b,
``(1/b - R(b)) (1 - e^{-b(b - x)}) + R(b) - R(y)`` when ``x <= b <= y``, and
``R(x) - R(y)`` when both are >= b.  ``H(y) = (1 - e^{-by})/b`` for ``y <= b``,
else ``H(b) + e^{-b^2} G(b, y - b)`` with ``G`` of :func:`.core.gauss_strip`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from flint import arb, ctx, fmpq

from .core import bits, gauss_strip, mills, mills_excess, sqrt_half_pi

__all__ = ["FHPlan", "fh_plan", "fh_eval"]

_ZERO = fmpq(0)
_HALF = fmpq(1, 2)


def _r(x: fmpq, b: fmpq) -> fmpq:
    ax = abs(x)
    return b * ax if ax <= b else (x * x + b * b) / 2


def _branch(x: fmpq, b: fmpq) -> tuple[fmpq, fmpq, fmpq]:
    """Coefficients (a, beta, c) of r(s) = a s^2 + beta s + c on the branch holding the non-kink point x."""
    if x > b or x < -b:
        return _HALF, _ZERO, b * b / 2
    return (_ZERO, b, _ZERO) if x > 0 else (_ZERO, -b, _ZERO)


@dataclass(frozen=True)
class FHPlan:
    """Exact (rational) description of the crossing point t1 and the branches used."""

    eps: fmpq
    b: fmpq
    D: fmpq
    t1: Optional[fmpq]  # exact crossing, or None when it is a quadratic root
    quad: Optional[tuple[fmpq, fmpq, fmpq, fmpq, fmpq]]  # (A, B, C, lo, hi) for the quadratic piece (lo, hi)
    neg: bool  # t1 < 0
    x_lin: bool  # |t1| <= b (Laplace branch; False when b = 0)
    y_lin: bool  # t2 = t1 + D <= b (False when b = 0)
    case: str
    boost: int


def _label(t1: fmpq, t2: fmpq, b: fmpq) -> str:
    if t1 < -b:
        return "(i)"
    if t1 < 0:
        return "(ii)" if t2 <= b else "(iii)"
    if t1 < b:
        return "(iv)" if t2 > b else "(iv) boundary: flat loss, eps = alpha Delta/gamma^2"
    return "(v)"


_POINTS: dict[tuple[int, int, int, int], tuple[list[fmpq], list[fmpq]]] = {}


def _breakpoints(b: fmpq, D: fmpq) -> tuple[list[fmpq], list[fmpq]]:
    """The distinct points of P in increasing order and the exact loss at each (memoised per (b, D))."""
    key = (int(b.p), int(b.q), int(D.p), int(D.q))
    got = _POINTS.get(key)
    if got is None:
        pts: list[fmpq] = []
        for p in sorted([-b - D, -D, b - D, -b, _ZERO, b]):
            if not pts or p != pts[-1]:
                pts.append(p)
        got = (pts, [_r(p + D, b) - _r(p, b) for p in pts])
        if len(_POINTS) >= 64:
            _POINTS.clear()
        _POINTS[key] = got
    return got


def fh_plan(eps: fmpq, b: fmpq, D: fmpq) -> FHPlan:
    """Locate the crossing point exactly (see the module docstring)."""

    def loss(s: fmpq) -> fmpq:
        return _r(s + D, b) - _r(s, b)

    pts, losses = _breakpoints(b, D)
    j = next((i for i, lp in enumerate(losses) if lp >= eps), None)
    quad = None
    if j is not None and losses[j] == eps:
        t1 = pts[j]
        probe = t1
        how = "exact breakpoint"
    else:
        lo: Optional[fmpq]
        hi: Optional[fmpq]
        if j is None:  # beyond the last point: the right Gaussian tail
            lo, hi = pts[-1], None
            probe = pts[-1] + 1
        elif j == 0:  # before the first point: the left tail
            lo, hi = None, pts[0]
            probe = pts[0] - 1
        else:
            lo, hi = pts[j - 1], pts[j]
            probe = (pts[j - 1] + pts[j]) / 2
        a0, b0, c0 = _branch(probe, b)
        a1, b1, c1 = _branch(probe + D, b)
        A = a1 - a0
        B = 2 * a1 * D + b1 - b0
        C = a1 * D * D + b1 * D + c1 - c0
        if A == 0:
            t1 = (eps - C) / B
            probe = t1
            how = "linear piece, t1 rational"
        else:
            # both ends are breakpoints: on the two tails (s < -b - D, s > b) both branches are Gaussian, A = 0
            assert lo is not None and hi is not None
            t1 = None
            quad = (A, B, C, lo, hi)
            how = "quadratic piece, t1 = root enclosed by arb sqrt"
    neg = probe < 0
    x_lin = b > 0 and abs(probe) <= b
    y_lin = b > 0 and probe + D <= b
    if t1 is not None:
        label = _label(t1, t1 + D, b)
        mag = abs(t1)
    else:
        # the open piece lies in one branch region: classify by its interior point
        assert quad is not None  # t1 is None exactly when the piece is quadratic
        label = _label(probe, probe + D, b)
        mag = max(abs(quad[3]), abs(quad[4]))
    big = mag + b + D + 1
    boost = 2 * bits(big) + 2 * bits(b) + 16
    return FHPlan(eps, b, D, t1, quad, neg, x_lin, y_lin, f"Table I case {label}, {how}", boost)


def _vdiff(x: arb, y: arb, w: arb, x_lin: bool, y_lin: bool, b: arb) -> arb:
    """V(x) - V(y) >= 0 for 0 <= x <= y, w = y - x."""
    if x_lin and y_lin:
        return mills_excess(b) * (-(b * (b - y))).exp() * -((-(b * w)).expm1())
    if x_lin:
        return mills_excess(b) * -((-(b * (b - x))).expm1()) + (mills(b) - mills(y))
    return mills(x) - mills(y)


def fh_eval(plan: FHPlan, prec: int) -> arb:
    """Ball containing delta^(1)(eps) for the plan, computed at ``prec + plan.boost`` bits."""
    with ctx.workprec(prec + plan.boost):
        bq, Dq = plan.b, plan.D
        b = arb(bq)
        D = arb(Dq)
        bb = arb(bq * bq)
        if plan.t1 is not None:
            tq = plan.t1
            t1 = arb(tq)
            ax = arb(abs(tq))
            t2 = arb(tq + Dq)
            r1 = arb(_r(tq, bq))
            w = arb(2 * tq + Dq) if plan.neg else D
            axmb = arb(abs(tq) - bq)
        else:
            assert plan.quad is not None  # FHPlan: t1 is None exactly when quad is set
            A, B, C, lo, hi = plan.quad
            sq = arb(B * B - 4 * A * (C - plan.eps)).sqrt()
            if B > 0:
                t1 = 2 * arb(plan.eps - C) / (arb(B) + sq)
            else:
                t1 = (sq - arb(B)) / arb(2 * A)
            t1 = t1.intersection(arb(lo).union(arb(hi)))
            ax = -t1 if plan.neg else t1
            t2 = t1 + D
            r1 = b * ax if plan.x_lin else (t1 * t1 + bb) / 2
            w = 2 * t1 + D if plan.neg else D
            axmb = ax - b
        vd = _vdiff(ax, t2, w, plan.x_lin, plan.y_lin, b)
        total = (-r1).exp() * vd
        if bq > 0:
            hb = -((-bb).expm1()) / b
            z = 2 * (hb + (-bb).exp() * mills(b))
        else:
            hb = arb(0)
            z = 2 * sqrt_half_pi()
        if plan.neg:
            if plan.x_lin:
                h = -((-(b * ax)).expm1()) / b
            else:
                h = hb + (-bb).exp() * gauss_strip(b, axmb)
            total = total + 2 * h
        return total / z
