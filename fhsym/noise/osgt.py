"""Offset Symmetric Gaussian Tails (OSGT) mechanism.

Formula
-------
Density (paper, Appendix F-A(c); Sadeghi & Korki 2022)::

    g(t; vartheta, varrho^2) = phi(|t|; -vartheta, varrho^2) / (2 Q(vartheta/varrho))
                             = exp(-u (u/2 + theta)) / (2 varrho R(theta)),

with ``u = |t|/varrho``, ``theta = vartheta/varrho`` and ``R`` the Mills
ratio.  Variance ``varrho^2 (1 - theta K(theta)) = varrho^2 K(theta) r2(theta)``
(``I_2/I_0`` of the one-sided offset Gaussian; the product form avoids the
cancellation in ``1 - theta K`` for large theta).

Exact one-dimensional profile, ``varpi = Delta + 2 vartheta`` (paper)::

    delta(eps) = 1 - [Q(varpi/(2 varrho) - varrho eps/varpi) + e^eps Q(varpi/(2 varrho) + varrho eps/varpi)]
                     / (2 Q(theta)),                                   eps <= varpi Delta / (2 varrho^2)
    delta(eps) = [Q(varrho eps/Delta - Delta/(2 varrho)) - e^eps Q(varrho eps/Delta + Delta/(2 varrho))]
                     / (2 Q(theta)),                                   otherwise.

I re-derived both cases from the definition (crossing point
``t0 = varrho^2 eps/varpi - Delta/2`` in ``[-Delta/2, 0]`` resp.
``t0 = varrho^2 eps/Delta - Delta/2 - vartheta > 0``) and they agree with
the paper.  Stable forms evaluated here (``s = Delta/varrho``,
``lambda = s + 2 theta``, ``kappa = s lambda/2 - eps``, ``mu = s/2 - eps/lambda``):

* second case: ``1/2 exp(-x (b + theta)/2 - J(theta, x)) (1 - e^{-J(b, s)})`` with
  ``b = eps/s - s/2``, ``x = b - theta > 0`` (double-double);
* first case: ``delta = A + B``, both positive, with
  ``A = (1 - exp(-kappa - J(theta, s)))/2`` (mass of ``t > 0``) and
  ``B = int_0^mu e^{-theta v - v^2/2} (1 - e^{-lambda (mu - v)}) dv / (2 R(theta))``
  (mass of ``t0 < t < 0``), the latter by 20-point Gauss-Legendre when
  ``lambda mu < 1`` (integrand analytic and slowly varying there) and otherwise
  by its closed form ``T1 - T2`` with ``T2 <= 0.64 T1``.

Generated numerics: ``logpdf``, ``sf`` and ``logsf`` are the functions ``python -m fhsym.codegen`` prints from the
law's declaration (``fhsym/symbolic/laws/osgt.py``, shape theta) into ``fhsym/_generated/declared/osgt.py`` (sf: the
erfc ratio where ``u + theta <= 2``, else exp of the derived log sf, which is written in erfcx).  The isf, variance,
moments, entropy and ``P(0 < T <= x)`` stay hand-written stable forms (the printed variance
``theta^2 + 1 - theta K(theta)`` cancels, the printed isf underflows from theta ~ 38), each checked against the
derived form at 50 digits by ``python -m proofs --only shipped_osgt``; the profile below stays hand-written.
Measured against 50-digit quadrature of the density (theta in {0, 1e-3 .. 1e4}, u up to 3.5e4/(1 + theta)):
logpdf 1.6e-15, sf 4.0e-14, logsf 1.8e-15 relative (the former hand-written forms: 1.2e-15, 4.2e-14, 5.2e-16).

Accuracy of the profile: measured worst relative error 1.2e-15 against mpmath quadrature of
the definition (600 random cases, theta in {0} U [1e-3, 1e3], Delta/varrho in
[1e-6, 1e3], eps in [0, 50] plus points within 1e-12..1e-1 of the case
switch); see docs/mechanisms.md.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Optional, Tuple

import numpy as np
from flint import fmpq
from scipy import special as sc

from .._core.random import Rng
from .._core.types import FloatArray
from .._core.arb import Plan
from .._core.domains import Domain, check_scalar
from .._core.doubledouble import dd_add, dd_div, dd_mul, sym_sign_min
from .._core import scalar as S
from .._core.gaussian_tail import gl_integrate, j_fun, log_mills, second_moment_ratio
from .._generated.declared import osgt as generated
from .base import NoiseDistribution
from .plans.osgt import osgt_plan_of
from .family import Family, ScaleFamily

__all__ = ["OSGT", "osgt_profile", "moment_ratios"]

VARTHETA = Domain("vartheta", 0.0, math.inf, closed_lower=True, typical=(0.0, 5.0))
VARRHO = Domain("varrho", 0.0, math.inf, typical=(0.5, 3.0))
#: u + theta up to which sf is the derived erfc ratio (beyond, scipy erfc of an argument x loses ~x^2 ulp: 5e-14 at
#: theta = 20, and both tails underflow from theta ~ 38; the derived log sf is in erfcx and does not)
_SF_DIRECT = 2.0


def osgt_profile(eps: FloatArray, d: float, vartheta: float, varrho: float) -> FloatArray:
    """Exact OSGT profile (no validation); see the module docstring for the forms."""
    eps = np.asarray(eps, dtype=float)
    s = d / varrho
    theta = vartheta / varrho
    if s == math.inf:  # sensitivity/varrho overflows: the outputs are disjoint
        return np.ones(eps.shape)
    if s == 0.0:
        return np.zeros(eps.shape)
    if s > 1e100 or s < 1e-100 or theta > 1e100:
        # far outside any meaningful range; the double-double steps would
        # overflow.  Fall back to the same formulas in plain arithmetic.
        return _osgt_profile_plain(eps, s, theta)
    # depends on d/varrho and vartheta/varrho only: exact power-of-two rescaling
    e2 = math.frexp(varrho)[1]
    d, vartheta, varrho = math.ldexp(d, -e2), math.ldexp(vartheta, -e2), math.ldexp(varrho, -e2)
    out = np.empty(eps.shape)
    with np.errstate(all="ignore"):
        # s = d/varrho, theta = vartheta/varrho, lambda = s + 2 theta,
        # eps_b = s lambda / 2 and kappa = eps_b - eps, all in double-double
        s_hi, s_lo = dd_div(d, 0.0, varrho, 0.0)
        t_hi, t_lo = dd_div(vartheta, 0.0, varrho, 0.0)
        l_hi, l_lo = dd_add(s_hi, s_lo, 2.0 * t_hi, 2.0 * t_lo)
        lam = float(l_hi)
        eb_hi, eb_lo = dd_mul(s_hi, s_lo, l_hi, l_lo)
        k_hi, k_lo = dd_add(0.5 * eb_hi, 0.5 * eb_lo, -eps, 0.0)
        c1 = k_hi >= 0.0
        c2 = ~c1
        if np.any(c2):
            # x = t0/varrho = -kappa/s > 0,  delta = Q(x+theta)/(2Q(theta)) (1 - e^{-J(b, s)})
            x_hi, x_lo = dd_div(-k_hi[c2], -k_lo[c2], s_hi, s_lo)
            y_hi, y_lo = dd_add(x_hi, x_lo, 2.0 * t_hi, 2.0 * t_lo)
            p_hi, p_lo = dd_mul(x_hi, x_lo, y_hi, y_lo)
            b = x_hi + theta
            val = (
                0.5
                * np.exp(-0.5 * p_hi)
                * np.exp(-0.5 * p_lo - j_fun(theta, x_hi))
                * -np.expm1(-j_fun(b, s))
            )
            # p > 1600: exp(-800) underflows; non-finite: x overflowed (eps ~ 1e300)
            out[c2] = np.where((p_hi <= 1600.0) & np.isfinite(val), val, 0.0)
        if np.any(c1):
            kappa = k_hi[c1] + k_lo[c1]
            mu = np.clip(kappa / lam, 0.0, 0.5 * s)
            a_part = -0.5 * np.expm1(-(kappa + j_fun(theta, s)))
            b_part = np.zeros(kappa.shape)
            small = lam * mu < 1.0
            if np.any(small):
                m = mu[small]

                def integrand(v: FloatArray, m: FloatArray = m) -> FloatArray:
                    return np.exp(-theta * v - 0.5 * v * v) * -np.expm1(-lam * (m[:, None] - v))

                b_part[small] = 0.5 * gl_integrate(integrand, np.zeros(m.shape), m) / np.exp(
                    log_mills(theta)
                )
            big = ~small
            if np.any(big):
                m = mu[big]
                g = theta * m + 0.5 * m * m
                t1 = -np.expm1(-g - j_fun(theta, m))
                qq = s + theta - m
                gq = qq * m + 0.5 * m * m
                t2 = np.exp(-g - j_fun(theta, s - m)) * -np.expm1(-gq - j_fun(qq, m))
                b_part[big] = 0.5 * (t1 - t2)
            out[c1] = a_part + b_part
    return out


_GL20_X, _GL20_W = np.polynomial.legendre.leggauss(20)
_GL20 = [(float(x), float(w)) for x, w in zip(_GL20_X, _GL20_W)]


def osgt_unit_profile(eps: float, theta: float, s: float) -> float:
    """The profile of OSGT(theta, 1) at sensitivity s for one point of floats, no checks (the calibrator's search):
    :func:`osgt_profile`'s two cases in plain double arithmetic on the scalar Gaussian-tail functions
    (:mod:`fhsym._core.scalar`), where the public profile carries its differences in double-double."""
    lam = s + 2.0 * theta
    kappa = 0.5 * s * lam - eps
    if kappa < 0.0:  # t0 > 0: delta = Q(x + theta)/(2 Q(theta)) (1 - e^{-J(b, s)}), x = -kappa/s
        x = -kappa / s
        p = x * (x + 2.0 * theta)
        if p > 1600.0:
            return 0.0
        return 0.5 * math.exp(-0.5 * p - S.j_fun(theta, x)) * -math.expm1(-S.j_fun(x + theta, s))
    mu = min(kappa / lam, 0.5 * s)
    a_part = -0.5 * math.expm1(-(kappa + S.j_fun(theta, s)))
    if lam * mu < 1.0:
        half = 0.5 * mu
        tot = 0.0  # the 20-point sum, term by term in order (as sum() of the terms)
        for x, w in _GL20:
            v = half * (1.0 + x)
            tot += w * math.exp(-theta * v - 0.5 * v * v) * -math.expm1(-lam * (mu - v))
        return a_part + 0.5 * half * tot / math.exp(S.log_mills(theta))
    g = theta * mu + 0.5 * mu * mu
    t1 = -math.expm1(-g - S.j_fun(theta, mu))
    qq = s + theta - mu
    gq = qq * mu + 0.5 * mu * mu
    t2 = math.exp(-g - S.j_fun(theta, s - mu)) * -math.expm1(-gq - S.j_fun(qq, mu))
    return a_part + 0.5 * (t1 - t2)
_CF_START = 160


def moment_ratios(theta: float, n: int) -> FloatArray:
    """r_k = I_k(theta)/I_{k-1}(theta) for k = 1..n (r_0 = 1), I_k(x) = int_0^inf u^k e^{-x u - u^2/2} du.

    I_k/I_0 = r_1 ... r_k.  theta < 2: the integrals by composite 20-point Gauss-Legendre on
    unit panels of [0, 14 + 2 sqrt(n)] (entire integrand, e^{-98} beyond).  theta >= 2: the
    positive backward recurrence r_k = k/(theta + r_{k+1}) (from I_{k+1} = k I_{k-1} - theta I_k,
    integration by parts), started ``_CF_START`` levels above n and deepened until r_1..r_n
    agree to 1e-16 relative between depths D and 2D.
    """
    out = np.ones(n + 1)
    if n == 0:
        return out
    if theta < 2.0:
        top = math.ceil(14.0 + 2.0 * math.sqrt(n))
        lo = np.arange(top, dtype=float)
        u = (lo[:, None] + 0.5 * (1.0 + _GL20_X[None, :])).ravel()
        w = np.tile(0.5 * _GL20_W, top) * np.exp(-theta * u - 0.5 * u * u)
        ints = np.array([np.sum(w * u**k) for k in range(n + 1)])
        out[1:] = ints[1:] / ints[:-1]
        return out

    def run(depth: int) -> FloatArray:
        r = np.empty(n + 2)
        t = 0.0
        for k in range(n + depth, n, -1):
            t = k / (theta + t)
        r[n + 1] = t
        for k in range(n, 0, -1):
            r[k] = k / (theta + r[k + 1])
        return r[1 : n + 1]

    depth = _CF_START
    prev = run(depth)
    while True:
        depth *= 2
        cur = run(depth)
        if np.all(np.abs(cur - prev) <= 1e-16 * cur) or depth > 1 << 20:
            break
        prev = cur
    out[1:] = cur
    return out


def _osgt_profile_plain(eps: FloatArray, s: float, theta: float) -> FloatArray:
    """Same formulas in plain double precision (only for s or theta > 1e100, s < 1e-100)."""
    with np.errstate(all="ignore"):
        lam = s + 2.0 * theta
        kappa = 0.5 * s * lam - eps
        out = np.empty(eps.shape)
        c1 = kappa >= 0
        out[c1] = -0.5 * np.expm1(-(kappa[c1] + j_fun(theta, s)))  # B-part < e^{-huge}
        x = np.maximum(-kappa[~c1] / s, 0.0)
        b = x + theta
        val = 0.5 * np.exp(-0.5 * x * (x + 2.0 * theta) - j_fun(theta, x)) * -np.expm1(-j_fun(b, s))
        out[~c1] = np.where(np.isfinite(val), val, 0.0)
    return np.nan_to_num(out, nan=0.0)


class OSGT(NoiseDistribution):
    """Offset Symmetric Gaussian Tails noise ``O(vartheta, varrho^2)``.

    Parameters
    ----------
    vartheta : float in [0, inf)
        Offset (``vartheta = 0`` is ``N(0, varrho^2)``).
    varrho : float in (0, inf)
        Scale.

    Formulas (Sadeghi & Korki 2022; paper Appendix F-A(c) and E-B)
    --------------------------------------------------------------
    * ``pdf(t) = phi(|t|; -vartheta, varrho^2) / (2 Q(vartheta/varrho))``.
    * ``sf(t) = Q((t + vartheta)/varrho) / (2 Q(theta))`` for ``t >= 0``, the generated
      ``erfc((u + theta)/sqrt 2)/(2 erfc(theta/sqrt 2))`` (u + theta <= 2), else exp of the generated log sf.
    * ``variance = varrho^2 (1 - theta K(theta))``.
    * ``privacy_profile``: two-case closed form of the paper in the stable
      forms described in the module docstring.
    * ``centered_privacy_loss(t, d) = t d/varrho^2 + (2 vartheta/varrho^2) sgn(t) sgn(d) min(|t|, |d|/2)``.
    * ``moment(n) = varrho^n I_n(theta)/I_0(theta)`` (n even) with
      ``I_n(x) = int_0^inf u^n e^{-x u - u^2/2} du`` (:func:`moment_ratios`);
      ``entropy = log(2 varrho R(theta)) + (I_2/I_0)/2 + theta I_1/I_0``.

    Examples
    --------
    >>> o = OSGT(vartheta=0.0, varrho=2.0)          # vartheta = 0: the Gaussian N(0, 4)
    >>> o.var(), round(float(o.cdf(0.0)), 12)
    (4.0, 0.5)
    """

    name = "osgt"
    display_name = "OSGT"
    parameter_domains = (VARTHETA, VARRHO)

    def __init__(self, vartheta: float, varrho: float) -> None:
        self.vartheta = check_scalar(vartheta, VARTHETA)
        self.varrho = check_scalar(varrho, VARRHO)
        self.theta = self.vartheta / self.varrho
        if not math.isfinite(self.theta):
            raise ValueError(f"vartheta/varrho must be finite; got {self.vartheta!r}/{self.varrho!r}")

    # -- mechanism facts (scale family: shape theta = vartheta/varrho, scale varrho)
    shape_range = (1e-3, 1e4, True)

    def _arb_plan(self, eps: fmpq, sensitivity: fmpq) -> Plan:
        return osgt_plan_of(eps, sensitivity, self.vartheta, self.varrho)

    def _precise_view(self, digits: Optional[int], bits: Optional[int], ball: bool) -> Any:
        from .precise_declared import OSGTAtPrecision  # at_precision's view of this law (issue 29)

        return OSGTAtPrecision(self, digits, bits=bits, ball=ball)

    def gaussian_sigma(self) -> Optional[float]:
        return self.varrho if self.vartheta == 0.0 else None  # density e^{-(|t|/varrho + theta)^2/2}: theta = 0 is N(0, varrho^2)

    @property
    def family_shape(self) -> float:
        return self.theta

    @property
    def family_scale(self) -> float:
        return self.varrho

    @classmethod
    def from_family(cls, shape: float, scale: float) -> "OSGT":
        return cls(shape * scale, scale)

    @classmethod
    def family(cls, theta_max: float = 1e4) -> Family:  # type: ignore[override]  # its one option, read by the calibrator from this signature
        """Shapes theta = vartheta/varrho in {0} U [1e-3, ``theta_max``] (as theta -> inf OSGT tends to Laplace)."""
        tmax = check_scalar(theta_max, Domain("theta_max", 0.0, math.inf))
        return ScaleFamily(cls, (min(1e-3, tmax), tmax, True))

    @staticmethod
    def unit_log_profile(eps: float, shape: float, u: float) -> float:
        """log delta(eps) of OSGT(shape, 1) at sensitivity u, one point of floats (:func:`osgt_unit_profile`)."""
        return float(S.SCALAR.log(osgt_unit_profile(eps, shape, u)))

    @staticmethod
    def unit_kinks(eps: float, shapes: np.ndarray) -> np.ndarray:
        """u of the case switch eps = u (u + 2 theta)/2 for each shape theta (the profile falls steeply below it)."""
        with np.errstate(over="ignore"):
            return 2.0 * eps / (shapes + np.sqrt(shapes * shapes + 2.0 * eps)) if eps > 0 else np.full(shapes.shape, np.nan)

    @staticmethod
    def unit_corner_curves(eps: float, folds: int) -> Tuple[Callable[[float], float], ...]:
        """The case switch eps = u (u + 2 theta)/2 of OSGT(theta, 1) at sensitivity u, as theta(u) = eps/u - u/2: the
        largest loss reaches eps there, and the 1-D optimum sits on it when delta is small (1-D only: the K-fold
        search keeps its scan)."""
        return (lambda u: eps / u - 0.5 * u,) if folds == 1 and eps > 0 else ()

    def _var(self) -> float:
        return self.varrho**2 * second_moment_ratio(self.theta)

    # -- the generated numerics of the declaration (fhsym/symbolic/laws/osgt.py; standard units u = |x|/varrho)
    def _logpdf(self, x: FloatArray) -> FloatArray:
        u = np.abs(x) / self.varrho
        with np.errstate(invalid="ignore", over="ignore"):  # u = inf at theta = 0: inf * 0 in the printed form
            val = generated.logpdf_0(u, self.theta) - math.log(self.varrho)
        out: FloatArray = np.where(np.isfinite(u), val, -np.inf)
        return out

    def _sf_pos(self, u: FloatArray) -> FloatArray:
        """sf at u = x/varrho >= 0: the derived erfc ratio where u + theta <= 2, else exp of the derived stable log sf
        (log erfcx differences: no underflow of the two tails, no x^2 ulp loss of erfc at a large argument x)."""
        u = np.asarray(u, dtype=float)
        direct = (u + self.theta) <= _SF_DIRECT
        out = np.zeros(u.shape)
        with np.errstate(all="ignore"):
            out[direct] = generated.sf_0(u[direct], self.theta)
            far = ~direct & np.isfinite(u)
            out[far] = np.exp(generated.logsf_0(u[far], self.theta))
        return out

    def _sf(self, x: FloatArray) -> FloatArray:
        tail = self._sf_pos(np.abs(x) / self.varrho)
        out: FloatArray = np.where(x >= 0, tail, 1.0 - tail)
        return out

    def _profile(self, eps: FloatArray, d: float) -> FloatArray:
        return osgt_profile(eps, d, self.vartheta, self.varrho)

    def _logsf(self, x: FloatArray) -> FloatArray:
        u = np.abs(x) / self.varrho
        with np.errstate(all="ignore"):
            pos = np.where(np.isfinite(u), generated.logsf_0(u, self.theta), -np.inf)
            out: FloatArray = np.where(x >= 0, pos, np.log1p(-self._sf_pos(u)))
        return out

    def _isf(self, q: FloatArray) -> FloatArray:
        # sf(x) = Q(theta + x/varrho) / (2 Q(theta)) on x >= 0: u = x/varrho = Q^{-1}(2 q Q(theta)) - theta,
        # then Newton on F(u) = u (u/2 + theta) + J(theta, u) + log(2 p) = 0 (F' = 1/R(theta + u) > 0),
        # which removes the cancellation of the subtraction when theta >> u
        q = np.asarray(q, dtype=float)
        p = np.atleast_1d(np.where(q <= 0.5, q, 1.0 - q))
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            log2p = np.log(2.0 * p)
            u = np.maximum(-sc.ndtri_exp(log2p + sc.log_ndtr(-self.theta)) - self.theta, 0.0)
            ok = np.isfinite(u) & (p > 0.0)
            for _ in range(3):
                uo = u[ok]
                f = uo * (0.5 * uo + self.theta) + j_fun(self.theta, uo) + log2p[ok]
                u[ok] = np.maximum(uo - f * np.exp(log_mills(self.theta + uo)), 0.0)
        x = (self.varrho * np.where(p == 0.5, 0.0, u)).reshape(q.shape)
        return np.where(q <= 0.5, x, -x)

    def _centered_privacy_loss(self, t: FloatArray, d: FloatArray) -> FloatArray:
        r2 = self.varrho**2
        return t * d / r2 + self.vartheta * sym_sign_min(t, d) / r2

    def _moment(self, n: int) -> float:
        # E|T|^n = varrho^n I_n(theta)/I_0(theta), a product of n positive ratios
        val = 1.0
        for r in moment_ratios(self.theta, n)[1:]:
            val *= self.varrho * r
        return val

    def _entropy(self) -> float:
        # h = log(2 varrho R(theta)) + E[u^2]/2 + theta E[u],  u = |T|/varrho,  R = I_0
        r = moment_ratios(self.theta, 2)
        h: float = (math.log(2.0 * self.varrho) + float(log_mills(np.array(self.theta)))
                    + 0.5 * r[1] * r[2] + self.theta * r[1])
        return h

    def _half_mass(self, x: FloatArray) -> FloatArray:
        # P(0 < T <= x) = (1 - exp(-u (u/2 + theta) - J(theta, u)))/2,  u = x/varrho
        u = np.minimum(x / self.varrho, 1e150)
        return -0.5 * np.expm1(-u * (0.5 * u + self.theta) - j_fun(self.theta, u))

    def _rvs(self, rng: Rng, size: Tuple[int, ...]) -> FloatArray:  # size: the sample shape
        from scipy import stats  # imported on first use (~0.5 s of `import fhsym` otherwise)

        mag = stats.truncnorm.rvs(
            self.theta, np.inf, loc=-self.vartheta, scale=self.varrho, size=size, random_state=rng
        )
        sign = np.where(rng.random(size) < 0.5, -1.0, 1.0)
        out: FloatArray = np.maximum(mag, 0.0) * sign  # scipy is untyped
        return out

