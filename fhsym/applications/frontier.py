"""The certified frontier: which mechanism needs the least noise for a release, and by how much.

A release is (epsilon, delta, K coordinates, T compositions, a sensitivity set of radius 1:
the l_inf box, the l2 ball or the l1 ball).  For each release every *candidate* below is
calibrated by :func:`fhsym.calibrate` (certified: ``achieved_delta <= delta`` at the exact returned
parameters), and the candidates are ranked by per-coordinate variance.

Candidates (i.i.d. noise on each coordinate):

======================  ========================================================================
``flipped_huber``       exact K T-fold profile over the box (``method="exact"``; Theorem 3 in 1-D)
``gaussian``            analytic Gaussian at the set's l2 radius (times sqrt(T))
``laplace_kfold``       Laplace, exact K T-fold profile over the box (``method="exact"``)
``laplace_pure``        Laplace, pure eps-DP at the set's l1 radius (times T) (``method="pure"``)
``truncated_laplace``   exact K T-fold profile over the box
``staircase``           pure eps/(K T)-DP per coordinate (basic composition)
``staircase_pld``       the staircase composed through a proven PLD over the box
                        (:mod:`fhsym.applications.staircase_pld`, claim ``"pld-kfold-sup"``);
                        in one coordinate it is the staircase
``osgt``                exact K T-fold profile over the box, shapes up to :data:`OSGT_THETA_MAX`
a declared law          a law registered by :func:`fhsym.declare_law` (:func:`declared_candidates`), when
                        named: exact 1-D profile, exact K T-fold profile over the box for K T > 1
======================  ========================================================================

One-coordinate candidates (:data:`ONE_D_CANDIDATES`): the truncated staircase, certified by its exact 1-D
profile for one release of one coordinate only.  They are candidates of every release with K T = 1
(:func:`candidates_for`): the frontier sweep calibrates them there, the data file, its shards and the advisor page
hold them, and :func:`fhsym.advise` ranks them by default.  No claim of fhsym carries over to K T > 1: its loss is
infinite on the cut (a shift moves mass beyond the support), so there is no K-fold profile over the box, no composed
(PLD or basic-composition) certificate and no ball calibration of it; for K T > 1 it is not a frontier candidate,
and ``advise`` lists it in ``failed`` with that reason when it is named.

A declared law is a candidate only where it is named (``advise(..., candidates=(..., "logistic"))``,
``fhsym advise --law my_law.py``), never by default: the registry is per process, so a default that
followed it would make the same ``advise`` call answer differently depending on which modules the
process happened to import (the test suite declares twins of Laplace and Gaussian); the frontier data
holds no declared law, so each of its rows is a fresh calibration; and :data:`CANDIDATES` stays the
fixed list the frontier sweep and its data file are keyed by.

Every candidate's record is ``run_call(call)``: :func:`fhsym.calibrate` with the call's keyword
arguments, except ``staircase_pld`` (K T > 1), which is
:func:`fhsym.applications.staircase_pld.calibrate_staircase_pld`.

The box-based candidates are certified over the box of half-width 1, which contains the l2 or l1
ball of radius 1: that is all their proofs cover ("box only": the K-fold claims are proven at the box
corner; Theorem 8 with the ball's radii is not proven, docs/kdim.md).  The Gaussian and pure
Laplace use the ball's own radius.  Flipped Huber at alpha = 0 and OSGT at vartheta = 0 *are* the
Gaussian, so over a ball the best certified calibration of each is the better of its box calibration
and the Gaussian's (:func:`ball_best`).

Over the box, K coordinates released T times are the same mechanism as K T coordinates released
once, so every box-based calibration is requested once, as ``dim = K T``, ``compositions = 1``
(:func:`calibration_call`): the data file stores that certificate for every (K, T) with the same
product.

The gain of flipped Huber is ``10 log10(var_best_other / var_FH)`` dB (negative: FH loses).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from ..noise import (NOISE_CLASSES, OSGT, FlippedHuber, Gaussian, Laplace, Staircase, TruncatedLaplace,
                     TruncatedStaircase)
from . import staircase_pld as _SP

if TYPE_CHECKING:  # imported where a task is built (sweeps is the dask-facing module)
    from .sweeps import Task

__all__ = [
    "CANDIDATES",
    "ONE_D_CANDIDATES",
    "candidates_for",
    "COMPOSITIONS",
    "DELTAS",
    "DIMS",
    "EPSILONS",
    "NORMS",
    "BOX_BASED",
    "GAUSSIAN_MEMBER",
    "STAIRCASE_PLD",
    "QUANTILE_LEVEL",
    "abs_quantile",
    "ball_best",
    "optimum_record",
    "optimum_task",
    "optimum_grid_task",
    "run_call",
    "calibration_call",
    "candidate_label",
    "calibration_record",
    "candidate_rank",
    "declared_candidates",
    "is_box_based",
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

#: the frontier's candidates: each noise law by its key, Laplace twice (exact K-fold profile, pure DP), the staircase
#: twice (pure DP with basic composition; composed through the proven PLD of claim "pld-kfold-sup")
LAPLACE_KFOLD, LAPLACE_PURE = Laplace.name + "_kfold", Laplace.name + "_pure"
STAIRCASE_PLD = Staircase.name + "_pld"
#: the noise law each candidate calibrates
_LAW: Dict[str, Any] = {FlippedHuber.name: FlippedHuber, Gaussian.name: Gaussian, LAPLACE_KFOLD: Laplace,
                        LAPLACE_PURE: Laplace, TruncatedLaplace.name: TruncatedLaplace, Staircase.name: Staircase,
                        STAIRCASE_PLD: Staircase, OSGT.name: OSGT}
CANDIDATES: Tuple[str, ...] = tuple(_LAW)
#: candidates for one release of one coordinate only (module docstring): candidates where K T = 1 only
_LAW_1D: Dict[str, Any] = {TruncatedStaircase.name: TruncatedStaircase}
ONE_D_CANDIDATES: Tuple[str, ...] = tuple(_LAW_1D)
#: candidates whose calibration is over the box whatever the set (they cover a ball through the box)
BOX_BASED: Tuple[str, ...] = (FlippedHuber.name, LAPLACE_KFOLD, TruncatedLaplace.name, Staircase.name, STAIRCASE_PLD,
                              OSGT.name)


def candidates_for(dim: int, compositions: int = 1) -> Tuple[str, ...]:
    """The frontier's candidates of a release with K = ``dim`` coordinates and T = ``compositions``: :data:`CANDIDATES`,
    and the one-coordinate candidates (:data:`ONE_D_CANDIDATES`) where K T = 1.

    ``dim`` and ``compositions`` are integers >= 1 (``ValueError`` naming them otherwise, not truncated: 1.5 is no
    one-coordinate release).

    >>> candidates_for(1)[-1], len(candidates_for(1)) - len(candidates_for(2))
    ('truncated_staircase', 1)
    """
    from .._core import domains as V

    one = V.check_int(dim, "dim", 1) * V.check_int(compositions, "compositions", 1) == 1
    return CANDIDATES + ONE_D_CANDIDATES if one else CANDIDATES


def _has_gaussian_member(law: Any) -> bool:
    rng = getattr(law, "shape_range", None)
    return bool(rng is not None and rng[2] and law.from_family(0.0, 1.0).gaussian_sigma() is not None)


#: box-based candidates whose shape-0 member is the Gaussian (flipped Huber at alpha = 0, OSGT at vartheta = 0)
GAUSSIAN_MEMBER: Tuple[str, ...] = tuple(c for c in BOX_BASED if _has_gaussian_member(_LAW[c]))
#: OSGT's shape scan theta = vartheta/varrho in {0} U [1e-3, OSGT_THETA_MAX]: the 1-D optimum's theta grows with eps
#: (about 200 at eps = 0.3, 6e3-3e4 at eps = 3, 3e7 at eps = 10); the family default stops at 1e4
OSGT_THETA_MAX = 1e8
#: a sweep's time limit for one Gaussian calibration (they take < 0.2 s; some at large eps and small delta do not
#: finish: the 1-D search returns a scale whose float profile underflows, and the ulp search below it never ends)
GAUSSIAN_TIMEOUT = 10.0
#: the second utility: the quantile of |noise| at this level (per coordinate)
QUANTILE_LEVEL = 0.999
FH = FlippedHuber.name


def declared_candidates() -> Tuple[str, ...]:
    """The names of the laws registered by :func:`fhsym.declare_law` in this process, in registration order: each is
    an advise candidate where it is named (module docstring)."""
    from ..noise.declared import DeclaredNoise

    return tuple(n for n, c in NOISE_CLASSES.items() if isinstance(c, type) and issubclass(c, DeclaredNoise))


def _law_of(candidate: str) -> Any:
    law = _LAW.get(candidate, _LAW_1D.get(candidate))
    if law is None and candidate in declared_candidates():
        law = NOISE_CLASSES[candidate]
    return law


def is_box_based(candidate: str) -> bool:
    """Whether the candidate is calibrated over the box whatever the set (:data:`BOX_BASED` and every declared law:
    its K T-fold calibration is the exact profile over the box).

    >>> is_box_based(FH), is_box_based(Gaussian.name)
    (True, False)
    """
    return candidate in BOX_BASED or (candidate not in _LAW and candidate in declared_candidates())


def candidate_rank(candidate: str) -> int:
    """The candidate's place in a tie-break: its index in :data:`CANDIDATES`, the declared laws after them."""
    if candidate in CANDIDATES:
        return CANDIDATES.index(candidate)
    if candidate in ONE_D_CANDIDATES:
        return len(CANDIDATES) + ONE_D_CANDIDATES.index(candidate)
    declared = declared_candidates()
    n = len(CANDIDATES) + len(ONE_D_CANDIDATES)
    return n + (declared.index(candidate) if candidate in declared else len(declared))


