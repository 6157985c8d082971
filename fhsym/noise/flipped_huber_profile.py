"""Exact privacy of the 1-D flipped Huber mechanism (Theorem 3, eq 13-16).

The mechanism M(D) = f(D) + T, T ~ FH(alpha, gamma^2), with sensitivity Delta is
(eps, delta)-DP if and only if delta >= delta^(1)(eps), where (eq 16, Lemma 11)

    delta^(1)(eps) = int [g(t) - e^eps g(t + Delta)]_+ dt
                   = G_bar(t1) - e^eps G_bar(t2),   t1,2 = zeta~_Delta^{-1}(eps) -+ Delta/2,

which the paper evaluates in closed form in five cases (eq 13, Table I).  Each
case is a generated kernel of :mod:`fhsym._generated.privacy_profile`, printed
from a stable rewrite of the paper's expression (see
:mod:`fhsym.symbolic.privacy`; ``python -m proofs`` shows every rewrite equal to
eq 13 and eq 13 equal to the integral).

Accuracy (``tests/test_privacy_profile.py``, against mpmath quadrature of the
integral): relative error <= 1e-10 (absolute 1e-300 where delta underflows)
over alpha/gamma in {0} U [1e-6, 1e4], Delta/gamma in [1e-6, 1e3], eps in [0, 50];
never NaN.  Calibrations certify their result against this bound
(:data:`PROFILE_RTOL`).
"""

from __future__ import annotations

import functools
import math
from typing import Tuple, Union

import numpy as np
from numpy.typing import ArrayLike
from scipy import optimize

from .._core import numerics as _nx
from .._core import search
from .._core import domains as V
from .._core.types import FloatArray, Real
from .._core.arb import enclose
from .plans.flipped_huber import flipped_huber_plan
from .._generated import flipped_huber_pieces as KP
from .._generated import privacy_pieces as PP

__all__ = [
    "KINK_WINDOW",
    "case_boundaries",
    "log_profile_std",
    "log_profile_of",
    "sensitivity_units",
    "loss_std",
    "scalar_units",
    "privacy_profile",
    "log_privacy_profile",
    "epsilon_for_delta",
    "privacy_loss",
    "centered_privacy_loss",
    "PROFILE_RTOL",
    "shape_constants",
]

#: Certified bound on the relative error of :func:`privacy_profile` (measured <= 1e-10;
#: calibrations require delta * (1 + PROFILE_RTOL) <= target).
PROFILE_RTOL = 1e-9

Float = Union[float, np.ndarray]

_T = V.Domain("t", closed_lower=True, closed_upper=True, allow_inf=True)
_D_ARG = V.Domain("d", closed_lower=True, closed_upper=True)


def _out(a: np.ndarray) -> Float:
    return a[()] if a.ndim == 0 else a


def _shape(alpha: float, gamma: float) -> Tuple[float, float, float]:
    a = V.check_scalar(alpha, V.ALPHA)
    g = V.check_scalar(gamma, V.GAMMA)
    b = a / g
    if not math.isfinite(b):
        raise ValueError(f"alpha/gamma must be finite; got alpha={a!r}, gamma={g!r}")
    return a, g, b


#: the range of D = sensitivity/gamma the profile answers on: normal floats (a subnormal or zero D has lost
#: its relative precision, and delta ~ b D need not be negligible) whose square is finite (Table I uses D^2/2)
D_MIN = float(np.finfo(float).tiny)
D_MAX = 1e150


def _shape_arrays(alpha: ArrayLike, gamma: ArrayLike, sensitivity: ArrayLike) -> Tuple[np.ndarray, np.ndarray]:
    """Validated float arrays (b, D) = (alpha/gamma, Delta/gamma), each finite (not broadcast)."""
    a = V.check_array(alpha, V.ALPHA)
    g = V.check_array(gamma, V.GAMMA)
    Delta = V.check_array(sensitivity, V.SENSITIVITY)
    with np.errstate(over="ignore"):
        b = a / g
    if not np.all(np.isfinite(b)):
        i = np.argwhere(~np.isfinite(b))[0]
        ai, gi = np.broadcast_to(a, b.shape)[tuple(i)], np.broadcast_to(g, b.shape)[tuple(i)]
        raise ValueError(f"alpha/gamma must be finite; got alpha={float(ai)!r}, gamma={float(gi)!r}")
    return b, sensitivity_units(b, g, Delta)


