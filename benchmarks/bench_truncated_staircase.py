"""The truncated staircase (issue 31 item 1): certified calibration time against dp_accounting, and variance against
the certified optimum, in one process.

    python benchmarks/bench_truncated_staircase.py [--rounds 15] [--markdown] [--no-optimum | --no-speed]

Speed: ``fhsym.calibrate(eps, delta, mechanism="truncated_staircase")`` (closed-form design and a ball-arithmetic
certificate at the returned floats) interleaved with dp_accounting's ``gaussian_mechanism.get_sigma_gaussian(eps,
delta)`` (after one warm-up call of each; house style of ``benchmarks/bench_calibrate.py``): median and minimum of
each, the ratios of the medians and of the minima, the load average before and after.  Target (issue 31): <= 1.

Variance: at every point of the frontier data file's 1-D grid (``fhsym/applications/data/frontier.json.gz``, its
96 certified optimum intervals), the law's certified variance (256-bit ball, rounded up) against the interval:
``v/upper - 1`` (target <= 0) and ``v/lower - 1`` (target <= 0.1 % where the interval is narrower than that); then
the counts, the largest margins and each point above the upper end.
No timing is asserted in the tests.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import sys
from pathlib import Path
from typing import List

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fhsym  # noqa: E402
from bench_calibrate import interleaved, print_rows, row  # noqa: E402

POINTS = [(0.05, 1e-6), (0.1, 1e-6), (1.0, 1e-6), (5.0, 1e-6), (10.0, 1e-6), (1.0, 1e-10), (10.0, 1e-10)]
MECH = "truncated_staircase"


def speed(rounds: int) -> List[dict]:
    from dp_accounting import gaussian_mechanism as gm

    rows = []
    for eps, dl in POINTS:
        tb, tc = interleaved(lambda e=eps, d=dl: gm.get_sigma_gaussian(e, d),
                             lambda e=eps, d=dl: fhsym.calibrate(e, d, mechanism=MECH), rounds)
        rows.append(row(f"calibrate({eps:g}, {dl:g}, mechanism={MECH!r})", f"get_sigma_gaussian({eps:g}, {dl:g})",
                        tb, tc, 1.0))
    return rows


def optimum(markdown: bool) -> None:
    from fhsym.optimum import recorded

    path = Path(fhsym.__file__).resolve().parent / "applications" / "data" / "frontier.json.gz"
    data = json.loads(gzip.open(path).read())
    if markdown:
        print("| eps | delta | optimum lower | optimum upper | upper/lower - 1 | LP noise (record) | "
              "truncated staircase (certified) | v/upper - 1 | v/LP noise - 1 | v/lower - 1 | target |")
        print("|---|---|---|---|---|---|---|---|---|---|---|")
    met = 0
    rows = []
    for o in data["optimum"]:
        cal = fhsym.calibrate(o["epsilon"], o["delta"], mechanism=MECH)
        v = cal.mechanism.variance_upper()
        lo, up = o["lower"], o["upper"]
        rec = recorded.find(o["epsilon"], o["delta"])
        lp = rec["upper"] if rec is not None else float("nan")
        width = up / lo - 1
        ok = v <= up and (width >= 1e-3 or v <= lo * 1.001)
        met += ok
        rows.append((o["epsilon"], o["delta"], lo, up, width, v, lp))
        verdict = "met" if ok else "MISSED"
        if markdown:
            print(f"| {o['epsilon']:g} | {o['delta']:g} | {lo:.7g} | {up:.7g} | {width * 100:.4f} % | {lp:.7g} | {v:.7g} | "
                  f"{(v / up - 1) * 100:+.5f} % | {(v / lp - 1) * 100:+.5f} % | {(v / lo - 1) * 100:.5f} % | {verdict} |")
        else:
            print(f"eps {o['epsilon']:5g} delta {o['delta']:6g}  optimum [{lo:.7g}, {up:.7g}] (width {width * 100:.4f} %)"
                  f"  LP noise {lp:.7g}  truncated staircase {v:.7g}: {(v / up - 1) * 100:+.5f} % of upper, "
                  f"{(v / lp - 1) * 100:+.5f} % of the LP noise, {(v / lo - 1) * 100:.5f} % above lower  {verdict}")
    print(f"variance target met at {met} of {len(data['optimum'])} points of the frontier's 1-D grid")
    print("(the file's upper end is the least of the certified laws, this one included: v <= upper says v is at most "
          "the LP noise and the pure staircase)")
    below = [r for r in rows if r[5] <= r[3]]
    print(f"at most the upper end at {len(below)} of {len(rows)} points")
    under = [r for r in rows if r[5] <= r[6]]
    e, d, lo, up, width, v, lp = min(under, key=lambda r: r[5] / r[6])
    print(f"at most the recorded LP noise at {len(under)} of {len(rows)} points; the largest margin "
          f"{(v / lp - 1) * 100:+.5f} % at eps {e:g}, delta {d:g} (interval {width * 100:.4f} % wide)")
    narrow = [r for r in rows if r[4] < 1e-3]
    e, d, lo, up, width, v, lp = max(narrow, key=lambda r: r[5] / r[2])
    print(f"interval narrower than 0.1 % at {len(narrow)} points: v/lower - 1 at most {(v / lo - 1) * 100:.5f} % "
          f"(eps {e:g}, delta {d:g}, interval {width * 100:.4f} % wide)")
    for e, d, lo, up, width, v, lp in rows:
        if v > up:
            print(f"above the upper end: eps {e:g}, delta {d:g}: {v:.10g} against {up:.10g} "
                  f"({v / up - 1:.2e} relative)")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=15, help="interleaved rounds per point")
    ap.add_argument("--markdown", action="store_true", help="print the rows as markdown tables")
    ap.add_argument("--no-optimum", action="store_true", help="skip the variance table")
    ap.add_argument("--no-speed", action="store_true", help="skip the timing (the variance table only)")
    ns = ap.parse_args(argv)
    try:
        import dp_accounting
    except ImportError:  # pragma: no cover
        raise SystemExit("needs dp_accounting (pip install 'fhsym[dp-accounting]')")
    load = os.getloadavg()
    print(f"fhsym {fhsym.__version__}, dp_accounting {getattr(dp_accounting, '__version__', '?')}, Python "
          f"{platform.python_version()}, {os.cpu_count()} cores, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    if not ns.no_speed:
        rows = speed(ns.rounds)
        print_rows(rows, ns.markdown)
        load = os.getloadavg()
        print(f"load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; "
              f"{sum(r['verdict'] == 'met' for r in rows)} of {len(rows)} rows met")
    if not ns.no_optimum:
        optimum(ns.markdown)


if __name__ == "__main__":
    main()
