"""Certified bounds on delta(epsilon) of one release: the evidence a calibration rests on.

:func:`profile_bound` returns a :class:`Bound` -- an enclosure ``lower <= delta(eps) <= upper``
of the exact 1-D privacy profile at the exact binary values of the noise parameters -- and says
how it was obtained and whether that way is rigorous.  For one release of any mechanism it is a
proof: ball arithmetic (python-flint ``arb``) with proven error bounds, and exact rationals for
the case selection and for pure DP (:mod:`fhsym._core.arb`).  K-dimensional and composed releases
bring their own bounds (privacy-loss distributions, :mod:`fhsym.accounting`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Optional

from ..noise.base import NoiseDistribution

__all__ = ["Bound", "FLOAT_PROFILE_RTOL", "profile_bound"]

#: relative error allowed for the mechanisms' float profiles where they are used as bounds (the
#: searches' margins, the PLD discretisation): their measured worst error is 2.9e-15, ~35x below
FLOAT_PROFILE_RTOL = 1e-13


@dataclass(frozen=True)
class Bound:
    """An enclosure lower <= delta(epsilon) <= upper and how it was obtained.

    ``evidence``: what a re-check needs besides the certificate's claim (the proven PLD's grid,
    :meth:`fhsym.accounting.pld_exact.ExactBound.record`); recorded as ``extra["pld_grid"]``.
    """

    lower: float
    upper: float
    method: str
    rigorous: bool
    detail: str = ""
    evidence: Optional[Mapping[str, Any]] = field(default=None, compare=False)


def profile_bound(noise: NoiseDistribution, epsilon: float, sensitivity: float) -> Bound:
    """A proven enclosure of ``noise.privacy_profile(epsilon, sensitivity)`` at the exact parameters.

    Ball arithmetic (python-flint ``arb``, :meth:`fhsym.NoiseDistribution.profile_enclosure`) on the
    mechanism's exact profile at the exact binary values of its parameters, epsilon and the
    sensitivity; exactly [0, 0] where delta is provably 0 (pure DP).

    >>> import math, fhsym
    >>> b = profile_bound(fhsym.FlippedHuber(1.0, 2.0), 1.0, 1.0)
    >>> math.isclose(b.upper, float(fhsym.privacy_profile(1.0, 1.0, 2.0)), rel_tol=1e-12), b.method, b.rigorous
    (True, 'arb', True)
    """
    enc = noise.profile_enclosure(epsilon, sensitivity)
    detail = f"ball arithmetic (python-flint arb, {enc.prec} bits) at the exact binary parameters: {enc.method}"
    if 0.0 < enc.upper < 1e-300:
        detail += f" (ball {enc.ball}, below the float range)"
    return Bound(enc.lower, enc.upper, "arb", True, detail)
