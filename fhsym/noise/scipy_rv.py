"""fhsym noise laws as scipy's classic distributions (``scipy.stats.rv_continuous``).

:func:`scipy_rv` builds, once per noise class, an ``rv_continuous`` subclass whose shape parameters are the law's
parameters (a parameter named like scipy's own ``loc``/``scale`` keywords gets a trailing underscore:
``TruncatedLaplace``'s ``scale`` is the shape ``scale_``) and returns its instance: the *unfrozen* distribution that
``scipy.stats.fit`` and ``rv.fit`` take.  ``law.to_scipy(loc=..., scale=...)`` freezes it at the law's parameters:
scipy's own ``rv_continuous_frozen`` (pdf, logpdf, cdf, logcdf, sf, logsf, ppf, isf, rvs, interval, mean, median,
var, std, stats, moment, entropy, expect, support), the law of ``loc + scale * T``.  The frozen object is an
``rv_continuous_frozen`` (a subclass, ``NoiseFrozen``, that forwards the names of scipy's new distribution type,
:data:`DEPRECATED_NAMES`, with a ``FutureWarning`` during the deprecation period).

scipy validates the arguments and broadcasts them with the shapes (its conventions: an invalid shape, loc or scale
gives NaN in the unfrozen methods); the kernels it calls (``_pdf``, ``_cdf``, ``_ppf``, ``_rvs``, ``_stats``, ...)
evaluate fhsym on the whole array of shapes in one call: one scalar law when all the shapes are equal (the frozen
scalar law), the law with array parameters of a vectorised law (:class:`fhsym.FlippedHuber`), and otherwise one
scalar law per distinct parameter tuple on its contiguous slice (sorted once).  Nothing is evaluated per position
in a Python loop, so 10^5 array shapes cost what fhsym's own array methods cost.

Examples
--------
>>> import fhsym
>>> X = fhsym.FlippedHuber(alpha=1.0, gamma=2.0).to_scipy()
>>> type(X).__name__, float(X.cdf(0.0)), round(float(X.ppf(0.975)), 9)
('NoiseFrozen', 0.5, 3.905438792)
>>> rv = fhsym.FlippedHuber.scipy_rv()
>>> rv.shapes, float(rv.pdf(0.0, 1.0, 2.0)) == float(fhsym.FlippedHuber(1.0, 2.0).pdf(0.0))
('alpha, gamma', True)
"""

from __future__ import annotations

import functools
import math
from typing import Any, Callable, ClassVar, Dict, List, Optional, Protocol, Tuple, Type

import numpy as np

from .._core import domains as V

__all__ = ["shape_names", "scipy_rv", "frozen"]


class Law(Protocol):
    """What this module reads of a noise class (a :class:`fhsym.noise.base.NoiseDistribution`; a protocol, because
    the laws import this module); the distribution methods are called by name."""

    name: ClassVar[str]
    parameter_domains: ClassVar[Tuple[V.Domain, ...]]
    vectorised: ClassVar[bool]

    def support(self) -> Tuple[float, float]: ...

    def rvs(self, size: Any = None, random_state: Any = None) -> Any: ...


_GENERATORS: Dict[type, Any] = {}
_RESERVED = ("loc", "scale", "size", "random_state", "moments")


def shape_names(cls: Type[Law]) -> List[str]:
    """The scipy shape names of the noise class ``cls``: its parameter names, with ``_`` appended to a name that scipy
    reserves (``loc``, ``scale``, ...)."""
    return [d.name + "_" if d.name in _RESERVED else d.name for d in cls.parameter_domains]


@functools.lru_cache(maxsize=4096)
def _scalar_law(cls: Type[Law], key: Tuple[float, ...]) -> Optional[Law]:
    """The scalar law at the parameter tuple ``key`` (cached), or None if the constructor refuses it."""
    try:
        return cls(**{d.name: v for d, v in zip(cls.parameter_domains, key)})
    except ValueError:
        return None


