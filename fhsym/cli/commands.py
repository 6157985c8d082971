"""The subcommands: each takes the parsed arguments and returns (result dict, exit status)."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.util
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any, Dict, List, Optional, Tuple

from .common import CLIError, need_checkout, need_module, source_root
from .eta import CheckTimes, default_times_path
from .progress import Progress


# ---------------------------------------------------------------------------
# commands: each returns (result dict, exit status)
# ---------------------------------------------------------------------------


def load_laws(paths: List[Path]) -> List[str]:
    """Run each ``--law`` file (a module that declares a law with ``fhsym.declare_law``) and return the names of the
    declared, registered laws it binds (``CLIError`` naming the file if it cannot be run or declares none)."""
    from ..noise import NOISE_CLASSES
    from ..noise.declared import DeclaredNoise

    names: List[str] = []
    for path in paths:
        if not path.is_file():
            raise CLIError(f"argument --law: no file {str(path)!r}")
        spec = importlib.util.spec_from_file_location(f"fhsym_cli_law_{len(names)}_{path.stem}", path)
        if spec is None or spec.loader is None:
            raise CLIError(f"argument --law: {str(path)!r} is not a Python module")
        mod = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(mod)
        except ValueError:  # a refused declaration (not log-concave, a name already taken ...): its own message
            raise
        except Exception as exc:  # noqa: BLE001 - the user's file: any error is reported as bad input
            raise CLIError(f"argument --law: {str(path)!r} raised {type(exc).__name__}: {exc}") from None
        found: List[str] = []
        for v in vars(mod).values():
            name = getattr(v, "name", None)
            if isinstance(v, type) and issubclass(v, DeclaredNoise) and isinstance(name, str) and \
                    NOISE_CLASSES.get(name) is v:
                found.append(name)
        if not found:
            raise CLIError(f"argument --law: {str(path)!r} declares no registered law (it must bind the class "
                           f"returned by fhsym.declare_law(...), docs/declare.md)")
        names += [n for n in found if n not in names]
    return names


def cmd_calibrate(ns: argparse.Namespace) -> Tuple[Dict[str, Any], int]:
    from ..calibration import calibrate
    from ..noise import noise_class

    from ..calibration.calibrator import methods_of

    per_file = [(path, load_laws([path])) for path in ns.law]
    try:
        cls = noise_class(ns.mechanism)
    except ValueError as exc:
        raise CLIError(f"argument --mechanism: {exc} (a law of your own: --law FILE.py)") from None
    for path, declared in per_file:  # a --law file whose laws are not calibrated would be ignored: refused
        if ns.mechanism not in declared:
            raise CLIError(f"argument --law: {str(path)!r} declares {declared}, but --mechanism is {ns.mechanism!r} "
                           f"(calibrate computes one law); calibrate one of its laws (--mechanism {declared[0]}) or "
                           "leave that --law out")
    methods = methods_of(cls)  # the --method choices: the keys of the plans the law declares
    if ns.method not in methods:
        raise CLIError(f"argument --method: must be one of {list(methods)} for --mechanism {ns.mechanism}; "
                       f"got {ns.method!r}")

    # mechanism options, refused by calibrate for the mechanisms that do not take them
    options = {k: v for k, v in (("step", ns.step), ("bins", ns.bins)) if v is not None}
    from .._core.limits import MAX_FOLDS

    if 1 < ns.dim * ns.compositions <= MAX_FOLDS and not ns.json:  # larger requests are refused at once
        # K-dimensional and composed calibrations search with certified PLDs: seconds, not milliseconds
        print(f"fhsym calibrate: dim {ns.dim} x {ns.compositions} release(s): searching with certified "
              f"privacy-loss distributions (seconds) ...", file=sys.stderr, flush=True)
    try:
        cal = calibrate(ns.epsilon, ns.delta, sensitivity=ns.sensitivity, dim=ns.dim,
                        l2_sensitivity=ns.l2_sensitivity, l1_sensitivity=ns.l1_sensitivity, method=ns.method,
                        mechanism=ns.mechanism, compositions=ns.compositions, **options)
    except NotImplementedError as exc:
        raise CLIError(f"--dim {ns.dim} (method {ns.method!r}) is not available in this version of fhsym: {exc}") from None
    res = dict(cal.as_dict())
    res["parameters"] = dict(cal.parameters)
    comparison = {}
    from ..noise import Gaussian, Laplace

    for other in (Gaussian.name, Laplace.name):  # what the same guarantee costs with the usual noises
        if other != ns.mechanism:
            try:
                comparison[other] = calibrate(ns.epsilon, ns.delta, sensitivity=ns.sensitivity, dim=ns.dim,
                                              l2_sensitivity=ns.l2_sensitivity, l1_sensitivity=ns.l1_sensitivity,
                                              mechanism=other, compositions=ns.compositions).variance
            except ValueError:  # not available for this request (e.g. epsilon = 0 for pure Laplace)
                pass
    res["comparison"] = comparison
    if comparison and cal.variance > 0:
        from ..applications.advise import ratio_text

        res["_comparison_text"] = {k: ratio_text(v / cal.variance) for k, v in comparison.items()}
    import numpy as np

    for k, val in list(res.items()):  # JSON-safe: numpy scalars to Python numbers
        if isinstance(val, np.generic):
            res[k] = val.item()
    if ns.certificate is not None:
        try:
            ns.certificate.write_text(cal.certificate.to_json() + "\n")
        except OSError as exc:
            raise CLIError(f"cannot write --certificate {str(ns.certificate)!r}: {exc.strerror}") from None
        res["certificate_file"] = str(ns.certificate)
    return res, 0


def cmd_advise(ns: argparse.Namespace) -> Tuple[Dict[str, Any], int]:
    from ..applications.advise import advise
    from ..applications.frontier import candidates_for

    declared = tuple(load_laws(ns.law))
    bar = Progress(0, "advise", enabled=not ns.no_progress)
    adv = advise(ns.epsilon, ns.delta, dim=ns.dim, norm=ns.norm, compositions=ns.compositions,
                 sensitivity=ns.sensitivity, data=False if ns.no_data else None, progress=bar.message,
                 candidates=candidates_for(ns.dim, ns.compositions) + declared, reverify=ns.reverify)
    res = adv.to_dict()
    res["_text"] = str(adv)  # the ranked table (Advice.__str__); --json leaves it out
    if ns.plot is not None:  # the ranking as a picture (fhsym.plotting.advice_figure)
        need_module("matplotlib", "advise --plot")
        from ..plotting import DIGEST_KEY, advice_figure, advice_series, data_digest

        meta = {"Software": None, DIGEST_KEY: data_digest(advice_series(adv))} if ns.plot.suffix.lower() == ".png" else None
        try:
            advice_figure(adv).savefig(ns.plot, dpi=100, metadata=meta)
        except OSError as exc:
            raise CLIError(f"cannot write --plot {str(ns.plot)!r}: {exc.strerror}") from None
        res["plot"] = str(ns.plot)
        res["_text"] += f"\nplot: {ns.plot}"
    return res, 0


def cmd_check_certificate(ns: argparse.Namespace) -> Tuple[Dict[str, Any], int]:
    from ..calibration.verify import check_certificate

    try:
        text = ns.file.read_text()
    except OSError as exc:
        raise CLIError(f"cannot read {str(ns.file)!r}: {exc.strerror}") from None
    from .._core.limits import Budget

    # ValueError (malformed, or over the verification budget) -> exit 2
    v = check_certificate(text, Budget(ns.max_seconds, ns.max_mb << 20))
    res = {"file": str(ns.file), "verdict": v.verdict.value, "ok": v.ok, "rigorous": v.rigorous, "lower": v.lower,
           "upper": v.upper, "reason": v.reason}
    return res, {"proven": 0, "false": 1, "unproven": 3}[v.verdict.value]


def cmd_profile(ns: argparse.Namespace) -> Tuple[Dict[str, Any], int]:
    import numpy as np

    from ..privacy import privacy_profile

    d = np.atleast_1d(privacy_profile(ns.epsilon, ns.alpha, ns.gamma, ns.sensitivity))
    return {"alpha": ns.alpha, "gamma": ns.gamma, "sensitivity": ns.sensitivity,
            "epsilon": [float(e) for e in ns.epsilon], "delta": [float(x) for x in d]}, 0


def cmd_sample(ns: argparse.Namespace) -> Tuple[Dict[str, Any], int]:
    import shutil

    import numpy as np

    from ..noise import FlippedHuber

    fh = FlippedHuber(ns.alpha, ns.gamma)
    res = {"alpha": ns.alpha, "gamma": ns.gamma, "n": ns.n, "seed": ns.seed}
    if ns.out:
        out = Path(ns.out)
        if not out.parent.is_dir():
            raise CLIError(f"argument --out: directory {str(out.parent)!r} does not exist")
        out = out if out.suffix == ".npy" else out.with_name(out.name + ".npy")
        free = shutil.disk_usage(out.parent).free
        if 8 * ns.n + 128 > free:
            raise CLIError(f"argument -n: {ns.n} samples need {8 * ns.n / 2**30:.3g} GiB; {free / 2**30:.3g} GiB are free "
                           f"in {str(out.parent)!r}")
        # drawn and written in chunks (bounded memory) from one sample stream: the samples of one rvs(n) call
        stream = fh.sample_stream(ns.seed)
        arr = np.lib.format.open_memmap(out, mode="w+", dtype=np.float64, shape=(ns.n,))
        for start in range(0, ns.n, SAMPLE_CHUNK):
            m = min(SAMPLE_CHUNK, ns.n - start)
            arr[start : start + m] = stream.draw(m)
        arr.flush()
        del arr
        res["out"] = str(out)
        return res, 0
    if ns.n > MAX_PRINTED_SAMPLES:
        raise CLIError(f"argument -n: at most {MAX_PRINTED_SAMPLES} samples are printed; got {ns.n} "
                       "(write them to a file with --out FILE.npy)")
    res["samples"] = [float(v) for v in np.atleast_1d(fh.rvs(ns.n, random_state=ns.seed))]
    return res, 0


#: ``fhsym sample`` prints at most this many samples (more go to ``--out``, written in chunks)
MAX_PRINTED_SAMPLES = 10_000_000
SAMPLE_CHUNK = 1 << 22


def _load_proofs(root: Optional[Path]) -> ModuleType:
    """The proofs' harness: the checkout's ``proofs`` package, else the copy the wheel carries (``fhsym._proofs``)."""
    if root is None:
        try:
            return importlib.import_module("fhsym._proofs._harness")
        except ImportError:
            raise CLIError("`fhsym verify` needs the proofs: this fhsym has neither a source checkout around it nor "
                           "the fhsym._proofs package of the wheel; install fhsym from its wheel, or clone the repository and install "
                           "it with `pip install -e .`") from None
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    return importlib.import_module("proofs._harness")  # lives in the checkout, not in the package


def cmd_verify(ns: argparse.Namespace) -> Tuple[Dict[str, Any], int]:
    if ns.list and ns.times:
        raise CLIError("argument --times: lists the slowest checks of a run; --list runs none")
    if ns.list:  # every option of a run is refused with --list (it runs nothing), never ignored
        given = [o for o, on in (("--quick", ns.quick), ("--only", ns.only), ("--check", ns.check),
                                 ("--report", ns.report is not None), ("--no-report", ns.no_report),
                                 ("--jobs", getattr(ns, "given_jobs", False))) if on]
        if given:
            raise CLIError(f"argument {given[0]}: selects or reports a run; --list runs none (it lists every check)")
    if ns.report is not None and ns.no_report:
        raise CLIError(f"argument --report: names the report's file, but --no-report writes none; got --report "
                       f"{str(ns.report)!r} with --no-report")
    if ns.only and ns.check:
        raise CLIError(f"argument --only: --check names the checks to run, so --only {ns.only[0]} would not be used; "
                       "give one of them")
    if ns.times and ns.json:
        raise CLIError("argument --times: prints the slowest checks in the human output; --json gives every check's "
                       "seconds (results[].seconds, cpu_seconds) instead")
    root = source_root()  # None from an installed wheel: its own copy of the proofs (fhsym._proofs)
    H = _load_proofs(root)
    progress_on = not (ns.no_progress or ns.list)
    t0 = time.perf_counter()
    if progress_on:
        print("fhsym verify: importing the proof topics (SymPy) ...", file=sys.stderr, flush=True)
    topics = H.discover()
    imported = time.perf_counter() - t0  # importing the topics (SymPy derivations of the declared laws)
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
        # the checkout's report; an installed fhsym writes none unless --report names a file
        report_path = (root / "proofs" / "REPORT.md") if full and root is not None else None
    # the equivalent command, recorded in the report ("python -m proofs" has no --check)
    cmd = (("fhsym verify" if ns.check else "python -m proofs") + "".join(f" --only {o}" for o in ns.only)
           + (" --quick" if ns.quick else "") + "".join(f" --check {k}" for k in ns.check))

    bar = Progress(len(checks), "proofs", enabled=progress_on)
    failures: List[Any] = []  # the harness's results (proofs/, loaded from the checkout: untyped)
    # the ETA: each check's time in earlier runs of this mode, scaled by this run's pace (fhsym.cli.eta)
    times = CheckTimes(default_times_path("quick" if ns.quick else "full"))
    # a first run here: the CPU seconds recorded with the proofs (proofs/_times.json) for the ETA
    eta_times = times if times.previous else CheckTimes(None, H.recorded_times(ns.quick))
    keys = [c.key for c in checks]
    finished: Dict[str, float] = {}

    def progress(res: Any) -> None:
        finished[res.key] = res.seconds
        if res.verdict != H.PASS:
            failures.append(res)
            bar.message(f"FAIL {res.key}: {res.claim}")
        eta = eta_times.eta(finished, [k for k in keys if k not in finished], ns.jobs)
        bar.advance(f"{res.key} ({res.seconds:.1f}s)", eta=eta)

    # checks may print; keep stdout for the summary / JSON
    # with -j > 1 the longest checks (by earlier runs here, else by the times recorded with the proofs) start
    # first, so the run does not end waiting on one long check that started last; results in the topics' order
    t_run = time.perf_counter()
    with contextlib.redirect_stdout(sys.stderr):
        results = H.run(checks, quick=ns.quick, jobs=ns.jobs, progress=progress, seconds=times.previous)
    t_run = time.perf_counter() - t_run
    bar.close()
    times.save(finished)
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
        "import_seconds": round(imported, 1),
        "report": str(report_path) if report_path is not None else None,
        "errata": sorted({r.erratum for r in results if r.erratum}),
        "results": [{"key": r.key, "object": r.obj, "paper": r.paper, "claim": r.claim, "method": r.method,
                     "worst": r.worst, "where": r.where, "verdict": r.verdict, "erratum": r.erratum,
                     "seconds": round(r.seconds, 2), "cpu_seconds": round(r.cpu, 2)}
                    for r in results],
        "_table": H.format_table(results),
        "_failures": [(r.key, r.claim, list(r.evidence)) for r in results if r.verdict != H.PASS],
        "_times": H.format_times(results, ns.times, t_run, ns.jobs, imported) if ns.times else "",
    }
    return res, (1 if n_fail else 0)


def _load_script(root: Path, name: str) -> Optional[ModuleType]:
    path = root / "scripts" / f"{name}.py"
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location(f"_fhsym_scripts_{name}", path)
    assert spec is not None and spec.loader is not None  # a .py file has a source loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses / pickling need the module registered
    spec.loader.exec_module(mod)
    return mod


def progress_on_default(ns: argparse.Namespace) -> bool:
    return not getattr(ns, "no_progress", False) and not getattr(ns, "json", False)


def reproduce_out(out: Optional[Path], cwd: Optional[Path] = None) -> Path:
    """The output directory of ``fhsym reproduce``: ``out`` as given (the user asked for it), else a new folder
    ``fhsym-reproduction-<date>-<time>`` in the working directory; never inside the installed package."""
    if out is None:
        base = (cwd or Path.cwd()) / time.strftime("fhsym-reproduction-%Y%m%d-%H%M%S")
        out, n = base, 1
        while out.exists():
            n += 1
            out = base.with_name(f"{base.name}-{n}")
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise CLIError(f"argument --out: {str(out)!r} exists and is not a directory")
    pkg = Path(__file__).resolve().parents[1]  # the fhsym package this CLI belongs to
    if out.resolve() == pkg or pkg in out.resolve().parents:
        raise CLIError(f"argument --out: {str(out)!r} is inside the installed fhsym package ({pkg}); choose another "
                       f"directory")
    return out


def kdim_eta(previous: Dict[str, float], seen: Dict[str, float]) -> str:
    """``', ETA 3m10s'`` for the K-dim part: the last run's remaining time after this many log lines, scaled by
    this run's pace so far; ``''`` without a recorded run.

    >>> kdim_eta({"line1": 10.0, "line2": 50.0, "total": 100.0}, {"line1": 20.0})
    ', ETA 3m00s'
    """
    from .eta import format_seconds

    key = f"line{len(seen)}"
    total, then, now = previous.get("total"), previous.get(key), seen.get(key)
    if not total or not then or now is None or then >= total:
        return ""
    return f", ETA {format_seconds(max(total - then, 0.0) * now / then)}"


def cmd_reproduce(ns: argparse.Namespace) -> Tuple[Dict[str, Any], int]:
    root = need_checkout("reproduce")
    need_module("matplotlib", "reproduce")
    out = reproduce_out(ns.out)
    if ns.out is None and progress_on_default(ns):
        print(f"fhsym reproduce: writing into {out} (a new folder; --out DIR to choose, --out docs rewrites the "
              f"checkout's docs)", file=sys.stderr, flush=True)
    rep1d = _load_script(root, "reproduce_1d")
    if rep1d is None:
        raise CLIError(f"`fhsym reproduce` needs {root / 'scripts' / 'reproduce_1d.py'}, which is missing")
    t0 = time.perf_counter()
    progress_on = not ns.no_progress
    plan = rep1d.plan(quick=ns.quick)
    mode = "quick" if ns.quick else "full"
    ktimes = CheckTimes(default_times_path(f"reproduce-kdim-{mode}"))
    if progress_on and not ns.skip_kdim and ktimes.previous.get("total"):
        print(f"fhsym reproduce: the K-dim part took {ktimes.previous['total']:.0f} s in the last run here",
              file=sys.stderr, flush=True)
    bar = Progress(plan.total, "1-D", enabled=progress_on)
    with contextlib.redirect_stdout(sys.stderr):
        summary = rep1d.run(out, quick=ns.quick, use_cache=not ns.no_cache, jobs=ns.jobs,
                            progress=lambda note: bar.advance(note), log=bar.message,
                            seed_cache=root / "docs" / "reproduction" / "data" / "1d.json")
    bar.close()
    status = 0
    kdim: Dict[str, Any] = {"ran": False, "status": None, "note": ""}
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
        seen: Dict[str, float] = {}  # elapsed seconds at each log line: the ETA of the next run (fhsym.cli.eta)
        assert proc.stdout is not None
        for line in proc.stdout:
            tail = (tail + [line.rstrip()])[-20:]
            seen[f"line{len(seen) + 1}"] = kbar.elapsed
            kbar.message(f"  kdim {kbar.elapsed:5.0f}s{kdim_eta(ktimes.previous, seen)} | {line.rstrip()}")
        rc = proc.wait()
        if rc == 0:
            ktimes.save({**seen, "total": kbar.elapsed})
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
