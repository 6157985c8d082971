"""JAX implementations of the special functions the generated JAX kernels call (hand-written).

The jax.numpy twins of :mod:`fhsym._core.numerics` and of the ``scipy.special`` functions JAX lacks
(``erfcx``, ``exprel``, ``ndtri_exp``), and a ``log1p`` for the range where XLA's loses digits, for
:mod:`fhsym._generated.jax_kernels`.  Elementwise, float64 (``jax_enable_x64``), ``jit``-, ``vmap``- and
``grad``-compatible: every branch is evaluated on inputs clamped into its own range (so an unselected
branch is finite and adds no NaN to a gradient) and the branches are merged with ``jnp.where``;
``exprel`` and ``ndtri_exp`` carry their analytic derivative (``custom_jvp``).  Accuracy against the
numpy kernels and mpmath: ``tests/test_codegen_jax.py``, ``docs/codegen.md``; XLA's own functions:
``tests/test_jax_xla_accuracy.py``.
"""

from __future__ import annotations

import math

from typing import Any, Sequence, Tuple

import jax
import jax.numpy as jnp
from jax import Array
from jax.scipy import special as jsc
from jax.typing import ArrayLike

jax.config.update("jax_enable_x64", True)  # the kernels are float64 (as fhsym.jax, which imports this module)

__all__ = ["log_max0", "log1p", "erfcx", "log_ndtr", "exprel", "ndtri_exp", "lowergamma3_scaled", "lowergamma_scaled",
           "uppergamma", "log_uppergamma", "log1mexp", "erfcx_diff", "gauss_profile",
           "log_gauss_profile", "sub_prod", "abs_sum_sub"]

_SQRT_PI = math.sqrt(math.pi)
_SQRT1_2 = math.sqrt(0.5)
_LN2 = math.log(2.0)
_HALF_LOG_2PI = 0.5 * math.log(2.0 * math.pi)
_GL_X = (-0.9602898564975362, -0.7966664774136267, -0.525532409916329, -0.18343464249564978,
         0.18343464249564978, 0.525532409916329, 0.7966664774136267, 0.9602898564975362)
_GL_W = (0.10122853629037706, 0.22238103445337443, 0.3137066458778869, 0.36268378337836166,
         0.36268378337836166, 0.3137066458778869, 0.22238103445337443, 0.10122853629037706)


def _f(x: ArrayLike) -> Array:
    return jnp.asarray(x, dtype=jnp.float64)


def log1p(x: ArrayLike) -> Array:
    """log(1 + x): ``log(1 + x)`` below -0.25, XLA's ``log1p`` above.

    XLA's ``log1p`` on CPU is up to 127.9 ulp off for 1 + x in [0.5, 1/sqrt 2] (x in [-0.5, -0.2929]; jax 0.10.2,
    against 40-digit mpmath: tests/test_jax_xla_accuracy.py); there 1 + x rounds by at most 2^-54 and the log of it
    is within 2.1 ulp.  The generated JAX modules call this one (fhsym._core.backends.IMPLEMENTATIONS).  Each branch
    on its own range (the unselected one finite: at x = -1 the gradient is XLA's inf, not NaN)."""
    x = _f(x)
    return jnp.where(x < -0.25, jnp.log(1.0 + jnp.minimum(x, 0.0)), jnp.log1p(jnp.maximum(x, -0.5)))


# erfcx(y) ~ (1/(sqrt(pi) y)) sum_m (-1)^m (2m-1)!!/(2y^2)^m: 9 terms leave < 6e-20 relative at y >= 25
_ASYM = tuple((-1) ** m * math.prod(range(1, 2 * m, 2)) / 2.0**m for m in range(9))


