"""Array-parameter methods per shape against the scalar law: epsilon_for_delta and the to_scipy() object (issue 30.5).

    python benchmarks/bench_array_methods.py [--sizes 1000 10000 100000] [--rounds 2] [--scalar 20]

For n shapes ``alpha = linspace(0.1, 3, n)``, ``gamma = 2`` (flipped Huber) and ``sigma = linspace(0.1, 3, n)``
(Gaussian, a law that is not vectorised), each pair timed in the same process, alternating (A, B, A, B, ...) for
``--rounds`` rounds; printed: the minimum time per shape of each and the ratio A/B (target <= 10: issue 30.5):

* ``epsilon_for_delta(1e-6)``: the array law (A, all shapes) against the scalar law (B, ``--scalar`` shapes, one
  scalar law per shape, time per shape);
* ``to_scipy().pdf`` at n points (one per shape): the frozen scipy object with array shapes (A) against fhsym's own
  array ``pdf`` (B), and against the scalar law's ``pdf`` at one point (per call).

The load average is printed before and after.  No timing is asserted anywhere.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Callable, List, Tuple

import numpy as np

import fhsym


def interleaved(fa: Callable[[], object], fb: Callable[[], object], rounds: int) -> Tuple[List[float], List[float]]:
    ta, tb = [], []
    for _ in range(rounds):
        for f, acc in ((fa, ta), (fb, tb)):
            t0 = time.perf_counter()
            f()
            acc.append(time.perf_counter() - t0)
    return ta, tb


def row(what: str, n: int, a: List[float], na: int, b: List[float], nb: int) -> None:
    pa, pb = min(a) / na, min(b) / nb
    print(f"{what:<46} n={n:>6}  A {pa * 1e6:10.2f} us/shape  B {pb * 1e6:10.2f} us/shape  A/B {pa / pb:7.3f}",
          flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 10_000, 100_000])
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--scalar", type=int, default=20, help="scalar laws timed per round (per-shape time)")
    args = ap.parse_args()
    print(f"load average before: {os.getloadavg()}", flush=True)
    for n in args.sizes:
        alpha = np.linspace(0.1, 3.0, n)
        fh = fhsym.FlippedHuber(alpha=alpha, gamma=2.0)
        scal = [fhsym.FlippedHuber(float(a), 2.0) for a in alpha[:: max(1, n // args.scalar)][: args.scalar]]
        fh.epsilon_for_delta(1e-6) if n <= 1000 else None  # warm-up (constants, imports)
        a, b = interleaved(lambda: fh.epsilon_for_delta(1e-6), lambda: [s.epsilon_for_delta(1e-6) for s in scal],
                           args.rounds)
        row("FH epsilon_for_delta: array / scalar law", n, a, n, b, len(scal))
        x = np.linspace(-3.0, 3.0, n)
        X = fh.to_scipy()
        a, b = interleaved(lambda: X.pdf(x), lambda: fh.pdf(x), args.rounds)
        row("FH to_scipy().pdf: array / fhsym array pdf", n, a, n, b, n)
        one = scal[0]
        a, b = interleaved(lambda: X.pdf(x), lambda: [one.pdf(0.3) for _ in range(200)], args.rounds)
        row("FH to_scipy().pdf: array / scalar pdf call", n, a, n, b, 200)
        if n <= 10_000:  # one scalar law per element: ~40 us each
            sigma = np.linspace(0.1, 3.0, n)
            g = fhsym.Gaussian(sigma=sigma)
            G = g.to_scipy()
            gs = [fhsym.Gaussian(float(s)) for s in sigma[: args.scalar]]
            a, b = interleaved(lambda: G.pdf(x), lambda: [s.pdf(0.3) for s in gs], args.rounds)
            row("Gaussian to_scipy().pdf: array / scalar pdf", n, a, n, b, len(gs))
            a, b = interleaved(lambda: g.epsilon_for_delta(1e-6), lambda: [s.epsilon_for_delta(1e-6) for s in gs],
                               args.rounds)
            row("Gaussian epsilon_for_delta: array / scalar", n, a, n, b, len(gs))
    print(f"load average after: {os.getloadavg()}", flush=True)


if __name__ == "__main__":
    main()
