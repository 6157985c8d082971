"""Which recorded certificates hold a sensitivity set that :func:`resolve_sensitivities` now resolves differently?

The verifier requires a certificate's radii to be the resolved (tightest) form of its set.  When the resolver
gets tighter (issue 32 item 5: the l2 radius of a box with an l1 ball), an old certificate whose recorded
radii are no longer the resolved form stops re-verifying.  This scans the certificates of a frontier data
file (default: the shipped ``fhsym/applications/data/frontier.json.gz``) and prints every one whose recorded
(dim, sensitivity, l2_sensitivity, l1_sensitivity) is not a fixed point of the resolver.

    python scripts/resolved_sets.py [path]
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path
from typing import Any, Dict, Iterator, List, Tuple

from fhsym._core.sensitivities import resolve_sensitivities
from fhsym.privacy.certificate import Certificate

DEFAULT = Path(__file__).resolve().parents[1] / "fhsym" / "applications" / "data" / "frontier.json.gz"


def certificates(data: Any, where: str = "") -> Iterator[Tuple[str, Dict[str, Any]]]:
    """Every dict below ``data`` that looks like a certificate (has dim and the three radii)."""
    if isinstance(data, dict):
        if all(k in data for k in ("dim", "sensitivity", "l2_sensitivity", "l1_sensitivity", "claim")):
            yield where, data
        for k, v in data.items():
            yield from certificates(v, f"{where}/{k}")
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from certificates(v, f"{where}[{i}]")


def changed(path: Path) -> Tuple[int, List[str]]:
    raw = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    n, bad = 0, []
    for where, cert in certificates(json.loads(raw)):
        n += 1
        c = Certificate.from_dict(cert)  # radii are stored as hexadecimal floats
        have = (c.dim, c.sensitivity, c.l2_sensitivity, c.l1_sensitivity)
        now = tuple(resolve_sensitivities(*have))
        if now != have:
            bad.append(f"{where}: recorded {have}, resolved now {now}")
    return n, bad


def main(argv: List[str]) -> int:
    path = Path(argv[0]) if argv else DEFAULT
    n, bad = changed(path)
    print(f"{path}: {n} certificates, {len(bad)} whose recorded set resolves differently now")
    for line in bad:
        print("  " + line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