def _erfcx_nonneg(y: Array) -> Array:
    """erfcx(y) for y >= 0: exp(y^2) erfc(y) below 25, the asymptotic series (9 terms) above."""
    small = y < 25.0
    ys = jnp.where(small, y, 0.0)
    direct = jnp.exp(ys * ys) * jsc.erfc(ys)
    yl = jnp.where(small, 25.0, y)
    u = 1.0 / (yl * yl)
    acc = jnp.zeros_like(yl)
    for c in reversed(_ASYM):
        acc = acc * u + c
    return jnp.where(small, direct, acc / (_SQRT_PI * yl))


def erfcx(x: ArrayLike) -> Array:
    """exp(x^2) erfc(x); inf for x < -26.6 (as the true value)."""
    x = _f(x)
    pos = x >= 0.0
    v = _erfcx_nonneg(jnp.abs(x))
    xn = jnp.where(pos, 0.0, x)
    return jnp.where(pos, v, 2.0 * jnp.exp(xn * xn) - v)


def log_ndtr(x: ArrayLike) -> Array:
    """log Phi(x), relative accuracy for every x (jax.scipy.special.log_ndtr is ~2e-11 off near x = -20):
    log(erfcx(-x/sqrt2)/2) - x^2/2 below -1, log(erfc(-x/sqrt2)/2) on [-1, 1), log1p(-exp(-x^2/2) erfcx(x/sqrt2)/2) above."""
    x = _f(x)
    lo = x < -1.0
    hi = x >= 1.0
    xl = jnp.where(lo, x, -2.0)
    xm = jnp.where(lo | hi, 0.0, x)
    xh = jnp.where(hi, x, 2.0)
    v_lo = jnp.log(0.5 * erfcx(-xl * _SQRT1_2)) - 0.5 * xl * xl
    v_mid = jnp.log(0.5 * jsc.erfc(-xm * _SQRT1_2))
    v_hi = jnp.log1p(-0.5 * jnp.exp(-0.5 * xh * xh) * erfcx(xh * _SQRT1_2))
    return jnp.where(lo, v_lo, jnp.where(hi, v_hi, v_mid))


def _exprel_series_prime(x: Array) -> Array:
    # d/dx (e^x - 1)/x = sum_k (k + 1) x^k/(k + 2)!, |x| <= 1/2 (20 terms: < 1e-20 truncation)
    acc = jnp.zeros_like(x)
    for k in range(19, -1, -1):
        acc = acc * x + (k + 1) / math.factorial(k + 2)
    return acc


@jax.custom_jvp
def exprel(x: ArrayLike) -> Array:
    """(exp(x) - 1)/x, 1 at x = 0."""
    x = _f(x)
    zero = x == 0.0
    xs = jnp.where(zero, 1.0, x)
    return jnp.where(zero, 1.0, jnp.expm1(xs) / xs)


@exprel.defjvp
def _exprel_jvp(primals: Sequence[ArrayLike], tangents: Sequence[Array]) -> Tuple[Array, Array]:
    (x,), (dx,) = primals, tangents
    x = _f(x)
    small = jnp.abs(x) <= 0.5
    xs = jnp.where(small, x, 0.0)
    xl = jnp.where(small, 1.0, x)
    d = jnp.where(small, _exprel_series_prime(xs), (jnp.exp(xl) * (xl - 1.0) + 1.0) / (xl * xl))
    return exprel(x), d * dx


@jax.custom_jvp
def ndtri_exp(y: ArrayLike) -> Array:
    """Phi^{-1}(exp(y)) for y <= 0: -ndtri(-expm1(y)) above -log 2, ndtri(exp(y)) down to -700, Newton on
    log_ndtr(x) = y below (from the asymptotic start -sqrt(-2y - log(-4 pi y)))."""
    y = _f(y)
    upper = y > -_LN2
    mid = (y <= -_LN2) & (y > -700.0)
    yu = jnp.where(upper, y, -1.0)
    ym = jnp.where(mid, y, -1.0)
    yl = jnp.where(upper | mid, -800.0, y)
    def newton(_: int, x: Array) -> Array:
        ln = log_ndtr(x)
        return x - (ln - yl) / jnp.exp(-0.5 * x * x - _HALF_LOG_2PI - ln)

    x = jax.lax.fori_loop(0, 8, newton, -jnp.sqrt(-2.0 * yl - jnp.log(-4.0 * jnp.pi * yl)))
    return jnp.where(upper, -jsc.ndtri(-jnp.expm1(yu)), jnp.where(mid, jsc.ndtri(jnp.exp(ym)), x))


