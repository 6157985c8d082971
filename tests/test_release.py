"""fhsym.release: noise calibrated for the value's dimension and norm, and nothing else.

* A vector release with an l2 sensitivity carries a calibration for that dimension and
  that l2 sensitivity, with a certificate recording them, and its noise is
  ``cal.mechanism.rvs(K, random_state=rng)`` (same draws for the same seed).  The Gaussian
  claim is re-checked independently: i.i.d. N(0, sigma^2) on K coordinates has the 1-D
  profile at Delta_2 (Balle & Wang 2018), evaluated here in mpmath at 50 digits.
  ``fhsym.verify_certificate`` is called where this checkout can re-derive the claim (the
  arb enclosures of 1-D claims need ``fhsym.privacy.enclosures``; Theorem 8 claims are not
  re-checkable by design).
* The empirical variance of many releases matches ``cal.variance``: tolerance 5 standard
  errors of the sample variance, SE = Var sqrt((E[T^4]/Var^2 - 1)/n) (n noise draws).
* A calibration made for another dimension or a smaller sensitivity set is refused; bad
  values, norms and argument combinations raise ``ValueError``.
"""

from __future__ import annotations

import importlib.util
import math

import numpy as np
import pytest
from mpmath import mp, mpf

import fhsym


def _reverify(cert) -> None:
    if cert.claim == "theorem8":
        return
    if cert.claim.startswith("profile-1d") and importlib.util.find_spec("fhsym.privacy.enclosures") is None:
        return
    assert fhsym.verify_certificate(cert)


def _gaussian_delta_mp(eps: float, sigma: float, sens: float) -> mpf:
    """Balle & Wang's exact profile Phi(D/2s - eps s/D) - e^eps Phi(-D/2s - eps s/D), 50 digits."""
    with mp.workdps(50):
        e, s, d = mpf(eps), mpf(sigma), mpf(sens)
        return mp.ncdf(d / (2 * s) - e * s / d) - mp.exp(e) * mp.ncdf(-d / (2 * s) - e * s / d)


def _check_variance(cal, draws: np.ndarray) -> None:
    n = draws.size
    var = cal.variance
    kurt = cal.mechanism.moment(4) / var**2
    se = var * math.sqrt((kurt - 1.0) / n)
    emp = float(np.mean(draws**2))  # the mean is 0: the second moment about 0 is the variance
    assert abs(emp - var) <= 5.0 * se, (emp, var, se)
    assert abs(float(np.mean(draws))) <= 5.0 * math.sqrt(var / n)


def test_vector_release_l2_gaussian():
    x = np.array([3.0, -1.0, 0.5, 2.0, 10.0])
    r = fhsym.release(x, 1.0, 1e-6, sensitivity=2.0, norm="l2", mechanism="gaussian", rng=11)
    cal = r.calibration
    assert r.value.shape == (5,)
    assert (cal.dim, cal.l2_sensitivity, cal.sensitivity) == (5, 2.0, 2.0)
    assert math.isclose(cal.l1_sensitivity, 2.0 * math.sqrt(5.0), rel_tol=1e-15)
    cert = cal.certificate
    assert (cert.dim, cert.l2_sensitivity, cert.mechanism, cert.claim) == (5, 2.0, "gaussian", "profile-1d-l2")
    assert cert.parameters == cal.mechanism.parameters and cert.upper <= cert.target_delta == 1e-6
    assert cal.achieved_delta <= 1e-6 and _gaussian_delta_mp(1.0, cal.sigma, 2.0) <= mpf(1e-6)
    _reverify(cert)
    assert cal == fhsym.calibrate(1.0, 1e-6, dim=5, l2_sensitivity=2.0, mechanism="gaussian")
    assert np.array_equal(r.value, x + cal.mechanism.rvs(5, random_state=11))
    rng = np.random.default_rng(5)
    draws = np.array([fhsym.release(np.zeros(5), calibration=cal, rng=rng).value for _ in range(4000)])
    _check_variance(cal, draws)


def test_vector_release_l2_flipped_huber():
    r = fhsym.release([1.0, 2.0], 1.0, 1e-5, sensitivity=1.0, norm="l2", method="sufficient", rng=3)
    cal = r.calibration
    assert isinstance(cal.mechanism, fhsym.FlippedHuber)
    assert (cal.dim, cal.l2_sensitivity, cal.sensitivity) == (2, 1.0, 1.0)
    cert = cal.certificate
    assert (cert.dim, cert.l2_sensitivity, cert.mechanism) == (2, 1.0, "flipped_huber")
    assert cert.parameters == cal.mechanism.parameters and cert.upper <= cert.target_delta == 1e-5
    _reverify(cert)
    rng = np.random.default_rng(9)
    draws = np.array([fhsym.release(np.zeros(2), calibration=cal, rng=rng).value for _ in range(6000)])
    _check_variance(cal, draws)


