"""Declarations of the numeric API's piecewise functions: which kernel applies where.

A :class:`PiecewiseFunction` is an ordered list of :class:`Piece` s.  A piece is a kernel
(:class:`fhsym.symbolic.stable.Kernel`) applied under that kernel's ``region``, with its
arguments bound to expressions of the function's arguments (``bind``), optionally wrapped
(``wrap``, e.g. a log); or a constant ``value`` under its own ``region``.  The regions of one
function are disjoint and together cover its domain (``tests/test_codegen_declarations.py``
checks both at exact rational points), so the order does not matter; they are written from
shared atoms (a comparison and its negation) so that in floating point, too, every point
falls in exactly one piece.

A :class:`Formula` is a closed form printed as it stands (one or several outputs), for
objects that need no stable rewrite (Table I's boundaries, the arguments of Lemmas 5 and 7,
the zCDP parameters).

``python -m fhsym.codegen`` prints both for every target: numpy (one ``<name>_regions`` test,
then one kernel call per piece under a boolean mask, never ``numpy.select`` over all branches),
C99 (one ``fhsym_r_<name>`` region test, then a ``switch``) and JAX (``jnp.where`` over pieces,
each evaluated outside its region at the safe point it declares, see ``Piece.safe``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional, Tuple

import sympy as sp

__all__ = ["Piece", "PiecewiseFunction", "Formula"]


@dataclass(frozen=True)
class Piece:
    """One branch of a piecewise function.

    ``kernel``: the kernel applied here (``None`` for a constant piece); ``bind``: pairs
    (kernel argument, expression in the function's arguments), identity for arguments not
    listed; ``wrap``: a function of the kernel's value giving the piece's value (``None``:
    the value itself); ``value``/``region``: a constant piece's value and region.
    ``safe``: pairs (kernel argument, expression in the function's arguments) giving, for the
    JAX target, a point at which the kernel is finite and smooth (typically inside its
    region, or a fixed point such as the Gaussian b = 0); outside the region the kernel is
    evaluated there, so that the unselected branch of ``jnp.where`` adds no NaN to a
    gradient.
    """

    kernel: Any = None
    bind: Tuple[Tuple[sp.Symbol, sp.Expr], ...] = ()
    wrap: Optional[Callable[[sp.Expr], sp.Expr]] = None
    value: Optional[sp.Expr] = None
    region: Optional[sp.Basic] = None
    safe: Tuple[Tuple[sp.Symbol, sp.Expr], ...] = ()

    @property
    def condition(self) -> sp.Basic:
        """The region on which this piece applies."""
        return self.region if self.kernel is None else self.kernel.region

    @property
    def name(self) -> str:
        return "constant" if self.kernel is None else self.kernel.name

    def call_args(self) -> Tuple[sp.Expr, ...]:
        """The kernel's arguments as expressions in the function's arguments."""
        b = dict(self.bind)
        return tuple(b.get(a, a) for a in self.kernel.args)

    def value_expr(self, placeholder: sp.Symbol) -> sp.Expr:
        """The piece's value with the kernel call written as ``placeholder``."""
        if self.kernel is None:
            return sp.sympify(self.value)
        return placeholder if self.wrap is None else self.wrap(placeholder)


@dataclass(frozen=True)
class PiecewiseFunction:
    """A function of ``args`` that applies, at each point, the one piece whose region holds.

    ``post`` (optional) maps the assembled value (a symbol) to the returned expression;
    ``ignore`` names the floating-point conditions the pieces may raise harmlessly
    (numpy ``errstate``: e.g. overflow to an exact -inf in ``logpdf_tail``).
    """

    name: str
    args: Tuple[sp.Symbol, ...]
    pieces: Tuple[Piece, ...]
    doc: str
    paper_ref: str
    post: Optional[Callable[[sp.Expr], sp.Expr]] = None
    ignore: Tuple[str, ...] = ()


@dataclass(frozen=True)
class Formula:
    """A closed form printed as it stands: ``exprs`` in ``args`` (a tuple is returned when several)."""

    name: str
    args: Tuple[sp.Symbol, ...]
    exprs: Tuple[sp.Expr, ...]
    doc: str
    paper_ref: str
