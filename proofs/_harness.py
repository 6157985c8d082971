"""The proofs registry: topics, checks, statuses, the runner (the report is in :mod:`proofs._report`).

A *topic* is a module or package of ``proofs`` that defines a module-level
``topic = Topic(name, title, order)`` and registers its checks with the
``@topic.check(...)`` decorator::

    from ._harness import Topic, proven

    topic = Topic("distribution", "The flipped Huber distribution (A1-A5)", order=10)

    @topic.check(obj="omega", paper="eq 9", claim="omega >= sqrt(2 pi)")
    def prop1(ctx):
        ...
        return proven(ok, "SymPy: f(0) = 0, f' >= 0", evidence=[...])

A check is a function of a :class:`Context` (quick mode, deterministic random
generators) returning an :class:`Outcome` with exactly one status.  The vocabulary is
defined here once (:data:`STATUSES`, :data:`LABELS`, :data:`LABEL_MEANING`); ``proofs/REPORT.md``
and ``docs/errata.md`` use these words only (``tests/test_proofs_report.py`` checks both):

* ``PROVEN``: a symbolic identity or derivation closed by SymPy (every step);
* ``VERIFIED``: numeric; the outcome states how many points, at how many digits, and the worst error;
* ``CONTROL``: a negative control: at a stress point a naive float64 form is measurably wrong and the
  stable kernel right; the outcome states the point, the reference's digits, the kernel's error and
  what the naive form gives (one point: it shows a failure mode, it verifies nothing in general);
* ``ERRATUM CONFIRMED``: the paper's statement fails; the outcome carries the erratum id and the counterexample;
* ``NOT REPRODUCED``: fhsym could not reproduce a number or claim of the paper (that is not a proof that
  the paper is wrong); the outcome states what was tried and what was found;
* ``CROSS-CHECK``: fhsym code compared with fhsym code (consistency, not an independent reference);
* ``FAIL``: the check did not establish its claim (an exception is a FAIL).

Documents add one label that no check can return: ``HAND PROOF``, an argument written out by hand
(always with where it is written), never called PROVEN.

The harness enforces the contract (a VERIFIED outcome without points, digits or
worst error, a CONTROL without its point, digits, kernel error or naive value, an erratum
without its counterexample, a NOT REPRODUCED without what was tried and found, an undeclared
erratum id: FAIL).  Checks are independent; with ``jobs > 1`` every check runs in its own
process forked from the same parent, so a check's numbers do not depend on which
checks ran before it (mpmath memoises constants at the precision first asked).
"""

from __future__ import annotations

import gc
import importlib
import os
import pickle
import pkgutil
import sys
import time
import traceback
import warnings
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Set, Tuple, TypeVar

import numpy as np

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.context import ForkProcess

    from fhsym.applications.sweeps import Task

__all__ = [
    "PROVEN", "VERIFIED", "CONTROL", "ERRATUM", "NOT_REPRODUCED", "CROSS", "FAIL", "STATUSES", "PASS",
    "HAND_PROOF", "LABELS", "LABEL_MEANING", "ERRATUM_STATUSES",
    "Outcome", "Check", "Result", "Topic", "Context",
    "proven", "verified", "negative_control", "erratum_confirmed", "not_reproduced", "cross_check", "failed",
    "discover", "select", "run", "longest_first", "recorded_times", "record_times", "format_table", "format_times", "render_report",
]

