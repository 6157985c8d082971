"""The step laws at any precision (issue 29): the staircase, the piecewise-uniform noise and the truncated staircase
(:class:`TruncatedStaircaseAtPrecision`, its formulas in its docstring), on arb balls, written by hand (no declaration
takes a step density or a bounded support yet).

Staircase (:mod:`fhsym.noise.staircase`): ``g(t) = a b^{l(|t|)}``, ``b = e^{-eps0}``,
``a = (1 - b)/(2 (w + (Delta0 - w) b))``, the step index ``l`` decided in exact rationals; with
``x = k Delta0 + r``::

    sf(x) = b^{k+1}/2 + a b^k ((w - r) + b (Delta0 - w))     (r < w)
          = b^{k+1}/2 + a b^{k+1} (Delta0 - r)                 (r >= w),

(the mass beyond period k is b^{k+1}/2); moments by the Eulerian sums of the staircase module,
entropy ``-log a + eps0 b Delta0/((1 - b)(w + (Delta0 - w) b))``, the loss ``(l(|t + d|) - l(|t|)) eps0``
(exact), isf by the proven root of :mod:`fhsym.noise.precise_laws`, the profile by the law's arb plan.

Piecewise uniform (:mod:`fhsym.noise.piecewise_uniform`): density, sf, isf, moments and variance are
exact rationals (the masses q_k = n_k/N and the width are), the entropy ``-sum q_k log(q_k/w)`` and the loss
``log(g(t)/g(t + d))`` are balls, and the profile at shift ``d = (j + theta) w`` is
``(1 - theta) D_j + theta D_{j+1}``, ``D_j = sum_k [q_k - e^eps q_{k+j}]_+``, each positive part taken
on balls (the sign of ``q_k - e^eps q_{k+j}`` is decided once the ball excludes 0; at eps = 0 the
terms are exact).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Callable, List, Optional, Tuple

from flint import arb, ctx, fmpq

from .._core.arb.truncated_staircase import ts_variance
from .._core.mpfuncs import exact_fraction
from .precise_laws import INF, LawAtPrecision, Value, ball_of, positive_part

__all__ = ["StaircaseAtPrecision", "PiecewiseUniformAtPrecision", "TruncatedStaircaseAtPrecision", "eulerian"]


def eulerian(j: int) -> List[int]:
    """The Eulerian numbers A(j, 0..j-1) (coefficients of the Eulerian polynomial A_j)."""
    row = [1]
    for n in range(2, j + 1):
        row = [(n - m) * (row[m - 1] if m >= 1 else 0) + (m + 1) * (row[m] if m < len(row) else 0) for m in range(n)]
    return row


class StaircaseAtPrecision(LawAtPrecision):
    """The staircase law (Geng & Viswanath 2016) at any precision (see the module docstring).

    >>> import fhsym, mpmath
    >>> s = fhsym.Staircase(1.0).at_precision(30)
    >>> mpmath.nstr(s.var(), 30)
    '1.91810353123552514812907062332'
    """

    def _setup(self) -> None:
        n = self.noise
        self.e0 = exact_fraction(n.epsilon)
        self.D0 = exact_fraction(n.sensitivity)
        self.w = exact_fraction(n.width)

    def _b(self) -> arb:
        out: arb = (-ball_of(self.e0)).exp()
        return out

    def _one_minus_b(self) -> arb:
        out: arb = -(-ball_of(self.e0)).expm1()
        return out

    def _mass(self) -> arb:
        """w + (Delta0 - w) b: the one-sided mass of period 0 over a."""
        out: arb = ball_of(self.w) + ball_of(self.D0 - self.w) * self._b()
        return out

    def _log_a(self) -> arb:
        out: arb = self._one_minus_b().log() - arb(2).log() - self._mass().log()
        return out

    def _split(self, x: Fraction) -> Tuple[int, Fraction]:
        k = math.floor(x / self.D0)
        return k, x - k * self.D0

    def _level(self, x: Fraction) -> int:
        k, r = self._split(abs(x))
        return k + (1 if r >= self.w else 0)

    def _logpdf_q(self, x: Fraction) -> Value:
        out: arb = self._log_a() - ball_of(self._level(x) * self.e0)
        return out

    def _sf_pos_q(self, s: Fraction) -> Value:
        k, r = self._split(s)
        b, a = self._b(), self._log_a().exp()
        bk = (-ball_of(k * self.e0)).exp()
        if r < self.w:
            out: arb = bk * b / 2 + a * bk * (ball_of(self.w - r) + b * ball_of(self.D0 - self.w))
        else:
            out = bk * b / 2 + a * bk * b * ball_of(self.D0 - r)
        return out

    def _moment_q(self, n: int) -> Value:
        b, omb = self._b(), self._one_minus_b()
        a2 = omb / self._mass()  # 2a
        w, D0 = ball_of(self.w), ball_of(self.D0)
        total = arb(0)
        for j in range(n + 1):
            if j == 0:
                S = 1 / omb
            else:
                poly = sum((c * b**m for m, c in enumerate(eulerian(j))), arb(0))
                S = b * poly / omb ** (j + 1)
            p = n - j + 1
            total += math.comb(n, j) * D0**j * S * (w**p + b * (D0**p - w**p)) / p
        out: arb = a2 * total
        return out

    def _entropy_q(self) -> Value:
        b = self._b()
        out: arb = -self._log_a() + ball_of(self.e0) * b * ball_of(self.D0) / (self._one_minus_b() * self._mass())
        return out

    def _loss_q(self, t: Fraction, d: Fraction) -> Value:
        return (self._level(t + d) - self._level(t)) * self.e0


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
        g = self._dens(x)
        return -INF if g == 0 else ball_of(g).log()

    def _sf_pos_q(self, s: Fraction) -> Value:
        k = self._bin(s)
        if k > self.M:
            return Fraction(0)
        return self.tails[k + 1] + self.q[k] * ((k + Fraction(1, 2)) * self.w - s) / self.w

    def _isf_q(self, q: Fraction) -> Optional[Value]:
        for k in range(self.M + 1):
            if self.tails[k + 1] <= q and self.q[k] > 0:
                return (k + Fraction(1, 2)) * self.w - (q - self.tails[k + 1]) * self.w / self.q[k]
        return Fraction(0)  # pragma: no cover - q <= 1/2 is reached in bin 0 at the latest

    def _moment_q(self, n: int) -> Value:
        h = Fraction(1, 2)
        s = sum((self.q[abs(k)] * ((k + h) ** (n + 1) - (k - h) ** (n + 1)) for k in range(-self.M, self.M + 1)), Fraction(0))
        return self.w**n * s / (n + 1)

    def _entropy_q(self) -> Value:
        total = arb(0)
        for k, qk in enumerate(self.q):
            if qk > 0:
                total += (1 if k == 0 else 2) * ball_of(qk) * ball_of(qk / self.w).log()
        return -total

    def _d(self, eps: arb, j: int) -> arb:
        """D_j = sum_k [q_k - e^eps q_{k+j}]_+ over the bins k = -M..M."""
        e = eps.exp()
        total = arb(0)
        for k in range(-self.M, self.M + 1):
            qk = self.q[abs(k)]
            if qk == 0:
                continue
            other = self.q[abs(k + j)] if abs(k + j) <= self.M else Fraction(0)
            total += positive_part(ball_of(qk) - e * ball_of(other)) if other else ball_of(qk)
        return total

    def _profile_q(self, eps: Fraction, sens: Fraction) -> arb:
        u = sens / self.w
        j = math.floor(u)
        th = u - j
        e = ball_of(eps)
        out: arb = ball_of(1 - th) * self._d(e, j) + (ball_of(th) * self._d(e, j + 1) if th else arb(0))
        return out


class TruncatedStaircaseAtPrecision(LawAtPrecision):
    """The truncated staircase (:mod:`fhsym.noise.truncated_staircase`) at any precision, on arb balls.

    In units of Delta0 (``u = |x|/Delta0``, ``beta = B/Delta0``, ``W = w/Delta0``, ``b = e^{-eps0}``, level ``l(u)``,
    every piece decided in exact rationals): density ``b^{l(u)}/(2 Delta0 H(beta))`` on ``|x| <= B`` (0 beyond);
    ``sf(x) = (H(beta) - H(u))/(2 H(beta))`` with the upper mass formed from the top down as non-negative terms
    (``b^Kb (c(rb) - c(r))`` in the top period, else ``b^k (m - c(r)) + m b^{k+1} (1 - b^{Kb-k-1})/(1 - b) +
    b^Kb c(rb)``); ``var = Delta0^2 S2(beta)/H(beta)`` by the certified ball of
    :func:`fhsym._core.arb.truncated_staircase.ts_variance` at the working precision; ``E[T^n]`` (n >= 4) and the
    entropy ``log(2 Delta0 H) + eps0 E[l(|T|)]`` as sums over the (at most 50000) periods of exact polynomial
    integrals times ``b^k``; the loss ``(l(|t + d|) - l(|t|)) eps0`` (exact) inside the support, +-inf where one side
    is outside; isf the proven root of :mod:`fhsym.noise.precise_laws`; the profile the law's arb plan.

    >>> import fhsym, mpmath
    >>> ts = fhsym.TruncatedStaircase(1.0, 1.0, 0.4, 5.0).at_precision(30)
    >>> mpmath.nstr(ts.var(), 30), mpmath.nstr(ts.cdf(0.5), 30), ts.pdf(5.5)
    ('1.68368771291926669161682207224', '0.723911096730213768395630616033', mpf('0.0'))
    """

    def _setup(self) -> None:
        n = self.noise
        self.e0 = exact_fraction(n.epsilon)
        self.D0 = exact_fraction(n.sensitivity)
        self.W = exact_fraction(n.width) / self.D0
        self.beta = exact_fraction(n.bound) / self.D0
        self.Kb = math.floor(self.beta)
        self.rb = self.beta - self.Kb
        self._top = self.beta * self.D0

    def _bpow(self, k: int) -> arb:
        out: arb = (-ball_of(k * self.e0)).exp()
        return out

    def _b(self) -> arb:
        return self._bpow(1)

    def _geo(self, k: int) -> arb:
        """(1 - b^k)/(1 - b) (non-negative; k >= 0)."""
        out: arb = -(-ball_of(k * self.e0)).expm1() / -(-ball_of(self.e0)).expm1()
        return out

    def _c(self, r: Fraction) -> arb:
        """c(r) = min(r, W) + b [r - W]_+: the mass of the first r of a period over b^k."""
        out: arb = ball_of(min(r, self.W)) + self._b() * ball_of(max(r - self.W, Fraction(0)))
        return out

    def _m(self) -> arb:
        out: arb = ball_of(self.W) + self._b() * ball_of(1 - self.W)
        return out

    def _H(self) -> arb:
        out: arb = self._m() * self._geo(self.Kb) + self._bpow(self.Kb) * self._c(self.rb)
        return out

    def _level(self, u: Fraction) -> int:
        k = math.floor(u)
        return k + (1 if u - k >= self.W else 0)

    def _logpdf_q(self, x: Fraction) -> Value:
        u = abs(x) / self.D0
        if u > self.beta:
            return -INF
        out: arb = -ball_of(self._level(u) * self.e0) - (2 * ball_of(self.D0) * self._H()).log()
        return out

    def _upper(self, u: Fraction) -> arb:
        """H(beta) - H(u) for 0 <= u <= beta from the top down (non-negative terms)."""
        k = math.floor(u)
        r = u - k
        b, W = self._b(), self.W
        if k >= self.Kb:
            out: arb = self._bpow(self.Kb) * (ball_of(min(self.rb, W) - min(r, W))
                                             + b * ball_of(max(self.rb - W, Fraction(0)) - max(r - W, Fraction(0))))
            return out
        m_c = ball_of(max(W - r, Fraction(0))) + b * ball_of((1 - W) - max(r - W, Fraction(0)))
        out = self._bpow(k) * m_c + self._m() * self._bpow(k + 1) * self._geo(self.Kb - k - 1) + \
            self._bpow(self.Kb) * self._c(self.rb)
        return out

    def _sf_pos_q(self, s: Fraction) -> Value:
        u = s / self.D0
        if u >= self.beta:
            return Fraction(0)
        out: arb = self._upper(u) / (2 * self._H())
        return out

    def _period_sum(self, f: Callable[[int, Fraction, Fraction, int], arb]) -> arb:
        """sum over the pieces [lo, hi) of [0, beta) at level ``lev`` of f(k, lo, hi, lev) (k the period)."""
        total = arb(0)
        for k in range(self.Kb + 1):
            for lo, hi, lev in ((Fraction(k), k + self.W, k), (k + self.W, Fraction(k + 1), k + 1)):
                hi = min(hi, self.beta)
                if hi > lo:
                    total += f(k, lo, hi, lev)
        return total

    def _moment_q(self, n: int) -> Value:
        if n == 2:
            out: arb = ts_variance(_fq(self.e0), _fq(self.W), _fq(self.beta), prec=int(ctx.prec)) * ball_of(self.D0 ** 2)
            return out
        s = self._period_sum(lambda k, lo, hi, lev: self._bpow(lev) * ball_of((hi ** (n + 1) - lo ** (n + 1)) / (n + 1)))
        out = ball_of(self.D0 ** n) * s / self._H()
        return out

    def _entropy_q(self) -> Value:
        el = self._period_sum(lambda k, lo, hi, lev: self._bpow(lev) * ball_of(lev * (hi - lo)))
        out: arb = (2 * ball_of(self.D0) * self._H()).log() + ball_of(self.e0) * el / self._H()
        return out

    def _loss_q(self, t: Fraction, d: Fraction) -> Value:
        ina, inb = abs(t) <= self._top, abs(t + d) <= self._top
        if ina and inb:
            return (self._level(abs(t + d) / self.D0) - self._level(abs(t) / self.D0)) * self.e0
        if ina:
            return INF
        return -INF if inb else Fraction(0)


def _fq(x: Fraction) -> fmpq:
    return fmpq(x.numerator, x.denominator)
