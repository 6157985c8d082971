"""The declared step laws (issue 28): the staircase and the truncated staircase, declared as step patterns in
fhsym/symbolic/laws/, derived by fhsym.symbolic.steps, printed into fhsym/_generated/declared/, run by their classes.

References come from the definition integrated exactly (proofs/reference_steps.py: the level function of the
density is constant between its edges, so every integral is an exact sum over them), never from the code under test.  Freshness of the generated modules is
tests/test_codegen_targets.py's (every file of ``python -m fhsym.codegen``); the symbolic proofs are
``python -m proofs --only step_staircase --only step_truncated_staircase``.
"""

from __future__ import annotations

import math
from pathlib import Path

import mpmath
import numpy as np
import pytest
import sympy as sp

import fhsym
from fhsym._generated.declared import staircase as gen_st
from fhsym._generated.declared import truncated_staircase as gen_ts
from fhsym.symbolic.laws import staircase as ST
from fhsym.symbolic.laws import truncated_staircase as TS
from fhsym.symbolic.steps import StepDeclaration, StepParameter, derive_steps, r, unstable
from proofs.reference_steps import StepRef

W = ST.W


def test_the_generated_modules_are_the_declarations():
    assert gen_st.DIGEST == ST.DECLARATION.digest() and gen_ts.DIGEST == TS.DECLARATION.digest()
    for mod in (gen_st, gen_ts):
        assert Path(mod.__file__).read_text().startswith("# GENERATED FILE - DO NOT EDIT.")
    # the classes call them (not a former hand-written copy)
    src = "".join(Path(m.__file__).read_text() for m in (fhsym.noise.staircase, fhsym.noise.truncated_staircase))
    for name in ("_gen.sf_0", "_gen.isf_1", "_gen.variance", "_gen.logpdf_1", "_gen.half_0", "_gen.var_period"):
        assert name in src


def test_derived_variance_is_geng_and_viswanath_closed_form():
    # Var/Delta0^2 = b(1 + b)/(1 - b)^2 + [b(W^2 + b(1 - W^2))/(1 - b) + (W^3 + b(1 - W^3))/3]/(W + (1 - W) b)
    b = r
    paper = b * (1 + b) / (1 - b) ** 2 + (b * (W**2 + b * (1 - W**2)) / (1 - b) + (W**3 + b * (1 - W**3)) / 3) \
        / (W + (1 - W) * b)
    dv = derive_steps(ST.DECLARATION)
    assert sp.simplify(unstable(dv.variance) - paper) == 0
    assert sp.simplify(unstable(dv.variance) - dv.moments_raw[2]) == 0


@pytest.mark.parametrize("eps, d0, gamma", [(0.3, 1.0, None), (1.0, 0.37, 0.2), (2.5, 3.0, 0.0), (1.7, 1.0, 1.0)])
def test_staircase_against_quadrature_of_the_definition(eps, d0, gamma):
    law = fhsym.Staircase(eps, d0, gamma)
    ref = StepRef(eps, law.width / d0, None, dps=30)
    xs = np.array([-7.3, -1.05, -0.4, 0.0, 0.13, 0.5, 0.99, 2.2, 9.7])
    with mpmath.workdps(30):
        sf_ref = np.array([float(ref.sf(x)) for x in xs])
        pdf_ref = np.array([float(ref.pdf(x)) for x in xs])
        half_ref = np.array([float(ref.half(abs(x))) for x in xs])
        var_ref, ent_ref = float(ref.moment(2)), float(ref.entropy())
        m3_ref = float(ref.moment(3))
    assert np.allclose(law.sf(xs * d0), sf_ref, rtol=2e-15, atol=0)
    assert np.allclose(law.pdf(xs * d0) * d0, pdf_ref, rtol=1e-14, atol=0)
    assert np.allclose(law._half_mass(np.abs(xs) * d0), half_ref, rtol=2e-15, atol=0)
    assert law.var() == pytest.approx(var_ref * d0**2, rel=2e-15)
    assert law.moment(3) == 0.0 and law._moment(3) == pytest.approx(m3_ref * d0**3, rel=4e-15)
    assert law.entropy() == pytest.approx(ent_ref + np.log(d0), rel=1e-14, abs=1e-15)
    qs = np.array([1e-20, 1e-9, 0.01, 0.3, 0.5, 0.77])  # the reference omits a tail below 1e-35
    with mpmath.workdps(30):  # the reference quantile: the definition's tail inverted interval by interval
        x_ref = np.array([float(ref.isf(p)) if p <= 0.5 else -float(ref.isf(1 - p)) for p in qs]) * d0
    assert np.all(np.abs(law.isf(qs) - x_ref) <= 1e-14 * np.maximum(np.abs(x_ref), d0))


@pytest.mark.parametrize("eps, d0, gamma, beta", [(1.0, 1.0, 0.4167, 13.6007), (0.4, 0.37, 0.2, 5.5),
                                                  (3.0, 2.0, 0.0, 2.25), (2.0, 1.0, 1.0, 1.0)])