PROVEN = "PROVEN"
VERIFIED = "VERIFIED"
CONTROL = "CONTROL"
ERRATUM = "ERRATUM CONFIRMED"
NOT_REPRODUCED = "NOT REPRODUCED"
CROSS = "CROSS-CHECK"
FAIL = "FAIL"
STATUSES = (PROVEN, VERIFIED, CONTROL, ERRATUM, NOT_REPRODUCED, CROSS, FAIL)
ERRATUM_STATUSES = (ERRATUM, NOT_REPRODUCED)  # the statuses that speak about a statement of the paper
HAND_PROOF = "HAND PROOF"  # documents only: an argument written by hand (never PROVEN)
LABELS = tuple(s for s in STATUSES if s != FAIL) + (HAND_PROOF,)  # the words docs/errata.md may use
LABEL_MEANING: Dict[str, str] = {
    PROVEN: "a symbolic identity or derivation closed by SymPy at every step (numeric spot checks, where present, only confirm it)",
    VERIFIED: "numeric: the row says how many points, at how many significant digits, and the worst error; "
    "the reference is independent of fhsym's code (mpmath quadrature of the definitions in `proofs/reference.py`, "
    "the paper's formula at high precision, or exact rational arithmetic)",
    CONTROL: "a negative control at one stress point: a naive float64 form of the paper's formula is measurably wrong there "
    "(relative error >= 1e-7 or not finite) and the stable kernel right; the row gives the point, the kernel's and the naive "
    "form's errors against mpmath. It shows why the stable form exists; it verifies nothing beyond that point",
    ERRATUM: "the paper's statement fails: the counterexample is in the row; the corrected statement is checked in the same row "
    "(see `docs/errata.md`)",
    NOT_REPRODUCED: "fhsym could not reproduce a number or claim of the paper; the row says what was tried and what was found. "
    "Not a proof that the paper is wrong",
    CROSS: "fhsym code against fhsym code (e.g. float kernels against fhsym's SymPy objects, or one fhsym algorithm "
    "against another): consistency, not an independent reference",
    FAIL: "the check did not establish its claim",
    HAND_PROOF: "(documents only, no check returns it) an argument written out by hand, cited with where it is written; "
    "checks of its steps carry their own statuses",
}
PASS = "PASS"  # Result.verdict of every status but FAIL (what `fhsym verify` counts)
AMBIENT_DPS = 60  # mpmath precision in effect while a check runs

PACKAGE = __name__.rpartition(".")[0]  # "proofs" in a checkout, "fhsym._proofs" in the wheel
PACKAGE_DIR = Path(__file__).resolve().parent
# modules of the package that are not topics: the ground-truth harnesses (reference*.py) and the CLI
_NOT_TOPICS = {"__main__"}
_NOT_TOPIC_PREFIXES = ("_", "reference")
TOPICS: Dict[str, "Topic"] = {}  # every Topic constructed, by name
#: a check: ``fn(ctx) -> Outcome``
CheckFunction = Callable[["Context"], "Outcome"]


@dataclass
class Outcome:
    """What a check function returns (build it with :func:`proven`, :func:`verified`, ...).

    ``worst`` is the displayed worst error (a preformatted string, see
    :mod:`proofs._fmt`), ``where`` the point where it occurs, ``evidence``
    markdown lines for the report's details; ``points`` and ``digits`` (VERIFIED)
    say how many points were evaluated and at what precision; ``erratum`` the id
    of the erratum the check confirms (ERRATUM CONFIRMED), could not reproduce
    (NOT REPRODUCED) or bears on (any other status); ``counterexample`` the one-line
    counterexample of a confirmed erratum; ``naive`` what the naive form gives at a
    CONTROL's stress point; ``tried`` and ``found`` what a NOT REPRODUCED check
    attempted and what it obtained.
    """

    status: str
    method: str
    worst: str = ""
    where: str = ""
    evidence: List[str] = field(default_factory=list)
    erratum: Optional[str] = None
    points: Optional[int] = None
    digits: str = ""
    counterexample: str = ""
    naive: str = ""
    tried: str = ""
    found: str = ""

    def __post_init__(self) -> None:
        if isinstance(self.status, bool):  # the old Outcome(passed, method, ...) form states no status
            self.evidence = [f"- **harness:** `Outcome({self.status}, ...)` states no status; return `proven(...)`, `verified(...)`, "
                             "`negative_control(...)`, `erratum_confirmed(...)`, `not_reproduced(...)` or `cross_check(...)` "
                             "(proofs/_harness.py)", *self.evidence]
            self.status = FAIL

    @property
    def passed(self) -> bool:
        return self.status != FAIL


def _pick(ok: bool, status: str) -> str:
    return status if ok else FAIL


def proven(ok: bool, method: str, evidence: Sequence[str] = (), worst: str = "0 (exact)", **kw: Any) -> Outcome:
    """PROVEN when ``ok`` (every step closed by SymPy), else FAIL."""
    return Outcome(_pick(ok, PROVEN), method, worst if ok else "not closed", evidence=list(evidence), **kw)


def verified(ok: bool, method: str, points: int, digits: str, worst: str, where: str = "",
             evidence: Sequence[str] = (), **kw: Any) -> Outcome:
    """VERIFIED when ``ok``: ``points`` points at ``digits`` (e.g. "50 digits"), worst error ``worst``."""
    return Outcome(_pick(ok, VERIFIED), method, worst, where, list(evidence), points=points, digits=digits, **kw)


