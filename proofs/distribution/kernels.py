"""Stable kernels of :data:`fhsym.symbolic.stable.KERNELS`: the distribution family of the generic kernel check.

The check itself (stable form == paper form, negative control) is :mod:`proofs._kernels`;
this module says where to sample each kernel's arguments, how many digits its paper form
loses (the starting precision of the adaptive evaluation) and how SymPy closes its identity.
"""

from __future__ import annotations

import math
from typing import Dict, List, Optional, Tuple

import numpy as np
import sympy as sp

from fhsym.symbolic import definitions as D
from fhsym.symbolic import stable as S
from fhsym.symbolic.special import rewrite_naive

from .._kernels import Family, kernel_args, register_kernel_checks, satisfies
from .._symbolic import prove_equal, resolve_piecewise
from ._base import LN10, b, lg, topic

def _need(k, p: Dict[str, float]) -> float:
    """Digits the *paper* form of kernel k loses to cancellation at point p (an upper estimate).

    The default is the brief's b^2/ln 10 (terms that agree to e^{-b^2}); kernels whose
    paper form only subtracts b^2/2 from log omega, or cancels on another scale, say so.
    """
    bb = p.get("b", 1.0)
    base = 2 * max(0.0, -lg(bb)) + 2 * lg(1 + bb) + 10
    n = k.name
    if n in ("log_omega_tilde", "logpdf_center", "logpdf_tail", "logsf_tail", "sf_tail", "tail_mass"):
        return base + 2 * lg(1 + p.get("s", 0.0))
    if n in ("sf_center", "logsf_center"):  # 1/2 - (1 - e^{-bs}) e^{b^2/2}/(b omega) ~ e^{-bs}
        return base + bb * p["s"] / LN10
    if n == "isf_tail":
        return base + abs(p["logp"]) / LN10
    if n == "isf_tail_direct":
        return base - lg(p["p"])
    if n == "isf_center":  # 1 - b kappa (1/2 - p) ~ e^{-b^2} + b kappa p
        return base + min(bb * bb / LN10, -lg(p["p"]))
    if n in ("isf_center_near_half", "isf_tail_near_half"):
        return base - lg(p["h"])
    if n == "variance_std":  # x cosh x - sinh x = O(x^3), x = b^2/2
        return base + 4 * max(0.0, -lg(bb))
    if n == "fisher_std":
        return base + 2 * max(0.0, -lg(bb))
    if n in ("log_mgf_half_pos", "log_mgf_half_neg"):  # e^{mb} - 1
        return base + max(0.0, -lg(p["m"] * bb))
    if n in ("moment_std",):  # the paper form is the defining integrals: positive terms
        return base
    if n in ("sf_center_near_median", "sf_tail_near_median"):  # 1 - G(t) with G near 1/2
        return base + bb * p.get("s", 0.0) / LN10
    return base + bb * bb / LN10


NEED_CAP = 1200.0  # points whose paper form would need more digits are resampled (reported)
NEED_CAP_QUICK = 400.0


def _draw(rng: np.random.Generator, name: str, lo: float, hi: float, integer: bool = False) -> float:
    if integer:
        return int(rng.integers(int(math.ceil(lo)), int(math.floor(hi)) + 1))
    if name == "b":
        return float(math.exp(rng.uniform(math.log(lo), math.log(hi))))
    if rng.random() < 0.5:
        return float(rng.uniform(lo, hi))
    sign = -1.0 if hi <= 0 else 1.0
    big = max(abs(lo), abs(hi))
    small = min(abs(lo), abs(hi))
    small = max(small, big * 1e-12)
    return sign * float(math.exp(rng.uniform(math.log(small), math.log(big))))


