"""Declared laws at any precision, through the ball forms printed from their SymPy derivation (issue 29).

A law declared in SymPy (:mod:`fhsym.symbolic.declaration`; fhsym's Laplace, Gaussian and OSGT laws are declared in
:mod:`fhsym.symbolic.laws` and printed into ``fhsym/_generated/declared/<law>.py`` by ``python -m fhsym.codegen``, a
user's law is printed when declared) has, besides its numpy kernels, arb forms of its derived formulas
(:class:`fhsym.codegen.declared.Kernels`): per piece ``logpdf_arb``, ``sf_arb``, ``logsf_arb``, ``isf_arb``,
``psi_arb``; the constants ``variance_arb``, ``fisher_arb``, ``entropy_arb`` and the moments ``moments_arb``; the sup of
the loss ``loss_sup_arb``.  :class:`DeclaredAtPrecision` evaluates every quantity through them, at the exact rational
values of the scale ``s``, the shapes and the argument, with the evaluation policy of
:mod:`fhsym.noise.precise_laws` (balls, or their midpoints as mpmath numbers):

* in standard units ``z = |x|/s``, the piece of ``z`` decided by exact comparison with the rational joins:
  ``logpdf = logpdf_arb_k(z) - log s``, ``sf = sf_arb_k(z)`` (``1 - sf_arb_k(-z)`` below 0), ``logsf = logsf_arb_k(z)``
  (the stable rewrite; ``log1p(-sf)`` below 0), ``isf(q) = s isf_arb_k(q)`` where SymPy found the inverse (else the
  proven root of :mod:`fhsym.noise.precise_laws`);
* ``E[T^n] = s^n moment_arb_n`` (a user's law, or an n that is not checked in: SymPy derives E[T^n] and it is printed
  on balls when asked), ``var = s^2 variance_arb``, ``I = fisher_arb/s^2``, ``h = entropy_arb + log s``; where SymPy
  did not close one, ``ValueError`` says so (no unproven number);
* the loss ``psi_arb(|t + d|/s) - psi_arb(|t|/s)``; the profile ``F(y*) - e^eps F(y* - D)`` at the crossing y* the
  derivation gives as an exact rational (``crossing_k``, evaluated in ``Fraction`` s, kept only inside its own
  region), else by the certified crossing bracket of :mod:`fhsym._core.arb.crossing` on the generated ``psi_arb``,
  ``sf_arb`` and ``loss_sup_arb`` (the plan a declared law's certificates use).

Accuracy: tests/test_precise_laws.py (quadrature of the definitions at 100 and 300 digits; every ball contains the
reference) and tests/test_precise_declared.py (a user's law with two pieces).
"""

from __future__ import annotations

import functools
import importlib
from fractions import Fraction
from typing import Any, Callable, Dict, Optional, Tuple

from flint import arb, ctx, fmpq

from .._core.arb.crossing import CrossingPlan, crossing_eval
from .._core.mpfuncs import exact_fraction
from .precise_laws import INF, LawAtPrecision, Value, as_arb, ball_of

__all__ = ["DeclaredAtPrecision", "LaplaceAtPrecision", "GaussianAtPrecision", "OSGTAtPrecision",
           "TruncatedLaplaceAtPrecision"]


def _fq(x: Fraction) -> fmpq:
    return fmpq(x.numerator, x.denominator)


@functools.lru_cache(maxsize=None)
def _shipped(name: str) -> Tuple[Any, Any]:
    """The kernels of the checked-in module ``fhsym._generated.declared.<name>`` and its DECLARATION's module."""
    from ..codegen.declared_laws import LAWS, kernels_of

    mod = importlib.import_module(f"fhsym._generated.declared.{name}")
    return kernels_of(mod), dict(LAWS)[name]


@functools.lru_cache(maxsize=256)
def _derived_moment(decl: Any, n: int) -> Optional[Callable[..., Any]]:
    """E[T^n] of the declaration in standard units, derived by SymPy and printed on balls (None: not closed)."""
    from ..codegen.declared import arb_function, arb_printable
    from ..symbolic.derivation import DERIVED, derive

    dv = DERIVED.get(decl)
    if dv is None:
        dv = DERIVED.setdefault(decl, derive(decl))
    m = dv.moment(n)
    return arb_function(m, decl.shape_symbols) if arb_printable(m) else None


