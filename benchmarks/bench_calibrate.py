"""Certified calibration against dp_accounting, interleaved in one process: every ratio of issues 21 and 22.

    python benchmarks/bench_calibrate.py [--rounds 15] [--slow-rounds 3] [--only 1d osgt composed gaussian verify] [--markdown]

Each row times a certified ``fhsym.calibrate`` call and its baseline alternately (baseline, fhsym,
baseline, fhsym, ... after one warm-up call of each), so that both see the same load, and prints the
median and the minimum of each and the ratios fhsym / baseline of the medians and of the minima.
A row is "met" when the ratio of the medians is within its target, "missed" otherwise.

1-D (delta = 1e-6, eps in {0.1, 1, 5}): ``fhsym.calibrate(eps, 1e-6, mechanism=m)`` (search and a
ball-arithmetic certificate at the returned floats) against dp_accounting's analytic Gaussian
``gaussian_mechanism.get_sigma_gaussian(eps, 1e-6)`` (log-space brentq; not certified: a two-sided root).
Targets (issue 22): flipped Huber <= 2, Gaussian, Laplace and staircase <= 1, truncated Laplace <= 2,
OSGT <= 20 (issue 31 item 3: <= 10; ``--only osgt`` runs those rows alone).

Composed (eps = 1, delta = 1e-6): ``fhsym.calibrate(1, 1e-6, compositions=10)``, ``dim=20`` (auto) and
``dim=20, method="exact"`` (flipped Huber, certified by a proven privacy-loss distribution or, for the
Gaussian member, ball arithmetic) against dp_accounting's composed Laplace calibration for the same count,
``pld.accountant.get_smallest_laplace_noise(DifferentialPrivacyParameters(1, 1e-6), num_queries=n)``
(bisection over Laplace PLDs, value discretization 0.1 eps / n).  Targets: <= 2 (issue 22 item 2),
``dim=20, method="exact"`` <= 3 (issue 21 item 2).

Gaussian member (issue 31 item 3; eps = 1, delta = 1e-6): ``fhsym.calibrate(1, 1e-6, dim=20)`` and
``compositions=100`` (the answer is flipped Huber's Gaussian member, alpha = 0) against dp_accounting's
``pld.accountant.get_smallest_gaussian_noise(DifferentialPrivacyParameters(1, 1e-6), num_queries=n)`` for the
same count; target <= 1.5.

Verify (issue 31 item 3): ``fhsym.verify_certificate`` of the proven K-fold certificate of
``calibrate(1, 1e-6, compositions=10)``; target <= 0.3 s (an absolute time: no baseline, the row prints the
median and minimum seconds, ratio = median / 0.3 s).

No timing is asserted anywhere in the tests; the README speed table and docs/performance.md restate
this script's output.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from typing import Callable, List, Tuple

from _timing import interleaved  # the shared A, B, A, B timing (benchmarks/_timing.py)
import fhsym

EPS_1D = (0.1, 1.0, 5.0)
MECHANISMS = (  # (mechanism, target ratio)
    ("flipped_huber", 2.0),
    ("gaussian", 1.0),
    ("laplace", 1.0),
    ("staircase", 1.0),
    ("truncated_laplace", 2.0),
    ("osgt", 10.0),
)


def row(label: str, baseline: str, tb: List[float], tc: List[float], target: float) -> dict:
    mb, mc = statistics.median(tb), statistics.median(tc)
    r_med, r_min = mc / mb, min(tc) / min(tb)
    return dict(label=label, baseline=baseline, fh_med=mc * 1e3, fh_min=min(tc) * 1e3, base_med=mb * 1e3,
                base_min=min(tb) * 1e3, r_med=r_med, r_min=r_min, target=target,
                verdict="met" if r_med <= target else "missed")


def print_rows(rows: List[dict], markdown: bool) -> None:
    if markdown:
        print("| fhsym call | baseline | fhsym ms (median / min) | baseline ms (median / min) | ratio of medians | "
              "ratio of minima | target |")
        print("|---|---|---|---|---|---|---|")
        for r in rows:
            print(f"| {r['label']} | {r['baseline']} | {r['fh_med']:.3g} / {r['fh_min']:.3g} | "
                  f"{r['base_med']:.3g} / {r['base_min']:.3g} | {r['r_med']:.2f} | {r['r_min']:.2f} | "
                  f"<= {r['target']:g}: {r['verdict']} |")
        return
    for r in rows:
        print(f"{r['label']:52s} {r['fh_med']:9.3f} / {r['fh_min']:8.3f} ms   {r['baseline']:38s} "
              f"{r['base_med']:8.3f} / {r['base_min']:8.3f} ms   ratio {r['r_med']:6.2f} (minima {r['r_min']:6.2f})"
              f"   target <= {r['target']:g}: {r['verdict']}")


def one_dimension(rounds: int, slow_rounds: int, only: str = "") -> List[dict]:
    from dp_accounting import gaussian_mechanism as gm

    rows = []
    for mech, target in MECHANISMS:
        if only and mech != only:
            continue
        n = slow_rounds if mech == "osgt" else rounds
        for eps in EPS_1D:
            tb, tc = interleaved(lambda e=eps: gm.get_sigma_gaussian(e, 1e-6),
                                 lambda e=eps, m=mech: fhsym.calibrate(e, 1e-6, mechanism=m), n)
            rows.append(row(f"calibrate({eps:g}, 1e-6, mechanism={mech!r})", f"get_sigma_gaussian({eps:g}, 1e-6)",
                            tb, tc, target))
    return rows


def composed(slow_rounds: int) -> List[dict]:
    from dp_accounting.pld import accountant, common

    params = common.DifferentialPrivacyParameters(1.0, 1e-6)
    rows = []
    for label, kw, n, target in [("calibrate(1, 1e-6, compositions=10)", dict(compositions=10), 10, 2.0),
                                 ("calibrate(1, 1e-6, dim=20)", dict(dim=20), 20, 2.0),
                                 ('calibrate(1, 1e-6, dim=20, method="exact")', dict(dim=20, method="exact"), 20, 3.0)]:
        tb, tc = interleaved(lambda n=n: accountant.get_smallest_laplace_noise(params, num_queries=n),
                             lambda kw=kw: fhsym.calibrate(1.0, 1e-6, **kw), slow_rounds)
        rows.append(row(label, f"get_smallest_laplace_noise(num_queries={n})", tb, tc, target))
    return rows


def gaussian_member(slow_rounds: int) -> List[dict]:
    from dp_accounting.pld import accountant, common

    params = common.DifferentialPrivacyParameters(1.0, 1e-6)
    rows = []
    for label, kw, n in [("calibrate(1, 1e-6, dim=20)", dict(dim=20), 20),
                         ("calibrate(1, 1e-6, compositions=100)", dict(compositions=100), 100)]:
        cal = fhsym.calibrate(1.0, 1e-6, **kw)
        assert cal.alpha == 0.0, f"{label}: expected the Gaussian member, got {cal.mechanism!r}"
        tb, tc = interleaved(lambda n=n: accountant.get_smallest_gaussian_noise(params, num_queries=n),
                             lambda kw=kw: fhsym.calibrate(1.0, 1e-6, **kw), slow_rounds)
        rows.append(row(label + " [Gaussian member]", f"get_smallest_gaussian_noise(num_queries={n})", tb, tc, 1.5))
    return rows


def verify(slow_rounds: int) -> List[dict]:
    cert = fhsym.calibrate(1.0, 1e-6, compositions=10).certificate
    assert cert.claim == "pld-kfold" and cert.method in ("pld-exact", "pld-exact-2"), cert.claim
    budget = 0.3
    # an absolute target: the "baseline" is a constant 0.3 s, so the ratio is the median over 0.3 s
    tb, tc = interleaved(lambda: None, lambda: fhsym.verify_certificate(cert), slow_rounds)
    r = row("verify_certificate(<compositions=10 certificate>)", "0.3 s (absolute target)", [budget] * len(tc), tc,
            1.0)
    return [r]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=15, help="interleaved rounds of the fast (1-D) rows")
    ap.add_argument("--slow-rounds", type=int, default=3, help="interleaved rounds of the OSGT and composed rows")
    ap.add_argument("--only", nargs="+", choices=("1d", "osgt", "composed", "gaussian", "verify"),
                    default=("1d", "composed", "gaussian", "verify"))
    ap.add_argument("--markdown", action="store_true", help="print the rows as a markdown table")
    ns = ap.parse_args(argv)
    try:
        import dp_accounting
    except ImportError:  # pragma: no cover
        raise SystemExit("needs dp_accounting (pip install 'fhsym[dp-accounting]')")
    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    print(f"fhsym {fhsym.__version__}, dp_accounting {getattr(dp_accounting, '__version__', '?')}, Python "
          f"{platform.python_version()}, {os.cpu_count()} cores, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    rows = []
    if "1d" in ns.only:
        rows += one_dimension(ns.rounds, ns.slow_rounds)
    elif "osgt" in ns.only:
        rows += one_dimension(ns.rounds, ns.slow_rounds, only="osgt")
    if "composed" in ns.only:
        rows += composed(ns.slow_rounds)
    if "gaussian" in ns.only:
        rows += gaussian_member(ns.slow_rounds)
    if "verify" in ns.only:
        rows += verify(ns.slow_rounds)
    print_rows(rows, ns.markdown)
    load = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    print(f"load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; "
          f"{sum(r['verdict'] == 'met' for r in rows)} of {len(rows)} rows met")


if __name__ == "__main__":
    main()
