"""A git revision's ``fhsym`` package as an importable package of another name, for side-by-side comparisons.

``materialise(ref)`` extracts ``fhsym/`` at ``ref`` (``git archive``) into a temporary directory as the package
``fhsym_<tag>`` (every ``fhsym`` module path in the copy renamed), so that the baseline and the working tree can be
imported into one process and timed interleaved, or dumped by two processes and compared value by value.

    >>> root, name, commit = materialise("claims")          # doctest: +SKIP
    >>> sys.path.insert(0, root); base = importlib.import_module(name)   # doctest: +SKIP
"""

from __future__ import annotations

import io
import re
import subprocess
import tarfile
import tempfile
from pathlib import Path
from typing import Tuple

REPO = Path(__file__).resolve().parent.parent
# a module path of fhsym in code or in a string ("fhsym._core.backends:erfcx"), not a word in prose such as "fhsym's"
_NAME = re.compile(r"(?<![\w./-])fhsym(?=\.[_a-zA-Z]|\s+import\b|\s*$|\")", re.M)


def commit_of(ref: str) -> str:
    return subprocess.run(["git", "-C", str(REPO), "rev-parse", ref], check=True, capture_output=True,
                          text=True).stdout.strip()


def materialise(ref: str, tag: str = "base") -> Tuple[str, str, str]:
    """(directory to put on sys.path, package name, commit) of ``fhsym`` at ``ref``."""
    commit = commit_of(ref)
    data = subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", commit, "fhsym"], check=True,
                          capture_output=True).stdout
    root = Path(tempfile.mkdtemp(prefix=f"fhsym_{tag}_"))
    name = f"fhsym_{tag}"
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(root, filter="data")
    (root / "fhsym").rename(root / name)
    for path in (root / name).rglob("*.py"):
        text = path.read_text()
        new = _NAME.sub(name, text)
        if new != text:
            path.write_text(new)
    return str(root), name, commit
