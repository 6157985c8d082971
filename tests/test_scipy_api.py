"""The scipy.stats surface of every noise law: stats, rvs seeds, validation, array parameters, to_scipy.

Accuracy of the closed forms is in ``tests/test_scipy_methods.py``; here the contracts:

* ``stats`` returns (m, v, s, k) in scipy's order with k = E[T^4]/Var^2 - 3 (checked against
  the known excess kurtosis of the Gaussian (0) and Laplace (3) laws and, for the flipped
  Huber law, against mpmath quadrature of the definition);
* ``rvs`` accepts an int, a numpy ``Generator`` and a ``RandomState`` for every class;
* bad input raises ``ValueError`` naming the argument;
* array parameters broadcast like scipy (shape, per-element values equal to the scalar
  instance's, per-element validation) and scalar parameters keep returning Python floats;
* ``to_scipy()``: the scipy distribution's pdf/cdf/ccdf/icdf/iccdf/moment/entropy agree with
  fhsym's to 1e-14 relative, and its sampler draws from the law (Kolmogorov-Smirnov).
* the SymPy derivation of the flipped Huber entropy equals the closed form evaluated.
"""

from __future__ import annotations

import math
import pickle

import mpmath
import numpy as np
import pytest
import sympy as sp
from mpmath import mp, mpf
from scipy import stats as sst

import fhsym
from fhsym.noise import flipped_huber_moments as FHM
from fhsym.symbolic.definitions import b as B
from fhsym.symbolic.entropy import expected_loss_integrals, expected_loss_std
from fhsym.symbolic.special import rewrite_naive
from proofs import reference as R

LAWS = [
    fhsym.FlippedHuber(1.0, 2.0),
    fhsym.FlippedHuber(0.0, 1.5),
    fhsym.Gaussian(2.0),
    fhsym.Laplace(0.7),
    fhsym.TruncatedLaplace(1.0, 5.0),
    fhsym.Staircase(1.0, 1.0),
    fhsym.OSGT(1.0, 2.0),
]
LAW_IDS = [repr(d) for d in LAWS]


# ----------------------------------------------------------------------------- stats, rvs
def test_stats_known_values():
    assert fhsym.Gaussian(2.0).stats("mvsk") == (0.0, 4.0, 0.0, 0.0)
    m, v, s, k = fhsym.Laplace(0.5).stats("mvsk")
    assert (m, s) == (0.0, 0.0) and v == 0.5 and math.isclose(k, 3.0, rel_tol=1e-15)
    assert fhsym.Gaussian(2.0).stats() == (0.0, 4.0)  # scipy's default "mv"
    assert fhsym.Gaussian(2.0).stats("v") == 4.0
    assert fhsym.Gaussian(2.0).stats("kv") == (4.0, 0.0)  # scipy's order m, v, s, k


@pytest.mark.parametrize("b", [1e-3, 1.0, 30.0])
def test_stats_kurtosis_flipped_huber_against_mpmath(b):
    fh = fhsym.FlippedHuber(b, 1.0)
    with mp.workdps(50):
        bb = mpf(b)
        m2 = R._moment(lambda u: u**2, bb)
        m4 = R._moment(lambda u: u**4, bb)
        k_ref = m4 / m2**2 - 3
    k = fh.stats("k")
    assert abs(k - float(k_ref)) <= 2e-15 * 3, (k, k_ref)


@pytest.mark.parametrize("dist", LAWS, ids=LAW_IDS)
def test_rvs_random_state_kinds(dist):
    a = dist.rvs(5, random_state=7)
    assert np.array_equal(a, dist.rvs(5, random_state=7))
    assert np.array_equal(dist.rvs(5, random_state=np.random.default_rng(7)), a)
    r = dist.rvs(5, random_state=np.random.RandomState(7))
    assert r.shape == (5,) and np.all(np.isfinite(r))
    assert isinstance(dist.rvs(random_state=1), float)
    lo, hi = dist.support()
    assert np.all((r >= lo) & (r <= hi))


