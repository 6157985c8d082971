"""The PLD engine (fhsym.accounting.pld): certified bracket, composition, floating-point bounds.

References: the analytic Gaussian profile (scipy), mpmath quadrature of the 1-D definition
(proofs/reference.py), direct (non-FFT) convolution.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import stats

import fhsym
from fhsym.accounting import pld_core as P
from fhsym.accounting import flipped_huber_pld, gaussian_pld, kdim_pld, laplace_pld



def gauss_profile(eps, s):
    """Analytic profile of the Gaussian mechanism with Delta/sigma = s (Balle & Wang 2018, eq 6)."""
    eps = np.asarray(eps, dtype=float)
    return stats.norm.sf(eps / s - s / 2) - np.exp(eps) * stats.norm.sf(eps / s + s / 2)


@pytest.mark.parametrize("K", [1, 2, 20, 1000])
def test_kfold_gaussian_equals_analytic_gaussian_with_sqrtK_sensitivity(K):
    sigma = 1.0 * math.sqrt(K) / 2.0  # keeps delta informative
    pld = gaussian_pld(sigma, 1.0, step=min(2e-3, 1.0 / sigma / 300)).self_compose(K)
    eps = np.array([0.0, 0.5, 1.0, 2.0, 4.0, 6.0])
    ref = gauss_profile(eps, math.sqrt(K) / sigma)
    lo, up = pld.delta_bounds(eps)
    assert np.all(lo <= ref * (1 + 1e-12)) and np.all(ref <= up * (1 + 1e-12))
    keep = ref > 1e-12
    assert np.max(((up - lo) / ref)[keep]) < 2e-4  # the bracket is tight at this step


def test_k1_pld_contains_the_mpmath_profile():
    from proofs import reference as R

    a, g = 1.0, 2.0
    pld = flipped_huber_pld(a, g, 1.0, step=1e-3)
    for e in [0.0, 0.3, 1.0, 2.5]:
        ref = float(R.privacy_profile(e, a, g, 1.0, dps=30))
        lo, up = pld.delta_bounds(e)
        assert lo <= ref <= up
        assert (up - lo) / ref < 1e-4


@settings(max_examples=25)
@given(st.floats(0.0, 20.0), st.floats(0.2, 20.0), st.floats(0.05, 3.0), st.floats(-2.0, 8.0))
def test_k1_bracket_contains_the_closed_form(alpha, gamma, Delta, eps):
    pld = flipped_huber_pld(alpha, gamma, Delta, step=P_step(alpha, gamma, Delta))
    exact = float(fhsym.privacy_profile(abs(eps), alpha, gamma, Delta))
    if eps < 0:  # symmetric duality
        exact = -math.expm1(eps) + math.exp(eps) * exact
    lo, up = pld.delta_bounds(eps)
    assert lo <= exact * (1 + 2e-9) + 1e-15
    assert exact <= up * (1 + 1e-12) + 1e-300
    assert lo <= up


def P_step(alpha, gamma, Delta):
    from fhsym.accounting import default_step

    return default_step(alpha, gamma, 1, Delta)


def test_gap_shrinks_with_finer_discretisation():
    eps = 1.0
    gaps = []
    for h in [2e-2, 6e-3, 2e-3, 6e-4]:
        lo, up = kdim_pld(1.0, 2.0, 5, step=h).delta_bounds(eps)
        assert lo <= up
        gaps.append(up - lo)
    assert all(b < a / 4 for a, b in zip(gaps, gaps[1:])), gaps  # O(h^2): a factor ~10 per step here


def test_kfold_profile_is_non_decreasing_in_K():
    eps = np.array([0.5, 1.0, 2.0, 3.0])
    prev_lo = prev_up = None
    for K in [1, 2, 3, 5, 8, 13]:
        lo, up = kdim_pld(0.8, 2.5, K, step=2e-3).delta_bounds(eps)
        if prev_lo is not None:
            assert np.all(lo >= prev_lo * (1 - 1e-9))
            assert np.all(up >= prev_up * (1 - 1e-9))
            assert np.all(up > prev_lo)
        prev_lo, prev_up = lo, up


def test_composition_of_different_mechanisms_is_commutative_and_consistent():
    h = 1e-3
    a = flipped_huber_pld(1.0, 2.0, 1.0, h)
    b = flipped_huber_pld(0.3, 3.0, 0.7, h)
    gg = gaussian_pld(2.0, 1.0, h)
    lp = laplace_pld(2.0, 1.0, h)
    x = a.compose(b).compose(gg).compose(lp)
    y = P.compose([lp, gg, b, a])
    for e in [0.0, 0.5, 1.5, 3.0]:
        lx, ux = x.delta_bounds(e)
        ly, uy = y.delta_bounds(e)
        assert max(lx, ly) <= min(ux, uy) * (1 + 1e-12)
    # composing a mechanism with itself equals self-composition
    aa = a.compose(a)
    a2 = a.self_compose(2)
    for e in [0.2, 1.0]:
        assert max(aa.delta_lower(e), a2.delta_lower(e)) <= min(aa.delta_upper(e), a2.delta_upper(e)) * (1 + 1e-12)


def test_laplace_kfold_against_exact_binomial_sum():
    # K-fold Laplace(beta) with Delta: per coordinate the loss is in [-s, s] (s = Delta/beta); check a reference
    # from dp_accounting-independent Monte-Carlo-free numerics: the exact 2-fold by 1-D quadrature
    from scipy import integrate

    beta, s = 1.0, 1.0
    pld = laplace_pld(beta, 1.0, step=1e-3).self_compose(2)

    def loss(t):  # log f(t)/f(t + 1) for Laplace(0, 1), sensitivity 1
        return abs(t + 1) - abs(t)

    def d1(nu):
        nu = np.asarray(nu, dtype=float)
        a = np.abs(nu)
        dp = np.where(a < s, -np.expm1((a - s) / 2), 0.0)
        return np.where(nu >= 0, dp, -np.expm1(nu) + np.exp(nu) * dp)

    for e in [0.0, 0.5, 1.0, 1.5]:
        ref = integrate.quad(lambda t: 0.5 * math.exp(-abs(t)) * float(d1(e - loss(t))), -40, 40,
                             points=[-1.0, 0.0], limit=200, epsabs=1e-15, epsrel=1e-12)[0]
        lo, up = pld.delta_bounds(e)
        assert lo <= ref * (1 + 1e-9) and ref <= up * (1 + 1e-9)


def test_rounds_compose_like_more_coordinates():
    e = 1.0
    a = kdim_pld(1.0, 3.0, 4, rounds=3, step=1e-3)
    b = kdim_pld(1.0, 3.0, 12, step=1e-3)
    assert max(a.delta_lower(e), b.delta_lower(e)) <= min(a.delta_upper(e), b.delta_upper(e))


def _long_convolve(a, b):
    """Reference convolution in extended precision (x87 long double: 64-bit significand); relative error <= n 2^-64."""
    return np.convolve(np.asarray(a, dtype=np.longdouble), np.asarray(b, dtype=np.longdouble))


@pytest.mark.parametrize("n1,n2,kind", [(300, 500, "spiky"), (5000, 7000, "spiky"), (20000, 3000, "smooth"), (4000, 4000, "atoms"),
                                         (1000, 1188, "smooth")])  # the last: an odd FFT length (3^7)
def test_fft_entrywise_error_bound_covers_the_measured_error(n1, n2, kind, monkeypatch):
    monkeypatch.setattr(P, "_DIRECT_MACS", 0)  # force the FFT route
    rng = np.random.default_rng(n1)
    a = rng.random(n1) ** 8 if kind != "atoms" else np.where(rng.random(n1) < 0.01, 1.0, 1e-30)
    a /= a.sum()
    b = np.exp(-np.linspace(-5, 5, n2) ** 2) if kind != "atoms" else a[::-1].copy()
    b /= b.sum()
    c, E, rel = P._convolve(a, b)
    assert rel == 0.0 and 0.0 < E < 1e-12
    ref = _long_convolve(a, b)
    ref_err = (min(n1, n2) + 2) * 2.0**-63 * ref  # the reference's own rounding
    measured = np.abs(c.astype(np.longdouble) - ref)
    assert np.all(measured <= E + ref_err)
    up, lo = P._settle(c, E, rel, True), P._settle(c, E, rel, False)
    assert np.all(up >= ref - ref_err) and np.all(lo <= ref + ref_err)
    assert float(np.max(measured)) > E * 1e-4  # the bound is not vacuous: within four orders of the real error


@pytest.mark.parametrize("N", [45, 81, 64, 100])
def test_half_spectrum_sums_count_the_full_spectrum(N):
    from scipy import fft as sfft

    x = np.random.default_rng(N).random(N)
    full = float(np.sum(np.abs(sfft.fft(x))))
    assert P._full_sum(np.abs(sfft.rfft(x)), N) == pytest.approx(full, rel=1e-13)


def test_direct_convolution_bound_is_relative():
    a = np.random.default_rng(1).random(50)
    b = np.random.default_rng(2).random(900)
    c, E, rel = P._convolve(a, b)
    assert E == 0.0 and rel < 60 * 2.0**-53
    ref = _long_convolve(a, b)
    assert np.all(np.abs(c - ref) <= rel * ref)


@pytest.mark.parametrize("route,budget", [("fft", math.inf), ("direct", math.inf), ("fft-pairs", 0.0)])
def test_self_composition_routes_bracket_the_exact_kfold_pmf(route, budget, monkeypatch):
    """The K-fold of a discrete pmf by one FFT power, by direct binary powering, and by FFT binary powering,
    against exact sums.  The upper side may add mass and move mass up (to +inf, or up into a window): its
    upper-tail sums dominate the exact ones; the lower side's are dominated."""
    if route != "direct":
        monkeypatch.setattr(P, "_DIRECT_MACS", 0)
    base = gaussian_pld(1.0, 1.0, step=2e-2)
    K = 12
    for upper, side in [(True, base.upper), (False, base.lower)]:
        ref = np.array([1.0], dtype=np.longdouble)
        for _ in range(K):
            ref = _long_convolve(ref, side.pmf)
        out = P._self_compose_bound(side, K, 1e-18, upper, fp_budget=budget)
        i0 = out.offset - K * side.offset
        tail_ref = np.cumsum(ref[::-1])[::-1]  # sum_{i >= j} ref_i
        tail_out = np.cumsum(out.pmf[::-1].astype(np.longdouble))[::-1] + out.inf_mass
        mine = tail_ref[i0 : i0 + out.pmf.size]
        tol = 1e-15 * mine + 1e-300
        if upper:
            assert np.all(tail_out + out.slack >= mine - tol)
        else:
            assert np.all(tail_out - out.slack <= mine + tol)
        window = ref[i0 : i0 + out.pmf.size]
        assert float(np.max(np.abs(out.pmf - window))) < 1e-12


