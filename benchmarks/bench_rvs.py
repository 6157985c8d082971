"""Throughput of FlippedHuber.rvs relative to numpy's Laplace sampler, measured interleaved in one process.

    python benchmarks/bench_rvs.py [--n 10000000] [--repeat 7]

Each round times, one after the other, numpy's ``Generator.laplace(n)`` then ``FlippedHuber(b, 1).rvs(n)``
for each shape b = alpha/gamma in turn (Laplace, FH b_1, Laplace, FH b_2, ...; then numpy's normal
sampler and a scipy.stats-style inverse-CDF normal, each after its own Laplace, for context), so
that a change of the machine's load hits both sides of a ratio alike.  For each shape it prints
the median and minimum times of FH and of the Laplace runs paired with it, and the throughput ratio
FH / numpy Laplace by medians and by minima (target >= 0.8 by medians at b in {0, 0.5, 1, 2, 10},
issue 22), and the peak memory against numpy's Laplace (tracemalloc; target <= 2x).  All samplers
draw from one PCG64 Generator; no timing is asserted anywhere in the tests.
"""

from __future__ import annotations

import argparse
import statistics
import time
import tracemalloc

import numpy as np
from scipy import special

import fhsym

SHAPES = (0.0, 0.1, 0.3, 0.5, 1.0, 2.0, 3.0, 10.0, 100.0)
TARGET_SHAPES = (0.0, 0.5, 1.0, 2.0, 10.0)


def timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


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
    laplace = lambda: rng.laplace(0.0, 1.0, n)  # noqa: E731
    others = {
        "numpy Generator.normal": lambda: rng.normal(0.0, 1.0, n),
        "random + scipy ndtri (inverse)": lambda: special.ndtri(rng.random(n)),
    }
    others.update({f"FlippedHuber(alpha/gamma={b:g}).rvs": (lambda fh=fhsym.FlippedHuber(b, 1.0): fh.rvs(n, random_state=rng))
                   for b in SHAPES})
    for fn in [laplace, *others.values()]:  # warm up (the ziggurat tables of each shape)
        fn()
    paired = {name: [] for name in others}  # the Laplace run just before each
    times = {name: [] for name in others}
    for _ in range(ns.repeat):
        for name, fn in others.items():
            paired[name].append(timed(laplace))
            times[name].append(timed(fn))
    print(f"n = {n:,}, {ns.repeat} interleaved rounds (numpy Laplace, then the sampler); times in ms (median / min); "
          f"ratio = throughput / numpy Laplace's")
    mem_lap = peak_bytes(laplace)
    worst, worst_mem = np.inf, 0.0
    for name, fn in others.items():
        med, low = statistics.median(times[name]), min(times[name])
        lap_med, lap_low = statistics.median(paired[name]), min(paired[name])
        r_med, r_min = lap_med / med, lap_low / low
        line = (f"  {name:<38} {med * 1e3:7.1f} / {low * 1e3:7.1f}  (Laplace {lap_med * 1e3:7.1f} / {lap_low * 1e3:7.1f})  "
                f"ratio {r_med:5.2f} (median) {r_min:5.2f} (min)")
        if name.startswith("FlippedHuber"):
            mem = peak_bytes(fn) / mem_lap
            worst_mem = max(worst_mem, mem)
            line += f"  peak memory {mem:4.2f}x"
            if float(name.split("=")[1].split(")")[0]) in TARGET_SHAPES:
                worst = min(worst, r_med)
        print(line, flush=True)
    print(f"worst ratio FH / numpy Laplace by medians at alpha/gamma in {list(TARGET_SHAPES)}: {worst:.2f} "
          f"(target >= 0.8: {'met' if worst >= 0.8 else 'MISSED'}); worst peak memory {worst_mem:.2f}x "
          f"(target <= 2: {'met' if worst_mem <= 2 else 'MISSED'})")


if __name__ == "__main__":
    main()