def _groups(shapes: Tuple[np.ndarray, ...]) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(keys, order, starts): the distinct parameter tuples (rows of ``keys``, in lexicographic order), the flat
    positions sorted by tuple (a stable sort), and where each tuple's run of positions starts in ``order`` (one
    lexsort: O(n log n), no mask per tuple; ``np.unique(axis=0)`` did the same about 10x slower at n = 100)."""
    stacked = np.stack([s.reshape(-1) for s in shapes], axis=1)
    order = np.lexsort(stacked.T[::-1])  # the first shape is the primary key
    rows = stacked[order]
    new = np.ones(len(rows), dtype=bool)
    new[1:] = np.any(rows[1:] != rows[:-1], axis=1)
    first = np.flatnonzero(new)
    return rows[first], order, np.append(first, len(rows))


class _NoiseGen:
    """The kernels of the ``rv_continuous`` subclass of a noise class (a mixin; :func:`scipy_rv` builds the class)."""

    law_class: ClassVar[Type[Law]]

    # ----------------------------------------------------------- machinery
    def _constant(self, shapes: Tuple[Any, ...]) -> Optional[Tuple[float, ...]]:
        """The parameter tuple if every shape array holds one value, else None."""
        key = []
        for s in shapes:
            a = np.asarray(s, dtype=float)
            first = a.flat[0] if a.size else math.nan
            if a.size and not np.all(a == first):
                return None
            key.append(float(first))
        return tuple(key)

    def _map(self, method: Callable[[Any, np.ndarray], Any], x: np.ndarray, shapes: Tuple[Any, ...]) -> np.ndarray:
        """``method(law, x)`` with x and the shapes broadcast together: one call for equal shapes or a vectorised
        law, else one per distinct parameter tuple on its slice; NaN where a law refuses its parameters."""
        cls = self.law_class
        arrays = np.broadcast_arrays(np.asarray(x, dtype=float), *(np.asarray(s, dtype=float) for s in shapes))
        xb, pb = arrays[0], tuple(arrays[1:])
        if xb.size == 0:
            return np.empty(xb.shape)
        key = self._constant(pb)
        if key is not None:
            law = _scalar_law(cls, key)
            return np.full(xb.shape, np.nan) if law is None else np.asarray(method(law, xb), dtype=float)
        if cls.vectorised:
            try:
                law = cls(**{d.name: p for d, p in zip(cls.parameter_domains, pb)})
            except ValueError:  # some tuple is refused beyond the domains scipy checked: per tuple below
                pass
            else:
                return np.asarray(method(law, xb), dtype=float)
        keys, order, starts = _groups(pb)
        flat_x = xb.reshape(-1)
        out = np.full(flat_x.shape, np.nan)
        bounds = starts.tolist()  # Python numbers for the loop: no numpy scalar per tuple
        for u, key in enumerate(keys.tolist()):
            law = _scalar_law(cls, tuple(key))
            if law is not None:
                idx = order[bounds[u]:bounds[u + 1]]
                out[idx] = method(law, flat_x[idx])
        return out.reshape(xb.shape)

    def _per_law(self, fn: Callable[[Any], float], shapes: Tuple[Any, ...]) -> np.ndarray:
        """``fn(law)`` (a number) for each position of the broadcast shapes, once per distinct parameter tuple."""
        return self._map(lambda law, v: np.full(v.shape, fn(law)), np.zeros(()), shapes)

    # ------------------------------------------------------------ scipy kernels
    def _shape_info(self) -> List[Any]:
        """The shapes' domains, as ``scipy.stats.fit`` reads them (scipy's ``_ShapeInfo``: no public name)."""
        from scipy.stats._distn_infrastructure import _ShapeInfo

        return [_ShapeInfo(n, False, (d.lower, d.upper), (d.closed_lower, d.closed_upper))
                for n, d in zip(shape_names(self.law_class), self.law_class.parameter_domains)]

    def _argcheck(self, *shapes: Any) -> Any:
        ok = np.asarray(True)
        for d, s in zip(self.law_class.parameter_domains, shapes):
            ok = ok & d.contains(np.asarray(s, dtype=float))
        return ok

    def _get_support(self, *shapes: Any) -> Tuple[Any, Any]:
        from .scipy_methods import DistributionMethods

        if getattr(self.law_class, "support") is DistributionMethods.support:  # the whole line, whatever the shapes
            shape = np.broadcast_shapes(*(np.shape(s) for s in shapes))
            return np.full(shape, -math.inf)[()], np.full(shape, math.inf)[()]
        lo = self._per_law(lambda law: law.support()[0], shapes)
        hi = self._per_law(lambda law: law.support()[1], shapes)
        return lo[()], hi[()]

    def _pdf(self, x: Any, *shapes: Any) -> np.ndarray:
        return self._map(lambda law, v: law.pdf(v), x, shapes)

    def _logpdf(self, x: Any, *shapes: Any) -> np.ndarray:
        return self._map(lambda law, v: law.logpdf(v), x, shapes)

    def _cdf(self, x: Any, *shapes: Any) -> np.ndarray:
        return self._map(lambda law, v: law.cdf(v), x, shapes)

    def _logcdf(self, x: Any, *shapes: Any) -> np.ndarray:
        return self._map(lambda law, v: law.logcdf(v), x, shapes)

    def _sf(self, x: Any, *shapes: Any) -> np.ndarray:
        return self._map(lambda law, v: law.sf(v), x, shapes)

    def _logsf(self, x: Any, *shapes: Any) -> np.ndarray:
        return self._map(lambda law, v: law.logsf(v), x, shapes)

    def _ppf(self, q: Any, *shapes: Any) -> np.ndarray:
        return self._map(lambda law, v: law.ppf(v), q, shapes)

    def _isf(self, q: Any, *shapes: Any) -> np.ndarray:
        return self._map(lambda law, v: law.isf(v), q, shapes)

    def _rvs(self, *shapes: Any, size: Any = None, random_state: Any = None) -> Any:
        cls = self.law_class
        key = self._constant(tuple(np.asarray(s) for s in shapes))
        if key is not None:  # scipy checked the shapes: the law exists
            return cls(**{d.name: v for d, v in zip(cls.parameter_domains, key)}).rvs(size, random_state=random_state)
        law = cls(**{d.name: np.asarray(s, dtype=float) for d, s in zip(cls.parameter_domains, shapes)})
        return law.rvs(size, random_state=random_state)

    def _stats(self, *shapes: Any, moments: str = "mv") -> Tuple[Any, Any, Any, Any]:
        var = self._per_law(lambda law: law.var(), shapes)
        kurt = self._per_law(lambda law: law.moment(4) / law.var() ** 2 - 3.0, shapes) if "k" in moments else None
        zero = np.zeros(np.shape(var))
        return zero, var, zero, kurt

    def _munp(self, n: Any, *shapes: Any) -> np.ndarray:
        k = int(n)
        if k % 2:  # symmetric: the odd moments vanish
            return np.zeros(np.broadcast_shapes(*(np.shape(s) for s in shapes)))
        return self._per_law(lambda law: law.moment(k) if k else 1.0, shapes)

    def _entropy(self, *shapes: Any) -> np.ndarray:
        return self._per_law(lambda law: law.entropy(), shapes)

    def _median(self, *shapes: Any) -> np.ndarray:
        return np.zeros(np.broadcast_shapes(*(np.shape(s) for s in shapes)))


def scipy_rv(cls: Type[Law]) -> Any:
    """The unfrozen ``scipy.stats.rv_continuous`` of the noise class ``cls`` (built once; scipy's object: untyped)."""
    found = _GENERATORS.get(cls)
    if found is None:
        from scipy import stats

        gen = type(f"{cls.__name__}_gen", (_NoiseGen, stats.rv_continuous), {"law_class": cls})
        found = gen(name=cls.name, shapes=", ".join(shape_names(cls)))
        _GENERATORS[cls] = found
    return found


#: names of scipy's new distribution type (what ``to_scipy()`` returned before 0.2) that the frozen object forwards,
#: with a ``FutureWarning``, to :meth:`to_scipy_distribution`'s object (CHANGELOG.md: removed in 0.3)
DEPRECATED_NAMES = frozenset({"icdf", "iccdf", "ccdf", "logccdf", "ilogcdf", "ilogccdf", "sample", "variance",
                              "skewness", "kurtosis", "mode", "logentropy"})
_FROZEN: List[type] = []


def _frozen_class() -> type:
    """scipy's ``rv_continuous_frozen`` with the deprecated names of the new type forwarded (built once)."""
    if not _FROZEN:
        from scipy import stats

        base = type(stats.uniform())  # scipy's rv_continuous_frozen (its module path is private)

        def __getattr__(self: Any, name: str) -> Any:  # reached only for a missing attribute
            if name not in DEPRECATED_NAMES:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            import warnings

            warnings.warn(f"to_scipy() returns scipy's classic frozen distribution since fhsym 0.2: {name!r} is a "
                          f"method of scipy's new distribution type, now law.to_scipy_distribution().{name} "
                          f"(forwarded until fhsym 0.3)", FutureWarning, stacklevel=2)
            return getattr(self.__dict__["_distribution"](), name)

        _FROZEN.append(type("NoiseFrozen", (base,), {"__getattr__": __getattr__, "__module__": __name__}))
    return _FROZEN[0]


_LOC0 = 0.0
_SCALE1 = 1.0


def frozen(dist: Any, loc: Any = _LOC0, scale: Any = _SCALE1) -> Any:
    """``dist`` (a noise law, scalar or array parameters) as scipy's frozen ``rv_continuous`` of ``loc + scale * T``;
    ``loc`` a finite real, ``scale`` a finite positive real (arrays broadcast with the parameters), else
    ``ValueError`` naming it."""
    from .scipy_methods import LOC, SCALE

    cls = getattr(dist, "_scalar_class", type(dist))  # the law's class (a broadcasting law's scalar one)
    params = [getattr(dist, d.name) for d in cls.parameter_domains]
    if math.prod(np.shape(params[0])) == 0:
        raise ValueError("to_scipy() needs at least one parameter element; got an empty parameter array")
    la = V.check_array(loc, LOC)
    sa = V.check_array(scale, SCALE)
    out = _frozen_class()(scipy_rv(cls), *params, loc=la[()], scale=sa[()])

    def distribution() -> Any:  # the deprecated names' target: scipy's new type, shifted and scaled as this object
        new = dist.to_scipy_distribution()
        return new if loc is _LOC0 and scale is _SCALE1 else new * sa[()] + la[()]

    out.__dict__["_distribution"] = distribution
    return out
