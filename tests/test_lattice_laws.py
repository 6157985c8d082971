"""The declared lattice law (issue 28): the discrete flipped Huber, declared by its energy pieces in
fhsym/symbolic/laws/discrete_flipped_huber.py, derived by fhsym.symbolic.lattice_laws, printed into
fhsym/_generated/declared/discrete_flipped_huber.py and run by the class (the centre's scaled log tail, the Gaussian
tail's summand exponent).

References are direct mpmath sums of the definition, never the code under test; the class against exact 80-digit
sums is tests/test_discrete.py's and ``python -m proofs --only discrete``; the symbolic proofs are
``python -m proofs --only lattice_discrete_flipped_huber``.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import mpmath
import numpy as np
import pytest
import sympy as sp
from sympy.codegen.cfunctions import expm1

import fhsym
from fhsym._generated.declared import discrete_flipped_huber as gen
from fhsym.symbolic import discrete as D
from fhsym.symbolic.lattice_laws import derive_lattice
from fhsym.symbolic.laws import discrete_flipped_huber as DFH


def test_the_generated_module_is_the_declaration_and_the_class_runs_it():
    assert gen.DIGEST == DFH.DECLARATION.digest()
    assert Path(gen.__file__).read_text().startswith("# GENERATED FILE - DO NOT EDIT.")
    assert "_gen.log_centre_scaled(" in Path(fhsym.noise.discrete_flipped_huber.__file__).read_text()
    assert "_gen.tail_exponent(" in Path(fhsym.noise.lattice_sums.__file__).read_text()


def test_derived_centre_sum_is_the_printed_form():
    dv = derive_lattice(DFH.DECLARATION)
    plain = dv.log_centre_sum.replace(expm1, lambda x: sp.exp(x) - 1)
    assert sp.simplify(sp.exp(plain) - dv.centre_sum_raw) == 0


@pytest.mark.parametrize("lam, K", [(1e-9, 7), (0.3, 40), (2.0, 3), (80.0, 5), (1e-4, 2000)])
def test_log_centre_scaled_against_the_direct_sum(lam, K):
    with mpmath.workdps(40):
        for k in sorted({1, K // 2 or 1, K}):
            want = mpmath.log(mpmath.fsum(mpmath.exp(-mpmath.mpf(lam) * (n - k)) for n in range(k, K + 1)))
            got = float(gen.log_centre_scaled(np.array([float(k)]), K, lam)[0])
            # a difference of two logs of size |log lam|: absolute error a few ulp of that (1.8e-15 at lam = 1e-9)
            assert abs(got - float(want)) <= 2.2e-16 * (abs(float(want)) + 2 * abs(np.log(lam)) + 1), (k, got)


def test_tail_exponent_is_the_energy_difference():
    with mpmath.workdps(40):
        for m, j, c in [(1.0, 0.0, 0.5), (7.0, 3.0, 0.01), (1e4, 2047.0, 3e-3), (2.0, 9.0, 4.0)]:
            E = lambda x: (mpmath.mpf(c) ** 2 * x**2) / 2  # the tail energy without b^2/2 (it cancels)
            want = E(mpmath.mpf(m)) - E(mpmath.mpf(m + j))
            got = float(gen.tail_exponent(np.array([m]), np.array([j]), c)[0])
            assert abs(got - float(want)) <= 2.3e-16 * abs(float(want)), (m, j, c)


def test_programs_refuse_a_declaration_of_another_energy():
    """The printed Euler-Maclaurin programs are written for a Laplace centre and a Gaussian tail: a declaration with
    another energy raises instead of being printed with them."""
    import dataclasses

    from fhsym.symbolic import discrete as D
    from fhsym.symbolic.lattice_em import programs
    from fhsym.symbolic.laws.discrete_flipped_huber import DECLARATION

    assert len(programs(DECLARATION)) == 11
    for kw in ({"centre": 2 * D.lam * D.n}, {"tail": D.c**2 * D.n**3 / 2}):
        with pytest.raises(ValueError, match="^decl must have the centre"):
            programs(dataclasses.replace(DECLARATION, **kw))


def _row(name):
    import proofs.lattice_laws as PL

    return [c for c in PL.topics[0].checks if c.name == name][0]


def _run_with(module, attr, programs, row):
    """The proof row ``row`` with ``module.attr()`` returning ``programs`` (restored after)."""
    from proofs._harness import Context

    orig = getattr(module, attr)
    setattr(module, attr, lambda: programs)
    try:
        return _row(row).fn(Context(f"lattice_discrete_flipped_huber.{row}", True)).status
    finally:
        setattr(module, attr, orig)


def test_the_float_assembly_row_proves_the_printed_programs_and_fails_on_an_edited_one():
    """Row ``assembly``: the class's printed energy, loss and log-space assembly equal the declared energies and the
    derived forms (PROVEN); halving the loss's 1/2, or swapping the profile's rho's, makes it FAIL."""
    import dataclasses

    from fhsym.symbolic import lattice_float as LF
    from fhsym.symbolic.lattice_em import flt

    progs = LF.float_programs()
    assert _run_with(LF, "float_programs", progs, "assembly") == "PROVEN"
    half, quarter = flt(sp.Rational(1, 2)), flt(sp.Rational(1, 4))

    def edit(name, fn):
        return tuple(fn(p) if p.name == name else p for p in progs)

    bad_loss = edit("loss_float", lambda p: dataclasses.replace(p, assignments=tuple(
        (a, r.xreplace({half: quarter}) if str(a) == "quad" else r) for a, r in p.assignments)))
    bad_x = edit("log_profile_x_pos", lambda p: dataclasses.replace(p, result=p.result.xreplace({LF.r1: LF.r2, LF.r2: LF.r1})))
    assert _run_with(LF, "float_programs", bad_loss, "assembly") == "FAIL"
    assert _run_with(LF, "float_programs", bad_x, "assembly") == "FAIL"


