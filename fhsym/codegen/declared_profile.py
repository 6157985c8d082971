"""The exact 1-D privacy profile of a declared law in C99 and JAX, printed from its derivation (issue 28, item 3).

For a symmetric log-concave law (standard units, sensitivity D) the profile is (Lemma 11 of the flipped-Huber
paper, :mod:`fhsym.symbolic.derivation`)::

    delta(eps; D) = F(y*) - e^eps F(y* - D),   y* = sup {y : loss(y) >= eps},   loss(y) = psi(|y - D|) - psi(|y|)

with the loss continuous and non-increasing in y.  The real line splits into *regions* (the sign of y and of y - D,
the piece of |y| and of |y - D|), on each of which the loss is one SymPy expression (:meth:`Derivation.loss`) and
its crossing ``loss = eps`` is the root SymPy found (:attr:`Derivation.crossings`).  The printed function:

* region r is the interval ``(L_r, R_r)``, ``L_r`` the largest and ``R_r`` the smallest of its bounds (the pieces'
  ends, 0, D; an infinite bound left out), empty ones skipped;
* the crossing lies in the region with the largest ``L_r`` whose loss at ``L_r`` (its own formula there: the right
  limit) is ``>= eps`` (``L_r = -oo`` counts as ``>= eps``: the loss tends to sup loss > eps there): the loss is
  non-increasing, so it is ``>= eps`` left of that region's start and the next region's start has it ``< eps``;
* ``y*`` is that region's root lying in ``[L_r, R_r]`` (of two, the one inside), else the root clamped to the
  region (a root off by rounding); a region with no root (a constant loss, or a quadratic one SymPy shows never
  equal to eps) that is selected has its loss ``>= eps`` throughout: ``y* = R_r``;
* a bounded support ``[-b, b]``: the regions lie in the overlap ``(D - b, b)``; no region with loss ``>= eps`` at
  its start gives ``y* = D - b`` (delta = F(D - b), the mass of the infinite loss); ``D >= 2b`` gives 1;
* ``delta = F(y*) (-expm1(eps + log F(y* - D) - log F(y*)))``, ``log F(y) = log sf(-y)`` for ``y <= 0`` and
  ``log1p(-sf(y))`` beyond (the printed sf of y's piece, exp of the printed log sf where the sf is not finite), as
  the numpy class computes it (:meth:`fhsym.noise.declared.DeclaredNoise._profile1`, which finds y* by a float
  root instead); 0 where ``eps >= sup loss(D)`` or ``D = 0``; NaN for ``eps < 0``, ``D < 0`` or a NaN argument (a C or
  JAX function cannot raise the ValueError the numpy class raises).

A region whose loss depends on y but has no closed-form root (the logistic law's ``psi = t + 2 log(1 + e^-t)``, the
generalised Gaussian's ``t^(3/2)``) is *numeric*: its crossing is found by a bracketed, fixed-iteration bisection
of the same printed region loss (``cross``, one text per file, C and JAX alike):

* ``y* = hi`` where ``hi`` is finite and ``loss(hi) >= eps`` (the loss stays ``>= eps`` on the region);
* an infinite end is replaced by a bracket: from the finite end, steps 1, 16, 16^2, ... (at most 255, to 2^1020)
  until the loss is on the other side of eps; none found: ``y* = -oo`` on the left (F(y*) underflows: delta = 0, as
  the numpy class returns), NaN on the right (the loss tends to -sup loss < 0 <= eps there: not a law's loss);
* then at most 1100 halvings ``m = a + (b - a)/2`` keeping ``loss(a) >= eps > loss(b)``, stopped (C) or idle (JAX)
  once m is a or b: a and b are adjacent floats (or the bracket is below 2^-1100 of its start), and ``y* = a``.
  The loss is evaluated in floats, so y* is the crossing of the float loss; delta is stationary there (its
  maximum over y), so an error in y* moves delta at second order only.

Only the selection above, the clamp, the bisection and the final formula are this module's text; every loss, root,
sf and log sf is printed from the derivation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple

import sympy as sp

from fhsym.symbolic.derivation import D, Derivation, y

from .law_targets import c_function, py_function

__all__ = ["Region", "profile_regions", "c_profile", "jax_profile"]

_SIGNS = {"y < 0": (-1, -1), "0 <= y < D": (1, -1), "y >= D": (1, 1)}


@dataclass(frozen=True)
class Region:
    """One region of the loss (module docstring): ``y`` in ``(max(lower), min(upper))``."""

    label: str
    lower: Tuple[sp.Expr, ...]
    upper: Tuple[sp.Expr, ...]
    loss: sp.Expr
    roots: Tuple[sp.Expr, ...]
    numeric: bool = False  #: no closed-form root: the crossing by bisection (module docstring)


def _bounds(sy: int, syd: int, lo_i: sp.Expr, hi_i: sp.Expr, lo_j: sp.Expr, hi_j: sp.Expr
            ) -> Tuple[Tuple[sp.Expr, ...], Tuple[sp.Expr, ...]]:
    """(lower, upper) bounds of y: |y| in [lo_i, hi_i), |y - D| in [lo_j, hi_j), the signs (sy, syd)."""
    if sy < 0:  # y < 0: |y| = -y, |y - D| = D - y
        lower, upper = [-hi_i, D - hi_j], [-lo_i, D - lo_j, sp.Integer(0)]
    elif syd < 0:  # 0 <= y < D: |y| = y, |y - D| = D - y
        lower, upper = [sp.Integer(0), lo_i, D - hi_j], [D, hi_i, D - lo_j]
    else:  # y >= D: |y| = y, |y - D| = y - D
        lower, upper = [D, lo_i, D + lo_j], [hi_i, D + hi_j]

    def keep(vs: List[sp.Expr], most: Any) -> Tuple[sp.Expr, ...]:
        """The finite bounds, reduced by SymPy's Max/Min (D > 0 drops a bound another one implies)."""
        finite = [v for v in map(sp.sympify, vs) if not v.has(sp.oo, -sp.oo, sp.zoo)]
        if not finite:
            return ()
        m = most(*finite)
        return tuple(m.args) if isinstance(m, most) else (m,)

    return keep(lower, sp.Max), keep(upper, sp.Min)


