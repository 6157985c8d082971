"""Array type aliases (numpy.typing) shared by fhsym's annotations.

``FloatArray`` is an array of binary64 values, ``BoolArray`` a mask, ``IntArray`` an array of int64,
``U32Array`` one of raw 32-bit words, ``ComplexArray`` a spectrum;
``Real`` is what a vectorised formula takes and returns: a double or an array of doubles;
``RealT`` the same as a type variable (a double in, a double out; an array in, an array out).

>>> import numpy as np
>>> x: FloatArray = np.linspace(0.0, 1.0, 3)
>>> x.dtype
dtype('float64')
"""

from __future__ import annotations

from typing import TypeVar, Union

import numpy as np
from numpy.typing import NDArray

__all__ = ["FloatArray", "BoolArray", "IntArray", "U32Array", "ComplexArray", "Real", "RealT"]

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.int64]
U32Array = NDArray[np.uint32]
ComplexArray = NDArray[np.complex128]
Real = Union[float, FloatArray]
RealT = TypeVar("RealT", float, FloatArray)
