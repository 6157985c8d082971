"""KDimPLDConfig (issue 14): ``kdim_pld(..., config=)`` gives the same PLD as the keywords, bad fields are
refused at construction naming the field, and a keyword passed together with a config is refused."""

from __future__ import annotations

import dataclasses
import inspect

import numpy as np
import pytest

import fhsym
from fhsym.accounting import KDimPLDConfig, kdim_pld


@pytest.mark.parametrize("kw", [
    dict(rounds=3), dict(difference=[1.0, 0.5, 0.0]), dict(step=2e-3, tail_mass=1e-12, upper_only=True),
    dict(certified=False, rounds=2),
])
def test_config_gives_the_same_pld_as_the_keywords(kw):
    a = kdim_pld(1.0, 2.0, 3, **kw)
    b = kdim_pld(1.0, 2.0, 3, config=KDimPLDConfig(**kw))
    assert a.label == b.label
    eps = np.linspace(0.0, 3.0, 7)
    np.testing.assert_array_equal(a.delta_upper(eps), b.delta_upper(eps))
    if not kw.get("upper_only"):
        np.testing.assert_array_equal(a.delta_lower(eps), b.delta_lower(eps))


def test_config_fields_are_the_options_of_kdim_pld():
    params = inspect.signature(kdim_pld).parameters
    options = {n for n, p in params.items() if p.kind is p.KEYWORD_ONLY} - {"config"}
    assert {f.name for f in dataclasses.fields(KDimPLDConfig)} == options


@pytest.mark.parametrize("field, value", [
    ("rounds", 0), ("rounds", 1.5), ("step", 0.0), ("step", float("inf")), ("tail_mass", 0.0), ("tail_mass", 1.0),
    ("upper_only", "no"), ("certified", None), ("difference", [0.0, 0.0]), ("difference", [1.0, float("nan")]),
])
def test_bad_fields_are_refused_naming_the_field(field, value):
    with pytest.raises(ValueError, match=field if field != "difference" else "difference"):
        KDimPLDConfig(**{field: value})


def test_a_keyword_together_with_a_config_is_refused():
    with pytest.raises(ValueError, match="rounds= was passed together with config="):
        kdim_pld(1.0, 2.0, 2, config=KDimPLDConfig(), rounds=1)
    with pytest.raises(ValueError, match="config must be a KDimPLDConfig"):
        kdim_pld(1.0, 2.0, 2, config={"rounds": 2})
    with pytest.raises(ValueError, match="dim = 2"):
        kdim_pld(1.0, 2.0, 2, config=KDimPLDConfig(difference=[1.0, 1.0, 1.0]))


def test_exported_from_fhsym():
    assert fhsym.KDimPLDConfig is KDimPLDConfig
