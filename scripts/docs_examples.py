"""Run the examples of documentation pages and check (or rewrite) the outputs they show.

Two kinds of fenced block are examples:

* ```` ```pycon ```` -- a Python session: ``>>>`` / ``...`` lines are run in order, in one
  namespace per page (later blocks see the names of earlier ones), and the lines after each
  statement are the output it prints (doctest rules: ``...`` in an output matches anything,
  an exception is shown as ``Traceback (most recent call last):`` / ``...`` / its last line).
* ```` ```console ```` -- a shell session: each ``$ command`` runs in bash (one shell per block,
  so ``echo $?`` sees the previous command), with the ``fhsym`` of this Python's environment
  first on PATH; the lines up to the next ``$`` are its stdout and stderr.

Every example runs in a fresh temporary directory (files an example writes go there).  A plain
```` ```python ```` block on a checked page is an error: it would show code whose output nobody
checked.  Other blocks (``bash`` install instructions, ...) are left alone.

    python scripts/docs_examples.py                 # check docs/getting-started.md (exit 1 on a mismatch)
    python scripts/docs_examples.py --update        # rewrite its outputs from a real run
    python scripts/docs_examples.py docs/other.md   # other pages
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import doctest
import io
import os
import re
import subprocess
import sys
import tempfile
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Tuple

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PAGES = [ROOT / "docs" / "getting-started.md"]
FENCE_RE = re.compile(r"^(?P<indent> *)```(?P<info>[\w-]*)[^\n]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$", re.M | re.S)
FLAGS = doctest.ELLIPSIS
#: a float printed with 15 or more significant digits (repr of a double): its last bits depend on the machine's libm
#: and SIMD kernels (numpy dispatches exp/log by CPU), so such numbers match to FULL_DIGITS_RTOL relative
FULL_DIGITS_RE = re.compile(r"-?\d+\.\d+(?:e[-+]?\d+)?")
FULL_DIGITS_RTOL = 1e-13


def _significant(token: str) -> int:
    mantissa = token.lstrip("-").split("e")[0].replace(".", "").lstrip("0")
    return len(mantissa)


class _Checker(doctest.OutputChecker):
    """doctest's checker, except that full-precision floats (>= 15 significant digits) agree to 1e-13 relative."""

    def check_output(self, want: str, got: str, optionflags: int) -> bool:
        if super().check_output(want, got, optionflags):
            return True
        split_w, split_g = FULL_DIGITS_RE.split(want), FULL_DIGITS_RE.split(got)
        nums_w, nums_g = FULL_DIGITS_RE.findall(want), FULL_DIGITS_RE.findall(got)
        if split_w != split_g or len(nums_w) != len(nums_g):
            return False
        for w, g in zip(nums_w, nums_g):
            if w == g:
                continue
            if min(_significant(w), _significant(g)) < 15:
                return False
            a, b = float(w), float(g)
            if abs(a - b) > FULL_DIGITS_RTOL * max(abs(a), abs(b)):
                return False
        return True


CHECKER = _Checker()


@dataclass
class Step:
    """One statement (pycon) or command (console) and the output the page shows for it."""

    source: List[str]  # the lines as written, with their prompts
    want: str
    got: Optional[str] = None

    def ok(self) -> bool:
        return self.got is not None and CHECKER.check_output(self.want, self.got, FLAGS)


# ------------------------------------------------------------------ parsing
def _pycon_steps(body: str) -> List[Step]:
    steps: List[Step] = []
    for line in body.rstrip("\n").split("\n"):
        if line.startswith(">>>"):
            steps.append(Step([line], ""))
        elif line.startswith("...") and steps and not steps[-1].want and _continues(steps[-1].source):
            steps[-1].source.append(line)
        elif steps:
            steps[-1].want += line + "\n"
        elif line.strip():
            raise ValueError(f"pycon block does not start with '>>>': {line!r}")
    return steps


def _continues(source: List[str]) -> bool:
    """True when the statement so far is incomplete (a ``...`` line belongs to it, not to the output)."""
    text = "\n".join(s[4:] for s in source)
    try:
        import codeop

        return codeop.compile_command(text + "\n", "<doc>", "single") is None or source[-1][4:].startswith((" ", "\t"))
    except SyntaxError:
        return False


