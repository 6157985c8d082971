"""Ball-arithmetic (arb) evaluation of the discrete flipped Huber profile at exact inputs.

The computation behind :func:`fhsym.privacy.discrete_enclosure.discrete_profile_enclosure`
(which documents the method) and behind the cancellation fallback of
:meth:`fhsym.noise.discrete_flipped_huber.DiscreteFlippedHuber.privacy_profile`; it lives in the
noise layer because the distribution itself uses it.  For a sensitivity of s lattice steps:

    delta(eps) = (T(k*) - e^eps T(k* + s)) / Z,  k* = min{k : E(k + s) - E(k) > eps},
    T(k) = sum_{n >= k} e^{-E(n)},  Z = 1 + 2 T(1)

with k* found in exact rational arithmetic, the geometric centre sums in closed form and the
discrete Gaussian tails as short direct sums plus the proven truncation bound or by
Euler-Maclaurin with twenty corrections plus the proven remainder bound
(:mod:`fhsym.symbolic.discrete`), at 128 bits first and at doubled precision until the ball is
2^-60 relative or stops narrowing.  No float kernel is involved.

Every formula is a ball program printed from the law's declaration (:mod:`fhsym.symbolic.lattice_plan`,
``fhsym/_generated/declared/discrete_flipped_huber.py``; proofs topic ``lattice_discrete_flipped_huber``, row
``plan``), written in the former hand-written module's order of operations: the same balls, bit for bit
(``scripts/discrete_flipped_huber_former.py``).  What stays here is control flow.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Dict, List, Optional, Sequence, Tuple

from flint import arb, ctx, fmpq

from .._core.search import first_true_int
from .._generated.declared import discrete_flipped_huber as _gen

__all__ = ["profile_ball", "ball_ends", "profile_enclosure_steps", "profile_upper_ends"]

_START_PREC = 128
_MAX_PREC = 8192
_REL_BITS = 60


def _q(x: float) -> fmpq:
    n, d = Fraction(x).as_integer_ratio()
    return fmpq(n, d)


def _fraction(x: arb) -> Fraction:
    mz, ez = x.man_exp()
    m, e = int(mz), int(ez)
    scale: int = 2 ** abs(e)  # int ** int is typed Any (a negative exponent gives a float)
    return Fraction(m * scale) if e >= 0 else Fraction(m, scale)


def _bounds(x: arb) -> Tuple[Fraction, Fraction]:
    mid, rad = _fraction(x.mid()), _fraction(x.rad())
    return mid - rad, mid + rad


_MAX = Fraction(1.7976931348623157e308)


def _float_down(q: Fraction) -> float:
    """The largest double <= q (the largest finite one above the float range, -inf below it)."""
    if abs(q) > _MAX:  # float(q) would raise OverflowError
        return 1.7976931348623157e308 if q > 0 else -math.inf
    f = float(q)
    return math.nextafter(f, -math.inf) if Fraction(f) > q else f


def _float_up(q: Fraction) -> float:
    """The least double >= q (inf above the float range, the most negative finite one below it: log delta at
    eps = 1e300 is about -1e600)."""
    if abs(q) > _MAX:  # float(q) would raise OverflowError
        return math.inf if q > 0 else -1.7976931348623157e308
    f = float(q)
    return math.nextafter(f, math.inf) if Fraction(f) < q else f


class _Lattice:
    """Exact rational energy and arb lattice sums at the current arb precision.

    The formulas are the ball programs printed from the declaration (``fhsym/_generated/declared/
    discrete_flipped_huber.py``, :mod:`fhsym.symbolic.lattice_plan`; the energy pieces and their coefficients from
    :mod:`fhsym.symbolic.lattice_series`); this class keeps the control flow: k* in exact rationals, direct sum or
    Euler-Maclaurin, the direct sum's length and loop, and the memos."""

    def __init__(self, a: fmpq, g: fmpq, h: fmpq) -> None:
        self.lam = a * h / (g * g)
        self.b, self.c_q = a / g, h / g
        self.b2h, _, self.c2h = _gen.energy_tail_coefficients(self.b, self.c_q)  # b^2/2, 0, c^2/2
        self.K = int((a / h).floor())
        self.c = arb(self.c_q)
        self._tails: Dict[int, arb] = {}  # gauss_tail(m) memo: the same arb operations give the same ball
        self._Z: Optional[arb] = None
        self._em: Optional[Tuple[arb, ...]] = None

    @property
    def Z(self) -> arb:
        """The normaliser 1 + 2 T(1), computed once per lattice (and precision)."""
        if self._Z is None:
            self._Z = _gen.normaliser_arb(self.upper_tail(1))
        return self._Z

    def energy(self, n: int) -> fmpq:
        n = abs(n)
        out: fmpq = _gen.energy_centre(n, self.lam) if n <= self.K else _gen.energy_tail(n, self.b, self.c_q)
        return out

    def loss(self, k: int, s: int) -> fmpq:
        return self.energy(k + s) - self.energy(k)

    def kstar(self, eps: fmpq, s: int, below: Optional[int] = None) -> int:
        """min{k : E(k + s) - E(k) > eps}, exact; ``below``: k* at some eps' <= eps (a warm start).

        The loss is non-decreasing in k (E is convex), so k*(eps) >= k*(eps') and E(k*(eps') - 1 + s) -
        E(k*(eps') - 1) <= eps' <= eps: the search starts there and gallops up.  Same k* either way.
        """
        def ok(k: int) -> bool:
            return self.loss(k, s) > eps

        if below is None:
            return first_true_int(ok, -(s // 2) - 1, max(self.K + 1, 1))
        lo, hi, jump = below - 1, below, 1
        while not ok(hi):
            lo, hi, jump = hi, hi + jump, 2 * jump
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if ok(mid):
                hi = mid
            else:
                lo = mid
        return hi

    # -- sums (arb) -----------------------------------------------------------
    def gauss_tail(self, m: int) -> arb:
        """sum_{n >= m} e^{-E(n)} for m >= K + 1, memoised (:meth:`_gauss_tail`)."""
        t = self._tails.get(m)
        if t is None:
            if len(self._tails) > 4096:
                self._tails.clear()
            t = self._tails[m] = self._gauss_tail(m)
        return t

    def _gauss_tail(self, m: int) -> arb:
        """sum_{n >= m} e^{-E(n)} for m >= K + 1 (every term in the Gaussian piece).

        Euler-Maclaurin (20 corrections, rigorous remainder: ``em_tail_arb``) when c <= 1/20 and c^2 m <= 1;
        otherwise a direct sum (the recurrence of ``gauss_start_arb``) whose length makes the proven geometric bound
        on the rest (``gauss_close_arb``) about 2^-prec relative (at most a few hundred terms at 128 bits).
        """
        if self.c2h * 800 <= 1 and 2 * self.c2h * m <= 1:
            if self._em is None:  # the factors that do not depend on m, once per lattice (and precision)
                self._em = _gen.em_constants_arb(self.c)
            out: arb = _gen.em_tail_arb(m, self.c, self.b2h, self._em)
            return out
        cut = max(44, (ctx.prec * 7) // 10 + 10)  # e^-cut ~ 2^-prec
        j_lin = int((fmpq(cut) / (2 * self.c2h * m)).floor()) + 1
        j_quad = math.isqrt(int((fmpq(cut) / self.c2h).floor()) + 1) + 1
        J = min(j_lin, j_quad) + 2
        # terms t_n = e^{-c^2 n^2/2}, ratio t_{n+1}/t_n = e^{-c^2 (2n+1)/2} = q0 * e^{-c^2 (n - m)}
        t, q, step = _gen.gauss_start_arb(m, self.c2h)
        total = arb(0)
        for _ in range(J):
            total += t
            t *= q
            q *= step
        closed: arb = _gen.gauss_close_arb(total, m + J, self.c2h, self.b2h)  # + [0, rest], times e^{-b^2/2}
        return closed

    def upper_tail(self, n: int, Z: Optional[arb] = None) -> arb:
        """T(n) = sum_{j >= n} e^{-E(j)} for any integer n (n <= 0 needs Z)."""
        if n >= self.K + 1:
            return self.gauss_tail(n)
        if n >= 1:
            out: arb = _gen.centre_sum_arb(n, self.K, arb(self.lam)) + self.gauss_tail(self.K + 1)
            return out
        if Z is None:
            raise ValueError(f"upper_tail({n}) needs the normaliser Z (n <= 0)")
        low: arb = _gen.reflected_tail_arb(Z, self.upper_tail(1 - n))
        return low


def _profile_arb(eps: fmpq, lat: _Lattice, s: int, ks: Optional[int] = None) -> arb:
    if ks is None:
        ks = lat.kstar(eps, s)
    Z = lat.Z
    t1 = lat.upper_tail(ks, Z)
    t2 = lat.upper_tail(ks + s, Z)
    out: arb = _gen.profile_assembly_arb(t1, t2, eps, Z)
    return out


def profile_ball(epsilon: float, alpha: float, gamma: float, step: float, s: int) -> arb:
    """A ball containing delta(eps) for a sensitivity of s steps, 2^-60 relative when resolvable."""
    e, a, g, h = _q(epsilon), _q(alpha), _q(gamma), _q(step)
    prec = _START_PREC
    last = -(10**9)
    while True:
        with ctx.workprec(prec):
            d = _profile_arb(e, _Lattice(a, g, h), s)
            if d < 0:  # cannot happen for the exact value (>= 0); refuse rather than mislead
                raise ArithmeticError("profile enclosure below zero")
            acc = d.rel_accuracy_bits() if d > 0 else -(10**9)
            # done when 2^-60 relative, or when doubling the precision stopped helping (the
            # width is then set by the proven truncation/remainder bounds, not by rounding)
            if acc >= _REL_BITS or prec >= _MAX_PREC or (prec > _START_PREC and d > 0 and acc <= last + 2):
                return d
            last = acc
        prec *= 2


def _tiny(x: arb) -> bool:
    """|x| < 2^-1100 (below every float but 0), decided from the exponent without big integers."""
    m, e = x.man_exp()
    return int(m) == 0 or int(e) + int(m).bit_length() < -1100


def _ends(d: arb) -> Tuple[float, float]:
    """Outward-rounded float ends of the ball d (d's ends clipped below at 0)."""
    lo_a, hi_a = d.lower(), d.upper()
    if _tiny(hi_a):
        return 0.0, math.nextafter(0.0, 1.0)
    hi = _float_up(_bounds(hi_a)[1])
    if _tiny(lo_a) or lo_a <= 0:
        return 0.0, hi
    return _float_down(_bounds(lo_a)[0]), hi


def _log_ends(d: arb) -> Tuple[float, float]:
    """Outward-rounded float ends of log(ball d)."""
    with ctx.workprec(max(ctx.prec, 128)):
        hi = _float_up(_bounds(d.upper().log())[1])
        lo_a = d.lower()
        lo = -math.inf if not lo_a > 0 else _float_down(_bounds(lo_a.log())[0])
    return lo, hi


def ball_ends(d: arb, log: bool = False) -> Tuple[float, float]:
    """Outward-rounded float ends of the ball d (of log d with ``log=True``)."""
    return _log_ends(d) if log else _ends(d)


def profile_enclosure_steps(epsilon: float, alpha: float, gamma: float, step: float, s: int, log: bool = False) -> Tuple[float, float]:
    """Certified outward-rounded (lower, upper) of delta(eps) (or of log delta) for s steps; inputs already validated.

    >>> lo, hi = profile_enclosure_steps(1.0, 1.0, 2.0, 0.25, 4)
    >>> 0 < lo <= hi < 1
    True
    """
    return ball_ends(profile_ball(epsilon, alpha, gamma, step, s), log)


def profile_upper_ends(epsilons: Sequence[float], alpha: float, gamma: float, step: float, s: int) -> List[float]:
    """``[profile_enclosure_steps(e, alpha, gamma, step, s)[1] for e in epsilons]``, the same numbers, cheaper.

    One shape, many eps (a PLD's loss grid): the lattice, its normaliser and its Gaussian tails are
    built once per precision (the same arb operations on the same inputs give the same balls), and
    k* is searched from the previous one when the eps increase.  Inputs already validated.

    >>> profile_upper_ends([0.5, 1.0], 1.0, 2.0, 0.25, 4) == [profile_enclosure_steps(e, 1.0, 2.0, 0.25, 4)[1]
    ...                                                       for e in (0.5, 1.0)]
    True
    """
    a, g, h = _q(alpha), _q(gamma), _q(step)
    lats: Dict[int, _Lattice] = {}
    out: List[float] = []
    prev_e: Optional[fmpq] = None
    prev_k: Optional[int] = None
    for epsilon in epsilons:
        e = _q(epsilon)
        if _START_PREC not in lats:
            with ctx.workprec(_START_PREC):
                lats[_START_PREC] = _Lattice(a, g, h)
        ks = lats[_START_PREC].kstar(e, s, prev_k if prev_e is not None and prev_e <= e else None)  # exact rationals
        prev_e, prev_k = e, ks
        prec = _START_PREC
        last = -(10**9)
        while True:
            with ctx.workprec(prec):
                lat = lats.get(prec)
                if lat is None:
                    lat = lats[prec] = _Lattice(a, g, h)
                d = _profile_arb(e, lat, s, ks)
                if d < 0:
                    raise ArithmeticError("profile enclosure below zero")
                acc = d.rel_accuracy_bits() if d > 0 else -(10**9)
                if acc >= _REL_BITS or prec >= _MAX_PREC or (prec > _START_PREC and d > 0 and acc <= last + 2):
                    break
                last = acc
            prec *= 2
        out.append(_ends(d)[1])  # at the caller's precision, as profile_enclosure_steps
    return out
