"""FlippedHuberDpEvent and FlippedHuberPLDAccountant inside dp_accounting (skipped without dp_accounting).

Reference values: mpmath quadrature of the definition of the (subsampled) hockey-stick divergence,
dp_accounting's own Gaussian events / privacy losses (FH with alpha = 0 is the Gaussian), and the
certified brackets of fhsym's own PLD engine.  Discretisation h = 1e-3 keeps the file at a few seconds.
"""

from __future__ import annotations

import math

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("dp_accounting", reason="needs the optional dependency dp_accounting (extra dp-accounting)")

from dp_accounting import dp_event  # noqa: E402
from dp_accounting import privacy_accountant as pa  # noqa: E402
from dp_accounting.pld import pld_privacy_accountant as pldacc  # noqa: E402
from dp_accounting.pld import privacy_loss_distribution as pldlib  # noqa: E402
from dp_accounting.pld import privacy_loss_mechanism as plm  # noqa: E402

from fhsym.integrations import _accounting as fa  # noqa: E402  (fhsym's own PLD engine, one import point)
from fhsym.integrations.dp_accounting import (  # noqa: E402
    FlippedHuberDpEvent,
    FlippedHuberPLDAccountant,
    FlippedHuberPrivacyLoss,
    flipped_huber_pld,
    subsampled_privacy_profile,
)

H = 1e-3
ADD, REMOVE = plm.AdjacencyType.ADD, plm.AdjacencyType.REMOVE
NR = pa.NeighboringRelation


# ---------------------------------------------------------------------------
# mpmath reference: the hockey-stick divergence of the subsampled pair, from the definition
# ---------------------------------------------------------------------------


def _ref_subsampled(eps, alpha, gamma, D, q, adjacency, dps=30):
    """int [P - e^eps Q]_+ with g(t) = exp(-rho_alpha(t)/gamma^2)/kappa (eq 7, 8) and the mixtures of dp_accounting."""
    with mp.workdps(dps):
        a, g, D, q, e = (mp.mpf(x) for x in (alpha, gamma, D, q, eps))

        def rho(t):
            t = abs(t)
            return a * t if t <= a else (t * t + a * a) / 2

        kappa = 2 * (mp.quad(lambda t: mp.exp(-a * t / g**2), [0, a]) + mp.quad(lambda t: mp.exp(-(t * t + a * a) / (2 * g**2)), [a, mp.inf]))

        def pdf(t):
            return mp.exp(-rho(t) / g**2) / kappa

        if adjacency == REMOVE:
            def P(t):
                return q * pdf(t + D) + (1 - q) * pdf(t)

            def Q(t):
                return pdf(t)
        else:
            def P(t):
                return pdf(t)

            def Q(t):
                return q * pdf(t - D) + (1 - q) * pdf(t)

        def f(t):
            return P(t) - mp.exp(e) * Q(t)

        # the likelihood ratio P/Q is non-increasing in t, so {f > 0} = (-inf, x*]
        lo, hi = -60 * g - 10 * D - 10 * a, 60 * g + 10 * D + 10 * a
        if f(hi) > 0:
            x = hi
        elif f(lo) <= 0:
            return mp.mpf(0)
        else:
            for _ in range(200):
                mid = (lo + hi) / 2
                if f(mid) > 0:
                    lo = mid
                else:
                    hi = mid
            x = lo
        kinks = sorted({k for k in (-a - D, -a, -a + D, a - D, a, a + D, -D, D, mp.mpf(0)) if k < x})  # kinks of rho(t), rho(t +- D)
        # the integrand can be concentrated next to x* (far tails): extra nodes at x* - 2^k keep quad accurate
        pts = sorted(set(kinks) | {x - mp.mpf(2) ** k for k in range(-4, 9)})
        return mp.quad(f, [-mp.inf, *pts, x])


@pytest.mark.parametrize("adjacency", [REMOVE, ADD])
@pytest.mark.parametrize("alpha,gamma,D,q,eps", [(1.0, 2.0, 1.0, 0.3, 0.2), (3.0, 1.0, 0.5, 0.01, 0.005), (0.5, 1.0, 1.0, 0.05, 0.04)])
def test_subsampled_profile_matches_mpmath(adjacency, alpha, gamma, D, q, eps):
    ref = float(_ref_subsampled(eps, alpha, gamma, D, q, adjacency))
    got = subsampled_privacy_profile(eps, alpha, gamma, D, q, adjacency)
    assert ref > 1e-12
    assert got == pytest.approx(ref, rel=1e-10)


