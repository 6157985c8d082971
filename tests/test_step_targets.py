"""The step laws' C99 and JAX numerics (issue 28, item 3): ``fhsym/_generated/c/declared_<law>.c`` and
``fhsym/_generated/declared/jax_<law>.py``, printed from the staircase and truncated staircase step declarations by
``python -m fhsym.codegen`` (freshness: tests/test_codegen_targets.py's ``--check``).  The C files are compiled with
``-Wall -Wextra -Werror -pedantic`` (conftest ``build_c_library``) and both targets are checked against the step
densities' definitions in mpmath (level r^l on each step, r = e^-eps, summed step by step: exact for a constant
density), never against fhsym's own numerics."""

from __future__ import annotations

import functools
import importlib
import importlib.util
import math

import mpmath
import pytest
from target_access import c_getter, jax_getter

import fhsym
from fhsym.codegen import generate as G
from fhsym.codegen import step_laws as SL
from proofs.reference_steps import StepRef

M = mpmath.mpf
EPS, W = 1.0, 0.3  # design eps (per period) and first-step width / period
K, RHO = 5, 0.25  # the truncated staircase cut at beta = 5.25 periods


class Ref:
    """The step density in units of the period: level r^k on [k, k + W), r^(k+1) on [k + W, k + 1) (cut at beta)."""

    def __init__(self, beta=None):
        self.r, self.W, self.beta = mpmath.exp(-M(EPS)), M(W), beta
        last = int(beta) + 1 if beta is not None else int(60 * math.log(10) / EPS) + 2
        steps = []
        for k in range(last):
            for lo, hi, lev in ((M(k), k + self.W, k), (k + self.W, M(k + 1), k + 1)):
                hi = min(hi, M(beta)) if beta is not None else hi
                if hi > lo:
                    steps.append((lo, hi, self.r**lev))
        self.steps = steps
        self.Z = 2 * sum((hi - lo) * g for lo, hi, g in steps)

    def pdf(self, t):
        t = abs(M(t))
        return next((g for lo, hi, g in self.steps if lo <= t < hi), M(0)) / self.Z

    def sf(self, x):
        return sum(((hi - max(lo, x)) * g for lo, hi, g in self.steps if hi > x), M(0)) / self.Z

    def moment(self, n):
        return 2 * sum((hi ** (n + 1) - lo ** (n + 1)) / (n + 1) * g for lo, hi, g in self.steps) / self.Z

    def entropy(self):
        return -2 * sum((hi - lo) * g / self.Z * mpmath.log(g / self.Z) for lo, hi, g in self.steps)

    def profile(self, e, d):
        cuts = sorted({c for lo, hi, _ in self.steps for c in (lo, hi, -lo, -hi, lo - d, hi - d, -lo - d, -hi - d)})
        out = M(0)
        for a, b in zip(cuts, cuts[1:]):
            m = (a + b) / 2
            v = self.pdf(m) - mpmath.exp(e) * self.pdf(m + d)
            if v > self.pdf(m) * M(10) ** -30:  # a loss of exactly eps (equal levels) cancels to rounding noise
                out += v * (b - a)
        return out


@pytest.fixture(scope="module")
def clib(build_c_library):
    return build_c_library("step_c", {rel: (G.default_dir("c") / rel).read_text() for rel, _ in SL.outputs_c()})


_c, _jax = c_getter, jax_getter


def _cell(t):
    k = math.floor(t)
    r = t - k
    return (k, 0, W - r) if r < W else (k, 1, 1 - r)


