"""make_flipped_huber / then_flipped_huber as OpenDP measurements (skipped without OpenDP).

Reference values are independent of the code under test: the lattice profile by direct mpmath
summation of its definition, delta(eps) = sum_k [p(k) - e^eps p(k + S)]_+ with p(k) ~ exp(-rho(k h)/gamma^2)
(30 digits, truncated where the omitted terms are below 1e-40); the K = 2 profile by direct double
summation of the product pmf in float (math.fsum); the sampler's law by a chi-square test against the
same mpmath pmf; fhsym's certified PLD composition for the composition with OpenDP's Gaussian.
"""

from __future__ import annotations

import inspect
import math
import time

import mpmath as mp
import numpy as np
import pytest
from scipy import stats

dp = pytest.importorskip("opendp.prelude", reason="needs the optional dependency opendp (extra opendp)")

from fhsym.integrations import _accounting as fa  # noqa: E402  (fhsym's own PLD engine, one import point)
from fhsym.integrations.lattice_privacy import lattice_privacy_curve  # noqa: E402
from fhsym.integrations.opendp import (  # noqa: E402
    make_calibrated_flipped_huber,
    make_flipped_huber,
    then_calibrated_flipped_huber,
    then_flipped_huber,
)
from fhsym.noise import exact_sampling as XS  # noqa: E402
from fhsym.privacy.discrete_enclosure import discrete_profile_enclosure  # noqa: E402

FLOAT = dp.atom_domain(T=float, nan=False)
ABS = dp.absolute_distance(T=float)
INT = dp.atom_domain(T=int)
IABS = dp.absolute_distance(T=int)


@pytest.fixture(autouse=True)
def _features():
    dp.enable_features("contrib", "honest-but-curious")


def _vec(K, T=float):
    return dp.vector_domain(dp.atom_domain(T=T, nan=False) if T is float else dp.atom_domain(T=T), size=K)


def _log_weights(alpha, gamma, h, N):
    """log of exp(-rho_alpha(k h)/gamma^2) for k = -N..N (mpmath, the paper's eq 7 on the lattice)."""
    a, g, hh = mp.mpf(alpha), mp.mpf(gamma), mp.mpf(h)
    out = []
    for k in range(-N, N + 1):
        t = abs(k * hh)
        rho = a * t if t <= a else (t * t + a * a) / 2
        out.append(-rho / (g * g))
    return out


def _pmf_ref(alpha, gamma, h, N):
    with mp.workdps(30):
        lw = _log_weights(alpha, gamma, h, N)
        w = [mp.exp(v) for v in lw]
        Z = mp.fsum(w)
        return [x / Z for x in w]


def _profile_ref(eps, alpha, gamma, h, S, N):
    """sum_k [p(k) - e^eps p(k + S)]_+ by direct summation (k = -N..N; p(k + S) = 0 beyond N is an upper bound)."""
    with mp.workdps(30):
        p = _pmf_ref(alpha, gamma, h, N)
        e = mp.exp(mp.mpf(eps))
        tot = mp.mpf(0)
        for i in range(len(p)):
            q = p[i + S] if i + S < len(p) else mp.mpf(0)
            tot += max(p[i] - e * q, 0)
        return float(tot)


# ---------------------------------------------------------------------------- OpenDP's conventions
def test_argument_order_is_opendps():
    ours = list(inspect.signature(make_flipped_huber).parameters)
    laplace = list(inspect.signature(dp.m.make_laplace).parameters)
    assert ours[:2] == laplace[:2] == ["input_domain", "input_metric"]
    assert ours[2:] == ["alpha", "gamma", "k"] and "k" in laplace
    assert list(inspect.signature(then_flipped_huber).parameters) == ours[2:]
    assert list(inspect.signature(make_calibrated_flipped_huber).parameters)[:4] == \
        list(inspect.signature(dp.m.make_canonical_noise).parameters)[:4]
    # positional use in OpenDP's order works; the former (alpha, gamma, domain, metric) order is refused
    m = make_flipped_huber(FLOAT, ABS, 1.0, 2.0, -8)
    assert str(m.output_measure) == "SmoothedMaxDivergence"
    with pytest.raises(ValueError, match="input_domain"):
        make_flipped_huber(1.0, 2.0, FLOAT, ABS)


