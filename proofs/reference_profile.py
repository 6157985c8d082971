"""Ground truth of the 1-D privacy profile from the definitions (part of :mod:`proofs.reference`).

delta(eps) = int [g(t) - e^eps g(t + Delta)]_+ dt by quadrature of eq 7-8 only; see the
recipe in :mod:`proofs.reference` (imported from there as ``reference.privacy_profile``).
"""

from __future__ import annotations

from typing import Any

import mpmath
from mpmath import mp, mpf

from .reference import DEFAULT_DPS, _MAX_STEPS, _Z_parts, _integrate, _r, _std, _std_mags, _workdps

__all__ = ["privacy_profile"]


# ---------------------------------------------------------------------------
# privacy profile
# ---------------------------------------------------------------------------


def _crossing(eps: mpf, b: mpf, d: mpf) -> mpf:
    """s1 = sup{s : L(s) <= eps}, L(s) = r_b(s + d) - r_b(s), by bisection.

    L is non-decreasing (r_b convex, d > 0) and runs from -inf to +inf, so s1
    exists.  L has plateaus (L = +-b d while s and s + d are on the same
    linear piece); taking the *right* end of the level set (the paper's
    right-continuous partial inverse) matters: the integrand vanishes on the
    plateau, so the integration must start where it becomes positive.
    """

    def L(s):
        return _r(s + d, b) - _r(s, b)

    lo, hi = mpf(-1), mpf(1)
    for _ in range(_MAX_STEPS):
        if L(lo) <= eps:
            break
        lo *= 2
    for _ in range(_MAX_STEPS):
        if L(hi) > eps:
            break
        hi *= 2
    tol = mpf(2) ** (-mp.prec) * (1 + abs(lo) + abs(hi))
    for _ in range(4 * mp.prec + 100):
        mid = (lo + hi) / 2
        if L(mid) <= eps:
            lo = mid
        else:
            hi = mid
        if hi - lo <= tol:
            break
    return (lo + hi) / 2


def privacy_profile(eps: Any, alpha: Any, gamma: Any, Delta: Any, dps: int = DEFAULT_DPS) -> mpf:
    """delta(eps) = int [g(t) - e**eps g(t + Delta)]_+ dt, from the definition.

    Standardised (s = t/gamma, d = Delta/gamma): the integrand is
    h(s) (1 - exp(eps - L(s))) with L(s) = r_b(s+d) - r_b(s) = psi(t+Delta) -
    psi(t); it is positive exactly for s > s1 where L(s1) = eps (bisection,
    :func:`_crossing`).  Integrate exp(-r_b(s)) * (-expm1(eps - L(s))) over
    [s1, inf), peak at max(s1, 0), splits at +-b, +-b - d, 0, s1.
    """
    with mp.workdps(15):
        mags = [mpf(eps), mpf(Delta) / mpf(gamma)]
    with mp.workdps(_workdps(dps, *_std_mags(None, alpha, gamma), *mags)):
        _, b = _std(0, alpha, gamma)
        e = mpf(eps)
        d = mpf(Delta) / mpf(gamma)
        if not (e >= 0 and mpmath.isfinite(e)):
            raise ValueError("eps must be finite and >= 0; got %s" % e)
        if not (d > 0 and mpmath.isfinite(d)):
            raise ValueError("Delta must be finite and > 0; got %s" % d)
        s1 = _crossing(e, b, d)
        m = max(s1, mpf(0))

        def weight(s):
            return -mpmath.expm1(e - (_r(s + d, b) - _r(s, b)))

        # kinks of r_b (0, +-b) and of r_b(s + d) (-d, +-b - d); -d < s1 always
        # (L(-d) = -r_b(d) < 0 <= eps), so it never lies in the range
        kinks = [-b, b, -b - d, b - d, mpf(0), -d]
        phim, M = _integrate(lambda u: _r(u, b), m, s1, mp.inf, kinks, w=weight)
        v = mpmath.exp(-phim) * M / _Z_parts(b)
    with mp.workdps(dps):
        return +v
