"""Independent references for the truncated staircase, from the density's definition (mpmath, 50+ digits).

Nothing here uses fhsym's closed forms: the density is ``b^{l(|t|)}`` on ``[-B, B]`` with the level counted as the
number of edges ``k Delta0 + w <= |t|``; every integral of a piecewise-constant function is the sum, over the
intervals between its breakpoints, of length times the value at the midpoint (exact for such functions), with the
breakpoints collected from the definition (edges, their shifts, the support's ends) in exact rationals.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Callable, List, Tuple

from mpmath import mp, mpf

__all__ = ["Ref", "rel"]


def _q(x: float) -> Fraction:
    return Fraction(x)


class Ref:
    """The truncated staircase (eps0, Delta0, w = fl(gamma Delta0), B) at the exact binary values of its floats."""

    def __init__(self, eps0: float, d0: float, gamma: float, bound: float, dps: int = 50) -> None:
        self.dps = dps
        self.eps0 = _q(eps0)
        self.d0 = _q(d0)
        self.w = _q(gamma * d0)  # the double the law uses
        self.B = _q(bound)

    # ------------------------------------------------------------------ definition
    def level(self, x: Fraction) -> int:
        """#{k >= 0 : k Delta0 + w <= |x|}, counted directly."""
        ax = abs(x)
        if ax < self.w:
            return 0
        return int((ax - self.w) // self.d0) + 1

    def h(self, x: Fraction) -> mpf:
        """The unnormalised density at x (0 outside [-B, B])."""
        if abs(x) > self.B:
            return mpf(0)
        return mp.exp(-mpf(self.level(x)) * self._mp(self.eps0))

    @staticmethod
    def _mp(q: Fraction) -> mpf:
        return mpf(q.numerator) / q.denominator

    def _edges(self, lo: Fraction, hi: Fraction, shifts: Tuple[Fraction, ...] = (Fraction(0),)) -> List[Fraction]:
        pts = {lo, hi}
        for s in shifts:
            for base in (self.B, -self.B):
                p = base - s
                if lo < p < hi:
                    pts.add(p)
            kmax = int((self.B + abs(s)) / self.d0) + 2
            for k in range(kmax + 1):
                e = k * self.d0 + self.w
                for p in (e - s, -e - s):
                    if lo < p < hi:
                        pts.add(p)
        return sorted(pts)

    def integral(self, f: Callable[[Fraction], mpf], lo: Fraction, hi: Fraction, weight: int = 0,
                 shifts: Tuple[Fraction, ...] = (Fraction(0),)) -> mpf:
        """int_lo^hi t^weight f(t) dt for f piecewise constant between the breakpoints (exact moments per piece)."""
        with mp.workdps(self.dps):
            total = mpf(0)
            pts = self._edges(lo, hi, shifts)
            for x, y in zip(pts[:-1], pts[1:]):
                v = f((x + y) / 2)
                if v == 0:
                    continue
                mom = (self._mp(y) ** (weight + 1) - self._mp(x) ** (weight + 1)) / (weight + 1)
                total += v * mom
            return total

    def Z(self) -> mpf:
        return self.integral(self.h, -self.B, self.B)

    def pdf(self, x: float) -> mpf:
        with mp.workdps(self.dps):
            return self.h(_q(x)) / self.Z()

    def cdf(self, x: float) -> mpf:
        xq = _q(x)
        if xq <= -self.B:
            return mpf(0)
        with mp.workdps(self.dps):
            return self.integral(self.h, -self.B, min(xq, self.B)) / self.Z()

    def sf(self, x: float) -> mpf:
        xq = _q(x)
        if xq >= self.B:
            return mpf(0)
        with mp.workdps(self.dps):
            return self.integral(self.h, max(xq, -self.B), self.B) / self.Z()

    def var(self) -> mpf:
        with mp.workdps(self.dps):
            return self.integral(self.h, -self.B, self.B, weight=2) / self.Z()

    def profile(self, eps: float, d: float) -> mpf:
        """int [g(t) - e^eps g(t + d)]_+ dt, summed piece by piece from the definition (eps >= 0, any d > 0)."""
        dq = _q(d)
        with mp.workdps(self.dps):
            ee = mp.exp(self._mp(_q(eps)))

            def f(t: Fraction) -> mpf:
                v = self.h(t) - ee * self.h(t + dq)
                return v if v > 0 else mpf(0)

            return self.integral(f, -self.B, self.B, shifts=(Fraction(0), dq)) / self.Z()

    def sup_profile(self, eps: float, d: float, n: int = 24) -> mpf:
        """max over the shifts j d / n (j = 1..n) of :meth:`profile` (a check of the monotonicity in the shift)."""
        return max(self.profile(eps, float(Fraction(j, n) * _q(d))) for j in range(1, n + 1))


def rel(x: float, ref: mpf) -> float:
    """|x - ref| / |ref| (absolute when ref = 0)."""
    if ref == 0:
        return abs(x)
    return float(abs(mpf(x) - ref) / abs(ref))

