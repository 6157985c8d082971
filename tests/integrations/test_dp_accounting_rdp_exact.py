"""Exact Poisson-subsampled RDP of FH in the RDP accountant (issue 30 item 4) and the vector (DP-SGD) event.

Independent references: dp_accounting's own sampled-Gaussian RDP (a peer: alpha = 0), mpmath quadrature
(30 digits) of the definition of the subsampled divergence in both directions, and the product structure
E[prod_i L_i^k] = prod_i E[L_i^k] with 1-D quadrature moments for vectors.
"""

from __future__ import annotations

import math

import mpmath as mp
import numpy as np
import pytest

pytest.importorskip("dp_accounting", reason="needs the optional dependency dp_accounting (extra dp-accounting)")

from dp_accounting import dp_event  # noqa: E402
from dp_accounting.privacy_accountant import UnsupportedEventError  # noqa: E402
from dp_accounting.rdp import rdp_privacy_accountant as rdp  # noqa: E402

import fhsym  # noqa: E402
from fhsym.integrations.dp_accounting import (  # noqa: E402
    FlippedHuberDpEvent,
    FlippedHuberPLDAccountant,
    FlippedHuberRdpAccountant,
)
from fhsym.integrations.renyi import flipped_huber_rdp, interpolated_rdp, poisson_subsampled_rdp  # noqa: E402
from fhsym.integrations.renyi_subsampled import (  # noqa: E402
    flipped_huber_subsampled_rdp,
    vector_rdp,
    vector_subsampled_rdp,
)


def _rho(a):
    return lambda t: a * abs(t) if abs(t) <= a else (t * t + a * a) / 2


def _subsampled_ref(lam, q, alpha, gamma, D):
    """(forward, backward): D_lam(P_q || P) and D_lam(P || P_q), P_q = (1-q) P + q P(. - D), by mpmath quadrature."""
    with mp.workdps(30):
        a, g, Dm, L, qq = (mp.mpf(x) for x in (alpha, gamma, D, lam, q))
        rho = _rho(a)
        Z = mp.quad(lambda t: mp.exp(-rho(t) / g**2), [-mp.inf, -a, 0, a, mp.inf])

        def P(t):
            return mp.exp(-rho(t) / g**2) / Z

        def Pq(t):
            return (1 - qq) * P(t) + qq * P(t - Dm)

        pts = sorted(set([-mp.inf, mp.inf, mp.mpf(0), a, -a, Dm, Dm - a, Dm + a, Dm * L, Dm / 2]))
        fwd = mp.quad(lambda t: Pq(t) ** L * P(t) ** (1 - L), pts)
        bwd = mp.quad(lambda t: P(t) ** L * Pq(t) ** (1 - L), pts)
        return float(mp.log(fwd) / (L - 1)), float(mp.log(bwd) / (L - 1))


Q_GRID = [0.001, 0.01, 0.1, 0.5]
SIGMAS = [0.5, 1.0, 2.0, 5.0]


def test_alpha_zero_equals_dp_accounting_sampled_gaussian():
    """Integer orders: dp_accounting's exact sum (1e-9 relative).  Fractional orders: dp_accounting's series adds
    |C(lam, i)| (an upper bound), so ours is below it and equal to quadrature of the definition."""
    ints = [2.0, 3.0, 5.0, 8.0, 16.0, 32.0]
    worst_int = 0.0
    for q in Q_GRID:
        for s in SIGMAS:
            ref = rdp._compute_rdp_poisson_subsampled_gaussian(q, s, ints)
            ours = np.array([flipped_huber_subsampled_rdp(o, q, 0.0, s) for o in ints])
            rel = np.abs(ours / ref - 1)
            worst_int = max(worst_int, float(np.max(rel)))
            assert np.all(rel <= 1e-9), (q, s, ours, ref)
    worst_frac_quad, above = 0.0, 0.0
    for q in Q_GRID:
        for s in SIGMAS:
            for o in (1.5, 4.5):
                ours = flipped_huber_subsampled_rdp(o, q, 0.0, s)
                peer = float(rdp._compute_rdp_poisson_subsampled_gaussian(q, s, [o])[0])
                assert ours <= peer * (1 + 1e-12)              # peer is an upper bound (or inf: not converged)
                if math.isfinite(peer):
                    above = max(above, peer / ours - 1)
                if s in (1.0, 5.0):
                    fwd, bwd = _subsampled_ref(o, q, 0.0, s, 1.0)
                    assert bwd <= fwd * (1 + 1e-12)
                    worst_frac_quad = max(worst_frac_quad, abs(ours / fwd - 1))
                    assert fwd <= ours <= fwd * (1 + 1e-9)
    print(f"\nalpha = 0: max relative difference to dp_accounting at integer orders {worst_int:.1e}; fractional "
          f"orders vs quadrature {worst_frac_quad:.1e}; dp_accounting's fractional values above exact by up to {above:.2%}")


