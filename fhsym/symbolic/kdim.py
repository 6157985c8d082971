"""K dimensions (A8) and zCDP (A9): the paper's objects of Section IV-B and VI-A as SymPy expressions.

Transcribed from the LaTeX of the paper (``shared/seeds/004_...txt``) and the talk slides
(``shared/seeds/000_...txt``, "zCDP of flipped Huber"); ``proofs/kdim.py`` checks each one
(symbolic identities where SymPy can close them, high-precision numerics otherwise) and
reports the steps that do not hold as printed.  The numeric versions used by fhsym live in
:mod:`fhsym.kdim.sufficient` and :mod:`fhsym.kdim.zcdp`.

Symbols: ``alpha, gamma`` (FH parameters), ``Delta`` (l_inf sensitivity), ``Delta2``, ``Delta1``
(l_2, l_1 sensitivities), ``K`` (dimension), ``eps``, ``nu``, ``d`` (one coordinate of the
difference vector), ``t``.
"""

from __future__ import annotations

import sympy as sp

from . import definitions as Dn
from . import privacy as _P
from .definitions import PaperObject
from .special import Q

__all__ = [
    "alpha", "gamma", "Delta", "Delta2", "Delta1", "K", "eps", "nu", "d", "t", "Lam",
    "R_Delta", "R_Delta_pieces", "R_Delta_inverse", "theta",
    "zeta_u_coordinate", "zeta_u_kdim_constant", "lemma5_bound", "lemma7_bound", "theorem8_lhs",
    "theorem8_restriction", "gaussian_profile_l2",
    "zcdp_xi_1d", "zcdp_eta_1d", "zcdp_xi_kdim", "zcdp_eta_kdim", "OBJECTS",
]

alpha, gamma = Dn.alpha, Dn.gamma
t = Dn.t
Delta = _P.Delta
Delta2 = sp.Symbol("Delta_2", positive=True)
Delta1 = sp.Symbol("Delta_1", positive=True)
K = sp.Symbol("K", positive=True, integer=True)
eps = sp.Symbol("epsilon", positive=True)
nu = sp.Symbol("nu", nonnegative=True)
d = sp.Symbol("d", positive=True)  # |d_i| (the noise is symmetric, so only |d_i| matters)
Lam = sp.Symbol("Lambda", positive=True)  # Renyi order (> 1)

# Lemma 5: R_Delta(alpha) = alpha^2 - ([alpha - Delta]_+)^2, defined once in fhsym.symbolic.privacy (eq 18)
R_Delta = _P.R_Delta
# the two pieces stated below Lemma 5
R_Delta_pieces = sp.Piecewise((alpha**2, alpha < Delta), (2 * alpha * Delta - Delta**2, True))
# eq 21: the inverse on nu >= 0
R_Delta_inverse = sp.Piecewise((sp.sqrt(nu), nu < Delta**2), ((nu + Delta**2) / (2 * Delta), True))

# eq 22 (Lemma 6): theta = gamma Q^{-1}(sqrt(pi/2)/omega)
theta = Dn.theta_stochastic_bound

# eq 18, per coordinate: zeta_{d}(t) <= t d/gamma^2 + d^2/(2 gamma^2) + R_{|d|}(alpha)/(2 gamma^2)
# (Appendix C-1: the line of slope d/gamma^2 through the ridge of zeta~_d, shifted by d/2)
zeta_u_coordinate = t * d / gamma**2 + d**2 / (2 * gamma**2) + (alpha**2 - sp.Max(alpha - d, 0) ** 2) / (2 * gamma**2)
# eq 18, K dims: zeta^(u)_d(t) = t.d/gamma^2 + ||d||^2/(2 gamma^2) + K R_Delta(alpha)/(2 gamma^2); its constant part
zeta_u_kdim_constant = K * R_Delta / (2 * gamma**2)

_A = gamma * eps / Delta2 - Delta2 / (2 * gamma) - K * R_Delta / (2 * gamma * Delta2)
_B = gamma * eps / Delta2 + Delta2 / (2 * gamma) + K * R_Delta / (2 * gamma * Delta2) + theta * Delta1 / (gamma * Delta2)
lemma5_bound = Q(_A)  # Lemma 5: P{zeta^(u)_d(T) >= eps} <= Q(A)
lemma7_bound = Q(_B)  # Lemma 7: P{zeta^(u)_d(T) <= -eps} >= Q(B) (as stated; see proofs/kdim.py)
theorem8_restriction = sp.Le(R_Delta, (2 * gamma**2 * eps - Delta2**2) / K)
theorem8_lhs = Q(_A) - sp.exp(eps) * Q(_B)

# alpha = 0 limit: the exact profile of the Gaussian mechanism with l_2 sensitivity Delta_2 (Balle & Wang)
gaussian_profile_l2 = Q(gamma * eps / Delta2 - Delta2 / (2 * gamma)) - sp.exp(eps) * Q(gamma * eps / Delta2 + Delta2 / (2 * gamma))

# zCDP (slides): 1-D and K-dim parameters
zcdp_xi_1d = R_Delta / (2 * gamma**2)
zcdp_eta_1d = Delta**2 / (2 * gamma**2)
zcdp_xi_kdim = K * R_Delta / (2 * gamma**2)
zcdp_eta_kdim = Delta2**2 / (2 * gamma**2)

OBJECTS = (
    PaperObject("R_Delta", R_Delta, "Lemma 5", "alpha >= 0, Delta > 0"),
    PaperObject("R_Delta_inverse", R_Delta_inverse, "eq 21", "nu >= 0"),
    PaperObject("theta", theta, "eq 22 (Lemma 6)", "alpha >= 0"),
    PaperObject("zeta_u", zeta_u_coordinate, "eq 18 (Appendix C-1)", "|d| <= Delta, t real"),
    PaperObject("lemma5_bound", lemma5_bound, "Lemma 5", "R_Delta(alpha) <= (2 gamma^2 eps - Delta_2^2)/K"),
    PaperObject("lemma7_bound", lemma7_bound, "Lemma 7", "as stated: every d with ||d||_2 <= Delta_2, ||d||_1 <= Delta_1"),
    PaperObject("theorem8_lhs", theorem8_lhs, "Theorem 8", "restriction R_Delta(alpha) <= (2 gamma^2 eps - Delta_2^2)/K"),
    PaperObject("zcdp_1d", sp.Tuple(zcdp_xi_1d, zcdp_eta_1d), "slides: zCDP of FH", "sensitivity Delta"),
    PaperObject("zcdp_kdim", sp.Tuple(zcdp_xi_kdim, zcdp_eta_kdim), "slides / Sec VI-A", "i.i.d. coordinates, l_2 sensitivity Delta_2"),
)
