"""Laplace-limit forms for huge shape b = alpha/gamma, and the functions that fuse them in.

As b -> inf, FH(alpha, gamma^2) tends to the Laplace law of scale gamma^2/alpha (standard
units: scale 1/b).  The exact stable kernels of :mod:`fhsym.symbolic.stable` contain b^2,
b^3, b^{n+1} and e^{-b^2}: they overflow or underflow for b >~ 1e51 (``b^3 * 2/b^6``) or
1.3e154 (``b**2``) although the answers (Var = 2/b^2 ~ 2e-120 at b = 1e60, NFI in [1, 2])
are representable.  Past ``LAPLACE_B = 64`` the functions below use the Laplace-limit form
instead, each with a proven remainder (``proofs/laplace_limit.py``); with E = e^{-b^2},
A = sqrt(2 pi) e^{-b^2/2} Q(b) (0 < b A <= E) and Dn = 1 - E + b A in [1 - E, 1]:

* ``log(kappa/gamma) = log(2/b) + log1p(b A - E)``, so |lw - log(2/b)| <= 2E  (absolute);
* ``Var/gamma^2 = [2/b^2 - E (2 + 2/b^2) + b A]/Dn = (2/b^2)(1 + r)``, |r| <= E (b^2 + 2);
* ``gamma^2 I = 1 + (b^2 - 1 + E)/Dn = b^2 (1 + r)``, |r| <= 2E;
* ``NFI = Var I = 2 (1 + r)``, |r| <= 3 E (b^2 + 2);
* ``P(T > alpha) = A e^{-lw} <= e^{-b^2/2}``: 0 in double precision;
* ``log M(u) = -log(1 - (u/b)^2) + r`` for |u| <= b/2 (Laplace MGF), |r| <= 8 e^{-b^2/2}.

At b = 64 every remainder is below 1e-880 (relative), far below the double precision
rounding of the leading term: the fused functions are exact to rounding for every b > 64.
Identities and bounds are proven symbolically in ``proofs/laplace_limit.py``, which also
checks each fused function against mpmath at 50 digits for b in [64, 1e300].

>>> sp.sstr(VARIANCE_LAPLACE.expr)
'2*(1/b)**2'
"""

from __future__ import annotations

import functools
from typing import Any

import sympy as sp
from sympy.codegen.cfunctions import log1p

from . import definitions as D
from .piecewise import Piece, PiecewiseFunction
from .stable import DISTRIBUTION_FUNCTIONS as _STABLE_FUNCTIONS
from .stable import FISHER, LAPLACE_B, LOG_OMEGA_TILDE, LW_PAPER, NFI, TAIL_MASS, VARIANCE, Kernel, lw

__all__ = [
    "LAPLACE_B",
    "LOG_OMEGA_TILDE_LAPLACE",
    "VARIANCE_LAPLACE",
    "FISHER_LAPLACE",
    "LOG_MGF_LAPLACE",
    "LAPLACE_KERNELS",
    "LOG_KAPPA_STD",
    "VARIANCE_OF_B",
    "FISHER_OF_B",
    "NFI_OF_B",
    "TAIL_MASS_OF_B",
    "LAPLACE_FUNCTIONS",
    "DISTRIBUTION_FUNCTIONS",
    "u",
]

b = D.b
u = sp.Symbol("u", real=True)  # gamma * s, the MGF argument in standard units
_beyond = sp.Gt(b, LAPLACE_B)
_laplace_domain = {"b": (64.0, 1e300)}
#: a Laplace-limit kernel of b alone: applied beyond LAPLACE_B, its identity sampled on b in [64, 1e300]
_of_b_beyond = functools.partial(Kernel, args=(b,), domain=_laplace_domain, region=_beyond)

LOG_OMEGA_TILDE_LAPLACE = _of_b_beyond(
    name="log_omega_tilde_laplace",
    expr=sp.log(2) - sp.log(b),
    paper=LW_PAPER,
    paper_ref="eq 9 (log omega - b^2/2), Laplace limit b > 64: remainder log1p(b A - E), |.| <= 2 e^{-b^2}",
    doc="log(kappa/gamma) = log(2/b) for b > 64 (the Laplace normaliser), absolute error <= 2 e^{-b^2}.",
)

VARIANCE_LAPLACE = _of_b_beyond(
    name="variance_std_laplace",
    expr=2 * sp.UnevaluatedExpr(1 / b) ** 2,  # (1/b)^2: no b^2 (overflows for b > 1.3e154)
    paper=D.variance_of_b,
    paper_ref="eq 11, Laplace limit b > 64: (2/b^2)(1 + r), |r| <= e^{-b^2}(b^2 + 2)",
    doc="Var(T)/gamma^2 = 2/b^2 (the Laplace variance) for b > 64, relative error <= e^{-b^2}(b^2 + 2).",
)

