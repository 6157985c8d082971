"""Gaussian mechanism ``N(0, sigma^2)`` and its exact (analytic) calibration.

Formula
-------
Density ``g(t) = phi(t / sigma) / sigma``.  With ``s = Delta / sigma``,
``a = eps / s`` and ``b = a - s/2`` the exact one-dimensional privacy
profile is (Balle & Wang 2018, Theorem 8; the paper's eq. (29))::

    delta(eps) = Q(a - s/2) - e^eps Q(a + s/2)
               = Q(b) * (1 - exp(-J(b, s))),   J(b, s) = log R(b) - log R(b + s),

where ``R`` is the Mills ratio.  The second line follows from
``e^eps phi(b + s) = phi(b)`` and is the form evaluated here: ``J`` is a
positive integral computed without cancellation (see ``_core``), so the
result keeps full relative accuracy where the first line loses every digit
(large ``eps`` or ``s`` small).

Source: B. Balle, Y.-X. Wang, "Improving the Gaussian mechanism for
differential privacy: analytical calibration and optimal denoising", ICML
2018; restated in Appendix F-A(a), eq. (29) of the flipped-Huber paper.

Generated numerics: ``logpdf``, ``sf``, ``logsf``, ``isf``, the variance and the entropy are the functions
``python -m fhsym.codegen`` prints from the law's declaration (``fhsym/symbolic/laws/gaussian.py``) into
``fhsym/_generated/declared/gaussian.py``.  The profile (the stable form above), the moments and
``P(0 < T <= x)`` stay hand-written, each with a proof row (``python -m proofs --only shipped_gaussian``) that it
equals the form derived from the declaration.

Accuracy of the profile (measured against 50-digit mpmath quadrature of the definition
integral, 300 random cases, and against the 50-digit closed form, 3000
cases; eps in [0, 50], Delta/sigma in [1e-6, 1e3]): worst relative error
1.6e-15 where delta >= 1e-300, absolute error < 1e-300 where it underflows.
"""

from __future__ import annotations

import math
from typing import Any, Optional, Tuple

import numpy as np
from flint import fmpq
from scipy import special as sc

from .._core.random import Rng
from .._core.types import FloatArray
from .._core.domains import Domain, check_scalar
from .._core.arb import Plan
from .._core.doubledouble import div_dd, ratio_dd, two_sum
from .._core.gaussian_tail import gaussian_type_delta
from .._core.scalar import SCALAR
from .._generated.declared import gaussian as generated
from .base import NoiseDistribution
from .plans.osgt import gaussian_plan

__all__ = ["Gaussian", "gaussian_profile"]

SIGMA = Domain("sigma", 0.0, math.inf, typical=(0.5, 3.0))


def gaussian_profile(eps: FloatArray, d: float, sigma: float = 1.0) -> FloatArray:
    """Profile of ``N(0, sigma^2)`` at sensitivity ``d`` (no validation).

    ``b = eps sigma / d - d / (2 sigma)`` is formed as a double-double from the
    exact inputs, so the steep factor ``Q(b)`` sees no rounding of ``d/sigma``.
    """
    eps = np.asarray(eps, dtype=float)
    s = d / sigma
    if s == math.inf:
        return np.ones(eps.shape)
    if s == 0.0:
        return np.zeros(eps.shape)
    if s > 1e100 or s < 1e-100:
        with np.errstate(all="ignore"):
            b = eps / s - 0.5 * s
        return gaussian_type_delta(b, s)
    # the profile depends on d/sigma only: rescale both by the same power of
    # two (exact) so that the double-double products below cannot overflow
    e2 = math.frexp(d)[1]
    d, sigma = math.ldexp(d, -e2), math.ldexp(sigma, -e2)
    a_hi, a_lo = ratio_dd(eps, np.zeros(eps.shape), sigma, d)
    c_hi, c_lo = div_dd(np.array(d), sigma)
    b, b_lo = two_sum(a_hi, np.full(a_hi.shape, -0.5 * c_hi))
    b_lo = b_lo + a_lo - 0.5 * c_lo
    b_lo = np.where(np.isfinite(b_lo), b_lo, 0.0)  # b = +inf (eps/s overflows): delta = 0
    return gaussian_type_delta(b, s, b_lo)


