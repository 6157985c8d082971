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

import importlib
from fractions import Fraction
from typing import Any, List

import mpmath
import numpy as np
import sympy as sp
from sympy.codegen.cfunctions import expm1

from fhsym._generated.declared import discrete_flipped_huber as gen
from fhsym.symbolic import discrete as D
from fhsym.symbolic.lattice_laws import LatticeDerivation, derive_lattice, jj

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
                              f"(fhsym/_generated/declared/{KEY}.py); its Euler-Maclaurin tails, the n^2 centre sum, "
                              f"the loss and the profile's log-space assembly stay hand-written (fhsym/noise/"
                              f"lattice_sums.py, discrete_flipped_huber.py), checked by the topic `discrete`.")
    holder: List[LatticeDerivation] = []

    def dv() -> LatticeDerivation:
        if not holder:
            holder.append(derive_lattice(decl))
        return holder[0]

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

    topic.add(facts, obj="declaration", paper="eq 7", claim="symmetric; convex energy (monotone loss)", name="facts")
    topic.add(centre, obj="centre sums, Z", paper="eq 8", claim="geometric sums in closed form = printed forms",
              name="centre")
    topic.add(tail, obj="Gaussian tail", paper="-", claim="scaled summand; truncation bound", name="tail")
    topic.add(sums, obj="Z, T(k), variance", paper="eq 8", claim="derived forms = exact sums of the definition",
              name="sums")
    topic.add(generated, obj="generated code", paper="-", claim="printed float forms = derived forms", name="generated")
    return topic


#: the harness reads ``topics`` (proofs._harness.discover)
topics = [_topic()]
