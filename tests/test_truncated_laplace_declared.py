"""Truncated Laplace through the declared-law pipeline (issue 28): a bounded support declared, derived, generated.

fhsym.TruncatedLaplace takes logpdf, sf, logsf, isf and the variance from fhsym/_generated/declared/truncated_laplace.py
(printed from fhsym/symbolic/laws/truncated_laplace.py).  References: 40-digit mpmath quadrature of the definition
(density e^{-|x|/lambda} on [-A, A], normalised by quadrature), never the code under test.
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
import sympy as sp

import fhsym
from fhsym._generated.declared import truncated_laplace as gen
from fhsym.symbolic.derivation import derive
from fhsym.symbolic.laws import truncated_laplace as TLD


def _ref(lam: float, A: float):
    lam_m, A_m = mpmath.mpf(lam), mpmath.mpf(A)
    g = lambda v: mpmath.exp(-abs(v) / lam_m) if abs(v) <= A_m else mpmath.mpf(0)  # noqa: E731
    Z = 2 * mpmath.quad(g, [0, A_m])

    def sf(x):
        x = mpmath.mpf(x)
        if x >= A_m:
            return mpmath.mpf(0)
        if x < 0:
            return 1 - sf(-x)
        c = g(x)  # quad's tolerance is absolute: integrate g / g(x) over [x, A]
        return c * mpmath.quad(lambda v: g(v) / c, [x, A_m]) / Z

    return g, Z, sf


@pytest.mark.parametrize("lam,A", [(1.0, 0.01), (0.37, 0.37 * 0.5), (1.0, 2.5), (2.0, 20.0), (1.0, 700.0), (0.5, 500.0)])
def test_generated_numerics_against_quadrature(lam, A):
    law = fhsym.TruncatedLaplace(lam, A)
    fr = np.array([0.0, 1e-9, 0.01, 0.3, 0.5, 0.5000001, 0.8, 0.999999, 1.0 - 2.0**-40])
    xs = np.concatenate([fr * A, -fr * A])
    worst = dict.fromkeys(("sf", "logsf", "logpdf", "isf", "var"), 0.0)  # printed: docs/declare.md states them
    with mpmath.workdps(40):
        g, Z, sf = _ref(lam, A)
        sf_ref = [sf(x) for x in xs]
        for x, got, ref in zip(xs, law.sf(xs), sf_ref):
            if ref > 1e-300:
                worst["sf"] = max(worst["sf"], abs(float(got / ref - 1)))
                assert abs(got / ref - 1) < 1e-13, (lam, A, x, got, ref)
        for x, got, ref in zip(xs, law.logsf(xs), sf_ref):
            if ref > 0 and ref != 1:
                worst["logsf"] = max(worst["logsf"], abs(got - float(mpmath.log(ref))) / abs(float(mpmath.log(ref))))
                assert abs(got - float(mpmath.log(ref))) <= 1e-13 * abs(float(mpmath.log(ref))) + 1e-300, (x, got)
        for x, got in zip(xs, law.logpdf(xs)):
            ref = mpmath.log(g(mpmath.mpf(x)) / Z)
            worst["logpdf"] = max(worst["logpdf"], abs(got - float(ref)) / max(1.0, abs(float(ref))))
            assert abs(got - float(ref)) <= 4e-15 * max(1.0, abs(float(ref))), (x, got, ref)
        assert law.logpdf(np.array([1.0000001 * A]))[0] == -np.inf and law.sf(np.array([A]))[0] == 0.0
        assert law.logsf(np.array([A]))[0] == -np.inf
        # isf: the point whose quadrature tail is q; both branches of the inverse and q near the median
        for q in (1e-300, 1e-12, 1e-3, 0.2, 0.5 - 1e-9, 0.5, 0.5 + 1e-7, 0.9, 1 - 1e-12):
            x = float(law.isf(q))
            qm = mpmath.mpf(q)
            ref = -mpmath.mpf(lam) * mpmath.log(min(qm, 1 - qm) * Z / lam + mpmath.exp(-mpmath.mpf(A) / lam))
            ref = ref if q <= 0.5 else -ref  # the root of the quadrature sf, written out: lambda (e^{-x/l} - e^{-A/l})/Z
            assert abs(sf(ref) - qm) < mpmath.mpf(10) ** -35  # ... and it is the root (to 40 digits)
            if ref != 0:
                worst["isf"] = max(worst["isf"], abs(x - float(ref)) / abs(float(ref)))
            assert abs(x - float(ref)) <= 1e-13 * abs(float(ref)) + 1e-300, (q, x, ref)
        var = 2 * mpmath.quad(lambda v: v * v * g(v), [0, mpmath.mpf(A)]) / Z
        worst["var"] = abs(float(law.var() / var - 1))
        assert law.var() == pytest.approx(float(var), rel=1e-14)
    print(f"\nTruncatedLaplace(lambda={lam}, A={A}) vs 40-digit quadrature, worst relative error: "
          + ", ".join(f"{k} {v:.2g}" for k, v in worst.items()))


def test_the_class_runs_the_generated_code():
    law = fhsym.TruncatedLaplace(0.8, 3.0)
    x = np.array([0.1, 1.0, 1.4])
    assert np.array_equal(law.sf(x), gen.sf_0(x / 3.0, 3.0 / 0.8))  # |x| <= A/2: sf_0 at z = x/A
    assert law.var() == 9.0 * float(gen.variance(3.0 / 0.8))
    assert gen.DIGEST == TLD.DECLARATION.digest() and gen.SUPPORT_END == (1, 1) and gen.FISHER is None


def test_the_derivation_of_a_bounded_support():
    decl = TLD.DECLARATION
    assert decl.bounded and decl.support_end == 1
    dv = derive(decl)
    assert dv.loss_sup is sp.oo and dv.kink is None and dv.fisher is None
    assert any("Fisher information: infinite" in n for n in dv.notes)
    assert [f.status for f in dv.facts] == ["PROVEN", "PROVEN"]
    a = TLD.a
    # the derived variance at a = 1 is (2 - 5/e)/(1 - 1/e), the closed form of the definition (integrated by hand)
    with mpmath.workdps(40):
        ref = (2 - 5 / mpmath.e) / (1 - 1 / mpmath.e)
        assert abs(mpmath.mpf(str(sp.N(dv.variance.subs(a, 1), 40))) - ref) < mpmath.mpf(10) ** -35
    full = fhsym.Declaration("t28_full", "full", TLD.t, ((sp.exp(-TLD.t), (0, sp.oo)),))
    assert not full.bounded and full.support_end is sp.oo


def test_a_bounded_user_law_is_declared_with_its_end():
    t = sp.Symbol("t", positive=True)
    cls = fhsym.declare_law(fhsym.Declaration("t28_bounded", "bounded", t, ((sp.exp(-t), (0, 2)),), scale="b"),
                            register=False)
    assert cls.kernels.end == 2.0 and cls(1.0).privacy_profile(0.5, 4.0) == 1.0  # disjoint supports
    assert cls(1.0).logpdf(2.5) == -np.inf and cls(1.0).sf(2.0) == 0.0


@pytest.mark.parametrize("lam,A", [(1.0, 0.3), (1.0, 3.0), (0.25, 40.0)])
def test_profile_unchanged_and_equal_to_quadrature(lam, A):
    """The hand-written profile (kept) against quadrature of int [p(y) - e^eps p(y - Delta)]_+ over the support."""
    law = fhsym.TruncatedLaplace(lam, A)
    with mpmath.workdps(30):
        g, Z, _ = _ref(lam, A)
        for d in (0.1 * A, 0.9 * A, 1.5 * A):
            for e in (0.0, 0.05, 0.5, 2.0):
                dm, em = mpmath.mpf(d), mpmath.mpf(e)
                f = lambda v: max(g(v) - mpmath.exp(em) * g(v - dm), 0) / Z  # noqa: E731
                yc = (dm - em * lam) / 2  # a kink of the positive part (a breakpoint only)
                pts = sorted({mpmath.mpf(v) for v in (-A, d - A, 0, d, A, yc) if -A <= v <= A})
                ref = mpmath.quad(f, pts)
                got = float(law.privacy_profile(e, d))
                assert abs(got - float(ref)) <= 1e-13 * float(ref) + 1e-300, (d, e, got, ref)
