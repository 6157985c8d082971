"""``fhsym.advise``: every mechanism's certified calibration for one release, best first.

For a release (epsilon, delta, K coordinates, T compositions, a sensitivity set: the l_inf box,
the l2 ball or the l1 ball of radius ``sensitivity``) the advisor calibrates each candidate of
:mod:`fhsym.applications.frontier` with :func:`fhsym.calibrate` and ranks them by per-coordinate
variance.  Where the frontier data file (``fhsym/applications/data/frontier.json.gz``) holds the same
calibration call and its certificate matches the request, the record is reused; everything else is computed, the
cheap mechanisms first.  The advisor reads the data file's shard of the requested (epsilon, delta)
(:mod:`fhsym.applications.frontier_shards`: 0.5 MB of the 48 MB, built from that very file) and the whole file only
where there is none.  A recorded certificate is served only if :func:`fhsym.verify_certificate` proved it: when the
data were built (the shard's record of the data file's bulk re-check says it was proven and did not fail, and the
SHA-256 of the shard's certificates, recomputed from the bytes loaded, equals the digest that re-check recorded) or
now, in this call (every record that is not so covered, and every record with ``reverify=True``).

The box-based candidates (flipped Huber, K-fold Laplace, truncated Laplace, OSGT, both staircases)
cover an l2 / l1 ball through the box that contains it (see :mod:`fhsym.applications.frontier`);
over a ball flipped Huber and OSGT are the better of that and their Gaussian member (alpha = 0,
vartheta = 0), which is the Gaussian's calibration (:func:`fhsym.applications.frontier.ball_best`).
In one coordinate (dim = compositions = 1) the advice also holds the certified interval of the least
variance of *any* additive noise (:func:`fhsym.optimal_variance`: at a point of its data file, which covers the
frontier's 1-D grid, the recorded dual and noise re-checked in exact rationals), and each option's variance above
its lower end.

A recorded certificate re-verified now is re-verified once per process: the calibration rebuilt from it is memoised
by the SHA-256 digest of (call, certificate, method), so the same advice asked again costs no re-derivation (the
verdict is a deterministic function of those bytes; a changed record has another digest and is verified afresh).

>>> import fhsym
>>> adv = fhsym.advise(1.0, 1e-6, data=False, candidates=("gaussian", "laplace_pure", "staircase"))
>>> [o.candidate for o in adv.options], round(adv.gain_db, 3)
(['staircase', 'laplace_pure', 'gaussian'], 0.182)
"""

from __future__ import annotations

import gzip
import hashlib
import json
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, Mapping, Optional, Sequence, Tuple, Union

from .._core.limits import REUSE_BUDGET, Budget, OverBudget
from .._core.sensitivities import resolve_sensitivities
from ..calibration import Calibration
from ..calibration.verify import verify_certificate
from ..noise import NOISE_CLASSES, OSGT, Gaussian, Staircase, TruncatedLaplace
from ..privacy.certificate import Certificate
from .frontier import (CANDIDATES, FH, GAUSSIAN_MEMBER, LAPLACE_KFOLD, LAPLACE_PURE, NORMS, ONE_D_CANDIDATES,
                       QUANTILE_LEVEL, STAIRCASE_PLD, ball_best, calibration_call, candidate_label, candidate_rank,
                       candidates_for, declared_candidates, gain_db, is_box_based, run_call)
from .frontier_shards import Shard, call_key, load_shard

__all__ = ["Advice", "Option", "Optimum", "advise", "default_data_path", "load_frontier_calibrations", "ratio_text",
           "optimum_interval"]

#: cheap first: the order in which the advisor computes what the data file does not hold
_ORDER = (Gaussian.name, LAPLACE_PURE, Staircase.name, STAIRCASE_PLD, FH, LAPLACE_KFOLD, TruncatedLaplace.name,
          OSGT.name)


def _order(candidate: str) -> int:  # the declared laws (fhsym.declare_law) last
    return _ORDER.index(candidate) if candidate in _ORDER else len(_ORDER)


def default_data_path() -> Path:
    """The frontier data file shipped with the package (``FHSYM_FRONTIER_DATA`` overrides it).

    It is package data (``fhsym/applications/data/frontier.json.gz``, declared in pyproject.toml), so an
    installed wheel reads the same file as a source checkout.
    """
    env = os.environ.get("FHSYM_FRONTIER_DATA")
    if env:
        return Path(env)
    return Path(__file__).resolve().parent / "data" / "frontier.json.gz"


