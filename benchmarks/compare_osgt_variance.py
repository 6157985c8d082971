"""Certified OSGT variance over a grid, recorded as JSON or compared side by side with a recorded run.

    python benchmarks/compare_osgt_variance.py --record before.json      # e.g. on main, before a search change
    python benchmarks/compare_osgt_variance.py --compare before.json     # after it: old, new, relative change
    python benchmarks/compare_osgt_variance.py --mechanism truncated_laplace --record tl.json   # another law

Grid: eps in {0.05, 0.1, 0.3, 1, 3, 5, 10}, delta in {1e-5, 1e-6, 1e-8, 1e-10}, sensitivity in {1, 2.5};
``fhsym.calibrate(eps, delta, sensitivity=s, mechanism="osgt")`` (or ``--mechanism``) (certified) at each point.  The comparison
prints each point's variance before and after and (new - old)/old (positive: the new search is worse),
and the worst of them.  It compares variances only: the two runs are not interleaved, so their times are not
compared (speed: ``benchmarks/bench_calibrate.py``, interleaved in one process).
"""

from __future__ import annotations

import argparse
import json

import fhsym

EPS = (0.05, 0.1, 0.3, 1.0, 3.0, 5.0, 10.0)
DELTA = (1e-5, 1e-6, 1e-8, 1e-10)
SENS = (1.0, 2.5)


def run(mechanism: str) -> dict:
    out = {}
    for eps in EPS:
        for delta in DELTA:
            for s in SENS:
                r = fhsym.calibrate(eps, delta, sensitivity=s, mechanism=mechanism)
                out[f"{eps!r},{delta!r},{s!r}"] = dict(variance=r.variance, parameters=r.parameters,
                                                      achieved_delta=r.achieved_delta)
    return out


def main(argv=None) -> float:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--record", metavar="JSON")
    g.add_argument("--compare", metavar="JSON")
    ap.add_argument("--mechanism", default="osgt")
    ns = ap.parse_args(argv)
    new = run(ns.mechanism)
    if ns.record:
        with open(ns.record, "w") as fh:
            json.dump(new, fh, indent=1)
        print(f"recorded {len(new)} points to {ns.record}")
        return 0.0
    with open(ns.compare) as fh:
        old = json.load(fh)
    worst = -float("inf")
    print(f"{'eps,delta,sensitivity':28s} {'variance before':>24s} {'variance after':>24s} {'rel. change':>12s}")
    for key, n in new.items():
        o = old[key]
        rel = (n["variance"] - o["variance"]) / o["variance"]
        worst = max(worst, rel)
        print(f"{key:28s} {o['variance']:24.17g} {n['variance']:24.17g} {rel:12.3e}")
    print(f"worst relative change (positive = worse): {worst:.3e} over {len(new)} points")
    return worst


if __name__ == "__main__":
    main()
