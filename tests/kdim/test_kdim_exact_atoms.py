"""Loss atoms on the lattice: the certified bound against an exact K-fold profile (tests/kdim/kfold_atoms_reference.py).

The reference is written from the FH density definition with mpmath (atoms, the exponential middle piece and its
Irwin-Hall convolutions), sharing no code with fhsym; it is itself checked here against mpmath quadrature of the
hockey-stick integral (K = 1) and against Algorithm 2 (K = 2).
"""

from __future__ import annotations

import math

import mpmath as mp
import pytest

from fhsym.applications import account_run, calibrate_dpcd_noise, dpcd_parameters
from fhsym.accounting import aligned_step, kdim_pld

from kfold_atoms_reference import kfold_delta_bracket, masses


def _rho(t, a):
    return a * abs(t) if abs(t) <= a else (t * t + a * a) / 2


def test_reference_masses_and_one_dimensional_profile_from_the_definition():
    a, g, D = 3.0, 1.5, 1.0
    with mp.workdps(30):
        kappa = mp.quad(lambda t: mp.exp(-_rho(t, a) / g**2), [-mp.inf, -a, 0, a, mp.inf])
        assert abs(masses(a, g, D)[5] / kappa - 1) < 1e-25
        pp, pm, pc, qp, qm, _, _ = masses(a, g, D)
        assert abs(pp + pm + pc + qp + qm - 1) < 1e-30
        for eps in (0.3, 1.0, 1.4):
            def integrand(t):
                return max(0, mp.exp(-_rho(t, a) / g**2) - mp.exp(eps) * mp.exp(-_rho(t + D, a) / g**2)) / kappa

            ref = mp.quad(integrand, [-mp.inf, -a - D, -a, -D, 0, a - D, a, mp.inf])
            lo, up = kfold_delta_bracket(eps, a, g, D, 1, dps=30)
            assert lo <= ref * (1 + 1e-20) and ref <= up * (1 + 1e-20)


def test_reference_two_fold_agrees_with_algorithm_2():
    from fhsym.accounting.iterative import iterative_profile

    a, g = 8.0, 2.0  # alpha/gamma = 4: the tails T+-, which the reference brackets, weigh ~1e-7
    for eps in (1.0, 2.5, 3.9):
        lo, up = kfold_delta_bracket(eps, a, g, 1.0, 2, dps=30)
        v, err = iterative_profile(eps, a, g, 2)
        assert float(lo) - 2 * err[0] <= v[0] <= float(up) + 2 * err[0]
        assert float(up - lo) < 1e-6


@pytest.mark.parametrize("K,eps_frac", [(2, 0.999), (4, 0.9999), (4, 1.0), (8, 0.95)])
def test_certified_bound_is_tight_at_the_atoms(K, eps_frac):
    """Laplace regime (alpha/gamma = 20): delta is carried by the atoms; aligned, the certificate is tight."""
    g = 10.0
    a = 20.0 * g
    atom = a / g**2
    eps = eps_frac * K * atom
    lo, up = (float(x) for x in kfold_delta_bracket(eps, a, g, 1.0, K, dps=30))
    pld = kdim_pld(a, g, K, upper_only=True)
    assert pld.step == aligned_step(pld.step, a, g) and abs(atom / pld.step - round(atom / pld.step)) < 1e-9
    cert = float(pld.delta_upper(eps))
    assert lo <= cert * (1 + 1e-12)
    # tight: relative 2e-3 (an atom a step too high would cost a factor ~(1 + step/(K atom - eps))), plus the
    # certificate's absolute float allowances (~1e-14: the 1-D construction's L1 rounding slack and the sum's rounding)
    assert cert <= up * (1 + 2e-3) + 1e-13


def test_dpcd_k4_run_certified_delta_matches_the_exact_value():
    """The DP-CD K = 4 FH run (eps = 1, delta = 1.41e-5): certified delta within 10x (here within 1%) of the exact one.

    The shape is fixed at b = 4.64 (near-Laplace), where the reference bracket is tight (its width is the mass of
    the Gaussian tails); the optimal shape (b ~ 2.5) puts ~0.2 % of the mass there and the bracket is then
    [4e-18, 4e-3]: a Monte Carlo check of that calibration (4e7 draws) gave 1.413e-5 +- 1.4e-7 against its
    certified 1.40997e-5."""
    cal = calibrate_dpcd_noise(1.0, 1.41e-5, 1, 4, "flipped_huber", "pld", shape=4.64)
    assert cal.shape > 1.0  # near-Laplace: four atoms of +-b/g carry delta(1)
    lo, up = (float(x) for x in kfold_delta_bracket(1.0, cal.shape * cal.multiplier, cal.multiplier, 1.0, 4, dps=30))
    assert up < 1.41e-5 * 1.001 and up > 0
    assert lo <= cal.achieved_delta * (1 + 1e-12)
    assert cal.achieved_delta <= 1.01 * up
    # the run's absolute parameters (lambda_i differ; the privacy is scale free), through account_run
    lam = [0.01, 0.02, 0.05, 0.3]
    a, gm = dpcd_parameters(cal, lam)
    acc = account_run(a, gm, lam, 1, 1.0, 1.41e-5, "pld")
    assert lo <= acc.delta * (1 + 1e-12) and acc.delta <= 1.01 * up and acc.ok


def test_main_branch_k4_parameters_were_tight_too():
    """The K = 4 run as fhsym calibrated it before the atoms were aligned (multiplier 86.17, shape 21.54): its four atoms
    add up to 1.000126 > eps = 1, so delta(1) >= P(all four at +a) (1 - e^{1 - 4a}) ~ 7.9e-6 -- the certified 7.9e-6
    was right, and stays so."""
    g, b = 86.16655665712588, 21.54434690031882
    lo, up = (float(x) for x in kfold_delta_bracket(1.0, b * g, g, 1.0, 4, dps=30))
    assert 7.8e-6 < lo <= up < 7.9e-6
    acc = account_run([b * g] * 4, [g] * 4, [1.0] * 4, 1, 1.0, 1.41e-5, "pld")
    assert lo <= acc.delta * (1 + 1e-12) and acc.delta <= up * 1.01  # measured: 1.0011
