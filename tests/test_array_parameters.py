"""Array parameters at scipy speed (issue 24.1): the vectorised FlippedHuber path against its scalar instances.

A ``FlippedHuber`` with array parameters evaluates its kernels on the whole parameter array in one call
(``fhsym/noise/broadcast.py``, ``FlippedHuber._init_arrays``).  Its values must be those of the scalar law at each
element: checked here within 2 ulp (measured: equal) for every vectorised method over a grid of shapes that covers
every kernel piece (alpha/gamma from 0 to 1e7, the Laplace limit b > 64 included) and over 2,000 random shapes; the
sampler (inversion with each element's constants) is checked by the probability-integral transform of one draw per
shape for 20,000 distinct shapes, which must be uniform (Kolmogorov-Smirnov).  Speed is measured by
``benchmarks/bench_array_params.py``, never asserted.
"""

from __future__ import annotations

import math
import pickle

import numpy as np
import pytest
from scipy import stats

import fhsym

ALPHAS = np.array([0.0, 1e-3, 0.5, 2.0, 50.0, 1e4])
GAMMAS = np.array([1e-3, 1.0, 30.0])
X = np.array([0.0, -0.0, 1e-300, 0.3, -0.3, 1.0, -1.0, 2.0, 3.5, -7.0, 40.0, 300.0, 1e4, -2e4, np.inf, -np.inf])
Q = np.array([0.0, 5e-324, 1e-300, 1e-17, 1e-3, 0.1, 0.25, 0.4999, 0.5, 0.5001, 0.75, 0.9, 1 - 1e-12, 1.0])


def _per_element(make, method, grid_shape, arg):
    out = np.empty(arg.shape[:1] + grid_shape)
    for idx in np.ndindex(grid_shape):
        out[(slice(None),) + idx] = getattr(make(idx), method)(arg)
    return out


def _assert_close(a, b, what):
    same = (a == b) | (np.isnan(a) & np.isnan(b))
    if not same.all():
        np.testing.assert_array_max_ulp(a[~same], b[~same], maxulp=2)
    print(f"{what}: {np.count_nonzero(same)} of {same.size} identical")


@pytest.mark.parametrize("method,arg", [(m, X) for m in ("pdf", "logpdf", "cdf", "sf", "logcdf", "logsf")]
                         + [(m, Q) for m in ("ppf", "isf")])
def test_vectorised_equals_scalar_on_the_grid(method, arg):
    fh = fhsym.FlippedHuber(alpha=ALPHAS[:, None], gamma=GAMMAS)
    assert fh.parameter_shape == (6, 3)
    got = getattr(fh, method)(arg[:, None, None])
    want = _per_element(lambda i: fhsym.FlippedHuber(ALPHAS[i[0]], GAMMAS[i[1]]), method, (6, 3), arg)
    _assert_close(got, want, method)


def test_vectorised_equals_scalar_on_random_shapes():
    rng = np.random.default_rng(11)
    n = 2000
    alpha = np.exp(rng.uniform(np.log(1e-4), np.log(1e3), n)) * (rng.random(n) > 0.05)  # 5 % Gaussian (alpha = 0)
    gamma = np.exp(rng.uniform(np.log(1e-3), np.log(1e3), n))
    fh = fhsym.FlippedHuber(alpha=alpha, gamma=gamma)
    x = rng.standard_normal(n) * (alpha + gamma) * 3
    q = rng.random(n)
    for method, arg in (("pdf", x), ("logpdf", x), ("cdf", x), ("sf", x), ("logsf", x), ("ppf", q), ("isf", q)):
        got = getattr(fh, method)(arg)
        want = np.array([getattr(fhsym.FlippedHuber(a, g), method)(v) for a, g, v in zip(alpha, gamma, arg)])
        _assert_close(got, want, method)
    _assert_close(fh.var(), np.array([fhsym.FlippedHuber(a, g).var() for a, g in zip(alpha, gamma)]), "var")
    _assert_close(fh.std(), np.array([fhsym.FlippedHuber(a, g).std() for a, g in zip(alpha, gamma)]), "std")
    eps = rng.uniform(0.0, 5.0, 200)
    got = fhsym.FlippedHuber(alpha=alpha[:200], gamma=gamma[:200]).privacy_profile(eps, 1.0)
    want = np.array([fhsym.FlippedHuber(a, g).privacy_profile(e, 1.0) for a, g, e in zip(alpha, gamma, eps)])
    _assert_close(got, want, "privacy_profile")


