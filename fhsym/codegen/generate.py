"""Generate ``fhsym/_generated/`` from the stable SymPy forms, for every target.

Usage::

    python -m fhsym.codegen                          # regenerate every checked-in target
    python -m fhsym.codegen --target numpy           # only the numpy modules (the default target)
    python -m fhsym.codegen --target c --out DIR     # the whole C99 library (sources and kernels) into DIR
    python -m fhsym.codegen --target jax --out DIR   # the JAX module (jax_kernels.py) into DIR
    python -m fhsym.codegen --target mpmath          # the arbitrary-precision modules (mp_kernels.py, mp_pieces.py)
    python -m fhsym.codegen --check                  # exit 1 (with a diff) if any checked-in file is stale

Targets: ``numpy`` writes the kernel modules (one function per stable kernel) and the
piece modules (the region dispatch, Table I, the K-dim and zCDP formulas) under
``fhsym/_generated/``; ``c`` writes ``fhsym/_generated/c/fhsym_kernels.inc`` (the kernels and
region dispatch the hand-written C99 library ``fhsym/codegen/c/fhsym.c`` includes) or, with
``--out DIR``, the whole compilable library into DIR (the kernels and copies of ``fhsym.h``,
``fhsym.c`` and ``fhsym_special.c``: ``cc -std=c99 -O2 -c DIR/fhsym.c``); ``jax`` writes
``fhsym/_generated/jax_kernels.py``; ``mpmath`` writes ``fhsym/_generated/mp_kernels.py`` and
``mp_pieces.py`` (exact constants, any precision; the same kernels evaluate on arb balls, see
:mod:`fhsym.codegen.target_mpmath`).  All print the same SymPy declarations.

The output depends on the SymPy version that printed it, which is recorded in
the header; ``--check`` under a different SymPy version reports that and skips
(exit 0) rather than flagging a spurious difference.
"""

from __future__ import annotations

import argparse
import difflib
import functools
import importlib
import re
import sys
import textwrap
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import sympy as sp

from fhsym.symbolic.piecewise import Formula, PiecewiseFunction

from . import pieces as PC
from .printer import TYPED_BUILTINS, PiecesPrinter, XpPrinter

if TYPE_CHECKING:
    from fhsym.symbolic.stable import Kernel

__all__ = ["MODULES", "PIECE_MODULES", "TARGETS", "render_module", "render_pieces_module", "homes", "outputs", "standalone", "main"]

GENERATED_DIR = Path(__file__).resolve().parent.parent / "_generated"
COMMAND = "python -m fhsym.codegen"

# (output file, source module, kernel-tuple attribute, module docstring)
MODULES: Tuple[Tuple[str, str, str, str], ...] = (
    (
        "flipped_huber.py",
        "fhsym.symbolic.stable",
        "KERNELS",
        "Stable kernels of the flipped Huber distribution in standard units (b = alpha/gamma, s = t/gamma).",
    ),
    (
        "privacy_profile.py",
        "fhsym.symbolic.privacy",
        "PROFILE_KERNELS",
        "Stable kernels of the 1-D flipped Huber privacy profile, one per case of eq 13 (b = alpha/gamma, D = Delta/gamma).",
    ),
    (
        "privacy_loss.py",
        "fhsym.symbolic.privacy",
        "LOSS_KERNELS",
        "Privacy loss zeta_D(s) = rho_b(s + D) - rho_b(s) by regime of (s, s + D), in standard units.",
    ),
)


# (output file, source module, kernel-tuple attribute or None, functions attribute, module docstring)
PIECE_MODULES: Tuple[Tuple[str, str, Optional[str], str, str], ...] = (
    (
        "flipped_huber_pieces.py",
        "fhsym.symbolic.laplace_limit",
        "LAPLACE_KERNELS",
        "DISTRIBUTION_FUNCTIONS",
        "Region dispatch of the flipped Huber distribution: which kernel of flipped_huber.py (or Laplace-limit kernel "
        "below, b > 64) applies where (standard units).",
    ),
    (
        "privacy_pieces.py",
        "fhsym.symbolic.privacy",
        None,
        "PRIVACY_FUNCTIONS",
        "Table I's case boundaries and the region dispatch of the 1-D privacy profile and the privacy loss (standard units).",
    ),
    (
        "kdim.py",
        "fhsym.symbolic.kdim",
        "KDIM_KERNELS",
        "KDIM_FUNCTIONS",
        "K dimensions (Sec IV-B) and zCDP: R_Delta and its inverse, theta, Lemma 5/7 arguments, Theorem 8's LHS in log space.",
    ),
)


