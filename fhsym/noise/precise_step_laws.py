"""The declared step laws at any precision (issues 28/29): the staircase and the truncated staircase through the ball
forms printed from their SymPy derivation.

The staircase and the truncated staircase are declared as step patterns (:mod:`fhsym.symbolic.steps`,
``fhsym/symbolic/laws/``); ``python -m fhsym.codegen`` prints, next to their numpy functions, the same stable forms on
python-flint balls into ``fhsym/_generated/declared/<law>.py`` (``*_arb``, covered by ``--check``).  The views below
evaluate every quantity through them, in units of the period Delta0 (``u = |x|/Delta0 = k + r``, the period ``k`` and
the cell -- ``r < W`` or not, ``W`` = width/Delta0 -- decided in exact rationals, the distance ``a`` below the cell's
upper edge formed exactly), with the evaluation policy of :mod:`fhsym.noise.precise_laws`:

* ``logpdf = logpdf_arb_i(k) - log Delta0``; ``sf = sf_arb_i(k, a)`` (the truncated staircase: ``sf_top_arb(r)`` in the
  cut period K, 0 beyond the bound); ``isf(q)``: the cells whose sf range can hold q (the period from ``period_arb``,
  its neighbours, and for the cut law the cut period; each cell's range decided by balls), ``k + hi_i - isf_arb_i(k,
  q)`` of every cell the balls do not exclude, joined (the exact q lies in one of them: the balls prove q inside the
  candidates' span, else the proven root of :mod:`fhsym.noise.precise_laws`);
* the staircase: ``E[T^n] = Delta0^n moment_arb_n`` (n <= 6 checked in; any other n derived by
  :func:`~fhsym.symbolic.steps.derive_steps` and printed on balls when asked), ``entropy_arb + log Delta0``, the
  profile at shifts ``d = Delta/Delta0 <= 1`` from the derived lattice weights, ``sum_n W_n(d) (1 - e^(eps - n
  eps0))_+`` (``profile_weight_arb_n``; the sign of each term decided in rationals), beyond by the law's certified plan;
* the truncated staircase: ``E[T^n] = Delta0^n (sum_{k<K} moment_period_arb_n(k) + moment_last_arb_n)/(norm_arb/2)``
  (n = 2, 4, 6; other even n: the definition's exact polynomial integrals times ``b^level``, cell by cell), the entropy
  ``log(Delta0 norm_arb) + (sum_{k<K} nlog_period_arb(k) + nlog_last_arb)/(norm_arb/2)`` (the derived per-period
  ``-int g log g``); the profile is the law's certified plan (:mod:`fhsym.noise.plans.truncated_staircase`);
* the loss ``(l(|t + d|) - l(|t|)) eps0`` (exact: the definition's step levels), +-inf where one side leaves a bound.

Accuracy: tests/test_precise_laws.py (the step densities integrated piece by piece at 100 and 300 digits; every ball
contains the reference).
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import Any, Callable, List, Optional, Tuple

from flint import arb

from .._core.mpfuncs import exact_fraction
from .._generated.declared import staircase as _st
from .._generated.declared import truncated_staircase as _ts
from .precise_laws import INF, LawAtPrecision, Value, ball_of

__all__ = ["StaircaseAtPrecision", "TruncatedStaircaseAtPrecision"]


def _decide(q: arb, lo: arb, hi: arb) -> Optional[bool]:
    """Whether q lies in [lo, hi] for every point of the balls (True), for none (False), or undecided (None)."""
    if lo <= q and q <= hi:
        return True
    if q < lo or q > hi:
        return False
    return None


def _join(candidates: List[Tuple[Optional[bool], Callable[[], arb]]]) -> Optional[arb]:
    """The union of the values of every candidate the balls do not exclude (None: all excluded)."""
    out: Optional[arb] = None
    for cond, value in candidates:
        if cond is False:
            continue
        v = value()
        out = v if out is None else arb(out.union(v))
    return out


@functools.lru_cache(maxsize=64)
def _moment_form(n: int) -> Callable[..., Any]:
    from ..codegen.step_laws import step_moment_arb
    from ..symbolic.laws.staircase import DECLARATION

    return step_moment_arb(DECLARATION, n)


class _StepView(LawAtPrecision):
    """The common part: exact parameters in units of Delta0, the cell of u, the generated per-cell forms."""

    _gen: Any = _st

    def _setup(self) -> None:
        n = self.noise
        self.e0 = exact_fraction(n.epsilon)
        self.D0 = exact_fraction(n.sensitivity)
        self.W = exact_fraction(n.width) / self.D0

    def _cut(self) -> Tuple[Any, ...]:
        """The cut (K, rho) of a truncated law as extra arguments (none for the staircase)."""
        return ()

    def _par(self) -> Tuple[Any, ...]:
        return (ball_of(self.e0), ball_of(self.W), *self._cut())

    def _cell(self, u: Fraction) -> Tuple[int, int, Fraction]:
        """(k, cell, a) of u = k + r >= 0: the cell 0 (r < W) or 1, a the exact distance below its upper edge."""
        k = math.floor(u)
        r = u - k
        return (k, 0, self.W - r) if r < self.W else (k, 1, 1 - r)

    def _level(self, u: Fraction) -> int:
        k, cell, _ = self._cell(u)
        return k + cell

    def _logpdf_q(self, x: Fraction) -> Value:
        k, cell, _ = self._cell(abs(x) / self.D0)
        out: arb = arb(self._gen.LOGPDF_ARB[cell](k, *self._par())) - ball_of(self.D0).log()
        return out

    def _sf_cells(self, k: int, a: Fraction) -> Tuple[arb, ...]:
        return tuple(arb(fn(k, ball_of(a), *self._par())) for fn in self._gen.SF_ARB)

    def _period_candidates(self, q: Fraction, top: Optional[int]
                           ) -> Tuple[List[Tuple[Optional[bool], Callable[[], arb]]], bool]:
        """The cells of the periods around ``period_arb(q)`` (clipped to [0, top]) that may hold the tail mass q, and
        whether the balls prove q inside their span [sf at the end of the last, sf at the start of the first] (else
        the true cell may be outside the candidates: the caller takes the proven root instead); at the cut
        (``top``) the span's lower end is left to the caller (the cut period follows)."""
        qb, par = ball_of(q), self._par()
        est = arb(self._gen.PERIOD_ARB(qb, *par)).mid()
        k0 = int(math.floor(est)) if est.is_finite() else 0
        out: List[Tuple[Optional[bool], Callable[[], arb]]] = []
        lens = (self.W, 1 - self.W)
        his = (self.W, Fraction(1))
        ks = [k for k in range(k0 - 1, k0 + 2) if k >= 0 and (top is None or k <= top)]
        if not ks:
            return out, False
        start = arb(self._gen.SF_ARB[0](ks[0], ball_of(self.W), *par))  # sf at the start of the first period
        end = arb(self._gen.SF_ARB[1](ks[-1], ball_of(Fraction(0)), *par))  # and at the end of the last
        covered = bool(qb <= start) and (bool(qb >= end) or ks[-1] == top)
        for k in ks:
            for i in (0, 1):
                lo = arb(self._gen.SF_ARB[i](k, ball_of(Fraction(0)), *par))
                hi = arb(self._gen.SF_ARB[i](k, ball_of(lens[i]), *par))
                fn = self._gen.ISF_ARB[i]
                out.append((_decide(qb, lo, hi),
                            functools.partial(lambda kk, h, f: ball_of(kk + h) - arb(f(kk, qb, *par)), k, his[i], fn)))
        return out, covered

    def _loss_q(self, t: Fraction, d: Fraction) -> Value:
        return (self._level(abs(t + d) / self.D0) - self._level(abs(t) / self.D0)) * self.e0


