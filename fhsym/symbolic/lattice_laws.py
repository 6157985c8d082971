"""Lattice noise laws declared once in SymPy (issue 28): the discrete flipped Huber.

A :class:`LatticeDeclaration` is a symmetric law on the lattice ``h Z`` given by its energy ``E(n)`` (``-log`` of the
unnormalised pmf at ``n h``, ``n >= 0``) on two pieces: a *geometric centre* ``E(n) = lam n`` for ``0 <= n <= K``
and a *Gaussian tail* ``E(n) = (c^2 n^2 + b^2)/2`` for ``n > K`` (standard units: ``lam = alpha h/gamma^2``,
``b = alpha/gamma``, ``c = h/gamma``, ``K = floor(b/c)``; the discrete flipped Huber, ``fhsym/symbolic/laws/
discrete_flipped_huber.py``).  :func:`derive_lattice` derives, with SymPy's ``summation``:

* the centre sums in closed form: ``G(lo, hi) = sum_(n=lo)^hi e^(-lam n)`` (raw: SymPy's sum; printed: the stable
  ``log G(k, K) = -lam k + log(-expm1(-lam (K - k + 1))) - log(-expm1(-lam))``, and its scaled form
  ``e^(lam k) G(k, K)`` in log, which the law adds to the tail in log space), and ``sum_(n=1)^K n^2 e^(-lam n)``
  (closed, for the proofs: the closed form cancels for small lam, so the law sums it directly);
* the tail ``e^(-b^2/2) Theta_p(m)``, ``Theta_p(m) = sum_(n>=m) n^p e^(-c^2 n^2/2)``, kept as a sum: its scaled
  summand ``e^(c^2 m^2/2) (m + j)^p e^(-c^2 (m + j)^2/2) / m^p = ((m + j)/m)^p e^(-c^2 (m j + j^2/2))`` (printed:
  the exponent ``-c^2 (m j + j^2/2)``) and the rigorous truncation bound: the term ratio ``t_(n+1)/t_n =
  ((n+1)/n)^p e^(-c^2 (2n+1)/2)`` decreases in n, so ``sum_(n>=M) t_n <= t_M/(1 - rho_M)`` (``rho_M`` the ratio at M,
  when < 1);
* ``Z = 1 + 2 G(1, K) + 2 e^(-b^2/2) Theta_0(K + 1)``, the upper tail ``T(k)`` (centre and tail pieces), the
  variance ``2 h^2 [sum_(n<=K) n^2 e^(-lam n) + e^(-b^2/2) Theta_2(K + 1)]/Z``, the privacy loss ``E(k + S) - E(k)``
  (non-decreasing: :func:`fhsym.symbolic.discrete.convexity_gaps`) and the profile ``(T(k*) - e^eps T(k* + S))/Z``.

``proofs/lattice_laws.py`` proves the printed forms equal to SymPy's sums, the scaled summand, the monotone ratio
and the truncation bound, and checks Z, T, the variance and the law's numerics against exact high-precision sums of
the definition.  :mod:`fhsym.codegen.lattice_laws` prints the stable forms into
``fhsym/_generated/declared/discrete_flipped_huber.py``.

Example (the tail summand's exponent E(m) - E(m + j); the b^2/2 of the energy cancels):

>>> from fhsym.symbolic.laws.discrete_flipped_huber import DECLARATION
>>> derive_lattice(DECLARATION).tail_exponent
-c**2*(j**2/2 + j*m)
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass, field
from typing import List, Tuple

import sympy as sp
from sympy.codegen.cfunctions import expm1

from . import discrete as D

__all__ = ["LatticeDeclaration", "LatticeDerivation", "derive_lattice", "raw_sum", "jj"]

jj = sp.Symbol("j", integer=True, nonnegative=True)  # offset of a tail term from the tail's start m


def raw_sum(expr: sp.Expr, var: sp.Symbol, lo: sp.Expr, hi: sp.Expr, ratio: sp.Symbol = D.lam) -> sp.Expr:
    """``summation(expr, (var, lo, hi))``; of a Piecewise answer (the ``lam = 0`` or ``r = 1`` case split off) the
    branch for ``ratio = 1/3``, i.e. ``lam > 0`` (``r < 1``)."""
    s = sp.summation(expr, (var, lo, hi))
    if isinstance(s, sp.Piecewise):
        for val, cond in s.args:
            if cond == sp.true or sp.sympify(cond).subs(ratio, sp.Rational(1, 3)) == sp.true:
                return sp.sympify(val)
        raise ValueError(f"summation of {expr} did not close: {s}")  # pragma: no cover
    return sp.sympify(s)


@dataclass(frozen=True)
class LatticeDeclaration:
    """A symmetric lattice law: energy ``centre(n)`` for ``0 <= n <= K``, ``tail(n)`` for ``n > K`` (standard units,
    SymPy expressions in ``n`` = :data:`fhsym.symbolic.discrete.n` and the law's symbols)."""

    name: str
    display_name: str
    centre: sp.Expr
    tail: sp.Expr
    parameters: Tuple[Tuple[str, Tuple[float, float]], ...] = ()
    source: str = ""
    facts: Tuple[str, ...] = field(default=(), compare=False)

    def energy(self, x: sp.Expr) -> sp.Expr:
        """E(x) for an integer ``x >= 0`` (Piecewise in ``x <= K``)."""
        return sp.Piecewise((self.centre.subs(D.n, x), x <= D.K), (self.tail.subs(D.n, x), True))

    def digest(self) -> str:
        return hashlib.sha256(repr((self.centre, self.tail, self.parameters)).encode()).hexdigest()[:16]


@dataclass
class LatticeDerivation:
    """The forms of :func:`derive_lattice` (module docstring).  ``*_raw``: SymPy's sums; unsuffixed: printed."""

    decl: LatticeDeclaration
    centre_sum_raw: sp.Expr  # sum_(n=k)^K e^(-centre(n))
    log_centre_sum: sp.Expr  # its stable log
    log_centre_scaled: sp.Expr  # log(e^(centre(k)) sum_(n=k)^K e^(-centre(n)))
    centre2_raw: sp.Expr  # sum_(n=1)^K n^2 e^(-centre(n))
    tail_scaled_term: Tuple[sp.Expr, sp.Expr]  # (p = 0, p = 2): e^(tail(m) - tail(m + j)) ((m + j)/m)^p
    tail_exponent: sp.Expr  # tail(m) - tail(m + j), the printed exponent
    ratio: Tuple[sp.Expr, sp.Expr]  # t_(n+1)/t_n for p = 0, 2 (t_n = n^p e^(-c^2 n^2/2))
    truncation: Tuple[sp.Expr, sp.Expr]  # sum_(n>=M) t_n <= t_M/(1 - rho_M)
    Z: sp.Expr
    variance: sp.Expr
    steps: List[str] = field(default_factory=list)


@functools.lru_cache(maxsize=None)
def derive_lattice(decl: LatticeDeclaration) -> LatticeDerivation:
    """Derive the forms of the module docstring from ``decl`` (cached)."""
    n, k, K, m = D.n, D.k, D.K, D.m
    lam, b, c = D.lam, D.b, D.c
    cen = sp.exp(-decl.centre)
    centre_sum_raw = raw_sum(cen, n, k, K)
    # stable: e^(-lam k) (1 - e^(-lam (K - k + 1)))/(1 - e^(-lam)), every 1 - e^(-x) as -expm1(-x)
    log_scaled = sp.log(-expm1(-lam * (K - k + 1))) - sp.log(-expm1(-lam))
    log_sum = -lam * k + log_scaled
    rr = sp.Symbol("r", positive=True)  # e^(-lam): SymPy closes sum n^2 r^n (its r = 1 branch set aside)
    centre2_raw = raw_sum(n**2 * rr**n, n, 1, K, rr).subs(rr, sp.exp(-lam))
    # the tail's scaled summand: e^(E(m) - E(m + j)) ((m + j)/m)^p (the b^2/2 cancels)
    expo = sp.expand(decl.tail.subs(n, m) - decl.tail.subs(n, m + jj))
    terms = (sp.exp(expo), sp.exp(expo) * ((m + jj) / m) ** 2)
    t = [n**p * sp.exp(-(c**2) * n**2 / 2) for p in (0, 2)]
    ratio = tuple(sp.simplify(tp.subs(n, n + 1) / tp) for tp in t)
    trunc = (D.truncation_bound(0, m), D.truncation_bound(2, m))
    Z = 1 + 2 * centre_sum_raw.subs(k, 1) + 2 * sp.exp(-(b**2) / 2) * D.theta_tail(K + 1)
    var = 2 * D.h**2 * (centre2_raw + sp.exp(-(b**2) / 2) * D.theta_tail(K + 1, 2)) / Z
    steps = [f"sum_(n=k)^K e^(-E(n)) = {centre_sum_raw}", f"tail exponent E(m) - E(m + j) = {expo}"]
    return LatticeDerivation(decl, centre_sum_raw, log_sum, log_scaled, centre2_raw, terms, -(c**2) * (m * jj + jj**2 / 2),
                             ratio, trunc, Z, var, steps)
