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
else ``H(b) + e^{-b^2} G(b, y - b)`` with ``G`` of :func:`fhsym._core.arb.core.gauss_strip`.

The plan lives with the law (issue 28: :mod:`fhsym.noise.plans`); :func:`flipped_huber_plan` is what
:class:`fhsym.FlippedHuber` returns from its ``_arb_plan`` hook, and :mod:`.fh_nodes` its fast path at the nodes of a
proven PLD.  The generic machinery that drives a plan stays in :mod:`fhsym._core.arb.enclosures`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Optional, Tuple

from flint import arb, ctx, fmpq

from ..._core.arb.core import bits, exact, gauss_strip, mills, mills_excess, sqrt_half_pi
from ..._core.arb.enclosures import Plan

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


class _Piece:
    """What the crossing needs on one open piece of P, the same for every eps whose crossing lies there (every test
    that chooses a branch or a Table I case compares t1 with points of P, the piece's ends)."""

    __slots__ = ("lo", "hi", "A", "B", "C", "neg", "x_lin", "y_lin", "case_linear", "case_quad", "boost_quad")

    def __init__(self, b: fmpq, D: fmpq, lo: Optional[fmpq], hi: Optional[fmpq], probe: fmpq, b_boost: int) -> None:
        a0, b0, c0 = _branch(probe, b)
        a1, b1, c1 = _branch(probe + D, b)
        self.lo, self.hi = lo, hi
        self.A, self.B, self.C = a1 - a0, 2 * a1 * D + b1 - b0, a1 * D * D + b1 * D + c1 - c0
        self.neg = probe < 0
        self.x_lin = b > 0 and abs(probe) <= b
        self.y_lin = b > 0 and probe + D <= b
        label = _label(probe, probe + D, b)
        self.case_linear = f"Table I case {label}, linear piece, t1 rational"
        self.case_quad = f"Table I case {label}, quadratic piece, t1 = root enclosed by arb sqrt"
        self.boost_quad = 0
        if self.A != 0:  # both ends are breakpoints (on the two tails both branches are Gaussian, A = 0)
            assert lo is not None and hi is not None
            self.boost_quad = 2 * bits(max(abs(lo), abs(hi)) + b + D + 1) + b_boost


class _Geometry:
    """The distinct points of P in increasing order, the exact loss at each, and the pieces (built when first asked)."""

    __slots__ = ("b", "D", "pts", "losses", "pieces", "bD1", "b_boost")

    def __init__(self, b: fmpq, D: fmpq) -> None:
        pts: list[fmpq] = []
        for p in sorted([-b - D, -D, b - D, -b, _ZERO, b]):
            if not pts or p != pts[-1]:
                pts.append(p)
        self.b, self.D, self.pts = b, D, pts
        self.losses = [_r(p + D, b) - _r(p, b) for p in pts]
        self.pieces: dict[int, _Piece] = {}
        self.bD1 = b + D + 1
        self.b_boost = 2 * bits(b) + 16

    def piece(self, j: Optional[int]) -> _Piece:
        """The open piece before point ``j`` (``None``: beyond the last point)."""
        k = -1 if j is None else j
        got = self.pieces.get(k)
        if got is None:
            pts = self.pts
            if j is None:  # beyond the last point: the right Gaussian tail
                got = _Piece(self.b, self.D, pts[-1], None, pts[-1] + 1, self.b_boost)
            elif j == 0:  # before the first point: the left tail
                got = _Piece(self.b, self.D, None, pts[0], pts[0] - 1, self.b_boost)
            else:
                got = _Piece(self.b, self.D, pts[j - 1], pts[j], (pts[j - 1] + pts[j]) / 2, self.b_boost)
            self.pieces[k] = got
        return got


# memoised per (b, D): by the objects (a proven PLD asks for thousands of crossings with the same b and D; hashing an
# fmpq is slow) and by value; the entries hold b and D, so an id is never reused while its entry lives
_GEO_BY_ID: dict[tuple[int, int], _Geometry] = {}
_GEO: dict[tuple[int, int, int, int], _Geometry] = {}


def fh_geometry(b: fmpq, D: fmpq) -> _Geometry:
    got = _GEO_BY_ID.get((id(b), id(D)))
    if got is not None and got.b is b and got.D is D:
        return got
    key = (int(b.p), int(b.q), int(D.p), int(D.q))
    got = _GEO.get(key)
    if got is None:
        got = _Geometry(b, D)
        if len(_GEO) >= 64:
            _GEO.clear()
        _GEO[key] = got
    if len(_GEO_BY_ID) >= 64:
        _GEO_BY_ID.clear()
    _GEO_BY_ID[(id(b), id(D))] = got
    return got


def _breakpoints(b: fmpq, D: fmpq) -> tuple[list[fmpq], list[fmpq]]:
    """The distinct points of P in increasing order and the exact loss at each (memoised per (b, D))."""
    g = fh_geometry(b, D)
    return g.pts, g.losses