class DeclaredAtPrecision(LawAtPrecision):
    """A declared law at any precision through its generated ball forms (module docstring).

    >>> import sympy as sp, fhsym, mpmath
    >>> t = sp.Symbol("t", positive=True)
    >>> Lap = fhsym.declare_law(fhsym.Declaration("doc_lap29", "Laplace (doc)", t, ((sp.exp(-t), (0, sp.oo)),),
    ...                                           scale="b"), register=False)
    >>> p = Lap(2.0).at_precision(30)
    >>> mpmath.nstr(p.sf(3.0), 30), mpmath.nstr(p.var(), 30)
    ('0.111565080074214914466640235382', '8.0')
    """

    def _setup(self) -> None:
        self.kernels, self.scale, self.shapes, self.declaration = self._declared()
        self._joins = tuple(Fraction(int(j.p), int(j.q)) for j in self.kernels.joins_exact)
        end = self.kernels.end_exact
        #: the end b of a bounded support [-b, b] in standard units (None: all of R); its top b s is isf(0)
        self._end: Optional[Fraction] = None if end is None else Fraction(int(end.p), int(end.q))
        if self._end is not None:
            self._top = self._end * self.scale

    def _outside(self, z: Fraction) -> bool:
        """|t|/s = z lies beyond the end of a bounded support (the density is 0 there; at b it is the last piece's)."""
        return self._end is not None and z > self._end

    def _declared(self) -> Tuple[Any, Fraction, Tuple[Fraction, ...], Any]:
        """(kernels, exact scale, exact shapes, declaration) of the law: a :class:`~fhsym.noise.declared.DeclaredNoise`."""
        n = self.noise
        names = [d.name for d in n.parameter_domains]
        return (n.kernels, exact_fraction(getattr(n, names[0])),
                tuple(exact_fraction(getattr(n, v)) for v in names[1:]), n.declaration)

    # ------------------------------------------------------------------ helpers
    def _piece(self, z: Fraction) -> int:
        for k, b in enumerate(self._joins):
            if z < b:
                return k
        return len(self._joins)

    def _sh(self) -> Tuple[arb, ...]:
        return tuple(ball_of(v) for v in self.shapes)

    def _fn(self, table: Tuple[Optional[Callable[..., Any]], ...], k: int, what: str) -> Callable[..., Any]:
        fn = table[k] if k < len(table) else None
        if fn is None:
            raise ValueError(f"{self.declaration.display_name}: the {what} of piece {k} has no ball form (SymPy did "
                             "not close it, or it uses a function without an arb form)")
        return fn

    # ------------------------------------------------------------------ distribution
    def _logpdf_q(self, x: Fraction) -> Value:
        z = abs(x) / self.scale
        if self._outside(z):
            return -INF
        out: arb = arb(self._fn(self.kernels.logpdf_arb, self._piece(z), "log density")(ball_of(z), *self._sh())) \
            - ball_of(self.scale).log()
        return out

    def _near_end(self, z: Fraction) -> bool:
        """z in the last piece of a bounded support, past half-way to the end b: sf there is ``sf_end(b - z)`` with
        the distance ``b - z`` exact (the form in t would subtract b - t on balls)."""
        return self._end is not None and self.kernels.sf_end_arb is not None and 2 * z > self._end \
            and self._piece(z) == len(self._joins)

    def _sf_pos_q(self, s: Fraction) -> Value:
        z = s / self.scale
        if self._end is not None and z >= self._end:
            return Fraction(0)
        if self._near_end(z):
            assert self._end is not None and self.kernels.sf_end_arb is not None
            near: arb = arb(self.kernels.sf_end_arb(ball_of(self._end - z), *self._sh()))
            return near
        out: arb = arb(self.kernels.sf_arb[self._piece(z)](ball_of(z), *self._sh()))
        return out

    def _logsf_q(self, x: Fraction) -> Value:
        if x < 0:
            return super()._logsf_q(x)
        z = x / self.scale
        if self._end is not None and z >= self._end:
            return -INF
        if self._near_end(z) and self.kernels.logsf_end_arb is not None:
            assert self._end is not None
            near: arb = arb(self.kernels.logsf_end_arb(ball_of(self._end - z), *self._sh()))
            return near
        k = self._piece(z)
        fn = self.kernels.logsf_arb[k] if k < len(self.kernels.logsf_arb) else None
        if fn is None:
            return super()._logsf_q(x)
        out: arb = arb(fn(ball_of(z), *self._sh()))
        return out

    def _isf_q(self, q: Fraction) -> Optional[Value]:
        """``s isf_arb_k(q)`` on the piece k whose sf range holds q (decided by balls; None when undecided or no
        inverse: then the proven root)."""
        table = self.kernels.isf_arb
        k = 0
        for j in self._joins:  # q below sf(join): the piece beyond the join
            at = arb(self.kernels.sf_arb[k](ball_of(j), *self._sh()))
            if ball_of(q) < at:
                k += 1
            elif not ball_of(q) >= at:
                return None
            else:
                break
        fn = table[k] if k < len(table) else None
        if fn is None:
            return None
        out: arb = ball_of(self.scale) * arb(fn(ball_of(q), *self._sh()))
        return out

    # ------------------------------------------------------------------ moments and information
    def _constant(self, fn: Optional[Callable[..., Any]], what: str) -> arb:
        if fn is None:
            raise ValueError(f"{self.declaration.display_name}: SymPy did not close the {what} in a form with arb "
                             "functions; at_precision gives no unproven number")
        return arb(fn(*self._sh()))

    def _unit_moment(self, n: int) -> arb:
        table: Dict[int, Callable[..., Any]] = dict(self.kernels.moments_arb)
        dv = getattr(self.noise, "derivation", None)  # a user's law: its own derivation (not derived again)
        if dv is not None and n not in table:
            from ..symbolic.derivation import DERIVED

            DERIVED.setdefault(self.declaration, dv)
        fn = table.get(n) or (self.kernels.variance_arb if n == 2 else None) or _derived_moment(self.declaration, n)
        return self._constant(fn, f"moment E[T^{n}]")

    def _moment_q(self, n: int) -> Value:
        out: arb = ball_of(self.scale) ** n * self._unit_moment(n)
        return out

    def _entropy_q(self) -> Value:
        out: arb = self._constant(self.kernels.entropy_arb, "entropy") + ball_of(self.scale).log()
        return out

    def fisher_information(self) -> Any:
        """The Fisher information of the location, ``fisher_arb/s^2`` (+inf for a bounded support: the density jumps
        to 0 at its end, as the derivation notes)."""
        if self._end is not None:
            return self._value(lambda: INF)
        return self._value(lambda: self._constant(self.kernels.fisher_arb, "Fisher information") / ball_of(self.scale) ** 2)

    def nfi(self) -> Any:
        """The normalised Fisher information Var(T) I(T) (scale free; +inf for a bounded support)."""
        if self._end is not None:
            return self._value(lambda: INF)
        return self._value(lambda: self._unit_moment(2) * self._constant(self.kernels.fisher_arb, "Fisher information"))

    # ------------------------------------------------------------------ privacy
    def _psi(self, x: Fraction) -> arb:
        z = abs(x) / self.scale
        return arb(self.kernels.psi_arb[self._piece(z)](ball_of(z), *self._sh()))

    def _loss_q(self, t: Fraction, d: Fraction) -> Value:
        """psi(|t + d|/s) - psi(|t|/s); on a bounded support psi = +oo beyond the end: +inf where only t + d is outside,
        -inf where only t is, 0 where both are (the laws' convention, log 0/0 := 0)."""
        out_a, out_b = self._outside(abs(t) / self.scale), self._outside(abs(t + d) / self.scale)
        if out_a or out_b:
            return Fraction(0) if out_a and out_b else (-INF if out_a else INF)
        out: arb = self._psi(t + d) - self._psi(t)
        return out

    def _crossing(self, eps: Fraction, D: Fraction) -> Optional[Fraction]:
        """A crossing y* of the loss (psi(|y - D|) - psi(|y|) = eps) from the printed exact crossings: the first whose
        value lies in its own region (the signs of y and y - D, the pieces of |y| and |y - D|, decided exactly)."""
        for sy, syd, i, j, fn in self.kernels.crossings:
            try:
                yv = Fraction(fn(eps, D, *self.shapes))
            except ZeroDivisionError:
                continue
            inside = yv < 0 if sy < 0 else (0 <= yv < D if syd < 0 else yv >= D)
            if self._end is not None and not (abs(yv) < self._end and abs(yv - D) < self._end):
                continue  # a bounded support: the crossing must lie in the overlap of g and its shift
            if inside and self._piece(abs(yv)) == i and self._piece(abs(yv - D)) == j:
                return yv
        return None

    def _profile_q(self, eps: Fraction, sens: Fraction) -> arb:
        """delta = F(y*) - e^eps F(y* - D) at the exact crossing y* where the derivation gives it as a rational (every
        crossing maximises F(y) - e^eps F(y - D): :mod:`fhsym._core.arb.crossing`, point 1); else the certified
        crossing bracket of that module on the generated psi, sf and sup loss."""
        k = self.kernels
        D = sens / self.scale
        sup = None if k.loss_sup_arb is None else arb(k.loss_sup_arb(ball_of(D), *self._sh()))
        if sup is None or not ball_of(eps) >= sup:
            yv = self._crossing(eps, D)
            if yv is not None:
                def F(v: Fraction) -> arb:
                    a = abs(v) * self.scale
                    sv = as_arb(self._sf_pos_q(a))
                    return sv if v <= 0 else 1 - sv
                out: arb = F(yv) - ball_of(eps).exp() * F(yv - D)
                return out
        plan = CrossingPlan(k.psi_arb, k.sf_arb, k.joins_exact, k.loss_sup_arb, tuple(_fq(v) for v in self.shapes),
                            _fq(eps), _fq(sens / self.scale), end=k.end_exact)
        prec = int(ctx.prec)
        with ctx.workprec(prec + plan.boost):
            res: arb = crossing_eval(plan, prec)
        return res


