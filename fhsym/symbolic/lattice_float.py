"""The discrete flipped Huber's float loss, energy and log-space assembly as programs, printed from its derived forms
(issue 28).

``fhsym.DiscreteFlippedHuber`` evaluates every quantity in log space from three kinds of pieces: the energy ``E(n)``
and the privacy loss ``L(k) = E(k + S) - E(k)`` (the hinge form, no cancellation of large terms), the scaled tails
``rho(n) = log(e^(E(n)) T(n))`` (:mod:`fhsym.noise.lattice_sums` and the centre's ``log_centre_scaled``), and the
assembly of those into ``log Z``, ``log T(n)``, ``log P(X <= k)``, the variance and the profile.  The programs below are
those formulas, written unevaluated in the class's former order of operations (so the printed code gives its bits:
``scripts/discrete_flipped_huber_former.py``) and printed into ``fhsym/_generated/declared/discrete_flipped_huber.py``
(:class:`fhsym.codegen.lattice_laws.ProgramPrinter`, numpy target; a condition on scalars is a conditional expression,
on arrays ``np.where``; ``logaddexp(x, y) = log(e^x + e^y)`` is ``np.logaddexp``).  ``proofs/lattice_laws.py`` (row
``assembly``) proves each equal to the declaration's energy pieces or to the derived normaliser, tail, cdf, variance
and profile (:mod:`fhsym.symbolic.discrete`).  What stays hand-written in the class is control flow: which index takes
which piece, ``|n|`` (the law is symmetric), k*, the switch to the certified enclosure.

>>> [p.name for p in float_programs()][:2]
['energy_float', 'loss_float']
"""

from __future__ import annotations

import functools
from typing import Tuple

import sympy as sp
from sympy.codegen.cfunctions import expm1, log1p

from . import discrete as D
from .lattice_em import Program, fdiv, flt, tree_add, tree_mul, tree_neg, tree_pow

__all__ = ["logaddexp", "float_programs", "a_", "bb_", "d_", "la", "gap", "lrf", "lt", "lt1", "lt2", "r1", "r2", "L_",
           "log_z", "log_t1", "energy_", "log_r2", "lg2", "log_tail", "log_tot", "x_"]


class logaddexp(sp.Function):  # type: ignore[misc]  # sympy ships no type information: Function is Any
    """``log(e^x + e^y)`` (printed ``np.logaddexp``; ``proofs/lattice_laws.py``, row ``assembly``, replaces it by
    that value)."""

    nargs = 2


a_, bb_ = sp.Symbol("a", integer=True, nonnegative=True), sp.Symbol("bb", integer=True, nonnegative=True)  # |k + S|, |k|
d_ = sp.Symbol("d", positive=True)  # c (K + 1) - b, the tail's first point beyond alpha (standard units)
la, gap, lrf = sp.Symbol("la", real=True), sp.Symbol("gap", real=True), sp.Symbol("log_r_first", real=True)
lt, lt1, lt2 = sp.Symbol("lt", real=True), sp.Symbol("lt1", real=True), sp.Symbol("lt2", real=True)
r1, r2, L_ = sp.Symbol("r1", real=True), sp.Symbol("r2", real=True), sp.Symbol("L", real=True)
log_z, log_t1, energy_ = sp.Symbol("log_z", real=True), sp.Symbol("log_t1", real=True), sp.Symbol("energy", real=True)
log_r2, lg2, log_tail = sp.Symbol("log_r2", real=True), sp.Symbol("lg2", real=True), sp.Symbol("log_tail", real=True)
log_tot, x_ = sp.Symbol("log_tot", real=True), sp.Symbol("x", real=True)


def _half() -> sp.Expr:
    return flt(sp.Rational(1, 2))


