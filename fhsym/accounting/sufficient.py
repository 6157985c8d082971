"""The K-dimensional sufficient condition of the paper (Section IV-B: eq 18-22, Lemmas 5-7, Theorem 8).

Objects (numeric, vectorised where it matters; the SymPy versions are in
:mod:`fhsym.symbolic.kdim` and ``proofs/kdim/`` checks them):

* ``R_Delta(alpha) = alpha^2 - [alpha - Delta]_+^2``  (Lemma 5; piecewise
  ``alpha^2`` for ``alpha < Delta`` and ``2 alpha Delta - Delta^2`` beyond)
  and its inverse (eq 21) ``R^{-1}(nu) = sqrt(nu)`` for ``nu < Delta^2``,
  ``(nu + Delta^2)/(2 Delta)`` beyond;
* ``theta = gamma Q^{-1}(sqrt(pi/2)/omega)`` (eq 22, Lemma 6:
  ``FH(alpha, gamma^2) <=_st N(theta, gamma^2)``);
* the upper-tail bound of Lemma 5
  ``Q(gamma eps/Delta_2 - Delta_2/(2 gamma) - K R/(2 gamma Delta_2))`` and the
  lower-tail bound of Lemma 7
  ``Q(gamma eps/Delta_2 + Delta_2/(2 gamma) + K R/(2 gamma Delta_2) + theta Delta_1/(gamma Delta_2))``;
* Theorem 8: the K-dimensional mechanism is (eps, delta)-DP if
  ``R_Delta(alpha) <= (2 gamma^2 eps - Delta_2^2)/K`` and
  ``theorem8_lhs = Lemma5 - e^eps Lemma7 <= delta``.

Status of the paper's proof (``python -m proofs --only kdim``, ``docs/kdim.md``):
the affine bound (eq 18), Lemma 5 and Lemma 6 hold (Lemma 5's cited step --
a Gaussian-Q tail from the sub-Gaussian MGF -- does not follow from
sub-Gaussianity; it holds for FH by Proschan's peakedness theorem), Lemma 7 is
false for difference vectors d below the extremes of the sensitivity set, and
Theorem 8's conclusion is *checked numerically*, not proven, whenever
``Delta_2 < sqrt(K) Delta`` or ``Delta_1 < K Delta``.  For the box case
(``Delta_2 = sqrt(K) Delta``, ``Delta_1 = K Delta``) fhsym certifies every
calibration independently with the exact K-fold profile
(:mod:`fhsym.accounting.pld`).

All quantities are computed in log space where they can underflow
(``log_theorem8_lhs``); no function returns NaN for valid input.
"""

from __future__ import annotations

import math
from typing import Callable, Optional, Tuple

import numpy as np
from scipy import special as sc

from .._core import domains as V
from .._core.minimise import minimise_on_log_grid
from .._core.search import first_true_int, largest_true_between
from .._core.sensitivities import resolve_sensitivities
from .._core.types import Real
from .._generated import flipped_huber_pieces as KP
from .._generated import kdim as KD
from ..noise.flipped_huber_zcdp import R_Delta

__all__ = [
    "theorem8_minimum",
    "R_Delta",
    "R_Delta_inverse",
    "theta",
    "theta_std",
    "alpha_max",
    "applicable",
    "lemma5_bound",
    "lemma7_bound",
    "theorem8_lhs",
    "log_theorem8_lhs",
    "theorem8_holds",
    "resolve_sensitivities",
]


def R_Delta_inverse(nu: Real, sensitivity: float) -> Real:
    """Inverse of R_Delta on [0, inf) (eq 21): sqrt(nu) for nu < Delta^2, (nu + Delta^2)/(2 Delta) beyond."""
    n = np.asarray(nu, dtype=float)
    out = np.where(n < 0, np.nan, KD.R_Delta_inverse(n, sensitivity))
    if np.any(np.isnan(out)):
        raise ValueError(f"nu must be a finite real number in [0, inf); got {nu!r}")
    return out[()] if out.ndim == 0 else out


def theta_std(b: float) -> float:
    """theta/gamma = Q^{-1}(sqrt(pi/2)/omega(b)) (eq 22), log-space (finite for every b >= 0).

    Accuracy (against eq 22 at 40 digits, ``proofs/kdim/theorem8.py::sufficient_formulas``): relative 1e-12
    for b >= 0.1 (1e-15 for b in [1, 100]); for small b, where theta ~ b^3/6 is computed from
    log(sqrt(pi/2)/omega) ~ log(1/2), absolute 4e-16 instead (relative 1e-9 at b = 0.01) -- all
    Theorem 8 needs, since theta enters B beside O(1) terms.
    """
    b = np.float64(b)
    return float(KD.theta_std(b, KP.log_kappa_std(b)))


def theta(alpha: float, gamma: float) -> float:
    """theta = gamma Q^{-1}(sqrt(pi/2)/omega) (eq 22, Lemma 6)."""
    a = V.check_scalar(alpha, V.ALPHA)
    g = V.check_scalar(gamma, V.GAMMA)
    return g * theta_std(a / g)


