"""Truncated Laplace mechanism (Geng, Ding, Guo, Kumar, AISTATS 2020).

Formula
-------
Density ``g(t) = B exp(-|t|/lambda)`` on ``[-A, A]`` (0 outside) with
``B = 1 / (2 lambda (1 - exp(-A/lambda)))``.  Geng et al. ("Tight analysis of
privacy and utility tradeoff in approximate differential privacy", AISTATS
2020, Definition 3 / Theorem 7) calibrate ``lambda = Delta/eps`` and
``A = lambda log(1 + (e^eps - 1)/(2 delta))``; this is the optimal
one-dimensional ``(eps, delta)`` noise in the high-privacy regime and the
variance ``lambda^2 (2 - e^{-a}(a^2 + 2a + 2)) / (1 - e^{-a})`` (``a = A/lambda``)
is the paper's "truncated Laplace" curve of Fig. 2(a) (22.21 at eps = 0.3,
delta = 1e-6, Delta = 1).

Exact one-dimensional profile (derived here from the definition for general
``lambda, A`` and query sensitivity ``Delta``; ``s = Delta/lambda``,
``t0 = (eps lambda - Delta)/2``, ``u = min(0, A - Delta)``)::

    delta(eps) = P(T > A - Delta)                                          [infinite loss]
               + B lambda e^{u/lambda} (1 - e^{-(u - t0)/lambda})^2        [t0 < t < u, if eps < s]
               + B lambda (1 - e^{-(A-Delta)/lambda}) (1 - e^{eps - s})     [0 < t < A - Delta, if eps < s]

Generated numerics: ``logpdf``, ``sf``, ``logsf``, ``isf`` and the variance are the functions
``python -m fhsym.codegen`` prints from the law's declaration (``fhsym/symbolic/laws/truncated_laplace.py``: units
of A, shape ``a = A/lambda``, bounded support) into ``fhsym/_generated/declared/truncated_laplace.py``.  The profile,
the moments, the entropy and ``P(0 < T <= x)`` stay hand-written, each with a proof row
(``python -m proofs --only shipped_truncated_laplace``) that it equals the form derived from the declaration.

Every term of the profile is a product of positive factors evaluated with ``expm1``;
``eps - s`` is formed in double-double.  For the calibrated mechanism
(``s <= eps``) only the first term survives and equals ``delta`` exactly.
Measured worst relative error 2.8e-15 against mpmath quadrature of the
definition (300 random cases, see docs/mechanisms.md).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Optional, Tuple

import numpy as np
from flint import fmpq

from scipy import special as sc

from .._core.random import Rng
from .._core.types import FloatArray, Real
from .._core.arb import Plan
from .._core.domains import Domain, check_scalar
from .._core.doubledouble import exact_quotient, sym_sign_min
from .._core.numerics import log1mexp
from .._core.scalar import SCALAR
from .._generated.declared import truncated_laplace as generated
from .base import NoiseDistribution
from .plans.truncated_laplace import truncated_laplace_plan

__all__ = ["TruncatedLaplace", "tl_profile"]

SCALE = Domain("scale", 0.0, math.inf, typical=(0.5, 3.0))
BOUND = Domain("bound", 0.0, math.inf, typical=(1.0, 10.0))


def _infinite_loss_mass(d: float, lam: float, bound: float) -> Tuple[float, float, float]:
    """(norm, x, P(T > x)) with norm = 1 - e^{-A/lambda} and x = A - d (< 2A): the mass of the infinite loss."""
    norm = -math.expm1(-bound / lam)
    x = bound - d  # may be negative
    if x >= 0:
        return norm, x, 0.5 * math.exp(-x / lam) * -math.expm1(-d / lam) / norm
    return norm, x, 0.5 + 0.5 * -math.expm1(x / lam) / norm


def tl_unit_profile(eps: float, a: float, u: float) -> float:
    """The profile of lambda = 1, A = a at sensitivity u for one point of floats (no checks; the calibrator's search):
    :func:`tl_profile`'s three terms, with s = u exact."""
    if u >= 2.0 * a:
        return 1.0
    norm, x, term1 = _infinite_loss_mass(u, 1.0, a)
    diff = eps - u
    if not diff < 0.0:
        return term1
    w = min(0.0, x) - 0.5 * diff
    mid = math.exp(min(0.0, x)) * math.expm1(-w) ** 2 * (0.5 / norm) if w > 0 else 0.0
    last = 0.5 * -math.expm1(-x) * -math.expm1(diff) / norm if x > 0 else 0.0
    return term1 + mid + last


def tl_profile(eps: FloatArray, d: float, lam: float, bound: float) -> FloatArray:
    eps = np.asarray(eps, dtype=float)
    if d >= 2.0 * bound:
        return np.ones(eps.shape)
    norm, x, term1 = _infinite_loss_mass(d, lam, bound)
    out = np.full(eps.shape, term1)
    s_hi, s_lo = exact_quotient(d, lam)
    diff = (eps - s_hi) - s_lo  # eps - s, double-double accurate
    act = diff < 0.0
    if np.any(act):
        dfa = diff[act]
        t0l = 0.5 * dfa  # t0 / lam  (in [-s/2, 0))
        ul = min(0.0, x / lam)  # u / lam
        w = ul - t0l
        # e^{t0} 4 sinh^2(w/2) = e^{u} (1 - e^{-w})^2  (u = t0 + w <= 0: no overflow)
        mid = np.where(w > 0, math.exp(ul) * np.expm1(-w) ** 2, 0.0) * (0.5 / norm)
        last: Real = 0.0
        if x > 0:
            last = 0.5 * -math.expm1(-x / lam) * -np.expm1(dfa) / norm
        out[act] = term1 + mid + last
    return out


class TruncatedLaplace(NoiseDistribution):
    """Laplace noise of scale ``lambda`` truncated to ``[-A, A]``.

    Parameters
    ----------
    scale : float in (0, inf)
        ``lambda``.
    bound : float in (0, inf)
        Truncation half-width ``A``.

    Formulas
    --------
    * ``pdf(t) = exp(-|t|/lambda) / (2 lambda (1 - e^{-A/lambda}))`` on ``[-A, A]``.
    * ``variance = lambda^2 (2 - e^{-a}(a^2+2a+2)) / (1 - e^{-a})``, ``a = A/lambda``,
      evaluated as the derived ``A^2 L_2(a)/exprel(-a)``, ``L_2(a) = int_0^1 u^2 e^{-a u} du``
      (no cancellation as ``a -> 0``, where it tends to ``A^2/3``, no overflow at large ``a``).
    * ``privacy_profile``: see the module docstring (exact, all terms positive).
    * ``moment(n) = lambda^n n! P(n + 1, a) / (1 - e^{-a})`` (n even; P the regularised lower
      incomplete gamma), evaluated as ``A^n S/((n + 1) exprel(a))`` with the positive series
      ``S = sum_k a^k / ((n + 2) ... (n + 1 + k))`` for ``a <= n + 30`` (-> ``A^n/(n + 1)``,
      the uniform law, as ``a -> 0``); ``entropy = log(2 lambda (1 - e^{-a})) + E|T|/lambda``.
    * ``centered_privacy_loss(t, d) = (|t+d/2| - |t-d/2|)/lambda`` when both
      ``t +- d/2`` lie in ``[-A, A]``; ``+inf`` if only ``t - d/2`` does,
      ``-inf`` if only ``t + d/2`` does, and ``0`` (the ``log(0/0) := 0``
      convention; such ``t`` have probability 0 under both hypotheses) if
      neither does.

    Examples
    --------
    >>> tl = TruncatedLaplace(scale=1.0, bound=5.0)
    >>> tl.support(), f"{tl.var():.6f}", float(tl.cdf(5.0))
    ((-5.0, 5.0), '1.762572', 1.0)
    """

    name = "truncated_laplace"
    display_name = "truncated Laplace"
    parameter_domains = (SCALE, BOUND)

    def __init__(self, scale: float, bound: float) -> None:
        self.scale = check_scalar(scale, SCALE)
        self.bound = check_scalar(bound, BOUND)
        self._norm = -math.expm1(-self.bound / self.scale)

    # -- mechanism facts (scale family: shape a = bound/scale, scale lambda)
    shape_range = (1e-2, 1e3, False)

    def _arb_plan(self, eps: fmpq, sensitivity: fmpq) -> Plan:
        return truncated_laplace_plan(eps, sensitivity, self.scale, self.bound)

    def _precise_view(self, digits: Optional[int], bits: Optional[int], ball: bool) -> Any:
        from .precise_declared import TruncatedLaplaceAtPrecision  # at_precision's view of this law (issue 29)

        return TruncatedLaplaceAtPrecision(self, digits, bits=bits, ball=ball)

    def loss_atoms(self, sensitivity: float) -> Tuple[Fraction, ...]:
        # the loss is Delta/lambda where t and t + Delta both lie in [0, A] (needs A > Delta)
        return (Fraction(sensitivity) / Fraction(self.scale),) if self.bound > sensitivity else ()

    def loss_range(self, sensitivity: float) -> Optional[Fraction]:
        return Fraction(sensitivity) / Fraction(self.scale)  # beyond: only the infinite loss (disjoint supports)

    @property
    def family_shape(self) -> float:
        return self.bound / self.scale

    @property
    def family_scale(self) -> float:
        return self.scale

    @classmethod
    def from_family(cls, shape: float, scale: float) -> "TruncatedLaplace":
        return cls(scale, shape * scale)

    #: the member (shape, 1) has the loss atom u at sensitivity u (where t and t + u lie on one side of 0)
    unit_loss_atom = True

    @staticmethod
    def unit_log_profile(eps: float, shape: float, u: float) -> float:
        """log delta(eps) of the member (shape, 1) at sensitivity u, one point of floats (:func:`tl_unit_profile`)."""
        return float(SCALAR.log(tl_unit_profile(eps, shape, u)))

    def support(self) -> Tuple[float, float]:
        """The closed interval [-A, A]."""
        return (-self.bound, self.bound)

    # -- the generated numerics of the declaration (fhsym/symbolic/laws/truncated_laplace.py: units of the bound A,
    #    z = x/A in [-1, 1], shape a = A/lambda; sf(-z) = 1 - sf(z))
    def _var(self) -> float:
        return self.bound**2 * float(generated.variance(self.bound / self.scale))

    def _logpdf(self, x: FloatArray) -> FloatArray:
        inside = np.abs(x) <= self.bound
        val = generated.logpdf_0(np.abs(x) / self.bound, self.bound / self.scale) - math.log(self.bound)
        out: FloatArray = np.where(inside, val, -np.inf)
        return out

    def _tail(self, x: FloatArray, log: bool = False) -> FloatArray:
        """sf (or log sf) at |x| in [0, A]: the generated sf_0(|x|/A, a) for |x| <= A/2, else sf_end(w, a) at the
        distance w = (A - |x|)/A to the end (A - |x| exact by Sterbenz: w keeps its digits, which 1 - |x|/A loses)."""
        ax = np.minimum(np.abs(np.asarray(x, dtype=float)), self.bound)
        a = self.bound / self.scale
        near = ax <= 0.5 * self.bound
        far = ~near
        out: FloatArray = np.empty(ax.shape)
        with np.errstate(divide="ignore"):  # log(w) at w = 0: log sf = -inf at the end
            out[near] = (generated.logsf_0 if log else generated.sf_0)(ax[near] / self.bound, a)
            out[far] = (generated.logsf_end if log else generated.sf_end)((self.bound - ax[far]) / self.bound, a)
        return out

    def _sf(self, x: FloatArray) -> FloatArray:
        s = self._tail(x)
        out: FloatArray = np.where(x >= 0, s, 1.0 - s)
        return out

    def _logsf(self, x: FloatArray) -> FloatArray:
        out: FloatArray = np.where(x >= 0, self._tail(x, log=True), np.log1p(-self._tail(x)))
        return out

    def _profile(self, eps: FloatArray, d: float) -> FloatArray:
        return tl_profile(eps, d, self.scale, self.bound)

    def _isf(self, q: FloatArray) -> FloatArray:
        # q <= 1/2: A isf(q);  q > 1/2: -A isf(1 - q) (1 - q exact by Sterbenz)
        a = self.bound / self.scale
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.where(q <= 0.5, self.bound * generated.isf_0(q, a), -self.bound * generated.isf_0(1.0 - q, a))
        clipped: FloatArray = np.clip(out, -self.bound, self.bound)
        return clipped

    def _centered_privacy_loss(self, t: FloatArray, d: FloatArray) -> FloatArray:
        up, lo = t + 0.5 * d, t - 0.5 * d
        in_up = np.abs(up) <= self.bound
        in_lo = np.abs(lo) <= self.bound
        val = sym_sign_min(t, d) / self.scale
        out = np.where(in_up & in_lo, val, 0.0)
        out = np.where(~in_up & in_lo, np.inf, out)
        out = np.where(in_up & ~in_lo, -np.inf, out)
        return np.where(d == 0, 0.0, out)

    def _rvs(self, rng: Rng, size: Tuple[int, ...]) -> FloatArray:  # size: the sample shape
        u = rng.random(size)
        mag = -self.scale * np.log1p(u * -self._norm)
        sign = np.where(rng.random(size) < 0.5, -1.0, 1.0)
        return np.minimum(mag, self.bound) * sign

    def _abs_moment(self, n: int) -> float:
        """E|T|^n = A^n S(a, n) / ((n + 1) exprel(a)) (a <= n + 30), else lambda^n n! P(n + 1, a) / (1 - e^{-a})."""
        lam, a = self.scale, self.bound / self.scale
        if a <= n + 30.0:
            # S = sum_k a^k / prod_{j=1..k} (n + 1 + j): positive terms, to below 1e-17 of the sum
            term, total, k = 1.0, 0.0, 0
            while term > 1e-18 * total or k <= a:
                total += term
                k += 1
                term *= a / (n + 1 + k)
            return self.bound**n * total / ((n + 1) * float(sc.exprel(a)))
        val = float(sc.gammainc(n + 1.0, a)) / self._norm
        for k in range(1, n + 1):
            val *= k * lam
        return val

    def _moment(self, n: int) -> float:
        return self._abs_moment(n)

    def _entropy(self) -> float:
        # h = log(2 lambda (1 - e^{-a})) + E|T| / lambda
        a = self.bound / self.scale
        return math.log(2.0 * self.scale) + float(log1mexp(a)) + self._abs_moment(1) / self.scale

    def _half_mass(self, x: FloatArray) -> FloatArray:
        # P(0 < T <= x) = (1 - e^{-x/lambda}) / (2 (1 - e^{-A/lambda})) on [0, A]
        return -0.5 * np.expm1(-np.minimum(x, self.bound) / self.scale) / self._norm

    def _kinks(self) -> Tuple[float, ...]:
        return (self.bound,)

