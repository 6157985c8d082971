"""The declared lattice law fhsym ships (the discrete flipped Huber), printed into
``fhsym/_generated/declared/discrete_flipped_huber.py`` (issue 28).

The declaration is a :class:`~fhsym.symbolic.lattice_laws.LatticeDeclaration`
(``fhsym/symbolic/laws/discrete_flipped_huber.py``); :func:`~fhsym.symbolic.lattice_laws.derive_lattice` derives its
forms and this module prints the stable ones as numpy functions: ``log_centre_scaled(k, K, lam)``
(``log(e^(lam k) sum_(n=k)^K e^(-lam n))``, ``k <= K``) and ``tail_exponent(m, j, c)`` (``E(m) - E(m + j)`` of the
Gaussian tail, the exponent of its scaled summand).
The C99 file and the JAX module (:func:`render_lattice_law_c`, :func:`render_lattice_law_jax`) hold the same float
functions, the class's float programs and its exact privacy profile around them (:mod:`.lattice_profile`).
``python -m fhsym.codegen --check`` fails when the module is stale.

Example:

>>> "def tail_exponent(m: Any, j: Any, c: Any) -> Any:" in render_lattice_law()
True
"""

from __future__ import annotations

import functools
from fractions import Fraction
import importlib
import textwrap
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import sympy as sp

from sympy.codegen.cfunctions import expm1, log1p
from sympy.core.function import AppliedUndef

from fhsym.symbolic import discrete as D
from fhsym.symbolic.lattice_em import Program, fdiv, flt, gammainc_p, programs
from fhsym.symbolic.lattice_laws import derive_lattice, jj
from fhsym.symbolic.lattice_float import float_programs, logaddexp
from fhsym.symbolic.lattice_plan import ball, fac_ball, item, plan_programs, pm
from fhsym.symbolic.lattice_series import P_MAX, derive_series, pp
from fhsym.symbolic.special import erfcx

from . import lattice_profile as LP
from .cell_laws import FractionPrinter
from .law_targets import c_function, py_function
from .step_laws import StepArbPrinter, StepPrinter

__all__ = ["SOURCE", "ProgramPrinter", "program_source", "program_arb", "em_ball_functions", "program_c", "program_jax",
           "render_lattice_law", "render_lattice_law_c", "render_lattice_law_jax", "centre_upper_arb", "outputs",
           "outputs_c", "outputs_jax"]

COMMAND = "python -m fhsym.codegen"
SOURCE = "fhsym.symbolic.laws.discrete_flipped_huber"
_LAM = sp.Symbol("lam", positive=True)  # "lambda" is a Python keyword


def _lam(expr: Any, args: Sequence[sp.Symbol]) -> Tuple[sp.Expr, List[str]]:
    """``expr`` and the names of ``args`` with lambda renamed ``lam`` (a Python keyword)."""
    return sp.sympify(expr).subs(D.lam, _LAM), [_LAM.name if x == D.lam else x.name for x in args]


def _source(name: str, expr: sp.Expr, args: Sequence[sp.Symbol], printer: Any = None) -> str:
    """``def name(args) -> Any: return <expr>`` printed by ``printer`` (default: the numpy :class:`StepPrinter`)."""
    e, names = _lam(expr, args)
    return py_function(name, (printer or StepPrinter()).doprint(e), names)


