"""The staircase composed over K coordinates and T releases: its float bound and search (:meth:`fhsym.Staircase.sup_calibration`).

The staircase (Geng & Viswanath 2016) is not log-concave, so the corner argument of the ``"pld-kfold"``
claim does not apply to it; the claim ``"pld-kfold-sup"`` (:mod:`fhsym.accounting.claims`) does: it
composes the symmetric pair built from the sup over the shifts ``0 < d <= Delta`` of the 1-D profile,
which for the staircase with design sensitivity ``Delta0 = Delta`` is the profile at Delta
(:meth:`fhsym.Staircase.worst_profile_enclosure`)::

    delta_1(eps) = p (1 - e^{eps - eps0})_+,   p = 1/2 + (1 - b) min(gamma, 1 - gamma) / (2 (gamma + (1 - gamma) b)),

b = e^{-eps0}: the privacy loss is eps0 with probability p, -eps0 with probability b p, 0 otherwise.
Its n-fold composition (n = K T) is, with N ~ Bin(n, p (1 + b)) the number of non-zero losses and
s = 1/(1 + b) (derived here: the loss is (2k - N) eps0 with k ~ Bin(N, s), and
sum_k Bin(k; N, s) e^{-2 k eps0} e^{N eps0} = Bin-tail at 1 - s)::

    delta_n(eps) = sum_N Bin(N; n, p (1 + b)) [SF(k0; N, s) - e^{eps} SF(k0; N, 1 - s)],
    k0 = floor((N + floor(eps/eps0)) / 2),

which :func:`composed_delta` evaluates in floating point for the search only.  The search
(:func:`search`) minimises the variance over (eps0, gamma), gamma = c gamma*(eps0), c in [0, 1]
(golden section, :func:`fhsym._core.minimise.golden_section`), eps0 the largest meeting the target at each c
(:func:`fhsym._core.search.largest_true_geometric`); with ``cost="magnitude"`` gamma is the magnitude-optimal
gamma(eps0) and eps0 alone is searched.  The calibrator certifies the result at its exact floats through
``"pld-kfold-sup"`` (:mod:`fhsym.calibration.plans`).
"""

from __future__ import annotations

import math
from typing import Callable, List, Tuple

import numpy as np

from .._core.minimise import golden_section
from .._core.search import largest_true_geometric

__all__ = ["composed_delta", "loss_mass", "search"]

_WINDOW = 40.0  # standard deviations of N kept (the mass beyond is below e^-800)
_MARGIN = 1e-6  # the search aims at delta (1 - this): the float bound lies within it of the proven one


def loss_mass(eps0: float, gamma: float) -> float:
    """p = P(loss = eps0) of the staircase (design eps0, gamma, Delta0 = Delta) at the shift Delta (module docstring).

    >>> import fhsym, math
    >>> round(loss_mass(1.3, 0.3), 12) == round(float(fhsym.Staircase(1.3, 1.0, 0.3).privacy_profile(0.0, 1.0))
    ...                                          / -math.expm1(-1.3), 12)
    True
    """
    b = math.exp(-eps0)
    omb = -math.expm1(-eps0)
    return 0.5 + omb * min(gamma, 1.0 - gamma) / (2.0 * (gamma + (1.0 - gamma) * b))


def composed_delta(eps0: float, gamma: float, epsilon: float, folds: int) -> float:
    """delta(epsilon) of ``folds`` compositions of the staircase at Delta = Delta0 (floating point; search only)."""
    b = math.exp(-eps0)
    p = loss_mass(eps0, gamma)
    pi = min(p * (1.0 + b), 1.0)
    s = 1.0 / (1.0 + b)
    mstar = math.floor(epsilon / eps0)
    if mstar >= folds:
        return 0.0
    mu = folds * pi
    sd = math.sqrt(folds * pi * (1.0 - pi)) if pi < 1.0 else 0.0
    lo = max(mstar + 1, int(math.floor(mu - _WINDOW * sd)))
    hi = min(folds, int(math.ceil(mu + _WINDOW * sd)))
    if lo > hi:
        return 0.0
    from scipy import stats  # on first use: scipy.stats is ~0.5 s of every `fhsym calibrate` otherwise

    N = np.arange(lo, hi + 1)
    k0 = (N + mstar) // 2  # k > k0  <=>  2k - N > mstar  <=>  loss (2k - N) eps0 > eps (up to loss = eps, weight 0)
    # the first term (k = k0 + 1) apart, with its weight 1 - e^{eps - m eps0} from expm1 (no cancellation)
    k1 = k0 + 1
    m1 = 2 * k1 - N
    w1 = -np.expm1(epsilon - m1 * eps0)
    first = np.where(k1 <= N, stats.binom.pmf(k1, N, s) * w1, 0.0)
    rest = stats.binom.sf(k1, N, s) - math.exp(epsilon) * stats.binom.sf(k1, N, 1.0 - s)
    inner = first + np.maximum(rest, 0.0)
    return float(np.sum(stats.binom.pmf(N, folds, pi) * inner))


def search(epsilon: float, delta: float, folds: int, variance: Callable[[float, float], float],
           optimal_gamma: Callable[[float], float], shapes: bool = True) -> Tuple[float, float]:
    """(eps0, gamma) of least ``variance(eps0, gamma)`` with composed_delta <= delta (1 - 1e-6), at Delta = Delta0 = 1
    (floats), gamma = c ``optimal_gamma(eps0)``, c in [0, 1] (``shapes=False``: c = 1, eps0 alone).

    >>> import fhsym
    >>> from fhsym.noise.staircase import staircase_optimal_gamma
    >>> e0, g = search(3.0, 1e-6, 5, lambda e, g: fhsym.Staircase(e, 1.0, g).var(), staircase_optimal_gamma)
    >>> e0 > 3.0 / 5, composed_delta(e0, g, 3.0, 5) <= 1e-6
    (True, True)
    """
    target = delta * (1.0 - _MARGIN)

    def best_at(c: float) -> Tuple[float, float, float]:
        def ok(e0: float) -> bool:
            return composed_delta(e0, c * optimal_gamma(e0), epsilon, folds) <= target

        e0 = largest_true_geometric(ok, epsilon / folds, limit=1e3 * epsilon)  # eps / folds: pure DP, delta = 0
        g = c * optimal_gamma(e0)
        return variance(e0, g), e0, g

    if not shapes:
        _, e0, g = best_at(1.0)
        return e0, g
    seen: List[Tuple[float, float, float]] = [best_at(0.0), best_at(1.0)]

    def variance_at(c: float) -> float:
        seen.append(best_at(c))
        return seen[-1][0]

    golden_section(variance_at, 0.0, 1.0, 14)  # c in [0, 1]: 16 evaluations
    best = min(seen)
    return best[1], best[2]
