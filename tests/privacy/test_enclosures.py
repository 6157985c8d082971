"""Rigorous enclosures of the 1-D privacy profiles (``fhsym.privacy.enclosures``).

References (never the code under test):

* ``tests/data/enclosure_reference.json``: 48 seeded random points per mechanism, delta from the
  DEFINITION int [g(t) - e^eps g(t + Delta)]_+ dt by mpmath quadrature at >= 50 digits with
  ``error=True`` (FH: ``proofs.reference``; others: ``proofs.reference_mechanisms``), confirmed
  at a second precision 15 digits higher; the staircase by exact summation over its constant
  pieces.  Recipe and generator: ``tests/data/make_enclosure_reference.py``.  A sample is
  recomputed live here (all of them, plus fresh random points, with ``FHSYM_DEEP=1``).
* extreme inputs that quadrature cannot reach: the published closed forms (Balle-Wang for the
  Gaussian, the paper's two OSGT cases) in mpmath at enough digits to absorb the cancellation,
  and, beyond mpmath's range, analytic tail bounds (sub-Gaussianity of FH, paper Lemma 2);
  each such check is labelled "cross-check" or "bound".
* ``fhsym.certified_profile`` (independent 60/120-digit mpmath evaluation with the
  crossing point by bisection) as a hypothesis cross-check for FH.

Asserted: the ball and the float pair contain the reference (within the reference's own error
bound); where delta > 1e-300 the floats are within 1e-14 relative of each other and the ball
within 2^-59; validation errors name the parameter and its range.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import math
import os
import random
from fractions import Fraction
from pathlib import Path

import mpmath as mp
import pytest
from flint import arb, ctx
from hypothesis import given
from hypothesis import strategies as st

from fhsym import certified_profile
from fhsym._core.arb import core as C
from fhsym._core.arb import ball
from fhsym.noise import NOISE_CLASSES
from fhsym.privacy.enclosures import (
    Enclosure,
    enclose_profile,
)

#: the continuous noise laws with a ball-arithmetic profile and their parameter domains (the registry of
#: fhsym.noise); the piecewise-uniform noise is enclosed in exact rationals, checked in tests/optimum
MECHANISMS = {name: cls.parameter_domains for name, cls in NOISE_CLASSES.items()
              if not cls.lattice and not cls.solver_calibrated}
from proofs import reference_mechanisms as RM

ROOT = Path(__file__).resolve().parents[2]
DATA = json.loads((ROOT / "tests" / "data" / "enclosure_reference.json").read_text())
RECORDS = DATA["records"]
DEEP = os.environ.get("FHSYM_DEEP") == "1"
TINY = 1e-300


def _generator():
    spec = importlib.util.spec_from_file_location("make_enclosure_reference", ROOT / "tests" / "data" / "make_enclosure_reference.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _params(rec):
    return {k: float(v) for k, v in rec["params"].items()}


def _enclose(rec, **kw) -> Enclosure:
    return enclose_profile(rec["mechanism"], _params(rec), float(rec["epsilon"]), float(rec["sensitivity"]), **kw)


def assert_contains(e: Enclosure, ref, err, label: str = "") -> None:
    """The ball and [lower, upper] meet [ref - err, ref + err]; ref, err: decimal strings or mpf."""
    with ctx.workprec(max(e.prec, 256) + 64):
        r = arb(mp.nstr(ref, 60) if not isinstance(ref, str) else ref)
        er = arb(mp.nstr(err, 10) if not isinstance(err, str) else err).abs_upper()
        target = r + arb(0, er)
        ball = e.as_arb()
        assert ball.overlaps(target), f"{label}: ball {e.ball} misses reference {ref} +- {err} ({e.method})"
        assert arb(e.lower) <= target.upper(), f"{label}: lower {e.lower!r} > reference {ref} ({e.method})"
        assert arb(e.upper) >= target.lower(), f"{label}: upper {e.upper!r} < reference {ref} ({e.method})"
    assert 0.0 <= e.lower <= e.upper <= 1.0


def assert_tight(e: Enclosure, label: str = "") -> None:
    """Where delta > 1e-300: floats within 1e-14 relative, ball within 2^-59 relative."""
    if e.upper <= TINY:
        return
    assert e.lower > 0 and (e.upper - e.lower) <= 1e-14 * e.lower, f"{label}: loose floats {e}"
    with ctx.workprec(e.prec + 64):
        x = e.as_arb()
        lo, hi = x.lower(), x.upper()
        assert lo > 0 and (hi - lo) <= lo * arb(2.0**-59), f"{label}: loose ball {e.ball}"


def rel_width(e: Enclosure) -> float:
    return (e.upper - e.lower) / e.lower if e.lower > 0 else (0.0 if e.upper == 0 else math.inf)


# ---------------------------------------------------------------------------
# the reference file


def test_reference_file_covers_every_mechanism():
    counts = {m: sum(r["mechanism"] == m for r in RECORDS) for m in MECHANISMS}
    assert all(n >= 40 for n in counts.values()), counts
    assert sum(float(r["reference"]) < 1e-300 for r in RECORDS if r["reference"] != "0") >= 10  # underflowing deltas
    assert any(r["reference"] == "0" for r in RECORDS)  # exact zeros (Laplace, staircase)


@pytest.mark.parametrize("i", range(len(RECORDS)), ids=[f"{r['mechanism']}-{i}" for i, r in enumerate(RECORDS)])
def test_enclosure_contains_reference(i):
    rec = RECORDS[i]
    e = _enclose(rec)
    label = f"{rec['mechanism']} {rec['params']} eps={rec['epsilon']} Delta={rec['sensitivity']} ({rec['note']})"
    if rec["reference"] == "0":
        assert (e.lower, e.upper) == (0.0, 0.0), label  # provably 0: exactly [0, 0]
        return
    assert_contains(e, rec["reference"], rec["error"], label)
    assert_tight(e, label)


# one record per mechanism whose reference recomputes in 0.5-3 s (indices into the seeded file)
_LIVE = (2, 49, 99, 148, 196, 243, 294)


def _live_sample():
    if DEEP:
        return list(range(len(RECORDS)))
    assert sorted(RECORDS[i]["mechanism"] for i in _LIVE) == sorted(MECHANISMS)
    return list(_LIVE)


@pytest.mark.parametrize("i", _live_sample())
def test_reference_file_is_current(i):
    """Recompute stored references live (a stale or hand-edited file fails)."""
    rec = RECORDS[i]
    gen = _generator()
    p = _params(rec)
    eps, dl = float(rec["epsilon"]), float(rec["sensitivity"])
    if rec["mechanism"] == "flipped_huber":
        ref, err, _ = gen.fh_reference(eps, p["alpha"], p["gamma"], dl)
    else:
        ref, err, _ = gen.mech_reference(rec["mechanism"], p, eps, dl)
    with mp.workdps(60):
        stored = mp.mpf(rec["reference"])
        assert abs(ref - stored) <= 2 * (err + mp.mpf(rec["error"])), (mp.nstr(ref, 30), rec["reference"])


@pytest.mark.skipif(not DEEP, reason="deep sweep: set FHSYM_DEEP=1")
@pytest.mark.parametrize("mechanism", list(MECHANISMS))
def test_deep_fresh_random_points(mechanism):
    """FHSYM_DEEP=1: 40 new random points per mechanism (new seed each run) against live references."""
    gen = _generator()
    seed = random.randrange(2**32)
    rng = random.Random(seed)
    pts = {
        "flipped_huber": lambda: [(e, {"alpha": a, "gamma": g}, d, n) for e, a, g, d, n in gen.fh_points(rng)],
        "gaussian": lambda: gen.gaussian_points(rng),
        "osgt": lambda: gen.osgt_points(rng),
        "laplace": lambda: gen.laplace_points(rng),
        "truncated_laplace": lambda: gen.tl_points(rng),
        "staircase": lambda: gen.staircase_points(rng),
        "truncated_staircase": lambda: gen.ts_points(rng),
    }[mechanism]()[:40]
    for eps, params, dl, note in pts:
        if mechanism == "flipped_huber":
            ref, err, _ = gen.fh_reference(eps, params["alpha"], params["gamma"], dl)
        else:
            ref, err, _ = gen.mech_reference(mechanism, params, eps, dl)
        e = enclose_profile(mechanism, params, eps, dl)
        label = f"seed {seed}: {mechanism} {params} eps={eps!r} Delta={dl!r} ({note})"
        if ref == 0:
            assert (e.lower, e.upper) == (0.0, 0.0), label
        else:
            assert_contains(e, ref, err, label)
            assert_tight(e, label)


# ---------------------------------------------------------------------------
# extreme inputs


def _closed_gauss(sigma, eps, dl, dps):
    """Balle & Wang (2018) / paper eq 29 verbatim (cross-check), value and two-precision error."""
    vals = []
    for p in (dps, dps + 20):
        with mp.workdps(p):
            vals.append(RM.gaussian_delta_closed(eps, dl, sigma))
    with mp.workdps(dps + 20):
        return vals[1], abs(vals[1] - vals[0]) + abs(vals[1]) * mp.mpf(10) ** -40


def _closed_osgt(vt, vr, eps, dl, dps):
    vals = []
    for p in (dps, dps + 20):
        with mp.workdps(p):
            vals.append(RM.osgt_profile_closed(eps, dl, vt, vr))
    with mp.workdps(dps + 20):
        return vals[1], abs(vals[1] - vals[0]) + abs(vals[1]) * mp.mpf(10) ** -40


@pytest.mark.parametrize(
    "sigma,eps,dl,dps",
    [
        (1.0, 1e-300, 1e-300, 400),  # Delta/sigma = 1e-300: cancellation of 300 digits
        (1.0, 0.0, 1e-300, 400),
        (1e-300, 1e-10, 1e-300, 80),
        (1e300, 1e-5, 1e295, 80),
        (1.0, 1e100, 1e90, 250),  # t1 = 1e10, delta ~ e^{-5e19}
        (1.0, 3.0, 1e100, 80),  # delta ~ 1
        (3.0, 50.0, 1e-80, 200),  # t1 ~ 1.5e82
    ],
)
def test_gaussian_extremes_vs_closed_form(sigma, eps, dl, dps):
    """Cross-check: the published closed form at enough digits."""
    ref, err = _closed_gauss(sigma, eps, dl, dps)
    e = enclose_profile("gaussian", {"sigma": sigma}, eps, dl)
    assert_contains(e, ref, err, "gaussian closed-form cross-check")
    assert_tight(e)


@pytest.mark.parametrize(
    "vt,vr,eps,dl,dps",
    [
        (1e12, 1.0, 1.0, 1e-12, 120),  # Laplace-like, first case
        (1e12, 1.0, 3.0, 1e-12, 120),  # second case
        (1e-300, 1.0, 1e-300, 1e-300, 400),
        (1e50, 1e40, 0.5, 1e-11, 120),
        (0.0, 1.0, 1e-200, 1e-200, 300),
    ],
)
def test_osgt_extremes_vs_closed_form(vt, vr, eps, dl, dps):
    """Cross-check: the paper's two-case OSGT profile (Appendix F-A(c)) verbatim at enough digits."""
    ref, err = _closed_osgt(vt, vr, eps, dl, dps)
    e = enclose_profile("osgt", {"vartheta": vt, "varrho": vr}, eps, dl)
    assert_contains(e, ref, err, "osgt closed-form cross-check")
    assert_tight(e)


