"""Which difference vectors the K-fold profile covers (fhsym.accounting.kdim)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import fhsym
from fhsym.accounting import kdim_pld, kdim_privacy_profile, worst_case_candidates, worst_case_lower_bound


@settings(max_examples=20)
@given(st.integers(2, 6), st.floats(0.0, 5.0), st.floats(0.5, 6.0), st.floats(0.1, 3.0), st.integers(0, 2**31))
def test_corner_dominates_every_d_in_the_box(K, alpha, gamma, eps, seed):
    corner = kdim_pld(alpha, gamma, K, 1.0)
    d = np.random.default_rng(seed).uniform(-1.0, 1.0, K)
    other = kdim_pld(alpha, gamma, K, 1.0, difference=d, step=corner.step)
    # certified upper bound at d never exceeds the certified upper bound at the corner (and is below its lower bound
    # whenever the corner's bracket is informative)
    assert other.delta_upper(eps) <= corner.delta_upper(eps) * (1 + 1e-9) + 1e-15
    assert other.delta_lower(eps) <= corner.delta_upper(eps)


def test_one_dimensional_profile_is_monotone_in_the_sensitivity():
    eps = np.linspace(0, 3, 31)
    for a, g in [(0.0, 1.0), (1.0, 2.0), (5.0, 2.0)]:
        prev = np.zeros_like(eps)
        for d in [0.1, 0.3, 0.5, 1.0, 2.0]:
            cur = fhsym.privacy_profile(eps, a, g, d)
            assert np.all(cur >= prev * (1 - 1e-9))
            prev = cur


def test_difference_vector_sign_and_zeros_do_not_matter():
    e = 0.8
    a = kdim_pld(1.0, 2.0, 4, difference=[1.0, -0.5, 0.0, 0.5], step=1e-3)
    b = kdim_pld(1.0, 2.0, 4, difference=[0.5, 0.5, 1.0, 0.0], step=1e-3)
    c = kdim_pld(1.0, 2.0, 3, difference=[1.0, 0.5, 0.5], step=1e-3)
    vals = [x.delta_bounds(e) for x in (a, b, c)]
    assert max(v[0] for v in vals) <= min(v[1] for v in vals)
    with pytest.raises(ValueError, match="difference"):
        kdim_pld(1.0, 2.0, 3, difference=[1.0, 0.5])
    with pytest.raises(ValueError, match="non-zero"):
        kdim_pld(1.0, 2.0, 2, difference=[0.0, 0.0])


def test_candidates_lie_in_the_sensitivity_set():
    for K, D2, D1 in [(10, 2.0, 5.0), (5, 1.0, 1.0), (20, math.sqrt(20), 20.0), (7, 2.5, 2.6)]:
        for d in worst_case_candidates(K, 1.0, D2, D1):
            assert np.max(np.abs(d)) <= 1.0 + 1e-12
            assert np.linalg.norm(d) <= D2 * (1 + 1e-12)
            assert np.sum(np.abs(d)) <= D1 * (1 + 1e-12)


def test_worst_case_lower_bound_is_below_the_box_bound_and_above_single_coordinates():
    K, eps, a, g = 6, 0.5, 1.0, 3.0
    lb, arg = worst_case_lower_bound(eps, a, g, K, 1.0, l2_sensitivity=1.5)
    box_up = float(kdim_pld(a, g, K).delta_upper(eps))
    one = float(fhsym.privacy_profile(eps, a, g, 1.0))  # d = (1, 0, ..., 0) is in the set
    assert one * (1 - 1e-3) <= lb <= box_up
    assert np.linalg.norm(arg) <= 1.5 + 1e-12


def test_public_profile_api():
    lo, up = kdim_privacy_profile([0.5, 1.0], 1.0, 3.0, 4)
    assert np.all(lo <= up) and np.all(lo > 0)
    lo2, up2 = kdim_privacy_profile(1.0, 1.0, 3.0, 2, rounds=2)
    assert lo2 <= up[1] * (1 + 1e-9) and lo[1] <= up2 * (1 + 1e-9)
