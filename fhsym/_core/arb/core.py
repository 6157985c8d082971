"""Ball-arithmetic building blocks shared by the rigorous privacy-profile enclosures.

Only python-flint (``arb``, ``fmpq``) and exact Python integers are used here: no
floats enter a computed value except as exact binary inputs.

Contents
--------
* :func:`exact` -- a finite float as the exact rational ``fmpq`` it denotes;
* :func:`mills` -- the Mills ratio ``R(x) = Q(x)/phi(x) = e^{x^2/2} int_x^inf e^{-u^2/2} du``
  (``x >= 0``), enclosed for a ball ``x``;
* :func:`mills_excess` -- ``1/x - R(x)`` without cancellation for large ``x``;
* :func:`gauss_strip` -- ``e^{theta^2/2} int_theta^{theta+w} e^{-u^2/2} du``;
* :func:`float_down` / :func:`float_up` -- an exact dyadic number rounded to a
  binary64 float toward ``-inf`` / ``+inf``.

Why each enclosure holds
------------------------
``mills(x)``: for the exact dyadic midpoint ``m >= 0`` of the ball, ``R(m)`` is
either ``sqrt(pi/2) erfc(m/sqrt 2) exp(m^2/2)`` in arb (every factor an arb
enclosure, working precision raised by ``2 log2 m`` bits so the steep factors
do not eat the result), or -- when ``m^2 >= 4 p`` -- the asymptotic series
``R(m) = sum_{n<N} (-1)^n (2n-1)!!/m^{2n+1} + r_N`` with ``|r_N|`` at most the first
neglected term (DLMF 7.12.1 and Sec. 7.12(i): for real positive argument the
remainder is bounded in magnitude by, and has the sign of, the first neglected
term; ``R(m) = sqrt(pi/2) erfcx(m/sqrt 2)``).  Every ``x`` of the ball then obeys
``|R(x) - R(m)| <= |x - m| sup |R'|`` and ``R' = xR - 1`` satisfies
``-1/(1 + x^2) <= R'(x) < 0`` for ``x >= 0`` (Gordon 1941:
``x/(1 + x^2) < R(x) < 1/x``; at ``x = 0``, ``R'(0) = -1``), so the ball is
widened by ``rad/(1 + lo^2)`` with ``lo`` the lower end clipped at 0.  The
callers guarantee that the true argument is ``>= 0``.

``mills_excess(x)``: the same series without its first term (asymptotic case),
otherwise ``1/m - R(m)`` at ``2 log2 m`` extra bits, widened by the mean value
theorem with ``|d/dx (1/x - R(x))| <= 1/x^2 + 1/(1 + x^2)``.

``float_down`` / ``float_up``: exact rational comparison after ``float()``
(round to nearest) and one ``math.nextafter`` step when needed.
"""

from __future__ import annotations

import math
from fractions import Fraction

from flint import arb, ctx, fmpq, fmpz

__all__ = [
    "exact",
    "bits",
    "ball",
    "mills",
    "mills_excess",
    "gauss_strip",
    "float_down",
    "float_up",
    "sqrt_half_pi",
]

_TINY = 5e-324  # smallest positive subnormal binary64
_MAX_FLOAT = 1.7976931348623157e308


def exact(x: float) -> fmpq:
    """The exact rational value of a finite binary64 float (no decimal round trip)."""
    n, d = float(x).as_integer_ratio()
    return fmpq(n, d)


def bits(q: fmpq) -> int:
    """An upper bound on ``log2 |q|``, clipped below at 0 (for working-precision boosts)."""
    p = q.p  # fmpz.bit_length is that of |p|, without a conversion to a Python int (a proven PLD asks at every node)
    if p.is_zero():
        return 0
    return max(0, p.bit_length() - q.q.bit_length() + 1)


def ball(q: fmpq | fmpz | int) -> arb:
    """``q`` (fmpq, fmpz or int) as an arb ball at the current precision."""
    return arb(q)


