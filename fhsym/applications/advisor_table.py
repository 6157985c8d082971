"""The certified ranking of every release of the frontier data, as one compact table (the docs' advisor page).

:func:`release_ranking` ranks one release of the frontier data file the way :func:`fhsym.advise` ranks it
from that file: the same candidates and calibration calls (the truncated staircase where K T = 1; one option per
distinct call: in one coordinate the staircase with PLD is the staircase), the same order (variance, then the Gaussian itself before a Gaussian member
standing in for flipped Huber or OSGT over a ball, then the candidate order), and the optimum interval
of any additive noise in one coordinate.  Candidates the sweep skipped (truncated Laplace where it could
not matter) are listed as not in the data: ``fhsym.advise`` would calibrate them now.  Calibrations the
data file records as failed are listed as failed, as ``fhsym.advise`` lists them.

:func:`advisor_table` is every release of the grid in that form, with short keys and rounded numbers
(variance to 7 significant digits, as ``fhsym advise`` prints it; the 99.9 % quantile to 6; the distance
to the optimum to 3), the table ``docs/advisor/advisor-data.js`` carries (``python scripts/figures.py``).

>>> from fhsym.applications.advise import default_data_path
>>> from fhsym.applications.advisor_table import load_data, release_ranking
>>> data = load_data(default_data_path())
>>> r = release_ranking(data, 1.0, 1e-6, dim=1)
>>> [o["candidate"] for o in r["options"]][:2], r["optimum"] is not None
(['truncated_staircase', 'staircase'], True)
"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Tuple, Union

from ..noise import Gaussian
from .frontier import (CANDIDATES, COMPOSITIONS, DELTAS, DIMS, EPSILONS, NORMS, ONE_D_CANDIDATES, calls_of,
                       candidate_label, candidate_rank, candidates_for)

__all__ = ["ADVISOR_FORMAT", "advisor_table", "load_data", "optimum_bounds", "release_ranking"]

#: the format tag of the advisor table (bumped when its layout changes)
ADVISOR_FORMAT = "fhsym-advisor/1"
#: the grid's axes in the order of the table's flat index (the last one varies fastest)
AXES: Tuple[str, ...] = ("norm", "compositions", "dim", "delta", "epsilon")


def load_data(path: Union[str, Path]) -> Dict[str, Any]:
    """The frontier data file (gzipped JSON) as a dict.

    >>> from fhsym.applications.advise import default_data_path
    >>> load_data(default_data_path())["format"]
    'fhsym-frontier/2'
    """
    raw = Path(path).read_bytes()
    out: Dict[str, Any] = json.loads(gzip.decompress(raw) if str(path).endswith(".gz") else raw)
    return out


def _index(data: Mapping[str, Any]) -> Dict[Tuple[Any, ...], Dict[str, Any]]:
    return {tuple(e[k] for k in AXES): e for e in data["entries"]}


class _Optima:
    """The optimum interval at a 1-D grid point as :func:`fhsym.advise` gives it (``advise.optimum_interval``: the
    record of ``fhsym/optimum/data``, re-checked, its upper end the best certified law), computed once per point;
    where nothing is recorded (the LP would run for minutes) the frontier data file's own ``optimum`` entry."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self._stored = {(float(o["epsilon"]), float(o["delta"])): (float(o["lower"]), float(o["upper"]))
                        for o in data.get("optimum", []) if "error" not in o}
        self._cache: Dict[Tuple[float, float], Optional[Tuple[float, float]]] = {}

    def get(self, key: Tuple[float, float]) -> Optional[Tuple[float, float]]:
        if key not in self._cache:
            from ..optimum import recorded
            from .advise import optimum_interval

            iv = optimum_interval(*key) if recorded.find(*key) is not None else None
            self._cache[key] = (iv.lower, iv.upper) if iv is not None else self._stored.get(key)
        return self._cache[key]


def _optima(data: Mapping[str, Any]) -> _Optima:
    return _Optima(data)


def optimum_bounds(data: Mapping[str, Any]) -> Dict[Tuple[float, float], Tuple[float, float]]:
    """``{(eps, delta): (lower, upper)}`` at every 1-D point of the data file, as :func:`fhsym.advise` gives the
    optimum interval there (the re-checked record of ``fhsym/optimum/data``, its upper end the best certified law;
    the data file's own entry where nothing is recorded).  The optimum figure and the advisor table read this."""
    opt = _optima(data)
    keys = sorted({(float(o["epsilon"]), float(o["delta"])) for o in data.get("optimum", []) if "error" not in o})
    return {k: v for k in keys if (v := opt.get(k)) is not None}


def release_ranking(data: Mapping[str, Any], epsilon: float, delta: float, dim: int = 1, norm: str = "linf",
                    compositions: int = 1) -> Dict[str, Any]:
    """One release of the frontier data, ranked as :func:`fhsym.advise` ranks it from that file.

    Returns ``{"options": [{"candidate", "variance", "quantile_999", "gaussian_member", "over_optimum_pct"}, ...]``
    best first, ``"missing": {candidate: status}`` (not in the data: skipped, or an error recorded),
    ``"optimum": (lower, upper)`` or None (one coordinate, one release only)}.  ``over_optimum_pct`` is
    100 (variance / lower - 1): an upper bound on the distance to the optimum.  KeyError if the release is
    not on the grid.

    >>> from fhsym.applications.advise import default_data_path
    >>> r = release_ranking(load_data(default_data_path()), 0.3, 1e-6, dim=20, norm="l2")
    >>> [(o["candidate"], o["gaussian_member"]) for o in r["options"][:3]], r["optimum"]
    ([('gaussian', False), ('flipped_huber', True), ('osgt', True)], None)
    """
    e = _index(data)[(norm, int(compositions), int(dim), float(delta), float(epsilon))]
    return _ranking(e, _optima(data))


