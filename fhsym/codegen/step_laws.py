"""The declared step laws fhsym ships, printed into ``fhsym/_generated/declared/<law>.py`` (issue 28).

The declarations are :class:`~fhsym.symbolic.steps.StepDeclaration` s in ``fhsym/symbolic/laws/`` (staircase,
truncated staircase); :func:`~fhsym.symbolic.steps.derive_steps` derives their forms and this module prints the
stable ones (``r = e^-epsilon``, ``1 - r^X`` as ``-expm1(-epsilon X)``) as typed numpy functions.  Arguments: ``k``
the period index, ``u`` the offset in the period, ``a = hi_i - u`` its distance below the upper edge of its cell i and
``v = u - lo_i`` above the lower edge (all in units of the period ``Delta0``: the law forms a and v by exact
subtraction in its own units, so no edge cancellation enters the tails), ``q`` a tail probability (``<= 1/2``), ``epsilon`` the design privacy, the shapes (``W``: first-step width / Delta0), and
for a cut law ``K``, ``rho`` (the cut at ``beta = K + rho`` periods).  Per cell ``i``: ``logpdf_i(k, ...)`` (standard
units), ``sf_i(k, a, ...)``, ``half_i(k, v, ...)`` (``P(0 < T <= k + u)``), ``isf_i(k, q, ...)`` (the distance a below
the upper edge of cell i of period k where the tail is q); ``period(q, ...)`` (the real k whose period start has tail q; the law floors it);
``variance``, ``moment_<n>``, ``entropy``, ``profile_weight_<n>(d, ...)`` (infinite laws: the probability that the
level difference of a shift ``0 < d <= 1`` period is n, so that ``delta(eps; d) = sum_n W_n (1 - e^(eps - n
epsilon))_+``); ``norm``, ``sf_top``, ``isf_top_i``, ``var_period``,
``var_last`` (cut laws).  ``python -m fhsym.codegen --check`` fails when a module is stale.
"""

from __future__ import annotations

import functools
import importlib
import re
import textwrap
from typing import Any, Callable, Dict, List, Sequence, Tuple

import sympy as sp
from sympy.printing.str import StrPrinter
from flint import arb

from fhsym._core.declared_runtime import ArbNamespace
from fhsym.symbolic.steps import (J_run, K, StepDeclaration, StepDerivation, a, d_shift, derive_steps, eps, f_shift, k,
                                  profile_periods, profile_periods_cut, profile_weights, profile_weights_cut, q, rho,
                                  to_epsilon, u,
                                  v)

from .declared import ArbPrinter, DeclaredPrinter
from .law_targets import JAX_PREAMBLE, c_function, c_helpers, py_function
from .printer import CKernelPrinter, XpPrinter
from .step_far import FAR_DOC, c_cut_far, jax_cut_far

__all__ = ["STEP_LAWS", "StepPrinter", "StepArbPrinter", "arb_step_source", "step_moment_arb", "render_step_law",
           "render_step_law_c", "render_step_law_jax", "outputs", "outputs_c", "outputs_jax"]

COMMAND = "python -m fhsym.codegen"
SOURCES = ("fhsym.symbolic.laws.staircase", "fhsym.symbolic.laws.truncated_staircase")
#: (generated module name, the module of its DECLARATION)
STEP_LAWS: Tuple[Tuple[str, str], ...] = tuple((src.rsplit(".", 1)[-1], src) for src in SOURCES)


class _MinMaxSub(StrPrinter):  # type: ignore[misc]  # sympy ships no type information: StrPrinter is Any
    """``Min``/``Max`` folded pairwise into the target's two-argument ``MIN``/``MAX`` and ``Sub`` as one
    parenthesised difference: the part the step laws' printers share (each names its own functions)."""

    MIN = ""
    MAX = ""

    def _fold(self, e: sp.Basic, fn: str) -> str:
        out = str(self._print(e.args[0]))
        for arg in e.args[1:]:
            out = f"{fn}({out}, {self._print(arg)})"
        return out

    def _print_Sub(self, e: sp.Basic) -> str:
        return f"(({self._print(e.args[0])}) - ({self._print(e.args[1])}))"

    def _print_Min(self, e: sp.Basic) -> str:
        return self._fold(e, self.MIN)

    def _print_Max(self, e: sp.Basic) -> str:
        return self._fold(e, self.MAX)


class StepPrinter(_MinMaxSub, DeclaredPrinter):
    """:class:`~.declared.DeclaredPrinter` with ``Min``/``Max`` as nested ``np.minimum``/``np.maximum``
    (elementwise, no functools) and ``floor`` as ``np.floor``."""

    MIN, MAX = "np.minimum", "np.maximum"


