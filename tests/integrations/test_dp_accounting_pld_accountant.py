"""FlippedHuberPLDAccountant: every stock event as dp_accounting's PLDAccountant, and what its delta means.

The numbers of docs/integrations.md ("What the accountant's delta means") are the ones printed here
(``pytest -s``).  The exact profile is an independent 30-digit mpmath evaluation (proofs.reference).
"""

from __future__ import annotations

import math

import pytest

pytest.importorskip("dp_accounting", reason="needs the optional dependency dp_accounting (extra dp-accounting)")

from dp_accounting import dp_event  # noqa: E402
from dp_accounting.pld import pld_privacy_accountant as stock  # noqa: E402
from dp_accounting.pld import privacy_loss_distribution as P  # noqa: E402
from dp_accounting.privacy_accountant import NeighboringRelation as NR  # noqa: E402

import fhsym  # noqa: E402
from fhsym.integrations.dp_accounting import (  # noqa: E402
    CERTIFIED_RTOL,
    FlippedHuberDpEvent,
    FlippedHuberPLDAccountant,
    FlippedHuberPrivacyLoss,
    flipped_huber_pld,
)
from proofs import reference as R  # noqa: E402

STOCK_EVENTS = [
    dp_event.GaussianDpEvent(2.0),
    dp_event.LaplaceDpEvent(3.0),
    dp_event.DiscreteLaplaceDpEvent(0.5, 1),
    dp_event.PoissonSampledDpEvent(0.05, dp_event.GaussianDpEvent(1.5)),
    dp_event.PoissonSampledDpEvent(0.05, dp_event.LaplaceDpEvent(1.5)),
    dp_event.SelfComposedDpEvent(dp_event.GaussianDpEvent(5.0), 7),
    dp_event.MixtureOfGaussiansDpEvent(3.0, [0.0, 1.0], [0.5, 0.5]),
    dp_event.NoOpDpEvent(),
]


@pytest.mark.parametrize("event", STOCK_EVENTS, ids=lambda e: type(e).__name__)
def test_every_stock_event_is_dp_accountings_own(event):
    ours, theirs = FlippedHuberPLDAccountant(value_discretization_interval=1e-3), stock.PLDAccountant(value_discretization_interval=1e-3)
    assert ours.supports(event) == theirs.supports(event) is True
    ours.compose(event)
    theirs.compose(event)
    for eps in (0.0, 0.5, 2.0):
        assert ours.get_delta(eps) == theirs.get_delta(eps)


def test_randomized_response_under_replace_one_and_fh_together():
    ev = dp_event.RandomizedResponseDpEvent(0.5, 4)
    ours, theirs = FlippedHuberPLDAccountant(NR.REPLACE_ONE, 1e-3), stock.PLDAccountant(NR.REPLACE_ONE, 1e-3)
    ours.compose(ev)
    theirs.compose(ev)
    assert ours.get_delta(1.0) == theirs.get_delta(1.0)
    ours.compose(FlippedHuberDpEvent(1.0, 2.0))            # and an FH event on top: more delta, never less
    assert ours.get_delta(1.0) > theirs.get_delta(1.0)
    with pytest.raises(Exception):
        stock.PLDAccountant().compose(FlippedHuberDpEvent(1.0, 2.0))   # dp_accounting alone refuses it


def test_what_the_accountants_delta_means():
    """What the accountant reads for a certified calibrate(1, 1e-6), number by number: its nodes sit 1.001e-9 above
    the exact profile, so it reads above the target whenever the calibration keeps less slack than that."""
    cal = fhsym.calibrate(1.0, 1e-6)
    a, g = cal.mechanism.alpha, cal.mechanism.gamma
    exact = float(R.privacy_profile(1.0, a, g, 1.0, dps=30))
    cert = cal.certificate
    node = float(FlippedHuberPrivacyLoss(a, g).certified_delta_for_epsilon(1.0))
    print(f"\ncalibrate(1, 1e-6): alpha = {a!r}, gamma = {g!r}")
    print(f"  exact delta(1) (mpmath, 30 digits)            {exact:.15e}")
    print(f"  fhsym's certificate (arb)                     [{cert.lower:.15e}, {cert.upper:.15e}]")
    print(f"  node of the PLD: float profile x (1 + {CERTIFIED_RTOL:.4g})  {node:.15e}")
    assert cert.lower <= exact <= cert.upper <= 1e-6          # the guarantee: certified, below the target
    assert exact < node <= exact * (1 + 1.1e-9)                # the adapter's margin makes the node an upper bound
    slack = 1.0 - cert.upper / 1e-6
    print(f"  calibrate's slack below the target: {slack:.3e}; the node reads {'above' if node > 1e-6 else 'at or below'} "
          f"the target")
    assert (node > 1e-6) == (slack < 1.0e-9)                   # the node is above the target iff the slack is smaller
    rows = []
    for h in (1e-3, 1e-4, 1e-5):
        acc = FlippedHuberPLDAccountant(value_discretization_interval=h)
        acc.compose(FlippedHuberDpEvent(a, g))
        on_grid = float(acc.get_delta(1.0))
        # what dp_accounting's own PLDAccountant does with a PLD: compose it into its identity PLD, which truncates
        # up to 1e-15 of tail mass to +inf (PrivacyLossDistribution.compose, tail_mass_truncation=1e-15)
        via_identity = float(P.identity(h).compose(flipped_huber_pld(a, g, 1.0, h)).get_delta_for_epsilon(1.0))
        exact_untruncated = float(P.identity(h).compose(flipped_huber_pld(a, g, 1.0, h), tail_mass_truncation=0.0)
                                  .get_delta_for_epsilon(1.0))
        mid = 1.0 + h / 2                                      # half-way between two grid points: the chord
        excess_mid = float(acc.get_delta(mid)) / float(R.privacy_profile(mid, a, g, 1.0, dps=30)) - 1.0
        rows.append((h, on_grid, via_identity, excess_mid))
        print(f"  h = {h:g}: accountant delta(1) {on_grid:.15e}; composed into the identity {via_identity:.15e} "
              f"(+{via_identity - on_grid:.2e}); at eps = 1 + h/2: {excess_mid:.2e} relative above exact")
        assert abs(on_grid - node) <= 1e-11 * node             # eps = 1 is a grid point: the node, up to summation
        assert abs(exact_untruncated - on_grid) <= 1e-11 * node  # the identity itself changes nothing ...
        assert 1e-16 < via_identity - on_grid <= 1e-15         # ... its 1e-15 tail truncation does
        assert excess_mid > 0.0                                # between grid points the chord lies above
    assert rows[0][3] > 10 * rows[1][3] > 100 * rows[2][3]     # and shrinks with the interval
    # what to do if the accountant must read <= the target: calibrate with headroom above the adapter's margin
    cal2 = fhsym.calibrate(1.0, 1e-6 * (1 - 2e-9))
    acc = FlippedHuberPLDAccountant()
    acc.compose(FlippedHuberDpEvent(cal2.mechanism.alpha, cal2.mechanism.gamma))
    print(f"  calibrate(1, 1e-6 (1 - 2e-9)): accountant delta(1) = {float(acc.get_delta(1.0)):.15e}")
    assert acc.get_delta(1.0) <= 1e-6
    assert math.isclose(cal2.variance, cal.variance, rel_tol=1e-6)   # the headroom costs ~nothing