def ratio_text(ratio: float) -> str:
    """A variance ratio as a person reads it: the relative change in percent and in decibels.

    ``100 (r - 1) %`` and ``10 log10(r) dB``, three significant digits each, so that ratios near 1
    stay visible (``1.0004`` is not ``1x``); from ``r >= 10`` on the change is written as ``r x``.

    >>> ratio_text(1.0004)
    '+0.04 % (+0.00174 dB)'
    >>> ratio_text(8.92), ratio_text(0.5), ratio_text(1.0), ratio_text(250.0)
    ('+792 % (+9.5 dB)', '-50 % (-3.01 dB)', '+0 % (+0 dB)', '250x (+24 dB)')
    """
    r = float(ratio)
    if not (r > 0 and math.isfinite(r)):
        return f"{r:g}x"
    change = f"{r:.3g}x" if r >= 10 else f"{100.0 * (r - 1.0):+.3g} %"
    return f"{change} ({10.0 * math.log10(r):+.3g} dB)"


_LOADED: Dict[Tuple[str, float], Dict[str, Any]] = {}
#: calibrations rebuilt from records whose certificates re-verified, by the digest of (call, certificate, method)
_REUSED: Dict[bytes, Calibration] = {}
#: calibrations rebuilt from shard records whose certificates were verified when the data were built (same digest)
_BUILT: Dict[bytes, Calibration] = {}
_ERRORS: Dict[Tuple[str, float], Dict[str, str]] = {}


def load_frontier_calibrations(path: Union[str, Path]) -> Dict[str, Any]:
    """``{call_key: record}`` of a frontier data file (memoised by path and modification time).

    The file is JSON, gzip-compressed when its name ends in ``.gz``.  A missing file gives ``{}``;
    a malformed one raises ``ValueError``.
    """
    p = Path(path)
    try:
        stamp = p.stat().st_mtime
    except OSError:
        return {}
    k = (str(p.resolve()), stamp)
    if k not in _LOADED:
        try:
            raw = gzip.decompress(p.read_bytes()) if p.suffix == ".gz" else p.read_bytes()
            data = json.loads(raw)
            cals = data["calibrations"]
        except (OSError, EOFError, json.JSONDecodeError, UnicodeDecodeError, KeyError, TypeError) as exc:
            raise ValueError(f"{str(p)!r} is not a frontier data file: {exc}") from None
        _LOADED.clear()
        _LOADED[k] = {call_key(rec["call"]): rec for rec in cals.values()}
        _ERRORS.clear()
        _ERRORS[k] = dict(data.get("errors", {}))
    return _LOADED[k]


def _recorded_errors(path: Union[str, Path]) -> Dict[str, str]:
    """``{call_key: error}`` of the calls a frontier data file records as failed."""
    load_frontier_calibrations(path)
    p = Path(path)
    try:
        return _ERRORS.get((str(p.resolve()), p.stat().st_mtime), {})
    except OSError:
        return {}


@dataclass(frozen=True)
class Optimum:
    """``lower <= V* <= upper``: the least variance of any additive (eps, delta)-DP noise at the sensitivity, certified."""

    lower: float
    upper: float
    source: str

    def to_dict(self) -> Dict[str, Any]:
        return {"lower": self.lower, "upper": self.upper, "source": self.source}

    @property
    def width(self) -> float:
        """``upper / lower - 1`` (inf if ``lower`` is 0)."""
        return self.upper / self.lower - 1.0 if self.lower > 0 else math.inf

    def excess(self, variance: float) -> Tuple[float, float]:
        """The certified interval of ``variance / V* - 1``: (over ``upper``, clipped at 0; over ``lower``)."""
        hi = variance / self.lower - 1.0 if self.lower > 0 else math.inf
        return max(0.0, variance / self.upper - 1.0), hi

    def excess_text(self, variance: float) -> str:
        """:meth:`excess` in percent, e.g. ``'4.28 to 4.35 %'``."""
        lo, hi = self.excess(variance)
        return f"{_pct(100.0 * lo)} to {_pct(100.0 * hi)} %"

    def __str__(self) -> str:
        return f"in [{self.lower:.7g}, {self.upper:.7g}] (width {_pct(100.0 * self.width)} %; {self.source})"


