"""MkDocs hooks for the fhsym site (referenced from mkdocs.yml; excluded from the site itself).

* ``proofs-report.md`` is generated at build time from ``proofs/REPORT.md`` (the output of
  ``python -m proofs`` / ``fhsym verify``), so the site always shows the committed report.
* Pages listed in :data:`OPTIONAL_PAGES` are dropped from the navigation when their file does not
  exist yet (other parts of the project write them; a missing one must not break ``--strict``).
  Every other nav entry must exist: a typo still fails the strict build.
"""

from __future__ import annotations

import logging
from pathlib import Path

from mkdocs.structure.files import File, Files

log = logging.getLogger("mkdocs.hooks.fhsym")

ROOT = Path(__file__).resolve().parents[2]
REPORT = ROOT / "proofs" / "REPORT.md"
REPORT_PAGE = "proofs-report.md"
OPTIONAL_PAGES = {"reproduction/kdim.md", "dpcd.md"}


def _prune(nav, docs_dir: Path):
    out = []
    for item in nav:
        if isinstance(item, dict):
            (title, value), = item.items()
            if isinstance(value, list):
                value = _prune(value, docs_dir)
                if value:
                    out.append({title: value})
                continue
            if isinstance(value, str) and value in OPTIONAL_PAGES and not (docs_dir / value).is_file():
                log.info("fhsym docs: optional page %s not present; left out of the nav", value)
                continue
        elif isinstance(item, str) and item in OPTIONAL_PAGES and not (docs_dir / item).is_file():
            continue
        out.append(item)
    return out


def on_config(config, **kwargs):
    if config.get("nav"):
        config["nav"] = _prune(config["nav"], Path(config["docs_dir"]))
    return config


def report_markdown() -> str:
    """The generated page: a short preface and the committed proofs report."""
    preface = (
        "!!! note \"Generated page\"\n"
        "    This page is `proofs/REPORT.md`, written by `python -m proofs` (or `fhsym verify`), included in the site at "
        "build time. Every row is a check that runs in CI; the method column says how the formula was verified. "
        "The narrative derivations are on [the derivations page](derivations.md), the paper's errors on "
        "[the errata page](errata.md).\n\n"
    )
    if not REPORT.is_file():
        return "# Proofs report\n\n" + preface + "`proofs/REPORT.md` is missing: run `python -m proofs`.\n"
    text = REPORT.read_text()
    lines = text.splitlines()
    if lines and lines[0].startswith("# "):
        head, body = lines[0], "\n".join(lines[1:])
    else:
        head, body = "# Proofs report", text
    return head + "\n\n" + preface + body.lstrip("\n") + "\n"


def on_files(files: Files, config, **kwargs) -> Files:
    files.append(File.generated(config, REPORT_PAGE, content=report_markdown()))
    return files
