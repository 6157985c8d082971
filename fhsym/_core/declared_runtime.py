"""The run-time helpers of declared laws' numerics (issue 28): what the printed code calls besides numpy/scipy/arb.

The functions :mod:`fhsym.codegen.declared` prints -- checked in under ``fhsym/_generated/declared/`` for the laws
fhsym ships, compiled at declaration time for a user's law -- call :func:`log_uppergamma` (floats) and the methods
of :class:`ArbNamespace` (``A.exp`` ..., on balls).  They live here, below the generator and the generated code, so
that importing a law's generated numerics imports no SymPy.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Tuple

import numpy as np
import scipy.special as sc
from fractions import Fraction

from flint import arb, fmpq

from .numerics import log_uppergamma  # re-exported: the generated modules import it from here

__all__ = ["ArbNamespace", "ExactNamespace", "cut_far_plan", "log_uppergamma"]


class ArbNamespace:
    """The functions :class:`ArbPrinter` calls (``A.exp`` ...): arb's, each a ball containing the exact value."""

    @staticmethod
    def q(p: int, r: int = 1) -> arb:
        return arb(fmpq(p, r))

    exp, log, erf, erfc, sqrt = (staticmethod(getattr(arb, n)) for n in ("exp", "log", "erf", "erfc", "sqrt"))
    cosh, sinh, tanh, gamma = (staticmethod(getattr(arb, n)) for n in ("cosh", "sinh", "tanh", "gamma"))
    erfinv, erfcinv = (staticmethod(getattr(arb, n)) for n in ("erfinv", "erfcinv"))  # the declared laws' isf

    @staticmethod
    def erfcx(v: arb) -> arb:
        return v.erfc() * (v * v).exp()

    @staticmethod
    def logaddexp(a: Any, b: Any) -> arb:
        return arb(arb(a).exp() + arb(b).exp()).log()

    @staticmethod
    def uppergamma(s: Any, z: Any) -> arb:
        return arb(z).gamma_upper(arb(s))

    @staticmethod
    def lowergamma(s: Any, z: Any) -> arb:
        return arb(z).gamma_lower(arb(s))

    @staticmethod
    def pow(b: Any, e: Any) -> arb:
        return (arb(e) * arb(b).log()).exp()

    @staticmethod
    def exprel(v: Any) -> arb:
        """(e^v - 1)/v = int_0^1 e^{v u} du (1 at v = 0): expm1(v)/v where the ball excludes 0; where it holds 0 the
        hull of 1 and e^v (the integral lies between them).

        >>> ArbNamespace.exprel(arb(0)), ArbNamespace.exprel(arb(-1)).overlaps(1 - arb(-1).exp())
        (1.00000000000000, True)
        """
        v = arb(v)
        if v == 0:
            return arb(1)
        if v.contains(0):
            return arb(arb(1).union(v.exp()))
        return arb(v.expm1() / v)

    @staticmethod
    def expm1(v: Any) -> arb:
        return arb(v).expm1()

    @staticmethod
    def log1p(v: Any) -> arb:
        return arb(v).log1p()

    @staticmethod
    def lowergamma_scaled(n: Any, y: Any) -> arb:
        """int_0^1 u^n e^{-y u} du = 1F1(n + 1; n + 2; -y)/(n + 1) for an integer n >= 0 (entire in y: a ball holding
        0 is fine), the bounded-support moments' node (``fhsym.symbolic.special``).

        >>> ArbNamespace.lowergamma_scaled(arb(2), arb(5)).overlaps(arb(5).gamma_lower(3) / 125)
        True
        """
        z = arb(n).unique_fmpz()  # the printed integer A.q(n): an exact ball
        if z is None:
            raise ValueError(f"n must be an exact integer in [0, inf); got {n!r}")
        k = int(z)
        if k < 0:
            raise ValueError(f"n must be an integer in [0, inf); got {k}")
        return arb(-arb(y)).hypgeom_1f1(k + 1, k + 2) / (k + 1)

    @staticmethod
    def lowergamma3_scaled(y: Any) -> arb:
        """int_0^1 u^2 e^{-y u} du (:meth:`lowergamma_scaled` at n = 2)."""
        return ArbNamespace.lowergamma_scaled(arb(2), y)

    @staticmethod
    def cmp(op: str, a: Any, b: Any) -> Optional[bool]:
        """A relation between balls: True or False where it holds, or fails, for every point of them; None where
        the balls do not decide it (a :meth:`piecewise` condition)."""
        x, y = arb(a), arb(b)
        if op in (">=", ">"):
            x, y = y, x
            op = "<=" if op == ">=" else "<"
        if op == "<=":
            return True if x <= y else (False if x > y else None)
        if op == "<":
            return True if x < y else (False if x >= y else None)
        raise ValueError(f"op must be one of <, <=, >, >=; got {op!r}")

    @staticmethod
    def all_of(*conds: Optional[bool]) -> Optional[bool]:
        return False if any(c is False for c in conds) else (True if all(c is True for c in conds) else None)

    @staticmethod
    def any_of(*conds: Optional[bool]) -> Optional[bool]:
        return True if any(c is True for c in conds) else (False if all(c is False for c in conds) else None)

    @staticmethod
    def piecewise(*branches: Tuple[Callable[[], Any], Callable[[], Optional[bool]]]) -> arb:
        """SymPy's ``Piecewise`` on balls: the value of the first branch whose condition certainly holds, joined
        (union) with every earlier branch whose condition the balls leave undecided; a branch whose condition
        certainly fails is never evaluated.  So the ball contains the exact value whichever branch the exact argument
        takes.

        >>> v = ArbNamespace.piecewise((lambda: arb(1), lambda: ArbNamespace.cmp(">=", arb(0, 1), 0)),
        ...                            (lambda: arb(2), lambda: True))
        >>> v.contains(1), v.contains(2)  # the condition 0 +- 1 >= 0 is undecided: both branches
        (True, True)
        """
        out: Optional[arb] = None
        for value, cond in branches:
            c = cond()
            if c is False:
                continue
            v = arb(value())
            out = v if out is None else out.union(v)
            if c is True:
                return out
        if out is None:
            raise ValueError("piecewise: no branch holds (the Piecewise has no True branch)")
        return out

    @staticmethod
    def min(x: Any, y: Any) -> arb:
        """A ball containing min(u, v) for every u in x, v in y (the step laws' clipped cell lengths)."""
        a, b = arb(x), arb(y)
        if a <= b:
            return a
        if b <= a:
            return b
        lo = a.lower() if a.lower() <= b.lower() else b.lower()
        hi = a.upper() if a.upper() <= b.upper() else b.upper()
        return arb(arb(lo).union(arb(hi)))

    @staticmethod
    def max(x: Any, y: Any) -> arb:
        """A ball containing max(u, v) for every u in x, v in y."""
        return -ArbNamespace.min(-arb(x), -arb(y))

    @staticmethod
    def pi() -> arb:
        return arb.pi()

    @staticmethod
    def e() -> arb:
        return arb.const_e()

    @staticmethod
    def abs(v: arb) -> arb:
        return abs(v)