def profile_regions(dv: Derivation) -> Tuple[Tuple[Region, ...], Optional[str]]:
    """The regions of the loss with their closed-form crossings (a region whose loss depends on y but where SymPy
    found no root of ``loss = eps``: ``numeric``, its crossing by bisection), and None; or ``((), reason)``."""
    roots: Dict[Tuple[int, int, int, int], List[sp.Expr]] = {}
    for label, expr in dv.crossings:
        region, rest = label.split(", ", 1)
        i, j = (int(v) for v in re.findall(r"piece (\d+)", rest))
        roots.setdefault((*_SIGNS[region], i, j), []).append(expr)
    pieces = [(sp.sympify(a), sp.sympify(b)) for _, (a, b) in dv.decl.pieces]
    out: List[Region] = []
    for what, (sy, syd) in _SIGNS.items():
        for i, (lo_i, hi_i) in enumerate(pieces):
            for j, (lo_j, hi_j) in enumerate(pieces):
                if sy < 0 and i > j or syd > 0 and j > i:
                    continue  # |y| <= |y - D| for y < 0; |y - D| <= |y| for y >= D (as Derivation.crossings)
                loss = sp.expand(dv.loss(sy, syd, i, j))
                label = f"{what}, |y| in piece {i}, |y - D| in piece {j}"
                found = tuple(roots.get((sy, syd, i, j), ()))
                try:  # a polynomial of degree <= 2 in y: SymPy's solve found every real root (none: the loss never
                    # equals eps there, it stays on one side of eps, as a constant loss does)
                    solved = 1 <= sp.Poly(loss, y).degree() <= 2
                except sp.PolynomialError:
                    solved = False
                if len(found) > 2:  # pragma: no cover - the crossings are of degree <= 2
                    return (), f"{len(found)} roots of loss = eps on the region {label}"
                numeric = bool(loss.has(y) and not found and not solved)
                out.append(Region(label, *_bounds(sy, syd, lo_i, hi_i, lo_j, hi_j), loss, found, numeric))
    return tuple(out), None


def _printable(dv: Derivation, printed: Sequence[str], target: str) -> Tuple[Tuple[Region, ...], Optional[str]]:
    """:func:`profile_regions`, and the reason none is printed where a piece's sf or log sf (which log F calls) has no
    printing on ``target`` (``printed``: the names of the law's functions printed there)."""
    regions, why = profile_regions(dv)
    k = len(dv.decl.pieces)
    missing = [f for f in [f"sf_{i}" for i in range(k)] + [f"logsf_{i}" for i in range(k)] if f not in printed]
    if why is None and missing:
        why = f"a piece's sf or log sf has no {target} printing ({', '.join(missing)})"
    return regions, why


