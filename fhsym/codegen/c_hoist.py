"""C target: the set-up-only parts of the per-point kernels, computed once per distribution.

A loop over the points of one distribution (the handle ``fhsym_dist`` of the C library and its
``_n`` entry points) calls a piecewise function with the same set-up arguments (b, lw, D, ...)
at every point: only the point arguments (:data:`POINT_ARGS`) change.  Every subexpression of a
kernel that depends on set-up arguments only and calls a function (``erfcx(sqrt(2) b/2)``,
``exp(-lw)``, ...) is computed once, by ``fhsym_s_<fn>(set-up arguments, c)``, into an array
``c`` of ``FHSYM__NC_<FN>`` doubles; ``fhsym_h_<fn>(c, arguments)`` is ``fhsym_p_<fn>`` with
those subexpressions read from ``c``.  The subexpressions are printed as the nodes they replace,
so the operations and their order are those of ``fhsym_p_<fn>``: the values are bit for bit the
same (``tests/test_codegen_c.py`` compares the two paths).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Set, Tuple

import sympy as sp

from fhsym.symbolic.piecewise import Piece, PiecewiseFunction

from . import pieces as PC
from .printer import CKernelPrinter

if TYPE_CHECKING:
    from fhsym.symbolic.stable import Kernel

__all__ = ["POINT_ARGS", "HoistedKernel", "hoist_kernel", "render_hoisted"]

#: the piecewise functions a loop over points calls, and their point arguments (the others are set up once)
POINT_ARGS: Dict[str, Tuple[str, ...]] = {
    "sf_std_nonneg": ("s",),
    "logsf_std_nonneg": ("s",),
    "isf_std": ("p", "h"),
    "log_profile_std": ("epsilon",),
}


class _HoistingPrinter(CKernelPrinter):
    """Prints the candidate subexpressions as ``c[i]`` (numbered in the order they are first printed) and
    records every symbol it prints."""

    def __init__(self, candidates: Set[sp.Basic]) -> None:
        super().__init__()
        self.candidates = candidates
        self.index: Dict[sp.Basic, int] = {}
        self.symbols: Set[sp.Symbol] = set()

    def _print(self, expr: Any, **kwargs: Any) -> str:
        if isinstance(expr, sp.Basic) and expr in self.candidates:
            return f"c[{self.index.setdefault(expr, len(self.index))}]"
        if isinstance(expr, sp.Symbol):
            self.symbols.add(expr)
        text: str = super()._print(expr, **kwargs)
        return text


class HoistedKernel:
    """A kernel split into its set-up part (``fhsym_ks_<name>``, the constants) and its point part
    (``fhsym_kh_<name>``); ``constants == 0`` when nothing is worth hoisting (the plain kernel is called)."""

    def __init__(self, kernel: Kernel, setup: Sequence[sp.Symbol], printer: CKernelPrinter) -> None:
        self.kernel = kernel
        subs, (reduced,) = sp.cse([kernel.expr], symbols=sp.numbered_symbols("x"), optimizations="basic")
        defs = dict(subs)
        setup_set = set(setup)
        point = {a for a in kernel.args if a not in setup_set}
        args_of: Dict[sp.Symbol, Set[sp.Symbol]] = {}  # kernel arguments each subexpression symbol depends on
        costly_sym: Set[sp.Symbol] = set()
        for sym, sub in subs:
            args_of[sym] = set().union(*[args_of.get(f, {f}) for f in sub.free_symbols]) if sub.free_symbols else set()
            if _costly(sub, costly_sym):
                costly_sym.add(sym)

        def setup_only(e: sp.Basic) -> bool:
            deps = set().union(*[args_of.get(f, {f}) for f in e.free_symbols]) if e.free_symbols else set()
            return bool(deps) and not (deps & point)

        candidates: Set[sp.Basic] = set()
        for e in [sub for _, sub in subs] + [reduced]:
            for node in sp.preorder_traversal(e):
                if isinstance(node, sp.Basic) and not node.is_Number and setup_only(node) and _costly(node, costly_sym):
                    candidates.add(node)
        candidates |= {sym for sym in costly_sym if setup_only(sym)}
        hp = _HoistingPrinter(candidates)
        body_ret = hp.doprint(reduced)
        lines: Dict[sp.Symbol, str] = {}
        todo = [s for s in hp.symbols if s in defs]
        while todo:  # the point part's locals: the subexpressions its printed text names, transitively
            sym = todo.pop()
            if sym in lines:
                continue
            before = set(hp.symbols)
            lines[sym] = hp.doprint(defs[sym])
            todo.extend(s for s in hp.symbols - before if s in defs)
        self.constants = len(hp.index)
        used = hp.symbols
        self.point_args = [a for a in kernel.args if a in used]
        self.point_body = [f"    const double {sym} = {lines[sym]};" for sym, _ in subs if sym in lines] + [f"    return {body_ret};"]
        # the set-up part: each constant printed in full, with the locals it names
        cp = _HoistingPrinter(set())
        values = [cp.doprint(node) for node, _ in sorted(hp.index.items(), key=lambda kv: kv[1])]
        needed: Set[sp.Symbol] = set()
        todo = [s for s in cp.symbols if s in defs]
        while todo:
            sym = todo.pop()
            if sym not in needed:
                needed.add(sym)
                before = set(cp.symbols)
                cp.doprint(defs[sym])
                todo.extend(s for s in cp.symbols - before if s in defs)
        self.setup_args = [a for a in kernel.args if a in cp.symbols]
        self.setup_body = ([f"    const double {sym} = {printer.doprint(sub)};" for sym, sub in subs if sym in needed]
                           + [f"    c[{i}] = {v};" for i, v in enumerate(values)])

    def render(self) -> str:
        name = self.kernel.name
        sargs = ", ".join(f"double {a.name}" for a in self.setup_args)
        pargs = "".join(f", double {a.name}" for a in self.point_args)
        return "\n".join([
            f"/* fhsym_k_{name}: its {self.constants} set-up-only subexpression(s) into c */",
            f"static void fhsym_ks_{name}({sargs}, double *c)", "{", *self.setup_body, "}", "",
            f"/* fhsym_k_{name} with the set-up-only subexpressions read from c (fhsym_ks_{name}) */",
            f"static double fhsym_kh_{name}(const double *c{pargs})", "{", *self.point_body, "}",
        ]) + "\n"


def _costly(e: sp.Basic, costly_sym: Set[sp.Symbol]) -> bool:
    """Whether evaluating ``e`` calls a function (a function node, a non-integer power, a costly subexpression)."""
    for node in sp.preorder_traversal(e):
        if isinstance(node, sp.Function) or (isinstance(node, sp.Pow) and not node.exp.is_Integer) or node in costly_sym:
            if not (isinstance(node, sp.Basic) and node.free_symbols == set() and not isinstance(node, sp.Symbol)):
                return True
    return False


def hoist_kernel(pc: Piece, fn: PiecewiseFunction, printer: CKernelPrinter) -> HoistedKernel:
    """The kernel of piece ``pc`` of ``fn`` split at the kernel arguments bound to set-up arguments of ``fn``."""
    point = {a for a in fn.args if a.name in POINT_ARGS[fn.name]}
    setup = [a for a, bound in zip(pc.kernel.args, pc.call_args()) if not (sp.sympify(bound).free_symbols & point)]
    return HoistedKernel(pc.kernel, setup, printer)


def render_hoisted(fn: PiecewiseFunction, regions: PiecewiseFunction, printer: CKernelPrinter,
                   hoisted: Dict[Tuple[str, Tuple[str, ...]], HoistedKernel]) -> Tuple[List[str], str]:
    """(the split kernels not yet printed, the set-up and hoisted dispatch of ``fn``); ``hoisted`` caches the
    split kernels by (name, set-up arguments) across functions."""
    new: List[str] = []
    offsets: List[int] = []
    parts: List[Optional[HoistedKernel]] = []
    total = 0
    for pc in fn.pieces:
        hk: Optional[HoistedKernel] = None
        if pc.kernel is not None:
            hk = hoist_kernel(pc, fn, printer)
            key = (pc.kernel.name, tuple(a.name for a in hk.setup_args))
            if key not in hoisted and hk.constants:
                hoisted[key] = hk
                new.append(hk.render())
            hk = hoisted.get(key, hk)
        parts.append(hk)
        offsets.append(total)
        total += hk.constants if hk is not None else 0
    ident = {a: a.name for a in fn.args}
    setup_calls: List[str] = []
    used: Set[sp.Basic] = set()
    for pc, hk, off in zip(fn.pieces, parts, offsets):
        if hk is None or not hk.constants:
            continue
        bound = dict(zip(pc.kernel.args, pc.call_args()))
        sbound = [printer.doprint(PC.renamed(sp.sympify(bound[a]), ident)) for a in hk.setup_args]
        used |= set().union(*[sp.sympify(bound[a]).free_symbols for a in hk.setup_args])
        setup_calls.append(f"    fhsym_ks_{pc.kernel.name}({', '.join(sbound)}, c + {off});")
    sargs = ", ".join(f"double {a.name}" for a in fn.args if a in used)
    upper = fn.name.upper()
    lines = [f"#define FHSYM__NC_{upper} {total}", "",
             f"/* the set-up-only subexpressions of the kernels of fhsym_p_{fn.name} into c[0 .. FHSYM__NC_{upper} - 1] */",
             f"static void fhsym_s_{fn.name}({sargs}, double *c)", "{", *setup_calls, "}", ""]
    args = ", ".join(f"double {a.name}" for a in fn.args)
    lines += [f"/* fhsym_p_{fn.name} with the set-up-only subexpressions read from c (fhsym_s_{fn.name}): the same values */",
              f"static double fhsym_h_{fn.name}(const double *c, {args})", "{", "    double out;",
              f"    switch (fhsym_r_{regions.name}({', '.join(a.name for a in PC.region_args(fn))})) {{"]
    for i, (pc, hk, off) in enumerate(zip(fn.pieces, parts, offsets)):
        if hk is not None and hk.constants:
            bound = dict(zip(pc.kernel.args, pc.call_args()))
            cargs = "".join(", " + printer.doprint(PC.renamed(sp.sympify(bound[a]), ident)) for a in hk.point_args)
            val = printer.doprint(pc.value_expr(sp.Symbol(f"fhsym_kh_{pc.kernel.name}(c + {off}{cargs})")))
        else:
            val = PC.piece_call(pc, ident, printer, lambda name, a: f"fhsym_k_{name}({', '.join(a)})")
        lines.append(f"    case {i}: out = {val}; break;")
    lines.append("    default: out = NAN; /* only for NaN arguments */")
    lines.append("    }")
    ret = "out" if fn.post is None else printer.doprint(fn.post(sp.Symbol("out")))
    lines += [f"    return {ret};", "}"]
    return new, "\n".join(lines) + "\n"
