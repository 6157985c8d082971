"""The array namespaces the generated kernels run on, and the two region dispatches (numpy, JAX).

Every kernel of ``fhsym/_generated/`` is printed once, against a namespace parameter
``xp`` (``def sf_tail(b, s, lw, xp=NUMPY)``): its body calls ``xp.exp``, ``xp.erfcx``, ...
:data:`NUMPY` binds those names to numpy, ``scipy.special`` and :mod:`fhsym._core.numerics`;
:func:`jax_namespace` binds the same names to ``jax.numpy``, ``jax.scipy.special`` and
:mod:`fhsym._core.numerics_jax` (the JAX module ``fhsym._generated.jax_kernels`` calls the
numpy modules' kernels with it).  One table, :data:`IMPLEMENTATIONS`, lists both columns.

A piecewise function evaluates the kernel of each region.  numpy evaluates each kernel on the
points of its region only (:func:`piecewise`); under ``jit`` a mask cannot select a
data-dependent subset: JAX evaluates every piece on the whole array and merges them with
``jnp.where`` on small arrays, and on large ones puts the points in order of their piece and
evaluates one piece per block (:func:`piecewise_where`).
"""

from __future__ import annotations

import functools
import importlib
import types
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple, overload

import numpy as np

from .types import BoolArray, FloatArray, Real

if TYPE_CHECKING:  # jax is an optional extra, imported only where the JAX dispatch runs
    from jax import Array

__all__ = ["BLOCK", "IMPLEMENTATIONS", "NUMPY", "jax_namespace", "fori_loop", "log_max0", "float_arrays", "bind", "piecewise", "piecewise_where"]


def fori_loop(lower: int, upper: int, body: Callable[[int, Any], Any], init: Any) -> Any:
    """``jax.lax.fori_loop`` for the numpy namespace: ``init = body(k, init)`` for k in range(lower, upper)."""
    for k in range(lower, upper):
        init = body(k, init)
    return init


def log_max0(y: Real) -> FloatArray:
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
    "log1p": ("numpy:log1p", "fhsym._core.numerics_jax:log1p"),
    "sqrt": ("numpy:sqrt", "jax.numpy:sqrt"),
    "sign": ("numpy:sign", "jax.numpy:sign"),
    "maximum": ("numpy:maximum", "jax.numpy:maximum"),
    "minimum": ("numpy:minimum", "jax.numpy:minimum"),
    "floor": ("numpy:floor", "jax.numpy:floor"),
    "ceil": ("numpy:ceil", "jax.numpy:ceil"),
    "clip": ("numpy:clip", "jax.numpy:clip"),
    "arange": ("numpy:arange", "jax.numpy:arange"),
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
    "lowergamma_scaled": ("fhsym._core.numerics:lowergamma_scaled", "fhsym._core.numerics_jax:lowergamma_scaled"),
    "uppergamma": ("fhsym._core.numerics:uppergamma", "fhsym._core.numerics_jax:uppergamma"),
    "log_uppergamma": ("fhsym._core.numerics:log_uppergamma", "fhsym._core.numerics_jax:log_uppergamma"),
    "lowergamma3_scaled": ("fhsym._core.numerics:lowergamma3_scaled", "fhsym._core.numerics_jax:lowergamma3_scaled"),
    "log1mexp": ("fhsym._core.numerics:log1mexp", "fhsym._core.numerics_jax:log1mexp"),
    "erfcx_diff": ("fhsym._core.numerics:erfcx_diff", "fhsym._core.numerics_jax:erfcx_diff"),
    "gauss_profile": ("fhsym._core.numerics:gauss_profile", "fhsym._core.numerics_jax:gauss_profile"),
    "log_gauss_profile": ("fhsym._core.numerics:log_gauss_profile", "fhsym._core.numerics_jax:log_gauss_profile"),
    "sub_prod": ("fhsym._core.numerics:sub_prod", "fhsym._core.numerics_jax:sub_prod"),
    "abs_sum_sub": ("fhsym._core.numerics:abs_sum_sub", "fhsym._core.numerics_jax:abs_sum_sub"),
    "fori_loop": ("fhsym._core.backends:fori_loop", "jax.lax:fori_loop"),
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