@pytest.mark.parametrize("eps,q", [(3e-5, 1e-4), (0.9, 0.01), (1.2, 0.01), (40.0, 0.5)])
def test_subsampled_remove_transform_is_accurate(eps, q):
    """q delta_0(log(1 + (e^eps - 1)/q)) with the transform in mpmath and delta_0 from the mpmath harness:
    the float transform must not cancel (small eps, small q) nor overflow (large eps)."""
    from proofs import reference as R

    alpha, gamma = 1.0, 30.0 if eps < 10 else 0.5
    with mp.workdps(50):
        t = mp.log1p(mp.expm1(mp.mpf(eps)) / mp.mpf(q))
        ref = float(mp.mpf(q) * R.privacy_profile(t, alpha, gamma, 1.0, dps=40))
    assert subsampled_privacy_profile(eps, alpha, gamma, 1.0, q, REMOVE) == pytest.approx(ref, rel=1e-12)


@pytest.mark.parametrize("adjacency", [REMOVE, ADD])
def test_subsampled_profile_alpha0_is_dp_accountings_gaussian(adjacency):
    eps = np.array([-0.5, -0.01, 0.0, 0.005, 0.05, 0.3, 1.0])
    for sigma, q in [(1.5, 0.05), (0.8, 0.3)]:
        ours = subsampled_privacy_profile(eps, 0.0, sigma, 1.0, q, adjacency)
        theirs = plm.GaussianPrivacyLoss(sigma, 1.0, sampling_prob=q, adjacency_type=adjacency).get_delta_for_epsilon(eps)
        keep = theirs > 1e-8  # dp_accounting's own CDF differences lose relative accuracy below
        assert np.max(np.abs(ours[keep] - theirs[keep]) / theirs[keep]) < 1e-9


@settings(max_examples=20)
@given(alpha=st.floats(0.0, 4.0), gamma=st.floats(0.3, 3.0), q=st.floats(0.005, 1.0), eps=st.floats(-1.0, 2.0),
       add=st.booleans())
def test_subsampled_profile_matches_dp_accountings_generic_route(alpha, gamma, q, eps, add):
    """The closed form (amplification identity) against dp_accounting's inverse-loss + CDF route."""
    pl = FlippedHuberPrivacyLoss(alpha, gamma, 1.0, sampling_prob=q, adjacency_type=ADD if add else REMOVE)
    closed = pl.get_delta_for_epsilon(eps)
    generic = pl.generic_delta_for_epsilon(eps)
    assert abs(closed - generic) <= 1e-9 * closed + 1e-13


# ---------------------------------------------------------------------------
# the event
# ---------------------------------------------------------------------------


def test_event_is_validated_and_serialisable():
    ev = FlippedHuberDpEvent(1, np.float64(2.0), 0.5)
    assert (ev.alpha, ev.gamma, ev.sensitivity) == (1.0, 2.0, 0.5) and type(ev.alpha) is float
    assert dp_event.DpEvent.from_named_tuple(ev.to_named_tuple()) == ev
    for kwargs, name in [({"alpha": -1.0, "gamma": 1.0}, "alpha"), ({"alpha": 1.0, "gamma": 0.0}, "gamma"),
                         ({"alpha": 1.0, "gamma": math.nan}, "gamma"), ({"alpha": 1.0, "gamma": 1.0, "sensitivity": -2.0}, "sensitivity"),
                         ({"alpha": math.inf, "gamma": 1.0}, "alpha")]:
        with pytest.raises(ValueError, match=name):
            FlippedHuberDpEvent(**kwargs)


# ---------------------------------------------------------------------------
# FH with alpha = 0 is the Gaussian: same epsilon as dp_accounting's GaussianDpEvent
# ---------------------------------------------------------------------------


