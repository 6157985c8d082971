"""CalibrateConfig (issue 14): ``fhsym.calibrate(eps, delta, config=)`` gives the same calibration as the
arguments, bad fields are refused at construction naming the field, and an argument passed together
with a config is refused."""

from __future__ import annotations

import dataclasses

import pytest

import fhsym
from fhsym import CalibrateConfig, calibrate


@pytest.mark.parametrize("kw", [
    dict(), dict(mechanism="gaussian", dim=3, l2_sensitivity=1.0), dict(sensitivity=2.0, compositions=2),
    dict(mechanism="staircase", options={"cost": "magnitude"}), dict(mechanism="laplace", method="pure"),
    dict(dim=2, sensitivity=1.0, l2_sensitivity=1.2, method="sufficient"),
])
def test_config_gives_the_same_calibration_as_the_arguments(kw):
    args = {k: v for k, v in kw.items() if k != "options"}
    args.update(kw.get("options", {}))
    a = calibrate(1.0, 1e-6, **args)
    b = calibrate(1.0, 1e-6, config=CalibrateConfig(**kw))
    assert a == b
    assert (a.variance, a.achieved_delta, a.method) == (b.variance, b.achieved_delta, b.method)


@pytest.mark.parametrize("field, value", [
    ("sensitivity", 0.0), ("l2_sensitivity", -1.0), ("l1_sensitivity", float("nan")), ("dim", 0), ("dim", 2.5),
    ("method", "magic"), ("mechanism", "cauchy"), ("compositions", 0), ("options", [("cost", "variance")]),
])
def test_bad_fields_are_refused_naming_the_field(field, value):
    with pytest.raises(ValueError, match=field):
        CalibrateConfig(**{field: value})


def test_an_option_the_mechanism_does_not_take_is_refused():
    with pytest.raises(ValueError, match="cost="):
        CalibrateConfig(mechanism="gaussian", options={"cost": "variance"})


def test_config_is_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        CalibrateConfig().dim = 2  # type: ignore[misc]


@pytest.mark.parametrize("args, kw, name", [
    ((1.0,), {}, "sensitivity"), ((), dict(dim=2), "dim"), ((), dict(mechanism="gaussian"), "mechanism"),
    ((), dict(compositions=1), "compositions"), ((), dict(cost="variance"), "cost"),
])
def test_an_argument_together_with_a_config_is_refused(args, kw, name):
    with pytest.raises(ValueError, match=f"{name}= was passed together with config="):
        calibrate(1.0, 1e-6, *args, config=CalibrateConfig(mechanism="staircase"), **kw)
    with pytest.raises(ValueError, match="config must be a CalibrateConfig"):
        calibrate(1.0, 1e-6, config={"dim": 2})


def test_exported_from_fhsym():
    assert fhsym.CalibrateConfig is fhsym.calibration.CalibrateConfig