@overload
def float_arrays(*args: Real) -> Tuple[FloatArray, ...]: ...
@overload
def float_arrays(*args: Any, xp: types.SimpleNamespace) -> Tuple[Any, ...]: ...
def float_arrays(*args: Any, xp: types.SimpleNamespace = NUMPY) -> Tuple[Any, ...]:
    """The arguments as float64 arrays of the namespace ``xp``.

    Typed for numpy (the default); another namespace (JAX: ``fhsym._generated.jax_kernels``) gives
    its own arrays, typed by the caller (this module does not import jax).
    """
    return tuple(xp.asarray(v, dtype=xp.float64) for v in args)


def bind(kernel: Callable[..., Any], xp: types.SimpleNamespace) -> Callable[..., Any]:
    """``kernel`` (a generated function taking ``xp=``) with its namespace bound; name and docstring kept."""
    return functools.update_wrapper(functools.partial(kernel, xp=xp), kernel)


def _pick(x: FloatArray, m: BoolArray) -> FloatArray:
    """x where the mask m holds (x itself when it is a scalar: the kernels broadcast it)."""
    return x if x.ndim == 0 else np.broadcast_to(x, m.shape)[m]


#: points from which :func:`piecewise` selects a region by integer indices (one ``flatnonzero`` per region, then
#: ``take``: ~10x faster than a boolean mask per argument on 10^5 points) instead of boolean masks (cheaper below)
TAKE_MIN = 256


def piecewise(args: Sequence[np.ndarray], regions: Sequence[Any], pieces: Sequence[Callable[..., Any]]) -> np.ndarray:
    """numpy: ``pieces[i](*args)`` on the points of ``regions[i]`` only (NaN where no region holds).

    ``args`` are float arrays (:func:`float_arrays`); each piece is called, if its region holds
    anywhere, with the arguments restricted to its region (scalars as they are), in C order either
    way (boolean masks on small arrays, integer indices from :data:`TAKE_MIN` points on: the same
    values).
    """
    shape = np.broadcast_shapes(*(a.shape for a in args))
    out = np.full(shape, np.nan)
    if out.size < TAKE_MIN:
        for region, piece in zip(regions, pieces):
            m = np.broadcast_to(region, shape)
            if m.any():
                out[m] = piece(*(_pick(a, m) for a in args))
        return out
    flat = [a if a.ndim == 0 else np.broadcast_to(a, shape).reshape(-1) for a in args]
    dest = out.reshape(-1)
    for region, piece in zip(regions, pieces):
        idx = np.flatnonzero(np.broadcast_to(region, shape))
        if idx.size:
            dest[idx] = piece(*(a if a.ndim == 0 else a.take(idx) for a in flat))
    return out


#: points per block of the JAX dispatch on large arrays (piecewise_where); arrays below 4 blocks merge every piece
BLOCK = 4096


