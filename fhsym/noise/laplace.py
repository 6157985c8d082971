"""Laplace mechanism ``L(0, beta)`` (pure and approximate DP).

Formula
-------
Density ``g(t) = exp(-|t|/beta) / (2 beta)``, variance ``2 beta^2``.  With
``s = Delta / beta`` the privacy loss ``log g(t)/g(t+Delta)`` is ``-s`` for
``t <= -Delta``, ``(2t + Delta)/beta`` in between and ``s`` for ``t >= 0``;
integrating ``[g(t) - e^eps g(t + Delta)]_+`` from the crossing
``t0 = (eps beta - Delta)/2`` gives the exact one-dimensional profile::

    delta(eps) = [1 - exp((eps - s)/2)]_+ = -expm1((eps - s)/2)   (eps < s), 0 otherwise,

and hence ``(eps, delta)``-DP iff ``beta >= Delta / (eps - 2 log(1 - delta))``;
pure ``eps``-DP iff ``beta >= Delta/eps``.

Source: Appendix F-A(b) of the flipped-Huber paper (citing [34], [17]);
pure DP: Dwork, McSherry, Nissim, Smith (2006).

Generated numerics: ``logpdf``, ``sf``, ``logsf``, ``isf``, the variance and the entropy are the functions
``python -m fhsym.codegen`` prints from the law's declaration (``fhsym/symbolic/laws/laplace.py``) into
``fhsym/_generated/declared/laplace.py``.  The profile, the moments and ``P(0 < T <= x)`` stay hand-written stable
forms, each with a proof row (``python -m proofs --only shipped_laplace``) that it equals the form derived from
the declaration.

Stable form of the profile: ``-expm1`` of a difference ``eps - Delta/beta`` evaluated as a
double-double (``Delta/beta`` with its exact remainder), so the profile keeps
full relative accuracy even as ``eps -> Delta/beta`` where it vanishes
linearly.  Measured worst relative error 2.4e-16 against mpmath quadrature
of the definition (300 random cases, half within 1e-12..1e-1 of the kink).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Callable, Optional, Tuple

import numpy as np
from flint import fmpq

from .._core.random import Rng
from .._core.types import FloatArray
from .._core.arb import Plan
from .._core.domains import Domain, check_scalar
from .._core.sensitivities import float_at_least
from .._core.doubledouble import exact_quotient, sym_sign_min
from .._generated.declared import laplace as generated
from .base import NoiseDistribution
from .plans.laplace import laplace_plan_of

__all__ = ["Laplace", "laplace_profile"]

BETA = Domain("beta", 0.0, math.inf, typical=(0.5, 3.0))


def laplace_profile(eps: FloatArray, d: float, beta: float) -> FloatArray:
    s_hi, s_lo = exact_quotient(d, beta)
    if s_hi == math.inf:
        return np.ones(np.shape(eps))
    diff = (eps - s_hi) - s_lo  # eps - s_hi is exact near the crossing (Sterbenz)
    with np.errstate(over="ignore"):  # expm1 of the discarded branch (diff >= 0) may overflow; np.where drops it
        return np.where(diff < 0.0, -np.expm1(np.minimum(0.5 * diff, 0.0)), 0.0)


class Laplace(NoiseDistribution):
    """Additive Laplace noise ``L(0, beta)``.

    Parameters
    ----------
    beta : float in (0, inf)
        Scale (``var = 2 beta^2``).

    Formulas (paper, Appendix F-A(b) and E-B)
    -----------------------------------------
    * ``pdf(t) = exp(-|t|/beta)/(2 beta)``, ``sf(t) = exp(-t/beta)/2`` for ``t >= 0``.
    * ``privacy_profile(eps, Delta) = [1 - exp((eps - Delta/beta)/2)]_+``.
    * ``centered_privacy_loss(t, d) = (2/beta) sgn(t) sgn(d) min(|t|, |d|/2)``.
    * ``moment(n) = n! beta^n`` (n even), ``entropy = 1 + log(2 beta)``.

    Examples
    --------
    >>> lap = Laplace(1.0)
    >>> lap.var(), float(lap.privacy_profile(1.0)), float(lap.privacy_profile(0.0))
    (2.0, 0.0, 0.3934693402873666)
    """

    name = "laplace"
    display_name = "Laplace"
    parameter_domains = (BETA,)

    def __init__(self, beta: float) -> None:
        self.beta = check_scalar(beta, BETA)

    # -- mechanism facts
    def _arb_plan(self, eps: fmpq, sensitivity: fmpq) -> Plan:
        return laplace_plan_of(eps, sensitivity, self.beta)

    def _precise_view(self, digits: Optional[int], bits: Optional[int], ball: bool) -> Any:
        from .precise_declared import LaplaceAtPrecision  # at_precision's view of this law (issue 29)

        return LaplaceAtPrecision(self, digits, bits=bits, ball=ball)

    def pure_loss(self, dim: int, sensitivity: float, l2_sensitivity: float, l1_sensitivity: float) -> Optional[Fraction]:
        # the loss of i.i.d. Laplace noise is at most ||d||_1 / beta: exactly Delta_1 / beta over the set
        return Fraction(l1_sensitivity) / Fraction(self.beta)

    def loss_atoms(self, sensitivity: float) -> Tuple[Fraction, ...]:
        return (Fraction(sensitivity) / Fraction(self.beta),)  # where t and t + Delta lie on one side of 0

    def loss_range(self, sensitivity: float) -> Optional[Fraction]:
        return Fraction(sensitivity) / Fraction(self.beta)

    @property
    def family_scale(self) -> float:
        return self.beta

    @classmethod
    def from_family(cls, shape: float, scale: float) -> "Laplace":
        return cls(scale)

    calibration_methods = ("auto", "exact", "pure")

    #: the member (shape, 1) has the loss atom u at sensitivity u (where t and t + u lie on one side of 0)
    unit_loss_atom = True

    @classmethod
    def pure_calibration(  # type: ignore[override]  # no **options: the calibrator reads a law's options from this signature
            cls, epsilon: float, dim: int, sensitivity: float, l2_sensitivity: float, l1_sensitivity: float,
            compositions: int) -> Tuple[Callable[[float], "Laplace"], float]:
        """beta = the smallest double >= T Delta_1 / eps exactly: the loss ||d||_1 / beta of each release is then at
        most eps / T (Dwork et al. 2006; pure DP composes additively)."""
        if not epsilon > 0:
            raise ValueError(f"epsilon must be a finite real number in (0, inf) for pure DP (additive noise cannot be "
                             f"0-DP); got {epsilon!r}")
        return cls, float_at_least(compositions * Fraction(l1_sensitivity) / Fraction(epsilon))

    @staticmethod
    def unit_log_profile(eps: float, shape: float, u: float) -> float:
        """log delta(eps) of L(0, 1) at sensitivity u, one point of floats, no checks (the calibrator's search):
        log(-expm1((eps - u)/2)) for eps < u, -inf otherwise."""
        d = eps - u
        return math.log(-math.expm1(0.5 * d)) if d < 0.0 else -math.inf

    # -- the generated numerics of the declaration (standard units z = x / beta; sf(-z) = 1 - sf(z))
    def _var(self) -> float:
        return float(generated.variance()) * self.beta**2

    def _logpdf(self, x: FloatArray) -> FloatArray:
        out: FloatArray = generated.logpdf_0(np.abs(x) / self.beta) - math.log(self.beta)
        return out

    def _sf(self, x: FloatArray) -> FloatArray:
        z = x / self.beta
        s = generated.sf_0(np.abs(z))
        out: FloatArray = np.where(z >= 0, s, 1.0 - s)
        return out

    def _logsf(self, x: FloatArray) -> FloatArray:
        z = np.abs(x / self.beta)
        out: FloatArray = np.where(x >= 0, generated.logsf_0(z), np.log1p(-generated.sf_0(z)))
        return out

    def _isf(self, q: FloatArray) -> FloatArray:
        # q <= 1/2: beta isf(q);  q > 1/2: -beta isf(1 - q) (1 - q exact by Sterbenz)
        with np.errstate(divide="ignore"):
            out: FloatArray = np.where(q <= 0.5, self.beta * generated.isf_0(q), -self.beta * generated.isf_0(1.0 - q))
        return out

    def _profile(self, eps: FloatArray, d: float) -> FloatArray:
        return laplace_profile(eps, d, self.beta)

    def _centered_privacy_loss(self, t: FloatArray, d: FloatArray) -> FloatArray:
        return sym_sign_min(t, d) / self.beta

    def _rvs(self, rng: Rng, shape: Tuple[int, ...]) -> FloatArray:
        return rng.laplace(0.0, self.beta, shape)

    def _moment(self, n: int) -> float:
        # E[T^n] = n! beta^n (n even), as a product of n factors k beta
        val = 1.0
        for k in range(1, n + 1):
            val *= k * self.beta
        return val

    def _entropy(self) -> float:
        return float(generated.entropy()) + math.log(self.beta)

    def _half_mass(self, x: FloatArray) -> FloatArray:
        # P(0 < T <= x) = (1 - exp(-x/beta)) / 2
        return -0.5 * np.expm1(-x / self.beta)

