"""The generated kernel modules are marked as generated and are the declared kernels.

Their freshness (every file of every target regenerated in memory and compared with the
checked-in one) is checked once, by tests/test_codegen_targets.py; CI also runs
``python -m fhsym.codegen --check``.
"""

import inspect

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


def test_the_kernels_namespace_type_names_every_implementation():
    """fhsym._core.types.ArrayNamespace, the type of every kernel's ``xp``, has one attribute per name of
    backends.IMPLEMENTATIONS (and the namespace's label), and the numpy namespace holds each of them."""
    from fhsym._core.backends import IMPLEMENTATIONS, NUMPY
    from fhsym._core.types import ArrayNamespace

    declared = set(ArrayNamespace.__annotations__)
    assert declared == set(IMPLEMENTATIONS) | {"name"}
    assert [n for n in sorted(declared) if not hasattr(NUMPY, n)] == []


def test_generated_functions_are_annotated():
    """Every function the numpy target prints carries a type on each parameter and on its result (the
    generator prints them; ``python -m mypy`` then checks the bodies against them)."""
    import importlib
    import inspect

    for fname in [m[0] for m in G.MODULES] + [m[0] for m in G.PIECE_MODULES]:
        module = importlib.import_module(f"fhsym._generated.{fname[:-3]}")
        functions = [f for _, f in inspect.getmembers(module, inspect.isfunction) if f.__module__ == module.__name__]
        assert len(functions) >= len(module.__all__)
        for f in functions:
            sig = inspect.signature(f)
            assert sig.return_annotation is not inspect.Signature.empty, f"{fname}: {f.__name__} has no result type"
            untyped = [p for p in sig.parameters.values() if p.annotation is inspect.Parameter.empty]
            assert untyped == [], f"{fname}: {f.__name__} leaves {untyped} untyped"


def test_the_typed_abs_of_the_kernels_is_the_builtin():
    """The kernels print SymPy's Abs as ``real_abs``: the builtin itself under an elementwise type."""
    from fhsym._core.types import real_abs
    from fhsym._generated import privacy_loss

    assert real_abs is abs
    assert "real_abs(s)" in inspect.getsource(privacy_loss.loss_tail_center)
