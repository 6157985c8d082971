"""Why the truncated staircase misses the recorded optimum at 4 points, and whether a coarser grid can certify eps = 10.

A study (issue 31), not a certificate: nothing here is used by fhsym.  Two parts.

``python scripts/optimum_gap_study.py lp-shape EPS`` (delta = 1e-5): the recorded LP noise at (EPS, 1e-5)
(``fhsym/optimum/data``) against the same noise with every bin set to its staircase level ``n_0 e^(-EPS l)``
(``l`` the nearest integer level; the one partial bin at the cut kept): exact variance and proven sup over the shifts
of both, by ``fhsym.noise.PiecewiseUniform``.  The flattened noise is *above* the truncated staircase: what the LP
gains is its small periodic modulation inside the steps, not its support or steps.

``python scripts/optimum_gap_study.py bump EPS [--optimise]``: the truncated staircase times a periodic bump,
density ``b^l(|x|) (1 + eta [dist(|x|, Z) < a])`` on ``|x| <= B`` (``b = e^-EPS``, ``l`` the staircase level,
first step ``W``), optionally with a shelf ``b^(l(B)+1)`` on ``B < |x| <= B + s``.  The bump sits at the integers,
so at the shift Delta = 1 it meets a bump again (no cost where the staircase's cut window is tight) and spends the
staircase's slack at shifts ``d < 1``.  (W, a, eta, s) are the float optimum's (Nelder-Mead on floats, rerun with
``--optimise``); B is fitted in floats to ``sup_d delta(EPS; d) = 1e-5`` and raised by 1e-10; then the variance and
``sup_{0 < d <= 1} int [g(t) - e^EPS g(t + d)]_+ dt`` are recomputed in 50-digit mpmath from the pieces, no fhsym code
(the integral is piecewise linear in d between the differences of breakpoints, so its sup is the max over those
and d = 1; a 500-shift scan is printed beside it), and once more in 256-bit arb balls at the exact binary parameters
(:func:`ball_check`).  Why piecewise linear: for d in an open interval that holds no difference ``+-x_i +- x_j`` of
breakpoints, the breakpoints of ``g(t)`` and ``g(t + d)`` keep their order, so every cell between them keeps its
integrand value and its length is affine in d; the integral is continuous in d (translation is continuous in L1).

``python scripts/optimum_gap_study.py refined-lp EPS DELTA m UNITS s``: the lower end's LP (``fhsym.optimum.lp``) on
``m`` bins per unit, on ``m s``, and a relaxation with sub-bin positions (a fine dithered quantiser on ``1/(m s)``,
then the coarse rows on ``1/m``: valid, lower end = value - (1/(m s))^2/4); HiGHS floats, no dual certificate.

``python scripts/optimum_gap_study.py aggregated-lp EPS DELTA m UNITS RHO:C ...``: a non-uniform grid for the lower end
that stays valid: the uniform LP on ``m`` bins (Lemma 2 as it is, loss ``1/(4 m^2)``) relaxed by merging the bins
farther than ``RHO`` from every integer into blocks of ``C`` (a block's mass costs its inner edge's ``x^2``; a row whose
positive bins form a whole cell is summed over it, its subtracted bins bounded above by their cells' masses (times
their multiplicity); other rows dropped).  ``0:1`` is the uniform LP itself (checked: the same matrix and value).

``python scripts/optimum_gap_study.py transport [EPS DELTA]`` (default 4.5, 1e-10): the transport dual's ``y``
(``fhsym.optimum.transport``) on 64-1024 bins per unit with the columns split as before issue 31's (4.5, 1e-10) fix
(in proportion to weights iterated 40 times, rebuilt here) and by Hall's prefix condition (the shipped ``_plan``),
the shipped dual's proven lower end and the truncated staircase's variance over it; then ``best_transport``'s
lower end under the truncated staircase at delta = 1e-6 for eps 2-6 (why ``TRANSPORT_MIN_EPSILON`` is 4).
"""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any, Dict, List, Optional, Sequence, Tuple

import mpmath as mp
import numpy as np

