"""An exact K-fold privacy profile of flipped Huber noise with alpha > Delta, independent of fhsym.

Written from the definitions only (mpmath, no fhsym code): the density g(t) = exp(-rho(t)/gamma^2)/kappa,
rho(t) = alpha |t| on |t| <= alpha and (t^2 + alpha^2)/2 beyond, and the privacy loss of one coordinate
zeta(t) = (rho(t + Delta) - rho(t))/gamma^2 for t ~ g.  For alpha > Delta the line splits into

    A+ = [0, alpha - Delta]:   zeta = +a,  a = alpha Delta/gamma^2   (an atom of the loss)
    A- = [-alpha, -Delta]:     zeta = -a                            (an atom)
    C  = (-Delta, 0):          zeta = alpha (2t + Delta)/gamma^2 in (-a, a), with density
                               c e^{x/2} in x (c = e^{-a/2} gamma^2/(2 alpha kappa))
    T+ = (alpha - Delta, inf): zeta >= a          T- = (-inf, -alpha): zeta <= -a

(on T+ one of t, t + Delta is in a Gaussian piece and (s^2 + alpha^2)/2 >= alpha |s|; likewise on T-).
The K-fold loss is a sum of K independent such variables and delta_K(eps) = E[(1 - e^{eps - L})_+], a
non-decreasing function of L.  Bracket: the lower value counts T+ at its least loss a and drops T-
(weight >= 0); the upper value puts T+ at +inf (weight 1) and T- at -a.  Given the counts (n+, n-, n_C) the
C-part is a sum of n_C i.i.d. variables whose shifted values y = x + a in (0, 2a) have density c e^{-a/2} e^{y/2}:
the sum s has density (c e^{-a/2})^n e^{s/2} (2a)^{n-1} f_IH(s/(2a)), f_IH the Irwin-Hall density of n
U(0, 1) variables (exact, piecewise polynomial).  The remaining one-dimensional integral is done by mpmath
quadrature split at every knot s = 2ak and where the weight turns positive.  The masses are integrals of the
definition in closed form (kappa is checked against quadrature in the tests).
"""

from __future__ import annotations

from itertools import product
from math import comb, factorial

import mpmath as mp

__all__ = ["kfold_delta_bracket", "masses"]


def masses(alpha, gamma, Delta, dps: int = 40):
    """(p+, p-, pC, q+, q-, kappa, c) from the density definition (alpha > Delta > 0)."""
    with mp.workdps(dps):
        al, g, D = mp.mpf(alpha), mp.mpf(gamma), mp.mpf(Delta)
        if not al > D:
            raise ValueError("the decomposition needs alpha > Delta")
        s = g * g / al  # int_0^x e^{-alpha t/gamma^2} dt = s (1 - e^{-alpha x/gamma^2})
        lap = s * (1 - mp.exp(-al * al / (g * g)))  # one side of the Laplace centre
        gtail = mp.exp(-al * al / (2 * g * g)) * g * mp.sqrt(mp.pi / 2) * mp.erfc(al / (g * mp.sqrt(2)))  # one Gaussian tail
        kappa = 2 * lap + 2 * gtail
        pp = s * (1 - mp.exp(-al * (al - D) / (g * g))) / kappa
        pm = s * (mp.exp(-al * D / (g * g)) - mp.exp(-al * al / (g * g))) / kappa
        pc = s * (1 - mp.exp(-al * D / (g * g))) / kappa
        qp = (s * (mp.exp(-al * (al - D) / (g * g)) - mp.exp(-al * al / (g * g))) + gtail) / kappa
        qm = gtail / kappa
        a = al * D / (g * g)
        c = mp.exp(-a / 2) * g * g / (2 * al * kappa)
        return pp, pm, pc, qp, qm, kappa, c


def _irwin_hall(z, n):
    if z <= 0 or z >= n:
        return mp.mpf(0)
    return sum((-1) ** k * comb(n, k) * (z - k) ** (n - 1) for k in range(int(mp.floor(z)) + 1)) / factorial(n - 1)


def _c_part(eps, shift, n, a, c):
    """int over the n-fold C-sum measure of (1 - e^{eps - shift - x})_+, x = s - n a the sum of the C losses."""
    if n == 0:
        return max(mp.mpf(0), -mp.expm1(eps - shift))
    lead = (c * mp.exp(-a / 2)) ** n * (2 * a) ** (n - 1)
    start = eps - shift + n * a  # the weight is positive for s > start
    lo = max(mp.mpf(0), start)
    hi = 2 * a * n
    if lo >= hi:
        return mp.mpf(0)
    pts = sorted({lo, hi} | {2 * a * k for k in range(1, n) if lo < 2 * a * k < hi})

    def f(s):
        return lead * mp.exp(s / 2) * _irwin_hall(s / (2 * a), n) * -mp.expm1(eps - shift - s + n * a)

    return mp.quad(f, pts)


def kfold_delta_bracket(eps, alpha, gamma, Delta, K, dps: int = 40):
    """(lower, upper) on the exact delta_K(eps) of K i.i.d. FH(alpha, gamma^2) coordinates, d = (Delta, ..., Delta).

    The bracket's width is at most the probability that some coordinate falls in T+ or T- (tiny for large
    alpha/gamma); apart from that both ends are exact up to the quadrature (40 digits).
    """
    with mp.workdps(dps):
        pp, pm, pc, qp, qm, _, c = masses(alpha, gamma, Delta, dps)
        e = mp.mpf(eps)
        a = mp.mpf(alpha) * mp.mpf(Delta) / mp.mpf(gamma) ** 2
        lower = upper = mp.mpf(0)
        for np_, nm, nc in product(range(K + 1), repeat=3):
            ninf = K - np_ - nm - nc
            if ninf < 0:
                continue
            mult = factorial(K) // (factorial(np_) * factorial(nm) * factorial(nc) * factorial(ninf))
            if ninf == 0:
                shift = (np_ - nm) * a
                inner = _c_part(e, shift, nc, a, c)
                upper += mult * pp**np_ * (pm + qm) ** nm * inner
            else:  # some coordinate in T+ (upper: weight 1) -- the C-part's mass is pc^nc
                upper += mult * pp**np_ * (pm + qm) ** nm * pc**nc * qp**ninf
            # lower: T+ counted at +a (the ninf slot is read as extra +a coordinates), T- dropped
            lower += mult * pp**np_ * qp**ninf * pm**nm * _c_part(e, (np_ + ninf - nm) * a, nc, a, c)
        return lower, upper
