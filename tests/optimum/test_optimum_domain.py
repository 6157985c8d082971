"""The optimum on the edges of its domain (issue 32, item 4): every input answers or is refused naming its parameter.

Before: (0.001, 1e-6) and (0.003, 1e-6) stopped with HiGHS "Solve error" (costs up to ~1e8 unscaled),
(1, 1e-300) "Model error", sensitivity 1e300 an OverflowError, eps = 1e-300 a ValueError about an internal
Staircase, (20, 5e-324) an OverflowError.  The staircase reference variance is an independent mpmath sum of
x^2 over its steps.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath as mp
import pytest

import fhsym
from fhsym.noise import PiecewiseUniform, Staircase
from fhsym.optimum import optimal_variance
from fhsym.optimum.api import smallest_epsilon, staircase_variance_up
from fhsym.noise.staircase import staircase_optimal_gamma
from proofs.reference_truncated_staircase import Ref as TSRef


def _staircase_variance_mp(eps, sens, gamma, periods=400):
    """2 sum_k [a b^k (x^3/3 on [k D, k D + g D)) + a b^(k+1) (on [k D + g D, (k+1) D))], 60 digits."""
    with mp.workdps(60):
        e, D, g = mp.mpf(eps), mp.mpf(sens), mp.mpf(gamma)
        b = mp.exp(-e)
        a = (1 - b) / (2 * D * (g + (1 - g) * b))
        tot = mp.mpf(0)
        for k in range(periods):
            lo, mid, hi = k * D, k * D + g * D, (k + 1) * D
            tot += a * b**k * (mid**3 - lo**3) / 3 + a * b ** (k + 1) * (hi**3 - mid**3) / 3
        return 2 * tot


@pytest.mark.parametrize("eps, sens", [(6.0, 1.0), (1.0, 3.0), (20.0, 1e-3), (0.5, 1.0)])
def test_staircase_variance_up_is_a_tight_upper_bound(eps, sens):
    st = Staircase(eps, sens, staircase_optimal_gamma(eps))
    ref = _staircase_variance_mp(eps, sens, st.gamma, periods=400 if eps >= 0.5 else 4000)
    v = staircase_variance_up(st)
    assert mp.mpf(v) >= ref and v == pytest.approx(float(ref), rel=1e-14)


@pytest.mark.parametrize("args, kwargs, name", [
    ((1.0, 1e-300), {}, "delta"),
    ((20.0, 5e-324), {}, "delta"),
    ((1.0, 1e-13), {}, "delta"),
    ((1.0, 1e-6), {"sensitivity": 1e300}, "sensitivity"),
    ((1.0, 1e-6), {"sensitivity": 1e-300}, "sensitivity"),
    ((1e-300, 1e-6), {}, "epsilon"),
    ((1e-4, 1e-6), {}, "epsilon"),
    ((1e-300, 0.5), {}, "epsilon"),
    ((0.002, 1e-12), {}, "epsilon"),
])
@pytest.mark.parametrize("how", ["optimal_variance", "calibrate"])
def test_outside_the_domain_is_refused_naming_the_parameter(args, kwargs, name, how):
    with pytest.raises(ValueError, match=name) as exc:
        if how == "optimal_variance":
            optimal_variance(*args, **kwargs)
        else:
            fhsym.calibrate(*args, mechanism="piecewise_uniform", **kwargs)
    assert "must" in str(exc.value)


@pytest.mark.parametrize("delta", [1e-6, 1e-12, 0.5])
def test_smallest_epsilon_is_the_boundary(delta):
    least = smallest_epsilon(delta)
    below = least * (1 - 1e-6)
    with pytest.raises(ValueError, match=rf"epsilon must be at least {least:.4g}"):
        optimal_variance(below, delta, bins=1)
    from fhsym.optimum.api import _validate  # the accepted side passes validation (solving it is the slow part)
    assert _validate(least, delta, 1.0)[0] == least


def test_small_epsilon_answers():
    """(0.003, 1e-6) used to stop with HiGHS 'Solve error'; now a proven interval below pure Laplace's 2/eps^2."""
    iv = optimal_variance(0.003, 1e-6)
    assert 0 < iv.lower <= iv.upper <= 2.0 / 0.003**2 and iv.proven_delta <= 1e-6
    assert iv.upper / iv.lower < 1.0001
    assert Fraction(iv.lower) <= iv.dual.variance_bound()
    cal = fhsym.calibrate(0.003, 1e-6, mechanism="piecewise_uniform")
    assert cal.achieved_delta <= 1e-6 and fhsym.verify_certificate(cal.certificate)
    assert cal.variance == iv.primal_upper


@pytest.mark.parametrize("delta", [1e-12, 0.999])
@pytest.mark.parametrize("eps", [0.05, 20.0])
def test_domain_corners_answer(eps, delta):
    iv = optimal_variance(eps, delta, bins=1)
    assert 0 <= iv.lower <= iv.upper and iv.proven_delta <= delta
    assert math.isfinite(iv.upper)


def test_large_epsilon_upper_end_is_a_closed_form_law():
    """eps = 6: the pure-DP staircase (0.0141058) is below the LP's noise, and the truncated staircase below both; the
    least is the witness of the upper end."""
    iv = optimal_variance(6.0, 1e-6, bins=16)
    st = Staircase(6.0, 1.0, staircase_optimal_gamma(6.0))
    ref = _staircase_variance_mp(6.0, 1.0, st.gamma)
    assert mp.mpf(staircase_variance_up(st)) >= ref and float(ref) == pytest.approx(0.0141058, abs=5e-8)
    assert float(st.privacy_profile(6.0, 1.0)) == 0.0
    ts = iv.noise
    assert isinstance(ts, fhsym.TruncatedStaircase) and isinstance(iv.primal, PiecewiseUniform)
    assert iv.upper == ts.variance_upper() < staircase_variance_up(st) and iv.upper < iv.primal_upper
    # independently: the variance from exact piece sums of the definition (60 digits) lies at or below the upper end
    ts_ref = TSRef(ts.epsilon, ts.sensitivity, ts.gamma, ts.bound).var()
    assert mp.mpf(iv.upper) >= ts_ref and ts_ref < ref  # below the pure staircase's mpmath variance too
    assert Fraction(iv.primal_upper) >= iv.primal.exact_variance()
    assert iv.proven_delta == ts.worst_profile_enclosure(6.0, 1.0).upper <= 1e-6
    assert iv.lower <= iv.upper
    # the certified calibrations are the same noises
    assert fhsym.calibrate(6.0, 1e-6, mechanism="staircase").mechanism.gamma == st.gamma
    assert fhsym.calibrate(6.0, 1e-6, mechanism="truncated_staircase").mechanism == ts
