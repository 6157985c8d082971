"""The scipy.stats-style distribution methods of every continuous noise law (the template's distribution half).

:class:`DistributionMethods` is a base class of :class:`fhsym.noise.base.NoiseDistribution`: its public methods
(``pdf``, ``logpdf``, ``cdf``, ``sf``, ``logcdf``, ``logsf``, ``ppf``, ``isf``, ``rvs``, ``interval``, ``mean``,
``median``, ``var``, ``std``, ``moment``, ``stats``, ``entropy``, ``expect``, ``support``) validate their arguments
and evaluate the kernels a law supplies (``_logpdf``, ``_sf``, ``_logsf``, ``_isf``, ``_var``, ``_rvs``,
``_moment``, ``_entropy``, ``_half_mass``, ``_kinks``; table in :mod:`fhsym.noise.base`) on float arrays.

The conventions are scipy.stats' (docs/scipy.md):

* **NaN in, NaN out.**  A NaN data argument (``x`` of the density and distribution functions, ``q`` of ``ppf`` and
  ``isf``, the ``confidence`` of ``interval``) gives NaN at its position, and a probability outside [0, 1] gives NaN,
  as scipy does; a value that is not a number raises ``ValueError`` naming the argument.  Parameters are not data: an
  invalid parameter of the law, ``loc`` or ``scale`` raises ``ValueError`` naming it and its range (scipy would
  return NaN), and so does a confidence outside [0, 1] (scipy raises there too).  The privacy methods take no data
  arguments: a NaN epsilon, delta or sensitivity raises.
* **loc and scale** are keyword arguments, as in scipy's (unfrozen) methods: the law of ``loc + scale * T``.  A
  method takes the ones that enter its result: ``pdf``, ``logpdf``, ``cdf``, ``sf``, ``logcdf``, ``logsf``, ``ppf``,
  ``isf``, ``rvs``, ``interval``, ``moment``, ``stats``, ``expect`` both; ``mean``, ``median`` ``loc``;
  ``var``, ``std``, ``entropy`` ``scale``.  ``loc`` is a finite real, ``scale`` a finite positive real (arrays
  broadcast with the argument and the parameters).  The default call is exactly the unshifted law.
* Results: a 0-d evaluation is a numpy scalar (``np.float64``) as in scipy; ``var``, ``std``, ``moment``,
  ``entropy``, ``expect`` and the ends of ``interval`` are Python floats for scalar parameters.

Examples
--------
>>> import numpy as np, fhsym
>>> from scipy import stats
>>> fh = fhsym.FlippedHuber(alpha=0.0, gamma=1.0)           # alpha = 0: N(0, 1)
>>> fh.cdf([0.0, np.nan]), fh.ppf([1.5, -0.1, 0.5])
(array([0.5, nan]), array([nan, nan,  0.]))
>>> bool(np.isclose(fh.pdf(1.3, loc=1.0, scale=2.0), stats.norm.pdf(1.3, loc=1.0, scale=2.0), rtol=1e-15))
True
"""

from __future__ import annotations

import math
from typing import Any, Callable, List, Optional, Tuple, Union, cast

import numpy as np
from numpy.typing import ArrayLike

from .._core import domains as V
from .._core.random import RandomState, as_generator, size_to_shape
from . import quadrature

__all__ = ["DistributionMethods", "LOC", "SCALE", "as_numbers", "out_value", "py_value"]

Float = Union[float, np.ndarray]

#: ``loc``: a finite real; ``scale``: a finite positive real (parameters: ValueError, not NaN)
LOC = V.Domain("loc")
SCALE = V.Domain("scale", 0.0, math.inf)
_X = V.Domain("x", closed_lower=True, closed_upper=True, allow_inf=True)
_CONFIDENCE = V.Domain("confidence", 0.0, 1.0, closed_lower=True, closed_upper=True)
_BOUND = V.Domain("lb/ub", closed_lower=True, closed_upper=True, allow_inf=True)
_STATS = "mvsk"
_NEWTON_STEPS = 12
V_TINY = 2.2250738585072014e-308  # the smallest normal double
# the defaults of loc and scale: a call that passes neither evaluates the unshifted law exactly (no arithmetic)
_LOC0 = 0.0
_SCALE1 = 1.0


