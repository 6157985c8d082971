"""fhsym.optimal_variance, calibrate(mechanism="piecewise_uniform") and advise answer from their data files (issue 31
items 2 and 4), and only after re-checking them.

References are independent of the code under test: the lower end is rebuilt from the recorded dual by
``optimum_reference.dual_bound`` (the LP's definition in exact rationals), the noise's privacy by the hockey-stick
integral of its density summed exactly (``optimum_reference.hockey_stick``), the variance from the weights by the
formula of the definition; the LP solved now (``recorded=False``) must give an interval that overlaps the recorded
one (both are proven bounds on the same V*).  Tampered data files must not be served.
"""

from __future__ import annotations

import gzip
import json
import math
import os
from fractions import Fraction

import pytest

import fhsym
from fhsym.applications import advise as A
from fhsym.applications import frontier as F
from fhsym.noise import Staircase
from fhsym.optimum import recorded as R
from fhsym.optimum import DualCertificate
from fhsym.optimum.api import _recorded, staircase_variance_up
from fhsym.noise.staircase import staircase_optimal_gamma
from optimum_reference import dual_bound, dual_bounds, hockey_stick, total


def _reference_interval(rec, sens=1.0):
    """(lower, exact variance of the recorded noise) at sensitivity ``sens`` from the record, by the references."""
    m = rec["dual"]["m"]
    lower = (dual_bound(rec["dual"]) - Fraction(1, 4 * m * m)) * Fraction(sens) ** 2
    w, n = Fraction(rec["noise"]["width"]) * Fraction(sens), rec["noise"]["weights"]
    var = w * w * (Fraction(2 * sum(k * k * v for k, v in enumerate(n)), total(n)) + Fraction(1, 12))
    return lower, var


@pytest.mark.parametrize("eps, delta", [(0.3, 1e-5), (1.0, 1e-6), (3.0, 1e-8)])
def test_a_recorded_point_is_answered_from_its_record(eps, delta):
    iv = fhsym.optimal_variance(eps, delta)
    rec = R.find(eps, delta)
    assert iv.source.startswith("recorded") and rec is not None
    lower, var = _reference_interval(rec)
    assert Fraction(iv.lower) <= lower < Fraction(math.nextafter(iv.lower, math.inf))
    assert iv.primal.weights == tuple(rec["noise"]["weights"]) and Fraction(iv.primal_upper) >= var
    # the upper end is the best certified law: the recorded noise, the staircase or the truncated staircase
    st = staircase_variance_up(Staircase(eps, 1.0, staircase_optimal_gamma(eps)))
    ts = fhsym.calibrate(eps, delta, mechanism="truncated_staircase").mechanism
    assert ts.worst_profile_enclosure(eps, 1.0).upper <= delta
    assert iv.upper == min(iv.primal_upper, st, ts.variance_upper()) and iv.lower <= iv.upper
    for d in (1.0, 0.5, 0.37):
        assert hockey_stick(iv.primal.width, iv.primal.weights, eps, d) <= delta


def test_the_recorded_and_the_computed_interval_bound_the_same_optimum():
    """Both are proven: each lower end is below the other's upper end (a wrong record would separate them)."""
    rec = fhsym.optimal_variance(0.3, 1e-5)
    now = fhsym.optimal_variance(0.3, 1e-5, recorded=False)
    assert rec.source.startswith("recorded") and now.source == "computed"
    assert rec.lower <= now.upper and now.lower <= rec.upper
    assert rec.ratio < 1.001 and now.ratio < 1.001


def test_a_recorded_point_scales_with_the_sensitivity():
    eps, delta, sens = 1.0, 1e-6, 3.0
    iv = fhsym.optimal_variance(eps, delta, sensitivity=sens)
    rec = R.find(eps, delta)
    lower, var = _reference_interval(rec, sens)
    assert iv.source.startswith("recorded")
    assert Fraction(iv.lower) <= lower and iv.lower == pytest.approx(float(lower), rel=1e-15)
    assert iv.primal.width == sens / rec["bins"] and Fraction(iv.primal_upper) >= var
    assert iv.proven_delta <= delta
    assert hockey_stick(iv.primal.width, iv.primal.weights, eps, sens) <= delta


