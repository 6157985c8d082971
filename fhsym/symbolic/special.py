"""SymPy nodes for the numerically stable special functions used by fhsym.

Each node is a SymPy ``Function`` that

* knows its textbook definition through ``rewrite(<naive>)`` (``erfc``, ``exp``,
  ``log``, ``erfinv``, ``lowergamma``), which the proofs use to show that every
  stable form equals the paper's form;
* evaluates numerically (``evalf``) through that definition, so a stable
  expression can be checked at 50 digits against the paper's expression;
* has an ``fdiff`` so derivatives (density = d CDF / dt, Fisher information) can
  be taken symbolically;
* is printed by :mod:`fhsym.codegen.printer` as a call to the vectorised
  implementation (``scipy.special`` or :mod:`fhsym._core.numerics`).

=================  ===========================================  ==========================
node               definition                                    printed as
=================  ===========================================  ==========================
``erfcx(x)``       ``exp(x**2) * erfc(x)``                       ``scipy.special.erfcx``
``log_ndtr(x)``    ``log(erfc(-x/sqrt(2))/2)`` = log Phi(x)      ``scipy.special.log_ndtr``
``ndtri(p)``       ``sqrt(2)*erfinv(2p - 1)`` = Phi^{-1}(p)      ``scipy.special.ndtri``
``ndtri_exp(y)``   ``ndtri(exp(y))``                             ``scipy.special.ndtri_exp``
``exprel(x)``      ``(exp(x) - 1)/x``, 1 at x = 0                ``scipy.special.exprel``
``lowergamma3_scaled(y)``  ``lowergamma(3, y)/y**3`` = int_0^1 u^2 e^{-yu} du, 1/3 at 0
                                                                 ``fhsym._core.numerics``
``lowergamma_scaled(n,y)`` ``lowergamma(n+1, y)/y**(n+1)``         ``fhsym._core.numerics``
``log1mexp(x)``    ``log(1 - exp(-x))`` for x > 0                ``fhsym._core.numerics``
``logaddexp(x,y)`` ``log(exp(x) + exp(y))``                      ``numpy.logaddexp``
``erfcx_diff(y,k)`` ``erfcx(y) - erfcx(y + k)``, k >= 0           ``fhsym._core.numerics``
``gauss_profile(x,D)`` ``Q(x) - exp(Dx + D^2/2) Q(x + D)``        ``fhsym._core.numerics``
``log_gauss_profile(x,D)`` its log                                ``fhsym._core.numerics``
``sub_prod(e,x,y)`` ``e - x*y`` with an error-free product          ``fhsym._core.numerics``
``abs_sum_sub(x,y,c)`` ``|x + y| - c`` with an error-free sum       ``fhsym._core.numerics``
=================  ===========================================  ==========================
"""

from __future__ import annotations

from typing import Any, Optional

import sympy as sp
from sympy import Function, S

__all__ = [
    "erfcx",
    "log_ndtr",
    "ndtri",
    "ndtri_exp",
    "exprel",
    "lowergamma3_scaled",
    "log1mexp",
    "lowergamma_scaled",
    "logaddexp",
    "erfcx_diff",
    "gauss_profile",
    "log_gauss_profile",
    "sub_prod",
    "abs_sum_sub",
    "Q",
    "Phi",
    "STABLE_NODES",
    "rewrite_naive",
]


def Q(x: sp.Expr) -> sp.Expr:
    """Standard normal survival function Q(x) = erfc(x/sqrt(2))/2 (paper, Sec I-D)."""
    return sp.erfc(x / sp.sqrt(2)) / 2


def Phi(x: sp.Expr) -> sp.Expr:
    """Standard normal CDF Phi(x) = erfc(-x/sqrt(2))/2."""
    return sp.erfc(-x / sp.sqrt(2)) / 2


class _StableNode(Function):  # type: ignore[misc]  # sympy ships no type information: Function is Any
    """Common machinery: numerical evaluation through the naive definition."""

    nargs = 1

    def _naive(self) -> sp.Expr:  # pragma: no cover - overridden
        raise NotImplementedError

    def _eval_evalf(self, prec: int) -> Optional[sp.Float]:
        if not all(a.is_number for a in self.args):
            return None
        naive = self._naive()
        # Evaluate with generous guard digits: the naive forms cancel badly.
        dps = sp.core.evalf.prec_to_dps(prec)
        val = naive.evalf(dps + 30, subs={})
        return sp.Float(val, dps)


