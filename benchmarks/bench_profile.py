"""Speed of calibration and of the vectorised privacy profile, against baselines run in the same process.

    python benchmarks/bench_profile.py [--eps 0.3 1 3] [--delta 1e-6] [--grid 1000] [--points 1000000]

1. ``fhsym.calibrate(eps, delta)`` (certified: 60-digit mpmath re-check of the returned floats)
   against a paper-style grid search: ``--grid`` x ``--grid`` points (alpha, gamma) in
   [0.02, 150] x [0.02, 50], the exact profile evaluated at every point by the same vectorised
   ``fhsym.privacy_profile`` (broadcast over alpha and gamma), the smallest variance among the
   feasible points.  Prints both times, their ratio, and the variance each finds.
2. The vectorised FH profile against the vectorised Gaussian profile over ``--points`` points:
   (a) 10^6 values of eps at fixed parameters; (b) 10^6 (alpha, gamma) pairs at fixed eps.  Baselines:
   fhsym's stable Gaussian profile (``fhsym.noise.gaussian``) and the textbook scipy form
   Phi(D/2s - eps s/D) - e^eps Phi(-D/2s - eps s/D) (Balle & Wang 2018) as other libraries write it.

Times are medians over ``--repeat`` runs; no timing is asserted anywhere in the tests.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from scipy import special

import fhsym
from fhsym._generated import flipped_huber as FHK
from fhsym.noise.gaussian import gaussian_profile


def median_time(fn, repeat: int):
    out = fn()  # warm up (and keep the result)
    ts = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts), out


def grid_search(eps: float, delta: float, n: int, sensitivity: float = 1.0):
    """Paper-style search: every (alpha, gamma) of an n x n grid, the feasible one of least variance."""
    alpha = np.linspace(0.02, 150.0, n)[:, None]
    gamma = np.linspace(0.02, 50.0, n)[None, :]
    d = fhsym.privacy_profile(eps, alpha, gamma, sensitivity)
    b = alpha / gamma
    var = gamma**2 * FHK.variance_std(b, FHK.log_omega_tilde(b))  # the generated kernel behind FlippedHuber.var
    var = np.where(d <= delta, var, np.inf)
    i = np.unravel_index(np.argmin(var), var.shape)
    return float(var[i]), float(alpha[i[0], 0]), float(gamma[0, i[1]])


def textbook_gaussian_profile(eps, d, sigma):
    a = d / (2.0 * sigma)
    b = eps * sigma / d
    return special.ndtr(a - b) - np.exp(eps) * special.ndtr(-a - b)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--eps", type=float, nargs="+", default=[0.3, 1.0, 3.0])
    ap.add_argument("--delta", type=float, default=1e-6)
    ap.add_argument("--grid", type=int, default=1000)
    ap.add_argument("--points", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    ns = ap.parse_args()

    print(f"1. calibrate vs a {ns.grid} x {ns.grid} grid search over (alpha, gamma) in [0.02, 150] x [0.02, 50], "
          f"delta = {ns.delta:g}, Delta = 1")
    print(f"{'eps':>6} {'calibrate [s]':>14} {'grid [s]':>10} {'speed-up':>9} {'var calibrate':>15} "
          f"{'var grid':>13} {'grid/cal - 1':>13}  certified delta")
    for eps in ns.eps:
        t_cal, cal = median_time(lambda: fhsym.calibrate(eps, ns.delta), ns.repeat)
        t_grid, (v_grid, a_grid, g_grid) = median_time(lambda: grid_search(eps, ns.delta, ns.grid), 1)
        print(f"{eps:6g} {t_cal:14.4f} {t_grid:10.3f} {t_grid / t_cal:8.1f}x {cal.variance:15.8g} {v_grid:13.8g} "
              f"{v_grid / cal.variance - 1:+13.2e}  {cal.achieved_delta:.4g}")

    n = ns.points
    print(f"\n2. vectorised profiles over {n:,} points (median of {ns.repeat}); ratio = time(FH) / time(baseline)")
    eps = np.linspace(0.0, 10.0, n)
    t_fh, _ = median_time(lambda: fhsym.privacy_profile(eps, 1.0, 2.0, 1.0), ns.repeat)
    t_fh0, _ = median_time(lambda: fhsym.privacy_profile(eps, 0.0, 2.0, 1.0), ns.repeat)
    t_g, _ = median_time(lambda: gaussian_profile(eps, 1.0, 2.0), ns.repeat)
    t_tb, _ = median_time(lambda: textbook_gaussian_profile(eps, 1.0, 2.0), ns.repeat)
    print(f"(a) eps in [0, 10], alpha = 1, gamma = 2: FH {t_fh:.3f} s (alpha = 0: {t_fh0:.3f} s), "
          f"Gaussian (fhsym, stable) {t_g:.3f} s, Gaussian (textbook scipy) {t_tb:.3f} s")
    print(f"    FH / Gaussian(fhsym) = {t_fh / t_g:.2f}x, FH / FH(alpha = 0) = {t_fh / t_fh0:.2f}x, "
          f"FH / Gaussian(textbook) = {t_fh / t_tb:.2f}x  (target <= 2x)")
    exact = fhsym.privacy_profile(eps, 0.0, 2.0, 1.0)  # the Gaussian profile, 1e-13 against mpmath quadrature
    tb = textbook_gaussian_profile(eps, 1.0, 2.0)
    keep = exact > 1e-300
    rel = np.abs(tb[keep] - exact[keep]) / exact[keep]
    print(f"    the textbook form's price: worst relative error {np.max(rel):.2e} over these eps "
          f"({np.mean(rel > 1e-6):.0%} of points off by > 1e-6; {np.sum(tb[keep] <= 0)} values <= 0 where delta > 0)")
    rng = np.random.default_rng(0)
    a = rng.uniform(0.02, 150.0, n)
    g = rng.uniform(0.02, 50.0, n)
    t_fh, _ = median_time(lambda: fhsym.privacy_profile(1.0, a, g, 1.0), ns.repeat)
    t_tb, _ = median_time(lambda: textbook_gaussian_profile(1.0, 1.0, g), ns.repeat)
    print(f"(b) eps = 1, (alpha, gamma) uniform in [0.02, 150] x [0.02, 50]: FH {t_fh:.3f} s, "
          f"Gaussian (textbook scipy, sigma = gamma) {t_tb:.3f} s: FH / Gaussian = {t_fh / t_tb:.2f}x")


if __name__ == "__main__":
    main()
