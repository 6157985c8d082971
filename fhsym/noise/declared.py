"""Noise laws from a declaration: :class:`DeclaredNoise` and :func:`declare_law` (issue 28).

:func:`declare_law` takes a :class:`~fhsym.symbolic.declaration.Declaration` (a density written once
in SymPy), derives every formula (:func:`fhsym.symbolic.derivation.derive`: normaliser, sf, isf,
variance, Fisher information, entropy, loss, the proven facts), prints and compiles them for numpy
and arb (:func:`fhsym.codegen.declared.compile_kernels`) and returns a subclass of
:class:`DeclaredNoise` registered under the declaration's name, so that
``fhsym.calibrate(eps, delta, mechanism=name)`` calibrates it and :func:`fhsym.verify_certificate`
re-checks its certificates (in any process that declared the law).

The member with scale ``s`` (and shape ``p``) has density ``g(|x|/s)/(Z s)``; in standard units
``z = x/s`` and ``D = Delta/s`` the kernels are:

* ``logpdf = logpdf_k(|z|) - log s``, ``sf(x) = sf_k(z)`` (z >= 0) and ``1 - sf_k(-z)`` (z < 0), ``logsf`` from
  the stable rewrite of log sf_k; ``isf = s isf_k(q)`` (SymPy's inverse, else a root of logsf);
* ``var = s^2 v`` (v closed form, else mpmath quadrature of the declared density), ``moment(n) = s^n m_n``,
  ``entropy = h + log s``;
* ``privacy_loss(x, d) = psi(|x + d|/s) - psi(|x|/s)``;
* ``privacy_profile``: ``delta = F(y*) - e^eps F(y* - D)`` at the float root y* of the loss crossing
  (``psi(|y - D|) - psi(|y|) = eps``, brentq), evaluated as ``F(y*) (-expm1(eps + log F(y* - D) - log F(y*)))``;
  0 where eps >= sup loss;
* the certified profile (``profile_enclosure``, what calibrations are certified by): the generic plan
  of :mod:`fhsym._core.arb.crossing`, a crossing bracket proven by arb signs of the loss;
* a bounded support ``[-b s, b s]`` (the declaration's last piece ends at b): ``logpdf = -inf``, ``sf = 0`` and
  ``psi = +oo`` beyond it; the float crossing is clipped to the overlap ``(D - b, b)`` (``delta = F(D - b)``, the mass
  of the infinite loss, where the finite loss stays below eps; 1 for ``D >= 2b``), as is the certified plan's.

Example
-------
>>> import sympy as sp
>>> from fhsym.symbolic.declaration import Declaration
>>> t = sp.Symbol("t", positive=True)
>>> Lap = declare_law(Declaration("doc_laplace", "Laplace (declared)", t, ((sp.exp(-t), (0, sp.oo)),), scale="b"),
...                   register=False)
>>> n = Lap(2.0)
>>> n.var(), round(float(n.privacy_profile(0.25)), 12), round(float(-np.expm1((0.25 - 0.5) / 2)), 12)
(8.0, 0.117503097415, 0.117503097415)
"""

from __future__ import annotations

import functools
import math
from typing import Any, Callable, ClassVar, Dict, Optional, Tuple

import mpmath
import numpy as np
import sympy as sp
from flint import fmpq
from scipy.optimize import brentq

from .._core.arb import Plan
from .._core.arb.crossing import CrossingPlan, crossing_eval
from .._core.domains import Domain, check_scalar
from .._core.types import FloatArray
from ..codegen.declared import Kernels, compile_kernels
from ..codegen.declared_laws import c_source as _c_source
from ..codegen.declared_laws import generated_kernels
from ..codegen.declared_laws import jax_source as _jax_source
from ..symbolic.declaration import Declaration
from ..symbolic.derivation import Derivation, derive
from ..symbolic.special import rewrite_naive
from .base import NoiseDistribution

__all__ = ["DeclaredNoise", "declare_law", "DECLARED"]

#: the classes made by declare_law, by declaration (one class per declaration and process)
DECLARED: Dict[Declaration, Any] = {}