def negative_control(ok: bool, method: str, where: str, digits: str, kernel_err: str, naive: str,
                     evidence: Sequence[str] = (), **kw: Any) -> Outcome:
    """CONTROL when ``ok``: at the stress point ``where`` the naive form gives ``naive`` (measurably wrong)
    and the kernel's error against the ``digits`` reference is ``kernel_err``."""
    return Outcome(_pick(ok, CONTROL), method, kernel_err, where, list(evidence), points=1, digits=digits, naive=naive, **kw)


def not_reproduced(ok: bool, tried: str, found: str, method: str, worst: str, evidence: Sequence[str] = (),
                   where: str = "", **kw: Any) -> Outcome:
    """NOT REPRODUCED when ``ok`` (the attempt ran and its figures do not reproduce the paper's).

    ``tried``: what was computed (method, parameters); ``found``: what came out, against the paper's figure.
    """
    return Outcome(_pick(ok, NOT_REPRODUCED), method, worst, where, list(evidence), tried=tried, found=found, **kw)


def erratum_confirmed(ok: bool, eid: str, counterexample: str, method: str, worst: str,
                      evidence: Sequence[str] = (), where: str = "", **kw: Any) -> Outcome:
    """ERRATUM CONFIRMED when ``ok``: the paper's statement fails (``counterexample``) and the correction holds."""
    return Outcome(_pick(ok, ERRATUM), method, worst, where, list(evidence), erratum=eid,
                   counterexample=counterexample, **kw)


def cross_check(ok: bool, method: str, worst: str, where: str = "", evidence: Sequence[str] = (), **kw: Any) -> Outcome:
    """CROSS-CHECK when ``ok``: fhsym code against fhsym code (``method`` names both sides)."""
    return Outcome(_pick(ok, CROSS), method, worst, where, list(evidence), **kw)


def failed(method: str, evidence: Sequence[str], worst: str = "-") -> Outcome:
    return Outcome(FAIL, method, worst, evidence=list(evidence))


@dataclass(frozen=True)
class Check:
    topic: str
    name: str  # unique within the topic (the function name)
    obj: str  # the object, e.g. "omega", "cdf_center", a kernel name
    paper: str  # the paper's equation / section
    claim: str  # one line: what is checked
    fn: Callable[["Context"], Outcome]
    quick: bool = True  # part of the --quick subset
    module: str = ""

    @property
    def key(self) -> str:
        return f"{self.topic}.{self.name}"


@dataclass
class Result:
    topic: str
    name: str
    obj: str
    paper: str
    claim: str
    status: str
    method: str
    worst: str
    where: str
    evidence: List[str]
    erratum: Optional[str]
    points: Optional[int] = None
    digits: str = ""
    counterexample: str = ""
    naive: str = ""
    tried: str = ""
    found: str = ""
    seconds: float = 0.0  # wall-clock seconds of the check (not in the report: two runs write the same file)
    cpu: float = 0.0  # CPU seconds of the process running the check, during it (steadier than wall on a busy machine)

    @property
    def key(self) -> str:
        return f"{self.topic}.{self.name}"

    @property
    def verdict(self) -> str:
        """PASS or FAIL (the status says how a passing check passed)."""
        return FAIL if self.status == FAIL else PASS


_T = TypeVar("_T")

