"""The discrete flipped Huber's certificate plan as ball programs, written from its derived forms (issues 28, 29).

The claim ``profile-lattice`` encloses ``delta(eps) = (T(k*) - e^eps T(k* + S))/Z`` (:func:`fhsym.symbolic.discrete.
profile`) in arb balls (:mod:`fhsym.noise.discrete_profile_arb`, which keeps the control flow: k* in exact rationals,
the choice between a direct Gaussian sum and Euler-Maclaurin, the direct sum's loop, the precision policy).  Every
formula it evaluates is one of the programs below, printed on balls into ``fhsym/_generated/declared/
discrete_flipped_huber.py`` (:class:`fhsym.codegen.lattice_laws.ProgramPrinter`, target ``"arb"``):

* ``centre_sum_arb(n, K, lam)``: the geometric centre ``G(n, K) = sum_(n<=j<=K) e^(-lam j)``
  (:func:`~fhsym.symbolic.discrete.geometric_closed`, every ``1 - e^(-x)`` as ``-expm1(-x)``);
* ``gauss_start_arb(m, c2h)``: the first term ``e^(-c^2 m^2/2)``, the first ratio ``e^(-c^2 (2m+1)/2)`` and the
  ratio's step ``e^(-c^2)`` of the direct Gaussian sum's recurrence (``t_(n+1) = t_n q_n``, ``q_(n+1) = q_n e^(-c^2)``);
* ``gauss_close_arb(total, M, c2h, b2h)``: ``e^(-b^2/2) (total + [0, rest])``, ``rest`` the truncation bound
  :func:`~fhsym.symbolic.discrete.truncation_bound` (p = 0) at M;
* ``em_constants_arb(c)`` and ``em_tail_arb(m, c, b2h, k)``: ``e^(-b^2/2) Theta_0(m)`` by Euler-Maclaurin with
  :data:`PLAN_EM_ORDER` corrections (:func:`~fhsym.symbolic.discrete.em_theta`) plus the ball of its remainder bound
  (:func:`~fhsym.symbolic.discrete.em_remainder_bound`: the exact integral past the zeros of ``He_2Q``, Cauchy-Schwarz
  before); ``em_tail2_arb`` the same for ``e^(-b^2/2) Theta_2(m)`` (the ball view's variance; ``at_precision``
  takes both where a direct sum would be long and their ball is as narrow as the working precision);
* ``normaliser_arb(t1) = 1 + 2 T(1)``, ``reflected_tail_arb(z, t) = Z - T(1 - n)`` (``T(n)`` for ``n <= 0``) and
  ``profile_assembly_arb(t1, t2, eps, z) = (T(k*) - e^eps T(k* + S))/Z``.

Inputs: ``c2h = c^2/2``, ``b2h = b^2/2``, ``eps`` and the integers are exact rationals (python-flint ``fmpq``,
``int``); ``ball(q)`` is the arb ball of an exact rational at the working precision, ``lam`` and ``c`` are such balls.
The trees are written unevaluated in the order of operations of the former hand-written module, so the printed code
performs the same ball operations and gives the same balls, bit for bit (``scripts/discrete_flipped_huber_former.py``).
``proofs/lattice_laws.py`` (row ``plan``) proves each program, its assignments substituted, equal to the derived form.

>>> [p.name for p in plan_programs()][:3]
['centre_sum_arb', 'gauss_start_arb', 'gauss_close_arb']
"""

from __future__ import annotations

import functools
from typing import List, Tuple

import sympy as sp
from sympy.codegen.cfunctions import expm1

from . import discrete as D
from .lattice_em import Program, tree_add, tree_mul, tree_neg, tree_pow, bernoulli_factor, fdiv

__all__ = ["PLAN_EM_ORDER", "EM_ORDERS", "ball", "pm", "fac_ball", "item", "c2h", "b2h", "tot", "k_em",
           "plan_programs", "plan_value", "em_constant_names", "em_programs"]