def _check(get, truncated):
    par = (EPS, W, K, RHO) if truncated else (EPS, W)
    with mpmath.workdps(40):
        ref = Ref(K + RHO if truncated else None)
        assert get("norm")(*par) == pytest.approx(float(ref.Z), rel=1e-14, abs=0)
        for t in (0.1, 0.7, 3.2, 5.1, 20.5):
            if truncated and t > K + RHO:
                continue
            k, i, a = _cell(t)
            if truncated and k >= K:
                sf = get("sf_top")(t - K, *par)
            else:
                sf = get(f"sf_{i}")(k, a, *par)
            assert sf == pytest.approx(float(ref.sf(M(t))), rel=1e-13, abs=0), t
            assert get(f"logpdf_{i}")(k, *par) == pytest.approx(float(mpmath.log(ref.pdf(t))), rel=1e-13, abs=0), t
            v = t - k - (0 if i == 0 else W)  # the distance above the step's lower edge: P(0 < T <= t)
            assert get(f"half_{i}")(k, v, *par) == pytest.approx(float(1 / M(2) - ref.sf(M(t))), rel=1e-13, abs=0), t
        for p in (0.3, 1e-3, 1e-9):  # isf: the period from `period`, the step from sf at the edge W (as the classes do)
            if truncated and p <= get("sf_top")(0.0, *par):
                i = 0 if p >= get("sf_top")(W, *par) else 1
                x = K + get(f"isf_top_{i}")(p, *par)
            else:
                k = math.floor(get("period")(p, *par))
                k = min(k, K - 1) if truncated else k
                i = 0 if p >= get("sf_0")(k, 0.0, *par) else 1
                x = k + (W if i == 0 else 1.0) - get(f"isf_{i}")(k, p, *par)
            # to the conditioning of a double x: |sf(x) - q| <= 1e-12 q + g(x) |x| 4 ulp (one ulp, 8.9e-16, of
            # x = 5.2499997 moves sf by 2e-10 of q = 1e-9 where the cut leaves 2.6e-7 of a step)
            slack = 1e-12 * p + float(ref.pdf(x)) * abs(x) * 2.0**-52 * 4
            assert abs(float(ref.sf(M(x))) - p) <= slack, (p, x)
        if truncated:
            s2 = sum(get("var_period")(k, EPS, W) for k in range(K)) + get("var_last")(*par)
            assert s2 / (get("norm")(*par) / 2) == pytest.approx(float(ref.moment(2)), rel=1e-13, abs=0)
            for n in (4, 6):
                sn = sum(get(f"moment_period_{n}")(k, EPS, W) for k in range(K)) + get(f"moment_last_{n}")(*par)
                assert sn / (get("norm")(*par) / 2) == pytest.approx(float(ref.moment(n)), rel=1e-13, abs=0), n
            h = math.log(get("norm")(*par)) + (sum(get("nlog_period")(k, EPS, W) for k in range(K))
                                               + get("nlog_last")(*par)) / (get("norm")(*par) / 2)
            assert h == pytest.approx(float(ref.entropy()), rel=1e-13, abs=0)
        else:
            assert get("variance")(*par) == pytest.approx(float(ref.moment(2)), rel=1e-13, abs=0)
            assert get("moment_4")(*par) == pytest.approx(float(ref.moment(4)), rel=1e-13, abs=0)
            assert get("entropy")(*par) == pytest.approx(float(ref.entropy()), rel=1e-13, abs=0)
            for e, d in ((0.3, 0.5), (1.5, 1.0), (0.0, 0.2), (1.2, 0.7)):  # sum_n W_n(d) (1 - e^(eps - n EPS))_+ (0 at the last two)
                delta = sum(get(f"profile_weight_{n}")(d, *par) * max(0.0, -math.expm1(e - n * EPS)) for n in (1, 2))
                assert delta == pytest.approx(float(ref.profile(M(e), M(d))), rel=1e-13, abs=1e-40), (e, d)


@pytest.mark.parametrize("law", ["staircase", "truncated_staircase"])
def test_step_law_c_numerics_against_the_definition(clib, law):
    _check(_c(clib, law), law == "truncated_staircase")


@pytest.mark.parametrize("law", ["staircase", "truncated_staircase"])
def test_step_law_jax_numerics_against_the_definition(law):
    mod = importlib.import_module(f"fhsym._generated.declared.{law}")
    jmod = pytest.importorskip(f"fhsym._generated.declared.jax_{law}") if importlib.util.find_spec("jax") else None
    if jmod is None:
        pytest.skip("the JAX target needs the optional extra jax")
    assert jmod.DIGEST == mod.DIGEST and len(jmod.SF) == len(mod.SF) and len(jmod.ISF) == len(mod.ISF)
    _check(_jax(law), law == "truncated_staircase")