class _Shipped(DeclaredAtPrecision):
    """A law fhsym ships with a declaration: the checked-in generated module ``_law``; ``_parameters`` maps the law's
    parameters to (scale, shapes)."""

    _law = ""

    def _parameters(self) -> Tuple[Fraction, Tuple[Fraction, ...]]:  # pragma: no cover - every law overrides
        raise NotImplementedError

    def _declared(self) -> Tuple[Any, Fraction, Tuple[Fraction, ...], Any]:
        kernels, source = _shipped(self._law)
        scale, shapes = self._parameters()
        return kernels, scale, shapes, importlib.import_module(source).DECLARATION


class GaussianAtPrecision(_Shipped):
    """N(0, sigma^2) at any precision through ``fhsym._generated.declared.gaussian`` (scale sigma).

    >>> import fhsym, mpmath
    >>> g = fhsym.Gaussian(sigma=1.5).at_precision(30)
    >>> mpmath.nstr(g.sf(3.0), 30)
    '0.0227501319481792072002826371665'
    >>> fhsym.Gaussian(sigma=1.5).at_precision(30, ball=True).isf(0.25).str(20)
    '[1.0117346252941226148 +/- 3.35e-21]'
    """

    _law = "gaussian"

    def _parameters(self) -> Tuple[Fraction, Tuple[Fraction, ...]]:
        return exact_fraction(self.noise.sigma), ()


