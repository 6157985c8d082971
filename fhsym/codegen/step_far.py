"""A cut step law's printed profile beyond one period, C99 and JAX (issue 28): the assembly of the masses of
:func:`~fhsym.symbolic.steps.profile_periods_cut` (printed by :mod:`fhsym.codegen.step_laws` as
``profile_far_<part>_<clip>_<key>``) into ``delta(eps; p + f)``, the same sums ``fhsym.TruncatedStaircase`` runs:

* ``I = P(T > beta - d)``, the infinite-loss mass: the derived tail of the point's cell, formed as ``r^s sf(k - s;
  K - s) Z(K - s)/Z(K)`` (``s = min(k, K - 1)``, r^s from the exact product: row ``tail_shift``), the point split into
  its period and offset through ``t = rho - f`` (no rounding of ``beta - d`` as a whole);
* the head runs (periods 0 .. K - p - 2 whole, K - p - 1 and K - p clipped at the cut) and the block runs (periods
  ``max(0, 1 - Q) .. min(p - 1, K - 1)`` whole, ``-Q - 1``, ``-Q`` and ``K`` clipped, ``Q = K - p``) in closed form
  (:func:`~fhsym._core.declared_runtime.cut_far_plan` written without a loop), every exponent ``eps - n epsilon``
  with one rounding.
"""

from __future__ import annotations

from typing import Dict, List, Sequence, Tuple

import sympy as sp

__all__ = ["c_cut_far", "jax_cut_far", "FAR_DOC"]

FAR_DOC = ("; for 1 < d < 2 beta periods (beta = K + rho; p = floor(d), f = d - p) the derived form of "
           "fhsym.symbolic.steps.profile_periods_cut: I = P(T > beta - d) (the derived tail) plus the head and block runs "
           "of the profile_far_* masses above (fhsym/codegen/step_far.py); 1 for d >= 2 beta")

Far = Dict[str, Dict[str, Dict[int, sp.Expr]]]


def _tag(c: int) -> str:
    return f"m{-c}" if c < 0 else str(c)


def _num(c: int) -> str:
    return f"{'-' if c < 0 else '+'} {abs(c)}.0"


def _tail_cells(cells: Sequence[Tuple[sp.Expr, sp.Expr, sp.Expr]], printer: sp.printing.printer.Printer) -> List[str]:
    return [printer.doprint(hi) for _, hi, _ in cells]