def _console_steps(body: str) -> List[Step]:
    steps: List[Step] = []
    for line in body.rstrip("\n").split("\n"):
        if line.startswith("$ "):
            steps.append(Step([line], ""))
        elif steps:
            steps[-1].want += line + "\n"
        elif line.strip():
            raise ValueError(f"console block does not start with '$ ': {line!r}")
    for step in steps:  # a blank line between commands is layout, not output
        step.want = step.want.rstrip("\n") + "\n" if step.want.strip() else ""
    return steps


# ------------------------------------------------------------------ running
def _run_pycon(steps: List[Step], namespace: Dict[str, object]) -> None:
    for step in steps:
        code = "\n".join(s[4:] for s in step.source) + "\n"
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            try:
                exec(compile(code, "<doc>", "single"), namespace)  # noqa: S102 - running the page's own examples
            except Exception as exc:  # shown as doctest shows it
                out.write("Traceback (most recent call last):\n  ...\n")
                out.write("".join(traceback.format_exception_only(type(exc), exc)))
        step.got = out.getvalue()


def _run_console(steps: List[Step], cwd: Path) -> None:
    marker = "@@fhsym-docs-example-step@@"
    script = ["set +e", "__rc=0"]
    for step in steps:
        script.append(f"(exit $__rc); {{ {step.source[0][2:]} ; }} 2>&1; __rc=$?; echo {marker}")
    env = dict(os.environ, PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", ""),
               NO_COLOR="1", COLUMNS="100")
    r = subprocess.run(["bash", "-c", "\n".join(script)], cwd=cwd, capture_output=True, text=True, env=env,
                       timeout=600)
    outputs = r.stdout.split(marker + "\n")
    for step, got in zip(steps, outputs):
        step.got = got


def _render(info: str, steps: List[Step]) -> str:
    out: List[str] = []
    for i, step in enumerate(steps):
        out.extend(step.source)
        text = step.got if step.got is not None else step.want
        out.extend(text.rstrip("\n").split("\n") if text.strip() else [])
        if info == "console" and text.strip() and i + 1 < len(steps):
            out.append("")  # console sessions: a blank line after each command's output
    return "\n".join(out) + "\n"


def run_page(path: Path, update: bool = False) -> Tuple[str, List[str]]:
    """Run every example of a page; return (the page with real outputs, a list of mismatch reports)."""
    text = path.read_text()
    namespace: Dict[str, object] = {"__name__": "__docs_example__"}
    problems: List[str] = []
    pieces: List[str] = []
    last = 0
    with tempfile.TemporaryDirectory(prefix="fhsym-docs-") as tmp:
        cwd = Path(tmp)
        old_cwd = os.getcwd()
        os.chdir(cwd)
        try:
            for m in FENCE_RE.finditer(text):
                info, body = m["info"], m["body"]
                lineno = text.count("\n", 0, m.start()) + 1
                if info == "python":
                    problems.append(f"{path.name}:{lineno}: a 'python' block: write it as 'pycon' with its output")
                    continue
                if info not in ("pycon", "console"):
                    continue
                steps = _pycon_steps(body) if info == "pycon" else _console_steps(body)
                if info == "pycon":
                    _run_pycon(steps, namespace)
                else:
                    _run_console(steps, cwd)
                for step in steps:
                    if not step.ok():
                        diff = "".join(difflib.unified_diff(step.want.splitlines(True), (step.got or "").splitlines(True),
                                                            "shown", "got"))
                        problems.append(f"{path.name}:{lineno}: {step.source[0]}\n{diff}")
                if update:
                    start = m.start("body")
                    pieces.append(text[last:start])
                    pieces.append(_render(info, [s if not s.ok() else Step(s.source, s.want, s.want) for s in steps]))
                    last = m.end("body")
        finally:
            os.chdir(old_cwd)
    pieces.append(text[last:])
    return "".join(pieces), problems


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pages", nargs="*", type=Path, default=DEFAULT_PAGES)
    ap.add_argument("--update", action="store_true", help="rewrite the shown outputs from a real run")
    args = ap.parse_args(argv)
    bad = 0
    for page in args.pages:
        new, problems = run_page(page, update=args.update)
        if args.update:
            if new != page.read_text():
                page.write_text(new)
                print(f"{page}: outputs rewritten")
            problems = [p for p in problems if "a 'python' block" in p]
        for p in problems:
            print(p)
        bad += len(problems)
        if not problems:
            print(f"{page}: every example output matches")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