@ndtri_exp.defjvp
def _ndtri_exp_jvp(primals: Sequence[ArrayLike], tangents: Sequence[Array]) -> Tuple[Array, Array]:
    (y,), (dy,) = primals, tangents
    x = ndtri_exp(y)
    # dx/dy = Phi(x)/phi(x) = exp(y - log phi(x))
    return x, jnp.exp(y + 0.5 * x * x + _HALF_LOG_2PI) * dy


def lowergamma3_scaled(y: ArrayLike) -> Array:
    """lowergamma(3, y)/y^3 = int_0^1 u^2 e^{-yu} du, y >= 0: the positive series e^{-y} sum y^k/(3 4 .. (3+k))
    up to y = 30 (130 terms), 2(1 - e^{-y}(1 + y + y^2/2))/y^3 above."""
    y = _f(y)
    small = y <= 30.0
    ys = jnp.where(small, y, 0.0)

    def body(k: int, carry: Tuple[Array, Array]) -> Tuple[Array, Array]:
        term, acc = carry
        term = term * ys / (3.0 + k)
        return term, acc + term

    _, acc = jax.lax.fori_loop(1, 130, body, (jnp.full_like(ys, 1.0 / 3.0), jnp.full_like(ys, 1.0 / 3.0)))
    yl = jnp.where(small, 31.0, y)
    big = 2.0 * (1.0 - jnp.exp(-yl) * (1.0 + yl + 0.5 * yl * yl)) / (yl * yl * yl)
    return jnp.where(small, jnp.exp(-ys) * acc, big)


def lowergamma_scaled(n: int, y: ArrayLike) -> Array:
    """lowergamma(n + 1, y)/y^(n + 1) = int_0^1 u^n e^{-yu} du for an integer 0 <= n <= 100 and y >= 0, as the C
    runtime's ``fhsym_lowergamma_scaled``: the positive series e^{-y} sum_k y^k/((n + 1) ... (n + 1 + k)) up to
    y = 30 + 2n (400 terms), n! (1 - e^{-y} e_n(y))/y^(n + 1) above (e_n the exponential sum to y^n/n!).
    Measured under ``jit`` for n <= 8 (tests/test_declared_special_targets.py): 8.9e-16 relative; larger n untested."""
    n = int(n)
    y = _f(y)
    cut = 30.0 + 2.0 * n
    small = y <= cut
    ys = jnp.where(small, y, 0.0)

    def body(k: int, carry: Tuple[Array, Array]) -> Tuple[Array, Array]:
        term, acc = carry
        term = term * ys / (n + 1.0 + k)
        return term, acc + term

    first = jnp.full_like(ys, 1.0 / (n + 1.0))
    _, acc = jax.lax.fori_loop(1, 400, body, (first, first))
    yl = jnp.where(small, cut + 1.0, y)
    r, t, e_n = 1.0 / yl, jnp.ones_like(yl), jnp.ones_like(yl)
    for k in range(1, n + 1):
        r = r * (k / yl)
        t = t * (yl / k)
        e_n = e_n + t
    e = jnp.exp(-yl)
    big = jnp.where(e == 0.0, r, r * (1.0 - e * jnp.where(e == 0.0, 0.0, e_n)))
    out = jnp.where(small, jnp.exp(-ys) * acc, big)
    return jnp.where((y >= 0.0) & (0 <= n) & (n <= 100), out, jnp.nan)


