"""epsilon_for_delta with array parameters: the scalar laws' doubles, bit for bit, never under-reported (issue 30.5).

For 20 random shapes (200 in the slow run) of each law (FlippedHuber, Gaussian, Laplace, OSGT, TruncatedLaplace) and a random delta per
shape: the array law's answer equals, bit for bit, (i) the scalar law's ``epsilon_for_delta`` element by element and
(ii) an independent scalar bisection (:func:`fhsym._core.search.smallest_true`, one predicate at a time) on the
law's profile predicate; the returned eps satisfies profile(eps) <= delta and the next double below does not.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import fhsym
from fhsym._core import search
from fhsym.noise import flipped_huber_profile as PP

N = 200


def _shapes(name, rng, N):
    if name == "flipped_huber":
        return {"alpha": rng.uniform(0.0, 5.0, N) * (rng.random(N) < 0.9), "gamma": rng.uniform(0.2, 3.0, N)}
    if name == "gaussian":
        return {"sigma": rng.uniform(0.2, 5.0, N)}
    if name == "laplace":
        return {"beta": rng.uniform(0.2, 5.0, N)}
    if name == "osgt":
        return {"vartheta": rng.uniform(0.0, 3.0, N), "varrho": rng.uniform(0.2, 3.0, N)}
    return {"scale": rng.uniform(0.2, 3.0, N), "bound": rng.uniform(1.5, 20.0, N)}


CLASSES = {"flipped_huber": fhsym.FlippedHuber, "gaussian": fhsym.Gaussian, "laplace": fhsym.Laplace,
           "osgt": fhsym.OSGT, "truncated_laplace": fhsym.TruncatedLaplace}


def _fh_predicate(law, dt, sensitivity):
    """FlippedHuber's certified predicate (its documented form: the public log profile with a 1e-13 margin)."""
    target = float(np.log(dt)) - math.log1p(PP.PROFILE_RTOL)
    return lambda e: bool(PP.log_privacy_profile(e, law.alpha, law.gamma, sensitivity) <= target)


@pytest.mark.parametrize("N", [20, pytest.param(N, marks=pytest.mark.slow)])
@pytest.mark.parametrize("name", list(CLASSES))
def test_array_route_is_the_scalar_route(name, N):
    rng = np.random.default_rng(sum(map(ord, name)))
    params = _shapes(name, rng, N)
    deltas = 10.0 ** rng.uniform(-12.0, -1.0, N)
    sensitivity = 1.0
    cls = CLASSES[name]
    law = cls(**params)
    if name == "truncated_laplace":  # disjoint supports: delta(eps) >= delta(inf) > 0; ask for ten times that floor
        deltas = np.minimum(np.maximum(deltas, 10.0 * law.privacy_profile(1e300, sensitivity)), 0.5)
    eps = law.epsilon_for_delta(deltas, sensitivity)
    assert eps.shape == (N,)
    for i in range(N):
        one = cls(**{k: float(v[i]) for k, v in params.items()})
        mine = float(one.epsilon_for_delta(deltas[i], sensitivity))
        if name == "flipped_huber":
            ok = _fh_predicate(one, deltas[i], sensitivity)
        else:
            def ok(e, one=one, dt=deltas[i]):
                return float(one.privacy_profile(e, sensitivity)) <= dt
        ref = search.smallest_true(ok, 1.0, name="epsilon", allow_zero=True)
        assert eps[i].tobytes() == np.float64(mine).tobytes() == np.float64(ref).tobytes(), (i, eps[i], mine, ref)
        assert float(one.privacy_profile(eps[i], sensitivity)) <= deltas[i]  # never under-reported
        if eps[i] > 0:
            assert not ok(float(np.nextafter(eps[i], 0.0)))  # the smallest double that passes on this path


def test_delta_broadcasts_with_the_parameters():
    fh = fhsym.FlippedHuber(alpha=[0.5, 1.0, 2.0], gamma=2.0)
    e = fh.epsilon_for_delta([[1e-3], [1e-6]])
    assert e.shape == (2, 3)
    for j, a in enumerate((0.5, 1.0, 2.0)):
        assert e[1, j] == fhsym.FlippedHuber(a, 2.0).epsilon_for_delta(1e-6)
    with pytest.raises(ValueError, match="^delta must broadcast"):
        fh.epsilon_for_delta([1e-3, 1e-6])
    with pytest.raises(ValueError, match="^delta"):
        fh.epsilon_for_delta(0.0)
    assert float(fhsym.FlippedHuber(1.0, 2.0).epsilon_for_delta(0.5)) == 0.0  # above the total variation


def test_smallest_true_many_follows_smallest_true():
    rng = np.random.default_rng(3)
    c = np.concatenate([[0.0, 1e-300, 1e300, 2.0, 0.5], rng.uniform(0.0, 50.0, 500)])
    many = search.smallest_true_many(lambda x, i: x * x * x >= c[i], c.size, name="x", allow_zero=True)
    one = [search.smallest_true(lambda x, ci=ci: x * x * x >= ci, 1.0, name="x", allow_zero=True) for ci in c]
    assert many.tobytes() == np.array(one).tobytes()
    with pytest.raises(search.CalibrationError, match="no finite x"):
        search.smallest_true_many(lambda x, i: x < 0, 3, name="x")
