"""Compute the certified frontier (docs/frontier.md) as cached tasks, locally or on a Dask cluster.

Usage::

    python scripts/frontier.py run [--stage NAME ...] [--scheduler ADDRESS] [--workers N] [--budget-minutes M]
    python scripts/frontier.py assemble      # cache -> fhsym/applications/data/frontier.json.gz
    python scripts/frontier.py seed [--retry CANDIDATE ...] [--recompute STAGE ...]   # data file -> cache
    python scripts/frontier.py refresh --stage STAGE [--scheduler serial]   # recompute one stage, keep the rest
    python scripts/frontier.py compare BEFORE AFTER   # what differs between two data files
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
leaves that candidate's recorded errors out, so ``run`` recomputes them (after a fix).  ``--recompute STAGE``
leaves out every record of that stage (its calibrations and errors, or the optimum intervals) and deletes any the cache
already holds, so that ``run --stage STAGE`` computes that stage again and nothing else.

``refresh --stage STAGE`` is that in one command, for when the code behind one stage changed (e.g.
``fhsym.optimal_variance``: ``refresh --stage optimum``, 96 calls): seed a fresh cache from the data file without
that stage, ``run`` it, ``assemble`` the data file again (its shards too) keeping each unchanged calibration's
recorded 99.9 % quantile (``assemble --quantiles-from``: only the stage may change), and ``report`` (figures, the
advisor table, docs/frontier.md; the README's frontier paragraph is printed as ``README headline:``, and a line
says when README.md differs from it).  It prints what changed (``compare``): each optimum interval before and after,
and every other field of the data file that differs (none, when only the optimum stage was recomputed); when nothing
but timings changed, the data file is left as it was.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from fhsym.applications import frontier as F  # noqa: E402
from fhsym.applications.sweeps import DiskCache, SweepProgress, run_tasks, uses_dask  # noqa: E402

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


def stage_tasks(stage: str):
    """Every task ``run --stage STAGE`` can submit, whatever the cache holds (a tier's truncated Laplace calls too,
    which ``run`` submits only where they can matter): the records ``seed --recompute STAGE`` leaves out."""
    if stage in ("cheap", "staircase", "optimum"):
        return tasks_for(stage, None)
    tasks = []
    for r in _box_releases(stage):
        for c in EXPENSIVE + (TL,):
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


def _check_run_options(ns, stages) -> None:
    """Every option of `run` (and `refresh`, before it seeds anything) used or refused: --timeout stops a calibration
    by SIGALRM, which works in the main thread only (--scheduler serial), and the optimum stage's tasks do not read
    it; --chunk groups tasks per Dask submission; --workers sizes a local cluster."""
    import math

    if ns.timeout is not None:
        if not (ns.timeout > 0 and math.isfinite(ns.timeout)):
            raise SystemExit(f"--timeout: a number of seconds > 0; got {ns.timeout!r}")
        if ns.scheduler != "serial" or all(st == "optimum" for st in stages):
            raise SystemExit(f"--timeout: stops a calibration under --scheduler serial only (not the optimum stage's "
                             f"intervals); got --scheduler {ns.scheduler} --stage {' '.join(stages)}")
    if ns.chunk and not uses_dask(ns.scheduler):
        raise SystemExit(f"--chunk: calibrations per Dask task; --scheduler {ns.scheduler} runs them in this process")
    if ns.workers is not None and not (ns.scheduler == "local" or (ns.scheduler == "auto" and uses_dask("auto"))):
        raise SystemExit(f"--workers: the local cluster's processes; --scheduler {ns.scheduler} starts none "
                         f"(give --scheduler local)")


def cmd_run(ns) -> int:
    import os

    _check_run_options(ns, ns.stage or STAGES)
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
            chunk = ns.chunk if ns.chunk else {"cheap": 50, "staircase": 10}.get(stage, 1)
            out = run_tasks(tasks, ns.cache, scheduler=ns.scheduler, workers=ns.workers, progress=bar,
                            budget_seconds=left, chunk=chunk if uses_dask(ns.scheduler) else 1)
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
    fresh = {t.key(cache.version) for st in (ns.recompute or ()) for t in stage_tasks(st)}
    n_drop = 0
    for k in fresh:  # a cached record of a stage to recompute would be served again: remove it
        p = cache.directory / f"{k}.json"
        if p.is_file():
            p.unlink()
            n_drop += 1
    n_ok = n_err = n_left = 0
    for rec in data["calibrations"].values():
        if F.frontier_task(rec["call"]).key(cache.version) in fresh:
            n_left += 1
            continue
        cert = rec["certificate"]
        result = {"mechanism": cert["mechanism"], "parameters": rec["parameters"], "variance": rec["variance"],
                  "method": rec["method"], "achieved_delta": rec["achieved_delta"], "certificate": cert}
        cache.put(F.frontier_task(rec["call"]), {"result": result, "seconds": rec["seconds"], "seeded": True})
        n_ok += 1
    for o in data.get("optimum", []):
        if F.optimum_task(o["epsilon"], o["delta"]).key(cache.version) in fresh:
            n_left += 1
            continue
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
            if task.key(cache.version) in fresh:
                continue
            if task.key(cache.version) not in seen:
                seen.add(task.key(cache.version))
                cache.put(task, {"error": status[len("error: "):], "seconds": 0.0, "seeded": True})
                n_err += 1
    print(f"frontier seed: {n_ok} calibrations and {n_err} recorded errors from {ns.data} into {ns.cache}"
          f"{' (errors of ' + ', '.join(ns.retry) + ' left out)' if ns.retry else ''}"
          + (f"; stage(s) {', '.join(ns.recompute)} left out to recompute: {n_left} records not seeded, "
             f"{n_drop} cached ones deleted" if ns.recompute else ""))
    return 0


def differences(a, b, path=()):
    """The paths (tuples of keys / indices) where two JSON values differ; a float differs unless equal."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b:
                yield path + (k,)
            else:
                yield from differences(a[k], b[k], path + (k,))
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            yield from differences(x, y, path + (i,))
    elif a != b or type(a) is not type(b):
        yield path