class erfcx(_StableNode):
    """Scaled complementary error function erfcx(x) = exp(x^2) erfc(x)."""

    def _naive(self) -> sp.Expr:
        x = self.args[0]
        return sp.exp(x**2) * sp.erfc(x)

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        x = self.args[0]
        return 2 * x * erfcx(x) - 2 / sp.sqrt(sp.pi)

    @classmethod
    def eval(cls, x: sp.Expr) -> Optional[sp.Expr]:
        if x is S.Zero:
            return S.One
        return None

    def _eval_rewrite_as_erfc(self, x: sp.Expr, **kwargs: Any) -> sp.Expr:
        return sp.exp(x**2) * sp.erfc(x)

    def _eval_is_positive(self) -> Optional[bool]:
        if self.args[0].is_real:
            return True
        return None


class log_ndtr(_StableNode):
    """log Phi(x), the log of the standard normal CDF."""

    def _naive(self) -> sp.Expr:
        x = self.args[0]
        return sp.log(sp.erfc(-x / sp.sqrt(2)) / 2)

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        x = self.args[0]
        return sp.sqrt(2 / sp.pi) * sp.exp(-(x**2) / 2) / sp.erfc(-x / sp.sqrt(2))

    def _eval_rewrite_as_erfc(self, x: sp.Expr, **kwargs: Any) -> sp.Expr:
        return sp.log(sp.erfc(-x / sp.sqrt(2)) / 2)


class ndtri(_StableNode):
    """Phi^{-1}(p), the standard normal quantile function."""

    def _naive(self) -> sp.Expr:
        p = self.args[0]
        return sp.sqrt(2) * sp.erfinv(2 * p - 1)

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        return sp.sqrt(2 * sp.pi) * sp.exp(ndtri(self.args[0]) ** 2 / 2)

    def _eval_rewrite_as_erfinv(self, p: sp.Expr, **kwargs: Any) -> sp.Expr:
        return sp.sqrt(2) * sp.erfinv(2 * p - 1)

    _eval_rewrite_as_erfc = _eval_rewrite_as_erfinv


class ndtri_exp(_StableNode):
    """Phi^{-1}(exp(y)): the inverse of :class:`log_ndtr` (y <= 0)."""

    def _naive(self) -> sp.Expr:
        y = self.args[0]
        return sp.sqrt(2) * sp.erfinv(2 * sp.exp(y) - 1)

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        y = self.args[0]
        return sp.exp(y) * sp.sqrt(2 * sp.pi) * sp.exp(ndtri_exp(y) ** 2 / 2)

    def _eval_rewrite_as_erfinv(self, y: sp.Expr, **kwargs: Any) -> sp.Expr:
        return sp.sqrt(2) * sp.erfinv(2 * sp.exp(y) - 1)

    _eval_rewrite_as_erfc = _eval_rewrite_as_erfinv


class exprel(_StableNode):
    """Relative exponential (exp(x) - 1)/x, continuous at 0 with value 1."""

    def _naive(self) -> sp.Expr:
        x = self.args[0]
        return (sp.exp(x) - 1) / x

    def _eval_evalf(self, prec: int) -> Optional[sp.Float]:
        if self.args[0].is_zero:
            return sp.Float(1, sp.core.evalf.prec_to_dps(prec))
        return super()._eval_evalf(prec)

    @classmethod
    def eval(cls, x: sp.Expr) -> Optional[sp.Expr]:
        if x is S.Zero:
            return S.One
        return None

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        x = self.args[0]
        return (x * sp.exp(x) - sp.exp(x) + 1) / x**2

    def _eval_rewrite_as_exp(self, x: sp.Expr, **kwargs: Any) -> sp.Expr:
        return (sp.exp(x) - 1) / x

    _eval_rewrite_as_erfc = _eval_rewrite_as_exp

    def _eval_is_positive(self) -> Optional[bool]:
        if self.args[0].is_real:
            return True
        return None


