"""Minimum-variance discrete flipped Huber parameters for (eps, delta)-DP, certified.

Problem: given eps, delta, the lattice step h and a sensitivity of S steps, minimise
Var(DiscreteFlippedHuber(alpha, gamma, h)) subject to delta_S(eps; alpha, gamma) <= delta, with
delta_S the exact profile of the discrete mechanism (:mod:`fhsym.symbolic.discrete`).

Search: the ratio b = alpha/gamma is scanned on {0} U a log grid from 1e-3 to 1e2 and refined
by golden-section search in log b around the best grid point; for each b the smallest gamma
with float profile * (1 + 1e-9) <= delta is found by Brent's method in log gamma (to 1e-6
during the search, 1e-11 at the chosen b).  The result is
then certified by the one engine (:func:`fhsym.calibration.engine.certify`) at its exact binary
(alpha, gamma): the upper end of the arb enclosure of the exact lattice profile
(:func:`fhsym.privacy.discrete_enclosure.discrete_profile_enclosure`) must be <= delta, else gamma is
raised (alpha/gamma fixed) by the engine's doubling steps, starting at 1e-9 relative (never under-noised).
The result is the one :class:`~fhsym.Calibration` (``cal.step`` and ``cal.sensitivity_steps`` from
``cal.extra``; ``cal.delta_certified`` = ``cal.achieved_delta``).
"""

from __future__ import annotations

import math
from typing import Union

from fractions import Fraction

import numpy as np
from scipy import optimize

from .._core import domains as V
from ..noise.discrete_flipped_huber import STEP, DiscreteFlippedHuber, lattice_sensitivity
from ..noise.discrete_profile_arb import profile_enclosure_steps
from ..privacy.bounds import Bound
from .engine import Request, certify, result
from .result import Calibration

__all__ = ["DiscreteCalibration", "calibrate_discrete_flipped_huber"]

#: fhsym 0.2.dev name of the result: the one Calibration
DiscreteCalibration = Calibration

_MARGIN = 1e-9
_B_GRID = [0.0] + [10.0 ** (-3 + 0.25 * i) for i in range(21)]
_GOLDEN = 0.5 * (math.sqrt(5.0) - 1.0)


_MAX_STEPS = 2**52


def _log_profile(eps: float, b: float, g: float, h: float, s: int) -> float:
    return DiscreteFlippedHuber(b * g, g, h)._log_profile_one(eps, s)


def _min_gamma(eps: float, b: float, h: float, s: int, target_log: float, rtol: float) -> float:
    """Smallest gamma (to ``rtol`` relative) with float profile * (1 + 1e-9) <= delta.

    Brent's method on log delta as a function of log gamma, then the first point on the
    feasible side of the root (checked).
    """
    lim = target_log - math.log1p(_MARGIN)

    def f(x: float) -> float:
        return _log_profile(eps, b, math.exp(x), h, s) - lim

    hi = math.log(s * h)
    while f(hi) > 0:
        hi += math.log(2.0)
    lo = hi - math.log(2.0)
    while f(lo) <= 0:
        lo -= math.log(2.0)
        if lo < -690:
            return math.exp(lo)
    r = optimize.brentq(f, lo, hi, xtol=rtol, rtol=4 * np.finfo(float).eps)
    x = r + rtol
    while f(x) > 0:
        x += rtol
    return math.exp(x)


def calibrate_discrete_flipped_huber(
    epsilon: float, delta: float, step: float, sensitivity: Union[float, Fraction] = 1.0
) -> Calibration:
    """Minimum-variance (alpha, gamma) of the discrete flipped Huber for (eps, delta)-DP, certified.

    ``sensitivity`` must be a multiple of ``step``
    (:func:`fhsym.noise.discrete_flipped_huber.lattice_sensitivity`).  The returned
    ``delta_certified`` is the upper end of the arb enclosure of the exact profile at the
    returned binary parameters and is <= ``delta``.

    Examples
    --------
    >>> cal = calibrate_discrete_flipped_huber(1.0, 1e-5, step=0.125)
    >>> cal.delta_certified <= 1e-5
    True
    >>> cal.sensitivity_steps
    8
    """
    eps = V.check_scalar(epsilon, V.EPSILON)
    dl = V.check_scalar(delta, V.DELTA)
    h = V.check_scalar(step, STEP)
    s = lattice_sensitivity(sensitivity, h)
    if s > _MAX_STEPS:  # the noise spans about s steps: its lattice index must stay an exact float
        raise ValueError(f"step must be at least sensitivity/2^52 (the noise on step*Z spans about sensitivity/step "
                         f"points); got step={step!r}, sensitivity={sensitivity!r} ({float(s):.3g} steps)")
    tlog = math.log(dl)

    cache = {}

    def var_of(b: float) -> float:
        if b not in cache:
            g = _min_gamma(eps, b, h, s, tlog, 1e-6)
            cache[b] = (DiscreteFlippedHuber(b * g, g, h).var(), g)
        return cache[b][0]

    vals = [var_of(b) for b in _B_GRID]
    i = min(range(len(vals)), key=vals.__getitem__)
    if 0 < i < len(_B_GRID) - 1 and _B_GRID[i - 1] > 0:
        lo, hi = math.log(_B_GRID[i - 1]), math.log(_B_GRID[i + 1])
        x1, x2 = hi - _GOLDEN * (hi - lo), lo + _GOLDEN * (hi - lo)
        f1, f2 = var_of(math.exp(x1)), var_of(math.exp(x2))
        for _ in range(30):
            if f1 <= f2:
                hi, x2, f2 = x2, x1, f1
                x1 = hi - _GOLDEN * (hi - lo)
                f1 = var_of(math.exp(x1))
            else:
                lo, x1, f1 = x1, x2, f2
                x2 = lo + _GOLDEN * (hi - lo)
                f2 = var_of(math.exp(x2))
    b_best = min(cache, key=lambda b: cache[b][0])
    g = _min_gamma(eps, b_best, h, s, tlog, 1e-11)

    def family(gamma: float) -> DiscreteFlippedHuber:
        return DiscreteFlippedHuber(b_best * gamma, gamma, h)

    def bound(d: DiscreteFlippedHuber) -> Bound:
        lo, up = profile_enclosure_steps(eps, d.alpha, d.gamma, h, s)
        return Bound(lo, up, "arb", True, f"discrete FH on {h:g}*Z, sensitivity {s} steps: exact lattice sum "
                     f"enclosed in ball arithmetic (python-flint arb) at the exact binary parameters")

    d, bd, steps = certify(family, g, bound, dl, what="gamma", first_step=_MARGIN)
    request = Request(eps, dl, float(s * Fraction(h)), float(s * Fraction(h)), float(s * Fraction(h)))
    cal = result(d, bd, steps, request, "discrete-exact-lattice", covers=f"sensitivity = {s} lattice steps of {h:g}",
                 claim="profile-lattice")
    cal.extra.update({"step": h, "sensitivity_steps": s, "delta_certified": bd.upper})
    return cal
