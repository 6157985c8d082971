"""The generated kernels are in sync with their SymPy sources.

Regenerates every module of fhsym.codegen into memory and compares it with the
checked-in file.  The printed text depends on the SymPy version, so the test is
skipped (with the reason) under a SymPy other than the one recorded in the header.
"""

import difflib

import pytest
import sympy

from fhsym.codegen import generate as G


@pytest.mark.parametrize("fname,source,attr,doc", G.MODULES, ids=[m[0] for m in G.MODULES])
def test_generated_module_is_fresh(fname, source, attr, doc):
    path = G.GENERATED_DIR / fname
    current = path.read_text()
    recorded = G._recorded_sympy_version(current)
    if recorded != sympy.__version__:
        pytest.skip(f"{fname} was generated with SymPy {recorded}; this is SymPy {sympy.__version__}")
    fresh = G.render_module(source, attr, doc)
    if fresh != current:
        diff = "\n".join(difflib.unified_diff(current.splitlines(), fresh.splitlines(), "checked-in", "fresh", lineterm=""))
        pytest.fail(f"{fname} is stale; run `{G.COMMAND}` and commit.\n{diff}")


def test_generated_module_is_marked_and_importable():
    for fname, *_ in G.MODULES:
        text = (G.GENERATED_DIR / fname).read_text()
        assert text.startswith("# GENERATED FILE - DO NOT EDIT.")
        assert G.COMMAND in text.splitlines()[1]


def test_generated_functions_are_the_kernels():
    from fhsym._generated import flipped_huber
    from fhsym.symbolic.stable import KERNELS

    assert sorted(flipped_huber.__all__) == sorted(k.name for k in KERNELS)
