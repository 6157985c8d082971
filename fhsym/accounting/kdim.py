"""The exact K-dimensional privacy profile of i.i.d. flipped Huber noise, and what it covers.

The K-dimensional mechanism adds i.i.d. FH(alpha, gamma^2) noise to each coordinate.  For a
*fixed* difference vector d = f(D) - f(D') the privacy loss is the sum of K independent
one-dimensional losses with sensitivities |d_i| (the sign does not matter: the noise is
symmetric), so

    delta_d(eps) = the profile of the composition of the K one-dimensional mechanisms,

computed here with a certified bracket by :mod:`fhsym.accounting.pld`.

Which d a result covers
-----------------------
* ``l_inf`` sensitivity Delta only (the box ||d||_inf <= Delta): the vector
  d = (Delta, ..., Delta) is the worst case for every eps, so the K-fold profile at the
  corner certifies every d in the box.  Proof: (1) for symmetric log-concave noise the
  one-dimensional profile delta_{|d|}(eps) is non-decreasing in |d| for every eps >= 0 (the
  paper's Lemma 11 / eq 28 argument: d/dd of G(nu - d/2) - e^eps G(nu + d/2) is
  [g(nu - d/2) + e^eps g(nu + d/2)]/2 >= 0), and for eps < 0 through the duality
  delta(eps) = 1 - e^eps + e^eps delta(-eps) of a symmetric pair, so the whole hockey-stick
  curves are ordered; (2) for dichotomies an ordering of the hockey-stick curves is Blackwell
  dominance (the pair with the smaller curve is a garbling of the other); (3) a product of
  garblings is a garbling of the product, so the corner's K-fold pair dominates every
  d in the box.  Checked numerically in ``tests/kdim/test_kdim_profile.py`` and
  ``proofs/kdim/``.
* ``l_2`` / ``l_1`` sensitivities tighter than the box (Delta_2 < sqrt(K) Delta or
  Delta_1 < K Delta): the certified statement is still the box bound (the set is a subset of
  the box), which is conservative.  The supremum of delta_d over the smaller set is not
  characterised in closed form (for Gaussian noise only ||d||_2 matters, for Laplace noise
  spreading is worst, FH sits in between); :func:`worst_case_lower_bound` evaluates a family
  of extreme vectors of the set and returns the largest certified *lower* bound -- a lower
  bound on the true worst case, so [that, box upper bound] brackets the exact worst-case
  profile.  zCDP (:mod:`fhsym.accounting.zcdp`) gives a bound that does use Delta_2 and Delta_1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, List, Optional, Tuple

import numpy as np
from numpy.typing import ArrayLike

from .._core import domains as V
from .._core.config import UNSET, config_signature, resolve_config
from .._core.types import FloatArray, Real
from .pld import DEFAULT_TAIL_MASS, MAX_FFT, PrivacyLossDistribution, fft_size, flipped_huber_pld

__all__ = [
    "KDimPLDConfig",
    "aligned_step",
    "default_step",
    "kdim_pld",
    "kdim_privacy_profile",
    "kdim_epsilon",
    "worst_case_candidates",
    "worst_case_lower_bound",
]


def _loss_scale(b: float, D: float) -> float:
    """Typical size of the 1-D privacy loss: D in the Gaussian regime, b D in the Laplace one."""
    return max(D, min(b, 1e6) * D, 1e-300)


def default_step(alpha: float, gamma: float, dim: int = 1, sensitivity: float = 1.0, rounds: int = 1, resolution: float = 400.0) -> float:
    """The default loss-lattice spacing: the 1-D loss scale / ``resolution``, within [1e-6, 2e-3].

    The connect-the-dots discretisation is O(h^2) accurate in the loss, so a few hundred
    points per unit of the one-dimensional loss scale give a bracket far below 1e-4
    relative for any K (``benchmarks/bench_pld.py`` reports the bracket).
    """
    b = alpha / gamma
    D = sensitivity / gamma
    h = _loss_scale(b, D) / resolution
    return float(min(max(h, 1e-6), 2e-3))


def aligned_step(step: float, alpha: float, gamma: float, sensitivity: float = 1.0) -> float:
    """The largest step <= ``step`` that puts the FH loss atoms +-alpha Delta/gamma^2 on the lattice.

    The FH privacy loss is constant, = +-alpha Delta/gamma^2, where t and t + Delta lie on one side of
    the Laplace centre: point masses of the PLD.  The connect-the-dots bounds are exact at lattice
    points, so an atom on the lattice costs nothing; between two lattice points its mass is spread
    over both (up to a step too high in the upper bound).  The loss is constant on [0, alpha - Delta]
    and [-alpha, -Delta], so atoms exist only for alpha > Delta; otherwise, or when the atom is
    smaller than the step, the step is returned unchanged.

    >>> aligned_step(0.3, alpha=2.0, gamma=2.0)
    0.25
    """
    atom = (alpha / gamma) * (sensitivity / gamma)  # scale-free: gamma**2 under/overflows at extreme scales
    if not alpha > sensitivity or not math.isfinite(atom) or atom < step:  # atoms exist only for alpha > Delta
        return step
    m = math.ceil(atom / step * (1.0 - 1e-12))
    return atom / m


_align = aligned_step


def _multiset(difference: ArrayLike) -> List[Tuple[float, int]]:
    d = np.abs(np.asarray(V.check_array(difference, V.Domain("difference", -math.inf, math.inf)), dtype=float)).ravel()
    vals, counts = np.unique(d[d > 0], return_counts=True)
    return [(float(v), int(c)) for v, c in zip(vals, counts)]


@dataclass(frozen=True)
class KDimPLDConfig:
    """The options of :func:`kdim_pld`: which difference vector, how many rounds, and the grid.

    ``difference`` a vector d of finite reals with a non-zero entry (None: d = (Delta, ..., Delta),
    the box bound); ``rounds`` L >= 1 runs composed; ``step`` h > 0 of the loss grid (None: the
    default step aligned with the loss atoms); ``tail_mass`` in (0, 1), the mass left outside
    the window; ``upper_only`` and ``certified`` as in :func:`fhsym.accounting.flipped_huber_pld`.
    The length of ``difference`` is checked against ``dim`` by :func:`kdim_pld`.

    >>> from fhsym.accounting import KDimPLDConfig, kdim_pld
    >>> pld = kdim_pld(1.0, 3.0, 2, config=KDimPLDConfig(rounds=2))
    >>> pld.label
    'FH(alpha=1, gamma=3), K=2, d=(Delta,...,Delta), Delta=1, 2 rounds'
    >>> KDimPLDConfig(tail_mass=0.0)
    Traceback (most recent call last):
    ...
    ValueError: tail_mass must be a finite real number in (0, 1); got 0.0
    """

    difference: Optional[Any] = None
    rounds: int = 1
    step: Optional[float] = None
    tail_mass: float = DEFAULT_TAIL_MASS
    upper_only: bool = False
    certified: bool = True

    def __post_init__(self) -> None:
        if self.difference is not None and not _multiset(self.difference):
            raise ValueError("difference must have a non-zero entry (d = 0 has delta(eps) = 0 for eps >= 0)")
        V.check_int(self.rounds, "rounds", 1)
        if self.step is not None:
            V.check_scalar(self.step, V.Domain("step", 0.0, math.inf))
        V.check_scalar(self.tail_mass, V.Domain("tail_mass", 0.0, 1.0))
        for name in ("upper_only", "certified"):
            if not isinstance(getattr(self, name), (bool, np.bool_)):
                raise ValueError(f"{name} must be True or False; got {getattr(self, name)!r}")


@config_signature(KDimPLDConfig)
def kdim_pld(
    alpha: float,
    gamma: float,
    dim: int,
    sensitivity: Optional[float] = None,
    *,
    config: Optional[KDimPLDConfig] = None,
    difference: Optional[ArrayLike] = UNSET,
    rounds: int = UNSET,
    step: Optional[float] = UNSET,
    tail_mass: float = UNSET,
    upper_only: bool = UNSET,
    certified: bool = UNSET,
) -> PrivacyLossDistribution:
    """Certified PLD bracket of the K-dimensional FH mechanism, composed over ``rounds`` runs.

    With ``difference=None`` the profile is that of d = (Delta, ..., Delta), which certifies every
    d with ||d||_inf <= Delta (see the module docstring).  With ``difference`` (a vector of length
    ``dim``) it is the exact profile for that d; a ``sensitivity`` given with it is checked, not ignored: every
    |d_i| must be at most it (``ValueError`` otherwise; None, the default, is Delta = 1 without ``difference`` and no
    check with it).  ``step=None`` picks :func:`default_step`,
    shrunk so that the loss atoms of FH lie on the grid.  ``certified=False``: see
    :func:`fhsym.accounting.flipped_huber_pld` (for searches only).

    Bounded work: the FFT length of the composition is estimated from the one-dimensional PLD
    before anything is convolved, and a ``ValueError`` naming ``dim`` refuses compositions above
    :data:`fhsym.accounting.pld.MAX_FFT` points (the window grows like sqrt(dim * rounds): at the default
    step, up to dim * rounds ~ 10^6).

    The options after ``*`` come either as keywords or as one :class:`KDimPLDConfig`
    (``config=``), not both (a keyword passed with ``config`` raises ``ValueError`` naming it).
    """
    cfg = resolve_config(KDimPLDConfig, config, dict(
        difference=difference, rounds=rounds, step=step, tail_mass=tail_mass, upper_only=upper_only,
        certified=certified), "kdim_pld")
    difference, rounds, step, tail_mass = cfg.difference, cfg.rounds, cfg.step, cfg.tail_mass
    upper_only, certified = cfg.upper_only, cfg.certified
    a = V.check_scalar(alpha, V.ALPHA)
    g = V.check_scalar(gamma, V.GAMMA)
    K = V.check_int(dim, "dim", 1)
    L = V.check_int(rounds, "rounds", 1)
    Dl = 1.0 if sensitivity is None else V.check_scalar(sensitivity, V.SENSITIVITY)
    if difference is None:
        groups = [(Dl, K)]
    else:
        groups = _multiset(difference)
        n = int(np.size(difference))
        if n != K:
            raise ValueError(f"difference must have dim = {K} entries; got {n}")
        if not groups:
            raise ValueError("difference must have a non-zero entry (d = 0 has delta(eps) = 0 for eps >= 0)")
    d_max = max(v for v, _ in groups)
    if difference is not None and sensitivity is not None and d_max > Dl:  # the given sensitivity is used: checked
        raise ValueError(f"difference must lie in the sensitivity box |d_i| <= sensitivity = {Dl!r}; got an entry of "
                         f"absolute value {d_max!r} (leave sensitivity=None to take the profile at any d)")
    h = default_step(a, g, K, d_max, L) if step is None else V.check_scalar(step, V.Domain("step", 0.0, math.inf))
    if step is None and len(groups) == 1:
        h = _align(h, a, g, groups[0][0])
    ones = [(flipped_huber_pld(a, g, v, h, tail_mass, upper_only=upper_only, certified=certified), c) for v, c in groups]
    for one, c in ones:  # bounded work: the cost of the composition is estimated before anything is convolved
        N = one.self_compose_fft_size(c * L, tail_mass)
        if N > MAX_FFT:
            raise ValueError(_too_large(K, L, N))
    parts = [one.self_compose(c * L, tail_mass) for one, c in ones]
    if sum(fft_size(p.upper.pmf.size) for p in parts) > MAX_FFT:
        raise ValueError(_too_large(K, L, sum(fft_size(p.upper.pmf.size) for p in parts)))
    out = parts[0]
    for p in parts[1:]:
        out = out.compose(p, tail_mass)
    out.label = f"FH(alpha={a:.6g}, gamma={g:.6g}), K={K}, " + (
        f"d=(Delta,...,Delta), Delta={Dl:.6g}" if difference is None else "d given"
    ) + (f", {L} rounds" if L > 1 else "")
    return out


def _too_large(K: int, L: int, N: int) -> str:
    """The refusal of a composition too large for the lattice (its window grows like sqrt(dim * rounds))."""
    kmax = max(1, int(K * (MAX_FFT / N) ** 2))
    return (f"dim must be at most ~{kmax} for these parameters, rounds and step (got dim = {K}, rounds = {L}): the "
            f"composition needs an FFT of ~{N} points and the engine's limit is {MAX_FFT} (memory and run time; the "
            f"window grows like sqrt(dim * rounds)); use a larger step, or zCDP (fhsym.accounting.zcdp) for larger compositions")


def kdim_privacy_profile(
    epsilon: ArrayLike,
    alpha: float,
    gamma: float,
    dim: int,
    sensitivity: Optional[float] = None,
    *,
    difference: Optional[ArrayLike] = None,
    rounds: int = 1,
    step: Optional[float] = None,
) -> Tuple[Real, Real]:
    """(lower, upper) bounds on the exact K-dimensional profile delta_K(eps); the upper one is certified.

    ``sensitivity`` (None: 1) is Delta of d = (Delta, ..., Delta); with ``difference`` the profile is at that d, and a
    given ``sensitivity`` is checked to bound every |d_i| (:func:`kdim_pld`).

    >>> lo, up = kdim_privacy_profile(1.0, alpha=1.0, gamma=3.0, dim=4)
    >>> bool(0 < lo <= up < 1)
    True
    """
    pld = kdim_pld(alpha, gamma, dim, sensitivity, difference=difference, rounds=rounds, step=step)
    return pld.delta_bounds(epsilon)


def kdim_epsilon(delta: float, alpha: float, gamma: float, dim: int, sensitivity: Optional[float] = None, *, difference: Optional[ArrayLike] = None, rounds: int = 1, step: Optional[float] = None) -> Tuple[float, float]:
    """(lower, upper) bounds on the smallest eps with delta_K(eps) <= delta; the upper one is certified."""
    pld = kdim_pld(alpha, gamma, dim, sensitivity, difference=difference, rounds=rounds, step=step)
    return pld.epsilon_bounds(delta)


def worst_case_candidates(dim: int, sensitivity: Optional[float], l2_sensitivity: Optional[float] = None, l1_sensitivity: Optional[float] = None) -> List[FloatArray]:
    """Extreme difference vectors of {||d||_inf <= Delta, ||d||_2 <= Delta_2, ||d||_1 <= Delta_1}.

    The family: for every m = 1..K, m equal coordinates at the largest value the three
    constraints allow (min(Delta, Delta_2/sqrt(m), Delta_1/m)), plus the "greedy" vectors with as many
    coordinates at Delta as the constraints allow and one remainder coordinate.
    """
    from .sufficient import resolve_sensitivities

    K, D, D2, D1 = resolve_sensitivities(dim, sensitivity, l2_sensitivity, l1_sensitivity)
    out: List[FloatArray] = []
    ms = sorted(set([1, 2, 3, K] + [int(round(x)) for x in np.geomspace(1, K, 12)]))
    for m in ms:
        c = min(D, D2 / math.sqrt(m), D1 / m)
        d = np.zeros(K)
        d[:m] = c
        out.append(d)
    # greedy: k coordinates at Delta, then the remainder allowed by l2 and l1
    k = int(min(K, math.floor((D2 / D) ** 2 + 1e-12), math.floor(D1 / D + 1e-12)))
    d = np.zeros(K)
    d[:k] = D
    if k < K:
        rem = min(math.sqrt(max(D2**2 - k * D**2, 0.0)), max(D1 - k * D, 0.0), D)
        d[k] = rem
    out.append(d)
    return out


def worst_case_lower_bound(
    epsilon: float, alpha: float, gamma: float, dim: int, sensitivity: Optional[float] = None,
    l2_sensitivity: Optional[float] = None, l1_sensitivity: Optional[float] = None, step: Optional[float] = None,
) -> Tuple[float, FloatArray]:
    """max over :func:`worst_case_candidates` of the certified lower bound of delta_d(eps).

    A lower bound on sup_d delta_d(eps) over the sensitivity set (not the supremum itself);
    returns (value, the maximising vector).
    """
    best, arg = -1.0, None
    for d in worst_case_candidates(dim, sensitivity, l2_sensitivity, l1_sensitivity):
        if not np.any(d > 0):
            continue
        box = sensitivity if sensitivity is not None else float(np.max(np.abs(d)))  # only l2/l1 given: d's own box
        lo = float(kdim_pld(alpha, gamma, dim, box, difference=d, step=step).delta_lower(epsilon))
        if lo > best:
            best, arg = lo, d
    assert arg is not None  # every candidate has a positive entry (the sensitivities are positive)
    return best, arg