def test_piecewise_uniform_calibration_comes_from_the_record():
    cal = fhsym.calibrate(1.0, 1e-6, mechanism="piecewise_uniform")
    rec = R.find(1.0, 1e-6)
    assert cal.mechanism.weights == tuple(rec["noise"]["weights"]) and cal.mechanism.width == rec["noise"]["width"]
    assert cal.achieved_delta <= 1e-6 and fhsym.verify_certificate(cal.certificate)
    assert Fraction(cal.variance) >= _reference_interval(rec)[1]


def _write(path, records):
    path.write_bytes(R.dumps(records, {"description": "test"}))


def test_a_record_whose_noise_is_not_private_is_not_served(tmp_path, monkeypatch):
    rec = R.find(0.3, 1e-5)
    bad = dict(rec, noise={"width": rec["noise"]["width"], "weights": [1] + [0] * 3})  # one bin: not private
    bad["lower"] = 1e9  # a recorded number is never used as it stands: both ends are re-derived
    path = tmp_path / "optimum.json.gz"
    _write(path, [bad])
    monkeypatch.setattr(R, "DATA", path)
    assert R.find(0.3, 1e-5)["lower"] == 1e9
    assert _recorded(0.3, 1e-5, 1.0) is None  # what calibrate(mechanism="piecewise_uniform") asks first
    iv = fhsym.optimal_variance(0.3, 1e-5)  # so the LP answers
    assert iv.source == "computed" and iv.proven_delta <= 1e-5 and iv.lower < 23


def test_a_record_with_an_inflated_lower_end_answers_the_re_derived_one(tmp_path, monkeypatch):
    rec = R.find(1.0, 1e-5)
    path = tmp_path / "optimum.json.gz"
    _write(path, [dict(rec, lower=rec["lower"] * 1.5, upper=rec["upper"] / 2)])
    monkeypatch.setattr(R, "DATA", path)
    iv = fhsym.optimal_variance(1.0, 1e-5)
    assert iv.source.startswith("recorded")
    lower, var = _reference_interval(rec)
    assert Fraction(iv.lower) <= lower and iv.lower == pytest.approx(float(lower), rel=1e-15)
    assert Fraction(iv.primal_upper) >= var


def test_a_malformed_data_file_falls_back_to_the_lp(tmp_path, monkeypatch):
    path = tmp_path / "optimum.json.gz"
    path.write_bytes(gzip.compress(b'{"format": "something else"}\n'))
    monkeypatch.setattr(R, "DATA", path)
    with pytest.raises(ValueError, match="not an optimum data file"):
        R.load()
    with pytest.raises(ValueError, match="not an optimum data file"):
        R.checked(0.3, 1e-5)  # optimal_variance's lookup turns this into "no record": the LP answers
    assert _recorded(0.3, 1e-5, 1.0) is None and _recorded(1.0, 1e-6, 1.0) is None


def test_recorded_must_be_a_bool():
    with pytest.raises(ValueError, match="recorded must be None, True or False"):
        fhsym.optimal_variance(1.0, 1e-6, recorded="yes")


def test_the_record_format_keys_lines_by_epsilon_and_delta(tmp_path):
    recs = [R.find(1.0, 1e-6), R.find(0.3, 1e-5)]
    path = tmp_path / "o.json.gz"
    _write(path, recs)
    assert R.recorded_points(path) == ((0.3, 1e-5), (1.0, 1e-6))
    assert R.find(1.0, 1e-6, path) == recs[0] and R.find(1.0, 1e-7, path) is None
    lines = gzip.decompress(path.read_bytes()).decode().splitlines()
    assert json.loads(lines[0])["format"] == R.FORMAT and lines[1].startswith('{"epsilon":0.3,"delta":1e-05,')


def test_the_sweep_task_computes_a_record_that_re_checks():
    task = F.optimum_grid_task(1.0, 0.5)
    assert task.func == "fhsym.optimum.api:compute_record" and task.params == {"epsilon": 1.0, "delta": 0.5}
    from fhsym.applications.sweeps import execute

    out = execute(task.func, dict(task.params))
    rec = out["result"]
    lower, var = _reference_interval(rec)
    assert Fraction(rec["lower"]) <= lower and Fraction(rec["upper"]) >= var and rec["proven_delta"] <= 0.5


