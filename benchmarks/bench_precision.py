"""Cost per point of at_precision at 53, 200 and 1000 bits (issue 29), for every law, with the load average.

    PYTHONPATH=. python benchmarks/bench_precision.py [--law NAME]

Each row: the median over 5 repetitions of the time per call (over a few points) of one method of
``FlippedHuber(alpha=1, gamma=2).at_precision(bits=...)`` (mpmath numbers) or ``..., ball=True``
(arb balls), and of the double-precision method for comparison; then the same for every other law of
the registry (numbers and balls; the other laws' numbers are their balls' midpoints, so the two cost
about the same).
"""

from __future__ import annotations

import os
import statistics
import time

import fhsym

POINTS = [0.1, 0.9, 1.5, 4.0, 12.0]
STEP = 0.25  # the lattice step: every law is evaluated at lattice points


def OTHER_LAWS():  # noqa: N802
    from fhsym.noise import DiscreteFlippedHuber, PiecewiseUniform

    return [fhsym.Gaussian(1.5), fhsym.Laplace(0.75), fhsym.TruncatedLaplace(1.0, 10.0), fhsym.OSGT(0.5, 1.0),
            fhsym.Staircase(1.0), PiecewiseUniform(0.5, [5, 3, 1, 0, 1]), DiscreteFlippedHuber(1.0, 2.0, STEP),
            fhsym.TruncatedStaircase(1.0, 1.0, 0.4, 5.0)]


def per_call(fn, args, reps=5):
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        for a in args:
            fn(*a)
        times.append((time.perf_counter() - t) / len(args))
    return statistics.median(times)


def main() -> None:
    import sys

    only = sys.argv[sys.argv.index("--law") + 1] if "--law" in sys.argv else ""
    fh = fhsym.FlippedHuber(alpha=1.0, gamma=2.0)
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    print(f"{'method':<22}{'double':>12}" + "".join(f"{b:>10} bits" for b in (53, 200, 1000)) + "   (per point)")
    xs = [(x,) for x in POINTS]
    rows = [("pdf", xs), ("sf", xs), ("ppf", [(q,) for q in (1e-9, 0.01, 0.3, 0.7, 0.99)]),
            ("privacy_profile", [(e, 1.0) for e in (0.05, 0.3, 1.0, 3.0, 9.0)])]
    for name, args in rows:
        cells = [per_call(getattr(fh, name), args)]
        for bits in (53, 200, 1000):
            cells.append(per_call(getattr(fh.at_precision(bits=bits), name), args))
        print(f"{name:<22}" + "".join(f"{c * 1e6:>10.0f}us" for c in cells[:1]) + "".join(f"{c * 1e6:>12.0f}us" for c in cells[1:]))
    for name in ("pdf", "sf", "privacy_profile"):
        args = xs if name != "privacy_profile" else [(e, 1.0) for e in (0.05, 0.3, 1.0, 3.0, 9.0)]
        cells = [per_call(getattr(fh.at_precision(bits=bits, ball=True), name), args) for bits in (53, 200, 1000)]
        print(f"{name + ' (ball)':<22}{'':>12}" + "".join(f"{c * 1e6:>12.0f}us" for c in cells))
    print(f"var (number)          {'':>12}" + "".join(f"{per_call(fh.at_precision(bits=b).var, [()]) * 1e6:>12.0f}us" for b in (53, 200, 1000)))
    for name, args in (("entropy", [()]), ("log_mgf", [(0.3,), (1e-12,)]), ("theorem8_lhs", [(0.3, 5, 1.0)]),
                       ("zcdp", [(1.0, 5)])):
        for ball in (False, True):
            cells = [per_call(getattr(fh.at_precision(bits=b, ball=ball), name), args, reps=3) for b in (53, 200, 1000)]
            print(f"{name + (' (ball)' if ball else ''):<22}{'':>12}" + "".join(f"{c * 1e6:>12.0f}us" for c in cells))
    for law in OTHER_LAWS():
        if only and type(law).__name__ != only:
            continue
        print(f"\n{law!r}")
        rows = [("pdf" if hasattr(law, "pdf") else "pmf", [(x * STEP,) for x in (0, 1, 4)]), ("sf", [(x * STEP,) for x in (0, 1, 4)]),
                ("isf", [(q,) for q in (0.01, 0.3)]), ("var", [()]), ("entropy", [()]),
                ("privacy_profile", [(e, 1.0) for e in (0.3, 1.0)])]
        for name, args in rows:
            for ball in (False, True):
                cells = [per_call(getattr(law.at_precision(bits=b, ball=ball), name), args, reps=3) for b in (53, 200, 1000)]
                print(f"{name + (' (ball)' if ball else ''):<22}{'':>12}" + "".join(f"{c * 1e6:>12.0f}us" for c in cells))
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