def candidate_label(candidate: str) -> str:
    """A candidate in prose: the law's display name (Laplace with its method).

    >>> candidate_label(LAPLACE_PURE), candidate_label(FH)
    ('Laplace (pure)', 'flipped Huber')
    """
    law = _law_of(candidate)
    if law is None:
        return candidate
    display: str = law.display_name
    return {LAPLACE_KFOLD: "Laplace (exact)", LAPLACE_PURE: "Laplace (pure)",
            STAIRCASE_PLD: "staircase (PLD)"}.get(candidate, display)


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
    law = _law_of(candidate) if isinstance(candidate, str) else None
    if law is None:
        raise ValueError(f"candidate must be one of {list(CANDIDATES + ONE_D_CANDIDATES)} or a law registered by "
                         f"fhsym.declare_law "
                         f"({list(declared_candidates())}); got {candidate!r}")
    _check_release(epsilon, delta, dim, norm, compositions, sensitivity)
    K, T = int(dim), int(compositions)
    if candidate == STAIRCASE_PLD and K * T == 1:
        candidate = Staircase.name  # one coordinate, one release: nothing to compose, the staircase itself
    call: Dict[str, Any] = {"epsilon": float(epsilon), "delta": float(delta), "mechanism": law.name}
    if candidate in _LAW_1D:  # one release of one coordinate only: its exact 1-D profile
        if K * T > 1:
            raise ValueError(f"candidate {candidate!r} is calibrated for one release of one coordinate only (no K-fold "
                             f"or composed claim covers it); got dim = {K}, compositions = {T}")
        call.update(dim=1, compositions=1, sensitivity=float(sensitivity), method="auto")
        return call
    if candidate not in _LAW:  # a declared law: exact profile, over the box for K T > 1 (its certified PLD search)
        call.update(dim=K * T, compositions=1, sensitivity=float(sensitivity), method="exact" if K * T > 1 else "auto")
        return call
    if candidate in BOX_BASED or norm == "linf" or K == 1:
        call.update(dim=K * T, compositions=1, sensitivity=float(sensitivity))
    else:
        call.update(dim=K, compositions=T, **{_SET_KWARG[norm]: float(sensitivity)})
    if candidate == OSGT.name:
        call["theta_max"] = OSGT_THETA_MAX  # the shape scan reaches the 1-D optimum's theta (docs/frontier.md)
    if candidate == LAPLACE_PURE:
        call["method"] = "pure"
    elif candidate == STAIRCASE_PLD:
        call["method"] = _SP.METHOD
    elif candidate == LAPLACE_KFOLD or (candidate == FH and call["dim"] * call["compositions"] > 1):
        call["method"] = "exact"  # FH: the exact K-fold profile (a re-checkable certificate; Theorem 8 is not one)
    else:
        call["method"] = "auto"
    return call


