"""Moments, entropy and central mass of the flipped Huber law in closed form.

The hooks ``_moment``, ``_entropy``, ``_half_mass`` and ``_kinks`` of
:class:`~fhsym.FlippedHuber` delegate here (the class module holds the distribution
kernels; these are the extra scipy-style quantities).  Standard units: ``b = alpha/gamma``,
``s = t/gamma``, ``lw = log(kappa/gamma)``; the standardised density is
``e^{-r_b(s)}/e^{lw}`` with ``r_b(s) = b|s|`` (|s| <= b), ``(s^2 + b^2)/2`` beyond (eq 7, 8).

Moments (the paper gives only the variance, eq 11): the generated kernel
``moment_std(n, b, lw)`` (Laplace-centre plus Gaussian-tail parts, both positive).

Entropy, derived here from h = -E[log g(T)] = log kappa + E[rho_alpha(T)]/gamma^2::

    h = log gamma + lw + E[r_b(S)],
    E[r_b(S)] = 2 e^{-lw} [ int_0^b b s e^{-b s} ds + e^{-b^2/2} int_b^inf (s^2 + b^2)/2 e^{-s^2/2} ds ]
              = 2 e^{-lw} [ gamma_low(2, b^2)/b + e^{-b^2} (b + (1 + b^2) sqrt(pi/2) erfcx(b/sqrt 2)) / 2 ],

with gamma_low(2, y)/b = b^3 ``lowergamma_scaled(1, b^2)`` (positive terms only).  At b = 0
it is 1/2 (the Gaussian: h = log(gamma sqrt(2 pi e))); as b -> inf it tends to 1 and
h -> 1 + log(2 gamma^2/alpha) (the Laplace entropy).  The SymPy form of E[r_b(S)] is
:func:`fhsym.symbolic.entropy.expected_loss_std`; this module evaluates the closed form
above with numpy/scipy directly (not generated code).

Central mass (for ``interval`` at small confidence), P(0 < S <= s)::

    e^{-lw} s exprel(-b s)                                                   (s <= b)
    e^{-lw} [ b exprel(-b^2) + e^{-b^2/2} sqrt(pi/2) (erf(s/sqrt 2) - erf(b/sqrt 2)) ]   (s > b)

Examples
--------
>>> import math, fhsym
>>> g = fhsym.FlippedHuber(alpha=0.0, gamma=1.5)                     # alpha = 0: N(0, 1.5^2)
>>> math.isclose(g.entropy(), math.log(1.5 * math.sqrt(2 * math.pi * math.e)), rel_tol=1e-15)
True
>>> g.moment(4)                                                    # 3 gamma^4
15.1875
"""

from __future__ import annotations

import math
from typing import Protocol

import numpy as np
from scipy import special as sc

from .._core.numerics import lowergamma_scaled
from .._generated import flipped_huber as K

__all__ = ["FlippedHuberConstants", "moment", "entropy", "expected_loss_std", "half_mass"]

_SQRT_PI_2 = math.sqrt(math.pi / 2.0)
_SQRT2 = math.sqrt(2.0)


class FlippedHuberConstants(Protocol):
    """What these functions read of a :class:`fhsym.FlippedHuber` (scalar parameters; a protocol, because
    flipped_huber imports this module): b = alpha/gamma, gamma and lw = log(kappa/gamma)."""

    b: float
    gamma: float
    _lw: float


def moment(fh: FlippedHuberConstants, n: int) -> float:
    """E[T^n] = gamma^n moment_std(n, b, lw) for even n >= 2."""
    return fh.gamma**n * float(K.moment_std(int(n), np.float64(fh.b), fh._lw))


def expected_loss_std(b: float, lw: float) -> float:
    """E[r_b(S)] = E[rho_alpha(T)]/gamma^2 (module docstring), a sum of positive terms."""
    y = b * b
    centre = b**3 * float(lowergamma_scaled(1, y))
    tail = 0.5 * math.exp(-y) * (b + (1.0 + y) * _SQRT_PI_2 * float(sc.erfcx(b / _SQRT2)))
    return 2.0 * math.exp(-lw) * (centre + tail)


def entropy(fh: FlippedHuberConstants) -> float:
    """h(T) = log gamma + log(kappa/gamma) + E[r_b(S)] (nats)."""
    return math.log(fh.gamma) + fh._lw + expected_loss_std(fh.b, fh._lw)


def half_mass(fh: FlippedHuberConstants, x: np.ndarray) -> np.ndarray:
    """P(0 < T <= x) for x >= 0, accurate in relative terms as x -> 0."""
    b, lw = fh.b, fh._lw
    s = np.asarray(x, dtype=float) / fh.gamma
    out = np.empty(s.shape)
    centre = s <= b
    sc_ = s[centre]
    out[centre] = math.exp(-lw) * sc_ * sc.exprel(-b * sc_)
    st = s[~centre]
    with np.errstate(over="ignore"):
        gauss = math.exp(-0.5 * b * b) * _SQRT_PI_2 * (sc.erf(st / _SQRT2) - math.erf(b / _SQRT2))
    out[~centre] = math.exp(-lw) * (b * sc.exprel(-b * b) + gauss)
    return out