# ------------------------------------------------------------------ the printed profile (shift up to one period)
#: (design eps0, first-step width W / period) and the (eps, d) grid: eps across 0, n eps0 (a loss of exactly eps) and
#: beyond 2 eps0 (delta = 0), d in periods up to 1 (the printed lattice form's range)
STAIR = ((0.7, 0.2), (1.0, 0.3), (3.0, 0.9))
STAIR_EPS = (0.0, 0.1, 0.5, 0.999, 1.0, 1.5, 1.99, 2.0, 3.0)  # times eps0
STAIR_D = (0.0, 0.1, 0.5, 0.7, 1.0)


@functools.lru_cache(maxsize=None)  # the C and the JAX test ask for the same references
def _stair_profile(e, d, eps0, w):
    """int [p(t) - e^eps p(t + d)]_+ dt at 50 digits, p the staircase density in periods: level l(|t|) = k on
    [k, k + W), k + 1 on [k + W, k + 1), p = r^l / Z, Z = 2 (W + r (1 - W))/(1 - r), r = e^-eps0; exact on the
    intervals between the breakpoints of p(t) and p(t + d), over the periods until r^N < 1e-48."""
    with mpmath.workdps(50):
        e, d, eps0, w = M(e), M(d), M(eps0), M(w)
        r = mpmath.exp(-eps0)
        Z = 2 * (w + r * (1 - w)) / (1 - r)
        n = int(112 / eps0) + 3 + int(d)  # every period the shifted density reaches before r^n < 1e-48
        pts = sorted({s * c - sh for k in range(n) for c in (M(k), k + w) for s in (1, -1) for sh in (0, d)})

        def p(t):
            t = abs(t)
            k = mpmath.floor(t)
            return r ** (k + (1 if t - k >= w else 0)) / Z

        out = M(0)
        for a, b in zip(pts, pts[1:]):
            m = (a + b) / 2
            v = p(m) - mpmath.exp(e) * p(m + d)
            if v > p(m) * M(10) ** -40:  # a loss of exactly eps (equal levels) cancels to rounding noise
                out += v * (b - a)
        return out


def _against_definition(f, e, d, eps0, w, label):
    """f(e, d, eps0, w), its 50-digit reference and their relative error (the absolute value where the reference is
    0), asserted within 1e-14."""
    ref, v = _stair_profile(e, d, eps0, w), f(e, d, eps0, w)
    err = float(abs(M(v) / ref - 1)) if ref else abs(v)
    assert err <= 1e-14, (label, eps0, w, e, d, v, ref)
    return v, ref, err


def _check_stair_profile(f, label):
    worst, exact, n = 0.0, 0, 0
    for eps0, w in STAIR:
        law = fhsym.Staircase(eps0, 1.0, gamma=w)
        for fe in STAIR_EPS:
            for d in STAIR_D:
                e = fe * eps0
                v, ref, err = _against_definition(f, e, d, eps0, w, label)
                worst = max(worst, err)
                n += 1
                if d == 0.0:  # the class refuses a zero sensitivity; the printed profile is 0 (the reference's 0)
                    continue
                cls = float(law.privacy_profile(e, sensitivity=d))
                exact += v == cls
                assert v == pytest.approx(cls, rel=1e-15, abs=0.0), (label, eps0, w, e, d, v, cls)
    print(f"\nstaircase printed profile ({label}): worst relative error vs 50-digit definition {worst:.1e} over {n} "
          f"points; {exact} of {n - len(STAIR) * len(STAIR_EPS)} (d > 0) equal to fhsym.Staircase's profile bit for bit")


def test_staircase_c_profile_against_the_definition(clib):
    f = c_getter(clib, "staircase")("profile")
    _check_stair_profile(f, "C")
    for args in ((-0.1, 0.5, 1.0, 0.3), (0.5, -0.1, 1.0, 0.3), (0.5, 2.0**52 + 2, 1.0, 0.3), (math.nan, 0.5, 1.0, 0.3),
                 (0.5, math.nan, 1.0, 0.3), (0.5, 1.5, math.nan, 0.3), (0.5, 0.5, 0.0, 0.3), (0.5, 2.0**40, -1.0, 0.3)):
        assert math.isnan(f(*args)), args  # refused: NaN, never a delta (d > 2^52 periods: p + c is not exact)


