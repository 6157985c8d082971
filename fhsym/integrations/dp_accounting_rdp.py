"""Flipped Huber events in dp_accounting's Renyi-DP accountant (optional: ``pip install dp-accounting``).

dp_accounting's ``RdpAccountant`` dispatches on event types in one ``isinstance`` chain (no registry),
so it accepts a new event only through a subclass.  Two routes:

* :class:`FlippedHuberRdpAccountant` -- an ``RdpAccountant`` that also takes
  :class:`~fhsym.integrations.dp_accounting_events.FlippedHuberDpEvent`: bare, in
  ``SelfComposedDpEvent`` / ``ComposedDpEvent`` at any depth, as the sub-event of a
  ``PoissonSampledDpEvent`` (ADD_OR_REMOVE_ONE, REPLACE_SPECIAL) and of a
  ``SampledWithoutReplacementDpEvent`` (REPLACE_ONE).  Each order gets the certified Renyi divergence
  of the shifted pair (:func:`fhsym.integrations.renyi.flipped_huber_rdp`: arb closed form, upper end), or
  for a vector event (``dim`` > 1) the certified bound over its l2 ball
  (:func:`fhsym.integrations.renyi_subsampled.vector_rdp`).  Which route a subsampled event takes:

  - ``PoissonSampledDpEvent(q, FlippedHuberDpEvent)`` (the sub-event is one FH event): the **exact**
    Poisson-subsampled RDP (:mod:`fhsym.integrations.renyi_subsampled`): for ``dim`` = 1 the binomial
    expansion at integer orders and the arb integral of the definition at fractional ones (at alpha = 0
    dp_accounting's sampled Gaussian at integer orders; at fractional orders dp_accounting sums |C(lam, i)|,
    an upper bound, and this is the exact value, below it); for ``dim`` > 1 the binomial expansion with the
    vector bound at integer orders and the chord of the cumulant between them;
  - any other sub-event containing FH (``ComposedDpEvent([FH, GaussianDpEvent])``, ``SelfComposedDpEvent``
    of FH) under a Poisson sample: Zhu & Wang (ICML 2019, Theorem 6), the sub-event's RDP at the integer
    orders being the sum of the parts';
  - ``SampledWithoutReplacementDpEvent``: Wang, Balle & Kasiviswanathan (AISTATS 2019, Theorem 9).

  The general theorems are used at the integer orders up to :data:`MAX_SUBSAMPLED_ORDER` with the
  convexity of the cumulant between them; above :data:`MAX_SUBSAMPLED_ORDER` every route takes the
  un-subsampled value (a valid cap).  Every other event is dp_accounting's ``RdpAccountant`` (so a
  Poisson-sampled Gaussian keeps dp_accounting's formula).
* :func:`to_zcdp_event` -- for the *stock* ``RdpAccountant``: the FH event as dp_accounting's
  ``ZCDpEvent(rho=eta, xi=xi)`` (fhsym's zCDP bound, RDP(lam) <= xi + eta lam, valid for every order);
  looser than the exact divergences, and the stock accountant subsamples only Gaussian events.

Conditions of the subsampling theorems: the base mechanism's RDP is bounded at every integer order
2..alpha for the neighbouring relation of the subsampled data (add/remove one for Poisson; replace one
for sampling without replacement, where an FH event moves by 2 Delta); the subsample is drawn
independently of the mechanism's randomness; Theorem 9 is used with eps(inf) = inf (FH has unbounded
privacy loss), i.e. the factor min{2, (e^eps(inf) - 1)^j} = 2.

>>> from dp_accounting import dp_event
>>> from fhsym.integrations.dp_accounting_events import FlippedHuberDpEvent
>>> acc = FlippedHuberRdpAccountant()
>>> _ = acc.compose(dp_event.SelfComposedDpEvent(FlippedHuberDpEvent(1.0, 3.0), 10))
>>> bool(4.0 < acc.get_epsilon(1e-6) < 6.0)
True
"""

from __future__ import annotations

import math
from typing import Any, Callable, Dict, List, Optional, Sequence

import numpy as np

try:
    from dp_accounting import dp_event
    from dp_accounting.rdp import rdp_privacy_accountant as _rdp
except ImportError as exc:  # pragma: no cover - exercised only without the optional dependency
    raise ImportError("fhsym.integrations.dp_accounting needs dp_accounting: pip install dp-accounting",
                      name="dp_accounting") from exc

from ..noise.flipped_huber import FlippedHuber
from .dp_accounting_events import FlippedHuberDpEvent, NeighborRel, coordinate_bounds, event_shift
from .renyi import (
    flipped_huber_rdp,
    interpolated_rdp,
    poisson_subsampled_rdp,
    without_replacement_subsampled_rdp,
)
from .renyi_subsampled import flipped_huber_subsampled_rdp, vector_rdp, vector_subsampled_rdp