@pytest.mark.parametrize(
    "alpha,gamma,eps,dl",
    [
        (1e12, 1.0, 0.5, 1e-12),  # Laplace limit, s = bD = 1
        (1e6, 1.0, 2.0, 1e-6),
        (1e3, 1e-3, 30.0, 1e-3),
        (1e-200, 1.0, 1e-3, 1e-3),  # alpha/gamma = 1e-200: Gaussian limit
    ],
)
def test_fh_extremes_vs_certify(alpha, gamma, eps, dl):
    """Cross-check with fhsym.certified_profile (mpmath evaluation (bisection for t1, 120 and 240 digits)."""
    c = certified_profile(eps, alpha, gamma, dl, dps=120)  # an upper bound inflated by 1e-20 relative
    e = enclose_profile("flipped_huber", {"alpha": alpha, "gamma": gamma}, eps, dl)
    with mp.workdps(140):
        assert_contains(e, c, c * mp.mpf("3e-20"), "FH vs certify (cross-check)")
    assert_tight(e)


@pytest.mark.parametrize(
    "mechanism,params",
    [
        ("flipped_huber", {"alpha": 1.0, "gamma": 1.0}),
        ("flipped_huber", {"alpha": 1e10, "gamma": 1e-8}),
        ("flipped_huber", {"alpha": 0.0, "gamma": 1e300}),
        ("gaussian", {"sigma": 1.0}),
        ("osgt", {"vartheta": 1e100, "varrho": 1.0}),
    ],
)
@pytest.mark.parametrize("eps,dl", [(1e300, 1.0), (1.7976931348623157e308, 1e-300), (1e300, 1e-300)])
def test_astronomically_small_delta_bound(mechanism, params, eps, dl):
    """Bound: in the last case (FH case (v), the OSGT second case, any eps for the Gaussian) the
    crossing point is t1 = eps s^2/Delta - Delta/2 - vartheta (s = gamma, sigma or varrho) and
    delta <= P(T >= t1) <= exp(-t1^2/(2 s^2)) (FH is sub-Gaussian with proxy gamma^2, paper
    Lemma 2; OSGT: Q(x + y) <= Q(x) e^{-y^2/2}).  Here that is far below 5e-324, so the floats
    must be exactly (0.0, 5e-324)."""
    e = enclose_profile(mechanism, params, eps, dl)
    s = mp.mpf(params.get("gamma", params.get("sigma", params.get("varrho"))))
    off = mp.mpf(params.get("alpha", params.get("vartheta", 0.0)))
    with mp.workdps(40):
        E, D = mp.mpf(eps), mp.mpf(dl)
        assert E * s * s >= (D + 2 * off) * D / 2  # last case: nu2 (FH) / varpi Delta/2 (OSGT)
        t1 = E * s * s / D - D / 2 - (off if mechanism == "osgt" else 0)
        assert t1 > 0 and -((t1 / s) ** 2) / 2 < mp.log(mp.mpf(5e-324))
    assert (e.lower, e.upper) == (0.0, 5e-324), e


