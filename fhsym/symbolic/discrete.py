"""The discrete flipped Huber on the lattice h*Z: symbolic normaliser, CDF, variance, profile.

Definition (the paper's loss, eq 7, restricted to the lattice; the density of eq 8 becomes a
probability mass function)::

    P(X = n h) = exp(-E(n)) / Z,   E(n) = rho_alpha(n h) / gamma^2,   n in Z,
    E(n) = lam |n|                      for |n| <= K = floor(alpha/h)
         = (c^2 n^2 + b^2) / 2          for |n| >  K,
    lam = alpha h / gamma^2,  b = alpha/gamma,  c = h/gamma   (lam = b c),
    equivalently E(n) = lam |n| + (c |n| - b)_+^2 / 2                      (hinge form).

Every sum over the lattice splits into a geometric part (the Laplace centre, closed forms
below) and a discrete Gaussian tail

    Theta_p(m) = sum_{n >= m} n^p exp(-c^2 n^2 / 2),     p in {0, 2}

(a partial theta-function sum).  Theta_p has no closed form; fhsym evaluates it either as
an exact finite sum plus the proven truncation bound :func:`truncation_bound` or by the
Euler-Maclaurin expansion :func:`em_theta` with the proven remainder bound
:func:`em_remainder_bound`.  ``proofs/discrete.py`` checks every identity here (SymPy) and
every numeric evaluation against exact 60-digit summation.

Privacy.  For a sensitivity of S lattice steps the privacy loss L(k) = E(k + S) - E(k) is
non-decreasing in k (E is a convex sequence: :func:`convexity_gaps`), so the exact profile
of the discrete mechanism is (the hockey-stick divergence of two shifted pmfs)

    delta(eps) = sum_k [p(k) - e^eps p(k + S)]_+ = (T(k*) - e^eps T(k* + S)) / Z,
    k* = min{k : L(k) > eps},   T(k) = sum_{n >= k} exp(-E(n)).
"""

from __future__ import annotations

from typing import Dict, Tuple

import sympy as sp

from .definitions import rho
from .special import erfcx

__all__ = [
    "alpha", "gamma", "h", "n", "k", "j", "m", "K", "S", "eps", "lam", "b", "c", "u", "P",
    "STANDARD_UNITS",
    "energy_definition", "energy", "energy_hinge",
    "geometric_sum", "geometric_closed", "geometric2_sum", "geometric2_closed",
    "theta_tail", "normaliser", "upper_tail", "cdf", "variance",
    "privacy_loss", "privacy_loss_hinge", "profile",
    "hermite_derivative", "em_theta", "em_remainder_bound", "truncation_bound", "ratio_bound",
    "convexity_gaps",
]

# ----------------------------------------------------------------------------
# symbols
# ----------------------------------------------------------------------------
alpha = sp.Symbol("alpha", positive=True)
gamma = sp.Symbol("gamma", positive=True)
h = sp.Symbol("h", positive=True)  # the lattice step
n = sp.Symbol("n", integer=True)  # lattice index (summation variable)
k = sp.Symbol("k", integer=True)  # lattice index (argument)
j = sp.Symbol("j", integer=True, nonnegative=True)
m = sp.Symbol("m", integer=True, positive=True)  # first index of a tail sum
K = sp.Symbol("K", integer=True, nonnegative=True)  # floor(alpha/h)
S = sp.Symbol("S", integer=True, positive=True)  # sensitivity in lattice steps
eps = sp.Symbol("epsilon", nonnegative=True)
lam = sp.Symbol("lambda", positive=True)  # alpha h / gamma^2
b = sp.Symbol("b", positive=True)  # alpha / gamma
c = sp.Symbol("c", positive=True)  # h / gamma
u = sp.Symbol("u", positive=True)  # c m (a tail's start in standard units)
P = sp.Symbol("P", integer=True, positive=True)  # number of Euler-Maclaurin corrections

STANDARD_UNITS = {lam: alpha * h / gamma**2, b: alpha / gamma, c: h / gamma}
"""Substitution from the standard-unit symbols to (alpha, gamma, h)."""


