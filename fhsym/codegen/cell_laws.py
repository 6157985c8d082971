"""The declared finite-cell law fhsym ships (piecewise uniform), printed into
``fhsym/_generated/declared/piecewise_uniform.py`` (issue 28).

The declaration is a :class:`~fhsym.symbolic.cells.CellDeclaration` (``fhsym/symbolic/laws/piecewise_uniform.py``);
:func:`~fhsym.symbolic.cells.derive_cells` derives its forms and this module prints them: numpy functions of the
law's exactly rounded masses (``qk``, ``q0``, ``qm``), tail and head sums (``tail`` = T_(k+1), ``below`` = B_k), the
distance ``a`` below (``v`` above) the edge of cell k, a tail probability ``p``, the width ``w``, ``theta`` and the
lattice deficits ``Dj``, ``Dj1`` of a shift ``(j + theta) w``, ``expeps`` = e^eps; and ``moment_cell(nu, k)``, the
integral of ``t^nu`` over cell k, printed on Python integers and ``Fraction`` s (exact for integer k and nu: the law
sums its moments in exact rationals).  Functions: ``logpdf(qk, w)``, ``sf(a, qk, tail)``, ``half_0(v, q0)``,
``half(v, qk, below)``, ``isf(p, qk, tail)`` (the distance a below the upper edge of cell k where the tail is p),
``entropy_cell(qk, w)``, ``deficit_term(qk, qm, expeps)`` (``[q_k - e^eps q_m]_+``), ``profile(theta, Dj, Dj1)``;
on python-flint balls (``at_precision``): ``logpdf_arb``, ``entropy_cell_arb``, ``deficit_term_arb`` (the positive
part a ball hull where the ball leaves its sign open); ``sf``, ``isf``, ``half``, ``profile`` and ``moment_cell``
are rational and run on ``Fraction`` s and balls as they are.
``python -m fhsym.codegen --check`` fails when the module is stale.

Example:

>>> "def sf(a: Any, qk: Any, tail: Any) -> Any:" in render_cell_law()
True
"""

from __future__ import annotations

import functools
import textwrap
from typing import Callable, List, Sequence, Tuple

import sympy as sp
from sympy.printing.str import StrPrinter

from fhsym.symbolic.cells import (a, below, cell_index, d_j, d_j1, derive_cells, expeps, order, p, q0, qk, qm, tail,
                                  theta, v, width)

from .step_laws import StepArbPrinter, StepPrinter

__all__ = ["SOURCE", "FractionPrinter", "render_cell_law", "render_cell_law_c", "render_cell_law_jax", "outputs",
           "outputs_c", "outputs_jax"]

COMMAND = "python -m fhsym.codegen"
SOURCE = "fhsym.symbolic.laws.piecewise_uniform"


class FractionPrinter(StrPrinter):  # type: ignore[misc]  # sympy ships no type information: StrPrinter is Any
    """SymPy -> Python source exact on integers and ``Fraction`` s: rationals as ``Fraction(p, q)``, ``Sub(x, y)`` as
    ``((x) - (y))``."""

    def _print_Rational(self, e: sp.Basic) -> str:
        return f"Fraction({e.p}, {e.q})"

    def _print_Half(self, e: sp.Basic) -> str:
        return "Fraction(1, 2)"

    def _print_Sub(self, e: sp.Basic) -> str:
        return f"(({self._print(e.args[0])}) - ({self._print(e.args[1])}))"

    def _print_Float(self, e: sp.Basic) -> str:
        raise ValueError(f"the float {e} in an exact form has no exact value")


def _source(name: str, body: str, args: Sequence[sp.Symbol]) -> str:
    return f"def {name}({', '.join(f'{x.name}: Any' for x in args)}) -> Any:\n    return {body}\n"


def render_cell_law() -> str:
    """The generated module of ``fhsym.symbolic.laws.piecewise_uniform.DECLARATION``."""
    import importlib

    decl = importlib.import_module(SOURCE).DECLARATION
    dv = derive_cells(decl)
    np_print = StepPrinter().doprint
    defs: List[str] = [
        _source("logpdf", np_print(dv.logpdf), (qk, width)),
        _source("sf", np_print(dv.sf), (a, qk, tail)),
        _source("half_0", np_print(dv.half0), (v, q0)),
        _source("half", np_print(dv.half), (v, qk, below)),
        _source("isf", np_print(dv.isf), (p, qk, tail)),
        _source("entropy_cell", np_print(dv.entropy_cell), (qk, width)),
        _source("deficit_term", np_print(dv.deficit_term), (qk, qm, expeps)),
        _source("profile", np_print(dv.profile), (theta, d_j, d_j1)),
        _source("moment_cell", FractionPrinter().doprint(dv.moment_cell), (order, cell_index)),
    ]
    # the ball forms at_precision runs (fhsym.noise.precise_steps): the same derived forms on python-flint balls
    arb_print = StepArbPrinter().doprint
    defs += [
        _source("logpdf_arb", f"arb({arb_print(dv.logpdf)})", (qk, width)),
        _source("entropy_cell_arb", f"arb({arb_print(dv.entropy_cell)})", (qk, width)),
        _source("deficit_term_arb", f"arb({arb_print(dv.deficit_term)})", (qk, qm, expeps)),
    ]
    doc = ("Numerics of the declared finite-cell law piecewise uniform, printed from "
           "fhsym.symbolic.cells.derive_cells.\n\n" + "\n".join(textwrap.fill(line, 116) for line in (
               "Declared: g(t) = n[|k|] on the unit cells [k - 1/2, k + 1/2), |k| <= M (units of the width w); the "
               "weights n[0..M] are the data of one instance.",
               f"Derived: Z = {dv.Z}; in cell k: sf = {dv.sf}, P(0 < T <= t) = {dv.half}, isf: a = {dv.isf}.")) + "\n")
    header = textwrap.dedent(
        f'''\
        # GENERATED FILE - DO NOT EDIT.
        # Generated by `{COMMAND}` from {SOURCE}.DECLARATION with SymPy {sp.__version__}.
        # Every function below is printed from the form fhsym.symbolic.cells derives from that declaration;
        # proofs/cell_laws.py proves it equal to SymPy's integrals and sums and checks it against mpmath integration
        # of the cell density.  Regenerate with `{COMMAND}`; `{COMMAND} --check` (run by CI) fails when this file is stale.
        ''') + f'"""{doc}"""\n\n'
    text = header + ("from fractions import Fraction\nfrom typing import Any\n\nimport numpy as np\nfrom flint import arb\n\n"
                     "from fhsym._core.declared_runtime import ArbNamespace as A\n\n\n")
    text += "\n\n".join(defs) + "\n\n" + f"DIGEST = {decl.digest()!r}\n"
    return text


