"""Documentation: the doctests of every fhsym module run, and the docs site builds with warnings as errors.

* ``test_doctests`` runs ``doctest`` over each module of the installed ``fhsym`` package (the public
  API and everything else that has examples), one test per module, with ELLIPSIS and
  NORMALIZE_WHITESPACE.  A module whose optional dependency is missing (matplotlib for
  ``fhsym.plotting``, dp_accounting for the adapter) is skipped with the reason.
* ``test_public_api_has_examples`` is a ratchet: every object in ``fhsym.__all__`` and every public
  method of ``fhsym.FlippedHuber`` must have a doctest example, except the ones listed in
  ``KNOWN_WITHOUT_EXAMPLES`` (to be emptied; a listed name that gains an example is fine).
* ``test_docs_build_strict`` runs ``mkdocs build --strict`` (the one documented command) into a
  temporary directory when mkdocs, mkdocs-material and mkdocstrings are installed (extra ``docs``);
  otherwise it is skipped with the reason.  Docstring warnings are on for every module; the
  Sphinx roles of the docstrings render as links, MathJax comes from the site's own copy.
  Marked slow (~20 s).
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import inspect
import os
import pkgutil
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import fhsym

ROOT = Path(__file__).resolve().parent.parent

# modules that run code on import (entry points) are not imported here
_NOT_IMPORTED = {"fhsym.__main__", "fhsym.codegen.__main__"}
_OPTIONAL = {"matplotlib": "plot", "dp_accounting": "dp_accounting", "sklearn": "(scikit-learn)", "opendp": "opendp", "jax": "jax"}


def _modules():
    names = ["fhsym"]
    infos = list(pkgutil.walk_packages(fhsym.__path__, "fhsym."))
    for info in infos:
        if info.name not in _NOT_IMPORTED:
            names.append(info.name)
    return sorted(names)


def _import(name: str):
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        missing = getattr(exc, "name", None) or ""
        root = missing.split(".")[0]
        if root in _OPTIONAL:
            pytest.skip(f"{name} needs the optional dependency {root} (extra {_OPTIONAL[root]})")
        raise


@pytest.mark.parametrize("name", _modules())
def test_doctests(name):
    mod = _import(name)
    if name == "fhsym.plotting":
        pytest.importorskip("matplotlib", reason="fhsym.plotting needs matplotlib (extra plot)")
    finder = doctest.DocTestFinder(exclude_empty=True)
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    runner = doctest.DocTestRunner(optionflags=flags)
    report = []
    for test in finder.find(mod, name):
        test.globs.setdefault("np", importlib.import_module("numpy"))
        runner.run(test, out=report.append)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, "".join(report)


# Public objects without a doctest example (owners: add one, then delete the name here).
KNOWN_WITHOUT_EXAMPLES: set = set()


def _public_api():
    out = {}
    for name in fhsym.__all__:
        obj = getattr(fhsym, name)
        if inspect.isfunction(obj) or inspect.isclass(obj):  # constants carry no docstring
            out[name] = obj
    for an, a in vars(fhsym.FlippedHuber).items():
        if not an.startswith("_") and inspect.isfunction(a):
            out[f"FlippedHuber.{an}"] = a
    return out


def test_public_api_has_examples():
    lacking = []
    for name, obj in _public_api().items():
        doc = inspect.getdoc(obj)
        if not doc or ">>>" not in doc:
            lacking.append(name)
    new = sorted(set(lacking) - KNOWN_WITHOUT_EXAMPLES)
    assert not new, f"public API without a doctest example (add one): {new}"


def _docs_tools_missing():
    for mod, pkg in (("mkdocs", "mkdocs"), ("material", "mkdocs-material"), ("mkdocstrings", "mkdocstrings"),
                     ("mkdocstrings_handlers.python", "mkdocstrings[python]")):
        try:
            if importlib.util.find_spec(mod) is None:
                return pkg
        except ModuleNotFoundError:
            return pkg
    return None


@pytest.mark.slow
def test_docs_build_strict(tmp_path):
    missing = _docs_tools_missing()
    if missing:
        pytest.skip(f"{missing} is not installed (pip install -e '.[docs]')")
    site = tmp_path / "site"
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"),
                        "-d", str(site)], cwd=ROOT, capture_output=True, text=True, timeout=600, env=env)
    assert r.returncode == 0, (r.stdout + r.stderr)[-6000:]
    for page in ("index.html", "getting-started/index.html", "accuracy/index.html", "api/index.html",
                 "proofs-report/index.html", "errata/index.html", "derivations/index.html",
                 "reproduction/1d/index.html"):
        assert (site / page).is_file(), page
    api = (site / "api" / "index.html").read_text()
    for sym in ("fhsym.calibration.api.calibrate", "fhsym.privacy.profile.privacy_profile",
                "fhsym.noise.flipped_huber.FlippedHuber", "fhsym.plotting", "fhsym.cli"):
        assert sym in api, sym
    report = (site / "proofs-report" / "index.html").read_text()
    assert "PROVEN" in report and "VERIFIED" in report
    assert (site / "figures" / "fig3a_variances.png").is_file()
    # Sphinx roles are rendered (docs/_hooks/griffe_docstrings.py), not shown as literal text
    for role in (":func:", ":meth:", ":class:", ":mod:", ":data:", ":attr:"):
        assert role not in api, role
    assert api.count('class="autorefs autorefs-internal"') > 50
    # ... on every page (a role in a Markdown page is not rewritten), and no escaped pipe shown in code
    role_re = re.compile(r":(?:py:)?(?:func|class|meth|mod|data|attr|exc|obj|const):(?:`|<code>)")
    pipe_re = re.compile(r"<code>[^<]*\\\|")
    for page in sorted(site.rglob("*.html")):
        html = page.read_text()
        assert not role_re.search(html), (page, role_re.search(html))
        assert not pipe_re.search(html), (page, pipe_re.search(html))
        # a doctest outside an Examples section is code, not ">>>" read as three nested block quotes
        assert "<blockquote>\n<blockquote>\n<blockquote>" not in html, page
    # FlippedHuber's parameter table lists its two parameters (no prose lines as fake parameters)
    start = api.index('id="fhsym.noise.flipped_huber.FlippedHuber"')
    table = api[api.index("<table", start):api.index("</table>", start)]
    assert re.findall(r"<code>(\w+)</code>", table)[:2] == ["alpha", "gamma"]
    assert "Methods" not in table and "argument" not in table
    # math from the site's own copy of MathJax: no network needed to render it
    index = (site / "index.html").read_text()
    scripts = re.findall(r'<script[^>]*src="([^"]+)"', index)
    assert any(src.endswith("_static/mathjax/tex-svg-full.js") for src in scripts), scripts
    assert not [src for src in scripts if "//" in src], scripts
    assert (site / "_static" / "mathjax" / "tex-svg-full.js").stat().st_size > 1_000_000
