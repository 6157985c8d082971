"""The optimum intervals recorded in ``data/optimum_bounds.json.gz`` and their exact re-check.

Each record (written by ``scripts/optimum_table.py``) holds the inputs (``epsilon``, ``delta``,
sensitivity 1), the grid (``bins`` = m, ``support`` = M), the interval (``lower``, ``upper``), the
dual certificate of the lower end (:class:`.dual.DualCertificate` as JSON) and the noise at the
upper end (``width`` and integer ``weights`` of :class:`fhsym.noise.PiecewiseUniform`).
:func:`recheck` recomputes both ends from the record alone, in exact rationals, without an LP
solver: ``lower`` from weak duality, ``upper`` from the exact variance, and the noise's privacy.

>>> rec = next(r for r in load() if r["epsilon"] == 1.0 and r["delta"] == 1e-6)
>>> chk = recheck(rec)
>>> chk.lower == rec["lower"], chk.upper == rec["upper"], chk.proven_delta <= rec["delta"]
(True, True, True)
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Dict, List, Mapping

from .._core.arb.piecewise_uniform import fraction_down, fraction_up
from ..noise.piecewise_uniform import PiecewiseUniform
from .dual import DualCertificate

__all__ = ["DATA", "load", "recheck", "Recheck"]

DATA = Path(__file__).resolve().parent / "data" / "optimum_bounds.json.gz"


@dataclass(frozen=True)
class Recheck:
    """What a record proves when re-checked: ``lower <= V* <= upper`` and the noise's proven delta."""

    lower: float
    upper: float
    proven_delta: float


def load(path: Path = DATA) -> List[Dict[str, Any]]:
    """The records of the data file (gzip-compressed JSON; a list of dicts)."""
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        data = json.load(fh)
    records: List[Dict[str, Any]] = data["records"]
    return records


def recheck(record: Mapping[str, Any]) -> Recheck:
    """Re-derive the interval of ``record`` in exact arithmetic (no LP solver, no float kernel)."""
    dual = DualCertificate.from_json(record["dual"])
    if (dual.epsilon, dual.delta) != (record["epsilon"], record["delta"]):
        raise ValueError("the record's dual certificate belongs to other (epsilon, delta)")
    noise = PiecewiseUniform(width=record["noise"]["width"], weights=record["noise"]["weights"])
    lower = fraction_down(dual.variance_bound() * Fraction(record["sensitivity"]) ** 2)
    upper = fraction_up(noise.exact_variance())
    proven = noise.certified_sup_profile(record["epsilon"], record["sensitivity"])
    return Recheck(lower=lower, upper=upper, proven_delta=proven)
