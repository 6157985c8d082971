"""Compute the certified frontier (docs/frontier.md) as cached tasks, locally or on a Dask cluster.

Usage::

    python scripts/frontier.py run [--stage NAME ...] [--scheduler ADDRESS] [--workers N] [--budget-minutes M]
    python scripts/frontier.py assemble      # cache -> docs/reproduction/data/frontier.json
    python scripts/frontier.py report        # data file -> docs/figures/frontier_*.png and docs/frontier.md

``run`` submits the calibrations of the stages named (default: all, in order) to
:func:`fhsym.applications.sweeps.run_tasks`; every result is cached in ``--cache``
(default ``.frontier-cache/``), one file per calibration, so an interrupted run resumes.
Stages, cheapest first (the box-based calibrations are keyed by K T, see
:func:`fhsym.applications.frontier.calibration_call`):

* ``cheap``: Gaussian, pure Laplace and staircase everywhere, and every candidate in one dimension (K T = 1);
* ``fh``, ``laplace``, ``osgt``: the exact K T-fold calibrations of FH, Laplace and OSGT for T = 1;
* ``tl``: truncated Laplace for T = 1 where it can matter: where the Laplace K-fold variance is within
  ``TL_RELEVANCE`` of the best other candidate (truncated Laplace is never below the K-fold Laplace by
  more than 0.3 % where both were computed: see the data file's ``tl_vs_laplace`` field);
* ``fh-T``, ``laplace-T``, ``osgt-T``, ``tl-T``: the same for T = 10 and 100 (the new products K T only).

``assemble`` writes the data file from whatever is cached: each release lists the candidates computed,
skipped (with the reason) or not computed; nothing is filled in.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from fhsym.applications import frontier as F  # noqa: E402
from fhsym.applications.sweeps import DiskCache, SweepProgress, run_tasks  # noqa: E402

DEFAULT_CACHE = ROOT / ".frontier-cache"
DATA = ROOT / "docs" / "reproduction" / "data" / "frontier.json"
STAGES = ("cheap", "fh", "laplace", "osgt", "tl", "fh-T", "laplace-T", "osgt-T", "tl-T")
TL_RELEVANCE = 1.05  # run truncated Laplace where var(Laplace K-fold) <= 1.05 x the best other candidate
DELTA_ORDER = (1e-6, 1e-8, 1e-5, 1e-10)  # within a stage: the paper's delta first


def _releases(T_values):
    rel = F.releases(compositions=T_values)
    return sorted(rel, key=lambda r: (DELTA_ORDER.index(r["delta"]), r["compositions"], r["dim"], r["epsilon"]))


def _label(call):
    return (f"{call['mechanism']} K={call['dim']} T={call['compositions']} eps={call['epsilon']:g} "
            f"delta={call['delta']:g}")


def _cached_variance(cache: DiskCache, call):
    rec = cache.get(F.frontier_task(call))
    if rec is None or "error" in rec:
        return None
    return rec["result"]["variance"]


def tasks_for(stage: str, cache: DiskCache):
    """The calibration tasks of one stage (deduplicated by run_tasks)."""
    tasks = []
    if stage == "cheap":
        for r in _releases(F.COMPOSITIONS):
            calls = F.calls_of(r)
            for c, call in calls.items():
                if c in ("gaussian", "laplace_pure", "staircase") or call["dim"] * call["compositions"] == 1:
                    tasks.append(F.frontier_task(call, _label(call)))
        return tasks
    base, _, suffix = stage.partition("-")
    Ts = (1,) if not suffix else tuple(t for t in F.COMPOSITIONS if t > 1)
    cand = {"fh": "flipped_huber", "laplace": "laplace_kfold", "osgt": "osgt", "tl": "truncated_laplace"}[base]
    seen_products = set()
    if suffix:  # products K T already computed for T = 1 are not new
        seen_products = {K for K in F.DIMS}
    for r in _releases(Ts):
        if r["norm"] != "linf":
            continue  # box-based: the l2/l1 releases use the same calls
        call = F.calibration_call(cand, r["epsilon"], r["delta"], r["dim"], "linf", r["compositions"])
        if call["dim"] == 1 or call["dim"] in seen_products:
            continue
        if cand == "truncated_laplace":
            lap = _cached_variance(cache, F.calibration_call("laplace_kfold", r["epsilon"], r["delta"], r["dim"],
                                                              "linf", r["compositions"]))
            others = [_cached_variance(cache, F.calibration_call(c, r["epsilon"], r["delta"], r["dim"], "linf",
                                                                 r["compositions"]))
                      for c in F.CANDIDATES if c not in ("truncated_laplace", "laplace_kfold")]
            others = [v for v in others if v is not None]
            if lap is None or not others or lap > TL_RELEVANCE * min(others):
                continue
        tasks.append(F.frontier_task(call, _label(call)))
    return tasks


def cmd_run(ns) -> int:
    cache = DiskCache(ns.cache)
    t0 = time.perf_counter()
    for stage in ns.stage or STAGES:
        left = None if ns.budget_minutes is None else ns.budget_minutes * 60 - (time.perf_counter() - t0)
        if left is not None and left <= 0:
            print(f"frontier: budget spent before stage {stage}", file=sys.stderr)
            break
        tasks = tasks_for(stage, cache)
        bar = SweepProgress(len({t.key(cache.version) for t in tasks}), label=f"frontier {stage}", every=60.0)
        out = run_tasks(tasks, ns.cache, scheduler=ns.scheduler, workers=ns.workers, progress=bar,
                        budget_seconds=left, chunk=ns.chunk if ns.chunk else (50 if stage == "cheap" else 1))
        n_done = sum(o is not None for o in out)
        secs = sum(o["seconds"] for o in out if o is not None and not o.get("cached"))
        print(f"frontier: stage {stage}: {n_done}/{len(out)} calls done ({secs:.0f} s of task time this run; "
              f"{time.perf_counter() - t0:.0f} s wall so far)", file=sys.stderr, flush=True)
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python scripts/frontier.py", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="compute (cached) calibrations")
    r.add_argument("--stage", action="append", choices=STAGES, help="stage(s) to run (default: all, in order)")
    r.add_argument("--scheduler", default="auto", help="'auto' (local Dask cluster if installed), 'local', "
                   "'serial' or a dask.distributed scheduler address")
    r.add_argument("--workers", type=int, default=None, help="local cluster processes (default min(2, cpus))")
    r.add_argument("--budget-minutes", type=float, default=None, help="stop after this much wall time")
    r.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    r.add_argument("--chunk", type=int, default=None, help="calibrations per Dask task (default 50 for 'cheap', else 1)")
    a = sub.add_parser("assemble", help="write the data file from the cache")
    a.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    a.add_argument("--out", type=Path, default=DATA)
    p = sub.add_parser("report", help="figures and docs/frontier.md from the data file")
    p.add_argument("--data", type=Path, default=DATA)
    ns = ap.parse_args(argv)
    if ns.cmd == "run":
        return cmd_run(ns)
    from frontier_report import assemble, report  # scripts/frontier_report.py

    if ns.cmd == "assemble":
        return assemble(ns.cache, ns.out)
    return report(ns.data)


if __name__ == "__main__":
    sys.exit(main())
