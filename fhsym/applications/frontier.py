"""The certified frontier: which mechanism needs the least noise for a release, and by how much.

A release is (epsilon, delta, K coordinates, T compositions, a sensitivity set of radius 1:
the l_inf box, the l2 ball or the l1 ball).  For each release every *candidate* below is
calibrated by :func:`fhsym.calibrate` (certified: ``achieved_delta <= delta`` at the exact returned
parameters), and the candidates are ranked by per-coordinate variance.

Candidates (i.i.d. noise on each coordinate):

=====================  =========================================================================
``flipped_huber``      exact K T-fold profile over the box (``method="exact"``; Theorem 3 in 1-D)
``gaussian``           analytic Gaussian at the set's l2 radius (times sqrt(T))
``laplace_kfold``      Laplace, exact K T-fold profile over the box (``method="exact"``)
``laplace_pure``       Laplace, pure eps-DP at the set's l1 radius (times T) (``method="pure"``)
``truncated_laplace``  exact K T-fold profile over the box
``staircase``          pure eps/(K T)-DP per coordinate (basic composition)
``osgt``               exact K T-fold profile over the box
=====================  =========================================================================

The box-based candidates cover an l2 or l1 ball of radius 1 through the box of half-width 1 that
contains it: that is the honest comparison of i.i.d. noise (their privacy over the box is decided
by the corner (1, ..., 1), so they cannot use a smaller ball), while the Gaussian and pure Laplace
use the ball's own radius.

Over the box, K coordinates released T times are the same mechanism as K T coordinates released
once, so every box-based calibration is requested once, as ``dim = K T``, ``compositions = 1``
(:func:`calibration_call`): the data file stores that certificate for every (K, T) with the same
product.

The gain of flipped Huber is ``10 log10(var_best_other / var_FH)`` dB (negative: FH loses).
"""

from __future__ import annotations

import math
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from ..noise import OSGT, FlippedHuber, Gaussian, Laplace, Staircase, TruncatedLaplace

__all__ = [
    "CANDIDATES",
    "COMPOSITIONS",
    "DELTAS",
    "DIMS",
    "EPSILONS",
    "NORMS",
    "BOX_BASED",
    "calibration_call",
    "candidate_label",
    "calibration_record",
    "entry",
    "gain_db",
    "frontier_task",
]

#: the eps grid: {1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8} x 10^k from 0.05 to 10 (log-spaced to within 7 %)
EPSILONS: Tuple[float, ...] = (0.05, 0.06, 0.08, 0.1, 0.12, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.8,
                               1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0)
DELTAS: Tuple[float, ...] = (1e-5, 1e-6, 1e-8, 1e-10)
DIMS: Tuple[int, ...] = (1, 2, 3, 5, 10, 20, 50, 100, 1000)
COMPOSITIONS: Tuple[int, ...] = (1, 10, 100)
NORMS: Tuple[str, ...] = ("linf", "l2", "l1")

#: the frontier's candidates: each noise law by its key, Laplace twice (exact K-fold profile, pure DP)
LAPLACE_KFOLD, LAPLACE_PURE = Laplace.name + "_kfold", Laplace.name + "_pure"
#: the noise law each candidate calibrates
_LAW: Dict[str, Any] = {FlippedHuber.name: FlippedHuber, Gaussian.name: Gaussian, LAPLACE_KFOLD: Laplace,
                        LAPLACE_PURE: Laplace, TruncatedLaplace.name: TruncatedLaplace, Staircase.name: Staircase,
                        OSGT.name: OSGT}
CANDIDATES: Tuple[str, ...] = tuple(_LAW)
#: candidates whose calibration is over the box whatever the set (they cover a ball through the box)
BOX_BASED: Tuple[str, ...] = (FlippedHuber.name, LAPLACE_KFOLD, TruncatedLaplace.name, Staircase.name, OSGT.name)
_MECHANISM = {c: law.name for c, law in _LAW.items()}
FH = FlippedHuber.name


def candidate_label(candidate: str) -> str:
    """A candidate in prose: the law's display name (Laplace with its method).

    >>> candidate_label(LAPLACE_PURE), candidate_label(FH)
    ('Laplace (pure)', 'flipped Huber')
    """
    law = _LAW.get(candidate)
    if law is None:
        return candidate
    return {LAPLACE_KFOLD: "Laplace (exact)", LAPLACE_PURE: "Laplace (pure)"}.get(candidate, law.display_name)


_SET_KWARG = {"linf": "sensitivity", "l2": "l2_sensitivity", "l1": "l1_sensitivity"}


def _check_release(epsilon: float, delta: float, dim: int, norm: str, compositions: int, sensitivity: float) -> None:
    from .._core import domains as V

    V.check_scalar(epsilon, V.Domain("epsilon", 0.0, math.inf))
    V.check_scalar(delta, V.DELTA)
    V.check_int(dim, "dim", 1)
    V.check_int(compositions, "compositions", 1)
    V.check_scalar(sensitivity, V.SENSITIVITY)
    if norm not in NORMS:
        raise ValueError(f"norm must be one of {list(NORMS)}; got {norm!r}")


