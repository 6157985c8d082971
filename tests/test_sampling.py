"""Sampling: distribution (Kolmogorov-Smirnov against fh.cdf), reproducibility, shapes.

The KS tests use fixed seeds, so they are deterministic: each would fail with
probability 1e-3 for a correct sampler and a fresh seed; with the fixed seed a
pass is permanent unless the sampler (or the cdf) changes.

Scope: the sampler is an inversion sampler (x = +-gamma isf_std(U)), and the KS
statistic is invariant under monotone maps, so for one seed it is the same for
every parameter set.  KS against ``fh.cdf`` therefore checks that the sampler is
consistent with the cdf (right inverse, right sign, no mis-mapped pieces); the
accuracy of cdf/isf themselves is checked against mpmath in
test_distribution_accuracy.py.  The tail-mass and moment checks below compare
the sample with independent quantities (sf at alpha, the variance).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import fhsym  # noqa: E402
FlippedHuber = fhsym.FlippedHuber

N = 10**6
P_MIN = 1e-3

KS_PARAMS = [  # (alpha, gamma): alpha = 0, small, ~1 and large alpha/gamma, extreme gamma
    (0.0, 1.0),
    (1e-3, 2.0),
    (1.0, 1.0),
    (3.0, 1e-6),
    (50.0, 1e6),
]
KS_PARAMS_SLOW = [(1e-6, 1e-6), (0.3, 1.0), (10.0, 1.0), (37.7, 1.0), (1e4, 3.0)]


def _ks(alpha, gamma, seed):
    fh = FlippedHuber(alpha=alpha, gamma=gamma)
    x = fh.rvs(size=N, random_state=seed)
    assert x.shape == (N,) and x.dtype == np.float64
    assert np.all(np.isfinite(x))
    res = stats.kstest(x, fh.cdf)
    print(f"\nKS alpha={alpha} gamma={gamma} seed={seed}: D={res.statistic:.3g} p={res.pvalue:.3g}")
    assert res.pvalue > P_MIN, f"KS p = {res.pvalue:.3g} (D = {res.statistic:.3g}) for alpha={alpha}, gamma={gamma}"
    return fh, x


@pytest.mark.parametrize("alpha,gamma", KS_PARAMS)
def test_ks_one_million_draws(alpha, gamma):
    fh, x = _ks(alpha, gamma, seed=20240601)
    # KS is weak in the tails: also check the mass beyond |t| = alpha (binomial, 5 sigma)
    # and the variance (5 standard errors, using the 4th moment estimated from the sample).
    if alpha > 0:
        p = 2 * float(fh.sf(alpha))
        k = np.count_nonzero(np.abs(x) > alpha)
        assert abs(k - N * p) <= 5 * math.sqrt(N * p * (1 - p)) + 1
    v = fh.var()
    m2 = np.mean(x * x)
    se = math.sqrt(np.var(x * x) / N)
    assert abs(m2 - v) <= 5 * se, (m2, v, se)
    assert abs(np.mean(x)) <= 5 * math.sqrt(v / N)


@pytest.mark.slow
@pytest.mark.parametrize("alpha,gamma", KS_PARAMS_SLOW)
@pytest.mark.parametrize("seed", [1, 2])
def test_ks_more_parameters(alpha, gamma, seed):
    _ks(alpha, gamma, seed)


def test_reproducible_with_seed():
    fh = FlippedHuber(alpha=1.0, gamma=2.0)
    a = fh.rvs(size=1000, random_state=123)
    b = fh.rvs(size=1000, random_state=123)
    assert np.array_equal(a, b)
    c = fh.rvs(size=1000, random_state=124)
    assert not np.array_equal(a, c)
    g1, g2 = np.random.default_rng(7), np.random.default_rng(7)
    assert np.array_equal(fh.rvs(size=50, random_state=g1), fh.rvs(size=50, random_state=g2))
    # a Generator is advanced, not reset
    g = np.random.default_rng(7)
    assert not np.array_equal(fh.rvs(size=50, random_state=g), fh.rvs(size=50, random_state=g))


def test_shapes():
    fh = FlippedHuber(alpha=0.5, gamma=1.5)
    s = fh.rvs(random_state=1)
    assert np.ndim(s) == 0 and math.isfinite(float(s))
    assert fh.rvs(size=7, random_state=1).shape == (7,)
    assert fh.rvs(size=(3, 4), random_state=1).shape == (3, 4)
    assert fh.rvs(size=(2, 0, 3), random_state=1).shape == (2, 0, 3)
    assert fh.rvs(size=0, random_state=1).shape == (0,)


def test_first_draws_do_not_depend_on_size():
    """The stream is consumed draw by draw: the first n of a larger request equal a size-n request."""
    fh = FlippedHuber(alpha=0.5, gamma=1.5)
    assert np.array_equal(fh.rvs(size=10, random_state=9), fh.rvs(size=100, random_state=9)[:10])


def test_alpha0_matches_normal_and_symmetry():
    fh = FlippedHuber(alpha=0.0, gamma=3.0)
    x = fh.rvs(size=200_000, random_state=5)
    assert stats.kstest(x, stats.norm(scale=3.0).cdf).pvalue > P_MIN
    # symmetric: x and -x have the same law
    assert stats.ks_2samp(x[:100_000], -x[100_000:]).pvalue > P_MIN


@pytest.mark.parametrize("b", [0.0, 0.5, 1.0, 3.0, 100.0])
def test_rvs_output_does_not_depend_on_the_chunk_size(b, monkeypatch):
    """rvs draws in chunks of RVS_CHUNK (memory, speed); the samples are those of one big draw."""
    import fhsym.noise.flipped_huber_quantile as Q

    fh = fhsym.FlippedHuber(b, 1.5)
    chunked = fh.rvs(3 * Q.RVS_CHUNK + 17, random_state=11)
    monkeypatch.setattr(Q, "RVS_CHUNK", 1 << 30)
    whole = fh.rvs(3 * (1 << 16) + 17, random_state=11)
    assert np.array_equal(chunked, whole)
