"""The other mechanisms at any precision, and ``NoiseDistribution.at_precision``'s dispatch (issue 29).

* Gaussian N(0, sigma^2) and Laplace L(0, beta): pdf, logpdf, cdf, sf, var and the privacy profile
  as mpmath numbers, from their closed forms (Gaussian profile: Balle & Wang 2018, paper eq 29,
  Q(x) - e^eps Q(x + mu) with x = eps/mu - mu/2, mu = Delta/sigma, evaluated with the precision
  raised by the bits it cancels; Laplace profile: [1 - e^{(eps - Delta/beta)/2}]_+).
* Every law with a ball-arithmetic plan (FH, Gaussian, Laplace, truncated Laplace, OSGT, the
  staircase): the privacy profile as a certified ball (:mod:`fhsym._core.arb`, exact case
  selection at the exact parameters), and as an mpmath number (the ball's midpoint, with the
  precision raised until the ball's radius is below 2^-bits relative).
* ``epsilon_for_delta`` for all of them by bisection on the profile at the working precision.

Parameters are the exact binary values of the law's floats.  Accuracy: relative error below
``10**-(digits - 3)`` (tests/test_precise.py: Gaussian and Laplace against quadrature of the
definition; the balls contain the quadrature values).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Optional

import mpmath
from flint import arb, ctx, fmpq

from .._core.mpfuncs import MP, exact_fraction, to_mpf
from .precise import BallFlippedHuber, Exact, PreciseFlippedHuber, Precision, exact_parameter

__all__ = ["PreciseProfile", "BallProfile", "PreciseGaussian", "PreciseLaplace", "at_precision"]


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


class PreciseGaussian(PreciseProfile):
    """N(0, sigma^2) at any precision (mpmath numbers)."""

    def __init__(self, noise: Any, digits: Optional[int] = None, *, bits: Optional[int] = None) -> None:
        super().__init__(noise, digits, bits=bits)
        self.sigma = exact_fraction(noise.sigma)

    def _x(self, x: Exact) -> Any:
        return to_mpf(exact_parameter(x, "x")) / to_mpf(self.sigma)

    def logpdf(self, x: Exact) -> Any:
        """log phi(x/sigma)/sigma."""
        return self._run(lambda: -self._x(x) ** 2 / 2 - mpmath.log(2 * mpmath.pi) / 2 - mpmath.log(to_mpf(self.sigma)))

    def pdf(self, x: Exact) -> Any:
        """phi(x/sigma)/sigma."""
        return self._run(lambda: mpmath.npdf(self._x(x)) / to_mpf(self.sigma))

    def sf(self, x: Exact) -> Any:
        """Q(x/sigma) = erfc(x/(sigma sqrt 2))/2 (relative accuracy in both tails)."""
        return self._run(lambda: mpmath.erfc(self._x(x) / mpmath.sqrt(2)) / 2)

    def cdf(self, x: Exact) -> Any:
        """Phi(x/sigma) = sf(-x)."""
        return self.sf(-exact_parameter(x, "x"))

    def var(self) -> Any:
        """sigma^2."""
        return self._run(lambda: to_mpf(self.sigma) ** 2)

    def privacy_profile(self, epsilon: Exact, sensitivity: Exact = 1.0) -> Any:
        """Q(x) - e^eps Q(x + mu), x = eps/mu - mu/2, mu = Delta/sigma (eq 29), without cancellation."""
        e = exact_parameter(epsilon, "epsilon", Fraction(0), False)
        dl = exact_parameter(sensitivity, "sensitivity", Fraction(0), True)

        def f() -> Any:
            mu = to_mpf(dl) / to_mpf(self.sigma)
            return MP.gauss_profile(to_mpf(e) / mu - mu / 2, mu)
        return self._run(f)


class PreciseLaplace(PreciseProfile):
    """L(0, beta) at any precision (mpmath numbers)."""

    def __init__(self, noise: Any, digits: Optional[int] = None, *, bits: Optional[int] = None) -> None:
        super().__init__(noise, digits, bits=bits)
        self.beta = exact_fraction(noise.beta)

    def _x(self, x: Exact) -> Any:
        return to_mpf(exact_parameter(x, "x")) / to_mpf(self.beta)

    def logpdf(self, x: Exact) -> Any:
        """-|x|/beta - log(2 beta)."""
        return self._run(lambda: -abs(self._x(x)) - mpmath.log(2 * to_mpf(self.beta)))

    def pdf(self, x: Exact) -> Any:
        """exp(-|x|/beta)/(2 beta)."""
        return self._run(lambda: mpmath.exp(-abs(self._x(x))) / (2 * to_mpf(self.beta)))

    def sf(self, x: Exact) -> Any:
        """e^{-x/beta}/2 for x >= 0, 1 - e^{x/beta}/2 below."""
        def f() -> Any:
            u = self._x(x)
            return mpmath.exp(-u) / 2 if u >= 0 else 1 - mpmath.exp(u) / 2
        return self._run(f)

    def cdf(self, x: Exact) -> Any:
        """sf(-x)."""
        return self.sf(-exact_parameter(x, "x"))

    def var(self) -> Any:
        """2 beta^2."""
        return self._run(lambda: 2 * to_mpf(self.beta) ** 2)

    def privacy_profile(self, epsilon: Exact, sensitivity: Exact = 1.0) -> Any:
        """[1 - e^{(eps - Delta/beta)/2}]_+ = -expm1((eps - Delta/beta)/2) where positive."""
        e = exact_parameter(epsilon, "epsilon", Fraction(0), False)
        dl = exact_parameter(sensitivity, "sensitivity", Fraction(0), True)

        def f() -> Any:
            y = to_mpf(e - dl / self.beta) / 2
            return -mpmath.expm1(y) if y < 0 else mpmath.mpf(0)
        return self._run(f)


def at_precision(noise: Any, digits: Optional[int], bits: Optional[int], ball: bool) -> Any:
    """The precise (mpmath) or ball (arb) view of ``noise`` (``NoiseDistribution.at_precision``)."""
    if getattr(noise, "_array_shape", ()):
        raise ValueError("at_precision needs scalar parameters; got a law with array parameters")
    name = getattr(noise, "name", "")
    if name == "flipped_huber":
        cls = BallFlippedHuber if ball else PreciseFlippedHuber
        return cls(noise.alpha, noise.gamma, digits, bits=bits)
    if ball:
        return BallProfile(noise, digits, bits=bits)
    if name == "gaussian":
        return PreciseGaussian(noise, digits, bits=bits)
    if name == "laplace":
        return PreciseLaplace(noise, digits, bits=bits)
    return PreciseProfile(noise, digits, bits=bits)
