"""The optimum and the advisor from their data files, interleaved with a baseline in one process (issue 31 items 2, 4).

    python benchmarks/bench_optimum.py [--rounds 15] [--slow-rounds 1]
                                       [--only recorded advise computed scan offgrid widths large]
                                       [--fresh-rounds 5] [--compare-checkout DIR] [--markdown]
                                       [--large-eps EPS ...] [--large-deltas D ...] [--large-now-only]

Each row times an fhsym call and dp_accounting's analytic Gaussian ``get_sigma_gaussian(eps, 1e-6)`` alternately
(baseline, fhsym, baseline, fhsym, ... after one warm-up call of each: the house style of
``benchmarks/bench_calibrate.py``), and prints the medians, the minima and the ratios fhsym / baseline.  The
targets of these rows are absolute (issue 31), so a row is "met" when fhsym's *median* time is within its target;
the ratio shows the load each saw.

* ``recorded``: ``fhsym.optimal_variance(eps, 1e-6)`` and ``fhsym.calibrate(eps, 1e-6, mechanism="piecewise_uniform")``
  at points of ``fhsym/optimum/data`` (target 100 ms).  "warm": the record's exact re-check memoised by its digest
  (a second call in the process); "re-checked": the memo cleared before every call, so each call re-derives the
  dual's bound and the noise's privacy in exact rationals.
* ``advise``: ``fhsym.advise(0.3, 1e-6, dim=5)`` (eight K-fold certificates from the frontier data) and
  ``fhsym.advise(1, 1e-6)`` (target 100 ms).  "warm": a second call in the process; "cold": every memo cleared
  before each call (the shard of (eps, delta) re-read, its digest recomputed, the calibrations rebuilt); "re-verified":
  ``reverify=True`` with the memos cleared (every recorded certificate re-checked by ``verify_certificate``, as every
  cold call did before the shards); "fresh process": the first call in a new Python process (``import fhsym`` and the
  lazy API load done first, untimed), timed against the first ``get_sigma_gaussian`` call in the same process, one
  process per round (``--fresh-rounds``); ``--compare-checkout DIR`` also times DIR's fhsym (e.g. a ``git worktree``
  of an older commit) the same way, its processes alternating with this checkout's.
* ``computed``: ``optimal_variance`` at points the data file does not hold (the LP solved; target 5 s at
  eps <= 10), with the interval's width and its verdict against 1.002 (1.01 above eps 10).
* ``scan`` (only with ``--only scan``): the same at eps 1.6, 1.75, 1.9, 2.25, 2.75, 3.25, 3.5, 3.75, 3.9 and delta 1e-6,
  1e-10, where the automatic grid stops at 16-32 bins per unit (the lower end then from the dual of a grid twice as
  fine, ``fhsym.optimum.api._sharpen``).
* ``offgrid``: off the data at eps 1, 3, 5, 7, 10 (delta 1e-7, which no record holds; eps 7 has no record at all):
  the LP solved (``recorded=False``) by the full LP as before row generation (A: ``rowgen.FULL_COLUMNS`` raised so
  that every LP is solved in full) and by the solver ``optimal_variance`` uses now (B: row generation above
  ``rowgen.FULL_COLUMNS`` = 8,000 columns), interleaved A, B per round (no warm-up: one call is the cost), with each interval's width; then the
  default call ``optimal_variance(eps, 1e-7)`` once (the data's neighbours where they are narrow enough, else B).
* ``large`` (only with ``--only large``: A took over 7 minutes at (9.5, 1e-10)): ``optimal_variance(eps, delta)``
  at eps 4.5, 8, 9.5, 10, 15, 20 and delta 1e-5, 1e-6, 1e-10, cold (every memo cleared), without the transport dual
  of ``fhsym.optimum.transport`` (A: ``transport=False``) and as it is (B), interleaved A, B, with each interval's
  width (targets: 5 s; 1.002 at eps <= 10, 1.01 up to 20); ``--large-now-only`` times B alone.
* ``widths``: the recorded intervals' ``upper/lower`` (best certified upper end) against the targets 1.002
  (eps <= 10) and 1.01 (eps <= 20), and a summary per eps from 5 to 10.

No timing is asserted anywhere in the tests; docs/optimum.md and docs/performance.md restate this output.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, List, Optional, Tuple

from _timing import interleaved  # the shared A, B, A, B timing (benchmarks/_timing.py)
import fhsym
from fhsym.applications import advise as A
from fhsym.applications import frontier_shards as FS
from fhsym.optimum import recorded as R


def row(label: str, baseline: str, tb: List[float], tc: List[float], target_s: float, note: str = "") -> dict:
    mb, mc = statistics.median(tb), statistics.median(tc)
    return dict(label=label, baseline=baseline, fh_med=mc * 1e3, fh_min=min(tc) * 1e3, base_med=mb * 1e3,
                base_min=min(tb) * 1e3, r_med=mc / mb, r_min=min(tc) / min(tb), target=target_s * 1e3,
                verdict="met" if mc <= target_s else "missed", note=note)


def print_rows(rows: List[dict], markdown: bool) -> None:
    if markdown:
        print("| fhsym call | fhsym ms (median / min) | baseline ms (median / min) | ratio of medians | target | |")
        print("|---|---|---|---|---|---|")
        for r in rows:
            print(f"| {r['label']} | {r['fh_med']:.3g} / {r['fh_min']:.3g} | {r['base_med']:.3g} / "
                  f"{r['base_min']:.3g} | {r['r_med']:.3g} | <= {r['target']:g} ms: {r['verdict']} | {r['note']} |")
        return
    for r in rows:
        print(f"{r['label']:70s} {r['fh_med']:10.3f} / {r['fh_min']:10.3f} ms   {r['baseline']:30s} "
              f"{r['base_med']:7.3f} / {r['base_min']:7.3f} ms   ratio {r['r_med']:9.3g} (minima {r['r_min']:9.3g})"
              f"   target <= {r['target']:g} ms: {r['verdict']}  {r['note']}")


def _gauss(eps: float) -> Callable[[], object]:
    from dp_accounting import gaussian_mechanism as gm

    return lambda: gm.get_sigma_gaussian(eps, 1e-6)


def recorded_rows(rounds: int) -> List[dict]:
    rows = []
    for eps in (0.1, 1.0, 3.0, 10.0):
        if (eps, 1e-6) not in R.recorded_points():
            continue
        base = f"get_sigma_gaussian({eps:g}, 1e-6)"
        for label, fn in ((f"optimal_variance({eps:g}, 1e-6)", lambda e=eps: fhsym.optimal_variance(e, 1e-6)),
                          (f"calibrate({eps:g}, 1e-6, mechanism='piecewise_uniform')",
                           lambda e=eps: fhsym.calibrate(e, 1e-6, mechanism="piecewise_uniform"))):
            tb, tc = interleaved(_gauss(eps), fn, rounds)
            rows.append(row(label + " warm", base, tb, tc, 0.1))
            tb, tc = interleaved(_gauss(eps), fn, rounds, before_b=R._CHECKED.clear)
            rows.append(row(label + " re-checked", base, tb, tc, 0.1))
    return rows


def _clear() -> None:
    """Every memo between advise and its data: verified and rebuilt records, parsed shards, the data file's digest."""
    A._REUSED.clear()
    A._BUILT.clear()
    R._CHECKED.clear()
    FS._SHARDS.clear()
    FS._SOURCE_SHA.clear()


