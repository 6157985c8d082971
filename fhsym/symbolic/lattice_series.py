"""Power sums of a lattice law's geometric centre and bounds of its Gaussian tail for any power, derived from its
declaration: the forms its ball view (``at_precision``) runs (issue 29).

For the geometric centre ``E(n) = lam n`` (:class:`~.lattice_laws.LatticeDeclaration`) the ratio of consecutive
terms ``r = e^(E(n) - E(n + 1))`` is a constant (derived: ``e^(-lam)``) and

* ``L_0(r) = sum_(j>=0) r^j = 1/(1 - r)`` (SymPy ``summation``), ``L_(i+1) = r d/dr L_i`` (termwise:
  ``L_i = sum_(j>=0) j^i r^j``, i >= 1), each written as ``N_i(r)/(1 - r)^(i+1)`` with a polynomial ``N_i``;
* the upper power sum ``F_p(m) = sum_(n>=m) n^p e^(-E(n)) = e^(-E(m)) sum_i C(p, i) m^(p-i) L_i(r)`` (``n = m + j``,
  binomial expansion), so the centre's ``sum_(n=lo)^K n^p e^(-E(n)) = F_p(lo) - F_p(K + 1)``;
  ``proofs/lattice_laws.py`` proves ``F_p(m) - F_p(m + 1) = m^p e^(-E(m))`` (with ``F_p -> 0``: the sum) for every
  printed p.

Both energies are polynomials in n (their coefficients: the entropy's ``E[E(|X|)] = sum_k a_k E|X|^k`` piece by
piece).  For the Gaussian tail, the term ``t_n = n^p e^(-E(n))`` for any real ``p >= 0``: the ratio bound ``rho_M = ((M +
1)/M)^p e^(E(M) - E(M + 1) + ...)`` of :func:`fhsym.symbolic.discrete.ratio_bound` generic in p (``t_(n+1)/t_n`` at
``n = M``; it decreases in n: ``d/dn log = p (1/(n + 1) - 1/n) - c^2 < 0``) and the rest ``sum_(n>=M) t_n <= t_M/(1 -
rho_M)`` when ``rho_M < 1``.

:mod:`fhsym.codegen.lattice_laws` prints ``F_p`` (p <= :data:`P_MAX`) on balls with ``1 - r = -expm1(-lam)``, the
ratio and the rest on balls, and the energy pieces in exact rationals.

>>> from fhsym.symbolic.laws.discrete_flipped_huber import DECLARATION
>>> derive_series(DECLARATION).ratio
exp(-lambda)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Dict, Tuple

import sympy as sp

from . import discrete as D
from .lattice_laws import LatticeDeclaration, raw_sum

__all__ = ["P_MAX", "r", "omr", "pp", "SeriesDerivation", "derive_series"]

P_MAX = 8  # the centre's power sums printed for p = 0 .. P_MAX (moments up to 8; the entropy reads p = 1)
r = sp.Symbol("r", positive=True)  # e^(-lam), the centre's term ratio
omr = sp.Symbol("omr", positive=True)  # 1 - r, printed as -expm1(-lam)
pp = sp.Symbol("p", nonnegative=True)  # the power of a Gaussian tail term (real)
_j = sp.Symbol("j", integer=True, nonnegative=True)


@dataclass
class SeriesDerivation:
    """The forms of :func:`derive_series` (module docstring)."""

    decl: LatticeDeclaration
    ratio: sp.Expr  # e^(E(n) - E(n + 1)) on the centre (a constant)
    L: Tuple[sp.Expr, ...]  # L_i(r) = sum_(j>=0) j^i r^j, i = 0 .. P_MAX
    L_split: Tuple[Tuple[sp.Expr, int], ...]  # (N_i(r), i + 1): L_i = N_i/(1 - r)^(i+1)
    upper: Dict[int, sp.Expr]  # p: F_p(m) in m, r and e^(-E(m))
    upper_printed: Dict[int, sp.Expr]  # p: F_p(m) in m, r, omr (the ball form)
    tail_ratio: sp.Expr  # rho_M for a real power p (in M, c)
    tail_rest: sp.Expr  # t_M/(1 - rho_M) (in M, p, b, c)
    energy_centre: sp.Expr  # E(n), 0 <= n <= K
    energy_tail: sp.Expr  # E(n), n > K
    centre_coefficients: Tuple[sp.Expr, ...]  # E(n) on the centre as sum_k a_k n^k: (a_0, a_1, ...)
    tail_coefficients: Tuple[sp.Expr, ...]  # the same for the tail


@functools.lru_cache(maxsize=None)
def derive_series(decl: LatticeDeclaration, p_max: int = P_MAX) -> SeriesDerivation:
    """Derive the forms of the module docstring from ``decl``, the centre's power sums for p = 0 .. ``p_max``
    (cached)."""
    n, m, c, b = D.n, D.m, D.c, D.b
    ratio = sp.simplify(sp.exp(decl.centre - decl.centre.subs(n, n + 1)))
    if ratio.has(n):
        raise ValueError(f"the centre of {decl.name} is not geometric: e^(E(n) - E(n + 1)) = {ratio}")
    L = [raw_sum(r**_j, _j, 0, sp.oo, r)]  # 1/(1 - r) (the |r| < 1 branch)
    for _ in range(p_max):
        L.append(sp.factor(r * sp.diff(L[-1], r)))
    split = []
    for i, Li in enumerate(L):
        num = sp.expand(sp.cancel(Li * (1 - r) ** (i + 1)))
        split.append((num, i + 1))
    upper, printed = {}, {}
    em = sp.exp(-decl.centre.subs(n, m))  # e^(-E(m))
    for p in range(p_max + 1):
        upper[p] = em * sum(sp.binomial(p, i) * m ** (p - i) * L[i] for i in range(p + 1))
        printed[p] = em * sum(sp.binomial(p, i) * m ** (p - i) * split[i][0] / omr ** split[i][1]
                              for i in range(p + 1))
    t_m = m**pp * sp.exp(-decl.tail.subs(n, m))
    tail_ratio = ((m + 1) / m) ** pp * sp.exp(sp.factor(sp.expand(decl.tail.subs(n, m) - decl.tail.subs(n, m + 1))))
    tail_rest = t_m / (1 - tail_ratio)
    coeffs = [tuple(reversed(sp.Poly(e, n).all_coeffs())) for e in (decl.centre, decl.tail)]
    return SeriesDerivation(decl, ratio, tuple(L), tuple(split), upper, printed, tail_ratio, tail_rest,
                            decl.centre, decl.tail, coeffs[0], coeffs[1])
