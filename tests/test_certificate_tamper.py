"""The tamper suite (issue 21, item 4): every claim, every certificate field, every single edit.

For one genuine certificate of each claim that :func:`fhsym.calibrate` makes (the 1-D profile in ball
arithmetic and in exact rationals, the l2 profile, pure DP of Laplace and of the staircase, the
lattice profile, the proven K-fold and T-fold PLD), each field of its JSON form is edited alone in
every way listed in ``_edits``: a value moved up or down, a wrong type, a decimal string where a hex
float belongs, an out-of-range value, another mechanism or claim name, a grid entry changed, removed or
added, the human-readable ``decimal`` copy changed alone.  Where the edit changes an exact value, the
``decimal`` copy is changed with it (a forger's consistent edit), so that the claim itself is what is
tested, not only the copy.

Asserted: the genuine certificate verifies; no edit verifies, each is either refused as malformed
(``ValueError``, which ``fhsym check-certificate`` reports with exit status 2) or re-checked and found
false (exit status 1); no other exception escapes.  The two provenance fields (``fhsym_version``,
``upward_steps``: how the calibration got there, not part of the claim) are typed: a wrong type is
refused, a well-typed value is accepted and said to be provenance by the certificate's docstring.
"""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from typing import Any, Callable, Dict, Iterator, List, Tuple

import pytest

import fhsym
from fhsym import cli
from fhsym.accounting.claims import CLAIMS
from fhsym.noise import NOISE_CLASSES

# one genuine certificate per claim (and per kind of evidence), cheap to re-verify
CASES: Dict[str, Dict[str, Any]] = {
    "fh-1d": dict(epsilon=0.7, delta=1e-6, sensitivity=1.5),
    "osgt-1d": dict(epsilon=1.0, delta=1e-6, mechanism="osgt"),
    "piecewise-uniform-1d": dict(epsilon=1.0, delta=1e-6, mechanism="piecewise_uniform", bins=2),
    "gaussian-l2": dict(epsilon=1.0, delta=1e-6, mechanism="gaussian", dim=3, l2_sensitivity=1.0),
    "laplace-pure": dict(epsilon=1.0, delta=1e-6, mechanism="laplace", method="pure", dim=3, l1_sensitivity=2.0),
    "staircase-pure": dict(epsilon=1.0, delta=0.0, mechanism="staircase"),
    "dfh-lattice": dict(epsilon=1.0, delta=1e-6, mechanism="discrete_flipped_huber", step=0.25),
    "fh-kfold": dict(epsilon=1.0, delta=1e-6, dim=3),
    "laplace-composed": dict(epsilon=1.0, delta=1e-6, mechanism="laplace", method="exact", compositions=2),
    # the claim 'pld-kfold-sup' is made by the frontier's composed staircase (fhsym.applications.staircase_pld)
    "staircase-pld": dict(epsilon=3.0, delta=1e-6, dim=5, builder="staircase_pld"),
}

#: grid entries a proof is valid for whatever their value (the exact PLD's window cuts only move mass up,
#: fhsym/accounting/pld_exact.py): an edited cut is another proven computation of the same statement, accepted
#: exactly when the verifier re-derives the recorded bound from it
FREE_PROOF_INPUTS = ("grid cut_low", "grid cut_high")

_FLOATS = ("epsilon", "target_delta", "sensitivity", "l2_sensitivity", "l1_sensitivity", "lower", "upper")


def _genuine() -> Dict[str, Dict[str, Any]]:
    out = {}
    from fhsym.applications.staircase_pld import calibrate_staircase_pld

    for key, kw in CASES.items():
        kw = dict(kw)
        build = calibrate_staircase_pld if kw.pop("builder", None) == "staircase_pld" else fhsym.calibrate
        cal = build(kw.pop("epsilon"), kw.pop("delta"), **kw)
        out[key] = cal.certificate.to_dict()
    return out


