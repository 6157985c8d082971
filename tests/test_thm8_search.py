"""Theorem 8's largest D = Delta/gamma per shape (fhsym.accounting.sufficient._thm8_Dstar) on the search primitives:
0 below 1e-12, inf from 2^39 on, else within 1e-13 below the switch, on both sides of D = 1; and
minimise_on_log_grid keeps x = 0 where it is at least as good."""

from __future__ import annotations

import math

import numpy as np
import pytest

import fhsym.accounting.sufficient as S
from fhsym._core.minimise import minimise_on_log_grid


@pytest.mark.parametrize("top", [1e-13, 1e-12, 0.5, 1.0, 5.0, 3e11, 2.0**39 * 0.9, 2.0**39, math.inf])
def test_dstar_of_a_threshold_predicate(monkeypatch, top):
    monkeypatch.setattr(S, "_thm8_ok", lambda eps, dl, b, D, K, c2, c1: D <= top)
    d = S._thm8_Dstar(1.0, 1e-6, 1.0, 1, 1.0, 1.0)
    if top < 1e-12:
        assert d == 0.0
    elif top >= 2.0**39:
        assert d == math.inf
    else:
        assert d <= top and d >= top * (1.0 - 1e-13), (top, d)


@pytest.mark.parametrize("eps, dl", [(1.0, 1e-6), (20.0, 1e-3)])  # D* below 1, and above 1
def test_dstar_is_the_switch_of_theorem8(eps, dl):
    for b in (0.0, 0.01, 0.3):
        d = S._thm8_Dstar(eps, dl, b, 1, 1.0, 1.0)
        assert 0.0 < d < math.inf
        assert S._thm8_ok(eps, dl, b, d, 1, 1.0, 1.0) and not S._thm8_ok(eps, dl, b, d * (1 + 4e-13), 1, 1.0, 1.0)
    assert (S._thm8_Dstar(20.0, 1e-3, 0.01, 1, 1.0, 1.0) > 1.0) and (S._thm8_Dstar(1.0, 1e-6, 0.01, 1, 1.0, 1.0) < 1.0)


def test_minimise_on_log_grid_keeps_zero_when_not_worse():
    grid = np.geomspace(1e-3, 1e3, 30)
    assert minimise_on_log_grid(lambda x: 1.0 + x, grid) == (0.0, 1.0)
    x, fx = minimise_on_log_grid(lambda x: 1.0 + x, grid, include_zero=False)
    assert x == grid[0] and fx == 1.0 + grid[0]
