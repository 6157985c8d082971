"""The ``fhsym`` command line, exercised as users run it: the installed console script in a subprocess.

* ``fhsym calibrate --epsilon 1 --delta 1e-6 --json`` prints valid JSON whose numbers equal
  ``fhsym.calibrate(1, 1e-6)`` (same code, deterministic: exact equality).
* Every bad input exits with status 2, prints nothing on stdout and exactly one line on stderr
  that names the offending parameter.
* ``--help`` works for the program and every subcommand.
* ``fhsym profile`` equals ``fhsym.privacy_profile``; ``fhsym sample`` equals ``FlippedHuber.rvs``
  with the same seed (again the same code path: equality, not a tolerance).
* ``verify`` / ``reproduce`` outside a source checkout fail with a clear message (status 2).

The subprocesses are started concurrently by one module fixture, once per session (under pytest-xdist the
workers share its results; each command costs ~0.7 s of CPU for its imports), so only a representative set of bad inputs runs as a subprocess (the brief's list: negative
eps, delta 0 / 1 / > 1, non-numeric, negative sensitivity, gamma <= 0, negative n); the rest go
through ``cli.main`` in-process, the same parser.  The module runs in ~20 s on 2 cores; ``test_verify_one_check`` (imports the proofs, ~15 s) and
``test_reproduce_quick_end_to_end`` are marked slow.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

import fhsym
from fhsym import cli

ROOT = Path(__file__).resolve().parent.parent
_SCRIPT = Path(sys.executable).parent / "fhsym"
FHSYM = [str(_SCRIPT)] if _SCRIPT.is_file() else [sys.executable, "-m", "fhsym"]

SUBCOMMANDS = ("calibrate", "profile", "sample", "verify", "reproduce")

# (arguments, the parameter the one-line message must name).  SUBPROCESS ones run through the
# installed console script; the others through cli.main in-process (same parser, no 1 s start-up).
SUBPROCESS_BAD = [
    (["calibrate", "--epsilon", "-1", "--delta", "1e-6"], "epsilon"),
    (["calibrate", "--epsilon", "abc", "--delta", "1e-6"], "epsilon"),
    (["calibrate", "--epsilon", "1", "--delta", "0"], "delta"),
    (["calibrate", "--epsilon", "1", "--delta", "1"], "delta"),
    (["calibrate", "--epsilon", "1", "--delta", "1.5"], "delta"),
    (["calibrate", "--epsilon", "1", "--delta", "1e-6", "--sensitivity", "-1"], "sensitivity"),
    (["profile", "--alpha", "1", "--gamma", "0", "--epsilon", "1"], "gamma"),
    (["sample", "--alpha", "1", "--gamma", "-1"], "gamma"),
    (["sample", "--alpha", "1", "--gamma", "2", "-n", "-1"], "n"),
]
INPROCESS_BAD = [
    (["sample", "--alpha", "1", "--gamma", "2", "-n", "100000000000"], "n"),  # issue 13: refused up front, no traceback
    (["calibrate", "--epsilon", "nan", "--delta", "1e-6"], "epsilon"),
    (["calibrate", "--epsilon", "inf", "--delta", "1e-6"], "epsilon"),
    (["calibrate", "--epsilon", "1", "--delta", "-1e-6"], "delta"),
    (["calibrate", "--epsilon", "1", "--delta", "x"], "delta"),
    (["calibrate", "--epsilon", "1", "--delta", "nan"], "delta"),
    (["calibrate", "--epsilon", "1"], "delta"),
    (["calibrate", "--delta", "1e-6"], "epsilon"),
    (["calibrate", "--epsilon", "1", "--delta", "1e-6", "--sensitivity", "0"], "sensitivity"),
    (["calibrate", "--epsilon", "1", "--delta", "1e-6", "--sensitivity", "s"], "sensitivity"),
    (["calibrate", "--epsilon", "1", "--delta", "1e-6", "--dim", "0"], "dim"),
    (["calibrate", "--epsilon", "1", "--delta", "1e-6", "--dim", "two"], "dim"),
    (["calibrate", "--epsilon", "1", "--delta", "1e-6", "--l2-sensitivity", "-2"], "l2_sensitivity"),
    (["calibrate", "--epsilon", "1", "--delta", "1e-6", "--l1-sensitivity", "0"], "l1_sensitivity"),
    (["calibrate", "--epsilon", "1", "--delta", "1e-6", "--method", "bogus"], "method"),
    (["profile", "--alpha", "1", "--gamma", "-2", "--epsilon", "1"], "gamma"),
    (["profile", "--alpha", "1", "--gamma", "abc", "--epsilon", "1"], "gamma"),
    (["profile", "--alpha", "-1", "--gamma", "2", "--epsilon", "1"], "alpha"),
    (["profile", "--alpha", "1", "--gamma", "2", "--epsilon", "1", "-0.5"], "epsilon"),
    (["profile", "--alpha", "1", "--gamma", "2", "--epsilon", "1", "--sensitivity", "-1"], "sensitivity"),
    (["profile", "--alpha", "1", "--gamma", "2"], "epsilon"),
    (["profile", "--alpha", "1e308", "--gamma", "1e-308", "--epsilon", "1"], "alpha/gamma"),
    (["sample", "--alpha", "1", "--gamma", "0"], "gamma"),
    (["sample", "--alpha", "nan", "--gamma", "1"], "alpha"),
    (["sample", "--alpha", "1", "--gamma", "2", "-n", "1.5"], "n"),
    (["sample", "--alpha", "1", "--gamma", "2", "--seed", "-3"], "seed"),
    (["verify", "--jobs", "0"], "jobs"),
    (["reproduce", "--jobs", "-1"], "jobs"),
    (["frobnicate"], "frobnicate"),
]

GOOD = {
    "calibrate": ["calibrate", "--epsilon", "1", "--delta", "1e-6", "--json"],
    "calibrate_human": ["calibrate", "--epsilon", "1", "--delta", "1e-6"],
    "calibrate_dim2": ["calibrate", "--epsilon", "1", "--delta", "1e-6", "--dim", "2", "--json"],
    "profile": ["profile", "--alpha", "1", "--gamma", "2", "--sensitivity", "1.5", "--epsilon", "0", "0.5", "1", "7",
                "--json"],
    "profile_human": ["profile", "--alpha", "1", "--gamma", "2", "--epsilon", "0.5"],
    "sample": ["sample", "--alpha", "1", "--gamma", "2", "-n", "7", "--seed", "3", "--json"],
    "sample_zero": ["sample", "--alpha", "1", "--gamma", "2", "-n", "0", "--json"],
    "version": ["--version"],
}


def _run(args, env=None, timeout=300):
    return subprocess.run(FHSYM + list(args), capture_output=True, text=True, timeout=timeout, env=env)


def _run_all():
    jobs = {f"bad{i}": a for i, (a, _) in enumerate(SUBPROCESS_BAD)}
    jobs.update({f"help:{s}": [s, "--help"] for s in SUBCOMMANDS})
    jobs["help"] = ["--help"]
    jobs.update(GOOD)
    with ThreadPoolExecutor(max_workers=8) as ex:
        futs = {k: ex.submit(_run, a) for k, a in jobs.items()}
        return {k: f.result() for k, f in futs.items()}


@pytest.fixture(scope="module")
def runs(shared_dir):
    """Run every command of this module once, concurrently; results keyed by a label.

    Under pytest-xdist the tests of this module land on several workers, and each ran all ~23 commands (~20 s CPU);
    now they run once per session and the workers share the results (``shared_dir``, tests/conftest.py).  Every test
    still asserts on a real run's return code and output."""
    def make(path):
        done = {k: [r.args, r.returncode, r.stdout, r.stderr] for k, r in _run_all().items()}
        (path / "runs.json").write_text(json.dumps(done))

    data = json.loads((shared_dir("test_cli_runs", make) / "runs.json").read_text())
    return {k: subprocess.CompletedProcess(*v) for k, v in data.items()}