class Topic:
    """A group of checks (one module or package of ``proofs``)."""

    def __init__(self, name: str, title: str, order: int = 100, description: str = "") -> None:
        self.name = name
        self.title = title
        self.order = order
        self._description = description
        self._describe: Optional[Callable[[], str]] = None
        #: work several checks of the topic share (a SymPy derivation they each compute on first use, cached in
        #: the process): with ``jobs > 1`` the parent calls it once, before it forks the topic's first check, so
        #: that the checks inherit the result instead of each deriving it again (see :func:`run`); set by
        #: :meth:`shared`
        self.prepare: Optional[Callable[[], Any]] = None
        self.checks: List[Check] = []
        self.errata: List[Tuple[str, str]] = []  # (id, title)
        TOPICS[name] = self

    @property
    def description(self) -> str:
        """The report's text under the topic's title (given, or computed on first use: :meth:`describe`)."""
        if self._describe is not None:
            self._description, self._describe = self._describe(), None
        return self._description

    def describe(self, make: Callable[[], str]) -> None:
        """Compute :attr:`description` on first use (the report), not at import: a topic whose text states its shared
        derivation (:meth:`shared`) keeps that derivation out of the import of the topics."""
        self._describe = make

    def shared(self, make: Callable[[], _T]) -> Callable[[], _T]:
        """``make()`` computed once per process and kept, as part of this topic's :attr:`prepare`: the checks call
        the returned function for the shared work (a SymPy derivation), which a parallel run computes once before it
        forks them.  A topic may share several: its prepare computes each, in the order they were declared."""
        held: List[_T] = []

        def get() -> _T:
            if not held:
                held.append(make())
            return held[0]

        before = self.prepare
        if before is None:
            self.prepare = get
        else:
            def both() -> Tuple[Any, _T]:
                return before(), get()

            self.prepare = both
        return get

    def erratum(self, eid: str, title: str) -> str:
        """Declare an erratum of the paper documented by this topic (see docs/errata.md); returns its id."""
        self.errata.append((eid, title))
        return eid

    def check(self, obj: str, paper: str, claim: str, quick: bool = True,
              name: Optional[str] = None) -> Callable[[CheckFunction], CheckFunction]:
        """Decorator registering ``fn(ctx) -> Outcome`` as a check of this topic."""

        def deco(fn: CheckFunction) -> CheckFunction:
            self.add(fn, obj=obj, paper=paper, claim=claim, quick=quick, name=name)
            return fn

        return deco

    def add(self, fn: CheckFunction, obj: str, paper: str, claim: str, quick: bool = True, name: Optional[str] = None,
            module: Optional[str] = None) -> Check:
        """Register a check programmatically (e.g. one per kernel); returns it.

        ``module`` is the module whose import registers the check (default ``fn.__module__``).
        """
        from ._quick import LEFT_OUT_OF_QUICK  # the --quick subset's exclusions, kept in one place

        key = f"{self.name}.{name or fn.__name__}"
        c = Check(self.name, name or fn.__name__, obj, paper, claim, fn, quick and key not in LEFT_OUT_OF_QUICK,
                  module or fn.__module__)
        if any(x.name == c.name for x in self.checks):
            raise ValueError(f"duplicate check name {c.name!r} in topic {self.name!r}")
        self.checks.append(c)
        return c


class Context:
    """Per-check settings: quick mode and deterministic random generators."""

    def __init__(self, check_key: str, quick: bool) -> None:
        self.key = check_key
        self.quick = quick

    def rng(self, label: str = "") -> np.random.Generator:
        """A generator seeded from the check's key (and ``label``): same numbers on every run."""
        return np.random.default_rng(zlib.crc32(f"{self.key}/{label}".encode()))

    def n(self, full: int, quick: int) -> int:
        return quick if self.quick else full


# ---------------------------------------------------------------------------
# discovery
# ---------------------------------------------------------------------------


def discover() -> List[Topic]:
    """Import every topic module of the package; topics sorted by (order, name)."""
    topics = []
    for info in pkgutil.iter_modules([str(PACKAGE_DIR)]):
        if info.name.startswith(_NOT_TOPIC_PREFIXES) or info.name in _NOT_TOPICS:
            continue
        try:
            mod = importlib.import_module(f"{PACKAGE}.{info.name}")
        except Exception as exc:  # a broken topic module is a failing check, not a crash of the others
            topics.append(_broken_topic(info.name, exc))
            continue
        t = getattr(mod, "topic", None)
        if isinstance(t, Topic):
            topics.append(t)
        # a module may register several topics (proofs/declared.py: one per declared law)
        topics.extend(x for x in getattr(mod, "topics", ()) if isinstance(x, Topic) and x is not t)
    topics.sort(key=lambda t: (t.order, t.name))
    return topics


def _broken_topic(name: str, exc: Exception) -> Topic:
    t = Topic(name, f"{name} (module failed to import)", order=10_000)
    msg = f"{type(exc).__name__}: {exc}"

    def import_failed(ctx: Context) -> Outcome:
        return failed("(import)", [f"- `import {PACKAGE}.{name}` failed: `{msg}`"])

    t.add(import_failed, obj=name, paper="-", claim="the topic module imports")
    return t