class ProgramPrinter:
    """Prints a :class:`~fhsym.symbolic.lattice_em.Program` 's unevaluated trees as Python, keeping every sum and
    product associated as the tree is (``((a + b) + c)`` prints ``a + b + c``, ``a + (b + c)`` keeps its
    parentheses), so that the printed code performs exactly the tree's float operations.  ``fdiv(a, b)`` prints
    ``a/b``, ``x**r`` stays a power (also ``r = -1``), ``flt(r)`` the literal of the double nearest to ``r``;
    ``exp``/``log``/``log1p`` print ``math.*`` when their argument depends only on the program's scalar arguments
    (Python floats) and ``np.*`` otherwise; ``erfcx``, ``gammainc_p`` print scipy's ``sc.erfcx``, ``sc.gammainc``;
    a call of another printed function prints that call.

    >>> import sympy as sp
    >>> a, b, c = sp.symbols("a b c")
    >>> ProgramPrinter().doprint(sp.Add(a, sp.Add(b, sp.Mul(-1, c, evaluate=False), evaluate=False), evaluate=False))
    'a + (b - c)'
    """

    def __init__(self, scalars: Sequence[sp.Symbol] = (), target: str = "numpy", prefix: str = "") -> None:
        if target not in ("numpy", "c", "jax", "arb"):
            raise ValueError(f"target must be 'numpy', 'c', 'jax' or 'arb'; got {target!r}")
        self.scalars = frozenset(scalars)
        self.target, self.prefix = target, prefix  # prefix: of a called printed function's name (C)

    def doprint(self, e: sp.Expr) -> str:
        return self._p(e)

    @staticmethod
    def _is_neg(e: sp.Basic) -> bool:
        return isinstance(e, sp.Mul) and len(e.args) == 2 and e.args[0] == -1

    def _fn(self, name: str, arg: sp.Expr) -> str:
        const = not arg.free_symbols
        if self.target == "arb":
            return f"A.{name}({self._p(arg)})"
        if self.target == "c":
            return f"{name}({self._p(arg)})"
        if self.target == "jax":  # a parameter may be traced: math.* only on constants
            return f"{'math' if const else 'xp'}.{name}({self._p(arg)})"
        lib = "math" if const or arg.free_symbols <= self.scalars else "np"
        return f"{lib}.{name}({self._p(arg)})"

    def _p_arb(self, e: sp.Basic) -> Optional[str]:
        """The ball target's own prints (None: the common prints): ``ball(q)`` ``arb(q)`` (a non-integer rational
        ``A.q(p, q)``), ``pm(r)`` ``r*arb(0, 1)``, ``fac_ball(n)`` ``arb.fac_ui(n)``, ``item(k, i)`` ``k[i]``, pi
        ``arb.pi()``, a negation ``-(x)`` unless x is an atom (the tree's order: ``-(u*u)`` is not ``(-u)*u``),
        ``Abs`` ``abs``, ``Piecewise`` a conditional expression, a relation, a tuple, ``erfc``."""
        if isinstance(e, ball):
            x = e.args[0]
            if isinstance(x, sp.Rational) and not isinstance(x, sp.Integer):
                return f"A.q({int(x.p)}, {int(x.q)})"
            return f"arb({self._p(x)})"
        if isinstance(e, pm):
            return f"{self._wrap(e.args[0], (sp.Mul, fdiv, sp.Pow))}*arb(0, 1)"
        if isinstance(e, fac_ball):
            return f"arb.fac_ui({int(e.args[0])})"
        if isinstance(e, item):
            return f"{self._p(e.args[0])}[{int(e.args[1])}]"
        if e == sp.pi:
            return "arb.pi()"
        if isinstance(e, (sp.Rational, flt)) and not isinstance(e, sp.Integer):
            raise ValueError(f"a ball program's rational must be a ball(...) (rounded at the working precision): {e}")
        if self._is_neg(e):
            x = e.args[1]
            atom = isinstance(x, (sp.Symbol, sp.Integer, AppliedUndef, sp.Function)) and not isinstance(x, pm)
            return f"-{self._p(x)}" if atom else f"-({self._p(x)})"
        if isinstance(e, sp.Abs):
            return f"abs({self._p(e.args[0])})"
        if isinstance(e, sp.Piecewise):
            (a, cond), (b, rest) = e.args
            if rest != sp.true:
                raise ValueError(f"a ball program's Piecewise has two branches, the last for True: {e}")
            return f"({self._p(a)} if {self._p(cond)} else {self._p(b)})"
        if isinstance(e, sp.GreaterThan):
            return f"{self._p(e.lhs)} >= {self._p(e.rhs)}"
        if isinstance(e, sp.LessThan):  # SymPy writes u >= p as p <= u: printed as u >= p (the same ball test)
            return f"{self._p(e.rhs)} >= {self._p(e.lhs)}"
        if isinstance(e, sp.Tuple):
            return f"({', '.join(self._p(x) for x in e.args)},)"
        if isinstance(e, sp.erfc):
            return self._fn("erfc", e.args[0])
        return None

    def _p_numpy(self, e: sp.Basic) -> Optional[str]:
        """The numpy target's conditions (None: the common prints): a ``Piecewise`` of two branches is a conditional
        expression when its condition reads only scalar arguments, else ``np.where``; an inequality, ``and``;
        ``logaddexp`` is ``np.logaddexp``."""
        if isinstance(e, sp.Piecewise):
            (a, cond), (b, rest) = e.args
            if rest != sp.true:
                raise ValueError(f"a program's Piecewise has two branches, the last for True: {e}")
            if cond.free_symbols <= self.scalars:
                return f"({self._p(a)} if {self._p(cond)} else {self._p(b)})"
            return f"np.where({self._p(cond)}, {self._p(a)}, {self._p(b)})"
        if isinstance(e, (sp.StrictGreaterThan, sp.GreaterThan, sp.StrictLessThan, sp.LessThan)):  # as SymPy wrote it
            return f"{self._p(e.lhs)} {e.rel_op} {self._p(e.rhs)}"
        if isinstance(e, sp.And):
            return " and ".join(f"{self._p(x)}" for x in e.args)
        if isinstance(e, logaddexp):
            return f"np.logaddexp({self._p(e.args[0])}, {self._p(e.args[1])})"
        return None

    def _p_cond(self, e: sp.Basic) -> Optional[str]:
        """The C and JAX targets' conditions (None: the common prints): a ``Piecewise`` of two branches is C's
        ``(c ? a : b)``, JAX's ``xp.where``; an inequality as SymPy wrote it, ``and`` as ``&&`` (C) or ``&`` (JAX);
        ``logaddexp`` is the C file's helper (numpy's ``npy_logaddexp``, :data:`fhsym.codegen.lattice_profile.
        C_LOGADDEXP`) or ``xp.logaddexp``."""
        if isinstance(e, sp.Piecewise):
            (a, cond), (b, rest) = e.args
            if rest != sp.true:
                raise ValueError(f"a program's Piecewise has two branches, the last for True: {e}")
            if self.target == "c":
                return f"({self._p(cond)} ? {self._p(a)} : {self._p(b)})"
            return f"xp.where({self._p(cond)}, {self._p(a)}, {self._p(b)})"
        if isinstance(e, (sp.StrictGreaterThan, sp.GreaterThan, sp.StrictLessThan, sp.LessThan)):
            return f"({self._p(e.lhs)} {e.rel_op} {self._p(e.rhs)})"
        if isinstance(e, sp.And):
            return "(" + (" && " if self.target == "c" else " & ").join(self._p(x) for x in e.args) + ")"
        if isinstance(e, logaddexp):
            fn = f"{self.prefix}_logaddexp" if self.target == "c" else "xp.logaddexp"
            return f"{fn}({self._p(e.args[0])}, {self._p(e.args[1])})"
        return None

    def _wrap(self, e: sp.Basic, allow: Tuple[type, ...] = ()) -> str:
        """``e`` printed, parenthesised unless it is an atom, a call, or of a type in ``allow``."""
        text = self._p(e)
        if isinstance(e, (sp.Symbol, sp.Integer, AppliedUndef, sp.Function)) and not self._is_neg(e) and not (
                isinstance(e, sp.Integer) and e < 0) and not (isinstance(e, flt) and e.args[0] < 0):
            return text
        if isinstance(e, allow) and not self._is_neg(e):
            return text
        return f"({text})"

    def _p(self, e: sp.Basic) -> str:
        if self.target == "arb":
            text = self._p_arb(e)
            if text is not None:
                return text
        elif self.target == "numpy":
            text = self._p_numpy(e)
            if text is not None:
                return text
        else:
            text = self._p_cond(e)
            if text is not None:
                return text
        if isinstance(e, sp.Symbol):
            return _LAM.name if e == D.lam else str(e.name)
        if isinstance(e, sp.Integer):
            return str(int(e)) if self.target != "c" else f"{int(e)}.0"
        if isinstance(e, sp.Rational):
            if int(e.q) & (int(e.q) - 1):
                raise ValueError(f"a program's rational must be dyadic (else wrap it in flt): {e}")
            return repr(float(Fraction(int(e.p), int(e.q))))
        if e == sp.pi:
            return repr(float(sp.pi)) if self.target == "c" else "math.pi"
        if isinstance(e, flt):
            r = sp.Rational(e.args[0])
            return repr(float(Fraction(int(r.p), int(r.q))))
        if isinstance(e, fdiv):
            return f"{self._wrap(e.args[0], (sp.Mul, fdiv))}/{self._wrap(e.args[1])}"
        if isinstance(e, sp.Add):
            out = self._p(e.args[0])
            for t in e.args[1:]:
                out += f" - {self._wrap(t.args[1], (sp.Mul, fdiv, sp.Pow))}" if self._is_neg(t) else f" + {self._wrap(t, (sp.Mul, fdiv, sp.Pow))}"
            return out
        if isinstance(e, sp.Mul):
            if self._is_neg(e):
                return f"-{self._wrap(e.args[1], (sp.Mul, fdiv, sp.Pow))}"
            out = self._wrap(e.args[0], (sp.Mul, fdiv, sp.Pow))
            for f in e.args[1:]:
                out += f"*{self._wrap(f, (sp.Pow,))}"
            return out
        if isinstance(e, sp.Pow):
            if e.exp == sp.S.Half:
                return self._fn("sqrt", e.base)
            ex = int(e.exp)
            if self.target == "c":
                return f"pow({self._p(e.base)}, {ex})"
            return f"{self._wrap(e.base)}**{ex if ex >= 0 else f'({ex})'}"
        if isinstance(e, sp.exp):
            return self._fn("exp", e.args[0])
        if isinstance(e, sp.log):
            return self._fn("log", e.args[0])
        if isinstance(e, log1p):
            return self._fn("log1p", e.args[0])
        if isinstance(e, expm1):
            return self._fn("expm1", e.args[0])
        if isinstance(e, erfcx):
            return f"{ {'numpy': 'sc.erfcx', 'c': 'fhsym_erfcx', 'jax': 'xp.erfcx'}[self.target]}({self._p(e.args[0])})"
        if isinstance(e, gammainc_p):
            if self.target == "numpy":
                return f"sc.gammainc({self._p(e.args[0])}, {self._p(e.args[1])})"
            if e.args[0] != 3:
                raise ValueError(f"the C and JAX targets print P(3, y) only; got {e}")
            # P(3, y) = y^3 lowergamma3_scaled(y)/2 (fhsym's runtimes: no cancellation at small y)
            y = f"({self._p(e.args[1])})"
            fn = "fhsym_lowergamma3_scaled" if self.target == "c" else "xp.lowergamma3_scaled"
            return f"(0.5*{y}*{y}*{y}*{fn}({self._p(e.args[1])}))"
        if isinstance(e, AppliedUndef):
            return f"{self.prefix}{type(e).__name__}({', '.join(self._p(a) for a in e.args)})"
        raise ValueError(f"no program print for {type(e).__name__}: {e}")