def c_cut_far(far: Far, name: str, cells: Sequence[Tuple[sp.Expr, sp.Expr, sp.Expr]], shapes: Sequence[str],
              printer: sp.printing.printer.Printer) -> Tuple[str, str]:
    """``(helpers, body)``: the static C helpers (``__rpow``, ``__tail``, ``__block``; ``__run_length`` is the
    staircase's) and the profile's code for ``d > 1`` (variables ``out, x, p, f, Q, t, k, u, j, jt, j0, j1``)."""
    fn = f"fhsym_{name}"
    shp = "".join(f", {s}" for s in shapes)  # W
    par = f"epsilon{shp}"
    edges = _tail_cells(cells, printer)
    pick = "".join(f"    {'else ' if i else ''}if (u < {e}) val = {fn}_sf_{i}(k - s, ({e}) - u, {par}, K - s, rho);\n"
                   for i, e in enumerate(edges[:-1]))
    pick += f"    {'else ' if len(edges) > 1 else ''}val = {fn}_sf_{len(edges) - 1}(k - s, ({edges[-1]}) - u, {par}, K - s, rho);\n"
    helpers = (
        f"\n/* r^k = e^(-k epsilon) with k epsilon split exactly (the product's error by fma); 0 past 800 (e^-800 = 0 in\n"
        f"   doubles; where k epsilon overflows, 0 * e^inf would be NaN) */\n"
        f"static double {fn}__rpow(double k, double epsilon)\n{{\n    double hi = k * epsilon;\n"
        f"    if (hi > 800.0) return 0.0;\n"
        f"    return exp(-hi) * exp(fma(-k, epsilon, hi));\n}}\n"
        f"\n/* P(T > k + u) (0 <= u < 1, k + u <= K + rho): the derived tail with its first s = min(k, K - 1) periods\n"
        f"   taken out, r^s sf(k - s, .; K - s) Z(K - s)/Z(K) */\n"
        f"static double {fn}__tail(double k, double u, double {par.replace(', ', ', double ')}, double K, double rho)\n{{\n"
        f"    double s, val;\n    if (k >= K && !(rho > 0.0)) return 0.0;\n    s = fmin(k, K - 1.0);\n"
        f"    if (k >= K) val = {fn}_sf_top(u, {par}, K - s, rho);\n    else {{\n"
        + "".join("    " + line + "\n" for line in pick.rstrip("\n").split("\n")) + "    }\n"
        f"    return {fn}__rpow(s, epsilon) * val * ({fn}_norm({par}, K - s, rho) / {fn}_norm({par}, K, rho));\n}}\n"
        f"\n/* a run of n periods of |t| from j0 whose largest level difference is N: mass r^j0 (1 - r^J)/(1 - r)\n"
        f"   (1 - e^eps r^(N + 1 - J)), J of its periods with a positive term */\n"
        f"static double {fn}__block(double eps, double epsilon, double N, double j0, double n, double mass)\n{{\n"
        f"    double J;\n    if (!(mass > 0.0)) return 0.0;\n    J = {fn}__run_length(eps, epsilon, N, n);\n"
        f"    if (!(J > 0.0)) return 0.0;\n"
        f"    return mass * {fn}__rpow(j0, epsilon) * {fn}_profile_run(J, epsilon) * -expm1(fma(-(N + 1.0 - J), epsilon, eps));\n}}\n")
    fargs = f"f, {par}, K, rho"
    scale = {"full": "(Q >= 2.0 ? {fn}_profile_run(Q - 1.0, epsilon) : 0.0)", "pen": "(Q >= 1.0 ? {fn}__rpow(Q - 1.0, epsilon) : 0.0)",
             "last": "{fn}__rpow(Q, epsilon)"}
    heads = "".join(
        f"        x = fma(-(p {_num(m)}), epsilon, eps);\n        if (x < 0.0) out += {scale[clip].format(fn=fn)} * "
        f"{fn}_profile_far_head_{clip}_{_tag(m)}({fargs}) * -expm1(x);\n"
        for clip, masses in far["head"].items() for m in masses)

    def blocks(clip: str, j0: str, n: str, pad: str) -> str:
        return "".join(f"{pad}out += {fn}__block(eps, epsilon, p {_num(c)} - 2.0 * {j0}, {j0}, {n}, "
                       f"{fn}_profile_far_block_{clip}_{_tag(c)}({fargs}));\n" for c in far["block"].get(clip, {}))

    body = (f"    if (d >= 2.0 * (K + rho)) return 1.0;\n    p = floor(d);\n    f = d - p;\n    Q = K - p;\n    t = rho - f;\n"
            f"    if (Q > 0.0 || (Q == 0.0 && t >= 0.0)) out = {fn}__tail(t >= 0.0 ? Q : Q - 1.0, t >= 0.0 ? t : 1.0 + t, {par}, K, rho);\n"
            f"    else {{\n        k = t <= 0.0 ? -Q : -Q - 1.0;\n        u = t <= 0.0 ? -t : 1.0 - t;\n"
            f"        out = (k > K || (k == K && u >= rho)) ? 1.0 : 1.0 - {fn}__tail(k, u, {par}, K, rho);\n    }}\n"
            f"    if (Q >= 0.0) {{\n{heads}    }}\n"
            f"    jt = fmin(p - 1.0, K);\n    j0 = fmax(0.0, 1.0 - Q);\n    j1 = fmin(p - 1.0, K - 1.0);\n"
            f"    if (j1 >= j0) {{\n{blocks('full', 'j0', 'j1 - j0 + 1.0', '        ')}    }}\n"
            f"    j = -Q - 1.0;\n    if (j >= 0.0 && j <= jt) {{\n        if (j == K) {{\n{blocks('lo1hi', 'j', '1.0', '            ')}"
            f"        }} else {{\n{blocks('lo1', 'j', '1.0', '            ')}        }}\n    }}\n"
            f"    j = -Q;\n    if (j >= 0.0 && j <= jt) {{\n        if (j == K) {{\n{blocks('lo0hi', 'j', '1.0', '            ')}"
            f"        }} else {{\n{blocks('lo0', 'j', '1.0', '            ')}        }}\n    }}\n"
            f"    if (K <= jt && K != -Q - 1.0 && K != -Q) {{\n{blocks('hi', 'K', '1.0', '        ')}    }}\n"
            f"    return out;\n")
    return helpers, body


