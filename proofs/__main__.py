"""``python -m proofs``: run every proof, print the table, write ``proofs/REPORT.md``.

Usage::

    python -m proofs                      # everything; writes proofs/REPORT.md
    python -m proofs --only distribution  # one topic (repeatable); report only with --report
    python -m proofs --check distribution.rho_properties   # one check (repeatable)
    python -m proofs --quick              # the fast subset (fewer points), as run by the tests
    python -m proofs --list               # list topics and checks
    python -m proofs --quick --times 10   # and the 10 slowest checks (wall and CPU seconds), the import time
    python -m proofs --quick --record-times   # record each check's CPU seconds in proofs/_times.json: a parallel
                                          # run starts the longest checks first (order only, never a result)
    python -m proofs --scheduler local --cache .proofs-cache   # each check a task on a local Dask cluster;
                                          # an interrupted run resumes from the cache (same code only)
    python -m proofs --scheduler tcp://host:8786               # on a dask.distributed cluster

Every check ends with one status (PROVEN, VERIFIED, CONTROL, ERRATUM CONFIRMED, NOT REPRODUCED,
CROSS-CHECK or FAIL; defined in :mod:`proofs._harness`).  The report holds no timings (they are printed here), so two runs
write the same file.  Exit status: 0 if no check FAILs, 1 otherwise (2 on bad usage).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from . import _harness as H
from ._report import status_counts

DEFAULT_REPORT = H.PACKAGE_DIR / "REPORT.md"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m proofs", description="Run fhsym's proofs and write the report.")
    ap.add_argument("--only", action="append", default=[], metavar="TOPIC", help="run only this topic (repeatable)")
    ap.add_argument("--check", action="append", default=[], metavar="TOPIC.NAME", help="run only this check (repeatable)")
    ap.add_argument("--quick", action="store_true", help="the fast subset: fewer random points and sweep values")
    ap.add_argument("--jobs", "-j", type=int, default=None, help="parallel processes (default: min(2, cpus))")
    ap.add_argument("--report", type=Path, default=None, help=f"write the markdown report here (default for a full run: {DEFAULT_REPORT})")
    ap.add_argument("--no-report", action="store_true", help="do not write a report")
    ap.add_argument("--list", action="store_true", help="list topics and checks, then exit")
    ap.add_argument("--times", type=int, default=0, metavar="N",
                    help="after the run, list the N slowest checks (wall and CPU seconds) and where the time went")
    ap.add_argument("--scheduler", default=None, metavar="ADDRESS",
                    help="run each check as a task through fhsym's sweep runner: 'local' (a local Dask cluster of "
                         "--jobs workers, the optional extra fhsym[dask]), 'serial', or a dask.distributed address")
    ap.add_argument("--cache", type=Path, default=None, metavar="DIR",
                    help="with --scheduler: keep finished checks here, so that an interrupted run resumes (keyed by "
                         "a hash of the fhsym and proofs code: any change re-runs)")
    ap.add_argument("--record-times", action="store_true",
                    help=f"record each check's CPU seconds in {H.TIMES_FILE.name} (the start order of parallel runs)")
    ns = ap.parse_args(argv)
    if ns.times < 0:
        ap.error(f"argument --times: must be >= 0; got {ns.times}")
    if ns.list and (ns.times or ns.record_times):
        ap.error("argument --times/--record-times: they report on a run; --list runs no check")
    if ns.list:  # every option of a run is refused with --list (it runs nothing), never ignored
        given = [o for o, on in (("--only", ns.only), ("--check", ns.check), ("--quick", ns.quick),
                                 ("--report", ns.report is not None), ("--no-report", ns.no_report),
                                 ("--jobs", ns.jobs is not None), ("--scheduler", ns.scheduler is not None),
                                 ("--cache", ns.cache is not None)) if on]
        if given:
            ap.error(f"argument {given[0]}: selects, runs or reports checks; --list runs none (it lists every check)")
    if ns.report is not None and ns.no_report:
        ap.error(f"argument --report: names the report's file, but --no-report writes none; got --report {ns.report}")
    if ns.only and ns.check:
        ap.error(f"argument --only: --check names the checks to run, so --only {ns.only[0]} would not be used")
    if ns.jobs is not None and ns.scheduler is not None and ns.scheduler != "local":
        ap.error(f"argument --jobs: sizes the processes here or a local cluster; --scheduler {ns.scheduler} uses none")
    if ns.jobs is None:
        ns.jobs = min(2, os.cpu_count() or 1)
    if ns.jobs < 1:
        ap.error(f"argument --jobs: must be >= 1; got {ns.jobs}")

    t_import = time.perf_counter()
    topics = H.discover()
    t_import = time.perf_counter() - t_import
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
    if ns.check:
        known = {c.key for t in topics for c in t.checks}
        unknown = [k for k in ns.check if k not in known]
        if unknown:
            print(f"error: unknown check(s) {unknown}; see --list", file=sys.stderr)
            return 2
        checks = [c for t in topics for c in t.checks if c.key in set(ns.check)]

    full = not ns.only and not ns.quick and not ns.check
    report_path = None if ns.no_report else (ns.report or (DEFAULT_REPORT if full else None))
    cmd = ("python -m proofs" + "".join(f" --only {o}" for o in ns.only) + (" --quick" if ns.quick else "")
           + "".join(f" --check {k}" for k in ns.check))

    print(f"{cmd}: {len(checks)} checks, {ns.jobs} process(es); topics imported in {t_import:.1f}s", flush=True)
    t0 = time.perf_counter()
    done = [0]

    def progress(r: H.Result) -> None:
        done[0] += 1
        print(f"  [{done[0]:3d}/{len(checks)}] {r.status:17s} {r.key}  ({r.seconds:.1f}s)", flush=True)

    if ns.cache is not None and ns.scheduler is None:
        print("error: --cache needs --scheduler", file=sys.stderr)
        return 2
    if ns.scheduler is not None:
        results = H.run_on_dask(checks, ns.quick, ns.scheduler, ns.cache, ns.jobs if ns.scheduler == "local" else None,
                                progress=progress)
    else:
        results = H.run(checks, quick=ns.quick, jobs=ns.jobs, progress=progress)
    elapsed = time.perf_counter() - t0
    print()
    print(H.format_table(results))
    print()
    failed = [r for r in results if r.status == H.FAIL]
    for r in failed:
        print(f"FAIL {r.key}: {r.claim}")
        for e in r.evidence:
            print("    " + e)
    errata = sorted({r.erratum for r in results if r.status == H.ERRATUM})
    if errata:
        print(f"errata confirmed: {', '.join(errata)} (docs/errata.md)")
    unrep = sorted({r.erratum or r.key for r in results if r.status == H.NOT_REPRODUCED})
    if unrep:
        print(f"not reproduced: {', '.join(unrep)} (docs/errata.md)")
    counts = status_counts(results)
    print(f"{len(results)} checks: " + ", ".join(f"{counts[s]} {s}" for s in H.STATUSES) + f" in {elapsed:.1f}s")
    if ns.times:
        print(H.format_times(results, ns.times, elapsed, ns.jobs, t_import))
    if ns.record_times:
        print(f"recorded the CPU seconds of {len(results)} checks in {H.record_times(results, ns.quick)}")
    if report_path is not None:
        shown = [t for t in topics if any(r.topic == t.name for r in results)]
        text = H.render_report(shown, results, cmd, ns.quick)
        Path(report_path).write_text(text)
        print(f"wrote {report_path}")
    elif not full:
        print("(partial run: no report written; pass --report PATH to write one)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