def _program_def(prog: Program, pr: ProgramPrinter, doc: bool = True) -> str:
    """``def name(args) -> Any:`` (with the program's doc line when ``doc``), its assignments and its result, printed
    by ``pr`` (the Python targets: numpy, arb, JAX)."""
    lines = [f"def {prog.name}({', '.join(f'{pr.doprint(a)}: Any' for a in prog.args)}) -> Any:"]
    lines += [f'    """{prog.doc}."""'] if doc else []
    lines += [f"    {name.name} = {pr.doprint(rhs)}" for name, rhs in prog.assignments]
    lines.append(f"    return {pr.doprint(prog.result)}")
    return "\n".join(lines) + "\n"


def program_source(prog: Program) -> str:
    """``def name(args) -> Any:`` with the program's assignments and its result (:class:`ProgramPrinter`)."""
    return _program_def(prog, ProgramPrinter(prog.scalars))


def program_arb(prog: Program) -> str:
    """``def name(args) -> Any:`` with the ball program's assignments and its result (:class:`ProgramPrinter`,
    target ``"arb"``: every ball operation in the tree's order)."""
    return _program_def(prog, ProgramPrinter(target="arb"))


def centre_upper_arb_source(name: str, form: sp.Expr) -> str:
    """``def name(m, lam)``: ``F_p(m) = sum_(n>=m) n^p e^(-E(n))`` of the centre on balls (``r = e^(-lam)``,
    ``1 - r = -expm1(-lam)``)."""
    body = StepArbPrinter().doprint(form.subs(D.lam, _LAM))
    return (f"def {name}(m: Any, lam: Any) -> Any:\n    r = A.exp(-lam)\n    omr = -A.expm1(-lam)\n"
            f"    return arb({body})\n")


