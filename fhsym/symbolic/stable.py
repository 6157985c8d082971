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

import functools
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Optional, Tuple

import numpy as np
import sympy as sp
from sympy.codegen.cfunctions import expm1, log1p

from . import definitions as D
from . import naive as N
from .special import erfcx, exprel, log_ndtr, logaddexp, lowergamma3_scaled, lowergamma_scaled, ndtri, ndtri_exp

__all__ = ["Kernel", "KERNELS", "LAPLACE_B", "lw", "m", "logp", "h", "p", "s_q", "p_tail", "p_direct"]

b, s, u, q = D.b, D.s, D.u, D.q
lw = sp.Symbol("lw", real=True)  # log(omega) - b^2/2 = log(kappa / gamma)
m = sp.Symbol("m", real=True)  # MGF half-argument b +- gamma*s
logp = sp.Symbol("logp", negative=True)  # log of a tail probability
p = sp.Symbol("p", positive=True)  # a survival probability in (0, 1/2]
h = sp.Symbol("h", nonnegative=True)  # 1/2 - p
# thresholds of the region dispatch, fixed per distribution (computed once from b)
s_q = sp.Symbol("s_q", positive=True)  # standardised upper quartile: P(T > gamma s_q) = 1/4
p_tail = sp.Symbol("p_tail", positive=True)  # P(T > alpha), the mass of one Gaussian tail
p_direct = sp.Symbol("p_direct", positive=True)  # smallest p with p omega/sqrt(2 pi) >= 1e-290 (ndtri direct)

SQRT_PI_2 = sp.sqrt(sp.pi / 2)
# Shape b = alpha/gamma above which the scale-free moments and log(kappa/gamma) switch to their
# Laplace-limit forms (fhsym.symbolic.laplace_limit): beyond it every remainder is at most
# 5 b^4 e^{-b^2/2} <= 1e-880 relative; below it the exact forms neither overflow nor underflow.
LAPLACE_B = sp.Integer(64)


@dataclass(frozen=True)
class Kernel:
    """A generated numeric function: stable SymPy form + the paper form it equals.

    ``paper`` is written in the same arguments after substituting
    ``lw = log(omega(b)) - b^2/2``; ``domain`` gives, for each argument, the
    (low, high) range sampled by the 50-digit identity check (``'b'`` ranges
    are sampled log-uniformly), and ``constraint`` an extra relation among
    the arguments (a SymPy boolean in them) that samples must satisfy.

    The piece it is (all as data, read by the generator and the tests):

    * ``region``: the condition under which the numeric API applies this kernel, a
      SymPy boolean in the variables of the API function that dispatches to it (its
      arguments and the named thresholds ``s_q``, ``p_tail``, ``p_direct``); the regions
      of one piecewise function are disjoint and cover its domain
      (:mod:`fhsym.symbolic.piecewise`).  ``True`` for a kernel used everywhere.
    * ``naive``: the paper's form typed literally in float64
      (:mod:`fhsym.symbolic.naive`), a function of the arguments without ``lw``;
    * ``stress``: ``(point, why)``, arguments (without ``lw``) where ``naive`` is
      measurably wrong and the kernel must still be right;
    * ``no_stress``: the reason a kernel has no such point (then ``stress`` is only a
      typical point at which the kernel's accuracy is checked).
    """

    name: str
    args: Tuple[sp.Symbol, ...]
    expr: sp.Expr
    paper: sp.Expr
    paper_ref: str
    doc: str
    domain: Dict[str, Tuple[float, float]] = field(default_factory=dict)
    constraint: Optional[sp.Basic] = None
    region: sp.Basic = sp.true
    naive: Optional[Callable[..., Any]] = None
    stress: Optional[Tuple[Tuple[float, ...], str]] = None
    no_stress: Optional[str] = None


# log(omega(b)) - b^2/2, the value of lw, in the paper's terms
LW_PAPER = sp.log(D.omega_of_b) - b**2 / 2
# omega(b) in terms of lw
OMEGA_FROM_LW = sp.exp(lw + b**2 / 2)

