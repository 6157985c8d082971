"""The proofs registry: topics, checks, results, the runner and the report.

A *topic* is a module of the ``proofs`` package that defines a module-level
``topic = Topic(name, title, order)`` and registers its checks with the
``@topic.check(...)`` decorator::

    from ._harness import Outcome, Topic

    topic = Topic("distribution", "The flipped Huber distribution (A1-A5)", order=10)

    @topic.check(obj="omega", paper="eq 9", claim="omega >= sqrt(2 pi)")
    def prop1(ctx):
        ...
        return Outcome(passed=True, method="symbolic", worst=None)

Adding a topic is adding such a module (e.g. ``proofs/privacy_profile.py``);
:func:`discover` finds it.  A check is a function of a :class:`Context` (quick
mode, deterministic random generators) that returns an :class:`Outcome`; an
exception counts as a failure.  Checks are independent, so the runner may run
them in parallel processes; results are reported in registration order and the
report contains no timings, so it is deterministic.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time
import traceback
import zlib
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence

import numpy as np

__all__ = [
    "PASS",
    "FAIL",
    "Outcome",
    "Check",
    "Result",
    "Topic",
    "Context",
    "discover",
    "select",
    "run",
    "format_table",
    "render_report",
]

PASS = "PASS"
FAIL = "FAIL"
AMBIENT_DPS = 60  # mpmath precision in effect while a check runs

PACKAGE = "proofs"
PACKAGE_DIR = Path(__file__).resolve().parent
# modules of the package that are not topics: the ground-truth harnesses (reference*.py) and the CLI
_NOT_TOPICS = {"__main__"}
_NOT_TOPIC_PREFIXES = ("_", "reference")


@dataclass
class Outcome:
    """What a check function returns.

    ``worst`` is the displayed worst error (a preformatted string, e.g.
    ``"3.1e-52"``, ``"0 (exact)"``, ``"min margin 1.2e-3"``); ``where`` the
    point where it occurs; ``evidence`` markdown lines for the report's details
    section; ``erratum`` the id of the erratum this check documents (the check
    itself passes when the paper's statement is shown wrong *and* the corrected
    statement is verified).
    """

    passed: bool
    method: str
    worst: str = ""
    where: str = ""
    evidence: List[str] = field(default_factory=list)
    erratum: Optional[str] = None


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
    verdict: str
    method: str
    worst: str
    where: str
    evidence: List[str]
    erratum: Optional[str]
    seconds: float = 0.0

    @property
    def key(self) -> str:
        return f"{self.topic}.{self.name}"


class Topic:
    """A group of checks (one module of ``proofs``)."""

    def __init__(self, name: str, title: str, order: int = 100, description: str = "") -> None:
        self.name = name
        self.title = title
        self.order = order
        self.description = description
        self.checks: List[Check] = []
        self.errata: List[tuple] = []  # (id, title)

    def erratum(self, eid: str, title: str) -> str:
        """Declare an erratum of the paper documented by this topic (see docs/errata.md); returns its id."""
        self.errata.append((eid, title))
        return eid

    def check(self, obj: str, paper: str, claim: str, quick: bool = True, name: Optional[str] = None):
        """Decorator registering ``fn(ctx) -> Outcome`` as a check of this topic."""

        def deco(fn):
            self.add(fn, obj=obj, paper=paper, claim=claim, quick=quick, name=name)
            return fn

        return deco

    def add(self, fn, obj: str, paper: str, claim: str, quick: bool = True, name: Optional[str] = None) -> Check:
        """Register a check programmatically (e.g. one per kernel); returns it."""
        c = Check(self.name, name or fn.__name__, obj, paper, claim, fn, quick, fn.__module__)
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
    topics.sort(key=lambda t: (t.order, t.name))
    return topics


def _broken_topic(name: str, exc: Exception) -> Topic:
    t = Topic(name, f"{name} (module failed to import)", order=10_000)
    msg = f"{type(exc).__name__}: {exc}"

    def import_failed(ctx) -> Outcome:
        return Outcome(False, "(import)", "-", evidence=[f"- `import {PACKAGE}.{name}` failed: `{msg}`"])

    t.add(import_failed, obj=name, paper="-", claim="the topic module imports")
    return t


def select(topics: Sequence[Topic], only: Sequence[str] = (), quick: bool = False) -> List[Check]:
    names = {t.name for t in topics}
    unknown = [o for o in only if o not in names]
    if unknown:
        raise ValueError(f"unknown topic(s) {unknown}; available: {sorted(names)}")
    out = []
    for t in topics:
        if only and t.name not in only:
            continue
        out.extend(c for c in t.checks if c.quick or not quick)
    return out


# ---------------------------------------------------------------------------
# running
# ---------------------------------------------------------------------------


def _find(module: str, topic: str, name: str) -> Check:
    mod = importlib.import_module(module)
    t = getattr(mod, "topic")
    for c in t.checks:
        if c.name == name:
            return c
    raise KeyError(f"{topic}.{name}")


def run_one(check: Check, quick: bool) -> Result:
    import mpmath

    t0 = time.perf_counter()
    try:
        # ambient mpmath precision for the check: arithmetic outside an explicit workdps block
        # (e.g. negating a high-precision result) must not round to mpmath's default 15 digits
        with mpmath.mp.workdps(AMBIENT_DPS):
            out = check.fn(Context(check.key, quick))
        if not isinstance(out, Outcome):
            raise TypeError(f"check {check.key} returned {type(out).__name__}, not Outcome")
        verdict = PASS if out.passed else FAIL
    except Exception as exc:  # a crashing check is a failing check
        tb = traceback.format_exception(type(exc), exc, exc.__traceback__)
        out = Outcome(
            passed=False,
            method="(exception)",
            worst="-",
            evidence=["```", *("".join(tb[-3:]).rstrip().splitlines()), "```"],
        )
        verdict = FAIL
    return Result(
        check.topic, check.name, check.obj, check.paper, check.claim, verdict, out.method, out.worst,
        out.where, list(out.evidence), out.erratum, time.perf_counter() - t0,
    )


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

    def on_result(task, out) -> None:
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


def run(checks: Sequence[Check], quick: bool = False, jobs: int = 1, progress: Optional[Callable[[Result], None]] = None) -> List[Result]:
    """Run ``checks`` (in ``jobs`` processes); results in the order of ``checks``."""
    results: Dict[str, Result] = {}
    if jobs <= 1 or len(checks) <= 1:
        for c in checks:
            r = run_one(c, quick)
            results[c.key] = r
            if progress:
                progress(r)
    else:
        import multiprocessing as mpc

        ctx = mpc.get_context("fork") if sys.platform.startswith("linux") else None
        for c in checks:  # checks made by the harness itself (e.g. a topic that failed to import) run here
            if c.module == __name__:
                results[c.key] = run_one(c, quick)
                if progress:
                    progress(results[c.key])
        with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as ex:
            futs = {ex.submit(_run_by_name, c.module, c.topic, c.name, quick): c for c in checks if c.module != __name__}
            from concurrent.futures import as_completed

            for f in as_completed(futs):
                c = futs[f]
                try:
                    r = f.result()
                except Exception as exc:  # worker died
                    r = Result(c.topic, c.name, c.obj, c.paper, c.claim, FAIL, "(worker error)", "-", "",
                               [f"`{type(exc).__name__}: {exc}`"], None)
                results[c.key] = r
                if progress:
                    progress(r)
    return [results[c.key] for c in checks]


# ---------------------------------------------------------------------------
# output
# ---------------------------------------------------------------------------


def _cell(s: str) -> str:
    return str(s).replace("|", "\\|").replace("\n", " ")


def format_table(results: Sequence[Result], width: int = 0) -> str:
    """Plain-text table for the terminal."""
    rows = [("#", "object", "paper", "method", "worst error", "verdict")]
    for i, r in enumerate(results, 1):
        v = r.verdict + (f" ({r.erratum})" if r.erratum else "")
        rows.append((str(i), r.obj, r.paper, r.method, r.worst, v))
    cols = list(zip(*rows))
    caps = [4, 26, 22, 58, 24, 14]
    widths = [min(max(len(x) for x in col), cap) for col, cap in zip(cols, caps)]

    def clip(s, w):
        return s if len(s) <= w else s[: w - 1] + "~"

    lines = []
    for j, row in enumerate(rows):
        lines.append("  ".join(clip(x, w).ljust(w) for x, w in zip(row, widths)))
        if j == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def render_report(topics: Sequence[Topic], results: Sequence[Result], command: str, quick: bool) -> str:
    """The markdown report (deterministic: no timings, no dates)."""
    import mpmath
    import scipy
    import sympy

    n_fail = sum(r.verdict != PASS for r in results)
    lines = [
        "# fhsym proofs report",
        "",
        f"Generated by `{command}`{' (quick subset)' if quick else ''}; do not edit by hand.",
        f"SymPy {sympy.__version__}, mpmath {mpmath.__version__}, NumPy {np.__version__}, SciPy {scipy.__version__}.",
        "Every random point comes from a generator seeded by the check's name, so this file is reproducible.",
        "",
        f"**{len(results)} checks: {len(results) - n_fail} PASS, {n_fail} FAIL.**",
        "",
        "Methods: *symbolic* = SymPy reduces (derived − paper) to 0 (the strategy is named); "
        "*numeric 50 digits* = both sides agree to ≥ 50 significant digits at exact binary inputs, each evaluated "
        "with adaptive mpmath precision (two successive precisions agree); *quadrature* = against `proofs/reference.py` "
        "(mpmath quadrature of the definitions eq 7-8 only) at ≥ 30 digits; *numeric, N points* = an inequality "
        "checked only numerically.",
        "",
    ]
    by_topic: Dict[str, List[Result]] = {}
    for r in results:
        by_topic.setdefault(r.topic, []).append(r)
    for t in topics:
        rs = by_topic.get(t.name)
        if not rs:
            continue
        lines += [f"## {t.title} (`--only {t.name}`)", ""]
        if t.description:
            lines += [t.description, ""]
        lines += [
            "| # | object | paper | check | method | worst error | verdict |",
            "|---|---|---|---|---|---|---|",
        ]
        for i, r in enumerate(rs, 1):
            claim = (f"**{r.erratum}** " if r.erratum else "") + r.claim
            worst = r.worst + (f" at {r.where}" if r.where else "")
            lines.append(
                f"| {i} | `{_cell(r.obj)}` | {_cell(r.paper)} | {_cell(claim)} | {_cell(r.method)} | {_cell(worst)} | {r.verdict} |"
            )
        lines += ["", f"### Details: {t.name}", ""]
        for i, r in enumerate(rs, 1):
            lines.append(f"**{i}. `{r.obj}` — {r.claim}** ({r.paper}; `{r.key}`): {r.verdict}")
            lines.append("")
            for e in r.evidence:
                lines.append(e)
            if r.evidence:
                lines.append("")
    errata = [(eid, title, [r.key for r in results if r.erratum == eid]) for t in topics for eid, title in t.errata]
    errata = [e for e in errata if e[2]]
    lines += ["## Errata found", ""]
    if errata:
        lines += ["Each is documented in `docs/errata.md` (what the paper says, what is true, evidence, command).", ""]
        for eid, title, check_keys in errata:
            lines.append(f"* **{eid}** — {title} (checks: {', '.join(f'`{k}`' for k in check_keys)})")
    else:
        lines.append("None in the checks run.")
    lines.append("")
    return "\n".join(lines).rstrip() + "\n"