# ------------------------------------------------------------------------------------------------------------ C99
def c_profile(dv: Derivation, name: str, printer: Any, printed: Sequence[str]) -> str:
    """The C text of ``fhsym_<name>_logcdf(y, shapes...)`` and ``fhsym_<name>_profile(epsilon, D, shapes...)`` (after
    the law's printed functions ``printed``: it calls ``fhsym_<name>_sf_k`` and ``logsf_k``), or a comment saying why
    the profile is not printed."""
    regions, why = _printable(dv, printed, "C")
    k = len(dv.decl.pieces)
    if why is not None:
        return f"\n// No fhsym_{name}_profile: {why}.\n"
    shapes = dv.decl.shape_symbols
    sp_params = "".join(f", double {s.name}" for s in shapes)
    sp_args = "".join(f", {s.name}" for s in shapes)
    pre = f"fhsym_{name}"
    joins = [printer.doprint(b) for b in dv.bounds]
    end = printer.doprint(sp.sympify(dv.decl.support_end)) if dv.decl.bounded else None
    out: List[str] = []

    def dispatch(fn: str) -> str:
        lines = [f"    if (t < {j}) return {pre}_{fn}_{i}(t{sp_args});" for i, j in enumerate(joins)]
        return "\n".join(lines + [f"    return {pre}_{fn}_{k - 1}(t{sp_args});"])

    out.append(f"static double {pre}_sf_pos(double t{sp_params})\n{{\n{dispatch('sf')}\n}}\n")
    out.append(f"static double {pre}_logsf_pos(double t{sp_params})\n{{\n{dispatch('logsf')}\n}}\n")
    cut = (f"    if (y <= -{end}) return -INFINITY;\n    if (y >= {end}) return 0.0;\n") if end else ""
    out.append(f"/* log F(y), F the law's cdf in standard units: log sf(-y) for y <= 0, log1p(-sf(y)) beyond (exp of log sf\n"
               f"   where the sf is not finite) */\ndouble {pre}_logcdf(double y{sp_params})\n{{\n    double s;\n{cut}"
               f"    if (y <= 0.0) return {pre}_logsf_pos(-y{sp_args});\n    s = {pre}_sf_pos(y{sp_args});\n"
               f"    if (!isfinite(s)) s = exp({pre}_logsf_pos(y{sp_args}));\n    return log1p(-s);\n}}\n")
    if not all(reg.numeric for reg in regions):  # (a static function no region calls: -Wunused-function)
        out.append(f"static double {pre}_pick(double c0, double c1, double lo, double hi)\n{{\n"
                   "    /* the root in [lo, hi], else the first finite root clamped to it; none (a constant loss): hi */\n"
                   "    if (c0 >= lo && c0 <= hi) return c0;\n    if (c1 >= lo && c1 <= hi) return c1;\n"
                   "    if (c0 == c0) return c0 < lo ? lo : hi;\n    if (c1 == c1) return c1 < lo ? lo : hi;\n"
                   "    return hi;\n}\n")
    names = [s.name for s in shapes]
    if any(reg.numeric for reg in regions):
        out.append(_C_CROSS.replace("PRE", pre))
    body: List[str] = []
    for r, reg in enumerate(regions):
        out.append(c_function(f"{pre}_loss_{r}", printer.doprint(reg.loss), ["y", "D", *names], static=True))
        if reg.numeric:  # the loss of the parameter block p = {D, shapes...}, for the bisection
            unpack = ", ".join(f"p[{m}]" for m in range(1 + len(names)))
            out.append(f"static double {pre}_lossp_{r}(double y, const double *p)\n{{\n"
                       f"    return {pre}_loss_{r}(y, {unpack});\n}}\n")
        roots = []
        for m, e in enumerate(reg.roots):
            out.append(c_function(f"{pre}_root_{r}_{m}", printer.doprint(e), ["epsilon", "D", *names], static=True))
            roots.append(f"{pre}_root_{r}_{m}(epsilon, D{sp_args})")
        roots += ["NAN"] * (2 - len(roots))
        ends = [f"    lo = {printer.doprint(reg.lower[0])};" if reg.lower else "    lo = -INFINITY;"]
        ends += [f"    if ({printer.doprint(b)} > lo) lo = {printer.doprint(b)};" for b in reg.lower[1:]]
        ends += [f"    hi = {printer.doprint(reg.upper[0])};" if reg.upper else "    hi = INFINITY;"]
        ends += [f"    if ({printer.doprint(b)} < hi) hi = {printer.doprint(b)};" for b in reg.upper[1:]]
        pick = (f"{pre}_cross({pre}_lossp_{r}, p, epsilon, lo, hi)" if reg.numeric
                else f"{pre}_pick({roots[0]}, {roots[1]}, lo, hi)")
        body.append(f"    /* {reg.label}: loss = {reg.loss}{' (no closed-form root: bisection)' if reg.numeric else ''} */\n"
                    + "\n".join(ends) + "\n"
                    f"    if (lo < hi && lo >= best && (isinf(lo) || {pre}_loss_{r}(lo, D{sp_args}) >= epsilon)) {{\n"
                    f"        best = lo;\n        y = {pick};\n    }}\n")
    sup = dv.loss_sup
    head = ["    if (!(epsilon >= 0.0) || !(D >= 0.0)) return NAN;  /* eps < 0, D < 0 or NaN: refused */",
            "    if (D == 0.0) return 0.0;", "    if (isinf(D)) return 1.0;"]
    if sup is not sp.oo:
        head.append(f"    if (!(epsilon < {printer.doprint(sup)})) return 0.0;  /* eps >= sup loss(D) = {sup} */")
    if end:
        head.append(f"    if (D >= {printer.doprint(2 * sp.sympify(dv.decl.support_end))}) return 1.0;  /* a bounded support, "
                    "disjoint from its shift */")
    start = f"D - {end}" if end else "NAN"
    numeric = any(reg.numeric for reg in regions)
    params = (f"    double p[{1 + len(names)}];\n", f"    p[0] = D;{''.join(f' p[{m + 1}] = {n};' for m, n in enumerate(names))}\n",
              "    if (y != y) return NAN;  /* no bracket of the crossing (not a law's loss) */\n") if numeric else ("", "", "")
    out.append(
        f"/* delta(epsilon; D) = F(y*) - e^epsilon F(y* - D), standard units (D = Delta/scale): the crossing y* of the\n"
        f"   loss in the region that holds it, from the roots SymPy derived (fhsym/codegen/declared_profile.py) */\n"
        f"double {pre}_profile(double epsilon, double D{sp_params})\n{{\n"
        f"    double y = {start}, best = -INFINITY, lo, hi, lf, v;\n{params[0]}" + "\n".join(head) + "\n" + params[1]
        + "".join(body) + params[2] +
        f"    lf = {pre}_logcdf(y{sp_args});\n    if (lf == -INFINITY) return 0.0;\n"
        f"    v = exp(lf)*(-expm1(epsilon + {pre}_logcdf(y - D{sp_args}) - lf));\n    return v > 0.0 ? v : 0.0;\n}}\n")
    return "\n" + "\n".join(out)