def compare(before, after, out=None) -> list:
    """Print what differs between two data files: the optimum intervals point by point (lower, upper and width
    before and after), then every other differing field (by its first two keys, with a count).  Returns the paths
    that differ outside ``optimum`` and ``generated_at`` / ``summary.optimum_seconds`` (the stage's own)."""
    out = sys.stdout if out is None else out
    old = {(o["epsilon"], o["delta"]): o for o in before.get("optimum", [])}
    new = {(o["epsilon"], o["delta"]): o for o in after.get("optimum", [])}
    print("optimum intervals (eps, delta: lower, upper, width % before -> after; ! = an end moved outward)", file=out)
    for key in sorted(set(old) | set(new), key=lambda k: (k[1], k[0])):
        o, n = old.get(key), new.get(key)
        if o is None or n is None or "error" in o or "error" in n:
            print(f"  {key[0]:g}, {key[1]:g}: {o} -> {n}", file=out)
            continue
        if (o["lower"], o["upper"]) == (n["lower"], n["upper"]):
            continue
        flag = " !" if n["lower"] < o["lower"] or n["upper"] > o["upper"] else ""
        print(f"  {key[0]:g}, {key[1]:g}: {o['lower']:.9g}, {o['upper']:.9g}, {100 * (o['upper'] / o['lower'] - 1):.4g} %"
              f" -> {n['lower']:.9g}, {n['upper']:.9g}, {100 * (n['upper'] / n['lower'] - 1):.4g} %{flag}", file=out)
    same = sum((old[k]["lower"], old[k]["upper"]) == (new[k]["lower"], new[k]["upper"])
               for k in set(old) & set(new) if "error" not in old[k] and "error" not in new[k])
    fields = Counter(p[-1] for k in set(old) & set(new) for p in differences(old[k], new[k])
                     if p and p[-1] not in ("lower", "upper"))
    print(f"  ({same} of {len(new)} intervals unchanged; the records' other fields that differ: "
          + (", ".join(f"{f} at {n}" for f, n in sorted(fields.items())) or "none") + ")", file=out)
    own = {("optimum",), ("generated_at",), ("summary", "optimum_seconds")}
    rest = [p for p in differences(before, after)
            if p[:1] not in own and p[:2] not in own]
    groups = Counter(p[:2] for p in rest)
    print(f"other fields that differ: {len(rest)}" + "".join(f"\n  {'.'.join(map(str, g))}: {n}"
                                                              for g, n in sorted(groups.items(), key=str)), file=out)
    return rest


def cmd_compare(ns) -> int:
    import gzip

    before, after = (json.loads(gzip.decompress(p.read_bytes()) if p.suffix == ".gz" else p.read_bytes())
                     for p in (ns.before, ns.after))
    return 1 if compare(before, after) else 0


def _timing_only(path) -> bool:
    """Whether a differing path is a timing or the assembly time (what every run changes)."""
    return path[-1:] == ("seconds",) or path in (("generated_at",), ("summary", "optimum_seconds"),
                                                 ("summary", "task_seconds"))


