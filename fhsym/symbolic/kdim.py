"""K dimensions (A8) and zCDP (A9): the paper's objects of Section IV-B and VI-A as SymPy expressions.

Transcribed from the LaTeX of the paper (Muthukrishnan and Kalyani, arXiv:2212.09657) and the authors'
talk slides ("zCDP of flipped Huber"); ``proofs/kdim/`` checks each one
(symbolic identities where SymPy can close them, high-precision numerics otherwise) and
reports the steps that do not hold as printed.  The numeric versions used by fhsym live in
:mod:`fhsym.accounting.sufficient` and :mod:`fhsym.accounting.zcdp`.

Symbols: ``alpha, gamma`` (FH parameters), ``Delta`` (l_inf sensitivity), ``Delta2``, ``Delta1``
(l_2, l_1 sensitivities), ``K`` (dimension), ``eps``, ``nu``, ``d`` (one coordinate of the
difference vector), ``t``.
"""

from __future__ import annotations

import functools

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



def _lemma5_arg(R: sp.Expr) -> sp.Expr:
    """A of Lemma 5 with R_Delta(alpha) = R."""
    return gamma * eps / Delta2 - Delta2 / (2 * gamma) - K * R / (2 * gamma * Delta2)


def _lemma7_arg(R: sp.Expr, th: sp.Expr) -> sp.Expr:
    """B of Lemma 7 with R_Delta(alpha) = R and theta = th."""
    return gamma * eps / Delta2 + Delta2 / (2 * gamma) + K * R / (2 * gamma * Delta2) + th * Delta1 / (gamma * Delta2)


def _zcdp_xi(R: sp.Expr) -> sp.Expr:
    return K * R / (2 * gamma**2)


_A = _lemma5_arg(R_Delta)
_B = _lemma7_arg(R_Delta, theta)
lemma5_bound = Q(_A)  # Lemma 5: P{zeta^(u)_d(T) >= eps} <= Q(A)
lemma7_bound = Q(_B)  # Lemma 7: P{zeta^(u)_d(T) <= -eps} >= Q(B) (as stated; see proofs/kdim/)
_restriction_bound = (2 * gamma**2 * eps - Delta2**2) / K
theorem8_restriction = sp.Le(R_Delta, _restriction_bound)
theorem8_lhs = Q(_A) - sp.exp(eps) * Q(_B)

# alpha = 0 limit: the exact profile of the Gaussian mechanism with l_2 sensitivity Delta_2 (Balle & Wang)
gaussian_profile_l2 = Q(gamma * eps / Delta2 - Delta2 / (2 * gamma)) - sp.exp(eps) * Q(gamma * eps / Delta2 + Delta2 / (2 * gamma))

# zCDP (slides): 1-D and K-dim parameters
zcdp_xi_1d = R_Delta / (2 * gamma**2)
zcdp_eta_1d = Delta**2 / (2 * gamma**2)
zcdp_xi_kdim = _zcdp_xi(R_Delta)
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


# ----------------------------------------------------------------------------
# Generated numerics (fhsym/_generated/kdim.py): stable kernels, piecewise functions, formulas
# ----------------------------------------------------------------------------
from . import naive as N  # noqa: E402
from .piecewise import Formula, Piece, PiecewiseFunction  # noqa: E402
from .special import log1mexp, log_ndtr, ndtri_exp  # noqa: E402
from .stable import SQRT_PI_2, Kernel, lw  # noqa: E402

b = Dn.b
R = sp.Symbol("R", nonnegative=True)  # the value of R_Delta(alpha)
theta_s = sp.Symbol("theta_std", nonnegative=True)  # theta/gamma
A_ = sp.Symbol("A", real=True)  # the argument of Lemma 5's Q
B_ = sp.Symbol("B", real=True)  # the argument of Lemma 7's Q
# the two pieces of R_Delta, and of its inverse, share their arguments, paper form, naive form and domain
_r_piece = functools.partial(Kernel, args=(alpha, Delta), paper=R_Delta, naive=N.R_Delta,
                             domain={"alpha": (1e-6, 1e4), "Delta": (1e-6, 1e4)})