# ------------------------------------------------------------------------------------------------------------ JAX
def jax_profile(dv: Derivation, printer: Any, printed: Sequence[str]) -> Tuple[List[str], Optional[str]]:
    """The JAX functions ``logcdf(y, shapes...)`` and ``profile(epsilon, D, shapes...)`` (elementwise on arrays, every
    branch evaluated and selected by ``xp.where``) and None; or ``([], reason)`` when the profile is not printed."""
    regions, why = _printable(dv, printed, "JAX")
    k = len(dv.decl.pieces)
    if why is not None:
        return [], why
    shapes = dv.decl.shape_symbols
    sp_params = "".join(f", {s.name}: Any" for s in shapes)
    sp_args = "".join(f", {s.name}" for s in shapes)
    joins = [printer.doprint(b) for b in dv.bounds]
    end = printer.doprint(sp.sympify(dv.decl.support_end)) if dv.decl.bounded else None
    defs: List[str] = ['_NAN = float("nan")\n']

    def dispatch(fn: str) -> str:
        out = f"{fn}_{k - 1}(t{sp_args})"
        for i in reversed(range(k - 1)):
            out = f"xp.where(t < {joins[i]}, {fn}_{i}(t{sp_args}), {out})"
        return out

    defs.append(f"def _sf_pos(t: Any{sp_params}) -> Any:\n    s = {dispatch('sf')}\n"
                f"    return xp.where(s < xp.inf, s, xp.exp(_logsf_pos(t{sp_args})))  # exp of log sf where sf is not finite\n")
    defs.append(f"def _logsf_pos(t: Any{sp_params}) -> Any:\n    return {dispatch('logsf')}\n")
    cut = f"    out = xp.where(y <= -{end}, -xp.inf, xp.where(y >= {end}, 0.0, out))\n" if end else ""
    defs.append(f'def logcdf(y: Any{sp_params}) -> Any:\n    """log F(y): log sf(-y) for y <= 0, log1p(-sf(y)) beyond."""\n'
                f"    out = xp.where(y <= 0.0, _logsf_pos(-y{sp_args}), xp.log1p(-_sf_pos(y{sp_args})))\n{cut}    return out\n")
    defs.append("def _pick(c0: Any, c1: Any, lo: Any, hi: Any) -> Any:\n"
                '    """The root in [lo, hi], else the first finite root clamped to it; none (a constant loss): hi."""\n'
                "    in0, in1 = (c0 >= lo) & (c0 <= hi), (c1 >= lo) & (c1 <= hi)\n"
                "    out = xp.where(c1 == c1, xp.where(c1 < lo, lo, hi), hi)\n"
                "    out = xp.where(c0 == c0, xp.where(c0 < lo, lo, hi), out)\n"
                "    return xp.where(in0, c0, xp.where(in1, c1, out))\n")
    if any(reg.numeric for reg in regions):
        defs.append(_JAX_CROSS)
    body: List[str] = []
    for r, reg in enumerate(regions):
        names = [s.name for s in shapes]
        defs.append(py_function(f"_loss_{r}", printer.doprint(reg.loss), ["y", "D", *names]))
        roots = []
        for m, e in enumerate(reg.roots):
            defs.append(py_function(f"_root_{r}_{m}", printer.doprint(e), ["epsilon", "D", *names]))
            roots.append(f"_root_{r}_{m}(epsilon, D{sp_args})")
        roots += ["_NAN"] * (2 - len(roots))
        lo = printer.doprint(sp.Max(*reg.lower)) if reg.lower else "-xp.inf"
        hi = printer.doprint(sp.Min(*reg.upper)) if reg.upper else "xp.inf"
        pick = (f"_cross(lambda v: _loss_{r}(v, D{sp_args}), epsilon, lo, hi)" if reg.numeric
                else f"_pick({roots[0]}, {roots[1]}, lo, hi)")
        body.append(f"    # {reg.label}: loss = {reg.loss}{' (no closed-form root: bisection)' if reg.numeric else ''}\n"
                    f"    lo, hi = zero + {lo}, zero + {hi}\n"
                    f"    take = (lo < hi) & (lo >= best) & ((lo == -xp.inf) | (_loss_{r}(lo, D{sp_args}) >= epsilon))\n"
                    f"    best = xp.where(take, lo, best)\n"
                    f"    y = xp.where(take, {pick}, y)\n")
    tail = ["    out = xp.where(lf == -xp.inf, 0.0, xp.maximum(v, 0.0))"]
    if any(reg.numeric for reg in regions):
        tail.append("    out = xp.where(y == y, out, _NAN)  # no bracket of the crossing (not a law's loss)")
    if dv.loss_sup is not sp.oo:
        tail.append(f"    out = xp.where(epsilon < {printer.doprint(dv.loss_sup)}, out, 0.0)  # eps >= sup loss(D)")
    if end:
        tail.append(f"    out = xp.where(D >= {printer.doprint(2 * sp.sympify(dv.decl.support_end))}, 1.0, out)  # a bounded "
                    "support, disjoint from its shift")
    tail.append("    out = xp.where(D == 0.0, 0.0, xp.where(D == xp.inf, 1.0, out))")
    tail.append("    return xp.where((epsilon >= 0.0) & (D >= 0.0), out, _NAN)  # eps < 0, D < 0 or NaN: refused")
    start = f"D - {end}" if end else "_NAN"
    defs.append(
        f"def profile(epsilon: Any, D: Any{sp_params}) -> Any:\n"
        '    """delta(epsilon; D) = F(y*) - e^epsilon F(y* - D) in standard units (D = Delta/scale): the crossing y* in the\n'
        '    region that holds it, from the roots SymPy derived (fhsym/codegen/declared_profile.py)."""\n'
        f"    epsilon, D = xp.asarray(epsilon, dtype=xp.float64), xp.asarray(D, dtype=xp.float64)\n"
        f"    zero = 0.0 * (epsilon + D{''.join(f' + {s.name}' for s in shapes)})\n"
        f"    y, best = zero + {start}, zero - xp.inf\n" + "".join(body) +
        f"    lf = logcdf(y{sp_args})\n    v = xp.exp(lf) * -xp.expm1(epsilon + logcdf(y - D{sp_args}) - lf)\n"
        + "\n".join(tail) + "\n")
    return defs, None


