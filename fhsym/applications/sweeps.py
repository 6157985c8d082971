"""Sweeps as independent, cached tasks: in-process, on a local Dask cluster, or on any Dask scheduler.

A :class:`Task` is a call ``module:function(**params)`` with JSON-able parameters.  Its result is
cached on disk as one JSON file named by the hash of (function, parameters, fhsym version), so an
interrupted sweep resumes where it stopped, and a sweep re-run after an upgrade of fhsym recomputes.

:func:`run_tasks` runs what is not cached yet:

* ``scheduler="auto"`` (default): a local Dask cluster (``dask.distributed.LocalCluster``, one
  process per worker, one thread each) when the optional extra ``fhsym[dask]`` is installed,
  otherwise in-process, one task after the other;
* ``scheduler="local"``: the local Dask cluster (``ImportError`` with the install hint without Dask);
* ``scheduler="serial"``: in-process, no Dask;
* ``scheduler="tcp://host:8786"`` (any other string): the address of a running
  ``dask.distributed`` scheduler (the workers need fhsym installed, at the same version).

The client writes each result to the cache as it arrives (the workers need no shared disk).
Results are returned in the order of the tasks.  A task that raises records the error
(``{"error": "TypeName: message"}``) instead of stopping the sweep; errors are cached too and
re-run with ``retry_errors=True``.

>>> import tempfile
>>> t = Task("statistics:fmean", {"data": [3.0, 4.0, 8.0]})
>>> with tempfile.TemporaryDirectory() as d:
...     first = run_tasks([t], d, scheduler="serial", progress=False)
...     again = run_tasks([t], d, scheduler="serial", progress=False)   # from the cache
>>> first[0]["result"], again[0]["cached"]
(5.0, True)
"""

from __future__ import annotations

import hashlib
import importlib
import json
import math
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Sequence, TextIO, Tuple, Union

if TYPE_CHECKING:  # the optional extra fhsym[dask]; imported where it is used
    from dask.distributed import Client, LocalCluster

__all__ = ["Task", "DiskCache", "SweepProgress", "dask_available", "uses_dask", "execute", "execute_many",
           "run_tasks"]

_DASK_HINT = "install the optional extra: pip install 'fhsym[dask]'"


def dask_available() -> bool:
    """Whether ``dask.distributed`` can be imported (the optional extra ``fhsym[dask]``)."""
    try:
        import dask.distributed  # noqa: F401
    except ImportError:
        return False
    return True


def uses_dask(scheduler: str) -> bool:
    """Whether :func:`run_tasks` hands its tasks to Dask under ``scheduler`` (``"auto"``: if it is installed)."""
    return scheduler != "serial" and (scheduler != "auto" or dask_available())


def _version() -> str:
    from .._core.version import __version__

    return __version__


@dataclass(frozen=True)
class Task:
    """One independent unit of work: ``func`` (``"module:function"``) called with ``params``.

    ``label`` is for progress lines only (not part of the key).

    >>> Task("math:hypot", {"x": 3.0, "y": 4.0}).key("0") == Task("math:hypot", {"y": 4.0, "x": 3.0}).key("0")
    True
    """

    func: str
    params: Mapping[str, Any] = field(default_factory=dict)
    label: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.func, str) or self.func.count(":") != 1:
            raise ValueError(f"func must be a 'module:function' string; got {self.func!r}")
        try:
            json.dumps(dict(self.params), sort_keys=True, allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"params must be JSON-able (finite numbers, strings, lists, dicts); {exc}") from None

    def key(self, version: Optional[str] = None) -> str:
        """The cache key: sha256 of (func, params, fhsym version), 32 hex digits."""
        text = json.dumps({"func": self.func, "params": dict(self.params),
                           "version": _version() if version is None else version}, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:32]


def execute(func: str, params: Mapping[str, Any]) -> Dict[str, Any]:
    """Run one task where it lands (a Dask worker or this process): ``{"result" | "error", "seconds", "host"}``."""
    t0 = time.perf_counter()
    mod, name = func.split(":")
    try:
        fn = getattr(importlib.import_module(mod), name)
        out: Dict[str, Any] = {"result": fn(**dict(params))}
    except (ValueError, ArithmeticError, RuntimeError, NotImplementedError, MemoryError) as exc:
        out = {"error": f"{type(exc).__name__}: {' '.join(str(exc).split())}"}
    out["seconds"] = round(time.perf_counter() - t0, 3)
    out["pid"] = os.getpid()
    return out


