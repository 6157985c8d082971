"""The frontier data file cut by (epsilon, delta): what :func:`fhsym.advise` reads for one release.

The data file ``fhsym/applications/data/frontier.json.gz`` (21017 calibrations, 48 MB of JSON) stays the source of
truth: the scripts, the figures and docs/frontier.md read it.  Parsing it takes about a second, so the advisor reads
instead the *shard* of the requested (epsilon, delta), ``frontier_shards/<epsilon!r>_<delta!r>.json.gz`` next to it
(:func:`shard_dir`),
a derived index written by ``python scripts/frontier.py shards`` (and at the end of ``frontier.py assemble`` and of
``frontier_report.py verify``) and checked for freshness by ``tests/test_frontier_shards.py``, which rebuilds every
shard from the data file and compares the JSON byte for byte.  A shard holds (sorted-key JSON, gzip-compressed):

* ``source``: the data file's name and the SHA-256 of its bytes (a shard is used only next to that very file);
* ``epsilon``, ``delta`` and ``calibrations``: ``{call_key: record}`` of every call at (epsilon, delta), every dim,
  norm and composition, as in the data file; ``errors``: the calls of those recorded as failed;
* ``verification``: the data file's bulk re-check (``frontier_report.py verify``) restricted to the shard, or
  None when the data file has none that describes its certificates: ``digest`` (:func:`certificates_digest` of the
  shard's calibrations), ``checked``, ``ok``, ``rigorous`` (None unless every certificate of the data file was
  proven: its record does not say which were not), ``failed`` (the shard's failed calls), ``by``, ``at`` and, after
  an incremental re-check, ``rechecked_at``.

The advisor serves a shard's record without re-checking it only when the verification says it was proven (every
certificate of the shard rigorous, the call not among the failed) *and* the digest of the shard's certificates,
recomputed from the bytes loaded, equals the recorded one (:func:`load_shard`); anything else is re-verified.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, FrozenSet, List, Mapping, Optional, Tuple, Union

__all__ = ["FORMAT", "Shard", "build_shards", "call_key", "certificates_digest", "check_shards", "load_shard",
           "shard_dir", "shard_name", "write_shards"]

FORMAT = "fhsym-frontier-shard/1"


def call_key(call: Mapping[str, Any]) -> str:
    """The data file's key of a calibration call: its keyword arguments as sorted JSON."""
    return json.dumps(call, sort_keys=True)


