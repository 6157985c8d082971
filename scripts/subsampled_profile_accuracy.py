#!/usr/bin/env python
"""Accuracy of the Poisson-subsampled FH profile (fhsym.integrations.dp_accounting.subsampled_privacy_profile).

One command (needs the optional extra ``dp-accounting``)::

    python scripts/subsampled_profile_accuracy.py     # ~10 min

Two references over alpha/gamma in {0, 1e-6, 0.5, 2, 10, 5, 1/30} (gamma = 1 except (1, 0.2), (1, 30)),
q in {1e-4, 0.01, 0.3, 0.9}, ADD and REMOVE, eps in {-0.5, 0, 0.3 q, 0.5, 2}, sensitivity 1:

* "harness chain": the amplification transform in mpmath (50 digits) applied to the project's mpmath
  harness ``proofs.reference.privacy_profile`` (quadrature of the 1-D definition): tests the float
  transform and the 1-D profile together (every point with delta >= 1e-300);
* "definition": mpmath quadrature of int [P - e^eps Q]_+ of the subsampled pair itself (the helper of
  ``tests/integrations/test_dp_accounting_events.py``, 40 digits): tests the identity (points with
  delta > 1e-100; its own quadrature error is ~1e-10 in the far tails).
"""

from __future__ import annotations

import os
import sys
import time

import mpmath as mp

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests", "integrations"))

from proofs import reference as R  # noqa: E402
from test_dp_accounting_events import ADD, REMOVE, _ref_subsampled  # noqa: E402

from fhsym.integrations.dp_accounting import subsampled_privacy_profile  # noqa: E402

PARAMS = [(0.0, 1.0), (1e-6, 1.0), (0.5, 1.0), (2.0, 1.0), (10.0, 1.0), (1.0, 0.2), (1.0, 30.0)]
QS = [1e-4, 0.01, 0.3, 0.9]


def harness(eps, a, g, D, q, adj):
    with mp.workdps(50):
        e, q_ = mp.mpf(eps), mp.mpf(q)

        def d0(t):
            if t >= 0:
                return R.privacy_profile(t, a, g, D, dps=40)
            return -mp.expm1(t) + mp.exp(t) * R.privacy_profile(-t, a, g, D, dps=40)

        if adj == REMOVE:
            if e <= mp.log1p(-q_):
                return -mp.expm1(e)
            return q_ * d0(mp.log1p(mp.expm1(e) / q_))
        A = 1 - (1 - q_) * mp.exp(e)
        if A <= 0:
            return mp.mpf(0)
        return A * d0(e + mp.log(q_) - mp.log(A))


def main() -> int:
    t0 = time.time()
    worst_h, worst_d, n_h, n_d = (0.0, None), (0.0, None), 0, 0
    for a, g in PARAMS:
        for q in QS:
            for adj in (REMOVE, ADD):
                for eps in (-0.5, 0.0, 0.3 * q, 0.5, 2.0):
                    got = subsampled_privacy_profile(eps, a, g, 1.0, q, adj)
                    if got < 1e-300:
                        continue
                    ref = float(harness(eps, a, g, 1.0, q, adj))
                    r = abs(got - ref) / ref
                    n_h += 1
                    if r > worst_h[0]:
                        worst_h = (r, (a, g, q, adj.name, eps, got, ref))
                    if got > 1e-100:
                        ref_d = float(_ref_subsampled(eps, a, g, 1.0, q, adj, dps=40))
                        r = abs(got - ref_d) / ref_d
                        n_d += 1
                        if r > worst_d[0]:
                            worst_d = (r, (a, g, q, adj.name, eps, got, ref_d))
    print(f"harness chain: {n_h} points, worst relative error {worst_h[0]:.2e} at (alpha, gamma, q, adjacency, eps, got, ref) = {worst_h[1]}")
    print(f"definition:    {n_d} points, worst relative error {worst_d[0]:.2e} at {worst_d[1]}")
    print(f"({time.time() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
