"""Accuracy of the hand-written special functions in fhsym._numerics against mpmath.

Reference recipe: mpmath at 50 digits of the defining integral / expression
(lowergamma3_scaled(y) = gammainc(3, 0, y) / y^3; log1mexp(x) = log(1 - exp(-x))).
Tolerance: 1e-15 relative (both are a few ulp by construction).
"""

import mpmath as mp
import numpy as np
import pytest

from fhsym import _numerics as nx

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


def test_log1mexp_against_mpmath():
    xs = np.concatenate([np.geomspace(1e-300, 1e-1, 100), np.linspace(0.1, 40.0, 200), [np.log(2.0), 700.0]])
    got = nx.log1mexp(xs)
    with mp.workdps(50):
        refs = [mp.log1p(-mp.exp(-mp.mpf(x))) if x > 1 else mp.log(-mp.expm1(-mp.mpf(x))) for x in xs]
        worst, i = _worst(got, refs)
    assert worst <= RTOL, f"worst relative error {worst:.3e} at x={xs[i]!r}"