def certificates_digest(cals: Mapping[str, Mapping[str, Any]]) -> str:
    """SHA-256 of every record's certificate, by call key: what a bulk re-check is a statement about (the
    ``digest`` of the data file's ``verification`` record and of each shard's)."""
    blob = json.dumps({k: r["certificate"] for k, r in cals.items()}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


def shard_dir(data_path: Union[str, Path]) -> Path:
    """The folder of the shards of a data file: next to it, named after it (``frontier.json.gz``:
    ``frontier_shards``), so that two data files in one folder keep their own shards."""
    p = Path(data_path)
    return p.parent / (p.name.split(".")[0] + "_shards")


def shard_name(epsilon: float, delta: float) -> str:
    """The file name of the shard of (epsilon, delta), e.g. ``'0.3_1e-06.json.gz'``."""
    return f"{float(epsilon)!r}_{float(delta)!r}.json.gz"


def _verification(ver: Any, cals: Mapping[str, Any]) -> Optional[Dict[str, Any]]:
    """The data file's verification record ``ver`` restricted to ``cals`` (None if ``ver`` is None)."""
    if ver is None:
        return None
    failed = [f for f in ver["failed"] if call_key(f["call"]) in cals]
    out: Dict[str, Any] = {"digest": certificates_digest(cals), "checked": len(cals), "ok": len(cals) - len(failed),
                           "rigorous": len(cals) if ver["rigorous"] == ver["checked"] else None, "failed": failed,
                           "by": ver["by"], "at": ver["at"]}
    if ver.get("incremental"):
        out["rechecked_at"] = ver["incremental"]["at"]
    return out


def build_shards(data: Mapping[str, Any], source_sha256: str, source_name: str = "frontier.json.gz") -> Dict[str, bytes]:
    """``{file name: JSON bytes}`` of every shard of a parsed data file (uncompressed; :func:`write_shards` gzips)."""
    groups: Dict[Tuple[float, float], Dict[str, Any]] = {}
    for k, rec in data["calibrations"].items():
        c = rec["call"]
        groups.setdefault((float(c["epsilon"]), float(c["delta"])), {})[k] = rec
    errors: Dict[Tuple[float, float], Dict[str, str]] = {}
    for k, err in data.get("errors", {}).items():
        c = json.loads(k)
        errors.setdefault((float(c["epsilon"]), float(c["delta"])), {})[k] = err
    ver = data.get("verification")
    if not isinstance(ver, dict) or ver.get("digest") != certificates_digest(data["calibrations"]):
        ver = None  # no record, or one that does not describe these certificates
    out = {}
    for (e, d) in sorted(set(groups) | set(errors)):
        cals = groups.get((e, d), {})
        shard = {"format": FORMAT, "source": {"file": source_name, "sha256": source_sha256}, "epsilon": e,
                 "delta": d, "calibrations": cals, "errors": errors.get((e, d), {}),
                 "verification": _verification(ver, cals)}
        out[shard_name(e, d)] = json.dumps(shard, sort_keys=True, allow_nan=False, separators=(",", ":")).encode()
    return out


def _build_from_file(data_path: Path) -> Dict[str, bytes]:
    raw = data_path.read_bytes()
    data = json.loads(gzip.decompress(raw) if data_path.suffix == ".gz" else raw)
    return build_shards(data, hashlib.sha256(raw).hexdigest(), data_path.name)


def write_shards(data_path: Union[str, Path]) -> int:
    """Write the shards of the data file at ``data_path`` (rebuilt from its bytes), remove the shards of any other
    (epsilon, delta); the number written."""
    p = Path(data_path)
    shards = _build_from_file(p)
    folder = shard_dir(p)
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.json.gz"):
        if old.name not in shards:
            old.unlink()
    for name, blob in shards.items():
        (folder / name).write_bytes(gzip.compress(blob, mtime=0))
    return len(shards)


def check_shards(data_path: Union[str, Path]) -> List[str]:
    """The shards of the data file at ``data_path`` that are missing, stale (their JSON differs byte for byte from
    the one rebuilt now) or left over; [] when they are fresh.  (The JSON is compared, not the gzip bytes, which
    depend on the zlib build.)"""
    p = Path(data_path)
    want = _build_from_file(p)
    folder = shard_dir(p)
    have = {f.name: f for f in folder.glob("*.json.gz")} if folder.is_dir() else {}
    problems = [f"missing: {n}" for n in sorted(set(want) - set(have))]
    problems += [f"left over: {n}" for n in sorted(set(have) - set(want))]
    problems += [f"stale: {n}" for n in sorted(set(want) & set(have)) if gzip.decompress(have[n].read_bytes()) != want[n]]
    return problems


@dataclass(frozen=True)
class Shard:
    """A loaded shard: its records and errors by call key, and the keys whose certificates its verification covers."""

    records: Mapping[str, Any]
    errors: Mapping[str, str]
    #: the call keys whose certificates were proven by the data file's re-check and are the bytes checked then
    verified: FrozenSet[str]
    #: who re-checked them and when (the source text of an option served from them)
    by: str = ""
    at: str = ""


_SOURCE_SHA: Dict[Tuple[str, int, int], str] = {}
#: parsed shards by (path, modification time in ns, size): (the data file's SHA-256 they were built from, the Shard)
_SHARDS: Dict[Tuple[str, int, int], Tuple[str, Shard]] = {}


def _stamp(path: Path) -> Tuple[str, int, int]:
    """A file's memo key: a rewrite within the float mtime's resolution, or to another size, is still seen."""
    st = path.stat()
    return str(path.resolve()), st.st_mtime_ns, st.st_size


def _sha256_of(path: Path) -> Optional[str]:
    """SHA-256 of a file's bytes (memoised by path, modification time in ns and size); None if it cannot be read."""
    try:
        k = _stamp(path)
        if k not in _SOURCE_SHA:
            _SOURCE_SHA[k] = hashlib.sha256(path.read_bytes()).hexdigest()
        return _SOURCE_SHA[k]
    except OSError:
        return None


def _parse(path: Path) -> Tuple[str, Shard]:
    try:
        shard = json.loads(gzip.decompress(path.read_bytes()))
        source, cals, errors, ver = shard["source"]["sha256"], shard["calibrations"], shard["errors"], shard["verification"]
        if shard["format"] != FORMAT or not isinstance(cals, dict) or not isinstance(errors, dict):
            raise TypeError(f"format {shard['format']!r}")
        verified: FrozenSet[str] = frozenset()
        by = at = ""
        if (isinstance(ver, dict) and ver["digest"] == certificates_digest(cals) and ver["checked"] == len(cals)
                and ver["rigorous"] == len(cals)):
            # the failed list names calls, not keys: a record filed under another key than its call's could
            # escape it, so only records keyed by their own call are served on the re-check's strength
            verified = (frozenset(k for k, r in cals.items() if call_key(r["call"]) == k)
                        - {call_key(f["call"]) for f in ver["failed"]})
            by = str(ver["by"])
            at = str(ver["at"]) + (f", changed records {ver['rechecked_at']}" if "rechecked_at" in ver
                                   else "")
    except (OSError, EOFError, zlib.error, json.JSONDecodeError, UnicodeDecodeError, KeyError, TypeError) as exc:
        raise ValueError(f"{str(path)!r} is not a frontier shard: {exc}") from None
    return str(source), Shard(cals, errors, verified, by, at)


def load_shard(data_path: Union[str, Path], epsilon: float, delta: float) -> Optional[Shard]:
    """The shard of (epsilon, delta) of the data file at ``data_path``, or None where there is none or it was not
    built from that file (its ``source.sha256`` differs from the SHA-256 of the file's bytes): then the caller reads
    the data file itself.

    ``verified`` holds the calls whose record may be served without a re-check: the shard's verification record
    says every certificate of the shard was proven and this one did not fail, and its ``digest`` equals
    :func:`certificates_digest` of the certificates loaded now.  Memoised by path, modification time (ns) and size (the
    digest is recomputed when the file changes).  A malformed shard raises ``ValueError``.
    """
    path = shard_dir(data_path) / shard_name(epsilon, delta)
    try:
        k = _stamp(path)
    except OSError:
        return None
    if k not in _SHARDS:
        _SHARDS[k] = _parse(path)
    source, shard = _SHARDS[k]
    return shard if source == _sha256_of(Path(data_path)) else None
