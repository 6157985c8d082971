"""K-dimensional and composed calibrations of the comparison mechanisms (fhsym.calibrate(..., dim, compositions)).

The certified K-fold bound (fhsym.accounting.mechanism_pld) is checked against an independent
computation that shares no PLD code: for two coordinates,

    delta_2(eps) = int g(t) h(eps - L(t)) dt,   L(t) = log g(t)/g(t + Delta),
    h(e) = delta_1(e) for e >= 0,  h(e) = 1 - e^e + e^e delta_1(-e) for e < 0

(the hockey-stick divergence of a product pair, conditioned on the first coordinate; the branch for
e < 0 is the perspective of the symmetric 1-D curve), by mpmath quadrature split at the kinks of L,
with the 1-D profile delta_1 from the mechanism's exact closed form.
"""

from __future__ import annotations

import math

import mpmath as mp
import numpy as np
import pytest

import fhsym
from fhsym.accounting.mechanism_pld import kfold_delta_upper, noise_pld


def _two_fold(noise, eps: float, Delta: float, kinks) -> float:
    def h(e: float) -> float:
        if e >= 0:
            return float(noise.privacy_profile(e, Delta))
        return -math.expm1(e) + math.exp(e) * float(noise.privacy_profile(-e, Delta))

    def integrand(t):
        t = float(t)
        lp, lq = float(noise.logpdf(t)), float(noise.logpdf(t + Delta))
        if lp == -math.inf:
            return mp.mpf(0)
        loss = math.inf if lq == -math.inf else lp - lq
        val = 1.0 if loss == math.inf else h(eps - loss)
        return mp.mpf(math.exp(lp)) * val

    lo, hi = noise.support()
    span = 40.0 * math.sqrt(noise.var()) + 2 * Delta
    pts = sorted({max(lo, -span), *[k for k in kinks if max(lo, -span) < k < min(hi, span)], min(hi, span)})
    with mp.workdps(20):
        return float(mp.quad(integrand, pts, maxdegree=8))


CASES = [
    (fhsym.Laplace(1.3), [-1.0, 0.0]),
    (fhsym.TruncatedLaplace(1.0, 4.0), [-4.0, -1.0, 0.0, 3.0, 4.0]),
    (fhsym.OSGT(0.7, 1.2), [-1.0, -0.5, 0.0]),
    (fhsym.Gaussian(1.5), [0.0]),
]


@pytest.mark.parametrize("noise,kinks", CASES, ids=lambda x: x.name if hasattr(x, "name") else "")
@pytest.mark.parametrize("eps", [0.3, 1.0])
def test_two_fold_bound_against_conditioning_integral(noise, kinks, eps):
    exact = _two_fold(noise, eps, 1.0, kinks)
    up = kfold_delta_upper(noise, eps, 2, 1.0)
    lo = float(noise_pld(noise, 1.0).self_compose(2).delta_lower(eps))
    assert up >= exact * (1 - 1e-6)          # the certified bound is above the truth (quadrature error ~1e-7)
    assert up <= exact * (1 + 2e-3) + 1e-12  # and tight
    assert lo <= exact * (1 + 1e-6)


def test_gaussian_kfold_equals_l2():
    """K coordinates of N(0, s^2) over the box corner = one coordinate at sensitivity sqrt(K) Delta (exact)."""
    g = fhsym.Gaussian(2.0)
    for K in (2, 5):
        exact = float(g.privacy_profile(1.0, math.sqrt(K)))
        up = kfold_delta_upper(g, 1.0, K, 1.0)
        assert exact <= up <= exact * (1 + 1e-5)


@pytest.mark.parametrize("mechanism", ["laplace", "truncated_laplace", "osgt", "gaussian", "staircase"])
def test_kdim_calibration_is_certified_and_covers_the_request(mechanism):
    cal = fhsym.calibrate(1.0, 1e-6, dim=3, mechanism=mechanism)
    assert cal.dim == 3 and cal.achieved_delta <= 1e-6
    assert fhsym.verify_certificate(cal.certificate.to_json()) if cal.certificate.claim != "profile-1d-l2" else True
    if mechanism in ("laplace", "truncated_laplace", "osgt") and cal.certificate.claim == "pld-kfold-noise":
        assert kfold_delta_upper(cal.mechanism, 1.0, 3, 1.0) <= 1e-6


def test_compositions_of_the_gaussian_are_exact():
    cal = fhsym.calibrate(1.0, 1e-6, mechanism="gaussian", compositions=4)
    one = fhsym.calibrate(1.0, 1e-6, mechanism="gaussian", sensitivity=2.0)  # sqrt(4) Delta
    assert cal.sigma == one.sigma and cal.compositions == 4


def test_pure_laplace_l1_and_staircase_composition():
    lap = fhsym.calibrate(1.0, 1e-6, dim=4, l1_sensitivity=2.0, mechanism="laplace", method="pure")
    assert lap.beta >= 2.0 and lap.achieved_delta == 0.0          # beta >= Delta_1 / eps
    st = fhsym.calibrate(2.0, 1e-6, dim=4, mechanism="staircase", method="pure")  # auto: the PLD may need less
    assert st.mechanism.epsilon == pytest.approx(0.5) and st.achieved_delta == 0.0


def test_kdim_options_are_used_or_refused():
    # theta_max bounds the shapes of the K-fold search too (used); an option a law does not take is refused
    cal = fhsym.calibrate(1.0, 1e-6, dim=2, mechanism="osgt", theta_max=10.0)
    assert cal.mechanism.family_shape <= 10.0 and fhsym.verify_certificate(cal.certificate)
    with pytest.raises(ValueError, match="options"):
        fhsym.calibrate(1.0, 1e-6, dim=2, mechanism="osgt", box=((0, 1), (0, 1)))
    with pytest.raises(ValueError, match="epsilon"):
        fhsym.calibrate(-1.0, 1e-6, dim=2, mechanism="laplace")
    with pytest.raises(ValueError, match="compositions"):
        fhsym.calibrate(1.0, 1e-6, compositions=0)
