"""The truncated staircase, declared as a step pattern cut at beta = K + rho periods.

In units of the design sensitivity Delta0 with r = e^-eps0 and first-step width W = gamma: the staircase pattern
g(k + u) = r^k on [0, W), r^(k+1) on [W, 1), cut at beta = B/Delta0 = K + rho (g = 0 beyond).
``fhsym.TruncatedStaircase`` runs the code printed from it: ``fhsym/_generated/declared/truncated_staircase.py``.
"""

import sympy as sp

from ..steps import StepDeclaration, StepParameter, r

W = sp.Symbol("W", nonnegative=True)
KEY = __name__.rsplit(".", 1)[-1]

DECLARATION = StepDeclaration(
    name=KEY, display_name="truncated staircase", cells=((0, W, sp.Integer(1)), (W, 1, r)),
    shapes=(StepParameter(W, (0.0, 1.0)),), truncated=True, scale="sensitivity",
    source="truncated staircase: the staircase density r^l(|x|/Delta0) on |x| <= B, 0 beyond, normalised")
