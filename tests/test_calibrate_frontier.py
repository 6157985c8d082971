"""Issue 28.5: ``fhsym.calibrate`` never returns more noise than fhsym's own frontier data.

The frontier data file (fhsym/applications/data/frontier.json.gz) records, for each release (epsilon, delta, K
coordinates, T compositions, the sensitivity set: the box, the l2 or the l1 ball of radius 1), a certified
calibration of every candidate.  A candidate is a noise law with a route (Laplace exact or pure, the staircase pure or
composed, flipped Huber and OSGT over a ball also through their Gaussian member).  For a law, the frontier's answer
is the least variance of its candidates' records; ``fhsym.calibrate`` with the same release (the user's call: dim = K,
compositions = T, the set's radius) and ``method="auto"`` must give no more.

The bound is the variance of the *recorded noise* evaluated now (``from_parameters(record).var()``): the data file
stores variances computed by the formulas of the day it was built, and some laws' variance has since been
regenerated (the same noise may read an ulp apart).  That the data file's numbers are these records is checked too.

What "no more" allows, each as measured (branch calib34, 2026-11-29).  On the sample of the slow test below (350
law-releases with K T <= 20, the K-fold allowance already applied; before the l2 plan's change below) 71 were
above the record: 44 by at most 2.0e-15
(1-D routes), 21 by 1.9e-10 to 6.6e-10 (flipped Huber's Gaussian member), 6 K-fold beyond 4e-7 (the known misses).
An exploratory sample of 481 law-releases with K T <= 100 (every 37th entry) had 31 K-fold results above the record,
24 of them by at most 2.5e-7 and 7 beyond 4e-7 (6 OSGT, up to +7.4e-4; Laplace at K T = 100, eps 0.6: +1.1e-6).

* a 1-D route (exact roots, the l2 root of a Gaussian member, pure closed forms, the composed staircase):
  :data:`ULPS`, a few ulps.  The 1-D searches are exact to the last double against the float profile of the day, and the laws' float
  kernels were regenerated after the data file was built (issue 28): the least double moved by up to 2.0e-15 in
  variance;
* a law's Gaussian member over a ball (flipped Huber, OSGT: ``l2-gaussian``) against the Gaussian's own record: none
  beyond :data:`ULPS` since the l2 plan takes the least double whose proven bound is within delta (1 - 4e-13), as the
  Gaussian's float search aims (below the float search's answer by at most 16 x the law's ``profile_rtol``).  Before that, flipped Huber's member was calibrated at its float
  profile's accuracy (1e-9: delta (1 - 4e-9)) and came out +1.9e-10 to +6.6e-10 above the Gaussian's record;
* a K-fold search (``kfold-pld``): :data:`KFOLD_RTOL`.  Its result is the least scale on a lattice to 1e-7 in log
  scale (``_SHAVE_XTOL`` of :mod:`fhsym.calibration.search_kfold`): a re-run may land 2e-7 above a record of the same search.
  Since branch front36 its shape is refined on the certificate's lattices (``refine_kfold``): the coarse lattice's
  error varies with the shape by more than the landscape's relief (OSGT), which made the six known misses of calib34.

Known misses are listed in :data:`KNOWN_MISSES` with their numbers (strict xfail: the test fails when one is fixed,
so that the list stays true).
"""

from __future__ import annotations

import json

import pytest

import fhsym
from fhsym.applications.frontier import CANDIDATES, calibration_call
from fhsym.noise import NOISE_CLASSES

import frontier_data

_SET = {"linf": "sensitivity", "l2": "l2_sensitivity", "l1": "l1_sensitivity"}
#: the K-fold search's tolerance in variance (module docstring): 2 x its 1e-7 in log scale, doubled
KFOLD_RTOL = 4e-7

#: a few ulps of variance: the 1-D routes (module docstring)
ULPS = 4e-15

#: (norm, K, T, epsilon, delta, law): calibrate's variance above the frontier's beyond the allowances, each a strict
#: xfail with its numbers.  Empty since branch front36 (2026-11-30): the six of branch calib34 (five OSGT K-fold
#: releases +2.1e-5 to +7.4e-4, flipped Huber l1 K = 3 +9.6e-7) are below their records now (the K-fold shape
#: refined on the certificate's lattices, the corner curve tried at any gain); their releases stay in the slow sample
#: (:data:`_MISSED`)
KNOWN_MISSES: dict = {}

