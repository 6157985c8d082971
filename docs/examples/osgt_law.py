"""fhsym's OSGT law declared through the pipeline, with its shape parameter (proof that the ShapeParameter path
reproduces the hand-written fhsym.OSGT).

OSGT (offset symmetric Gaussian tails; Sadeghi & Korki 2022) with offset vartheta and scale varrho has density
proportional to e^{-(|x|/varrho + theta)^2/2}, theta = vartheta/varrho: in units of varrho,
g(t) = e^{-(t + theta)^2/2} on t >= 0 (psi'' = 1: log-concave; psi'(0+) = theta >= 0).
"""

import sympy as sp

import fhsym

t = sp.Symbol("t", positive=True)
theta = sp.Symbol("theta", positive=True)


def TWIN(varrho: float, theta: float) -> fhsym.OSGT:  # noqa: N802 - the hand-written member of the same law
    """fhsym.OSGT at the declared member (scale varrho, shape theta): OSGT(vartheta = theta varrho, varrho)."""
    return fhsym.OSGT(theta * varrho, varrho)


TWIN_SHAPES = (1e-3, 0.5, 20.0, 1e3, 1e4)  # the shapes theta at which proofs/declared.py compares the two

DECLARATION = fhsym.Declaration(
    name="declared_osgt", display_name="OSGT (declared)", t=t,
    pieces=((sp.exp(-(t + theta) ** 2 / 2), (0, sp.oo)),), scale="varrho",
    shapes=(fhsym.ShapeParameter(theta, domain=(0.0, 1e8), typical=(1e-3, 1e4)),),
    source="OSGT (Sadeghi & Korki 2022): density e^{-(|x|/varrho + theta)^2/2}/(2 varrho R(theta)), theta = vartheta/varrho")

DeclaredOSGT = fhsym.declare_law(DECLARATION)
