"""The privacy profile at the kink against away from it, in the same process.

    python benchmarks/bench_certified_calibration.py [--repeat 5]

``fhsym.privacy_profile`` on 1000 points at the kink eps = alpha Delta/gamma^2 (where the float
kernels see the distance to the kink through rounded quotients and the exact enclosure takes
over) against 1000 points away from it; prints the ratio (target: <= 3).  The certified
calibrations against dp_accounting are timed by ``benchmarks/bench_calibrate.py`` (interleaved).

Times are medians over ``--repeat`` runs of the same work; nothing here is asserted in the tests.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import fhsym

def median_time(fn, repeat: int) -> float:
    fn()
    ts = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--points", type=int, default=1000)
    ns = ap.parse_args(argv)
    print(f"privacy_profile: {ns.points} points at the kink eps = alpha Delta/gamma^2 vs away from it")
    rng = np.random.default_rng(0)
    alphas = rng.uniform(1.0, 20.0, ns.points)
    gammas = rng.uniform(0.5, 5.0, ns.points) * (1 + 1e-13)  # b = alpha/gamma not exact
    kink = alphas / gammas**2
    away = kink * 1.5

    def run(eps):
        for e, a, g in zip(eps, alphas, gammas):
            fhsym.privacy_profile(float(e), float(a), float(g))

    t_k = median_time(lambda: run(kink), max(1, ns.repeat // 2))
    t_a = median_time(lambda: run(away), max(1, ns.repeat // 2))
    print(f"   at the kink: {t_k * 1e3:8.1f} ms, away: {t_a * 1e3:8.1f} ms, ratio {t_k / t_a:6.2f}  (target <= 3)")


if __name__ == "__main__":
    main()
