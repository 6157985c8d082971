"""Flipped Huber in dp_accounting's RDP accountant: certified Renyi divergences and subsampling bounds.

References are independent of the code under test: mpmath quadrature (30 digits) of the definitions
D_lam(P || Q) = log(int p^lam q^(1-lam))/(lam - 1) for the shifted FH pair and for the Poisson-subsampled
pair (Q, (1-q) Q + q P) in both directions; dp_accounting's own exact RDP of the (sampled) Gaussian.
"""

from __future__ import annotations

import math

import mpmath as mp
import numpy as np
import pytest

pytest.importorskip("dp_accounting", reason="needs the optional dependency dp_accounting (extra dp-accounting)")

from dp_accounting import dp_event  # noqa: E402
from dp_accounting.privacy_accountant import NeighboringRelation as NR  # noqa: E402
from dp_accounting.privacy_accountant import UnsupportedEventError  # noqa: E402
from dp_accounting.rdp import rdp_privacy_accountant as rdp  # noqa: E402

import fhsym  # noqa: E402
from fhsym.integrations.dp_accounting import FlippedHuberDpEvent, FlippedHuberRdpAccountant, to_zcdp_event  # noqa: E402
from fhsym.integrations.renyi import (  # noqa: E402
    flipped_huber_rdp,
    flipped_huber_rdp_zcdp,
    interpolated_rdp,
    poisson_subsampled_rdp,
    without_replacement_subsampled_rdp,
)


def _rho(a):
    return lambda t: a * abs(t) if abs(t) <= a else (t * t + a * a) / 2


def _pts(a, D, extra=()):
    return sorted(set([-mp.inf, mp.inf, mp.mpf(0), a, -a, -D, -D + a, -D - a, *extra]))


def _renyi_ref(lam, alpha, gamma, D):
    """mpmath quadrature of D_lam(T || T + D) (the integrand's peak (lam - 1) D is a breakpoint)."""
    with mp.workdps(30):
        a, g, Dm, L = (mp.mpf(x) for x in (alpha, gamma, D, lam))
        rho = _rho(a)
        Z = mp.quad(lambda t: mp.exp(-rho(t) / g**2), [-mp.inf, -a, 0, a, mp.inf])
        I = mp.quad(lambda t: mp.exp(-(L * rho(t) + (1 - L) * rho(t + Dm)) / g**2), _pts(a, Dm, [(L - 1) * Dm]))
        return float(mp.log(I / Z) / (L - 1))


def _kl_ref(alpha, gamma, D):
    with mp.workdps(30):
        a, g, Dm = (mp.mpf(x) for x in (alpha, gamma, D))
        rho = _rho(a)
        Z = mp.quad(lambda t: mp.exp(-rho(t) / g**2), [-mp.inf, -a, 0, a, mp.inf])
        return float(mp.quad(lambda t: mp.exp(-rho(t) / g**2) / Z * (rho(t + Dm) - rho(t)) / g**2, _pts(a, Dm)))


def _subsampled_ref(lam, q, alpha, gamma, D):
    """max of D_lam(P_q || Q) and D_lam(Q || P_q), P_q = (1-q) Q + q Q(. + D), Q the FH density (mpmath)."""
    with mp.workdps(30):
        a, g, Dm, L, qq = (mp.mpf(x) for x in (alpha, gamma, D, lam, q))
        rho = _rho(a)
        Z = mp.quad(lambda t: mp.exp(-rho(t) / g**2), [-mp.inf, -a, 0, a, mp.inf])

        def Q(t):
            return mp.exp(-rho(t) / g**2) / Z

        def P(t):
            return (1 - qq) * Q(t) + qq * Q(t + Dm)

        pts = _pts(a, Dm, [-Dm * L, Dm * L])
        fwd = mp.quad(lambda t: P(t) ** L * Q(t) ** (1 - L), pts)
        bwd = mp.quad(lambda t: Q(t) ** L * P(t) ** (1 - L), pts)
        return float(mp.log(fwd) / (L - 1)), float(mp.log(bwd) / (L - 1))


