"""Bad input raises ValueError naming the parameter (and its valid range)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from calibrate_mechanisms import (
    calibrate_gaussian,
    calibrate_laplace,
    calibrate_osgt,
    calibrate_staircase,
    calibrate_truncated_laplace,
)
from fhsym.noise import (
    Gaussian,
    Laplace,
    OSGT,
    Staircase,
    TruncatedLaplace,
)

G = Gaussian(1.0)

BAD = [
    (lambda: Gaussian(0.0), "sigma", "(0, inf)"),
    (lambda: Gaussian(math.nan), "sigma", "(0, inf)"),
    (lambda: Gaussian("1"), "sigma", "(0, inf)"),
    # array parameters broadcast (scipy-style, fhsym.noise.broadcast); a bad element still raises
    (lambda: Gaussian([1.0, -2.0]), "sigma", "(0, inf)"),
    (lambda: Laplace(-1.0), "beta", "(0, inf)"),
    (lambda: OSGT(-0.1, 1.0), "vartheta", "[0, inf)"),
    (lambda: OSGT(1.0, 0.0), "varrho", "(0, inf)"),
    (lambda: TruncatedLaplace(0.0, 1.0), "scale", "(0, inf)"),
    (lambda: TruncatedLaplace(1.0, math.inf), "bound", "(0, inf)"),
    (lambda: Staircase(0.0), "epsilon", "(0, inf)"),
    (lambda: Staircase(1.0, -1.0), "sensitivity", "(0, inf)"),
    (lambda: Staircase(1.0, 1.0, 1.5), "gamma", "[0, 1]"),
    (lambda: G.privacy_profile(-0.1), "epsilon", "[0, inf)"),
    (lambda: G.privacy_profile([0.1, math.nan]), "epsilon", "[0, inf)"),
    (lambda: G.privacy_profile(0.1, 0.0), "sensitivity", "(0, inf)"),
    (lambda: G.pdf([0.0, "b"]), "x", "[-inf, inf]"),  # a NaN x gives NaN, as scipy (tests/test_scipy_parity.py)
    (lambda: G.cdf("a"), "x", "[-inf, inf]"),
    (lambda: G.centered_privacy_loss(math.nan, 1.0), "t", "[-inf, inf]"),
    (lambda: G.centered_privacy_loss(0.0, math.inf), "d", "(-inf, inf)"),
    (lambda: G.rvs(size=-1), "size", "non-negative"),
    (lambda: G.rvs(size=2.5), "size", "non-negative"),
    (lambda: G.rvs(random_state="seed"), "random_state", "Generator"),
    (lambda: G.rvs(random_state=-3), "random_state", "Generator"),
    (lambda: calibrate_gaussian(1.0, 0.0), "delta", "(0, 1)"),
    (lambda: calibrate_gaussian(1.0, 1.0), "delta", "(0, 1)"),
    (lambda: calibrate_gaussian(-1.0, 1e-5), "epsilon", "[0, inf)"),
    (lambda: calibrate_gaussian(1.0, 1e-5, 0.0), "sensitivity", "(0, inf)"),
    (lambda: calibrate_laplace(1.0, -1e-5), "delta", "[0, 1)"),
    (lambda: calibrate_laplace(0.0, 0.0), "epsilon", "(0, inf)"),
    (lambda: calibrate_laplace(math.inf), "epsilon", "[0, inf)"),
    (lambda: calibrate_osgt(1.0, 2.0), "delta", "(0, 1)"),
    (lambda: calibrate_osgt(1.0, 1e-5, theta_max=-1.0), "theta_max", "(0, inf)"),
    (lambda: calibrate_osgt(1.0, 1e-5, box=((1.0, 0.5), (0.1, 1.0))), "box", "lo <= hi"),
    (lambda: calibrate_osgt(1.0, 1e-5, box=(1.0, 2.0)), "box", "vartheta_lo"),
    (lambda: calibrate_truncated_laplace(1.0, 0.0), "delta", "(0, 1)"),
    (lambda: calibrate_staircase(0.0), "epsilon", "(0, inf)"),
    (lambda: calibrate_staircase(1.0, cost="l3"), "cost", "variance"),
]


@pytest.mark.parametrize("call,name,rng", BAD, ids=[f"{b[1]}-{i}" for i, b in enumerate(BAD)])
def test_bad_input_raises_value_error_naming_parameter(call, name, rng):
    with pytest.raises(ValueError) as info:
        call()
    msg = str(info.value)
    assert msg.startswith(name) and rng in msg, msg


def test_osgt_box_infeasible_is_reported():
    with pytest.raises(ValueError, match="no OSGT parameters in box"):
        calibrate_osgt(0.1, 1e-9, box=((0.02, 0.1), (0.02, 0.5)))


finite = st.floats(allow_nan=False, allow_infinity=False)


@given(
    scale=st.floats(min_value=1e-100, max_value=1e100),
    theta=st.one_of(st.floats(min_value=0.0, max_value=1e3), st.floats(min_value=0.0, max_value=1e100)),
    u=st.floats(min_value=-40.0, max_value=40.0),
    eps=st.lists(st.floats(min_value=0.0, max_value=1e300), min_size=1, max_size=8),
)
def test_profiles_never_nan_bounded_and_monotone(scale, theta, u, eps):
    """Any valid input: profile finite, in [0, 1], and non-increasing in eps."""
    sens = scale * 10.0**u
    eps = np.sort(np.array(eps))
    mechs = [
        Gaussian(scale),
        Laplace(scale),
        OSGT(theta * scale, scale),
        TruncatedLaplace(scale, scale * (1.0 + theta)),
    ]
    if sens / scale < 1e3:  # O(sens/scale) algorithm
        mechs.append(Staircase(1.0 + theta / 100, scale, 0.5))
    for m in mechs:
        d = m.privacy_profile(eps, sens)
        assert np.all(np.isfinite(d)) and np.all((d >= 0) & (d <= 1)), (m, d)
        assert np.all(np.diff(d) <= 1e-12 * d[:-1] + 1e-300), (m, eps, d)


@given(x=st.floats(allow_nan=False), sigma=st.floats(min_value=1e-3, max_value=1e3))
def test_distribution_functions_never_nan(x, sigma):
    for m in (
        Gaussian(sigma),
        Laplace(sigma),
        OSGT(2 * sigma, sigma),
        TruncatedLaplace(sigma, 3 * sigma),
        Staircase(0.7, sigma, 0.2),
    ):
        vals = [m.pdf(x), m.cdf(x), m.sf(x)]
        assert all(not math.isnan(v) for v in vals), (m, x, vals)
        assert 0.0 <= m.cdf(x) <= 1.0 and 0.0 <= m.sf(x) <= 1.0
        assert not math.isnan(m.centered_privacy_loss(x, sigma))