# The scaled tail mass sqrt(2 pi) e^{-b^2/2} Q(b) = sqrt(pi/2) erfcx(b/sqrt2) e^{-b^2}
_A = SQRT_PI_2 * erfcx(b / sp.sqrt(2)) * sp.exp(-(b**2))

_b_range = (1e-6, 1e4)
#: a kernel of b (and lw) alone: the exact form, applied up to LAPLACE_B (fhsym.symbolic.laplace_limit beyond)
_of_b = functools.partial(Kernel, args=(b, lw), domain={"b": _b_range}, region=sp.Le(b, LAPLACE_B))


def _paper_in_b(expr: sp.Expr) -> sp.Expr:
    """The paper expression in (b, s): alpha -> b*gamma, t -> s*gamma, gamma -> 1."""
    return expr.subs({D.alpha: b * D.gamma, D.t: s * D.gamma}).subs(D.gamma, 1)


# eq 10's survival function on each piece, in (b, s) with s >= 0
_SF_CENTER_PAPER = _paper_in_b(D.sf_center).subs(sp.Abs(s), s)
_SF_TAIL_PAPER = _paper_in_b(D.sf_tail_upper)


LOG_OMEGA_TILDE = _of_b(
    name="log_omega_tilde",
    args=(b,),
    expr=sp.log(2 * (_A + b * exprel(-(b**2)))),
    paper=LW_PAPER,
    paper_ref="eq 9 (log omega - b^2/2 = log(kappa/gamma))",
    doc="log(kappa/gamma) = log(omega) - b^2/2, finite for all b >= 0 (sqrt(2 pi) at b = 0, ~2/b as b -> inf).",
    naive=lambda b: np.log(N.omega(b)) - b * b / 2.0,
    stress=((40.0,), "b = 40: sinh(b^2/2) = sinh(800) overflows"),
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
    region=sp.Le(s, b),
    naive=N.logpdf,
    stress=((40.0, 20.0), "b = 40: omega overflows, kappa = inf * 0"),
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
    region=sp.Gt(s, b),
    naive=N.logpdf,
    stress=((40.0, 45.0), "b = 40: omega overflows"),
)

SF_TAIL = Kernel(
    name="sf_tail",
    args=(b, s, lw),
    expr=SQRT_PI_2 * sp.erfc(s / sp.sqrt(2)) * sp.exp(-(b**2) / 2 - lw),
    paper=_SF_TAIL_PAPER,
    paper_ref="eq 10, t > alpha",
    doc="P(T > gamma*s) for s >= b: sqrt(2 pi)/omega * Q(s).",
    domain={"b": (1e-6, 30.0), "s": (0.0, 35.0)},
    constraint=sp.Ge(s, b),
    region=sp.And(sp.Gt(s, s_q), sp.Gt(s, b)),
    naive=N.sf,
    stress=((2.0, 6.0), "far tail: 1 - G(t) cancels (G = 1 - 3e-10)"),
)

LOGSF_TAIL = Kernel(
    name="logsf_tail",
    args=(b, s, lw),
    expr=log_ndtr(-s) + sp.log(2 * sp.pi) / 2 - b**2 / 2 - lw,
    paper=sp.log(_SF_TAIL_PAPER),
    paper_ref="eq 10, t > alpha",
    doc="log P(T > gamma*s) for s >= b; finite for every finite s.",
    domain={"b": _b_range, "s": (0.0, 1e4)},
    constraint=sp.Ge(s, b),
    region=sp.And(sp.Gt(s, s_q), sp.Gt(s, b)),
    naive=lambda b, s: np.log(N.sf(b, s)),
    stress=((2.0, 40.0), "far tail: 1 - G(t) = 0 in float64, log -> -inf"),
)