# ---------------------------------------------------------------------------
# calibrate
# ---------------------------------------------------------------------------


def test_calibrate_json_matches_the_library(runs):
    r = runs["calibrate"]
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)  # valid JSON (strict: no NaN/Infinity)
    ref = fhsym.calibrate(1.0, 1e-6)
    for k in ("alpha", "gamma", "variance", "achieved_delta", "epsilon", "target_delta", "sensitivity"):
        assert out[k] == getattr(ref, k), k
    assert out["dim"] == 1 and out["method"] == ref.method
    assert out["achieved_delta"] <= 1e-6
    assert "ball arithmetic" in out["certificate"] and "(proven, method 'arb')" in out["certificate"]


def test_calibrate_human_output(runs):
    r = runs["calibrate_human"]
    assert r.returncode == 0, r.stderr
    assert "alpha" in r.stdout and "achieved delta" in r.stdout and "certificate" in r.stdout


def test_calibrate_dim2_matches_the_library(runs):
    """--dim passes through to fhsym.calibrate (the K-dimensional engine, fhsym.calibration.kdim)."""
    r = runs["calibrate_dim2"]
    ref = fhsym.calibrate(1.0, 1e-6, dim=2)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["dim"] == 2
    for k in ("alpha", "gamma", "variance", "achieved_delta"):
        assert out[k] == getattr(ref, k), k
    assert out["achieved_delta"] <= 1e-6


