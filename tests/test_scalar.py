"""The one-point (scalar) path of the searches: fhsym._core.scalar and the generated ``*_point`` dispatchers.

The searches evaluate profiles one point at a time on Python floats; nothing there decides privacy (every
calibration is certified in ball arithmetic), but a wrong scalar form would give wrong calibrations.
References: mpmath at 40-50 digits of the defining expressions (special functions); the numpy kernels,
themselves tested against mpmath quadrature (tests/test_privacy_profile.py, tests/mechanisms), for the
profiles: equal to their stated accuracy at random points, and the same dispatch region.
"""

from __future__ import annotations

import math

import mpmath as mp
import numpy as np
import pytest

import fhsym
from fhsym._core import scalar as S
from fhsym._generated import flipped_huber_pieces as KP
from fhsym._generated import privacy_pieces as PP


def _rel(a: float, ref) -> float:
    return abs(float((mp.mpf(a) - ref) / ref))


def test_erfcx_diff_and_gauss_profile_against_mpmath():
    def erfcx(x):
        return mp.exp(x * x) * mp.erfc(x)

    worst = 0.0
    with mp.workdps(60):
        for y in [-20.0, -3.0, -0.7, 0.0, 0.4, 2.5, 6.9, 7.0, 12.0, 40.0, 300.0, 5e4]:
            for k in [1e-12, 1e-6, 1e-3, 0.3, 0.5, 2.0, 40.0]:
                worst = max(worst, _rel(S.erfcx_diff(y, k), erfcx(mp.mpf(y)) - erfcx(mp.mpf(y) + mp.mpf(k))))
    assert worst <= 1e-13, worst  # as the numpy version (tests/test_numerics.py): the same branches
    worst = 0.0
    with mp.workdps(60):
        for x in [-30.0, -8.0, -5.5, -1.0, 0.0, 0.8, 4.0, 25.0]:
            for D in [1e-6, 0.01, 1.0, 7.0, 60.0]:
                xm, Dm = mp.mpf(x), mp.mpf(D)
                ref = mp.ncdf(-xm) - mp.exp(Dm * xm + Dm * Dm / 2) * mp.ncdf(-xm - Dm)
                if ref > mp.mpf(10) ** -300:
                    worst = max(worst, _rel(S.gauss_profile(x, D), ref))
                    assert abs(S.log_gauss_profile(x, D) - float(mp.log(ref))) <= 1e-13 * max(1.0, abs(float(mp.log(ref))))
    assert worst <= 1e-13, worst


def test_mills_and_j_against_mpmath():
    def log_r(x):
        return mp.log(mp.ncdf(-x) / mp.npdf(x)) if x < 30 else mp.log(mp.sqrt(mp.pi / 2) * mp.exp(x * x / 2) * mp.erfc(x / mp.sqrt(2)))

    with mp.workdps(60):
        for x in [-10.0, -1.0, 0.0, 1.5, 2.0, 3.5, 9.0, 50.0, 1e4]:
            assert abs(S.log_mills(x) - float(log_r(mp.mpf(x)))) <= 1e-15 * max(1.0, abs(float(log_r(mp.mpf(x)))))
            xm = mp.mpf(x)
            assert _rel(S.k_fun(x), 1 / mp.exp(log_r(xm)) - xm) <= 2e-13  # 1/R - x cancels by ~6 at x = 2
        worst = 0.0
        for b in [0.0, 0.5, 2.0, 10.0, 400.0, 1e4]:
            for h in [1e-9, 1e-3, 0.2, 3.0, 100.0]:
                ref = log_r(mp.mpf(b)) - log_r(mp.mpf(b) + mp.mpf(h))
                worst = max(worst, _rel(S.j_fun(b, h), ref))
    assert worst <= 1e-13, worst