def _gamma_parts(a: ArrayLike, x: ArrayLike) -> Tuple[Array, Array, Array, Array, Array, Array, Array]:
    """(a, x, near = x < a + 1, the series sum_k x^k/(a ... (a + k)) at x clamped below a + 1 (300 terms), x clamped
    to >= a + 1, Legendre's continued fraction 1/(x + 1 - a - 1 (1 - a)/(x + 3 - a - ...)) there (modified Lentz,
    300 terms)), as the C runtime's ``fhsym__gamma_series`` / ``fhsym__gamma_cf``."""
    a, x = jnp.broadcast_arrays(_f(a), _f(x))
    near = x < a + 1.0
    xs = jnp.where(near, x, 0.0)

    def series(k: int, carry: Tuple[Array, Array]) -> Tuple[Array, Array]:
        term, acc = carry
        term = term * xs / (a + k)
        return term, acc + term

    _, ser = jax.lax.fori_loop(1, 300, series, (1.0 / a, 1.0 / a))
    xl = jnp.where(near | (x == jnp.inf), a + 1.0, x)
    tiny = 1e-300

    def lentz(k: int, carry: Tuple[Array, Array, Array, Array]) -> Tuple[Array, Array, Array, Array]:
        b, c, d, h = carry
        an = -k * (k - a)
        b = b + 2.0
        d = an * d + b
        d = 1.0 / jnp.where(jnp.abs(d) < tiny, tiny, d)
        c = b + an / c
        c = jnp.where(jnp.abs(c) < tiny, tiny, c)
        return b, c, d, h * d * c

    b0 = xl + 1.0 - a
    _, _, _, h = jax.lax.fori_loop(1, 300, lentz, (b0, jnp.full_like(b0, 1.0 / tiny), 1.0 / b0, 1.0 / b0))
    return a, x, near, xs, ser, xl, h


def _gamma_front(a: Array, x: Array) -> Array:
    """exp(-x) x^a as (e^{-x/2} x^a) e^{-x/2} (each factor to an ulp: no underflow of exp(-x) alone where the
    product is a normal number), else exp(a log x - x)."""
    e = jnp.exp(-0.5 * x)
    v = (e * x**a) * e
    return jnp.where((v > 1e-300) & (v < 1e300), v, jnp.exp(a * jnp.log(x) - x))


def uppergamma(a: ArrayLike, x: ArrayLike) -> Array:
    """Gamma(a, x) for a > 0, x >= 0, as the C runtime's ``fhsym_uppergamma``: Gamma(a) - e^{-x} x^a (series) below
    x = a + 1, e^{-x} x^a (continued fraction) above; a fixed 300 terms of each (the C runtime stops early, at most
    500).  Measured under ``jit`` for a from 1/6 to 10, x up to 7.5e4 (tests/test_declared_special_targets.py): 1.6e-14
    relative; larger a (where 300 terms may not converge) is untested."""
    a, x, near, xs, ser, xl, h = _gamma_parts(a, x)
    out = jnp.where(near, jnp.exp(jsc.gammaln(a)) - _gamma_front(a, xs) * ser, _gamma_front(a, xl) * h)
    out = jnp.where(x == jnp.inf, 0.0, out)
    return jnp.where((a > 0.0) & (x >= 0.0), out, jnp.nan)


def log_uppergamma(a: ArrayLike, x: ArrayLike) -> Array:
    """log Gamma(a, x) for a > 0, x >= 0, as the C runtime's ``fhsym_log_uppergamma``: lgamma(a) + log1p(-P(a, x))
    below x = a + 1 (P = e^{-x} x^a (series)/Gamma(a)), -x + a log x + log(continued fraction) above (no underflow
    far out)."""
    a, x, near, xs, ser, xl, h = _gamma_parts(a, x)
    lga = jsc.gammaln(a)
    with_p = lga + log1p(-jnp.exp(a * jnp.log(xs) - xs - lga) * ser)
    cf = a * jnp.log(xl) - xl + jnp.log(h)
    out = jnp.where(near, with_p, jnp.where(x == jnp.inf, -jnp.inf, cf))
    return jnp.where((a > 0.0) & (x >= 0.0), out, jnp.nan)


