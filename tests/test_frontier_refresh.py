"""Recomputing one stage of the frontier data file and keeping the rest (``scripts/frontier.py``: ``seed
--recompute STAGE``, ``refresh --stage STAGE``, ``compare``; docs/frontier.md, "Reproduce")."""

from __future__ import annotations

import gzip
import importlib.util
import io
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = ROOT / "scripts"
DATA = ROOT / "fhsym" / "applications" / "data" / "frontier.json.gz"


@pytest.fixture()
def script():
    sys.path.insert(0, str(SCRIPTS))
    try:
        spec = importlib.util.spec_from_file_location("frontier_script_refresh", SCRIPTS / "frontier.py")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        yield mod
    finally:
        sys.path.remove(str(SCRIPTS))


def _tiny(path: Path) -> None:
    """A data file of format 2 with two optimum records and no calibrations (seed reads nothing else of it)."""
    data = {"format": "fhsym-frontier/2", "calibrations": {}, "entries": [],
            "optimum": [{"epsilon": 1.0, "delta": 1e-6, "lower": 1.5, "upper": 2.5, "seconds": 0.1},
                        {"epsilon": 2.0, "delta": 1e-6, "error": "failed"}]}
    path.write_bytes(gzip.compress(json.dumps(data).encode()))


def test_seed_recompute_leaves_the_stage_out_and_deletes_its_cached_records(script, tmp_path, capsys):
    from fhsym.applications import frontier as F
    from fhsym.applications.sweeps import DiskCache

    data, cache_dir = tmp_path / "d.json.gz", tmp_path / "cache"
    _tiny(data)
    assert script.main(["seed", "--data", str(data), "--cache", str(cache_dir)]) == 0
    cache = DiskCache(cache_dir)
    one, two = F.optimum_task(1.0, 1e-6), F.optimum_task(2.0, 1e-6)
    assert cache.get(one)["result"]["lower"] == 1.5 and cache.get(two)["error"] == "failed"
    # seeding again with the stage to recompute: neither record is seeded, and the cached ones are gone, so that
    # `run --stage optimum` computes them (a record left in the cache would be served again)
    assert script.main(["seed", "--data", str(data), "--cache", str(cache_dir), "--recompute", "optimum"]) == 0
    assert cache.get(one) is None and cache.get(two) is None
    out = capsys.readouterr().out
    assert "stage(s) optimum left out to recompute: 2 records not seeded, 2 cached ones deleted" in out
    # the stage's tasks are the 96 optimum points, and only they
    keys = {t.key(cache.version) for t in script.stage_tasks("optimum")}
    assert len(keys) == len(F.EPSILONS) * len(F.DELTAS) and one.key(cache.version) in keys
    assert not keys & {t.key(cache.version) for t in script.stage_tasks("staircase")}


def test_a_tier_leaves_out_its_truncated_laplace_calls_too(script):
    """`run` submits a tier's truncated Laplace calls only where they can matter, decided from the cache: the records
    left out to recompute are every call the tier can submit, so no stale one is kept."""
    tl = [t for t in script.stage_tasks("tier3") if t.params["mechanism"] == script.TL]
    assert tl and all(t.params["delta"] in (1e-5, 1e-8) for t in tl)


def test_compare_lists_the_optimum_changes_and_every_other_difference(script):
    before = {"generated_at": "a", "summary": {"optimum_seconds": 1.0, "releases": 3},
              "optimum": [{"epsilon": 10.0, "delta": 1e-6, "lower": 1.0, "upper": 2.0},
                          {"epsilon": 1.0, "delta": 1e-6, "lower": 3.0, "upper": 4.0}],
              "entries": [{"v": 1.0}, {"v": 2.0}]}
    after = json.loads(json.dumps(before))
    after["generated_at"], after["summary"]["optimum_seconds"] = "b", 2.0
    after["optimum"][0].update(lower=1.5, upper=2.5)  # the upper end moved outward: flagged
    buf = io.StringIO()
    assert script.compare(before, after, buf) == []
    text = buf.getvalue()
    assert "10, 1e-06: 1, 2, 100 % -> 1.5, 2.5, 66.67 % !" in text and "1 of 2 intervals unchanged" in text
    after["entries"][1]["v"] = 2.0000000000000004  # one ulp elsewhere is a difference
    after["summary"]["releases"] = 4
    assert script.compare(before, after, io.StringIO()) == [("entries", 1, "v"), ("summary", "releases")]
    assert list(script.differences({"a": [1, 2]}, {"a": [1]})) == [("a",)]
    assert list(script.differences({"a": 1}, {"a": 1.0})) == [("a",)]  # an int is not the float


