"""The exact piece-sum references of the step and cell laws (proofs/reference_steps.py, proofs/reference_cells.py)
against mpmath quadrature of the same definitions, integrated independently here (``mpmath.quad`` between the
density's edges): the references replaced that quadrature, so this keeps the two routes in agreement."""

from __future__ import annotations

import mpmath
import pytest

from proofs.reference_cells import CellRef
from proofs.reference_steps import StepRef

DPS = 50
GL = "gauss-legendre"


def _rel(a, b):
    return abs(a - b) / abs(b)


@pytest.mark.parametrize("eps, W, beta", [(0.7, 0.35, None), (1.9, 0.8, 6.4), (0.4, 0.1, 3.05)])
def test_step_reference_equals_quadrature_of_the_definition(eps, W, beta):
    ref = StepRef(eps, W, beta, dps=DPS)
    with mpmath.workdps(DPS + 10):
        pts = ref.edges(mpmath.mpf(0), ref.top)

        # Gauss-Legendre: on each piece g is constant, so the integrands are polynomials of degree <= 4 (or constants),
        # which it integrates exactly from its first level (about 10x cheaper than tanh-sinh, the same digits)
        def quad(f):  # int_0^top f(t) g(t) dt, piece by piece
            return mpmath.fsum(mpmath.quad(lambda t: f(t) * ref.g(t), [a, b], method=GL) for a, b in zip(pts, pts[1:]))

        Z = 2 * quad(lambda t: 1)
        assert _rel(ref.Z, Z) < mpmath.mpf(10) ** -(DPS + 5)
        for n in (2, 4):
            assert _rel(ref.moment(n), 2 * quad(lambda t: t**n) / Z) < mpmath.mpf(10) ** -(DPS + 5), n
        h = 2 * mpmath.fsum(mpmath.quad(lambda t: -(ref.g(t) / Z) * mpmath.log(ref.g(t) / Z), [a, b], method=GL)
                            for a, b in zip(pts, pts[1:]) if ref.g((a + b) / 2) > 0)
        assert _rel(ref.entropy(), h) < mpmath.mpf(10) ** -(DPS + 5)
        x = mpmath.mpf(1.3)
        tail = mpmath.fsum(mpmath.quad(ref.g, [max(a, x), b], method=GL) for a, b in zip(pts, pts[1:]) if b > x) / Z
        assert _rel(ref.sf(1.3), tail) < mpmath.mpf(10) ** -(DPS + 5)


@pytest.mark.parametrize("weights", [(2, 1), (5, 3, 1, 0, 1), (7, 7, 2)])
def test_cell_reference_equals_quadrature_of_the_definition(weights):
    ref = CellRef(weights, dps=DPS)
    top = ref.M + mpmath.mpf(1) / 2
    with mpmath.workdps(DPS + 10):
        pts = [k + mpmath.mpf(1) / 2 for k in range(-ref.M - 1, ref.M + 1)]

        def quad(f):
            return mpmath.fsum(mpmath.quad(lambda t: f(t) * ref.g(t), [a, b]) for a, b in zip(pts, pts[1:]))

        Z = quad(lambda t: 1)
        assert _rel(ref.Z, Z) < mpmath.mpf(10) ** -(DPS + 5)
        x = mpmath.mpf(0.3)
        tail = mpmath.fsum(mpmath.quad(ref.g, [max(a, x), b]) for a, b in zip(pts, pts[1:]) if b > x) / Z
        assert _rel(ref.sf(0.3), tail) < mpmath.mpf(10) ** -(DPS + 5)
        assert top == pts[-1]
