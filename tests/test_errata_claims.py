"""Errata C1-C4 (docs/errata.md, issue 11 item 4): each recorded number re-derived by an independent route.

The recorded values come from ``scripts/errata_claims.py`` and ``scripts/dpcd_seeds.py`` (JSON in
``docs/reproduction/data/``; the slow searches run there, not here).  Each test recomputes the key
number a different way -- mpmath quadrature of the definitions, closed forms, Google's dp_accounting
PLD composition, or a one-dimensional integral of the exact 1-D profile -- and checks it against the
record.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import mpmath as mp
import numpy as np
import pytest
from scipy import optimize

import fhsym

DATA = Path(__file__).resolve().parent.parent / "docs" / "reproduction" / "data"
CLAIMS = json.loads((DATA / "errata_claims.json").read_text())
DPCD = json.loads((DATA / "dpcd_seeds.json").read_text())


# ---------------------------------------------------------------------------
# mpmath quadrature of the definitions (this file's own implementation)
# ---------------------------------------------------------------------------


def _fh_log(alpha, gamma):
    a, g2 = mp.mpf(alpha), mp.mpf(gamma) ** 2
    return lambda t: -((a * abs(t)) if abs(t) <= a else (t * t + a * a) / 2) / g2


def _osgt_log(vartheta, varrho):
    v, r = mp.mpf(vartheta), mp.mpf(varrho)
    return lambda t: -((abs(t) + v) ** 2) / (2 * r * r)


def _gauss_log(sigma):
    s = mp.mpf(sigma)
    return lambda t: -(t * t) / (2 * s * s)


def _panels(start, kinks, width=1, n=14):
    """start, the kinks beyond it, then panels of geometrically growing width (width * 2^j), then inf."""
    s = mp.mpf(start)
    ks = sorted(mp.mpf(k) for k in set(kinks) if mp.mpf(k) > s)
    last = max([s] + ks)
    return [s] + ks + [last + mp.mpf(width) * (2**j - 1) for j in range(1, n + 1)] + [mp.inf]


def _mass(logf, kinks, moment=0):
    """int t^moment exp(logf(t)) dt over R (even integrand: twice the half line)."""
    return 2 * mp.quad(lambda t: t**moment * mp.exp(logf(t)), _panels(0, kinks))


def _delta(logf, kinks, eps, Delta=1):
    """int [g(t) - e^eps g(t + Delta)]_+ dt, unnormalised g = exp(logf); positive beyond t0 (log-concave g)."""
    D, e = mp.mpf(Delta), mp.mpf(eps)
    zeta = lambda t: logf(t) - logf(t + D)  # noqa: E731
    lo, hi = mp.mpf(-64), mp.mpf(64)
    while zeta(lo) > e:
        lo *= 2
    while zeta(hi) <= e:
        hi *= 2
    for _ in range(mp.mp.prec + 10):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if zeta(mid) <= e else (lo, mid)
    l0 = logf(hi)  # quad's tolerance is absolute: integrate g / g(t0), which is O(1)
    ks = list(kinks) + [k - Delta for k in kinks]
    return mp.quad(lambda t: mp.exp(logf(t) - l0) - mp.exp(e + logf(t + D) - l0), _panels(hi, ks)) * mp.exp(l0)


# ---------------------------------------------------------------------------
# C1: the "1.7 dB" of Sec V-B (K = 3 -> 5, eps = 0.3, delta = 1e-8)
# ---------------------------------------------------------------------------


def _db(x: float) -> float:
    return 10 * math.log10(x)


@pytest.mark.parametrize("K", [3, 5])
def test_c1_gaussian_variance_from_the_closed_form(K):
    """Analytic Gaussian with Delta_2 = sqrt(K): delta = Phi(D/2s - eps s/D) - e^eps Phi(-D/2s - eps s/D) = 1e-8."""
    from scipy.stats import norm

    D, eps, dl = math.sqrt(K), 0.3, 1e-8
    f = lambda s: norm.cdf(D / (2 * s) - eps * s / D) - math.exp(eps) * norm.cdf(-D / (2 * s) - eps * s / D) - dl  # noqa: E731
    s = optimize.brentq(f, 1.0, 100.0, xtol=1e-14, rtol=1e-15)
    rec = CLAIMS["kdim_db"]["K"][str(K)]["gaussian_variance"]
    assert abs(s * s / rec - 1) < 1e-12  # 3.8e-15 (K = 3), 2.3e-14 (K = 5); the record is certified (never smaller)
    assert rec >= s * s * (1 - 1e-12)


@pytest.mark.parametrize("K", [3, 5])
def test_c1_recorded_fh_optimum_is_private_by_dp_accounting(K):
    """The certified K-fold optimum (the upper end of the bracket) re-checked by Google's PLD composition."""
    pytest.importorskip("dp_accounting")
    from fhsym.integrations.dp_accounting import flipped_huber_pld

    r = CLAIMS["kdim_db"]["K"][str(K)]
    d = flipped_huber_pld(r["fh_alpha"], r["fh_gamma"], 1.0, value_discretization_interval=1e-4).self_compose(K)
    assert d.get_delta_for_epsilon(0.3) <= 1e-8
    assert abs(fhsym.FlippedHuber(r["fh_alpha"], r["fh_gamma"]).var() / r["fh_exact_upper"] - 1) < 1e-12


