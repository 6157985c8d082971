"""Certificates: a privacy claim as data that anyone can re-check.

A :class:`Certificate` records a claim "the mechanism with these exact parameters is
(epsilon, delta)-DP for this sensitivity set" together with the evidence: an enclosure
[lower, upper] of delta(epsilon) computed at the exact binary values of the parameters, the
method that produced it and whether that method is rigorous (a proof, e.g. ball arithmetic
with proven error bounds) or only accurate (a high-precision evaluation).  Parameters are
stored as exact floats (``float.hex``) so that a re-check sees the very numbers the noise is
drawn with.  :func:`fhsym.verify_certificate` re-derives the enclosure from the recorded
inputs alone.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from typing import Any, Dict, Mapping, Union

__all__ = ["Certificate", "CERTIFICATE_FORMAT"]

#: version of the JSON layout written by :meth:`Certificate.to_json`
CERTIFICATE_FORMAT = 1


def _hex(x: float) -> str:
    return float(x).hex()


def _unhex(value: Any, name: str) -> float:
    if isinstance(value, str):
        try:
            return float.fromhex(value)
        except ValueError:
            raise ValueError(f"certificate field {name!r} is not a hex float: {value!r}") from None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    raise ValueError(f"certificate field {name!r} must be a float written with float.hex(); got {value!r}")


@dataclass(frozen=True)
class Certificate:
    """Evidence that a noise mechanism meets (epsilon, target_delta)-DP.

    Attributes
    ----------
    mechanism : str
        The noise law's key (``"flipped_huber"``, ``"gaussian"``, ...).
    parameters : dict
        Its parameters, exactly as the mechanism uses them.
    epsilon, target_delta : float
        The claim.
    sensitivity, l2_sensitivity, l1_sensitivity : float
        The sensitivity set {d : ||d||_inf <= sensitivity, ||d||_2 <= l2, ||d||_1 <= l1}.
    dim : int
        Number of coordinates receiving i.i.d. noise.
    compositions : int
        Number of releases composed (1 for one release).
    lower, upper : float
        An enclosure of delta(epsilon) at the exact parameters: ``lower <= delta <= upper``.
    method : str
        How the enclosure was computed (e.g. ``"arb"``, ``"mpmath"``, ``"pld"``, ``"exact-rational"``).
    claim : str
        What the enclosure bounds, which says how to re-check it: ``"profile-1d"`` (the 1-D
        profile at ``sensitivity``), ``"profile-1d-l2"`` (the Gaussian mechanism in ``dim``
        coordinates: its 1-D profile at ``l2_sensitivity``), ``"pure-l1"`` (Laplace noise with
        eps * beta >= l1_sensitivity: pure DP), ``"pure-composition"`` (``dim`` pure-DP
        coordinates whose budgets add up to at most epsilon), ``"profile-lattice"`` (the discrete flipped Huber's
        lattice profile at ``sensitivity``, a multiple of ``step``), ``"pld-kfold"`` (the exact
        K-fold profile by privacy-loss distributions), ``"theorem8"`` (the paper's sufficient
        condition).
    rigorous : bool
        True when ``upper`` is proven (ball arithmetic, exact rationals); False when it is an
        accurate evaluation without a proof of its error bound.
    text : str
        The human-readable statement.
    version : str
        The fhsym version that wrote it.

    Examples
    --------
    >>> c = Certificate("gaussian", {"sigma": 4.0}, 1.0, 1e-6, 1.0, 1.0, 1.0, 1, 1, 0.0, 5e-7, "arb", True, "demo", "0")
    >>> Certificate.from_json(c.to_json()) == c
    True
    >>> c.holds
    True
    """

    mechanism: str
    parameters: Dict[str, float]
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
    text: str = ""
    claim: str = "profile-1d"
    version: str = ""
    extra: Dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def holds(self) -> bool:
        """The recorded enclosure's upper end is within the target: upper <= target_delta."""
        return self.upper <= self.target_delta

    def __str__(self) -> str:
        return self.text

    def __contains__(self, item: str) -> bool:  # ``"..." in cal.certificate`` as with the 0.1 string
        return item in self.text

    def startswith(self, prefix: str) -> bool:
        """Whether the human-readable text starts with ``prefix`` (as the 0.1 string did)."""
        return self.text.startswith(prefix)

    # -------------------------------------------------------------- JSON
    def to_dict(self) -> Dict[str, Any]:
        """A JSON-ready dict: floats as exact hex strings (``float.hex``) plus decimal copies for people."""
        d = asdict(self)
        exact = {k: _hex(d[k]) for k in ("epsilon", "target_delta", "sensitivity", "l2_sensitivity",
                                         "l1_sensitivity", "lower", "upper")}
        return {
            "format": CERTIFICATE_FORMAT,
            "fhsym_version": self.version,
            "mechanism": self.mechanism,
            "parameters": {k: _hex(v) for k, v in self.parameters.items()},
            **exact,
            "dim": self.dim,
            "compositions": self.compositions,
            "claim": self.claim,
            "method": self.method,
            "rigorous": self.rigorous,
            "text": self.text,
            "extra": self.extra,
            "decimal": {"parameters": {k: repr(float(v)) for k, v in self.parameters.items()},
                        **{k: repr(float(d[k])) for k in exact}},
        }

    def to_json(self, indent: Union[int, None] = 2) -> str:
        """The certificate as JSON text (see :meth:`to_dict`)."""
        return json.dumps(self.to_dict(), indent=indent, sort_keys=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Certificate":
        """Parse :meth:`to_dict` output; a malformed record raises ``ValueError`` naming the field."""
        if not isinstance(data, Mapping):
            raise ValueError(f"a certificate must be a JSON object; got {type(data).__name__}")
        if data.get("format") != CERTIFICATE_FORMAT:
            raise ValueError(f"unsupported certificate format {data.get('format')!r} (expected {CERTIFICATE_FORMAT})")
        try:
            params = data["parameters"]
            if not isinstance(params, Mapping):
                raise ValueError("certificate field 'parameters' must be an object")
            dim = data["dim"]
            comps = data.get("compositions", 1)
            if not (isinstance(dim, int) and dim >= 1 and isinstance(comps, int) and comps >= 1):
                raise ValueError(f"certificate fields 'dim' and 'compositions' must be integers >= 1; got {dim!r}, {comps!r}")
            mech = data["mechanism"]
            method = data["method"]
            rigorous = data["rigorous"]
            if not isinstance(mech, str) or not isinstance(method, str) or not isinstance(rigorous, bool):
                raise ValueError("certificate fields 'mechanism', 'method' (strings) and 'rigorous' (bool) are malformed")
            return cls(
                mechanism=mech,
                parameters={str(k): _unhex(v, f"parameters.{k}") for k, v in params.items()},
                epsilon=_unhex(data["epsilon"], "epsilon"),
                target_delta=_unhex(data["target_delta"], "target_delta"),
                sensitivity=_unhex(data["sensitivity"], "sensitivity"),
                l2_sensitivity=_unhex(data["l2_sensitivity"], "l2_sensitivity"),
                l1_sensitivity=_unhex(data["l1_sensitivity"], "l1_sensitivity"),
                dim=dim,
                compositions=comps,
                lower=_unhex(data["lower"], "lower"),
                upper=_unhex(data["upper"], "upper"),
                method=method,
                rigorous=rigorous,
                text=str(data.get("text", "")),
                claim=str(data.get("claim", "profile-1d")),
                version=str(data.get("fhsym_version", "")),
                extra=dict(data.get("extra", {}) or {}),
            )
        except KeyError as exc:
            raise ValueError(f"certificate is missing the field {exc.args[0]!r}") from None

    @classmethod
    def from_json(cls, text: Union[str, bytes]) -> "Certificate":
        """Parse :meth:`to_json` output (``ValueError`` for anything else)."""
        try:
            data = json.loads(text)
        except (TypeError, json.JSONDecodeError) as exc:
            raise ValueError(f"not a JSON certificate: {exc}") from None
        return cls.from_dict(data)

    def check_finite(self) -> None:
        """ValueError unless every number is finite and the enclosure is ordered."""
        nums = [self.epsilon, self.target_delta, self.sensitivity, self.l2_sensitivity, self.l1_sensitivity,
                self.lower, self.upper, *self.parameters.values()]
        if not all(math.isfinite(x) for x in nums):
            raise ValueError("certificate contains a non-finite number")
        if not (0.0 <= self.lower <= self.upper):
            raise ValueError(f"certificate enclosure is not ordered: [{self.lower!r}, {self.upper!r}]")
