"""Certificates as data: JSON round trip, re-verification from the recorded inputs, tampering (issue 9, item 4).

A certificate records the mechanism, its parameters as exact floats, epsilon, the target, the
sensitivity set and the enclosure.  ``fhsym.verify_certificate`` re-derives the enclosure from those
inputs alone (ball arithmetic for one release) and accepts only when it is <= the target and meets the
recorded one.  Calibrated parameters sit at the target (delta is within ~1e-12 of it), so lowering the
noise by 1e-4 relative or epsilon by 1e-3 relative must break the claim.
"""

from __future__ import annotations

import json

import pytest

import fhsym
from fhsym import cli
from fhsym.calibration.verify import check_certificate

MECHANISMS = ["flipped_huber", "gaussian", "laplace", "truncated_laplace", "osgt"]


@pytest.fixture(scope="module")
def calibrations():
    return {m: fhsym.calibrate(0.7, 1e-6, sensitivity=1.5, mechanism=m) for m in MECHANISMS}


@pytest.mark.parametrize("mechanism", MECHANISMS + ["staircase"])
def test_round_trip_and_verification(mechanism, calibrations):
    cal = calibrations.get(mechanism) or fhsym.calibrate(0.7, 1e-6, sensitivity=1.5, mechanism=mechanism)
    cert = cal.certificate
    again = fhsym.Certificate.from_json(cert.to_json())
    assert again == cert
    assert again.parameters == cal.parameters  # exact floats (hex) survive the trip
    assert cert.rigorous and cert.method == ("exact-rational" if mechanism == "staircase" else "arb")
    v = check_certificate(cert.to_json())
    assert v.ok and v.rigorous, v.reason
    assert fhsym.verify_certificate(cert) and fhsym.verify_certificate(cert.to_dict())


def _consistent(d: dict) -> dict:
    """A forger's edit: the decimal copies updated to the edited hex values (else the format check refuses it)."""
    d["decimal"] = {"parameters": {k: repr(float.fromhex(v)) for k, v in d["parameters"].items()},
                    **{k: repr(float.fromhex(d[k])) for k in d["decimal"] if k != "parameters"}}
    return d


def _tampered(cert: fhsym.Certificate, **changes) -> str:
    d = json.loads(cert.to_json())
    for key, factor in changes.items():
        if key == "epsilon":
            d["epsilon"] = float.hex(float.fromhex(d["epsilon"]) * factor)
        else:
            d["parameters"] = {k: float.hex(float.fromhex(v) * factor) for k, v in d["parameters"].items()}
    return json.dumps(_consistent(d))


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_lowered_noise_fails(mechanism, calibrations):
    cert = calibrations[mechanism].certificate
    assert not fhsym.verify_certificate(_tampered(cert, parameters=1 - 1e-4))


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_lowered_epsilon_fails(mechanism, calibrations):
    cert = calibrations[mechanism].certificate
    assert not fhsym.verify_certificate(_tampered(cert, epsilon=1 - 1e-3))


def test_raised_noise_still_holds_but_the_enclosure_must_match(calibrations):
    """More noise is still private, but a certificate whose recorded enclosure no longer matches is refused."""
    cert = calibrations["gaussian"].certificate
    v = check_certificate(_tampered(cert, parameters=1 + 1e-3))
    assert not v.ok and "is not the re-derived" in v.reason


@pytest.mark.parametrize("bad", ["", "{}", "[1, 2]", '{"format": 1}', "not json"])
def test_malformed_certificates_raise_value_error(bad):
    with pytest.raises(ValueError):
        fhsym.verify_certificate(bad)


def test_pure_dp_certificates():
    lap = fhsym.calibrate(1.0, 1e-6, mechanism="laplace", method="pure", dim=3, l1_sensitivity=2.0)
    assert lap.certificate.claim == "pure" and fhsym.verify_certificate(lap.certificate.to_json())
    d = json.loads(lap.certificate.to_json())
    d["l1_sensitivity"] = float.hex(2.0 * 1.01)
    assert not fhsym.verify_certificate(json.dumps(_consistent(d)))


def test_cli_writes_and_checks_a_certificate(tmp_path, capsys):
    path = tmp_path / "cert.json"
    assert cli.main(["calibrate", "--epsilon", "1", "--delta", "1e-6", "--mechanism", "gaussian",
                     "--certificate", str(path), "--json"]) == 0
    capsys.readouterr()
    assert cli.main(["check-certificate", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] and out["rigorous"]
    bad = tmp_path / "bad.json"
    bad.write_text(_tampered(fhsym.Certificate.from_json(path.read_text()), parameters=1 - 1e-4))
    assert cli.main(["check-certificate", str(bad)]) == 1
    assert "DOES NOT HOLD" in capsys.readouterr().out
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json")
    assert cli.main(["check-certificate", str(garbage)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "certificate" in err
    assert cli.main(["check-certificate", str(tmp_path / "missing.json")]) == 2