def log1mexp(x: ArrayLike) -> Array:
    """log(1 - exp(-x)) for x > 0 (Maechler 2012)."""
    x = _f(x)
    return jnp.where(x <= _LN2, jnp.log(-jnp.expm1(-jnp.minimum(x, _LN2))), log1p(-jnp.exp(-jnp.maximum(x, _LN2))))


def _erfcx_diff_setup(y: Array, k: Array) -> Tuple[Tuple[Array, Array, Array], Array, Array, Array, Array, Array]:
    """The regimes of :func:`erfcx_diff` (the series where y >= 7, the direct difference, the quadrature) and
    the series' start at the clamped y >= 7: (regimes, 1/y, 1/y^2, c_1 = k/(y + k), q^2, 1 - q^2), q = y/(y + k)."""
    big = y >= 7.0
    direct = ~big & (k * jnp.maximum(1.0, -y) >= 0.5)
    yb = jnp.where(big, y, 7.0)
    kb = jnp.where(big, k, 1.0)
    inv = 1.0 / yb
    s = yb + kb
    q = yb / s
    c = jnp.where(jnp.isinf(kb), 1.0, kb / jnp.where(jnp.isinf(kb), 1.0, s))
    return (big, direct, ~big & ~direct), inv, inv * inv, c, q * q, c * (1.0 + q)


@jax.custom_jvp
def erfcx_diff(y: ArrayLike, k: ArrayLike) -> Array:
    """erfcx(y) - erfcx(y + k), k >= 0, without cancellation (as fhsym._core.numerics.erfcx_diff): the differenced
    asymptotic series for y >= 7 (40 terms, positive recurrence), the direct difference where
    k max(1, -y) >= 1/2, 8-point Gauss-Legendre of -erfcx' otherwise.

    Evaluated as elementwise graphs that XLA fuses (the series unrolled, each erfcx call on its own
    point), each regime only if some point is in it: 0.03 s on 10^6 points against 0.34 s for the
    loop form (:func:`_erfcx_diff_compact`).  Under differentiation (``jvp``, ``grad``) the value and its
    derivative are those of the loop form, whose graph compiles in seconds (the unrolled one's
    derivative takes minutes); the two forms agree to a few ulp."""
    y, k = jnp.broadcast_arrays(_f(y), _f(k))
    (big, direct, quad), inv, inv2, c, q2, dd = _erfcx_diff_setup(y, k)

    def series(_: Any) -> Array:
        acc, pw, cm, coef = jnp.zeros_like(inv), inv, c, 1.0 / _SQRT_PI
        for m in range(40):  # acc += coef_m y^{-(2m+1)} c_{2m+1}; coef_{m+1} = -coef_m (2m + 1)/2
            acc = acc + coef * pw * cm
            pw = pw * inv2
            cm = dd + q2 * cm
            coef = -coef * (2.0 * m + 1.0) / 2.0
        return acc

    yq = jnp.where(quad, y, 0.0)
    half = 0.5 * jnp.where(quad, k, 0.1)
    t = [yq + half + half * node for node in _GL_X]  # the quadrature's nodes
    # the direct difference's two points take the first two nodes' erfcx calls (the regimes exclude each other)
    t[0], t[1] = jnp.where(direct, y, t[0]), jnp.where(direct, y + k, t[1])
    e01 = (erfcx(t[0]), erfcx(t[1]))

    def quadrature(_: Any) -> Array:  # 8-point Gauss-Legendre of 2/sqrt(pi) - 2 t erfcx(t)
        tot = jnp.zeros_like(yq)
        for tj, ej, weight in zip(t, list(e01) + [erfcx(tj) for tj in t[2:]], _GL_W):
            tot = tot + weight * (2.0 / _SQRT_PI - 2.0 * tj * ej)
        return tot * half

    # a regime no point is in is skipped (under jit on an array; under vmap lax.cond evaluates both sides)
    zero = jnp.zeros_like(yq)
    acc = jax.lax.cond(jnp.any(big), series, lambda _: zero, None)
    tot = jax.lax.cond(jnp.any(quad), quadrature, lambda _: zero, None)
    out = jnp.where(big, acc, jnp.where(direct, e01[0] - e01[1], tot))
    return jnp.where(y == jnp.inf, 0.0, out)  # erfcx(inf) = erfcx(inf + k) = 0


