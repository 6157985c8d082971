"""High-precision evaluation of SymPy expressions for the proofs (mpmath).

* :func:`mp_function` lambdifies a SymPy expression to mpmath, with mpmath
  implementations of fhsym's stable nodes (:mod:`fhsym.symbolic.special`) that do
  **not** go through the node's own textbook rewrite where that rewrite is the
  thing under test: ``ndtri``/``ndtri_exp`` are Newton roots of
  ``log ncdf(x) = y``, ``exprel`` is ``expm1(x)/x``, ``lowergamma3_scaled`` is
  mpmath's incomplete gamma, ``erfcx`` is ``exp(x^2) erfc(x)`` at working
  precision, etc.  A node without a dedicated implementation falls back to its
  textbook definition (``_naive``), which is exact given enough precision.
* :func:`evaluate` evaluates such a function at exact binary inputs with
  *adaptive* working precision: it starts at ``60 + need`` digits (``need`` is
  the caller's estimate of the digits lost to cancellation, e.g. ``b^2/ln 10``
  for the paper's forms, which subtract quantities that agree to ``e^{-b^2}``)
  and raises the precision until two successive precisions agree to the
  requested number of significant digits.

Inputs: Python floats are converted to mpf exactly (a float *is* a dyadic
rational, ``Rational(*x.as_integer_ratio())``), so every evaluation is of the
exact binary number the float64 code sees.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import Any, Callable, Sequence, Tuple

import mpmath
import sympy as sp
from mpmath import mp, mpf

from fhsym.symbolic import special as SP

__all__ = [
    "PrecisionError",
    "MP_FUNCTIONS",
    "mp_function",
    "to_mpf",
    "agree_digits",
    "rel_diff",
    "evaluate",
    "evaluate_pair",
    "fmt",
    "LN10",
]

LN10 = math.log(10.0)


class PrecisionError(ArithmeticError):
    """Two successive working precisions never agreed to the requested digits."""


# ---------------------------------------------------------------------------
# mpmath implementations of the nodes
# ---------------------------------------------------------------------------


def _erfcx(x):
    return mpmath.exp(x * x) * mpmath.erfc(x)


def _log_ndtr(x):
    return mpmath.log(mpmath.ncdf(x))


def _ndtri_exp(y):
    """x with log Phi(x) = y (y < 0): Newton at doubling precision, started from float64 (scipy).

    Each Newton step doubles the number of correct digits, so the working
    precision of step k is about twice that of step k-1 (plus guard digits) until
    it reaches the ambient precision; the last two steps run at full precision.
    """
    y = mpf(y)
    if y >= 0:
        return mpmath.inf if y == 0 else mpmath.nan
    if y > -mpf("0.5"):
        # Phi(x) = e^y close to 1: solve Q(x) = -expm1(y) instead (no loss of digits)
        return -_ndtri_exp(mpmath.log(-mpmath.expm1(y)))
    import scipy.special as sc

    target = mp.prec
    yf = float(y)
    x = mpf(float(sc.ndtri_exp(yf))) if yf > -1e300 else -mpmath.sqrt(-2 * y)
    prec = 60
    full_steps = 0
    for _ in range(200):
        prec = min(target + 20, 2 * prec + 20)
        with mp.workprec(prec):
            yy = +y
            F = mpmath.log(mpmath.ncdf(x)) - yy
            step = F * mpmath.ncdf(x) / mpmath.npdf(x)
            xn = x - step
        if prec >= target + 20:
            full_steps += 1
            with mp.workprec(target + 20):
                converged = step == 0 or abs(step) <= mpf(2) ** (-target + 2) * abs(xn)
            if converged or full_steps >= 6:
                if not converged:
                    raise PrecisionError("ndtri_exp Newton iteration did not converge (y=%s)" % mpmath.nstr(y, 10))
                return +xn
        x = xn
    raise PrecisionError("ndtri_exp Newton iteration did not converge (y=%s)" % mpmath.nstr(y, 10))


def _ndtri(p):
    p = mpf(p)
    if p <= 0:
        return mpmath.ninf
    if p >= 1:
        return mpmath.inf
    if p <= mpf(1) / 2:
        return _ndtri_exp(mpmath.log(p))
    return -_ndtri_exp(mpmath.log(1 - p))


def _exprel(x):
    return mpf(1) if x == 0 else mpmath.expm1(x) / x


def _lowergamma3_scaled(y):
    return mpf(1) / 3 if y == 0 else mpmath.gammainc(3, 0, y) / y**3


def _log1mexp(x):
    return mpmath.log(-mpmath.expm1(-x))


def _logaddexp(x, y):
    m = max(x, y)
    if m == mpmath.ninf:
        return mpmath.ninf
    return m + mpmath.log1p(mpmath.exp(-abs(x - y)))


def _erfinv(x):
    x = mpf(x)
    if x <= -1:
        return mpmath.ninf
    if x >= 1:
        return mpmath.inf
    return mpmath.erfinv(x)


MP_FUNCTIONS = {
    "erfcx": _erfcx,
    "log_ndtr": _log_ndtr,
    "ndtri": _ndtri,
    "ndtri_exp": _ndtri_exp,
    "exprel": _exprel,
    "lowergamma3_scaled": _lowergamma3_scaled,
    "log1mexp": _log1mexp,
    "logaddexp": _logaddexp,
    "erfinv": _erfinv,
    "expm1": mpmath.expm1,
    "log1p": mpmath.log1p,
}


def _namespace() -> dict:
    """MP_FUNCTIONS plus a textbook-definition fallback for every other stable node."""
    ns = dict(MP_FUNCTIONS)
    for node in getattr(SP, "STABLE_NODES", ()):
        name = node.__name__
        if name in ns:
            continue
        nargs = node.nargs
        n = next(iter(nargs)) if isinstance(nargs, (set, frozenset, sp.FiniteSet)) else int(nargs)
        syms = sp.symbols("_a0:%d" % n, real=True)
        naive = node(*syms)._naive()
        ns[name] = _lambdify(tuple(syms), naive, ns)
    return ns


def _lambdify(args: Tuple[sp.Symbol, ...], expr: sp.Expr, ns: dict) -> Callable:
    return sp.lambdify(args, expr, modules=[ns, "mpmath"])


@functools.lru_cache(maxsize=None)
def _ns() -> dict:
    return _namespace()


@functools.lru_cache(maxsize=512)
def mp_function(args: Tuple[sp.Symbol, ...], expr: sp.Expr) -> Callable:
    """``expr`` as a Python function of ``args`` evaluating in mpmath at the ambient precision.

    SymPy's ``expm1``/``log1p`` (``sympy.codegen.cfunctions``) print as ``mpmath.expm1``/``mpmath.log1p``.
    """
    return _lambdify(tuple(args), expr, _ns())


# ---------------------------------------------------------------------------
# exact inputs, comparisons, adaptive precision
# ---------------------------------------------------------------------------


def to_mpf(x: Any) -> mpf:
    """Exact conversion (at the ambient precision for non-dyadic rationals)."""
    if isinstance(x, mpf):
        return x
    if isinstance(x, float):
        return mpf(x)  # exact: a float is a dyadic rational
    if isinstance(x, int):
        return mpf(x)
    if isinstance(x, Fraction):
        return mpf(x.numerator) / x.denominator
    if isinstance(x, sp.Rational):
        return mpf(int(x.p)) / int(x.q)
    if isinstance(x, sp.Basic):
        return mpf(sp.N(x, mp.dps + 10))
    return mpf(x)


def _bits(*xs: Any) -> int:
    """Working precision (bits) that holds every mpf in ``xs`` exactly, plus guard bits."""
    n = 64
    for x in xs:
        if isinstance(x, mpf):
            n = max(n, int(x._mpf_[1]).bit_length() + 16)
    return n


def agree_digits(a: Any, b: Any) -> float:
    """Number of agreeing significant digits of two reals (inf when equal)."""
    if isinstance(a, mpmath.mpc) or isinstance(b, mpmath.mpc):
        return -math.inf
    with mp.workprec(max(_bits(a, b), mp.prec)):
        a, b = mpf(a), mpf(b)
        if a == b:
            return math.inf
        if not (mpmath.isfinite(a) and mpmath.isfinite(b)):
            return -math.inf
        scale = max(abs(a), abs(b))
        return float(-mpmath.log10(abs(a - b) / scale))


def rel_diff(value: Any, ref: Any) -> float:
    """|value - ref| / |ref| as a float (0 when equal; inf for non-finite)."""
    if isinstance(value, mpmath.mpc) or isinstance(ref, mpmath.mpc):
        return math.inf
    with mp.workprec(max(_bits(value, ref), mp.prec)):
        value, ref = mpf(value), mpf(ref)
        if value == ref:
            return 0.0
        if not (mpmath.isfinite(value) and mpmath.isfinite(ref)):
            return math.inf
        if ref == 0:
            return float(abs(value))
        r = abs(value - ref) / abs(ref)
        return float(r) if r > mpf(10) ** -300 else 1e-300


def _call(fn: Callable, point: Sequence[Any]):
    """fn at the ambient precision; None when the result is not a finite real."""
    try:
        v = fn(*[to_mpf(x) for x in point])
    except (ZeroDivisionError, ValueError, OverflowError):
        return None
    if isinstance(v, mpmath.mpc):
        if v.imag != 0:
            return None  # e.g. the log of a difference that cancelled to a negative number
        v = v.real
    if isinstance(v, (int, float)):
        v = mpf(v)
    return v if isinstance(v, mpf) and mpmath.isfinite(v) else None


def evaluate(
    fn: Callable,
    point: Sequence[Any],
    digits: float = 50,
    need: float = 0.0,
    max_dps: int = 20000,
    start_dps: int | None = None,
) -> Tuple[mpf, int]:
    """``fn(*point)`` to ``digits`` significant digits; returns (value, dps used).

    The working precision starts at ``60 + need`` and grows by half (+20) until
    two successive precisions agree to ``digits + 3`` digits.  Raises
    :class:`PrecisionError` beyond ``max_dps``.
    """
    dps = int(start_dps if start_dps is not None else 60 + max(0.0, need))
    prev = None
    while True:
        with mp.workdps(dps):
            v = _call(fn, point)
        # an exact 0 is never accepted: it is what a total cancellation below the working
        # precision produces at every precision (none of the checked quantities is 0)
        if v is not None and v != 0 and prev is not None and agree_digits(prev, v) >= digits + 3:
            return v, dps
        prev = v
        if dps >= max_dps:
            raise PrecisionError(
                "no agreement to %g digits up to %d digits of working precision (last value %s)"
                % (digits, dps, mpmath.nstr(v, 15) if v is not None else "not a finite real")
            )
        dps = min(max_dps, int(dps * 1.5) + 20)


def evaluate_pair(
    f_paper: Callable,
    f_stable: Callable,
    point: Sequence[Any],
    digits: float = 50,
    need: float = 0.0,
    max_dps: int = 20000,
) -> Tuple[mpf, mpf, float, int]:
    """Evaluate a paper form and a stable form at ``point``; returns (paper, stable, rel diff, dps).

    Two successive precisions agreeing cannot detect a term lost entirely below
    the working precision (``1 - (1 - e^{-400})`` is 0 at both 70 and 140
    digits), but a disagreement with the well-conditioned stable form can: in
    that case the paper form is re-evaluated from twice the starting precision,
    up to ``max_dps``.
    """
    s_val, _ = evaluate(f_stable, point, digits=digits, need=min(need, 60.0), max_dps=max_dps)
    start = int(60 + max(0.0, need))
    while True:
        try:
            p_val, dps = evaluate(f_paper, point, digits=digits, max_dps=max_dps, start_dps=start)
        except PrecisionError:
            if start * 2 > max_dps:
                raise
            start *= 2
            continue
        d = rel_diff(p_val, s_val)
        if d <= 10.0 ** (-digits) or start * 2 > max_dps:
            return p_val, s_val, d, dps
        start *= 2


def fmt(x: float | None, digits: int = 2) -> str:
    """Deterministic short format of an error figure."""
    if x is None:
        return "0 (exact)"
    if x == 0:
        return "0"
    if not math.isfinite(x):
        return str(x)
    return f"{x:.{digits - 1}e}"

