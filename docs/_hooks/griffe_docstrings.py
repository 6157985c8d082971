"""Griffe extension of the fhsym site: Sphinx markup in docstrings rendered as Markdown.

Listed in mkdocs.yml (``extensions`` of the mkdocstrings Python handler).  When griffe has loaded
a package, every docstring in it gets the rewrites of ``scripts/docs_roles.py`` in memory (the
sources are not touched):

* roles (``:func:`x```, ``:class:`~fhsym.X```, ``:meth:``, ``:mod:``, ``:data:``, ``:attr:``, ...)
  become *optional* cross-references to the object they name, resolved in the docstring's scope:
  a link when the site documents the object, a code span when it does not;
* reST literal blocks (``paragraph::`` + indented block) become fenced code blocks;
* a prose paragraph left at the end of a Parameters/Attributes section becomes a Notes section
  (instead of one fake parameter per line);
* a doctest outside an Examples section becomes a fenced ``pycon`` block (Markdown would show its
  ``>>>`` as three nested block quotes around the code as prose).
"""

from __future__ import annotations

import html
import importlib.util
import logging
import sys
from pathlib import Path
from typing import Any, Optional

import griffe

ROOT = Path(__file__).resolve().parents[2]
log = logging.getLogger("mkdocs.plugins.fhsym.griffe")


def _load_roles_module():
    name = "fhsym_docs_roles"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / "docs_roles.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


roles = _load_roles_module()


def _link(full: Optional[str], title: str) -> str:
    if full is None:
        return f"`{title}`"
    # an optional autoref: mkdocs-autorefs links it when ``full`` is on the site, else a plain span
    return f'<autoref identifier="{html.escape(full)}" optional>`{title}`</autoref>'


def _objects(obj: griffe.Object):
    yield obj
    for member in obj.members.values():
        if not member.is_alias:
            yield from _objects(member)


class SphinxMarkupToMarkdown(griffe.Extension):
    """Rewrite the docstrings of a loaded package (see the module docstring)."""

    def __init__(self, **options: Any) -> None:
        super().__init__()
        self.totals = {"roles": 0, "literal_blocks": 0, "notes_sections": 0, "doctest_blocks": 0}

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        resolver = roles.Resolver(loader.modules_collection)
        for obj in _objects(pkg):
            doc = obj.docstring
            if doc is None or not doc.value:
                continue
            new, counts = roles.convert_docstring(doc.value, lambda name, scope=obj: resolver.resolve(name, scope),
                                                  _link)
            new, counts["doctest_blocks"] = roles.convert_doctest_blocks(new)
            if new != doc.value:
                doc.value = new
                for k, v in counts.items():
                    self.totals[k] += v
                if counts["notes_sections"]:
                    log.info("fhsym docs: %s: prose after the items of a section shown as Notes "
                             "(fix in the docstring: put it under a 'Notes' header)", obj.path)
        log.info("fhsym docs: %s: %d roles, %d literal blocks, %d Notes sections, %d doctest blocks rewritten",
                 pkg.path, self.totals["roles"], self.totals["literal_blocks"], self.totals["notes_sections"],
                 self.totals["doctest_blocks"])
