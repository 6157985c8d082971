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

``loss`` non-increasing in y (psi convex), ``delta = 0`` when ``eps >= sup loss``.  Where the crossing
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

__all__ = ["Derivation", "derive", "x", "q", "y", "D", "eps", "closed"]

x = sp.Symbol("x", positive=True)  # integration variable
q = sp.Symbol("q", positive=True)  # a probability
y = sp.Symbol("y", real=True)  # the crossing variable of the profile
D = sp.Symbol("D", positive=True)  # the sensitivity in standard units (Delta / scale)
eps = sp.Symbol("epsilon", nonnegative=True)


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


def _integrate(e: sp.Expr, lo: sp.Expr, hi: sp.Expr) -> Optional[sp.Expr]:
    """int_lo^hi e dx: SymPy, except a tail of c x^m e^{-a x^p} with p not 1 or 2 (there SymPy answers with a Meijer G
    function, slowly) and anything SymPy does not close, which :func:`gamma_integral` takes where it applies."""
    parts = _gamma_parts(e)
    if parts is not None and lo.free_symbols and parts[3] not in (1, 2):
        return gamma_integral(e, lo, hi)
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

    @functools.lru_cache(maxsize=32)
    def moment(self, n: int) -> Optional[sp.Expr]:
        """E[T^n] in standard units (0 for odd n), or None if SymPy does not close it."""
        if n % 2:
            return sp.Integer(0)
        total = sp.Integer(0)
        for g, (a, b) in self.decl.pieces:
            r = _integrate(x**n * g.subs(self.t, x), a, b)
            if r is None:
                return None
            total += r
        return sp.simplify(2 * total / self.Z)

    def __hash__(self) -> int:  # lru_cache of moment(): one derivation per declaration
        return hash(self.decl)


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
    the survival function has no numeric fallback yet)."""
    t = decl.t
    facts = prove_facts(decl)
    notes: List[str] = []
    psi = tuple(-sp.expand_log(sp.log(g), force=True) for g, _ in decl.pieces)
    masses = []
    tails = []
    for k, (g, (a, b)) in enumerate(decl.pieces):
        m = _integrate(g.subs(t, x), a, b)
        tail = _integrate(g.subs(t, x), t, b)
        if m is None or tail is None:
            raise ValueError(f"{decl.name}: SymPy could not integrate piece {k} ({g} on [{a}, {b})); a numeric "
                             "survival function is not supported yet")
        masses.append(m)
        tails.append(tail)
    Z = sp.simplify(2 * sum(masses))
    logpdf = tuple(_erfc_log(sp.expand_log(sp.log(g), force=True) - sp.expand_log(sp.log(Z), force=True), [])
                   for g, _ in decl.pieces)
    sf = tuple(sp.simplify((tails[k] + sum(masses[k + 1:])) / Z).rewrite(sp.erfc) for k in range(len(masses)))
    logsf, rewrites = [], set()
    for s in sf:
        e, r = _stable_log(s)
        logsf.append(e)
        rewrites.update(r)
    isf: List[Optional[sp.Expr]] = []
    for k, s in enumerate(sf):
        try:
            sols = [r for r in sp.solve(sp.Eq(s, q), t) if not r.has(sp.I)]
        except (NotImplementedError, ValueError):  # pragma: no cover - SymPy gives up
            sols = []
        isf.append(_log_reciprocal(sp.simplify(sols[0])) if len(sols) == 1 else None)
        if isf[-1] is None:
            notes.append(f"isf on piece {k}: SymPy found no unique solution; a numeric inverse of sf is used")
    dv = Derivation(decl, facts, psi, tuple(masses), Z, logpdf, sf, tuple(logsf), tuple(isf), None, None, None,
                    sp.oo, (), None, tuple(sorted(rewrites)), notes)
    dv.variance = dv.moment(2)
    fi = [_integrate(sp.diff(p, t).subs(t, x) ** 2 * g.subs(t, x), a, b) for p, (g, (a, b)) in zip(psi, decl.pieces)]
    dv.fisher = sp.simplify(2 * sp.Add(*fi) / Z) if all(f is not None for f in fi) else None
    gl = [_integrate(-(p * g).subs(t, x), a, b) for p, (g, (a, b)) in zip(psi, decl.pieces)]
    dv.entropy = sp.simplify(sp.log(Z) - 2 * sp.Add(*gl) / Z) if all(v is not None for v in gl) else None
    for what, v in (("variance", dv.variance), ("Fisher information", dv.fisher), ("entropy", dv.entropy)):
        if v is None:
            notes.append(f"{what}: SymPy did not close the integral; the numerics use mpmath quadrature")
    last = psi[-1]
    dv.loss_sup = sp.simplify(sp.limit(sp.expand(last.subs(t, t + D) - last), t, sp.oo))
    dv.crossings = _crossings(dv)
    if dv.loss_sup is not sp.oo:  # the D at which sup loss = eps: the profile vanishes beyond it
        sols = sp.solve(sp.Eq(dv.loss_sup, eps), D)
        dv.kink = sp.simplify(sols[0]) if len(sols) == 1 else None
    return dv


#: derivations by declaration (a declaration is immutable: derive it once per process)
DERIVED: Dict[Declaration, Derivation] = {}
