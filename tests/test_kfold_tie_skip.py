"""The K-fold scan's cheap tie test (issue 31 item 3): a coarse float PLD *lower* bound that skips a shape far from
feasible skips exactly the shapes the search bound skips, so the answers do not change.

``fhsym.calibration.search_kfold.search_kfold`` skips a shape when the search bound at the scale where it would tie the best
so far exceeds the target.  Once a tie test found its shape ``_LOWER_GATE`` x above the target, the next shapes are
first tested with a float PLD lower bound on a lattice ``_LOWER_COARSE`` x coarser; above ``_LOWER_MARGIN`` x the
target it skips the shape without the search bound.  That is the same decision if the lower bound is below the search
bound there, which the tests check at every point where the skip was taken, and the calibrations with the skip
switched off (``_LOWER_GATE = inf``) are the same, certificate for certificate.
"""

from __future__ import annotations

import math

import pytest

import fhsym
from fhsym.calibration import search_kfold as S

# where the Gaussian member wins (the scan ends in shapes far from feasible), and where flipped Huber wins
CASES = [dict(compositions=100), dict(dim=20), dict(compositions=200, epsilon=0.5), dict(dim=50, delta=1e-9),
         dict(dim=3)]


def _calibrate(**kw):
    args = dict(epsilon=1.0, delta=1e-6)
    args.update(kw)
    return fhsym.calibrate(**args)


@pytest.mark.parametrize("kw", CASES, ids=[str(c) for c in CASES])
def test_the_same_calibration_without_the_cheap_tie_test(kw, monkeypatch):
    with_skip = _calibrate(**kw).certificate.to_json()
    monkeypatch.setattr(S, "_LOWER_GATE", math.inf)
    assert _calibrate(**kw).certificate.to_json() == with_skip


def test_every_cheap_skip_is_one_the_search_bound_makes(monkeypatch):
    """At each shape the lower bound was tried: it is below the search bound there, and where it skipped the shape,
    the search bound is above the target (the skip the scan makes without it)."""
    taken = []
    real = S.kfold_delta_lower

    def spy(noise, eps, folds, sensitivity, step, fp_budget):
        lo = real(noise, eps, folds, sensitivity, step, fp_budget)
        taken.append((noise, eps, folds, sensitivity, lo))
        return lo

    monkeypatch.setattr(S, "kfold_delta_lower", spy)
    delta = 1e-6
    skipped = 0
    for kw in (dict(compositions=100), dict(dim=20), dict(compositions=200, epsilon=0.5)):
        taken.clear()
        cal = _calibrate(**kw)
        assert cal.alpha == 0.0
        assert taken, f"{kw}: the cheap tie test never ran"
        for noise, eps, folds, D, lo in taken:
            up = S.search_bound(noise, eps, folds, D, S.step_for(noise, D, S._K_RESOLUTION), delta)
            assert lo <= up, (noise, lo, up)
            if lo > S._LOWER_MARGIN * delta:  # skipped by the lower bound: the search bound skips it too
                assert up > delta, (noise, lo, up)
                skipped += 1
    assert skipped >= 3
