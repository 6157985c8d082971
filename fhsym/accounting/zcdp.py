"""Zero-concentrated DP of the flipped Huber mechanism (talk slides, "zCDP of FH"; paper Sec VI-A).

Definition (Bun & Steinke 2016): M is (xi, eta)-zCDP if for all neighbours and all orders
Lambda > 1 the Renyi divergence satisfies D_Lambda(M(D) || M(D')) <= xi + Lambda eta.

Theorem (slides).  The 1-D FH mechanism with sensitivity Delta is
(R_Delta(alpha)/(2 gamma^2), Delta^2/(2 gamma^2))-zCDP, R_Delta(alpha) = alpha^2 - [alpha - Delta]_+^2.
Proof (slides): zeta_d(t) <= zeta^(u)_d(t) = t d/gamma^2 + d^2/(2 gamma^2) + R_{|d|}(alpha)/(2 gamma^2)
(the affine bound of Appendix C-1), so for s = Lambda - 1 > 0
E[e^{s zeta_d(T)}] <= e^{s (R_{|d|} + d^2)/(2 gamma^2)} M_FH(s d/gamma^2) <= e^{s (R_{|d|}/(2 gamma^2) + (s + 1) d^2/(2 gamma^2))}
by the sub-Gaussianity of FH (Lemma 2, M_FH(u) <= e^{gamma^2 u^2/2}); and R_{|d|} <= R_Delta.

K dimensions (i.i.d. coordinates: Renyi divergences of product measures add):
(K R_Delta(alpha)/(2 gamma^2), Delta_2^2/(2 gamma^2)) -- the slides' statement.  With ``refine=True``
fhsym uses the exact maximum of sum_i R_{|d_i|}(alpha) over the sensitivity set
{||d||_inf <= Delta, ||d||_2 <= Delta_2, ||d||_1 <= Delta_1}: R_c(alpha) is concave and non-decreasing in
c >= 0, so the sum is Schur-concave in (|d_i|) and is maximised at the uniform vector
c = min(Delta, Delta_2/sqrt(K), Delta_1/K) (the uniform vector with the same l1 norm is majorised by
any d and stays in the set), giving xi = K R_c(alpha)/(2 gamma^2) <= the slides' value.

Composition: (xi, eta) add over mechanisms and rounds.  Conversion to (eps, delta): the
optimal-order RDP conversion of Canonne, Kamath & Steinke (2020, Prop 12; the one used by
dp_accounting): for every Lambda > 1 the mechanism is (eps, delta)-DP with
eps = xi + eta Lambda + log(1 - 1/Lambda) - log(delta Lambda)/(Lambda - 1), minimised over Lambda;
or Bun & Steinke's eps = xi + eta + 2 sqrt(eta log(1/delta)) (``method="bun-steinke"``).
Every value returned is the formula at a concrete Lambda, rounded up, so it is valid whatever
the optimiser's accuracy.  ``proofs/kdim/`` checks the theorem against the exact Renyi
divergence of FH (mpmath quadrature).
"""

from __future__ import annotations

import math
from typing import Iterable, Optional, Tuple

from scipy import optimize

from .._core import domains as V
from ..noise.flipped_huber import FlippedHuber
from ..noise.flipped_huber_zcdp import zcdp_params

__all__ = ["zcdp", "zcdp_params", "zcdp_compose", "zcdp_to_dp", "zcdp_delta", "renyi_bound"]


def zcdp(fh: FlippedHuber, sensitivity: Optional[float] = None, dim: int = 1, l2_sensitivity: Optional[float] = None,
         l1_sensitivity: Optional[float] = None, refine: bool = False) -> Tuple[float, float]:
    """``FlippedHuber.zcdp(...)``: (xi, eta) for the mechanism adding ``fh`` noise (see :func:`zcdp_params`)."""
    return zcdp_params(fh.alpha, fh.gamma, sensitivity, dim, l2_sensitivity, l1_sensitivity, refine)


def zcdp_compose(params: Iterable[Tuple[float, float]], rounds: int = 1) -> Tuple[float, float]:
    """(sum xi, sum eta) over mechanisms, times ``rounds`` (adaptive composition of zCDP)."""
    L = V.check_int(rounds, "rounds", 1)
    xs, es = 0.0, 0.0
    for xi, eta in params:
        xs += V.check_scalar(xi, V.Domain("xi", 0.0, math.inf, closed_lower=True))
        es += V.check_scalar(eta, V.Domain("eta", 0.0, math.inf, closed_lower=True))
    return L * xs, L * es