def test_scalar_release_is_one_dimensional():
    r = fhsym.release(5.0, 1.0, 1e-6, sensitivity=1.0, rng=0)
    assert type(r.value) is float and r.calibration.dim == 1
    assert isinstance(r.calibration.mechanism, fhsym.FlippedHuber)
    assert r.value == 5.0 + r.calibration.mechanism.rvs(1, random_state=0)[0]
    assert type(fhsym.release(np.float64(2.0), calibration=r.calibration, rng=1).value) is float
    with pytest.raises(ValueError, match="dim=1 but the value has 3"):
        fhsym.release([1.0, 2.0, 3.0], calibration=r.calibration)


def test_calibration_must_cover_the_query():
    box = fhsym.calibrate(1.0, 1e-6, dim=4, sensitivity=1.0, mechanism="gaussian")  # ||d||_2 <= 2
    ball = fhsym.calibrate(1.0, 1e-6, dim=4, l2_sensitivity=1.0, mechanism="gaussian")
    x = np.zeros(4)
    assert fhsym.release(x, calibration=box, sensitivity=1.0, norm="l2", rng=0).calibration is box  # ball in box
    with pytest.raises(ValueError, match="l2 sensitivity 1.0"):
        fhsym.release(x, calibration=ball, sensitivity=1.0)  # the box reaches ||d||_2 = 2
    with pytest.raises(ValueError, match="sensitivity set reaches 1.5"):
        fhsym.release(x, calibration=ball, sensitivity=1.5, norm="l2")
    with pytest.raises(ValueError, match="epsilon"):
        fhsym.release(x, 0.5, calibration=ball)
    with pytest.raises(ValueError, match="delta"):
        fhsym.release(x, 1.0, 1e-7, calibration=ball)
    with pytest.raises(ValueError, match="dim=4 but the value has 5"):
        fhsym.release(np.zeros(5), calibration=ball)
    with pytest.raises(ValueError, match="mechanism"):
        fhsym.release(x, calibration=ball, mechanism="laplace")
    with pytest.raises(ValueError, match="method"):
        fhsym.release(x, calibration=ball, method="exact")
    with pytest.raises(ValueError, match="Calibration"):
        fhsym.release(x, calibration={"sigma": 1.0})
    fhsym.release(x, 2.0, 1e-3, calibration=ball, mechanism="gaussian", rng=0)  # weaker claims: fine


@pytest.mark.parametrize(
    "kwargs,match",
    [
        (dict(value=np.ones((2, 2))), "1-D"),
        (dict(value=[]), "empty"),
        (dict(value=[1.0, math.nan]), "finite"),
        (dict(value=math.inf), "finite"),
        (dict(value="1.0"), "real"),
        (dict(value=[True, False]), "real"),
        (dict(value=[1 + 2j]), "real"),
        (dict(value=1.0, norm="l3"), "norm"),
        (dict(value=1.0, sensitivity=None, norm="l2", l1_sensitivity=1.0), "norm"),
        (dict(value=1.0, sensitivity=None), "sensitivity"),
        (dict(value=[1.0, 2.0], norm="l2", l2_sensitivity=1.0), "twice"),
        (dict(value=1.0, epsilon=None), "epsilon"),
        (dict(value=1.0, epsilon=-1.0), "epsilon"),
        (dict(value=1.0, delta=1.0), "delta"),
        (dict(value=1.0, mechanism="cauchy"), "mechanism"),
        (dict(value=1.0, sensitivity=0.0), "sensitivity"),
        (dict(value=1.0, rng="seed"), "rng"),
        (dict(value=1.0, cost="variance"), "cost"),
    ],
)
def test_bad_input(kwargs, match):
    args = dict(epsilon=1.0, delta=1e-6, sensitivity=1.0, mechanism="laplace")
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        fhsym.release(**args)


# ---------------------------------------------------------------------------------------- secure=True (issue 10)

def _lattice_profile_exact(eps, alpha, gamma, step, s, dps=50):
    """delta(eps) = sum_k [p(k) - e^eps p(k + s)]_+ for p(k) ~ exp(-rho_alpha(k step)/gamma^2): mpmath sums."""
    import mpmath as mp

    with mp.workdps(dps):
        a, g2, h = mp.mpf(alpha), mp.mpf(gamma) ** 2, mp.mpf(step)

        def w(k):
            t = abs(k) * h
            return mp.exp(-((a * t) if t <= a else (t * t + a * a) / 2) / g2)

        reach = int(mp.ceil((a + 40 * mp.sqrt(g2)) / h)) + s + 1  # weights beyond are < e^-800 of the centre
        ks = range(-reach, reach + 1)
        Z = mp.fsum(w(k) for k in ks)
        e = mp.exp(mp.mpf(eps))
        return mp.fsum(max(w(k) - e * w(k + s), 0) for k in ks) / Z