def _float_rows() -> List[Tuple[str, sp.Expr, Tuple[sp.Symbol, ...]]]:
    """(name, derived form, arguments) of the numpy module's float functions (moment_cell is exact: not printed in
    C/JAX)."""
    import importlib

    dv = derive_cells(importlib.import_module(SOURCE).DECLARATION)
    return [("logpdf", dv.logpdf, (qk, width)), ("sf", dv.sf, (a, qk, tail)), ("half_0", dv.half0, (v, q0)),
            ("half", dv.half, (v, qk, below)), ("isf", dv.isf, (p, qk, tail)),
            ("entropy_cell", dv.entropy_cell, (qk, width)), ("deficit_term", dv.deficit_term, (qk, qm, expeps)),
            ("profile", dv.profile, (theta, d_j, d_j1))]


def render_cell_law_c() -> str:
    """``declared_piecewise_uniform.c``: the float functions in C99, ``fhsym_piecewise_uniform_<function>``."""
    import importlib

    from .step_laws import C_HELPERS, CStepPrinter

    decl = importlib.import_module(SOURCE).DECLARATION
    fns = []
    for name, e, args in _float_rows():
        body = CStepPrinter().doprint(e)
        fns.append(f"double fhsym_piecewise_uniform_{name}({', '.join(f'double {x.name}' for x in args)})\n{{\n"
                   f"    return {body};\n}}\n")
    text = "\n".join(fns)
    helpers = [h for name, h in C_HELPERS.items() if f"{name}(" in text]
    banner = (f"// GENERATED FILE - DO NOT EDIT.\n// Generated by `{COMMAND} --target c` from {SOURCE}.DECLARATION with "
              f"SymPy {sp.__version__}.\n// The float functions of fhsym/_generated/declared/piecewise_uniform.py "
              f"(digest {decl.digest()}).\n// Build: cc -std=c99 -c declared_piecewise_uniform.c (link with -lm).  "
              f"Regenerate with `{COMMAND}`;\n// `{COMMAND} --check` fails when this file is stale.\n")
    return banner + "\n#include <math.h>\n\n" + "".join(h + "\n" for h in helpers) + "\n" + text


def render_cell_law_jax() -> str:
    """``declared/jax_piecewise_uniform.py``: the float functions on jax.numpy (float64)."""
    import importlib

    from .step_laws import JaxStepPrinter

    decl = importlib.import_module(SOURCE).DECLARATION
    defs = [f"def {name}({', '.join(f'{x.name}: Any' for x in args)}) -> Any:\n    return {JaxStepPrinter().doprint(e)}\n"
            for name, e, args in _float_rows()]
    header = textwrap.dedent(
        f'''\
        # GENERATED FILE - DO NOT EDIT.
        # Generated by `{COMMAND} --target jax` from {SOURCE}.DECLARATION with SymPy {sp.__version__}.
        # The float functions of fhsym/_generated/declared/piecewise_uniform.py printed on jax.numpy (float64).
        # Regenerate with `{COMMAND}`; `{COMMAND} --check` (run by CI) fails when this file is stale.
        ''') + '"""JAX numerics of the declared finite-cell law piecewise uniform."""\n\n'
    text = header + "from typing import Any\n\nfrom fhsym._core.backends import jax_namespace\n\nxp = jax_namespace()\n\n\n"
    return text + "\n\n".join(defs) + f"\n\nDIGEST = {decl.digest()!r}\n"


def outputs_c() -> List[Tuple[str, Callable[[], str]]]:
    """(path under fhsym/_generated/c, renderer) of the cell law's C file."""
    return [("declared_piecewise_uniform.c", render_cell_law_c)]


def outputs_jax() -> List[Tuple[str, Callable[[], str]]]:
    """(path under fhsym/_generated, renderer) of the cell law's JAX module."""
    return [("declared/jax_piecewise_uniform.py", render_cell_law_jax)]


def outputs() -> List[Tuple[str, Callable[[], str]]]:
    """(path under fhsym/_generated, renderer) of the generated cell-law module."""
    return [("declared/piecewise_uniform.py", functools.partial(render_cell_law))]