def renyi_bound(xi: float, eta: float, order: float) -> float:
    """The Renyi divergence bound xi + Lambda eta of (xi, eta)-zCDP at order Lambda > 1."""
    lam = V.check_scalar(order, V.Domain("order", 1.0, math.inf))
    return xi + lam * eta


def _eps_at(xi: float, eta: float, log_delta: float, lam: float) -> float:
    if not lam > 1.0:  # 1 + e^z rounded to 1: the order tends to 1, where the bound tends to +inf
        return math.inf
    return xi + eta * lam + math.log1p(-1.0 / lam) - (log_delta + math.log(lam)) / (lam - 1.0)


def zcdp_to_dp(xi: float, eta: float, delta: float, method: str = "optimal") -> float:
    """Smallest eps (of the conversion) such that (xi, eta)-zCDP implies (eps, delta)-DP.

    ``method="optimal"``: Canonne-Kamath-Steinke Prop 12 minimised over the order;
    ``"bun-steinke"``: xi + eta + 2 sqrt(eta log(1/delta)).  Rounded up (valid as returned).

    >>> round(zcdp_to_dp(0.0, 0.5, 1e-6, method="bun-steinke"), 6)
    5.756522
    """
    x = V.check_scalar(xi, V.Domain("xi", 0.0, math.inf, closed_lower=True))
    r = V.check_scalar(eta, V.Domain("eta", 0.0, math.inf, closed_lower=True))
    dl = V.check_scalar(delta, V.DELTA)
    if method == "bun-steinke":
        return (x + r + 2.0 * math.sqrt(r * math.log(1.0 / dl))) * (1.0 + 4e-16)
    if method != "optimal":
        raise ValueError(f"method must be 'optimal' or 'bun-steinke'; got {method!r}")
    if dl * dl + math.expm1(-(x + r)) > 0:  # KL bound: delta >= sqrt(1 - e^{-KL}) gives eps = 0
        return 0.0
    if r == 0.0:
        return math.inf if x > 0 else 0.0
    ld = math.log(dl)
    f = lambda z: _eps_at(x, r, ld, 1.0 + math.exp(z))  # noqa: E731  (Lambda = 1 + e^z)
    z0 = math.log(max(math.sqrt(-ld / r), 1e-6))
    res = optimize.minimize_scalar(f, bracket=(z0 - 1.0, z0 + 1.0), tol=1e-12)
    lam = 1.0 + math.exp(float(res.x))
    eps = _eps_at(x, r, ld, lam)
    return max(eps, 0.0) * (1.0 + 1e-14) + 1e-300


def zcdp_delta(xi: float, eta: float, epsilon: float) -> float:
    """Smallest delta (of the CKS conversion) with (xi, eta)-zCDP implying (eps, delta)-DP; rounded up."""
    x = V.check_scalar(xi, V.Domain("xi", 0.0, math.inf, closed_lower=True))
    r = V.check_scalar(eta, V.Domain("eta", 0.0, math.inf, closed_lower=True))
    e = V.check_scalar(epsilon, V.EPSILON)
    kl = 0.5 * math.log1p(-math.exp(-(x + r))) if (x + r) > 0 else -math.inf

    def logd(z: float) -> float:
        lam = 1.0 + math.exp(z)
        if not lam > 1.0:  # 1 + e^z rounded to 1: the order tends to 1, where the bound tends to +inf (finite
            return 1e300   # here: an infinite value would turn the minimiser's parabola into NaN)
        return (lam - 1.0) * (x + r * lam - e + math.log1p(-1.0 / lam)) - math.log(lam)

    if r == 0.0:
        return math.exp(kl) if kl > -math.inf else 0.0
    z0 = math.log(max((e - x) / (2.0 * r), 1e-6))
    res = optimize.minimize_scalar(logd, bracket=(z0 - 1.0, z0 + 1.0), tol=1e-12)
    ld = min(logd(float(res.x)), kl)
    return min(math.exp(ld) * (1.0 + 1e-14), 1.0)
