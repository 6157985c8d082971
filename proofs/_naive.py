"""The paper's formulas transcribed literally into float64 (numpy/scipy).

These are what a reader of the paper would type: eq 8-12, the MGF of Sec
III-B2 and the quantile obtained by inverting eq 10, in standard units
(gamma = 1, b = alpha, s = t).  They exist only as *negative controls*: at
stress points they are measurably wrong (overflow of sinh(b^2/2), cancellation
in 1 - G(t), in 1 - b*kappa*(q - 1/2), ...) while the generated kernels of
:mod:`fhsym._generated.flipped_huber` are right to ~1e-15.  Each kernel is
mapped to the naive expression of the same quantity in :data:`NAIVE`.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special as sc

SQRT2 = math.sqrt(2.0)
SQRT2PI = math.sqrt(2.0 * math.pi)


def Q(x):
    return 0.5 * sc.erfc(x / SQRT2)


def Qinv(p):
    # Q^{-1}(p) = sqrt(2) erfinv(1 - 2p)
    return SQRT2 * sc.erfinv(1.0 - 2.0 * p)


def omega(b):  # eq 9
    return 2.0 * (SQRT2PI * Q(b) + 2.0 / b * np.sinh(b * b / 2.0))


def kappa(b):  # Definition 7, gamma = 1
    return omega(b) * np.exp(-b * b / 2.0)


def rho(s, b):  # eq 7
    return b * abs(s) if abs(s) <= b else (s * s + b * b) / 2.0


def logpdf(b, s):  # log of eq 8
    return np.log(np.exp(-rho(s, b)) / kappa(b))


def cdf(b, s):  # eq 10
    if abs(s) <= b:
        return 0.5 + 2.0 / (b * omega(b)) * np.exp(b / 2.0 * (b - abs(s))) * np.sinh(b * s / 2.0)
    return 0.5 + np.sign(s) * (0.5 - SQRT2PI / omega(b) * Q(abs(s)))


def sf(b, s):
    return 1.0 - cdf(b, s)


def ppf_center(b, q):  # eq 10 inverted on 0 <= t <= alpha (Appendix B, missing)
    return -(1.0 / b) * np.log(1.0 - b * omega(b) * np.exp(-b * b / 2.0) * (q - 0.5))


def ppf_tail(b, q):  # eq 10 inverted on t > alpha
    return Qinv((1.0 - q) * omega(b) / SQRT2PI)


def variance(b):  # eq 11 / gamma^2
    x = b * b / 2.0
    return 1.0 - (1.0 / omega(b)) * (2.0 / b) ** 3 * (x * np.cosh(x) - np.sinh(x))


def fisher(b):  # eq 12 * gamma^2
    x = b * b / 2.0
    return 1.0 + 4.0 / (b * omega(b)) * (x * np.exp(x) - np.sinh(x))


def mgf_half(b, m):
    """sqrt(2 pi)/omega P(s) e^{s^2/2} times kappa, with m = b + s (Sec III-B2)."""
    s = m - b
    P = (np.exp(m * b) - 1.0) * np.exp(-m * m / 2.0) / (m * SQRT2PI) + Q(m)
    return kappa(b) * SQRT2PI / omega(b) * P * np.exp(s * s / 2.0)


def moment(n, b):
    """E[S^n]: eq 11 for n = 2; otherwise the defining integrals (scipy quad) over the paper's kappa."""
    if n == 2:
        return variance(b)
    from scipy.integrate import quad

    centre = quad(lambda x: x**n * np.exp(-b * x), 0.0, b)[0]
    tail = quad(lambda x: x**n * np.exp(-(x * x + b * b) / 2.0), b, np.inf)[0]
    return 2.0 * (centre + tail) / kappa(b)


#: kernel name -> float64 function of the kernel's arguments without ``lw``
NAIVE = {
    "log_omega_tilde": lambda b: np.log(omega(b)) - b * b / 2.0,
    "logpdf_center": logpdf,
    "logpdf_tail": logpdf,
    "sf_tail": sf,
    "logsf_tail": lambda b, s: np.log(sf(b, s)),
    "sf_center": sf,
    "logsf_center": lambda b, s: np.log(sf(b, s)),
    "tail_mass": lambda b: sf(b, b),
    "isf_tail": lambda b, logp: ppf_tail(b, 1.0 - np.exp(logp)),
    "isf_tail_direct": lambda b, p: ppf_tail(b, 1.0 - p),
    "isf_center": lambda b, p: ppf_center(b, 1.0 - p),
    "isf_center_near_half": lambda b, h: ppf_center(b, 0.5 + h),
    "isf_tail_near_half": lambda b, h: ppf_tail(b, 0.5 + h),
    "variance_std": variance,
    "fisher_std": fisher,
    "log_mgf_half_pos": lambda b, m: np.log(mgf_half(b, m)),
    "log_mgf_half_neg": lambda b, m: np.log(mgf_half(b, m)),
    "moment_std": moment,
    "sf_center_near_median": sf,
    "sf_tail_near_median": sf,
}

