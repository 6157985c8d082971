"""Certified privacy profile of the discrete flipped Huber mechanism (arb ball arithmetic).

For noise on the lattice h*Z with pmf p(k) ~ exp(-E(k)), E(k) = rho_alpha(k h)/gamma^2, and a
sensitivity of S steps, the exact profile is (:func:`fhsym.symbolic.discrete.profile`)

    delta(eps) = sum_k [p(k) - e^eps p(k + S)]_+ = (T(k*) - e^eps T(k* + S)) / Z,
    k* = min{k : E(k + S) - E(k) > eps},   T(k) = sum_{n >= k} e^{-E(n)},   Z = 1 + 2 T(1).

Everything is evaluated at the exact binary values of (eps, alpha, gamma, h):

* k* exactly, with rational arithmetic (E is a rational function of the inputs; the loss is
  non-decreasing because E is convex, :func:`fhsym.symbolic.discrete.convexity_gaps`);
* the geometric centre sums in closed form in arb;
* the discrete Gaussian tails sum_{n >= m} e^{-c^2 n^2/2} either as a finite arb sum plus the
  rigorous geometric bound :func:`fhsym.symbolic.discrete.truncation_bound` on the rest
  (c > 1/20 or c^2 m > 1: a few hundred terms), or by Euler-Maclaurin with twenty corrections
  plus the rigorous remainder bound :func:`fhsym.symbolic.discrete.em_remainder_bound`;
* at 128 bits first, doubling the precision until the ball of delta is 2^-60 relative
  (cancellation next to eps = L(k) only costs precision, never correctness) or until doubling
  stops narrowing it (the width is then that of the proven bounds).

No float kernel is involved.  The returned floats are rounded outward.
"""

from __future__ import annotations

from typing import Tuple

from .._core import domains as V
from ..noise.discrete_flipped_huber import STEP, lattice_sensitivity
from ..noise.discrete_profile_arb import profile_enclosure_steps

__all__ = ["discrete_profile_enclosure"]


def discrete_profile_enclosure(
    epsilon: float, alpha: float, gamma: float, step: float, sensitivity: float = 1.0, log: bool = False
) -> Tuple[float, float]:
    """Certified (lower, upper) floats enclosing the discrete flipped Huber profile delta(eps).

    delta(eps) = (T(k*) - e^eps T(k* + S))/Z (:func:`fhsym.symbolic.discrete.profile`) for the
    mechanism that adds DiscreteFlippedHuber(alpha, gamma, step) noise to a lattice-valued
    query of sensitivity ``sensitivity`` = S * step (S an integer; see
    :func:`fhsym.noise.discrete_flipped_huber.lattice_sensitivity`).  python-flint ``arb``
    balls at the exact binary inputs; tails by finite sums plus rigorous truncation bounds or
    Euler-Maclaurin plus its rigorous remainder; the ball is refined to 2^-60 relative width.
    The floats are rounded outward (lower down, upper up); ``log=True`` returns the logs
    (also rounded outward), finite where delta underflows.

    Examples
    --------
    >>> lo, hi = discrete_profile_enclosure(1.0, alpha=1.0, gamma=2.0, step=0.25)
    >>> 0 < lo <= hi and (hi - lo) < 1e-15 * hi
    True
    >>> lo, hi = discrete_profile_enclosure(300.0, 1.0, 1.0, 0.5, log=True)   # delta ~ e^-45000
    >>> -50000 < lo <= hi < -40000
    True
    """
    eps = V.check_scalar(epsilon, V.EPSILON)
    a = V.check_scalar(alpha, V.ALPHA)
    g = V.check_scalar(gamma, V.GAMMA)
    h = V.check_scalar(step, STEP)
    s = lattice_sensitivity(sensitivity, h)
    if not isinstance(log, bool):
        raise ValueError(f"log must be True or False; got {log!r}")
    return profile_enclosure_steps(eps, a, g, h, s, log)