def test_then_chains_after_transformations_like_opendps_own():
    # an OpenDP pipeline: clamp a dataset to [0, 1], sum it, add noise; d_in is the number of records changed
    total = (dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.symmetric_distance()) >> \
        dp.t.then_clamp((0.0, 1.0)) >> dp.t.then_sum()
    pipe = total >> then_flipped_huber(1.0, 2.0, k=-3)
    direct = make_flipped_huber(FLOAT, ABS, 1.0, 2.0, k=-3)
    for d in (1, 2):
        # OpenDP's float sum moves by d (1 + 9.3e-9) for d changed records (its rounding allowance):
        # the chain's profile is the bare measurement's at that sensitivity, i.e. at ceil(d_sum 2^3) = 8 d + 1 steps
        assert total.map(d) > d
        assert pipe.map(d).delta(0.5) == direct.map(total.map(d)).delta(0.5) == direct.map(d + 0.125).delta(0.5)
    out = pipe([0.2, 0.7, 5.0])
    assert (out * 8).is_integer()                   # on the lattice 2^-3 Z
    # the partial also composes from the space tuple, as dp.m.then_laplace
    assert ((FLOAT, ABS) >> then_flipped_huber(1.0, 2.0, k=-3)).map(1.0).delta(1.0) == direct.map(1.0).delta(1.0)
    cal = (INT, IABS) >> then_calibrated_flipped_huber(1, (1.0, 1e-6))
    assert cal.map(1).delta(1.0) <= 1e-6


# ---------------------------------------------------------------------------- the sampler
def test_noise_is_fhsyms_exact_lattice_sampler(monkeypatch):
    seen = []
    real = XS.ExactLatticeSampler.sample

    def spy(self, size, random_state=None):
        seen.append((size, type(random_state)))
        return real(self, size, random_state)

    monkeypatch.setattr(XS.ExactLatticeSampler, "sample", spy)
    m = make_flipped_huber(FLOAT, ABS, 1.0, 2.0, k=-4)
    y = m(3.0)
    assert seen == [(1, XS.RandomBits)]              # one exact draw from the OS-seeded bit source
    assert (y * 16).is_integer()
    mv = make_flipped_huber(_vec(5), dp.linf_distance(T=float), 1.0, 2.0, k=-4)
    mv([0.0] * 5)
    assert seen[-1] == (5, XS.RandomBits)            # one batch of K draws
    # and the release is snap(x) + index * 2^k: with the sampler returning index 3, x = 0.30 -> 5/16 + 3/16
    monkeypatch.setattr(XS.ExactLatticeSampler, "sample", lambda self, size, random_state=None: np.full(size, 3))
    assert m(0.30) == 0.5
    assert make_flipped_huber(INT, IABS, 1.0, 2.0)(7) == 10


def test_sampler_law_chi_square():
    # 10^4 draws through one vector measurement (OS randomness: fails by chance with probability 1e-6)
    alpha, gamma, n = 2.0, 3.0, 10_000
    m = make_flipped_huber(_vec(n, int), dp.l1_distance(T=int), alpha, gamma)
    x = np.asarray(m([0] * n))
    N = 40
    p = np.array([float(v) for v in _pmf_ref(alpha, gamma, 1.0, 200)])[200 - N:200 + N + 1]  # k = -N..N
    edges = 12
    obs = [np.sum(x < -edges)] + [np.sum(x == k) for k in range(-edges, edges + 1)] + [np.sum(x > edges)]
    tail = (1.0 - p.sum()) / 2.0 + p[: N - edges].sum()
    exp = np.array([tail] + list(p[N - edges:N + edges + 1]) + [tail]) * n
    assert abs(exp.sum() - n) < 1e-6
    chi2 = float(np.sum((np.array(obs) - exp) ** 2 / exp))
    pval = stats.chi2.sf(chi2, len(exp) - 1)
    print(f"chi-square over {len(exp)} cells, 10^4 draws: {chi2:.1f}, p = {pval:.3f}")
    assert pval > 1e-6


# ---------------------------------------------------------------------------- the privacy map
@pytest.mark.parametrize("alpha,gamma,k,d_in", [(1.0, 2.0, -3, 1.0), (0.0, 1.5, -2, 0.5), (4.0, 1.0, -3, 2.0)])
def test_scalar_map_is_the_certified_lattice_profile(alpha, gamma, k, d_in):
    m = make_flipped_huber(FLOAT, ABS, alpha, gamma, k)
    h = 2.0**k
    S = math.ceil(d_in / h)
    prof = m.map(d_in)
    N = int(40 * gamma / h) + S + 10
    for eps in (0.0, 0.25, 1.0, 2.5):                     # nodes of the map's grid: the arb upper end itself
        ref = _profile_ref(eps, alpha, gamma, h, S, N)
        got = prof.delta(eps)
        assert ref <= got <= ref * (1 + 1e-12) + 1e-300
        assert got == discrete_profile_enclosure(eps, alpha, gamma, h, S * h)[1]
    for eps in (0.3, 1.2345):                             # between nodes: a chord above the convex curve
        ref = _profile_ref(eps, alpha, gamma, h, S, N)
        assert ref <= prof.delta(eps) <= ref * (1 + 1e-5)
    # a d_in between lattice multiples costs ceil(d_in / h) steps, never less
    assert m.map(d_in + h / 2).delta(1.0) == m.map(d_in + h).delta(1.0)
    e = prof.epsilon(1e-6)                                # OpenDP's own inversion of the curve
    assert _profile_ref(e, alpha, gamma, h, S, N) <= 1e-6
    assert m.map(0.0).delta(0.0) == 0.0