def _pct(x: float) -> str:
    """A percentage: three significant digits below 100, four above (so that close ends stay distinct)."""
    return f"{x:.3g}" if x < 100 else f"{x:.4g}"


def optimum_interval(epsilon: float, delta: float, sensitivity: float = 1.0) -> Optional[Optimum]:
    """The certified optimum interval at (eps, delta, Delta): :func:`fhsym.optimal_variance`, which answers a point of
    its data file (the frontier's 1-D grid) from the record, its dual and noise re-checked in exact rationals first
    (memoised per record), and solves the LP elsewhere; None where that is not defined (eps > 20).

    (The frontier data file's ``optimum`` list carries no dual, so it cannot be re-checked: it is not used here.)

    >>> iv = optimum_interval(1.0, 1e-6)
    >>> round(iv.lower, 4), round(iv.upper, 4), iv.source
    (1.9167, 1.9179, 'recorded (fhsym/optimum/data, dual and noise re-checked)')
    """
    from ..optimum import optimal_variance
    from ..optimum.api import EPSILON as OPT_EPSILON

    if not (0.0 < epsilon <= OPT_EPSILON.upper):
        return None
    iv = optimal_variance(epsilon, delta, sensitivity)
    source = ("recorded (fhsym/optimum/data, dual and noise re-checked)" if iv.source.startswith("recorded")
              else "computed (fhsym.optimal_variance)")
    return Optimum(iv.lower, iv.upper, source)


@dataclass(frozen=True)
class Option:
    """One candidate's certified calibration for the release."""

    candidate: str
    calibration: Calibration
    source: str
    call: Dict[str, Any]
    covers: str

    @property
    def variance(self) -> float:
        return self.calibration.variance

    def __repr__(self) -> str:
        return (f"Option({self.candidate!r}, variance={self.variance:.7g}, method={self.calibration.method!r}, "
                f"source={self.source!r})")

    @property
    def quantile(self) -> float:
        """The per-coordinate |noise| quantile at :data:`~fhsym.applications.frontier.QUANTILE_LEVEL` (0.999)."""
        return float(self.calibration.mechanism.isf((1.0 - QUANTILE_LEVEL) / 2.0))

    def to_dict(self) -> Dict[str, Any]:
        cal = self.calibration
        return {"candidate": self.candidate, "mechanism": cal.mechanism.name, "variance": cal.variance,
                "abs_quantile": {"level": QUANTILE_LEVEL, "value": self.quantile},
                "parameters": dict(cal.parameters), "method": cal.method, "achieved_delta": cal.achieved_delta,
                "source": self.source, "covers": self.covers, "calibrate": self.call,
                "certificate": cal.certificate.to_dict()}


