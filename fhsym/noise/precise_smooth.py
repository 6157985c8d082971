"""The truncated Laplace law at any precision (issue 29), on arb balls, written by hand.

The Gaussian, Laplace and OSGT laws are declared in SymPy and evaluated through the ball forms printed from their
derivation (:mod:`fhsym.noise.precise_declared`).  The truncated Laplace law has no declaration: its support is
bounded, and the declaration format (:mod:`fhsym.symbolic.declaration`) takes densities positive on all of R.  So
its view (:mod:`fhsym.noise.precise_laws` gives the policy: balls at the exact parameters, numbers as their
midpoints) evaluates the law's closed forms (:mod:`fhsym.noise.truncated_laplace`), each written so that every term is
positive or computed by arb's own rigorous special functions (expm1, lower incomplete gamma); the privacy profile is
the law's certified plan (:mod:`fhsym._core.arb.mechanisms`).  Reference tests: tests/test_precise_laws.py
(quadrature of the density at 100 and 300 digits).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Optional

from flint import arb

from .._core.mpfuncs import exact_fraction
from .precise_laws import INF, LawAtPrecision, Value, ball_of

__all__ = ["TruncatedLaplaceAtPrecision"]


class TruncatedLaplaceAtPrecision(LawAtPrecision):
    """Truncated Laplace (density B e^{-|t|/lambda} on [-A, A]) at any precision.

    ``norm = 1 - e^{-A/lambda}`` by expm1; sf on [0, A] is ``e^{-x/lambda} (1 - e^{-(A - x)/lambda})/(2 norm)``;
    ``isf(q) = -lambda log(e^{-a} + 2 q norm)``; ``E|T|^n = lambda^n gamma(n + 1, a)/norm`` (lower incomplete
    gamma, arb's); entropy ``log(2 lambda norm) + E|T|/lambda``; the loss ``(|t + Delta| - |t|)/lambda`` inside
    the support (exact), +-inf where one side is outside, 0 where both are.

    >>> import fhsym, mpmath
    >>> tl = fhsym.TruncatedLaplace(1.0, 10.0).at_precision(30)
    >>> mpmath.nstr(tl.var(), 30), tl.isf(0), tl.sf(11.0)
    ('1.9945517610788374678005247687', mpf('10.0'), mpf('0.0'))
    """

    def _setup(self) -> None:
        self.lam = exact_fraction(self.noise.scale)
        self.A = exact_fraction(self.noise.bound)
        self._top = self.A

    def _norm(self) -> arb:
        out: arb = -(-ball_of(self.A / self.lam)).expm1()
        return out

    def _logpdf_q(self, x: Fraction) -> Value:
        if abs(x) > self.A:
            return -INF
        out: arb = -ball_of(abs(x) / self.lam) - ball_of(2 * self.lam).log() - self._norm().log()
        return out

    def _sf_pos_q(self, s: Fraction) -> Value:
        if s >= self.A:
            return Fraction(0)
        out: arb = (-ball_of(s / self.lam)).exp() * -(-ball_of((self.A - s) / self.lam)).expm1() / (2 * self._norm())
        return out

    def _isf_q(self, q: Fraction) -> Optional[Value]:
        out: arb = -ball_of(self.lam) * ((-ball_of(self.A / self.lam)).exp() + 2 * ball_of(q) * self._norm()).log()
        return out

    def _abs_moment(self, n: int) -> arb:
        out: arb = ball_of(self.lam) ** n * ball_of(self.A / self.lam).gamma_lower(n + 1) / self._norm()
        return out

    def _moment_q(self, n: int) -> Value:
        return self._abs_moment(n)

    def _entropy_q(self) -> Value:
        out: arb = (2 * ball_of(self.lam) * self._norm()).log() + self._abs_moment(1) / ball_of(self.lam)
        return out

    def _loss_q(self, t: Fraction, d: Fraction) -> Value:
        ina, inb = abs(t) <= self.A, abs(t + d) <= self.A
        if ina and inb:
            return (abs(t + d) - abs(t)) / self.lam
        if ina:
            return INF
        return -INF if inb else Fraction(0)