_IMPORTS = (  # groups (standard library, third party, fhsym) of (what the body uses, the import it needs)
    (("functools.", "import functools"), ("xp: Any", "from typing import Any")),
    (("np.", "import numpy as np"), ("sc.", "import scipy.special as sc")),
    (("nx.", "from fhsym._core import numerics as nx"),),
)
_BACKENDS = (("NUMPY", "NUMPY"), ("float_arrays(", "float_arrays"), ("piecewise(", "piecewise"))
_SCALAR = ("= SCALAR", "from fhsym._core.scalar import SCALAR")
#: the types of fhsym._core.types the signatures name (ArrayNamespace: the namespace ``xp`` of the kernels and regions)
_TYPES = ("ArrayNamespace", "FloatArray", "Mask", "Real")


def typed(args: Sequence[sp.Symbol], annotation: str) -> str:
    """A signature's parameters, each annotated: ``b: Real, s: Real``."""
    return ", ".join(f"{a.name}: {annotation}" for a in args)


def tuple_of(annotation: str, n: int) -> str:
    """The annotation of a tuple of ``n`` values of one type: ``tuple[Mask, Mask]``."""
    return f"tuple[{', '.join([annotation] * n)}]"


def _header(source: str, doc: str, body: str) -> str:
    """The generated-file banner, the module docstring and the imports ``body`` uses."""
    groups = [[line for used, line in group if used in body] for group in _IMPORTS]
    backends = [name for used, name in _BACKENDS if used in body]
    if backends:
        groups[-1].append(f"from fhsym._core.backends import {', '.join(backends)}")
    if _SCALAR[0] in body:
        groups[-1].append(_SCALAR[1])
    signatures = "\n".join(line for line in body.splitlines() if line.startswith("def "))
    types = [name for name in _TYPES if re.search(rf"\b{name}\b", signatures)]
    types += [name for name in sorted(TYPED_BUILTINS.values()) if f"{name}(" in body]
    if types:
        groups[-1].append(f"from fhsym._core.types import {', '.join(types)}")
    imports = "\n\n".join("\n".join(g) for g in groups if g)
    return textwrap.dedent(
        f'''\
        # GENERATED FILE - DO NOT EDIT.
        # Generated by `{COMMAND}` from {source} with SymPy {sp.__version__}.
        # Every function below is printed from a SymPy expression that proofs/ shows equal
        # to the paper formula named in its docstring.  Regenerate with `{COMMAND}`;
        # `{COMMAND} --check` (run by CI) fails when this file is stale.
        '''
    ) + f'"""{doc}"""\n\n' + imports + "\n\n"


_XP_NOTE = ("Each kernel takes the array namespace ``xp`` (fhsym._core.backends): numpy/scipy by default, "
            "jax.numpy in fhsym._generated.jax_kernels.")


def _render_kernel(kernel: Kernel, printer: XpPrinter) -> str:
    """A kernel, printed once against the array namespace ``xp`` (numpy by default; JAX binds its own)."""
    replacements, (reduced,) = sp.cse([kernel.expr], symbols=sp.numbered_symbols("x"), optimizations="basic")
    lines: List[str] = [f"def {kernel.name}({typed(kernel.args, 'Real')}, xp: ArrayNamespace = NUMPY) -> Real:",
                        PC.doc_block([kernel.doc, "", f"Paper: {kernel.paper_ref}.", f"SymPy source: {sp.sstr(kernel.expr)}"])]
    for sym, sub in replacements:
        lines.append(f"    {sym} = {printer.doprint(sub)}")
    lines.append(f"    return {printer.doprint(reduced)}")
    return "\n".join(lines) + "\n"


def render_module(source: str, attr: str, doc: str) -> str:
    mod = importlib.import_module(source)
    kernels: Sequence[Kernel] = getattr(mod, attr)
    printer = XpPrinter()
    names = [k.name for k in kernels]
    body = "\n\n".join(_render_kernel(k, printer) for k in kernels)
    all_line = "__all__ = [" + ", ".join(repr(n) for n in names) + "]\n\n\n"
    return _header(source, doc + "\n\n" + textwrap.fill(_XP_NOTE, 92), body) + all_line + body


