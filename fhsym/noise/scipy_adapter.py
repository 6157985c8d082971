"""fhsym noise laws as objects of scipy's distribution infrastructure (``scipy.stats.make_distribution``).

:func:`scipy_class` builds, once per noise class, a ``ContinuousDistribution`` subclass from
an interface object whose methods evaluate fhsym: scipy calls them with the argument and
the parameters broadcast to one shape, the interface groups the positions by their
parameter values and evaluates one fhsym instance per distinct parameter tuple on its
slice of the argument.  The parameters' domains are the fhsym domains
(``parameter_domains``); the support comes from ``support()``.  Methods supplied:
``pdf, logpdf, cdf, ccdf, logcdf, logccdf, icdf, iccdf, entropy, median, mode, moment,
sample``; anything else (``ilogcdf``, ``logentropy``, ...) is scipy's generic fallback.

Examples
--------
>>> import fhsym
>>> X = fhsym.Laplace(beta=2.0).to_scipy()
>>> float(X.pdf(0.0)), float(X.moment(2)), float(X.iccdf(0.5))
(0.25, 8.0, 0.0)
"""

from __future__ import annotations

import math
from typing import Any, Callable, Dict, Tuple

import numpy as np

__all__ = ["scipy_class", "to_scipy"]

_CLASSES: Dict[type, type] = {}


def _delegate(method: str) -> Callable[..., np.ndarray]:
    """An interface method evaluating the fhsym method ``method`` at x, per parameter tuple."""

    def evaluate(self: "_Interface", x: Any, **params: Any) -> np.ndarray:
        return self._apply(lambda d, v: getattr(d, method)(v), x, params)

    return evaluate


class _Interface:
    """The object ``scipy.stats.make_distribution`` turns into a distribution class."""

    __make_distribution_version__ = "1.16.0"

    def __init__(self, cls: type) -> None:
        self._cls = cls
        self._names = [d.name for d in cls.parameter_domains]
        self._cache: Dict[Tuple[float, ...], Any] = {}

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
    def _instance(self, key: Tuple[float, ...]) -> Any:
        inst = self._cache.get(key)
        if inst is None:
            try:
                inst = self._cls(**dict(zip(self._names, key)))
            except ValueError:
                inst = False  # invalid parameters: NaN, as scipy does
            if len(self._cache) < 4096:
                self._cache[key] = inst
        return inst

    def _apply(self, fn: Callable[[Any, np.ndarray], Any], x: Any, params: Dict[str, Any]) -> np.ndarray:
        """fn(instance, x-slice) for each distinct parameter tuple; NaN where x or a parameter is NaN."""
        arrays = np.broadcast_arrays(np.asarray(x, dtype=float), *(np.asarray(params[n], dtype=float)
                                                                  for n in self._names))
        xb, pb = arrays[0], arrays[1:]
        out = np.full(xb.shape, np.nan)
        if xb.size == 0:
            return out
        stacked = np.stack([p.reshape(-1) for p in pb], axis=1) if pb else np.zeros((xb.size, 0))
        keys, inverse = np.unique(stacked, axis=0, return_inverse=True)
        inverse = inverse.reshape(xb.shape)
        xnan = np.isnan(xb)
        for u, key in enumerate(keys):
            if np.isnan(key).any():
                continue
            inst = self._instance(tuple(float(k) for k in key))
            if inst is False:
                continue
            m = (inverse == u) & ~xnan
            if m.any():
                out[m] = fn(inst, xb[m])
        return out[()]

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


def scipy_class(cls: type) -> type:
    """The ``scipy.stats`` distribution class of the fhsym noise class ``cls`` (built once)."""
    found = _CLASSES.get(cls)
    if found is None:
        from scipy import stats

        interface = type(cls.__name__, (_Interface,), {})(cls)  # the class name shows in scipy's repr
        found = stats.make_distribution(interface)
        _CLASSES[cls] = found
    return found


def to_scipy(dist: Any) -> Any:
    """``dist`` (scalar or array parameters) as an instance of :func:`scipy_class`."""
    cls = getattr(dist, "_scalar_class", type(dist))
    params = {d.name: getattr(dist, d.name) for d in cls.parameter_domains}
    if math.prod(np.shape(next(iter(params.values())))) == 0:
        raise ValueError("to_scipy() needs at least one parameter element; got an empty parameter array")
    return scipy_class(cls)(**params)