def _ranking(e: Mapping[str, Any], optima: _Optima) -> Dict[str, Any]:
    calls = calls_of(e)  # the release's candidates: the one-coordinate ones too where K T = 1, as fhsym.advise
    seen, cands = set(), []
    for c in candidates_for(e["dim"], e["compositions"]):  # one option per distinct call, as fhsym.advise
        k = json.dumps(calls[c], sort_keys=True)
        if k not in seen:
            cands.append(c)
        seen.add(k)
    var, members, quant = e["variances"], e.get("members", {}), e.get("quantiles", {})
    have = [c for c in cands if var.get(c) is not None]
    have.sort(key=lambda c: (var[c], members.get(c) == Gaussian.name, candidate_rank(c)))
    opt = optima.get((e["epsilon"], e["delta"])) if e["dim"] == 1 and e["compositions"] == 1 else None
    options = [{"candidate": c, "variance": float(var[c]), "quantile_999": quant.get(c),
                "gaussian_member": members.get(c) == Gaussian.name,
                "over_optimum_pct": None if opt is None else 100.0 * (var[c] / opt[0] - 1.0)} for c in have]
    missing = {c: str(e["status"].get(c, "not computed")) for c in cands if var.get(c) is None}
    return {"options": options, "missing": missing, "optimum": opt}


def _sig(x: Optional[float], digits: int) -> Optional[float]:
    return None if x is None else float(f"{x:.{digits}g}")


def advisor_table(data: Mapping[str, Any], source: str = "") -> Dict[str, Any]:
    """Every release of the grid, ranked (:func:`release_ranking`), as one compact JSON-able table.

    ``grid`` holds the axes (:data:`AXES`); ``releases[i]`` is the release at the flat index ``i`` (the last
    axis fastest), best first: ``[order, variances, quantiles, members, missing, over]``: ``order`` the
    candidates' indices into ``candidates`` as a string of digits, ``variances`` (7 significant digits) and
    ``quantiles`` (the 99.9 % quantile of |noise|, 5 digits) in that order, ``members`` the digits of the
    candidates whose calibration is their Gaussian member's, ``missing`` pairs ``candidate digit + "s"``
    (skipped by the sweep) or ``+ "e"`` (an error recorded), ``over`` (one coordinate only, else ``0``) the
    variance above the optimum's lower end in % (3 digits); ``optimum["delta_index,epsilon_index"] =
    [lower, upper]`` in one coordinate.

    >>> from fhsym.applications.advise import default_data_path
    >>> t = advisor_table(load_data(default_data_path()))
    >>> t["format"], len(t["releases"]) == 3 * 3 * 9 * 4 * 24
    ('fhsym-advisor/1', True)
    """
    grid = {"norm": list(NORMS), "compositions": list(COMPOSITIONS), "dim": list(DIMS), "delta": list(DELTAS),
            "epsilon": list(EPSILONS)}
    rows: List[Any] = []
    idx, optima = _index(data), _optima(data)
    every = CANDIDATES + ONE_D_CANDIDATES  # the digits index this list: one decimal digit per candidate
    if len(every) > 10:  # a two-digit index would make the page's ranking strings ambiguous
        raise ValueError(f"the advisor table encodes each candidate as one digit: at most 10 candidates; got "
                         f"{len(every)} ({list(every)})")
    digit = {c: str(i) for i, c in enumerate(every)}
    for n in NORMS:
        for T in COMPOSITIONS:
            for K in DIMS:
                for d in DELTAS:
                    for eps in EPSILONS:
                        r = _ranking(idx[(n, T, K, d, eps)], optima)
                        o = r["options"]
                        rows.append(["".join(digit[x["candidate"]] for x in o),
                                     [_sig(x["variance"], 7) for x in o], [_sig(x["quantile_999"], 5) for x in o],
                                     "".join(digit[x["candidate"]] for x in o if x["gaussian_member"]),
                                     "".join(digit[c] + ("e" if st.startswith("error") else "s")
                                             for c, st in r["missing"].items()),
                                     [_sig(x["over_optimum_pct"], 3) for x in o] if r["optimum"] else 0])
    optimum = {}
    for o in data.get("optimum", []):
        if "error" not in o and o["delta"] in DELTAS and o["epsilon"] in EPSILONS:
            iv = optima.get((float(o["epsilon"]), float(o["delta"])))
            if iv is not None:
                optimum[f"{DELTAS.index(o['delta'])},{EPSILONS.index(o['epsilon'])}"] = [_sig(iv[0], 10),
                                                                                         _sig(iv[1], 10)]
    body = {"grid": grid, "candidates": list(every), "labels": [candidate_label(c) for c in every],
            "releases": rows, "optimum": optimum}
    digest = hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()[:16]
    return {"format": ADVISOR_FORMAT, "source": source, "generated_at": data.get("generated_at", ""),
            "digest": digest, **body}
