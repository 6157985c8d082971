"""Certified privacy profile of the discrete flipped Huber mechanism (arb ball arithmetic).

For noise on the lattice h*Z with pmf p(k) ~ exp(-E(k)), E(k) = rho_alpha(k h)/gamma^2, and a
sensitivity of S steps, the exact profile is (:func:`fhsym.symbolic.discrete.profile`)

    delta(eps) = sum_k [p(k) - e^eps p(k + S)]_+ = (T(k*) - e^eps T(k* + S)) / Z,
    k* = min{k : E(k + S) - E(k) > eps},   T(k) = sum_{n >= k} e^{-E(n)},   Z = 1 + 2 T(1).

Everything is evaluated at the exact binary values of (eps, alpha, gamma, h):

* k* exactly, with rational arithmetic (E is a rational function of the inputs; the loss is
  non-decreasing because E is convex, :func:`fhsym.symbolic.discrete.convexity_gaps`);
* the geometric centre sums in closed form in arb;
* the discrete Gaussian tails sum_{n >= m} e^{-c^2 n^2/2} either as a finite arb sum plus the
  rigorous geometric bound :func:`fhsym.symbolic.discrete.truncation_bound` on the rest
  (c > 1/20 or c^2 m > 1: a few hundred terms), or by Euler-Maclaurin with twenty corrections
  plus the rigorous remainder bound :func:`fhsym.symbolic.discrete.em_remainder_bound`;
* at 128 bits first, doubling the precision until the ball of delta is 2^-60 relative
  (cancellation next to eps = L(k) only costs precision, never correctness) or until doubling
  stops narrowing it (the width is then that of the proven bounds).

No float kernel is involved.  The returned floats are rounded outward.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Tuple

from flint import arb, ctx, fmpq

from .._core import domains as V

__all__ = ["discrete_profile_enclosure"]

_EM_Q = 20
_BERN = [fmpq(0)] + [fmpq.bernoulli(2 * q) / fmpq(math.factorial(2 * q)) for q in range(1, _EM_Q + 1)]  # B_2q/(2q)!
_START_PREC = 128
_MAX_PREC = 8192
_REL_BITS = 60


def _q(x: float) -> fmpq:
    n, d = Fraction(x).as_integer_ratio()
    return fmpq(n, d)


def _fraction(x: arb) -> Fraction:
    m, e = x.man_exp()
    m, e = int(m), int(e)
    return Fraction(m * 2**e) if e >= 0 else Fraction(m, 2 ** (-e))


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

    def energy(self, n: int) -> fmpq:
        n = abs(n)
        return self.lam * n if n <= self.K else self.c2h * n * n + self.b2h

    def loss(self, k: int, s: int) -> fmpq:
        return self.energy(k + s) - self.energy(k)

    def kstar(self, eps: fmpq, s: int) -> int:
        lo, hi = -(s // 2) - 1, max(self.K + 1, 1)
        while self.loss(hi, s) <= eps:
            hi = 2 * hi + 1
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if self.loss(mid, s) > eps:
                hi = mid
            else:
                lo = mid
        return hi

    # -- sums (arb) -----------------------------------------------------------
    def gauss_tail(self, m: int) -> arb:
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

    def _em_tail(self, m: int) -> arb:
        """Euler-Maclaurin for sum_{n >= m} e^{-c^2 n^2/2} with its rigorous remainder (em_theta, em_remainder_bound)."""
        c = self.c
        u = c * m
        g = (-(u * u) / 2).exp()
        main = (arb.pi() / 2).sqrt() * (u / arb(2).sqrt()).erfc() / c
        he = [arb(1), u]
        for q in range(1, 2 * _EM_Q + 1):
            he.append(u * he[q] - q * he[q - 1])
        corr = arb(fmpq(1, 2))
        c2 = c * c
        cp = c  # c^(2q-1)
        for q in range(1, _EM_Q + 1):
            corr += arb(_BERN[q]) * cp * he[2 * q - 1]
            cp *= c2
        Q = _EM_Q
        coef = abs(arb(_BERN[Q]))
        if u >= arb(8 * Q + 10).sqrt():  # past every zero of He_2Q: the integral of |f^(2Q)| is exact
            rem = coef * c ** (2 * Q - 1) * he[2 * Q - 1] * g
        else:  # Cauchy-Schwarz over the real line
            rem = coef * c ** (2 * Q - 1) * (2 * arb.pi() * arb.fac_ui(2 * Q)).sqrt()
        return main + g * corr + rem * arb(0, 1)

    def upper_tail(self, n: int, Z: arb = None) -> arb:
        """T(n) = sum_{j >= n} e^{-E(j)} for any integer n (n <= 0 needs Z)."""
        if n >= self.K + 1:
            return self.gauss_tail(n)
        if n >= 1:
            lam = arb(self.lam)
            cen = (-lam * n).exp() * (-(-lam * (self.K - n + 1)).expm1()) / (-(-lam).expm1())
            return cen + self.gauss_tail(self.K + 1)
        return Z - self.upper_tail(1 - n)


def _profile_arb(eps: fmpq, lat: _Lattice, s: int) -> arb:
    ks = lat.kstar(eps, s)
    Z = 1 + 2 * lat.upper_tail(1)
    t1 = lat.upper_tail(ks, Z)
    t2 = lat.upper_tail(ks + s, Z)
    return (t1 - arb(eps).exp() * t2) / Z


def _enclosure_arb(epsilon: float, alpha: float, gamma: float, step: float, s: int) -> arb:
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


def _enclosure_steps(epsilon: float, alpha: float, gamma: float, step: float, s: int, log: bool = False) -> Tuple[float, float]:
    d = _enclosure_arb(epsilon, alpha, gamma, step, s)
    return _log_ends(d) if log else _ends(d)


def discrete_profile_enclosure(
    epsilon: float, alpha: float, gamma: float, step: float, sensitivity: float = 1.0, log: bool = False
) -> Tuple[float, float]:
    """Certified (lower, upper) floats enclosing the discrete flipped Huber profile delta(eps).

    delta(eps) = (T(k*) - e^eps T(k* + S))/Z (:func:`fhsym.symbolic.discrete.profile`) for the
    mechanism that adds DiscreteFlippedHuber(alpha, gamma, step) noise to a lattice-valued
    query of sensitivity ``sensitivity`` = S * step (S an integer; see
    :func:`fhsym.noise.discrete_flipped_huber.lattice_sensitivity`).  python-flint ``arb``
    balls at the exact binary inputs; tails by finite sums plus rigorous truncation bounds or
    Euler-Maclaurin plus its rigorous remainder; the ball is refined to 2^-60 relative width.
    The floats are rounded outward (lower down, upper up); ``log=True`` returns the logs
    (also rounded outward), finite where delta underflows.

    Examples
    --------
    >>> lo, hi = discrete_profile_enclosure(1.0, alpha=1.0, gamma=2.0, step=0.25)
    >>> 0 < lo <= hi and (hi - lo) < 1e-15 * hi
    True
    >>> lo, hi = discrete_profile_enclosure(300.0, 1.0, 1.0, 0.5, log=True)   # delta ~ e^-45000
    >>> -50000 < lo <= hi < -40000
    True
    """
    from ..noise.discrete_flipped_huber import STEP, lattice_sensitivity

    eps = V.check_scalar(epsilon, V.EPSILON)
    a = V.check_scalar(alpha, V.ALPHA)
    g = V.check_scalar(gamma, V.GAMMA)
    h = V.check_scalar(step, STEP)
    s = lattice_sensitivity(sensitivity, h)
    if not isinstance(log, bool):
        raise ValueError(f"log must be True or False; got {log!r}")
    return _enclosure_steps(eps, a, g, h, s, log)
