"""The resolved sensitivity set has the tightest radii: each is the exact maximum of its norm over the set (issue 32, item 5).

References are independent of the resolver's formulas: the maximum of the (convex) l2 norm over the
polytope {|d_i| <= a, ||d||_1 <= c} by enumerating its vertices (every choice of K active constraints
among x_i = 0, x_i = a and sum x_i = c, solved in exact rationals), the maximum of the (linear) l1 norm
over the box and the l2 ball by scipy's SLSQP from many starts, and random points of the set, whose
norms must never exceed the radii.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import brentq, minimize
from scipy.stats import norm

import fhsym
from fhsym._core.sensitivities import box_l1_l2_max, resolve_sensitivities, sqrt_up


def _solve_exact(A, b):
    """Gauss-Jordan in Fractions; None if singular."""
    n = len(A)
    M = [list(map(Fraction, row)) + [Fraction(v)] for row, v in zip(A, b)]
    for col in range(n):
        piv = next((r for r in range(col, n) if M[r][col] != 0), None)
        if piv is None:
            return None
        M[col], M[piv] = M[piv], M[col]
        for r in range(n):
            if r != col and M[r][col] != 0:
                f = M[r][col] / M[col][col]
                M[r] = [x - f * y for x, y in zip(M[r], M[col])]
    return [M[i][n] / M[i][i] for i in range(n)]


def _vertex_max_sq(K, a, c):
    """max sum x_i^2 over {0 <= x_i <= a, sum x_i <= c} by brute-force vertex enumeration (exact)."""
    a, c = Fraction(a), Fraction(c)
    planes = [([1 if j == i else 0 for j in range(K)], Fraction(0)) for i in range(K)]
    planes += [([1 if j == i else 0 for j in range(K)], a) for i in range(K)]
    planes += [([1] * K, c)]
    best = Fraction(0)
    for active in itertools.combinations(planes, K):
        x = _solve_exact([p[0] for p in active], [p[1] for p in active])
        if x is None or any(v < 0 or v > a for v in x) or sum(x) > c:
            continue
        best = max(best, sum(v * v for v in x))
    return best


def _is_up(r, exact_sq):
    """r is the smallest double with r^2 >= exact_sq."""
    below = math.nextafter(r, 0.0)
    return Fraction(r) ** 2 >= exact_sq > Fraction(below) ** 2


@pytest.mark.parametrize("K", [2, 3, 4, 5])
@pytest.mark.parametrize("a, c", [(1.0, 0.5), (1.0, 1.0), (1.0, 1.5), (1.0, 2.5), (0.3, 1.0), (1.0, 3.7), (2.0, 100.0),
                                  (0.1, 0.35)])
def test_l2_radius_of_box_and_l1_ball_is_the_vertex_maximum(K, a, c):
    s = resolve_sensitivities(K, a, None, c)
    exact = _vertex_max_sq(K, min(a, c), c)
    assert _is_up(s.l2_sensitivity, exact)
    assert s.sensitivity == min(a, c)


@pytest.mark.parametrize("K", [2, 3, 5, 8])
@pytest.mark.parametrize("a, b", [(1.0, 0.5), (1.0, 1.2), (1.0, 2.0), (0.5, 3.0), (1.0, 100.0)])
def test_l1_radius_of_box_and_l2_ball_is_the_numerical_maximum(K, a, b):
    s = resolve_sensitivities(K, a, b, None)
    D = min(a, b)
    cons = [{"type": "ineq", "fun": lambda x: b * b - x @ x, "jac": lambda x: -2 * x}]
    rng = np.random.default_rng(K)
    best = 0.0
    for _ in range(20):
        x0 = rng.uniform(0, D, K)
        r = minimize(lambda x: -x.sum(), x0, jac=lambda x: -np.ones(K), bounds=[(0, D)] * K, constraints=cons,
                     method="SLSQP", options={"ftol": 1e-14, "maxiter": 500})
        if r.success and r.x @ r.x <= b * b * (1 + 1e-12):
            best = max(best, float(r.x.sum()))
    assert s.l1_sensitivity >= best * (1 - 1e-12)           # never below the maximum (never under-noises)
    assert s.l1_sensitivity == pytest.approx(best, rel=1e-7)  # and it is the maximum


@settings(max_examples=300, deadline=None)
@given(K=st.integers(2, 50),
       radii=st.tuples(*[st.one_of(st.none(), st.floats(1e-3, 1e3)) for _ in range(3)]))
def test_resolved_radii_hold_on_the_set_and_are_attained(K, radii):
    a, b, c = radii
    s = resolve_sensitivities(K, a, b, c)
    # resolving is idempotent: a resolved set is its own resolved form (what the verifier checks)
    assert tuple(resolve_sensitivities(K, s.sensitivity, s.l2_sensitivity, s.l1_sensitivity)) == tuple(s)
    inf = math.inf
    A, B, C = (inf if v is None else v for v in (a, b, c))
    if a is None and b is None and c is None:
        A = 1.0
    # the vectors attaining each radius lie in the set (up to the rounding): radii are tight
    D = min(A, B, C)
    assert Fraction(s.sensitivity) == Fraction(D)
    t = min(D, B / math.sqrt(K))
    assert s.l1_sensitivity <= min(C, K * t) * (1 + 1e-12)
    # random points of the set never exceed the radii (soundness)
    rng = np.random.default_rng(K)
    x = rng.uniform(-D, D, (200, K)) * rng.uniform(0, 1, (200, 1)) ** 3
    x[:, : K // 2] = np.sign(x[:, : K // 2]) * D
    l1, l2 = np.abs(x).sum(1), np.sqrt((x * x).sum(1))
    scale = np.minimum(1.0, np.minimum(B / l2, C / l1))
    x = x * scale[:, None]
    assert np.all(np.sqrt((x * x).sum(1)) <= s.l2_sensitivity * (1 + 1e-12))
    assert np.all(np.abs(x).sum(1) <= s.l1_sensitivity * (1 + 1e-12))


def test_box_l1_l2_max_formula_by_hand():
    # K = 30, box 1, l1 10: ten coordinates at 1 -> sqrt(10); l1 2.5 in 4-D: (1, 1, 0.5, 0) -> sqrt(2.25) = 1.5
    assert box_l1_l2_max(1.0, 10.0, 30) == sqrt_up(Fraction(10))
    assert box_l1_l2_max(1.0, 2.5, 4) == 1.5
    assert box_l1_l2_max(1.0, 1e300, 3) == resolve_sensitivities(3, 1.0, None, None).l2_sensitivity
    assert _is_up(sqrt_up(Fraction(1, 3)), Fraction(1, 3))
    assert _is_up(sqrt_up(Fraction(10) ** 600), Fraction(10) ** 600) or sqrt_up(Fraction(10) ** 600) == math.inf
    assert sqrt_up(Fraction(10) ** 700) == math.inf
    tiny = Fraction(5e-324) ** 2
    assert _is_up(sqrt_up(tiny * 7), tiny * 7)


def _analytic_gaussian_sigma(eps, delta, sens):
    """sigma of the analytic Gaussian mechanism (Balle & Wang 2018) by root finding on its exact profile."""
    def f(s):
        return norm.cdf(sens / (2 * s) - eps * s / sens) - math.exp(eps) * norm.cdf(-sens / (2 * s) - eps * s / sens) - delta
    return brentq(f, 1e-3 * sens, 1e3 * sens, xtol=1e-14, rtol=1e-15)


def test_reproducer_gaussian_box_with_l1_ball_uses_sqrt10():
    """Issue 32 item 5: the box of side 1 with l1 radius 10 in 30-D has largest l2 norm sqrt(10), not sqrt(30)."""
    cal = fhsym.calibrate(1.0, 1e-6, sensitivity=1.0, dim=30, l1_sensitivity=10.0, mechanism="gaussian")
    assert _is_up(cal.l2_sensitivity, Fraction(10))
    sigma = _analytic_gaussian_sigma(1.0, 1e-6, math.sqrt(10.0))
    assert cal.variance >= sigma**2 * (1 - 1e-9)             # covers the radius sqrt(10) (never under-noises)
    assert cal.variance == pytest.approx(sigma**2, rel=1e-6)  # and no more than it needs
    old = _analytic_gaussian_sigma(1.0, 1e-6, math.sqrt(30.0)) ** 2
    assert old / cal.variance == pytest.approx(3.0, rel=1e-6)  # what the sqrt(30) radius cost
    assert fhsym.verify_certificate(cal.certificate)
    cert = fhsym.Certificate.from_json(cal.certificate.to_json())
    assert (cert.sensitivity, cert.l2_sensitivity, cert.l1_sensitivity) == (1.0, cal.l2_sensitivity, 10.0)


def test_certificate_with_the_old_looser_l2_radius_is_refused():
    """A certificate recording the pre-fix radius sqrt(30) is not the resolved form: the verifier refuses it."""
    cal = fhsym.calibrate(1.0, 1e-6, sensitivity=1.0, dim=30, l1_sensitivity=10.0, mechanism="gaussian")
    d = cal.certificate.to_dict()
    d["l2_sensitivity"] = math.sqrt(30.0).hex()
    with pytest.raises(ValueError, match="l2_sensitivity"):
        fhsym.verify_certificate(d)


def test_shipped_frontier_certificates_are_in_resolved_form():
    """No certificate of the shipped frontier data resolves differently under the tighter resolver."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "scripts" / "resolved_sets.py"
    spec = importlib.util.spec_from_file_location("resolved_sets", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    n, bad = mod.changed(mod.DEFAULT)
    assert n > 20000 and bad == []
