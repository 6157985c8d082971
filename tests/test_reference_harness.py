"""Sanity checks of the mpmath ground truth ``proofs/reference.py`` itself.

Everything here is checked against facts that do not come from fhsym nor from
the paper's closed forms: mpmath's own normal distribution (alpha = 0 is
N(0, gamma^2)), an independent naive quadrature, the Laplace limit, the exact
Gaussian tail shape beyond |t| = alpha (sf(x)/Q(x/gamma) is constant there by
the definition of rho), and the Balle-Wang analytic privacy profile of the
Gaussian mechanism.
"""

from __future__ import annotations

import pytest
from mpmath import mp, mpf

from proofs import reference as R

DPS = 30  # target digits for the live checks (fast); data generation uses 40


def close(a, b, digits=DPS - 3):
    """a and b agree to `digits` significant digits."""
    return R.agree_digits(a, b) >= digits


def Q(x):
    return mp.ncdf(-x)


# --------------------------------------------------------------------- alpha = 0


@pytest.mark.parametrize("gamma", [1e-6, 1.0, 3.5, 1e6])
@pytest.mark.parametrize("s", [0.0, 0.3, -1.0, 2.5, -8.0, 37.5])
def test_alpha0_is_normal_pointwise(gamma, s):
    x = s * gamma
    d = R.tail_bundle(x, 0.0, gamma, dps=DPS)
    with mp.workdps(DPS + 20):
        z = mpf(x) / mpf(gamma)
        assert close(d["pdf"], mp.npdf(z) / mpf(gamma))
        assert close(d["cdf"], mp.ncdf(z))
        assert close(d["sf"], mp.ncdf(-z))
        # log of the larger side via log1p of the smaller (mpmath's own ncdf)
        logsf = mp.log(mp.ncdf(-z)) if z >= 0 else mp.log1p(-mp.ncdf(z))
        logcdf = mp.log(mp.ncdf(z)) if z <= 0 else mp.log1p(-mp.ncdf(-z))
        assert close(d["logsf"], logsf)
        assert close(d["logcdf"], logcdf)


@pytest.mark.parametrize("s", [50.0, -50.0, 1e3, -1e3])
def test_alpha0_far_tail_logs(s):
    d = R.tail_bundle(s, 0.0, 1.0, dps=DPS)
    with mp.workdps(DPS + 20):
        z = mpf(s)
        small = mp.erfc(abs(z) / mp.sqrt(2)) / 2
        if z > 0:
            assert close(d["logsf"], mp.log(small))
            assert close(d["logcdf"], mp.log1p(-small))
        else:
            assert close(d["logcdf"], mp.log(small))
            assert close(d["logsf"], mp.log1p(-small))
        assert close(d["logpdf"], -z * z / 2 - mp.log(2 * mp.pi) / 2)


def test_alpha0_normaliser_and_moments():
    with mp.workdps(DPS + 10):
        assert close(R.normaliser(0, dps=DPS), mp.sqrt(2 * mp.pi))
    assert close(R.variance(0.0, 2.0, dps=DPS), 4)
    assert close(R.fisher_information(0.0, 2.0, dps=DPS), mpf(1) / 4)
    assert close(R.nfi(0.0, 0.37, dps=DPS), 1)
    for s in [-1.5, 0.25, 2.0]:
        with mp.workdps(DPS + 10):
            assert close(R.log_mgf(s, 0.0, 2.0, dps=DPS), mpf(4) * mpf(s) ** 2 / 2)
    for u in [0.0, 0.5, 0.99]:
        assert close(R.orlicz(u, 0.0, 1.0, dps=DPS), 1)


@pytest.mark.parametrize("q", [1e-300, 1e-16, 0.1, 0.5 - 1e-12, 0.5, 0.9, 1 - 1e-12])
def test_alpha0_quantiles_invert_mpmath_normal(q):
    x = R.ppf(q, 0.0, 1.0, dps=DPS)
    with mp.workdps(DPS + 20):
        if q == 0.5:
            assert x == 0
        elif q < 0.5:
            assert close(mp.ncdf(x), mpf(q))
        else:
            assert close(mp.ncdf(-x), 1 - mpf(q))
        assert close(R.isf(q, 0.0, 1.0, dps=DPS), -x) or x == 0


# ------------------------------------------------------- independent quadrature


def _naive_Z(b):
    """Plain mp.quad of the definition, split only at the kinks (no peak shift)."""
    b = mpf(b)

    def f(s):
        return mp.exp(-(b * abs(s) if abs(s) <= b else (s * s + b * b) / 2))

    return mp.quad(f, [mp.ninf, -b, 0, b, mp.inf])


@pytest.mark.parametrize("b", [0.0, 0.1, 1.0, 2.0, 4.0])
def test_normaliser_matches_naive_quadrature(b):
    with mp.workdps(DPS + 10):
        assert close(R.normaliser(b, dps=DPS), _naive_Z(b))


