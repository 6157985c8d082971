"""A noise law declared once, as SymPy: the input of the declared-law pipeline (issue 28).

A :class:`Declaration` is what a user writes to get a noise law fhsym does not have: its
unnormalised density ``g`` on ``t >= 0`` in standard units (scale 1) as pieces
``(expression, (lower, upper))`` that cover ``[0, oo)`` -- or ``[0, b)`` with a finite rational ``b``: a
*bounded support* ``[-b, b]``, density 0 beyond (truncated Laplace) -- the name of its scale parameter, and its
shape parameters (each a positive SymPy symbol with a domain and a *typical range*, the range the
tests and the calibrator's shape scan use).  The law is symmetric by construction: the density of
the member with scale ``s`` is ``g(|t|/s) / (Z s)``, ``Z = 2 int_0^oo g``.

The structural facts the privacy claims need are not asserted, they are established by
:func:`prove_facts` (each :class:`Fact` says how):

* *symmetric*: by construction (g is declared on t >= 0 and extended by g(t) = g(|t|));
* *log-concave*: psi = -log g has psi'' >= 0 on every piece (SymPy sign of the simplified second
  derivative under the symbols' assumptions), psi is continuous at every join, its one-sided
  derivatives do not decrease at every join, and psi'(0+) >= 0 (so that the even extension keeps
  psi' non-decreasing through 0).  On a bounded support psi = +oo beyond b, which keeps psi convex
  (a convex function on an interval, +oo outside it).  A step SymPy cannot close is checked at 50 digits at random
  points of the piece (and of the typical shape range) and the fact is then VERIFIED, not PROVEN.

Example
-------
>>> import sympy as sp
>>> t = sp.Symbol("t", positive=True)
>>> d = Declaration("demo_laplace", "demo Laplace", t, ((sp.exp(-t), (0, sp.oo)),), scale="beta")
>>> [(f.name, f.status) for f in prove_facts(d)]
[('symmetric', 'PROVEN'), ('log-concave', 'PROVEN')]
"""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import dataclass
from typing import List, Tuple

import mpmath
import sympy as sp

__all__ = ["Declaration", "Fact", "ShapeParameter", "prove_facts", "PROVEN", "VERIFIED"]

PROVEN = "PROVEN"
VERIFIED = "VERIFIED"
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
_DIGITS = 50  # digits of the numeric checks of a step SymPy cannot close
_POINTS = 24


@dataclass(frozen=True)
class ShapeParameter:
    """A shape parameter: a positive SymPy symbol, its domain (lower, upper) and its typical range.

    >>> ShapeParameter(sp.Symbol("p", positive=True), (1.0, 2.0), (1.2, 1.8)).symbol.name
    'p'
    """

    symbol: sp.Symbol
    domain: Tuple[float, float]
    typical: Tuple[float, float]

    def __post_init__(self) -> None:
        if not (isinstance(self.symbol, sp.Symbol) and self.symbol.is_positive):
            raise ValueError(f"shape symbol must be a SymPy Symbol declared positive=True; got {self.symbol!r}")
        lo, hi = self.domain
        tlo, thi = self.typical
        if not (0 <= lo < hi and lo <= tlo < thi <= hi):
            raise ValueError(f"shape {self.symbol.name}: typical range {self.typical!r} must lie in the domain "
                             f"{self.domain!r} (0 <= lower < upper)")