def execute_many(calls: Sequence[Sequence[Any]]) -> List[Dict[str, Any]]:
    """:func:`execute` for a chunk of ``(func, params)`` pairs (one Dask task for many small ones)."""
    return [execute(f, p) for f, p in calls]


class DiskCache:
    """One JSON file per task, ``<directory>/<key>.json``, written atomically (tmp file, then rename)."""

    def __init__(self, directory: Union[str, Path], version: Optional[str] = None) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.version = _version() if version is None else version

    def path(self, task: Task) -> Path:
        return self.directory / f"{task.key(self.version)}.json"

    def get(self, task: Task) -> Optional[Dict[str, Any]]:
        p = self.path(task)
        try:
            rec = json.loads(p.read_text())
        except (OSError, json.JSONDecodeError):
            return None
        if rec.get("func") != task.func or rec.get("params") != json.loads(json.dumps(dict(task.params))):
            return None  # a hash collision or a foreign file: not ours
        outcome: Dict[str, Any] = rec["outcome"]  # put() wrote a JSON object
        return outcome

    def put(self, task: Task, outcome: Mapping[str, Any]) -> None:
        p = self.path(task)
        tmp = p.with_suffix(f".tmp{os.getpid()}")
        tmp.write_text(json.dumps({"func": task.func, "params": dict(task.params), "version": self.version,
                                   "outcome": dict(outcome)}, allow_nan=False))
        os.replace(tmp, p)


class SweepProgress:
    """Progress on a stream: a line per 5 % (and at least every ``every`` seconds), with the rate and ETA."""

    def __init__(self, total: int, label: str = "sweep", stream: Optional[TextIO] = None, every: float = 30.0,
                 enabled: bool = True) -> None:
        self.total, self.label, self.every, self.enabled = total, label, every, enabled
        self.stream = sys.stderr if stream is None else stream
        self.done = self.cached = self.errors = 0
        self.t0 = self._last = time.perf_counter()
        self._last_step = -1

    def message(self, text: str) -> None:
        if self.enabled:
            print(f"{self.label}: {text}", file=self.stream, flush=True)

    def advance(self, note: str = "", cached: bool = False, error: bool = False) -> None:
        self.done += 1
        self.cached += cached
        self.errors += error
        if not self.enabled:
            return
        now = time.perf_counter()
        step = int(20 * self.done / max(self.total, 1))
        if step == self._last_step and self.done < self.total and now - self._last < self.every:
            return
        self._last_step, self._last = step, now
        ran = self.done - self.cached
        el = now - self.t0
        left = self.total - self.done
        eta = f", ETA {el / ran * left / 60:.1f} min" if ran and left else ""
        print(f"{self.label}: {self.done}/{self.total} ({self.cached} cached, {self.errors} errors) "
              f"{el:.0f} s{eta}  {note}", file=self.stream, flush=True)


def _client(scheduler: str, workers: Optional[int]) -> Tuple[Client, Optional[LocalCluster]]:
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise ImportError(f"scheduler={scheduler!r} needs dask.distributed: {_DASK_HINT}") from None
    if scheduler in ("auto", "local"):
        n = workers or min(2, os.cpu_count() or 1)
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0")
        return Client(cluster), cluster
    return Client(scheduler), None