#: the C bisection of a numeric region (module docstring), PRE the law's prefix: the crossing of the non-increasing
#: ``loss(y, p) = eps`` in [lo, hi] (lo < hi, loss(lo) >= eps where lo is finite)
_C_CROSS = """/* y* = sup {y in [lo, hi] : loss(y) >= eps}, the loss non-increasing (a region with no closed-form root): hi where
   the loss stays >= eps; an infinite end bracketed by steps 1, 16, 16^2, ... (at most 255; none: -inf on the left,
   F(y*) underflowing, NaN on the right); then halvings to adjacent floats (at most 1100) keeping loss(a) >= eps */
static double PRE_cross(double (*loss)(double, const double *), const double *p, double eps, double lo, double hi)
{
    double a = lo, b = hi, step = 1.0, m;
    int k;
    if (!isinf(hi) && loss(hi, p) >= eps) return hi;
    if (isinf(hi)) {
        double base = isinf(lo) ? 0.0 : lo;
        for (k = 0, b = base + step; k < 255 && loss(b, p) >= eps; ++k) {
            a = b;
            step *= 16.0;
            b = base + step;
        }
        if (loss(b, p) >= eps) return NAN;
    }
    if (isinf(lo)) {
        double base = b;
        step = 1.0;
        for (k = 0, a = base - step; k < 255 && loss(a, p) < eps; ++k) {
            b = a;
            step *= 16.0;
            a = base - step;
        }
        if (loss(a, p) < eps) return -INFINITY;
    }
    for (k = 0; k < 1100; ++k) {
        m = a + 0.5 * (b - a);
        if (m <= a || m >= b) break;
        if (loss(m, p) >= eps) a = m;
        else b = m;
    }
    return a;
}
"""

