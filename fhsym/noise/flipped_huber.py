"""The flipped Huber distribution FH(alpha, gamma^2): a scipy.stats-shaped API.

Density (paper eq 8)::

    g(t; alpha, gamma^2) = exp(-rho_alpha(t) / gamma^2) / kappa,
    rho_alpha(t) = alpha |t|            if |t| <= alpha
                 = (t^2 + alpha^2) / 2  if |t| >  alpha                      (eq 7)
    kappa = gamma * omega * exp(-alpha^2 / (2 gamma^2))                      (Definition 7)
    omega = 2 [sqrt(2 pi) Q(alpha/gamma) + (2 gamma/alpha) sinh(alpha^2/(2 gamma^2))]   (eq 9)

alpha = 0 is the Gaussian N(0, gamma^2); as alpha/gamma -> inf the density tends
to the Laplace density with scale gamma^2/alpha.

The class lives on the template :class:`fhsym.noise.base.NoiseDistribution`: the public
scipy-style and privacy methods are the template's (argument checks, broadcasting, NaN and
``loc``/``scale`` conventions), and this class supplies the kernels behind them:

=======================================  ===========================  =====================
template method                          kernel here                  paper
=======================================  ===========================  =====================
``logpdf``, ``pdf``                      ``_logpdf``                  eq 7, 8, 9
``sf``, ``cdf``, ``logsf``, ``logcdf``   ``_sf``, ``_logsf``          eq 10
``ppf``, ``isf``, ``interval``           ``_isf``, ``_half_mass``     Appendix B (derived)
``var``, ``std``, ``moment``, ``stats``  ``_var``, ``_moment``        eq 11 (derived)
``entropy``                              ``_entropy``                 derived
``rvs``                                  ``_rvs`` (ziggurat)          eq 8
``privacy_loss``, ``centered_...``       ``_privacy_loss``            Sec II-C1, eq 7
``privacy_profile``, ``log_...``         ``_log_profile``             Theorem 3, eq 13
``epsilon_for_delta``                    ``_epsilon_for_delta``       eq 13 inverted
=======================================  ===========================  =====================

Every kernel evaluates a generated kernel of :mod:`fhsym._generated.flipped_huber`
(printed from :mod:`fhsym.symbolic.stable`, each proven equal to the paper's
formula by ``python -m proofs``) on the piece of the piecewise formula that
applies, under a mask, in standard units ``b = alpha/gamma``, ``s = t/gamma``.

Accuracy (tested against mpmath quadrature of the definition in
``tests/test_distribution_accuracy.py``): relative error <= 1e-12 for every
method over alpha/gamma in {0} U [1e-6, 1e4], gamma in [1e-6, 1e6], including
the far tails (``logpdf``/``logcdf``/``logsf`` stay finite wherever the true value
is finite) and the points |t| = alpha.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Dict, Literal, Optional, Tuple, Union, cast, overload

import numpy as np
from numpy.typing import ArrayLike

from .._core import domains as V
from .._core.arb import Plan
from .plans.flipped_huber import flipped_huber_plan
from .._generated import flipped_huber as K
from .._generated import flipped_huber_pieces as KP
from . import flipped_huber_profile as _pp
from .base import NoiseDistribution
from .family import Family
from .flipped_huber_privacy import FlippedHuberPrivacyMethods
from .flipped_huber_quantile import FlippedHuberQuantileMethods, scalar_or_array

if TYPE_CHECKING:
    from .precise import BallFlippedHuber, PreciseFlippedHuber

__all__ = ["FlippedHuber"]

_HALF_LOG_2PI = 0.5 * math.log(2.0 * math.pi)
# shape b above which the scale-free moments use their Laplace-limit kernels (fhsym.symbolic.laplace_limit)
_LAPLACE_B = 64.0
# alpha/gamma above which omega = exp(log_omega) exceeds the float range
_LOG_FLOAT_MAX = math.log(np.finfo(float).max)

Float = Union[float, np.ndarray]


def _direct_min(fh: FlippedHuber) -> np.ndarray:
    with np.errstate(over="ignore"):
        log_omega = fh._lw + 0.5 * fh.b * fh.b
    out: np.ndarray = np.exp(np.minimum(-290.0 * math.log(10.0) - log_omega + _HALF_LOG_2PI, 0.0))
    return out


#: the constants of ``FlippedHuber.__init__`` for array parameters, by attribute, computed when first used
_ARRAY_CONSTANTS: Dict[str, Callable[[FlippedHuber], np.ndarray]] = {
    "_lw": lambda fh: KP.log_kappa_std(fh.b),
    "_tail_mass": lambda fh: KP.tail_mass_of_b(fh.b, fh._lw),
    "_isf_direct_min": _direct_min,
    "_upper_quartile": lambda fh: KP.isf_std(fh.b, 0.25, 0.25, fh._lw, fh._tail_mass, fh._isf_direct_min),
}


class FlippedHuber(FlippedHuberQuantileMethods, FlippedHuberPrivacyMethods, NoiseDistribution):
    """The flipped Huber distribution FH(alpha, gamma^2) (paper, Definition 7).

    Parameters
    ----------
    alpha : float
        Transition parameter, a finite number >= 0 (0 gives the Gaussian).
    gamma : float
        Scale parameter, a finite number > 0.

    Methods follow ``scipy.stats`` conventions and are vectorised in their
    argument (the template's, :class:`fhsym.noise.base.NoiseDistribution`; the
    kernels behind them are listed in the module docstring).  Invalid parameters or
    arguments raise ``ValueError`` naming the parameter and its valid range.

    Examples
    --------
    >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
    >>> float(fh.cdf(0.0))
    0.5
    >>> bool(fh.var() <= fh.gamma**2)       # sigma^2 <= gamma^2 (Sec III-B1)
    True
    >>> round(float(fh.ppf(fh.cdf(0.7))), 12)
    0.7
    """

    name = "flipped_huber"
    display_name = "flipped Huber"
    parameter_domains = (V.ALPHA, V.GAMMA)
    vectorised = True  # the kernels take array constants (array parameters, arrays of sensitivities)

    def __init__(self, alpha: float, gamma: float) -> None:
        self.alpha = V.check_scalar(alpha, V.ALPHA)
        self.gamma = V.check_scalar(gamma, V.GAMMA)
        b = self.alpha / self.gamma
        if not math.isfinite(b):
            raise ValueError(
                f"alpha/gamma must be finite; got alpha={self.alpha!r}, gamma={self.gamma!r} (ratio overflows)"
            )
        self.b = b
        self._log_gamma = math.log(self.gamma)
        self._lw, self._tail_mass = _pp.shape_constants(b)  # log(kappa/gamma) (Laplace-limit form past b = 64), P(T > alpha)
        # smallest p for which Q^{-1}(p omega / sqrt(2 pi)) is evaluated directly (argument >= 1e-290)
        log_omega = self._lw + 0.5 * b * b  # inf past b ~ 1.9e154 (then the bound below is 0, exactly right)
        self._isf_direct_min = math.exp(min(-290.0 * math.log(10.0) - log_omega + _HALF_LOG_2PI, 0.0))
        # the standardised upper quartile (below it sf is computed as 1/2 - mass([0, s])) is computed when first used
        # (__getattr__): a calibration builds many members whose sf is never asked for (an isf costs ~2 ms)
        self._moments: Optional[np.ndarray] = None  # even moments m_2 .. m_20, computed on first use by log_mgf

    def _init_arrays(self, alpha: np.ndarray, gamma: np.ndarray) -> bool:  # type: ignore[override]  # its parameters by name
        """Array parameters (validated, of one shape; :mod:`fhsym.noise.broadcast`): the constants of ``__init__``
        elementwise, so that the kernels evaluate every element in one call.  False if some alpha/gamma overflows."""
        with np.errstate(over="ignore"):
            b = alpha / gamma
        if not np.all(np.isfinite(b)):
            return False
        # array parameters: the attributes hold arrays (the annotations describe the scalar case, as the template's)
        self.alpha, self.gamma, self.b = alpha, gamma, b  # type: ignore[assignment]
        self._log_gamma = np.log(gamma)
        self._moments = None
        return True  # the other constants are computed on first use (__getattr__): construction costs what scipy's does

    def __getattr__(self, name: str) -> Any:
        # reached only for a missing attribute: the constants of array parameters, each computed when first needed
        make = _ARRAY_CONSTANTS.get(name)
        if make is None or "b" not in vars(self):
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        if name == "_upper_quartile" and isinstance(vars(self)["b"], float):  # scalar parameters: as __init__ had it
            value: Any = float(self._isf_std(np.array([0.25]), np.array([0.25]))[0])
            setattr(self, name, value)
            return value
        value = make(self)
        setattr(self, name, value)
        return value

    # ------------------------------------------------------------------ basics
    def __repr__(self) -> str:
        return f"FlippedHuber(alpha={self.alpha!r}, gamma={self.gamma!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FlippedHuber) and (self.alpha, self.gamma) == (other.alpha, other.gamma)

    def __hash__(self) -> int:
        return hash((FlippedHuber, self.alpha, self.gamma))

    # ------------------------------------------------------------------ mechanism facts
    # scale family: shape b = alpha/gamma, scale gamma (Var = gamma^2 v(b); delta depends on Delta/gamma)
    shape_range = (1e-3, 1e4, True)

    def _arb_plan(self, eps: Any, sensitivity: Any) -> Plan:
        return flipped_huber_plan(eps, sensitivity, self.alpha, self.gamma)

    def _precise_view(self, digits: Optional[int], bits: Optional[int], ball: bool) -> Any:
        from .precise import BallFlippedHuber, PreciseFlippedHuber  # at_precision's view of this law (issue 29)
        return (BallFlippedHuber if ball else PreciseFlippedHuber)(self.alpha, self.gamma, digits, bits=bits)

    @overload
    def at_precision(self, digits: Optional[int] = None, *, bits: Optional[int] = None,
                     ball: Literal[False] = False) -> PreciseFlippedHuber: ...
    @overload
    def at_precision(self, digits: Optional[int] = None, *, bits: Optional[int] = None,
                     ball: Literal[True]) -> BallFlippedHuber: ...
    @overload
    def at_precision(self, digits: Optional[int] = None, *, bits: Optional[int] = None,
                     ball: bool = False) -> Union[PreciseFlippedHuber, BallFlippedHuber]: ...
    def at_precision(self, digits: Optional[int] = None, *, bits: Optional[int] = None,
                     ball: bool = False) -> Union[PreciseFlippedHuber, BallFlippedHuber]:
        """Every quantity at ``digits`` decimal digits (or ``bits``) as mpmath numbers, or arb balls with
        ``ball=True`` (:mod:`fhsym.noise.precise`), at the exact binary values of alpha and gamma.

        >>> import mpmath
        >>> p = FlippedHuber(alpha=1.0, gamma=2.0).at_precision(30)
        >>> mpmath.nstr(p.sf(3.0), 30)
        '0.0656867765355616913935360233507'
        """
        from .precise_mechanisms import at_precision

        out: Union[PreciseFlippedHuber, BallFlippedHuber] = at_precision(self, digits, bits, ball)
        return out

    def gaussian_sigma(self) -> Optional[float]:
        """gamma when alpha = 0 (the flipped Huber law is then N(0, gamma^2)), else None.

        >>> FlippedHuber(0.0, 2.0).gaussian_sigma(), FlippedHuber(1.0, 2.0).gaussian_sigma()
        (2.0, None)
        """
        return self.gamma if self.alpha == 0.0 else None

    def zcdp_parameters(self, sensitivity: float) -> Tuple[float, float]:
        """(xi, eta) = (R_Delta(alpha)/(2 gamma^2), Delta^2/(2 gamma^2)): one release is (xi, eta)-zCDP (:meth:`zcdp`).

        >>> FlippedHuber(0.0, 1.0).zcdp_parameters(1.0)      # the Gaussian: (0, Delta^2 / (2 sigma^2))
        (0.0, 0.5)
        """
        xi, eta = self.zcdp(sensitivity)
        return float(xi), float(eta)

    calibration_methods = ("auto", "exact", "sufficient")
    profile_rtol = _pp.PROFILE_RTOL  # the float profile's certified relative error (kink re-evaluated in arb)

    def pld_profile(self, sensitivity: float, certified: bool = True) -> Callable[[np.ndarray], np.ndarray]:
        """delta(eps) at ``sensitivity`` for an array of eps (float PLD builders): the public profile (relative error
        :attr:`profile_rtol`), or with ``certified=False`` the search's faster standardised form.

        >>> f = FlippedHuber(1.0, 2.0).pld_profile(1.0)
        >>> bool(abs(f(np.array([0.5]))[0] / float(FlippedHuber(1.0, 2.0).privacy_profile(0.5)) - 1) < 1e-15)
        True
        """
        b, D = _pp.scalar_units(self.alpha, self.gamma, sensitivity)
        if certified:  # the public profile: exact next to the kink eps = alpha Delta/gamma^2
            return lambda eps: np.exp(_pp.log_privacy_profile(np.asarray(eps, dtype=float), self.alpha, self.gamma,
                                                               sensitivity))
        return lambda eps: np.exp(_pp.log_profile_std(np.asarray(eps, dtype=float), b, D, self._lw))  # searches

    def loss_atoms(self, sensitivity: float) -> Tuple[Fraction, ...]:
        """The loss alpha Delta/gamma^2 (exactly), taken with positive probability where t and t + Delta lie on one
        side of the Laplace centre (alpha > Delta); none otherwise.

        >>> FlippedHuber(4.0, 2.0).loss_atoms(1.0), FlippedHuber(0.5, 2.0).loss_atoms(1.0)
        ((Fraction(1, 1),), ())
        """
        if not self.alpha > sensitivity:
            return ()
        return (Fraction(self.alpha) * Fraction(sensitivity) / Fraction(self.gamma) ** 2,)

    @property
    def family_shape(self) -> float:
        return self.b

    @property
    def family_scale(self) -> float:
        return self.gamma

    @classmethod
    def from_family(cls, shape: float, scale: float) -> "FlippedHuber":
        return cls(shape * scale, scale)

    @classmethod
    def family(cls, **options: Any) -> Family:
        if options:
            return super().family(**options)
        from .flipped_huber_family import FlippedHuberFamily

        return FlippedHuberFamily(cls, cls.shape_range)

    def log_omega(self) -> float:
        """log omega (eq 9) = b^2/2 + log(kappa/gamma); finite for every valid alpha, gamma.

        With b = alpha/gamma, omega = 2 [sqrt(2 pi) Q(b) + (2/b) sinh(b^2/2)] (eq 9), and
        omega -> sqrt(2 pi) as b -> 0 (the Gaussian).  Computed in log space, so it stays
        finite where omega itself overflows (b > ~37.7).

        Examples
        --------
        >>> import math
        >>> round(FlippedHuber(alpha=0.0, gamma=1.0).log_omega(), 12)   # log sqrt(2 pi)
        0.918938533205
        >>> round(0.5 * math.log(2 * math.pi), 12)
        0.918938533205
        >>> f"{FlippedHuber(alpha=1000.0, gamma=1.0).log_omega():.10g}"  # omega overflows here
        '499993.7854'
        """
        return self._representable(self._lw + 0.5 * self.b * self.b, "log omega")

    def omega(self) -> float:
        """omega of eq 9 (>= sqrt(2 pi), Proposition 1).

        omega = 2 [sqrt(2 pi) Q(alpha/gamma) + (2 gamma/alpha) sinh(alpha^2/(2 gamma^2))] (eq 9),
        evaluated as exp(:meth:`log_omega`); sqrt(2 pi) at alpha = 0.

        Raises ``OverflowError`` when omega exceeds the float range (alpha/gamma > ~37.7);
        use :meth:`log_omega` there.

        Examples
        --------
        >>> import math
        >>> round(FlippedHuber(alpha=1.0, gamma=2.0).omega(), 12)
        2.54938403864
        >>> FlippedHuber(alpha=1.0, gamma=2.0).omega() >= math.sqrt(2 * math.pi)   # Proposition 1
        True
        >>> math.isclose(FlippedHuber(alpha=0.0, gamma=3.0).omega(), math.sqrt(2 * math.pi), rel_tol=1e-15)
        True
        >>> FlippedHuber(alpha=40.0, gamma=1.0).omega()
        Traceback (most recent call last):
        ...
        OverflowError: omega = exp(...) exceeds the float range for alpha/gamma = 40 > 37.7; use log_omega()
        """
        lo = self.log_omega()
        if lo > _LOG_FLOAT_MAX:
            raise OverflowError(
                f"omega = exp({lo:.6g}) exceeds the float range for alpha/gamma = {self.b:.6g} > 37.7; use log_omega()"
            )
        return math.exp(lo)

    def kappa(self) -> float:
        """Normalisation constant kappa = gamma * omega * exp(-alpha^2/(2 gamma^2)) (Definition 7).

        kappa = int exp(-rho_alpha(t)/gamma^2) dt, with rho_alpha of eq 7 and omega of eq 9;
        gamma sqrt(2 pi) at alpha = 0.  Computed as gamma exp(log(kappa/gamma)), so it does
        not overflow where omega does.

        Examples
        --------
        >>> import math
        >>> from scipy.integrate import quad
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> round(fh.kappa(), 10)
        4.4996470352
        >>> f = lambda t: math.exp(-(1.0 * t if t <= 1.0 else (t * t + 1.0) / 2) / 4.0)  # exp(-rho_1(t)/2^2), t >= 0
        >>> math.isclose(fh.kappa(), 2 * (quad(f, 0, 1)[0] + quad(f, 1, math.inf)[0]), rel_tol=1e-10)
        True
        >>> math.isclose(FlippedHuber(alpha=0.0, gamma=1.5).kappa(), 1.5 * math.sqrt(2 * math.pi), rel_tol=1e-15)
        True
        """
        return self.gamma * math.exp(self._lw)

    def log_kappa(self) -> float:
        """log kappa = log gamma + log(kappa/gamma) (Definition 7; eq 9 for omega).

        kappa = gamma omega exp(-alpha^2/(2 gamma^2)); its log is finite for every valid
        alpha, gamma, and avoids the exp/log round trip of ``log(kappa())``.

        Examples
        --------
        >>> import math
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> math.isclose(fh.log_kappa(), math.log(fh.kappa()), rel_tol=1e-14)
        True
        >>> round(float(fh.logpdf(0.0)) + fh.log_kappa(), 12)    # g(0) = 1/kappa (eq 8)
        0.0
        """
        return math.log(self.gamma) + self._lw

    def tail_mass(self) -> float:
        """P(T > alpha), the mass of one Gaussian tail: sqrt(2 pi)/omega * Q(alpha/gamma) (eq 10).

        1/2 at alpha = 0 (the Gaussian: the whole half line is "tail"); it decreases to 0 as
        alpha/gamma grows (the Laplace limit).  Precomputed at construction.

        Examples
        --------
        >>> import math
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> round(fh.tail_mass(), 12)
        0.303363050303
        >>> math.isclose(fh.tail_mass(), float(fh.sf(fh.alpha)), rel_tol=1e-14)
        True
        >>> FlippedHuber(alpha=0.0, gamma=1.0).tail_mass()
        0.5
        """
        return self._tail_mass

    # ------------------------------------------------- distribution kernels (hooks of NoiseDistribution)
    # The public pdf, logpdf, cdf, sf, logcdf, logsf, var and std are the template's (fhsym.noise.base): it validates
    # the argument and calls these kernels on float arrays.  Standard units: s = x/gamma, b = alpha/gamma.
    def _logpdf(self, x: np.ndarray) -> np.ndarray:
        """log g(x) (eq 8) = -rho_alpha(x)/gamma^2 - log kappa (Definition 6, eq 7; Definition 7, eq 9).

        -alpha|x|/gamma^2 - log kappa in the centre |x| <= alpha, -(x^2 + alpha^2)/(2 gamma^2) - log kappa beyond:
        the generated ``logpdf_std`` at s = |x|/gamma, minus log gamma.  Finite for every finite x (no underflow in
        the far tails); ``pdf`` is its exp.

        Examples
        --------
        >>> from scipy.stats import norm
        >>> g = FlippedHuber(alpha=0.0, gamma=1.5)          # alpha = 0: N(0, 1.5^2)
        >>> round(float(g.logpdf(0.7)), 12), round(float(norm.logpdf(0.7, scale=1.5)), 12)
        (-1.433292530202, -1.433292530202)
        >>> round(float(g.pdf(0.7)), 12), round(float(norm.pdf(0.7, scale=1.5)), 12)
        (0.238522286112, 0.238522286112)
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> f"{float(fh.logpdf(1e4)):.10g}"                 # pdf underflows, logpdf does not
        '-12500001.63'
        >>> np.round(fh.pdf([-1.0, 0.0, 1.0]), 6)           # symmetric, mode at 0
        array([0.17308, 0.22224, 0.17308])
        >>> import math
        >>> from scipy.integrate import quad
        >>> f = lambda t: float(fh.pdf(t))
        >>> math.isclose(2 * (quad(f, 0, 1)[0] + quad(f, 1, math.inf)[0]), 1.0, rel_tol=1e-10)
        True
        """
        with np.errstate(over="ignore"):
            s = np.abs(x / self.gamma)
        out = KP.logpdf_std(self.b, s, self._lw)
        out -= self._log_gamma
        return out

    def _sf_std_nonneg(self, s: np.ndarray) -> np.ndarray:
        """P(S > s) for s >= 0 (eq 10): 1/2 minus the mass of [0, s] up to the upper quartile
        (exactly 1/2 at s = 0, so the CDF is monotone through the median), beyond it a sum
        of positive terms (accurate in relative terms far into the tail)."""
        return KP.sf_std_nonneg(self.b, s, self._lw, self._upper_quartile)

    def _logsf_std_nonneg(self, s: np.ndarray) -> np.ndarray:
        return KP.logsf_std_nonneg(self.b, s, self._lw, self._upper_quartile)

    def _sf(self, x: np.ndarray) -> np.ndarray:
        """P(T > x) (1 - eq 10), accurate in relative terms far into the right tail; ``cdf(x)`` is ``sf(-x)``.

        For x >= 0 (s = x/gamma) 1/2 minus the mass of [0, s] near the median and a sum of positive terms beyond
        (the Gaussian tail sqrt(2 pi)/omega * Q(s) for s > b, eq 10); for x < 0, 1 - sf(-x).  Exactly 1/2 at 0.

        Examples
        --------
        >>> from scipy.stats import norm
        >>> g = FlippedHuber(alpha=0.0, gamma=1.5)          # alpha = 0: N(0, 1.5^2)
        >>> f"{float(g.sf(30.0)):.10g}", f"{float(norm.sf(30.0, scale=1.5)):.10g}"   # 20 sigma: no cancellation
        ('2.753624119e-89', '2.753624119e-89')
        >>> round(float(g.cdf(0.7)), 12), round(float(norm.cdf(0.7, scale=1.5)), 12)
        (0.679630809099, 0.679630809099)
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> float(fh.cdf(0.0)), bool(fh.sf(0.7) == fh.cdf(-0.7))                     # symmetry
        (0.5, True)
        >>> np.round(fh.cdf([-3.0, 0.0, 3.0]), 6)
        array([0.065687, 0.5     , 0.934313])
        """
        with np.errstate(over="ignore"):
            s = x / self.gamma
        if self._array_shape:  # array parameters: one kernel call on |s| with the constants broadcast
            v = self._sf_std_nonneg(np.abs(s))
            return np.where(s >= 0, v, 1.0 - v)
        pos = s >= 0
        out = np.empty_like(s)
        out[pos] = self._sf_std_nonneg(s[pos])
        neg = ~pos
        out[neg] = 1.0 - self._sf_std_nonneg(-s[neg])
        return out

    def _logsf(self, x: np.ndarray) -> np.ndarray:
        """log P(T > x), finite for every finite x; ``logcdf(x)`` is ``logsf(-x)``.

        The log of 1 - eq 10; in the right tail computed in log space (log Q via ``log_ndtr``), so it stays finite
        where ``sf`` underflows.

        Examples
        --------
        >>> import math
        >>> from scipy.stats import norm
        >>> g = FlippedHuber(alpha=0.0, gamma=1.5)          # alpha = 0: N(0, 1.5^2)
        >>> round(float(g.logsf(300.0)), 8), round(float(norm.logsf(300.0, scale=1.5)), 8)   # sf underflows here
        (-20006.2172809, -20006.2172809)
        >>> round(float(g.logcdf(-300.0)), 8)
        -20006.2172809
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> math.isclose(float(fh.logsf(0.0)), math.log(0.5), rel_tol=1e-15)
        True
        >>> math.isclose(float(fh.logcdf(1.5)), math.log(float(fh.cdf(1.5))), rel_tol=1e-14)
        True
        """
        with np.errstate(over="ignore"):
            s = x / self.gamma
        pos = s >= 0
        if self._array_shape:  # array parameters: the kernels on |s| with the constants broadcast
            a = np.abs(s)
            return np.where(pos, self._logsf_std_nonneg(np.where(pos, a, np.inf)),
                            np.log1p(-self._sf_std_nonneg(np.where(pos, 0.0, a))))
        out = np.empty_like(s)
        out[pos] = self._logsf_std_nonneg(s[pos])
        neg = ~pos
        out[neg] = np.log1p(-self._sf_std_nonneg(-s[neg]))
        return out

    def _var(self) -> float:
        """Var(T) (eq 11) as a sum of positive terms; <= gamma^2 (Sec III-B1).

        Var(T) = int t^2 g(t) dt (eq 11, with g of eq 8; the paper's Appendix A is missing, the closed form is
        derived): gamma^2 at alpha = 0, 2 gamma^4/alpha^2 (the Laplace variance) as alpha/gamma -> inf (beyond
        b = 64 the Laplace kernel at b/gamma, which does not underflow).  ``std`` is its square root.

        Examples
        --------
        >>> import math
        >>> from scipy.integrate import quad
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> round(fh.var(), 10), round(fh.std(), 12)
        (3.9345225254, 1.983563088328)
        >>> f = lambda t: t * t * float(fh.pdf(t))
        >>> math.isclose(fh.var(), 2 * (quad(f, 0, 1)[0] + quad(f, 1, math.inf)[0]), rel_tol=1e-10)
        True
        >>> fh.var() <= fh.gamma**2                        # Sec III-B1
        True
        >>> FlippedHuber(alpha=0.0, gamma=1.5).var(), FlippedHuber(alpha=0.0, gamma=1.5).std()   # N(0, 1.5^2)
        (2.25, 1.5)
        """
        if self._array_shape:  # array parameters: b, gamma and lw are arrays (typed as the scalar case)
            b, gamma, lw = np.asarray(self.b), np.asarray(self.gamma), np.asarray(self._lw)
            lap = b > _LAPLACE_B
            out = np.empty(self._array_shape)
            with np.errstate(over="ignore"):
                out[lap] = KP.variance_std_laplace(b[lap] / gamma[lap])
            g, m = gamma[~lap], ~lap
            out[m] = g * (g * KP.variance_of_b(b[m], lw[m]))
            return cast(float, out)  # an array, as the template's var returns for array parameters
        if self.b > _LAPLACE_B:  # gamma^2 * 2/b^2 = 2 (gamma/b)^2: the Laplace kernel at b/gamma (no underflow)
            with np.errstate(over="ignore"):  # inf -> the ValueError of var()
                return float(KP.variance_std_laplace(np.float64(self.b / self.gamma)))
        return self.gamma * (self.gamma * float(KP.variance_of_b(np.float64(self.b), self._lw)))

    def fisher_information(self) -> float:
        """Fisher information of the location model (eq 12); >= 1/gamma^2.

        I(T) = int (d/dt log g(t))^2 g(t) dt = E[psi'(T)^2] with psi'(t) = rho_alpha'(t)/gamma^2
        (alpha sign(t)/gamma^2 in the centre, t/gamma^2 in the tails; eq 7, 8, 12; the
        paper's Appendix A is missing, the closed form is derived).  1/gamma^2 at alpha = 0.

        Examples
        --------
        >>> import math
        >>> from scipy.integrate import quad
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> round(fh.fisher_information(), 10)
        0.2628013521
        >>> c = quad(lambda t: (1.0 / 4) ** 2 * float(fh.pdf(t)), 0, 1)[0]       # centre: (alpha/gamma^2)^2
        >>> tl = quad(lambda t: (t / 4) ** 2 * float(fh.pdf(t)), 1, math.inf)[0]  # tails: (t/gamma^2)^2
        >>> math.isclose(fh.fisher_information(), 2 * (c + tl), rel_tol=1e-10)
        True
        >>> fh.fisher_information() >= 1 / fh.gamma**2
        True
        >>> round(FlippedHuber(alpha=0.0, gamma=1.5).fisher_information(), 15)   # 1/1.5^2
        0.444444444444444
        """
        if self.b > _LAPLACE_B:  # b^2/gamma^2 = (b/gamma)^2: the Laplace kernel at b/gamma (no spurious overflow)
            with np.errstate(over="ignore"):  # inf -> the ValueError below
                return self._representable(float(KP.fisher_std_laplace(np.float64(self.b / self.gamma))),
                                           "Fisher information", positive=True)
        return self._representable(float(KP.fisher_of_b(np.float64(self.b), self._lw)) / self.gamma / self.gamma,
                                   "Fisher information", positive=True)

    def nfi(self) -> float:
        """Normalised Fisher information Var(T) * I(T) (Sec II-D, Fig 2); in [1, 2].

        The product of eq 11 and eq 12 (scale free: a function of alpha/gamma only); 1 for
        the Gaussian (alpha = 0, the minimum) and -> 2 in the Laplace limit.

        Examples
        --------
        >>> import math
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> round(fh.nfi(), 12)
        1.033997839641
        >>> math.isclose(fh.nfi(), fh.var() * fh.fisher_information(), rel_tol=1e-14)
        True
        >>> FlippedHuber(alpha=0.0, gamma=1.5).nfi()
        1.0
        >>> round(FlippedHuber(alpha=1e4, gamma=1.0).nfi(), 6)    # Laplace limit
        2.0
        """
        return float(KP.nfi_of_b(np.float64(self.b), self._lw))

    def _log_E(self, m: np.ndarray) -> np.ndarray:
        return KP.log_mgf_half(self.b, m)  # b = 0: log(b * exprel(b m)) = -inf is exact

    _MGF_SERIES_TERMS = 10  # even moments m_2 .. m_20

    def _even_moments(self) -> np.ndarray:
        if self._moments is None:
            n = np.arange(2, 2 * self._MGF_SERIES_TERMS + 1, 2)
            self._moments = np.array([float(K.moment_std(int(k), np.float64(self.b), self._lw)) for k in n])
        return self._moments

    def log_mgf(self, s: ArrayLike) -> Float:
        """log E[exp(s T)] (Sec III-B2), finite for every finite s; <= gamma^2 s^2/2 (Lemma 2).

        Near s = 0 (gamma^2 s^2 Var(T)/gamma^2 <= 0.1) log M is log1p of its moment series
        sum_k (gamma s)^{2k} E[S^{2k}]/(2k)!, k <= 10 (truncation < 1e-13 relative for every
        b: the ratio of successive terms is <= (gamma s/b)^2 (Laplace-like) or (gamma s)^2/2k
        (Gaussian-like)); elsewhere the closed form of the paper in log space.

        The closed form (Sec III-B2): M(s) = E[exp(s T)] = sqrt(2 pi)/omega (P(s) + P(-s))
        e^{gamma^2 s^2/2} (P as in ``fhsym.symbolic.definitions.mgf_P``); alpha = 0 gives
        log M(s) = gamma^2 s^2/2.  Vectorised in ``s``.

        Examples
        --------
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> round(float(fh.log_mgf(0.3)), 12)
        0.177294170226
        >>> bool(fh.log_mgf(0.3) <= fh.gamma**2 * 0.3**2 / 2)       # Lemma 2 (sub-Gaussian)
        True
        >>> round(float(FlippedHuber(alpha=0.0, gamma=1.5).log_mgf(0.3)), 12)   # 1.5^2 0.3^2 / 2
        0.10125
        >>> f"{float(fh.log_mgf(100.0)):.10g}"                       # mgf overflows here
        '19999.98309'
        """
        sa = V.check_array(s, V.MGF_ARGUMENT)
        u = self.gamma * sa
        if not np.all(np.isfinite(u)):
            raise ValueError(f"s must satisfy |gamma*s| < inf; got gamma*s overflowing for gamma={self.gamma!r}")
        u = np.asarray(u, dtype=float)
        if self.b > _LAPLACE_B:
            return scalar_or_array(self._log_mgf_laplace_limit(u))
        out = np.empty_like(u)
        mom = self._even_moments()
        small = u * u * mom[0] <= 0.1
        if small.any():
            u2 = u[small] ** 2
            acc = np.zeros_like(u2)
            fact = 1.0
            pw = np.ones_like(u2)
            for k in range(1, self._MGF_SERIES_TERMS + 1):
                fact *= (2 * k - 1) * (2 * k)
                pw = pw * u2
                acc += pw * (mom[k - 1] / fact)
            out[small] = np.log1p(acc)
        big = ~small
        if big.any():
            ub = u[big]
            out[big] = np.logaddexp(self._log_E(self.b + ub), self._log_E(self.b - ub)) - self._lw
        return scalar_or_array(out)

    def _log_mgf_laplace_limit(self, u: np.ndarray) -> np.ndarray:
        # b > 64: the Laplace MGF -log(1 - (u/b)^2) for |u| <= b/2 (remainder <= 8 e^{-b^2/2},
        # proofs/laplace_limit.py), the closed form in log space beyond
        near = np.abs(u) <= 0.5 * self.b
        out = np.empty_like(u)
        if near.any():
            out[near] = KP.log_mgf_laplace(self.b, u[near])
        far = ~near
        if far.any():
            uf = u[far]
            with np.errstate(over="ignore"):  # b + |u| > 1.8e308: log M ~ u^2/2 is beyond the float range too (inf)
                out[far] = np.logaddexp(self._log_E(self.b + uf), self._log_E(self.b - uf)) - self._lw
        return out

    def mgf(self, s: ArrayLike) -> Float:
        """Moment generating function M(s) = E[exp(s T)] (Sec III-B2).

        Raises ``OverflowError`` where M(s) exceeds the float range (|gamma s| > ~37.7); use :meth:`log_mgf`.

        M(s) = int e^{st} g(t) dt with g of eq 8, = exp(:meth:`log_mgf`); M(0) = 1, and
        M(s) = exp(gamma^2 s^2/2) at alpha = 0.  Vectorised in ``s``.

        Examples
        --------
        >>> import math
        >>> from scipy.integrate import quad
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> float(fh.mgf(0.0))
        1.0
        >>> f = lambda t: math.cosh(0.3 * t) * float(fh.pdf(t))   # E[e^{sT}] = E[cosh(sT)]
        >>> math.isclose(float(fh.mgf(0.3)), 2 * (quad(f, 0, 1)[0] + quad(f, 1, 200)[0]), rel_tol=1e-10)
        True
        >>> g = FlippedHuber(alpha=0.0, gamma=1.5)
        >>> math.isclose(float(g.mgf(0.3)), math.exp(1.5**2 * 0.3**2 / 2), rel_tol=1e-14)
        True
        """
        lm = np.asarray(self.log_mgf(s))
        if np.any(lm > _LOG_FLOAT_MAX):
            raise OverflowError("mgf(s) exceeds the float range for some s; use log_mgf(s)")
        return scalar_or_array(np.exp(lm))

    # ------------------------------------------ scipy-style hooks (closed forms: flipped_huber_moments)
    def _moment(self, n: int) -> float:
        from .flipped_huber_moments import moment
        return moment(self, n)

    def _entropy(self) -> float:
        from .flipped_huber_moments import entropy
        return entropy(self)

    def _half_mass(self, x: np.ndarray) -> np.ndarray:
        from .flipped_huber_moments import half_mass
        return half_mass(self, x)

    def _kinks(self) -> Tuple[float, ...]:
        return (self.alpha,)