def _args(epsilon: float, alpha: float, gamma: float, dim: int, sensitivity: Optional[float], l2_sensitivity: Optional[float],
          l1_sensitivity: Optional[float]) -> Tuple[float, float, float, int, float, float, float]:
    eps = V.check_scalar(epsilon, V.EPSILON)
    a = V.check_scalar(alpha, V.ALPHA)
    g = V.check_scalar(gamma, V.GAMMA)
    K, D, D2, D1 = resolve_sensitivities(dim, sensitivity, l2_sensitivity, l1_sensitivity)
    return eps, a, g, K, D, D2, D1


def alpha_max(epsilon: float, gamma: float, dim: int, sensitivity: Optional[float] = None, l2_sensitivity: Optional[float] = None) -> float:
    """Largest alpha allowed by Lemma 5 / Theorem 8: R_Delta^{-1}((2 gamma^2 eps - Delta_2^2)/K); -inf if none."""
    eps = V.check_scalar(epsilon, V.EPSILON)
    g = V.check_scalar(gamma, V.GAMMA)
    K, D, D2, _ = resolve_sensitivities(dim, sensitivity, l2_sensitivity, None)
    nu = float(KD.restriction_bound(eps, g, K, D2))
    if nu < 0:
        return -math.inf
    return float(R_Delta_inverse(nu, D))


def applicable(epsilon: float, alpha: float, gamma: float, dim: int, sensitivity: Optional[float] = None, l2_sensitivity: Optional[float] = None) -> bool:
    """The parameter restriction of Lemma 5 / Theorem 8: R_Delta(alpha) <= (2 gamma^2 eps - Delta_2^2)/K."""
    eps = V.check_scalar(epsilon, V.EPSILON)
    a = V.check_scalar(alpha, V.ALPHA)
    g = V.check_scalar(gamma, V.GAMMA)
    K, D, D2, _ = resolve_sensitivities(dim, sensitivity, l2_sensitivity, None)
    return bool(float(R_Delta(a, D)) <= float(KD.restriction_bound(eps, g, K, D2)))


def _AB(eps: float, a: float, g: float, K: int, D: float, D2: float, D1: float) -> Tuple[float, float]:
    R = float(R_Delta(a, D))
    return float(KD.lemma5_arg(eps, g, K, R, D2)), float(KD.lemma7_arg(eps, g, K, R, D2, D1, theta_std(a / g)))


def lemma5_bound(epsilon: float, alpha: float, gamma: float, dim: int, sensitivity: Optional[float] = None, l2_sensitivity: Optional[float] = None, l1_sensitivity: Optional[float] = None) -> float:
    """Lemma 5: P{zeta^(u)_d(T) >= eps} <= Q(gamma eps/Delta_2 - Delta_2/(2 gamma) - K R_Delta(alpha)/(2 gamma Delta_2))."""
    A, _ = _AB(*_args(epsilon, alpha, gamma, dim, sensitivity, l2_sensitivity, l1_sensitivity))
    return float(sc.ndtr(-A))


def lemma7_bound(epsilon: float, alpha: float, gamma: float, dim: int, sensitivity: Optional[float] = None, l2_sensitivity: Optional[float] = None, l1_sensitivity: Optional[float] = None) -> float:
    """Lemma 7's claimed lower bound Q(gamma eps/D2 + D2/(2 gamma) + K R/(2 gamma D2) + theta D1/(gamma D2)).

    Holds for the extreme vector of the box (||d||_2 = Delta_2, ||d||_1 = Delta_1) but not
    for every d the sensitivities allow (see ``docs/kdim.md``).
    """
    _, B = _AB(*_args(epsilon, alpha, gamma, dim, sensitivity, l2_sensitivity, l1_sensitivity))
    return float(sc.ndtr(-B))


def log_theorem8_lhs(epsilon: float, alpha: float, gamma: float, dim: int, sensitivity: Optional[float] = None, l2_sensitivity: Optional[float] = None, l1_sensitivity: Optional[float] = None) -> float:
    """log of Theorem 8's left-hand side Q(A) - e^eps Q(B); -inf when it is <= 0.

    Stable: log Q(A) + log(1 - exp(r)), r = eps + log Q(B) - log Q(A) < 0, with log_ndtr and
    :func:`fhsym._core.numerics.log1mexp` (few-ulp for every r < 0).  Accuracy: relative error of the
    LHS <= 4e-16 (1 + |log Q(A)| + |log Q(B)| + eps)/|r| + 1e-14 (the rounding of r itself: ~1e-13
    for |r| >= 1e-2, 1e-10 at |r| ~ 1e-5), ``tests/kdim/test_kdim_sufficient.py``.
    """
    eps, a, g, K, D, D2, D1 = _args(epsilon, alpha, gamma, dim, sensitivity, l2_sensitivity, l1_sensitivity)
    A, B = _AB(eps, a, g, K, D, D2, D1)
    return float(KD.log_theorem8_lhs(A, B, eps))  # log Q(A) + log(1 - e^r), r < 0; -inf where r >= 0