@pytest.mark.parametrize(
    "mechanism,params,eps,dl",
    [
        ("flipped_huber", {"alpha": 1.0, "gamma": 1.0}, 1.0, 1e300),
        ("gaussian", {"sigma": 1e-300}, 1e300, 1.0),
        ("laplace", {"beta": 1e-300}, 1e299, 1.0),
        ("staircase", {"epsilon": 1.0, "sensitivity": 1e-300, "gamma": 0.3}, 1.0, 1.0),
        ("truncated_laplace", {"scale": 1.0, "bound": 1e300}, 0.0, 1e299),
        ("osgt", {"vartheta": 0.0, "varrho": 1e-300}, 1e300, 1.0),
    ],
)
def test_disjoint_like_outputs_give_delta_near_one(mechanism, params, eps, dl):
    """Bound: delta >= P(T > -Delta/2) - e^eps P(T > Delta/2) = 1 - O(e^eps P(|T| > Delta/2)),
    astronomically close to 1 here (Delta/scale >= 1e299 with eps <= Delta/scale / 10)."""
    e = enclose_profile(mechanism, params, eps, dl)
    assert e.upper == 1.0 and e.lower >= 1.0 - 2.0**-52, e
    assert_tight(e)


def test_staircase_many_periods_vs_exact_sum():
    """Delta/Delta0 = 37.5 (hundreds of pieces in the reference sum; O(1) in the enclosure)."""
    eps0, d0, gam, dl = 0.7, 0.4, 0.35, 15.0
    for eps in (0.0, 3.0, 0.7 * 20, 0.7 * 40):
        with mp.workdps(60):
            ref, neg = RM.StaircaseRef(eps0, d0, gam * d0).profile(eps, dl, periods=int(120 / eps0) + 4)
        e = enclose_profile("staircase", {"epsilon": eps0, "sensitivity": d0, "gamma": gam}, eps, dl)
        if ref == 0:
            assert (e.lower, e.upper) == (0.0, 0.0)
        else:
            assert_contains(e, ref, neg + ref * mp.mpf(10) ** -45, f"staircase eps={eps}")
            assert_tight(e)


