"""Issue 31 item 3's rows, timed against a former revision of fhsym in the same process (CPU and wall clock).

    python benchmarks/bench_calibrate_former.py [--former main] [--rounds 7] [--only verify gaussian osgt composed]

The former revision's ``fhsym/`` is extracted as the package ``fhsym_base`` (``benchmarks/baseline_copy.py``) and
imported beside this tree's ``fhsym``; each row runs the former call, this tree's call and the row's baseline in
rotation (former, now, baseline, former, now, baseline, ... after one warm-up call of each, so that all three see
the same load) and prints, for each, the median and minimum of the wall clock and of the process CPU time, the
ratio now / former and, where the row has a baseline, now / baseline (ratios of the medians, wall clock and CPU).

Rows (eps = 1, delta = 1e-6):

* ``verify``: ``verify_certificate`` of the certificate of ``calibrate(1, 1e-6, compositions=10)`` (each revision
  re-checks the certificate it issues; the row asserts both say PROVEN, that this tree also verifies the former's,
  and that the two are the same certificate, or the same but for the proven PLD's node rule, grid format
  pld-exact-1 -> pld-exact-2); target <= 0.3 s (absolute);
* ``gaussian``: ``calibrate(1, 1e-6, dim=20)`` and ``compositions=100`` (the Gaussian member) against dp_accounting's
  ``get_smallest_gaussian_noise`` for the same count; target <= 1.5;
* ``osgt``: ``calibrate(eps, 1e-6, mechanism="osgt")``, eps in {0.1, 1, 5}, against ``get_sigma_gaussian(eps, 1e-6)``;
  target <= 10;
* ``composed``: ``calibrate(1, 1e-6, compositions=10)`` against ``get_smallest_laplace_noise(num_queries=10)``;
  target <= 2.

Each row also checks that the two revisions return the same certificate (JSON text), so a speed-up that changed an
answer shows as an error, not as a figure.  No timing is asserted in the tests.
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable, List, Optional, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))
from baseline_copy import materialise  # noqa: E402  (benchmarks/ on the path: run as a script)

import fhsym  # noqa: E402


def _load() -> str:
    a, b, c = os.getloadavg()
    return f"{a:.2f} {b:.2f} {c:.2f}"


def rotate(fns: Sequence[Optional[Callable[[], Any]]], rounds: int) -> List[List[tuple]]:
    """(wall, cpu) of each callable, run in rotation for ``rounds`` rounds after one warm-up call each (None: not run)."""
    for f in fns:
        if f is not None:
            f()
    out: List[List[tuple]] = [[] for _ in fns]
    for _ in range(rounds):
        for i, f in enumerate(fns):
            if f is None:
                continue
            w, c = time.perf_counter(), time.process_time()
            f()
            out[i].append((time.perf_counter() - w, time.process_time() - c))
    return out


def _med(ts: List[tuple], k: int) -> float:
    return float(statistics.median(t[k] for t in ts))


def _min(ts: List[tuple], k: int) -> float:
    return min(t[k] for t in ts)


def report(label: str, times: List[List[tuple]], baseline: str, target: float, absolute: bool = False) -> None:
    former, now, base = times
    fw, fc, nw, nc = _med(former, 0), _med(former, 1), _med(now, 0), _med(now, 1)
    print(f"{label}")
    print(f"    former  wall {fw * 1e3:8.1f} ms (min {_min(former, 0) * 1e3:8.1f})   CPU {fc * 1e3:8.1f} ms "
          f"(min {_min(former, 1) * 1e3:8.1f})")
    print(f"    now     wall {nw * 1e3:8.1f} ms (min {_min(now, 0) * 1e3:8.1f})   CPU {nc * 1e3:8.1f} ms "
          f"(min {_min(now, 1) * 1e3:8.1f})   now/former: wall {nw / fw:.3f}, CPU {nc / fc:.3f}")
    if absolute:
        print(f"    target <= {target:g} s: wall {'met' if nw <= target else 'missed'} ({nw:.3f} s), "
              f"CPU {'met' if nc <= target else 'missed'} ({nc:.3f} s)")
        return
    bw, bc = _med(base, 0), _med(base, 1)
    print(f"    {baseline:38s} wall {bw * 1e3:8.1f} ms   CPU {bc * 1e3:8.1f} ms")
    print(f"    ratio to the baseline: now wall {nw / bw:.2f}, CPU {nc / bc:.2f}; former wall {fw / bw:.2f}, CPU "
          f"{fc / bc:.2f}; target <= {target:g}: {'met' if nw / bw <= target else 'missed'} (wall)")


_FORMAT_FIELDS = {"method": ("pld-exact", "pld-exact-2")}  # a grid of format pld-exact-1 issued again as pld-exact-2


def _node_format_only(da: dict, db: dict) -> bool:
    """The certificates differ only in the proven PLD's node rule (pld-exact-1 -> pld-exact-2: method, grid format and
    node text), every number -- parameters, grid, sizes, the bound -- the same."""
    if (db.get("method"), da.get("method")) != _FORMAT_FIELDS["method"]:
        return False
    ga, gb = dict(da.get("grid") or {}), dict(db.get("grid") or {})
    if (gb.get("format"), ga.get("format")) != ("pld-exact-1", "pld-exact-2"):
        return False
    for g in (ga, gb):
        g.pop("format"), g.pop("node_enclosures", None)
    ra = {k: v for k, v in da.items() if k not in ("method", "grid")}
    rb = {k: v for k, v in db.items() if k not in ("method", "grid")}
    rb["text"] = str(rb.get("text")).replace("method 'pld-exact'", "method 'pld-exact-2'")  # the statement names it
    return ga == gb and ra == rb


def _same(a: Any, b: Any, label: str) -> None:
    ja, jb = a.certificate.to_json(), b.certificate.to_json().replace("fhsym_base", "fhsym")
    if ja != jb:
        import json
        if _node_format_only(json.loads(ja), json.loads(jb)):
            print(f"    ({label}: the same certificate but for the node rule, pld-exact-1 -> pld-exact-2)")
            return
        raise SystemExit(f"{label}: the two revisions issue different certificates")


def main(argv: Optional[List[str]] = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--former", default="main", help="git revision to compare with (default: main)")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--only", nargs="+", choices=("verify", "gaussian", "osgt", "composed"),
                    default=("verify", "gaussian", "osgt", "composed"))
    ns = ap.parse_args(argv)
    root, name, commit = materialise(ns.former)
    sys.path.insert(0, root)
    base = importlib.import_module(name)
    from dp_accounting import gaussian_mechanism as gm
    from dp_accounting.pld import accountant, common

    params = common.DifferentialPrivacyParameters(1.0, 1e-6)
    print(f"this tree's fhsym against {ns.former} ({commit[:10]}); Python {platform.python_version()}, "
          f"{os.cpu_count()} cores; {ns.rounds} rounds; load average {_load()}")
    if "verify" in ns.only:
        a, b = fhsym.calibrate(1.0, 1e-6, compositions=10), base.calibrate(1.0, 1e-6, compositions=10)
        _same(a, b, "compositions=10")
        text, former_text = a.certificate.to_json(), b.certificate.to_json()  # each revision's own certificate
        assert fhsym.verify_certificate(text).value == "proven"
        assert base.verify_certificate(former_text).value == "proven"
        assert fhsym.verify_certificate(former_text.replace("fhsym_base", "fhsym")).value == "proven"  # old format
        t = rotate([lambda: base.verify_certificate(former_text), lambda: fhsym.verify_certificate(text), None],
                   ns.rounds)
        report("verify_certificate(<calibrate(1, 1e-6, compositions=10) certificate>)", t, "", 0.3, absolute=True)
    if "gaussian" in ns.only:
        for kw, n in [(dict(dim=20), 20), (dict(compositions=100), 100)]:
            a, b = fhsym.calibrate(1.0, 1e-6, **kw), base.calibrate(1.0, 1e-6, **kw)
            _same(a, b, str(kw))
            assert a.alpha == 0.0, a.mechanism
            t = rotate([lambda kw=kw: base.calibrate(1.0, 1e-6, **kw), lambda kw=kw: fhsym.calibrate(1.0, 1e-6, **kw),
                        lambda n=n: accountant.get_smallest_gaussian_noise(params, num_queries=n)], ns.rounds)
            report(f"calibrate(1, 1e-6, {next(iter(kw))}={n}) [Gaussian member]", t,
                   f"get_smallest_gaussian_noise(num_queries={n})", 1.5)
    if "osgt" in ns.only:
        for eps in (0.1, 1.0, 5.0):
            _same(fhsym.calibrate(eps, 1e-6, mechanism="osgt"), base.calibrate(eps, 1e-6, mechanism="osgt"), "osgt")
            t = rotate([lambda e=eps: base.calibrate(e, 1e-6, mechanism="osgt"),
                        lambda e=eps: fhsym.calibrate(e, 1e-6, mechanism="osgt"),
                        lambda e=eps: gm.get_sigma_gaussian(e, 1e-6)], ns.rounds)
            report(f"calibrate({eps:g}, 1e-6, mechanism='osgt')", t, f"get_sigma_gaussian({eps:g}, 1e-6)", 10.0)
    if "composed" in ns.only:
        _same(fhsym.calibrate(1.0, 1e-6, compositions=10), base.calibrate(1.0, 1e-6, compositions=10), "composed")
        t = rotate([lambda: base.calibrate(1.0, 1e-6, compositions=10),
                    lambda: fhsym.calibrate(1.0, 1e-6, compositions=10),
                    lambda: accountant.get_smallest_laplace_noise(params, num_queries=10)], ns.rounds)
        report("calibrate(1, 1e-6, compositions=10)", t, "get_smallest_laplace_noise(num_queries=10)", 2.0)
    print(f"load average at the end {_load()}")


if __name__ == "__main__":
    main()
