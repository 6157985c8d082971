"""PiecewiseUniform against independent computations: scipy.stats.rv_histogram, exact rationals, mpmath.

The profile is checked against the hockey-stick integral summed piece by piece from the definition
(``optimum_reference.hockey_stick``), the exact bounds of ``fhsym.noise.plans.piecewise_uniform`` must
bracket it, and the float profile must agree to ~1e-13 relative.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest
from scipy import stats

from fhsym.noise import PiecewiseUniform
from fhsym.noise.plans.piecewise_uniform import exp_enclosure, lattice_deficit_bounds, profile_bounds, sup_profile_bounds
from optimum_reference import hockey_stick

CASES = [
    (0.5, (2, 1)),
    (0.25, (7, 5, 3, 0, 1)),
    (1.0, (0, 1)),
    (0.125, (1000, 900, 810, 729, 656, 590, 531, 478, 430, 387, 3, 1)),
    (3.0, (5,)),
]


def _hist(width, weights):
    M = len(weights) - 1
    edges = (np.arange(-M, M + 2) - 0.5) * width
    mass = np.array([weights[abs(k)] for k in range(-M, M + 1)], dtype=float)
    return stats.rv_histogram((mass, edges), density=False)


def _exact_sf(width, weights, x: Fraction) -> Fraction:
    """P(T > x) summed over the bins from the definition."""
    w, M = Fraction(width), len(weights) - 1
    N = weights[0] + 2 * sum(weights[1:])
    tot = Fraction(0)
    for k in range(-M, M + 1):
        a, b = (k - Fraction(1, 2)) * w, (k + Fraction(1, 2)) * w
        lo = max(a, x)
        if b > lo:
            tot += Fraction(weights[abs(k)], N) * (b - lo) / w
    return tot


@pytest.mark.parametrize("width,weights", CASES)
def test_distribution_matches_rv_histogram(width, weights):
    pu, ref = PiecewiseUniform(width, weights), _hist(width, weights)
    M = len(weights) - 1
    x = np.linspace(-(M + 1.5) * width, (M + 1.5) * width, 401) + width / 7  # avoid the bin edges
    np.testing.assert_allclose(pu.pdf(x), ref.pdf(x), rtol=1e-14, atol=0)
    np.testing.assert_allclose(pu.cdf(x), ref.cdf(x), rtol=1e-10, atol=1e-16)  # scipy: 1 - cdf in the tails
    exact_sf = np.array([float(_exact_sf(width, weights, Fraction(float(v)))) for v in x])
    np.testing.assert_allclose(pu.sf(x), exact_sf, rtol=1e-14, atol=0)  # (k + 1/2 - x/w) cancels near an edge
    np.testing.assert_allclose(pu.cdf(-x), exact_sf, rtol=1e-14, atol=0)
    p = np.linspace(0.001, 0.999, 96)  # not 0.5: the two-bump law has a flat cdf there (any gap point is a median)
    np.testing.assert_allclose(pu.ppf(p), ref.ppf(p), rtol=1e-12, atol=1e-14 * width)
    np.testing.assert_allclose(pu.cdf(pu.ppf(p)), p, rtol=1e-13)
    assert pu.var() == pytest.approx(ref.var(), rel=1e-13)
    assert pu.moment(4) == pytest.approx(ref.moment(4), rel=1e-12)
    assert pu.entropy() == pytest.approx(ref.entropy(), rel=1e-12)


def test_exact_variance_and_moments_from_the_definition():
    w, n = Fraction(1, 4), (7, 5, 3, 0, 1)
    pu = PiecewiseUniform(0.25, n)
    N = n[0] + 2 * sum(n[1:])
    # E[T^2] = sum_k q_k int_{bin k} t^2 dt / w
    second = sum(Fraction(n[abs(k)], N) * (((k + Fraction(1, 2)) * w) ** 3 - ((k - Fraction(1, 2)) * w) ** 3) / (3 * w)
                 for k in range(-4, 5))
    assert pu.exact_variance() == second
    fourth = sum(Fraction(n[abs(k)], N) * (((k + Fraction(1, 2)) * w) ** 5 - ((k - Fraction(1, 2)) * w) ** 5) / (5 * w)
                 for k in range(-4, 5))
    assert pu.moment(4) == float(fourth)
    assert pu.moment(3) == 0.0 and pu.mean() == 0.0


def _within(ref, lo, hi):
    """lo <= ref <= hi up to the reference's own rounding (40-digit sums: 1e-35 relative)."""
    with mp.workdps(50):
        tol = mp.mpf("1e-35")
        return mp.mpf(lo) * (1 - tol) <= ref <= mp.mpf(hi) * (1 + tol)