#: one fresh process: the first get_sigma_gaussian and the first advise, each timed after the imports
_FRESH = """
import sys, time
import fhsym
from dp_accounting import gaussian_mechanism as gm
advise = fhsym.advise  # the lazy API load, untimed
t0 = time.perf_counter(); gm.get_sigma_gaussian(0.3, 1e-6); t1 = time.perf_counter()
adv = advise(0.3, 1e-6, dim=5); t2 = time.perf_counter()
print(t1 - t0, t2 - t1, fhsym.__file__, adv.best.source)
"""


def _fresh(checkout: str) -> Tuple[float, float, str]:
    env = {**os.environ, "PYTHONPATH": checkout}
    out = subprocess.run([sys.executable, "-c", _FRESH], env=env, cwd=tempfile.gettempdir(), capture_output=True,
                         text=True, check=True).stdout.split(maxsplit=3)
    return float(out[0]), float(out[1]), out[3].strip()


def fresh_rows(rounds: int, compare: Optional[str]) -> List[dict]:
    here = str(Path(fhsym.__file__).resolve().parents[1])
    checkouts = [here] + ([str(Path(compare).resolve())] if compare else [])
    times: dict = {c: ([], [], "") for c in checkouts}
    for _ in range(rounds):
        for c in checkouts:  # this checkout, then the other one, alternately
            tb, tc, src = _fresh(c)
            times[c][0].append(tb)
            times[c][1].append(tc)
            times[c] = (times[c][0], times[c][1], src)
    rows = []
    for c in checkouts:
        tb, tc, src = times[c]
        how = ("certificate proven when the data were built" if "when the data were built" in src else
               "certificate re-verified now" if "re-verified" in src else src)
        rows.append(row(f"advise(0.3, 1e-6, dim=5) fresh process{'' if c == here else ' (' + c + ')'}",
                        "get_sigma_gaussian(0.3, 1e-6) first", tb, tc, 0.1, note=f"best option: {how}"))
    return rows


