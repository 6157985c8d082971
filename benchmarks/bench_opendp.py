"""OpenDP calibration and privacy maps of the flipped Huber measurement (issue 30.5).

    python benchmarks/bench_opendp.py [--rounds 3] [--K 3] [--no-warm-up]

Every pair timed in the same process, alternating (A, B, A, B, ...) for ``--rounds`` rounds after a warm-up
(:mod:`_timing`; ``--no-warm-up`` leaves the warm-up calls out: tests/test_benchmark_commands.py runs every row once
that way); printed: the median of each, the ratio of the medians, and the load average before and after.
Targets (issue 30.5, at load <= 1): scalar calibration <= 1 s, a 3-coordinate vector calibration <= 2 s.  Every
timed call starts cold: fhsym's memos (the vector map's per-shape node values, the vector calibration) are cleared
first, so nothing is served from an earlier round.

1. ``make_calibrated_flipped_huber`` on a K-vector (linf, d_in = 1, (1, 1e-6)) (A) against the same on a scalar (B);
2. ``dp.binary_search_param`` over a scalar ``make_fix_delta(make_flipped_huber(...))`` (A) against
   ``make_calibrated_flipped_huber`` on the scalar (B);
3. one K-vector privacy map (a chain's cost inside a search: FH(1, 2^2), default lattice, d_in = 1): the batched
   arb nodes of this version (A) against one ``profile_enclosure_steps`` per node with the scan of
   ``_first_below`` (the previous construction, rebuilt here) (B); their curves are compared, value for value.
"""

from __future__ import annotations

import argparse
from typing import Callable

import numpy as np
import opendp.prelude as dp
from _timing import interleaved, load, median

from fhsym.integrations import lattice_privacy as L
from fhsym.integrations import opendp as O
from fhsym.integrations._accounting import aligned_step, default_step, from_privacy_profile
from fhsym.noise.discrete_profile_arb import profile_enclosure_steps


def cold() -> None:
    L._NODE_MEMO.clear()
    O._calibrate_vector.cache_clear()


def old_vector_curve(a: float, g: float, h: float, S: int, K: int) -> Callable[[float], float]:
    D = S * h

    def profile(eps: np.ndarray) -> np.ndarray:
        return np.array([profile_enclosure_steps(float(e), a, g, h, S)[1] for e in np.ravel(eps)])

    step = aligned_step(default_step(a, g, K, D), a, g, D)
    pld = from_privacy_profile(profile, step, profile_rtol=0.0, scale=max(D / g, D * a / g**2, 1e-12),
                               upper_only=True).self_compose(K)
    return lambda e: float(min(float(pld.delta_upper(e)), 1.0))


def show(what: str, a: list, b: list, target: str = "") -> None:
    ma, mb = median(a), median(b)
    print(f"{what:<64} A {ma:8.3f} s  B {mb:8.3f} s  A/B {ma / mb:6.3f}  (A min {min(a):.3f}, B min {min(b):.3f})"
          f"{'  ' + target if target else ''}", flush=True)


def enclosures_in(fn: Callable[[], object]) -> int:
    """How many lattice profile enclosures (``profile_enclosure_steps``, arb) one call of ``fn`` computes: the float
    profile falls back to them where its estimated error is too large (the calibrator's search at 1e-8, the public
    profile at 5e-13)."""
    from fhsym.noise import discrete_profile_arb as A

    count, orig = [0], A.profile_enclosure_steps

    def counted(*args: object, **kw: object) -> object:
        count[0] += 1
        return orig(*args, **kw)  # type: ignore[arg-type]

    A.profile_enclosure_steps = counted  # type: ignore[assignment]
    try:
        fn()
    finally:
        A.profile_enclosure_steps = orig
    return count[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--K", type=int, default=3)
    ap.add_argument("--no-warm-up", dest="warm_up", action="store_false",
                    help="no warm-up call before the timed rounds (every timed call starts cold anyway: cold())")
    args = ap.parse_args()
    dp.enable_features("contrib", "honest-but-curious")
    K = args.K
    F = dp.atom_domain(T=float, nan=False)
    scalar = (F, dp.absolute_distance(T=float))
    vector = (dp.vector_domain(F, size=K), dp.linf_distance(T=float))
    print(f"before: {load()}", flush=True)

    def cal_vec() -> object:
        cold()
        return O.make_calibrated_flipped_huber(*vector, 1.0, (1.0, 1e-6))

    def cal_sca() -> object:
        cold()
        return O.make_calibrated_flipped_huber(*scalar, 1.0, (1.0, 1e-6))

    a, b = interleaved(cal_vec, cal_sca, args.rounds, warm_up=args.warm_up)
    show(f"make_calibrated_flipped_huber: K={K} vector (A) / scalar (B)", a, b,
         f"targets: vector <= 2 s, scalar <= 1 s at load <= 1")
    mv = cal_vec()
    print(f"  vector map at d_in = 1: delta(1) = {mv.map(1.0).delta(1.0):.6g} (target 1e-6)", flush=True)
    print(f"  ball-arithmetic enclosures in one scalar calibration: {enclosures_in(cal_sca)}", flush=True)

    def chain(s: float) -> object:
        return dp.c.make_fix_delta(O.make_flipped_huber(*scalar, alpha=s, gamma=s), 1e-6)

    a, b = interleaved(lambda: dp.binary_search_param(chain, d_in=1.0, d_out=(1.0, 1e-6)), cal_sca, args.rounds,
                       warm_up=args.warm_up)
    show("binary_search_param, scalar (A) / make_calibrated, scalar (B)", a, b, "target <= 1 s each at load <= 1")

    alpha, gamma = 1.0, 2.0
    step = 2.0 ** L.default_granularity(gamma)
    S = L.lattice_steps(1.0, step)

    def new() -> Callable[[float], float]:
        cold()
        return L.lattice_privacy_curve(alpha, gamma, step, S, K)

    a, b = interleaved(new, lambda: old_vector_curve(alpha, gamma, step, S, K), args.rounds, warm_up=args.warm_up)
    show(f"one K={K} vector map: batched nodes (A) / per-node enclosures (B)", a, b)
    cn, co = new(), old_vector_curve(alpha, gamma, step, S, K)
    same = all(cn(e) == co(e) for e in (0.0, 0.25, 0.5, 1.0, 2.0, 4.0))
    print(f"  the two curves agree at eps in (0, .25, .5, 1, 2, 4): {same}", flush=True)
    print(f"after: {load()}", flush=True)


if __name__ == "__main__":
    main()
