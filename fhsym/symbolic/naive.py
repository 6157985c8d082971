"""The paper's formulas transcribed literally into float64 (numpy/scipy): the negative controls.

These are what a reader of the paper would type: eq 8-12, the MGF of Sec III-B2, the
quantile obtained by inverting eq 10, the five cases of eq 13, the privacy loss of
Sec II-C1 and the K-dimensional objects of Sec IV-B (R_Delta, theta, Theorem 8), in
standard units (gamma = 1, b = alpha/gamma, s = t/gamma, D = Delta/gamma).  They exist
only as *negative controls*: at the stress point each kernel declares
(``Kernel.stress`` in :mod:`fhsym.symbolic.stable`, :mod:`fhsym.symbolic.privacy`,
:mod:`fhsym.symbolic.kdim`) they are measurably wrong (overflow of sinh(b^2/2),
cancellation in 1 - G(t), in 1 - b*kappa*(q - 1/2), ...) while the generated kernel is
right to ~1e-15.  Each kernel names its naive form in ``Kernel.naive``; the tables
``NAIVE``/``STRESS``/``NO_STRESS`` (and ``PRIVACY_*``) of :mod:`fhsym.symbolic.stress` are
views of those declarations, kept for ``proofs/`` (``proofs/_naive.py`` re-exports both).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special as sc

from .._core.types import Real

__all__ = [
    "SQRT2", "SQRT2PI", "Q", "Qinv", "omega", "kappa", "rho", "logpdf", "cdf", "sf", "ppf_center", "ppf_tail",
    "variance", "fisher", "mgf_half", "moment",
    "profile_case_i", "profile_case_ii", "profile_case_iii", "profile_case_iv", "profile_case_v", "privacy_loss",
    "R_Delta", "R_Delta_inverse", "theta_std", "log_theorem8_lhs",
]

SQRT2 = math.sqrt(2.0)
SQRT2PI = math.sqrt(2.0 * math.pi)


def Q(x: Real) -> Real:
    q: Real = 0.5 * sc.erfc(x / SQRT2)  # scipy is untyped
    return q


def Qinv(p: Real) -> Real:
    # Q^{-1}(p) = sqrt(2) erfinv(1 - 2p)
    x: Real = SQRT2 * sc.erfinv(1.0 - 2.0 * p)  # scipy is untyped
    return x


def omega(b: Real) -> Real:  # eq 9
    return 2.0 * (SQRT2PI * Q(b) + 2.0 / b * np.sinh(b * b / 2.0))


def kappa(b: Real) -> Real:  # Definition 7, gamma = 1
    return omega(b) * np.exp(-b * b / 2.0)


def rho(s: float, b: float) -> float:  # eq 7
    return b * abs(s) if abs(s) <= b else (s * s + b * b) / 2.0


def logpdf(b: float, s: float) -> float:  # log of eq 8
    out: float = np.log(np.exp(-rho(s, b)) / kappa(b))
    return out


def cdf(b: float, s: float) -> float:  # eq 10
    out: float
    if abs(s) <= b:
        out = 0.5 + 2.0 / (b * omega(b)) * np.exp(b / 2.0 * (b - abs(s))) * np.sinh(b * s / 2.0)
    else:
        out = 0.5 + np.sign(s) * (0.5 - SQRT2PI / omega(b) * Q(abs(s)))
    return out


def sf(b: float, s: float) -> float:
    return 1.0 - cdf(b, s)


def ppf_center(b: Real, q: Real) -> Real:  # eq 10 inverted on 0 <= t <= alpha (Appendix B, missing)
    return -(1.0 / b) * np.log(1.0 - b * omega(b) * np.exp(-b * b / 2.0) * (q - 0.5))


def ppf_tail(b: Real, q: Real) -> Real:  # eq 10 inverted on t > alpha
    return Qinv((1.0 - q) * omega(b) / SQRT2PI)


def variance(b: Real) -> Real:  # eq 11 / gamma^2
    x = b * b / 2.0
    return 1.0 - (1.0 / omega(b)) * (2.0 / b) ** 3 * (x * np.cosh(x) - np.sinh(x))


def fisher(b: Real) -> Real:  # eq 12 * gamma^2
    x = b * b / 2.0
    return 1.0 + 4.0 / (b * omega(b)) * (x * np.exp(x) - np.sinh(x))


def mgf_half(b: Real, m: Real) -> Real:
    """sqrt(2 pi)/omega P(s) e^{s^2/2} times kappa, with m = b + s (Sec III-B2)."""
    s = m - b
    P = (np.exp(m * b) - 1.0) * np.exp(-m * m / 2.0) / (m * SQRT2PI) + Q(m)
    return kappa(b) * SQRT2PI / omega(b) * P * np.exp(s * s / 2.0)


def moment(n: int, b: float) -> Real:
    """E[S^n]: eq 11 for n = 2; otherwise the defining integrals (scipy quad) over the paper's kappa."""
    if n == 2:
        return variance(b)
    from scipy.integrate import quad

    centre: float = quad(lambda x: x**n * np.exp(-b * x), 0.0, b)[0]  # scipy is untyped
    tail: float = quad(lambda x: x**n * np.exp(-(x * x + b * b) / 2.0), b, np.inf)[0]
    return 2.0 * (centre + tail) / kappa(b)


