"""scipy parity of the noise laws (issue 24.5): NaN and out-of-range data, loc/scale, DiscreteFlippedHuber.to_scipy().

Reference values come from scipy.stats itself (its normal and Laplace laws, for fhsym's Gaussian, Laplace and
FlippedHuber at alpha = 0; scipy's ``dlaplace`` for the discrete flipped Huber law in its Laplace limit) or from mpmath
(quadrature of the flipped Huber density of eq 8, direct sums of the lattice pmf exp(-rho_alpha(k h)/gamma^2)), never
from the code under test.

* NaN in, NaN out: every data method of every law returns NaN where its argument is NaN and the scalar value
  elsewhere, as scipy does; probabilities outside [0, 1] give NaN; non-numbers and invalid parameters (of the law, loc,
  scale, epsilon) still raise ``ValueError`` naming the argument; a confidence outside [0, 1] raises as in scipy.
* loc/scale: the law of loc + scale T against scipy.stats with the same loc and scale (and against mpmath for the
  flipped Huber law at alpha > 0), scalars and broadcast arrays, for every method that takes them.
* ``DiscreteFlippedHuber.to_scipy()``: a frozen ``rv_discrete`` (its ``index``) and its lattice-valued wrapper, against
  ``scipy.stats.dlaplace`` and against exact sums.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from mpmath import mp, mpf
from scipy import stats

import fhsym

LAWS = [
    fhsym.FlippedHuber(1.0, 2.0),
    fhsym.Gaussian(2.0),
    fhsym.Laplace(0.7),
    fhsym.TruncatedLaplace(1.0, 5.0),
    fhsym.Staircase(1.0, 1.0),
    fhsym.OSGT(1.0, 2.0),
    fhsym.FlippedHuber(alpha=[0.5, 3.0], gamma=[1.0, 2.0]),  # array parameters, vectorised
    fhsym.Gaussian(sigma=[1.0, 3.0]),  # array parameters, per element
]
IDS = [repr(d) for d in LAWS]
DATA = ("pdf", "logpdf", "cdf", "sf", "logcdf", "logsf")


# ----------------------------------------------------------------------------- NaN and out-of-range data
def test_scipy_itself_returns_nan():
    """The convention copied: scipy.stats' answers for NaN and out-of-range data, and its refusals."""
    assert np.isnan(stats.norm.cdf([0.0, np.nan])[1]) and stats.norm.cdf(0.0) == 0.5
    assert np.all(np.isnan(stats.norm.ppf([1.5, -0.1, np.nan])))
    assert np.all(np.isnan(stats.norm.interval(np.nan)))
    with pytest.raises(ValueError):
        stats.norm.interval(1.5)


@pytest.mark.parametrize("dist", LAWS, ids=IDS)
def test_nan_in_nan_out(dist):
    x = np.array([0.3, np.nan, -1.2])
    for name in DATA:
        f = getattr(dist, name)
        out = f(x if not dist.parameter_shape else x[:, None])
        ref = f(np.array([0.3, -1.2]) if not dist.parameter_shape else np.array([0.3, -1.2])[:, None])
        assert np.all(np.isnan(out[1])), name
        np.testing.assert_allclose(out[[0, 2]], ref, rtol=1e-13, atol=0, err_msg=name)
        assert np.all(np.isnan(f(math.nan)))
    q = np.array([0.3, 1.5, -0.1, np.nan, 0.0, 1.0])
    for name in ("ppf", "isf"):
        f = getattr(dist, name)
        out = f(q if not dist.parameter_shape else q[:, None])
        assert np.all(np.isnan(out[1:4])), name
        good = f(np.array([0.3, 0.0, 1.0]) if not dist.parameter_shape else np.array([0.3, 0.0, 1.0])[:, None])
        np.testing.assert_allclose(out[[0, 4, 5]], good, rtol=1e-12, atol=0, err_msg=name)  # OSGT's ppf iterates


