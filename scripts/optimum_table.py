"""The certified optimum of additive noise at 12 points: prints the table of docs/optimum.md, writes the data file.

Usage::

    python scripts/optimum_table.py [--out PATH]     # default: fhsym/optimum/data/optimum_bounds.json.gz

For eps in {0.1, 0.3, 1, 3} and delta in {1e-5, 1e-6, 1e-8} (sensitivity 1) it runs
:func:`fhsym.optimal_variance` with its default grid, times it, re-checks the result from the record
alone (:func:`fhsym.optimum.recorded.recheck`: exact rationals, no LP solver) and compares it with the
certified variances of fhsym's mechanisms (``fhsym.calibrate``; the staircase is pure eps-DP).
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import fhsym  # noqa: E402
from fhsym.optimum.recorded import DATA, recheck  # noqa: E402

EPSILONS = (0.1, 0.3, 1.0, 3.0)
DELTAS = (1e-5, 1e-6, 1e-8)
MECHANISMS = ("staircase", "flipped_huber", "truncated_laplace", "laplace", "osgt", "gaussian")


def record_of(iv: "fhsym.optimum.OptimumInterval", seconds: float) -> dict:
    return {
        "epsilon": iv.epsilon, "delta": iv.delta, "sensitivity": iv.sensitivity,
        # the record's noise is the LP's (recorded.recheck re-derives its variance and privacy); where the staircase
        # is lower (OptimumInterval.noise), the recorded upper end is still the LP noise's, a valid upper bound
        "lower": iv.lower, "upper": iv.primal_upper, "ratio": iv.primal_upper / iv.lower if iv.lower > 0 else None,
        "proven_delta": iv.primal.certified_sup_profile(iv.epsilon, iv.sensitivity),
        "bins": iv.bins, "support": iv.support, "lp_rows": iv.lp_rows, "lp_columns": iv.lp_columns,
        "seconds": round(seconds, 2),
        "noise": {"width": iv.primal.width, "weights": list(iv.primal.weights)},
        "dual": iv.dual.to_json(),
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DATA)
    args = ap.parse_args(argv)
    records = []
    head = (f"{'eps':>4} {'delta':>6} {'lower':>12} {'upper':>12} {'up/low':>8} {'m':>3} {'M':>5} "
            f"{'LP rows x cols':>15} {'s':>5}  " + " ".join(f"{m[:9]:>10}" for m in MECHANISMS))
    print(head)
    for eps in EPSILONS:
        for delta in DELTAS:
            t0 = time.perf_counter()
            iv = fhsym.optimal_variance(eps, delta)
            sec = time.perf_counter() - t0
            rec = record_of(iv, sec)
            chk = recheck(rec)
            assert (chk.lower, chk.upper) == (iv.lower, iv.primal_upper) and chk.proven_delta <= delta, (chk, iv)
            rec["mechanisms"] = {m: fhsym.calibrate(eps, delta, mechanism=m).variance for m in MECHANISMS}
            records.append(rec)
            print(f"{eps:>4g} {delta:>6.0e} {iv.lower:>12.7g} {rec['upper']:>12.7g} {rec['ratio']:>8.5f} {iv.bins:>3} "
                  f"{iv.support:>5} {iv.lp_rows:>7} x {iv.lp_columns:<6} {sec:>5.1f}  "
                  + " ".join(f"{rec['mechanisms'][m]:>10.6g}" for m in MECHANISMS), flush=True)
    print("\nexcess variance over V* (percent: [var/upper - 1, var/lower - 1]; certified variances of fhsym.calibrate)")
    print(f"{'eps':>4} {'delta':>6}  " + " ".join(f"{m[:17]:>17}" for m in MECHANISMS))
    for rec in records:
        cells = []
        for m in MECHANISMS:
            v = rec["mechanisms"][m]
            lo, hi = 100.0 * (v / rec["upper"] - 1.0), 100.0 * (v / rec["lower"] - 1.0)
            cells.append(f"[{lo:>7.3f}, {hi:>7.3f}]")
        print(f"{rec['epsilon']:>4g} {rec['delta']:>6.0e}  " + " ".join(f"{c:>17}" for c in cells))
    payload = {
        "description": "Certified intervals lower <= V*(eps, delta, 1) <= upper for the least variance of any "
                       "additive (eps, delta)-DP noise (fhsym.optimal_variance; docs/optimum.md). 'dual' re-checks "
                       "'lower' in exact rationals, 'noise' is the piecewise-uniform noise whose exact variance is "
                       "'upper'; 'mechanisms' are fhsym.calibrate's variances at the same (eps, delta).",
        "fhsym_version": fhsym.__version__,
        "records": records,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    # mtime=0: the same records give the same bytes
    args.out.write_bytes(gzip.compress((json.dumps(payload, separators=(",", ":")) + "\n").encode(), mtime=0))
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
