"""Property tests of fhsym.FlippedHuber over the whole parameter range.

Parameters: alpha/gamma log-uniform in [1e-6, 1e4] plus exactly 0, gamma
log-uniform in [1e-6, 1e6] (alpha = b * gamma).  Properties are the paper's
claims (Prop 1, Sec III-B1, Lemma 2, Lemma 6) and identities every
distribution satisfies; tolerances are a few ulps unless stated (each one is
justified where it is set).  Hypothesis profile: ``ci`` by default (50
derandomized examples), ``FHSYM_HYPOTHESIS_PROFILE=deep`` for 2000.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, note
from hypothesis import strategies as st
from scipy import special as sc

import fhsym  # noqa: E402
FlippedHuber = fhsym.FlippedHuber

HALF_LOG_2PI = 0.5 * math.log(2 * math.pi)
ULP = np.finfo(float).eps  # 2.2e-16

# ------------------------------------------------------------- strategies

b_values = st.one_of(
    st.just(0.0),
    st.floats(min_value=math.log(1e-6), max_value=math.log(1e4)).map(math.exp),
)
gamma_values = st.floats(min_value=math.log(1e-6), max_value=math.log(1e6)).map(math.exp)


@st.composite
def params(draw):
    b = draw(b_values)
    gamma = draw(gamma_values)
    return b * gamma, gamma


def std_range(b: float) -> float:
    """Largest |t/gamma| with rho/gamma^2 <= 600 (pdf, cdf, sf stay normal floats)."""
    if b * b >= 600:
        return 600.0 / b
    return math.sqrt(1200.0 - b * b)


def scale(fh) -> float:
    """gamma * min(sqrt(2 pi)/2, 1/b): bounds cdf(x)/pdf(x) for x <= 0 (Z(b)/2 <= both)."""
    b = fh.alpha / fh.gamma
    return fh.gamma * (1.2534 if b == 0 else min(1.2534, 1.0 / b))


def fh_of(p):
    alpha, gamma = p
    note(f"FlippedHuber(alpha={alpha!r}, gamma={gamma!r}), b={alpha / gamma!r}")
    return FlippedHuber(alpha=alpha, gamma=gamma)


# ------------------------------------------------------ paper inequalities


@given(params())
def test_omega_at_least_sqrt_2pi(p):
    """Proposition 1, via log_omega (omega itself overflows for b > ~37.7)."""
    fh = fh_of(p)
    lo = fh.log_omega()
    assert math.isfinite(lo)
    assert lo >= HALF_LOG_2PI * (1 - 4 * ULP)
    if fh.alpha / fh.gamma < 30:
        assert fh.omega() >= math.sqrt(2 * math.pi) * (1 - 4 * ULP)


@given(params())
def test_variance_at_most_gamma_squared(p):
    """Sec III-B1: sigma^2 <= gamma^2 (4 ulp slack: equality at alpha = 0)."""
    fh = fh_of(p)
    v = fh.var()
    assert 0 < v <= fh.gamma**2 * (1 + 4 * ULP)
    assert fh.std() == pytest.approx(math.sqrt(v), rel=4 * ULP)


@given(params())
def test_fisher_at_least_inverse_gamma_squared(p):
    """Sec III-B1: I >= 1/gamma^2 (4 ulp slack: equality at alpha = 0)."""
    fh = fh_of(p)
    assert fh.fisher_information() >= (1 - 4 * ULP) / fh.gamma**2


@given(params())
def test_nfi_between_gaussian_and_laplace(p):
    """Fig 2: 1 <= NFI <= 2, and NFI = var * fisher_information."""
    fh = fh_of(p)
    n = fh.nfi()
    assert 1 - 4 * ULP <= n <= 2 + 4 * ULP
    assert n == pytest.approx(fh.var() * fh.fisher_information(), rel=1e-13)


@given(params(), st.floats(min_value=-50.0, max_value=50.0))
def test_mgf_sub_gaussian(p, c):
    """Lemma 2: M(s) <= exp(gamma^2 s^2 / 2), via log_mgf (s = c/gamma)."""
    fh = fh_of(p)
    s = c / fh.gamma
    lm = float(fh.log_mgf(s))
    bound = 0.5 * (fh.gamma * s) ** 2
    assert math.isfinite(lm)
    # Jensen: M(s) >= exp(s E[T]) = 1, so log_mgf >= 0 (exactly 0 at s = 0); the slack is
    # the contract's 1e-12 relative to the bound.
    assert lm >= -1e-12 * bound
    assert lm <= bound * (1 + 1e-12)


@given(params())
def test_stochastic_dominance_lemma6(p):
    """Lemma 6: FH(alpha, gamma^2) <=_st N(theta, gamma^2), theta = gamma Q^-1(sqrt(pi/2)/omega),
    i.e. cdf_FH(t) >= Phi((t - theta)/gamma) for all t; checked on a grid in log space
    (theta from log omega, so it is finite even where omega overflows).  Equality holds
    at alpha = 0 (theta = 0), hence the 1e-12 relative slack."""
    fh = fh_of(p)
    log_arg = 0.5 * math.log(math.pi / 2) - fh.log_omega()
    assert log_arg <= math.log(0.5) + 1e-15  # Prop 1 makes theta >= 0
    theta = -fh.gamma * float(sc.ndtri_exp(log_arg))
    # theta = O(b^2) gamma >= 0; a few ulp of log omega (~1e-16) move it by ~1e-15 gamma
    assert theta >= -1e-14 * fh.gamma
    g, a = fh.gamma, fh.alpha
    t = np.concatenate([theta + g * np.linspace(-40, 8, 97), np.linspace(-a - 6 * g, a + 6 * g, 97)])
    lhs = np.asarray(fh.logcdf(t))
    rhs = sc.log_ndtr((t - theta) / g)
    slack = 1e-12 * np.abs(rhs) + 1e-14
    bad = lhs < rhs - slack
    assert not bad.any(), (t[bad][:5], lhs[bad][:5], rhs[bad][:5], theta)


# ------------------------------------------------------------ identities


@given(params(), st.lists(st.floats(min_value=-1.0, max_value=1.0), min_size=1, max_size=20))
def test_cdf_plus_sf_is_one(p, us):
    fh = fh_of(p)
    x = np.array(us) * std_range(fh.alpha / fh.gamma) * fh.gamma
    total = np.asarray(fh.cdf(x)) + np.asarray(fh.sf(x))
    assert np.all(np.abs(total - 1) <= 2 * ULP), total


@given(params(), st.lists(st.floats(min_value=-1.0, max_value=1.0), min_size=1, max_size=20))
def test_exp_of_logs(p, us):
    """exp(logcdf) = cdf and exp(logsf) = sf wherever the value is a normal float.
    exp turns an absolute error e of the log into a relative one, so the slack is
    1e-14 + 2 ulp * |log|."""
    fh = fh_of(p)
    x = np.array(us) * std_range(fh.alpha / fh.gamma) * fh.gamma
    for f, lf in ((fh.cdf, fh.logcdf), (fh.sf, fh.logsf)):
        v = np.asarray(f(x))
        lv = np.asarray(lf(x))
        ok = v > 1e-300
        tol = 1e-14 + 2 * ULP * np.abs(lv[ok])
        assert np.all(np.abs(np.exp(lv[ok]) / v[ok] - 1) <= tol)


@given(params(), st.floats(min_value=-1.0, max_value=0.0))
def test_ppf_inverts_cdf(p, u):
    """ppf(cdf(x)) = x for x <= 0 and isf(sf(-x)) = -x (on the side where the
    probability keeps its information).  An error dq/q in the probability moves x by
    (cdf/pdf) dq/q <= scale * dq/q, so the slack is 1e-12 |x| + 1e-13 scale."""
    fh = fh_of(p)
    x = u * std_range(fh.alpha / fh.gamma) * fh.gamma
    q = float(fh.cdf(x))
    assume(q >= 1e-300)
    tol = 1e-12 * abs(x) + 1e-13 * scale(fh)
    assert abs(float(fh.ppf(q)) - x) <= tol
    assert abs(float(fh.isf(float(fh.sf(-x)))) + x) <= tol


@given(params(), st.floats(min_value=-300.0, max_value=math.log10(0.5)))
def test_cdf_of_ppf(p, log10q):
    """cdf(ppf(q)) = q for q in [1e-300, 1/2]; relative slack 1e-12 (condition number
    x pdf/cdf <= ~700 times the ~1e-16 error of ppf)."""
    fh = fh_of(p)
    q = 10.0**log10q
    x = float(fh.ppf(q))
    assert x <= 0
    assert float(fh.cdf(x)) == pytest.approx(q, rel=1e-12)
    assert float(fh.sf(-x)) == pytest.approx(q, rel=1e-12)


@given(params(), st.one_of(st.floats(min_value=0.0, max_value=1.0), st.floats(min_value=-300, max_value=0).map(lambda e: 10.0**e)))
def test_isf_is_minus_ppf(p, q):
    """Symmetry of the density: isf(q) = -ppf(q)."""
    fh = fh_of(p)
    a, b = float(fh.isf(q)), float(fh.ppf(q))
    assert a == -b or abs(a + b) <= 2 * ULP * abs(a)


@given(params(), st.floats(min_value=-1.0, max_value=1.0))
def test_pdf_is_derivative_of_cdf(p, u):
    """Central difference of the smaller tail with step h = 1e-5 * scale / max(1, |s|):
    truncation ~ h^2 (relative ~1e-10), cancellation ~ ulp * tail/(h pdf) ~ 1e-11; rtol 1e-7.
    (The density is C^1 at +-alpha -- rho is C^1 -- but has a cusp at 0 when alpha > 0.)"""
    fh = fh_of(p)
    g = fh.gamma
    s = u * std_range(fh.alpha / g) * 0.98
    h = 1e-5 * scale(fh) / max(1.0, abs(s))
    if abs(s * g) < 4 * h:  # the density has a cusp at 0 (Laplace centre): stay on one side
        s = 4 * h / g
    x = s * g
    if x <= 0:
        d = (float(fh.cdf(x + h)) - float(fh.cdf(x - h))) / (2 * h)
    else:
        d = (float(fh.sf(x - h)) - float(fh.sf(x + h))) / (2 * h)
    assert d == pytest.approx(float(fh.pdf(x)), rel=1e-7)


@given(params(), st.lists(st.floats(min_value=-1.0, max_value=1.0), min_size=2, max_size=60))
def test_cdf_monotone(p, us):
    fh = fh_of(p)
    x = np.sort(np.array(us)) * std_range(fh.alpha / fh.gamma) * 1.5 * fh.gamma
    assert np.all(np.diff(np.asarray(fh.cdf(x))) >= 0)
    assert np.all(np.diff(np.asarray(fh.sf(x))) <= 0)
    assert np.all(np.diff(np.asarray(fh.logcdf(x))) >= 0)
    assert np.all(np.diff(np.asarray(fh.logsf(x))) <= 0)


@pytest.mark.parametrize("b", [0.0, 1.0, 7.38905609893065, 13.99055473064278, 1e4])
def test_cdf_monotone_through_centre(b):
    """Deterministic companion of test_cdf_monotone at the centre, where cdf(0) = 1/2
    must not fall below cdf of a slightly negative x (found by the deep profile)."""
    fh = FlippedHuber(alpha=b, gamma=1.0)
    x = np.array([-1e-9, -1e-20, -1e-300, 0.0, 1e-300, 1e-20, 1e-9])
    for f, sign in ((fh.cdf, 1), (fh.logcdf, 1), (fh.sf, -1), (fh.logsf, -1)):
        v = np.asarray(f(x))
        assert np.all(sign * np.diff(v) >= 0), (f.__name__, v)


@given(params())
def test_symmetry_and_centre(p):
    fh = fh_of(p)
    # exactly 1/2 in exact arithmetic; a correctly rounded implementation gives 0.5, the
    # contract (1e-12) allows a few ulp
    assert float(fh.cdf(0.0)) == pytest.approx(0.5, rel=4 * ULP)
    assert float(fh.sf(0.0)) == pytest.approx(0.5, rel=4 * ULP)
    assert fh.mean() == 0.0
    x = np.array([0.3, 1.0, 7.0]) * fh.gamma
    assert np.array_equal(np.asarray(fh.pdf(x)), np.asarray(fh.pdf(-x)))
    assert np.allclose(np.asarray(fh.cdf(-x)), np.asarray(fh.sf(x)), rtol=2 * ULP, atol=0)


@given(params())
def test_far_tails_finite(p):
    """logpdf/logcdf/logsf are finite (and correct in sign) wherever the true value is."""
    fh = fh_of(p)
    x = np.array([-1e3, -50.0, 50.0, 1e3]) * fh.gamma
    for f in (fh.logpdf, fh.logcdf, fh.logsf):
        v = np.asarray(f(x))
        assert np.all(np.isfinite(v)) and np.all(v <= 0 if f is not fh.logpdf else True)
    v = np.asarray(fh.logsf(x))
    assert np.all(np.diff(v) <= 0) and v[3] < v[2] < v[1]  # logsf(-50), logsf(-1e3) round to -0


# -------------------------------------------------------- input validation

bad_alpha = st.one_of(
    st.floats(max_value=-1e-300, allow_infinity=False, allow_nan=False),
    st.sampled_from([math.nan, math.inf, -math.inf]),
)
bad_gamma = st.one_of(
    st.floats(max_value=0.0, allow_infinity=False, allow_nan=False),
    st.sampled_from([math.nan, math.inf, -math.inf, 0.0, -0.0]),
)
bad_q = st.one_of(
    st.floats(min_value=1.0, exclude_min=True, allow_nan=False),
    st.floats(max_value=0.0, exclude_max=True, allow_nan=False),
    st.just(math.nan),
)


@given(bad_alpha)
def test_bad_alpha_rejected(alpha):
    with pytest.raises(ValueError, match="alpha"):
        FlippedHuber(alpha=alpha, gamma=1.0)


@given(bad_gamma)
def test_bad_gamma_rejected(gamma):
    with pytest.raises(ValueError, match="gamma"):
        FlippedHuber(alpha=1.0, gamma=gamma)


# scipy's convention (issue 24.5): a probability outside [0, 1] or NaN gives NaN at its position; a value that is not a
# number is still rejected, naming the argument
@given(bad_q)
def test_bad_q_gives_nan(q):
    fh = FlippedHuber(alpha=1.0, gamma=2.0)
    for f in (fh.ppf, fh.isf):
        assert math.isnan(f(q))
        out = f(np.array([0.25, q]))
        assert math.isnan(out[1]) and out[0] == f(0.25)
        with pytest.raises(ValueError, match=r"\bq\b"):
            f("0.5")


def test_bad_x_and_s_rejected():
    fh = FlippedHuber(alpha=1.0, gamma=2.0)
    for f in (fh.pdf, fh.logpdf, fh.cdf, fh.sf, fh.logcdf, fh.logsf):
        assert math.isnan(f(math.nan))  # NaN in, NaN out (scipy's convention, issue 24.5)
        with pytest.raises(ValueError, match=r"\bx\b"):
            f("1.0")
    for f in (fh.mgf, fh.log_mgf):
        with pytest.raises(ValueError, match=r"\bs\b"):
            f(math.nan)


# lists of floats broadcast (scipy-style array parameters, fhsym.noise.broadcast); a list with a
# non-float element is still rejected, naming the parameter
@pytest.mark.parametrize("value", ["1.0", None, [1.0, None], True])
def test_non_float_parameters_rejected(value):
    with pytest.raises(ValueError, match="alpha"):
        FlippedHuber(alpha=value, gamma=1.0)
    with pytest.raises(ValueError, match="gamma"):
        FlippedHuber(alpha=1.0, gamma=value)


def test_parameters_exposed():
    fh = FlippedHuber(alpha=1.0, gamma=2.0)
    assert fh.alpha == 1.0 and fh.gamma == 2.0
    assert FlippedHuber(alpha=0, gamma=1).alpha == 0.0