# (b - s) exprel(-b (b - s)) written as -expm1(-b (b - s))/b: where b (b - s) overflows (b > ~1e154) its
# limit 1/b is then exact (the exprel form would give 0 there)
_center_bracket = -expm1(-b * (b - s)) / b + SQRT_PI_2 * erfcx(b / sp.sqrt(2)) * sp.exp(-b * (b - s))

SF_CENTER = Kernel(
    name="sf_center",
    args=(b, s, lw),
    expr=sp.exp(-b * s - lw) * _center_bracket,
    paper=_SF_CENTER_PAPER,
    paper_ref="eq 10, 0 <= t <= alpha",
    doc="P(T > gamma*s) for 0 <= s <= b, as a sum of two positive terms (mass in [s, b] + tail mass).",
    domain={"b": (1e-6, 30.0), "s": (0.0, 30.0)},
    constraint=sp.Le(s, b),
    region=sp.And(sp.Gt(s, s_q), sp.Le(s, b)),
    naive=N.sf,
    stress=((6.0, 5.5), "large b, t near alpha: 1/2 - (...) cancels"),
)

LOGSF_CENTER = Kernel(
    name="logsf_center",
    args=(b, s, lw),
    expr=-b * s - lw + sp.log(_center_bracket),
    paper=sp.log(_SF_CENTER_PAPER),
    paper_ref="eq 10, 0 <= t <= alpha",
    doc="log P(T > gamma*s) for 0 <= s <= b.",
    domain={"b": _b_range, "s": (0.0, 1e4)},
    constraint=sp.Le(s, b),
    region=sp.And(sp.Gt(s, s_q), sp.Le(s, b)),
    naive=lambda b, s: np.log(N.sf(b, s)),
    stress=((10.0, 9.0), "large b: 1 - G(t) ~ e^-90 lost entirely"),
)

TAIL_MASS = _of_b(
    name="tail_mass",
    expr=_A * sp.exp(-lw),
    paper=D.tail_mass_of_b,
    paper_ref="eq 10 at t = alpha",
    doc="P(T > alpha) = sqrt(2 pi)/omega * Q(b).",
    domain={"b": (1e-6, 30.0)},
    naive=lambda b: N.sf(b, b),
    stress=((7.0,), "P(T > alpha) = 1 - G(alpha) ~ 1e-22 lost"),
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
    region=sp.And(sp.Le(p, p_tail), sp.Lt(p, sp.Rational(1, 4)), sp.Lt(p, p_direct)),
    naive=lambda b, logp: N.ppf_tail(b, 1.0 - np.exp(logp)),
    stress=((1.0, -700.0), "p = e^-700: q = 1 - p rounds to 1, Q^{-1}(0) = inf"),
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
    region=sp.And(sp.Le(p, p_tail), sp.Lt(p, sp.Rational(1, 4)), sp.Ge(p, p_direct)),
    naive=lambda b, p: N.ppf_tail(b, 1.0 - p),
    stress=((1.0, 1e-20), "p = 1e-20: q = 1 - p rounds to 1"),
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
    region=sp.And(sp.Gt(p, p_tail), sp.Lt(p, sp.Rational(1, 4))),
    naive=lambda b, p: N.ppf_center(b, 1.0 - p),
    stress=((5.0, 1e-11), "1 - b kappa (q - 1/2) cancels to ~2e-11"),
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
    region=sp.And(sp.Gt(p, p_tail), sp.Ge(p, sp.Rational(1, 4))),
    naive=lambda b, h: N.ppf_center(b, 0.5 + h),
    stress=((1.0, 1e-12), "log(1 - x) without log1p at x ~ 1e-12"),
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
    region=sp.And(sp.Le(p, p_tail), sp.Ge(p, sp.Rational(1, 4))),
    naive=lambda b, h: N.ppf_tail(b, 0.5 + h),
    stress=((1e-12, 1e-12), "alpha -> 0 near the median: 1 - 2 Q-argument cancels"),
)

