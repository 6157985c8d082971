"""Piecewise-uniform noise (the primal of the optimum linear program, :mod:`fhsym.optimum`), declared as finite cells.

In units of the cell width w: ``g(t) = n[|k|]`` on ``[k - 1/2, k + 1/2)``, ``|k| <= M``, the integer weights
``n[0..M]`` the data of one instance (``fhsym.PiecewiseUniform`` runs the code printed from it:
``fhsym/_generated/declared/piecewise_uniform.py``).
"""

from ..cells import CellDeclaration

KEY = __name__.rsplit(".", 1)[-1]

DECLARATION = CellDeclaration(
    name=KEY, display_name="piecewise uniform", scale="width",
    source="piecewise uniform: bin k = [(k - 1/2) w, (k + 1/2) w) holds n_|k|/N, N = n_0 + 2 (n_1 + ... + n_M)")
