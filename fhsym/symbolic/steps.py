"""Step (piecewise-constant, lattice) noise laws declared once in SymPy, and everything derived from them (issue 28).

A :class:`StepDeclaration` is a symmetric law whose density on ``t >= 0`` (standard units: the period is 1, the
member with period ``Delta0`` has density ``g(|x|/Delta0)/(Z Delta0)``) repeats a declared *cell pattern* with a
factor ``r = e^-epsilon`` per period::

    g(k + u) = r^k h_i          u in [lo_i, hi_i),  k = 0, 1, 2, ...      (cells tile [0, 1) in order)

optionally cut at ``beta = K + rho`` (``truncated``: ``K >= 1`` whole periods and ``rho`` in ``[0, 1)`` of the next;
g = 0 beyond).  The staircase of Geng & Viswanath is the pattern ``h = 1`` on ``[0, W)`` and ``h = r`` on ``[W, 1)``
(``fhsym/symbolic/laws/staircase.py``).

:func:`derive_steps` derives, with SymPy's ``summation`` (geometric sums ``sum k^j r^k``, closed) and
``integrate``, per cell ``i`` of period ``k`` (``u`` the offset in the period):

* the period mass ``m = sum_i (hi_i - lo_i) h_i`` and the normaliser ``Z = 2 sum_k r^k m`` (``2 m/(1 - r)``; for the
  cut law ``2 (m sum_{k<K} r^k + r^K C(rho))``, ``C`` the in-period cumulative mass);
* ``logpdf_i(k)``, ``sf_i(k, u)`` (upper tail from the top: ``r^k Cbar_i(u) + m sum_{j>k} r^j``, every term
  non-negative), ``half_i(k, u) = P(0 < T <= k + u)`` (from below, non-negative terms), the quantile per cell
  ``isf_i(k, q)`` (SymPy's ``solve`` of ``sf_i = q``, linear in u) and the period that holds a tail mass q
  (``solve(sf_0(k, 0) = q, r^k)``);
* the moments ``E|T|^n = (2/Z) sum_j C(n, j) S_j M_{n-j}`` (``S_j = sum_k k^j r^k``, ``M_p = int_0^1 u^p h``),
  the variance ``E T^2``, the entropy ``log Z - E[log g]``;
* for the cut law the per-period even moments up to ``max_moment`` (the summands of the variance and of E T^n:
  finite sums of non-negative terms), the per-period entropy terms, and the variance's closed sum.

Each derived form is kept twice: *raw* (what ``summation``/``integrate``/``solve`` return, the ``r < 1`` branch of a
convergent series) and *stable* (the same value written over ``omr = 1 - r`` and ``1 - r^X``, printed as
``-expm1(-epsilon)`` and ``-expm1(-epsilon X)``, with no subtraction of like terms); ``proofs/step_laws.py`` proves
raw = stable and ``d sf/du = -g/Z``, continuity across cells and periods, ``sf(0) = 1/2``, ``sf + half = 1/2``
symbolically, and checks each form against 50-digit mpmath integration of the declared step density.
:mod:`fhsym.codegen.step_laws` prints the stable forms into ``fhsym/_generated/declared/<law>.py``.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

import sympy as sp
from sympy.codegen.cfunctions import expm1

from .._core.declared_runtime import cut_far_plan  # the runs of periods (no SymPy: the law class runs it)

__all__ = ["StepParameter", "StepDeclaration", "StepDerivation", "Sub", "derive_steps", "profile_weights", "d_shift",
           "ProfilePeriods", "profile_periods", "profile_weights_cut", "profile_periods_cut", "CUT_CLIPS", "cut_far_plan", "f_shift", "n_top", "J_run", "x_eps", "to_epsilon", "unstable",
           "u", "a", "v", "k", "r", "omr", "eps", "K", "rho", "q"]

u = sp.Symbol("u", nonnegative=True)  # offset within a period (units of the period)
a = sp.Symbol("a", nonnegative=True)  # distance from u down from its cell's upper edge: u = hi_i - a (stable sf, isf)
v = sp.Symbol("v", nonnegative=True)  # distance from u up from its cell's lower edge: u = lo_i + v (stable half)
k = sp.Symbol("k", integer=True, nonnegative=True)  # period index
_j = sp.Symbol("j", integer=True, nonnegative=True)  # summation index
r = sp.Symbol("r", positive=True)  # ratio per period, e^-epsilon
omr = sp.Symbol("omr", positive=True)  # 1 - r (stable forms)
eps = sp.Symbol("epsilon", positive=True)  # design privacy: r = e^-epsilon
K = sp.Symbol("K", integer=True, positive=True)  # whole periods of a cut law
rho = sp.Symbol("rho", nonnegative=True)  # the cut's offset in period K
q = sp.Symbol("q", positive=True)  # a tail probability


@dataclass(frozen=True)
class StepParameter:
    """A shape of a step pattern: a non-negative SymPy symbol and its closed domain ``[lower, upper]``."""

    symbol: sp.Symbol
    domain: Tuple[float, float]

    def __post_init__(self) -> None:
        if not (isinstance(self.symbol, sp.Symbol) and self.symbol.is_nonnegative):
            raise ValueError(f"step shape symbol must be a SymPy Symbol declared nonnegative=True; got {self.symbol!r}")
        lo, hi = self.domain
        if not 0 <= lo < hi:
            raise ValueError(f"step shape {self.symbol.name}: domain must be [lower, upper], 0 <= lower < upper; "
                             f"got {self.domain!r}")


@dataclass(frozen=True)
class StepDeclaration:
    """A symmetric step law: a cell pattern ``(lo, hi, h)`` tiling ``[0, 1)``, repeated with factor ``r`` per period.

    ``h`` may use ``r`` and the shapes; ``lo``/``hi`` the shapes (affine).  ``truncated``: the law is cut at
    ``beta = K + rho`` (module docstring).  The declaration is refused (``ValueError``) when its cells do not tile
    ``[0, 1)`` in order, a cell length is negative at an end of the shape domain or is not affine in the shapes, or
    a height is not positive for ``0 < r < 1``.
    """

    name: str
    display_name: str
    cells: Tuple[Tuple[sp.Expr, sp.Expr, sp.Expr], ...]
    shapes: Tuple[StepParameter, ...] = ()
    truncated: bool = False
    scale: str = "sensitivity"
    source: str = ""
    facts: Tuple[str, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        cells = tuple((sp.sympify(a), sp.sympify(b), sp.sympify(h)) for a, b, h in self.cells)
        object.__setattr__(self, "cells", cells)
        if not cells:
            raise ValueError(f"cells must be a non-empty tuple of (lo, hi, height); got {self.cells!r}")
        facts: List[str] = []
        if cells[0][0] != 0 or cells[-1][1] != 1 or any(cells[i][1] != cells[i + 1][0] for i in range(len(cells) - 1)):
            raise ValueError(f"cells must tile [0, 1) in order (lo_0 = 0, hi_i = lo_(i+1), hi_last = 1); got {cells!r}")
        facts.append("PROVEN: the cells tile [0, 1) in order (lo_0 = 0, hi_i = lo_(i+1), hi_last = 1: exact equality)")
        syms = [s.symbol for s in self.shapes]
        for lo, hi, h in cells:
            length = sp.expand(hi - lo)
            if any(sp.diff(length, s, 2) != 0 for s in syms):
                raise ValueError(f"cells: the length {length} of a cell must be affine in the shapes")
            ends = [length]
            for s in self.shapes:  # affine in each shape: non-negative on the box iff at its corners
                ends = [e.subs(s.symbol, sp.Rational(v)) for e in ends for v in s.domain]
            if any(not (e >= 0) for e in ends):
                raise ValueError(f"cells: the length {length} must be >= 0 on the shape domain")
            if not sp.simplify(h.subs(r, sp.Symbol("rr", positive=True))).is_positive:
                raise ValueError(f"cells: the height {h} must be positive for 0 < r < 1")
        facts.append("PROVEN: every cell length is affine in the shapes and >= 0 at the corners of their domain "
                     "(hence on it); every height is positive for r > 0 (SymPy assumptions)")
        object.__setattr__(self, "facts", tuple(facts))

    @property
    def shape_symbols(self) -> Tuple[sp.Symbol, ...]:
        return tuple(s.symbol for s in self.shapes)

    def digest(self) -> str:
        """A digest of the declared pattern (cells, shapes, cut), for the generated module's freshness."""
        text = repr((self.cells, tuple((s.symbol.name, s.domain) for s in self.shapes), self.truncated))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def _raw_sum(expr: sp.Expr, lo: sp.Expr, hi: sp.Expr) -> sp.Expr:
    """``summation(expr(j), (j, lo, hi))`` on the branch ``0 < r < 1`` (a convergent geometric series)."""
    s = sp.summation(expr, (_j, lo, hi))
    if isinstance(s, sp.Piecewise):  # (value, r < 1) / (value, Ne(r, 1)) first, the divergent or r = 1 case after
        for val, cond in s.args:
            if cond == sp.true or cond.subs(r, sp.Rational(1, 2)) == sp.true:
                if not val.has(sp.Sum):
                    return sp.sympify(val)
        raise ValueError(f"summation of {expr} did not close: {s}")  # pragma: no cover - every pattern here closes
    return sp.sympify(s)


