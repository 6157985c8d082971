"""The staircase composed through a proven privacy-loss distribution (the frontier's ``staircase_pld``).

:func:`fhsym.calibrate` calibrates the staircase (Geng & Viswanath 2016) on K coordinates and T
releases by basic composition of pure DP: eps0 = eps / (K T) each.  The staircase is not
log-concave, so the corner argument of the ``"pld-kfold"`` claim does not apply to it; the claim
``"pld-kfold-sup"`` (:mod:`fhsym.accounting.claims`) does: it composes the symmetric pair built from
the sup over the shifts ``0 < d <= Delta`` of the 1-D profile, which for the staircase with design
sensitivity ``Delta0 = Delta`` is the profile at Delta (:meth:`fhsym.Staircase.worst_profile_enclosure`)::

    delta_1(eps) = p (1 - e^{eps - eps0})_+,   p = 1/2 + (1 - b) min(gamma, 1 - gamma) / (2 (gamma + (1 - gamma) b)),

b = e^{-eps0}: the privacy loss is eps0 with probability p, -eps0 with probability b p, 0 otherwise.
Its n-fold composition (n = K T) is, with N ~ Bin(n, p (1 + b)) the number of non-zero losses and
s = 1/(1 + b) (derived here: the loss is (2k - N) eps0 with k ~ Bin(N, s), and
sum_k Bin(k; N, s) e^{-2 k eps0} e^{N eps0} = Bin-tail at 1 - s)::

    delta_n(eps) = sum_N Bin(N; n, p (1 + b)) [SF(k0; N, s) - e^{eps} SF(k0; N, 1 - s)],
    k0 = floor((N + floor(eps/eps0)) / 2),

which :func:`composed_delta` evaluates in floating point for the search only.  The search
(:func:`search`) minimises the variance over (eps0, gamma), gamma = c gamma*(eps0), c in [0, 1]
(golden section), eps0 by bisection; the result is then certified at its exact floats by
``"pld-kfold-sup"`` (:func:`fhsym.calibration.engine.certify`, eps0 lowered until the proven bound
is <= delta) and is re-checked by :func:`fhsym.verify_certificate` like every certificate.

>>> cal = calibrate_staircase_pld(3.0, 1e-6, dim=5)
>>> cal.certificate.claim, cal.achieved_delta <= 1e-6, cal.variance < calibrate_pure(3.0, 1e-6, dim=5).variance
('pld-kfold-sup', True, True)
"""

from __future__ import annotations

import math
from typing import Tuple

import numpy as np
from scipy import stats

from .._core import domains as V
from .._core.limits import check_folds
from .._core.search import golden_section
from .._core.sensitivities import resolve_sensitivities
from ..accounting.claims import KFOLD_SUP
from ..calibration import Calibration, calibrate
from ..calibration.engine import Request, certify, result
from ..noise import Staircase
from ..noise.staircase import staircase_optimal_gamma

__all__ = ["calibrate_staircase_pld", "calibrate_pure", "composed_delta", "loss_mass", "search", "METHOD"]

METHOD = "kfold-pld-sup"
_WINDOW = 40.0  # standard deviations of N kept (the mass beyond is below e^-800)


def loss_mass(eps0: float, gamma: float) -> float:
    """p = P(loss = eps0) of the staircase (design eps0, gamma, Delta0 = Delta) at the shift Delta (module docstring).

    >>> round(loss_mass(1.3, 0.3), 12) == round(float(Staircase(1.3, 1.0, 0.3).privacy_profile(0.0, 1.0))
    ...                                          / -math.expm1(-1.3), 12)
    True
    """
    b = math.exp(-eps0)
    omb = -math.expm1(-eps0)
    return 0.5 + omb * min(gamma, 1.0 - gamma) / (2.0 * (gamma + (1.0 - gamma) * b))


