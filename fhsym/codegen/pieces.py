"""Target-independent preparation of the piecewise functions and formulas for printing.

Every target prints the same three things from :mod:`fhsym.symbolic.piecewise`
declarations: the regions (common subexpressions shared), one kernel call per piece with
its arguments bound, and the piece's wrapped value; this module computes them once.
"""

from __future__ import annotations

import importlib
import textwrap
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Protocol, Sequence, Tuple, Union

import sympy as sp

from fhsym.symbolic.piecewise import Formula, Piece, PiecewiseFunction

__all__ = ["Printer", "PreparedPiecewise", "prepare", "prepare_formula", "load", "docstring", "doc_block",
           "regions_names", "region_args"]


class Printer(Protocol):
    """A SymPy code printer (:mod:`fhsym.codegen.printer`): ``doprint`` gives an expression's text."""

    def doprint(self, expr: Any) -> str: ...


@dataclass
class PreparedPiecewise:
    fn: PiecewiseFunction
    region_subs: List[Tuple[sp.Symbol, sp.Basic]]  # common subexpressions of the regions
    regions: List[sp.Basic]  # one per piece, in terms of the subexpressions


def load(source: str, attr: str) -> Any:
    """The attribute ``attr`` of the module ``source``, by name: a tuple of kernels, piecewise functions or
    formulas, or one of them (the caller states what it expects in its annotation)."""
    return getattr(importlib.import_module(source), attr)


def prepare(fn: PiecewiseFunction) -> PreparedPiecewise:
    conds = [pc.condition for pc in fn.pieces]
    subs, reduced = sp.cse(conds, symbols=sp.numbered_symbols("x"), optimizations="basic")
    return PreparedPiecewise(fn, list(subs), list(reduced))


def prepare_formula(f: Formula) -> Tuple[List[Tuple[sp.Symbol, sp.Expr]], List[sp.Expr]]:
    """(common subexpressions, outputs); a single output is printed as it stands (no reciprocals introduced)."""
    if len(f.exprs) == 1:
        return [], list(f.exprs)
    subs, reduced = sp.cse(list(f.exprs), symbols=sp.numbered_symbols("x"), optimizations="basic")
    return list(subs), list(reduced)


def renamed(expr: sp.Basic, names: Dict[sp.Symbol, str]) -> sp.Basic:
    """``expr`` with each symbol replaced by a symbol called ``names[symbol]`` (same assumptions)."""
    return expr.xreplace({a: sp.Symbol(n, **a.assumptions0) for a, n in names.items()})


def piece_call(pc: Piece, names: Dict[sp.Symbol, str], printer: Printer, call: Callable[[str, Sequence[str]], str]) -> str:
    """The printed value of a piece: its kernel called on its bound arguments, wrapped."""
    if pc.kernel is None:
        return printer.doprint(sp.sympify(pc.value))
    args = [printer.doprint(renamed(sp.sympify(a), names)) for a in pc.call_args()]
    placeholder = sp.Symbol(call(pc.kernel.name, args))
    return printer.doprint(pc.value_expr(placeholder))


def _piece_name(pc: Piece) -> str:
    if pc.kernel is None:
        return str(sp.sstr(pc.value))
    return pc.name if pc.wrap is None else f"{pc.wrap(sp.Symbol(pc.name))}"


def docstring(obj: Union[PiecewiseFunction, Formula], extra: Sequence[str] = (), regions: Optional[str] = None) -> List[str]:
    """Docstring paragraphs: the declaration's doc, its paper reference, and the pieces with their
    regions (or, given the function ``regions`` that computes them, the pieces in its order)."""
    lines = [obj.doc, "", f"Paper: {obj.paper_ref}."]
    if isinstance(obj, PiecewiseFunction) and regions:
        lines.append(f"Its pieces, one per region of {regions} (in order): {', '.join(_piece_name(pc) for pc in obj.pieces)}.")
    elif isinstance(obj, PiecewiseFunction):
        lines.append("Pieces (their regions are disjoint and cover the domain):")
        lines.extend(f"    {_piece_name(pc)}  where  {sp.sstr(pc.condition)}" for pc in obj.pieces)
    else:
        lines.append("SymPy source: " + ", ".join(sp.sstr(e) for e in obj.exprs))
    lines.extend(extra)
    return lines


def doc_block(lines: Sequence[str], indent: str = "    ") -> str:
    """A docstring of paragraphs, each filled to 92 columns (those that start with four spaces,
    ``SymPy`` or ``Pieces`` as they stand), indented, without trailing white space."""
    body = []
    for par in lines:
        if par.startswith("    ") or par.startswith(("SymPy", "Pieces")):
            body.append(par)
        else:
            body.append(textwrap.fill(par, width=92) if par else "")
    if len(body) == 1 and "\n" not in body[0]:
        return f'{indent}"""{body[0]}"""'
    return indent + '"""' + "\n".join(body).replace("\n", "\n" + indent).replace(indent + "\n", "\n") + "\n" + indent + '"""'


def region_args(fn: PiecewiseFunction) -> List[sp.Symbol]:
    """The arguments of ``fn`` its regions depend on, in the order of ``fn.args``."""
    free = set().union(*(sp.sympify(pc.condition).free_symbols for pc in fn.pieces))
    return [a for a in fn.args if a in free]


def regions_names(functions: Sequence[Union[PiecewiseFunction, Formula]]) -> Dict[str, str]:
    """piecewise function name -> the name of the function computing its regions: one per distinct
    tuple of regions (with its arguments), named after the first function declaring it."""
    first: Dict[Tuple[Tuple[str, ...], Tuple[sp.Basic, ...]], str] = {}
    out: Dict[str, str] = {}
    for fn in functions:
        if isinstance(fn, PiecewiseFunction):
            key = (tuple(a.name for a in region_args(fn)), tuple(pc.condition for pc in fn.pieces))
            out[fn.name] = first.setdefault(key, f"{fn.name}_regions")
    return out