def _identity(x: float) -> float:
    return x


def out_value(a: Any) -> Float:
    """A result as scipy.stats returns it: a 0-d array as its numpy scalar (``np.float64``), an array as it is."""
    a = np.asarray(a, dtype=float)
    return cast(float, a[()]) if a.ndim == 0 else a


def py_value(a: Any) -> Float:
    """A 0-d array as a Python float, anything else as a float array."""
    a = np.asarray(a, dtype=float)
    return float(a) if a.ndim == 0 else a


def _number(a: Any) -> float:
    """:func:`py_value` typed as the scalar it is for scalar parameters (array parameters give arrays, as the
    broadcast laws always have: the annotations describe the scalar case)."""
    return cast(float, py_value(a))


def as_numbers(value: object, domain: V.Domain) -> np.ndarray:
    """``value`` as a float array; ``ValueError`` naming the argument if it is not numbers."""
    if isinstance(value, (str, bytes, bool)) or value is None:
        raise ValueError(domain.message(value))
    try:
        return np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(domain.message(value)) from None


def _finish(out: Any, bad: Optional[np.ndarray]) -> Float:
    """The kernel's values with NaN where the data argument was NaN or outside its domain."""
    if bad is not None:
        out = np.where(bad, np.nan, out)
    return out_value(out)