_VALS = [5e-324, 1e-300, 1e-10, 1.0, 1e12, 1e300, 1.7976931348623157e308]


@pytest.mark.parametrize("mechanism", list(MECHANISMS))
def test_extreme_grid_never_raises_and_is_tight(mechanism):
    """Every valid combination of extreme inputs: no exception, 0 <= lower <= upper <= 1, and tight
    (2^-59 ball, 1e-14 floats) wherever the upper end is above 1e-300."""
    rng = random.Random(7)
    ranges = MECHANISMS[mechanism]
    tried = 0
    for _ in range(60):
        params = {}
        for r in ranges:
            choices = [v for v in _VALS if v <= r.upper] + ([0.0] if r.closed_lower else [])
            if r.name == "gamma" and mechanism == "staircase":
                choices = [0.0, 0.25, 1.0]
            params[r.name] = rng.choice(choices)
            if r.name == "bound" and mechanism == "truncated_staircase":  # [Delta0, 50000 Delta0]: extreme scales
                params[r.name] = params["sensitivity"] * rng.choice([1.0, 2.5, 1e3])
        eps = rng.choice([0.0, 5e-324, 1e-300, 1.0, 1e300, 1.7976931348623157e308])
        dl = rng.choice([5e-324, 1e-300, 1.0, 1e300, 1.7976931348623157e308])
        try:  # the law's constructor refuses some extreme combinations (ValueError naming the parameter)
            noise = NOISE_CLASSES[mechanism].from_parameters(params)
        except ValueError:
            continue
        tried += 1
        e = noise.profile_enclosure(eps, dl)
        assert 0.0 <= e.lower <= e.upper <= 1.0, (params, eps, dl, e)
        assert_tight(e, f"{mechanism} {params} eps={eps} Delta={dl}")
    assert tried >= 20, tried


