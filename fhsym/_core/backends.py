"""The array namespaces the generated kernels run on, and the two region dispatches (numpy, JAX).

Every kernel of ``fhsym/_generated/`` is printed once, against a namespace parameter
``xp`` (``def sf_tail(b, s, lw, xp=NUMPY)``): its body calls ``xp.exp``, ``xp.erfcx``, ...
:data:`NUMPY` binds those names to numpy, ``scipy.special`` and :mod:`fhsym._core.numerics`;
:func:`jax_namespace` binds the same names to ``jax.numpy``, ``jax.scipy.special`` and
:mod:`fhsym._core.numerics_jax` (the JAX module ``fhsym._generated.jax_kernels`` calls the
numpy modules' kernels with it).  One table, :data:`IMPLEMENTATIONS`, lists both columns.

A piecewise function evaluates the kernel of each region.  numpy evaluates each kernel on the
points of its region only (:func:`piecewise`); under ``jit`` a mask cannot select a
data-dependent subset, so JAX evaluates every piece on the whole array and merges them with
``jnp.where`` (:func:`piecewise_where`).
"""

from __future__ import annotations

import functools
import importlib
import types
from typing import Any, Callable, Dict, Optional, Sequence, Tuple

import numpy as np

__all__ = ["IMPLEMENTATIONS", "NUMPY", "jax_namespace", "log_max0", "float_arrays", "bind", "piecewise", "piecewise_where"]


def log_max0(y):
    """log(max(0, y)): -inf where y <= 0 (the numpy twin of ``numerics_jax.log_max0``)."""
    return np.log(np.maximum(0, y))


#: name in a generated kernel -> (numpy implementation, JAX implementation or None), as "module:attribute"
IMPLEMENTATIONS: Dict[str, Tuple[str, Optional[str]]] = {
    "pi": ("numpy:pi", "jax.numpy:pi"),
    "inf": ("numpy:inf", "jax.numpy:inf"),
    "float64": ("numpy:float64", "jax.numpy:float64"),
    "asarray": ("numpy:asarray", "jax.numpy:asarray"),
    "where": ("numpy:where", "jax.numpy:where"),
    "exp": ("numpy:exp", "jax.numpy:exp"),
    "expm1": ("numpy:expm1", "jax.numpy:expm1"),
    "log": ("numpy:log", "jax.numpy:log"),
    "log1p": ("numpy:log1p", "jax.numpy:log1p"),
    "sqrt": ("numpy:sqrt", "jax.numpy:sqrt"),
    "sign": ("numpy:sign", "jax.numpy:sign"),
    "maximum": ("numpy:maximum", "jax.numpy:maximum"),
    "minimum": ("numpy:minimum", "jax.numpy:minimum"),
    "logaddexp": ("numpy:logaddexp", "jax.numpy:logaddexp"),
    "log_max0": ("fhsym._core.backends:log_max0", "fhsym._core.numerics_jax:log_max0"),
    "logical_not": ("numpy:logical_not", "jax.numpy:logical_not"),
    "erf": ("scipy.special:erf", "jax.scipy.special:erf"),
    "erfc": ("scipy.special:erfc", "jax.scipy.special:erfc"),
    "erfinv": ("scipy.special:erfinv", "jax.scipy.special:erfinv"),
    "ndtri": ("scipy.special:ndtri", "jax.scipy.special:ndtri"),
    "gamma": ("scipy.special:gamma", "jax.scipy.special:gamma"),
    "gammaincc": ("scipy.special:gammaincc", "jax.scipy.special:gammaincc"),
    "erfcx": ("scipy.special:erfcx", "fhsym._core.numerics_jax:erfcx"),
    "log_ndtr": ("scipy.special:log_ndtr", "fhsym._core.numerics_jax:log_ndtr"),
    "ndtri_exp": ("scipy.special:ndtri_exp", "fhsym._core.numerics_jax:ndtri_exp"),
    "exprel": ("scipy.special:exprel", "fhsym._core.numerics_jax:exprel"),
    "lowergamma_scaled": ("fhsym._core.numerics:lowergamma_scaled", None),
    "lowergamma3_scaled": ("fhsym._core.numerics:lowergamma3_scaled", "fhsym._core.numerics_jax:lowergamma3_scaled"),
    "log1mexp": ("fhsym._core.numerics:log1mexp", "fhsym._core.numerics_jax:log1mexp"),
    "erfcx_diff": ("fhsym._core.numerics:erfcx_diff", "fhsym._core.numerics_jax:erfcx_diff"),
    "gauss_profile": ("fhsym._core.numerics:gauss_profile", "fhsym._core.numerics_jax:gauss_profile"),
    "log_gauss_profile": ("fhsym._core.numerics:log_gauss_profile", "fhsym._core.numerics_jax:log_gauss_profile"),
    "sub_prod": ("fhsym._core.numerics:sub_prod", "fhsym._core.numerics_jax:sub_prod"),
    "abs_sum_sub": ("fhsym._core.numerics:abs_sum_sub", "fhsym._core.numerics_jax:abs_sum_sub"),
}