class Gaussian(NoiseDistribution):
    """Additive ``N(0, sigma^2)`` noise.

    Parameters
    ----------
    sigma : float in (0, inf)
        Standard deviation.

    Formulas
    --------
    * ``pdf(t) = exp(-t^2 / (2 sigma^2)) / (sigma sqrt(2 pi))``; ``var = sigma^2``.
    * ``privacy_profile(eps, Delta) = Q(b) (1 - exp(-J(b, s)))`` with
      ``s = Delta/sigma``, ``b = eps/s - s/2`` -- the stable form of
      ``Q(sigma eps/Delta - Delta/(2 sigma)) - e^eps Q(sigma eps/Delta + Delta/(2 sigma))``
      (Balle & Wang 2018; paper eq. (29)).
    * ``centered_privacy_loss(t, d) = t d / sigma^2`` (paper, Appendix E-B).
    * ``moment(n) = sigma^n (n - 1)!!`` (n even), ``entropy = log(sigma sqrt(2 pi e))``.

    Examples
    --------
    >>> g = Gaussian(2.0)
    >>> g.var(), f"{g.privacy_profile(1.0):.6g}"
    (4.0, '0.00682959')
    """

    name = "gaussian"
    display_name = "Gaussian"
    parameter_domains = (SIGMA,)

    def __init__(self, sigma: float) -> None:
        self.sigma = check_scalar(sigma, SIGMA)

    # -- mechanism facts
    def _arb_plan(self, eps: fmpq, sensitivity: fmpq) -> Plan:
        return gaussian_plan(eps, sensitivity, self.sigma)

    def _precise_view(self, digits: Optional[int], bits: Optional[int], ball: bool) -> Any:
        from .precise_declared import GaussianAtPrecision  # at_precision's view of this law (issue 29)

        return GaussianAtPrecision(self, digits, bits=bits, ball=ball)

    def gaussian_sigma(self) -> float:
        return self.sigma

    def zcdp_parameters(self, sensitivity: float) -> Tuple[float, float]:
        return 0.0, (sensitivity / self.sigma) ** 2 / 2.0  # Bun & Steinke 2016: Delta^2/(2 sigma^2)-zCDP

    @property
    def family_scale(self) -> float:
        return self.sigma

    @classmethod
    def from_family(cls, shape: float, scale: float) -> "Gaussian":
        return cls(scale)

    @staticmethod
    def unit_log_profile(eps: float, shape: float, u: float) -> float:
        """log delta(eps) of N(0, 1) at sensitivity u, one point of floats, no checks (the calibrator's search):
        log H(eps/u - u/2, u) (Balle & Wang 2018) on the scalar namespace."""
        return float(SCALAR.log_gauss_profile(eps / u - 0.5 * u, u))

    # -- the generated numerics of the declaration (standard units z = x / sigma; sf(-z) = 1 - sf(z))
    def _var(self) -> float:
        return float(generated.variance()) * self.sigma**2

    def _logpdf(self, x: FloatArray) -> FloatArray:
        out: FloatArray = generated.logpdf_0(np.abs(x) / self.sigma) - math.log(self.sigma)
        return out

    def _sf(self, x: FloatArray) -> FloatArray:
        z = x / self.sigma
        s = generated.sf_0(np.abs(z))
        out: FloatArray = np.where(z >= 0, s, 1.0 - s)
        return out

    def _logsf(self, x: FloatArray) -> FloatArray:
        z = np.abs(x / self.sigma)
        with np.errstate(divide="ignore"):
            out: FloatArray = np.where(x >= 0, generated.logsf_0(z), np.log1p(-generated.sf_0(z)))
        return out

    def _isf(self, q: FloatArray) -> FloatArray:
        # q <= 1/2: sigma isf(q);  q > 1/2: -sigma isf(1 - q) (1 - q exact by Sterbenz)
        with np.errstate(divide="ignore", invalid="ignore"):
            out: FloatArray = np.where(q <= 0.5, self.sigma * generated.isf_0(q), -self.sigma * generated.isf_0(1.0 - q))
        return out

    def _profile(self, eps: FloatArray, d: float) -> FloatArray:
        return gaussian_profile(eps, d, self.sigma)

    def _centered_privacy_loss(self, t: FloatArray, d: FloatArray) -> FloatArray:
        return t * d / self.sigma**2

    def _privacy_loss(self, t: FloatArray, d: FloatArray) -> FloatArray:
        return d * (t + 0.5 * d) / self.sigma**2

    def _rvs(self, rng: Rng, shape: Tuple[int, ...]) -> FloatArray:
        return rng.normal(0.0, self.sigma, shape)

    def _moment(self, n: int) -> float:
        # E[T^n] = sigma^n (n - 1)!!, as a product of n/2 factors (2k - 1) sigma^2
        val, s2 = 1.0, self.sigma * self.sigma
        for k in range(1, n // 2 + 1):
            val *= (2 * k - 1) * s2
        return val

    def _entropy(self) -> float:
        return float(generated.entropy()) + math.log(self.sigma)

    def _half_mass(self, x: FloatArray) -> FloatArray:
        # P(0 < T <= x) = erf(x / (sigma sqrt 2)) / 2
        out: FloatArray = 0.5 * sc.erf(x / (self.sigma * math.sqrt(2.0)))
        return out



