"""The built site in a real browser (scripts/docs_screenshots.py): math typeset by the site's own
MathJax, no resource from outside the site, Sphinx roles rendered, FlippedHuber's parameter table.

Needs Debian's ``chromium`` and ``chromium-driver`` (``apt-get install chromium chromium-driver``)
and ``selenium`` (extra ``docs``).  CI does not install Chromium, so there this test is skipped
with the reason; run it on a machine that has it (~30 s: one site build, three pages).
The screenshots go to a temporary folder; the committed ones in docs/screenshots/ are written by
``python scripts/docs_screenshots.py``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_site_renders_in_chromium(tmp_path):
    for exe, pkg in (("/usr/bin/chromium", "chromium"), ("/usr/bin/chromedriver", "chromium-driver")):
        if not shutil.which(exe):
            pytest.skip(f"{exe} is not installed (apt-get install {pkg}); CI does not install it")
    pytest.importorskip("selenium", reason="selenium is not installed (pip install -e '.[docs]')")
    pytest.importorskip("mkdocstrings", reason="the docs tools are not installed (pip install -e '.[docs]')")
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "docs_screenshots.py"), "--out", str(tmp_path)],
                       cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, (r.stdout + r.stderr)[-6000:]
    for name in ("index.png", "api.png", "derivations.png"):
        data = (tmp_path / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000, name
    assert r.stdout.count("ok  ") == 3, r.stdout