class StepArbPrinter(_MinMaxSub, ArbPrinter):
    """:class:`~.declared.ArbPrinter` (python-flint balls, exact rationals) with ``Min``/``Max`` as nested
    ``A.min``/``A.max`` (ball hulls) and ``Sub`` as one parenthesised difference."""

    MIN, MAX = "A.min", "A.max"


def arb_step_source(name: str, expr: sp.Expr, args: Sequence[sp.Symbol]) -> str:
    """``def name(args) -> Any: return arb(...)``: the stable form (:func:`~fhsym.symbolic.steps.to_epsilon`) on balls."""
    return py_function(name, f"arb({StepArbPrinter().doprint(to_epsilon(expr))})", [a.name for a in args])


def step_moment_arb(decl: StepDeclaration, n: int) -> Callable[..., Any]:
    """E|T|^n (standard units) of an untruncated step law for any n, derived by :func:`derive_steps` and printed on
    balls when asked (the checked-in module holds n <= 6): a function of (epsilon, shapes...)."""
    if decl.truncated:
        raise ValueError("decl must be an untruncated step declaration (a cut law's moments are period sums)")
    dv = derive_steps(decl, max_moment=max(n, 6))
    scope: Dict[str, Any] = {"A": ArbNamespace, "arb": arb, "Any": Any}
    exec(compile(arb_step_source("f", dv.moments[n], (eps, *decl.shape_symbols)), "<step moment>", "exec"), scope)  # noqa: S102
    fn: Callable[..., Any] = scope["f"]
    return fn


@functools.lru_cache(maxsize=None)
def _derived(source: str) -> StepDerivation:
    return derive_steps(importlib.import_module(source).DECLARATION)


def _source(name: str, expr: sp.Expr, args: Sequence[sp.Symbol]) -> str:
    return py_function(name, StepPrinter().doprint(to_epsilon(expr)), [a.name for a in args])


