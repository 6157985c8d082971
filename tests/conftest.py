"""Shared test configuration: hypothesis profiles and mpmath precision hygiene.

Deep tests (``slow``)
---------------------
Tests marked ``slow`` (the quick proof subsets, the quadrature sweeps, the experiment scripts, the JAX
gradients, ...) are left out of the whole-suite run -- ``python -m pytest`` with no path, the README's
test command -- which then takes under 5 minutes on 2 cores; ``.ci/run`` runs them in a step of their
own (``python -m pytest -m slow``).  Naming a test file or test, or giving any ``-m`` expression, runs
what was named: ``pytest tests/test_calibration_sweep.py`` runs the whole sweep.  Besides the tests marked in
their module, the long tests listed in ``tests/slow_tests.txt`` (chosen from measured times by
``scripts/slow_tests.py``) are marked ``slow`` here.  ``FHSYM_TEST_SHARD=i/n`` keeps one shard of whatever was
selected (``.ci/run`` runs one shard of the slow tests per commit).  The whole-suite run starts the modules of
``LONG_FIRST`` (single tests of 5-35 s) first, so that no long test begins while the other worker runs dry.

Hypothesis profiles
-------------------
``ci`` (default)
    derandomized (the same examples on every run and every machine), no example
    database, no deadline, 50 examples per property, failing examples printed
    with a reproduction blob.
``deep``
    2000 random examples per property (not derandomized, so repeated runs
    explore new inputs); select with ``FHSYM_HYPOTHESIS_PROFILE=deep``.
"""

from __future__ import annotations

import os
import zlib
from pathlib import Path

import mpmath
import pytest
from hypothesis import settings

settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=50,
    print_blob=True,
)
settings.register_profile(
    "deep",
    derandomize=False,
    database=None,
    deadline=None,
    max_examples=2000,
    print_blob=True,
)
settings.load_profile(os.environ.get("FHSYM_HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session")
def build_c_library(tmp_path_factory):
    """``build(name, files) -> ctypes.CDLL``: fhsym's C library (its hand-written sources and the checked-in kernels)
    with ``files`` (``{file name: C text}``) compiled into one shared object with ``-Wall -Wextra -Werror -pedantic``;
    skips when no C compiler is found."""
    import ctypes
    import shutil
    import subprocess

    from fhsym.codegen import generate as G
    from fhsym.codegen import target_c

    cc = next((c for c in ("cc", "gcc", "clang") if shutil.which(c)), None)

    def build(name: str, files: dict):
        if cc is None:
            pytest.skip("no C compiler found (tried cc, gcc, clang)")
        tmp = tmp_path_factory.mktemp(name)
        for lib in target_c.LIBRARY:
            shutil.copy(target_c.SOURCE_DIR / lib, tmp / lib)
        shutil.copy(G.default_dir("c") / target_c.FILENAME, tmp / target_c.FILENAME)
        sources = [str(tmp / "fhsym.c")]
        for fname, text in files.items():
            (tmp / fname).write_text(text)
            sources.append(str(tmp / fname))
        out = tmp / f"lib{name}.so"
        cmd = [cc, "-std=c99", "-O2", "-Wall", "-Wextra", "-Werror", "-pedantic", "-shared", "-fPIC", *sources,
               "-o", str(out), "-lm"]
        res = subprocess.run(cmd, capture_output=True, text=True)
        assert res.returncode == 0, f"{' '.join(cmd)}\n{res.stdout}{res.stderr}"
        return ctypes.CDLL(str(out))

    return build


@pytest.fixture(scope="session")
def shared_dir(tmp_path_factory):
    """``shared_dir(name, make) -> Path``: a directory that ``make(path)`` fills once per test session.

    A module fixture runs once per pytest-xdist worker, and the tests of a module land on several workers; a set-up
    whose result is the same in every worker of a session (the same command on the same checkout) is made once here:
    the first worker to ask runs ``make`` in a directory of the session's shared temporary directory, behind an flock,
    and the others wait for it and use what it wrote (read only: write elsewhere).  A ``make`` that raises leaves no
    result, so the next worker to ask runs it again (and fails the same way).  Without xdist: a fresh directory."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")  # set in pytest-xdist's workers only

    def get(name: str, make) -> Path:
        if not worker:  # not distributed
            path = tmp_path_factory.mktemp(name)
            make(path)
            return path
        import fcntl
        import shutil

        root = tmp_path_factory.getbasetemp().parent  # this session's, shared by its workers
        path, done = root / f"shared-{name}", root / f"shared-{name}.done"
        with open(root / f"shared-{name}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes (or the worker dies)
            if not done.is_file():
                if path.exists():  # a make that failed part way
                    shutil.rmtree(path)
                path.mkdir()
                make(path)
                done.touch()
        return path

    return get


@pytest.fixture(autouse=True)
def _restore_mpmath_precision():
    """Tests may change mpmath.mp.dps/prec; put them back afterwards."""
    prec = mpmath.mp.prec
    try:
        yield
    finally:
        mpmath.mp.prec = prec


SLOW_LIST = Path(__file__).resolve().parent / "slow_tests.txt"


def _listed_slow() -> set:
    return {ln.strip() for ln in SLOW_LIST.read_text().splitlines() if ln.strip() and not ln.startswith("#")}


def pytest_collection_modifyitems(config, items):
    """Mark the tests listed in ``tests/slow_tests.txt`` ``slow``; the whole-suite run (no path given, no ``-m``)
    leaves out the tests marked ``slow`` (module docstring) and fails when a listed test was not collected."""
    listed = _listed_slow()
    for item in items:
        if item.nodeid in listed:
            item.add_marker(pytest.mark.slow)
    shard = os.environ.get("FHSYM_TEST_SHARD")
    if shard:
        _keep_shard(config, items, shard)
    if config.args_source != pytest.Config.ArgsSource.TESTPATHS or config.getoption("markexpr"):
        return
    unknown = listed - {item.nodeid for item in items}
    if unknown:
        raise pytest.UsageError(f"tests/slow_tests.txt lists {len(unknown)} test(s) that were not collected "
                                f"(renamed or removed? re-derive the list: scripts/slow_tests.py): {sorted(unknown)[:5]}")
    slow = [item for item in items if item.get_closest_marker("slow") is not None]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if item.get_closest_marker("slow") is None]
    stale = [m for m in LONG_FIRST if not (SLOW_LIST.parent.parent / m).is_file()]
    if stale:
        raise pytest.UsageError(f"tests/conftest.py LONG_FIRST names test modules that do not exist: {stale}")
    rank = {module: i for i, module in enumerate(LONG_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(LONG_FIRST)))  # stable: each module's order kept


#: test modules with single tests of 5-35 s, which the whole-suite run starts first (longest first): pytest-xdist hands
#: the tests out in this order, and tests/test_typing.py (mypy, ~35 s cold on a fresh clone), last alphabetically,
#: started in the final seconds of the run while the other worker ran out of work.  Moving whole modules keeps each
#: module's fixtures set up once; nothing is left out.
LONG_FIRST = (
    "tests/test_typing.py",
    "tests/test_benchmark_commands.py",
    "tests/test_docs_examples.py",
    "tests/test_cli.py",
    "tests/test_precise_laws.py",
    "tests/test_calibration_plans.py",
    "tests/test_step_targets.py",
    "tests/test_derive_steps_moments.py",
)


def _keep_shard(config, items, shard: str) -> None:
    """``FHSYM_TEST_SHARD=i/n`` keeps the tests whose node id hashes (CRC-32) to i mod n: ``.ci/run`` runs one
    shard of the slow tests per commit, so that every deep test runs in CI every n commits within its time."""
    try:
        i, n = (int(x) for x in shard.split("/"))
        if not 0 <= i < n:
            raise ValueError
    except ValueError:
        raise pytest.UsageError(f"FHSYM_TEST_SHARD must be i/n with integers 0 <= i < n, got {shard!r}") from None
    out = [item for item in items if zlib.crc32(item.nodeid.encode()) % n != i]
    if out:
        config.hook.pytest_deselected(items=out)
        items[:] = [item for item in items if zlib.crc32(item.nodeid.encode()) % n == i]