def _render_regions(name: str, fn: PiecewiseFunction, users: Sequence[str], printer: XpPrinter) -> str:
    """The regions of a piecewise function as a tuple of boolean arrays (numpy or JAX, by ``xp``)."""
    prep = PC.prepare(fn)
    args = typed(PC.region_args(fn), "Real")
    names = ", ".join(users[:-1]) + " and " + users[-1] if len(users) > 1 else users[0]
    doc = PC.doc_block([f"The regions of {names}, one per piece (in their order); disjoint, they cover the domain:"]
                       + [f"    {sp.sstr(pc.condition)}" for pc in fn.pieces])
    lines = [f"def {name}({args}, xp: ArrayNamespace = NUMPY) -> {tuple_of('Mask', len(prep.regions))}:", doc]
    for sym, sub in prep.region_subs:
        lines.append(f"    {sym} = {printer.doprint(sub)}")
    lines.append("    return ({}{})".format(", ".join(printer.doprint(r) for r in prep.regions), "," if len(prep.regions) == 1 else ""))
    return "\n".join(lines) + "\n"


def _render_piecewise_numpy(fn: PiecewiseFunction, regions: str, refs: Dict[str, str], printer: PiecesPrinter) -> str:
    names = [a.name for a in fn.args]
    tup = ", ".join(names) + ("," if len(names) == 1 else "")
    lines = [f"def {fn.name}({typed(fn.args, 'Real')}) -> FloatArray:", PC.doc_block(PC.docstring(fn, regions=regions)),
             f"    {tup} = args = float_arrays({', '.join(names)})"]
    indent = "    "
    if fn.ignore:  # the regions too: their thresholds may overflow to the same harmless limits
        lines.append("    with np.errstate({}):".format(", ".join(f'{w}="ignore"' for w in fn.ignore)))
        indent = "        "
    result = "return" if fn.post is None else "out: FloatArray ="
    region_call = f"{regions}({', '.join(a.name for a in PC.region_args(fn))})"
    lines.append(f"{indent}{result} piecewise(args, {region_call}, (")
    for pc in fn.pieces:
        val = PC.piece_call(pc, {a: a.name for a in fn.args}, printer, lambda name, args: f"{refs.get(name, name)}({', '.join(args)})")
        lines.append(f"{indent}    lambda {', '.join(names)}: {val},")
    lines.append(f"{indent}))")
    if fn.post is not None:
        lines.append(f"    return {printer.doprint(fn.post(sp.Symbol('out')))}")
    return "\n".join(lines) + "\n"


def _render_formula_numpy(f: Formula, printer: PiecesPrinter) -> str:
    subs, reduced = PC.prepare_formula(f)
    result = "Real" if len(reduced) == 1 else tuple_of("Real", len(reduced))
    lines = [f"def {f.name}({typed(f.args, 'Real')}) -> {result}:", PC.doc_block(PC.docstring(f))]
    for sym, sub in subs:
        lines.append(f"    {sym} = {printer.doprint(sub)}")
    outs = [printer.doprint(e) for e in reduced]
    lines.append(f"    return {outs[0]}" if len(outs) == 1 else f"    return ({', '.join(outs)})")
    return "\n".join(lines) + "\n"


def _render_piecewise_point(fn: PiecewiseFunction, regions: str, refs: Dict[str, str], printer: XpPrinter) -> str:
    """``<name>_point``: the piecewise function at one point of Python floats, on the scalar namespace
    (:mod:`fhsym._core.scalar`): the regions tested in order, the first that holds evaluated alone."""
    names = [a.name for a in fn.args]
    region_call = f"{regions}({', '.join(a.name for a in PC.region_args(fn))}, xp=xp)"
    doc = PC.doc_block([f"{fn.name} at one point of Python floats on the scalar namespace ``xp`` (no arrays, no "
                        "checks; math raises where numpy returns inf or NaN, see fhsym._core.scalar)."])
    lines = [f"def {fn.name}_point({typed(fn.args, 'float')}, xp: Any = SCALAR) -> float:", doc,
             f"    r = {region_call}"]
    value = "out =" if fn.post is not None else "return"
    wrap = "" if fn.post is not None else "float"  # a double, whatever the piece's type (an int constant, a 0-d array)
    for i, pc in enumerate(fn.pieces):
        val = PC.piece_call(pc, {a: a.name for a in fn.args}, printer,
                            lambda name, args: f"{refs.get(name, name)}({', '.join(args)}, xp=xp)")
        lines.append(f"    {'if' if i == 0 else 'elif'} r[{i}]:")
        lines.append(f"        {value} {wrap}({val})" if wrap else f"        {value} {val}")
    lines.append("    else:")
    lines.append(f"        {value} float(xp.nan)" if wrap else f"        {value} xp.nan")
    if fn.post is not None:
        lines.append(f"    return float({printer.doprint(fn.post(sp.Symbol('out')))})")
    return "\n".join(lines) + "\n"


