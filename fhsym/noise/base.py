"""One base class for every noise distribution of fhsym (template method).

A noise law of an additive mechanism M(D) = f(D) + T is a symmetric distribution with an
exact one-dimensional privacy profile

    delta(eps; Delta) = int [g(t) - e^eps g(t + Delta)]_+ dt        (paper eq 16, Lemma 11)

(the hockey-stick divergence between T and T + Delta).  :class:`NoiseDistribution` fixes the
public API -- the scipy.stats names for the distribution and the privacy names of the paper --
and derives most of it from a few kernels that a subclass supplies on validated float arrays,
as dp_accounting's ``AdditiveNoisePrivacyLoss`` and scipy's distribution infrastructure do:

==========================  ===============================================================
subclass supplies           base derives
==========================  ===============================================================
``_logpdf(x)``              ``logpdf``, ``pdf``
``_sf(x)`` (all real x)     ``sf``, ``cdf`` (= sf(-x), symmetry), ``logsf``, ``logcdf``
``_logsf(x)`` (optional)    ``logsf`` (default: log of ``_sf``)
``_isf(q)`` (q in [0, 1])   ``isf``, ``ppf`` (= -isf(q), symmetry)
``_var()``                  ``var``, ``std``; ``mean`` = ``median`` = 0
``_rvs(rng, shape)``        ``rvs`` (size, random_state handling)
``_profile(eps, Delta)``    ``privacy_profile``, ``log_privacy_profile``, ``epsilon_for_delta``
``_privacy_loss(t, d)``     ``privacy_loss`` (log g(t)/g(t + d)), ``centered_privacy_loss``
==========================  ===============================================================

plus the class attributes ``name`` (the mechanism's key, e.g. ``"gaussian"``) and
``parameter_domains`` (its parameters, declared once as :class:`fhsym._core.domains.Domain`).
A subclass may override any public method with a better form (the flipped Huber distribution
does, with generated kernels for each piece).
"""

from __future__ import annotations

import math
from typing import Any, ClassVar, Dict, Mapping, Tuple, Union

import numpy as np
from numpy.typing import ArrayLike

from .._core import domains as V
from .._core import search
from .._core.random import RandomState, as_generator, size_to_shape

__all__ = ["NoiseDistribution"]

Float = Union[float, np.ndarray]

_X = V.Domain("x", closed_lower=True, closed_upper=True, allow_inf=True)
_T = V.Domain("t", closed_lower=True, closed_upper=True, allow_inf=True)
_D = V.Domain("d")
_EPS = V.Domain("epsilon", 0.0, math.inf, closed_lower=True)


def _out(a: np.ndarray) -> Float:
    """A 0-d array as a Python float, anything else as it is."""
    a = np.asarray(a, dtype=float)
    return float(a) if a.ndim == 0 else a


