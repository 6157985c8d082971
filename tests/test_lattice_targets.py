"""The cell law's and the lattice law's C99 and JAX numerics (issue 28, item 3): ``fhsym/_generated/c/
declared_piecewise_uniform.c``, ``declared_discrete_flipped_huber.c`` and ``fhsym/_generated/declared/
jax_piecewise_uniform.py``, ``jax_discrete_flipped_huber.py``, printed from the declarations by ``python -m
fhsym.codegen`` (freshness: ``--check``).  The C is compiled with ``-Wall -Wextra -Werror -pedantic`` (conftest
``build_c_library``); both targets are checked at 1e-13 relative against mpmath values of the definitions: the cell
density's masses and integrals summed exactly (Fractions), the lattice sums summed term by term at 40 digits (the
n^2 centre over 3e5 and 2e7 points in its closed form, ``sum_(n=1)^K n^2 r^n``, which the proofs topic
``lattice_discrete_flipped_huber`` proves equal to SymPy's summation) -- never against fhsym's own numerics."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from target_access import c_getter, jax_getter

from fhsym.codegen import cell_laws as CL
from fhsym.codegen import generate as G
from fhsym.codegen import lattice_laws as LL

M = mpmath.mpf
WTS = (5, 3, 1, 0, 2)  # piecewise uniform: cell weights n_0 .. n_4 (units of the width)
WIDTH = 0.37


@pytest.fixture(scope="module")
def clib(build_c_library):
    files = {rel: (G.default_dir("c") / rel).read_text() for rel, _ in CL.outputs_c() + LL.outputs_c()}
    return build_c_library("lattice_c", files)


_c, _jax = c_getter, jax_getter


def _close(got, want, what, rel=1e-13):
    want = float(want)
    assert abs(got - want) <= rel * abs(want), f"{what}: {got!r} vs {want!r} (rel {abs(got - want) / abs(want):.2e})"


# --------------------------------------------------------------------------------------- piecewise uniform
def _check_cells(get):
    N = WTS[0] + 2 * sum(WTS[1:])
    q = [Fraction(x, N) for x in WTS]  # the exact cell masses
    Mc = len(WTS) - 1

    def sf_exact(t):  # P(T > t w), t >= 0 in units of w: the mass of the cells above plus the part of t's cell
        k = math.floor(t + Fraction(1, 2))
        if k > Mc:
            return Fraction(0)
        return q[k] * (k + Fraction(1, 2) - t) + sum(q[k + 1:], Fraction(0))

    with mpmath.workdps(40):
        for t in (Fraction(1, 10), Fraction(3, 4), Fraction(19, 10), Fraction(4, 1) + Fraction(1, 3)):
            k = math.floor(t + Fraction(1, 2))
            a, tail = k + Fraction(1, 2) - t, sum(q[k + 1:], Fraction(0))
            if q[k]:
                _close(get("sf")(a, q[k], tail), sf_exact(t), f"sf({t})")
                _close(get("logpdf")(q[k], WIDTH), mpmath.log(M(q[k].numerator) / q[k].denominator / M(WIDTH)),
                       f"logpdf({t})")
                _close(get("entropy_cell")(q[k], WIDTH),
                       -M(q[k].numerator) / q[k].denominator * mpmath.log(M(q[k].numerator) / q[k].denominator / M(WIDTH)),
                       f"entropy_cell({k})")
            v = t - (k - Fraction(1, 2)) if k else t
            below = q[0] / 2 + sum(q[1:k], Fraction(0)) if k else Fraction(0)
            half = get("half")(v, q[k], below) if k else get("half_0")(v, q[0])
            _close(half, Fraction(1, 2) - sf_exact(t), f"P(0 < T <= {t})")
        for p in (Fraction(3, 10), Fraction(1, 100)):  # isf: the cell where the tail reaches p, then a in it
            k = next(kk for kk in range(Mc + 1) if sum(q[kk + 1:], Fraction(0)) <= p and q[kk])
            a = get("isf")(p, q[k], sum(q[k + 1:], Fraction(0)))
            _close(float(sf_exact(k + Fraction(1, 2) - Fraction(a))), p, f"sf(isf({p}))")
        # the profile at d = (j + theta) w: (1 - theta) D_j + theta D_(j+1), D_j = sum_k [q_k - e^eps q_(k+j)]_+
        for eps, j, theta in ((0.0, 0, 0.6), (0.5, 1, 0.0), (1.1, 2, 0.3)):
            e = math.exp(eps)
            qs = {kk: q[abs(kk)] for kk in range(-Mc, Mc + 1)}

            def D(jj):
                terms = [get("deficit_term")(qs[kk], qs.get(kk + jj, 0), e) for kk in qs]
                for kk, tv in zip(qs, terms):
                    want = max(M(0), M(qs[kk].numerator) / qs[kk].denominator
                               - M(e) * M(qs.get(kk + jj, Fraction(0)).numerator) / qs.get(kk + jj, Fraction(1)).denominator)
                    assert abs(tv - float(want)) <= 1e-13 * float(want) + 1e-300, (kk, jj, tv, want)
                return math.fsum(terms)

            def D_exact(jj):  # from the definition: the positive part of g(t) - e^eps g(t + d) over each cell
                return mpmath.fsum(max(M(0), M(qs[kk].numerator) / qs[kk].denominator - mpmath.exp(M(eps)) * M(
                    qs.get(kk + jj, Fraction(0)).numerator) / qs.get(kk + jj, Fraction(1)).denominator) for kk in qs)
            got = get("profile")(theta, D(j), D(j + 1))
            _close(got, (1 - M(theta)) * D_exact(j) + M(theta) * D_exact(j + 1), f"profile({eps}, {j} + {theta})",
                   rel=1e-13)


def test_piecewise_uniform_c_against_the_definition(clib):
    _check_cells(_c(clib, "piecewise_uniform"))


def test_piecewise_uniform_jax_against_the_definition():
    _check_cells(_jax("piecewise_uniform"))


# --------------------------------------------------------------------------------------- discrete flipped Huber
def _check_lattice(get):
    g = np.random.default_rng(28)
    with mpmath.workdps(40):
        for _ in range(6):  # the centre's scaled log tail log(e^(lam k) sum_(n=k)^K e^(-lam n)), summed term by term
            lam = float(10 ** g.uniform(-6, 1))
            K = int(g.integers(1, 3000))
            k = int(g.integers(1, K + 1))
            ml = M(lam)
            want = mpmath.log(mpmath.fsum(mpmath.exp(-ml * (n - k)) for n in range(k, K + 1)))
            _close(get("log_centre_scaled")(k, K, lam), want, f"log_centre_scaled({k}, {K}, {lam})")
        for m, j, c in ((3.0, 7.0, 0.5), (1000.0, 20.0, 1e-3)):
            mc = M(c)
            _close(get("tail_exponent")(m, j, c), (mc**2 * m**2 - mc**2 * (m + j) ** 2) / 2, "tail_exponent")
            _close(get("tail_log_power_2")(m, j), 2 * mpmath.log(M(m + j) / m), "tail_log_power_2")
        # log R_p(m) = log(e^(c^2 m^2/2) m^-p sum_(n>=m) n^p e^(-c^2 n^2/2)) on its Euler-Maclaurin range, summed
        for m, c in ((100.0, 2e-3), (7.0, 4e-3), (2000.0, 1e-3)):
            mc = M(c)
            for p in (0, 2):
                terms, n = [], int(m)
                while True:
                    t = (M(n) / m) ** p * mpmath.exp(-(mc**2) * (M(n) ** 2 - M(m) ** 2) / 2)
                    terms.append(t)
                    n += 1
                    if t < M(10) ** -45:
                        break
                _close(get(f"em_log_r{p}")(m, c), mpmath.log(mpmath.fsum(terms)), f"em_log_r{p}({m}, {c})")
        for lam, K in ((1e-4, 300000.0), (3e-6, 2.0e7)):  # the n^2 centre, closed form at 40 digits (proven = the sum)
            r = mpmath.exp(-M(lam))
            Dm = 1 - r
            full = r * (1 + r) / Dm**3
            tail = r ** (K + 1) * ((K + 1) ** 2 / Dm + 2 * (K + 1) * r / Dm**2 + r * (1 + r) / Dm**3)
            _close(get("em_centre2")(K, lam), full - tail, f"em_centre2({K}, {lam})")
        for n, lam in ((3.0, 0.2), (4000.0, 1e-3)):
            _close(get("centre2_term")(n, lam), M(n) ** 2 * mpmath.exp(-M(lam) * n), "centre2_term")
            _close(get("centre2_term_shifted")(n, lam), M(n) ** 2 * mpmath.exp(-M(lam) * (n - 1)), "centre2_term_shifted")
        for r_ in (0, 1, 3, 5, 7):
            x, lam = 1234.0, 2e-3
            want = mpmath.diff(lambda y: y**2 * mpmath.exp(-M(lam) * y), M(x), r_)
            _close(get(f"centre2_derivative_{r_}")(x, lam), want, f"centre2_derivative_{r_}")


def test_discrete_flipped_huber_c_against_the_definition(clib):
    _check_lattice(_c(clib, "discrete_flipped_huber"))


def test_discrete_flipped_huber_jax_against_the_definition():
    _check_lattice(_jax("discrete_flipped_huber"))


# ------------------------------------------------- piecewise uniform: the whole profile of one instance (the data)
#: (weights n_0 .. n_M): zero cells (partners of mass 0), a single cell, masses 1e9 apart
PROFILE_CASES = ((2, 1), (5, 3, 1, 0, 2), (7, 5, 3, 0, 1), (5,), (10**9, 3, 10**8, 77, 1))
PROFILE_EPS = (0.0, 0.3, math.log(2.0), 1.1, 4.0, 25.0)


def _check_cell_profile(f, label):
    """privacy_profile(eps, d, width, q) against int [p(t) - e^eps p(t + d)]_+ dt summed exactly between the edges
    at 50 digits (proofs/reference_cells.CellRef, the density from the weights alone), and the class."""
    from fhsym.noise import PiecewiseUniform
    from proofs.reference_cells import CellRef

    worst, worst_abs, worst_plain, n, where = 0.0, 0.0, 0.0, 0, None
    for wts in PROFILE_CASES:
        law = PiecewiseUniform(WIDTH, wts)
        q = np.asarray(law._full, dtype=float)  # the class's cell masses k = -M .. M (n_|k|/N rounded once)
        ref = CellRef(wts, dps=50)
        Mc = len(wts) - 1
        for u in (0.0, 0.3, 1.0, 1.7, 2.0 + 2.0**-30, Mc + 0.5, 2 * Mc, 2 * Mc + 0.5, 2 * Mc + 1, 2 * Mc + 3.25):
            d = u * WIDTH
            for e in PROFILE_EPS:
                with mpmath.workdps(50):
                    want = ref.profile(e, M(d) / M(WIDTH))
                got = f(e, d, WIDTH, q)
                err = abs(M(got) - want)
                # the one rounding of d/w moves theta by up to an ulp of u: delta by |D_(j+1) - D_j| u 2^-52
                j = math.floor(u)
                with mpmath.workdps(50):
                    slope = abs(ref.profile(e, j + 1) - ref.profile(e, j))
                slack = slope * u * 2.0**-52
                assert err <= 1e-14 * want + slack + 1e-300, (label, wts, u, e, got, want)
                if want:
                    rel = float(err / want)
                    worst = max(worst, rel)
                    if rel > worst_abs:
                        worst_abs, where = rel, (wts, u, e, float(want), float(slack / want))
                    if slack <= 1e-16 * want:  # where the rounding of d/w does not reach 1e-16 of delta
                        worst_plain = max(worst_plain, rel)
                n += 1
                if d > 0:
                    assert got == pytest.approx(float(law.privacy_profile(e, d)), rel=1e-14, abs=1e-16), (label, wts, u, e)
    print(f"\npiecewise uniform printed profile ({label}): worst relative error {worst:.1e} over {n} points against the "
          f"50-digit definition, at (weights, d/w, eps, delta, the rounding of d/w's share) = {where}; {worst_plain:.1e} "
          f"where that share is below 1e-16")


def test_piecewise_uniform_c_profile_against_the_definition(clib):
    import ctypes

    fn = clib.fhsym_piecewise_uniform_privacy_profile
    fn.restype = ctypes.c_double
    fn.argtypes = [ctypes.c_double] * 3 + [ctypes.POINTER(ctypes.c_double), ctypes.c_long]

    def f(e, d, w, q):
        arr = (ctypes.c_double * len(q))(*q)
        return float(fn(e, d, w, arr, len(q)))

    _check_cell_profile(f, "C")
    q = [0.25, 0.5, 0.25]
    for args in ((math.nan, 0.5, 1.0), (0.5, -0.1, 1.0), (0.5, math.nan, 1.0), (0.5, 0.5, 0.0), (0.5, 0.5, math.nan),
                 (-0.5, 0.0, 1.0), (-0.5, 0.5, 1.0)):  # eps < 0: D_0 = 0 is false there (delta(eps; 0) = 1 - e^eps)
        assert math.isnan(f(*args, q)), args


@pytest.mark.slow  # JAX compiles per shape of q
def test_piecewise_uniform_jax_profile_under_jit_against_the_definition():
    jax = pytest.importorskip("jax", reason="the JAX target needs the optional extra jax")
    import importlib

    m = importlib.import_module("fhsym._generated.declared.jax_piecewise_uniform")
    g = jax.jit(m.privacy_profile)
    _check_cell_profile(lambda e, d, w, q: float(g(e, d, w, q)), "JAX jit")
    assert math.isnan(float(g(0.5, -0.1, 1.0, np.array([0.25, 0.5, 0.25]))))
    assert math.isnan(float(g(-0.5, 0.0, 1.0, np.array([0.25, 0.5, 0.25]))))  # eps < 0 refused, as in C
    assert math.isnan(float(g(0.5, 0.5, 1.0, np.array([], dtype=float))))  # no cells: NaN, as C's n < 1
    v = g(np.array([0.0, 0.3, 1.1]), 0.7 * WIDTH, WIDTH, np.array([0.25, 0.5, 0.25]))  # vectorised in eps
    assert v.shape == (3,) and [float(x) for x in v] == [float(g(e, 0.7 * WIDTH, WIDTH, np.array([0.25, 0.5, 0.25])))
                                                          for e in (0.0, 0.3, 1.1)]