def test_calibrate_dim_not_implemented_is_a_clear_error(monkeypatch, capsys):
    """Where fhsym.calibrate raises NotImplementedError (dim > 1 before the K-dim engine), exit 2, one line."""
    import fhsym.calibration as C  # the package: the CLI calls fhsym.calibration.calibrate

    def not_yet(*args, **kwargs):
        raise NotImplementedError("calibrate: dim > 1 is not implemented yet")

    monkeypatch.setattr(C, "calibrate", not_yet)
    code = cli.main(["calibrate", "--epsilon", "1", "--delta", "1e-6", "--dim", "3", "--json"])
    err = capsys.readouterr()
    assert code == 2
    assert err.out == ""
    lines = err.err.strip().splitlines()
    assert len(lines) == 1 and "--dim 3" in lines[0] and "not available" in lines[0]


def test_calibrate_passes_every_option_through(monkeypatch, capsys):
    import fhsym.calibration as C  # the package: the CLI calls fhsym.calibration.calibrate

    calls = []
    real = fhsym.calibrate(1.0, 1e-6)

    def spy(epsilon, delta, **kwargs):
        calls.append(dict(kwargs, epsilon=epsilon, delta=delta))
        return real

    monkeypatch.setattr(C, "calibrate", spy)
    code = cli.main(["calibrate", "--epsilon", "1", "--delta", "1e-6", "--sensitivity", "2", "--dim", "4",
                     "--l2-sensitivity", "3", "--l1-sensitivity", "5", "--method", "sufficient", "--json"])
    assert code == 0, capsys.readouterr().err
    assert calls[0] == {"epsilon": 1.0, "delta": 1e-6, "sensitivity": 2.0, "dim": 4, "l2_sensitivity": 3.0,
                        "l1_sensitivity": 5.0, "method": "sufficient", "mechanism": "flipped_huber", "compositions": 1}
    # then the Gaussian and Laplace noise for the same guarantee and sensitivity set, for comparison
    assert [c.pop("mechanism") for c in calls[1:]] == ["gaussian", "laplace"]
    assert all(c == {k: v for k, v in calls[0].items() if k not in ("method", "mechanism")} for c in calls[1:])


# ---------------------------------------------------------------------------
# profile, sample
# ---------------------------------------------------------------------------


def test_profile_matches_privacy_profile(runs):
    r = runs["profile"]
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    eps = [0.0, 0.5, 1.0, 7.0]
    assert out["epsilon"] == eps
    assert out["delta"] == [float(x) for x in fhsym.privacy_profile(eps, 1.0, 2.0, 1.5)]
    assert out["alpha"] == 1.0 and out["gamma"] == 2.0 and out["sensitivity"] == 1.5


def test_profile_human_output(runs):
    r = runs["profile_human"]
    assert r.returncode == 0, r.stderr
    d = float(fhsym.privacy_profile(0.5, 1.0, 2.0))
    assert f"{d:.12e}" in r.stdout


