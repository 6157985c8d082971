"""Privacy of the 1-D flipped Huber mechanism: the paper's objects and their stable forms (A6, A7).

Paper objects (Sec II-C1, Sec IV-A, Theorem 3, Appendix C — which is missing from
the text and is re-derived in ``proofs/privacy_profile.py``):

* privacy loss          zeta_d(t)  = psi(t + d) - psi(t)                    (Sec II-C1)
* centred privacy loss  zeta~_d(t) = psi(t + d/2) - psi(t - d/2)            (Sec II-C1)
* its ridge (d/2, (alpha^2 + d^2 - [alpha - |d|]_+^2)/(2 gamma^2)) and the affine
  upper bound zeta~^(u)_d(t) = t d/gamma^2 + (alpha^2 - [alpha - Delta]_+^2)/(2 gamma^2)
  (Appendix C-1)
* the right-continuous partial inverse zeta~_Delta^{-1}                     (eq 15)
* the intervals of Table I and the five cases of the privacy profile
  delta^(1)(eps) = G(t1) - e^eps G(t2), t1,2 = zeta~^{-1}(eps) -+ Delta/2    (eq 13, 16)

Every kernel below is in standard units: b = alpha/gamma, D = Delta/gamma (the
loss is scale free: zeta_{d}(t; alpha, gamma) = zeta_{d/gamma}(t/gamma; b, 1)),
lw = log(kappa/gamma) as in :mod:`fhsym.symbolic.stable`.

Stable forms.  Writing S(x) = int_x^inf exp(-rho_b(s)) ds (so P(T > gamma x) = S(x) e^{-lw}):

* S(x) = e^{-bx}/b - tau for 0 <= x <= b and 2/b - e^{bx}/b - tau for -b <= x <= 0,
  with the tail deficit tau = e^{-b^2}/b - sqrt(pi/2) erfcx(b/sqrt2) e^{-b^2} >= 0;
* case (ii):  delta e^{lw} = (2/b)(1 - e^{(eps - bD)/2}) + (e^eps - 1) tau, two
  non-negative terms (the paper's form subtracts terms of size e^eps);
* cases (i), (v): the Gaussian-tail pieces are multiples of
  H(x, D) = Q(x) - e^{Dx + D^2/2} Q(x + D) (node ``gauss_profile``), and
  1 - sqrt(2 pi)/omega = 2 J(b) e^{-lw} with
  J(b) = int_0^b e^{-b s}(1 - e^{-(b - s)^2/2}) ds = b exprel(-b^2) - sqrt(pi/2) e^{-b^2/2} erf(b/sqrt2) >= 0;
* cases (iii), (iv): the integral split at 0 and b into pieces CT-, CT+, TT, each >= 0
  and computed without cancellation beyond a factor ~b^2 (CT+), summed in log space.
"""

from __future__ import annotations

from typing import Tuple, Union

import numpy as np
import sympy as sp
from sympy.codegen.cfunctions import expm1

from . import definitions as D
from . import naive as N
from .definitions import PaperObject, rho
from .special import Q, abs_sum_sub, erfcx, erfcx_diff, exprel, gauss_profile, log_gauss_profile, logaddexp, sub_prod
from .stable import SQRT_PI_2, Kernel, lw

__all__ = [
    "d", "Delta", "eps", "Dn",
    "zeta", "zeta_centered", "ridge", "R_Delta", "zeta_centered_upper",
    "zeta_centered_inverse", "J_inverse_helper", "nu1", "nu2",
    "TABLE_I", "TABLE_I_STD", "E3_STD", "NU1_STD", "NU2_STD", "DELTA_CASES", "PROFILE_KERNELS", "LOSS_KERNELS", "OBJECTS",
]

t, alpha, gamma, b = D.t, D.alpha, D.gamma, D.b
s = D.s
d = sp.Symbol("d", real=True)  # difference of the true responses
Delta = sp.Symbol("Delta", positive=True)  # sensitivity
eps = sp.Symbol("epsilon", nonnegative=True)
Dn = sp.Symbol("D", positive=True)  # Delta / gamma
nu = sp.Symbol("nu", real=True)

