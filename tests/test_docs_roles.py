"""scripts/docs_roles.py: Sphinx roles, reST literal blocks and stray section prose -> Markdown.

The rewrites run at docs build time (griffe extension ``docs/_hooks/griffe_docstrings.py``) and,
later, on the sources.  Targets are resolved against the real fhsym package as griffe loads it.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
griffe = pytest.importorskip("griffe", reason="griffe comes with mkdocstrings[python] (extra docs)")


def _load():
    spec = importlib.util.spec_from_file_location("docs_roles_under_test", ROOT / "scripts" / "docs_roles.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


R = _load()


@pytest.fixture(scope="module")
def tree():
    pkg = griffe.load("fhsym", search_paths=[str(ROOT)], resolve_aliases=False, try_relative_path=False)
    return pkg, R.Resolver(pkg.modules_collection)


def _link(full, title):
    return f"<{full}|{title}>"


@pytest.mark.parametrize("text, scope, expected", [
    # relative to the class of a method (Sphinx's lookup order)
    (":meth:`log_omega`", "noise.flipped_huber.FlippedHuber.omega", "<fhsym.noise.flipped_huber.FlippedHuber.log_omega|log_omega>"),
    # ~ keeps the last component; an alias resolves to the object that defines it
    (":class:`~fhsym.FlippedHuber`", "calibration.api", "<fhsym.noise.flipped_huber.FlippedHuber|FlippedHuber>"),
    (":func:`fhsym.calibrate`", "privacy", "<fhsym.calibration.api.calibrate|fhsym.calibrate>"),
    (":func:`fhsym.accounting.zcdp.zcdp`", "accounting", "<fhsym.accounting.zcdp.zcdp|fhsym.accounting.zcdp.zcdp>"),
    (":py:data:`fhsym.PROFILE_RTOL`", "noise", "<fhsym.noise.flipped_huber_profile.PROFILE_RTOL|fhsym.PROFILE_RTOL>"),
    # explicit title, and a target outside fhsym (not resolvable: a code span is the caller's choice)
    (":func:`the profile <fhsym.privacy_profile>`", "noise", "<fhsym.noise.flipped_huber_profile.privacy_profile|the profile>"),
    (":class:`~sympy.printing.numpy.SciPyPrinter`", "codegen.printer", "<None|SciPyPrinter>"),
    (":func:`no_such_function`", "noise", "<None|no_such_function>"),
])
def test_roles_resolve_in_scope(tree, text, scope, expected):
    pkg, resolver = tree
    obj = pkg[scope]
    out, n = R.convert_roles(f"see {text}.", lambda name: resolver.resolve(name, obj), _link)
    assert (out, n) == (f"see {expected}.", 1)


def test_every_role_in_fhsym_is_rewritten(tree):
    """After the rewrite no ``:role:`` is left in any docstring (what the site shows)."""
    pkg, resolver = tree
    left = []

    def walk(obj):
        yield obj
        for m in obj.members.values():
            if not m.is_alias:
                yield from walk(m)

    count = 0
    for obj in walk(pkg):
        if obj.docstring is None:
            continue
        new, counts = R.convert_docstring(obj.docstring.value, lambda n, o=obj: resolver.resolve(n, o), _link)
        count += counts["roles"]
        if R.ROLE_RE.search(new) or ":func:`" in new or ":class:`" in new:
            left.append(obj.path)
    assert count > 100  # the docstrings do use roles: the test would pass vacuously otherwise
    assert not left


def test_literal_block_becomes_fence():
    text = "Density (eq 8)::\n\n    g(t) = exp(-rho(t))\n      / kappa\n\nAfter."
    out, n = R.convert_literal_blocks(text)
    assert n == 1
    assert out == "Density (eq 8):\n\n```text\ng(t) = exp(-rho(t))\n  / kappa\n```\n\nAfter."
    # a doctest line ending in :: and plain text are left alone
    assert R.convert_literal_blocks(">>> x = {'a::': 1}::\n\n    y") == (">>> x = {'a::': 1}::\n\n    y", 0)
    assert R.convert_literal_blocks("no block here::\nnext line") == ("no block here::\nnext line", 0)


FH_LIKE = """The flipped Huber distribution.

Parameters
----------
alpha : float
    Transition parameter.
gamma : float
    Scale parameter.

Methods follow ``scipy.stats`` conventions and are vectorised in their
argument; the parameters are scalars.

Examples
--------
>>> 1
1"""


def test_section_prose_becomes_notes():
    out, n = R.convert_section_prose(FH_LIKE)
    assert n == 1
    assert "gamma : float\n    Scale parameter.\n\nNotes\n-----\nMethods follow" in out
    assert out.endswith("Examples\n--------\n>>> 1\n1")
    # griffe then parses exactly two parameters (the fake ones were 'Methods' and 'argument')
    doc = griffe.Docstring(out, parser="numpy")
    params = [s for s in doc.parse() if s.kind.value == "parameters"]
    assert [p.name for p in params[0].value] == ["alpha", "gamma"]
    # negative control: the same docstring unconverted parses the prose lines as parameters
    raw = griffe.Docstring(FH_LIKE, parser="numpy", parser_options={"warnings": False})
    raw_params = [s for s in raw.parse() if s.kind.value == "parameters"]
    assert "Methods" in [p.name for p in raw_params[0].value]


def test_doctest_outside_examples_becomes_pycon_fence():
    text = ("Exact geometric variables.\n\n>>> g = f(1)\n>>> g.x\n2\n\nMore prose.\n\n"
            "Examples\n--------\n>>> 1 + 1\n2")
    out, n = R.convert_doctest_blocks(text)
    assert n == 1
    # griffe reads the fenced doctest as part of the text (rendered as code), the Examples section as examples
    kinds = [s.kind.value for s in griffe.Docstring(out, parser="numpy", parser_options={"warnings": False}).parse()]
    assert kinds == ["text", "examples"]
    assert out == ("Exact geometric variables.\n\n```pycon\n>>> g = f(1)\n>>> g.x\n2\n```\n\nMore prose.\n\n"
                   "Examples\n--------\n>>> 1 + 1\n2")  # the Examples section is griffe's: left alone
    # indented (inside a section item) and directly after prose; fenced code is left alone
    out, n = R.convert_doctest_blocks("Returns\n-------\nx : int\n    the value:\n    >>> x\n    3")
    assert n == 1 and out.endswith("    the value:\n\n    ```pycon\n    >>> x\n    3\n    ```")
    assert R.convert_doctest_blocks("```pycon\n>>> 1\n1\n```") == ("```pycon\n>>> 1\n1\n```", 0)


def test_section_without_prose_is_unchanged():
    text = FH_LIKE.replace("Methods follow ``scipy.stats`` conventions and are vectorised in their\n"
                           "argument; the parameters are scalars.\n\n", "")
    assert R.convert_section_prose(text) == (text, 0)


def test_script_check_mode(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text('def f():\n    """Calls :func:`g`."""\n')
    good = tmp_path / "good.py"
    good.write_text('def f():\n    """Calls ``g``."""\n')
    assert R.main(["--check", str(good)]) == 0
    assert R.main(["--check", str(bad)]) == 1
    assert R.main([str(bad)]) == 0  # rewrites in place: no inventory, so a code span
    assert bad.read_text() == 'def f():\n    """Calls ``g``."""\n'
