"""Array parameters for every noise distribution, broadcast like scipy.stats.

``FlippedHuber(alpha=[1, 2], gamma=[1, 3])`` is an instance of a subclass of
``FlippedHuber`` (built once per class by :func:`broadcast_class`) whose parameters are
arrays of the broadcast parameter shape.  Two kinds of law:

* a *vectorised* law (``vectorised = True``: :class:`~fhsym.FlippedHuber`) takes its
  parameters as arrays: its ``_init_arrays`` hook computes the constants of its constructor
  elementwise, and the template methods in :data:`NATIVE` (``pdf``, ``logpdf``, ``cdf``,
  ``sf``, ``logcdf``, ``logsf``, ``ppf``, ``isf``, ``rvs``, ``var``, ``std``, ``mean``,
  ``median``, ``support``, the privacy profile and loss, ``epsilon_for_delta``) evaluate its kernels on the whole
  broadcast array in one call, at numpy speed.  Its other public methods (``interval``,
  ``moment``, ``entropy``, ``expect``, ``stats``, ``log_mgf``, ...) are evaluated per element,
  on scalar instances built when first needed;
* any other law holds one scalar instance per element of the broadcast shape and every
  public method evaluates them one by one: methods vectorised in their arguments
  (:data:`VECTORISED`) once per scalar instance on the slice of the argument that belongs to
  it, the others once per element of the broadcast shape of the parameters and the array
  arguments (numbers assembled into a float array, tuples into a tuple of arrays); ``rvs(size)``
  one draw per scalar instance for all its positions.

``size`` in ``rvs`` must be broadcast-compatible with the parameter shape (the default is that
shape).  Scalar parameters never come here: they construct the class itself, exactly as before,
and keep returning scalars.  Validation gives the scalar constructor's ``ValueError``, naming
the parameter, plus the index of the first invalid element.

Examples
--------
>>> import fhsym
>>> fh = fhsym.FlippedHuber(alpha=[1.0, 2.0], gamma=[1.0, 3.0])
>>> isinstance(fh, fhsym.FlippedHuber), fh.parameter_shape
(True, (2,))
>>> fh.var().shape, fh.pdf([[0.0], [1.0]]).shape
((2,), (2, 2))
"""

from __future__ import annotations

import inspect
import math
import numbers
import types
from typing import Any, Callable, ClassVar, Dict, Iterator, List, Optional, Protocol, Tuple, Type, TypeVar, cast

import numpy as np
from numpy.typing import NDArray

from .._core import domains as V
from .._core.random import RandomState, Rng
from .._core.types import IntArray

__all__ = ["ArrayParameters", "NATIVE", "VECTORISED", "broadcast_class", "new_instance"]

#: template methods a vectorised law evaluates on array parameters in one call (its kernels take array constants)
NATIVE = frozenset({
    "logpdf", "pdf", "cdf", "sf", "logcdf", "logsf", "ppf", "isf", "rvs", "var", "std", "mean", "median", "support",
    "privacy_profile", "log_privacy_profile", "privacy_loss", "centered_privacy_loss", "epsilon_for_delta",
})

#: public methods vectorised in their arguments: one call per scalar instance
VECTORISED = frozenset({
    "logpdf", "pdf", "cdf", "sf", "logcdf", "logsf", "ppf", "isf", "interval", "privacy_profile",
    "log_privacy_profile", "privacy_loss", "centered_privacy_loss", "epsilon_for_delta", "mgf", "log_mgf",
})



class Law(Protocol):
    """What this module reads of a noise law (a :class:`fhsym.noise.base.NoiseDistribution`, which imports this
    module): its parameters' domains, whether it is vectorised, and its sampler (for the per-element draws)."""

    parameter_domains: ClassVar[Tuple[V.Domain, ...]]
    vectorised: ClassVar[bool]

    def rvs(self, size: Any = None, random_state: RandomState = None) -> Any: ...


L = TypeVar("L", bound=Law)

_CLASSES: Dict[type, type] = {}
#: per-element results of an elementwise method (scalar laws): an object array of the parameter shape
Objects = NDArray[np.object_]


