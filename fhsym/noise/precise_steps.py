"""The piecewise-uniform noise at any precision (issue 29), on exact rationals and arb balls (the staircase and the
truncated staircase run the ball forms printed from their step declarations: :mod:`fhsym.noise.precise_step_laws`).

Piecewise uniform (:mod:`fhsym.noise.piecewise_uniform`): density, sf, isf, moments and variance are
exact rationals (the masses q_k = n_k/N and the width are).  Every form run here is printed from the law's cell
declaration (``fhsym/_generated/declared/piecewise_uniform.py``, proofs topic ``step_piecewise_uniform``): the sf,
the in-cell quantile, the cell moment integral and the profile's interpolation are rational functions, run on
``Fraction``s and balls, on which they are exact (sums, products and quotients only); the log density
``logpdf_arb(q_k, w)``, the entropy ``sum_k entropy_cell_arb(q_k, w)`` (``-q_k log(q_k/w)`` per cell) and the profile's
positive parts ``deficit_term_arb(q_k, q_(k+j), e^eps)`` are printed on balls: the profile at shift ``d = (j + theta)
w`` is ``(1 - theta) D_j + theta D_{j+1}``, ``D_j = sum_k [q_k - e^eps q_{k+j}]_+`` (a positive part whose sign the
ball leaves open is the ball hull of both branches; at eps = 0 the terms are exact).  The loss ``log(g(t)/g(t + d))``
is a ball.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import List, Optional

from flint import arb

from .._core.mpfuncs import exact_fraction
from .._generated.declared import piecewise_uniform as _gen
from .precise_laws import INF, LawAtPrecision, Value, ball_of

__all__ = ["PiecewiseUniformAtPrecision"]


class PiecewiseUniformAtPrecision(LawAtPrecision):
    """The piecewise-uniform law at any precision (exact rationals where the law is rational; see the module).

    >>> import fhsym, mpmath
    >>> p = fhsym.noise.PiecewiseUniform(0.5, [2, 1]).at_precision(20)
    >>> [mpmath.nstr(x, 20) for x in (p.var(), p.isf(0.125), p.pdf(0.6))]
    ['0.14583333333333333333', '0.5', '0.5']
    """

    def _setup(self) -> None:
        self.w = exact_fraction(self.noise.width)
        q: List[Fraction] = list(self.noise.masses)
        while len(q) > 1 and q[-1] == 0:
            q.pop()
        self.q = q
        self.M = len(q) - 1
        tails: List[Fraction] = [Fraction(0)] * (self.M + 2)  # tails[k] = sum_{j >= k} q_j
        for k in range(self.M, -1, -1):
            tails[k] = tails[k + 1] + q[k]
        self.tails = tails
        self._top = (self.M + Fraction(1, 2)) * self.w

    def _bin(self, x: Fraction) -> int:
        return math.floor(abs(x) / self.w + Fraction(1, 2))

    def _dens(self, x: Fraction) -> Fraction:
        k = self._bin(x)
        return self.q[k] / self.w if k <= self.M else Fraction(0)

    def _pdf_q(self, x: Fraction) -> Value:
        return self._dens(x)

    def _logpdf_q(self, x: Fraction) -> Value:
        k = self._bin(x)
        if k > self.M or self.q[k] == 0:
            return -INF
        out: arb = _gen.logpdf_arb(ball_of(self.q[k]), ball_of(self.w))
        return out

    def _sf_pos_q(self, s: Fraction) -> Value:
        k = self._bin(s)
        if k > self.M:
            return Fraction(0)
        out: Fraction = _gen.sf(((k + Fraction(1, 2)) * self.w - s) / self.w, self.q[k], self.tails[k + 1])
        return out

    def _isf_q(self, q: Fraction) -> Optional[Value]:
        for k in range(self.M + 1):
            if self.tails[k + 1] <= q and self.q[k] > 0:
                a: Fraction = _gen.isf(q, self.q[k], self.tails[k + 1])  # the distance to the cell's top, in w
                return (k + Fraction(1, 2) - a) * self.w
        return Fraction(0)  # pragma: no cover - q <= 1/2 is reached in bin 0 at the latest

    def _moment_q(self, n: int) -> Value:
        s = sum((self.q[abs(k)] * _gen.moment_cell(n, k) for k in range(-self.M, self.M + 1)), Fraction(0))
        return self.w**n * s

    def _entropy_q(self) -> Value:
        w = ball_of(self.w)
        out: arb = sum(((1 if k == 0 else 2) * _gen.entropy_cell_arb(ball_of(qk), w) for k, qk in enumerate(self.q)
                        if qk > 0), arb(0))
        return out

    def _d(self, eps: arb, j: int) -> arb:
        """D_j = sum_k [q_k - e^eps q_{k+j}]_+ over the bins k = -M..M."""
        e = eps.exp()
        total = arb(0)
        for k in range(-self.M, self.M + 1):
            qk = self.q[abs(k)]
            if qk == 0:
                continue
            other = self.q[abs(k + j)] if abs(k + j) <= self.M else Fraction(0)
            total += _gen.deficit_term_arb(ball_of(qk), ball_of(other), e) if other else ball_of(qk)
        return total

    def _profile_q(self, eps: Fraction, sens: Fraction) -> arb:
        u = sens / self.w
        j = math.floor(u)
        th = u - j
        e = ball_of(eps)
        if not th:
            return self._d(e, j)
        out: arb = _gen.profile(ball_of(th), self._d(e, j), self._d(e, j + 1))
        return out