@pytest.mark.parametrize("width,weights", CASES)
@pytest.mark.parametrize("eps", [0.0, 0.3, 1.0, 2.5])
def test_profile_against_the_definition(width, weights, eps):
    pu = PiecewiseUniform(width, weights)
    for d in (0.3 * width, width, 1.7 * width, 2.0 * width, 3.25 * width, 50.0 * width):
        ref = hockey_stick(width, weights, eps, d)
        got = float(pu.privacy_profile(eps, d))
        assert got == pytest.approx(float(ref), rel=1e-13, abs=1e-16), d
        lo, hi = profile_bounds(width, weights, eps, d)
        assert _within(ref, lo, hi) and hi - lo <= 1e-15 * max(hi, 1e-300) + 5e-324
    # sup over d <= Delta: the largest value over a fine grid of shifts, and the lattice points
    Delta = 2.6 * width
    grid = [Delta * i / 40 for i in range(1, 41)] + [j * width for j in (1, 2)]
    top = max(hockey_stick(width, weights, eps, d) for d in grid)
    lo, hi = sup_profile_bounds(width, weights, eps, Delta)
    assert _within(top, lo, hi)
    assert pu.sup_privacy_profile(eps, Delta) == pytest.approx(float(top), rel=1e-13, abs=1e-16)
    assert pu.certified_sup_profile(eps, Delta) == hi


def test_profile_is_not_monotone_in_the_shift():
    pu = PiecewiseUniform(1.0, [0, 1])  # two bumps: d = 1 separates them, d = 2 maps one onto the other
    assert float(pu.privacy_profile(0.5, 2.0)) == pytest.approx(0.5)
    assert pu.sup_privacy_profile(0.5, 2.0) == 1.0 == pu.certified_sup_profile(0.5, 2.0)


def test_privacy_loss_interval_and_huge_shifts():
    pu = PiecewiseUniform(0.5, [2, 1])  # density 1 on [-1/4, 1/4), 1/2 on the bins +-1, 0 outside [-3/4, 3/4)
    assert float(pu.privacy_loss(0.0, 0.5)) == pytest.approx(math.log(2.0))
    assert float(pu.privacy_loss(0.5, 0.5)) == math.inf        # t + d outside the support
    assert float(pu.privacy_loss(-1.0, 0.5)) == -math.inf      # t outside, t + d inside
    assert float(pu.privacy_loss(2.0, 1.0)) == 0.0             # outside both supports: 0 by convention
    lo, hi = pu.interval(0.25)                                 # P(|T| <= h) = 2h (h < 1/4)
    assert hi == pytest.approx(0.125, rel=1e-15) and lo == -hi
    lo, hi = pu.interval(0.9)                                  # 1/2 + (h - 1/4) for h in [1/4, 3/4)
    assert hi == pytest.approx(0.65, rel=1e-14)
    assert float(pu.privacy_profile(0.3, 1e300)) == 1.0 == pu.sup_privacy_profile(0.3, 1e300)
    assert PiecewiseUniform(1e-300, [1, 1]).certified_sup_profile(0.3, 1e300) == 1.0


