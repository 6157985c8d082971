#!/usr/bin/env python
"""Flipped Huber next to OpenDP's Gaussian: what OpenDP's composition reports, and how tight it is.

One command (needs the optional extra ``opendp``)::

    python scripts/opendp_composition.py           # a few seconds

``make_flipped_huber(1, 2)`` (a smoothed_max_divergence measurement) and OpenDP's
``make_zCDP_to_approxDP(make_gaussian(scale=1.5))`` are fixed at deltas d1, d2 (``make_fix_delta``) and
composed by ``make_composition`` (OpenDP 0.16 composes approximate-DP measurements by adding epsilons
and deltas).  The reported (eps_tot, delta_tot) is compared with fhsym's certified PLD composition of
the same two mechanisms (exact Gaussian profile, not OpenDP's zCDP conversion): its delta at eps_tot
(must be <= delta_tot) and its epsilon at delta_tot.
"""

from __future__ import annotations

import os
import sys
from importlib import metadata

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import opendp.prelude as dp  # noqa: E402

from fhsym.integrations._accounting import flipped_huber_pld, gaussian_pld  # noqa: E402
from fhsym.integrations.opendp import make_flipped_huber  # noqa: E402

ALPHA, GAMMA, SIGMA, D_IN = 1.0, 2.0, 1.5, 1.0


def main() -> int:
    dp.enable_features("contrib", "honest-but-curious")
    space = dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float)
    fh = make_flipped_huber(ALPHA, GAMMA)
    gauss = dp.c.make_zCDP_to_approxDP(dp.m.make_gaussian(*space, scale=SIGMA))
    pld = flipped_huber_pld(ALPHA, GAMMA, D_IN, 1e-4).compose(gaussian_pld(SIGMA, D_IN, 1e-4))
    print(f"OpenDP {metadata.version('opendp')}: FH(alpha={ALPHA}, gamma={GAMMA}) + Gaussian(scale={SIGMA}), d_in = {D_IN}")
    print(f"{'d1':>8s} {'d2':>8s} {'eps_FH':>9s} {'eps_G':>9s} {'eps_tot':>9s} {'delta_tot':>10s} "
          f"{'PLD delta(eps_tot)':>19s} {'PLD eps(delta_tot)':>19s}")
    for d1, d2 in [(1e-6, 1e-6), (1e-5, 1e-7), (1e-7, 1e-5), (5e-6, 5e-6)]:
        f1, g2 = dp.c.make_fix_delta(fh, d1), dp.c.make_fix_delta(gauss, d2)
        eps_tot, delta_tot = dp.c.make_composition([f1, g2]).map(D_IN)
        up = float(pld.delta_upper(eps_tot))
        print(f"{d1:8.0e} {d2:8.0e} {f1.map(D_IN)[0]:9.4f} {g2.map(D_IN)[0]:9.4f} {eps_tot:9.4f} {delta_tot:10.2e} "
              f"{up:19.3e} {pld.epsilon(delta_tot):19.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
