"""Array type aliases (numpy.typing) shared by fhsym's annotations, and the array namespace of the kernels.

``FloatArray`` is an array of binary64 values, ``BoolArray`` a mask, ``IntArray`` an array of int64,
``U32Array`` one of raw 32-bit words, ``ComplexArray`` a spectrum;
``Real`` is what a vectorised formula takes and returns: a double or an array of doubles;
``RealT`` the same as a type variable (a double in, a double out; an array in, an array out);
``Mask`` a region of a piecewise function: a truth value or a boolean array;
``real_abs`` is the builtin ``abs`` typed elementwise (mypy types ``abs`` of a ``Real`` as
``object``, the join of its two cases): the generated kernels print SymPy's ``Abs`` with it.

:class:`ArrayNamespace` is the namespace ``xp`` every generated kernel of ``fhsym/_generated/``
takes (``def sf_tail(b: Real, s: Real, lw: Real, xp: ArrayNamespace = NUMPY) -> Real``): one
attribute per entry of :data:`fhsym._core.backends.IMPLEMENTATIONS`, typed as the numpy column
behaves (a double in, a double out; an array in, an array out, following numpy's own stubs, which
type a 0-d array's result as an array).  The JAX namespace has the same attributes; the JAX module
``fhsym._generated.jax_kernels`` binds the kernels to it untyped (``backends.bind``) and types its
own functions on ``jax.Array``.

>>> import numpy as np
>>> x: FloatArray = np.linspace(0.0, 1.0, 3)
>>> x.dtype
dtype('float64')
>>> from fhsym._core.backends import NUMPY
>>> xp: ArrayNamespace = NUMPY
>>> float(xp.erfcx(0.0))
1.0
>>> real_abs is abs
True
"""

from __future__ import annotations

from typing import Any, Callable, Protocol, TypeVar, Union, overload

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["FloatArray", "BoolArray", "IntArray", "U32Array", "ComplexArray", "Real", "RealT", "Mask", "ArrayNamespace",
           "real_abs"]

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.int64]
U32Array = NDArray[np.uint32]
ComplexArray = NDArray[np.complex128]
Real = Union[float, FloatArray]
RealT = TypeVar("RealT", float, FloatArray)
Mask = Union[bool, BoolArray]


class _Unary(Protocol):
    """An elementwise function of one argument (a numpy ufunc, a ``scipy.special`` function)."""

    @overload
    def __call__(self, x: float, /) -> float: ...
    @overload
    def __call__(self, x: FloatArray, /) -> FloatArray: ...


#: the builtin abs itself (the same object), typed a double in, a double out; an array in, an array out
real_abs: _Unary = abs


class _Binary(Protocol):
    """An elementwise function of two arguments, broadcasting: an array as soon as one argument is."""

    @overload
    def __call__(self, x: float, y: float, /) -> float: ...
    @overload
    def __call__(self, x: FloatArray, y: Real, /) -> FloatArray: ...
    @overload
    def __call__(self, x: Real, y: FloatArray, /) -> FloatArray: ...


class _Ternary(Protocol):
    """An elementwise function of three arguments, broadcasting: an array as soon as one argument is."""

    @overload
    def __call__(self, x: float, y: float, z: float, /) -> float: ...
    @overload
    def __call__(self, x: FloatArray, y: Real, z: Real, /) -> FloatArray: ...
    @overload
    def __call__(self, x: Real, y: FloatArray, z: Real, /) -> FloatArray: ...
    @overload
    def __call__(self, x: Real, y: Real, z: FloatArray, /) -> FloatArray: ...


class _Not(Protocol):
    """Elementwise logical negation of a region."""

    @overload
    def __call__(self, x: bool, /) -> bool: ...
    @overload
    def __call__(self, x: BoolArray, /) -> BoolArray: ...


class _Where(Protocol):
    """``where(mask, x, y)``: x where the mask holds, else y (an array, 0-d for scalar arguments)."""

    def __call__(self, condition: Mask, x: Real, y: Real, /) -> FloatArray: ...


class _AsArray(Protocol):
    """``asarray(v, dtype=float64)``: v as an array of doubles."""

    def __call__(self, a: ArrayLike, /, *, dtype: type[np.float64]) -> FloatArray: ...


class _Clip(Protocol):
    """``clip(x, lo, hi)``: x limited to ``[lo, hi]`` elementwise."""

    def __call__(self, x: Real, lo: Real, hi: Real, /) -> FloatArray: ...


class _Arange(Protocol):
    """``arange(n)``: the integers 0 .. n-1 as an array."""

    def __call__(self, n: int, /) -> Any: ...


class ArrayNamespace(Protocol):
    """The names a generated kernel calls as ``xp.<name>`` (:data:`fhsym._core.backends.IMPLEMENTATIONS`).

    ``fhsym._core.backends.NUMPY`` (a ``types.SimpleNamespace``) is one; ``tests/test_codegen.py`` checks
    that the attributes below are exactly the names of ``IMPLEMENTATIONS``.
    """

    name: str
    pi: float
    inf: float
    float64: type[np.float64]
    asarray: _AsArray
    where: _Where
    exp: _Unary
    expm1: _Unary
    log: _Unary
    log1p: _Unary
    sqrt: _Unary
    sign: _Unary
    maximum: _Binary
    minimum: _Binary
    floor: _Unary
    ceil: _Unary
    clip: _Clip
    arange: _Arange
    logaddexp: _Binary
    log_max0: _Unary
    logical_not: _Not
    erf: _Unary
    erfc: _Unary
    erfinv: _Unary
    ndtri: _Unary
    gamma: _Unary
    gammaincc: _Binary
    erfcx: _Unary
    log_ndtr: _Unary
    ndtri_exp: _Unary
    exprel: _Unary
    lowergamma_scaled: _Binary
    uppergamma: _Binary
    log_uppergamma: _Binary
    lowergamma3_scaled: _Unary
    log1mexp: _Unary
    erfcx_diff: _Binary
    gauss_profile: _Binary
    log_gauss_profile: _Binary
    sub_prod: _Ternary
    abs_sum_sub: _Ternary
    fori_loop: Callable[..., Any]
