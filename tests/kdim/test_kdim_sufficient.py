"""Theorem 8 and its ingredients (fhsym.accounting.sufficient): references are scipy's Gaussian and mpmath, not the code under test."""

from __future__ import annotations

import math

import mpmath
import pytest
from hypothesis import given, strategies as st
from scipy import stats

from fhsym.accounting import sufficient as S


@given(st.floats(0, 50), st.floats(1e-3, 20))
def test_R_delta_pieces_and_inverse(alpha, Delta):
    R = float(S.R_Delta(alpha, Delta))
    expected = alpha**2 if alpha <= Delta else 2 * alpha * Delta - Delta**2  # the two pieces stated below Lemma 5
    assert R == pytest.approx(expected, rel=1e-14, abs=1e-300)
    assert R == pytest.approx(alpha**2 - max(alpha - Delta, 0.0) ** 2, rel=1e-9, abs=1e-12)
    assert float(S.R_Delta_inverse(R, Delta)) == pytest.approx(alpha, rel=1e-12, abs=1e-12)


def test_R_delta_inverse_rejects_negative():
    with pytest.raises(ValueError, match="nu"):
        S.R_Delta_inverse(-1.0, 1.0)


@pytest.mark.parametrize("b", [0.0, 1e-3, 0.5, 2.0, 10.0, 40.0])
def test_theta_matches_mpmath(b):
    # eq 22 evaluated from scratch at 40 digits: omega from eq 9, Q^{-1} by mpmath
    with mpmath.workdps(40):
        if b == 0:
            ref = mpmath.mpf(0)
        else:
            bb = mpmath.mpf(b)
            omega = 2 * (mpmath.sqrt(2 * mpmath.pi) * mpmath.ncdf(-bb) + 2 / bb * mpmath.sinh(bb * bb / 2))
            lp = mpmath.log(mpmath.sqrt(mpmath.pi / 2) / omega)
            # Q^{-1}(p): the root of log Q(x) = log p (log space: p underflows for large b)
            ref = mpmath.findroot(lambda x: mpmath.log(mpmath.ncdf(-x)) - lp, mpmath.sqrt(-2 * lp))
    assert S.theta(b * 3.0, 3.0) == pytest.approx(3.0 * float(ref), rel=1e-10, abs=1e-14)


@pytest.mark.parametrize("K,eps,gamma", [(2, 0.5, 3.0), (5, 1.0, 4.0), (20, 0.3, 40.0), (100, 2.0, 10.0)])
def test_theorem8_at_alpha0_is_the_analytic_gaussian(K, eps, gamma):
    D2 = math.sqrt(K)
    ref = stats.norm.sf(gamma * eps / D2 - D2 / (2 * gamma)) - math.exp(eps) * stats.norm.sf(gamma * eps / D2 + D2 / (2 * gamma))
    assert S.theorem8_lhs(eps, 0.0, gamma, K) == pytest.approx(ref, rel=1e-10)


def test_theorem8_log_space_is_finite_far_in_the_tail():
    lv = S.log_theorem8_lhs(5.0, 0.1, 50.0, 3)
    assert math.isfinite(lv) and lv < -700  # the value underflows float but its log does not
    assert S.theorem8_lhs(5.0, 0.1, 50.0, 3) == 0.0


def test_alpha_max_is_the_restriction_boundary():
    eps, gamma, K = 0.7, 5.0, 6
    am = S.alpha_max(eps, gamma, K)
    assert S.applicable(eps, am * (1 - 1e-12), gamma, K)
    assert not S.applicable(eps, am * (1 + 1e-9), gamma, K)
    assert S.alpha_max(0.01, 0.5, 4) == -math.inf  # 2 gamma^2 eps < Delta_2^2: no alpha works


def test_theorem8_holds_needs_the_restriction():
    eps, gamma, K = 1.0, 3.0, 4
    am = S.alpha_max(eps, gamma, K)
    assert not S.theorem8_holds(eps, 0.999, am * 1.01, gamma, K)


def test_sensitivities_are_resolved_and_validated():
    assert S.resolve_sensitivities(4, 1.0, None, None) == (4, 1.0, 2.0, 4.0)
    assert S.resolve_sensitivities(4, 1.0, 9.0, 99.0) == (4, 1.0, 2.0, 4.0)  # capped by the box
    K, D, D2, D1 = S.resolve_sensitivities(9, 1.0, 1.5, None)
    assert D2 == 1.5 and D1 == pytest.approx(4.5)  # ||d||_1 <= sqrt(K) ||d||_2
    with pytest.raises(ValueError, match="dim"):
        S.resolve_sensitivities(0, 1.0, None, None)
    with pytest.raises(ValueError, match="l2_sensitivity"):
        S.resolve_sensitivities(3, 1.0, -1.0, None)
    with pytest.raises(ValueError, match="sensitivity"):
        S.theorem8_lhs(1.0, 1.0, 1.0, 3, sensitivity=float("nan"))


@pytest.mark.parametrize("eps,gamma,b", [(1e-9, 1e7, 0.0), (1e-9, 1e7, 1e-10), (1e-6, 1e6, 0.0), (1e-3, 3e3, 0.3),
                                         (0.5, 2.0, 0.3), (5.0, 0.5, 0.3)])
def test_log_theorem8_lhs_accuracy(eps, gamma, b):
    """Q(A) - e^eps Q(B) against mpmath from the same A, B (40 digits), within the stated bound
    4e-16 (1 + |log Q(A)| + |log Q(B)| + eps) / |r| + 1e-14 relative, r = log(e^eps Q(B)/Q(A)) < 0: the
    cancellation in r itself (the first three cases have r ~ -1e-7 .. -1e-6; the others 1e-14)."""
    import mpmath as mp

    from fhsym.accounting.sufficient import _AB, log_theorem8_lhs

    A, B = _AB(eps, b * gamma, gamma, 3, 1.0, math.sqrt(3), 3.0)
    with mp.workdps(40):
        q = lambda x: mp.erfc(mp.mpf(x) / mp.sqrt(2)) / 2  # noqa: E731
        qa, qb = q(A), q(B)
        ref = mp.log(qa - mp.exp(mp.mpf(eps)) * qb)
        r = float(mp.log(mp.exp(mp.mpf(eps)) * qb / qa))
        bound = 4e-16 * (1 + abs(float(mp.log(qa))) + abs(float(mp.log(qb))) + eps) / abs(r) + 1e-14
        got = log_theorem8_lhs(eps, b * gamma, gamma, 3)
        assert abs(mp.exp(got - ref) - 1) < bound, (got, ref, bound)