def _is_array(a: Any) -> bool:
    """An argument to broadcast: a list, tuple or ndarray with at least one dimension."""
    return isinstance(a, (list, tuple, np.ndarray)) and np.ndim(a) > 0


def new_instance(cls: Type[L], args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> L:
    """``cls.__new__``: an uninitialised instance of ``cls``, or of its broadcasting subclass."""
    scalar_cls: Optional[Type[L]] = cls.__dict__.get("_scalar_class")
    arrays = any(_is_array(a) for a in args) or any(_is_array(a) for a in kwargs.values())
    if scalar_cls is not None and not arrays:
        # the broadcasting class called with scalars (e.g. from_parameters): a scalar instance
        return scalar_cls(*args, **kwargs)
    if arrays:
        return object.__new__(broadcast_class(cls if scalar_cls is None else scalar_cls))
    return object.__new__(cls)


def _assemble(objs: Objects) -> Any:
    """Per-element results (object array) as a float array, a tuple of arrays, or as they are (the result of
    whichever public method was called: Any)."""
    if objs.size == 0:
        return np.empty(objs.shape)
    first = objs.flat[0]
    if isinstance(first, tuple):
        return tuple(_assemble(_component(objs, k)) for k in range(len(first)))
    if all(isinstance(o, numbers.Real) or (isinstance(o, np.ndarray) and o.ndim == 0) for o in objs.flat):
        return np.asarray(objs.tolist(), dtype=float).reshape(objs.shape)
    return objs


def _component(objs: Objects, k: int) -> Objects:
    out = np.empty(objs.shape, dtype=object)
    for idx in np.ndindex(objs.shape):
        out[idx] = objs[idx][k]
    return out


def _element(a: np.ndarray, idx: Tuple[int, ...]) -> Any:
    v = a[idx]
    return v.item() if isinstance(v, np.generic) else v


class ArrayParameters:
    """Mixin of the broadcasting subclasses; see the module docstring."""

    _scalar_class: Type[Law]
    _init_arrays: Callable[..., bool]  # the law's (NoiseDistribution._init_arrays; this class is mixed into it)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        cls = self._scalar_class
        sig = inspect.signature(cls.__init__)
        bound = sig.bind(None, *args, **kwargs)  # TypeError for a wrong call, as the class would raise
        bound.apply_defaults()
        values = dict(list(bound.arguments.items())[1:])
        arrays = {k: np.asarray(v) for k, v in values.items() if _is_array(v)}
        try:
            shape = np.broadcast_shapes(*(a.shape for a in arrays.values()))
        except ValueError:
            shapes = ", ".join(f"{k}: {a.shape}" for k, a in arrays.items())
            raise ValueError(f"{cls.__name__} parameters must broadcast to one shape; got {shapes}") from None
        self._array_shape = shape
        self._element_array: Optional[Objects] = None
        if cls.vectorised and self._init_vectorised(values, shape):
            return
        self._init_elements(values, shape)

    def _init_vectorised(self, values: Dict[str, Any], shape: Tuple[int, ...]) -> bool:
        """Validated parameter arrays handed to the law's ``_init_arrays``; False (the per-element path decides, and
        raises the scalar constructor's error at the first invalid element) unless every element is valid."""
        cls = self._scalar_class
        domains = cls.parameter_domains
        if set(values) != {d.name for d in domains}:
            return False
        full = {}
        for d in domains:
            raw = values[d.name]
            if isinstance(raw, (str, bytes, bool)) or raw is None:
                return False
            try:
                a = np.asarray(raw)
                f = np.asarray(a, dtype=float)
            except (TypeError, ValueError):
                return False
            if a.dtype == bool or a.dtype == object or not np.all(d.contains(f)):
                return False
            if a.dtype.kind in "iu" and not np.array_equal(f.astype(a.dtype), a):  # an integer a float would round
                return False
            full[d.name] = np.ascontiguousarray(np.broadcast_to(f, shape))
        return bool(self._init_arrays(**full))

    def _init_elements(self, values: Dict[str, Any], shape: Tuple[int, ...]) -> None:
        """One scalar instance per element (validated by the scalar constructor); the parameters as arrays."""
        cls = self._scalar_class
        arrays = {k: np.broadcast_to(np.asarray(v), shape) for k, v in values.items() if _is_array(v)}
        elements = np.empty(shape, dtype=object)
        for idx in np.ndindex(shape):
            kw = {k: (_element(arrays[k], idx) if k in arrays else v) for k, v in values.items()}
            try:
                elements[idx] = cls(**kw)
            except ValueError as exc:
                raise ValueError(f"{exc} (at parameter index {idx})") from None
        self._element_array = elements
        for d in cls.parameter_domains:
            vals = [getattr(e, d.name) for e in elements.flat]
            setattr(self, d.name, np.asarray(vals, dtype=float).reshape(shape))

    @property
    def _elements(self) -> Objects:
        """The scalar instance of every element (an object array of the parameter shape; built when first needed
        for a vectorised law)."""
        if self._element_array is None:
            cls = self._scalar_class
            params = {d.name: getattr(self, d.name) for d in cls.parameter_domains}
            elements = np.empty(self._array_shape, dtype=object)
            for idx in np.ndindex(self._array_shape):
                elements[idx] = cls(**{k: float(v[idx]) for k, v in params.items()})
            self._element_array = elements
        return self._element_array

    # ------------------------------------------------------------ identity
    @property
    def parameter_shape(self) -> Tuple[int, ...]:
        """The broadcast shape of the parameters."""
        return self._array_shape

    def __repr__(self) -> str:
        args = ", ".join(f"{d.name}={getattr(self, d.name).tolist()!r}" for d in self._scalar_class.parameter_domains)
        return f"{self._scalar_class.__name__}({args})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ArrayParameters) or other._scalar_class is not self._scalar_class:
            return False
        return all(np.array_equal(getattr(self, d.name), getattr(other, d.name))
                   for d in self._scalar_class.parameter_domains)

    def __hash__(self) -> int:
        return hash((self._scalar_class, self.parameter_shape,
                     tuple(tuple(np.ravel(getattr(self, d.name)).tolist()) for d in self._scalar_class.parameter_domains)))

    def __reduce__(self) -> Tuple[Type[Law], Tuple[Any, ...]]:
        return (self._scalar_class, tuple(getattr(self, d.name) for d in self._scalar_class.parameter_domains))

    # ------------------------------------------------------------ methods
    def to_scipy(self, *, loc: Any = 0.0, scale: Any = 1.0) -> Any:
        """scipy's frozen ``rv_continuous`` with these (array) parameters; see ``NoiseDistribution.to_scipy``."""
        from .scipy_rv import frozen

        return frozen(self, loc, scale)

    def to_scipy_distribution(self) -> Any:
        """scipy's new distribution type with these (array) parameters; see
        ``NoiseDistribution.to_scipy_distribution``."""
        from .scipy_adapter import to_scipy

        return to_scipy(self)

    def _rvs_elements(self, rng: Rng, shape: Tuple[int, ...]) -> np.ndarray:
        """The ``_rvs`` kernel of a law that is not vectorised: one draw per scalar instance for all its positions
        (``shape`` is one the parameter shape broadcasts to: the template's ``rvs`` checked it)."""
        out = np.empty(math.prod(shape))
        for p, idx in _owned(self._array_shape, shape):
            law = cast(Law, self._elements.flat[p])  # an element of the object array of scalar laws
            out[idx] = law.rvs(idx.size, random_state=rng)
        return out.reshape(shape)

    def _call(self, name: str, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Any:
        pos = [i for i, a in enumerate(args) if _is_array(a)]
        kws = [k for k, v in kwargs.items() if _is_array(v)]
        arrs = [np.asarray(args[i]) for i in pos] + [np.asarray(kwargs[k]) for k in kws]
        try:
            shape = np.broadcast_shapes(self.parameter_shape, *(a.shape for a in arrs))
        except ValueError:
            raise ValueError(f"the arguments of {name}() must broadcast with the parameter shape "
                             f"{self.parameter_shape}; got shapes {[a.shape for a in arrs]}") from None
        arrs = [np.broadcast_to(a, shape) for a in arrs]
        elements = np.broadcast_to(self._elements, shape)

        def call(elem: Any, values: List[Any]) -> Any:
            a, kw = list(args), dict(kwargs)
            for i, v in zip(pos, values):
                a[i] = v
            for k, v in zip(kws, values[len(pos):]):
                kw[k] = v
            return getattr(elem, name)(*a, **kw)

        if name in VECTORISED:
            parts: List[Tuple[IntArray, Any]] = []
            flat = [a.reshape(-1) for a in arrs]
            for p, idx in _owned(self.parameter_shape, shape):
                parts.append((idx, call(self._elements.flat[p], [a[idx] for a in flat])))
            return _scatter(parts, shape)
        out = np.empty(shape, dtype=object)
        for idx in np.ndindex(shape):
            out[idx] = call(elements[idx], [_element(a, idx) for a in arrs])
        return _assemble(out)


def _owned(parameter_shape: Tuple[int, ...], shape: Tuple[int, ...]) -> Iterator[Tuple[int, IntArray]]:
    """(p, idx) for each element p of the parameter shape: the flat positions of ``shape`` (which the parameter
    shape broadcasts to) that belong to it, in order.  One stable sort, so n positions cost O(n log n), not a mask
    over all positions per element (O(n^2) for n distinct parameters)."""
    owner = np.broadcast_to(np.arange(math.prod(parameter_shape)).reshape(parameter_shape), shape).reshape(-1)
    order = np.argsort(owner, kind="stable")
    starts = np.searchsorted(owner[order], np.arange(math.prod(parameter_shape) + 1))
    for p in range(len(starts) - 1):
        if starts[p + 1] > starts[p]:
            yield p, order[starts[p]:starts[p + 1]]


def _scatter(parts: List[Tuple[IntArray, Any]], shape: Tuple[int, ...]) -> Any:
    """Results of vectorised calls (arrays or tuples of arrays, one per set of flat positions) put in place."""
    if not parts:
        return np.empty(shape)
    if isinstance(parts[0][1], tuple):
        n = len(parts[0][1])
        return tuple(_scatter([(m, r[k]) for m, r in parts], shape) for k in range(n))
    out = np.empty(math.prod(shape))
    for idx, res in parts:
        out[idx] = res
    return out.reshape(shape)


def _elementwise(name: str, func: types.FunctionType) -> Callable[..., Any]:
    def method(self: ArrayParameters, *args: Any, **kwargs: Any) -> Any:
        return self._call(name, args, kwargs)

    method.__name__ = name
    method.__qualname__ = func.__qualname__
    method.__doc__ = func.__doc__
    return method


def broadcast_class(cls: Type[L]) -> Type[L]:
    """The broadcasting subclass of ``cls`` (created once, cached)."""
    found = _CLASSES.get(cls)
    if found is not None:
        return found
    ns: Dict[str, Any] = {"__module__": cls.__module__, "__qualname__": cls.__qualname__, "__doc__": cls.__doc__,
                          "_scalar_class": cls}
    own = set(vars(ArrayParameters))
    native = NATIVE if cls.vectorised else frozenset({"rvs"})  # rvs: the template's, on the kernel _rvs_elements
    for name in dir(cls):
        if name.startswith("_") or name in own or name in native:
            continue
        attr = inspect.getattr_static(cls, name)
        if isinstance(attr, (staticmethod, classmethod, property)) or not inspect.isfunction(attr):
            continue
        ns[name] = _elementwise(name, attr)
    if not cls.vectorised:
        ns["_rvs"] = ArrayParameters._rvs_elements
    new = cast(Type[L], type(cls.__name__, (ArrayParameters, cls), ns))  # type() gives a plain type
    _CLASSES[cls] = new
    return new
