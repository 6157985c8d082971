"""The proven K-fold PLD bound (fhsym.accounting.pld_exact) against independent exact K-fold profiles,
its re-verification from certificates (bit for bit), and edited grids.

References (none uses fhsym's PLD code):

* Gaussian: the K-fold profile at d = (Delta, ..., Delta) is the 1-D Gaussian profile at sqrt(K) Delta
  (Balle & Wang 2018), evaluated in closed form by mpmath at 50 digits;
* Laplace: the loss is +a (mass 1/2), -a (mass e^{-a}/2) or continuous on (-a, a) with density
  e^{(x - a)/2}/4 (a = Delta/beta); the K-fold sum is a mixture over the atom counts of Irwin-Hall
  densities tilted by e^{s/2}, integrated by mpmath (written here from the definition);
* flipped Huber with alpha > Delta: the exact bracket of ``kfold_atoms_reference`` (atoms + Irwin-Hall);
* flipped Huber K = 2: Algorithm 2 by adaptive quadrature (``fhsym.accounting.iterative``).

Measured gaps (proven / exact - 1, default grid): Gaussian 1.1e-6 to 5.4e-6 (K = 2 ... 1000), Laplace
< 1e-6, FH with atoms (alpha/gamma = 5, K = 4) 2.7e-7 above the reference's upper end.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from math import comb, factorial

import mpmath as mp
import pytest
from hypothesis import given, settings, strategies as st

import fhsym
from fhsym.accounting import kdim_pld
from fhsym.accounting.mechanism_pld import exact_grid, kfold_delta_proven
from fhsym.accounting.pld_exact import MAX_NODES, ExactGrid, exact_delta_upper
from fhsym.calibration.verify import check_certificate
from fhsym.privacy.certificate import Certificate

from kfold_atoms_reference import kfold_delta_bracket


def gaussian_kfold(eps, sigma, K, Delta=1.0):
    with mp.workdps(50):
        mu = mp.sqrt(K) * mp.mpf(Delta) / mp.mpf(sigma)
        e = mp.mpf(eps)
        return mp.ncdf(-e / mu + mu / 2) - mp.exp(e) * mp.ncdf(-e / mu - mu / 2)


def _irwin_hall(z, n):
    if z <= 0 or z >= n:
        return mp.mpf(0)
    return sum((-1) ** k * comb(n, k) * (z - k) ** (n - 1) for k in range(int(mp.floor(z)) + 1)) / factorial(n - 1)


def laplace_kfold(eps, beta, K, Delta=1.0):
    """E[(1 - e^{eps - S})_+] for S the sum of K Laplace privacy losses (module docstring)."""
    with mp.workdps(30):
        a = mp.mpf(Delta) / mp.mpf(beta)
        e = mp.mpf(eps)
        pp, pm = mp.mpf(1) / 2, mp.exp(-a) / 2
        total = mp.mpf(0)
        for i in range(K + 1):
            for j in range(K + 1 - i):
                m = K - i - j
                w = mp.mpf(factorial(K)) / (factorial(i) * factorial(j) * factorial(m)) * pp**i * pm**j
                shift = (i - j) * a - m * a  # S = shift + s, s the sum of the m shifted continuous parts in (0, 2 a m)
                if m == 0:
                    total += w * max(mp.mpf(0), -mp.expm1(e - shift))
                    continue
                lead = (mp.exp(-a) / 4) ** m * (2 * a) ** (m - 1)
                lo, hi = max(mp.mpf(0), e - shift), 2 * a * m
                if lo >= hi:
                    continue
                pts = sorted({lo, hi} | {2 * a * k for k in range(1, m) if lo < 2 * a * k < hi})
                total += w * mp.quad(lambda s: lead * mp.exp(s / 2) * _irwin_hall(s / (2 * a), m)
                                     * -mp.expm1(e - shift - s), pts)
        return total


def test_laplace_reference_is_the_closed_form_at_K_1():
    for beta, eps in [(1.0, 0.3), (0.5, 1.0)]:
        a = 1.0 / beta
        assert float(laplace_kfold(eps, beta, 1)) == pytest.approx(-math.expm1((eps - a) / 2), rel=1e-12)


@pytest.mark.parametrize("sigma,K,eps", [(2.0, 4, 1.0), (5.0, 20, 1.0), (20.0, 100, 0.5), (3.0, 2, 2.0)])
def test_gaussian_kfold_is_above_the_closed_form_and_close(sigma, K, eps):
    exact = float(gaussian_kfold(eps, sigma, K))
    b = kfold_delta_proven(fhsym.Gaussian(sigma), eps, K, delta=exact)
    assert exact <= b.upper <= exact * (1 + 1e-5), (b.upper, exact)


@pytest.mark.parametrize("beta,K,T,eps", [(2.0, 3, 1, 1.0), (4.0, 5, 2, 1.5), (1.0, 2, 1, 0.5)])
def test_laplace_kfold_is_above_the_exact_sum_and_close(beta, K, T, eps):
    exact = float(laplace_kfold(eps, beta, K * T))
    b = kfold_delta_proven(fhsym.Laplace(beta), eps, K, 1.0, T, delta=exact)
    assert exact <= b.upper <= exact * (1 + 1e-5), (b.upper, exact)


@pytest.mark.parametrize("alpha,gamma,K,eps", [(40.0, 8.0, 4, 1.0), (20.0, 6.0, 2, 1.0), (6.0, 2.0, 3, 2.0)])
def test_flipped_huber_with_atoms_is_above_the_exact_bracket(alpha, gamma, K, eps):
    lo, up = (float(x) for x in kfold_delta_bracket(eps, alpha, gamma, 1.0, K, dps=30))
    b = kfold_delta_proven(fhsym.FlippedHuber(alpha, gamma), eps, K, delta=lo)
    assert b.upper >= lo
    if up - lo <= 1e-6 * up:  # the bracket resolves the exact value: the proven bound is close to it
        assert b.upper <= up * (1 + 1e-5)


def test_flipped_huber_K2_against_algorithm_2():
    from fhsym.accounting.iterative import iterative_profile

    for a, g, eps in [(0.5, 2.0, 1.0), (1.0, 3.0, 0.5)]:
        v, err = iterative_profile(eps, a, g, 2)
        b = kfold_delta_proven(fhsym.FlippedHuber(a, g), eps, 2, delta=float(v[0]))
        assert b.upper >= v[0] - 2 * err[0]
        assert b.upper <= (v[0] + 2 * err[0]) * (1 + 1e-5)


def test_grid_costs_are_tiny_against_delta():
    """The default grid's rounding (2^-P), cuts and top node cost < 1e-6 of delta: compared with the same lattice
    at 40 more bits, no cuts, and a top 50% higher."""
    noise, eps, K = fhsym.FlippedHuber(1.0, 3.0), 1.0, 6
    g = exact_grid(noise, 1.0, 1e-6, K)
    ref = ExactGrid(g.step, int(g.nodes * 1.5), g.bits + 40, 0, 0)
    b, r = (exact_delta_upper(noise, 1.0, eps, K, x).upper for x in (g, ref))
    assert r <= b <= r * (1 + 1e-6)


def test_degenerate_pairs_give_the_trivial_bound():
    """Disjoint supports (truncated Laplace with Delta >= 2 bound): delta = 1, and the bound says 1."""
    noise = fhsym.TruncatedLaplace(1.0, 0.4)
    g = ExactGrid(Fraction(1, 64), 64, 40, 0, 0)
    assert exact_delta_upper(noise, 1.0, 0.5, 3, g).upper == 1.0


# ---------------------------------------------------------------------------
# certificates: re-verification is exact, edited grids are checked correctly


def _certificate(noise, eps, K, T, b):
    """The certificate of the claim "pld-kfold" with the bound ``b`` (its grid recorded), as calibrate writes one."""
    from fhsym._core.sensitivities import resolve_sensitivities
    from fhsym.accounting.claims import KFOLD
    from fhsym.privacy.claims import Release, statement

    s = resolve_sensitivities(K, 1.0, None, None)
    target = min(max(b.upper, 1e-300), 0.5)
    ev = KFOLD._pld(Release(noise, eps, s, T), b)
    return Certificate(noise.name, dict(noise.parameters), eps, target, s.sensitivity, s.l2_sensitivity,
                       s.l1_sensitivity, K, T, ev.lower, ev.upper, ev.method, ev.rigorous, KFOLD.name, ev.grid,
                       statement(Release(noise, eps, s, T), KFOLD, ev, target), "test")


@settings(max_examples=8, deadline=None)
@given(st.sampled_from(["laplace", "truncated_laplace", "osgt", "flipped_huber"]),
       st.floats(1.0, 8.0), st.floats(0.0, 1.0), st.integers(2, 4), st.integers(1, 2), st.floats(0.2, 3.0))
def test_re_verification_from_the_json_is_bit_for_bit(name, scale, shape, K, T, eps):
    make = {"laplace": lambda: fhsym.Laplace(scale), "truncated_laplace": lambda: fhsym.TruncatedLaplace(scale, scale * (1 + 20 * shape)),
            "gaussian": lambda: fhsym.Gaussian(scale), "osgt": lambda: fhsym.OSGT(scale * 10 * shape, scale),
            "flipped_huber": lambda: fhsym.FlippedHuber(scale * 10 * shape, scale)}
    noise = make[name]()
    step = 1.0 / math.sqrt(noise.var()) / 60  # a coarse lattice: fast, and any grid is a proof
    b = kfold_delta_proven(noise, eps, K, 1.0, T, delta=1e-6, step=step)
    cert = _certificate(noise, eps, K, T, b)
    v = check_certificate(json.loads(cert.to_json()))
    assert v.rigorous and v.upper == b.upper  # the same float, recomputed from the grid alone
    assert v.ok == (b.upper <= cert.target_delta)


@pytest.fixture(scope="module")
def fh_cert():
    return fhsym.calibrate(1.0, 1e-6, dim=3, method="exact").certificate


def test_calibrated_certificate_records_its_grid_and_re_verifies_exactly(fh_cert):
    assert fh_cert.rigorous and fh_cert.method == "pld-exact-2" and fh_cert.claim == "pld-kfold"
    grid = fh_cert.grid
    assert grid["folds"] == 3 and grid["format"] == "pld-exact-2"
    v = check_certificate(fh_cert.to_json())
    assert v.ok and v.rigorous and v.upper == fh_cert.upper


def _edit(cert, **grid):
    d = json.loads(cert.to_json())
    d["grid"].update(grid)
    return d


def test_edited_grids_are_refused_or_recomputed_as_proofs(fh_cert):
    """Any grid gives a valid bound, but a certificate must be what its grid computes: an edited grid (whose
    recorded bound and sizes no longer follow from it) is rejected; the bound recomputed on that grid is still
    a proof (>= a lower bound of the true delta); a grid too large to compute, for another number of folds, or
    malformed, is refused with ValueError."""
    a, g = fh_cert.parameters["alpha"], fh_cert.parameters["gamma"]
    truth_lo = float(kdim_pld(a, g, 3, upper_only=False).delta_lower(1.0))  # a lower bound of the true delta
    rec = fh_cert.grid
    num, den = (int(x) for x in rec["step"].split("/"))
    f = Fraction(num * 3, den * 2)  # written in lowest terms, as the strict grid parser requires
    edits = [dict(step=f"{f.numerator}/{f.denominator}", step_decimal=repr(float(f))), dict(nodes=rec["nodes"] // 3),
             dict(bits=40), dict(cut_low=str(2**40), cut_high=str(2**35))]
    for e in edits:
        v = check_certificate(_edit(fh_cert, **e))
        assert not v.ok and v.rigorous and v.upper >= truth_lo, e
    for bad, match in [(dict(nodes=MAX_NODES + 1), "nodes"), (dict(folds=4), "folds"), (dict(step="-1/3"), "step"),
                       (dict(bits="many"), "bits"), (dict(format="other"), "format")]:
        with pytest.raises(ValueError, match=match):
            check_certificate(_edit(fh_cert, **bad))


def test_a_pld_certificate_without_its_grid_is_refused(fh_cert):
    d = json.loads(fh_cert.to_json())
    d["grid"] = None
    with pytest.raises(ValueError, match="grid"):
        check_certificate(d)


@pytest.mark.parametrize("kw", [
    dict(dim=2, method="exact"), dict(dim=4, method="sufficient"), dict(dim=2, compositions=2),
    dict(dim=20, method="exact"), dict(dim=3, mechanism="gaussian"), dict(dim=3, mechanism="laplace"),
    dict(dim=3, mechanism="laplace", method="exact"), dict(dim=2, compositions=2, mechanism="truncated_laplace"),
    dict(dim=2, mechanism="osgt"), dict(dim=3, compositions=2, mechanism="staircase"),
])
def test_every_composed_certificate_is_rigorous_and_re_verifies(kw):
    cal = fhsym.calibrate(1.0, 1e-6, **kw)
    cert = cal.certificate
    assert cert.rigorous, (kw, cert.claim, cert.method)
    assert cal.achieved_delta <= 1e-6 and fhsym.verify_certificate(cert.to_json())
    assert check_certificate(cert.to_json()).upper == cert.upper  # exactly the recorded bound
