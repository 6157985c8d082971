"""The flipped Huber ``DpEvent`` of dp_accounting (optional: ``pip install dp-accounting``).

Shared by the PLD accountant (:mod:`fhsym.integrations.dp_accounting`) and the RDP accountant
(:mod:`fhsym.integrations.dp_accounting_rdp`); import it from either.

Neighbouring relations.  The event is a sum of per-record contributions |v_i| <= Delta plus noise:
under ``ADD_OR_REMOVE_ONE`` and ``REPLACE_SPECIAL`` (a record replaced by the special null record)
the release moves by at most Delta; under ``REPLACE_ONE`` by at most 2 Delta.  fhsym's accountants
use exactly these shifts.
"""

from __future__ import annotations

from typing import Any

try:
    import attr
    from dp_accounting import dp_event
    from dp_accounting import privacy_accountant as _pa
except ImportError as exc:  # pragma: no cover - exercised only without the optional dependency
    raise ImportError("fhsym.integrations.dp_accounting needs dp_accounting: pip install dp-accounting",
                      name="dp_accounting") from exc

from .._core import domains as V

__all__ = ["FlippedHuberDpEvent", "NeighborRel", "event_shift"]

NeighborRel = _pa.NeighboringRelation


def _alpha(value: Any) -> float:
    return V.check_scalar(value, V.ALPHA)


def _gamma(value: Any) -> float:
    return V.check_scalar(value, V.GAMMA)


def _sensitivity(value: Any) -> float:
    return V.check_scalar(value, V.SENSITIVITY)


@attr.s(frozen=True, slots=True, auto_attribs=True)
class FlippedHuberDpEvent(dp_event.DpEvent):  # type: ignore[misc]  # dp_accounting is untyped
    """One application of the flipped Huber mechanism: sum_i v_i + T, T ~ FH(alpha, gamma^2) (paper eq 8).

    ``sensitivity`` bounds each record's contribution |v_i| <= Delta, so under add/remove-one
    neighbours the released value moves by at most Delta (dp_accounting's ``GaussianDpEvent`` with
    noise multiplier s corresponds to ``FlippedHuberDpEvent(0, s * C, C)``).  Scalar (1-D) releases;
    the parameters are validated (alpha >= 0, gamma > 0, sensitivity > 0, finite) and stored as floats.

    >>> FlippedHuberDpEvent(1.0, 2.0)
    FlippedHuberDpEvent(alpha=1.0, gamma=2.0, sensitivity=1.0)
    """

    alpha: float = attr.ib(converter=_alpha)
    gamma: float = attr.ib(converter=_gamma)
    sensitivity: float = attr.ib(default=1.0, converter=_sensitivity)


def event_shift(event: FlippedHuberDpEvent, neighboring_relation: Any) -> float:
    """How far one neighbour moves the release: Delta, or 2 Delta under ``REPLACE_ONE``.

    >>> event_shift(FlippedHuberDpEvent(1.0, 2.0, 0.5), NeighborRel.REPLACE_ONE)
    1.0
    """
    if neighboring_relation == NeighborRel.REPLACE_ONE:
        return 2.0 * event.sensitivity
    if neighboring_relation in (NeighborRel.ADD_OR_REMOVE_ONE, NeighborRel.REPLACE_SPECIAL):
        return event.sensitivity
    raise ValueError(f"neighboring_relation must be a dp_accounting NeighboringRelation; got {neighboring_relation!r}")