#: (W, a, eta, s) of the float optimum at (eps, 1e-5), rounded (Nelder-Mead over W, a, log eta[, s])
BUMPS: Dict[float, Tuple[float, float, float, float]] = {
    2.5: (0.296380, 0.09590, 2.251e-05, 0.0),
    5.0: (0.14448233, 0.03049728, 4.509e-05, 0.10218017),
    6.0: (0.105286, 0.09552, 6.129e-06, 0.0),
    8.0: (0.05484051, 0.0301641, 1.653e-05, 0.0),
}
DELTA = 1e-5


# ------------------------------------------------------------------ piecewise-constant symmetric laws (floats)
def pieces(eps: float, W: float, B: float, a: float, eta: float, s: float) -> Tuple[np.ndarray, np.ndarray]:
    """Breakpoints 0 = x_0 < ... (support end last) and the unnormalised values on [x_i, x_(i+1))."""
    b = math.exp(-eps)
    xs = {0.0, B}
    k = 0
    while k + W < B:
        xs.add(k + W)
        k += 1
    for k in range(0, int(B) + 2):
        for y in (k - a, k + a):
            if 0 < y < B:
                xs.add(y)
    x = np.array(sorted(xs))
    mid = (x[:-1] + x[1:]) / 2
    lev = np.maximum(np.floor(mid - W) + 1, 0)
    v = b ** lev * np.where(np.abs(mid - np.round(mid)) < a, 1 + eta, 1.0)
    if s > 0:
        x = np.append(x, B + s)
        v = np.append(v, b ** (max(math.floor(B - W) + 1, 0) + 1))
    return x, v


def _norm(x: np.ndarray, v: np.ndarray) -> float:
    return float(2 * np.sum(v * np.diff(x)))


def _at(x: np.ndarray, v: np.ndarray, t: np.ndarray) -> np.ndarray:
    at = np.abs(t)
    i = np.clip(np.searchsorted(x, at, side="right") - 1, 0, len(v) - 1)
    return np.where(at < x[-1], v[i], 0.0)


def profile(x: np.ndarray, v: np.ndarray, eps: float, d: float) -> float:
    pts = np.unique(np.concatenate([x, -x, x - d, -x - d]))
    m = (pts[:-1] + pts[1:]) / 2
    g = _at(x, v, m) - math.exp(eps) * _at(x, v, m + d)
    return float(np.sum(np.maximum(g, 0) * np.diff(pts))) / _norm(x, v)


def sup_profile(x: np.ndarray, v: np.ndarray, eps: float) -> float:
    full = np.concatenate([x, -x])
    c = np.unique(np.round(np.abs(full[:, None] - full[None, :]).ravel(), 13))
    c = np.append(c[(c > 0) & (c <= 1)], 1.0)
    return max(profile(x, v, eps, d) for d in c)


def variance(x: np.ndarray, v: np.ndarray) -> float:
    return float(2 * np.sum(v * np.diff(x**3) / 3)) / _norm(x, v)


def fit_bound(eps: float, W: float, a: float, eta: float, s: float, B0: float) -> Optional[float]:
    from scipy.optimize import brentq

    def g(B: float) -> float:
        return sup_profile(*pieces(eps, W, B, a, eta, s), eps) - DELTA

    for half in (0.05, 0.15, 0.4):
        if g(B0 - half) > 0 > g(B0 + half):
            return float(brentq(g, B0 - half, B0 + half, xtol=1e-13))
    return None


