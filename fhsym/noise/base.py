"""One base class for every noise distribution of fhsym (template method).

A noise law of an additive mechanism M(D) = f(D) + T is a symmetric distribution with an
exact one-dimensional privacy profile

    delta(eps; Delta) = int [g(t) - e^eps g(t + Delta)]_+ dt        (paper eq 16, Lemma 11)

(the hockey-stick divergence between T and T + Delta).  :class:`NoiseDistribution` fixes the
public API -- the scipy.stats names for the distribution (its base
:class:`~fhsym.noise.scipy_methods.DistributionMethods`, with scipy's NaN and ``loc``/``scale``
conventions) and the privacy names of the paper -- and derives it from a few kernels that a
law supplies on validated float arrays, as dp_accounting's ``AdditiveNoisePrivacyLoss`` and
scipy's distribution infrastructure do:

===============================  ==========================================================
law supplies                     template derives
===============================  ==========================================================
``_logpdf(x)``                   ``logpdf``, ``pdf``
``_sf(x)`` (all real x)          ``sf``, ``cdf`` (= sf(-x), symmetry), ``logsf``, ``logcdf``
``_logsf(x)`` (optional)         ``logsf`` (default: log of ``_sf``)
``_isf(q)`` (q in [0, 1])        ``isf``, ``ppf`` (= -isf(q), symmetry), ``interval``
``_var()``                       ``var``, ``std``; ``mean`` = ``median`` = 0
``_rvs(rng, shape)``             ``rvs`` (size, random_state handling)
``_profile(eps, Delta)``         ``privacy_profile``
``_log_profile(eps, Delta)``     ``log_privacy_profile`` (default: log of ``_profile``)
``_epsilon_for_delta(d, Delta)`` ``epsilon_for_delta`` (default: bisection on the doubles)
``_privacy_loss(t, d)``          ``privacy_loss`` (log g(t)/g(t + d)), ``centered_privacy_loss``
``_moment(n)`` (optional)        ``moment``, ``stats`` (default: quadrature, :mod:`.quadrature`)
``_entropy()`` (optional)        ``entropy`` (default: quadrature of -g log g)
``_half_mass(x)`` (optional)     ``interval`` for confidence < 1/2 (default: 1/2 - sf(x))
``_kinks()`` (optional)          split points of the quadratures (``expect`` and the defaults)
``_init_arrays(**params)``       array parameters in one call (a ``vectorised`` law)
===============================  ==========================================================

plus the class attributes ``name`` (the mechanism's key, e.g. ``"gaussian"``) and
``parameter_domains`` (its parameters, declared once as :class:`fhsym._core.domains.Domain`),
and the mechanism-fact hooks (:data:`PUBLIC_HOOKS`).  A law may override a public method with a
better form, but none of fhsym's needs to (``tests/test_architecture.py`` counts them).

Array parameters (scipy-style broadcasting) are handled here too: a constructor called with an
array for any parameter returns an instance of a broadcasting subclass (:mod:`.broadcast`): a
``vectorised`` law evaluates its kernels on the whole parameter array at once, any other holds
one scalar distribution per element; ``to_scipy()`` turns any instance into an object of scipy's
distribution infrastructure (:mod:`.scipy_adapter`).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Callable, ClassVar, List, Optional, Tuple, Union

import numpy as np
from numpy.typing import ArrayLike

from .._core import domains as V
from .._core import search
from .._core.limits import Cost, base_cost
from .._core.arb import Enclosure, Plan, enclose, profile_upper_ends
from . import broadcast
from .family import Family, ScaleFamily
from .parametrised import Parametrised
from .scipy_methods import DistributionMethods, out_value

__all__ = ["NoiseDistribution", "PUBLIC_HOOKS"]

#: the public methods through which a law states its mechanism facts (the hooks of the privacy claims and of the
#: calibrator: fhsym.privacy.claims, fhsym.calibration.calibrator); a law overrides them.  Every other public method
#: of NoiseDistribution is the template's, derived from the private kernels of the table above
#: (tests/test_architecture.py counts how many of them each law overrides).
PUBLIC_HOOKS = frozenset({
    "parameters", "from_parameters", "gaussian_sigma", "pure_loss", "zcdp_parameters", "pure_calibration",
    "profile_enclosure", "worst_profile_enclosure", "loss_atoms", "loss_range", "pld_profile", "profile_upper_ends",
    "worst_profile_upper_ends", "sup_calibration", "closed_calibration", "profile_cost", "family_shape", "family_scale",
    "family",
    "from_family",
})

Float = Union[float, np.ndarray]

_T = V.Domain("t", closed_lower=True, closed_upper=True, allow_inf=True)
_D = V.Domain("d")
_EPS = V.Domain("epsilon", 0.0, math.inf, closed_lower=True)
_SEQUENCES = (list, tuple, np.ndarray)


def _refuse_loc_scale(cls: type, kwargs: Any) -> None:
    """``ValueError`` for scipy's ``loc``/``scale`` given to a noise constructor that has no such parameter: a noise law
    is centred and its scale is its own parameter, so that the privacy methods describe the mechanism; the shifted,
    scaled law is the scipy object's (``to_scipy(loc=, scale=)``) and the distribution methods' (``pdf(x, loc=,
    scale=)``)."""
    own = {d.name for d in getattr(cls, "parameter_domains", ())}
    for name in ("loc", "scale"):
        if name in kwargs and name not in own:
            raise ValueError(
                f"{name} is not a parameter of {cls.__name__} (its parameters: {', '.join(sorted(own))}): a noise law "
                f"is centred and unscaled, so that its privacy methods describe the mechanism; for the law of loc + "
                f"scale * T use law.to_scipy({name}=...) or the {name}= keyword of the distribution methods "
                f"(law.pdf(x, {name}=...)); got {name}={kwargs[name]!r}")


class NoiseDistribution(DistributionMethods, Parametrised):
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

    def __new__(cls, *args: Any, **kwargs: Any) -> "NoiseDistribution":
        if kwargs and ("loc" in kwargs or "scale" in kwargs):
            _refuse_loc_scale(cls, kwargs)
        # array parameters: an instance of the broadcasting subclass (fhsym.noise.broadcast);
        # scalars (the usual case, checked first and fast) construct this class exactly as before
        if ("_scalar_class" not in cls.__dict__ and not any(isinstance(a, _SEQUENCES) for a in args)
                and not (kwargs and any(isinstance(a, _SEQUENCES) for a in kwargs.values()))):
            return object.__new__(cls)
        return broadcast.new_instance(cls, args, kwargs)

    # ------------------------------------------------------------------ parameters
    @property
    def parameter_shape(self) -> Tuple[int, ...]:
        """The broadcast shape of the parameters: ``()`` for scalar parameters.

        >>> import fhsym
        >>> fhsym.Gaussian(sigma=2.0).parameter_shape, fhsym.Gaussian(sigma=[1.0, 2.0]).parameter_shape
        ((), (2,))
        """
        return self._array_shape

    def _evaluate_loss(self, kernel: Callable[[np.ndarray, np.ndarray], Any], t: ArrayLike, d: ArrayLike) -> Float:
        """A privacy-loss kernel on validated t and d broadcast together (and with array parameters); 0 where d = 0."""
        ta, da = np.broadcast_arrays(V.check_array(t, _T), V.check_array(d, _D))
        if self._array_shape:
            ta, da = self._broadcast("t and d", ta, da)
        with np.errstate(all="ignore"):
            return out_value(np.where(da == 0, 0.0, kernel(ta, da)))

    # ------------------------------------------------------------------ scipy
    def to_scipy(self, *, loc: ArrayLike = 0.0, scale: ArrayLike = 1.0) -> Any:
        """This law (of ``loc + scale * T``) as scipy's classic frozen distribution (``rv_continuous_frozen``).

        scipy's own frozen object of :meth:`scipy_rv` at this law's parameters, so every classic method is there
        (``pdf``, ``cdf``, ``sf``, their logs, ``ppf``, ``isf``, ``rvs``, ``interval``, ``mean``, ``median``, ``var``,
        ``std``, ``stats``, ``moment``, ``entropy``, ``expect``, ``support``) with scipy's conventions; its kernels
        evaluate this law.  ``loc`` (finite) and ``scale`` (finite, > 0) shift and scale it as in scipy (arrays
        broadcast with array parameters); the privacy methods stay on the fhsym law, which is centred and unscaled.
        scipy's new distribution type (``make_distribution``: ``icdf``, ``sample``, ``2 * X + 1``) is
        :meth:`to_scipy_distribution`.

        >>> import fhsym
        >>> X = fhsym.FlippedHuber(alpha=1.0, gamma=2.0).to_scipy()
        >>> float(X.cdf(0.0)), round(float(X.ppf(0.975)), 10), X.interval(0.5) == (X.ppf(0.25), X.ppf(0.75))
        (0.5, 3.905438792, True)
        >>> float(fhsym.Gaussian(sigma=1.0).to_scipy(loc=3.0, scale=2.0).std())
        2.0
        """
        from .scipy_rv import frozen

        return frozen(self, loc, scale)

    @classmethod
    def scipy_rv(cls) -> Any:
        """The law's class as scipy's *unfrozen* ``rv_continuous`` (shape parameters: the law's parameters; a
        parameter named ``loc`` or ``scale`` gets a trailing ``_``), for ``scipy.stats.fit`` and ``rv.fit``.

        >>> import fhsym
        >>> rv = fhsym.Laplace.scipy_rv()
        >>> rv.shapes, float(rv.cdf(1.0, 2.0, loc=1.0))
        ('beta', 0.5)
        """
        from .scipy_rv import scipy_rv

        return scipy_rv(cls)

    def to_scipy_distribution(self) -> Any:
        """This distribution as an object of scipy's new distribution infrastructure (``make_distribution``).

        A ``scipy.stats.ContinuousDistribution`` whose pdf, cdf, ccdf, icdf, iccdf, log-variants, moments, entropy
        and sampler are this object's, so scipy's new tooling works on it (``X.icdf``, ``X.sample``, transformations
        such as ``2 * X + 1``).  Array parameters carry over.  (``to_scipy()`` returned this before fhsym 0.2.)

        >>> import fhsym
        >>> X = fhsym.FlippedHuber(alpha=1.0, gamma=2.0).to_scipy_distribution()
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
        return out_value(np.clip(out, 0.0, 1.0))

    def log_privacy_profile(self, epsilon: ArrayLike, sensitivity: ArrayLike = 1.0) -> Float:
        """log delta(eps) (-inf where delta = 0); finite where delta underflows if the law has a log-space kernel.

        >>> import fhsym
        >>> fh = fhsym.FlippedHuber(alpha=1.0, gamma=2.0)
        >>> float(fh.privacy_profile(2000.0)), round(float(fh.log_privacy_profile(2000.0)), 3)
        (0.0, -7999018.248)
        """
        eps, Delta = self._privacy_arguments(epsilon, sensitivity)
        with np.errstate(all="ignore"):
            out = self._per_sensitivity(self._log_profile, eps, Delta)
        if np.any(np.isnan(out)):  # pragma: no cover - a kernel bug, never a silent NaN
            raise FloatingPointError(f"internal error: NaN in the privacy profile of {self!r}")
        return out_value(out)

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
        the last ulp with respect to the computed profile.  0 when delta >= delta(0).  With array parameters
        ``delta`` broadcasts with them; a vectorised law (:class:`fhsym.FlippedHuber`) bisects all elements at once
        (:func:`fhsym._core.search.smallest_true_many`), the others one scalar law per element: the doubles of the
        scalar laws either way.

        >>> import fhsym
        >>> g = fhsym.Gaussian(sigma=2.0)
        >>> e = g.epsilon_for_delta(1e-6)
        >>> bool(g.privacy_profile(e) <= 1e-6 < g.privacy_profile(np.nextafter(e, 0.0)))
        True
        """
        deltas = V.check_array(delta, V.DELTA)
        Delta = V.check_scalar(sensitivity, V.SENSITIVITY)
        if self._array_shape:  # a vectorised law's array parameters (fhsym.noise.broadcast.NATIVE)
            deltas, = self._broadcast("delta", deltas)
        return out_value(self._epsilon_for_delta(deltas, Delta))

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

    def at_precision(self, digits: Optional[int] = None, *, bits: Optional[int] = None, ball: bool = False) -> Any:
        """This law at any precision (issue 29): ``digits`` significant decimal digits (or ``bits``).

        Returns an object whose methods give mpmath numbers (``ball=True``: python-flint ``arb`` balls that
        contain the exact value) at the exact binary values of the parameters: every quantity of the law
        (pdf, logpdf, cdf, sf, their logs, ppf, isf, moments, var, entropy, privacy loss, the 1-D privacy
        profile and its inverse; the law's view, reached by its ``_precise_view`` hook:
        :mod:`fhsym.noise.precise_laws`; a declared law's through its printed ball forms,
        :mod:`fhsym.noise.precise_declared`), or for a law without a view the privacy profile
        (:mod:`fhsym.noise.precise_mechanisms`).

        >>> import fhsym, mpmath
        >>> mpmath.nstr(fhsym.Laplace(1.0).at_precision(30).privacy_profile(0.5, 1.0), 30)
        '0.221199216928595131754829733022'
        """
        from .precise_mechanisms import at_precision

        return at_precision(self, digits, bits, ball)

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

    def profile_cost(self, epsilon: float, sensitivity: float = 1.0) -> Cost:
        """What :meth:`worst_profile_enclosure` at these inputs will cost, stated before computing it
        (:func:`fhsym.verify_certificate` refuses a certificate whose cost exceeds its budget).

        One ball-arithmetic enclosure at a bounded precision: a constant.  A law whose work grows with
        its parameters overrides this (the piecewise-uniform noise: lattice terms).

        >>> import fhsym
        >>> fhsym.Laplace(1.0).profile_cost(0.5, 1.0).work
        'one ball-arithmetic or exact-rational enclosure'
        """
        return base_cost("parameters")

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

    def worst_profile_upper_ends(self, epsilons: Any, sensitivity: float, *, rel_width: float = 2.0**-40,
                                 max_prec: int = 1024) -> List[Tuple[int, int]]:
        """Upper ends of :meth:`worst_profile_enclosure`'s balls at many epsilons (the nodes of a proven PLD that
        dominates every shift ``|d| <= Delta``, claim ``"pld-kfold-sup"``): for symmetric log-concave noise the
        profile at Delta (:meth:`profile_upper_ends`); a law without that property overrides this or has none
        (``ValueError``)."""
        if not self.log_concave:
            raise ValueError(f"{type(self).__name__} has no proven sup of its profile over the shifts (it is not "
                             f"log-concave and does not state one)")
        return self.profile_upper_ends(epsilons, sensitivity, rel_width=rel_width, max_prec=max_prec)

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
