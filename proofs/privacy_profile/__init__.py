"""Proofs for the privacy of the 1-D flipped Huber mechanism (mission rows A6, A7, A10): topic ``privacy_profile``.

Paper: Sec II-C1 (privacy loss, centred loss), Sec IV-A (Theorem 3, eq 13-16, Table I, the
Gaussian-dominance argument), Appendix C-1 (ridge, affine upper bound) and Appendix F (Lemma 10,
Lemma 11).  Appendix C, which the paper cites for the piecewise centred loss and eq 15, is
missing from the text: it is derived here.

Checks, in this order in the report (one module each):

1. :mod:`.loss` -- the centred loss zeta~_d(t) = psi(t + d/2) - psi(t - d/2) (A6), derived
   piecewise per regime and sub-region; its ridge, groove, monotonicity, tails and the affine
   upper bound of Appendix C-1.
2. :mod:`.inverse` -- eq 15 against the exact sup-inverse of the definition, numerically (exact
   bisection) and symbolically (the loss solved on each piece; erratum PP1), and Table I,
   symbolically per regime and numerically (A7).
3. :mod:`.profile` -- eq 13: each case derived from eq 10 and Table I, continuity across the
   boundaries, every case, kernel and the float64 API against quadrature of the definition.
4. :mod:`.appendix` -- Lemma 10 and 11 of Appendix F on FH, the Section IV-A argument step by
   step, Sec V-A's OSGT numbers (PP2), the text's cross-references (PP3); PP4.
5. :mod:`.kernels` -- every kernel of ``PROFILE_KERNELS`` and ``LOSS_KERNELS`` equals its paper
   form (the generic check of :mod:`proofs._kernels`), with a negative control (CONTROL) each; the loss
   kernels' float64 accuracy.

Errata: PP1-PP4 (``docs/errata.md``, section "Privacy of the 1-D mechanism").
Units: b = alpha/gamma, D = Delta/gamma, s = t/gamma; lw = log(kappa/gamma).
"""

from ._base import PP1, PP2, PP3, PP4, topic  # noqa: F401
from . import loss, inverse, profile, appendix, kernels  # noqa: F401,E402  (registration order = report order)

__all__ = ["topic", "PP1", "PP2", "PP3", "PP4"]