def _render_formula_point(f: Formula, printer: XpPrinter) -> str:
    subs, reduced = PC.prepare_formula(f)
    doc = PC.doc_block([f"{f.name} at one point of Python floats on the scalar namespace ``xp`` (fhsym._core.scalar)."])
    result = "float" if len(reduced) == 1 else tuple_of("float", len(reduced))
    lines = [f"def {f.name}_point({typed(f.args, 'float')}, xp: Any = SCALAR) -> {result}:", doc]
    for sym, sub in subs:
        lines.append(f"    {sym} = {printer.doprint(sub)}")
    outs = [f"float({printer.doprint(e)})" for e in reduced]
    lines.append(f"    return {outs[0]}" if len(outs) == 1 else f"    return ({', '.join(outs)})")
    return "\n".join(lines) + "\n"


def render_pieces_module(source: str, kernels_attr: Optional[str], functions_attr: str, doc: str) -> str:
    """The numpy module of a declaration set: its own kernels (if any), the regions of its piecewise
    functions (shared by those with the same regions, and by the JAX target), then its piecewise
    functions and formulas."""
    kernels: Sequence[Kernel] = PC.load(source, kernels_attr) if kernels_attr else ()
    functions: Sequence[Union[PiecewiseFunction, Formula]] = PC.load(source, functions_attr)
    kernel_home, _ = homes()
    refs = {name: f"_{module}.{name}" for name, module in kernel_home.items()}
    refs.update((k.name, k.name) for k in kernels)  # the module's own kernels
    xprinter, printer = XpPrinter(), PiecesPrinter()
    regions = PC.regions_names(functions)
    parts = [_render_kernel(k, xprinter) for k in kernels]
    for fn in functions:
        if not isinstance(fn, PiecewiseFunction):
            parts.append(_render_formula_numpy(fn, printer))
            parts.append(_render_formula_point(fn, xprinter))
            continue
        if regions[fn.name] == f"{fn.name}_regions":
            users = [f.name for f in functions if regions.get(f.name) == regions[fn.name]]
            parts.append(_render_regions(regions[fn.name], fn, users, xprinter))
        parts.append(_render_piecewise_numpy(fn, regions[fn.name], refs, printer))
        parts.append(_render_piecewise_point(fn, regions[fn.name], refs, xprinter))
    body = "\n\n".join(parts)
    used = sorted(m for m in set(kernel_home.values()) if f"_{m}." in body)
    imports = "".join(f"from fhsym._generated import {m} as _{m}\n" for m in used)
    names = [k.name for k in kernels] + [n for f in functions for n in (f.name, f"{f.name}_point")]
    head = _header(source, doc + ("\n\n" + textwrap.fill(_XP_NOTE, 92) if kernels else ""), body).replace(
        "# Every function below is printed from a SymPy expression that proofs/ shows equal\n"
        "# to the paper formula named in its docstring.  Regenerate",
        "# Every function below is printed from a SymPy declaration: a kernel proven equal to the\n"
        "# paper formula (proofs/), a piecewise function applying kernels under the regions they\n"
        "# declare, or a formula.  Regenerate",
    )
    all_line = "__all__ = [" + ", ".join(repr(n) for n in names) + "]\n\n\n"
    return head + imports + ("\n" if imports else "") + all_line + body


def homes() -> Tuple[Dict[str, str], Dict[str, Tuple[str, str]]]:
    """kernel name -> the numpy module defining it; piecewise function name -> (its module, its regions function)."""
    kernels: Dict[str, str] = {}
    regions: Dict[str, Tuple[str, str]] = {}
    for fname, source, attr, _ in MODULES:
        kernels.update((k.name, fname[:-3]) for k in PC.load(source, attr))
    for fname, source, kattr, fattr, _ in PIECE_MODULES:
        if kattr:
            kernels.update((k.name, fname[:-3]) for k in PC.load(source, kattr))
        regions.update((name, (fname[:-3], r)) for name, r in PC.regions_names(PC.load(source, fattr)).items())
    return kernels, regions


def _recorded_sympy_version(text: str) -> str:
    for line in text.splitlines()[:3]:
        if "with SymPy" in line:
            return line.rsplit("SymPy", 1)[1].strip().rstrip(".")
    return ""


TARGETS = ("numpy", "c", "jax", "mpmath")


