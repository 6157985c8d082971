"""The recorded optimum intervals (fhsym/optimum/data, scripts/optimum_table.py) re-checked without an LP solver.

The file holds the paper's 12 points (with every mechanism's variance) and the frontier's 1-D grid; the checks below
run on the 12 by default and on every record behind the ``slow`` marker.

* the lower ends: the recorded dual certificates give the recorded bounds by weak duality, rebuilt here
  from the LP's definition in exact rationals (``optimum_reference.dual_bound``), and ``r >= e^eps``
  (mpmath at 60 digits); also through fhsym's own checker;
* the upper ends: the recorded noise has the recorded variance (exact rationals, from the definition)
  and is private: the hockey-stick integral of the definition, summed exactly piece by piece, is
  <= delta at lattice and non-lattice shifts d in (0, 1];
* sanity: lower <= the certified variance of every fhsym mechanism at the same (eps, delta);
  upper/lower <= 1.005 at the 12 points.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath as mp
import pytest

import fhsym
from fhsym.applications import frontier as F
from fhsym.optimum.dual import DualCertificate
from fhsym.optimum.recorded import load, recheck
from optimum_reference import dual_bound, hockey_stick, total

ALL = load()
PAPER_POINTS = {(e, d) for e in (0.1, 0.3, 1.0, 3.0) for d in (1e-5, 1e-6, 1e-8)}
RECORDS = [r for r in ALL if (r["epsilon"], r["delta"]) in PAPER_POINTS]
IDS = [f"eps{r['epsilon']:g}-delta{r['delta']:g}" for r in RECORDS]
REST = [r for r in ALL if (r["epsilon"], r["delta"]) not in PAPER_POINTS]
REST_IDS = [f"eps{r['epsilon']:g}-delta{r['delta']:g}" for r in REST]


def test_the_paper_points_and_the_frontier_grid_are_recorded():
    got = {(r["epsilon"], r["delta"]) for r in ALL}
    assert len(got) == len(ALL)  # one record per point
    assert PAPER_POINTS <= got and all("mechanisms" in r for r in RECORDS)
    assert got <= {(e, d) for e in F.EPSILONS for d in F.DELTAS} | PAPER_POINTS
    assert all(r["sensitivity"] == 1.0 for r in ALL)


@pytest.mark.parametrize("rec", RECORDS, ids=IDS)
def test_dual_gives_the_recorded_lower_bound(rec):
    dual = rec["dual"]
    assert (dual["epsilon"], dual["delta"]) == (rec["epsilon"], rec["delta"])
    with mp.workdps(60):
        assert mp.mpf(dual["r"]) > mp.exp(mp.mpf(rec["epsilon"]))  # r >= e^eps (strict at these eps)
    lp = dual_bound(dual)  # independent reconstruction
    assert lp == DualCertificate.from_json(dual).lp_bound()  # fhsym's checker agrees exactly
    bound = lp - Fraction(1, 4 * dual["m"] ** 2)
    lower = rec["lower"]
    assert Fraction(lower) <= bound < Fraction(math.nextafter(lower, math.inf))  # rounded down, by one step


@pytest.mark.parametrize("rec", RECORDS, ids=IDS)
def test_noise_variance_is_the_recorded_upper_bound(rec):
    w, n = Fraction(rec["noise"]["width"]), rec["noise"]["weights"]
    assert w == Fraction(1, rec["bins"])
    var = w * w * (Fraction(2 * sum(k * k * v for k, v in enumerate(n)), total(n)) + Fraction(1, 12))
    upper = rec["upper"]
    assert Fraction(math.nextafter(upper, -math.inf)) < var <= Fraction(upper)  # rounded up, by one step
    assert recheck(rec).upper == upper and recheck(rec).lower == rec["lower"]


def _shifts(rec):
    """Lattice shifts j w (the first, a middle and the last j <= m) and non-lattice ones in (0, 1]."""
    m = rec["bins"]
    w = 1.0 / m
    lattice = sorted({w, (m // 2) * w if m > 1 else w, 1.0})
    return lattice + [0.37, 1.0 - w / 3.0, 0.5 * w, (m - 0.5) * w]


@pytest.mark.parametrize("rec", RECORDS, ids=IDS)
def test_noise_is_private_by_the_definition(rec):
    w, n = rec["noise"]["width"], rec["noise"]["weights"]
    for d in _shifts(rec):
        hs = hockey_stick(w, n, rec["epsilon"], d)
        assert hs <= rec["delta"], (d, hs)
    assert rec["proven_delta"] <= rec["delta"]


@pytest.mark.parametrize("rec", [r for r in RECORDS if r["bins"] <= 8 and r["epsilon"] >= 0.3], ids=str)
def test_noise_is_private_at_every_lattice_shift(rec):
    # the profile is piecewise linear between lattice shifts: these points decide sup_{d <= 1}
    w, n = rec["noise"]["width"], rec["noise"]["weights"]
    for j in range(1, rec["bins"] + 1):
        assert hockey_stick(w, n, rec["epsilon"], j * w) <= rec["delta"]


MECHANISMS = ("flipped_huber", "gaussian", "laplace", "truncated_laplace", "staircase", "osgt")


@pytest.mark.parametrize("rec", RECORDS, ids=IDS)
def test_lower_bound_is_below_every_mechanism(rec):
    for mech in MECHANISMS:
        v = fhsym.calibrate(rec["epsilon"], rec["delta"], mechanism=mech).variance
        assert rec["lower"] <= v, mech
    # the optimum is no worse than the best of them (the staircase is within 0.3 % of it)
    best = min(rec["mechanisms"].values())
    assert rec["upper"] <= best * 1.003


@pytest.mark.parametrize("rec", RECORDS, ids=IDS)
def test_interval_is_tight(rec):
    assert rec["lower"] <= rec["upper"] <= 1.005 * rec["lower"]
    assert rec["upper"] / rec["lower"] == pytest.approx(rec["ratio"], rel=1e-15)


@pytest.mark.slow  # the independent re-check of every other record (~0.1 s each)
@pytest.mark.parametrize("rec", REST, ids=REST_IDS)
def test_every_other_record_re_checks_independently(rec):
    lp = dual_bound(rec["dual"])
    assert Fraction(rec["lower"]) <= lp - Fraction(1, 4 * rec["dual"]["m"] ** 2)
    w, n = Fraction(rec["noise"]["width"]), rec["noise"]["weights"]
    var = w * w * (Fraction(2 * sum(k * k * v for k, v in enumerate(n)), total(n)) + Fraction(1, 12))
    assert var <= Fraction(rec["upper"]) and rec["lower"] <= rec["upper"]
    for d in (1.0, 0.37, 1.0 - float(w) / 3.0):
        assert hockey_stick(float(w), n, rec["epsilon"], d) <= rec["delta"]



def _eps10():
    (rec,) = [r for r in ALL if (r["epsilon"], r["delta"]) == (10.0, 1e-5)]
    return rec


def test_the_eps_10_record_is_certified_by_the_capped_bound():
    """(10, 1e-5) on 128 bins (issue 31): the uncapped bound of its dual (Theorem 4) loses a quarter of the LP value to
    a tolerance-sized positive dual times e^10; the capped one (Corollary 4b) gives the recorded lower end, and the
    record's own interval is within 1.025 (1.103 on 64 bins).  The independent rebuild: the slow test below.  The
    figures docs/optimum.md states for it are asserted here."""
    from dataclasses import replace

    rec = _eps10()
    assert rec["bins"] == 128 and rec["dual"].get("cap") is not None
    dual = DualCertificate.from_json(rec["dual"])
    plain, capped = replace(dual, cap=None).lp_bound(), dual.lp_bound()
    assert plain < Fraction(3, 4) * capped
    assert recheck(rec).lower == rec["lower"] and rec["upper"] / rec["lower"] <= 1.025
    # the figures docs/optimum.md gives (Corollary 4b): one row dual above zero, u = 2.08e-8 on (98, -3); r u = 4.6e-4 on
    # q_101, whose cap is U m^2 / 101^2 = 1.4e-3; L 27 % below L_U (0.000614 against 0.000843); L_U 0.037 % below c.x
    # of the recorded noise's masses (a feasible point: support within M, private at delta)
    (u, (j, k)), = [(v, key) for key, v in dual.u.items() if v > 0]
    assert (j, k) == (98, -3) and 2.05e-8 < u < 2.1e-8
    assert 4.55e-4 < dual.r * u < 4.65e-4 and 1.35e-3 < dual.cap * dual.m ** 2 / 101 ** 2 < 1.45e-3
    assert 0.6135e-3 < plain < 0.6140e-3 and 0.8425e-3 < capped < 0.8430e-3 and 0.27 < 1 - plain / capped < 0.275
    n, w = rec["noise"]["weights"], Fraction(rec["noise"]["width"])
    assert w == Fraction(1, dual.m) and len(n) - 1 <= dual.M and rec["proven_delta"] <= rec["delta"]
    cost = w * w * Fraction(2 * sum(i * i * v for i, v in enumerate(n)), total(n))  # the LP's objective at the noise
    assert 0.00036 < 1 - capped / cost < 0.00038


@pytest.mark.slow  # two Fraction reconstructions of a 33,000-row dual (~20 s)
def test_the_eps_10_record_re_checks_independently():
    rec = _eps10()
    dual = rec["dual"]
    w2 = Fraction(1, 4 * dual["m"] ** 2)
    capped = dual_bound(dual) - w2
    assert Fraction(rec["lower"]) <= capped < Fraction(math.nextafter(rec["lower"], math.inf))
    assert dual_bound({**dual, "cap": None}) - w2 < Fraction(3, 4) * capped


def test_the_eps_8_record_is_within_the_width_target():
    """(8, 1e-5) recomputed on 256 bins (issue 31; 1,888 s): its dual and the 64-bin solve's noise (the lower upper end,
    ``recorded.best_of``) re-check to an interval within 1.002 (1.00203 on 128 bins)."""
    (rec,) = [r for r in ALL if (r["epsilon"], r["delta"]) == (8.0, 1e-5)]
    chk = recheck(rec)
    assert rec["bins"] == 256 and rec["noise_bins"] == 64
    assert (chk.lower, chk.upper) == (rec["lower"], rec["upper"]) and chk.proven_delta <= rec["delta"]
    assert rec["upper"] / rec["lower"] <= 1.001