PLAN_EM_ORDER = 20  # Euler-Maclaurin corrections of the certificate plan's Gaussian tail
c2h = sp.Symbol("c2h", positive=True)  # c^2/2, exact
b2h = sp.Symbol("b2h", positive=True)  # b^2/2, exact
tot = sp.Symbol("total")  # a ball: the direct Gaussian sum so far
t1, t2, z = sp.Symbol("t1", positive=True), sp.Symbol("t2", positive=True), sp.Symbol("z", positive=True)
k_em = sp.Symbol("k")  # the tuple of em_constants_arb
M = sp.Symbol("M", integer=True, positive=True)


class ball(sp.Function):  # type: ignore[misc]  # sympy ships no type information: Function is Any
    """The arb ball of an exact rational expression at the working precision (printed ``arb(...)``; the value is the
    expression)."""

    nargs = 1


class pm(sp.Function):  # type: ignore[misc]
    """The ball ``[-r, r]`` (printed ``r*arb(0, 1)``): a rigorous radius."""

    nargs = 1


class fac_ball(sp.Function):  # type: ignore[misc]
    """``n!`` as arb's ball at the working precision (printed ``arb.fac_ui(n)``)."""

    nargs = 1


class item(sp.Function):  # type: ignore[misc]
    """``k[i]``: the i-th element of a tuple argument (the precomputed constants)."""

    nargs = 2


#: the orders the ball view (``at_precision``) may take: PLAN_EM_ORDER printed, the others printed when asked
EM_ORDERS = (PLAN_EM_ORDER, 40)


def _centre() -> Program:
    n, K, lam = D.n, D.K, D.lam
    val = fdiv(tree_mul(sp.exp(tree_mul(tree_neg(lam), n)), tree_neg(expm1(tree_mul(tree_neg(lam), tree_add(K, tree_neg(n), 1))))),
               tree_neg(expm1(tree_neg(lam))))
    return Program("centre_sum_arb", (n, K, lam), (), val,
                   "sum_(j=n)^K e^(-lam j) = e^(-lam n) (1 - e^(-lam (K - n + 1)))/(1 - e^(-lam)) on balls")


def _gauss_start() -> Program:
    m = D.m
    res = sp.Tuple(sp.exp(tree_neg(ball(tree_mul(c2h, m, m)))), sp.exp(tree_neg(ball(tree_mul(c2h, tree_add(tree_mul(2, m), 1))))),
                   sp.exp(tree_neg(tree_mul(2, ball(c2h)))))
    return Program("gauss_start_arb", (m, c2h), (), res,
                   "(e^(-c^2 m^2/2), e^(-c^2 (2m + 1)/2), e^(-c^2)): the direct Gaussian sum's first term, first ratio "
                   "and the ratio's step")


def _gauss_close() -> Program:
    rho, rest, half = sp.Symbol("rho"), sp.Symbol("rest"), sp.Symbol("half")
    asg = ((rho, sp.exp(tree_neg(ball(tree_mul(c2h, tree_add(tree_mul(2, M), 1)))))),
           (rest, fdiv(sp.exp(tree_neg(ball(tree_mul(c2h, M, M)))), tree_add(1, tree_neg(rho)))),
           (half, tree_mul(rest, ball(sp.Rational(1, 2)))))
    res = tree_mul(tree_add(tot, tree_add(half, pm(half))), sp.exp(tree_neg(ball(b2h))))
    return Program("gauss_close_arb", (tot, M, c2h, b2h), asg, res,
                   "e^(-b^2/2) (total + [0, rest]), rest = e^(-c^2 M^2/2)/(1 - e^(-c^2 (2M + 1)/2)) >= "
                   "sum_(n>=M) e^(-c^2 n^2/2) (truncation_bound)")