# ------------------------------------------------------------------ the same in mpmath, from the pieces
def mp_check(eps: float, W: float, B: float, a: float, eta: float, s: float) -> Tuple[mp.mpf, mp.mpf, mp.mpf]:
    """(variance, sup over the candidate shifts, max over 500 scanned shifts), 50 digits."""
    mp.mp.dps = 50
    b = mp.e ** (-mp.mpf(eps))
    Wm, Bm, am, em, sm = (mp.mpf(t) for t in (W, B, a, eta, s))
    xs = {mp.mpf(0), Bm}
    k = 0
    while k + Wm < Bm:
        xs.add(k + Wm)
        k += 1
    for k in range(0, int(B) + 2):
        for y in (k - am, k + am):
            if 0 < y < Bm:
                xs.add(y)
    x = sorted(xs)
    v: List[mp.mpf] = []
    for lo, hi in zip(x, x[1:]):
        mid = (lo + hi) / 2
        lev = max(int(mp.floor(mid - Wm)) + 1, 0)
        v.append(b**lev * ((1 + em) if abs(mid - mp.nint(mid)) < am else 1))
    if s > 0:
        x.append(Bm + sm)
        v.append(b ** (max(int(mp.floor(Bm - Wm)) + 1, 0) + 1))
    Z = 2 * mp.fsum(v[i] * (x[i + 1] - x[i]) for i in range(len(v)))
    var = 2 * mp.fsum(v[i] * (x[i + 1] ** 3 - x[i] ** 3) / 3 for i in range(len(v))) / Z

    def dens(t: mp.mpf) -> mp.mpf:
        at = abs(t)
        for i in range(len(v)):
            if x[i] <= at < x[i + 1]:
                return v[i]
        return mp.mpf(0)

    E = mp.e ** mp.mpf(eps)

    def prof(d: mp.mpf) -> mp.mpf:
        pts = sorted({p for y in x for p in (y, -y, y - d, -y - d)})
        tot = mp.mpf(0)
        for lo, hi in zip(pts, pts[1:]):
            g = dens((lo + hi) / 2) - E * dens((lo + hi) / 2 + d)
            if g > 0:
                tot += g * (hi - lo)
        return tot / Z

    full = x + [-y for y in x]
    cands = sorted({abs(p - q) for p in full for q in full if 0 < abs(p - q) <= 1} | {mp.mpf(1)})
    return var, max(prof(d) for d in cands), max(prof(mp.mpf(d)) for d in np.linspace(0.002, 1.0, 500))


def ball_check(eps: float, W: float, B: float, a: float, eta: float, s: float) -> Tuple[Any, Any, int]:
    """(variance, sup over the shifts of the profile) as arb balls at the exact binary parameters: breakpoints and
    shifts in exact rationals, the levels ``e^(-eps l) (1 + eta)^j`` in 256-bit balls, ``[.]_+`` of a ball bounded
    above by ``max(0, upper)``; the sup is the max over the candidate shifts (the profile is piecewise linear in d
    between the differences of breakpoints, continuous)."""
    from flint import arb, ctx, fmpq

    ctx.prec = 256

    def ex(x: float) -> Any:
        n, d = float(x).as_integer_ratio()
        return fmpq(n, d)

    Wq, Bq, aq, eq, sq = ex(W), ex(B), ex(a), ex(eta), ex(s)
    b = arb(ex(eps)).neg().exp()
    E = arb(ex(eps)).exp()
    xs = {fmpq(0), Bq}
    k = 0
    while k + Wq < Bq:
        xs.add(k + Wq)
        k += 1
    for k in range(0, int(B) + 2):
        for y in (k - aq, k + aq):
            if 0 < y < Bq:
                xs.add(y)
    x = sorted(xs)
    lev: List[int] = []
    bump: List[bool] = []
    for lo, hi in zip(x, x[1:]):
        mid = (lo + hi) / 2
        lev.append(max(int((mid - Wq).floor()) + 1, 0))
        near = (mid + fmpq(1, 2)).floor()
        bump.append(abs(mid - near) < aq)
    if sq > 0:
        lev.append(max(int((Bq - Wq).floor()) + 1, 0) + 1)
        bump.append(False)
        x.append(Bq + sq)
    val = [b**lv * (arb(1 + eq) if bu else arb(1)) for lv, bu in zip(lev, bump)]
    Z = 2 * sum((val[i] * arb(x[i + 1] - x[i]) for i in range(len(val))), arb(0))
    var = 2 * sum((val[i] * arb(x[i + 1] ** 3 - x[i] ** 3) / 3 for i in range(len(val))), arb(0)) / Z

    def dens(t: Any) -> Any:
        at = abs(t)
        for i in range(len(val)):
            if x[i] <= at < x[i + 1]:
                return val[i]
        return arb(0)

    def prof_up(d: Any) -> Any:
        pts = sorted({p for y in x for p in (y, -y, y - d, -y - d)})
        tot = arb(0)
        for lo, hi in zip(pts, pts[1:]):
            mid = (lo + hi) / 2
            g = dens(mid) - E * dens(mid + d)
            up = g.mid() + g.rad()
            if up > 0:
                tot += up * arb(hi - lo)
        return tot / Z

    full = x + [-y for y in x]
    cands = sorted({abs(p - r) for p in full for r in full if 0 < abs(p - r) <= 1} | {fmpq(1)})
    sup = max((prof_up(d) for d in cands), key=lambda z: float(z.mid() + z.rad()))
    return var, sup, len(cands)


