"""The C99 files of the shipped declared laws (``python -m fhsym.codegen --target c``:
fhsym/_generated/c/declared_<law>.c), compiled with the library and checked against mpmath definitions of each law
(issue 28, item 3).  Freshness is tests/test_codegen_targets.py's."""

from __future__ import annotations

import ctypes

import mpmath
import pytest

from fhsym.codegen import declared_laws as DL
from fhsym.codegen import generate as G

C_DIR = G.default_dir("c")
LAWS = {  # name -> (density in standard units at shape th, shape)
    "laplace": (lambda v, th: mpmath.exp(-abs(v)) / 2, ()),
    "gaussian": (lambda v, th: mpmath.npdf(v), ()),
    "osgt": (lambda v, th: mpmath.exp(-(abs(v) + th) ** 2 / 2) / (mpmath.sqrt(2 * mpmath.pi) * mpmath.erfc(th / mpmath.sqrt(2))),
             (0.7,)),
}


@pytest.fixture(scope="module")
def lib(build_c_library):
    return build_c_library("declared_c", {rel: (C_DIR / rel).read_text() for rel, _ in DL.outputs_c()})


def _fn(lib, name, n):
    f = getattr(lib, name)
    f.restype, f.argtypes = ctypes.c_double, [ctypes.c_double] * n
    return f


@pytest.mark.parametrize("name", sorted(LAWS))
def test_c_declared_numerics_against_mpmath(lib, name):
    pdf, shape = LAWS[name]
    th = mpmath.mpf(shape[0]) if shape else None
    n = 1 + len(shape)
    sf, logsf, logpdf, isf = (_fn(lib, f"fhsym_{name}_{f}_0", n) for f in ("sf", "logsf", "logpdf", "isf"))
    with mpmath.workdps(40):
        for t in (0.0, 0.4, 2.5, 9.0):
            ref = mpmath.quad(lambda v: pdf(v, th), [t, t + 1, t + 10, mpmath.inf])
            assert sf(t, *shape) == pytest.approx(float(ref), rel=1e-13)
            assert logsf(t, *shape) == pytest.approx(float(mpmath.log(ref)), rel=1e-13, abs=1e-15)
            assert logpdf(t, *shape) == pytest.approx(float(mpmath.log(pdf(mpmath.mpf(t), th))), rel=1e-13, abs=1e-15)
        for q in (1e-200, 1e-9, 0.1, 0.45):
            x = mpmath.mpf(isf(q, *shape))
            c = pdf(x, th)
            tail = c * mpmath.quad(lambda v: pdf(v, th) / c, [x, x + 1, x + 10, mpmath.inf])
            assert abs(tail / q - 1) < 1e-12 * max(1.0, float(c * x / q)), (name, q)
        var = 2 * mpmath.quad(lambda v: v * v * pdf(v, th), [0, 1, 10, mpmath.inf])
        assert _fn(lib, f"fhsym_{name}_variance", len(shape))(*shape) == pytest.approx(float(var), rel=1e-13)


def test_c_truncated_laplace_against_mpmath(lib):
    """The bounded law (units of A, shape a): sf, sf near the end, isf (both branches), variance against quadrature."""
    for av in (0.01, 2.5, 700.0):
        a = mpmath.mpf(av)
        g = lambda v: mpmath.exp(-a * abs(v))  # noqa: E731 - density on [-1, 1], normalised below
        sf, sf_end, isf = (_fn(lib, f"fhsym_truncated_laplace_{f}", 2) for f in ("sf_0", "sf_end", "isf_0"))
        with mpmath.workdps(40):
            Z = 2 * mpmath.quad(g, [0, 1])
            for tv in (0.0, 0.3, 0.5):
                c = g(tv)
                ref = c * mpmath.quad(lambda v: g(v) / c, [tv, 1]) / Z
                assert sf(tv, av) == pytest.approx(float(ref), rel=1e-13)
            for wv in (1e-12, 0.2, 0.5):
                c = g(1 - mpmath.mpf(wv))
                ref = c * mpmath.quad(lambda v: g(v) / c, [1 - mpmath.mpf(wv), 1]) / Z
                assert sf_end(wv, av) == pytest.approx(float(ref), rel=1e-13)
            for qv in (1e-200, 0.01, 0.5 - 1e-9):
                ref = -mpmath.log(mpmath.mpf(qv) * Z * a + mpmath.exp(-a)) / a  # the root of the quadrature sf
                assert isf(qv, av) == pytest.approx(float(ref), rel=1e-13)
            var = 2 * mpmath.quad(lambda v: v * v * g(v), [0, 1]) / Z
            assert _fn(lib, "fhsym_truncated_laplace_variance", 1)(av) == pytest.approx(float(var), rel=1e-13)
