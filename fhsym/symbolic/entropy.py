"""The differential entropy of the flipped Huber law (derived here; the paper does not give it).

h(T) = -E[log g(T)] = log kappa + E[rho_alpha(T)]/gamma^2 (eq 8: -log g = rho_alpha/gamma^2 + log kappa).
In standard units (b = alpha/gamma, s = t/gamma, r_b(s) = rho_alpha(gamma s)/gamma^2, eq 7) and with
kappa/gamma = int exp(-r_b(s)) ds:

    h = log gamma + log(kappa/gamma) + E[r_b(S)],
    E[r_b(S)] = (2/(kappa/gamma)) [ int_0^b b s e^{-b s} ds + int_b^oo (s^2 + b^2)/2 e^{-(s^2 + b^2)/2} ds ].

:func:`expected_loss_integrals` is that definition integrated by SymPy;
:func:`expected_loss_std` is the stable closed form the numeric code evaluates
(:func:`fhsym.noise.flipped_huber_moments.expected_loss_std`, written with numpy/scipy directly,
not generated), in the stable nodes of :mod:`fhsym.symbolic.special`:

    E[r_b(S)] (kappa/gamma) / 2 = b^3 lowergamma_scaled(1, b^2) + e^{-b^2} (b + (1 + b^2) sqrt(pi/2) erfcx(b/sqrt 2)) / 2.

``tests/test_scipy_methods.py`` checks that the two agree (symbolically after rewriting the
stable nodes, and numerically at 50 digits) and that the numeric code matches mpmath
quadrature of the definition.

Examples
--------
>>> import sympy as sp
>>> from fhsym.symbolic.entropy import expected_loss_integrals, expected_loss_std
>>> from fhsym.symbolic.definitions import b
>>> sp.N(expected_loss_integrals().subs(b, 1), 15), sp.N(expected_loss_std().subs(b, 1), 15)
(1.37878372379082, 1.37878372379082)
"""

from __future__ import annotations

import sympy as sp

from .definitions import b, s
from .special import erfcx, lowergamma_scaled
from .stable import Kernel, lw

__all__ = ["expected_loss_integrals", "expected_loss_std", "ENTROPY_STD", "MP_KERNELS"]


def expected_loss_integrals() -> sp.Expr:
    """(kappa/gamma) E[r_b(S)] = 2 [int_0^b b s e^{-bs} ds + int_b^oo (s^2+b^2)/2 e^{-(s^2+b^2)/2} ds], by SymPy."""
    centre = sp.integrate(b * s * sp.exp(-b * s), (s, 0, b))
    tail = sp.integrate((s**2 + b**2) / 2 * sp.exp(-(s**2 + b**2) / 2), (s, b, sp.oo))
    return 2 * (centre + tail)


def expected_loss_std() -> sp.Expr:
    """The stable closed form of (kappa/gamma) E[r_b(S)] (positive terms; module docstring)."""
    return 2 * (b**3 * lowergamma_scaled(1, b**2)
                + sp.exp(-b**2) * (b + (1 + b**2) * sp.sqrt(sp.pi / 2) * erfcx(b / sp.sqrt(2))) / 2)


# The entropy in standard units, printed only into the arbitrary-precision target (fhsym._generated.mp_kernels: the
# mpmath numbers and the arb balls of FlippedHuber(...).at_precision; the double-precision code evaluates the same
# closed form in fhsym.noise.flipped_huber_moments).  Its "paper" form is the definition's two integrals, unevaluated.
_EXPECTED_LOSS_DEFINITION = 2 * (sp.Integral(b * s * sp.exp(-b * s), (s, 0, b))
                                 + sp.Integral((s**2 + b**2) / 2 * sp.exp(-(s**2 + b**2) / 2), (s, b, sp.oo)))
ENTROPY_STD = Kernel(
    name="entropy_std",
    args=(b, lw),
    expr=lw + sp.exp(-lw) * expected_loss_std(),
    paper=lw + sp.exp(-lw) * _EXPECTED_LOSS_DEFINITION,
    paper_ref="differential entropy h(T) - log gamma = log(kappa/gamma) + E[r_b(S)] (derived; the paper does not give it)",
    doc="h(T) - log gamma for T ~ FH(b, 1): lw + e^{-lw} (kappa/gamma) E[r_b(S)], every term positive.",
    domain={"b": (1e-6, 1e4)},
    no_stress="a sum of positive terms; checked against quadrature of the definition (tests/test_precise.py)",
)

#: kernels printed only into the mpmath/arb target (fhsym.codegen.target_mpmath)
MP_KERNELS = (ENTROPY_STD,)