def composed_delta(eps0: float, gamma: float, epsilon: float, folds: int) -> float:
    """delta(epsilon) of ``folds`` compositions of the staircase at Delta = Delta0 (floating point; search only).

    >>> import fhsym
    >>> from fhsym.accounting.claims import KFOLD_SUP
    >>> from fhsym.calibration.engine import Request
    >>> from fhsym._core.sensitivities import resolve_sensitivities
    >>> st = fhsym.Staircase(0.4, 1.0, 0.3)
    >>> proven = KFOLD_SUP.certify_evidence(Request(2.0, 1e-3, resolve_sensitivities(20, 1.0, None, None)).release(st),
    ...                                     1e-3).upper
    >>> bool(abs(composed_delta(0.4, 0.3, 2.0, 20) / proven - 1) < 1e-6)
    True
    """
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


def _variance(eps0: float, gamma: float) -> float:
    return Staircase(eps0, 1.0, gamma).var()


def _largest_eps0(c: float, epsilon: float, target: float, folds: int) -> float:
    """The largest eps0 (to ~1e-9 relative) with composed_delta <= target at gamma = c gamma*(eps0)."""
    def ok(e0: float) -> bool:
        return composed_delta(e0, c * staircase_optimal_gamma(e0), epsilon, folds) <= target

    lo = epsilon / folds  # pure DP: delta = 0
    hi = lo
    while ok(hi * 2.0) and hi < 1e3 * epsilon:
        hi *= 2.0
    hi *= 2.0
    for _ in range(64):
        if hi / lo - 1.0 < 1e-10:
            break
        mid = math.sqrt(lo * hi)
        if ok(mid):
            lo = mid
        else:
            hi = mid
    return lo


def search(epsilon: float, delta: float, folds: int) -> Tuple[float, float]:
    """(eps0, gamma) of least variance with composed_delta <= delta (1 - 1e-6), at Delta = Delta0 = 1 (floats).

    >>> e0, g = search(3.0, 1e-6, 5)
    >>> e0 > 3.0 / 5, composed_delta(e0, g, 3.0, 5) <= 1e-6
    (True, True)
    """
    target = delta * (1.0 - 1e-6)

    def cost(c: float) -> Tuple[float, float, float]:
        e0 = _largest_eps0(c, epsilon, target, folds)
        g = c * staircase_optimal_gamma(e0)
        return _variance(e0, g), e0, g

    seen = [cost(0.0), cost(1.0)]

    def variance_at(c: float) -> float:
        seen.append(cost(c))
        return seen[-1][0]

    golden_section(variance_at, 0.0, 1.0, 14)  # c in [0, 1]: 16 evaluations
    best = min(seen)
    return best[1], best[2]


def calibrate_staircase_pld(epsilon: float, delta: float, dim: int = 1, compositions: int = 1,
                            sensitivity: float = 1.0) -> Calibration:
    """The staircase on ``dim`` coordinates, ``compositions`` releases, over the box ||d||_inf <= ``sensitivity``,
    certified by the proven PLD of claim ``"pld-kfold-sup"`` (module docstring).  ``dim * compositions >= 2``."""
    eps = V.check_scalar(epsilon, V.EPSILON)
    dl = V.check_scalar(delta, V.DELTA)
    s = resolve_sensitivities(dim, sensitivity, None, None)
    T = V.check_int(compositions, "compositions", 1)
    request = Request(eps, dl, s, T)
    if request.folds < 2:
        raise ValueError(f"dim * compositions must be >= 2 for the composed staircase (one coordinate: its 1-D "
                         f"calibration); got dim = {dim}, compositions = {compositions}")
    check_folds(request.dim, request.compositions, "the composed staircase")  # bounded work, up front
    e0, gamma = search(eps, dl, request.folds)
    D = s.sensitivity
    noise, ev, steps = certify(lambda r: Staircase(e0 / r, D, gamma), 1.0, KFOLD_SUP, request, what="eps0 / r",
                               first_step=1e-9)
    return result(noise, ev, steps, request, KFOLD_SUP, METHOD)


def calibrate_pure(epsilon: float, delta: float, dim: int = 1, compositions: int = 1,
                   sensitivity: float = 1.0) -> Calibration:
    """The pure staircase of :func:`fhsym.calibrate` (basic composition), for comparison."""
    return calibrate(epsilon, delta, sensitivity=sensitivity, dim=dim, compositions=compositions,
                     mechanism=Staircase.name)
