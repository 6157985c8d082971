"""Proofs for K dimensions and composition (mission rows A8, A9, F, G).

Checks, in report order: 1. R_Delta and its inverse (Lemma 5, eq 21). 2. The affine bound of
the privacy loss (eq 18, App C-1). 3. Lemma 5: step (20) does not follow from sub-Gaussianity
as cited (K1); it holds for FH by Proschan's peakedness theorem; the statement by quadrature.
4. Lemma 6 is checked (erratum E1) by the ``distribution`` topic. 5. Lemma 7 fails below the
extremes of the sensitivity set (K2); it holds at the extreme vector. 6. Theorem 8: the Gaussian
limit; the box against the certified exact K-fold profile; tighter sets (no counterexample, not
a proof). 7. The box worst case. 8. zCDP against the exact Renyi divergence; the K-dim
parameters. 9. Algorithm 2 against the PLD; its line-4 typo (K3). 10. Table II is not at
delta = 1e-8 (K4; consistent with 1e-6); the K = 5, eps = 0.3 "exact" variance 502 is infeasible (K5).
Checks whose evidence is fhsym's own PLD or float code are CROSS-CHECKs.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import sympy as sp
from mpmath import mp, mpf

import fhsym
from fhsym._core.sensitivities import resolve_sensitivities
from fhsym.symbolic import definitions as D, kdim as SK, stable as ST

from . import _mp as M
from . import _fmt
from ._harness import Outcome, Topic, cross_check, erratum_confirmed, proven, verified

topic = Topic(
    "kdim",
    "K dimensions and composition: Section IV-B (Lemmas 5-7, Theorem 8), zCDP, the exact K-fold profile (A8, A9, F, G)",
    order=40,
    description=(
        "Symbols as in `fhsym.symbolic.kdim`. 'PLD' = `fhsym.accounting.pld`: certified upper and lower bounds on the exact "
        "K-fold privacy profile (connect-the-dots discretisation, FFT composition, explicit floating-point allowance). "
        "Standard units where stated: b = alpha/gamma, s = t/gamma."
    ),
)

K1 = topic.erratum(
    "K1",
    "Lemma 5's step (20), P{T'd > a} <= Q(a/(gamma ||d||_2)), is cited as a consequence of sub-Gaussianity, which "
    "only gives exp(-a^2/(2 gamma^2 ||d||^2)); it is true for FH by Proschan's peakedness theorem (HAND PROOF in docs/errata.md, K1)",
)
K2 = topic.erratum(
    "K2",
    "Lemma 7 is false for difference vectors below the extremes of the sensitivity set (normals with different "
    "variances are not stochastically ordered); it holds when ||d||_2 = Delta_2 and ||d||_1 = Delta_1, which suffices "
    "for Theorem 8 with only an l_inf sensitivity (box); for tighter l_2/l_1 sets Theorem 8 is only numerically supported",
)
K3 = topic.erratum(
    "K3",
    "Algorithm 2, line 4 integrates delta^(k-1)(eps - zeta~) where delta^(k-1)(nu - zeta~) is meant; read literally, "
    "delta^(k) does not depend on nu and the algorithm returns the 2-fold profile for every K >= 2",
)
K4 = topic.erratum(
    "K4",
    "Table II (K = 20) is not at delta = 1e-8, as the text's 'same simulation setup' suggests: every FH (sufficient) value is "
    "below Theorem 8's minimum variance at 1e-8, and at or above it at 1e-6 (the talk slides' delta), as a grid search must be",
)
K5 = topic.erratum(
    "K5",
    "Sec V-B: the 'exact' K = 5, eps = 0.3, delta = 1e-8 variance 502 is below a certified lower bound on the exact minimum variance",
)

al, g, Dl, D2, D1, Kk, ep, nu, dd, tt, Lam = SK.alpha, SK.gamma, SK.Delta, SK.Delta2, SK.Delta1, SK.K, SK.eps, SK.nu, SK.d, SK.t, SK.Lam


def _simp0(e: sp.Expr) -> bool:
    return sp.simplify(e) == 0


# ---------------------------------------------------------------------------
# 1. R_Delta and its inverse
# ---------------------------------------------------------------------------


@topic.check(obj="R_Delta", paper="Lemma 5", claim="R_Delta(alpha) = alpha^2 for alpha < Delta, 2 alpha Delta - Delta^2 beyond; non-decreasing, concave in alpha and in Delta")
def r_delta_pieces(ctx) -> Outcome:
    x = sp.Symbol("x", positive=True)
    below = SK.R_Delta.subs(al, Dl - x)  # alpha = Delta - x < Delta
    above = SK.R_Delta.subs(al, Dl + x)  # alpha = Delta + x > Delta
    p1 = _simp0(below.rewrite(sp.Piecewise) - (Dl - x) ** 2) or _simp0(sp.simplify(below) - (Dl - x) ** 2)
    p2 = _simp0(sp.simplify(above) - (2 * (Dl + x) * Dl - Dl**2))
    # derivatives on the two pieces
    da_lo, da_hi = sp.diff(al**2, al), sp.diff(2 * al * Dl - Dl**2, al)
    cont = _simp0((al**2 - (2 * al * Dl - Dl**2)).subs(al, Dl)) and _simp0((da_lo - da_hi).subs(al, Dl))
    conc_a = sp.diff(al**2, al, 2) >= 0 and sp.diff(2 * al * Dl - Dl**2, al, 2) == 0
    # in Delta: R = alpha^2 for Delta >= alpha, 2 alpha Delta - Delta^2 below: derivative 2(alpha - Delta) >= 0, second -2
    dD = sp.diff(2 * al * Dl - Dl**2, Dl)
    from fhsym.symbolic import privacy as SP

    same = _simp0(SK.R_Delta - SP.R_Delta.subs(SP.Delta, Dl))
    ok = bool(p1 and p2 and cont and conc_a and _simp0(dD - 2 * (al - Dl)) and same)
    ev = [
        f"- identical to `fhsym.symbolic.privacy.R_Delta` (used by the 1-D profile): {same}",
        f"- alpha = Delta - x: R = (Delta - x)^2: {p1}; alpha = Delta + x: R = 2 alpha Delta - Delta^2: {p2}",
        f"- the pieces and their alpha-derivatives (2 alpha, 2 Delta) agree at alpha = Delta (C^1): {cont}; "
        "so R is non-decreasing in alpha; second derivatives 2 and 0: convex in alpha on [0, Delta] and linear beyond "
        "(the paper only needs monotonicity; note R is *not* concave in alpha)",
        f"- in Delta: R = alpha^2 (Delta >= alpha) and 2 alpha Delta - Delta^2 (Delta < alpha), derivative {dD} >= 0, second "
        "derivative -2: non-decreasing and concave in Delta (used by the worst case |d_i| <= Delta and by fhsym's refined zCDP xi)",
    ]
    return proven(ok, "SymPy (branch algebra)", ev)


@topic.check(obj="R_Delta_inverse", paper="eq 21", claim="R^{-1}(R(alpha)) = alpha and R(R^{-1}(nu)) = nu on both branches")
def r_delta_inverse(ctx) -> Outcome:
    x = sp.Symbol("x", positive=True)
    inv_lo = sp.sqrt(nu)
    inv_hi = (nu + Dl**2) / (2 * Dl)
    r_lo = lambda a: a**2  # noqa: E731
    r_hi = lambda a: 2 * a * Dl - Dl**2  # noqa: E731
    c1 = _simp0(inv_lo.subs(nu, r_lo(x)) - x)  # alpha = x < Delta -> nu = x^2 < Delta^2
    c2 = _simp0(inv_hi.subs(nu, r_hi(Dl + x)) - (Dl + x))  # alpha > Delta -> nu > Delta^2
    c3 = _simp0(r_lo(inv_lo) - nu) and _simp0(r_hi(inv_hi) - nu)
    c4 = _simp0(inv_lo.subs(nu, Dl**2) - inv_hi.subs(nu, Dl**2))  # continuous at nu = Delta^2
    ok = bool(c1 and c2 and c3 and c4)
    ev = [f"- R^{{-1}}(R(alpha)) = alpha below/above Delta: {c1}/{c2}; R(R^{{-1}}(nu)) = nu on both branches: {c3}; "
          f"the branches of eq 21 meet at nu = Delta^2 (value Delta): {c4}"]
    return proven(ok, "SymPy", ev)


# ---------------------------------------------------------------------------
# 2. eq 18: the affine bound
# ---------------------------------------------------------------------------


def _rho_mp(x, b):
    x = abs(x)
    return b * x if x <= b else (x * x + b * b) / 2


@topic.check(obj="zeta_u", paper="eq 18, Appendix C-1", claim="zeta_d(t) <= t d/gamma^2 + d^2/(2 gamma^2) + R_{|d|}(alpha)/(2 gamma^2), equality at the ridge; R_{|d|} <= R_Delta for |d| <= Delta")
def zeta_u_bound(ctx) -> Outcome:
    # symbolic: the line of slope d/gamma^2 through the ridge (d/2, (alpha^2 + d^2 - [alpha - d]_+^2)/2gamma^2)
    # of the centred loss, evaluated at t + d/2 (zeta_d(t) = zeta~_d(t + d/2)), is zeta_u_coordinate
    ridge_x, ridge_y = dd / 2, (al**2 + dd**2 - sp.Max(al - dd, 0) ** 2) / (2 * g**2)
    line_at = ridge_y + dd / g**2 * ((tt + dd / 2) - ridge_x)
    sym_ok = _simp0(line_at - SK.zeta_u_coordinate)
    # numeric: 50 digits, standard units (gamma = 1), zeta_d(s) = rho_b(s + d) - rho_b(s) (psi(t + d) - psi(t))
    rng = ctx.rng()
    n = ctx.n(4000, 400)
    worst_excess, worst_gap_ridge, where = -mpf(1), mpf(0), ""
    with mp.workdps(60):
        for _ in range(n):
            b = mpf(float(10 ** rng.uniform(-3, 1.5)))
            d = mpf(float(10 ** rng.uniform(-3, 1.5)))
            s = mpf(float(rng.normal(0, 1) * (1 + float(b + d))))
            z = _rho_mp(s + d, b) - _rho_mp(s, b)
            R = b * b - max(b - d, mpf(0)) ** 2
            u = s * d + d * d / 2 + R / 2
            ex = z - u
            if ex > worst_excess:
                worst_excess, where = ex, f"b={float(b):.3g}, d={float(d):.3g}, s={float(s):.3g}"
            # the ridge of the centred loss is at t = d/2, i.e. s = 0 for zeta_d(s) = zeta~_d(s + d/2)
            zr = _rho_mp(d, b) - _rho_mp(0, b)
            worst_gap_ridge = max(worst_gap_ridge, abs(zr - (d * d / 2 + R / 2)))
    ok = sym_ok and worst_excess <= 0 and worst_gap_ridge < mpf(10) ** -50
    ev = [
        f"- symbolic: ridge line at t + d/2 == eq 18 per coordinate: {sym_ok}",
        f"- {n} random points (b, d in [1e-3, 30], s ~ N(0, (1 + b + d)^2)), 60 digits: max(zeta_d - zeta^(u)_d) = "
        f"{M.fmt(float(worst_excess))} (<= 0), |zeta_d - zeta^(u)_d| at the ridge {_fmt.err(worst_gap_ridge, 1e-50)}",
        "- R_{|d|}(alpha) <= R_Delta(alpha) for |d| <= Delta: R is non-decreasing in Delta (check `r_delta_pieces`); summing "
        "over coordinates gives eq 18 with ||d||_2^2 and K R_Delta",
    ]
    return verified(bool(ok), "the bound at random points (SymPy: the ridge line is eq 18)", n, "60 digits",
                    f"max excess {M.fmt(float(worst_excess))}", where, ev)


# ---------------------------------------------------------------------------
# 3. Lemma 5
# ---------------------------------------------------------------------------


def _sf_exprs():
    lwv = ST.LOG_OMEGA_TILDE.expr
    return ST.SF_CENTER.expr.subs(ST.lw, lwv), ST.SF_TAIL.expr.subs(ST.lw, lwv)


def _fh_sf_mp(b: mpf, s: mpf) -> mpf:
    """P(S > s), S ~ FH(b, 1), from the closed forms verified against quadrature by the distribution topic."""
    sf_c, sf_t = _sf_exprs()
    f_c = M.mp_function((D.b, D.s), sf_c)
    f_t = M.mp_function((D.b, D.s), sf_t)
    a = abs(s)
    v = f_c(b, a) if a <= b else f_t(b, a)
    return v if s >= 0 else 1 - v


def _fh_pdf_mp(b: mpf, s: mpf) -> mpf:
    lw = M.mp_function((D.b,), ST.LOG_OMEGA_TILDE.expr)(b)
    return mpmath.exp(-_rho_mp(s, b) - lw)


@topic.check(obj="lemma5_bound", paper="Lemma 5, eq (20)", claim="(20) P{T'd > a} <= Q(a/(gamma||d||)): not implied by sub-Gaussianity; true for FH (Proschan); checked K = 1, 2")
def lemma5_eq20(ctx) -> Outcome:
    # (a) counterexample to the cited implication: a Rademacher variable is sub-Gaussian with proxy 1
    #     (E e^{sX} = cosh s <= e^{s^2/2}) but P{X > a} = 1/2 > Q(a) for a in [0, 1)
    with mp.workdps(30):
        rad = (mpf(1) / 2, mpmath.ncdf(-mpf("0.99")))
    counter = rad[0] > rad[1]
    # (b) peakedness: the density ratio g/phi (standard units) is exp((|s| - b)^2/2) sqrt(2pi)/omega for |s| <= b
    #     and sqrt(2pi)/omega beyond: non-increasing in |s|; both densities symmetric log-concave, so
    #     Proschan (1965, Thm 2.3) gives sum d_i T_i more peaked than sum d_i N(0, gamma^2) for any weights
    s = sp.Symbol("s", nonnegative=True)
    expo = sp.expand(-(D.b * s) + D.b**2 / 2 + s**2 / 2)  # log(g/phi) + const on 0 <= s <= b (rho = b s; kappa = omega e^{-b^2/2})
    peaked = _simp0(expo - (s - D.b) ** 2 / 2) and sp.diff((s - D.b) ** 2 / 2, s).subs(s, D.b) == 0
    # (c) numeric: K = 1 exact closed form, K = 2 by quadrature of the convolution
    rng = ctx.rng()
    worst, where = -mpf(1), ""
    n1, n2 = ctx.n(300, 40), ctx.n(40, 6)
    with mp.workdps(30):
        for i in range(n1 + n2):
            b = mpf(float(10 ** rng.uniform(-2, 1)))
            a = mpf(float(rng.uniform(0, 6)))
            if i < n1:
                lhs = _fh_sf_mp(b, a)
                rhs = mpmath.ncdf(-a)
                tag = "K=1"
            else:
                w = float(rng.uniform(0.05, 1.0))
                d1, d2 = mpf(1), mpf(w)
                nrm = mpmath.sqrt(d1 * d1 + d2 * d2)
                aa = a * nrm
                pts = sorted({-b, b, (aa - d2 * b) / d1, (aa + d2 * b) / d1, mpf(0)})
                lhs = mpmath.quad(lambda x: _fh_pdf_mp(b, x) * _fh_sf_mp(b, (aa - d1 * x) / d2), [-mp.inf] + pts + [mp.inf])
                rhs = mpmath.ncdf(-a)
                tag = f"K=2, d=(1, {w:.3f})"
            ex = lhs - rhs
            if ex > worst:
                worst, where = ex, f"{tag}, b={float(b):.3g}, a/(gamma||d||)={float(a):.3g}"
    ok = counter and peaked and worst <= mpf(10) ** -25
    ev = [
        f"- cited step invalid: Rademacher X is sub-Gaussian(1) yet P{{X > 0.99}} = 0.5 > Q(0.99) = {mpmath.nstr(rad[1], 6)}: {counter}",
        f"- fix (Proschan 1965): log(g/phi) on |s| <= b is (|s| - b)^2/2 + const (non-increasing in |s|), constant beyond: {peaked}; "
        "so FH(alpha, gamma^2) is more peaked than N(0, gamma^2), and so is every weighted sum of i.i.d. copies",
        f"- numeric: {n1} points K = 1 (closed form), {n2} points K = 2 (quadrature, 30 digits): max(P - Q) = {M.fmt(float(worst))} (<= 0)",
    ]
    cx = f"Rademacher X is sub-Gaussian with proxy 1, yet P{{X > 0.99}} = 0.5 > Q(0.99) = {mpmath.nstr(rad[1], 6)}"
    return erratum_confirmed(bool(ok), K1, cx, f"counterexample + (20) for FH: Proschan (SymPy) and {n1 + n2} points at 30 digits",
                             f"max excess {M.fmt(float(worst))}", ev, where)


def _R(b, d):
    return b * b - max(b - d, 0) ** 2


@topic.check(obj="lemma5_bound", paper="Lemma 5", claim="P{zeta^(u)_d(T) >= eps} <= Q(gamma eps/D2 - D2/(2 gamma) - K R/(2 gamma D2)) under the restriction, every allowed d (K = 1, 2)")
def lemma5_statement(ctx) -> Outcome:
    rng = ctx.rng()
    n = ctx.n(60, 8)
    worst, where, used = -1.0, "", 0
    with mp.workdps(30):
        for _ in range(n * 4):
            if used >= n:
                break
            K = int(rng.choice([1, 2]))
            b = float(10 ** rng.uniform(-2, 0.7))
            Dd = float(10 ** rng.uniform(-1.5, 0.3))  # Delta/gamma
            d2frac = float(rng.uniform(0.2, 1.0)) if K == 2 else 0.0
            dvec = [Dd, Dd * d2frac] if K == 2 else [Dd]
            Dl2 = math.sqrt(K) * Dd  # box l2 sensitivity
            R = _R(b, Dd)
            eps_min = (Dl2 * Dl2 + K * R) / 2
            eps = eps_min * float(rng.uniform(1.0, 3.0)) + 1e-3
            # P{zeta^(u)_d(T) >= eps} = P{T'd >= eps - ||d||^2/2 - K R/2} (gamma = 1)
            nd2 = sum(x * x for x in dvec)
            thr = mpf(eps - nd2 / 2 - K * R / 2)
            bb = mpf(b)
            if K == 1:
                lhs = _fh_sf_mp(bb, thr / mpf(dvec[0]))
            else:
                d1, d2 = mpf(dvec[0]), mpf(dvec[1])
                pts = sorted({-bb, bb, (thr - d2 * bb) / d1, (thr + d2 * bb) / d1})
                lhs = mpmath.quad(lambda x: _fh_pdf_mp(bb, x) * _fh_sf_mp(bb, (thr - d1 * x) / d2), [-mp.inf] + pts + [mp.inf])
            A = eps / Dl2 - Dl2 / 2 - K * R / (2 * Dl2)
            rhs = mpmath.ncdf(-mpf(A))
            used += 1
            r = float(lhs / rhs)
            if r > worst:
                worst, where = r, f"K={K}, b={b:.3g}, D={Dd:.3g}, d={tuple(round(x, 3) for x in dvec)}, eps={eps:.3g}"
    ok = worst <= 1.0
    ev = [f"- {used} random cases (standard units, d below and at the box extreme): max P/Q = {worst:.6f} (<= 1)"]
    return verified(bool(ok), "the bound vs quadrature of the convolution (K = 2) or the closed form (K = 1)", used, "30 digits",
                    f"max ratio {worst:.4f}", where, ev)


# ---------------------------------------------------------------------------
# 5. Lemma 7
# ---------------------------------------------------------------------------


def _theta_std(b: float) -> float:
    """theta/gamma of eq 22 evaluated from the SymPy form in mpmath (not fhsym.accounting.sufficient.theta_std)."""
    from .distribution import theta_std as theta_eq22

    return float(theta_eq22(float(b)))


@topic.check(obj="lemma7_bound", paper="Lemma 7", claim="as stated (every d with ||d||_2 <= Delta_2, ||d||_1 <= Delta_1) it is false; at the extreme vector it holds")
def lemma7(ctx) -> Outcome:
    # counterexample: K = 4, Delta = 1, Delta_2 = 2, Delta_1 = 4 (the box), d = (1, 0, 0, 0); gamma = 2, alpha = 1, eps = 1
    K, Dd, gm, a, eps = 4, 1.0, 2.0, 1.0, 1.0
    b = a / gm
    R = _R(a, Dd)
    th = gm * _theta_std(b)
    Dl2, Dl1 = 2.0, 4.0
    B = gm * eps / Dl2 + Dl2 / (2 * gm) + K * R / (2 * gm * Dl2) + th * Dl1 / (gm * Dl2)
    with mp.workdps(30):
        claimed = mpmath.ncdf(-mpf(B))
        thr = -(gm * gm * eps + Dd * Dd / 2 + K * R / 2)  # P{zeta^(u)_d(T) <= -eps} = P{T_1 d_1 <= thr}
        actual = 1 - _fh_sf_mp(mpf(b), mpf(thr / (Dd * gm)))
    fails = actual < claimed
    # at the extreme vector of K = 2 (d = (Delta, Delta)): P{T_1 + T_2 <= x} >= Phi((x - 2 theta)/(gamma sqrt 2)) on a grid
    worst = mpf(1e9)
    where = ""
    rng = ctx.rng()
    with mp.workdps(20):
        for _ in range(ctx.n(30, 3)):
            bb = mpf(float(10 ** rng.uniform(-2, 1)))
            x = mpf(float(rng.uniform(-8, 0)))
            thb = mpf(_theta_std(float(bb)))
            lhs = mpmath.quad(lambda y: _fh_pdf_mp(bb, y) * (1 - _fh_sf_mp(bb, x - y)), [-mp.inf, -bb, x - bb, bb, x + bb, mp.inf])
            rhs = mpmath.ncdf((x - 2 * thb) / mpmath.sqrt(2))
            m = lhs / rhs
            if m < worst:
                worst, where = m, f"b={float(bb):.3g}, x={float(x):.3g}"
    ok = bool(fails) and worst >= 1
    ev = [
        f"- K = 4, Delta = 1, Delta_2 = 2, Delta_1 = 4, alpha = 1, gamma = 2, eps = 1, d = (1, 0, 0, 0): P{{zeta^(u)_d(T) <= -eps}} = "
        f"{mpmath.nstr(actual, 8)} < the claimed lower bound Q(B) = {mpmath.nstr(claimed, 8)}: the lemma fails",
        "- the faulty step: W_0 ~ N(theta ||d||_1, gamma^2 ||d||_2^2) <=_st W ~ N(theta Delta_1, gamma^2 Delta_2^2) is false unless the "
        "variances are equal (normal laws with different variances cross); the replacement of ||d||_2^2 by Delta_2^2 in the "
        "threshold is fine",
        f"- at the extreme vector (||d||_2 = Delta_2, ||d||_1 = Delta_1, here K = 2, d = (1, 1)) W_0 = W and the lemma holds: "
        f"min P{{T_1 + T_2 <= x}} / Phi((x - 2 theta)/(sqrt 2)) = {mpmath.nstr(worst, 8)} (>= 1) over {ctx.n(30, 3)} points (quadrature, 20 digits)",
    ]
    cx = f"K = 4, d = (1, 0, 0, 0), alpha = 1, gamma = 2, eps = 1: P = {mpmath.nstr(actual, 6)} < the claimed lower bound {mpmath.nstr(claimed, 6)}"
    return erratum_confirmed(ok, K2, cx, "counterexample (30 digits) + the extreme vector by quadrature (20 digits)",
                             f"counterexample ratio {float(actual / claimed):.3g}", ev, where)


# ---------------------------------------------------------------------------
# 6. Theorem 8
# ---------------------------------------------------------------------------


@topic.check(obj="theorem8_lhs", paper="Theorem 8", claim="at alpha = 0 (R = 0, theta = 0) the left-hand side is the exact Gaussian profile with l_2 sensitivity Delta_2")
def theorem8_gaussian_limit(ctx) -> Outcome:
    R0 = SK.R_Delta.subs(al, 0)
    om0 = sp.limit(D.omega, al, 0, "+")
    th0 = g * sp.sqrt(2) * sp.erfinv(1 - 2 * sp.sqrt(sp.pi / 2) / om0)
    from fhsym.symbolic.special import Q

    A = g * ep / D2 - D2 / (2 * g) - Kk * R0 / (2 * g * D2)
    B = g * ep / D2 + D2 / (2 * g) + Kk * R0 / (2 * g * D2) + th0 * D1 / (g * D2)
    lhs = Q(A) - sp.exp(ep) * Q(B)
    ok = R0 == 0 and sp.simplify(om0 - sp.sqrt(2 * sp.pi)) == 0 and sp.simplify(th0) == 0 and _simp0(lhs - SK.gaussian_profile_l2)
    ev = [f"- R_Delta(0) = {R0}; lim_{{alpha->0}} omega = {om0}; theta(0) = {sp.simplify(th0)}; LHS - Balle-Wang profile simplifies to 0: {ok}"]
    return proven(bool(ok), "SymPy (limit)", ev)


@topic.check(obj="theorem8_lhs", paper="Lemma 5, Lemma 7, Theorem 8, eq 22",
             claim="fhsym.accounting.sufficient's float lemma5_bound, lemma7_bound, theorem8_lhs and theta_std equal the SymPy objects "
                   "of fhsym.symbolic.kdim evaluated in mpmath (box and tighter sets, alpha > 0)")
def sufficient_formulas(ctx) -> Outcome:
    from fhsym.accounting import sufficient as FS

    args = (al, g, ep, Kk, Dl, D2, D1)
    fns = {name: M.mp_function(args, getattr(SK, name)) for name in ("lemma5_bound", "lemma7_bound", "theorem8_lhs")}
    theta = M.mp_function((al, g), SK.theta)
    cases = _random_thm8_cases(ctx, ctx.n(40, 8), box=True) + _random_thm8_cases(ctx, ctx.n(40, 8), box=False)
    worst, where = 0.0, ""
    with mp.workdps(40):
        for K, Dl2, Dl1, eps, a, gm, _ in cases:
            _, _, Dl2, Dl1 = resolve_sensitivities(K, 1.0, Dl2, Dl1)  # the tightest radii, as the float functions
            x = (mpf(a), mpf(gm), mpf(eps), K, mpf(1), mpf(Dl2), mpf(Dl1))
            for name, f in fns.items():
                ref = f(*x)
                got = getattr(FS, name)(eps, a, gm, K, 1.0, Dl2, Dl1)
                # relative where the value is a normal float, absolute 1e-300 where it underflows (as the profile)
                e = float(abs(got - ref) / ref) if ref >= 1e-300 else float(abs(got - ref) / mpf(1e-300))
                if e > worst:
                    worst, where = e, f"{name}: K={K}, eps={eps:.3g}, alpha={a:.3g}, gamma={gm:.3g}, Delta_2={Dl2:.3g}"
            # theta ~ b^3/6 for small b, computed from log(sqrt(pi/2)/omega) ~ log(1/2): absolute 1e-15 there,
            # which is what Theorem 8 needs (theta enters B next to O(1) terms); relative elsewhere
            th_ref = theta(mpf(a) / mpf(gm), 1)
            e = float(abs(FS.theta_std(a / gm) - th_ref) / (th_ref + mpf(1e-6)))
            if e > worst:
                worst, where = e, f"theta_std: b={a / gm:.3g}"
    ok = worst <= 1e-9
    ev = [f"- {len(cases)} random cases (half the box, half tighter l2/l1 sets), alpha in (0, alpha_max]: worst relative "
          f"difference {worst:.2e} between the float functions and the SymPy objects at 40 digits (tolerance 1e-9: the "
          "LHS loses ~1e-16/|r| to the cancellation in r = eps + log Q(B) - log Q(A); absolute 1e-300 where Q(B) "
          "underflows a float)"]
    return cross_check(ok, "fhsym.accounting.sufficient (float) vs fhsym.symbolic.kdim (mpmath, 40 digits)", f"{worst:.2e}", where, ev)


def _random_thm8_cases(ctx, n: int, box: bool):
    from fhsym.accounting.sufficient import alpha_max, theorem8_lhs

    rng = ctx.rng("box" if box else "nonbox")
    out = []
    tries = 0
    while len(out) < n and tries < 50 * n:
        tries += 1
        K = int(rng.choice([2, 3, 4, 5, 8, 12, 20]))
        if box:
            Dl2, Dl1 = math.sqrt(K), float(K)
        else:
            Dl2 = math.exp(rng.uniform(0, math.log(math.sqrt(K))))
            Dl1 = math.exp(rng.uniform(math.log(Dl2), math.log(min(K, math.sqrt(K) * Dl2))))
        eps = math.exp(rng.uniform(math.log(0.05), math.log(5)))
        gm = math.exp(rng.uniform(math.log(0.3), math.log(30)))
        if 2 * gm * gm * eps - Dl2 * Dl2 <= 0:
            continue
        amax = alpha_max(eps, gm, K, 1.0, Dl2)
        a = amax * float(rng.uniform(0.05, 1.0)) ** 2
        lhs = theorem8_lhs(eps, a, gm, K, 1.0, Dl2, Dl1)
        if not (1e-12 < lhs < 0.5):
            continue
        out.append((K, Dl2, Dl1, eps, a, gm, lhs))
    return out


@topic.check(obj="theorem8_lhs", paper="Theorem 8", claim="box (Delta_2 = sqrt(K) Delta, Delta_1 = K Delta): LHS >= the certified upper bound of the exact K-fold profile (which covers every d in the box)")
def theorem8_box(ctx) -> Outcome:
    from fhsym.accounting import kdim_pld

    cases = _random_thm8_cases(ctx, ctx.n(60, 10), box=True)
    worst, where, bad = math.inf, "", 0
    for K, Dl2, Dl1, eps, a, gm, lhs in cases:
        up = float(kdim_pld(a, gm, K, 1.0, upper_only=True).delta_upper(eps))
        r = lhs / up
        if r < worst:
            worst, where = r, f"K={K}, eps={eps:.3g}, alpha={a:.3g}, gamma={gm:.3g}"
        bad += r < 1
    ok = bad == 0
    ev = [
        f"- {len(cases)} random box cases with alpha in (0, alpha_max] (the restriction of Theorem 8): min LHS / certified exact "
        f"upper bound = {worst:.4f} (>= 1 means Theorem 8 is confirmed with a certified margin)",
        "- proof for the box: d = (Delta, ..., Delta) is the worst case for every d in the box (check `box_worst_case`), and for "
        "that vector every step holds: eq 18 (check `zeta_u_bound`), Lemma 4, Lemma 5 with (20) by Proschan (check "
        "`lemma5_eq20`), Lemma 7 at the extreme vector (check `lemma7`)",
    ]
    return cross_check(ok, "fhsym's Theorem 8 LHS vs fhsym's PLD (certified upper bound)", f"min LHS/upper {worst:.4f}", where, ev)


@topic.check(obj="theorem8_lhs", paper="Theorem 8", claim="sets tighter than the box: LHS >= the certified lower bound of delta_d for every extreme vector d of the set (no counterexample; not a proof)", quick=False)
def theorem8_nonbox(ctx) -> Outcome:
    from fhsym.accounting import kdim_pld, worst_case_candidates

    cases = _random_thm8_cases(ctx, ctx.n(80, 8), box=False)
    worst, where, bad = 0.0, "", 0
    for K, Dl2, Dl1, eps, a, gm, lhs in cases:
        best = 0.0
        for dv in worst_case_candidates(K, 1.0, Dl2, Dl1):
            lo = float(kdim_pld(a, gm, K, 1.0, difference=dv).delta_lower(eps))
            best = max(best, lo)
        r = best / lhs
        if r > worst:
            worst, where = r, f"K={K}, D2={Dl2:.3g}, D1={Dl1:.3g}, eps={eps:.3g}, alpha={a:.3g}, gamma={gm:.3g}"
        bad += r > 1
    ok = bad == 0
    ev = [f"- {len(cases)} random sets with Delta_2 < sqrt(K) Delta, Delta_1 < K Delta: max over extreme vectors of the certified "
          f"lower bound of delta_d / LHS = {worst:.4f} (> 1 would be a certified counterexample; none found)",
          "- Theorem 8's proof does not cover these sets (Lemma 7 fails for non-extreme d, erratum K2): this is numerical "
          "support only; `method='sufficient'` searches with Theorem 8 over the box and certifies with 'pld-kfold'"]
    return cross_check(ok, "fhsym's Theorem 8 LHS vs fhsym's PLD (certified lower bounds, extreme vectors)", f"max lower/LHS {worst:.4f}",
                       where, ev, erratum=K2)


# ---------------------------------------------------------------------------
# 7. the box worst case
# ---------------------------------------------------------------------------


@topic.check(obj="kdim_profile", paper="Sec IV-B, eq 28 (Lemma 11)", claim="with only an l_inf sensitivity the worst case is d = (Delta, ..., Delta): 1-D profile non-decreasing in |d| (30 digits), K-fold ordering (PLD)")
def box_worst_case(ctx) -> Outcome:
    from . import reference as R
    from fhsym.accounting import kdim_pld

    rng = ctx.rng()
    worst1, where1 = -math.inf, ""
    for _ in range(ctx.n(16, 3)):
        a = float(10 ** rng.uniform(-1, 0.7))
        gm = float(10 ** rng.uniform(-0.3, 0.7))
        d2 = float(10 ** rng.uniform(-0.5, 0.5))
        d1 = d2 * float(rng.uniform(0.3, 0.95))
        e = float(rng.uniform(0, 2))
        v1 = R.privacy_profile(e, a, gm, d1, dps=30)
        v2 = R.privacy_profile(e, a, gm, d2, dps=30)
        r = float(v1 / v2) if v2 > 0 else 0.0
        if r > worst1:
            worst1, where1 = r, f"alpha={a:.3g}, gamma={gm:.3g}, d={d1:.3g} < {d2:.3g}, eps={e:.3g}"
    # K-fold: random d in the box never exceeds the corner (certified upper(d) vs certified lower(corner))
    worstK, whereK = -math.inf, ""
    for _ in range(ctx.n(12, 3)):
        K = int(rng.choice([2, 3, 5]))
        a, gm = float(10 ** rng.uniform(-1, 0.7)), float(10 ** rng.uniform(0, 0.8))
        e = float(rng.uniform(0.2, 2.0))
        dv = rng.uniform(-1, 1, K)
        corner = kdim_pld(a, gm, K, 1.0)
        lo_c = float(corner.delta_lower(e))
        up_d = float(kdim_pld(a, gm, K, 1.0, difference=dv, step=corner.step).delta_upper(e))
        r = up_d / lo_c if lo_c > 0 else math.inf
        if r > worstK:
            worstK, whereK = r, f"K={K}, alpha={a:.3g}, gamma={gm:.3g}, eps={e:.3g}"
    ok = worst1 <= 1 and worstK <= 1
    ev = [
        f"- 1-D: max delta_{{d1}}(eps)/delta_{{d2}}(eps) over d1 < d2 = {worst1:.6f} (<= 1; mpmath quadrature of the definition, 30 digits)",
        f"- K-fold: max (certified upper bound at a random d in the box) / (certified lower bound at the corner) = {worstK:.6f} at {whereK} (<= 1)",
        "- proof: for eps >= 0, d/dd [G(nu - d/2) - e^eps G(nu + d/2)] = [g(nu - d/2) + e^eps g(nu + d/2)]/2 >= 0 (the paper's eq 28 "
        "argument, log-concave symmetric noise); for eps < 0 by the duality delta(eps) = 1 - e^eps + e^eps delta(-eps); ordered "
        "hockey-stick curves = Blackwell order of dichotomies; a product of garblings is a garbling",
    ]
    return cross_check(bool(ok), "1-D: quadrature (30 digits); K-fold: fhsym's PLD at d vs at the corner", f"max ratios {worst1:.4f} / {worstK:.4f}",
                       where1, ev)


# ---------------------------------------------------------------------------
# 8. zCDP
# ---------------------------------------------------------------------------


@topic.check(obj="zcdp_1d", paper="slides: zCDP of FH", claim="D_Lambda(FH || FH + d) <= R_Delta(alpha)/(2gamma^2) + Lambda Delta^2/(2gamma^2) for |d| <= Delta, Lambda in (1, 64] (exact Renyi divergence by quadrature)")
def zcdp_renyi(ctx) -> Outcome:
    from . import reference as R

    rng = ctx.rng()
    worst, where = -mpf(1), ""
    n = ctx.n(40, 6)
    with mp.workdps(30):
        for _ in range(n):
            b = mpf(float(10 ** rng.uniform(-2, 1)))
            Dd = mpf(float(10 ** rng.uniform(-1, 0.5)))  # Delta/gamma
            d = Dd * mpf(float(rng.uniform(0.2, 1.0)))
            lam = mpf(float(1 + 10 ** rng.uniform(-2, 1.8)))
            Z = R.normaliser(b, dps=30)
            # int g(s)^Lam g(s - d)^{1 - Lam} ds (standard units), g = e^{-rho}/Z
            f = lambda s: mpmath.exp(-lam * _rho_mp(s, b) - (1 - lam) * _rho_mp(s - d, b)) / Z  # noqa: E731
            I = mpmath.quad(f, [-mp.inf, -b, 0, b, d - b, d, d + b, mp.inf])
            Dren = mpmath.log(I) / (lam - 1)
            bound = (b * b - max(b - Dd, 0) ** 2) / 2 + lam * Dd * Dd / 2
            ex = Dren - bound
            if ex > worst:
                worst, where = ex, f"b={float(b):.3g}, Delta/gamma={float(Dd):.3g}, d={float(d):.3g}, Lambda={float(lam):.3g}"
    ok = worst <= 0
    ev = [f"- {n} random cases: max(D_Lambda - (xi + Lambda eta)) = {M.fmt(float(worst))} (<= 0); proof: zeta_d <= zeta^(u)_d (eq 18) "
          "and M_FH(u) <= e^{gamma^2 u^2/2} (Lemma 2, distribution topic)"]
    return verified(bool(ok), "the bound vs the Renyi divergence by quadrature of its definition", n, "30 digits",
                    f"max excess {M.fmt(float(worst))}", where, ev)


@topic.check(obj="zcdp_kdim", paper="slides / Sec VI-A", claim="K-dim: (K R_Delta/(2gamma^2), Delta_2^2/(2gamma^2)) by additivity; fhsym's refined xi = K R_c/(2gamma^2), c = min(Delta, Delta_2/sqrt K, Delta_1/K), is the exact max over the set")
def zcdp_kdim(ctx) -> Outcome:
    # additivity: D_Lambda of a product = sum; each coordinate <= R_{|d_i|}/(2g^2) + Lambda d_i^2/(2g^2)
    ds = sp.symbols("d1:4", positive=True)
    total = sum((al**2 - sp.Max(al - x, 0) ** 2) / (2 * g**2) + Lam * x**2 / (2 * g**2) for x in ds)
    eta_part = sp.simplify(sp.diff(total, Lam) - sum(x**2 for x in ds) / (2 * g**2)) == 0
    # Schur-concavity: R_c concave in c (second derivative -2 on c < alpha, 0 beyond) -> sum maximised at the uniform vector
    c = sp.Symbol("c", positive=True)
    conc = sp.diff(2 * al * c - c**2, c, 2) == -2 and sp.diff(al**2, c, 2) == 0
    # numeric: refined xi <= paper xi, and equality in the box
    from fhsym.accounting.zcdp import zcdp_params

    rng = ctx.rng()
    ok_num = True
    for _ in range(ctx.n(200, 20)):
        K = int(rng.integers(1, 50))
        a, gm = float(10 ** rng.uniform(-2, 1)), float(10 ** rng.uniform(-1, 1))
        d2 = float(rng.uniform(1.0, math.sqrt(K)))
        p = zcdp_params(a, gm, 1.0, K, d2)
        r = zcdp_params(a, gm, 1.0, K, d2, refine=True)
        box = zcdp_params(a, gm, 1.0, K, None, refine=True)
        ok_num &= r[0] <= p[0] * (1 + 1e-15) and r[1] == p[1] and abs(box[0] - zcdp_params(a, gm, 1.0, K)[0]) <= 1e-15 * box[0]
    ok = bool(eta_part and conc and ok_num)
    ev = [f"- Renyi divergences of product measures add; the Lambda-coefficient of the sum is ||d||_2^2/(2 gamma^2): {eta_part}",
          f"- R_c(alpha) is concave in c (second derivative -2 then 0): {conc}; so sum_i R_{{|d_i|}} is Schur-concave and maximal at the "
          "uniform vector, which stays in the set; refined xi <= paper xi, equal in the box (random cases): " + str(ok_num)]
    return cross_check(ok, "SymPy (additivity, concavity) + fhsym.accounting.zcdp refined vs unrefined", "0 violations" if ok else "violated", "", ev)


# ---------------------------------------------------------------------------
# 9. Algorithm 2
# ---------------------------------------------------------------------------


@topic.check(obj="kdim_profile", paper="Algorithm 2", claim="iterative integration (K = 2) agrees with the PLD bracket; the two are independent computations")
def algorithm2_vs_pld(ctx) -> Outcome:
    from fhsym.accounting import kdim_pld
    from fhsym.accounting.iterative import iterative_profile

    rng = ctx.rng()
    out_of = 0
    worst_rel, where = 0.0, ""
    n = ctx.n(8, 3)
    for _ in range(n):
        a, gm = float(10 ** rng.uniform(-1, 0.7)), float(10 ** rng.uniform(0, 0.7))
        e = float(rng.uniform(0.1, 2.0))
        v, err = iterative_profile(e, a, gm, 2)
        lo, up = kdim_pld(a, gm, 2, 1.0).delta_bounds(e)
        inside = lo - err[0] <= v[0] <= up + err[0]
        out_of += not inside
        rel = (up - lo) / max(v[0], 1e-300)
        if rel > worst_rel:
            worst_rel, where = rel, f"alpha={a:.3g}, gamma={gm:.3g}, eps={e:.3g}"
    ok = out_of == 0
    ev = [f"- {n} random cases: Algorithm 2 value within the PLD bracket (+- its own error estimate) in all but {out_of}; widest bracket "
          f"(upper - lower)/value = {worst_rel:.2e}"]
    return cross_check(ok, "fhsym.accounting.iterative (Algorithm 2) vs fhsym's PLD bracket", f"bracket {worst_rel:.1e}", where, ev)


@topic.check(obj="kdim_profile", paper="Algorithm 2, line 4", claim="the printed recursion uses eps instead of nu: read literally it returns delta^(2) for every K >= 2")
def algorithm2_typo(ctx) -> Outcome:
    from fhsym.accounting import kdim_pld

    # literal: delta^(k)(nu) = int g(t) delta^(k-1)(eps - zeta(t)) dt does not depend on nu, so delta^(k) = delta^(2)(eps) for k >= 2
    a, gm, e = 1.0, 2.0, 1.0
    d2 = kdim_pld(a, gm, 2, 1.0).delta_bounds(e)
    d3 = kdim_pld(a, gm, 3, 1.0).delta_bounds(e)
    differ = d3[0] > d2[1]
    ev = [f"- literal reading: delta^(3)_literal(eps) = delta^(2)(eps) in [{d2[0]:.6e}, {d2[1]:.6e}], but the exact delta^(3)(eps) is in "
          f"[{d3[0]:.6e}, {d3[1]:.6e}] (alpha = 1, gamma = 2, Delta = 1, eps = 1): the typo would under-state delta",
          "- fhsym.accounting.iterative implements the corrected recursion delta^(k)(nu) = int g(t) delta^(k-1)(nu - zeta_Delta(t)) dt"]
    cx = f"alpha = 1, gamma = 2, Delta = 1, eps = 1: the literal line 4 gives delta^(3) = delta^(2) <= {d2[1]:.6e} < {d3[0]:.6e} <= the exact delta^(3)"
    return erratum_confirmed(bool(differ), K3, cx, "counterexample: fhsym's PLD (certified bounds)", f"{d3[0] / d2[1]:.3f}x", ev)


# ---------------------------------------------------------------------------
# 10. reproduction facts
# ---------------------------------------------------------------------------

TABLE2_EPS = (0.2, 0.4, 1.0, 2.2, 5.0)
TABLE2_FH = (7237.09, 1971.36, 359.57, 87.09, 19.49)


@topic.check(obj="theorem8_lhs", paper="Table II", claim="the FH (sufficient) row lies in the bracket [min variance at delta = 1e-6, min variance at delta = 1e-8) of Theorem 8, for every eps: consistent with 1e-6, impossible at 1e-8")
def table2_delta(ctx) -> Outcome:
    from fhsym.accounting.sufficient import theorem8_minimum as t8

    # asserted, fixed before the numbers were seen (bounds 0, no tolerance window): at 1e-6 paper >= Theorem 8's minimum
    # (a grid search cannot beat the continuous optimum); at 1e-8 paper < the minimum (so it cannot satisfy Theorem 8 there)
    rows = [[fhsym.FlippedHuber(*t8(e, dl, 20, 1.0, math.sqrt(20), 20.0)).var() for e in TABLE2_EPS] for dl in (1e-6, 1e-8)]
    at6 = [p >= x for p, x in zip(TABLE2_FH, rows[0])]
    at8 = [p < x for p, x in zip(TABLE2_FH, rows[1])]
    dev6 = [(p - x) / p for p, x in zip(TABLE2_FH, rows[0])]  # information only, as dev8
    dev8 = [(x - p) / p for p, x in zip(TABLE2_FH, rows[1])]
    ok = all(at6) and all(at8)
    ev = [
        "| eps | paper | Theorem 8 minimum, delta = 1e-6 | Theorem 8 minimum, delta = 1e-8 | min(1e-6) <= paper < min(1e-8) |",
        "|---|---|---|---|---|",
        *[f"| {e} | {p} | {a:.2f} | {b:.2f} | {u and w} |" for e, p, a, b, u, w in zip(TABLE2_EPS, TABLE2_FH, rows[0], rows[1], at6, at8)],
        "- asserted (bounds fixed a priori, no tolerance): each printed value is >= the minimum at delta = 1e-6 (a grid search cannot "
        "beat the continuous optimum) and < the minimum at delta = 1e-8 (a value below the minimum cannot satisfy Theorem 8 at 1e-8)",
        f"- information, not a pass criterion: the paper is above the 1e-6 minimum by {min(dev6):.2%} .. {max(dev6):.2%}; the 1e-8 "
        f"minimum is above the paper by {min(dev8):.0%} .. {max(dev8):.0%}",
        "- the minima: `fhsym.accounting.sufficient.theorem8_minimum` (a search over b = alpha/gamma, not a proof over all b); that the "
        "table is at exactly 1e-6 is consistent with these numbers and the talk slides, not proven"]
    cx = (f"at delta = 1e-8 Theorem 8's minimum variance is above every FH value of Table II (by {min(dev8):.0%} or more), so "
          "the table cannot be at 1e-8; at delta = 1e-6 every printed value is at or above the minimum")
    return erratum_confirmed(bool(ok), K4, cx, "fhsym's Theorem 8 minimum at delta = 1e-6 and 1e-8 vs the printed table (bracket)",
                             f"{sum(at6)}/5 >= min(1e-6), {sum(at8)}/5 < min(1e-8)", ev)


@topic.check(obj="kdim_profile", paper="Sec V-B (K = 5, eps = 0.3)", claim="the paper's exact variance 502 is infeasible: a certified lower bound on the exact minimum exceeds it", quick=False)
def k5_exact_502(ctx) -> Outcome:
    from scipy import optimize

    from fhsym.accounting import kdim_pld

    eps, dl, K = 0.3, 1e-8, 5
    # for each shape b, D_lo(b) = largest D with the certified LOWER bound <= delta: every feasible D is below it,
    # so v(b)/D_lo(b)^2 lower-bounds the variance at that shape
    bs = [0.0] + list(np.geomspace(0.05, 200, ctx.n(40, 8)))
    best, arg = math.inf, None
    for b in bs:
        f = lambda lD, b=b: float(kdim_pld(b, 1.0, K, math.exp(lD)).delta_lower(eps)) - dl  # noqa: E731
        if f(0.0) <= 0:  # private even at D = Delta/gamma = 1
            continue
        r = optimize.brentq(f, math.log(1e-4), 0.0, xtol=1e-9)
        while f(r) <= 0:
            r += 1e-9
        val = fhsym.FlippedHuber(b, 1.0).var() / math.exp(r) ** 2  # v(b), eq 11
        if val < best:
            best, arg = val, b
    ok = best > 502
    cal = fhsym.calibrate(eps, dl, dim=K, method="exact")  # fhsym's certified exact optimum, computed here (not quoted)
    ev = [f"- min over {len(bs)} shapes b of v(b)/D_lower(b)^2 = {best:.2f} (at b = {arg:.3g}) > 502; fhsym's certified exact calibration "
          f"(`fhsym.calibrate(0.3, 1e-8, dim=5, method='exact')`, run in this check) gives {cal.variance:.2f} (alpha = {cal.alpha:.2f}, "
          f"gamma = {cal.gamma:.2f}, certified delta {cal.achieved_delta:.4g}); the pure-DP Laplace mechanism with Delta_1 = 5 gives "
          f"(scale K/eps) 2 (K/eps)^2 = {2 * (K / eps) ** 2:.2f}; Theorem 8's infimum is the same Laplace limit (the paper's 557 'sufficient' is consistent with it)",
          "- a grid of shapes, not a proof over all b; the lower bound is loose where delta comes from the tail just beyond a loss "
          "atom (docs/kdim.md), which only makes this bound smaller"]
    cx = f"a certified lower bound on the exact minimum variance is {best:.1f} > 502 (min over {len(bs)} shapes)"
    return erratum_confirmed(bool(ok), K5, cx, "counterexample: fhsym's PLD (certified lower bounds)", f"lower bound {best:.1f}", ev)
