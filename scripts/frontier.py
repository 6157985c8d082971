"""Compute the certified frontier (docs/frontier.md) as cached tasks, locally or on a Dask cluster.

Usage::

    python scripts/frontier.py run [--stage NAME ...] [--scheduler ADDRESS] [--workers N] [--budget-minutes M]
    python scripts/frontier.py assemble      # cache -> fhsym/applications/data/frontier.json.gz
    python scripts/frontier.py seed [--retry CANDIDATE ...]   # data file -> cache (resume from published results)
    python scripts/frontier.py report        # data file -> docs/figures/frontier_*.png and docs/frontier.md
    python scripts/frontier.py shards [--check]   # data file -> its per-(eps, delta) shards (fhsym.advise reads them)

``run`` submits the calibrations of the stages named (default: all, in order) to
:func:`fhsym.applications.sweeps.run_tasks`; every result is cached in ``--cache``
(default ``.frontier-cache/``), one file per calibration, so an interrupted run resumes.
Stages (the box-based calibrations are keyed by K T, see
:func:`fhsym.applications.frontier.calibration_call`):

* ``cheap``: Gaussian, pure Laplace and staircase everywhere, and every candidate in one dimension (K T = 1),
  the one-coordinate ones too (:func:`fhsym.applications.frontier.candidates_for`);
* ``staircase``: the staircase composed through the proven PLD (``staircase_pld``) at every K T > 1;
* ``optimum``: the certified interval of the optimum (``fhsym.optimal_variance``) at every (eps, delta) in 1-D;
* ``tier1`` ... ``tier4`` (:data:`TIERS`): the exact K T-fold calibrations of FH, K-fold Laplace and OSGT
  over the box, and truncated Laplace: everywhere in tier1 (K in {5, 20, 100, 1000}, delta in {1e-6, 1e-10},
  T = 1, every eps: the first useful map), afterwards only where it can matter: where the K-fold Laplace
  variance is within ``TL_RELEVANCE`` of the best other candidate (the data file's ``tl_vs_laplace``
  records how far truncated Laplace ever was below the K-fold Laplace where both were computed).
  tier2: the other K; tier3: delta in {1e-5, 1e-8}; tier4: T = 10 and 100 (the new products K T).

``assemble`` writes the data file from whatever is cached: each release lists the candidates computed,
skipped (with the reason) or not computed; nothing is filled in.

``shards`` writes the advisor's index of the data file, one file per (eps, delta) in
``fhsym/applications/data/frontier_shards/`` (:mod:`fhsym.applications.frontier_shards`); ``assemble`` and
``frontier_report.py verify`` rewrite it too; ``--check`` exits 1 when it is stale, writing nothing.

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
STAGES = ("cheap", "staircase", "optimum", "tier1", "tier2", "tier3", "tier4")
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
TL = F.TruncatedLaplace.name
EXPENSIVE = (F.FH, F.LAPLACE_KFOLD, F.OSGT.name)  # then truncated Laplace where it can matter
CHEAP = (F.Gaussian.name, F.LAPLACE_PURE, F.Staircase.name)


def _label(call):
    return (f"{call['mechanism']} K={call['dim']} T={call['compositions']} eps={call['epsilon']:g} "
            f"delta={call['delta']:g}")


#: the eps values the K-fold tiers compute first (``--eps core``): 12 of the 24, from 0.05 to 10, with 0.1, 0.3, 1 and 3
EPS_CORE = (0.05, 0.1, 0.2, 0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0)
EPS_CHOICES = {"all": F.EPSILONS, "core": EPS_CORE, "rest": tuple(e for e in F.EPSILONS if e not in EPS_CORE)}
_EPS = F.EPSILONS  # set by cmd_run from --eps


def _box_releases(tier: str):
    Ts, deltas, dims, _ = TIERS[tier]
    for T in Ts:
        for d in deltas:
            for K in dims:
                for e in _EPS:
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

    lap = rec(F.LAPLACE_KFOLD)
    if lap is not None and "error" in lap:
        return True  # the K-fold Laplace failed: no variance to prune by, so truncated Laplace is attempted
    others = [v for v in (var(c) for c in F.CANDIDATES if c not in (TL, F.LAPLACE_KFOLD)) if v]
    return lap is not None and bool(others) and lap["result"]["variance"] <= TL_RELEVANCE * min(others)


def tasks_for(stage: str, cache: DiskCache, part: str = "main"):
    """The calibration tasks of one stage; ``part="tl"``: its truncated Laplace tasks (after the main part)."""
    tasks = []
    if part == "tl" and stage in ("cheap", "staircase", "optimum"):
        return tasks
    if stage == "cheap":
        rel = sorted(F.releases(), key=lambda r: (DELTA_ORDER.index(r["delta"]), r["compositions"], r["dim"],
                                                   r["epsilon"]))
        for r in rel:
            for c, call in F.calls_of(r).items():
                if c in CHEAP or call["dim"] * call["compositions"] == 1:
                    tasks.append(F.frontier_task(call, _label(call)))
        return tasks
    if stage == "staircase":
        for r in F.releases(norms=("linf",)):
            call = F.calibration_call(F.STAIRCASE_PLD, r["epsilon"], r["delta"], r["dim"], "linf", r["compositions"])
            tasks.append(F.frontier_task(call, _label(call) + " (PLD)"))
        return tasks
    if stage == "optimum":
        return [F.optimum_task(e, d) for d in F.DELTAS for e in F.EPSILONS]
    for r in _box_releases(stage):
        tl_everywhere = TIERS[stage][3]
        if part == "main":
            cands = EXPENSIVE + ((TL,) if tl_everywhere else ())
        else:
            cands = () if tl_everywhere else (TL,)
        for c in cands:
            if c == TL and not tl_everywhere and not tl_relevant(cache, r):
                continue
            call = F.calibration_call(c, r["epsilon"], r["delta"], r["dim"], "linf", r["compositions"])
            tasks.append(F.frontier_task(call, _label(call)))
    return tasks


def _shard(text: str):
    i, _, n = text.partition("/")
    try:
        a, b = int(i), int(n)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--shard must be I/N with 0 <= I < N; got {text!r}") from None
    if not 0 <= a < b:
        raise argparse.ArgumentTypeError(f"--shard must be I/N with 0 <= I < N; got {text!r}")
    return a, b


def cmd_run(ns) -> int:
    import os

    global _EPS
    _EPS = EPS_CHOICES[ns.eps]
    if ns.timeout:
        os.environ["FHSYM_FRONTIER_TIMEOUT"] = repr(ns.timeout)
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
            if ns.shard:
                i, n = ns.shard
                tasks = [t for t in tasks if int(t.key(cache.version), 16) % n == i]
            if not tasks:
                continue
            bar = SweepProgress(len({t.key(cache.version) for t in tasks}), label=f"frontier {stage}/{part}", every=60.0)
            out = run_tasks(tasks, ns.cache, scheduler=ns.scheduler, workers=ns.workers, progress=bar,
                            budget_seconds=left, chunk=ns.chunk if ns.chunk else {"cheap": 50, "staircase": 10}.get(stage, 1))
            n_done = sum(o is not None for o in out)
            secs = sum(o["seconds"] for o in out if o is not None and not o.get("cached"))
            print(f"frontier: stage {stage}/{part}: {n_done}/{len(out)} calls done ({secs:.0f} s of task time this "
                  f"run; {time.perf_counter() - t0:.0f} s wall so far)", file=sys.stderr, flush=True)
    return 0


def cmd_seed(ns) -> int:
    import gzip

    data = json.loads(gzip.open(ns.data, "rt").read())
    if data.get("format") != "fhsym-frontier/2":
        raise SystemExit(f"--data: not a frontier data file of format 2 (format {data.get('format')!r}; format 1 "
                         f"holds certificates of format 1, which fhsym no longer verifies)")
    cache = DiskCache(ns.cache)
    n_ok = n_err = 0
    for rec in data["calibrations"].values():
        cert = rec["certificate"]
        result = {"mechanism": cert["mechanism"], "parameters": rec["parameters"], "variance": rec["variance"],
                  "method": rec["method"], "achieved_delta": rec["achieved_delta"], "certificate": cert}
        cache.put(F.frontier_task(rec["call"]), {"result": result, "seconds": rec["seconds"], "seeded": True})
        n_ok += 1
    for o in data.get("optimum", []):
        rec = ({"result": {k: v for k, v in o.items() if k != "seconds"}, "seconds": o.get("seconds", 0.0), "seeded": True}
               if "error" not in o else {"error": o["error"], "seconds": 0.0, "seeded": True})
        cache.put(F.optimum_task(o["epsilon"], o["delta"]), rec)
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


def cmd_shards(ns) -> int:
    from fhsym.applications.frontier_shards import check_shards, shard_dir, write_shards

    if ns.check:
        problems = check_shards(ns.data)
        for p in problems:
            print(f"frontier shards: {p}", file=sys.stderr)
        print(f"frontier shards of {ns.data}: {'stale' if problems else 'fresh'}")
        return 1 if problems else 0
    n = write_shards(ns.data)
    print(f"wrote {n} shards of {ns.data.name} into {shard_dir(ns.data)}")
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
    r.add_argument("--eps", choices=tuple(EPS_CHOICES), default="all", help="the eps values of the K-fold tiers: "
                   "'core' (12 of the 24, first), 'rest' or 'all' (default)")
    r.add_argument("--shard", type=_shard, default=None, help="I/N: run only the tasks whose key is I mod N (several "
                   "processes, one cache)")
    r.add_argument("--timeout", type=float, default=None, help="stop a calibration after this many seconds and record "
                   "it as an error (with --scheduler serial)")
    a = sub.add_parser("assemble", help="write the data file from the cache")
    a.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    a.add_argument("--out", type=Path, default=DATA)
    sd = sub.add_parser("seed", help="fill the cache from a data file (resume from published results)")
    sd.add_argument("--data", type=Path, default=DATA)
    sd.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    sd.add_argument("--retry", action="append", choices=F.CANDIDATES + F.ONE_D_CANDIDATES, help="leave this candidate's errors out")
    p = sub.add_parser("report", help="figures and docs/frontier.md from the data file")
    p.add_argument("--data", type=Path, default=DATA)
    sh = sub.add_parser("shards", help="the data file's per-(eps, delta) shards that fhsym.advise reads")
    sh.add_argument("--data", type=Path, default=DATA)
    sh.add_argument("--check", action="store_true", help="write nothing; exit 1 if a shard is missing, stale or left over")
    ns = ap.parse_args(argv)
    if ns.cmd == "run":
        return cmd_run(ns)
    if ns.cmd == "seed":
        return cmd_seed(ns)
    if ns.cmd == "shards":
        return cmd_shards(ns)
    from frontier_report import assemble, report  # scripts/frontier_report.py

    if ns.cmd == "assemble":
        return assemble(ns.cache, ns.out)
    return report(ns.data)


if __name__ == "__main__":
    sys.exit(main())