def calibration_call(candidate: str, epsilon: float, delta: float, dim: int = 1, norm: str = "linf",
                     compositions: int = 1, sensitivity: float = 1.0) -> Dict[str, Any]:
    """The keyword arguments of the one :func:`fhsym.calibrate` call that calibrates ``candidate``.

    Canonical: a box-based candidate (and every candidate when dim = 1, where the three norms are
    the same number) is requested as ``dim = K T``, ``compositions = 1`` over the box of half-width
    ``sensitivity``; the Gaussian and pure Laplace over an l2 / l1 ball keep (K, T) and the ball's radius.

    >>> calibration_call("osgt", 1.0, 1e-6, dim=5, norm="l2", compositions=2)["dim"]
    10
    >>> calibration_call("gaussian", 1.0, 1e-6, dim=5, norm="l2")["l2_sensitivity"]
    1.0
    """
    if candidate not in CANDIDATES:
        raise ValueError(f"candidate must be one of {list(CANDIDATES)}; got {candidate!r}")
    _check_release(epsilon, delta, dim, norm, compositions, sensitivity)
    K, T = int(dim), int(compositions)
    call: Dict[str, Any] = {"epsilon": float(epsilon), "delta": float(delta), "mechanism": _MECHANISM[candidate]}
    if candidate in BOX_BASED or norm == "linf" or K == 1:
        call.update(dim=K * T, compositions=1, sensitivity=float(sensitivity))
    else:
        call.update(dim=K, compositions=T, **{_SET_KWARG[norm]: float(sensitivity)})
    if candidate == LAPLACE_PURE:
        call["method"] = "pure"
    elif candidate == LAPLACE_KFOLD or (candidate == FH and call["dim"] * call["compositions"] > 1):
        call["method"] = "exact"  # FH: the exact K-fold profile (a re-checkable certificate; Theorem 8 is not one)
    else:
        call["method"] = "auto"
    return call


def calibration_record(**call: Any) -> Dict[str, Any]:
    """Run ``fhsym.calibrate(**call)`` and return what the data file stores (the task of a frontier sweep)."""
    from ..calibration import calibrate

    cal = calibrate(**call)
    return {"mechanism": cal.mechanism.name, "parameters": dict(cal.parameters), "variance": cal.variance,
            "method": cal.method, "achieved_delta": cal.achieved_delta, "certificate": cal.certificate.to_dict()}


def frontier_task(call: Mapping[str, Any], label: str = ""):
    """The :class:`~fhsym.applications.sweeps.Task` of one calibration call."""
    from .sweeps import Task

    return Task("fhsym.applications.frontier:calibration_record", dict(call), label=label)


def gain_db(var_fh: float, var_other: float) -> float:
    """FH's gain over another mechanism in dB, 10 log10(var_other / var_FH) (negative: FH needs more noise).

    >>> round(gain_db(1.0, 2.0), 4)
    3.0103
    """
    if not (var_fh > 0 and var_other > 0):
        raise ValueError(f"variances must be > 0; got {var_fh!r}, {var_other!r}")
    return 10.0 * math.log10(var_other / var_fh)


def entry(variances: Mapping[str, Optional[float]]) -> Dict[str, Any]:
    """Rank the candidates of one release: ``{"ranking", "best", "fh_gain_db", "complete"}``.

    ``variances`` maps each candidate to its certified variance (``None``: not computed).
    ``fh_gain_db`` is FH's gain over the best *other* computed candidate (``None`` without FH);
    ``complete`` says whether every candidate was computed.

    >>> e = entry({"flipped_huber": 1.0, "gaussian": 2.0, "laplace_kfold": None})
    >>> e["best"], round(e["fh_gain_db"], 3), e["complete"]
    ('flipped_huber', 3.01, False)
    """
    have = {c: float(v) for c, v in variances.items() if v is not None}
    ranking = sorted(have, key=lambda c: (have[c], CANDIDATES.index(c) if c in CANDIDATES else 99))
    others = [c for c in ranking if c != FH]
    gain = gain_db(have[FH], have[others[0]]) if FH in have and others else None
    return {"ranking": ranking, "best": ranking[0] if ranking else None, "fh_gain_db": gain,
            "best_other": others[0] if others else None,
            "complete": all(c in have for c in CANDIDATES)}


def releases(dims: Iterable[int] = DIMS, compositions: Iterable[int] = COMPOSITIONS, norms: Iterable[str] = NORMS,
             epsilons: Iterable[float] = EPSILONS, deltas: Iterable[float] = DELTAS) -> List[Dict[str, Any]]:
    """Every release of the grid as a dict (norm, dim, compositions, epsilon, delta)."""
    return [{"norm": n, "dim": K, "compositions": T, "epsilon": e, "delta": d}
            for n in norms for T in compositions for K in dims for d in deltas for e in epsilons]


def calls_of(release: Mapping[str, Any], candidates: Sequence[str] = CANDIDATES) -> Dict[str, Dict[str, Any]]:
    """The calibration call of each candidate for one release."""
    return {c: calibration_call(c, release["epsilon"], release["delta"], release["dim"], release["norm"],
                                release["compositions"]) for c in candidates}
