"""Every argument is used or refused (mission.md): a parameter that would have no effect on the call at hand raises
``ValueError`` naming it (the CLI: status 2 and one line naming the option); a default that is simply not needed
keeps working.  One test per parameter found ignored by the audit of the public API (branch aud41); each failed before
its fix (the value was accepted and the answer did not change).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import fhsym
from fhsym import cli
from fhsym.accounting.dpcd import account_run, run_pld
from fhsym.applications import DPCDConfig, coordinate_descent, dp_coordinate_descent, objective, prox
from fhsym.applications.dpcd_noise import calibrate_dpcd_noise

ROOT = Path(__file__).resolve().parent.parent
LAW = ROOT / "docs" / "examples" / "logistic_law.py"


# --- fhsym.optimal_variance(transport=True) ----------------------------------------------------------------------

def test_transport_true_is_used_where_the_data_answer():
    """At (5, 1e-6) the recorded data answer within 0.2 %, so the default does not try the transport dual; an explicit
    ``transport=True`` was ignored there too (same interval).  Now it tries the dual, whose proven bound is higher."""
    base = fhsym.optimal_variance(5.0, 1e-6)
    moved = fhsym.optimal_variance(5.0, 1e-6, transport=True)
    assert "transport" not in base.source and "the lower end: transport dual" in moved.source
    assert base.lower < moved.lower <= moved.upper == base.upper
    assert moved.proven_delta <= 1e-6
    print(f"\noptimal_variance(5, 1e-6): lower {base.lower!r} -> {moved.lower!r} with transport=True "
          f"({moved.lower / base.lower - 1:.3g} relative)")


# --- the K-dimensional profile: sensitivity with difference --------------------------------------------------------

def test_kdim_sensitivity_with_difference_is_checked():
    """With ``difference`` the profile is at that d; a ``sensitivity`` given with it was validated and ignored (the
    answer was the same for any value).  Now every |d_i| must be at most it; the default (None) still takes any d."""
    with pytest.raises(ValueError, match=r"difference must lie in the sensitivity box .*sensitivity = 0\.4"):
        fhsym.kdim_privacy_profile(1.0, 1.0, 1.0, 2, sensitivity=0.4, difference=[0.5, -0.5])
    inside = fhsym.kdim_privacy_profile(1.0, 1.0, 1.0, 2, sensitivity=0.5, difference=[0.5, -0.5])
    assert inside == fhsym.kdim_privacy_profile(1.0, 1.0, 1.0, 2, difference=[0.5, -0.5])
    # the default: d = (1, ..., 1) without difference, any d with it
    assert fhsym.kdim_privacy_profile(1.0, 1.0, 1.0, 2) == fhsym.kdim_privacy_profile(1.0, 1.0, 1.0, 2, sensitivity=1.0)
    big = fhsym.kdim_privacy_profile(1.0, 1.0, 1.0, 2, difference=[2.0, 0.5])
    assert 0 < big[0] <= big[1] < 1


# --- gaussian_dominance(sigma=...): delta ---------------------------------------------------------------------------

def test_gaussian_dominance_sigma_must_meet_delta():
    """With ``sigma`` given, ``delta`` was validated and ignored: a sigma too small for it returned a noise that is not
    (eps, delta)-DP.  Now the returned FH's certified delta must be <= delta, else ``ValueError`` naming sigma."""
    with pytest.raises(ValueError, match=r"sigma = 3\.0 is too small for \(epsilon, delta\) = \(1\.0, 1e-06\)"):
        fhsym.gaussian_dominance(1.0, 1e-6, sigma=3.0)
    fh, sigma, achieved = fhsym.gaussian_dominance(1.0, 1e-6, sigma=5.0)
    assert sigma == 5.0 and achieved <= 1e-6
    # the same FH is accepted at a delta it meets: delta decides
    assert fhsym.gaussian_dominance(1.0, 1e-4, sigma=3.0)[2] <= 1e-4


# --- DP-CD -------------------------------------------------------------------------------------------------------

def _data(n=60, k=3, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, k))
    return X, X @ np.arange(1.0, k + 1)


def test_lam_is_refused_without_a_regularizer():
    """``regularizer="none"`` has psi = 0: a positive ``lam`` was silently set to 0."""
    X, y = _data()
    theta = np.zeros(3)
    calls = [lambda: prox(np.ones(2), 0.5, "none", 0.1), lambda: objective(X, y, theta, "squared", "none", 0.1),
             lambda: coordinate_descent(X, y, regularizer="none", lam=0.1, n_passes=1, step_sizes=np.ones(3)),
             lambda: DPCDConfig(n_passes=1, regularizer="none", lam=0.1)]
    for call in calls:
        with pytest.raises(ValueError, match=r"lam = 0\.1 is not used with regularizer='none'"):
            call()
    np.testing.assert_array_equal(prox(np.ones(2), 0.5, "none", 0.0), np.ones(2))  # lam = 0: accepted


def test_random_state_is_refused_by_a_non_private_run():
    X, y = _data()
    with pytest.raises(ValueError, match=r"random_state = 3 is not used by a non-private run"):
        dp_coordinate_descent(X, y, n_passes=1, mechanism=None, random_state=3)
    assert dp_coordinate_descent(X, y, n_passes=1, mechanism=None).noise is None