VARIANCE = _of_b(
    name="variance_std",
    expr=2 * (b**3 * lowergamma3_scaled(b**2) + b * sp.exp(-(b**2)) + _A) * sp.exp(-lw),
    paper=D.variance_of_b,
    paper_ref="eq 11 (Appendix A missing; derived from the second moment of each piece)",
    doc="Var(T)/gamma^2 as 2[int_0^b s^2 e^{-bs} ds + e^{-b^2/2} int_b^inf s^2 e^{-s^2/2} ds]/(kappa/gamma): positive terms only.",
    naive=N.variance,
    stress=((40.0,), "b = 40: cosh, sinh overflow (inf - inf)"),
)

FISHER = _of_b(
    name="fisher_std",
    expr=1 + 2 * b * (1 - exprel(-(b**2))) * sp.exp(-lw),
    paper=D.fisher_of_b,
    paper_ref="eq 12 (Appendix A missing; derived)",
    doc="gamma^2 * I(T) = 1 + (2 b/(kappa/gamma)) (1 - (1 - e^{-b^2})/b^2); the correction is small only where its absolute error is.",
    naive=N.fisher,
    stress=((40.0,), "b = 40: exp, sinh overflow"),
)

NFI = _of_b(
    name="nfi_std",
    expr=VARIANCE.expr * FISHER.expr,
    paper=D.variance_of_b * D.fisher_of_b,
    paper_ref="Sec II-D (NFI = Var * I, eq 11 x eq 12; scale free)",
    doc="Var(T) I(T), the product of the variance and Fisher information kernels (both positive-term forms).",
    naive=lambda b: N.variance(b) * N.fisher(b),
    stress=((40.0,), "b = 40: cosh, sinh, exp overflow (inf - inf)"),
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
    region=sp.true,
    naive=N.moment,
    stress=((2, 40.0), "n = 2 is eq 11; b = 40: cosh, sinh overflow"),
)

# Near the median the survival function is 1/2 minus the mass of [0, s], exactly 1/2 at s = 0
# (the positive-sum forms above round to 1/2 - 1 ulp there, breaking monotonicity of the CDF).
SF_CENTER_NEAR_MEDIAN = Kernel(
    name="sf_center_near_median",
    args=(b, s, lw),
    expr=sp.Rational(1, 2) - s * exprel(-b * s) * sp.exp(-lw),
    paper=_SF_CENTER_PAPER,
    paper_ref="eq 10, 0 <= t <= alpha, near the median",
    doc="P(T > gamma*s) = 1/2 - mass of [0, s] for 0 <= s <= b where the result is >= 1/4 (no cancellation).",
    domain={"b": (1e-3, 30.0), "s": (0.0, 1.0)},
    constraint=sp.Le(s, b),
    region=sp.And(sp.Le(s, s_q), sp.Le(s, b)),
    naive=N.sf,
    stress=((40.0, 0.01), "b = 40 (the API uses this piece for every b): omega overflows"),
)

SF_TAIL_NEAR_MEDIAN = Kernel(
    name="sf_tail_near_median",
    args=(b, s, lw),
    expr=sp.Rational(1, 2) - b * exprel(-(b**2)) * sp.exp(-lw)
    - sp.sqrt(2 * sp.pi) * sp.exp(-(b**2) / 2 - lw) * (sp.erf(s / sp.sqrt(2)) - sp.erf(b / sp.sqrt(2))) / 2,
    paper=_SF_TAIL_PAPER,
    paper_ref="eq 10, t > alpha, near the median",
    doc="P(T > gamma*s) = 1/2 - centre mass - Gaussian mass of [b, s], for s >= b where the result is >= 1/4.",
    domain={"b": (1e-6, 0.6), "s": (0.0, 0.7)},
    constraint=sp.Ge(s, b),
    region=sp.And(sp.Le(s, s_q), sp.Gt(s, b)),
    naive=N.sf,
    stress=((0.3, 0.5), "a typical point of the piece"),
    no_stress=(
        "the piece is used where 1 - G(t) >= 1/4 and b <= ~0.65, where eq 10 neither cancels nor overflows; "
        "the rewrite makes the CDF exactly 1/2 at t = 0 and monotone where it meets `sf_center_near_median`, "
        "it does not repair the paper's form"
    ),
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
    doc="log E(m) for 0 <= m < 1, m = b +- gamma*s.",
    domain={"b": (1e-3, 20.0), "m": (0.0, 1.0)},
    region=sp.And(sp.Ge(m, 0), sp.Lt(m, 1)),
    naive=lambda b, m: np.log(N.mgf_half(b, m)),
    stress=((3.0, 1e-12), "m b = 3e-12: e^{m b} - 1 cancels"),
)

