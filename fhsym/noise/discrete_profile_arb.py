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
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Dict, List, Optional, Sequence, Tuple

from flint import arb, ctx, fmpq

from .._core.search import first_true_int

__all__ = ["profile_ball", "ball_ends", "profile_enclosure_steps", "profile_upper_ends"]

_EM_Q = 20
_BERN = [fmpq(0)] + [fmpq.bernoulli(2 * q) / fmpq(math.factorial(2 * q)) for q in range(1, _EM_Q + 1)]  # B_2q/(2q)!
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


def _float_down(q: Fraction) -> float:
    f = float(q)
    return math.nextafter(f, -math.inf) if Fraction(f) > q else f


def _float_up(q: Fraction) -> float:
    f = float(q)
    return math.nextafter(f, math.inf) if Fraction(f) < q else f


class _Lattice:
    """Exact rational energy and arb lattice sums at the current arb precision."""

    def __init__(self, a: fmpq, g: fmpq, h: fmpq) -> None:
        g2 = g * g
        self.lam = a * h / g2
        self.c2h = h * h / (2 * g2)  # c^2/2
        self.b2h = a * a / (2 * g2)  # b^2/2
        self.K = int((a / h).floor())
        self.c = arb(h / g)
        self._tails: Dict[int, arb] = {}  # gauss_tail(m) memo: the same arb operations give the same ball
        self._Z: Optional[arb] = None
        self._em: Optional[Tuple[arb, arb, arb, List[arb], arb, arb, arb]] = None

    @property
    def Z(self) -> arb:
        """The normaliser 1 + 2 T(1), computed once per lattice (and precision)."""
        if self._Z is None:
            self._Z = 1 + 2 * self.upper_tail(1)
        return self._Z

    def energy(self, n: int) -> fmpq:
        n = abs(n)
        return self.lam * n if n <= self.K else self.c2h * n * n + self.b2h

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

        Euler-Maclaurin (20 corrections, rigorous remainder) when c <= 1/20 and c^2 m <= 1;
        otherwise a direct sum whose length makes the proven geometric bound on the rest about
        2^-prec relative (at most a few hundred terms at 128 bits).
        """
        if self.c2h * 800 <= 1 and 2 * self.c2h * m <= 1:
            return self._em_tail(m) * (-arb(self.b2h)).exp()
        c2 = 2 * arb(self.c2h)  # c^2
        cut = max(44, (ctx.prec * 7) // 10 + 10)  # e^-cut ~ 2^-prec
        j_lin = int((fmpq(cut) / (2 * self.c2h * m)).floor()) + 1
        j_quad = math.isqrt(int((fmpq(cut) / self.c2h).floor()) + 1) + 1
        J = min(j_lin, j_quad) + 2
        # terms t_n = e^{-c^2 n^2/2}, ratio t_{n+1}/t_n = e^{-c^2 (2n+1)/2} = q0 * e^{-c^2 (n - m)}
        t = (-arb(self.c2h * m * m)).exp()
        q = (-arb(self.c2h * (2 * m + 1))).exp()
        step = (-c2).exp()
        total = arb(0)
        for _ in range(J):
            total += t
            t *= q
            q *= step
        M = m + J
        rho = (-arb(self.c2h * (2 * M + 1))).exp()  # ratio bound for n >= M (truncation_bound, p = 0)
        rest = (-arb(self.c2h * M * M)).exp() / (1 - rho)
        half = rest * arb(fmpq(1, 2))
        total += half + half * arb(0, 1)  # the ball [total, total + rest]
        return total * (-arb(self.b2h)).exp()

    def _em_constants(self) -> Tuple[arb, arb, arb, List[arb], arb, arb, arb]:
        """The factors of :meth:`_em_tail` that do not depend on m, formed once per lattice (and precision) by the
        same operations as before, so the tails are the same balls."""
        if self._em is None:
            c = self.c
            c2 = c * c
            bc = []
            cp = c  # c^(2q-1)
            for q in range(1, _EM_Q + 1):
                bc.append(arb(_BERN[q]) * cp)
                cp *= c2
            Q = _EM_Q
            cq = abs(arb(_BERN[Q])) * c ** (2 * Q - 1)
            self._em = ((arb.pi() / 2).sqrt(), arb(2).sqrt(), arb(8 * Q + 10).sqrt(), bc, cq,
                        cq * (2 * arb.pi() * arb.fac_ui(2 * Q)).sqrt(), arb(fmpq(1, 2)))
        return self._em

    def _em_tail(self, m: int) -> arb:
        """Euler-Maclaurin for sum_{n >= m} e^{-c^2 n^2/2} with its rigorous remainder (em_theta, em_remainder_bound)."""
        c = self.c
        sqrt_half_pi, sqrt2, past_zeros, bc, cq, rem_cs, half = self._em_constants()
        u = c * m
        g = (-(u * u) / 2).exp()
        main = sqrt_half_pi * (u / sqrt2).erfc() / c
        he = [arb(1), u]
        for q in range(1, 2 * _EM_Q + 1):
            he.append(u * he[q] - q * he[q - 1])
        corr = arb(half)  # a fresh ball (the cached one is never modified)
        for q in range(1, _EM_Q + 1):
            corr += bc[q - 1] * he[2 * q - 1]
        if u >= past_zeros:  # past every zero of He_2Q: the integral of |f^(2Q)| is exact
            rem = cq * he[2 * _EM_Q - 1] * g
        else:  # Cauchy-Schwarz over the real line
            rem = rem_cs
        return main + g * corr + rem * arb(0, 1)

    def upper_tail(self, n: int, Z: Optional[arb] = None) -> arb:
        """T(n) = sum_{j >= n} e^{-E(j)} for any integer n (n <= 0 needs Z)."""
        if n >= self.K + 1:
            return self.gauss_tail(n)
        if n >= 1:
            lam = arb(self.lam)
            cen = (-lam * n).exp() * (-(-lam * (self.K - n + 1)).expm1()) / (-(-lam).expm1())
            return cen + self.gauss_tail(self.K + 1)
        if Z is None:
            raise ValueError(f"upper_tail({n}) needs the normaliser Z (n <= 0)")
        return Z - self.upper_tail(1 - n)


def _profile_arb(eps: fmpq, lat: _Lattice, s: int, ks: Optional[int] = None) -> arb:
    if ks is None:
        ks = lat.kstar(eps, s)
    Z = lat.Z
    t1 = lat.upper_tail(ks, Z)
    t2 = lat.upper_tail(ks + s, Z)
    return (t1 - arb(eps).exp() * t2) / Z


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