def _geometric(lo: sp.Expr, hi: Optional[sp.Expr]) -> Tuple[sp.Expr, sp.Expr]:
    """(raw, stable) of ``sum_{j=lo}^{hi} r^j`` (hi None: to oo): stable ``r^lo (1 - r^(hi - lo + 1))/omr``."""
    raw = _raw_sum(r**_j, lo, sp.oo if hi is None else hi)
    stable = r**lo / omr if hi is None else r**lo * _one_minus(hi - lo + 1) / omr
    return raw, stable


_OMX = sp.Function("omx")  # omx(X) = 1 - r^X, printed -expm1(-epsilon X)


class Sub(sp.Function):  # type: ignore[misc]  # sympy ships no type information: Function is Any
    """``Sub(x, y) = x - y`` kept as one node, printed ``(x - y)``: a difference of two clips of the same cell that
    must be formed before it is added to anything larger (else ``(tiny + c) - c`` loses the tiny part)."""

    nargs = 2


def _one_minus(power: sp.Expr) -> sp.Expr:
    return _OMX(power)


def unstable(expr: sp.Expr) -> sp.Expr:
    """A stable form back in ``r`` (``omr -> 1 - r``, ``omx(X) -> 1 - r^X``): what the proofs compare with raw."""
    return sp.sympify(expr).replace(_OMX, lambda p: 1 - r**p).replace(Sub, lambda p, s: p - s).subs(omr, 1 - r)


def to_epsilon(expr: sp.Expr) -> sp.Expr:
    """A stable form in ``epsilon``: ``r -> e^-epsilon``, ``omr -> -expm1(-epsilon)``, ``1 - r^X -> -expm1(-epsilon X)``
    (what the generated code evaluates: no ``1 - e^-x`` is formed by subtraction)."""
    e = sp.sympify(expr).replace(_OMX, lambda p: -expm1(-eps * p)).subs(omr, -expm1(-eps))
    e = e.subs(r, sp.exp(-eps))
    return sp.powsimp(e)


