"""Numerically stable forms of the flipped Huber formulas: the codegen sources.

Each :class:`Kernel` pairs a stable expression (built from the nodes of
:mod:`fhsym.symbolic.special`: ``erfcx``, ``log_ndtr``, ``ndtri_exp``,
``exprel``, ...) with the paper's expression it must equal.  ``proofs/`` shows
every pair equal (symbolically where SymPy closes the identity, otherwise at 50
significant digits at many random points of the stated domain), and
``python -m fhsym.codegen`` prints the stable expressions into
``fhsym/_generated/``.

Why the paper's forms cannot be used as they are: omega (eq 9) contains
``sinh(b^2/2)`` and kappa ``exp(-b^2/2)``, which overflow/underflow for
b = alpha/gamma above ~37.6; the CDF (eq 10) subtracts nearly equal numbers in
the tails; the variance (eq 11) is ``1 - (1 - O(b^-2))`` for large b and
``x cosh x - sinh x = O(x^3)`` for small b.  The stable forms below keep every
term positive (no cancellation) and every exponent bounded.

Conventions: all kernels are in standard units, ``b = alpha/gamma``,
``s = t/gamma >= 0`` (the API folds negative arguments by symmetry) and
``lw = log(kappa/gamma) = log(omega) - b^2/2``, the log of the scaled normaliser,
computed once per distribution by :data:`LOG_OMEGA_TILDE`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, Optional, Tuple

import sympy as sp
from sympy.codegen.cfunctions import log1p

from . import definitions as D
from .special import erfcx, exprel, log_ndtr, logaddexp, lowergamma3_scaled, lowergamma_scaled, ndtri, ndtri_exp

__all__ = ["Kernel", "KERNELS", "lw", "m", "logp", "h", "p"]

b, s, u, q = D.b, D.s, D.u, D.q
lw = sp.Symbol("lw", real=True)  # log(omega) - b^2/2 = log(kappa / gamma)
m = sp.Symbol("m", real=True)  # MGF half-argument b +- gamma*s
logp = sp.Symbol("logp", negative=True)  # log of a tail probability
p = sp.Symbol("p", positive=True)  # a survival probability in (0, 1/2]
h = sp.Symbol("h", nonnegative=True)  # 1/2 - p

SQRT_PI_2 = sp.sqrt(sp.pi / 2)


@dataclass(frozen=True)
class Kernel:
    """A generated numeric function: stable SymPy form + the paper form it equals.

    ``paper`` is written in the same arguments after substituting
    ``lw = log(omega(b)) - b^2/2``; ``domain`` gives, for each argument, the
    (low, high) range sampled by the 50-digit identity check (``'b'`` ranges
    are sampled log-uniformly), and ``constraint`` an extra relation among
    the arguments (a SymPy boolean in them) that samples must satisfy.
    """

    name: str
    args: Tuple[sp.Symbol, ...]
    expr: sp.Expr
    paper: sp.Expr
    paper_ref: str
    doc: str
    domain: Dict[str, Tuple[float, float]] = field(default_factory=dict)
    constraint: Optional[sp.Basic] = None


# log(omega(b)) - b^2/2, the value of lw, in the paper's terms
LW_PAPER = sp.log(D.omega_of_b) - b**2 / 2
# omega(b) in terms of lw
OMEGA_FROM_LW = sp.exp(lw + b**2 / 2)

# The scaled tail mass sqrt(2 pi) e^{-b^2/2} Q(b) = sqrt(pi/2) erfcx(b/sqrt2) e^{-b^2}
_A = SQRT_PI_2 * erfcx(b / sp.sqrt(2)) * sp.exp(-(b**2))

_b_range = (1e-6, 1e4)


def _paper_in_b(expr: sp.Expr) -> sp.Expr:
    """The paper expression in (b, s): alpha -> b*gamma, t -> s*gamma, gamma -> 1."""
    return expr.subs({D.alpha: b * D.gamma, D.t: s * D.gamma}).subs(D.gamma, 1)


LOG_OMEGA_TILDE = Kernel(
    name="log_omega_tilde",
    args=(b,),
    expr=sp.log(2 * (_A + b * exprel(-(b**2)))),
    paper=LW_PAPER,
    paper_ref="eq 9 (log omega - b^2/2 = log(kappa/gamma))",
    doc="log(kappa/gamma) = log(omega) - b^2/2, finite for all b >= 0 (sqrt(2 pi) at b = 0, ~2/b as b -> inf).",
    domain={"b": _b_range},
)

LOGPDF_CENTER = Kernel(
    name="logpdf_center",
    args=(b, s, lw),
    expr=-b * s - lw,
    paper=sp.log(_paper_in_b(D.density_unnormalised.subs(D.t, s * D.gamma).subs(sp.Abs(D.t), D.t)) / sp.exp(LW_PAPER)),
    paper_ref="eq 8, |t| <= alpha",
    doc="log(gamma * g(gamma*s)) for 0 <= s <= b.",
    domain={"b": _b_range, "s": (0.0, 1.0)},
    constraint=sp.Le(s, b),
)

LOGPDF_TAIL = Kernel(
    name="logpdf_tail",
    args=(b, s, lw),
    expr=-(s**2 + b**2) / 2 - lw,
    paper=-(s**2 + b**2) / 2 - LW_PAPER,
    paper_ref="eq 8, |t| > alpha",
    doc="log(gamma * g(gamma*s)) for s > b.",
    domain={"b": _b_range, "s": (0.0, 1e3)},
    constraint=sp.Gt(s, b),
)

SF_TAIL = Kernel(
    name="sf_tail",
    args=(b, s, lw),
    expr=SQRT_PI_2 * sp.erfc(s / sp.sqrt(2)) * sp.exp(-(b**2) / 2 - lw),
    paper=_paper_in_b(D.sf_tail_upper),
    paper_ref="eq 10, t > alpha",
    doc="P(T > gamma*s) for s >= b: sqrt(2 pi)/omega * Q(s).",
    domain={"b": (1e-6, 30.0), "s": (0.0, 35.0)},
    constraint=sp.Ge(s, b),
)

LOGSF_TAIL = Kernel(
    name="logsf_tail",
    args=(b, s, lw),
    expr=log_ndtr(-s) + sp.log(2 * sp.pi) / 2 - b**2 / 2 - lw,
    paper=sp.log(_paper_in_b(D.sf_tail_upper)),
    paper_ref="eq 10, t > alpha",
    doc="log P(T > gamma*s) for s >= b; finite for every finite s.",
    domain={"b": _b_range, "s": (0.0, 1e4)},
    constraint=sp.Ge(s, b),
)

_center_bracket = (b - s) * exprel(-b * (b - s)) + SQRT_PI_2 * erfcx(b / sp.sqrt(2)) * sp.exp(-b * (b - s))

SF_CENTER = Kernel(
    name="sf_center",
    args=(b, s, lw),
    expr=sp.exp(-b * s - lw) * _center_bracket,
    paper=_paper_in_b(D.sf_center).subs(sp.Abs(s), s),
    paper_ref="eq 10, 0 <= t <= alpha",
    doc="P(T > gamma*s) for 0 <= s <= b, as a sum of two positive terms (mass in [s, b] + tail mass).",
    domain={"b": (1e-6, 30.0), "s": (0.0, 30.0)},
    constraint=sp.Le(s, b),
)

LOGSF_CENTER = Kernel(
    name="logsf_center",
    args=(b, s, lw),
    expr=-b * s - lw + sp.log(_center_bracket),
    paper=sp.log(_paper_in_b(D.sf_center).subs(sp.Abs(s), s)),
    paper_ref="eq 10, 0 <= t <= alpha",
    doc="log P(T > gamma*s) for 0 <= s <= b.",
    domain={"b": _b_range, "s": (0.0, 1e4)},
    constraint=sp.Le(s, b),
)

TAIL_MASS = Kernel(
    name="tail_mass",
    args=(b, lw),
    expr=_A * sp.exp(-lw),
    paper=D.tail_mass_of_b,
    paper_ref="eq 10 at t = alpha",
    doc="P(T > alpha) = sqrt(2 pi)/omega * Q(b).",
    domain={"b": (1e-6, 30.0)},
)

ISF_TAIL = Kernel(
    name="isf_tail",
    args=(b, logp, lw),
    expr=-ndtri_exp(logp + lw + b**2 / 2 - sp.log(2 * sp.pi) / 2),
    paper=_paper_in_b(D.ppf_tail_upper).subs(D.q, 1 - sp.exp(logp)),
    paper_ref="Appendix B (missing; derived): inverse of eq 10 on t > alpha",
    doc="s with P(T > gamma*s) = exp(logp), for exp(logp) <= P(T > alpha).",
    domain={"b": (1e-6, 8.0), "logp": (-700.0, -1e-3)},
    constraint=sp.Le(sp.exp(logp), D.tail_mass_of_b),
)

ISF_TAIL_DIRECT = Kernel(
    name="isf_tail_direct",
    args=(b, p, lw),
    expr=-ndtri(p * sp.exp(lw + b**2 / 2) / sp.sqrt(2 * sp.pi)),
    paper=_paper_in_b(D.ppf_tail_upper).subs(D.q, 1 - p),
    paper_ref="Appendix B (missing; derived): inverse of eq 10 on t > alpha",
    doc="s with P(T > gamma*s) = p for p <= P(T > alpha), used where p*omega/sqrt(2 pi) is a normal float (faster than the log form).",
    domain={"b": (1e-6, 8.0), "p": (1e-300, 0.2)},
    constraint=sp.Le(p, D.tail_mass_of_b),
)

ISF_CENTER = Kernel(
    name="isf_center",
    args=(b, p, lw),
    expr=-sp.log(b * sp.exp(lw) * p + sp.exp(-(b**2)) * (1 - b * SQRT_PI_2 * erfcx(b / sp.sqrt(2)))) / b,
    paper=_paper_in_b(D.ppf_center).subs(D.q, 1 - p),
    paper_ref="Appendix B (missing; derived): inverse of eq 10 on 0 <= t <= alpha",
    doc="s with P(T > gamma*s) = p, for P(T > alpha) < p <= 1/4 (a sum of two positive terms inside the log).",
    domain={"b": (1e-2, 30.0), "p": (1e-300, 0.25)},
    constraint=sp.And(sp.Gt(p, D.tail_mass_of_b), sp.Le(p, sp.Rational(1, 4))),
)

ISF_CENTER_NEAR_HALF = Kernel(
    name="isf_center_near_half",
    args=(b, h, lw),
    expr=-log1p(-b * sp.exp(lw) * h) / b,
    paper=_paper_in_b(D.ppf_center).subs(D.q, sp.Rational(1, 2) + h),
    paper_ref="Appendix B (missing; derived): inverse of eq 10 near the median",
    doc="s with P(T > gamma*s) = 1/2 - h, for 0 < h <= 1/4 and 1/2 - h > P(T > alpha); log1p keeps digits as h -> 0.",
    domain={"b": (1e-3, 30.0), "h": (1e-12, 0.25)},
    constraint=sp.Gt(sp.Rational(1, 2) - h, D.tail_mass_of_b),
)

# Near the median with the tail region reached (only when the centre holds little mass, b <~ 0.7):
# 1/2 - h = P(S > s) = c Q(s) with c = sqrt(2 pi)/omega, and 1/2 = M_c + c Q(b), so
# erf(s/sqrt2)/2 = P(0 < Z < s) = erf(b/sqrt2)/2 + (h - M_c)/c, M_c = b exprel(-b^2) e^{-lw} the centre mass:
# s = sqrt(2) erfinv(erf(b/sqrt2) + 2 (h - M_c) omega/sqrt(2 pi)).
# Working in h = 1/2 - p (exact) avoids the loss of digits of Q^{-1}(p c) as p -> 1/2.
ISF_TAIL_NEAR_HALF = Kernel(
    name="isf_tail_near_half",
    args=(b, h, lw),
    expr=sp.sqrt(2)
    * sp.erfinv(sp.erf(b / sp.sqrt(2)) + 2 * (h - b * exprel(-(b**2)) * sp.exp(-lw)) * sp.exp(lw + b**2 / 2) / sp.sqrt(2 * sp.pi)),
    paper=_paper_in_b(D.ppf_tail_upper).subs(D.q, sp.Rational(1, 2) + h),
    paper_ref="Appendix B (missing; derived): inverse of eq 10 on t > alpha, near the median",
    doc="s with P(T > gamma*s) = 1/2 - h for 1/2 - h <= P(T > alpha) and h <= 1/4; exact in h as h -> its lower end.",
    domain={"b": (1e-6, 0.6), "h": (1e-9, 0.25)},
    constraint=sp.Le(sp.Rational(1, 2) - h, D.tail_mass_of_b),
)

VARIANCE = Kernel(
    name="variance_std",
    args=(b, lw),
    expr=2 * (b**3 * lowergamma3_scaled(b**2) + b * sp.exp(-(b**2)) + _A) * sp.exp(-lw),
    paper=D.variance_of_b,
    paper_ref="eq 11 (Appendix A missing; derived from the second moment of each piece)",
    doc="Var(T)/gamma^2 as 2[int_0^b s^2 e^{-bs} ds + e^{-b^2/2} int_b^inf s^2 e^{-s^2/2} ds]/(kappa/gamma): positive terms only.",
    domain={"b": _b_range},
)

FISHER = Kernel(
    name="fisher_std",
    args=(b, lw),
    expr=1 + 2 * b * (1 - exprel(-(b**2))) * sp.exp(-lw),
    paper=D.fisher_of_b,
    paper_ref="eq 12 (Appendix A missing; derived)",
    doc="gamma^2 * I(T) = 1 + (2 b/(kappa/gamma)) (1 - (1 - e^{-b^2})/b^2); the correction is small only where its absolute error is.",
    domain={"b": _b_range},
)

# Even moments E[S^n] (n even), for the MGF near s = 0 where log M is a difference of O(1) logs:
#   E[S^n] = 2 [int_0^b s^n e^{-bs} ds + e^{-b^2/2} int_b^inf s^n e^{-s^2/2} ds] e^{-lw}
#          = 2 [b^{n+1} lowergamma_scaled(n, b^2) + e^{-b^2/2} 2^{(n-1)/2} Gamma((n+1)/2, b^2/2)] e^{-lw}
_n = sp.Symbol("n", positive=True, integer=True)
_sv = sp.Symbol("x", positive=True)
MOMENT = Kernel(
    name="moment_std",
    args=(_n, b, lw),
    expr=2 * (b ** (_n + 1) * lowergamma_scaled(_n, b**2) + sp.exp(-(b**2) / 2) * 2 ** ((_n - 1) / 2) * sp.uppergamma((_n + 1) / 2, b**2 / 2)) * sp.exp(-lw),
    paper=2 * (sp.Integral(_sv**_n * sp.exp(-b * _sv), (_sv, 0, b)) + sp.Integral(_sv**_n * sp.exp(-(_sv**2 + b**2) / 2), (_sv, b, sp.oo))) * sp.exp(-lw),
    paper_ref="moments of eq 8 (the paper gives only the variance, eq 11; derived)",
    doc="E[(T/gamma)^n] for even n >= 2: Laplace-centre and Gaussian-tail parts, both positive.",
    domain={"n": (2, 20), "b": (1e-3, 30.0)},
)

# Near the median the survival function is 1/2 minus the mass of [0, s], exactly 1/2 at s = 0
# (the positive-sum forms above round to 1/2 - 1 ulp there, breaking monotonicity of the CDF).
SF_CENTER_NEAR_MEDIAN = Kernel(
    name="sf_center_near_median",
    args=(b, s, lw),
    expr=sp.Rational(1, 2) - s * exprel(-b * s) * sp.exp(-lw),
    paper=_paper_in_b(D.sf_center).subs(sp.Abs(s), s),
    paper_ref="eq 10, 0 <= t <= alpha, near the median",
    doc="P(T > gamma*s) = 1/2 - mass of [0, s] for 0 <= s <= b where the result is >= 1/4 (no cancellation).",
    domain={"b": (1e-3, 30.0), "s": (0.0, 1.0)},
    constraint=sp.Le(s, b),
)

SF_TAIL_NEAR_MEDIAN = Kernel(
    name="sf_tail_near_median",
    args=(b, s, lw),
    expr=sp.Rational(1, 2) - b * exprel(-(b**2)) * sp.exp(-lw)
    - sp.sqrt(2 * sp.pi) * sp.exp(-(b**2) / 2 - lw) * (sp.erf(s / sp.sqrt(2)) - sp.erf(b / sp.sqrt(2))) / 2,
    paper=_paper_in_b(D.sf_tail_upper),
    paper_ref="eq 10, t > alpha, near the median",
    doc="P(T > gamma*s) = 1/2 - centre mass - Gaussian mass of [b, s], for s >= b where the result is >= 1/4.",
    domain={"b": (1e-6, 0.6), "s": (0.0, 0.7)},
    constraint=sp.Ge(s, b),
)

# MGF: M(s) = [E(b + gamma s) + E(b - gamma s)] / e^{lw}, with
#   E(m) = b exprel(-b m) + sqrt(pi/2) erfcx(m/sqrt2) e^{-b m}
#        = e^{-b m} b exprel(b m) + sqrt(2 pi) Phi(-m) e^{m^2/2 - b m}.
# The kernels return log E(m) in two overflow-free forms.
_E_paper = (sp.sqrt(2 * sp.pi) / D.omega * D.mgf_P(D.s) * sp.exp(D.gamma**2 * D.s**2 / 2))
_E_paper_in_m = (
    _E_paper.subs(D.s, (m - D.alpha / D.gamma) / D.gamma).subs(D.alpha, b * D.gamma).subs(D.gamma, 1) * sp.exp(LW_PAPER)
)

LOG_MGF_HALF_POS = Kernel(
    name="log_mgf_half_pos",
    args=(b, m),
    expr=sp.log(b * exprel(-b * m) + SQRT_PI_2 * erfcx(m / sp.sqrt(2)) * sp.exp(-b * m)),
    paper=sp.log(_E_paper_in_m),
    paper_ref="Sec III-B2 (MGF), one half: sqrt(2 pi)/omega P(s) e^{gamma^2 s^2/2}, times kappa/gamma",
    doc="log E(m) for m >= 0, m = b +- gamma*s.",
    domain={"b": (1e-3, 20.0), "m": (0.0, 30.0)},
)

LOG_MGF_HALF_NEG = Kernel(
    name="log_mgf_half_neg",
    args=(b, m),
    expr=-b * m + logaddexp(sp.log(b * exprel(b * m)), sp.log(2 * sp.pi) / 2 + m**2 / 2 + log_ndtr(-m)),
    paper=sp.log(_E_paper_in_m),
    paper_ref="Sec III-B2 (MGF), one half: sqrt(2 pi)/omega P(s) e^{gamma^2 s^2/2}, times kappa/gamma",
    doc="log E(m) for m < 0 (the exponentials grow; factored out of the log).",
    domain={"b": (1e-3, 20.0), "m": (-30.0, -1e-6)},
)

KERNELS = (
    LOG_OMEGA_TILDE,
    LOGPDF_CENTER,
    LOGPDF_TAIL,
    SF_TAIL,
    LOGSF_TAIL,
    SF_CENTER,
    LOGSF_CENTER,
    TAIL_MASS,
    ISF_TAIL,
    ISF_TAIL_DIRECT,
    ISF_CENTER,
    ISF_CENTER_NEAR_HALF,
    ISF_TAIL_NEAR_HALF,
    VARIANCE,
    FISHER,
    LOG_MGF_HALF_POS,
    LOG_MGF_HALF_NEG,
    MOMENT,
    SF_CENTER_NEAR_MEDIAN,
    SF_TAIL_NEAR_MEDIAN,
)