@pytest.mark.slow  # JAX dispatches each operation eagerly the first time
def test_staircase_jax_profile_under_jit_against_the_definition():
    jax = pytest.importorskip("jax", reason="the JAX target needs the optional extra jax")
    m = importlib.import_module("fhsym._generated.declared.jax_staircase")
    assert m.PROFILE is m.profile
    f = jax.jit(m.profile)
    _check_stair_profile(lambda *a: float(f(*a)), "JAX jit")
    assert math.isnan(float(f(0.5, 2.0**52 + 2, 1.0, 0.3))) and math.isnan(float(f(0.5, 2.0**40, -1.0, 0.3)))


# ---------------------------------------------------------------- the printed profile beyond one period (d = p + f)
#: shifts in periods beyond one: a few periods, near and at period boundaries (f = 0, f tiny, f near 1), near the
#: step edge (f = W +- tiny) and many periods (runs of J periods, fhsym.symbolic.steps.profile_periods)
FAR_D = (1.0 + 2.0**-40, 1.3, 2.0 - 2.0**-40, 2.0, 2.0 + 2.0**-40, 2.5, 3.7, 7.01, 12.999, 31.25)
#: eps over eps0: 0, between lattice points, at a level difference n (a loss of exactly eps: that n adds 0) and
#: far out (large runs drop their last terms)
FAR_EPS = (0.0, 0.37, 1.0, 2.5, 3.0, 6.2, 11.0, 40.0)
#: (eps0, W, d, eps/eps0): W near 1 and a tiny f, where the overlap W + f - 1 is of the order of f (formed W + f first
#: it kept only ulp(1)/f of its digits: 7.4e-4 of delta at W = 1 - 1e-13, d = 1 + 1.5e-13)
FAR_EDGE = ((1.0, 1 - 1e-13, 1 + 1.5e-13, 1.9), (3.0, 1 - 1e-13, 2 + 1.5e-13, 2.9), (0.7, 1 - 1e-12, 5 + 1.7e-12, 5.5),
            (1.0, 1 - 1e-13, 3 + 0.5e-13, 3.5), (1.0, 0.5 + 1e-13, 1 + 1.3e-13, 0.5))


def _check_far_profile(f, label):
    worst, n, worst_cls = 0.0, 0, 0.0
    for eps0, w in STAIR:
        law = fhsym.Staircase(eps0, 1.0, gamma=w)
        for d in FAR_D + (w + 1.0, w + 2.0 - 2.0**-40, w + 5.0 + 2.0**-40):
            for fe in FAR_EPS:
                e = fe * eps0
                v, ref, err = _against_definition(f, e, d, eps0, w, label)
                worst = max(worst, err)
                n += 1
                cls = float(law.privacy_profile(e, sensitivity=d))  # the class (exact f, W and exponents)
                if ref:
                    worst_cls = max(worst_cls, float(abs(M(cls) / ref - 1)))
                assert v == pytest.approx(cls, rel=1e-14, abs=0.0), (label, eps0, w, e, d, v, cls)
    print(f"\nstaircase printed profile beyond one period ({label}): worst relative error vs 50-digit definition "
          f"{worst:.1e} over {n} points (d in (1, 31.25] periods); fhsym.Staircase there: {worst_cls:.1e}")
    edge = 0.0
    for eps0, w, d, fe in FAR_EDGE:
        v, ref, err = _against_definition(f, fe * eps0, d, eps0, w, label)
        assert ref, (label, eps0, w, fe * eps0, d, v, ref)  # every edge point has a nonzero delta
        edge = max(edge, err)
    print(f"staircase printed profile beyond one period ({label}), a tiny f with W + f - 1 near 0: worst relative "
          f"error {edge:.1e} over {len(FAR_EDGE)} points")


@functools.lru_cache(maxsize=None)  # the C and the JAX test ask for the same references (eps0 = 0.01: ~10 s each)
def _stair_profile_far(e, d, eps0, w):
    return StepRef(eps0, w, None, dps=50).profile_far(e, d)


