"""Issue 31 item 3: the K-fold search's shortcuts (FFT power in the float bound, golden section by tie tests, the
short shave, the curve's tie test) change how fast the search runs, never what a certificate proves.

Reference values are independent of the code under test: exact sums of a discrete pmf in extended precision, the
plain golden-section search of :mod:`fhsym._core.minimise`, closed forms of synthetic bounds.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import fhsym
from fhsym._core.minimise import golden_by_ties, golden_section
from fhsym.accounting import pld_core as P
from fhsym.accounting.mechanism_pld import kfold_delta_upper, step_for
from fhsym.accounting.pld import gaussian_pld
from fhsym.calibration import search_kfold as S


def test_self_compose_fft_route_brackets_the_exact_kfold_delta():
    """fft=True (the search's route) on a support short enough for direct sums: both sides still bracket the
    extended-precision K-fold sums (upper tail dominated from above, lower from below), and the two routes agree."""
    base = gaussian_pld(1.0, 1.0, step=2e-2)
    K = 12
    direct, fft = base.self_compose(K), base.self_compose(K, fft=True)
    for eps in (0.0, 0.5, 2.0, 5.0):
        lo, up = fft.delta_bounds(eps)
        d_lo, d_up = direct.delta_bounds(eps)
        assert lo <= d_up and d_lo <= up
        assert abs(up - d_up) <= 1e-12 + 1e-9 * d_up
    ref = np.array([1.0], dtype=np.longdouble)
    for _ in range(K):
        ref = np.convolve(ref, base.upper.pmf.astype(np.longdouble))
    out = P._self_compose_bound(base.upper, K, 1e-18, True, fft=True)
    i0 = out.offset - K * base.upper.offset
    tail_ref = np.cumsum(ref[::-1])[::-1]  # P(L >= l_j), exact
    tail_out = np.cumsum(out.pmf[::-1])[::-1] + out.inf_mass
    assert np.all(tail_out >= tail_ref[i0:i0 + out.pmf.size].astype(float) * (1 - 1e-12) - 1e-300)


def test_self_compose_refuses_a_non_boolean_fft():
    with pytest.raises(ValueError, match="fft"):
        gaussian_pld(1.0, 1.0, step=2e-2).self_compose(3, fft=1)  # type: ignore[arg-type]


def test_search_bound_with_fft_lies_above_the_certificates_lattice_bound():
    """The float search bound (coarse lattice, FFT power) is pessimistic against the fine-lattice direct bound."""
    noise = fhsym.FlippedHuber(alpha=5.0, gamma=8.0)
    coarse = kfold_delta_upper(noise, 1.0, 3, 1.0, 1, step=step_for(noise, 1.0, 80.0), certified=False)
    fine = kfold_delta_upper(noise, 1.0, 3, 1.0, 1, step=step_for(noise, 1.0, 200.0), certified=False)
    assert fine <= coarse <= fine * 1.01


@pytest.mark.parametrize("f", [lambda x: (x - 0.3) ** 2, lambda x: abs(x + 0.7) + 0.1 * x * x,
                               lambda x: math.cos(3 * x) + 0.05 * x])
def test_golden_by_ties_takes_the_plain_golden_sections_choices(f):
    """With ``challenge`` answering only "below the kept value?" the search visits the same points and keeps the
    same best as the plain golden section that knows every value."""
    seen = []

    def full(z: float) -> float:
        seen.append(z)
        return f(z)

    def challenge(z: float, kept: float) -> float:
        seen.append(z)
        v = f(z)
        return v if v < kept else math.inf

    golden_by_ties(full, challenge, -1.0, 1.0, 10)
    ref = []
    x, fx = golden_section(lambda z: ref.append(z) or f(z), -1.0, 1.0, 10)
    assert seen == ref
    assert min(f(z) for z in seen) == fx


def test_shave_is_the_least_feasible_scale_within_its_tolerance():
    """A bound decreasing in the scale with its root at s* = 2.0: the shave from above lands on the feasible side
    within 1e-7 in log scale; from an infeasible start it keeps the start (the certificate steps up from there)."""
    target = 1e-6

    def bound(s: float) -> float:
        return target * (2.0 / s) ** 20

    s = S.shave_scale(bound, math.log(target), 2.0 * (1 + 3e-5))
    assert bound(s) <= target and s <= 2.0 * (1 + 2e-7)
    start = 2.0 * (1 - 2e-5)
    assert S.shave_scale(bound, math.log(target), start) == start


def test_shave_keeps_the_search_scale_when_nothing_nearby_is_feasible():
    s = S.shave_scale(lambda s: 1.0, math.log(1e-6), 3.0)
    assert s == 3.0


class _Stub:
    """A family whose log variance is -k log(shape): along the curve shape = e^x / Delta the objective is (2 - k) x."""

    def __init__(self, k: float) -> None:
        self.k = k

    def log_variance_point(self, shape: float) -> float:
        return -self.k * math.log(shape)


def test_curve_tie_solves_the_tie_where_the_objective_rises():
    x = S._curve_tie(_Stub(1.0), lambda u: 1.0 / u, 1.0, 0.75, 0.0)  # objective x: the tie at x = 0.75
    assert x == pytest.approx(0.75, abs=1e-11)
    assert S._curve_tie(_Stub(1.0), lambda u: 1.0 / u, 1.0, 9.5, 0.0) is None  # no tie on [x0 - 8, x0 + 8]


def test_curve_tie_is_refused_where_the_objective_falls():
    assert S._curve_tie(_Stub(3.0), lambda u: 1.0 / u, 1.0, 0.0, 0.0) is None  # objective -x


def test_curve_tie_on_flipped_hubers_atom_curve():
    """The objective of flipped Huber along its K-fold atom curve rises, then is flat (the Laplace limit): a tie."""
    fam = fhsym.FlippedHuber.family()
    x = S._curve_tie(fam, lambda u: 1.0 / (10.0 * u), 1.0, 5.0, math.log(13.4))
    assert x is not None
    assert fam.log_variance_point(math.exp(x) / 10.0) + 2.0 * x == pytest.approx(5.0, abs=1e-9)


def test_flipped_huber_members_past_the_limit_shape_are_one_law_at_one_variance():
    """The K-fold search evaluates one scan shape past FlippedHuberFamily.limit_shape: members there with the same
    variance have the same float K-fold bound (to 1e-9; the independent check is the PLD itself), and the same
    variance as Laplace(sigma / sqrt 2) (closed form)."""
    fam = fhsym.FlippedHuber.family()
    sigma = 19.0
    lim = fam.limit_shape
    assert lim is not None
    bounds = []
    for b in (lim, 46.4, 1e4):
        gamma = sigma / math.exp(0.5 * fam.log_variance_point(b))  # variance sigma^2
        noise = fam.make(b, gamma)
        assert noise.var() == pytest.approx(sigma**2, rel=1e-12)
        assert gamma / b == pytest.approx(sigma / math.sqrt(2.0), rel=1e-12)  # Laplace(beta): variance 2 beta^2
        bounds.append(kfold_delta_upper(noise, 1.0, 20, 1.0, 1, step=step_for(noise, 1.0, 80.0), certified=False))
    assert max(bounds) <= min(bounds) * (1 + 1e-9)


def test_flipped_huber_scalar_members_compute_the_upper_quartile_when_first_used():
    noise = fhsym.FlippedHuber(alpha=1.0, gamma=2.0)
    assert "_upper_quartile" not in vars(noise)
    assert float(noise.sf(1.0)) == pytest.approx(float(noise.sf(np.array([1.0]))[0]))
    assert noise.isf(0.25) == pytest.approx(2.0 * noise._upper_quartile, rel=1e-15)  # the quartile of the standard law


@pytest.mark.parametrize("z0", [-3.0, 0.0, 2.9])
def test_descend_by_ties_finds_the_minimum_from_afar_and_never_loses(z0):
    """A unimodal objective (minimum at z = 1.3) and one whose minimum is a cliff's edge (f jumps up left of z = 0.4,
    as K-fold landscapes at a kink): the descent from any start lands within its xtol, by comparisons only."""
    from fhsym._core.minimise import descend_by_ties

    for f, zmin in ((lambda z: (z - 1.3) ** 2, 1.3), (lambda z: z if z >= 0.4 else 10.0 - z, 0.4)):
        calls = []

        def challenge(z: float, kept: float) -> float:
            calls.append(z)
            v = f(z)
            return v if v < kept else math.inf

        z, fz = descend_by_ties(challenge, z0, f(z0), -5.0, 5.0, step=0.05, xtol=1e-4)
        assert fz == f(z) <= f(z0)
        assert abs(z - zmin) <= 1e-4 and len(calls) <= 40


def test_descend_by_ties_stays_in_its_range():
    from fhsym._core.minimise import descend_by_ties

    z, fz = descend_by_ties(lambda z, k: -z if -z < k else math.inf, 0.0, 0.0, -1.0, 1.0, step=0.1, xtol=1e-6)
    assert z == 1.0 and fz == -1.0


class _Family:
    """A stand-in family: log v(shape) = (log shape)^2 / 8, shapes in [1e-3, 1e4]."""

    shape_range = (1e-3, 1e4, True)

    def log_variance_point(self, shape: float) -> float:
        return math.log(shape) ** 2 / 8.0


def _bounds(target: float, halved: float):
    """bound_of(shape, level) = target (s*(shape) / s)^20 on level 0, x ``halved`` on level 1: the least scale of a
    shape is s*(shape) = exp(-log(shape)/2 + 1) on level 0, so F = (log shape)^2/8 - log shape + 2 is least at
    shape e^4 (F = 0); level 1 lowers every root by log(1/halved)/20."""
    def bound_of(shape: float, level: int):
        star = math.exp(-0.5 * math.log(shape) + 1.0)
        return lambda s: target * (star / s) ** 20 * (halved if level else 1.0)
    return bound_of


@pytest.mark.parametrize("halved, levels", [(0.999, 1), (0.5, 2)])
def test_refine_kfold_reaches_the_optimum_of_the_certificates_lattice(halved, levels):
    """From a coarse optimum (shape e^3, a scale 1e-3 above its root) the refinement lands on the shape of least
    variance (e^4, to its 4e-3 in log shape) with its least scale (feasible, to 1e-7); the halved lattice is taken
    when it saves more than 2e-4 of the variance (x 0.5 in delta: 1/20 log 2 = 3.5 % in scale), then with the first
    lattice's point after it."""
    target = 1e-6
    bound_of = _bounds(target, halved)
    fam = _Family()
    sh0 = math.exp(3.0)
    s0 = math.exp(-1.5 + 1.0) * (1 + 1e-3)
    points = S.refine_kfold(fam, bound_of, math.log(target), sh0, s0)
    assert len(points) == levels
    for level, (sh, s) in zip(range(levels - 1, -1, -1), points):
        assert bound_of(sh, level)(s) <= target  # feasible on its lattice
        assert abs(math.log(sh) - 4.0) <= 4e-3
        star = math.exp(-0.5 * math.log(sh) + 1.0) * (halved if level else 1.0) ** (1 / 20)
        assert star <= s <= star * (1 + 2e-7)


