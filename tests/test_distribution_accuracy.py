"""Accuracy of fhsym.FlippedHuber against the mpmath ground truth.

Ground truth: ``tests/data/fh_reference.json``, written by
``tests/data/make_reference_data.py`` from ``proofs/reference.py`` (quadrature
of the definition exp(-rho_alpha(t)/gamma^2), dps 40 confirmed at dps 55,
stored with 30 digits), plus a handful of live mpmath evaluations so that a
stale data file or a data/harness mismatch is caught.

Error metric: ``err = |actual - expected| / max(|expected|, 1e-300)`` computed
in mpmath from the exact float returned and the 30-digit reference.  So values
whose true magnitude is below 1e-300 (cdf/sf/pdf deep in the tails, which
underflow or are subnormal in float64; ``logcdf`` just below 0 at far positive
x) are held to an absolute error of 1e-312, while their *logs* are compared at
full relative accuracy in the log* rows.

Tolerance table (relative error, per function):

================================  =======  ====================================
function                          rtol     reason
================================  =======  ====================================
pdf, logpdf                       1e-12    contract
cdf, sf, logcdf, logsf            1e-12    contract (incl. far tails, |t| = alpha)
ppf, isf                          1e-12    contract (q from 1e-300 to 1-1e-12)
var, std                          1e-12    contract
fisher_information, nfi           1e-12    contract
log_omega, omega, kappa           1e-12    contract (omega: OverflowError
                                           required where it exceeds float max)
mgf, log_mgf                      1e-12    contract (mgf compared where finite)
mean                              exact 0  symmetric density
================================  =======  ====================================

No row is looser than the contract.  Sweep: alpha/gamma in {0, 1e-6, 1e-3,
0.1, 1, 3, 10, 37, 38, 100, 1e3, 1e4} x gamma in {1e-6, 1, 1e6}; see the data
README for the points.  Every test reports the worst relative error and where
it occurs (in the failure message, and printed: run with ``-s`` to see them).
"""

from __future__ import annotations

import functools
import json
import math
from collections import defaultdict
from pathlib import Path

import mpmath
import numpy as np
import pytest
from mpmath import mp, mpf

from proofs import reference as R

import fhsym  # noqa: E402

DATA = Path(__file__).parent / "data" / "fh_reference.json"
FLOOR = mpf("1e-300")
LOG_FLOAT_MAX = math.log(np.finfo(float).max)

RTOL = {
    "pdf": 1e-12,
    "logpdf": 1e-12,
    "cdf": 1e-12,
    "sf": 1e-12,
    "logcdf": 1e-12,
    "logsf": 1e-12,
    "ppf": 1e-12,
    "isf": 1e-12,
    "var": 1e-12,
    "std": 1e-12,
    "fisher_information": 1e-12,
    "nfi": 1e-12,
    "log_omega": 1e-12,
    "omega": 1e-12,
    "kappa": 1e-12,
    "log_kappa": 1e-12,
    "tail_mass": 1e-12,
    "mgf": 1e-12,
    "log_mgf": 1e-12,
}

B_SWEEP = {0.0, 1e-6, 1e-3, 0.1, 1.0, 3.0, 10.0, 37.0, 38.0, 100.0, 1e3, 1e4}
GAMMA_SWEEP = {1e-6, 1.0, 1e6}


# ---------------------------------------------------------------- utilities


@functools.lru_cache(maxsize=1)
def data() -> dict:
    if not DATA.exists():
        pytest.fail(f"{DATA} is missing: run tests/data/make_reference_data.py")
    return json.loads(DATA.read_text())


def rel_err(actual, expected) -> mpf:
    """|a - e| / max(|e|, 1e-300) in mpmath (a is the exact float returned)."""
    with mp.workdps(40):
        e = mpf(expected)
        a = float(actual)
        if math.isnan(a):
            return mp.inf
        if mpmath.isinf(e) or math.isinf(a):
            return mpf(0) if a == e else mp.inf
        return abs(mpf(a) - e) / max(abs(e), FLOOR)


