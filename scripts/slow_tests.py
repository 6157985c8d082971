"""Choose the tests that leave the whole-suite run for the ``slow`` step, from measured durations.

    python -m pytest -n auto --junitxml=/tmp/junit.xml         # the whole-suite run, timed per test
    python scripts/slow_tests.py /tmp/junit.xml --budget 350 --keep test_docs_examples \
        --keep tests/test_architecture.py --keep tests/test_typing.py   # rewrite tests/slow_tests.txt

The README's test command (``python -m pytest``, no path) must take at most 5 minutes on a fresh clone of a
2-core machine (issue 30 item 6).  This script reads the per-test times of a run (JUnit XML, ``time`` of each
``testcase``), keeps the tests already listed in ``tests/slow_tests.txt``, and adds the longest remaining tests
until the others sum to at most ``--budget`` seconds (as measured in that run), except that every test module
keeps its fastest test in the whole-suite run, so that no module goes unexercised by the README's command, and the
tests matching ``--keep`` stay (the documented commands' outputs: a later change must not break an earlier promise).
``tests/conftest.py`` marks every listed test ``slow``: ``python -m pytest -m slow`` runs them, naming a file
runs all its tests.  The script prints the sums before and after; the list is data, re-derived by this
command, never edited to make a test pass.
"""

from __future__ import annotations

import argparse
import collections
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Dict, List, Tuple

ROOT = Path(__file__).resolve().parent.parent
LIST = ROOT / "tests" / "slow_tests.txt"

HEADER = """\
# Tests moved from the whole-suite run (`python -m pytest`) to the slow step (`python -m pytest -m slow`) because
# they are long, chosen from measured per-test times by `python scripts/slow_tests.py JUNIT.xml --budget S`
# (its docstring says how); tests/conftest.py marks each listed node id `slow` and fails the whole-suite run
# when a listed id is not collected (a renamed or removed test), so the list stays true. Every test module keeps
# its fastest test in the whole-suite run, and so do the tests of the documented commands (--keep).
"""


def node_id(classname: str, name: str) -> Tuple[str, str]:
    """JUnit (classname, name) -> (pytest node id, module path)."""
    parts = classname.split(".")
    # tests.sub.test_mod[.Class] -> tests/sub/test_mod.py[::Class]
    for i in range(len(parts), 0, -1):
        path = ROOT.joinpath(*parts[:i]).with_suffix(".py")
        if path.is_file():
            module = "/".join(parts[:i]) + ".py"
            return "::".join([module, *parts[i:], name]), module
    raise ValueError(f"junit: no test module for classname {classname!r}")


def read_listed(path: Path = LIST) -> List[str]:
    if not path.is_file():
        return []
    return [ln.strip() for ln in path.read_text().splitlines() if ln.strip() and not ln.startswith("#")]


def main(argv: List[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("junit", type=Path, help="JUnit XML of a whole-suite run (python -m pytest --junitxml=FILE)")
    ap.add_argument("--budget", type=float, required=True,
                    help="seconds (as measured in that run) the whole-suite tests may sum to")
    ap.add_argument("--keep", action="append", default=[], metavar="REGEX",
                    help="node ids matching REGEX stay in the whole-suite run (repeatable; e.g. the documented "
                         "commands' tests)")
    ap.add_argument("--list", type=Path, default=LIST, help=f"the list to extend and rewrite (default {LIST.relative_to(ROOT)})")
    args = ap.parse_args(argv)
    if not args.budget > 0:
        ap.error(f"--budget must be > 0 seconds, got {args.budget}")
    times: Dict[str, float] = {}
    module_of: Dict[str, str] = {}
    for tc in ET.parse(args.junit).getroot().iter("testcase"):
        if tc.find("skipped") is not None:
            continue
        nid, module = node_id(tc.get("classname", ""), tc.get("name", ""))
        times[nid] = float(tc.get("time", "0"))
        module_of[nid] = module
    listed = set(read_listed(args.list))
    fastest: Dict[str, str] = {}
    for nid in sorted(times, key=times.__getitem__):
        fastest.setdefault(module_of[nid], nid)
    try:
        keep = [re.compile(k) for k in args.keep]
    except re.error as e:
        ap.error(f"--keep must be a regular expression: {e}")
    keep_in = set(fastest.values()) | {n for n in times if any(k.search(n) for k in keep)}
    remaining = {n: t for n, t in times.items() if n not in listed}
    before = sum(remaining.values())
    total = before
    for nid in sorted(remaining, key=remaining.__getitem__, reverse=True):
        if total <= args.budget:
            break
        if nid in keep_in:
            continue
        listed.add(nid)
        total -= remaining[nid]
    per_module = collections.Counter(module_of[n] for n in listed if n in module_of)
    args.list.write_text(HEADER + "".join(f"{n}\n" for n in sorted(listed)))
    print(f"whole-suite tests in the run: {len(remaining)} summing to {before:.0f} s; after: "
          f"{sum(1 for n in times if n not in listed)} summing to {total:.0f} s (budget {args.budget:.0f} s)")
    print(f"{len(listed)} tests listed slow in {args.list}; most per module:")
    for module, n in per_module.most_common(10):
        print(f"  {n:4d}  {module}")
    if total > args.budget:
        print("budget not reached: every module keeps its fastest test", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