# =============================================================================
# Privacy of the 1-D mechanism: eq 13 and the loss (Sec II-C1)
# =============================================================================
def _profile_K(b: Real) -> Real:  # gamma/(alpha omega) e^{alpha^2/2gamma^2}
    return np.exp(b * b / 2.0) / (b * omega(b))


def profile_case_i(b: Real, D: Real, eps: Real) -> Real:  # eq 13 (i)
    c = SQRT2PI / omega(b)
    return (1.0 - c) + c * (Q(eps / D - D / 2.0) - np.exp(eps) * Q(eps / D + D / 2.0))


def profile_case_ii(b: Real, D: Real, eps: Real) -> Real:  # eq 13 (ii)
    E = np.exp(eps)
    return 0.5 * (1.0 - E) + _profile_K(b) * (1.0 + E - 2.0 * np.exp(eps / 2.0 - b * D / 2.0))


def profile_case_iii(b: Real, D: Real, eps: Real) -> Real:  # eq 13 (iii)
    r = np.sqrt(2.0 * (eps + b * D))
    return 0.5 + _profile_K(b) * (1.0 - np.exp(b * (-b + r - D))) - np.exp(eps) * SQRT2PI / omega(b) * Q(r - b)


def profile_case_iv(b: Real, D: Real, eps: Real) -> Real:  # eq 13 (iv)
    r = np.sqrt(2.0 * (eps - b * D))
    return 0.5 - _profile_K(b) * (1.0 - np.exp(b * (-b - r + D))) - np.exp(eps) * SQRT2PI / omega(b) * Q(r + b)


def profile_case_v(b: Real, D: Real, eps: Real) -> Real:  # eq 13 (v)
    return SQRT2PI / omega(b) * (Q(eps / D - D / 2.0) - np.exp(eps) * Q(eps / D + D / 2.0))


def privacy_loss(b: float, D: float, s: float) -> float:  # Sec II-C1: zeta_D(s) = rho_b(s + D) - rho_b(s)
    return rho(s + D, b) - rho(s, b)


# =============================================================================
# K dimensions (Sec IV-B): Lemma 5's R_Delta, eq 21, eq 22, Theorem 8
# =============================================================================
def R_Delta(alpha: float, Delta: float) -> float:  # Lemma 5, as printed
    return alpha**2 - max(alpha - Delta, 0.0) ** 2


def R_Delta_inverse(nu: float, Delta: float) -> float:  # eq 21
    return math.sqrt(nu) if nu < Delta**2 else (nu + Delta**2) / (2.0 * Delta)


def theta_std(b: Real) -> Real:  # eq 22 / gamma: Q^{-1}(sqrt(pi/2)/omega)
    return Qinv(math.sqrt(math.pi / 2.0) / omega(b))


def log_theorem8_lhs(A: Real, B: Real, eps: Real) -> Real:  # log of Theorem 8's LHS Q(A) - e^eps Q(B)
    return np.log(Q(A) - np.exp(eps) * Q(B))