def test_advise_reuses_a_verified_record_and_re_verifies_a_changed_one(tmp_path):
    """The memo of verified records is keyed by their content: a forged certificate under the same call is refused."""
    call = F.calibration_call(F.Gaussian.name, 0.3, 1e-6)
    cal = fhsym.calibrate(**call)
    rec = {"call": call, "variance": cal.variance, "parameters": {"sigma": cal.sigma}, "method": cal.method,
           "achieved_delta": cal.achieved_delta, "seconds": 0.0, "certificate": cal.certificate.to_dict()}
    path = tmp_path / "frontier.json"
    path.write_text(json.dumps({"calibrations": {A.call_key(call): rec}}))
    first = fhsym.advise(0.3, 1e-6, data=path, candidates=(F.Gaussian.name,))
    again = fhsym.advise(0.3, 1e-6, data=path, candidates=(F.Gaussian.name,))
    assert first.best.source.startswith("frontier data") and again.best.calibration is first.best.calibration
    forged = json.loads(json.dumps(rec))
    forged["certificate"]["parameters"]["sigma"] = cal.sigma * 0.5  # half the noise, same recorded bound
    path.write_text(json.dumps({"calibrations": {A.call_key(call): forged}}))
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    adv = fhsym.advise(0.3, 1e-6, data=path, candidates=(F.Gaussian.name,))
    assert adv.best.source == "computed" and adv.best.variance == pytest.approx(cal.variance, rel=1e-12)


def _check_combined(iv, eps, delta):
    """iv's noise is the least-variance recorded noise at eps with a recorded delta <= delta, private at delta; its
    lower end is the reference bound of the recorded dual it names, evaluated at delta."""
    mine = [R.find(eps, d) for d in (1e-5, 1e-6, 1e-8, 1e-10) if d <= delta and R.find(eps, d) is not None]
    variances = {_reference_interval(r)[1]: r for r in mine}
    best = variances[min(variances)]
    assert iv.primal.weights == tuple(best["noise"]["weights"]) and iv.proven_delta <= delta
    assert hockey_stick(iv.primal.width, iv.primal.weights, eps, 1.0) <= delta
    assert iv.dual.delta == delta and iv.dual.epsilon == eps
    src = [r for d in (1e-5, 1e-6, 1e-8, 1e-10) for r in [R.find(eps, d)] if r and r["dual"]["y"] == iv.dual.y][0]
    ref = dual_bound(dict(src["dual"], delta=delta)) - Fraction(1, 4 * src["dual"]["m"] ** 2)
    assert Fraction(iv.lower) <= ref < Fraction(math.nextafter(iv.lower, math.inf))
    assert iv.lower <= iv.upper
    return src


@pytest.mark.parametrize("eps, delta", [(1.0, 1e-7), (0.3, 3e-6)])
def test_a_point_near_the_data_is_answered_from_its_neighbours(eps, delta):
    """Same epsilon, another delta: a recorded noise below (private at the smaller delta, so at delta) and a
    recorded dual evaluated at delta; the lower end is rebuilt by the reference from that dual at delta."""
    iv = fhsym.optimal_variance(eps, delta)
    assert iv.source.startswith("recorded near") and iv.ratio <= 1.002
    _check_combined(iv, eps, delta)


def test_a_wide_recorded_point_borrows_a_finer_dual_from_a_larger_delta():
    """(4, 1e-8) was solved on 32 bins per unit, (4, 1e-6) on 64: V* decreases in delta, and the finer dual
    evaluated at 1e-8 proves a higher lower end than the record's own."""
    iv = fhsym.optimal_variance(4.0, 1e-8)
    own = R.find(4.0, 1e-8)
    assert iv.source.startswith("recorded:") and iv.lower > own["lower"] and iv.ratio <= 1.002 < own["ratio"]
    src = _check_combined(iv, 4.0, 1e-8)
    assert src["delta"] > 1e-8 and src["bins"] > own["bins"]


def test_a_point_whose_neighbours_are_too_far_apart_is_solved():
    """eps = 10 is recorded wider than NEAR (the records' grids there: 128 bins per unit at delta 1e-5, 64 at 1e-6, 1e-8
    and 1e-10): another delta there is not answered from the data (optimal_variance would solve the LP; not run
    here, ~20 s)."""
    from fhsym.optimum.api import NEAR, _near

    assert [R.find(10.0, d)["bins"] for d in (1e-5, 1e-6, 1e-8, 1e-10)] == [128, 64, 64, 64]
    near = _near(10.0, 2e-6, 1.0)
    assert near is not None  # the neighbours exist ...
    st = staircase_variance_up(Staircase(10.0, 1.0, staircase_optimal_gamma(10.0)))
    best_up = min(float(near[0].exact_variance()), st)
    assert best_up > (1 + NEAR) * float(near[2])  # ... but give a wide interval