@pytest.fixture(scope="module")
def certificates(shared_dir) -> Dict[str, Dict[str, Any]]:
    """The genuine certificates, calibrated once per session (``shared_dir``: the pytest-xdist workers that run this
    module's tests share them, ~2.6 s of CPU each); their JSON form, which is what a certificate is (the dicts of
    ``Certificate.to_dict`` are JSON values: the round trip gives equal dicts of the same types)."""
    def make(path):
        (path / "certificates.json").write_text(json.dumps(_genuine()))

    return json.loads((shared_dir("tamper_certificates", make) / "certificates.json").read_text())


def test_every_claim_has_a_case(certificates):
    """The cases cover every claim fhsym certifies with (the zCDP claim is DP-CD's, not calibrate's)."""
    claims = {d["claim"] for d in certificates.values()}
    assert claims == set(CLAIMS) - {"zcdp"}
    assert {d["method"] for d in certificates.values()} >= {"arb", "exact-rational", "arb-lattice", "pld-exact"}


# ---------------------------------------------------------------- the edits
def _hex_times(v: str, f: float) -> str:
    return float.hex(float.fromhex(v) * f)


def _redecimal(d: Dict[str, Any]) -> Dict[str, Any]:
    """The decimal copies recomputed from the (edited) exact values, where those still parse."""
    def rep(v: Any) -> Any:
        if isinstance(v, list):
            return [rep(x) for x in v]
        if isinstance(v, int) and not isinstance(v, bool):
            return v
        try:
            return repr(float.fromhex(v))
        except (TypeError, ValueError):
            return "?"
    dec = d.get("decimal")
    if isinstance(dec, dict):
        if isinstance(d.get("parameters"), dict):
            dec["parameters"] = {k: rep(v) for k, v in d["parameters"].items()}
        for k in _FLOATS:
            if k in d and k in dec:
                dec[k] = rep(d[k])
    return d


def _value_edits(v: Any) -> List[Tuple[str, Any]]:
    """Edits of one exact value: moved, negated, zero, wrong types, a decimal string in place of hex."""
    if isinstance(v, bool):
        return [("flipped", not v), ("as string", str(v).lower()), ("as int", int(v))]
    if isinstance(v, int):
        return [("+1", v + 1), ("-1", v - 1), ("0", 0), ("negative", -v - 1), ("as string", str(v)),
                ("as float", float(v)), ("as bool", True), ("huge", 10**30)]
    if isinstance(v, str) and v.startswith(("0x", "-0x")):
        x = float.fromhex(v)
        out = [("x(1-1e-3)", _hex_times(v, 1 - 1e-3)), ("x(1+1e-3)", _hex_times(v, 1 + 1e-3)),
               ("x(1-1e-12)", _hex_times(v, 1 - 1e-12)), ("x2", _hex_times(v, 2.0)), ("x0.5", _hex_times(v, 0.5)),
               ("decimal string", repr(x)), ("number", x), ("inf", "inf"), ("nan", "nan"), ("null", None),
               ("as a list", [v, v])]
        if x != 0:
            out += [("negated", float.hex(-x)), ("zero", float.hex(0.0))]
        else:
            out += [("tiny", float.hex(5e-324)), ("one", float.hex(1.0))]
        return out
    if isinstance(v, list):
        out = [("empty", []), ("as dict", {"0": v[0]})]
        for i, x in enumerate(v[:3]):  # the first entries (the weights of the piecewise-uniform noise)
            out += [(f"[{i}] {name}", v[:i] + [e] + v[i + 1:]) for name, e in _value_edits(x)]
        out += [("last dropped", v[:-1]), ("appended", v + [v[-1]])]
        return out
    return [("as number", 1.5), ("null", None)]