# ----------------------------------------------------------------------------
# Paper objects
# ----------------------------------------------------------------------------
zeta = (rho(t + d) - rho(t)) / gamma**2  # psi(t + d) - psi(t); log kappa cancels
zeta_centered = (rho(t + d / 2) - rho(t - d / 2)) / gamma**2


def _pos(x: sp.Expr) -> sp.Expr:
    return sp.Max(x, 0)


ridge = (d / 2, (alpha**2 + d**2 - _pos(alpha - sp.Abs(d)) ** 2) / (2 * gamma**2))  # Appendix C-1
R_Delta = alpha**2 - _pos(alpha - Delta) ** 2  # Lemma 5 / eq 18
zeta_centered_upper = t * d / gamma**2 + R_Delta / (2 * gamma**2)  # Appendix C-1, zeta~^(u)

nu1 = (_pos(Delta - alpha) ** 2 + 2 * alpha * Delta) / (2 * gamma**2)
nu2 = (Delta + 2 * alpha) * Delta / (2 * gamma**2)


def J_inverse_helper(v: sp.Expr, a: sp.Expr) -> sp.Expr:
    """J_{Delta,gamma}(nu, a) = sgn(nu)(sqrt(2(gamma^2|nu| + a Delta)) - Delta/2 - a) (below eq 15)."""
    return sp.sign(v) * (sp.sqrt(2 * (gamma**2 * sp.Abs(v) + a * Delta)) - Delta / 2 - a)


# eq 15, as printed (each branch keyed by the range of |nu| the paper gives)
zeta_centered_inverse = sp.Piecewise(
    (gamma**2 * nu / (2 * alpha), sp.Abs(nu) < sp.Min(2 * alpha - Delta, Delta) * alpha / gamma**2),
    (J_inverse_helper(nu, alpha), (sp.Abs(nu) >= (sp.Max(2 * alpha, Delta) ** 2 - 2 * alpha * Delta) / (2 * gamma**2)) & (sp.Abs(nu) < nu1)),
    (J_inverse_helper(nu, -alpha), (sp.Abs(nu) >= nu1) & (sp.Abs(nu) < nu2)),
    (gamma**2 * nu / Delta, True),
)

# Table I: (case, eps range [lo, hi), non-empty only when, t1, t2)
_E = sp.exp(eps)
_c = sp.sqrt(2 * sp.pi) / D.omega  # tail weight sqrt(2 pi)/omega
_g = gamma
_a = alpha
_sq_plus = sp.sqrt(2 * (_g**2 * eps + _a * Delta))
_sq_minus = sp.sqrt(2 * (_g**2 * eps - _a * Delta))
TABLE_I = (
    ("i", 0, (Delta - 2 * _a) * Delta / (2 * _g**2), sp.Lt(_a, Delta / 2),
     _g**2 * eps / Delta - Delta / 2, _g**2 * eps / Delta + Delta / 2),
    ("ii", 0, sp.Min(2 * _a - Delta, Delta) * _a / _g**2, sp.Gt(_a, Delta / 2),
     _g**2 * eps / (2 * _a) - Delta / 2, _g**2 * eps / (2 * _a) + Delta / 2),
    ("iii", (sp.Max(2 * _a, Delta) ** 2 - 2 * _a * Delta) / (2 * _g**2), nu1, sp.Lt(_a, Delta),
     -_a + _sq_plus - Delta, _sq_plus - _a),
    ("iv", nu1, nu2, sp.true, _a + _sq_minus - Delta, _sq_minus + _a),
    ("v", nu2, sp.oo, sp.true, _g**2 * eps / Delta - Delta / 2, _g**2 * eps / Delta + Delta / 2),
)