#: (eps0, W, d periods, eps/eps0): hundreds of periods, and 10^5 periods at eps0 = 0.1 and 0.01 (the mass spread over
#: ~1/eps0 periods: 10^4 and 10^3 times fewer than the shift); at eps = 3e4 eps0 delta is 1 to 20 digits (the shift's
#: loss 10^5 eps0 is far above eps wherever the mass is), at eps 5 and 50 periods of loss below it delta is 0.23 / 0.22
LONG_RUNS = ((0.7, 0.2, 200.3, 0.0), (0.7, 0.2, 200.3, 57.5), (1.0, 0.3, 399.0, 101.0), (0.05, 0.45, 250.6, 80.0),
             (0.1, 0.5, 1e5 + 0.25, 3e4), (0.1, 0.5, 1e5 + 0.25, 99995.0), (0.01, 0.5, 1e5 + 0.25, 3e4),
             (0.01, 0.5, 1e5 + 0.25, 99950.0))


def _check_long_runs(f, label):
    """Hundreds to 10^5 periods: runs of many periods against the 50-digit definition (up to 400 periods over every
    period, beyond over the windows where the integrand lives: StepRef.profile_far)."""
    worst, far = 0.0, []
    for eps0, w, d, fe in LONG_RUNS:
        e = fe * eps0
        v = f(e, d, eps0, w)
        ref = _stair_profile_far(e, d, eps0, w) if d > 400 else _stair_profile(e, d, eps0, w)
        err = float(abs(M(v) / M(ref) - 1))
        assert err <= 1e-13, (label, eps0, w, d, e, v, ref)
        worst = max(worst, err)
        if d > 1e4:
            far.append(f"eps0 = {eps0:g}, eps = {e:g}: delta {float(ref):.4g}, error {err:.1e}")
    print(f"staircase printed profile over long runs ({label}): worst relative error {worst:.1e}; at 10^5 periods: "
          + "; ".join(far))


@pytest.mark.slow  # ~1 min: 50-digit references over up to 2,500 periods, and 10^5 periods at eps0 = 0.01 (~25 s)
def test_staircase_c_profile_beyond_one_period(clib):
    f = c_getter(clib, "staircase")("profile")
    _check_far_profile(f, "C")
    _check_long_runs(f, "C")
    for d in (1.0, 2.0, 3.0):  # continuous across whole periods (d = p with f = 0 against d = p - tiny)
        assert f(0.2, d, 1.0, 0.3) == pytest.approx(f(0.2, d - 2.0**-45, 1.0, 0.3), rel=1e-12, abs=0.0), d


@pytest.mark.slow  # JAX dispatches each operation eagerly the first time
def test_staircase_jax_profile_beyond_one_period_under_jit():
    jax = pytest.importorskip("jax", reason="the JAX target needs the optional extra jax")
    m = importlib.import_module("fhsym._generated.declared.jax_staircase")
    f = jax.jit(m.profile)
    _check_far_profile(lambda *a: float(f(*a)), "JAX jit")
    _check_long_runs(lambda *a: float(f(*a)), "JAX jit")


# ------------------------------------------------- the truncated staircase's printed profile (shift up to one period)
#: (eps0, W, K, rho): the cut at K + rho periods, K = 1 (no whole period before the last two), rho = 0, rho near 1
CUT = ((1.0, 0.3, 5, 0.25), (0.7, 0.2, 1, 0.1), (3.0, 0.9, 2, 0.95), (0.5, 0.6, 1, 0.0), (2.0, 0.4, 3, 0.0),
       (0.3, 0.5, 40, 0.5))
CUT_D = (0.0, 0.05, 0.2, 0.3, 0.5, 0.9, 0.95, 1.0 - 2.0**-40, 1.0)
#: (eps0, W, K, rho, d): a tiny shift with rho - d at (or next to) the cell edge W, where the overlap W + d - rho is
#: of the order of d (formed W + d first it kept only ulp(rho)/d of its digits: 8e-6 at d = 2e-12)
CUT_EDGE = ((1.0, 0.3, 1, 0.3 + 1e-12, 2e-12), (1.0, 0.3, 1, 0.3 + 1e-9, 1.5e-9), (1.0, 0.6, 1, 0.6 + 2.0**-40, 2.0**-39),
            (0.7, 0.45, 3, 0.45 - 2.0**-41, 2.0**-40))


