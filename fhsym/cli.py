"""Command-line interface: ``fhsym calibrate | profile | sample | verify | reproduce``.

Every subcommand takes ``--json`` for machine-readable output on stdout (progress
bars and logs go to stderr).  Invalid input prints ONE line naming the parameter
to stderr and exits with status 2::

    $ fhsym calibrate --epsilon 1 --delta 1.5
    fhsym calibrate: error: argument --delta: delta must be a finite real number in (0, 1); got 1.5

Exit status: 0 on success, 1 when ``fhsym verify`` finds a failing proof (or
``fhsym reproduce`` a failing step), 2 on bad input or an unavailable feature.

``verify`` and ``reproduce`` run code that lives in the source checkout, not in
the installed package (``proofs/`` and ``scripts/``); they work after
``pip install -e .`` from a clone of the repository and otherwise fail with a
message saying so.

The parser can be driven in-process, which is how the examples below run:

Examples
--------
>>> main(["profile", "--alpha", "1", "--gamma", "2", "--epsilon", "0.5", "--json"])  # doctest: +ELLIPSIS
{"alpha": 1.0, "gamma": 2.0, "sensitivity": 1.0, "epsilon": [0.5], "delta": [0.05156084571...]}
0
>>> main(["sample", "--alpha", "1", "--gamma", "2", "-n", "-3"])
2
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, List, Optional, Sequence, TextIO

import numpy as np

from . import _validation as V

__all__ = ["main", "Progress", "source_root"]

_EXTRA_HINT = {
    "matplotlib": "pip install 'fhsym[plot]' (or: pip install matplotlib)",
}


class CLIError(Exception):
    """An error reported as one line on stderr with exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse's own errors: status 2, one line
        self.exit(2, f"{self.prog}: error: {message}\n")


# ---------------------------------------------------------------------------
# argument types: validated at parse time against the domains of fhsym._validation,
# so every message names the option, its valid range and the offending value
# ---------------------------------------------------------------------------


def _real(domain: V.Domain) -> Callable[[str], float]:
    def parse(text: str) -> float:
        try:
            x = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(domain.message(text)) from None
        if not bool(domain.contains(np.float64(x))):
            raise argparse.ArgumentTypeError(domain.message(x))
        return x

    parse.__name__ = domain.name  # argparse uses it in "invalid <name> value" fall-backs
    return parse