def _grid_edits(grid: Any) -> List[Tuple[str, Any]]:
    if grid is None:
        return [("added", {"format": "pld-exact-1"}), ("empty dict", {}), ("as string", "none")]
    out: List[Tuple[str, Any]] = [("removed", None), ("as string", json.dumps(grid)), ("extra key", {**grid, "x": 1})]
    for k, v in grid.items():
        drop = {kk: vv for kk, vv in grid.items() if kk != k}
        out.append((f"{k} removed", drop))
        if isinstance(v, bool) or not isinstance(v, (int, str)):
            out.append((f"{k} as null", {**grid, k: None}))
        elif isinstance(v, int):
            for name, e in (("+1", v + 1), ("-1", v - 1), ("0", 0), ("as string", str(v)), ("huge", 10**12)):
                out.append((f"{k} {name}", {**grid, k: e}))
        else:
            try:
                q = Fraction(v)
            except (ValueError, ZeroDivisionError):
                out.append((f"{k} edited", {**grid, k: v + "x"}))
            else:
                for name, e in (("x(1+1e-9)", q * (1 + Fraction(1, 10**9))), ("x(1-1e-9)", q * (1 - Fraction(1, 10**9))),
                                ("x2", 2 * q), ("+1", q + 1), ("negated", -q)):
                    out.append((f"{k} {name}", {**grid, k: str(e)}))
                out.append((f"{k} not a number", {**grid, k: "one"}))
    return out


def _edits(d: Dict[str, Any]) -> Iterator[Tuple[str, Dict[str, Any]]]:
    """Every single-field edit of certificate dict ``d`` (each one's name and the edited copy)."""
    def edited(f: Callable[[Dict[str, Any]], None], sync: bool = True) -> Dict[str, Any]:
        e = copy.deepcopy(d)
        f(e)
        return _redecimal(e) if sync else e

    for k in _FLOATS:
        for name, v in _value_edits(d[k]):
            yield f"{k} {name}", edited(lambda e, k=k, v=v: e.__setitem__(k, v))
    for p, pv in d["parameters"].items():
        for name, v in _value_edits(pv):
            yield f"parameters.{p} {name}", edited(lambda e, p=p, v=v: e["parameters"].__setitem__(p, v))
        yield f"parameters.{p} removed", edited(lambda e, p=p: e["parameters"].pop(p))
    yield "parameters extra", edited(lambda e: e["parameters"].__setitem__("extra", "0x1.0000000000000p+0"))
    yield "parameters empty", edited(lambda e: e.__setitem__("parameters", {}))
    for k in ("dim", "compositions"):
        for name, v in _value_edits(d[k]) + [("100", 100)]:
            yield f"{k} {name}", edited(lambda e, k=k, v=v: e.__setitem__(k, v))
    for m in sorted(set(NOISE_CLASSES) - {d["mechanism"]}) + ["nope", ""]:
        yield f"mechanism -> {m}", edited(lambda e, m=m: e.__setitem__("mechanism", m))
    for c in sorted(set(CLAIMS) - {d["claim"]}) + ["nope"]:
        yield f"claim -> {c}", edited(lambda e, c=c: e.__setitem__("claim", c))
    for m in sorted({"arb", "exact-rational", "arb-lattice", "pld-exact", "pld", "x"} - {d["method"]}):
        yield f"method -> {m}", edited(lambda e, m=m: e.__setitem__("method", m))
    for name, v in _value_edits(d["rigorous"]):
        yield f"rigorous {name}", edited(lambda e, v=v: e.__setitem__("rigorous", v))
    for name, g in _grid_edits(d["grid"]):
        yield f"grid {name}", edited(lambda e, g=g: e.__setitem__("grid", g))
    t = d["text"]
    for name, v in (("appended", t + "."), ("emptied", ""), ("digit changed", t.replace("1", "2", 1)),
                    ("<= to >", t.replace("<=", ">", 1)), ("as null", None)):
        yield f"text {name}", edited(lambda e, v=v: e.__setitem__("text", v))
    for name, v in (("1", 1), ("3", 3), ("as string", "2"), ("null", None)):
        yield f"format {name}", edited(lambda e, v=v: e.__setitem__("format", v))
    for name, v in (("as int", 2), ("null", None)):
        yield f"fhsym_version {name}", edited(lambda e, v=v: e.__setitem__("fhsym_version", v))
    for name, v in (("-1", -1), ("as string", "0"), ("as bool", True), ("as float", 0.0)):
        yield f"upward_steps {name}", edited(lambda e, v=v: e.__setitem__("upward_steps", v))
    # the human-readable copy alone (the exact values unchanged)
    for k in _FLOATS:
        yield f"decimal.{k} halved", edited(lambda e, k=k: e["decimal"].__setitem__(k, repr(float(e["decimal"][k]) / 2)),
                                            sync=False)
    for p in d["parameters"]:
        def halve(e: Dict[str, Any], p: str = p) -> None:
            v = e["decimal"]["parameters"][p]
            e["decimal"]["parameters"][p] = ([v[0] + 1] + v[1:] if isinstance(v[0], int) else v[1:]) if isinstance(v, list) \
                else repr(float(v) / 2)
        yield f"decimal.parameters.{p} edited", edited(halve, sync=False)
    yield "decimal removed", edited(lambda e: e.pop("decimal"), sync=False)
    yield "decimal extra", edited(lambda e: e["decimal"].__setitem__("dim", str(e["dim"])), sync=False)
    # the set of fields
    for k in d:
        yield f"{k} missing", edited(lambda e, k=k: e.pop(k), sync=False)
    yield "unknown field", edited(lambda e: e.__setitem__("note", "trust me"))


