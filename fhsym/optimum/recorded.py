"""The optimum intervals recorded in ``data/optimum_bounds.json.gz`` and their exact re-check.

Each record (written by ``scripts/optimum_table.py``, one task of the frontier's sweep runner per point:
:func:`fhsym.optimum.api.compute_record`) holds the inputs (``epsilon``, ``delta``, sensitivity 1), the grid (``bins`` = m,
``support`` = M), the interval (``lower``, ``upper``), the dual certificate of the lower end
(:class:`.dual.DualCertificate` as JSON) and the noise at the upper end (``width`` and integer ``weights`` of
:class:`fhsym.noise.PiecewiseUniform`).  :func:`recheck` recomputes both ends from the record alone, in exact
rationals, without an LP solver: ``lower`` from weak duality, ``upper`` from the exact variance, and the noise's
privacy.

The file is gzip-compressed JSON lines: a header object, then one record per line, each line starting with
``{"epsilon":...,"delta":...,`` so that :func:`find` parses only the record asked for.  :func:`checked` is
:func:`recheck` memoised by the SHA-256 digest of the record's bytes: the same bytes are re-checked once per
process (the re-check is a deterministic function of them), so a second call answers in microseconds.

>>> rec = find(1.0, 1e-6)
>>> chk = recheck(rec)
>>> chk.lower == rec["lower"], chk.upper == rec["upper"], chk.proven_delta <= rec["delta"]
(True, True, True)
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Tuple

from ..noise.plans.piecewise_uniform import fraction_down, fraction_up
from ..noise.piecewise_uniform import PiecewiseUniform
from .dual import DualCertificate

__all__ = ["DATA", "FORMAT", "load", "find", "best_of", "recheck", "checked", "Recheck", "Checked",
           "record_of", "dumps", "recorded_points"]

DATA = Path(__file__).resolve().parent / "data" / "optimum_bounds.json.gz"
#: the header's ``format``
FORMAT = "fhsym-optimum-records/2"
_KEY = re.compile(rb'^\{"epsilon":([^,]+),"delta":([^,]+),')


@dataclass(frozen=True)
class Recheck:
    """What a record proves when re-checked: ``lower <= V* <= upper`` and the noise's proven delta."""

    lower: float
    upper: float
    proven_delta: float


@dataclass(frozen=True)
class Checked:
    """A record re-checked by :func:`recheck`, with the objects it was checked from (:func:`checked`)."""

    record: Mapping[str, Any]
    result: Recheck
    dual: DualCertificate
    noise: PiecewiseUniform
    bound: Fraction  # the exact lower bound on V*(eps, delta, 1) the dual proves


_INDEX: Dict[Tuple[str, int, int], Dict[Tuple[float, float], bytes]] = {}
_CHECKED: Dict[bytes, Checked] = {}


def _lines(path: Path) -> List[bytes]:
    raw = gzip.decompress(path.read_bytes())
    lines = [ln for ln in raw.split(b"\n") if ln.strip()]
    if not lines:
        raise ValueError(f"{str(path)!r} is not an optimum data file: it is empty")
    head = json.loads(lines[0])
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise ValueError(f"{str(path)!r} is not an optimum data file of format {FORMAT!r}")
    return lines[1:]


def _index(path: Path) -> Dict[Tuple[float, float], bytes]:
    """``{(epsilon, delta): the record's line}``, memoised by path, modification time and size."""
    st = path.stat()
    k = (str(path.resolve()), st.st_mtime_ns, st.st_size)
    if k not in _INDEX:
        index: Dict[Tuple[float, float], bytes] = {}
        for ln in _lines(path):
            m = _KEY.match(ln)
            if m is None:
                raise ValueError(f"{str(path)!r}: a record line does not start with epsilon and delta")
            index[(float(m.group(1)), float(m.group(2)))] = ln
        _INDEX.clear()
        _INDEX[k] = index
    return _INDEX[k]


def _path(path: Optional[Path]) -> Path:
    return DATA if path is None else Path(path)


def load(path: Optional[Path] = None) -> List[Dict[str, Any]]:
    """The records of the data file (default :data:`DATA`; a list of dicts, in file order)."""
    return [json.loads(ln) for ln in _lines(_path(path))]


def recorded_points(path: Optional[Path] = None) -> Tuple[Tuple[float, float], ...]:
    """The (epsilon, delta) of every record, sorted (sensitivity 1)."""
    return tuple(sorted(_index(_path(path))))


def _line(epsilon: float, delta: float, path: Optional[Path]) -> Optional[bytes]:
    """The record's line at (epsilon, delta), or None (a missing file gives None)."""
    try:
        return _index(_path(path)).get((float(epsilon), float(delta)))
    except FileNotFoundError:
        return None


def find(epsilon: float, delta: float, path: Optional[Path] = None) -> Optional[Dict[str, Any]]:
    """The record at (epsilon, delta), sensitivity 1, or None (a missing file gives None)."""
    ln = _line(epsilon, delta, path)
    if ln is None:
        return None
    rec: Dict[str, Any] = json.loads(ln)
    return rec