@pytest.mark.parametrize("alpha,gamma", [(1.065, 1.065), (0.5, 1.0), (3.0, 1.5), (2.0, 0.7)])
@pytest.mark.parametrize("q", [0.01, 0.2])
def test_alpha_positive_matches_quadrature_and_is_below_zhu_wang(alpha, gamma, q):
    def base(ell):
        return flipped_huber_rdp(ell, alpha, gamma, 1.0)

    worst = 0.0
    for lam in (1.5, 2.0, 3.0, 4.5, 8.0):
        ours = flipped_huber_subsampled_rdp(lam, q, alpha, gamma)
        zw = interpolated_rdp(lam, lambda a: poisson_subsampled_rdp(a, q, base))
        assert ours <= zw
        fwd, bwd = _subsampled_ref(lam, q, alpha, gamma, 1.0)
        assert bwd <= fwd * (1 + 1e-12)                        # the second direction is dominated (proof in the module)
        assert fwd <= ours <= fwd * (1 + 1e-9)
        worst = max(worst, ours / fwd - 1)
    print(f"\nFH({alpha}, {gamma}), q = {q}: max relative excess over quadrature {worst:.1e}")


def test_smaller_shift_is_never_worse():
    # the worst shift is |v| = Delta (module docstring (A)): monotone in the shift
    vals = [flipped_huber_subsampled_rdp(3.5, 0.05, 1.0, 1.0, d) for d in (0.25, 0.5, 1.0)]
    assert vals[0] < vals[1] < vals[2]


def test_reproducer_epsilon_before_and_after():
    """Issue 30: SelfComposed(PoissonSampled(0.01, FH(0, 2)), 1000) at delta 1e-5."""
    def eps(acc, ev):
        acc.compose(dp_event.SelfComposedDpEvent(dp_event.PoissonSampledDpEvent(0.01, ev), 1000))
        return acc.get_epsilon(1e-5)

    orders = [1.5, 2.0, 3.0, 4.5, 8.0, 16.0, 20.0, 24.0, 28.0, 32.0, 48.0, 64.0]
    ours = eps(FlippedHuberRdpAccountant(orders), FlippedHuberDpEvent(0.0, 2.0))
    peer = eps(rdp.RdpAccountant(orders), dp_event.GaussianDpEvent(2.0))
    # the generic (Zhu-Wang) route, still used for mixed sub-events: a one-element ComposedDpEvent takes it
    zw = eps(FlippedHuberRdpAccountant(orders), dp_event.ComposedDpEvent([FlippedHuberDpEvent(0.0, 2.0)]))
    print(f"\nreproducer: exact route {ours:.6f}, dp_accounting {peer:.6f}, Zhu-Wang route {zw:.6f}")
    assert ours == pytest.approx(peer, rel=1e-9)
    assert ours == pytest.approx(0.686, abs=1e-3)
    assert zw == pytest.approx(0.903, abs=2e-3) and ours < zw


