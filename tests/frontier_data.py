"""The calibrations of the frontier data file (``fhsym/applications/data/frontier.json.gz``), read once per process.

Three test modules pick their parameters from it at collection (tests/test_calibration_plans.py,
tests/test_frontier_rederive.py, tests/test_calibrate_frontier.py), which every pytest-xdist worker does: decompressing and parsing the 48 MB of
JSON cost ~0.8 s of CPU each time.  Read only: the dict is shared by its callers.
"""

from __future__ import annotations

import functools
import gzip
import json
from pathlib import Path
from typing import Any, Dict

DATA = Path(__file__).resolve().parent.parent / "fhsym" / "applications" / "data" / "frontier.json.gz"


@functools.cache
def data() -> Dict[str, Any]:
    """The whole file (``entries``, ``calibrations``, ...), parsed on the first call of the process."""
    return json.loads(gzip.decompress(DATA.read_bytes()))


def calibrations() -> Dict[str, Any]:
    """The file's ``calibrations`` (record key -> record)."""
    return data()["calibrations"]