@erfcx_diff.defjvp
def _erfcx_diff_jvp(primals: Sequence[ArrayLike], tangents: Sequence[ArrayLike]) -> Tuple[Array, Array]:
    y, k = primals
    return jax.jvp(_erfcx_diff_compact, (_f(y), _f(k)), tuple(_f(t) for t in tangents))


def _erfcx_diff_compact(y: ArrayLike, k: ArrayLike) -> Array:
    """:func:`erfcx_diff` as a small graph (the series a loop, one erfcx call on the ten points of the
    two other regimes): what its derivative is taken of (quick to compile, also under ``grad``)."""
    y, k = jnp.broadcast_arrays(_f(y), _f(k))
    (big, direct, quad), inv, inv2, c, q2, dd = _erfcx_diff_setup(y, k)

    def term(m: int, carry: Tuple[Array, Array, Array, Array]) -> Tuple[Array, Array, Array, Array]:  # acc += coef_m y^{-(2m+1)} c_{2m+1}; coef_{m+1} = -coef_m (2m + 1)/2
        acc, pw, c, coef = carry
        return acc + coef * pw * c, pw * inv2, dd + q2 * c, -coef * (2.0 * m + 1.0) / 2.0

    acc, *_ = jax.lax.fori_loop(0, 40, term, (jnp.zeros_like(inv), inv, c, jnp.full_like(inv, 1.0 / _SQRT_PI)))
    yd = jnp.where(direct, y, 0.0)
    kd = jnp.where(direct, k, 1.0)
    yq = jnp.where(quad, y, 0.0)
    kq = jnp.where(quad, k, 0.1)
    half = 0.5 * kq
    nodes = (yq + half)[..., None] + half[..., None] * jnp.asarray(_GL_X)
    # one erfcx call for the direct difference's two points and the 8 quadrature nodes
    e = erfcx(jnp.concatenate([yd[..., None], (yd + kd)[..., None], nodes], axis=-1))
    dres = e[..., 0] - e[..., 1]
    tot = jnp.sum(jnp.asarray(_GL_W) * (2.0 / _SQRT_PI - 2.0 * nodes * e[..., 2:]), axis=-1)
    return jnp.where(big, acc, jnp.where(direct, dres, tot * half))