def test_mechanism_and_accountant_must_be_the_reused_noise_s():
    """``noise=`` fixes the mechanism and the accountant; another one passed with it was ignored."""
    X, y = _data()
    gauss = calibrate_dpcd_noise(1.0, 1e-5, 1, 3, "gaussian", "pld")
    bad = [dict(mechanism=None), dict(mechanism="flipped_huber"), dict(accountant="zcdp")]
    for kw in bad:
        with pytest.raises(ValueError, match=f"{next(iter(kw))} = .* is not used with noise="):
            dp_coordinate_descent(X, y, n_passes=1, noise=gauss, random_state=0, **kw)
    for kw in bad[::2]:  # through the config (there the defaults cannot be told from explicit values)
        with pytest.raises(ValueError, match=f"{next(iter(kw))} = .* is not used with noise="):
            DPCDConfig(n_passes=1, noise=gauss, **kw)
    ok = [dict(), dict(mechanism="gaussian", accountant="pld")]
    runs = [dp_coordinate_descent(X, y, n_passes=1, noise=gauss, random_state=0, **kw).theta for kw in ok]
    np.testing.assert_array_equal(runs[0], runs[1])


def test_account_run_and_run_pld_refuse_unused_options():
    a, g, lam = np.zeros(2), np.full(2, 3.0), np.full(2, 0.1)
    with pytest.raises(ValueError, match=r"with_lower = True applies to accountant='pld'"):
        account_run(a, g, lam, 1, 1.0, 1e-5, "zcdp", with_lower=True)
    with pytest.raises(ValueError, match=r"resolution = 100\.0 is not used when step = 0\.001 is given"):
        run_pld(a + 0.5, g, lam, 1, step=1e-3, resolution=100.0)
    with pytest.raises(ValueError, match=r"resolution must be"):
        run_pld(a + 0.5, g, lam, 1, resolution=-1.0)
    coarse, fine = (run_pld(a + 0.5, g, lam, 1, resolution=r) for r in (50.0, 400.0))
    assert coarse.step > 4 * fine.step  # resolution sets the grid (aligned with the loss atoms, so not exactly 8x)
    assert run_pld(a + 0.5, g, lam, 1).step == run_pld(a + 0.5, g, lam, 1, resolution=200.0).step


# --- the CLI: status 2 and one line naming the option ---------------------------------------------------------------

CLI_UNUSED = [
    (["verify", "--list", "--quick"], "--quick"),
    (["verify", "--list", "--only", "distribution"], "--only"),
    (["verify", "--list", "--check", "distribution.rho_properties"], "--check"),
    (["verify", "--list", "--report", "R.md"], "--report"),
    (["verify", "--list", "--no-report"], "--no-report"),
    (["verify", "--list", "-j", "1"], "--jobs"),
    (["verify", "--quick", "--report", "R.md", "--no-report"], "--report"),
    (["verify", "--only", "distribution", "--check", "distribution.rho_properties"], "--only"),
    (["verify", "--quick", "--times", "3", "--json"], "--times"),
    (["calibrate", "--epsilon", "1", "--delta", "1e-6", "--law", str(LAW)], "--law"),
]


@pytest.mark.parametrize("argv,option", CLI_UNUSED, ids=[" ".join(a[:3]) + " " + o for a, o in CLI_UNUSED])
def test_cli_refuses_an_option_it_would_ignore(argv, option, capsys):
    assert cli.main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and f"argument {option}" in err, err


# --- fhsym.advise(data=...) ---------------------------------------------------------------------------------------

def test_advise_refuses_a_data_file_that_does_not_exist(tmp_path, monkeypatch):
    """A named data file that does not exist was ignored (everything computed, as with data=False)."""
    missing = tmp_path / "frontier.json.gz"
    with pytest.raises(ValueError, match=r"data=.* names no frontier data file"):
        fhsym.advise(1.0, 1e-6, data=missing, candidates=("gaussian",))
    monkeypatch.setenv("FHSYM_FRONTIER_DATA", str(missing))
    with pytest.raises(ValueError, match=r"data=True names no frontier data file"):
        fhsym.advise(1.0, 1e-6, data=True, candidates=("gaussian",))
    with pytest.raises(ValueError, match=r"reverify=True bounds or repeats the re-check"):
        fhsym.advise(1.0, 1e-6, reverify=True, candidates=("gaussian",))
    # the default: no file, every calibration computed now
    adv = fhsym.advise(1.0, 1e-6, candidates=("gaussian",))
    assert adv.best.variance == fhsym.calibrate(1.0, 1e-6, mechanism="gaussian").variance


# --- integrations -------------------------------------------------------------------------------------------------

def test_from_privacy_guarantee_refuses_an_optimistic_estimate():
    """dp_accounting's ``pessimistic_estimate=False`` was accepted and ignored (fhsym's calibration is certified)."""
    pytest.importorskip("dp_accounting")
    from dp_accounting.pld import common

    from fhsym.integrations.dp_accounting import FlippedHuberPrivacyLoss

    guarantee = common.DifferentialPrivacyParameters(1.0, 1e-6)
    with pytest.raises(ValueError, match=r"pessimistic_estimate must be True .*got False"):
        FlippedHuberPrivacyLoss.from_privacy_guarantee(guarantee, pessimistic_estimate=False)
    pl = FlippedHuberPrivacyLoss.from_privacy_guarantee(guarantee, pessimistic_estimate=True)
    assert float(fhsym.privacy_profile(1.0, pl.noise.alpha, pl.noise.gamma)) <= 1e-6


def test_recorded_true_is_refused_with_bins():
    """The data are read only on the automatic grid: ``recorded=True`` with ``bins`` was ignored."""
    with pytest.raises(ValueError, match=r"recorded=True applies only with the automatic grid .*bins = 2"):
        fhsym.optimal_variance(1.0, 1e-6, bins=2, recorded=True)
    a, b = fhsym.optimal_variance(1.0, 1e-6, bins=2), fhsym.optimal_variance(1.0, 1e-6, bins=2, recorded=False)
    assert (a.lower, a.upper) == (b.lower, b.upper) and a.source == b.source == "computed"
    assert fhsym.optimal_variance(1.0, 1e-6, recorded=True).source.startswith("recorded")