def render_step_law(name: str, source: str) -> str:
    """The generated module of the step declaration ``source.DECLARATION``."""
    dv = _derived(source)
    decl = dv.decl
    shapes = decl.shape_symbols
    cut = (K, rho) if decl.truncated else ()
    par = (eps, *shapes, *cut)
    defs: List[str] = []
    tables: List[Tuple[str, str]] = []

    def per_cell(table: str, prefix: str, exprs: Sequence[sp.Expr], args: Sequence[sp.Symbol]) -> None:
        names = []
        for i, e in enumerate(exprs):
            defs.append(_source(f"{prefix}_{i}", e, args))
            names.append(f"{prefix}_{i}")
        tables.append((table, f"({', '.join(names)},)"))

    def single(fn: str, e: sp.Expr, args: Sequence[sp.Symbol]) -> None:
        defs.append(_source(fn, e, args))

    per_cell("LOGPDF", "logpdf", dv.logpdf, (k, *par))
    per_cell("SF", "sf", dv.sf, (k, a, *par))
    per_cell("HALF", "half", dv.half, (k, v, *par))
    per_cell("ISF", "isf", dv.isf, (k, q, *par))
    # the real period index whose start has tail mass q: r^k = period_of
    single("period", -sp.log(dv.period_of) / eps, (q, *par))
    if decl.truncated:
        single("norm", dv.Z, par)
        single("sf_top", dv.sf_top, (u, *par))
        assert dv.isf_top is not None
        per_cell("ISF_TOP", "isf_top", dv.isf_top, (q, *par))
        single("var_period", dv.var_period, (k, eps, *shapes))
        single("var_last", dv.var_last, par)
        assert dv.moment_period is not None and dv.moment_last is not None
        higher = sorted(n for n in dv.moment_period if n > 2)  # n = 2 is var_period/var_last
        for n in higher:
            single(f"moment_period_{n}", dv.moment_period[n], (k, eps, *shapes))
            single(f"moment_last_{n}", dv.moment_last[n], par)
        tables.append(("MOMENT_PERIOD", "{2: var_period, " + ", ".join(f"{n}: moment_period_{n}" for n in higher) + "}"))
        tables.append(("MOMENT_LAST", "{2: var_last, " + ", ".join(f"{n}: moment_last_{n}" for n in higher) + "}"))
        single("nlog_period", dv.nlog_period, (k, eps, *shapes))
        single("nlog_last", dv.nlog_last, par)
        for fn, e, args in _cut_profile_rows(dv):
            single(fn, e, args)
        cut_ns = _profile_ns(dv)
        tables.append(("PROFILE_WEIGHTS", "{" + ", ".join(f"{n}: profile_weight_{n}" for n in cut_ns) + "}"))
        tables.append(("PROFILE_FAR", _far_table(dv)))
    else:
        single("norm", dv.Z, par)
        for n, e in sorted(dv.moments.items()):
            single(f"moment_{n}", e, par)
        tables.append(("MOMENTS", "{" + ", ".join(f"{n}: moment_{n}" for n in sorted(dv.moments)) + "}"))
        single("variance", dv.variance, par)
        assert dv.entropy is not None
        single("entropy", dv.entropy, par)
        weights = profile_weights(decl)
        for n, e in weights.items():
            single(f"profile_weight_{n}", e, (d_shift, *par))
        tables.append(("PROFILE_WEIGHTS", "{" + ", ".join(f"{n}: profile_weight_{n}" for n in weights) + "}"))
        for fn, e, args in _period_rows(dv):
            single(fn, e, args)
        tables += _period_tables(dv)
    # the ball forms read by at_precision (fhsym.noise.precise_steps): the same stable forms on python-flint balls
    def arb_cells(table: str, prefix: str, exprs: Sequence[sp.Expr], args: Sequence[sp.Symbol]) -> None:
        names = []
        for i, e in enumerate(exprs):
            defs.append(arb_step_source(f"{prefix}_{i}", e, args))
            names.append(f"{prefix}_{i}")
        tables.append((table, f"({', '.join(names)},)"))

    def arb_single(table: str, fn: str, e: sp.Expr, args: Sequence[sp.Symbol]) -> None:
        defs.append(arb_step_source(fn, e, args))
        tables.append((table, fn))

    arb_cells("LOGPDF_ARB", "logpdf_arb", dv.logpdf, (k, *par))
    arb_cells("SF_ARB", "sf_arb", dv.sf, (k, a, *par))
    arb_cells("ISF_ARB", "isf_arb", dv.isf, (k, q, *par))
    arb_single("PERIOD_ARB", "period_arb", -sp.log(dv.period_of) / eps, (q, *par))
    arb_single("NORM_ARB", "norm_arb", dv.Z, par)
    if decl.truncated:
        assert dv.sf_top is not None and dv.isf_top is not None and dv.var_period is not None
        arb_single("SF_TOP_ARB", "sf_top_arb", dv.sf_top, (u, *par))
        arb_cells("ISF_TOP_ARB", "isf_top_arb", dv.isf_top, (q, *par))
        arb_single("VAR_PERIOD_ARB", "var_period_arb", dv.var_period, (k, eps, *shapes))
        arb_single("VAR_LAST_ARB", "var_last_arb", dv.var_last, par)
        assert dv.moment_period is not None and dv.moment_last is not None
        higher = sorted(n for n in dv.moment_period if n > 2)
        for n in higher:
            defs.append(arb_step_source(f"moment_period_arb_{n}", dv.moment_period[n], (k, eps, *shapes)))
            defs.append(arb_step_source(f"moment_last_arb_{n}", dv.moment_last[n], par))
        tables.append(("MOMENT_PERIOD_ARB", "{2: var_period_arb, " + ", ".join(f"{n}: moment_period_arb_{n}"
                                                                           for n in higher) + "}"))
        tables.append(("MOMENT_LAST_ARB", "{2: var_last_arb, " + ", ".join(f"{n}: moment_last_arb_{n}"
                                                                       for n in higher) + "}"))
        arb_single("NLOG_PERIOD_ARB", "nlog_period_arb", dv.nlog_period, (k, eps, *shapes))
        arb_single("NLOG_LAST_ARB", "nlog_last_arb", dv.nlog_last, par)
    else:
        for n, e in sorted(dv.moments.items()):
            defs.append(arb_step_source(f"moment_arb_{n}", e, par))
        tables.append(("MOMENTS_ARB", "{" + ", ".join(f"{n}: moment_arb_{n}" for n in sorted(dv.moments)) + "}"))
        assert dv.entropy is not None
        arb_single("ENTROPY_ARB", "entropy_arb", dv.entropy, par)
        for n, e in weights.items():
            defs.append(arb_step_source(f"profile_weight_arb_{n}", e, (d_shift, *par)))
        tables.append(("PROFILE_WEIGHTS_ARB", "{" + ", ".join(f"{n}: profile_weight_arb_{n}" for n in weights) + "}"))
    tables.append(("CELL_EDGES", repr(tuple(str(b) for _, b, _ in decl.cells[:-1]))))  # the inner edges, as text
    tables.append(("DIGEST", repr(decl.digest())))
    body = "\n\n".join(defs)
    doc = (f"Numerics of the declared step law {decl.display_name} in units of its period (design sensitivity), "
           f"printed from\nfhsym.symbolic.steps.derive_steps (r = e^-epsilon per period; t = k + u, 0 <= u < 1).\n\n"
           + "\n".join(textwrap.fill(line, 116) for line in (
               f"Declared cells (lo, hi, height): {decl.cells}{'; cut at K + rho periods' if decl.truncated else ''}.",
               f"Derived: Z = {dv.Z}.")) + "\n")
    header = textwrap.dedent(
        f'''\
        # GENERATED FILE - DO NOT EDIT.
        # Generated by `{COMMAND}` from {source}.DECLARATION with SymPy {sp.__version__}.
        # Every function below is printed from the stable form fhsym.symbolic.steps derives from that declaration;
        # proofs/step_laws.py proves it equal to SymPy's sums and checks it against mpmath integration of the step
        # density.  Regenerate with `{COMMAND}`; `{COMMAND} --check` (run by CI) fails when this file is stale.
        ''') + f'"""{doc}"""\n\n'
    text = header + ("from typing import Any\n\nimport numpy as np\nfrom flint import arb\n\n"
                     "from fhsym._core.declared_runtime import ArbNamespace as A\n\n\n") + body + "\n\n"
    text += "".join(f"{key} = {val}\n" for key, val in tables)
    return text