# ----------------------------------------------------------------------------
# the energy E(n) = -log(unnormalised pmf)
# ----------------------------------------------------------------------------
def energy_definition(x: sp.Expr = n) -> sp.Expr:
    """E(n) = rho_alpha(n h) / gamma^2 (eq 7 at t = n h; the exponent of eq 8)."""
    return rho(x * h, alpha) / gamma**2


def energy(x: sp.Expr = n) -> sp.Expr:
    """E(n) in standard units: lam |n| for |n| <= K, (c^2 n^2 + b^2)/2 beyond."""
    return sp.Piecewise((lam * sp.Abs(x), sp.Abs(x) <= K), ((c**2 * x**2 + b**2) / 2, True))


def energy_hinge(x: sp.Expr = n) -> sp.Expr:
    """E(n) = lam |n| + (c |n| - b)_+^2 / 2 (equal to :func:`energy` because c K <= b < c (K + 1))."""
    return lam * sp.Abs(x) + sp.Max(c * sp.Abs(x) - b, 0) ** 2 / 2


# ----------------------------------------------------------------------------
# sums: geometric centre, discrete Gaussian tails
# ----------------------------------------------------------------------------
def geometric_sum(lo: sp.Expr, hi: sp.Expr) -> sp.Expr:
    """sum_{n=lo}^{hi} exp(-lam n) (unevaluated)."""
    return sp.Sum(sp.exp(-lam * n), (n, lo, hi))


def geometric_closed(lo: sp.Expr, hi: sp.Expr) -> sp.Expr:
    """exp(-lam lo) (1 - exp(-lam (hi - lo + 1))) / (1 - exp(-lam)) (stable with expm1)."""
    return sp.exp(-lam * lo) * (1 - sp.exp(-lam * (hi - lo + 1))) / (1 - sp.exp(-lam))


def geometric2_sum(hi: sp.Expr = K) -> sp.Expr:
    """sum_{n=1}^{hi} n^2 exp(-lam n) (unevaluated)."""
    return sp.Sum(n**2 * sp.exp(-lam * n), (n, 1, hi))


def geometric2_closed(hi: sp.Expr = K) -> sp.Expr:
    """Full series minus tail: r(1+r)/D^3 - r^{hi+1}[(hi+1)^2/D + 2(hi+1) r/D^2 + r(1+r)/D^3], r = e^{-lam}, D = 1 - r."""
    r = sp.exp(-lam)
    D = 1 - r
    full = r * (1 + r) / D**3
    tail = r ** (hi + 1) * ((hi + 1) ** 2 / D + 2 * (hi + 1) * r / D**2 + r * (1 + r) / D**3)
    return full - tail


def theta_tail(lo: sp.Expr = m, p: int = 0) -> sp.Expr:
    """Theta_p(lo) = sum_{n >= lo} n^p exp(-c^2 n^2 / 2) (unevaluated)."""
    return sp.Sum(n**p * sp.exp(-(c**2) * n**2 / 2), (n, lo, sp.oo))


def normaliser() -> sp.Expr:
    """Z = sum_n exp(-E(n)) = 1 + 2 G(1, K) + 2 exp(-b^2/2) Theta_0(K + 1)."""
    return 1 + 2 * geometric_closed(1, K) + 2 * sp.exp(-(b**2) / 2) * theta_tail(K + 1)


def upper_tail(x: sp.Expr = k) -> sp.Expr:
    """T(k) = sum_{n >= k} exp(-E(n)) for k >= 1, piecewise (centre / tail)."""
    tail = sp.exp(-(b**2) / 2) * theta_tail(K + 1)
    return sp.Piecewise(
        (geometric_closed(x, K) + tail, x <= K),
        (sp.exp(-(b**2) / 2) * theta_tail(x), True),
    )


def cdf(x: sp.Expr = k) -> sp.Expr:
    """P(X <= k h) for k >= 0: 1 - T(k + 1)/Z (k < 0: T(-k)/Z by symmetry)."""
    return 1 - upper_tail(x + 1) / normaliser()


