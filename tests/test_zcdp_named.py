"""``FlippedHuber.zcdp`` returns a named tuple ``ZCDP(xi, eta)`` (issue 24) that still unpacks and compares as a pair."""

from __future__ import annotations

from fractions import Fraction

import pytest

import fhsym
from fhsym.noise.flipped_huber_zcdp import ZCDP


@pytest.mark.parametrize("alpha, gamma, delta", [(1.0, 2.0, 1.0), (0.25, 0.5, 1.0), (3.0, 1.5, 0.5)])
def test_zcdp_is_named_and_exact(alpha, gamma, delta):
    z = fhsym.FlippedHuber(alpha=alpha, gamma=gamma).zcdp(sensitivity=delta)
    assert isinstance(z, ZCDP) and z._fields == ("xi", "eta")
    # slides' theorem, in exact rationals: R_D(a) = a^2 - [a - D]_+^2, xi = R / 2g^2, eta = D^2 / 2g^2
    a, g, d = Fraction(alpha), Fraction(gamma), Fraction(delta)
    R = a * a - max(a - d, Fraction(0)) ** 2
    assert z.xi == pytest.approx(float(R / (2 * g * g)), rel=1e-15)
    assert z.eta == pytest.approx(float(d * d / (2 * g * g)), rel=1e-15)
    xi, eta = z  # unpacks as before
    assert (xi, eta) == z and z == (z.xi, z.eta) and len(z) == 2
    assert "xi=" in repr(z) and "eta=" in repr(z)


def test_accounting_zcdp_and_composition_accept_it():
    fh = fhsym.FlippedHuber(alpha=1.0, gamma=2.0)
    z = fhsym.accounting.zcdp.zcdp(fh, 1.0, 3)
    assert isinstance(z, ZCDP) and z == fh.zcdp(dim=3)
    assert fhsym.accounting.zcdp.zcdp_compose([fh.zcdp(), fh.zcdp()]) == pytest.approx((0.25, 0.25))