@dataclass
class StepDerivation:
    """The forms :func:`derive_steps` derives (module docstring); per-cell lists in cell order.

    Each ``*_raw`` is SymPy's own result; the unsuffixed name is the stable form (``omr``, ``omx``) with the same
    value.  Cut laws (``decl.truncated``) have the extra symbols ``K``, ``rho``; ``sf_top`` is the tail inside the
    cut period K (one form for every cell: in-period clips), ``var_period`` the variance's summand per whole period
    and ``var_last`` its last, partial period.
    """

    decl: StepDeclaration
    heights: List[sp.Expr]
    m: sp.Expr
    Z: sp.Expr
    Z_raw: sp.Expr
    logpdf: List[sp.Expr]
    sf: List[sp.Expr]
    sf_raw: List[sp.Expr]
    half: List[sp.Expr]
    half_raw: List[sp.Expr]
    isf: List[sp.Expr]
    period_of: sp.Expr  # r^k of the period whose start has tail mass q (solve(sf_0(k, 0) = q, r^k))
    moments: Dict[int, sp.Expr]
    moments_raw: Dict[int, sp.Expr]
    entropy: Optional[sp.Expr]
    entropy_raw: Optional[sp.Expr]
    sf_top: Optional[sp.Expr] = None
    sf_top_raw: Optional[sp.Expr] = None
    var_period: Optional[sp.Expr] = None
    var_last: Optional[sp.Expr] = None
    isf_top: Optional[List[sp.Expr]] = None
    moment_period: Optional[Dict[int, sp.Expr]] = None  # cut laws: r^k int_0^1 (k + u)^n h(u) du, even n <= max_moment
    moment_last: Optional[Dict[int, sp.Expr]] = None  # cut laws: the same over the cut period K (u < rho)
    nlog_period: Optional[sp.Expr] = None  # cut laws: -int g log g over period k (g = r^k h, standard units)
    nlog_last: Optional[sp.Expr] = None  # cut laws: the same over the cut period K
    steps: List[str] = field(default_factory=list)

    @property
    def variance(self) -> sp.Expr:
        return self.moments[2]


def _cum(cells: List[Tuple[sp.Expr, sp.Expr, sp.Expr]], i: int, at: sp.Expr) -> sp.Expr:
    """Mass of ``[0, at)`` within the period, ``at`` in cell i: ``sum_{j<i} len_j h_j + (at - lo_i) h_i``."""
    return sum(((b - a) * h for a, b, h in cells[:i]), sp.Integer(0)) + (at - cells[i][0]) * cells[i][2]


def _cum_upper(cells: List[Tuple[sp.Expr, sp.Expr, sp.Expr]], i: int, at: sp.Expr) -> sp.Expr:
    """Mass of ``[at, 1)`` within the period, ``at`` in cell i (non-negative terms)."""
    return (cells[i][1] - at) * cells[i][2] + sum(((b - a) * h for a, b, h in cells[i + 1:]), sp.Integer(0))


def _clip(cells: List[Tuple[sp.Expr, sp.Expr, sp.Expr]], at: sp.Expr) -> List[sp.Expr]:
    """Per cell, the part of ``[0, at)`` inside it: ``min(max(at, lo), hi) - lo`` (every cell at once)."""
    return [sp.Min(sp.Max(at, a), b) - a for a, b, _ in cells]


@functools.lru_cache(maxsize=None)  # derive_steps asks for S_0 .. S_6 27 times (every moment n sums S_0 .. S_n)
def _moment_sums(power: int, hi: Optional[sp.Expr]) -> Tuple[sp.Expr, sp.Expr]:
    """(raw, stable) of ``S_p = sum_{k=0}^{hi} k^p r^k`` (hi None: to oo); stable over omr (positive numerator)."""
    raw = _raw_sum(_j**power * r**_j, 0, sp.oo if hi is None else hi)
    if hi is None:  # r A_p(r)/(1 - r)^(p+1), A_p the Eulerian polynomial (positive coefficients)
        num = sp.factor(sp.simplify(raw * (1 - r) ** (power + 1)))
        return raw, sp.expand(num) / omr ** (power + 1)
    return raw, raw  # finite sums are evaluated term by term by the law (var_period); raw is only for proofs


d_shift = sp.Symbol("d", positive=True)  # a shift, in units of the period (0 < d <= 1)


def _levels(decl: StepDeclaration) -> Optional[List[int]]:
    """The integer levels l_i with h_i = r^(l_i), or None when a height is not a power of r."""
    out = []
    for _, _, h in decl.cells:
        base, ex = (h, sp.Integer(1)) if h == r else (h.as_base_exp() if h != 1 else (r, sp.Integer(0)))
        if base != r or not ex.is_Integer:
            return None
        out.append(int(ex))
    return out


def _overlap(uppers: List[sp.Expr], lowers: List[sp.Expr]) -> sp.Expr:
    """Length of ``[max(lowers), min(uppers))`` (0 if empty) as ``Max(0, Min(A - B))`` over the pairs: each difference
    is simplified by SymPy before it is printed (``W - (W - d) = d``), so no float subtraction cancels."""
    return sp.Max(0, sp.Min(*[sp.expand(A - B) for A in uppers for B in lowers]))