# ---------------------------------------------------------------------------- the divergences
CASES = [(2.0, 0.0, 1.0, 1.0), (2.0, 1.0, 2.0, 1.0), (1.1, 5.0, 1.0, 2.0), (1.5, 1.0, 2.0, 1.0),
         (3.0, 0.5, 0.2, 1.0), (10.0, 3.0, 1.0, 0.5), (64.0, 11.0, 3.3, 1.0), (256.0, 1.0, 2.0, 1.0),
         (1024.0, 0.25, 4.0, 1.0)]


@pytest.mark.parametrize("lam,alpha,gamma,D", CASES)
def test_renyi_divergence_is_a_tight_upper_bound(lam, alpha, gamma, D):
    ref = _renyi_ref(lam, alpha, gamma, D)
    got = flipped_huber_rdp(lam, alpha, gamma, D)
    assert ref <= got <= ref * (1 + 1e-13) + 1e-300
    zc = flipped_huber_rdp_zcdp(lam, alpha, gamma, D)
    assert got <= zc                                  # never looser than fhsym's zCDP bound
    if alpha == 0.0:
        assert got == pytest.approx(lam * D * D / (2 * gamma * gamma), rel=1e-15)


def test_order_one_and_infinity():
    kl = _kl_ref(1.0, 2.0, 1.0)
    assert kl <= flipped_huber_rdp(1.0, 1.0, 2.0, 1.0) <= kl * (1 + 1e-5)
    assert flipped_huber_rdp(math.inf, 1.0, 2.0) == math.inf
    with pytest.raises(ValueError, match="order"):
        flipped_huber_rdp(0.5, 1.0, 2.0)
    with pytest.raises(ValueError, match="gamma"):
        flipped_huber_rdp(2.0, 1.0, 0.0)


@pytest.mark.parametrize("alpha,gamma", [(1.0, 2.0), (0.5, 1.0), (3.0, 1.5)])
@pytest.mark.parametrize("q", [0.01, 0.2])
def test_poisson_bound_covers_both_directions(alpha, gamma, q):
    def base(ell):
        return flipped_huber_rdp(ell, alpha, gamma, 1.0)

    for lam in (2, 3, 8):
        fwd, bwd = _subsampled_ref(lam, q, alpha, gamma, 1.0)
        got = poisson_subsampled_rdp(lam, q, base)
        assert max(fwd, bwd) <= got <= base(lam)
    for lam in (1.5, 2.5):                            # non-integer orders: the cumulant's chord
        fwd, bwd = _subsampled_ref(lam, q, alpha, gamma, 1.0)
        assert max(fwd, bwd) <= interpolated_rdp(lam, lambda a: poisson_subsampled_rdp(a, q, base))


def test_sampled_gaussian_limits_agree_with_dp_accounting():
    # alpha = 0 is the Gaussian: dp_accounting's exact sampled-Gaussian RDP (Mironov, Talwar & Zhang 2019) is below
    # the general bound, which pays a factor 3 on the terms l >= 3 (at most log(3)/(order - 1) more, Zhu & Wang)
    orders = [2.0, 3.0, 8.0, 20.0]
    for q in (0.01, 0.1):
        exact = rdp._compute_rdp_poisson_subsampled_gaussian(q, 1.5, orders)

        def base(ell):
            return flipped_huber_rdp(ell, 0.0, 1.5, 1.0)

        ours = np.array([poisson_subsampled_rdp(int(o), q, base) for o in orders])
        print(f"q={q}: general bound / exact sampled-Gaussian RDP at orders {orders}: {np.round(ours / exact, 3)}")
        assert np.all(exact <= ours * (1 + 1e-12)) and np.all(ours - exact <= np.log(3.0) / (np.array(orders) - 1.0) + 1e-9)
        assert ours[0] == pytest.approx(exact[0], rel=1e-9)   # order 2 has no l >= 3 term: exact
    # without replacement: Theorem 9 with eps(inf) = inf reproduces dp_accounting's Gaussian (its Theorem 27)
    wor = rdp._compute_rdp_sample_wor_gaussian(0.01, 1.0, orders)
    ours = [without_replacement_subsampled_rdp(int(o), 0.01, lambda ell: flipped_huber_rdp(ell, 0.0, 1.0, 1.0)) for o in orders]
    assert np.allclose(ours, wor, rtol=1e-12)


