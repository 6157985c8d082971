"""The paper's Algorithm 2: the K-fold privacy profile by iterative numerical integration (K <= 5).

Recursion (Algorithm 2, line 4, with the paper's typo corrected: the argument of
delta^(k-1) is nu - zeta, not eps - zeta)::

    delta^(1)(nu) = G(zeta~^{-1}(nu) - Delta/2) - e^nu G(zeta~^{-1}(nu) + Delta/2)      (Theorem 3)
    delta^(k)(nu) = int g(t) delta^(k-1)(nu - zeta_Delta(t)) dt,  zeta_Delta(t) = log g(t)/g(t + Delta).

It holds because the privacy loss of the K-dimensional mechanism at d = (Delta, ..., Delta) is a
sum of K independent one-dimensional losses and delta(eps) = E[(1 - e^{eps - L})_+].  For
nu < 0 the symmetric duality delta(nu) = 1 - e^nu + e^nu delta(-nu) is used (the K-fold pair is
symmetric too).

This module is a *cross-check*, independent of :mod:`fhsym.accounting.pld`: it shares only the exact
1-D profile (:func:`fhsym.privacy_profile`) and the FH density.  Integrals over t are
composite 20-point Gauss-Legendre rules on panels split at every kink of the integrand
(t = +-alpha, -Delta +- alpha, where the 1-D loss changes branch) and refined to width
<= gamma/``panels_per_gamma``; tabulated levels (k < K) are interpolated in log delta
(monotone cubic, PCHIP) on a uniform nu-grid.  :func:`iterative_profile` returns the value
and an error estimate (the change when the rule and the grid are both refined 2x).
"""

from __future__ import annotations

import math
from typing import Callable, List, Tuple

import numpy as np
from numpy.typing import ArrayLike
from scipy import interpolate

from .._core import domains as V
from .._core.types import FloatArray
from .._generated import flipped_huber_pieces as KP
from ..noise.flipped_huber import FlippedHuber
from ..privacy.profile import log_profile_std, privacy_loss

__all__ = ["iterative_profile", "iterative_profile_value"]

_GL_X, _GL_W = np.polynomial.legendre.leggauss(20)


def _profile_1d(b: float, D: float) -> Callable[[FloatArray], FloatArray]:
    lw = float(KP.log_kappa_std(np.float64(b)))

    def f(nu: FloatArray) -> FloatArray:
        nu = np.asarray(nu, dtype=float)
        a = np.abs(nu)
        with np.errstate(under="ignore"):
            dp = np.exp(log_profile_std(a, b, D, lw))
            out: FloatArray = np.where(nu >= 0, dp, -np.expm1(nu) + np.exp(nu) * dp)
            return out

    return f


def _nodes(alpha: float, gamma: float, Delta: float, panels_per_gamma: int) -> Tuple[FloatArray, FloatArray, FloatArray]:
    """Quadrature nodes t, weights w * g(t), and the loss zeta_Delta(t) at the nodes."""
    fh = FlippedHuber(alpha, gamma)
    T = float(fh.isf(1e-22)) + 2.0 * Delta
    kinks = sorted({-T, T, -alpha, alpha, -Delta - alpha, -Delta + alpha, 0.0, -Delta})
    kinks = [k for k in kinks if -T <= k <= T]
    panels: List[FloatArray] = []
    for a, b in zip(kinks[:-1], kinks[1:]):
        m = max(1, int(math.ceil((b - a) / gamma * panels_per_gamma)))
        panels.append(np.linspace(a, b, m + 1)[:-1])
    edges = np.concatenate(panels + [np.array([kinks[-1]])])
    lo, hi = edges[:-1], edges[1:]
    half = 0.5 * (hi - lo)
    t = (0.5 * (hi + lo))[:, None] + half[:, None] * _GL_X[None, :]
    w = half[:, None] * _GL_W[None, :]
    t, w = t.ravel(), w.ravel()
    wg = w * np.asarray(fh.pdf(t))
    z = np.asarray(privacy_loss(t, Delta, alpha, gamma))  # log g(t)/g(t + Delta)
    return t, wg, z


