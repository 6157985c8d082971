"""Numerics of a declared noise law, printed from its derived SymPy forms: numpy (floats) and arb (balls).

:func:`compile_kernels` turns a :class:`~fhsym.symbolic.derivation.Derivation` into :class:`Kernels`:
each formula is printed once as Python source (numpy/scipy through the project's
:class:`~.printer.KernelPrinter`, python-flint ``arb`` through :class:`ArbPrinter`) and compiled with
``exec`` -- the same text generation as ``fhsym/_generated/``, done when the law is declared instead of
checked in.  Every function takes the argument first, then the shape values.

* numpy: ``logpdf[k](t)``, ``sf[k](t)``, ``logsf[k](t)`` (the stable rewrite of log sf), ``isf[k](q)`` (None
  where SymPy found no inverse), ``psi[k](t)`` for t >= 0 in piece k; ``loss_sup(D)`` (None: unbounded),
  ``kink(epsilon)`` (the D where sup loss = eps, or None); the constants
  (``variance``, ``fisher``, ``entropy``: None where SymPy did not close them);
* arb: ``psi_arb[k]``, ``sf_arb[k]`` and ``loss_sup_arb`` on balls: exact rationals stay exact
  (``fmpq``), every function is the arb function of the same name, so each value is a ball containing
  the exact value of the derived formula at the ball's points; for ``law.at_precision`` (issue 29) also
  ``logpdf_arb[k]``, ``logsf_arb[k]``, ``isf_arb[k]`` and the constants ``variance_arb``, ``fisher_arb``,
  ``entropy_arb`` (None where SymPy did not close the formula or it uses a function without an arb form);
  ``moments_arb`` (pairs (n, E[T^n])) only in the checked-in modules (a user's law derives E[T^n] when asked);
  ``sf_end_arb``, ``logsf_end_arb`` and the floats ``sf_end``, ``logsf_end`` (a bounded support [-b, b]: the last
  piece's sf in the distance w = b - t);
  ``crossings``: the derived crossing points of the loss that are exact rationals (:func:`crossing_rows`), with
  their regions, evaluated in ``Fraction`` s (``ExactNamespace``) by the at_precision view's profile.

>>> import sympy as sp
>>> t = sp.Symbol("t", positive=True)
>>> print(ArbPrinter().doprint(sp.exp(-t) / 3 + sp.erfc(t) ** 2))
(A.erfc(t))**2 + A.exp(-t)/A.q(3)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, Optional, Sequence, Tuple

import re

import numpy as np
import scipy.special as sc
import sympy as sp
from flint import arb, fmpq
from sympy.printing.str import StrPrinter

from fhsym._core import numerics as nx
from fhsym._core.declared_runtime import ArbNamespace, ExactNamespace, log_uppergamma
from fhsym._core.types import real_abs
from fhsym.symbolic.derivation import D, Derivation, eps, q, w, y

from .printer import KernelPrinter, UpperGammaSpelled

__all__ = ["ArbPrinter", "DeclaredPrinter", "Kernels", "compile_kernels", "numpy_function", "arb_function",
           "arb_printable", "crossing_rows", "exact_source"]


class DeclaredPrinter(UpperGammaSpelled, KernelPrinter):
    """:class:`KernelPrinter` plus the special functions a declared law's inverse and tails may use."""

    _uppergamma, _log_uppergamma = "(sc.gammaincc({a}, {z}) * sc.gamma({a}))", "log_uppergamma({a}, {z})"

    def _print_erfcinv(self, e: sp.Basic) -> str:
        return f"sc.erfcinv({self._print(e.args[0])})"

    def _print_erfinv(self, e: sp.Basic) -> str:
        return f"sc.erfinv({self._print(e.args[0])})"

    def _print_lowergamma(self, e: sp.Basic) -> str:
        a, z = (self._print(v) for v in e.args)
        return f"(sc.gammainc({a}, {z}) * sc.gamma({a}))"


