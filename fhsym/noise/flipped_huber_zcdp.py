"""Zero-concentrated DP parameters of flipped Huber noise (talk slides, "zCDP of FH"; paper Sec VI-A).

Theorem (slides): the 1-D FH mechanism with sensitivity Delta is (R_Delta(alpha)/(2 gamma^2),
Delta^2/(2 gamma^2))-zCDP, R_Delta(alpha) = alpha^2 - [alpha - Delta]_+^2 (Lemma 5); K i.i.d.
coordinates give (K R_Delta(alpha)/(2 gamma^2), Delta_2^2/(2 gamma^2)).  The proof, the refinement and the
composition and conversion to (eps, delta) are in :mod:`fhsym.accounting.zcdp`; these parameters depend on
the noise law only, so they live with it (``FlippedHuber.zcdp`` uses them).

>>> zcdp_params(alpha=1.0, gamma=2.0, sensitivity=1.0)
ZCDP(xi=0.125, eta=0.125)
"""

from __future__ import annotations

import math
from typing import NamedTuple, Optional


from .._core import domains as V
from .._core.sensitivities import div_sqrt_up, div_up, resolve_sensitivities
from .._core.types import Real
from .._generated import kdim as KD

__all__ = ["R_Delta", "ZCDP", "zcdp_params"]


class ZCDP(NamedTuple):
    """(xi, eta)-zCDP parameters: D_L(M(x) || M(x')) <= xi + L eta for every order L > 1 (Bun & Steinke 2016).

    A named tuple: ``xi, eta = fh.zcdp()`` and ``fh.zcdp() == (xi, eta)`` work as for a plain pair.

    >>> z = ZCDP(xi=0.125, eta=0.5)
    >>> z.eta, tuple(z) == (0.125, 0.5)
    (0.5, True)
    """

    xi: float
    eta: float


def R_Delta(alpha: Real, sensitivity: Real) -> Real:
    """R_Delta(alpha) = alpha^2 - [alpha - Delta]_+^2 (Lemma 5), computed without cancellation.

    Equals alpha^2 for alpha <= Delta and Delta (2 alpha - Delta) beyond; non-decreasing
    and concave in alpha, non-decreasing and concave in Delta.
    """
    out = KD.R_Delta(alpha, sensitivity)
    return out[()] if out.ndim == 0 else out



def zcdp_params(alpha: float, gamma: float, sensitivity: Optional[float] = None, dim: int = 1,
                l2_sensitivity: Optional[float] = None, l1_sensitivity: Optional[float] = None,
                refine: bool = False) -> ZCDP:
    """(xi, eta) of the K-dim FH mechanism: (K R_Delta(alpha)/(2 gamma^2), Delta_2^2/(2 gamma^2)).

    ``dim = 1`` gives the 1-D theorem (R_Delta(alpha)/(2 gamma^2), Delta^2/(2 gamma^2)).  With
    ``refine=True`` xi uses the largest sum of R_{|d_i|} over the sensitivity set (<= the slides' value).

    >>> zcdp_params(alpha=1.0, gamma=2.0, sensitivity=1.0)
    ZCDP(xi=0.125, eta=0.125)
    """
    a = V.check_scalar(alpha, V.ALPHA)
    g = V.check_scalar(gamma, V.GAMMA)
    K, D, D2, D1 = resolve_sensitivities(dim, sensitivity, l2_sensitivity, l1_sensitivity)
    c = min(D, div_sqrt_up(D2, K), div_up(D1, K)) if refine else D  # rounded up: xi grows with c
    xi = float(KD.zcdp_xi(K, float(R_Delta(a, c)), g))
    eta = float(KD.zcdp_eta(D2, g))
    return ZCDP(xi, eta)
