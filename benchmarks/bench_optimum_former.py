"""The optimum's exact re-check against a former revision's, interleaved in one process (issue 31 item 2).

    python benchmarks/bench_optimum_former.py [--former a1e0953] [--rounds 7] [--eps 0.1 1 3 10]

A: ``fhsym.optimal_variance(eps, 1e-6)`` with the former revision's ``DualCertificate.lp_bound`` and piecewise-uniform
``sup_profile_bounds`` (term by term in Python integers) patched in; B: today's (one numpy pass over the shifts, the
dual's per-column integer sums).  Every memo is cleared before each call (``bench_optimum._clear``: the records are
re-checked in exact rationals each time), calls alternate A, B, A, B, and the clock is this process's CPU time.  Both
routes give the same exact rationals (tests/optimum); this prints their cost ratio and checks that the two intervals
are equal (after one untimed warm-up call of each).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
from _former_module import load_former  # noqa: E402
from bench_optimum import _clear  # noqa: E402

import fhsym  # noqa: E402
from fhsym.noise import piecewise_uniform as PU  # noqa: E402
from fhsym.optimum import dual as D  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--former", default="a1e0953")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--eps", type=float, nargs="+", default=[0.1, 1.0, 3.0, 10.0])
    a = ap.parse_args()
    plan = load_former(a.former, "fhsym/noise/plans/piecewise_uniform.py", "fhsym.noise._former_pu_plan")
    dual = load_former(a.former, "fhsym/optimum/dual.py", "fhsym.noise._former_dual",
                       [("from ..noise.plans.piecewise_uniform", "from fhsym.noise.plans.piecewise_uniform")])
    current = (D.DualCertificate.lp_bound, PU.sup_profile_bounds)
    former = (lambda self: dual.DualCertificate.lp_bound(self), plan.sup_profile_bounds)

    def use(pair: tuple) -> None:
        D.DualCertificate.lp_bound, PU.sup_profile_bounds = pair

    print(f"fhsym {fhsym.__version__}, former {a.former}, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    try:
        for eps in a.eps:
            times: dict = {"former": [], "current": []}
            ends = {}
            for pair in (former, current):  # one warm-up call of each (imports, first-use set-up), untimed
                use(pair)
                _clear()
                fhsym.optimal_variance(eps, 1e-6)
            for _ in range(a.rounds):
                for label, pair in (("former", former), ("current", current)):
                    use(pair)
                    _clear()
                    t0 = time.process_time()
                    iv = fhsym.optimal_variance(eps, 1e-6)
                    times[label].append(time.process_time() - t0)
                    ends[label] = (iv.lower, iv.upper, iv.proven_delta)
            mf, mc = statistics.median(times["former"]), statistics.median(times["current"])
            print(f"optimal_variance({eps:g}, 1e-6) re-checked: former {mf * 1e3:8.1f} ms CPU, current {mc * 1e3:8.1f} "
                  f"ms CPU, ratio {mc / mf:.2f}; the same interval: {ends['former'] == ends['current']}")
    finally:
        use(current)
    print(f"load average at the end {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