#: the releases of the former known misses (calibrate: before -> after front36; the frontier's record)
FORMER_MISSES = (
    ("linf", 3, 1, 0.2, 1e-6),  # osgt 450.025 -> 449.466; 449.692
    ("linf", 2, 1, 0.12, 1e-8),  # osgt 558.876 -> 556.173; 558.726
    ("linf", 2, 1, 1.5, 1e-5),  # osgt 3.55860 -> 3.55576; 3.55678
    ("linf", 2, 1, 0.1, 1e-6),  # osgt 800.15748 -> 799.50929; 800.14066
    ("l1", 2, 1, 0.08, 1e-8),  # osgt 1256.8250 -> 1251.3873; 1256.3307
    ("l1", 3, 1, 0.15, 1e-10),  # flipped_huber 800.0000251 -> 799.9992605; 799.9992605
)


def _data():
    return frontier_data.data()  # parsed once per process, shared with the other modules that read it


def _record(call):
    return _data()["calibrations"].get(json.dumps(call, sort_keys=True))


def _now(rec) -> float:
    """The variance of the recorded noise, evaluated by today's formulas."""
    return float(NOISE_CLASSES[rec["certificate"]["mechanism"]].from_parameters(rec["parameters"]).var())


def _law_bounds(entry):
    """{law: (bound, recorded, method, options, source)}: per noise law the least variance of its candidates' records
    in this entry (a ball's Gaussian member included where the entry says it was the better one), now and as
    recorded, with the record's method, the law's options in the frontier's call, and the record's law."""
    K, T, eps, dl, norm = entry["dim"], entry["compositions"], entry["epsilon"], entry["delta"], entry["norm"]
    out = {}
    for cand in CANDIDATES:
        if entry["variances"].get(cand) is None:
            continue
        call = calibration_call(cand, eps, dl, K, norm, T)
        law = call["mechanism"]
        sources = [call]
        if entry["members"].get(cand, "box") != "box":  # over a ball the member (the Gaussian) was the better one
            sources.append(calibration_call(entry["members"][cand], eps, dl, K, norm, T))
        for src in sources:
            rec = _record(src)
            assert rec is not None, (cand, src)
            now, was = _now(rec), rec["variance"]
            assert abs(now - was) <= 4e-15 * was, (cand, src, now, was)  # the data file's number is this record
            options = {k: call[k] for k in call if k not in ("epsilon", "delta", "mechanism", "dim", "compositions",
                                                             "method", *_SET.values())}
            old = out.get(law)
            if old is None or now < old[0]:
                out[law] = (now, was, rec["method"], options, rec["certificate"]["mechanism"])
        # the entry's number for the candidate is the least of its sources
        assert min(_now(_record(s)) for s in sources) <= entry["variances"][cand] * (1 + 4e-15), (cand, entry)
    return out


def _releases(*, max_folds, every, include=()):
    """A deterministic sample of the frontier's releases: every ``every``-th entry with K T <= ``max_folds``, and the
    entries named in ``include`` as (norm, K, T, epsilon, delta)."""
    picked = []
    for i, e in enumerate(_data()["entries"]):
        key = (e["norm"], e["dim"], e["compositions"], e["epsilon"], e["delta"])
        if key in include or (e["dim"] * e["compositions"] <= max_folds and i % every == 0):
            picked.append(e)
    return picked


def _cases(entries):
    cases = []
    for e in entries:
        for law, (bound, was, method, options, source) in sorted(_law_bounds(e).items()):
            key = (e["norm"], e["dim"], e["compositions"], e["epsilon"], e["delta"], law)
            # raises=AssertionError: a known miss fails on its variance, not by an error elsewhere in calibrate
            marks = ([pytest.mark.xfail(strict=True, raises=AssertionError, reason=KNOWN_MISSES[key])]
                     if key in KNOWN_MISSES else [])
            cases.append(pytest.param(key, bound, (method, source), options, marks=marks,
                                      id="{}-K{}-T{}-eps{}-delta{}-{}".format(*key)))
    return cases