def advise_rows(rounds: int) -> List[dict]:
    rows = []
    for label, fn, again in (
            ("advise(0.3, 1e-6, dim=5)", lambda: fhsym.advise(0.3, 1e-6, dim=5),
             lambda: fhsym.advise(0.3, 1e-6, dim=5, reverify=True)),
            ("advise(1, 1e-6)", lambda: fhsym.advise(1.0, 1e-6), lambda: fhsym.advise(1.0, 1e-6, reverify=True))):
        tb, tc = interleaved(_gauss(0.3), fn, rounds)
        rows.append(row(label + " warm", "get_sigma_gaussian(0.3, 1e-6)", tb, tc, 0.1))
        tb, tc = interleaved(_gauss(0.3), fn, rounds, before_b=_clear)
        rows.append(row(label + " cold", "get_sigma_gaussian(0.3, 1e-6)", tb, tc, 0.1))
        tb, tc = interleaved(_gauss(0.3), again, max(1, rounds // 5), before_b=_clear)
        rows.append(row(label + " re-verified", "get_sigma_gaussian(0.3, 1e-6)", tb, tc, 0.1))
    return rows


#: off-grid eps between 1.5 and 4 (``--only scan``): where the automatic grid stops at 16-32 bins per unit
SCAN = tuple((eps, delta) for delta in (1e-6, 1e-10) for eps in (1.6, 1.75, 1.9, 2.25, 2.75, 3.25, 3.5, 3.75, 3.9))


def computed_rows(rounds: int, points: Tuple[Tuple[float, float], ...] = (
        (0.7, 1e-7), (1.1, 1e-6), (1.75, 1e-6), (3.5, 1e-6), (3.75, 1e-10), (7.0, 1e-6), (10.0, 1e-7))) -> List[dict]:
    rows = []
    for eps, delta in points:
        widths = []
        target = 1.002 if eps <= 10 else 1.01

        def call(e: float = eps, d: float = delta) -> None:
            iv = fhsym.optimal_variance(e, d)
            widths.append((iv.ratio, iv.bins, iv.primal.width))
        tb, tc = interleaved(_gauss(eps), call, rounds)
        ratio, bins, width = widths[-1]
        rows.append(row(f"optimal_variance({eps:g}, {delta:g}) (not recorded)",
                        f"get_sigma_gaussian({eps:g}, 1e-6)", tb, tc, 5.0,
                        note=f"upper/lower {ratio:.5f} (target {target:g}: {'met' if ratio <= target else 'missed'}; "
                             f"dual on {bins} bins, noise on {round(1 / width)})"))
    return rows


def offgrid_rows(rounds: int) -> None:
    from fhsym.optimum import rowgen

    print(f"off the data, delta 1e-7 (target <= 5 s and upper/lower <= 1.002 at eps <= 10); load at the start "
          f"{os.getloadavg()[0]:.2f}")
    default = rowgen.FULL_COLUMNS
    for eps in (1.0, 3.0, 5.0, 7.0, 10.0):
        got: dict = {}

        def full(e: float = eps) -> None:
            rowgen.FULL_COLUMNS = 10 ** 12
            try:
                got["full"] = fhsym.optimal_variance(e, 1e-7, recorded=False)
            finally:
                rowgen.FULL_COLUMNS = default

        def rows(e: float = eps) -> None:
            got["rows"] = fhsym.optimal_variance(e, 1e-7, recorded=False)
        ta, tb = interleaved(full, rows, rounds, warm_up=False)
        a, b = got["full"], got["rows"]
        print(f"  optimal_variance({eps:g}, 1e-7, recorded=False): full LP {statistics.median(ta):7.2f} s "
              f"(LP {a.lp_rows} x {a.lp_columns}, upper/lower {a.ratio:.5f}) | row generation "
              f"{statistics.median(tb):7.2f} s (LP {b.lp_rows} x {b.lp_columns}, upper/lower {b.ratio:.5f}, m={b.bins}) "
              f"| ratio {statistics.median(tb) / statistics.median(ta):.3f} | load {os.getloadavg()[0]:.2f}", flush=True)
        t0 = time.perf_counter()
        iv = fhsym.optimal_variance(eps, 1e-7)
        dt = time.perf_counter() - t0
        print(f"  optimal_variance({eps:g}, 1e-7): {dt:7.3f} s, upper/lower {iv.ratio:.5f}, "
              f"{iv.source.split(':')[0].split(' (')[0]}, target 5 s: {'met' if dt <= 5 else 'missed'}, "
              f"1.002: {'met' if iv.ratio <= 1.002 else 'missed'} | load {os.getloadavg()[0]:.2f}", flush=True)


def large_rows(rounds: int, eps_list: Tuple[float, ...] = (4.5, 8.0, 9.5, 10.0, 15.0, 20.0),
               deltas: Tuple[float, ...] = (1e-5, 1e-6, 1e-10), before_too: bool = True) -> None:
    """``optimal_variance(eps, delta)`` without the transport dual (A: ``transport=False``, the data or the LP as before)
    and as it is now (B), interleaved A, B per round, every memo cleared before each call (cold), no warm-up; the
    targets: 5 s per call, upper/lower at most 1.002 at eps <= 10 and 1.01 up to 20.  ``before_too=False``: B alone
    (the LP alone can take minutes at eps >= 9.5 with delta = 1e-10)."""
    from fhsym.optimum.transport import _best_transport

    def cold() -> None:
        _clear()
        _best_transport.cache_clear()

    print(f"large eps (issue 31 item 2): A = optimal_variance(eps, delta, transport=False), B = optimal_variance(eps, "
          f"delta); cold calls, {rounds} round(s); load at the start {os.getloadavg()[0]:.2f}")
    for eps in eps_list:
        for delta in deltas:
            got: dict = {}

            def before(e: float = eps, d: float = delta) -> None:
                cold()
                try:
                    got["A"] = fhsym.optimal_variance(e, d, transport=False)
                except ArithmeticError as exc:  # the LP alone can fail on its grid at large eps
                    got["A"] = exc

            def now(e: float = eps, d: float = delta) -> None:
                cold()
                got["B"] = fhsym.optimal_variance(e, d)
            if before_too:
                ta, tb = interleaved(before, now, rounds, warm_up=False)
            else:
                ta, tb = [math.nan], interleaved(lambda: None, now, rounds, warm_up=False)[1]
                got["A"] = None
            a, b = got["A"], got["B"]
            target = 1.002 if eps <= 10 else 1.01
            wa = "failed" if isinstance(a, Exception) else "-" if a is None else f"{a.ratio:.5f}"
            tm, bm = statistics.median(ta), statistics.median(tb)
            head = "A not run | " if a is None else f"A {tm:7.2f} s, upper/lower {wa:>8} | "
            rel = "" if a is None else f" | B/A {bm / tm:.3f}"
            print(f"  eps={eps:<4g} delta={delta:<6g} {head}B {bm:6.2f} s, upper/lower "
                  f"{b.ratio:.5f} (m={b.bins}, {b.source.split(' (')[0].split(':')[0]}){rel} | "
                  f"5 s: {'met' if bm <= 5 else 'missed'}, {target}: {'met' if b.ratio <= target else 'missed'} | "
                  f"load {os.getloadavg()[0]:.2f}", flush=True)


def widths() -> None:
    pts = R.recorded_points()
    print(f"recorded points: {len(pts)}; intervals upper/lower (upper: the best certified law of optimal_variance)")
    worst: dict = {}
    for eps, delta in pts:
        iv = fhsym.optimal_variance(eps, delta)
        target = 1.002 if eps <= 10 else 1.01
        ok = iv.ratio <= target
        worst[ok] = worst.get(ok, 0) + 1
        print(f"  eps={eps:<5g} delta={delta:<6g} [{iv.lower:.7g}, {iv.upper:.7g}] ratio {iv.ratio:.5f} "
              f"({type(iv.noise).__name__}) target {target}: {'met' if ok else 'missed'}")
    print(f"width target met at {worst.get(True, 0)} of {len(pts)} recorded points")
    for eps in (5.0, 6.0, 8.0, 10.0):
        rs = [fhsym.optimal_variance(eps, d).ratio for e, d in pts if e == eps]
        if rs:
            print(f"  eps={eps:g}: widest upper/lower {max(rs):.5f} over {len(rs)} deltas (target 1.002: "
                  f"{'met' if max(rs) <= 1.002 else 'missed'})")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--slow-rounds", type=int, default=1, help="interleaved rounds of the LP rows")
    ap.add_argument("--only", nargs="+", choices=("recorded", "advise", "computed", "scan", "offgrid", "widths", "large"),
                    default=("recorded", "advise", "computed", "offgrid", "widths"))  # large: on request (A is slow)
    ap.add_argument("--fresh-rounds", type=int, default=5, help="fresh processes of the advise row (each checkout)")
    ap.add_argument("--compare-checkout", default=None, metavar="DIR", help="also time DIR's fhsym in fresh processes")
    ap.add_argument("--large-eps", type=float, nargs="+", default=None, help="eps of the large rows")
    ap.add_argument("--large-deltas", type=float, nargs="+", default=None, help="deltas of the large rows")
    ap.add_argument("--large-now-only", action="store_true", help="large rows: time B alone (no A)")
    ap.add_argument("--markdown", action="store_true")
    ns = ap.parse_args(argv)
    try:
        import dp_accounting
    except ImportError:  # pragma: no cover
        raise SystemExit("needs dp_accounting (pip install 'fhsym[dp-accounting]')")
    load = os.getloadavg()
    print(f"fhsym {fhsym.__version__}, dp_accounting {getattr(dp_accounting, '__version__', '?')}, Python "
          f"{platform.python_version()}, {os.cpu_count()} cores, load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    t0 = time.perf_counter()
    FS.load_shard(A.default_data_path(), 0.3, 1e-6)
    t1 = time.perf_counter()
    A.load_frontier_calibrations(A.default_data_path())
    print(f"first load of the shard of (0.3, 1e-6): {t1 - t0:.3f} s; of the whole frontier data file (what advise "
          f"reads where there is no shard): {time.perf_counter() - t1:.2f} s")
    rows: List[dict] = []
    if "recorded" in ns.only:
        rows += recorded_rows(ns.rounds)
    if "advise" in ns.only:
        rows += fresh_rows(ns.fresh_rounds, ns.compare_checkout)
        rows += advise_rows(ns.rounds)
    if "computed" in ns.only:
        rows += computed_rows(ns.slow_rounds)
    if "scan" in ns.only:
        rows += computed_rows(ns.slow_rounds, SCAN)
    print_rows(rows, ns.markdown)
    if "offgrid" in ns.only:
        offgrid_rows(ns.slow_rounds)
    if "widths" in ns.only:
        widths()
    if "large" in ns.only:
        kw: dict = {}
        if ns.large_eps:
            kw["eps_list"] = tuple(ns.large_eps)
        if ns.large_deltas:
            kw["deltas"] = tuple(ns.large_deltas)
        large_rows(ns.slow_rounds, before_too=not ns.large_now_only, **kw)
    load = os.getloadavg()
    print(f"load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; "
          f"{sum(r['verdict'] == 'met' for r in rows)} of {len(rows)} timed rows met")


if __name__ == "__main__":
    main()
