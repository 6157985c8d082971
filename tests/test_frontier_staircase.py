"""The staircase composed through a proven PLD (claim 'pld-kfold-sup'), against independent computations.

* The lemma behind ``Staircase.worst_profile_enclosure`` (for shifts 0 < d <= Delta <= Delta0 the loss
  takes only -eps0, 0, eps0 and the profile is non-decreasing in d): delta_d(eps) re-derived here by
  exact piecewise integration of the staircase density typed from its definition (Geng & Viswanath
  2016), in mpmath at 40 digits, on a grid of shifts -- no fhsym profile code.
* The claim's proven K-fold bound against the exact K-fold delta of the corner (a trinomial sum over the
  numbers of +eps0 and -eps0 losses, mpmath) and of a vector below the corner (a product of
  3-point laws with each coordinate's own mass): above both, and tight at the corner.
* The composed calibration: certified, re-checked, never noisier than basic composition, and refused
  where it does not apply.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import mpmath as mp
import pytest

import fhsym
from fhsym._core.sensitivities import resolve_sensitivities
from fhsym.accounting.claims import KFOLD_SUP
from fhsym.applications.staircase_pld import calibrate_pure, calibrate_staircase_pld, composed_delta
from fhsym.privacy.verdict import Verdict
from fhsym.calibration.engine import Request

mp.mp.dps = 40


def _q(x: Fraction) -> mp.mpf:
    """An exact rational as an mpf (its numerator / denominator at the working precision)."""
    return mp.mpf(x.numerator) / x.denominator


# ---------------------------------------------------------------------------
# the staircase from its definition


def _level(x: Fraction, d0: Fraction, w: Fraction) -> int:
    """l(|x|) = floor(|x|/D0) + [|x| - floor(|x|/D0) D0 >= w] (Geng & Viswanath's step index)."""
    x = abs(x)
    k = math.floor(x / d0)
    return k + (1 if x - k * d0 >= w else 0)


def _profile(eps0: float, gamma: float, d0: float, d: Fraction, eps: mp.mpf):
    """delta_d(eps) = int [g(t) - e^eps g(t + d)]_+ dt and the largest positive level difference, exactly piecewise.

    g(t) = a b^{l(|t|)}, a = (1 - b) / (2 (w + (D0 - w) b)), b = e^{-eps0}, w = fl(gamma D0) (the staircase's
    double); the integral is cut at |t| = periods * D0 (the mass beyond is b^periods < e^-75)."""
    periods = max(40, math.ceil(75 / eps0))
    D0, W = Fraction(d0), Fraction(gamma * d0)
    b = mp.e ** (-mp.mpf(eps0))
    a = (1 - b) / (2 * (_q(W) + (_q(D0) - _q(W)) * b))
    L = periods * D0
    pts = {-L, L}
    for k in range(-periods - 2, periods + 3):
        for e in (k * D0, k * D0 + W, k * D0 - W):
            for p in (e, e - d):
                if -L < p < L:
                    pts.add(p)
    pts = sorted(pts)
    total, top = mp.mpf(0), 0
    ee = mp.e ** eps
    for x0, x1 in zip(pts[:-1], pts[1:]):
        mid = (x0 + x1) / 2
        l0, l1 = _level(mid, D0, W), _level(mid + d, D0, W)
        top = max(top, l1 - l0)
        g0 = a * b ** l0
        val = g0 - ee * a * b ** l1
        if val > 0:
            total += val * _q(x1 - x0)
    return total, top


CASES = [(0.7, 0.3, 1.0), (2.0, 0.1, 0.5), (0.3, 0.45, 2.0), (1.3, 0.0, 1.0), (4.0, 0.22, 1.0)]


@pytest.mark.parametrize("eps0, gamma, d0", CASES)
def test_sup_over_the_shifts_is_the_profile_at_delta(eps0, gamma, d0):
    """delta_d(eps) <= delta_Delta(eps) for every shift on a grid in (0, Delta], the loss is in {-eps0, 0, eps0},
    and fhsym's enclosure at Delta holds the independent value."""
    st = fhsym.Staircase(eps0, d0, gamma)
    rng = random.Random(7)
    for Delta in (Fraction(d0), Fraction(d0) * Fraction(3, 4)):
        shifts = [Delta * Fraction(j, 8) for j in range(1, 9)] + [Delta * Fraction(rng.randint(1, 999), 1000) for _ in range(3)]
        for eps in (mp.mpf(0), mp.mpf(eps0 / 3)):  # floats: the enclosure is at the exact double
            at, top = _profile(eps0, gamma, d0, Delta, eps)
            assert top <= 1
            for d in shifts:
                v, tp = _profile(eps0, gamma, d0, d, eps)
                assert tp <= 1, (d, tp)  # n = l(|t + d|) - l(|t|) <= 1: the loss never exceeds eps0
                assert v <= at * (1 + mp.mpf(10) ** -30), (float(d), float(v), float(at))
            enc = st.worst_profile_enclosure(float(eps), float(Delta))
            assert enc.lower <= at <= enc.upper or abs(at - enc.upper) <= mp.mpf(10) ** -30, (enc, at)
        # delta(eps; Delta) / (1 - e^{eps - eps0}) is the same for every eps in [0, eps0): one positive loss value
        r0 = _profile(eps0, gamma, d0, Delta, mp.mpf(0))[0] / -mp.expm1(-mp.mpf(eps0))
        r1 = _profile(eps0, gamma, d0, Delta, mp.mpf(eps0) / 2)[0] / -mp.expm1(-mp.mpf(eps0) / 2)
        assert abs(r0 / r1 - 1) < mp.mpf(10) ** -30


def test_sup_beyond_the_design_sensitivity_is_refused():
    st = fhsym.Staircase(1.0, 1.0, 0.3)
    with pytest.raises(ValueError, match="sensitivity"):
        st.worst_profile_enclosure(0.5, 1.5)
    req = Request(3.0, 1e-6, resolve_sensitivities(4, 1.5, None, None))
    with pytest.raises(ValueError, match="sensitivity"):
        KFOLD_SUP.check(req.release(st))


# ---------------------------------------------------------------------------
# the K-fold bound


def _masses(eps0: float, gamma: float, d0: float, d: Fraction):
    """(p, q, r): P(loss = eps0), P(loss = -eps0), P(loss = 0) of one coordinate at shift d (independent)."""
    v, _ = _profile(eps0, gamma, d0, d, mp.mpf(0))
    p = v / -mp.expm1(-mp.mpf(eps0))
    q = mp.e ** (-mp.mpf(eps0)) * p  # the swapped pair: P(loss = -eps0) = e^{-eps0} P(loss = eps0)
    return p, q, 1 - p - q


def _composed(laws, eps0: float, eps: float) -> mp.mpf:
    """delta(eps) of the product of 3-point loss laws (p_i, q_i, r_i) on eps0 * {1, -1, 0}: exact convolution."""
    dist = {0: mp.mpf(1)}
    for p, q, r in laws:
        new = {}
        for m, w in dist.items():
            for step, pr in ((1, p), (-1, q), (0, r)):
                new[m + step] = new.get(m + step, mp.mpf(0)) + w * pr
        dist = new
    return sum((w * -mp.expm1(mp.mpf(eps) - m * mp.mpf(eps0)) for m, w in dist.items() if m * eps0 > eps), mp.mpf(0))


@pytest.mark.parametrize("eps0, gamma, K, eps", [(0.7, 0.3, 2, 0.5), (0.4, 0.2, 6, 1.0), (1.5, 0.1, 3, 2.0),
                                                 (0.2, 0.45, 12, 0.8)])
def test_proven_bound_holds_the_exact_corner_and_a_vector_below_it(eps0, gamma, K, eps):
    st = fhsym.Staircase(eps0, 1.0, gamma)
    req = Request(eps, 1e-6, resolve_sensitivities(K, 1.0, None, None))
    ev = KFOLD_SUP.certify_evidence(req.release(st), 1e-6)
    corner = _composed([_masses(eps0, gamma, 1.0, Fraction(1))] * K, eps0, eps)
    assert corner <= ev.upper <= corner * (1 + mp.mpf(10) ** -9) + mp.mpf(10) ** -300, (float(corner), ev.upper)
    below = [_masses(eps0, gamma, 1.0, Fraction(j + 1, K + 1)) for j in range(K)]  # shifts d_i < Delta
    assert _composed(below, eps0, eps) <= ev.upper
    assert ev.rigorous and ev.method == "pld-exact" and ev.grid["folds"] == K
    assert KFOLD_SUP.evidence(req.release(st), ev.grid) == ev  # the recorded grid repeats the bound bit for bit
    # the search's float evaluation agrees with the exact sum
    assert abs(composed_delta(eps0, gamma, eps, K) - corner) <= 1e-9 * corner + 1e-300


# ---------------------------------------------------------------------------
# the calibration


@pytest.mark.parametrize("eps, delta, K, T", [(3.0, 1e-6, 5, 1), (1.0, 1e-8, 20, 1), (0.5, 1e-6, 10, 10),
                                              (10.0, 1e-5, 2, 1)])
def test_composed_staircase_is_certified_and_never_noisier_than_basic_composition(eps, delta, K, T):
    cal = calibrate_staircase_pld(eps, delta, dim=K, compositions=T)
    pure = calibrate_pure(eps, delta, dim=K, compositions=T)
    assert cal.certificate.claim == "pld-kfold-sup" and cal.achieved_delta <= delta
    assert fhsym.verify_certificate(cal.certificate.to_json())
    assert cal.variance <= pure.variance
    assert cal.parameters["sensitivity"] == 1.0 and cal.certificate.grid["folds"] == K * T
    forged = cal.certificate.to_dict()
    more = cal.parameters["epsilon"] * (1 + 1e-3)  # a larger design eps0: less noise than certified
    forged["parameters"]["epsilon"], forged["decimal"]["parameters"]["epsilon"] = more.hex(), repr(more)
    try:  # FALSE, or refused: its recorded grid no longer fits the forged noise (a window over its max_window)
        verdict = fhsym.verify_certificate(forged)
    except ValueError as exc:
        assert "grid" in str(exc)
    else:
        assert verdict is Verdict.FALSE


def test_composed_staircase_gains_where_pure_composition_is_loose():
    """At K = 100 basic composition gives eps/100 per coordinate; the proven PLD allows far more (measured gain)."""
    cal = calibrate_staircase_pld(1.0, 1e-6, dim=100)
    pure = calibrate_pure(1.0, 1e-6, dim=100)
    assert pure.variance / cal.variance > 3.0
    assert cal.parameters["epsilon"] > 2 * pure.parameters["epsilon"]


def test_composed_staircase_refuses_one_coordinate_and_scales_with_the_sensitivity():
    with pytest.raises(ValueError, match="dim"):
        calibrate_staircase_pld(1.0, 1e-6, dim=1)
    one = calibrate_staircase_pld(2.0, 1e-6, dim=4)
    three = calibrate_staircase_pld(2.0, 1e-6, dim=4, sensitivity=3.0)
    assert three.variance == pytest.approx(9 * one.variance, rel=1e-9)
    assert three.certificate.sensitivity == 3.0 and fhsym.verify_certificate(three.certificate)