class LaplaceAtPrecision(_Shipped):
    """L(0, beta) at any precision through ``fhsym._generated.declared.laplace`` (scale beta).

    >>> import fhsym, mpmath
    >>> mpmath.nstr(fhsym.Laplace(beta=0.75).at_precision(25).isf(1e-9), 25)
    '15.02258899228984933834732'
    """

    _law = "laplace"

    def _parameters(self) -> Tuple[Fraction, Tuple[Fraction, ...]]:
        return exact_fraction(self.noise.beta), ()


class OSGTAtPrecision(_Shipped):
    """OSGT at any precision through ``fhsym._generated.declared.osgt`` (scale varrho, shape theta = vartheta/varrho,
    exact).  At theta = 0 exactly (the Gaussian) the generated E[T^6], E[T^8] divide 0 by 0 (a removable singularity
    of SymPy's closed form): there E[T^n] = (n - 1)!! of the declared density e^{-t^2/2}.

    >>> import fhsym, mpmath
    >>> mpmath.nstr(fhsym.OSGT(0.5, 1.0).at_precision(30).var(), 30)
    '0.67946111481596775955805851337'
    """

    _law = "osgt"

    def _parameters(self) -> Tuple[Fraction, Tuple[Fraction, ...]]:
        vt, vr = exact_fraction(self.noise.vartheta), exact_fraction(self.noise.varrho)
        return vr, (vt / vr,)

    def _unit_moment(self, n: int) -> arb:
        if self.shapes[0] == 0:
            return ball_of(Fraction(_odd_factorial(n)))
        return super()._unit_moment(n)


class TruncatedLaplaceAtPrecision(_Shipped):
    """Truncated Laplace (density e^{-|x|/lambda}/(2 lambda (1 - e^{-A/lambda})) on [-A, A]) at any precision through
    ``fhsym._generated.declared.truncated_laplace`` (units of the bound A, shape a = A/lambda, exact): the bounded
    support of :class:`DeclaredAtPrecision` (sf near A by the printed ``sf_end`` in the exact distance to A, isf(0) =
    A, the loss +-inf where one side is outside [-A, A], the Fisher information +inf).

    >>> import fhsym, mpmath
    >>> tl = fhsym.TruncatedLaplace(1.0, 10.0).at_precision(30)
    >>> mpmath.nstr(tl.var(), 30), tl.isf(0), tl.sf(11.0)
    ('1.9945517610788374678005247687', mpf('10.0'), mpf('0.0'))
    """

    _law = "truncated_laplace"

    def _parameters(self) -> Tuple[Fraction, Tuple[Fraction, ...]]:
        lam, A = exact_fraction(self.noise.scale), exact_fraction(self.noise.bound)
        return A, (A / lam,)


def _odd_factorial(n: int) -> int:
    """(n - 1)!! for even n >= 2."""
    out = 1
    for k in range(n - 1, 0, -2):
        out *= k
    return out