class Worst:
    """Collects the worst error of one function and formats the report."""

    def __init__(self, name: str):
        self.name = name
        self.rows = []  # (err, where)
        self.n = 0

    def add(self, err, where: str) -> None:
        self.n += 1
        self.rows.append((err, where))

    def check(self, tol: float) -> None:
        assert self.n > 0, f"{self.name}: nothing compared"
        self.rows.sort(key=lambda r: r[0], reverse=True)
        worst, where = self.rows[0]
        summary = f"{self.name}: worst rel err {mpmath.nstr(worst, 3)} at {where} over {self.n} points (rtol {tol:g})"
        print("\n" + summary)
        bad = [r for r in self.rows if not r[0] <= tol]
        if bad:
            lines = "\n  ".join(f"{mpmath.nstr(e, 3)} at {w}" for e, w in bad[:12])
            pytest.fail(f"{summary}\n{len(bad)} points exceed rtol; the worst:\n  {lines}", pytrace=False)


def by_params(table: str) -> dict:
    groups = defaultdict(list)
    for rec in data()[table]:
        groups[(rec["alpha"], rec["gamma"])].append(rec)
    return groups


def make(alpha: str, gamma: str):
    return fhsym.FlippedHuber(alpha=float(alpha), gamma=float(gamma))


def where(rec: dict, key: str) -> str:
    a, g = float(rec["alpha"]), float(rec["gamma"])
    return f"alpha={rec['alpha']} gamma={rec['gamma']} (b={a / g:.6g}) {key}={rec[key]}"


# ---------------------------------------------------------- data integrity


def test_reference_data_metadata_and_coverage():
    d = data()
    assert d["dps"] >= 40 and d["confirm_dps"] >= d["dps"] + 10
    assert d["worst_agree_digits"] >= 35
    assert min(r["agree_digits"] for t in ("pointwise", "quantiles", "moments", "mgf") for r in d[t]) >= 35
    params = {(float(r["alpha"]), float(r["gamma"])) for r in d["moments"]}
    assert {g for _, g in params} == GAMMA_SWEEP
    bs = {a / g for a, g in params}
    for b in B_SWEEP:
        assert any(math.isclose(b, x, rel_tol=1e-9, abs_tol=0) or b == x for x in bs), b
    # the kink points |t| = alpha are present for every alpha > 0
    for (a, g), recs in by_params("pointwise").items():
        xs = {float(r["x"]) for r in recs}
        if float(a) > 0:
            assert float(a) in xs and -float(a) in xs
    qs = {float(r["q"]) for r in d["quantiles"]}
    assert {1e-300, 1e-100, 1e-16, 0.5, 1 - 1e-12} <= qs


LIVE_POINTS = [  # (table, index) spread over the data: checked against the harness live
    ("pointwise", 0),
    ("pointwise", 137),
    ("pointwise", 555),
    ("pointwise", -1),
    ("quantiles", 3),
    ("quantiles", -2),
    ("moments", 20),
    ("mgf", 40),
]


@pytest.mark.parametrize("table,index", LIVE_POINTS)
def test_reference_data_is_current(table, index):
    """Recompute a few stored records with the harness (dps 30) so a stale data
    file (or a changed harness) is caught."""
    recs = data()[table]
    rec = recs[index % len(recs)]
    a, g = float(rec["alpha"]), float(rec["gamma"])
    if table == "pointwise":
        live = R.tail_bundle(float(rec["x"]), a, g, dps=30)
    elif table == "quantiles":
        x = R.isf(float(rec["q"]), a, g, dps=30)
        live = {"isf": x, "ppf": R.ppf(float(rec["q"]), a, g, dps=30)}
    elif table == "moments":
        live = {"variance": R.variance(a, g, dps=30), "log_omega": R.log_omega(a, g, dps=30), "kappa": R.kappa(a, g, dps=30)}
    else:
        live = {"log_mgf": R.log_mgf(float(rec["s"]), a, g, dps=30)}
    for k, v in live.items():
        with mp.workdps(40):
            stored = mpf(rec[k])
        assert R.agree_digits(v, stored) >= 25 or (v == 0 and stored == 0), (table, k, rec)