@functools.lru_cache(maxsize=None)
def centre_upper_arb(p: int) -> Callable[[Any, Any], Any]:
    """``F_p(m)`` on balls for any power p (the checked-in module holds p <= P_MAX; a higher one is derived by
    :func:`~fhsym.symbolic.lattice_series.derive_series` and printed when asked, once per process)."""
    from flint import arb

    from fhsym._core.declared_runtime import ArbNamespace

    decl = importlib.import_module(SOURCE).DECLARATION
    form = derive_series(decl, max(p, P_MAX)).upper_printed[p]
    scope: Dict[str, Any] = {"A": ArbNamespace, "arb": arb, "Any": Any}
    exec(compile(centre_upper_arb_source("f", form), "<lattice power sum>", "exec"), scope)  # noqa: S102
    fn: Callable[[Any, Any], Any] = scope["f"]
    return fn


@functools.lru_cache(maxsize=None)
def em_ball_functions(Q: int) -> Tuple[Callable[..., Any], Callable[..., Any], Callable[..., Any]]:
    """``(em_constants_arb, em_tail_arb, em_tail2_arb)`` with Q Euler-Maclaurin corrections (Q in
    :data:`fhsym.symbolic.lattice_plan.EM_ORDERS`, each proven by ``proofs/lattice_laws.py``, row ``plan``): the
    checked-in ones at the plan's order, the others printed and compiled when asked (once per process)."""
    from flint import arb

    from fhsym._core.declared_runtime import ArbNamespace
    from fhsym.symbolic.lattice_plan import em_programs

    scope: Dict[str, Any] = {"A": ArbNamespace, "arb": arb, "Any": Any}
    progs = em_programs(Q)
    exec(compile("\n\n".join(program_arb(p) for p in progs), f"<Euler-Maclaurin Q = {Q}>", "exec"), scope)  # noqa: S102
    return scope[progs[0].name], scope[progs[1].name], scope[progs[2].name]