def test_refresh_refuses_options_it_would_ignore(script, tmp_path):
    """Every option of `refresh` is used or refused (before anything is seeded or run): --timeout stops a calibration
    in the main thread only (the optimum stage's tasks do not read it), --workers sizes a local cluster."""
    data = tmp_path / "d.json.gz"
    _tiny(data)
    base = ["refresh", "--data", str(data), "--cache", str(tmp_path / "cache"), "--no-report"]
    for extra, match in ((["--stage", "optimum", "--timeout", "60"], "--timeout: stops a calibration"),
                         (["--stage", "cheap", "--timeout", "60", "--scheduler", "local"], "--timeout: stops"),
                         (["--stage", "cheap", "--timeout", "0"], "--timeout: a number of seconds > 0"),
                         (["--stage", "cheap", "--timeout", "nan"], "--timeout: a number of seconds > 0"),
                         (["--stage", "optimum", "--workers", "2"], "--workers: the local cluster")):
        with pytest.raises(SystemExit, match=match):
            script.main(base + extra)
    assert not (tmp_path / "cache").exists()  # refused up front: nothing seeded
    with pytest.raises(SystemExit):  # an unknown stage: argparse's choices
        script.main(base + ["--stage", "optimun"])


def test_run_refuses_options_it_would_ignore(script, tmp_path):
    """`run` too: --timeout only under --scheduler serial and not for the optimum stage alone, --chunk only where the
    tasks go to Dask, --workers only where a local cluster is started (nothing is computed before the refusal)."""
    base = ["run", "--cache", str(tmp_path / "cache")]
    for extra, match in ((["--stage", "optimum", "--scheduler", "serial", "--timeout", "60"], "--timeout: stops"),
                         (["--stage", "cheap", "--scheduler", "local", "--timeout", "60"], "--timeout: stops"),
                         (["--stage", "cheap", "--scheduler", "serial", "--timeout", "-1"], "--timeout: a number"),
                         (["--stage", "cheap", "--scheduler", "serial", "--chunk", "5"], "--chunk: calibrations per"),
                         (["--stage", "cheap", "--scheduler", "serial", "--workers", "2"], "--workers: the local")):
        with pytest.raises(SystemExit, match=match):
            script.main(base + extra)
    assert not (tmp_path / "cache").exists()


@pytest.mark.slow  # seeds the 21113 calibrations, recomputes the 96 optimum intervals, assembles; twice (~50 s)
def test_refresh_of_the_optimum_stage_changes_nothing_else_and_the_file_is_fresh(script, tmp_path, capsys):
    """`refresh --stage optimum` recomputes the 96 intervals through the sweep and keeps every other field of the data
    file, quantiles and verification record included.  A copy of the checked-in file with one interval loosened (a
    lower end 1 % down, still a valid bound) comes back as the checked-in file, timings aside: so the refresh changes
    nothing else, and the checked-in intervals are what `fhsym.optimal_variance` gives now (if this fails there, run
    `python scripts/frontier.py refresh --stage optimum`).  A second refresh changes no result and leaves the file."""
    from fhsym.applications.frontier_shards import check_shards

    committed = json.loads(gzip.decompress(DATA.read_bytes()))
    loose = json.loads(json.dumps(committed))
    rec = next(o for o in loose["optimum"] if (o["epsilon"], o["delta"]) == (10.0, 1e-6))
    rec["lower"] *= 0.99
    data = tmp_path / "frontier.json.gz"
    data.write_bytes(gzip.compress(json.dumps(loose, separators=(",", ":")).encode(), mtime=0))
    assert script.main(["refresh", "--stage", "optimum", "--data", str(data), "--no-report"]) == 0
    text = capsys.readouterr().out
    assert "other fields that differ: 0" in text and "\n  10, 1e-06: " in text and f"wrote {data}" in text
    after = json.loads(gzip.decompress(data.read_bytes()))
    changed = [p for p in script.differences(committed, after) if not script._timing_only(p)]
    assert not changed, f"the data file's optimum intervals are stale (refresh --stage optimum): {changed[:8]}"
    assert after["verification"] == committed["verification"]  # the certificates unchanged: the re-check still holds
    assert not check_shards(data)  # its shards written for the bytes written
    before = data.read_bytes()
    assert script.main(["refresh", "--stage", "optimum", "--data", str(data), "--no-report"]) == 0
    assert "no result changed (only timings)" in capsys.readouterr().out and data.read_bytes() == before
