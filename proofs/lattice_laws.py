"""The declared lattice law (issue 28): the discrete flipped Huber, derived from its energy pieces.

``fhsym/symbolic/laws/discrete_flipped_huber.py`` declares the law once, as a
:class:`~fhsym.symbolic.lattice_laws.LatticeDeclaration` (energy ``lam n`` on the centre ``0 <= n <= K``,
``(c^2 n^2 + b^2)/2`` beyond); :func:`~fhsym.symbolic.lattice_laws.derive_lattice` derives the forms and
``python -m fhsym.codegen`` prints the stable ones into ``fhsym/_generated/declared/discrete_flipped_huber.py``, which
``fhsym.DiscreteFlippedHuber`` runs (the centre's scaled log tail, the Gaussian tail's summand exponent).  One topic,
``lattice_discrete_flipped_huber``:

* PROVEN by SymPy: symmetric by construction and a convex energy (the second differences at the joint, at the tail's
  entry and in the tail are ``d^2/2``, ``(c^2 - d^2)/2 + c d``, ``c^2`` with ``d`` in ``(0, c]``), so the privacy loss
  is monotone; the centre sums in closed form (SymPy's ``summation``) equal to the printed stable forms; the tail's
  scaled summand, its term ratio (decreasing in n) and hence the geometric truncation bound;
* VERIFIED: Z, the upper tail T(k) and the variance from the derived forms (centre closed, tail summed until the
  derived truncation bound is below 1e-60 of the sum) against exact 80-digit sums of the definition
  (``proofs/discrete.py``'s ``Reference``: exact rational energies from the binary inputs), and the generated float
  functions against their derived forms at 50 digits.  The class itself is checked against those exact sums by the
  topic ``discrete`` (normaliser, cdf/sf, variance, profile, enclosure), which now runs the generated code.
"""

from __future__ import annotations

import dataclasses
import importlib
import math
from fractions import Fraction
from typing import Any, List

import mpmath
import numpy as np
import sympy as sp
from sympy.codegen.cfunctions import expm1

from fhsym._generated.declared import discrete_flipped_huber as gen
from fhsym.symbolic import discrete as D
from fhsym.symbolic.lattice_em import (EM_ORDER, derive_em, hermite_recurrence_gaps, program_value,
                                       programs, x as xx)
from fhsym.symbolic.lattice_laws import derive_lattice, jj
from fhsym.symbolic.lattice_series import P_MAX, SeriesDerivation, derive_series, omr, pp, r as rr
from fhsym.symbolic import lattice_plan as LP
from fhsym.symbolic.special import erfcx

from ._harness import Context, Outcome, Topic, proven, verified
from .discrete import REGIMES, reference

DPS = 50
SOURCE = "fhsym.symbolic.laws.discrete_flipped_huber"
KEY = "discrete_flipped_huber"
#: regimes of proofs/discrete.py whose direct sums stay short (no Euler-Maclaurin tails)
_REG = (0, 2, 3, 5, 6, 9, 11, 12, 13)
_QUICK_REG = (2, 5, 13)


def _q(x: Fraction) -> Any:
    return mpmath.mpf(x.numerator) / x.denominator


def _plain(e: sp.Expr) -> sp.Expr:
    return sp.sympify(e).replace(expm1, lambda x: sp.exp(x) - 1)


def _worst(errs: List[Any]) -> str:
    return mpmath.nstr(max(errs), 2) if errs and max(errs) > 0 else "0"


def _mp(e: sp.Expr, vals: dict) -> Any:
    return mpmath.mpf(str(sp.N(_plain(e).subs(vals), DPS + 10)))


