"""``to_scipy()``: scipy's classic frozen ``rv_continuous`` of every noise law, and ``scipy_rv()`` for fitting (issue 30.5).

scipy is the contract: Gaussian and Laplace (and the flipped Huber law at alpha = 0, the Gaussian) against
``scipy.stats.norm``/``laplace`` for every classic method (pdf ... expect, with loc and scale); every law's frozen
methods against its own fhsym methods; array shapes as fhsym's array laws (bit for bit); ``scipy.stats.fit`` and
``rv.fit`` recovering flipped Huber parameters from samples; the deprecated names of scipy's new type forwarded
with a FutureWarning; scipy's ``loc``/``scale`` refused by the constructors (ValueError naming them).
"""

from __future__ import annotations

import inspect
import math
import warnings

import numpy as np
import pytest
from scipy import stats

import fhsym
from fhsym.noise.piecewise_uniform import PiecewiseUniform

LAWS = [
    fhsym.FlippedHuber(alpha=1.0, gamma=2.0),
    fhsym.FlippedHuber(alpha=0.0, gamma=1.5),
    fhsym.Gaussian(sigma=2.0),
    fhsym.Laplace(beta=1.5),
    fhsym.TruncatedLaplace(1.0, 3.0),
    fhsym.OSGT(0.5, 1.0),
    fhsym.Staircase(1.0, 0.3),
]
IDS = [repr(d) for d in LAWS]
FROZEN = type(stats.norm())
X = np.array([-2.5, -0.7, 0.0, 0.3, 1.9, 2.4])
Q = np.array([1e-9, 0.05, 0.3, 0.5, 0.8, 0.999])


@pytest.mark.parametrize("law", LAWS, ids=IDS)
def test_frozen_methods_are_the_laws(law):
    X_ = law.to_scipy()
    assert isinstance(X_, FROZEN) and isinstance(X_.dist, stats.rv_continuous)
    for name in ("pdf", "logpdf", "cdf", "logcdf", "sf", "logsf"):
        np.testing.assert_array_equal(getattr(X_, name)(X), getattr(law, name)(X), err_msg=name)
    for name in ("ppf", "isf"):
        np.testing.assert_array_equal(getattr(X_, name)(Q), getattr(law, name)(Q), err_msg=name)
    assert X_.support() == law.support()
    assert float(X_.mean()) == 0.0 and float(X_.median()) == 0.0
    assert math.isclose(float(X_.var()), law.var(), rel_tol=1e-15)
    assert math.isclose(float(X_.std()), law.std(), rel_tol=1e-15)
    assert math.isclose(float(X_.moment(4)), law.moment(4), rel_tol=1e-15)
    assert float(X_.moment(3)) == 0.0
    assert math.isclose(float(X_.entropy()), law.entropy(), rel_tol=1e-15)
    m, v, s, k = X_.stats("mvsk")
    assert (float(m), float(s)) == (0.0, 0.0)
    assert math.isclose(float(k), law.moment(4) / law.var() ** 2 - 3.0, rel_tol=1e-15)
    lo, hi = X_.interval(0.9)
    assert math.isclose(float(hi), float(law.isf(0.05)), rel_tol=1e-12) and math.isclose(float(lo), -float(hi),
                                                                                            rel_tol=1e-12)
    if law.name != "staircase":  # scipy's expect: one adaptive quadrature over the line (the stairs defeat it)
        assert math.isclose(float(X_.expect(lambda t: t * t)), law.var(), rel_tol=1e-7)
    draws = X_.rvs(3000, random_state=np.random.default_rng(5))
    assert draws.shape == (3000,) and stats.kstest(draws, law.cdf).pvalue > 1e-3