# ---------------------------------------------------------------------------
# case boundaries, exact zeros and ones


def _kink_inputs():
    # dyadic inputs: every Table I boundary is exact; its float neighbours on both sides
    for a, g, dl in [(1.5, 0.5, 0.25), (0.75, 1.0, 1.0), (0.25, 1.0, 1.0), (6.0, 0.25, 0.125)]:
        b, D = Fraction(a) / Fraction(g), Fraction(dl) / Fraction(g)
        for bound in {b * D, (max(2 * b, D) ** 2 - 2 * b * D) / 2, (max(D - b, 0) ** 2 + 2 * b * D) / 2, (D + 2 * b) * D / 2}:
            e = float(bound)
            assert Fraction(e) == bound
            yield a, g, dl, e


@pytest.mark.parametrize("a,g,dl,e", list(_kink_inputs()))
def test_fh_monotone_across_each_case_boundary(a, g, dl, e):
    """delta is non-increasing in eps: the enclosures at the boundary and at its float neighbours
    (1 ulp and 1e-9 relative away) must be ordered, with the boundary itself chosen exactly."""
    epss = [e * (1 - 1e-9), math.nextafter(e, 0.0), e, math.nextafter(e, math.inf), e * (1 + 1e-9)]
    encs = [enclose_profile("flipped_huber", {"alpha": a, "gamma": g}, x, dl) for x in epss if x >= 0]
    for left, right in zip(encs[:-1], encs[1:]):
        assert right.lower <= left.upper
        assert_tight(left)
    try:
        c = certified_profile(e, a, g, dl)
    except ArithmeticError:  # e.g. (b, D, eps) = (24, 0.5, 12): delta ~ 1e-248 cancels 60 digits
        c = certified_profile(e, a, g, dl, dps=300)
    with mp.workdps(320):
        assert_contains(encs[2], c, c * mp.mpf("3e-20"), "kink vs certify (cross-check)")