def test_other_methods_per_element_and_shapes():
    fh = fhsym.FlippedHuber(alpha=[1.0, 2.0, 0.0], gamma=[1.0, 3.0, 0.5])
    scal = [fhsym.FlippedHuber(a, g) for a, g in ((1.0, 1.0), (2.0, 3.0), (0.0, 0.5))]
    lo, hi = fh.interval(0.3)  # per element (scalar instances built when first needed)
    assert np.array_equal(hi, [s.interval(0.3)[1] for s in scal]) and np.array_equal(lo, -hi)
    assert np.array_equal(fh.moment(4), [s.moment(4) for s in scal])
    assert np.array_equal(fh.entropy(), [s.entropy() for s in scal])
    assert np.array_equal(fh.log_mgf(0.2), [s.log_mgf(0.2) for s in scal])
    assert fh.mean().shape == fh.median().shape == (3,) and not fh.mean().any()
    assert fh.support()[0].shape == (3,)
    assert fh.privacy_loss([[0.3], [-2.0]], 1.0).shape == (2, 3)
    assert np.array_equal(fh.privacy_loss(0.3, 1.0), [s.privacy_loss(0.3, 1.0) for s in scal])
    with pytest.raises(ValueError, match="broadcast"):
        fh.cdf([0.0, 1.0])
    with pytest.raises(ValueError, match="^size"):
        fh.rvs(2)


def test_vectorised_construction_validation_and_identity():
    with pytest.raises(ValueError, match=r"^gamma must be .* index \(2,\)"):
        fhsym.FlippedHuber(alpha=[1.0, 2.0, 3.0], gamma=[1.0, 1.0, 0.0])
    with pytest.raises(ValueError, match=r"alpha/gamma must be finite.* index \(1,\)"):
        fhsym.FlippedHuber(alpha=[1.0, 1e300], gamma=[1.0, 1e-300])
    with pytest.raises(ValueError, match="^alpha"):
        fhsym.FlippedHuber(alpha=[1.0, "x"], gamma=1.0)
    with pytest.raises(ValueError, match="exactly representable"):
        fhsym.FlippedHuber(alpha=np.array([1, 2**53 + 1]), gamma=1.0)
    ints = fhsym.FlippedHuber(alpha=np.array([1, 2]), gamma=1)
    assert ints.alpha.dtype == float and ints == fhsym.FlippedHuber(alpha=[1.0, 2.0], gamma=1.0)
    fh = fhsym.FlippedHuber(alpha=np.linspace(0.1, 5.0, 7), gamma=2.0)
    assert pickle.loads(pickle.dumps(fh)) == fh
    assert np.array_equal(pickle.loads(pickle.dumps(fh)).cdf(0.4), fh.cdf(0.4))
    # the constants of __init__, computed on first use, are the scalar constructor's (the direct-tail threshold of the
    # quantile to an ulp: numpy's exp against math.exp; it only moves a dispatch boundary between two exact forms)
    for name in ("_lw", "_tail_mass", "_upper_quartile"):
        assert np.array_equal(getattr(fh, name), [getattr(fhsym.FlippedHuber(a, 2.0), name) for a in fh.alpha]), name
    np.testing.assert_array_max_ulp(fh._isf_direct_min, [fhsym.FlippedHuber(a, 2.0)._isf_direct_min for a in fh.alpha],
                                    maxulp=2)
    with pytest.raises(AttributeError):
        fh.no_such_attribute


def test_vectorised_samples_follow_each_law():
    """One draw per shape for 20,000 shapes: u = cdf_i(x_i) must be Uniform(0, 1) (probability-integral transform)."""
    rng = np.random.default_rng(5)
    n = 20000
    alpha = np.exp(rng.uniform(np.log(1e-3), np.log(1e3), n))
    alpha[::10] = 0.0
    gamma = np.exp(rng.uniform(np.log(1e-2), np.log(1e2), n))
    fh = fhsym.FlippedHuber(alpha=alpha, gamma=gamma)
    x = fh.rvs(random_state=rng)
    assert x.shape == (n,) and np.all(np.isfinite(x))
    u = fh.cdf(x)
    assert stats.kstest(u, "uniform").pvalue > 1e-3
    assert stats.kstest(np.abs(2 * u - 1), "uniform").pvalue > 1e-3  # |2u - 1|: the tails and the centre
    big = fhsym.FlippedHuber(alpha=[0.0, 2.0, 50.0], gamma=[1.0, 1.0, 2.0]).rvs((20000, 3), random_state=8)
    for j, (a, g) in enumerate(((0.0, 1.0), (2.0, 1.0), (50.0, 2.0))):
        assert stats.kstest(big[:, j], fhsym.FlippedHuber(a, g).cdf).pvalue > 1e-3
    assert np.array_equal(fh.rvs(random_state=3), fh.rvs(random_state=3))  # reproducible


def test_to_scipy_with_array_parameters():
    fh = fhsym.FlippedHuber(alpha=[1.0, 2.0], gamma=[1.0, 3.0])
    Xs = fh.to_scipy()
    np.testing.assert_allclose(Xs.cdf([[0.5], [2.0]]), fh.cdf([[0.5], [2.0]]), rtol=1e-14)
    assert math.isclose(float(Xs.var()[1]), fh.var()[1], rel_tol=1e-14)
