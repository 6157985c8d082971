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
import textwrap
from typing import Callable, List, Sequence, Tuple

import sympy as sp

from fhsym.symbolic.steps import K, StepDerivation, a, d_shift, derive_steps, eps, k, profile_weights, q, rho, to_epsilon, u, v

from .declared import DeclaredPrinter

__all__ = ["STEP_LAWS", "StepPrinter", "render_step_law", "outputs"]

COMMAND = "python -m fhsym.codegen"
SOURCES = ("fhsym.symbolic.laws.staircase", "fhsym.symbolic.laws.truncated_staircase")
#: (generated module name, the module of its DECLARATION)
STEP_LAWS: Tuple[Tuple[str, str], ...] = tuple((src.rsplit(".", 1)[-1], src) for src in SOURCES)


class StepPrinter(DeclaredPrinter):
    """:class:`~.declared.DeclaredPrinter` with ``Min``/``Max`` as nested ``np.minimum``/``np.maximum``
    (elementwise, no functools) and ``floor`` as ``np.floor``."""

    def _fold(self, e: sp.Basic, fn: str) -> str:
        out = str(self._print(e.args[0]))
        for arg in e.args[1:]:
            out = f"{fn}({out}, {self._print(arg)})"
        return out

    def _print_Sub(self, e: sp.Basic) -> str:
        return f"(({self._print(e.args[0])}) - ({self._print(e.args[1])}))"

    def _print_Min(self, e: sp.Basic) -> str:
        return self._fold(e, "np.minimum")

    def _print_Max(self, e: sp.Basic) -> str:
        return self._fold(e, "np.maximum")


@functools.lru_cache(maxsize=None)
def _derived(source: str) -> StepDerivation:
    return derive_steps(importlib.import_module(source).DECLARATION)


def _source(name: str, expr: sp.Expr, args: Sequence[sp.Symbol]) -> str:
    body = StepPrinter().doprint(to_epsilon(expr))
    return f"def {name}({', '.join(f'{a.name}: Any' for a in args)}) -> Any:\n    return {body}\n"


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
    text = header + "from typing import Any\n\nimport numpy as np\n\n\n" + body + "\n\n"
    text += "".join(f"{key} = {val}\n" for key, val in tables)
    return text


def outputs() -> List[Tuple[str, Callable[[], str]]]:
    """(path under fhsym/_generated, renderer) of every generated step-law module."""
    return [(f"declared/{name}.py", functools.partial(render_step_law, name, src)) for name, src in STEP_LAWS]