# eq 13, case by case, as printed
_ea = sp.exp(_a**2 / (2 * _g**2))
DELTA_CASES = {
    "i": (1 - _c) + _c * (Q(_g * eps / Delta - Delta / (2 * _g)) - _E * Q(_g * eps / Delta + Delta / (2 * _g))),
    "ii": (1 - _E) / 2 + _g / (_a * D.omega) * _ea * (1 + _E - 2 * sp.exp(eps / 2 - _a * Delta / (2 * _g**2))),
    "iii": sp.Rational(1, 2)
    + _g / (_a * D.omega) * _ea * (1 - sp.exp(_a / _g**2 * (-_a + _sq_plus - Delta)))
    - _E * _c * Q((_sq_plus - _a) / _g),
    "iv": sp.Rational(1, 2)
    - _g / (_a * D.omega) * _ea * (1 - sp.exp(_a / _g**2 * (-_a - _sq_minus + Delta)))
    - _E * _c * Q((_sq_minus + _a) / _g),
    "v": _c * (Q(_g * eps / Delta - Delta / (2 * _g)) - _E * Q(_g * eps / Delta + Delta / (2 * _g))),
}


def _std(expr: sp.Expr) -> sp.Expr:
    """Paper expression -> standard units: alpha = b gamma, Delta = D gamma, gamma = 1; omega via lw."""
    e = expr.subs({alpha: b * gamma, Delta: Dn * gamma}).subs(gamma, 1)
    return e


# ----------------------------------------------------------------------------
# Region dispatch of the profile: Table I in standard units, tested on exact quantities
# ----------------------------------------------------------------------------
# The boundaries nu1, nu2 are tested on eps - bD computed error-free (node sub_prod, the quantity
# the kernels take the square root of), so a case and its formula never disagree about which side
# of eps = bD a point lies; e3 (the lower end of case (iii)) is Table I's, in standard units.
TABLE_I_STD = tuple((row[0], *(_std(sp.sympify(x)) for x in row[1:4])) for row in TABLE_I)
E3_STD, NU1_STD, NU2_STD = (TABLE_I_STD[i][1] for i in (2, 3, 4))
_edb_region = sub_prod(eps, b, Dn)
_in_v = sp.Ge(_edb_region, Dn**2 / 2)  # eps >= nu2
_in_iv_up = sp.Ge(_edb_region, sp.Max(Dn - b, 0) ** 2 / 2)  # eps >= nu1
_in_iii_up = sp.Ge(eps, E3_STD)
_low = sp.And(~_in_v, ~_in_iv_up, ~_in_iii_up)
REGION_V = _in_v
REGION_IV = sp.And(~_in_v, _in_iv_up)
REGION_III = sp.And(~_in_v, ~_in_iv_up, _in_iii_up)
REGION_I = sp.And(_low, sp.Gt(Dn, 2 * b))
REGION_II = sp.And(_low, sp.Le(Dn, 2 * b))

# ----------------------------------------------------------------------------
# Stable kernels of the profile (standard units)
# ----------------------------------------------------------------------------
_deficit_factor = 1 - b * SQRT_PI_2 * erfcx(b / sp.sqrt(2))  # M(b) = 1 - b Mills(b) >= 0
_J = b * exprel(-(b**2)) - SQRT_PI_2 * sp.exp(-(b**2) / 2) * sp.erf(b / sp.sqrt(2))
_x_lin = eps / Dn - Dn / 2  # t1 of cases (i) and (v)
_edb = sub_prod(eps, b, Dn)  # eps - bD, error-free: delta ~ (bD - eps)/2 near eps = bD
_r2 = sp.sqrt(2)


def _log_tt(eta_b: sp.Expr) -> sp.Expr:
    """log of TT = int_b^inf [G(s) - e^eps G(s + D)] ds, the Gaussian-tail piece, for eta_b = zeta(b) - eps >= 0.

    TT = sqrt(pi/2) e^{-b^2} [erfcx_diff(b/sqrt2, D/sqrt2) + (1 - e^{-eta_b}) erfcx((b + D)/sqrt2)],
    two non-negative terms (G = exp(-rho_b), zeta(b) = bD + D^2/2).
    """
    return sp.log(SQRT_PI_2) - b**2 + sp.log(
        erfcx_diff(b / _r2, Dn / _r2) + (-expm1(-eta_b)) * erfcx((b + Dn) / _r2)
    )


