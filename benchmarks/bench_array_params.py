"""Array parameters at scipy speed: FlippedHuber with 10^5 shapes against scipy.stats' Laplace with an array scale.

    python benchmarks/bench_array_params.py [--n 100000] [--rounds 15]

``fhsym.FlippedHuber(alpha=np.linspace(.1, 5, n), gamma=1.)`` against ``scipy.stats.laplace(scale=np.linspace(.1, 5,
n))``, each operation timed in the same process with the two alternating (A, B, A, B, ...) for ``--rounds`` rounds;
prints the median and the minimum time of each and the ratios fhsym/scipy (target <= 10, issue 24.1).  Operations:
construction; pdf, logpdf, cdf, sf at n points and ppf at n probabilities (one point per shape), on an instance built
beforehand; the same on a freshly built instance (construction plus the first call, which also computes the law's
constants); and rvs() (one draw per shape).  No timing is asserted anywhere.
"""

from __future__ import annotations

import argparse

import numpy as np
from _timing import interleaved, load, median
from scipy import stats

import fhsym


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=15)
    ns = ap.parse_args()
    n = ns.n
    shapes = np.linspace(0.1, 5.0, n)
    rng = np.random.default_rng(1)
    x = rng.normal(size=n) * 2.0
    q = rng.random(n)

    def fh_new():
        return fhsym.FlippedHuber(alpha=shapes, gamma=1.0)

    def sp_new():
        return stats.laplace(scale=shapes)

    fh, lap = fh_new(), sp_new()
    cases = [("construct", fh_new, sp_new)]
    for m, arg in (("pdf", x), ("logpdf", x), ("cdf", x), ("sf", x), ("ppf", q)):
        cases.append((f"{m} (built)", lambda m=m, arg=arg: getattr(fh, m)(arg), lambda m=m, arg=arg: getattr(lap, m)(arg)))
    for m, arg in (("pdf", x), ("cdf", x), ("ppf", q)):
        cases.append((f"construct + {m}", lambda m=m, arg=arg: getattr(fh_new(), m)(arg),
                      lambda m=m, arg=arg: getattr(sp_new(), m)(arg)))
    cases.append(("rvs()", lambda: fh.rvs(random_state=rng), lambda: lap.rvs(random_state=rng)))
    cases.append(("construct + rvs()", lambda: fh_new().rvs(random_state=rng), lambda: sp_new().rvs(random_state=rng)))

    print(load(), flush=True)
    print(f"n = {n:,} shapes; {ns.rounds} interleaved rounds (fhsym, scipy, fhsym, ...); times in ms")
    print(f"{'operation':22s} {'fhsym med':>10s} {'scipy med':>10s} {'ratio med':>10s} {'fhsym min':>10s} "
          f"{'scipy min':>10s} {'ratio min':>10s}")
    worst = 0.0
    for label, fa, fb in cases:
        ta, tb = interleaved(fa, fb, ns.rounds)
        ma, mb = median(ta), median(tb)
        worst = max(worst, ma / mb)
        print(f"{label:22s} {ma * 1e3:10.2f} {mb * 1e3:10.2f} {ma / mb:10.2f} {min(ta) * 1e3:10.2f} "
              f"{min(tb) * 1e3:10.2f} {min(ta) / min(tb):10.2f}")
    print(f"largest median ratio {worst:.2f} (target <= 10: {'met' if worst <= 10 else 'MISSED'})")
    print(load(), flush=True)


if __name__ == "__main__":
    main()