@pytest.mark.parametrize("dist", LAWS[:6], ids=IDS[:6])
def test_interval_nan_and_out_of_range(dist):
    lo, hi = dist.interval(np.array([0.9, np.nan]))
    assert np.isnan(lo[1]) and np.isnan(hi[1]) and (lo[0], hi[0]) == dist.interval(0.9)
    assert all(math.isnan(v) for v in dist.interval(math.nan))
    with pytest.raises(ValueError, match="^confidence"):
        dist.interval(1.5)


def test_nan_matches_scipy_values():
    """fhsym's Gaussian and FlippedHuber(0, sigma) against scipy's normal law on data with NaN and bad probabilities."""
    x = np.array([-3.0, np.nan, 0.0, 0.7, np.inf, -np.inf])
    q = np.array([0.025, np.nan, 1.5, -0.1, 0.5, 1.0, 0.0])
    for dist in (fhsym.Gaussian(1.5), fhsym.FlippedHuber(0.0, 1.5)):
        ref = stats.norm(scale=1.5)
        for name in DATA:
            np.testing.assert_allclose(getattr(dist, name)(x), getattr(ref, name)(x), rtol=1e-14, atol=0, equal_nan=True)
        np.testing.assert_allclose(dist.ppf(q), ref.ppf(q), rtol=1e-14, atol=0, equal_nan=True)
        np.testing.assert_allclose(dist.isf(q), ref.isf(q), rtol=1e-14, atol=0, equal_nan=True)


@pytest.mark.parametrize("call,name", [
    (lambda d: d.cdf("0.5"), "x"),
    (lambda d: d.pdf([0.0, "a"]), "x"),
    (lambda d: d.ppf("0.5"), "q"),
    (lambda d: d.cdf(0.0, loc=math.nan), "loc"),
    (lambda d: d.cdf(0.0, scale=0.0), "scale"),
    (lambda d: d.ppf(0.5, scale=-1.0), "scale"),
    (lambda d: d.var(scale=math.inf), "scale"),
    (lambda d: d.rvs(3, loc=[0.0, math.nan]), "loc"),
    (lambda d: d.privacy_profile(math.nan), "epsilon"),
    (lambda d: d.privacy_profile(1.0, math.nan), "sensitivity"),
    (lambda d: d.epsilon_for_delta(math.nan), "delta"),
])
def test_invalid_arguments_still_raise(call, name):
    with pytest.raises(ValueError) as info:
        call(fhsym.FlippedHuber(1.0, 2.0))
    assert str(info.value).startswith(name), str(info.value)


def test_invalid_parameters_still_raise():
    with pytest.raises(ValueError, match="^alpha"):
        fhsym.FlippedHuber(math.nan, 1.0)
    with pytest.raises(ValueError, match=r"^gamma .*index \(1,\)"):
        fhsym.FlippedHuber(alpha=[1.0, 1.0], gamma=[1.0, math.nan])
    with pytest.raises(ValueError, match="^sigma"):
        fhsym.Gaussian(-1.0)


# ----------------------------------------------------------------------------- loc and scale
LOCSCALE = [(0.0, 1.0), (1.5, 1.0), (-2.0, 3.0), (0.25, 1e-3)]