def _namespace(label: str, column: int) -> types.SimpleNamespace:
    """The namespace of one column of :data:`IMPLEMENTATIONS` (names without an implementation left out)."""
    found: Dict[str, Any] = {}
    for name, impls in IMPLEMENTATIONS.items():
        where = impls[column]
        if where is not None:
            module, attr = where.split(":")
            found[name] = getattr(importlib.import_module(module), attr)
    return types.SimpleNamespace(name=label, **found)


#: the namespace of the numpy modules (every generated kernel's default ``xp``)
NUMPY = _namespace("numpy", 0)


@functools.lru_cache(maxsize=None)
def jax_namespace() -> types.SimpleNamespace:
    """The JAX namespace (imports jax, and turns on ``jax_enable_x64`` through ``numerics_jax``)."""
    return _namespace("jax", 1)


def float_arrays(*args, xp=NUMPY):
    """The arguments as float64 arrays of the namespace ``xp``."""
    return tuple(xp.asarray(v, dtype=xp.float64) for v in args)


def bind(kernel: Callable[..., Any], xp: types.SimpleNamespace) -> Callable[..., Any]:
    """``kernel`` (a generated function taking ``xp=``) with its namespace bound; name and docstring kept."""
    return functools.update_wrapper(functools.partial(kernel, xp=xp), kernel)


def _pick(x, m):
    """x where the mask m holds (x itself when it is a scalar: the kernels broadcast it)."""
    return x if x.ndim == 0 else np.broadcast_to(x, m.shape)[m]


def piecewise(args: Sequence[np.ndarray], regions: Sequence[Any], pieces: Sequence[Callable[..., Any]]) -> np.ndarray:
    """numpy: ``pieces[i](*args)`` on the points of ``regions[i]`` only (NaN where no region holds).

    ``args`` are float arrays (:func:`float_arrays`); each piece is called, if its region holds
    anywhere, with the arguments restricted to its region (scalars as they are).
    """
    shape = np.broadcast_shapes(*(a.shape for a in args))
    out = np.full(shape, np.nan)
    for region, piece in zip(regions, pieces):
        m = np.broadcast_to(region, shape)
        if m.any():
            out[m] = piece(*(_pick(a, m) for a in args))
    return out


def piecewise_where(args: Sequence[Any], regions: Sequence[Any], pieces: Sequence[Callable[[Any], Any]]):
    """JAX: ``pieces[i](m_i)`` where its region ``m_i`` holds, merged with ``jnp.where`` in order (NaN elsewhere).

    Every piece is evaluated on the whole array (``jit`` cannot select a subset); a piece receives
    its region's mask, so that it can replace its arguments outside the region by safe points.
    """
    import jax.numpy as jnp

    shape = jnp.broadcast_shapes(*(jnp.shape(a) for a in args))
    out = jnp.full(shape, jnp.nan)
    for region, piece in zip(regions, pieces):
        m = jnp.broadcast_to(region, shape)
        out = jnp.where(m, piece(m), out)
    return out