def test_c1_db_figures():
    """10 log10(Var_G / Var_FH) at K = 3 minus at K = 5: 2.22 dB (bracket [2.20, 2.24]), not 1.7; 1.78 with the paper's 502."""
    k = CLAIMS["kdim_db"]
    k3, k5 = k["K"]["3"], k["K"]["5"]
    assert k3["fh_exact_lower"] <= k3["fh_exact_upper"] and k5["fh_exact_lower"] <= k5["fh_exact_upper"]
    point = _db(k3["gaussian_variance"] / k3["fh_exact_upper"]) - _db(k5["gaussian_variance"] / k5["fh_exact_upper"])
    lo = _db(k3["gaussian_variance"] / k3["fh_exact_upper"]) - _db(k5["gaussian_variance"] / k5["fh_exact_lower"])
    hi = _db(k3["gaussian_variance"] / k3["fh_exact_lower"]) - _db(k5["gaussian_variance"] / k5["fh_exact_upper"])
    assert (round(point, 2), round(lo, 2), round(hi, 2)) == (2.22, 2.20, 2.24)
    assert abs(point - k["reduction_dB_point"]) < 1e-12 and abs(lo - k["reduction_dB_bracket"][0]) < 1e-12
    assert abs(hi - k["reduction_dB_bracket"][1]) < 1e-12
    assert lo > 1.7 + 0.4  # the paper's figure is outside the bracket
    with_502 = _db(k3["gaussian_variance"] / k3["fh_exact_upper"]) - _db(k5["gaussian_variance"] / 502.0)
    assert round(with_502, 2) == 1.78


# ---------------------------------------------------------------------------
# C2: Fig 6 (variance 16, Delta = 1)
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def fig6():
    p = CLAIMS["fig6"]["parameters"]
    with mp.workdps(25):
        fh = (_fh_log(p["alpha"], p["gamma"]), [-p["alpha"], 0.0, p["alpha"]])
        os_ = (_osgt_log(p["vartheta"], p["varrho"]), [0.0])
        ga = (_gauss_log(p["sigma"]), [0.0])
        Z = {k: _mass(*m) for k, m in (("fh", fh), ("osgt", os_), ("gaussian", ga))}
    return p, {"fh": fh, "osgt": os_, "gaussian": ga}, Z


def test_c2_parameters_have_variance_16_by_quadrature(fig6):
    p, mech, Z = fig6
    assert (p["sigma"], p["gamma"], p["varrho"]) == (4.0, 7.0, 7.0)  # the paper's scale parameters
    with mp.workdps(25):
        for k in ("fh", "osgt", "gaussian"):
            v = _mass(*mech[k], moment=2) / Z[k]
            assert abs(v - 16) < 1e-12, (k, v)
    # the other reading, gamma^2 = varrho^2 = 7, cannot reach variance 16 (Var <= gamma^2, resp. varrho^2)
    assert fhsym.FlippedHuber(0.0, math.sqrt(7.0)).var() < 16.0


def test_c2_fh_is_worse_at_eps_0_and_better_at_eps_1(fig6):
    _, mech, Z = fig6
    with mp.workdps(25):
        d0 = {k: _delta(*mech[k], 0) / Z[k] for k in mech}
        d1 = {k: _delta(*mech[k], 1) / Z[k] for k in mech}
    # eps = 0: the total variation distances, 0.16134 (FH) > 0.13515 (OSGT) > 0.099476 (Gaussian)
    assert d0["fh"] > d0["osgt"] > d0["gaussian"]
    assert abs(d0["fh"] - 0.16133946127203477) < 1e-14
    # eps = 1: 6.16e-15 (FH) < 3.58e-13 (OSGT) < 2.92e-6 (Gaussian)
    assert d1["fh"] < d1["osgt"] < d1["gaussian"]