@pytest.mark.parametrize("loc,scale", LOCSCALE)
@pytest.mark.parametrize("make,ref", [
    (lambda: fhsym.Gaussian(2.0), lambda loc, scale: stats.norm(loc, 2.0 * scale)),
    (lambda: fhsym.FlippedHuber(0.0, 2.0), lambda loc, scale: stats.norm(loc, 2.0 * scale)),
    (lambda: fhsym.Laplace(0.7), lambda loc, scale: stats.laplace(loc, 0.7 * scale)),
], ids=["gaussian", "fh-alpha0", "laplace"])
def test_loc_scale_against_scipy(make, ref, loc, scale):
    dist, r = make(), ref(loc, scale)
    x = loc + scale * np.array([-7.0, -1.3, -0.2, 0.0, 0.4, 2.5, 6.0, np.nan])
    for name in DATA:
        np.testing.assert_allclose(getattr(dist, name)(x, loc=loc, scale=scale), getattr(r, name)(x), rtol=2e-14,
                                   atol=0, equal_nan=True, err_msg=name)
    q = np.array([1e-12, 0.01, 0.3, 0.5, 0.7, 0.99, np.nan, 1.5])
    for name in ("ppf", "isf"):
        np.testing.assert_allclose(getattr(dist, name)(q, loc=loc, scale=scale), getattr(r, name)(q), rtol=2e-14,
                                   atol=1e-300, equal_nan=True, err_msg=name)
    for c in (0.1, 0.9):
        np.testing.assert_allclose(dist.interval(c, loc=loc, scale=scale), r.interval(c), rtol=2e-14)
    assert math.isclose(dist.mean(loc=loc), r.mean(), rel_tol=1e-15, abs_tol=0)
    assert math.isclose(dist.median(loc=loc), r.median(), rel_tol=1e-15, abs_tol=0)
    assert math.isclose(dist.var(scale=scale), r.var(), rel_tol=1e-14)
    assert math.isclose(dist.std(scale=scale), r.std(), rel_tol=1e-14)
    assert math.isclose(dist.entropy(scale=scale), r.entropy(), rel_tol=1e-14, abs_tol=1e-15)
    for n in range(5):
        assert math.isclose(dist.moment(n, loc=loc, scale=scale), r.moment(n), rel_tol=1e-13, abs_tol=1e-300), n
    np.testing.assert_allclose(dist.stats("mvsk", loc=loc, scale=scale), r.stats("mvsk"), rtol=1e-13, atol=1e-15)
    # expect: mpmath quadrature of f times scipy's density (scipy's own expect is only good to ~1e-9 here)
    f = (lambda y: y * y) if scale >= 1e-2 else math.cos
    lb, ub = loc - scale, loc + 2 * scale
    pts = [lb, loc, ub]
    mass = mpmath.quad(lambda y: r.pdf(float(y)), pts)
    ref_c = mpmath.quad(lambda y: f(float(y)) * r.pdf(float(y)), pts) / mass
    assert math.isclose(dist.expect(f, lb=lb, ub=ub, conditional=True, loc=loc, scale=scale), float(ref_c),
                        rel_tol=1e-11, abs_tol=1e-14)
    wide = [loc - 60 * scale, loc, loc + 60 * scale]
    ref = mpmath.quad(lambda y: f(float(y)) * r.pdf(float(y)), wide)
    assert math.isclose(dist.expect(f, loc=loc, scale=scale), float(ref), rel_tol=1e-11, abs_tol=1e-14)


def _fh_density_mpmath(t, alpha, gamma):
    """g(t) of eq 8 from its definition: exp(-rho_alpha(t)/gamma^2) / int exp(-rho_alpha/gamma^2), by mpmath."""
    a, g = mpf(alpha), mpf(gamma)

    def rho(u):
        u = abs(u)
        return a * u if u <= a else (u * u + a * a) / 2

    kappa = 2 * (mpmath.quad(lambda u: mpmath.exp(-rho(u) / g**2), [0, a]) +
                 mpmath.quad(lambda u: mpmath.exp(-rho(u) / g**2), [a, mpmath.inf]))
    return mpmath.exp(-rho(mpf(t)) / g**2) / kappa, kappa, rho