class lowergamma3_scaled(_StableNode):
    """lowergamma(3, y)/y**3 = int_0^1 u^2 exp(-y u) du (value 1/3 at y = 0).

    Appears in the second moment of the Laplace centre of the flipped Huber
    density: int_0^b s^2 exp(-b s) ds = b^3 * lowergamma3_scaled(b^2).
    """

    def _naive(self) -> sp.Expr:
        y = self.args[0]
        return 2 * (1 - sp.exp(-y) * (1 + y + y**2 / 2)) / y**3

    def _eval_evalf(self, prec: int) -> Optional[sp.Float]:
        if self.args[0].is_zero:
            return sp.Float(sp.Rational(1, 3), sp.core.evalf.prec_to_dps(prec))
        return super()._eval_evalf(prec)

    @classmethod
    def eval(cls, y: sp.Expr) -> Optional[sp.Expr]:
        if y is S.Zero:
            return sp.Rational(1, 3)
        return None

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        y = self.args[0]
        # d/dy int_0^1 u^2 e^{-yu} du = -int_0^1 u^3 e^{-yu} du
        #   = (e^{-y} - 3 lowergamma3_scaled(y)) / y
        return (sp.exp(-y) - 3 * lowergamma3_scaled(y)) / y

    def _eval_rewrite_as_exp(self, y: sp.Expr, **kwargs: Any) -> sp.Expr:
        return 2 * (1 - sp.exp(-y) * (1 + y + y**2 / 2)) / y**3

    _eval_rewrite_as_erfc = _eval_rewrite_as_exp

    def _eval_rewrite_as_lowergamma(self, y: sp.Expr, **kwargs: Any) -> sp.Expr:
        return sp.lowergamma(3, y) / y**3


class lowergamma_scaled(_StableNode):
    """lowergamma(n + 1, y)/y^(n+1) = int_0^1 u^n exp(-y u) du, integer n >= 0 (1/(n + 1) at y = 0)."""

    nargs = 2

    def _naive(self) -> sp.Expr:
        n, y = self.args
        return sp.lowergamma(n + 1, y) / y ** (n + 1)

    def _eval_evalf(self, prec: int) -> Optional[sp.Float]:
        n, y = self.args
        if y.is_zero:
            return sp.Float(1 / (n + 1), sp.core.evalf.prec_to_dps(prec))
        return super()._eval_evalf(prec)

    def fdiff(self, argindex: int = 2) -> sp.Expr:
        n, y = self.args
        return -lowergamma_scaled(n + 1, y)

    def _eval_rewrite_as_lowergamma(self, n: sp.Expr, y: sp.Expr, **kwargs: Any) -> sp.Expr:
        return sp.lowergamma(n + 1, y) / y ** (n + 1)

    _eval_rewrite_as_erfc = _eval_rewrite_as_lowergamma


class log1mexp(_StableNode):
    """log(1 - exp(-x)) for x > 0 (Maechler's log1mexp)."""

    def _naive(self) -> sp.Expr:
        x = self.args[0]
        return sp.log(1 - sp.exp(-x))

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        x = self.args[0]
        return 1 / (sp.exp(x) - 1)

    def _eval_rewrite_as_exp(self, x: sp.Expr, **kwargs: Any) -> sp.Expr:
        return sp.log(1 - sp.exp(-x))

    _eval_rewrite_as_erfc = _eval_rewrite_as_exp


class logaddexp(_StableNode):
    """log(exp(x) + exp(y)) without overflow (numpy.logaddexp)."""

    nargs = 2

    def _naive(self) -> sp.Expr:
        x, y = self.args
        return sp.log(sp.exp(x) + sp.exp(y))

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        x, y = self.args
        mine, other = (x, y) if argindex == 1 else (y, x)
        return 1 / (1 + sp.exp(other - mine))

    def _eval_rewrite_as_exp(self, x: sp.Expr, y: sp.Expr, **kwargs: Any) -> sp.Expr:
        return sp.log(sp.exp(x) + sp.exp(y))

    _eval_rewrite_as_erfc = _eval_rewrite_as_exp


class erfcx_diff(_StableNode):
    """erfcx(y) - erfcx(y + k) for k >= 0, evaluated without cancellation.

    (1/2) e^{-x^2/2} erfcx_diff(x/sqrt2, D/sqrt2) = Q(x) - e^{D x + D^2/2} Q(x + D),
    the Gaussian privacy-loss integral; the plain difference loses
    ~log10(max(1, y)/k) digits.
    """

    nargs = 2

    def _naive(self) -> sp.Expr:
        y, k = self.args
        return sp.exp(y**2) * sp.erfc(y) - sp.exp((y + k) ** 2) * sp.erfc(y + k)

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        y, k = self.args

        def d(z: sp.Expr) -> sp.Expr:  # erfcx'
            return 2 * z * erfcx(z) - 2 / sp.sqrt(sp.pi)

        return d(y) - d(y + k) if argindex == 1 else -d(y + k)

    def _eval_rewrite_as_erfcx(self, y: sp.Expr, k: sp.Expr, **kwargs: Any) -> sp.Expr:
        return erfcx(y) - erfcx(y + k)

    def _eval_rewrite_as_erfc(self, y: sp.Expr, k: sp.Expr, **kwargs: Any) -> sp.Expr:
        return sp.exp(y**2) * sp.erfc(y) - sp.exp((y + k) ** 2) * sp.erfc(y + k)