def sensitivity_units(b: Real, g: Real, Delta: ArrayLike) -> np.ndarray:
    """D = Delta/gamma for a valid shape b = alpha/gamma and scale g, checked: finite, b D finite, a normal float
    whose square is finite (``ValueError`` naming the sensitivity otherwise)."""
    with np.errstate(over="ignore"):
        D = np.asarray(Delta, dtype=float) / g
    if not np.all(np.isfinite(D)):
        i = np.argwhere(~np.isfinite(D))[0]
        di, gi = np.broadcast_to(Delta, D.shape)[tuple(i)], np.broadcast_to(g, D.shape)[tuple(i)]
        raise ValueError(f"sensitivity/gamma must be finite; got sensitivity={float(di)!r}, gamma={float(gi)!r}")
    with np.errstate(over="ignore"):
        bD = b * D
    if not np.all(np.isfinite(bD)):
        i = np.argwhere(~np.isfinite(bD))[0]
        raise ValueError(f"alpha*sensitivity/gamma^2 must be finite (below 1.8e308; delta = 1 to double precision "
                         f"beyond, for every finite eps); got alpha/gamma={float(np.broadcast_to(b, bD.shape)[tuple(i)])!r}, "
                         f"sensitivity/gamma={float(np.broadcast_to(D, bD.shape)[tuple(i)])!r}")
    bad = (D < D_MIN) | (D > D_MAX)
    if np.any(bad):
        i = np.argwhere(bad)[0]
        di, gi = np.broadcast_to(Delta, D.shape)[tuple(i)], np.broadcast_to(g, D.shape)[tuple(i)]
        raise ValueError(
            f"sensitivity/gamma must be in [{D_MIN:.6g}, {D_MAX:.6g}] (a normal float whose square is finite: "
            f"the profile's formulas use D^2/2 and divide by D); got sensitivity={float(di)!r}, gamma={float(gi)!r}, "
            f"ratio {float(D[tuple(i)])!r}: rescale the sensitivity and the noise scale together")
    return D


def scalar_units(alpha: float, gamma: float, sensitivity: float) -> Tuple[float, float]:
    """(b, D) as floats for scalar parameters, with the same checks as :func:`_shape_arrays`."""
    b, D = _shape_arrays(V.check_scalar(alpha, V.ALPHA), V.check_scalar(gamma, V.GAMMA),
                         V.check_scalar(sensitivity, V.SENSITIVITY))
    return float(b), float(D)


def case_boundaries(b: Real, D: Real) -> Tuple[Real, Real, Real]:
    """The eps-ranges of Table I in standard units (b = alpha/gamma, D = Delta/gamma).

    Returns (e3, nu1, nu2): case (v) is eps >= nu2, (iv) is nu1 <= eps < nu2, (iii) is
    e3 <= eps < nu1, and below e3 case (i) applies if D > 2b, else case (ii).  Empty
    cases come out as empty intervals (e3 >= nu1 when b >= D, nu1 = nu2 when b = 0).
    Elementwise for arrays; a boundary beyond the float range is +inf.  Generated from
    ``fhsym.symbolic.privacy.TABLE_I``.
    """
    return PP.case_boundaries(b, D)


def log_profile_std(eps: Real, b: Real, D: Real, lw: Real) -> FloatArray:
    """log delta(eps) in standard units, elementwise over broadcast (eps, b, D, lw); -inf where delta = 0.

    eps >= 0 finite, b >= 0, D > 0, lw = log_kappa_std(b).  The region dispatch (Table I,
    the boundaries nu1, nu2 tested on eps - bD computed error-free, the quantity the kernels
    take the square root of) is generated from the kernels' declared regions
    (``fhsym.symbolic.privacy``, ``fhsym._generated.privacy_pieces.log_profile_std``).
    """
    return PP.log_profile_std(b, D, eps, lw)


