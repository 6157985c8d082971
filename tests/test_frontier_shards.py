"""The advisor's shards of the frontier data file (fhsym.applications.frontier_shards) and what advise serves from them.

* the checked-in shards are the ones rebuilt now from ``frontier.json.gz`` (JSON byte for byte), like the generated
  code's ``--check``: ``python scripts/frontier.py shards`` rewrites them;
* a record whose certificate the shard's digest shows was proven when the data were built is served without calling
  ``verify_certificate``; ``reverify=True`` re-checks every one; a tampered shard (a certificate edited, its digest
  left) is re-verified and its false record not served; a shard of another data file is not used;
* the shard path gives the advice the whole data file gives (sources apart).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil

import pytest

import fhsym
from fhsym.applications import advise as A
from fhsym.applications import frontier as F
from fhsym.applications import frontier_shards as S
from fhsym.cli import main


def _data_path():
    path = A.default_data_path()
    if not path.is_file() or not S.shard_dir(path).is_dir():
        pytest.skip("the frontier data file or its shards are not in this checkout")
    return path


@pytest.fixture
def count(monkeypatch):
    """The number of verify_certificate calls advise makes (the real verdicts are kept); memos emptied."""
    calls = []
    real = A.verify_certificate

    def counting(cert, budget):
        calls.append(cert)
        return real(cert, budget)

    monkeypatch.setattr(A, "verify_certificate", counting)
    monkeypatch.setattr(A, "_REUSED", {})
    monkeypatch.setattr(A, "_BUILT", {})
    return calls


def test_the_checked_in_shards_are_fresh():
    """Rebuilt in memory from the data file, every shard's JSON equals the checked-in one byte for byte, none is
    missing or left over (``python scripts/frontier.py shards`` rewrites them)."""
    path = _data_path()
    raw = path.read_bytes()
    data = json.loads(gzip.decompress(raw))
    want = S.build_shards(data, hashlib.sha256(raw).hexdigest(), path.name)  # what check_shards compares with
    have = {f.name: gzip.decompress(f.read_bytes()) for f in S.shard_dir(path).glob("*.json.gz")}
    assert sorted(have) == sorted(want), "missing or left-over shards: run python scripts/frontier.py shards"
    assert [n for n in want if have[n] != want[n]] == [], "stale shards: run python scripts/frontier.py shards"
    shards = [json.loads(b) for b in have.values()]
    assert sum(len(s["calibrations"]) for s in shards) == len(data["calibrations"])
    assert sum(len(s["errors"]) for s in shards) == len(data["errors"])
    ver = data["verification"]
    assert ver["digest"] == S.certificates_digest(data["calibrations"])
    for s in shards:  # the bulk re-check restricted to each shard
        v = s["verification"]
        assert v["digest"] == S.certificates_digest(s["calibrations"]) and v["checked"] == len(s["calibrations"])
        assert (v["at"], v["by"]) == (ver["at"], ver["by"])


def _tiny_data(tmp_path, verification=True):
    """A data file of two Gaussian calibrations at (0.3, 1e-6) and (1, 1e-6), optionally with a verification."""
    cals = {}
    for eps in (0.3, 1.0):
        call = F.calibration_call(F.Gaussian.name, eps, 1e-6)
        cal = F.run_call(call)
        cals[S.call_key(call)] = {"call": call, "variance": cal.variance, "parameters": {"sigma": cal.sigma},
                                  "method": cal.method, "achieved_delta": cal.achieved_delta, "seconds": 0.0,
                                  "certificate": cal.certificate.to_dict()}
    data = {"calibrations": cals, "errors": {}}
    if verification:
        data["verification"] = {"checked": 2, "ok": 2, "rigorous": 2, "failed": [], "seconds": 0.0,
                                "digest": S.certificates_digest(cals), "by": "test", "at": "2026-01-01 00:00 UTC"}
    path = tmp_path / "frontier.json.gz"
    path.write_bytes(gzip.compress(json.dumps(data).encode(), mtime=0))
    return path, data


def test_check_shards_finds_stale_missing_and_left_over_shards(tmp_path):
    path, _ = _tiny_data(tmp_path)
    assert S.write_shards(path) == 2 and S.check_shards(path) == []
    folder = S.shard_dir(path)
    one = folder / S.shard_name(0.3, 1e-6)
    shard = json.loads(gzip.decompress(one.read_bytes()))
    shard["errors"] = {"x": "y"}
    one.write_bytes(gzip.compress(json.dumps(shard, sort_keys=True, separators=(",", ":")).encode()))
    (folder / S.shard_name(1.0, 1e-6)).unlink()
    (folder / S.shard_name(2.0, 1e-6)).write_bytes(gzip.compress(b"{}"))
    assert S.check_shards(path) == ["missing: 1.0_1e-06.json.gz", "left over: 2.0_1e-06.json.gz",
                                    "stale: 0.3_1e-06.json.gz"]
    assert S.write_shards(path) == 2 and S.check_shards(path) == []


def test_a_shard_of_another_data_file_or_without_verification_is_not_trusted(tmp_path, count):
    path, data = _tiny_data(tmp_path)
    S.write_shards(path)
    adv = fhsym.advise(0.3, 1e-6, data=path, candidates=(F.Gaussian.name,))
    assert "when the data were built, 2026-01-01 00:00 UTC" in adv.best.source and count == []
    data["errors"] = {"another": "file"}  # the data file changes, its shards do not: they are not used
    path.write_bytes(gzip.compress(json.dumps(data).encode(), mtime=0))
    assert S.load_shard(path, 0.3, 1e-6) is None
    adv = fhsym.advise(0.3, 1e-6, data=path, candidates=(F.Gaussian.name,))
    assert adv.best.source == "frontier data (certificate re-verified)" and len(count) == 1
    (tmp_path / "bare").mkdir()
    bare, _ = _tiny_data(tmp_path / "bare", verification=False)  # no bulk re-check recorded: every record re-checked
    S.write_shards(bare)
    A._REUSED.clear()  # (the same record re-verified above is memoised)
    shard = S.load_shard(bare, 0.3, 1e-6)
    assert shard is not None and len(shard.records) == 1 and not shard.verified
    adv = fhsym.advise(0.3, 1e-6, data=bare, candidates=(F.Gaussian.name,))
    assert adv.best.source == "frontier data (certificate re-verified)" and len(count) == 2


def test_a_call_the_build_time_re_check_failed_is_re_verified(tmp_path, count):
    """A call listed as failed in the bulk re-check is not served on its strength: re-verified now (this genuine
    certificate holds, so it is served then); the other shard's record is served unchecked."""
    path, data = _tiny_data(tmp_path)
    k03, k1 = list(data["calibrations"])
    data["verification"].update(ok=1, failed=[{"call": data["calibrations"][k03]["call"], "reason": "test"}])
    path.write_bytes(gzip.compress(json.dumps(data).encode(), mtime=0))
    S.write_shards(path)
    assert not S.load_shard(path, 0.3, 1e-6).verified and S.load_shard(path, 1.0, 1e-6).verified == {k1}
    adv = fhsym.advise(0.3, 1e-6, data=path, candidates=(F.Gaussian.name,))
    assert adv.best.source == "frontier data (certificate re-verified)" and len(count) == 1
    adv = fhsym.advise(1.0, 1e-6, data=path, candidates=(F.Gaussian.name,))
    assert "when the data were built" in adv.best.source and len(count) == 1