def test_truncated_staircase_against_quadrature_of_the_definition(eps, d0, gamma, beta):
    law = fhsym.TruncatedStaircase(eps, d0, gamma, beta * d0)
    ref = StepRef(eps, law.width / d0, law.bound / d0, dps=30)
    xs = np.array([-beta, -0.7 * beta, -0.4, 0.0, 0.13, 0.5, 0.99, 0.93 * beta, beta, 1.5 * beta])
    with mpmath.workdps(30):  # the reference at the law's own points x d0 (in units: x d0 / d0, the bound exactly)
        sf_ref = np.array([float(ref.sf(x * d0 / d0)) for x in xs])
        pdf_ref = np.array([float(ref.pdf(x * d0 / d0)) for x in xs])
        var_ref = float(ref.moment(2))
    assert np.allclose(law.sf(xs * d0), sf_ref, rtol=1e-14, atol=1e-300)
    assert np.allclose(law.pdf(xs * d0) * d0, pdf_ref, rtol=2e-15, atol=0)
    assert law.var() == pytest.approx(var_ref * d0**2, rel=2e-15)
    qs = np.array([1e-9, 0.01, 0.3, 0.5, 0.77])
    with mpmath.workdps(30):
        x_ref = np.array([float(ref.isf(p)) if p <= 0.5 else -float(ref.isf(1 - p)) for p in qs]) * d0
    assert np.all(np.abs(law.isf(qs) - x_ref) <= 1e-14 * np.maximum(np.abs(x_ref), d0))


def test_a_step_declaration_is_refused_when_its_cells_do_not_fit():
    with pytest.raises(ValueError, match="cells must tile"):
        StepDeclaration("t28_gap", "gap", cells=((0, W, 1), (W + sp.Rational(1, 10), 1, r)),
                        shapes=(StepParameter(W, (0.0, 0.5)),))
    with pytest.raises(ValueError, match=r"must be >= 0 on the shape domain"):
        StepDeclaration("t28_neg", "negative", cells=((0, W, 1), (W, 1, r)), shapes=(StepParameter(W, (0.0, 2.0)),))
    with pytest.raises(ValueError, match="must be positive"):
        StepDeclaration("t28_zero", "zero height", cells=((0, W, 1), (W, 1, r - 1)), shapes=(StepParameter(W, (0.0, 1.0)),))
    with pytest.raises(ValueError, match="nonnegative"):
        StepParameter(sp.Symbol("g"), (0.0, 1.0))


@pytest.mark.parametrize("eps, d0, gamma", [(1.0, 0.37, 0.2), (2.5, 3.0, None), (0.7, 1.0, 1.0)])
def test_staircase_profile_at_shifts_up_to_delta0_against_quadrature(eps, d0, gamma):
    # the derived lattice weights (generated) against the integral of [f(t) - e^eps f(t + d)]_+ of the definition
    law = fhsym.Staircase(eps, d0, gamma)
    W_ = law.width / d0
    ref = StepRef(eps, W_, None, dps=30)
    for d in sorted({1e-6, 0.5 * W_, W_, min(1.7 * W_, 1.0), 0.83, 1.0}):
        if not 0.0 < d <= 1.0:
            continue
        for e in (0.0, 0.4 * eps):
            with mpmath.workdps(30):
                want = float(ref.profile(e, d * d0 / d0))
            assert float(law.privacy_profile(e, d * d0)) == pytest.approx(want, rel=2e-14, abs=0)


#: the staircase class beyond one period (the derived per-period form, fhsym.symbolic.steps.profile_periods):
#: (eps0, Delta0, gamma): Delta0 != 1 (d/Delta0 is then not a double: p and f are split in exact rationals), W near 1
#: (the overlap W + f - 1 near 0 at a tiny f), large and small eps0
FAR_LAWS = ((1.0, 1.0, 0.3), (0.7, 0.37, 0.2), (3.0, 2.5, 0.9), (0.5, 1.0, 1 - 1e-13), (0.4, 0.1, 0.5),
            (8.0, 1.0, 0.01))
#: shifts in periods: just above one, at and next to whole periods, tiny f, f at a cell edge (W +- tiny, added per
#: law), and up to 10^6 periods
FAR_PERIODS = (1 + 2.0**-40, 1 + 1.5e-13, 2.0, 3 - 2.0**-45, 3.7, 31.25, 1000.3, 1e4 + 2.0**-30, 999997.6, 1e6)


def test_staircase_profile_beyond_one_period_against_the_definition():
    """fhsym.Staircase's profile at d > Delta0 (derived per-period masses at exact f, closed run sums, exponents as
    exact double-double products) against the definition's exact piece sums at 50 digits (StepRef.profile_far:
    the windows where the integrand lives, so 10^6 periods cost as little as one), eps from 0 to past the largest
    level difference."""
    worst, where, n = 0.0, None, 0
    for eps0, d0, gamma in FAR_LAWS:
        law = fhsym.Staircase(eps0, d0, gamma)
        with mpmath.workdps(60):
            W_ = mpmath.mpf(law.width) / d0
            ref = StepRef(eps0, W_, None, dps=50)
        for per in FAR_PERIODS + (5 + float(W_) + 2.0**-40, 5 + float(W_) - 2.0**-40, 2 + float(W_)):
            d = per * d0
            for fe in (0.0, 0.37, 2.5, per - 0.5, per + 0.3, per + 1.7):
                e = fe * eps0
                got = float(law.privacy_profile(e, d))
                with mpmath.workdps(60):
                    want = ref.profile_far(e, mpmath.mpf(d) / d0)  # the law's own double d, in periods
                    err = float(abs(mpmath.mpf(got) / want - 1)) if want else abs(got)
                assert err <= 1e-15, (eps0, d0, gamma, per, e, got, want)
                if err >= worst:
                    worst, where = err, (eps0, d0, gamma, per, e)
                n += 1
    print(f"\nfhsym.Staircase profile beyond one period: worst relative error {worst:.1e} over {n} points at "
          f"(eps0, Delta0, gamma, d/Delta0, eps) = {where}")


