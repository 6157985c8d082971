"""Sphinx (reST) markup in fhsym's docstrings -> the Markdown that mkdocstrings renders.

The docstrings were written for Sphinx; the site renders them as Markdown (mkdocstrings), where
``:func:`calibrate``` would show up as literal text.  Three rewrites, shared by the docs build
and by this script:

1. Cross-reference roles ``:func:`x```, ``:class:``, ``:meth:``, ``:mod:``, ``:data:``, ``:attr:``,
   ``:exc:``, ``:obj:`` (also ``:py:func:``, ``~x`` for the last component only, and
   ``title <target>``).  The target is resolved the way Sphinx's Python domain does it: in the
   scope of the docstring's object (the object, then its parents), then as an absolute path,
   following aliases to the object that defines it.
2. reST literal blocks (a paragraph ending in ``::`` followed by an indented block) -> a fenced
   code block (``::`` -> ``:``).
3. A prose paragraph left at the end of an items section (``Parameters`` / ``Other Parameters``
   / ``Attributes``): numpydoc and griffe read each of its lines as another parameter (the fake
   rows ``Methods``, ``argument`` ... of a parameter table); it is moved into a ``Notes`` section
   of its own, which is where numpydoc wants it.

At build time (nothing in ``fhsym/`` is edited): the griffe extension
``docs/_hooks/griffe_docstrings.py`` (listed in mkdocs.yml) applies the three rewrites to every
docstring in memory; a role becomes an *optional* cross-reference, a link when the target is on
the site and a code span when it is not.

On the sources (once the branches that edit ``fhsym/`` have merged)::

    mkdocs build --strict                         # writes site/objects.inv: what the site documents
    python scripts/docs_roles.py --inventory site/objects.inv fhsym     # rewrite in place
    python scripts/docs_roles.py --check fhsym    # exit 1 while any role / reST block is left

A role whose target the site documents becomes ``[`x`][full.path]`` (a mkdocstrings
cross-reference, checked by ``--strict``); any other becomes the code span ````x````.  Without
``--inventory`` every role becomes a code span.  ``--dry-run`` prints a unified diff instead of
writing.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import re
import sys
import zlib
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Tuple

ROOT = Path(__file__).resolve().parent.parent

# :role:`target`, :py:role:`~target`, :role:`title <target>`
ROLE_RE = re.compile(
    r":(?:py:)?(?P<role>func|class|meth|mod|data|attr|exc|obj|const):"
    r"`(?P<tilde>~?)(?P<body>[^`<>]+?)(?:\s*<(?P<target>[^`<>]+)>)?`"
)
ITEM_SECTIONS = {"parameters", "params", "arguments", "args", "other parameters", "attributes",
                 "keyword arguments", "other arguments"}
# a numpydoc item header: ``name``, ``name : type``, ``a, b : type``, ``*args``
ITEM_RE = re.compile(r"^\*{0,2}[A-Za-z_]\w*(?:\s*,\s*\*{0,2}[A-Za-z_]\w*)*\s*(?::.*)?$")

Resolve = Callable[[str], Optional[str]]
Link = Callable[[Optional[str], str], str]


# ------------------------------------------------------------------ the three rewrites (text)
def convert_roles(text: str, resolve: Resolve, link: Link) -> Tuple[str, int]:
    """Replace every role in ``text``: ``link(resolved path or None, title)``; returns (text, count)."""

    def repl(m: re.Match) -> str:
        body = m["body"].strip()
        target = (m["target"] or body).strip().lstrip("~")
        if m["target"]:
            title = body
        elif m["tilde"]:
            title = target.rsplit(".", 1)[-1]
        else:
            title = body
        name = target[:-2] if target.endswith("()") else target
        return link(resolve(name), title)

    return ROLE_RE.subn(repl, text)


def _is_dash(line: str) -> bool:
    s = line.strip()
    return len(s) >= 3 and set(s) == {"-"}


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def convert_literal_blocks(text: str) -> Tuple[str, int]:
    """reST ``paragraph::`` + indented block -> ``paragraph:`` + a fenced ``text`` code block."""
    lines = text.split("\n")
    out: List[str] = []
    n = 0
    i = 0
    in_fence = False
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
        stripped = line.rstrip()
        if (not in_fence and stripped.endswith("::") and not stripped.lstrip().startswith(">>>")
                and i + 2 < len(lines) and not lines[i + 1].strip()
                and lines[i + 2].strip() and _indent(lines[i + 2]) > _indent(line)):
            base = _indent(line)
            head = stripped[:-2].rstrip()
            if head.strip():
                out.append(head + ("" if head.endswith(":") else ":"))
            j = i + 2
            block: List[str] = []
            while j < len(lines) and (not lines[j].strip() or _indent(lines[j]) > base):
                block.append(lines[j])
                j += 1
            while block and not block[-1].strip():
                block.pop()
                j -= 1
            inner = min(_indent(b) for b in block if b.strip())
            pad = " " * base
            out.append("")
            out.append(pad + "```text")
            out.extend((pad + b[inner:]) if b.strip() else "" for b in block)
            out.append(pad + "```")
            n += 1
            i = j
            continue
        out.append(line)
        i += 1
    return "\n".join(out), n


def convert_section_prose(text: str) -> Tuple[str, int]:
    """A prose paragraph after the items of a Parameters/Attributes section -> its own Notes section.

    ``text`` is a dedented docstring (as griffe holds it).  A line at the section's indentation,
    after a blank line and at least one item, that is not an item header (``name : type``)
    starts the paragraph; it runs to the next section header.
    """
    lines = text.split("\n")
    out: List[str] = []
    n = 0
    in_items = seen_item = False
    in_fence = False
    for i, line in enumerate(lines):
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
        if not in_fence and line.strip() and not line.startswith(" ") and _is_dash(nxt):
            in_items = line.strip().lower() in ITEM_SECTIONS
            seen_item = False
        elif in_items and not in_fence and line.strip() and not line.startswith(" ") and not _is_dash(line):
            if ITEM_RE.match(line.strip()):
                seen_item = True
            elif seen_item and i > 0 and not lines[i - 1].strip():
                out.extend(["Notes", "-----"])
                n += 1
                in_items = False
        out.append(line)
    return "\n".join(out), n


EXAMPLE_SECTIONS = {"examples", "example"}


def convert_doctest_blocks(text: str) -> Tuple[str, int]:
    """A doctest (``>>>`` lines and their output) outside an Examples section -> a fenced ``pycon`` block.

    griffe renders the Examples section's doctests as code; anywhere else (a summary paragraph, a
    Returns or Notes section, a module docstring without the header) Markdown reads ``>>>`` as three
    nested block quotes and the code as prose.  A block runs from its first ``>>>`` line to the next
    blank line (or a line indented less).  For the docs build only: in the sources a fence line would
    become part of the doctest's expected output, so ``rewrite_file`` does not apply it.
    """
    lines = text.split("\n")
    out: List[str] = []
    n = 0
    i = 0
    in_fence = in_examples = False
    while i < len(lines):
        line = lines[i]
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
        if not in_fence and line.strip() and not line.startswith(" ") and _is_dash(nxt):
            in_examples = line.strip().lower() in EXAMPLE_SECTIONS
        if not in_fence and not in_examples and line.lstrip().startswith(">>>"):
            base = _indent(line)
            j = i
            while j < len(lines) and lines[j].strip() and _indent(lines[j]) >= base:
                j += 1
            pad = " " * base
            if out and out[-1].strip():
                out.append("")
            out.append(pad + "```pycon")
            out.extend(pad + b[base:] for b in lines[i:j])
            out.append(pad + "```")
            n += 1
            i = j
            continue
        out.append(line)
        i += 1
    return "\n".join(out), n


def convert_docstring(text: str, resolve: Resolve, link: Link) -> Tuple[str, Dict[str, int]]:
    """All three rewrites of one (dedented) docstring; the counts of each."""
    text, roles = convert_roles(text, resolve, link)
    text, blocks = convert_literal_blocks(text)
    text, notes = convert_section_prose(text)
    return text, {"roles": roles, "literal_blocks": blocks, "notes_sections": notes}


# ------------------------------------------------------------------ resolution with griffe
class Resolver:
    """Resolve role targets against a griffe package tree (``griffe.load(...)``)."""

    def __init__(self, collection):
        self.collection = collection  # anything with ``[dotted.path]``: griffe's ModulesCollection

    def _get(self, path: str) -> Optional[str]:
        try:
            obj = self.collection[path]
        except Exception:  # KeyError, AliasResolutionError, CyclicAliasError, ValueError on bad paths
            return None
        try:
            obj = obj.final_target if getattr(obj, "is_alias", False) else obj
            return obj.path
        except Exception:
            return None

    def resolve(self, name: str, scope) -> Optional[str]:
        """The path of the object ``name`` means in the docstring of ``scope`` (a griffe object)."""
        if not re.fullmatch(r"[A-Za-z_][\w.]*", name):
            return None
        obj = scope
        while obj is not None:
            if getattr(obj, "is_class", False) or getattr(obj, "is_module", False):
                if (hit := self._get(f"{obj.path}.{name}")) is not None:
                    return hit
            obj = obj.parent
        return self._get(name)


def read_inventory(path: Path) -> set:
    """The object names of a Sphinx ``objects.inv`` (version 2), as mkdocstrings writes it."""
    data = path.read_bytes()
    lines = data.split(b"\n", 4)
    if not lines[0].startswith(b"# Sphinx inventory version 2"):
        raise ValueError(f"{path}: not a Sphinx inventory version 2")
    body = zlib.decompress(lines[4]).decode()
    names = set()
    for line in body.splitlines():
        m = re.match(r"(.+?)\s+(\S+):(\S+)\s+(-?\d+)\s+(\S*)\s+(.*)", line)
        if m and m.group(2) == "py":
            names.add(m.group(1))
    return names


# ------------------------------------------------------------------ the script: rewrite sources
def _docstring_nodes(tree: ast.AST) -> List[ast.Constant]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                out.append(body[0].value)
    return out


def _offsets(text: str) -> List[int]:
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    return starts


def _rewrite_block(segment: str, convert: Callable[[str], Tuple[str, int]]) -> Tuple[str, int]:
    """Apply a dedented-text rewrite to the raw source of a docstring literal, keeping its indentation."""
    m = re.match(r'(?s)^([rRuUbB]*)("""|\'\'\')(.*)(\2)$', segment)
    if not m:
        return segment, 0
    prefix, quote, body = m.group(1), m.group(2), m.group(3)
    lines = body.split("\n")
    rest = [ln for ln in lines[1:] if ln.strip()]
    ind = min((_indent(ln) for ln in rest), default=0)
    ded = [lines[0]] + [ln[ind:] if ln.strip() else ln.strip(" ") for ln in lines[1:]]
    new, n = convert("\n".join(ded))
    if not n:
        return segment, 0
    pad = " " * ind
    new_lines = new.split("\n")
    new_lines = [new_lines[0]] + [(pad + ln) if ln.strip() else ln for ln in new_lines[1:]]
    if lines[-1].strip() == "":  # keep the closing quotes' own indentation
        new_lines[-1] = lines[-1]
    return prefix + quote + "\n".join(new_lines) + quote, n