def _exact(v: float) -> fmpq:
    n, d = float(v).as_integer_ratio()
    return fmpq(n, d)


class DeclaredNoise(NoiseDistribution):
    """A noise law built from a :class:`~fhsym.symbolic.declaration.Declaration` (module docstring).

    Subclasses are made by :func:`declare_law`; the constructor takes the scale, then the shape (by position or
    by their declared names), each checked against its domain.
    """

    declaration: ClassVar[Declaration]
    derivation: ClassVar[Derivation]
    kernels: ClassVar[Kernels]
    #: the float profile's relative error: measured worst 1.7e-11 against fhsym.Gaussian (tests/test_declared.py)
    profile_rtol: ClassVar[float] = 1e-10

    def __init__(self, *args: float, **kwargs: float) -> None:
        names = [d.name for d in self.parameter_domains]
        if len(args) > len(names):
            raise ValueError(f"{type(self).__name__} takes the parameters {names}; got {len(args)} positional values")
        values = dict(zip(names, args))
        for k, v in kwargs.items():
            if k not in names or k in values:
                raise ValueError(f"{type(self).__name__} takes the parameters {names}; got {k}={v!r}")
            values[k] = v
        missing = [n for n in names if n not in values]
        if missing:
            raise ValueError(f"{type(self).__name__} takes the parameters {names}; missing {missing}")
        for d in self.parameter_domains:
            setattr(self, d.name, check_scalar(values[d.name], d))

    # -- the scale family
    @property
    def _s(self) -> float:  # the scale parameter's value
        return float(getattr(self, self.parameter_domains[0].name))

    @property
    def _shapes(self) -> Tuple[float, ...]:
        return tuple(float(getattr(self, d.name)) for d in self.parameter_domains[1:])

    @property
    def family_scale(self) -> float:
        return self._s

    @property
    def family_shape(self) -> float:
        return self._shapes[0] if self._shapes else 0.0

    @classmethod
    def from_family(cls, shape: float, scale: float) -> "DeclaredNoise":
        return cls(scale, shape) if len(cls.parameter_domains) > 1 else cls(scale)

    # -- piecewise evaluation in standard units (z >= 0)
    def _pieces(self, fns: Tuple[Callable[..., Any], ...], z: FloatArray) -> np.ndarray:
        z = np.asarray(z, dtype=float)
        out = np.empty(z.shape)
        edges = (0.0, *self.kernels.joins, math.inf)
        with np.errstate(all="ignore"):
            for k, fn in enumerate(fns):
                m = (z >= edges[k]) & (z < edges[k + 1]) if k + 1 < len(fns) else (z >= edges[k])
                if np.any(m):
                    out[m] = np.broadcast_to(fn(z[m], *self._shapes), z[m].shape)
        return out

    @property
    def _end(self) -> float:
        """The end b of a bounded support [-b, b] in standard units (inf: all of R)."""
        return math.inf if self.kernels.end is None else self.kernels.end

    def _psi(self, z: FloatArray) -> np.ndarray:
        a = np.abs(np.asarray(z, dtype=float))
        out: np.ndarray = np.where(a > self._end, math.inf, self._pieces(self.kernels.psi, np.minimum(a, self._end)))
        return out  # beyond a bounded support: g = 0, psi = +oo

    def _logpdf(self, x: FloatArray) -> FloatArray:
        a = np.abs(np.asarray(x, dtype=float)) / self._s
        val = self._pieces(self.kernels.logpdf, np.minimum(a, self._end)) - math.log(self._s)
        out: np.ndarray = np.where(a > self._end, -math.inf, val)
        return out

    def _sf_pos(self, a: np.ndarray) -> np.ndarray:
        """sf in standard units at a >= 0: the derived form, and exp of the stable log sf where it is not finite (a
        ratio of tails that both underflow, e.g. erfc(u)/erfc(v) far out)."""
        a = np.minimum(a, self._end)  # sf = 0 at and beyond the end of a bounded support
        s = self._pieces(self.kernels.sf, a)
        bad = ~np.isfinite(s)
        if np.any(bad):
            s[bad] = np.exp(self._pieces(self.kernels.logsf, a[bad]))
        return s

    def _near_end(self, x: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        """(mask, w) of a bounded support with a printed ``sf_end``: |x| in its last piece, past half-way to the end b s
        and inside it; w = (b s - |x|)/s there, the distance to the end in standard units (the subtraction b s - |x|
        is exact when b s is a double, Sterbenz; t = |x|/s would leave 1 - t with an error of 1e-16/(1 - t))."""
        ax = np.abs(x)
        end = self._s * self._end
        last = self.kernels.joins[-1] * self._s if self.kernels.joins else 0.0
        mask = (2.0 * ax > end) & (ax < end) & (ax >= last)
        with np.errstate(all="ignore"):
            w = (end - ax) / self._s
        return mask, w

    def _sf(self, x: FloatArray) -> FloatArray:
        x = np.asarray(x, dtype=float)
        z = x / self._s
        s = self._sf_pos(np.abs(z))
        if self.kernels.sf_end is not None:  # near the end: the derived sf in the distance to it
            m, w = self._near_end(x)
            if np.any(m):
                with np.errstate(all="ignore"):
                    s = np.array(s, dtype=float)
                    s[m] = np.broadcast_to(self.kernels.sf_end(w[m], *self._shapes), w[m].shape)
        return np.where(z >= 0, s, 1.0 - s)

    def _logsf(self, x: FloatArray) -> FloatArray:
        x = np.asarray(x, dtype=float)
        z = x / self._s
        with np.errstate(all="ignore"):
            pos = self._pieces(self.kernels.logsf, np.minimum(np.abs(z), self._end))
            if self.kernels.logsf_end is not None:
                m, w = self._near_end(x)
                if np.any(m):
                    pos[m] = np.broadcast_to(self.kernels.logsf_end(w[m], *self._shapes), w[m].shape)
            out: np.ndarray = np.where(z >= 0, pos, np.log1p(-self._sf(np.abs(x))))
        return out

    def _log_cdf1(self, y: float) -> float:
        """log F(y) in standard units (one float)."""
        if y <= -self._end:
            return -math.inf
        if y >= self._end:
            return 0.0
        if y <= 0:
            return float(self._pieces(self.kernels.logsf, np.array([-y]))[0])
        return math.log1p(-float(self._sf_pos(np.array([y]))[0]))

    def _isf1(self, p: float) -> float:
        """isf in standard units for 0 < p <= 1/2: SymPy's inverse on its piece, else a root of logsf."""
        edges = (0.0, *self.kernels.joins, math.inf)
        for k in range(len(self.kernels.sf)):
            if k + 1 == len(self.kernels.sf) or p > float(self._sf_pos(np.array([edges[k + 1]]))[0]):
                inv = self.kernels.isf[k]
                if inv is not None:
                    with np.errstate(all="ignore"):
                        z = float(inv(p, *self._shapes))
                    if math.isfinite(z):
                        return z  # else (an intermediate under- or overflows) the root of logsf below
                lp = math.log(p)
                top = min(edges[k + 1], self._end)
                lo, hi = edges[k], top if top < math.inf else max(1.0, 2 * edges[k])
                while float(self._pieces(self.kernels.logsf, np.array([hi]))[0]) > lp:
                    lo, hi = hi, 2 * hi
                return float(brentq(lambda z: float(self._pieces(self.kernels.logsf, np.array([z]))[0]) - lp,
                                    lo, hi, xtol=1e-300, rtol=8.9e-16))
        raise AssertionError("unreachable")  # pragma: no cover

    def _isf(self, q: FloatArray) -> FloatArray:
        q = np.asarray(q, dtype=float)
        out = np.empty(q.shape)
        for idx, v in np.ndenumerate(q):
            p = v if v <= 0.5 else 1.0 - v
            z = math.inf if p == 0.0 else (0.0 if p == 0.5 else self._isf1(p))
            out[idx] = z if v <= 0.5 else -z
        return self._s * out

    @classmethod
    def unit_kinks(cls, eps: float, shapes: np.ndarray) -> Optional[np.ndarray]:
        """The sensitivity u of the member (shape, 1) at which sup loss = eps (the profile vanishes for smaller u):
        the calibrator's bracket seed (:class:`fhsym.noise.family.ScaleFamily`); None for an unbounded loss."""
        fn = cls.kernels.kink
        if fn is None or not eps > 0:
            return None
        shapes = np.asarray(shapes, dtype=float)
        args = (shapes,) if cls.declaration.shapes else ()
        out: np.ndarray = np.broadcast_to(np.asarray(fn(eps, *args), dtype=float), shapes.shape).copy()
        return out

    # -- moments
    def _var(self) -> float:
        return self._s**2 * _unit_variance(self.declaration, self._shapes)

    def _moment(self, n: int) -> float:
        m = self.derivation.moment(n)
        if m is None:
            return super()._moment(n)
        return self._s**n * float(sp.N(m.subs(dict(zip(self.declaration.shape_symbols, self._shapes))), 30))

    def _entropy(self) -> float:
        h = self.derivation.entropy
        return super()._entropy() if h is None else _closed_value(self.declaration, "entropy", self._shapes) + \
            math.log(self._s)

    def _kinks(self) -> Tuple[float, ...]:
        return tuple(self._s * b for b in self.kernels.joins) + ((self._s * self._end,) if self.kernels.end else ())

    def support(self) -> Tuple[float, float]:
        """[-b s, b s] for a bounded support (b the declaration's end, s the scale), else (-inf, inf)."""
        return (-self._s * self._end, self._s * self._end) if self.kernels.end is not None else super().support()

    def _rvs(self, rng: Any, shape: Tuple[int, ...]) -> np.ndarray:
        u = np.asarray(rng.random(shape), dtype=float)
        return np.asarray(self._isf(u), dtype=float)

    # -- privacy
    def _privacy_loss(self, t: np.ndarray, d: np.ndarray) -> np.ndarray:
        s = self._s
        with np.errstate(invalid="ignore"):
            out: np.ndarray = self._psi((t + d) / s) - self._psi(t / s)
        if self.kernels.end is not None:  # both outside a bounded support: log(0/0) := 0 (probability 0)
            out = np.where(np.isnan(out), 0.0, out)
        return out

    def _loss_sup(self, D: float) -> float:
        fn = self.kernels.loss_sup
        return math.inf if fn is None else float(fn(D, *self._shapes))

    def _profile1(self, e: float, D: float) -> float:
        if e >= self._loss_sup(D):
            return 0.0
        if D >= 2.0 * self._end:  # a bounded support, disjoint from its shift
            return 1.0

        def gap(v: float) -> float:
            return float(self._psi(np.array([v - D]))[0] - self._psi(np.array([v]))[0]) - e

        hi = 0.5 * D
        lo = hi - 1.0
        left = D - self._end  # a bounded support: the overlap (D - b, b), the loss +oo left of it
        while gap(max(lo, left)) < 0.0:
            if lo <= left:  # the loss is below eps on the whole overlap: y* = D - b, delta = F(D - b)
                return math.exp(self._log_cdf1(left))
            lo = hi - 2.0 * (hi - lo)
            if lo < -1e300:
                return 0.0  # the crossing is beyond the floats: F(y*) underflows
        lo = max(lo, left)
        y = hi if gap(hi) >= 0.0 else _crossing(gap, lo, hi)
        a, b = self._log_cdf1(y), e + self._log_cdf1(y - D)
        return max(0.0, math.exp(a) * -math.expm1(b - a))

    def _profile(self, eps: np.ndarray, sensitivity: float) -> np.ndarray:
        D = float(sensitivity) / self._s
        if D == math.inf:
            return np.ones(np.shape(eps))
        out = np.empty(np.shape(eps))
        for idx, e in np.ndenumerate(np.asarray(eps, dtype=float)):
            out[idx] = 0.0 if D == 0.0 else self._profile1(float(e), D)
        return out

    @classmethod
    def c_source(cls) -> str:
        """The law's float numerics in C99, printed from its derivation (functions ``fhsym_<name>_<function>``:
        ``sf_k``, ``logsf_k``, ``logpdf_k``, ``isf_k``, ``psi_k`` per piece k in standard units, ``variance``, ...),
        to build with the C library fhsym ships (``python -m fhsym.codegen --target c``), and the exact profile
        ``fhsym_<name>_profile`` (a closed-form crossing root, else a printed bisection); ``ValueError`` where a form
        has no C printing yet.  See docs/declare.md."""
        return _c_source(cls.derivation)

    @classmethod
    def jax_source(cls) -> str:
        """The law's float numerics as a JAX module (the functions of :meth:`c_source` on ``jax.numpy`` in float64),
        printed from its derivation; ``ValueError`` where a form has no JAX printing yet."""
        return _jax_source(cls.derivation)

    def _precise_view(self, digits: Optional[int], bits: Optional[int], ball: bool) -> Any:
        from .precise_declared import DeclaredAtPrecision  # at_precision through the printed ball forms (issue 29)

        return DeclaredAtPrecision(self, digits, bits=bits, ball=ball)

    def _arb_plan(self, eps: fmpq, sensitivity: fmpq) -> Plan:
        k = self.kernels
        plan = CrossingPlan(k.psi_arb, k.sf_arb, k.joins_exact, k.loss_sup_arb,
                            tuple(_exact(v) for v in self._shapes), eps, sensitivity / _exact(self._s), end=k.end_exact)
        return crossing_eval, plan, f"declared law {self.name!r}: certified crossing bracket of the loss"


def _crossing(gap: Callable[[float], float], lo: float, hi: float) -> float:
    """A root of the non-increasing ``gap`` in [lo, hi] (gap(lo) >= 0 > gap(hi)): brentq, else bisection to adjacent
    floats (the float loss psi(|y - D|) - psi(|y|) can cancel to noise, e.g. OSGT's (|y| + theta)^2/2 at theta = 1e4,
    where brentq may not converge).  delta = F(y) - e^eps F(y - D) is stationary at the crossing (its maximum), so
    an error in y moves delta only at second order."""
    try:
        return float(brentq(gap, lo, hi, xtol=1e-300, rtol=8.9e-16))
    except RuntimeError:
        for _ in range(2100):
            mid = 0.5 * (lo + hi)
            if not lo < mid < hi:
                break
            lo, hi = (mid, hi) if gap(mid) >= 0.0 else (lo, mid)
        return lo


@functools.lru_cache(maxsize=64)
def _mp_form(decl: Declaration, what: str) -> Callable[..., Any]:
    # stable nodes (exprel, lowergamma3_scaled of a bounded support) by their definitions: mpmath has no such names
    expr = rewrite_naive(getattr(DECLARED[decl].derivation, what))
    return sp.lambdify(decl.shape_symbols, expr, "mpmath")  # type: ignore[no-any-return]


@functools.lru_cache(maxsize=4096)
def _closed_value(decl: Declaration, what: str, shapes: Tuple[float, ...]) -> float:
    """A derived closed-form constant (``variance``, ``entropy``) of the member with scale 1, evaluated by mpmath at 40
    digits and rounded once: a float evaluation of the same formula can cancel (OSGT's variance
    theta^2 + 1 - theta sqrt(2/pi) e^{-theta^2/2}/erfc(theta/sqrt 2) at theta = 20 loses 9 digits)."""
    with mpmath.workdps(40):
        return float(_mp_form(decl, what)(*map(mpmath.mpf, shapes)))


@functools.lru_cache(maxsize=4096)
def _unit_variance(decl: Declaration, shapes: Tuple[float, ...]) -> float:
    """The variance of the member with scale 1: the derived closed form (40-digit mpmath), else mpmath quadrature
    (30 digits) of 2 int_0^oo t^2 g / Z over the declared pieces."""
    if DECLARED[decl].derivation.variance is not None:
        return _closed_value(decl, "variance", shapes)
    subs = dict(zip(decl.shape_symbols, shapes))
    with mpmath.workdps(30):
        fns = [sp.lambdify(decl.t, g.subs(subs), "mpmath") for g, _ in decl.pieces]
        edges = [(float(a), mpmath.inf if b is sp.oo else float(b)) for _, (a, b) in decl.pieces]
        m2 = sum(mpmath.quad(lambda v, f=f: v * v * f(v), [a, b]) for f, (a, b) in zip(fns, edges))
        z = sum(mpmath.quad(f, [a, b]) for f, (a, b) in zip(fns, edges))
        return float(m2 / z)


def declare_law(decl: Declaration, *, register: bool = True) -> Any:
    """The noise class of ``decl`` (derived, printed, compiled), registered under ``decl.name`` unless
    ``register=False``.

    Declaring the same declaration again returns the same class; another law under a registered name raises
    ``ValueError`` naming it.  See the module docstring for the formulas and :mod:`fhsym.symbolic.declaration` for
    what a declaration holds.

    >>> import sympy as sp, fhsym
    >>> t = sp.Symbol("t", positive=True)
    >>> decl = fhsym.Declaration("doc_gauss", "Gaussian (doc)", t, ((sp.exp(-t**2 / 2), (0, sp.oo)),), scale="sigma")
    >>> G = fhsym.declare_law(decl)
    >>> cal = fhsym.calibrate(1.0, 1e-6, mechanism="doc_gauss")
    >>> round(cal.variance, 6), round(fhsym.calibrate(1.0, 1e-6, mechanism="gaussian").variance, 6)
    (17.847912, 17.847912)
    >>> fhsym.declare_law(fhsym.Declaration("gaussian", "x", t, ((sp.exp(-t), (0, sp.oo)),)))
    Traceback (most recent call last):
    ...
    ValueError: name 'gaussian' is already registered (Gaussian); declare the law under another name
    >>> TG = fhsym.declare_law(fhsym.Declaration("doc_trunc_gauss", "truncated Gaussian (doc)", t,
    ...                                           ((sp.exp(-t**2 / 2), (0, 2)),), scale="sigma"), register=False)
    >>> float(TG(1.0).sf(2.0)), float(TG(1.0).privacy_profile(0.0, 4.0))  # a bounded support [-2, 2]
    (0.0, 1.0)
    """
    from . import NOISE_CLASSES

    if not isinstance(decl, Declaration):
        raise ValueError(f"decl must be a fhsym.symbolic.declaration.Declaration; got {type(decl).__name__}")
    cls = DECLARED.get(decl)
    if register and NOISE_CLASSES.get(decl.name, cls) is not cls:
        raise ValueError(f"name {decl.name!r} is already registered ({NOISE_CLASSES[decl.name].__name__}); "
                         f"declare the law under another name")
    if cls is None:
        cls = _make_class(decl)
        DECLARED[decl] = cls
    if register:
        NOISE_CLASSES[decl.name] = cls
    return cls


def _make_class(decl: Declaration) -> Any:
    dv = derive(decl)
    if not any(f.name == "log-concave" for f in dv.facts):  # pragma: no cover - prove_facts raises instead
        raise ValueError(f"{decl.name}: log-concavity was not established")
    domains = (Domain(decl.scale, 0.0, math.inf, typical=(0.5, 2.0)),) + tuple(
        Domain(s.symbol.name, s.domain[0], s.domain[1], typical=s.typical) for s in decl.shapes)
    rng: Optional[Tuple[float, float, bool]] = (decl.shapes[0].typical + (False,)) if decl.shapes else None
    attrs = {"name": decl.name, "display_name": decl.display_name, "parameter_domains": domains,
             "shape_range": rng, "declaration": decl, "derivation": dv, "kernels": generated_kernels(decl) or compile_kernels(dv),
             "log_concave": True, "__module__": __name__,
             "__doc__": f"{decl.display_name}: a noise law declared in SymPy (fhsym.noise.declared).\n\n"
                        f">>> {decl.name!r} == NOISE_CLASSES_NAME\nTrue\n".replace("NOISE_CLASSES_NAME", repr(decl.name))}
    return type(f"Declared_{decl.name}", (DeclaredNoise,), attrs)
