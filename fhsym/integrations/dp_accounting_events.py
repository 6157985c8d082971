"""The flipped Huber ``DpEvent`` of dp_accounting (optional: ``pip install dp-accounting``).

Shared by the PLD accountant (:mod:`fhsym.integrations.dp_accounting`) and the RDP accountant
(:mod:`fhsym.integrations.dp_accounting_rdp`); import it from either.

Neighbouring relations.  The event is a sum of per-record contributions |v_i| <= Delta plus noise:
under ``ADD_OR_REMOVE_ONE`` and ``REPLACE_SPECIAL`` (a record replaced by the special null record)
the release moves by at most Delta; under ``REPLACE_ONE`` by at most 2 Delta.  fhsym's accountants
use exactly these shifts.

Vectors (DP-SGD).  ``FlippedHuberDpEvent(alpha, gamma, sensitivity, dim=K, l2_sensitivity=C)`` is one
release of a K-dimensional sum with i.i.d. FH noise on every coordinate; the per-record difference vector
d lies in the intersection of the box ||d||_inf <= ``sensitivity`` and the ball ||d||_2 <= ``l2_sensitivity``
(``None``: no l2 constraint), as in :func:`fhsym.calibrate`.  For l2-clipped gradients with clip norm C
pass ``l2_sensitivity=C`` and ``sensitivity`` >= C (the box is then inactive).  Vector events are accounted
by :class:`~fhsym.integrations.dp_accounting_rdp.FlippedHuberRdpAccountant` only (the PLD accountant refuses
them: its FH PLDs are one-dimensional).
"""

from __future__ import annotations

from typing import Any, Optional

try:
    import attr
    from dp_accounting import dp_event
    from dp_accounting import privacy_accountant as _pa
except ImportError as exc:  # pragma: no cover - exercised only without the optional dependency
    raise ImportError("fhsym.integrations.dp_accounting needs dp_accounting: pip install dp-accounting",
                      name="dp_accounting") from exc

from .._core import domains as V

__all__ = ["FlippedHuberDpEvent", "NeighborRel", "coordinate_bounds", "event_shift"]

NeighborRel = _pa.NeighboringRelation


def _alpha(value: Any) -> float:
    return V.check_scalar(value, V.ALPHA)


def _gamma(value: Any) -> float:
    return V.check_scalar(value, V.GAMMA)


def _sensitivity(value: Any) -> float:
    return V.check_scalar(value, V.SENSITIVITY)


def _dim(value: Any) -> int:
    return V.check_int(value, "dim", 1)


def _l2(value: Any) -> Optional[float]:
    return None if value is None else V.check_scalar(value, V.Domain("l2_sensitivity", 0.0, float("inf")))


@attr.s(frozen=True, slots=True, auto_attribs=True)
class FlippedHuberDpEvent(dp_event.DpEvent):  # type: ignore[misc]  # dp_accounting is untyped
    """One application of the flipped Huber mechanism: sum_i v_i + T, T ~ FH(alpha, gamma^2) (paper eq 8).

    ``sensitivity`` bounds each record's contribution |v_i| <= Delta, so under add/remove-one
    neighbours the released value moves by at most Delta (dp_accounting's ``GaussianDpEvent`` with
    noise multiplier s corresponds to ``FlippedHuberDpEvent(0, s * C, C)``).  ``dim`` > 1: a vector release,
    the difference vector d with ||d||_inf <= ``sensitivity`` and ||d||_2 <= ``l2_sensitivity`` (module
    docstring); in one dimension the shift is min(``sensitivity``, ``l2_sensitivity``).  The parameters are
    validated (alpha >= 0, gamma > 0, sensitivities > 0, finite, dim an integer >= 1; ``ValueError`` naming
    the parameter) and stored as floats / int.

    >>> FlippedHuberDpEvent(1.0, 2.0)
    FlippedHuberDpEvent(alpha=1.0, gamma=2.0, sensitivity=1.0, dim=1, l2_sensitivity=None)
    """

    alpha: float = attr.ib(converter=_alpha)
    gamma: float = attr.ib(converter=_gamma)
    sensitivity: float = attr.ib(default=1.0, converter=_sensitivity)
    dim: int = attr.ib(default=1, converter=_dim)
    l2_sensitivity: Optional[float] = attr.ib(default=None, converter=_l2)


def coordinate_bounds(event: FlippedHuberDpEvent, neighboring_relation: Any) -> "tuple[float, float]":
    """(c_inf, c_2): the box and l2 radii of the difference vector under the relation (both doubled under
    ``REPLACE_ONE``); c_2 = inf without an l2 constraint; c_inf <= c_2 (a coordinate is at most the l2 norm).

    >>> coordinate_bounds(FlippedHuberDpEvent(1.0, 2.0, 1.0, dim=10, l2_sensitivity=0.5), NeighborRel.ADD_OR_REMOVE_ONE)
    (0.5, 0.5)
    """
    if neighboring_relation not in (NeighborRel.ADD_OR_REMOVE_ONE, NeighborRel.REPLACE_SPECIAL, NeighborRel.REPLACE_ONE):
        raise ValueError(f"neighboring_relation must be a dp_accounting NeighboringRelation; got {neighboring_relation!r}")
    k = 2.0 if neighboring_relation == NeighborRel.REPLACE_ONE else 1.0
    c2 = float("inf") if event.l2_sensitivity is None else k * event.l2_sensitivity
    return min(k * event.sensitivity, c2), c2


def event_shift(event: FlippedHuberDpEvent, neighboring_relation: Any) -> float:
    """How far one neighbour moves a scalar release: Delta = min(sensitivity, l2_sensitivity), or 2 Delta under
    ``REPLACE_ONE`` (for ``dim`` > 1 see :func:`coordinate_bounds`).

    >>> event_shift(FlippedHuberDpEvent(1.0, 2.0, 0.5), NeighborRel.REPLACE_ONE)
    1.0
    """
    D = event.sensitivity if event.l2_sensitivity is None else min(event.sensitivity, event.l2_sensitivity)
    if neighboring_relation == NeighborRel.REPLACE_ONE:
        return 2.0 * D
    if neighboring_relation in (NeighborRel.ADD_OR_REMOVE_ONE, NeighborRel.REPLACE_SPECIAL):
        return D
    raise ValueError(f"neighboring_relation must be a dp_accounting NeighboringRelation; got {neighboring_relation!r}")