#: kernel name -> (stress point, why the naive form fails there)
STRESS = {
    "log_omega_tilde": ((40.0,), "b = 40: sinh(b^2/2) = sinh(800) overflows"),
    "logpdf_center": ((40.0, 20.0), "b = 40: omega overflows, kappa = inf * 0"),
    "logpdf_tail": ((40.0, 45.0), "b = 40: omega overflows"),
    "sf_tail": ((2.0, 6.0), "far tail: 1 - G(t) cancels (G = 1 - 3e-10)"),
    "logsf_tail": ((2.0, 40.0), "far tail: 1 - G(t) = 0 in float64, log -> -inf"),
    "sf_center": ((6.0, 5.5), "large b, t near alpha: 1/2 - (...) cancels"),
    "logsf_center": ((10.0, 9.0), "large b: 1 - G(t) ~ e^-90 lost entirely"),
    "tail_mass": ((7.0,), "P(T > alpha) = 1 - G(alpha) ~ 1e-22 lost"),
    "isf_tail": ((1.0, -700.0), "p = e^-700: q = 1 - p rounds to 1, Q^{-1}(0) = inf"),
    "isf_tail_direct": ((1.0, 1e-20), "p = 1e-20: q = 1 - p rounds to 1"),
    "isf_center": ((5.0, 1e-11), "1 - b kappa (q - 1/2) cancels to ~2e-11"),
    "isf_center_near_half": ((1.0, 1e-12), "log(1 - x) without log1p at x ~ 1e-12"),
    "isf_tail_near_half": ((1e-12, 1e-12), "alpha -> 0 near the median: 1 - 2 Q-argument cancels"),
    "variance_std": ((40.0,), "b = 40: cosh, sinh overflow (inf - inf)"),
    "fisher_std": ((40.0,), "b = 40: exp, sinh overflow"),
    "log_mgf_half_pos": ((3.0, 45.0), "e^{s^2/2} overflows (s = 42) against e^{-m^2/2} underflow"),
    "log_mgf_half_neg": ((3.0, -40.0), "e^{s^2/2} overflows (s = -43)"),
    "moment_std": ((2, 40.0), "n = 2 is eq 11; b = 40: cosh, sinh overflow"),
    "sf_center_near_median": ((40.0, 0.01), "b = 40 (the API uses this piece for every b): omega overflows"),
    "sf_tail_near_median": ((0.3, 0.5), "a typical point of the piece"),
}

#: kernels whose paper form has no float64 failure in the region where the kernel is used (reason);
#: their control only requires the kernel's float64 accuracy
NO_STRESS = {
    "sf_tail_near_median": (
        "the piece is used where 1 - G(t) >= 1/4 and b <= ~0.65, where eq 10 neither cancels nor overflows; "
        "the rewrite makes the CDF exactly 1/2 at t = 0 and monotone where it meets `sf_center_near_median`, "
        "it does not repair the paper's form"
    ),
}


# =============================================================================
# Privacy of the 1-D mechanism (proofs/privacy_profile.py): eq 13 and the loss
# =============================================================================
# Standard units: gamma = 1, b = alpha/gamma, D = Delta/gamma, eps = epsilon.
# The five cases of eq 13 typed as printed (log of them for the log kernels), and
# the privacy loss rho_b(s + D) - rho_b(s) (Sec II-C1) as a reader would evaluate it.


def _profile_K(b):  # gamma/(alpha omega) e^{alpha^2/2gamma^2}
    return np.exp(b * b / 2.0) / (b * omega(b))


def profile_case_i(b, D, eps):  # eq 13 (i)
    c = SQRT2PI / omega(b)
    return (1.0 - c) + c * (Q(eps / D - D / 2.0) - np.exp(eps) * Q(eps / D + D / 2.0))