def test_vector_event_gaussian_limit_and_validation():
    ev = FlippedHuberDpEvent(0.0, 2.0, dim=10, l2_sensitivity=1.0)
    a, b = FlippedHuberRdpAccountant([2.0, 3.0, 8.0, 16.0, 32.0]), rdp.RdpAccountant([2.0, 3.0, 8.0, 16.0, 32.0])
    a.compose(dp_event.PoissonSampledDpEvent(0.01, ev), 100)
    b.compose(dp_event.PoissonSampledDpEvent(0.01, dp_event.GaussianDpEvent(2.0)), 100)
    assert np.allclose(a.rdp, b.rdp, rtol=1e-9)               # l2-clipped Gaussian: dimension-free
    with pytest.raises(ValueError, match="dim"):
        FlippedHuberDpEvent(1.0, 1.0, dim=0)
    with pytest.raises(ValueError, match="l2_sensitivity"):
        FlippedHuberDpEvent(1.0, 1.0, dim=3, l2_sensitivity=-1.0)
    with pytest.raises(UnsupportedEventError, match="FlippedHuberRdpAccountant"):
        FlippedHuberPLDAccountant(value_discretization_interval=1e-2).compose(
            dp_event.PoissonSampledDpEvent(0.01, FlippedHuberDpEvent(1.0, 1.0, dim=3, l2_sensitivity=1.0)))
    # 1-D: the shift is min(sensitivity, l2_sensitivity)
    one = FlippedHuberRdpAccountant([2.0])
    one.compose(FlippedHuberDpEvent(1.0, 1.0, 1.0, l2_sensitivity=0.5))
    assert one.rdp[0] == flipped_huber_rdp(2.0, 1.0, 1.0, 0.5)


def _moment_ref(k, alpha, gamma, d):
    """E_g[(g(. - d)/g)^k] by mpmath quadrature (1-D)."""
    with mp.workdps(25):
        a, g, dm = mp.mpf(alpha), mp.mpf(gamma), mp.mpf(d)
        rho = _rho(a)
        Z = mp.quad(lambda t: mp.exp(-rho(t) / g**2), [-mp.inf, -a, 0, a, mp.inf])
        pts = sorted(set([-mp.inf, mp.inf, mp.mpf(0), a, -a, dm, dm - a, dm + a, k * dm]))
        return mp.quad(lambda t: mp.exp(-(k * rho(t - dm) + (1 - k) * rho(t)) / g**2), pts) / Z


@pytest.mark.parametrize("alpha,gamma", [(1.0, 1.0), (3.0, 1.5)])
def test_vector_bound_covers_vectors_on_the_sphere(alpha, gamma):
    """dim = 3, l2 ball of radius 1: the bound is above the exact RDP (product of 1-D quadrature moments) of
    difference vectors on the sphere, un-subsampled and Poisson-subsampled, and below the box bound."""
    K, q = 3, 0.05
    rng = np.random.default_rng(7)
    dirs = [np.array([1.0, 0, 0]), np.ones(3) / math.sqrt(3), np.array([1.0, 1.0, 0]) / math.sqrt(2)]
    dirs += [np.abs(v) / np.linalg.norm(v) for v in rng.normal(size=(3, 3))]
    for lam in (2, 4):
        bound = vector_rdp(float(lam), alpha, gamma, K, 1.0, 1.0)
        sub = vector_subsampled_rdp(float(lam), q, alpha, gamma, K, 1.0, 1.0)
        assert bound <= K * flipped_huber_rdp(float(lam), alpha, gamma, 1.0)
        for d in dirs:
            mom = {k: mp.fprod(_moment_ref(k, alpha, gamma, x) for x in d) for k in range(2, lam + 1)}
            exact = float(mp.log(mom[lam]) / (lam - 1))
            assert exact <= bound
            A = sum(mp.binomial(lam, k) * (1 - mp.mpf(q)) ** (lam - k) * mp.mpf(q) ** k * (mom[k] if k >= 2 else 1)
                    for k in range(lam + 1))
            assert float(mp.log(A) / (lam - 1)) <= sub


def test_calibrate_sampling_rate_points_to_the_accountant():
    with pytest.raises(ValueError, match=r"fhsym\.integrations\.dp_accounting\.FlippedHuberRdpAccountant"):
        fhsym.calibrate(1.0, 1e-6, sampling_rate=0.01)