_CONST_CACHE: dict[tuple[str, int], arb] = {}


def sqrt_half_pi() -> arb:
    """sqrt(pi/2) at the current precision (cached per precision)."""
    key = ("sqrt_half_pi", ctx.prec)
    v = _CONST_CACHE.get(key)
    if v is None:
        v = (arb.pi() / 2).sqrt()
        if len(_CONST_CACHE) < 256:
            _CONST_CACHE[key] = v
    return v


def sqrt2() -> arb:
    key = ("sqrt2", ctx.prec)
    v = _CONST_CACHE.get(key)
    if v is None:
        v = arb(2).sqrt()
        if len(_CONST_CACHE) < 256:
            _CONST_CACHE[key] = v
    return v


def arb_bits(m: arb) -> int:
    """An upper bound on log2 |m| (>= 0) for an exact finite arb."""
    man, ex = m.man_exp()
    return max(0, int(abs(man)).bit_length() + int(ex))


def _series_terms(m: arb, skip_first: bool) -> arb:
    """sum_{n<N} (-1)^n (2n-1)!!/m^(2n+1) (from n = 1 if ``skip_first``, negated) plus remainder."""
    p = ctx.prec
    inv = 1 / m
    q = inv * inv
    term = inv
    total = arb(0) if skip_first else term
    eps = arb(2) ** (-(p + 8))
    ref = inv * q if skip_first else inv  # size of the leading kept term
    n = 1
    while True:
        term = -term * (2 * n - 1) * q
        if n > p + 16 or abs(term) < eps * ref:
            break
        total = total + (-term if skip_first else term)
        n += 1
    # |remainder| <= |first neglected term| (DLMF 7.12(i))
    return total + arb(0, abs(term).upper())


_MILLS_CACHE: dict[tuple[int, int, int], arb] = {}


def _mills_point(m: arb) -> arb:
    """R(m) for an exact dyadic m >= 0 at the current precision (memoised per (m, precision): the ball is the same)."""
    man, ex = m.man_exp()
    key = (int(man), int(ex), ctx.prec)
    val = _MILLS_CACHE.get(key)
    if val is None:
        val = _mills_point_eval(m)
        if len(_MILLS_CACHE) >= 256:
            _MILLS_CACHE.clear()
        _MILLS_CACHE[key] = val
    return val


def _mills_point_eval(m: arb) -> arb:
    p = ctx.prec
    if m.is_zero():
        return sqrt_half_pi()
    m2 = m * m
    if m2 >= 4 * p:
        return _series_terms(m, skip_first=False)
    extra = 2 * arb_bits(m) + 16
    with ctx.workprec(p + extra):
        val = sqrt_half_pi() * (m / sqrt2()).erfc() * (m2 / 2).exp()
    return +val  # round to the caller's precision (keeps the enclosure)


def _mid_rad_nonneg(x: arb) -> tuple[arb, arb, arb]:
    """(m, r, lo): exact m >= 0 and r >= 0 with every x >= 0 of the ball in [m - r, m + r]; lo >= 0 a lower end."""
    m = x.mid()
    r = x.rad()
    if m < 0:
        m, r = arb(0), x.upper()
    lo = x.lower()
    if not lo > 0:
        lo = arb(0)
    return m, arb(r), lo


def mills(x: arb) -> arb:
    """Enclosure of R(x) = Q(x)/phi(x) over the ball ``x`` (whose true value must be >= 0).

    R(x) = sqrt(pi/2) erfcx(x/sqrt 2); R(0) = sqrt(pi/2), R(x) ~ 1/x.

    >>> from flint import arb, ctx
    >>> with ctx.workprec(80):
    ...     r = mills(arb(1))
    ...     r.overlaps(arb("0.65567954241879847154387123")), r.rad() < 1e-22
    (True, True)
    """
    m, r, lo = _mid_rad_nonneg(x)
    val = _mills_point(m)
    if r.is_zero():
        return val
    slope = 1 / (1 + lo * lo)
    return val + arb(0, (r * slope).upper())