def fh_plan(eps: fmpq, b: fmpq, D: fmpq) -> FHPlan:
    """Locate the crossing point exactly (see the module docstring)."""
    geo = fh_geometry(b, D)
    losses = geo.losses
    j = next((i for i, lp in enumerate(losses) if lp >= eps), None)
    if j is not None and losses[j] == eps:
        t1 = geo.pts[j]
        neg = t1 < 0
        x_lin = b > 0 and abs(t1) <= b
        y_lin = b > 0 and t1 + D <= b
        boost = 2 * bits(abs(t1) + geo.bD1) + geo.b_boost
        return FHPlan(eps, b, D, t1, None, neg, x_lin, y_lin, f"Table I case {_label(t1, t1 + D, b)}, exact breakpoint",
                      boost)
    pc = geo.piece(j)
    if pc.A == 0:  # t1 lies inside the open piece (L is continuous, non-decreasing, below eps before it, above after)
        t1 = (eps - pc.C) / pc.B
        return FHPlan(eps, b, D, t1, None, pc.neg, pc.x_lin, pc.y_lin, pc.case_linear,
                      2 * bits(abs(t1) + geo.bD1) + geo.b_boost)
    assert pc.lo is not None and pc.hi is not None
    return FHPlan(eps, b, D, None, (pc.A, pc.B, pc.C, pc.lo, pc.hi), pc.neg, pc.x_lin, pc.y_lin, pc.case_quad,
                  pc.boost_quad)


def _vdiff(x: arb, y: arb, w: arb, x_lin: bool, y_lin: bool, b: arb) -> arb:
    """V(x) - V(y) >= 0 for 0 <= x <= y, w = y - x."""
    if x_lin and y_lin:
        return mills_excess(b) * (-(b * (b - y))).exp() * -((-(b * w)).expm1())
    if x_lin:
        return mills_excess(b) * -((-(b * (b - x))).expm1()) + (mills(b) - mills(y))
    return mills(x) - mills(y)


# (b, D, precision) -> (b, D, b^2, H(b), Z) as balls: the same operations on the same inputs give the same balls, so a
# proven PLD's nodes need them once per precision (keyed by the objects, as _GEO_BY_ID, and holding them)
_CONSTS: dict[tuple[int, int, int], tuple[fmpq, fmpq, tuple[arb, arb, arb, arb, arb]]] = {}


def fh_constants(bq: fmpq, Dq: fmpq) -> tuple[arb, arb, arb, arb, arb]:
    key = (id(bq), id(Dq), ctx.prec)
    got = _CONSTS.get(key)
    if got is not None and got[0] is bq and got[1] is Dq:
        return got[2]
    b = arb(bq)
    bb = arb(bq * bq)
    if bq > 0:
        hb = -((-bb).expm1()) / b
        z = 2 * (hb + (-bb).exp() * mills(b))
    else:
        hb = arb(0)
        z = 2 * sqrt_half_pi()
    val = (b, arb(Dq), bb, hb, z)
    if len(_CONSTS) >= 256:
        _CONSTS.clear()
    _CONSTS[key] = (bq, Dq, val)
    return val


_EXCESS: dict[tuple[int, int, int], tuple[fmpq, fmpq, arb]] = {}


def fh_mills_excess(bq: fmpq, Dq: fmpq) -> arb:
    """mills_excess of the ball b of :func:`fh_constants` at the current precision, memoised as it is."""
    key = (id(bq), id(Dq), ctx.prec)
    got = _EXCESS.get(key)
    if got is not None and got[0] is bq and got[1] is Dq:
        return got[2]
    val = mills_excess(fh_constants(bq, Dq)[0])
    if len(_EXCESS) >= 256:
        _EXCESS.clear()
    _EXCESS[key] = (bq, Dq, val)
    return val


def fh_eval(plan: FHPlan, prec: int) -> arb:
    """Ball containing delta^(1)(eps) for the plan, computed at ``prec + plan.boost`` bits."""
    with ctx.workprec(prec + plan.boost):
        bq, Dq = plan.b, plan.D
        b, D, bb, hb, z = fh_constants(bq, Dq)
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
        if plan.neg:
            if plan.x_lin:
                h = -((-(b * ax)).expm1()) / b
            else:
                h = hb + (-bb).exp() * gauss_strip(b, axmb)
            total = total + 2 * h
        return total / z


# (alpha, gamma, id(Delta)) -> (Delta, b, D): the same b and D objects for every node of a proven PLD, whose memos
# (above) are keyed by the objects (the entry holds Delta, so its id is not reused while it lives)
_FH_UNITS: Dict[Tuple[float, float, int], Tuple[fmpq, fmpq, fmpq]] = {}


def flipped_huber_plan(eps: fmpq, delta_s: fmpq, alpha: float, gamma: float) -> Plan:
    """FH(alpha, gamma^2), Theorem 3 / eq 16: the exact crossing t1 and its case (:func:`fh_plan`).

    >>> from functools import partial
    >>> from fhsym._core.arb import enclose
    >>> e = enclose(partial(flipped_huber_plan, alpha=1.0, gamma=2.0), 1.0, 1.0)
    >>> e.lower <= e.upper and e.method.startswith("FH eq 16")
    True
    """
    key = (alpha, gamma, id(delta_s))
    got = _FH_UNITS.get(key)
    if got is None or got[0] is not delta_s:
        g = exact(gamma)
        got = (delta_s, exact(alpha) / g, delta_s / g)
        if len(_FH_UNITS) >= 64:
            _FH_UNITS.clear()
        _FH_UNITS[key] = got
    plan = fh_plan(eps, got[1], got[2])
    return fh_eval, plan, f"FH eq 16 via exact crossing t1: {plan.case}"