def test_laplace_exact_zero_and_its_neighbour():
    # Delta/beta = 0.5 exactly: delta(0.5) = 0 exactly, delta just below is > 0
    e0 = enclose_profile("laplace", {"beta": 2.0}, 0.5, 1.0)
    assert (e0.lower, e0.upper) == (0.0, 0.0) and "exactly" in e0.method
    below = math.nextafter(0.5, 0.0)
    e1 = enclose_profile("laplace", {"beta": 2.0}, below, 1.0)
    with mp.workdps(60):
        ref = -mp.expm1((mp.mpf(below) - mp.mpf("0.5")) / 2)  # ~ 2.8e-17
    assert_contains(e1, ref, ref * mp.mpf(10) ** -50, "laplace next to its kink")
    assert_tight(e1)
    # Delta/beta not a float (beta = 3): eps = fl(1/3) is below or above 1/3; decided exactly
    e2 = enclose_profile("laplace", {"beta": 3.0}, 1.0 / 3.0, 1.0)
    assert (Fraction(1.0 / 3.0) >= Fraction(1, 3)) == (e2.upper == 0.0)


def test_staircase_design_point_is_exactly_zero():
    e = enclose_profile("staircase", {"epsilon": 0.9, "sensitivity": 0.3, "gamma": 0.4}, 0.9, 0.3)
    assert (e.lower, e.upper) == (0.0, 0.0)
    e = enclose_profile("staircase", {"epsilon": 0.9, "sensitivity": 0.3, "gamma": 0.4}, math.nextafter(0.9, 0), 0.3)
    assert e.lower > 0


def test_truncated_laplace_disjoint_supports_is_exactly_one():
    e = enclose_profile("truncated_laplace", {"scale": 1.0, "bound": 3.0}, 2.0, 6.0)
    assert (e.lower, e.upper) == (1.0, 1.0)
    e = enclose_profile("truncated_laplace", {"scale": 1.0, "bound": 3.0}, 2.0, math.nextafter(6.0, 0))
    assert e.upper == 1.0 and e.lower < 1.0


# ---------------------------------------------------------------------------
# precision control


def test_max_prec_too_small_still_encloses():
    """A cancellation of ~300 digits with max_prec = 256: a wide but valid ball, no loop."""
    e = enclose_profile("gaussian", {"sigma": 1.0}, 1e-300, 1e-300, max_prec=256)
    ref, err = _closed_gauss(1.0, 1e-300, 1e-300, 400)
    assert e.prec <= 256 + 64
    assert_contains(e, ref, err, "max_prec = 256")
    full = enclose_profile("gaussian", {"sigma": 1.0}, 1e-300, 1e-300)
    assert rel_width(full) <= 1e-14
    assert "bits" in full.method and full.prec > 256


def test_rel_width_is_honoured():
    for rw in (2.0**-20, 2.0**-100, 2.0**-300):
        e = enclose_profile("flipped_huber", {"alpha": 1.0, "gamma": 2.0}, 1.0, 1.0, rel_width=rw)
        with ctx.workprec(e.prec + 64):
            x = e.as_arb()
            # the parsed decimal ball is slightly wider than the computed one (25 digits)
            assert (x.upper() - x.lower()) <= x.lower() * arb(max(rw, 1e-24) * 1.01)


# ---------------------------------------------------------------------------
# cross-check against fhsym.certified_profile (hypothesis)


@given(
    b=st.one_of(st.just(0.0), st.floats(1e-6, 1e4)),
    g=st.floats(1e-3, 1e3),
    D=st.floats(1e-6, 1e3),
    eps=st.floats(0.0, 60.0),
)
def test_fh_agrees_with_certify(b, g, D, eps):
    """Cross-check: fhsym.certified_profile (mpmath, bisection, 60/120 digits) lies in the ball
    to its own 1e-20 relative accuracy (it returns an upper bound inflated by 1e-20)."""
    a, dl = b * g, D * g
    try:
        c = certified_profile(eps, a, g, dl)
    except ArithmeticError:  # certify's 60 digits cancel completely (delta << 1e-60 S(t1)): retry
        c = certified_profile(eps, a, g, dl, dps=300)
    e = enclose_profile("flipped_huber", {"alpha": a, "gamma": g}, eps, dl)
    with mp.workdps(320):
        assert_contains(e, c, c * mp.mpf("3e-20") + mp.mpf(10) ** -400, "FH vs certify (cross-check)")
    assert_tight(e)


