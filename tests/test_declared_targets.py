"""A user's declared law gets C99 and JAX numerics too (issue 28, item 3): ``DeclaredNoise.c_source()`` and
``jax_source()`` print the law's derived forms (the same printers as the shipped laws' checked-in files).  The
logistic law of docs/examples/logistic_law.py is compiled with fhsym's C library and its JAX module executed; both
are checked against mpmath quadrature of the declared density (never against fhsym's own numerics).  A form with no
C/JAX printing raises ValueError (the generalised Gaussian's incomplete gamma function now has one)."""

from __future__ import annotations

import ctypes

import mpmath
import numpy as np
import pytest

from declared_examples import example


@pytest.fixture(scope="module")
def LOGISTIC():
    """The logistic law of docs/examples/logistic_law.py (declared on first use: tests/declared_examples.py)."""
    return example("logistic").Logistic


def _pdf(v):  # the declared density in standard units, normalised: e^{-|v|}/(1 + e^{-|v|})^2
    a = abs(v)
    return mpmath.exp(-a) / (1 + mpmath.exp(-a)) ** 2


def _sf(t):  # scaled by the density at t: quadrature keeps its relative accuracy far in the tail
    c = _pdf(t)
    return c * mpmath.quad(lambda v: _pdf(v) / c, [t, t + 1, t + 10, mpmath.inf])


POINTS = (0.0, 0.3, 2.5, 9.0, 40.0)


@pytest.fixture(scope="module")
def lib(build_c_library, LOGISTIC):
    return build_c_library("user_c", {"logistic.c": LOGISTIC.c_source()})


def _fn(lib, name, n):
    f = getattr(lib, name)
    f.restype, f.argtypes = ctypes.c_double, [ctypes.c_double] * n
    return f


def _check(sf, logsf, logpdf, isf, fisher):
    with mpmath.workdps(40):
        for t in POINTS:
            ref = _sf(mpmath.mpf(t))
            assert float(sf(t)) == pytest.approx(float(ref), rel=1e-13), t
            assert float(logsf(t)) == pytest.approx(float(mpmath.log(ref)), rel=1e-13, abs=1e-15), t
            assert float(logpdf(t)) == pytest.approx(float(mpmath.log(_pdf(mpmath.mpf(t)))), rel=1e-13, abs=1e-15), t
        for q in (1e-200, 1e-9, 0.1, 0.45):
            x = mpmath.mpf(float(isf(q)))
            assert abs(_sf(x) / q - 1) < 1e-12 * max(1.0, float(x)), q
        # Fisher information int psi'^2 g, psi' = tanh(t/2)
        ref = mpmath.quad(lambda v: mpmath.tanh(v / 2) ** 2 * _pdf(v), [-mpmath.inf, 0, mpmath.inf])
        assert float(fisher()) == pytest.approx(float(ref), rel=1e-13)


def test_user_law_c_source_compiles_and_matches_quadrature(lib):
    f = {k: _fn(lib, f"fhsym_logistic_{k}", 1) for k in ("sf_0", "logsf_0", "logpdf_0", "isf_0")}
    _check(f["sf_0"], f["logsf_0"], f["logpdf_0"], f["isf_0"], _fn(lib, "fhsym_logistic_fisher", 0))


def test_user_law_jax_source_matches_quadrature(LOGISTIC):
    pytest.importorskip("jax", reason="the JAX target needs the optional extra jax")
    ns: dict = {}
    exec(compile(LOGISTIC.jax_source(), "<logistic jax>", "exec"), ns)
    assert ns["DIGEST"] == LOGISTIC.declaration.digest()
    _check(*(lambda v, fn=ns[k]: float(np.asarray(fn(np.float64(v)))) for k in ("sf_0", "logsf_0", "logpdf_0", "isf_0")),
           lambda: float(ns["fisher"]()))


def test_incomplete_gamma_forms_print_for_c_and_jax():
    """The generalised Gaussian's sf is an incomplete gamma function: C and JAX print it by the runtime's
    ``uppergamma`` / ``log_uppergamma`` (formerly a ValueError: no C99 printing, no JAX form).  Their values against
    quadrature: tests/test_declared_special_targets.py."""
    law = example("gengauss").GenGauss
    assert "fhsym_log_uppergamma(2.0/3.0, pow(t, 3.0/2.0))" in law.c_source()
    assert "xp.log_uppergamma(2/3, t**(3/2))" in law.jax_source()


def test_a_form_without_c_printing_raises_value_error_naming_it(LOGISTIC):
    """A derived form the C printer cannot print (here the lower incomplete gamma function, put in place of the
    logistic law's Fisher information) raises ValueError naming the law and the function, never a C file without it."""
    import dataclasses

    import sympy as sp

    from fhsym.codegen.declared_laws import c_source

    dv = dataclasses.replace(LOGISTIC.derivation, fisher=sp.lowergamma(sp.Rational(1, 3), sp.Integer(2)))
    with pytest.raises(ValueError, match="'logistic': fisher has no C99 printing yet"):
        c_source(dv)