def _check_eps(epsilon: ArrayLike) -> np.ndarray:
    return V.check_array(epsilon, V.EPSILON)


def log_privacy_profile(epsilon: ArrayLike, alpha: float, gamma: float, sensitivity: float = 1.0) -> Float:
    """log delta^(1)(eps) (eq 13), finite far beyond where delta underflows; -inf where delta = 0.

    delta^(1)(eps) = int [g(t) - e^eps g(t + Delta)]_+ dt = G_bar(t1) - e^eps G_bar(t2)
    (Theorem 3, eq 13 and 16; Delta = ``sensitivity``), evaluated case by case (Table I),
    cases (iii)-(v) in log space.  Vectorised with NumPy broadcasting over ``epsilon``
    (>= 0), ``alpha`` (>= 0), ``gamma`` (> 0) and ``sensitivity`` (> 0).

    Examples
    --------
    >>> import math
    >>> math.isclose(float(log_privacy_profile(1.0, alpha=1.0, gamma=2.0)),
    ...              math.log(float(privacy_profile(1.0, alpha=1.0, gamma=2.0))), rel_tol=1e-14)
    True
    >>> float(privacy_profile(2000.0, alpha=1.0, gamma=2.0))              # underflows
    0.0
    >>> f"{float(log_privacy_profile(2000.0, alpha=1.0, gamma=2.0)):.10g}"  # still finite
    '-7999018.248'
    """
    eps = _check_eps(epsilon)
    b, D = _shape_arrays(alpha, gamma, sensitivity)
    lw = KP.log_kappa_std(b)
    out = log_profile_std(eps, b, D, lw)
    return _out(_near_kink_exactly(out, eps, alpha, gamma, sensitivity, b, D))


def log_profile_of(eps: np.ndarray, alpha: ArrayLike, gamma: Real, sensitivity: ArrayLike, b: Real,
                   lw: Real) -> np.ndarray:
    """:func:`log_privacy_profile` for a validated eps array and the constants of a valid law (b = alpha/gamma,
    lw = log_kappa_std(b), as :class:`fhsym.FlippedHuber` holds them); only the sensitivity is checked here."""
    D = sensitivity_units(b, gamma, sensitivity)
    out = log_profile_std(eps, b, D, lw)
    return _near_kink_exactly(out, eps, alpha, gamma, sensitivity, b, D)


#: Relative half-width of the neighbourhood of eps = alpha Delta / gamma^2 re-evaluated by mpmath.
KINK_WINDOW = 1e-6


def _near_kink_exactly(out: np.ndarray, eps: np.ndarray, alpha: ArrayLike, gamma: ArrayLike, sensitivity: ArrayLike,
                       b: Real, D: Real) -> np.ndarray:
    """Replace log delta within KINK_WINDOW (relative) of the kink eps = alpha Delta/gamma^2 by mpmath.

    There delta's Laplace part vanishes linearly in eps - alpha Delta/gamma^2, and the kernels see
    that distance through the rounded b = alpha/gamma and D = Delta/gamma: ~2 ulp of bD, which is
    up to ~1e-8 relative in delta at the kink itself (6.5e-9 measured at alpha = 6.62, gamma =
    1.49, eps = 3).  Where b and D are exact (e.g. gamma a power of 2) nothing is replaced.  Outside
    the window the error this causes is below ~4e-12 relative.  The replacement is
    the upper end of the ball-arithmetic enclosure (:func:`fhsym._core.arb.enclose`, 20 digits), so these points cost
    ~20 ms each; a grid of eps meets at most a few of them.
    """
    a = np.asarray(alpha, dtype=float)
    g = np.asarray(gamma, dtype=float)
    dl = np.asarray(sensitivity, dtype=float)
    with np.errstate(over="ignore", invalid="ignore"):
        near = np.abs(_nx.sub_prod(eps, b, D)) <= KINK_WINDOW * np.maximum(1.0, b * D)
        if not near.any():
            return out
        bh, bl = _nx.two_prod(b, g)
        dh, dl_ = _nx.two_prod(D, g)
        exact = (bh == a) & (bl == 0.0) & (dh == dl) & (dl_ == 0.0)
    near = np.broadcast_to(near & ~exact, out.shape)
    if not near.any():
        return out
    out = np.array(out, dtype=float)
    shape = out.shape
    args = [np.broadcast_to(x, shape) for x in (eps, a, g, dl)]
    for idx in np.ndindex(shape):
        if not near[idx]:
            continue
        e, ai, gi, di = (float(x[idx]) for x in args)
        plan = functools.partial(flipped_huber_plan, alpha=ai, gamma=gi)
        man, exp = enclose(plan, e, di, rel_width=1e-20, max_prec=1 << 14).upper_man_exp()
        out[idx] = math.log(man) + exp * math.log(2.0) if man > 0 else -math.inf  # log of the proven upper end
    return out


