"""Sign decisions under positive parametrisations (the engine of the symbolic regime-by-regime proofs).

A regime is a substitution of (alpha, Delta) or (alpha, d) by polynomials in positive
symbols (e.g. Delta/2 < alpha < Delta  <=>  alpha = m + n, Delta = 2m + n, m, n > 0), so
an inequality between expressions of the table becomes the sign of a polynomial (or a
ratio of polynomials) in positive symbols, decided by SymPy's assumptions or by the signs
of the coefficients.
"""

from __future__ import annotations

from typing import Dict, Optional

import sympy as sp

from ._base import _OO

__all__ = ["Undecided", "poly_sign", "nonneg", "positive", "sign", "resolve", "sqrt_factor", "psub", "linear_holds"]

def poly_sign(e: sp.Expr) -> Optional[int]:
    """+1 if e >= 0, -1 if e <= 0, for a ratio of polynomials in positive symbols with coefficients of one sign."""
    e = sp.together(sp.expand(e))
    syms = sorted(e.free_symbols, key=str)
    if not syms or not all(x.is_positive for x in syms):
        return None
    num, den = sp.fraction(e)
    signs = []
    for part in (num, den):
        try:
            cs = sp.Poly(sp.expand(part), *syms).coeffs()
        except sp.PolynomialError:
            return None
        if all(c >= 0 for c in cs):
            signs.append(1)
        elif all(c <= 0 for c in cs):
            signs.append(-1)
        else:
            return None
    return signs[0] * signs[1]


def nonneg(e: sp.Expr) -> bool:
    """e >= 0 for all positive values of its symbols (proven), else False (not proven)."""
    e = sp.expand(e)
    if e == 0 or e.is_nonnegative:
        return True
    for f in (sp.factor, lambda z: sp.factor(sp.together(z))):
        try:
            if f(e).is_nonnegative:
                return True
        except Exception:  # noqa: BLE001 - try the next rewrite
            continue
    return poly_sign(e) == 1


def positive(e: sp.Expr) -> bool:
    """e > 0 for all positive values of its symbols (proven)."""
    e = sp.expand(e)
    if e == 0:
        return False
    if e.is_positive:
        return True
    for f in (sp.factor, lambda z: sp.factor(sp.together(z))):
        try:
            if f(e).is_positive:
                return True
        except Exception:  # noqa: BLE001
            continue
    return poly_sign(e) == 1  # nonzero with coefficients >= 0 in positive symbols: > 0


def sign(e: sp.Expr) -> Optional[int]:
    if sp.expand(e) == 0:
        return 0
    if nonneg(e):
        return 1
    if nonneg(-e):
        return -1
    return None


class Undecided(ArithmeticError):
    pass


def resolve(e: sp.Expr) -> sp.Expr:
    """Resolve Max, Min, Abs, sign in e by sign decisions (innermost first); raises Undecided."""
    kinds = (sp.Max, sp.Min, sp.Abs, sp.sign)
    for _ in range(100):
        nodes = [a for a in sp.preorder_traversal(e) if isinstance(a, kinds)]
        if not nodes:
            return e
        inner = [a for a in nodes if not any(isinstance(x, kinds) for arg in a.args for x in sp.preorder_traversal(arg))]
        node = inner[0]
        if isinstance(node, (sp.Max, sp.Min)):
            best = None
            for cand in node.args:
                diffs = [(cand - o) if isinstance(node, sp.Max) else (o - cand) for o in node.args if o is not cand]
                if all(nonneg(dd) for dd in diffs):
                    best = cand
                    break
            if best is None:
                raise Undecided(f"cannot order the arguments of {node}")
            e = e.xreplace({node: best})
        elif isinstance(node, sp.Abs):
            sg = sign(node.args[0])
            if sg is None:
                raise Undecided(f"sign of {node.args[0]}")
            e = e.xreplace({node: (sg if sg != 0 else 1) * node.args[0]})
        else:  # sign
            x = node.args[0]
            sg = 0 if sp.expand(x) == 0 else (1 if positive(x) else (-1 if positive(-x) else None))
            if sg is None:
                raise Undecided(f"strict sign of {x}")
            e = e.xreplace({node: sg})
    raise Undecided("too many nested Max/Min/Abs")


def sqrt_factor(e: sp.Expr) -> sp.Expr:
    """sqrt(A) -> sqrt(factor(A)), so that sqrt of a perfect square of positive terms collapses."""
    return e.replace(
        lambda z: isinstance(z, sp.Pow) and z.exp == sp.Rational(1, 2),
        lambda z: sp.sqrt(sp.factor(sp.expand(z.base))),
    )


def psub(e: sp.Expr, par: Dict) -> sp.Expr:
    """Substitute a regime parametrisation (simultaneously) and resolve what it decides."""
    return sqrt_factor(resolve(sp.sympify(e).subs(par, simultaneous=True)))


def linear_holds(h: sp.Expr, var: sp.Symbol, lo: sp.Expr, hi: sp.Expr, par: Dict) -> bool:
    """h(var) >= 0 on [lo, hi] for h linear in var (hi may be oo), under the parametrisation par."""
    h = sp.expand(h)
    if sp.Poly(h, var).degree() > 1:
        raise ValueError(f"{h} is not linear in {var}")
    ok = nonneg(psub(h.subs(var, lo), par))
    if hi is _OO:
        ok &= nonneg(psub(h.coeff(var, 1), par))
    else:
        ok &= nonneg(psub(h.subs(var, hi), par))
    return ok