def rewrite_file(path: Path, resolver: Optional[Resolver], module, documented: Optional[set]) -> Tuple[str, Dict[str, int]]:
    """The new text of one source file and the counts of each rewrite."""
    text = path.read_text()
    counts = {"roles": 0, "literal_blocks": 0, "notes_sections": 0}

    # roles anywhere in the file (docstrings and ``#:`` comments), resolved in the scope of the
    # innermost object whose lines contain them
    starts = _offsets(text)

    def scope_at(lineno: int):
        best = module
        if module is None:
            return None
        stack = [module]
        while stack:
            obj = stack.pop()
            for member in obj.members.values():
                if getattr(member, "is_alias", False):
                    continue
                lo, hi = member.lineno or 0, member.endlineno or 0
                if lo <= lineno <= hi:
                    best = member
                    stack.append(member)
        return best

    def link(full: Optional[str], title: str) -> str:
        if full and documented is not None and full in documented:
            return f"[`{title}`][{full}]"
        return f"``{title}``"

    pieces = []
    last = 0
    for m in ROLE_RE.finditer(text):
        lineno = next(i for i, s in enumerate(starts) if s > m.start())  # 1-based line of the match
        scope = scope_at(lineno)
        resolve = (lambda name, scope=scope: resolver.resolve(name, scope)) if resolver else (lambda name: None)
        new, _ = convert_roles(m.group(0), resolve, link)
        pieces.append(text[last:m.start()])
        pieces.append(new)
        last = m.end()
        counts["roles"] += 1
    pieces.append(text[last:])
    text = "".join(pieces)

    # literal blocks and section prose: inside docstrings only
    tree = ast.parse(text)
    starts = _offsets(text)
    spans = []
    for node in _docstring_nodes(tree):
        a = starts[node.lineno - 1] + node.col_offset
        b = starts[node.end_lineno - 1] + node.end_col_offset
        spans.append((a, b))
    for a, b in sorted(spans, reverse=True):
        seg = text[a:b]
        seg, nb = _rewrite_block(seg, convert_literal_blocks)
        seg, nn = _rewrite_block(seg, convert_section_prose)
        counts["literal_blocks"] += nb
        counts["notes_sections"] += nn
        text = text[:a] + seg + text[b:]
    return text, counts