__all__ = ["FlippedHuberRdpAccountant", "MAX_SUBSAMPLED_ORDER", "to_zcdp_event"]

#: integer orders up to this one get the subsampling theorems (their sums have `order` terms); above
#: it the un-subsampled RDP is used, a valid cap (dp_accounting itself switches to Stirling above 256)
MAX_SUBSAMPLED_ORDER = 256


def to_zcdp_event(event: FlippedHuberDpEvent, neighboring_relation: Any = NeighborRel.ADD_OR_REMOVE_ONE) -> Any:
    """dp_accounting's ``ZCDpEvent(rho=eta, xi=xi)`` bounding the FH event (for the stock ``RdpAccountant``).

    (xi, eta) = (R_Delta(alpha)/(2 gamma^2), Delta^2/(2 gamma^2)) (``FlippedHuber.zcdp``), at the shift
    of the neighbouring relation (2 Delta under REPLACE_ONE), each rounded up by 1e-12 relative.

    >>> from dp_accounting.rdp import rdp_privacy_accountant as rdp
    >>> acc = rdp.RdpAccountant()
    >>> _ = acc.compose(to_zcdp_event(FlippedHuberDpEvent(1.0, 2.0)))
    >>> bool(acc.get_epsilon(1e-6) > 0)
    True
    """
    if not isinstance(event, FlippedHuberDpEvent):
        raise ValueError(f"event must be a FlippedHuberDpEvent; got {event!r}")
    xi, eta = FlippedHuber(event.alpha, event.gamma).zcdp(event_shift(event, neighboring_relation))
    return dp_event.ZCDpEvent(rho=float(eta) * (1.0 + 1e-12), xi=float(xi) * (1.0 + 1e-12))


def _has_fh(event: Any) -> bool:
    if isinstance(event, FlippedHuberDpEvent):
        return True
    if isinstance(event, dp_event.ComposedDpEvent):
        return any(_has_fh(e) for e in event.events)
    if isinstance(event, dp_event.SelfComposedDpEvent):
        return _has_fh(event.event)
    return False