@pytest.mark.parametrize("alpha,gamma", [(0.7, 1.3), (2.0, 0.5)])
def test_density_integrates_to_one_and_cdf_is_its_integral(alpha, gamma):
    with mp.workdps(DPS + 10):
        a, g = mpf(alpha), mpf(gamma)
        kap = R.kappa(alpha, gamma, dps=DPS + 10)

        def pdf(t):  # eq 8 with the harness's kappa
            rho = a * abs(t) if abs(t) <= a else (t * t + a * a) / 2
            return mp.exp(-rho / g**2) / kap

        total = mp.quad(pdf, [mp.ninf, -a, 0, a, mp.inf])
        assert close(total, 1)
        assert close(R.pdf(0.3, alpha, gamma, dps=DPS), pdf(mpf(0.3)))
        for x in [-3.0, -0.3, 0.5, 2.5]:
            pts = sorted({mp.ninf, mpf(x)} | {k for k in (-a, mpf(0), a) if k < x})
            assert close(R.cdf(x, alpha, gamma, dps=DPS), mp.quad(pdf, pts))


@pytest.mark.parametrize("b", [0.5, 1.0, 3.0])
def test_tail_beyond_alpha_has_exact_gaussian_shape(b):
    """For x > alpha the density is exp(-(x^2+alpha^2)/2gamma^2)/kappa, so
    sf(x)/Q(x/gamma) and pdf(x)/phi(x/gamma) are one constant (for every x > alpha)
    and sf/pdf equals the Gaussian Mills ratio."""
    gamma = 1.7
    alpha = b * gamma
    ratios = []
    for s in [b * (1 + 1e-9), b + 0.5, b + 3, 40.0]:
        x = s * gamma
        d = R.tail_bundle(x, alpha, gamma, dps=DPS)
        with mp.workdps(DPS + 20):
            z = mpf(x) / mpf(gamma)
            ratios.append(d["sf"] / Q(z))
            assert close(d["sf"] / d["pdf"], mpf(gamma) * Q(z) / mp.npdf(z))
    assert all(close(r, ratios[0]) for r in ratios)


# ------------------------------------------------------------- Laplace limit


@pytest.mark.parametrize("b,gamma", [(1e4, 1.0), (1e3, 1e-6), (100.0, 1e6)])
def test_large_b_is_laplace(b, gamma):
    """For b >> 1 the mass beyond |t| = alpha is ~exp(-b^2/2): inside, FH(alpha, gamma^2)
    equals the Laplace law with scale lambda = gamma^2/alpha to ~b^2/2 digits."""
    alpha = b * gamma
    with mp.workdps(DPS + 20):
        lam = mpf(gamma) ** 2 / mpf(alpha)
        for s in [0.0, -0.5 / b, 3.0 / b, -30.0 / b, 0.5 * b]:
            x = s * gamma
            d = R.tail_bundle(x, alpha, gamma, dps=DPS)
            xm = mpf(x)
            assert close(d["pdf"], mp.exp(-abs(xm) / lam) / (2 * lam))
            if x <= 0:
                assert close(d["cdf"], mp.exp(xm / lam) / 2)
            else:
                assert close(d["sf"], mp.exp(-xm / lam) / 2)
        assert close(R.variance(alpha, gamma, dps=DPS), 2 * lam**2)
        assert close(R.fisher_information(alpha, gamma, dps=DPS), 1 / lam**2)
        assert close(R.nfi(alpha, gamma, dps=DPS), 2)
        assert close(R.log_mgf(0.3 / lam, alpha, gamma, dps=DPS), -mp.log(1 - mpf(0.3) ** 2))
        assert close(R.normaliser(b, dps=DPS), 2 / mpf(b))


# --------------------------------------------------------- privacy profile


def _balle_wang(eps, mu):
    eps, mu = mpf(eps), mpf(mu)
    return mp.ncdf(-eps / mu + mu / 2) - mp.exp(eps) * mp.ncdf(-eps / mu - mu / 2)


@pytest.mark.parametrize("gamma,Delta", [(1.0, 1.0), (2.0, 0.5), (1e-3, 5e-3), (1e5, 1e4)])
@pytest.mark.parametrize("eps", [0.0, 0.1, 1.0, 4.0, 30.0])
def test_gaussian_privacy_profile_is_balle_wang(eps, gamma, Delta):
    d = R.privacy_profile(eps, 0.0, gamma, Delta, dps=DPS)
    with mp.workdps(DPS + 30):  # the closed form cancels for large eps
        assert close(d, _balle_wang(eps, mpf(Delta) / mpf(gamma)))


