"""Throughput of fhsym's exact lattice samplers against OpenDP's exact samplers, same process.

    python benchmarks/bench_exact_sampler.py [--n 200000] [--repeat 5]

Both sides are exact (integer arithmetic, OS randomness by default).  Like-for-like pairs:

* discrete Gaussian, sigma = 10 and 100 (fhsym: DiscreteFlippedHuber(alpha=0, gamma=sigma,
  step=1); OpenDP: ``make_gaussian`` on a vector of ints, which samples the CKS20 discrete
  Gaussian);
* discrete Laplace, scale 10 (fhsym: ``sample_discrete_laplace``; OpenDP: ``make_laplace`` on
  ints);
* the discrete flipped Huber itself (no OpenDP counterpart), ratio against OpenDP's discrete
  Gaussian of the same gamma.

fhsym is timed with OS randomness (``random_state=None``, ``secrets``) and, for reference,
with a seeded PCG64.  OpenDP is skipped with a message if it is not installed
(``pip install 'fhsym[opendp]'``).  The target of issue 10 is a ratio >= 10 on the discrete
Gaussian; the printed ratios are what was measured, whatever they are.
"""

from __future__ import annotations

import argparse
import statistics
import time

from fhsym.noise.discrete_flipped_huber import DiscreteFlippedHuber
from fhsym.noise.exact_sampling import sample_discrete_laplace


def median_rate(fn, n: int, repeat: int) -> float:
    fn()  # warm up (builds probability tables)
    ts = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return n / statistics.median(ts)


def _opendp():
    try:
        import opendp.prelude as dp
    except ImportError:
        return None
    dp.enable_features("contrib")
    return dp


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=200_000)
    ap.add_argument("--repeat", type=int, default=5)
    ns = ap.parse_args()
    n, rep = ns.n, ns.repeat
    dp = _opendp()
    if dp is None:
        print("OpenDP is not installed (pip install 'fhsym[opendp]'): printing fhsym rates only")
    else:
        from importlib.metadata import version

        print(f"OpenDP {version('opendp')}")
    print(f"n = {n:,} samples per call, median of {rep} calls")

    def od_gauss(scale):
        m = dp.m.make_gaussian(dp.vector_domain(dp.atom_domain(T=int)), dp.l2_distance(T=int), scale=float(scale))
        zeros = [0] * n
        return lambda: m(zeros)

    def od_laplace(scale):
        m = dp.m.make_laplace(dp.vector_domain(dp.atom_domain(T=int)), dp.l1_distance(T=int), scale=float(scale))
        zeros = [0] * n
        return lambda: m(zeros)

    rows = []
    for sigma in (10, 100):
        d = DiscreteFlippedHuber(0.0, float(sigma), 1.0)
        rows.append((f"discrete Gaussian sigma={sigma}", d, (lambda d=d: d.rvs(n, output="index")),
                     (lambda d=d: d.rvs(n, random_state=1, output="index")), ("gauss", sigma)))
    rows.append(("discrete Laplace scale=10", None, lambda: sample_discrete_laplace(10, n), lambda: sample_discrete_laplace(10, n, random_state=1), ("laplace", 10)))
    for a, g in ((1.0, 10.0), (10.0, 10.0), (100.0, 10.0)):
        d = DiscreteFlippedHuber(a, g, 1.0)
        rows.append((f"discrete FH alpha={a:g} gamma={g:g} step=1", d, (lambda d=d: d.rvs(n, output="index")),
                     (lambda d=d: d.rvs(n, random_state=1, output="index")), ("gauss", g)))

    worst_gauss = None
    for label, _, f_os, f_seed, (kind, scale) in rows:
        r_os = median_rate(f_os, n, rep)
        r_seed = median_rate(f_seed, n, rep)
        line = f"  {label:42s} fhsym {r_os / 1e3:9.1f} k/s (OS)  {r_seed / 1e3:9.1f} k/s (PCG64)"
        if dp is not None:
            od = od_gauss(scale) if kind == "gauss" else od_laplace(scale)
            r_od = median_rate(od, n, rep)
            ratio = r_os / r_od
            line += f"  | OpenDP {kind} {r_od / 1e3:8.1f} k/s  ratio (OS) {ratio:6.1f}x"
            if label.startswith("discrete Gaussian"):
                worst_gauss = ratio if worst_gauss is None else min(worst_gauss, ratio)
        print(line, flush=True)
    if worst_gauss is not None:
        print(f"discrete Gaussian: worst ratio fhsym / OpenDP = {worst_gauss:.1f}x (target >= 10x)")


if __name__ == "__main__":
    main()
