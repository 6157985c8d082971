"""SymPy -> numpy/scipy printer for fhsym's generated kernels.

Extends SymPy's :class:`~sympy.printing.numpy.SciPyPrinter` with the stable
nodes of :mod:`fhsym.symbolic.special`, mapped to their vectorised
implementations in ``scipy.special``, ``numpy`` or :mod:`fhsym._core.numerics`.
"""

from __future__ import annotations

from sympy.printing.numpy import SciPyPrinter

__all__ = ["KernelPrinter", "PiecesPrinter", "CKernelPrinter", "JaxKernelPrinter", "C_RUNTIME", "JAX_RUNTIME"]


class KernelPrinter(SciPyPrinter):
    """Prints with the module aliases ``np`` (numpy), ``sc`` (scipy.special), ``nx`` (fhsym._core.numerics)."""

    _kf = {k: v.replace("numpy.", "np.").replace("scipy.special.", "sc.") for k, v in SciPyPrinter._kf.items()}

    def __init__(self, settings=None):
        super().__init__({"fully_qualified_modules": True, "inline": True, "allow_unknown_functions": False, **(settings or {})})

    def _module_format(self, fqn, register=True):
        fqn = fqn.replace("numpy.", "np.").replace("scipy.special.", "sc.")
        return fqn

    def _print_Pi(self, e):
        return "np.pi"

    def _call(self, fname, *args):
        return "{}({})".format(fname, ", ".join(self._print(a) for a in args))

    def _print_erfcx(self, e):
        return self._call("sc.erfcx", *e.args)

    def _print_log_ndtr(self, e):
        return self._call("sc.log_ndtr", *e.args)

    def _print_ndtri(self, e):
        return self._call("sc.ndtri", *e.args)

    def _print_ndtri_exp(self, e):
        return self._call("sc.ndtri_exp", *e.args)

    def _print_exprel(self, e):
        return self._call("sc.exprel", *e.args)

    def _print_lowergamma3_scaled(self, e):
        return self._call("nx.lowergamma3_scaled", *e.args)

    def _print_lowergamma_scaled(self, e):
        return self._call("nx.lowergamma_scaled", *e.args)

    def _print_log1mexp(self, e):
        return self._call("nx.log1mexp", *e.args)

    def _print_erfcx_diff(self, e):
        return self._call("nx.erfcx_diff", *e.args)

    def _print_gauss_profile(self, e):
        return self._call("nx.gauss_profile", *e.args)

    def _print_log_gauss_profile(self, e):
        return self._call("nx.log_gauss_profile", *e.args)

    def _print_sub_prod(self, e):
        return self._call("nx.sub_prod", *e.args)

    def _print_abs_sum_sub(self, e):
        return self._call("nx.abs_sum_sub", *e.args)

    def _print_logaddexp(self, e):
        return self._call("np.logaddexp", *e.args)

    def _print_erfinv(self, e):
        return self._call("sc.erfinv", *e.args)

    def _print_erf(self, e):
        return self._call("sc.erf", *e.args)

    def _print_erfc(self, e):
        return self._call("sc.erfc", *e.args)