def cmd_bump(eps: float, optimise: bool) -> None:
    import fhsym
    from fhsym.optimum import recorded

    ts = fhsym.calibrate(eps, DELTA, mechanism="truncated_staircase").mechanism
    up = recorded.find(eps, DELTA)["upper"]
    W, a, eta, s = BUMPS[eps]
    if optimise:
        from scipy.optimize import minimize

        def obj(p: Sequence[float]) -> float:
            W_, a_, le, s_ = p
            if not (0 < W_ < 1 and 0 <= a_ < 0.5 and s_ >= 0):
                return 1.0
            B_ = fit_bound(eps, W_, a_, math.exp(le), s_, ts.bound)
            return 1.0 if B_ is None else variance(*pieces(eps, W_, B_, a_, math.exp(le), s_))

        r = minimize(obj, [W, a, math.log(eta), s], method="Nelder-Mead",
                     options=dict(xatol=1e-7, fatol=1e-17, maxiter=800))
        W, a, eta, s = float(r.x[0]), float(r.x[1]), math.exp(float(r.x[2])), max(float(r.x[3]), 0.0)
    B = fit_bound(eps, W, a, eta, s, ts.bound)
    if B is None:
        sys.exit(f"no bound B brackets delta = {DELTA} at eps = {eps}")
    B += 1e-10
    var, sup, scan = mp_check(eps, W, B, a, eta, s)
    print(f"eps {eps}, delta {DELTA}: W={W!r} a={a!r} eta={eta!r} s={s!r} B={B!r}")
    print(f"  50-digit mpmath: sup_d delta = {mp.nstr(sup, 12)} (scan of 500 shifts: {mp.nstr(scan, 12)}); "
          f"variance {mp.nstr(var, 13)}")
    print(f"  against the recorded LP noise {up!r}: {mp.nstr(var / mp.mpf(up) - 1, 4)} relative; against the "
          f"truncated staircase {ts.variance_upper()!r}: {mp.nstr(var / mp.mpf(ts.variance_upper()) - 1, 4)}")
    from flint import arb

    bvar, bsup, nc = ball_check(eps, W, B, a, eta, s)
    vu, su = float(bvar.mid() + bvar.rad()), float(bsup.mid() + bsup.rad())
    below = bool(bvar < arb(up))  # arb: True only when every point of the ball is below
    private = bool(bsup < arb(DELTA))
    print(f"  256-bit balls at the exact binary parameters: variance {vu:.16g} ({vu / up - 1:+.4e} against the record; "
          f"{'proven below it' if below else 'NOT proven below it'}), sup over {nc} candidate shifts of the profile "
          f"{su:.12g} ({'proven < ' if private else 'NOT proven < '}{DELTA})")
    B0 = fit_bound(eps, W, a, 0.0, s, ts.bound)
    if B0 is not None:
        v0 = variance(*pieces(eps, W, B0, a, 0.0, s))
        print(f"  the same W{' and shelf s' if s else ''} without the bump (eta = 0, B refitted; floats): variance "
              f"{v0:.13g}, {v0 / up - 1:+.3e} against the recorded LP noise")


