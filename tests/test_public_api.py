"""The public API is a contract (issue 14): ``fhsym.__all__`` is pinned here, every name in it resolves and
is documented with an example, and the 0.1 import paths keep working after the layered redesign.

Changing ``fhsym.__all__`` is deliberate: update EXPECTED and CHANGELOG.md together.
"""

from __future__ import annotations

import importlib
import inspect

import pytest

import fhsym

EXPECTED = {
    # noise laws (fhsym.noise)
    "NoiseDistribution", "FlippedHuber", "DiscreteFlippedHuber", "Gaussian", "Laplace", "TruncatedLaplace",
    "Staircase", "OSGT",
    # privacy of one release (fhsym.privacy)
    "privacy_profile", "log_privacy_profile", "epsilon_for_delta", "privacy_loss", "centered_privacy_loss",
    "certified_profile", "is_private", "PROFILE_RTOL", "Certificate",
    # accounting (fhsym.accounting)
    "PrivacyLossDistribution", "kdim_privacy_profile", "gaussian_dominance", "zcdp_to_dp",
    # calibration (fhsym.calibration)
    "calibrate", "Calibration", "CalibrationError", "verify_certificate",
    # applications
    "release", "Release", "advise",
    # subpackages and 0.1 namespaces
    "noise", "privacy", "accounting", "calibration", "kdim", "mechanisms",
    "__version__",
}


def test_all_is_the_documented_api():
    assert set(fhsym.__all__) == EXPECTED, (
        f"added: {sorted(set(fhsym.__all__) - EXPECTED)}; removed: {sorted(EXPECTED - set(fhsym.__all__))}")
    assert len(fhsym.__all__) == len(set(fhsym.__all__)), "a name is listed twice in fhsym.__all__"


@pytest.mark.parametrize("name", sorted(EXPECTED - {"__version__", "PROFILE_RTOL"}))
def test_every_public_name_resolves_and_has_an_example(name):
    obj = getattr(fhsym, name)
    if inspect.ismodule(obj):
        assert obj.__doc__, f"fhsym.{name} has no module docstring"
        return
    doc = inspect.getdoc(obj) or ""
    assert doc, f"fhsym.{name} has no docstring"
    if inspect.isclass(obj) and issubclass(obj, Exception):
        return
    assert ">>>" in doc or (inspect.isclass(obj) and any(">>>" in (inspect.getdoc(m) or "")
                                                          for _, m in inspect.getmembers(obj))), \
        f"fhsym.{name}'s docstring has no example"


@pytest.mark.parametrize("path, name", [
    ("fhsym.distribution", "FlippedHuber"),
    ("fhsym.privacy_profile", "privacy_profile"),
    ("fhsym.certify", "certified_profile"),
    ("fhsym.kdim.pld", "flipped_huber_pld"),
    ("fhsym.kdim.profile", "kdim_pld"),
    ("fhsym.kdim.sufficient", "R_Delta"),
    ("fhsym.kdim.zcdp", "zcdp_params"),
    ("fhsym.kdim.calibration", "calibrate_kdim"),
    ("fhsym.mechanisms.gaussian", "gaussian_profile"),
    ("fhsym.mechanisms.osgt", "osgt_profile"),
    ("fhsym.privacy.discrete_calibration", "calibrate_discrete_flipped_huber"),
    ("fhsym.applications", "NoiseCalibration"),
])
def test_fhsym_0_1_paths_still_import(path, name):
    mod = importlib.import_module(path)
    assert callable(getattr(mod, name))


def test_old_and_new_names_are_the_same_objects():
    from fhsym.distribution import FlippedHuber as old_fh
    from fhsym.kdim.pld import flipped_huber_pld as old_pld
    from fhsym.accounting.pld_builders import flipped_huber_pld

    assert old_fh is fhsym.FlippedHuber
    assert old_pld is flipped_huber_pld
    assert fhsym.applications.NoiseCalibration is fhsym.Calibration