_eta_b = Dn**2 / 2 - _edb  # zeta(b) - eps = bD + D^2/2 - eps >= 0 in cases (iii), (iv)


def _gauss_segment(y1: sp.Expr, w: sp.Expr, c: sp.Expr) -> sp.Expr:
    """erfcx(y1) - e^{-c} erfcx(y1 + w) for w, c >= 0 as two non-negative terms."""
    return erfcx_diff(y1, w) + erfcx(y1 + w) * (-expm1(-c))


# Case (iv): t1 = s1 in [0, b), t2 = s2 = b + sqrt(2(eps - bD)) >= b, W = b - s1 = b + D - s2.
# CT+ = int_{s1}^b [e^{-bs} - e^eps G(s + D)] ds = e^{-b s1} [W exprel(-bW)
#        - sqrt(pi/2) (erfcx(s2/sqrt2) - e^{-W(b + D + s2)/2} erfcx((b + D)/sqrt2))]   (>= 0)
_s2_iv = b + sp.sqrt(2 * _edb)
_s1_iv = _s2_iv - Dn
_W_iv = b + Dn - _s2_iv
_inner_iv = _W_iv * exprel(-b * _W_iv) - SQRT_PI_2 * _gauss_segment(_s2_iv / _r2, _W_iv / _r2, _W_iv * (b + Dn + _s2_iv) / 2)
_log_ct_plus_iv = -b * _s1_iv + sp.log(sp.Max(_inner_iv, 0))

# Case (iii): t1 = s1 in [-b, 0), t2 = s2 = sqrt(2(eps + bD)) - b >= b, |s1| = D - s2.
# CT- = int_{s1}^0 [e^{bs} - e^eps G(s + D)] ds = e^{b s1} [|s1| exprel(b|s1|)
#        - sqrt(pi/2) (erfcx(s2/sqrt2) - e^{-|s1|(D + s2)/2} erfcx(D/sqrt2))]
# CT+ = int_0^b [e^{-bs} - e^eps G(s + D)] ds = b exprel(-b^2)
#        - e^{eps - (b^2 + D^2)/2} sqrt(pi/2) (erfcx(D/sqrt2) - e^{-b(b + 2D)/2} erfcx((b + D)/sqrt2))
_s2_iii = sp.sqrt(2 * (eps + b * Dn)) - b
_a1_iii = Dn - _s2_iii  # |s1|
_inner_minus_iii = _a1_iii * exprel(b * _a1_iii) - SQRT_PI_2 * _gauss_segment(_s2_iii / _r2, _a1_iii / _r2, _a1_iii * (Dn + _s2_iii) / 2)
_log_ct_minus_iii = -b * _a1_iii + sp.log(sp.Max(_inner_minus_iii, 0))
_ct_plus_iii = b * exprel(-(b**2)) - sp.exp(eps - (b**2 + Dn**2) / 2) * SQRT_PI_2 * _gauss_segment(Dn / _r2, b / _r2, b * (b + 2 * Dn) / 2)
_log_ct_plus_iii = sp.log(sp.Max(_ct_plus_iii, 0))

_dom = {"b": (1e-3, 20.0), "D": (1e-3, 20.0), "epsilon": (0.0, 50.0)}

PROFILE_I = Kernel(
    name="profile_case_i",
    args=(b, Dn, eps, lw),
    expr=(2 * _J + sp.sqrt(2 * sp.pi) * sp.exp(-(b**2) / 2) * gauss_profile(_x_lin, Dn)) * sp.exp(-lw),
    paper=_std(DELTA_CASES["i"]),
    paper_ref="eq 13, case (i): 0 <= eps < (Delta - 2 alpha) Delta/(2 gamma^2), alpha < Delta/2",
    doc="delta(eps) in case (i) as 2J(b) e^{-lw} (= 1 - sqrt(2 pi)/omega) plus the Gaussian term; both >= 0.",
    domain=_dom,
    constraint=sp.And(sp.Lt(b, Dn / 2), sp.Lt(eps, (Dn - 2 * b) * Dn / 2)),
    region=REGION_I,
    naive=N.profile_case_i,
    stress=((2.0**-50, 2.0**-40, 0.0), "tiny Delta/gamma = 2^-40: Q(x) - e^eps Q(x + D) cancels (delta ~ 4e-13)"),
)

