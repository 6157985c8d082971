"""The flipped Huber distribution as the paper writes it (symbolic layer A1-A5).

Every object here is the paper's own formula, transcribed from the LaTeX of
G. Muthukrishnan and S. Kalyani, *Grafting Laplace and Gaussian distributions:
A new noise mechanism for differential privacy* (arXiv:2212.09657), and
tagged with its equation.  Nothing here is numerically stable; the stable forms
that the numeric API uses live in :mod:`fhsym.symbolic.stable`, and
``proofs/`` shows (i) that each formula below follows from the definitions
(eq 7-8) and (ii) that each stable form equals the formula below.

Where the paper's text omits a derivation (Appendix A: variance and Fisher
information; Appendix B: sampling / the quantile function) the formula here is
derived by fhsym and marked ``paper=None`` with the derivation in ``proofs/``.

Conventions.  ``b = alpha/gamma`` is the shape ratio; ``s = t/gamma`` is the
standardised argument.  The family is a scale family in gamma for fixed b, so
most objects are written in (b, s) and scaled back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import sympy as sp

from .special import Q

__all__ = [
    "t", "alpha", "gamma", "b", "s", "q", "u", "v",
    "PaperObject",
    "rho", "density_unnormalised", "omega", "omega_of_b", "kappa", "density", "psi",
    "cdf_center", "cdf_tail_upper", "cdf_tail_lower", "sf_center", "sf_tail_upper",
    "ppf_center", "ppf_tail_upper", "tail_mass_of_b",
    "variance", "fisher_information", "nfi", "variance_of_b", "fisher_of_b",
    "mgf", "mgf_P", "orlicz_C",
    "theta_stochastic_bound",
    "OBJECTS",
]

# ----------------------------------------------------------------------------
# Symbols
# ----------------------------------------------------------------------------
t = sp.Symbol("t", real=True)
alpha = sp.Symbol("alpha", positive=True)  # alpha = 0 is the Gaussian limit, handled separately
gamma = sp.Symbol("gamma", positive=True)
b = sp.Symbol("b", positive=True)  # alpha / gamma
s = sp.Symbol("s", real=True)  # t / gamma, or the MGF / Orlicz argument where stated
q = sp.Symbol("q", positive=True)  # a probability
u = sp.Symbol("u", real=True)  # gamma * s (MGF argument in standard units)
v = sp.Symbol("v", positive=True)  # Orlicz argument in (0, 1)


@dataclass(frozen=True)
class PaperObject:
    """A formula, where it comes from, and its domain of validity."""

    name: str
    expr: sp.Expr
    paper: Optional[str]  # equation / section of the paper, None if derived here
    domain: str  # where the formula holds
    note: str = ""


# ----------------------------------------------------------------------------
# A1: loss, density, normaliser (eq 7, 8, 9)
# ----------------------------------------------------------------------------
def rho(x: sp.Expr = t, a: sp.Expr = alpha) -> sp.Expr:
    """Flipped Huber loss rho_alpha (eq 7): a|x| for |x| <= a, (x^2 + a^2)/2 beyond."""
    return sp.Piecewise((a * sp.Abs(x), sp.Abs(x) <= a), ((x**2 + a**2) / 2, True))


density_unnormalised = sp.exp(-rho() / gamma**2)

# eq 9: omega = 2 [ sqrt(2 pi) Q(alpha/gamma) + (2 gamma/alpha) sinh(alpha^2 / (2 gamma^2)) ]
omega = 2 * (sp.sqrt(2 * sp.pi) * Q(alpha / gamma) + 2 * gamma / alpha * sp.sinh(alpha**2 / (2 * gamma**2)))
# (the substitution is already in lowest terms: simplify() returned it unchanged, at 0.6 s of import)
omega_of_b = omega.subs(alpha, b * gamma)

# Definition 7: kappa = gamma * omega * exp(-alpha^2 / (2 gamma^2))
kappa = gamma * omega * sp.exp(-(alpha**2) / (2 * gamma**2))

# eq 8
density = density_unnormalised / kappa
psi = -sp.log(density)  # negative log density, Model 1

# ----------------------------------------------------------------------------
# A2: CDF, survival function (eq 10) and quantile (Appendix B, missing: derived)
# ----------------------------------------------------------------------------
# eq 10, |t| <= alpha
cdf_center = sp.Rational(1, 2) + 2 * gamma / (alpha * omega) * sp.exp(alpha / (2 * gamma**2) * (alpha - sp.Abs(t))) * sp.sinh(
    alpha * t / (2 * gamma**2)
)
# eq 10, t > alpha and t < -alpha
cdf_tail_upper = sp.Rational(1, 2) + (sp.Rational(1, 2) - sp.sqrt(2 * sp.pi) / omega * Q(t / gamma))
cdf_tail_lower = sp.Rational(1, 2) - (sp.Rational(1, 2) - sp.sqrt(2 * sp.pi) / omega * Q(-t / gamma))
sf_center = 1 - cdf_center
sf_tail_upper = 1 - cdf_tail_upper  # = sqrt(2 pi)/omega * Q(t/gamma)

# Probability mass beyond +alpha: P(T > alpha) = sqrt(2 pi)/omega * Q(b)
tail_mass_of_b = (sp.sqrt(2 * sp.pi) / omega * Q(alpha / gamma)).subs(alpha, b * gamma)

# Quantile (derived; the paper's Appendix B is missing from the text).
#   centre, 1/2 <= q <= 1 - P(T > alpha): invert eq 10 on 0 <= t <= alpha,
#       q = 1/2 + (2 gamma/(alpha omega)) e^{alpha(alpha - t)/2gamma^2} sinh(alpha t / 2 gamma^2)
#         = 1/2 + (gamma/(alpha omega)) e^{alpha^2/2gamma^2} (1 - e^{-alpha t/gamma^2})
#   =>  t = -(gamma^2/alpha) log(1 - (alpha omega/gamma) e^{-alpha^2/2gamma^2} (q - 1/2))
#   tail, q > 1 - P(T > alpha): invert sqrt(2 pi)/omega Q(t/gamma) = 1 - q
#   =>  t = gamma Q^{-1}((1 - q) omega / sqrt(2 pi))
#   q < 1/2 follows from symmetry: ppf(q) = -ppf(1 - q).
ppf_center = -(gamma**2 / alpha) * sp.log(1 - (alpha * omega / gamma) * sp.exp(-(alpha**2) / (2 * gamma**2)) * (q - sp.Rational(1, 2)))


def _Qinv(p: sp.Expr) -> sp.Expr:  # Q^{-1}(p)
    return sp.sqrt(2) * sp.erfinv(1 - 2 * p)


ppf_tail_upper = gamma * _Qinv((1 - q) * omega / sp.sqrt(2 * sp.pi))

# ----------------------------------------------------------------------------
# A3: variance (eq 11), Fisher information (eq 12), normalised Fisher information
# ----------------------------------------------------------------------------
_x = alpha**2 / (2 * gamma**2)
variance = gamma**2 * (1 - (1 / omega) * (2 * gamma / alpha) ** 3 * (_x * sp.cosh(_x) - sp.sinh(_x)))
fisher_information = (1 / gamma**2) * (1 + 4 * gamma / (alpha * omega) * (_x * sp.exp(_x) - sp.sinh(_x)))
nfi = sp.expand(variance * fisher_information)  # Sec II-D: NFI = I * sigma^2, in [1, 2] (Fig 2)
# over one denominator: together() and factor_terms(cancel()) give the very expressions simplify() gave (which took
# ~4 s of every import of this module); tests/test_definitions_forms.py checks them against the substitution
variance_of_b = sp.together((variance / gamma**2).subs(alpha, b * gamma))
fisher_of_b = sp.factor_terms(sp.cancel((fisher_information * gamma**2).subs(alpha, b * gamma)))

# ----------------------------------------------------------------------------
# A4: MGF (Sec III-B2) and the Orlicz function of Lemma 2
# ----------------------------------------------------------------------------
def mgf_P(sv: sp.Expr) -> sp.Expr:
    """P_{alpha,gamma}(s) = (e^{m b} - 1) e^{-m^2/2}/(m sqrt(2 pi)) + Q(m), m = alpha/gamma + gamma s."""
    m = alpha / gamma + gamma * sv
    return (sp.exp(m * alpha / gamma) - 1) * sp.exp(-(m**2) / 2) / (m * sp.sqrt(2 * sp.pi)) + Q(m)


mgf = sp.sqrt(2 * sp.pi) / omega * (mgf_P(s) + mgf_P(-s)) * sp.exp(gamma**2 * s**2 / 2)

# Lemma 2: E[exp(v T^2 / (2 gamma^2))] = C(v) / sqrt(1 - v), v in [0, 1)
orlicz_C = sp.sqrt(2 * sp.pi) / omega * (
    sp.sqrt(1 / v - 1)
    * sp.exp(-(1 / v - 1) * alpha**2 / (2 * gamma**2))
    * (sp.erfi(alpha / (gamma * sp.sqrt(2 * v))) - sp.erfi((1 - v) * alpha / (gamma * sp.sqrt(2 * v))))
    + 2 * Q(sp.sqrt(1 - v) * alpha / gamma)
)

# Lemma 6 / eq 22: FH(alpha, gamma^2) <=_st N(theta, gamma^2), theta = gamma Q^{-1}(sqrt(pi/2)/omega)
theta_stochastic_bound = gamma * _Qinv(sp.sqrt(sp.pi / 2) / omega)


OBJECTS = (
    PaperObject("rho", rho(), "eq 7", "t real, alpha >= 0"),
    PaperObject("density", density, "eq 8", "t real, alpha > 0, gamma > 0"),
    PaperObject("omega", omega, "eq 9", "alpha > 0, gamma > 0 (alpha -> 0 limit: sqrt(2 pi))"),
    PaperObject("kappa", kappa, "Definition 7", "alpha > 0, gamma > 0"),
    PaperObject("psi", psi, "Model 1 (psi = -log g)", "t real"),
    PaperObject("cdf_center", cdf_center, "eq 10", "|t| <= alpha"),
    PaperObject("cdf_tail_upper", cdf_tail_upper, "eq 10", "t > alpha"),
    PaperObject("cdf_tail_lower", cdf_tail_lower, "eq 10", "t < -alpha"),
    PaperObject("ppf_center", ppf_center, None, "1/2 <= q <= 1 - P(T > alpha)", "derived: Appendix B missing"),
    PaperObject("ppf_tail_upper", ppf_tail_upper, None, "q > 1 - P(T > alpha)", "derived: Appendix B missing"),
    PaperObject("variance", variance, "eq 11", "alpha > 0"),
    PaperObject("fisher_information", fisher_information, "eq 12", "alpha > 0"),
    PaperObject("nfi", nfi, "Sec II-D, Fig 2", "alpha > 0"),
    PaperObject("mgf", mgf, "Sec III-B2", "s real"),
    PaperObject("orlicz_C", orlicz_C, "Lemma 2", "0 < v < 1"),
    PaperObject("theta", theta_stochastic_bound, "eq 22 (Lemma 6)", "alpha >= 0"),
)