# ---------------------------------------------------------------------------- the accountant
def test_fh_events_in_the_rdp_accountant():
    with pytest.raises(UnsupportedEventError):
        rdp.RdpAccountant().compose(FlippedHuberDpEvent(1.0, 1.0))    # dp_accounting alone
    acc = FlippedHuberRdpAccountant()
    acc.compose(FlippedHuberDpEvent(1.0, 1.0))
    orders = acc.orders
    assert np.all(acc.rdp == np.array([flipped_huber_rdp(o, 1.0, 1.0) for o in orders]))
    eps = acc.get_epsilon(1e-6)
    assert eps >= float(fhsym.epsilon_for_delta(1e-6, 1.0, 1.0, 1.0))   # RDP conversion: valid, looser than the profile
    # the stock accountant through the zCDP event: valid and looser
    stock = rdp.RdpAccountant()
    stock.compose(to_zcdp_event(FlippedHuberDpEvent(1.0, 1.0)))
    print(f"\nFH(1, 1), eps at delta = 1e-6: exact divergences {eps:.4f}, stock RdpAccountant + zCDP event "
          f"{stock.get_epsilon(1e-6):.4f}, the profile itself {float(fhsym.epsilon_for_delta(1e-6, 1.0, 1.0, 1.0)):.4f}")
    assert stock.get_epsilon(1e-6) >= eps
    # FH(0, sigma) is the Gaussian: the same epsilon as dp_accounting's GaussianDpEvent
    a1, a2 = FlippedHuberRdpAccountant(), rdp.RdpAccountant()
    a1.compose(dp_event.SelfComposedDpEvent(FlippedHuberDpEvent(0.0, 2.0), 10))
    a2.compose(dp_event.SelfComposedDpEvent(dp_event.GaussianDpEvent(2.0), 10))
    assert a1.get_epsilon(1e-6) == pytest.approx(a2.get_epsilon(1e-6), rel=1e-12)
    # compositions mix FH with dp_accounting's events: the curves add
    mix = FlippedHuberRdpAccountant()
    mix.compose(dp_event.ComposedDpEvent([FlippedHuberDpEvent(1.0, 2.0), dp_event.GaussianDpEvent(1.5),
                                          dp_event.LaplaceDpEvent(2.0)]))
    parts = [FlippedHuberRdpAccountant() for _ in range(3)]
    for p, e in zip(parts, [FlippedHuberDpEvent(1.0, 2.0), dp_event.GaussianDpEvent(1.5), dp_event.LaplaceDpEvent(2.0)]):
        p.compose(e)
    assert np.allclose(mix.rdp, sum(p.rdp for p in parts), rtol=1e-14)


def test_subsampled_events_in_the_rdp_accountant():
    ev = dp_event.PoissonSampledDpEvent(0.01, FlippedHuberDpEvent(1.065, 1.065))
    acc = FlippedHuberRdpAccountant(orders=[1.5, 2.0, 3.0, 8.0, 300.0])
    acc.compose(dp_event.SelfComposedDpEvent(ev, 1000))
    base = [flipped_huber_rdp(o, 1.065, 1.065) for o in (2.0, 3.0, 8.0)]
    assert np.all(acc.rdp[1:4] <= 1000 * np.array(base))
    assert acc.rdp[4] == 1000 * flipped_huber_rdp(300.0, 1.065, 1.065)   # above MAX_SUBSAMPLED_ORDER: the cap
    assert acc.rdp[1] == pytest.approx(1000 * poisson_subsampled_rdp(2, 0.01, lambda o: flipped_huber_rdp(o, 1.065, 1.065)))
    # the sampled Gaussian keeps dp_accounting's exact formula (the sub-event has no FH)
    g1, g2 = FlippedHuberRdpAccountant(), rdp.RdpAccountant()
    for a in (g1, g2):
        a.compose(dp_event.PoissonSampledDpEvent(0.01, dp_event.GaussianDpEvent(1.0)), 100)
    assert np.all(g1.rdp == g2.rdp)
    # a sub-event mixing FH and Gaussian under one Poisson sample
    mixed = FlippedHuberRdpAccountant(orders=[2.0, 4.0])
    mixed.compose(dp_event.PoissonSampledDpEvent(0.1, dp_event.ComposedDpEvent(
        [FlippedHuberDpEvent(1.0, 2.0), dp_event.GaussianDpEvent(2.0)])))
    alone = FlippedHuberRdpAccountant(orders=[2.0, 4.0])
    alone.compose(dp_event.PoissonSampledDpEvent(0.1, FlippedHuberDpEvent(1.0, 2.0)))
    assert np.all(mixed.rdp > alone.rdp)
    # without replacement, replace-one neighbours (the FH event moves by 2 Delta)
    w = FlippedHuberRdpAccountant(orders=[2.0, 5.0], neighboring_relation=NR.REPLACE_ONE)
    w.compose(dp_event.SampledWithoutReplacementDpEvent(1000, 10, FlippedHuberDpEvent(1.0, 2.0)))
    assert w.rdp[0] == pytest.approx(without_replacement_subsampled_rdp(2, 0.01, lambda o: flipped_huber_rdp(o, 1.0, 2.0, 2.0)))


