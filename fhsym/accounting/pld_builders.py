"""Certified PLDs from exact privacy profiles, and the builders for fhsym's mechanisms.

:func:`from_privacy_profile` discretises an exact profile delta(eps) on the lattice step*Z into a
:class:`~fhsym.accounting.pld_core.PrivacyLossDistribution` bracket (the construction is described in
:mod:`fhsym.accounting.pld_core`); :func:`flipped_huber_pld`, :func:`gaussian_pld` and :func:`laplace_pld`
apply it to the exact 1-D profiles (Theorem 3 for FH, Balle & Wang 2018 for the Gaussian).

>>> pld = gaussian_pld(sigma=1.0, sensitivity=1.0, step=1e-3)
>>> lo, up = pld.delta_bounds(1.0)
>>> bool(lo <= up)
True
"""

from __future__ import annotations

import math
from typing import Callable, List, Optional, Tuple

import numpy as np

from .._core import domains as V
from .pld_core import DEFAULT_TAIL_MASS, MAX_GRID, U, DiscreteLoss, PrivacyLossDistribution

__all__ = ["from_privacy_profile", "flipped_huber_pld", "gaussian_pld", "laplace_pld"]

# ---------------------------------------------------------------------------
# construction from an exact profile
# ---------------------------------------------------------------------------


_SCAN = 2.0 ** (np.arange(-40, 201) / 4.0)  # the geometric scan of _first_below, in units of the scale
_WINDOW = 4  # the one-call form reads the scan at i0 - 4 .. i0 + 4 and refines the intervals ending at i0 - 1 .. i0 + 1
_last_index = [120]  # the scan index of the previous answer: a prediction only (any value gives the same answer)


def _first_below(profile: Callable[[np.ndarray], np.ndarray], tau: float, scale: float) -> float:
    """Smallest eps (to ~0.3% relative) with profile(eps) <= tau (:func:`_top_and_nodes` without the nodes)."""
    return _top_and_nodes(profile, tau, scale, None)[0]


def _top_and_nodes(profile: Callable[[np.ndarray], np.ndarray], tau: float, scale: float, step: Optional[float]
                   ) -> Tuple[float, Optional[np.ndarray]]:
    """Smallest eps (to ~0.3% relative) with profile(eps) <= tau: a geometric scan, then a linear one.

    The scan is x_k = scale 2^(k/4), k = -40..200; i the first k with profile(x_k) <= tau; the answer the first point
    of linspace(x_{i-1}, x_i, 65)[1:] where profile <= tau (x_0 if i = 0).  One call of ``profile`` in the usual case:
    on the scan points i0 - 4 .. i0 + 4 around the previous answer's i0 and the linear points of the intervals ending
    at i0 - 1 .. i0 + 1 together; when the first scan point there is above tau (the profile is non-increasing: so
    are all before it) and i is among those three, the answer is read from that call (the same points, the same
    values).  Otherwise the whole scan, then the linear points (two calls).

    With a lattice ``step`` h, the same call also evaluates the profile at j h, j = 0..n', n' the node count
    :func:`from_privacy_profile` takes for the top x_{i0}: when the answer is read from the call, its nodes j h,
    j = 0..n, are the first n + 1 of those (the same points, the same values; a second call for j > n' when the answer
    lies above x_{i0}), returned with it; otherwise None."""
    x = max(scale, 1e-12) * _SCAN
    n = x.size
    i0 = min(max(_last_index[0], _WINDOW + 1), n - 1 - _WINDOW)
    lo_k = i0 - _WINDOW
    ks = np.arange(lo_k, i0 + _WINDOW + 1)
    grids = [np.linspace(x[i - 1], x[i], 65)[1:] for i in range(i0 - 1, i0 + 2)]
    pts: List[np.ndarray] = [x[ks]] + grids
    nodes = None
    if step is not None:
        top = _node_count(float(x[i0]), step)  # enough when i <= i0 (the usual case: i = i0); the rest asked after
        if 2 * top + 1 <= min(MAX_GRID, 1 << 18):
            nodes = np.arange(0, top + 1) * step
            pts.append(nodes)
    vals = np.asarray(profile(np.concatenate(pts)), dtype=float)
    below = np.nonzero(vals[:ks.size] <= tau)[0]
    if below.size and below[0] > 0 and i0 - 1 <= lo_k + int(below[0]) <= i0 + 1:
        i = lo_k + int(below[0])
        _last_index[0] = i
        g = i - (i0 - 1)
        part = vals[ks.size + 64 * g: ks.size + 64 * (g + 1)]
        eps_max = float(grids[g][int(np.argmax(part <= tau))])
        if nodes is None or step is None:
            return eps_max, None
        need = _node_count(eps_max, step)
        d = vals[ks.size + 192: ks.size + 192 + need + 1]
        if need > top:  # the nodes above x_{i0}: j h for j = top + 1..need, the same points as np.arange(0, need + 1) h
            d = np.concatenate([d, np.asarray(profile(np.arange(top + 1, need + 1) * step), dtype=float)])
        return eps_max, d
    below = np.nonzero(np.asarray(profile(x), dtype=float) <= tau)[0]
    if below.size == 0:
        raise ValueError("privacy profile does not fall below the tail mass")
    i = int(below[0])
    _last_index[0] = i
    if i == 0:
        return float(x[0]), None
    y = np.linspace(x[i - 1], x[i], 65)[1:]
    return float(y[int(np.argmax(np.asarray(profile(y), dtype=float) <= tau))]), None


