"""Proofs for the flipped Huber distribution (mission rows A1-A5): topic ``distribution``.

Four groups of checks, in this order in the report (one module each):

1. :mod:`.derivations` -- **derivations** from the two definitions only (the loss rho, eq 7,
   and the density g = exp(-rho/gamma^2)/kappa, eq 8): SymPy integrates the Laplace centre and
   the Gaussian tails separately and the result is reduced to the paper's printed form (eq 9-12,
   the MGF of Sec III-B2, C of Lemma 2) or to fhsym's form where the paper's text is missing
   (the quantile, Appendix B).
2. :mod:`.kernels` -- **stable forms**: every kernel of :data:`fhsym.symbolic.stable.KERNELS`
   equals its paper form (the generic check of :mod:`proofs._kernels`), with a negative control
   per kernel.
3. :mod:`.quadrature` -- every closed form against :mod:`proofs.reference` (mpmath quadrature of
   the definitions) at >= 30 digits over a sweep of alpha/gamma from 1e-3 to 30 (1e4 for the
   scalar objects), several gamma, both pieces of every piecewise formula and |t| = alpha.
4. :mod:`.claims` -- the paper's claims: Proposition 1, sigma^2 <= gamma^2, I >= 1/gamma^2,
   NFI in [1, 2], Lemma 2, Lemma 6 (with erratum E1 on its proof).
"""

from ._base import E1, topic  # noqa: F401
from . import derivations, kernels, quadrature, claims  # noqa: F401,E402  (registration order = report order)
from .claims import theta_std  # noqa: F401,E402

__all__ = ["topic", "E1", "theta_std"]