def test_sample_matches_rvs(runs):
    r = runs["sample"]
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    ref = fhsym.FlippedHuber(1.0, 2.0).rvs(7, random_state=3)
    assert out["samples"] == [float(x) for x in ref]
    assert out["n"] == 7 and out["seed"] == 3
    z = json.loads(runs["sample_zero"].stdout)
    assert runs["sample_zero"].returncode == 0 and z["samples"] == []


def test_sample_to_npy(tmp_path):
    path = tmp_path / "noise.npy"
    r = _run(["sample", "--alpha", "0.5", "--gamma", "1", "-n", "5", "--seed", "0", "--out", str(path), "--json"])
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["out"] == str(path)
    np.testing.assert_array_equal(np.load(path), fhsym.FlippedHuber(0.5, 1.0).rvs(5, random_state=0))
    bad = _run(["sample", "--alpha", "1", "--gamma", "1", "--out", str(tmp_path / "missing" / "x.npy")])
    assert bad.returncode == 2 and "--out" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1


# ---------------------------------------------------------------------------
# bad input, help
# ---------------------------------------------------------------------------


def _check_one_line_error(code, out, err, param):
    assert code == 2, (out, err)
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert param in lines[0], lines[0]
    assert "Traceback" not in err


@pytest.mark.parametrize("i", range(len(SUBPROCESS_BAD)), ids=[" ".join(a) for a, _ in SUBPROCESS_BAD])
def test_bad_input_exits_2_with_one_line_naming_the_parameter(runs, i):
    args, param = SUBPROCESS_BAD[i]
    r = runs[f"bad{i}"]
    _check_one_line_error(r.returncode, r.stdout, r.stderr, param)


@pytest.mark.parametrize("args,param", INPROCESS_BAD, ids=[" ".join(a) for a, _ in INPROCESS_BAD])
def test_bad_input_in_process(capsys, args, param):
    code = cli.main(args)
    cap = capsys.readouterr()
    _check_one_line_error(code, cap.out, cap.err, param)


@pytest.mark.parametrize("sub", ("",) + SUBCOMMANDS)
def test_help(runs, sub):
    r = runs[f"help:{sub}" if sub else "help"]
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"usage: fhsym {sub}".rstrip())
    assert "--json" in r.stdout or not sub
    if sub:
        assert "example" in r.stdout  # every subcommand's help shows how to call it
    else:
        for s in SUBCOMMANDS:
            assert s in r.stdout


def test_version(runs):
    assert runs["version"].returncode == 0
    assert runs["version"].stdout.strip() == f"fhsym {fhsym.__version__}"


# ---------------------------------------------------------------------------
# verify / reproduce: need the source checkout (verify also runs from the wheel's fhsym._proofs: .ci/run)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("sub", ["verify", "reproduce"])
def test_outside_a_checkout_is_a_clear_error(tmp_path, sub):
    env = dict(os.environ, FHSYM_SOURCE_ROOT=str(tmp_path))  # not a checkout
    r = _run([sub, "--json"], env=env)
    assert r.returncode == 2
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "source checkout" in lines[0] and "pip install -e ." in lines[0]


