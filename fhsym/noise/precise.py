"""Flipped Huber at any precision: mpmath numbers and certified arb balls (issue 29).

``FlippedHuber(alpha, gamma).at_precision(digits)`` returns a :class:`PreciseFlippedHuber`, whose
methods return ``mpmath.mpf`` numbers carrying ``digits`` significant decimal digits;
``at_precision(digits, ball=True)`` returns a :class:`BallFlippedHuber`, whose methods return
python-flint ``arb`` balls (a midpoint and a rigorous radius: the exact value lies in the ball).

Precision is in **decimal significant digits** (as mpmath's ``mp.dps``); ``bits=`` gives binary
digits instead.  Every evaluation runs at the requested precision plus 32 guard bits
(:data:`fhsym._core.mpfuncs.GUARD_BITS`; more where a formula cancels, e.g. ``log_mgf`` near 0)
and is rounded to the requested precision.  The parameters are taken at their **exact** values:
a float parameter of a ``FlippedHuber`` is the binary number it denotes (so the numbers describe
the noise actually drawn); the constructor of :class:`PreciseFlippedHuber` also takes ints,
``fractions.Fraction`` s and decimal strings (``"0.1"`` is exactly 1/10), converted once to the
working precision.

What is evaluated: the kernels and region dispatch generated from the stable SymPy forms
(``fhsym._generated.mp_kernels``, ``mp_pieces``; ``python -m fhsym.codegen --target mpmath``),
the same declarations as the double-precision modules, without their Laplace-limit forms.

Accuracy (measured by ``tests/test_precise.py`` against mpmath quadrature of the *definitions*
at 100 and 300 digits): relative error below ``10**-(digits - 3)`` for pdf, logpdf, cdf, sf,
logsf, variance, Fisher information, NFI, moments, entropy and the privacy profile over
alpha/gamma in [1e-6, 1e4] and far tails; ppf/isf and epsilon_for_delta are inverses of those
and as accurate (relative to the result, absolute near its zero); log_mgf relative unless
``|gamma s|`` is below ``10**-digits``.  Balls are rigorous: the ball of :class:`BallFlippedHuber`
contains the exact value, and its precision is raised until the radius is below
``10**-digits`` relative (or 16x the requested bits are reached).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Callable, Optional, Tuple, Union

import mpmath
from flint import arb, ctx, fmpq

from .plans.flipped_huber import fh_eval, fh_plan
from .._core.arb.special import ARB, as_ball
from .._core.mpfuncs import EXACT, GUARD_BITS, MP, exact_fraction, to_mpf
from .._core.sensitivities import resolve_sensitivities
from .._generated import mp_kernels as MK
from .._generated import mp_pieces as MPP

__all__ = ["Exact", "Precision", "PreciseFlippedHuber", "BallFlippedHuber", "precision_bits", "exact_parameter",
           "proven_root_ball"]

#: a parameter or argument taken exactly: float, int, Fraction, decimal string or mpf
Exact = Union[float, int, Fraction, str, Any]


def precision_bits(digits: Optional[int], bits: Optional[int]) -> int:
    """Binary precision of ``digits`` decimal digits (ceil(digits log2 10)) or ``bits``; exactly one is given."""
    if (digits is None) == (bits is None):
        raise ValueError(f"give exactly one of digits and bits; got digits={digits!r}, bits={bits!r}")
    if digits is not None:
        if isinstance(digits, bool) or not isinstance(digits, int) or not 1 <= digits <= 100_000:
            raise ValueError(f"digits must be an integer in [1, 100000]; got {digits!r}")
        return int(math.ceil(digits * math.log2(10)))
    if isinstance(bits, bool) or not isinstance(bits, int) or not 4 <= bits <= 400_000:
        raise ValueError(f"bits must be an integer in [4, 400000]; got {bits!r}")
    return bits


def exact_parameter(value: Exact, name: str, low: Optional[Fraction] = None, low_open: bool = False) -> Fraction:
    """``value`` as an exact rational, checked to be finite and in (low, inf) or [low, inf) (``None``: any
    finite number); ValueError naming ``name`` and the range otherwise."""
    rng = "(-inf, inf)" if low is None else f"{'(' if low_open else '['}{low}, inf)"
    try:
        if isinstance(value, bool):
            raise TypeError
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError
        q = Fraction(value.strip()) if isinstance(value, str) else exact_fraction(value)
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        raise ValueError(f"{name} must be a finite real number in {rng}; got {value!r}") from None
    if low is not None and (q < low or (low_open and q == low)):
        raise ValueError(f"{name} must be a finite real number in {rng}; got {value!r}")
    return q


def proven_root_ball(f: Callable[[Fraction], arb], x: Fraction, target: Fraction, bits: int) -> arb:
    """A ball around ``x`` proven to contain the crossing of a non-increasing ``f`` with ``target``.

    The bracket [x - r, x + r] (r = 2^-(bits+4) |x|, widened by 2^16 up to five times) is accepted when the balls
    give f(x - r) > target > f(x + r); ValueError when no bracket can be proven (never an unproven ball)."""
    r = abs(x) / 2 ** (bits + 4) if x != 0 else Fraction(1, 2 ** (bits + 4))
    t = arb(fmpq(target.numerator, target.denominator))
    for _ in range(6):
        lo, hi = x - r, x + r
        if f(lo) > t and f(hi) < t:
            mid, rad = (lo + hi) / 2, (hi - lo) / 2
            return arb(fmpq(mid.numerator, mid.denominator)) + arb(fmpq(rad.numerator, rad.denominator)) * arb(0, 1)
        r *= 2**16
    raise ValueError("the root could not be enclosed rigorously (no bracket proven by ball signs)")


def _argument(value: Exact, name: str) -> Any:
    """A finite real argument: an mpf as it stands (its exact rational may have a huge denominator), else exact."""
    if isinstance(value, mpmath.mpf):
        if not mpmath.isfinite(value):
            raise ValueError(f"{name} must be a finite real number in (-inf, inf); got {value!r}")
        return value
    return exact_parameter(value, name)


def _probability(value: Exact, name: str) -> Any:
    q = _argument(value, name)
    if q < 0 or q > 1:
        raise ValueError(f"{name} must be a real number in [0, 1]; got {value!r}")
    return q


class Precision:
    """The precision shared by the precise laws: ``bits`` requested, ``work`` = bits + guard bits."""

    def __init__(self, digits: Optional[int], bits: Optional[int]) -> None:
        self.bits = precision_bits(digits, bits)
        self.work = self.bits + GUARD_BITS

    @property
    def digits(self) -> int:
        """The requested precision in decimal digits (floor(bits log10 2))."""
        return int(self.bits * math.log10(2))

    def _run(self, f: Callable[[], Any], extra: int = 0) -> Any:
        """``f()`` at the working precision (plus ``extra`` bits), rounded to the requested precision."""
        with mpmath.workprec(self.work + extra):
            v = f()
        with mpmath.workprec(self.bits):
            return +v if isinstance(v, mpmath.mpf) or isinstance(v, int) else v


class PreciseFlippedHuber(Precision):
    """FH(alpha, gamma^2) at any precision: every method returns an ``mpmath.mpf`` (see the module docstring).

    >>> import fhsym, mpmath
    >>> p = fhsym.FlippedHuber(alpha=1.0, gamma=2.0).at_precision(40)
    >>> mpmath.nstr(p.sf(3.0), 40)                      # print with nstr: repr uses mpmath's global dps
    '0.06568677653556169139353602335073760923804'
    >>> mpmath.nstr(p.privacy_profile(0.5, sensitivity=1.0), 40)
    '0.05156084571462917010461241696264501082664'
    >>> mpmath.nstr(PreciseFlippedHuber("0.1", 1, 30).var(), 30)   # exact decimal parameters
    '0.999867036606700274840482639034'
    """

    def __init__(self, alpha: Exact, gamma: Exact, digits: Optional[int] = None, *, bits: Optional[int] = None) -> None:
        super().__init__(digits, bits)
        self.alpha = exact_parameter(alpha, "alpha", Fraction(0), False)
        self.gamma = exact_parameter(gamma, "gamma", Fraction(0), True)
        with mpmath.workprec(self.work):
            self._g = to_mpf(self.gamma)
            self._b = to_mpf(self.alpha) / self._g
            self._lw = MK.log_omega_tilde(self._b)
            self._p_tail = MK.tail_mass(self._b, self._lw)
            q = mpmath.mpf(1) / 4
            self._s_q = MPP.isf_std(self._b, q, q, self._lw, self._p_tail, 0)

    def __repr__(self) -> str:
        return f"PreciseFlippedHuber(alpha={self.alpha}, gamma={self.gamma}, bits={self.bits})"

    # -------------------------------------------------------------- distribution
    def _s(self, x: Exact) -> Any:
        return to_mpf(_argument(x, "x")) / self._g

    def logpdf(self, x: Exact) -> Any:
        """log g(x) (eq 8, 9): ``logpdf_std(b, |x|/gamma, lw) - log gamma``."""
        return self._run(lambda: MPP.logpdf_std(self._b, abs(self._s(x)), self._lw) - mpmath.log(self._g))

    def pdf(self, x: Exact) -> Any:
        """g(x) = exp(-rho_alpha(x)/gamma^2)/kappa (eq 7-9)."""
        return self._run(lambda: mpmath.exp(MPP.logpdf_std(self._b, abs(self._s(x)), self._lw)) / self._g)

    def _sf_nonneg(self, s: Any) -> Any:
        return MPP.sf_std_nonneg(self._b, s, self._lw, self._s_q)

    def sf(self, x: Exact) -> Any:
        """P(T > x) (1 - eq 10), relative accuracy far into the right tail."""
        def f() -> Any:
            s = self._s(x)
            return self._sf_nonneg(s) if s >= 0 else 1 - self._sf_nonneg(-s)
        return self._run(f)

    def cdf(self, x: Exact) -> Any:
        """P(T <= x) (eq 10) = sf(-x)."""
        return self.sf(-_argument(x, "x"))

    def logsf(self, x: Exact) -> Any:
        """log P(T > x), finite for every finite x."""
        def f() -> Any:
            s = self._s(x)
            if s >= 0:
                return MPP.logsf_std_nonneg(self._b, s, self._lw, self._s_q)
            return mpmath.log1p(-self._sf_nonneg(-s))
        return self._run(f)

    def logcdf(self, x: Exact) -> Any:
        """log P(T <= x) = logsf(-x)."""
        return self.logsf(-_argument(x, "x"))

    def isf(self, q: Exact) -> Any:
        """x with P(T > x) = q, q in [0, 1] (+-inf at the ends)."""
        qq = _probability(q, "q")

        def f() -> Any:
            if qq == 0:
                return mpmath.inf
            if qq == 1:
                return -mpmath.inf
            half = mpmath.mpf(1) / 2
            q = to_mpf(qq)
            p, sign = (q, 1) if q <= half else (1 - q, -1)
            # h = 1/2 - p exactly where the near-median forms use it (p >= 1/4: no long mantissa)
            h = mpmath.fsub(half, p, exact=True) if p >= half / 2 else half - p
            s = MPP.isf_std(self._b, p, h, self._lw, self._p_tail, 0)
            return sign * self._g * s
        return self._run(f)

    def ppf(self, q: Exact) -> Any:
        """x with P(T <= x) = q, q in [0, 1] (the quantile; ``-isf(q)`` by symmetry)."""
        return -self.isf(q)

    # -------------------------------------------------------------- moments and information
    def var(self) -> Any:
        """Var(T) (eq 11), for every alpha/gamma (no Laplace-limit form needed)."""
        return self._run(lambda: self._g**2 * MK.variance_std(self._b, self._lw))

    def std(self) -> Any:
        """sqrt(Var(T))."""
        return self._run(lambda: mpmath.sqrt(self._g**2 * MK.variance_std(self._b, self._lw)))

    def moment(self, n: int) -> Any:
        """E[T^n] for an integer n >= 0 (0 for odd n: the law is symmetric)."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"n must be an integer in [0, inf); got {n!r}")
        if n == 0:
            return self._run(lambda: mpmath.mpf(1))
        if n % 2:
            return self._run(lambda: mpmath.mpf(0))
        return self._run(lambda: self._g**n * MK.moment_std(n, self._b, self._lw))

    def fisher_information(self) -> Any:
        """I(T) (eq 12) = fisher_std(b)/gamma^2."""
        return self._run(lambda: MK.fisher_std(self._b, self._lw) / self._g**2)

    def nfi(self) -> Any:
        """Var(T) I(T), scale free (Sec II-D)."""
        return self._run(lambda: MK.nfi_std(self._b, self._lw))

    def log_kappa(self) -> Any:
        """log kappa (eq 9), the log of the normaliser: lw + log gamma."""
        return self._run(lambda: self._lw + mpmath.log(self._g))

    def tail_mass(self) -> Any:
        """P(T > alpha), the mass of one Gaussian tail."""
        return self._run(lambda: self._p_tail)

    def log_mgf(self, s: Exact) -> Any:
        """log E[exp(s T)] (Sec III-B2): logaddexp of the two halves log E(b +- gamma s), minus lw.

        Near s = 0 the halves (each of size ~|lw|) cancel to ~(gamma s)^2 Var_std/2: the precision is raised by the
        bits lost (Var_std ~ 2/b^2 for large b: at b = 1e4 and s = 1e-20 that is 27 bits beyond those of s^2)."""
        sv = _argument(s, "s")
        u = sv * self.gamma
        extra = 0
        if u != 0:
            with mpmath.workprec(64):
                lost = (1 + abs(self._lw)) / (to_mpf(u) ** 2 * MK.variance_std(self._b, self._lw) / 2)
                extra = max(0, int(mpmath.ceil(mpmath.log(lost, 2))) + 8)

        def f() -> Any:
            if u == 0:
                return mpmath.mpf(0)
            um = to_mpf(u)
            b = to_mpf(self.alpha) / to_mpf(self.gamma)  # b and lw again at the raised precision (they cancel too)
            return MP.logaddexp(MPP.log_mgf_half(b, b + um), MPP.log_mgf_half(b, b - um)) - MK.log_omega_tilde(b)
        return self._run(f, extra)

    def mgf(self, s: Exact) -> Any:
        """E[exp(s T)] = exp(log_mgf(s)) (no overflow: mpmath's exponents are unbounded)."""
        lm = self.log_mgf(s)
        with mpmath.workprec(self.bits):
            return mpmath.exp(lm)

    def entropy(self) -> Any:
        """Differential entropy h(T) = log kappa + E[rho_alpha(T)]/gamma^2 (nats): the generated ``entropy_std``
        (:data:`fhsym.symbolic.entropy.ENTROPY_STD`, a sum of positive terms) + log gamma."""
        return self._run(lambda: MK.entropy_std(self._b, self._lw) + mpmath.log(self._g))

    # -------------------------------------------------------------- privacy
    def privacy_loss(self, t: Exact, d: Exact) -> Any:
        """zeta_d(t) = log g(t)/g(t + d) (Sec II-C1) = rho_b(s + D) - rho_b(s) in standard units."""
        tv, dv = _argument(t, "t"), _argument(d, "d")
        if dv < 0:
            tv, dv = -tv, -dv

        def f() -> Any:
            return MPP.loss_std(self._b, to_mpf(dv) / self._g, to_mpf(tv) / self._g)
        return self._run(f)

    def log_privacy_profile(self, epsilon: Exact, sensitivity: Exact = 1.0) -> Any:
        """log delta(eps) (eq 13, Table I's five cases); -inf where delta = 0."""
        e = exact_parameter(epsilon, "epsilon", Fraction(0), False)
        dl = exact_parameter(sensitivity, "sensitivity", Fraction(0), True)
        return self._run(lambda: MPP.log_profile_std(self._b, to_mpf(dl) / self._g, to_mpf(e), self._lw))

    def privacy_profile(self, epsilon: Exact, sensitivity: Exact = 1.0) -> Any:
        """delta(eps) = int [g(t) - e^eps g(t + Delta)]_+ dt (eq 13, 16)."""
        lp = self.log_privacy_profile(epsilon, sensitivity)
        with mpmath.workprec(self.bits):
            return mpmath.exp(lp)

    def epsilon_for_delta(self, delta: Exact, sensitivity: Exact = 1.0) -> Any:
        """The eps >= 0 with delta(eps) = delta (0 where delta >= delta(0)), by a bracketing root of
        log delta(eps) - log delta at the working precision (delta(eps) is continuous and decreasing)."""
        dv = exact_parameter(delta, "delta", Fraction(0), True)
        if dv >= 1:
            raise ValueError(f"delta must be a real number in (0, 1); got {delta!r}")
        dl = exact_parameter(sensitivity, "sensitivity", Fraction(0), True)

        def f() -> Any:
            D = to_mpf(dl) / self._g
            target = mpmath.log(to_mpf(dv))

            def g(e: Any) -> Any:
                return MPP.log_profile_std(self._b, D, e, self._lw) - target
            if g(mpmath.mpf(0)) <= 0:
                return mpmath.mpf(0)
            lo, hi = mpmath.mpf(0), mpmath.mpf(1)
            while g(hi) > 0:
                lo, hi = hi, 2 * hi
            tol = mpmath.mpf(2) ** (-mpmath.mp.prec + 8)
            for _ in range(4 * mpmath.mp.prec):  # bisection to a few ulps, then a secant polish
                if hi - lo <= tol * hi:
                    break
                mid = (lo + hi) / 2
                if g(mid) > 0:
                    lo = mid
                else:
                    hi = mid
            return mpmath.findroot(g, (lo, hi), solver="anderson", tol=tol**2) if hi > lo else hi
        return self._run(f, 16)

    # -------------------------------------------------------------- K dimensions and zCDP
    def _kdim(self, dim: int, sensitivity: Optional[float], l2_sensitivity: Optional[float],
              l1_sensitivity: Optional[float]) -> Tuple[int, Any, Any, Any, Any]:
        K, D, D2, D1 = resolve_sensitivities(dim, sensitivity, l2_sensitivity, l1_sensitivity)
        R = MPP.R_Delta(to_mpf(self.alpha), mpmath.mpf(D))
        return K, mpmath.mpf(D), mpmath.mpf(D2), mpmath.mpf(D1), R

    def theorem8_lhs(self, epsilon: Exact, dim: int, sensitivity: Optional[float] = None,
                     l2_sensitivity: Optional[float] = None, l1_sensitivity: Optional[float] = None) -> Any:
        """Theorem 8's left-hand side (the K-dimensional sufficient condition: (eps, delta)-DP when it is <= delta),
        Q(A) - e^eps Q(B) with A, B of Lemmas 5 and 7, computed in log space and returned as a number."""
        e = exact_parameter(epsilon, "epsilon", Fraction(0), False)

        def f() -> Any:
            K, D, D2, D1, R = self._kdim(dim, sensitivity, l2_sensitivity, l1_sensitivity)
            ev = to_mpf(e)
            th = MK.theta_std(self._b, self._lw)
            A = MPP.lemma5_arg(ev, self._g, K, R, D2)
            B = MPP.lemma7_arg(ev, self._g, K, R, D2, D1, th)
            return mpmath.exp(MPP.log_theorem8_lhs(A, B, ev))
        return self._run(f)

    def zcdp(self, sensitivity: Optional[float] = 1.0, dim: int = 1, l2_sensitivity: Optional[float] = None,
             l1_sensitivity: Optional[float] = None) -> Tuple[Any, Any]:
        """(xi, eta)-zCDP parameters (K R_Delta(alpha)/(2 gamma^2), Delta_2^2/(2 gamma^2))."""
        def f() -> Any:
            K, _, D2, _, R = self._kdim(dim, sensitivity, l2_sensitivity, l1_sensitivity)
            return MPP.zcdp_xi(K, R, self._g), MPP.zcdp_eta(D2, self._g)
        xi, eta = self._run(f)
        with mpmath.workprec(self.bits):
            return +xi, +eta


