"""What ``fhsym verify --times N`` / ``--json`` and ``python -m proofs --record-times`` write, on a real run of one
cheap topic (``laplace_limit``: 2 quick checks, ~1 s CPU, in this process with ``-j 1``).

``--times N`` prints the N slowest checks (wall and CPU seconds) and a summary line; ``--json`` gives every check's
``seconds`` and ``cpu_seconds``; ``--record-times`` merges each check's CPU seconds into the times file
(``proofs/_times.json``, here a copy in tmp_path), and every run of ``fhsym verify`` remembers its checks' seconds
for the ETA (``$FHSYM_VERIFY_TIMES``, here in tmp_path).  The numbers must be finite, and positive where the
printed precision can show them.  (``format_times`` and ``record_times`` on made-up results:
tests/test_proofs_report.py.)
"""

from __future__ import annotations

import json
import math
import re

from fhsym import cli

TOPIC = "laplace_limit"
KEYS = {f"{TOPIC}.fused_vs_mpmath", f"{TOPIC}.rearranged_forms"}
RUN = ["--quick", "--only", TOPIC, "-j", "1", "--no-report"]


def _finite(v: float, positive: bool = True) -> bool:
    return math.isfinite(v) and (v > 0 if positive else v >= 0)


def test_verify_times_table_and_json_cpu_seconds(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("FHSYM_VERIFY_TIMES", str(tmp_path / "eta.json"))  # not the user's cache
    assert cli.main(["verify", *RUN, "--no-progress", "--times", "5"]) == 0
    lines = capsys.readouterr().out.splitlines()
    i = lines.index("the 2 slowest checks (of 2):")  # N = 5 asked, 2 ran
    assert lines[i + 1].split() == ["check", "wall", "s", "CPU", "s"]
    rows = [ln.split() for ln in lines[i + 2:i + 4]]
    assert {r[0] for r in rows} == KEYS and all(len(r) == 3 for r in rows)
    walls = [float(r[1]) for r in rows]
    assert walls == sorted(walls, reverse=True) and all(_finite(float(v), positive=False) for r in rows for v in r[1:])
    m = re.fullmatch(r"checks: (\S+) s wall, (\S+) s CPU summed; run (\S+) s on 1 process\(es\) \(busy (\d+)%\); "
                     r"topics imported in (\S+) s before it", lines[i + 4])
    assert m, lines[i + 4]
    wall, cpu, run, busy, imported = (float(v) for v in m.groups())
    assert _finite(wall) and _finite(cpu) and _finite(run) and 0 < busy <= 100 and _finite(imported, positive=False)
    assert wall <= run + 0.1  # one process: the checks' wall time fits in the run's
    # the ETA memory of this mode: every check's wall seconds
    eta = json.loads((tmp_path / "eta.json").read_text())["seconds"]
    assert set(eta) == KEYS and all(_finite(v) for v in eta.values())

    assert cli.main(["verify", *RUN, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["checks"], out["passed"], out["failed"]) == (2, 2, 0)
    assert _finite(out["seconds"]) and _finite(out["import_seconds"], positive=False)
    assert {r["key"] for r in out["results"]} == KEYS
    for r in out["results"]:
        assert _finite(r["seconds"]) and _finite(r["cpu_seconds"]), r
    assert sum(r["seconds"] for r in out["results"]) <= out["seconds"] + 0.1


def test_record_times_merges_cpu_seconds_into_the_times_file(tmp_path, monkeypatch, capsys):
    from proofs import _harness as H
    from proofs.__main__ import main as proofs_main

    times = tmp_path / "_times.json"
    times.write_text(json.dumps({"full": {"x.y": 7.0}, "quick": {"other.check": 3.0}}))
    monkeypatch.setattr(H, "TIMES_FILE", times)  # never the repository's file
    assert proofs_main([*RUN, "--record-times", "--times", "2"]) == 0
    out = capsys.readouterr().out
    assert f"recorded the CPU seconds of 2 checks in {times}" in out and "the 2 slowest checks (of 2):" in out
    data = json.loads(times.read_text())
    assert data["full"] == {"x.y": 7.0}  # the other mode untouched
    assert set(data["quick"]) == KEYS | {"other.check"} and data["quick"]["other.check"] == 3.0
    recorded = [data["quick"][k] for k in KEYS]  # rounded to 0.1 s: the cheaper check may show 0.0
    assert all(_finite(v, positive=False) for v in recorded) and max(recorded) > 0
    assert H.recorded_times(quick=True) == data["quick"]