def run_call(call: Mapping[str, Any]) -> Any:
    """The certified :class:`fhsym.Calibration` of a candidate's call: ``fhsym.calibrate(**call)``, or the composed
    staircase for its method (:func:`fhsym.applications.staircase_pld.calibrate_staircase_pld`)."""
    from ..calibration import calibrate

    if call.get("mechanism") == Staircase.name and call.get("method") == _SP.METHOD:
        rest = {k: v for k, v in call.items() if k not in ("mechanism", "method")}
        return _SP.calibrate_staircase_pld(**rest)
    return calibrate(**call)


def abs_quantile(mechanism: str, parameters: Mapping[str, Any], level: float = QUANTILE_LEVEL) -> float:
    """The ``level`` quantile of |noise| of one coordinate: ``isf((1 - level)/2)`` of the (symmetric) law.

    >>> round(abs_quantile(Laplace.name, {"beta": 1.0}), 4), round(-math.log(1 - QUANTILE_LEVEL), 4)
    (6.9078, 6.9078)
    """
    noise = NOISE_CLASSES[mechanism].from_parameters(dict(parameters))
    return float(noise.isf((1.0 - level) / 2.0))


class CalibrationTimeout(RuntimeError):
    """A frontier calibration stopped after the sweep's time limit (recorded by the sweep as an error)."""