def test_a_record_filed_under_another_call_key_is_re_verified(tmp_path, count):
    """The re-check's failed list names calls: a record whose key is not its own call's key could escape it, so it
    is not served on the re-check's strength (re-verified now; this genuine certificate holds)."""
    path, data = _tiny_data(tmp_path)
    k03, k1 = list(data["calibrations"])
    data["calibrations"][k03]["call"] = dict(data["calibrations"][k03]["call"], note="filed elsewhere")
    path.write_bytes(gzip.compress(json.dumps(data).encode(), mtime=0))
    S.write_shards(path)
    assert not S.load_shard(path, 0.3, 1e-6).verified and S.load_shard(path, 1.0, 1e-6).verified == {k1}
    adv = fhsym.advise(0.3, 1e-6, data=path, candidates=(F.Gaussian.name,))
    assert adv.best.source == "frontier data (certificate re-verified)" and len(count) == 1


def test_a_matching_shard_is_served_without_re_verification_and_reverify_re_checks(count):
    path = _data_path()
    adv = fhsym.advise(0.3, 1e-6, dim=5, data=path)
    assert count == [], "verify_certificate was called for records the shard's digest covers"
    assert len(adv.options) == 8 and all(
        o.source.startswith("frontier data (certificate proven by fhsym.calibration.verify.check_certificate when "
                            "the data were built, ") for o in adv.options), [o.source for o in adv.options]
    with pytest.raises(ValueError, match="^reverify must be True or False"):
        fhsym.advise(0.3, 1e-6, dim=5, reverify="yes")
    again = fhsym.advise(0.3, 1e-6, dim=5, data=path, reverify=True)
    assert len(count) == 8 and all(o.source == "frontier data (certificate re-verified)" for o in again.options)
    assert [(o.candidate, o.variance, o.calibration.parameters, o.calibration.method) for o in adv.options] == \
        [(o.candidate, o.variance, o.calibration.parameters, o.calibration.method) for o in again.options]


