"""Array-parameter methods per shape against the scalar law: epsilon_for_delta and the to_scipy() object (issue 30.5).

    python benchmarks/bench_array_methods.py [--sizes 1000 10000 100000] [--rounds 3] [--scalar 20] [--small 200]
                                             [--clock cpu|wall]

Each pair timed in the same process, alternating (A, B, A, B, ...) for ``--rounds`` rounds after a warm-up
(:mod:`_timing`); printed: the median time per shape of each and the ratio of the medians A/B (target <= 10:
issue 30.5), and the load average before and after.  The clock is this process's CPU time (``--clock cpu``, the
default: the cost per shape, which the other processes of a loaded machine do not move) or wall time (``--clock
wall``).  At load 10-12 on 2 cores the wall-clock medians of 3 rounds swung by more than 10x between rows of one run
(2026-11-29, run 1 of ``--sizes 1000 10000 --rounds 3 --small 100``: Laplace ``to_scipy().pdf`` 14.8x, FH's at
n = 10000 against fhsym's array ``pdf`` 19.1x, the Gaussian's 0.13x), each window either inside one time slice or
shared with the other processes.

* ``epsilon_for_delta(1e-6)`` for every law: the array law (A, all n shapes) against the scalar law (B, ``--scalar``
  shapes taken at an even stride over the same parameter range, one scalar law per shape).  Flipped Huber
  (vectorised: one bisection for all shapes) at each of ``--sizes``, ``alpha = linspace(0.1, 3, n)``,
  ``gamma = 2``; the laws that hold one scalar law per element (Gaussian, Laplace, truncated Laplace, OSGT,
  staircase) at n = ``--small`` (their cost per shape is the scalar law's, at any n).  The B shapes are taken
  at a stride: the first ``--scalar`` shapes of the range (what this script timed before) are the cheapest
  ones for the Gaussian (small sigma: about 2.4x cheaper than sigma = 3 here), which made the ratio look like 14.
* ``to_scipy().pdf`` at n points (one per shape): the frozen scipy object with array shapes (A) against fhsym's own
  array ``pdf`` (B), and against the scalar law's ``pdf`` at one point (per call).  For the per-element laws B makes
  n scalar calls (cycling over the ``--scalar`` laws), so that A and B each cover n shapes: with B timed over 20 calls
  (~1 ms against A's ~30 ms) the ratio swung with the load -- OSGT, same process, load 11.7, four repeats of 3 rounds:
  10.1, 0.39, 6.2, 8.6 with 20 calls, 1.9, 2.0, 2.1, 1.4 with 100 (the 24x of one earlier run).

No timing is asserted anywhere.
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Callable, List

import numpy as np
from _timing import interleaved, load, median

import fhsym


def row(what: str, n: int, a: List[float], na: int, b: List[float], nb: int) -> None:
    pa, pb = median(a) / na, median(b) / nb
    print(f"{what:<46} n={n:>6}  A {pa * 1e6:10.2f} us/shape  B {pb * 1e6:10.2f} us/shape  A/B {pa / pb:7.3f}"
          f"  ({'met' if pa / pb <= 10 else 'MISSED'})", flush=True)


def stride(values: np.ndarray, k: int) -> np.ndarray:
    """k values at an even stride over the whole array (first and last included)."""
    return values[np.linspace(0, values.size - 1, min(k, values.size)).round().astype(int)]


#: the laws that hold one scalar law per element: (name, array law from a parameter array in [0.1, 3], scalar law)
PER_ELEMENT: List[Any] = [
    ("Gaussian", lambda p: fhsym.Gaussian(sigma=p), lambda v: fhsym.Gaussian(v)),
    ("Laplace", lambda p: fhsym.Laplace(beta=p), lambda v: fhsym.Laplace(v)),
    ("TruncatedLaplace", lambda p: fhsym.TruncatedLaplace(scale=p, bound=50.0 * p + 1.0),
     lambda v: fhsym.TruncatedLaplace(v, 50.0 * v + 1.0)),
    ("OSGT", lambda p: fhsym.OSGT(vartheta=p, varrho=2.0), lambda v: fhsym.OSGT(v, 2.0)),
    ("Staircase", lambda p: fhsym.Staircase(epsilon=p), lambda v: fhsym.Staircase(v)),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="*", default=[1000, 10_000, 100_000])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--scalar", type=int, default=20, help="scalar laws timed per round (per-shape time)")
    ap.add_argument("--small", type=int, default=200, help="n for the laws that hold one scalar law per element")
    ap.add_argument("--laws", nargs="*", default=[name for name, _, _ in PER_ELEMENT])
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                    help="cpu: this process's CPU time (default); wall: elapsed time")
    args = ap.parse_args()
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    print(f"before: {load()}; clock: {args.clock} time", flush=True)
    for n in args.sizes:
        alpha = np.linspace(0.1, 3.0, n)
        fh = fhsym.FlippedHuber(alpha=alpha, gamma=2.0)
        scal = [fhsym.FlippedHuber(float(a), 2.0) for a in stride(alpha, args.scalar)]
        a, b = interleaved(lambda: fh.epsilon_for_delta(1e-6), lambda: [s.epsilon_for_delta(1e-6) for s in scal],
                           args.rounds, clock=clock)
        row("FH epsilon_for_delta: array / scalar law", n, a, n, b, len(scal))
        x = np.linspace(-3.0, 3.0, n)
        X = fh.to_scipy()
        a, b = interleaved(lambda: X.pdf(x), lambda: fh.pdf(x), args.rounds, clock=clock)
        row("FH to_scipy().pdf: array / fhsym array pdf", n, a, n, b, n)
        one = scal[0]
        a, b = interleaved(lambda: X.pdf(x), lambda: [one.pdf(0.3) for _ in range(200)], args.rounds, clock=clock)
        row("FH to_scipy().pdf: array / scalar pdf call", n, a, n, b, 200)
    n = args.small
    p = np.linspace(0.1, 3.0, n)
    x = np.linspace(-3.0, 3.0, n)
    for name, make_array, make_scalar in PER_ELEMENT:
        if name not in args.laws:
            continue
        arr = make_array(p)
        scal = [make_scalar(float(v)) for v in stride(p, args.scalar)]
        eps: Callable[[], object] = lambda: arr.epsilon_for_delta(1e-6)  # noqa: E731
        a, b = interleaved(eps, lambda: [s.epsilon_for_delta(1e-6) for s in scal], args.rounds, clock=clock)
        row(f"{name} epsilon_for_delta: array / scalar", n, a, n, b, len(scal))
        G = arr.to_scipy()
        calls = [scal[i % len(scal)] for i in range(n)]  # n scalar calls: B's window as long as A's (docstring)
        a, b = interleaved(lambda: G.pdf(x), lambda: [s.pdf(0.3) for s in calls], args.rounds, clock=clock)
        row(f"{name} to_scipy().pdf: array / scalar pdf", n, a, n, b, n)
    print(f"after: {load()}", flush=True)


if __name__ == "__main__":
    main()