def select(topics: Sequence[Topic], only: Sequence[str] = (), quick: bool = False) -> List[Check]:
    names = {t.name for t in topics}
    unknown = [o for o in only if o not in names]
    if unknown:
        raise ValueError(f"unknown topic(s) {unknown}; available: {sorted(names)}")
    out: List[Check] = []
    for t in topics:
        if only and t.name not in only:
            continue
        out.extend(c for c in t.checks if c.quick or not quick)
    return out


# ---------------------------------------------------------------------------
# running
# ---------------------------------------------------------------------------


def _contract(check: Check, out: Outcome) -> Optional[str]:
    """Why ``out`` breaks the status contract (None if it keeps it)."""
    if out.status not in STATUSES:
        return f"unknown status {out.status!r}"
    if out.status == VERIFIED and (not out.points or not out.digits or not out.worst):
        return "a VERIFIED outcome must state its number of points, its digits and its worst error"
    if out.status == CONTROL and (out.points != 1 or not out.where or not out.digits or not out.worst or not out.naive):
        return ("a CONTROL outcome must state its one stress point, the reference's digits, the kernel's error and what "
                "the naive form gives there")
    if out.status == ERRATUM and (not out.erratum or not out.counterexample):
        return "an ERRATUM CONFIRMED outcome must name the erratum and give the counterexample"
    if out.status == NOT_REPRODUCED and (not out.tried or not out.found):
        return "a NOT REPRODUCED outcome must state what was tried and what was found"
    if out.erratum is not None:
        topic = TOPICS.get(check.topic)
        if topic is None or out.erratum not in {eid for eid, _ in topic.errata}:
            return f"erratum {out.erratum!r} is not declared by topic {check.topic!r}"
    return None


def run_one(check: Check, quick: bool) -> Result:
    import mpmath

    t0, c0 = time.perf_counter(), time.process_time()
    try:
        # ambient mpmath precision for the check: arithmetic outside an explicit workdps block
        # (e.g. negating a high-precision result) must not round to mpmath's default 15 digits
        with mpmath.mp.workdps(AMBIENT_DPS):
            out = check.fn(Context(check.key, quick))
        if not isinstance(out, Outcome):
            raise TypeError(f"check {check.key} returned {type(out).__name__}, not Outcome")
        broken = _contract(check, out)
        if broken:
            out = Outcome(FAIL, out.method, out.worst, out.where, [f"- **harness:** {broken}", *out.evidence], out.erratum)
    except Exception as exc:  # a crashing check is a failing check
        tb = traceback.format_exception(type(exc), exc, exc.__traceback__)
        out = failed("(exception)", ["```", *("".join(tb[-3:]).rstrip().splitlines()), "```"])
    return Result(
        check.topic, check.name, check.obj, check.paper, check.claim, out.status, out.method, out.worst,
        out.where, list(out.evidence), out.erratum, out.points, out.digits, out.counterexample,
        out.naive, out.tried, out.found, time.perf_counter() - t0, time.process_time() - c0,
    )


def _find(module: str, topic: str, name: str) -> Check:
    importlib.import_module(module)  # registers the topic's checks (a package imports all its parts)
    for c in TOPICS[topic].checks:
        if c.name == name:
            return c
    raise KeyError(f"{topic}.{name}")


def _run_by_name(module: str, topic: str, name: str, quick: bool) -> Result:
    return run_one(_find(module, topic, name), quick)


def run_check_record(module: str, topic: str, name: str, quick: bool, code: str = "") -> Dict[str, Any]:
    """:func:`run_one` as a JSON-able dict (a task of :func:`run_on_dask`; ``code`` only keys the cache)."""
    from dataclasses import asdict

    return asdict(run_one(_find(module, topic, name), quick))


def code_hash() -> str:
    """sha256 of every .py file of fhsym and proofs: a cached proof result is reused only for the same code."""
    import hashlib

    h = hashlib.sha256()
    for root in (PACKAGE_DIR, PACKAGE_DIR.parent / "fhsym"):
        for f in sorted(root.rglob("*.py")):
            h.update(str(f.relative_to(root.parent)).encode())
            h.update(f.read_bytes())
    return h.hexdigest()[:32]