def test_integer_map_and_saturation():
    m = make_flipped_huber(INT, IABS, 1.0, 2.0)
    ref = _profile_ref(1.0, 1.0, 2.0, 1.0, 2, 200)
    assert ref <= m.map(2).delta(1.0) <= ref * (1 + 1e-12)
    big = make_flipped_huber(dp.atom_domain(T="i32"), dp.absolute_distance(T="i32"), 0.0, 50.0)
    assert all(v <= 2**31 - 1 for v in (big(2**31 - 1) for _ in range(20)))
    u32 = make_flipped_huber(dp.atom_domain(T="u32"), dp.absolute_distance(T="u32"), 0.0, 50.0)
    draws = [u32(0) for _ in range(40)]
    assert all(v >= 0 for v in draws) and 0 in draws       # negative noise saturates at 0


def test_vector_map_is_the_corner_bound():
    alpha, gamma, k = 1.0, 2.0, -2
    h, S = 2.0**k, 4
    m2 = make_flipped_huber(_vec(2), dp.linf_distance(T=float), alpha, gamma, k)
    # exact K = 2 profile at the corner (S, S) by direct double summation of the product pmf
    N = 200
    p = np.array([float(v) for v in _pmf_ref(alpha, gamma, h, N)])
    q = np.concatenate([p[S:], np.zeros(S)])              # p(k + S)
    P2, Q2 = np.outer(p, p), np.outer(q, q)
    for eps in (0.25, 1.0, 2.0):
        ref = math.fsum(np.maximum(P2 - math.exp(eps) * Q2, 0.0).ravel())
        got = m2.map(1.0).delta(eps)
        assert ref * (1 - 1e-9) <= got <= ref * (1 + 1e-3) + 1e-12
        # a smaller difference inside the box is dominated by the corner
        q1 = np.concatenate([p[S // 2:], np.zeros(S // 2)])
        inner = math.fsum(np.maximum(P2 - math.exp(eps) * np.outer(q, q1), 0.0).ravel())
        assert inner <= got
    # l2 and l1 metrics are certified through the same box (conservative)
    ml2 = make_flipped_huber(_vec(2), dp.l2_distance(T=float), alpha, gamma, k)
    assert ml2.map(1.0).delta(1.0) == m2.map(1.0).delta(1.0)
    # K = 1 vectors use the scalar curve
    m1 = make_flipped_huber(_vec(1), dp.l1_distance(T=float), alpha, gamma, k)
    assert m1.map(1.0).delta(1.0) == make_flipped_huber(FLOAT, ABS, alpha, gamma, k).map(1.0).delta(1.0)
    out = m2([0.1, 0.6])
    assert len(out) == 2 and all((v * 4).is_integer() for v in out)


# ---------------------------------------------------------------------------- composition with OpenDP's combinators
@pytest.mark.parametrize("d1,d2", [(1e-6, 1e-6), (1e-5, 1e-7)])
def test_composition_with_opendps_gaussian(d1, d2):
    alpha, gamma, sigma, k = 1.0, 2.0, 1.5, -3
    fh = dp.c.make_fix_delta(make_flipped_huber(FLOAT, ABS, alpha, gamma, k), d1)
    gauss = dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(dp.m.make_gaussian(FLOAT, ABS, scale=sigma)), d2)
    comp = dp.c.make_composition([fh, gauss])
    eps_tot, delta_tot = comp.map(1.0)
    eps1, eps2 = fh.map(1.0)[0], gauss.map(1.0)[0]
    assert eps_tot == pytest.approx(eps1 + eps2, rel=1e-12) and delta_tot == pytest.approx(d1 + d2, rel=1e-12)
    # each part is valid: the exact lattice profile at the reported epsilon is within its delta
    N = int(40 * gamma * 8) + 20
    assert _profile_ref(eps1, alpha, gamma, 2.0**k, 8, N) <= d1
    # the composed claim is valid: fhsym's certified PLD of the same two mechanisms is below it
    lattice = fa.from_privacy_profile(lambda e: np.array([discrete_profile_enclosure(float(x), alpha, gamma, 2.0**k, 1.0)[1]
                                                          for x in np.ravel(e)]), 1e-3, profile_rtol=0.0, upper_only=True)
    pld = lattice.compose(fa.gaussian_pld(sigma, 1.0, 1e-3, upper_only=True))
    assert float(pld.delta_upper(eps_tot)) <= delta_tot
    assert len(comp(0.0)) == 2


def test_adaptive_composition_with_opendps_laplace():
    odo = dp.c.make_adaptive_composition(FLOAT, ABS, dp.approximate(dp.max_divergence()), d_in=1.0,
                                         d_mids=[(1.2, 1e-6), (1.0, 0.0)])
    qbl = odo(5.0)
    fh = dp.c.make_fix_delta(make_flipped_huber(FLOAT, ABS, 4.0, 4.0, -4), 1e-6)
    assert fh.map(1.0)[0] <= 1.2
    assert (qbl(fh) * 16).is_integer()
    assert isinstance(qbl(dp.c.make_approximate(dp.m.make_laplace(FLOAT, ABS, scale=1.0))), float)


# ---------------------------------------------------------------------------- calibration without search
def test_binary_search_param_and_calibrated_constructor():
    def chain(s):
        return dp.c.make_fix_delta(make_flipped_huber(FLOAT, ABS, alpha=s, gamma=s), 1e-6)

    t = time.perf_counter()
    s = dp.binary_search_param(chain, d_in=1.0, d_out=(1.0, 1e-6))
    took = time.perf_counter() - t
    print(f"dp.binary_search_param over make_flipped_huber (scalar float): {took:.3f} s, s = {s!r}")
    eps, delta = chain(s).map(1.0)
    assert eps <= 1.0 and delta == 1e-6
    assert chain(s * (1 - 1e-6)).map(1.0)[0] > 1.0          # it found the boundary, not just a passing value
    t = time.perf_counter()
    m = make_calibrated_flipped_huber(FLOAT, ABS, d_in=1.0, d_out=(1.0, 1e-6))
    print(f"make_calibrated_flipped_huber (no search): {time.perf_counter() - t:.3f} s")
    assert m.map(1.0).delta(1.0) <= 1e-6
    mi = make_calibrated_flipped_huber(INT, IABS, d_in=3, d_out=(0.5, 1e-7))
    assert mi.map(3).delta(0.5) <= 1e-7


def _corner_profile_2d(eps, alpha, gamma, h, S, N=200):
    """The exact K = 2 profile at the corner (S, S): direct double summation of the mpmath product pmf."""
    p = np.array([float(v) for v in _pmf_ref(alpha, gamma, h, N)])
    q = np.concatenate([p[S:], np.zeros(S)])
    return math.fsum(np.maximum(np.outer(p, p) - math.exp(eps) * np.outer(q, q), 0.0).ravel())


@pytest.mark.parametrize("metric", [dp.linf_distance(T=float),
                                    pytest.param(dp.l2_distance(T=float), marks=pytest.mark.slow),
                                    pytest.param(dp.l1_distance(T=float), marks=pytest.mark.slow)])
def test_calibrated_vector_constructor_is_private_by_an_independent_sum(metric):
    from fhsym.integrations.opendp import _calibrate_vector

    eps, delta, k = 1.0, 1e-6, -2
    m = make_calibrated_flipped_huber(_vec(2), metric, d_in=1.0, d_out=(eps, delta), k=k)
    assert m.map(1.0).delta(eps) <= delta                  # the measurement's own (reported) map
    alpha, gamma = _calibrate_vector(eps, delta, 1.0, 2.0**k, 2)  # memoised: the parameters m was built with
    ref = _corner_profile_2d(eps, alpha, gamma, 2.0**k, 4)
    assert ref <= delta                                     # and the exact profile, summed independently
    assert ref >= delta / 4                                 # not grossly over-noised
    out = m([0.1, 0.6])
    assert len(out) == 2 and all((v * 4).is_integer() for v in out)


@pytest.mark.slow
def test_calibrated_vector_constructor_integers_and_size_one():
    mi = make_calibrated_flipped_huber(_vec(3, int), dp.linf_distance(T=int), d_in=2, d_out=(2.0, 1e-5))
    assert mi.map(2).delta(2.0) <= 1e-5 and len(mi([0, 1, 2])) == 3
    # K = 1 vectors calibrate as scalars (same map as the scalar measurement)
    m1 = make_calibrated_flipped_huber(_vec(1), dp.l2_distance(T=float), d_in=1.0, d_out=(1.0, 1e-6), k=-3)
    assert m1.map(1.0).delta(1.0) <= 1e-6


def test_vector_map_nodes_batched_equal_per_node_enclosures():
    from fhsym.noise.discrete_profile_arb import profile_enclosure_steps, profile_upper_ends

    for alpha, gamma, h, S in ((1.0, 2.0, 0.25, 4), (0.0, 3.0, 1.0, 1), (5.0, 1.0, 0.25, 3), (0.3, 2.0, 2.0**-10, 1500)):
        eps = [0.0, 0.01, 0.3, 0.31, 1.0, 0.2, 2.5, 6.0]     # not sorted: the warm start only applies going up
        got = profile_upper_ends(eps, alpha, gamma, h, S)
        assert got == [profile_enclosure_steps(e, alpha, gamma, h, S)[1] for e in eps]
        if h >= 0.25:                                       # and above the mpmath sum of the definition
            N = int(40 * gamma / h) + 20
            for e, g in zip(eps, got):
                ref = _profile_ref(e, alpha, gamma, h, S, N)
                assert ref <= g <= ref * (1 + 1e-12) + 1e-300


def test_no_noise_at_gamma_zero():
    m = make_flipped_huber(FLOAT, ABS, 1.0, 0.0)
    assert m(0.375) == 0.375
    assert m.map(1e-9).delta(5.0) == 1.0 and m.map(0.0).delta(0.0) == 0.0


def test_bad_inputs_raise():
    with pytest.raises(ValueError, match="alpha"):
        make_flipped_huber(FLOAT, ABS, -1.0, 1.0)
    with pytest.raises(ValueError, match="gamma"):
        make_flipped_huber(FLOAT, ABS, 1.0, -1.0)
    with pytest.raises(ValueError, match="fixed size"):
        make_flipped_huber(dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.l2_distance(T=float), 1.0, 1.0)
    with pytest.raises(ValueError, match="input_metric"):
        make_flipped_huber(_vec(3), dp.symmetric_distance(), 1.0, 1.0)
    with pytest.raises(ValueError, match="input_metric"):
        make_flipped_huber(FLOAT, dp.l2_distance(T=float), 1.0, 1.0)
    with pytest.raises(ValueError, match="input_metric"):
        make_flipped_huber(INT, ABS, 1.0, 1.0)
    with pytest.raises(ValueError, match="NaN"):
        make_flipped_huber(dp.atom_domain(T=float), ABS, 1.0, 1.0)
    with pytest.raises(ValueError, match="k is only used for float"):
        make_flipped_huber(INT, IABS, 1.0, 1.0, k=0)
    with pytest.raises(ValueError, match="k must"):
        make_flipped_huber(FLOAT, ABS, 1.0, 1.0, k=-40)      # 2^-40 < gamma 2^-30: outside the exact sampler
    with pytest.raises(ValueError, match="k must"):
        make_flipped_huber(FLOAT, ABS, 1.0, 1.0, k=1.5)
    with pytest.raises(ValueError, match="d_in"):
        make_calibrated_flipped_huber(_vec(2, int), dp.linf_distance(T=int), 0, (1.0, 1e-6))
    with pytest.raises(ValueError, match="delta"):
        make_calibrated_flipped_huber(_vec(2), dp.linf_distance(T=float), 1.0, (1.0, 1.5))
    with pytest.raises(ValueError, match="d_out"):
        make_calibrated_flipped_huber(FLOAT, ABS, 1.0, 1.0)
    with pytest.raises(ValueError, match="epsilon"):
        lattice_privacy_curve(1.0, 1.0, 0.5, 2)(-0.1)
    m = make_flipped_huber(_vec(3), dp.linf_distance(T=float), 1.0, 1.0)
    with pytest.raises(Exception, match="d_in"):
        m.map(-1.0)
    with pytest.raises(Exception, match="length 3"):
        m([1.0, 2.0])
    with pytest.raises(Exception, match="d_in"):
        make_flipped_huber(INT, IABS, 1.0, 1.0).map(-1)
    dp.disable_features("honest-but-curious")
    try:
        with pytest.raises(Exception, match="honest-but-curious"):
            make_flipped_huber(FLOAT, ABS, 1.0, 1.0)
    finally:
        dp.enable_features("honest-but-curious")
