"""Accuracy of the hand-written special functions in fhsym._numerics against mpmath.

Reference recipe: mpmath at 50 digits of the defining integral / expression
(lowergamma3_scaled(y) = gammainc(3, 0, y) / y^3; log1mexp(x) = log(1 - exp(-x))).
Tolerance: 1e-15 relative (both are a few ulp by construction).
"""

import mpmath as mp
import numpy as np
import pytest

from fhsym._core import numerics as nx

RTOL = 1e-15


def _worst(values, refs):
    rel = [abs(float((mp.mpf(float(v)) - r) / r)) for v, r in zip(values, refs)]
    i = int(np.argmax(rel))
    return rel[i], i


def test_lowergamma3_scaled_against_mpmath():
    ys = np.concatenate([[0.0, 1e-300, 1e-20, 1e-8], np.geomspace(1e-6, 1e6, 200), [0.4999, 0.5, 0.5001, 3.0, 700.0, 1e8]])
    got = nx.lowergamma3_scaled(ys)
    with mp.workdps(50):
        refs = [mp.mpf(1) / 3 if y == 0 else mp.gammainc(3, 0, mp.mpf(y)) / mp.mpf(y) ** 3 for y in ys]
        worst, i = _worst(got, refs)
    assert worst <= RTOL, f"worst relative error {worst:.3e} at y={ys[i]!r}"
    assert float(nx.lowergamma3_scaled(0.0)) == pytest.approx(1 / 3, rel=1e-16)


@pytest.mark.parametrize("n", [0, 1, 2, 5, 10, 20])
def test_lowergamma_scaled_against_mpmath(n):
    """int_0^1 u^n e^{-y u} du = gammainc(n + 1, 0, y) / y^(n+1) (mpmath, 50 digits); 1e-14 relative (scipy gammainc)."""
    ys = np.concatenate([[0.0, 1e-300, 1e-12, 0.4999, 0.5, 0.5001], np.geomspace(1e-6, 1e5, 80)])
    got = nx.lowergamma_scaled(n, ys)
    with mp.workdps(50):
        refs = [mp.mpf(1) / (n + 1) if y == 0 else mp.gammainc(n + 1, 0, mp.mpf(y)) / mp.mpf(y) ** (n + 1) for y in ys]
        worst, i = _worst(got, refs)
    assert worst <= 1e-14, f"n={n}: worst relative error {worst:.3e} at y={ys[i]!r}"


def test_log1mexp_against_mpmath():
    xs = np.concatenate([np.geomspace(1e-300, 1e-1, 100), np.linspace(0.1, 40.0, 200), [np.log(2.0), 700.0]])
    got = nx.log1mexp(xs)
    with mp.workdps(50):
        refs = [mp.log1p(-mp.exp(-mp.mpf(x))) if x > 1 else mp.log(-mp.expm1(-mp.mpf(x))) for x in xs]
        worst, i = _worst(got, refs)
    assert worst <= RTOL, f"worst relative error {worst:.3e} at x={xs[i]!r}"


def _erfcx_diff_reference(y: float, k: float) -> mp.mpf:
    """erfcx(y) - erfcx(y+k) by mpmath with enough digits to resolve the difference."""
    import math

    dps = 50 + int(max(0.0, -math.log10(k))) + 2 * int(math.log10(max(abs(y), 1.0)))
    with mp.workdps(dps):
        y, k = mp.mpf(y), mp.mpf(k)
        return mp.exp(y**2) * mp.erfc(y) - mp.exp((y + k) ** 2) * mp.erfc(y + k)


@pytest.mark.parametrize("lo,hi,rtol", [(-10.0, 0.0, 1e-13), (0.0, 7.0, 1e-13), (7.0, 1e8, 1e-14)])
def test_erfcx_diff_against_mpmath(lo, hi, rtol):
    """Relative error of erfcx_diff across its three regimes (boundaries included), k from 1e-200 to 1e8."""
    rng = np.random.default_rng(20261122)
    ys = rng.uniform(lo, hi, 60) if hi < 100 else np.exp(rng.uniform(np.log(lo), np.log(hi), 60))
    ys = np.concatenate([ys, [lo, np.nextafter(hi, lo)]])
    worst, where = 0.0, None
    for y in ys:
        ks = np.concatenate([np.exp(rng.uniform(np.log(1e-200), np.log(1e8), 6)), rng.uniform(0.01, 0.6, 2), [0.5 / max(1.0, -y)]])
        got = nx.erfcx_diff(np.full(ks.shape, y), ks)
        for k, g in zip(ks, got):
            ref = _erfcx_diff_reference(float(y), float(k))
            if abs(ref) < 1e-290:
                continue
            err = abs(float((mp.mpf(float(g)) - ref) / ref))
            if err > worst:
                worst, where = err, (float(y), float(k))
    assert worst <= rtol, f"worst relative error {worst:.3e} at (y, k) = {where}"


def test_erfcx_diff_zero_step_and_negative_control():
    assert float(nx.erfcx_diff(1.0, 0.0)) == 0.0
    # Negative control: the plain difference loses ~10 digits at y = 30, k = 1e-10; erfcx_diff does not.
    from scipy.special import erfcx

    y, k = 30.0, 1e-10
    ref = _erfcx_diff_reference(y, k)
    naive = erfcx(y) - erfcx(y + k)
    assert abs(float((mp.mpf(float(naive)) - ref) / ref)) > 1e-8
    assert abs(float((mp.mpf(float(nx.erfcx_diff(y, k))) - ref) / ref)) < 1e-14


def test_erfcx_diff_at_infinite_y_is_zero():
    """erfcx(inf) = erfcx(inf + k) = 0, so the difference is 0 -- in every path: the 2-D series (small arrays),
    the band loop (arrays holding inf), and the scalar twin (it was uninitialised memory / NaN before)."""
    from fhsym._core.scalar import SCALAR

    for y in (np.array([np.inf, 1e300]), np.array([np.inf] * 3 + [8.0] * 5000)):
        for k in (1.0, np.inf, 0.0):
            got = nx.erfcx_diff(y, np.full_like(y, k))
            assert got[0] == 0.0
            assert np.all(np.isfinite(got)) and np.all(got >= 0.0)
    assert SCALAR.erfcx_diff(np.inf, 1.0) == 0.0
    assert SCALAR.erfcx_diff(np.inf, np.inf) == 0.0