def profile_case_ii(b, D, eps):  # eq 13 (ii)
    E = np.exp(eps)
    return 0.5 * (1.0 - E) + _profile_K(b) * (1.0 + E - 2.0 * np.exp(eps / 2.0 - b * D / 2.0))


def profile_case_iii(b, D, eps):  # eq 13 (iii)
    r = np.sqrt(2.0 * (eps + b * D))
    return 0.5 + _profile_K(b) * (1.0 - np.exp(b * (-b + r - D))) - np.exp(eps) * SQRT2PI / omega(b) * Q(r - b)


def profile_case_iv(b, D, eps):  # eq 13 (iv)
    r = np.sqrt(2.0 * (eps - b * D))
    return 0.5 - _profile_K(b) * (1.0 - np.exp(b * (-b - r + D))) - np.exp(eps) * SQRT2PI / omega(b) * Q(r + b)


def profile_case_v(b, D, eps):  # eq 13 (v)
    return SQRT2PI / omega(b) * (Q(eps / D - D / 2.0) - np.exp(eps) * Q(eps / D + D / 2.0))


def privacy_loss(b, D, s):  # Sec II-C1: zeta_D(s) = rho_b(s + D) - rho_b(s)
    return rho(s + D, b) - rho(s, b)


#: privacy kernel name -> float64 function of the kernel's arguments without ``lw``
PRIVACY_NAIVE = {
    "profile_case_i": profile_case_i,
    "profile_case_ii": profile_case_ii,
    "log_profile_case_iii": lambda b, D, e: np.log(profile_case_iii(b, D, e)),
    "log_profile_case_iv": lambda b, D, e: np.log(profile_case_iv(b, D, e)),
    "log_profile_case_v": lambda b, D, e: np.log(profile_case_v(b, D, e)),
    "loss_center_same_sign": privacy_loss,
    "loss_center_cross": privacy_loss,
    "loss_tail_tail": privacy_loss,
    "loss_center_tail": privacy_loss,
    "loss_tail_center": privacy_loss,
}

#: privacy kernel name -> (stress point (b, D, eps) or (b, D, s), why the naive form fails there)
PRIVACY_STRESS = {
    "profile_case_i": ((2.0**-50, 2.0**-40, 0.0), "tiny Delta/gamma = 2^-40: Q(x) - e^eps Q(x + D) cancels (delta ~ 4e-13)"),
    "profile_case_ii": (
        (30.0, 1.0, 30.0 - 2.0**-20),
        "eps = alpha Delta/gamma^2 - 2^-20 with e^eps ~ 1e13: (1 - e^eps)/2 + ... cancels to delta ~ 5e-7",
    ),
    "log_profile_case_iii": (
        (2.0**-40, 2.0**-33, 2.0**-67),
        "tiny alpha/gamma and Delta/gamma: 1 - exp(b t1) rounds to 0 and 1/2 + ... - e^eps c Q cancels (delta ~ 5e-11)",
    ),
    "log_profile_case_iv": ((40.0, 1.0, 40.25), "large alpha/gamma = 40: sinh(b^2/2) = sinh(800) overflows, omega = inf"),
    "log_profile_case_v": ((1.0, 1e-11, 2e-11 + 1e-22), "tiny Delta/gamma = 1e-11: Q(x) - e^eps Q(x + D) cancels (delta ~ 7e-14)"),
    "loss_center_same_sign": ((10.0, 1e-12, 5.0), "s = 5, D = 1e-12: b(s + D) - b s loses D to rounding of s + D"),
    "loss_center_cross": ((0.7, 0.7, -0.35 + 1e-12), "s + D/2 = 1e-12: b(s + D) - b|s| cancels (b(2s + D) does not)"),
    "loss_tail_tail": ((1.0, 3.3e-7, 1234567.891), "s = 1.2e6, D = 3.3e-7: ((s + D)^2 - s^2)/2 cancels (s^2 = 1.5e12)"),
    "loss_center_tail": ((1.0, 1e-12, 1.0), "s = b = 1, D = 1e-12: ((s + D)^2 + b^2)/2 - b|s| loses ~log10(b/D) digits to the rounding of s + D"),
    "loss_tail_center": ((1.0, 2e-12, -1.0 - 1e-12), "s = -b - 1e-12, D = 2e-12: b|s + D| - (s^2 + b^2)/2 loses ~log10(b/D) digits"),
}

#: privacy kernels whose paper form has no float64 failure distinct from the kernel's (reason)
PRIVACY_NO_STRESS: dict = {}