def run_on_dask(checks: Sequence[Check], quick: bool, scheduler: str, cache: Optional[Path], workers: Optional[int],
                progress: Optional[Callable[[Result], None]] = None) -> List[Result]:
    """Run ``checks`` as independent tasks through :func:`fhsym.applications.sweeps.run_tasks`.

    ``scheduler``: ``"local"`` (a local Dask cluster), ``"serial"`` or a ``dask.distributed`` address.
    ``cache``: the directory of finished checks (an interrupted run resumes; keyed by the code hash, so a
    change to fhsym or proofs re-runs everything); None: a temporary directory.
    """
    import tempfile

    from fhsym.applications.sweeps import SweepProgress, Task, run_tasks

    code = code_hash()
    own = [c for c in checks if c.module != __name__]
    tasks = [Task(f"{__name__}:run_check_record", {"module": c.module, "topic": c.topic, "name": c.name,
                                                   "quick": bool(quick), "code": code}, label=c.key) for c in own]
    results: Dict[str, Result] = {c.key: run_one(c, quick) for c in checks if c.module == __name__}

    def on_result(task: Task, out: Dict[str, Any]) -> None:
        if progress and "result" in out:
            progress(Result(**out["result"]))

    bar = SweepProgress(len(tasks), label="proofs", enabled=progress is None)
    with tempfile.TemporaryDirectory() as tmp:
        outs = run_tasks(tasks, cache or tmp, scheduler=scheduler, workers=workers, progress=bar, on_result=on_result)
    for c, out in zip(own, outs):
        if out is not None and "result" in out:
            results[c.key] = Result(**out["result"])
            if progress and out.get("cached"):
                progress(results[c.key])
        else:
            err = "not run" if out is None else out["error"]
            results[c.key] = Result(c.topic, c.name, c.obj, c.paper, c.claim, FAIL, "(task error)", "-", "",
                                    [f"`{err}`"], None)
    return [results[c.key] for c in checks]


def _worker_error(c: Check, msg: str) -> Result:
    return Result(c.topic, c.name, c.obj, c.paper, c.claim, FAIL, "(worker error)", "-", "", [f"`{msg}`"], None)


def _child(check: Check, quick: bool, conn: Connection) -> None:  # pragma: no cover - runs in a forked process
    try:
        res = run_one(check, quick)
        conn.send_bytes(pickle.dumps(res))
    finally:
        conn.close()
        os._exit(0)


def _needs_prepare(topic: str, prepared: Set[str]) -> bool:
    t = TOPICS.get(topic)
    return t is not None and t.prepare is not None and topic not in prepared


def _prepare(topic: str, prepared: Set[str]) -> None:
    """Run the topic's :attr:`Topic.prepare` once in this process (a failure is left to the checks, which redo it)."""
    work = TOPICS[topic].prepare if _needs_prepare(topic, prepared) else None
    if work is None:
        return
    prepared.add(topic)
    try:
        work()
    except Exception:  # the checks compute it themselves and report the failure as theirs
        pass


def _run_forked(checks: Sequence[Check], quick: bool, jobs: int, done: Callable[[Result], None]) -> None:
    """Each check in its own forked child of this process (at most ``jobs`` at a time, in the order given).

    Before the first check of a topic with a :attr:`Topic.prepare` is forked, this process runs it (while the
    running children use the other cores), and the topic's checks inherit its result.
    """
    import multiprocessing as mpc
    from multiprocessing.connection import wait

    from ._warm import warm_imports

    ctx = mpc.get_context("fork")
    warm_imports()  # what the checks would each import or build on first use, once here
    pending = list(checks)
    prepared: Set[str] = set()
    running: Dict[int, Tuple[Check, ForkProcess, Connection]] = {}  # sentinel -> (check, process, reader)
    while pending or running:
        while pending and len(running) < jobs:
            c = pending[0]
            if not running and _needs_prepare(c.topic, prepared):
                # nothing runs while this process prepares: start the next check that needs no preparation first
                c = next((x for x in pending if not _needs_prepare(x.topic, prepared)), c)
            pending.remove(c)
            _prepare(c.topic, prepared)
            # every object this process holds now (the topics, the prepared SymPy derivations, their caches: ~1 GB)
            # leaves the cyclic collector's reach: a child's collections then skip them instead of walking them, which
            # touched every page and made the kernel copy the whole heap into each child (the Python docs' advice
            # for gc.freeze before fork); nothing the checks compute changes
            gc.freeze()
            reader, writer = ctx.Pipe(duplex=False)
            p = ctx.Process(target=_child, args=(c, quick, writer), daemon=True)
            with warnings.catch_warnings():  # Python >= 3.12 warns on fork with threads (the child runs no threads)
                warnings.filterwarnings("ignore", message=".*fork.*", category=DeprecationWarning)
                p.start()
            writer.close()
            running[p.sentinel] = (c, p, reader)
        ready = wait([k for k in running] + [r for _, _, r in running.values()])
        for sentinel, (c, p, reader) in list(running.items()):
            if reader not in ready and sentinel not in ready:
                continue
            try:
                res = pickle.loads(reader.recv_bytes())
            except (EOFError, OSError) as exc:
                p.join()
                res = _worker_error(c, f"the process running the check ended without a result (exit code {p.exitcode}): {exc!r}")
            reader.close()
            p.join()
            del running[sentinel]
            done(res)