def _arb_source(name: str, expr: sp.Expr, args: Sequence[sp.Symbol]) -> str:
    e, names = _lam(expr, args)
    return py_function(name, f"arb({StepArbPrinter().doprint(e)})", names)


def _exact_source(name: str, expr: sp.Expr, args: Sequence[sp.Symbol]) -> str:
    return _source(name, expr, args, FractionPrinter())


def _ball_defs(decl: Any) -> List[str]:
    """The ball and exact forms the law's ``at_precision`` runs (:mod:`fhsym.symbolic.lattice_series`)."""
    sd = derive_series(decl)
    defs = [_exact_source("energy_centre", sd.energy_centre, (D.n, D.lam)),
            _exact_source("energy_tail", sd.energy_tail, (D.n, D.b, D.c))]
    defs += [centre_upper_arb_source(f"centre_upper_arb_{p}", sd.upper_printed[p]) for p in range(P_MAX + 1)]
    defs.append("CENTRE_UPPER_ARB = (" + ", ".join(f"centre_upper_arb_{p}" for p in range(P_MAX + 1)) + ",)\n")
    for name, cf, args in (("energy_centre_coefficients", sd.centre_coefficients, (D.lam,)),
                           ("energy_tail_coefficients", sd.tail_coefficients, (D.b, D.c))):
        body = ", ".join(FractionPrinter().doprint(_lam(x, ())[0]) for x in cf)
        names = _lam(0, args)[1]
        defs.append(py_function(name, f"({body},)", names))
    defs.append(_arb_source("tail_ratio_arb", sd.tail_ratio, (D.m, pp, D.c)))
    defs.append(_arb_source("tail_rest_arb", sd.tail_rest, (D.m, pp, D.b, D.c)))
    return defs