def _em_constants(Q: int = PLAN_EM_ORDER) -> Program:
    c = D.c
    c2, cq_, rem_cs = sp.Symbol("c2"), sp.Symbol("cq"), sp.Symbol("rem_cs")
    cp = [sp.Symbol(f"cp{q}") for q in range(Q + 1)]
    bc = [sp.Symbol(f"bc{q}") for q in range(Q + 1)]
    asg: List[Tuple[sp.Symbol, sp.Expr]] = [(c2, tree_mul(c, c)), (cp[1], c)]
    for q in range(1, Q + 1):
        asg.append((bc[q], tree_mul(ball(bernoulli_factor(q)), cp[q])))
        if q < Q:
            asg.append((cp[q + 1], tree_mul(cp[q], c2)))
    asg.append((cq_, tree_mul(sp.Abs(ball(bernoulli_factor(Q)), evaluate=False), tree_pow(c, 2 * Q - 1))))
    asg.append((rem_cs, tree_mul(cq_, sp.Pow(tree_mul(2, sp.pi, fac_ball(2 * Q)), sp.S.Half, evaluate=False))))
    res = sp.Tuple(sp.Pow(fdiv(sp.pi, 2), sp.S.Half, evaluate=False), sp.Pow(ball(2), sp.S.Half, evaluate=False),
                   sp.Pow(ball(8 * Q + 10), sp.S.Half, evaluate=False), *bc[1:], cq_, rem_cs,
                   ball(sp.Rational(1, 2)))
    return Program("em_constants_arb", (c,), tuple(asg), res,
                   f"the factors of em_tail_arb that do not depend on m: sqrt(pi/2), sqrt(2), sqrt(8Q + 10), "
                   f"B_2q/(2q)! c^(2q-1) (q = 1 .. {Q}), |B_2Q|/(2Q)! c^(2Q-1) and that times sqrt(2 pi (2Q)!) "
                   f"(Q = {Q}), 1/2")


def em_constant_names(Q: int = PLAN_EM_ORDER) -> Tuple[str, ...]:
    """The elements of ``em_constants_arb``'s tuple at Q corrections, in order."""
    return ("sqrt_half_pi", "sqrt2", "past_zeros", *(f"bc{q}" for q in range(1, Q + 1)), "cq", "rem_cs", "half")


def _em_tail(Q: int = PLAN_EM_ORDER) -> Program:
    m, c, u = D.m, D.c, D.u
    names = {nm: sp.Symbol(nm) for nm in em_constant_names(Q)}
    asg: List[Tuple[sp.Symbol, sp.Expr]] = [(names[nm], item(k_em, i)) for i, nm in enumerate(em_constant_names(Q))]
    g, main, corr, rem = sp.Symbol("g"), sp.Symbol("main"), sp.Symbol("corr"), sp.Symbol("rem")
    he = [sp.Symbol(f"he{i}") for i in range(2 * Q + 1)]
    asg += [(u, tree_mul(c, m)), (g, sp.exp(fdiv(tree_neg(tree_mul(u, u)), 2))),
            (main, fdiv(tree_mul(names["sqrt_half_pi"], sp.erfc(fdiv(u, names["sqrt2"]))), c)),
            (he[0], ball(1)), (he[1], u)]
    for q in range(1, 2 * Q - 1):  # He_(q+1) = u He_q - q He_(q-1), up to He_(2Q-1)
        asg.append((he[q + 1], tree_add(tree_mul(u, he[q]), tree_neg(tree_mul(q, he[q - 1])))))
    asg.append((corr, tree_add(names["half"], *[tree_mul(names[f"bc{q}"], he[2 * q - 1]) for q in range(1, Q + 1)])))
    asg.append((rem, sp.Piecewise((tree_mul(names["cq"], he[2 * Q - 1], g), sp.GreaterThan(u, names["past_zeros"])),
                                  (names["rem_cs"], True))))
    res = tree_mul(tree_add(main, tree_mul(g, corr), pm(rem)), sp.exp(tree_neg(ball(b2h))))
    return Program("em_tail_arb", (m, c, b2h, k_em), tuple(asg), res,
                   f"e^(-b^2/2) sum_(n>=m) e^(-c^2 n^2/2) by Euler-Maclaurin ({Q} corrections) plus the ball of its "
                   f"proven remainder bound; k = em_constants_arb(c)")