_r_inverse_piece = functools.partial(Kernel, args=(nu, Delta), paper=R_Delta_inverse, naive=N.R_Delta_inverse,
                                     domain={"nu": (1e-6, 1e4), "Delta": (1e-6, 1e4)})

R_SQUARE = _r_piece(
    name="r_delta_square",
    expr=alpha**2,
    paper_ref="Lemma 5, alpha <= Delta",
    doc="R_Delta(alpha) = alpha^2 for alpha <= Delta.",
    constraint=sp.Le(alpha, Delta),
    region=sp.Le(alpha, Delta),
    stress=((0.5, 1.0), "a typical point of the piece"),
    no_stress="on alpha <= Delta the paper's form is alpha^2 - 0: nothing cancels",
)
R_LINEAR = _r_piece(
    name="r_delta_linear",
    expr=Delta * (2 * alpha - Delta),
    paper_ref="Lemma 5, alpha > Delta (the piece stated below Lemma 5)",
    doc="R_Delta(alpha) = Delta (2 alpha - Delta) for alpha > Delta, without the cancellation of alpha^2 - (alpha - Delta)^2.",
    constraint=sp.Gt(alpha, Delta),
    region=sp.Gt(alpha, Delta),
    stress=((1e12, 1.0), "alpha = 1e12 Delta: alpha^2 - (alpha - Delta)^2 = 1e24 - (1e24 - 2e12 + 1) cancels (ulp of 1e24 ~ 1e8)"),
)
R_INV_SQRT = _r_inverse_piece(
    name="r_delta_inverse_sqrt",
    expr=sp.sqrt(nu),
    paper_ref="eq 21, nu < Delta^2",
    doc="R_Delta^{-1}(nu) = sqrt(nu) for 0 <= nu < Delta^2.",
    constraint=sp.Lt(nu, Delta**2),
    region=sp.Lt(nu, Delta**2),
    stress=((0.25, 1.0), "a typical point of the piece"),
    no_stress="eq 21 is printed in a stable form (a square root)",
)
R_INV_LINEAR = _r_inverse_piece(
    name="r_delta_inverse_linear",
    expr=(nu + Delta**2) / (2 * Delta),
    paper_ref="eq 21, nu >= Delta^2",
    doc="R_Delta^{-1}(nu) = (nu + Delta^2)/(2 Delta) for nu >= Delta^2.",
    constraint=sp.Ge(nu, Delta**2),
    region=sp.Ge(nu, Delta**2),
    stress=((4.0, 1.0), "a typical point of the piece"),
    no_stress="eq 21 is printed in a stable form (a sum of positive terms)",
)
THETA_STD = Kernel(
    name="theta_std",
    args=(b, lw),
    # Prop 1 (omega >= sqrt(2 pi)) makes the Min an identity; it keeps a rounded log p <= log(1/2)
    expr=-ndtri_exp(sp.Min(sp.log(SQRT_PI_2) - lw - b**2 / 2, sp.log(sp.Rational(1, 2)))),
    paper=(theta / gamma).subs(alpha, b * gamma),
    paper_ref="eq 22 (Lemma 6), divided by gamma",
    doc="theta/gamma = Q^{-1}(sqrt(pi/2)/omega) in log space: finite for every b >= 0 (omega overflows above b ~ 37.7).",
    domain={"b": (1e-2, 1e4)},
    naive=N.theta_std,
    stress=((40.0,), "b = 40: omega = inf, Q^{-1}(0) = inf"),
)
_r8 = eps + log_ndtr(-B_) - log_ndtr(-A_)  # log(e^eps Q(B)/Q(A))
LOG_THEOREM8 = Kernel(
    name="log_theorem8_lhs_positive",
    args=(A_, B_, eps),
    expr=log_ndtr(-A_) + log1mexp(-_r8),
    paper=sp.log(Q(A_) - sp.exp(eps) * Q(B_)),
    paper_ref="Theorem 8 (left-hand side Q(A) - e^eps Q(B)), in log space",
    doc="log(Q(A) - e^eps Q(B)) = log Q(A) + log(1 - e^r), r = eps + log Q(B) - log Q(A) < 0, without "
    "cancellation on either side of r = -log 2.",
    domain={"A": (-5.0, 40.0), "B": (-5.0, 45.0), "epsilon": (0.0, 20.0)},
    constraint=sp.Lt(_r8, 0),
    region=sp.Lt(_r8, 0),
    naive=N.log_theorem8_lhs,
    stress=((40.0, 41.0, 1.0), "A = 40: Q(A) ~ 4e-350 underflows to 0, log(0 - ...) = -inf"),
)
KDIM_KERNELS = (R_SQUARE, R_LINEAR, R_INV_SQRT, R_INV_LINEAR, THETA_STD, LOG_THEOREM8)

