"""pdf / cdf / sf / variance / rvs / centered privacy loss of every mechanism.

References are re-typed densities in mpmath (proofs/reference_mechanisms.py); integrals by
mpmath quadrature split at the kinks (staircase: exact piece sums).
"""

from __future__ import annotations

import math

import mpmath as mp
import numpy as np
import pytest
from scipy import integrate, stats

from fhsym.noise import (
    Gaussian,
    Laplace,
    OSGT,
    Staircase,
    TruncatedLaplace,
)


from proofs import reference_mechanisms as R  # noqa: E402


def _smooth_cases():
    """(mechanism, mp log-density, kinks, tail scale, decay, support)."""
    out = []
    for sigma in (0.3, 2.0):
        out.append(
            (Gaussian(sigma), R.gaussian_logpdf(sigma), [], sigma, lambda t, s=sigma: abs(t) / s, None)
        )
    for beta in (0.5, 3.0):
        out.append((Laplace(beta), R.laplace_logpdf(beta), [], beta, lambda t: 0, None))
    for vt, vr in ((0.0, 1.0), (3.0, 2.0), (150.0, 24.397316365584672), (2000.0, 10.0)):
        out.append(
            (
                OSGT(vt, vr),
                R.osgt_logpdf(vt, vr),
                [],
                vr / max(1.0, vt / vr),
                lambda t, a=vt, b=vr: (abs(t) + a) / b,
                None,
            )
        )
    for lam, bound in ((1.0, 3.0), (3.3333333333333335, 40.240478270550234), (1.0, 0.01)):
        out.append((TruncatedLaplace(lam, bound), R.tl_logpdf(lam, bound), [], lam, lambda t: 0, bound))
    return out


SMOOTH = _smooth_cases()
IDS = [repr(c[0]) for c in SMOOTH]


@pytest.mark.parametrize("case", SMOOTH, ids=IDS)
def test_pdf_matches_definition_pointwise(case):
    mech, logpdf = case[0], case[1]
    scale = math.sqrt(mech.variance())
    xs = np.array([0.0, 0.1, -0.7, 1.0, 3.0, -8.0]) * scale
    with mp.workdps(30):
        for x in xs:
            ref = logpdf(mp.mpf(float(x)))
            got = mech.logpdf(float(x))
            if ref == mp.ninf:
                assert got == -math.inf and mech.pdf(float(x)) == 0.0
                continue
            assert abs(got - ref) <= 1e-14 * max(1, abs(ref))
            # pdf = exp(logpdf): relative error ~ ulp * |logpdf|
            assert abs(mech.pdf(float(x)) - mp.exp(ref)) <= 1e-15 * max(1, abs(ref)) * mp.exp(ref)


@pytest.mark.parametrize("case", SMOOTH, ids=IDS)
def test_pdf_integrates_to_one_and_variance(case):
    mech, logpdf, kinks, scale, decay, support = case
    # the implementation's own pdf integrates to 1 (float quadrature)
    upper = support if support is not None else 60.0 * math.sqrt(mech.variance())
    pts = np.linspace(0.0, upper, 41)
    total = 2 * sum(integrate.quad(mech.pdf, a, b, epsabs=0, epsrel=1e-13, limit=200)[0] for a, b in zip(pts[:-1], pts[1:]))
    assert abs(total - 1.0) < 1e-12
    with mp.workdps(30):
        mass, e0 = R.integrate_density(logpdf, kinks, scale, decay, 0, support)
        assert abs(mass - 1) < 1e-25 and e0 < 1e-25
        var, e2 = R.integrate_density(logpdf, kinks, scale, decay, 2, support)
        assert e2 < 1e-20 * var
        assert abs(mech.variance() - var) <= 2e-15 * var, (mech.variance(), var)


@pytest.mark.parametrize("case", SMOOTH, ids=IDS)
def test_cdf_sf_match_quadrature(case):
    mech, logpdf, kinks, scale, decay, support = case
    sd = math.sqrt(mech.variance())
    with mp.workdps(30):
        for x in (0.3 * sd, 2.0 * sd, 6.0 * sd):
            x = float(x)
            if support is not None and x >= support:
                assert mech.sf(x) == 0.0 and mech.cdf(x) == 1.0
                continue
            lim = mp.mpf(support) if support is not None else mp.inf
            c = mp.exp(logpdf(mp.mpf(x)))
            pieces = [mp.mpf(x) + k * scale / max(1, decay(mp.mpf(x))) for k in (0, 1, 4, 16, 64)]
            pieces = [p for p in pieces if p < lim] + [lim]
            ref = mp.quad(lambda t: mp.exp(logpdf(t)) / c, pieces) * c
            assert abs(mech.sf(x) - ref) <= 1e-13 * ref
            assert abs(mech.cdf(-x) - ref) <= 1e-13 * ref
            assert abs(mech.cdf(x) + mech.sf(x) - 1.0) <= 1e-15
    assert mech.cdf(0.0) == pytest.approx(0.5, abs=1e-15)
    assert mech.cdf(-np.inf) == 0.0 and mech.cdf(np.inf) == 1.0


STAIRS = [(1.0, 1.0, 0.3), (0.05, 2.0, None), (4.0, 0.5, 0.0), (4.0, 0.5, 1.0)]


