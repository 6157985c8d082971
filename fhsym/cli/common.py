"""Shared pieces of the CLI: the one-line error, and where the source checkout is."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from typing import Optional




_EXTRA_HINT = {
    "matplotlib": "pip install 'fhsym[plot]' (or: pip install matplotlib)",
}


class CLIError(Exception):
    """An error reported as one line on stderr with exit status 2."""



def source_root() -> Optional[Path]:
    """The repository root when fhsym runs from a source checkout, else ``None``.

    A checkout is recognised by ``proofs/__main__.py`` next to the ``fhsym``
    package directory (an editable install, ``pip install -e .``, imports fhsym
    from the checkout itself).  ``FHSYM_SOURCE_ROOT`` overrides the location.

    Examples
    --------
    >>> root = source_root()
    >>> root is None or (root / "proofs").is_dir()
    True
    """
    env = os.environ.get("FHSYM_SOURCE_ROOT")
    candidates = [Path(env)] if env else [Path(__file__).resolve().parents[2]]
    for c in candidates:
        if (c / "proofs" / "__main__.py").is_file() and (c / "fhsym").is_dir():
            return c
    return None


def need_checkout(command: str) -> Path:
    root = source_root()
    if root is None:
        here = Path(__file__).resolve().parents[1]
        raise CLIError(
            f"`fhsym {command}` needs a source checkout of fhsym (proofs/ and scripts/ next to the package), "
            f"but the fhsym package at {here} is not inside one; clone the repository and install it with "
            f"`pip install -e .` (or set FHSYM_SOURCE_ROOT to the checkout)"
        )
    return root


def need_module(module: str, command: str) -> None:
    if importlib.util.find_spec(module) is None:
        raise CLIError(f"`fhsym {command}` needs {module}: {_EXTRA_HINT.get(module, 'pip install ' + module)}")


# ---------------------------------------------------------------------------
# the parser
# ---------------------------------------------------------------------------