R_DELTA_FN = PiecewiseFunction(
    name="R_Delta",
    args=(alpha, Delta),
    pieces=(Piece(R_SQUARE), Piece(R_LINEAR)),
    doc="R_Delta(alpha) = alpha^2 - [alpha - Delta]_+^2 by piece, without cancellation.",
    paper_ref="Lemma 5",
)
R_DELTA_INVERSE_FN = PiecewiseFunction(
    name="R_Delta_inverse",
    args=(nu, Delta),
    pieces=(Piece(R_INV_SQRT), Piece(R_INV_LINEAR)),
    doc="The inverse of R_Delta on nu >= 0.",
    paper_ref="eq 21",
    ignore=("invalid",),
)
LOG_THEOREM8_FN = PiecewiseFunction(
    name="log_theorem8_lhs",
    args=(A_, B_, eps),
    pieces=(Piece(LOG_THEOREM8), Piece(value=-sp.oo, region=sp.Ge(_r8, 0))),
    doc="log of Theorem 8's left-hand side Q(A) - e^eps Q(B); -inf where it is <= 0.",
    paper_ref="Theorem 8",
    ignore=("divide",),
)
LEMMA5_ARG = Formula(
    name="lemma5_arg", args=(eps, gamma, K, R, Delta2), exprs=(_lemma5_arg(R),),
    doc="A = gamma eps/Delta_2 - Delta_2/(2 gamma) - K R/(2 gamma Delta_2), Lemma 5's bound being Q(A).",
    paper_ref="Lemma 5",
)
LEMMA7_ARG = Formula(
    name="lemma7_arg", args=(eps, gamma, K, R, Delta2, Delta1, theta_s), exprs=(_lemma7_arg(R, gamma * theta_s),),
    doc="B = gamma eps/Delta_2 + Delta_2/(2 gamma) + K R/(2 gamma Delta_2) + theta Delta_1/(gamma Delta_2), "
    "Lemma 7's bound being Q(B) (theta = gamma theta_std).",
    paper_ref="Lemma 7",
)
RESTRICTION_BOUND = Formula(
    name="restriction_bound", args=(eps, gamma, K, Delta2), exprs=(_restriction_bound,),
    doc="(2 gamma^2 eps - Delta_2^2)/K: Theorem 8 applies when R_Delta(alpha) <= this bound.",
    paper_ref="Lemma 5 / Theorem 8 (parameter restriction)",
)
ZCDP_XI = Formula(
    name="zcdp_xi", args=(K, R, gamma), exprs=(_zcdp_xi(R),),
    doc="xi = K R/(2 gamma^2) with R = R_Delta(alpha) (K = 1: the 1-D theorem).",
    paper_ref="slides: zCDP of FH; Sec VI-A",
)
ZCDP_ETA = Formula(
    name="zcdp_eta", args=(Delta2, gamma), exprs=(zcdp_eta_kdim,),
    doc="eta = Delta_2^2/(2 gamma^2) (K = 1: Delta^2/(2 gamma^2)).",
    paper_ref="slides: zCDP of FH; Sec VI-A",
)
KDIM_FUNCTIONS = (R_DELTA_FN, R_DELTA_INVERSE_FN, LOG_THEOREM8_FN, LEMMA5_ARG, LEMMA7_ARG, RESTRICTION_BOUND, ZCDP_XI, ZCDP_ETA)