def _integer(name: str, lower: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            x = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be an integer >= {lower}; got {text!r}") from None
        if x < lower:
            raise argparse.ArgumentTypeError(f"{name} must be an integer >= {lower}; got {x}")
        return x

    parse.__name__ = name
    return parse


_EPS = _real(V.EPSILON)
_DELTA = _real(V.DELTA)
_SENS = _real(V.SENSITIVITY)
_ALPHA = _real(V.ALPHA)
_GAMMA = _real(V.GAMMA)
_L2 = _real(V.Domain("l2_sensitivity", 0.0, math.inf))
_L1 = _real(V.Domain("l1_sensitivity", 0.0, math.inf))


# ---------------------------------------------------------------------------
# progress bar (stderr; no dependency)
# ---------------------------------------------------------------------------


class Progress:
    """A tiny text progress bar on a stream (stderr by default).

    On a terminal the bar is redrawn in place; elsewhere (CI logs, pipes) a line
    is written per 10 % of progress (and at least every 30 s), so logs stay short.  ``enabled=False`` makes
    every call a no-op.

    Examples
    --------
    >>> import io
    >>> buf = io.StringIO()
    >>> bar = Progress(4, "demo", stream=buf, width=8)
    >>> for i in range(4):
    ...     bar.advance(f"step {i}")
    >>> bar.close()
    >>> print(buf.getvalue().splitlines()[-1])
    demo [########] 4/4 100% step 3
    """

    def __init__(self, total: int, label: str = "", stream: Optional[TextIO] = None, width: int = 30,
                 enabled: bool = True) -> None:
        self.total = max(int(total), 0)
        self.label = label
        self.stream = sys.stderr if stream is None else stream
        self.width = width
        self.enabled = enabled
        self.done = 0
        self._tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self._last_decile = -1
        self._last_write = time.perf_counter()
        self._last_len = 0
        self._t0 = time.perf_counter()

    def _line(self, note: str) -> str:
        frac = 1.0 if self.total == 0 else min(self.done / self.total, 1.0)
        filled = int(round(frac * self.width))
        bar = "#" * filled + "." * (self.width - filled)
        head = f"{self.label} " if self.label else ""
        return f"{head}[{bar}] {self.done}/{self.total} {frac:4.0%} {note}".rstrip()

    def advance(self, note: str = "", n: int = 1) -> None:
        """Count ``n`` more units of work done; ``note`` says what was just done.

        Examples
        --------
        >>> import io
        >>> bar = Progress(2, "job", stream=io.StringIO(), width=4)
        >>> bar.advance("first"); bar.done
        1
        """
        self.done += n
        if not self.enabled:
            return
        line = self._line(note)
        if self._tty:
            pad = max(self._last_len - len(line), 0)
            self.stream.write("\r" + line + " " * pad)
            self._last_len = len(line)
        else:
            decile = 10 if self.total == 0 else int(10 * min(self.done / self.total, 1.0))
            quiet_for = time.perf_counter() - self._last_write
            if decile == self._last_decile and self.done < self.total and quiet_for < 30.0:
                return
            self._last_decile = decile
            self._last_write = time.perf_counter()
            self.stream.write(line + "\n")
        self.stream.flush()

    def message(self, text: str) -> None:
        """Write a line of log text without garbling the bar.

        Examples
        --------
        >>> import io
        >>> buf = io.StringIO()
        >>> Progress(1, stream=buf).message("hello")
        >>> buf.getvalue()
        'hello\\n'
        """
        if not self.enabled:
            return
        if self._tty and self._last_len:
            self.stream.write("\r" + " " * self._last_len + "\r")
            self._last_len = 0
        self.stream.write(text + "\n")
        self.stream.flush()

    def close(self) -> None:
        """End the bar (on a terminal: move to a new line).

        Examples
        --------
        >>> import io
        >>> bar = Progress(1, stream=io.StringIO())
        >>> bar.advance(); bar.close()
        """
        if self.enabled and self._tty and self._last_len:
            self.stream.write("\n")
            self.stream.flush()
        self._last_len = 0

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self._t0


# ---------------------------------------------------------------------------
# the source checkout (for verify / reproduce)
# ---------------------------------------------------------------------------


def source_root() -> Optional[Path]:
    """The repository root when fhsym runs from a source checkout, else ``None``.

    A checkout is recognised by ``proofs/_harness.py`` next to the ``fhsym``
    package directory (an editable install, ``pip install -e .``, imports fhsym
    from the checkout itself).  ``FHSYM_SOURCE_ROOT`` overrides the location.

    Examples
    --------
    >>> root = source_root()
    >>> root is None or (root / "proofs").is_dir()
    True
    """
    env = os.environ.get("FHSYM_SOURCE_ROOT")
    candidates = [Path(env)] if env else [Path(__file__).resolve().parent.parent]
    for c in candidates:
        if (c / "proofs" / "_harness.py").is_file() and (c / "fhsym").is_dir():
            return c
    return None


def _need_checkout(command: str) -> Path:
    root = source_root()
    if root is None:
        here = Path(__file__).resolve().parent
        raise CLIError(
            f"`fhsym {command}` needs a source checkout of fhsym (proofs/ and scripts/ next to the package), "
            f"but the fhsym package at {here} is not inside one; clone the repository and install it with "
            f"`pip install -e .` (or set FHSYM_SOURCE_ROOT to the checkout)"
        )
    return root


def _need_module(module: str, command: str) -> None:
    if importlib.util.find_spec(module) is None:
        raise CLIError(f"`fhsym {command}` needs {module}: {_EXTRA_HINT.get(module, 'pip install ' + module)}")


# ---------------------------------------------------------------------------
# the parser
# ---------------------------------------------------------------------------

_EPILOG_EXIT = "exit status: 0 success, 2 bad input (one line on stderr naming the parameter)"


def _build() -> argparse.ArgumentParser:
    fmt = argparse.RawDescriptionHelpFormatter
    p = _Parser(
        prog="fhsym",
        description="The flipped Huber noise mechanism for differential privacy: certified calibration, exact "
        "privacy profiles, sampling, the proofs and the paper's figures.",
        epilog="Every subcommand takes --json (machine-readable output on stdout) and --help. "
        "Examples:\n  fhsym calibrate --epsilon 1 --delta 1e-6\n"
        "  fhsym profile --alpha 1 --gamma 2 --epsilon 0.5 1 2 --json\n"
        "  fhsym sample --alpha 1 --gamma 2 -n 5 --seed 0\n  fhsym verify --quick\n  fhsym reproduce --out docs",
        formatter_class=fmt,
    )
    from . import __version__

    p.add_argument("--version", action="version", version=f"fhsym {__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser, metavar="COMMAND")

    c = sub.add_parser(
        "calibrate", formatter_class=fmt,
        help="certified minimum-variance (alpha, gamma) for (eps, delta)-DP",
        description="Minimum-variance flipped Huber parameters meeting (eps, delta)-DP (fhsym.calibrate).\n"
        "1-D: the exact condition of Theorem 3 (eq 13); the result is certified by re-evaluating\n"
        "delta(eps) at the returned floats to 60 digits, and never under-noises.\n"
        "K > 1 (--dim): Theorem 8 (sufficient) or the exact K-fold profile (privacy-loss distributions).",
        epilog="example: fhsym calibrate --epsilon 0.3 --delta 1e-6 --json\n" + _EPILOG_EXIT,
    )
    c.add_argument("--epsilon", type=_EPS, required=True, metavar="E", help="privacy budget eps >= 0")
    c.add_argument("--delta", type=_DELTA, required=True, metavar="D", help="privacy leakage delta in (0, 1)")
    c.add_argument("--sensitivity", type=_SENS, default=None, metavar="S",
                   help="per-coordinate (l_inf) sensitivity Delta > 0 (default 1 when no sensitivity is given)")
    c.add_argument("--dim", type=_integer("dim", 1), default=1, metavar="K", help="query dimension K >= 1 (default 1)")
    c.add_argument("--l2-sensitivity", type=_L2, default=None, metavar="S2",
                   help="l2 sensitivity Delta_2 > 0 (dim 1: the same number as --sensitivity; dim K: "
                        "default sqrt(K) Delta)")
    c.add_argument("--l1-sensitivity", type=_L1, default=None, metavar="S1",
                   help="l1 sensitivity Delta_1 > 0 (dim 1: the same number as --sensitivity; dim K: default K Delta). "
                        "Every given sensitivity is used: in dim 1 they must agree, in dim K the set is the "
                        "intersection of the given balls")
    c.add_argument("--method", choices=("auto", "exact", "sufficient"), default="auto",
                   help="auto (default), exact (Theorem 3 / exact K-fold profile) or sufficient (Theorem 8, dim > 1)")
    c.add_argument("--json", action="store_true", help="print JSON")

    pr = sub.add_parser(
        "profile", formatter_class=fmt,
        help="exact 1-D privacy profile delta(eps) (Theorem 3, eq 13)",
        description="delta(eps) = int [g(t) - e^eps g(t + Delta)]_+ dt of the 1-D flipped Huber mechanism\n"
        "(Theorem 3, eq 13; fhsym.privacy_profile), at one or more eps.  Relative error <= 1e-10.",
        epilog="example: fhsym profile --alpha 1 --gamma 2 --epsilon 0.5 1 2\n" + _EPILOG_EXIT,
    )
    pr.add_argument("--alpha", type=_ALPHA, required=True, metavar="A", help="transition parameter alpha >= 0")
    pr.add_argument("--gamma", type=_GAMMA, required=True, metavar="G", help="scale parameter gamma > 0")
    pr.add_argument("--sensitivity", type=_SENS, default=1.0, metavar="S", help="sensitivity Delta > 0 (default 1)")
    pr.add_argument("--epsilon", type=_EPS, nargs="+", required=True, metavar="E", help="one or more eps >= 0")
    pr.add_argument("--json", action="store_true", help="print JSON")

    s = sub.add_parser(
        "sample", formatter_class=fmt,
        help="draw flipped Huber noise (inverse-CDF sampler)",
        description="Draw n samples of FH(alpha, gamma^2) noise (FlippedHuber.rvs: inverse CDF of eq 10).",
        epilog="example: fhsym sample --alpha 1 --gamma 2 -n 1000 --seed 0 --out noise.npy\n" + _EPILOG_EXIT,
    )
    s.add_argument("--alpha", type=_ALPHA, required=True, metavar="A", help="transition parameter alpha >= 0")
    s.add_argument("--gamma", type=_GAMMA, required=True, metavar="G", help="scale parameter gamma > 0")
    s.add_argument("-n", type=_integer("n", 0), default=10, metavar="N", help="number of samples >= 0 (default 10)")
    s.add_argument("--seed", type=_integer("seed", 0), default=None, metavar="SEED",
                   help="random seed >= 0 (default: fresh OS entropy)")
    s.add_argument("--out", default=None, metavar="FILE.npy", help="write the samples to this .npy file instead of printing")
    s.add_argument("--json", action="store_true", help="print JSON")

    v = sub.add_parser(
        "verify", formatter_class=fmt,
        help="run the proofs (python -m proofs) with a progress bar",
        description="Run fhsym's proofs: every closed form derived symbolically and checked against mpmath\n"
        "quadrature of its definition (the same checks as `python -m proofs`).  A full run rewrites\n"
        "proofs/REPORT.md.  Needs a source checkout (pip install -e . from the repository).",
        epilog="examples:\n  fhsym verify                     # everything (long), writes proofs/REPORT.md\n"
        "  fhsym verify --quick --only distribution\n"
        "  fhsym verify --check distribution.rho_properties\n"
        "exit status: 0 all checks pass, 1 a check failed, 2 bad input or no source checkout",
    )
    v.add_argument("--quick", action="store_true", help="the fast subset (fewer random points and sweep values)")
    v.add_argument("--only", action="append", default=[], metavar="TOPIC", help="run only this topic (repeatable)")
    v.add_argument("--check", action="append", default=[], metavar="TOPIC.NAME",
                   help="run only this check (repeatable), e.g. distribution.rho_properties")
    v.add_argument("--list", action="store_true", help="list the topics and checks, then exit")
    v.add_argument("-j", "--jobs", type=_integer("jobs", 1), default=min(2, os.cpu_count() or 1), metavar="N",
                   help="parallel processes (default: min(2, cpus))")
    v.add_argument("--report", type=Path, default=None, metavar="PATH",
                   help="write the markdown report here (default for a full run: proofs/REPORT.md)")
    v.add_argument("--no-report", action="store_true", help="do not write a report")
    v.add_argument("--no-progress", action="store_true", help="no progress bar")
    v.add_argument("--json", action="store_true", help="print JSON")

    r = sub.add_parser(
        "reproduce", formatter_class=fmt,
        help="regenerate the paper's tables and figures (Fig 1, 2, 3, 4, 6, 7)",
        description="Regenerate the paper's numbers and figures: the 1-D tables and Fig 1, 2, 3 (a, b, c), 6, 7\n"
        "(scripts/reproduce_1d.py) and the K-dimensional results with Fig 4 (scripts/reproduce_kdim.py).\n"
        "Figures go to OUT/figures/, tables to OUT/reproduction/.  Calibrations are cached in\n"
        "OUT/reproduction/data/1d.json (invalidated when the numeric code changes).  Needs matplotlib\n"
        "(pip install 'fhsym[plot]') and a source checkout.",
        epilog="examples:\n  fhsym reproduce                  # 1-D (~5 min on 2 cores) then K-dim (~10 min)\n"
        "  fhsym reproduce --quick --skip-kdim --out /tmp/fh\n"
        "exit status: 0 success, 1 a step failed, 2 bad input, no matplotlib or no source checkout",
    )
    r.add_argument("--out", type=Path, default=None, metavar="DIR", help="output directory (default: docs/ of the checkout)")
    r.add_argument("--quick", action="store_true", help="coarse grids (a smoke run: ~1 min for the 1-D part)")
    r.add_argument("--skip-kdim", action="store_true", help="skip the K-dimensional part (Fig 4, Table II)")
    r.add_argument("--no-cache", action="store_true", help="recompute every calibration (ignore the cache)")
    r.add_argument("-j", "--jobs", type=_integer("jobs", 1), default=min(2, os.cpu_count() or 1), metavar="N",
                   help="parallel processes for the calibrations (default: min(2, cpus))")
    r.add_argument("--no-progress", action="store_true", help="no progress bar")
    r.add_argument("--json", action="store_true", help="print JSON")
    return p


# ---------------------------------------------------------------------------
# commands: each returns (result dict, exit status)
# ---------------------------------------------------------------------------


def _cmd_calibrate(ns) -> tuple:
    from .calibration import calibrate

    try:
        cal = calibrate(ns.epsilon, ns.delta, sensitivity=ns.sensitivity, dim=ns.dim,
                        l2_sensitivity=ns.l2_sensitivity, l1_sensitivity=ns.l1_sensitivity, method=ns.method)
    except NotImplementedError as exc:
        raise CLIError(f"--dim {ns.dim} (method {ns.method!r}) is not available in this version of fhsym: {exc}") from None
    res = dict(cal.as_dict())
    for k, val in list(res.items()):  # JSON-safe: numpy scalars to Python numbers
        if isinstance(val, np.generic):
            res[k] = val.item()
    return res, 0


def _cmd_profile(ns) -> tuple:
    from .privacy_profile import privacy_profile

    d = np.atleast_1d(privacy_profile(ns.epsilon, ns.alpha, ns.gamma, ns.sensitivity))
    return {"alpha": ns.alpha, "gamma": ns.gamma, "sensitivity": ns.sensitivity,
            "epsilon": [float(e) for e in ns.epsilon], "delta": [float(x) for x in d]}, 0


def _cmd_sample(ns) -> tuple:
    from .distribution import FlippedHuber

    fh = FlippedHuber(ns.alpha, ns.gamma)
    x = np.atleast_1d(fh.rvs(ns.n, random_state=ns.seed))
    res = {"alpha": ns.alpha, "gamma": ns.gamma, "n": ns.n, "seed": ns.seed}
    if ns.out:
        out = Path(ns.out)
        if not out.parent.is_dir():
            raise CLIError(f"argument --out: directory {str(out.parent)!r} does not exist")
        np.save(out, x)
        res["out"] = str(out if out.suffix == ".npy" else out.with_name(out.name + ".npy"))
        return res, 0
    res["samples"] = [float(v) for v in x]
    return res, 0


def _load_proofs(root: Path):
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    from proofs import _harness as H  # noqa: WPS433 - lives in the checkout, not in the package

    return H


def _cmd_verify(ns) -> tuple:
    root = _need_checkout("verify")
    H = _load_proofs(root)
    progress_on = not (ns.no_progress or ns.list)
    t0 = time.perf_counter()
    if progress_on:
        print("fhsym verify: importing the proof topics (SymPy) ...", file=sys.stderr, flush=True)
    topics = H.discover()
    if ns.list:
        listing = [{"topic": t.name, "title": t.title,
                    "checks": [{"key": c.key, "object": c.obj, "paper": c.paper, "claim": c.claim, "quick": c.quick}
                               for c in t.checks]} for t in topics]
        return {"topics": listing}, 0
    try:
        checks = H.select(topics, ns.only, ns.quick)
    except ValueError as exc:
        raise CLIError(f"argument --only: {exc}") from None
    if ns.check:
        known = {c.key: c for t in topics for c in t.checks}
        unknown = [k for k in ns.check if k not in known]
        if unknown:
            raise CLIError(f"argument --check: unknown check(s) {unknown}; see `fhsym verify --list`")
        wanted = set(ns.check)
        checks = [c for t in topics for c in t.checks if c.key in wanted]

    full = not ns.only and not ns.quick and not ns.check
    if ns.no_report:
        report_path = None
    elif ns.report is not None:
        report_path = ns.report
    else:
        report_path = (root / "proofs" / "REPORT.md") if full else None
    # the equivalent command, recorded in the report ("python -m proofs" has no --check)
    cmd = (("fhsym verify" if ns.check else "python -m proofs") + "".join(f" --only {o}" for o in ns.only)
           + (" --quick" if ns.quick else "") + "".join(f" --check {k}" for k in ns.check))

    bar = Progress(len(checks), "proofs", enabled=progress_on)
    failures: List = []

    def progress(res) -> None:
        if res.verdict != H.PASS:
            failures.append(res)
            bar.message(f"FAIL {res.key}: {res.claim}")
        bar.advance(res.key)

    # checks may print; keep stdout for the summary / JSON
    with contextlib.redirect_stdout(sys.stderr):
        results = H.run(checks, quick=ns.quick, jobs=ns.jobs, progress=progress)
    bar.close()
    elapsed = time.perf_counter() - t0
    n_fail = sum(r.verdict != H.PASS for r in results)
    if report_path is not None:
        used = [t for t in topics if any(r.topic == t.name for r in results)]
        Path(report_path).write_text(H.render_report(used, results, cmd, ns.quick))
    res = {
        "command": cmd,
        "checks": len(results),
        "passed": len(results) - n_fail,
        "failed": n_fail,
        "seconds": round(elapsed, 1),
        "report": str(report_path) if report_path is not None else None,
        "errata": sorted({r.erratum for r in results if r.erratum}),
        "results": [{"key": r.key, "object": r.obj, "paper": r.paper, "claim": r.claim, "method": r.method,
                     "worst": r.worst, "where": r.where, "verdict": r.verdict, "erratum": r.erratum}
                    for r in results],
        "_table": H.format_table(results),
        "_failures": [(r.key, r.claim, list(r.evidence)) for r in results if r.verdict != H.PASS],
    }
    return res, (1 if n_fail else 0)


def _load_script(root: Path, name: str):
    path = root / "scripts" / f"{name}.py"
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location(f"_fhsym_scripts_{name}", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses / pickling need the module registered
    spec.loader.exec_module(mod)
    return mod


def _cmd_reproduce(ns) -> tuple:
    root = _need_checkout("reproduce")
    _need_module("matplotlib", "reproduce")
    out = Path(ns.out) if ns.out is not None else root / "docs"
    if out.exists() and not out.is_dir():
        raise CLIError(f"argument --out: {str(out)!r} exists and is not a directory")
    rep1d = _load_script(root, "reproduce_1d")
    if rep1d is None:
        raise CLIError(f"`fhsym reproduce` needs {root / 'scripts' / 'reproduce_1d.py'}, which is missing")
    t0 = time.perf_counter()
    progress_on = not ns.no_progress
    plan = rep1d.plan(quick=ns.quick)
    bar = Progress(plan.total, "1-D", enabled=progress_on)
    with contextlib.redirect_stdout(sys.stderr):
        summary = rep1d.run(out, quick=ns.quick, use_cache=not ns.no_cache, jobs=ns.jobs,
                            progress=lambda note: bar.advance(note), log=bar.message)
    bar.close()
    status = 0
    kdim = {"ran": False, "status": None, "note": ""}
    kscript = root / "scripts" / "reproduce_kdim.py"
    if ns.skip_kdim:
        kdim["note"] = "skipped (--skip-kdim)"
    elif not kscript.is_file():
        kdim["note"] = f"{kscript} not present: Fig 4 and Table II not regenerated"
    else:
        kout = out / "reproduction" / "kdim.md"
        cmd = [sys.executable, str(kscript), "--out", str(kout)] + (["--quick"] if ns.quick else [])
        if progress_on:
            print(f"K-dim: {' '.join(cmd[1:])} (log follows)", file=sys.stderr, flush=True)
        proc = subprocess.Popen(cmd, cwd=str(root), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        kbar = Progress(0, "K-dim", enabled=progress_on)
        tail: List[str] = []
        assert proc.stdout is not None
        for line in proc.stdout:
            tail = (tail + [line.rstrip()])[-20:]
            kbar.message(f"  kdim {kbar.elapsed:5.0f}s | {line.rstrip()}")
        rc = proc.wait()
        if rc != 0 and not progress_on:  # the log was hidden: show its end
            print("\n".join(f"  kdim | {x}" for x in tail), file=sys.stderr)
        kdim.update(ran=True, status=rc, note=f"{kscript.name} exited with status {rc}",
                    outputs=[str(p) for p in sorted(kout.parent.glob("kdim*")) if p.is_file()])
        if rc != 0:
            status = 1
        elif kout.is_file():  # 1d.md links the K-dim page once it exists
            try:
                rep1d.refresh_markdown(out, quick=ns.quick)
            except RuntimeError as exc:  # the numeric code changed while K-dim ran
                print(f"fhsym reproduce: 1d.md not refreshed: {exc}", file=sys.stderr)
    summary["kdim"] = kdim
    summary["seconds"] = round(time.perf_counter() - t0, 1)
    return summary, status


# ---------------------------------------------------------------------------
# human-readable output
# ---------------------------------------------------------------------------


def _print_human(command: str, res: dict) -> None:
    if command == "calibrate":
        dim = res.get("dim", 1)
        print(f"flipped Huber noise for ({res['epsilon']:g}, {res['delta']:g})-DP, "
              f"sensitivity {res.get('sensitivity', 1.0):g}, dim {dim}:")
        print(f"  alpha          = {res['alpha']:.17g}")
        print(f"  gamma          = {res['gamma']:.17g}")
        print(f"  variance       = {res['variance']:.17g}" + ("  (per coordinate)" if dim != 1 else ""))
        print(f"  achieved delta = {res['achieved_delta']:.6e}  (target {res['delta']:g})")
        if res.get("method"):
            print(f"  method         : {res['method']}")
        if res.get("certificate"):
            print(f"  certificate    : {res['certificate']}")
    elif command == "profile":
        print(f"privacy profile of FH(alpha={res['alpha']:g}, gamma={res['gamma']:g}), sensitivity {res['sensitivity']:g}:")
        for e, d in zip(res["epsilon"], res["delta"]):
            print(f"  eps = {e:<12g} delta = {d:.12e}")
    elif command == "sample":
        if "out" in res:
            print(f"wrote {res['n']} samples to {res['out']}")
        else:
            print("\n".join(f"{v:.17g}" for v in res["samples"]))
    elif command == "verify":
        if "topics" in res:
            for t in res["topics"]:
                print(f"{t['topic']}: {t['title']}")
                for c in t["checks"]:
                    print(f"  {c['key']:48s} {c['paper']:28s} {'quick' if c['quick'] else ''}".rstrip())
            return
        print(res["_table"])
        print()
        for key, claim, evidence in res["_failures"]:
            print(f"FAIL {key}: {claim}")
            for e in evidence:
                print("    " + e)
        if res["errata"]:
            print(f"errata documented: {', '.join(res['errata'])} (docs/errata.md)")
        print(f"{res['checks']} checks, {res['passed']} PASS, {res['failed']} FAIL in {res['seconds']:.1f}s")
        if res["report"]:
            print(f"wrote {res['report']}")
    elif command == "reproduce":
        print(f"fhsym reproduce: outputs in {res['out']} ({res['seconds']:.0f} s)")
        for f in res.get("figures", []):
            print(f"  figure  {f}")
        for t in res.get("tables", []):
            print(f"  table   {t}")
        for d in res.get("data", []):
            print(f"  data    {d}")
        k = res["kdim"]
        print(f"  K-dim   {k['note']}")
        for o in k.get("outputs", []):
            print(f"          {o}")


def _json_ready(res: dict) -> dict:
    return {k: v for k, v in res.items() if not k.startswith("_")}


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the CLI with ``argv`` (default ``sys.argv[1:]``); return the exit status.

    0 on success, 1 when ``verify`` finds a failing check (or ``reproduce`` a failing
    step), 2 on bad input (one line on stderr naming the parameter) or when a
    feature is unavailable (no source checkout, no matplotlib, a calibration the
    library reports as not implemented).  ``fhsym`` (the console script) and
    ``python -m fhsym`` call it.

    Examples
    --------
    >>> main(["calibrate", "--epsilon", "1", "--delta", "2"])
    2
    >>> main(["--version"])  # doctest: +ELLIPSIS
    fhsym ...
    0
    """
    parser = _build()
    try:
        ns = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: --help/--version (0) or a usage error (2)
        return int(exc.code or 0)
    handlers = {"calibrate": _cmd_calibrate, "profile": _cmd_profile, "sample": _cmd_sample,
                "verify": _cmd_verify, "reproduce": _cmd_reproduce}
    try:
        res, status = handlers[ns.command](ns)
    except CLIError as exc:
        print(f"fhsym {ns.command}: error: {exc}", file=sys.stderr)
        return 2
    except (ValueError, NotImplementedError, OverflowError) as exc:
        print(f"fhsym {ns.command}: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    if ns.json:
        print(json.dumps(_json_ready(res), allow_nan=False))
    else:
        _print_human(ns.command, res)
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