def _with_timeout(seconds: Optional[float], fn: Any, *args: Any) -> Any:
    """``fn(*args)``, interrupted by :class:`CalibrationTimeout` after ``seconds`` (SIGALRM: main thread only, else no limit)."""
    import signal
    import threading

    if not seconds or threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGALRM"):
        return fn(*args)

    def stop(signum: int, frame: Any) -> None:
        raise CalibrationTimeout(f"the calibration did not finish within {seconds:g} s (stopped by the sweep)")

    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, float(seconds))
    try:
        return fn(*args)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0.0)
        signal.signal(signal.SIGALRM, old)


def calibration_record(**call: Any) -> Dict[str, Any]:
    """Run the call (:func:`run_call`) and return what the data file stores (the task of a frontier sweep).

    The environment variable ``FHSYM_FRONTIER_TIMEOUT`` (seconds) stops a call that runs longer (in the main
    thread: ``scripts/frontier.py run --scheduler serial``); the sweep records it as an error."""
    import os

    limit = float(os.environ.get("FHSYM_FRONTIER_TIMEOUT", "0") or 0)
    if limit and call.get("mechanism") == Gaussian.name:
        limit = min(limit, GAUSSIAN_TIMEOUT)
    cal = _with_timeout(limit, run_call, call)
    return {"mechanism": cal.mechanism.name, "parameters": dict(cal.parameters), "variance": cal.variance,
            "method": cal.method, "achieved_delta": cal.achieved_delta, "certificate": cal.certificate.to_dict()}


def optimum_record(epsilon: float, delta: float) -> Dict[str, Any]:
    """The certified interval of the least variance of any additive (eps, delta)-DP noise at Delta = 1
    (:func:`fhsym.optimal_variance`) as the data file stores it."""
    from ..optimum import optimal_variance

    iv = optimal_variance(epsilon, delta)
    return {"epsilon": iv.epsilon, "delta": iv.delta, "lower": iv.lower, "upper": iv.upper, "bins": iv.bins,
            "support": iv.support, "proven_delta": iv.proven_delta}