class gauss_profile(_StableNode):
    """H(x, D) = Q(x) - exp(D x + D^2/2) Q(x + D) >= 0, the Gaussian privacy-loss integral.

    The Gaussian mechanism with mu = Delta/sigma has privacy profile
    H(eps/mu - mu/2, mu) (Balle & Wang 2018, paper eq 29).
    """

    nargs = 2

    def _naive(self) -> sp.Expr:
        x, D = self.args
        return Q(x) - sp.exp(D * x + D**2 / 2) * Q(x + D)

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        x, D = self.args
        if argindex == 1:  # dH/dx = -D exp(Dx + D^2/2) Q(x + D)
            return -D * sp.exp(D * x + D**2 / 2) * Q(x + D)
        # dH/dD = phi(x) - x exp(Dx + D^2/2) Q(x + D) - D ... ; use the naive form
        return sp.diff(self._naive(), D)

    def _eval_rewrite_as_erfc(self, x: sp.Expr, D: sp.Expr, **kwargs: Any) -> sp.Expr:
        return Q(x) - sp.exp(D * x + D**2 / 2) * Q(x + D)


class log_gauss_profile(_StableNode):
    """log H(x, D), see :class:`gauss_profile`."""

    nargs = 2

    def _naive(self) -> sp.Expr:
        x, D = self.args
        return sp.log(Q(x) - sp.exp(D * x + D**2 / 2) * Q(x + D))

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        x, D = self.args
        return sp.diff(gauss_profile(x, D), (x, D)[argindex - 1]) / gauss_profile(x, D)

    def _eval_rewrite_as_erfc(self, x: sp.Expr, D: sp.Expr, **kwargs: Any) -> sp.Expr:
        return self._naive()


class sub_prod(_StableNode):
    """e - x*y with the product rounded only once into the difference (error-free product)."""

    nargs = 3

    def _naive(self) -> sp.Expr:
        e, x, y = self.args
        return e - x * y

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        e, x, y = self.args
        return (1, -y, -x)[argindex - 1]

    def _eval_rewrite_as_erfc(self, e: sp.Expr, x: sp.Expr, y: sp.Expr, **kwargs: Any) -> sp.Expr:
        return e - x * y

    _eval_rewrite_as_exp = _eval_rewrite_as_erfc


class abs_sum_sub(_StableNode):
    """|x + y| - c with the sum x + y taken error-free (one rounding in all)."""

    nargs = 3

    def _naive(self) -> sp.Expr:
        x, y, c = self.args
        return sp.Abs(x + y) - c

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        x, y, c = self.args
        return (sp.sign(x + y), sp.sign(x + y), -1)[argindex - 1]

    def _eval_rewrite_as_erfc(self, x: sp.Expr, y: sp.Expr, c: sp.Expr, **kwargs: Any) -> sp.Expr:
        return sp.Abs(x + y) - c

    _eval_rewrite_as_exp = _eval_rewrite_as_erfc


STABLE_NODES = (abs_sum_sub, lowergamma_scaled, sub_prod, gauss_profile, log_gauss_profile, erfcx_diff, logaddexp, erfcx, log_ndtr, ndtri, ndtri_exp, exprel, lowergamma3_scaled, log1mexp)


def rewrite_naive(expr: sp.Expr) -> sp.Expr:
    """Replace every stable node in ``expr`` by its textbook definition.

    Also rewrites the ``sympy.codegen.cfunctions`` helpers ``expm1``/``log1p``.
    """
    from sympy.codegen.cfunctions import expm1, log1p

    repl: dict[sp.Expr, sp.Expr] = {}
    for node in expr.atoms(Function):
        if isinstance(node, _StableNode):
            repl[node] = node._naive()
    out = expr.xreplace(repl) if repl else expr
    if out != expr:
        return rewrite_naive(out)  # nested nodes
    out = out.replace(expm1, lambda x: sp.exp(x) - 1).replace(log1p, lambda x: sp.log(1 + x))
    return out