def test_loc_scale_flipped_huber_against_mpmath():
    alpha, gamma, loc, scale = 1.0, 2.0, 0.5, 3.0
    fh = fhsym.FlippedHuber(alpha, gamma)
    with mp.workdps(40):
        _, kappa, rho = _fh_density_mpmath(0, alpha, gamma)
        w = lambda u: mpmath.exp(-rho(u) / mpf(gamma) ** 2)  # noqa: E731

        def mass(lo, hi):  # int_lo^hi of the density, split at the kinks -alpha, 0, alpha
            pts = [lo] + [p for p in (-alpha, 0.0, alpha) if lo < p < hi] + [hi]
            return mpmath.quad(w, pts) / kappa

        for x in (-4.0, 0.5, 2.0, 9.0):
            t = (mpf(x) - loc) / scale
            g = w(t) / kappa
            assert math.isclose(float(fh.pdf(x, loc=loc, scale=scale)), float(g / scale), rel_tol=1e-13)
            assert math.isclose(float(fh.logpdf(x, loc=loc, scale=scale)), float(mpmath.log(g / scale)), rel_tol=1e-13)
            assert math.isclose(float(fh.sf(x, loc=loc, scale=scale)), float(mass(t, mpmath.inf)), rel_tol=1e-13)
            assert math.isclose(float(fh.cdf(x, loc=loc, scale=scale)), float(mass(-mpmath.inf, t)), rel_tol=1e-13)
        for q in (0.01, 0.3, 0.8):  # the quantile of loc + scale T: its cdf there is q
            t = (mpf(float(fh.ppf(q, loc=loc, scale=scale))) - loc) / scale
            assert math.isclose(float(mass(-mpmath.inf, t)), q, rel_tol=1e-13)
        var = mpmath.quad(lambda u: u * u * w(u), [-mpmath.inf, -alpha, 0, alpha, mpmath.inf]) / kappa
    assert math.isclose(fh.var(scale=scale), float(scale**2 * var), rel_tol=1e-13)
    assert math.isclose(fh.std(scale=scale), float(scale * mpmath.sqrt(var)), rel_tol=1e-13)


def test_loc_scale_broadcast_and_samples():
    fh = fhsym.FlippedHuber(1.0, 2.0)
    loc, scale = np.array([0.0, 1.0, -1.0]), np.array([[1.0], [2.0]])
    out = fh.cdf(0.5, loc=loc, scale=scale)
    assert out.shape == (2, 3)
    for i in range(2):
        for j in range(3):
            assert out[i, j] == fh.cdf((0.5 - loc[j]) / scale[i, 0])
    a = fhsym.FlippedHuber(alpha=[0.5, 3.0], gamma=[1.0, 2.0])  # array parameters with array loc
    assert a.pdf(0.0, loc=[[0.0], [1.0]]).shape == (2, 2)
    x = fh.rvs(1000, random_state=4)
    assert np.array_equal(fh.rvs(1000, random_state=4, loc=3.0, scale=0.5), 3.0 + 0.5 * x)
    y = fh.rvs(random_state=5, loc=loc)  # size: the shape of loc
    assert y.shape == (3,)
    with pytest.raises(ValueError, match="^size"):
        fh.rvs(2, loc=loc)
    big = fh.rvs(20000, random_state=6, loc=10.0, scale=2.0)
    assert stats.kstest(big, lambda v: fh.cdf(v, loc=10.0, scale=2.0)).pvalue > 1e-3
    with pytest.raises(TypeError):
        fh.var(loc=1.0)  # loc does not enter the variance: not an argument of var
    with pytest.raises(TypeError):
        fh.privacy_profile(1.0, loc=1.0)  # the privacy methods take no loc/scale


# ----------------------------------------------------------------------------- DiscreteFlippedHuber.to_scipy
def test_discrete_nan_and_bad_probabilities():
    d = fhsym.DiscreteFlippedHuber(1.0, 2.0, 0.25)
    for name in ("pmf", "logpmf", "cdf", "logcdf", "sf", "logsf"):
        out = getattr(d, name)([0.25, np.nan])
        assert np.isnan(out[1]) and out[0] == getattr(d, name)(0.25), name
    for name in ("ppf", "isf"):
        out = getattr(d, name)([0.3, 1.5, -0.1, np.nan])
        assert np.all(np.isnan(out[1:])) and out[0] == getattr(d, name)(0.3), name
    with pytest.raises(ValueError, match="^x"):
        d.pmf("a")


