"""A/B of ``python -m proofs --quick -j 2`` between two checkouts, interleaved (A, B, A, B, ...) on this machine.

Usage::

    python scripts/bench_quick_proofs.py A_DIR B_DIR [--rounds 3] [-j 2] [--python PYTHON] [--only TOPIC ...]

Each run is ``PYTHON -m proofs --quick -j J --no-report`` with the checkout as working directory and first on
``PYTHONPATH`` (so that it imports its own ``fhsym`` and ``proofs``); this script waits for it and reads the CPU
seconds of the whole process tree (the parent and every check it forked: ``os.times()``' children) and the
wall. It prints
the load average before each run, one line per run, and per side the median wall, the median CPU and the B/A ratios.
The statuses of the runs are not compared here (``scripts/compare_report_statuses.py`` does that on reports).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List, Tuple


def one_run(root: Path, python: str, jobs: int, only: List[str]) -> Tuple[float, int, str]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    t0 = time.perf_counter()
    topics = [a for t in only for a in ("--only", t)]
    p = subprocess.Popen([python, "-m", "proofs", "--quick", "-j", str(jobs), "--no-report", *topics], cwd=root, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out, _ = p.communicate()  # reaps it: its CPU (and that of the checks it forked and reaped) joins os.times()
    wall = time.perf_counter() - t0
    last = [x for x in out.splitlines() if " checks: " in x and " FAIL in " in x]
    return wall, p.returncode, (last[-1] if last else out[-300:])


def main(argv: object = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("a", type=Path)
    ap.add_argument("b", type=Path)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--only", action="append", default=[], metavar="TOPIC",
                    help="run only this topic (repeatable; default: every topic, the quick run CI makes)")
    ns = ap.parse_args(argv)
    runs: Dict[str, List[Tuple[float, float]]] = {"A": [], "B": []}
    for i in range(ns.rounds):
        for side, root in (("A", ns.a), ("B", ns.b)):
            load = os.getloadavg()[0]
            before = os.times()
            wall, rc, last = one_run(root, ns.python, ns.jobs, ns.only)
            after = os.times()
            cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
            runs[side].append((wall, cpu))
            print(f"round {i + 1} {side} ({root}): load {load:.2f} before; wall {wall:.1f} s, CPU {cpu:.1f} s "
                  f"(exit {rc}) | {last.strip()}", flush=True)
    med = {s: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for s, v in runs.items()}
    for s in ("A", "B"):
        print(f"{s}: median wall {med[s][0]:.1f} s, median CPU {med[s][1]:.1f} s over {ns.rounds} runs")
    print(f"B/A: wall {med['B'][0] / med['A'][0]:.3f}, CPU {med['B'][1] / med['A'][1]:.3f}; load average now "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