def _one_level(prev: Callable[[FloatArray], FloatArray], nu: FloatArray, wg: FloatArray, z: FloatArray) -> FloatArray:
    out = np.empty(nu.shape)
    for i in range(0, nu.size, 64):
        chunk = nu[i : i + 64]
        out[i : i + 64] = prev(chunk[:, None] - z[None, :]) @ wg
    clipped: FloatArray = np.clip(out, 0.0, 1.0)
    return clipped


def _tabulate(values: FloatArray, grid: FloatArray) -> Callable[[FloatArray], FloatArray]:
    """delta(nu) for all real nu from values on a uniform grid of nu >= 0 (duality for nu < 0)."""
    pos = values > 0
    last = int(np.nonzero(pos)[0][-1]) if pos.any() else 0
    g, lv = grid[: last + 1], np.log(values[: last + 1])
    spl = interpolate.PchipInterpolator(g, lv, extrapolate=False)
    top = g[-1]

    def f(nu: FloatArray) -> FloatArray:
        nu = np.asarray(nu, dtype=float)
        a = np.abs(nu)
        with np.errstate(under="ignore", invalid="ignore"):
            dp = np.where(a <= top, np.exp(spl(np.minimum(a, top))), 0.0)
        return np.where(nu >= 0, dp, -np.expm1(nu) + np.exp(nu) * dp)

    return f


def iterative_profile_value(epsilon: ArrayLike, alpha: float, gamma: float, dim: int, sensitivity: float = 1.0,
                            panels_per_gamma: int = 16, grid_points: int = 500) -> FloatArray:
    """Algorithm 2's delta^(K)(eps) at one resolution (no error estimate); vectorised in eps."""
    eps = np.atleast_1d(np.asarray(V.check_array(epsilon, V.EPSILON), dtype=float))
    a = V.check_scalar(alpha, V.ALPHA)
    g = V.check_scalar(gamma, V.GAMMA)
    K = V.check_int(dim, "dim", 1)
    if K > 5:
        raise ValueError(f"dim must be an integer in [1, 5] for the iterative integration (Algorithm 2); got {K}")
    Dl = V.check_scalar(sensitivity, V.SENSITIVITY)
    f = _profile_1d(a / g, Dl / g)
    if K == 1:
        return f(eps)
    _, wg, z = _nodes(a, g, Dl, panels_per_gamma)
    for k in range(2, K):
        # tabulate delta^(k) on [0, nu_max]: loss of k coordinates stays below ~ k * (mean + 12 sd)
        nu_max = k * (Dl / g) * (Dl / g + 12.0) + k * (a * Dl / g**2)
        grid = np.linspace(0.0, nu_max, grid_points)
        f = _tabulate(_one_level(f, grid, wg, z), grid)
    return _one_level(f, eps, wg, z)


def iterative_profile(epsilon: ArrayLike, alpha: float, gamma: float, dim: int, sensitivity: float = 1.0,
                      panels_per_gamma: int = 16, grid_points: int = 500) -> Tuple[FloatArray, FloatArray]:
    """(delta^(K)(eps), error estimate) by Algorithm 2 (K <= 5).

    The estimate is |value - value at twice the quadrature panels and grid points|; the
    returned value is the refined one.

    >>> v, err = iterative_profile(1.0, alpha=1.0, gamma=2.0, dim=1)
    >>> float(err[0])
    0.0
    """
    v1 = iterative_profile_value(epsilon, alpha, gamma, dim, sensitivity, panels_per_gamma, grid_points)
    if int(dim) == 1:
        return v1, np.zeros_like(v1)
    v2 = iterative_profile_value(epsilon, alpha, gamma, dim, sensitivity, 2 * panels_per_gamma, 2 * grid_points)
    return v2, np.abs(v2 - v1)