def _level_cells(decl: StepDeclaration) -> Optional[Tuple[List[Tuple[sp.Expr, sp.Expr, int]], List[Tuple[sp.Expr, sp.Expr, int]]]]:
    """``(cells, ext)`` for the lattice profiles: the declared cells ``(lo, hi, l_i)`` with their levels, and those
    cells followed by the same cells one period on (``[0, 2)``); None unless the heights are ``r^(l_i)`` with ``l_0 <=
    l_1 <= ... <= l_0 + 1``."""
    levels = _levels(decl)
    if levels is None or levels != sorted(levels) or levels[-1] > levels[0] + 1:
        return None
    cells = [(lo, hi, lv) for (lo, hi, _), lv in zip(decl.cells, levels)]
    ext = cells + [(1 + lo, 1 + hi, 1 + lv) for lo, hi, lv in cells]
    return cells, ext


@functools.lru_cache(maxsize=None)
def profile_weights(decl: StepDeclaration) -> Dict[int, sp.Expr]:
    """``W_n(d) = P(L(T + d) - L(T) = n)`` for ``n >= 1`` and a shift ``0 < d <= 1`` period, for an untruncated law
    whose heights are ``r^(l_i)`` with ``l_0 <= l_1 <= ... <= l_0 + 1`` (the global level ``L(x) = k + l(u)`` of |x|
    does not decrease in |x|).  The profile is then the finite sum ``delta(eps; d) = sum_n W_n(d) (1 - e^(eps - n
    eps0))_+`` (eps >= 0).  Derivation (exact interval arithmetic on the declared cells, geometric sums):

    * ``t = k + u >= 0``: ``L(t + d) - L(t) = L0(u + d) - l(u)`` (``L0`` the level on ``[0, 2)``) does not depend on
      k, so cell i of every period against cell j of ``[0, 2)`` contributes ``r^(l_i) |overlap| sum_k r^k``;
    * ``-d < t < 0``: ``|t| = s`` and ``t + d = d - s`` both lie in ``(0, d)``, period 0: ``l(d - s) - l(s)``;
    * ``t <= -d``: ``|t + d| <= |t|``, so ``n <= 0``: no contribution for eps >= 0.

    Returns ``{}`` when the heights are not such powers or the law is cut (its profile stays with
    :mod:`fhsym.noise.plans.truncated_staircase`)."""
    lc = _level_cells(decl)
    if decl.truncated or lc is None:
        return {}
    cells, ext = lc
    m = sum(((b - a) * h for a, b, h in decl.cells), sp.Integer(0))
    g_all = _geometric(0, None)[1]
    acc: Dict[int, sp.Expr] = {}
    for lo, hi, li in cells:
        for lj_lo, lj_hi, lj in ext:  # u in [lo, hi), u + d in [lj_lo, lj_hi)
            n = lj - li
            if n >= 1:
                acc[n] = acc.get(n, sp.Integer(0)) + r**li * g_all * _overlap([hi, lj_hi - d_shift], [lo, lj_lo - d_shift])
        for lj_lo, lj_hi, lj in cells:  # s = |t| in [lo, hi) and (0, d), d - s in [lj_lo, lj_hi)
            n = lj - li
            if n >= 1:
                acc[n] = acc.get(n, sp.Integer(0)) + r**li * _overlap([hi, d_shift - lj_lo, d_shift],
                                                                      [lo, d_shift - lj_hi, sp.Integer(0)])
    Z = 2 * m * g_all
    return {n: e / Z for n, e in sorted(acc.items())}


def _overlap_ordered(uppers: List[sp.Expr], lowers: List[sp.Expr], shift: sp.Symbol = d_shift) -> sp.Expr:
    """:func:`_overlap` with each difference ``c + s shift`` (``s = +-1``) whose shift-free part ``c`` has more than
    one term (``W - rho``, ``W - 1``) kept as ``Sub(c, -s shift)``, printed ``((c) - (-s shift))``: ``c`` is formed
    first, exact (Sterbenz) where it nearly cancels, so at a tiny shift with an edge ``c`` near 0 the overlap keeps its
    digits (``W + d - rho`` formed left to right errs by ``ulp(rho)/2`` on an overlap of order d: 8e-6 of the cut
    law's delta at d = 2e-12; ``W + f - 1`` at W = 1 - 1e-13: 7.4e-4 of the staircase's delta at d = 1 + 1.5e-13)."""
    diffs = []
    for A in uppers:
        for B in lowers:
            e = sp.expand(A - B)
            c = e.subs(shift, 0)
            diffs.append(Sub(c, c - e) if c != e and len(sp.Add.make_args(c)) > 1 else e)
    return sp.Max(0, sp.Min(*diffs))