#: the JAX twin of :data:`_C_CROSS` (every lane runs the fixed counts; a settled lane stays where it is)
_JAX_CROSS = '''def _cross(loss: Any, epsilon: Any, lo: Any, hi: Any) -> Any:
    """y* = sup {y in [lo, hi] : loss(y) >= eps}, the loss non-increasing (a region with no closed-form root): hi where
    the loss stays >= eps; an infinite end bracketed by steps 1, 16, 16^2, ... (255; none: -inf on the left, NaN on
    the right); then 1100 halvings m = a + (b - a)/2 keeping loss(a) >= eps, idle once m is a or b."""
    fin_hi = hi < xp.inf
    hi_in = fin_hi & (loss(xp.where(fin_hi, hi, 0.0)) >= epsilon)
    up_base = xp.where(lo == -xp.inf, 0.0, lo)

    def grow_up(k: int, c: Any) -> Any:
        a, b, step = c
        go = ~fin_hi & (loss(b) >= epsilon)
        return xp.where(go, b, a), xp.where(go, up_base + 16.0 * step, b), xp.where(go, 16.0 * step, step)

    one = xp.where(fin_hi, 1.0, 1.0)  # ones shaped as the bracket
    a, b, step = xp.fori_loop(0, 255, grow_up, (lo, xp.where(fin_hi, hi, up_base + 1.0), one))
    no_up = ~fin_hi & (loss(b) >= epsilon)
    fin_lo = lo > -xp.inf
    down_base = b

    def grow_down(k: int, c: Any) -> Any:
        a, b, step = c
        go = ~fin_lo & (loss(a) < epsilon)
        return xp.where(go, down_base - 16.0 * step, a), xp.where(go, a, b), xp.where(go, 16.0 * step, step)

    a, b, _ = xp.fori_loop(0, 255, grow_down, (xp.where(fin_lo, a, down_base - 1.0), b, one))
    no_down = ~fin_lo & (loss(a) < epsilon)

    def halve(k: int, c: Any) -> Any:
        a, b = c
        m = a + 0.5 * (b - a)
        move = (m > a) & (m < b)
        right = loss(xp.where(move, m, a)) >= epsilon
        return xp.where(move & right, m, a), xp.where(move & ~right, m, b)

    a, _ = xp.fori_loop(0, 1100, halve, (a, b))
    return xp.where(hi_in, hi, xp.where(no_up, _NAN, xp.where(no_down, -xp.inf, a)))
'''