@pytest.mark.parametrize("dist", LAWS, ids=LAW_IDS)
def test_scalar_results_are_python_floats(dist):
    for v in (dist.moment(2), dist.entropy(), dist.median(), dist.var(), dist.expect(abs)):
        assert type(v) is float
    lo, hi = dist.interval(0.9)
    assert type(lo) is float and type(hi) is float and lo == -hi
    assert dist.support() == tuple(float(x) for x in dist.support())
    assert math.isclose(float(dist.cdf(dist.interval(0.9)[1])), 0.95, rel_tol=1e-12)


@pytest.mark.parametrize(
    "call,name",
    [
        (lambda d: d.moment(-1), "order"),
        (lambda d: d.moment(2.5), "order"),
        (lambda d: d.moment(True), "order"),
        (lambda d: d.interval(1.5), "confidence"),
        (lambda d: d.interval("0.9"), "confidence"),
        (lambda d: d.stats("mx"), "moments"),
        (lambda d: d.stats(""), "moments"),
        (lambda d: d.expect(3.0), "func"),
        (lambda d: d.expect(abs, lb=2.0, ub=1.0), "lb"),
        (lambda d: d.expect(abs, lb=math.nan), "lb/ub"),
        (lambda d: d.expect(abs, conditional="yes"), "conditional"),
        (lambda d: d.rvs((2, -1)), "size"),
    ],
)
def test_bad_input_raises_value_error(call, name):
    with pytest.raises(ValueError) as info:
        call(fhsym.FlippedHuber(1.0, 2.0))
    assert str(info.value).startswith(name), str(info.value)


def test_expect_conditional_and_identity():
    g = fhsym.Gaussian(1.0)
    assert abs(g.expect()) <= 1e-15  # E[T] = 0
    # E[T^2 | |T| <= 1] for N(0, 1) = 1 - 2 phi(1) / (2 Phi(1) - 1)
    ref = 1.0 - 2.0 * sst.norm.pdf(1.0) / (2.0 * sst.norm.cdf(1.0) - 1.0)
    assert math.isclose(g.expect(lambda x: x * x, -1.0, 1.0, conditional=True), ref, rel_tol=1e-12)
    tl = fhsym.TruncatedLaplace(1.0, 2.0)
    assert math.isclose(tl.expect(lambda x: 1.0), 1.0, rel_tol=1e-13)  # the support is [-2, 2]
    with pytest.raises(ValueError, match="conditional"):
        tl.expect(lambda x: 1.0, 3.0, 4.0, conditional=True)


def test_moment_overflow_is_an_error():
    with pytest.raises(OverflowError):
        fhsym.Laplace(1e300).moment(4)


# ----------------------------------------------------------------------------- symbolic entropy
def test_entropy_sympy_derivation_matches_closed_form():
    derived = expected_loss_integrals()
    closed = expected_loss_std()
    assert sp.simplify((derived - rewrite_naive(closed)).rewrite(sp.erf)) == 0
    for bv in ("0.001", "0.5", "3", "30"):
        with mp.workdps(50):
            d = sp.N(derived.subs(B, sp.Rational(bv)), 50)
            lw = float(mpmath.log(R._Z_parts(mpf(bv))))
        num = FHM.expected_loss_std(float(bv), lw) * math.exp(lw)
        assert math.isclose(num, float(d), rel_tol=1e-14), (bv, num, d)


