"""The paper's forms in b = alpha/gamma (``fhsym.symbolic.definitions``): put over one denominator without simplify().

``omega_of_b``, ``variance_of_b`` and ``fisher_of_b`` used to be ``simplify()`` of the substitution alpha = b gamma,
~4 s of every import of the module; they are now the substitution itself (omega), ``together`` (variance) and
``factor_terms(cancel())`` (Fisher).  Here: each is free of alpha and gamma and equals the substitution at 50 digits
(independent of how it was rewritten); the slow step also checks that they are the very expressions simplify() gives,
so that the stable forms proven against them (fhsym/symbolic/stable.py, laplace_limit.py) and the generated code stay
as they were.
"""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

from fhsym.symbolic import definitions as D

RAW = {
    "omega_of_b": D.omega.subs(D.alpha, D.b * D.gamma),
    "variance_of_b": (D.variance / D.gamma**2).subs(D.alpha, D.b * D.gamma),
    "fisher_of_b": (D.fisher_information * D.gamma**2).subs(D.alpha, D.b * D.gamma),
}


@pytest.mark.parametrize("name", sorted(RAW))
def test_form_in_b_equals_the_substitution_at_50_digits(name):
    form, raw = getattr(D, name), RAW[name]
    assert form.free_symbols == {D.b}
    f, g = sp.lambdify(D.b, form, "mpmath"), sp.lambdify(D.b, raw, "mpmath")
    with mpmath.workdps(50):
        for bv in ("1e-3", "0.1", "0.7", "1", "2.5", "8", "30"):
            x = mpmath.mpf(bv)
            assert abs(f(x) / g(x) - 1) < mpmath.mpf(10) ** -45, (name, bv)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RAW))
def test_form_in_b_is_what_simplify_gives(name):
    assert getattr(D, name) == sp.simplify(RAW[name])
