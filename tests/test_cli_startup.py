"""Start-up of the ``fhsym`` command (issue 24, item 6): ``fhsym --help`` answers without loading the library.

* What can be asserted without flaking: ``import fhsym`` and ``fhsym --help`` / ``fhsym calibrate --help``
  load none of numpy, scipy, sympy, mpmath or python-flint (``fhsym`` resolves its names on first use,
  PEP 562; the CLI imports the library only when a subcommand runs), and the public names still resolve.
* What is measured and printed (``pytest tests/test_cli_startup.py -s``), never asserted: the wall time
  of ``fhsym --help`` in a subprocess, interleaved with ``python -c pass`` (the interpreter's own
  start-up) and with ``python -c "import numpy"``, medians and minima of 7 runs each.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_SCRIPT = Path(sys.executable).parent / "fhsym"
FHSYM = [str(_SCRIPT)] if _SCRIPT.is_file() else [sys.executable, "-m", "fhsym"]
HEAVY = ("numpy", "scipy", "sympy", "mpmath", "flint")


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    return env


def _loaded_after(code: str) -> list:
    probe = code + f"\nimport sys\nprint(sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r})))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=_env(), timeout=120)
    assert out.returncode == 0, out.stderr
    return eval(out.stdout.strip().splitlines()[-1])  # a printed list of module names


def test_import_fhsym_loads_no_numerical_library():
    assert _loaded_after("import fhsym") == []


@pytest.mark.parametrize("argv", [["--help"], ["calibrate", "--help"], ["advise", "--help"], ["--version"]])
def test_help_loads_no_numerical_library(argv):
    code = ("import contextlib, io\nfrom fhsym.cli import main\n"
            f"with contextlib.redirect_stdout(io.StringIO()):\n    assert main({argv!r}) == 0")
    assert _loaded_after(code) == []


def test_lazy_names_resolve_to_their_modules():
    import fhsym
    import fhsym.privacy

    assert set(fhsym.privacy.__all__) <= set(fhsym.__all__)
    for name in fhsym.__all__:
        assert getattr(fhsym, name) is not None, name
    assert set(fhsym.__all__) <= set(dir(fhsym))
    with pytest.raises(AttributeError, match="no attribute 'not_a_name'"):
        fhsym.not_a_name  # noqa: B018


def _wall(cmd) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, capture_output=True, env=_env(), timeout=120, check=True)
    return time.perf_counter() - t0


def test_help_startup_time_is_printed():
    """Prints the start-up of `fhsym --help` against the bare interpreter and `import numpy` (no timing assertion)."""
    cases = {"python -c pass": [sys.executable, "-c", "pass"],
             "python -c 'import numpy'": [sys.executable, "-c", "import numpy"],
             "fhsym --help": FHSYM + ["--help"],
             "fhsym calibrate --help": FHSYM + ["calibrate", "--help"]}
    times = {k: [] for k in cases}
    for _ in range(7):  # interleaved: A, B, C, D, A, B, ...
        for k, cmd in cases.items():
            times[k].append(_wall(cmd))
    print()
    for k, ts in times.items():
        print(f"  {k:<28} median {statistics.median(ts) * 1e3:7.1f} ms   min {min(ts) * 1e3:7.1f} ms")
    base = statistics.median(times["python -c pass"])
    print(f"  fhsym --help / python -c pass: {statistics.median(times['fhsym --help']) / base:.2f}x")
