"""SymPy printers for fhsym's generated code: numpy/scipy, the array namespace ``xp`` (numpy and JAX), C99.

:class:`KernelPrinter` extends SymPy's :class:`~sympy.printing.numpy.SciPyPrinter` with the
stable nodes of :mod:`fhsym.symbolic.special`, mapped to their vectorised implementations in
``scipy.special``, ``numpy`` or :mod:`fhsym._core.numerics` (the numpy column of
:data:`fhsym._core.backends.IMPLEMENTATIONS`).  :class:`XpPrinter` prints every function as an
attribute of the namespace ``xp`` instead, so that one printed kernel runs on numpy and on JAX.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Mapping, Optional, Protocol

from sympy import Basic
from sympy import E as sp_E
from sympy import Max as sp_Max
from sympy import S as sp_S
from sympy import pi as sp_pi
from sympy.printing.c import C99CodePrinter
from sympy.printing.numpy import SciPyPrinter

from fhsym._core.backends import IMPLEMENTATIONS

__all__ = ["KernelPrinter", "PiecesPrinter", "XpPrinter", "CKernelPrinter", "UpperGammaSpelled", "C_RUNTIME", "NUMPY_RUNTIME",
           "TYPED_BUILTINS"]

#: the SymPy functions of fhsym.symbolic.special (and SymPy's erf, erfc) that every target routes to its runtime
_RUNTIME_NODES = ("erfcx", "log_ndtr", "ndtri", "ndtri_exp", "exprel", "lowergamma3_scaled", "lowergamma_scaled", "log1mexp",
                  "logaddexp", "erfcx_diff", "gauss_profile", "log_gauss_profile", "sub_prod", "abs_sum_sub", "erfinv", "erf", "erfc")
_ALIASES = {"numpy": "np", "scipy.special": "sc", "fhsym._core.numerics": "nx"}

#: stable node -> numpy/scipy implementation under the module aliases np, sc, nx of the generated modules
NUMPY_RUNTIME = {name: "{}.{}".format(_ALIASES[module], attr)
                 for name in _RUNTIME_NODES for module, attr in [IMPLEMENTATIONS[name][0].split(":")]}

#: builtins printed under a typed name: the same object, typed elementwise in fhsym._core.types (mypy types the
#: builtin ``abs`` of ``float | FloatArray`` as ``object``)
TYPED_BUILTINS = {"abs": "real_abs"}


class _Printer(Protocol):
    """What the helpers below need of a SymPy printer: its dispatch ``_print`` (an expression's text)."""

    def _print(self, expr: Any, /) -> str: ...


def _fold(printer: _Printer, e: Basic, fname: str) -> str:
    """Min/Max of several arguments as nested calls of a two-argument function."""
    out = printer._print(e.args[0])
    for a in e.args[1:]:
        out = f"{fname}({out}, {printer._print(a)})"
    return out


def _route(cls: type, runtime: Mapping[str, str]) -> None:
    """Print each node of ``runtime`` (node name -> function name) as a call of its function."""
    def _print_node(self: _Printer, e: Basic) -> str:
        return "{}({})".format(runtime[type(e).__name__], ", ".join(self._print(a) for a in e.args))

    for name in runtime:
        setattr(cls, f"_print_{name}", _print_node)


class KernelPrinter(SciPyPrinter):  # type: ignore[misc]  # sympy ships no type information: SciPyPrinter is Any
    """Prints with the module aliases ``np`` (numpy), ``sc`` (scipy.special), ``nx`` (fhsym._core.numerics)."""

    _kf: Dict[str, str] = {k: v.replace("numpy.", "np.").replace("scipy.special.", "sc.") for k, v in SciPyPrinter._kf.items()}

    def __init__(self, settings: Optional[Dict[str, Any]] = None) -> None:
        super().__init__({"fully_qualified_modules": True, "inline": True, "allow_unknown_functions": False, **(settings or {})})

    def _module_format(self, fqn: str, register: bool = True) -> str:
        fqn = fqn.replace("numpy.", "np.").replace("scipy.special.", "sc.")
        return TYPED_BUILTINS.get(fqn, fqn)

    def _print_Pi(self, e: Basic) -> str:
        return "np.pi"


_route(KernelPrinter, NUMPY_RUNTIME)


class _Spelled:
    """Not, True, False, Min and Max as a target spells them (class attributes)."""

    _not, _true, _false = "np.logical_not({})", "True", "False"
    _min, _max = "np.minimum", "np.maximum"
    _print: Callable[[Any], str]  # the SymPy printer's dispatch (the class this is mixed into)

    def _print_Not(self, e: Basic) -> str:
        return self._not.format(self._print(e.args[0]))

    def _print_BooleanTrue(self, e: Basic) -> str:
        return self._true

    def _print_BooleanFalse(self, e: Basic) -> str:
        return self._false

    def _print_Min(self, e: Basic) -> str:
        return _fold(self, e, self._min)

    def _print_Max(self, e: Basic) -> str:
        return _fold(self, e, self._max)


class UpperGammaSpelled:
    """The upper incomplete gamma function ``Gamma(s, z)`` and its log ``log Gamma(s, z)`` as a target spells them
    (``_uppergamma``, ``_log_uppergamma``: format strings of ``a`` and ``z``); the log is printed as one call, so the
    tail does not underflow far out.  Mixed in before the SymPy printer (its ``_print_log`` handles every other log)."""

    _uppergamma: str
    _log_uppergamma: str
    _print: Callable[[Any], str]  # the SymPy printer's dispatch (the class this is mixed into)

    def _print_uppergamma(self, e: Basic) -> str:
        a, z = (self._print(v) for v in e.args)
        return self._uppergamma.format(a=a, z=z)

    def _print_log(self, e: Basic) -> str:
        from sympy import uppergamma

        if isinstance(e.args[0], uppergamma):
            a, z = (self._print(v) for v in e.args[0].args)
            return self._log_uppergamma.format(a=a, z=z)
        return str(super()._print_log(e))  # type: ignore[misc]  # the SymPy printer's, after this mixin in the MRO


class _ElementwiseBooleans(_Spelled):
    """Regions as ``(a <= b) & (c > d)``: elementwise on numpy and JAX arrays alike."""

    def _print_Relational(self, e: Basic) -> str:
        return "({} {} {})".format(self._print(e.lhs), e.rel_op, self._print(e.rhs))

    def _print_And(self, e: Basic) -> str:
        return " & ".join(self._print(a) if a.is_Relational or a.is_Symbol else f"({self._print(a)})" for a in e.args)

    def _print_Or(self, e: Basic) -> str:
        return " | ".join(f"({self._print(a)})" for a in e.args)


class PiecesPrinter(_ElementwiseBooleans, KernelPrinter):
    """:class:`KernelPrinter` that prints regions as ``(a <= b) & (c > d)`` (elementwise on arrays)."""


class XpPrinter(_ElementwiseBooleans, KernelPrinter):
    """Every function as an attribute of the array namespace ``xp`` (:mod:`fhsym._core.backends`):
    ``xp.exp(x)``, ``xp.erfcx(x)``; Min/Max as ``xp.minimum``/``xp.maximum``, log(max(0, y)) as
    ``xp.log_max0(y)`` (its JAX twin has a NaN-free gradient)."""

    _not, _min, _max = "xp.logical_not({})", "xp.minimum", "xp.maximum"

    def _module_format(self, fqn: str, register: bool = True) -> str:
        if "." not in fqn:  # a builtin (abs)
            return TYPED_BUILTINS.get(fqn, fqn)
        name = fqn.rsplit(".", 1)[-1]
        if name not in IMPLEMENTATIONS:
            raise ValueError(f"{fqn} has no entry in fhsym._core.backends.IMPLEMENTATIONS")
        return f"xp.{name}"

    def _print_Exp1(self, e: Basic) -> str:
        """Euler's number as a literal, as :class:`CKernelPrinter` prints it (the namespace has no ``e``: SymPy's
        ``numpy.e`` would be refused above; a law's sf may hold ``E**(-1/2)``)."""
        return repr(float(sp_E))

    def _print_Pi(self, e: Basic) -> str:
        return "xp.pi"

    def _print_log(self, e: Basic) -> str:
        (arg,) = e.args
        if isinstance(arg, sp_Max) and len(arg.args) == 2 and sp_S.Zero in arg.args:
            (y,) = [a for a in arg.args if a != sp_S.Zero]
            return f"xp.log_max0({self._print(y)})"
        return f"xp.log({self._print(arg)})"


_route(XpPrinter, {name: f"xp.{name}" for name in _RUNTIME_NODES})


# ----------------------------------------------------------------------------
# C99
# ----------------------------------------------------------------------------
#: stable node -> C function of the hand-written runtime (fhsym/codegen/c/fhsym_special.c)
C_RUNTIME = {
    "erfcx": "fhsym_erfcx",
    "log_ndtr": "fhsym_log_ndtr",
    "ndtri": "fhsym_ndtri",
    "ndtri_exp": "fhsym_ndtri_exp",
    "exprel": "fhsym_exprel",
    "lowergamma3_scaled": "fhsym_lowergamma3_scaled",
    "lowergamma_scaled": "fhsym_lowergamma_scaled",
    "log1mexp": "fhsym_log1mexp",
    "logaddexp": "fhsym_logaddexp",
    "erfcx_diff": "fhsym_erfcx_diff",
    "gauss_profile": "fhsym_gauss_profile",
    "log_gauss_profile": "fhsym_log_gauss_profile",
    "sub_prod": "fhsym_sub_prod",
    "abs_sum_sub": "fhsym_abs_sum_sub",
    "erfinv": "fhsym_erfinv",
}


class CKernelPrinter(_Spelled, C99CodePrinter):  # type: ignore[misc]  # sympy ships no type information: C99CodePrinter is Any
    """SymPy -> C99 (libm only): stable nodes call the runtime; no POSIX macros (M_PI, M_SQRT2);
    Min/Max propagate NaN (C's fmin/fmax would drop it)."""

    _not, _true, _false = "!({})", "1", "0"
    _min, _max = "fhsym__min", "fhsym__max"

    def __init__(self, settings: Optional[Dict[str, Any]] = None) -> None:
        super().__init__({"math_macros": {}, "allow_unknown_functions": False, **(settings or {})})

    def _print_Pi(self, e: Basic) -> str:
        return repr(float(sp_pi))

    def _print_Exp1(self, e: Basic) -> str:
        return repr(float(sp_E))

    def _print_Pow(self, e: Basic) -> str:
        if e.exp == 2:
            base = self.parenthesize(e.base, 1000)
            return f"({base}*{base})"
        text: str = super()._print_Pow(e)
        return text



_route(CKernelPrinter, C_RUNTIME)
