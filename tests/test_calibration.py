"""Certified minimum-variance calibration (dim = 1) and the Section IV-A construction.

Independent references: the privacy profile at the returned parameters is recomputed
by mpmath quadrature of its definition (proofs.reference.privacy_profile); the paper's
published variances (Sec V-A: eps = 0.3: Gaussian 168.80, FH 22.21; eps = 3: Gaussian
2.38; Delta = 1, delta = 1e-6) are quoted with their two printed decimals.
"""

from __future__ import annotations

import math

import pytest

import fhsym
from scipy import optimize
from proofs import reference as R

CASES = [(0.3, 1e-6), (1.0, 1e-5), (3.0, 1e-6), (0.05, 1e-9), (10.0, 1e-12)]


@pytest.fixture(scope="module")
def calibrations():
    return {c: fhsym.calibrate(*c) for c in CASES}


@pytest.mark.parametrize("eps,delta", CASES)
def test_calibration_is_certified_by_quadrature(calibrations, eps, delta):
    cal = calibrations[(eps, delta)]
    assert cal.achieved_delta <= delta  # the certificate: an arb upper bound at the exact floats
    exact = R.privacy_profile(eps, cal.alpha, cal.gamma, cal.sensitivity, dps=50)
    assert exact <= delta, f"under-noised: quadrature delta {exact} > {delta}"
    assert cal.mechanism == fhsym.FlippedHuber(cal.alpha, cal.gamma)
    assert cal.variance == pytest.approx(R.variance(cal.alpha, cal.gamma), rel=1e-12)


@pytest.mark.parametrize("eps,delta", CASES)
def test_calibration_is_tight(calibrations, eps, delta):
    """Not grossly over-noised: 1e-7 less scale (same shape) breaks the target."""
    cal = calibrations[(eps, delta)]
    if cal.alpha / cal.gamma > 1e3:  # Laplace-like optimum: delta is flat in gamma there
        pytest.skip("profile flat in gamma at the Laplace end")
    s = 1 - 1e-7
    assert float(fhsym.privacy_profile(eps, cal.alpha * s, cal.gamma * s, 1.0)) > delta


@pytest.mark.parametrize("eps,delta", CASES[:3])
def test_calibration_is_a_local_minimum(calibrations, eps, delta):
    """Moving the shape b = alpha/gamma by +-2% (with its own least gamma) does not lower the variance."""
    cal = calibrations[(eps, delta)]
    b0 = cal.alpha / cal.gamma
    target = delta / (1 + fhsym.PROFILE_RTOL)
    for b in (b0 * 0.98, b0 * 1.02):
        # the largest D = Delta/gamma with delta(eps; b, D) <= target, by Brent on the public profile (gamma = 1)
        f = lambda lD: float(fhsym.log_privacy_profile(eps, b, 1.0, math.exp(lD))) - math.log(target)  # noqa: E731
        D = math.exp(optimize.brentq(f, -30.0, 10.0, xtol=1e-14))
        var = fhsym.FlippedHuber(b, 1.0).var() / D**2
        assert var >= cal.variance * (1 - 1e-7)


def test_paper_section_V_A_numbers(calibrations):
    """Sec V-A (Delta = 1, delta = 1e-6): FH variance 22.21 at eps = 0.3 (ours may beat the grid search)."""
    fh = calibrations[(0.3, 1e-6)]
    assert fh.variance <= 22.215
    assert fh.variance == pytest.approx(22.21, abs=0.01)
    _, sigma, _ = fhsym.gaussian_dominance(0.3, 1e-6)
    assert sigma**2 == pytest.approx(168.80, abs=0.005)
    _, sigma3, _ = fhsym.gaussian_dominance(3.0, 1e-6)
    assert sigma3**2 == pytest.approx(2.38, abs=0.005)
    # "for flipped Huber and truncated Laplace, the variances decrease by 100 times" from eps = 0.3 to 3
    assert fh.variance / calibrations[(3.0, 1e-6)].variance == pytest.approx(100, rel=0.01)


@pytest.mark.parametrize("eps,delta", CASES)
def test_fh_never_needs_more_variance_than_gaussian(calibrations, eps, delta):
    """Section IV-A: gamma = sigma_Gauss, alpha = [gamma^2 eps/Delta - Delta/2]_+ is (eps, delta)-DP with variance <= sigma^2."""
    fh, sigma, achieved = fhsym.gaussian_dominance(eps, delta)
    assert achieved <= delta
    assert R.privacy_profile(eps, fh.alpha, fh.gamma, 1.0, dps=50) <= delta
    assert fh.var() <= sigma**2
    assert calibrations[(eps, delta)].variance <= fh.var() * (1 + 1e-9)


def test_sensitivity_scales_the_parameters():
    a = fhsym.calibrate(1.0, 1e-6, sensitivity=1.0)
    b = fhsym.calibrate(1.0, 1e-6, sensitivity=7.5)
    assert b.gamma == pytest.approx(7.5 * a.gamma, rel=1e-9)
    assert b.alpha == pytest.approx(7.5 * a.alpha, rel=1e-6)
    assert b.variance == pytest.approx(7.5**2 * a.variance, rel=1e-9)


@pytest.mark.parametrize(
    "kwargs,name",
    [
        (dict(epsilon=-0.1, delta=1e-6), "epsilon"),
        (dict(epsilon=float("nan"), delta=1e-6), "epsilon"),
        (dict(epsilon=1.0, delta=0.0), "delta"),
        (dict(epsilon=1.0, delta=1.0), "delta"),
        (dict(epsilon=1.0, delta=1e-6, sensitivity=-1.0), "sensitivity"),
        (dict(epsilon=1.0, delta=1e-6, dim=0), "dim"),
        (dict(epsilon=1.0, delta=1e-6, method="fastest"), "method"),
    ],
)
def test_bad_input(kwargs, name):
    with pytest.raises(ValueError, match=name):
        fhsym.calibrate(**kwargs)


def test_certificate_states_a_delta_below_the_float_range():
    """A certified delta below the float range: the bound is the smallest positive float (still an
    upper bound) and the certificate text states the certified value itself.

    FH(500, 5) at eps = 25 > alpha Delta / gamma^2 = 20: only the Gaussian tails beyond alpha leak,
    delta ~ exp(-b^2/2) with b = 100.
    """
    import re

    from fhsym.privacy.bounds import profile_bound

    b = profile_bound(fhsym.FlippedHuber(500.0, 5.0), 25.0, 1.0)
    assert b.upper == 5e-324 and b.lower == 0.0
    m = re.search(r"ball \[([0-9.]+)e-(\d+)", b.detail)
    assert m and int(m.group(2)) > 330, b.detail