def ball_best(candidate: str, own: Optional[float], gaussian: Optional[float]) -> Tuple[Optional[float], str]:
    """Over an l2/l1 ball (K > 1): a candidate's best certified variance and which member gives it.

    A candidate with a Gaussian member (:data:`GAUSSIAN_MEMBER`) is the better of its box calibration and the
    Gaussian's over the ball; the others keep their box calibration.

    >>> ball_best(FH, 3.0, 2.0), ball_best(FH, 1.0, 2.0), ball_best(LAPLACE_KFOLD, 3.0, 2.0)
    ((2.0, 'gaussian'), (1.0, 'box'), (3.0, 'box'))
    """
    if candidate in GAUSSIAN_MEMBER and gaussian is not None and (own is None or gaussian < own):
        return gaussian, Gaussian.name
    return own, "box"


def frontier_task(call: Mapping[str, Any], label: str = "") -> Task:
    """The :class:`~fhsym.applications.sweeps.Task` of one calibration call."""
    from .sweeps import Task

    return Task("fhsym.applications.frontier:calibration_record", dict(call), label=label)


def optimum_task(epsilon: float, delta: float) -> Task:
    """The :class:`~fhsym.applications.sweeps.Task` of the certified optimum interval at (eps, delta), Delta = 1."""
    from .sweeps import Task

    return Task("fhsym.applications.frontier:optimum_record", {"epsilon": float(epsilon), "delta": float(delta)},
                label=f"optimum eps={epsilon:g} delta={delta:g}")


def optimum_grid_task(epsilon: float, delta: float, bins: Optional[int] = None) -> Task:
    """The :class:`~fhsym.applications.sweeps.Task` of the full optimum record at (eps, delta), Delta = 1 (its dual and
    noise: :func:`fhsym.optimum.api.compute_record`), which ``fhsym/optimum/data`` stores for every point of the
    1-D grid (``scripts/optimum_table.py --grid frontier``; a local or remote Dask cluster like every frontier sweep).
    ``bins`` overrides the automatic grid (``scripts/optimum_table.py --bins``)."""
    from .sweeps import Task

    args: Dict[str, Any] = {"epsilon": float(epsilon), "delta": float(delta)}
    if bins is not None:
        args["bins"] = int(bins)
    return Task("fhsym.optimum.api:compute_record", args,
                label=f"optimum record eps={epsilon:g} delta={delta:g}" + ("" if bins is None else f" bins={bins}"))


def gain_db(var_fh: float, var_other: float) -> float:
    """FH's gain over another mechanism in dB, 10 log10(var_other / var_FH) (negative: FH needs more noise).

    >>> round(gain_db(1.0, 2.0), 4)
    3.0103
    """
    if not (var_fh > 0 and var_other > 0):
        raise ValueError(f"variances must be > 0; got {var_fh!r}, {var_other!r}")
    return 10.0 * math.log10(var_other / var_fh)


def entry(variances: Mapping[str, Optional[float]], members: Optional[Mapping[str, str]] = None) -> Dict[str, Any]:
    """Rank the candidates of one release: ``{"ranking", "best", "fh_gain_db", "best_other", "complete"}``.

    ``variances`` maps each candidate to its certified variance (``None``: not computed).
    ``members`` (balls, :func:`ball_best`) names the candidates whose variance is that of their Gaussian
    member: at a tie the Gaussian itself ranks first.  ``fh_gain_db`` is FH's gain over the best *other*
    computed candidate (``None`` without FH); ``complete`` says whether every candidate was computed.

    >>> e = entry({FH: 1.0, Gaussian.name: 2.0, LAPLACE_KFOLD: None})
    >>> e["best"] == FH, round(e["fh_gain_db"], 3), e["complete"]
    (True, 3.01, False)
    """
    have = {c: float(v) for c, v in variances.items() if v is not None}
    via = dict(members or {})
    ranking = sorted(have, key=lambda c: (have[c], via.get(c) == Gaussian.name, candidate_rank(c)))
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


def calls_of(release: Mapping[str, Any], candidates: Optional[Sequence[str]] = None) -> Dict[str, Dict[str, Any]]:
    """The calibration call of each candidate for one release (default: :func:`candidates_for` the release)."""
    if candidates is None:
        candidates = candidates_for(release["dim"], release["compositions"])
    return {c: calibration_call(c, release["epsilon"], release["delta"], release["dim"], release["norm"],
                                release["compositions"]) for c in candidates}