def test_the_integer_dual_check_is_the_fraction_one():
    """DualCertificate.lp_bound (integers scaled by a power of two) equals the Fraction route exactly, also for
    perturbed duals whose clipping and signs differ from an LP optimum's, capped and uncapped."""
    import random
    from dataclasses import replace

    from fhsym.optimum.solve import solve_lp

    dual = solve_lp(1.0, 1e-6, m=4, M=40).dual
    assert dual.cap is not None
    rng = random.Random(31)
    for _ in range(20):
        u = {key: v * rng.choice([0.0, 0.5, 1.0, 3.0, -1.0]) + rng.choice([0.0, 1e-3, -1e-3]) for key, v in dual.u.items()}
        z = tuple(v * rng.choice([1.0, 2.0, -1.0]) for v in dual.z)
        ue = tuple(v + rng.choice([0.0, -0.1, 0.1]) for v in dual.u_e)
        y = dual.y * rng.choice([1.0, 0.9, 1.1])
        for cap in (None, dual.cap):  # the solve's dual is capped (solve.cap_of): both bounds
            d = replace(dual, u=u, z=z, u_e=ue, y=y, cap=cap)
            assert d.lp_bound() == d._lp_bound_fractions()
    with pytest.raises(ValueError, match="not a row"):
        replace(dual, u={(5, 0): -1.0}).lp_bound()


def test_the_integer_dual_check_is_the_fraction_one_at_extreme_floats():
    """The vectorised integer route (numpy frexp, per-bin int64 half sums) on duals whose entries span the float range:
    subnormals (5e-324, 2^-1070), values near 1e5, exact zeros, positive tolerance-sized entries clipped to 0, capped
    and uncapped, every power-of-two m with M from m - 1 up; and m > M + 1 refused (the rows (j, E) would not exist)."""
    import random

    from fhsym.optimum.dual import DualCertificate

    rng = random.Random(36)

    def value() -> float:
        return rng.choice([0.0, -rng.random(), rng.random() * 1e-8, -2.0 ** -rng.randint(1, 1070), -rng.random() * 1e5,
                           5e-324, -5e-324])

    for _ in range(150):
        m = rng.choice([1, 2, 4, 8])
        M = rng.randint(m - 1, 12)
        u = {(j, k): value() for j in range(1, m + 1) for k in range(-M + j, M + 1) if rng.random() < 0.5}
        d = DualCertificate(epsilon=rng.choice([0.5, 1.0, 3.0]), delta=1e-6, m=m, M=M, r=30.0, y=rng.random() * 3,
                            z=tuple(value() for _ in range(m)), u_e=tuple(value() for _ in range(m)), u=u,
                            cap=rng.choice([None, 5.0, 1e3]))
        assert d.lp_bound() == d._lp_bound_fractions()
    with pytest.raises(ValueError, match="m must be in"):
        DualCertificate(epsilon=1.0, delta=1e-6, m=4, M=2, r=3.0, y=1.0, z=(0.0,) * 4, u_e=(0.0,) * 4, u={}).lp_bound()


def test_a_record_whose_noise_is_from_a_coarser_solve_is_answered_from_the_record():
    """``recorded.best_of`` keeps each end from the better solve, so a record may hold a 256-bin dual and a 64-bin
    noise ((8, 1e-5)).  It is still answered from the record (it was solved again when the noise had to be on the
    dual's grid), at sensitivity 1 and scaled exactly at another sensitivity."""
    import fhsym
    from fhsym.optimum import recorded

    rec = recorded.find(8.0, 1e-5)
    assert rec is not None and rec.get("noise_bins", rec["bins"]) != rec["bins"]
    chk = recorded.recheck(rec)
    iv = fhsym.optimal_variance(8.0, 1e-5)
    assert iv.source.startswith("recorded")
    assert iv.lower <= float(chk.lower) * (1 + 1e-15) and iv.upper >= float(chk.upper) * (1 - 1e-15)
    assert iv.upper / iv.lower <= rec["ratio"] * (1 + 1e-12)
    iv3 = fhsym.optimal_variance(8.0, 1e-5, 3.0)
    assert iv3.source.startswith("recorded") and iv3.proven_delta <= 1e-5
    assert iv3.upper == pytest.approx(9.0 * iv.upper, rel=1e-12, abs=0.0)


