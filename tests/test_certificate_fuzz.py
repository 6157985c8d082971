"""Fuzz the certificate JSON (issue 32): every input ends in one of four verdicts, within the budget.

Random edits of genuine certificates (a field set to a random JSON value, a key duplicated, deep nesting,
huge numbers, non-canonical hex, random PLD grids, random weight lists) go through
``check_certificate``: the outcome is PROVEN, UNPROVEN, FALSE or a ``ValueError`` (malformed or over the
budget), never another exception, and it comes within the budget's seconds (plus the start-up of a
claim).  The default run is the ``ci`` profile (derandomised, 50 examples per property); the
``slow`` test runs 400 more per property.
"""

from __future__ import annotations

import functools
import json
import time
from typing import Any, Dict

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fhsym
from fhsym._core.limits import VERIFY_BUDGET
from fhsym.calibration.verify import Verdict, check_certificate

LIMIT = VERIFY_BUDGET.seconds + 5.0  # the estimate is conservative; the margin absorbs a loaded machine


@functools.lru_cache(maxsize=None)
def _genuine() -> Dict[str, str]:
    from fhsym.applications import calibrate_dpcd_noise

    return {
        "gaussian": fhsym.calibrate(1.0, 1e-6, mechanism="gaussian").certificate.to_json(),
        "pu": fhsym.calibrate(1.0, 1e-6, mechanism="piecewise_uniform", bins=2).certificate.to_json(),
        "laplace-pure": fhsym.calibrate(1.0, 0, mechanism="laplace").certificate.to_json(),
        "laplace-kfold": fhsym.calibrate(1.0, 1e-3, mechanism="laplace", method="exact", dim=2).certificate.to_json(),
        "zcdp": calibrate_dpcd_noise(1, 1e-5, 2, 4, accountant="zcdp").certificate.to_json(),
    }


json_leaf = st.one_of(
    st.none(), st.booleans(), st.integers(-2**70, 2**70), st.integers(10**300, 10**400),
    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=20),
    st.sampled_from(["0x1.0p+1024", "0x1.8p+0", "0x1.0000000000000p+0", "-0x0.0p+0", "1/0", "0/1", "1e400",
                     "0x1.fffffffffffffp+1023", "0x0.0000000000001p-1022", "nan", "", "18446744073709551616"]),
)
json_value = st.recursive(json_leaf, lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c,
                                                                                        max_size=4), max_leaves=8)
FIELDS = ["format", "fhsym_version", "mechanism", "parameters", "epsilon", "target_delta", "sensitivity",
          "l2_sensitivity", "l1_sensitivity", "lower", "upper", "dim", "compositions", "claim", "method", "rigorous",
          "grid", "text", "upward_steps", "decimal", "extra"]
grids = st.fixed_dictionaries({
    "format": st.just("pld-exact-1"),
    "step": st.builds(lambda p, q: f"{p}/{q}", st.integers(1, 2**40), st.sampled_from([2**k for k in range(0, 64, 3)])),
    "nodes": st.integers(1, 200_000), "bits": st.integers(1, 5000),
    "cut_low": st.integers(0, 2**100).map(str), "cut_high": st.integers(0, 2**100).map(str),
    "folds": st.integers(1, 64), "support_1d": st.integers(0, 10**7), "max_window": st.integers(0, 10**7),
    "final_window": st.integers(0, 10**7),
})


def _outcome(text: Any) -> str:
    t = time.perf_counter()
    try:
        v = check_certificate(text)
        assert v.verdict in (Verdict.PROVEN, Verdict.UNPROVEN, Verdict.FALSE)
        out = v.verdict.value
    except ValueError:
        out = "malformed"
    assert time.perf_counter() - t < LIMIT
    return out


@st.composite
def edited(draw: Any) -> str:
    name = draw(st.sampled_from(sorted(_genuine())))
    text = _genuine()[name]
    d = json.loads(text)
    kind = draw(st.sampled_from(["field", "param", "grid", "weights", "duplicate", "nest", "text"]))
    if kind == "field":
        d[draw(st.sampled_from(FIELDS))] = draw(json_value)
    elif kind == "param":
        key = draw(st.sampled_from(sorted(d["parameters"]) + ["x"]))
        value = draw(json_value)
        d["parameters"][key] = value
        if draw(st.booleans()):
            d["decimal"]["parameters"][key] = value
    elif kind == "grid":
        d["grid"] = draw(grids)
        if draw(st.booleans()):
            d["grid"]["step_decimal"] = repr(float(int(d["grid"]["step"].split("/")[0]) /
                                                   int(d["grid"]["step"].split("/")[1])))
    elif kind == "weights":
        w = draw(st.lists(st.integers(0, 2**64), min_size=1, max_size=3000))
        d["parameters"]["weights"] = w
        d["decimal"]["parameters"]["weights"] = w
    elif kind == "duplicate":
        key = draw(st.sampled_from(FIELDS[:-1]))
        return text.replace("{", "{" + json.dumps(key) + ": " + json.dumps(draw(json_value)) + ", ", 1)
    elif kind == "nest":
        depth = draw(st.integers(1, 20000))
        return text.replace('"text": ', '"text": ' + "[" * depth, 1)
    else:
        i = draw(st.integers(0, len(text)))
        return text[:i] + draw(st.text(max_size=5)) + text[i:]
    return json.dumps(d)


@given(edited())
@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
def test_every_edit_ends_in_one_of_four_verdicts_within_the_budget(text):
    _outcome(text)


@given(st.text(max_size=200) | st.binary(max_size=200))
def test_arbitrary_text_is_malformed_not_a_crash(text):
    assert _outcome(text) == "malformed"


def test_the_genuine_certificates_of_the_fuzz_are_what_they_claim():
    want = {"gaussian": "proven", "pu": "proven", "laplace-pure": "proven", "laplace-kfold": "proven",
            "zcdp": "unproven"}
    assert {k: _outcome(t) for k, t in _genuine().items()} == want


@pytest.mark.slow
@given(edited())
@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
def test_deeper_fuzz(text):
    _outcome(text)