class BallFlippedHuber(Precision):
    """FH(alpha, gamma^2) in ball arithmetic: every method returns a ``flint.arb`` ball containing the exact value.

    The parameters are exact rationals; the piece of a piecewise function is chosen by exact comparison
    (fhsym._core.mpfuncs.EXACT) and its generated kernel evaluated on balls (fhsym._core.arb.special.ARB);
    the privacy profile is fhsym._core.arb's enclosure (exact crossing point, Table I's case decided in Q).

    >>> import fhsym
    >>> ball = fhsym.FlippedHuber(alpha=1.0, gamma=2.0).at_precision(30, ball=True)
    >>> ball.sf(3.0).str(30)                            # str(n): arb's repr uses flint's global precision
    '[0.0656867765355616913935360233507 +/- 3.77e-32]'
    """

    def __init__(self, alpha: Exact, gamma: Exact, digits: Optional[int] = None, *, bits: Optional[int] = None) -> None:
        super().__init__(digits, bits)
        self.alpha = exact_parameter(alpha, "alpha", Fraction(0), False)
        self.gamma = exact_parameter(gamma, "gamma", Fraction(0), True)
        self._bq = self.alpha / self.gamma
        with mpmath.workprec(64):  # the dispatch threshold s_q (any value selects a valid form)
            self._s_q = exact_fraction(PreciseFlippedHuber(self.alpha, self.gamma, bits=53)._s_q)

    def __repr__(self) -> str:
        return f"BallFlippedHuber(alpha={self.alpha}, gamma={self.gamma}, bits={self.bits})"

    def _ball(self, f: Callable[[int], arb]) -> arb:
        """``f(prec)`` at working precisions doubling from bits + guard until the ball is ``bits`` accurate."""
        prec = self.work
        while True:
            with ctx.workprec(prec):
                x = f(prec)
            if (x.is_finite() and x.rel_accuracy_bits() >= self.bits) or x.is_exact() or prec >= 16 * self.work:
                return x
            prec *= 2

    @staticmethod
    def _q(x: Fraction) -> fmpq:
        return fmpq(x.numerator, x.denominator)

    def _parts(self, s: Fraction) -> Tuple[arb, arb, arb]:
        b = arb(self._q(self._bq))
        return b, arb(self._q(s)), MK.log_omega_tilde(b, xp=ARB)

    def logpdf(self, x: Exact) -> arb:
        """A ball containing log g(x)."""
        s = abs(exact_parameter(x, "x")) / self.gamma

        def f(prec: int) -> arb:
            b, sb, lw = self._parts(s)
            i = MPP.logpdf_std_region(self._bq, s, xp=EXACT)
            out: arb = MPP.logpdf_std_piece(i, b, sb, lw, xp=ARB) - arb(self._q(self.gamma)).log()
            return out
        return self._ball(f)

    def pdf(self, x: Exact) -> arb:
        """A ball containing g(x)."""
        s = abs(exact_parameter(x, "x")) / self.gamma

        def f(prec: int) -> arb:
            b, sb, lw = self._parts(s)
            i = MPP.logpdf_std_region(self._bq, s, xp=EXACT)
            out: arb = MPP.logpdf_std_piece(i, b, sb, lw, xp=ARB).exp() / arb(self._q(self.gamma))
            return out
        return self._ball(f)

    def _sf_nonneg(self, s: Fraction, log: bool) -> arb:
        b, sb, lw = self._parts(s)
        if log:
            i = MPP.logsf_std_nonneg_region(self._bq, s, self._s_q, xp=EXACT)
            out: arb = MPP.logsf_std_nonneg_piece(i, b, sb, lw, self._s_q, xp=ARB)
            return out
        i = MPP.sf_std_nonneg_region(self._bq, s, self._s_q, xp=EXACT)
        val: arb = MPP.sf_std_nonneg_piece(i, b, sb, lw, self._s_q, xp=ARB)
        return val

    def sf(self, x: Exact) -> arb:
        """A ball containing P(T > x)."""
        s = exact_parameter(x, "x") / self.gamma
        return self._ball(lambda prec: self._sf_nonneg(s, False) if s >= 0 else 1 - self._sf_nonneg(-s, False))

    def cdf(self, x: Exact) -> arb:
        """A ball containing P(T <= x) = sf(-x)."""
        return self.sf(-exact_parameter(x, "x"))

    def logsf(self, x: Exact) -> arb:
        """A ball containing log P(T > x)."""
        s = exact_parameter(x, "x") / self.gamma
        return self._ball(lambda prec: self._sf_nonneg(s, True) if s >= 0 else (1 - self._sf_nonneg(-s, False)).log())

    def logcdf(self, x: Exact) -> arb:
        """A ball containing log P(T <= x) = logsf(-x)."""
        return self.logsf(-exact_parameter(x, "x"))

    def log_kappa(self) -> arb:
        """A ball containing log kappa (eq 9)."""
        return self._ball(lambda prec: self._parts(Fraction(0))[2] + arb(self._q(self.gamma)).log())

    def privacy_profile(self, epsilon: Exact, sensitivity: Exact = 1.0) -> arb:
        """A ball containing delta(eps) (eq 13): fhsym._core.arb's enclosure at the exact epsilon and sensitivity."""
        e = exact_parameter(epsilon, "epsilon", Fraction(0), False)
        dl = exact_parameter(sensitivity, "sensitivity", Fraction(0), True)
        plan = fh_plan(self._q(e), self._q(self._bq), self._q(dl / self.gamma))
        boost = int(getattr(plan, "boost", 16))

        def f(prec: int) -> arb:
            with ctx.workprec(prec + boost):
                return fh_eval(plan, prec)
        return self._ball(f)

    def isf(self, q: Exact) -> arb:
        """A ball containing the x with P(T > x) = q: the number of :class:`PreciseFlippedHuber` in a bracket
        proven by the balls of :meth:`sf` (sf decreases strictly); +-inf at q = 0, 1."""
        qq = exact_parameter(q, "q")
        if qq < 0 or qq > 1:
            raise ValueError(f"q must be a real number in [0, 1]; got {q!r}")
        if qq in (0, 1):
            return arb(math.inf if qq == 0 else -math.inf)
        with mpmath.workprec(self.work):
            x = exact_fraction(PreciseFlippedHuber(self.alpha, self.gamma, bits=self.bits + 16).isf(qq))
        with ctx.workprec(self.work):
            return proven_root_ball(self.sf, x, qq, self.bits)

    def ppf(self, q: Exact) -> arb:
        """A ball containing the x with P(T <= x) = q (-isf(q) by symmetry)."""
        x = self.isf(q)
        with ctx.workprec(self.work):  # negation is exact at the ball's own precision
            out: arb = -x
        return out

    def privacy_loss(self, t: Exact, d: Exact) -> arb:
        """zeta_d(t) = (rho_alpha(t + d) - rho_alpha(t))/gamma^2, an exact rational (a ball of radius 0 when dyadic)."""
        tv, dv = exact_parameter(t, "t"), exact_parameter(d, "d")

        def rho(x: Fraction) -> Fraction:
            x = abs(x)
            return self.alpha * x if x <= self.alpha else (x * x + self.alpha * self.alpha) / 2
        z = (rho(tv + dv) - rho(tv)) / (self.gamma * self.gamma)
        with ctx.workprec(self.work):
            return arb(self._q(z))

    def epsilon_for_delta(self, delta: Exact, sensitivity: Exact = 1.0) -> arb:
        """A ball containing the eps with delta(eps) = delta: the number of :class:`PreciseFlippedHuber` in a bracket
        proven by the balls of :meth:`privacy_profile` (non-increasing in eps); exactly 0 where delta >= delta(0)."""
        dv = exact_parameter(delta, "delta", Fraction(0), True)
        if dv >= 1:
            raise ValueError(f"delta must be a real number in (0, 1); got {delta!r}")
        dl = exact_parameter(sensitivity, "sensitivity", Fraction(0), True)
        if self.privacy_profile(0, dl) <= arb(self._q(dv)):
            return arb(0)
        with mpmath.workprec(self.work):
            e = exact_fraction(PreciseFlippedHuber(self.alpha, self.gamma, bits=self.bits + 16).epsilon_for_delta(dv, dl))
        with ctx.workprec(self.work):
            return proven_root_ball(lambda x: self.privacy_profile(max(x, Fraction(0)), dl), e, dv, self.bits)

    def _moment_kernel(self, f: Callable[[arb, arb], arb]) -> arb:
        def g(prec: int) -> arb:
            b, _, lw = self._parts(Fraction(0))
            return f(b, lw)
        return self._ball(g)

    def var(self) -> arb:
        """A ball containing Var(T) (eq 11): gamma^2 variance_std(b) on balls."""
        g2 = self.gamma * self.gamma
        return self._moment_kernel(lambda b, lw: arb(self._q(g2)) * MK.variance_std(b, lw, xp=ARB))

    def moment(self, n: int) -> arb:
        """A ball containing E[T^n] for an integer n >= 0 (exactly 0 for odd n)."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"n must be an integer in [0, inf); got {n!r}")
        if n == 0 or n % 2:
            return arb(1 if n == 0 else 0)
        gn = self.gamma**n
        return self._moment_kernel(lambda b, lw: arb(self._q(gn)) * MK.moment_std(n, b, lw, xp=ARB))

    def fisher_information(self) -> arb:
        """A ball containing I(T) (eq 12)."""
        g2 = self.gamma * self.gamma
        return self._moment_kernel(lambda b, lw: MK.fisher_std(b, lw, xp=ARB) / arb(self._q(g2)))

    def nfi(self) -> arb:
        """A ball containing Var(T) I(T)."""
        return self._moment_kernel(lambda b, lw: MK.nfi_std(b, lw, xp=ARB))

    def entropy(self) -> arb:
        """A ball containing h(T) (nats): the generated ``entropy_std`` on balls + log gamma."""
        return self._moment_kernel(lambda b, lw: MK.entropy_std(b, lw, xp=ARB) + arb(self._q(self.gamma)).log())

    def _log_mgf_ball(self, u: Fraction) -> arb:
        b, _, lw = self._parts(Fraction(0))
        halves = [MPP.log_mgf_half_piece(MPP.log_mgf_half_region(m, xp=EXACT), b, arb(self._q(m)), xp=ARB)
                  for m in (self._bq + u, self._bq - u)]
        out: arb = ARB.logaddexp(*halves) - lw
        return out

    def log_mgf(self, s: Exact) -> arb:
        """A ball containing log E[exp(s T)]: the generated halves ``log_mgf_half`` at m = b +- gamma s (piece decided
        exactly), logaddexp, minus lw; near s = 0 the precision is raised until the ball is accurate."""
        u = exact_parameter(s, "s") * self.gamma
        return arb(0) if u == 0 else self._ball(lambda prec: self._log_mgf_ball(u))

    def mgf(self, s: Exact) -> arb:
        """A ball containing E[exp(s T)] = exp(log_mgf(s)) (the precision raised until the ball is accurate)."""
        u = exact_parameter(s, "s") * self.gamma
        return arb(1) if u == 0 else self._ball(lambda prec: self._log_mgf_ball(u).exp())

    def theorem8_lhs(self, epsilon: Exact, dim: int, sensitivity: Optional[float] = None,
                     l2_sensitivity: Optional[float] = None, l1_sensitivity: Optional[float] = None) -> arb:
        """A ball containing Theorem 8's left-hand side [Q(A) - e^eps Q(B)]_+ ((eps, delta)-DP in K dimensions when it
        is <= delta), at the exact eps, the resolved sensitivities (floats rounded up, fhsym._core.sensitivities) and
        R_Delta(alpha) in Q: A, B the generated ``lemma5_arg``, ``lemma7_arg`` on balls; theta/gamma = Q^{-1}(p),
        p = sqrt(pi/2) e^{-b^2/2 - lw} <= 1/2 (Prop 1), by arb's erfcinv (the generated ``theta_std`` guards p with a
        float ``min`` that balls cannot take); the value ``exp(log_theorem8_lhs_positive)`` where eps + log Q(B) -
        log Q(A) < 0 is certain, exactly 0 where it is certainly >= 0, else the ball of the positive part."""
        e = exact_parameter(epsilon, "epsilon", Fraction(0), False)
        K, D, D2, D1 = resolve_sensitivities(dim, sensitivity, l2_sensitivity, l1_sensitivity)
        Dq, D2q, D1q = (exact_fraction(v) for v in (D, D2, D1))
        R = MPP.R_Delta(self.alpha, Dq, xp=EXACT)

        def f(prec: int) -> arb:
            b, _, lw = self._parts(Fraction(0))
            g, eb = arb(self._q(self.gamma)), arb(self._q(e))
            p = (arb.pi() / 2).sqrt() * (-b * b / 2 - lw).exp()
            th = arb(2).sqrt() * (2 * p).erfcinv()
            A = MPP.lemma5_arg(eb, g, K, arb(self._q(R)), arb(self._q(D2q)), xp=ARB)
            B = MPP.lemma7_arg(eb, g, K, arb(self._q(R)), arb(self._q(D2q)), arb(self._q(D1q)), th, xp=ARB)
            x0 = eb - ARB.log_ndtr(-A) + ARB.log_ndtr(-B)
            if x0 < 0:
                out: arb = MK.log_theorem8_lhs_positive(A, B, eb, xp=ARB).exp()
                return out
            if x0 >= 0:
                return arb(0)
            lhs = ARB.log_ndtr(-A).exp() - eb.exp() * ARB.log_ndtr(-B).exp()
            return lhs.union(arb(0)) if not lhs <= 0 else arb(0)
        return self._ball(f)

    def zcdp(self, sensitivity: Optional[float] = 1.0, dim: int = 1, l2_sensitivity: Optional[float] = None,
             l1_sensitivity: Optional[float] = None) -> Tuple[arb, arb]:
        """Balls (radius 0 where dyadic) containing the zCDP parameters (xi, eta) = (K R_Delta(alpha)/(2 gamma^2),
        Delta_2^2/(2 gamma^2)): the generated ``zcdp_xi``, ``zcdp_eta`` in exact rationals."""
        K, D, D2, _ = resolve_sensitivities(dim, sensitivity, l2_sensitivity, l1_sensitivity)
        R = MPP.R_Delta(self.alpha, exact_fraction(D), xp=EXACT)
        xi = MPP.zcdp_xi(K, R, self.gamma, xp=EXACT)
        eta = MPP.zcdp_eta(exact_fraction(D2), self.gamma, xp=EXACT)
        with ctx.workprec(self.work):
            return as_ball(self._q(Fraction(xi))), as_ball(self._q(Fraction(eta)))