def test_a_tampered_shard_is_re_verified_and_its_false_record_not_served(tmp_path, count):
    """A certificate edited in a shard (the Gaussian's sigma lowered by 10 %: under-noised) with the digest left: the
    digest no longer matches, so every record of the shard is re-verified now; the edited one is false, so it is not
    served but computed."""
    path = _data_path()
    shutil.copy(path, tmp_path / path.name)
    S.shard_dir(tmp_path / path.name).mkdir()
    name = S.shard_name(0.3, 1e-6)
    shard = json.loads(gzip.decompress((S.shard_dir(path) / name).read_bytes()))
    call = F.calibration_call(F.Gaussian.name, 0.3, 1e-6, 5)
    cert = shard["calibrations"][S.call_key(call)]["certificate"]
    sigma = float.fromhex(cert["parameters"]["sigma"])
    cert["parameters"]["sigma"] = (0.9 * sigma).hex()  # a consistent forgery: it parses, it is false
    cert["decimal"]["parameters"]["sigma"] = repr(0.9 * sigma)
    (S.shard_dir(tmp_path / path.name) / name).write_bytes(gzip.compress(json.dumps(shard).encode()))
    adv = fhsym.advise(0.3, 1e-6, dim=5, data=tmp_path / path.name, candidates=(F.Gaussian.name, F.LAPLACE_PURE))
    # both records re-checked: the shard's digest is not its certificates' any more
    assert sorted(c.mechanism for c in count) == [F.Gaussian.name, "laplace"]
    forged = next(c for c in count if c.mechanism == F.Gaussian.name)
    assert forged.parameters["sigma"] == 0.9 * sigma and not fhsym.verify_certificate(forged)
    by = {o.candidate: o for o in adv.options}
    assert by[F.LAPLACE_PURE].source == "frontier data (certificate re-verified)"
    assert by[F.Gaussian.name].source == "computed"
    assert by[F.Gaussian.name].calibration.sigma == pytest.approx(sigma, rel=1e-12)
    assert by[F.Gaussian.name].variance == fhsym.calibrate(**call).variance


def _summary(adv):
    return [(o.candidate, o.variance, dict(o.calibration.parameters), o.calibration.method, o.call, o.covers,
             o.source.startswith("its Gaussian member")) for o in adv.options]


@pytest.mark.parametrize("release", [dict(epsilon=0.3, delta=1e-6, dim=5), dict(epsilon=1.0, delta=1e-6),
                                     dict(epsilon=2.0, delta=1e-10, dim=3, norm="l2")])