# ----------------------------------------------------------------------------- broadcasting
def test_broadcast_shapes_and_values():
    fh = fhsym.FlippedHuber(alpha=[1.0, 2.0], gamma=[1.0, 3.0])
    assert isinstance(fh, fhsym.FlippedHuber) and isinstance(fh, fhsym.NoiseDistribution)
    assert fh.parameter_shape == (2,) and fhsym.FlippedHuber(1.0, 3.0).parameter_shape == ()
    var = fh.var()
    assert var.shape == (2,)
    assert var[0] == fhsym.FlippedHuber(1.0, 1.0).var() and var[1] == fhsym.FlippedHuber(2.0, 3.0).var()
    x = np.array([[0.0], [0.5], [4.0]])
    pdf = fh.pdf(x)
    assert pdf.shape == (3, 2)
    for j, (a, g) in enumerate([(1.0, 1.0), (2.0, 3.0)]):
        assert np.array_equal(pdf[:, j], fhsym.FlippedHuber(a, g).pdf(x[:, 0]))
    lo, hi = fh.interval([0.5, 0.9])
    assert hi[1] == fhsym.FlippedHuber(2.0, 3.0).interval(0.9)[1] and np.array_equal(lo, -hi)
    m, v, s, k = fh.stats("mvsk")
    assert m.shape == v.shape == k.shape == (2,) and np.array_equal(v, var)
    assert fh.moment(4).shape == (2,) and fh.entropy().shape == (2,)
    assert fh.fisher_information().shape == (2,)  # class-specific methods broadcast too
    sup = fh.support()
    assert isinstance(sup, tuple) and sup[0].shape == (2,)
    # 2-D parameter grid, scalar broadcast against it
    grid = fhsym.FlippedHuber(alpha=[[0.0], [1.0]], gamma=[1.0, 2.0, 3.0])
    assert grid.var().shape == (2, 3) and grid.alpha.shape == (2, 3)
    assert grid.var()[1, 2] == fhsym.FlippedHuber(1.0, 3.0).var()
    assert fhsym.Gaussian(sigma=np.array([1.0, 2.0])).var().tolist() == [1.0, 4.0]
    st = fhsym.Staircase(epsilon=[0.5, 1.0])  # gamma=None: each element's optimal gamma
    assert st.gamma[1] == fhsym.Staircase(1.0).gamma
    assert fhsym.Laplace([1.0, 2.0]).privacy_profile([[0.0], [0.5]]).shape == (2, 2)


def test_broadcast_rvs_and_identity():
    fh = fhsym.FlippedHuber(alpha=[1.0, 2.0], gamma=[1.0, 3.0])
    assert fh.rvs(random_state=0).shape == (2,)
    big = fh.rvs((20000, 2), random_state=1)
    assert big.shape == (20000, 2)
    for j, d in enumerate([fhsym.FlippedHuber(1.0, 1.0), fhsym.FlippedHuber(2.0, 3.0)]):
        assert sst.kstest(big[:, j], d.cdf).pvalue > 1e-3
    with pytest.raises(ValueError, match="size"):
        fh.rvs(3)
    assert fh == fhsym.FlippedHuber([1.0, 2.0], [1.0, 3.0]) and fh != fhsym.FlippedHuber([1.0, 2.0], [1.0, 2.0])
    assert hash(fh) == hash(fhsym.FlippedHuber([1.0, 2.0], [1.0, 3.0]))
    assert repr(fh) == "FlippedHuber(alpha=[1.0, 2.0], gamma=[1.0, 3.0])"
    assert pickle.loads(pickle.dumps(fh)) == fh
    assert pickle.loads(pickle.dumps(fhsym.FlippedHuber(1.0, 2.0))) == fhsym.FlippedHuber(1.0, 2.0)
    back = type(fh).from_parameters({"alpha": 1.0, "gamma": 2.0})
    assert type(back) is fhsym.FlippedHuber and back.parameter_shape == ()
    assert fhsym.FlippedHuber.from_parameters(fh.parameters) == fh


