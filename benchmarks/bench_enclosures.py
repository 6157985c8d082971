"""Speed of the rigorous arb enclosures (``fhsym.privacy.enclosures.enclose_profile``) per mechanism.

    python benchmarks/bench_enclosures.py [--eps 1] [--delta 1e-6] [--repeat 200]

For each mechanism, at the parameters fhsym's own calibration returns for (eps, delta) and
Delta = 1 (``fhsym.calibrate`` with each ``mechanism=``), prints the
median time of one ``enclose_profile`` call, the working precision it used and the relative
width of the float pair, against two baselines run in the same process: the float profile of
the same mechanism (``privacy_profile`` of the mechanism object) and, for FH, the mpmath
certificate ``fhsym.certified_profile`` (60/120 digits).  Ratio = time(enclosure) /
time(baseline).  A calibration calls the enclosure once or a few times.

Times are medians over ``--repeat`` calls; no timing is asserted anywhere in the tests.
"""

from __future__ import annotations

import argparse
import statistics
import time

import fhsym
from fhsym import certified_profile
from fhsym.privacy.enclosures import enclose_profile


def median_time(fn, repeat: int) -> tuple[float, object]:
    out = fn()  # warm up (constants cached per precision)
    ts = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts), out


def cases(eps: float, delta: float):
    cal = fhsym.calibrate(eps, delta)
    yield "flipped_huber", {"alpha": cal.alpha, "gamma": cal.gamma}, cal.mechanism
    for name in ("gaussian", "laplace", "truncated_laplace", "staircase", "osgt"):
        noise = fhsym.calibrate(eps, delta, mechanism=name).mechanism
        yield name, dict(noise.parameters), noise


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--eps", type=float, default=1.0)
    ap.add_argument("--delta", type=float, default=1e-6)
    ap.add_argument("--repeat", type=int, default=200)
    ns = ap.parse_args()
    eps, dl = ns.eps, 1.0
    print(f"enclose_profile at calibrated parameters, eps = {eps:g}, delta = {ns.delta:g}, Delta = 1; "
          f"median of {ns.repeat}")
    print(f"{'mechanism':18s} {'enclosure':>11} {'bits':>5} {'rel width':>10} {'float profile':>14} {'ratio':>8}"
          f"  {'mpmath certify':>15} {'ratio':>7}  delta")
    for name, params, mech in cases(eps, ns.delta):
        t_enc, e = median_time(lambda: enclose_profile(name, params, eps, dl), ns.repeat)
        t_flt, _ = median_time(lambda: mech.privacy_profile(eps, dl), ns.repeat)
        rw = (e.upper - e.lower) / e.lower if e.lower > 0 else 0.0
        line = (f"{name:18s} {t_enc * 1e6:9.0f}us {e.prec:5d} {rw:10.1e} {t_flt * 1e6:12.1f}us "
                f"{t_enc / t_flt:7.1f}x")
        if name == "flipped_huber":
            t_mp, _ = median_time(lambda: certified_profile(eps, params["alpha"], params["gamma"], dl),
                                  max(ns.repeat // 10, 3))
            line += f"  {t_mp * 1e6:13.0f}us {t_enc / t_mp:6.3f}x"
        else:
            line += f"  {'':>15} {'':>7}"
        print(f"{line}  [{e.lower:.6g}, {e.upper:.6g}]")


if __name__ == "__main__":
    main()