@pytest.mark.parametrize("eps0,d0,gamma", STAIRS)
def test_staircase_density_mass_variance(eps0, d0, gamma):
    m = Staircase(eps0, d0, gamma)
    with mp.workdps(30):
        ref = R.StaircaseRef(eps0, d0, m.width)
        periods = int(90 / eps0) + 5
        assert abs(ref.moment(0, periods) - 1) < 1e-25
        var = ref.moment(2, periods)
        assert abs(m.variance() - var) <= 5e-15 * var
        for x in (0.0, 0.2 * d0, -0.9 * d0, 3.5 * d0):
            lev = ref.level(R.Fraction(float(x)))
            assert abs(m.pdf(float(x)) - ref.a * ref.b**lev) <= 1e-15 * ref.a * ref.b**lev
    # own pdf integrates to one (piecewise constant: midpoint sums are exact)
    edges = np.sort(np.concatenate([np.arange(0, 400) * d0, np.arange(0, 400) * d0 + m.width]))
    mids = 0.5 * (edges[:-1] + edges[1:])
    total = 2 * np.sum(m.pdf(mids) * np.diff(edges))
    tail = m.sf(edges[-1])
    assert abs(total + 2 * tail - 1.0) < 1e-12
    # sf against the exact piece sum of the reference density (independent of the code under test)
    for x in (0.1 * d0, 2.7 * d0):
        with mp.workdps(30):
            cuts = sorted({mp.mpf(k) * mp.mpf(d0) + off for k in range(periods) for off in (0, mp.mpf(m.width))})
            pts = [mp.mpf(x)] + [p for p in cuts if p > x]
            s = sum(ref.density(R.Fraction(float((a + b) / 2))) * (b - a) for a, b in zip(pts[:-1], pts[1:]))
            assert abs(m.sf(x) - s) < 1e-13


ALL = [c[0] for c in SMOOTH] + [Staircase(*p) for p in STAIRS]


@pytest.mark.parametrize("mech", ALL, ids=repr)
def test_rvs_distribution_and_shapes(mech):
    x = mech.rvs(4000, random_state=12345)
    assert x.shape == (4000,)
    assert stats.kstest(x, mech.cdf).pvalue > 1e-3
    assert np.array_equal(x, mech.rvs(4000, random_state=12345))
    assert isinstance(mech.rvs(random_state=np.random.default_rng(1)), float)
    assert mech.rvs((2, 3), random_state=0).shape == (2, 3)


@pytest.mark.parametrize("case", SMOOTH, ids=IDS)
def test_centered_privacy_loss_definition(case):
    mech, logpdf = case[0], case[1]
    sd = math.sqrt(mech.variance())
    ts = np.array([-3.0, -0.4, 0.0, 0.25, 1.3, 5.0]) * sd
    for d in (0.3 * sd, -1.7 * sd, 4.0 * sd):
        got = mech.centered_privacy_loss(ts, d)
        assert got.shape == ts.shape
        with mp.workdps(40):
            for t, g in zip(ts, got):
                a = -logpdf(mp.mpf(float(t)) + mp.mpf(float(d)) / 2)
                b = -logpdf(mp.mpf(float(t)) - mp.mpf(float(d)) / 2)
                if a == mp.inf and b == mp.inf:
                    assert g == 0.0  # log(0/0) := 0 convention
                elif a == mp.inf or b == mp.inf:
                    assert g == (math.inf if a == mp.inf else -math.inf)
                else:
                    assert abs(g - (a - b)) <= 1e-13 * max(1, abs(a), abs(b))


def test_centered_privacy_loss_paper_forms():
    """Appendix E-B: Gaussian t d/sigma^2, Laplace (2/beta) sgn sgn min(|t|, |d|/2), OSGT their sum."""
    t, d = np.array([-2.0, -0.1, 0.3, 4.0]), 1.3
    assert np.allclose(Gaussian(2.0).centered_privacy_loss(t, d), t * d / 4.0, rtol=1e-15, atol=0)
    lap = 2.0 / 0.5 * np.sign(t) * np.minimum(np.abs(t), d / 2)
    assert np.allclose(Laplace(0.5).centered_privacy_loss(t, d), lap, rtol=1e-15, atol=0)
    vt, vr = 3.0, 2.0
    osgt = t * d / vr**2 + 2 * vt / vr**2 * np.sign(t) * np.minimum(np.abs(t), d / 2)
    assert np.allclose(OSGT(vt, vr).centered_privacy_loss(t, d), osgt, rtol=1e-15, atol=0)
    s = Staircase(1.0, 1.0, 0.3)
    assert list(s.centered_privacy_loss([0.1, -3.0, 0.5], 1.0)) == [0.0, -1.0, 1.0]
    assert Gaussian(1.0).centered_privacy_loss(np.inf, 0.0) == 0.0


def test_vectorised_shapes_and_scalars():
    for m in ALL[:3] + ALL[-1:]:
        e = np.linspace(0, 3, 12).reshape(3, 4)
        assert m.privacy_profile(e, 1.0).shape == (3, 4)
        assert isinstance(m.privacy_profile(0.5, 1.0), float)
        assert m.pdf(np.zeros((2, 2))).shape == (2, 2)
        assert isinstance(m.cdf(0.1), float)
        np.testing.assert_array_equal(m.privacy_profile(e, 1.0)[1], m.privacy_profile(e[1], 1.0))