def _node_count(eps_max: float, h: float) -> int:
    """The index n of the top node of :func:`from_privacy_profile`'s lattice for the top ``eps_max``."""
    return max(int(math.ceil(eps_max / h * (1.0 - 1e-12))), 2)


def _hull_values(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Lower convex hull of the points (u_i, v_i) (u increasing), evaluated at every u_i (monotone chain)."""
    hull: List[int] = []
    for i in range(v.size):
        while len(hull) >= 2:
            i1, i2 = hull[-2], hull[-1]
            if (v[i2] - v[i1]) * (u[i] - u[i1]) >= (v[i] - v[i1]) * (u[i2] - u[i1]):
                hull.pop()
            else:
                break
        hull.append(i)
    out: np.ndarray = np.minimum(np.interp(u, u[hull], v[hull]), v)
    return out


def _convexify(v: np.ndarray, h: float, rtol: float = 1e-12, max_rounds: int = 20) -> np.ndarray:
    """Lower the nodes (u_i, v_i), u_i = e^{i h}, towards their lower convex hull.

    Only lowers values, each time onto a chord of other nodes (or the lower hull of a window of
    nodes).  Either keeps a piecewise-linear curve above a convex function above it (chords of a
    convex function lie above it) and keeps one below such a function below it, so this serves
    both bounds.  It is a *tightening* step only: violations below ``rtol`` (relative) are left, and
    the callers make the resulting survival function monotone afterwards, which is what the
    validity of the bounds rests on.  Vectorised passes move each node lying above the chord of its
    neighbours onto it (the chord weights are constants on a geometric grid, so nothing overflows
    for large eps); clusters that the passes do not settle (next to kinks) are replaced by the hull
    of a window around them.
    """
    v = v.copy()
    if v.size < 3:
        return v
    r = math.exp(h)
    w_l, w_r = r / (1.0 + r), 1.0 / (1.0 + r)  # weights of v[i-1], v[i+1] in the chord at node i
    for _ in range(max_rounds):
        for _ in range(8):
            chord = w_l * v[:-2] + w_r * v[2:]
            bad = v[1:-1] > chord + rtol * (np.abs(v[:-2]) + np.abs(v[2:]))
            if not bad.any():
                return v
            idx = np.nonzero(bad)[0] + 1
            v[idx] = np.minimum(v[idx], chord[bad])
        breaks = np.nonzero(np.diff(idx) > 64)[0]
        starts = np.concatenate([[idx[0]], idx[breaks + 1]])
        ends = np.concatenate([idx[breaks], [idx[-1]]])
        for a, b in zip(starts, ends):
            lo, hi = max(int(a) - 64, 0), min(int(b) + 65, v.size)
            if (hi - lo) * h > 600.0:  # positions would overflow; this is only a tightening step
                continue
            u_loc = np.expm1(np.arange(hi - lo) * h)  # (u - u_lo)/u_lo: convexity is affine invariant
            v[lo:hi] = _hull_values(u_loc, v[lo:hi])
    return v


def _mirror(S: np.ndarray, h: float, upper: bool) -> DiscreteLoss:
    """A symmetric discrete loss from its survival on the non-negative grid.

    ``S[j]`` = P(L > j h), j = 0..n (S[n] = mass at +inf).  Positive atoms p_j = S[j-1] - S[j]
    (j = 1..n); by the symmetry of the pair the atom at -j h is e^{-j h} p_j; the atom at 0
    takes the remaining mass, p_0 = 1 - p_inf - sum_j p_j (1 + e^{-j h}).  A valid pair needs
    p_0 >= 0 (convexity of the curve at u = 1).  If p_0 < 0, mass is moved, lowest atoms first,
    to +inf (upper: the curve on u >= 1 only increases; moving m from j h raises p_0 by
    m e^{-j h}) or to 0 (lower: the curve only decreases; it raises p_0 by m (1 + e^{-j h})).
    """
    n = S.size - 1
    p = np.maximum(S[:-1] - S[1:], 0.0)  # atoms at h..nh
    inf = float(S[-1])
    w = np.exp(-h * np.arange(1, n + 1))
    p0 = 1.0 - (inf + float(np.sum(p)) + float(np.sum(p * w)))  # pairwise sums: error <= (log2 n + 3) u, in the slack
    if p0 < 0.0:
        need = -p0 * (1.0 + 1e-9) + 1e-300
        gain = p * (w if upper else 1.0 + w)  # p_0 gained by moving all of atom j
        cg = np.cumsum(gain)
        k = int(np.searchsorted(cg, need))  # atoms 0..k-1 moved entirely, atom k partly
        if k >= n:
            # everything moved (only when the deficit is rounding of a degenerate, ~non-private pair):
            # upper: all positive mass to +inf (p_0 = 1 - P(L > 0) >= 0); lower: all of it to 0
            if upper:
                inf += float(np.sum(p))
            p[:] = 0.0
        else:
            moved = float(np.sum(p[:k]))
            part = min((need - (cg[k - 1] if k > 0 else 0.0)) / (w[k] if upper else 1.0 + w[k]), float(p[k]))
            p[:k] = 0.0
            p[k] -= part
            if upper:
                inf += moved + part
        p0 = max(1.0 - (inf + float(np.sum(p)) + float(np.sum(p * w))), 0.0)
    pmf = np.concatenate([(p * w)[::-1], [p0], p])
    return DiscreteLoss(-n, pmf, inf, (16.0 + 2.0 * (math.log2(max(n, 2)) + 3.0)) * U)


def from_privacy_profile(
    profile: Callable[[np.ndarray], np.ndarray],
    step: float,
    *,
    profile_rtol: float,
    eps_max: Optional[float] = None,
    tail_mass: float = DEFAULT_TAIL_MASS,
    scale: float = 1.0,
    label: str = "",
    upper_only: bool = False,
) -> PrivacyLossDistribution:
    """The certified PLD bracket of a symmetric mechanism from its exact vectorised profile.

    Parameters
    ----------
    profile:
        ``profile(eps)`` for an array ``eps >= 0``: the exact delta(eps) of the pair, with
        relative error at most ``profile_rtol``.  The pair must be symmetric
        (delta_{P||Q} = delta_{Q||P}: true for symmetric additive noise).
    step:
        The loss lattice spacing h.
    eps_max:
        The top of the grid; default: the smallest eps with delta(eps) <= ``tail_mass``
        (the upper bound puts the mass above it at +inf).
    scale:
        A typical loss scale (e.g. Delta/gamma), used to start the search for ``eps_max``.

    Method.  Both bounds are built on u = e^eps >= 1 and mirrored (:func:`_mirror`): for a
    symmetric pair the loss pmf satisfies p(-l) = e^{-l} p(l), so the curve on u >= 1
    determines the pair, and a curve above (below) H on u >= 1 gives one above (below) H
    everywhere (the curve on u <= 1 is the perspective u H(1/u) + 1 - u, monotone in H).
    The hockey-stick curve H(u) = delta(log u) is convex and non-increasing.

    * Upper: nodes w_j = delta_j (1 + r) (over-estimates), made non-increasing, replaced by
      their lower convex hull: a convex curve >= the chord interpolation of delta (each hull
      segment is a chord of nodes >= delta, and chords of the convex H lie above H), flat
      beyond eps_n at w_n (the mass at +inf).  Its pair dominates the true pair (Blackwell):
      the connect-the-dots pessimistic discretisation, up to the O(r) over-estimate.  Its
      survival S_j = w_j + (w_j - w_{j+1})/(e^h - 1) is rounded up (more mass higher).
    * Lower: nodes v_j = delta_j (1 - r) - max(g_{j-1}, g_j), where on [u_j, u_{j+1}] the chord
      of H exceeds H by at most g_j = du_j a_j b_j/(a_j + b_j) (a_j, b_j: the changes of chord
      slope at the two ends, over-estimated by their rounding error -- one-sided derivatives
      of a convex function are bracketed by the neighbouring chord slopes; H' <= 0 closes the
      top).  Made convex by lowering only, with v_n = 0: a convex curve below H, the profile
      of a garbling of the true pair.  Survival rounded down.

    Both are O(h^2) from the truth (plus O(r) from the profile's error); an atom of the true
    loss that is off the grid costs the lower bound O(h) times its mass.
    """
    h = V.check_scalar(step, V.Domain("step", 0.0, math.inf))
    r = float(profile_rtol)
    eps_given = eps_max is not None
    nodes = None
    if eps_max is None:
        eps_max, nodes = _top_and_nodes(profile, tail_mass, scale, h)  # the nodes too, in the usual case
    n = _node_count(eps_max, h)
    if 2 * n + 1 > MAX_GRID:
        raise ValueError(
            f"step must be larger for this mechanism: the loss grid would have {2 * n + 1} points "
            f"(loss range +-{eps_max:.3g}, step {h:g}; at most {MAX_GRID})"
        )
    j = np.arange(0, n + 1)
    if nodes is None or nodes.size != n + 1:
        nodes = np.asarray(profile(j * h), dtype=float)
    d = np.clip(nodes, 0.0, 1.0)  # delta(j h)
    if d[-1] > tail_mass and eps_given:  # a top given too low: move it to where delta <= tail_mass (tightness only)
        far = float(np.clip(np.asarray(profile(np.array([2.0 * eps_max + h])), dtype=float), 0.0, 1.0)[0])
        if far < d[-1] * (1.0 - 4.0 * r):  # still falling beyond the top (else: mass at +inf, e.g. disjoint supports)
            return from_privacy_profile(profile, step, profile_rtol=profile_rtol, tail_mass=tail_mass, scale=scale,
                                        label=label, upper_only=upper_only)
    if not np.all(np.isfinite(d)):
        raise FloatingPointError("the privacy profile returned non-finite values")
    # the true profile is non-increasing, so the running minimum of values accurate to r is accurate to r
    d = np.minimum.accumulate(d)
    em1 = math.expm1(h)
    eh = math.exp(h)
    eta = (r + 4 * U) * d / (1.0 - r)
    # ---------------- upper
    w = np.maximum.accumulate((d + eta)[::-1])[::-1]
    w = _convexify(w, h)
    S = np.empty(n + 1)
    S[:-1] = w[:-1] + (w[:-1] - w[1:]) / em1
    S[-1] = w[-1]
    S = S + 4 * U * (w + np.append(w[:-1] + w[1:], 0.0) / em1)
    S = np.minimum(np.maximum.accumulate(S[::-1])[::-1], 1.0)
    upper = _mirror(S, h, True)
    if upper_only:
        return PrivacyLossDistribution(h, upper, None, label, tail_mass)
    # ---------------- lower
    # all slopes in local units: st_j = (chord slope on [u_j, u_{j+1}]) * u_j = (delta_{j+1} - delta_j)/(e^h - 1),
    # so that nothing overflows for large eps; the chord-slope changes at u_j are a_j = at_j/u_j etc.
    st = (d[1:] - d[:-1]) / em1  # <= 0
    est = (eta[:-1] + eta[1:] + 4 * U * (d[:-1] + d[1:])) / em1 + 4 * U * np.abs(st)
    # chord slope on [e^{-h}, 1] by the symmetry delta(-h) = 1 - e^{-h} + e^{-h} delta(h), in the units of u_{-1} = e^{-h}
    omh = -math.expm1(-h)
    s_m1 = (d[0] - d[1]) / omh - (1.0 - d[1])
    es_m1 = (eta[0] + eta[1]) / omh + eta[1] + 8 * U * (1.0 + abs(s_m1) + (d[0] + d[1]) / omh)
    st_prev = np.concatenate([[s_m1 / eh], st[:-1]])
    est_prev = np.concatenate([[es_m1 / eh], est[:-1]])
    st_next = np.concatenate([st[1:], [0.0]])  # H' <= 0 beyond the grid
    est_next = np.concatenate([est[1:], [0.0]])
    a = np.maximum(st - eh * st_prev + est + eh * est_prev, 0.0)  # a_j u_j
    bb = np.maximum(st_next / eh - st + est + est_next / eh, 0.0)  # b_j u_j
    with np.errstate(invalid="ignore", divide="ignore"):
        g = np.where(a + bb > 0, em1 * a * bb / (a + bb), 0.0) * (1.0 + 16 * U)  # du_j a_j b_j/(a_j + b_j)
    c = np.maximum(np.concatenate([[0.0], g]), np.concatenate([g, [0.0]]))
    v = d - eta - c - 8 * U * d
    # the curve ends at 0 beyond u_n: either the chord argument covers the last segment
    # (delta_n - err - g_{n-1} >= 0), or the segment must start at most at delta_n (H >= delta_n there)
    if d[-1] - eta[-1] - g[-1] < 0.0:
        v[-2] = min(v[-2], d[-1] - eta[-1])
    v[-1] = 0.0
    if np.any(v < 0.0):
        # only where delta is below its own error bound: zero the curve from there (0 <= H; the
        # segment into the first zero node starts at a value below delta of that node)
        k = int(np.argmax(v < 0.0))
        if k > 0:
            v[k - 1] = min(v[k - 1], max(d[k] - eta[k], 0.0))
        v[k:] = 0.0
    # the hull edge into the last node (u_n, 0): the smallest slope from it to any other node
    # (computed directly; lowering the nodes in between onto it is part of taking the hull)
    span = -np.expm1((j[:-1] - n) * h)  # (u_n - u_j)/u_n: the common factor does not move the minimiser
    ratio = v[:-1] / span
    jstar = int(np.argmin(ratio))
    v[jstar + 1 : -1] = np.minimum(v[jstar + 1 : -1], max(ratio[jstar], 0.0) * span[jstar + 1 :])
    v = np.minimum.accumulate(_convexify(v, h))  # non-increasing (lowering only): then S >= v >= 0
    S = np.empty(n + 1)
    S[:-1] = v[:-1] + (v[:-1] - v[1:]) / em1
    S[-1] = 0.0
    S = S - 4 * U * (v + np.append(v[:-1] + v[1:], 0.0) / em1)
    S = np.minimum(np.minimum.accumulate(np.maximum(S, 0.0)), 1.0)
    lower = _mirror(S, h, False)
    return PrivacyLossDistribution(h, upper, lower, label, tail_mass)


# ---------------------------------------------------------------------------
# builders for the mechanisms of fhsym
# ---------------------------------------------------------------------------


def flipped_huber_pld(
    alpha: float, gamma: float, sensitivity: float = 1.0, step: float = 1e-4, tail_mass: float = DEFAULT_TAIL_MASS,
    profile_rtol: Optional[float] = None, upper_only: bool = False, certified: bool = True,
) -> PrivacyLossDistribution:
    """Certified PLD of the 1-D flipped Huber mechanism FH(alpha, gamma^2) with sensitivity Delta.

    Uses the exact profile of Theorem 3 (:func:`fhsym.privacy_profile`), whose certified
    relative error is :data:`fhsym.PROFILE_RTOL` (the default ``profile_rtol``).  A lattice point
    within 1e-6 (relative) of the kink eps = alpha Delta/gamma^2 -- every lattice aligned with the
    loss atoms has one -- is evaluated by mpmath at the exact binary inputs (~0.1-0.5 s).
    ``certified=False`` uses the float kernels there too (error up to ~1e-8 relative at that
    point): for searches, whose result is certified afterwards; the bound is then not certified.
    """
    from ..privacy.profile import PROFILE_RTOL, log_profile_std, scalar_units, log_privacy_profile
    from .._generated.flipped_huber_pieces import log_kappa_std

    a = V.check_scalar(alpha, V.ALPHA)
    g = V.check_scalar(gamma, V.GAMMA)
    Dl = V.check_scalar(sensitivity, V.SENSITIVITY)
    b, D = scalar_units(a, g, Dl)
    lw = float(log_kappa_std(np.float64(b)))

    def profile(eps: np.ndarray) -> np.ndarray:  # the public profile: exact near the kink eps = alpha Delta/gamma^2
        e = np.asarray(eps, dtype=float)
        out: np.ndarray
        with np.errstate(under="ignore"):
            if not certified:
                out = np.exp(log_profile_std(e, b, D, lw))
                return out
            try:
                out = np.exp(log_privacy_profile(e, a, g, Dl))
                return out
            except ArithmeticError:  # 60 and 120 digits disagree at the kink (a tiny delta): raise the precision there
                return _kink_with_more_digits(e, a, g, Dl, b, D, np.exp(log_profile_std(e, b, D, lw)))

    r = PROFILE_RTOL if profile_rtol is None else float(profile_rtol)
    # the top of the grid: delta < ~1e-18 beyond (the Gaussian tail of the noise past max(b, 10)); rechecked there
    top = D * (b + 10.0) + 0.5 * D * D if tail_mass >= 1e-18 else None
    return from_privacy_profile(profile, step, profile_rtol=r, tail_mass=tail_mass, scale=max(D, D * D), eps_max=top,
                                label=f"FH(alpha={a:.6g}, gamma={g:.6g}), Delta={Dl:.6g}" + ("" if certified else " [search]"),
                                upper_only=upper_only)


def _kink_with_more_digits(e: np.ndarray, a: float, g: float, Dl: float, b: float, D: float, out: np.ndarray) -> np.ndarray:
    """The float-kernel values ``out``, with every point near the kink replaced by the mpmath bound at 150 (300) digits."""
    from .._core import numerics as _nx
    from ..privacy.certify import certified_profile
    from ..privacy.profile import KINK_WINDOW

    near = np.abs(_nx.sub_prod(e, b, D)) <= 2.0 * KINK_WINDOW * max(1.0, b * D)
    for i in np.nonzero(np.atleast_1d(near))[0]:
        for dps in (150, 300):
            try:
                v = certified_profile(float(np.atleast_1d(e)[i]), a, g, Dl, dps=dps)
                break
            except ArithmeticError:
                if dps == 300:
                    raise
        np.atleast_1d(out)[i] = float(v) * (1.0 + 2 * U)
    return out


def gaussian_pld(sigma: float, sensitivity: float = 1.0, step: float = 1e-4, tail_mass: float = DEFAULT_TAIL_MASS, upper_only: bool = False) -> PrivacyLossDistribution:
    """Certified PLD of the Gaussian mechanism N(0, sigma^2).

    The exact Gaussian profile Q(eps/s - s/2) - e^eps Q(eps/s + s/2), s = Delta/sigma
    (Balle & Wang 2018), evaluated by the flipped Huber kernels at alpha = 0 (25x faster
    than :func:`fhsym.noise.gaussian.gaussian_profile`, relative error <= PROFILE_RTOL).
    """
    s = V.check_scalar(sigma, V.Domain("sigma", 0.0, math.inf))
    out = flipped_huber_pld(0.0, s, sensitivity, step, tail_mass, upper_only=upper_only)
    out.label = f"Gaussian(sigma={s:.6g}), Delta={float(sensitivity):.6g}"
    return out


def laplace_pld(beta: float, sensitivity: float = 1.0, step: float = 1e-4, tail_mass: float = DEFAULT_TAIL_MASS, upper_only: bool = False) -> PrivacyLossDistribution:
    """Certified PLD of the Laplace mechanism L(0, beta) (loss bounded by Delta/beta)."""
    from ..noise.laplace import Laplace, laplace_profile

    bt = V.check_scalar(beta, V.Domain("beta", 0.0, math.inf))
    Dl = V.check_scalar(sensitivity, V.SENSITIVITY)

    def profile(eps: np.ndarray) -> np.ndarray:
        return laplace_profile(np.asarray(eps, dtype=float), Dl, bt)

    return from_privacy_profile(profile, step, profile_rtol=Laplace.profile_rtol, eps_max=Dl / bt, tail_mass=tail_mass,
                                label=f"Laplace(beta={bt:.6g}), Delta={Dl:.6g}", upper_only=upper_only)
