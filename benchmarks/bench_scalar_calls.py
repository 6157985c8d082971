"""Speed of FlippedHuber's scalar calls against a baseline revision (default: the claims branch), in one process.

    python benchmarks/bench_scalar_calls.py [--baseline REF] [--rounds 15] [--number 2000]

The baseline's ``fhsym`` is imported as a second package (:mod:`baseline_copy`); each call (construction, pdf,
logpdf, cdf, sf, ppf, isf, rvs(), var, privacy_profile, ... at scalar parameters and a scalar argument) is timed
``--number`` times per round, the two versions alternating (A, B, A, B, ...) for ``--rounds`` rounds.  Prints the
median and the minimum time per call of each and the ratios new/baseline (below 1: the working tree is faster).
No timing is asserted anywhere.
"""

from __future__ import annotations

import argparse
import importlib
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent


def calls(pkg):
    FH = pkg.FlippedHuber
    fh = FH(1.0, 2.0)
    big = FH(50.0, 1.0)
    return [
        ("FlippedHuber(1, 2)", lambda: FH(1.0, 2.0)),
        ("pdf(0.7)", lambda: fh.pdf(0.7)),
        ("logpdf(0.7)", lambda: fh.logpdf(0.7)),
        ("cdf(0.7)", lambda: fh.cdf(0.7)),
        ("sf(3.0)", lambda: fh.sf(3.0)),
        ("logsf(3.0)", lambda: fh.logsf(3.0)),
        ("logcdf(-3.0)", lambda: fh.logcdf(-3.0)),
        ("ppf(0.3)", lambda: fh.ppf(0.3)),
        ("isf(1e-6)", lambda: fh.isf(1e-6)),
        ("rvs()", lambda: fh.rvs(random_state=1)),
        ("rvs(10)", lambda: fh.rvs(10, random_state=1)),
        ("var()", lambda: fh.var()),
        ("std()", lambda: fh.std()),
        ("var() b=50", lambda: big.var()),
        ("interval(0.9)", lambda: fh.interval(0.9)),
        ("privacy_profile(1.0)", lambda: fh.privacy_profile(1.0)),
        ("log_privacy_profile(1.0)", lambda: fh.log_privacy_profile(1.0)),
        ("privacy_loss(0.3, 1)", lambda: fh.privacy_loss(0.3, 1.0)),
        ("pdf(list of 3)", lambda: fh.pdf([0.1, 1.0, 3.0])),
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", default=None, help="git revision (default: merge-base of HEAD and claims)")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--number", type=int, default=2000)
    ns = ap.parse_args()
    sys.path.insert(0, str(HERE))
    from baseline_copy import materialise

    ref = ns.baseline or subprocess.run(["git", "-C", str(REPO), "merge-base", "HEAD", "claims"], check=True,
                                        capture_output=True, text=True).stdout.strip()
    root, name, commit = materialise(ref)
    sys.path.insert(0, root)
    base = importlib.import_module(name)
    sys.path.insert(0, str(REPO))
    import fhsym as new

    old_calls, new_calls = calls(base), calls(new)
    print(f"baseline {commit[:10]} vs working tree; per call, {ns.rounds} interleaved rounds of {ns.number} calls")
    print(f"{'call':28s} {'base med':>10s} {'new med':>10s} {'ratio med':>10s} {'base min':>10s} {'new min':>10s} "
          f"{'ratio min':>10s}")
    for (label, fa), (_, fb) in zip(old_calls, new_calls):
        ta, tb = [], []
        fa(), fb()
        for _ in range(ns.rounds):
            for f, acc in ((fa, ta), (fb, tb)):
                t0 = time.perf_counter()
                for _ in range(ns.number):
                    f()
                acc.append((time.perf_counter() - t0) / ns.number)
        ma, mb = statistics.median(ta), statistics.median(tb)
        print(f"{label:28s} {ma * 1e6:9.2f}us {mb * 1e6:9.2f}us {mb / ma:10.3f} {min(ta) * 1e6:9.2f}us "
              f"{min(tb) * 1e6:9.2f}us {min(tb) / min(ta):10.3f}")


if __name__ == "__main__":
    main()
