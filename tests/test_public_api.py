"""The public API is a contract (issue 14): ``fhsym.__all__`` is pinned here, every name in it resolves and
is documented with an example.  The 0.1 import paths are gone.

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
    "TruncatedStaircase", "PiecewiseUniform", "Staircase", "OSGT",
    # privacy of one release (fhsym.privacy)
    "privacy_profile", "log_privacy_profile", "epsilon_for_delta", "privacy_loss", "centered_privacy_loss",
    "certified_profile", "is_private", "PROFILE_RTOL", "Certificate",
    # accounting (fhsym.accounting)
    "PrivacyLossDistribution", "KDimPLDConfig", "kdim_privacy_profile", "gaussian_dominance", "zcdp_to_dp",
    # calibration (fhsym.calibration)
    "calibrate", "CalibrateConfig", "Calibration", "CalibrationError", "verify_certificate",
    # applications
    "release", "Release", "ReleaseConfig", "advise", "DPCDConfig",
    # the certified optimum of additive noise (fhsym.optimum)
    "optimal_variance",
    # a noise law of one's own, declared in SymPy (fhsym.symbolic.declaration, fhsym.noise.declared)
    "Declaration", "ShapeParameter", "declare_law",
    # subpackages
    "noise", "privacy", "accounting", "calibration",
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


@pytest.mark.parametrize("old", ["fhsym.kdim", "fhsym.mechanisms", "fhsym.distribution", "fhsym.certify",
                                 "fhsym.kdim.pld", "fhsym.mechanisms.gaussian", "fhsym._validation"])
def test_the_01_module_paths_are_gone(old):
    # fhsym 0.1 was never released: its module paths were removed in 0.2 (CHANGELOG)
    with pytest.raises(ImportError):
        importlib.import_module(old)


def test_old_applications_name_is_the_same_object():
    assert fhsym.applications.NoiseCalibration is fhsym.Calibration


def test_signatures_show_real_defaults():
    """No public function shows the internal UNSET sentinel: keywords that may also come from config= show the
    config's defaults (issue 24.4)."""
    import inspect

    from fhsym._core.config import UNSET

    shown = []
    for name in fhsym.__all__:
        obj = getattr(fhsym, name)
        if callable(obj) and not isinstance(obj, type):
            for p in inspect.signature(obj).parameters.values():
                if p.default is UNSET or repr(p.default) == "<unset>":
                    shown.append(f"{name}({p.name})")
    assert not shown, shown
    sig = inspect.signature(fhsym.calibrate)
    assert sig.parameters["dim"].default == fhsym.CalibrateConfig().dim == 1
    assert sig.parameters["mechanism"].default == "flipped_huber"