def cmd_lp_shape(eps: float) -> None:
    import fhsym
    from fhsym.noise import PiecewiseUniform
    from fhsym.optimum import recorded

    rec = recorded.find(eps, DELTA)
    w, n = rec["noise"]["width"], rec["noise"]["weights"]
    b = math.exp(-eps)
    flat, partial = [], 0
    for c in n:
        lev = -math.log(c / n[0]) / eps
        near = round(lev)
        if abs(lev - near) < 1e-3:
            flat.append(int(round(n[0] * b**near)))
        else:
            flat.append(c)
            partial += 1
    ts = fhsym.calibrate(eps, DELTA, mechanism="truncated_staircase").mechanism
    for name, weights in (("LP noise (record)", n), ("LP noise, steps flattened", flat)):
        pu = PiecewiseUniform(w, weights)
        v = float(pu.exact_variance())
        print(f"eps {eps}: {name:>26}: variance {v:.13g} ({v / ts.variance_upper() - 1:+.3e} against the truncated "
              f"staircase), sup delta {pu.sup_privacy_profile(eps, 1.0):.6e}")
    levs = [-math.log(c / n[0]) / eps for c in n if c]
    dev = max(abs(x - round(x)) for x in levs if abs(x - round(x)) < 1e-3)
    print(f"  {len(n)} bins of width {w}, {partial} partial bin(s) kept; the other bins' levels are integers to within "
          f"{dev:.3g} (units of eps: the density modulated by up to {math.expm1(eps * dev):.2e} relative)")


def cmd_refined_lp(eps: float, delta: float, m: int, units: float, s: int) -> None:
    import time

    import scipy.sparse as sp
    from scipy.optimize import linprog

    from fhsym.optimum.lp import QuantisedLP
    from fhsym.optimum.solve import objective_scale, ratio_above

    def solve(mm: int, M: int, ss: int) -> Tuple[float, float, float]:
        lp = QuantisedLP(m=mm, M=M, r=ratio_above(eps), delta=1.0)
        A, b = lp.inequalities()
        Aeq, beq = lp.equality()
        c = lp.objective()
        if ss > 1:  # q = D p: the coarse dither of the fine positions i/(mm ss), i = 0..ss M
            rows, cols, vals = [], [], []
            for i in range(ss * M + 1):
                k, f = divmod(i, ss)
                phi = f / ss
                rows.append(k)
                cols.append(i)
                vals.append(1.0 if i == 0 else (2 * (1 - phi) if k == 0 else 1 - phi))
                if f and k + 1 <= M:
                    rows.append(k + 1)
                    cols.append(i)
                    vals.append(phi)
            D = sp.csr_matrix((vals, (rows, cols)), shape=(M + 1, ss * M + 1))

            def lift(X: sp.spmatrix) -> sp.csr_matrix:
                X = sp.csc_matrix(X)
                return sp.hstack([X[:, : M + 1] @ D, X[:, M + 1:]]).tocsr()

            A, Aeq = lift(A), lift(Aeq)
            i = np.arange(ss * M + 1, dtype=float)
            c = np.concatenate([np.where(i == 0, 1.0, 2.0) * (i / (mm * ss)) ** 2, c[M + 1:]])
        scale = objective_scale(c)
        t0 = time.process_time()
        res = linprog(np.ldexp(c, -scale), A_ub=A, b_ub=b, A_eq=Aeq, b_eq=beq / delta, bounds=(0, None),
                      method="highs-ds",
                      options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10})
        if res.status != 0:
            raise ArithmeticError(res.message)
        val = math.ldexp(res.fun, scale) * delta
        wf = 1.0 / (mm * ss)
        return val, val - wf * wf / 4, time.process_time() - t0

    M = int(units * m)
    for mm, MM, ss, name in ((m, M, 1, f"uniform {m}"), (m, M, s, f"sub-bin {m}x{s}"), (m * s, M * s, 1, f"uniform {m * s}")):
        val, low, cpu = solve(mm, MM, ss)
        print(f"eps {eps} delta {delta} {name:>14}: LP value {val:.9g}, lower end {low:.9g} ({cpu:.1f} s CPU)")


