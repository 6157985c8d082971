"""Every checked-in generated file of every target (numpy kernels and pieces, C, JAX) is fresh.

Regenerates each file into memory and compares it with the checked-in one; the printed
text depends on the SymPy version, so a file recorded under another SymPy is skipped with
the reason.  This is the suite's one freshness check (CI runs ``python -m fhsym.codegen --check``
as a step of its own).
"""

import difflib

import pytest
import sympy

from fhsym.codegen import generate as G

FILES = [(t, rel, render) for t in G.TARGETS for rel, render in G.outputs(t)]
# a declared law's module is rendered by deriving the law from its declaration (about 5-15 s each): slow here, and
# in CI's own `python -m fhsym.codegen --check` step, which checks every file
PARAMS = [pytest.param(t, rel, render, id=f"{t}:{rel}",
                       marks=[pytest.mark.slow] if rel.startswith("declared") and not rel.endswith("__init__.py") else [])
          for t, rel, render in FILES]


@pytest.mark.parametrize("target,rel,render", PARAMS)
def test_generated_file_is_fresh(target, rel, render):
    path = G.default_dir(target) / rel
    assert path.exists(), f"{path} is missing; run `{G.COMMAND}`"
    current = path.read_text()
    assert current.startswith(("# GENERATED FILE - DO NOT EDIT.", "// GENERATED FILE - DO NOT EDIT."))
    recorded = G._recorded_sympy_version(current)
    if recorded != sympy.__version__:
        pytest.skip(f"{rel} was generated with SymPy {recorded}; this is SymPy {sympy.__version__}")
    fresh = render()
    if fresh != current:
        diff = "\n".join(difflib.unified_diff(current.splitlines(), fresh.splitlines(), "checked-in", "fresh", lineterm=""))
        pytest.fail(f"{path} is stale; run `{G.COMMAND}` and commit.\n{diff}")


def test_generated_piece_functions_are_the_declarations():
    from fhsym._generated import flipped_huber_pieces, kdim, privacy_pieces
    from fhsym.symbolic import kdim as SK
    from fhsym.symbolic import laplace_limit as SL
    from fhsym.symbolic import privacy as SP
    from fhsym.symbolic import stable as SS

    assert [f.name for f in SS.DISTRIBUTION_FUNCTIONS] == [f.name for f in SL.DISTRIBUTION_FUNCTIONS][: len(SS.DISTRIBUTION_FUNCTIONS)]
    def functions(fs):  # each function and its one-point form (``<name>_point``, on the scalar namespace)
        return [n for f in fs for n in (f.name, f"{f.name}_point")]

    assert flipped_huber_pieces.__all__ == [k.name for k in SL.LAPLACE_KERNELS] + functions(SL.DISTRIBUTION_FUNCTIONS)
    assert privacy_pieces.__all__ == functions(SP.PRIVACY_FUNCTIONS)
    assert kdim.__all__ == [k.name for k in SK.KDIM_KERNELS] + functions(SK.KDIM_FUNCTIONS)
