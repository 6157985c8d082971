"""The capped weak-duality bound (``DualCertificate.cap``, issue 31): valid, never below the uncapped one, and the
one an independent reconstruction gives.

At eps = 10 HiGHS returns row duals ``u_{j,k}`` a tolerance above zero; the exact check clips them to ``[z_j, 0]``,
which moves the reduced cost of ``q_|k-j|`` by ``r u = e^10 u``, and the uncapped bound pays that on the whole
normalisation weight.  The capped bound pays it only on the mass a column can hold at a cost ``<= U``.

* validity: ``lp_bound() <= c.x`` for a feasible point ``x`` of the LP (the quantised law of the calibrated Gaussian,
  mpmath quadrature; ``test_optimum_api``), for perturbed duals and caps from 0 to far above;
* the reference: ``optimum_reference.dual_bound`` computes the capped loss by the knapsack's Lagrangian dual (fhsym
  by the greedy), exactly, on the LP's dual with a tolerance-sized positive ``u`` added;
* the two exact routes of fhsym (integers, Fractions) agree, the JSON round trip keeps ``cap``, bad caps fail.
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

import mpmath as mp
import pytest

import fhsym
from fhsym.optimum import DualCertificate
from fhsym.optimum.api import choose_grid
from fhsym.optimum.solve import cap_of, solve_lp
from optimum_reference import dual_bound
from test_optimum_api import _quantised_gaussian


def _perturbed(dual, rng):
    u = {key: v * rng.choice([0.0, 0.5, 1.0, 3.0, -1.0]) + rng.choice([0.0, 1e-3, -1e-3, 2e-8])
         for key, v in dual.u.items()}
    z = tuple(v * rng.choice([1.0, 2.0, -1.0]) for v in dual.z)
    ue = tuple(v + rng.choice([0.0, -0.1, 0.1]) for v in dual.u_e)
    return replace(dual, u=u, z=z, u_e=ue, y=dual.y * rng.choice([1.0, 0.9, 1.1]))


def test_capped_bounds_are_below_a_feasible_point():
    eps, delta, m = 1.0, 1e-3, 2
    sigma = fhsym.calibrate(eps, delta, mechanism="gaussian").mechanism.sigma
    _, M = choose_grid(eps, delta, bins=m)
    q, t = _quantised_gaussian(sigma, m, M)
    with mp.workdps(30):
        w = mp.mpf(1) / m
        cost = sum((1 if i == 0 else 2) * (i * w) ** 2 * q[i] for i in range(M + 1)) + 2 * ((M + 1) * w) ** 2 * t
    dual = solve_lp(eps, delta, m, M).dual
    assert dual.cap is not None and dual.cap > float(dual.lp_bound()) > 0
    rng = random.Random(3131)
    gained = 0
    for _ in range(40):
        d = _perturbed(dual, rng)
        plain = replace(d, cap=None).lp_bound()
        for U in (0.0, float(cost) / 2, float(cost), 2 * float(cost), 50.0):
            capped = replace(d, cap=U).lp_bound()
            assert capped == dual_bound(replace(d, cap=U).to_json())  # the knapsack's Lagrangian dual: exact
            assert capped <= Fraction(U) and mp.mpf(capped.numerator) / capped.denominator <= cost
            if U >= float(plain):
                assert capped >= plain  # never below the uncapped bound once U is above it
                gained += capped > plain
    assert gained > 0  # the caps did something in this run


def test_capped_bound_is_the_independent_one_at_eps_10():
    sol = solve_lp(10.0, 1e-5, m=8, M=40)
    dual = sol.dual
    # a tolerance-sized positive dual on a row (j, k): the clipping costs r * 2e-8 = 4.4e-4 on q_|k-j|
    key = max(dual.u, key=lambda jk: abs(jk[1] - jk[0]))
    bumped = replace(dual, u={**dual.u, key: 2e-8})
    for d in (dual, bumped):
        js = d.to_json()
        assert js["cap"] == d.cap and DualCertificate.from_json(js) == d
        assert dual_bound(js) == d.lp_bound() == d._lp_bound_fractions()
        plain = replace(d, cap=None)
        assert dual_bound(plain.to_json()) == plain.lp_bound() == plain._lp_bound_fractions()
        assert plain.lp_bound() <= d.lp_bound() <= Fraction(sol.value) * (1 + Fraction(1, 10**9))
    loss_plain = sol.value - float(replace(bumped, cap=None).lp_bound())
    loss_capped = sol.value - float(bumped.lp_bound())
    assert loss_plain > 1e-4 and loss_capped < 1e-3 * loss_plain, (loss_plain, loss_capped)


def test_the_tail_column_cap_is_the_reference_one():
    """The tail column ``t`` costs ``2 ((M+1)/m)^2`` per unit of ``x_t`` (weight 2), so a capped bound lets it hold at
    most ``U m^2/(M+1)^2`` of the normalisation weight.  Duals ``u_{j,E} = z_j = -60`` put ``r sum_j u_{j,E}`` on
    ``rho_t`` (-88 here: the only large negative reduced cost): the uncapped bound pays ``-rho_t/2`` on the whole weight,
    the capped one only on what ``t`` may hold; fhsym's greedy equals the reference's Lagrangian dual exactly."""
    eps, delta, m = 1.0, 1e-3, 2
    _, M = choose_grid(eps, delta, bins=m)
    dual = solve_lp(eps, delta, m, M).dual
    d = replace(dual, u_e=tuple(-60.0 for _ in dual.u_e), z=tuple(min(v, -60.0) for v in dual.z))
    rho, rho_t = d.reduced_costs()
    assert rho_t < -80 and min(rho) > -1e-6  # t carries the loss
    plain = replace(d, cap=None).lp_bound()
    assert plain == dual_bound(replace(d, cap=None).to_json()) < -40
    base = Fraction(d.y) + Fraction(d.delta) * sum(Fraction(v) for v in d.z)
    qloss = max(0, -min(rho))  # what the q columns can cost on the rest of the weight (< 1e-6)
    for U in (0.0, 1.0, 2.0, 10.0, 50.0, 1e4):
        capped = replace(d, cap=U)
        got = capped.lp_bound()
        assert got == capped._lp_bound_fractions() == dual_bound(capped.to_json())
        held = min(Fraction(1), Fraction(U) * m * m / (M + 1) ** 2)  # the weight t may hold at a cost <= U
        by_hand = base + held * rho_t / 2
        assert min(Fraction(U), by_hand - qloss) <= got <= min(Fraction(U), by_hand)
    assert replace(d, cap=2.0).lp_bound() > 1 > -40 > plain  # the cap binds on t: 43 more than the uncapped bound
    assert replace(d, cap=1e4).lp_bound() == plain  # t may hold all the weight: the uncapped bound


def test_cap_of_and_bad_caps():
    dual = solve_lp(1.0, 1e-6, m=2, M=30).dual
    base = dual.y + dual.delta * sum(min(v, 0.0) for v in dual.z)
    assert dual.cap == cap_of(dual.y, dual.delta, dual.z) > base
    for bad in (-1.0, float("inf"), float("nan")):
        with pytest.raises(ValueError, match="cap"):
            replace(dual, cap=bad).lp_bound()
