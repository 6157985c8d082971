"""The discrete flipped Huber at a tiny c = step/gamma (noise of 1e16 to 1e307 lattice steps): every public method
answers or raises ValueError naming the parameter.

Found by a review: ``DiscreteFlippedHuber(0, 1e160, 1).log_privacy_profile(1.0)`` raised OverflowError (the integer
k* ~ eps/(c^2 S) = 1e320 passed to the float loss), ``DiscreteFlippedHuber(0, 1e300, 1e-10)`` (c subnormal) raised
OverflowError in the constructor, ``ppf`` looped for ever where the quantile's index passes 2^53 (the bisection's
ends became adjacent doubles more than 1 apart), and the log profile's arb end could be above 0 (delta > 1).
References: the definition in mpmath (exact rational energies and losses at 60 digits) and the normal quantile.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from fhsym import DiscreteFlippedHuber

C_MIN = 2.2250738585072014e-308


@pytest.mark.parametrize("gamma, step", [(1e300, 1e-10), (1e300, 2e-8), (1.0, 5e-324)])
def test_subnormal_step_over_gamma_is_refused_naming_it(gamma, step):
    with pytest.raises(ValueError, match=r"step/gamma must be in \[2.2250738585072014e-308, 1e\+150\]"):
        DiscreteFlippedHuber(0.0, gamma, step)


def test_smallest_normal_step_over_gamma_is_accepted():
    d = DiscreteFlippedHuber(0.0, 1.0 / C_MIN, 1.0)  # c = 2.2250738585072014e-308 (rounded: at least the bound)
    assert d.c >= C_MIN
    # log Z of the discrete Gaussian with sigma = 1/c steps: log(sqrt(2 pi)/c) (Poisson summation: the rest is
    # e^(-2 pi^2/c^2), nothing), at 60 digits from the exact c
    with mpmath.workdps(60):
        q = Fraction(1.0) / Fraction(d.gamma)
        c = mpmath.mpf(q.numerator) / q.denominator
        want = mpmath.log(mpmath.sqrt(2 * mpmath.pi) / c)
        assert abs(d.log_normaliser() - want) <= 1e-12 * abs(want)


def _mpq(q):
    return mpmath.mpf(q.numerator) / q.denominator


def _log_delta_lower(a, g, h, S, eps, ks):
    """A rigorous lower bound of log delta: delta >= p(k*) (1 - e^(eps - L(k*))) (every term of the sum is >= 0),
    log p(k*) = -E(k*) - log Z, log Z <= log(1 + 2 sum_(n >= 1) e^(-c^2 n^2/2)) <= log(1 + sqrt(2 pi)/c) (alpha = 0);
    k* from the exact rational loss (checked)."""
    assert a == 0.0
    c = Fraction(h) / Fraction(g)

    def E(k):
        return c * c * k * k / 2

    def L(k):
        return E(k + S) - E(k)
    assert L(ks) > Fraction(eps) >= L(ks - 1)
    with mpmath.workdps(60):
        cm = mpmath.mpf(c.numerator) / c.denominator
        log_z = mpmath.log(1 + mpmath.sqrt(2 * mpmath.pi) / cm)
        return (-_mpq(E(ks)) - log_z
                + mpmath.log(-mpmath.expm1(_mpq(Fraction(eps) - L(ks)))))


@pytest.mark.parametrize("gamma, eps", [(1e160, 1.0), (1e155, 1.0), (1e150, 1e10), (1e200, 1e-3)])
def test_profile_where_k_star_passes_the_float_range(gamma, eps):
    """k* = floor(eps/(c^2 S) - S/2) + 1 beyond 2^1000 (beyond the float range for the first three): the log profile is
    a finite upper end (the arb enclosure's), <= 0, at least the definition's lower bound; the profile and
    epsilon_for_delta answer (they raised OverflowError)."""
    d = DiscreteFlippedHuber(0.0, gamma, 1.0)
    c = Fraction(1.0) / Fraction(gamma)
    ks = math.floor(Fraction(eps) / (c * c) - Fraction(1, 2)) + 1
    assert ks > 2**1000
    v = float(d.log_privacy_profile(eps, 1.0))
    assert math.isfinite(v) and v <= 0.0
    assert v >= _log_delta_lower(0.0, gamma, 1.0, 1, eps, ks)
    assert 0.0 <= float(d.privacy_profile(eps, 1.0)) <= 1.0
    # delta(0) = P(X = 0) for S = 1 (the pmf's mass where p(k) > p(k + 1): k >= 0 ... the total variation) is about
    # c/sqrt(2 pi) <= 4e-151, below 1e-6: eps = 0 meets it
    assert float(d.epsilon_for_delta(1e-6, 1.0)) == 0.0


def test_profile_below_the_float_end_is_unchanged():
    """k* = 1e300 (below 2^1000): the float search as before (there the class uses its arb enclosure: a valid upper
    end, loose, -3.4e38 where log delta is -5e299), against the definition's lower bound."""
    d = DiscreteFlippedHuber(0.0, 1e150, 1.0)
    c = Fraction(1.0) / Fraction(1e150)
    ks = math.floor(1 / (c * c) - Fraction(1, 2)) + 1
    v = float(d.log_privacy_profile(1.0, 1.0))
    lo = _log_delta_lower(0.0, 1e150, 1.0, 1, 1.0, ks)
    assert math.isfinite(v) and lo <= v <= 0.0


def test_log_profile_is_at_most_zero():
    """delta <= 1: at eps = 0, S = 1000 steps of sigma = 1 step, delta = 1 - 2 T(500)/Z = 1 - e^(-1.2e5); the arb end
    was 1e-37 (log delta above 0)."""
    d = DiscreteFlippedHuber(0.0, 1.0, 1.0)
    v = float(d.log_privacy_profile(0.0, 1000.0))
    assert -1e-300 <= v <= 0.0


@pytest.mark.parametrize("gamma, q", [(1e20, 0.3), (1e150, 0.9), (1e300, 1e-9)])
def test_ppf_past_two_to_the_53_ends(gamma, q):
    """Where the quantile's index passes 2^53 the bisection ends at adjacent doubles (it looped for ever): the value
    is the normal quantile gamma z_q (the discrete Gaussian of sigma gamma/step = gamma steps: its cdf is the normal's
    within 1e-15 relative here) to 1e-12, and cdf(x) >= q."""
    d = DiscreteFlippedHuber(0.0, gamma, 1.0)
    x = float(d.ppf(q))
    with mpmath.workdps(50):
        want = -mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * mpmath.mpf(q)) * mpmath.mpf(gamma)
        assert abs(x / want - 1) <= 1e-12, (x, want)
    assert float(d.cdf(x)) >= q
    p = 1 - q  # rounded: isf's reference is the normal quantile at 1 - p, exactly
    y = float(d.isf(p))
    with mpmath.workdps(50):
        want = -mpmath.sqrt(2) * mpmath.erfinv(2 * mpmath.mpf(p) - 1) * mpmath.mpf(gamma)
        assert abs(y / want - 1) <= 1e-12, (y, want)
    assert float(d.sf(y)) <= p