def test_discrete_to_scipy_laplace_limit_against_dlaplace():
    """alpha = 64, gamma = 8, step 1: pmf ~ tanh(1/2) exp(-|k|) for |k| <= 64 (beyond, mass e^-65), the discrete
    Laplace law: exact closed forms in mpmath, and scipy's ``dlaplace(1)`` (which loses ~1e-10 in its sf tail)."""
    X = fhsym.DiscreteFlippedHuber(64.0, 8.0, 1.0).to_scipy()
    ref = stats.dlaplace(1.0)
    e = mpmath.e
    with mp.workdps(30):
        for k in range(-15, 16):
            pmf = mpmath.tanh(mpf(1) / 2) * mpmath.exp(-abs(k))
            sf = mpmath.exp(-(k + 1)) / (1 + 1 / e) if k >= 0 else 1 - mpmath.exp(k) / (1 + 1 / e)
            for got, want in ((X.pmf(k), pmf), (X.index.pmf(k), pmf), (X.sf(k), sf), (X.index.sf(k), sf),
                              (X.cdf(k), 1 - sf), (X.index.cdf(k), 1 - sf), (X.logpmf(k), mpmath.log(pmf))):
                assert math.isclose(float(got), float(want), rel_tol=2e-15), (k, got, want)
        var = 2 * mpmath.nsum(lambda j: j**2 * mpmath.tanh(mpf(1) / 2) * mpmath.exp(-j), [1, mpmath.inf])
        m4 = 2 * mpmath.nsum(lambda j: j**4 * mpmath.tanh(mpf(1) / 2) * mpmath.exp(-j), [1, mpmath.inf])
        eabs = 2 * mpmath.nsum(lambda j: j * mpmath.tanh(mpf(1) / 2) * mpmath.exp(-j), [1, mpmath.inf])
        ent = -mpmath.nsum(lambda j: (lambda p: p * mpmath.log(p))(mpmath.tanh(mpf(1) / 2) * mpmath.exp(-abs(j))),
                           [-mpmath.inf, mpmath.inf])
    assert math.isclose(X.var(), float(var), rel_tol=1e-14) and math.isclose(X.std(), float(mpmath.sqrt(var)), rel_tol=1e-14)
    assert math.isclose(X.moment(4), float(m4), rel_tol=1e-9)  # scipy's generic sum (moment_tol 1e-8)
    assert math.isclose(X.stats("k"), float(m4 / var**2 - 3), rel_tol=1e-9)
    assert math.isclose(X.entropy(), float(ent), rel_tol=1e-13)
    assert math.isclose(X.expect(abs), float(eabs), rel_tol=1e-10)
    q = np.array([1e-9, 0.01, 0.2, 0.5, 0.77, 0.99, 1 - 1e-9])  # integers: scipy's dlaplace agrees exactly
    np.testing.assert_array_equal(X.ppf(q), ref.ppf(q))
    np.testing.assert_array_equal(X.isf(q), ref.isf(q))
    np.testing.assert_array_equal(X.index.ppf(q), ref.ppf(q))
    np.testing.assert_array_equal(X.index.isf(q), ref.isf(q))
    assert X.interval(0.9) == tuple(float(v) for v in ref.interval(0.9))
    np.testing.assert_allclose(X.stats("mvsk"), ref.stats("mvsk"), rtol=1e-9, atol=1e-15)
    assert X.mean() == 0.0 and X.median() == 0.0 and X.support() == (-math.inf, math.inf)
    assert isinstance(X.index.dist, stats.rv_discrete)


