"""Where the wall of ``python -m proofs --quick -j 2`` goes (issue 30.6): a breakdown printed by one run.

Usage::

    python scripts/quick_proofs_breakdown.py [-j 2] [--full] [--top 12] [--only TOPIC ...]

It runs the harness's own parallel runner (``proofs._harness.run``) and times, from the outside (the harness's
functions are wrapped, nothing it computes changes):

* the interpreter and imports before the run: ``import fhsym.cli`` (what ``fhsym verify`` loads before the
  topics) and the topics' import (``discover()``);
* each topic's ``prepare`` (the shared SymPy derivations), run in the parent while at most ``jobs - 1`` children
  work: its wall and CPU seconds;
* each child (one per check): the CPU seconds of the check itself (``Result.cpu``) and of the whole child (its
  rusage: the fork's copy-on-write page faults included), its minor page faults and peak RSS;
* the timeline: the slots idle while the parent prepares with nothing queued, and at the end (the last checks
  running alone: load imbalance), as core-seconds.

The checks' statuses are printed as a count (a run whose statuses differ from ``proofs/REPORT.md`` is caught by
``scripts/compare_report_statuses.py``, not here).
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, Tuple

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _cpu_self() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main(argv: Any = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--full", action="store_true", help="the full run instead of --quick")
    ap.add_argument("--top", type=int, default=12, help="how many of the costliest prepares and children to list")
    ap.add_argument("--dump", type=Path, default=None, help="write each check's CPU seconds here (JSON)")
    ap.add_argument("--only", action="append", default=[], metavar="TOPIC",
                    help="run only this topic (repeatable; default: every topic)")
    ns = ap.parse_args(argv)
    quick = not ns.full
    print(f"load average (1, 5, 15 min): {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} cpus")

    t_start = time.perf_counter()
    c_start = _cpu_self()
    import fhsym.cli  # noqa: F401  (what `fhsym verify` imports before it loads the proofs)

    t_cli, c_cli = time.perf_counter() - t_start, _cpu_self() - c_start
    from proofs import _harness as H

    t0, c0 = time.perf_counter(), _cpu_self()
    topics = H.discover()
    t_disc, c_disc = time.perf_counter() - t0, _cpu_self() - c0
    checks = H.select(topics, only=ns.only, quick=quick)

    # --- wrap: prepares (in the parent) and children (rusage sent back through a pipe of our own)
    prepares: List[Tuple[str, float, float, float]] = []  # topic, start (run clock), wall, cpu
    orig_prepare = H._prepare
    run_t0 = [0.0]

    def timed_prepare(topic: str, prepared: Any) -> None:
        if not H._needs_prepare(topic, prepared):
            return orig_prepare(topic, prepared)
        t, c = time.perf_counter(), _cpu_self()
        orig_prepare(topic, prepared)
        prepares.append((topic, t - run_t0[0], time.perf_counter() - t, _cpu_self() - c))

    rfd, wfd = os.pipe()
    orig_child = H._child

    def child(check: Any, q: bool, conn: Any) -> None:  # pragma: no cover - in the forked child
        import pickle

        res = H.run_one(check, q)
        ru = resource.getrusage(resource.RUSAGE_SELF)
        rec = (check.key, ru.ru_utime + ru.ru_stime, ru.ru_minflt, ru.ru_maxrss)
        os.write(wfd, (repr(rec) + "\n").encode())
        try:
            conn.send_bytes(pickle.dumps(res))
        finally:
            conn.close()
            os._exit(0)

    spans: Dict[str, Tuple[float, float]] = {}  # key -> (fork time, result time) on the run clock
    import multiprocessing.process as mproc

    orig_popen_start = mproc.BaseProcess.start

    def start(self: Any) -> None:
        args = getattr(self, "_args", ())
        if args and hasattr(args[0], "key"):
            spans[args[0].key] = (time.perf_counter() - run_t0[0], 0.0)
        orig_popen_start(self)

    H._prepare = timed_prepare
    H._child = child
    mproc.BaseProcess.start = start
    ends: Dict[str, float] = {}

    def done(r: Any) -> None:
        ends[r.key] = time.perf_counter() - run_t0[0]

    run_t0[0] = time.perf_counter()
    c_run0 = _cpu_self()
    results = H.run(checks, quick=quick, jobs=ns.jobs, progress=done)
    elapsed = time.perf_counter() - run_t0[0]
    c_parent_run = _cpu_self() - c_run0
    H._prepare, H._child, mproc.BaseProcess.start = orig_prepare, orig_child, orig_popen_start
    os.close(wfd)
    data = b""
    while True:
        chunk = os.read(rfd, 1 << 16)
        if not chunk:
            break
        data += chunk
    os.close(rfd)
    import ast

    child_ru = {k: (cpu, flt, rss) for k, cpu, flt, rss in (ast.literal_eval(x) for x in data.decode().splitlines())}
    ch = resource.getrusage(resource.RUSAGE_CHILDREN)
    total_wall = time.perf_counter() - t_start

    # --- timeline: busy core-seconds per instant (children), idle slots
    events = sorted([(s, 1) for s, _ in spans.values()] + [(ends[k], -1) for k in spans if k in ends])
    idle_end = idle_mid = 0.0
    n, last = 0, 0.0
    last_start = max((s for s, _ in spans.values()), default=0.0)
    for t, d in events:
        gap = (ns.jobs - n) * (t - last)
        if last >= last_start:
            idle_end += gap
        else:
            idle_mid += gap
        n += d
        last = t
    idle_end += ns.jobs * max(0.0, elapsed - last)

    check_cpu = sum(r.cpu for r in results)
    child_cpu = sum(v[0] for v in child_ru.values())
    faults = sum(v[1] for v in child_ru.values())
    prep_wall = sum(p[2] for p in prepares)
    prep_cpu = sum(p[3] for p in prepares)
    statuses: Dict[str, int] = {}
    for r in results:
        statuses[r.status] = statuses.get(r.status, 0) + 1
    print(f"{len(results)} checks ({'quick' if quick else 'full'}), -j {ns.jobs}: "
          + ", ".join(f"{v} {k}" for k, v in sorted(statuses.items())))
    print(f"wall: {total_wall:.1f} s in all = import fhsym.cli {t_cli:.2f} s + topics' import {t_disc:.2f} s "
          f"+ run {elapsed:.1f} s (+ {total_wall - t_cli - t_disc - elapsed:.2f} s selecting)")
    print(f"CPU: parent {c_cli + c_disc + c_parent_run:.1f} s (import fhsym.cli {c_cli:.2f}, topics {c_disc:.2f}, "
          f"during the run {c_parent_run:.1f}: prepares {prep_cpu:.1f}, forking and waiting "
          f"{c_parent_run - prep_cpu:.1f}); children {ch.ru_utime + ch.ru_stime:.1f} s (checks {check_cpu:.1f}, "
          f"the rest of the child: {child_cpu - check_cpu:.1f}); in all "
          f"{c_cli + c_disc + c_parent_run + ch.ru_utime + ch.ru_stime:.1f} s")
    print(f"children: {faults / 1e6:.2f} M minor page faults ({faults / max(len(child_ru), 1):.0f} a child), peak RSS "
          f"max {max((v[2] for v in child_ru.values()), default=0) / 1024:.0f} MB; parent peak RSS "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    print(f"prepares in the parent: {len(prepares)}, {prep_wall:.1f} s wall, {prep_cpu:.1f} s CPU")
    for topic, at, w, c in sorted(prepares, key=lambda p: -p[2])[:ns.top]:
        print(f"  {topic:40s} at {at:5.1f} s  {w:5.2f} s wall  {c:5.2f} s CPU")
    cap = ns.jobs * elapsed
    print(f"run: {cap:.1f} core-seconds ({ns.jobs} x {elapsed:.1f}); checks' wall {sum(r.seconds for r in results):.1f}; "
          f"idle slots before the last fork {idle_mid:.1f}, after it (the tail) {idle_end:.1f}; "
          f"last fork at {last_start:.1f} s")
    tail = sorted(((k, s, ends.get(k, 0.0)) for k, (s, _) in spans.items()), key=lambda x: -x[2])[:4]
    print("the last checks to end: " + "; ".join(f"{k} ({s:.1f} -> {e:.1f} s)" for k, s, e in tail))
    print(f"the {ns.top} costliest children (CPU of the whole child, check, minor faults):")
    for k, (cpu, flt, rss) in sorted(child_ru.items(), key=lambda kv: -kv[1][0])[:ns.top]:
        r = next(x for x in results if x.key == k)
        print(f"  {k:55s} {cpu:5.2f} {r.cpu:5.2f}  {flt:7d}")
    by_topic: Dict[str, List[float]] = {}
    for r in results:
        by_topic.setdefault(r.topic, []).append(r.cpu)
    prep = {p[0]: p[3] for p in prepares}
    print(f"CPU by topic (checks summed + its prepare in the parent), the {ns.top} costliest:")
    for t, v in sorted(by_topic.items(), key=lambda kv: -(sum(kv[1]) + prep.get(kv[0], 0.0)))[:ns.top]:
        print(f"  {t:40s} {len(v):3d} checks {sum(v):6.1f} s + prepare {prep.get(t, 0.0):4.1f} s")
    if ns.dump is not None:
        import json

        ns.dump.write_text(json.dumps({r.key: round(r.cpu, 3) for r in results}, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
