"""scripts/compare_report_statuses.py: CI's check that `fhsym verify --quick` from the wheel gives the statuses of the
committed full report (issue 29.4).  The script must read every check of proofs/REPORT.md and fail on a changed
status, a missing check, or a report with no checks."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import compare_report_statuses as C  # noqa: E402

REPORT = (ROOT / "proofs" / "REPORT.md").read_text()


def test_every_check_of_the_committed_report_is_read():
    total = int(re.search(r"\*\*(\d+) checks:", REPORT).group(1))
    got = C.statuses(REPORT)
    assert len(got) == total
    # the summary line's counts per status, read back from the headings
    summary = re.search(r"\*\*\d+ checks: (.*?)\.\*\*", REPORT).group(1)  # "107 PROVEN, 105 VERIFIED, ..."
    for n, status in re.findall(r"(\d+) ([A-Z][A-Z -]*[A-Z])", summary):
        assert sum(1 for v in got.values() if v == status) == int(n), status


def _report(rows):
    return "\n".join(f"**{i}. `obj` — claim** (eq 1; `{k}`): {v}" for i, (k, v) in enumerate(rows, 1)) + "\n"


def test_same_statuses_pass_and_a_changed_one_fails(tmp_path, capsys):
    a, b = tmp_path / "a.md", tmp_path / "b.md"
    a.write_text(_report([("t.x", "PROVEN"), ("t.y", "VERIFIED"), ("u.z", "CROSS-CHECK")]))
    b.write_text(_report([("t.x", "PROVEN"), ("u.z", "CROSS-CHECK")]))
    assert C.main([str(a), str(b), "--subset", "--min-common", "2"]) == 0
    assert "2 with the same status, 0 different" in capsys.readouterr().out
    b.write_text(_report([("t.x", "VERIFIED"), ("u.z", "CROSS-CHECK")]))
    assert C.main([str(a), str(b)]) == 1
    assert "t.x: PROVEN != VERIFIED" in capsys.readouterr().out


def test_missing_or_extra_checks_fail(tmp_path):
    a, b = tmp_path / "a.md", tmp_path / "b.md"
    a.write_text(_report([("t.x", "PROVEN")]))
    b.write_text(_report([("t.x", "PROVEN"), ("t.new", "VERIFIED")]))
    assert C.main([str(a), str(b)]) == 0
    assert C.main([str(a), str(b), "--subset"]) == 1  # B holds a check the full report does not
    assert C.main([str(a), str(b), "--min-common", "2"]) == 1
    b.write_text("no checks here\n")
    assert C.main([str(a), str(b)]) == 1
    with pytest.raises(SystemExit):
        C.main([str(a), str(b), "--min-common", "0"])


def test_a_check_listed_twice_with_two_statuses_is_refused():
    with pytest.raises(ValueError, match="t.x"):
        C.statuses(_report([("t.x", "PROVEN"), ("t.x", "VERIFIED")]))