def test_poisson_sampled_fh0_equals_gaussian_event():
    q, sigma, T, target = 0.01, 1.0, 1000, 1e-5
    fh = FlippedHuberPLDAccountant(value_discretization_interval=H).compose(
        dp_event.SelfComposedDpEvent(dp_event.PoissonSampledDpEvent(q, FlippedHuberDpEvent(0.0, sigma)), T))
    ga = pldacc.PLDAccountant(value_discretization_interval=H).compose(
        dp_event.SelfComposedDpEvent(dp_event.PoissonSampledDpEvent(q, dp_event.GaussianDpEvent(sigma)), T))
    e_fh, e_ga = fh.get_epsilon(target), ga.get_epsilon(target)
    # the same discretisation of the same pair: equal up to the certified margin on the profile
    assert abs(e_fh - e_ga) <= 1e-6 * e_ga
    assert e_fh >= e_ga * (1 - 1e-12)
    # and above dp_accounting's optimistic (privacy-buckets) estimate: inside the discretisation bracket
    opt = pldlib.from_gaussian_mechanism(sigma, value_discretization_interval=H, sampling_prob=q, pessimistic_estimate=False,
                                         use_connect_dots=False).self_compose(T)
    assert opt.get_epsilon_for_delta(target) <= e_fh
    # delta at a fixed epsilon, too
    assert fh.get_delta(1.0) == pytest.approx(ga.get_delta(1.0), rel=1e-6)


def test_self_composed_fh0_equals_gaussian_event_within_fhsyms_bracket():
    sigma, T, target = 3.0, 50, 1e-5
    fh = FlippedHuberPLDAccountant(value_discretization_interval=H).compose(dp_event.SelfComposedDpEvent(FlippedHuberDpEvent(0.0, sigma), T))
    ga = pldacc.PLDAccountant(value_discretization_interval=H).compose(dp_event.SelfComposedDpEvent(dp_event.GaussianDpEvent(sigma), T))
    lo, up = fa.gaussian_pld(sigma, 1.0, H).self_compose(T).epsilon_bounds(target)
    e_fh, e_ga = fh.get_epsilon(target), ga.get_epsilon(target)
    for e in (e_fh, e_ga):
        assert lo <= e <= up * (1 + 1e-9)
    assert abs(e_fh - e_ga) <= 1e-5 * e_ga  # both inside a bracket of relative width ~6e-6


# ---------------------------------------------------------------------------
# FH among dp_accounting's events: fhsym's own composition brackets the accountant
# ---------------------------------------------------------------------------


def test_fh_with_gaussian_and_laplace_matches_fhsyms_composition():
    acc = FlippedHuberPLDAccountant(value_discretization_interval=H).compose(
        dp_event.ComposedDpEvent([FlippedHuberDpEvent(1.0, 2.0), dp_event.GaussianDpEvent(1.5), dp_event.LaplaceDpEvent(2.0)]))
    ours = fa.compose([fa.flipped_huber_pld(1.0, 2.0, 1.0, H), fa.gaussian_pld(1.5, 1.0, H), fa.laplace_pld(2.0, 1.0, H)])
    for e in (0.0, 0.5, 1.0, 2.0, 4.0):
        lo, up = ours.delta_bounds(e)
        d = acc.get_delta(e)
        # fhsym's lower bound is certified; dp_accounting's Gaussian truncates its tails at e^-50
        assert lo <= d <= up * (1 + 1e-6) + 1e-15
    lo, up = ours.epsilon_bounds(1e-6)
    assert lo <= acc.get_epsilon(1e-6) <= up * (1 + 1e-6)


def test_fh_pld_and_fh_event_agree_and_different_intervals_are_handled():
    """The accountant builds every PLD at its own interval; the bare PLD equals the accountant's."""
    h = 2e-4
    acc = FlippedHuberPLDAccountant(value_discretization_interval=h).compose(FlippedHuberDpEvent(1.0, 2.0)).compose(
        dp_event.GaussianDpEvent(1.5))
    bare = flipped_huber_pld(1.0, 2.0, value_discretization_interval=h).compose(
        pldlib.from_gaussian_mechanism(1.5, value_discretization_interval=h))
    assert acc.get_delta(1.0) == pytest.approx(bare.get_delta_for_epsilon(1.0), rel=1e-12)
    with pytest.raises(ValueError, match="Discretization"):  # the limitation the accountant removes
        flipped_huber_pld(1.0, 2.0, value_discretization_interval=h).compose(pldlib.from_gaussian_mechanism(1.5))


# ---------------------------------------------------------------------------
# never below an independent lower bound
# ---------------------------------------------------------------------------