@functools.lru_cache(maxsize=None)
def profile_weights_cut(decl: StepDeclaration) -> Tuple[Dict[int, sp.Expr], sp.Expr]:
    """The cut law's profile at a shift ``0 < d <= 1`` period: ``({n: W_n(d)}, I(d))`` with ``delta(eps; d) = I +
    sum_n W_n (1 - e^(eps - n eps0))_+`` (eps >= 0), ``I = P(T + d > beta)`` the mass whose shifted density is 0
    (an infinite loss), for a truncated declaration whose levels are as :func:`profile_weights` needs (``({}, 0)``
    otherwise).  Derivation (``beta = K + rho``, ``K >= 1``, so ``d <= 1 <= beta``), as :func:`profile_weights`:

    * ``t = k + u >= 0`` with ``t + d <= beta``: the level difference is the untruncated one; periods ``k <= K - 2``
      (``u + d < 2 <= 2 + rho``: never cut) add ``r^(l_i) |overlap| sum_(k<K-1) r^k``, period ``K - 1`` the overlap
      also below ``1 + rho - d`` times ``r^(K-1)``, period ``K`` the overlap below ``rho - d`` times ``r^K``;
    * ``t + d > beta >= t``: ``I``, the mass of ``(beta - d, beta]``: period ``K`` above ``rho - d``, period ``K - 1``
      above ``1 + rho - d``;
    * ``-d < t < 0``: ``|t|, t + d < d <= beta``: as uncut; ``t <= -d``: ``n <= 0`` (or density 0 at ``t < -beta``)."""
    lc = _level_cells(decl)
    if not decl.truncated or lc is None:
        return {}, sp.Integer(0)
    cells, ext = lc
    Z = derive_steps(decl).Z
    head = _geometric(0, K - 2)[1]  # sum_(k=0)^(K-2) r^k, stable: (1 - r^(K-1))/omr
    dd = d_shift
    acc: Dict[int, sp.Expr] = {}
    inf = sp.Integer(0)
    for (lo, hi, li), (_, _, h) in zip(cells, decl.cells):
        for lj_lo, lj_hi, lj in ext:
            n = lj - li
            if n >= 1:
                ups, lows = [hi, lj_hi - dd], [lo, lj_lo - dd]
                acc[n] = acc.get(n, sp.Integer(0)) + r**li * (
                    head * _overlap_ordered(ups, lows) + r**(K - 1) * _overlap_ordered(ups + [1 + rho - dd], lows)
                    + r**K * _overlap_ordered(ups + [rho - dd], lows))
        for lj_lo, lj_hi, lj in cells:
            n = lj - li
            if n >= 1:
                acc[n] = acc.get(n, sp.Integer(0)) + r**li * _overlap_ordered([hi, dd - lj_lo, dd], [lo, dd - lj_hi, sp.Integer(0)])
        inf += h * (r**K * _overlap_ordered([hi, rho], [lo, rho - dd]) + r**(K - 1) * _overlap_ordered([hi], [lo, 1 + rho - dd]))
    return {n: e / Z for n, e in sorted(acc.items())}, inf / Z


f_shift = sp.Symbol("f", nonnegative=True)  # the fraction of a period in a shift d = p + f (0 <= f < 1)
n_top = sp.Symbol("N", integer=True)  # the largest level difference of a run (p + c)
J_run = sp.Symbol("J", integer=True, nonnegative=True)  # the length of a run of periods
x_eps = sp.Symbol("x", positive=True)  # e^eps, eps the profile's privacy parameter


@dataclass(frozen=True)
class ProfilePeriods:
    """The profile at a shift ``d = p + f`` of ``p >= 1`` whole periods and ``0 <= f < 1`` (:func:`profile_periods`).

    ``head[m]``: ``P(T >= 0, L(T + d) - L(T) = p + m)`` (m >= 0, a function of f); ``block[c]``: per period j of
    ``|T|`` in ``(-d, 0)``, ``r^-j P(-T in [j, j + 1), L(T + d) - L(T) = p + c - 2 j)`` (a function of f, the same for
    every j < p); ``run``/``run_raw``: ``sum_{j<J} r^j (1 - x r^(N - 2 j))`` closed (stable, over omr) and as SymPy's
    ``summation`` returns it; the profile is then (eps >= 0, x = e^eps)::

        delta(eps; p + f) = sum_m head[m] (1 - x r^(p+m))_+  +  sum_c block[c] run(J_c, N = p + c)

    with ``J_c`` the number of ``j = 0 .. p-1`` whose level difference ``p + c - 2 j`` has ``(p + c - 2 j) eps0 > eps``
    (the terms of a run decrease in j, so they are its first J_c)."""

    head: Dict[int, sp.Expr]
    block: Dict[int, sp.Expr]
    run: sp.Expr
    run_raw: sp.Expr
    run_mass: sp.Expr  # (1 - r^J)/(1 - r), the run's first factor (stable: omx(J)/omr)