PROFILE_II = Kernel(
    name="profile_case_ii",
    args=(b, Dn, eps, lw),
    # (e^eps - 1) tau written as e^{eps - b^2} (1 - e^{-eps}) M(b)/b: eps < b^2 in case (ii), so no overflow
    expr=((2 / b) * (-expm1(_edb / 2)) + sp.exp(eps - b**2) * (-expm1(-eps)) * _deficit_factor / b) * sp.exp(-lw),
    paper=_std(DELTA_CASES["ii"]),
    paper_ref="eq 13, case (ii): 0 <= eps < ((2 alpha - Delta) ^ Delta) alpha/gamma^2, alpha > Delta/2",
    doc="delta(eps) in case (ii) as (2/b)(1 - e^{(eps - bD)/2}) + (e^eps - 1) tau, two non-negative terms.",
    domain=_dom,
    constraint=sp.And(sp.Gt(b, Dn / 2), sp.Lt(eps, sp.Min(2 * b - Dn, Dn) * b)),
    region=REGION_II,
    naive=N.profile_case_ii,
    stress=(
        (30.0, 1.0, 30.0 - 2.0**-20),
        "eps = alpha Delta/gamma^2 - 2^-20 with e^eps ~ 1e13: (1 - e^eps)/2 + ... cancels to delta ~ 5e-7",
    ),
)

LOG_PROFILE_III = Kernel(
    name="log_profile_case_iii",
    args=(b, Dn, eps, lw),
    expr=logaddexp(logaddexp(_log_ct_minus_iii, _log_ct_plus_iii), _log_tt(_eta_b)) - lw,
    paper=sp.log(_std(DELTA_CASES["iii"])),
    paper_ref="eq 13, case (iii): (2alpha v Delta)^2 - 2 alpha Delta <= 2 gamma^2 eps < [Delta - alpha]_+^2 + 2 alpha Delta, alpha < Delta",
    doc="log delta(eps) in case (iii), t1 in [-alpha, 0), t2 >= alpha, as log(CT- + CT+ + TT): three non-negative pieces of int [g(t) - e^eps g(t + Delta)]_+.",
    domain=_dom,
    constraint=sp.And(sp.Lt(b, Dn), sp.Ge(eps, (sp.Max(2 * b, Dn) ** 2 - 2 * b * Dn) / 2), sp.Lt(eps, (sp.Max(Dn - b, 0) ** 2 + 2 * b * Dn) / 2)),
    region=REGION_III,
    naive=lambda b, D, e: np.log(N.profile_case_iii(b, D, e)),
    stress=(
        (2.0**-40, 2.0**-33, 2.0**-67),
        "tiny alpha/gamma and Delta/gamma: 1 - exp(b t1) rounds to 0 and 1/2 + ... - e^eps c Q cancels (delta ~ 5e-11)",
    ),
)

LOG_PROFILE_IV = Kernel(
    name="log_profile_case_iv",
    args=(b, Dn, eps, lw),
    expr=logaddexp(_log_ct_plus_iv, _log_tt(_eta_b)) - lw,
    paper=sp.log(_std(DELTA_CASES["iv"])),
    paper_ref="eq 13, case (iv): [Delta - alpha]_+^2 + 2 alpha Delta <= 2 gamma^2 eps < (Delta + 2 alpha) Delta",
    doc="log delta(eps) in case (iv), t1 in [0, alpha), t2 >= alpha, as log(CT+ + TT): two non-negative pieces of int [g(t) - e^eps g(t + Delta)]_+.",
    domain=_dom,
    constraint=sp.And(sp.Ge(eps, (sp.Max(Dn - b, 0) ** 2 + 2 * b * Dn) / 2), sp.Lt(eps, (Dn + 2 * b) * Dn / 2)),
    region=REGION_IV,
    naive=lambda b, D, e: np.log(N.profile_case_iv(b, D, e)),
    stress=((40.0, 1.0, 40.25), "large alpha/gamma = 40: sinh(b^2/2) = sinh(800) overflows, omega = inf"),
)