def test_variance_above_the_float_range_is_refused_and_below_it_exact():
    """Var X = gamma^2 for alpha = 0 and sigma = gamma/step >= 1e10 steps (Poisson summation: relative e^(-2 pi^2
    sigma^2) off): 1e308 at gamma = 1e154 to 1e-12; 1e400 at gamma = 1e200 raised OverflowError, now ValueError."""
    assert abs(DiscreteFlippedHuber(0.0, 1e154, 1.0).var() / (mpmath.mpf(1e154) ** 2) - 1) <= 1e-12
    for g, h in ((1e200, 1.0), (1e160, 1e10)):
        with pytest.raises(ValueError, match="above the float range"):
            DiscreteFlippedHuber(0.0, g, h).var()


@pytest.mark.parametrize("c, u", [(1e-31, 3e28), (1e-40, 1e29), (1e-40, 9e24), (1e-40, 1.1e25), (1e-100, 1e60),
                                  (1e-200, 1e100)])
def test_gaussian_tail_sum_where_the_hermite_polynomials_overflow(c, u):
    """log R_0(m) = log sum_(j >= 0) e^(-(beta j + c^2 j^2/2)), beta = c^2 m, at u = c m past 2e28 (it was NaN: the
    Euler-Maclaurin program's u^11 overflows; c below 1e-30) and either side of the switch at u = 1e25.  Reference:
    1/(1 - e^-beta) - (c^2/2) sum_j j^2 e^(-beta j) <= R_0 <= 1/(1 - e^-beta) (e^-t >= 1 - t), at 60 digits from the
    exact c and m."""
    from fhsym.noise import lattice_sums as LS

    m = float(u / c)
    got = float(LS.log_r0(np.array(m), c))
    vec = LS.log_r0(np.array([m, 1.0e3]), c)
    assert float(vec[0]) == got
    with mpmath.workdps(60):
        cq, mq = _mpq(Fraction(c)), _mpq(Fraction(m))
        beta = cq * cq * mq
        q, one_q = mpmath.exp(-beta), -mpmath.expm1(-beta)
        hi = 1 / one_q
        lo = hi - cq * cq / 2 * q * (1 + q) / one_q ** 3
        assert (hi - lo) / hi < 1e-20
        assert abs(mpmath.exp(got) / hi - 1) <= 1e-13, (got, mpmath.log(hi))


@pytest.mark.parametrize("c, u", [(1e-31, 6e23), (1e-40, 1e24), (1e-60, 9e24), (1e-100, 2e23), (1e-100, 1e60),
                                  (1e-31, 1e20), (1e-200, 1e100)])
def test_second_moment_tail_sum_where_its_hermite_polynomials_overflow(c, u):
    """log R_2(m) = log sum_(j >= 0) (1 + j/m)^2 e^(-(beta j + c^2 j^2/2)), beta = c^2 m: the program's u^13 overflows
    from u = c m = 5.4e23, below the switch at 1e25 the R_0 fix used (NaN at 6e23 to 1e25, found by review rev41b).
    Reference, at 60 digits from the exact c and m: S0 - beta S2/(2 m) <= R_2 <= S0 + 2 S1/m + S2/m^2 with
    S_k = sum_j j^k e^(-beta j) (e^-t <= 1, e^-t >= 1 - t, (1 + j/m)^2 >= 1)."""
    from fhsym.noise import lattice_sums as LS

    m = float(u / c)
    got = float(LS.log_r2(np.array(m), c))
    assert float(LS.log_r2(np.array([m, 1.0e3]), c)[0]) == got
    with mpmath.workdps(60):
        cq, mq = _mpq(Fraction(c)), _mpq(Fraction(m))
        beta = cq * cq * mq
        q, one_q = mpmath.exp(-beta), -mpmath.expm1(-beta)
        s0, s1, s2 = 1 / one_q, q / one_q ** 2, q * (1 + q) / one_q ** 3
        lo, hi = s0 - beta * s2 / (2 * mq), s0 + 2 * s1 / mq + s2 / mq ** 2
        assert (hi - lo) / hi < 1e-20
        assert math.isfinite(got) and abs(mpmath.exp(got) / hi - 1) <= 1e-13, (got, mpmath.log(hi))