def _check_cut_profile(f, label, eps_multiples=STAIR_EPS):
    """profile(eps, d, eps0, W, K, rho) against int [p(t) - e^eps p(t + d)]_+ dt at 50 digits (Ref: the cut step
    density's pieces, exact between their edges, the cut beta among them) and fhsym.TruncatedStaircase's profile;
    ``eps_multiples``: the eps values in units of eps0 (all of STAIR_EPS in the slow test)."""
    worst, n, exact, where = 0.0, 0, 0, None
    for eps0, w, kk, rho in CUT:
        rho = (kk + rho) - kk  # exact: K + rho is then the bound the reference and the class take (2 + 0.95 rounds)
        global EPS, W
        saved, (EPS, W) = (EPS, W), (eps0, w)
        try:
            with mpmath.workdps(50):
                ref = Ref(kk + rho)
                law = fhsym.TruncatedStaircase(eps0, 1.0, gamma=w, bound=kk + rho)
                for fe in eps_multiples:
                    for d in CUT_D:
                        e = fe * eps0
                        want, v = ref.profile(M(e), M(d)), f(e, d, eps0, w, kk, rho)
                        err = float(abs(M(v) / want - 1)) if want else abs(v)
                        # 1e-13: a cell's overlap is a linear form in W, d, rho rounded in doubles (the class forms
                        # them in exact rationals)
                        assert err <= 1e-13, (label, eps0, w, kk, rho, e, d, v, want)
                        if err > worst:
                            worst, where = err, (eps0, w, kk, rho, e, d)
                        n += 1
                        if d > 0:
                            cls = float(law.privacy_profile(e, d))
                            exact += v == cls
                            assert v == pytest.approx(cls, rel=1e-13, abs=0.0), (label, eps0, w, kk, rho, e, d, v, cls)
        finally:
            EPS, W = saved
    print(f"\ntruncated staircase printed profile ({label}): worst relative error vs 50-digit definition {worst:.1e} "
          f"over {n} points at (eps0, W, K, rho, eps, d) = {where}; {exact} equal to fhsym.TruncatedStaircase's profile "
          f"bit for bit")
    edge = 0.0
    for eps0, w, kk, rho, d in CUT_EDGE:
        rho = (kk + rho) - kk
        saved, (EPS, W) = (EPS, W), (eps0, w)
        try:
            with mpmath.workdps(50):
                ref = Ref(kk + rho)
                for fe in (0.0, 0.5, 1.5, 2.5):
                    want, v = ref.profile(M(fe * eps0), M(d)), f(fe * eps0, d, eps0, w, kk, rho)
                    err = float(abs(M(v) / want - 1))
                    assert err <= 1e-14, (label, eps0, w, kk, rho, fe * eps0, d, v, want)
                    edge = max(edge, err)
        finally:
            EPS, W = saved
    print(f"truncated staircase printed profile ({label}), a tiny shift with beta - d at a cell edge: worst relative "
          f"error {edge:.1e} over {4 * len(CUT_EDGE)} points")


def test_truncated_staircase_c_profile_against_the_definition(clib):
    """Four eps multiples in the default run: 0, just below one step, and exactly one and two steps (where a level
    difference's term starts); all of STAIR_EPS in the slow test below."""
    f = c_getter(clib, "truncated_staircase")("profile")
    _check_cut_profile(f, "C", eps_multiples=(0.0, 0.999, 1.0, 2.0))
    for args in ((0.5, 0.5, 1.0, 0.3, 0, 0.5), (0.5, 0.5, 1.0, 0.3, 2.5, 0.5), (0.5, 2.0**52 + 2, 1.0, 0.3, 2, 0.5),
                 (0.5, 0.5, 1.0, 0.3, 2, 1.0), (-0.1, 0.5, 1.0, 0.3, 2, 0.5), (math.nan, 0.5, 1.0, 0.3, 2, 0.5),
                 (0.5, 0.5, -1.0, 0.3, 2, 0.5), (0.5, math.nan, 1.0, 0.3, 2, 0.5)):
        assert math.isnan(f(*args)), args  # refused: NaN, never a delta


@pytest.mark.slow  # ~9 s: 50-digit references at every eps multiple
def test_truncated_staircase_c_profile_at_every_eps_multiple(clib):
    _check_cut_profile(c_getter(clib, "truncated_staircase")("profile"), "C")