def outputs(target: str) -> List[Tuple[str, Callable[[], str]]]:
    """(path relative to the target's directory, renderer) for every file a target writes."""
    if target == "numpy":
        out: List[Tuple[str, Callable[[], str]]] = [(fname, functools.partial(render_module, source, attr, doc)) for fname, source, attr, doc in MODULES]
        out += [(fname, functools.partial(render_pieces_module, source, kattr, fattr, doc))
                for fname, source, kattr, fattr, doc in PIECE_MODULES]
        from . import cell_laws, declared_laws, lattice_laws, step_laws

        return out + declared_laws.outputs() + step_laws.outputs() + cell_laws.outputs() + lattice_laws.outputs()
    if target == "c":
        from . import target_c

        from . import cell_laws, declared_laws, lattice_laws, step_laws

        return (list(target_c.FILES.items()) + declared_laws.outputs_c() + step_laws.outputs_c() + cell_laws.outputs_c()
                + lattice_laws.outputs_c())
    if target == "jax":
        from . import target_jax

        from . import cell_laws, declared_laws, lattice_laws, step_laws

        return [(target_jax.FILENAME, lambda: target_jax.render(homes()))] + declared_laws.outputs_jax() + \
            step_laws.outputs_jax() + cell_laws.outputs_jax() + lattice_laws.outputs_jax()
    if target == "mpmath":
        from . import target_mpmath

        return list(target_mpmath.FILES.items())
    raise ValueError(f"target must be one of {TARGETS}; got {target!r}")


def standalone(target: str) -> List[Tuple[str, Callable[[], str]]]:
    """What ``--out DIR`` writes: the target's generated files and, for C, the hand-written sources that
    make DIR a compilable library (``fhsym.h``, ``fhsym.c``, ``fhsym_special.c``)."""
    if target == "c":
        from . import target_c

        return list(target_c.library().items())
    return outputs(target)


def default_dir(target: str) -> Path:
    """Where a target's files are checked in."""
    return GENERATED_DIR / "c" if target == "c" else GENERATED_DIR


def _check_file(path: Path, render: Callable[[], str]) -> int:
    name = path.relative_to(GENERATED_DIR.parent) if path.is_relative_to(GENERATED_DIR.parent) else path
    if not path.exists():
        print(f"MISSING: {path} (run `{COMMAND}`)")
        return 1
    current = path.read_text()
    recorded = _recorded_sympy_version(current)
    if recorded and recorded != sp.__version__:
        print(f"SKIPPED: {name} was generated with SymPy {recorded}, this is SymPy {sp.__version__}; "
              f"install sympy=={recorded} to check it")
        return 0
    fresh = render()
    if fresh != current:
        diff = difflib.unified_diff(current.splitlines(), fresh.splitlines(), f"{name} (checked in)", f"{name} (fresh)", lineterm="")
        print("\n".join(diff))
        print(f"STALE: {path} differs from its source; run `{COMMAND}` and commit the result")
        return 1
    print(f"OK: {name} is up to date")
    return 0


def check(targets: Iterable[str] = TARGETS) -> int:
    """Regenerate every checked-in file of ``targets`` in memory; 1 if any differs or is missing."""
    status = 0
    for target in targets:
        for rel, render in outputs(target):
            status |= _check_file(default_dir(target) / rel, render)
    return status


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description="Generate fhsym's numeric code from the SymPy forms.")
    parser.add_argument("--check", action="store_true", help="fail (exit 1) if any checked-in generated file is stale")
    parser.add_argument("--target", choices=TARGETS, action="append",
                        help="target(s) to write (default: all; --check: all checked-in targets)")
    parser.add_argument("--out", type=Path, help="write into this directory instead of the checked-in location (one target); "
                        "for c, the whole library: cc -std=c99 -O2 -c DIR/fhsym.c")
    ns = parser.parse_args(argv)
    targets = tuple(ns.target) if ns.target else TARGETS
    if ns.check:
        if ns.out:
            parser.error("--check compares the checked-in files; it takes no --out")
        return check(targets)
    if ns.out and len(targets) != 1:
        parser.error("--out needs exactly one --target")
    for target in targets:
        out_dir = ns.out if ns.out else default_dir(target)
        out_dir.mkdir(parents=True, exist_ok=True)
        for rel, render in (standalone(target) if ns.out else outputs(target)):
            path = out_dir / rel
            path.write_text(render())
            print(f"wrote {path}")
        if ns.out and target == "c":
            print(f"build: cc -std=c99 -O2 -c {out_dir / 'fhsym.c'} (link with -lm); include {out_dir / 'fhsym.h'}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
