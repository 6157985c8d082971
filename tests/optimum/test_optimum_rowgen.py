"""Row generation (fhsym.optimum.rowgen): a restricted LP's dual still proves the lower end, checked independently.

The dual of an LP that holds only some rows (j, k), extended by zero on the others, is re-checked by the reference
reconstruction of the full LP (tests/optimum/optimum_reference.py: rows as dicts, exact Fractions, no fhsym code);
weak duality is checked against a feasible point computed without fhsym's LP (the quantised law of a calibrated
Gaussian, mpmath quadrature); and the lower ends at eps 5-10 lie below the variances of two laws whose privacy does
not come from the LP: the pure staircase (its variance summed here in mpmath from its density) and the truncated
staircase (its certified variance).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath as mp
import pytest

import fhsym
from fhsym.optimum.api import choose_grid
from fhsym.optimum.rowgen import solve_lp_rows
from fhsym.optimum.solve import ratio_above, solve_lp

from optimum_reference import dual_bound
from test_optimum_api import _constraint_values, _quantised_gaussian


def _rows_of_full_lp(m, M):
    return sum(2 * M - j + 1 for j in range(1, m + 1)) + 2 * m + 1


@pytest.mark.parametrize("eps, delta, m", [(5.0, 1e-6, 16), (10.0, 1e-8, 16), (2.0, 1e-5, 8)])
def test_the_restricted_dual_is_certified_by_the_reference(eps, delta, m):
    _, M = choose_grid(eps, delta, bins=m)
    sol = solve_lp_rows(eps, delta, m, M, full_columns=0, seed_columns=0)  # every grid 1, 2, ..., m by rows
    assert sol.n_rows < _rows_of_full_lp(m, M)  # it really held fewer rows than the LP has
    ref = dual_bound(sol.dual.to_json())  # the full LP rebuilt independently, the missing rows' duals zero
    assert ref == sol.dual.lp_bound()
    full = solve_lp(eps, delta, m, M)
    # the restricted LP at the end of the separation has the full LP's value: its bound is as tight (to float noise)
    assert abs(float(ref) / float(full.dual.lp_bound()) - 1) < 1e-6
    # and its primal keeps every row of the full LP (to the separation's tolerance, in units of delta)
    rows = _constraint_values(list(sol.q), sol.t, m, M, ratio_above(eps))
    assert max(rows) <= delta * (1 + 1e-3)


def test_weak_duality_against_a_private_gaussian():
    """The restricted dual's bound is below the LP cost of a feasible point no LP produced."""
    eps, delta, m = 1.0, 1e-3, 4
    sigma = fhsym.calibrate(eps, delta, mechanism="gaussian").mechanism.sigma
    _, M = choose_grid(eps, delta, bins=m)
    q, t = _quantised_gaussian(sigma, m, M)
    with mp.workdps(30):
        assert max(_constraint_values(q, t, m, M, mp.mpf(ratio_above(eps)))) <= delta  # feasible
        w = mp.mpf(1) / m
        cost = sum((1 if i == 0 else 2) * (i * w) ** 2 * q[i] for i in range(M + 1)) + 2 * ((M + 1) * w) ** 2 * t
    sol = solve_lp_rows(eps, delta, m, M, full_columns=0, seed_columns=0)
    bound = dual_bound(sol.dual.to_json())
    assert sol.n_rows < _rows_of_full_lp(m, M)
    assert 0 < float(bound) <= float(cost)
    assert float(sol.dual.variance_bound()) <= sigma ** 2


def _staircase_variance(eps, gamma):
    """Var of the pure staircase with sensitivity 1 (Geng & Viswanath), summed from its density in mpmath:
    a e^{-k eps} on |x| in [k, k + gamma), a e^{-(k+1) eps} on [k + gamma, k + 1), a normalising."""
    terms = int(100 / eps) + 2  # the rest weighs below e^-100
    with mp.workdps(40):
        e, g = mp.mpf(eps), mp.mpf(gamma)
        mass = sum(mp.exp(-k * e) * (g + (1 - g) * mp.exp(-e)) for k in range(terms))
        a = 1 / (2 * mass)
        second = sum(mp.exp(-k * e) * (((k + g) ** 3 - k ** 3) + mp.exp(-e) * ((k + 1) ** 3 - (k + g) ** 3)) / 3
                     for k in range(terms))
        return 2 * a * second


@pytest.mark.parametrize("eps, delta", [(5.0, 1e-6), (7.0, 1e-6), (10.0, 1e-7)])
def test_lower_ends_lie_below_independent_laws(eps, delta):
    _, M = choose_grid(eps, delta, bins=32)
    sol = solve_lp_rows(eps, delta, 32, M, full_columns=0)
    lower = sol.dual.variance_bound()
    assert lower > 0 and dual_bound(sol.dual.to_json()) == sol.dual.lp_bound()
    # any gamma gives a pure eps-DP staircase, so V* is below each; the lower end must be below the least
    stair = min(_staircase_variance(eps, g / 100) for g in range(1, 100))
    assert lower <= Fraction(str(mp.nstr(stair, 30)))
    ts = fhsym.calibrate(eps, delta, mechanism="truncated_staircase").mechanism
    assert lower <= Fraction(ts.variance_upper())
    # and it is not vacuous: on 32 bins per unit the lower end loses about 1/(3 * 32^2) = 3.3e-4 to the grid
    assert float(stair) - float(lower) < 4e-4


def test_a_cycling_restricted_lp_is_solved_again_at_the_retry_tolerance(monkeypatch):
    """A restricted LP whose dual simplex runs past CYCLE_ITERATIONS per row (as at (2.5, 1e-10) on 32 bins) is solved
    again at RETRY_TOLERANCE: forced here by an iteration budget of one, the retry's dual still re-checks
    independently and its value is the full LP's."""
    from fhsym.optimum import rowgen

    calls = []
    real = rowgen.linprog

    def spy(*args, **kwargs):
        res = real(*args, **kwargs)
        calls.append((kwargs["options"]["primal_feasibility_tolerance"], kwargs["options"]["maxiter"], res.status))
        return res

    monkeypatch.setattr(rowgen, "linprog", spy)
    monkeypatch.setattr(rowgen, "MIN_ITERATIONS", 1)
    monkeypatch.setattr(rowgen, "CYCLE_ITERATIONS", 0)
    eps, delta, m = 10.0, 1e-8, 16
    _, M = choose_grid(eps, delta, bins=m)
    sol = solve_lp_rows(eps, delta, m, M, full_columns=0, seed_columns=0)
    assert calls and all(c[2] in (0, 1) for c in calls)
    assert any(c[0] == rowgen.TOLERANCE and c[1] == 1 and c[2] == 1 for c in calls)  # the budget ran out ...
    assert any(c[0] == rowgen.RETRY_TOLERANCE and c[2] == 0 for c in calls)  # ... and the retry solved it
    assert dual_bound(sol.dual.to_json()) == sol.dual.lp_bound()
    full = solve_lp(eps, delta, m, M)
    assert abs(float(sol.dual.lp_bound()) / float(full.dual.lp_bound()) - 1) < 1e-6
