"""SymPy helpers for the proofs: closing identities and resolving piecewise forms.

:func:`prove_zero` tries a fixed list of strategies, cheapest first, and
returns the name of the one that reduced the expression to exactly 0 (or
``None``).  :func:`prove_equal` adds two strategies that are valid for
real-valued sides only: applying an injective function to both sides
(``exp`` for logarithmic forms, ``erf(./sqrt 2)`` for forms built on
``erfinv``/``Q^{-1}``), so that ``log A == log B`` is proven as ``A == B``.
"""

from __future__ import annotations

from typing import Callable, List, Optional, Sequence, Tuple

import sympy as sp

__all__ = ["canon", "STRATEGIES", "prove_zero", "prove_equal", "resolve_piecewise", "is_free_of"]


def canon(e: sp.Expr) -> sp.Expr:
    """Rewrite hyperbolic functions as exponentials and erfc/erfi-free where possible (erfc -> 1 - erf)."""
    return e.rewrite(sp.exp).rewrite(sp.erf)


STRATEGIES: List[Tuple[str, Callable[[sp.Expr], sp.Expr]]] = [
    ("expand(rewrite(exp, erf))", lambda d: sp.expand(canon(d))),
    ("simplify(rewrite(exp, erf))", lambda d: sp.simplify(canon(d))),
    ("simplify(expand_log(force))", lambda d: sp.simplify(sp.expand_log(sp.expand(canon(d)), force=True))),
]


def prove_zero(d: sp.Expr, strategies=None) -> Optional[str]:
    """Name of the first strategy that reduces ``d`` to exactly 0, else None."""
    if d == 0:
        return "identical"
    for name, f in strategies or STRATEGIES:
        try:
            if f(d) == 0:
                return name
        except Exception:  # a strategy may raise on exotic input: try the next
            continue
    return None


def prove_equal(lhs: sp.Expr, rhs: sp.Expr, injective: Sequence[str] = ("exp", "erf")) -> Optional[str]:
    """Name of the strategy proving lhs == rhs (both real-valued), else None."""
    how = prove_zero(lhs - rhs)
    if how:
        return how
    if "exp" in injective:
        how = prove_zero(sp.exp(lhs) - sp.exp(rhs), STRATEGIES[1:2])
        if how:
            return "exp of both sides, " + how
    if "erf" in injective:
        r2 = sp.sqrt(2)
        how = prove_zero(sp.erf(lhs / r2) - sp.erf(rhs / r2), STRATEGIES[1:2])
        if how:
            return "erf(./sqrt2) of both sides, " + how
    return None


def resolve_piecewise(expr: sp.Expr, nonneg: Sequence[sp.Symbol], constraint) -> Tuple[sp.Expr, List[str]]:
    """Select the branch of every Piecewise in ``expr`` that the ``constraint`` implies.

    ``Abs(x)`` is replaced by ``x`` for the symbols in ``nonneg`` (the kernel's
    domain starts at 0).  A branch is taken when its condition is literally the
    constraint (in either orientation) or True.  Returns the new expression and
    notes describing what was done.
    """
    notes: List[str] = []
    e = expr
    for x in nonneg:
        if any(a.args[0] == x for a in e.atoms(sp.Abs)):
            e = e.subs(sp.Abs(x), x)
            notes.append(f"|{x}| = {x} on the domain {x} >= 0")
    pws = sorted(e.atoms(sp.Piecewise), key=sp.default_sort_key)  # a fixed order: the notes go into the report
    if not pws:
        return e, notes
    accepted = set()
    if constraint is not None:
        for c in (constraint, getattr(constraint, "reversed", None), getattr(constraint, "canonical", None)):
            if c is not None:
                accepted.add(c)
                if hasattr(c, "reversed"):
                    accepted.add(c.reversed)
    repl = {}
    for pw in pws:
        for val, cond in pw.args:
            if cond == sp.true or cond in accepted:
                repl[pw] = val
                notes.append(f"Piecewise branch `{sp.sstr(cond)}` selected by the constraint `{sp.sstr(constraint)}`")
                break
    return e.xreplace(repl), notes


def is_free_of(expr: sp.Expr, sym: sp.Symbol) -> bool:
    """True if ``expr`` simplifies to an expression without ``sym``."""
    if sym not in expr.free_symbols:
        return True
    e = sp.simplify(canon(expr))
    if sym not in e.free_symbols:
        return True
    return sp.simplify(sp.diff(e, sym)) == 0
