"""A declared law with a bounded support (issue 28): derived, generated, its profile certified (crossing.py, step 6).

Two laws: a truncated Gaussian e^{-t^2/2} on [-2, 2] (no shape; SymPy's erf forms) and a twin of the shipped truncated
Laplace declaration (shape a; it runs fhsym/_generated/declared/truncated_laplace.py).  References: 30-digit mpmath
quadrature of the definitions -- the profile as int [p(y) - e^eps p(y - D)]_+ dy over the support, with the crossing of
the definition's loss (found by bisection of log p(y) - log p(y - D) - eps) as a breakpoint -- never the code under
test.
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

import fhsym

from declared_examples import bounded_laws


def TG(*args):
    """The truncated Gaussian "t28_trunc_gauss" (declared and registered on first use: tests/declared_examples.py)."""
    return bounded_laws()[0](*args)


def TLT(*args):
    """The truncated Laplace twin "t28_tl_twin" (declared and registered on first use)."""
    return bounded_laws()[1](*args)


def _quad_profile(g, b, e, d):
    """int [p(y) - e^eps p(y - d)]_+ over [-b, b], p = g(|y|)/Z on [-b, b] (standard units)."""
    b, e, d = mpmath.mpf(b), mpmath.mpf(e), mpmath.mpf(d)
    if d >= 2 * b:
        return mpmath.mpf(1)
    Z = 2 * mpmath.quad(g, [0, b])
    p = lambda v: g(abs(v)) / Z if abs(v) <= b else mpmath.mpf(0)  # noqa: E731
    f = lambda v: max(p(v) - mpmath.exp(e) * p(v - d), 0)  # noqa: E731
    lo, hi = d - b, min(d / 2, b)
    h = lambda v: mpmath.log(g(abs(v))) - mpmath.log(g(abs(v - d))) - e  # noqa: E731 - the loss - eps on the overlap
    if h(lo + mpmath.mpf(10) ** -25) > 0:
        for _ in range(110):
            m = (lo + hi) / 2
            lo, hi = (m, hi) if h(m) > 0 else (lo, m)
    pts = sorted({v for v in (-b, d - b, mpmath.mpf(0), d / 2, d, b, lo) if -b <= v <= b})
    return mpmath.quad(f, pts)


LAWS = [("gauss", lambda: TG(1.0), lambda v: mpmath.exp(-v * v / 2), 2),
        ("tl a=3", lambda: TLT(1.0, 3.0), lambda v: mpmath.exp(-3 * v), 1),
        ("tl a=0.05", lambda: TLT(1.0, 0.05), lambda v: mpmath.exp(-v / 20), 1)]


@pytest.mark.parametrize("name,make,g,b", LAWS, ids=[row[0] for row in LAWS])
def test_profile_and_its_enclosure_against_quadrature(name, make, g, b):
    law = make()
    with mpmath.workdps(30):
        for d in (0.05, 0.5, 1.0 * b, 1.7 * b, 2.0 * b, 2.5 * b):  # crossing inside, at the overlap's end, disjoint
            for e in (0.0, 0.3, 1.0, 4.0):
                ref = _quad_profile(g, b, e, d)
                got = float(law.privacy_profile(e, d))
                assert abs(got - float(ref)) <= 1e-13 * float(ref), (name, d, e, got, ref)
                enc = law.profile_enclosure(e, d)
                assert enc.lower <= ref <= enc.upper and enc.upper - enc.lower <= 1e-15 * float(ref), (name, d, e)


@pytest.mark.parametrize("name,make,g,b", LAWS, ids=[row[0] for row in LAWS])
def test_distribution_against_quadrature(name, make, g, b):
    law = make()
    xs = np.array([0.0, 0.3, 0.5 * b, 0.99 * b, b, 1.5 * b, -0.7 * b])
    with mpmath.workdps(30):
        Z = 2 * mpmath.quad(g, [0, b])
        for x, s, lp in zip(xs, law.sf(xs), law.logpdf(xs)):
            xm = mpmath.mpf(x)
            ref = mpmath.mpf(0) if x >= b else (mpmath.quad(g, [xm, b]) / Z if x >= 0 else
                                                 1 - mpmath.quad(g, [-xm, b]) / Z)
            # 1e-13: SymPy's sf of the truncated Gaussian is erf(sqrt 2) - erf(x/sqrt 2), which cancels near the end
            # (3.4e-14 at x = 0.99 b; the relative error grows like b/(b - x) there)
            assert abs(s - float(ref)) <= 1e-13 * float(ref) + 1e-300, (name, x, s, ref)
            assert lp == (-np.inf if abs(x) > b else pytest.approx(float(mpmath.log(g(abs(xm)) / Z)), rel=1e-14))
        for q in (1e-12, 0.1, 0.5 - 1e-9, 0.8):
            x = float(law.isf(q))
            assert -b <= x <= b
            tail = mpmath.quad(g, [abs(mpmath.mpf(x)), b]) / Z
            cond = float(abs(mpmath.mpf(x)) * g(abs(mpmath.mpf(x))) / Z / q)  # |x p(x)/q|: the float x's own limit
            assert abs((tail if x >= 0 else 1 - tail) / q - 1) < 1e-12 * max(1.0, cond), (name, q, x)
        assert law.var() == pytest.approx(float(2 * mpmath.quad(lambda v: v * v * g(v), [0, b]) / Z), rel=1e-14)


def test_twin_agrees_with_the_hand_written_truncated_laplace():
    twin, tl = TLT(2.0, 3.0), fhsym.TruncatedLaplace(2.0 / 3.0, 2.0)  # bound 2, a = 3 = A/lambda
    e, d = np.array([0.0, 0.2, 1.0, 3.0]), (0.1, 1.0, 2.0, 3.5, 4.0)
    for dd in d:
        assert np.allclose(twin.privacy_profile(e, dd), tl.privacy_profile(e, dd), rtol=1e-14, atol=0)
    x = np.array([-1.9, -0.3, 0.0, 0.7, 1.99])
    assert np.allclose(twin.sf(x), tl.sf(x), rtol=1e-14) and np.allclose(twin.isf([0.01, 0.7]), tl.isf([0.01, 0.7]))


def test_calibrations_are_certified_and_reverified():
    bounded_laws()  # both laws registered under their names
    cal = fhsym.calibrate(1.0, 1e-6, mechanism="t28_trunc_gauss")
    assert cal.achieved_delta <= 1e-6 and fhsym.verify_certificate(cal.certificate.to_json())
    s = cal.mechanism.sigma  # the infinite-loss mass alone: P(T > 2 - 1/s) <= delta
    with mpmath.workdps(30):
        ref = _quad_profile(lambda v: mpmath.exp(-v * v / 2), 2, 1.0, 1 / mpmath.mpf(s))
    assert ref <= 1e-6 and ref >= 0.999e-6
    twin = fhsym.calibrate(1.0, 1e-6, mechanism="t28_tl_twin")
    tl = fhsym.calibrate(1.0, 1e-6, mechanism="truncated_laplace")
    assert twin.achieved_delta <= 1e-6 and fhsym.verify_certificate(twin.certificate.to_json())
    assert abs(twin.variance / tl.variance - 1) < 1e-5  # the same family; the scan grids differ


def test_support_loss_and_moments():
    law = TG(1.5)
    assert law.support() == (-3.0, 3.0) and fhsym.Gaussian(1.0).support() == (-np.inf, np.inf)
    # log g(t)/g(t + d): +oo where t + d leaves the support, -oo where t is outside it, 0/0 := 0 where both are
    assert float(law.privacy_loss(2.8, 0.5)) == np.inf and float(law.privacy_loss(-3.2, 0.5)) == -np.inf
    assert float(law.privacy_loss(4.0, 0.5)) == 0.0
    with mpmath.workdps(30):
        g = lambda v: mpmath.exp(-v * v / 2)  # noqa: E731
        Z = 2 * mpmath.quad(g, [0, 2])
        ref4 = 2 * mpmath.quad(lambda v: v**4 * g(v), [0, 2]) / Z * mpmath.mpf(1.5) ** 4
        ref_h = -2 * mpmath.quad(lambda v: g(v) / Z * mpmath.log(g(v) / Z), [0, 2]) + mpmath.log(1.5)
    assert law.moment(4) == pytest.approx(float(ref4), rel=1e-13)
    assert law.entropy() == pytest.approx(float(ref_h), rel=1e-13)


def test_sf_near_the_end_in_the_distance_to_it():
    """Near the end b s of the support a user's bounded law takes the printed sf_end(w) at w = (b s - |x|)/s (exact
    subtraction), not sf(t) at t = |x|/s: at scale 0.3 and 1e-13 below the end, 1 - t carries 1e-4 relative error
    (measured 1.1e-4 for the t-form, 2.2e-16 for sf_end). Against 40-digit quadrature of the twin's density."""
    law = TLT(0.3, 3.0)
    assert law.kernels.sf_end is not None and law.kernels.logsf_end is not None
    with mpmath.workdps(40):
        S, a = mpmath.mpf(0.3), mpmath.mpf(3)
        g = lambda v: mpmath.exp(-a * v / S)  # noqa: E731 - in units of the bound 0.3, shape a
        Z = 2 * mpmath.quad(g, [0, S])
        for x in (0.299999, 0.3 - 1e-9, 0.3 - 1e-13, 0.3 - 1e-15):
            X = mpmath.mpf(x)
            ref = (S - X) * mpmath.quad(lambda u: g(X + (S - X) * u), [0, 1]) / Z  # in the distance to the end
            assert float(law.sf(x)) == pytest.approx(float(ref), rel=1e-14, abs=0), x
            assert float(law.logsf(x)) == pytest.approx(float(mpmath.log(ref)), rel=1e-14, abs=0), x
            assert float(law.logsf(-x)) == pytest.approx(float(mpmath.log1p(-ref)), rel=1e-12, abs=1e-300), x