#: recorded seconds per check and mode (``python -m proofs --record-times``): the start order of a parallel run
TIMES_FILE = PACKAGE_DIR / "_times.json"


def recorded_times(quick: bool) -> Dict[str, float]:
    """CPU seconds per check recorded by ``python -m proofs [--quick] --record-times`` ({} if none).

    Used only to order a parallel run (longest first): a stale or missing entry changes the order, never a result.
    """
    import json

    try:
        data = json.loads(TIMES_FILE.read_text())
        return {str(k): float(v) for k, v in data["quick" if quick else "full"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def record_times(results: Sequence[Result], quick: bool) -> Path:
    """Write the CPU seconds of ``results`` into :data:`TIMES_FILE` for this mode (merged over earlier entries)."""
    import json

    try:
        data = json.loads(TIMES_FILE.read_text())
    except (OSError, ValueError):
        data = {}
    mode = "quick" if quick else "full"
    merged = {**data.get(mode, {}), **{r.key: round(r.cpu, 1) for r in results}}
    data[mode] = dict(sorted(merged.items()))
    TIMES_FILE.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    return TIMES_FILE


def longest_first(checks: Sequence[Check], seconds: Dict[str, float]) -> List[Check]:
    """``checks`` by decreasing ``seconds`` (unknown: the median of the known; ties keep their order).

    A parallel run that starts the longest checks first does not end with one long check running alone.
    """
    known = sorted(seconds.get(c.key, -1.0) for c in checks if c.key in seconds)
    mid = known[len(known) // 2] if known else 0.0
    return sorted(checks, key=lambda c: -seconds.get(c.key, mid))


def run(checks: Sequence[Check], quick: bool = False, jobs: int = 1, progress: Optional[Callable[[Result], None]] = None,
        seconds: Optional[Dict[str, float]] = None) -> List[Result]:
    """Run ``checks``; results in the order of ``checks``.

    ``jobs <= 1``: in this process, in order (deterministic for a given list).
    ``jobs > 1``: each check in a fresh process forked from this one (on platforms with fork;
    elsewhere a process pool), ``jobs`` at a time, started longest first: by ``seconds`` (e.g. the times of
    earlier runs on this machine), else by the times recorded in :data:`TIMES_FILE`.
    """
    results: Dict[str, Result] = {}

    def done(r: Result) -> None:
        results[r.key] = r
        if progress:
            progress(r)

    if jobs <= 1 or len(checks) <= 1:
        for c in checks:
            done(run_one(c, quick))
    else:
        local = [c for c in checks if c.module == __name__]  # e.g. a topic that failed to import
        for c in local:
            done(run_one(c, quick))
        remote = longest_first([c for c in checks if c.module != __name__], {**recorded_times(quick), **(seconds or {})})
        # fork where it is safe; JAX runs threads in this process once imported (XLA's pools), and a fork
        # then risks a deadlock (JAX warns), so a process that has imported it uses the spawn pool
        if sys.platform.startswith("linux") and "jax" not in sys.modules:
            _run_forked(remote, quick, jobs, done)
        else:  # no fork, or JAX loaded: a spawn pool (each worker imports the topics itself)
            import multiprocessing as mpc
            from concurrent.futures import ProcessPoolExecutor, as_completed

            with ProcessPoolExecutor(max_workers=jobs, mp_context=mpc.get_context("spawn")) as ex:
                futs = {ex.submit(_run_by_name, c.module, c.topic, c.name, quick): c for c in remote}
                for f in as_completed(futs):
                    try:
                        done(f.result())
                    except Exception as exc:  # worker died
                        done(_worker_error(futs[f], f"{type(exc).__name__}: {exc}"))
    return [results[c.key] for c in checks]


# the report and the terminal table (kept importable from here: `fhsym verify` uses H.render_report)
from ._report import format_table, format_times, render_report  # noqa: E402