def test_exp_enclosure_and_lattice_bounds():
    for eps in (1e-12, 0.1, 1.0, 3.0, 40.0):
        lo, hi = exp_enclosure(eps)
        with mp.workdps(80):
            e = mp.exp(mp.mpf(eps))
            assert mp.mpf(lo.numerator) / lo.denominator <= e <= mp.mpf(hi.numerator) / hi.denominator
        assert hi - lo <= hi * Fraction(1, 2**180)
    assert exp_enclosure(0.0) == (1, 1)
    # D_j for the masses 1/4, 1/2, 1/4 with e^eps replaced by the exact 2: D_1 = (1/2 - 2/4) + 1/4 = 1/4
    assert lattice_deficit_bounds((2, 1), 1, Fraction(2), Fraction(2)) == (Fraction(1, 4), Fraction(1, 4))


def test_lattice_deficits_in_one_pass_are_the_term_by_term_sums():
    """``lattice_deficits`` (signs decided in floats where clear by 1e-9, in integers otherwise; exact integer sums)
    gives the same exact rationals as the term-by-term loop: random weights up to 2^70 (int64 and Python-int routes),
    zeros, exact rational ``e^eps`` bounds that make terms vanish exactly (ties), every shift 0..2M+3."""
    import random

    from fhsym.noise.plans.piecewise_uniform import _deficit_loop, lattice_deficits

    rng = random.Random(7)
    for _ in range(200):
        M = rng.randint(0, 25)
        n = [rng.choice([0, 1, 2, 3, 2 ** rng.randint(1, 70), rng.randint(0, 10**6)]) for _ in range(M + 1)]
        n[0] = n[0] or 1
        lo, hi = exp_enclosure(rng.choice([0.0, 1e-9, 0.1, 1.0, 3.0, 10.0, 40.0]))
        if rng.random() < 0.3:
            lo = hi = Fraction(rng.randint(1, 4), rng.randint(1, 3))
        js = list(range(2 * M + 4))
        assert lattice_deficits(n, js, lo, hi) == [_deficit_loop(n, j, lo, hi) for j in js]


def test_parameters_round_trip_through_json():
    pu = PiecewiseUniform(0.125, [2**60 + 1, 3, 0, 7])
    back = PiecewiseUniform.from_parameters(json.loads(json.dumps(pu.parameters)))
    assert back == pu and hash(back) == hash(pu)
    assert back.weights == (2**60 + 1, 3, 0, 7) and back.width == 0.125
    assert "4 integers" in repr(pu)


def test_samples_follow_the_law():
    pu = PiecewiseUniform(0.25, (7, 5, 3, 0, 1))
    x = pu.rvs(size=20000, random_state=3)
    assert stats.kstest(x, pu.cdf).pvalue > 1e-3
    assert (np.abs(x) <= pu.support()[1]).all()


def test_scipy_object():
    X = PiecewiseUniform(0.5, [2, 1]).to_scipy()
    assert float(X.cdf(0.25)) == 0.75 and float(X.moment(2)) == pytest.approx(7 / 48)


@pytest.mark.parametrize("kwargs,name", [
    (dict(width=0.0, weights=[1]), "width"),
    (dict(width=-1.0, weights=[1]), "width"),
    (dict(width=math.inf, weights=[1]), "width"),
    (dict(width=1.0, weights=[]), "weights"),
    (dict(width=1.0, weights=[0, 0]), "weights"),
    (dict(width=1.0, weights=[1, -1]), "weights"),
    (dict(width=1.0, weights=[1, 0.5]), "weights"),
    (dict(width=1.0, weights=[True]), "weights"),
    (dict(width=1.0, weights="12"), "weights"),
])
def test_bad_parameters(kwargs, name):
    with pytest.raises(ValueError, match=name):
        PiecewiseUniform(**kwargs)


def test_bad_profile_arguments():
    with pytest.raises(ValueError, match="epsilon"):
        profile_bounds(1.0, (1,), -0.1, 1.0)
    with pytest.raises(ValueError, match="sensitivity"):
        sup_profile_bounds(1.0, (1,), 0.1, 0.0)
    with pytest.raises(ValueError, match="width"):
        profile_bounds(math.nan, (1,), 0.1, 1.0)