# ---------------------------------------------------------------------------
# the per-mechanism arb functions


def test_per_mechanism_plans_contain_reference():
    """Each law's plan (its ``_arb_plan`` hook) at one fixed precision: the ball contains the reference."""
    done = set()
    for rec in RECORDS:
        m = rec["mechanism"]
        if m in done or rec["reference"] == "0":
            continue
        noise = NOISE_CLASSES[m].from_parameters(_params(rec))
        x = ball(noise._arb_plan, float(rec["epsilon"]), float(rec["sensitivity"]), 128)
        assert isinstance(x, arb)
        with ctx.workprec(400):
            target = arb(rec["reference"]) + arb(0, arb(rec["error"]).abs_upper())
            assert x.overlaps(target), (m, x, rec["reference"])
        done.add(m)
    assert done == set(MECHANISMS)
    with pytest.raises(ValueError, match="gamma"):
        NOISE_CLASSES["flipped_huber"].from_parameters({"alpha": 1.0, "gamma": 0.0})
    with pytest.raises(ValueError, match="prec"):
        ball(NOISE_CLASSES["gaussian"](1.0)._arb_plan, 1.0, 1.0, 0)


# ---------------------------------------------------------------------------
# validation


@pytest.mark.parametrize(
    "mechanism,params,eps,dl,match",
    [
        ("huber", {"alpha": 1.0, "gamma": 1.0}, 1.0, 1.0, r"mechanism must be one of"),
        ("flipped_huber", {"alpha": 1.0}, 1.0, 1.0, r"takes parameters \['alpha', 'gamma'\]; got \['alpha'\]"),
        ("flipped_huber", {"alpha": 1.0, "gamma": 1.0, "beta": 2.0}, 1.0, 1.0, r"takes parameters .*got .*'beta'"),
        ("flipped_huber", {"alpha": -1.0, "gamma": 1.0}, 1.0, 1.0, r"alpha must be a finite real number in \[0, inf\); got -1.0"),
        ("flipped_huber", {"alpha": 1.0, "gamma": 0.0}, 1.0, 1.0, r"gamma must be a finite real number in \(0, inf\)"),
        ("flipped_huber", {"alpha": math.nan, "gamma": 1.0}, 1.0, 1.0, r"alpha must be"),
        ("flipped_huber", {"alpha": math.inf, "gamma": 1.0}, 1.0, 1.0, r"alpha must be"),
        ("flipped_huber", {"alpha": True, "gamma": 1.0}, 1.0, 1.0, r"alpha must be"),
        ("flipped_huber", {"alpha": "1", "gamma": 1.0}, 1.0, 1.0, r"alpha must be"),
        ("flipped_huber", {"alpha": 2**60 + 1, "gamma": 1.0}, 1.0, 1.0, r"alpha must be exactly representable"),
        ("gaussian", {"sigma": 1.0}, -1e-300, 1.0, r"epsilon must be a finite real number in \[0, inf\)"),
        ("gaussian", {"sigma": 1.0}, math.inf, 1.0, r"epsilon must be"),
        ("gaussian", {"sigma": 1.0}, 1.0, 0.0, r"sensitivity must be a finite real number in \(0, inf\)"),
        ("gaussian", {"sigma": -2.0}, 1.0, 1.0, r"sigma must be"),
        ("laplace", {"beta": 0.0}, 1.0, 1.0, r"beta must be"),
        ("truncated_laplace", {"scale": 1.0, "bound": 0.0}, 1.0, 1.0, r"bound must be"),
        ("truncated_laplace", {"scale": 1.0}, 1.0, 1.0, r"takes parameters \['scale', 'bound'\]"),
        ("staircase", {"epsilon": 1.0, "sensitivity": 1.0, "gamma": 1.5}, 1.0, 1.0, r"gamma must be a finite real number in \[0, 1\]"),
        ("staircase", {"epsilon": 0.0, "sensitivity": 1.0, "gamma": 0.5}, 1.0, 1.0, r"epsilon must be a finite real number in \(0, inf\)"),
        ("staircase", {"epsilon": 1.0, "sensitivity": 1.0, "gamma": None}, 1.0, 1.0, r"gamma must be"),
        ("osgt", {"vartheta": -1.0, "varrho": 1.0}, 1.0, 1.0, r"vartheta must be"),
        ("osgt", {"vartheta": 1.0, "varrho": 1.0, "sigma": 1.0}, 1.0, 1.0, r"takes parameters .*'sigma'"),
    ],
)
def test_bad_input_raises_value_error_naming_it(mechanism, params, eps, dl, match):
    with pytest.raises(ValueError, match=match):
        enclose_profile(mechanism, params, eps, dl)