def test_accountant_delta_is_above_the_exact_profile():
    from proofs import reference as R

    acc = FlippedHuberPLDAccountant(value_discretization_interval=H).compose(FlippedHuberDpEvent(1.0, 2.0))
    for e in (0.0, 0.3, 1.5, 3.0):
        ref = float(R.privacy_profile(e, 1.0, 2.0, 1.0, dps=30))
        d = acc.get_delta(e)
        assert ref <= d <= ref * (1 + 1e-5) + 1e-12  # pessimistic, and O(h^2) tight
    # one subsampled step: above the larger of the exact ADD and REMOVE profiles (mpmath)
    acc = FlippedHuberPLDAccountant(value_discretization_interval=H).compose(dp_event.PoissonSampledDpEvent(0.1, FlippedHuberDpEvent(0.5, 1.0)))
    for e in (0.05, 0.2):
        ref = max(float(_ref_subsampled(e, 0.5, 1.0, 1.0, 0.1, a)) for a in (ADD, REMOVE))
        assert ref <= acc.get_delta(e) <= ref * (1 + 1e-3)


def test_many_steps_delta_is_above_fhsyms_lower_bound():
    acc = FlippedHuberPLDAccountant(value_discretization_interval=H).compose(dp_event.SelfComposedDpEvent(FlippedHuberDpEvent(2.0, 3.0), 40))
    ours = fa.flipped_huber_pld(2.0, 3.0, 1.0, H).self_compose(40)
    for e in (1.0, 3.0, 6.0):
        lo, up = ours.delta_bounds(e)
        assert lo <= acc.get_delta(e) <= up * (1 + 1e-6) + 1e-15


# ---------------------------------------------------------------------------
# neighbouring relations, unsupported events
# ---------------------------------------------------------------------------


def test_replace_one_is_twice_the_sensitivity_as_for_dp_accountings_gaussian():
    rep = FlippedHuberPLDAccountant(NR.REPLACE_ONE, H).compose(FlippedHuberDpEvent(1.0, 2.0, 0.5))
    two = FlippedHuberPLDAccountant(NR.ADD_OR_REMOVE_ONE, H).compose(FlippedHuberDpEvent(1.0, 2.0, 1.0))
    assert rep.get_delta(0.5) == pytest.approx(two.get_delta(0.5), rel=1e-12)
    g_fh = FlippedHuberPLDAccountant(NR.REPLACE_ONE, H).compose(FlippedHuberDpEvent(0.0, 2.0))
    g_da = pldacc.PLDAccountant(NR.REPLACE_ONE, H).compose(dp_event.GaussianDpEvent(2.0))
    assert g_fh.get_epsilon(1e-6) == pytest.approx(g_da.get_epsilon(1e-6), rel=1e-6)


def test_unsupported_events_raise_and_are_not_supported():
    acc = FlippedHuberPLDAccountant(value_discretization_interval=H)
    fh = FlippedHuberDpEvent(1.0, 2.0)
    good = dp_event.ComposedDpEvent([dp_event.SelfComposedDpEvent(fh, 3), dp_event.PoissonSampledDpEvent(0.1, fh),
                                     dp_event.GaussianDpEvent(2.0), dp_event.NoOpDpEvent()])
    assert acc.supports(good)
    bad = [dp_event.PoissonSampledDpEvent(0.1, dp_event.SelfComposedDpEvent(fh, 2)), dp_event.UnsupportedDpEvent(),
           dp_event.ComposedDpEvent([fh, dp_event.SampledWithReplacementDpEvent(100, 10, fh)])]
    for ev in bad:
        assert not acc.supports(ev)
        with pytest.raises(pa.UnsupportedEventError, match="Unsupported event"):
            acc.compose(ev)
    rep = FlippedHuberPLDAccountant(NR.REPLACE_ONE, H)
    with pytest.raises(pa.UnsupportedEventError, match="FlippedHuberDpEvent"):
        rep.compose(dp_event.PoissonSampledDpEvent(0.1, fh))
    # nothing was composed by the failed calls
    assert acc.get_delta(0.0) == 0.0
    with pytest.raises(ValueError, match="value_discretization_interval"):
        FlippedHuberPLDAccountant(value_discretization_interval=0.0)
    with pytest.raises(ValueError, match="sampling_prob"):
        flipped_huber_pld(1.0, 2.0, sampling_prob=0.5, neighboring_relation=NR.REPLACE_ONE)
    # sampling probability 0 is a no-op, as for dp_accounting's Gaussian
    assert FlippedHuberPLDAccountant(value_discretization_interval=H).compose(dp_event.PoissonSampledDpEvent(0.0, fh)).get_delta(0.0) == 0.0
