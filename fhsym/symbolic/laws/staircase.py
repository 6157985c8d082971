"""The staircase law of Geng & Viswanath (IEEE Trans. Inf. Theory 62(2), 2016), declared as a step pattern.

In units of the design sensitivity Delta0 (the period) with r = e^-eps0 and first-step width W = gamma:
g(k + u) = r^k on u in [0, W) and r^(k+1) on [W, 1), k = 0, 1, ...  (``fhsym.Staircase`` runs the code printed
from it: ``fhsym/_generated/declared/staircase.py``).
"""

import sympy as sp

from ..steps import StepDeclaration, StepParameter, r

W = sp.Symbol("W", nonnegative=True)
KEY = __name__.rsplit(".", 1)[-1]

DECLARATION = StepDeclaration(
    name=KEY, display_name="staircase", cells=((0, W, sp.Integer(1)), (W, 1, r)),
    shapes=(StepParameter(W, (0.0, 1.0)),), scale="sensitivity",
    source="staircase (Geng & Viswanath 2016): density a r^l(|x|), l = #{k >= 0: k Delta0 + gamma Delta0 <= |x|}")
