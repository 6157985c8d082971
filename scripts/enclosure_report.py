"""Summary of the arb enclosures against the stored references (tests/data/enclosure_reference.json).

    python scripts/enclosure_report.py

Per mechanism: number of points, how many have delta < 1e-300, how many are exact zeros, whether
every ball contains its reference (within the reference's recorded error), the worst relative
width of the float pair and of the ball (points with delta > 1e-300), the worst relative
distance between the ball's midpoint and the reference, the largest working precision used and
the median time of one ``enclose_profile`` call.  The references are quadrature of the
definition at >= 50 digits (see ``tests/data/make_enclosure_reference.py``).
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

from flint import arb, ctx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fhsym.privacy.enclosures import MECHANISMS, enclose_profile  # noqa: E402


def main() -> None:
    recs = json.loads((ROOT / "tests" / "data" / "enclosure_reference.json").read_text())["records"]
    print(f"{'mechanism':18s} {'n':>3} {'<1e-300':>7} {'zeros':>5} {'contained':>9} {'float width':>11} "
          f"{'ball width':>10} {'|mid-ref|/ref':>13} {'max bits':>8} {'median time':>11}")
    for mech in MECHANISMS:
        rows = [r for r in recs if r["mechanism"] == mech]
        ok, tiny, zeros, wf, wb, dist, bits, times = True, 0, 0, 0.0, 0.0, 0.0, 0, []
        for r in rows:
            params = {k: float(v) for k, v in r["params"].items()}
            t0 = time.perf_counter()
            e = enclose_profile(mech, params, float(r["epsilon"]), float(r["sensitivity"]))
            times.append(time.perf_counter() - t0)
            bits = max(bits, e.prec)
            if r["reference"] == "0":
                zeros += 1
                ok &= (e.lower, e.upper) == (0.0, 0.0)
                continue
            with ctx.workprec(e.prec + 64):
                x = e.as_arb()
                ref = arb(r["reference"])
                target = ref + arb(0, arb(r["error"]).abs_upper())
                ok &= bool(x.overlaps(target))
                if ref > arb(1e-300):
                    wf = max(wf, (e.upper - e.lower) / e.lower)
                    wb = max(wb, float((x.upper() - x.lower()) / x.lower()))
                    dist = max(dist, float(abs(x.mid() - ref) / ref))
                else:
                    tiny += 1
        print(f"{mech:18s} {len(rows):3d} {tiny:7d} {zeros:5d} {str(ok):>9} {wf:11.2e} {wb:10.2e} {dist:13.2e} "
              f"{bits:8d} {statistics.median(times) * 1e3:9.2f}ms")


if __name__ == "__main__":
    main()
