"""Compare the per-check statuses of two proofs reports (issue 29.4: the wheel gives the checkout's statuses).

Usage::

    python scripts/compare_report_statuses.py REPORT_A.md REPORT_B.md [--min-common N] [--subset]

Each report is a file written by ``python -m proofs --report`` or ``fhsym verify --report``; every check's
heading line ends with ``(...; `topic.check`): STATUS``.  The script prints how many checks both reports hold and
exits 1 if any of them has a different status, if a report lists no check, or if fewer than ``--min-common`` checks
are common, or, with ``--subset``, if B holds a check A does not (a quick run holds a subset of the full run's
checks: CI compares ``fhsym verify --quick`` from the installed wheel against the checked-in proofs/REPORT.md).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Dict, List, Optional

HEADING = re.compile(r"^\*\*\d+\..*\(.*?`([A-Za-z0-9_]+\.[A-Za-z0-9_.\[\]-]+)`\): ([A-Z][A-Z -]*[A-Z])\s*$", re.M)


def statuses(text: str) -> Dict[str, str]:
    """{check key: status} of a report's text; a key listed twice with two statuses raises ValueError."""
    out: Dict[str, str] = {}
    for key, status in HEADING.findall(text):
        if out.get(key, status) != status:
            raise ValueError(f"check {key} is listed twice, as {out[key]} and as {status}")
        out[key] = status
    return out


def compare(a: Dict[str, str], b: Dict[str, str]) -> List[str]:
    """The differences, one line each: a common check whose statuses differ."""
    return [f"{k}: {a[k]} != {b[k]}" for k in sorted(a.keys() & b.keys()) if a[k] != b[k]]


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a", type=Path)
    ap.add_argument("b", type=Path)
    ap.add_argument("--min-common", type=int, default=1, help="fail if fewer checks are in both (default 1)")
    ap.add_argument("--subset", action="store_true", help="fail if B holds a check that A does not")
    args = ap.parse_args(argv)
    if args.min_common < 1:
        ap.error(f"--min-common must be >= 1; got {args.min_common}")
    a, b = statuses(args.a.read_text()), statuses(args.b.read_text())
    common = a.keys() & b.keys()
    diff = compare(a, b)
    print(f"{args.a}: {len(a)} checks; {args.b}: {len(b)} checks; {len(common)} in both; "
          f"{len(common) - len(diff)} with the same status, {len(diff)} different")
    for line in diff:
        print("  " + line)
    if not a or not b or len(common) < args.min_common:
        print(f"too few common checks (need {args.min_common})")
        return 1
    if args.subset and b.keys() - a.keys():
        print(f"in {args.b} only: {', '.join(sorted(b.keys() - a.keys()))}")
        return 1
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main())