class ArbPrinter(StrPrinter):  # type: ignore[misc]  # sympy ships no type information: StrPrinter is Any
    """SymPy -> Python source on ``arb`` balls: ``A.exp(x)``; rationals exact (``A.q(p, q)``); no floats."""

    def _print_Function(self, e: sp.Basic) -> str:
        name = type(e).__name__
        if not hasattr(ArbNamespace, name):
            raise ValueError(f"no arb form of {name}: the declared law's formulas may use "
                             f"{sorted(n for n in vars(ArbNamespace) if not n.startswith('_'))}")
        return f"A.{name}({', '.join(self._print(a) for a in e.args)})"

    _print_exp = _print_log = _print_erf = _print_erfc = _print_Function

    def _print_Abs(self, e: sp.Basic) -> str:
        return f"A.abs({self._print(e.args[0])})"

    def _print_Relational(self, e: sp.Basic) -> str:
        if e.rel_op not in ("<", "<=", ">", ">="):
            raise ValueError(f"no arb form of the relation {e.rel_op}: a Piecewise condition may use <, <=, >, >=")
        return f"A.cmp({e.rel_op!r}, {self._print(e.lhs)}, {self._print(e.rhs)})"

    def _print_And(self, e: sp.Basic) -> str:
        return f"A.all_of({', '.join(self._print(c) for c in e.args)})"

    def _print_Or(self, e: sp.Basic) -> str:
        return f"A.any_of({', '.join(self._print(c) for c in e.args)})"

    def _print_BooleanTrue(self, e: sp.Basic) -> str:
        return "True"

    def _print_BooleanFalse(self, e: sp.Basic) -> str:
        return "False"

    def _print_Piecewise(self, e: sp.Basic) -> str:
        """``A.piecewise((lambda: value, lambda: condition), ...)``: branches evaluated lazily, a condition the balls
        leave undecided joins its branch to the result (:meth:`~fhsym._core.declared_runtime.ArbNamespace.piecewise`)."""
        rows = ", ".join(f"(lambda: {self._print(v)}, lambda: {self._print(c)})" for v, c in e.args)
        return f"A.piecewise({rows})"

    def _print_Rational(self, e: sp.Basic) -> str:
        return f"A.q({e.p}, {e.q})"

    def _print_Integer(self, e: sp.Basic) -> str:
        return f"A.q({e.p})"

    def _print_Half(self, e: sp.Basic) -> str:
        return "A.q(1, 2)"

    def _print_Float(self, e: sp.Basic) -> str:
        raise ValueError(f"the float {e} in a declared formula has no exact value: write it as a Rational")

    def _print_Pi(self, e: sp.Basic) -> str:
        return "A.pi()"

    def _print_Exp1(self, e: sp.Basic) -> str:
        return "A.e()"

    def _print_Pow(self, e: sp.Basic, rational: bool = False) -> str:
        b, x = e.args
        if x == sp.Rational(1, 2):
            return f"A.sqrt({self._print(b)})"
        if x == -1:
            return f"(1/{self.parenthesize(b, 1000)})"
        if x.is_Integer:
            return f"{self.parenthesize(b, 1000)}**{int(x)}"
        if x.is_Rational and x.q == 2 and x > 0:  # b^{k/2} = sqrt(b)^k: exact 0 at b = 0 (exp(k log b / 2) is not)
            return f"A.sqrt({self._print(b)})**{int(x.p)}"
        return f"A.pow({self._print(b)}, {self._print(x)})"


def _compile(source: str, namespace: Dict[str, Any]) -> Callable[..., Any]:
    scope = dict(namespace)
    exec(compile(source, "<declared law>", "exec"), scope)  # noqa: S102 - source printed from SymPy here
    fn: Callable[..., Any] = scope["f"]
    fn.source = source  # type: ignore[attr-defined]  # the printed text, for inspection
    return fn


_NUMPY_NAMESPACE = {"np": np, "sc": sc, "nx": nx, "real_abs": real_abs, "log_uppergamma": log_uppergamma}


def numpy_source(name: str, expr: sp.Expr, args: Sequence[sp.Symbol], typed: bool = False) -> str:
    """``def name(args): return <expr printed by DeclaredPrinter>`` (annotated ``Any`` when ``typed``)."""
    body = DeclaredPrinter().doprint(sp.sympify(expr))
    params = ", ".join(f"{a.name}: Any" if typed else a.name for a in args)
    return f"def {name}({params}){' -> Any' if typed else ''}:\n    return {body}\n"


