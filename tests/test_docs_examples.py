"""The outputs shown on docs/getting-started.md and the pages of ``CHECKED_PAGES`` are what the code
prints (scripts/docs_examples.py).

``test_getting_started_outputs`` and ``test_page_outputs`` run every ``pycon`` and ``console`` example
of a page and fail with a diff when a shown output is stale (refresh: ``python scripts/docs_examples.py
--update docs/<page>``).  The other tests are negative controls of the checker itself.  ~10-20 s (three CLI
processes and one figure; the figure needs matplotlib, extra ``plot``).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _load():
    spec = importlib.util.spec_from_file_location("docs_examples_under_test", ROOT / "scripts" / "docs_examples.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


E = _load()


def test_getting_started_outputs():
    pytest.importorskip("matplotlib", reason="the page's figure example needs matplotlib (extra plot)")
    _, problems = E.run_page(ROOT / "docs" / "getting-started.md")
    assert not problems, "\n".join(problems)


#: other pages whose examples are written as pycon/console blocks and checked the same way
CHECKED_PAGES = ["certificates.md", "mechanisms.md", "optimum.md", "scipy.md"]


@pytest.mark.parametrize("page", CHECKED_PAGES)
def test_page_outputs(page):
    _, problems = E.run_page(ROOT / "docs" / page)
    assert not problems, "\n".join(problems)
    assert "```pycon" in (ROOT / "docs" / page).read_text()  # the page has examples to check


def test_stale_output_is_reported(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("```pycon\n>>> x = 2\n>>> x + 1\n4\n>>> print('a', x)\na 2\n```\n")
    _, problems = E.run_page(page)
    assert len(problems) == 1 and "x + 1" in problems[0] and "+3" in problems[0]
    new, _ = E.run_page(page, update=True)
    assert new == "```pycon\n>>> x = 2\n>>> x + 1\n3\n>>> print('a', x)\na 2\n```\n"


def test_full_precision_floats_match_to_1e13_and_nothing_else_does(tmp_path):
    page = tmp_path / "page.md"
    # the last bits of a 17-digit repr may differ between machines (libm, SIMD kernels): accepted to 1e-13 relative;
    # a short number, a change beyond 1e-13 or a changed text are still stale
    page.write_text("```pycon\n>>> print(47.19543932327576, 0.048708917548780484)\n47.19543932327574 0.048708917548779596\n"
                    "```\n\n```pycon\n>>> print(1.25)\n1.26\n```\n\n```pycon\n>>> print(47.19543932327576)\n"
                    "47.19543932317576\n```\n\n```pycon\n>>> print('a', 47.19543932327576)\nb 47.19543932327576\n```\n")
    _, problems = E.run_page(page)
    assert len(problems) == 3 and not any("0.0487" in p for p in problems), problems


def test_console_exceptions_and_unchecked_blocks(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("```console\n$ echo hi; false\nhi\n\n$ echo $?\n1\n```\n\n"
                    "```pycon\n>>> int('x')\nTraceback (most recent call last):\n  ...\n"
                    "ValueError: invalid literal for int() with base 10: 'x'\n```\n\n"
                    "```python\nprint('never run, so never checked')\n```\n")
    _, problems = E.run_page(page)
    assert len(problems) == 1 and "a 'python' block" in problems[0]