LOG_PROFILE_V = Kernel(
    name="log_profile_case_v",
    args=(b, Dn, eps, lw),
    expr=sp.log(2 * sp.pi) / 2 - b**2 / 2 + log_gauss_profile(_x_lin, Dn) - lw,
    paper=sp.log(_std(DELTA_CASES["v"])),
    paper_ref="eq 13, case (v): eps >= (Delta + 2 alpha) Delta/(2 gamma^2)",
    doc="log delta(eps) in case (v) = log(sqrt(2 pi)/omega) + log H(eps/D - D/2, D); finite far into the tail.",
    domain=_dom,
    constraint=sp.Ge(eps, (Dn + 2 * b) * Dn / 2),
    region=REGION_V,
    naive=lambda b, D, e: np.log(N.profile_case_v(b, D, e)),
    stress=((1.0, 1e-11, 2e-11 + 1e-22), "tiny Delta/gamma = 1e-11: Q(x) - e^eps Q(x + D) cancels (delta ~ 7e-14)"),
)

PROFILE_KERNELS = (PROFILE_I, PROFILE_II, LOG_PROFILE_III, LOG_PROFILE_IV, LOG_PROFILE_V)

# ----------------------------------------------------------------------------
# Privacy loss zeta_D(s) = rho_b(s + D) - rho_b(s), D > 0, by regime of (s, s + D)
# ----------------------------------------------------------------------------
_u = s + Dn
# regime of s and of u = s + D, decided on |s| - b and on |s + D| - b from the exact sum (node
# abs_sum_sub, the quantity the mixed-regime kernels use)
_cs = sp.Le(sp.Abs(s) - b, 0)  # s in the Laplace centre
_cu = sp.Le(abs_sum_sub(s, Dn, b), 0)  # s + D in the Laplace centre
LOSS_CENTER_SAME = Kernel(
    name="loss_center_same_sign",
    args=(b, Dn, s),
    expr=b * Dn * sp.sign(s + Dn / 2),
    paper=rho(s + Dn, b) - rho(s, b),
    paper_ref="Sec II-C1, zeta_d with t and t + d in [-alpha, alpha], same sign",
    doc="+-b D: both points in the Laplace centre on the same side of 0 (flat part of the loss).",
    domain={"b": (1e-2, 10.0), "D": (1e-3, 10.0), "s": (-10.0, 10.0)},
    constraint=sp.And(sp.Ge(s, -b), sp.Le(_u, b), sp.Ge(s * _u, 0)),
    region=sp.And(_cs, _cu, sp.Ge(s * _u, 0)),
    naive=N.privacy_loss,
    stress=((10.0, 1e-12, 5.0), "s = 5, D = 1e-12: b(s + D) - b s loses D to rounding of s + D"),
)
LOSS_CENTER_CROSS = Kernel(
    name="loss_center_cross",
    args=(b, Dn, s),
    expr=b * (2 * s + Dn),
    paper=rho(s + Dn, b) - rho(s, b),
    paper_ref="Sec II-C1, zeta_d with t < 0 < t + d in [-alpha, alpha]",
    doc="b(2s + D): both points in the Laplace centre on opposite sides of 0.",
    domain={"b": (1e-2, 10.0), "D": (1e-3, 10.0), "s": (-10.0, 10.0)},
    constraint=sp.And(sp.Ge(s, -b), sp.Le(_u, b), sp.Lt(s, 0), sp.Gt(_u, 0)),
    region=sp.And(_cs, _cu, sp.Lt(s * _u, 0)),
    naive=N.privacy_loss,
    stress=((0.7, 0.7, -0.35 + 1e-12), "s + D/2 = 1e-12: b(s + D) - b|s| cancels (b(2s + D) does not)"),
)
LOSS_TAIL_TAIL = Kernel(
    name="loss_tail_tail",
    args=(b, Dn, s),
    expr=Dn * (s + Dn / 2),
    paper=rho(s + Dn, b) - rho(s, b),
    paper_ref="Sec II-C1, zeta_d with t and t + d both in the Gaussian tails (linear, as for the Gaussian)",
    doc="D(s + D/2): both points in the Gaussian tails (either side).",
    domain={"b": (1e-2, 10.0), "D": (1e-3, 30.0), "s": (-30.0, 30.0)},
    constraint=sp.And(sp.Gt(sp.Abs(s), b), sp.Gt(sp.Abs(_u), b)),
    region=sp.And(~_cs, ~_cu),
    naive=N.privacy_loss,
    stress=((1.0, 3.3e-7, 1234567.891), "s = 1.2e6, D = 3.3e-7: ((s + D)^2 - s^2)/2 cancels (s^2 = 1.5e12)"),
)
# The two mixed regimes are written in the offsets from the kink, |s| - b and uo = |s + D| - b
# (node abs_sum_sub: the sum s + D is taken error-free): then they have no cancellation even when
# s or s + D sits next to +-b, where the printed branch loses ~log10(b/D) digits.
_uo = abs_sum_sub(s, Dn, b)
_so = sp.Abs(s) - b
LOSS_CENTER_TAIL = Kernel(
    name="loss_center_tail",
    args=(b, Dn, s),
    expr=_uo * (_uo + 2 * b) / 2 - b * _so,
    paper=rho(s + Dn, b) - rho(s, b),
    paper_ref="Sec II-C1, zeta_d with t in the Laplace centre and t + d in the right Gaussian tail",
    doc="((s + D)^2 + b^2)/2 - b|s| = uo (uo + 2b)/2 - b(|s| - b), uo = |s + D| - b: two terms >= 0 (s in [-b, b], s + D > b).",
    domain={"b": (1e-2, 10.0), "D": (1e-3, 30.0), "s": (-10.0, 10.0)},
    constraint=sp.And(sp.Le(sp.Abs(s), b), sp.Gt(_u, b)),
    region=sp.And(_cs, ~_cu),
    naive=N.privacy_loss,
    stress=((1.0, 1e-12, 1.0), "s = b = 1, D = 1e-12: ((s + D)^2 + b^2)/2 - b|s| loses ~log10(b/D) digits to the rounding of s + D"),
)
LOSS_TAIL_CENTER = Kernel(
    name="loss_tail_center",
    args=(b, Dn, s),
    expr=-(_so * (_so + 2 * b) / 2 - b * _uo),
    paper=rho(s + Dn, b) - rho(s, b),
    paper_ref="Sec II-C1, zeta_d with t in the left Gaussian tail and t + d in the Laplace centre",
    doc="b|s + D| - (s^2 + b^2)/2 = -[(|s| - b)(|s| + b)/2 - b uo], uo = |s + D| - b: two terms >= 0 inside (s < -b, |s + D| <= b).",
    domain={"b": (1e-2, 10.0), "D": (1e-3, 30.0), "s": (-40.0, 0.0)},
    constraint=sp.And(sp.Lt(s, -b), sp.Le(sp.Abs(_u), b)),
    region=sp.And(~_cs, _cu),
    naive=N.privacy_loss,
    stress=((1.0, 2e-12, -1.0 - 1e-12), "s = -b - 1e-12, D = 2e-12: b|s + D| - (s^2 + b^2)/2 loses ~log10(b/D) digits"),
)

