"""The discrete flipped Huber law at any precision (issue 29), on arb balls.

``P(X = n h) = e^{-E(n)}/Z`` with the exact rational energy ``E(n) = lam |n|`` (``|n| <= K``) and
``c^2 n^2/2 + b^2/2`` beyond (``K = floor(alpha/h)``, ``lam = alpha h/gamma^2``, ``c = h/gamma``,
``b = alpha/gamma``; :mod:`fhsym.noise.discrete_flipped_huber`).  The forms run here are printed from the law's
declaration (``fhsym/_generated/declared/discrete_flipped_huber.py``, derived by :mod:`fhsym.symbolic.lattice_series`;
proofs topic ``lattice_discrete_flipped_huber``): the energy pieces and their polynomial coefficients in exact
rationals, the centre's power sums ``F_p(m) = sum_{n >= m} n^p e^{-E(n)}`` on balls (``centre_upper_arb_p``, p <= 8;
a higher p derived and printed when asked), the Gaussian tail's ratio bound and rest on balls.  Every quantity is a
sum of positive terms: the centre ``|n| <= K`` as ``F_p(lo) - F_p(K + 1)``, or by summing its terms directly when it
has fewer than 20000; the Gaussian part ``sum_{n >= m} n^p e^{-E(n)}`` directly until a term is below 2^-(prec + 10)
of the sum, plus the rest, bounded by ``t_M/(1 - rho_M)`` (``tail_rest_arb``, when ``tail_ratio_arb`` < 1; a
rigorous radius, added as the ball ``[0, rest]``); where that direct sum would be long (more than 512 terms, c^2 m <= 1)
and p is 0 or 2, first the certificate plan's printed Euler-Maclaurin ball programs (20 corrections, then 40 printed
when asked; the proven remainder bound as the ball's radius), taken when their ball is within 24 bits of the working
precision.

Arguments are points of the real line taken exactly: ``pmf(x)`` is 0 unless x/h is an integer (no
snapping: the double-precision law snaps a value within 1e-9 relative to its lattice point),
``cdf(x) = P(X <= x)``, ``sf(x) = P(X > x)``, ``ppf``/``isf`` return lattice points (exact rationals: the index
is decided by ball comparisons, raised in precision until decided), the loss takes lattice points t and
d, and the profile a sensitivity of S = sensitivity/step lattice steps (the law's ``lattice_steps``):
``delta = (T(k*) - e^eps T(k* + S))/Z``, ``k* = min{k : E(k + S) - E(k) > eps}`` found in exact rationals.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Callable, Optional, Tuple

from flint import arb, ctx, fmpq

from .._core.mpfuncs import exact_fraction
from .._core.search import first_true_int
from .._generated.declared import discrete_flipped_huber as _gen
from .precise import Exact
from .precise_laws import LawAtPrecision, Value, ball_of, exact_argument, exact_probability

__all__ = ["DiscreteFlippedHuberAtPrecision"]

_DIRECT_CENTRE = 20000
_DIRECT_TAIL = 512  # a Gaussian tail longer than this (terms) tries Euler-Maclaurin first
_EM_ORDERS = (20, 40)  # = fhsym.symbolic.lattice_plan.EM_ORDERS (tests/test_lattice_laws.py): the proven orders


def _upper_form(p: int) -> Any:
    """``F_p`` on balls for a power above the checked-in ones (derived and printed when asked)."""
    from ..codegen.lattice_laws import centre_upper_arb

    return centre_upper_arb(p)


def _em_form(Q: int) -> Any:
    """The Euler-Maclaurin ball programs at Q corrections, printed and compiled when asked."""
    from ..codegen.lattice_laws import em_ball_functions

    return em_ball_functions(Q)


class DiscreteFlippedHuberAtPrecision(LawAtPrecision):
    """Discrete flipped Huber on the lattice h Z at any precision (see the module docstring).

    >>> import fhsym, mpmath
    >>> d = fhsym.DiscreteFlippedHuber(1.0, 2.0, 0.25).at_precision(30)
    >>> mpmath.nstr(d.var(), 30)
    '3.93223941309989714547457372361'
    """

    def _setup(self) -> None:
        n = self.noise
        a, g, self.h = exact_fraction(n.alpha), exact_fraction(n.gamma), exact_fraction(n.step)
        self.K = math.floor(a / self.h)
        self.lam = a * self.h / (g * g)
        self.b, self.c = a / g, self.h / g

    def energy(self, n: int) -> Fraction:
        """E(n), exact (the printed energy pieces on Fractions)."""
        n = abs(n)
        out: Fraction = _gen.energy_centre(n, self.lam) if n <= self.K else _gen.energy_tail(n, self.b, self.c)
        return out

    # ------------------------------------------------------------------ sums
    def _gauss(self, m: int, p: int = 0) -> arb:
        """sum_{n >= m} n^p e^{-E(n)} for m >= K + 1, m >= 1 (rigorous truncation radius)."""
        if p in (0, 2):
            em = self._gauss_em(m, p)
            if em is not None:
                return em
        total = arb(0)
        n = m
        cut = arb(2) ** (-(ctx.prec + 10))
        while True:
            t = ball_of(n) ** p * (-ball_of(self.energy(n))).exp()
            total += t
            n += 1
            if n - m >= 8 and t < total * cut:
                break
        rho = _gen.tail_ratio_arb(n, p, ball_of(self.c))
        if not rho < 1:  # pragma: no cover - the loop ends past the maximum of n^p e^{-c^2 n^2/2}
            raise ArithmeticError("the Gaussian tail's ratio bound is not below 1")
        rest = _gen.tail_rest_arb(n, p, ball_of(self.b), ball_of(self.c))
        out: arb = total + (rest / 2) * (1 + arb(0, 1))
        return out

    def _gauss_em(self, m: int, p: int) -> Optional[arb]:
        """``e^(-b^2/2) sum_(n>=m) n^p e^(-c^2 n^2/2)`` (p = 0, 2) by the printed Euler-Maclaurin ball programs of the
        certificate plan (``em_tail_arb``, ``em_tail2_arb``: 20 corrections plus the ball of the proven remainder
        bound, :mod:`fhsym.symbolic.lattice_plan`; 40 corrections, printed when asked, where 20 are not enough) where
        the direct sum would take more than :data:`_DIRECT_TAIL` terms and c^2 m <= 1; None where neither ball is
        within 24 bits of the working precision (then the direct sum)."""
        c = float(self.c)
        if c * c * m > 1 or math.sqrt(1.4 * (ctx.prec + 10)) / c < _DIRECT_TAIL:  # terms to e^-(prec+10) ln 2
            return None
        cache = self.__dict__.setdefault("_em_cache", {})
        b2h = _gen.energy_tail_coefficients(self.b, self.c)[0]  # b^2/2, exact
        b2h_q = fmpq(b2h.numerator, b2h.denominator)
        for Q in _EM_ORDERS:  # the printed order, then a higher one (printed when asked)
            fns: Tuple[Callable[..., Any], ...] = ((_gen.em_constants_arb, _gen.em_tail_arb, _gen.em_tail2_arb)
                                                   if Q == _EM_ORDERS[0] else _em_form(Q))
            key = (ctx.prec, Q)
            if key not in cache:
                cb = ball_of(self.c)
                cache[key] = (cb, fns[0](cb))
            cb, k = cache[key]
            out: arb = fns[1 if p == 0 else 2](m, cb, b2h_q, k)
            if out.rel_accuracy_bits() >= ctx.prec - 24:
                return out
        return None

    def _centre(self, lo: int, p: int = 0) -> arb:
        """sum_{n = lo}^{K} n^p e^{-lam n} for 1 <= lo <= K + 1."""
        if lo > self.K:
            return arb(0)
        if self.K - lo < _DIRECT_CENTRE:
            r = (-ball_of(self.lam)).exp()
            t = r ** lo
            total = arb(0)
            for n in range(lo, self.K + 1):
                total += ball_of(n) ** p * t
                t *= r
            return total
        upper = _gen.CENTRE_UPPER_ARB[p] if p < len(_gen.CENTRE_UPPER_ARB) else _upper_form(p)
        lam = ball_of(self.lam)
        out: arb = upper(lo, lam) - upper(self.K + 1, lam)
        return out

    def _upper(self, m: int, p: int = 0) -> arb:
        """T_p(m) = sum_{n >= m} n^p e^{-E(n)} for m >= 1."""
        return self._centre(m, p) + self._gauss(max(m, self.K + 1), p)

    def _z(self) -> arb:
        """Z = 1 + 2 T(1), computed once per working precision."""
        cache = self.__dict__.setdefault("_z_cache", {})
        if ctx.prec not in cache:
            cache[ctx.prec] = 1 + 2 * self._upper(1)
        out: arb = cache[ctx.prec]
        return out

    def _tail_index(self, k: int) -> arb:
        """P(X >= k) for any integer k."""
        z = self._z()
        if k >= 1:
            out: arb = self._upper(k) / z
            return out
        return 1 - self._upper(1 - k) / z if k <= 0 else arb(0)

    # ------------------------------------------------------------------ distribution
    def _index(self, x: Fraction) -> Optional[int]:
        u = x / self.h
        return u.numerator if u.denominator == 1 else None

    def _logpdf_q(self, x: Fraction) -> Value:
        k = self._index(x)
        if k is None:
            return -math.inf
        out: arb = -ball_of(self.energy(k)) - self._z().log()
        return out

    def _sf_q(self, x: Fraction) -> Value:
        return self._tail_index(math.floor(x / self.h) + 1)

    def cdf(self, x: Exact) -> Any:
        """P(X <= x) = P(X >= -floor(x/h)) (the lattice is symmetric)."""
        xq = exact_argument(x, "x")
        return self._value(lambda: self._tail_index(-math.floor(xq / self.h)))

    def logcdf(self, x: Exact) -> Any:
        """log P(X <= x)."""
        xq = exact_argument(x, "x")
        return self._value(lambda: self._logsf_q(-math.floor(xq / self.h) * self.h - self.h))

    def _logsf_q(self, x: Fraction) -> Value:
        k = math.floor(x / self.h) + 1
        if k >= 1:
            out: arb = self._upper(k).log() - self._z().log()
            return out
        return (-(self._upper(1 - k) / self._z())).log1p()

    def logpmf(self, x: Exact) -> Any:
        """log P(X = x) (-inf off the lattice)."""
        return self.logpdf(x)

    def pmf(self, x: Exact) -> Any:
        """P(X = x) (0 off the lattice)."""
        return self.pdf(x)

    def _decide(self, pred: Callable[[], arb]) -> bool:
        """The sign of a ball expression (> 0 True, < 0 False), the precision raised until decided."""
        prec = self.work
        while prec <= 16 * self.work:
            with ctx.workprec(prec):
                v = pred()
            if v > 0 or v < 0:
                return bool(v > 0)
            prec *= 2
        raise ValueError("a quantile of the discrete law sits on a tie the balls cannot decide (sf equals q)")

    def _first_index(self, ok: Callable[[int], bool]) -> int:
        lo = -1
        while ok(lo):
            lo = 2 * lo - 1
        return first_true_int(ok, lo, 1)

    def isf(self, q: Exact) -> Any:
        """The least lattice point x with P(X > x) <= q (q in (0, 1); an exact rational)."""
        qq = exact_probability(q, "q")
        if qq in (0, 1):
            raise ValueError(f"q must be a real number in (0, 1) for the discrete law (unbounded support); got {q!r}")
        k = self._first_index(lambda j: not self._decide(lambda: self._tail_index(j + 1) - ball_of(qq)))
        return self._value(lambda: k * self.h)

    def ppf(self, q: Exact) -> Any:
        """The least lattice point x with P(X <= x) >= q (q in (0, 1); an exact rational)."""
        qq = exact_probability(q, "q")
        if qq in (0, 1):
            raise ValueError(f"q must be a real number in (0, 1) for the discrete law (unbounded support); got {q!r}")
        k = self._first_index(lambda j: not self._decide(lambda: ball_of(qq) - (1 - self._tail_index(j + 1))))
        return self._value(lambda: k * self.h)

    # ------------------------------------------------------------------ moments
    def _moment_q(self, n: int) -> Value:
        out: arb = 2 * ball_of(self.h) ** n * self._upper(1, n) / self._z()
        return out

    def _entropy_q(self) -> Value:
        """log Z + E[E(X)]."""
        z = self._z()
        # E[E(|X|)] = (2/Z) sum_(n>=1) E(n) e^(-E(n)), each energy a polynomial sum_k a_k n^k (printed coefficients)
        centre = sum((ball_of(ak) * self._centre(1, k) for k, ak in enumerate(_gen.energy_centre_coefficients(self.lam))
                      if ak), arb(0))
        g = self.K + 1
        gauss = sum((ball_of(ak) * self._gauss(g, k) for k, ak in enumerate(_gen.energy_tail_coefficients(self.b, self.c))
                     if ak), arb(0))
        out: arb = z.log() + 2 * (centre + gauss) / z
        return out

    # ------------------------------------------------------------------ privacy
    def _steps(self, value: Fraction, name: str) -> int:
        k = self._index(value)
        if k is None:
            raise ValueError(f"{name} must be a multiple of the step {self.noise.step!r} (a lattice point); got {value}")
        return k

    def _loss_q(self, t: Fraction, d: Fraction) -> Value:
        k, s = self._steps(t, "t"), self._steps(d, "d")
        return self.energy(k + s) - self.energy(k)

    def privacy_loss(self, t: Exact, d: Exact) -> Any:
        """zeta_d(t) = E(t/h + d/h) - E(t/h) for lattice points t and d (exact)."""
        tq, dq = exact_argument(t, "t"), exact_argument(d, "d")
        k, s = self._steps(tq, "t"), self._steps(dq, "d")
        return self._value(lambda: self.energy(k + s) - self.energy(k))

    def centered_privacy_loss(self, t: Exact, d: Exact) -> Any:
        """Not defined on the lattice (t - d/2 is a lattice point only for even d/h): refused."""
        raise ValueError("centered_privacy_loss is not defined for the discrete law; use privacy_loss(t, d)")

    def _profile_q(self, eps: Fraction, sens: Fraction) -> arb:
        s = int(self.noise.lattice_steps(sens, self.noise.step))  # the law's own rule (exact; ValueError off the lattice)
        ks = first_true_int(lambda k: self.energy(k + s) - self.energy(k) > eps, -(s // 2) - 1, max(self.K + 1, 1))
        out: arb = self._tail_index(ks) - ball_of(eps).exp() * self._tail_index(ks + s)
        return out