@pytest.mark.slow  # JAX dispatches each operation eagerly the first time
def test_truncated_staircase_jax_profile_under_jit_against_the_definition():
    jax = pytest.importorskip("jax", reason="the JAX target needs the optional extra jax")
    m = importlib.import_module("fhsym._generated.declared.jax_truncated_staircase")
    assert m.PROFILE is m.profile
    f = jax.jit(m.profile)
    _check_cut_profile(lambda *a: float(f(*a)), "JAX jit")
    assert math.isnan(float(f(0.5, 2.0**52 + 2, 1.0, 0.3, 2.0, 0.5)))
    _check_cut_far(lambda *a: float(f(*a)), "JAX jit")


# --------------------------------------- the truncated staircase's printed profile beyond one period (d = p + f)
#: (eps0, W, K, rho): as CUT, with W near 1 and 40 periods
CUT_FAR = ((1.0, 0.3, 5, 0.25), (0.7, 0.2, 1, 0.1), (3.0, 0.9, 2, 0.95), (0.5, 0.6, 1, 0.0), (2.0, 0.4, 3, 0.0),
           (0.3, 0.5, 40, 0.5), (1.0, 1 - 1e-13, 3, 0.5))


def _check_cut_far(f, label):
    """profile(eps, d, eps0, W, K, rho) at 1 < d < 2 beta (and d >= 2 beta: 1) against the definition's exact piece
    sums at 50 digits (StepRef.profile_far, the cut among the edges) and fhsym.TruncatedStaircase's profile: whole
    periods, d = K, a cell edge +- 2^-40, beta +- tiny, 2 beta - tiny."""
    worst, where, n, worst_cls = 0.0, None, 0, 0.0
    for eps0, w, kk, rho in CUT_FAR:
        rho = (kk + rho) - kk  # exact: K + rho is the bound the reference and the class take
        b = kk + rho
        with mpmath.workdps(60):
            ref = StepRef(eps0, w, b, dps=50)
        law = fhsym.TruncatedStaircase(eps0, 1.0, gamma=w, bound=b)
        for d in sorted({1 + 2.0**-40, 1.5, 2.0, 3.0, float(kk), 1 + w + 2.0**-40, 2 + w - 2.0**-40, b - 1, b - 2.0**-30,
                         b, b + 2.0**-30, b + 0.5, 2 * b - 0.25, 2 * b - 2.0**-35, kk + 1.0}):
            if not 1.0 < d < 2 * b:
                continue
            for fe in (0.0, 0.37, 1.0, 2.5, d - 0.5, d + 1.5):
                e = fe * eps0
                v = f(e, d, eps0, w, kk, rho)
                with mpmath.workdps(60):
                    want = ref.profile_far(e, d)
                    err = float(abs(M(v) / want - 1)) if want else abs(v)
                    cls = float(law.privacy_profile(e, d))
                    worst_cls = max(worst_cls, float(abs(M(cls) / want - 1)) if want else abs(cls))
                assert err <= 1e-14, (label, eps0, w, kk, rho, e, d, v, want)
                if err >= worst:
                    worst, where = err, (eps0, w, kk, rho, e, d)
                n += 1
        assert f(0.3, 2 * b, eps0, w, kk, rho) == 1.0 and f(0.3, 2 * b + 7.5, eps0, w, kk, rho) == 1.0
    print(f"\ntruncated staircase printed profile beyond one period ({label}): worst relative error vs 50-digit "
          f"definition {worst:.1e} over {n} points at (eps0, W, K, rho, eps, d) = {where}; "
          f"fhsym.TruncatedStaircase there: {worst_cls:.1e}")


def test_truncated_staircase_c_profile_beyond_one_period(clib):
    _check_cut_far(c_getter(clib, "truncated_staircase")("profile"), "C")


