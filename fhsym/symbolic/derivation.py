"""Every formula of a declared noise law, derived by SymPy from its :class:`~.declaration.Declaration`.

Standard units (scale 1); ``g`` the declared unnormalised density on the pieces ``[a_k, b_k)``,
``psi_k = -log g_k``, ``x`` the integration variable::

    M_k       = int_{a_k}^{b_k} g_k                       (piece masses)
    Z         = 2 sum_k M_k                               (normaliser)
    logpdf_k  = log g_k - log Z                           (t in piece k)
    sf_k(t)   = (int_t^{b_k} g_k + sum_{j > k} M_j) / Z   (t >= 0 in piece k; sf(-t) = 1 - sf(t))
    isf_k(q)  = the solution t of sf_k(t) = q that SymPy finds (else None: a numeric inverse)
    E[T^n]    = 2 sum_k int t^n g_k / Z  (n even),  var = E[T^2]
    I         = 2 sum_k int psi_k'^2 g_k / Z          (Fisher information)
    h         = log Z - 2 sum_k int g_k log g_k / Z    (differential entropy)
    loss(y; D)= psi(|y - D|) - psi(|y|)               (log g(y)/g(y - D): the loss of the profile below)
    sup loss  = lim_{t -> oo} psi_last(t + D) - psi_last(t)   (oo: unbounded loss)
    kink      = the D solving sup loss = eps (delta = 0 for D <= kink: the calibrator's bracket seed)

and, for the symmetric log-concave law, the exact 1-D profile (Lemma 11 of the flipped-Huber paper,
the hockey-stick divergence of T against T + D)::

    delta(eps; D) = sup_y [F(y) - e^eps F(y - D)] = F(y*) - e^eps F(y* - D),   loss(y*; D) = eps,

``loss`` non-increasing in y (psi convex), ``delta = 0`` when ``eps >= sup loss``.

A *bounded* support ``[-b, b]`` (:attr:`~.declaration.Declaration.support_end` finite; density 0 beyond b):
the loss is ``+oo`` for ``y`` in the support and ``y - D`` not (``y < D - b``), ``-oo`` for ``y > b``, finite and
non-increasing on the overlap ``(D - b, b)``; so the set where it exceeds eps is ``(-b, y*)`` with
``y* = min(max(y_c, D - b), b)``, ``y_c`` the crossing of the finite loss, and (``D < 2b``)::

    delta(eps; D) = F(y*) - e^eps F(y* - D)      (>= F(D - b) = sf(b - D): the mass of the infinite loss),

``delta = 1`` for ``D >= 2b``; ``sup loss = oo`` and no kink.  The Fisher information (in location) is infinite: the
density jumps to 0 at +-b (:attr:`Derivation.fisher` is None with a note saying so).  Integrals of
``c x^m e^{-a x}`` over a bounded interval are taken in the overflow- and cancellation-free form of
:func:`bounded_integral` (``exprel``, ``lowergamma_scaled``), and the inverse SymPy finds for the sf is rewritten by
:func:`stable_isf` (dominant exponential factored out of a log, ``log1p``, ``expm1``).  Where the crossing
equation is a polynomial of degree <= 2 in y on a region (which pieces |y| and |y - D| lie in and the
signs of y and y - D) SymPy solves it (:attr:`Derivation.crossings`); elsewhere the numerics find it
as a certified root.  Anything SymPy does not close is ``None`` and named in :attr:`Derivation.notes`
(the numerics then use quadrature); the float forms' rewrites (:attr:`Derivation.logsf_stable`) are
listed in :attr:`Derivation.rewrites` and checked equal to the derived forms by ``proofs/declared.py``.

>>> import sympy as sp
>>> from fhsym.symbolic.declaration import Declaration
>>> t = sp.Symbol("t", positive=True)
>>> d = derive(Declaration("demo_laplace", "demo Laplace", t, ((sp.exp(-t), (0, sp.oo)),), scale="beta"))
>>> d.Z, d.sf[0], d.variance, d.entropy, d.loss_sup
(2, exp(-t)/2, 2, log(2) + 1, D)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

import sympy as sp

from .declaration import Declaration, Fact, prove_facts
from .special import logaddexp

__all__ = ["Basics", "Derivation", "derive", "derive_basics", "x", "q", "y", "D", "eps", "w", "closed", "bounded_integral", "stable_isf"]

x = sp.Symbol("x", positive=True)  # integration variable
q = sp.Symbol("q", positive=True)  # a probability
y = sp.Symbol("y", real=True)  # the crossing variable of the profile
D = sp.Symbol("D", positive=True)  # the sensitivity in standard units (Delta / scale)
eps = sp.Symbol("epsilon", nonnegative=True)
w = sp.Symbol("w", positive=True)  # the distance b - t to the end b of a bounded support


def closed(e: sp.Expr) -> bool:
    """SymPy closed it: finite, no unevaluated Integral, Limit or Piecewise left."""
    return bool(e is not None and not e.has(sp.Integral, sp.Limit, sp.Piecewise, sp.meijerg, sp.hyper)
                and not e.has(sp.oo, -sp.oo, sp.zoo)
                and e is not sp.nan)


def _gamma_parts(e: sp.Expr) -> Optional[Tuple[sp.Expr, sp.Expr, sp.Expr, sp.Expr]]:
    """(c, m, a, p) with e = c x^m exp(-a x^p), c, a > 0 and p > 0 free of x, m + 1 > 0; None otherwise."""
    c, rest = sp.powsimp(e, combine="exp").as_independent(x, as_Add=False)
    m, u = sp.Integer(0), None
    for f in sp.Mul.make_args(rest):
        if isinstance(f, sp.exp) and u is None:
            u = f.args[0]
        elif f == x:
            m += 1
        elif f.is_Pow and f.base == x and not f.exp.has(x):
            m += f.exp
        else:
            return None
    if u is None:
        return None
    a, xp = (-u).as_independent(x, as_Add=False)
    pw = sp.Integer(1) if xp == x else (xp.exp if xp.is_Pow and xp.base == x and not xp.exp.has(x) else None)
    if pw is None or not (c.is_positive and a.is_positive and pw.is_positive and (m + 1).is_positive):
        return None
    return c, m, a, pw


def gamma_integral(e: sp.Expr, lo: sp.Expr, hi: sp.Expr) -> Optional[sp.Expr]:
    """int_lo^hi e dx for e = c x^m exp(-a x^p) by the incomplete gamma function (None for another form)::

        int_s^oo c x^m e^{-a x^p} dx = c Gamma((m + 1)/p, a s^p) / (p a^{(m + 1)/p})    (x = (z/a)^{1/p})

    the antiderivative SymPy does not give (it answers with a Meijer G function, which has no float or arb form
    here); ``proofs/declared.py`` proves the derived sf by d sf/dt = -g/Z and checks it against quadrature.

    >>> gamma_integral(sp.exp(-x**sp.Rational(3, 2)), sp.Symbol("t", positive=True), sp.oo)
    2*uppergamma(2/3, t**(3/2))/3
    """
    parts = _gamma_parts(e)
    if parts is None:
        return None
    c, m, a, p = parts
    s = (m + 1) / p

    def upper(v: sp.Expr) -> sp.Expr:  # int_v^oo
        if v is sp.oo:
            return sp.Integer(0)
        g = sp.gamma(s) if v == 0 else sp.uppergamma(s, a * v**p)
        return c * g / (p * a**s)

    return sp.simplify(upper(lo) - upper(hi))


def _L(j: int, v: sp.Expr) -> sp.Expr:
    """int_0^1 u^j e^{-v u} du: exprel(-v) (j = 0), lowergamma3_scaled(v) (j = 2), else lowergamma_scaled(j, v)."""
    from .special import exprel, lowergamma3_scaled, lowergamma_scaled

    return exprel(-v) if j == 0 else (lowergamma3_scaled(v) if j == 2 else lowergamma_scaled(j, v))


def bounded_integral(e: sp.Expr, lo: sp.Expr, hi: sp.Expr) -> Optional[sp.Expr]:
    """int_lo^hi c x^m e^{-a x} dx over a finite interval (integer m >= 0; None for another form), written without
    overflow or cancellation (x = lo + w u, w = hi - lo)::

        = c e^{-a lo} sum_j C(m, j) lo^(m - j) w^(j + 1) L_j(a w),   L_j(v) = int_0^1 u^j e^{-v u} du > 0

    (SymPy's antiderivative is a difference of exponentials that overflows at a > 709 and cancels as a -> 0, or as
    lo -> hi).  ``proofs/shipped_truncated_laplace.py`` proves the derived sf by d sf/dt = -g/Z.

    >>> t = sp.Symbol("t", positive=True); a = sp.Symbol("a", positive=True)
    >>> bounded_integral(sp.exp(-a * x), t, 1)
    (1 - t)*exp(-a*t)*exprel(-a*(1 - t))
    """
    sign, parts = 1, _gamma_parts(e)
    if parts is None:
        sign, parts = -1, _gamma_parts(-e)
    if parts is None or hi is sp.oo:
        return None
    c, m, a, p = parts
    c = sign * c
    if p != 1 or not (m.is_Integer and m >= 0):
        return None
    w = hi - lo
    total = sum(sp.binomial(m, j) * lo ** (m - j) * w ** (j + 1) * _L(int(j), a * w) for j in range(int(m) + 1))
    return c * sp.exp(-a * lo) * total


def _integrate(e: sp.Expr, lo: sp.Expr, hi: sp.Expr, bounded: bool = False) -> Optional[sp.Expr]:
    """int_lo^hi e dx: SymPy, except a tail of c x^m e^{-a x^p} with p not 1 or 2 (there SymPy answers with a Meijer G
    function, slowly) and anything SymPy does not close, which :func:`gamma_integral` takes where it applies; for a law
    with a bounded support (``bounded``), a finite interval of c x^m e^{-a x} by :func:`bounded_integral` (the laws on
    all of R keep SymPy's forms, which their proofs and generated code are written for)."""
    parts = _gamma_parts(e)
    if parts is not None and lo.free_symbols and parts[3] not in (1, 2):
        return gamma_integral(e, lo, hi)
    if bounded and hi is not sp.oo:
        r = bounded_integral(e, lo, hi)
        if r is not None:
            return r
    r = _integrate_sympy(e, lo, hi)
    return r if r is not None or parts is None else gamma_integral(e, lo, hi)



def _integrate_sympy(e: sp.Expr, lo: sp.Expr, hi: sp.Expr) -> Optional[sp.Expr]:
    try:
        r = sp.integrate(e, (x, lo, hi))
    except (NotImplementedError, ValueError, TypeError):  # pragma: no cover - SymPy gives up
        return None
    if isinstance(r, sp.Piecewise):  # conditions on the (positive) symbols: the first branch that holds
        for expr, cond in r.args:
            if cond is sp.true or sp.simplify(cond) is sp.true:
                r = expr
                break
    r = sp.simplify(r)
    return r if closed(r) else None


def _erfc_log(out: sp.Expr, notes: List[str]) -> sp.Expr:
    """log(erfc(u)) -> log(erfcx(u)) - u^2, then the polynomial parts expanded (so that the u^2 of two tails cancel
    symbolically: OSGT's (t + theta)^2/2 - theta^2/2 = t^2/2 + t theta, not a float difference of two large squares)."""
    from .special import erfcx

    def is_erfc_log(a: sp.Basic) -> bool:
        return isinstance(a, sp.log) and isinstance(a.args[0], sp.erfc)

    if out.has(sp.erfc):
        new = out.replace(is_erfc_log, lambda a: sp.log(erfcx(a.args[0].args[0])) - a.args[0].args[0] ** 2)
        if new != out:
            notes.append("log(erfc(u)) = log(erfcx(u)) - u^2")
            out = sp.expand(new, log=False, power_base=False, power_exp=False)
    return out


def _stable_log(e: sp.Expr) -> Tuple[sp.Expr, List[str]]:
    """log(e) rewritten for floats: expand_log, log(erfc(u)) -> log(erfcx(u)) - u^2, log(sum c_i e^{u_i}) -> logaddexp."""
    notes: List[str] = []
    out = _erfc_log(sp.expand_log(sp.log(e), force=True), notes)

    def is_sum_of_exps(a: sp.Basic) -> bool:
        if not (isinstance(a, sp.log) and a.args[0].is_Add):
            return False
        return all(_exp_term(term) is not None for term in a.args[0].args) and a.args[0].has(sp.exp)

    def to_lae(a: sp.Basic) -> sp.Expr:
        terms = [_exp_term(term) for term in a.args[0].args]
        exps = [u + sp.log(c) for c, u in terms if c is not None]  # type: ignore[misc]
        acc = exps[0]
        for u in exps[1:]:
            acc = logaddexp(acc, u)
        return acc

    new = out.replace(is_sum_of_exps, to_lae)
    if new != out:
        notes.append("log(sum_i c_i e^{u_i}) = logaddexp(u_1 + log c_1, ...)")
        out = new
    return out, notes


def _log_reciprocal(e: sp.Expr) -> sp.Expr:
    """log(c/u) -> -log(u/c) where c is free of symbols (q in the denominator): Laplace's isf log((1/2)/q) becomes
    -log(2 q), which neither overflows at a subnormal q (c/q does) nor cancels near q = 1/2 (log c - log q does)."""

    def hit(a: sp.Basic) -> bool:
        if not isinstance(a, sp.log):
            return False
        num, den = a.args[0].as_numer_denom()
        return not num.free_symbols and bool(den.free_symbols)

    def flip(a: sp.Basic) -> sp.Expr:
        num, den = a.args[0].as_numer_denom()
        return -sp.log(sp.Mul(den, 1 / num, evaluate=False) if num != 1 else den)

    return e.replace(hit, flip)


def stable_isf(e: sp.Expr) -> sp.Expr:
    """The inverse SymPy finds for a bounded law's sf, rewritten for floats: in each log(S), S a sum of c_i e^{u_i},
    the dominant exponential e^{u_max} (u_max - u_i >= 0 by SymPy) is factored out (log S = u_max + log S', no
    overflow of e^{a} at a > 709); then, where S' = 1 + r with r factoring through e^u - 1 (= expm1(u)), log(S') is
    log1p(r) while r >= -1/2 (no cancellation near the median or as a -> 0) and log of S' written as a polynomial in
    e^u otherwise (its terms positive for truncated Laplace: no cancellation in the far tail, where 1 + r is
    small).  Truncated Laplace (units of A, shape a): (a - log(2 q e^a - 2 q + 1))/a becomes the two forms below.

    >>> a, qq = sp.Symbol("a", positive=True), sp.Symbol("q", positive=True)
    >>> stable_isf((a - sp.log(2 * qq * sp.exp(a) - 2 * qq + 1)) / a)
    Piecewise((-log1p((1 - 2*q)*expm1(-a))/a, (1 - 2*q)*expm1(-a) >= -1/2), (-log(2*q + (1 - 2*q)*exp(-a))/a, True))
    """
    from sympy.codegen.cfunctions import expm1, log1p

    def hit(v: sp.Basic) -> bool:
        return isinstance(v, sp.log) and v.args[0].is_Add and v.args[0].has(sp.exp)

    def expo(term: sp.Expr) -> sp.Expr:
        return sp.Add(*[f.args[0] for f in sp.Mul.make_args(sp.powsimp(term)) if isinstance(f, sp.exp)])

    def fix(v: sp.Basic) -> sp.Expr:
        arg = sp.expand(v.args[0])
        us = [expo(term) for term in sp.Add.make_args(arg)]
        top = next((u for u in us if all(sp.simplify(u - w).is_nonnegative for w in us)), None)
        if top is None:
            return v
        rest = sp.expand(sp.powsimp(sp.expand(arg * sp.exp(-top)), combine="exp"))
        r = sp.expand(rest - 1)
        atoms = list(r.atoms(sp.exp))
        if len(atoms) == 1:  # r = P(E), E = e^v; P(1) = 0: r = (E - 1) Q(E) = expm1(v) Q(E)
            E = sp.Dummy("E")
            poly = sp.Poly(r.subs(atoms[0], E), E)
            if sp.simplify(poly.eval(1)) == 0:
                quo = sp.factor(sp.quo(poly, sp.Poly(E - 1, E)).as_expr().subs(E, atoms[0]))
                near = log1p(expm1(atoms[0].args[0]) * quo)  # exact near the median (r small)
                # far from it (1 + r < 1/2): log(P(0) + E R(E)), the same sum ordered as polynomial in E
                whole = poly + 1  # S' = 1 + r
                p0 = whole.eval(0)
                far = sp.log(p0 + atoms[0] * sp.factor(sp.quo(whole - p0, sp.Poly(E, E)).as_expr().subs(E, atoms[0])))
                cond = expm1(atoms[0].args[0]) * quo >= -sp.Rational(1, 2)
                return sp.Piecewise((top + near, cond), (top + far, True))
        return top + sp.log(rest)

    out = sp.piecewise_fold(e.replace(hit, fix))
    if isinstance(out, sp.Piecewise):
        return sp.Piecewise(*[(_flat(v), c) for v, c in out.args])
    return _flat(out)


def _flat(e: sp.Expr) -> sp.Expr:
    """Distribute the outer products only (a - (a + L))/a -> -L/a; the arguments of the functions stay as they are."""
    return sp.Add(*[sp.expand(term, deep=False) for term in sp.Add.make_args(sp.expand(e, deep=False))])


def _exp_term(term: sp.Expr) -> Optional[Tuple[sp.Expr, sp.Expr]]:
    """(c, u) with term = c e^u, c a positive number; None otherwise."""
    c, rest = term.as_independent(sp.exp, as_Add=False)
    if not (c.is_number and c.is_positive):
        return None
    if rest == 1:
        return c, sp.Integer(0)
    if isinstance(rest, sp.exp):
        return c, rest.args[0]
    return None


@dataclass
class Derivation:
    """The derived formulas of one declared law (module docstring); ``None`` where SymPy did not close one."""

    decl: Declaration
    facts: Tuple[Fact, ...]
    psi: Tuple[sp.Expr, ...]
    masses: Tuple[sp.Expr, ...]
    Z: sp.Expr
    logpdf: Tuple[sp.Expr, ...]
    sf: Tuple[sp.Expr, ...]
    logsf_stable: Tuple[sp.Expr, ...]
    isf: Tuple[Optional[sp.Expr], ...]
    variance: Optional[sp.Expr]
    fisher: Optional[sp.Expr]
    entropy: Optional[sp.Expr]
    loss_sup: sp.Expr
    crossings: Tuple[Tuple[str, sp.Expr], ...]
    kink: Optional[sp.Expr]
    rewrites: Tuple[str, ...]
    notes: List[str] = field(default_factory=list)
    #: bounded support: sf and its stable log at t = b - w of the last piece, as functions of the distance w to the
    #: end (the float b - t of a t near b has lost the digits of w: sf(t) ~ w there)
    sf_end: Optional[sp.Expr] = None
    logsf_end: Optional[sp.Expr] = None

    @property
    def t(self) -> sp.Symbol:
        return self.decl.t

    @property
    def bounds(self) -> Tuple[sp.Expr, ...]:
        """The joins b_1 < ... < b_{k-1} (the pieces' inner boundaries)."""
        return tuple(b for _, (_, b) in self.decl.pieces[:-1])

    def loss(self, sign_y: int, sign_yd: int, i: int, j: int) -> sp.Expr:
        """loss(y; D) = psi_j(|y - D|) - psi_i(|y|) on the region: sign(y) = sign_y, sign(y - D) = sign_yd."""
        return self.psi[j].subs(self.t, sign_yd * (y - D)) - self.psi[i].subs(self.t, sign_y * y)

    def moment(self, n: int) -> Optional[sp.Expr]:
        """E[T^n] in standard units (0 for odd n), or None if SymPy does not close it (cached by :func:`_moment`)."""
        return _moment(self.decl, self.Z, n)

    def __hash__(self) -> int:  # one derivation per declaration
        return hash(self.decl)


@functools.lru_cache(maxsize=64)
def _moment(decl: Declaration, Z: sp.Expr, n: int) -> Optional[sp.Expr]:
    """E[T^n] in standard units of ``decl`` with normaliser ``Z`` (0 for odd n), or None (:meth:`Derivation.moment`)."""
    if n % 2:
        return sp.Integer(0)
    total = sp.Integer(0)
    for g, (a, b) in decl.pieces:
        r = _integrate(x**n * g.subs(decl.t, x), a, b, decl.bounded)
        if r is None:
            return None
        total += r
    return 2 * total / Z if decl.bounded else sp.simplify(2 * total / Z)


@dataclass(frozen=True)
class Basics:
    """The first stage of :func:`derive`, which the rest builds on: the facts, psi, the piece masses and tails, Z,
    the sf, the variance and the Fisher information (None for a bounded support), each the very expression
    :func:`derive` puts in its :class:`Derivation`.  Without the isf solves, the stable logs, the entropy and the
    crossings: a check of these forms alone (``proofs/shipped_laws.py``, flipped Huber) derives only these."""

    facts: Tuple[Fact, ...]
    psi: Tuple[sp.Expr, ...]
    masses: Tuple[sp.Expr, ...]
    Z: sp.Expr
    sf: Tuple[sp.Expr, ...]
    #: what sp.solve inverts for the isf, per piece (SymPy's own antiderivatives on a bounded support; else ``sf``)
    solve_for: Tuple[Optional[sp.Expr], ...]
    variance: Optional[sp.Expr]
    fisher: Optional[sp.Expr]


def derive_basics(decl: Declaration) -> Basics:
    """The :class:`Basics` of ``decl`` (``ValueError`` if SymPy cannot integrate a piece, as :func:`derive`)."""
    t = decl.t
    facts = prove_facts(decl)
    psi = tuple(-sp.expand_log(sp.log(g), force=True) for g, _ in decl.pieces)
    bd = decl.bounded
    masses, tails = [], []
    raw: List[Tuple[Optional[sp.Expr], Optional[sp.Expr]]] = []
    for k, (g, (a, b)) in enumerate(decl.pieces):
        m = _integrate(g.subs(t, x), a, b, bd)
        tail = _integrate(g.subs(t, x), t, b, bd)
        if m is None or tail is None:
            raise ValueError(f"{decl.name}: SymPy could not integrate piece {k} ({g} on [{a}, {b})); a numeric "
                             "survival function is not supported yet")
        masses.append(m)
        tails.append(tail)
        if bd:  # SymPy's own antiderivatives: what sp.solve inverts (stable_isf rewrites the inverse)
            raw.append((_integrate_sympy(g.subs(t, x), t, b), _integrate_sympy(g.subs(t, x), a, b)))
    Z = sp.simplify(2 * sum(masses))
    if bd:
        sf = tuple((tails[k] + sum(masses[k + 1:])) / Z for k in range(len(masses)))
        whole = all(r is not None and m is not None for r, m in raw)
        z_raw = 2 * sp.Add(*[m for _, m in raw]) if whole else None
        solve_for: Tuple[Optional[sp.Expr], ...] = tuple(
            None if z_raw is None else (raw[k][0] + sp.Add(*[m for _, m in raw[k + 1:]])) / z_raw
            for k in range(len(raw)))
    else:
        sf = tuple(sp.simplify((tails[k] + sum(masses[k + 1:])) / Z).rewrite(sp.erfc) for k in range(len(masses)))
        solve_for = sf
    fisher = None
    if not bd:  # a bounded support: infinite (the density jumps to 0 at its end; derive notes it)
        fi = [_integrate(sp.diff(p, t).subs(t, x) ** 2 * g.subs(t, x), a, b) for p, (g, (a, b)) in zip(psi, decl.pieces)]
        fisher = sp.simplify(2 * sp.Add(*fi) / Z) if all(f is not None for f in fi) else None
    return Basics(facts, psi, tuple(masses), Z, sf, solve_for, _moment(decl, Z, 2), fisher)


def _crossings(dv: "Derivation") -> Tuple[Tuple[str, sp.Expr], ...]:
    out = []
    k = len(dv.decl.pieces)
    for sy, syd, what in ((-1, -1, "y < 0"), (1, -1, "0 <= y < D"), (1, 1, "y >= D")):
        for i in range(k):
            for j in range(k):
                if sy == -1 and i > j or syd == 1 and j > i:
                    continue  # |y| <= |y - D| for y < 0; |y - D| <= |y| for y >= D
                eq = sp.expand(dv.loss(sy, syd, i, j) - eps)
                try:
                    deg = sp.Poly(eq, y).degree()
                except sp.PolynomialError:
                    continue
                if not 1 <= deg <= 2:
                    continue
                for s in sp.solve(eq, y):
                    out.append((f"{what}, |y| in piece {i}, |y - D| in piece {j}", sp.simplify(s)))
    return tuple(out)


def derive(decl: Declaration) -> Derivation:
    """Derive every formula of the module docstring from ``decl`` (``ValueError`` if SymPy cannot integrate a piece:
    the survival function has no numeric fallback yet); :func:`derive_basics` first."""
    t = decl.t
    base = derive_basics(decl)
    notes: List[str] = []
    psi, Z, sf = base.psi, base.Z, base.sf
    bd = decl.bounded
    logpdf = tuple(_erfc_log(sp.expand_log(sp.log(g), force=True) - sp.expand_log(sp.log(Z), force=True), [])
                   for g, _ in decl.pieces)
    logsf, rewrites = [], set()
    for s in sf:
        e, r = _stable_log(s)
        logsf.append(e)
        rewrites.update(r)
    isf: List[Optional[sp.Expr]] = []
    for k, s in enumerate(base.solve_for):
        try:
            sols = [r for r in sp.solve(sp.Eq(s, q), t) if not r.has(sp.I)] if s is not None else []
        except (NotImplementedError, ValueError):  # pragma: no cover - SymPy gives up
            sols = []
        isf.append(_log_reciprocal(sp.simplify(sols[0])) if len(sols) == 1 else None)
        if isf[-1] is not None and bd:
            isf[-1] = stable_isf(isf[-1])
            rewrites.add("isf: log(sum c_i e^{u_i}) = u_max + log(sum c_i e^{u_i - u_max}); log(1 + r) = log1p(r); "
                         "e^u - 1 = expm1(u)")
        if isf[-1] is None:
            notes.append(f"isf on piece {k}: SymPy found no unique solution; a numeric inverse of sf is used")
    dv = Derivation(decl, base.facts, psi, base.masses, Z, logpdf, sf, tuple(logsf), tuple(isf), None, None, None,
                    sp.oo, (), None, tuple(sorted(rewrites)), notes)
    dv.variance = base.variance
    if bd:
        dv.sf_end = sf[-1].subs(t, decl.support_end - w)
        dv.logsf_end = _stable_log(dv.sf_end)[0]
        notes.append(f"Fisher information: infinite (the density jumps to 0 at t = +-{decl.support_end}, the end of "
                     "the support: it is not differentiable in location)")
    else:
        dv.fisher = base.fisher
    gl = [_integrate(-(p * g).subs(t, x), a, b, bd) for p, (g, (a, b)) in zip(psi, decl.pieces)]
    h = (sp.expand_log(sp.log(Z), force=True) if bd else sp.log(Z)) - 2 * sp.Add(*gl) / Z
    dv.entropy = (h if bd else sp.simplify(h)) if all(v is not None for v in gl) else None
    for what, v in (("variance", dv.variance), ("Fisher information", dv.fisher), ("entropy", dv.entropy)):
        if v is None and not (bd and what == "Fisher information"):
            notes.append(f"{what}: SymPy did not close the integral; the numerics use mpmath quadrature")
    last = psi[-1]
    # bounded support: the loss is +oo where y lies in the support and y - D does not (sup loss = oo, no kink)
    dv.loss_sup = sp.oo if bd else sp.simplify(sp.limit(sp.expand(last.subs(t, t + D) - last), t, sp.oo))
    dv.crossings = _crossings(dv)
    if dv.loss_sup is not sp.oo:  # the D at which sup loss = eps: the profile vanishes beyond it
        sols = sp.solve(sp.Eq(dv.loss_sup, eps), D)
        dv.kink = sp.simplify(sols[0]) if len(sols) == 1 else None
    return dv


#: derivations by declaration (a declaration is immutable: derive it once per process)
DERIVED: Dict[Declaration, Derivation] = {}