def mills_excess(x: arb) -> arb:
    """Enclosure of 1/x - R(x) (> 0) over the ball ``x`` (true value > 0), cancellation-free for large x.

    >>> from flint import arb, ctx
    >>> with ctx.workprec(80):
    ...     r = mills_excess(arb(10)**6)  # 1e-18 - 3e-30 + 1.5e-41 - ...
    ...     r.overlaps(arb("9.9999999999700000000001499999999989e-19")), r.rad() < 1e-40
    (True, True)
    """
    m, r, lo = _mid_rad_nonneg(x)
    p = ctx.prec
    if m * m >= 4 * p:
        val = _series_terms(m, skip_first=True)
    else:
        extra = 2 * arb_bits(m) + 16
        with ctx.workprec(p + extra):
            val = 1 / m - _mills_point(m)
        val = +val
    if r.is_zero():
        return val
    if not lo > 0:
        raise ArithmeticError("mills_excess: ball reaches 0")  # callers pass x bounded away from 0
    slope = 1 / (lo * lo) + 1 / (1 + lo * lo)
    return val + arb(0, (r * slope).upper())


def gauss_strip(theta: arb, w: arb) -> arb:
    """e^{theta^2/2} int_theta^{theta + w} e^{-u^2/2} du = R(theta) - e^{-w(w + 2 theta)/2} R(theta + w).

    ``theta >= 0`` and ``w >= 0`` (true values).  For ``theta + w <= 2`` the erf
    form ``e^{theta^2/2} sqrt(pi/2) (erf((theta + w)/sqrt 2) - erf(theta/sqrt 2))``
    is used (no cancellation at theta = 0), otherwise the Mills-ratio form.
    """
    if (theta + w) <= 2:
        s2 = sqrt2()
        if theta.is_zero():
            return sqrt_half_pi() * (w / s2).erf()
        return (theta * theta / 2).exp() * sqrt_half_pi() * (((theta + w) / s2).erf() - (theta / s2).erf())
    return mills(theta) - (-(w * (w + 2 * theta)) / 2).exp() * mills(theta + w)


# ---------------------------------------------------------------------------
# directed conversion to binary64


def _dyadic(x: arb) -> tuple[int, int]:
    man, ex = x.man_exp()
    return int(man), int(ex)


def _to_float(x: arb, up: bool) -> float:
    """An exact finite arb rounded to binary64 toward +inf (``up``) or -inf."""
    man, ex = _dyadic(x)
    if man == 0:
        return 0.0
    neg = man < 0
    top = abs(man).bit_length() + ex  # 2**(top-1) <= |x| < 2**top
    if top < -1080:  # |x| < 2**-1080: below half the smallest subnormal
        if neg:
            return -0.0 if up else -_TINY
        return _TINY if up else 0.0
    if top > 1025 or abs(Fraction(man) * (Fraction(2) ** ex)) > Fraction(_MAX_FLOAT):
        if neg:
            return -_MAX_FLOAT if up else -math.inf
        return math.inf if up else _MAX_FLOAT
    val = Fraction(man) * (Fraction(2) ** ex)
    f = float(val)  # |val| <= the largest float: no overflow
    fv = Fraction(f)
    if up and fv < val:
        f = math.nextafter(f, math.inf)
    elif not up and fv > val:
        f = math.nextafter(f, -math.inf)
    return f


def float_down(x: arb) -> float:
    """A binary64 float <= every point of the ball ``x`` (its lower end, rounded toward -inf)."""
    return _to_float(x.lower(), up=False)


def float_up(x: arb) -> float:
    """A binary64 float >= every point of the ball ``x`` (its upper end, rounded toward +inf)."""
    return _to_float(x.upper(), up=True)