def _reference_at(dual_json, deltas):
    """The per-unit-sensitivity bound ``max(0, L - w^2/4)`` of a recorded dual at each delta, by the reference."""
    w2 = Fraction(1, 4 * dual_json["m"] ** 2)
    return [max(Fraction(0), b - w2) for b in dual_bounds(dual_json, deltas)]


OTHER_DELTAS = (1e-12, 1e-10, 3e-7, 1e-6, 1e-5, 2e-4, 0.3)


@pytest.mark.parametrize("eps, delta", [(1.0, d) for d in (1e-5, 1e-6, 1e-8, 1e-10)] + [(2.5, 1e-10), (10.0, 1e-6)])
def test_a_recorded_dual_at_another_delta_is_its_direct_bound(eps, delta):
    """``_tangent`` (the record's bound moved along delta) is exactly the dual's bound evaluated at the new delta: the
    reference rebuilds it from the LP's definition (capped records: (1, 1e-6), (2.5, 1e-10); each also uncapped)."""
    from fhsym.optimum.api import _tangent

    rec = R.find(eps, delta)
    assert rec is not None
    for cap in {None, rec["dual"].get("cap")}:  # a capped record also uncapped (its Theorem 4 bound)
        src = json.loads(json.dumps(rec))
        src["dual"]["cap"] = cap
        chk = R._check(src)
        for dl, ref in zip(OTHER_DELTAS, _reference_at(src["dual"], OTHER_DELTAS)):
            bound, dual = _tangent(chk, dl)
            assert (dual.delta, dual.epsilon, dual.cap) == (dl, eps, cap)
            assert bound == ref, (cap, dl, float(bound), float(ref))
    assert R.checked(eps, delta).bound == R._check(rec).bound


def test_a_moved_bound_is_per_unit_sensitivity_and_exact_at_the_cap():
    """Two records the data file does not hold (``_usable`` refuses the first), built from the capped (1, 1e-6):

    * at sensitivity 2 the re-checked bound is 4 times the dual's; ``_tangent`` must still return the bound on
      V*(eps, dl, 1) (its caller scales by sens^2): it returned ~4 times it before (an unsound lower end);
    * with the cap set below the uncapped value the recorded bound sits at the cap, where the affine value does not
      follow from it: at a larger delta ``_tangent`` is still the dual's direct bound (it was lower before).
    Each result is the reference's bound of the dual at dl: never above it (sound), never below it (as tight)."""
    from dataclasses import replace

    from fhsym.optimum.api import _tangent

    rec = R.find(1.0, 1e-6)
    assert rec is not None and rec["dual"].get("cap") is not None
    twice = json.loads(json.dumps(rec))
    twice["sensitivity"] = 2.0
    base = R.checked(1.0, 1e-6)
    chk2 = R._check(twice)
    assert chk2.bound == 4 * base.bound > 0
    lp = DualCertificate.from_json(rec["dual"]).lp_bound()
    low = json.loads(json.dumps(rec))
    low["dual"]["cap"] = float(lp) * 0.999
    chk_low = R._check(low)
    m = rec["dual"]["m"]
    assert chk_low.bound == Fraction(low["dual"]["cap"]) - Fraction(1, 4 * m * m)  # at the cap
    for src, chk in ((rec, chk2), (low, chk_low)):
        refs = _reference_at(src["dual"], OTHER_DELTAS)
        for dl, ref in zip(OTHER_DELTAS, refs):
            bound, dual = _tangent(chk, dl)
            assert bound == ref == replace(chk.dual, delta=dl).variance_bound(), (dl, float(bound), float(ref))
    # the cap binds: at a larger delta the direct bound is above the cap moved along delta
    zsum = sum(min(Fraction(v), Fraction(0)) for v in rec["dual"]["z"])
    moved = chk_low.bound + (Fraction(2e-4) - Fraction(1e-6)) * zsum
    assert _tangent(chk_low, 2e-4)[0] > moved
