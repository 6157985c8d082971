"""Certified privacy profiles of the exact lattice flipped Huber mechanism, for accountants' maps.

The mechanism (what :func:`fhsym.integrations.opendp.make_flipped_huber` runs): a value x is snapped
to the lattice h*Z, i = floor(x/h + 1/2) exactly, and the released value is (i + N) h with N the index
of ``DiscreteFlippedHuber(alpha, gamma, step=h)`` noise, P(N = n) ~ exp(-rho_alpha(n h)/gamma^2)
(the paper's eq 7 on the lattice), drawn with integer arithmetic only
(:mod:`fhsym.noise.exact_sampling`); vectors get i.i.d. noise per coordinate.

Sensitivity on the lattice.  If |x - x'| <= d then the snapped indices differ by at most
S = ceil(d/h) (:func:`lattice_steps`): floor(a + 1/2) - floor(b + 1/2) < (a - b) + 1, and an integer
below t + 1 is at most ceil(t).  So a query of sensitivity d costs the profile of S lattice steps,
with no relaxation term when d is a multiple of h (OpenDP's float Laplace adds 2^k to d instead).

Profiles (:func:`lattice_privacy_curve`), certified upper bounds on delta(eps):

* one coordinate: the upper end of the arb enclosure of the exact lattice profile
  delta(eps) = (T(k*) - e^eps T(k* + S))/Z at the exact binary (eps, alpha, gamma, h)
  (:func:`fhsym.privacy.discrete_enclosure.discrete_profile_enclosure`, rounded outward) at the
  dyadic nodes eps = j 2^-12, and between them the chord through the two node values (above the
  convex curve u -> delta(log u); :class:`_ChordCurve`);
* K coordinates and a difference in the box |d_i| <= S steps: the lattice pmf is log-concave
  (its energy is convex), so the shifts form a monotone-likelihood-ratio family, the trade-off
  function of (N, N + s) is non-increasing in s, and the product mechanism is least private at the
  corner (S, ..., S) (Dong, Roth & Su 2022, Lemma C.3; as for the continuous noise,
  :mod:`fhsym.accounting.mechanism_pld`).  The curve is the certified upper bound of fhsym's PLD
  (:func:`fhsym.accounting.from_privacy_profile`, connect-the-dots from the arb upper ends at every
  grid point) composed K times (FFT with certified error bounds).

>>> curve = lattice_privacy_curve(1.0, 2.0, step=2.0**-10, steps=1024)   # sensitivity 1 = 1024 steps
>>> 0.0067 < curve(1.0) < 0.0068
True
"""

from __future__ import annotations

import math
from fractions import Fraction
from collections import OrderedDict
from typing import Callable, Dict, Tuple, Union

import numpy as np

from .._core import domains as V
from ..noise.discrete_flipped_huber import DiscreteFlippedHuber
from ..accounting.pld_core import DEFAULT_TAIL_MASS
from ..noise.discrete_profile_arb import profile_enclosure_steps, profile_upper_ends
from ._accounting import aligned_step, default_step, from_privacy_profile

__all__ = ["DEFAULT_RELATIVE_GRANULARITY", "default_granularity", "lattice_steps", "lattice_privacy_curve"]

#: default lattice spacing relative to gamma: h = 2^k with 2^-21 gamma < h <= 2^-20 gamma
DEFAULT_RELATIVE_GRANULARITY = 20
#: the exact sampler needs step/gamma >= 2^-30 (:func:`fhsym.noise.exact_sampling.discrete_flipped_huber_sampler`)
FINEST_RELATIVE_GRANULARITY = 30

_EPS = V.Domain("epsilon", 0.0, math.inf, closed_lower=True)

Number = Union[int, float, Fraction]


def default_granularity(gamma: float) -> int:
    """The default k (lattice 2^k Z): the largest k with 2^k <= gamma 2^-20.

    >>> default_granularity(1.0), default_granularity(3.0), default_granularity(0.75)
    (-20, -19, -21)
    """
    g = V.check_scalar(gamma, V.GAMMA)
    m, e = math.frexp(g)  # g = m 2^e, m in [1/2, 1): 2^(e-1) <= g < 2^e
    return e - 1 - DEFAULT_RELATIVE_GRANULARITY


