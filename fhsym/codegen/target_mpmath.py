"""The arbitrary-precision target: ``fhsym/_generated/mp_kernels.py`` and ``mp_pieces.py`` (mpmath, arb balls).

The same stable kernels and piecewise declarations as the numpy, C and JAX targets, printed
against a namespace ``xp`` (default :data:`fhsym._core.mpfuncs.MP`, mpmath numbers at the
context's precision; ``fhsym._core.arb.special.ARB`` evaluates the same function on arb balls)
with every constant exact: a rational is ``xp.q(p, q)``, pi is ``xp.pi()``, so no double enters.

What differs from the double-precision targets, and why:

* The Laplace-limit forms of :mod:`fhsym.symbolic.laplace_limit` (b > 64) are *not* printed:
  they are exact only to ~1e-880, and they exist because b^2, e^{-b^2} leave the double range;
  mpmath's exponents are unbounded, so the exact kernels apply for every b.
* A piecewise function is printed as three functions: ``<name>_region(...) -> int`` (the index
  of the piece whose region holds, tested in order with Python's ``and``/``or``; on mpmath
  numbers, or on exact ``Fraction`` s with :data:`fhsym._core.mpfuncs.EXACT`, which is how the
  ball API decides a piece without comparing balls), ``<name>_piece(i, ...)`` (that piece's
  value) and ``<name>(...)`` (both, then the declared ``post``).
* The thresholds the regions name (``s_q``, ``p_tail``, ``p_direct``) only choose among forms
  that are equal where both apply, except ``p_tail`` (the Gaussian tail's mass), which the
  caller computes at the working precision.
"""

from __future__ import annotations

from typing import Any, List, Sequence, Tuple, Union

import sympy as sp

from fhsym.symbolic.piecewise import Formula, PiecewiseFunction

from . import pieces as PC
from .printer import XpPrinter

__all__ = ["FILES", "MpPrinter", "declarations", "render_kernels", "render_pieces"]
COMMAND = "python -m fhsym.codegen"


class MpPrinter(XpPrinter):
    """:class:`XpPrinter` with exact constants (``xp.q(p, q)``, ``xp.pi()``), Python booleans
    (``and``, ``or``, ``not``) and the builtins ``abs``, ``max``, ``min`` (mpmath numbers and
    Fractions alike)."""

    _not, _min, _max = "(not {})", "min", "max"

    def _module_format(self, fqn: str, register: bool = True) -> str:
        return fqn if "." not in fqn else f"xp.{fqn.rsplit('.', 1)[-1]}"

    def _print_Rational(self, e: sp.Rational) -> str:
        return f"xp.q({e.p}, {e.q})"

    def _print_Half(self, e: sp.Rational) -> str:
        return "xp.q(1, 2)"

    def _print_Float(self, e: sp.Float) -> str:
        r = sp.Rational(e)
        return f"xp.q({r.p}, {r.q})"

    def _print_Pi(self, e: sp.Basic) -> str:
        return "xp.pi()"

    def _print_Infinity(self, e: sp.Basic) -> str:
        return "xp.inf"

    def _print_NegativeInfinity(self, e: sp.Basic) -> str:
        return "(-xp.inf)"

    def _print_Abs(self, e: sp.Basic) -> str:
        return f"abs({self._print(e.args[0])})"

    def _print_Relational(self, e: sp.Basic) -> str:
        return "({} {} {})".format(self._print(e.lhs), e.rel_op, self._print(e.rhs))

    def _print_And(self, e: sp.Basic) -> str:
        return "(" + " and ".join(self._print(a) for a in e.args) + ")"

    def _print_Or(self, e: sp.Basic) -> str:
        return "(" + " or ".join(self._print(a) for a in e.args) + ")"

    def _print_log(self, e: sp.Basic) -> str:
        return f"xp.log({self._print(e.args[0])})"