def jax_cut_far(far: Far, cells: Sequence[Tuple[sp.Expr, sp.Expr, sp.Expr]], shapes: Sequence[str],
                printer: sp.printing.printer.Printer) -> Tuple[List[str], str]:
    """``(helper definitions, body)`` of the JAX profile for ``d > 1`` (as :func:`c_cut_far`, every branch a
    ``xp.where``); the body sets ``far`` from ``eps, d, epsilon, shapes, K, rho``."""
    shp = "".join(f", {s}" for s in shapes)
    par = f"epsilon{shp}"
    edges = _tail_cells(cells, printer)
    val = f"sf_{len(edges) - 1}(ks, ({edges[-1]}) - u, {par}, Ks, rho)"
    for i in range(len(edges) - 2, -1, -1):
        val = f"xp.where(u < {edges[i]}, sf_{i}(ks, ({edges[i]}) - u, {par}, Ks, rho), {val})"
    helpers = [
        "def _rpow(k: Any, epsilon: Any) -> Any:\n    \"\"\"r^k = e^(-k epsilon), k epsilon split exactly; 0 past 800 (where k epsilon "
        "overflows, 0 * e^inf would be NaN).\"\"\"\n"
        "    hi = k * epsilon\n    return xp.where(hi > 800.0, 0.0, xp.exp(-hi) * xp.exp(xp.sub_prod(hi, k, epsilon)))\n",
        f"def _tail(k: Any, u: Any, {par.replace(', ', ': Any, ')}: Any, K: Any, rho: Any) -> Any:\n"
        "    \"\"\"P(T > k + u): the derived tail with its first s = min(k, K - 1) periods taken out.\"\"\"\n"
        "    s = xp.minimum(k, K - 1.0)\n    ks, Ks = k - s, K - s\n"
        f"    val = xp.where(ks >= Ks, sf_top(u, {par}, Ks, rho), {val})\n"
        f"    out = _rpow(s, epsilon) * val * (norm({par}, Ks, rho) / norm({par}, K, rho))\n"
        "    return xp.where((k >= K) & ~(rho > 0.0), 0.0, out)\n",
        "def _block(eps: Any, epsilon: Any, N: Any, j0: Any, n: Any, mass: Any) -> Any:\n"
        "    \"\"\"A run of n periods of |t| from j0 whose largest level difference is N.\"\"\"\n"
        "    J = _run_length(eps, epsilon, N, n)\n    x = xp.sub_prod(eps, N + 1.0 - J, epsilon)\n"
        "    return xp.where((J > 0.0) & (mass > 0.0), mass * _rpow(j0, epsilon) * profile_run(J, epsilon)"
        " * -xp.expm1(xp.minimum(x, 0.0)), 0.0)\n"]
    fargs = f"f, {par}, K, rho"
    scale = {"full": "sfull", "pen": "spen", "last": "slast"}
    heads = "".join(f"    x = xp.sub_prod(eps, p {_num(m)}, epsilon)\n    far = far + xp.where((Q >= 0.0) & (x < 0.0), "
                    f"{scale[clip]} * profile_far_head_{clip}_{_tag(m)}({fargs}) * -xp.expm1(xp.minimum(x, 0.0)), 0.0)\n"
                    for clip, masses in far["head"].items() for m in masses)

    def blocks(clip: str, j0: str, n: str, ok: str) -> str:
        return "".join(f"    far = far + xp.where({ok}, _block(eps, epsilon, p {_num(c)} - 2.0 * {j0}, {j0}, {n}, "
                       f"profile_far_block_{clip}_{_tag(c)}({fargs})), 0.0)\n" for c in far["block"].get(clip, {}))

    body = ("    p = xp.floor(d)\n    f = d - p\n    Q = K - p\n    t = rho - f\n"
            "    pos = (Q > 0.0) | ((Q == 0.0) & (t >= 0.0))\n"
            "    kn, un = xp.where(t <= 0.0, -Q, -Q - 1.0), xp.where(t <= 0.0, -t, 1.0 - t)\n"
            "    outside = ~pos & ((kn > K) | ((kn == K) & (un >= rho)))\n"
            "    kk = xp.where(pos, xp.where(t >= 0.0, Q, Q - 1.0), xp.where(outside, 0.0, kn))\n"
            "    uu = xp.where(pos, xp.where(t >= 0.0, t, 1.0 + t), xp.where(outside, 0.0, un))\n"
            f"    tl = _tail(kk, uu, {par}, K, rho)\n"
            "    far = xp.where(pos, tl, xp.where(outside, 1.0, 1.0 - tl))\n"
            "    sfull = xp.where(Q >= 2.0, profile_run(xp.maximum(Q - 1.0, 0.0), epsilon), 0.0)\n"
            "    spen = xp.where(Q >= 1.0, _rpow(xp.maximum(Q - 1.0, 0.0), epsilon), 0.0)\n"
            "    slast = xp.where(Q >= 0.0, _rpow(xp.maximum(Q, 0.0), epsilon), 0.0)\n"
            + heads +
            "    jt = xp.minimum(p - 1.0, K)\n    j0 = xp.maximum(0.0, 1.0 - Q)\n    j1 = xp.minimum(p - 1.0, K - 1.0)\n"
            + blocks("full", "j0", "xp.maximum(j1 - j0 + 1.0, 0.0)", "j1 >= j0")
            + "    j = xp.clip(-Q - 1.0, 0.0, jt)\n    ok = (-Q - 1.0 >= 0.0) & (-Q - 1.0 <= jt)\n"
            + blocks("lo1hi", "j", "1.0", "ok & (j == K)") + blocks("lo1", "j", "1.0", "ok & (j != K)")
            + "    j = xp.clip(-Q, 0.0, jt)\n    ok = (-Q >= 0.0) & (-Q <= jt)\n"
            + blocks("lo0hi", "j", "1.0", "ok & (j == K)") + blocks("lo0", "j", "1.0", "ok & (j != K)")
            + blocks("hi", "K", "1.0", "(K <= jt) & (K != -Q - 1.0) & (K != -Q)")
            + "    far = xp.where(d >= 2.0 * (K + rho), 1.0, far)\n")
    return helpers, body
