"""Every calibration covers the user's sensitivity set, checked in exact arithmetic (issue 20).

A derived radius (sqrt(K) Delta, K Delta, sqrt(T) Delta_2, ...) rounded DOWN describes a smaller set
than the user's: fhsym 0.2.0.dev0 certified pure Laplace noise in 3 dimensions against the l1 radius
fl(sqrt(3) * sqrt(3)) = 2.9999999999999996 < 3 (the audit's reproducer: the exact delta at d = (1, 1, 1)
was 1.85e-17 while the certificate said 0).

The references here share no code with fhsym's radius arithmetic: the largest norms over the user's
set are bounded by the single-ball maxima (||d||_2 <= sqrt(K) ||d||_inf, ||d||_1 <= K ||d||_inf,
||d||_1 <= sqrt(K) ||d||_2, ||d||_inf <= ||d||_2 <= ||d||_1), compared with the certificate's radii by
exact rational arithmetic on squares; pure-DP claims are re-checked as exact rational inequalities of
the worst-case loss; the Gaussian's approximate claim by its closed-form profile evaluated in mpmath at
60 digits at the exact irrational radius.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath as mp
import pytest

import fhsym

KS = list(range(2, 21)) + [1000]
D_VALUES = [1.0, 0.3, 0.7]  # 0.3 and 0.7 are not dyadic: sqrt(K) D rounds either way


def _F(x: float) -> Fraction:
    return Fraction(x)


def _sets(K: int):
    """User sets: (given arguments, exact squared maxima (inf^2, l2^2, l1^2) implied by each given ball)."""
    for D in D_VALUES:
        yield {"sensitivity": D}, D
    yield {"l2_sensitivity": 1.1}, None
    yield {"l1_sensitivity": 2.3}, None
    yield {"sensitivity": 0.3, "l2_sensitivity": 0.3 * math.sqrt(K) * 0.9}, None


def _max_sq(K: int, given: dict):
    """Upper bounds (exact rationals) of max ||d||_inf^2, ||d||_2^2, ||d||_1^2 over the given balls' intersection:
    for each norm, the smallest of the single-ball maxima (each of which is exact for its ball)."""
    inf2, l22, l12 = [], [], []
    if "sensitivity" in given:
        r = _F(given["sensitivity"])
        inf2.append(r * r), l22.append(K * r * r), l12.append(K * K * r * r)
    if "l2_sensitivity" in given:
        r = _F(given["l2_sensitivity"])
        inf2.append(r * r), l22.append(r * r), l12.append(K * r * r)
    if "l1_sensitivity" in given:
        r = _F(given["l1_sensitivity"])
        inf2.append(r * r), l22.append(r * r), l12.append(r * r)
    return min(inf2), min(l22), min(l12)


def _covers(cal, K: int, T: int, given: dict) -> None:
    """The certificate's set contains the user's (per release): every radius >= the exact maximum."""
    inf2, l22, l12 = _max_sq(K, given)
    c = cal.certificate
    assert c.dim == K and c.compositions == T
    assert _F(c.sensitivity) ** 2 >= inf2
    assert _F(c.l2_sensitivity) ** 2 >= l22
    assert _F(c.l1_sensitivity) ** 2 >= l12


@pytest.mark.parametrize("K", KS)
@pytest.mark.parametrize("T", [1, 3])
def test_pure_laplace_is_private_for_the_whole_set(K, T):
    eps = 0.3  # not dyadic: eps * beta rounds
    for given, _ in _sets(K):
        cal = fhsym.calibrate(eps, 1e-20, dim=K, compositions=T, mechanism="laplace", method="pure", **given)
        _covers(cal, K, T, given)
        _, _, l12 = _max_sq(K, given)
        # worst-case loss over T releases: T max ||d||_1 / beta <= eps, i.e. (eps beta / T)^2 >= max ||d||_1^2
        assert (_F(eps) * _F(cal.mechanism.beta) / T) ** 2 >= l12, (given, cal.mechanism)
        assert cal.achieved_delta == 0.0 and fhsym.verify_certificate(cal.certificate)


@pytest.mark.parametrize("K", KS)
def test_staircase_composition_is_private_for_the_box(K):
    eps, T = 1.7, 2
    for D in D_VALUES:
        cal = fhsym.calibrate(eps, 1e-6, dim=K, compositions=T, mechanism="staircase", sensitivity=D)
        pure = fhsym.calibrate(eps, 1e-6, dim=K, compositions=T, mechanism="staircase", sensitivity=D, method="pure")
        # basic composition of K T pure-DP coordinates: K T eps0 <= eps, each for |d_i| <= Delta0
        assert K * T * _F(pure.mechanism.epsilon) <= _F(eps) and _F(pure.mechanism.sensitivity) >= _F(D)
        # auto: the pure one or the staircase composed through the proven PLD of the sup pair over the box (issue
        # 28.5), whichever has the smaller variance; each design sensitivity covers every |d_i| <= Delta
        st = cal.mechanism
        assert _F(st.sensitivity) >= _F(D) and cal.variance <= pure.variance
        assert cal.certificate.claim in ("pure", "pld-kfold-sup") and cal.certificate.rigorous
        if cal.certificate.claim == "pure":
            assert K * T * _F(st.epsilon) <= _F(eps)
        _covers(cal, K, T, {"sensitivity": D})


def _gauss_delta_mp(eps: float, sigma: float, radius_sq: Fraction) -> mp.mpf:
    """delta(eps) of N(0, sigma^2) at l2 sensitivity sqrt(radius_sq) (Balle & Wang), 60 digits."""
    with mp.workdps(60):
        r = mp.sqrt(mp.mpf(radius_sq.numerator) / radius_sq.denominator)
        s, e = mp.mpf(sigma), mp.mpf(eps)
        return mp.ncdf(r / (2 * s) - e * s / r) - mp.exp(e) * mp.ncdf(-r / (2 * s) - e * s / r)


@pytest.mark.parametrize("K", KS)
@pytest.mark.parametrize("T", [1, 3])
def test_gaussian_is_private_at_the_exact_radius(K, T):
    eps, target = 0.3, 1e-8
    for given, _ in _sets(K):
        cal = fhsym.calibrate(eps, target, dim=K, compositions=T, mechanism="gaussian", **given)
        _covers(cal, K, T, given)
        _, l22, _ = _max_sq(K, given)
        d = _gauss_delta_mp(eps, cal.mechanism.sigma, T * l22)  # the profile grows with the radius
        assert d <= target, (given, float(d))


@pytest.mark.parametrize("K", [3, 6, 13, 1000])
def test_flipped_huber_covers_the_set(K):
    for given in ({"sensitivity": 0.3}, {"l2_sensitivity": 1.1}):
        cal = fhsym.calibrate(1.0, 1e-6, dim=K, **given)
        _covers(cal, K, 1, given)
        assert fhsym.verify_certificate(cal.certificate)
        if cal.mechanism.alpha == 0.0:  # the Gaussian: its profile depends on ||d||_2 only
            inf2, l22, _ = _max_sq(K, given)
            # certified at the box corner (sqrt(K) Delta) or over the l2 ball (Delta_2): at least the exact l2 radius
            radius_sq = K * inf2 if cal.certificate.claim == "pld-kfold" else l22
            assert _gauss_delta_mp(1.0, cal.mechanism.gamma, radius_sq) <= 1e-6


@pytest.mark.parametrize("mechanism", ["laplace", "truncated_laplace", "osgt"])
@pytest.mark.parametrize("K", [3, 13])
def test_kfold_mechanisms_use_the_users_corner(mechanism, K):
    # the K-fold PLD bound is evaluated at the box corner (Delta, ..., Delta) with the user's Delta itself
    cal = fhsym.calibrate(1.0, 1e-6, dim=K, mechanism=mechanism, method="exact" if mechanism == "laplace" else "auto",
                          sensitivity=0.3)
    assert cal.certificate.sensitivity == 0.3
    _covers(cal, K, 1, {"sensitivity": 0.3})
    assert fhsym.verify_certificate(cal.certificate)


def test_zcdp_of_the_set_is_not_below_the_exact_worst_case():
    # xi grows with c = min(Delta, Delta_2/sqrt K, Delta_1/K): c rounded up
    fh = fhsym.FlippedHuber(1.0, 2.0)
    for K in KS:
        xi, _ = fh.zcdp(l2_sensitivity=0.7, dim=K)
        xi_box, _ = fh.zcdp(sensitivity=0.7 / math.sqrt(K) * (1 + 1e-15), dim=K)
        assert xi >= xi_box * (1 - 1e-12)


# the audit's reproducers ---------------------------------------------------------------------------


def test_reproducer_pure_laplace_in_three_dimensions():
    c = fhsym.calibrate(1.0, 1e-20, dim=3, mechanism="laplace", method="pure")
    assert _F(c.mechanism.beta) >= 3  # 3/beta <= eps = 1 exactly (was beta = 2.9999999999999996)


def test_reproducer_auto_laplace_in_three_dimensions():
    c = fhsym.calibrate(0.3, 1e-8, dim=3, mechanism="laplace")
    if c.certificate.claim == "pure":
        assert _F(0.3) * _F(c.mechanism.beta) >= 3  # was beta = 10.0: 3/beta - fl(0.3) = 1.1e-17 > 0
    else:  # the K-fold PLD search finds a beta just below the pure one (9.9999973 since the search's shave)
        assert fhsym.verify_certificate(c.certificate) and c.achieved_delta <= 1e-8
        assert c.variance <= 3 * 2 * 10.0 ** 2  # never more noise than the pure calibration