def _python_files(paths: Iterable[str]) -> List[Path]:
    files: List[Path] = []
    for p in map(Path, paths):
        files.extend(sorted(p.rglob("*.py")) if p.is_dir() else [p])
    return files


def _griffe_module(collection, path: Path):
    try:
        rel = path.resolve().relative_to(ROOT)
    except ValueError:
        return None
    parts = list(rel.with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    try:
        return collection[".".join(parts)]
    except Exception:
        return None


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+", help="files or folders of Python sources")
    ap.add_argument("--inventory", type=Path, help="objects.inv of a built site: link the objects it documents")
    ap.add_argument("--check", action="store_true", help="only report; exit 1 if anything would change")
    ap.add_argument("--dry-run", action="store_true", help="print a unified diff instead of writing")
    args = ap.parse_args(argv)

    documented = read_inventory(args.inventory) if args.inventory else None
    resolver = collection = None
    if not args.check:
        import griffe

        pkg = griffe.load("fhsym", search_paths=[str(ROOT)], resolve_aliases=False, try_relative_path=False)
        collection = pkg.modules_collection
        resolver = Resolver(collection)

    changed = 0
    totals = {"roles": 0, "literal_blocks": 0, "notes_sections": 0}
    for path in _python_files(args.paths):
        module = _griffe_module(collection, path) if collection is not None else None
        old = path.read_text()
        new, counts = rewrite_file(path, resolver, module, documented)
        if new == old:
            continue
        changed += 1
        for k, v in counts.items():
            totals[k] += v
        if args.check:
            print(f"{path}: {', '.join(f'{v} {k}' for k, v in counts.items() if v)}")
        elif args.dry_run:
            sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                                       str(path), str(path)))
        else:
            path.write_text(new)
    verb = "would change" if (args.check or args.dry_run) else "changed"
    print(f"{verb} {changed} file(s): {totals['roles']} roles, {totals['literal_blocks']} literal blocks, "
          f"{totals['notes_sections']} Notes sections", file=sys.stderr)
    return 1 if (args.check and changed) else 0


if __name__ == "__main__":
    sys.exit(main())