@dataclass(frozen=True)
class Declaration:
    """A symmetric noise law in standard units: ``g(t)`` on ``t >= 0`` by pieces, its scale name, its shapes.

    Parameters
    ----------
    name : str
        The mechanism's key (``fhsym.calibrate(..., mechanism=name)``): lower case, digits, underscores.
    display_name : str
        The law's name in prose.
    t : sympy.Symbol
        The variable of the pieces, declared ``positive=True``.
    pieces : sequence of (expression, (lower, upper))
        The unnormalised density on consecutive intervals ``[0, b1), [b1, b2), ..., [bk, oo)``; the
        bounds are exact numbers (SymPy Rational/Integer, ``sympy.oo`` last).  A finite last upper bound ``b``
        declares a bounded support ``[-b, b]`` (density 0 beyond; :attr:`support_end`).
    scale : str
        The scale parameter's name (the constructor's first argument; more scale is more noise).
    shapes : sequence of ShapeParameter
        At most one (the calibrator scans one shape).
    source : str
        Where the law comes from (cited in the proofs report).

    Examples
    --------
    >>> t = sp.Symbol("t", positive=True)
    >>> d = Declaration("demo_gauss", "demo Gaussian", t, ((sp.exp(-t**2 / 2), (0, sp.oo)),), scale="sigma")
    >>> d.pieces[0][1]
    (0, oo)
    >>> Declaration("Bad", "bad", t, ((sp.exp(-t), (0, sp.oo)),))
    Traceback (most recent call last):
    ...
    ValueError: name must match [a-z][a-z0-9_]*; got 'Bad'
    """

    name: str
    display_name: str
    t: sp.Symbol
    pieces: Tuple[Tuple[sp.Expr, Tuple[sp.Expr, sp.Expr]], ...]
    scale: str = "scale"
    shapes: Tuple[ShapeParameter, ...] = ()
    source: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not _NAME.match(self.name):
            raise ValueError(f"name must match [a-z][a-z0-9_]*; got {self.name!r}")
        if not isinstance(self.t, sp.Symbol) or not self.t.is_positive:
            raise ValueError(f"t must be a SymPy Symbol declared positive=True; got {self.t!r}")
        if not isinstance(self.scale, str) or not _NAME.match(self.scale):
            raise ValueError(f"scale must be a parameter name matching [a-z][a-z0-9_]*; got {self.scale!r}")
        shapes = tuple(self.shapes)
        if len(shapes) > 1:
            raise ValueError(f"shapes must hold at most one ShapeParameter (the calibrator scans one shape); "
                             f"got {len(shapes)}")
        if any(not isinstance(s, ShapeParameter) for s in shapes) or any(s.symbol.name == self.scale for s in shapes):
            raise ValueError(f"shapes must be ShapeParameter objects named apart from the scale; got {shapes!r}")
        pieces = tuple((sp.sympify(e), (sp.sympify(a), sp.sympify(b))) for e, (a, b) in self.pieces)
        if not pieces:
            raise ValueError("pieces must hold at least one (expression, (lower, upper))")
        allowed = {self.t} | {s.symbol for s in shapes}
        prev = sp.Integer(0)
        for k, (e, (a, b)) in enumerate(pieces):
            if a != prev or not (a.is_Rational and (b is sp.oo or (b.is_Rational and b > a))):
                raise ValueError(f"pieces[{k}] must cover [{prev}, upper) with an exact rational upper > lower "
                                 f"(oo for the last); got ({a}, {b})")
            if not e.free_symbols <= allowed:
                raise ValueError(f"pieces[{k}] uses {sorted(map(str, e.free_symbols - allowed))}: only t and the "
                                 f"shape symbols may appear")
            prev = b
        object.__setattr__(self, "pieces", pieces)
        object.__setattr__(self, "shapes", shapes)

    @property
    def support_end(self) -> sp.Expr:
        """The end b of the support [-b, b] (``sympy.oo``: full support, the density is positive on all of R).

        >>> t = sp.Symbol("t", positive=True)
        >>> Declaration("tl", "TL", t, ((sp.exp(-t), (0, 1)),)).support_end
        1
        """
        return self.pieces[-1][1][1]

    @property
    def bounded(self) -> bool:
        """True for a bounded support (the last piece ends at a finite b)."""
        return self.support_end is not sp.oo

    @property
    def shape_symbols(self) -> Tuple[sp.Symbol, ...]:
        return tuple(s.symbol for s in self.shapes)

    def digest(self) -> str:
        """A digest of what the derived formulas depend on (t, the pieces, the shape symbols; not the names): two
        declarations of the same density have the same digest and the same generated numerics.

        >>> t = sp.Symbol("t", positive=True)
        >>> a = Declaration("a", "A", t, ((sp.exp(-t), (0, sp.oo)),), scale="beta")
        >>> a.digest() == Declaration("b", "B", t, ((sp.exp(-t), (0, sp.oo)),), scale="s").digest()
        True
        """
        text = sp.srepr((self.t, tuple((e, a, b) for e, (a, b) in self.pieces), self.shape_symbols))
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def typical_points(self, rng: random.Random, n: int) -> List[Tuple[float, ...]]:
        """``n`` random shape tuples from the typical ranges (empty tuples for a law without shapes)."""
        return [tuple(rng.uniform(*s.typical) for s in self.shapes) for _ in range(n)]


