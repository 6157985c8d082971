"""ReleaseConfig (issue 14): ``config=`` gives the same release as the arguments, bad fields are refused
at construction naming the field, and an argument passed together with a config is refused."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import fhsym
from fhsym import ReleaseConfig, release

CASES = [
    (np.array([3.0, 1.0, 2.0]), dict(epsilon=1.0, delta=1e-6, sensitivity=1.0, norm="l2", mechanism="gaussian")),
    (5.0, dict(epsilon=0.5, delta=1e-7, sensitivity=2.0)),
    (np.array([1.0, -1.0]), dict(epsilon=1.0, delta=1e-6, sensitivity=1.0, l2_sensitivity=1.2, method="sufficient")),
    (2.0, dict(epsilon=1.0, delta=1e-6, sensitivity=1.0, secure=True, options={"step": 0.5})),
]


@pytest.mark.parametrize("value, kw", CASES)
def test_config_gives_the_same_release_as_the_arguments(value, kw):
    args = {k: v for k, v in kw.items() if k != "options"}
    args.update(kw.get("options", {}))
    a = release(value, rng=11, **args)
    b = release(value, config=ReleaseConfig(**kw), rng=11)
    np.testing.assert_array_equal(a.value, b.value)
    assert type(a.value) is type(b.value)
    assert a.calibration == b.calibration
    assert a.lattice_index == b.lattice_index


@pytest.mark.parametrize("field, value", [
    ("epsilon", -1.0), ("delta", 0.0), ("delta", 1.5), ("sensitivity", 0.0), ("l2_sensitivity", -1.0),
    ("l1_sensitivity", float("nan")), ("norm", "l3"), ("mechanism", 3), ("method", 1.0), ("secure", 1),
    ("options", [("step", 1.0)]),
])
def test_bad_fields_are_refused_naming_the_field(field, value):
    kw = dict(epsilon=1.0, delta=1e-6, sensitivity=1.0)
    kw[field] = value
    with pytest.raises(ValueError, match=field):
        ReleaseConfig(**kw)


def test_the_sensitivity_given_twice_is_refused():
    with pytest.raises(ValueError, match="given twice"):
        ReleaseConfig(sensitivity=1.0, norm="l2", l2_sensitivity=2.0)


def test_config_is_frozen_and_its_options_read_only():
    cfg = ReleaseConfig(epsilon=1.0, delta=1e-6, sensitivity=1.0, options={"step": 0.5})
    with pytest.raises(dataclasses.FrozenInstanceError):
        cfg.epsilon = 2.0  # type: ignore[misc]
    with pytest.raises(TypeError):
        cfg.options["step"] = 1.0  # type: ignore[index]


@pytest.mark.parametrize("args, kw, name", [
    ((1.0,), {}, "epsilon"), ((), dict(norm="l2"), "norm"), ((), dict(mechanism="gaussian"), "mechanism"),
    ((), dict(l2_sensitivity=1.0), "l2_sensitivity"), ((), dict(secure=False), "secure"), ((), dict(step=0.5), "step"),
])
def test_an_argument_together_with_a_config_is_refused(args, kw, name):
    cfg = ReleaseConfig(epsilon=1.0, delta=1e-6, sensitivity=1.0)
    with pytest.raises(ValueError, match=f"{name}= was passed together with config="):
        release(1.0, *args, config=cfg, rng=0, **kw)


def test_config_with_a_calibration_and_of_the_wrong_type():
    cal = fhsym.calibrate(1.0, 1e-6)
    r = release(1.0, config=ReleaseConfig(sensitivity=1.0), calibration=cal, rng=0)
    assert r.calibration is cal
    with pytest.raises(ValueError, match="config must be a ReleaseConfig"):
        release(1.0, config={"epsilon": 1.0}, rng=0)