def _check(key, bound, route, options):
    norm, K, T, eps, dl, law = key
    method, source = route
    kwargs = {"sensitivity" if K == 1 else _SET[norm]: 1.0}
    cal = fhsym.calibrate(eps, dl, mechanism=law, dim=K, compositions=T, **kwargs, **options)
    assert cal.certificate.rigorous and cal.achieved_delta <= dl
    rtol = KFOLD_RTOL if "kfold-pld" in (cal.method, method) else ULPS
    assert cal.variance <= bound * (1.0 + rtol), (
        f"calibrate {cal.variance!r} ({cal.method}) > the frontier's {bound!r} ({method}, {source}): "
        f"{cal.variance / bound - 1:+.3e} relative")


#: the issue's release, calibrate(1, 1e-6, mechanism="staircase", dim=5, compositions=2): over the box K = 5
#: coordinates released T = 2 times are K T = 10 coordinates released once, the frontier's entry (linf, 10, 1)
_ISSUE = ("linf", 10, 1, 1.0, 1e-6)

#: releases beyond the slow sample's K T <= 20 that were found above their record (calibrate: before -> after; the
#: frontier's record).  Laplace at K T = 100: the refinement's float bound on the certificate's lattice is 5.4e-5 of
#: delta above the proof there (the error bounds of its FFT products), so its root sat +1.1e-6 above the record; the
#: certified point is now shaved by the proof's measure of that bound (branch front36b)
BEYOND_SAMPLE = (
    ("linf", 1, 100, 0.6, 1e-5),  # laplace 6910.228826 (+1.10e-6) -> 6910.219602 (-2.3e-7); 6910.221223
)
_MISSED = tuple(k[:5] for k in KNOWN_MISSES) + FORMER_MISSES + BEYOND_SAMPLE


@pytest.mark.parametrize("key, bound, route, options", _cases(_releases(max_folds=1, every=97)))
def test_calibrate_is_never_noisier_than_the_frontier(key, bound, route, options):
    """A sample of the one-coordinate releases (fast: the 1-D searches), in the whole-suite run."""
    _check(key, bound, route, options)


def test_the_issue_release_is_the_composed_staircase():
    """calibrate(1, 1e-6, mechanism="staircase", dim=5, compositions=2): the frontier's 199.648, not the pure 199.917."""
    (entry,) = _releases(max_folds=0, every=1, include=(_ISSUE,))
    bound = _law_bounds(entry)["staircase"][0]  # the composed staircase's record (staircase_pld)
    assert 199.647 < bound < 199.649
    cal = fhsym.calibrate(1, 1e-6, mechanism="staircase", dim=5, compositions=2)
    assert cal.variance <= bound and cal.method == "kfold-pld-sup" and cal.achieved_delta <= 1e-6
    assert fhsym.calibrate(1, 1e-6, mechanism="staircase", dim=5, compositions=2, method="pure").variance > 199.9


def test_laplace_at_100_folds_meets_its_record():
    """Laplace, one coordinate released T = 100 times at (0.6, 1e-5): no noisier than the frontier's record (it was
    +1.10e-6 above), and the certificate of the shaved scale verifies."""
    (entry,) = _releases(max_folds=0, every=1, include=BEYOND_SAMPLE[:1])
    bound = _law_bounds(entry)["laplace"][0]
    assert 6910.2212 < bound < 6910.2213
    cal = fhsym.calibrate(0.6, 1e-5, mechanism="laplace", compositions=100)
    assert cal.method == "kfold-pld" and cal.achieved_delta <= 1e-5
    assert cal.variance <= bound * (1.0 + KFOLD_RTOL), cal.variance / bound - 1.0
    assert fhsym.verify_certificate(cal.certificate)


@pytest.mark.slow
@pytest.mark.parametrize("key, bound, route, options",
                         _cases(_releases(max_folds=20, every=41, include=_MISSED)))
def test_calibrate_is_never_noisier_than_the_frontier_composed(key, bound, route, options):
    """The same over K T <= 20 (every law's K-fold, composed, l2 and pure routes): a deterministic sample, and the
    releases of the known misses."""
    _check(key, bound, route, options)
