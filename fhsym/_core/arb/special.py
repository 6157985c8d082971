"""The ball namespace of the generated mpmath module: its kernels evaluated on python-flint ``arb`` balls.

``fhsym._generated.mp_kernels`` prints every kernel against a namespace ``xp`` with exact
constants (``xp.q(1, 3)``, ``xp.pi()``); :data:`ARB` binds those names to arb operations, so the
same printed kernel returns a ball.  Each function below is arb's own rigorous operation or a
composition of them (erfcx(x) = exp(x^2) erfc(x), log_ndtr(x) = log(erfc(-x/sqrt 2)/2),
exprel(x) = 1F1(1; 2; x), ...), so the returned ball contains the exact value of the kernel at
every point of the argument balls.  Which kernel applies (the region of a piecewise function) is
decided by the caller in exact arithmetic (``fhsym._core.mpfuncs.EXACT``), never by comparing balls.

Only the nodes the ball API uses are bound (the distribution's density, log density, survival
function, normaliser, moments, Fisher information, entropy, the MGF's halves and Theorem 8's left-hand side); a
kernel calling another node raises ``AttributeError``.
"""

from __future__ import annotations

import math
import types
from typing import Any

from flint import arb, fmpq

__all__ = ["ARB", "as_ball"]


def as_ball(x: Any) -> arb:
    """``x`` (arb, int or fmpq) as an arb ball at the current precision."""
    return x if isinstance(x, arb) else arb(x)


def _exprel(x: Any) -> arb:
    ball: arb = as_ball(x).hypgeom_1f1(1, 2)  # 1F1(1; 2; x) = (e^x - 1)/x, 1 at x = 0
    return ball


def _erfcx(x: Any) -> arb:
    x = as_ball(x)
    out: arb = (x * x).exp() * x.erfc()
    return out


def _log_ndtr(x: Any) -> arb:
    return (-as_ball(x) / arb(2).sqrt()).erfc().log() - arb(2).log()


def _lowergamma_scaled(n: Any, y: Any) -> arb:
    """int_0^1 u^n e^{-y u} du = 1F1(n + 1; n + 2; -y)/(n + 1) (arb's rigorous hypergeometric function)."""
    out: arb = (-as_ball(y)).hypgeom_1f1(n + 1, n + 2) / (n + 1)
    return out


def _log(x: Any) -> arb:
    """log x; exactly -inf at an exact 0 (arb gives nan there: b exprel(b m) = 0 at b = 0 in the MGF's halves)."""
    x = as_ball(x)
    if x.is_exact() and x == 0:
        return arb(-math.inf)
    out: arb = x.log()
    return out


def _logaddexp(a: Any, b: Any) -> arb:
    """log(e^a + e^b) = max + log1p(e^{-|a - b|}) (arb's exponent range is unbounded: no overflow either way)."""
    a, b = as_ball(a), as_ball(b)
    hi, lo = (b, a) if b > a else (a, b)  # a + log1p(e^{b - a}) is the same number in either order; this one is tighter
    out: arb = hi + (lo - hi).exp().log1p()
    return out


def _log1mexp(x: Any) -> arb:
    """log(1 - e^{-x}) for x > 0."""
    out: arb = (-(-as_ball(x)).expm1()).log()
    return out


def _gammaincc(a: Any, x: Any) -> arb:
    """The regularised upper incomplete gamma function Q(a, x) = Gamma(a, x)/Gamma(a)."""
    out: arb = as_ball(x).gamma_upper(as_ball(a), 1)
    return out


ARB = types.SimpleNamespace(
    name="arb",
    q=lambda p, r: arb(fmpq(p, r)),
    pi=arb.pi,
    exp=lambda x: as_ball(x).exp(),
    expm1=lambda x: as_ball(x).expm1(),
    log=_log,
    log1p=lambda x: as_ball(x).log1p(),
    sqrt=lambda x: as_ball(x).sqrt(),
    erf=lambda x: as_ball(x).erf(),
    erfc=lambda x: as_ball(x).erfc(),
    erfcx=_erfcx,
    exprel=_exprel,
    log_ndtr=_log_ndtr,
    logaddexp=_logaddexp,
    log1mexp=_log1mexp,
    lowergamma_scaled=_lowergamma_scaled,
    lowergamma3_scaled=lambda y: _lowergamma_scaled(2, y),
    gamma=lambda x: as_ball(x).gamma(),
    gammaincc=_gammaincc,
)