# ------------------------------------------------------------- pointwise


POINTWISE = ["pdf", "logpdf", "cdf", "sf", "logcdf", "logsf"]


@pytest.mark.parametrize("name", POINTWISE)
def test_pointwise_against_reference(name):
    worst = Worst(name)
    for (a, g), recs in by_params("pointwise").items():
        fh = make(a, g)
        x = np.array([float(r["x"]) for r in recs])
        got = np.asarray(getattr(fh, name)(x), dtype=float)
        assert got.shape == x.shape
        for r, v in zip(recs, got):
            worst.add(rel_err(v, r[name]), where(r, "x"))
    worst.check(RTOL[name])


@pytest.mark.parametrize("name", POINTWISE)
def test_pointwise_scalar_matches_vector(name):
    """Scalar calls return 0-d results equal to the vectorised ones."""
    recs = by_params("pointwise")[("1.0", "1.0")]
    fh = make("1.0", "1.0")
    xs = np.array([float(r["x"]) for r in recs])
    vec = np.asarray(getattr(fh, name)(xs), dtype=float)
    for x, v in zip(xs, vec):
        s = getattr(fh, name)(float(x))
        assert np.ndim(s) == 0
        assert float(s) == v or (math.isnan(v) and math.isnan(float(s)))


# -------------------------------------------------------------- quantiles


@pytest.mark.parametrize("name", ["ppf", "isf"])
def test_quantiles_against_reference(name):
    worst = Worst(name)
    for (a, g), recs in by_params("quantiles").items():
        fh = make(a, g)
        q = np.array([float(r["q"]) for r in recs])
        got = np.asarray(getattr(fh, name)(q), dtype=float)
        for r, v in zip(recs, got):
            worst.add(rel_err(v, r[name]), where(r, "q"))
    worst.check(RTOL[name])


def test_quantile_end_points():
    fh = fhsym.FlippedHuber(alpha=1.0, gamma=2.0)
    assert fh.ppf(0.0) == -np.inf and fh.ppf(1.0) == np.inf
    assert fh.isf(0.0) == np.inf and fh.isf(1.0) == -np.inf
    assert fh.ppf(0.5) == 0.0 and fh.isf(0.5) == 0.0


# ------------------------------------------------------- moments and omega


def _moment_cases():
    return [(r["alpha"], r["gamma"], r) for r in data()["moments"]]


def test_moments_against_reference():
    worsts = {k: Worst(k) for k in ("var", "std", "fisher_information", "nfi")}
    for a, g, r in _moment_cases():
        fh = make(a, g)
        w = where(r, "alpha")
        worsts["var"].add(rel_err(fh.var(), r["variance"]), w)
        with mp.workdps(40):
            worsts["std"].add(rel_err(fh.std(), mp.sqrt(mpf(r["variance"]))), w)
        worsts["fisher_information"].add(rel_err(fh.fisher_information(), r["fisher_information"]), w)
        worsts["nfi"].add(rel_err(fh.nfi(), r["nfi"]), w)
    failures = []
    for k, wst in worsts.items():
        try:
            wst.check(RTOL[k])
        except pytest.fail.Exception as exc:  # report every function, not only the first
            failures.append(str(exc))
    if failures:
        pytest.fail("\n".join(failures), pytrace=False)


def test_mean_is_zero():
    for a, g, _ in _moment_cases():
        assert make(a, g).mean() == 0.0


