"""The OSGT law (offset symmetric Gaussian tails; Sadeghi & Korki 2022), declared with its shape theta.

With offset vartheta and scale varrho the density is proportional to e^{-(|x|/varrho + theta)^2/2},
theta = vartheta/varrho: in units of varrho, g(t) = e^{-(t + theta)^2/2} on t >= 0.
"""

import sympy as sp

from ..declaration import Declaration, ShapeParameter

t = sp.Symbol("t", positive=True)
KEY = __name__.rsplit(".", 1)[-1]  # the law's key is this module's name (its class's module has it too)
theta = sp.Symbol("theta", positive=True)

DECLARATION = Declaration(
    name=KEY, display_name="OSGT", t=t, pieces=((sp.exp(-(t + theta) ** 2 / 2), (0, sp.oo)),), scale="varrho",
    shapes=(ShapeParameter(theta, domain=(0.0, 1e8), typical=(1e-3, 1e4)),),
    source="OSGT (Sadeghi & Korki 2022): density e^{-(|x|/varrho + theta)^2/2}/(2 varrho R(theta)), "
           "theta = vartheta/varrho")
