"""Numbers quoted in the flipped-Huber paper, recomputed from the exact conditions.

Section V-A (1-D, Delta = 1, delta = 1e-6): Gaussian 168.80 / 2.38 and OSGT
108.94 / 1.54 at eps = 0.3 / 3, truncated Laplace 22.21 at eps = 0.3.
Table II (K = 20, Delta_1 = 20, independent coordinates, i.e. eps/20 and
Delta = 1 per coordinate): Laplace 2e4, 5000, 800, 165.29, 32 and staircase
19999.92, 4999.92, 799.92, 165.21, 31.92 at eps = 0.2, 0.4, 1, 2.2, 5.
"""

from __future__ import annotations

import math

import pytest
from scipy import optimize

from calibrate_mechanisms import (
    calibrate_gaussian,
    calibrate_laplace,
    calibrate_osgt,
    calibrate_staircase,
    calibrate_truncated_laplace,
)
from fhsym.noise import OSGT

DELTA = 1e-6


@pytest.mark.parametrize("eps,paper", [(0.3, 168.80), (3.0, 2.38)])
def test_gaussian_variance_section_v_a(eps, paper):
    assert round(calibrate_gaussian(eps, DELTA).variance, 2) == paper


def test_truncated_laplace_variance_section_v_a():
    v03 = calibrate_truncated_laplace(0.3, DELTA).variance
    v3 = calibrate_truncated_laplace(3.0, DELTA).variance
    assert round(v03, 2) == 22.21
    # "the variances decrease by 100 times" from eps = 0.3 to eps = 3
    assert 99.0 < v03 / v3 < 101.0


def test_gaussian_71_fold_reduction():
    ratio = calibrate_gaussian(0.3, DELTA).variance / calibrate_gaussian(3.0, DELTA).variance
    assert round(ratio) == 71


@pytest.mark.parametrize("eps,paper", [(0.3, 108.94), (3.0, 1.54)])
def test_osgt_paper_values_are_not_optimal(eps, paper):
    """The paper's OSGT numbers come from a grid search; the exact optimum is far lower.

    Even restricted to the paper's box [0.02, 150] x [0.02, 50] the
    continuous optimum is 27.98 (eps = 0.3) / 0.2293 (eps = 3); without the
    box OSGT approaches the (eps, delta)-Laplace / truncated-Laplace level
    (22.2211 / 0.222222).
    """
    boxed = calibrate_osgt(eps, DELTA, box=((0.02, 150.0), (0.02, 50.0)))
    free = calibrate_osgt(eps, DELTA)
    assert free.variance <= boxed.variance < paper
    # regression values of fhsym's own boxed optimum (not independent): that the variance at the
    # optimum's parameters is 27.98 is confirmed by quadrature in proofs (privacy_profile.sec5a_osgt_variances)
    expected_box = {0.3: 27.98, 3.0: 0.2293}[eps]
    assert boxed.variance == pytest.approx(expected_box, rel=2e-4)
    tl = calibrate_truncated_laplace(eps, DELTA).variance
    assert free.variance == pytest.approx(tl, rel=1e-3)


@pytest.mark.parametrize("eps,paper,theta", [(0.3, 108.94, 0.6711), (3.0, 1.54, 0.6394)])
def test_osgt_paper_values_lie_on_the_exact_frontier_at_theta_067(eps, paper, theta):
    """On the exact frontier (smallest admissible varrho for a fixed ratio
    vartheta/varrho) the paper's OSGT variances correspond to a ratio of ~0.67
    at both eps: a small-ratio, far-from-optimal region of the family.

    Independent of fhsym's OSGT code: the profile is the paper's own closed form in
    mpmath (Appendix F-A(c)), the variance a quadrature of the density."""
    import mpmath as mp

    from proofs import reference_mechanisms as RM

    def gap(log_s):  # scale invariance: sensitivity s for (theta, 1) is sensitivity 1 for (theta/s, 1/s)
        with mp.workdps(40):
            val = RM.osgt_profile_closed(eps, math.exp(log_s), theta, 1.0)
            return (float(mp.log(val)) if val > 0 else -1e4) - math.log(DELTA)

    s = math.exp(optimize.brentq(gap, -8.0, 3.0, xtol=1e-13))
    vt, vr = theta / s, 1.0 / s
    with mp.workdps(30):
        var, _ = RM.integrate_density(RM.osgt_logpdf(vt, vr), [vt, vr], vr, lambda t: (abs(t) + vt) / vr, moment=2)
    assert float(var) == pytest.approx(paper, abs=0.01)


TABLE_II_EPS = [0.2, 0.4, 1.0, 2.2, 5.0]
TABLE_II_LAPLACE = [2e4, 5000, 800, 165.29, 32]
TABLE_II_STAIRCASE = [19999.92, 4999.92, 799.92, 165.21, 31.92]


@pytest.mark.parametrize("eps,laplace,staircase", list(zip(TABLE_II_EPS, TABLE_II_LAPLACE, TABLE_II_STAIRCASE)))
def test_table_ii_laplace_and_staircase(eps, laplace, staircase):
    """Table II of the paper: K = 20 independent coordinates with eps_i = eps/20, Delta = 1."""
    eps_i = eps / 20
    assert round(calibrate_laplace(eps_i, 0.0).variance, 2) == laplace
    assert round(calibrate_staircase(eps_i).variance, 2) == staircase
    # the |x|-optimal gamma = 1/(1 + e^{eps/2}) gives the same two decimals
    assert round(calibrate_staircase(eps_i, cost="magnitude").variance, 2) == staircase