def _em_tail2(Q: int = PLAN_EM_ORDER) -> Program:
    """``e^(-b^2/2) sum_(n>=m) n^2 e^(-c^2 n^2/2)`` by Euler-Maclaurin, the p = 2 twin of :func:`_em_tail` (the ball
    view's variance and entropy; no certificate reads it)."""
    m, c, u = D.m, D.c, D.u
    names = {nm: sp.Symbol(nm) for nm in em_constant_names(Q)}
    asg: List[Tuple[sp.Symbol, sp.Expr]] = [(names[nm], item(k_em, i)) for i, nm in enumerate(em_constant_names(Q))]
    c2, g, main, corr, rem = (sp.Symbol(x) for x in ("c2", "g", "main", "corr", "rem"))
    he = [sp.Symbol(f"he{i}") for i in range(2 * Q + 2)]
    asg += [(u, tree_mul(c, m)), (c2, tree_mul(c, c)), (g, sp.exp(fdiv(tree_neg(tree_mul(u, u)), 2))),
            (main, fdiv(tree_add(tree_mul(u, g), tree_mul(names["sqrt_half_pi"], sp.erfc(fdiv(u, names["sqrt2"])))),
                        tree_pow(c, 3))),
            (he[0], ball(1)), (he[1], u)]
    for q in range(1, 2 * Q + 1):  # up to He_(2Q+1)
        asg.append((he[q + 1], tree_add(tree_mul(u, he[q]), tree_neg(tree_mul(q, he[q - 1])))))
    # B_2q/(2q)! c^(2q-3) = bc_q/c^2
    asg.append((corr, tree_add(fdiv(ball(tree_mul(m, m)), 2), *[tree_mul(fdiv(names[f"bc{q}"], c2),
                                                                    tree_add(he[2 * q + 1], he[2 * q - 1]))
                                                           for q in range(1, Q + 1)])))
    cs2 = tree_mul(fdiv(names["cq"], c2), sp.Pow(tree_mul(2, sp.pi, tree_add(fac_ball(2 * Q), fac_ball(2 * Q + 2))),
                                                 sp.S.Half, evaluate=False))
    asg.append((rem, sp.Piecewise((tree_mul(fdiv(names["cq"], c2), tree_add(he[2 * Q + 1], he[2 * Q - 1]), g),
                                   sp.GreaterThan(u, names["past_zeros"])), (cs2, True))))
    res = tree_mul(tree_add(main, tree_mul(g, corr), pm(rem)), sp.exp(tree_neg(ball(b2h))))
    return Program("em_tail2_arb", (m, c, b2h, k_em), tuple(asg), res,
                   f"e^(-b^2/2) sum_(n>=m) n^2 e^(-c^2 n^2/2) by Euler-Maclaurin ({Q} corrections) plus the ball of its "
                   f"proven remainder bound; k = em_constants_arb(c)")


def _small() -> List[Program]:
    eps = D.eps
    return [Program("normaliser_arb", (t1,), (), tree_add(1, tree_mul(2, t1)), "Z = 1 + 2 T(1)"),
            Program("reflected_tail_arb", (z, t1), (), tree_add(z, tree_neg(t1)), "T(n) = Z - T(1 - n) for n <= 0"),
            Program("profile_assembly_arb", (t1, t2, eps, z), (),
                    fdiv(tree_add(t1, tree_neg(tree_mul(sp.exp(ball(eps)), t2))), z),
                    "delta(eps) = (T(k*) - e^eps T(k* + S))/Z")]


@functools.lru_cache(maxsize=None)
def plan_programs() -> Tuple[Program, ...]:
    """The certificate plan's ball programs (module docstring), in print order."""
    return (_centre(), _gauss_start(), _gauss_close(), _em_constants(), _em_tail(), _em_tail2(), *_small())


@functools.lru_cache(maxsize=None)
def em_programs(Q: int) -> Tuple[Program, Program, Program]:
    """``em_constants_arb``, ``em_tail_arb``, ``em_tail2_arb`` with Q corrections (Q in :data:`EM_ORDERS`: the orders
    ``proofs/lattice_laws.py`` proves)."""
    if Q not in EM_ORDERS:
        raise ValueError(f"Q must be one of {EM_ORDERS} (the proven orders); got {Q!r}")
    return _em_constants(Q), _em_tail(Q), _em_tail2(Q)


def plan_value(e: sp.Expr) -> sp.Expr:
    """A plan tree as an ordinary SymPy expression: ``ball(q)`` is q, ``fac_ball(n)`` is n!, ``fdiv(a, b)`` is a/b,
    ``expm1(x)`` is e^x - 1 (``pm`` and ``item`` are left to the caller)."""
    e = e.replace(ball, lambda x: x).replace(fac_ball, sp.factorial).replace(fdiv, lambda a, b: a / b)
    return e.replace(expm1, lambda x: sp.exp(x) - 1)
