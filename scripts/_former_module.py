"""A module of ``fhsym/noise/`` at a git revision, executed as a submodule of today's ``fhsym.noise`` (so that its
relative imports resolve), for the ``*_former.py`` scripts that compare a hand-written former module with today's."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import Any, Sequence, Tuple

import fhsym.noise  # noqa: F401  (the package the former module imports from)

ROOT = Path(__file__).resolve().parent.parent


def load_former(rev: str, path: str, name: str, replace: Sequence[Tuple[str, str]] = ()) -> Any:
    """The module ``path`` at ``rev`` as ``name`` (in ``sys.modules``), after the textual ``replace`` pairs."""
    src = subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, check=True, capture_output=True, text=True).stdout
    for old, new in replace:
        src = src.replace(old, new)
    spec = importlib.util.spec_from_loader(name, loader=None)
    assert spec is not None
    mod = importlib.util.module_from_spec(spec)
    mod.__package__ = "fhsym.noise"
    sys.modules[name] = mod
    exec(compile(src, path, "exec"), mod.__dict__)  # noqa: S102 - the project's own file at a revision
    return mod
