"""The flipped Huber distribution and its privacy profile as JAX functions: float64, jit, vmap, grad.

Needs the optional extra ``jax`` (``pip install 'fhsym[jax]'``; without it, importing this module
raises ``ModuleNotFoundError``, an ``ImportError``, that says so).  Importing this module turns
on ``jax_enable_x64`` (the kernels are float64).  Every function broadcasts over all its
arguments and is differentiable in each of them (including ``alpha`` and ``gamma``); the
kernels and the region dispatch are printed by ``python -m fhsym.codegen --target jax`` from
the same SymPy declarations as the numpy API (:mod:`fhsym._generated.jax_kernels`).

Parameters: ``alpha >= 0``, ``gamma > 0`` finite, ``q`` in [0, 1], ``eps >= 0`` and
``sensitivity > 0`` finite.  Called on concrete values, an invalid argument raises
``ValueError`` naming it and its range (as the numpy API); under ``jit``/``vmap`` values are
not known at trace time, so invalid arguments give NaN instead.

Formulas: ``logpdf``/``pdf`` eq 8, ``cdf``/``sf``/``logsf`` eq 10, ``ppf`` its inverse (Appendix
B, derived), ``variance`` eq 11, ``privacy_profile`` the 1-D profile delta(eps) of Theorem 3
(eq 13, five cases, Table I).  Unlike :func:`fhsym.privacy_profile`, points within 1e-6 of the
kink eps = alpha Delta/gamma^2 are not re-evaluated in mpmath (see ``docs/codegen.md``).

Examples
--------
>>> import jax
>>> from fhsym import jax as fhj
>>> round(float(fhj.cdf(0.7, 1.0, 2.0)), 12)               # as fhsym.FlippedHuber(1.0, 2.0).cdf(0.7)
0.642716064594
>>> round(float(jax.grad(fhj.variance, argnums=1)(1.0, 2.0)), 10)   # d Var/d gamma
4.0312668627
"""

from __future__ import annotations

import math
from typing import List, Tuple

import numpy as np

try:
    import jax
    import jax.numpy as jnp
    from jax import Array
    from jax.typing import ArrayLike
except ModuleNotFoundError as exc:  # jax, or a module jax needs (jaxlib), is not installed: say which extra provides it
    raise ModuleNotFoundError(f"fhsym.jax needs JAX, an optional extra: pip install 'fhsym[jax]' (importing jax failed: {exc})",
                              name=exc.name or "jax") from exc

from ._core import domains as V
from ._generated import jax_kernels as _K

jax.config.update("jax_enable_x64", True)

__all__ = ["logpdf", "pdf", "cdf", "sf", "logsf", "ppf", "variance", "privacy_profile"]

_T = V.Domain("t", -math.inf, math.inf, closed_lower=True, closed_upper=True, allow_inf=True)
_HALF_LOG_2PI = 0.5 * math.log(2.0 * math.pi)
_LOG_DIRECT = -290.0 * math.log(10.0)


def _concrete(x: object) -> bool:
    return not isinstance(x, jax.core.Tracer)


def _check(*pairs: Tuple[ArrayLike, V.Domain]) -> List[Array]:
    """Eager validation (concrete values only) and conversion to float64 arrays."""
    out: List[Array] = []
    for x, dom in pairs:
        if _concrete(x):
            V.check_array(np.asarray(x, dtype=float), dom)
        out.append(jnp.asarray(x, dtype=jnp.float64))
    return out


_D_MIN, _D_MAX = 2.2250738585072014e-308, 1e150


def _valid(alpha: Array, gamma: Array) -> Array:
    """The traced parameter check: alpha >= 0, gamma > 0, both finite, alpha/gamma finite."""
    b = alpha / gamma
    return (alpha >= 0) & jnp.isfinite(alpha) & (gamma > 0) & jnp.isfinite(gamma) & jnp.isfinite(b)


def _shape(alpha: Array, gamma: Array) -> Tuple[Array, Array, Array, Array]:
    """Standard units and the dispatch thresholds: b, lw = log(kappa/gamma), P(T > alpha), p_direct."""
    b = alpha / gamma
    lw = _K.log_kappa_std(b)
    p_tail = _K.tail_mass_of_b(b, lw)
    p_direct = jnp.exp(jnp.minimum(_LOG_DIRECT - (lw + 0.5 * b * b) + _HALF_LOG_2PI, 0.0))
    return b, lw, p_tail, p_direct


def _quartile(alpha: Array, gamma: Array) -> Tuple[Array, Array, Array]:
    """b, lw and the survival function's dispatch threshold s_q, the standardised upper quartile."""
    b, lw, p_tail, p_direct = _shape(alpha, gamma)
    return b, lw, _K.isf_std(b, 0.25, 0.25, lw, p_tail, p_direct)


def _nan_unless(ok: Array, v: Array) -> Array:
    return jnp.where(ok, v, jnp.nan)


def logpdf(t: ArrayLike, alpha: ArrayLike, gamma: ArrayLike) -> Array:
    """log g(t) (eq 8): -rho_alpha(t)/gamma^2 - log kappa."""
    t, alpha, gamma = _check((t, _T), (alpha, V.ALPHA), (gamma, V.GAMMA))
    b, lw, *_ = _shape(alpha, gamma)
    out = _K.logpdf_std(b, jnp.abs(t / gamma), lw) - jnp.log(gamma)
    return _nan_unless(_valid(alpha, gamma) & ~jnp.isnan(t), out)


