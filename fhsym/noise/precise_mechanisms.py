"""``NoiseDistribution.at_precision``'s dispatch, and the profile-only views of laws without a view (issue 29).

Every law of the registry has a view reached through its ``_precise_view`` hook (flipped Huber:
:mod:`fhsym.noise.precise`; the Gaussian, Laplace and OSGT laws and every declared law
(:mod:`fhsym.noise.declared`) and the truncated Laplace law (a bounded support): :mod:`fhsym.noise.precise_declared`,
through the ball forms printed from their derivation; the staircase, piecewise-uniform and
truncated staircase laws: :mod:`fhsym.noise.precise_steps`; the discrete flipped Huber law:
:mod:`fhsym.noise.precise_discrete`).  A law without one (a :class:`~fhsym.noise.base.NoiseDistribution` subclass
written outside fhsym) gets its privacy profile: as a certified ball from its arb plan (:class:`BallProfile`, exact
case selection at the exact parameters) and as an mpmath number (the ball's midpoint, the precision raised until the
radius is below 2^-bits relative), and ``epsilon_for_delta`` by bisection on it.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Optional

import mpmath
from flint import arb, ctx, fmpq

from .._core.mpfuncs import exact_fraction, to_mpf
from .precise import Exact, Precision, exact_parameter

__all__ = ["PreciseProfile", "BallProfile", "at_precision"]


def _q(x: Fraction) -> fmpq:
    return fmpq(x.numerator, x.denominator)


class BallProfile(Precision):
    """A law's privacy profile in ball arithmetic (``noise._arb_plan``: fhsym._core.arb's enclosures)."""

    def __init__(self, noise: Any, digits: Optional[int] = None, *, bits: Optional[int] = None) -> None:
        super().__init__(digits, bits)
        self.noise = noise

    def __repr__(self) -> str:
        return f"BallProfile({self.noise!r}, bits={self.bits})"

    def privacy_profile(self, epsilon: Exact, sensitivity: Exact = 1.0) -> arb:
        """A ball containing delta(eps) = int [g(t) - e^eps g(t + Delta)]_+ dt at the exact eps and Delta."""
        e = exact_parameter(epsilon, "epsilon", Fraction(0), False)
        dl = exact_parameter(sensitivity, "sensitivity", Fraction(0), True)
        evaluate, plan, _ = self.noise._arb_plan(_q(e), _q(dl))
        boost = int(getattr(plan, "boost", 16)) if plan is not None else 16
        prec = self.work
        while True:
            with ctx.workprec(prec + boost):
                x: arb = evaluate(plan, prec)
            if x.is_exact() or (x.is_finite() and x.rel_accuracy_bits() >= self.bits) or prec >= 16 * self.work:
                return x
            prec *= 2


class PreciseProfile(Precision):
    """A law's privacy profile as mpmath numbers: the midpoint of its certified ball (see :class:`BallProfile`)."""

    def __init__(self, noise: Any, digits: Optional[int] = None, *, bits: Optional[int] = None) -> None:
        super().__init__(digits, bits)
        self.noise = noise
        self._balls = BallProfile(noise, bits=self.bits)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.noise!r}, bits={self.bits})"

    def privacy_profile(self, epsilon: Exact, sensitivity: Exact = 1.0) -> Any:
        """delta(eps) at the requested precision."""
        x = self._balls.privacy_profile(epsilon, sensitivity)
        man, exp = x.mid().man_exp()
        with mpmath.workprec(self.bits):
            return +to_mpf(exact_fraction(int(man)) * Fraction(2) ** int(exp))

    def _profile_work(self, e: Any, dl: Fraction) -> Any:
        """delta at a working-precision eps (mpf), for the root search."""
        with mpmath.workprec(self.work):
            return self.privacy_profile(exact_fraction(e), dl)

    def epsilon_for_delta(self, delta: Exact, sensitivity: Exact = 1.0) -> Any:
        """The eps >= 0 with delta(eps) = delta (0 where delta >= delta(0)), by bisection at the working precision."""
        dv = exact_parameter(delta, "delta", Fraction(0), True)
        if dv >= 1:
            raise ValueError(f"delta must be a real number in (0, 1); got {delta!r}")
        dl = exact_parameter(sensitivity, "sensitivity", Fraction(0), True)
        with mpmath.workprec(self.work):
            target = to_mpf(dv)
            f: Callable[[Any], Any] = lambda e: self._profile_work(e, dl) - target  # noqa: E731
            if f(mpmath.mpf(0)) <= 0:
                return mpmath.mpf(0)
            lo, hi = mpmath.mpf(0), mpmath.mpf(1)
            while f(hi) > 0:
                lo, hi = hi, 2 * hi
            tol = mpmath.mpf(2) ** (-self.bits - 4)
            while hi - lo > tol * hi:
                mid = (lo + hi) / 2
                lo, hi = (mid, hi) if f(mid) > 0 else (lo, mid)
        with mpmath.workprec(self.bits):
            return +hi


def at_precision(noise: Any, digits: Optional[int], bits: Optional[int], ball: bool) -> Any:
    """The precise (mpmath) or ball (arb) view of ``noise`` (``NoiseDistribution.at_precision``).

    A law with a view (its ``_precise_view`` hook: every law of fhsym's registry and every declared law) gets every
    quantity; a law without one gets its privacy profile from its arb plan."""
    if getattr(noise, "_array_shape", ()):
        raise ValueError("at_precision needs scalar parameters; got a law with array parameters")
    if not isinstance(ball, bool):
        raise ValueError(f"ball must be True or False; got {ball!r}")
    view = getattr(noise, "_precise_view", None)
    if view is not None:
        return view(digits, bits, ball)
    if ball:
        return BallProfile(noise, digits, bits=bits)
    return PreciseProfile(noise, digits, bits=bits)
