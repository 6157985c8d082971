"""fhsym noise laws as objects of scipy's new distribution infrastructure (``scipy.stats.make_distribution``):
``law.to_scipy_distribution()`` (``law.to_scipy()`` is scipy's classic ``rv_continuous``: :mod:`.scipy_rv`).

:func:`scipy_class` builds, once per noise class, a ``ContinuousDistribution`` subclass from
an interface object whose methods evaluate fhsym: scipy calls them with the argument and
the parameters broadcast to one shape, the interface groups the positions by their
parameter values and evaluates one fhsym instance per distinct parameter tuple on its
slice of the argument.  The parameters' domains are the fhsym domains
(``parameter_domains``); the support comes from ``support()``.  Methods supplied:
``pdf, logpdf, cdf, ccdf, logcdf, logccdf, icdf, iccdf, entropy, median, mode, moment,
sample``; anything else (``ilogcdf``, ``logentropy``, ...) is scipy's generic fallback.

A lattice law (:class:`fhsym.DiscreteFlippedHuber`) becomes a :class:`LatticeDistribution`: the
methods of a frozen ``scipy.stats.rv_discrete`` on its lattice values, backed by a genuine
``rv_discrete`` over the integer index (:func:`lattice_index_class`; scipy's new infrastructure
does not scale discrete laws).

Examples
--------
>>> import fhsym
>>> X = fhsym.Laplace(beta=2.0).to_scipy_distribution()
>>> float(X.pdf(0.0)), float(X.moment(2)), float(X.iccdf(0.5))
(0.25, 8.0, 0.0)
"""

from __future__ import annotations

import math
from typing import Any, Callable, ClassVar, Dict, Literal, Protocol, Tuple, Type, Union, cast

import numpy as np
from numpy.typing import ArrayLike

from .._core import domains as V
from .scipy_methods import py_value

__all__ = ["Law", "LatticeLaw", "LatticeDistribution", "lattice_index_class", "lattice_to_scipy", "scipy_class",
           "to_scipy"]


class Law(Protocol):
    """What the interface calls on a noise law (a :class:`fhsym.noise.base.NoiseDistribution`; a protocol, because
    the laws import this module); ``pdf``, ``cdf``, ... are called by name."""

    parameter_domains: ClassVar[Tuple[V.Domain, ...]]

    def ppf(self, q: ArrayLike, /) -> Any: ...

    def isf(self, q: ArrayLike, /) -> Any: ...

    def support(self) -> Tuple[float, float]: ...

    def entropy(self) -> float: ...

    def moment(self, order: int, /) -> float: ...

    def var(self) -> float: ...

    def rvs(self, size: Any = None, random_state: Any = None) -> Any: ...


class LatticeLaw(Protocol):
    """What :class:`LatticeDistribution` calls on a lattice law (a :class:`fhsym.DiscreteFlippedHuber`)."""

    name: ClassVar[str]
    step: float

    def pmf(self, x: ArrayLike, /) -> Any: ...

    def logpmf(self, x: ArrayLike, /) -> Any: ...

    def cdf(self, x: ArrayLike, /) -> Any: ...

    def logcdf(self, x: ArrayLike, /) -> Any: ...

    def sf(self, x: ArrayLike, /) -> Any: ...

    def logsf(self, x: ArrayLike, /) -> Any: ...

    def ppf(self, q: ArrayLike, /) -> Any: ...

    def isf(self, q: ArrayLike, /) -> Any: ...

    def var(self) -> float: ...

    def std(self) -> float: ...

    def rvs(self, size: object = None, random_state: object = None, output: str = "value") -> Any: ...


_CLASSES: Dict[Type[Law], type] = {}


def _delegate(method: str) -> Callable[..., np.ndarray]:
    """An interface method evaluating the fhsym method ``method`` at x, per parameter tuple."""

    def evaluate(self: "_Interface", x: Any, **params: Any) -> np.ndarray:
        return self._apply(lambda d, v: getattr(d, method)(v), x, params)

    return evaluate