def cmd_aggregated_lp(eps: float, delta: float, m: int, units: float, specs: Sequence[str]) -> None:
    import time

    import scipy.sparse as sp
    from scipy.optimize import linprog

    from fhsym.optimum.solve import objective_scale, ratio_above

    M = int(units * m)
    r, w = ratio_above(eps), 1.0 / m
    for spec in specs:
        rho_s, c_s = spec.split(":")
        rho, c = float(rho_s), int(c_s)
        cell = np.empty(M + 1, dtype=int)
        cells: List[List[int]] = []
        k = 0
        while k <= M:
            if k == 0 or c == 1 or abs(k / m - round(k / m)) < rho:
                cell[k] = len(cells)
                cells.append([k])
                k += 1
                continue
            run = [k]
            k += 1
            while k <= M and k % c != 0 and not abs(k / m - round(k / m)) < rho:
                run.append(k)
                k += 1
            cell[run] = len(cells)
            cells.append(run)
        nc = len(cells)
        ri: List[int] = []
        ci: List[int] = []
        vi: List[float] = []
        nrow, ncol = 0, nc + 1  # columns: the cells' masses, t, then one s per row and one s_E per shift
        budget: Dict[int, List[int]] = {}
        for j in range(1, m + 1):
            groups: Dict[Tuple[bool, int], List[int]] = {}
            for kk in range(-M + j, M + 1):
                groups.setdefault((kk >= 0, int(cell[abs(kk)])), []).append(kk)
            budget[j] = []
            for (_, cid), members in groups.items():
                if sorted(abs(kk) for kk in members) != cells[cid]:
                    continue  # not the whole cell: the row is dropped
                row: Dict[int, float] = {cid: 1.0}
                mult: Dict[int, Dict[int, int]] = {}
                for kk in members:
                    i = abs(kk - j)
                    mult.setdefault(int(cell[i]), {})
                    mult[int(cell[i])][i] = mult[int(cell[i])].get(i, 0) + 1
                for cc, d in mult.items():
                    row[cc] = row.get(cc, 0.0) - r * max(d.values())
                for cc, v in row.items():
                    ri.append(nrow)
                    ci.append(cc)
                    vi.append(v)
                ri.append(nrow)
                ci.append(ncol)
                vi.append(-1.0)
                budget[j].append(ncol)
                ncol += 1
                nrow += 1
            for cid, fl in enumerate(cells):  # row E: the cells inside [M - j + 1, M]
                if fl[0] >= M - j + 1:
                    ri.append(nrow)
                    ci.append(cid)
                    vi.append(1.0)
            ri += [nrow, nrow]
            ci += [nc, ncol]
            vi += [-r, -1.0]
            budget[j].append(ncol)
            ncol += 1
            nrow += 1
        first = nrow
        for j in range(1, m + 1):
            for col in budget[j]:
                ri.append(nrow)
                ci.append(col)
                vi.append(1.0)
            nrow += 1
        A = sp.csr_matrix((vi, (ri, ci)), shape=(nrow, ncol))
        b = np.zeros(nrow)
        b[first:] = 1.0  # in units of delta
        cost = np.zeros(ncol)
        aeq = np.zeros(ncol)
        for cid, fl in enumerate(cells):
            a = 1.0 if fl == [0] else 2.0
            cost[cid] = a * (fl[0] * w) ** 2
            aeq[cid] = a
        cost[nc], aeq[nc] = 2.0 * ((M + 1) * w) ** 2, 2.0
        scale = objective_scale(cost)
        t0 = time.process_time()
        res = linprog(np.ldexp(cost, -scale), A_ub=A, b_ub=b, A_eq=sp.csr_matrix(aeq.reshape(1, -1)),
                      b_eq=np.array([1.0 / delta]), bounds=(0, None), method="highs-ds",
                      options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10})
        if res.status != 0:
            raise ArithmeticError(res.message)
        val = math.ldexp(res.fun, scale) * delta
        print(f"eps {eps} delta {delta} m {m} rho {rho} block {c}: {nc} cells, {A.shape[0]} rows, LP value {val:.9g}, "
              f"lower end {val - w * w / 4:.9g} ({time.process_time() - t0:.1f} s CPU)", flush=True)


