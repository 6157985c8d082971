"""Certified calibrations: delta at the returned parameters is <= the target
(checked with independent mpmath evaluations) and the parameters are optimal
to the stated tolerance, always on the side of more noise."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest
from scipy import optimize

from fhsym.calibration import Calibration
from calibrate_mechanisms import (
    calibrate_gaussian,
    calibrate_laplace,
    calibrate_osgt,
    calibrate_staircase,
    calibrate_truncated_laplace,
)
from fhsym.noise import OSGT, Staircase, staircase_optimal_gamma
CERTIFICATION_MARGIN = 1e-13  # the comparison mechanisms' float profile error allowance (profile_rtol)
SEARCH_MARGIN = 4 * CERTIFICATION_MARGIN  # the 1-D search aims at delta (1 - 4 profile_rtol)

from proofs import reference_mechanisms as R  # noqa: E402

# (eps, delta, sensitivity); the first five are the brief's reference points
GAUSS_REQUESTS = [
    (1.0, 1e-5, 1.0),
    (0.3, 1e-6, 1.0),
    (3.0, 1e-6, 1.0),
    (10.0, 1e-10, 1.0),
    (50.0, 1e-6, 1.0),
    (50.0, 1e-15, 1.0),
    (1e-3, 1e-15, 1.0),
    (0.0, 1e-3, 2.0),
    (2.0, 0.3, 1e-4),
    (0.5, 1e-9, 1e3),
]


@pytest.mark.parametrize("eps,delta,sens", GAUSS_REQUESTS)
def test_gaussian_calibration_certified_and_optimal(eps, delta, sens):
    cal = calibrate_gaussian(eps, delta, sens)
    assert isinstance(cal, Calibration)
    sigma = cal.mechanism.sigma
    star = R.gaussian_sigma_star(eps, delta, sens)  # 250-step bisection at 50 digits
    with mp.workdps(50):
        # never below the exact minimum, and at most 1e-12 above it
        assert mp.mpf(sigma) >= star
        assert (mp.mpf(sigma) - star) / star <= 1e-12
        # certified: the exact delta at the returned sigma meets the target
        assert R.gaussian_delta_closed(eps, sens, sigma) <= delta
    assert cal.achieved_delta <= delta and cal.target_delta == delta
    assert cal.variance == sigma**2
    # the search returns the smallest double meeting its own margin, to rounding: within 4 ulps of the least double
    # whose public float profile meets it (the search evaluates the profile one point at a time in plain floats,
    # the public profile forms its argument in double-double; they differ in the last bits)
    def meets(s: float) -> bool:
        return type(cal.mechanism)(s).privacy_profile(eps, sens) <= delta * (1 - SEARCH_MARGIN)

    least, steps = sigma, 0
    while not meets(least) and steps < 64:
        least, steps = float(np.nextafter(least, np.inf)), steps + 1
    while meets(float(np.nextafter(least, 0.0))) and steps < 64:
        least, steps = float(np.nextafter(least, 0.0)), steps + 1
    assert meets(least) and not meets(float(np.nextafter(least, 0.0)))
    ulps = abs(int(np.float64(sigma).view(np.int64)) - int(np.float64(least).view(np.int64)))
    assert ulps <= 4, f"sigma is {ulps} ulps from the least double meeting the search margin"
    assert CERTIFICATION_MARGIN <= SEARCH_MARGIN


def test_gaussian_reference_values_from_the_brief():
    """sigma* (Delta = 1) measured elsewhere with 250-step mpmath bisection."""
    brief = {
        (1.0, 1e-5): 3.73063163481594,
        (0.3, 1e-6): 12.9923828948431,
        (3.0, 1e-6): 1.54386141777564,
        (10.0, 1e-10): 0.683043967227481,
        (50.0, 1e-6): 0.156592870391762,
    }
    for (eps, delta), value in brief.items():
        star = R.gaussian_sigma_star(eps, delta)
        assert abs(star - value) <= 1e-14 * value  # the brief's digits agree with our reference
        assert calibrate_gaussian(eps, delta).mechanism.sigma == pytest.approx(value, rel=1e-13)


@pytest.mark.parametrize("eps,delta,sens", [(1.0, 1e-6, 1.0), (0.01, 1e-3, 3.0), (0.0, 0.2, 1.0), (40.0, 1e-12, 0.5)])
def test_laplace_calibration(eps, delta, sens):
    cal = calibrate_laplace(eps, delta, sens)
    beta = cal.mechanism.beta
    with mp.workdps(50):
        star = mp.mpf(sens) / (mp.mpf(eps) - 2 * mp.log1p(-mp.mpf(delta)))  # paper App. F-A(b)
        assert mp.mpf(beta) >= star and (mp.mpf(beta) - star) / star <= 1e-12
        exact = -mp.expm1((mp.mpf(eps) - mp.mpf(sens) / mp.mpf(beta)) / 2)
        assert exact <= delta
    assert cal.variance == 2 * beta**2


@pytest.mark.parametrize("eps,sens", [(1.0, 1.0), (0.1, 1.0), (0.3, 3.0), (7.0, 0.1)])
def test_laplace_pure_dp_is_exact(eps, sens):
    cal = calibrate_laplace(eps, 0.0, sens)
    beta = cal.mechanism.beta
    assert Fraction(beta) * Fraction(eps) >= Fraction(sens)
    assert Fraction(np.nextafter(beta, 0.0)) * Fraction(eps) < Fraction(sens)
    assert cal.achieved_delta == 0.0 and cal.mechanism.privacy_profile(eps, sens) == 0.0


@pytest.mark.parametrize("eps,delta,sens", [(0.3, 1e-6, 1.0), (3.0, 1e-6, 1.0), (1.0, 1e-12, 2.0), (0.01, 0.1, 1.0)])
def test_truncated_laplace_calibration(eps, delta, sens):
    cal = calibrate_truncated_laplace(eps, delta, sens)
    m = cal.mechanism
    assert Fraction(m.scale) * Fraction(eps) >= Fraction(sens)
    with mp.workdps(50):
        lam = mp.mpf(sens) / eps
        a_star = lam * mp.log1p(mp.expm1(eps) / (2 * mp.mpf(delta)))  # Geng et al. (2020)
        assert abs(mp.mpf(m.bound) - a_star) <= 1e-12 * a_star
    with mp.workdps(R.DPS):
        ref, err = R.tl_profile_ref(m.scale, m.bound, eps, sens)
        assert ref <= delta and err < 1e-20
    assert cal.achieved_delta <= delta


def test_osgt_calibration_certified_and_locally_optimal():
    eps, delta = 0.3, 1e-6
    cal = calibrate_osgt(eps, delta)
    m = cal.mechanism
    with mp.workdps(R.DPS):
        ref, err = R.osgt_profile_ref(m.vartheta, m.varrho, eps, 1.0)
        assert ref <= delta and err < 1e-18 * ref
        # variance by quadrature
        var, _ = R.integrate_density(
            R.osgt_logpdf(m.vartheta, m.varrho), [], m.varrho / (m.vartheta / m.varrho), lambda t: (abs(t) + m.vartheta) / m.varrho, 2
        )
        assert abs(var - cal.variance) <= 1e-13 * var
    # no better theta nearby: re-solve the frontier independently at theta (1 +- 5%)
    theta = m.vartheta / m.varrho
    for f in (0.95, 1.05):
        th = theta * f

        def gap(log_s):
            s = math.exp(log_s)
            val = OSGT(th, 1.0).privacy_profile(eps, s)
            return (math.log(val) if val > 0 else -1e4) - math.log(delta)

        ls0 = -math.log(m.varrho)
        s_star = math.exp(optimize.brentq(gap, ls0 - 0.5, ls0 + 0.5, xtol=1e-14))
        v = OSGT(th / s_star, 1.0 / s_star).variance()
        assert v >= cal.variance * (1 - 1e-9)


def test_osgt_calibration_box_and_theta_zero():
    # the paper's box: vartheta in [0.02, 150], varrho in [0.02, 50]
    cal = calibrate_osgt(3.0, 1e-6, box=((0.02, 150.0), (0.02, 50.0)))
    m = cal.mechanism
    assert 0.02 <= m.vartheta <= 150.0 and 0.02 <= m.varrho <= 50.0
    with mp.workdps(R.DPS):
        ref, err = R.osgt_profile_ref(m.vartheta, m.varrho, 3.0, 1.0)
        assert ref <= 1e-6
    # pinning theta to ~0 reproduces the Gaussian calibration
    g = calibrate_gaussian(1.0, 1e-5)
    o = calibrate_osgt(1.0, 1e-5, box=((0.0, 0.0), (1e-3, 100.0)))
    assert o.mechanism.varrho == pytest.approx(g.mechanism.sigma, rel=1e-12)
    assert o.mechanism.varrho >= g.mechanism.sigma * (1 - 1e-15)


def test_staircase_optimal_gamma_and_pure_dp():
    for eps in (0.01, 0.3, 1.0, 5.0, 30.0):
        g = staircase_optimal_gamma(eps)
        # Geng & Viswanath's closed form for the x^2 cost
        with mp.workdps(40):
            b = mp.exp(-mp.mpf(eps))
            geng = -b / (1 - b) + (b - 2 * b**2 + 2 * b**4 - b**5) ** (mp.mpf(1) / 3) / (
                mp.cbrt(2) * (1 - b) ** 2
            )
            assert abs(g - geng) <= 1e-14 * geng
            vstar = (mp.mpf(2) ** (-mp.mpf(2) / 3) * b ** (mp.mpf(2) / 3) * (1 + b) ** (mp.mpf(2) / 3) + b) / (1 - b) ** 2
        # numerical minimiser of the variance agrees
        res = optimize.minimize_scalar(
            lambda x: Staircase(eps, 1.0, x).variance(), bounds=(0, 1), method="bounded",
            options={"xatol": 1e-10},
        )
        assert abs(res.x - g) < 1e-5
        cal = calibrate_staircase(eps)
        assert cal.variance == pytest.approx(float(vstar), rel=1e-13)
        assert cal.achieved_delta == 0.0 and cal.mechanism.privacy_profile(eps, 1.0) == 0.0
        assert staircase_optimal_gamma(eps, "magnitude") == pytest.approx(1 / (1 + math.exp(eps / 2)), rel=1e-14)
    # pure DP also verified by the exact reference sum
    m = calibrate_staircase(1.3, 2.0).mechanism
    with mp.workdps(30):
        ref, _ = R.StaircaseRef(1.3, 2.0, m.width).profile(1.3, 2.0, periods=40)
        assert ref == 0
        ref_below, _ = R.StaircaseRef(1.3, 2.0, m.width).profile(1.2, 2.0, periods=80)
        assert ref_below > 0