def outputs() -> List[Tuple[str, Callable[[], str]]]:
    """(path under fhsym/_generated, renderer) of every generated step-law module."""
    return [(f"declared/{name}.py", functools.partial(render_step_law, name, src)) for name, src in STEP_LAWS]


# ------------------------------------------------------------------------------------------- the C and JAX targets
def _float_rows(dv: StepDerivation) -> List[Tuple[str, sp.Expr, Tuple[sp.Symbol, ...]]]:
    """(function name, derived stable form, arguments) of every float function of the numpy module, in its order."""
    decl = dv.decl
    shapes = decl.shape_symbols
    par = (eps, *shapes, *((K, rho) if decl.truncated else ()))
    rows: List[Tuple[str, sp.Expr, Tuple[sp.Symbol, ...]]] = []
    for prefix, exprs, args in (("logpdf", dv.logpdf, (k, *par)), ("sf", dv.sf, (k, a, *par)),
                                ("half", dv.half, (k, v, *par)), ("isf", dv.isf, (k, q, *par))):
        rows += [(f"{prefix}_{i}", e, args) for i, e in enumerate(exprs)]
    rows.append(("period", -sp.log(dv.period_of) / eps, (q, *par)))
    rows.append(("norm", dv.Z, par))
    if decl.truncated:
        assert dv.sf_top is not None and dv.isf_top is not None and dv.var_period is not None
        rows.append(("sf_top", dv.sf_top, (u, *par)))
        rows += [(f"isf_top_{i}", e, (q, *par)) for i, e in enumerate(dv.isf_top)]
        rows.append(("var_period", dv.var_period, (k, eps, *shapes)))
        assert dv.var_last is not None
        rows.append(("var_last", dv.var_last, par))
        assert dv.moment_period is not None and dv.moment_last is not None and dv.nlog_period is not None
        for n in sorted(n for n in dv.moment_period if n > 2):  # n = 2: var_period, var_last
            rows.append((f"moment_period_{n}", dv.moment_period[n], (k, eps, *shapes)))
            rows.append((f"moment_last_{n}", dv.moment_last[n], par))
        rows.append(("nlog_period", dv.nlog_period, (k, eps, *shapes)))
        assert dv.nlog_last is not None
        rows.append(("nlog_last", dv.nlog_last, par))
        rows += _cut_profile_rows(dv)
    else:
        rows += [(f"moment_{n}", e, par) for n, e in sorted(dv.moments.items())]
        rows.append(("variance", dv.variance, par))
        assert dv.entropy is not None
        rows.append(("entropy", dv.entropy, par))
        rows += [(f"profile_weight_{n}", e, (d_shift, *par)) for n, e in profile_weights(decl).items()]
        rows += _period_rows(dv)
    return rows


def _cut_profile_rows(dv: StepDerivation) -> List[Tuple[str, sp.Expr, Tuple[sp.Symbol, ...]]]:
    """A cut law's profile at a shift ``d <= 1`` period (:func:`~fhsym.symbolic.steps.profile_weights_cut`):
    ``profile_weight_<n>(d, ...)`` and ``profile_inf(d, ...)``, the mass of an infinite loss."""
    weights, inf = profile_weights_cut(dv.decl)
    if not weights:
        return []
    par = (d_shift, eps, *dv.decl.shape_symbols, K, rho)
    far = profile_periods_cut(dv.decl) or {}
    far_par = (f_shift, eps, *dv.decl.shape_symbols, K, rho)
    run = [("profile_run", far["run"]["mass"][0], (J_run, eps))] if far else []
    return ([(f"profile_weight_{n}", e, par) for n, e in weights.items()] + [("profile_inf", inf, par)] + run
            + [(f"profile_far_{part}_{clip}_{_tag(key)}", e, far_par) for part, clips in far.items() if part != "run"
               for clip, masses in clips.items() for key, e in masses.items()])


