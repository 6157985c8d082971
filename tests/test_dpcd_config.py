"""DPCDConfig (issue 14: long parameter lists become config dataclasses): ``config=`` gives the same
run as the keywords, bad fields are refused at construction naming the field, and a keyword passed
together with a config is refused (no argument is silently ignored)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import fhsym
from fhsym.applications import DPCDConfig, dp_coordinate_descent


def _data(seed=0, n=300, k=3, logistic=False):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, k))
    y = X @ np.linspace(1.0, -1.0, k) + 0.1 * rng.standard_normal(n)
    return X, (np.sign(y) if logistic else y)


KEYWORDS = [
    dict(n_passes=2, step=0.5, clip=2.0, epsilon=1.0, delta=1e-6, mechanism="gaussian", accountant="pld",
         smoothness=np.ones(3), lam=1e-3),
    dict(n_passes=3, loss="logistic", regularizer="l1", lam=1e-2, epsilon=2.0, delta=1e-5,
         mechanism="flipped_huber", accountant="zcdp", theta0=np.full(3, 0.1)),
    dict(n_passes=4, mechanism=None, regularizer="none", clip=float("inf"), step=0.9),
]


@pytest.mark.parametrize("kw", KEYWORDS)
def test_config_gives_the_same_run_as_the_keywords(kw):
    X, y = _data(logistic=kw.get("loss") == "logistic")
    seed = {} if kw.get("mechanism", "flipped_huber") is None else {"random_state": 7}  # a non-private run refuses one
    a = dp_coordinate_descent(X, y, **seed, **kw)
    b = dp_coordinate_descent(X, y, config=DPCDConfig(**kw), **seed)
    for f in dataclasses.fields(a):
        va, vb = getattr(a, f.name), getattr(b, f.name)
        if isinstance(va, np.ndarray):
            np.testing.assert_array_equal(va, vb, err_msg=f.name)
        else:
            assert va == vb, f.name
    if kw.get("mechanism", "flipped_huber") is not None:
        assert a.privacy.ok and a.privacy.delta <= kw["delta"]


def test_config_fields_are_the_keywords_of_the_function():
    import inspect
    params = set(inspect.signature(dp_coordinate_descent).parameters) - {"X", "y", "config", "random_state", "n_runs"}
    assert {f.name for f in dataclasses.fields(DPCDConfig)} == params


@pytest.mark.parametrize("field, value", [
    ("n_passes", 0), ("n_passes", 1.5), ("loss", "hinge"), ("regularizer", "elastic"), ("lam", -1.0),
    ("step", 0.0), ("step", float("nan")), ("clip", 0.0), ("clip", float("inf")), ("epsilon", -1.0),
    ("delta", 1.0), ("delta", 0.0), ("mechanism", "laplace"), ("accountant", "rdp"), ("smoothness", [1.0, -1.0]),
    ("theta0", [float("nan")]), ("noise", "not a calibration"), ("verify", "yes"),
])
def test_bad_fields_are_refused_naming_the_field(field, value):
    kw = dict(n_passes=2, epsilon=1.0, delta=1e-6)
    kw[field] = value
    with pytest.raises(ValueError, match=field):
        DPCDConfig(**kw)


def test_non_private_config_refuses_a_guarantee():
    with pytest.raises(ValueError, match="epsilon/delta"):
        DPCDConfig(n_passes=2, mechanism=None, epsilon=1.0)
    assert DPCDConfig(n_passes=2, mechanism=None, clip=float("inf")).clip == float("inf")


def test_config_is_frozen():
    cfg = DPCDConfig(n_passes=2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        cfg.n_passes = 3  # type: ignore[misc]


@pytest.mark.parametrize("kw", [dict(loss="squared"), dict(n_passes=2), dict(epsilon=1.0), dict(verify=True)])
def test_a_keyword_together_with_a_config_is_refused(kw):
    X, y = _data()
    cfg = DPCDConfig(n_passes=2, epsilon=1.0, delta=1e-6)
    name = next(iter(kw))
    with pytest.raises(ValueError, match=f"{name}= was passed together with config="):
        dp_coordinate_descent(X, y, config=cfg, **kw)


def test_config_of_the_wrong_type_and_missing_n_passes_are_refused():
    X, y = _data()
    with pytest.raises(ValueError, match="config must be a DPCDConfig"):
        dp_coordinate_descent(X, y, config={"n_passes": 2})
    with pytest.raises(ValueError, match="n_passes is required"):
        dp_coordinate_descent(X, y, epsilon=1.0, delta=1e-6)


def test_exported_from_fhsym():
    assert fhsym.DPCDConfig is DPCDConfig