def _outcome(d: Dict[str, Any]) -> str:
    try:
        ok = fhsym.verify_certificate(d)
    except ValueError:
        return "malformed"
    return "holds" if ok else "false"


@pytest.mark.parametrize("case", list(CASES))
def test_genuine_certificate_verifies(case, certificates):
    d = certificates[case]
    assert _outcome(copy.deepcopy(d)) == "holds"
    assert _outcome(json.loads(json.dumps(d))) == "holds"  # and after a JSON round trip


@pytest.mark.parametrize("case", list(CASES))
def test_every_single_field_edit_is_rejected(case, certificates):
    d = certificates[case]
    accepted, counts = [], {"malformed": 0, "false": 0, "other proof": 0}
    for name, e in _edits(d):
        if e == d:  # an edit that changes nothing (e.g. a value equal to itself) is not an edit
            continue
        out = _outcome(e)  # any exception other than ValueError fails the test here
        if out == "holds" and name.startswith(FREE_PROOF_INPUTS):
            counts["other proof"] += 1  # another valid computation of the same bound (FREE_PROOF_INPUTS)
        elif out == "holds":
            accepted.append(name)
        else:
            counts[out] += 1
    assert not accepted, f"{case}: accepted edits {accepted}"
    assert counts["malformed"] > 20 and counts["false"] >= 5, counts  # both ways of failing are exercised
    print(f"{case}: {counts['malformed'] + counts['false']} edits rejected ({counts['malformed']} malformed, "
          f"{counts['false']} false); {counts['other proof']} cut edits re-derive the same bound")


@pytest.mark.parametrize("case", ["fh-1d", "fh-kfold"])
def test_provenance_fields_are_not_part_of_the_claim(case, certificates):
    """A well-typed fhsym_version or upward_steps does not change what is proven (documented as provenance)."""
    d = copy.deepcopy(certificates[case])
    d["fhsym_version"], d["upward_steps"] = "9.9", 3
    assert _outcome(d) == "holds"
    assert "provenance" in fhsym.Certificate.__doc__ or "provenance" in (fhsym.privacy.certificate.__doc__ or "")


def test_cli_exit_statuses_follow_the_outcome(tmp_path, certificates, capsys):
    """check-certificate: 0 holds, 1 well-formed but false, 2 malformed."""
    d = certificates["fh-1d"]
    for status, edit in ((0, {}), (1, {"epsilon": _hex_times(d["epsilon"], 1 - 1e-3)}), (2, {"dim": 0})):
        path = tmp_path / f"c{status}.json"
        path.write_text(json.dumps(_redecimal({**copy.deepcopy(d), **edit})))
        assert cli.main(["check-certificate", str(path)]) == status
        capsys.readouterr()