class _Interface:
    """The object ``scipy.stats.make_distribution`` turns into a distribution class."""

    __make_distribution_version__ = "1.16.0"

    def __init__(self, cls: Type[Law]) -> None:
        self._cls = cls
        self._names = [d.name for d in cls.parameter_domains]
        self._cache: Dict[Tuple[float, ...], Union[Law, Literal[False]]] = {}

    @property
    def parameters(self) -> Dict[str, Any]:
        return {d.name: {"endpoints": (d.lower, d.upper), "inclusive": (d.closed_lower, d.closed_upper)}
                for d in self._cls.parameter_domains}

    @property
    def support(self) -> Dict[str, Any]:
        def left(**params: Any) -> np.ndarray:
            return self._apply(lambda d, _x: np.full(np.shape(_x), d.support()[0]), 0.0, params)

        def right(**params: Any) -> np.ndarray:
            return self._apply(lambda d, _x: np.full(np.shape(_x), d.support()[1]), 0.0, params)

        return {"endpoints": (left, right), "inclusive": (True, True)}

    # ----------------------------------------------------------- machinery
    def _instance(self, key: Tuple[float, ...]) -> Union[Law, Literal[False]]:
        inst = self._cache.get(key)
        if inst is None:
            try:
                inst = self._cls(**dict(zip(self._names, key)))
            except ValueError:
                inst = False  # invalid parameters: NaN, as scipy does
            if len(self._cache) < 4096:
                self._cache[key] = inst
        return inst

    def _apply(self, fn: Callable[[Law, np.ndarray], Any], x: Any, params: Dict[str, Any]) -> np.ndarray:
        """fn(instance, x-slice) for each distinct parameter tuple; NaN where x or a parameter is NaN."""
        arrays = np.broadcast_arrays(np.asarray(x, dtype=float), *(np.asarray(params[n], dtype=float)
                                                                  for n in self._names))
        xb, pb = arrays[0], arrays[1:]
        out = np.full(xb.shape, np.nan)
        if xb.size == 0:
            return out
        stacked = np.stack([p.reshape(-1) for p in pb], axis=1) if pb else np.zeros((xb.size, 0))
        keys, inverse = np.unique(stacked, axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
        # the positions of each tuple from one sort (a mask per tuple would cost O(n) each: O(n^2) for n tuples)
        order = np.argsort(inverse, kind="stable")
        starts = np.searchsorted(inverse[order], np.arange(len(keys) + 1))
        flat_x, flat_out = xb.reshape(-1), out.reshape(-1)
        for u, key in enumerate(keys):
            if np.isnan(key).any():
                continue
            inst = self._instance(tuple(float(k) for k in key))
            if inst is False:
                continue
            idx = order[starts[u]:starts[u + 1]]
            idx = idx[~np.isnan(flat_x[idx])]
            if idx.size:
                flat_out[idx] = fn(inst, flat_x[idx])
        return flat_out.reshape(xb.shape)[()]

    # ------------------------------------------------------------- methods
    # scipy's name = the fhsym method it evaluates
    pdf = _delegate("pdf")
    logpdf = _delegate("logpdf")
    cdf = _delegate("cdf")
    ccdf = _delegate("sf")
    logcdf = _delegate("logcdf")
    logccdf = _delegate("logsf")

    def icdf(self, p: Any, **params: Any) -> np.ndarray:
        return self._apply(lambda d, v: d.ppf(np.clip(v, 0.0, 1.0)), p, params)

    def iccdf(self, p: Any, **params: Any) -> np.ndarray:
        return self._apply(lambda d, v: d.isf(np.clip(v, 0.0, 1.0)) + 0.0, p, params)  # + 0.0: no -0.0

    def entropy(self, **params: Any) -> np.ndarray:
        return self._apply(lambda d, v: d.entropy(), 0.0, params)

    def median(self, **params: Any) -> np.ndarray:
        return self._apply(lambda d, v: 0.0, 0.0, params)

    def mode(self, **params: Any) -> np.ndarray:
        return self._apply(lambda d, v: 0.0, 0.0, params)

    def moment(self, order: int, kind: str = "raw", **params: Any) -> Any:
        n = int(order)
        if kind in ("raw", "central"):  # the mean is 0
            return self._apply(lambda d, v: d.moment(n), 0.0, params)
        if kind == "standardized":
            return self._apply(lambda d, v: d.moment(n) / d.var() ** (0.5 * n), 0.0, params)
        return None

    def sample(self, full_shape: Any, *, rng: Any = None, **params: Any) -> np.ndarray:
        shape = tuple(full_shape) if np.ndim(full_shape) else ((int(full_shape),) if full_shape != () else ())
        template = np.zeros(shape)
        return self._apply(lambda d, v: d.rvs(v.size, random_state=rng), template, params)


def scipy_class(cls: Type[Law]) -> type:
    """The ``scipy.stats`` distribution class of the fhsym noise class ``cls`` (built once)."""
    found = _CLASSES.get(cls)
    if found is None:
        from scipy import stats

        interface = type(cls.__name__, (_Interface,), {})(cls)  # the class name shows in scipy's repr
        found = stats.make_distribution(interface)
        _CLASSES[cls] = found
    return found


def to_scipy(dist: object) -> Any:
    """``dist``, a noise law (scalar or array parameters), as an instance of :func:`scipy_class` (scipy's object:
    untyped)."""
    cls = cast(Type[Law], getattr(dist, "_scalar_class", type(dist)))  # the law's class (a broadcasting law's scalar one)
    params = {d.name: getattr(dist, d.name) for d in cls.parameter_domains}
    if math.prod(np.shape(next(iter(params.values())))) == 0:
        raise ValueError("to_scipy() needs at least one parameter element; got an empty parameter array")
    return scipy_class(cls)(**params)


# ----------------------------------------------------------------------------- lattice laws
class _LatticeIndex:
    """Kernels of scipy's ``rv_discrete`` over the lattice index k of a lattice law (value k * step): a mixin of the
    ``rv_discrete`` subclass that :func:`lattice_index_class` builds (the law is a class attribute, because scipy's
    frozen objects rebuild the distribution from its constructor arguments)."""

    law: LatticeLaw

    def _pmf(self, k: np.ndarray) -> np.ndarray:
        return np.asarray(self.law.pmf(k * self.law.step))

    def _logpmf(self, k: np.ndarray) -> np.ndarray:
        return np.asarray(self.law.logpmf(k * self.law.step))

    def _cdf(self, k: np.ndarray) -> np.ndarray:
        return np.asarray(self.law.cdf(k * self.law.step))

    def _logcdf(self, k: np.ndarray) -> np.ndarray:
        return np.asarray(self.law.logcdf(k * self.law.step))

    def _sf(self, k: np.ndarray) -> np.ndarray:
        return np.asarray(self.law.sf(k * self.law.step))

    def _logsf(self, k: np.ndarray) -> np.ndarray:
        return np.asarray(self.law.logsf(k * self.law.step))

    def _ppf(self, q: np.ndarray) -> np.ndarray:
        k: np.ndarray = np.rint(np.asarray(self.law.ppf(q)) / self.law.step)
        return k

    def _isf(self, q: np.ndarray) -> np.ndarray:
        k: np.ndarray = np.rint(np.asarray(self.law.isf(q)) / self.law.step)
        return k

    def _rvs(self, size: Any = None, random_state: Any = None) -> np.ndarray:
        return np.asarray(self.law.rvs(size, random_state=random_state, output="index"))

    def _stats(self) -> Tuple[float, float, float, None]:
        return 0.0, self.law.var() / self.law.step**2, 0.0, None  # the kurtosis: scipy's sum of k^4 pmf(k)


def lattice_index_class(law: LatticeLaw) -> type:
    """An ``rv_discrete`` subclass over the integer index k of the lattice law ``law`` (support all integers)."""
    from scipy import stats

    return type(f"{type(law).__name__}Index", (_LatticeIndex, stats.rv_discrete), {"law": law})


class LatticeDistribution:
    """A lattice law (:class:`fhsym.DiscreteFlippedHuber`) with the methods of a frozen ``scipy.stats.rv_discrete``,
    on its values x = k * step.

    ``pmf``, ``logpmf``, ``cdf``, ``logcdf``, ``sf``, ``logsf``, ``ppf``, ``isf`` and ``rvs`` are the law's own
    (exact sampler; NaN in, NaN out); ``mean``, ``median``, ``var``, ``std``, ``moment``, ``stats``, ``entropy``,
    ``interval``, ``expect`` and ``support`` are scipy's generic algorithms on :attr:`index`, a genuine frozen
    ``rv_discrete`` over the integer index k, scaled by the step.  For ``step = 1`` the values are the indices and
    :attr:`index` is the scipy object of the law itself.

    >>> import fhsym
    >>> d = fhsym.DiscreteFlippedHuber(alpha=1.0, gamma=2.0, step=0.25)
    >>> X = d.to_scipy()
    >>> float(X.pmf(0.25)) == float(d.pmf(0.25)), X.interval(0.9), X.var() == d.var()
    (True, (-3.25, 3.25), True)
    >>> type(X.index).__name__, float(X.index.pmf(1)) == float(d.pmf(0.25))
    ('rv_discrete_frozen', True)
    """

    def __init__(self, law: LatticeLaw) -> None:
        self.law = law
        self.step = float(law.step)
        #: the frozen ``scipy.stats.rv_discrete`` over the lattice index k (value k * step)
        self.index = lattice_index_class(law)(a=-np.inf, b=np.inf, name=f"{law.name}_index")()

    def __repr__(self) -> str:
        return f"LatticeDistribution({self.law!r})"

    # the law's own functions of lattice values
    def pmf(self, x: Any) -> Any:
        return self.law.pmf(x)

    def logpmf(self, x: Any) -> Any:
        return self.law.logpmf(x)

    def cdf(self, x: Any) -> Any:
        return self.law.cdf(x)

    def logcdf(self, x: Any) -> Any:
        return self.law.logcdf(x)

    def sf(self, x: Any) -> Any:
        return self.law.sf(x)

    def logsf(self, x: Any) -> Any:
        return self.law.logsf(x)

    def ppf(self, q: Any) -> Any:
        return self.law.ppf(q)

    def isf(self, q: Any) -> Any:
        return self.law.isf(q)

    def rvs(self, size: Any = None, random_state: Any = None) -> Any:
        return self.law.rvs(size, random_state=random_state)

    # scipy's algorithms on the index, scaled
    def support(self) -> Tuple[float, float]:
        return (-math.inf, math.inf)

    def mean(self) -> float:
        return float(self.step * self.index.mean())

    def median(self) -> float:
        return float(self.step * self.index.median())

    def var(self) -> float:
        return float(self.law.var())

    def std(self) -> float:
        return float(self.law.std())

    def moment(self, order: int) -> float:
        return float(self.step ** int(order) * self.index.moment(order))

    def entropy(self) -> float:
        return float(self.index.entropy())

    def stats(self, moments: str = "mv") -> Any:
        scale = {"m": self.step, "v": self.step**2, "s": 1.0, "k": 1.0}
        vals = self.index.stats(moments=moments)
        vals = vals if isinstance(vals, tuple) else (vals,)
        out = tuple(float(v) * scale[m] for v, m in zip(vals, [c for c in "mvsk" if c in moments]))
        return out[0] if len(out) == 1 else out

    def interval(self, confidence: Any) -> Tuple[Any, Any]:
        lo, hi = self.index.interval(confidence)
        return py_value(self.step * lo), py_value(self.step * hi)

    def expect(self, func: Any = None, lb: Any = None, ub: Any = None, conditional: bool = False) -> float:
        """E[func(X); lb <= X <= ub] summed over the lattice points in [lb, ub] (scipy's ``expect`` on the index)."""
        f = (lambda k: k * self.step) if func is None else (lambda k: func(k * self.step))
        klo = None if lb is None else math.ceil(lb / self.step - 1e-9)
        khi = None if ub is None else math.floor(ub / self.step + 1e-9)
        return float(self.index.expect(f, lb=klo, ub=khi, conditional=conditional))


def lattice_to_scipy(law: LatticeLaw) -> LatticeDistribution:
    """``law`` (a lattice law) as a :class:`LatticeDistribution`."""
    return LatticeDistribution(law)
