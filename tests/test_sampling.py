"""Sampling: distribution (Kolmogorov-Smirnov against fh.cdf), reproducibility, shapes.

The KS tests use fixed seeds, so they are deterministic: each would fail with
probability 1e-3 for a correct sampler and a fresh seed; with the fixed seed a
pass is permanent unless the sampler (or the cdf) changes.

Scope: the sampler is a ziggurat (fhsym/noise/flipped_huber_ziggurat.py).  KS against
``fh.cdf`` checks the whole law; KS is weak in the tails, so the tail mass beyond alpha,
the variance and the law of the samples beyond the base edge r (drawn by the exact tail
inversion) are checked separately.  The tables themselves are checked against mpmath
quadrature of the density and against numpy's published ziggurat constants.  The
accuracy of cdf/sf is checked against mpmath in test_distribution_accuracy.py.
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
def test_rvs_output_does_not_depend_on_the_block_size(b, monkeypatch):
    """rvs draws proposals in blocks (memory, speed); the samples do not depend on the block size."""
    import fhsym.noise.flipped_huber_ziggurat as Z

    fh = fhsym.FlippedHuber(b, 1.5)
    n = 3 * Z.BLOCK + 17
    big = fh.rvs(n, random_state=11)
    monkeypatch.setattr(Z, "BLOCK", 1000)
    small = fh.rvs(n, random_state=11)
    assert np.array_equal(big, small)


@pytest.mark.parametrize("b", [0.0, 0.8, 3.0])
def test_sampler_stream_equals_one_draw(b):
    """fh.sample_stream(seed).draw(m1), .draw(m2), ... are the samples of one rvs(m1 + m2 + ...) call; the
    first n samples of a larger request equal a request of n (across block boundaries)."""
    import fhsym.noise.flipped_huber_ziggurat as Z

    fh = fhsym.FlippedHuber(b, 2.0)
    sizes = [1, 63, Z.BLOCK - 1, 2, Z.BLOCK + 5, 1000]
    s = fh.sample_stream(5)
    streamed = np.concatenate([s.draw(m) for m in sizes])
    whole = fh.rvs(sum(sizes), random_state=5)
    assert np.array_equal(streamed, whole)
    for n in (1, 64, Z.BLOCK + 3):
        assert np.array_equal(fh.rvs(n, random_state=5), whole[:n])


def test_legacy_randomstate_and_no_negative_zero():
    fh = fhsym.FlippedHuber(0.5, 1.0)
    a = fh.rvs(1000, random_state=np.random.RandomState(3))
    b = fh.rvs(1000, random_state=np.random.RandomState(3))
    assert np.array_equal(a, b) and np.all(np.isfinite(a))
    x = fh.rvs(200_000, random_state=2)
    assert not np.any(np.signbit(x) & (x == 0.0))


@pytest.mark.parametrize("b", [0.0, 0.5, 2.0, 3.0, 10.0, 100.0])
def test_ziggurat_tables_have_equal_areas(b):
    """Every layer has the area v: layers 1-254 to 5e-13 relative, the top layer (which closes the
    recursion; r is a root found to the last float or two) to 5e-12, i.e. a total-variation distortion
    below 2e-14; the base layer r f(r) + int_r^inf f equals v.  Areas and the tail integral are
    computed with mpmath (30 digits) from the definition exp(-rho_b), not from the package's sf."""
    import mpmath as mp

    from fhsym.noise.flipped_huber_ziggurat import LAYERS, ziggurat_tables

    t = ziggurat_tables(fhsym.FlippedHuber(b, 1.0))
    with mp.workdps(30):
        B = mp.mpf(b)

        def f(s):
            s = mp.mpf(s)
            return mp.exp(-(B * s if s <= B else (s * s + B * B) / 2))

        err = [abs(mp.mpf(t.x[i]) * (f(t.x[i + 1]) - f(t.x[i])) / t.v - 1) for i in range(1, LAYERS)]
        assert max(err[:-1]) < 5e-13 and err[-1] < 5e-12, (max(err[:-1]), err[-1])
        pts = [mp.mpf(t.r)] + ([B] if B > t.r else []) + [mp.inf]
        tail = mp.quad(lambda s: mp.exp(-(B * s if s <= B else (s * s + B * B) / 2)), pts)
        assert abs((t.r * f(t.r) + tail) / t.v - 1) < 1e-13


def test_ziggurat_edges_match_numpy_published_constants():
    """b = 0 is the standard normal: r = 3.6541528853610088 (numpy's ziggurat_constants.h, ziggurat_nor_r);
    b -> inf is the exponential with rate b: r = 7.69711747013104972 / b (ziggurat_exp_r)."""
    from fhsym.noise.flipped_huber_ziggurat import ziggurat_tables

    assert abs(ziggurat_tables(fhsym.FlippedHuber(0.0, 1.0)).r / 3.6541528853610088 - 1) < 1e-14
    assert abs(ziggurat_tables(fhsym.FlippedHuber(100.0, 1.0)).r * 100.0 / 7.69711747013104972 - 1) < 1e-14


@pytest.mark.parametrize("b", [0.0, 1.0, 2.9, 3.0, 30.0])
def test_samples_beyond_the_base_edge_follow_the_tail(b):
    """The samples with |x| > r gamma (the exact-tail path and the wedge of the base layer) follow the
    conditional law P(|T| > x | |T| > r gamma) = sf(x) / sf(r gamma) (KS)."""
    from fhsym.noise.flipped_huber_ziggurat import ziggurat_tables

    fh = fhsym.FlippedHuber(b, 1.0)
    r = ziggurat_tables(fh).r
    x = np.abs(fh.rvs(4 * N, random_state=17))
    tail = x[x > r]
    assert tail.size > 1000
    sr = float(fh.sf(r))
    res = stats.kstest(tail, lambda v: 1.0 - fh.sf(v) / sr)
    assert res.pvalue > P_MIN, (tail.size, res)


@pytest.mark.parametrize("alpha,gamma", [(0.0, 1.0), (0.5, 2.0), (3.0, 1e-6), (50.0, 1e6)])
def test_rvs_inversion_law_and_coupling(alpha, gamma):
    """rvs_inversion: KS against the cdf; each sample is +-gamma isf_std(p) of its word, so samples of two
    shapes from one seed are monotonely coupled (the same sign and the same rank)."""
    fh = FlippedHuber(alpha=alpha, gamma=gamma)
    x = fh.rvs_inversion(N, random_state=23)
    assert np.all(np.isfinite(x)) and x.shape == (N,)
    assert stats.kstest(x, fh.cdf).pvalue > P_MIN
    g = FlippedHuber(alpha=0.0, gamma=gamma).rvs_inversion(N, random_state=23)
    assert np.array_equal(np.signbit(x), np.signbit(g))
    assert np.array_equal(np.argsort(np.abs(x), kind="stable"), np.argsort(np.abs(g), kind="stable"))
    assert np.array_equal(fh.rvs_inversion(10, random_state=23), x[:10])
