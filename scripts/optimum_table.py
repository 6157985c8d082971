"""The certified optimum of additive noise: computes the records of fhsym/optimum/data and prints their table.

Usage::

    python scripts/optimum_table.py [--grid paper12|frontier] [--scheduler serial|local|auto|ADDRESS] [--workers N]
                                    [--cache DIR] [--budget SECONDS] [--out PATH] [--only EPS:DELTA ...]
                                    [--bins M] [--recompute]

Each point is one task of the frontier's sweep runner (:func:`fhsym.applications.sweeps.run_tasks`; task
:func:`fhsym.applications.frontier.optimum_grid_task` = :func:`fhsym.optimum.api.compute_record`): the LP
solved now with :func:`fhsym.optimal_variance`'s default grid (``recorded=False``), its record re-checked from the
record alone (exact rationals, no LP solver).  So the same command runs in-process (``--scheduler serial``), on a
local Dask cluster or on a running Dask scheduler; results are cached per task in ``--cache`` and an interrupted run
resumes.  The records are merged into ``--out`` (default: fhsym/optimum/data/optimum_bounds.json.gz): a point
computed now replaces its old record, the others are kept.

* ``--grid paper12`` (default): eps in {0.1, 0.3, 1, 3} x delta in {1e-5, 1e-6, 1e-8}, with the certified
  variances of fhsym's mechanisms (``fhsym.calibrate``; the staircase is pure eps-DP) and their excess over V*;
* ``--grid frontier``: the frontier's 1-D grid (``fhsym.applications.frontier.EPSILONS x DELTAS``, 96 points),
  cheapest first (by the frontier data's recorded optimum seconds); only the points ``--out`` does not hold yet
  unless ``--recompute``.
* ``--bins M``: every point on ``M`` bins per unit sensitivity instead of the automatic grid (with ``--only`` and
  ``--recompute``: a finer grid where the automatic one leaves the interval wide; LPs above 8,000 columns are solved
  by row generation, :mod:`fhsym.optimum.rowgen`).
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import fhsym  # noqa: E402
from fhsym.applications import frontier as F  # noqa: E402
from fhsym.applications.sweeps import run_tasks  # noqa: E402
from fhsym.optimum.recorded import DATA, FORMAT, best_of, dumps, load, recheck  # noqa: E402

EPSILONS = (0.1, 0.3, 1.0, 3.0)
DELTAS = (1e-5, 1e-6, 1e-8)
MECHANISMS = ("staircase", "flipped_huber", "truncated_laplace", "laplace", "osgt", "gaussian")
DESCRIPTION = ("Certified intervals lower <= V*(eps, delta, 1) <= upper for the least variance of any additive "
               "(eps, delta)-DP noise (fhsym.optimal_variance; docs/optimum.md). 'dual' re-checks 'lower' in exact "
               "rationals, 'noise' is the piecewise-uniform noise whose exact variance is 'upper'; 'mechanisms' "
               "(where present) are fhsym.calibrate's variances at the same (eps, delta). One record per line after "
               "this header.")


def points(grid: str):
    if grid == "paper12":
        return [(e, d) for e in EPSILONS for d in DELTAS]
    pts = [(e, d) for d in F.DELTAS for e in F.EPSILONS]
    # cheapest first: the frontier data's recorded seconds of the same optimum (unknown: last)
    try:
        seen = {(o["epsilon"], o["delta"]): o.get("seconds", 1e9)
                for o in json.loads(gzip.decompress((ROOT / "fhsym/applications/data/frontier.json.gz").read_bytes()))
                ["optimum"]}
    except (OSError, KeyError, ValueError):
        seen = {}
    return sorted(pts, key=lambda p: seen.get(p, 1e9))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--grid", choices=("paper12", "frontier"), default="paper12")
    ap.add_argument("--scheduler", default="serial", help="serial, local, auto or a Dask scheduler address")
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--cache", type=Path, default=ROOT / ".frontier-cache" / "optimum-records")
    ap.add_argument("--budget", type=float, default=None, help="stop submitting after this many seconds")
    ap.add_argument("--only", nargs="*", default=None, help="points EPS:DELTA (default: the whole grid)")
    ap.add_argument("--out", type=Path, default=DATA)
    ap.add_argument("--bins", type=int, default=None, help="bins per unit sensitivity (default: the automatic grid)")
    ap.add_argument("--recompute", action="store_true",
                    help="--grid frontier: also the points --out already records (default: only the missing ones)")
    args = ap.parse_args(argv)
    pts = points(args.grid)
    if args.only:
        want = {(float(e), float(d)) for e, d in (x.split(":") for x in args.only)}
        pts = [p for p in pts if p in want]
    old = {}
    if args.out.exists():
        old = {(r["epsilon"], r["delta"]): r for r in load(args.out)}
    if args.grid == "frontier" and not args.recompute:
        pts = [p for p in pts if p not in old]
    tasks = [F.optimum_grid_task(e, d, bins=args.bins) for e, d in pts]

    def show(task, out):
        if "result" in out:
            r = out["result"]
            print(f"  eps={r['epsilon']:g} delta={r['delta']:g}: [{r['lower']:.7g}, {r['upper']:.7g}] "
                  f"ratio {r['ratio']:.6f}, m={r['bins']}, M={r['support']}, {out['seconds']:.1f} s", flush=True)

    outs = run_tasks(tasks, args.cache, scheduler=args.scheduler, workers=args.workers,
                     budget_seconds=args.budget, on_result=show)
    new, missing = {}, []
    for (e, d), out in zip(pts, outs):
        if out is None or "error" in out:
            missing.append((e, d, None if out is None else out["error"]))
            continue
        rec = out["result"]
        chk = recheck(rec)  # again here: a record from a cache or a remote worker is not trusted
        assert (chk.lower, chk.upper) == (rec["lower"], rec["upper"]) and chk.proven_delta <= d, (chk, rec)
        if args.grid == "paper12":
            rec["mechanisms"] = {m: fhsym.calibrate(e, d, mechanism=m).variance for m in MECHANISMS}
        elif (e, d) in old and "mechanisms" in old[(e, d)]:
            rec["mechanisms"] = old[(e, d)]["mechanisms"]
        if (e, d) in old:  # each end from the solve that is better there (re-checked again below)
            rec = best_of(old[(e, d)], rec)
            chk = recheck(rec)
            assert (chk.lower, chk.upper) == (rec["lower"], rec["upper"]) and chk.proven_delta <= d, (chk, rec)
        new[(e, d)] = rec
    merged = {**old, **new}
    print(f"\n{'eps':>5} {'delta':>6} {'lower':>12} {'upper':>12} {'up/low':>9} {'m':>3} {'M':>5} {'s':>7}")
    for (e, d) in sorted(merged):
        r = merged[(e, d)]
        print(f"{e:>5g} {d:>6.0e} {r['lower']:>12.7g} {r['upper']:>12.7g} {r['ratio']:>9.6f} {r['bins']:>3} "
              f"{r['support']:>5} {r['seconds']:>7.1f}")
    if args.grid == "paper12":
        print("\nexcess variance over V* (percent: [var/upper - 1, var/lower - 1]; certified variances of "
              "fhsym.calibrate)")
        print(f"{'eps':>4} {'delta':>6}  " + " ".join(f"{m[:17]:>17}" for m in MECHANISMS))
        for (e, d) in pts:
            rec = merged[(e, d)]
            cells = []
            for m in MECHANISMS:
                v = rec["mechanisms"][m]
                cells.append(f"[{100.0 * (v / rec['upper'] - 1.0):>7.3f}, {100.0 * (v / rec['lower'] - 1.0):>7.3f}]")
            print(f"{e:>4g} {d:>6.0e}  " + " ".join(f"{c:>17}" for c in cells))
    header = {"description": DESCRIPTION, "fhsym_version": fhsym.__version__, "format": FORMAT}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(dumps(list(merged.values()), header))
    print(f"wrote {args.out} ({len(merged)} records, {args.out.stat().st_size} bytes)")
    if missing:
        print(f"not computed ({len(missing)}): " + ", ".join(f"{e:g}:{d:g}" + (f" ({err})" if err else "")
                                                          for e, d, err in missing))
        print("compute them with: python scripts/optimum_table.py --grid frontier --only "
              + " ".join(f"{e!r}:{d!r}" for e, d, _ in missing))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
