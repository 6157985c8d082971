"""The Gaussian, Laplace, truncated Laplace and OSGT laws at any precision (issue 29), on arb balls.

Each class is the ``at_precision`` view of its law (:mod:`fhsym.noise.precise_laws` gives the policy:
balls at the exact parameters, numbers as their midpoints).  The formulas are the laws' closed forms
(the module docstrings of :mod:`fhsym.noise.gaussian`, ``laplace``, ``truncated_laplace``, ``osgt``),
each written so that every term is positive or computed by arb's own rigorous special functions
(erfc, erfcinv, expm1, lower incomplete gamma); the privacy profile is the law's certified plan
(:mod:`fhsym._core.arb.mechanisms`).  Reference tests: tests/test_precise_laws.py (quadrature of the
densities at 100 and 300 digits).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Optional

from flint import arb

from .._core.mpfuncs import exact_fraction
from .precise_laws import INF, LawAtPrecision, Value, ball_of

__all__ = ["GaussianAtPrecision", "LaplaceAtPrecision", "TruncatedLaplaceAtPrecision", "OSGTAtPrecision"]


def _double_factorial(n: int) -> int:
    return math.prod(range(n - 1, 0, -2))  # (n - 1)!! for even n


def _erfc_half(z: arb) -> arb:
    """Q(z) = erfc(z/sqrt 2)/2."""
    out: arb = (z / arb(2).sqrt()).erfc() / 2
    return out


class GaussianAtPrecision(LawAtPrecision):
    """N(0, sigma^2) at any precision: pdf, logpdf, cdf, sf, logsf, ppf, isf (erfcinv), moments, entropy, loss
    (exact rational), privacy profile (eq 29) and its inverse.

    >>> import fhsym, mpmath
    >>> g = fhsym.Gaussian(sigma=1.5).at_precision(30)
    >>> mpmath.nstr(g.sf(3.0), 30)
    '0.0227501319481792072002826371665'
    >>> fhsym.Gaussian(sigma=1.5).at_precision(30, ball=True).isf(0.25).str(20)
    '[1.0117346252941226148 +/- 3.35e-21]'
    """

    def _setup(self) -> None:
        self.sigma = exact_fraction(self.noise.sigma)

    def _logpdf_q(self, x: Fraction) -> Value:
        z = ball_of(x / self.sigma)
        out: arb = -z * z / 2 - (2 * arb.pi()).log() / 2 - ball_of(self.sigma).log()
        return out

    def _sf_pos_q(self, s: Fraction) -> Value:
        return _erfc_half(ball_of(s / self.sigma))

    def _isf_q(self, q: Fraction) -> Optional[Value]:
        out: arb = ball_of(self.sigma) * arb(2).sqrt() * ball_of(2 * q).erfcinv()
        return out

    def _moment_q(self, n: int) -> Value:
        return self.sigma**n * _double_factorial(n)

    def _entropy_q(self) -> Value:
        out: arb = (1 + (2 * arb.pi()).log()) / 2 + ball_of(self.sigma).log()
        return out

    def _loss_q(self, t: Fraction, d: Fraction) -> Value:
        return d * (2 * t + d) / (2 * self.sigma**2)


class LaplaceAtPrecision(LawAtPrecision):
    """L(0, beta) at any precision (every quantity in closed form; the loss exact).

    >>> import fhsym, mpmath
    >>> mpmath.nstr(fhsym.Laplace(beta=0.75).at_precision(25).isf(1e-9), 25)
    '15.02258899228984933834732'
    """

    def _setup(self) -> None:
        self.beta = exact_fraction(self.noise.beta)

    def _logpdf_q(self, x: Fraction) -> Value:
        out: arb = -ball_of(abs(x) / self.beta) - ball_of(2 * self.beta).log()
        return out

    def _sf_pos_q(self, s: Fraction) -> Value:
        out: arb = (-ball_of(s / self.beta)).exp() / 2
        return out

    def _isf_q(self, q: Fraction) -> Optional[Value]:
        out: arb = -ball_of(self.beta) * ball_of(2 * q).log()
        return out

    def _moment_q(self, n: int) -> Value:
        return Fraction(math.factorial(n)) * self.beta**n

    def _entropy_q(self) -> Value:
        out: arb = 1 + ball_of(2 * self.beta).log()
        return out

    def _loss_q(self, t: Fraction, d: Fraction) -> Value:
        return (abs(t + d) - abs(t)) / self.beta


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


class OSGTAtPrecision(LawAtPrecision):
    """OSGT (density e^{-u(u/2 + theta)}/(2 varrho R(theta)), u = |t|/varrho) at any precision.

    ``log R(theta) = log sqrt(pi/2) + theta^2/2 + log erfc(theta/sqrt 2)``; sf ``Q(u + theta)/(2 Q(theta))``;
    isf ``varrho (sqrt 2 erfcinv(2 q erfc(theta/sqrt 2)) - theta)``; E|U|^n = J_n/J_0 with
    ``J_0 = sqrt(pi/2) erfc(theta/sqrt 2)``, ``J_1 = e^{-theta^2/2} - theta J_0``,
    ``J_n = (n - 1) J_{n-2} - theta J_{n-1}`` (cancelling for large theta: arb's radius shows it and the
    precision is raised); entropy ``log(2 varrho R) + E U^2/2 + theta E U``; the loss
    ``psi(|t + d|/varrho) - psi(|t|/varrho)``, psi(u) = u (u/2 + theta), exact.

    >>> import fhsym, mpmath
    >>> mpmath.nstr(fhsym.OSGT(0.5, 1.0).at_precision(30).var(), 30)
    '0.67946111481596775955805851337'
    """

    def _setup(self) -> None:
        self.vt = exact_fraction(self.noise.vartheta)
        self.vr = exact_fraction(self.noise.varrho)
        self.th = self.vt / self.vr

    def _log_r(self) -> arb:
        th = ball_of(self.th)
        out: arb = (arb.pi() / 2).sqrt().log() + th * th / 2 + (th / arb(2).sqrt()).erfc().log()
        return out

    def _psi(self, x: Fraction) -> Fraction:
        u = abs(x) / self.vr
        return u * (u / 2 + self.th)

    def _logpdf_q(self, x: Fraction) -> Value:
        out: arb = -ball_of(self._psi(x)) - ball_of(2 * self.vr).log() - self._log_r()
        return out

    def _sf_pos_q(self, s: Fraction) -> Value:
        out: arb = _erfc_half(ball_of(s / self.vr + self.th)) / (2 * _erfc_half(ball_of(self.th)))
        return out

    def _isf_q(self, q: Fraction) -> Optional[Value]:
        r2 = arb(2).sqrt()
        out: arb = ball_of(self.vr) * (r2 * (2 * ball_of(q) * (ball_of(self.th) / r2).erfc()).erfcinv() - ball_of(self.th))
        return out

    def _ratios(self, n: int) -> list[arb]:
        th = ball_of(self.th)
        j0 = (arb.pi() / 2).sqrt() * (th / arb(2).sqrt()).erfc()
        js = [j0, (-th * th / 2).exp() - th * j0]
        for k in range(2, n + 1):
            js.append((k - 1) * js[k - 2] - th * js[k - 1])
        return [j / j0 for j in js]

    def _moment_q(self, n: int) -> Value:
        out: arb = ball_of(self.vr) ** n * self._ratios(n)[n]
        return out

    def _entropy_q(self) -> Value:
        m = self._ratios(2)
        out: arb = ball_of(2 * self.vr).log() + self._log_r() + m[2] / 2 + ball_of(self.th) * m[1]
        return out

    def _loss_q(self, t: Fraction, d: Fraction) -> Value:
        return self._psi(t + d) - self._psi(t)