class ExactNamespace:
    """The namespace of the printed crossing points (rational functions of eps, D and the shapes): ``A.q`` is an exact
    ``Fraction``, so a crossing evaluates to the exact rational the derivation says (no other function is printed)."""

    @staticmethod
    def q(p: int, r: int = 1) -> Fraction:
        return Fraction(p, r)


def cut_far_plan(p: int, K: int) -> Tuple[List[Tuple[str, int, int]], List[Tuple[str, int, int]]]:
    """The runs of periods of :func:`fhsym.symbolic.steps.profile_periods_cut`'s sums at ``p >= 1`` whole periods of
    shift, the cut in period ``K >= 1``: ``(heads, blocks)``, each a list of ``(clip, first period, number of periods)`` (every period of
    a run has the same clip; an empty run is left out).  A run of n periods from k0 adds, per key, ``mass r^k0 (1 -
    r^n)/(1 - r) (1 - x r^(p + m))_+`` (heads: the level does not depend on k) or, with ``N = p + c - 2 j0`` and L of
    its n periods with a positive term (``N - 2 i > eps/eps0``, i < L), ``mass r^j0 (1 - r^L)/(1 - r) (1 - x r^(N + 1
    - L))`` (blocks; :func:`fhsym.symbolic.steps.profile_periods`' run sum)."""
    Q = K - p
    heads = [run for run in (("full", 0, Q - 1), ("pen", Q - 1, 1), ("last", Q, 1)) if run[1] >= 0 and run[2] > 0]
    blocks: List[Tuple[str, int, int]] = []
    lo, hi = max(0, -Q - 1), min(p - 1, K)  # the periods j of |t| that hold any mass
    j = lo
    while j <= hi:
        low = "lo1" if j == -Q - 1 else "lo0" if j == -Q else ""
        if low or j == K:
            blocks.append((low + ("hi" if j == K else ""), j, 1))
            j += 1
        else:  # whole periods up to the next special one (K, or p - 1)
            end = min(hi, K - 1)
            blocks.append(("full", j, end - j + 1))
            j = end + 1
    return heads, blocks
