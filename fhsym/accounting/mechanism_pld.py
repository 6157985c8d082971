"""Certified privacy-loss distributions of every noise law, and their K-fold compositions.

:func:`noise_pld` builds the certified PLD bracket (:func:`fhsym.accounting.pld.from_privacy_profile`,
connect-the-dots pessimistic discretisation) of the 1-D mechanism "add this noise" at sensitivity
Delta from the noise's exact profile; :func:`kfold_delta_upper` composes it K x T times.

Where the worst difference vector of the box is the corner.  For noise with a symmetric
log-concave density (flipped Huber, Gaussian, Laplace, truncated Laplace, OSGT) the location
family has a monotone likelihood ratio, so the Neyman-Pearson tests between T and T + d are
threshold tests and the trade-off function of (T, T + d) is f_d(a) = G(G^{-1}(1 - a) - d), which
is non-increasing in |d|; tensor products of trade-off functions are monotone in each factor
(Dong, Roth & Su 2022, Lemma C.3), so over the box ||d||_inf <= Delta the product mechanism is
least private at d = (Delta, ..., Delta) (and, composed T times, at the same corner each time).
The staircase density is not log-concave; it is not composed here (its K-dimensional
calibrations use pure-DP composition).
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import Any, Optional

import numpy as np

from .._core import domains as V
from ..noise.base import NoiseDistribution
from ..noise.contract import ContinuousLaw
from .pld import DEFAULT_TAIL_MASS, PrivacyLossDistribution, from_privacy_profile
from .pld_exact import GRID_FORMAT, MAX_BITS, MAX_NODES, SERIES_FORMAT, ExactBound, ExactGrid, exact_delta_upper

__all__ = ["noise_pld", "kfold_delta_upper", "kfold_delta_lower", "kfold_delta_proven", "exact_grid", "loss_atom", "loss_scale",
           "step_for", "EXACT_RESOLUTION"]


def _atom_exact(noise: ContinuousLaw, sensitivity: float) -> Fraction:
    """The largest loss atom of the noise at ``sensitivity`` (:meth:`~fhsym.NoiseDistribution.loss_atoms`), 0 if none."""
    return max(noise.loss_atoms(sensitivity), default=Fraction(0))


def loss_atom(noise: ContinuousLaw, sensitivity: float) -> float:
    """The largest constant value of the privacy loss (a point mass of the PLD), 0 if none.

    Putting it on the lattice makes the connect-the-dots bound exact there.

    >>> import fhsym
    >>> loss_atom(fhsym.Laplace(2.0), 1.0), loss_atom(fhsym.Gaussian(1.0), 1.0)
    (0.5, 0.0)
    """
    return float(_atom_exact(noise, sensitivity))


def loss_scale(noise: ContinuousLaw, sensitivity: float) -> float:
    """Delta / std of the noise: the scale of its privacy loss, computed scale-free (Delta/scale over the
    standard deviation of the family member of scale 1), so that it exists whatever the units."""
    try:
        std1 = _unit_std(type(noise), noise.family_shape)
        return (sensitivity / noise.family_scale) / std1
    except (ValueError, NotImplementedError):  # no scale family (the staircase): the variance itself
        return sensitivity / math.sqrt(noise.var())


@functools.lru_cache(maxsize=256)
def _unit_std(cls: Any, shape: float) -> float:
    """The standard deviation of the scale-1 member of shape ``shape`` (one per shape: a search asks at many scales)."""
    return math.sqrt(cls.from_family(shape, 1.0).var())


def step_for(noise: ContinuousLaw, sensitivity: float, resolution: float = 400.0) -> float:
    """A loss-lattice step: the loss scale / ``resolution`` in [1e-6, 2e-3], aligned with the loss atom."""
    h = float(min(max(loss_scale(noise, sensitivity) / resolution, 1e-6), 2e-3))
    atom = loss_atom(noise, sensitivity)
    if atom > h:
        h = atom / math.ceil(atom / h)
    return h


def noise_pld(noise: ContinuousLaw, sensitivity: float = 1.0, step: Optional[float] = None, *,
              tail_mass: float = DEFAULT_TAIL_MASS, upper_only: bool = False, certified: bool = True
              ) -> PrivacyLossDistribution:
    """PLD bracket of "add ``noise``" at ``sensitivity`` from the noise's float profile (see the module doc).

    The profile is :meth:`~fhsym.NoiseDistribution.pld_profile` (``certified=False``: its fast form, for
    searches), accurate to the noise's ``profile_rtol``; the top of the lattice is the noise's
    :meth:`~fhsym.NoiseDistribution.loss_range` when it has one.  Floating point: an accounting tool and
    the searches' bound; certificates use :func:`kfold_delta_proven`.

    >>> import fhsym
    >>> pld = noise_pld(fhsym.Laplace(1.0), 1.0)
    >>> lo, up = pld.delta_bounds(0.5)
    >>> bool(lo <= float(fhsym.Laplace(1.0).privacy_profile(0.5)) <= up)
    True
    """
    if not isinstance(noise, NoiseDistribution):
        raise ValueError(f"noise must be a fhsym NoiseDistribution; got {type(noise).__name__}")
    Dl = V.check_scalar(sensitivity, V.SENSITIVITY)
    h = step_for(noise, Dl) if step is None else V.check_scalar(step, V.Domain("step", 0.0, math.inf))
    top = noise.loss_range(Dl)
    eps_max = None if top is None else float(top) * (1.0 + 1e-9)
    scale = loss_scale(noise, Dl)
    return from_privacy_profile(noise.pld_profile(Dl, certified), h, profile_rtol=noise.profile_rtol, eps_max=eps_max,
                                tail_mass=tail_mass, scale=max(scale, scale * scale),
                                label=f"{noise!r}, Delta={Dl:.6g}", upper_only=upper_only)


def _check_log_concave(noise: ContinuousLaw) -> None:
    if not noise.log_concave:
        raise ValueError(f"the K-fold profile over the box is certified for noise with a symmetric log-concave density "
                         f"(its worst difference vector is the corner); got {noise!r}")


def kfold_delta_upper(noise: ContinuousLaw, epsilon: float, dim: int, sensitivity: float = 1.0,
                      compositions: int = 1, step: Optional[float] = None, certified: bool = True,
                      fp_budget: float = math.inf) -> float:
    """Float PLD upper bound on delta(epsilon) of i.i.d. ``noise`` on ``dim`` coordinates, composed
    ``compositions`` times, over the box ||d||_inf <= sensitivity (the corner, for log-concave noise).

    A search's bound (floating point, error bounded but not proven); :func:`kfold_delta_proven` is the proof.
    ``certified=False`` (a search): the profile's fast form and the one-shot FFT power (error bounded entrywise)
    where its error bound over the window is at most ``fp_budget`` (binary powering otherwise).

    >>> import fhsym
    >>> up = kfold_delta_upper(fhsym.Laplace(1.0), 1.5, dim=2)   # two Laplace(1) coordinates, Delta = 1
    >>> bool(up >= float(fhsym.Laplace(1.0).privacy_profile(1.5)))  # more than one coordinate alone
    True
    """
    _check_log_concave(noise)
    eps = V.check_scalar(epsilon, V.EPSILON)
    K = V.check_int(dim, "dim", 1)
    T = V.check_int(compositions, "compositions", 1)
    pld = noise_pld(noise, sensitivity, step, upper_only=True, certified=certified)
    if K * T > 1:
        pld = pld.self_compose(K * T, fp_budget=fp_budget, fft=not certified)
    return float(pld.delta_upper(eps))


def kfold_delta_lower(noise: ContinuousLaw, epsilon: float, folds: int, sensitivity: float, step: float,
                      fp_budget: float) -> float:
    """Float PLD lower bound on delta(epsilon) of ``folds`` compositions of "add ``noise``" at ``sensitivity`` (the
    corner of the box, as :func:`kfold_delta_upper`) on the lattice ``step``: the optimistic side of the PLD bracket
    (:func:`noise_pld`), composed by the one-shot FFT power (error bound ``fp_budget``).  A search's test only
    (floating point, not proven): a coarse lattice is cheap, and any lattice's lower bound lies below every
    lattice's upper bound.

    >>> import fhsym
    >>> lo = kfold_delta_lower(fhsym.Laplace(1.0), 1.5, 2, 1.0, 1e-3, 1e-12)
    >>> bool(lo <= kfold_delta_upper(fhsym.Laplace(1.0), 1.5, dim=2))
    True
    """
    _check_log_concave(noise)
    pld = noise_pld(noise, sensitivity, step, upper_only=False, certified=False)
    if folds > 1:
        pld = pld.self_compose(folds, fp_budget=fp_budget, fft=True)
    return float(pld.delta_lower(epsilon))


_F_TOP = 1e-7  # share of delta for the mass above the top node (moved to +inf)
_F_ROUND = 1e-8  # share of delta for the rounding up to units 2^-P
_F_CUT = 1e-8  # share of delta for each side's window cuts, over all products


def exact_grid(noise: ContinuousLaw, sensitivity: float, delta: float, folds: int,
               step: Optional[float] = None) -> ExactGrid:
    """The grid of the proven K-fold bound (:func:`kfold_delta_proven`) for a target ``delta``.

    Any grid gives a valid bound (:mod:`fhsym.accounting.pld_exact`); this one is the float PLD's
    lattice, with the grid's other costs tiny against ``delta``:

    * step h: ``step`` (default :func:`step_for`) as the exact dyadic it is, or, when the noise has a
      loss atom at least that large, the atom / m (an exact rational) for the m that
      :func:`step_for` / :func:`fhsym.accounting.aligned_step` use: the same lattice as the float PLD;
    * nodes n: the top n h is the first point of a geometric scan where the float profile is
      <= 1e-7 delta/folds (the atom itself for Laplace; Delta/lambda for truncated Laplace, beyond
      which only the infinite loss is left);
    * bits P: 2^-P times a count of the rounded coefficients ((2 log2(folds) + 1) folds (2n + 1), an
      over-count) is <= 1e-8 delta;
    * cuts: 1e-8 delta (in units 2^-P) per side, shared by the products.

    >>> import fhsym
    >>> g = exact_grid(fhsym.Laplace(1.0), 1.0, 1e-6, 20)
    >>> g.step * g.nodes, g.bits > 40
    (Fraction(1, 1), True)
    """
    Dl = V.check_scalar(sensitivity, V.SENSITIVITY)
    dl = V.check_scalar(delta, V.DELTA)
    KT = V.check_int(folds, "folds", 1)
    h0 = step_for(noise, Dl) if step is None else V.check_scalar(step, V.Domain("step", 0.0, math.inf))
    atom = _atom_exact(noise, Dl)
    if atom > 0 and float(atom) >= h0:
        h = atom / math.ceil(float(atom) / h0 * (1.0 - 1e-12))
    else:
        h = Fraction(h0)
    top = noise.loss_range(Dl)  # beyond it the profile is constant (only the infinite loss is left)
    if top is None:
        tau = _F_TOP * dl / KT
        x = loss_scale(noise, Dl) * 2.0 ** (np.arange(-20, 241) / 8.0)
        with np.errstate(under="ignore"):
            below = np.nonzero(np.asarray(noise.privacy_profile(x, Dl), dtype=float) <= tau)[0]
        top = max(Fraction(float(x[below[0]] if below.size else x[-1])), atom)
    n = max(int(math.ceil(top / h)), 2)
    if n > MAX_NODES:
        raise ValueError(f"step must be larger for this noise: the proven PLD would need {n} profile nodes "
                         f"(at most {MAX_NODES})")
    nprod = 2 * KT.bit_length() - 1
    count = (nprod + 1) * KT * (2 * n + 1)
    P = min(max(int(math.ceil(math.log2(count / (_F_ROUND * dl)))), 32), MAX_BITS)
    cut = int(Fraction(_F_CUT * dl) * 2**P / nprod)
    fmt = SERIES_FORMAT if callable(getattr(noise, "profile_series_upper_ends", None)) else GRID_FORMAT
    return ExactGrid(h, n, P, cut, cut, fmt)


def kfold_delta_proven(noise: ContinuousLaw, epsilon: float, dim: int, sensitivity: float = 1.0,
                       compositions: int = 1, *, delta: Optional[float] = None, step: Optional[float] = None,
                       grid: Optional[ExactGrid] = None, refine: int = 0) -> ExactBound:
    """Proven upper bound on delta(epsilon) of i.i.d. ``noise`` on ``dim`` coordinates, composed
    ``compositions`` times, over the box ||d||_inf <= sensitivity (the corner, for log-concave noise).

    The bound of :func:`fhsym.accounting.pld_exact.exact_delta_upper` (ball arithmetic and integers,
    no float kernel) on ``grid``, or on :func:`exact_grid` (lattice ``step``) sized for the target
    ``delta`` (default: the float bound of :func:`kfold_delta_upper`, a guess only).  While the bound
    exceeds ``delta``, up to ``refine`` finer grids (the step halved) are tried; the smallest bound
    is returned (each is a proof).  Returns the :class:`ExactBound` (its ``upper``, and the grid to
    record).

    >>> import fhsym
    >>> b = kfold_delta_proven(fhsym.Laplace(1.0), 1.5, dim=2, delta=1e-3)
    >>> bool(abs(b.upper - kfold_delta_upper(fhsym.Laplace(1.0), 1.5, dim=2)) < 1e-9)
    True
    """
    _check_log_concave(noise)
    eps = V.check_scalar(epsilon, V.EPSILON)
    K = V.check_int(dim, "dim", 1)
    T = V.check_int(compositions, "compositions", 1)
    Dl = V.check_scalar(sensitivity, V.SENSITIVITY)
    R = V.check_int(refine, "refine", 0)
    if grid is not None and R == 0:
        return exact_delta_upper(noise, Dl, eps, K * T, grid)
    target = delta if delta is not None else max(kfold_delta_upper(noise, eps, K, Dl, T, step), 1e-300)
    h = step_for(noise, Dl) if step is None else step
    best: Optional[ExactBound] = None
    for i in range(R + 1):
        g = grid if (grid is not None and i == 0) else exact_grid(noise, Dl, min(target, 0.5), K * T, h / 2**i)
        b = exact_delta_upper(noise, Dl, eps, K * T, g)
        if best is None or b.upper < best.upper:
            best = b
        if best.upper <= target:
            break
    assert best is not None
    return best