class DistributionMethods:
    """The scipy-style distribution API of :class:`fhsym.noise.base.NoiseDistribution` (module docstring)."""

    _array_shape: Tuple[int, ...] = ()  # the parameter shape (array parameters: set by fhsym.noise.broadcast)

    # ------------------------------------------------------------ arguments
    def _broadcast(self, name: str, *arrays: np.ndarray) -> List[np.ndarray]:
        """The arguments broadcast with each other and the parameter shape (``ValueError`` naming ``name``)."""
        try:
            shape = np.broadcast_shapes(self._array_shape, *(a.shape for a in arrays))
        except ValueError:
            raise ValueError(f"{name} must broadcast with the parameter shape {self._array_shape}; got shape(s) "
                             f"{', '.join(str(a.shape) for a in arrays)}") from None
        return [np.broadcast_to(a, shape) for a in arrays]

    def _data(self, x: ArrayLike, domain: V.Domain, safe: float, loc: ArrayLike = _LOC0,
              scale: ArrayLike = _SCALE1, standardise: bool = True
              ) -> Tuple[np.ndarray, Optional[np.ndarray], Optional[Tuple[np.ndarray, np.ndarray]]]:
        """(z, bad, affine): the data argument as floats, broadcast with the parameters (and loc, scale), with
        ``safe`` at the points outside ``domain`` (``bad``, None if there are none), standardised to (x - loc)/scale if
        ``standardise``; ``affine`` is (loc, scale) as arrays, or None for the defaults."""
        xa = as_numbers(x, domain)
        ok = domain.contains(xa)
        affine = None
        if loc is not _LOC0 or scale is not _SCALE1:
            affine = (V.check_array(loc, LOC), V.check_array(scale, SCALE))
            xa, ok, la, sa = self._broadcast(f"{domain.name}, loc and scale", xa, ok, *affine)
            affine = (la, sa)
        elif self._array_shape:
            xa, ok = self._broadcast(domain.name, xa, ok)
        bad = None
        if not ok.all():
            bad = ~ok
            xa = np.where(ok, xa, safe)
        if affine is not None and standardise:
            with np.errstate(all="ignore"):
                xa = (xa - affine[0]) / affine[1]
        return xa, bad, affine

    def _evaluate(self, kernel: Callable[[np.ndarray], Any], x: ArrayLike, loc: ArrayLike, scale: ArrayLike) -> Float:
        z, bad, _ = self._data(x, _X, 0.0, loc, scale)
        with np.errstate(all="ignore"):
            return _finish(kernel(z), bad)

    def _quantile(self, kernel: Callable[[np.ndarray], Any], q: ArrayLike, loc: ArrayLike, scale: ArrayLike) -> Float:
        qa, bad, affine = self._data(q, V.PROBABILITY, 0.5, loc, scale, standardise=False)
        with np.errstate(all="ignore"):
            out = kernel(qa)
            if affine is not None:
                out = affine[0] + affine[1] * out
        return _finish(out, bad)

    def _loc(self, loc: ArrayLike) -> np.ndarray:
        la, = self._broadcast("loc", V.check_array(loc, LOC))
        return la

    def _scale(self, scale: ArrayLike) -> np.ndarray:
        sa, = self._broadcast("scale", V.check_array(scale, SCALE))
        return sa

    # ------------------------------------------------------------------ density
    def logpdf(self, x: ArrayLike, *, loc: ArrayLike = _LOC0, scale: ArrayLike = _SCALE1) -> Float:
        """log g(x) (the law's ``_logpdf``); of loc + scale T: log g((x - loc)/scale) - log scale.  NaN for NaN x.

        >>> import fhsym
        >>> from scipy import stats
        >>> g = fhsym.Gaussian(sigma=2.0)
        >>> float(g.logpdf(1.0)) == float(stats.norm.logpdf(1.0, scale=2.0))
        True
        """
        if loc is _LOC0 and scale is _SCALE1:
            return self._evaluate(self._logpdf, x, loc, scale)
        z, bad, affine = self._data(x, _X, 0.0, loc, scale)
        with np.errstate(all="ignore"):
            return _finish(self._logpdf(z) - np.log(cast(Tuple[np.ndarray, np.ndarray], affine)[1]), bad)

    def pdf(self, x: ArrayLike, *, loc: ArrayLike = _LOC0, scale: ArrayLike = _SCALE1) -> Float:
        """g(x) = exp(logpdf(x)); of loc + scale T: g((x - loc)/scale)/scale.  NaN for NaN x.

        >>> import fhsym
        >>> from scipy import stats
        >>> fhsym.Laplace(beta=1.0).pdf([0.0, 1.0])
        array([0.5       , 0.18393972])
        >>> bool(abs(fhsym.Laplace(1.0).pdf(3.0, loc=1.0, scale=2.0) - stats.laplace.pdf(3.0, 1.0, 2.0)) < 1e-16)
        True
        """
        z, bad, affine = self._data(x, _X, 0.0, loc, scale)
        with np.errstate(all="ignore"):
            out = np.exp(np.asarray(self._logpdf(z), dtype=float))
            if affine is not None:
                out = out / affine[1]
        return _finish(out, bad)

    # ------------------------------------------------------------- distribution
    def sf(self, x: ArrayLike, *, loc: ArrayLike = _LOC0, scale: ArrayLike = _SCALE1) -> Float:
        """P(T > x) (the law's ``_sf``); of loc + scale T: sf((x - loc)/scale).  NaN for NaN x.

        >>> import fhsym
        >>> float(fhsym.Gaussian(sigma=1.0).sf(0.0)), float(fhsym.Gaussian(sigma=1.0).sf(3.0, loc=3.0))
        (0.5, 0.5)
        """
        return self._evaluate(self._sf, x, loc, scale)

    def cdf(self, x: ArrayLike, *, loc: ArrayLike = _LOC0, scale: ArrayLike = _SCALE1) -> Float:
        """P(T <= x) = sf(-x) (symmetric noise); of loc + scale T: cdf((x - loc)/scale).  NaN for NaN x.

        >>> import numpy as np, fhsym
        >>> fhsym.Laplace(beta=1.0).cdf([0.0, np.nan, np.inf])
        array([0.5, nan, 1. ])
        """
        return self._evaluate(lambda z: self._sf(-z), x, loc, scale)

    def logsf(self, x: ArrayLike, *, loc: ArrayLike = _LOC0, scale: ArrayLike = _SCALE1) -> Float:
        """log P(T > x), finite wherever the probability is positive (the law's ``_logsf``).

        >>> import fhsym
        >>> round(float(fhsym.Laplace(beta=1.0).logsf(1000.0)), 9)          # log(e^-1000 / 2)
        -1000.693147181
        """
        return self._evaluate(self._logsf, x, loc, scale)

    def logcdf(self, x: ArrayLike, *, loc: ArrayLike = _LOC0, scale: ArrayLike = _SCALE1) -> Float:
        """log P(T <= x) = logsf(-x).

        >>> import fhsym
        >>> round(float(fhsym.Laplace(beta=1.0).logcdf(-1000.0)), 9)
        -1000.693147181
        """
        return self._evaluate(lambda z: self._logsf(-z), x, loc, scale)

    def isf(self, q: ArrayLike, *, loc: ArrayLike = _LOC0, scale: ArrayLike = _SCALE1) -> Float:
        """The x with sf(x) = q (the law's ``_isf``); of loc + scale T: loc + scale isf(q).  NaN for q NaN or outside
        [0, 1].

        >>> import fhsym
        >>> round(float(fhsym.Laplace(beta=1.0).isf(0.25)), 12), round(float(fhsym.Laplace(1.0).isf(0.25, loc=2.0)), 12)
        (0.69314718056, 2.69314718056)
        """
        return self._quantile(self._isf, q, loc, scale)

    def ppf(self, q: ArrayLike, *, loc: ArrayLike = _LOC0, scale: ArrayLike = _SCALE1) -> Float:
        """The x with cdf(x) = q (= -isf(q), symmetric noise; the median is +0.0).  NaN for q NaN or outside [0, 1].

        >>> import numpy as np, fhsym
        >>> fhsym.Laplace(beta=1.0).ppf([0.0, 0.5, 1.0, 1.5, np.nan])
        array([-inf,   0.,  inf,  nan,  nan])
        """
        return self._quantile(lambda qa: 0.0 - self._isf(qa), q, loc, scale)  # 0.0 - x: the median is +0.0

    def support(self) -> Tuple[float, float]:
        """The (closed) support; (-inf, inf) unless the law says otherwise (arrays with array parameters).

        >>> import fhsym
        >>> fhsym.Gaussian(sigma=1.0).support()
        (-inf, inf)
        """
        if self._array_shape:
            return cast(Tuple[float, float], (np.full(self._array_shape, -math.inf), np.full(self._array_shape, math.inf)))
        return (-math.inf, math.inf)

    def interval(self, confidence: ArrayLike, *, loc: ArrayLike = _LOC0,
                 scale: ArrayLike = _SCALE1) -> Tuple[Float, Float]:
        """The equal-tailed interval holding probability ``confidence``: (-h, h), P(|T| <= h) = confidence.

        h = isf((1 - confidence)/2) (scipy's ``interval``); for confidence < 1/2, where
        1/2 - confidence/2 would round, h solves P(0 < T <= h) = confidence/2 by Newton steps
        on the law's central mass ``_half_mass`` (full relative accuracy for tiny
        confidence).  Vectorised in ``confidence`` in [0, 1] (outside: ``ValueError``, as scipy; NaN: NaN);
        of loc + scale T: (loc - scale h, loc + scale h).

        >>> import fhsym
        >>> lo, hi = fhsym.Gaussian(sigma=1.0).interval(0.95)
        >>> round(lo, 12), round(hi, 12)
        (-1.95996398454, 1.95996398454)
        >>> lo, hi = fhsym.Gaussian(sigma=1.0).interval(0.5, loc=10.0, scale=2.0)    # 10 -+ 2 * 0.6744897502
        >>> round(lo, 10), round(hi, 10)
        (8.6510204996, 11.3489795004)
        """
        c = as_numbers(confidence, _CONFIDENCE)
        nan = None
        ok = _CONFIDENCE.contains(c)
        if not ok.all():
            nan = np.isnan(c)
            if not np.all(ok | nan):
                raise ValueError(_CONFIDENCE.message(float(np.ravel(c[~(ok | nan)])[0])))
            c = np.where(nan, 0.5, c)
        flat = c.reshape(-1)
        h = np.empty(flat.shape)
        big = flat >= 0.5
        with np.errstate(all="ignore"):
            if big.any():
                h[big] = np.asarray(self.isf(0.5 * (1.0 - flat[big])), dtype=float)  # 1 - c exact (Sterbenz)
            if (~big).any():
                h[~big] = self._central_quantile(0.5 * flat[~big])
        hs = h.reshape(c.shape)
        if nan is not None:
            hs = np.where(nan, np.nan, hs)
        if loc is _LOC0 and scale is _SCALE1:
            return py_value(0.0 - hs), py_value(hs + 0.0)
        la, sa, hb = self._broadcast("confidence, loc and scale", V.check_array(loc, LOC), V.check_array(scale, SCALE),
                                     hs)
        return py_value(la - sa * hb), py_value(la + sa * hb)

    def _central_quantile(self, m: np.ndarray) -> np.ndarray:
        """x >= 0 with P(0 < T <= x) = m, for m in [0, 1/4]: Newton on ``_half_mass`` from isf(1/2 - m)."""
        x = np.asarray(self.isf(0.5 - m), dtype=float).copy()
        for _ in range(_NEWTON_STEPS):
            g = np.asarray(self.pdf(x), dtype=float)
            step = (np.asarray(self._half_mass(x), dtype=float) - m) / g
            step = np.where(g > 0, step, 0.0)
            x_new = np.maximum(x - step, 0.0)
            done = np.abs(x_new - x) <= 2.0 * np.spacing(np.maximum(x_new, 1e-300))
            x = x_new
            if done.all():
                break
        return np.where(m == 0.0, 0.0, x)

    def expect(self, func: Optional[Callable[[float], float]] = None, lb: Optional[float] = None,
               ub: Optional[float] = None, conditional: bool = False, *, loc: float = _LOC0,
               scale: float = _SCALE1) -> float:
        """E[func(T); lb <= T <= ub] = int_lb^ub func(t) g(t) dt, by adaptive quadrature (scipy's ``expect``).

        ``func`` defaults to the identity; ``lb``/``ub`` to the support's ends;
        ``conditional=True`` divides by P(lb <= T <= ub).  The range is split at 0, at the
        density's kinks and at its tail quantiles (:mod:`fhsym.noise.quadrature`); ``func``
        is called with one float at a time.  With ``loc``/``scale`` (scalars): the same for loc + scale T.

        >>> import fhsym
        >>> g = fhsym.Gaussian(sigma=2.0)
        >>> round(g.expect(abs), 12), round(2.0 * (2.0 / 3.141592653589793) ** 0.5, 12)   # E|T| = sigma sqrt(2/pi)
        (1.595769121606, 1.595769121606)
        >>> round(g.expect(lambda y: y * y, loc=1.0), 10)                                  # E[(1 + T)^2] = 1 + 4
        5.0
        """
        if func is None:
            func = _identity
        if not callable(func):
            raise ValueError(f"func must be a callable of one float or None; got {func!r}")
        if not isinstance(conditional, (bool, np.bool_)):
            raise ValueError(f"conditional must be True or False; got {conditional!r}")
        lo = -math.inf if lb is None else V.check_scalar(lb, _BOUND)
        hi = math.inf if ub is None else V.check_scalar(ub, _BOUND)
        if lo > hi:
            raise ValueError(f"lb must be <= ub; got lb={lo!r}, ub={hi!r}")
        if loc is not _LOC0 or scale is not _SCALE1:
            m, s, f = V.check_scalar(loc, LOC), V.check_scalar(scale, SCALE), func
            func = lambda t: f(m + s * t)  # noqa: E731 - E[f(loc + scale T)] over (lb - loc)/scale .. (ub - loc)/scale
            lo, hi = (lo - m) / s, (hi - m) / s
        val = quadrature.expect(self, func, lo, hi)
        if conditional:
            mass = self._mass(lo, hi)
            if mass == 0.0:
                raise ValueError(f"conditional=True needs P(lb <= T <= ub) > 0; got lb={lb!r}, ub={ub!r}")
            val /= mass
        return float(val)

    def _mass(self, lo: float, hi: float) -> float:
        """P(lo <= T <= hi) (continuous law), from the tails on the far side of 0."""
        if lo >= 0.0:
            return float(self.sf(lo)) - float(self.sf(hi))
        if hi <= 0.0:
            return float(self.cdf(hi)) - float(self.cdf(lo))
        return 1.0 - float(self.cdf(lo)) - float(self.sf(hi))

    # ------------------------------------------------------------------ moments
    def moment(self, order: int, *, loc: ArrayLike = _LOC0, scale: ArrayLike = _SCALE1) -> float:
        """The non-central moment E[T^order] (= the central one: the mean is 0).

        1 for order 0, 0 for odd orders (symmetric noise), the law's closed form
        ``_moment(n)`` for even orders (quadrature when it has none).  Raises
        ``OverflowError`` where the moment exceeds the float range.  Of loc + scale T:
        sum over even k of C(n, k) loc^(n-k) scale^k E[T^k].

        >>> import fhsym
        >>> g = fhsym.Gaussian(sigma=2.0)
        >>> g.moment(0), g.moment(3), g.moment(4)              # E[T^4] = 3 sigma^4
        (1.0, 0.0, 48.0)
        >>> g.moment(2, loc=1.0, scale=0.5)                    # 1 + 0.5^2 4
        2.0
        """
        n = V.check_int(order, "order", 0)
        if loc is not _LOC0 or scale is not _SCALE1:
            la, sa = self._broadcast("loc and scale", V.check_array(loc, LOC), V.check_array(scale, SCALE))
            with np.errstate(all="ignore"):
                total = sum(math.comb(n, k) * la ** (n - k) * sa**k * self.moment(k) for k in range(0, n + 1, 2))
            if not np.all(np.isfinite(total)):
                raise OverflowError(f"E[(loc + scale T)^{n}] exceeds the float range for {self!r}")
            return _number(total)
        if n == 0:
            return 1.0
        if n % 2:
            return 0.0
        with np.errstate(over="ignore"):
            val = float(self._moment(n))
        if not math.isfinite(val):
            raise OverflowError(f"E[T^{n}] exceeds the float range for {self!r}")
        return val

    def entropy(self, *, scale: ArrayLike = _SCALE1) -> float:
        """The differential entropy h(T) = -int g(t) log g(t) dt (nats); of scale T: h(T) + log scale.

        The law's closed form ``_entropy()``, or quadrature of the definition.

        >>> import math, fhsym
        >>> math.isclose(fhsym.Laplace(beta=2.0).entropy(), 1.0 + math.log(4.0), rel_tol=1e-15)   # 1 + log(2 beta)
        True
        >>> math.isclose(fhsym.Laplace(beta=1.0).entropy(scale=2.0), 1.0 + math.log(4.0), rel_tol=1e-15)
        True
        """
        if scale is _SCALE1:
            return float(self._entropy())
        return _number(float(self._entropy()) + np.log(self._scale(scale)))

    def stats(self, moments: str = "mv", *, loc: ArrayLike = _LOC0,
              scale: ArrayLike = _SCALE1) -> Union[Float, Tuple[Float, ...]]:
        """Mean ``m``, variance ``v``, skewness ``s`` and excess kurtosis ``k`` (scipy's ``stats``).

        ``moments`` is a string of the letters wanted (scipy's default ``"mv"``); the values
        come in the order m, v, s, k, as a tuple (one letter: the value).  m = s = 0 by
        symmetry; k = E[T^4]/Var^2 - 3 (accurate to ~1e-15 absolute, not relative where
        k is near 0).  Of loc + scale T: m = loc, v = scale^2 Var, s and k unchanged.

        >>> import fhsym
        >>> fhsym.Laplace(beta=1.0).stats("mvsk")
        (0.0, 2.0, 0.0, 3.0)
        >>> fhsym.Laplace(beta=1.0).stats(loc=1.0, scale=3.0)
        (1.0, 18.0)
        """
        if not isinstance(moments, str) or not moments or any(ch not in _STATS for ch in moments):
            raise ValueError(f"moments must be a non-empty string of the letters 'mvsk'; got {moments!r}")
        out: List[Float] = []
        for ch in _STATS:
            if ch not in moments:
                continue
            if ch == "m":
                out.append(self.mean() if loc is _LOC0 else self.mean(loc=loc))
            elif ch == "s":
                out.append(0.0)
            elif ch == "v":
                out.append(self.var() if scale is _SCALE1 else self.var(scale=scale))
            else:
                v = self.var()
                out.append(self.moment(4) / (v * v) - 3.0)
        return out[0] if len(out) == 1 else tuple(out)

    def mean(self, *, loc: ArrayLike = _LOC0) -> float:
        """0: the noise is symmetric; of loc + scale T: loc.

        >>> import fhsym
        >>> fhsym.Gaussian(sigma=1.0).mean(), fhsym.Gaussian(sigma=1.0).mean(loc=3.0)
        (0.0, 3.0)
        """
        if loc is not _LOC0:
            return _number(self._loc(loc) + 0.0)
        return _number(np.zeros(self._array_shape)) if self._array_shape else 0.0

    def median(self, *, loc: ArrayLike = _LOC0) -> float:
        """0: the noise is symmetric; of loc + scale T: loc.

        >>> import fhsym
        >>> fhsym.Gaussian(sigma=1.0).median(loc=-1.0)
        -1.0
        """
        if loc is not _LOC0:
            return _number(self._loc(loc) + 0.0)
        return _number(np.zeros(self._array_shape)) if self._array_shape else 0.0

    def var(self, *, scale: ArrayLike = _SCALE1) -> float:
        """The variance (the cost the calibrations minimise); ``ValueError`` if it is outside the float range;
        of loc + scale T: scale^2 Var.

        A positive variance is never returned as 0 or as a subnormal number (which keeps too few
        digits): below 2.2e-308 the call raises ``ValueError``, as above 1.8e308.

        >>> import fhsym
        >>> fhsym.Laplace(beta=1.0).var(), fhsym.Laplace(beta=1.0).var(scale=3.0)
        (2.0, 18.0)
        """
        if scale is _SCALE1 and not self._array_shape:
            try:
                v = float(self._var())
            except (OverflowError, ZeroDivisionError):
                v = math.inf
            return self._representable(v, "variance", positive=True)
        if scale is not _SCALE1:
            sa = self._scale(scale)
            with np.errstate(all="ignore"):
                return _number(self._representable_array(np.asarray(sa * sa * self.var(), dtype=float),
                                                         "variance of scale T"))
        with np.errstate(all="ignore"):
            return _number(self._representable_array(np.asarray(self._var(), dtype=float), "variance"))

    def variance(self) -> float:
        """The variance: the fhsym 0.1 name of :meth:`var` (of the comparison mechanisms, kept for old code).

        >>> import fhsym
        >>> fhsym.Gaussian(sigma=2.0).variance(), fhsym.Laplace(beta=1.0).variance()
        (4.0, 2.0)
        """
        return self.var()

    def std(self, *, scale: ArrayLike = _SCALE1) -> float:
        """The standard deviation, sqrt(var()); of loc + scale T: scale sqrt(Var).

        >>> import fhsym
        >>> fhsym.Gaussian(sigma=2.0).std(), fhsym.Gaussian(sigma=2.0).std(scale=0.5)
        (2.0, 1.0)
        """
        if scale is not _SCALE1:
            return _number(self._scale(scale) * self.std())
        v = self.var()
        return _number(np.sqrt(v)) if self._array_shape else math.sqrt(v)

    # ----------------------------------------------------------------- sampling
    def rvs(self, size: Any = None, random_state: RandomState = None, *, loc: ArrayLike = _LOC0,
            scale: ArrayLike = _SCALE1) -> Float:
        """Draw samples (floating point: see docs/security.md for the exact lattice sampler).

        ``size`` None (one float; with array parameters or loc/scale: their broadcast shape), an int or a tuple
        (with arrays: a shape they broadcast to); ``random_state`` None, an int seed, a numpy ``Generator`` or
        ``RandomState``.  Of loc + scale T: loc + scale times the draws.

        >>> import fhsym
        >>> x = fhsym.Laplace(beta=1.0).rvs(3, random_state=0)
        >>> y = fhsym.Laplace(beta=1.0).rvs(3, random_state=0, loc=10.0, scale=2.0)
        >>> bool(np.array_equal(y, 10.0 + 2.0 * x))
        True
        """
        if loc is _LOC0 and scale is _SCALE1 and not self._array_shape:  # the usual call: scalar law, no loc/scale
            shape = size_to_shape(size)
            draws = np.asarray(self._rvs(as_generator(random_state), shape), dtype=float)
            return draws.reshape(shape) if shape else draws.reshape(-1)[0]
        affine = None
        shapes = [self._array_shape]
        if loc is not _LOC0 or scale is not _SCALE1:
            affine = (V.check_array(loc, LOC), V.check_array(scale, SCALE))
            shapes += [affine[0].shape, affine[1].shape]
        shape = size_to_shape(size)
        if any(shapes):  # arrays: size defaults to their shape and must be one they broadcast to
            try:
                full = np.broadcast_shapes(*shapes)
                shape = full if size is None else shape
                ok = np.broadcast_shapes(shape, full) == shape
            except ValueError:
                ok = False
            if not ok:
                raise ValueError(f"size must be a shape that the parameter, loc and scale shapes {shapes} broadcast "
                                 f"to; got {size!r}")
        rng = as_generator(random_state)
        out = np.asarray(self._rvs(rng, shape), dtype=float).reshape(shape)
        if affine is not None:
            out = affine[0] + affine[1] * out
        return out[()] if shape == () else out

    # ------------------------------------------------------------- helpers
    def _representable(self, value: float, what: str, positive: bool = False) -> float:
        """``value`` if finite (and, if ``positive``, a normal double >= 2.2e-308), else ``ValueError`` naming the
        quantity and the parameters: a positive quantity is never returned as 0 or as a subnormal."""
        if positive and 0.0 <= value < V_TINY:
            raise ValueError(f"the {what} of {self!r} is below the float range (2.2e-308): rescale the parameters "
                             f"(e.g. the sensitivity and the noise scale together)")
        if not math.isfinite(value):
            raise ValueError(f"the {what} of {self!r} exceeds the float range (1.8e308): rescale the parameters "
                             f"(e.g. the sensitivity and the noise scale together)")
        return value

    def _representable_array(self, values: np.ndarray, what: str) -> np.ndarray:
        """Positive ``values`` (arrays) if each is a normal double, else ``ValueError`` at the first that is not,
        naming its parameters (see :meth:`_representable`)."""
        bad = ~(np.isfinite(values) & (values >= V_TINY))
        if bad.any():
            idx = tuple(int(i) for i in np.argwhere(bad)[0]) if values.ndim else ()
            params = ", ".join(f"{k}={float(np.broadcast_to(v, values.shape)[idx])!r}"
                               for k, v in self.parameters.items())  # type: ignore[attr-defined]
            side = "exceeds the float range (1.8e308)" if values[idx] >= V_TINY else "is below the float range (2.2e-308)"
            raise ValueError(f"the {what} at index {idx} ({params}) {side}: rescale the parameters")
        return values

    # --------------------------------------------------- kernels (the law's)
    def _logpdf(self, x: np.ndarray) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def _sf(self, x: np.ndarray) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def _logsf(self, x: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore"):
            out: np.ndarray = np.log(self._sf(x))
        return out

    def _isf(self, q: np.ndarray) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def _var(self) -> float:  # pragma: no cover - abstract
        raise NotImplementedError

    def _moment(self, n: int) -> float:
        """E[T^n] for even n >= 2; default: quadrature of the definition."""
        return quadrature.moment(self, n)

    def _entropy(self) -> float:
        """Differential entropy; default: quadrature of -g log g."""
        return quadrature.entropy(self)

    def _half_mass(self, x: np.ndarray) -> np.ndarray:
        """P(0 < T <= x) for x >= 0; default 1/2 - sf(x) (a law may supply a form exact for small x)."""
        return 0.5 - np.asarray(self.sf(x), dtype=float)

    def _kinks(self) -> Tuple[float, ...]:
        """Points x > 0 where the density or its derivative jumps (quadrature split points)."""
        return ()

    def _rvs(self, rng: Any, shape: Tuple[int, ...]) -> np.ndarray:
        """Default sampler: inverse CDF of uniforms (laws use faster exact-law samplers)."""
        u = rng.random(shape)
        return self._isf(np.asarray(u, dtype=float))