def pdf(t: ArrayLike, alpha: ArrayLike, gamma: ArrayLike) -> Array:
    """g(t) = exp(-rho_alpha(t)/gamma^2)/kappa (eq 8)."""
    return jnp.exp(logpdf(t, alpha, gamma))


def _sf_std(b: Array, lw: Array, s_q: Array, s: Array) -> Array:
    v = _K.sf_std_nonneg(b, jnp.abs(s), lw, s_q)
    return jnp.where(s >= 0, v, 1.0 - v)


def sf(t: ArrayLike, alpha: ArrayLike, gamma: ArrayLike) -> Array:
    """P(T > t) (1 - eq 10), relative accuracy far into the right tail."""
    t, alpha, gamma = _check((t, _T), (alpha, V.ALPHA), (gamma, V.GAMMA))
    b, lw, s_q = _quartile(alpha, gamma)
    return _nan_unless(_valid(alpha, gamma) & ~jnp.isnan(t), _sf_std(b, lw, s_q, t / gamma))


def cdf(t: ArrayLike, alpha: ArrayLike, gamma: ArrayLike) -> Array:
    """P(T <= t) (eq 10) = sf(-t)."""
    return sf(-jnp.asarray(t, dtype=jnp.float64), alpha, gamma)


def logsf(t: ArrayLike, alpha: ArrayLike, gamma: ArrayLike) -> Array:
    """log P(T > t), finite for every finite t."""
    t, alpha, gamma = _check((t, _T), (alpha, V.ALPHA), (gamma, V.GAMMA))
    b, lw, s_q = _quartile(alpha, gamma)
    s = t / gamma
    pos = s >= 0
    out = jnp.where(pos, _K.logsf_std_nonneg(b, jnp.where(pos, s, 0.0), lw, s_q),
                    jnp.log1p(-_K.sf_std_nonneg(b, jnp.where(pos, 0.0, -s), lw, s_q)))
    return _nan_unless(_valid(alpha, gamma) & ~jnp.isnan(t), out)


def ppf(q: ArrayLike, alpha: ArrayLike, gamma: ArrayLike) -> Array:
    """The t with P(T <= t) = q (eq 10 inverted piece by piece; Appendix B, derived)."""
    q, alpha, gamma = _check((q, V.PROBABILITY), (alpha, V.ALPHA), (gamma, V.GAMMA))
    b, lw, p_tail, p_direct = _shape(alpha, gamma)
    low = q <= 0.5
    # q <= 1/2: p = q, h = 1/2 - q; q > 1/2: p = 1 - q, h = q - 1/2 (exact); clamped away from 0 and 1
    p = jnp.where(low, jnp.maximum(q, 1e-300), jnp.maximum(1.0 - q, 1e-300))
    h = jnp.where(low, 0.5 - q, q - 0.5)
    s = _K.isf_std(b, p, h, lw, p_tail, p_direct)
    out = jnp.where(low, -gamma * s, gamma * s) + 0.0
    out = jnp.where(q == 0.0, -jnp.inf, jnp.where(q == 1.0, jnp.inf, out))
    return _nan_unless(_valid(alpha, gamma) & (q >= 0) & (q <= 1), out)


def variance(alpha: ArrayLike, gamma: ArrayLike) -> Array:
    """Var T (eq 11), a sum of positive terms; <= gamma^2."""
    alpha, gamma = _check((alpha, V.ALPHA), (gamma, V.GAMMA))
    b, lw, *_ = _shape(alpha, gamma)
    # b > 64: gamma^2 * 2/b^2 = 2 (gamma/b)^2, the Laplace kernel at b/gamma (no intermediate underflow)
    far = b > 64.0
    laplace = _K.variance_std_laplace(jnp.where(far, b / gamma, 1.0))
    return _nan_unless(_valid(alpha, gamma), jnp.where(far, laplace, gamma * gamma * _K.variance_of_b(b, lw)))


def privacy_profile(eps: ArrayLike, alpha: ArrayLike, gamma: ArrayLike, sensitivity: ArrayLike = 1.0) -> Array:
    """delta^(1)(eps) = int [g(t) - e^eps g(t + Delta)]_+ dt (Theorem 3, eq 13; Delta = sensitivity)."""
    eps, alpha, gamma, sensitivity = _check((eps, V.EPSILON), (alpha, V.ALPHA), (gamma, V.GAMMA), (sensitivity, V.SENSITIVITY))
    b, lw, *_ = _shape(alpha, gamma)
    D = sensitivity / gamma
    # the range the profile answers on (as fhsym.privacy.profile): D normal with a finite square, b D finite
    ok = (_valid(alpha, gamma) & (eps >= 0) & jnp.isfinite(eps) & (sensitivity > 0) & (D >= _D_MIN) & (D <= _D_MAX)
          & jnp.isfinite(b * D))
    return _nan_unless(ok, jnp.exp(_K.log_profile_std(b, D, eps, lw)))