def test_calibrate_discrete_flipped_huber_is_the_one_calibration():
    cal = fhsym.calibrate(1.0, 1e-5, sensitivity=1.0, mechanism="discrete_flipped_huber", step=0.125)
    assert isinstance(cal, fhsym.Calibration) and cal.mechanism.name == "discrete_flipped_huber"
    assert cal.sensitivity_steps == 8 and cal.step == 0.125
    assert cal.achieved_delta <= 1e-5 and fhsym.verify_certificate(cal.certificate)
    exact = _lattice_profile_exact(1.0, cal.alpha, cal.gamma, 0.125, 8)
    assert exact <= 1e-5 and exact > 0.99e-5  # private, and not wastefully over-noised


@pytest.mark.parametrize("kw", [dict(), dict(step=0.125, dim=2), dict(step=0.125, compositions=2),
                                dict(step=0.3), dict(step=0.125, cost="variance")])
def test_calibrate_discrete_refuses(kw):
    with pytest.raises(ValueError):
        fhsym.calibrate(1.0, 1e-5, sensitivity=1.0, mechanism="discrete_flipped_huber", **kw)


def test_secure_release_is_on_the_lattice_and_reproducible_with_a_seed():
    from fractions import Fraction

    r1 = fhsym.release(3.3, 1.0, 1e-5, sensitivity=1.0, secure=True, step=0.125, rng=5)
    r2 = fhsym.release(3.3, 1.0, 1e-5, sensitivity=1.0, secure=True, step=0.125, rng=5)
    assert r1.value == r2.value and r1.lattice_index == r2.lattice_index
    assert Fraction(r1.value) == r1.lattice_index * Fraction(1, 8)  # exactly a lattice point
    cal = r1.calibration
    # many releases with one calibration: the noise (release - snapped value) has the calibrated law's variance
    ks = np.array([fhsym.release(3.3, calibration=cal, secure=True, sensitivity=1.0, rng=i).lattice_index - 26
                   for i in range(400)])  # snapped 3.3 -> index 26 (3.25)
    var_steps = cal.variance / 0.125**2
    assert abs(ks.mean()) < 5 * math.sqrt(var_steps / 400)
    assert abs(ks.var() / var_steps - 1) < 0.3


@pytest.mark.parametrize("kw", [dict(secure=True), dict(secure=True, step=0.125, mechanism="gaussian"),
                                dict(step=0.125), dict(mechanism="discrete_flipped_huber"), dict(secure=1)])
def test_secure_release_refuses(kw):
    with pytest.raises(ValueError):
        fhsym.release(3.3, 1.0, 1e-5, sensitivity=1.0, **kw)


def test_secure_release_refuses_vectors_and_float_calibrations():
    with pytest.raises(ValueError, match="one number"):
        fhsym.release([1.0, 2.0], 1.0, 1e-5, sensitivity=1.0, secure=True, step=0.125)
    with pytest.raises(ValueError, match="discrete_flipped_huber"):
        fhsym.release(1.0, secure=True, calibration=fhsym.calibrate(1.0, 1e-5))


def test_a_lattice_calibration_is_only_released_securely():
    """A discrete calibration with secure=False would add lattice noise to an unsnapped float (Mironov's
    exposure again): refused, naming secure=True."""
    cal = fhsym.calibrate(1.0, 1e-5, sensitivity=1.0, mechanism="discrete_flipped_huber", step=0.125)
    with pytest.raises(ValueError, match="secure=True"):
        fhsym.release(3.3, calibration=cal, sensitivity=1.0)


@pytest.mark.parametrize("mechanism, eps", [("laplace", 37.0), ("staircase", 37.0), ("laplace", 40.0)])
def test_float_release_refuses_pure_dp_noise_beyond_the_float_resolution(mechanism, eps):
    # P(T > Delta) < 2^-53: no float draw crosses one sensitivity, so the output would show the input (issue 20)
    kw = {"method": "pure"} if mechanism == "laplace" else {}
    with pytest.raises(ValueError, match="secure=True"):
        fhsym.release(1.0, eps, 1e-6, sensitivity=1.0, mechanism=mechanism, rng=0, **kw)
    below = fhsym.release(1.0, 30.0, 1e-6, sensitivity=1.0, mechanism=mechanism, rng=0, **kw)
    assert math.isfinite(below.value)