class StaircaseAtPrecision(_StepView):
    """The staircase law (Geng & Viswanath 2016) at any precision through ``fhsym._generated.declared.staircase``.

    >>> import fhsym, mpmath
    >>> s = fhsym.Staircase(1.0).at_precision(30)
    >>> mpmath.nstr(s.var(), 30)
    '1.91810353123552514812907062332'
    """

    _gen = _st

    def _sf_pos_q(self, s: Fraction) -> Value:
        k, cell, a = self._cell(s / self.D0)
        out: arb = self._sf_cells(k, a)[cell]
        return out

    def _isf_q(self, q: Fraction) -> Optional[Value]:
        cands, covered = self._period_candidates(q, None)
        v = _join(cands) if covered else None
        return None if v is None else ball_of(self.D0) * v

    def _moment_q(self, n: int) -> Value:
        fn = _st.MOMENTS_ARB.get(n) or _moment_form(n)
        out: arb = ball_of(self.D0) ** n * arb(fn(*self._par()))
        return out

    def _entropy_q(self) -> Value:
        out: arb = arb(_st.ENTROPY_ARB(*self._par())) + ball_of(self.D0).log()
        return out

    def _profile_q(self, eps: Fraction, sens: Fraction) -> arb:
        """``sum_n W_n(d) (1 - e^(eps - n eps0))_+`` at ``d = Delta/Delta0 <= 1`` (the derived lattice weights; each
        term's sign decided in rationals), else the law's certified plan."""
        d = sens / self.D0
        if d > 1 or not _st.PROFILE_WEIGHTS_ARB:
            return super()._profile_q(eps, sens)
        total = arb(0)
        for n, fn in _st.PROFILE_WEIGHTS_ARB.items():
            if eps < n * self.e0:
                total += arb(fn(ball_of(d), *self._par())) * -ball_of(eps - n * self.e0).expm1()
        return total


