"""The sdist and the wheel carry every data file the code reads (issue 24, item 4).

fhsym reads, besides its Python modules, the frontier data of ``fhsym.advise``
(``fhsym/applications/data/frontier.json.gz`` and its shards in ``frontier_shards/``), the C sources of the code generator's C target and
the PEP 561 marker.  Every non-Python file tracked under ``fhsym/`` is such a file; this test builds
the sdist from the tracked files (as a clean clone has them), the wheel from that sdist (as
``python -m build`` does), and checks that both hold every one of them.  `.ci/run` then installs the
wheel into a fresh environment outside the checkout and runs ``fhsym calibrate`` and ``fhsym advise``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _tracked_files() -> list[str]:
    """The files of a clean clone (``git ls-files``), or the package files when there is no git checkout."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
        files = [f for f in out.decode().split("\0") if f and (ROOT / f).is_file()]
        if files:
            return files
    except (OSError, subprocess.CalledProcessError):
        pass
    names = ["pyproject.toml", "README.md", "LICENSE"]
    names += [str(p.relative_to(ROOT)) for p in (ROOT / "fhsym").rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    return names


def package_data_files() -> list[str]:
    """Every file under fhsym/ that is not Python source: the files the package reads at run time."""
    return sorted(f for f in _tracked_files()
                  if f.startswith("fhsym/") and not f.endswith((".py", ".pyc")) and "__pycache__" not in f)


def test_the_data_files_are_known(monkeypatch):
    data = package_data_files()
    assert "fhsym/applications/data/frontier.json.gz" in data
    # and its per-(eps, delta) shards, which advise reads (fhsym.applications.frontier_shards)
    assert "fhsym/applications/data/frontier_shards/0.3_1e-06.json.gz" in data
    assert "fhsym/py.typed" in data and "fhsym/codegen/c/fhsym.c" in data
    # the advisor reads its data from inside the package, not from the checkout around it
    from fhsym.applications.advise import default_data_path

    monkeypatch.delenv("FHSYM_FRONTIER_DATA", raising=False)
    path = default_data_path()
    assert path.is_file() and path.resolve().is_relative_to((ROOT / "fhsym").resolve())


def _build(tmp_path: Path) -> tuple[Path, Path]:
    src = tmp_path / "src"
    for f in _tracked_files():
        (src / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / f, src / f)
    dist = tmp_path / "dist"
    dist.mkdir()
    # the build backend pyproject.toml names (hatchling, in the test extra), in this environment
    sdist = subprocess.run(
        [sys.executable, "-c", "import sys, hatchling.build as b; print(b.build_sdist(sys.argv[1]))", str(dist)],
        cwd=src, capture_output=True, text=True)
    assert sdist.returncode == 0, sdist.stderr[-3000:]
    sdist_path = dist / sdist.stdout.strip().splitlines()[-1]
    cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--disable-pip-version-check",
           "-w", str(dist), str(sdist_path)]
    built = subprocess.run(cmd, capture_output=True, text=True)
    assert built.returncode == 0, built.stderr[-3000:]
    (wheel_path,) = dist.glob("fhsym-*.whl")
    return sdist_path, wheel_path


def test_sdist_and_wheel_carry_every_data_file(tmp_path):
    sdist_path, wheel_path = _build(tmp_path)
    with tarfile.open(sdist_path) as tar:
        top = tar.getnames()[0].split("/")[0]
        in_sdist = {n[len(top) + 1:] for n in tar.getnames()}
    with zipfile.ZipFile(wheel_path) as z:
        in_wheel = set(z.namelist())
        sizes = {i.filename: i.file_size for i in z.infolist()}
    data = package_data_files()
    print(f"\n{len(data)} data files; sdist {sdist_path.stat().st_size / 1e6:.2f} MB, "
          f"wheel {wheel_path.stat().st_size / 1e6:.2f} MB")
    assert not [f for f in data if f not in in_sdist], "data files missing from the sdist"
    assert not [f for f in data if f not in in_wheel], "data files missing from the wheel"
    assert all(sizes[f] == (ROOT / f).stat().st_size for f in data)
    # and the Python modules: every tracked module of the package is in the wheel
    modules = [f for f in _tracked_files() if f.startswith("fhsym/") and f.endswith(".py")]
    assert not [f for f in modules if f not in in_wheel]
    # the proofs ship too (issue 29.4): proofs/ as fhsym/_proofs, the declared example laws as fhsym/_proofs/examples
    proofs = [f for f in _tracked_files() if f.startswith("proofs/") and f.endswith(".py")]
    assert proofs and not [f for f in proofs if "fhsym/_proofs/" + f[len("proofs/"):] not in in_wheel]
    assert "fhsym/_proofs/_times.json" in in_wheel  # the recorded check times: a clean install starts the longest first
    laws = [f for f in _tracked_files() if f.startswith("docs/examples/") and f.endswith("_law.py")]
    assert laws and not [f for f in laws if "fhsym/_proofs/examples/" + f[len("docs/examples/"):] not in in_wheel]


def test_a_users_file_type_checks_strictly_against_the_install(tmp_path):
    """`mypy --strict` on a user's ``import fhsym`` finds fhsym's own annotations (PEP 561, py.typed) through the
    README's editable install (hatchling writes a static path entry that type checkers follow)."""
    pytest.importorskip("mypy")
    user = tmp_path / "user.py"
    user.write_text("import fhsym\n\ncal = fhsym.calibrate(1.0, 1e-6)\nv: float = cal.variance\n"
                    "fh: fhsym.FlippedHuber = fhsym.FlippedHuber(1.0, 2.0)\nprint(v, fh.var())\n")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "MYPYPATH")}
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(user)], cwd=tmp_path,
                       capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
