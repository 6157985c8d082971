#!/usr/bin/env python
"""DP-SGD-style accounting: flipped Huber vs Gaussian noise of the same variance, in dp_accounting.

One command (needs the optional extras ``dp-accounting`` and ``plot``)::

    python scripts/dpsgd_accounting.py              # ~2-4 min on 2 cores
    python scripts/dpsgd_accounting.py --vector     # l2-clipped vectors, RDP accountant only (~1-3 min)

Protocol
--------
* A scalar release per step (one clipped coordinate, or any 1-D statistic with per-record
  contribution |v_i| <= 1), Poisson subsampling with rate q = 0.01, T = 10^3 ... 10^4 steps,
  epsilon at delta = 1e-5, add/remove-one neighbours.
* Gaussian: noise multiplier sigma in SIGMAS, accounted by dp_accounting's own ``PLDAccountant``
  with ``PoissonSampledDpEvent(q, GaussianDpEvent(sigma))``.
* Flipped Huber of the *same variance* sigma^2: for each shape b = alpha/gamma in SHAPES,
  gamma = sigma / sqrt(Var FH(b, 1)), alpha = b gamma; accounted by
  ``fhsym.integrations.dp_accounting.FlippedHuberPLDAccountant`` with
  ``PoissonSampledDpEvent(q, FlippedHuberDpEvent(alpha, gamma))``.  The shapes are fixed in advance
  (data-independent), so picking the best one costs no privacy.
* Both at value_discretization_interval 1e-4 (pessimistic connect-the-dots), so the epsilons are
  upper bounds computed the same way; for the Gaussian also dp_accounting's optimistic
  (privacy-buckets) estimate, a lower estimate of its true epsilon: where FH's upper bound is below
  it, FH is better whatever the discretisation error (this bound is loose by ~T h / 2, the rounding
  of privacy buckets); and a discretisation check (sigma = 1, T = 10^4 at 4h, 2h, h).  A check runs first: FH with alpha = 0 through fhsym's
  accountant must give dp_accounting's Gaussian epsilon.
* Caveat for real DP-SGD: a d-dimensional gradient clipped in l2 gets dimension-free accounting with
  isotropic Gaussian noise, while i.i.d. FH noise is not rotation invariant; this comparison is the
  per-coordinate (scalar) one.

``--vector`` (issue 30): DP-SGD with an l2-clipped *vector* gradient (clip norm 1, dim in VECTOR_DIMS), q = 0.01,
T = 1000, delta = 1e-5, accounted by ``FlippedHuberRdpAccountant`` with
``PoissonSampledDpEvent(q, FlippedHuberDpEvent(alpha, gamma, dim=K, l2_sensitivity=1))`` (exact binomial
expansion at integer orders with fhsym's certified bound over the l2 ball) against dp_accounting's
``RdpAccountant`` with ``GaussianDpEvent(sigma)`` (dimension-free) at equal per-coordinate variance.  Also the
scalar (dim 1) case through the same RDP accountant.  Prints a table; writes nothing.

Outputs: ``docs/figures/dpsgd_fh_vs_gaussian.png`` and ``docs/figures/dpsgd_fh_vs_gaussian.json`` (every
number printed here, with the package versions).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from importlib import metadata

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from dp_accounting import dp_event  # noqa: E402
from dp_accounting.pld import pld_privacy_accountant  # noqa: E402
from dp_accounting.pld import privacy_loss_distribution as pldlib  # noqa: E402

import fhsym  # noqa: E402
from fhsym.integrations.dp_accounting import FlippedHuberDpEvent, FlippedHuberPLDAccountant  # noqa: E402

Q = 0.01
DELTA = 1e-5
STEPS = [1000, 2000, 3000, 5000, 7000, 10000]
SIGMAS = [0.7, 1.0, 2.0]
SHAPES = [0.5, 1.0, 2.0, 4.0]


def fh_same_variance(sigma: float, b: float):
    """(alpha, gamma) of FH with alpha/gamma = b and variance sigma^2 (Var FH(b gamma, gamma) = gamma^2 Var FH(b, 1))."""
    g = sigma / math.sqrt(fhsym.FlippedHuber(b, 1.0).var())
    return b * g, g


def epsilon_gaussian(sigma: float, T: int, h: float) -> float:
    acc = pld_privacy_accountant.PLDAccountant(value_discretization_interval=h)
    acc.compose(dp_event.PoissonSampledDpEvent(Q, dp_event.GaussianDpEvent(sigma)), T)
    return acc.get_epsilon(DELTA)


def epsilon_gaussian_optimistic(sigma: float, T: int, h: float) -> float:
    """A lower estimate of the Gaussian's epsilon: dp_accounting's optimistic (privacy-buckets) PLD."""
    pld = pldlib.from_gaussian_mechanism(sigma, value_discretization_interval=h, sampling_prob=Q,
                                         pessimistic_estimate=False, use_connect_dots=False)
    return pld.self_compose(T).get_epsilon_for_delta(DELTA)


def epsilon_fh(alpha: float, gamma: float, T: int, h: float) -> float:
    acc = FlippedHuberPLDAccountant(value_discretization_interval=h)
    acc.compose(dp_event.PoissonSampledDpEvent(Q, FlippedHuberDpEvent(alpha, gamma)), T)
    return acc.get_epsilon(DELTA)


VECTOR_DIMS = [1, 10, 100]
VECTOR_SIGMAS = [1.0, 2.0]
VECTOR_SHAPES = [0.25, 0.5, 1.0]
VECTOR_ORDERS = [1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.0, 16.0, 20.0, 24.0, 32.0, 48.0, 64.0]


def vector_table() -> int:
    from dp_accounting.rdp import rdp_privacy_accountant as rdp

    from fhsym.integrations.dp_accounting import FlippedHuberRdpAccountant

    t0 = time.time()
    T = 1000
    print(f"l2-clipped DP-SGD: clip 1, q = {Q}, T = {T}, delta = {DELTA:g}, RDP orders {VECTOR_ORDERS}")
    print(f"{'sigma':>6s} {'dim':>4s} {'Gaussian':>9s} " + " ".join(f"{'FH b=' + format(b, 'g'):>10s}" for b in VECTOR_SHAPES))
    for sigma in VECTOR_SIGMAS:
        g = rdp.RdpAccountant(VECTOR_ORDERS)
        g.compose(dp_event.PoissonSampledDpEvent(Q, dp_event.GaussianDpEvent(sigma)), T)
        e_g = g.get_epsilon(DELTA)
        for K in VECTOR_DIMS:
            row = []
            for b in VECTOR_SHAPES:
                a, gm = fh_same_variance(sigma, b)
                acc = FlippedHuberRdpAccountant(VECTOR_ORDERS)
                acc.compose(dp_event.PoissonSampledDpEvent(Q, FlippedHuberDpEvent(a, gm, 1.0, dim=K, l2_sensitivity=1.0)), T)
                row.append(acc.get_epsilon(DELTA))
            print(f"{sigma:6g} {K:4d} {e_g:9.4f} " + " ".join(f"{e:10.4f}" for e in row))
    print(f"({time.time() - t0:.0f} s)")
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("--vector", action="store_true", help="the l2-clipped vector table (RDP accountant) only")
    ap.add_argument("--value-discretization-interval", type=float, default=1e-4)
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "figures", "dpsgd_fh_vs_gaussian"),
                    help="output path without extension (.png and .json are written)")
    args = ap.parse_args(argv)
    if args.vector:
        return vector_table()
    h = args.value_discretization_interval
    t0 = time.time()

    # sanity check: FH(0, sigma) through fhsym's accountant is dp_accounting's Gaussian
    e_g, e_f = epsilon_gaussian(1.0, 1000, h), epsilon_fh(0.0, 1.0, 1000, h)
    check = {"sigma": 1.0, "steps": 1000, "epsilon_gaussian_event": e_g, "epsilon_fh_alpha0_event": e_f,
             "relative_difference": (e_f - e_g) / e_g}
    print(f"check: q={Q}, T=1000, sigma=1: GaussianDpEvent eps={e_g:.9f}, FlippedHuberDpEvent(0, 1) eps={e_f:.9f} "
          f"(relative difference {check['relative_difference']:.1e})")

    # discretisation: the pessimistic estimates at sigma = 1, T = 10^4 as the interval is halved
    a1, g1 = fh_same_variance(1.0, 1.0)
    conv = {"sigma": 1.0, "steps": 10000, "b": 1.0, "intervals": [4 * h, 2 * h, h]}
    conv["epsilon_gaussian"] = [epsilon_gaussian(1.0, 10000, hh) for hh in conv["intervals"]]
    conv["epsilon_fh"] = [epsilon_fh(a1, g1, 10000, hh) for hh in conv["intervals"]]
    print("discretisation check (sigma = 1, T = 10^4), interval " + ", ".join(f"{hh:g}" for hh in conv["intervals"]) + ":")
    print("  Gaussian " + "  ".join(f"{e:.7f}" for e in conv["epsilon_gaussian"]))
    print("  FH b=1   " + "  ".join(f"{e:.7f}" for e in conv["epsilon_fh"]))

    results = []
    for sigma in SIGMAS:
        print(f"\nsigma = {sigma} (variance {sigma**2:.4g}), q = {Q}, delta = {DELTA:g}: epsilon by steps {STEPS}")
        eps_g = [epsilon_gaussian(sigma, T, h) for T in STEPS]
        eps_o = [epsilon_gaussian_optimistic(sigma, T, h) for T in STEPS]
        results.append({"sigma": sigma, "mechanism": "gaussian", "b": 0.0, "alpha": 0.0, "gamma": sigma, "variance": sigma**2,
                        "steps": STEPS, "epsilon": eps_g, "epsilon_optimistic": eps_o})
        print(f"  {'Gaussian':<26s}" + "".join(f"{e:9.4f}" for e in eps_g))
        print(f"  {'Gaussian (optimistic)':<26s}" + "".join(f"{e:9.4f}" for e in eps_o))
        for b in SHAPES:
            a, g = fh_same_variance(sigma, b)
            var = float(fhsym.FlippedHuber(a, g).var())
            eps_f = [epsilon_fh(a, g, T, h) for T in STEPS]
            results.append({"sigma": sigma, "mechanism": "flipped_huber", "b": b, "alpha": a, "gamma": g, "variance": var,
                            "steps": STEPS, "epsilon": eps_f})
            ratio = " ".join(f"{f / e:5.3f}" for f, e in zip(eps_f, eps_g))
            print(f"  {f'FH b={b:g} (a={a:.3f}, g={g:.3f})':<26s}" + "".join(f"{e:9.4f}" for e in eps_f) + f"   ratio to Gaussian: {ratio}")
    elapsed = time.time() - t0
    print(f"\n({elapsed:.0f} s)")

    out = {
        "description": "DP-SGD-style accounting, scalar release per step: epsilon at delta for T Poisson-subsampled steps, "
                       "flipped Huber vs Gaussian noise of the same variance (scripts/dpsgd_accounting.py)",
        "sampling_rate": Q, "delta": DELTA, "neighboring_relation": "ADD_OR_REMOVE_ONE", "sensitivity": 1.0,
        "value_discretization_interval": h, "check": check, "discretisation_check": conv, "results": results,
        "versions": {p: metadata.version(p) for p in ("dp-accounting", "numpy", "scipy")} | {"fhsym": fhsym.__version__},
        "seconds": elapsed,
    }
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out + ".json", "w") as fh:
        json.dump(out, fh, indent=1)
        fh.write("\n")
    print(f"wrote {args.out}.json")

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(SIGMAS), figsize=(4.2 * len(SIGMAS), 3.8), sharex=True)
    for ax, sigma in zip(axes, SIGMAS):
        for r in (r for r in results if r["sigma"] == sigma):
            if r["mechanism"] == "gaussian":
                ax.plot(r["steps"], r["epsilon"], "k-", lw=2.2, label="Gaussian")
            else:
                ax.plot(r["steps"], r["epsilon"], "o--", ms=3, lw=1.2, label=f"FH, alpha/gamma = {r['b']:g}")
        ax.set_title(f"same variance, sigma = {sigma:g}")
        ax.set_xlabel("steps T")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel(f"epsilon at delta = {DELTA:g}")
    axes[0].legend(fontsize=8)
    fig.suptitle(f"Poisson-subsampled (q = {Q}) scalar releases: flipped Huber vs Gaussian, dp_accounting PLD", fontsize=10)
    fig.tight_layout()
    fig.savefig(args.out + ".png", dpi=130)
    print(f"wrote {args.out}.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