def test_the_shard_gives_the_advice_the_whole_data_file_gives(release, tmp_path_factory):
    """The same options, variances, parameters, methods, calls and notes from the shard as from the whole data file
    (a copy without shards, re-verifying every record), nothing computed either way; the sources differ in wording."""
    path = _data_path()
    mono = tmp_path_factory.getbasetemp() / "monolith" / path.name
    if not mono.is_file():
        mono.parent.mkdir(exist_ok=True)
        shutil.copy(path, mono)
    lines = []
    shard = fhsym.advise(**release, data=path, progress=lines.append)
    whole = fhsym.advise(**release, data=mono, progress=lines.append)
    assert lines == [] and _summary(shard) == _summary(whole) and shard.failed == whole.failed
    assert shard.optimum == whole.optimum
    assert all("when the data were built" in o.source for o in shard.options)
    assert all(o.source.endswith("frontier data (certificate re-verified)") for o in whole.options)


def test_cli_advise_prints_one_verdict_and_the_data_source(capsys):
    _data_path()
    assert main(["advise", "--epsilon", "0.3", "--delta", "1e-6", "--dim", "5", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert out.count("verdict:") == 1
    assert [ln for ln in out.splitlines() if ln.startswith("data: ")] == [
        f"data: {fhsym.advise(0.3, 1e-6, dim=5).best.source}"]
    assert "when the data were built" in out and "--reverify" in out
    assert main(["advise", "--epsilon", "0.3", "--delta", "1e-6", "--dim", "5", "--no-progress", "--reverify"]) == 0
    out = capsys.readouterr().out
    assert out.count("verdict:") == 1 and "data: frontier data (certificate re-verified)" in out


def test_reverify_without_data_is_refused(capsys):
    """``reverify`` re-checks the data's records: with ``data=False`` (``--no-data``) none is read, so the flag would
    be silently unused; it is refused instead, before anything is computed."""
    with pytest.raises(ValueError, match="data=False"):
        fhsym.advise(1.0, 1e-6, data=False, reverify=True)
    assert main(["advise", "--epsilon", "1", "--delta", "1e-6", "--no-data", "--reverify", "--no-progress"]) != 0
    assert "data=False" in capsys.readouterr().err


def test_budget_without_data_is_refused():
    """``budget`` bounds the re-check of a recorded certificate: with ``data=False`` none is read, so a budget other
    than the default would be silently unused; it is refused, as ``reverify`` is (the default itself is accepted)."""
    from fhsym._core.limits import REUSE_BUDGET, Budget

    with pytest.raises(ValueError, match="budget bounds .* data=False"):
        fhsym.advise(1.0, 1e-6, data=False, budget=Budget(1.0, 1 << 20))
    with pytest.raises(ValueError, match="budget bounds .* data=False"):
        fhsym.advise(1.0, 1e-6, data=False, budget=Budget(1.0, 1 << 20), candidates=("laplace_pure",))
    adv = fhsym.advise(1.0, 1e-6, data=False, budget=REUSE_BUDGET, candidates=("laplace_pure",))
    assert [o.candidate for o in adv.options] == ["laplace_pure"]


def test_the_documented_shards_command_writes_and_checks(tmp_path, capsys):
    """``python scripts/frontier.py shards [--check]`` (README, docs/frontier.md): --check exits 1 on missing shards
    and writes nothing; without it the shards are written, and --check then exits 0."""
    import importlib.util
    import sys
    from pathlib import Path

    path, _ = _tiny_data(tmp_path)
    scripts = Path(__file__).resolve().parent.parent / "scripts"
    sys.path.insert(0, str(scripts))
    try:
        spec = importlib.util.spec_from_file_location("frontier_script_shards", scripts / "frontier.py")
        script = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(script)
        assert script.main(["shards", "--data", str(path), "--check"]) == 1
        assert not S.shard_dir(path).exists()
        assert script.main(["shards", "--data", str(path)]) == 0
        assert script.main(["shards", "--data", str(path), "--check"]) == 0
    finally:
        sys.path.remove(str(scripts))
    out = capsys.readouterr()
    assert "missing: 0.3_1e-06.json.gz" in out.err and "wrote 2 shards" in out.out and out.out.endswith("fresh\n")
    assert S.check_shards(path) == []
