"""Exact K = 20 flipped Huber profile (fhsym.kdim.pld) against dp_accounting's Laplace PLD, in one process.

    python benchmarks/bench_pld.py [--repeat 5] [--K 20]

For each discretisation h (the loss-lattice spacing, dp_accounting's ``value_discretization_interval``)
it prints the median wall time of

* dp_accounting: ``from_laplace_mechanism(1, sensitivity=1, value_discretization_interval=h)
  .self_compose(K)`` (pessimistic connect-the-dots; build + compose) -- the baseline;
* fhsym: ``flipped_huber_pld(alpha, gamma, 1, h).self_compose(K)`` for FH(alpha = 1, gamma = 1)
  (the same noise scale as Laplace(1): Delta/gamma = 1; FH's loss is unbounded, so its grid runs to
  delta(eps) <= 1e-18 instead of Laplace's |loss| <= 1), both bounds (the certified upper and the
  lower) and the upper bound alone;

the ratio fhsym / dp_accounting (target <= 2), and the bracket (upper - lower)/upper at eps = 1 and at
the eps where delta ~ 1e-6.  A second block does the same for the FH parameters calibrated for
Table II (K = 20, eps = 1, delta = 1e-6).  If dp_accounting is not installed the baseline is skipped
(the fhsym timings are still printed).  Nothing here is asserted; the tests never time anything.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

from fhsym.kdim import flipped_huber_pld

try:  # optional baseline
    from dp_accounting.pld import privacy_loss_distribution as pldlib
except ImportError:  # pragma: no cover
    pldlib = None


def median_time(fn, repeat: int):
    out = fn()  # warm up (FFT plans, imports)
    ts = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts), out


def bracket(pld, eps):
    lo, up = pld.delta_bounds(eps)
    return float(lo), float(up), float((up - lo) / up) if up > 0 else 0.0


def run_block(title, alpha, gamma, K, steps, repeat):
    print(f"\n## {title}: FH(alpha={alpha:.6g}, gamma={gamma:.6g}), Delta = 1, K = {K}")
    print(f"{'h':>8} {'dp_acc Laplace ms':>18} {'fhsym both ms':>14} {'ratio':>6} {'fhsym upper ms':>15} {'ratio':>6}"
          f"  {'FH grid':>8} {'FH K-fold':>10}  bracket@eps=1   eps(1e-6) bracket")
    for h in steps:
        if pldlib is not None:
            t_lap, lap = median_time(lambda: pldlib.from_laplace_mechanism(1.0, 1.0, value_discretization_interval=h).self_compose(K), repeat)
        else:
            t_lap, lap = float("nan"), None
        t_both, pld = median_time(lambda: flipped_huber_pld(alpha, gamma, 1.0, h).self_compose(K), repeat)
        t_up, _ = median_time(lambda: flipped_huber_pld(alpha, gamma, 1.0, h, upper_only=True).self_compose(K), repeat)
        one = flipped_huber_pld(alpha, gamma, 1.0, h)
        lo, up, rel = bracket(pld, 1.0)
        e_lo, e_up = pld.epsilon_bounds(1e-6)
        lo6, up6, rel6 = bracket(pld, e_up)
        r_both = t_both / t_lap if pldlib is not None else float("nan")
        r_up = t_up / t_lap if pldlib is not None else float("nan")
        print(f"{h:8.0e} {t_lap * 1e3:18.1f} {t_both * 1e3:14.1f} {r_both:6.2f} {t_up * 1e3:15.1f} {r_up:6.2f}"
              f"  {one.upper.pmf.size:8d} {pld.upper.pmf.size:10d}  {rel:10.2e}   eps={e_up:.6f}: {rel6:.2e}")
        print(f"{'':8} delta(eps=1) in [{lo:.10e}, {up:.10e}];  eps(delta=1e-6) in [{e_lo:.8f}, {e_up:.8f}]"
              + (f";  dp_accounting Laplace delta(1) = {lap.get_delta_for_epsilon(1.0):.8f}" if lap is not None else ""))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--K", type=int, default=20)
    ns = ap.parse_args()
    import scipy

    try:
        from importlib.metadata import version

        dpa = f"dp-accounting {version('dp-accounting')}" if pldlib is not None else "dp-accounting NOT INSTALLED (baseline skipped)"
    except Exception:  # pragma: no cover
        dpa = "dp-accounting installed" if pldlib is not None else "dp-accounting NOT INSTALLED (baseline skipped)"
    print(f"numpy {np.__version__}, scipy {scipy.__version__}, {dpa}, {os.cpu_count()} cores; "
          f"medians of {ns.repeat} runs after a warm-up")
    run_block("Same noise scale as Laplace(1)", 1.0, 1.0, ns.K, (1e-3, 1e-4), ns.repeat)
    # Table II (K = 20, eps = 1, delta = 1e-6): fhsym's certified exact calibration (docs/reproduction/kdim.md)
    run_block("Table II calibration, eps = 1, delta = 1e-6", 0.973129017543186, 18.893488616097727, ns.K, (1e-4, 1e-5), ns.repeat)


if __name__ == "__main__":
    main()