def program_c(prog: Program, prefix: str) -> str:
    """The program as a C99 function ``double prefix + name(double ...)`` (libm and fhsym's runtime)."""
    pr = ProgramPrinter(prog.scalars, "c", prefix)
    params = ", ".join(f"double {pr.doprint(x)}" for x in prog.args)
    lines = [f"double {prefix}{prog.name}({params})", "{"]
    lines += [f"    const double {name.name} = {pr.doprint(rhs)};" for name, rhs in prog.assignments]
    lines += [f"    return {pr.doprint(prog.result)};", "}"]
    return "\n".join(lines) + "\n"


def program_jax(prog: Program) -> str:
    """The program on the JAX namespace ``xp`` (float64)."""
    return _program_def(prog, ProgramPrinter(prog.scalars, "jax"), doc=False)


def _float_forms(decl: Any) -> List[Tuple[str, sp.Expr, Tuple[sp.Symbol, ...]]]:
    """(name, derived form, arguments) of the float functions the numpy, C and JAX targets each print."""
    dv = derive_lattice(decl)
    return [("log_centre_scaled", dv.log_centre_scaled, (D.k, D.K, D.lam)), ("tail_exponent", dv.tail_exponent, (D.m, jj, D.c))]


def render_lattice_law_c() -> str:
    """``declared_discrete_flipped_huber.c``: the float functions of the numpy module in C99,
    ``fhsym_discrete_flipped_huber_<function>`` (doubles), libm and fhsym's runtime (``fhsym_erfcx``,
    ``fhsym_lowergamma3_scaled``: the regularised P(3, y) as ``y^3 lowergamma3_scaled(y)/2``), the class's float
    programs (:func:`~fhsym.symbolic.lattice_float.float_programs`) and the exact profile around them
    (``_profile``, ``_log_profile``, ``_log_profile_parts``: :mod:`fhsym.codegen.lattice_profile`)."""
    from .step_laws import CStepPrinter

    decl = importlib.import_module(SOURCE).DECLARATION
    prefix = "fhsym_discrete_flipped_huber_"
    fns = []
    for name, e, args in _float_forms(decl):
        expr, names = _lam(e, args)
        fns.append(c_function(prefix + name, CStepPrinter().doprint(expr), names))
    fns += [program_c(p, prefix) for p in programs(decl)]
    fns += [LP.c_logaddexp(prefix)] + [program_c(p, prefix) for p in float_programs()] + [LP.c_profile(prefix)]
    banner = (f"// GENERATED FILE - DO NOT EDIT.\n// Generated by `{COMMAND} --target c` from {SOURCE}.DECLARATION with "
              f"SymPy {sp.__version__}.\n// The float functions of fhsym/_generated/declared/discrete_flipped_huber.py "
              f"(digest {decl.digest()}),\n// and the privacy profile (eps, S, alpha, gamma, step) around them.  Build with the library: cc -std=c99 -c fhsym.c "
              f"declared_discrete_flipped_huber.c (link with -lm).  Regenerate with `{COMMAND}`;\n// `{COMMAND} "
              f"--check` fails when this file is stale.\n")
    return banner + '\n#include <math.h>\n\n#include "fhsym.h"\n\n' + "\n".join(fns)