@dataclass(frozen=True)
class Advice:
    """The candidates for one release, sorted by certified per-coordinate variance (best first)."""

    epsilon: float
    delta: float
    dim: int
    norm: str
    compositions: int
    sensitivity: float
    options: Tuple[Option, ...]
    failed: Tuple[Tuple[str, str], ...] = ()
    optimum: Optional[Optimum] = None

    @property
    def best(self) -> Option:
        return self.options[0]

    @property
    def gain_db(self) -> float:
        """The best option's advantage over the runner-up, 10 log10(var_2 / var_1) dB (>= 0)."""
        return gain_db(self.options[0].variance, self.options[1].variance) if len(self.options) > 1 else math.nan

    @property
    def fh_gain_db(self) -> Optional[float]:
        """Flipped Huber's gain over the best other candidate in dB (negative: it loses); None if not ranked."""
        fh = [o for o in self.options if o.candidate == FH]
        others = [o for o in self.options if o.candidate != FH]
        return gain_db(fh[0].variance, others[0].variance) if fh and others else None

    def verdict(self) -> str:
        """One sentence: the option with the least variance, the runner-up's extra variance and, when flipped Huber
        is neither, flipped Huber's extra variance over the best."""
        best = self.options[0]
        text = f"{candidate_label(best.candidate)} needs the least variance"
        if len(self.options) == 1:
            return text + " (the only candidate certified)"
        runner = self.options[1]
        text += (f"; the runner-up, {candidate_label(runner.candidate)}, needs {ratio_text(runner.variance / best.variance)}"
                 " more")
        fh = [(i, o) for i, o in enumerate(self.options, 1) if o.candidate == FH]
        if fh and fh[0][0] > 2:
            i, o = fh[0]
            text += f"; flipped Huber (#{i}) needs {ratio_text(o.variance / best.variance)} more"
        return text

    def __str__(self) -> str:
        """One screen: the release, the ranking (variance, extra variance over the best, the certified distance to the
        optimum in one coordinate), one verdict.  The full data: ``options``, ``to_dict()``.

        >>> adv = advise(1.0, 1e-6, data=False, candidates=("gaussian", "laplace_pure", "staircase"))
        >>> print(adv)  # doctest: +NORMALIZE_WHITESPACE
        (1, 1e-06)-DP, 1 coordinate, 1 release, sensitivity: linf ball of radius 1
        per-coordinate variance, certified, best first:
          #  mechanism       variance  over the best        above the optimum   method    source
          1  staircase       1.918104  best                 0.0129 to 0.0751 %  pure      computed
          2  Laplace (pure)  2         +4.27 % (+0.182 dB)  4.28 to 4.35 %      pure      computed
          3  Gaussian        17.84791  +830 % (+9.69 dB)    830.6 to 831.2 %    exact-1d  computed
        verdict: staircase needs the least variance; the runner-up, Laplace (pure), needs +4.27 % (+0.182 dB) more
        optimum of any additive noise: in [1.916664, 1.917856] (width 0.0622 %; recorded (fhsym/optimum/data, dual and noise re-checked)); 'above the optimum': the excess over its upper end to the excess over its lower end
        """
        plural = {1: ""}
        lines = [f"({self.epsilon:g}, {self.delta:g})-DP, {self.dim} coordinate{plural.get(self.dim, 's')}, "
                 f"{self.compositions} release{plural.get(self.compositions, 's')}, "
                 f"sensitivity: {self.norm} ball of radius {self.sensitivity:g}",
                 "per-coordinate variance, certified, best first:"]
        opt = self.optimum
        rows = [("#", "mechanism", "variance", "over the best") + (("above the optimum",) if opt else ())
                + ("method", "source")]
        best = self.options[0].variance
        for i, o in enumerate(self.options, 1):
            over = "best" if i == 1 else ratio_text(o.variance / best)
            src = "data" if o.source.startswith("frontier") else ("Gaussian" if o.source.startswith("its") else "computed")
            above = ((opt.excess_text(o.variance),) if opt else ())
            rows.append((str(i), candidate_label(o.candidate), f"{o.variance:.7g}", over) + above
                        + (o.calibration.method, src))
        widths = [max(len(r[j]) for r in rows) for j in range(len(rows[0]))]
        lines += ["  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
        lines.append("verdict: " + self.verdict())
        if opt is not None:
            lines.append(f"optimum of any additive noise: {opt}; 'above the optimum': the excess over its upper end to "
                         "the excess over its lower end")
        lines += [f"data: {n}" for n in sorted({o.source for o in self.options if o.source.startswith("frontier")})]
        lines += [f"note: {n}" for n in sorted({o.covers for o in self.options if o.covers})]
        lines += [f"not calibrated: {c}: {e}" for c, e in self.failed]
        return "\n".join(lines)

    def __repr__(self) -> str:
        """The table of :meth:`__str__` (a REPL shows one screen, not every certificate); ``options`` and
        ``to_dict()`` hold everything."""
        return str(self) + "\n(an fhsym Advice: .best, .options (each with its certified .calibration), .to_dict())"

    def to_dict(self) -> Dict[str, Any]:
        gain = self.gain_db
        return {"epsilon": self.epsilon, "delta": self.delta, "dim": self.dim, "norm": self.norm,
                "compositions": self.compositions, "sensitivity": self.sensitivity,
                "best": self.best.candidate, "gain_over_runner_up_db": None if math.isnan(gain) else gain,
                "fh_gain_db": self.fh_gain_db, "options": [o.to_dict() for o in self.options],
                "failed": [{"candidate": c, "error": e} for c, e in self.failed],
                "optimum": None if self.optimum is None else self.optimum.to_dict()}


def _covers(candidate: str, call: Dict[str, Any], dim: int, norm: str, compositions: int) -> str:
    K, T, KT = dim, compositions, dim * compositions
    text = []
    if call["dim"] != dim or call["compositions"] != compositions:
        text.append(f"{T} release(s) of {K} coordinates calibrated as one release of {KT} coordinates (the same "
                    f"mechanism over the box)")
    if norm != "linf" and K > 1 and is_box_based(candidate):
        text.append(f"covers the {norm} ball through the l_inf box of the same radius that contains it")
    return "; ".join(text)


def _from_record(rec: Dict[str, Any], call: Dict[str, Any], budget: Budget = REUSE_BUDGET,
                 verified: bool = False) -> Optional[Calibration]:
    """The Calibration of a data-file record, or None unless its certificate matches ``call`` and re-verifies now
    (:class:`fhsym._core.limits.OverBudget` when its re-check would cost more than ``budget``); ``verified``: the
    caller established that :func:`fhsym.verify_certificate` proved these very bytes when the data were built
    (:func:`fhsym.applications.frontier_shards.load_shard`), so it is not re-checked.  A success is memoised by the
    digest of (call, certificate, method) (module docstring), separately for the two ways."""
    try:
        key = hashlib.sha256(json.dumps([call, rec["certificate"], rec.get("method")], sort_keys=True,
                                        allow_nan=False).encode()).digest()
    except (KeyError, TypeError, ValueError):
        return None
    memo = _BUILT if verified else _REUSED
    hit = memo.get(key)
    if hit is not None:
        return hit
    cal = _rebuild(rec, call, budget, check=not verified)
    if cal is not None:
        memo[key] = cal
    return cal


def _rebuild(rec: Dict[str, Any], call: Dict[str, Any], budget: Budget, check: bool = True) -> Optional[Calibration]:
    try:
        cert = Certificate.from_dict(rec["certificate"])
    except (KeyError, ValueError):
        return None
    K, D, D2, D1 = resolve_sensitivities(call["dim"], call.get("sensitivity"), call.get("l2_sensitivity"),
                                         call.get("l1_sensitivity"))
    want = (call["mechanism"], call["epsilon"], call["delta"], K, call["compositions"], D, D2, D1)
    have = (cert.mechanism, cert.epsilon, cert.target_delta, cert.dim, cert.compositions, cert.sensitivity,
            cert.l2_sensitivity, cert.l1_sensitivity)
    if want != have or not cert.holds:
        return None
    try:
        if check and not verify_certificate(cert, budget):
            return None
    except OverBudget:
        raise
    except (ValueError, KeyError):
        return None
    try:
        noise = NOISE_CLASSES[cert.mechanism].from_parameters(cert.parameters)
    except (ValueError, KeyError):
        return None
    return Calibration(mechanism=noise, epsilon=cert.epsilon, target_delta=cert.target_delta,
                       achieved_delta=cert.upper, sensitivity=cert.sensitivity, l2_sensitivity=cert.l2_sensitivity,
                       l1_sensitivity=cert.l1_sensitivity, dim=cert.dim, variance=noise.var(),
                       method=str(rec.get("method", cert.method)), certificate=cert, compositions=cert.compositions)


def advise(epsilon: float, delta: float, dim: int = 1, norm: str = "linf", compositions: int = 1, *,
           sensitivity: float = 1.0, data: Union[None, bool, str, Path] = None,
           candidates: Optional[Sequence[str]] = None, progress: Optional[Callable[[str], None]] = None,
           budget: Budget = REUSE_BUDGET, reverify: bool = False) -> Advice:
    """Certified calibrations of every candidate mechanism for one release, sorted by variance.

    Parameters
    ----------
    epsilon : float > 0;  delta : float in (0, 1)
    dim : int >= 1 (K coordinates);  compositions : int >= 1 (T releases)
    sensitivity : float > 0, the radius of the sensitivity set (default 1)
    norm : ``"linf"``, ``"l2"`` or ``"l1"``: the sensitivity set is that norm's ball of radius ``sensitivity``
    data : the frontier data file to reuse (default :func:`default_data_path`, if it exists);
        ``False`` computes everything; ``True`` or a path naming no file raises ``ValueError``.  Its shard of (epsilon, delta) is read where one was built from that file
        (:mod:`fhsym.applications.frontier_shards`), else the whole file
    candidates : names from :data:`fhsym.applications.frontier.CANDIDATES`, its
        :data:`~fhsym.applications.frontier.ONE_D_CANDIDATES` (the truncated staircase: one release of one coordinate
        only; named for K T > 1 it is listed in ``failed`` with the reason: no K-fold or composed claim covers it)
        and of laws registered by :func:`fhsym.declare_law` (:func:`fhsym.applications.frontier.declared_candidates`).
        Default (``None``): the frontier's candidates of the release,
        :func:`~fhsym.applications.frontier.candidates_for` ``(dim, compositions)``: :data:`CANDIDATES`, and the
        one-coordinate candidates where K T = 1, the set the frontier data file and the advisor page hold.  A declared
        law is a candidate only when named, e.g. ``candidates=(*CANDIDATES, "logistic")`` (the frontier module's
        docstring says why)
    progress : called with a line of text before each calibration that is computed (the CLI prints it)
    budget : the most the re-check of one recorded certificate may cost (:class:`fhsym._core.limits.Budget`, default
        :data:`~fhsym._core.limits.REUSE_BUDGET`, 10 s and 512 MB); a recorded calibration whose re-check would cost
        more is listed in ``failed`` with the estimate, not served unchecked and not recomputed (at dim = 100000 the
        K-fold Laplace certificate's re-check is estimated at ~50 s); it bounds the re-checks made now, not a record
        served as proven when the data were built (which ``reverify=True`` re-checks within it); another budget than
        the default with ``data=False`` raises ``ValueError`` (no record is read)
    reverify : re-check every recorded certificate now with :func:`fhsym.verify_certificate` (memoised per process),
        also those the shard's digest shows were proven when the data were built (default False: those are served
        as verified then, their option's ``source`` says so and when; every other record is re-checked now);
        ``True`` with ``data=False`` raises ``ValueError`` (no record is read)

    Returns
    -------
    Advice
        ``options`` best first (each a certified :class:`fhsym.Calibration` with its source: the
        data file, its certificate verified when the data were built or re-verified now, or computed now),
        ``gain_db`` over the runner-up, ``fh_gain_db``.
        A candidate whose calibration fails (e.g. too large a dim for the exact K-fold search) is
        listed in ``failed`` with the error.

    The option of each candidate equals ``fhsym.calibrate(**option.call)``.

    Examples
    --------
    >>> adv = advise(2.0, 1e-6, data=False, candidates=("gaussian", "laplace_pure"))
    >>> adv.best.candidate, round(adv.best.variance, 3), round(adv.gain_db, 2)
    ('laplace_pure', 0.5, 9.98)
    """
    known = CANDIDATES + ONE_D_CANDIDATES + declared_candidates()
    try:  # the release's frontier candidates (candidates_for: K T = 1 adds the one-coordinate ones)
        release_candidates: Tuple[str, ...] = candidates_for(dim, compositions)
    except ValueError:  # dim or compositions no integer >= 1: refused below, by the calibration's check naming it
        release_candidates = CANDIDATES
    one = set(ONE_D_CANDIDATES) <= set(release_candidates)  # K T = 1
    if candidates is None:
        candidates = release_candidates
    if isinstance(candidates, str):
        raise ValueError(f"candidates must be a sequence of names from {list(known)}; got the string {candidates!r}")
    cands = tuple(candidates)
    bad = [c for c in cands if c not in known]
    if bad or not cands or len(set(cands)) != len(cands):
        raise ValueError(f"candidates must be a non-empty subset of {list(CANDIDATES + ONE_D_CANDIDATES)} and the "
                         f"declared laws "
                         f"{list(declared_candidates())} (fhsym.declare_law) without repeats; got {list(cands)!r}")
    if progress is not None and not callable(progress):
        raise ValueError(f"progress must be a callable taking one line of text, or None; got {progress!r}")
    if not (data is None or isinstance(data, (bool, str, os.PathLike))):
        raise ValueError(f"data must be None, True, False or the path of a frontier data file; got {data!r}")
    if not isinstance(budget, Budget):
        raise ValueError(f"budget must be a fhsym._core.limits.Budget; got {type(budget).__name__}")
    if not isinstance(reverify, bool):
        raise ValueError(f"reverify must be True or False; got {reverify!r}")
    if reverify and data is False:  # nothing is read, so nothing would be re-checked: refuse the unused flag
        raise ValueError("reverify=True re-checks the frontier data's records, but data=False (--no-data) reads none: "
                         "every calibration is computed now")
    if budget != REUSE_BUDGET and data is False:  # it bounds the re-check of a record: with none read, refuse it
        raise ValueError(f"budget bounds the re-check of the frontier data's records, but data=False (--no-data) reads "
                         f"none: every calibration is computed now; got budget={budget!r}")
    options, failed = [], []
    if not one:  # the one-coordinate candidates have no K-fold or composed claim
        failed += [(c, f"calibrated for one release of one coordinate only (no K-fold or composed claim covers it); "
                       f"got dim = {dim}, compositions = {compositions}") for c in cands if c in ONE_D_CANDIDATES]
        cands = tuple(c for c in cands if c not in ONE_D_CANDIDATES)
    calls = {c: calibration_call(c, epsilon, delta, dim, norm, compositions, sensitivity) for c in cands}
    seen_calls = set()
    for c in sorted(cands, key=candidate_rank):  # one option per distinct call (the PLD staircase in 1-D is the staircase)
        k = call_key(calls[c])
        if k in seen_calls:
            del calls[c]
        seen_calls.add(k)
    path = default_data_path() if data is None or data is True else (None if data is False else Path(os.fspath(data)))
    if path is not None and not path.is_file():  # nothing to read: refuse what only a read would use
        if data is not None:
            raise ValueError(f"data={data!r} names no frontier data file: {str(path)!r} does not exist (data=None "
                             "reuses the shipped file where it exists; data=False computes everything)")
        if reverify or budget != REUSE_BUDGET:
            raise ValueError(f"{'reverify=True' if reverify else f'budget={budget!r}'} bounds or repeats the re-check "
                             f"of the frontier data's records, but there is no data file ({str(path)!r} does not exist)")
        path = None
    shard: Optional[Shard] = None if path is None else load_shard(path, float(epsilon), float(delta))
    records: Mapping[str, Any] = ({} if path is None else load_frontier_calibrations(path)) if shard is None else shard.records
    recorded_errors: Mapping[str, str] = ({} if path is None else _recorded_errors(path)) if shard is None else shard.errors
    for c in sorted(calls, key=_order):
        call = calls[c]
        rec = records.get(call_key(call))
        built = shard is not None and not reverify and call_key(call) in shard.verified
        try:
            cal = _from_record(rec, call, budget, verified=built) if rec is not None else None
        except OverBudget as exc:
            failed.append((c, f"the frontier data holds this calibration, but {exc}; advise(..., budget=Budget(...)) "
                              f"re-checks it"))
            continue
        source = "frontier data (certificate re-verified)"
        if built and shard is not None:
            source = (f"frontier data (certificate proven by {shard.by} when the data were built, {shard.at}; "
                      f"reverify=True / --reverify re-checks it now)")
        if cal is None and call_key(call) in recorded_errors:  # a call the sweep could not calibrate: not re-run
            failed.append((c, f"the frontier data records that this calibration failed ({recorded_errors[call_key(call)]}); "
                              f"--no-data (data=False) tries again"))
            continue
        if cal is None:
            source = "computed"
            if progress is not None:
                progress(f"fhsym advise: calibrating {c} (dim {call['dim']}, compositions {call['compositions']}) ...")
            try:
                cal = run_call(call)
            except ValueError as exc:  # includes CalibrationError
                failed.append((c, " ".join(str(exc).split())))
                continue
        options.append(Option(c, cal, source, call, _covers(c, call, dim, norm, compositions)))
    if not options:
        raise ValueError(f"no candidate could be calibrated: {failed}")
    if norm != NORMS[0] and dim > 1:  # a ball: FH and OSGT at shape 0 are the Gaussian
        gauss = next((o for o in options if o.candidate == Gaussian.name), None)
        for i, o in enumerate(options):
            if o.candidate in GAUSSIAN_MEMBER and gauss is not None:
                _, via = ball_best(o.candidate, o.variance, gauss.variance)
                if via != "box":
                    options[i] = Option(o.candidate, gauss.calibration, "its Gaussian member: " + gauss.source,
                                        gauss.call, f"{candidate_label(o.candidate)} at shape 0 is the Gaussian: its "
                                        f"calibration over the {norm} ball beats its box calibration (variance "
                                        f"{o.variance:.7g})")
    # best first; at a tie the Gaussian itself before a Gaussian member standing in for FH or OSGT
    options.sort(key=lambda o: (o.variance, o.source.startswith("its Gaussian member"), candidate_rank(o.candidate)))
    optimum = None
    if int(dim) == 1 and int(compositions) == 1:
        optimum = optimum_interval(float(epsilon), float(delta), float(sensitivity))
    return Advice(float(epsilon), float(delta), int(dim), norm, int(compositions), float(sensitivity), tuple(options),
                  tuple(failed), optimum)