def test_unsupported_combinations_raise():
    with pytest.raises(UnsupportedEventError, match="REPLACE_ONE|ADD_OR_REMOVE_ONE"):
        FlippedHuberRdpAccountant(neighboring_relation=NR.REPLACE_ONE).compose(
            dp_event.PoissonSampledDpEvent(0.1, FlippedHuberDpEvent(1.0, 1.0)))
    with pytest.raises(UnsupportedEventError, match="REPLACE_ONE"):
        FlippedHuberRdpAccountant().compose(dp_event.SampledWithoutReplacementDpEvent(100, 10, FlippedHuberDpEvent(1.0, 1.0)))
    with pytest.raises(UnsupportedEventError, match="sub-event"):
        FlippedHuberRdpAccountant().compose(dp_event.PoissonSampledDpEvent(0.1, dp_event.ComposedDpEvent(
            [FlippedHuberDpEvent(1.0, 1.0), dp_event.UnsupportedDpEvent()])))
    assert not FlippedHuberRdpAccountant().supports(dp_event.SampledWithReplacementDpEvent(10, 2, FlippedHuberDpEvent(1.0, 1.0)))
    with pytest.raises(ValueError, match="orders"):
        FlippedHuberRdpAccountant(orders=[0.5, 2.0])
    with pytest.raises(ValueError, match="order must be an integer"):
        poisson_subsampled_rdp(2.5, 0.1, lambda o: 1.0)


def test_rdp_against_pld_in_a_dpsgd_setting():
    """q = 0.01, 1000 steps, delta = 1e-5: the RDP route (exact subsampled RDP) is valid and looser than the PLD route
    (the RDP-to-DP conversion); at alpha = 0 it is dp_accounting's sampled Gaussian (printed for the docs)."""
    from fhsym.integrations.dp_accounting import FlippedHuberPLDAccountant

    rows = []
    for name, ev in [("FH(1.065, 1.065)", FlippedHuberDpEvent(1.065, 1.065)), ("FH(0, 1) = Gaussian(1)", FlippedHuberDpEvent(0.0, 1.0))]:
        composed = dp_event.SelfComposedDpEvent(dp_event.PoissonSampledDpEvent(0.01, ev), 1000)
        r = FlippedHuberRdpAccountant()
        r.compose(composed)
        p = FlippedHuberPLDAccountant(value_discretization_interval=1e-3)
        p.compose(composed)
        rows.append((name, r.get_epsilon(1e-5), p.get_epsilon(1e-5)))
    g = rdp.RdpAccountant()
    g.compose(dp_event.SelfComposedDpEvent(dp_event.PoissonSampledDpEvent(0.01, dp_event.GaussianDpEvent(1.0)), 1000))
    print("\nq = 0.01, 1000 steps, eps at delta = 1e-5:")
    for name, e_rdp, e_pld in rows:
        print(f"  {name:24s} RDP (exact subsampled RDP) {e_rdp:.4f}   PLD (exact amplification, h = 1e-3) {e_pld:.4f}")
    print(f"  {'GaussianDpEvent(1)':24s} RDP (dp_accounting, exact sampled Gaussian) {g.get_epsilon(1e-5):.4f}")
    for _, e_rdp, e_pld in rows:
        assert e_pld < e_rdp
    # the exact route is dp_accounting's Gaussian at integer orders; at fractional ones dp_accounting's series is an
    # upper bound (it adds |C(lam, i)|), so ours may only be lower
    assert rows[1][1] <= g.get_epsilon(1e-5) * (1 + 1e-12) and rows[1][1] == pytest.approx(g.get_epsilon(1e-5), rel=1e-5)
