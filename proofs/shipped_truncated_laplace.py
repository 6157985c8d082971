"""The shipped truncated Laplace law: a bounded support through the declared-law pipeline (issue 28).

``fhsym/symbolic/laws/truncated_laplace.py`` declares g(t) = e^{-a t} on [0, 1) (units of the bound A, shape
a = A/lambda; density 0 beyond 1).  ``fhsym.symbolic.derivation.derive`` derives its normaliser, sf (and sf near the
end, in the distance w = 1 - t), the stable log sf, the inverse (SymPy's, rewritten by ``stable_isf``), the moments,
the entropy, the infinite Fisher information and the bounded-support profile; ``python -m fhsym.codegen`` prints
them into ``fhsym/_generated/declared/truncated_laplace.py`` and ``fhsym.TruncatedLaplace`` takes logpdf, sf, logsf,
isf and the variance from there.  The checks:

* facts and sf: PROVEN by SymPy (d sf/dt = -g/Z, sf(0) = 1/2, sf(1) = 0, sf_end(w) = sf(1 - w), exp(log sf) = sf,
  sf(isf(q)) = q on both branches of the inverse, the moments' special functions equal SymPy's own integrals);
* the derived forms and the generated float code: VERIFIED against 50-digit mpmath quadrature of the declared density;
* the profile: the derived bounded-support form F(y*) - e^eps F(y* - D), y* = min(max(y_c, D - 1), 1), against
  50-digit quadrature of the definition int [p(y) - e^eps p(y - D)]_+ dy (VERIFIED), and the class's hand-written
  three-term profile (audited; unchanged) against the derived form (VERIFIED, 50 digits);
* the class's hand-written moments, entropy and P(0 < T <= x) against the derived forms (VERIFIED, 50 digits);
* the certified plan of a bounded support (``fhsym/_core/arb/crossing.py`` step 6), run by a declared twin: every
  ``profile_enclosure`` contains the 50-digit quadrature (VERIFIED; to the quadrature's own error, 1e-45 relative).
"""

from __future__ import annotations

from typing import Any, List

import mpmath
import numpy as np
import sympy as sp

import fhsym
from fhsym._generated.declared import truncated_laplace as G
from fhsym.noise.truncated_laplace import tl_profile
from fhsym.symbolic.derivation import derive, q, w
from fhsym.symbolic.laws import truncated_laplace as TL

from . import _plans
from ._harness import Context, Outcome, Topic, proven, verified

DPS = 50
decl = TL.DECLARATION
a, t = TL.a, TL.t

topic = Topic("shipped_truncated_laplace", "Shipped `truncated_laplace` (TruncatedLaplace): a bounded support "
              "declared (`fhsym/symbolic/laws/truncated_laplace.py`), its derived forms, generated code and profile",
              order=61, description="g(t) = e^{-a t} on [0, 1) in units of the bound A, a = A/lambda, density 0 "
              "beyond: logpdf, sf, logsf, isf and the variance of fhsym.TruncatedLaplace are the generated code "
              "(fhsym/_generated/declared/truncated_laplace.py); its profile, moments, entropy and P(0 < T <= x) stay "
              "hand-written with the rows below.  Shapes a log-uniform in the typical range [1e-2, 1e3].")
dv = topic.shared(lambda: derive(decl))  # the checks' shared derivation


