"""The fhsym 0.1 import paths are deprecated aliases (issue 14): each one still gives the module
(or package) that now holds its code, the same object, and emits a ``DeprecationWarning`` that names
the new path and points at the caller's line.

A module warns at its first import in a process, so each test first removes the old path from
``sys.modules`` (and the parent's attribute), as a fresh interpreter would have it.
"""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
import warnings

import pytest

import fhsym
from fhsym._core.compat import MOVED_MODULES, MOVED_PACKAGES


def _forget(old: str) -> None:
    sys.modules.pop(old, None)
    parent, _, leaf = old.rpartition(".")
    mod = sys.modules.get(parent)
    if mod is not None and isinstance(mod.__dict__.get(leaf), type(sys)):
        delattr(mod, leaf)


def _import_parent_quietly(old: str) -> None:
    parent = old.rpartition(".")[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        importlib.import_module(parent)


@pytest.mark.parametrize("old, new", sorted(MOVED_MODULES.items()))
def test_import_of_an_old_module_path_warns_and_aliases(old, new):
    _import_parent_quietly(old)
    _forget(old)
    with pytest.warns(DeprecationWarning, match=re.escape(new)):
        mod = importlib.import_module(old)
    assert mod is importlib.import_module(new)
    assert sys.modules[old] is mod
    assert mod.__spec__.name == new  # the module keeps its own spec


@pytest.mark.parametrize("old, new", sorted(MOVED_MODULES.items()))
def test_attribute_access_of_an_old_module_path_warns_and_aliases(old, new):
    _import_parent_quietly(old)
    _forget(old)
    parent, _, leaf = old.rpartition(".")
    if leaf == "privacy_profile":  # fhsym.privacy_profile is the public function, as in 0.1
        assert fhsym.privacy_profile is importlib.import_module(new).privacy_profile
        return
    with pytest.warns(DeprecationWarning, match=re.escape(new)):
        mod = getattr(sys.modules[parent], leaf)
    assert mod is importlib.import_module(new)


def test_from_import_of_an_old_path_gives_the_same_objects():
    _forget("fhsym.distribution")
    with pytest.warns(DeprecationWarning, match=r"fhsym\.noise\.flipped_huber"):
        from fhsym.distribution import FlippedHuber
    assert FlippedHuber is fhsym.FlippedHuber


def test_importing_the_old_privacy_profile_module_keeps_the_function():
    _forget("fhsym.privacy_profile")
    with pytest.warns(DeprecationWarning, match=r"fhsym\.privacy\.profile"):
        importlib.import_module("fhsym.privacy_profile")
    assert callable(fhsym.privacy_profile) and not isinstance(fhsym.privacy_profile, type(sys))


@pytest.mark.parametrize("old", sorted(MOVED_PACKAGES))
def test_old_packages_warn_and_reexport_the_same_objects(old):
    _forget(old)
    with pytest.warns(DeprecationWarning, match=re.escape(MOVED_PACKAGES[old].split(" ")[0])):
        pkg = importlib.import_module(old)
    for name in pkg.__all__:
        if old == "fhsym.kdim" and name == "calibrate_kdim":
            assert pkg.calibrate_kdim is importlib.import_module("fhsym.calibration.kdim").calibrate_kdim
        elif old == "fhsym.kdim":
            assert getattr(pkg, name) is getattr(fhsym.accounting, name), name
    if old == "fhsym.mechanisms":
        from fhsym.calibration import mechanisms as cm
        assert pkg.OSGTMechanism is fhsym.noise.OSGTMechanism
        assert pkg.calibrate_gaussian is cm.calibrate_gaussian
    _forget(old)
    with pytest.warns(DeprecationWarning, match=re.escape(MOVED_PACKAGES[old].split(" ")[0])):
        assert getattr(fhsym, old.rpartition(".")[2]) is sys.modules[old]


def test_importing_fhsym_itself_warns_nothing_and_unknown_names_still_fail():
    out = subprocess.run([sys.executable, "-W", "error", "-c", "import fhsym; print(fhsym.FlippedHuber.__name__)"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "FlippedHuber" and out.stderr == ""
    with pytest.raises(AttributeError, match="no_such_name"):
        fhsym.no_such_name  # noqa: B018


def test_the_warning_points_at_the_importing_line():
    code = ("import warnings\nwarnings.simplefilter('always')\nimport fhsym\n"
            "from fhsym.kdim.pld import gaussian_pld\nimport fhsym.certify\nfhsym.distribution\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    lines = [ln for ln in out.stderr.splitlines() if "DeprecationWarning" in ln]
    assert len(lines) == 4, out.stderr
    assert [ln.split(":")[1] for ln in lines] == ["4", "4", "5", "6"], out.stderr
    assert all(ln.startswith("<string>:") for ln in lines), out.stderr


def test_the_package_pickles_by_name():
    """``fhsym``'s module class (which keeps its public names) pickles as a plain importable module does
    under cloudpickle: by name (a Dask ``client.run`` returning it failed with 'cannot pickle')."""
    import pickle

    assert pickle.loads(pickle.dumps(fhsym)) is fhsym
    cloudpickle = pytest.importorskip("cloudpickle")
    assert cloudpickle.loads(cloudpickle.dumps(fhsym)) is fhsym