def test_bad_options_raise():
    for kw, match in [({"rel_width": 0.0}, "rel_width"), ({"rel_width": -1.0}, "rel_width"),
                      ({"max_prec": 1}, "max_prec"), ({"max_prec": 2.5}, "max_prec")]:
        with pytest.raises(ValueError, match=match):
            enclose_profile("gaussian", {"sigma": 1.0}, 1.0, 1.0, **kw)


def test_inputs_are_the_exact_binary_values():
    """0.1 is the double 0.1000000000000000055511151231257827...; the enclosure is for that number."""
    e = enclose_profile("laplace", {"beta": 1.0}, 0.1, 1.0)
    with mp.workdps(60):
        exact_ref = -mp.expm1((mp.mpf(0.1) - 1) / 2)  # mp.mpf(float) is exact
        decimal_ref = -mp.expm1((mp.mpf("0.1") - 1) / 2)
        assert abs(exact_ref - decimal_ref) > exact_ref * mp.mpf(10) ** -18
    assert_contains(e, exact_ref, exact_ref * mp.mpf(10) ** -50, "exact binary input")
    with ctx.workprec(e.prec + 64):
        assert not e.as_arb().overlaps(arb(mp.nstr(decimal_ref, 40)))


# ---------------------------------------------------------------------------
# directed rounding and module hygiene


def test_directed_float_conversion():
    rng = random.Random(11)
    cases = [0, 1, -1, (1 << 53) + 1, (1 << 200) + 12345]
    for _ in range(400):
        cases.append(rng.getrandbits(rng.randint(1, 200)) * rng.choice([1, -1]))
    for man in cases:
        for ex in (-1200, -1100, -1074, -1075, -1080, -1022, -60, 0, 40, 900, 960, 1000, 1100):
            with ctx.workprec(400):
                x = arb(man) * arb(2) ** ex
            val = Fraction(man) * Fraction(2) ** ex
            lo, hi = C.float_down(x), C.float_up(x)
            assert lo <= hi
            if math.isfinite(lo):
                assert Fraction(lo) <= val
                if lo < 1.7976931348623157e308:
                    assert Fraction(math.nextafter(lo, math.inf)) > val
            if math.isfinite(hi):
                assert Fraction(hi) >= val
                if hi > -1.7976931348623157e308:
                    assert Fraction(math.nextafter(hi, -math.inf)) < val


def test_modules_use_only_flint_and_exact_python():
    """The verifier must not depend on numpy, scipy, generated kernels or fhsym's float code."""
    allowed = {"__future__", "math", "fractions", "dataclasses", "typing", "flint", "numbers", "types"}  # types: SimpleNamespace (special.py)
    files = sorted((ROOT / "fhsym" / "_core" / "arb").glob("*.py"))
    assert len(files) >= 5
    for path in files:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:  # relative: only siblings of this package
                    assert node.level == 1 and node.module in ("core", "flipped_huber", "mechanisms", "enclosures"), (
                        path.name, node.module)
                    continue
                names = [(node.module or "").split(".")[0]]
            else:
                continue
            assert set(names) <= allowed, (path.name, names)
        assert len(path.read_text().splitlines()) <= 700
