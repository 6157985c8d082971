"""The JAX modules of the shipped declared laws (``python -m fhsym.codegen --target jax``:
fhsym/_generated/declared/jax_<law>.py) against mpmath definitions of each law (issue 28, item 3).

References: mpmath quadrature of the declared density / mpmath's own functions at 40 digits, never the code under
test.  Freshness is tests/test_codegen_targets.py's.
"""

from __future__ import annotations

import importlib

import mpmath
import numpy as np
import pytest

pytest.importorskip("jax")

from fhsym.codegen import declared_laws as DL  # noqa: E402


def _mod(name: str):
    return importlib.import_module(f"{DL.PACKAGE}.jax_{name}")


def test_every_shipped_law_has_a_jax_module_with_its_digest():
    for name, source in DL.LAWS:
        assert _mod(name).DIGEST == importlib.import_module(source).DECLARATION.digest()


@pytest.mark.slow  # JAX dispatches each operation eagerly the first time: 6-13 s per law
@pytest.mark.parametrize("name,pdf,shape", [
    ("laplace", lambda v, th: mpmath.exp(-abs(v)) / 2, ()),
    ("gaussian", lambda v, th: mpmath.npdf(v), ()),
    ("osgt", lambda v, th: mpmath.exp(-(abs(v) + th) ** 2 / 2) / (mpmath.sqrt(2 * mpmath.pi) * mpmath.erfc(th / mpmath.sqrt(2))), (0.7,)),
])
def test_jax_declared_numerics_against_mpmath(name, pdf, shape):
    m = _mod(name)
    th = mpmath.mpf(shape[0]) if shape else None
    ts = np.array([0.0, 0.4, 2.5, 9.0])
    qs = np.array([1e-200, 1e-9, 0.1, 0.45])
    with mpmath.workdps(40):
        for t in ts:
            ref_sf = mpmath.quad(lambda v: pdf(v, th), [t, t + 1, t + 10, mpmath.inf])
            assert float(m.sf_0(t, *shape)) == pytest.approx(float(ref_sf), rel=1e-13)
            assert float(m.logsf_0(t, *shape)) == pytest.approx(float(mpmath.log(ref_sf)), rel=1e-13, abs=1e-15)
            assert float(m.logpdf_0(t, *shape)) == pytest.approx(float(mpmath.log(pdf(mpmath.mpf(t), th))), rel=1e-13,
                                                                abs=1e-15)
        for q in qs:  # the tail beyond isf(q) is q (quadrature of the density, scaled to its value there)
            x = mpmath.mpf(float(m.isf_0(q, *shape)))
            c = pdf(x, th)
            tail = c * mpmath.quad(lambda v: pdf(v, th) / c, [x, x + 1, x + 10, mpmath.inf])
            assert abs(tail / q - 1) < 1e-12 * max(1.0, float(c * x / q)), (name, q)
        var = 2 * mpmath.quad(lambda v: v * v * pdf(v, th), [0, 1, 10, mpmath.inf])
        assert float(m.variance(*shape)) == pytest.approx(float(var), rel=1e-13)


@pytest.mark.slow  # JAX dispatches each operation eagerly the first time
def test_jax_truncated_laplace_against_mpmath():
    m = _mod("truncated_laplace")
    assert m.ENTROPY is m.entropy and m.FISHER is None  # the Fisher information is infinite (entropy: test_declared_special_targets)
    for av in (0.01, 2.5, 700.0):
        a = mpmath.mpf(av)
        g = lambda v: mpmath.exp(-a * abs(v))  # noqa: E731 - density on [-1, 1], normalised below
        with mpmath.workdps(40):
            Z = 2 * mpmath.quad(g, [0, 1])
            for tv in (0.0, 0.3, 0.5):
                c = g(tv)
                ref = c * mpmath.quad(lambda v: g(v) / c, [tv, 1]) / Z
                assert float(m.sf_0(tv, av)) == pytest.approx(float(ref), rel=1e-13)
                assert float(m.sf_end(1 - tv, av)) == pytest.approx(float(ref), rel=1e-13)
            for qv in (1e-200, 0.01, 0.5 - 1e-9):
                ref = -mpmath.log(mpmath.mpf(qv) * Z * a + mpmath.exp(-a)) / a  # the root of the quadrature sf
                assert float(m.isf_0(qv, av)) == pytest.approx(float(ref), rel=1e-13)
            var = 2 * mpmath.quad(lambda v: v * v * g(v), [0, 1]) / Z
            assert float(m.variance(av)) == pytest.approx(float(var), rel=1e-13)