def lattice_steps(d_in: Number, step: Number) -> int:
    """S = ceil(d_in/step) exactly: the largest index difference of two values at distance <= d_in.

    >>> lattice_steps(1.0, 2.0**-3), lattice_steps(0.3, 0.25), lattice_steps(0, 0.5), lattice_steps(3, 1)
    (8, 2, 0, 3)
    """
    if isinstance(d_in, bool) or not isinstance(d_in, (int, float, Fraction, np.integer, np.floating)):
        raise ValueError(f"d_in must be a finite number >= 0; got {d_in!r}")
    if isinstance(d_in, (float, np.floating)) and not (math.isfinite(d_in) and d_in >= 0.0):
        raise ValueError(f"d_in must be a finite number >= 0; got {d_in!r}")
    d = Fraction(d_in) if not isinstance(d_in, np.integer) else Fraction(int(d_in))
    if d < 0:
        raise ValueError(f"d_in must be a finite number >= 0; got {d_in!r}")
    h = Fraction(step)
    if h <= 0:
        raise ValueError(f"step must be > 0; got {step!r}")
    r = d / h
    return -((-r.numerator) // r.denominator)


class _ChordCurve:
    """eps -> certified upper bound on delta(eps) from arb upper ends at the dyadic nodes j 2^-m, memoised.

    The hockey-stick curve H(u) = delta(log u) is convex and non-increasing in u = e^eps (any pair of
    distributions), so between two nodes the chord through upper bounds at the nodes lies above H:
    delta(eps) <= U_j - (U_j - U_{j+1}) theta, theta = expm1(eps - eps_j)/expm1(2^-m).  theta is
    lowered by 1e-12 relative and the result raised by 1e-13 relative, far more than the few ulps of
    float rounding.  At a node the node value is returned.  Bisections on eps (OpenDP's
    ``PrivacyProfile.epsilon``) probe dyadic points first and then stay inside one node interval, so
    a query costs about log2(bracket / 2^-m) + 2 arb evaluations instead of one per probe.  The chord
    exceeds the exact profile by at most (2^-m s)^2/8 relative, s = |d log delta / d eps| (about 5e-6
    for s = 30 at m = 12).
    """

    def __init__(self, node: Callable[[float], float], m: int) -> None:
        self.node = node
        self.m = m
        self.eta = math.ldexp(1.0, -m)
        self.em1 = math.expm1(self.eta)
        self.cache: Dict[int, float] = {}

    def value(self, j: int) -> float:
        v = self.cache.get(j)
        if v is None:
            v = self.cache[j] = min(self.node(math.ldexp(float(j), -self.m)), 1.0)
        return v

    def __call__(self, epsilon: float) -> float:
        e = V.check_scalar(epsilon, _EPS)
        if not e < 2.0 ** (52 - self.m):  # far out: the node function at eps itself
            return min(self.node(e), 1.0)
        t = math.ldexp(e, self.m)
        j = math.floor(t)
        if t == j:
            return self.value(j)
        lo, hi = self.value(j), self.value(j + 1)
        if hi >= lo:
            return lo
        theta = math.expm1(e - math.ldexp(float(j), -self.m)) / self.em1 * (1.0 - 1e-12)
        return min(lo, (lo - (lo - hi) * theta) * (1.0 + 1e-13))


#: nodes of the scalar curve at j 2^-CHORD_NODES_LOG2 (see :class:`_ChordCurve`)
CHORD_NODES_LOG2 = 12


def _scalar_curve(alpha: float, gamma: float, step: float, steps: int) -> Callable[[float], float]:
    def node(e: float) -> float:
        return profile_enclosure_steps(e, alpha, gamma, step, steps)[1]

    return _ChordCurve(node, CHORD_NODES_LOG2)


#: per-shape memo of the arb upper ends delta(eps) at the nodes a vector curve's PLD asked for (the same numbers
#: as :func:`profile_enclosure_steps`; ``dp.binary_search_param`` and a calibration rebuild curves of one shape)
_NODE_MEMO: "OrderedDict[Tuple[float, float, float, int], Dict[float, float]]" = OrderedDict()
_NODE_MEMO_SHAPES = 16


def _node_values(alpha: float, gamma: float, step: float, steps: int) -> Callable[[np.ndarray], np.ndarray]:
    """eps array -> the arb upper ends of the lattice profile (memoised per shape, missing nodes batched)."""
    key = (alpha, gamma, step, steps)
    memo = _NODE_MEMO.get(key)
    if memo is None:
        memo = _NODE_MEMO[key] = {}
        while len(_NODE_MEMO) > _NODE_MEMO_SHAPES:
            _NODE_MEMO.popitem(last=False)
    _NODE_MEMO.move_to_end(key)

    def profile(eps: np.ndarray) -> np.ndarray:
        flat = [float(e) for e in np.ravel(eps)]
        missing = sorted({e for e in flat if e not in memo})
        if missing:
            memo.update(zip(missing, profile_upper_ends(missing, alpha, gamma, step, steps)))
        return np.array([memo[e] for e in flat], dtype=float)

    return profile


def _first_below_monotone(profile: Callable[[np.ndarray], np.ndarray], tau: float, scale: float) -> float:
    """An eps with profile(eps) <= tau near the smallest: ``_first_below``'s grids, bisected (the profile is
    non-increasing), so about 14 evaluations instead of 305.  Any top is valid for the PLD (mass above it goes
    to +inf in the upper bound); this one only sets where the grid stops."""
    x = max(scale, 1e-12) * 2.0 ** (np.arange(-40, 201) / 4.0)

    def first(xs: np.ndarray) -> int:  # least i with profile(xs[i]) <= tau, len(xs) if none
        lo, hi = -1, len(xs)
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if float(profile(xs[mid:mid + 1])[0]) <= tau:
                hi = mid
            else:
                lo = mid
        return hi

    i = first(x)
    if i == len(x):
        raise ValueError("privacy profile does not fall below the tail mass")
    if i == 0:
        return float(x[0])
    y = np.linspace(x[i - 1], x[i], 65)[1:]
    return float(y[min(first(y), len(y) - 1)])


def _vector_curve(alpha: float, gamma: float, step: float, steps: int, dim: int) -> Callable[[float], float]:
    D = float(Fraction(steps) * Fraction(step))
    profile = _node_values(alpha, gamma, step, steps)
    h = aligned_step(default_step(alpha, gamma, dim, D), alpha, gamma, D)
    scale = max(D / gamma, D * alpha / gamma**2, 1e-12)
    # profile_rtol = 0: the values are already certified upper ends; the builder adds its own rounding allowance
    pld = from_privacy_profile(profile, h, profile_rtol=0.0, eps_max=_first_below_monotone(profile, DEFAULT_TAIL_MASS, scale),
                               scale=scale,
                               label=f"lattice FH(alpha={alpha:.6g}, gamma={gamma:.6g}, step={step:.6g}), S={steps}",
                               upper_only=True).self_compose(dim)

    def curve(epsilon: float) -> float:
        e = V.check_scalar(epsilon, _EPS)
        return float(min(float(pld.delta_upper(e)), 1.0))

    return curve


def lattice_privacy_curve(alpha: float, gamma: float, step: float, steps: int, dim: int = 1) -> Callable[[float], float]:
    """eps -> certified upper bound on delta(eps) of the lattice FH mechanism, ``steps`` = S lattice steps.

    ``dim = 1``: the arb enclosure's upper end of the exact profile.  ``dim = K >= 2``: every
    difference with |d_i| <= S steps, through the corner (S, ..., S) and fhsym's K-fold PLD upper bound
    (see the module docstring).  S = 0 gives delta = 0.  The curve takes eps >= 0 (ValueError
    otherwise) and returns values in [0, 1].

    >>> c = lattice_privacy_curve(0.0, 4.0, step=1.0, steps=0)
    >>> c(0.0)
    0.0
    """
    DiscreteFlippedHuber(alpha, gamma, step)  # validates the three parameters (and alpha/step < 2^52)
    a, g, h = float(alpha), float(gamma), float(step)
    S = V.check_int(steps, "steps", 0)
    K = V.check_int(dim, "dim", 1)
    if S == 0:
        def zero(epsilon: float) -> float:
            V.check_scalar(epsilon, _EPS)
            return 0.0

        return zero
    if K == 1:
        return _scalar_curve(a, g, h, S)
    return _vector_curve(a, g, h, S, K)
