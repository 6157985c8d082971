"""How long the rest of a run will take: the ETA that ``fhsym verify`` prints with each finished check.

The proofs' checks differ by four orders of magnitude in cost (0.01 s to minutes), so an ETA from the
mean time per check is poor until most have run.  :class:`CheckTimes` remembers how long each check
took in earlier runs (a JSON file in the user's cache directory, one entry per check and mode) and
estimates the remaining time as

    ETA = (sum of the remembered times of the checks not yet finished) / jobs * load,

where ``load`` = (time the finished checks took now) / (time they took before): the same machine
under a different load scales every check alike.  A check never timed counts as the mean of the
timed ones; with nothing remembered the estimate is the mean time per finished check times the
checks left, divided by ``jobs``.

Examples
--------
>>> times = CheckTimes(path=None, previous={"a": 10.0, "b": 1.0, "c": 1.0})
>>> times.eta(done={"a": 20.0}, remaining=["b", "c"], jobs=1)   # this run is 2x slower: 2 x (1 + 1)
4.0
>>> round(CheckTimes(path=None).eta(done={"a": 3.0}, remaining=["b", "c"], jobs=2), 6)  # no history: mean
3.0
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Dict, Iterable, Mapping, Optional

__all__ = ["CheckTimes", "default_times_path", "format_seconds"]


def default_times_path(mode: str) -> Path:
    """``$FHSYM_VERIFY_TIMES`` if set, else ``<user cache dir>/fhsym/verify-times-<mode>.json``."""
    env = os.environ.get("FHSYM_VERIFY_TIMES")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "fhsym" / f"verify-times-{mode}.json"


def format_seconds(seconds: float) -> str:
    """``"42s"``, ``"3m05s"``, ``"1h02m"``.

    >>> format_seconds(4.2), format_seconds(185), format_seconds(3725)
    ('4s', '3m05s', '1h02m')
    """
    s = max(int(round(seconds)), 0)
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{(s % 3600) // 60:02d}m"


class CheckTimes:
    """Remembered seconds per check (``previous``), and the ETA of a run from them."""

    def __init__(self, path: Optional[Path], previous: Optional[Mapping[str, float]] = None) -> None:
        self.path = path
        self.previous: Dict[str, float] = dict(previous or {})
        if previous is None and path is not None:
            try:
                data = json.loads(Path(path).read_text())
                self.previous = {str(k): float(v) for k, v in data.get("seconds", {}).items() if float(v) >= 0}
            except (OSError, ValueError, TypeError, AttributeError):
                self.previous = {}

    def eta(self, done: Mapping[str, float], remaining: Iterable[str], jobs: int = 1) -> float:
        """Seconds until the ``remaining`` checks are done, given the seconds of the ``done`` ones."""
        left = list(remaining)
        if not left:
            return 0.0
        jobs = max(int(jobs), 1)
        known = [k for k in done if k in self.previous and self.previous[k] > 0]
        if self.previous:
            mean = sum(self.previous.values()) / len(self.previous)
            before = sum(self.previous[k] for k in known)
            load = sum(done[k] for k in known) / before if before > 0 else 1.0
            return load * sum(self.previous.get(k, mean) for k in left) / jobs
        if not done:
            return float("nan")
        return sum(done.values()) / len(done) * len(left) / jobs

    def save(self, seconds: Mapping[str, float]) -> None:
        """Remember ``seconds`` (merged over the earlier entries); a cache that cannot be written is skipped."""
        if self.path is None:
            return
        merged = dict(self.previous)
        merged.update({k: round(float(v), 3) for k, v in seconds.items()})
        try:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            tmp = Path(str(self.path) + ".tmp")
            tmp.write_text(json.dumps({"seconds": merged}, indent=0, sort_keys=True))
            os.replace(tmp, self.path)
        except OSError:
            pass
