"""Static types: ``python -m mypy`` passes (configuration: ``[tool.mypy]`` in pyproject.toml).

* ``test_mypy_passes`` runs mypy exactly as a developer would: strict on every module of
  ``fhsym/`` (``strict = true`` globally, no per-module exceptions; see pyproject.toml) and on
  ``tests/static_typing/public_api.py``, whose ``assert_type`` lines fail when a public name's
  type degrades to ``Any`` or changes (what a user's type checker would see).  Skipped with the
  reason when mypy is not installed (it is in the ``test`` extra).  The cache goes to
  ``.mypy_cache`` in the repository (gitignored): ~35 s cold on 2 cores, a few seconds warm.
* ``test_py_typed_marker_is_packaged``: the PEP 561 marker ``fhsym/py.typed`` is in the package
  and listed as package data, so installed copies carry it (without it a user's mypy treats
  every fhsym name as ``Any``).
"""

from __future__ import annotations

import importlib.resources
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_passes():
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed (pip install -e '.[test]')")
    r = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, (r.stdout + r.stderr)[-6000:]
    assert "Success: no issues found" in r.stdout, r.stdout


def test_py_typed_marker_is_packaged():
    assert importlib.resources.files("fhsym").joinpath("py.typed").is_file()
    tomllib = pytest.importorskip("tomllib", reason="tomllib needs Python >= 3.11")
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())
    # hatchling packages every file under fhsym/ (tests/test_packaging.py checks the wheel holds py.typed)
    assert cfg["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"] == ["fhsym"]
    assert (ROOT / "fhsym" / "py.typed").is_file()