def test_refine_kfold_from_an_infeasible_point_goes_up_to_the_root():
    """The search's scale fails the certificate's lattice (its fast profile was optimistic): the least scale above
    it."""
    target = 1e-6
    bound_of = _bounds(target, 0.999)
    (sh, s), = S.refine_kfold(_Family(), bound_of, math.log(target), math.exp(4.0), math.exp(-1.0) * (1 - 1e-3))
    assert bound_of(sh, 0)(s) <= target and abs(math.log(sh) - 4.0) <= 4e-3


def test_refine_kfold_keeps_the_shape_where_the_coarse_lattice_was_accurate():
    """The search's scale 1e-6 above the first lattice's root (the coarse lattice's error 2e-6 < _REFINE_GATE): the
    least scale of the search's shape only, no shape search (the common flipped Huber and Laplace paths)."""
    target = 1e-6
    bound_of = _bounds(target, 0.5)
    sh0 = math.exp(3.0)
    (sh, s), = S.refine_kfold(_Family(), bound_of, math.log(target), sh0, math.exp(-0.5) * (1 + 1e-6))
    assert sh == sh0 and bound_of(sh, 0)(s) <= target and s <= math.exp(-0.5) * (1 + 2e-7)


def test_least_scale_takes_a_bound_that_is_not_a_number_as_infeasible():
    """A bound that is nan (a failed evaluation) is never feasible: none at all gives inf, and a nan region below the
    root is not mistaken for a feasible one (it was: log-scale -511.5, the walk's end)."""
    from fhsym._core.search import least_scale

    assert least_scale(lambda s: math.nan, math.log(1e-6), 0.0) == math.inf
    x = least_scale(lambda s: 1e-6 / s if s > 2.0 else math.nan, math.log(1e-6), 0.0)
    assert 2.0 < math.exp(x) <= 2.0 * (1.0 + 1e-5)


def test_least_scale_refuses_a_known_point_other_than_its_start():
    """``known`` is g at the start x0: given at another point, it would silently replace x0 (an argument ignored);
    it is refused, and at x0 it saves the evaluation there."""
    from fhsym._core.search import least_scale

    with pytest.raises(ValueError, match="known must be"):
        least_scale(lambda s: 1.0 / s, math.log(0.5), 0.0, known=(1.0, -1.0))
    calls = []

    def bound(s):
        calls.append(s)
        return 1.0 / s

    x = least_scale(bound, math.log(0.5), 1.0, known=(1.0, -1.0 - math.log(0.5)), xtol=1e-9)
    assert abs(x - math.log(2.0)) < 1e-9 and math.e not in calls