def arb_source(name: str, expr: sp.Expr, args: Sequence[sp.Symbol], typed: bool = False) -> str:
    """``def name(args): return arb(<expr printed by ArbPrinter>)`` (annotated ``Any`` when ``typed``)."""
    body = ArbPrinter().doprint(sp.sympify(expr))
    params = ", ".join(f"{a.name}: Any" if typed else a.name for a in args)
    return f"def {name}({params}){' -> Any' if typed else ''}:\n    return arb({body})\n"


def numpy_function(expr: sp.Expr, args: Sequence[sp.Symbol]) -> Callable[..., Any]:
    """``expr`` printed by :class:`DeclaredPrinter` as ``def f(args): return ...`` and compiled (numpy arrays in)."""
    return _compile(numpy_source("f", expr, args), _NUMPY_NAMESPACE)


def arb_function(expr: sp.Expr, args: Sequence[sp.Symbol]) -> Callable[..., Any]:
    """``expr`` printed by :class:`ArbPrinter` and compiled (arb balls in; a ball containing the exact value out)."""
    return _compile(arb_source("f", expr, args), {"A": ArbNamespace, "arb": arb})


def crossing_rows(dv: Derivation) -> Tuple[Tuple[int, int, int, int, sp.Expr], ...]:
    """The derived crossing points y* (loss = eps) that are rational functions of (eps, D, shapes), with their region:
    (sign of y, sign of y - D, piece of |y|, piece of |y - D|, y*).  A quadratic loss's root (a square root) is left
    out: its crossing is not an exact rational."""
    out = []
    signs = {"y < 0": (-1, -1), "0 <= y < D": (1, -1), "y >= D": (1, 1)}
    free = (eps, D, *dv.decl.shape_symbols)
    for label, expr in dv.crossings:
        region, rest = label.split(", ", 1)
        i, j = (int(v) for v in re.findall(r"piece (\d+)", rest))
        if expr.free_symbols <= set(free) and not expr.has(y) and sp.sympify(expr).is_rational_function(*free):
            out.append((*signs[region], i, j, expr))
    return tuple(out)


def exact_source(name: str, expr: sp.Expr, args: Sequence[sp.Symbol], typed: bool = False) -> str:
    """``def name(args, A=ExactNamespace): return <expr printed by ArbPrinter>``: an exact rational of exact inputs."""
    body = ArbPrinter().doprint(sp.sympify(expr))
    params = ", ".join(f"{a.name}: Any" if typed else a.name for a in args)
    tail = "A: Any = X" if typed else "A=X"
    return f"def {name}({params}, {tail}){' -> Any' if typed else ''}:\n    return {body}\n"


def arb_printable(expr: Optional[sp.Expr]) -> bool:
    """Whether ``expr`` is a formula :class:`ArbPrinter` prints (not None; every function has an arb form, no float)."""
    if expr is None:
        return False
    try:
        ArbPrinter().doprint(sp.sympify(expr))
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class Kernels:
    """The compiled numerics of one derivation (module docstring); per-piece tuples in piece order."""

    joins: Tuple[float, ...]
    joins_exact: Tuple[fmpq, ...]
    logpdf: Tuple[Callable[..., Any], ...]
    sf: Tuple[Callable[..., Any], ...]
    logsf: Tuple[Callable[..., Any], ...]
    isf: Tuple[Optional[Callable[..., Any]], ...]
    psi: Tuple[Callable[..., Any], ...]
    loss_sup: Optional[Callable[..., Any]]
    psi_arb: Tuple[Callable[..., Any], ...]
    sf_arb: Tuple[Callable[..., Any], ...]
    loss_sup_arb: Optional[Callable[..., Any]]
    kink: Optional[Callable[..., Any]]
    variance: Optional[Callable[..., Any]]
    fisher: Optional[Callable[..., Any]]
    entropy: Optional[Callable[..., Any]]
    #: a bounded support [-b, b]: b as a float and exact (None: all of R)
    end: Optional[float] = None
    end_exact: Optional[fmpq] = None
    logpdf_arb: Tuple[Optional[Callable[..., Any]], ...] = ()
    logsf_arb: Tuple[Optional[Callable[..., Any]], ...] = ()
    isf_arb: Tuple[Optional[Callable[..., Any]], ...] = ()
    variance_arb: Optional[Callable[..., Any]] = None
    fisher_arb: Optional[Callable[..., Any]] = None
    entropy_arb: Optional[Callable[..., Any]] = None
    moments_arb: Tuple[Tuple[int, Callable[..., Any]], ...] = ()
    crossings: Tuple[Tuple[int, int, int, int, Callable[..., Any]], ...] = ()
    #: a bounded support: sf and log sf of the last piece in the distance w = b - t to the end, on balls (None: not
    #: printable) and floats
    sf_end_arb: Optional[Callable[..., Any]] = None
    logsf_end_arb: Optional[Callable[..., Any]] = None
    sf_end: Optional[Callable[..., Any]] = None
    logsf_end: Optional[Callable[..., Any]] = None