class NoiseDistribution:
    """A symmetric additive noise law with its exact 1-D privacy profile.

    Subclasses: :class:`~fhsym.FlippedHuber`, :class:`~fhsym.Gaussian`, :class:`~fhsym.Laplace`,
    :class:`~fhsym.TruncatedLaplace`, :class:`~fhsym.Staircase`, :class:`~fhsym.OSGT`.

    Examples
    --------
    >>> import fhsym
    >>> g = fhsym.Gaussian(sigma=2.0)
    >>> isinstance(g, fhsym.NoiseDistribution), g.name, g.parameters
    (True, 'gaussian', {'sigma': 2.0})
    >>> g.var(), float(g.cdf(0.0)), float(g.ppf(0.5))
    (4.0, 0.5, 0.0)
    """

    #: the mechanism's key in :func:`fhsym.calibrate` and in certificates
    name: ClassVar[str] = ""
    #: the parameters in constructor order, each with its domain
    parameter_domains: ClassVar[Tuple[V.Domain, ...]] = ()

    # ------------------------------------------------------------------ parameters
    @property
    def parameters(self) -> Dict[str, float]:
        """The parameters as a dict (constructor order), e.g. ``{'alpha': 1.0, 'gamma': 2.0}``."""
        return {d.name: getattr(self, d.name) for d in self.parameter_domains}

    @classmethod
    def from_parameters(cls, parameters: Mapping[str, float]) -> "NoiseDistribution":
        """The distribution with these parameters; unknown or missing names raise ``ValueError``."""
        names = [d.name for d in cls.parameter_domains]
        extra = sorted(set(parameters) - set(names))
        missing = [n for n in names if n not in parameters]
        if extra or missing:
            raise ValueError(f"{cls.__name__} takes parameters {names}; got {sorted(parameters)}")
        return cls(**{n: parameters[n] for n in names})

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.parameters.items())
        return f"{type(self).__name__}({args})"

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.parameters == other.parameters  # type: ignore[union-attr]

    def __hash__(self) -> int:
        return hash((type(self), tuple(self.parameters.items())))

    # ------------------------------------------------------------------ density
    def logpdf(self, x: ArrayLike) -> Float:
        """log g(x); vectorised in ``x``."""
        xa = V.check_array(x, _X)
        with np.errstate(all="ignore"):
            return _out(self._logpdf(xa))

    def pdf(self, x: ArrayLike) -> Float:
        """g(x) = exp(logpdf(x))."""
        return _out(np.exp(np.asarray(self.logpdf(x), dtype=float)))

    # ------------------------------------------------------------- distribution
    def sf(self, x: ArrayLike) -> Float:
        """P(T > x)."""
        xa = V.check_array(x, _X)
        with np.errstate(all="ignore"):
            return _out(self._sf(xa))

    def cdf(self, x: ArrayLike) -> Float:
        """P(T <= x) = sf(-x) (symmetric noise)."""
        xa = V.check_array(x, _X)
        with np.errstate(all="ignore"):
            return _out(self._sf(-xa))

    def logsf(self, x: ArrayLike) -> Float:
        """log P(T > x), finite wherever the probability is positive."""
        xa = V.check_array(x, _X)
        with np.errstate(all="ignore"):
            return _out(self._logsf(xa))

    def logcdf(self, x: ArrayLike) -> Float:
        """log P(T <= x) = logsf(-x)."""
        xa = V.check_array(x, _X)
        with np.errstate(all="ignore"):
            return _out(self._logsf(-xa))

    def isf(self, q: ArrayLike) -> Float:
        """Inverse survival function: the x with sf(x) = q, q in [0, 1]."""
        qa = V.check_array(q, V.PROBABILITY)
        with np.errstate(all="ignore"):
            return _out(self._isf(qa))

    def ppf(self, q: ArrayLike) -> Float:
        """Quantile function: the x with cdf(x) = q, q in [0, 1] (= -isf(q), symmetric noise)."""
        qa = V.check_array(q, V.PROBABILITY)
        with np.errstate(all="ignore"):
            return _out(0.0 - self._isf(qa))  # 0.0 - x: the median is +0.0

    def support(self) -> Tuple[float, float]:
        """The (closed) support; (-inf, inf) unless the subclass says otherwise."""
        return (-math.inf, math.inf)

    # ------------------------------------------------------------------ moments
    def mean(self) -> float:
        """0: the noise is symmetric."""
        return 0.0

    def median(self) -> float:
        """0: the noise is symmetric."""
        return 0.0

    def var(self) -> float:
        """The variance (the cost the calibrations minimise); ``ValueError`` if it exceeds the float range."""
        try:
            v = float(self._var())
        except (OverflowError, ZeroDivisionError):
            v = math.inf
        return self._representable(v, "variance")

    def _representable(self, value: float, what: str) -> float:
        """``value`` if finite, else ``ValueError`` naming the quantity and the parameters."""
        if not math.isfinite(value):
            raise ValueError(f"the {what} of {self!r} exceeds the float range (1.8e308): rescale the parameters "
                             f"(e.g. the sensitivity and the noise scale together)")
        return value

    def std(self) -> float:
        """The standard deviation, sqrt(var())."""
        return math.sqrt(self.var())

    # ----------------------------------------------------------------- sampling
    def rvs(self, size: Any = None, random_state: RandomState = None) -> Float:
        """Draw samples (floating point: see docs/security.md for the exact lattice sampler).

        ``size`` None (one float), an int or a tuple; ``random_state`` None, an int seed, a
        numpy ``Generator`` or ``RandomState``.
        """
        shape = size_to_shape(size)
        rng = as_generator(random_state)
        out = np.asarray(self._rvs(rng, shape), dtype=float).reshape(shape)
        return float(out) if shape == () else out

    # ------------------------------------------------------------------ privacy
    def privacy_loss(self, t: ArrayLike, d: ArrayLike) -> Float:
        """Privacy loss zeta_d(t) = log g(t)/g(t + d) (paper Sec II-C1); broadcast in t and d."""
        ta = V.check_array(t, _T)
        da = V.check_array(d, _D)
        ta, da = np.broadcast_arrays(ta, da)
        with np.errstate(all="ignore"):
            out = np.where(da == 0, 0.0, self._privacy_loss(ta, da))
        return _out(out)

    def centered_privacy_loss(self, t: ArrayLike, d: ArrayLike) -> Float:
        """Centred privacy loss zeta~_d(t) = zeta_d(t - d/2) = log g(t - d/2)/g(t + d/2)."""
        ta = V.check_array(t, _T)
        da = V.check_array(d, _D)
        ta, da = np.broadcast_arrays(ta, da)
        with np.errstate(all="ignore"):
            out = np.where(da == 0, 0.0, self._centered_privacy_loss(ta, da))
        return _out(out)

    def privacy_profile(self, epsilon: ArrayLike, sensitivity: float = 1.0) -> Float:
        """delta(eps) = int [g(t) - e^eps g(t + Delta)]_+ dt, exact; vectorised in ``epsilon``."""
        eps = V.check_array(epsilon, _EPS)
        Delta = V.check_scalar(sensitivity, V.SENSITIVITY)
        with np.errstate(all="ignore"):
            out = np.asarray(self._profile(eps, Delta), dtype=float)
        if np.any(np.isnan(out)):  # pragma: no cover - a kernel bug, never a silent NaN
            raise FloatingPointError(f"internal error: NaN in the privacy profile of {self!r}")
        return _out(np.clip(out, 0.0, 1.0))

    def log_privacy_profile(self, epsilon: ArrayLike, sensitivity: float = 1.0) -> Float:
        """log delta(eps) (-inf where delta = 0)."""
        with np.errstate(divide="ignore"):
            return _out(np.log(np.asarray(self.privacy_profile(epsilon, sensitivity), dtype=float)))

    def epsilon_for_delta(self, delta: ArrayLike, sensitivity: float = 1.0) -> Float:
        """Smallest double eps with privacy_profile(eps) <= delta (never under-reported).

        The profile is non-increasing in eps; the answer is found by bisection on the bit
        patterns of the doubles (:func:`fhsym._core.search.smallest_true`), so it is exact to
        the last ulp with respect to the computed profile.  0 when delta >= delta(0).
        """
        deltas = V.check_array(delta, V.DELTA)
        Delta = V.check_scalar(sensitivity, V.SENSITIVITY)
        out = np.empty(deltas.shape)
        for idx, dt in np.ndenumerate(deltas):
            out[idx] = search.smallest_true(
                lambda e, dt=dt: float(self.privacy_profile(e, Delta)) <= dt, 1.0, name="epsilon", allow_zero=True)
        return _out(out)

    # ------------------------------------------------------- subclass kernels
    def _logpdf(self, x: np.ndarray) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def _sf(self, x: np.ndarray) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def _logsf(self, x: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore"):
            return np.log(self._sf(x))

    def _isf(self, q: np.ndarray) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def _var(self) -> float:  # pragma: no cover - abstract
        raise NotImplementedError

    def _rvs(self, rng: Any, shape: Tuple[int, ...]) -> np.ndarray:
        """Default sampler: inverse CDF of uniforms (subclasses use faster exact-law samplers)."""
        u = rng.random(shape)
        return self._isf(np.asarray(u, dtype=float))

    def _profile(self, eps: np.ndarray, sensitivity: float) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def _privacy_loss(self, t: np.ndarray, d: np.ndarray) -> np.ndarray:
        return self._centered_privacy_loss(t + 0.5 * d, d)

    def _centered_privacy_loss(self, t: np.ndarray, d: np.ndarray) -> np.ndarray:
        return self._privacy_loss(t - 0.5 * d, d)