def _shapes(ctx: Context, label: str, n: int) -> List[float]:
    r = ctx.rng(label)
    return [1e-2, 1.0, 2.5, 1e3] + [float(10 ** r.uniform(-2, 3)) for _ in range(ctx.n(n, max(2, n // 4)))]


def _zero(e: sp.Expr) -> bool:
    e = e.rewrite(sp.exp).rewrite(sp.lowergamma).rewrite(sp.log).rewrite(sp.exp)
    return bool(sp.simplify(sp.expand(e)) == 0)


class _Quad:
    """50-digit quadrature of the declared density at shape a (the independent reference)."""

    def __init__(self, av: float) -> None:
        self.a = mpmath.mpf(av)
        self.Z = 2 * mpmath.quad(self.g, [0, 1])

    def g(self, v: Any) -> Any:
        return mpmath.exp(-self.a * abs(v)) if abs(v) <= 1 else mpmath.mpf(0)

    def sf(self, v: Any) -> Any:
        v = mpmath.mpf(v)
        if v >= 1:
            return mpmath.mpf(0)
        if v < 0:
            return 1 - self.sf(-v)
        c = self.g(v)  # mpmath's tolerance is absolute: scale the far tail to O(1)
        return c * mpmath.quad(lambda u: self.g(u) / c, [v, 1]) / self.Z

    def F(self, v: Any) -> Any:
        return 1 - self.sf(v) if v >= -1 else mpmath.mpf(0)

    def moment(self, n: int) -> Any:
        return 2 * mpmath.quad(lambda u: u**n * self.g(u), [0, 1]) / self.Z

    def entropy(self) -> Any:
        return -2 * mpmath.quad(lambda u: self.g(u) / self.Z * mpmath.log(self.g(u) / self.Z), [0, 1])

    def profile(self, e: Any, d: Any) -> Any:
        """int [p(y) - e^eps p(y - d)]_+ dy over the support [-1, 1] (breakpoints at every kink of the integrand)."""
        p = lambda v: self.g(v) / self.Z  # noqa: E731
        f = lambda v: max(p(v) - mpmath.exp(e) * p(v - d), 0)  # noqa: E731
        yc = (self.a * d - e) / (2 * self.a)
        pts = sorted({mpmath.mpf(v) for v in (-1, d - 1, 0, d, 1, yc) if -1 <= v <= 1})
        return mpmath.quad(f, pts)


def _derived_profile(e: Any, d: Any, av: Any, sf: Any) -> Any:
    """The derived bounded-support profile (fhsym.symbolic.derivation docstring) with the derived sf (mpmath)."""
    if d >= 2:
        return mpmath.mpf(1)
    roots = [r for what, r in dv().crossings]
    yc = sp.lambdify((sp.Symbol("D", positive=True), sp.Symbol("epsilon", nonnegative=True), a), roots[0], "mpmath")(
        d, e, av) if e < av * d else -mpmath.inf  # eps >= sup of the finite loss a D: no crossing
    ys = min(max(yc, d - 1), mpmath.mpf(1))
    F = lambda v: mpmath.mpf(0) if v <= -1 else (sf(-v, av) if v < 0 else 1 - sf(v, av))  # noqa: E731
    return F(ys) - mpmath.exp(e) * F(ys - d)


@topic.check(obj="facts, sf, isf", paper="derived", claim="the derived sf is the tail of g/Z; isf inverts it")
def symbolic(ctx: Context) -> Outcome:
    d = dv()
    st = {f.name: f.status for f in d.facts}
    steps = [f"- facts: {st}"]
    g, Z, sf = decl.pieces[0][0], d.Z, d.sf[0]
    ok = all(v == "PROVEN" for v in st.values())
    for what, e in (("d sf/dt + g/Z", sp.diff(sf, t) + g / Z), ("sf(0) - 1/2", sf.subs(t, 0) - sp.Rational(1, 2)),
                    ("sf(1)", sf.subs(t, 1)), ("sf_end(w) - sf(1 - w)", d.sf_end - sf.subs(t, 1 - w)),
                    ("exp(log sf) - sf", sp.exp(d.logsf_stable[0]) - sf),
                    ("variance - int 2 t^2 g / Z (SymPy)", d.variance - 2 * sp.integrate(t**2 * g, (t, 0, 1)) / Z),
                    ("entropy - (log Z - int 2 g/Z log g)", d.entropy - (sp.log(Z) - 2 * sp.integrate(
                        g * sp.log(g), (t, 0, 1)) / Z))):
        z = _zero(e)
        ok &= z
        steps.append(f"- {what}: SymPy simplifies to 0: {z}")
    isf = d.isf[0]
    for (val, cond) in isf.args:
        z = _zero(sf.subs(t, val) - q)
        ok &= z
        steps.append(f"- sf(isf(q)) - q on the branch {cond}: SymPy simplifies to 0: {z}")
    steps.append(f"- Fisher information: {[n for n in d.notes if 'Fisher' in n]}")
    return proven(ok, "SymPy: d sf/dt = -g/Z, sf(0) = 1/2, sf(1) = 0, the stable rewrites and the inverse", steps)


@topic.check(obj="Z, sf, isf, var, h", paper="derived", claim="the derived forms and the generated code = quadrature")
def quadrature(ctx: Context) -> Outcome:
    d = dv()
    f_sf = sp.lambdify((t, a), d.sf[0], ["mpmath", {"exprel": lambda v: mpmath.expm1(v) / v if v else 1}])
    errs: dict = {}
    pts = 0
    r = ctx.rng("t")
    with mpmath.workdps(DPS):
        for av in _shapes(ctx, "quadrature", 8):
            Q = _Quad(av)
            ref_var, ref_h = Q.moment(2), Q.entropy()
            sym_var = mpmath.mpf(str(sp.N(d.variance.subs(a, sp.Rational(av)), DPS)))
            sym_h = mpmath.mpf(str(sp.N(d.entropy.subs(a, sp.Rational(av)), DPS)))
            for k, got, ref in (("variance (derived, 50 digits)", sym_var, ref_var), ("entropy (derived)", sym_h, ref_h),
                                ("variance (generated float)", mpmath.mpf(float(G.variance(av))), ref_var),
                                ("entropy (generated float)", mpmath.mpf(float(G.entropy(av))), ref_h)):
                errs[k] = max(errs.get(k, 0), abs(got - ref) / abs(ref))
            for tv in list(r.uniform(0, 1, ctx.n(5, 2))) + [1e-9, 0.5, 1 - 2.0**-30]:
                ref = Q.sf(tv)
                if ref < mpmath.mpf(10) ** -300:
                    continue
                pts += 1
                for k, got in (("sf (derived, 50 digits)", f_sf(mpmath.mpf(tv), mpmath.mpf(av))),
                               ("sf (generated float, sf_0 / sf_end)",
                                mpmath.mpf(float(G.sf_0(tv, av) if tv <= 0.5 else G.sf_end(1 - tv, av)))),
                               ("log sf (generated float)", mpmath.mpf(float(G.logsf_0(tv, av) if tv <= 0.5 else
                                                                             G.logsf_end(1 - tv, av))))):
                    rr = mpmath.log(ref) if k.startswith("log") else ref
                    errs[k] = max(errs.get(k, 0), abs(got - rr) / abs(rr))
                if ref <= 0.5:
                    with np.errstate(divide="ignore", invalid="ignore"):  # np.select evaluates the other branch too
                        got = mpmath.mpf(float(G.isf_0(float(ref), av)))
                    xr = mpmath.findroot(lambda v: Q.sf(v) - mpmath.mpf(float(ref)), mpmath.mpf(tv))
                    errs["isf (generated float)"] = max(errs.get("isf (generated float)", 0), abs(got - xr) / xr)
    worst = max(errs.values())
    steps = [f"- {k}: worst relative error {mpmath.nstr(v, 2)}" for k, v in errs.items()]
    return verified(worst < 1e-12, "derived forms (50 digits) and the generated float code vs 50-digit quadrature of "
                    "g/Z on [0, 1] (isf: root of the quadrature sf)", pts, "50 digits", mpmath.nstr(worst, 2),
                    evidence=steps)


@topic.check(obj="delta(eps)", paper="derived",
             claim="bounded-support profile F(y*) - e^eps F(y* - D) = quadrature = the class's stable form")
def profile(ctx: Context) -> Outcome:
    d = dv()
    f_sf = sp.lambdify((t, a), d.sf[0], ["mpmath", {"exprel": lambda v: mpmath.expm1(v) / v if v else 1}])
    r = ctx.rng("profile")
    e_quad, e_cls, pts = mpmath.mpf(0), mpmath.mpf(0), 0
    with mpmath.workdps(DPS):
        for av in _shapes(ctx, "profile", 6):
            Q = _Quad(av)
            for _ in range(ctx.n(6, 2)):
                # D = Delta/A in (0, 2.2): the crossing inside, at the overlap's end, beyond it and D >= 2 (delta = 1)
                # eps in [0, 3]: eps >= a D (no crossing: delta = the infinite-loss mass) for the small shapes
                dd, ee = float(r.uniform(0.0, 2.2)), float(r.uniform(0.0, 3.0))
                dm, em = mpmath.mpf(dd), mpmath.mpf(ee)
                der = _derived_profile(em, dm, mpmath.mpf(av), f_sf)
                ref = Q.profile(em, dm) if dd < 2 else mpmath.mpf(1)
                # the class at lambda = 1, A = a, Delta = D a (the profile depends on Delta/A and a only)
                cls = mpmath.mpf(float(tl_profile(np.array([ee]), dd * av, 1.0, av)[0]))
                derc = _derived_profile(em, mpmath.mpf(dd * av) / mpmath.mpf(av), mpmath.mpf(av), f_sf)
                if ref > mpmath.mpf(10) ** -290:
                    e_quad = max(e_quad, abs(der - ref) / ref)
                    e_cls = max(e_cls, abs(cls - derc) / derc)
                    pts += 1
    steps = [f"- derived profile vs quadrature of int [p(y) - e^eps p(y - D)]_+: worst relative {mpmath.nstr(e_quad, 2)}",
             f"- the class's tl_profile (hand-written, three positive terms) vs the derived profile: worst relative "
             f"{mpmath.nstr(e_cls, 2)}"]
    worst = max(e_quad, e_cls)
    return verified(bool(e_quad < mpmath.mpf(10) ** -40 and e_cls < 1e-13), "derived bounded-support profile vs "
                    "50-digit quadrature of the definition; the class's float profile vs the derived one", pts,
                    "50 digits", mpmath.nstr(worst, 2), evidence=steps)


@topic.check(obj="E[T^n], h, P(0<T<=x)", paper="derived",
             claim="the class's hand-written moments, entropy and P(0 < T <= x) = the derived forms")
def hand_written(ctx: Context) -> Outcome:
    d = dv()
    errs: dict = {}
    pts = 0
    r = ctx.rng("hand")
    with mpmath.workdps(DPS):
        for av in _shapes(ctx, "hand", 8):
            law = fhsym.TruncatedLaplace(1.0, av)  # lambda = 1, A = a: E[T^n] = a^n m_n(a), h = h(a) + log a
            A = mpmath.mpf(av)
            for n in (2, 4, 6, 8):
                ref = A**n * mpmath.mpf(str(sp.N(d.moment(n).subs(a, sp.Rational(av)), DPS)))
                errs[f"E[T^{n}]"] = max(errs.get(f"E[T^{n}]", 0), abs(mpmath.mpf(law.moment(n)) - ref) / ref)
                pts += 1
            ref = mpmath.mpf(str(sp.N(d.entropy.subs(a, sp.Rational(av)), DPS))) + mpmath.log(A)
            errs["entropy (absolute)"] = max(errs.get("entropy (absolute)", 0), abs(mpmath.mpf(law.entropy()) - ref))
            for tv in r.uniform(0, 1, ctx.n(3, 1)):
                ref = sp.Rational(1, 2) - d.sf[0].subs({t: sp.Rational(float(tv)), a: sp.Rational(av)})
                ref = mpmath.mpf(str(sp.N(ref, DPS)))
                got = mpmath.mpf(float(law._half_mass(np.array([float(tv) * av]))[0]))
                errs["P(0<T<=x)"] = max(errs.get("P(0<T<=x)", 0), abs(got - ref) / ref)
    worst = max(errs.values())
    steps = [f"- {k}: worst {'absolute' if 'absolute' in k else 'relative'} error {mpmath.nstr(v, 2)}"
             for k, v in errs.items()]
    return verified(worst < 1e-13, "fhsym.TruncatedLaplace(1, a) vs the derived forms at 50 digits (SymPy evalf)", pts,
                    "50 digits", mpmath.nstr(worst, 2), evidence=steps)


@topic.check(obj="delta(eps) ball", paper="derived",
             claim="the certified bounded-support plan (crossing.py step 6) encloses 50-digit quadrature")
def certified(ctx: Context) -> Outcome:
    twin = fhsym.declare_law(fhsym.Declaration("proofs_tl_twin", "truncated Laplace (declared)", t, decl.pieces,
                                               scale="bound", shapes=decl.shapes), register=False)
    r = ctx.rng("certified")
    worst, pts, bad, near = mpmath.mpf(0), 0, [], []
    with mpmath.workdps(DPS):
        for av in _shapes(ctx, "certified", 4):
            Q = _Quad(av)
            law = twin(1.0, av)
            for _ in range(ctx.n(5, 2)):
                dd, ee = float(r.uniform(0.0, 2.2)), float(r.uniform(0.0, 3.0))
                ref = Q.profile(mpmath.mpf(ee), mpmath.mpf(dd)) if dd < 2 else mpmath.mpf(1)
                enc = law.profile_enclosure(ee, dd)
                pts += 1
                tol = ref * mpmath.mpf(10) ** -45  # the quadrature's own error (50 digits)
                if not enc.lower - tol <= ref <= enc.upper + tol:
                    bad.append(f"a = {av:.4g}, D = {dd:.4g}, eps = {ee:.4g}: [{enc.lower!r}, {enc.upper!r}] vs {ref}")
                elif not enc.lower <= ref <= enc.upper:
                    near.append(f"a = {av:.4g}, D = {dd:.4g}, eps = {ee:.4g}: the quadrature is "
                                f"{mpmath.nstr(ref - mpmath.mpf(enc.upper), 3)} above the ball's upper end {enc.upper!r}")
                if ref > 0:
                    worst = max(worst, (mpmath.mpf(enc.upper) - mpmath.mpf(enc.lower)) / ref)
    steps = [f"- {pts} points (D = Delta/A in [0, 2.2], eps in [0, 3]): every ball contains the quadrature: "
             f"{not bad}; widest ball {mpmath.nstr(worst, 2)} relative"] + [f"  - {b}" for b in bad] + [
                 f"- within the quadrature's error (1e-45 relative) only: {n}" for n in near]
    return verified(not bad, "profile_enclosure of the declared truncated Laplace (arb crossing bracket stopped at the "
                    "overlap's end) vs 50-digit quadrature of the definition (to its error, 1e-45 relative)", pts, "50 digits",
                    f"0 outside; width {mpmath.nstr(worst, 2)}", evidence=steps)


@topic.check(obj="certificate plan", paper="derived", quick=False,
             claim="the hand-written plan (fhsym/noise/plans/truncated_laplace.py) = the derived profile, case by case")
def certificate_plan(ctx: Context) -> Outcome:
    return _plans.tl_identity(dv(), a)


def _plan_cases(ctx: Context) -> List[_plans.Case]:
    """(scale lambda, bound A, eps, Delta): x = A - Delta = 0, Delta = 2A (delta = 1) and its float neighbour below,
    eps = s = Delta/lambda on both sides of x = 0, the switch t0 = u (eps = a (2 - D), y_c = D - 1), the calibrated
    (1, 13.66) at eps = s (where the generic crossing bracket is wide), tails e^{-699} and below the subnormals."""
    import math

    f_sf = sp.lambdify((t, a), dv().sf[0], ["mpmath", {"exprel": lambda v: mpmath.expm1(v) / v if v else 1}])
    fixed = [(1.0, 1.0, 0.5, 1.0), (1.0, 1.0, 1.0, 1.0), (1.0, 1.0, 0.5, 0.5), (1.0, 1.0, 0.5, 1.5),
             (1.0, 1.0, math.nextafter(0.5, 0.0), 1.5), (1.0, 1.0, math.nextafter(0.5, 1.0), 1.5), (1.0, 1.0, 0.0, 2.0),
             (1.0, 1.0, 0.3, math.nextafter(2.0, 0.0)), (1.0, 1.0, 3.0, 1.5), (1.0, 1.0, 1.5, 1.5), (1.0, 1.0, 0.0, 0.5),
             (1.0, 13.663689395970382, 1.0, 1.0), (1.0, 13.663689395970382, 0.5, 1.0), (1.0, 700.0, 1.0, 1.0),
             (1.0, 760.0, 1.0, 1.0), (2.0, 1.0, 0.1, 0.25), (1.0, 1e-2, 0.001, 0.011)]
    r = ctx.rng("tl plan points")
    rand = []
    for _ in range(ctx.n(16, 4)):
        av = float(10 ** r.uniform(-2, 3))
        rand.append((1.0, av, float(r.uniform(0.0, 3.0)), float(r.uniform(0.0, 2.2)) * av))
    out: List[_plans.Case] = []
    for lam, A, e, d in fixed + rand:
        def ref(lam: float = lam, A: float = A, e: float = e, d: float = d) -> Any:
            return _plans.digits50(lambda: _derived_profile(mpmath.mpf(e), mpmath.mpf(d) / mpmath.mpf(A),
                                                            mpmath.mpf(A) / mpmath.mpf(lam), f_sf))
        out.append((fhsym.TruncatedLaplace(lam, A), e, d, ref, f"a = {A / lam:g}, D = {d / A:g}"))
    return out


@topic.check(obj="certificate plan", paper="derived",
             claim="profile_enclosure contains the derived profile (50 digits) at the plan's case boundaries and "
                   "tails; width <= 2^-60")
def certificate_plan_balls(ctx: Context) -> Outcome:
    return _plans.balls_outcome(_plan_cases(ctx), "lambda, A, eps, Delta")
