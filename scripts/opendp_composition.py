#!/usr/bin/env python
"""Flipped Huber next to OpenDP's Gaussian: what OpenDP's composition reports, and how tight it is.

One command (needs the optional extra ``opendp``)::

    python scripts/opendp_composition.py           # about 10 seconds

``make_flipped_huber(space, alpha=1, gamma=2, k=-10)`` (the exact lattice mechanism on 2^-10 Z, a
smoothed_max_divergence measurement) and OpenDP's ``make_zCDP_to_approxDP(make_gaussian(scale=1.5))``
are fixed at deltas d1, d2 (``make_fix_delta``) and composed by ``make_composition`` (OpenDP 0.16
composes approximate-DP measurements by adding epsilons and deltas).  The reported (eps_tot,
delta_tot) is compared with fhsym's certified PLD composition of the same two mechanisms (the lattice
profile's arb upper ends and the exact Gaussian profile, not OpenDP's zCDP conversion): its delta at
eps_tot (must be <= delta_tot) and its epsilon at delta_tot.  Last, the time of
``dp.binary_search_param`` over the measurement (scale s = alpha = gamma for (1, 1e-6)) and of
``make_calibrated_flipped_huber`` (no search).
"""

from __future__ import annotations

import os
import sys
import time
from fractions import Fraction
from importlib import metadata

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import opendp.prelude as dp  # noqa: E402

from fhsym.integrations._accounting import from_privacy_profile, gaussian_pld  # noqa: E402
from fhsym.integrations.opendp import make_calibrated_flipped_huber, make_flipped_huber  # noqa: E402
from fhsym.privacy.discrete_enclosure import discrete_profile_enclosure  # noqa: E402

ALPHA, GAMMA, K, SIGMA, D_IN, STEP = 1.0, 2.0, -10, 1.5, 1.0, 1e-3


def main() -> int:
    dp.enable_features("contrib", "honest-but-curious")
    space = dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float)
    fh = make_flipped_huber(*space, ALPHA, GAMMA, K)
    gauss = dp.c.make_zCDP_to_approxDP(dp.m.make_gaussian(*space, scale=SIGMA))
    sens = Fraction(D_IN)

    def lattice_profile(eps: np.ndarray) -> np.ndarray:
        return np.array([discrete_profile_enclosure(float(e), ALPHA, GAMMA, 2.0**K, sens)[1] for e in np.ravel(eps)])

    pld = from_privacy_profile(lattice_profile, STEP, profile_rtol=0.0, upper_only=True).compose(
        gaussian_pld(SIGMA, D_IN, STEP, upper_only=True))
    print(f"OpenDP {metadata.version('opendp')}: lattice FH(alpha={ALPHA}, gamma={GAMMA}, step=2^{K}) + "
          f"Gaussian(scale={SIGMA}), d_in = {D_IN}")
    print(f"{'d1':>8s} {'d2':>8s} {'eps_FH':>9s} {'eps_G':>9s} {'eps_tot':>9s} {'delta_tot':>10s} "
          f"{'PLD delta(eps_tot)':>19s} {'PLD eps(delta_tot)':>19s}")
    for d1, d2 in [(1e-6, 1e-6), (1e-5, 1e-7), (1e-7, 1e-5), (5e-6, 5e-6)]:
        f1, g2 = dp.c.make_fix_delta(fh, d1), dp.c.make_fix_delta(gauss, d2)
        eps_tot, delta_tot = dp.c.make_composition([f1, g2]).map(D_IN)
        up = float(pld.delta_upper(eps_tot))
        print(f"{d1:8.0e} {d2:8.0e} {f1.map(D_IN)[0]:9.4f} {g2.map(D_IN)[0]:9.4f} {eps_tot:9.4f} {delta_tot:10.2e} "
              f"{up:19.3e} {pld.epsilon(delta_tot):19.4f}")

    def chain(s: float) -> dp.Measurement:
        return dp.c.make_fix_delta(make_flipped_huber(*space, alpha=s, gamma=s), 1e-6)

    t = time.perf_counter()
    s = dp.binary_search_param(chain, d_in=1.0, d_out=(1.0, 1e-6))
    t_search = time.perf_counter() - t
    t = time.perf_counter()
    m = make_calibrated_flipped_huber(*space, d_in=1.0, d_out=(1.0, 1e-6))
    t_cal = time.perf_counter() - t
    print(f"dp.binary_search_param over make_flipped_huber(alpha = gamma = s) for (1, 1e-6): s = {s:.6f} in {t_search:.2f} s")
    print(f"make_calibrated_flipped_huber(d_in=1, d_out=(1, 1e-6)): delta(1) = {m.map(1.0).delta(1.0):.6e} in {t_cal:.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
