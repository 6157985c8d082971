"""Target-independent preparation of the piecewise functions and formulas for printing.

Every target prints the same three things from :mod:`fhsym.symbolic.piecewise`
declarations: the regions (common subexpressions shared), one kernel call per piece with
its arguments bound, and the piece's wrapped value; this module computes them once.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Callable, Dict, List, Sequence, Tuple

import sympy as sp

from fhsym.symbolic.piecewise import Formula, Piece, PiecewiseFunction

__all__ = ["PreparedPiecewise", "prepare", "prepare_formula", "load", "docstring"]


@dataclass
class PreparedPiecewise:
    fn: PiecewiseFunction
    region_subs: List[Tuple[sp.Symbol, sp.Basic]]  # common subexpressions of the regions
    regions: List[sp.Basic]  # one per piece, in terms of the subexpressions


def load(source: str, attr: str):
    """The tuple ``attr`` of the module ``source`` (kernels, piecewise functions or formulas)."""
    return getattr(importlib.import_module(source), attr)


def prepare(fn: PiecewiseFunction) -> PreparedPiecewise:
    conds = [pc.condition for pc in fn.pieces]
    subs, reduced = sp.cse(conds, symbols=sp.numbered_symbols("x"), optimizations="basic")
    return PreparedPiecewise(fn, list(subs), list(reduced))


def prepare_formula(f: Formula):
    """(common subexpressions, outputs); a single output is printed as it stands (no reciprocals introduced)."""
    if len(f.exprs) == 1:
        return [], list(f.exprs)
    subs, reduced = sp.cse(list(f.exprs), symbols=sp.numbered_symbols("x"), optimizations="basic")
    return list(subs), list(reduced)


def renamed(expr: sp.Basic, names: Dict[sp.Symbol, str]) -> sp.Basic:
    """``expr`` with each symbol replaced by a symbol called ``names[symbol]`` (same assumptions)."""
    return expr.xreplace({a: sp.Symbol(n, **a.assumptions0) for a, n in names.items()})


def piece_call(pc: Piece, names: Dict[sp.Symbol, str], printer, call: Callable[[str, Sequence[str]], str]) -> str:
    """The printed value of a piece: its kernel called on its bound arguments, wrapped."""
    if pc.kernel is None:
        return printer.doprint(sp.sympify(pc.value))
    args = [printer.doprint(renamed(sp.sympify(a), names)) for a in pc.call_args()]
    placeholder = sp.Symbol(call(pc.kernel.name, args))
    return printer.doprint(pc.value_expr(placeholder))


def docstring(obj, extra: Sequence[str] = ()) -> List[str]:
    """Docstring paragraphs: the declaration's doc, its paper reference, and the pieces with their regions."""
    lines = [obj.doc, "", f"Paper: {obj.paper_ref}."]
    if isinstance(obj, PiecewiseFunction):
        lines.append("Pieces (their regions are disjoint and cover the domain):")
        for pc in obj.pieces:
            what = pc.name if pc.kernel is None or pc.wrap is None else f"{pc.wrap(sp.Symbol(pc.name))}"
            if pc.kernel is None:
                what = f"{sp.sstr(pc.value)}"
            lines.append(f"    {what}  where  {sp.sstr(pc.condition)}")
    else:
        lines.append("SymPy source: " + ", ".join(sp.sstr(e) for e in obj.exprs))
    lines.extend(extra)
    return lines