def test_epsilon_is_certified_and_matches_the_gaussian():
    K, sigma = 20, 3.0
    pld = gaussian_pld(sigma, 1.0, step=1e-3).self_compose(K)
    for dl in [1e-3, 1e-6, 1e-9]:
        e_lo, e_up = pld.epsilon_bounds(dl)
        assert pld.delta_upper(e_up) <= dl
        assert e_lo <= e_up
        ref = _gauss_eps(math.sqrt(K) / sigma, dl)
        assert e_lo <= ref * (1 + 1e-9) and ref <= e_up * (1 + 1e-9)
        assert (e_up - e_lo) < 1e-3 * ref


def _gauss_eps(s, dl):
    from scipy import optimize

    return optimize.brentq(lambda e: gauss_profile(e, s) - dl, 0.0, 200.0, xtol=1e-14, rtol=1e-15)


@pytest.mark.slow
def test_large_K_runs_and_stays_bracketed():
    K = 10_000
    sigma = 40.0  # Gaussian with l2 sensitivity sqrt(K) = 100 -> s = 2.5
    pld = gaussian_pld(sigma, 1.0, step=2e-4).self_compose(K)
    eps = np.array([2.0, 6.0, 10.0])
    lo, up = pld.delta_bounds(eps)
    ref = gauss_profile(eps, math.sqrt(K) / sigma)
    assert np.all(lo <= ref) and np.all(ref <= up)
    assert np.max((up - lo) / ref) < 1e-2