def compile_kernels(dv: Derivation) -> Kernels:
    """Print and compile every formula of ``dv`` for numpy and arb."""
    t, shapes = dv.t, dv.decl.shape_symbols
    ta, qa, da = (t, *shapes), (q, *shapes), (D, *shapes)

    def const(e: Optional[sp.Expr]) -> Optional[Callable[..., Any]]:
        return None if e is None else numpy_function(e, shapes)

    def ball(e: Optional[sp.Expr], args: Sequence[sp.Symbol]) -> Optional[Callable[..., Any]]:
        return arb_function(e, args) if e is not None and arb_printable(e) else None

    joins = dv.bounds
    unbounded = dv.loss_sup is sp.oo  # the loss is unbounded: no eps makes delta exactly 0
    return Kernels(
        joins=tuple(float(b) for b in joins),
        joins_exact=tuple(fmpq(int(sp.Rational(b).p), int(sp.Rational(b).q)) for b in joins),
        logpdf=tuple(numpy_function(e, ta) for e in dv.logpdf),
        sf=tuple(numpy_function(e, ta) for e in dv.sf),
        logsf=tuple(numpy_function(e, ta) for e in dv.logsf_stable),
        isf=tuple(None if e is None else numpy_function(e, qa) for e in dv.isf),
        psi=tuple(numpy_function(e, ta) for e in dv.psi),
        loss_sup=None if unbounded else numpy_function(dv.loss_sup, da),
        psi_arb=tuple(arb_function(e, ta) for e in dv.psi),
        sf_arb=tuple(arb_function(e, ta) for e in dv.sf),
        loss_sup_arb=None if unbounded else arb_function(dv.loss_sup, da),
        kink=None if dv.kink is None else numpy_function(dv.kink, (eps, *shapes)),
        variance=const(dv.variance), fisher=const(dv.fisher), entropy=const(dv.entropy),
        end=float(dv.decl.support_end) if dv.decl.bounded else None,
        end_exact=fmpq(int(sp.Rational(dv.decl.support_end).p), int(sp.Rational(dv.decl.support_end).q))
        if dv.decl.bounded else None,
        logpdf_arb=tuple(ball(e, ta) for e in dv.logpdf), logsf_arb=tuple(ball(e, ta) for e in dv.logsf_stable),
        isf_arb=tuple(ball(e, qa) for e in dv.isf), variance_arb=ball(dv.variance, shapes),
        fisher_arb=ball(dv.fisher, shapes), entropy_arb=ball(dv.entropy, shapes),
        crossings=tuple((a, b, i, j, _compile(exact_source("f", e, (eps, D, *shapes)), {"X": ExactNamespace}))
                        for a, b, i, j, e in crossing_rows(dv)),
        sf_end_arb=ball(dv.sf_end, (w, *shapes)) if dv.decl.bounded else None,
        logsf_end_arb=ball(dv.logsf_end, (w, *shapes)) if dv.decl.bounded else None,
        sf_end=numpy_function(dv.sf_end, (w, *shapes)) if dv.decl.bounded and dv.sf_end is not None else None,
        logsf_end=numpy_function(dv.logsf_end, (w, *shapes)) if dv.decl.bounded and dv.logsf_end is not None else None,
    )
