"""SymPy -> numpy/scipy printer for fhsym's generated kernels.

Extends SymPy's :class:`~sympy.printing.numpy.SciPyPrinter` with the stable
nodes of :mod:`fhsym.symbolic.special`, mapped to their vectorised
implementations in ``scipy.special``, ``numpy`` or :mod:`fhsym._numerics`.
"""

from __future__ import annotations

from sympy.printing.numpy import SciPyPrinter

__all__ = ["KernelPrinter"]


class KernelPrinter(SciPyPrinter):
    """Prints with the module aliases ``np`` (numpy), ``sc`` (scipy.special), ``_nx`` (fhsym._numerics)."""

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
        return self._call("_nx.lowergamma3_scaled", *e.args)

    def _print_lowergamma_scaled(self, e):
        return self._call("_nx.lowergamma_scaled", *e.args)

    def _print_log1mexp(self, e):
        return self._call("_nx.log1mexp", *e.args)

    def _print_erfcx_diff(self, e):
        return self._call("_nx.erfcx_diff", *e.args)

    def _print_gauss_profile(self, e):
        return self._call("_nx.gauss_profile", *e.args)

    def _print_log_gauss_profile(self, e):
        return self._call("_nx.log_gauss_profile", *e.args)

    def _print_sub_prod(self, e):
        return self._call("_nx.sub_prod", *e.args)

    def _print_abs_sum_sub(self, e):
        return self._call("_nx.abs_sum_sub", *e.args)

    def _print_logaddexp(self, e):
        return self._call("np.logaddexp", *e.args)

    def _print_erfinv(self, e):
        return self._call("sc.erfinv", *e.args)

    def _print_erf(self, e):
        return self._call("sc.erf", *e.args)

    def _print_erfc(self, e):
        return self._call("sc.erfc", *e.args)