def render_lattice_law_jax() -> str:
    """``declared/jax_discrete_flipped_huber.py``: the float functions of the numpy module on jax.numpy, and the
    privacy profile (``profile``, ``log_profile``, ``log_profile_parts``: :mod:`fhsym.codegen.lattice_profile`)."""
    from .step_laws import JaxStepPrinter

    decl = importlib.import_module(SOURCE).DECLARATION
    defs = [_source(name, e, args, JaxStepPrinter()) for name, e, args in _float_forms(decl)]
    defs += [program_jax(p) for p in programs(decl)] + [program_jax(p) for p in float_programs()]
    defs.append(LP.jax_profile())
    header = textwrap.dedent(
        f'''\
        # GENERATED FILE - DO NOT EDIT.
        # Generated by `{COMMAND} --target jax` from {SOURCE}.DECLARATION with SymPy {sp.__version__}.
        # The float functions of fhsym/_generated/declared/discrete_flipped_huber.py printed on jax.numpy (float64),
        # and the privacy profile (eps, S, alpha, gamma, step) around them (fhsym.codegen.lattice_profile).
        # Regenerate with `{COMMAND}`; `{COMMAND} --check` (run by CI) fails when this file is stale.
        ''') + '"""JAX numerics of the declared lattice law discrete flipped Huber."""\n\n'
    text = header + ("import math\nfrom typing import Any\n\nfrom fhsym._core.backends import jax_namespace\n\n"
                     "xp = jax_namespace()\n\n\n")
    return text + "\n\n".join(defs) + f"\n\nDIGEST = {decl.digest()!r}\n"


def outputs_c() -> List[Tuple[str, Callable[[], str]]]:
    """(path under fhsym/_generated/c, renderer) of the lattice law's C file."""
    return [("declared_discrete_flipped_huber.c", render_lattice_law_c)]


def outputs_jax() -> List[Tuple[str, Callable[[], str]]]:
    """(path under fhsym/_generated, renderer) of the lattice law's JAX module."""
    return [("declared/jax_discrete_flipped_huber.py", render_lattice_law_jax)]


def render_lattice_law() -> str:
    """The generated module of ``fhsym.symbolic.laws.discrete_flipped_huber.DECLARATION``."""
    decl = importlib.import_module(SOURCE).DECLARATION
    dv = derive_lattice(decl)
    defs = [_source(name, e, args) for name, e, args in _float_forms(decl)]
    defs += [program_source(p) for p in programs(decl)] + _ball_defs(decl) + [program_arb(p) for p in plan_programs()]
    defs += [program_source(p) for p in float_programs()]
    doc = ("Numerics of the declared lattice law discrete flipped Huber, printed from "
           "fhsym.symbolic.lattice_laws.derive_lattice.\n\n" + "\n".join(textwrap.fill(line, 116) for line in (
               f"Declared energy (standard units): E(n) = {decl.centre} for 0 <= n <= K, {decl.tail} beyond.",
               f"Derived: sum_(n=k)^K e^(-E(n)) = {dv.centre_sum_raw}; the tail's scaled summand "
               f"e^(E(m) - E(m + j)) = {dv.tail_scaled_term[0]}.")) + "\n")
    header = textwrap.dedent(
        f'''\
        # GENERATED FILE - DO NOT EDIT.
        # Generated by `{COMMAND}` from {SOURCE}.DECLARATION with SymPy {sp.__version__}.
        # Every function below is printed from the stable form fhsym.symbolic.lattice_laws derives from that
        # declaration; proofs/lattice_laws.py proves it equal to SymPy's sums and checks it against exact sums of the
        # definition.  Regenerate with `{COMMAND}`; `{COMMAND} --check` (run by CI) fails when this file is stale.
        ''') + f'"""{doc}"""\n\n'
    text = header + ("import math\nfrom fractions import Fraction\nfrom typing import Any\n\nimport numpy as np\n"
                     "from flint import arb\nfrom scipy import special as sc\n\n"
                     "from fhsym._core.declared_runtime import ArbNamespace as A\n\n\n") + "\n\n".join(defs)
    return text + "\n\n" + f"DIGEST = {decl.digest()!r}\n"


def outputs() -> List[Tuple[str, Callable[[], str]]]:
    """(path under fhsym/_generated, renderer) of the generated lattice-law module."""
    return [("declared/discrete_flipped_huber.py", functools.partial(render_lattice_law))]
