"""Speed-up of the Dask sweep runner: 2 local workers against 1, on calibration tasks of the same kind.

    python benchmarks/bench_sweeps.py [--tasks N] [--repeat R]

Each run: a fresh cache directory and N distinct certified calibrations (OSGT in 5 and flipped Huber in
10 dimensions at eps spread over the frontier's grid; a new delta in every run and for every task, so that no run re-uses
work memoised by an earlier one), submitted through
:func:`fhsym.applications.sweeps.run_tasks` to a ``LocalCluster`` started beforehand (so that the
cluster's start-up is not timed; it is printed separately), with 1 and with 2 worker processes,
and in-process (``scheduler="serial"``) as the baseline.  Prints the median wall times and the
ratios.  The machine's other load is printed too: on a shared machine the speed-up is bounded by the
cores that are actually free.
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fhsym.applications import frontier as F  # noqa: E402
from fhsym.applications.sweeps import dask_available, run_tasks  # noqa: E402


def tasks(n: int, salt: int):
    """n distinct calibrations; ``salt`` shifts delta (by salt x 1e-4 relative) so that no run re-uses another's
    memoised work, and the task's index shifts it by i x 1e-7 relative so that no two tasks are the same call
    (the runner runs a repeated task once)."""
    eps = F.EPSILONS[::3]
    out = []
    for i in range(n):
        e = eps[i % len(eps)]
        delta = 1e-6 * (1 - 1e-4 * salt - 1e-7 * i)
        call = (F.calibration_call("osgt", e, delta, dim=5) if i % 2 == 0 else
                F.calibration_call("flipped_huber", e, delta, dim=10))
        out.append(F.frontier_task(call, f"{call['mechanism']} dim {call['dim']} eps {e:g}"))
    return out


def timed(ts, scheduler: str) -> float:
    with tempfile.TemporaryDirectory() as d:
        t0 = time.perf_counter()
        out = run_tasks(ts, d, scheduler=scheduler, progress=False)
        dt = time.perf_counter() - t0
    assert all(o is not None and "result" in o for o in out), [o for o in out if o is None or "error" in o]
    return dt


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tasks", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=3)
    ns = ap.parse_args()
    if not dask_available():
        print("dask.distributed is not installed: pip install 'fhsym[dask]'")
        return 2
    from dask.distributed import Client, LocalCluster

    print(f"{ns.tasks} calibration tasks (OSGT dim 5 and FH dim 10, a new delta for every run); {os.cpu_count()} cpus; load average {os.getloadavg()[0]:.1f} at start")
    times = {"serial": [], 1: [], 2: []}
    clusters = {}
    for n in (1, 2):
        t0 = time.perf_counter()
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0",
                               silence_logs=logging.WARNING)
        client = Client(cluster)
        client.run(lambda: __import__("fhsym.applications.frontier"))  # import once, as a long sweep would
        clusters[n] = (cluster, client)
        print(f"LocalCluster with {n} worker(s) started in {time.perf_counter() - t0:.1f} s (not timed below)")
    try:
        salt = 0
        for _ in range(ns.repeat):  # interleaved, so that a change in the machine's load hits every variant
            for variant in ("serial", 1, 2):
                salt += 1
                sched = "serial" if variant == "serial" else clusters[variant][0].scheduler_address
                times[variant].append(timed(tasks(ns.tasks, salt), sched))
    finally:
        for cluster, client in clusters.values():
            client.close()
            cluster.close()
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"median wall time over {ns.repeat} run(s): in-process {med['serial']:.1f} s, "
          f"1 worker {med[1]:.1f} s, 2 workers {med[2]:.1f} s")
    print(f"speed-up 2 workers vs 1: {med[1] / med[2]:.2f}x; 1 worker vs in-process: {med['serial'] / med[1]:.2f}x")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