def sample_kernel_points(k, n: int, rng: np.random.Generator, cap: float = NEED_CAP) -> Tuple[List[Tuple[float, ...]], Dict[str, int]]:
    """n random points of the kernel's domain satisfying its constraint, plus edge points.

    Edge points: b at both ends of its range, and s = b where the constraint is s <= b
    or s >= b (the point |t| = alpha).  Points whose paper form would need more than
    NEED_CAP digits are resampled and counted.
    """
    args = kernel_args(k)
    names = [a.name for a in args]
    ints = {a.name for a in args if a.is_integer}

    def ok(*vals) -> bool:
        return satisfies(k, vals)

    stats = {"random": 0, "edge": 0, "resampled_for_precision": 0, "rejected_by_constraint": 0}
    pts: List[Tuple[float, ...]] = []

    def draw_rest(fixed: Dict[str, float], tries: int = 20000):
        for _ in range(tries):
            vals = dict(fixed)
            for nm in names:
                if nm not in vals:
                    lo, hi = k.domain[nm]
                    vals[nm] = _draw(rng, nm, lo, hi, nm in ints)
            tup = tuple(vals[nm] for nm in names)
            if not ok(*tup):
                stats["rejected_by_constraint"] += 1
                continue
            if _need(k, vals) > cap:
                stats["resampled_for_precision"] += 1
                continue
            return tup
        return None

    while stats["random"] < n:
        p = draw_rest({})
        if p is None:
            break
        pts.append(p)
        stats["random"] += 1
    if "b" in names:
        lo, hi = k.domain["b"]
        for bb in (lo, hi):
            p = draw_rest({"b": bb}, tries=2000)
            if p is not None:
                pts.append(p)
                stats["edge"] += 1
    if "s" in names and isinstance(k.constraint, (sp.Le, sp.Ge)) and k.constraint.free_symbols == {b, D.s}:
        for _ in range(2):
            lo, hi = k.domain["b"]
            for _try in range(200):
                bb = _draw(rng, "b", lo, min(hi, k.domain["s"][1]))
                vals = {"b": bb, "s": bb}
                tup = tuple(vals.get(nm, 0.0) for nm in names)
                if ok(*tup) and _need(k, vals) <= cap:
                    pts.append(tup)
                    stats["edge"] += 1
                    break
    return pts, stats


def _kernel_symbolic(k, args) -> Tuple[str | None, List[str]]:
    """Prove rewrite_naive(expr) == paper (lw = log omega - b^2/2 on both sides); returns (strategy, notes).

    Unevaluated integrals in the paper form are evaluated (``doit``). A kernel with an
    integer argument (e.g. the moment order n) is proven for each of a few values of it
    (SymPy's integrals with a symbolic exponent do not reduce), and the numeric check
    covers its whole range.
    """
    nonneg = [a for a in args if a.name in k.domain and k.domain[a.name][0] >= 0]
    paper = k.paper.subs(S.lw, S.LW_PAPER)
    stable = rewrite_naive(k.expr).subs(S.lw, S.LW_PAPER)
    ints = [a for a in args if a.is_integer]
    notes: List[str] = []
    if not ints:
        rhs, notes = resolve_piecewise(paper.doit() if paper.has(sp.Integral) else paper, nonneg, k.constraint)
        return prove_equal(stable, rhs), notes
    (nsym,) = ints  # one integer argument
    lo, hi = (int(math.ceil(x)) for x in (k.domain[nsym.name][0], k.domain[nsym.name][1]))
    values = sorted({v for v in (lo, lo + 1, lo + 2, lo + 4) if v <= hi})
    hows = []
    for nv in values:
        rhs = paper.subs(nsym, nv)
        rhs = rhs.doit() if rhs.has(sp.Integral) else rhs
        rhs, nts = resolve_piecewise(rhs, nonneg, k.constraint)
        hows.append(prove_equal(stable.subs(nsym, nv), rhs))
    if all(hows):
        notes.append(f"symbolic for {nsym} in {values} (integer argument; the numeric check covers {lo}..{hi})")
        return f"{nsym} in {values}: " + "; ".join(sorted(set(hows))), notes
    notes.append(f"symbolic for {nsym} in {values}: not closed for {[v for v, h in zip(values, hows) if not h]}")
    return None, notes



def _sample(k, n: int, rng: np.random.Generator, ctx) -> Tuple[List[Tuple[float, ...]], Dict[str, int], str]:
    cap = NEED_CAP_QUICK if ctx.quick else NEED_CAP
    pts, stats = sample_kernel_points(k, n, rng, cap)
    stats["cap"] = cap
    names = [a.name for a in kernel_args(k)]
    note = ": b at its range ends" + (", s = b" if "s" in names and k.constraint is not None else "")
    return pts, stats, note


def _symbolic(k, pts) -> Tuple[Optional[str], List[str], Optional[str]]:
    """SymPy identity; a gap (at most VERIFIED) when an integer argument is proven for a few values only."""
    args = kernel_args(k)
    how, notes = _kernel_symbolic(k, args)
    ints = [a for a in args if a.is_integer]
    gap = f"closed only for a few values of the integer argument {ints[0]}" if ints else None
    return how, [f"- {x}" for x in notes], gap


FAMILY = Family("distribution", sample=_sample, need=_need, symbolic=_symbolic, f64_tol=1e-14)
KERNEL_NAMES = register_kernel_checks(topic, {"distribution": FAMILY}, __name__)
