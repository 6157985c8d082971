"""Certificates: a privacy claim as data that anyone can re-check, and nothing else.

A :class:`Certificate` records a claim -- "noise ``mechanism`` with these exact parameters, added
to ``dim`` coordinates with this sensitivity set, ``compositions`` times, is (epsilon,
target_delta)-DP" -- with its evidence: an enclosure [lower, upper] of delta(epsilon) computed by
the claim's bound (:mod:`fhsym.accounting.claims`) at the exact binary values of every input, the
method, whether it is proven, and the computation's own inputs (``grid``).  Floats are stored as
exact hexadecimal strings (``float.hex``) so that a re-check sees the very numbers the noise is
drawn with; the ``decimal`` section repeats them for people and must equal them.

The JSON layout is closed: every field is an input of the claim, an output the re-check
reproduces (lower, upper, method, rigorous, grid, text), or provenance (``fhsym_version``,
``upward_steps``: how the calibration got there; typed, not part of the claim).  A field that is
missing, unknown, of the wrong type or out of its domain raises ``ValueError`` naming it.
:func:`fhsym.verify_certificate` re-derives the evidence from the inputs alone.
"""

from __future__ import annotations

import json
import math
import re
import reprlib
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Dict, List, Mapping, Optional, Tuple, Union

__all__ = ["Certificate", "CERTIFICATE_FORMAT", "MAX_DEPTH", "MAX_TEXT", "MAX_INT", "MAX_WEIGHT"]

#: version of the JSON layout written by :meth:`Certificate.to_json` (2: the closed layout of fhsym 0.2)
CERTIFICATE_FORMAT = 2

ParamValue = Union[float, int, Tuple[Union[float, int], ...]]

_HEX = re.compile(r"-?0x(0|1)\.[0-9a-f]+p[-+]\d+|-?0x0\.0p\+0")
#: nesting depth of the layout: certificate > decimal > parameters > a list of weights
MAX_DEPTH = 4
#: the longest certificate text read (a piecewise-uniform noise of 100,000 weights is ~4 MB)
MAX_TEXT = 16 << 20
#: the largest integer field other than a weight (2^53: exact in every JSON reader)
MAX_INT = 2**53
#: integer parameters (the weights) must be below 2^1023 in magnitude (within the float range)
MAX_WEIGHT = 2**1023
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')
_SHORT = reprlib.Repr()
_SHORT.maxstring, _SHORT.maxother, _SHORT.maxlist, _SHORT.maxdict, _SHORT.maxlevel = 60, 60, 6, 6, 3


def _short(v: Any) -> str:
    """A bounded repr for messages (a value of any size or depth)."""
    return _SHORT.repr(v)


class _BigInt(str):
    """A JSON integer out of the float range, kept as its text so that the field check names the field."""

    def __repr__(self) -> str:
        return f"<an integer of {len(self)} digits>"


def _parse_int(text: str) -> Any:
    return _BigInt(text) if len(text.lstrip("-")) > 309 else int(text)


def _no_duplicates(pairs: List[Tuple[str, Any]]) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"certificate field {k!r} appears twice in one JSON object (a reader keeping the "
                             f"first and one keeping the last would see different certificates)")
        out[k] = v
    return out


def _check_text_depth(text: str) -> None:
    """``ValueError`` if brackets nest deeper than the layout (before the JSON reader could recurse)."""
    depth = 0
    for m in _TOKENS.finditer(text):
        t = m.group()
        if t in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise ValueError(f"a certificate nests at most {MAX_DEPTH} JSON objects and lists deep; this text "
                                 f"goes deeper (at character {m.start()})")
        elif t in "]}":
            depth -= 1