class TruncatedStaircaseAtPrecision(_StepView):
    """The truncated staircase at any precision through ``fhsym._generated.declared.truncated_staircase`` (cut at
    ``beta = B/Delta0 = K + rho`` periods; density 0 beyond B).

    >>> import fhsym, mpmath
    >>> ts = fhsym.TruncatedStaircase(1.0, 1.0, 0.4, 5.0).at_precision(30)
    >>> mpmath.nstr(ts.var(), 30), mpmath.nstr(ts.cdf(0.5), 30), ts.pdf(5.5)
    ('1.68368771291926669161682207224', '0.723911096730213768395630616033', mpf('0.0'))
    """

    _gen = _ts

    def _setup(self) -> None:
        super()._setup()
        self.beta = exact_fraction(self.noise.bound) / self.D0
        self.K = math.floor(self.beta)
        self.rho = self.beta - self.K
        self._top = self.beta * self.D0

    def _cut(self) -> Tuple[Any, ...]:
        return (self.K, ball_of(self.rho))

    def _logpdf_q(self, x: Fraction) -> Value:
        if abs(x) / self.D0 > self.beta:
            return -INF
        return super()._logpdf_q(x)

    def _sf_pos_q(self, s: Fraction) -> Value:
        u = s / self.D0
        if u >= self.beta:
            return Fraction(0)
        k, cell, a = self._cell(u)
        if k >= self.K:  # the cut period
            top: arb = arb(_ts.SF_TOP_ARB(ball_of(u - self.K), *self._par()))
            return top
        out: arb = self._sf_cells(k, a)[cell]
        return out

    def _isf_q(self, q: Fraction) -> Optional[Value]:
        qb, par = ball_of(q), self._par()
        ends = (Fraction(0), min(self.W, self.rho), self.rho)  # the cut period's cells: [0, min(W, rho)], [W, rho]
        sf_at = [arb(_ts.SF_TOP_ARB(ball_of(e), *par)) for e in ends]
        top = [(_decide(qb, sf_at[1], sf_at[0]), lambda: ball_of(self.K) + arb(_ts.ISF_TOP_ARB[0](qb, *par)))]
        if self.rho > self.W:
            top.append((_decide(qb, sf_at[2], sf_at[1]), lambda: ball_of(self.K) + arb(_ts.ISF_TOP_ARB[1](qb, *par))))
        if qb < sf_at[0]:  # certainly inside the cut period
            v = _join(top)
        else:  # the periods (the span proven by the balls; at K - 1 it joins the cut period's candidates)
            cands, covered = self._period_candidates(q, self.K - 1)
            v = _join(top + cands) if covered else None
        return None if v is None else ball_of(self.D0) * v

    def _norm_half(self) -> arb:
        """H(beta) = norm/2, the derived normaliser over 2 (the mass of |T| <= B over the density's level scale)."""
        out: arb = arb(_ts.NORM_ARB(*self._par())) / 2
        return out

    def _bpow(self, k: int) -> arb:
        out: arb = (-ball_of(k * self.e0)).exp()
        return out

    def _period_sum(self, f: Callable[[int, Fraction, Fraction, int], arb]) -> arb:
        """sum over the cells [lo, hi) of [0, beta) at level ``lev`` of f(k, lo, hi, lev) (k the period)."""
        total = arb(0)
        for k in range(self.K + 1):
            for lo, hi, lev in ((Fraction(k), k + self.W, k), (k + self.W, Fraction(k + 1), k + 1)):
                hi = min(hi, self.beta)
                if hi > lo:
                    total += f(k, lo, hi, lev)
        return total

    def _derived_sum(self, per_period: Callable[..., Any], last: Callable[..., Any]) -> arb:
        """``sum_{k<K} per_period(k) + last`` on balls: a derived per-period integral (non-negative terms) over the
        whole periods, plus the cut period K."""
        e, W = ball_of(self.e0), ball_of(self.W)
        out: arb = sum((arb(per_period(k, e, W)) for k in range(self.K)), arb(0)) + arb(last(*self._par()))
        return out

    def _moment_q(self, n: int) -> Value:
        if n in _ts.MOMENT_PERIOD_ARB:  # the derived per-period moments (n = 2, 4, 6) and the cut period
            s = self._derived_sum(_ts.MOMENT_PERIOD_ARB[n], _ts.MOMENT_LAST_ARB[n])
        else:  # no derived form printed for this n: the definition integrated cell by cell (exact polynomials)
            s = self._period_sum(lambda k, lo, hi, lev: self._bpow(lev) * ball_of((hi ** (n + 1) - lo ** (n + 1)) / (n + 1)))
        out: arb = ball_of(self.D0 ** n) * s / self._norm_half()
        return out

    def _entropy_q(self) -> Value:
        """h = log(2 Delta0 H) + (sum_{k<K} nlog_period(k) + nlog_last)/H (derived: -int g log g per period)."""
        H = self._norm_half()
        out: arb = (2 * ball_of(self.D0) * H).log() + self._derived_sum(_ts.NLOG_PERIOD_ARB, _ts.NLOG_LAST_ARB) / H
        return out

    def _loss_q(self, t: Fraction, d: Fraction) -> Value:
        ina, inb = abs(t) <= self._top, abs(t + d) <= self._top
        if ina and inb:
            return super()._loss_q(t, d)
        if ina:
            return INF
        return -INF if inb else Fraction(0)