def privacy_profile(epsilon: ArrayLike, alpha: float, gamma: float, sensitivity: float = 1.0) -> Float:
    """Exact 1-D privacy profile delta^(1)(eps) of FH(alpha, gamma^2) noise (Theorem 3, eq 13).

    The mechanism is (eps, delta)-DP iff delta >= privacy_profile(eps).  Vectorised with
    NumPy broadcasting over ``epsilon`` (>= 0), ``alpha`` (>= 0), ``gamma`` (> 0) and
    ``sensitivity`` (> 0), so a whole (alpha, gamma) grid is one call.
    alpha = 0 gives the exact Gaussian profile (Balle & Wang 2018).

    Formula: delta^(1)(eps) = int [g(t) - e^eps g(t + Delta)]_+ dt = G_bar(t1) - e^eps G_bar(t2),
    t1,2 = zeta~_Delta^{-1}(eps) -+ Delta/2 (eq 16), in the closed form of eq 13 (five
    cases, Table I); computed as exp(:func:`log_privacy_profile`).  Within 1e-6 (relative) of the kink
    eps = alpha Delta/gamma^2 the value comes from the ball-arithmetic profile instead.

    Examples
    --------
    >>> float(privacy_profile(0.0, alpha=1.0, gamma=1.0, sensitivity=1e-300)) < 1e-290
    True

    Decreasing in eps; at eps = 0 it is the total variation distance
    P(|T| <= Delta/2) between T and T + Delta:

    >>> import math
    >>> from fhsym import FlippedHuber
    >>> [f"{d:.6g}" for d in privacy_profile([0.0, 0.5, 1.0, 2.0], alpha=1.0, gamma=2.0)]
    ['0.208911', '0.0515608', '0.00671506', '9.28086e-06']
    >>> fh = FlippedHuber(alpha=1.0, gamma=2.0)
    >>> math.isclose(float(privacy_profile(0.0, 1.0, 2.0)), float(fh.cdf(0.5) - fh.cdf(-0.5)), rel_tol=1e-13)
    True

    Broadcasting over the parameters, e.g. a column of alpha against a row of gamma:

    >>> privacy_profile(1.0, alpha=[[0.5], [1.0]], gamma=[2.0, 3.0]).shape
    (2, 2)
    >>> bool(privacy_profile(1.0, [[1.0]], [2.0])[0, 0] == privacy_profile(1.0, 1.0, 2.0))
    True

    alpha = 0 is the Gaussian mechanism (the profile of Balle & Wang 2018):

    >>> from scipy.stats import norm
    >>> s, D, e = 1.5, 1.0, 0.5
    >>> round(float(privacy_profile(e, alpha=0.0, gamma=s, sensitivity=D)), 12)
    0.108744376889
    >>> round(float(norm.cdf(D / (2 * s) - e * s / D) - math.exp(e) * norm.cdf(-D / (2 * s) - e * s / D)), 12)
    0.108744376889
    """
    return _out(np.exp(np.asarray(log_privacy_profile(epsilon, alpha, gamma, sensitivity))))