@pytest.mark.slow
def test_the_plan_row_proves_the_ball_programs_and_fails_on_an_edited_one():
    """Row ``plan`` (~15 s a run): the certificate plan's printed ball programs equal the derived forms (PROVEN); a
    wrong Bernoulli factor in the Euler-Maclaurin constants makes it FAIL."""
    import dataclasses

    from fhsym.symbolic import lattice_plan as LP

    progs = LP.plan_programs()
    assert _run_with(LP, "plan_programs", progs, "plan") == "PROVEN"
    wrong = {LP.ball(sp.Rational(1, 30240)): LP.ball(sp.Rational(1, 30241))}  # B_6/6! -> off by one in the denominator
    bad = tuple(dataclasses.replace(p, assignments=tuple((a, r.xreplace(wrong)) for a, r in p.assignments))
                if p.name == "em_constants_arb" else p for p in progs)
    assert _run_with(LP, "plan_programs", bad, "plan") == "FAIL"


def test_the_certificate_plan_runs_the_printed_ball_programs():
    """The enclosure's balls are those of the printed programs: replacing the printed Euler-Maclaurin tail by one that
    widens its ball changes the enclosure (the plan calls it), and the enclosure contains an exact 60-digit sum."""
    from flint import arb

    from fhsym.noise import discrete_profile_arb as NA

    law, eps, S = (1.0, 5.0, 2.0**-6), 0.5, 64  # c = 3.1e-3: the Gaussian tail by Euler-Maclaurin
    b = NA.profile_ball(eps, *law, S)
    printed = NA._gen.em_tail_arb
    try:
        NA._gen.em_tail_arb = lambda m, c, b2h, k: printed(m, c, b2h, k) + arb(0, 2.0**-40)
        assert NA.profile_ball(eps, *law, S).rad() > b.rad()
    finally:
        NA._gen.em_tail_arb = printed
    # exact: delta = sum_k [p(k) - e^eps p(k + S)]_+ with the energies of the definition at the binary inputs, summed
    # at 60 digits over |n| <= N, where the weights have fallen below 1e-80 (the rest is far below the tolerance)
    with mpmath.workdps(60):
        a, g, h = (mpmath.mpf(x) for x in law)
        K = int(mpmath.floor(a / h))
        w = []
        while not w or w[-1] > mpmath.mpf(10) ** -80:
            n = len(w)
            w.append(mpmath.exp(-(a * h * n / g**2 if n <= K else ((h * n) ** 2 + a * a) / (2 * g * g))))
        N = len(w) - 1

        def p(k):
            return w[abs(k)] if abs(k) <= N else mpmath.mpf(0)

        Z = w[0] + 2 * mpmath.fsum(w[1:])
        ee = mpmath.exp(eps)
        delta = mpmath.fsum(max(p(k) - ee * p(k + S), 0) for k in range(-N - S, N + 1)) / Z
    lo, hi = NA.ball_ends(b)
    assert 0 < lo <= delta <= hi and hi - lo <= 1e-15 * hi