def _check(record: Mapping[str, Any]) -> Checked:
    dual = DualCertificate.from_json(record["dual"])
    if (dual.epsilon, dual.delta) != (record["epsilon"], record["delta"]):
        raise ValueError("the record's dual certificate belongs to other (epsilon, delta)")
    noise = PiecewiseUniform(width=record["noise"]["width"], weights=record["noise"]["weights"])
    bound = dual.variance_bound() * Fraction(record["sensitivity"]) ** 2
    result = Recheck(lower=fraction_down(bound), upper=fraction_up(noise.exact_variance()),
                     proven_delta=noise.certified_sup_profile(record["epsilon"], record["sensitivity"]))
    return Checked(record=record, result=result, dual=dual, noise=noise, bound=bound)


def recheck(record: Mapping[str, Any]) -> Recheck:
    """Re-derive the interval of ``record`` in exact arithmetic (no LP solver, no float kernel)."""
    return _check(record).result


def checked(epsilon: float, delta: float, path: Optional[Path] = None) -> Optional[Checked]:
    """The record at (epsilon, delta) re-checked (:func:`recheck`), or None if there is none.

    Memoised by the SHA-256 digest of the record's line: the same bytes are re-checked once per process.  The caller
    compares the re-derived ends with what it needs (a record is evidence, not a verdict).
    """
    ln = _line(epsilon, delta, path)
    if ln is None:
        return None
    digest = hashlib.sha256(ln).digest()
    hit = _CHECKED.get(digest)
    if hit is None:
        hit = _check(json.loads(ln))
        _CHECKED[digest] = hit
    return hit


def record_of(iv: Any, seconds: float) -> Dict[str, Any]:
    """What the data file stores of an :class:`~fhsym.optimum.OptimumInterval` at sensitivity 1 (epsilon and delta
    first: :func:`find` keys on them).  The recorded noise is the LP's (its ``upper``), whatever ``iv.noise`` is: where
    the staircase is lower, :func:`fhsym.optimal_variance` compares with it again when it answers from the record."""
    if iv.sensitivity != 1.0:
        raise ValueError(f"sensitivity must be 1 in a record; got {iv.sensitivity!r}")
    return {
        "epsilon": iv.epsilon, "delta": iv.delta, "sensitivity": iv.sensitivity,
        "lower": iv.lower, "upper": iv.primal_upper, "ratio": iv.primal_upper / iv.lower if iv.lower > 0 else None,
        "proven_delta": iv.primal.certified_sup_profile(iv.epsilon, iv.sensitivity),
        "bins": iv.bins, "support": iv.support, "lp_rows": iv.lp_rows, "lp_columns": iv.lp_columns,
        "seconds": round(seconds, 2),
        "noise": {"width": iv.primal.width, "weights": list(iv.primal.weights)},
        "dual": iv.dual.to_json(),
    }


def best_of(old: Mapping[str, Any], new: Mapping[str, Any]) -> Dict[str, Any]:
    """One record of the same point from two: the dual (with its grid and solve figures) of the one with the higher
    ``lower``, the noise of the one with the lower ``upper``.  The two ends are re-checked independently
    (:func:`recheck`: the dual by weak duality, the noise by its exact variance and privacy), so either may come
    from either solve; ``noise_bins`` gives the grid the noise came from where it differs from ``bins``.

    >>> a = {"epsilon": 1.0, "delta": 1e-6, "lower": 1.0, "upper": 3.0, "bins": 2, "noise": {"width": 0.5}, "dual": "a"}
    >>> b = {"epsilon": 1.0, "delta": 1e-6, "lower": 2.0, "upper": 4.0, "bins": 4, "noise": {"width": 0.25}, "dual": "b"}
    >>> r = best_of(a, b); r["dual"], r["noise"], r["ratio"], r["noise_bins"]
    ('b', {'width': 0.5}, 1.5, 2)
    """
    if (old["epsilon"], old["delta"]) != (new["epsilon"], new["delta"]):
        raise ValueError("best_of: the two records must hold the same (epsilon, delta)")
    low = new if new["lower"] >= old["lower"] else old
    up = new if new["upper"] <= old["upper"] else old
    out = {k: v for k, v in low.items() if k != "noise_bins"}
    for k in ("upper", "proven_delta", "noise"):
        if k in up:
            out[k] = up[k]
    out["ratio"] = out["upper"] / out["lower"] if out["lower"] > 0 else None
    nb = round(1.0 / float(up["noise"]["width"]))
    if nb != out.get("bins"):
        out["noise_bins"] = nb
    return out


def dumps(records: List[Mapping[str, Any]], header: Mapping[str, Any]) -> bytes:
    """The data file's bytes: the header (with ``format``), then the records sorted by (epsilon, delta), gzip with
    mtime 0 (the same records give the same bytes)."""
    head = dict(header, format=FORMAT)
    lines = [json.dumps(head, separators=(",", ":"))]
    for rec in sorted(records, key=lambda r: (r["epsilon"], r["delta"])):
        body = {"epsilon": float(rec["epsilon"]), "delta": float(rec["delta"])}
        body.update((k, v) for k, v in rec.items() if k not in body)
        lines.append(json.dumps(body, separators=(",", ":")))
    return gzip.compress(("\n".join(lines) + "\n").encode(), mtime=0)
