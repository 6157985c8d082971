"""Euler-Maclaurin forms of a lattice law's sums, derived from its declaration, and the float programs printed from
them (issue 28).

The discrete flipped Huber's sums that have no closed form are the Gaussian tail ``R_p(m) = e^(E(m)) m^-p
sum_(n>=m) n^p e^(-E(n))`` (p = 0, 2; ``fhsym.noise.lattice_sums``) and, for a long centre, ``sum_(n=1)^K n^2
e^(-E(n))``.  :func:`derive_em` derives, from the declared energy pieces (:class:`~.lattice_laws.LatticeDeclaration`):

* the scaled integrals ``e^(E(m)) m^-p int_m^oo x^p e^(-E(x)) dx`` (SymPy ``integrate``, written with ``erfcx``)
  and ``int_1^K x^2 e^(-E(x)) dx`` (with the regularised lower gamma ``P(3, .)``);
* the odd derivatives of the summands at the ends (SymPy ``diff``) in the Hermite form
  ``d^r/dx^r e^(-c^2 x^2/2) = (-c)^r He_r(c x) e^(-c^2 x^2/2)`` (p = 0) and its ``x^2`` twin, and the centre's
  ``(-1)^r e^(-lam x) (lam^r x^2 - 2 r lam^(r-1) x + r (r-1) lam^(r-2))``;
* the Euler-Maclaurin values ``integral + f(end)/2 - sum_q B_2q/(2q)! f^(2q-1)(end)`` (the tail: ``EM_ORDER``
  corrections; the centre: ``CENTRE2_EM_ORDER``, between its two ends), equal to
  :func:`fhsym.symbolic.discrete.em_theta` (whose remainder bound ``proofs/discrete.py`` proves).

:func:`programs` writes each float form as a *program*: assignments whose right-hand sides are SymPy trees built
unevaluated (``evaluate=False``), so that the printer (:mod:`fhsym.codegen.lattice_laws`) keeps the association of
every sum and product: floating-point addition and multiplication are commutative but not associative, and the
programs associate as the former hand-written ``lattice_sums.py`` did, so the printed code gives its bits.
``fdiv(a, b)`` is one float division ``a / b`` (a power ``x**r`` is printed as ``x**r``, also for ``r = -1``);
``He_q(u)`` is evaluated by the three-term recurrence ``He_(q+1) = u He_q - q He_(q-1)`` (proven here for every q
used).  :func:`program_value` substitutes a program's assignments into its result; ``proofs/lattice_laws.py``
proves that value equal to the derived form, symbolically.

>>> from fhsym.symbolic.laws.discrete_flipped_huber import DECLARATION
>>> em = derive_em(DECLARATION)
>>> em.integral[0]
sqrt(2)*sqrt(pi)*erfcx(sqrt(2)*u/2)/(2*c)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Tuple

import sympy as sp

from . import discrete as D
from .lattice_laws import LatticeDeclaration
from sympy.codegen.cfunctions import log1p

from .special import erfcx

__all__ = ["EM_ORDER", "CENTRE2_EM_ORDER", "fdiv", "flt", "gammainc_p", "x", "EMDerivation", "Program", "derive_em", "programs",
           "program_value", "bernoulli_factor", "hermite_recurrence_gaps", "tree_add", "tree_mul", "tree_neg", "tree_pow"]

EM_ORDER = 6  # Euler-Maclaurin corrections of the Gaussian tail (used where c < 0.005 and c^2 m < 0.03)
CENTRE2_EM_ORDER = 4  # those of the n^2 centre sum (used where lam < 4e-4)
x = sp.Symbol("x", positive=True)  # the summation index as a real variable


class fdiv(sp.Function):  # type: ignore[misc]  # sympy ships no type information: Function is Any
    """``a / b`` as one float division (unevaluated: a program keeps it; :func:`program_value` divides)."""

    nargs = 2


class flt(sp.Function):  # type: ignore[misc]
    """The double nearest to the exact rational argument (printed as that double's literal; :func:`program_value`
    reads the exact rational: the proofs show what the literal rounds)."""

    nargs = 1


class gammainc_p(sp.Function):  # type: ignore[misc]
    """The regularised lower incomplete gamma ``P(a, y) = lowergamma(a, y)/Gamma(a)`` (scipy's ``gammainc``),
    unevaluated (SymPy expands ``lowergamma`` at an integer a)."""

    nargs = 2


@dataclass(frozen=True)
class Program:
    """Float code as data: ``assignments`` (name, unevaluated SymPy tree) in order, then ``result``; ``args`` the
    function's arguments (a call of another printed function appears in the tree as ``sp.Function(name)``)."""

    name: str
    args: Tuple[sp.Symbol, ...]
    assignments: Tuple[Tuple[sp.Symbol, sp.Expr], ...]
    result: sp.Expr
    doc: str = ""
    scalars: Tuple[sp.Symbol, ...] = ()  # arguments that are Python floats: a function of them alone prints math.*


@dataclass
class EMDerivation:
    """The forms of :func:`derive_em` (module docstring); ``u = c m``."""

    decl: LatticeDeclaration
    integral: Tuple[sp.Expr, sp.Expr]  # e^(E(m)) m^-p int_m^oo x^p e^(-E(x)) dx, p = 0, 2 (in u, c, m)
    derivative: Dict[Tuple[int, int], Tuple[sp.Expr, sp.Expr]]  # (p, r): (diff of the summand at m, Hermite form)
    em_value: Tuple[sp.Expr, sp.Expr]  # R_p(m) without its remainder: integral + 1/2 - sum_q B f^(2q-1)
    centre2_integral: Tuple[sp.Expr, sp.Expr]  # (SymPy's integrate over [1, K], the P(3, .) form)
    centre2_derivative: Dict[int, Tuple[sp.Expr, sp.Expr]]  # r: (diff of x^2 e^(-E(x)), the polynomial form)
    centre2_em: sp.Expr  # sum_(n=1)^K n^2 e^(-E(n)) without its remainder
    steps: List[str] = field(default_factory=list)


def bernoulli_factor(q: int) -> sp.Rational:
    """``B_2q/(2q)!`` (exact)."""
    return sp.Rational(sp.bernoulli(2 * q), sp.factorial(2 * q))


def hermite_recurrence_gaps(top: int) -> List[sp.Expr]:
    """``He_(q+1)(u) - (u He_q(u) - q He_(q-1)(u))`` expanded, q = 1 .. top - 1 (all 0: the recurrence holds)."""
    He, u = sp.hermite_prob, D.u
    return [sp.expand(He(q + 1, u) - (u * He(q, u) - q * He(q - 1, u))) for q in range(1, top)]


def _centre2_poly(r: int, xx: sp.Expr) -> sp.Expr:
    lam = D.lam
    return (-1) ** r * sp.exp(-lam * xx) * (lam**r * xx**2 - 2 * r * lam ** (r - 1) * xx + r * (r - 1) * lam ** (r - 2))


@functools.lru_cache(maxsize=None)
def derive_em(decl: LatticeDeclaration) -> EMDerivation:
    """Derive the Euler-Maclaurin forms of the module docstring from ``decl`` (cached)."""
    m, c, u, lam, K = D.m, D.c, D.u, D.lam, D.K
    He = sp.hermite_prob
    steps: List[str] = []
    # the tail: the scaled summand s(x) = e^(E(m) - E(x)) (the b^2/2 of the energy cancels)
    s = sp.exp(sp.expand(decl.tail.subs(D.n, m) - decl.tail.subs(D.n, x)))
    formed = []
    for p in (0, 2):
        integral = sp.integrate(x**p * s, (x, m, sp.oo)) / m**p
        # erfc(z) e^(z^2) -> erfcx(z); then m = u/c
        z = sp.Wild("z")
        ex = sp.expand(sp.expand(integral.subs(m, u / c)).rewrite(sp.erfc))
        ex = ex.replace(sp.erfc(z), lambda z: erfcx(z) * sp.exp(-(z**2)))
        formed.append(sp.factor(sp.powsimp(sp.expand(ex), combine="exp")))
        steps.append(f"p = {p}: e^(E(m)) m^-p int_m^oo x^p e^(-E(x)) dx = {formed[-1]}")
    derivative: Dict[Tuple[int, int], Tuple[sp.Expr, sp.Expr]] = {}
    for p in (0, 2):
        for r in range(1, 2 * EM_ORDER, 2):
            got = (sp.diff(x**p * s, x, r).subs(x, m) / m**p).subs(m, u / c)
            herm = (-c) ** r * He(r, u) if p == 0 else (-1) ** r * c ** (r - 2) * (He(r + 2, u) + He(r, u)) * c**2 / u**2
            derivative[(p, r)] = (sp.expand(got), herm)
    em_value = tuple(
        formed[i] + sp.Rational(1, 2) - sum(bernoulli_factor(q) * derivative[(p, 2 * q - 1)][1]
                                            for q in range(1, EM_ORDER + 1))
        for i, p in enumerate((0, 2)))
    # the centre: f(x) = x^2 e^(-E(x)) over [1, K]
    f = x**2 * sp.exp(-decl.centre.subs(D.n, x))
    c2_raw = sp.integrate(f, (x, 1, K))
    yy = sp.Symbol("y", positive=True)
    reg_p3 = sp.lowergamma(3, yy) / sp.gamma(3)  # P(3, y)
    c2_form = 2 / lam**3 * (reg_p3.subs(yy, lam * K) - reg_p3.subs(yy, lam))
    c2_der = {r: (sp.diff(f, x, r), _centre2_poly(r, x)) for r in (0, *range(1, 2 * CENTRE2_EM_ORDER, 2))}
    c2_em = (c2_form + sp.Rational(1, 2) * (f.subs(x, 1) + f.subs(x, K))
             + sum(bernoulli_factor(q) * (c2_der[2 * q - 1][1].subs(x, K) - c2_der[2 * q - 1][1].subs(x, 1))
                   for q in range(1, CENTRE2_EM_ORDER + 1)))
    steps.append(f"int_1^K x^2 e^(-E(x)) dx = {c2_form}")
    return EMDerivation(decl, (formed[0], formed[1]), derivative, (em_value[0], em_value[1]),
                        (c2_raw, c2_form), c2_der, c2_em, steps)


def tree_add(*terms: sp.Expr) -> sp.Expr:
    """Left-associated sum ``((t1 + t2) + t3) + ...`` (unevaluated)."""
    out = terms[0]
    for t in terms[1:]:
        out = sp.Add(out, t, evaluate=False)
    return out


def tree_mul(*factors: sp.Expr) -> sp.Expr:
    """Left-associated product (unevaluated)."""
    out = factors[0]
    for f in factors[1:]:
        out = sp.Mul(out, f, evaluate=False)
    return out


def tree_neg(e: sp.Expr) -> sp.Expr:
    return sp.Mul(sp.S.NegativeOne, e, evaluate=False)


def tree_pow(base: sp.Expr, e: int) -> sp.Expr:
    return sp.Pow(base, sp.Integer(e), evaluate=False)


def _sqrt_const(e: sp.Expr) -> sp.Expr:
    return sp.Pow(e, sp.S.Half, evaluate=False)


def _tail_programs() -> List[Program]:
    m, c, u = D.m, D.c, D.u
    Q = EM_ORDER
    he = [sp.Symbol(f"he{i}") for i in range(2 * Q + 2)]
    mills = sp.Symbol("mills")
    # He_1 = u, He_2 = u u - 1 He_0 (He_0 = 1), He_(q+1) = u He_q - q He_(q-1)
    rec: List[Tuple[sp.Symbol, sp.Expr]] = [(he[1], u)]
    rec.append((he[2], tree_add(tree_mul(u, he[1]), tree_neg(sp.Integer(1)))))
    for q in range(2, 2 * Q + 1):
        rec.append((he[q + 1], tree_add(tree_mul(u, he[q]), tree_neg(tree_mul(sp.Integer(q), he[q - 1])))))
    head: List[Tuple[sp.Symbol, sp.Expr]] = [
        (u, tree_mul(c, m)),
        (mills, tree_mul(_sqrt_const(fdiv(sp.pi, sp.Integer(2))), erfcx(tree_mul(u, _sqrt_const(sp.S.Half))))),
    ]
    bf = [flt(bernoulli_factor(q)) for q in range(1, Q + 1)]
    corr0 = tree_add(*[tree_mul(bf[q - 1], tree_pow(c, 2 * q - 1), he[2 * q - 1]) for q in range(1, Q + 1)])
    # only the He the sum reads: p = 0 reads He_1 .. He_(2Q-1)
    rec0 = [a for a in rec if int(str(a[0])[2:]) <= 2 * Q - 1]
    corr = sp.Symbol("corr")
    p0 = Program("em_log_r0", (m, c), tuple(head + rec0 + [(corr, corr0)]),
                 sp.log(tree_add(fdiv(mills, c), flt(sp.S.Half), corr)),
                 "log R_0(m) = log(e^(c^2 m^2/2) sum_(n>=m) e^(-c^2 n^2/2)) by Euler-Maclaurin (EM_ORDER corrections)",
                 (c,))
    corr2 = tree_add(*[tree_mul(bf[q - 1], tree_pow(c, 2 * q - 3), tree_add(he[2 * q + 1], he[2 * q - 1])) for q in range(1, Q + 1)])
    log_first = sp.Symbol("log_first")
    # (u + mills)/(c^3 m^2) in log space: log(u + mills) - log(c) - 2 log(u) (c^3 m^2 may underflow)
    first = tree_add(sp.log(tree_add(u, mills)), tree_neg(sp.log(c)), tree_neg(tree_mul(flt(sp.Integer(2)), sp.log(u))))
    res2 = tree_add(log_first, log1p(tree_mul(tree_add(flt(sp.S.Half), fdiv(corr, tree_mul(m, m))), sp.exp(tree_neg(log_first)))))
    p2 = Program("em_log_r2", (m, c), tuple(head + rec + [(corr, corr2), (log_first, first)]), res2,
                 "log R_2(m) = log(e^(c^2 m^2/2) m^-2 sum_(n>=m) n^2 e^(-c^2 n^2/2)) by Euler-Maclaurin", (c,))
    return [p0, p2]


def _centre2_programs() -> List[Program]:
    lam, K = D.lam, D.K
    xs = sp.Symbol("x")
    ders: List[Program] = []
    for r in (0, *range(1, 2 * CENTRE2_EM_ORDER, 2)):
        poly = tree_add(tree_mul(tree_pow(lam, r), xs, xs), tree_neg(tree_mul(sp.Integer(2 * r), tree_pow(lam, r - 1), xs)))
        if r >= 2:
            poly = tree_add(poly, tree_mul(sp.Integer(r * (r - 1)), tree_pow(lam, r - 2)))
        e = sp.exp(tree_mul(tree_neg(lam), xs))
        val = tree_mul(e, poly) if r % 2 == 0 else tree_mul(tree_neg(e), poly)
        ders.append(Program(f"centre2_derivative_{r}", (xs, lam), (), val,
                            f"d^{r}/dx^{r} (x^2 e^(-lam x))", (xs, lam)))
    call = {r: sp.Function(f"centre2_derivative_{r}") for r in (0, *range(1, 2 * CENTRE2_EM_ORDER, 2))}
    one = flt(sp.Integer(1))
    integral = tree_mul(fdiv(flt(sp.Integer(2)), tree_pow(lam, 3)),
                    tree_add(gammainc_p(3, tree_mul(lam, K)), tree_neg(gammainc_p(3, lam))))
    terms = [integral, tree_mul(flt(sp.S.Half), tree_add(call[0](one, lam), call[0](K, lam)))]
    for q in range(1, CENTRE2_EM_ORDER + 1):
        r = 2 * q - 1
        terms.append(tree_mul(flt(bernoulli_factor(q)), tree_add(call[r](K, lam), tree_neg(call[r](one, lam)))))
    em = Program("em_centre2", (K, lam), (), tree_add(*terms),
                 "sum_(n=1)^K n^2 e^(-lam n) by Euler-Maclaurin on [1, K] (CENTRE2_EM_ORDER corrections)", (K, lam))
    n = sp.Symbol("n")
    term = Program("centre2_term", (n, lam), (), tree_mul(n, n, sp.exp(tree_mul(tree_neg(lam), n))),
                   "the summand n^2 e^(-E(n)) of the centre", (lam,))
    shifted = Program("centre2_term_shifted", (n, lam), (),
                      tree_mul(n, n, sp.exp(tree_mul(tree_neg(lam), tree_add(n, tree_neg(flt(sp.Integer(1))))))),
                      "e^(E(1)) n^2 e^(-E(n)) = n^2 e^(-lam (n - 1)) (a large lam: no underflow)", (lam,))
    return [*ders, em, term, shifted]


def _tail_power_program() -> Program:
    m, j = D.m, sp.Symbol("j")
    return Program("tail_log_power_2", (m, j), (), tree_mul(flt(sp.Integer(2)), log1p(fdiv(j, m))),
                   "log ((m + j)/m)^2 = 2 log1p(j/m), the p = 2 factor of the tail's scaled summand")


@functools.lru_cache(maxsize=None)
def programs(decl: LatticeDeclaration) -> Tuple[Program, ...]:
    """The float programs of the law's Euler-Maclaurin sums, its n^2 centre terms and the tail's p = 2 factor.

    They are trees written here in the float code's order of operations (a Laplace centre ``lam n``, a Gaussian tail
    ``c^2 n^2/2 + const``), proven equal to :func:`derive_em`'s forms of ``decl`` by ``proofs/lattice_laws.py``
    (``programs``); a declaration of another energy is refused (``ValueError``), not printed with these trees."""
    m = D.m
    tail_gap = sp.expand(decl.tail.subs(D.n, m) - decl.tail.subs(D.n, x))
    if sp.expand(decl.centre - D.lam * D.n) != 0 or sp.expand(tail_gap - D.c**2 * (m**2 - x**2) / 2) != 0:
        raise ValueError(f"decl must have the centre lam*n and a tail c**2*n**2/2 + const (the energies these "
                         f"programs are written for); got centre {decl.centre}, tail {decl.tail}")
    derive_em(decl)  # the forms the programs are proven equal to (proofs/lattice_laws.py)
    return tuple(_tail_programs() + _centre2_programs() + [_tail_power_program()])


def _evaluated(e: sp.Expr) -> sp.Expr:
    """An unevaluated program tree as an ordinary SymPy expression: fdiv divides, flt is its exact rational,
    gammainc_p is lowergamma/Gamma, log1p(z) is log(1 + z)."""
    e = e.replace(fdiv, lambda a, b: a / b).replace(flt, lambda r: r)
    e = e.replace(gammainc_p, lambda a, y: sp.lowergamma(a, y) / sp.gamma(a)).replace(log1p, lambda z: sp.log(1 + z))
    out: sp.Expr = e.doit()
    return out


def program_value(prog: Program, calls: Optional[Dict[str, Callable[..., sp.Expr]]] = None,
                  keep: Tuple[sp.Symbol, ...] = ()) -> sp.Expr:
    """The program's result with its assignments substituted (but those named in ``keep``; a called printed function
    ``name`` replaced by ``calls[name](*args)``), as an ordinary SymPy expression (float literals as their exact
    rationals)."""
    env: Dict[sp.Symbol, sp.Expr] = {}
    for name, rhs in prog.assignments:  # in order, each evaluated once (the recurrence stays linear in size)
        if name not in keep:
            env[name] = sp.expand(_evaluated(rhs.xreplace(env)))
    val = prog.result.xreplace(env)
    for fname, form in (calls or {}).items():
        val = val.replace(sp.Function(fname), form)
    return _evaluated(val)