@pytest.mark.parametrize("law,ref", [
    (fhsym.Gaussian(sigma=2.0), stats.norm(scale=2.0)),
    (fhsym.FlippedHuber(alpha=0.0, gamma=2.0), stats.norm(scale=2.0)),  # alpha = 0: N(0, gamma^2)
    (fhsym.Laplace(beta=1.5), stats.laplace(scale=1.5)),
], ids=["gaussian", "fh-alpha0", "laplace"])
@pytest.mark.parametrize("loc,scale", [(0.0, 1.0), (3.0, 0.5), (-1.0, 4.0)])
def test_against_scipy_laws(law, ref, loc, scale):
    X_ = law.to_scipy(loc=loc, scale=scale)
    R = type(ref.dist)(**ref.dist._updated_ctor_param())(loc=loc + scale * ref.kwds.get("loc", 0.0),
                                                          scale=scale * ref.kwds["scale"])
    x = loc + scale * X
    for name in ("pdf", "logpdf", "cdf", "logcdf", "sf", "logsf"):
        np.testing.assert_allclose(getattr(X_, name)(x), getattr(R, name)(x), rtol=1e-13, atol=0, err_msg=name)
    for name in ("ppf", "isf"):
        np.testing.assert_allclose(getattr(X_, name)(Q), getattr(R, name)(Q), rtol=1e-13, atol=1e-15, err_msg=name)
    for name in ("mean", "median", "var", "std", "entropy"):
        assert math.isclose(float(getattr(X_, name)()), float(getattr(R, name)()), rel_tol=1e-13, abs_tol=1e-15), name
    for n in (1, 2, 3, 4):
        assert math.isclose(float(X_.moment(n)), float(R.moment(n)), rel_tol=1e-12, abs_tol=1e-12), n
    np.testing.assert_allclose(X_.stats("mvsk"), R.stats("mvsk"), rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(X_.interval([0.5, 0.95]), R.interval([0.5, 0.95]), rtol=1e-13)
    lb, ub = loc - scale, loc + 2.0 * scale
    assert math.isclose(X_.expect(np.cos, lb=lb, ub=ub), R.expect(np.cos, lb=lb, ub=ub), rel_tol=1e-9, abs_tol=1e-15)
    assert X_.support() == R.support()


def test_array_shapes_are_the_array_laws():
    rng = np.random.default_rng(11)
    alpha, gamma = rng.uniform(0.0, 4.0, 1000), rng.uniform(0.2, 3.0, 1000)
    fh = fhsym.FlippedHuber(alpha=alpha, gamma=gamma)
    x = rng.normal(0.0, 3.0, 1000)
    S = fh.to_scipy()
    for name in ("pdf", "logpdf", "cdf", "sf", "logcdf", "logsf"):
        np.testing.assert_array_equal(getattr(S, name)(x), getattr(fh, name)(x), err_msg=name)
    np.testing.assert_array_equal(S.ppf(0.9), fh.ppf(0.9))
    np.testing.assert_allclose(S.var(), fh.var(), rtol=1e-15)
    sigma = rng.uniform(0.1, 3.0, 300)  # a law that is not vectorised: one scalar law per distinct sigma
    G = fhsym.Gaussian(sigma=sigma).to_scipy(loc=1.0, scale=2.0)
    np.testing.assert_allclose(G.cdf(x[:300]), stats.norm.cdf(x[:300], 1.0, 2.0 * sigma), rtol=1e-13, atol=0)
    np.testing.assert_allclose(G.std(), 2.0 * sigma, rtol=1e-15)
    assert G.rvs(random_state=1).shape == (300,)
    repeated = fhsym.Gaussian(sigma=np.repeat(sigma[:3], 4)).to_scipy()  # repeated tuples: grouped, in place
    np.testing.assert_array_equal(repeated.pdf(x[:12]), fhsym.Gaussian(sigma=np.repeat(sigma[:3], 4)).pdf(x[:12]))
    np.testing.assert_allclose(repeated.pdf(x[:12]), stats.norm.pdf(x[:12], scale=np.repeat(sigma[:3], 4)), rtol=1e-14)
    # two shapes, tuples repeated out of order and sharing one coordinate: each position gets its own tuple's law
    vt, vr = np.array([0.5, 0.0, 0.5, 2.0, 0.0, 0.5]), np.array([1.0, 3.0, 2.0, 1.0, 3.0, 1.0])
    got = fhsym.OSGT(vartheta=vt, varrho=vr).to_scipy().pdf(x[:6])
    np.testing.assert_array_equal(got, [fhsym.OSGT(a, b).pdf(v) for a, b, v in zip(vt, vr, x[:6])])


def test_unfrozen_follows_scipys_conventions():
    rv = fhsym.FlippedHuber.scipy_rv()
    assert rv is fhsym.FlippedHuber.scipy_rv() and rv.shapes == "alpha, gamma" and rv.name == "flipped_huber"
    assert np.isnan(rv.pdf(0.0, -1.0, 1.0)) and np.isnan(rv.cdf(0.0, 1.0, 0.0))  # invalid shapes: NaN (scipy)
    assert float(rv.pdf(1.0, 1.0, 2.0, loc=1.0)) == float(fhsym.FlippedHuber(1.0, 2.0).pdf(0.0))
    assert fhsym.TruncatedLaplace.scipy_rv().shapes == "scale_, bound"  # scipy's own keyword: a trailing _
    assert fhsym.TruncatedLaplace.scipy_rv().support(1.0, 2.0, scale=3.0) == (-6.0, 6.0)
    with pytest.raises(ValueError, match="weights"):
        PiecewiseUniform.scipy_rv()
    X_ = PiecewiseUniform(0.5, [2, 1]).to_scipy()
    assert float(X_.cdf(0.25)) == 0.75 and float(X_.ppf(0.75)) == 0.25 and X_.dist.shapes == "width"


@pytest.mark.parametrize("kw,name", [({"loc": math.nan}, "loc"), ({"loc": math.inf}, "loc"), ({"scale": 0.0}, "scale"),
                                     ({"scale": -1.0}, "scale"), ({"scale": "a"}, "scale")])
def test_bad_loc_scale(kw, name):
    with pytest.raises(ValueError, match=f"^{name}"):
        fhsym.Gaussian(1.0).to_scipy(**kw)


@pytest.mark.parametrize("kw", [{"loc": 1.0}, {"scale": 2.0}, {"loc": 0.0, "scale": 1.0}])
def test_constructor_refuses_loc_scale(kw):
    name = next(iter(kw))
    with pytest.raises(ValueError, match=rf"^{name} is not a parameter of FlippedHuber.*to_scipy\({name}="):
        fhsym.FlippedHuber(1.0, 2.0, **kw)
    with pytest.raises(ValueError, match=rf"^{name} is not a parameter of Gaussian"):
        fhsym.Gaussian(sigma=[1.0, 2.0], **kw)
    assert fhsym.TruncatedLaplace(scale=1.0, bound=2.0).scale == 1.0  # its own parameter named scale


def test_deprecated_names_forward_with_a_warning():
    fh = fhsym.FlippedHuber(alpha=1.0, gamma=2.0)
    X_ = fh.to_scipy()
    with pytest.warns(FutureWarning, match="to_scipy_distribution"):
        assert float(X_.icdf(0.975)) == float(fh.to_scipy_distribution().icdf(0.975))
    with pytest.warns(FutureWarning):
        assert math.isclose(float(fh.to_scipy(loc=1.0, scale=2.0).variance()), 4.0 * fh.var(), rel_tol=1e-14)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert float(X_.ppf(0.975)) == float(fh.ppf(0.975))  # the classic names: no warning
    with pytest.raises(AttributeError):
        X_.no_such_method  # noqa: B018


def test_scipy_fit_recovers_flipped_huber_parameters():
    """scipy.stats.fit (differential evolution on the negative log-likelihood) and rv.fit (MLE from scipy's start)
    on 4000 draws of FH(2, 1): loc and scale are fixed (0, 1), the law's own parameters are fitted."""
    data = fhsym.FlippedHuber(alpha=2.0, gamma=1.0).rvs(4000, random_state=7)
    rv = fhsym.FlippedHuber.scipy_rv()
    def optimizer(fun, bounds, **kw):  # scipy's default (differential evolution), seeded: the test is deterministic
        from scipy.optimize import differential_evolution
        seed = {"rng": 1} if "rng" in inspect.signature(differential_evolution).parameters else {"seed": 1}  # < 1.15
        return differential_evolution(fun, bounds, **seed, **kw)

    res = stats.fit(rv, data, bounds={"alpha": (0.0, 6.0), "gamma": (0.1, 5.0)}, optimizer=optimizer)
    assert res.success
    assert abs(res.params.alpha - 2.0) < 0.4 and abs(res.params.gamma - 1.0) < 0.15, res.params
    alpha, gamma, loc, scale = rv.fit(data, 1.0, 1.0, floc=0.0, fscale=1.0)
    assert (loc, scale) == (0.0, 1.0)
    assert abs(alpha - 2.0) < 0.4 and abs(gamma - 1.0) < 0.15, (alpha, gamma)
    assert math.isclose(alpha, res.params.alpha, rel_tol=0.05) and math.isclose(gamma, res.params.gamma, rel_tol=0.05)