def _far_table(dv: StepDerivation) -> str:
    """``PROFILE_FAR = {part: {clip: {key: function}}}`` of :func:`_cut_profile_rows`' beyond-one-period masses."""
    far = profile_periods_cut(dv.decl) or {}
    return "{" + ", ".join(
        f"{part!r}: {{" + ", ".join(f"{clip!r}: {{" + ", ".join(f"{key}: profile_far_{part}_{clip}_{_tag(key)}"
                                                             for key in masses) + "}"
                                   for clip, masses in clips.items()) + "}" for part, clips in far.items()
        if part != "run") + "}"


def _plus(c: int) -> str:
    """``+ c.0`` or ``- |c|.0``: an integer added to the printed period count p."""
    return f"{'-' if c < 0 else '+'} {abs(c)}.0"


def _tag(c: int) -> str:
    """A level offset as a name suffix: ``2``, ``0``, ``m1`` (for -1)."""
    return f"m{-c}" if c < 0 else str(c)


def _period_parts(dv: StepDerivation) -> Tuple[Dict[int, sp.Expr], Dict[int, sp.Expr], sp.Expr]:
    """The non-zero ``head[m]`` and ``block[c]`` of :func:`~fhsym.symbolic.steps.profile_periods` and its
    ``run_mass`` (({}, {}, 0) for a law with none)."""
    pp = None if dv.decl.truncated else profile_periods(dv.decl)
    if pp is None:
        return {}, {}, sp.Integer(0)
    return ({m: e for m, e in pp.head.items() if e != 0}, {c: e for c, e in pp.block.items() if e != 0}, pp.run_mass)


def _period_rows(dv: StepDerivation) -> List[Tuple[str, sp.Expr, Tuple[sp.Symbol, ...]]]:
    """The profile beyond one period: ``profile_head_<m>(f, ...)``, ``profile_block_<c>(f, ...)`` (the masses of
    :class:`~fhsym.symbolic.steps.ProfilePeriods`) and ``profile_run(J, epsilon)`` = ``(1 - r^J)/(1 - r)``, the
    geometric factor of a run of J periods (its other factor, ``1 - e^eps r^(N + 1 - J)``, is formed with one rounding
    of its exponent by the printed profile)."""
    head, block, run_mass = _period_parts(dv)
    if not head:
        return []
    par = (eps, *dv.decl.shape_symbols)
    return ([(f"profile_head_{_tag(m)}", e, (f_shift, *par)) for m, e in head.items()]
            + [(f"profile_block_{_tag(c)}", e, (f_shift, *par)) for c, e in block.items()]
            + [("profile_run", run_mass, (J_run, eps))])


def _period_tables(dv: StepDerivation) -> List[Tuple[str, str]]:
    head, block, _ = _period_parts(dv)
    return [("PROFILE_HEAD", "{" + ", ".join(f"{m}: profile_head_{_tag(m)}" for m in head) + "}"),
            ("PROFILE_BLOCK", "{" + ", ".join(f"{c}: profile_block_{_tag(c)}" for c in block) + "}")]


class CStepPrinter(CKernelPrinter):
    """The project's C99 printer (Min/Max as the NaN-propagating ``fhsym__min``/``fhsym__max``) with ``Sub`` as one
    parenthesised difference."""

    def _print_Sub(self, e: sp.Basic) -> str:
        return f"(({self._print(e.args[0])}) - ({self._print(e.args[1])}))"


class JaxStepPrinter(XpPrinter):
    """The project's :class:`~.printer.XpPrinter` (``xp.minimum``, ``xp.expm1`` ...) with ``Sub`` as one difference."""

    def _print_Sub(self, e: sp.Basic) -> str:
        return f"(({self._print(e.args[0])}) - ({self._print(e.args[1])}))"


def render_step_law_c(name: str, source: str) -> str:
    """``declared_<name>.c``: the float functions of the step law's numpy module in C99, ``fhsym_<name>_<function>``
    (every argument a double: the period index k, the cut K as whole numbers; one the form does not use is
    ``(void)``-ed, the same signature for every law), libm only."""
    dv = _derived(source)
    printer = CStepPrinter()
    body = "\n".join(c_function(f"fhsym_{name}_{fn}", printer.doprint(to_epsilon(e)), [s.name for s in args])
                     for fn, e, args in _float_rows(dv))
    helpers = c_helpers(body)
    banner = (f"// GENERATED FILE - DO NOT EDIT.\n// Generated by `{COMMAND} --target c` from {source}.DECLARATION "
              f"with SymPy {sp.__version__}.\n// The declared step law {dv.decl.display_name} in units of its period "
              f"(the functions of fhsym/_generated/declared/{name}.py;\n// digest {dv.decl.digest()}).  Build: cc -std=c99 "
              f"-c declared_{name}.c (link with -lm).  Regenerate with `{COMMAND}`;\n// `{COMMAND} --check` fails when "
              f"this file is stale.\n")
    return banner + "\n#include <math.h>\n\n" + helpers + ("\n" if helpers else "") + body + _c_profile(dv, name)