@functools.lru_cache(maxsize=None)
def profile_periods(decl: StepDeclaration) -> Optional[ProfilePeriods]:
    """The profile of the laws :func:`profile_weights` serves at a shift ``d = p + f`` beyond one period (``p >= 1``
    whole periods, ``0 <= f < 1``; :class:`ProfilePeriods`), or None for the others.  Derivation (levels ``L(x) =
    k + l(u)`` of ``|x| = k + u``, ``L0`` the level on ``[0, 2)``):

    * ``t = k + u >= 0``: ``L(t + d) - L(t) = p + L0(u + f) - l(u)``, independent of k (``>= p``, since L does not
      decrease): cell i against cell j of ``[0, 2)`` adds ``r^(l_i) |overlap| sum_k r^k`` to ``head[l_j - l_i]``;
    * ``-d < t < 0``: ``s = |t| = j + u`` (``j = 0 .. p``) and ``d - s = (p - j - 1) + (1 + f - u)`` with ``1 + f - u``
      in ``(f, 1 + f]``, so ``L(t + d) - L(t) = p - 2 j + c(u)``, ``c(u) = L0(1 + f - u) - l(u) - 1``: the period j
      of s adds ``r^j r^(l_i) |overlap|`` to the level ``p + c - 2 j`` (``block[c]``).  At ``j = p`` (``u < f``) the
      difference is ``l(f - u) - l(u) - p <= 1 - p <= 0``: nothing for ``p >= 1``;
    * ``t <= -d``: ``|t + d| <= |t|``: nothing for eps >= 0.

    Summed over the periods j of a run: ``sum_{j<J} r^j (1 - x r^(N - 2j)) = (1 - r^J)/(1 - r) (1 - x r^(N + 1 - J))``
    (``N + 1 - J`` is the mean of the run's largest and smallest level difference, so the last factor is positive
    whenever every term is)."""
    lc = _level_cells(decl)
    if not profile_weights(decl) or lc is None:
        return None
    cells, ext = lc
    m = sum(((b - a) * h for a, b, h in decl.cells), sp.Integer(0))
    head: Dict[int, sp.Expr] = {}
    block: Dict[int, sp.Expr] = {}
    for lo, hi, li in cells:
        for lj_lo, lj_hi, lj in ext:
            # t >= 0: u in [lo, hi), u + f in [lj_lo, lj_hi)
            head[lj - li] = head.get(lj - li, sp.Integer(0)) + r**li * _overlap_ordered(
                [hi, lj_hi - f_shift], [lo, lj_lo - f_shift], f_shift)
            # -d < t < 0: u in [lo, hi), 1 + f - u in [lj_lo, lj_hi) (u in (1 + f - lj_hi, 1 + f - lj_lo])
            c = lj - li - 1
            block[c] = block.get(c, sp.Integer(0)) + r**li * _overlap_ordered([hi, 1 + f_shift - lj_lo], [lo, 1 + f_shift - lj_hi], f_shift)
    # SymPy returns the two geometric sums as Piecewise terms (r = 1 apart): folded, the branch for 0 < r < 1
    folded = sp.piecewise_fold(sp.summation(r**_j * (1 - x_eps * r**(n_top - 2 * _j)), (_j, 0, J_run - 1)))
    run_raw = next(val for val, cond in folded.args if cond.subs(r, sp.Rational(1, 2)) == sp.true) \
        if isinstance(folded, sp.Piecewise) else folded
    run = _OMX(J_run) / omr * (1 - x_eps * r**(n_top + 1 - J_run))
    # head: sum_k r^k / Z = 1/(2 m); block: 1/Z = omr/(2 m) (Z = 2 m/omr: no 1/omr is formed and cancelled)
    return ProfilePeriods({c: e / (2 * m) for c, e in sorted(head.items())},
                          {c: e * omr / (2 * m) for c, e in sorted(block.items())},
                          run, run_raw, _OMX(J_run) / omr)


#: the clips of a cut law's periods beyond one period (:func:`profile_periods_cut`): name -> (extra upper bounds, extra
#: lower bounds) on u.  Head (``t = k + u >= 0``, ``t + d <= beta``): ``full`` periods ``k <= K - p - 2``, ``pen`` (k =
#: K - p - 1: ``u + f < 1 + rho``), ``last`` (k = K - p: ``u + f < rho``).  Block (``s = |t| = j + u``, ``s <= beta``
#: and ``d - s <= beta``): ``full``, ``lo0`` (j = p - K: ``u >= f - rho``), ``lo1`` (j = p - K - 1: ``u >= 1 + f -
#: rho``), ``hi`` (j = K: ``u < rho``) and the two together where j is both (``lo0hi``, ``lo1hi``).
CUT_CLIPS: Dict[str, Dict[str, Tuple[Tuple[sp.Expr, ...], Tuple[sp.Expr, ...]]]] = {
    "head": {"full": ((), ()), "pen": ((1 + rho - f_shift,), ()), "last": ((rho - f_shift,), ())},
    "block": {"full": ((), ()), "lo0": ((), (f_shift - rho,)), "lo1": ((), (1 + f_shift - rho,)), "hi": ((rho,), ()),
              "lo0hi": ((rho,), (f_shift - rho,)), "lo1hi": ((rho,), (1 + f_shift - rho,))},
}