@functools.lru_cache(maxsize=None)
def float_programs() -> Tuple[Program, ...]:
    """The class's float formulas (module docstring), in print order."""
    n, K, lam, b, c, m = D.n, D.K, D.lam, D.b, D.c, D.m
    eps, h, alpha, gamma = D.eps, D.h, D.alpha, D.gamma
    nf = sp.Symbol("n", real=True)  # an array of indices (floats)
    energy = Program("energy_float", (nf, K, lam, b, c), (),
                     sp.Piecewise((tree_mul(lam, nf), nf <= K),
                                  (tree_mul(_half(), tree_add(tree_pow(tree_mul(c, nf), 2), tree_mul(b, b))), True)),
                     "E(n) for n >= 0: lam n on the centre n <= K, (c^2 n^2 + b^2)/2 beyond", (K, lam, b, c))
    lin, ha, hb, quad = sp.Symbol("lin"), sp.Symbol("ha"), sp.Symbol("hb"), sp.Symbol("quad")
    both = sp.And(sp.StrictGreaterThan(a_, K), sp.StrictGreaterThan(bb_, K))
    loss = Program("loss_float", (a_, bb_, K, lam, b, c), (
        (lin, tree_mul(lam, tree_add(a_, tree_neg(bb_)))),
        (ha, sp.Piecewise((tree_add(tree_mul(c, a_), tree_neg(b)), sp.StrictGreaterThan(a_, K)), (flt(0), True))),
        (hb, sp.Piecewise((tree_add(tree_mul(c, bb_), tree_neg(b)), sp.StrictGreaterThan(bb_, K)), (flt(0), True))),
        (quad, sp.Piecewise(
            (tree_mul(_half(), c, tree_add(a_, tree_neg(bb_)),
                      tree_add(tree_mul(c, tree_add(a_, bb_)), tree_neg(tree_mul(flt(2), b)))), both),
            (tree_mul(_half(), tree_add(tree_mul(ha, ha), tree_neg(tree_mul(hb, hb)))), True)))),
        tree_add(lin, quad),
        "L = E(a) - E(bb) (a = |k + S|, bb = |k|) in the hinge form lam (a - bb) + ((c a - b)_+^2 - (c bb - b)_+^2)/2; "
        "past K both, the difference of squares factored", (a_, bb_, K, lam, b, c))
    kf = sp.Symbol("Kf", real=True)  # float(K)
    progs = [
        energy, loss,
        Program("tail_entry_gap", (h, kf, alpha, gamma), (),
                fdiv(tree_add(tree_mul(h, tree_add(kf, flt(1))), tree_neg(alpha)), gamma),
                "d = (h (K + 1) - alpha)/gamma = c (K + 1) - b in (0, c]", (h, kf, alpha, gamma)),
        Program("centre_gap", (nf, K, lam, d_), (),
                tree_add(tree_mul(lam, tree_add(K, flt(1), tree_neg(nf))), tree_mul(_half(), d_, d_)),
                "E(K + 1) - E(n) = lam (K + 1 - n) + d^2/2 for n <= K", (K, lam, d_)),
        Program("rho_centre", (la, gap, lrf), (), logaddexp(la, tree_add(tree_neg(gap), lrf)),
                "log(e^(E(n)) T(n)) for 1 <= n <= K: log(e^(E(n)) G(n, K) + e^(E(n) - E(K + 1)) e^(E(K + 1)) T(K + 1))"),
        Program("log_tail_pos", (energy_, r1), (), tree_add(tree_neg(energy_), r1),
                "log T(n) = -E(n) + log(e^(E(n)) T(n))"),
        Program("log_normaliser_float", (log_t1,), (), logaddexp(flt(0), tree_add(sp.log(flt(2)), log_t1)),
                "log Z = log(1 + 2 T(1))", (log_t1,)),
        Program("log_reflected_tail", (log_z, lt), (), tree_add(log_z, log1p(tree_neg(sp.exp(
            tree_add(lt, tree_neg(log_z)))))), "log T(n) = log(Z - T(1 - n)) for n <= 0, lt = log T(1 - n)"),
        Program("log_cdf_neg", (lt, log_z), (), tree_add(lt, tree_neg(log_z)),
                "log P(X <= k) = log T(-k) - log Z for k < 0 (symmetry), lt = log T(-k)"),
        Program("log_cdf_pos", (lt, log_z), (), log1p(tree_neg(sp.exp(tree_add(lt, tree_neg(log_z))))),
                "log P(X <= k) = log(1 - T(k + 1)/Z) for k >= 0, lt = log T(k + 1)"),
        Program("log_profile_x_pos", (eps, L_, r1, r2), (), tree_add(eps, tree_neg(L_), r2, tree_neg(r1)),
                "x = log(e^eps T(k* + S)/T(k*)) = eps - L(k*) + rho(k* + S) - rho(k*) (k* >= 1)", (eps, L_, r1, r2)),
        Program("log_profile_x", (eps, lt1, lt2), (), tree_add(eps, lt2, tree_neg(lt1)),
                "x = log(e^eps T(k* + S)/T(k*)) = eps + log T(k* + S) - log T(k*)", (eps, lt1, lt2)),
        Program("log_profile_float", (lt1, log_z, x_), (),
                tree_add(lt1, tree_neg(log_z), sp.log(tree_neg(expm1(x_)))),
                "log delta = log T(k*) - log Z + log(1 - e^x) (x < 0)", (lt1, log_z, x_)),
        Program("log_var_tail", (energy_, m, log_r2), (),
                tree_add(tree_neg(energy_), tree_mul(flt(2), sp.log(m)), log_r2),
                "log(e^(-b^2/2) Theta_2(m)) = -E(m) + 2 log m + log R_2(m) (m = K + 1)", (energy_, m, log_r2)),
        Program("log_var_sum", (lg2, log_tail), (), logaddexp(lg2, log_tail),
                "log(sum_(n=1)^K n^2 e^(-E(n)) + e^(-b^2/2) Theta_2(K + 1))"),
        Program("log_variance", (h, log_tot, log_z), (),
                tree_add(sp.log(flt(2)), tree_mul(flt(2), sp.log(h)), log_tot, tree_neg(log_z)),
                "log Var X = log(2 h^2 (...)/Z)", (h, log_tot, log_z)),
    ]
    return tuple(progs)