#: the comment of the printed profile (C and JAX)
_PROFILE_DOC = ("delta(eps; d) = sum_n W_n(d) (1 - e^(eps - n epsilon))_+ for a shift d >= 0 in periods: for d <= 1 the "
                "derived lattice form (fhsym.symbolic.steps.profile_weights, the profile_weight_n above); for d = p + f "
                "beyond one period (p = floor(d) whole periods, f = d - p exact) fhsym.symbolic.steps.profile_periods: "
                "sum_m profile_head_m(f) (1 - e^(eps - (p + m) epsilon))_+ + sum_c profile_block_c(f) profile_run(J_c) "
                "(1 - e^(eps - (p + c + 1 - J_c) epsilon)), J_c the number of j = 0 .. p-1 with (p + c - 2j) epsilon > "
                "eps (each test eps - n epsilon with one rounding, as for d <= 1); NaN for d > 2^52 periods (p + c no "
                "longer exact), eps < 0, d < 0, epsilon <= 0 or a NaN argument")


#: the cut law's
_PROFILE_DOC_CUT = ("delta(eps; d) = I(d) + sum_n W_n(d) (1 - e^(eps - n epsilon))_+ for a shift 0 <= d <= 1 period of "
                    "the law cut at K + rho periods (K >= 1; fhsym.symbolic.steps.profile_weights_cut: profile_inf = I, "
                    "the mass whose shift leaves the support, and the profile_weight_n above), eps - n epsilon with one "
                    "rounding" + FAR_DOC + "; NaN for d > 2^52 periods, eps < 0, d < 0, epsilon <= 0, K not a whole "
                    "number >= 1, rho outside [0, 1) or a NaN argument")


def _profile_doc(dv: StepDerivation) -> str:
    return _PROFILE_DOC_CUT if dv.decl.truncated else _PROFILE_DOC


def _profile_ns(dv: StepDerivation) -> List[int]:
    """The level differences n of the printed profile weights (a cut law's: at shifts up to one period)."""
    return sorted(profile_weights_cut(dv.decl)[0] if dv.decl.truncated else profile_weights(dv.decl))


def _c_profile(dv: StepDerivation, name: str) -> str:
    """``fhsym_<name>_profile(eps, d, epsilon, shapes...)`` (module docstring), or '' for a law with no weights."""
    ns = _profile_ns(dv)
    if not ns:
        return ""
    head, block, _ = _period_parts(dv)
    shapes = [s.name for s in dv.decl.shape_symbols] + (["K", "rho"] if dv.decl.truncated else [])
    params = "".join(f", double {n}" for n in shapes)
    args = "".join(f", {n}" for n in shapes)
    inf = f"        out += fhsym_{name}_profile_inf(d, epsilon{args});\n" if dv.decl.truncated else ""
    terms = inf + "".join(f"        x = fma(-{n}.0, epsilon, eps);\n        if (x < 0.0) out += fhsym_{name}_profile_weight_{n}(d, epsilon{args}) "
                    f"* -expm1(x);\n" for n in ns)
    terms_head = "".join(f"    x = fma(-(p {_plus(m)}), epsilon, eps);\n    if (x < 0.0) out += fhsym_{name}_profile_head_{_tag(m)}(f, "
                         f"epsilon{args}) * -expm1(x);\n" for m in head)
    terms_block = "".join(f"    J = fhsym_{name}__run_length(eps, epsilon, p {_plus(c)}, p);\n    if (J > 0.0) out += "
                          f"fhsym_{name}_profile_block_{_tag(c)}(f, epsilon{args}) * fhsym_{name}_profile_run(J, epsilon)"
                          f" * -expm1(fma(-(p {_plus(c + 1)} - J), epsilon, eps));\n" for c in block)
    doc = textwrap.fill(_profile_doc(dv), 113, initial_indent="/* ", subsequent_indent="   ") + " */"
    run = (f"\n/* the number of j = 0 .. p-1 with (N - 2 j) epsilon > eps, tested as fma(-(N - 2 j), epsilon, eps) < 0 (the\n"
           f"   level differences N - 2 j of a run decrease in j): an estimate, then moved to the test's boundary */\n"
           f"static double fhsym_{name}__run_length(double eps, double epsilon, double N, double p)\n{{\n"
           f"    double J = ceil(0.5 * (N - eps / epsilon));\n"
           f"    if (!(J >= 0.0)) J = 0.0;\n    if (J > p) J = p;\n"
           f"    while (J > 0.0 && !(fma(-(N - 2.0 * (J - 1.0)), epsilon, eps) < 0.0)) J -= 1.0;\n"
           f"    while (J < p && fma(-(N - 2.0 * J), epsilon, eps) < 0.0) J += 1.0;\n    return J;\n}}\n")
    far = profile_periods_cut(dv.decl) if dv.decl.truncated else None
    if far is not None:  # a cut law: the printed assembly of fhsym/codegen/step_far.py
        helpers, beyond = c_cut_far(far, name, dv.decl.cells, [s.name for s in dv.decl.shape_symbols], CStepPrinter())
        run, local = run + helpers, ", p, f, Q, t, k, u, j, jt, j0, j1"
    else:
        beyond = (f"    p = floor(d);\n    f = d - p;\n{terms_head}{terms_block}    return out;\n" if head else
                  "    return NAN;\n")
        run, local = (run, ", p, f, J") if head else ("", "")
    return (f"{run}\n{doc}\ndouble fhsym_{name}_profile(double eps, double d, double epsilon{params})\n{{\n"
            f"    double out = 0.0, x{local};\n"
            f"    if (!(eps >= 0.0) || !(d >= 0.0) || !(d <= 4503599627370496.0) || !(epsilon > 0.0)) return NAN;\n"
            + ("    if (!(K >= 1.0) || K != floor(K) || !(rho >= 0.0) || !(rho < 1.0)) return NAN;\n" if dv.decl.truncated else "")
            + f"    if (d <= 1.0) {{\n{terms}        return out;\n    }}\n{beyond}}}\n")