@functools.lru_cache(maxsize=None)
def profile_periods_cut(decl: StepDeclaration) -> Optional[Dict[str, Dict[str, Dict[int, sp.Expr]]]]:
    """The cut law's profile at a shift ``d = p + f`` beyond one period (``p >= 1``, ``0 <= f < 1``; ``beta = K + rho``,
    ``Q = K - p``), for a truncated declaration whose levels are as :func:`profile_weights` needs (None otherwise):
    ``{"head": {clip: {m: mass}}, "block": {clip: {c: mass}}, "run": {"mass": {0: (1 - r^J)/(1 - r)}}}`` (clips:
    :data:`CUT_CLIPS`), each mass over the cut law's Z, so that (eps >= 0, x = e^eps)::

        delta(eps; p + f) = I + sum_m sum_(k=0)^Q r^k head[clip_k][m] (1 - x r^(p+m))_+
                              + sum_c sum_(j=0)^(p-1) r^j block[clip_j][c] (1 - x r^(p+c-2j))_+,

    ``I = P(T > beta - d)`` (the mass whose shifted density is 0, an infinite loss), ``clip_k`` ``full`` for ``k <= Q -
    2``, ``pen`` at ``Q - 1``, ``last`` at Q; ``clip_j`` ``full`` for ``-Q + 1 <= j <= K - 1``, ``lo1``/``lo0`` at ``j
    = -Q - 1``/``-Q``, ``hi`` at ``j = K`` (``lo1hi``/``lo0hi`` where they meet), no term for ``j > K`` or ``j < -Q
    - 1``.  Derivation: as :func:`profile_periods` (the level differences are the uncut law's wherever ``t`` and
    ``t + d`` lie in ``[-beta, beta]``), with the support's two constraints clipped per period: ``t + d <= beta`` on
    ``t = k + u >= 0`` (``u + f <= Q - k + rho``: periods ``k <= Q - 2`` whole since ``u + f < 2``), and on ``s = |t|
    = j + u`` in ``(0, d)`` both ``s <= beta`` (``j <= K - 1`` whole, ``u < rho`` at ``j = K``) and ``d - s <= beta``
    (``j + u >= -Q + f - rho``: whole for ``j >= -Q + 1``); ``t <= -d`` adds nothing (``|t + d| <= |t|``, in the
    support), nor does ``j = p`` (``l(f - u) - l(u) - p <= 0``)."""
    lc = _level_cells(decl)
    if not decl.truncated or lc is None:
        return None
    cells, ext = lc
    Z = derive_steps(decl).Z
    out: Dict[str, Dict[str, Dict[int, sp.Expr]]] = {"head": {}, "block": {}}
    out["run"] = {"mass": {0: _OMX(J_run) / omr}}  # (1 - r^J)/(1 - r): a run of J periods' geometric factor
    for part, clips in CUT_CLIPS.items():
        for name, (ups_x, lows_x) in clips.items():
            acc: Dict[int, sp.Expr] = {}
            for lo, hi, li in cells:
                for lj_lo, lj_hi, lj in ext:
                    if part == "head":  # u in [lo, hi), u + f in [lj_lo, lj_hi)
                        key, ups, lows = lj - li, [hi, lj_hi - f_shift], [lo, lj_lo - f_shift]
                    else:  # u in [lo, hi), 1 + f - u in [lj_lo, lj_hi)
                        key, ups, lows = lj - li - 1, [hi, 1 + f_shift - lj_lo], [lo, 1 + f_shift - lj_hi]
                    acc[key] = acc.get(key, sp.Integer(0)) + r**li * _overlap_ordered(
                        ups + list(ups_x), lows + list(lows_x), f_shift)
            # head keys m < 0 have no mass (u + f >= u: the level cannot drop)
            out[part][name] = {key: e / Z for key, e in sorted(acc.items()) if e != 0 and (part == "block" or key >= 0)}
    return out




