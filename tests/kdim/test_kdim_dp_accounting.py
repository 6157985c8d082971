"""The optional dp_accounting adapter (skipped when dp_accounting is not installed)."""

from __future__ import annotations


import numpy as np
import pytest

pytest.importorskip("dp_accounting")

from dp_accounting.pld import privacy_loss_distribution as pldlib  # noqa: E402
from dp_accounting.pld import privacy_loss_mechanism as plm  # noqa: E402

import fhsym  # noqa: E402
from fhsym.integrations.dp_accounting import FlippedHuberPrivacyLoss, flipped_huber_pld, to_dp_accounting  # noqa: E402
from fhsym.accounting import flipped_huber_pld as fh_pld, gaussian_pld, kdim_pld  # noqa: E402



@pytest.mark.parametrize("alpha,gamma,Delta", [(1.0, 2.0, 1.0), (0.0, 1.5, 1.0), (5.0, 1.0, 0.5), (0.2, 3.0, 2.0)])
def test_adapter_profile_matches_the_closed_form(alpha, gamma, Delta):
    pl = FlippedHuberPrivacyLoss(alpha, gamma, Delta)
    eps = np.array([0.0, 0.1, 0.25, 0.5, 1.0, 2.0])
    generic = np.array([pl.generic_delta_for_epsilon(e) for e in eps])  # dp_accounting's own route: inverse loss + CDFs
    closed = fhsym.privacy_profile(eps, alpha, gamma, Delta)
    keep = closed > 1e-300
    assert np.max(np.abs(generic[keep] - closed[keep]) / closed[keep]) < 1e-9
    np.testing.assert_allclose(pl.get_delta_for_epsilon(eps), np.clip(closed, 0, 1), rtol=1e-15)


def test_adapter_profile_matches_mpmath():
    from proofs import reference as R

    pl = FlippedHuberPrivacyLoss(1.0, 2.0, 1.0)
    for e in (0.3, 1.5):
        ref = float(R.privacy_profile(e, 1.0, 2.0, 1.0, dps=30))
        assert pl.generic_delta_for_epsilon(e) == pytest.approx(ref, rel=1e-9)


def test_adapter_contract():
    pl = FlippedHuberPrivacyLoss(1.0, 2.0, 1.0)
    xs = np.linspace(-8, 8, 401)
    losses = np.array([pl.privacy_loss(x) for x in xs])
    assert np.all(np.diff(losses) <= 1e-12)  # non-increasing in x
    for l in (-0.3, 0.0, 0.2, 0.5):
        x = pl.inverse_privacy_loss(l)
        assert pl.privacy_loss(x) >= l - 1e-12 and pl.privacy_loss(x + 1e-6) < l  # the largest such x
    # negative eps: the symmetric duality, against dp_accounting's generic route
    assert pl.get_delta_for_epsilon(-0.4) == pytest.approx(pl.generic_delta_for_epsilon(-0.4), rel=1e-9)
    assert np.all(np.asarray(pl.get_delta_for_epsilon([-50.0, 0.0, 50.0])) <= 1.0)
    with pytest.raises(ValueError, match="adjacency_type"):
        FlippedHuberPrivacyLoss(1.0, 2.0, 1.0, adjacency_type=plm.AdjacencyType.REPLACE)


def test_composition_with_a_gaussian_matches_fhsym():
    h = 1e-4
    theirs = flipped_huber_pld(1.0, 2.0, 1.0, h).compose(pldlib.from_gaussian_mechanism(1.5, 1.0, value_discretization_interval=h))
    ours = fh_pld(1.0, 2.0, 1.0, h).compose(gaussian_pld(1.5, 1.0, h))
    for e in (0.0, 0.5, 1.0, 2.0, 4.0):
        lo, up = ours.delta_bounds(e)
        d = theirs.get_delta_for_epsilon(e)
        # dp_accounting's value is a pessimistic estimate of the same discretisation: inside fhsym's bracket,
        # up to dp_accounting's own rounding (the Gaussian's tail truncation at e^-50)
        assert lo * (1 - 1e-9) <= d <= up * (1 + 1e-7) + 1e-15


def test_kdim_pld_exports_to_dp_accounting():
    ours = kdim_pld(1.0, 3.0, 5)
    theirs = to_dp_accounting(ours)
    for e in (0.5, 1.0):
        lo, up = ours.delta_bounds(e)
        assert lo <= theirs.get_delta_for_epsilon(e) <= up * (1 + 1e-12) + 1e-15


def test_from_privacy_guarantee_is_private():
    from dp_accounting.pld import common

    pl = FlippedHuberPrivacyLoss.from_privacy_guarantee(common.DifferentialPrivacyParameters(1.0, 1e-6))
    assert pl.get_delta_for_epsilon(1.0) <= 1e-6
    assert float(fhsym.privacy_profile(1.0, pl.noise.alpha, pl.noise.gamma)) <= 1e-6
    with pytest.raises(NotImplementedError):
        FlippedHuberPrivacyLoss.from_privacy_guarantee(common.DifferentialPrivacyParameters(1.0, 1e-6), sampling_prob=0.5)
