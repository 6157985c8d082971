"""make_flipped_huber as an OpenDP measurement (skipped without OpenDP).

Reference values: mpmath quadrature of the 1-D profile (proofs.reference), the paper's Algorithm 2
(iterative integration, fhsym.accounting.iterative -- an independent method) for K = 2, fhsym's certified PLD
composition for the composition with OpenDP's own Gaussian.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

dp = pytest.importorskip("opendp.prelude", reason="needs the optional dependency opendp (extra opendp)")

import fhsym  # noqa: E402
from fhsym.integrations import _accounting as fa  # noqa: E402  (fhsym's own PLD engine, one import point)
from fhsym.integrations.opendp import make_flipped_huber, privacy_curve  # noqa: E402
from proofs import reference as R  # noqa: E402

FLOAT = dp.atom_domain(T=float, nan=False)
ABS = dp.absolute_distance(T=float)


@pytest.fixture(autouse=True)
def _features():
    dp.enable_features("contrib", "honest-but-curious")


def _vec(K):
    return dp.vector_domain(dp.atom_domain(T=float, nan=False), size=K)


@pytest.mark.parametrize("alpha,gamma,d_in", [(1.0, 2.0, 1.0), (0.0, 1.5, 0.5), (4.0, 1.0, 2.0)])
def test_scalar_profile_is_the_exact_profile_rounded_up(alpha, gamma, d_in):
    m = make_flipped_huber(alpha, gamma)
    assert str(m.output_measure) == "SmoothedMaxDivergence"
    prof = m.map(d_in)
    for eps in (0.0, 0.3, 1.0, 2.5):
        ref = float(R.privacy_profile(eps, alpha, gamma, d_in, dps=30))
        got = prof.delta(eps)
        assert ref <= got <= ref * (1 + 2e-9)
    # OpenDP's own inversion of the curve is conservative and close to fhsym's certified epsilon
    e = prof.epsilon(1e-6)
    assert float(R.privacy_profile(e, alpha, gamma, d_in, dps=30)) <= 1e-6
    assert e == pytest.approx(float(fhsym.epsilon_for_delta(1e-6, alpha, gamma, d_in)), rel=1e-6)
    assert m.map(0.0).delta(0.0) == 0.0


def test_noise_comes_from_fhsyms_sampler(monkeypatch):
    m = make_flipped_huber(1.0, 2.0)
    # the release is x + FlippedHuber.rvs(): replace the sampler and the release follows it
    monkeypatch.setattr(fhsym.FlippedHuber, "rvs", lambda self, size=None, random_state=None: 0.25 if size is None else np.full(size, 0.25))
    assert m(1.0) == 1.25
    assert make_flipped_huber(1.0, 2.0, _vec(3), dp.linf_distance(T=float))([0.0, 1.0, 2.0]) == [0.25, 1.25, 2.25]
    monkeypatch.undo()
    # and with the real sampler the noise has the FH distribution (KS test; fails by chance with prob. 1e-6)
    noise = np.asarray(make_flipped_huber(1.0, 2.0, _vec(4000), dp.linf_distance(T=float))([0.0] * 4000))
    assert stats.kstest(noise, fhsym.FlippedHuber(1.0, 2.0).cdf).pvalue > 1e-6


def test_vector_linf_profile_is_the_kfold_upper_bound():
    alpha, gamma = 1.0, 2.0
    m2 = make_flipped_huber(alpha, gamma, _vec(2), dp.linf_distance(T=float))
    eps = np.array([0.25, 1.0, 2.0])
    ref, err = fhsym.accounting.iterative_profile(eps, alpha, gamma, 2, 1.0)  # Algorithm 2, independent of the PLD
    got = np.array([m2.map(1.0).delta(float(e)) for e in eps])
    assert np.all(got >= ref - err - 1e-12)
    assert np.all(got <= ref * (1 + 1e-4))
    # K = 1 vectors use the closed form of the scalar measurement
    m1 = make_flipped_huber(alpha, gamma, _vec(1), dp.linf_distance(T=float))
    assert m1.map(1.0).delta(1.0) == make_flipped_huber(alpha, gamma).map(1.0).delta(1.0)
    # the corner dominates the box: any difference vector in it has a smaller profile
    lo_d = fa.kdim_pld(alpha, gamma, 5, difference=[1.0, 0.5, 0.0, 1.0, 0.2]).delta_upper(1.0)
    assert lo_d <= make_flipped_huber(alpha, gamma, _vec(5), dp.linf_distance(T=float)).map(1.0).delta(1.0)


def test_vector_l2_is_certified_through_the_box():
    alpha, gamma, K = 1.0, 2.0, 2
    m2 = make_flipped_huber(alpha, gamma, _vec(K), dp.l2_distance(T=float))
    minf = make_flipped_huber(alpha, gamma, _vec(K), dp.linf_distance(T=float))
    for e in (0.5, 2.0):
        d2 = m2.map(1.0).delta(e)
        assert d2 == minf.map(1.0).delta(e)
        # independent lower bounds: the extreme vectors (1, 0) and (1, 1)/sqrt(2) of the l2 ball
        assert float(R.privacy_profile(e, alpha, gamma, 1.0, dps=30)) <= d2
        v, err = fhsym.accounting.iterative_profile(e, alpha, gamma, K, 1.0 / math.sqrt(2.0))
        assert float(v[0] - err[0]) <= d2


@pytest.mark.parametrize("d1,d2", [(1e-6, 1e-6), (1e-5, 1e-7), (1e-7, 1e-5)])
def test_composition_with_opendps_gaussian(d1, d2):
    alpha, gamma, sigma = 1.0, 2.0, 1.5
    fh = dp.c.make_fix_delta(make_flipped_huber(alpha, gamma), d1)
    gauss = dp.c.make_fix_delta(dp.c.make_zCDP_to_approxDP(dp.m.make_gaussian(FLOAT, ABS, scale=sigma)), d2)
    comp = dp.c.make_composition([fh, gauss])
    eps_tot, delta_tot = comp.map(1.0)
    eps1, eps2 = fh.map(1.0)[0], gauss.map(1.0)[0]
    assert eps_tot == pytest.approx(eps1 + eps2, rel=1e-12) and delta_tot == pytest.approx(d1 + d2, rel=1e-12)
    # each part is valid: the exact profiles at the reported epsilons are within the deltas
    assert float(R.privacy_profile(eps1, alpha, gamma, 1.0, dps=30)) <= d1
    assert float(fhsym.privacy_profile(eps2, 0.0, sigma, 1.0)) <= d2
    # the composed claim is valid: fhsym's certified upper bound of the composed profile is below it
    pld = fa.flipped_huber_pld(alpha, gamma, 1.0, 1e-3).compose(fa.gaussian_pld(sigma, 1.0, 1e-3))
    lo, up = pld.delta_bounds(eps_tot)
    assert lo <= up <= delta_tot
    assert pld.epsilon(delta_tot) <= eps_tot
    assert len(comp(0.0)) == 2


def test_bad_inputs_raise():
    with pytest.raises(ValueError, match="alpha"):
        make_flipped_huber(-1.0, 1.0)
    with pytest.raises(ValueError, match="fixed size"):
        make_flipped_huber(1.0, 1.0, dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.l2_distance(T=float))
    with pytest.raises(ValueError, match="input_metric"):
        make_flipped_huber(1.0, 1.0, _vec(3), dp.l1_distance(T=float))
    with pytest.raises(ValueError, match="input_metric"):
        make_flipped_huber(1.0, 1.0, FLOAT, dp.l2_distance(T=float))
    with pytest.raises(ValueError, match="input_domain"):
        make_flipped_huber(1.0, 1.0, dp.atom_domain(T=float), ABS)  # NaN allowed
    with pytest.raises(ValueError, match="step"):
        make_flipped_huber(1.0, 1.0, step=1e-3)
    with pytest.raises(ValueError, match="epsilon"):
        privacy_curve(1.0, 1.0, 1.0)(-0.1)
    with pytest.raises(ValueError, match="d_in"):
        privacy_curve(1.0, 1.0, math.nan)
    m = make_flipped_huber(1.0, 1.0, _vec(3), dp.linf_distance(T=float))
    with pytest.raises(Exception, match="d_in"):
        m.map(-1.0)
    with pytest.raises(Exception, match="length 3"):
        m([1.0, 2.0])
    dp.disable_features("honest-but-curious")
    try:
        with pytest.raises(Exception, match="honest-but-curious"):
            make_flipped_huber(1.0, 1.0)
    finally:
        dp.enable_features("honest-but-curious")