# For m >= 1 the product b*m may overflow (b up to 1.8e308): b exprel(-b m) = -expm1(-b m)/m, whose
# limits at b m = inf (1/m, and e^{-b m} = 0) are exact.
LOG_MGF_HALF_POS_FAR = Kernel(
    name="log_mgf_half_pos_far",
    args=(b, m),
    expr=sp.log(-expm1(-b * m) / m + SQRT_PI_2 * erfcx(m / sp.sqrt(2)) * sp.exp(-b * m)),
    paper=sp.log(_E_paper_in_m),
    paper_ref="Sec III-B2 (MGF), one half: sqrt(2 pi)/omega P(s) e^{gamma^2 s^2/2}, times kappa/gamma",
    doc="log E(m) for m >= 1, m = b +- gamma*s; no product b*m that matters when it overflows (b -> inf: -log m).",
    domain={"b": (1e-3, 20.0), "m": (1.0, 30.0)},
    region=sp.Ge(m, 1),
    naive=lambda b, m: np.log(N.mgf_half(b, m)),
    stress=((3.0, 45.0), "e^{s^2/2} overflows (s = 42) against e^{-m^2/2} underflow"),
)

LOG_MGF_HALF_NEG = Kernel(
    name="log_mgf_half_neg",
    args=(b, m),
    expr=-b * m + logaddexp(sp.log(b * exprel(b * m)), sp.log(2 * sp.pi) / 2 + m**2 / 2 + log_ndtr(-m)),
    paper=sp.log(_E_paper_in_m),
    paper_ref="Sec III-B2 (MGF), one half: sqrt(2 pi)/omega P(s) e^{gamma^2 s^2/2}, times kappa/gamma",
    doc="log E(m) for m < 0 (the exponentials grow; factored out of the log).",
    domain={"b": (1e-3, 20.0), "m": (-30.0, -1e-6)},
    region=sp.Lt(m, 0),
    naive=lambda b, m: np.log(N.mgf_half(b, m)),
    stress=((3.0, -40.0), "e^{s^2/2} overflows (s = -43)"),
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
    NFI,
    LOG_MGF_HALF_POS,
    LOG_MGF_HALF_POS_FAR,
    LOG_MGF_HALF_NEG,
    MOMENT,
    SF_CENTER_NEAR_MEDIAN,
    SF_TAIL_NEAR_MEDIAN,
)

# ----------------------------------------------------------------------------
# The distribution's piecewise functions (region dispatch of the numeric API)
# ----------------------------------------------------------------------------
from .piecewise import Piece, PiecewiseFunction  # noqa: E402

_log = sp.log

LOGPDF_STD = PiecewiseFunction(
    name="logpdf_std",
    args=(b, s, lw),
    pieces=(Piece(LOGPDF_CENTER), Piece(LOGPDF_TAIL)),
    doc="log(gamma g(gamma s)) for s = |t|/gamma >= 0: the Laplace centre or a Gaussian tail.",
    paper_ref="eq 7, 8",
    ignore=("over",),
)

# JAX safe point of the near-median tail piece (used only for b <~ 0.65; at s = b it cancels to 0 for large b):
# the Gaussian's median, where it is exactly 1/2
_gauss_median = ((b, 0), (s, 0), (lw, sp.log(2 * sp.pi) / 2))

