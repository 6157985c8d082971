"""Ground truth for the declared step laws (staircase, truncated staircase): exact integration of the definition.

Nothing here comes from fhsym's derivation or its generated code.  The density is the definition, in units of the
period (Delta0 = 1): ``g(t) = e^{-eps l(|t|)}``, ``l(x) = floor(x) + [x - floor(x) >= W]`` (Geng & Viswanath's level),
cut to ``|t| <= beta`` for the truncated staircase.  Between consecutive edges ``k`` and ``k + W`` the density is a
constant (its value at the interval's midpoint), so every integral is the exact sum over those intervals of that
constant times the interval's length (``t^n g``: times ``(b^(n+1) - a^(n+1))/(n + 1)``; ``-f log f``, the profile's
``[f(t) - e^eps f(t + d)]_+``: constants too), at ``dps`` digits.  Earlier versions ran ``mpmath.quad`` on each
interval (the same integrals, approximated); tests/test_exact_references.py checks the piece sums against that
quadrature (to 1e-55 relative at 60 digits).  The infinite staircase is summed over ``N``
periods with ``e^{-eps N} < 10^-(dps + 5)`` (the omitted tail is below the working precision).  The interval masses
are summed once, from the top (the tail at every edge); ``sf`` adds the part of x's interval above x, ``isf`` inverts
on the interval that holds q.  ``proofs/step_laws.py`` checks the derived forms and the generated code against it.
"""

from __future__ import annotations

import bisect
import math
from fractions import Fraction
from typing import List, Optional, Union

import mpmath
from mpmath import mpf

__all__ = ["StepRef"]

#: a coordinate: a float, or an exact rational (a class's parameter or point in units of its period, e.g.
#: ``Fraction(shift) / Fraction(Delta0)``), taken at the working precision
Num = Union[float, Fraction, mpf]


def _num(v: Num) -> mpf:
    """``v`` at the current working precision (a Fraction: its numerator over its denominator, rounded once)."""
    if isinstance(v, Fraction):
        return mpf(v.numerator) / v.denominator
    return mpf(v)