def _check_depth(data: Any) -> None:
    """The same limit for a dict given directly (an explicit stack: no recursion)."""
    stack = [(data, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, (Mapping, list, tuple)):
            if d > MAX_DEPTH:
                raise ValueError(f"a certificate nests at most {MAX_DEPTH} JSON objects and lists deep; got deeper")
            stack.extend((x, d + 1) for x in (v.values() if isinstance(v, Mapping) else v))
_FLOATS = ("epsilon", "target_delta", "sensitivity", "l2_sensitivity", "l1_sensitivity", "lower", "upper")
_FIELDS = ("format", "fhsym_version", "mechanism", "parameters", *_FLOATS, "dim", "compositions", "claim", "method",
           "rigorous", "grid", "text", "upward_steps", "decimal")


def _hex(x: float) -> str:
    return float(x).hex()


def _unhex(value: Any, name: str) -> float:
    """The float written by ``float.hex``, in exactly the form it writes (a decimal string is refused, not misread;
    so is another spelling of the same float, or a value out of the float range)."""
    if not isinstance(value, str) or isinstance(value, _BigInt) or len(value) > 32 or not _HEX.fullmatch(value):
        raise ValueError(f"certificate field {name!r} must be a finite float written with float.hex() "
                         f"(e.g. '0x1.0000000000000p+0'); got {_short(value)}")
    try:
        x = float.fromhex(value)
    except OverflowError:
        raise ValueError(f"certificate field {name!r} = {value!r} is out of the float range (finite floats are "
                         f"below 2^1024)") from None
    if x.hex() != value:
        raise ValueError(f"certificate field {name!r} = {value!r} is not written as float.hex() writes it "
                         f"({x.hex()!r}): one value, one spelling")
    return x


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _int_value(v: Any, name: str, lowest: int, highest: int) -> int:
    """The one rule for integer-valued fields: a JSON integer (not 2.0, not true) in [lowest, highest]."""
    if not _is_int(v) or not lowest <= v <= highest:
        names = {MAX_INT: "2^53", MAX_WEIGHT - 1: "2^1023 - 1", -(MAX_WEIGHT - 1): "-(2^1023 - 1)"}
        rng = f"[{names.get(lowest, str(lowest))}, {names.get(highest, str(highest))}]"
        raise ValueError(f"certificate field {name!r} must be an integer in {rng}; got {_short(v)}")
    return int(v)


def _same(a: Any, b: Any) -> bool:
    """Equal and of the same JSON types throughout (1 is not true, not 1.0)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, Mapping):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return bool(a == b)


def _elem_hex(x: Any) -> Union[str, int]:
    return int(x) if _is_int(x) else _hex(x)


def _param_hex(v: ParamValue) -> Any:
    """A parameter as JSON: a float as ``float.hex``, an integer as a JSON integer (exact), a tuple as a list."""
    return [_elem_hex(x) for x in v] if isinstance(v, (tuple, list)) else _elem_hex(v)


def _elem_unhex(x: Any, name: str) -> Union[float, int]:
    return _int_value(x, name, -(MAX_WEIGHT - 1), MAX_WEIGHT - 1) if _is_int(x) or isinstance(x, _BigInt) \
        else _unhex(x, name)


def _param_unhex(v: Any, name: str) -> ParamValue:
    if isinstance(v, list):
        if not v:
            raise ValueError(f"certificate field {name!r} must be a non-empty list of hex floats or integers")
        return tuple(_elem_unhex(x, f"{name}[{i}]") for i, x in enumerate(v))
    return _elem_unhex(v, name)


def _elem_repr(x: Any) -> Union[str, int]:
    return int(x) if _is_int(x) else repr(float(x))


def _param_repr(v: ParamValue) -> Any:
    return [_elem_repr(x) for x in v] if isinstance(v, (tuple, list)) else _elem_repr(v)


def _grid_to_json(grid: Optional[Mapping[str, Any]]) -> Optional[Dict[str, Any]]:
    if grid is None:
        return None
    out: Dict[str, Any] = {}
    for k, v in grid.items():
        if isinstance(v, float):
            out[k] = {"hex": _hex(v)}
        elif isinstance(v, (int, str)) and not isinstance(v, bool):
            out[k] = v
        else:
            raise ValueError(f"grid value {k!r} must be a float, int or str; got {v!r}")
    return out


def _grid_from_json(data: Any) -> Optional[Dict[str, Any]]:
    if data is None:
        return None
    if not isinstance(data, Mapping) or not all(isinstance(k, str) for k in data):
        raise ValueError(f"certificate field 'grid' must be null or an object; got {data!r}")
    out: Dict[str, Any] = {}
    for k, v in data.items():
        if isinstance(v, Mapping) and set(v) == {"hex"}:
            out[k] = _unhex(v["hex"], f"grid.{k}")
        elif _is_int(v) or isinstance(v, _BigInt):
            out[k] = _int_value(v, f"grid.{k}", 0, MAX_INT)
        elif isinstance(v, str):
            if len(v) > 4096:
                raise ValueError(f"certificate field 'grid.{k}' must be at most 4096 characters; got {len(v)}")
            out[k] = v
        else:
            raise ValueError(f"certificate field 'grid.{k}' must be an int, a string or {{'hex': ...}}; got {_short(v)}")
    return out


def _int_field(data: Mapping[str, Any], name: str, lowest: int) -> int:
    return _int_value(data[name], name, lowest, MAX_INT)


def _str_field(data: Mapping[str, Any], name: str) -> str:
    v = data[name]
    if not isinstance(v, str) or isinstance(v, _BigInt):
        raise ValueError(f"certificate field {name!r} must be a string; got {_short(v)}")
    return v


@dataclass(frozen=True)
class Certificate:
    """Evidence that a noise mechanism meets (epsilon, target_delta)-DP for a sensitivity set.

    Attributes
    ----------
    mechanism : str
        The noise law's key (``"flipped_huber"``, ``"gaussian"``, ...; :data:`fhsym.noise.NOISE_CLASSES`).
    parameters : dict
        Its parameters, exactly as the noise law uses them (floats, integers, or tuples of them;
        floats are written with ``float.hex``, integers as JSON integers).
    epsilon, target_delta : float
        The claim.
    sensitivity, l2_sensitivity, l1_sensitivity : float
        The sensitivity set {d : ||d||_inf <= sensitivity, ||d||_2 <= l2, ||d||_1 <= l1}, in the
        resolved form of :func:`fhsym._core.sensitivities.resolve_sensitivities`.
    dim, compositions : int
        Coordinates receiving i.i.d. noise; releases composed.
    lower, upper : float
        The enclosure ``lower <= delta(epsilon) <= upper`` the claim's bound gave.
    method : str
        How the enclosure was computed (``"arb"``, ``"exact-rational"``, ``"arb-lattice"``, ``"pld"``).
    rigorous : bool
        True when ``upper`` is proven.
    claim : str
        Which bound (:data:`fhsym.accounting.claims.CLAIMS`): ``"profile-1d"``, ``"profile-1d-l2"``,
        ``"pure"``, ``"profile-lattice"``, ``"pld-kfold"``.
    grid : dict or None
        The bound's own inputs (a PLD's lattice), so that a re-check repeats it exactly.
    text : str
        The statement in words, built from the fields (:func:`fhsym.privacy.claims.statement`).
    version, upward_steps :
        Provenance: the fhsym version that wrote it; the calibration's upward rounding steps.

    Examples
    --------
    >>> import fhsym
    >>> c = fhsym.calibrate(1.0, 1e-6, mechanism="gaussian").certificate
    >>> Certificate.from_json(c.to_json()) == c, c.claim, c.rigorous, c.holds
    (True, 'profile-1d', True, True)
    """

    mechanism: str
    parameters: Dict[str, ParamValue]
    epsilon: float
    target_delta: float
    sensitivity: float
    l2_sensitivity: float
    l1_sensitivity: float
    dim: int
    compositions: int
    lower: float
    upper: float
    method: str
    rigorous: bool
    claim: str
    grid: Optional[Dict[str, Any]] = None
    text: str = ""
    version: str = ""
    upward_steps: int = field(default=0, compare=False)

    @property
    def holds(self) -> bool:
        """The recorded enclosure's upper end is within the target: upper <= target_delta."""
        return self.upper <= self.target_delta

    def __str__(self) -> str:
        return self.text

    # -------------------------------------------------------------- JSON
    def to_dict(self) -> Dict[str, Any]:
        """A JSON-ready dict: floats as exact hex strings (``float.hex``) plus decimal copies for people."""
        floats = {k: getattr(self, k) for k in _FLOATS}
        return {
            "format": CERTIFICATE_FORMAT,
            "fhsym_version": self.version,
            "mechanism": self.mechanism,
            "parameters": {k: _param_hex(v) for k, v in self.parameters.items()},
            **{k: _hex(v) for k, v in floats.items()},
            "dim": self.dim,
            "compositions": self.compositions,
            "claim": self.claim,
            "method": self.method,
            "rigorous": self.rigorous,
            "grid": _grid_to_json(self.grid),
            "text": self.text,
            "upward_steps": self.upward_steps,
            "decimal": {"parameters": {k: _param_repr(v) for k, v in self.parameters.items()},
                        **{k: repr(float(v)) for k, v in floats.items()}},
        }

    def to_json(self, indent: Union[int, None] = 2) -> str:
        """The certificate as JSON text (see :meth:`to_dict`)."""
        return json.dumps(self.to_dict(), indent=indent, sort_keys=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Certificate":
        """Parse :meth:`to_dict` output strictly; anything malformed raises ``ValueError`` naming the field.

        Checked here: the set of fields, their types, the hex form of every float, the ``decimal``
        copies (equal to the exact values), the domains (epsilon >= 0, target_delta in [0, 1),
        sensitivities > 0, 0 <= lower <= upper <= 1).  The claim's own consistency (mechanism,
        parameters, sensitivity set, dim, compositions, method, rigorous, grid, text) is checked by
        :func:`fhsym.verify_certificate`.
        """
        if not isinstance(data, Mapping):
            raise ValueError(f"a certificate must be a JSON object; got {type(data).__name__}")
        _check_depth(data)
        if "format" not in data or _is_int(data["format"]) and data["format"] != CERTIFICATE_FORMAT:
            raise ValueError(f"certificate field 'format' must be {CERTIFICATE_FORMAT}; got {_short(data.get('format'))}")
        _int_value(data["format"], "format", CERTIFICATE_FORMAT, CERTIFICATE_FORMAT)
        unknown = sorted(set(data) - set(_FIELDS), key=str)
        if unknown:
            raise ValueError(f"certificate field {_short(unknown[0])} is not part of a certificate (fields: "
                             f"{list(_FIELDS)})")
        missing = [k for k in _FIELDS if k not in data]
        if missing:
            raise ValueError(f"certificate is missing the field {missing[0]!r}")
        params = data["parameters"]
        if not isinstance(params, Mapping) or not params or not all(isinstance(k, str) for k in params):
            raise ValueError(f"certificate field 'parameters' must be a non-empty object; got {_short(params)}")
        if not isinstance(data["rigorous"], bool):
            raise ValueError(f"certificate field 'rigorous' must be true or false; got {_short(data['rigorous'])}")
        floats = {k: _unhex(data[k], k) for k in _FLOATS}
        parameters = {k: _param_unhex(v, f"parameters.{k}") for k, v in params.items()}
        cert = cls(
            mechanism=_str_field(data, "mechanism"), parameters=parameters, **floats,
            dim=_int_field(data, "dim", 1), compositions=_int_field(data, "compositions", 1),
            method=_str_field(data, "method"), rigorous=data["rigorous"], claim=_str_field(data, "claim"),
            grid=_grid_from_json(data["grid"]), text=_str_field(data, "text"),
            version=_str_field(data, "fhsym_version"), upward_steps=_int_field(data, "upward_steps", 0))
        cert._check_decimal(data["decimal"])
        cert.check_domains()
        return cert

    @classmethod
    def from_json(cls, text: Union[str, bytes]) -> "Certificate":
        """Parse :meth:`to_json` output strictly (``ValueError`` for anything else, naming the field).

        Besides :meth:`from_dict`'s checks: at most :data:`MAX_TEXT` characters, nesting at most
        :data:`MAX_DEPTH` deep (checked on the text, before the JSON reader could recurse), no key twice
        in one object, and no JSON number with a fraction or exponent (the layout has none: floats are
        hex strings), nor an integer out of the float range (each refused naming its field).

        >>> Certificate.from_json('{"format": 2, "format": 2}')
        Traceback (most recent call last):
        ...
        ValueError: certificate field 'format' appears twice in one JSON object (a reader keeping the first and one keeping the last would see different certificates)
        """
        if isinstance(text, bytes):
            try:
                text = text.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise ValueError(f"not a JSON certificate: {exc}") from None
        if not isinstance(text, str):
            raise ValueError(f"a certificate must be JSON text; got {type(text).__name__}")
        if len(text) > MAX_TEXT:
            raise ValueError(f"a certificate is at most {MAX_TEXT} characters; got {len(text)}")
        _check_text_depth(text)
        try:
            data = json.loads(text, object_pairs_hook=_no_duplicates, parse_int=_parse_int, parse_float=Decimal,
                              parse_constant=Decimal)
        except json.JSONDecodeError as exc:
            raise ValueError(f"not a JSON certificate: {exc}") from None
        return cls.from_dict(data)

    def _check_decimal(self, dec: Any) -> None:
        want = self.to_dict()["decimal"]
        if not isinstance(dec, Mapping) or set(dec) != set(want):
            raise ValueError(f"certificate field 'decimal' must hold exactly {sorted(want)}; got {_short(dec)}")
        for k, v in want.items():
            if not _same(dec[k], v):
                raise ValueError(f"certificate field 'decimal.{k}' = {_short(dec[k])} does not equal the exact value "
                                 f"{_short(v)}")

    def check_domains(self) -> None:
        """``ValueError`` naming the field unless every number is in its domain and the enclosure is ordered."""
        if not self.epsilon >= 0.0:
            raise ValueError(f"certificate field 'epsilon' must be >= 0; got {self.epsilon!r}")
        if not 0.0 <= self.target_delta < 1.0:
            raise ValueError(f"certificate field 'target_delta' must be in [0, 1); got {self.target_delta!r}")
        for k in ("sensitivity", "l2_sensitivity", "l1_sensitivity"):
            if not getattr(self, k) > 0.0:
                raise ValueError(f"certificate field {k!r} must be > 0; got {getattr(self, k)!r}")
        if not 0.0 <= self.lower <= self.upper <= 1.0:
            raise ValueError(f"certificate fields 'lower' and 'upper' must satisfy 0 <= lower <= upper <= 1; got "
                             f"[{self.lower!r}, {self.upper!r}]")

    @property
    def inputs(self) -> Tuple[Any, ...]:
        """The claim's inputs (what a re-check reads): mechanism, parameters, epsilon, set, dim, compositions, grid."""
        return (self.mechanism, tuple(sorted(self.parameters.items())), self.epsilon, self.sensitivity,
                self.l2_sensitivity, self.l1_sensitivity, self.dim, self.compositions, self.claim,
                None if self.grid is None else tuple(sorted(self.grid.items())))