SF_STD_NONNEG = PiecewiseFunction(
    name="sf_std_nonneg",
    args=(b, s, lw, s_q),
    pieces=(
        Piece(SF_CENTER_NEAR_MEDIAN, safe=((s, 0),)),
        Piece(SF_TAIL_NEAR_MEDIAN, safe=_gauss_median),
        Piece(SF_CENTER, safe=((b, 1), (s, 0))),
        Piece(SF_TAIL),
    ),
    doc="P(S > s) for s >= 0: 1/2 minus the mass of [0, s] up to the upper quartile s_q (exactly 1/2 at s = 0, "
    "so the CDF is monotone through the median), beyond it a sum of positive terms (relative accuracy in the tail).",
    paper_ref="eq 10",    ignore=("over",),  # b s, b (b - s), b^2 overflowing (b > ~1e154): exact limits (e^{-inf} = 0)
)

LOGSF_STD_NONNEG = PiecewiseFunction(
    name="logsf_std_nonneg",
    args=(b, s, lw, s_q),
    pieces=(
        Piece(SF_CENTER_NEAR_MEDIAN, wrap=_log, safe=((s, 0),)),
        Piece(SF_TAIL_NEAR_MEDIAN, wrap=_log, safe=_gauss_median),
        Piece(LOGSF_CENTER, safe=((b, 1), (s, 0))),
        Piece(LOGSF_TAIL),
    ),
    doc="log P(S > s) for s >= 0: the log of the near-median pieces up to s_q, log-space forms beyond (finite for every finite s).",
    paper_ref="eq 10",
    ignore=("over",),
)

_quarter = sp.Rational(1, 4)
_lw_gauss = sp.log(2 * sp.pi) / 2
ISF_STD = PiecewiseFunction(
    name="isf_std",
    args=(b, p, h, lw, p_tail, p_direct),
    pieces=(
        # safe points of the tail pieces: the Gaussian (b = 0, lw = log sqrt(2 pi)) at p = 1/4 (h = 1/4)
        Piece(ISF_TAIL_DIRECT, safe=((b, 0), (lw, _lw_gauss), (p, _quarter))),
        Piece(ISF_TAIL, bind=((logp, _log(p)),), safe=((b, 0), (lw, _lw_gauss), (logp, _log(_quarter)))),
        Piece(ISF_TAIL_NEAR_HALF, safe=((b, 0), (lw, _lw_gauss), (h, _quarter))),
        Piece(ISF_CENTER, safe=((b, 1), (p, sp.Rational(1, 8)))),
        Piece(ISF_CENTER_NEAR_HALF, safe=((b, 1), (h, 0))),
    ),
    doc="s with P(S > s) = p for p in (0, 1/2], h = 1/2 - p >= 0 (exact where p >= 1/4): the Gaussian tail "
    "(directly, or from log p where p omega/sqrt(2 pi) would be subnormal) or the Laplace centre, each with a "
    "form near the median (exactly 0 at the median, h = 0).",
    paper_ref="Appendix B (missing; derived): the inverse of eq 10 piece by piece",    ignore=("over",),  # e^{-b^2} with b^2 overflowing (b > ~1e154): exactly 0
)

LOG_MGF_HALF = PiecewiseFunction(
    name="log_mgf_half",
    args=(b, m),
    pieces=(Piece(LOG_MGF_HALF_POS, safe=((m, sp.Rational(1, 2)),)), Piece(LOG_MGF_HALF_POS_FAR, safe=((m, 2),)),
            Piece(LOG_MGF_HALF_NEG, safe=((m, -1),))),
    doc="log E(m), m = b +- gamma s, the halves of the MGF (Sec III-B2) in their overflow-free forms "
    "(b m may overflow to inf for m >= 1 and huge b: its limits there are exact).",
    paper_ref="Sec III-B2",
    ignore=("divide", "over"),
)

DISTRIBUTION_FUNCTIONS = (LOGPDF_STD, SF_STD_NONNEG, LOGSF_STD_NONNEG, ISF_STD, LOG_MGF_HALF)
