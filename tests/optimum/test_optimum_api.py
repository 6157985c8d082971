"""fhsym.optimal_variance on small instances: the relaxation holds for a real mechanism, the ends are proven, bad input fails.

The central claim of the lower end is that every (eps, delta)-private additive noise gives a feasible
point of the LP (dithered quantisation is post-processing).  It is checked on the calibrated Gaussian
(which spends all of its delta): its quantised law, computed by mpmath quadrature, satisfies every
constraint, and its LP cost is at most sigma^2 + w^2/4; a Gaussian 20 % too narrow breaks a constraint.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath as mp
import pytest

import fhsym
from fhsym.optimum import DualCertificate, calibrate_piecewise_uniform, optimal_variance
from fhsym.optimum.api import choose_grid
from fhsym.optimum.solve import ratio_above, solve_lp


def _quantised_gaussian(sigma, m, M):
    """q_k = E[max(0, 1 - |T/w - k|)] (P(Z = k) under dithered rounding), k = 0..M, and t = P(Z > M)."""
    w = mp.mpf(1) / m
    with mp.workdps(30):
        def hat_mass(k):
            f = lambda x: (1 - abs(x / w - k)) * mp.npdf(x, 0, sigma)  # noqa: E731
            return mp.quad(f, [(k - 1) * w, k * w, (k + 1) * w])
        q = [hat_mass(k) for k in range(M + 1)]
        # P(Z > M) = E[(T/w - M) clipped to [0, 1]] + P(T > (M + 1) w)
        tail = mp.quad(lambda x: (x / w - M) * mp.npdf(x, 0, sigma), [M * w, (M + 1) * w]) \
            + mp.ncdf(-(M + 1) * w, 0, sigma)
        return q, tail


def _constraint_values(q, t, m, M, r):
    """For each j: sum_{k=-M+j}^{M} [q_|k| - r q_|k-j|]_+ + [sum_{i>M-j} q_i - r t]_+ (the LP's delta rows)."""
    out = []
    for j in range(1, m + 1):
        s = sum(max(q[abs(k)] - r * q[abs(k - j)], 0) for k in range(-M + j, M + 1))
        s += max(sum(q[M - j + 1:]) - r * t, 0)
        out.append(s)
    return out


def test_a_private_gaussian_is_feasible_for_the_lp():
    eps, delta, m = 1.0, 1e-3, 2
    sigma = fhsym.calibrate(eps, delta, mechanism="gaussian").mechanism.sigma
    _, M = choose_grid(eps, delta, bins=m)
    q, t = _quantised_gaussian(sigma, m, M)
    with mp.workdps(30):
        total = q[0] + 2 * sum(q[1:]) + 2 * t
        assert abs(total - 1) < mp.mpf("1e-25")
        r = mp.mpf(ratio_above(eps))
        rows = _constraint_values(q, t, m, M, r)
        assert max(rows) <= delta and max(rows) > 0.5 * delta  # the Gaussian spends its delta
        w = mp.mpf(1) / m
        cost = sum((1 if i == 0 else 2) * (i * w) ** 2 * q[i] for i in range(M + 1)) + 2 * ((M + 1) * w) ** 2 * t
        assert cost <= sigma**2 + w**2 / 4
    sol = solve_lp(eps, delta, m, M)
    assert float(sol.dual.lp_bound()) <= float(cost)  # weak duality on a feasible point
    assert float(sol.dual.variance_bound()) <= sigma**2


def test_a_too_narrow_gaussian_breaks_a_constraint():
    eps, delta, m = 1.0, 1e-3, 2
    sigma = 0.8 * fhsym.calibrate(eps, delta, mechanism="gaussian").mechanism.sigma
    _, M = choose_grid(eps, delta, bins=m)
    q, t = _quantised_gaussian(sigma, m, M)
    with mp.workdps(30):
        assert max(_constraint_values(q, t, m, M, mp.mpf(ratio_above(eps)))) > delta


def test_small_instance_end_to_end():
    iv = optimal_variance(1.0, 1e-6, bins=2)
    assert iv.bins == 2 and iv.primal.width == 0.5 and iv.sensitivity == 1.0
    assert 0 < iv.lower <= iv.upper and iv.proven_delta <= 1e-6
    assert Fraction(iv.primal_upper) >= iv.primal.exact_variance() > Fraction(math.nextafter(iv.primal_upper, 0))
    # at 2 bins the LP's noise (1.949) is above the closed-form laws (pure staircase 1.918104, truncated staircase
    # 1.917856): the truncated staircase is the upper end's witness, its proven worst profile within delta
    assert isinstance(iv.noise, fhsym.TruncatedStaircase) and iv.upper < iv.primal_upper
    assert iv.upper == iv.noise.variance_upper() < fhsym.calibrate(1.0, 0, mechanism="staircase").variance
    assert 0 < iv.proven_delta == iv.noise.worst_profile_enclosure(1.0, 1.0).upper <= 1e-6
    # the dual re-checks exactly, also after a JSON round trip
    again = DualCertificate.from_json(iv.dual.to_json())
    assert math.isclose(float(again.variance_bound()), iv.lower, rel_tol=1e-15)
    # every mechanism of fhsym at least the lower end (staircase 1.9181, FH 1.9998)
    assert iv.lower <= fhsym.calibrate(1.0, 1e-6, mechanism="staircase").variance
    assert iv.ratio < 1.08  # coarse grid: w = 1/2, w^2/3 = 0.083


def test_automatic_grid_is_refined_when_the_interval_is_wide():
    # delta = 0.9: V* ~ 0.04, far below the staircase's 1.92 that sets the first grid (32 bins)
    iv = optimal_variance(1.0, 0.9)
    coarse = optimal_variance(1.0, 0.9, bins=32)
    assert coarse.ratio > 1.005  # wider than REFINE_PRIMAL: the default goes on to 64 bins (noise and dual)
    assert iv.primal.width == 1 / 64 and iv.ratio < coarse.ratio and iv.proven_delta <= 0.9
    at64 = optimal_variance(1.0, 0.9, bins=64)
    # still wider than REFINE (0.19 %) on 64 bins: the lower end from the dual of a restricted LP on 128
    assert at64.ratio > 1.0019 and iv.bins == 128 and iv.ratio < at64.ratio


def test_sensitivity_scales_both_ends():
    one = optimal_variance(1.0, 1e-6, bins=2)
    four = optimal_variance(1.0, 1e-6, sensitivity=4.0, bins=2)
    assert four.lower == 16 * one.lower and four.upper == 16 * one.upper
    assert four.primal.width == 2.0 and four.primal.weights == one.primal.weights
    assert four.proven_delta <= 1e-6


def test_calibrate_piecewise_uniform():
    noise, proven = calibrate_piecewise_uniform(0.5, 1e-5, sensitivity=2.0, bins=1)
    assert noise.width == 2.0 and proven <= 1e-5
    assert noise.certified_sup_profile(0.5, 2.0) == proven
    assert float(noise.privacy_profile(0.5, 2.0)) <= 1e-5


@pytest.mark.parametrize("args,kwargs,name", [
    ((0.0, 1e-6), {}, "epsilon"),
    ((-1.0, 1e-6), {}, "epsilon"),
    ((51.0, 1e-6), {}, "epsilon"),
    ((math.nan, 1e-6), {}, "epsilon"),
    ((1.0, 0.0), {}, "delta"),
    ((1.0, 1.0), {}, "delta"),
    ((1.0, 1e-6), {"sensitivity": 0.0}, "sensitivity"),
    ((1.0, 1e-6), {"sensitivity": math.inf}, "sensitivity"),
    ((1.0, 1e-6), {"bins": 3}, "bins"),
    ((1.0, 1e-6), {"bins": 0}, "bins"),
    ((1.0, 1e-6), {"bins": True}, "bins"),
    ((1.0, 1e-6), {"bins": 2.0}, "bins"),
    ((1.0, 1e-6), {"bins": 1 << 13}, "bins"),
])
@pytest.mark.parametrize("fn", [optimal_variance, calibrate_piecewise_uniform])
def test_bad_input(fn, args, kwargs, name):
    with pytest.raises(ValueError, match=name):
        fn(*args, **kwargs)


def test_top_level_export():
    assert fhsym.optimal_variance is optimal_variance and "optimal_variance" in fhsym.__all__


def test_interval_repr_is_one_screen_with_its_width():
    """The interval prints as a few lines (its ends, its width, what proves each end), not the dual's arrays."""
    iv = fhsym.optimal_variance(1.0, 1e-6)
    text = repr(iv)
    assert len(text) < 700 and len(text.splitlines()) <= 5
    assert f"[{iv.lower:.7g}, {iv.upper:.7g}]" in text and f"width {100 * iv.width:.3g} %" in text
    assert iv.width == iv.upper / iv.lower - 1 and str(iv) in text
    lo, hi = iv.excess(2.0)
    assert lo == 2.0 / iv.upper - 1 and hi == 2.0 / iv.lower - 1
    assert iv.excess(iv.lower)[0] == 0.0  # inside the interval: no certified excess