def variance() -> sp.Expr:
    """Var X = 2 h^2 [sum_{n=1}^K n^2 e^{-lam n} + e^{-b^2/2} Theta_2(K + 1)] / Z (the mean is 0)."""
    return 2 * h**2 * (geometric2_closed(K) + sp.exp(-(b**2) / 2) * theta_tail(K + 1, 2)) / normaliser()


# ----------------------------------------------------------------------------
# privacy
# ----------------------------------------------------------------------------
def privacy_loss(x: sp.Expr = k) -> sp.Expr:
    """L(k) = log p(k)/p(k + S) = E(k + S) - E(k)."""
    return energy(x + S) - energy(x)


def privacy_loss_hinge(x: sp.Expr = k) -> sp.Expr:
    """L(k) = lam (|k+S| - |k|) + [(c|k+S| - b)_+^2 - (c|k| - b)_+^2]/2 (no cancellation of large terms)."""
    return lam * (sp.Abs(x + S) - sp.Abs(x)) + (
        sp.Max(c * sp.Abs(x + S) - b, 0) ** 2 - sp.Max(c * sp.Abs(x) - b, 0) ** 2
    ) / 2


def profile(kstar: sp.Expr) -> sp.Expr:
    """delta(eps) = (T(k*) - e^eps T(k* + S)) / Z with k* = min{k : L(k) > eps} (k* >= 1 form)."""
    return (upper_tail(kstar) - sp.exp(eps) * upper_tail(kstar + S)) / normaliser()


# ----------------------------------------------------------------------------
# convexity of E (monotone privacy loss)
# ----------------------------------------------------------------------------
def convexity_gaps() -> Dict[str, Tuple[sp.Expr, sp.Expr, Dict[sp.Symbol, sp.Expr]]]:
    """Second differences of E at the joints, each written as a manifestly >= 0 expression.

    With d = c (K + 1) - b in (0, c] (because K = floor(b/c)):
    ``centre``: E(n+1) - 2E(n) + E(n-1) = 0 for 1 <= n < K (and 2 lam >= 0 at n = 0);
    ``joint``: [E(K+1) - E(K)] - [E(K) - E(K-1)] = d^2/2;
    ``tail_entry``: [E(K+2) - E(K+1)] - [E(K+1) - E(K)] = (c^2 - d^2)/2 + c d;
    ``tail``: E(n+1) - 2E(n) + E(n-1) = c^2 for n >= K + 2.
    Returned as pairs (second difference from the piecewise E, the claimed form), with
    b eliminated through b = c (K + 1) - d.
    """
    d = sp.Symbol("d", positive=True)
    sub = {b: c * (K + 1) - d, lam: (c * (K + 1) - d) * c}

    def cen(x: sp.Expr) -> sp.Expr:  # E on the centre, x >= 0
        return lam * x

    def tal(x: sp.Expr) -> sp.Expr:
        return (c**2 * x**2 + b**2) / 2

    return {
        "joint": ((tal(K + 1) - cen(K)) - (cen(K) - cen(K - 1)), d**2 / 2, sub),
        "tail_entry": ((tal(K + 2) - tal(K + 1)) - (tal(K + 1) - cen(K)), (c**2 - d**2) / 2 + c * d, sub),
        "tail": (tal(n + 1) - 2 * tal(n) + tal(n - 1), c**2, sub),
    }


# ----------------------------------------------------------------------------
# Euler-Maclaurin for the discrete Gaussian tails, with proven bounds
# ----------------------------------------------------------------------------
def hermite_derivative(order: int, x: sp.Expr = n) -> sp.Expr:
    """d^q/dx^q exp(-c^2 x^2/2) = (-c)^q He_q(c x) exp(-c^2 x^2/2) (Rodrigues' formula)."""
    return (-c) ** order * sp.hermite_prob(order, c * x) * sp.exp(-(c**2) * x**2 / 2)