def declarations() -> Tuple[Tuple[Any, ...], Tuple[Union[PiecewiseFunction, Formula], ...]]:
    """(kernels, functions) printed: the exact kernels of the distribution, the profile, the loss,
    K dimensions and the entropy (:data:`fhsym.symbolic.entropy.MP_KERNELS`, this target only), and their
    piecewise functions and formulas (no Laplace-limit forms, see above)."""
    from fhsym.symbolic import entropy, kdim, privacy, stable

    kernels = tuple(stable.KERNELS) + tuple(privacy.PROFILE_KERNELS) + tuple(privacy.LOSS_KERNELS) + \
        tuple(kdim.KDIM_KERNELS) + tuple(entropy.MP_KERNELS)
    functions: Tuple[Union[PiecewiseFunction, Formula], ...] = tuple(
        f for group in (stable.DISTRIBUTION_FUNCTIONS, privacy.PRIVACY_FUNCTIONS, kdim.KDIM_FUNCTIONS) for f in group
        if isinstance(f, (PiecewiseFunction, Formula)))
    return kernels, functions


def _args(names: Sequence[str]) -> str:
    return ", ".join(f"{n}: Any" for n in names)


def _kernel(k: Any, printer: MpPrinter) -> str:
    replacements, (reduced,) = sp.cse([k.expr], symbols=sp.numbered_symbols("x"), optimizations="basic")
    lines = [f"def {k.name}({_args([a.name for a in k.args])}, xp: Any = MP) -> Any:",
             PC.doc_block([k.doc, "", f"Paper: {k.paper_ref}.", f"SymPy source: {sp.sstr(k.expr)}"])]
    lines += [f"    {sym} = {printer.doprint(sub)}" for sym, sub in replacements]
    lines.append(f"    return {printer.doprint(reduced)}")
    return "\n".join(lines) + "\n"


def _piecewise(fn: PiecewiseFunction, printer: MpPrinter) -> str:
    names = [a.name for a in fn.args]
    rargs = [a.name for a in PC.region_args(fn)]
    prep = PC.prepare(fn)
    out: List[str] = []
    # the region index
    lines = [f"def {fn.name}_region({_args(rargs)}, xp: Any = MP) -> int:",
             PC.doc_block([f"The index of the piece of {fn.name} whose region holds (regions disjoint, covering the domain):"]
                          + [f"    {i}: {pc.name} where {sp.sstr(pc.condition)}" for i, pc in enumerate(fn.pieces)])]
    lines += [f"    {sym} = {printer.doprint(sub)}" for sym, sub in prep.region_subs]
    for i, r in enumerate(prep.regions):
        lines.append(f"    if {printer.doprint(r)}:")
        lines.append(f"        return {i}")
    lines.append(f"    raise ValueError(f\"{fn.name}: no region holds at {', '.join(f'{n}={{{n}!r}}' for n in rargs)}\")")
    out.append("\n".join(lines) + "\n")
    # one piece's value
    lines = [f"def {fn.name}_piece(i: int, {_args(names)}, xp: Any = MP) -> Any:",
             PC.doc_block([f"The value of piece ``i`` of {fn.name} ({fn.name}_region gives the index)."])]
    for i, pc in enumerate(fn.pieces):
        val = PC.piece_call(pc, {a: a.name for a in fn.args}, printer, lambda name, args: f"K.{name}({', '.join(args)}, xp=xp)")
        lines.append(f"    {'if' if i == 0 else 'elif'} i == {i}:")
        lines.append(f"        return {val}")
    lines.append(f"    raise ValueError(f\"i must be a piece index in [0, {len(fn.pieces) - 1}]; got {{i!r}}\")")
    out.append("\n".join(lines) + "\n")
    # the function
    lines = [f"def {fn.name}({_args(names)}, xp: Any = MP) -> Any:",
             PC.doc_block(PC.docstring(fn, regions=f"{fn.name}_region"))]
    call = f"{fn.name}_piece({fn.name}_region({', '.join(rargs)}, xp=xp), {', '.join(names)}, xp=xp)"
    if fn.post is None:
        lines.append(f"    return {call}")
    else:
        lines.append(f"    out = {call}")
        lines.append(f"    return {printer.doprint(fn.post(sp.Symbol('out')))}")
    out.append("\n".join(lines) + "\n")
    return "\n\n".join(out)