def test_reproduce_without_matplotlib_is_a_clear_error(monkeypatch, capsys):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name, *a))
    code = cli.main(["reproduce", "--skip-kdim"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "fhsym[plot]" in err[0]


@pytest.mark.slow
def test_verify_one_check(tmp_path):
    """The console script runs a proof check in-process, shows progress on stderr, JSON on stdout."""
    env = dict(os.environ, FHSYM_VERIFY_TIMES=str(tmp_path / "times.json"))  # not the user's cache
    r = _run(["verify", "--check", "distribution.rho_properties", "-j", "1", "--report", str(tmp_path / "R.md"),
              "--json"], env=env)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["checks"] == 1 and out["passed"] == 1 and out["failed"] == 0
    assert out["results"][0]["key"] == "distribution.rho_properties"
    assert "proofs [" in r.stderr  # the progress bar
    assert (tmp_path / "R.md").read_text().startswith("# fhsym proofs report")


@pytest.mark.slow
def test_verify_unknown_check_and_topic(capsys):
    assert cli.main(["verify", "--check", "nope.nothing", "--no-progress"]) == 2
    assert "--check" in capsys.readouterr().err
    assert cli.main(["verify", "--only", "nope", "--no-progress"]) == 2
    assert "--only" in capsys.readouterr().err


def test_verify_refuses_times_with_list(capsys):
    """``--times N`` reports on a run; with ``--list`` (no run) it is refused, not ignored (and so in ``python -m
    proofs``, with ``--record-times`` too)."""
    assert cli.main(["verify", "--list", "--times", "3"]) == 2
    assert "--times" in capsys.readouterr().err
    for extra in (["--times", "3"], ["--record-times"]):
        r = subprocess.run([sys.executable, "-m", "proofs", "--list", *extra], cwd=ROOT, capture_output=True, text=True)
        assert r.returncode == 2 and "--list" in r.stderr, r.stderr


def test_proofs_main_refuses_options_it_would_ignore():
    """``python -m proofs``: every option of a run is refused with ``--list``, ``--report`` with ``--no-report``,
    ``--only`` with ``--check`` (which names the checks), ``-j`` with a scheduler that starts no local cluster; each
    exits 2 naming the option before any topic is imported."""
    for args, name in ((["--list", "--only", "gaussian"], "--only"), (["--list", "--quick"], "--quick"),
                       (["--list", "-j", "2"], "--jobs"), (["--list", "--no-report"], "--no-report"),
                       (["--report", "/tmp/x.md", "--no-report"], "--report"),
                       (["--only", "gaussian", "--check", "gaussian.x"], "--only"),
                       (["--scheduler", "serial", "-j", "2"], "--jobs"), (["-j", "0"], "--jobs")):
        r = subprocess.run([sys.executable, "-m", "proofs", *args], cwd=ROOT, capture_output=True, text=True,
                           timeout=120)
        assert r.returncode == 2 and f"argument {name}" in r.stderr, (args, r.stderr)


@pytest.mark.slow
def test_reproduce_quick_end_to_end(tmp_path):
    """``fhsym reproduce --quick`` writes every 1-D figure and table (cache seeded from the committed data)."""
    pytest.importorskip("matplotlib")
    committed = ROOT / "docs" / "reproduction" / "data" / "1d.json"
    if committed.is_file():  # the quick grid is a subset of the full one: reused while the code is unchanged
        (tmp_path / "reproduction" / "data").mkdir(parents=True)
        shutil.copy(committed, tmp_path / "reproduction" / "data" / "1d.json")
    r = _run(["reproduce", "--quick", "--skip-kdim", "--out", str(tmp_path), "--json"], timeout=900)
    assert r.returncode == 0, r.stderr[-3000:]
    out = json.loads(r.stdout)
    names = {Path(p).name for p in out["figures"]}
    assert names == {"fig1_densities.png", "fig2_nfi.png", "fig3a_variances.png", "fig3b_fh_vs_laplace_db.png",
                     "fig3c_fh_vs_staircase_db.png", "fig6_profiles.png", "fig7_centered_losses.png"}
    for p in out["figures"]:
        assert Path(p).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    md = (tmp_path / "reproduction" / "1d.md").read_text()
    assert "168.80" in md and "108.94" in md and "22.21" in md
    assert out["kdim"]["note"].startswith("skipped")
    assert "1-D [" in r.stderr  # the progress bar


def test_committed_figures_exist():
    """The figures are committed to docs/figures (regenerate with ``fhsym reproduce``)."""
    figs = ROOT / "docs" / "figures"
    for name in ("fig1_densities.png", "fig2_nfi.png", "fig3a_variances.png", "fig3b_fh_vs_laplace_db.png",
                 "fig3c_fh_vs_staircase_db.png", "fig4_kdim_variances.png", "fig6_profiles.png",
                 "fig7_centered_losses.png"):
        p = figs / name
        assert p.is_file(), f"{p} missing: run `fhsym reproduce`"
        assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_progress_bar_non_tty():
    import io

    buf = io.StringIO()
    bar = cli.Progress(100, "x", stream=buf)
    for _ in range(100):
        bar.advance("note")
    bar.close()
    lines = buf.getvalue().splitlines()
    assert 10 <= len(lines) <= 12  # one line per 10 %, not one per step
    assert lines[-1].startswith("x [") and "100/100" in lines[-1]
    quiet = io.StringIO()
    off = cli.Progress(3, stream=quiet, enabled=False)
    off.advance()
    off.message("hidden")
    assert quiet.getvalue() == ""


def test_sample_huge_n_to_a_file_is_refused_up_front_with_the_space_it_needs(tmp_path, capsys):
    """Issue 13: 10^11 samples need 745 GiB; the refusal says so before any allocation (exit 2, one line)."""
    code = cli.main(["sample", "--alpha", "1", "--gamma", "2", "-n", "100000000000", "--out", str(tmp_path / "x.npy")])
    err = capsys.readouterr().err
    assert code == 2 and "GiB" in err and len(err.strip().splitlines()) == 1


def test_sample_to_npy_in_chunks_equals_one_rvs_call(tmp_path, monkeypatch):
    """--out writes in chunks (bounded memory); the file holds exactly the samples of one rvs(n) call."""
    from fhsym.cli import commands

    monkeypatch.setattr(commands, "SAMPLE_CHUNK", 1000)
    path = tmp_path / "x.npy"
    assert cli.main(["sample", "--alpha", "0.7", "--gamma", "1.3", "-n", "3456", "--seed", "9", "--out", str(path)]) == 0
    np.testing.assert_array_equal(np.load(path), fhsym.FlippedHuber(0.7, 1.3).rvs(3456, random_state=9))


def test_calibrate_compositions_and_discrete_step_match_the_library(capsys):
    """--compositions T and --step H reach fhsym.calibrate (every argument used or refused)."""
    assert cli.main(["calibrate", "--epsilon", "1", "--delta", "1e-6", "--dim", "2", "--compositions", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    ref = fhsym.calibrate(1.0, 1e-6, dim=2, compositions=2)
    assert out["compositions"] == 2 and out["variance"] == ref.variance
    assert cli.main(["calibrate", "--epsilon", "1", "--delta", "1e-5", "--mechanism", "discrete_flipped_huber",
                     "--step", "0.125", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    ref = fhsym.calibrate(1.0, 1e-5, mechanism="discrete_flipped_huber", step=0.125)
    assert out["variance"] == ref.variance and out["parameters"]["step"] == 0.125
    # --step without the lattice mechanism, and the lattice mechanism without --step: refused, exit 2
    for args in (["--step", "0.125"], ["--mechanism", "discrete_flipped_huber"]):
        assert cli.main(["calibrate", "--epsilon", "1", "--delta", "1e-5", *args]) == 2
        err = capsys.readouterr().err
        assert "step" in err and len(err.strip().splitlines()) == 1


def test_calibrate_at_huge_epsilon_is_clean(capsys):
    """Issues 13 and 20: `fhsym calibrate --epsilon 1e300` ends cleanly, without warnings or a traceback (pytest
    turns warnings into errors): the least variance, 2/eps^2 = 2e-600 in the Laplace limit, is below the float
    range, so the answer is an error naming epsilon (exit 2), never a variance printed as 0.0."""
    assert cli.main(["calibrate", "--epsilon", "1e300", "--delta", "1e-6", "--json"]) == 2
    err = capsys.readouterr().err
    assert "epsilon=1e+300" in err and "float range" in err and "Traceback" not in err


# ---------------------------------------------------------------------------
# broken pipes (issue 24): `fhsym ... | head` ends quietly
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("args, read", [
    (["calibrate", "--epsilon", "1", "--delta", "1e-6", "--json"], 0),  # the reader is gone before any output
    (["sample", "--alpha", "1", "--gamma", "2", "-n", "200000"], 100),  # `| head -c 100`: gone mid-output
])
def test_broken_pipe_ends_quietly(args, read):
    proc = subprocess.Popen(FHSYM + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if read:
        assert len(proc.stdout.read(read)) == read
    proc.stdout.close()  # before the output is complete: the next write meets EPIPE
    err = proc.stderr.read().decode()
    proc.stderr.close()
    rc = proc.wait(timeout=300)
    assert "Traceback" not in err and "BrokenPipeError" not in err and "Exception ignored" not in err, err
    assert err == "" and rc in (0, cli.app.BROKEN_PIPE_STATUS), (rc, err)


# ---------------------------------------------------------------------------
# ratios (issue 24): in % and dB, so that 1.0001x does not print as "1x"
# ---------------------------------------------------------------------------


def test_calibrate_prints_the_comparison_in_percent_and_db(capsys):
    import math
    import re

    assert cli.main(["calibrate", "--epsilon", "1", "--delta", "1e-6"]) == 0
    out = capsys.readouterr().out
    fh = fhsym.calibrate(1.0, 1e-6).variance
    for other in ("gaussian", "laplace"):
        var = fhsym.calibrate(1.0, 1e-6, mechanism=other).variance
        line = next(x for x in out.splitlines() if x.strip().startswith(f"{other} variance"))
        m = re.search(r"noise: ([+-][0-9.e+-]+) % \(([+-][0-9.e+-]+) dB\) variance\)", line)
        assert m, line
        assert float(m.group(1)) == pytest.approx(100 * (var / fh - 1), rel=5e-3)
        assert float(m.group(2)) == pytest.approx(10 * math.log10(var / fh), rel=5e-3)
    # the Laplace needs 1.0001x the variance here: a "1x" would hide it
    assert fhsym.calibrate(1.0, 1e-6, mechanism="laplace").variance / fh < 1.001
    assert not re.search(r"\b1x\b", out)


def test_advise_human_output_is_the_advice_table(capsys):
    assert cli.main(["advise", "--epsilon", "1", "--delta", "1e-6", "--no-data", "--no-progress"]) == 0
    out = capsys.readouterr().out.strip()
    adv = fhsym.advise(1.0, 1e-6, data=False)
    assert out == str(adv)
    lines = out.splitlines()
    rows = [x.split() for x in lines[3:3 + len(adv.options)]]
    assert [int(r[0]) for r in rows] == list(range(1, len(adv.options) + 1))
    assert "best" in lines[3] and all("%" in x and "dB" in x for x in lines[4:3 + len(adv.options)])


# ---------------------------------------------------------------------------
# verify: elapsed time and ETA (issue 24)
# ---------------------------------------------------------------------------


def test_check_times_eta(tmp_path):
    from fhsym.cli.eta import CheckTimes

    path = tmp_path / "times.json"
    t = CheckTimes(path)
    assert t.previous == {} and t.eta({"a": 2.0}, ["b", "c", "d"], jobs=3) == pytest.approx(2.0)  # mean x left / jobs
    t.save({"a": 2.0, "b": 8.0})
    again = CheckTimes(path)
    assert again.previous == {"a": 2.0, "b": 8.0}
    # this run is 3x slower on "a": "b" (8 s before) and an unknown "c" (the mean, 5 s) take 3 x 13 s, 2 jobs
    assert again.eta({"a": 6.0}, ["b", "c"], jobs=2) == pytest.approx(3 * 13 / 2)
    assert again.eta({"a": 6.0}, [], jobs=2) == 0.0
    path.write_text("not json")
    assert CheckTimes(path).previous == {}


@pytest.mark.slow
def test_verify_prints_elapsed_and_eta(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("FHSYM_VERIFY_TIMES", str(tmp_path / "times.json"))
    checks = ["--check", "laplace_limit.fused_vs_mpmath", "--check", "laplace_limit.rearranged_forms"]
    assert cli.main(["verify", *checks, "-j", "1", "--no-report", "--json"]) == 0
    err = capsys.readouterr().err
    first = next(line for line in err.splitlines() if line.startswith("proofs [") and " 1/2 " in line)
    assert "elapsed, ETA " in first and "laplace_limit." in first, err
    saved = json.loads((tmp_path / "times.json").read_text())["seconds"]
    assert set(saved) == {"laplace_limit.fused_vs_mpmath", "laplace_limit.rearranged_forms"}


def test_calibrate_the_optimums_noise(tmp_path, capsys):
    """--mechanism piecewise_uniform --bins M: the LP optimum's noise, its certificate re-checks; --bins is refused
    for a mechanism that does not take it (exit 2)."""
    from fhsym import cli

    path = tmp_path / "pu.json"
    assert cli.main(["calibrate", "--epsilon", "1", "--delta", "1e-6", "--mechanism", "piecewise_uniform",
                     "--bins", "2", "--json", "--certificate", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["mechanism"] == "piecewise_uniform" and out["width"] == 0.5 and out["achieved_delta"] <= 1e-6
    assert all(isinstance(n, int) for n in out["weights"])
    assert fhsym.verify_certificate(path.read_text())
    assert cli.main(["calibrate", "--epsilon", "1", "--delta", "1e-6", "--bins", "2"]) == 2
    assert "bins" in capsys.readouterr().err


def test_reproduce_writes_a_new_folder_unless_told_and_never_into_the_package(tmp_path, capsys):
    """`fhsym reproduce` without --out writes into a new folder of the working directory (it used to rewrite the
    checkout's docs/); --out inside the installed package is refused with status 2 before anything runs."""
    from fhsym.cli.commands import reproduce_out

    first = reproduce_out(None, cwd=tmp_path)
    assert first.parent == tmp_path and first.name.startswith("fhsym-reproduction-") and not first.exists()
    first.mkdir()
    assert reproduce_out(None, cwd=tmp_path) not in (first, None)
    assert reproduce_out(tmp_path / "mine") == tmp_path / "mine"
    pkg = Path(fhsym.__file__).resolve().parent
    assert cli.main(["reproduce", "--skip-kdim", "--out", str(pkg / "figs")]) == 2
    assert "--out" in capsys.readouterr().err


def test_calibrate_method_choices_are_the_laws_plans(monkeypatch, capsys):
    """--method takes exactly the keys of the plans a law declares (fhsym.calibration.calibrator.methods_of, issue 28.5):
    every one reaches fhsym.calibrate, another is refused naming --method and listing the law's methods."""
    import fhsym.calibration as C  # the package: the CLI calls fhsym.calibration.calibrate
    from fhsym.calibration.calibrator import methods_of
    from fhsym.cli.parser import BUILTIN_MECHANISMS
    from fhsym.noise import noise_class

    asked = []

    def spy(epsilon, delta, **kwargs):
        if kwargs.get("method") is not None:
            asked.append((kwargs["mechanism"], kwargs["method"]))
        raise ValueError("stop here")  # the run itself is the library's (tested there)

    monkeypatch.setattr(C, "calibrate", spy)
    every = [(m, k) for m in BUILTIN_MECHANISMS for k in methods_of(noise_class(m))]
    assert ("staircase", "kfold-pld-sup") in every and ("gaussian", "zcdp") in every  # not in the former choices
    for mech, key in every:
        cli.main(["calibrate", "--epsilon", "1", "--delta", "1e-6", "--mechanism", mech, "--method", key])
        capsys.readouterr()
    assert asked == every
    assert cli.main(["calibrate", "--epsilon", "1", "--delta", "1e-6", "--mechanism", "laplace", "--method",
                     "zcdp"]) == 2
    err = capsys.readouterr().err
    assert "--method" in err and "['auto', 'pure', 'exact']" in err and err.count("\n") == 1


def test_calibrate_composed_staircase_from_the_cli(capsys):
    """The composed staircase, a plan the former --method choices could not reach, through the CLI."""
    code = cli.main(["calibrate", "--epsilon", "1", "--delta", "1e-6", "--mechanism", "staircase", "--dim", "5",
                     "--compositions", "2", "--method", "kfold-pld-sup", "--json"])
    assert code == 0, capsys.readouterr().err
    res = json.loads(capsys.readouterr().out)
    lib = fhsym.calibrate(1, 1e-6, mechanism="staircase", dim=5, compositions=2, method="kfold-pld-sup")
    assert res["method"] == "kfold-pld-sup" and res["variance"] == lib.variance < 199.649