def _jax_profile(dv: StepDerivation) -> List[str]:
    """``profile(eps, d, epsilon, shapes...)`` on the JAX namespace (as :func:`_c_profile`), or [] for none."""
    ns = _profile_ns(dv)
    if not ns:
        return []
    head, block, _ = _period_parts(dv)
    shapes = [s.name for s in dv.decl.shape_symbols] + (["K", "rho"] if dv.decl.truncated else [])
    params = "".join(f", {n}: Any" for n in shapes)
    args = "".join(f", {n}" for n in shapes)
    doc = textwrap.fill("The profile " + _profile_doc(dv) + ".", 112, initial_indent='    """',
                        subsequent_indent="    ") + '"""'
    terms = (f"    out = out + profile_inf(d, epsilon{args})\n" if dv.decl.truncated else "") + "".join(f"    x = xp.sub_prod(eps, {n}.0, epsilon)\n"
                    f"    out = out + xp.where(x < 0.0, profile_weight_{n}(d, epsilon{args}) * -xp.expm1(xp.minimum(x, 0.0)), 0.0)\n"
                    for n in ns)
    terms_head = "".join(f"    x = xp.sub_prod(eps, p {_plus(m)}, epsilon)\n    far = far + xp.where(x < 0.0, profile_head_{_tag(m)}"
                         f"(f, epsilon{args}) * -xp.expm1(xp.minimum(x, 0.0)), 0.0)\n" for m in head)
    terms_block = "".join(f"    J = _run_length(eps, epsilon, p {_plus(c)}, p)\n    x = xp.sub_prod(eps, p {_plus(c + 1)} - J, epsilon)\n"
                          f"    far = far + xp.where(J > 0.0, profile_block_{_tag(c)}(f, epsilon{args}) * profile_run(J, epsilon)"
                          f" * -xp.expm1(xp.minimum(x, 0.0)), 0.0)\n" for c in block)
    run = (["def _run_length(eps: Any, epsilon: Any, N: Any, p: Any) -> Any:\n"
            '    """The number of j = 0 .. p-1 with (N - 2 j) epsilon > eps, tested as sub_prod(eps, N - 2 j, epsilon) < 0:\n'
            '    an estimate, then moved to the test\'s boundary (three steps each way: the estimate is within one)."""\n'
            "    J = xp.clip(xp.ceil(0.5 * (N - eps / epsilon)), 0.0, p)\n"
            "    J = xp.where(J == J, J, 0.0)\n"
            "    for _ in range(3):\n"
            "        J = xp.where((J > 0.0) & ~(xp.sub_prod(eps, N - 2.0 * (J - 1.0), epsilon) < 0.0), J - 1.0, J)\n"
            "    for _ in range(3):\n"
            "        J = xp.where((J < p) & (xp.sub_prod(eps, N - 2.0 * J, epsilon) < 0.0), J + 1.0, J)\n"
            "    return J\n"])
    far = profile_periods_cut(dv.decl) if dv.decl.truncated else None
    if far is not None:  # a cut law: the printed assembly of fhsym/codegen/step_far.py
        helpers, body = jax_cut_far(far, dv.decl.cells, [s.name for s in dv.decl.shape_symbols], JaxStepPrinter())
        run, beyond = run + helpers, body + "    out = xp.where(d <= 1.0, out, far)\n"
    else:
        beyond = (f"    p = xp.floor(d)\n    f = d - p\n    far = 0.0 * out\n{terms_head}{terms_block}"
                  f"    out = xp.where(d <= 1.0, out, far)\n" if head else "")
        run = run if head else []
    limit = "4503599627370496.0" if head or far is not None else "1.0"
    return run + [f"def profile(eps: Any, d: Any, epsilon: Any{params}) -> Any:\n{doc}\n"
                  f"    eps, d = xp.asarray(eps, dtype=xp.float64), xp.asarray(d, dtype=xp.float64)\n"
                  f"    out = 0.0 * (eps + d)\n{terms}{beyond}"
                  f"    ok = (eps >= 0.0) & (d >= 0.0) & (d <= {limit}) & (epsilon > 0.0)\n"
                  + ("    ok = ok & (K >= 1.0) & (K == xp.floor(K)) & (rho >= 0.0) & (rho < 1.0)\n" if dv.decl.truncated else "")
                  + "    return xp.where(ok, out, float(\"nan\"))\n"]