def _topic() -> Topic:
    decl = importlib.import_module(SOURCE).DECLARATION
    topic = Topic(f"lattice_{KEY}", f"Declared lattice law `{KEY}` ({decl.display_name}): derived forms vs exact sums "
                  f"(`fhsym/symbolic/laws/{KEY}.py`)", order=62,
                  description=f"Declared energy (standard units): E(n) = {decl.centre} for 0 <= n <= K, {decl.tail} "
                              f"beyond ({decl.source}). fhsym.DiscreteFlippedHuber takes the centre's scaled log tail "
                              f"and the Gaussian tail's summand exponent from the code printed from these forms "
                              f"(fhsym/_generated/declared/{KEY}.py), and from there its Euler-Maclaurin tails, the "
                              f"n^2 centre sum and the tail's p = 2 factor (fhsym/symbolic/lattice_em.py), its "
                              f"energy, loss and log-space assembly (fhsym/symbolic/lattice_float.py, row "
                              f"`assembly`), and the certificate plan of claim profile-lattice its ball programs "
                              f"(fhsym/symbolic/lattice_plan.py, row `plan`); the class and the plan keep control "
                              f"flow only, checked against exact sums by the topic `discrete` (the loss's float "
                              f"rounding also by the row `loss` here).")
    # the derivations several checks share: a parallel run derives each once, in the process that forks the checks
    # (before: the lattice forms in 5 checks, the Euler-Maclaurin forms and the series in 2 each)
    dv = topic.shared(lambda: derive_lattice(decl))

    def facts(ctx: Context) -> Outcome:
        steps, ok = [], True
        for key, (second, claim, sub) in D.convexity_gaps().items():
            diff = sp.simplify(sp.expand(second.subs(sub) - claim.subs(sub)))
            ok &= diff == 0
            steps.append(f"- {key}: second difference of E = {claim} (difference {diff}); >= 0 for 0 < d <= c")
        cen = sp.simplify(decl.centre.subs(D.n, D.n + 1) - 2 * decl.centre + decl.centre.subs(D.n, D.n - 1))
        ok &= cen == 0
        steps.append(f"- centre: second difference {cen} (linear); at n = 0 the symmetric pmf's energy has 2 lam >= 0")
        steps.append("- symmetric by construction: P(X = n h) reads E(|n|)")
        return proven(bool(ok), "SymPy: E convex (second differences >= 0 at every joint), so L(k) = E(k + S) - E(k) "
                      "is non-decreasing", steps)

    def centre(ctx: Context) -> Outcome:
        d = dv()
        st = sp.simplify(sp.exp(_plain(d.log_centre_sum)) - d.centre_sum_raw)
        sc = sp.simplify(_plain(d.log_centre_scaled) - (_plain(d.log_centre_sum) + D.lam * D.k))
        g2 = sp.simplify(d.centre2_raw - D.geometric2_closed(D.K))
        zc = sp.simplify(d.Z - D.normaliser())
        ok = st == 0 and sc == 0 and g2 == 0 and zc == 0
        return proven(bool(ok), "SymPy: summation of the centre; printed stable forms = summed", [
            f"- sum_(n=k)^K e^(-lam n) = {d.centre_sum_raw} (summation)",
            f"- printed log form {d.log_centre_sum}: exp of it minus the sum = {st}",
            f"- printed scaled form {d.log_centre_scaled} = log sum + lam k: difference {sc}",
            f"- sum_(n=1)^K n^2 e^(-lam n) (summation) minus fhsym.symbolic.discrete.geometric2_closed: {g2}",
            f"- Z = 1 + 2 G(1, K) + 2 e^(-b^2/2) Theta_0(K + 1) minus fhsym.symbolic.discrete.normaliser: {zc}"])

    def tail(ctx: Context) -> Outcome:
        d = dv()
        m, n, c = D.m, D.n, D.c
        expo = sp.simplify(d.tail_exponent - (decl.tail.subs(n, m) - decl.tail.subs(n, m + jj)))
        steps, ok = [f"- E(m) - E(m + j) - printed exponent {d.tail_exponent}: {expo}"], expo == 0
        s = sp.Symbol("s", nonnegative=True)  # n = 1 + s >= 1, n treated as real
        for p, r in zip((0, 2), d.ratio):
            at_m = sp.simplify(r.subs(n, m) - D.ratio_bound(p, m))
            slope = sp.factor(sp.simplify(sp.diff(sp.log(r), n)).subs(n, 1 + s))
            neg = bool(slope.is_negative)
            ok &= at_m == 0 and neg
            steps.append(f"- p = {p}: t_(n+1)/t_n = {r}; at n = M minus rho_M: {at_m}; d/dn log of it = {slope} < 0: "
                         f"{neg}, so t_(n+1) <= rho_M t_n for n >= M and sum_(n>=M) t_n <= t_M/(1 - rho_M) "
                         f"(= {d.truncation[p // 2]}) when rho_M < 1")
        return proven(bool(ok), "SymPy: the tail's scaled summand; the term ratio decreases, so the geometric "
                      "truncation bound holds", steps)

    def sums(ctx: Context) -> Outcome:
        d = dv()
        errs, n_pts = [], 0
        with mpmath.workdps(DPS + 10):
            for i in (_QUICK_REG if ctx.quick else _REG):
                a, g, h, _ = REGIMES[i]
                ref = reference(i)
                A, G, H = Fraction(a), Fraction(g), Fraction(h)
                vals = {D.lam: sp.Rational(A * H / G**2), D.b: sp.Rational(A / G), D.c: sp.Rational(H / G),
                        D.K: ref.K, D.h: sp.Rational(H)}
                cc, bb = _q(H / G), _q(A / G)

                def theta(start: int, p: int) -> Any:  # summed until the derived truncation bound < 1e-60 of the sum
                    part, nn = mpmath.mpf(0), start
                    bound = sp.lambdify(D.m, d.truncation[p // 2].subs(D.c, vals[D.c]), "mpmath")
                    while True:
                        part += mpmath.mpf(nn) ** p * mpmath.exp(-cc**2 * nn**2 / 2)
                        nn += 1
                        ratio = (mpmath.mpf(nn + 1) / nn) ** p * mpmath.exp(-cc**2 * (2 * nn + 1) / 2)
                        if ratio < 1 and bound(nn) < mpmath.mpf(10) ** -60 * part:
                            return part
                tail0 = mpmath.exp(-bb**2 / 2) * theta(ref.K + 1, 0)
                cen1 = _mp(d.centre_sum_raw, {**vals, D.k: 1}) if ref.K >= 1 else mpmath.mpf(0)
                Z = 1 + 2 * cen1 + 2 * tail0
                errs.append(abs(Z - ref.Z) / ref.Z)
                for kk in sorted({1, max(1, ref.K // 2), max(1, ref.K), ref.K + 1, ref.K + 3}):
                    T = (_mp(d.centre_sum_raw, {**vals, D.k: kk}) + tail0 if kk <= ref.K
                         else mpmath.exp(-bb**2 / 2) * theta(kk, 0))
                    errs.append(abs(T - ref.upper_tail(kk)) / ref.upper_tail(kk))
                c2 = _mp(d.centre2_raw, vals) if ref.K >= 1 else mpmath.mpf(0)
                var = 2 * _q(H) ** 2 * (c2 + mpmath.exp(-bb**2 / 2) * theta(ref.K + 1, 2)) / Z
                errs.append(abs(var - ref.var()) / ref.var())
                n_pts += 1
        return verified(max(errs) < mpmath.mpf(10) ** -45, "derived Z, T(k), variance (centre closed, tail to the "
                        "derived truncation bound) vs exact 80-digit sums of the definition", len(errs),
                        f"{DPS} digits", _worst(errs), evidence=[
                            f"- {n_pts} regimes of proofs/discrete.py (alpha << step .. alpha >> gamma, discrete "
                            f"Gaussian), T(k) at k in {{1, K/2, K, K + 1, K + 3}}: worst relative {_worst(errs)}"])

    def generated(ctx: Context) -> Outcome:
        d = dv()
        g = ctx.rng("generated")
        e_cen, e_tail = [], []
        with mpmath.workdps(DPS + 10):
            for _ in range(ctx.n(60, 15)):
                lam = float(10 ** g.uniform(-12, 2.5))
                K = int(g.integers(1, 10**6))
                kk = float(int(g.integers(1, K + 1)))
                got = float(gen.log_centre_scaled(np.array([kk]), K, lam)[0])
                want = _mp(d.log_centre_scaled, {D.k: int(kk), D.K: K, D.lam: sp.Float(lam, DPS + 10)})
                # a difference of two logs of size |log lam|: scaled by that size (a few ulp of it is the float form's)
                e_cen.append(abs(got - want) / (abs(want) + 2 * abs(mpmath.log(lam)) + 1))
                m, j, c = float(int(g.integers(1, 10**5))), float(int(g.integers(0, 4000))), float(10 ** g.uniform(-4, 1))
                got_t = float(gen.tail_exponent(np.array([m]), np.array([j]), c)[0])
                want_t = _mp(d.tail_exponent, {D.m: int(m), jj: int(j), D.c: sp.Float(c, DPS + 10)})
                if want_t != 0:
                    e_tail.append(abs(got_t - want_t) / abs(want_t))
        worst = max(e_cen + e_tail)
        return verified(worst < 1e-13, "generated float functions vs their derived forms at 50 digits",
                        len(e_cen) + len(e_tail), f"{DPS} digits", f"{float(worst):.1e}", evidence=[
                            f"- log_centre_scaled (lam in 1e-12 .. 3e2, K up to 1e6): worst |error|/(|value| + 2 |log lam| + 1) "
                            f"{float(max(e_cen)):.1e}",
                            f"- tail_exponent (m up to 1e5, j up to 4000, c in 1e-4 .. 10): worst relative "
                            f"{float(max(e_tail)):.1e}"])

    emd = topic.shared(lambda: derive_em(decl))
    series_of = topic.shared(lambda: derive_series(decl))

    def em_forms(ctx: Context) -> Outcome:
        e = emd()
        u, c, m = D.u, D.c, D.m
        steps, ok = list(e.steps), True
        for (p, r), (got, herm) in sorted(e.derivative.items()):
            gap = sp.simplify(sp.expand(got - herm))
            ok &= gap == 0
            if r in (1, 2 * EM_ORDER - 1):
                steps.append(f"- p = {p}, r = {r}: e^(E(m)) m^-p d^r/dx^r [x^p e^(-E(x))] at x = m (SymPy diff) minus "
                             f"the Hermite form {herm}: {gap}")
        steps.append(f"- the same for every odd r < {2 * EM_ORDER}, p = 0 and 2: all 0: {ok}")
        rec = set(hermite_recurrence_gaps(2 * EM_ORDER + 2))
        ok &= rec == {0}
        steps.append(f"- He_(q+1) - (u He_q - q He_(q-1)), q = 1 .. {2 * EM_ORDER + 1}: {sorted(map(str, rec))}")
        for i, p in enumerate((0, 2)):
            th = D.em_theta(p, EM_ORDER) * sp.exp(u**2 / 2) / m**p
            gap = sp.simplify(sp.expand((e.em_value[i] - th).subs(m, u / c)))
            ok &= gap == 0
            steps.append(f"- p = {p}: integral + 1/2 - sum_q B_2q/(2q)! f^(2q-1)(m), scaled, minus fhsym.symbolic."
                         f"discrete.em_theta({p}, {EM_ORDER}) (whose remainder bound the topic `discrete` proves): {gap}")
        c2 = sp.simplify(e.centre2_integral[0] - e.centre2_integral[1].rewrite(sp.exp))
        ok &= c2 == 0
        steps.append(f"- int_1^K x^2 e^(-E(x)) dx (SymPy integrate) minus {e.centre2_integral[1]}: {c2}")
        for r, (got, form) in e.centre2_derivative.items():
            gap = sp.simplify(got - form)
            ok &= gap == 0
            if r == 7:
                steps.append(f"- d^r/dx^r x^2 e^(-E(x)) minus {form} (r = 0, 1, 3, 5, 7): all 0: {ok}")
        return proven(bool(ok), "SymPy: integrate and diff of the declared summands; Hermite recurrence; = em_theta",
                      steps)

    def printed(ctx: Context) -> Outcome:
        e = emd()
        u, c, m, lam = D.u, D.c, D.m, D.lam
        progs = {p.name: p for p in programs(decl)}
        steps, ok = [], True
        v0 = program_value(progs["em_log_r0"])
        gap = sp.simplify(sp.expand(sp.exp(v0) - e.em_value[0].subs(u, c * m)))
        ok &= gap == 0
        steps.append(f"- em_log_r0: exp(printed program) minus the derived Euler-Maclaurin value: {gap}")
        # em_log_r2 = L + log1p(B e^(-L)), L = log_first: with e^L = A, exp of it is A + B (two steps, each closed)
        lf, big_a = sp.Symbol("log_first"), sp.Symbol("A", positive=True)
        prog2 = progs["em_log_r2"]
        first = program_value(dataclasses.replace(prog2, result=lf))  # L in (m, c)
        v2 = program_value(prog2, keep=(lf,)).subs(lf, sp.log(big_a))
        a_val = sp.simplify(sp.exp(first))
        gap_a = sp.simplify(sp.expand(a_val - e.integral[1].subs(u, c * m)))
        gap_b = sp.simplify(sp.expand(sp.exp(v2) - big_a - (e.em_value[1] - e.integral[1]).subs(u, c * m)))
        ok &= gap_a == 0 and gap_b == 0
        steps.append(f"- em_log_r2: exp(log_first) = {a_val}, minus the derived integral term: {gap_a}; with "
                     f"log_first = log A, exp(printed result) - A minus the rest of the derived value: {gap_b}")
        calls = {}
        for r, (_, form) in e.centre2_derivative.items():
            v = program_value(progs[f"centre2_derivative_{r}"])
            gap = sp.simplify(v - form.subs(xx, sp.Symbol("x")))
            ok &= gap == 0
            calls[f"centre2_derivative_{r}"] = (lambda f: lambda X, L: f.subs({xx: X, lam: L}, simultaneous=True))(form)
        steps.append(f"- centre2_derivative_r (r = 0, 1, 3, 5, 7) minus the derived derivatives: all 0: {ok}")
        gap = sp.simplify(program_value(progs["em_centre2"], calls) - e.centre2_em)
        ok &= gap == 0
        steps.append(f"- em_centre2 minus the derived Euler-Maclaurin value of sum_(n=1)^K n^2 e^(-E(n)): {gap}")
        n, j = sp.Symbol("n"), sp.Symbol("j")
        f = xx**2 * sp.exp(-decl.centre.subs(D.n, xx))
        g1 = sp.simplify(program_value(progs["centre2_term"]) - f.subs(xx, n))
        g2 = sp.simplify(program_value(progs["centre2_term_shifted"]) - f.subs(xx, n) * sp.exp(decl.centre.subs(D.n, 1)))
        g3 = sp.simplify(sp.exp(program_value(progs["tail_log_power_2"])) - ((m + j) / m) ** 2)
        ok &= g1 == 0 and g2 == 0 and g3 == 0
        steps.append(f"- centre2_term minus n^2 e^(-E(n)): {g1}; centre2_term_shifted minus e^(E(1)) n^2 e^(-E(n)): {g2}; "
                     f"exp(tail_log_power_2) minus ((m + j)/m)^2: {g3}")
        steps.append("- each program is the unevaluated tree the printer prints, association kept; its float literals "
                     "are read as the exact rationals they round (B_2q/(2q)!, 1/2, 2)")
        return proven(bool(ok), "SymPy: each printed program, its assignments substituted, equals the derived form",
                      steps)

    def loss(ctx: Context) -> Outcome:
        from fhsym.noise.discrete_flipped_huber import DiscreteFlippedHuber

        errs, where = [], []
        for i, (a, g, h, label) in enumerate(REGIMES):
            if ctx.quick and i not in (0, 5, 8, 13, 15):
                continue
            law = DiscreteFlippedHuber(a, g, h)
            A, G, H = Fraction(a), Fraction(g), Fraction(h)
            sub = {D.lam: sp.Rational(A * H / G**2), D.b: sp.Rational(A / G), D.c: sp.Rational(H / G), D.K: law.K}

            def energy(nn: int) -> sp.Rational:  # the declared energy, exact at the binary inputs
                return sp.Rational(decl.energy(sp.Integer(abs(nn))).subs(sub))

            for S in (1, 2, 5, 17, 1000):
                for kk in sorted({-S - 3, -S, -(S // 2) - 1, -(S // 2), 0, 1, law.K - S, law.K - 1, law.K, law.K + 1,
                                  law.K + 7, 3 * law.K + 50}):
                    ea, eb = energy(kk + S), energy(kk)
                    err = abs(sp.Rational(Fraction(law._loss(kk, S))) - (ea - eb)) / (ea + eb + sp.Rational(1, 10**300))
                    errs.append(float(err))
                    where.append(f"k={kk}, S={S}, {label}")
        w = max(range(len(errs)), key=errs.__getitem__)
        return verified(errs[w] < 1e-14, "the class's float loss L(k) = E(k + S) - E(k) (hinge form, loss_float) vs "
                        "the declared energies in exact rationals", len(errs), "exact",
                        f"{errs[w]:.1e} of E(k + S) + E(k)", where[w], evidence=[
                            f"- {len(errs)} points (regimes of proofs/discrete.py, S in 1 .. 1000, k around 0, -S/2, "
                            f"K and in the tail): worst |error|/(E(k + S) + E(k)) {errs[w]:.1e} at {where[w]}; the "
                            f"profile decides k* = min{{k : L(k) > eps}} exactly in arb where a loss is within 1e-14 "
                            f"(1 + eps) of eps"])

    def series(ctx: Context) -> Outcome:
        sd: SeriesDerivation = series_of()
        m, n, c, lam = D.m, D.n, D.c, D.lam
        steps, ok = [f"- centre term ratio e^(E(n) - E(n + 1)) = {sd.ratio} (constant: the centre is geometric)"], True
        ok &= not sd.ratio.has(n)
        j = sp.Symbol("j", integer=True, nonnegative=True)
        for i, (Li, (num, powr)) in enumerate(zip(sd.L, sd.L_split)):
            gap = sp.cancel(Li - num / (1 - rr) ** powr)
            # the power series of L_i has the coefficient j^i at r^j: (1 - r)^(i+1) sum_(j<J) j^i r^j agrees with N_i
            # below r^12 (polynomials; 0^0 = 1)
            trunc = sp.expand((1 - rr) ** powr * sum((jv**i if (jv or i == 0) else 0) * rr**jv for jv in range(12)))
            coef = all(trunc.coeff(rr, jv) == sp.expand(num).coeff(rr, jv) for jv in range(12))
            ok &= gap == 0 and coef
            if i in (0, 1, P_MAX):
                steps.append(f"- L_{i} = {Li} = ({num})/(1 - r)^{powr}: difference {gap}; its series' coefficients "
                             f"j^{i} at r^j (j < 12): {coef}")
        steps.append(f"- L_0 = sum_(j>=0) r^j by SymPy summation, L_(i+1) = r dL_i/dr (termwise), i < {P_MAX}: "
                     f"split forms and series checked for every i: {ok}")
        for p in range(P_MAX + 1):
            # (1 - r)^(p+1) F_p(m)/e^(-E(m)) as a polynomial P_m(r); F_p(m) - F_p(m + 1) = m^p e^(-E(m)) with
            # e^(-E(m + 1)) = e^(-E(m)) r reads P_m - r P_(m+1) = m^p (1 - r)^(p+1)
            poly = sp.expand(sum(sp.binomial(p, i) * m ** (p - i) * sd.L_split[i][0] * (1 - rr) ** (p - i)
                                 for i in range(p + 1)))
            tele = sp.expand(poly - rr * poly.subs(m, m + 1) - m**p * (1 - rr) ** (p + 1))
            em = sp.exp(-decl.centre.subs(n, m))
            printed = sp.expand(sp.expand(sd.upper_printed[p] / em * omr ** (p + 1)).subs(omr, 1 - rr) - poly)
            ok &= tele == 0 and printed == 0
        ratio_gap = sp.simplify(sd.tail_ratio - ((m + 1) / m) ** pp * sp.exp(-(c**2) * (2 * m + 1) / 2))
        slope = sp.simplify(sp.diff(sp.log(sd.tail_ratio.subs(m, n)), n))
        neg = sp.ask(sp.Q.negative(slope), sp.Q.positive(n) & sp.Q.nonnegative(pp) & sp.Q.positive(c))
        neg = bool(neg) if neg is not None else bool(sp.simplify(slope + pp / (n * (n + 1)) + c**2) == 0)
        rest_gap = sp.simplify(sd.tail_rest - m**pp * sp.exp(-decl.tail.subs(n, m)) / (1 - sd.tail_ratio))
        ok &= ratio_gap == 0 and neg and rest_gap == 0
        steps.append(f"- Gaussian tail, real power p >= 0: rho_M = {sd.tail_ratio} (minus ((M+1)/M)^p e^(-c^2 (2M+1)/2): "
                     f"{ratio_gap}); d/dn log rho_n = {slope} < 0: {neg}; rest t_M/(1 - rho_M) (difference {rest_gap})")
        return proven(bool(ok), "SymPy: the centre's power sums F_p (summation, termwise r d/dr, telescoping) and the "
                      "tail's ratio bound for any power", steps)

    def balls(ctx: Context) -> Outcome:
        from fhsym.noise.discrete_flipped_huber import DiscreteFlippedHuber

        errs, misses, pts = [], [], 0
        with mpmath.workdps(DPS + 10):
            for i in (_QUICK_REG if ctx.quick else _REG):
                a, g, h, label = REGIMES[i]
                ref = reference(i)
                law = DiscreteFlippedHuber(a, g, h)
                B = law.at_precision(DPS, ball=True)
                H = Fraction(h)
                vals = [("pmf(0)", B.pmf(0), 1 / ref.Z), ("var", B.var(), ref.var())]
                for kk in sorted({0, 1, max(1, ref.K // 2), ref.K + 1, ref.K + 3}):
                    vals.append((f"sf(k={kk})", B.sf(kk * H), ref.sf(kk)))
                for name, ball, want in vals:
                    pts += 1
                    mid, rad = mpmath.mpf(ball.mid().str(DPS + 30, radius=False)), mpmath.mpf(ball.rad().str(5, radius=False))
                    inside = abs(mid - want) <= rad + abs(want) * mpmath.mpf(10) ** -(DPS + 5)
                    errs.append(abs(mid - want) / abs(want))
                    if not inside:
                        misses.append(f"{name}, {label}")
        return verified(not misses and max(errs) < mpmath.mpf(10) ** -(DPS - 5), "at_precision(50, ball=True) (the "
                        "printed energy, power sums and tail bound) vs exact 80-digit sums of the definition", pts,
                        f"{DPS} digits", _worst(errs), evidence=[
                            f"- {pts} values (1/Z, variance, sf at k in {{0, 1, K/2, K + 1, K + 3}}), regimes of "
                            f"proofs/discrete.py: every ball contains the exact sum: {not misses}; worst midpoint error "
                            f"{_worst(errs)}"] + [f"- NOT inside: {x}" for x in misses])

    def ball_profile(ctx: Context) -> Outcome:
        """at_precision(50, ball=True).privacy_profile: T(k*) - e^eps T(k* + S) over Z (the printed ball programs,
        k* found exactly) against sum_k [p(k) - e^eps p(k + S)]_+ of the definition at 80 digits (proofs/discrete.py)."""
        from fhsym.noise.discrete_flipped_huber import DiscreteFlippedHuber

        errs, misses, pts = [], [], 0
        shifts = (1, 5) if ctx.quick else (1, 2, 5, 17)
        with mpmath.workdps(DPS + 10):
            for i in (_QUICK_REG if ctx.quick else _REG):
                a, g, h, label = REGIMES[i]
                ref, B = reference(i), DiscreteFlippedHuber(a, g, h).at_precision(DPS, ball=True)
                lam = a * h / (g * g)  # the loss's flat step: eps = lam S is where k* changes across the centre
                for S in shifts:
                    kink = [lam * S, math.nextafter(lam * S, 0.0), math.nextafter(lam * S, math.inf)] if lam > 0 else []
                    for e in [0.0, 0.5, 2.0] + kink[:ctx.n(3, 1)]:
                        want, ball = ref.profile(e, S), B.privacy_profile(e, S * Fraction(h))
                        pts += 1
                        mid, rad = mpmath.mpf(ball.mid().str(DPS + 30, radius=False)), mpmath.mpf(ball.rad().str(5, radius=False))
                        if abs(mid - want) > rad + abs(want) * mpmath.mpf(10) ** -(DPS + 5):  # the reference's 80 digits
                            misses.append(f"eps = {e!r}, S = {S}, {label}")
                        errs.append(abs(mid - want) / abs(want) if want else abs(mid))
        return verified(not misses and max(errs) < mpmath.mpf(10) ** -(DPS - 5), "at_precision(50, ball=True)."
                        "privacy_profile (the printed tail and Z programs at the exact k*) vs sum_k [p(k) - e^eps "
                        "p(k + S)]_+ of the definition at 80 digits", pts, f"{DPS} digits", _worst(errs), evidence=[
                            f"- {pts} profiles (eps 0, 0.5, 2 and the loss's kink lam S with its float neighbours, S in "
                            f"{set(shifts)} steps), regimes of proofs/discrete.py: every ball contains the exact sum: "
                            f"{not misses}; worst midpoint error {_worst(errs)}"] + [f"- NOT inside: {x}" for x in misses])

    def plan(ctx: Context) -> Outcome:
        sd: SeriesDerivation = series_of()
        m, n, c, b, K, lam, u = D.m, D.n, D.c, D.b, D.K, D.lam, D.u
        w = sp.Symbol("w")  # pm(r) = r w, w in [-1, 1]: the ball's radius is the coefficient of w
        coef = {LP.b2h: sd.tail_coefficients[0], LP.c2h: sd.tail_coefficients[2]}  # b^2/2, c^2/2 (declared)
        progs = {p.name: p for p in LP.plan_programs()}
        steps, ok = [f"- c2h, b2h = the declared tail's coefficients of n^2 and n^0: {coef[LP.c2h]}, {coef[LP.b2h]}"], True

        def value(prog: Any, env0: Any = None, rhs_of: Any = None) -> Any:
            env = dict(env0 or {})
            for name, rhs in prog.assignments:
                rhs = (rhs_of or {}).get(name, rhs)
                env[name] = sp.expand(LP.plan_value(rhs.xreplace(env)).replace(LP.pm, lambda r: r * w).subs(coef))
            return LP.plan_value(prog.result.xreplace(env)).replace(LP.pm, lambda r: r * w).subs(coef)

        def zero(e: Any) -> Any:
            """e reduced: 0 when expand (or, for a small residual, simplify) closes it."""
            e = sp.expand(e)
            return e if e == 0 or sp.count_ops(e) > 400 else sp.simplify(e)

        gap = zero(value(progs["centre_sum_arb"]) - dv().centre_sum_raw.subs(D.k, n))
        ok &= gap == 0
        steps.append(f"- centre_sum_arb minus the declared centre's sum_(j=n)^K e^(-E(j)) (SymPy summation): {gap}")
        t0, q0, st = value(progs["gauss_start_arb"]).args
        tail = decl.tail
        gaps = [sp.simplify(t0 - sp.exp(tail.subs(n, 0) - tail.subs(n, m))),
                sp.simplify(q0 - sp.exp(tail.subs(n, m) - tail.subs(n, m + 1))),
                sp.simplify(st - sp.exp(-(tail.subs(n, m + 2) - 2 * tail.subs(n, m + 1) + tail.subs(n, m))))]
        ok &= gaps == [0, 0, 0]
        steps.append(f"- gauss_start_arb minus (e^(b^2/2 - E(m)), e^(E(m) - E(m + 1)), e^(-(E(m+2) - 2E(m+1) + E(m)))) "
                     f"of the declared tail: {gaps}; so the loop's t_(m+j) = e^(b^2/2 - E(m + j)) and its ratios "
                     f"(the recurrence t_(n+1) = t_n q_n, q_(n+1) = q_n e^(-c^2))")
        close = value(progs["gauss_close_arb"])
        lo_gap = zero(close.subs(w, -1) - LP.tot * sp.exp(-b**2 / 2))
        hi_gap = zero(close.subs(w, 1) - (LP.tot + D.truncation_bound(0, LP.M)) * sp.exp(-b**2 / 2))
        ok &= lo_gap == 0 and hi_gap == 0
        steps.append(f"- gauss_close_arb: the ball's ends (w = -1, 1) minus e^(-b^2/2) total and e^(-b^2/2) (total + "
                     f"truncation_bound(0, M)) (the tail's proven geometric bound, row `tail`): {lo_gap}, {hi_gap}")
        orders = LP.EM_ORDERS[:1] if ctx.quick else LP.EM_ORDERS  # quick: the printed order (the plan's) only
        steps.append(f"- Euler-Maclaurin orders proven here: {orders} (the plan's printed order; the full run also "
                     f"the higher ones at_precision prints when asked: {LP.EM_ORDERS})")
        for Q in orders:
            # the printed programs at PLAN_EM_ORDER; the ones at_precision prints when asked at the other orders
            trio = ((progs["em_constants_arb"], progs["em_tail_arb"], progs["em_tail2_arb"]) if Q == LP.PLAN_EM_ORDER
                    else LP.em_programs(Q))
            consts = value(trio[0]).args
            for prog, pw in ((trio[1], 0), (trio[2], 2)):
                pname = f"{prog.name} (Q = {Q})"
                # the program reads the constants through item(k, i): each replaced by em_constants_arb's i-th value
                reads = {sym: consts[int(rhs.args[1])] for sym, rhs in prog.assignments if isinstance(rhs, LP.item)}
                rem_sym = sp.Symbol("rem")
                branches = dict(zip(("past the zeros", "Cauchy-Schwarz"), dict(prog.assignments)[rem_sym].args))
                em_mid = None
                for label, (expr, cond) in branches.items():
                    # u = c m kept as the symbol u (the forms are polynomials in u and c), m = u/c where m appears
                    val = value(prog, None, {**reads, rem_sym: expr, u: u}).subs(m, u / c)
                    mid = sp.expand(val.subs(w, 0))
                    if em_mid is None:
                        em_mid = mid
                        want = D.em_theta(pw, Q) * sp.exp(-b**2 / 2)
                        want = want.replace(erfcx, lambda z: sp.erfc(z) * sp.exp(z**2))
                        gap_mid = zero(mid - want)
                        ok &= gap_mid == 0
                        steps.append(f"- {pname} (constants from em_constants_arb substituted): its midpoint minus "
                                     f"e^(-b^2/2) em_theta({pw}, {Q}) (in u = c m and c; erfcx(z) = e^(z^2) erfc(z)): "
                                     f"{gap_mid}")
                    rad = sp.expand(sp.diff(val, w))
                    bound = D.em_remainder_bound(pw, Q, label == "past the zeros") * sp.exp(-b**2 / 2)
                    gap_r = zero(rad - bound)
                    ok &= gap_r == 0
                    test = str(cond) if cond != sp.true else "otherwise"
                    steps.append(f"- its radius, branch {label} ({test}), minus e^(-b^2/2) em_remainder_bound({pw}, "
                                 f"{Q}, {label == 'past the zeros'}): {gap_r}")
            pz = reads[sp.Symbol("past_zeros")]
            r0 = sp.Integer(int(sp.sqrt(8 * Q + 10)))  # floor: r0^2 <= 8Q + 10
            beyond = [sp.Poly(f, D.u).count_roots(inf=r0) for f in (sp.hermite_prob(2 * Q, D.u), sp.hermite_prob(
                2 * Q + 2, D.u) + sp.hermite_prob(2 * Q, D.u))]
            ok &= beyond == [0, 0] and sp.simplify(pz - sp.sqrt(8 * Q + 10)) == 0 and r0**2 <= 8 * Q + 10
            steps.append(f"- Q = {Q}: past_zeros = {pz} = sqrt(8Q + 10); real zeros in [{r0}, oo) (Sturm) of He_{2 * Q} "
                         f"(p = 0) and of He_{2 * Q + 2} + He_{2 * Q} (p = 2): {beyond}, and {r0}^2 <= {8 * Q + 10}: past "
                         f"sqrt(8Q + 10) the 2Q-th derivative has one sign, so the remainder's integral is the exact one "
                         f"em_remainder_bound takes there")
        z1 = value(progs["normaliser_arb"]).subs(LP.t1, D.upper_tail(1))
        zgaps = [sp.simplify((z1 - D.normaliser()).subs(K, kk)) for kk in (0, 1, 5)]
        zsym = sp.simplify(sp.piecewise_fold(z1 - D.normaliser()).args[0][0]) if isinstance(
            sp.piecewise_fold(z1 - D.normaliser()), sp.Piecewise) else sp.simplify(z1 - D.normaliser())
        ok &= zgaps == [0, 0, 0] and zsym == 0
        steps.append(f"- normaliser_arb at t1 = T(1) minus fhsym.symbolic.discrete.normaliser: {zsym} (K >= 1); at "
                     f"K = 0, 1, 5: {zgaps}")
        refl = value(progs["reflected_tail_arb"]) - (LP.z - LP.t1)
        ok &= refl == 0
        steps.append(f"- reflected_tail_arb minus (Z - T(1 - n)) = T(n) for n <= 0 (E(-j) = E(j), row `facts`): {refl}")
        ks = sp.Symbol("kstar", integer=True, positive=True)
        prof = value(progs["profile_assembly_arb"]).subs({LP.t1: D.upper_tail(ks), LP.t2: D.upper_tail(ks + D.S),
                                                          LP.z: D.normaliser()})
        pg = zero(prof - D.profile(ks))
        ok &= pg == 0
        steps.append(f"- profile_assembly_arb at T(k*), T(k* + S), Z minus fhsym.symbolic.discrete.profile(k*): {pg}")
        steps.append("- each program is the unevaluated tree printed on balls in its order of operations (ball(q) the "
                     "ball of the exact rational q, pm(r) the ball [-r, r]); the certificate plan "
                     "(fhsym/noise/discrete_profile_arb.py) keeps only control flow")
        return proven(bool(ok), "SymPy: each printed ball program of the certificate plan, assignments substituted, "
                      "equals the derived form (centre sum, Gaussian tail and its bounds, Z, profile)", steps)

    def assembly(ctx: Context) -> Outcome:
        from fhsym.symbolic import lattice_float as LF

        n, K, lam, b, c, m, h = D.n, D.K, D.lam, D.b, D.c, D.m, D.h
        progs = {p.name: p for p in LF.float_programs()}
        pos = {nm: sp.Symbol(nm, positive=True) for nm in ("T", "T1", "T2", "Z", "G", "TK1", "G2", "Th2")}
        Ea, Eb = sp.Symbol("E_a", real=True), sp.Symbol("E_b", real=True)
        steps, ok = [], True

        def val(prog: Any, result: Any = None, over: Any = None, sub: Any = None) -> Any:
            asg = tuple((a, (over or {}).get(a, r)) for a, r in prog.assignments)
            v = program_value(dataclasses.replace(prog, assignments=asg, result=prog.result if result is None else result))
            v = v.replace(LF.logaddexp, lambda x, y: sp.log(sp.exp(x) + sp.exp(y)))
            return v.subs(sub or {})

        def zero(e: Any) -> Any:
            e = sp.expand(e)
            return e if e == 0 else sp.simplify(e)

        def energy(x: Any) -> Any:  # the declared pieces (x <= K: centre)
            return decl.centre.subs(n, x), decl.tail.subs(n, x)

        # the energy: each branch the declared piece, the first on n <= K
        pe = progs["energy_float"]
        (e1, c1), (e2, _) = pe.result.args
        nf = pe.args[0]
        g_e = [zero(val(pe, e1) - energy(nf)[0]), zero(val(pe, e2) - energy(nf)[1])]
        ok &= g_e == [0, 0] and c1 in (sp.Le(nf, K, evaluate=False), sp.Ge(K, nf, evaluate=False))
        steps.append(f"- energy_float: branch {c1} minus the declared centre, other branch minus the declared tail: {g_e}")
        # the loss in each of the four cases (a = |k + S|, bb = |k| each on the centre or in the tail), lam = b c
        pl = progs["loss_float"]
        asg = dict(pl.assignments)
        ha, hb, quad = (sp.Symbol(x) for x in ("ha", "hb", "quad"))
        cases = []
        for a_in in (False, True):
            for b_in in (False, True):
                over = {ha: asg[ha].args[0][0] if a_in else asg[ha].args[1][0],
                        hb: asg[hb].args[0][0] if b_in else asg[hb].args[1][0],
                        quad: asg[quad].args[0][0] if a_in and b_in else asg[quad].args[1][0]}
                want = energy(LF.a_)[1 if a_in else 0] - energy(LF.bb_)[1 if b_in else 0]
                gap = zero((val(pl, None, over) - want).subs(lam, b * c))
                ok &= gap == 0
                cases.append(f"a {'>' if a_in else '<='} K, bb {'>' if b_in else '<='} K: {gap}")
        conds = [str(asg[ha].args[0][1]), str(asg[hb].args[0][1]), str(asg[quad].args[0][1])]
        steps.append(f"- loss_float (conditions {conds}) minus E(a) - E(bb) of the declaration, lam = b c (standard "
                     f"units): {'; '.join(cases)}")
        d_def = c * (K + 1) - b
        g1 = zero(val(progs["tail_entry_gap"], sub={sp.Symbol("Kf", real=True): K}) - d_def.subs(
            {c: h / D.gamma, b: D.alpha / D.gamma}))
        g2 = zero((val(progs["centre_gap"], sub={LF.d_: d_def}) - (energy(K + 1)[1] - energy(
            progs["centre_gap"].args[0])[0])).subs(lam, b * c))
        ok &= g1 == 0 and g2 == 0
        steps.append(f"- tail_entry_gap minus c (K + 1) - b (c = h/gamma, b = alpha/gamma): {g1}; centre_gap minus "
                     f"E(K + 1) - E(n) (tail minus centre piece, d = c (K + 1) - b, lam = b c): {g2}")
        T, T1, T2, Z, G, TK1 = (pos[x] for x in ("T", "T1", "T2", "Z", "G", "TK1"))
        rho = val(progs["rho_centre"], sub={LF.la: sp.log(sp.exp(Ea) * G), LF.gap: Eb - Ea,
                                            LF.lrf: sp.log(sp.exp(Eb) * TK1)})
        g3 = zero(sp.exp(rho) - sp.exp(Ea) * (G + TK1))
        g4 = zero(sp.exp(val(progs["log_tail_pos"], sub={LF.energy_: Ea, LF.r1: sp.log(sp.exp(Ea) * T)})) - T)
        g5 = zero(sp.exp(val(progs["log_normaliser_float"], sub={LF.log_t1: sp.log(T1)})) - (1 + 2 * T1))
        g6 = zero(sp.exp(val(progs["log_reflected_tail"], sub={LF.log_z: sp.log(Z), LF.lt: sp.log(T)})) - (Z - T))
        g7 = zero(sp.exp(val(progs["log_cdf_neg"], sub={LF.log_z: sp.log(Z), LF.lt: sp.log(T)})) - T / Z)
        g8 = zero(sp.exp(val(progs["log_cdf_pos"], sub={LF.log_z: sp.log(Z), LF.lt: sp.log(T)})) - (1 - T / Z))
        gs = [g3, g4, g5, g6, g7, g8]
        ok &= gs == [0] * 6
        steps.append(f"- exp of rho_centre at la = log(e^E(n) G(n, K)), gap = E(K+1) - E(n), log_r_first = "
                     f"log(e^E(K+1) T(K+1)) minus e^E(n) (G + T(K+1)): {g3}; exp(log_tail_pos(E, log(e^E T))) - T: "
                     f"{g4}; exp(log_normaliser_float(log T(1))) - (1 + 2 T(1)) (= Z, row `plan`): {g5}; "
                     f"exp(log_reflected_tail) - (Z - T): {g6}; exp(log_cdf_neg) - T/Z: {g7}; exp(log_cdf_pos) - "
                     f"(1 - T/Z) (fhsym.symbolic.discrete.cdf with T = T(k + 1)): {g8}")
        eps = D.eps
        r_1, r_2 = sp.log(sp.exp(Ea) * T1), sp.log(sp.exp(Eb) * T2)
        x_pos = val(progs["log_profile_x_pos"], sub={LF.L_: Eb - Ea, LF.r1: r_1, LF.r2: r_2})
        lt_1 = val(progs["log_tail_pos"], sub={LF.energy_: Ea, LF.r1: r_1})
        x_lt = val(progs["log_profile_x"], sub={LF.lt1: sp.log(T1), LF.lt2: sp.log(T2)})
        want = (T1 - sp.exp(eps) * T2) / Z
        ks = sp.Symbol("kstar", integer=True, positive=True)
        sub_d = {T1: D.upper_tail(ks), T2: D.upper_tail(ks + D.S), Z: D.normaliser()}
        g9 = zero(sp.exp(val(progs["log_profile_float"], sub={LF.lt1: lt_1, LF.log_z: sp.log(Z), LF.x_: x_pos})) - want)
        g10 = zero(sp.exp(val(progs["log_profile_float"], sub={LF.lt1: sp.log(T1), LF.log_z: sp.log(Z), LF.x_: x_lt}))
                   - want)
        g11 = zero(want.xreplace(sub_d) - D.profile(ks))
        ok &= g9 == 0 and g10 == 0 and g11 == 0
        steps.append(f"- exp(log_profile_float) with x = log_profile_x_pos(eps, L = E(k*+S) - E(k*), rho's) and lt1 = "
                     f"log_tail_pos: minus (T(k*) - e^eps T(k* + S))/Z: {g9}; with x = log_profile_x(eps, log T's): "
                     f"{g10}; that at the derived T, Z minus fhsym.symbolic.discrete.profile(k*): {g11}")
        G2, Th2 = pos["G2"], pos["Th2"]
        m_tail = sp.Symbol("m", positive=True)
        lt_v = val(progs["log_var_tail"], sub={LF.energy_: energy(m_tail)[1], D.m: m_tail,
                                               LF.log_r2: sp.log(sp.exp(c**2 * m_tail**2 / 2) * Th2 / m_tail**2)})
        tot = val(progs["log_var_sum"], sub={LF.lg2: sp.log(G2), LF.log_tail: lt_v})
        lv = val(progs["log_variance"], sub={LF.log_tot: tot, LF.log_z: sp.log(Z)})
        wv = 2 * h**2 * (G2 + sp.exp(-b**2 / 2) * Th2) / Z
        g12 = zero(sp.exp(lv) - wv)
        g13 = zero(wv.subs({G2: D.geometric2_closed(K), Th2: D.theta_tail(K + 1, 2), Z: D.normaliser()}) - D.variance())
        ok &= g12 == 0 and g13 == 0
        steps.append(f"- exp(log_variance(h, log_var_sum(log G2, log_var_tail(E(m), m, log R_2(m))), log Z)) minus "
                     f"2 h^2 (G2 + e^(-b^2/2) Th2)/Z (G2 = sum_(n<=K) n^2 e^(-lam n), Th2 = Theta_2(K + 1), R_2(m) = "
                     f"e^(c^2 m^2/2) m^-2 Theta_2(m) as in fhsym.noise.lattice_sums, m = K + 1): {g12}; 2 h^2 (G2 + e^(-b^2/2) Th2)/Z "
                     f"at the derived G2, Th2, Z minus fhsym.symbolic.discrete.variance: {g13}")
        steps.append("- each program is the unevaluated tree printed into the generated module in the class's former "
                     "order of operations (float literals read as the exact rationals they round); its float rounding "
                     "is checked by the rows `loss` here and `normaliser`, `cdf_sf`, `variance`, `privacy_profile` of "
                     "the topic `discrete` (against exact sums)")
        return proven(bool(ok), "SymPy: each printed float program of the class (energy, loss, log-space assembly), "
                      "assignments substituted, equals the declared energy or the derived form", steps)

    topic.add(facts, obj="declaration", paper="eq 7", claim="symmetric; convex energy (monotone loss)", name="facts")
    topic.add(centre, obj="centre sums, Z", paper="eq 8", claim="geometric sums in closed form = printed forms",
              name="centre")
    topic.add(tail, obj="Gaussian tail", paper="-", claim="scaled summand; truncation bound", name="tail")
    topic.add(sums, obj="Z, T(k), variance", paper="eq 8", claim="derived forms = exact sums of the definition",
              name="sums")
    topic.add(generated, obj="generated code", paper="-", claim="printed float forms = derived forms", name="generated")
    topic.add(em_forms, obj="Euler-Maclaurin forms", paper="-", claim="tail and n^2 centre sums' integrals and "
              "derivatives derived from the declaration; = em_theta", name="em")
    topic.add(printed, obj="printed programs", paper="-", claim="the printed Euler-Maclaurin and centre programs = "
              "their derived forms", name="programs")
    topic.add(series, obj="power sums, tail bound", paper="-", claim="centre power sums F_p and the tail's ratio "
              "bound for any power, derived and printed on balls", name="series")
    topic.add(balls, obj="ball view (class)", paper="eq 8", claim="at_precision's balls contain the exact sums",
              name="balls")
    topic.add(ball_profile, obj="ball view (class)", paper="Thm 3 on h*Z", claim="at_precision's ball profile "
              "P(X >= k*) - e^eps P(X >= k* + S) contains the definition's exact sum", name="ball_profile")
    topic.add(plan, obj="certificate plan (ball programs)", paper="Thm 3 on h*Z", claim="the profile-lattice "
              "plan's printed ball programs = the derived forms and bounds", name="plan")
    topic.add(assembly, obj="float loss, assembly (class)", paper="Sec II-C1, eq 8", claim="the class's printed "
              "energy, loss and log-space assembly = the declared energies and derived forms", name="assembly")
    topic.add(loss, obj="privacy loss (class)", paper="Sec II-C1", claim="the printed float loss = E(k + S) - "
              "E(k) of the declaration", name="loss")
    return topic


#: the harness reads ``topics`` (proofs._harness.discover)
topics = [_topic()]