def piecewise_where(args: Sequence[Any], regions: Sequence[Any], pieces: Sequence[Callable[..., Any]],
                    blocks: bool = True) -> Array:
    """JAX: ``pieces[i](m_i, *args)`` where its region ``m_i`` holds (NaN where none holds), jit-compatible.

    ``pieces[i](m, *args)`` evaluates piece i at ``args``, replacing its arguments where the mask
    ``m`` is false by safe points (finite, so that an unselected value adds no NaN to a gradient).

    * Fewer than ``4 * BLOCK`` points (every call under ``vmap`` of a scalar function), or ``blocks``
      false (pieces too cheap to be worth sorting): every piece on the whole array, merged with
      ``jnp.where``.
    * Otherwise each piece is evaluated on its own points only: the points are put in order of their
      piece (a counting sort: the rank in each region by a cumulative sum), each piece's run starting
      on a block boundary (its last block filled with copies of its first point), so that every block
      of ``BLOCK`` points belongs to one piece; ``lax.map`` over the blocks evaluates that piece alone
      (``lax.switch``; the mask true: no safe points needed), with the scalar arguments kept scalar
      (the kernels' parameter-only parts are computed once per block, not once per point); the
      values go back to their places.  The same values as the merge, up to XLA's fusion (a few ulp).
    """
    import jax.numpy as jnp

    shape = jnp.broadcast_shapes(*(jnp.shape(a) for a in args))
    masks = [jnp.broadcast_to(region, shape) for region in regions]
    n = int(np.prod(shape, dtype=np.int64))
    if n < 4 * BLOCK or not blocks:
        out = jnp.full(shape, jnp.nan)
        for m, piece in zip(masks, pieces):
            out = jnp.where(m, piece(m, *args), out)
        return out
    return _piecewise_blocks(args, masks, pieces, shape, n)


def _piecewise_blocks(args: Sequence[Any], masks: Sequence[Array], pieces: Sequence[Callable[..., Any]],
                      shape: Tuple[int, ...], n: int) -> Array:
    """:func:`piecewise_where` on ``n >= 4 BLOCK`` points: each piece's points in blocks of their own."""
    import jax
    import jax.numpy as jnp

    k = len(pieces)
    idx = jnp.full(n, k, dtype=jnp.int32)  # the piece of each point; k where no region holds (NaN arguments)
    for i in reversed(range(k)):
        idx = jnp.where(masks[i].reshape(-1), i, idx)
    # each piece's run starts on a block boundary: slot = start of its run + rank of the point within it
    rank, first = jnp.zeros(n, dtype=jnp.int32), []
    start = jnp.zeros((), dtype=jnp.int32)
    for i in range(k + 1):
        mine = idx == i
        rank = jnp.where(mine, start + jnp.cumsum(mine, dtype=jnp.int32) - 1, rank)
        first.append(start)
        start = start + (jnp.sum(mine, dtype=jnp.int32) + BLOCK - 1) // BLOCK * BLOCK
    blocks = -(-n // BLOCK) + k + 1  # a bound on the runs' blocks, known when tracing
    first_block = jnp.stack(first + [start]) // BLOCK
    kind = jnp.searchsorted(first_block, jnp.arange(blocks), side="right").astype(jnp.int32) - 1  # the piece of each block
    kind = jnp.where(kind > k, k, kind)  # blocks past the last run: no piece (NaN, discarded)
    order = jnp.full(blocks * BLOCK, -1, dtype=jnp.int32).at[rank].set(jnp.arange(n, dtype=jnp.int32))
    # a run's free slots repeat its first point (in the piece's region: finite values and gradients)
    run_first = order[jnp.minimum(first_block[jnp.minimum(kind, k)] * BLOCK, blocks * BLOCK - 1)]
    order = jnp.where(order >= 0, order, jnp.repeat(jnp.maximum(run_first, 0), BLOCK))
    scalar = [jnp.ndim(a) == 0 for a in args]
    blocked = [jnp.broadcast_to(a, shape).reshape(-1)[order].reshape(blocks, BLOCK) for a, sc in zip(args, scalar) if not sc]
    true = jnp.asarray(True)

    def one_piece(i: int) -> Callable[[List[Array]], Array]:
        def branch(block_args: List[Array]) -> Array:
            it = iter(block_args)
            values = [a if sc else next(it) for a, sc in zip(args, scalar)]
            return jnp.broadcast_to(jnp.asarray(pieces[i](true, *values), dtype=jnp.float64), (BLOCK,))
        return branch

    branches = [one_piece(i) for i in range(k)] + [lambda block_args: jnp.full((BLOCK,), jnp.nan)]
    out: Array = jax.lax.map(lambda ops: jax.lax.switch(ops[0], branches, ops[1]), (kind, blocked))  # lax.map: Any in jax's stubs
    return out.reshape(-1)[rank].reshape(shape)
