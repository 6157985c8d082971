"""``derive_steps(decl, max_moment)``: the argument governs the moments derived for both kinds of step law (a cut
law's per-period summands included) and is refused with ValueError where it cannot hold the variance."""

from __future__ import annotations

import pytest
import sympy as sp

from fhsym.symbolic.laws import staircase as ST
from fhsym.symbolic.laws import truncated_staircase as TS
from fhsym.symbolic.steps import derive_steps, k, r


def test_cut_law_moment_summands_follow_max_moment():
    dv = derive_steps(TS.DECLARATION, max_moment=8)
    assert sorted(dv.moment_period) == sorted(dv.moment_last) == [2, 4, 6, 8]
    assert sorted(derive_steps(TS.DECLARATION, max_moment=3).moment_period) == [2]
    # the n = 8 summand is r^k int_0^1 (k + u)^8 h(u) du, h the declared cell heights: integrate it here
    u = sp.Symbol("u", nonnegative=True)
    direct = r**k * sum(h * sp.integrate((k + u) ** 8, (u, lo, hi)) for lo, hi, h in TS.DECLARATION.cells)
    assert sp.simplify(sp.expand(dv.moment_period[8] - direct)) == 0


def test_untruncated_moments_follow_max_moment():
    assert sorted(derive_steps(ST.DECLARATION, max_moment=3).moments) == [1, 2, 3]


@pytest.mark.parametrize("bad", [1, 0, -2, 2.0, True, "6"])
def test_max_moment_refused(bad):
    for decl in (ST.DECLARATION, TS.DECLARATION):
        with pytest.raises(ValueError, match="max_moment"):
            derive_steps(decl, max_moment=bad)