def render_step_law_jax(name: str, source: str) -> str:
    """``declared/jax_<name>.py``: the float functions of the step law's numpy module on the JAX namespace (float64),
    with the same names and tables (``LOGPDF``, ``SF``, ``HALF``, ``ISF``, ``MOMENTS`` ...)."""
    dv = _derived(source)
    printer = JaxStepPrinter()
    rows = _float_rows(dv)
    defs = [py_function(fn, printer.doprint(to_epsilon(e)), [s.name for s in args]) for fn, e, args in rows]
    defs += _jax_profile(dv)
    names = [fn for fn, _, _ in rows]

    def cells(prefix: str) -> str:
        return f"({', '.join(n for n in names if re.fullmatch(prefix + r'_[0-9]+', n))},)"

    tables = [(t, cells(p)) for t, p in (("LOGPDF", "logpdf"), ("SF", "sf"), ("HALF", "half"), ("ISF", "isf"))]
    if dv.decl.truncated:
        tables.append(("ISF_TOP", cells("isf_top")))
        tables.append(("PROFILE_WEIGHTS", "{" + ", ".join(f"{n[15:]}: {n}" for n in names
                                                         if n.startswith("profile_weight_")) + "}"))
        tables.append(("PROFILE", "profile" if _profile_ns(dv) else "None"))
    else:
        tables.append(("MOMENTS", "{" + ", ".join(f"{n[7:]}: {n}" for n in names if n.startswith("moment_")) + "}"))
        tables.append(("PROFILE_WEIGHTS", "{" + ", ".join(f"{n[15:]}: {n}" for n in names
                                                         if n.startswith("profile_weight_")) + "}"))
        tables += _period_tables(dv)
        tables.append(("PROFILE", "profile" if _profile_ns(dv) else "None"))
    tables.append(("DIGEST", repr(dv.decl.digest())))
    header = textwrap.dedent(
        f'''\
        # GENERATED FILE - DO NOT EDIT.
        # Generated by `{COMMAND} --target jax` from {source}.DECLARATION with SymPy {sp.__version__}.
        # The functions of fhsym/_generated/declared/{name}.py printed on jax.numpy (float64).  Regenerate with
        # `{COMMAND}`; `{COMMAND} --check` (run by CI) fails when this file is stale.
        ''') + f'"""JAX numerics of the declared step law {dv.decl.display_name} in units of its period."""\n\n'
    return header + JAX_PREAMBLE + "\n\n".join(defs) + "\n\n" + "".join(f"{key} = {val}\n" for key, val in tables)


def outputs_c() -> List[Tuple[str, Callable[[], str]]]:
    """(path under fhsym/_generated/c, renderer) of every step law's C file."""
    return [(f"declared_{name}.c", functools.partial(render_step_law_c, name, src)) for name, src in STEP_LAWS]


def outputs_jax() -> List[Tuple[str, Callable[[], str]]]:
    """(path under fhsym/_generated, renderer) of every step law's JAX module."""
    return [(f"declared/jax_{name}.py", functools.partial(render_step_law_jax, name, src)) for name, src in STEP_LAWS]