class StepRef:
    """The staircase (``beta=None``) or the staircase cut at ``beta`` periods, design eps, first step W (units of
    the period), at ``dps`` digits."""

    def __init__(self, eps: Num, W: Num, beta: Optional[Num] = None, dps: int = 50) -> None:
        self.dps = dps
        with mpmath.workdps(dps + 10):
            self.eps, self.W = _num(eps), _num(W)
            self.beta = None if beta is None else _num(beta)
            if beta is None:
                self.top = mpf(math.ceil((dps + 5) * math.log(10) / float(eps)) + 2)
            else:
                self.top = self.beta
            # the mass of every interval between the edges (exact: constant times length), and the tails at the
            # edges from the top
            self._pts = self.edges(mpf(0), self.top)
            self._mass = [self.g((a + b) / 2) * (b - a) for a, b in zip(self._pts[:-1], self._pts[1:])]
            self._tails = [mpf(0)] * len(self._pts)
            for i in range(len(self._pts) - 2, -1, -1):
                self._tails[i] = self._tails[i + 1] + self._mass[i]
            self.Z = 2 * self._tails[0]

    def level(self, x: mpf) -> mpf:
        k = mpmath.floor(x)
        return k + (1 if x - k >= self.W else 0)

    def g(self, t: mpf) -> mpf:
        """The unnormalised density at |t| (0 beyond the cut)."""
        x = abs(t)
        if self.beta is not None and x > self.beta:
            return mpf(0)
        return mpmath.exp(-self.eps * self.level(x))

    def edges(self, lo: mpf, hi: mpf) -> List[mpf]:
        pts = {lo, hi}
        k = int(mpmath.floor(lo))
        while k <= hi:
            for e in (mpf(k), k + self.W):
                if lo < e < hi:
                    pts.add(e)
            k += 1
        return sorted(pts)

    def integral(self, n: int, lo: mpf, hi: mpf) -> mpf:
        """int_lo^hi t^n g(t) dt (0 <= lo <= hi), summed exactly over the intervals between the density's edges: g is
        the constant g(midpoint) on each, and int_a^b t^n dt = (b - a) (b^n + b^(n-1) a + ... + a^n)/(n + 1) (the
        factored form: no cancellation for 0 <= a < b)."""
        with mpmath.workdps(self.dps + 10):
            lo, hi = mpf(lo), mpf(hi)
            total = mpf(0)
            pts = self.edges(lo, hi)
            for a, b in zip(pts[:-1], pts[1:]):
                if b > a:
                    c = self.g((a + b) / 2)
                    if c:
                        total += c * (b - a) * mpmath.fsum(b**j * a ** (n - j) for j in range(n + 1)) / (n + 1)
            return total

    def pdf(self, x: Num) -> mpf:
        with mpmath.workdps(self.dps + 10):
            return self.g(_num(x)) / self.Z

    def sf(self, x: Num) -> mpf:
        """P(T > x)."""
        with mpmath.workdps(self.dps + 10):
            x = _num(x)
            if x < 0:
                return 1 - self.sf(-x)
            if x >= self.top:
                return mpf(0)
            i = bisect.bisect_right(self._pts, x)  # x in [pts[i - 1], pts[i]): the rest of it, exactly
            return (self.integral(0, x, self._pts[i]) + self._tails[i]) / self.Z

    def half(self, x: Num) -> mpf:
        """P(0 < T <= x), x >= 0."""
        with mpmath.workdps(self.dps + 10):
            return self.integral(0, 0, min(_num(x), self.top)) / self.Z

    def isf(self, q: float) -> mpf:
        """The x >= 0 with P(T > x) = q (0 < q <= 1/2): the tails at the density's edges accumulated from the top
        (the exact mass of each interval), then the interval that holds q inverted linearly (the density is constant
        there)."""
        with mpmath.workdps(self.dps + 10):
            q = mpf(q) * self.Z  # unnormalised
            pts, tails = self._pts, self._tails
            lo, hi = 0, len(pts) - 1  # the last edge i with tails[i] >= q: q lies in [pts[i], pts[i + 1])
            while hi - lo > 1:
                mid = (lo + hi) // 2
                lo, hi = (mid, hi) if tails[mid] >= q else (lo, mid)
            a, b = pts[lo], pts[lo + 1]
            return b - (q - tails[lo + 1]) / self.g((a + b) / 2)

    def profile(self, eps: Num, d: Num) -> mpf:
        """delta(eps; d) = int [f(t) - e^eps f(t + d)]_+ dt: the integrand is constant between the edges of f and of
        its shift (|t| and |t + d| at k, k + W): that constant times the interval's length, summed."""
        with mpmath.workdps(self.dps + 10):
            d, e = _num(d), mpmath.exp(_num(eps))
            lo, hi = -self.top - d, self.top
            pts = set()
            # the cut beta itself among them: beta - d is where t + d leaves the support (cut law)
            for x in self.edges(mpf(0), self.top + d) + [mpf(0), self.top]:
                for p in (x, -x, x - d, -x - d):
                    if lo < p < hi:
                        pts.add(p)
            pts = sorted(pts | {lo, hi})
            total = mpf(0)
            for a, b in zip(pts[:-1], pts[1:]):
                c = (self.g((a + b) / 2) - e * self.g((a + b) / 2 + d)) / self.Z
                if c > 0:
                    total += c * (b - a)
            return total

    def profile_far(self, eps: Num, d: Num) -> mpf:
        """:meth:`profile` at any shift d >= 0 (eps >= 0) with work independent of d: the same piece sums over t in
        ``[-min(d, top), top]`` only.  For eps >= 0 the integrand is 0 at ``t <= -d`` (``|t + d| <= |t|``, and both
        inside the support of a cut law: the level cannot drop); on ``|t| > top`` the density is below
        ``e^(-eps top) < 10^-(dps + 5)`` of its top (the same omission as :meth:`moment`); the breakpoints are the
        edges of ``|t|`` in ``[0, top]`` and of ``|t + d|`` in ``[d - top, d + top]``, shifted back by d (and the
        cut, ``beta - d``).  In units of the period, as every method here."""
        with mpmath.workdps(self.dps + 10):
            d, e = _num(d), mpmath.exp(_num(eps))
            lo, hi = -min(d, self.top), self.top
            pts = {lo, hi}
            near = self.edges(mpf(0), self.top) + [mpf(0), self.top]
            shifted = self.edges(max(mpf(0), d - self.top), d + self.top) + [mpf(0), self.top]
            for x in near:
                for p in (x, -x):
                    if lo < p < hi:
                        pts.add(p)
            for x in shifted:
                for p in (x - d, -x - d):
                    if lo < p < hi:
                        pts.add(p)
            pts_s = sorted(pts)
            total = mpf(0)
            for a, b in zip(pts_s[:-1], pts_s[1:]):
                c = (self.g((a + b) / 2) - e * self.g((a + b) / 2 + d)) / self.Z
                if c > self.g((a + b) / 2) / self.Z * mpf(10) ** -(self.dps - 10):  # an exact-eps loss cancels to noise
                    total += c * (b - a)
            return total

    def moment(self, n: int) -> mpf:
        """E|T|^n."""
        with mpmath.workdps(self.dps + 10):
            return 2 * self.integral(n, 0, self.top) / self.Z

    def entropy(self) -> mpf:
        """-int f log f: f is constant on each interval, so -f log f times the interval's length, summed."""
        with mpmath.workdps(self.dps + 10):
            total = mpf(0)
            pts = self.edges(mpf(0), self.top)
            for a, b in zip(pts[:-1], pts[1:]):
                f = self.g((a + b) / 2) / self.Z
                if f > 0:
                    total += -f * mpmath.log(f) * (b - a)
            return 2 * total