FISHER_LAPLACE = _of_b_beyond(
    name="fisher_std_laplace",
    expr=b**2,
    paper=D.fisher_of_b,
    paper_ref="eq 12, Laplace limit b > 64: b^2 (1 + r), |r| <= 2 e^{-b^2}",
    doc="gamma^2 I(T) = b^2 (the Laplace Fisher information) for b > 64; overflows (to inf) only where b^2 does.",
)

LOG_MGF_LAPLACE = Kernel(
    name="log_mgf_laplace",
    args=(b, u),
    expr=-log1p(-sp.UnevaluatedExpr(u / b) ** 2),
    paper=sp.log(D.mgf.subs(D.alpha, b * D.gamma).subs(D.s, u / D.gamma).subs(D.gamma, 1)),
    paper_ref="Sec III-B2 (MGF), Laplace limit b > 64, |u| <= b/2: -log(1 - (u/b)^2) + r, |r| <= 8 e^{-b^2/2}",
    doc="log E[exp(u S)] = -log(1 - (u/b)^2) (the Laplace MGF) for b > 64 and |u| <= b/2.",
    domain={"b": (64.0, 1e300), "u": (-0.5, 0.5)},  # u in units of b
    region=sp.And(_beyond, sp.Le(sp.Abs(u), b / 2)),
)

LAPLACE_KERNELS = (LOG_OMEGA_TILDE_LAPLACE, VARIANCE_LAPLACE, FISHER_LAPLACE, LOG_MGF_LAPLACE)

# The Gaussian (b = 0, lw = log sqrt(2 pi)): where the JAX target evaluates an exact kernel outside its region
_gauss = ((b, 0), (lw, sp.log(2 * sp.pi) / 2))
_far = ((b, 2 * LAPLACE_B),)

LOG_KAPPA_STD = PiecewiseFunction(
    name="log_kappa_std",
    args=(b,),
    pieces=(Piece(LOG_OMEGA_TILDE, safe=((b, 0),)), Piece(LOG_OMEGA_TILDE_LAPLACE, safe=_far)),
    doc="lw = log(kappa/gamma) = log(omega) - b^2/2 for every b >= 0: the exact stable form up to b = 64, "
    "log(2/b) beyond.",
    paper_ref="eq 9, Definition 7",
)


def _exact_then_laplace(name: str, exact: Kernel, beyond: Any, doc: str, paper_ref: str, **kw: Any) -> PiecewiseFunction:
    """A function of (b, lw) for every b >= 0: the ``exact`` kernel up to LAPLACE_B, ``beyond`` past it.

    ``beyond`` is the Laplace-limit kernel, or the constant the function equals to double precision there.
    """
    far = Piece(beyond, safe=_far) if isinstance(beyond, Kernel) else Piece(value=beyond, region=_beyond)
    return PiecewiseFunction(name=name, args=(b, lw), pieces=(Piece(exact, safe=_gauss), far), doc=doc,
                             paper_ref=paper_ref, **kw)


VARIANCE_OF_B = _exact_then_laplace(
    "variance_of_b", VARIANCE, VARIANCE_LAPLACE,
    doc="Var(T)/gamma^2 for every b >= 0 (lw = log_kappa_std(b)): positive terms up to b = 64, 2/b^2 beyond "
    "(underflows gracefully past b ~ 1e154, where the true value is subnormal).",
    paper_ref="eq 11",
)

FISHER_OF_B = _exact_then_laplace(
    "fisher_of_b", FISHER, FISHER_LAPLACE,
    doc="gamma^2 I(T) for every b >= 0: the exact form up to b = 64, b^2 beyond (inf where b^2 exceeds the float range).",
    paper_ref="eq 12",
    ignore=("over",),
)

NFI_OF_B = _exact_then_laplace(
    "nfi_of_b", NFI, sp.Integer(2),
    doc="Var(T) I(T) for every b >= 0: the product of the exact forms up to b = 64, 2 (the Laplace value; "
    "relative remainder <= 3 e^{-b^2}(b^2 + 2)) beyond.",
    paper_ref="Sec II-D (NFI), eq 11, eq 12",
)

TAIL_MASS_OF_B = _exact_then_laplace(
    "tail_mass_of_b", TAIL_MASS, sp.Integer(0),
    doc="P(T > alpha) for every b >= 0: the exact form up to b = 64, 0 beyond (the true value is below "
    "e^{-b^2/2} <= e^{-2048}, under half the smallest subnormal: 0 is its correctly rounded double).",
    paper_ref="eq 10 at t = alpha",
)

LAPLACE_FUNCTIONS = (LOG_KAPPA_STD, VARIANCE_OF_B, FISHER_OF_B, NFI_OF_B, TAIL_MASS_OF_B)
#: every piecewise function of the distribution (printed into flipped_huber_pieces)
DISTRIBUTION_FUNCTIONS = _STABLE_FUNCTIONS + LAPLACE_FUNCTIONS