def _lattice_reference(alpha, gamma, step, n=400):
    """Exact pmf on k in [-n, n] by mpmath sums of exp(-rho_alpha(k h)/gamma^2) (terms beyond are < 1e-40 here)."""
    a, g, h = mpf(alpha), mpf(gamma), mpf(step)

    def w(k):
        t = abs(k * h)
        return mpmath.exp(-(a * t if t <= a else (t * t + a * a) / 2) / g**2)

    ks = list(range(-n, n + 1))
    ws = [w(k) for k in ks]
    z = mpmath.fsum(ws)
    return ks, [v / z for v in ws]


def test_discrete_to_scipy_against_exact_sums():
    alpha, gamma, step = 1.0, 2.0, 0.25
    d = fhsym.DiscreteFlippedHuber(alpha, gamma, step)
    X = d.to_scipy()
    with mp.workdps(40):
        ks, ps = _lattice_reference(alpha, gamma, step)
        cdf = np.cumsum([float(p) for p in ps])  # float cumulative sums are enough at the checked tolerance
        pmf = {k: p for k, p in zip(ks, ps)}
        var = mpmath.fsum(p * (k * step) ** 2 for k, p in zip(ks, ps))
        m4 = mpmath.fsum(p * (k * step) ** 4 for k, p in zip(ks, ps))
        ent = -mpmath.fsum(p * mpmath.log(p) for p in ps if p > 0)
        eabs = mpmath.fsum(p * abs(k * step) for k, p in zip(ks, ps))
        cum = mpmath.mpf(0)
        cdf_exact = {}
        for k, p in zip(ks, ps):
            cum += p
            cdf_exact[k] = cum
    for k in (-12, -3, -1, 0, 1, 5, 20):
        assert math.isclose(float(X.pmf(k * step)), float(pmf[k]), rel_tol=1e-13)
        assert math.isclose(float(X.index.pmf(k)), float(pmf[k]), rel_tol=1e-13)
        assert math.isclose(float(X.cdf(k * step)), float(cdf_exact[k]), rel_tol=1e-13)
        assert math.isclose(float(X.sf(k * step)), float(1 - cdf_exact[k]), rel_tol=1e-12)
    for q in (1e-6, 0.05, 0.5, 0.9):  # ppf: the least lattice value whose cdf reaches q (exact sums)
        k = min(k for k in ks if cdf_exact[k] >= q)
        assert float(X.ppf(q)) == k * step and float(X.index.ppf(q)) == k
        j = min(k for k in ks if 1 - cdf_exact[k] <= q)  # isf: the least with sf <= q (scipy's convention)
        assert float(X.isf(q)) == j * step and float(X.index.isf(q)) == j
    assert math.isclose(X.var(), float(var), rel_tol=1e-13)
    assert math.isclose(X.moment(4), float(m4), rel_tol=1e-8)
    assert math.isclose(X.entropy(), float(ent), rel_tol=1e-10)
    assert math.isclose(X.expect(abs), float(eabs), rel_tol=1e-9)
    assert math.isclose(X.expect(lambda v: 1.0, lb=-0.5, ub=0.25),
                        float(mpmath.fsum(pmf[k] for k in (-2, -1, 0, 1))), rel_tol=1e-9)
    assert np.all(np.diff(cdf) >= 0)


def test_discrete_to_scipy_samples():
    d = fhsym.DiscreteFlippedHuber(1.0, 2.0, 0.25)
    X = d.to_scipy()
    x = X.rvs(40000, random_state=3)
    assert np.array_equal(x, d.rvs(40000, random_state=3))  # the law's exact sampler
    k = X.index.rvs(40000, random_state=np.random.default_rng(4))
    assert k.dtype.kind == "i"
    for j in (-4, 0, 3):  # empirical frequencies of the index within 5 binomial standard deviations
        p = float(d.pmf(j * 0.25))
        assert abs(np.mean(k == j) - p) <= 5 * math.sqrt(p * (1 - p) / k.size)
