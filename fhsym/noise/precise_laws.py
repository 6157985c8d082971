"""Every law at any precision, written once in ball arithmetic (issue 29): the base of the precise views.

A law's view (:class:`LawAtPrecision`, made by ``law.at_precision(digits, ball=...)``) evaluates each
quantity by a formula of the law's subclass written on python-flint ``arb`` balls at the **exact**
rational values of the parameters and of the argument (a float is the binary number it denotes); the
piece of a piecewise formula is chosen by exact rational comparison, never by comparing balls.  Then:

* ``ball=True``: the ball is returned.  Its working precision starts at the requested bits plus 32 guard
  bits and doubles until the ball is ``bits`` accurate (relative) or exact, up to 16 times the start;
  every arb operation is rigorous, so the ball contains the exact value.
* ``ball=False``: the midpoint of that ball, rounded to the requested precision, as an ``mpmath.mpf``
  (relative error at most 2^-bits + the ball's relative radius, which the loop brings below 2^-bits).

Generic quantities (each law supplies the kernels ``_logpdf_q``, ``_sf_pos_q``, ``_isf_q``, ``_moment_q``,
``_entropy_q``, ``_loss_q`` and the profile plan):

* ``cdf(x) = sf(-x)``, ``ppf(q) = -isf(q)`` (every law here is symmetric), ``logsf``/``logcdf`` from
  ``sf`` (``log1p(-sf(-x))`` below the median, so that the small mass is never subtracted from 1);
* ``isf`` where a law has no closed-form inverse: a safeguarded Newton iteration on the ball midpoints for
  the number; for the ball, the bracket ``[x - r, x + r]`` around it is *proven* by the signs of the
  balls ``sf(x - r) - q > 0 > sf(x + r) - q`` (sf is non-increasing), else ``ValueError``;
* ``epsilon_for_delta``: the root of the profile (bisection, then Illinois on the midpoints), and for the
  ball the bracket proven the same way by the profile's balls (the profile is non-increasing in eps).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Callable, Optional, Tuple, Union

import mpmath
from flint import arb, ctx, fmpq

from .._core.mpfuncs import exact_fraction
from .precise import Exact, Precision, exact_parameter

__all__ = ["LawAtPrecision", "Value", "ball_of", "as_arb", "exact_argument", "exact_probability", "INF"]

#: what a kernel returns: a ball, an exact rational, or +-inf (``INF``, ``-INF``)
Value = Union[arb, Fraction, float]
INF = math.inf


def ball_of(x: Union[Fraction, int]) -> arb:
    """An exact rational as a ball at the current arb precision (exact when dyadic and short)."""
    q = Fraction(x)
    return arb(fmpq(q.numerator, q.denominator))


def as_arb(v: Value) -> arb:
    """A kernel value as a ball (an exact rational or +-inf converted at the current precision)."""
    if isinstance(v, Fraction):
        return ball_of(v)
    return arb(v) if isinstance(v, float) else v


def exact_argument(value: Exact, name: str) -> Fraction:
    """A finite real argument as an exact rational (a float or mpf is the binary number it denotes)."""
    if isinstance(value, mpmath.mpf):
        if not mpmath.isfinite(value):
            raise ValueError(f"{name} must be a finite real number in (-inf, inf); got {value!r}")
        return exact_fraction(value)
    return exact_parameter(value, name)


def exact_probability(value: Exact, name: str) -> Fraction:
    """A probability in [0, 1] as an exact rational."""
    q = exact_argument(value, name)
    if q < 0 or q > 1:
        raise ValueError(f"{name} must be a real number in [0, 1]; got {value!r}")
    return q


def _to_mpf(x: arb, bits: int) -> Any:
    """The midpoint of a ball as an mpf rounded to ``bits`` (+-inf kept)."""
    m = x.mid()
    if not m.is_finite():
        return mpmath.inf if m > 0 else -mpmath.inf
    man, exp = m.man_exp()
    with mpmath.workprec(bits):
        return mpmath.ldexp(mpmath.mpf(int(man)), int(exp))


class LawAtPrecision(Precision):
    """A noise law at any precision: numbers (``ball=False``) or certified balls (``ball=True``); see the module.

    Subclasses set the exact parameters in ``_setup`` and write the kernels on exact rationals and balls.
    """

    #: the upper end of the support (``INF`` or an exact rational): isf(0)
    _top: Union[Fraction, float] = INF

    def __init__(self, noise: Any, digits: Optional[int] = None, *, bits: Optional[int] = None, ball: bool = False) -> None:
        super().__init__(digits, bits)
        if not isinstance(ball, bool):
            raise ValueError(f"ball must be True or False; got {ball!r}")
        if getattr(noise, "_array_shape", ()):
            raise ValueError("at_precision needs scalar parameters; got a law with array parameters")
        self.noise = noise
        self.ball = ball
        self._setup()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.noise!r}, bits={self.bits}, ball={self.ball})"

    # ------------------------------------------------------------------ the evaluation policy
    def _setup(self) -> None:  # pragma: no cover - every law overrides
        raise NotImplementedError

    def _value(self, f: Callable[[], Value]) -> Any:
        """``f()`` (a ball, an exact rational or +-inf) as a ball or a number, by the policy of the module."""
        prec = self.work
        while True:
            with ctx.workprec(prec):
                v = f()
                if isinstance(v, float):  # +-inf, exact
                    x = arb(v)
                    exact_inf = True
                else:
                    x = ball_of(v) if isinstance(v, Fraction) else v
                    exact_inf = False
            if exact_inf or isinstance(v, Fraction) or x.is_exact() or \
                    (x.is_finite() and x.rel_accuracy_bits() >= self.bits) or prec >= 16 * self.work:
                break
            prec *= 2
        if self.ball:
            if isinstance(v, Fraction):
                with ctx.workprec(self.work):
                    return ball_of(v)
            return x
        if isinstance(v, Fraction):
            with mpmath.workprec(self.bits):
                return mpmath.mpf(v.numerator) / v.denominator
        return _to_mpf(x, self.bits)

    # ------------------------------------------------------------------ distribution
    def _logpdf_q(self, x: Fraction) -> Value:  # pragma: no cover - every law overrides
        raise NotImplementedError

    def _pdf_q(self, x: Fraction) -> Value:
        v = self._logpdf_q(x)
        if isinstance(v, float):
            return Fraction(0) if v < 0 else INF
        return ball_of(v).exp() if isinstance(v, Fraction) else v.exp()

    def _sf_pos_q(self, s: Fraction) -> Value:  # pragma: no cover - every law overrides
        raise NotImplementedError

    def _sf_q(self, x: Fraction) -> Value:
        if x >= 0:
            return self._sf_pos_q(x)
        v = self._sf_pos_q(-x)
        return 1 - v

    def logpdf(self, x: Exact) -> Any:
        """log of the density at x (-inf outside the support)."""
        xq = exact_argument(x, "x")
        return self._value(lambda: self._logpdf_q(xq))

    def pdf(self, x: Exact) -> Any:
        """The density at x."""
        xq = exact_argument(x, "x")
        return self._value(lambda: self._pdf_q(xq))

    def sf(self, x: Exact) -> Any:
        """P(T > x) (relative accuracy in the right tail)."""
        xq = exact_argument(x, "x")
        return self._value(lambda: self._sf_q(xq))

    def cdf(self, x: Exact) -> Any:
        """P(T <= x) = sf(-x) (the law is symmetric)."""
        xq = exact_argument(x, "x")
        return self._value(lambda: self._sf_q(-xq))

    def _logsf_q(self, x: Fraction) -> Value:
        if x >= 0:
            v = self._sf_pos_q(x)
            if isinstance(v, Fraction) and v == 0:
                return -INF
            out: arb = as_arb(v).log()
            return out
        log1p: arb = (-as_arb(self._sf_pos_q(-x))).log1p()
        return log1p

    def logsf(self, x: Exact) -> Any:
        """log P(T > x) (-inf beyond the support)."""
        xq = exact_argument(x, "x")
        return self._value(lambda: self._logsf_q(xq))

    def logcdf(self, x: Exact) -> Any:
        """log P(T <= x) = logsf(-x)."""
        xq = exact_argument(x, "x")
        return self._value(lambda: self._logsf_q(-xq))

    # ------------------------------------------------------------------ quantiles
    def _isf_q(self, q: Fraction) -> Optional[Value]:
        """isf for 0 < q <= 1/2 in closed form, or None (then the generic proven root)."""
        return None

    def _isf_half(self, q: Fraction) -> Value:
        """isf(q) for 0 < q <= 1/2."""
        if q == Fraction(1, 2):
            return Fraction(0)
        closed = self._isf_q(q)
        if closed is not None:
            return closed
        return self._isf_root(q)

    def _isf_root(self, q: Fraction) -> arb:
        """The quantile without a closed form: Newton on the ball midpoints, then a bracket proven by balls."""
        with ctx.workprec(self.work + 16):
            x = self._newton_isf(q)
        r = abs(x) * Fraction(1, 2 ** (self.bits + 4)) if x != 0 else Fraction(1, 2 ** (self.bits + 4))
        for _ in range(6):
            lo, hi = x - r, x + r
            prec = self.work
            while prec <= 16 * self.work:
                with ctx.workprec(prec):
                    a, b = as_arb(self._sf_q(lo)) - ball_of(q), as_arb(self._sf_q(hi)) - ball_of(q)
                    if a > 0 and b < 0:
                        mid, rad = (lo + hi) / 2, (hi - lo) / 2
                        return ball_of(mid) + ball_of(rad) * arb(0, 1)
                    if a <= 0 or b >= 0:
                        break
                prec *= 2
            r *= 2**16
        raise ValueError(f"isf({q}) could not be enclosed rigorously (no proven bracket around the root)")

    def _newton_isf(self, q: Fraction) -> Fraction:
        """x with sf(x) = q: Newton steps on exact dyadic points, kept inside a bracket [lo, hi] (bisection else)."""
        def sf(x: Fraction) -> Fraction:
            """sf(x) as the midpoint of a ball accurate to bits + 8 (the precision raised as in ``_value``: a far
            tail's ball, e.g. an incomplete gamma function at 1e-40, can lose 140 bits at the working precision)."""
            prec = ctx.prec
            while True:
                with ctx.workprec(prec):
                    v = self._sf_q(x)
                if isinstance(v, Fraction):
                    return v
                b = as_arb(v)
                if b.rel_accuracy_bits() >= self.bits + 8 or prec >= 16 * self.work:
                    return exact_fraction(_to_mpf(b, prec))
                prec *= 2

        def dens(x: Fraction) -> Fraction:
            v = self._pdf_q(x)
            return v if isinstance(v, Fraction) else exact_fraction(_to_mpf(as_arb(v), ctx.prec))

        lo, hi = Fraction(0), Fraction(1)
        while sf(hi) > q:
            lo, hi = hi, 2 * hi
        x = (lo + hi) / 2
        tol = Fraction(1, 2 ** (self.bits + 8))
        for _ in range(4 * self.work):
            fx = sf(x) - q
            if fx == 0:
                return x
            if fx > 0:
                lo = x
            else:
                hi = x
            g = dens(x)
            nx = x + fx / g if g > 0 else (lo + hi) / 2
            if not lo < nx < hi:
                nx = (lo + hi) / 2
            nx = _dyadic(nx, ctx.prec)
            if abs(nx - x) <= tol * max(abs(x), tol) or hi - lo <= tol * max(abs(lo), tol):
                return nx
            x = nx
        return x

    def isf(self, q: Exact) -> Any:
        """The x with P(T > x) = q, q in [0, 1] (the ends of the support at q = 0 and 1)."""
        qq = exact_probability(q, "q")
        return self._value(lambda: self._isf_any(qq))

    def _isf_any(self, q: Fraction) -> Value:
        top = self._top
        if q == 0:
            return top
        if q == 1:
            return -top if isinstance(top, Fraction) else -INF
        if q <= Fraction(1, 2):
            return self._isf_half(q)
        v = self._isf_half(1 - q)
        return -v

    def ppf(self, q: Exact) -> Any:
        """The x with P(T <= x) = q, q in [0, 1]: -isf(q) by symmetry."""
        qq = exact_probability(q, "q")
        return self._value(lambda: self._neg(self._isf_any(qq)))

    @staticmethod
    def _neg(v: Value) -> Value:
        return -v

    # ------------------------------------------------------------------ moments
    def _moment_q(self, n: int) -> Value:  # pragma: no cover - every law overrides
        raise NotImplementedError

    def moment(self, n: int) -> Any:
        """E[T^n] for an integer n >= 0 (0 for odd n: the law is symmetric)."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"n must be an integer in [0, inf); got {n!r}")
        if n == 0:
            return self._value(lambda: Fraction(1))
        if n % 2:
            return self._value(lambda: Fraction(0))
        return self._value(lambda: self._moment_q(n))

    def mean(self) -> Any:
        """E[T] = 0 (symmetric law)."""
        return self._value(lambda: Fraction(0))

    def var(self) -> Any:
        """Var(T) = E[T^2]."""
        return self._value(lambda: self._moment_q(2))

    def std(self) -> Any:
        """sqrt(Var(T))."""
        def f() -> Value:
            out: arb = as_arb(self._moment_q(2)).sqrt()
            return out
        return self._value(f)

    def _entropy_q(self) -> Value:  # pragma: no cover - every law overrides
        raise NotImplementedError

    def entropy(self) -> Any:
        """The differential entropy -E[log g(T)] in nats."""
        return self._value(self._entropy_q)

    # ------------------------------------------------------------------ privacy
    def _loss_q(self, t: Fraction, d: Fraction) -> Value:
        """log g(t) - log g(t + d); +-inf where one side has no density, 0 where neither has (the laws' convention)."""
        a, b = self._logpdf_q(t), self._logpdf_q(t + d)
        if isinstance(a, float) or isinstance(b, float):
            if isinstance(a, float) and isinstance(b, float):
                return Fraction(0)
            return -INF if isinstance(a, float) else INF
        out: arb = as_arb(a) - as_arb(b)
        return out

    def privacy_loss(self, t: Exact, d: Exact) -> Any:
        """zeta_d(t) = log g(t)/g(t + d) (0 at d = 0)."""
        tq, dq = exact_argument(t, "t"), exact_argument(d, "d")
        return self._value(lambda: Fraction(0) if dq == 0 else self._loss_q(tq, dq))

    def centered_privacy_loss(self, t: Exact, d: Exact) -> Any:
        """zeta~_d(t) = zeta_d(t - d/2)."""
        tq, dq = exact_argument(t, "t"), exact_argument(d, "d")
        return self._value(lambda: Fraction(0) if dq == 0 else self._loss_q(tq - dq / 2, dq))

    def _profile_q(self, eps: Fraction, sens: Fraction) -> arb:
        """A ball containing delta(eps) at the current precision: the law's arb plan (fhsym._core.arb)."""
        evaluate, plan, _ = self.noise._arb_plan(fmpq(eps.numerator, eps.denominator),
                                                 fmpq(sens.numerator, sens.denominator))
        boost = int(getattr(plan, "boost", 16)) if plan is not None else 16
        with ctx.workprec(ctx.prec + boost):
            out: arb = evaluate(plan, ctx.prec - boost)
        return out

    def _profile_args(self, epsilon: Exact, sensitivity: Exact) -> Tuple[Fraction, Fraction]:
        return (exact_parameter(epsilon, "epsilon", Fraction(0), False),
                exact_parameter(sensitivity, "sensitivity", Fraction(0), True))

    def privacy_profile(self, epsilon: Exact, sensitivity: Exact = 1.0) -> Any:
        """delta(eps) = int [g(t) - e^eps g(t + Delta)]_+ dt at the exact eps and Delta."""
        e, dl = self._profile_args(epsilon, sensitivity)
        return self._value(lambda: self._profile_q(e, dl))

    def log_privacy_profile(self, epsilon: Exact, sensitivity: Exact = 1.0) -> Any:
        """log delta(eps) (-inf where delta = 0)."""
        e, dl = self._profile_args(epsilon, sensitivity)

        def f() -> Value:
            d = self._profile_q(e, dl)
            if d.is_exact() and d == 0:
                return -INF
            return d.log()
        return self._value(f)

    def epsilon_for_delta(self, delta: Exact, sensitivity: Exact = 1.0) -> Any:
        """The eps >= 0 with delta(eps) = delta (0 where delta >= delta(0)); the ball is a proven bracket."""
        dv = exact_parameter(delta, "delta", Fraction(0), True)
        if dv >= 1:
            raise ValueError(f"delta must be a real number in (0, 1); got {delta!r}")
        dl = exact_parameter(sensitivity, "sensitivity", Fraction(0), True)

        def g(e: Fraction) -> arb:
            prec = self.work
            while True:
                with ctx.workprec(prec):
                    v = self._profile_q(e, dl) - ball_of(dv)
                if not v.contains(0) or prec >= 16 * self.work:
                    return v
                prec *= 2

        def mid(e: Fraction) -> Fraction:
            return exact_fraction(_to_mpf(g(e), self.work))

        if g(Fraction(0)) <= 0:
            return self._value(lambda: Fraction(0))
        lo, hi = Fraction(0), Fraction(1)
        while mid(hi) > 0:
            if hi >= 2**12:
                raise ValueError(f"delta={delta!r} is below delta(eps) for every eps in [0, 4096] (the mass of an "
                                 "infinite privacy loss, or a law too wide for this sensitivity): no epsilon meets it")
            lo, hi = hi, 2 * hi
        tol = Fraction(1, 2 ** (self.bits + 6))
        side = 0
        flo, fhi = mid(lo), mid(hi)
        while hi - lo > tol * hi:  # Illinois (regula falsi with halving) on the midpoints, bisection when stalled
            x = _dyadic((lo * fhi - hi * flo) / (fhi - flo), self.work) if fhi != flo else (lo + hi) / 2
            if not lo < x < hi:
                x = (lo + hi) / 2
            fx = mid(x)
            if fx == 0:
                lo = hi = x
                break
            if fx > 0:
                lo, flo = x, fx
                if side == 1:
                    fhi /= 2
                side = 1
            else:
                hi, fhi = x, fx
                if side == -1:
                    flo /= 2
                side = -1
        if not self.ball:
            with mpmath.workprec(self.bits):
                return mpmath.mpf(((lo + hi) / 2).numerator) / ((lo + hi) / 2).denominator
        r = max(hi - lo, tol * hi)
        for _ in range(6):
            a, b = max(Fraction(0), lo - r), hi + r
            if (a == 0 or g(a) > 0) and g(b) < 0:
                with ctx.workprec(self.work):
                    return ball_of((a + b) / 2) + ball_of((b - a) / 2) * arb(0, 1)
            r *= 2**16
        raise ValueError(f"epsilon_for_delta({delta!r}) could not be enclosed rigorously (no proven bracket)")


def _dyadic(x: Fraction, prec: int) -> Fraction:
    """x rounded to a dyadic rational of about ``prec`` significant bits (keeps exact arithmetic cheap)."""
    if x == 0 or (x.denominator & (x.denominator - 1)) == 0 and x.numerator.bit_length() <= prec + 64:
        return x
    e = prec - (abs(x.numerator).bit_length() - x.denominator.bit_length())
    n = (x.numerator * 2**e) // x.denominator if e >= 0 else x.numerator // (x.denominator * 2**(-e))
    return Fraction(n, 2**e) if e >= 0 else Fraction(n * 2**(-e))