@dataclass(frozen=True)
class Fact:
    """A structural fact and how it was established: ``status`` PROVEN (SymPy) or VERIFIED (numeric)."""

    name: str
    status: str
    method: str
    steps: Tuple[str, ...] = ()


def _sign_ok(expr: sp.Expr, what: str, decl: Declaration, interval: Tuple[sp.Expr, sp.Expr],
             rng: random.Random, steps: List[str]) -> bool:
    """expr >= 0 on the interval: True if SymPy proves it, else checked numerically (returns False = verified only).

    Raises ``ValueError`` if a numeric point contradicts it."""
    e = sp.simplify(expr)
    if e.is_nonnegative:
        steps.append(f"{what}: SymPy shows {e} >= 0")
        return True
    a, b = interval
    worst = mpmath.inf
    with mpmath.workdps(_DIGITS + 10):
        for shape in decl.typical_points(rng, _POINTS) or [()]:
            for _ in range(_POINTS):
                hi = float(b) if b is not sp.oo else float(a) + 40.0
                x = mpmath.mpf(rng.uniform(float(a), hi))
                subs = {decl.t: x, **dict(zip(decl.shape_symbols, map(mpmath.mpf, shape)))}
                v = sp.N(e.subs(subs), _DIGITS) if e.free_symbols else sp.N(e, _DIGITS)
                if v < 0:
                    raise ValueError(f"{decl.name}: {what} is negative ({v}) at {subs}: the law is not log-concave")
                worst = min(worst, mpmath.mpf(str(v)))
    steps.append(f"{what}: SymPy could not decide the sign of {e}; >= 0 at {_POINTS} random points "
                 f"({_DIGITS} digits, least value {mpmath.nstr(worst, 3)})")
    return False


def prove_facts(decl: Declaration, seed: int = 28) -> Tuple[Fact, ...]:
    """Establish symmetry and log-concavity of ``decl`` (module docstring); ``ValueError`` if log-concavity fails."""
    rng = random.Random(seed)
    t = decl.t
    sym = Fact("symmetric", PROVEN, "by construction: g is declared on t >= 0 and g(t) = g(|t|)")
    steps: List[str] = []
    proven = True
    psis = [-sp.expand_log(sp.log(e), force=True) for e, _ in decl.pieces]
    for k, ((e, iv), psi) in enumerate(zip(decl.pieces, psis)):
        proven &= _sign_ok(sp.diff(psi, t, 2), f"psi'' on piece {k} {iv}", decl, iv, rng, steps)
    d0 = sp.limit(sp.diff(psis[0], t), t, 0, "+")
    proven &= _sign_ok(d0, "psi'(0+)", decl, (sp.Integer(0), sp.Integer(1)), rng, steps)
    for k in range(len(decl.pieces) - 1):
        b = decl.pieces[k][1][1]
        jump = sp.simplify(psis[k + 1].subs(t, b) - psis[k].subs(t, b))
        if jump != 0:
            raise ValueError(f"{decl.name}: g is not continuous at the join t = {b} (log jump {jump})")
        steps.append(f"psi continuous at t = {b}: SymPy gives a jump of 0")
        djump = sp.diff(psis[k + 1], t).subs(t, b) - sp.diff(psis[k], t).subs(t, b)
        proven &= _sign_ok(djump, f"psi'(t+) - psi'(t-) at t = {b}", decl, (b, b + 1), rng, steps)
    if decl.bounded:
        steps.append(f"bounded support [0, {decl.support_end}): psi = +oo beyond it, a convex extension of psi")
    lc = Fact("log-concave", PROVEN if proven else VERIFIED,
              "SymPy: psi'' >= 0 per piece, psi'(0+) >= 0, psi continuous and psi' non-decreasing at every join"
              if proven else "psi'' >= 0 per piece and at the joins: SymPy where it closed, else 50-digit points",
              tuple(steps))
    return (sym, lc)