LOSS_KERNELS = (LOSS_CENTER_SAME, LOSS_CENTER_CROSS, LOSS_TAIL_TAIL, LOSS_CENTER_TAIL, LOSS_TAIL_CENTER)


OBJECTS = (
    PaperObject("zeta", zeta, "Sec II-C1", "t, d real"),
    PaperObject("zeta_centered", zeta_centered, "Sec II-C1 (piecewise form: Appendix C, missing; derived)", "t, d real"),
    PaperObject("ridge", sp.Tuple(*ridge), "Appendix C-1", "d real"),
    PaperObject("zeta_centered_upper", zeta_centered_upper, "Appendix C-1 / eq 18", "|d| <= Delta"),
    PaperObject("zeta_centered_inverse", zeta_centered_inverse, "eq 15", "nu real"),
    PaperObject("table_I", sp.Tuple(*[sp.Tuple(sp.Symbol(r[0]), *r[1:]) for r in TABLE_I]), "Table I", "eps >= 0"),
) + tuple(PaperObject(f"delta_case_{k}", v, "eq 13", f"case ({k}) of Table I") for k, v in DELTA_CASES.items())


# ----------------------------------------------------------------------------
# The profile's and the loss's piecewise functions, and Table I's boundaries
# ----------------------------------------------------------------------------
from .piecewise import Formula, Piece, PiecewiseFunction  # noqa: E402