@pytest.mark.parametrize("other", ["osgt", "gaussian"])
def test_c2_crossing_eps_by_quadrature(fig6, other):
    """delta_FH - delta_X changes sign (FH larger below) within 1e-10 of the recorded crossing."""
    _, mech, Z = fig6
    (root,) = CLAIMS["fig6"]["crossings"][other]["roots"]
    r = root["eps"]
    with mp.workdps(25):
        below = _delta(*mech["fh"], r - 1e-10) / Z["fh"] - _delta(*mech[other], r - 1e-10) / Z[other]
        above = _delta(*mech["fh"], r + 1e-10) / Z["fh"] - _delta(*mech[other], r + 1e-10) / Z[other]
    assert below > 0 > above
    # the crossing docs/errata.md states (C2) is the recorded one (not a literal restated here)
    stated = {"osgt": r"ε < ([0-9.]+) \(vs OSGT\)", "gaussian": r"ε < ([0-9.]+) \(vs Gaussian\)"}[other]
    m = re.search(stated, (DATA.parent.parent / "errata.md").read_text())
    assert m and abs(r - float(m.group(1))) < 1e-14


def test_c2_constant_ratio_beyond_the_last_case(fig6):
    """For eps >= (alpha + 1/2)/gamma^2 both are multiples of the N(0, 49) profile: FH/OSGT = e^-4.064 for all such eps."""
    p, mech, Z = fig6
    rec = CLAIMS["fig6"]["large_eps"]["log_ratio_fh_over_osgt"]
    with mp.workdps(25):
        for e in (0.5, 2.0):
            lr = mp.log(_delta(*mech["fh"], e) / Z["fh"]) - mp.log(_delta(*mech["osgt"], e) / Z["osgt"])
            assert abs(lr - rec) < 1e-10, (e, lr)


# ---------------------------------------------------------------------------
# C3: DP-CD, the number of releases up to which FH wins (mechanism level)
# ---------------------------------------------------------------------------


def _v_std(b: float) -> float:
    """Var FH(b, 1) by quadrature of the definition."""
    with mp.workdps(20):
        lf = _fh_log(b, 1.0)
        return float(_mass(lf, [-b, 0.0, b], moment=2) / _mass(lf, [-b, 0.0, b]))


def _gaussian_min_sigma(eps: float, delta: float, n: int) -> float:
    """Least sigma/lambda for n Gaussian releases: the n-fold composition is mu-GDP, mu = sqrt(n)/sigma (exact)."""
    from scipy.stats import norm

    f = lambda mu: norm.cdf(-eps / mu + mu / 2) - math.exp(eps) * norm.cdf(-eps / mu - mu / 2) - delta  # noqa: E731
    mu = optimize.brentq(f, 1e-3, 50.0, xtol=1e-15, rtol=1e-15)
    return math.sqrt(n) / mu


@pytest.mark.parametrize("eps", [1.0, 4.0])
def test_c3_fh_wins_up_to_the_recorded_n_by_independent_accounting(eps):
    """At the last n where FH wins (PLD), its recorded calibration is private by Google's dp_accounting PLD
    composition, and its variance is below the exact (mu-GDP) Gaussian minimum (by the recorded small margin)."""
    pytest.importorskip("dp_accounting")
    from fhsym.integrations.dp_accounting import flipped_huber_pld

    blk = DPCD["by_epsilon"][str(eps)]
    delta = DPCD["delta"]
    n = blk["mechanism_crossover"]["pld"]["fh_wins_for_all_n_up_to"]
    assert n == {1.0: 9, 4.0: 22}[eps]
    row = next(r for r in blk["mechanism_curve"] if r["n_releases"] == n)["pld"]
    b, vf = row["fh_shape"], row["fh_variance_factor"]
    g = math.sqrt(vf / _v_std(b))
    d = flipped_huber_pld(b * g, g, 1.0, value_discretization_interval=1e-4).self_compose(n).get_delta_for_epsilon(eps)
    assert d <= delta
    s = _gaussian_min_sigma(eps, delta, n)
    gain = 1 - vf / (s * s)  # vs the exact Gaussian minimum: 1.83e-4 (eps = 1, n = 9), 7.98e-5 (eps = 4, n = 22)
    assert gain > {1.0: 1.8e-4, 4.0: 7.5e-5}[eps], gain
    assert abs(row["gaussian_variance_factor"] / (s * s) - 1) < 2e-4  # fhsym's Gaussian PLD calibration: tight


# ---------------------------------------------------------------------------
# C4: Theorem 8's box corner
# ---------------------------------------------------------------------------

_GLX, _GLW = np.polynomial.legendre.leggauss(30)


def _profile_all_nu(nu, alpha, gamma, d):
    """The exact 1-D profile for every real nu (duality delta(nu) = 1 - e^nu + e^nu delta(-nu) below 0)."""
    nu, inv = np.unique(np.asarray(nu, dtype=float), return_inverse=True)  # flat parts of the loss repeat values
    dp = np.asarray(fhsym.privacy_profile(np.abs(nu), alpha, gamma, d))
    return np.where(nu >= 0, dp, -np.expm1(nu) + np.exp(nu) * dp)[inv]