def theorem8_lhs(epsilon: float, alpha: float, gamma: float, dim: int, sensitivity: Optional[float] = None, l2_sensitivity: Optional[float] = None, l1_sensitivity: Optional[float] = None) -> float:
    """Theorem 8's left-hand side Q(A) - e^eps Q(B), clipped at 0 (see :func:`log_theorem8_lhs`)."""
    return math.exp(log_theorem8_lhs(epsilon, alpha, gamma, dim, sensitivity, l2_sensitivity, l1_sensitivity))


def theorem8_holds(epsilon: float, delta: float, alpha: float, gamma: float, dim: int, sensitivity: Optional[float] = None, l2_sensitivity: Optional[float] = None, l1_sensitivity: Optional[float] = None,
                   rtol: float = 1e-12) -> bool:
    """Theorem 8's condition: applicable and theorem8_lhs * (1 + rtol) <= delta."""
    dl = V.check_scalar(delta, V.DELTA)
    if not applicable(epsilon, alpha, gamma, dim, sensitivity, l2_sensitivity):
        return False
    return log_theorem8_lhs(epsilon, alpha, gamma, dim, sensitivity, l2_sensitivity, l1_sensitivity) + math.log1p(rtol) <= math.log(dl)


# ---------------------------------------------------------------------------
# the least variance Theorem 8 allows (a search; the calibrator certifies its result with the exact K-fold bound)

_THM8_RTOL = 1e-10


def _variance_std(b: float) -> float:
    """v(b) = Var FH(b, 1) (eq 11 in standard units)."""
    lw = float(KP.log_kappa_std(np.float64(b)))
    return float(KP.variance_of_b(np.float64(b), lw))


def _thm8_ok(eps: float, dl: float, b: float, D: float, K: int, c2: float, c1: float) -> bool:
    """Theorem 8 in standard units (gamma = 1, alpha = b, Delta = D, Delta_2 = c2 D, Delta_1 = c1 D)."""
    return theorem8_holds(eps, dl, b, 1.0, K, D, c2 * D, c1 * D, rtol=_THM8_RTOL)


def _thm8_Dstar(eps: float, dl: float, b: float, K: int, c2: float, c1: float) -> float:
    """The largest D = Delta/gamma at shape b for which Theorem 8 holds (0 if none above 1e-12, inf from 2^39 on):
    geometric bisection to 1e-13 of [1e-12, 1] or of [2^(k-1), 2^k], 2^k the first power of 2 that fails
    (:mod:`fhsym._core.search`; the predicate is monotone)."""
    def ok(D: float) -> bool:
        return _thm8_ok(eps, dl, b, D, K, c2, c1)

    if not ok(1e-12):
        return 0.0
    if not ok(1.0):
        return largest_true_between(ok, 1e-12, 1.0, rtol=1e-13, rounds=200)
    k = first_true_int(lambda k: k >= 40 or not ok(2.0**k), 0, 1)
    if k >= 40:
        return math.inf
    return largest_true_between(ok, 2.0 ** (k - 1), 2.0**k, rtol=1e-13, rounds=200)


def theorem8_minimum(epsilon: float, delta: float, dim: int, sensitivity: float, l2_sensitivity: float,
                     l1_sensitivity: float, b_max: float = 1e4) -> Tuple[float, float]:
    """The (alpha, gamma) of least variance for which Theorem 8 holds (a search result, not a certificate).

    For each shape b = alpha/gamma the largest D = Delta/gamma with Theorem 8's restriction and inequality
    (bisection on that predicate); the shape minimises v(b)/D*(b)^2 (a log scan of 90 shapes in
    [1e-3, ``b_max``], bounded Brent around the best, and b = 0).

    >>> a, g = theorem8_minimum(1.0, 1e-6, 4, 1.0, 2.0, 4.0)
    >>> theorem8_holds(1.0, 1e-6, a, g, 4, 1.0, 2.0, 4.0)
    True
    """
    eps = V.check_scalar(epsilon, V.EPSILON)
    dl = V.check_scalar(delta, V.DELTA)
    K, D, D2, D1 = resolve_sensitivities(dim, sensitivity, l2_sensitivity, l1_sensitivity)
    c2, c1 = D2 / D, D1 / D

    def obj(b: float) -> float:
        Ds = _thm8_Dstar(eps, dl, b, K, c2, c1)
        return _variance_std(b) / Ds**2 if Ds > 0 else math.inf

    b, val = minimise_on_log_grid(obj, np.geomspace(1e-3, b_max, 90))
    if not math.isfinite(val):
        raise ValueError(f"Theorem 8 cannot be met for epsilon={eps!r}, delta={dl!r}, dim={K}")
    gamma = D / _thm8_Dstar(eps, dl, b, K, c2, c1)
    return b * gamma, gamma
