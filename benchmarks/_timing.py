"""Shared timing helpers of the benchmarks (house style): A and B interleaved in one process, medians, load average.

Import it from a benchmark run as a script (``python benchmarks/bench_x.py``: the script's folder is on the path).
"""

from __future__ import annotations

import os
import statistics
import time
from typing import Callable, List, Tuple


def interleaved(fa: Callable[[], object], fb: Callable[[], object], rounds: int, warm_up: bool = True,
                before_b: Callable[[], None] = lambda: None,
                clock: Callable[[], float] = time.perf_counter) -> Tuple[List[float], List[float]]:
    """Times of ``fa`` and ``fb`` run alternately (A, B, A, B, ...) for ``rounds`` rounds, after one warm-up call each;
    ``before_b`` runs, untimed, before every call of ``fb`` (e.g. clearing a memo to time a cold call).  ``clock``:
    wall time by default; ``time.process_time`` (this process's CPU time) for a cost ratio that the other processes
    of a loaded machine do not move (a short call runs within one time slice, a long one shares the core)."""
    if warm_up:
        fa()
        before_b()
        fb()
    ta: List[float] = []
    tb: List[float] = []
    for _ in range(rounds):
        t0 = clock()
        fa()
        ta.append(clock() - t0)
        before_b()
        t0 = clock()
        fb()
        tb.append(clock() - t0)
    return ta, tb


def median(ts: List[float]) -> float:
    return float(statistics.median(ts))


def load() -> str:
    """The 1, 5 and 15 minute load averages, for the printed record."""
    a, b, c = os.getloadavg()
    return f"load average {a:.2f} {b:.2f} {c:.2f}"
