"""Throughput of FlippedHuber.rvs relative to numpy's Laplace sampler, measured in the same process.

    python benchmarks/bench_rvs.py [--n 10000000] [--repeat 7]

Prints, for several shapes b = alpha/gamma, the median time of ``FlippedHuber(b, 1).rvs(n)``
and the ratio throughput(FH) / throughput(numpy.random.Generator.laplace) (target >= 0.8, issue 10),
the peak memory of each against numpy's Laplace (tracemalloc; target <= 2x), plus numpy's normal sampler and a scipy.stats-style inverse-CDF normal for context.
Both samplers use a PCG64 Generator; no timing assertion is made anywhere in the tests.
"""

from __future__ import annotations

import argparse
import statistics
import time
import tracemalloc

import numpy as np
from scipy import special

import fhsym


def median_time(fn, repeat: int) -> float:
    fn()  # warm up
    ts = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts)


def peak_bytes(fn) -> int:
    """Peak traced allocation (numpy reports its buffers to tracemalloc) while fn runs."""
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=10_000_000)
    ap.add_argument("--repeat", type=int, default=7)
    ns = ap.parse_args()
    n = ns.n
    rng = np.random.default_rng(12345)
    t_lap = median_time(lambda: rng.laplace(0.0, 1.0, n), ns.repeat)
    t_norm = median_time(lambda: rng.normal(0.0, 1.0, n), ns.repeat)
    t_inv = median_time(lambda: special.ndtri(rng.random(n)), ns.repeat)
    print(f"n = {n:,}, median of {ns.repeat}")
    print(f"  numpy Generator.laplace          {t_lap * 1e3:8.1f} ms  {n / t_lap / 1e6:7.1f} M/s  (baseline)")
    print(f"  numpy Generator.normal           {t_norm * 1e3:8.1f} ms  {n / t_norm / 1e6:7.1f} M/s  ratio {t_lap / t_norm:5.2f}")
    print(f"  random + scipy ndtri (inverse)   {t_inv * 1e3:8.1f} ms  {n / t_inv / 1e6:7.1f} M/s  ratio {t_lap / t_inv:5.2f}")
    worst = np.inf
    mem_lap = peak_bytes(lambda: rng.laplace(0.0, 1.0, n))
    worst_mem = 0.0
    for b in [0.0, 0.1, 0.3, 0.5, 1.0, 2.0, 3.0, 10.0, 100.0]:
        fh = fhsym.FlippedHuber(b, 1.0)
        t = median_time(lambda: fh.rvs(n, random_state=rng), ns.repeat)
        ratio = t_lap / t
        worst = min(worst, ratio)
        mem = peak_bytes(lambda: fh.rvs(n, random_state=rng)) / mem_lap
        worst_mem = max(worst_mem, mem)
        print(f"  FlippedHuber(alpha/gamma={b:<5g}).rvs {t * 1e3:8.1f} ms  {n / t / 1e6:7.1f} M/s  ratio {ratio:5.2f}  "
              f"peak memory {mem:4.2f}x numpy Laplace")
    print(f"worst ratio FH / numpy Laplace: {worst:.2f} (target >= 0.8: {'met' if worst >= 0.8 else 'MISSED'}); "
          f"worst peak memory {worst_mem:.2f}x (target <= 2: {'met' if worst_mem <= 2 else 'MISSED'})")


if __name__ == "__main__":
    main()
