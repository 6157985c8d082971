"""zCDP of FH (slides) and zCDP -> (eps, delta)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from fhsym import FlippedHuber
from fhsym.accounting.zcdp import zcdp, zcdp_compose, zcdp_delta, zcdp_params, zcdp_to_dp


def test_parameters_follow_the_slides():
    a, g, D = 1.5, 2.0, 1.0
    R = a**2 - max(a - D, 0.0) ** 2
    assert zcdp_params(a, g, D) == pytest.approx((R / (2 * g * g), D * D / (2 * g * g)))
    assert zcdp_params(a, g, D, dim=7) == pytest.approx((7 * R / (2 * g * g), 7 * D * D / (2 * g * g)))
    assert zcdp_params(a, g, D, dim=7, l2_sensitivity=2.0) == pytest.approx((7 * R / (2 * g * g), 4.0 / (2 * g * g)))
    xi_ref, _ = zcdp_params(a, g, D, dim=7, l2_sensitivity=2.0, refine=True)
    c = 2.0 / math.sqrt(7)
    assert xi_ref == pytest.approx(7 * (a**2 - max(a - c, 0.0) ** 2) / (2 * g * g))
    assert zcdp(FlippedHuber(a, g), D, 3) == zcdp_params(a, g, D, 3)


def test_renyi_divergence_is_below_the_zcdp_bound():
    # exact Renyi divergence by mpmath quadrature of the definition (standard units)
    a, g, D = 1.2, 1.0, 0.8
    xi, eta = zcdp_params(a, g, D)

    def rho(x):
        x = abs(x)
        return a * x if x <= a else (x * x + a * a) / 2

    with mpmath.workdps(25):
        Z = mpmath.quad(lambda s: mpmath.exp(-rho(s)), [-mpmath.inf, -a, 0, a, mpmath.inf])
        for lam in [1.01, 1.5, 3.0, 10.0, 40.0]:
            I = mpmath.quad(lambda s: mpmath.exp(-lam * rho(s) - (1 - lam) * rho(s - D)) / Z,
                            [-mpmath.inf, -a, 0, D - a, a, D, D + a, mpmath.inf])
            assert float(mpmath.log(I) / (lam - 1)) <= xi + lam * eta


def test_conversion_is_valid_and_optimal_beats_bun_steinke():
    for xi, eta, dl in [(0.0, 0.5, 1e-6), (0.2, 0.01, 1e-8), (1.0, 3.0, 1e-5)]:
        e = zcdp_to_dp(xi, eta, dl)
        assert e <= zcdp_to_dp(xi, eta, dl, method="bun-steinke")
        assert zcdp_delta(xi, eta, e) <= dl * (1 + 1e-9)
        # the Gaussian mechanism is exactly (0, s^2/2)-zCDP; its exact eps(delta) is a lower bound of any conversion
        if xi == 0.0:
            from scipy import optimize, stats

            s = math.sqrt(2 * eta)
            f = lambda x: stats.norm.sf(x / s - s / 2) - math.exp(x) * stats.norm.sf(x / s + s / 2) - dl  # noqa: E731
            assert optimize.brentq(f, 0, 100) <= e


def test_conversion_matches_dp_accounting():
    rdp = pytest.importorskip("dp_accounting.rdp.rdp_privacy_accountant")
    orders = np.concatenate([np.linspace(1.01, 10, 2000), np.geomspace(10, 1e4, 4000)])
    for xi, eta, dl in [(0.0, 0.5, 1e-6), (0.1, 0.02, 1e-8)]:
        ref, _ = rdp.compute_epsilon(orders, xi + eta * orders, dl)
        assert zcdp_to_dp(xi, eta, dl) == pytest.approx(ref, rel=1e-6)
        assert zcdp_to_dp(xi, eta, dl) <= ref * (1 + 1e-12)  # the continuous optimum is at least as good as a grid


def test_composition_and_validation():
    assert zcdp_compose([(0.1, 0.2), (0.3, 0.4)], rounds=2) == pytest.approx((0.8, 1.2))
    with pytest.raises(ValueError, match="delta"):
        zcdp_to_dp(0.1, 0.1, 0.0)
    with pytest.raises(ValueError, match="eta"):
        zcdp_to_dp(0.1, -1.0, 1e-6)
    with pytest.raises(ValueError, match="method"):
        zcdp_to_dp(0.1, 0.1, 1e-6, method="magic")