def _gauss_profile_parts(x: ArrayLike, D: ArrayLike) -> Tuple[Array, Array]:
    """(H(x, D), log H where x >= -5 else NaN): each branch of gauss_profile evaluated once.

    x >= -5: H = e^{-x^2/2} erfcx_diff(x/sqrt2, D/sqrt2)/2; x < -5 < x + D/2: the direct form
    Q(x) - e^{-x^2/2} erfcx((x + D)/sqrt2)/2; otherwise the reflection -expm1(a) + e^a H(-x - D, D),
    a = D(x + D/2), whose H(-x - D) is again one of the first two."""
    x, D = jnp.broadcast_arrays(_f(x), _f(D))
    hi = x >= -5.0
    direct = ~hi & (x + 0.5 * D > 0.0)
    refl = ~hi & ~direct
    xr = jnp.where(refl, x, -6.0)
    Dr = jnp.where(refl, D, 1.0)
    a = Dr * (xr + 0.5 * Dr)
    xm = -xr - Dr
    mh = xm >= -5.0
    # the erfcx_diff form at x (x >= -5) or at the reflected point (reflection, -x - D >= -5)
    use_hi = hi | (refl & mh)
    xa = jnp.where(hi, x, jnp.where(refl & mh, xm, 0.0))
    Da = jnp.where(use_hi, D, 1.0)
    log_hi = -0.5 * xa * xa + jnp.log(0.5 * erfcx_diff(xa * _SQRT1_2, Da * _SQRT1_2))
    h_hi = jnp.exp(log_hi)
    # the direct form at x or at the reflected point
    use_dir = direct | (refl & ~mh)
    xb = jnp.where(direct, x, jnp.where(refl & ~mh, xm, -6.0))
    Db = jnp.where(use_dir, D, 20.0)
    h_dir = 0.5 * jsc.erfc(xb * _SQRT1_2) - 0.5 * jnp.exp(-0.5 * xb * xb) * erfcx((xb + Db) * _SQRT1_2)
    h_ref = -jnp.expm1(a) + jnp.exp(a) * jnp.where(mh, h_hi, h_dir)
    return jnp.where(hi, h_hi, jnp.where(direct, h_dir, h_ref)), jnp.where(hi, log_hi, jnp.nan)


def gauss_profile(x: ArrayLike, D: ArrayLike) -> Array:
    """H(x, D) = Q(x) - exp(D x + D^2/2) Q(x + D) >= 0 (as fhsym._core.numerics.gauss_profile)."""
    return _gauss_profile_parts(x, D)[0]


def log_gauss_profile(x: ArrayLike, D: ArrayLike) -> Array:
    """log H(x, D), finite wherever H > 0 is (x >= -5 directly in log space)."""
    h, log_hi = _gauss_profile_parts(x, D)
    return jnp.where(jnp.isnan(log_hi), jnp.log(jnp.where(jnp.isnan(log_hi), h, 1.0)), log_hi)


_SPLITTER = 134217729.0  # 2^27 + 1


def _split(x: Array) -> Tuple[Array, Array]:
    c = _SPLITTER * x
    hi = c - (c - x)
    return hi, x - hi


def sub_prod(e: ArrayLike, x: ArrayLike, y: ArrayLike) -> Array:
    """e - x*y with the product taken exactly (Dekker's TwoProduct); e - x*y where splitting overflows."""
    e, x, y = jnp.broadcast_arrays(_f(e), _f(x), _f(y))
    p = x * y
    ah, al = _split(x)
    bh, bl = _split(y)
    err = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    ok = jnp.isfinite(err)
    return jnp.where(ok, (e - p) - jnp.where(ok, err, 0.0), e - p)


def abs_sum_sub(x: ArrayLike, y: ArrayLike, c: ArrayLike) -> Array:
    """|x + y| - c with x + y taken error-free (Knuth's TwoSum)."""
    x, y, c = jnp.broadcast_arrays(_f(x), _f(y), _f(c))
    h = x + y
    bb = h - x
    lo = (x - (h - bb)) + (y - bb)
    ok = jnp.isfinite(lo)
    lo = jnp.where(ok, lo, 0.0)
    return jnp.where(ok, (jnp.abs(h) - c) + jnp.where(h < 0, -lo, lo), jnp.abs(x + y) - c)


def log_max0(y: Array) -> Array:
    """log(max(0, y)): -inf where y <= 0, with a zero (not NaN) gradient there.

    The printed form of SymPy's ``log(Max(0, y))`` (a piece that is clipped at 0 and then
    log-added to others): the log is taken of y where y > 0 and of 1 elsewhere (the
    double-``where`` idiom), so the unselected value adds 0 * finite to a gradient.
    """
    pos = y > 0
    return jnp.where(pos, jnp.log(jnp.where(pos, y, 1.0)), -jnp.inf)
