"""Compute the certified frontier (docs/frontier.md) as cached tasks, locally or on a Dask cluster.

Usage::

    python scripts/frontier.py run [--stage NAME ...] [--scheduler ADDRESS] [--workers N] [--budget-minutes M]
    python scripts/frontier.py assemble      # cache -> fhsym/applications/data/frontier.json.gz
    python scripts/frontier.py seed [--retry CANDIDATE ...]   # data file -> cache (resume from published results)
    python scripts/frontier.py report        # data file -> docs/figures/frontier_*.png and docs/frontier.md

``run`` submits the calibrations of the stages named (default: all, in order) to
:func:`fhsym.applications.sweeps.run_tasks`; every result is cached in ``--cache``
(default ``.frontier-cache/``), one file per calibration, so an interrupted run resumes.
Stages (the box-based calibrations are keyed by K T, see
:func:`fhsym.applications.frontier.calibration_call`):

* ``cheap``: Gaussian, pure Laplace and staircase everywhere, and every candidate in one dimension (K T = 1);
* ``tier1`` ... ``tier4`` (:data:`TIERS`): the exact K T-fold calibrations of FH, K-fold Laplace and OSGT
  over the box, and truncated Laplace: everywhere in tier1 (K in {5, 20, 100, 1000}, delta in {1e-6, 1e-10},
  T = 1, every eps: the first useful map), afterwards only where it can matter: where the K-fold Laplace
  variance is within ``TL_RELEVANCE`` of the best other candidate (the data file's ``tl_vs_laplace``
  records how far truncated Laplace ever was below the K-fold Laplace where both were computed).
  tier2: the other K; tier3: delta in {1e-5, 1e-8}; tier4: T = 10 and 100 (the new products K T).

``assemble`` writes the data file from whatever is cached: each release lists the candidates computed,
skipped (with the reason) or not computed; nothing is filled in.

``seed`` fills an empty cache from a data file: its calibrations (with their certificates) and the
errors it records, so that a later ``run`` computes only what is missing.  ``--retry CANDIDATE``
leaves that candidate's recorded errors out, so ``run`` recomputes them (after a fix).
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
DATA = ROOT / "fhsym" / "applications" / "data" / "frontier.json.gz"
STAGES = ("cheap", "tier1", "tier2", "tier3", "tier4")
TL_RELEVANCE = 1.05  # run truncated Laplace where var(Laplace K-fold) <= 1.05 x the best other candidate
#: the box releases of each tier of the exact K T-fold calibrations: (compositions, deltas, dims, tl_everywhere)
#: tier1 gives a useful map first (K in {5, 20, 100, 1000}, delta in {1e-6, 1e-10}, every eps, T = 1, every
#: mechanism); tier2 the other K; tier3 the other deltas; tier4 T = 10 and 100 (the new products K T only)
FIRST_DIMS = (5, 20, 100, 1000)
TIERS = {
    "tier1": ((1,), (1e-6, 1e-10), FIRST_DIMS, True),
    "tier2": ((1,), (1e-6, 1e-10), tuple(k for k in F.DIMS if k not in FIRST_DIMS), False),
    "tier3": ((1,), (1e-5, 1e-8), F.DIMS, False),
    "tier4": ((10, 100), F.DELTAS, F.DIMS, False),
}
DELTA_ORDER = (1e-6, 1e-8, 1e-5, 1e-10)  # the cheap stage: the paper's delta first
EXPENSIVE = ("flipped_huber", "laplace_kfold", "osgt")  # then truncated_laplace where it can matter


def _label(call):
    return (f"{call['mechanism']} K={call['dim']} T={call['compositions']} eps={call['epsilon']:g} "
            f"delta={call['delta']:g}")


def _box_releases(tier: str):
    Ts, deltas, dims, _ = TIERS[tier]
    for T in Ts:
        for d in deltas:
            for K in dims:
                for e in F.EPSILONS:
                    if K * T > 1 and (T == 1 or K * T not in F.DIMS):  # a product K T seen at T = 1 is not new
                        yield {"norm": "linf", "dim": K, "compositions": T, "epsilon": e, "delta": d}


def tl_relevant(cache: DiskCache, r) -> bool:
    """Whether truncated Laplace can matter here: the K-fold Laplace is within TL_RELEVANCE of the best other,
    or the K-fold Laplace failed (then nothing justifies skipping truncated Laplace)."""
    def rec(c):
        return cache.get(F.frontier_task(F.calibration_call(c, r["epsilon"], r["delta"], r["dim"], "linf",
                                                            r["compositions"])))

    def var(c):
        out = rec(c)
        return None if out is None or "error" in out else out["result"]["variance"]

    lap = rec("laplace_kfold")
    if lap is not None and "error" in lap:
        return True  # the K-fold Laplace failed: no variance to prune by, so truncated Laplace is attempted
    others = [v for v in (var(c) for c in F.CANDIDATES if c not in ("truncated_laplace", "laplace_kfold")) if v]
    return lap is not None and bool(others) and lap["result"]["variance"] <= TL_RELEVANCE * min(others)


def tasks_for(stage: str, cache: DiskCache, part: str = "main"):
    """The calibration tasks of one stage; ``part="tl"``: its truncated Laplace tasks (after the main part)."""
    tasks = []
    if stage == "cheap":
        if part == "tl":
            return tasks
        rel = sorted(F.releases(), key=lambda r: (DELTA_ORDER.index(r["delta"]), r["compositions"], r["dim"],
                                                   r["epsilon"]))
        for r in rel:
            for c, call in F.calls_of(r).items():
                if c in ("gaussian", "laplace_pure", "staircase") or call["dim"] * call["compositions"] == 1:
                    tasks.append(F.frontier_task(call, _label(call)))
        return tasks
    for r in _box_releases(stage):
        tl_everywhere = TIERS[stage][3]
        if part == "main":
            cands = EXPENSIVE + (("truncated_laplace",) if tl_everywhere else ())
        else:
            cands = () if tl_everywhere else ("truncated_laplace",)
        for c in cands:
            if c == "truncated_laplace" and not tl_everywhere and not tl_relevant(cache, r):
                continue
            call = F.calibration_call(c, r["epsilon"], r["delta"], r["dim"], "linf", r["compositions"])
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
        for part in ("main", "tl"):
            left = None if ns.budget_minutes is None else ns.budget_minutes * 60 - (time.perf_counter() - t0)
            if left is not None and left <= 0:
                break
            tasks = tasks_for(stage, cache, part)
            if not tasks:
                continue
            bar = SweepProgress(len({t.key(cache.version) for t in tasks}), label=f"frontier {stage}/{part}", every=60.0)
            out = run_tasks(tasks, ns.cache, scheduler=ns.scheduler, workers=ns.workers, progress=bar,
                            budget_seconds=left, chunk=ns.chunk if ns.chunk else (50 if stage == "cheap" else 1))
            n_done = sum(o is not None for o in out)
            secs = sum(o["seconds"] for o in out if o is not None and not o.get("cached"))
            print(f"frontier: stage {stage}/{part}: {n_done}/{len(out)} calls done ({secs:.0f} s of task time this "
                  f"run; {time.perf_counter() - t0:.0f} s wall so far)", file=sys.stderr, flush=True)
    return 0


def cmd_seed(ns) -> int:
    import gzip

    data = json.loads(gzip.open(ns.data, "rt").read())
    if data.get("format") != "fhsym-frontier/1":
        raise SystemExit(f"--data: not a frontier data file (format {data.get('format')!r})")
    cache = DiskCache(ns.cache)
    n_ok = n_err = 0
    for rec in data["calibrations"].values():
        cert = rec["certificate"]
        result = {"mechanism": cert["mechanism"], "parameters": rec["parameters"], "variance": rec["variance"],
                  "method": rec["method"], "achieved_delta": rec["achieved_delta"], "certificate": cert}
        cache.put(F.frontier_task(rec["call"]), {"result": result, "seconds": rec["seconds"], "seeded": True})
        n_ok += 1
    keys = ("norm", "dim", "compositions", "epsilon", "delta")
    seen = set()
    for en in data["entries"]:
        calls = F.calls_of({k: en[k] for k in keys})
        for c, status in en["status"].items():
            if not status.startswith("error: ") or c in (ns.retry or ()):
                continue
            task = F.frontier_task(calls[c])
            if task.key(cache.version) not in seen:
                seen.add(task.key(cache.version))
                cache.put(task, {"error": status[len("error: "):], "seconds": 0.0, "seeded": True})
                n_err += 1
    print(f"frontier seed: {n_ok} calibrations and {n_err} recorded errors from {ns.data} into {ns.cache}"
          f"{' (errors of ' + ', '.join(ns.retry) + ' left out)' if ns.retry else ''}")
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
    sd = sub.add_parser("seed", help="fill the cache from a data file (resume from published results)")
    sd.add_argument("--data", type=Path, default=DATA)
    sd.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    sd.add_argument("--retry", action="append", choices=F.CANDIDATES, help="leave this candidate's errors out")
    p = sub.add_parser("report", help="figures and docs/frontier.md from the data file")
    p.add_argument("--data", type=Path, default=DATA)
    ns = ap.parse_args(argv)
    if ns.cmd == "run":
        return cmd_run(ns)
    if ns.cmd == "seed":
        return cmd_seed(ns)
    from frontier_report import assemble, report  # scripts/frontier_report.py

    if ns.cmd == "assemble":
        return assemble(ns.cache, ns.out)
    return report(ns.data)


if __name__ == "__main__":
    sys.exit(main())
