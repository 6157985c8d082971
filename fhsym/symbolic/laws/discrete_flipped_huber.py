"""The discrete flipped Huber on the lattice h Z, declared by its energy (the paper's loss, eq 7, at t = n h).

In standard units (``lam = alpha h/gamma^2``, ``b = alpha/gamma``, ``c = h/gamma``, ``K = floor(alpha/h)``):
``E(n) = lam n`` for ``0 <= n <= K`` (the Laplace centre) and ``(c^2 n^2 + b^2)/2`` beyond (the Gaussian tail);
``P(X = n h) = e^(-E(|n|))/Z``.  ``fhsym.DiscreteFlippedHuber`` runs the forms printed from it
(``fhsym/_generated/declared/discrete_flipped_huber.py``).
"""

from .. import discrete as D
from ..lattice_laws import LatticeDeclaration

KEY = __name__.rsplit(".", 1)[-1]

DECLARATION = LatticeDeclaration(
    name=KEY, display_name="discrete flipped Huber", centre=D.lam * D.n, tail=(D.c**2 * D.n**2 + D.b**2) / 2,
    parameters=(("alpha", (0.0, float("inf"))), ("gamma", (0.0, float("inf"))), ("step", (0.0, float("inf")))),
    source="discrete flipped Huber: P(X = n h) = exp(-rho_alpha(n h)/gamma^2)/Z, rho_alpha the paper's eq 7")
