"""The flipped Huber law (the paper's eq 7-8), declared: in units of alpha, with the shape c = (alpha/gamma)^2.

The density is proportional to exp(-rho_alpha(x)/gamma^2), rho_alpha(x) = alpha|x| for |x| <= alpha and
(x^2 + alpha^2)/2 beyond (eq 7).  With u = x/alpha and c = b^2 = alpha^2/gamma^2:
g(u) = e^{-c u} on [0, 1) and e^{-c (u^2 + 1)/2} on [1, oo): the join is at u = 1 for every shape (a declaration's
joins are exact rationals), the scale is alpha.  ``proofs/shipped_laws.py`` shows the derived normaliser, sf,
variance and Fisher information equal to fhsym.symbolic.definitions' (kappa, eq 10, Appendix A) after u = t/alpha.
"""

import sympy as sp

from ..declaration import Declaration, ShapeParameter

t = sp.Symbol("t", positive=True)
c = sp.Symbol("c", positive=True)
KEY = __name__.rsplit(".", 1)[-1]  # the law's key is this module's name (its class's module has it too)

DECLARATION = Declaration(
    name=KEY, display_name="flipped Huber", t=t,
    pieces=((sp.exp(-c * t), (0, 1)), (sp.exp(-c * (t**2 + 1) / 2), (1, sp.oo))), scale="alpha",
    shapes=(ShapeParameter(c, domain=(0.0, float("inf")), typical=(1e-2, 1e2)),),
    source="flipped Huber (Muthukrishnan & Kalyani, eq 7-8): density exp(-rho_alpha(x)/gamma^2)/kappa; in units of "
           "alpha with c = alpha^2/gamma^2")