def test_invalid_input():
    a = flipped_huber_pld(1.0, 2.0, 1.0, 1e-3)
    with pytest.raises(ValueError, match="step"):
        flipped_huber_pld(1.0, 2.0, 1.0, 0.0)
    with pytest.raises(ValueError, match="step"):
        a.compose(flipped_huber_pld(1.0, 2.0, 1.0, 2e-3))
    with pytest.raises(ValueError, match="times"):
        a.self_compose(0)
    with pytest.raises(ValueError, match="gamma"):
        flipped_huber_pld(1.0, -2.0)
    with pytest.raises(ValueError, match="epsilon"):
        a.delta_upper(float("nan"))
    with pytest.raises(ValueError, match="delta"):
        a.epsilon(1.5)
    with pytest.raises(ValueError, match="step must be larger"):
        flipped_huber_pld(0.0, 0.01, 1.0, 1e-6)  # a grid of billions of points is refused
    up_only = flipped_huber_pld(1.0, 2.0, 1.0, 1e-3, upper_only=True)
    with pytest.raises(ValueError, match="lower bound"):
        up_only.delta_lower(1.0)
    assert not np.isnan(a.delta_bounds(np.linspace(-5, 50, 7))).any()


@pytest.mark.parametrize("b,D", [(55.829909013197025, 1.0), (200.0, 0.21544346900318853), (0.0, 30.0)])
def test_nearly_non_private_mechanisms_still_bracket(b, D):
    # delta(0) rounds to 1: the construction must degrade to valid (possibly trivial) bounds, never fail
    pld = kdim_pld(b, 1.0, 3, D)
    for e in [0.0, b * D, 3 * b * D + 1.0]:
        lo, up = pld.delta_bounds(e)
        assert 0.0 <= lo <= up <= 1.0
    one = kdim_pld(b, 1.0, 1, D)
    for e in [0.5 * b * D + 0.1, b * D + 0.5]:
        exact = float(fhsym.privacy_profile(e, b, 1.0, D))
        lo, up = one.delta_bounds(e)
        assert lo <= exact * (1 + 1e-8) + 1e-15 and exact <= up * (1 + 1e-12) + 1e-300


