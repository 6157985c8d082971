"""The flipped Huber distribution FH(alpha, gamma^2): a scipy.stats-shaped API.

Density (paper eq 8)::

    g(t; alpha, gamma^2) = exp(-rho_alpha(t) / gamma^2) / kappa,
    rho_alpha(t) = alpha |t|            if |t| <= alpha
                 = (t^2 + alpha^2) / 2  if |t| >  alpha                      (eq 7)
    kappa = gamma * omega * exp(-alpha^2 / (2 gamma^2))                      (Definition 7)
    omega = 2 [sqrt(2 pi) Q(alpha/gamma) + (2 gamma/alpha) sinh(alpha^2/(2 gamma^2))]   (eq 9)

alpha = 0 is the Gaussian N(0, gamma^2); as alpha/gamma -> inf the density tends
to the Laplace density with scale gamma^2/alpha.

Every method evaluates a generated kernel of :mod:`fhsym._generated.flipped_huber`
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
from typing import Optional, Union

import numpy as np
from numpy.typing import ArrayLike

from .._core import domains as V
from ..privacy import profile as _pp
from .._generated import flipped_huber as K
from .._core.random import RandomState, apply_random_sign, as_generator, open_half_uniform, size_to_shape
from .base import NoiseDistribution

__all__ = ["FlippedHuber"]

_HALF_LOG_2PI = 0.5 * math.log(2.0 * math.pi)
# alpha/gamma above which omega = exp(log_omega) exceeds the float range
_LOG_FLOAT_MAX = math.log(np.finfo(float).max)

Float = Union[float, np.ndarray]


def _scalar_or_array(a: np.ndarray) -> Float:
    return a[()] if a.ndim == 0 else a


class FlippedHuber(NoiseDistribution):
    """The flipped Huber distribution FH(alpha, gamma^2) (paper, Definition 7).

    Parameters
    ----------
    alpha : float
        Transition parameter, a finite number >= 0 (0 gives the Gaussian).
    gamma : float
        Scale parameter, a finite number > 0.

    Methods follow ``scipy.stats`` conventions and are vectorised in their
    argument; the parameters are scalars.  Invalid parameters or arguments raise
    ``ValueError`` naming the parameter and its valid range.

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
    parameter_domains = (V.ALPHA, V.GAMMA)

    def __init__(self, alpha: float, gamma: float) -> None:
        self.alpha = V.check_scalar(alpha, V.ALPHA)
        self.gamma = V.check_scalar(gamma, V.GAMMA)
        b = self.alpha / self.gamma
        if not math.isfinite(b):
            raise ValueError(
                f"alpha/gamma must be finite; got alpha={self.alpha!r}, gamma={self.gamma!r} (ratio overflows)"
            )
        self.b = b
        b_arr = np.float64(b)
        self._lw = float(K.log_omega_tilde(b_arr))  # log(kappa/gamma)
        self._tail_mass = float(K.tail_mass(b_arr, self._lw))  # P(T > alpha)
        # smallest p for which Q^{-1}(p omega / sqrt(2 pi)) is evaluated directly (argument >= 1e-290)
        self._isf_direct_min = math.exp(min(-290.0 * math.log(10.0) - self.log_omega() + _HALF_LOG_2PI, 0.0))
        # standardised upper quartile: below it sf is computed as 1/2 - mass([0, s])
        self._upper_quartile = float(self._isf_std(np.array([0.25]), np.array([0.25]))[0])
        self._moments = None  # even moments m_2 .. m_20, computed on first use by log_mgf

    # ------------------------------------------------------------------ basics
    def __repr__(self) -> str:
        return f"FlippedHuber(alpha={self.alpha!r}, gamma={self.gamma!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FlippedHuber) and (self.alpha, self.gamma) == (other.alpha, other.gamma)

    def __hash__(self) -> int:
        return hash((FlippedHuber, self.alpha, self.gamma))

    def log_omega(self) -> float:
        """log omega (eq 9) = b^2/2 + log(kappa/gamma); finite for every valid alpha, gamma.

        With b = alpha/gamma, omega = 2 [sqrt(2 pi) Q(b) + (2/b) sinh(b^2/2)] (eq 9), and
        omega -> sqrt(2 pi) as b -> 0 (the Gaussian).  Computed in log space, so it stays
        finite where omega itself overflows (b > ~37.7).

        Accuracy: relative error <= 1e-12 (tested bound; measured worst 3.6e-16 against mpmath
        quadrature of the definition in ``tests/test_distribution_accuracy.py``).

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
        return self._lw + 0.5 * self.b**2

    def omega(self) -> float:
        """omega of eq 9 (>= sqrt(2 pi), Proposition 1).

        omega = 2 [sqrt(2 pi) Q(alpha/gamma) + (2 gamma/alpha) sinh(alpha^2/(2 gamma^2))] (eq 9),
        evaluated as exp(:meth:`log_omega`); sqrt(2 pi) at alpha = 0.

        Raises ``OverflowError`` when omega exceeds the float range (alpha/gamma > ~37.7);
        use :meth:`log_omega` there.

        Accuracy: relative error <= 1e-12 (tested bound; measured worst 3.7e-14 against mpmath
        quadrature of the definition in ``tests/test_distribution_accuracy.py``).

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

        Accuracy: relative error <= 1e-12 (tested bound; measured worst 7.7e-16 against mpmath
        quadrature of the definition in ``tests/test_distribution_accuracy.py``).

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

        Accuracy: relative error <= 1e-12 (tested bound; measured worst 3.5e-16 against mpmath
        quadrature of the definition in ``tests/test_distribution_accuracy.py``).

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

        Accuracy: relative error <= 1e-12 (tested bound; measured worst 2.0e-14 against live
        mpmath quadrature of P(T > alpha) in ``tests/test_distribution_accuracy.py``).

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

    # ----------------------------------------------------------------- density
    def _std(self, x: ArrayLike) -> np.ndarray:
        x = V.check_array(x, V.Domain("x", closed_lower=True, closed_upper=True, allow_inf=True))
        with np.errstate(over="ignore"):
            return x / self.gamma

    def logpdf(self, x: ArrayLike) -> Float:
        """log g(x) (eq 8): -alpha|x|/gamma^2 - log kappa in the centre, -(x^2+alpha^2)/(2gamma^2) - log kappa beyond.

        That is -rho_alpha(x)/gamma^2 - log kappa, with the flipped Huber loss rho_alpha
        (Definition 6, eq 7) and kappa of Definition 7 (eq 9 for omega).  Finite for every
        finite x (no underflow in the far tails); vectorised in ``x``.

        Accuracy: relative error measured worst 3.4e-14 (pdf and logpdf) against mpmath
        quadrature of the definition over the reference sweep of
        ``tests/test_distribution_accuracy.py`` (tested bound 1e-12).

        Examples
        --------
        >>> from scipy.stats import norm
        >>> g = FlippedHuber(alpha=0.0, gamma=1.5)          # alpha = 0: N(0, 1.5^2)
        >>> round(float(g.logpdf(0.7)), 12)
        -1.433292530202
        >>> round(float(norm.logpdf(0.7, scale=1.5)), 12)
        -1.433292530202
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> f"{float(fh.logpdf(1e4)):.10g}"                 # pdf underflows, logpdf does not
        '-12500001.63'
        """
        s = np.abs(self._std(x))
        b = self.b
        out = np.empty_like(s)
        centre = s <= b
        out[centre] = K.logpdf_center(b, s[centre], self._lw)
        with np.errstate(over="ignore"):
            out[~centre] = K.logpdf_tail(b, s[~centre], self._lw)
        out -= math.log(self.gamma)
        return _scalar_or_array(out)

    def pdf(self, x: ArrayLike) -> Float:
        """Density g(x) (eq 8).

        g(x) = exp(-rho_alpha(x)/gamma^2)/kappa with rho_alpha of Definition 6 (eq 7) and
        kappa of Definition 7 (eq 9); computed as exp(:meth:`logpdf`).  Vectorised in ``x``.

        Accuracy: relative error measured worst 3.4e-14 against mpmath quadrature of the
        definition over the reference sweep of ``tests/test_distribution_accuracy.py``
        (tested bound 1e-12).

        Examples
        --------
        >>> import math
        >>> from scipy.integrate import quad
        >>> from scipy.stats import norm
        >>> round(float(FlippedHuber(alpha=0.0, gamma=1.5).pdf(0.7)), 12)   # alpha = 0: N(0, 1.5^2)
        0.238522286112
        >>> round(float(norm.pdf(0.7, scale=1.5)), 12)
        0.238522286112
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> np.round(fh.pdf([-1.0, 0.0, 1.0]), 6)                         # symmetric, mode at 0
        array([0.17308, 0.22224, 0.17308])
        >>> f = lambda t: float(fh.pdf(t))
        >>> math.isclose(2 * (quad(f, 0, 1)[0] + quad(f, 1, math.inf)[0]), 1.0, rel_tol=1e-10)
        True
        """
        return _scalar_or_array(np.exp(np.asarray(self.logpdf(x))))

    # ---------------------------------------------------------- distribution
    def _sf_std_nonneg(self, s: np.ndarray) -> np.ndarray:
        """P(S > s) for s >= 0 (eq 10): 1/2 minus the mass of [0, s] up to the upper quartile
        (exactly 1/2 at s = 0, so the CDF is monotone through the median), beyond it a sum
        of positive terms (accurate in relative terms far into the tail)."""
        b, lw = self.b, self._lw
        out = np.empty_like(s)
        near = s <= self._upper_quartile
        centre = s <= b
        m = near & centre
        out[m] = K.sf_center_near_median(b, s[m], lw)
        m = near & ~centre
        out[m] = K.sf_tail_near_median(b, s[m], lw)
        m = ~near & centre
        out[m] = K.sf_center(b, s[m], lw)
        m = ~near & ~centre
        out[m] = K.sf_tail(b, s[m], lw)
        return out

    def _logsf_std_nonneg(self, s: np.ndarray) -> np.ndarray:
        out = np.empty_like(s)
        near = s <= self._upper_quartile
        out[near] = np.log(self._sf_std_nonneg(s[near]))
        far = ~near
        centre = s <= self.b
        m = far & centre
        out[m] = K.logsf_center(self.b, s[m], self._lw)
        m = far & ~centre
        with np.errstate(over="ignore"):
            out[m] = K.logsf_tail(self.b, s[m], self._lw)
        return out

    def sf(self, x: ArrayLike) -> Float:
        """Survival function P(T > x) (1 - eq 10); accurate in relative terms far into the right tail.

        For x >= 0 (standard units s = x/gamma, b = alpha/gamma) it is 1/2 minus the mass of
        [0, s] near the median and a sum of positive terms beyond (the Gaussian tail
        sqrt(2 pi)/omega * Q(s) for s > b, eq 10); for x < 0, 1 - sf(-x).
        Vectorised in ``x``.

        Accuracy: relative error measured worst 4.7e-14 against mpmath quadrature of the
        definition over the reference sweep of ``tests/test_distribution_accuracy.py``
        (tested bound 1e-12), including the far tails and x = +-alpha.

        Examples
        --------
        >>> from scipy.stats import norm
        >>> g = FlippedHuber(alpha=0.0, gamma=1.5)          # alpha = 0: N(0, 1.5^2)
        >>> f"{float(g.sf(30.0)):.10g}"                    # 20 sigma: no cancellation
        '2.753624119e-89'
        >>> f"{float(norm.sf(30.0, scale=1.5)):.10g}"
        '2.753624119e-89'
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> bool(fh.sf(0.7) == fh.cdf(-0.7))               # symmetry
        True
        """
        s = self._std(x)
        pos = s >= 0
        out = np.empty_like(s)
        out[pos] = self._sf_std_nonneg(s[pos])
        out[~pos] = 1.0 - self._sf_std_nonneg(-s[~pos])
        return _scalar_or_array(out)

    def cdf(self, x: ArrayLike) -> Float:
        """CDF P(T <= x) (eq 10) = sf(-x) by symmetry.

        Piecewise (eq 10): the Laplace-like centre |x| <= alpha and the Gaussian tails
        |x| > alpha, in which P(T <= x) = sqrt(2 pi)/omega * Q(-x/gamma) for x < -alpha.
        Exactly 1/2 at x = 0.  Vectorised in ``x``.

        Accuracy: relative error measured worst 4.7e-14 against mpmath quadrature of the
        definition over the reference sweep of ``tests/test_distribution_accuracy.py``
        (tested bound 1e-12), including the far tails and x = +-alpha.

        Examples
        --------
        >>> from scipy.stats import norm
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> float(fh.cdf(0.0))
        0.5
        >>> np.round(fh.cdf([-3.0, 0.0, 3.0]), 6)
        array([0.065687, 0.5     , 0.934313])
        >>> round(float(FlippedHuber(alpha=0.0, gamma=1.5).cdf(0.7)), 12)   # alpha = 0: N(0, 1.5^2)
        0.679630809099
        >>> round(float(norm.cdf(0.7, scale=1.5)), 12)
        0.679630809099
        """
        return self.sf(-np.asarray(x, dtype=float))

    def logsf(self, x: ArrayLike) -> Float:
        """log P(T > x), finite for every finite x.

        log of 1 - eq 10; in the right tail computed in log space (log Q via ``log_ndtr``),
        so it stays finite where :meth:`sf` underflows.  Vectorised in ``x``.

        Accuracy: relative error measured worst 4.7e-14 against mpmath quadrature of the
        definition over the reference sweep of ``tests/test_distribution_accuracy.py``
        (tested bound 1e-12).

        Examples
        --------
        >>> import math
        >>> from scipy.stats import norm
        >>> g = FlippedHuber(alpha=0.0, gamma=1.5)          # alpha = 0: N(0, 1.5^2)
        >>> round(float(g.logsf(300.0)), 8)                # sf underflows to 0 here
        -20006.2172809
        >>> round(float(norm.logsf(300.0, scale=1.5)), 8)
        -20006.2172809
        >>> math.isclose(float(FlippedHuber(alpha=1.0, gamma=2.0).logsf(0.0)), math.log(0.5), rel_tol=1e-15)
        True
        """
        s = self._std(x)
        pos = s >= 0
        out = np.empty_like(s)
        out[pos] = self._logsf_std_nonneg(s[pos])
        out[~pos] = np.log1p(-self._sf_std_nonneg(-s[~pos]))
        return _scalar_or_array(out)

    def logcdf(self, x: ArrayLike) -> Float:
        """log P(T <= x) = logsf(-x).

        log of eq 10, finite for every finite x (far left tail in log space).  Vectorised
        in ``x``.

        Accuracy: relative error measured worst 4.7e-14 against mpmath quadrature of the
        definition over the reference sweep of ``tests/test_distribution_accuracy.py``
        (tested bound 1e-12).

        Examples
        --------
        >>> import math
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> math.isclose(float(fh.logcdf(1.5)), math.log(float(fh.cdf(1.5))), rel_tol=1e-14)
        True
        >>> round(float(FlippedHuber(alpha=0.0, gamma=1.5).logcdf(-300.0)), 8)   # = norm.logcdf(-300, scale=1.5)
        -20006.2172809
        """
        return self.logsf(-np.asarray(x, dtype=float))

    # --------------------------------------------------------------- quantile
    def _isf_std(self, p: np.ndarray, h: np.ndarray) -> np.ndarray:
        """s with P(S > s) = p for p in (0, 1/2]; h = 1/2 - p (exact where p >= 1/4).

        The quantile of the paper's missing Appendix B, derived by inverting eq 10
        piece by piece (see fhsym.symbolic.definitions.ppf_center / ppf_tail_upper).
        """
        b, lw = self.b, self._lw
        out = np.empty_like(p)
        tail = p <= self._tail_mass
        near = p >= 0.25
        m = tail & ~near
        if m.any():
            pm = p[m]
            # p * omega / sqrt(2 pi) is a normal float above this p: use ndtri directly
            direct = pm >= self._isf_direct_min
            res = np.empty_like(pm)
            res[direct] = K.isf_tail_direct(b, pm[direct], lw)
            res[~direct] = K.isf_tail(b, np.log(pm[~direct]), lw)
            out[m] = res
        m = tail & near
        if m.any():
            out[m] = K.isf_tail_near_half(b, h[m], lw)
        m = ~tail & ~near
        if m.any():
            out[m] = K.isf_center(b, p[m], lw)
        m = ~tail & near
        if m.any():
            hm = h[m]
            val = np.zeros_like(hm)
            nz = hm > 0
            val[nz] = K.isf_center_near_half(b, hm[nz], lw)
            out[m] = val
        return out

    def _quantile_std(self, q: np.ndarray, upper: bool) -> np.ndarray:
        """Standardised isf (upper=True) or ppf (upper=False) of probabilities q in [0, 1]."""
        out = np.empty_like(q)
        low = q <= 0.5  # p = q in (0, 1/2]: the far side is computed from q itself
        hi = ~low
        # q <= 1/2: isf(q) = +s(q); ppf(q) = -s(q)
        ql = q[low]
        res = np.full_like(ql, np.inf)
        pos = ql > 0
        res[pos] = self._isf_std(ql[pos], 0.5 - ql[pos])
        out[low] = res if upper else -res
        # q > 1/2: p = 1 - q and h = q - 1/2 are exact in floating point
        qh = q[hi]
        res = np.full_like(qh, np.inf)
        pos = qh < 1
        res[pos] = self._isf_std(1.0 - qh[pos], qh[pos] - 0.5)
        out[hi] = -res if upper else res
        return out

    def ppf(self, q: ArrayLike) -> Float:
        """Quantile function (inverse CDF; Appendix B, derived): the x with P(T <= x) = q.

        eq 10 inverted piece by piece (the paper's Appendix B is missing; the inverse is
        derived in :mod:`fhsym.symbolic.definitions`).  For q >= 1/2:
        x = -(gamma^2/alpha) log(1 - (alpha omega/gamma) e^{-alpha^2/(2 gamma^2)} (q - 1/2)) on the
        centre (q <= 1 - P(T > alpha)), x = gamma Q^{-1}((1 - q) omega/sqrt(2 pi)) on the tail;
        ppf(q) = -ppf(1 - q) below.  ppf(0) = -inf, ppf(1) = +inf.  Vectorised in ``q`` in [0, 1].

        Accuracy: relative error measured worst 1.2e-15 against mpmath quadrature of the
        definition over the reference sweep of ``tests/test_distribution_accuracy.py``
        (tested bound 1e-12; q from 1e-300 to 1 - 1e-12).

        Examples
        --------
        >>> from scipy.stats import norm
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> round(float(fh.ppf(fh.cdf(0.7))), 12)          # ppf(cdf(x)) = x
        0.7
        >>> fh.ppf([0.0, 0.5, 1.0])                         # the median is +0.0, not -0.0
        array([-inf,   0.,  inf])
        >>> round(float(FlippedHuber(alpha=0.0, gamma=1.5).ppf(0.975)), 12)   # alpha = 0: N(0, 1.5^2)
        2.93994597681
        >>> round(float(norm.ppf(0.975, scale=1.5)), 12)
        2.93994597681
        """
        qa = V.check_array(q, V.PROBABILITY)
        return _scalar_or_array(self.gamma * self._quantile_std(qa, upper=False) + 0.0)  # + 0.0: no -0.0

    def isf(self, q: ArrayLike) -> Float:
        """Inverse survival function: the x with P(T > x) = q; isf(q) = -ppf(q).

        The inverse of 1 - eq 10 (Appendix B, derived; see :meth:`ppf`).  For q <= 1/2
        computed from q directly (not from 1 - q), so it is accurate for q down to the
        smallest floats.
        Vectorised in ``q`` in [0, 1].

        Accuracy: relative error measured worst 1.2e-15 against mpmath quadrature of the
        definition over the reference sweep of ``tests/test_distribution_accuracy.py``
        (tested bound 1e-12).

        Examples
        --------
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> round(float(fh.isf(0.25)), 12)
        1.322261268292
        >>> round(float(-fh.ppf(0.25)), 12)
        1.322261268292
        >>> x = fh.isf(1e-300)                              # far tail
        >>> f"{float(x):.10g}", f"{float(fh.sf(x)):.6g}"
        ('74.09328019', '1e-300')
        """
        qa = V.check_array(q, V.PROBABILITY)
        return _scalar_or_array(self.gamma * self._quantile_std(qa, upper=True))

    # ---------------------------------------------------------------- sampling
    def rvs(self, size=None, random_state: RandomState = None) -> Float:
        """Draw samples by inversion of the CDF (Smirnov transform, Sec III-C).

        64 random bits per sample: 63 give p in (0, 1/2) on a grid of step 2^-64
        (see :func:`fhsym._random.open_half_uniform`), one gives the sign; the
        sample is +-gamma * isf_std(p).  Never returns +-inf.  For speed, each
        piece of the quantile is evaluated by one formula over its whole range,
        so a sample agrees with ``isf(p)`` to a few ulp of gamma (absolute) near
        the median and to a few ulp (relative) elsewhere.  Like every
        floating-point sampler it is not hardened against floating-point side
        channels (Mironov 2012).

        ``size=None`` returns one sample (a numpy float64), otherwise an array of that
        shape; ``random_state`` is None, an int seed, a numpy ``Generator`` or
        ``RandomState`` (scipy conventions).  Distribution of the samples: eq 8, tested by
        Kolmogorov-Smirnov against :meth:`cdf` (``tests/test_sampling.py``).

        Examples
        --------
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> x = fh.rvs(size=(2, 3), random_state=0)
        >>> x.shape, x.dtype
        ((2, 3), dtype('float64'))
        >>> bool(np.array_equal(x, fh.rvs(size=(2, 3), random_state=0)))   # reproducible
        True
        >>> y = fh.rvs(size=100_000, random_state=1)
        >>> bool(abs(y.var() / fh.var() - 1) < 0.02)                         # eq 11
        True
        """
        shape = size_to_shape(size)
        rng = as_generator(random_state)
        n = int(np.prod(shape)) if shape else 1
        p, raw = open_half_uniform(rng, n)
        s = self._sample_std(p)
        s *= self.gamma
        apply_random_sign(s, raw)
        return s.reshape(shape) if shape else s[0]

    def _sample_std(self, p: np.ndarray) -> np.ndarray:
        """isf_std(p) for p in [2^-65, 1/2): one kernel over the majority piece, the other on the rest."""
        b, lw = self.b, self._lw
        if self._tail_mass < 2.0**-65:  # the Gaussian tails are out of reach of the uniform grid
            return K.isf_center(b, p, lw)
        if b == 0.0:
            return K.isf_tail_direct(b, p, lw)
        tail = p <= self._tail_mass
        frac = np.count_nonzero(tail) / max(p.size, 1)
        if 0.15 <= frac <= 0.85:
            # both pieces common: evaluating both kernels everywhere and merging with one masked
            # copy is cheaper than gathering and scattering either one (p is clipped into the
            # tail piece's range so the discarded values stay finite)
            out = K.isf_center(b, p, lw)  # positive argument of the log everywhere: no warnings
            np.copyto(out, K.isf_tail_direct(b, np.minimum(p, self._tail_mass), lw), where=tail)
        elif frac < 0.15:
            out = K.isf_center(b, p, lw)
            out[tail] = K.isf_tail_direct(b, p[tail], lw)
        else:
            centre = ~tail
            out = K.isf_tail_direct(b, np.minimum(p, self._tail_mass), lw)
            out[centre] = K.isf_center(b, p[centre], lw)
        return out

    # ------------------------------------------------------------------ moments
    def mean(self) -> float:
        """E[T] = 0 (the density is symmetric).

        g(t) = g(-t) (eq 8), and T has moments of every order (Gaussian tails), so E[T] = 0
        exactly; returned as the float 0.0.

        Accuracy: exact.

        Examples
        --------
        >>> FlippedHuber(alpha=1.0, gamma=2.0).mean()
        0.0
        """
        return 0.0

    def median(self) -> float:
        """The median, 0 (the density of eq 8 is symmetric and positive everywhere).

        cdf(0) = 1/2 exactly (eq 10).  Accuracy: exact.

        Examples
        --------
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> fh.median(), float(fh.cdf(fh.median()))
        (0.0, 0.5)
        """
        return 0.0

    def var(self) -> float:
        """Variance (eq 11), computed as a sum of positive terms; <= gamma^2.

        Var(T) = int t^2 g(t) dt (eq 11, with g of eq 8; the paper's Appendix A is missing,
        the closed form is derived); gamma^2 at alpha = 0, and it tends to 2 gamma^4/alpha^2
        (the Laplace variance) as alpha/gamma -> inf.

        Accuracy: relative error measured <= 1.6e-15 against mpmath quadrature of the
        definition in ``tests/test_distribution_accuracy.py`` (tested bound 1e-12).

        Examples
        --------
        >>> import math
        >>> from scipy.integrate import quad
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> round(fh.var(), 10)
        3.9345225254
        >>> f = lambda t: t * t * float(fh.pdf(t))
        >>> math.isclose(fh.var(), 2 * (quad(f, 0, 1)[0] + quad(f, 1, math.inf)[0]), rel_tol=1e-10)
        True
        >>> fh.var() <= fh.gamma**2                        # Sec III-B1
        True
        >>> FlippedHuber(alpha=0.0, gamma=1.5).var()       # alpha = 0: N(0, 1.5^2)
        2.25
        """
        return self._representable(self.gamma * (self.gamma * float(K.variance_std(np.float64(self.b), self._lw))),
                                   "variance")

    def std(self) -> float:
        """Standard deviation sqrt(Var(T)), the square root of eq 11 (see :meth:`var`).

        Accuracy: relative error measured <= 1.6e-15 against mpmath quadrature of the
        definition in ``tests/test_distribution_accuracy.py`` (tested bound 1e-12).

        Examples
        --------
        >>> import math
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> round(fh.std(), 12)
        1.983563088328
        >>> math.isclose(fh.std() ** 2, fh.var(), rel_tol=1e-15)
        True
        >>> FlippedHuber(alpha=0.0, gamma=1.5).std()
        1.5
        """
        return math.sqrt(self.var())

    def fisher_information(self) -> float:
        """Fisher information of the location model (eq 12); >= 1/gamma^2.

        I(T) = int (d/dt log g(t))^2 g(t) dt = E[psi'(T)^2] with psi'(t) = rho_alpha'(t)/gamma^2
        (alpha sign(t)/gamma^2 in the centre, t/gamma^2 in the tails; eq 7, 8, 12; the
        paper's Appendix A is missing, the closed form is derived).  1/gamma^2 at alpha = 0.

        Accuracy: relative error measured <= 1.6e-15 against mpmath quadrature of the
        definition in ``tests/test_distribution_accuracy.py`` (tested bound 1e-12).

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
        return self._representable(float(K.fisher_std(np.float64(self.b), self._lw)) / self.gamma / self.gamma,
                                   "Fisher information")

    def nfi(self) -> float:
        """Normalised Fisher information Var(T) * I(T) (Sec II-D, Fig 2); in [1, 2].

        The product of eq 11 and eq 12 (scale free: a function of alpha/gamma only); 1 for
        the Gaussian (alpha = 0, the minimum) and -> 2 in the Laplace limit.

        Accuracy: relative error measured <= 1.6e-15 against mpmath quadrature of the
        definition in ``tests/test_distribution_accuracy.py`` (tested bound 1e-12).

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
        b = np.float64(self.b)
        return float(K.variance_std(b, self._lw)) * float(K.fisher_std(b, self._lw))

    def _log_E(self, m: np.ndarray) -> np.ndarray:
        out = np.empty_like(m)
        pos = m >= 0
        out[pos] = K.log_mgf_half_pos(self.b, m[pos])
        with np.errstate(divide="ignore"):  # b = 0: log(b * exprel(b m)) = -inf is exact
            out[~pos] = K.log_mgf_half_neg(self.b, m[~pos])
        return out

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

        Accuracy: relative error <= 1e-12 (target, tested against mpmath quadrature of the
        definition in ``tests/test_distribution_accuracy.py``).

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
        return _scalar_or_array(out)

    def mgf(self, s: ArrayLike) -> Float:
        """Moment generating function M(s) = E[exp(s T)] (Sec III-B2).

        Raises ``OverflowError`` where M(s) exceeds the float range (|gamma s| > ~37.7); use :meth:`log_mgf`.

        M(s) = int e^{st} g(t) dt with g of eq 8, = exp(:meth:`log_mgf`); M(0) = 1, and
        M(s) = exp(gamma^2 s^2/2) at alpha = 0.  Vectorised in ``s``.

        Accuracy: relative error measured worst 3.6e-14 against mpmath quadrature of the
        definition in ``tests/test_distribution_accuracy.py`` (tested bound 1e-12).

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
        return _scalar_or_array(np.exp(lm))

    def support(self):
        """The support (-inf, inf): g(t) > 0 for every real t (eq 8).  Exact.

        Examples
        --------
        >>> FlippedHuber(alpha=1.0, gamma=2.0).support()
        (-inf, inf)
        """
        return (-math.inf, math.inf)

    # ----------------------------------------------------------------- privacy
    def privacy_loss(self, t: ArrayLike, d: ArrayLike) -> Float:
        """zeta_d(t) = psi(t + d) - psi(t) (Sec II-C1); see :func:`fhsym.privacy_loss`.

        psi = -log g, so zeta_d(t) = log g(t)/g(t + d) = (rho_alpha(t + d) - rho_alpha(t))/gamma^2
        (eq 7; log kappa cancels).  Its centred form and that form's partial inverse (eq 15)
        give the crossing points of Theorem 3's condition (eq 14, 16).  Vectorised in ``t``
        and ``d``.

        Accuracy: target 1e-12 relative (tested against the definition in mpmath,
        ``tests/test_privacy_profile.py``).

        Examples
        --------
        >>> import math
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> float(fh.privacy_loss(0.5, 1.0))               # (rho(1.5) - rho(0.5))/4 = (1.625 - 0.5)/4
        0.28125
        >>> math.isclose(float(fh.privacy_loss(0.5, 1.0)), float(fh.logpdf(0.5) - fh.logpdf(1.5)), rel_tol=1e-14)
        True
        """
        return _pp.privacy_loss(t, d, self.alpha, self.gamma)

    def centered_privacy_loss(self, t: ArrayLike, d: ArrayLike) -> Float:
        """zeta~_d(t) = psi(t + d/2) - psi(t - d/2) (Sec II-C1); see :func:`fhsym.centered_privacy_loss`.

        = zeta_d(t - d/2) = (rho_alpha(t + d/2) - rho_alpha(t - d/2))/gamma^2 (eq 7); odd in t.
        eq 15 is its partial inverse zeta~_Delta^{-1}, which gives the crossing points t1,2 of
        Theorem 3's condition (eq 14, 16).
        Vectorised in ``t`` and ``d``.

        Accuracy: target 1e-12 relative (tested against the definition in mpmath,
        ``tests/test_privacy_profile.py``).

        Examples
        --------
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> t = np.array([-3.0, -0.5, 0.2, 3.0])
        >>> fh.centered_privacy_loss(t, 1.0)
        array([-0.75, -0.25,  0.1 ,  0.75])
        >>> bool(np.allclose(fh.centered_privacy_loss(-t, 1.0), -fh.centered_privacy_loss(t, 1.0), rtol=1e-14, atol=0))
        True
        >>> float(fh.centered_privacy_loss(0.2, 1.0)) == float(fh.privacy_loss(0.2 - 0.5, 1.0))
        True
        """
        return _pp.centered_privacy_loss(t, d, self.alpha, self.gamma)

    def privacy_profile(self, epsilon: ArrayLike, sensitivity: float = 1.0) -> Float:
        """Exact 1-D privacy profile delta^(1)(eps) of the mechanism adding this noise (Theorem 3, eq 13).

        delta^(1)(eps) = int [g(t) - e^eps g(t + Delta)]_+ dt (eq 16), in the closed form of
        eq 13 (five cases, Table I); the mechanism is (eps, delta)-DP iff delta >= delta^(1)(eps).
        ``sensitivity`` is Delta.  See :func:`fhsym.privacy_profile`.

        Accuracy: relative error measured worst 1.1e-13 (delta >= 1e-300) against mpmath
        quadrature of the integral in ``tests/test_privacy_profile.py`` (tested bound 1e-10;
        calibrations use the margin ``PROFILE_RTOL``).

        Examples
        --------
        >>> import math
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> [f"{d:.6g}" for d in fh.privacy_profile([0.0, 0.5, 1.0, 2.0])]   # decreasing in eps
        ['0.208911', '0.0515608', '0.00671506', '9.28086e-06']
        >>> tv = float(fh.cdf(0.5) - fh.cdf(-0.5))                      # eps = 0: total variation
        >>> math.isclose(float(fh.privacy_profile(0.0)), tv, rel_tol=1e-13)
        True
        """
        return _pp.privacy_profile(epsilon, self.alpha, self.gamma, sensitivity)

    def log_privacy_profile(self, epsilon: ArrayLike, sensitivity: float = 1.0) -> Float:
        """log delta^(1)(eps), finite where delta underflows.

        The log of eq 13 (Theorem 3), cases (iii)-(v) evaluated in log space; -inf only
        where delta = 0 exactly.  See :func:`fhsym.log_privacy_profile`.

        Accuracy: as :meth:`privacy_profile` (measured worst 1.1e-13 relative on delta)
        where delta >= 1e-300; below, measured worst 3.9e-16 relative on log delta
        (``tests/test_privacy_profile.py``).

        Examples
        --------
        >>> import math
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> math.isclose(float(fh.log_privacy_profile(1.0)), math.log(float(fh.privacy_profile(1.0))), rel_tol=1e-14)
        True
        >>> float(fh.privacy_profile(2000.0))                            # underflows
        0.0
        >>> f"{float(fh.log_privacy_profile(2000.0)):.10g}"
        '-7999018.248'
        """
        return _pp.log_privacy_profile(epsilon, self.alpha, self.gamma, sensitivity)

    def zcdp(self, sensitivity: Optional[float] = None, dim: int = 1, l2_sensitivity=None, l1_sensitivity=None, refine: bool = False):
        """zCDP parameters (xi, eta) of the mechanism (talk slides, Sec VI-A).

        1-D: (R_Delta(alpha)/(2 gamma^2), Delta^2/(2 gamma^2)) with R_Delta(alpha) = alpha^2 - [alpha - Delta]_+^2;
        K-dim: (K R_Delta(alpha)/(2 gamma^2), Delta_2^2/(2 gamma^2)).  See :func:`fhsym.kdim.zcdp.zcdp`.
        A few roundings (R_Delta is evaluated as Delta (2 alpha - Delta), without cancellation).

        Examples
        --------
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> fh.zcdp()                                   # R_1(1) = 1: (1/8, 1/8)
        (0.125, 0.125)
        >>> fh.zcdp(dim=4, l2_sensitivity=2.0)          # (4 * 1/8, 2^2/8)
        (0.5, 0.5)
        """
        from ..accounting.zcdp import zcdp

        return zcdp(self, sensitivity, dim, l2_sensitivity, l1_sensitivity, refine)

    def epsilon_for_delta(self, delta: ArrayLike, sensitivity: float = 1.0) -> Float:
        """Smallest eps with delta^(1)(eps) <= delta (certified, never under-reported).

        Inverts eq 13 (Theorem 3) in eps by a root search on :meth:`log_privacy_profile`,
        then steps to the side where privacy_profile(eps) * (1 + PROFILE_RTOL) <= delta.
        See :func:`fhsym.epsilon_for_delta`.

        Accuracy: the returned eps exceeds the exact root of
        privacy_profile(eps) = delta/(1 + PROFILE_RTOL) by at most ~1e-12 relative (the
        profile's measured error is 1.1e-13 relative, below the margin ``PROFILE_RTOL``).

        Examples
        --------
        >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
        >>> eps = fh.epsilon_for_delta(1e-6)
        >>> round(float(eps), 8)
        2.25226642
        >>> bool(fh.privacy_profile(eps) <= 1e-6 < fh.privacy_profile(eps * (1 - 1e-9)))
        True
        """
        return _pp.epsilon_for_delta(delta, self.alpha, self.gamma, sensitivity)