def test_privacy_profile_is_definition_integral():
    """delta(eps) = int [g(t) - e^eps g(t+Delta)]_+ dt by naive quadrature."""
    alpha, gamma, Delta, eps = 0.8, 1.1, 0.9, 0.35
    with mp.workdps(DPS + 10):
        e = mpf(eps)
        a, g = mpf(alpha), mpf(gamma)
        kap = R.kappa(alpha, gamma, dps=DPS + 10)

        def pdf(t):  # eq 8 with the harness's kappa
            rho = a * abs(t) if abs(t) <= a else (t * t + a * a) / 2
            return mp.exp(-rho / g**2) / kap

        def f(t):
            return max(pdf(t) - mp.exp(e) * pdf(t + mpf(Delta)), 0)

        # the integrand's kinks: 0, -Delta (cusps), +-alpha, +-alpha - Delta, the crossing point
        s1 = R._crossing(e, mpf(alpha) / mpf(gamma), mpf(Delta) / mpf(gamma)) * mpf(gamma)
        A, D = mpf(alpha), mpf(Delta)
        pts = sorted({mp.ninf, mp.inf, mpf(0), -D, A, -A, A - D, -A - D, s1})
        naive = mp.quad(f, pts)
    assert close(R.privacy_profile(eps, alpha, gamma, Delta, dps=DPS), naive, digits=DPS - 8)


def test_privacy_profile_plateau_edge():
    """eps = alpha*Delta/gamma^2 makes L(s) flat on (0, b - d); the integrand vanishes
    there and the profile is the (tiny) mass beyond.  It must be positive and below the
    value just under the plateau."""
    d_at = R.privacy_profile(20.0, 40.0, 1.0, 0.5, dps=DPS)
    d_below = R.privacy_profile(19.9, 40.0, 1.0, 0.5, dps=DPS)
    assert 0 < d_at < mpf(10) ** -600 < d_below


# ------------------------------------------------------ definitions & engine


@pytest.mark.parametrize("t", [-3.0, -1.1, -0.4, 0.3, 1.19, 1.21, 2.5])
def test_rho_prime_is_derivative_of_rho(t):
    alpha = 1.2
    with mp.workdps(DPS + 10):
        # central difference (exact for the linear and quadratic pieces up to rounding)
        num = mp.diff(lambda u: R.rho(u, alpha, dps=DPS + 40), mpf(t), h=mpf(10) ** -12)
        assert close(R.rho_prime(t, alpha, dps=DPS), num, digits=DPS - 10)


def test_rho_is_continuous_and_c1_at_alpha():
    alpha = 1.5
    with mp.workdps(DPS + 10):
        a = mpf(alpha)
        h = mpf(10) ** -20
        assert close(R.rho(a - h, alpha), R.rho(a + h, alpha), digits=15)
        assert close(R.rho_prime(a - h, alpha), R.rho_prime(a + h, alpha), digits=15)


def test_symmetry_and_complement():
    alpha, gamma = 0.9, 1.4
    for x in [0.2, 1.3, 6.0]:
        p = R.tail_bundle(x, alpha, gamma, dps=DPS)
        m = R.tail_bundle(-x, alpha, gamma, dps=DPS)
        assert close(p["sf"], m["cdf"])
        assert close(p["pdf"], m["pdf"])
        with mp.workdps(DPS + 5):
            assert close(p["sf"] + p["cdf"], 1)


@pytest.mark.parametrize("x", [-30.0, -1.0, -1e-7, 0.8, 12.0])
def test_quantile_round_trip(x):
    alpha, gamma = 2.0, 0.7
    q = R.cdf(x, alpha, gamma, dps=DPS + 10)
    back = R.ppf(q, alpha, gamma, dps=DPS) if x < 0 else -R.ppf(R.sf(x, alpha, gamma, dps=DPS + 10), alpha, gamma, dps=DPS)
    assert close(back, mpf(x), digits=DPS - 5)


def test_functions_leave_mpmath_precision_alone():
    dps = mp.dps
    R.tail_bundle(1.0, 1.0, 1.0, dps=DPS)
    R.isf(0.1, 1.0, 1.0, dps=DPS)
    R.variance(1.0, 1.0, dps=DPS)
    assert mp.dps == dps


def test_results_carry_requested_precision():
    v = R.normaliser(1.0, dps=50)
    w = R.normaliser(1.0, dps=65)
    assert R.agree_digits(v, w) >= 45


def test_confirm_detects_disagreement():
    def unstable(dps):
        with mp.workdps(dps):
            return mpf(1) + mpf(10) ** -(dps - 20)  # accurate to only dps-20 digits

    with pytest.raises(R.HarnessError):
        R.confirm(unstable, dps=40)
    value, agree = R.confirm_report(lambda dps: R.normaliser(2.0, dps=dps), dps=30)
    assert agree >= 25
    with mp.workdps(40):
        assert close(value, _naive_Z(2.0), digits=25)


def test_quadrature_error_guard_trips():
    """The engine refuses an integral it cannot certify (here: a weight with a jump
    discontinuity hidden from the splitting)."""
    with mp.workdps(30 + R._GUARD):
        with pytest.raises(R.HarnessError):
            R._integrate(lambda x: x * x / 2, mpf(0), mpf(0), mp.inf, [], w=lambda x: 1 if x < mpf("0.3") else mpf(10) ** 8)


def test_bad_parameters_rejected():
    with pytest.raises(ValueError):
        R.pdf(0.0, -1.0, 1.0)
    with pytest.raises(ValueError):
        R.cdf(0.0, 1.0, 0.0)
    with pytest.raises(ValueError):
        R.isf(1.5, 1.0, 1.0)