@pytest.mark.parametrize("law", [(0.0, 1000.0, 1.0), (1.0, 10.0, 0.01)])
def test_at_precision_long_gaussian_tails_by_euler_maclaurin_contain_exact_sums(law):
    """``at_precision(100, ball=True)`` of a law whose Gaussian tail is ~20,000 terms long (c = 1e-3) takes the printed
    Euler-Maclaurin ball programs (em_tail_arb, em_tail2_arb; counted) and its balls -- 1/Z, sf at K + 1 and at 3000
    steps beyond, the variance, the profile at eps = 1, 4 steps (with 40 corrections at its doubled precision) --
    contain exact 130-digit sums of the definition, within 1e-95 relative."""
    from fhsym.noise import precise_discrete as PD

    calls = {"p0": 0, "p2": 0}
    p0, p2 = PD._gen.em_tail_arb, PD._gen.em_tail2_arb

    def c0(*a):
        calls["p0"] += 1
        return p0(*a)

    def c2(*a):
        calls["p2"] += 1
        return p2(*a)

    alpha, gamma, h = law
    d = fhsym.DiscreteFlippedHuber(alpha, gamma, h)
    PD._gen.em_tail_arb, PD._gen.em_tail2_arb = c0, c2
    try:
        B = d.at_precision(100, ball=True)
        hq = Fraction(h)  # the lattice points exactly (fl(100 * 0.01) = 1.0 is not 100 steps of fl(0.01))
        got = {"1/Z": B.pmf(0), "sf(K+1)": B.sf((d.K + 1) * hq), "sf(K+3000)": B.sf((d.K + 3000) * hq), "var": B.var()}
    finally:
        PD._gen.em_tail_arb, PD._gen.em_tail2_arb = p0, p2
    assert calls["p0"] > 0 and calls["p2"] > 0, calls
    # the profile cancels (T(k*) - e^eps T(k* + S)): its doubled precision takes the 40-correction programs
    prof = d.at_precision(100, ball=True).privacy_profile(1.0, 4 * hq)
    with mpmath.workdps(130):
        a, g, hh = (mpmath.mpf(x) for x in law)
        K = int(mpmath.floor(a / hh))
        w, n = [], 0
        while not w or w[-1] > mpmath.mpf(10) ** -140:
            w.append(mpmath.exp(-(a * hh * n / g**2 if n <= K else ((hh * n) ** 2 + a * a) / (2 * g * g))))
            n += 1
        Z = w[0] + 2 * mpmath.fsum(w[1:])
        ref = {"1/Z": 1 / Z, "sf(K+1)": mpmath.fsum(w[K + 2:]) / Z, "sf(K+3000)": mpmath.fsum(w[K + 3001:]) / Z,
               "var": 2 * hh**2 * mpmath.fsum(j * j * w[j] for j in range(1, len(w))) / Z}
        # the profile lives far in the tail (delta ~ 1e-13580 at c = 1e-3): sum_k [w(k) - e w(k + 4)]_+ from 50 below the
        # first k whose exact energy difference E(k + 4) - E(k) exceeds 1 (below it every term is <= 0), until the
        # terms are below 1e-140 of the sum
        A, G, H = (Fraction(x) for x in law)

        def energy(j):
            j = abs(j)
            return A * H * j / G**2 if j <= K else ((H * j) ** 2 + A * A) / (2 * G * G)

        lo, hi = 0, 1
        while energy(hi + 4) - energy(hi) <= 1:
            hi *= 2
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (lo, mid) if energy(mid + 4) - energy(mid) > 1 else (mid, hi)

        def wq(j):
            e = energy(j)
            return mpmath.exp(-mpmath.mpf(e.numerator) / e.denominator)

        with mpmath.workdps(260):  # the terms cancel near k*: summed at 260 digits
            ee, total, j = mpmath.e, mpmath.mpf(0), max(hi - 50, 0)
            while True:
                term = max(wq(j) - ee * wq(j + 4), 0)
                total += term
                j += 1
                if j > hi and term < mpmath.mpf(10) ** -250 * total:
                    break
        got["profile(1, 4 steps)"] = prof
        ref["profile(1, 4 steps)"] = total / Z
        for key, ball in got.items():
            mid = mpmath.mpf(ball.mid().str(130, radius=False))
            rad = mpmath.mpf(ball.rad().str(5, radius=False))
            # the references are exact to 1e-125 relative (130 digits, weights summed to 1e-140 of Z; profile terms at 260)
            assert abs(mid - ref[key]) <= rad + mpmath.mpf(10) ** -125 * abs(ref[key]), (key, mid, ref[key], rad)
            assert rad <= mpmath.mpf(10) ** -95 * abs(ref[key]), (key, rad)


def test_the_ball_views_euler_maclaurin_orders_are_the_proven_ones():
    """at_precision takes the Euler-Maclaurin programs at the orders the row ``plan`` proves (fhsym.symbolic.lattice_plan
    .EM_ORDERS), and a higher order printed when asked is the same program structure at that order."""
    from fhsym.codegen.lattice_laws import em_ball_functions
    from fhsym.noise import precise_discrete as PD
    from fhsym.symbolic import lattice_plan as LP

    assert PD._EM_ORDERS == LP.EM_ORDERS and LP.EM_ORDERS[0] == LP.PLAN_EM_ORDER
    with pytest.raises(ValueError, match="Q must be one of"):
        LP.em_programs(30)
    const, tail, tail2 = em_ball_functions(40)
    from flint import arb, ctx, fmpq

    with ctx.workprec(600):  # c = 1e-3: the remainder with 20 corrections ~2^-425 relative, with 40 ~2^-840
        c = arb(fmpq(1, 1000))
        k = const(c)
        assert len(k) == len(LP.em_constant_names(40)) and len(gen.em_constants_arb(c)) == len(LP.em_constant_names(20))
        for f40, f20 in ((tail, gen.em_tail_arb), (tail2, gen.em_tail2_arb)):
            a40, a20 = f40(200, c, fmpq(0), k), f20(200, c, fmpq(0), gen.em_constants_arb(c))
            assert a40.overlaps(a20) and a40.rel_accuracy_bits() > 560 and 380 < a20.rel_accuracy_bits() < 450