def test_huge_dim_is_refused_before_anything_is_convolved(monkeypatch):
    """Bounded work: the window of dim = 10^9 is estimated from the 1-D PLD and refused with the supported range
    (benchmarks/bench_pld.py times it: milliseconds), never convolved."""
    def boom(*args, **kwargs):
        raise AssertionError("a convolution was started")

    monkeypatch.setattr(P, "_power", boom)
    monkeypatch.setattr(P, "_convolve", boom)
    with pytest.raises(ValueError, match=r"dim must be at most ~\d+ .*got dim = 1000000000, rounds = 1.*FFT of ~\d+ points"):
        kdim_pld(alpha=1.0, gamma=3.0, dim=10**9)
    with pytest.raises(ValueError, match=r"dim must be at most .*rounds = 1000"):
        kdim_pld(alpha=1.0, gamma=3.0, dim=10**6, rounds=1000)


def test_window_does_not_grow_faster_than_sqrt_k():
    """No cliff: the K-fold window follows the Chernoff width ~ sqrt(K) (it used to follow the FFT noise floor ~ K)."""
    one = flipped_huber_pld(1.0, 3.0, 1.0, step=default_step_for(1.0, 3.0))
    sizes = {K: one.self_compose_fft_size(K) for K in (100, 1000, 10_000, 100_000)}
    for K in (1000, 10_000, 100_000):
        assert sizes[K] <= 8 * sizes[K // 10]  # sqrt(10) ~ 3.2, times the rounding to a 5-smooth length
    pld = one.self_compose(1000)
    assert pld.upper.pmf.size <= 2 * sizes[1000]
    # the certified float allowances at K = 1000: L1 slack plus the entrywise FFT bound over the window (mass above 1)
    assert pld.upper.slack + (math.fsum(pld.upper.pmf) + pld.upper.inf_mass - 1.0) < 1e-9


def default_step_for(alpha, gamma):
    from fhsym.accounting import default_step

    return default_step(alpha, gamma)
