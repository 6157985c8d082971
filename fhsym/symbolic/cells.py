"""Finite-cell step laws declared once in SymPy, with their cell weights as data (issue 28): piecewise uniform.

A :class:`CellDeclaration` is a symmetric law on cells of width 1 (standard units; the member with width ``w`` has
density ``g(|x|/w)/(Z w)``) centred at the integers, whose heights are an *indexed symbol* ``n[i]`` over the finite
range ``0 <= i <= M`` (``M`` symbolic), the data of one instance::

    g(t) = n[|k|]     t in [k - 1/2, k + 1/2),  |k| <= M;      g = 0 for |t| >= M + 1/2.

There is no ratio between cells (unlike :mod:`fhsym.symbolic.steps`), so every derived form is generic in the cell
index ``k`` and keeps the partial sums of the weights as ``Sum(n[i], ...)``: the law evaluates them exactly in
integers.  :func:`derive_cells` derives, with SymPy's ``integrate`` (per cell) and ``solve``:

* ``Z = int g = n[0] + 2 Sum(n[i], (i, 1, M))`` and the masses ``q_k = n[k]/Z``;
* the tail above cell k, ``T_(k+1) = Sum(q_i, (i, k + 1, M))``, the mass below it, ``B_k = P(0 < T < k - 1/2) =
  q_0/2 + Sum(q_i, (i, 1, k - 1))`` (k >= 1);
* in cell ``k >= 0`` at the distance ``a`` below its upper edge (``t = k + 1/2 - a``): ``sf_k = T_(k+1) + q_k a``
  (the tail integral of g/Z); at the distance ``v`` above its lower edge: ``P(0 < T <= t) = B_k + q_k v``
  (``q_0 v`` in cell 0, whose lower end is 0: ``t = v``);
* the quantile in cell k: ``a = (p - T_(k+1))/q_k`` (``solve(sf_k = p, a)``);
* the moments ``E[T^n] = sum_|k|<=M q_|k| c_n(k)``, ``c_n(k) = int_(k-1/2)^(k+1/2) t^n dt`` (generic in n), and the
  entropy per cell of the member with width w, ``-q_k (log q_k - log w)`` (``-int f log f`` over the cell);
* the privacy profile at the shift ``d = j + theta`` (integer ``j >= 0``, ``theta`` in ``[0, 1)``): cell k of ``t``
  meets cell ``k + j`` of ``t + d`` over ``1 - theta`` and cell ``k + j + 1`` over ``theta`` (exact overlaps), so
  ``delta = (1 - theta) D_j + theta D_(j+1)``, ``D_j = sum_k [q_k - e^eps q_(k+j)]_+``.

Each form is kept *raw* (SymPy's integral or sum) and *printed* (the order of operations the law evaluates, with
:class:`~fhsym.symbolic.steps.Sub` where a difference must be formed first); ``proofs/cell_laws.py`` proves printed
= raw, ``d sf/dt = -g/Z``, continuity across cells, ``sf(0) = 1/2``, ``sf = 0`` at the top, ``sf + P(0 < T <= t) =
1/2`` and the quantile by SymPy, and checks the forms against mpmath quadrature of the declared density at random
weights.  :mod:`fhsym.codegen.cell_laws` prints them into ``fhsym/_generated/declared/piecewise_uniform.py``.

Example (the printed sf in cell k, and the normaliser with its partial sum kept as a ``Sum``):

>>> from fhsym.symbolic.laws.piecewise_uniform import DECLARATION
>>> dv = derive_cells(DECLARATION)
>>> dv.sf, dv.Z
(a*qk + tail, n[0] + 2*Sum(n[i], (i, 1, M)))
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass, field
from typing import Dict, List, Tuple

import sympy as sp

from .steps import Sub

__all__ = ["CellDeclaration", "CellDerivation", "derive_cells", "peel", "cell_index", "weights", "top", "tt", "a", "v",
           "p", "qk", "qm", "q0", "tail", "below", "width", "order", "theta", "expeps", "d_j", "d_j1", "j_shift"]

weights = sp.IndexedBase("n", positive=True)  # the integer weights n[0..M] (data)
i_ = sp.Symbol("i", integer=True)  # summation index
cell_index = sp.Symbol("k", integer=True, nonnegative=True)  # the cell of |t|
top = sp.Symbol("M", integer=True, positive=True)  # the last cell
tt = sp.Symbol("t", real=True)  # the point, standard units
a = sp.Symbol("a", nonnegative=True)  # distance below the cell's upper edge
v = sp.Symbol("v", nonnegative=True)  # distance above the cell's lower edge
p = sp.Symbol("p", positive=True)  # a tail probability
qk, qm, q0 = sp.symbols("qk qm q0", nonnegative=True)  # masses as the law passes them (exactly rounded rationals)
tail, below = sp.symbols("tail below", nonnegative=True)  # T_(k+1), B_k as the law passes them
width = sp.Symbol("w", positive=True)  # the cell width of a member
order = sp.Symbol("nu", integer=True, positive=True)  # a moment order
theta = sp.Symbol("theta", nonnegative=True)  # the fractional part of a shift, in [0, 1)
j_shift = sp.Symbol("j", integer=True, nonnegative=True)  # the whole cells of a shift
expeps = sp.Symbol("expeps", positive=True)  # e^eps
d_j, d_j1 = sp.symbols("Dj Dj1", nonnegative=True)  # the lattice deficits D_j, D_(j+1)
HALF = sp.Rational(1, 2)


def peel(s: sp.Expr) -> sp.Expr:
    """``Sum(f, (i, lo, hi)) -> f(lo) + Sum(f, (i, lo + 1, hi))`` for every Sum in ``s`` whose lower end holds the cell
    index k (the definition of a sum with ``lo <= hi``): what SymPy needs to compare partial sums whose lower ends
    differ by one."""
    def one(e: sp.Sum) -> sp.Expr:
        f, (j, lo, hi) = e.function, e.limits[0]
        return f.subs(j, lo) + sp.Sum(f, (j, lo + 1, hi))
    return sp.sympify(s).replace(lambda e: isinstance(e, sp.Sum) and e.limits[0][1].has(cell_index), one)


@dataclass(frozen=True)
class CellDeclaration:
    """A symmetric law on unit cells centred at the integers with data heights ``n[|k|]``, ``|k| <= M``.

    ``name`` is the generated module's name; the heights are :data:`weights` (an ``IndexedBase`` declared positive:
    a zero weight is a limit the forms cover, since none divides by its own weight except the quantile, which the
    law never asks of an empty cell).
    """

    name: str
    display_name: str
    scale: str = "width"
    source: str = ""
    facts: Tuple[str, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        facts = ("PROVEN: the cells [k - 1/2, k + 1/2), |k| <= M, tile [-(M + 1/2), M + 1/2) in order (consecutive "
                 "integers' cells share their edge k + 1/2: exact)",
                 "PROVEN: the density g(t) = n[|k|] is symmetric (it reads |k|) and non-negative (the weights are "
                 "non-negative integers, checked by the law: fhsym.noise.plans.piecewise_uniform.check_weights)")
        object.__setattr__(self, "facts", facts)

    def density(self, k: sp.Expr) -> sp.Expr:
        """The height of cell ``k`` (``k >= 0``)."""
        return weights[k]

    def digest(self) -> str:
        """A digest of the declared pattern (for the generated module's freshness)."""
        return hashlib.sha256(repr(("unit cells at the integers", "n[|k|]", "0 <= k <= M")).encode()).hexdigest()[:16]


@dataclass
class CellDerivation:
    """The forms of :func:`derive_cells` (module docstring).  ``*_raw`` are SymPy's integrals and sums in the weights
    ``n[i]``; the unsuffixed forms are what the law evaluates, in its exactly rounded masses (``qk``, ``q0``,
    ``qm``), tails and heads (``tail``, ``below``)."""

    decl: CellDeclaration
    Z: sp.Expr
    mass: sp.Expr  # q_k = n[k]/Z
    tail_raw: sp.Expr  # T_(k+1) = Sum(q_i, (i, k+1, M))
    below_raw: sp.Expr  # B_k = q_0/2 + Sum(q_i, (i, 1, k-1)),  k >= 1
    sf_raw: sp.Expr  # int_(k+1/2-a)^oo g/Z, in cell k
    sf: sp.Expr
    half0_raw: sp.Expr  # int_0^v g/Z (cell 0)
    half0: sp.Expr
    half_raw: sp.Expr  # int_0^(k-1/2+v) g/Z (cell k >= 1)
    half: sp.Expr
    isf: sp.Expr  # a with sf(a) = p, in cell k
    logpdf_raw: sp.Expr  # log of the member's density q_k/w
    logpdf: sp.Expr
    moment_cell_raw: sp.Expr  # int over cell k of t^n
    moment_cell: sp.Expr
    entropy_cell_raw: sp.Expr  # -int over cell k of f log f, member of width w
    entropy_cell: sp.Expr
    overlaps: Dict[int, sp.Expr]  # o -> |cell k  meets  cell k + j + o - d| for o = -1..2
    profile: sp.Expr  # (1 - theta) D_j + theta D_(j+1)
    deficit_term: sp.Expr  # [q_k - e^eps q_(k+j)]_+
    steps: List[str] = field(default_factory=list)


def _overlap(k: sp.Expr, m: sp.Expr, d: sp.Expr) -> sp.Expr:
    """Length of cell k of t that cell m of t + d covers: ``|[k - 1/2, k + 1/2) meet [m - 1/2 - d, m + 1/2 - d)|``."""
    return sp.Max(0, sp.Min(k + HALF, m + HALF - d) - sp.Max(k - HALF, m - HALF - d))


@functools.lru_cache(maxsize=None)
def derive_cells(decl: CellDeclaration) -> CellDerivation:
    """Derive the forms of the module docstring from ``decl`` (cached)."""
    k, M, n = cell_index, top, weights
    g = decl.density
    Z = sp.integrate(g(0), (tt, -HALF, HALF)) + 2 * sp.Sum(sp.expand(sp.integrate(g(i_), (tt, i_ - HALF, i_ + HALF))),
                                                             (i_, 1, M))
    mass = g(k) / Z
    tail_raw = sp.Sum(g(i_), (i_, k + 1, M)) / Z
    below_raw = sp.integrate(g(0) / Z, (tt, 0, HALF)) + sp.Sum(g(i_), (i_, 1, k - 1)) / Z
    steps = [f"Z = int g = {Z}"]
    # sf in cell k at t = k + 1/2 - a: the rest of cell k plus the cells above it
    sf_raw = sp.integrate(g(k) / Z, (tt, k + HALF - a, k + HALF)) + tail_raw
    half0_raw = sp.integrate(g(0) / Z, (tt, 0, v))
    half_raw = below_raw + sp.integrate(g(k) / Z, (tt, k - HALF, k - HALF + v))
    isf = sp.solve(sp.Eq(tail + qk * a, p), a)[0]
    # the member of width w: density q_k/w on a cell of length w
    logpdf_raw = sp.log(qk / width)
    ent_raw = -sp.integrate((qk / width) * sp.log(qk / width), (tt, 0, width))
    n_p = order
    cell_raw = sp.integrate(tt**n_p, (tt, k - HALF, k + HALF))
    cell = (Sub((k + HALF) ** (n_p + 1), (k - HALF) ** (n_p + 1))) / (n_p + 1)
    # the profile: cell k of t against cell m = k + j + o of t + d, d = j + theta
    overlaps = {o: _overlap(k, k + j_shift + o, j_shift + theta) for o in (-1, 0, 1, 2)}
    profile = (1 - theta) * d_j + theta * d_j1
    deficit = sp.Max(0, qk - expeps * qm)
    steps.append("per cell: sf = tail + q_k a, half = below + q_k v, isf = (p - tail)/q_k")
    return CellDerivation(decl, Z, mass, tail_raw, below_raw, sf_raw, tail + qk * a, half0_raw, q0 * v, half_raw,
                          below + qk * v, isf, logpdf_raw, Sub(sp.log(qk), sp.log(width)), cell_raw, cell, ent_raw,
                          -qk * Sub(sp.log(qk), sp.log(width)), overlaps, profile, deficit, steps)