class FlippedHuberRdpAccountant(_rdp.RdpAccountant):  # type: ignore[misc]  # dp_accounting is untyped
    """dp_accounting's ``RdpAccountant`` that also accepts flipped Huber events (see the module docstring).

    ``orders``: the RDP orders (default dp_accounting's ``DEFAULT_RDP_ORDERS``), each >= 1.
    ``get_epsilon(delta)`` / ``get_delta(epsilon)`` are dp_accounting's conversions of the composed RDP
    curve, whose FH terms are certified upper bounds.
    """

    def __init__(self, orders: Optional[Sequence[float]] = None,
                 neighboring_relation: Any = NeighborRel.ADD_OR_REMOVE_ONE) -> None:
        if neighboring_relation not in (NeighborRel.ADD_OR_REMOVE_ONE, NeighborRel.REPLACE_ONE, NeighborRel.REPLACE_SPECIAL):
            raise ValueError(f"neighboring_relation must be a dp_accounting NeighboringRelation; got {neighboring_relation!r}")
        if orders is not None:
            o = np.asarray(orders, dtype=float)
            if o.ndim != 1 or o.size == 0 or np.any(np.isnan(o)) or np.any(o < 1.0):
                raise ValueError(f"orders must be a non-empty sequence of numbers >= 1; got {orders!r}")
        super().__init__(orders, neighboring_relation)

    # -- FH terms -------------------------------------------------------------
    @staticmethod
    def _fh_value(event: FlippedHuberDpEvent, relation: Any, order: float) -> float:
        """The un-subsampled RDP bound of one FH event (scalar: the shifted pair; vector: over its l2 ball)."""
        if event.dim > 1:
            c, C = coordinate_bounds(event, relation)
            return vector_rdp(order, event.alpha, event.gamma, event.dim, c, None if C == math.inf else C)
        return flipped_huber_rdp(order, event.alpha, event.gamma, event_shift(event, relation))

    def _fh_curve(self, event: FlippedHuberDpEvent, relation: Any) -> np.ndarray:
        return np.array([self._fh_value(event, relation, float(o)) for o in self._orders])

    def _exact_poisson_curve(self, event: FlippedHuberDpEvent, q: float) -> np.ndarray:
        """The exact Poisson-subsampled route (module docstring) at the accountant's orders."""
        out: List[float] = []
        for o in (float(x) for x in self._orders):
            if o > MAX_SUBSAMPLED_ORDER:
                out.append(self._fh_value(event, NeighborRel.ADD_OR_REMOVE_ONE, o))  # a valid cap
            elif event.dim == 1:
                out.append(flipped_huber_subsampled_rdp(o, q, event.alpha, event.gamma,
                                                        event_shift(event, NeighborRel.ADD_OR_REMOVE_ONE)))
            else:
                c, C = coordinate_bounds(event, NeighborRel.ADD_OR_REMOVE_ONE)
                out.append(vector_subsampled_rdp(o, q, event.alpha, event.gamma, event.dim, c,
                                                 None if C == math.inf else C))
        return np.array(out)

    def _inner(self, sub: Any, relation: Any) -> "FlippedHuberRdpAccountant":
        """An accountant of the sub-event alone at the integer orders 2..min(max order, cap) and the larger orders."""
        top = int(math.ceil(float(np.max(self._orders))))
        ints = list(range(2, max(min(top, MAX_SUBSAMPLED_ORDER), 2) + 1))
        big = sorted({float(o) for o in self._orders if o > MAX_SUBSAMPLED_ORDER})
        return FlippedHuberRdpAccountant(ints + big, relation)

    def _subsampled_curve(self, sub: Any, relation: Any, bound: Callable[[int, float, Callable[[int], float]], float],
                          q: float) -> np.ndarray:
        inner = self._inner(sub, relation)
        inner.compose(sub)
        table: Dict[float, float] = dict(zip((float(o) for o in inner.orders), (float(v) for v in inner.rdp)))

        def base(ell: int) -> float:
            return table[float(ell)]

        cache: Dict[int, float] = {}

        def sub_int(alpha: int) -> float:
            if alpha not in cache:
                cache[alpha] = bound(alpha, q, base)
            return cache[alpha]

        out: List[float] = []
        for o in self._orders:
            o = float(o)
            if o > MAX_SUBSAMPLED_ORDER:
                out.append(table[o])  # the un-subsampled RDP: subsampling never increases it
            else:
                out.append(interpolated_rdp(o, sub_int))
        return np.array(out)

    def _sampled(self, event: Any, sub: Any, q: float, relation_ok: Sequence[Any], inner_relation: Any,
                 bound: Callable[[int, float, Callable[[int], float]], float], count: int, do_compose: bool) -> Any:
        if self._neighboring_relation not in relation_ok:
            names = " or ".join(f"`{r.name}`" for r in relation_ok)
            return self.CompositionErrorDetails(
                invalid_event=event,
                error_message=f"neighboring_relation must be {names} for a `{type(event).__name__}` of a flipped "
                              f"Huber event. Found {self._neighboring_relation}.")
        if not (isinstance(q, (int, float)) and 0.0 <= q <= 1.0):
            return self.CompositionErrorDetails(invalid_event=event, error_message=f"sampling probability must be in [0, 1]; got {q!r}")
        bad = FlippedHuberRdpAccountant([2.0], inner_relation)._maybe_compose(sub, 1, False)
        if bad is not None:
            return self.CompositionErrorDetails(invalid_event=event,
                                                error_message=f"unsupported sub-event: {bad.error_message}")
        if do_compose and count > 0 and q > 0:
            if q == 1.0:
                sub_acc = FlippedHuberRdpAccountant(list(self._orders), inner_relation)
                sub_acc.compose(sub)
                self._rdp += count * sub_acc.rdp
            elif bound is poisson_subsampled_rdp and isinstance(sub, FlippedHuberDpEvent):
                self._rdp += count * self._exact_poisson_curve(sub, float(q))
            else:
                self._rdp += count * self._subsampled_curve(sub, inner_relation, bound, float(q))
        return None

    # -- dispatch -----------------------------------------------------------
    def _maybe_compose(self, event: Any, count: int, do_compose: bool) -> Any:
        if isinstance(event, FlippedHuberDpEvent):
            if do_compose and count > 0:
                self._rdp += count * self._fh_curve(event, self._neighboring_relation)
            return None
        if isinstance(event, dp_event.PoissonSampledDpEvent) and _has_fh(event.event):
            return self._sampled(event, event.event, event.sampling_probability,
                                 (NeighborRel.ADD_OR_REMOVE_ONE, NeighborRel.REPLACE_SPECIAL), NeighborRel.ADD_OR_REMOVE_ONE,
                                 poisson_subsampled_rdp, count, do_compose)
        if isinstance(event, dp_event.SampledWithoutReplacementDpEvent) and _has_fh(event.event):
            n, m = event.source_dataset_size, event.sample_size
            if not (isinstance(n, int) and isinstance(m, int) and 0 <= m <= n and n > 0):
                return self.CompositionErrorDetails(invalid_event=event,
                                                    error_message=f"need 0 <= sample_size <= source_dataset_size; got {m}, {n}")
            return self._sampled(event, event.event, m / n, (NeighborRel.REPLACE_ONE,), NeighborRel.REPLACE_ONE,
                                 without_replacement_subsampled_rdp, count, do_compose)
        return super()._maybe_compose(event, count, do_compose)