def _split_y(eps: float, m: int) -> float:
    """The transport dual's largest ``y`` with the columns split among the sinks in proportion to weights iterated 40
    times (``fhsym.optimum.transport`` before issue 31's (4.5, 1e-10) fix), by the same bisection."""
    from fhsym.optimum import transport as T
    from fhsym.optimum.solve import ratio_above

    r = ratio_above(eps)
    levels = T._levels(r)

    def ratio(y: float) -> float:
        plan = T._Plan(eps, m, y, r, levels)
        lo = np.maximum(plan.p - m, 0)

        def gain(wts: np.ndarray) -> np.ndarray:
            tail = np.concatenate([np.cumsum(wts[::-1])[::-1], [0.0]])
            g = np.zeros(plan.c + 1)
            np.add.at(g, lo, plan.cap / tail[lo])
            return np.cumsum(g)
        wts = plan.need / plan.need.sum()
        for _ in range(40):
            wts = wts / (wts * gain(wts) / plan.need)
            wts /= wts.sum()
        return float(np.min(wts * gain(wts) / plan.need))
    lo_y, hi_y = 0.0, 4.0 * T._centre(eps)
    for _ in range(T.BISECTIONS):
        mid = 0.5 * (lo_y + hi_y)
        lo_y, hi_y = (mid, hi_y) if ratio(mid) >= 1.0 else (lo_y, mid)
        if hi_y - lo_y <= 1e-13 * hi_y:
            break
    return lo_y


def cmd_transport(eps: float, delta: float) -> None:
    import fhsym
    from fhsym.optimum import transport as T
    from fhsym.optimum.solve import ratio_above

    ts = fhsym.calibrate(eps, delta, mechanism="truncated_staircase").variance
    r = ratio_above(eps)
    print(f"eps {eps} delta {delta}: truncated staircase variance {ts:.9g}")
    for m in (64, 128, 256, 512, 1024):
        old = _split_y(eps, m)
        new = T._plan(eps, m, r, T._levels(r)).y
        low = float(T.transport_certificate(eps, delta, m).variance_bound())
        print(f"  m={m:<5d} y: proportional split {old:.9g}, Hall {new:.9g} (+{100 * (new / old - 1):.3f} %); "
              f"proven lower end {low:.9g}, truncated staircase / lower end {ts / low:.5f}")
    print("best_transport at delta = 1e-6: truncated staircase / lower end")
    for e in (2.0, 3.0, 3.5, 4.0, 4.5, 6.0):
        lo, cert = T.best_transport(e, 1e-6)
        up = fhsym.calibrate(e, 1e-6, mechanism="truncated_staircase").variance
        print(f"  eps={e:<4g} m={cert.m:<5d} {up / float(lo):.5f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("bump")
    p.add_argument("epsilon", type=float, choices=sorted(BUMPS))
    p.add_argument("--optimise", action="store_true")
    p = sub.add_parser("lp-shape")
    p.add_argument("epsilon", type=float)
    p = sub.add_parser("refined-lp")
    p.add_argument("epsilon", type=float)
    p.add_argument("delta", type=float)
    p.add_argument("m", type=int)
    p.add_argument("units", type=float)
    p.add_argument("s", type=int)
    p = sub.add_parser("aggregated-lp")
    p.add_argument("epsilon", type=float)
    p.add_argument("delta", type=float)
    p.add_argument("m", type=int)
    p.add_argument("units", type=float)
    p.add_argument("specs", nargs="+", help="RHO:C (fine within RHO of each integer, blocks of C bins elsewhere)")
    p = sub.add_parser("transport")
    p.add_argument("epsilon", type=float, nargs="?", default=4.5)
    p.add_argument("delta", type=float, nargs="?", default=1e-10)
    args = ap.parse_args()
    if args.cmd == "transport":
        cmd_transport(args.epsilon, args.delta)
    elif args.cmd == "bump":
        cmd_bump(args.epsilon, args.optimise)
    elif args.cmd == "lp-shape":
        cmd_lp_shape(args.epsilon)
    elif args.cmd == "refined-lp":
        cmd_refined_lp(args.epsilon, args.delta, args.m, args.units, args.s)
    else:
        cmd_aggregated_lp(args.epsilon, args.delta, args.m, args.units, args.specs)


if __name__ == "__main__":
    main()