@functools.lru_cache(maxsize=None)
def derive_steps(decl: StepDeclaration, max_moment: int = 6) -> StepDerivation:
    """Derive the forms of the module docstring from ``decl`` (cached per declaration and ``max_moment``).

    ``max_moment``: the highest n derived: ``E|T|^n`` for n = 1..max_moment (an untruncated law), the per-period
    summands ``moment_period[n]``/``moment_last[n]`` for the even n = 2..max_moment (a cut law; n = 2 is the
    variance's); an integer >= 2 (``ValueError`` otherwise)."""
    if isinstance(max_moment, bool) or not isinstance(max_moment, int) or max_moment < 2:
        raise ValueError(f"max_moment must be an integer >= 2 (the variance is E T^2), got {max_moment!r}")
    cells = list(decl.cells)
    hs = [h for _, _, h in cells]
    n_cells = len(cells)
    m = sum(((b - a) * h for a, b, h in cells), sp.Integer(0))
    steps: List[str] = [f"period mass m = {m}"]

    def M(p: int, upto: Optional[sp.Expr] = None) -> sp.Expr:
        """int_0^1 u^p h(u) du (upto: int_0^upto, clipped per cell)."""
        if upto is None:
            return sum((h * (b ** (p + 1) - a ** (p + 1)) / (p + 1) for a, b, h in cells), sp.Integer(0))
        ends = [(a, sp.Min(sp.Max(upto, a), b)) for a, b, _ in cells]
        return sum((h * (e ** (p + 1) - a ** (p + 1)) / (p + 1) for (a, e), h in zip(ends, hs)), sp.Integer(0))

    if not decl.truncated:
        g_all_raw, g_all = _geometric(0, None)
        Z_raw, Z = 2 * m * g_all_raw, 2 * m * g_all
        tail_raw, tail = _geometric(k + 1, None)
        head_raw, head = _geometric(0, k - 1)
        sf_raw = [(r**k * _cum_upper(cells, i, u) + m * tail_raw) / Z_raw for i in range(n_cells)]
        sf = [r**k * _cum_upper(cells, i, cells[i][1] - a) * omr / (2 * m) + sp.simplify(m * tail / Z)
              for i in range(n_cells)]
        half_raw = [(m * head_raw + r**k * _cum(cells, i, u)) / Z_raw for i in range(n_cells)]
        half = [_OMX(k) / 2 + r**k * _cum(cells, i, cells[i][0] + v) * omr / (2 * m) for i in range(n_cells)]
        # the period: sf_0(k, 0) = q solved for x = r^k
        period_of = 2 * q  # sf_0(k, 0) = r^k/2 (proofs/step_laws.py: sf_0(k, 0) = r^k sf_0(0, 0), sf_0(0, 0) = 1/2)
        moments_raw, moments = {}, {}
        for n in range(1, max_moment + 1):
            raw_terms, st_terms = [], []
            for jj in range(n + 1):
                s_raw, s_st = _moment_sums(jj, None)
                raw_terms.append(sp.binomial(n, jj) * s_raw * M(n - jj))
                st_terms.append(sp.binomial(n, jj) * s_st * M(n - jj))
            moments_raw[n] = 2 * sum(raw_terms) / Z_raw
            moments[n] = sum(st_terms) * omr / m  # 2/Z = omr/m
        # entropy: log Z - E[log g],  log g = k log r + log h_i on cell i of period k
        s0r, s0 = _moment_sums(0, None)
        s1r, s1 = _moment_sums(1, None)
        elog_raw = 2 * (sp.log(r) * m * s1r + s0r * sum((b - a) * h * sp.log(h) for a, b, h in cells)) / Z_raw
        elog = (sp.log(r) * m * s1 + s0 * sum((b - a) * h * sp.log(h) for a, b, h in cells)) * omr / m
        ent_raw, ent = sp.log(Z_raw) - elog_raw, sp.log(Z) - elog
        dv = StepDerivation(decl, hs, m, Z, Z_raw, [], sf, sf_raw, half, half_raw, [], period_of, moments, moments_raw,
                            ent, ent_raw, steps=steps)
    else:
        crho = sum((h * c for h, c in zip(hs, _clip(cells, rho))), sp.Integer(0))
        head_all_raw, head_all = _geometric(0, K - 1)
        H_raw, H = m * head_all_raw + r**K * crho, m * head_all + r**K * crho
        Z_raw, Z = 2 * H_raw, 2 * H
        mid_raw, mid = _geometric(k + 1, K - 1)  # whole periods strictly between k and K
        head_raw, head = _geometric(0, k - 1)
        sf_raw = [(r**k * _cum_upper(cells, i, u) + m * mid_raw + r**K * crho) / Z_raw for i in range(n_cells)]
        sf = [(r**k * _cum_upper(cells, i, cells[i][1] - a) + m * mid + r**K * crho) / Z for i in range(n_cells)]
        top = sum((h * Sub(cr, cu) for h, cr, cu in zip(hs, _clip(cells, rho), _clip(cells, u))), sp.Integer(0))
        half_raw = [(m * head_raw + r**k * _cum(cells, i, u)) / Z_raw for i in range(n_cells)]
        half = [(m * head + r**k * _cum(cells, i, cells[i][0] + v)) / Z for i in range(n_cells)]
        # sf_0(k, 0) = q:  m r^k (1 - r^(K-k))/omr + r^K C(rho) = q Z  (proofs/step_laws.py substitutes it back)
        period_of = r**K + omr * (q * Z - r**K * crho) / m
        # moments: sum over whole periods k < K of r^k int_0^1 (k + u)^n h(u) du = r^k sum_j C(n, j) k^j M(n - j)
        # (non-negative terms), plus the cut period K (int_0^rho); n = 2 is the variance's summand
        even = range(2, max_moment + 1, 2)
        moment_period = {n: r**k * sum((sp.binomial(n, jj) * k**jj * M(n - jj) for jj in range(n + 1)), sp.Integer(0))
                         for n in even}
        moment_last = {n: r**K * sum((sp.binomial(n, jj) * K**jj * M(n - jj, rho) for jj in range(n + 1)),
                                     sp.Integer(0)) for n in even}
        var_period, var_last = moment_period[2], moment_last[2]
        # entropy h = log Z - E[log g]: -int g log g over period k is r^k (k eps m + sum_i len_i h_i (-log h_i)),
        # non-negative terms (h_i <= 1 here: the heights are 1 and r); the cut period clips each cell at rho
        nlog_period = r**k * (k * eps * m - sum(((b - a_) * h * sp.log(h) for a_, b, h in cells), sp.Integer(0)))
        nlog_last = r**K * (K * eps * M(0, rho)
                            - sum((h * c * sp.log(h) for h, c in zip(hs, _clip(cells, rho))), sp.Integer(0)))
        v_raw = (2 * _raw_sum(var_period.subs(k, _j), 0, K - 1) + 2 * var_last) / Z_raw
        dv = StepDerivation(decl, hs, m, Z, Z_raw, [], sf, sf_raw, half, half_raw, [], period_of,
                            {2: v_raw}, {2: v_raw}, None, None, sf_top=r**K * top / Z, sf_top_raw=r**K * top / Z_raw,
                            var_period=var_period, var_last=var_last, moment_period=moment_period,
                            moment_last=moment_last, nlog_period=nlog_period, nlog_last=nlog_last, steps=steps)
    dv.logpdf = [sp.log(h) + k * sp.log(r) - sp.log(dv.Z) for h in hs]
    # the quantile per cell, as the distance a below the cell's upper edge: sf_i = sf_i(a = 0) + r^k h_i a/Z is linear
    # in a (proofs/step_laws.py substitutes each back: sf_i(k, isf_i) = q, PROVEN)
    if decl.truncated:  # sf_i(k, a) r^-k with the r^-k taken inside (no r^(k+1) below the float range when q is not)
        scaled = [(_cum_upper(cells, i, b) + m * _geometric(1, K - k - 1)[1] + r**(K - k) * crho) / dv.Z
                  for i, (_, b, _) in enumerate(cells)]
        dv.isf = [(q * r**(-k) - sc) * dv.Z / h for sc, (_, _, h) in zip(scaled, cells)]
    else:  # sf_i(k, a) = r^k sf_i(0, a): divide q by r^k first (r^(k+1) may be below the float range when q is not)
        dv.isf = [(q * r**(-k) - dv.sf[i].subs({a: 0, k: 0})) * dv.Z / h for i, (_, _, h) in enumerate(cells)]
    if decl.truncated:  # inside the cut period K (u <= rho): the clipped top of cell i, then linear (u itself)
        dv.isf_top = []
        for i, (_, b, h) in enumerate(cells):
            end = sp.Min(b, rho)
            above = sum((hj * Sub(cr, ce) for hj, cr, ce in zip(hs, _clip(cells, rho), _clip(cells, end))),
                        sp.Integer(0))  # the cut period's mass above the top of cell i (clipped at rho)
            dv.isf_top.append(Sub(end, Sub(q * dv.Z / r**K, above) / h))
    steps.append(f"Z = {dv.Z}")
    return dv
