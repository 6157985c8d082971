"""The declared lattice law (issue 28): the discrete flipped Huber, declared by its energy pieces in
fhsym/symbolic/laws/discrete_flipped_huber.py, derived by fhsym.symbolic.lattice_laws, printed into
fhsym/_generated/declared/discrete_flipped_huber.py and run by the class (the centre's scaled log tail, the Gaussian
tail's summand exponent).

References are direct mpmath sums of the definition, never the code under test; the class against exact 80-digit
sums is tests/test_discrete.py's and ``python -m proofs --only discrete``; the symbolic proofs are
``python -m proofs --only lattice_discrete_flipped_huber``.
"""

from __future__ import annotations

from pathlib import Path

import mpmath
import numpy as np
import pytest
import sympy as sp
from sympy.codegen.cfunctions import expm1

import fhsym
from fhsym._generated.declared import discrete_flipped_huber as gen
from fhsym.symbolic import discrete as D
from fhsym.symbolic.lattice_laws import derive_lattice
from fhsym.symbolic.laws import discrete_flipped_huber as DFH


def test_the_generated_module_is_the_declaration_and_the_class_runs_it():
    assert gen.DIGEST == DFH.DECLARATION.digest()
    assert Path(gen.__file__).read_text().startswith("# GENERATED FILE - DO NOT EDIT.")
    assert "_gen.log_centre_scaled(" in Path(fhsym.noise.discrete_flipped_huber.__file__).read_text()
    assert "_gen.tail_exponent(" in Path(fhsym.noise.lattice_sums.__file__).read_text()


def test_derived_centre_sum_is_the_printed_form():
    dv = derive_lattice(DFH.DECLARATION)
    plain = dv.log_centre_sum.replace(expm1, lambda x: sp.exp(x) - 1)
    assert sp.simplify(sp.exp(plain) - dv.centre_sum_raw) == 0


@pytest.mark.parametrize("lam, K", [(1e-9, 7), (0.3, 40), (2.0, 3), (80.0, 5), (1e-4, 2000)])
def test_log_centre_scaled_against_the_direct_sum(lam, K):
    with mpmath.workdps(40):
        for k in sorted({1, K // 2 or 1, K}):
            want = mpmath.log(mpmath.fsum(mpmath.exp(-mpmath.mpf(lam) * (n - k)) for n in range(k, K + 1)))
            got = float(gen.log_centre_scaled(np.array([float(k)]), K, lam)[0])
            # a difference of two logs of size |log lam|: absolute error a few ulp of that (1.8e-15 at lam = 1e-9)
            assert abs(got - float(want)) <= 2.2e-16 * (abs(float(want)) + 2 * abs(np.log(lam)) + 1), (k, got)


def test_tail_exponent_is_the_energy_difference():
    with mpmath.workdps(40):
        for m, j, c in [(1.0, 0.0, 0.5), (7.0, 3.0, 0.01), (1e4, 2047.0, 3e-3), (2.0, 9.0, 4.0)]:
            E = lambda x: (mpmath.mpf(c) ** 2 * x**2) / 2  # the tail energy without b^2/2 (it cancels)
            want = E(mpmath.mpf(m)) - E(mpmath.mpf(m + j))
            got = float(gen.tail_exponent(np.array([m]), np.array([j]), c)[0])
            assert abs(got - float(want)) <= 2.3e-16 * abs(float(want)), (m, j, c)


def test_programs_refuse_a_declaration_of_another_energy():
    """The printed Euler-Maclaurin programs are written for a Laplace centre and a Gaussian tail: a declaration with
    another energy raises instead of being printed with them."""
    import dataclasses

    from fhsym.symbolic import discrete as D
    from fhsym.symbolic.lattice_em import programs
    from fhsym.symbolic.laws.discrete_flipped_huber import DECLARATION

    assert len(programs(DECLARATION)) == 11
    for kw in ({"centre": 2 * D.lam * D.n}, {"tail": D.c**2 * D.n**3 / 2}):
        with pytest.raises(ValueError, match="^decl must have the centre"):
            programs(dataclasses.replace(DECLARATION, **kw))
