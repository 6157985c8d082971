"""Ground truth for the declared finite-cell law (piecewise uniform): exact integration of the definition.

Nothing here comes from fhsym's derivation or its generated code.  The density is the definition, in units of the
width (w = 1): ``f(t) = n[|k|]/Z`` for ``t`` in ``[k - 1/2, k + 1/2)``, ``|k| <= M``, 0 beyond, with ``Z`` the
integral of the unnormalised density over its support.  Every integral is over the intervals between the density's
edges (and the shifted edges ``k + 1/2 - d``), on each of which the density (and ``-f log f``,
``[f(t) - e^eps f(t + d)]_+``) is the constant it takes at the interval's midpoint: the exact sum of that constant
times the interval's length (``t^n f``: times ``(b^(n+1) - a^(n+1))/(n + 1)``), at ``dps`` digits; ``isf`` inverts
that tail by bisection.  Earlier versions ran ``mpmath.quad`` on each interval (the same integrals, approximated);
tests/test_exact_references.py checks the piece sums against that quadrature (to 1e-55 relative at 60 digits).
``proofs/cell_laws.py`` checks the derived forms and the generated code against it.

Example: weights (2, 1) give the cells -1, 0, 1 the masses 1/4, 1/2, 1/4; above 0.25 lie a quarter of cell 0
(mass 1/8) and cell 1 (1/4):

>>> float(CellRef((2, 1), dps=20).sf(0.25))
0.375
"""

from __future__ import annotations

from typing import Any, Callable, List, Sequence

import mpmath
from mpmath import mpf

__all__ = ["CellRef"]


class CellRef:
    """The piecewise-uniform law with weights ``n_0..n_M`` (width 1) at ``dps`` digits."""

    def __init__(self, weights: Sequence[int], dps: int = 50) -> None:
        self.n = tuple(int(x) for x in weights)
        self.M = len(self.n) - 1
        self.dps = dps
        with mpmath.workdps(dps + 10):
            self.Z = self._sum(self.g, -self.M - mpf(1) / 2, self.M + mpf(1) / 2)

    def g(self, t: Any) -> Any:
        """The unnormalised density of the definition: n[|k|] on [k - 1/2, k + 1/2)."""
        k = int(mpmath.floor(mpf(t) + mpf(1) / 2))
        return mpf(self.n[abs(k)]) if abs(k) <= self.M else mpf(0)

    def pdf(self, t: Any) -> Any:
        return self.g(t) / self.Z

    def _edges(self, lo: Any, hi: Any, shifts: Sequence[Any] = (0,)) -> List[Any]:
        pts = {mpf(lo), mpf(hi)}
        for s in shifts:
            for k in range(-self.M - 1, self.M + 2):
                e = k + mpf(1) / 2 - s
                if lo < e < hi:
                    pts.add(e)
        return sorted(pts)

    def _sum(self, fn: Callable[[Any], Any], lo: Any, hi: Any, shifts: Sequence[Any] = (0,), n: int = 0) -> Any:
        """int_lo^hi t^n fn(t) dt for an ``fn`` constant between the edges (shifted by ``shifts``): on each interval
        [a, b] the constant fn((a + b)/2) times int_a^b t^n dt = (b - a) (b^n + b^(n-1) a + ... + a^n)/(n + 1)."""
        with mpmath.workdps(self.dps + 10):
            pts = self._edges(lo, hi, shifts)
            return mpmath.fsum(fn((a + b) / 2) * (b - a) * mpmath.fsum(b**j * a ** (n - j) for j in range(n + 1)) / (n + 1)
                               for a, b in zip(pts, pts[1:]) if b > a)

    def sf(self, x: Any) -> Any:
        """P(T > x)."""
        top = self.M + mpf(1) / 2
        x = mpf(x)
        if x >= top:
            return mpf(0)
        return self._sum(self.pdf, max(x, -top), top)

    def half(self, x: Any) -> Any:
        """P(0 < T <= x), x >= 0."""
        return self._sum(self.pdf, 0, min(mpf(x), self.M + mpf(1) / 2))

    def isf(self, p: Any) -> Any:
        """The x with P(T > x) = p (0 < p < 1/2), by bisection on the tail (to 2^-(3.4 dps))."""
        lo, hi = mpf(0), self.M + mpf(1) / 2
        with mpmath.workdps(self.dps + 10):
            for _ in range(int(3.4 * self.dps) + 8):
                mid = (lo + hi) / 2
                if self.sf(mid) > p:
                    lo = mid
                else:
                    hi = mid
            return (lo + hi) / 2

    def moment(self, order: int) -> Any:
        """E[T^order] (width 1)."""
        top = self.M + mpf(1) / 2
        return self._sum(self.pdf, -top, top, n=order)

    def entropy(self) -> Any:
        """-int f log f (width 1)."""
        top = self.M + mpf(1) / 2

        def h(t: Any) -> Any:
            f = self.pdf(t)
            return -f * mpmath.log(f) if f > 0 else mpf(0)
        return self._sum(h, -top, top)

    def profile(self, eps: float, d: Any) -> Any:
        """int [f(t) - e^eps f(t + d)]_+ dt (width 1, shift d >= 0)."""
        top = self.M + mpf(1) / 2
        with mpmath.workdps(self.dps + 10):
            e, dd = mpmath.exp(mpf(eps)), mpf(d)
            return self._sum(lambda t: max(self.pdf(t) - e * self.pdf(t + dd), mpf(0)), -top, top, shifts=(0, dd))

