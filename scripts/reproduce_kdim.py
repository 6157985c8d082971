"""Reproduce the paper's K-dimensional results (Fig 4, the K = 5 numbers, Table II) and go beyond them.

    python scripts/reproduce_kdim.py [--out docs/reproduction/kdim.md] [--quick]

Writes a markdown report (checked in at ``docs/reproduction/kdim.md``); with matplotlib installed
(optional extra ``plot``) also ``docs/figures/fig4_kdim_variances.png``; the Fig 4 numbers go to
``docs/reproduction/data/kdim_fig4.json``.  Every variance in the fhsym
columns comes from a *certified* calibration (the returned parameters are re-checked with a certified
upper bound on delta and never under-noise); the paper's values are quoted from its LaTeX
(Muthukrishnan and Kalyani, arXiv:2212.09657).  Takes ~10 minutes on 2 cores (``--quick``: a subset).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np
from scipy import optimize

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import fhsym  # noqa: E402
from fhsym.accounting import kdim_pld  # noqa: E402
from fhsym.accounting.pld import from_privacy_profile, laplace_pld  # noqa: E402
from fhsym.accounting.zcdp import zcdp_params, zcdp_to_dp  # noqa: E402
from fhsym.noise import OSGT  # noqa: E402
from fhsym.noise.osgt import osgt_profile  # noqa: E402

CERTIFICATION_MARGIN = OSGT.profile_rtol  # the float profile's relative error, in the PLD's discretisation


def _v(b: float) -> float:  # v(b) = Var FH(b, 1), eq 11
    return fhsym.FlippedHuber(b, 1.0).var()


def calibrate_kdim(eps: float, delta: float, K: int, method: str):
    return fhsym.calibrate(eps, delta, dim=K, method=method)


def calibrate_gaussian(eps: float, delta: float, sensitivity: float):
    return fhsym.calibrate(eps, delta, sensitivity=sensitivity, mechanism="gaussian")


def calibrate_laplace(eps: float, delta: float, l1: float):  # pure DP at l1 sensitivity (delta = 0)
    return fhsym.calibrate(eps, delta, sensitivity=l1, mechanism="laplace")


def calibrate_staircase(eps: float, sensitivity: float):
    return fhsym.calibrate(eps, 0.0, sensitivity=sensitivity, mechanism="staircase")


PAPER_TABLE2 = {
    "eps": (0.2, 0.4, 1.0, 2.2, 5.0),
    "fh_sufficient": (7237.09, 1971.36, 359.57, 87.09, 19.49),
    "laplace": (2e4, 5000.0, 800.0, 165.29, 32.0),
    "staircase": (19999.92, 4999.92, 799.92, 165.21, 31.92),
}


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------
# K-fold calibrations of the comparison mechanisms (the paper used iterative integration / closed forms)
# ---------------------------------------------------------------------------


def _certify_scale(delta_of, x0: float, target: float, increasing_privacy_with_x: bool = True) -> float:
    """Smallest x (up to 1e-7 relative, then rounded to the feasible side) with delta_of(x) <= target (1 - 1e-9)."""
    thr = target * (1 - 1e-9)
    f = lambda lx: math.log(max(delta_of(math.exp(lx)), 1e-300)) - math.log(thr)  # noqa: E731
    lo, hi = math.log(x0) - 0.5, math.log(x0) + 0.5
    while f(lo) <= 0:
        lo -= 1.0
    while f(hi) > 0:
        hi += 1.0
    r = optimize.brentq(f, lo, hi, xtol=1e-8)
    while f(r) > 0:
        r += 1e-8
    return math.exp(r)


def laplace_kfold_variance(eps: float, delta: float, K: int) -> float:
    """i.i.d. Laplace(beta) per coordinate, Delta = 1: least beta with the certified K-fold PLD upper bound <= delta."""

    def d_of(beta: float) -> float:
        return float(laplace_pld(beta, 1.0, step=(1.0 / beta) / 400, upper_only=True).self_compose(K).delta_upper(eps))

    beta = _certify_scale(d_of, K / eps * 0.7, delta)
    return 2 * beta * beta


def osgt_kfold_variance(eps: float, delta: float, K: int) -> float:
    """Minimum-variance i.i.d. OSGT (unconstrained in (vartheta, varrho)) under the certified K-fold PLD upper bound."""

    def v_of(theta: float) -> float:
        return OSGT(theta, 1.0).variance()

    def D_star(theta: float) -> float:
        def d_of(inv_s: float) -> float:  # inv_s = varrho/Delta
            s = 1.0 / inv_s
            scale = s * max(1.0, theta)
            prof = lambda e: osgt_profile(np.asarray(e, dtype=float), s, theta, 1.0)  # noqa: E731
            pld = from_privacy_profile(prof, scale / 400, profile_rtol=CERTIFICATION_MARGIN, scale=scale, upper_only=True)
            return float(pld.self_compose(K).delta_upper(eps))

        g = calibrate_gaussian(eps, delta, math.sqrt(K)).mechanism.sigma
        return 1.0 / _certify_scale(d_of, g, delta)

    def obj(lt: float) -> float:
        th = math.exp(lt)
        return v_of(th) / D_star(th) ** 2

    grid = np.linspace(math.log(0.05), math.log(30.0), 10)
    vals = [obj(x) for x in grid]
    i = int(np.argmin(vals))
    best = vals[i]
    if 0 < i < len(grid) - 1:
        res = optimize.minimize_scalar(obj, bounds=(grid[i - 1], grid[i + 1]), method="bounded", options={"xatol": 1e-3})
        best = min(best, float(res.fun))
    return best


def fh_exact_lower_bound_on_min(eps: float, delta: float, K: int, n_b: int = 40) -> tuple:
    """min over a grid of shapes b of v(b)/D_low(b)^2, D_low from the certified *lower* bound: below the exact minimum."""
    best, arg = math.inf, None
    for b in [0.0] + list(np.geomspace(0.05, 200, n_b)):
        f = lambda lD: float(kdim_pld(b, 1.0, K, math.exp(lD)).delta_lower(eps)) - delta  # noqa: E731
        if f(math.log(1.0)) <= 0:
            continue
        r = optimize.brentq(f, math.log(1e-4), 0.0, xtol=1e-9)
        while f(r) <= 0:
            r += 1e-9
        val = _v(b) / math.exp(r) ** 2
        if val < best:
            best, arg = val, b
    return best, arg


def db(x: float) -> float:
    return 10 * math.log10(x)


# ---------------------------------------------------------------------------


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "reproduction" / "kdim.md")
    ap.add_argument("--quick", action="store_true")
    ns = ap.parse_args()
    t0 = time.perf_counter()
    L = []
    w = L.append
    w("# Reproduction: K dimensions (paper Sec V-B, Fig 4, Table II) and beyond")
    w("")
    w("Generated by `python scripts/reproduce_kdim.py`; do not edit by hand. Per-coordinate noise variances; "
      "Delta = 1 (l_inf), Delta_2 = sqrt(K), Delta_1 = K (the box). Every fhsym variance comes from a certified "
      "calibration: at the returned floats a proven upper bound on delta(eps) is <= delta (claim `pld-kfold`: the "
      "K-fold profile at the box corner by the exact-arithmetic PLD of `fhsym.accounting.pld_exact`; at alpha = 0 the "
      "Gaussian profile at sqrt(K) Delta in ball arithmetic; docs/certificates.md), so it never under-noises. "
      "'exact' = the exact "
      "condition delta_K(eps) <= delta for i.i.d. noise; its worst case over the box is d = (1, ..., 1) "
      "(`fhsym.accounting.kdim`).")
    w("")

    # ---------------------------------------------------------------- Fig 4
    eps_fig4 = [0.1, 0.3, 1.0, 2.0] if ns.quick else [0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0]
    fig = {}
    for K in (3, 5):
        w(f"## Fig 4, K = {K}, delta = 1e-8")
        w("")
        w("| eps | FH exact | FH sufficient (Thm 8) | Gaussian (analytic, Delta_2) | OSGT (exact K-fold) | FH exact vs Gaussian |")
        w("|---|---|---|---|---|---|")
        rows = []
        for e in eps_fig4:
            log(f"Fig 4: K={K}, eps={e}")
            ex = calibrate_kdim(e, 1e-8, K, method="exact")
            su = calibrate_kdim(e, 1e-8, K, method="sufficient")
            ga = calibrate_gaussian(e, 1e-8, math.sqrt(K)).variance
            os_ = osgt_kfold_variance(e, 1e-8, K)
            rows.append((e, ex.variance, su.variance, ga, os_))
            w(f"| {e} | {ex.variance:.4g} | {su.variance:.4g} | {ga:.4g} | {os_:.4g} | {db(ga / ex.variance):+.2f} dB |")
        fig[K] = rows
        w("")
    w("![Fig 4: minimum per-coordinate variances against eps for K = 3 and 5; lower panels: excess over FH exact]"
      "(../figures/fig4_kdim_variances.png)")
    w("")
    w("Fig 4 redrawn (`docs/figures/fig4_kdim_variances.png`, data `data/kdim_fig4.json`). FH exact, FH sufficient and "
      "OSGT coincide on the log scale; the lower panels show their excess variance over FH exact.")
    w("")
    if 0.3 in eps_fig4:
        imp = {K: db(next(r[3] / r[1] for r in fig[K] if r[0] == 0.3)) for K in (3, 5)}
        w(f"Paper (Sec V-B): 'compared to K = 3, the improvement of flipped Huber over Gaussian reduces by 1.7 dB at eps = 0.3'. "
          f"fhsym: {imp[3]:.2f} dB (K = 3) and {imp[5]:.2f} dB (K = 5), a reduction of {imp[3] - imp[5]:.2f} dB "
          "(exact condition for both).")
        w("")

    # ---------------------------------------------------------------- K = 5, eps = 0.3
    log("K = 5, eps = 0.3")
    ex = calibrate_kdim(0.3, 1e-8, 5, method="exact")
    su = calibrate_kdim(0.3, 1e-8, 5, method="sufficient")
    lap_pure = calibrate_laplace(0.3, 0.0, 5.0).variance
    lb, lb_b = fh_exact_lower_bound_on_min(0.3, 1e-8, 5, n_b=12 if ns.quick else 40)
    w("## K = 5, eps = 0.3, delta = 1e-8 (paper: 502 exact, 557 sufficient)")
    w("")
    w("| quantity | paper | fhsym |")
    w("|---|---|---|")
    w(f"| FH variance, exact condition | 502 | {ex.variance:.2f} (alpha = {ex.alpha:.5g}, gamma = {ex.gamma:.5g}; certified delta {ex.achieved_delta:.3e}) |")
    w(f"| FH variance, sufficient condition (Theorem 8) | 557 | {su.variance:.2f} (alpha/gamma = {su.alpha / su.gamma:.3g}: the Laplace limit) |")
    w(f"| certified lower bound on the exact minimum (grid of shapes) | - | {lb:.2f} (at alpha/gamma = {lb_b:.3g}) |")
    w(f"| pure-DP Laplace with Delta_1 = 5 | - | {lap_pure:.2f} |")
    w("")
    w("The paper's exact value 502 is below fhsym's certified lower bound on the exact minimum: parameters with "
      "variance 502 are not (0.3, 1e-8)-DP in 5 dimensions (erratum K5, `proofs/REPORT.md`). At this eps the exact "
      "optimum is essentially the Laplace mechanism: FH with alpha/gamma >~ 4 whose loss atoms add up to eps; "
      "Theorem 8's infimum is the same Laplace limit 2 (K/eps)^2, approached as alpha/gamma -> inf (the paper's 557).")
    w("")

    # ---------------------------------------------------------------- Table II
    eps2 = PAPER_TABLE2["eps"]
    for dl in (1e-6, 1e-8):
        w(f"## Table II, K = 20, delta = {dl:g}")
        w("")
        w("| eps | FH suff. (paper) | FH suff. (fhsym) | FH exact (fhsym) | Gaussian analytic, Delta_2 | Laplace pure, Delta_1 (paper) | "
          "Laplace pure (fhsym) | Laplace exact 20-fold (fhsym) | staircase indep. (paper) | staircase indep. (fhsym) |")
        w("|---|---|---|---|---|---|---|---|---|---|")
        for i, e in enumerate(eps2):
            log(f"Table II: delta={dl:g}, eps={e}")
            suv = calibrate_kdim(e, dl, 20, method="sufficient").variance
            exv = calibrate_kdim(e, dl, 20, method="exact").variance
            ga = calibrate_gaussian(e, dl, math.sqrt(20)).variance
            lp = calibrate_laplace(e, 0.0, 20.0).variance
            lk = laplace_kfold_variance(e, dl, 20)
            stc = calibrate_staircase(e / 20, 1.0).variance
            w(f"| {e} | {PAPER_TABLE2['fh_sufficient'][i]} | {suv:.2f} | {exv:.2f} | {ga:.2f} | {PAPER_TABLE2['laplace'][i]:g} | "
              f"{lp:.2f} | {lk:.2f} | {PAPER_TABLE2['staircase'][i]} | {stc:.2f} |")
        w("")
    w("Which delta is Table II at? The FH (sufficient) row is reproduced at **delta = 1e-6** (fhsym's continuous optimum is "
      "0.1-4% below the paper's grid search, as it must be), and not at delta = 1e-8 (30-55% above the paper), so the "
      "talk slides ('K = 20 dimensions for delta = 1e-6') are right and the text's 'same simulation setup' (delta = 1e-8) is "
      "not (erratum K4). The Laplace and staircase rows do not depend on delta (pure DP: Laplace with Delta_1 = 20, "
      "staircase with eps/20 per coordinate).")
    w("")
    w("What the paper could not compute: the exact FH condition at K = 20 and the analytic Gaussian with Delta_2. At K = 20 "
      "the exact FH optimum is within 0.01% of the analytic Gaussian (the optimal alpha/gamma is small, FH ~ Gaussian), so the "
      "large gains of Table II are over Laplace/staircase, not over the Gaussian mechanism. The exact 20-fold Laplace "
      "(i.i.d. Laplace, delta > 0 used through composition) is far better than the pure l_1 Laplace the paper lists.")
    w("")

    # ---------------------------------------------------------------- dimension sweep
    Ks = [1, 2, 5, 20, 100] if ns.quick else [1, 2, 5, 20, 100, 1000]
    w("## Beyond the paper: FH (exact) against the Gaussian as K grows, eps = 1, delta = 1e-6")
    w("")
    w("| K | FH exact variance | alpha/gamma | Gaussian analytic (Delta_2 = sqrt K) | FH gain |")
    w("|---|---|---|---|---|")
    for K in Ks:
        log(f"dimension sweep K={K}")
        c = fhsym.calibrate(1.0, 1e-6) if K == 1 else calibrate_kdim(1.0, 1e-6, K, method="exact")
        ga = calibrate_gaussian(1.0, 1e-6, math.sqrt(K)).variance
        w(f"| {K} | {c.variance:.6g} | {c.alpha / c.gamma:.3g} | {ga:.6g} | {db(ga / c.variance):+.3f} dB |")
    w("")

    # ---------------------------------------------------------------- composition
    log("composition")
    c20 = calibrate_kdim(1.0, 1e-6, 20, method="exact")
    w("## Composition over L rounds (K = 20, the eps = 1, delta = 1e-6 calibration above)")
    w("")
    w("| L | eps(1e-6), exact PLD (certified upper / lower) | eps(1e-6), zCDP (slides' parameters) | eps(1e-6), zCDP refined |")
    w("|---|---|---|---|")
    for Lr in ([1, 10] if ns.quick else [1, 10, 100]):
        pld = kdim_pld(c20.alpha, c20.gamma, 20, rounds=Lr)
        e_lo, e_up = pld.epsilon_bounds(1e-6)
        xi, eta = zcdp_params(c20.alpha, c20.gamma, 1.0, 20)
        z = zcdp_to_dp(Lr * xi, Lr * eta, 1e-6)
        xi2, eta2 = zcdp_params(c20.alpha, c20.gamma, 1.0, 20, refine=True)
        z2 = zcdp_to_dp(Lr * xi2, Lr * eta2, 1e-6)
        w(f"| {Lr} | {e_up:.5f} / {e_lo:.5f} | {z:.5f} | {z2:.5f} |")
    w("")
    w("zCDP (the paper's composition route, CKS conversion) is valid but loose; the PLD is exact up to its bracket.")
    w("")
    w(f"(fhsym {fhsym.__version__}; run time {time.perf_counter() - t0:.0f} s{' (--quick)' if ns.quick else ''}.)")
    ns.out.parent.mkdir(parents=True, exist_ok=True)
    ns.out.write_text("\n".join(L) + "\n")
    log(f"wrote {ns.out}")
    data_path = ns.out.parent / "data" / "kdim_fig4.json"
    data_path.parent.mkdir(parents=True, exist_ok=True)
    labels = ["Flipped Huber (exact)", "Flipped Huber (sufficient, Thm 8)", "Gaussian (analytic, Delta_2)",
              "OSGT (exact K-fold)"]
    fig4 = {"generator": "scripts/reproduce_kdim.py", "fhsym_version": fhsym.__version__, "delta": 1e-8,
            "note": "per-coordinate minimum variances, Delta = 1, Delta_2 = sqrt(K); certified calibrations",
            "panels": {str(K): {"epsilon": [r[0] for r in fig[K]],
                                "variances": {lab: [r[j + 1] for r in fig[K]] for j, lab in enumerate(labels)}}
                       for K in fig},
            "paper": {"5": {"Flipped Huber (exact)": {"0.3": 502.0}, "Flipped Huber (sufficient, Thm 8)": {"0.3": 557.0}}}}
    data_path.write_text(json.dumps(fig4, indent=1) + "\n")
    log(f"wrote {data_path}")
    try:
        from fhsym import plotting
    except ImportError:
        log("matplotlib not installed: no figure (optional extra 'plot')")
        return
    try:
        figp = plotting.kdim_variance_figure(
            {int(K): (p["epsilon"], p["variances"]) for K, p in fig4["panels"].items()}, delta=1e-8,
            paper={int(K): {lab: {float(e): v for e, v in pts.items()} for lab, pts in d.items()}
                   for K, d in fig4["paper"].items()})
    except ImportError:
        log("matplotlib not installed: no figure (optional extra 'plot')")
        return
    png = plotting.save(figp, ns.out.parent.parent / "figures" / "fig4_kdim_variances.png")
    log(f"wrote {png}")

if __name__ == "__main__":
    main()