CASE_BOUNDARIES = Formula(
    name="case_boundaries",
    args=(b, Dn),
    exprs=(E3_STD, NU1_STD, NU2_STD),
    doc="(e3, nu1, nu2): the eps-ranges of Table I in standard units.  Case (v) is eps >= nu2, (iv) is "
    "nu1 <= eps < nu2, (iii) is e3 <= eps < nu1, and below e3 case (i) applies if D > 2b, else case (ii); "
    "empty cases come out as empty intervals (e3 >= nu1 when b >= D, nu1 = nu2 when b = 0).",
    paper_ref="Table I (lower ends of cases (iii), (iv), (v))",
)

_ln = sp.log
_R = sp.Rational


def _interior(bv: Union[int, str], Dv: Union[int, str], ev: Union[int, str]) -> Tuple[Tuple[sp.Symbol, sp.Expr], ...]:
    """A point strictly inside a case of Table I (JAX: where the unselected kernel is evaluated)."""
    return ((b, _R(bv)), (Dn, _R(Dv)), (eps, _R(ev)))


LOG_PROFILE_STD = PiecewiseFunction(
    name="log_profile_std",
    args=(b, Dn, eps, lw),
    pieces=(
        Piece(LOG_PROFILE_V, safe=_interior("1/4", 1, 1)),  # nu2 = 3/4
        Piece(LOG_PROFILE_IV, safe=_interior("1/4", 1, "5/8")),  # nu1 = 17/32, nu2 = 3/4
        Piece(LOG_PROFILE_III, safe=_interior("1/4", 1, "2/5")),  # e3 = 1/4, nu1 = 17/32
        Piece(PROFILE_I, wrap=_ln, safe=_interior("1/4", 1, "1/8")),  # D > 2b, eps < e3 = 1/4
        Piece(PROFILE_II, wrap=_ln, safe=_interior(1, 1, "1/2")),  # D <= 2b, eps < e3 = 1
    ),
    doc="log delta(eps) (eq 13) in standard units, case by case (Table I), capped at 0; -inf where delta = 0.",
    paper_ref="eq 13, Table I",
    post=lambda y: sp.Min(y, 0),
    ignore=("divide", "over"),  # overflow (x^2 of a huge argument, b^2 past 1e154) only ever rounds log delta to its -inf limit
)

LOSS_STD = PiecewiseFunction(
    name="loss_std",
    args=(b, Dn, s),
    pieces=tuple(Piece(k) for k in LOSS_KERNELS),
    doc="zeta_D(s) = rho_b(s + D) - rho_b(s) for D >= 0 by regime of (s, s + D): the regime of s + D is decided "
    "on |s + D| - b from the exact sum, as the mixed-regime kernels use it.",
    paper_ref="Sec II-C1",
    ignore=("over", "invalid"),
)

PRIVACY_FUNCTIONS = (CASE_BOUNDARIES, LOG_PROFILE_STD, LOSS_STD)