def epsilon_for_delta(delta: ArrayLike, alpha: float, gamma: float, sensitivity: float = 1.0) -> Float:
    """Smallest eps with delta^(1)(eps) <= delta, certified (never under-reported).

    The returned eps satisfies privacy_profile(eps) * (1 + PROFILE_RTOL) <= delta; it
    exceeds the exact root by at most ~1e-12 relative.  Vectorised in ``delta`` in (0, 1).

    Formula: the inverse in eps of the privacy profile (Theorem 3, eq 13): the smallest double
    eps with log delta(eps) <= log(delta) - log1p(PROFILE_RTOL) (:func:`log_profile_of`), by
    bisection on the bit patterns of the doubles (:func:`epsilon_for_delta_of`); 0 when the
    total variation delta^(1)(0) is already <= delta/(1 + PROFILE_RTOL).

    Examples
    --------
    >>> eps = epsilon_for_delta([1e-3, 1e-6, 1e-9], alpha=1.0, gamma=2.0)
    >>> np.round(eps, 8)                                     # decreasing in delta
    array([1.34947982, 2.25226642, 2.90829582])
    >>> bool(privacy_profile(eps[1], 1.0, 2.0) <= 1e-6 < privacy_profile(eps[1] * (1 - 1e-9), 1.0, 2.0))
    True
    >>> float(epsilon_for_delta(0.5, alpha=1.0, gamma=2.0))   # delta above the total variation
    0.0
    """
    b, D = scalar_units(alpha, gamma, sensitivity)
    deltas = V.check_array(delta, V.DELTA)
    lw = float(KP.log_kappa_std(np.float64(b)))
    return _out(epsilon_for_delta_of(deltas, float(alpha), float(gamma), float(sensitivity), b, lw))


def epsilon_for_delta_of(deltas: np.ndarray, alpha: Real, gamma: Real, sensitivity: float, b: Real,
                         lw: Real) -> np.ndarray:
    """The smallest double eps with log delta(eps) <= log(delta) - log1p(PROFILE_RTOL), log delta the public profile
    (:func:`log_profile_of`: eq 13, re-evaluated in ball arithmetic next to the kink eps = alpha Delta/gamma^2),
    elementwise over validated (deltas, alpha, gamma, b, lw) broadcast together (the constants of a valid law, scalar
    or array parameters: the same doubles), by one bisection on the bit patterns of the doubles for all elements at
    once (:func:`fhsym._core.search.smallest_true_many`: each element gets the double
    :func:`fhsym._core.search.smallest_true` gives it alone).  ``OverflowError`` if no finite eps reaches some delta."""
    arrays = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (deltas, alpha, gamma, b, lw)))
    dt, aa, gg, bb, ll = (a.reshape(-1) for a in arrays)
    target = np.log(dt) - math.log1p(PROFILE_RTOL)

    def ok(e: np.ndarray, i: np.ndarray) -> np.ndarray:
        out: np.ndarray = log_profile_of(e, aa[i], gg[i], sensitivity, bb[i], ll[i]) <= target[i]
        return out

    try:
        eps = search.smallest_true_many(ok, dt.size, 1.0, name="epsilon", allow_zero=True)
    except search.CalibrationError:
        raise OverflowError("no finite eps reaches this delta") from None
    return eps.reshape(arrays[0].shape)


# ----------------------------------------------------------------------------
# privacy loss
# ----------------------------------------------------------------------------
def loss_std(s: np.ndarray, D: np.ndarray, b: float) -> np.ndarray:
    """zeta_D(s) = rho_b(s + D) - rho_b(s) for D >= 0, by regime (each a generated kernel).

    The regime of u = s + D is decided from |s + D| - b computed from the exact sum (the
    same quantity the mixed-regime kernels use), so the loss is accurate to a few ulp
    however close s or u is to +-b (``fhsym._generated.privacy_pieces.loss_std``).
    """
    s, D = np.broadcast_arrays(np.asarray(s, dtype=float), np.asarray(D, dtype=float))
    out = PP.loss_std(b, D, s)
    out[D == 0] = 0.0  # zeta_0 = 0, also at s = +-inf where the kernels give 0 * inf
    return out