#: the truncated staircase beyond one period (fhsym.symbolic.steps.profile_periods_cut): (eps0, Delta0, gamma, B/Delta0)
#: with K = 1 (nothing whole before the cut period), rho = 0, rho near 1, W near 1, Delta0 != 1 and 40 periods
FAR_CUT = ((1.0, 1.0, 0.3, 5.25), (0.7, 0.37, 0.2, 1.1), (3.0, 2.5, 0.9, 2.95), (0.5, 1.0, 0.6, 1.0), (2.0, 0.1, 0.4, 3.0),
           (0.3, 1.0, 0.5, 40.5), (1.0, 1.0, 1 - 1e-13, 3.0 + 1e-13))


def test_truncated_staircase_profile_beyond_one_period_against_the_definition():
    """fhsym.TruncatedStaircase's profile at Delta0 < d < 2B (derived per-period masses clipped at the cut, the
    infinite-loss mass from the derived tail at the exact point beta - d) against the definition's exact piece sums at
    50 digits (the cut among the edges), d a whole number of periods, just above/below a cell edge, near and beyond B."""
    worst, where, n = 0.0, None, 0
    for eps0, d0, gamma, bb in FAR_CUT:
        law = fhsym.TruncatedStaircase(eps0, d0, gamma, bb * d0)
        with mpmath.workdps(60):
            beta = mpmath.mpf(law.bound) / d0
            W_ = mpmath.mpf(law.width) / d0
            ref = StepRef(eps0, W_, beta, dps=50)
        b, w = float(beta), float(W_)
        for per in sorted({1 + 2.0**-40, 1.5, 2.0, 3.0, 1 + w + 2.0**-40, 2 + w - 2.0**-40, b - 1, b - 2.0**-30, b,
                           b + 2.0**-30, b + 0.5, b + w, 2 * b - 0.25, 2 * b - 2.0**-35, math.floor(b) + 1.0}):
            if not 1.0 < per < 2 * b:
                continue
            for fe in (0.0, 0.37, 1.0, 2.5, per - 0.5, per + 1.5):
                e = fe * eps0
                got = float(law.privacy_profile(e, per * d0))
                with mpmath.workdps(60):
                    want = ref.profile_far(e, mpmath.mpf(per * d0) / d0)
                    err = float(abs(mpmath.mpf(got) / want - 1)) if want else abs(got)
                assert err <= 1e-15, (eps0, d0, gamma, bb, per, e, got, want)
                if err >= worst:
                    worst, where = err, (eps0, d0, gamma, bb, per, e)
                n += 1
    assert float(fhsym.TruncatedStaircase(1.0, 1.0, 0.3, 5.25).privacy_profile(0.5, 10.5)) == 1.0  # d = 2B: disjoint
    print(f"\nfhsym.TruncatedStaircase profile beyond one period: worst relative error {worst:.1e} over {n} points at "
          f"(eps0, Delta0, gamma, B/Delta0, d/Delta0, eps) = {where}")


def test_step_profiles_beyond_one_period_at_extreme_design_epsilon():
    """eps0 = 1e300 (all the mass on the first step [-W, W]) and 2^51 periods: the exponents eps - n eps0 are out of
    the float range as rationals (clamped, no OverflowError), and delta is known by hand: a shift of 2^51 + 1/2
    periods moves every point up by >= 2^51 levels (delta 1 at eps = 0 and 1e300); the cut law at d = 1.5 periods
    moves t in [0, W = 1/2) up two levels (delta 1/2 at eps = eps0: e^(eps0 - 2 eps0) = 0) and t in [-W, 0) up one
    (e^(eps0 - eps0) = 1: nothing)."""
    st = fhsym.Staircase(1e300, 1.0, 0.5)
    assert list(st.privacy_profile([0.0, 1e300], 2.0**51 + 0.5)) == [1.0, 1.0]
    ts = fhsym.TruncatedStaircase(1e300, 1.0, 0.5, 40000.5)
    assert list(ts.privacy_profile([0.0, 1e300], 1.5)) == [1.0, 0.5]
    assert list(ts.privacy_profile([0.0, 1e300], 50000.25)) == [1.0, 1.0]  # beyond B: the infinite loss
    with pytest.raises(ValueError, match="sensitivity must be at most 2\\^52"):
        st.privacy_profile(0.3, 2.0**53)
