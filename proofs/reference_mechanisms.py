"""Independent mpmath references for the tests of the comparison mechanisms (``fhsym.noise``).

Nothing here imports ``fhsym``: densities are re-typed from their published
definitions and every privacy profile is the *definition*

    delta(eps) = int [g(t) - e^eps g(t + Delta)]_+ dt

integrated by ``mpmath.quad`` (``error=True``) from the crossing point ``t0``
(found by bisection on the privacy loss ``log g(t) - log g(t + Delta)``, not
from a closed form) and split at every kink of the integrand.  The integrand
is divided by its value at ``t0`` (or the start of the first piece) before
integration: mpmath's quadrature tolerance is absolute, so without the
rescaling tiny integrals (delta ~ 1e-50 and below) stop at the first level
with a wrong answer.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath as mp

DPS = 32


def mpf(x):
    return mp.mpf(x) if not isinstance(x, Fraction) else mp.mpf(x.numerator) / x.denominator


# ---------------------------------------------------------------------------
# densities (log-densities; -inf outside the support)


# Constants are recomputed at call time so that a closure built at one
# working precision stays exact when used under ``mp.workdps(...)``.


def gaussian_logpdf(sigma):
    sigma = mpf(sigma)
    return lambda t: -mp.log(sigma * mp.sqrt(2 * mp.pi)) - t * t / (2 * sigma * sigma)


def laplace_logpdf(beta):
    beta = mpf(beta)
    return lambda t: -mp.log(2 * beta) - abs(t) / beta


def osgt_logpdf(vartheta, varrho):
    """phi(|t|; -vartheta, varrho^2) / (2 Q(vartheta/varrho))  (paper, App. F-A(c))."""
    vt, vr = mpf(vartheta), mpf(varrho)

    def f(t):
        two_q = mp.erfc(vt / vr / mp.sqrt(2))  # 2 Q(theta)
        return -mp.log(vr * mp.sqrt(2 * mp.pi) * two_q) - (abs(t) + vt) ** 2 / (2 * vr * vr)

    return f


def tl_logpdf(lam, bound):
    """B exp(-|t|/lam) on [-A, A] (Geng et al. 2020)."""
    lam, bound = mpf(lam), mpf(bound)

    def f(t):
        if abs(t) > bound:
            return mp.ninf
        return -mp.log(2 * lam * -mp.expm1(-bound / lam)) - abs(t) / lam

    return f


# ---------------------------------------------------------------------------
# quadrature helpers


def _quad(f, pts):
    """Sum of mp.quad over consecutive pieces; returns (value, error)."""
    total, err = mp.mpf(0), mp.mpf(0)
    for a, b in zip(pts[:-1], pts[1:]):
        if b <= a:
            continue
        v, e = mp.quad(f, [a, b], error=True)
        total += v
        err += e
    return total, err


def _tail_points(start, scale, decay):
    """Points start, start + k * w ... for a tail decaying on the length scale w."""
    w = scale / max(1, decay)
    return [start + k * w for k in (0, mp.mpf(1) / 4, 1, 4, 16, 64, 256)] + [mp.inf]


def crossing(loss, eps, lo, hi, iters=400):
    """inf{t : loss(t) > eps} by bisection (loss nondecreasing, loss(lo) <= eps < loss(hi))."""
    lo, hi = mpf(lo), mpf(hi)
    for _ in range(iters):
        mid = (lo + hi) / 2
        if loss(mid) > eps:
            hi = mid
        else:
            lo = mid
        if hi - lo <= abs(hi) * mp.mpf(10) ** (-mp.mp.dps - 2) + mp.mpf(10) ** (-10 * mp.mp.dps):
            break
    return (lo + hi) / 2


def profile_by_quadrature(logpdf, eps, sens, kinks, scale, decay_at, upper=None):
    """int_{t0}^{inf} [g(t) - e^eps g(t + sens)] dt with t0 from the privacy loss.

    The integrand is evaluated as ``g(t) [1 - exp(eps - L(t))]_+`` with
    ``L(t) = log g(t) - log g(t + sens)`` -- the same function, written so
    that the 32-digit evaluation does not cancel.  ``kinks`` (mp numbers,
    computed exactly by the caller) are points where the integrand is not
    smooth; after the last kink the tail is split geometrically on the
    length scale ``scale / max(1, decay_at(t))``.  ``upper`` is the end of the
    support (None = infinite).  Returns (value, error estimate).
    """
    eps, sens = mpf(eps), mpf(sens)

    def loss(t):
        a, b = logpdf(t), logpdf(t + sens)
        if b == mp.ninf:
            return mp.inf if a != mp.ninf else mp.ninf
        return a - b

    lo = -sens / 2  # loss(-sens/2) = 0 <= eps by symmetry
    if upper is None:
        hi = mp.mpf(1)
        while loss(hi) <= eps:
            hi = 2 * hi + 1
            if hi > mp.mpf(10) ** 40:
                return mp.mpf(0), mp.mpf(0)  # loss bounded by eps (Laplace): delta = 0
    else:
        hi = mpf(upper)
        if loss(hi) <= eps:
            return mp.mpf(0), mp.mpf(0)
    t0 = crossing(loss, eps, lo, hi)
    lg0 = logpdf(t0)
    if lg0 == mp.ninf:  # pragma: no cover - t0 inside the support by construction
        raise AssertionError("crossing outside the support")
    g0 = mp.exp(lg0)

    def f(t):
        a = logpdf(t)
        if a == mp.ninf:
            return mp.mpf(0)
        b = logpdf(t + sens)
        if b == mp.ninf:
            return mp.exp(a - lg0)
        return mp.exp(a - lg0) * max(mp.mpf(0), -mp.expm1(eps - (a - b)))

    ks = sorted({k for k in kinks if k > t0})
    pts = [t0] + ks
    if upper is None:
        last = pts[-1]
        pts = pts[:-1] + _tail_points(last, mpf(scale), decay_at(last))
    elif upper > pts[-1]:
        pts = pts + [upper]
    v, e = _quad(f, pts)
    return v * g0, e * g0


def _bulk(w):
    """Extra split points covering the bulk of a density of width ``w`` around 0."""
    return [k * w for k in (-16, -8, -4, -2, -1, 1, 2, 4, 8, 16)]


def gaussian_profile_ref(sigma, eps, sens):
    sigma = mpf(sigma)
    return profile_by_quadrature(
        gaussian_logpdf(sigma), eps, sens, [mp.mpf(0)] + _bulk(sigma), sigma, lambda t: abs(t) / sigma
    )


def laplace_profile_ref(beta, eps, sens):
    beta, sens = mpf(beta), mpf(sens)
    kinks = [-sens, mp.mpf(0)] + _bulk(beta)
    return profile_by_quadrature(laplace_logpdf(beta), eps, sens, kinks, beta, lambda t: 0)


def osgt_profile_ref(vartheta, varrho, eps, sens):
    vt, vr, sens = mpf(vartheta), mpf(varrho), mpf(sens)
    kinks = [-sens, mp.mpf(0)] + _bulk(vr / max(1, vt / vr))
    return profile_by_quadrature(
        osgt_logpdf(vt, vr), eps, sens, kinks, vr, lambda t: (abs(t) + vt) / vr
    )


def tl_profile_ref(lam, bound, eps, sens):
    lam, bound, sens = mpf(lam), mpf(bound), mpf(sens)
    kinks = [-sens, mp.mpf(0), bound - sens, -bound, -bound - sens]
    return profile_by_quadrature(tl_logpdf(lam, bound), eps, sens, kinks, lam, lambda t: 0, upper=bound)


def integrate_density(logpdf, kinks, scale, decay_at, moment=0, support=None):
    """int t^moment g(t) dt over the real line (symmetric density), as (value, error)."""
    c = mp.exp(logpdf(mp.mpf(0)))

    def f(t):
        return t**moment * mp.exp(logpdf(t)) / c

    ks = sorted({mpf(k) for k in kinks if mpf(k) > 0})
    if support is None:
        start = ks[-1] if ks else mp.mpf(0)
        pts = [mp.mpf(0)] + ks[:-1] + _tail_points(start, mpf(scale), decay_at(start))
        pts = sorted(set(pts[:-1]), key=lambda x: x) + [mp.inf]
    else:
        pts = [mp.mpf(0)] + [k for k in ks if k < mpf(support)] + [mpf(support)]
    v, e = _quad(f, pts)
    return 2 * v * c, 2 * e * c


# ---------------------------------------------------------------------------
# staircase: exact piecewise-constant integration


class StaircaseRef:
    """Geng & Viswanath staircase density with step edge ``w`` (exact rationals)."""

    def __init__(self, eps0, d0, w):
        self.eps0 = mpf(eps0)
        self.D0, self.W = Fraction(d0), Fraction(w)
        b = mp.exp(-self.eps0)
        self.b = b
        self.a = (1 - b) / (2 * (mpf(self.W) + (mpf(self.D0) - mpf(self.W)) * b))

    def level(self, x: Fraction) -> int:
        x = abs(x)
        k = int(x // self.D0)
        return k + (1 if x - k * self.D0 >= self.W else 0)

    def density(self, x: Fraction):
        return self.a * self.b ** self.level(x)

    def _edges(self, lo: Fraction, hi: Fraction, shifts):
        pts = {lo, hi}
        kmax = int(max(abs(lo), abs(hi)) // self.D0) + int(max(shifts) // self.D0) + 2
        for k in range(kmax + 1):
            for e in (k * self.D0, k * self.D0 + self.W):
                for sft in shifts:
                    for p in (e - sft, -e - sft):
                        if lo < p < hi:
                            pts.add(p)
        return sorted(pts)

    def profile(self, eps, sens, periods):
        """Exact sum over all pieces of [-sens - periods*D0, periods*D0] plus a tail bound.

        Returns (value, bound on the neglected mass).
        """
        eps = mpf(eps)
        FD = Fraction(sens)
        lo, hi = -FD - periods * self.D0, periods * self.D0
        pts = self._edges(lo, hi, (Fraction(0), FD))
        tot = mp.mpf(0)
        for x0, x1 in zip(pts[:-1], pts[1:]):
            mid = (x0 + x1) / 2
            # [g(t) - e^eps g(t+sens)]_+ = g(t) [1 - e^{eps - (l(t+sens) - l(t)) eps0}]_+
            n = self.level(mid + FD) - self.level(mid)
            factor = -mp.expm1(eps - n * self.eps0)
            if factor > 0:
                tot += self.density(mid) * factor * mpf(x1 - x0)
        neglected = 2 * self.b**periods  # mass of |t| > periods * D0 (each side <= b^periods / 2)
        return tot, neglected

    def moment(self, k, periods):
        pts = self._edges(Fraction(0), periods * self.D0, (Fraction(0),))
        tot = mp.mpf(0)
        for x0, x1 in zip(pts[:-1], pts[1:]):
            tot += self.density((x0 + x1) / 2) * (mpf(x1) ** (k + 1) - mpf(x0) ** (k + 1)) / (k + 1)
        return 2 * tot


# ---------------------------------------------------------------------------
# closed forms used only for calibration references


def q_mp(x):
    return mp.erfc(x / mp.sqrt(2)) / 2


def gaussian_delta_closed(eps, sens, sigma):
    """Balle & Wang (2018) / paper eq. (29), at the current mp precision."""
    eps, sens, sigma = mpf(eps), mpf(sens), mpf(sigma)
    a, c = sigma * eps / sens, sens / (2 * sigma)
    return q_mp(a - c) - mp.exp(eps) * q_mp(a + c)


def osgt_profile_closed(eps, sens, vt, vr):
    """The paper's two-case OSGT profile (Appendix F-A(c)), verbatim, at the current mp precision.

    ``tests/mechanisms/test_mechanisms_profiles.py`` tests fhsym's OSGT profile against this form
    and against :func:`osgt_profile_ref` (quadrature of the definition).
    """
    eps, sens, vt, vr = (mpf(x) for x in (eps, sens, vt, vr))
    varpi = sens + 2 * vt
    z = 2 * q_mp(vt / vr)
    if eps <= varpi * sens / (2 * vr**2):
        return 1 - (q_mp(varpi / (2 * vr) - vr * eps / varpi) + mp.exp(eps) * q_mp(varpi / (2 * vr) + vr * eps / varpi)) / z
    return (q_mp(vr * eps / sens - sens / (2 * vr)) - mp.exp(eps) * q_mp(vr * eps / sens + sens / (2 * vr))) / z


def gaussian_sigma_star(eps, delta, sens=1, steps=250):
    """Smallest sigma with the closed-form delta <= target: bisection at 50 digits."""
    with mp.workdps(50):
        eps, delta, sens = mpf(eps), mpf(delta), mpf(sens)
        lo, hi = mp.mpf(10) ** -6 * sens, mp.mpf(1) * sens
        while gaussian_delta_closed(eps, sens, hi) > delta:
            hi *= 2
        for _ in range(steps):
            mid = (lo + hi) / 2
            if gaussian_delta_closed(eps, sens, mid) > delta:
                lo = mid
            else:
                hi = mid
        return hi