def test_broadcast_validation_per_element():
    with pytest.raises(ValueError, match=r"^gamma must be .*\(0, inf\).*index \(1,\)"):
        fhsym.FlippedHuber(alpha=[1.0, 2.0], gamma=[1.0, -3.0])
    with pytest.raises(ValueError, match=r"^alpha"):
        fhsym.FlippedHuber(alpha=[1.0, math.nan], gamma=1.0)
    with pytest.raises(ValueError, match="broadcast"):
        fhsym.FlippedHuber(alpha=[1.0, 2.0], gamma=[1.0, 2.0, 3.0])
    fh = fhsym.FlippedHuber(alpha=[1.0, 2.0], gamma=1.0)
    with pytest.raises(ValueError, match="broadcast"):
        fh.pdf([0.0, 1.0, 2.0])
    assert np.isnan(fh.pdf([0.0, math.nan])[1])  # NaN in, NaN out (scipy's convention)
    with pytest.raises(ValueError, match=r"^x"):
        fh.pdf([0.0, "a"])
    with pytest.raises(TypeError):
        fhsym.FlippedHuber(alpha=[1.0], gamma=1.0, beta=2.0)


def test_scalar_behaviour_unchanged():
    fh = fhsym.FlippedHuber(1.0, 2.0)
    assert type(fh) is fhsym.FlippedHuber
    assert type(fh.var()) is float and type(fh.pdf(0.3)) in (float, np.float64)
    assert fh.pdf([0.3]).shape == (1,)
    assert fhsym.FlippedHuber(np.float64(1.0), np.array(2.0)) == fh  # 0-d arrays are scalars


# ----------------------------------------------------------------------------- to_scipy
@pytest.mark.parametrize("dist", LAWS, ids=LAW_IDS)
def test_to_scipy_distribution_agrees(dist):
    X = dist.to_scipy_distribution()
    lo, hi = dist.support()
    x = np.array([-7.0, -1.3, -0.2, 0.0, 0.4, 2.5, 6.0])
    x = x[(x > lo) & (x < hi)]
    for name, mine in (("pdf", dist.pdf), ("cdf", dist.cdf), ("ccdf", dist.sf), ("logpdf", dist.logpdf),
                       ("logcdf", dist.logcdf), ("logccdf", dist.logsf)):
        np.testing.assert_allclose(getattr(X, name)(x), mine(x), rtol=1e-14, atol=0, err_msg=name)
    p = np.array([1e-12, 0.01, 0.3, 0.5, 0.7, 0.99])
    np.testing.assert_allclose(X.icdf(p), dist.ppf(p), rtol=1e-14, atol=0)
    np.testing.assert_allclose(X.iccdf(p), dist.isf(p), rtol=1e-14, atol=0)
    assert math.isclose(float(X.moment(4)), dist.moment(4), rel_tol=1e-14)
    assert math.isclose(float(X.variance()), dist.var(), rel_tol=1e-14)
    assert math.isclose(float(X.entropy()), dist.entropy(), rel_tol=1e-14)
    assert float(X.mean()) == 0.0 and float(X.median()) == 0.0
    assert tuple(float(v) for v in X.support()) == dist.support()
    sample = X.sample(4000, rng=np.random.default_rng(3))
    assert sample.shape == (4000,) and sst.kstest(sample, dist.cdf).pvalue > 1e-3


def test_to_scipy_array_parameters_and_transforms():
    fh = fhsym.FlippedHuber(alpha=[1.0, 2.0], gamma=[1.0, 3.0])
    X = fh.to_scipy_distribution()
    x = np.array([[0.5], [2.0]])
    np.testing.assert_allclose(X.cdf(x), fh.cdf(x), rtol=1e-14, atol=0)
    np.testing.assert_allclose(X.variance(), fh.var(), rtol=1e-14)
    assert X.sample(10, rng=np.random.default_rng(0)).shape == (10, 2)
    Y = 2.0 * fhsym.Gaussian(1.0).to_scipy_distribution() + 1.0  # scipy's transformations apply
    assert math.isclose(float(Y.cdf(1.0)), 0.5, rel_tol=1e-15)
    assert math.isclose(float(Y.variance()), 4.0, rel_tol=1e-14)
