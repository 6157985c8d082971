"""Algorithm 2 (iterative integration) against the PLD: two independent computations."""

from __future__ import annotations

import numpy as np
import pytest

import fhsym
from fhsym.accounting import kdim_pld
from fhsym.accounting.iterative import iterative_profile, iterative_profile_value


def test_k1_is_the_closed_form():
    eps = np.array([0.0, 0.4, 1.3])
    v, err = iterative_profile(eps, 1.0, 2.0, 1)
    assert np.all(err == 0)
    np.testing.assert_allclose(v, fhsym.privacy_profile(eps, 1.0, 2.0), rtol=1e-15)


@pytest.mark.parametrize("alpha,gamma,eps", [(1.0, 2.0, 1.0), (0.5, 3.0, 0.5), (3.0, 4.0, 2.0), (0.0, 1.5, 1.0)])
def test_k2_agrees_with_the_pld_within_its_bracket(alpha, gamma, eps):
    v, err = iterative_profile(eps, alpha, gamma, 2)
    lo, up = kdim_pld(alpha, gamma, 2).delta_bounds(eps)
    assert lo - err[0] <= v[0] <= up + err[0]
    assert err[0] < 1e-6 * v[0]


@pytest.mark.parametrize("alpha,gamma,eps", [(1.0, 2.0, 1.0), (3.0, 4.0, 1.5)])
def test_k3_agrees_with_the_pld_within_its_bracket(alpha, gamma, eps):
    v1 = iterative_profile_value(eps, alpha, gamma, 3, panels_per_gamma=8, grid_points=250)[0]
    v2 = iterative_profile_value(eps, alpha, gamma, 3, panels_per_gamma=16, grid_points=500)[0]
    err = abs(v2 - v1)
    lo, up = kdim_pld(alpha, gamma, 3).delta_bounds(eps)
    assert lo - err <= v2 <= up + err
    assert err < 1e-4 * v2


def test_dimension_limit():
    with pytest.raises(ValueError, match="dim"):
        iterative_profile(1.0, 1.0, 2.0, 6)
