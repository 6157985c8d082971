"""The generated kernel modules are marked as generated and are the declared kernels.

Their freshness (every file of every target regenerated in memory and compared with the
checked-in one) is checked once, by tests/test_codegen_targets.py; CI also runs
``python -m fhsym.codegen --check``.
"""

from fhsym.codegen import generate as G


def test_generated_module_is_marked_and_importable():
    for fname, *_ in G.MODULES:
        text = (G.GENERATED_DIR / fname).read_text()
        assert text.startswith("# GENERATED FILE - DO NOT EDIT.")
        assert G.COMMAND in text.splitlines()[1]


def test_generated_functions_are_the_kernels():
    from fhsym._generated import flipped_huber
    from fhsym.symbolic.stable import KERNELS

    assert sorted(flipped_huber.__all__) == sorted(k.name for k in KERNELS)
