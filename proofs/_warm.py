"""What a parallel proofs run imports and builds once in the forking parent (:func:`proofs._harness.run`).

Each check runs in its own process forked from the parent: a module a check imports on first use, or a cache it
fills, is imported or filled again in every child that needs it.  Those the checks share are listed here; the
parent imports them before it forks the first check (issue 30.6: ~0.06 s CPU in each of ~100 children for
``sympy.physics.units`` alone, which SymPy's ``simplify`` imports).  Nothing a check computes changes: the quick
report is the same file with and without it.
"""

from __future__ import annotations

import importlib

PACKAGE = __name__.rpartition(".")[0]  # "proofs" in a checkout, "fhsym._proofs" in the wheel

#: modules the checks import on first use (SymPy's ``simplify`` imports ``sympy.physics.units``, ``integrate`` its
#: algorithms, ...; the proofs' references): imported once by the parent before it forks, so that the children
#: (one per check) inherit them instead of each importing them again (before: ~0.06 s CPU in each of ~100 children)
WARM_IMPORTS = (
    "sympy.physics.units", "sympy.physics.units.util", "sympy.integrals.manualintegrate", "sympy.integrals.risch",
    "sympy.integrals.heurisch", "sympy.integrals.prde", "sympy.integrals.rde", "sympy.polys.polymatrix",
    "sympy.polys.domains.old_fractionfield", "sympy.polys.domains.old_polynomialring",
    "sympy.matrices.expressions.applyfunc", "sympy.tensor.array.expressions", "sympy.tensor.array.array_derivatives",
    "sympy.sets.handlers.issubset", "sympy.sets.handlers.functions",
    f"{PACKAGE}.reference", f"{PACKAGE}.reference_confirm", f"{PACKAGE}.reference_profile",
    f"{PACKAGE}._mp:_ns",  # "module:function": also call it (the mpmath namespace that ~80 checks lambdify into)
)


def warm_imports() -> None:
    """Import :data:`WARM_IMPORTS` in this process (and call the ``module:function`` entries: caches that only
    speed up a later call); a module that is missing or fails is left to the checks that need it."""
    for entry in WARM_IMPORTS:
        name, _, fn = entry.partition(":")
        try:
            mod = importlib.import_module(name)
            if fn:
                getattr(mod, fn)()
        except Exception:
            pass
