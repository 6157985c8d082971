"""The Gaussian law N(0, sigma^2), declared: g(t) = e^{-t^2/2} on t >= 0 in units of sigma."""

import sympy as sp

from ..declaration import Declaration

t = sp.Symbol("t", positive=True)
KEY = __name__.rsplit(".", 1)[-1]  # the law's key is this module's name (its class's module has it too)

DECLARATION = Declaration(name=KEY, display_name="Gaussian", t=t, pieces=((sp.exp(-t**2 / 2), (0, sp.oo)),),
                          scale="sigma",
                          source="Gaussian N(0, sigma^2): density e^{-t^2/(2 sigma^2)}/(sigma sqrt(2 pi))")