def test_point_dispatch_equals_the_array_dispatch():
    """log_profile_std_point: the same region as the numpy dispatch and the same value to the profile's accuracy
    (1e-9 relative next to the kink, where b D and eps differ in the last bits), over random points."""
    rng = np.random.default_rng(7)
    n = 3000
    b = np.concatenate([[0.0] * 50, 10 ** rng.uniform(-6, 4, n)])
    D = 10 ** rng.uniform(-6, 3, b.size)
    eps = np.where(rng.random(b.size) < 0.3, b * D * (1 + rng.normal(0, 1e-9, b.size)), rng.uniform(0, 50, b.size))
    lw = KP.log_kappa_std(b)
    ref = PP.log_profile_std(b, D, eps, lw)
    regions = PP.log_profile_std_regions(b, D, eps)
    worst, raised = 0.0, 0
    for i in range(b.size):
        args = (float(b[i]), float(D[i]), float(eps[i]), float(lw[i]))
        assert KP.log_kappa_std_point(args[0]) == pytest.approx(float(lw[i]), rel=4e-15, abs=1e-300)
        r = PP.log_profile_std_regions(args[0], args[1], args[2], xp=S.SCALAR)
        assert [bool(x) for x in r] == [bool(reg[i]) for reg in regions]
        try:
            v = PP.log_profile_std_point(*args)
        except (ArithmeticError, ValueError):  # the caller then takes the numpy kernels
            raised += 1
            continue
        if np.isfinite(ref[i]):
            worst = max(worst, abs(math.expm1(v - ref[i])))
        else:
            assert v == ref[i]
    assert worst <= 1e-9 and raised <= b.size // 100, (worst, raised)


@pytest.mark.parametrize("law,shapes", [(fhsym.Gaussian, [0.0]), (fhsym.Laplace, [0.0]),
                                        (fhsym.TruncatedLaplace, [0.05, 1.0, 30.0]),
                                        (fhsym.OSGT, [0.0, 0.01, 1.0, 50.0, 3000.0])])
def test_unit_profiles_equal_the_public_profile(law, shapes):
    """A law's ``unit_log_profile`` (the search's scalar form) against its public profile at (shape, scale 1)."""
    rng = np.random.default_rng(3)
    fam = law.family()
    for shape in shapes:
        member = fam.make(shape, 1.0)
        for u in 10 ** rng.uniform(-4, 1.5, 40):
            for eps in (0.0, float(rng.uniform(0, 3)), float(rng.uniform(0, 30))):
                ref = float(member.privacy_profile(eps, float(u)))
                got = law.unit_log_profile(eps, shape, float(u))
                if ref > 1e-300:
                    assert abs(math.expm1(got - math.log(ref))) <= 1e-9, (shape, u, eps, got, ref)
                else:
                    assert got < -690.0


def test_j_side_by_side_fractions_are_the_node_by_node_sum():
    """j_fun's fast path (the ten nodes' continued fractions in one loop, where they share a depth) returns the very
    double of the node-by-node sum: half * sum_i w_i K(y_i), summed in node order with k_fun's K (the same
    continued fraction), at random points in every depth band, at the band edges and with h <= 0."""
    rng = np.random.default_rng(31)
    bs = np.concatenate([rng.uniform(2.0, 40.0, 4000), [2.0, 3.0, 4.0, 6.0, 10.0, 20.0],
                         np.nextafter([3.0, 4.0, 6.0, 10.0, 20.0], 0.0), rng.uniform(0.5, 2.5, 1000)])
    seen = 0
    for b in bs.tolist():
        for h in (0.0, 1e-12, 1e-6, 1e-3, 0.05, 0.4 * max(b, 1.0), -1e-3, float(rng.uniform(0.0, 0.5 * max(b, 1.0)))):
            half = 0.5 * h
            mid = b + half
            acc = 0.0
            for x, w in S._GL10:
                acc += w * S.k_fun(mid + half * x)
            got = S.j_fun(b, h)
            assert got == half * acc, (b, h, got, half * acc)
            seen += min(mid - abs(half), mid + abs(half)) >= 2.0
    assert seen > 20000  # most points take the fast path