def test_omega_kappa_against_reference():
    """log_omega, omega, kappa, log_kappa against quadrature (tabulated); tail_mass = P(T > alpha) live."""
    worsts = {k: Worst(k) for k in ("log_omega", "omega", "kappa", "log_kappa", "tail_mass")}
    for a, g, r in _moment_cases():
        fh = make(a, g)
        w = where(r, "alpha")
        worsts["log_omega"].add(rel_err(fh.log_omega(), r["log_omega"]), w)
        worsts["kappa"].add(rel_err(fh.kappa(), r["kappa"]), w)
        with mp.workdps(40):
            worsts["log_kappa"].add(rel_err(fh.log_kappa(), mp.log(mpf(r["kappa"]))), w)
        worsts["tail_mass"].add(rel_err(fh.tail_mass(), R.tail_bundle(a, a, g, dps=30)["sf"]), w)
        with mp.workdps(40):
            lo = mpf(r["log_omega"])
            omega = mp.exp(lo)
        if lo < LOG_FLOAT_MAX - 1e-9:
            worsts["omega"].add(rel_err(fh.omega(), omega), w)
        elif lo > LOG_FLOAT_MAX + 1e-9:
            with pytest.raises(OverflowError):
                fh.omega()
    failures = []
    for k, wst in worsts.items():
        try:
            wst.check(RTOL[k])
        except pytest.fail.Exception as exc:
            failures.append(str(exc))
    if failures:
        pytest.fail("\n".join(failures), pytrace=False)


# ---------------------------------------------------------------------- mgf


def test_mgf_against_reference():
    worsts = {"log_mgf": Worst("log_mgf"), "mgf": Worst("mgf")}
    for (a, g), recs in by_params("mgf").items():
        fh = make(a, g)
        s = np.array([float(r["s"]) for r in recs])
        got = np.asarray(fh.log_mgf(s), dtype=float)
        for r, v in zip(recs, got):
            w = where(r, "s") + f" (gamma*s={float(r['s']) * float(g):.6g})"
            worsts["log_mgf"].add(rel_err(v, r["log_mgf"]), w)
            lm = float(mpf(r["log_mgf"]))
            if lm < LOG_FLOAT_MAX - 1e-9:
                worsts["mgf"].add(rel_err(fh.mgf(float(r["s"])), r["mgf"]), w)
            else:
                try:
                    m = fh.mgf(float(r["s"]))
                except OverflowError:
                    continue
                assert m == np.inf, w
    failures = []
    for k, wst in worsts.items():
        try:
            wst.check(RTOL[k])
        except pytest.fail.Exception as exc:
            failures.append(str(exc))
    if failures:
        pytest.fail("\n".join(failures), pytrace=False)


# ---------------------------------------------------- live (off-table) points


LIVE_PARAMS = [(0.7, 2.3), (0.0, 0.05), (12.5, 1e-3), (3e3, 2.0)]


@pytest.mark.parametrize("alpha,gamma", LIVE_PARAMS)
def test_live_points_against_harness(alpha, gamma):
    """A few parameter sets and points that are not in the table, straight from
    the harness (dps 30): catches errors between the tabulated points."""
    fh = fhsym.FlippedHuber(alpha=alpha, gamma=gamma)
    s_pts = [-41.0, -3.3, -1.0001, -0.37, 0.0123, 0.999, 2.2, 17.0]
    xs = [s * gamma for s in s_pts] + [alpha * 0.999, -alpha * 1.001]
    worst = Worst(f"live alpha={alpha} gamma={gamma}")
    for x in xs:
        ref = R.tail_bundle(x, alpha, gamma, dps=30)
        for name in POINTWISE:
            worst.add(rel_err(getattr(fh, name)(x), ref[name]), f"{name}(x={x!r})")
    for q in [1e-250, 3e-7, 0.31, 0.77, 1 - 1e-9]:
        ref = R.ppf(q, alpha, gamma, dps=30)
        worst.add(rel_err(fh.ppf(q), ref), f"ppf(q={q!r})")
    worst.add(rel_err(fh.var(), R.variance(alpha, gamma, dps=30)), "var")
    worst.add(rel_err(fh.fisher_information(), R.fisher_information(alpha, gamma, dps=30)), "fisher_information")
    s = 0.8 / gamma
    worst.add(rel_err(fh.log_mgf(s), R.log_mgf(s, alpha, gamma, dps=30)), f"log_mgf(s={s!r})")
    worst.check(1e-12)
