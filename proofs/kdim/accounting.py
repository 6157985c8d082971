"""Sections 8-10 of the kdim topic: zCDP against the exact Renyi divergence, Algorithm 2 against the PLD (erratum K3), the reproduction facts (errata K4, K5)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import sympy as sp
from mpmath import mp, mpf

import fhsym

from .. import _mp as M
from .._harness import cross_check, erratum_confirmed, Outcome, verified

from ._base import al, g, K3, K4, K5, Lam, topic
from .lemmas import rho_mp


# ---------------------------------------------------------------------------
# 8. zCDP
# ---------------------------------------------------------------------------


@topic.check(obj="zcdp_1d", paper="slides: zCDP of FH", claim="D_Lambda(FH || FH + d) <= R_Delta(alpha)/(2gamma^2) + Lambda Delta^2/(2gamma^2) for |d| <= Delta, Lambda in (1, 64] (exact Renyi divergence by quadrature)")
def zcdp_renyi(ctx) -> Outcome:
    from .. import reference as R

    rng = ctx.rng()
    worst, where = -mpf(1), ""
    n = ctx.n(40, 6)
    with mp.workdps(30):
        for _ in range(n):
            b = mpf(float(10 ** rng.uniform(-2, 1)))
            Dd = mpf(float(10 ** rng.uniform(-1, 0.5)))  # Delta/gamma
            d = Dd * mpf(float(rng.uniform(0.2, 1.0)))
            lam = mpf(float(1 + 10 ** rng.uniform(-2, 1.8)))
            Z = R.normaliser(b, dps=30)
            # int g(s)^Lam g(s - d)^{1 - Lam} ds (standard units), g = e^{-rho}/Z
            f = lambda s: mpmath.exp(-lam * rho_mp(s, b) - (1 - lam) * rho_mp(s - d, b)) / Z  # noqa: E731
            I = mpmath.quad(f, [-mp.inf, -b, 0, b, d - b, d, d + b, mp.inf])
            Dren = mpmath.log(I) / (lam - 1)
            bound = (b * b - max(b - Dd, 0) ** 2) / 2 + lam * Dd * Dd / 2
            ex = Dren - bound
            if ex > worst:
                worst, where = ex, f"b={float(b):.3g}, Delta/gamma={float(Dd):.3g}, d={float(d):.3g}, Lambda={float(lam):.3g}"
    ok = worst <= 0
    ev = [f"- {n} random cases: max(D_Lambda - (xi + Lambda eta)) = {M.fmt(float(worst))} (<= 0); proof: zeta_d <= zeta^(u)_d (eq 18) "
          "and M_FH(u) <= e^{gamma^2 u^2/2} (Lemma 2, distribution topic)"]
    return verified(bool(ok), "the bound vs the Renyi divergence by quadrature of its definition", n, "30 digits",
                    f"max excess {M.fmt(float(worst))}", where, ev)


@topic.check(obj="zcdp_kdim", paper="slides / Sec VI-A", claim="K-dim: (K R_Delta/(2gamma^2), Delta_2^2/(2gamma^2)) by additivity; fhsym's refined xi = K R_c/(2gamma^2), c = min(Delta, Delta_2/sqrt K, Delta_1/K), is the exact max over the set")
def zcdp_kdim(ctx) -> Outcome:
    # additivity: D_Lambda of a product = sum; each coordinate <= R_{|d_i|}/(2g^2) + Lambda d_i^2/(2g^2)
    ds = sp.symbols("d1:4", positive=True)
    total = sum((al**2 - sp.Max(al - x, 0) ** 2) / (2 * g**2) + Lam * x**2 / (2 * g**2) for x in ds)
    eta_part = sp.simplify(sp.diff(total, Lam) - sum(x**2 for x in ds) / (2 * g**2)) == 0
    # Schur-concavity: R_c concave in c (second derivative -2 on c < alpha, 0 beyond) -> sum maximised at the uniform vector
    c = sp.Symbol("c", positive=True)
    conc = sp.diff(2 * al * c - c**2, c, 2) == -2 and sp.diff(al**2, c, 2) == 0
    # numeric: refined xi <= paper xi, and equality in the box
    from fhsym.accounting.zcdp import zcdp_params

    rng = ctx.rng()
    ok_num = True
    for _ in range(ctx.n(200, 20)):
        K = int(rng.integers(1, 50))
        a, gm = float(10 ** rng.uniform(-2, 1)), float(10 ** rng.uniform(-1, 1))
        d2 = float(rng.uniform(1.0, math.sqrt(K)))
        p = zcdp_params(a, gm, 1.0, K, d2)
        r = zcdp_params(a, gm, 1.0, K, d2, refine=True)
        box = zcdp_params(a, gm, 1.0, K, None, refine=True)
        ok_num &= r[0] <= p[0] * (1 + 1e-15) and r[1] == p[1] and abs(box[0] - zcdp_params(a, gm, 1.0, K)[0]) <= 1e-15 * box[0]
    ok = bool(eta_part and conc and ok_num)
    ev = [f"- Renyi divergences of product measures add; the Lambda-coefficient of the sum is ||d||_2^2/(2 gamma^2): {eta_part}",
          f"- R_c(alpha) is concave in c (second derivative -2 then 0): {conc}; so sum_i R_{{|d_i|}} is Schur-concave and maximal at the "
          "uniform vector, which stays in the set; refined xi <= paper xi, equal in the box (random cases): " + str(ok_num)]
    return cross_check(ok, "SymPy (additivity, concavity) + fhsym.accounting.zcdp refined vs unrefined", "0 violations" if ok else "violated", "", ev)


# ---------------------------------------------------------------------------
# 9. Algorithm 2
# ---------------------------------------------------------------------------


@topic.check(obj="kdim_profile", paper="Algorithm 2", claim="iterative integration (K = 2) agrees with the PLD bracket; the two are independent computations")
def algorithm2_vs_pld(ctx) -> Outcome:
    from fhsym.accounting import kdim_pld
    from fhsym.accounting.iterative import iterative_profile

    rng = ctx.rng()
    out_of = 0
    worst_rel, where = 0.0, ""
    n = ctx.n(8, 3)
    for _ in range(n):
        a, gm = float(10 ** rng.uniform(-1, 0.7)), float(10 ** rng.uniform(0, 0.7))
        e = float(rng.uniform(0.1, 2.0))
        v, err = iterative_profile(e, a, gm, 2)
        lo, up = kdim_pld(a, gm, 2, 1.0).delta_bounds(e)
        inside = lo - err[0] <= v[0] <= up + err[0]
        out_of += not inside
        rel = (up - lo) / max(v[0], 1e-300)
        if rel > worst_rel:
            worst_rel, where = rel, f"alpha={a:.3g}, gamma={gm:.3g}, eps={e:.3g}"
    ok = out_of == 0
    ev = [f"- {n} random cases: Algorithm 2 value within the PLD bracket (+- its own error estimate) in all but {out_of}; widest bracket "
          f"(upper - lower)/value = {worst_rel:.2e}"]
    return cross_check(ok, "fhsym.accounting.iterative (Algorithm 2) vs fhsym's PLD bracket", f"bracket {worst_rel:.1e}", where, ev)


@topic.check(obj="kdim_profile", paper="Algorithm 2, line 4", claim="the printed recursion uses eps instead of nu: read literally it returns delta^(2) for every K >= 2")
def algorithm2_typo(ctx) -> Outcome:
    from fhsym.accounting import kdim_pld

    # literal: delta^(k)(nu) = int g(t) delta^(k-1)(eps - zeta(t)) dt does not depend on nu, so delta^(k) = delta^(2)(eps) for k >= 2
    a, gm, e = 1.0, 2.0, 1.0
    d2 = kdim_pld(a, gm, 2, 1.0).delta_bounds(e)
    d3 = kdim_pld(a, gm, 3, 1.0).delta_bounds(e)
    differ = d3[0] > d2[1]
    ev = [f"- literal reading: delta^(3)_literal(eps) = delta^(2)(eps) in [{d2[0]:.6e}, {d2[1]:.6e}], but the exact delta^(3)(eps) is in "
          f"[{d3[0]:.6e}, {d3[1]:.6e}] (alpha = 1, gamma = 2, Delta = 1, eps = 1): the typo would under-state delta",
          "- fhsym.accounting.iterative implements the corrected recursion delta^(k)(nu) = int g(t) delta^(k-1)(nu - zeta_Delta(t)) dt"]
    cx = f"alpha = 1, gamma = 2, Delta = 1, eps = 1: the literal line 4 gives delta^(3) = delta^(2) <= {d2[1]:.6e} < {d3[0]:.6e} <= the exact delta^(3)"
    return erratum_confirmed(bool(differ), K3, cx, "counterexample: fhsym's PLD (certified bounds)", f"{d3[0] / d2[1]:.3f}x", ev)


# ---------------------------------------------------------------------------
# 10. reproduction facts
# ---------------------------------------------------------------------------

TABLE2_EPS = (0.2, 0.4, 1.0, 2.2, 5.0)
TABLE2_FH = (7237.09, 1971.36, 359.57, 87.09, 19.49)


@topic.check(obj="theorem8_lhs", paper="Table II", claim="the FH (sufficient) row lies in the bracket [min variance at delta = 1e-6, min variance at delta = 1e-8) of Theorem 8, for every eps: consistent with 1e-6, impossible at 1e-8")
def table2_delta(ctx) -> Outcome:
    from fhsym.accounting.sufficient import theorem8_minimum as t8

    # asserted, fixed before the numbers were seen (bounds 0, no tolerance window): at 1e-6 paper >= Theorem 8's minimum
    # (a grid search cannot beat the continuous optimum); at 1e-8 paper < the minimum (so it cannot satisfy Theorem 8 there)
    rows = [[fhsym.FlippedHuber(*t8(e, dl, 20, 1.0, math.sqrt(20), 20.0)).var() for e in TABLE2_EPS] for dl in (1e-6, 1e-8)]
    at6 = [p >= x for p, x in zip(TABLE2_FH, rows[0])]
    at8 = [p < x for p, x in zip(TABLE2_FH, rows[1])]
    dev6 = [(p - x) / p for p, x in zip(TABLE2_FH, rows[0])]  # information only, as dev8
    dev8 = [(x - p) / p for p, x in zip(TABLE2_FH, rows[1])]
    ok = all(at6) and all(at8)
    ev = [
        "| eps | paper | Theorem 8 minimum, delta = 1e-6 | Theorem 8 minimum, delta = 1e-8 | min(1e-6) <= paper < min(1e-8) |",
        "|---|---|---|---|---|",
        *[f"| {e} | {p} | {a:.2f} | {b:.2f} | {u and w} |" for e, p, a, b, u, w in zip(TABLE2_EPS, TABLE2_FH, rows[0], rows[1], at6, at8)],
        "- asserted (bounds fixed a priori, no tolerance): each printed value is >= the minimum at delta = 1e-6 (a grid search cannot "
        "beat the continuous optimum) and < the minimum at delta = 1e-8 (a value below the minimum cannot satisfy Theorem 8 at 1e-8)",
        f"- information, not a pass criterion: the paper is above the 1e-6 minimum by {min(dev6):.2%} .. {max(dev6):.2%}; the 1e-8 "
        f"minimum is above the paper by {min(dev8):.0%} .. {max(dev8):.0%}",
        "- the minima: `fhsym.accounting.sufficient.theorem8_minimum` (a search over b = alpha/gamma, not a proof over all b); that the "
        "table is at exactly 1e-6 is consistent with these numbers and the talk slides, not proven"]
    cx = (f"at delta = 1e-8 Theorem 8's minimum variance is above every FH value of Table II (by {min(dev8):.0%} or more), so "
          "the table cannot be at 1e-8; at delta = 1e-6 every printed value is at or above the minimum")
    return erratum_confirmed(bool(ok), K4, cx, "fhsym's Theorem 8 minimum at delta = 1e-6 and 1e-8 vs the printed table (bracket)",
                             f"{sum(at6)}/5 >= min(1e-6), {sum(at8)}/5 < min(1e-8)", ev)


@topic.check(obj="kdim_profile", paper="Sec V-B (K = 5, eps = 0.3)", claim="the paper's exact variance 502 is infeasible: a certified lower bound on the exact minimum exceeds it", quick=False)
def k5_exact_502(ctx) -> Outcome:
    from scipy import optimize

    from fhsym.accounting import kdim_pld

    eps, dl, K = 0.3, 1e-8, 5
    # for each shape b, D_lo(b) = largest D with the certified LOWER bound <= delta: every feasible D is below it,
    # so v(b)/D_lo(b)^2 lower-bounds the variance at that shape
    bs = [0.0] + list(np.geomspace(0.05, 200, ctx.n(40, 8)))
    best, arg = math.inf, None
    for b in bs:
        f = lambda lD, b=b: float(kdim_pld(b, 1.0, K, math.exp(lD)).delta_lower(eps)) - dl  # noqa: E731
        if f(0.0) <= 0:  # private even at D = Delta/gamma = 1
            continue
        r = optimize.brentq(f, math.log(1e-4), 0.0, xtol=1e-9)
        while f(r) <= 0:
            r += 1e-9
        val = fhsym.FlippedHuber(b, 1.0).var() / math.exp(r) ** 2  # v(b), eq 11
        if val < best:
            best, arg = val, b
    ok = best > 502
    cal = fhsym.calibrate(eps, dl, dim=K, method="exact")  # fhsym's certified exact optimum, computed here (not quoted)
    ev = [f"- min over {len(bs)} shapes b of v(b)/D_lower(b)^2 = {best:.2f} (at b = {arg:.3g}) > 502; fhsym's certified exact calibration "
          f"(`fhsym.calibrate(0.3, 1e-8, dim=5, method='exact')`, run in this check) gives {cal.variance:.2f} (alpha = {cal.alpha:.2f}, "
          f"gamma = {cal.gamma:.2f}, certified delta {cal.achieved_delta:.4g}); the pure-DP Laplace mechanism with Delta_1 = 5 gives "
          f"(scale K/eps) 2 (K/eps)^2 = {2 * (K / eps) ** 2:.2f}; Theorem 8's infimum is the same Laplace limit (the paper's 557 'sufficient' is consistent with it)",
          "- a grid of shapes, not a proof over all b; the lower bound is loose where delta comes from the tail just beyond a loss "
          "atom (docs/kdim.md), which only makes this bound smaller"]
    cx = f"a certified lower bound on the exact minimum variance is {best:.1f} > 502 (min over {len(bs)} shapes)"
    return erratum_confirmed(bool(ok), K5, cx, "counterexample: fhsym's PLD (certified lower bounds)", f"lower bound {best:.1f}", ev)
