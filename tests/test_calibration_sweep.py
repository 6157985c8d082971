"""Calibration over 50 (eps, delta) pairs: certified by mpmath, and as good as a dense search.

For every pair of the grid eps in geomspace(0.01, 20, 10) x delta in geomspace(1e-12, 1e-2, 5):

* the returned (alpha, gamma) satisfy the exact condition delta^(1)(eps) <= delta when the profile
  is recomputed by mpmath quadrature of its definition int [g(t) - e^eps g(t + Delta)]_+ dt at
  30 digits (``proofs.reference``; independent of the closed forms and of ``fhsym.certify``);
* the variance is within 2e-4 (the issue asks 0.1 %) of the best variance found by a dense search
  that shares no search code with ``fhsym.calibration`` (both evaluate ``fhsym.privacy_profile``,
  whose accuracy is tested against quadrature on its own): 400 log-spaced shapes b = alpha/gamma in [1e-3, 1e4] plus the
  Gaussian b = 0, then 400 shapes within +-10 % of the best one; for each shape the largest
  feasible Delta/gamma by 100 bisection steps on the vectorised profile (broadcast over b and
  Delta/gamma); variance gamma^2 v(b) from ``FlippedHuber(b, 1).var()``.

Run with ``-s`` to see the worst points.
"""

from __future__ import annotations

import numpy as np
import pytest

pytestmark = pytest.mark.slow  # the 50-pair sweep: mpmath quadrature and a dense search (~40 s)

import fhsym
from proofs import reference as R

EPS = np.geomspace(0.01, 20.0, 10)
DELTAS = np.geomspace(1e-12, 1e-2, 5)
PAIRS = [(float(e), float(d)) for e in EPS for d in DELTAS]

_B = np.concatenate([[0.0], np.geomspace(1e-3, 1e4, 400)])


def _v_std(bs: np.ndarray) -> np.ndarray:
    return np.array([fhsym.FlippedHuber(b, 1.0).var() for b in bs])  # variance of FH(b, 1)


_V_STD = _v_std(_B)


def _best_on_grid(eps: float, delta: float, bs: np.ndarray, v_std: np.ndarray) -> tuple:
    """For each b the largest D = Delta/gamma with delta(eps) <= delta (100 bisection steps); the least variance."""
    lo = np.full(bs.shape, 1e-9)  # feasible for every shape at these (eps, delta)
    hi = np.full(bs.shape, 1e4)  # infeasible
    assert np.all(fhsym.privacy_profile(eps, bs, 1.0, lo) <= delta)
    assert np.all(fhsym.privacy_profile(eps, bs, 1.0, hi) > delta)
    for _ in range(100):
        mid = np.sqrt(lo * hi)
        ok = fhsym.privacy_profile(eps, bs, 1.0, mid) <= delta
        lo = np.where(ok, mid, lo)
        hi = np.where(ok, hi, mid)
    var = v_std / lo**2  # Delta = 1: gamma = 1 / D
    i = int(np.argmin(var))
    return float(var[i]), float(bs[i])


def dense_search(eps: float, delta: float) -> tuple:
    """(variance, b): the best of a coarse grid of shapes, then of a 400-point grid within +-10 % of its best b.

    The optimum often sits where the variance has a kink in b (eps = alpha Delta / gamma^2), so a
    single 4 %-spaced grid can be ~1 % off; the second pass (0.05 % spacing) is not.
    """
    var, b = _best_on_grid(eps, delta, _B, _V_STD)
    if b > 0:
        fine = np.geomspace(b / 1.1, b * 1.1, 400)
        var_f, b_f = _best_on_grid(eps, delta, fine, _v_std(fine))
        if var_f < var:
            var, b = var_f, b_f
    return var, b


@pytest.fixture(scope="module")
def sweep():
    rows = []
    for eps, delta in PAIRS:
        cal = fhsym.calibrate(eps, delta)
        quad = float(R.privacy_profile(eps, cal.alpha, cal.gamma, 1.0, dps=30))
        dvar, db = dense_search(eps, delta)
        rows.append(dict(eps=eps, delta=delta, cal=cal, quad=quad, dense_var=dvar, dense_b=db,
                         excess=cal.variance / dvar - 1.0))
    return rows


def test_every_calibration_is_private_by_quadrature(sweep):
    worst = max(sweep, key=lambda r: r["quad"] / r["delta"])
    print(f"\nworst quadrature delta / target over {len(sweep)} pairs: {worst['quad'] / worst['delta']:.9f} "
          f"at eps={worst['eps']:.4g}, delta={worst['delta']:.3g}")
    bad = [(r["eps"], r["delta"], r["quad"]) for r in sweep if not r["quad"] <= r["delta"]]
    assert not bad, f"under-noised (quadrature delta > target): {bad}"
    assert len(sweep) >= 50


def test_variance_within_0_1_percent_of_dense_search(sweep):
    worst = max(sweep, key=lambda r: abs(r["excess"]))
    best = min(sweep, key=lambda r: r["excess"])
    print(f"\ncalibrate vs dense search over {len(sweep)} pairs: worst |var/dense - 1| = {abs(worst['excess']):.2e} "
          f"at eps={worst['eps']:.4g}, delta={worst['delta']:.3g}; most below the grid: {best['excess']:+.2e}")
    bad = [(r["eps"], r["delta"], r["cal"].variance, r["dense_var"]) for r in sweep if abs(r["excess"]) > 2e-4]
    assert not bad, f"variance not within 2e-4 of the dense search (the issue asks 1e-3; measured 1.13e-4): {bad}"