def run_tasks(tasks: Sequence[Task], cache_dir: Union[str, Path], *, scheduler: str = "auto",
              workers: Optional[int] = None, progress: Union[bool, SweepProgress] = True,
              retry_errors: bool = False, budget_seconds: Optional[float] = None, chunk: int = 1,
              on_result: Optional[Callable[[Task, Dict[str, Any]], None]] = None) -> List[Optional[Dict[str, Any]]]:
    """Run every task not in the cache; return the outcomes in task order (``None``: not run, budget spent).

    ``workers``: processes of the local cluster (default min(2, cpus)); refused where no local cluster is started
    (``"serial"``, a remote scheduler's address, ``"auto"`` without dask.distributed).  ``budget_seconds``: stop
    submitting (and cancel what is queued) after this much wall time; what finished is cached, and a re-run resumes.
    Each outcome carries ``"cached": True`` when it came from the cache.  ``chunk``: tasks per Dask submission (more
    than 1 for many small tasks, whose scheduling overhead would otherwise dominate); more than 1 is refused where the
    tasks run in this process.
    """
    if not isinstance(scheduler, str) or not scheduler:
        raise ValueError(f"scheduler must be 'auto', 'local', 'serial' or a scheduler address; got {scheduler!r}")
    if workers is not None and (not isinstance(workers, int) or workers < 1):
        raise ValueError(f"workers must be an integer >= 1; got {workers!r}")
    if not isinstance(chunk, int) or chunk < 1:
        raise ValueError(f"chunk must be an integer >= 1; got {chunk!r}")
    if budget_seconds is not None and not (budget_seconds > 0 and math.isfinite(budget_seconds)):
        raise ValueError(f"budget_seconds must be a finite number > 0; got {budget_seconds!r}")
    use_dask = uses_dask(scheduler)
    local = scheduler == "local" or (scheduler == "auto" and use_dask)
    if workers is not None and not local:  # every argument used or refused
        raise ValueError(f"workers sizes a local Dask cluster; scheduler={scheduler!r} starts none"
                         + (" (dask.distributed is not installed)" if scheduler == "auto" else "")
                         + f"; got workers = {workers!r}")
    if chunk > 1 and not use_dask:
        raise ValueError(f"chunk groups tasks per Dask submission; scheduler={scheduler!r} runs them in this process"
                         + (" (dask.distributed is not installed)" if scheduler == "auto" else "")
                         + f"; got chunk = {chunk!r}")
    cache = DiskCache(cache_dir)
    unique: Dict[str, Task] = {}
    for t in tasks:
        unique.setdefault(t.key(cache.version), t)
    bar = progress if isinstance(progress, SweepProgress) else SweepProgress(len(unique), enabled=bool(progress))
    outcomes: Dict[str, Optional[Dict[str, Any]]] = {}
    todo: List[str] = []
    for k, t in unique.items():
        rec = cache.get(t)
        if rec is not None and not (retry_errors and "error" in rec):
            outcomes[k] = dict(rec, cached=True)
            bar.advance(t.label, cached=True, error="error" in rec)
        else:
            todo.append(k)
    deadline = None if budget_seconds is None else time.perf_counter() + budget_seconds

    def done(k: str, out: Dict[str, Any]) -> None:
        cache.put(unique[k], out)
        outcomes[k] = dict(out, cached=False)
        bar.advance(f"{unique[k].label} ({out['seconds']:.1f} s)", error="error" in out)
        if on_result is not None:
            on_result(unique[k], out)

    if todo and not use_dask:
        if scheduler == "auto":
            bar.message("dask.distributed is not installed: running in-process (" + _DASK_HINT + ")")
        for k in todo:
            if deadline is not None and time.perf_counter() > deadline:
                break
            done(k, execute(unique[k].func, unique[k].params))
    elif todo:
        client, cluster = _client(scheduler, workers)  # ImportError with the install hint without Dask
        from dask.distributed import as_completed

        try:
            bar.message(f"{len(todo)} task(s) on {len(client.scheduler_info()['workers'])} Dask worker(s) "
                        f"({'local cluster' if cluster is not None else scheduler})")
            groups = [todo[i:i + chunk] for i in range(0, len(todo), chunk)]
            futures = {client.submit(execute_many, [(unique[k].func, dict(unique[k].params)) for k in g],
                                     key=f"fhsym-{g[0]}-{len(g)}", pure=False, priority=-i): g
                       for i, g in enumerate(groups)}
            for fut in as_completed(list(futures)):
                for k, out in zip(futures[fut], fut.result()):
                    done(k, out)
                if deadline is not None and time.perf_counter() > deadline:
                    bar.message("time budget spent: cancelling the queued tasks (a re-run resumes from the cache)")
                    client.cancel([f for f in futures if not f.done()])
                    break
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
    return [outcomes.get(t.key(cache.version)) for t in tasks]
