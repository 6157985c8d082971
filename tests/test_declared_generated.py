"""The shipped laws' generated numerics (issue 28.1): checked-in modules printed from the declarations in
fhsym/symbolic/laws/, run by fhsym.Laplace / fhsym.Gaussian and by any declaration of the same density.

Freshness of the modules is tests/test_codegen_targets.py's (every file of ``python -m fhsym.codegen``); their
accuracy against quadrature is proofs/declared.py's (the docs/examples twins run this code) and the laws' own tests;
here: the wiring, the digests, and the references from mpmath (never from the code under test).
"""

from __future__ import annotations

import importlib

import mpmath
import numpy as np
import pytest

import fhsym
from fhsym.codegen import declared_laws as DL
from fhsym._generated.declared import BY_DIGEST
from fhsym._generated.declared import gaussian as gen_gaussian
from fhsym._generated.declared import laplace as gen_laplace


def test_every_shipped_declaration_has_its_marked_module():
    assert sorted(BY_DIGEST.values()) == sorted(name for name, _ in DL.LAWS)
    for name, source in DL.LAWS:
        mod = importlib.import_module(f"{DL.PACKAGE}.{name}")
        assert mod.__file__ is not None
        with open(mod.__file__) as fh:
            assert fh.read().startswith("# GENERATED FILE - DO NOT EDIT.")
        assert mod.DIGEST == importlib.import_module(source).DECLARATION.digest()


def test_a_declaration_of_the_same_density_runs_the_generated_module():
    import sympy as sp

    t = sp.Symbol("t", positive=True)
    same = fhsym.Declaration("t28_laplace_twin", "Laplace twin", t, ((sp.exp(-t), (0, sp.oo)),), scale="b")
    other = fhsym.Declaration("t28_other", "other", t, ((sp.exp(-2 * t), (0, sp.oo)),), scale="b")
    assert DL.generated_kernels(same) is not None and DL.generated_kernels(same).sf[0] is gen_laplace.sf_0
    assert DL.generated_kernels(other) is None  # another density: compiled at declaration time instead


@pytest.mark.parametrize("scale", [0.37, 1.0, 5.5])
def test_laplace_and_gaussian_run_their_generated_numerics_against_mpmath(scale):
    xs = np.array([-30.0, -2.5, -0.1, 0.0, 0.3, 4.0, 60.0]) * scale
    qs = np.array([1e-300, 1e-20, 1e-3, 0.25, 0.5, 0.75, 1 - 1e-12])
    with mpmath.workdps(40):
        for law, pdf in ((fhsym.Laplace(scale), lambda v: mpmath.exp(-abs(v) / scale) / (2 * scale)),  # definitions
                         (fhsym.Gaussian(scale), lambda v: mpmath.npdf(v, 0, scale))):
            sf_ref = [mpmath.quad(pdf, [x, x + 20 * scale, mpmath.inf]) if x >= 0 else
                      mpmath.quad(pdf, [x, 0]) + mpmath.mpf(1) / 2 for x in map(mpmath.mpf, xs)]
            assert np.allclose(law.sf(xs), [float(v) for v in sf_ref], rtol=1e-13, atol=0)
            assert np.allclose(law.logpdf(xs), [float(mpmath.log(pdf(mpmath.mpf(x)))) for x in xs], rtol=1e-14)
            # isf: the point whose quadrature tail is q (mpmath root of the definition)
            for q, x in zip(qs, law.isf(qs)):
                x = mpmath.mpf(x)
                c = pdf(x)  # quad's tolerance is absolute: integrate pdf / pdf(x), split where the tail decays
                pts = [x + k * scale for k in (0, 1, 10, 100)] + [mpmath.inf]
                tail = c * mpmath.quad(lambda v: pdf(v) / c, pts) if x >= 0 else 1 - mpmath.quad(pdf, [-mpmath.inf, x])
                assert abs(tail / q - 1) < 1e-12 * max(1.0, abs(float(pdf(x) * x / q))), (law, q, x)
            v_ref = 2 * mpmath.quad(lambda v: v * v * pdf(v), [0, mpmath.inf])
            assert law.var() == pytest.approx(float(v_ref), rel=1e-14)


def test_laplace_is_bit_for_bit_where_its_hand_written_forms_were_exact():
    """sf, logsf (t >= 0), isf, var and entropy: the printed forms are the old hand-written ones operation for operation."""
    beta, xs = 1.7, np.linspace(-40, 40, 161)
    z = xs / beta
    law = fhsym.Laplace(beta)
    assert np.array_equal(law.sf(xs), np.where(z >= 0, 0.5 * np.exp(-np.abs(z)), 1.0 - 0.5 * np.exp(-np.abs(z))))
    qs = np.array([1e-310, 1e-9, 0.2, 0.5, 0.7])
    assert np.array_equal(law.isf(qs), np.where(qs <= 0.5, -beta * np.log(2.0 * qs), beta * np.log(2.0 * (1.0 - qs))))
    assert law.var() == 2.0 * beta**2 and law.entropy() == 1.0 + np.log(2.0) + np.log(beta)
    assert np.array_equal(fhsym.Gaussian(0.3).sf(np.abs(xs)), gen_gaussian.sf_0(np.abs(xs) / 0.3))
