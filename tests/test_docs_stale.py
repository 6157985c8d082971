"""Stale text in the docs, the README and the CLI help (issue 24, item 6).

Each check reads the sources as a user meets them (the Markdown pages of the site, the README, the
generated proofs report shown on the site, and ``fhsym --help`` / ``fhsym <command> --help``) and
fails on text that was true once and is not any more:

* "60 digits" as a description of fhsym's certificates (they are ball-arithmetic enclosures with
  python-flint ``arb`` since 0.2); the proofs' own mpmath checks at 60 digits are listed in
  ``SIXTY_DIGITS_ALLOWED`` with what they are;
* a version stamp "fhsym 0.1.0" (0.1 was never released; generated pages stamp the version that
  produced their numbers);
* literal reST roles (``:func:`x```): Markdown shows them as text;
* the module paths of 0.1 (``fhsym.kdim``, ``fhsym.mechanisms``, ``fhsym.distribution``,
  ``fhsym.certify``), unless the same line says it is about 0.1;
* a repository path in a code span (``fhsym/...``, ``docs/...``, ``scripts/...``, ...) that does not
  exist in the checkout;
* the paper cited by a file name outside the repository instead of its reference.
"""

from __future__ import annotations

import contextlib
import glob
import io
import re
from pathlib import Path

import pytest

from fhsym.cli import main
from fhsym.cli.parser import build_parser

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]
REPORT = ROOT / "proofs" / "REPORT.md"  # rendered on the site as "Proofs report"

ROLE_RE = re.compile(r":(?:py:)?(?:func|class|meth|mod|data|attr|exc|obj|const):`")
OLD_MODULE_RE = re.compile(r"\bfhsym\.(?:kdim|mechanisms|distribution|certify)\b")
SIXTY_RE = re.compile(r"\b60\s+digits\b")
STAMP_RE = re.compile(r"\bfhsym\s+(?:version\s+)?0\.1\.0\b|\bfhsym_version\W+0\.1\.0\b")
SEED_RE = re.compile(r"shared/seeds|seeds/00\d_|004_6a461990eb530417")
#: (page, text on the line): mpmath computations of the proofs at 60 digits, not certificates
SIXTY_DIGITS_ALLOWED = [
    ("docs/derivations.md", "bisection\nof eq 29 at 60 digits"),  # proofs/privacy_profile/appendix.py: mp.workdps(60)
]
#: top-level entries of the repository a code span may name
TOP = ("fhsym/", "docs/", "scripts/", "tests/", "proofs/", "benchmarks/", ".ci/", "README.md", "CHANGELOG.md",
       "pyproject.toml", "mkdocs.yml", "LICENSE")


def _rel(p: Path) -> str:
    return p.relative_to(ROOT).as_posix()


def _help_texts() -> dict:
    """``fhsym --help`` and every subcommand's ``--help``, as printed."""
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    out = {}
    for argv in [["--help"]] + [[name, "--help"] for name in sub.choices]:
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            assert main(argv) == 0
        out["fhsym " + " ".join(argv)] = buf.getvalue()
    return out


HELP = _help_texts()


def _texts(include_report: bool = False):
    for p in PAGES + ([REPORT] if include_report else []):
        yield _rel(p), p.read_text()
    yield from HELP.items()


def _lines(pattern: re.Pattern, include_report: bool = False):
    for name, text in _texts(include_report):
        for i, line in enumerate(text.splitlines(), 1):
            if pattern.search(line):
                yield name, i, line.strip()


def test_no_sixty_digit_certificates():
    found = []
    for name, text in _texts():
        for m in SIXTY_RE.finditer(text):
            around = text[max(0, m.start() - 40):m.end()]
            if not any(name == page and snippet in text[max(0, m.end() - len(snippet) - 5):m.end() + 5]
                       for page, snippet in SIXTY_DIGITS_ALLOWED):
                found.append((name, text.count("\n", 0, m.start()) + 1, around.replace("\n", " ")))
    assert not found, found
    # the allowance is used (a stale entry is removed, not kept)
    for page, snippet in SIXTY_DIGITS_ALLOWED:
        assert snippet in (ROOT / page).read_text(), (page, snippet)


def test_no_01_version_stamps():
    assert not list(_lines(STAMP_RE, include_report=True))


def test_no_literal_rest_roles():
    assert not list(_lines(ROLE_RE, include_report=True))


def test_no_01_module_paths():
    found = [(n, i, line) for n, i, line in _lines(OLD_MODULE_RE, include_report=True) if "0.1" not in line]
    # the proofs print their claims and methods in `fhsym verify` and in the report
    for p in sorted((ROOT / "proofs").rglob("*.py")):
        for i, line in enumerate(p.read_text().splitlines(), 1):
            if OLD_MODULE_RE.search(line) and "0.1" not in line:
                found.append((_rel(p), i, line.strip()))
    assert not found, found


def test_paper_cited_by_its_reference():
    assert not list(_lines(SEED_RE, include_report=True))
    for p in sorted((ROOT / "fhsym").rglob("*.py")):  # docstrings are rendered on the API page
        assert not SEED_RE.search(p.read_text()), _rel(p)
    for p in (ROOT / "README.md", ROOT / "docs" / "index.md", ROOT / "docs" / "errata.md"):
        assert "arXiv:2212.09657" in p.read_text(), _rel(p)


def _named_paths(text: str):
    """Repository paths named in code spans (and in commands inside them)."""
    for span in re.findall(r"`+([^`\n]+?)`+", text):
        for tok in span.split():
            tok = re.sub(r"(\.[A-Za-z]+):[A-Za-z_]\w*$", r"\1", tok.strip("'\"(),;:").split("::")[0])  # path.py:NAME
            if not tok.startswith(TOP) or any(c in tok for c in "<>{}$") or "..." in tok:
                continue
            yield tok.rstrip(".")


def _exists(path: str) -> bool:
    if any(c in path for c in "*?["):
        return bool(glob.glob(str(ROOT / path)))
    return (ROOT / path).exists()


def test_named_paths_exist():
    missing = []
    for p in PAGES:
        for path in sorted(set(_named_paths(p.read_text()))):
            if not _exists(path):
                missing.append((_rel(p), path))
    assert not missing, missing


def test_the_path_finder_finds_paths():
    # the extraction itself: a test that found nothing would pass on any page
    text = ("run `python scripts/frontier.py assemble`, see `fhsym/applications/data/frontier.json.gz`, `docs/x.md` "
            "and `proofs/_naive.py:NO_STRESS`")
    assert list(_named_paths(text)) == ["scripts/frontier.py", "fhsym/applications/data/frontier.json.gz", "docs/x.md",
                                        "proofs/_naive.py"]
    assert not _exists("docs/x.md") and _exists("docs/figures/*.png")
    assert sum(len(set(_named_paths(p.read_text()))) for p in PAGES) > 50


@pytest.mark.parametrize("command", sorted(HELP))
def test_help_has_no_stale_text(command):
    text = HELP[command]
    for pattern in (SIXTY_RE, ROLE_RE, OLD_MODULE_RE, STAMP_RE, SEED_RE):
        assert not pattern.search(text), (command, pattern.pattern)
