"""The declared finite-cell law (issue 28): piecewise uniform, declared in fhsym/symbolic/laws/piecewise_uniform.py,
derived by fhsym.symbolic.cells, printed into fhsym/_generated/declared/piecewise_uniform.py, run by the class.

References are exact rational sums of the definition (the cells' masses, from the weights alone) and mpmath
quadrature of the density (proofs/reference_cells.py), never the code under test.  Freshness of the generated
module is tests/test_codegen_targets.py's; the symbolic proofs are ``python -m proofs --only step_piecewise_uniform``.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import mpmath
import numpy as np
import pytest
import sympy as sp

import fhsym
from fhsym._generated.declared import piecewise_uniform as gen
from fhsym.noise import PiecewiseUniform
from fhsym.symbolic.cells import HALF, a, cell_index, derive_cells, peel
from fhsym.symbolic.laws import piecewise_uniform as PU
from proofs.reference_cells import CellRef

CASES = [(0.5, (2, 1)), (0.25, (7, 5, 3, 0, 1)), (1.0, (0, 1)), (3.0, (5,)), (2.0**-10, (10**9, 3, 10**8, 77, 1))]


def test_the_generated_module_is_the_declaration_and_the_class_runs_it():
    assert gen.DIGEST == PU.DECLARATION.digest()
    assert Path(gen.__file__).read_text().startswith("# GENERATED FILE - DO NOT EDIT.")
    src = Path(fhsym.noise.piecewise_uniform.__file__).read_text()
    for name in ("_gen.sf(", "_gen.isf(", "_gen.half(", "_gen.half_0(", "_gen.logpdf(", "_gen.moment_cell(",
                 "_gen.entropy_cell(", "_gen.deficit_term(", "_gen.profile("):
        assert name in src


def test_derivation_sf_is_one_half_at_zero_and_continuous():
    dv = derive_cells(PU.DECLARATION)
    assert sp.simplify(dv.sf_raw.subs({cell_index: 0, a: HALF})) == HALF
    assert sp.simplify(peel(dv.sf_raw.subs(a, 0)) - dv.sf_raw.subs(cell_index, cell_index + 1).subs(a, 1)) == 0


@pytest.mark.parametrize("nu", [0, 1, 2, 3, 4, 6, 9])
def test_generated_cell_moment_is_the_exact_integral(nu):
    t = sp.Symbol("t")
    for kk in (0, 1, 4, 37):
        got = gen.moment_cell(nu, kk)
        assert isinstance(got, (int, Fraction))
        assert sp.Rational(got.numerator, got.denominator) == sp.integrate(t**nu, (t, kk - HALF, kk + HALF))


def _exact_half(width, weights, x: Fraction) -> Fraction:
    """P(0 < T <= x), x >= 0, summed over the cells of the definition."""
    w, N = Fraction(width), weights[0] + 2 * sum(weights[1:])
    tot = Fraction(0)
    for kk in range(len(weights)):
        lo, hi = max((kk - Fraction(1, 2)) * w, Fraction(0)), min((kk + Fraction(1, 2)) * w, x)
        if hi > lo:
            tot += Fraction(weights[kk], N) * (hi - lo) / w
    return tot


@pytest.mark.parametrize("width,weights", CASES)
def test_half_mass_is_the_exact_sum_rounded(width, weights):
    law = PiecewiseUniform(width, weights)
    M = len(weights) - 1
    xs = (np.arange(M + 1) + np.random.default_rng(3).uniform(-0.5, 0.5, M + 1)).clip(0) * width
    for x in xs:
        ref = _exact_half(width, weights, Fraction(float(x)))
        got = float(law._half_mass(x))
        assert abs(got - float(ref)) <= 2.3e-16 * float(ref), (x, got, float(ref))  # measured: 2.2e-16


@pytest.mark.parametrize("width,weights", CASES[:4])
def test_against_quadrature_of_the_definition(width, weights):
    law = PiecewiseUniform(width, weights)
    ref = CellRef(weights, dps=30)
    with mpmath.workdps(30):
        for n in (2, 4, 6):
            assert law.moment(n) == pytest.approx(float(ref.moment(n)) * width**n, rel=2e-16)
        assert law.entropy() == pytest.approx(float(ref.entropy() + mpmath.log(width)), rel=1e-15, abs=1e-15)
        for p in (1e-3, 0.2, 0.45):
            assert float(law.isf(p)) == pytest.approx(float(ref.isf(p)) * width, rel=1e-14, abs=1e-15 * width)
        for dd, ee in ((0.6, 0.0), (1.0, 0.5), (2.3, 1.1)):
            want = float(ref.profile(ee, mpmath.mpf(dd * width) / mpmath.mpf(width)))
            assert float(law.privacy_profile(ee, dd * width)) == pytest.approx(want, rel=1e-14, abs=1e-17)