def _formula(f: Formula, printer: MpPrinter) -> str:
    subs, reduced = PC.prepare_formula(f)
    lines = [f"def {f.name}({_args([a.name for a in f.args])}, xp: Any = MP) -> Any:", PC.doc_block(PC.docstring(f))]
    lines += [f"    {sym} = {printer.doprint(sub)}" for sym, sub in subs]
    outs = [printer.doprint(e) for e in reduced]
    lines.append(f"    return {outs[0]}" if len(outs) == 1 else f"    return ({', '.join(outs)})")
    return "\n".join(lines) + "\n"


_HEAD = """\
# GENERATED FILE - DO NOT EDIT.
# Generated by `{command} --target mpmath` from fhsym.symbolic (stable, privacy, kdim, entropy) with SymPy {version}.
# {what}  Regenerate with `{command}`;
# `{command} --check` (run by CI) fails when this file is stale.
\"\"\"{doc}

Each function takes the namespace ``xp``: fhsym._core.mpfuncs.MP (mpmath numbers at the
precision of mpmath's context, the default), fhsym._core.arb.special.ARB (arb balls) or, for
the ``*_region`` tests, fhsym._core.mpfuncs.EXACT (exact rationals).  The exact kernels apply
for every b (no Laplace-limit forms: mpmath's exponent range is unbounded).  See
fhsym.codegen.target_mpmath.
\"\"\"

from typing import Any

from fhsym._core.mpfuncs import MP
"""


def _head(what: str, doc: str) -> str:
    return _HEAD.format(command=COMMAND, version=sp.__version__, what=what, doc=doc)


def render_kernels() -> str:
    """The module ``mp_kernels.py``: every exact kernel."""
    kernels, _ = declarations()
    printer = MpPrinter()
    names = ", ".join(repr(k.name) for k in kernels)
    what = ("Every kernel below is printed, with exact constants, from a SymPy expression that proofs/\n"
            "# shows equal to the paper formula named in its docstring.")
    doc = ("Arbitrary-precision kernels of the flipped Huber distribution, its 1-D privacy profile and loss,\n"
           "and K dimensions (standard units: b = alpha/gamma, s = t/gamma, D = Delta/gamma).")
    return _head(what, doc) + f"\n__all__ = [{names}]\n\n\n" + "\n\n".join(_kernel(k, printer) for k in kernels)


def render_pieces() -> str:
    """The module ``mp_pieces.py``: the region dispatch of every piecewise function, and the formulas."""
    _, functions = declarations()
    printer = MpPrinter()
    parts: List[str] = []
    names: List[str] = []
    for f in functions:
        if isinstance(f, PiecewiseFunction):
            parts.append(_piecewise(f, printer))
            names += [f"{f.name}_region", f"{f.name}_piece", f.name]
        else:
            parts.append(_formula(f, printer))
            names.append(f.name)
    what = ("Every function below is printed from a SymPy declaration: the kernels of mp_kernels\n"
            "# under the regions they declare, or a formula.")
    doc = ("Arbitrary-precision region dispatch of the flipped Huber distribution, Table I's profile cases, the\n"
           "privacy loss and the K-dimensional formulas (standard units).")
    head = _head(what, doc) + "from fhsym._generated import mp_kernels as K\n"
    return head + "\n__all__ = [" + ", ".join(repr(n) for n in names) + "]\n\n\n" + "\n\n".join(parts)


FILES = {"mp_kernels.py": render_kernels, "mp_pieces.py": render_pieces}