def privacy_loss(t: ArrayLike, d: ArrayLike, alpha: float, gamma: float) -> Float:
    """Privacy loss zeta_d(t) = psi(t + d) - psi(t) = log g(t)/g(t + d) (Sec II-C1).

    Non-decreasing in t for d > 0 (log-concavity); zeta_{-d}(t) = zeta_d(-t).
    Piecewise: linear with slope d/gamma^2 where t and t + d are in the Gaussian tails,
    flat (+-alpha d/gamma^2) where both are on one side of the Laplace centre.

    Formula: zeta_d(t) = (rho_alpha(t + d) - rho_alpha(t))/gamma^2 with rho_alpha of eq 7
    (log kappa cancels), evaluated per regime without cancellation.  Its centred form
    (:func:`centered_privacy_loss`) and that form's partial inverse (eq 15) give the
    crossing points of Theorem 3's condition (eq 14, 16).  Vectorised (broadcast) in ``t``
    and ``d``; ``alpha``, ``gamma`` scalars.

    Examples
    --------
    >>> t = np.array([-3.0, -0.5, 0.2, 3.0])
    >>> privacy_loss(t, 1.0, alpha=1.0, gamma=2.0)       # tails: slope d/gamma^2 = 1/4
    array([-0.625,  0.   ,  0.255,  0.875])
    >>> privacy_loss(t, 1.0, alpha=0.0, gamma=2.0)       # Gaussian: (2 t d + d^2)/(2 gamma^2)
    array([-0.625,  0.   ,  0.175,  0.875])
    >>> float(privacy_loss(0.3, -1.0, 1.0, 2.0)) == float(privacy_loss(-0.3, 1.0, 1.0, 2.0))
    True
    """
    _, g, b = _shape(alpha, gamma)
    ta = V.check_array(t, _T)
    da = V.check_array(d, _D_ARG)
    s, D = np.broadcast_arrays(ta / g, da / g)
    neg = D < 0
    s = np.where(neg, -s, s)  # zeta_{-d}(t) = zeta_d(-t)
    return _out(loss_std(s, np.abs(D), b))


def centered_privacy_loss(t: ArrayLike, d: ArrayLike, alpha: float, gamma: float) -> Float:
    """Centred privacy loss zeta~_d(t) = psi(t + d/2) - psi(t - d/2) = zeta_d(t - d/2) (Sec II-C1).

    Odd in t, non-decreasing in t for d > 0, with a ridge at t = d/2 and a groove at
    -d/2 (Appendix C); bounded above by t d/gamma^2 + (alpha^2 - [alpha - |d|]_+^2)/(2 gamma^2).

    Formula: zeta~_d(t) = (rho_alpha(t + d/2) - rho_alpha(t - d/2))/gamma^2 (eq 7), evaluated
    as :func:`privacy_loss` at t - d/2.  eq 15 is its partial inverse zeta~_Delta^{-1},
    which gives the crossing points t1,2 = zeta~_Delta^{-1}(eps) -+ Delta/2 of Theorem 3's
    condition (eq 14, 16).  Vectorised (broadcast) in ``t`` and ``d``.

    Examples
    --------
    >>> t = np.array([-3.0, -0.5, 0.2, 3.0])
    >>> z = centered_privacy_loss(t, 1.0, alpha=1.0, gamma=2.0)
    >>> z
    array([-0.75, -0.25,  0.1 ,  0.75])
    >>> bool(np.allclose(centered_privacy_loss(-t, 1.0, 1.0, 2.0), -z, rtol=1e-14, atol=0))   # odd in t
    True
    >>> bool(np.all(z <= t * 1.0 / 2.0**2 + (1.0**2 - max(1.0 - 1.0, 0.0) ** 2) / (2 * 2.0**2)))  # upper bound
    True
    """
    ta = V.check_array(t, _T)
    da = V.check_array(d, _D_ARG)
    return privacy_loss(ta - da / 2.0, da, alpha, gamma)


@functools.lru_cache(maxsize=1024)
def shape_constants(b: float) -> Tuple[float, float]:
    """(log(kappa/gamma), P(T > alpha)) of the flipped Huber member of shape b = alpha/gamma: the generated kernels
    ``log_kappa_std`` and ``tail_mass_of_b`` at the float b (memoised: a search builds the same shape at many scales)."""
    b_arr = np.float64(b)
    lw = float(KP.log_kappa_std(b_arr))
    return lw, float(KP.tail_mass_of_b(b_arr, lw))