def em_theta(p: int, corrections: int) -> sp.Expr:
    """Euler-Maclaurin value of Theta_p(m) (p = 0, 2) without its remainder, u = c m.

    Theta_0(m) ~ e^{-u^2/2} [sqrt(pi/2) erfcx(u/sqrt2)/c + 1/2 + sum_q B_2q/(2q)! c^{2q-1} He_{2q-1}(u)]
    Theta_2(m) ~ e^{-u^2/2} [(u + sqrt(pi/2) erfcx(u/sqrt2))/c^3 + m^2/2
                             + sum_q B_2q/(2q)! c^{2q-3} (He_{2q+1}(u) + He_{2q-1}(u))]
    (integral + f(m)/2 - sum_q B_2q/(2q)! f^{(2q-1)}(m), q = 1..corrections).
    """
    mills = sp.sqrt(sp.pi / 2) * erfcx(u / sp.sqrt(2))
    He = sp.hermite_prob
    if p == 0:
        corr = sum(sp.bernoulli(2 * q) / sp.factorial(2 * q) * c ** (2 * q - 1) * He(2 * q - 1, u) for q in range(1, corrections + 1))
        return sp.exp(-(u**2) / 2) * (mills / c + sp.Rational(1, 2) + corr)
    if p == 2:
        corr = sum(
            sp.bernoulli(2 * q) / sp.factorial(2 * q) * c ** (2 * q - 3) * (He(2 * q + 1, u) + He(2 * q - 1, u))
            for q in range(1, corrections + 1)
        )
        return sp.exp(-(u**2) / 2) * ((u + mills) / c**3 + (u / c) ** 2 / 2 + corr)
    raise ValueError(f"p must be 0 or 2; got {p}")


def em_remainder_bound(p: int, corrections: int, beyond_zeros: bool) -> sp.Expr:
    """A bound on |Theta_p(m) - em_theta(p, corrections)| (u = c m).

    |R| <= |B_2Q|/(2Q)! int_m^oo |f^{(2Q)}|, Q = corrections (Euler-Maclaurin remainder with
    the periodic Bernoulli function, |B~_2Q| <= |B_2Q|).  f^{(2Q)} is c^{2Q-1-p} times
    He_2Q (p = 0) or He_{2Q+2} + He_2Q (p = 2) at y = c x, times exp(-y^2/2); its integral:
    ``beyond_zeros`` (u >= sqrt(8Q + 10), past every zero, integrand > 0): exact,
    c^{2Q-1-p} [He_{2Q-1}(u) (+ He_{2Q+1}(u))] e^{-u^2/2};
    otherwise Cauchy-Schwarz over the real line with the orthogonality of He:
    c^{2Q-1-p} sqrt(2 pi [(2Q)! (+ (2Q+2)!)]).
    """
    Q = corrections
    coef = sp.Abs(sp.bernoulli(2 * Q)) / sp.factorial(2 * Q)
    He = sp.hermite_prob
    if p == 0:
        exact = He(2 * Q - 1, u) * sp.exp(-(u**2) / 2)
        cs = sp.sqrt(2 * sp.pi * sp.factorial(2 * Q))
    elif p == 2:
        exact = (He(2 * Q + 1, u) + He(2 * Q - 1, u)) * sp.exp(-(u**2) / 2)
        cs = sp.sqrt(2 * sp.pi * (sp.factorial(2 * Q) + sp.factorial(2 * Q + 2)))
    else:
        raise ValueError(f"p must be 0 or 2; got {p}")
    return coef * c ** (2 * Q - 1 - p) * (exact if beyond_zeros else cs)


def ratio_bound(p: int, M: sp.Expr = m) -> sp.Expr:
    """rho_M = ((M+1)/M)^p exp(-c^2 (2M+1)/2) >= t_{n+1}/t_n for all n >= M (t_n = n^p e^{-c^2 n^2/2})."""
    return ((M + 1) / M) ** p * sp.exp(-(c**2) * (2 * M + 1) / 2)


def truncation_bound(p: int, M: sp.Expr = m) -> sp.Expr:
    """sum_{n >= M} n^p e^{-c^2 n^2/2} <= M^p e^{-c^2 M^2/2} / (1 - rho_M) when rho_M < 1 (geometric majorant)."""
    return M**p * sp.exp(-(c**2) * M**2 / 2) / (1 - ratio_bound(p, M))
