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
``_moment(n)`` (optional)   ``moment``, ``stats`` (default: quadrature, :mod:`.quadrature`)
``_entropy()`` (optional)   ``entropy`` (default: quadrature of -g log g)
``_half_mass(x)`` (opt.)    ``interval`` for confidence < 1/2 (default: 1/2 - sf(x))
``_kinks()`` (optional)     split points of the quadratures (``expect`` and the defaults)
==========================  ===============================================================

plus the class attributes ``name`` (the mechanism's key, e.g. ``"gaussian"``) and
``parameter_domains`` (its parameters, declared once as :class:`fhsym._core.domains.Domain`).
A subclass may override any public method with a better form (the flipped Huber distribution
does, with generated kernels for each piece).

Array parameters (scipy-style broadcasting) are handled here too: a constructor called with
an array for any parameter returns an instance that holds one scalar distribution per
element of the broadcast parameter shape (:mod:`.broadcast`); ``to_scipy()`` turns any
instance into an object of scipy's distribution infrastructure (:mod:`.scipy_adapter`).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Callable, ClassVar, Dict, List, Mapping, Optional, Tuple, Union, cast

import numpy as np
from numpy.typing import ArrayLike

from .._core import domains as V
from .._core import search
from .._core.arb import Enclosure, Plan, enclose, profile_upper_ends
from .._core.random import RandomState, as_generator, size_to_shape
from . import broadcast, quadrature
from .family import Family, ScaleFamily
from .parametrised import Parametrised

__all__ = ["NoiseDistribution", "PUBLIC_HOOKS"]

#: the public methods through which a law states its mechanism facts (the hooks of the privacy claims and of the
#: calibrator: fhsym.privacy.claims, fhsym.calibration.calibrator); a law overrides them.  Every other public method
#: of NoiseDistribution is the template's, derived from the private kernels of the table above
#: (tests/test_architecture.py counts how many of them each law overrides).
PUBLIC_HOOKS = frozenset({
    "parameters", "from_parameters", "gaussian_sigma", "pure_loss", "zcdp_parameters", "pure_calibration",
    "profile_enclosure", "worst_profile_enclosure", "loss_atoms", "loss_range", "pld_profile", "profile_upper_ends",
    "family_shape", "family_scale", "family", "from_family",
})

Float = Union[float, np.ndarray]

_X = V.Domain("x", closed_lower=True, closed_upper=True, allow_inf=True)
_T = V.Domain("t", closed_lower=True, closed_upper=True, allow_inf=True)
_D = V.Domain("d")
_EPS = V.Domain("epsilon", 0.0, math.inf, closed_lower=True)
_CONFIDENCE = V.Domain("confidence", 0.0, 1.0, closed_lower=True, closed_upper=True)
_BOUND = V.Domain("lb/ub", closed_lower=True, closed_upper=True, allow_inf=True)
_STATS = "mvsk"
_SEQUENCES = (list, tuple, np.ndarray)
_NEWTON_STEPS = 12
_TINY = 2.2250738585072014e-308  # the smallest normal double


def _identity(x: float) -> float:
    return x


def _out(a: Any) -> Float:
    """A result as scipy.stats returns it: a 0-d array as its numpy scalar (``np.float64``), an array as it is."""
    a = np.asarray(a, dtype=float)
    return cast(float, a[()]) if a.ndim == 0 else a


def _py(a: Any) -> Float:
    """A 0-d array as a Python float, anything else as a float array."""
    a = np.asarray(a, dtype=float)
    return float(a) if a.ndim == 0 else a


class NoiseDistribution(Parametrised):
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

    broadcast_parameters = True  # a law's parameters may be arrays (fhsym.noise.broadcast)
    #: the kernels take the law's constants and the sensitivity as arrays (broadcast with the argument): array
    #: parameters and array sensitivities are evaluated in one call, not one scalar law (or sensitivity) at a time
    vectorised: ClassVar[bool] = False
    _array_shape: Tuple[int, ...] = ()  # the parameter shape (array parameters: set by fhsym.noise.broadcast)

    def __new__(cls, *args: Any, **kwargs: Any) -> "NoiseDistribution":
        # array parameters: an instance of the broadcasting subclass (fhsym.noise.broadcast);
        # scalars (the usual case, checked first and fast) construct this class exactly as before
        if ("_scalar_class" not in cls.__dict__ and not any(isinstance(a, _SEQUENCES) for a in args)
                and not (kwargs and any(isinstance(a, _SEQUENCES) for a in kwargs.values()))):
            return object.__new__(cls)
        return cast("NoiseDistribution", broadcast.new_instance(cls, args, kwargs))

    # ------------------------------------------------------------------ parameters
    @property
    def parameter_shape(self) -> Tuple[int, ...]:
        """The broadcast shape of the parameters: ``()`` for scalar parameters.

        >>> import fhsym
        >>> fhsym.Gaussian(sigma=2.0).parameter_shape, fhsym.Gaussian(sigma=[1.0, 2.0]).parameter_shape
        ((), (2,))
        """
        return self._array_shape

    def _broadcast(self, name: str, *arrays: np.ndarray) -> List[np.ndarray]:
        """The arguments broadcast with each other and the parameter shape (``ValueError`` naming ``name``)."""
        try:
            shape = np.broadcast_shapes(self._array_shape, *(a.shape for a in arrays))
        except ValueError:
            raise ValueError(f"{name} must broadcast with the parameter shape {self._array_shape}; got shape(s) "
                             f"{', '.join(str(a.shape) for a in arrays)}") from None
        return [np.broadcast_to(a, shape) for a in arrays]

    def _evaluate(self, kernel: Callable[[np.ndarray], Any], x: ArrayLike, domain: V.Domain = _X) -> Float:
        """A kernel on ``x`` validated in ``domain`` (broadcast with array parameters), floating-point warnings off."""
        xa = V.check_array(x, domain)
        if self._array_shape:
            xa, = self._broadcast(domain.name, xa)
        with np.errstate(all="ignore"):
            return _out(kernel(xa))

    def _evaluate_loss(self, kernel: Callable[[np.ndarray, np.ndarray], Any], t: ArrayLike, d: ArrayLike) -> Float:
        """A privacy-loss kernel on validated t and d broadcast together (and with array parameters); 0 where d = 0."""
        ta, da = np.broadcast_arrays(V.check_array(t, _T), V.check_array(d, _D))
        if self._array_shape:
            ta, da = self._broadcast("t and d", ta, da)
        with np.errstate(all="ignore"):
            return _out(np.where(da == 0, 0.0, kernel(ta, da)))

    # ------------------------------------------------------------------ density
    def logpdf(self, x: ArrayLike) -> Float:
        """log g(x); vectorised in ``x``."""
        return self._evaluate(self._logpdf, x)

    def pdf(self, x: ArrayLike) -> Float:
        """g(x) = exp(logpdf(x))."""
        return _out(np.exp(np.asarray(self.logpdf(x), dtype=float)))

    # ------------------------------------------------------------- distribution
    def sf(self, x: ArrayLike) -> Float:
        """P(T > x)."""
        return self._evaluate(self._sf, x)

    def cdf(self, x: ArrayLike) -> Float:
        """P(T <= x) = sf(-x) (symmetric noise)."""
        return self._evaluate(lambda xa: self._sf(-xa), x)

    def logsf(self, x: ArrayLike) -> Float:
        """log P(T > x), finite wherever the probability is positive."""
        return self._evaluate(self._logsf, x)

    def logcdf(self, x: ArrayLike) -> Float:
        """log P(T <= x) = logsf(-x)."""
        return self._evaluate(lambda xa: self._logsf(-xa), x)

    def isf(self, q: ArrayLike) -> Float:
        """Inverse survival function: the x with sf(x) = q, q in [0, 1]."""
        return self._evaluate(self._isf, q, V.PROBABILITY)

    def ppf(self, q: ArrayLike) -> Float:
        """Quantile function: the x with cdf(x) = q, q in [0, 1] (= -isf(q), symmetric noise)."""
        return self._evaluate(lambda qa: 0.0 - self._isf(qa), q, V.PROBABILITY)  # 0.0 - x: the median is +0.0

    def support(self) -> Tuple[Float, Float]:
        """The (closed) support; (-inf, inf) unless the subclass says otherwise."""
        if self._array_shape:
            return np.full(self._array_shape, -math.inf), np.full(self._array_shape, math.inf)
        return (-math.inf, math.inf)

    def interval(self, confidence: ArrayLike) -> Tuple[Float, Float]:
        """The equal-tailed interval holding probability ``confidence``: (-h, h), P(|T| <= h) = confidence.

        h = isf((1 - confidence)/2) (scipy's ``interval``); for confidence < 1/2, where
        1/2 - confidence/2 would round, h solves P(0 < T <= h) = confidence/2 by Newton steps
        on the subclass's central mass ``_half_mass`` (full relative accuracy for tiny
        confidence).  Vectorised in ``confidence`` in [0, 1].

        >>> import fhsym
        >>> lo, hi = fhsym.Gaussian(sigma=1.0).interval(0.95)
        >>> round(lo, 12), round(hi, 12)
        (-1.95996398454, 1.95996398454)
        """
        c = V.check_array(confidence, _CONFIDENCE)
        flat = c.reshape(-1)
        h = np.empty(flat.shape)
        big = flat >= 0.5
        with np.errstate(all="ignore"):
            if big.any():
                h[big] = np.asarray(self.isf(0.5 * (1.0 - flat[big])), dtype=float)  # 1 - c exact (Sterbenz)
            if (~big).any():
                h[~big] = self._central_quantile(0.5 * flat[~big])
        hs = h.reshape(c.shape)
        return _py(0.0 - hs), _py(hs + 0.0)

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
               ub: Optional[float] = None, conditional: bool = False) -> float:
        """E[func(T); lb <= T <= ub] = int_lb^ub func(t) g(t) dt, by adaptive quadrature (scipy's ``expect``).

        ``func`` defaults to the identity; ``lb``/``ub`` to the support's ends;
        ``conditional=True`` divides by P(lb <= T <= ub).  The range is split at 0, at the
        density's kinks and at its tail quantiles (:mod:`fhsym.noise.quadrature`); ``func``
        is called with one float at a time.

        >>> import fhsym
        >>> g = fhsym.Gaussian(sigma=2.0)
        >>> round(g.expect(abs), 12), round(2.0 * (2.0 / 3.141592653589793) ** 0.5, 12)   # E|T| = sigma sqrt(2/pi)
        (1.595769121606, 1.595769121606)
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
        val = quadrature.expect(self, func, lo, hi)
        if conditional:
            mass = self._mass(lo, hi)
            if mass == 0.0:
                raise ValueError(f"conditional=True needs P(lb <= T <= ub) > 0; got lb={lo!r}, ub={hi!r}")
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
    def moment(self, order: int) -> float:
        """The non-central moment E[T^order] (= the central one: the mean is 0).

        1 for order 0, 0 for odd orders (symmetric noise), the subclass's closed form
        ``_moment(n)`` for even orders (quadrature when it has none).  Raises
        ``OverflowError`` where the moment exceeds the float range.

        >>> import fhsym
        >>> g = fhsym.Gaussian(sigma=2.0)
        >>> g.moment(0), g.moment(3), g.moment(4)              # E[T^4] = 3 sigma^4
        (1.0, 0.0, 48.0)
        """
        n = V.check_int(order, "order", 0)
        if n == 0:
            return 1.0
        if n % 2:
            return 0.0
        with np.errstate(over="ignore"):
            val = float(self._moment(n))
        if not math.isfinite(val):
            raise OverflowError(f"E[T^{n}] exceeds the float range for {self!r}")
        return val

    def entropy(self) -> float:
        """The differential entropy h(T) = -int g(t) log g(t) dt (nats).

        The subclass's closed form ``_entropy()``, or quadrature of the definition.

        >>> import math, fhsym
        >>> math.isclose(fhsym.Laplace(beta=2.0).entropy(), 1.0 + math.log(4.0), rel_tol=1e-15)   # 1 + log(2 beta)
        True
        """
        return float(self._entropy())

    def stats(self, moments: str = "mv") -> Union[float, Tuple[float, ...]]:
        """Mean ``m``, variance ``v``, skewness ``s`` and excess kurtosis ``k`` (scipy's ``stats``).

        ``moments`` is a string of the letters wanted (scipy's default ``"mv"``); the values
        come in the order m, v, s, k, as a tuple (one letter: the value).  m = s = 0 by
        symmetry; k = E[T^4]/Var^2 - 3 (accurate to ~1e-15 absolute, not relative where
        k is near 0).

        >>> import fhsym
        >>> fhsym.Laplace(beta=1.0).stats("mvsk")
        (0.0, 2.0, 0.0, 3.0)
        """
        if not isinstance(moments, str) or not moments or any(ch not in _STATS for ch in moments):
            raise ValueError(f"moments must be a non-empty string of the letters 'mvsk'; got {moments!r}")
        out = []
        for ch in _STATS:
            if ch not in moments:
                continue
            if ch in "ms":
                out.append(0.0)
            elif ch == "v":
                out.append(self.var())
            else:
                v = self.var()
                out.append(self.moment(4) / (v * v) - 3.0)
        return out[0] if len(out) == 1 else tuple(out)

    def mean(self) -> Float:
        """0: the noise is symmetric."""
        return np.zeros(self._array_shape) if self._array_shape else 0.0

    def variance(self) -> float:
        """The variance: the fhsym 0.1 name of :meth:`var` (of the comparison mechanisms, kept for old code).

        >>> import fhsym
        >>> fhsym.Gaussian(sigma=2.0).variance(), fhsym.Laplace(beta=1.0).variance()
        (4.0, 2.0)
        """
        return self.var()

    def median(self) -> Float:
        """0: the noise is symmetric."""
        return np.zeros(self._array_shape) if self._array_shape else 0.0

    def var(self) -> float:
        """The variance (the cost the calibrations minimise); ``ValueError`` if it is outside the float range.

        A positive variance is never returned as 0 or as a subnormal number (which keeps too few
        digits): below 2.2e-308 the call raises ``ValueError``, as above 1.8e308.
        """
        if self._array_shape:
            with np.errstate(all="ignore"):
                return self._representable_array(np.asarray(self._var(), dtype=float), "variance")
        try:
            v = float(self._var())
        except (OverflowError, ZeroDivisionError):
            v = math.inf
        return self._representable(v, "variance", positive=True)

    def _representable(self, value: float, what: str, positive: bool = False) -> float:
        """``value`` if finite (and, if ``positive``, a normal double >= 2.2e-308), else ``ValueError`` naming the
        quantity and the parameters: a positive quantity is never returned as 0 or as a subnormal."""
        if positive and 0.0 <= value < _TINY:
            raise ValueError(f"the {what} of {self!r} is below the float range (2.2e-308): rescale the parameters "
                             f"(e.g. the sensitivity and the noise scale together)")
        if not math.isfinite(value):
            raise ValueError(f"the {what} of {self!r} exceeds the float range (1.8e308): rescale the parameters "
                             f"(e.g. the sensitivity and the noise scale together)")
        return value

    def _representable_array(self, values: np.ndarray, what: str) -> np.ndarray:
        """Positive ``values`` (array parameters) if each is a normal double, else ``ValueError`` at the first that
        is not, naming its parameters (see :meth:`_representable`)."""
        bad = ~(np.isfinite(values) & (values >= _TINY))
        if bad.any():
            idx = tuple(int(i) for i in np.argwhere(bad)[0])
            params = ", ".join(f"{k}={float(v[idx])!r}" for k, v in self.parameters.items())
            side = "exceeds the float range (1.8e308)" if values[idx] >= _TINY else "is below the float range (2.2e-308)"
            raise ValueError(f"the {what} at parameter index {idx} ({params}) {side}: rescale the parameters")
        return values

    def std(self) -> Float:
        """The standard deviation, sqrt(var())."""
        v = self.var()
        return np.sqrt(v) if self._array_shape else math.sqrt(v)

    # ----------------------------------------------------------------- sampling
    def rvs(self, size: Any = None, random_state: RandomState = None) -> Float:
        """Draw samples (floating point: see docs/security.md for the exact lattice sampler).

        ``size`` None (one float), an int or a tuple; ``random_state`` None, an int seed, a
        numpy ``Generator`` or ``RandomState``.
        """
        shape = size_to_shape(size)
        if self._array_shape:  # array parameters: size defaults to their shape and must be one they broadcast to
            shape = self._array_shape if size is None else shape
            try:
                ok = np.broadcast_shapes(shape, self._array_shape) == shape
            except ValueError:
                ok = False
            if not ok:
                raise ValueError(f"size must be a shape that the parameter shape {self._array_shape} broadcasts to; "
                                 f"got {size!r}")
        rng = as_generator(random_state)
        out = np.asarray(self._rvs(rng, shape), dtype=float).reshape(shape)
        return out[()] if shape == () else out

    # ------------------------------------------------------------------ scipy
    def to_scipy(self) -> Any:
        """This distribution as an object of scipy's distribution infrastructure.

        A ``scipy.stats.ContinuousDistribution`` (built by ``scipy.stats.make_distribution``)
        whose pdf, cdf, ccdf, icdf, iccdf, log-variants, moments, entropy and sampler are
        this object's, so scipy's tooling works on it (``X.cdf``, ``X.icdf``, ``X.moment``,
        ``X.sample``, transformations such as ``2 * X + 1``).  Array parameters carry over.

        >>> import fhsym
        >>> X = fhsym.FlippedHuber(alpha=1.0, gamma=2.0).to_scipy()
        >>> float(X.cdf(0.0)), round(float(X.icdf(0.975)), 10)
        (0.5, 3.905438792)
        """
        from .scipy_adapter import to_scipy

        return to_scipy(self)

    # ------------------------------------------------------------------ privacy
    def privacy_loss(self, t: ArrayLike, d: ArrayLike) -> Float:
        """Privacy loss zeta_d(t) = log g(t)/g(t + d) (paper Sec II-C1); broadcast in t and d."""
        return self._evaluate_loss(self._privacy_loss, t, d)

    def centered_privacy_loss(self, t: ArrayLike, d: ArrayLike) -> Float:
        """Centred privacy loss zeta~_d(t) = zeta_d(t - d/2) = log g(t - d/2)/g(t + d/2)."""
        return self._evaluate_loss(self._centered_privacy_loss, t, d)

    def privacy_profile(self, epsilon: ArrayLike, sensitivity: ArrayLike = 1.0) -> Float:
        """delta(eps) = int [g(t) - e^eps g(t + Delta)]_+ dt (paper eq 16), exact; broadcast in eps and the sensitivity.

        The hockey-stick divergence of T against T + Delta (the law's ``_profile`` kernel); the mechanism adding
        this noise to a query of sensitivity Delta is (eps, delta)-DP iff delta >= delta(eps).

        >>> import fhsym
        >>> from scipy.stats import norm
        >>> g = fhsym.Gaussian(sigma=1.5)
        >>> round(float(g.privacy_profile(0.5)), 12)                    # Balle & Wang 2018, Theorem 8
        0.108744376889
        >>> s, D, e = 1.5, 1.0, 0.5
        >>> round(float(norm.cdf(D / (2 * s) - e * s / D) - np.exp(e) * norm.cdf(-D / (2 * s) - e * s / D)), 12)
        0.108744376889
        >>> fhsym.Laplace(beta=1.0).privacy_profile([0.0, 1.0], sensitivity=[[1.0], [2.0]]).shape
        (2, 2)
        """
        eps, Delta = self._privacy_arguments(epsilon, sensitivity)
        with np.errstate(all="ignore"):
            out = self._per_sensitivity(self._profile, eps, Delta)
        if np.any(np.isnan(out)):  # pragma: no cover - a kernel bug, never a silent NaN
            raise FloatingPointError(f"internal error: NaN in the privacy profile of {self!r}")
        return _out(np.clip(out, 0.0, 1.0))

    def log_privacy_profile(self, epsilon: ArrayLike, sensitivity: ArrayLike = 1.0) -> Float:
        """log delta(eps) (-inf where delta = 0); finite where delta underflows if the law has a log-space kernel.

        >>> import fhsym
        >>> fh = fhsym.FlippedHuber(alpha=1.0, gamma=2.0)
        >>> float(fh.privacy_profile(2000.0)), round(float(fh.log_privacy_profile(2000.0)), 3)
        (0.0, -7999018.248)
        """
        eps, Delta = self._privacy_arguments(epsilon, sensitivity)
        with np.errstate(all="ignore"):
            return _out(self._per_sensitivity(self._log_profile, eps, Delta))

    def _privacy_arguments(self, epsilon: ArrayLike, sensitivity: ArrayLike) -> Tuple[np.ndarray, Any]:
        """eps (an array) and the sensitivity (a float, or an array when one is given) validated."""
        eps = V.check_array(epsilon, _EPS)
        if self._array_shape:
            eps, = self._broadcast("epsilon", eps)
        if np.ndim(sensitivity) == 0:
            return eps, V.check_scalar(sensitivity, V.SENSITIVITY)
        return eps, V.check_array(sensitivity, V.SENSITIVITY)

    def _per_sensitivity(self, kernel: Callable[[np.ndarray, Any], Any], eps: np.ndarray, Delta: Any) -> np.ndarray:
        """``kernel(eps, Delta)``; an array of sensitivities goes to a law's kernel at once if it is ``vectorised``,
        else one float sensitivity at a time (each distinct value once)."""
        if isinstance(Delta, float) or self.vectorised:
            return np.asarray(kernel(eps, Delta), dtype=float)
        e, d = np.broadcast_arrays(eps, Delta)
        out = np.empty(e.shape)
        for v in np.unique(d):
            m = d == v
            out[m] = kernel(e[m], float(v))
        return out

    def epsilon_for_delta(self, delta: ArrayLike, sensitivity: float = 1.0) -> Float:
        """Smallest eps with privacy_profile(eps) <= delta (never under-reported); vectorised in ``delta`` in (0, 1).

        The law's ``_epsilon_for_delta`` kernel; by default a bisection on the bit patterns of the doubles
        (:func:`fhsym._core.search.smallest_true`; the profile is non-increasing in eps), so the answer is exact to
        the last ulp with respect to the computed profile.  0 when delta >= delta(0).

        >>> import fhsym
        >>> g = fhsym.Gaussian(sigma=2.0)
        >>> e = g.epsilon_for_delta(1e-6)
        >>> bool(g.privacy_profile(e) <= 1e-6 < g.privacy_profile(np.nextafter(e, 0.0)))
        True
        """
        deltas = V.check_array(delta, V.DELTA)
        Delta = V.check_scalar(sensitivity, V.SENSITIVITY)
        return _out(self._epsilon_for_delta(deltas, Delta))

    # ------------------------------------------------ mechanism facts (privacy hooks)
    log_concave: ClassVar[bool] = True  # the continuous laws are log-concave unless they say otherwise (Parametrised)
    #: the scale family's shapes the calibrator scans, as (low, high, include 0): a log grid between
    #: low and high (and the shape 0); ``None``: the family has no shape (the noise is its scale alone)
    shape_range: ClassVar[Optional[Tuple[float, float, bool]]] = None

    def profile_enclosure(self, epsilon: float, sensitivity: float = 1.0, *, rel_width: float = 2.0**-60,
                          max_prec: int = 1 << 14) -> Enclosure:
        """A proven enclosure ``lower <= delta(eps) <= upper`` of the exact 1-D profile at the exact parameters.

        Ball arithmetic (python-flint ``arb``) on the noise law's exact profile at the exact binary
        values of its parameters, of ``epsilon`` and of the sensitivity, independent of the float
        kernels (:func:`fhsym._core.arb.enclose`; the law supplies its plan through ``_arb_plan``).

        >>> import fhsym
        >>> e = fhsym.Gaussian(sigma=1.0).profile_enclosure(1.0, 1.0)
        >>> f"{e.lower:.12g} {e.upper:.12g}"
        '0.126936737507 0.126936737507'
        """
        return enclose(self._arb_plan, epsilon, sensitivity, rel_width=rel_width, max_prec=max_prec)

    def worst_profile_enclosure(self, epsilon: float, sensitivity: float = 1.0) -> Enclosure:
        """A proven enclosure of ``sup_{0 < d <= Delta} delta(eps; d)``: the guarantee for every ``|d| <= Delta``.

        For symmetric log-concave noise the likelihood ratio is monotone, so the profile increases
        with the shift and the supremum is :meth:`profile_enclosure` at ``Delta``.  A law without
        that property overrides this (the piecewise-uniform noise) or has no 1-D profile claim.

        >>> import fhsym
        >>> fhsym.Laplace(1.0).worst_profile_enclosure(0.5, 1.0) == fhsym.Laplace(1.0).profile_enclosure(0.5, 1.0)
        True
        """
        if not self.log_concave:
            raise ValueError(f"{type(self).__name__} is not log-concave: its profile need not increase with the shift, "
                             "so the profile at sensitivity does not bound the smaller shifts")
        return self.profile_enclosure(epsilon, sensitivity)

    #: relative error of the float privacy profile where it feeds a float PLD (searches, accounting)
    profile_rtol: ClassVar[float] = 1e-13

    def loss_atoms(self, sensitivity: float) -> Tuple[Fraction, ...]:
        """The positive values the privacy loss takes on a set of positive probability (point masses of the PLD),
        as exact rationals of the binary parameters.  A loss lattice that holds them makes the pessimistic
        discretisation exact there."""
        return ()

    def loss_range(self, sensitivity: float) -> Optional[Fraction]:
        """The largest finite privacy loss at ``sensitivity`` (beyond it only the infinite loss of disjoint
        supports is left), exactly, or None when the loss is unbounded."""
        return None

    def pld_profile(self, sensitivity: float, certified: bool = True) -> Callable[[np.ndarray], np.ndarray]:
        """delta(eps) at ``sensitivity`` as a function of an array of eps >= 0, for the float PLD builders.

        Accurate to :attr:`profile_rtol`; ``certified=False`` allows a faster, less accurate form (searches).
        """
        return lambda eps: np.asarray(self.privacy_profile(np.asarray(eps, dtype=float), sensitivity), dtype=float)

    def profile_upper_ends(self, epsilons: Any, sensitivity: float, *, rel_width: float = 2.0**-40,
                           max_prec: int = 1024) -> List[Tuple[int, int]]:
        """Upper ends of :meth:`profile_enclosure`'s balls at many epsilons, exactly, as ``(man, exp)`` pairs."""
        return profile_upper_ends(self._arb_plan, epsilons, sensitivity, rel_width=rel_width, max_prec=max_prec)

    @property
    def family_shape(self) -> float:
        """The scale family's shape parameter of this noise (0.0 for a family without shapes)."""
        return 0.0

    @property
    def family_scale(self) -> float:
        """The scale family's scale parameter: more scale is more noise at a fixed shape."""
        raise NotImplementedError  # pragma: no cover - every law defines it

    @classmethod
    def family(cls, **options: Any) -> Family:
        """The law as a scale family for the calibrator (:mod:`fhsym.noise.family`); ``options`` are the law's
        calibration options (none by default: any raises ``ValueError`` naming it)."""
        if options:
            raise ValueError(f"mechanism {cls.name!r} takes no options; got {sorted(options)[0]}={options[sorted(options)[0]]!r}")
        return ScaleFamily(cls)

    @classmethod
    def from_family(cls, shape: float, scale: float) -> "NoiseDistribution":
        """The member of the scale family with this shape and scale (``ValueError`` outside the domains)."""
        raise NotImplementedError  # pragma: no cover - every law defines it

    def _arb_plan(self, eps: Any, sensitivity: Any) -> Plan:  # pragma: no cover - abstract
        """The law's ball-arithmetic plan at exact rationals ``eps``, ``sensitivity`` (:mod:`fhsym._core.arb`)."""
        raise NotImplementedError

    # ------------------------------------------------------- subclass kernels
    def _init_arrays(self, **parameters: np.ndarray) -> bool:
        """A vectorised law: set its parameters and constants from validated arrays of one shape (array parameters,
        :mod:`fhsym.noise.broadcast`); False if some element is invalid beyond the domains (the per-element path then
        raises the scalar constructor's error)."""
        return False

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
        """P(0 < T <= x) for x >= 0; default 1/2 - sf(x) (subclasses: a form exact for small x)."""
        return 0.5 - np.asarray(self.sf(x), dtype=float)

    def _kinks(self) -> Tuple[float, ...]:
        """Points x > 0 where the density or its derivative jumps (quadrature split points)."""
        return ()

    def _rvs(self, rng: Any, shape: Tuple[int, ...]) -> np.ndarray:
        """Default sampler: inverse CDF of uniforms (subclasses use faster exact-law samplers)."""
        u = rng.random(shape)
        return self._isf(np.asarray(u, dtype=float))

    def _profile(self, eps: np.ndarray, sensitivity: float) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def _log_profile(self, eps: np.ndarray, sensitivity: Any) -> np.ndarray:
        """log delta(eps); default: the log of ``_profile`` (a law with a log-space form overrides it)."""
        with np.errstate(divide="ignore"):
            out: np.ndarray = np.log(np.clip(np.asarray(self._profile(eps, sensitivity), dtype=float), 0.0, 1.0))
        return out

    def _epsilon_for_delta(self, deltas: np.ndarray, sensitivity: float) -> np.ndarray:
        """Default: the smallest double eps with privacy_profile(eps) <= delta, by bisection on the bit patterns."""
        out = np.empty(deltas.shape)
        for idx, dt in np.ndenumerate(deltas):
            def below(e: float, dt: float = dt) -> bool:
                return float(self.privacy_profile(e, sensitivity)) <= dt

            out[idx] = search.smallest_true(below, 1.0, name="epsilon", allow_zero=True)
        return out

    def _privacy_loss(self, t: np.ndarray, d: np.ndarray) -> np.ndarray:
        return self._centered_privacy_loss(t + 0.5 * d, d)

    def _centered_privacy_loss(self, t: np.ndarray, d: np.ndarray) -> np.ndarray:
        return self._privacy_loss(t - 0.5 * d, d)