def _derived_far(e, d, eps0, w):
    """The derived form of fhsym.symbolic.steps.profile_periods (VERIFIED against the definition by the proofs row
    step_staircase.profile_beyond) at 50 digits, with every run length J counted in exact rationals: a check of the
    printed run lengths and sums at shifts too long to integrate the definition over."""
    import sympy as sp

    from fhsym.symbolic import steps as S
    from fhsym.symbolic.laws.staircase import DECLARATION

    pp = S.profile_periods(DECLARATION)
    with mpmath.workdps(50):
        p = math.floor(d)
        E, E0 = sp.Rational(e), sp.Rational(eps0)
        vals = {S.f_shift: sp.Rational(d) - p, S.r: sp.exp(-E0), DECLARATION.shape_symbols[0]: sp.Rational(w)}
        out = sum((sp.N(S.unstable(h).subs(vals) * (1 - sp.exp(E - (p + m) * E0)), 50)
                   for m, h in pp.head.items() if E < (p + m) * E0), sp.Integer(0))
        for c, b in pp.block.items():
            N = p + c  # j < J iff (N - 2j) eps0 > eps: J = clamp(ceil((N - eps/eps0)/2), 0, p), exactly
            J = min(max(math.ceil((N - sp.Rational(e) / sp.Rational(eps0)) / 2), 0), p)
            out += sp.N(S.unstable(b).subs(vals) * S.unstable(pp.run).subs({S.J_run: J, S.n_top: N, S.x_eps: sp.exp(E)})
                        .subs(vals), 50)
        return M(str(sp.N(out, 40)))


#: (eps0, W, d, eps/eps0): up to 10^12 periods, eps just below, at and above a level difference of a run
HUGE = ((1.0, 0.3, 1e12 + 0.37, 1e12 - 7.0), (0.5, 0.2, 3e9 + 0.8, 3e9 - 0.5), (2.0, 0.9, 2.0**40 + 0.5, 2.0**40),
        (0.7, 0.4, 123456789.25, 1000.5))


@pytest.mark.parametrize("target", ["C", pytest.param("JAX", marks=pytest.mark.slow)])
def test_staircase_profile_over_huge_shifts_against_the_derived_form(clib, target):
    if target == "JAX":
        jax = pytest.importorskip("jax", reason="the JAX target needs the optional extra jax")
        g = jax.jit(importlib.import_module("fhsym._generated.declared.jax_staircase").profile)
        f = lambda *a: float(g(*a))  # noqa: E731
    else:
        f = c_getter(clib, "staircase")("profile")
    worst = 0.0
    for eps0, w, d, fe in HUGE:
        e = fe * eps0
        ref, v = _derived_far(e, d, eps0, w), f(e, d, eps0, w)
        err = float(abs(M(v) / ref - 1))
        assert err <= 1e-13, (target, eps0, w, d, e, v, ref)
        worst = max(worst, err)
    print(f"\nstaircase printed profile at 10^8 to 10^12 periods ({target}): worst {worst:.1e} against the derived form")


def _check_cut_far_huge_epsilon(f, label):
    """The printed cut profile beyond one period at a design epsilon whose multiples overflow (eps0 = 1e307, K = 60:
    k eps0 is inf from k = 18 on): r^k is 0 there, not 0 * e^inf = NaN; the values are fhsym.TruncatedStaircase's
    (every mass on [-W, W]: a shift of 1.5 periods moves [0, W) up two levels and [-W, 0) up one, so delta is 1/2 at
    eps = eps0 and 1 at eps = 0; a shift of 2.5 or more moves every point up at least two levels)."""
    eps0, w, kk, rho = 1e307, 0.5, 60, 0.5
    law = fhsym.TruncatedStaircase(eps0, 1.0, gamma=w, bound=kk + rho)
    for d in (1.5, 2.5, 3.2, 5.0, 59.7, 60.5, 120.9):
        for e in (0.0, 0.5 * eps0, eps0):
            v, want = f(e, d, eps0, w, float(kk), rho), float(law.privacy_profile(e, d))
            assert v == want, (label, d, e, v, want)


def test_truncated_staircase_c_profile_beyond_one_period_at_huge_design_epsilon(clib):
    _check_cut_far_huge_epsilon(c_getter(clib, "truncated_staircase")("profile"), "C")


def test_truncated_staircase_jax_profile_beyond_one_period_at_huge_design_epsilon():
    jax = pytest.importorskip("jax", reason="the JAX target needs the optional extra jax")
    m = importlib.import_module("fhsym._generated.declared.jax_truncated_staircase")
    g = jax.jit(m.profile)
    _check_cut_far_huge_epsilon(lambda e, d, eps0, w, kk, rho: float(g(e, d, eps0, w, kk, rho)), "JAX jit")