# ----------------------------------------------------------------------------
# Region dispatch (numpy): booleans as operators on arrays
# ----------------------------------------------------------------------------
_OPS = {"==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}


class PiecesPrinter(KernelPrinter):
    """:class:`KernelPrinter` that prints regions as ``(a <= b) & (c > d)`` (elementwise on arrays)."""

    def _print_Relational(self, e):
        return "({} {} {})".format(self._print(e.lhs), _OPS[e.rel_op], self._print(e.rhs))

    def _print_And(self, e):
        return " & ".join(self._print(a) if a.is_Relational or a.is_Symbol else f"({self._print(a)})" for a in e.args)

    def _print_Or(self, e):
        return " | ".join(f"({self._print(a)})" for a in e.args)

    def _print_Not(self, e):
        return f"np.logical_not({self._print(e.args[0])})"

    def _print_BooleanTrue(self, e):
        return "True"

    def _print_BooleanFalse(self, e):
        return "False"


# ----------------------------------------------------------------------------
# C99
# ----------------------------------------------------------------------------
from sympy.printing.c import C99CodePrinter  # noqa: E402

#: stable node -> C function of the hand-written runtime (fhsym/codegen/c/fhsym_special.c)
C_RUNTIME = {
    "erfcx": "fhsym_erfcx",
    "log_ndtr": "fhsym_log_ndtr",
    "ndtri": "fhsym_ndtri",
    "ndtri_exp": "fhsym_ndtri_exp",
    "exprel": "fhsym_exprel",
    "lowergamma3_scaled": "fhsym_lowergamma3_scaled",
    "log1mexp": "fhsym_log1mexp",
    "logaddexp": "fhsym_logaddexp",
    "erfcx_diff": "fhsym_erfcx_diff",
    "gauss_profile": "fhsym_gauss_profile",
    "log_gauss_profile": "fhsym_log_gauss_profile",
    "sub_prod": "fhsym_sub_prod",
    "abs_sum_sub": "fhsym_abs_sum_sub",
    "erfinv": "fhsym_erfinv",
}


class CKernelPrinter(C99CodePrinter):
    """SymPy -> C99 (libm only): stable nodes call the runtime; no POSIX macros (M_PI, M_SQRT2);
    Min/Max propagate NaN (C's fmin/fmax would drop it)."""

    def __init__(self, settings=None):
        super().__init__({"math_macros": {}, "allow_unknown_functions": False, **(settings or {})})

    def _print_Pi(self, e):
        return repr(float(sp_pi))

    def _print_Exp1(self, e):
        return repr(float(sp_E))

    def _print_Pow(self, e):
        if e.exp == 2:
            base = self.parenthesize(e.base, 1000)
            return f"({base}*{base})"
        return super()._print_Pow(e)

    def _print_Min(self, e):
        out = self._print(e.args[0])
        for a in e.args[1:]:
            out = f"fhsym__min({out}, {self._print(a)})"
        return out

    def _print_Max(self, e):
        out = self._print(e.args[0])
        for a in e.args[1:]:
            out = f"fhsym__max({out}, {self._print(a)})"
        return out

    def _print_Function(self, e):
        name = type(e).__name__
        if name in C_RUNTIME:
            return "{}({})".format(C_RUNTIME[name], ", ".join(self._print(a) for a in e.args))
        return super()._print_Function(e)

    def _print_Not(self, e):
        return f"!({self._print(e.args[0])})"

    def _print_BooleanTrue(self, e):
        return "1"

    def _print_BooleanFalse(self, e):
        return "0"


from sympy import E as sp_E  # noqa: E402
from sympy import Max as sp_Max  # noqa: E402
from sympy import S as sp_S  # noqa: E402
from sympy import pi as sp_pi  # noqa: E402

# the stable nodes are Function subclasses: route each through _print_Function
for _name in C_RUNTIME:
    setattr(CKernelPrinter, f"_print_{_name}", CKernelPrinter._print_Function)


# ----------------------------------------------------------------------------
# JAX
# ----------------------------------------------------------------------------
from sympy.printing.numpy import JaxPrinter  # noqa: E402

#: stable node -> JAX implementation (jax.scipy.special, or the hand-written fhsym._core.numerics_jax)
JAX_RUNTIME = {
    "erfcx": "jx.erfcx",
    "log_ndtr": "jx.log_ndtr",
    "ndtri": "jsc.ndtri",
    "ndtri_exp": "jx.ndtri_exp",
    "exprel": "jx.exprel",
    "lowergamma3_scaled": "jx.lowergamma3_scaled",
    "log1mexp": "jx.log1mexp",
    "logaddexp": "jnp.logaddexp",
    "erfcx_diff": "jx.erfcx_diff",
    "gauss_profile": "jx.gauss_profile",
    "log_gauss_profile": "jx.log_gauss_profile",
    "sub_prod": "jx.sub_prod",
    "abs_sum_sub": "jx.abs_sum_sub",
    "erfinv": "jsc.erfinv",
    "erf": "jsc.erf",
    "erfc": "jsc.erfc",
}


class JaxKernelPrinter(JaxPrinter):
    """SymPy -> jax.numpy with the module aliases ``jnp``, ``jsc`` (jax.scipy.special), ``jx`` (fhsym._core.numerics_jax)."""

    def __init__(self, settings=None):
        super().__init__({"fully_qualified_modules": True, "inline": True, "allow_unknown_functions": False, **(settings or {})})

    def _module_format(self, fqn, register=True):
        return fqn.replace("jax.numpy.", "jnp.").replace("jax.scipy.special.", "jsc.")

    def _print_Pi(self, e):
        return "jnp.pi"

    def _print_Function(self, e):
        name = type(e).__name__
        if name in JAX_RUNTIME:
            return "{}({})".format(JAX_RUNTIME[name], ", ".join(self._print(a) for a in e.args))
        return super()._print_Function(e)

    def _print_Min(self, e):
        out = self._print(e.args[0])
        for a in e.args[1:]:
            out = f"jnp.minimum({out}, {self._print(a)})"
        return out

    def _print_log(self, e):
        (arg,) = e.args
        if isinstance(arg, sp_Max) and len(arg.args) == 2 and sp_S.Zero in arg.args:  # log(Max(0, y)): NaN-free gradient
            (y,) = [a for a in arg.args if a != sp_S.Zero]
            return f"jx.log_max0({self._print(y)})"
        return f"jnp.log({self._print(arg)})"

    def _print_Max(self, e):
        out = self._print(e.args[0])
        for a in e.args[1:]:
            out = f"jnp.maximum({out}, {self._print(a)})"
        return out

    def _print_Relational(self, e):
        return "({} {} {})".format(self._print(e.lhs), _OPS[e.rel_op], self._print(e.rhs))

    def _print_And(self, e):
        return " & ".join(self._print(a) if a.is_Relational or a.is_Symbol else f"({self._print(a)})" for a in e.args)

    def _print_Or(self, e):
        return " | ".join(f"({self._print(a)})" for a in e.args)

    def _print_Not(self, e):
        return f"jnp.logical_not({self._print(e.args[0])})"

    def _print_BooleanTrue(self, e):
        return "True"

    def _print_BooleanFalse(self, e):
        return "False"


for _name in JAX_RUNTIME:
    setattr(JaxKernelPrinter, f"_print_{_name}", JaxKernelPrinter._print_Function)