def _two_fold(eps, alpha, gamma, d1, d2):
    """delta_(d1, d2)(eps) = E[delta_d2(eps - L1)], L1 = log g(T)/g(T + d1), T ~ FH: composite Gauss-Legendre on panels
    split at every kink of the integrand (t = 0, +-alpha, -d1, -d1 +- alpha, and the t where eps - L1(t) meets an
    atom of the loss of coordinate 2), width <= gamma/8, |t| <= alpha + 40 gamma."""
    T = alpha + 40 * gamma
    kinks = {-T, T, 0.0, alpha, -alpha, -d1, -d1 + alpha, -d1 - alpha}
    # and where eps - L1(t) crosses +-alpha d2/gamma^2: the loss of coordinate 2 has atoms there (flat parts of its
    # loss when d2 < alpha), so the profile delta_d2(nu) has a kink in nu
    L = lambda t: float(fhsym.privacy_loss(t, d1, alpha, gamma))  # noqa: E731  (non-decreasing in t)
    for e in np.atleast_1d(eps):
        for nu in (alpha * d2 / gamma**2, -alpha * d2 / gamma**2):
            h = lambda t, c=e - nu: L(t) - c  # noqa: E731
            if alpha > 0 and d2 < alpha and h(-T) < 0 < h(T):
                kinks.add(optimize.brentq(h, -T, T, xtol=1e-14))
    kinks = sorted(kinks)
    edges = np.concatenate([np.linspace(a, b, max(1, int(math.ceil((b - a) / (gamma / 8)))) + 1)[:-1]
                            for a, b in zip(kinks[:-1], kinks[1:])] + [np.array([T])])
    lo, hi = edges[:-1], edges[1:]
    t = ((lo + hi) / 2)[:, None] + ((hi - lo) / 2)[:, None] * _GLX[None, :]
    w = ((hi - lo) / 2)[:, None] * _GLW[None, :]
    t, w = t.ravel(), w.ravel()
    wg = w * np.asarray(fhsym.FlippedHuber(alpha, gamma).pdf(t))
    L1 = np.asarray(fhsym.privacy_loss(t, d1, alpha, gamma))
    return np.array([float(np.dot(wg, _profile_all_nu(e - L1, alpha, gamma, d2))) for e in np.atleast_1d(eps)])


def test_c4_two_fold_profile_of_random_box_vectors_is_below_the_corner():
    """K = 2 cases of the record: an independent 1-D integral of the exact profile falls inside the recorded PLD
    bracket for d, and below the corner's recorded certified lower bound wherever the record says 'verified'."""
    cases = [c for c in CLAIMS["corner"]["box_vs_corner"]["cases"] if c["K"] == 2]
    assert len(cases) >= 4
    corners = {}
    for c in cases:
        val = _two_fold(c["eps"], c["alpha"], c["gamma"], *c["d"])
        key = (c["alpha"], c["gamma"], tuple(c["eps"]))
        if key not in corners:
            corners[key] = _two_fold(c["eps"], c["alpha"], c["gamma"], 1.0, 1.0)
        corner = corners[key]
        for k in range(len(c["eps"])):
            assert c["d_lower"][k] - 1e-12 <= val[k] <= c["d_upper"][k] + 1e-12, (c["d"], c["eps"][k])
            assert c["corner_lower"][k] - 1e-12 <= corner[k] <= c["corner_upper"][k] + 1e-12
            assert val[k] <= corner[k] * (1 + 1e-9)
            if c["verified"][k]:
                assert val[k] <= c["corner_lower"][k]


def test_c4_threshold_tests_attain_the_profile():
    """Step 1 of the proof: for log-concave noise the best test is a threshold test, so
    delta(eps) = sup_c [Gbar(c - d) - e^eps Gbar(c)] equals the quadrature of [g - e^eps g(. + d)]_+."""
    for alpha, gamma, d, eps in ((1.0, 2.0, 1.0, 0.3), (3.0, 1.0, 0.5, 1.0)):
        fh = fhsym.FlippedHuber(alpha, gamma)
        res = optimize.minimize_scalar(lambda c: -(float(fh.sf(c - d)) - math.exp(eps) * float(fh.sf(c))),
                                       bounds=(-alpha - 5 * gamma, alpha + 5 * gamma), method="bounded",
                                       options={"xatol": 1e-10})
        with mp.workdps(25):
            lf = _fh_log(alpha, gamma)
            q = _delta(lf, [-alpha, 0.0, alpha], eps, d) / _mass(lf, [-alpha, 0.0, alpha])
        assert abs(-res.fun / float(q) - 1) < 1e-9
