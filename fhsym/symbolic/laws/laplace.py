"""The Laplace law L(0, beta), declared: g(t) = e^{-t} on t >= 0 in units of beta (density e^{-|x|/beta}/(2 beta))."""

import sympy as sp

from ..declaration import Declaration

t = sp.Symbol("t", positive=True)
KEY = __name__.rsplit(".", 1)[-1]  # the law's key is this module's name (its class's module has it too)

DECLARATION = Declaration(name=KEY, display_name="Laplace", t=t, pieces=((sp.exp(-t), (0, sp.oo)),),
                          scale="beta", source="Laplace L(0, beta): density e^{-|t|/beta}/(2 beta)")
