"""``python -m proofs``: run every proof, print the table, write ``proofs/REPORT.md``.

Usage::

    python -m proofs                      # everything; writes proofs/REPORT.md
    python -m proofs --only distribution  # one topic (repeatable); report only with --report
    python -m proofs --quick              # the fast subset (fewer points), as run by tests/test_proofs.py
    python -m proofs --list               # list topics and checks
    python -m proofs --scheduler local --cache .proofs-cache   # each check a task on a local Dask cluster;
                                          # an interrupted run resumes from the cache (same code only)
    python -m proofs --scheduler tcp://host:8786               # on a dask.distributed cluster

Exit status: 0 if every check passes, 1 otherwise (2 on bad usage).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from . import _harness as H

DEFAULT_REPORT = H.PACKAGE_DIR / "REPORT.md"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m proofs", description="Run fhsym's proofs and write the report.")
    ap.add_argument("--only", action="append", default=[], metavar="TOPIC", help="run only this topic (repeatable)")
    ap.add_argument("--quick", action="store_true", help="the fast subset: fewer random points and sweep values")
    ap.add_argument("--jobs", "-j", type=int, default=min(2, os.cpu_count() or 1), help="parallel processes (default: min(2, cpus))")
    ap.add_argument("--report", type=Path, default=None, help=f"write the markdown report here (default for a full run: {DEFAULT_REPORT})")
    ap.add_argument("--no-report", action="store_true", help="do not write a report")
    ap.add_argument("--list", action="store_true", help="list topics and checks, then exit")
    ap.add_argument("--scheduler", default=None, metavar="ADDRESS",
                    help="run each check as a task through fhsym's sweep runner: 'local' (a local Dask cluster of "
                         "--jobs workers, the optional extra fhsym[dask]), 'serial', or a dask.distributed address")
    ap.add_argument("--cache", type=Path, default=None, metavar="DIR",
                    help="with --scheduler: keep finished checks here, so that an interrupted run resumes (keyed by "
                         "a hash of the fhsym and proofs code: any change re-runs)")
    ns = ap.parse_args(argv)

    topics = H.discover()
    if ns.list:
        for tp in topics:
            print(f"{tp.name}: {tp.title}")
            for c in tp.checks:
                print(f"  {c.name:40s} {c.obj:24s} {c.paper:28s} {'quick' if c.quick else ''}")
        return 0
    try:
        checks = H.select(topics, ns.only, ns.quick)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2

    full = not ns.only and not ns.quick
    report_path = None if ns.no_report else (ns.report or (DEFAULT_REPORT if full else None))
    cmd = "python -m proofs" + "".join(f" --only {o}" for o in ns.only) + (" --quick" if ns.quick else "")

    print(f"{cmd}: {len(checks)} checks, {ns.jobs} process(es)", flush=True)
    t0 = time.perf_counter()
    done = [0]

    def progress(r: H.Result) -> None:
        done[0] += 1
        print(f"  [{done[0]:3d}/{len(checks)}] {r.verdict}  {r.key}  ({r.seconds:.1f}s)", flush=True)

    if ns.cache is not None and ns.scheduler is None:
        print("error: --cache needs --scheduler", file=sys.stderr)
        return 2
    if ns.scheduler is not None:
        results = H.run_on_dask(checks, ns.quick, ns.scheduler, ns.cache, ns.jobs, progress=progress)
    else:
        results = H.run(checks, quick=ns.quick, jobs=ns.jobs, progress=progress)
    elapsed = time.perf_counter() - t0
    print()
    print(H.format_table(results))
    n_fail = sum(r.verdict != H.PASS for r in results)
    print()
    for r in results:
        if r.verdict != H.PASS:
            print(f"FAIL {r.key}: {r.claim}")
            for e in r.evidence:
                print("    " + e)
    errata = sorted({r.erratum for r in results if r.erratum})
    if errata:
        print(f"errata documented: {', '.join(errata)} (docs/errata.md)")
    print(f"{len(results)} checks, {len(results) - n_fail} PASS, {n_fail} FAIL in {elapsed:.1f}s")
    if report_path is not None:
        text = H.render_report([t for t in topics if not ns.only or t.name in ns.only], results, cmd, ns.quick)
        Path(report_path).write_text(text)
        print(f"wrote {report_path}")
    elif not full:
        print("(partial run: no report written; pass --report PATH to write one)")
    return 1 if n_fail else 0


if __name__ == "__main__":
    sys.exit(main())
