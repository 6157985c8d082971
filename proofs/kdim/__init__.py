"""Proofs for K dimensions and composition (mission rows A8, A9, F, G).

Checks, in report order: 1. R_Delta and its inverse (Lemma 5, eq 21). 2. The affine bound of
the privacy loss (eq 18, App C-1). 3. Lemma 5: step (20) does not follow from sub-Gaussianity
as cited (K1); it holds for FH by Proschan's peakedness theorem; the statement by quadrature.
4. Lemma 6 is checked (erratum E1) by the ``distribution`` topic. 5. Lemma 7 fails below the
extremes of the sensitivity set (K2); it holds at the extreme vector. 6. Theorem 8: the Gaussian
limit; the box against the certified exact K-fold profile; tighter sets (no counterexample, not
a proof). 7. The box worst case. 8. zCDP against the exact Renyi divergence; the K-dim
parameters. 9. Algorithm 2 against the PLD; its line-4 typo (K3). 10. Table II is not at
delta = 1e-8 (K4; consistent with 1e-6); the K = 5, eps = 0.3 "exact" variance 502 is infeasible (K5).
Checks whose evidence is fhsym's own PLD or float code are CROSS-CHECKs.

One module per group, registered in report order: :mod:`.lemmas` (1-5), :mod:`.theorem8` (6-7),
:mod:`.accounting` (8-10); the topic, its errata and shared symbols in :mod:`._base`.
"""

from ._base import K1, K2, K3, K4, K5, topic  # noqa: F401
from . import lemmas, theorem8, accounting  # noqa: F401,E402  (registration order = report order)