def cmd_refresh(ns) -> int:
    """Recompute one stage and keep everything else of the data file: seed (without it), run it, assemble into a
    scratch file, compare; write the data file (and its shards), the figures and the page only if a result changed."""
    import shutil
    import tempfile

    from frontier_report import _write_shards, assemble, headline, load, report  # scripts/frontier_report.py

    _check_run_options(argparse.Namespace(timeout=ns.timeout, scheduler=ns.scheduler, workers=ns.workers, chunk=None),
                       ns.stage)  # before anything is seeded
    scratch = Path(tempfile.mkdtemp(prefix="frontier-refresh-"))
    cache = ns.cache if ns.cache is not None else scratch / "cache"
    out = ns.data if ns.out is None else ns.out
    try:
        if cmd_seed(argparse.Namespace(data=ns.data, cache=cache, retry=None, recompute=ns.stage)):
            return 1
        code = cmd_run(argparse.Namespace(stage=ns.stage, scheduler=ns.scheduler, workers=ns.workers,
                                          budget_minutes=None, cache=cache, chunk=None, eps="all", shard=None,
                                          timeout=ns.timeout))
        if code:
            return code
        missing = [t.label for st in ns.stage for t in tasks_for(st, DiskCache(cache), "main")
                   if DiskCache(cache).get(t) is None]
        if missing:
            print(f"frontier refresh: {len(missing)} task(s) not computed (first: {missing[0]}); the data file is "
                  f"left as it was", file=sys.stderr)
            return 1
        staged = scratch / "frontier.json.gz"
        code = assemble(cache, staged, quantiles_from=ns.data)
        if code:
            return code
        before, after = load(ns.data), load(staged)
        compare(before, after)
        if out == ns.data and all(_timing_only(p) for p in differences(before, after)):
            print(f"frontier refresh: no result changed (only timings); {out} left as it was")
            return 0
        shutil.copyfile(staged, out)
        _write_shards(out)
        print(f"frontier refresh: wrote {out}")
        if ns.no_report:
            return 0
        code = report(out)
        words = " ".join(headline(after).split())
        if words not in " ".join((ROOT / "README.md").read_text().split()):
            print("frontier refresh: README.md's frontier paragraph is not the 'README headline:' printed above; "
                  "restate it (tests/test_frontier.py checks it)", file=sys.stderr)
        return code
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


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
    a.add_argument("--quantiles-from", type=Path, default=None, metavar="DATA", help="keep this data file's 99.9 %% "
                   "quantile of every calibration recorded there unchanged (else each is computed again)")
    sd = sub.add_parser("seed", help="fill the cache from a data file (resume from published results)")
    sd.add_argument("--data", type=Path, default=DATA)
    sd.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    sd.add_argument("--retry", action="append", choices=F.CANDIDATES + F.ONE_D_CANDIDATES, help="leave this candidate's errors out")
    sd.add_argument("--recompute", action="append", choices=STAGES, metavar="STAGE", help="leave this stage's records "
                    "out (and delete them from the cache), so that `run --stage STAGE` recomputes them")
    cp = sub.add_parser("compare", help="what differs between two data files (the optimum intervals, then the rest); "
                        "exit 1 if anything but the optimum stage differs")
    cp.add_argument("before", type=Path)
    cp.add_argument("after", type=Path)
    rf = sub.add_parser("refresh", help="recompute one stage, keep the rest of the data file (seed, run, assemble, report)")
    rf.add_argument("--stage", action="append", choices=STAGES, required=True, help="the stage(s) to recompute")
    rf.add_argument("--data", type=Path, default=DATA, help="the data file to refresh (default: the package's)")
    rf.add_argument("--out", type=Path, default=None, help="write the refreshed data file here (default: over --data)")
    rf.add_argument("--cache", type=Path, default=None, help="a cache directory (default: a temporary one, removed "
                    "after)")
    rf.add_argument("--scheduler", default="serial", help="as for run (default serial)")
    rf.add_argument("--workers", type=int, default=None, help="as for run (a local cluster: refused with serial)")
    rf.add_argument("--timeout", type=float, default=None, help="as for run: a calibration stage, --scheduler serial "
                    "(refused otherwise)")
    rf.add_argument("--no-report", action="store_true", help="do not rewrite the figures and docs/frontier.md")
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
    if ns.cmd == "refresh":
        return cmd_refresh(ns)
    if ns.cmd == "compare":
        return cmd_compare(ns)
    from frontier_report import assemble, report  # scripts/frontier_report.py

    if ns.cmd == "assemble":
        return assemble(ns.cache, ns.out, quantiles_from=ns.quantiles_from)
    return report(ns.data)


if __name__ == "__main__":
    sys.exit(main())
