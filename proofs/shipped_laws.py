"""The shipped Laplace and Gaussian laws: their hand-written stable forms equal the forms derived from their declarations.

``fhsym/noise/laplace.py`` and ``gaussian.py`` take logpdf, sf, logsf, isf, the variance and the entropy from the
code generated from their declarations (``fhsym/symbolic/laws/``, printed into ``fhsym/_generated/declared/``; the
declared twins in ``docs/examples`` run the same generated code and ``proofs/declared.py`` checks it against
quadrature).  What stays hand-written needs a row here showing that it equals the derived form:

* the privacy profile: the derivation's crossing root y* of loss(y; D) = eps, put into
  delta = F(y*) - e^eps F(y* - D) with the derived sf, simplifies (SymPy) to the closed form the class evaluates
  (Laplace: 1 - e^{(eps - D)/2}; Gaussian: eq (29), Q(eps/D - D/2) - e^eps Q(eps/D + D/2)); the class's float
  profile (its double-double / Mills-ratio stable form) then agrees with that closed form at 50 digits at random
  points (the proof of the stable form's accuracy is the class's own tests against quadrature);
* the moments E[T^n] = n! beta^n (Laplace), sigma^n (n - 1)!! (Gaussian), n = 2, 4, ..., 12: SymPy gives the
  derived moment equal to the class's product formula;
* P(0 < T <= x): 1/2 - sf(x) with the derived sf equals the class's -expm1(-x)/2 (Laplace), erf(x/sqrt 2)/2
  (Gaussian): SymPy.
"""

from __future__ import annotations

import math
from typing import Any, Callable, List, Tuple

import mpmath
import numpy as np
import sympy as sp

import fhsym
from fhsym.symbolic.derivation import Basics, D, Derivation, derive, derive_basics, eps
from fhsym.symbolic.laws import gaussian as GL
from fhsym.symbolic.laws import laplace as LL

from . import _plans
from ._harness import Context, Outcome, Topic, proven, verified

DPS = 50


def _Q(v: sp.Expr) -> sp.Expr:
    return sp.erfc(v / sp.sqrt(2)) / 2


#: (topic stem, declaration module, the class, the closed-form profile it evaluates (standard units),
#:  E[T^n] as the class computes it, P(0 < T <= t) as the class computes it, the crossing's region)
LAWS: Tuple[Tuple[str, Any, Any, sp.Expr, Callable[[int], sp.Expr], Callable[[sp.Expr], sp.Expr], str], ...] = (
    ("laplace", LL, fhsym.Laplace, 1 - sp.exp((eps - D) / 2), lambda n: sp.factorial(n),
     lambda t: (1 - sp.exp(-t)) / 2, "0 <= y < D"),  # -expm1(-t)/2
    ("gaussian", GL, fhsym.Gaussian, _Q(eps / D - D / 2) - sp.exp(eps) * _Q(eps / D + D / 2),
     lambda n: sp.factorial2(n - 1), lambda t: sp.erf(t / sp.sqrt(2)) / 2, ""),
)


def _cdf(dv: Derivation, v: sp.Expr, negative: bool) -> sp.Expr:
    """F(v) from the derived sf of a one-piece law: sf(-v) for v < 0, 1 - sf(v) for v >= 0."""
    s = dv.sf[0]
    return s.subs(dv.t, -v) if negative else 1 - s.subs(dv.t, v)


def _topic(stem: str, mod: Any, cls: Any, closed: sp.Expr, moment: Callable[[int], sp.Expr],
           half: Callable[[sp.Expr], sp.Expr], region: str) -> Topic:
    decl = mod.DECLARATION
    topic = Topic(f"shipped_{stem}", f"Shipped `{decl.name}` ({cls.__name__}): hand-written stable forms equal the "
                  f"forms derived from its declaration (`fhsym/symbolic/laws/{stem}.py`)", order=61,
                  description="logpdf, sf, logsf, isf, variance and entropy of the class are the generated code of "
                              "the declaration (fhsym/_generated/declared/); the rows below cover what stays "
                              "hand-written.")
    dv = topic.shared(lambda: derive(decl))  # the checks' shared derivation

    def profile(ctx: Context) -> Outcome:
        d = dv()
        roots = [(w, r) for w, r in d.crossings if not region or w.startswith(region)]
        steps, ok = [], True
        for what, root in roots[:1]:
            # y* in [0, D) (Laplace: 0 <= eps < D) or any sign (Gaussian: F is one erfc form on both sides)
            delta = _cdf(d, root, negative=False) - sp.exp(eps) * _cdf(d, root - D, negative=True)
            diff = sp.simplify((delta - closed).rewrite(sp.erfc))
            ok &= diff == 0
            steps.append(f"- crossing ({what}): y* = {root}; F(y*) - e^eps F(y* - D) - closed form = {diff}")
        ok &= bool(roots)
        return proven(ok, "SymPy: the derived crossing and sf give the class's closed-form profile", steps)

    def profile_float(ctx: Context) -> Outcome:
        r = ctx.rng("profile float")
        n = ctx.n(40, 10)
        steps, errs = [], []
        f = sp.lambdify((eps, D), closed, "mpmath")
        with mpmath.workdps(DPS):
            for _ in range(n):
                e, dd = float(r.uniform(0.0, 4.0)), float(r.uniform(0.05, 4.0))
                law = cls(1.0)
                got = float(law.privacy_profile(e, dd))
                ref = f(mpmath.mpf(e), mpmath.mpf(dd))
                if ref > 1e-300:
                    errs.append(abs(mpmath.mpf(got) / ref - 1))
        worst = max(errs) if errs else mpmath.mpf(0)
        steps.append(f"- {len(errs)} points eps in [0, 4], Delta/scale in [0.05, 4]: worst relative error "
                     f"{mpmath.nstr(worst, 2)} against the closed form at {DPS} digits")
        return verified(worst < 1e-13, "float profile of the class vs the derived closed form (50-digit mpmath)",
                        len(errs), "50 digits", mpmath.nstr(worst, 2), evidence=steps)

    def moments(ctx: Context) -> Outcome:
        d = dv()
        steps, ok = [], True
        for n in range(2, 13, 2):
            diff = sp.simplify(d.moment(n) - moment(n))
            ok &= diff == 0
            steps.append(f"- n = {n}: derived E[T^n] = {d.moment(n)}, class: {moment(n)}")
        law = cls(1.0)
        flt = [abs(law.moment(n) / float(moment(n)) - 1) for n in range(2, 13, 2)]
        steps.append(f"- the class's float moments at scale 1 vs these integers: worst {max(flt):.1e}")
        return proven(ok and max(flt) < 1e-15, "SymPy: derived moment - class formula = 0, n = 2..12 even", steps)

    def half_mass(ctx: Context) -> Outcome:
        d = dv()
        t = d.t
        diff = sp.simplify((sp.Rational(1, 2) - d.sf[0] - half(t)).rewrite(sp.erfc))
        return proven(diff == 0, "SymPy: 1/2 - sf(t) - class form = 0", [f"- 1/2 - sf(t) - ({half(t)}) = {diff}"])

    topic.add(profile, obj="delta(eps)", paper="derived", claim="derived crossing profile = the class's closed form",
              name="profile")
    topic.add(profile_float, obj="delta(eps)", paper="derived", claim="the class's stable float profile = closed form",
              name="profile_float")
    topic.add(moments, obj="E[T^n]", paper="derived", claim="derived moments = the class's product formula",
              name="moments")
    topic.add(half_mass, obj="P(0<T<=x)", paper="derived", claim="1/2 - derived sf = the class's stable form",
              name="half_mass")
    _plan_rows(topic, stem, dv)
    return topic


def _plan_rows(topic: Topic, stem: str, dv: Callable[[], Derivation]) -> None:
    """The rows of the law's hand-written certificate plan (fhsym/noise/plans/, proofs/_plans.py)."""
    identity = {"laplace": lambda: _plans.laplace_identity(dv()), "gaussian": lambda: _plans.osgt_identity(dv(), 0),
                "osgt": lambda: _plans.osgt_identity(dv(), dv().decl.shape_symbols[0])}[stem]
    cases = {"laplace": _plans.laplace_cases, "gaussian": _plans.gaussian_cases, "osgt": _plans.osgt_cases}[stem]
    source = "osgt" if stem == "gaussian" else stem

    def certificate_plan(ctx: Context) -> Outcome:
        return identity()

    def certificate_plan_balls(ctx: Context) -> Outcome:
        return _plans.balls_outcome(cases(ctx, dv()), (cases.__doc__ or "").split(":")[0].strip())

    topic.add(certificate_plan, obj="certificate plan", paper="derived", quick=False,  # SymPy: 1-15 s
              claim=f"the hand-written plan (fhsym/noise/plans/{source}.py) = the derived profile, case by case",
              name="certificate_plan")
    topic.add(certificate_plan_balls, obj="certificate plan", paper="derived",
              claim="profile_enclosure contains the derived profile (50 digits) at the plan's case boundaries and "
                    "tails; width <= 2^-60", name="certificate_plan_balls")


#: one topic per shipped law whose class takes its numerics from the generated code (proofs._harness.discover)
topics = [_topic(*row) for row in LAWS]


def _flipped_huber_topic() -> Topic:
    """The declaration of flipped Huber (fhsym/symbolic/laws/flipped_huber.py) reproduces fhsym.symbolic.definitions.

    Flipped Huber's numerics are generated from its own stable forms (fhsym/symbolic/stable.py, proven equal to
    definitions.py by the distribution topics); this topic shows that the pipeline, given only the density, derives
    the same normaliser, sf (both pieces), variance and Fisher information (u = t/alpha, c = alpha^2/gamma^2)."""
    from fhsym.symbolic import definitions as FD
    from fhsym.symbolic.laws import flipped_huber as FL

    decl = FL.DECLARATION
    topic = Topic("shipped_flipped_huber", "Flipped Huber declared (`fhsym/symbolic/laws/flipped_huber.py`): the "
                  "derived formulas equal the paper's (fhsym.symbolic.definitions)", order=61,
                  description="g(u) = e^{-c u} on [0, 1), e^{-c (u^2 + 1)/2} on [1, oo) in units of alpha, "
                              "c = (alpha/gamma)^2: facts, normaliser, sf, variance, Fisher information vs eq 8-12.")
    tp = sp.Symbol("t", positive=True)
    basics = topic.shared(lambda: derive_basics(decl))  # identities and certificate_plan_balls

    def rows() -> List[Tuple[str, sp.Expr, str]]:
        # the forms this check compares, as derive() has them (not its isf solves, entropy, crossings)
        d: Basics = basics()
        to_paper = {FL.c: FD.alpha**2 / FD.gamma**2}
        u = {decl.t: tp / FD.alpha}
        paper = lambda e: e.subs(FD.t, tp)  # noqa: E731 - the paper's t, taken t > 0
        return [
            ("facts", sp.Integer(0) if all(f.status == "PROVEN" for f in d.facts) else sp.Integer(1), "-"),
            ("normaliser alpha Z = kappa (eq 8-9)", FD.alpha * d.Z.subs(to_paper) - FD.kappa, "none"),
            ("sf on [0, alpha] (eq 10)", d.sf[0].subs(u).subs(to_paper) - paper(FD.sf_center), "center"),
            ("sf on [alpha, oo) (eq 10)", d.sf[1].subs(u).subs(to_paper) - paper(FD.sf_tail_upper), "tail"),
            ("variance alpha^2 var(c) (eq 11)", FD.alpha**2 * d.variance.subs(to_paper) - FD.variance, "none"),
            ("Fisher information I(c)/alpha^2 (eq 12)", d.fisher.subs(to_paper) / FD.alpha**2 - FD.fisher_information,
             "none"),
        ]

    def identities(ctx: Context) -> Outcome:
        steps, errs, closed_all = [], [], True
        r = ctx.rng("fh identities")
        for what, e, where in rows():
            z = sp.simplify(e.rewrite(sp.exp)) if e.free_symbols else e
            if z == 0:
                steps.append(f"- {what}: SymPy simplifies the difference to 0")
                continue
            if not e.free_symbols:
                return proven(False, "facts not PROVEN", [f"- {what}: {e}"])
            closed_all = False
            worst = mpmath.mpf(0)
            with mpmath.workdps(DPS + 10):
                for _ in range(ctx.n(20, 6)):
                    bb = mpmath.mpf(10) ** mpmath.mpf(float(r.uniform(-2, 2)))
                    a = bb  # gamma = 1: the family is a scale family
                    x = a * mpmath.mpf(float(r.uniform(0, 1))) if where == "center" else a + mpmath.mpf(float(r.uniform(0, 10)))
                    val = sp.N(e.subs({FD.alpha: sp.Float(str(a), DPS), FD.gamma: 1, tp: sp.Float(str(x), DPS)}), DPS)
                    worst = max(worst, abs(mpmath.mpf(str(val))))
            errs.append(worst)
            steps.append(f"- {what}: SymPy did not close it; |difference| <= {mpmath.nstr(worst, 2)} at "
                         f"{ctx.n(20, 6)} points (b = alpha/gamma in [1e-2, 1e2], 50 digits)")
        if closed_all:
            return proven(True, "SymPy: simplify(derived - paper) = 0 for each", steps)
        return verified(max(errs) < mpmath.mpf(10) ** -40, "SymPy where it closed, else 50 digits", ctx.n(20, 6),
                        "50 digits", mpmath.nstr(max(errs), 2), evidence=steps)

    topic.add(identities, obj="Z, sf, var, I", paper="eq 8-12",
              claim="the declared flipped Huber's derived formulas = the paper's (definitions.py)", name="identities")
    def certificate_plan(ctx: Context) -> Outcome:
        return _plans.fh_identity(basics(), decl)

    def certificate_plan_balls(ctx: Context) -> Outcome:
        return _plans.balls_outcome(_plans.flipped_huber_cases(ctx, decl, basics()), (_plans.flipped_huber_cases.__doc__ or "")
                                    .split(":")[0].strip())

    topic.add(certificate_plan, obj="certificate plan", paper="Thm 3", quick=False, name="certificate_plan",
              claim="the hand-written plan (fhsym/noise/plans/flipped_huber.py) = the profile from the declaration's "
                    "derived sf, case by case")
    topic.add(certificate_plan_balls,
              obj="certificate plan", paper="Thm 3", name="certificate_plan_balls",
              claim="profile_enclosure (fhsym/noise/plans/flipped_huber.py) contains the profile from the declaration's "
                    "derived sf (50 digits) at every Table I case boundary and in the tails; width <= 2^-60")
    return topic


topics.append(_flipped_huber_topic())


def _osgt_topic() -> Topic:
    """fhsym.OSGT takes logpdf, sf and logsf from fhsym/_generated/declared/osgt.py; its isf, variance, moments, entropy
    and P(0 < T <= x) stay hand-written (the printed forms cancel: the variance theta^2 + 1 - theta K(theta) loses
    ~theta^4 ulp, the isf -theta + sqrt 2 erfcinv(2 q erfc(theta/sqrt 2)) underflows from theta ~ 38).  Each
    hand-written form is checked against the derived form at 50 digits over the typical shape range."""
    from fhsym.symbolic.laws import osgt as OL

    decl = OL.DECLARATION
    th = decl.shape_symbols[0]
    topic = Topic("shipped_osgt", "Shipped `osgt` (OSGT): hand-written stable forms equal the forms derived from its "
                  "declaration (`fhsym/symbolic/laws/osgt.py`)", order=61,
                  description="logpdf, sf and logsf of the class are the generated code of the declaration "
                              "(fhsym/_generated/declared/osgt.py; sf is the erfc ratio for u + theta <= 2, else exp "
                              "of the derived log sf); the rows below cover what stays hand-written, at shapes theta "
                              "log-uniform in the typical range [1e-3, 1e4] (scale varrho = 1).")
    dv = topic.shared(lambda: derive(decl))  # the checks' shared derivation

    def thetas(ctx: Context, label: str) -> List[float]:
        r = ctx.rng(label)
        fixed = [1e-3, 1.0, 20.0, 40.0, 1e3, 1e4]
        return fixed + [float(10 ** r.uniform(-3, 4)) for _ in range(ctx.n(14, 4))]

    def at(e: sp.Expr, theta: float, extra: Any = None) -> mpmath.mpf:
        subs = {th: sp.Rational(theta)}
        subs.update(extra or {})
        return mpmath.mpf(str(sp.N(e.subs(subs), DPS)))

    def constants(ctx: Context) -> Outcome:
        d = dv()
        rows = [("variance", d.variance, lambda o: o.var())]
        rows += [(f"E[T^{n}]", d.moment(n), lambda o, n=n: o.moment(n)) for n in ((4,) if ctx.quick else (4, 6, 8))]
        rows += [("entropy", d.entropy, lambda o: o.entropy())]
        steps, worst, pts = [], mpmath.mpf(0), 0
        with mpmath.workdps(DPS):
            for what, e, fn in rows:
                w = mpmath.mpf(0)
                for theta in thetas(ctx, what):
                    ref = at(e, theta)
                    w = max(w, abs(mpmath.mpf(fn(fhsym.OSGT(theta, 1.0))) / ref - 1))
                    pts += 1
                steps.append(f"- {what}: derived {e if len(str(e)) < 140 else str(e)[:137] + '...'}; worst relative "
                             f"error of the class {mpmath.nstr(w, 2)}")
                worst = max(worst, w)
        return verified(worst < 1e-13, f"the class's variance, E[T^n] (n = {', '.join(r[0][4:-1] for r in rows[1:-1])}), entropy vs the derived closed "
                        "forms evaluated at 50 digits (SymPy evalf, which tracks the cancellation)", pts, "50 digits",
                        mpmath.nstr(worst, 2), evidence=steps)

    def isf(ctx: Context) -> Outcome:
        d = dv()
        sf = sp.lambdify((d.t, th), d.sf[0], "mpmath")
        r = ctx.rng("isf q")
        worst, pts = mpmath.mpf(0), 0
        with mpmath.workdps(DPS):
            for theta in thetas(ctx, "isf"):
                law = fhsym.OSGT(theta, 1.0)
                for _ in range(ctx.n(6, 2)):
                    qv = float(10 ** r.uniform(-300, math.log10(0.5)))
                    got = float(law.isf(qv))
                    tm = mpmath.mpf(theta)
                    # the derived isf: the root of the derived sf = q (SymPy's inverse, erfcinv, has no mpmath form)
                    root = mpmath.findroot(lambda v: mpmath.log(sf(v, tm)) - mpmath.log(qv), mpmath.mpf(got) + 1e-30)
                    worst = max(worst, abs(got - root) / root)
                    pts += 1
        return verified(worst < 1e-12, "the class's isf (ndtri_exp start, Newton on log sf) vs the derived isf "
                        "(root of the derived sf = q at 50 digits), q log-uniform in [1e-300, 1/2]", pts, "50 digits",
                        mpmath.nstr(worst, 2), evidence=[f"- {pts} points: worst relative error {mpmath.nstr(worst, 2)}"])

    def half_mass(ctx: Context) -> Outcome:
        d = dv()
        r = ctx.rng("half")
        worst, pts = mpmath.mpf(0), 0
        with mpmath.workdps(DPS):
            for theta in thetas(ctx, "half"):
                law = fhsym.OSGT(theta, 1.0)
                for _ in range(ctx.n(4, 2)):
                    xv = float(10 ** r.uniform(-4, 1.5)) / (1.0 + theta)
                    ref = at(sp.Rational(1, 2) - d.sf[0], theta, {d.t: sp.Rational(xv)})
                    worst = max(worst, abs(mpmath.mpf(float(law._half_mass(np.array([xv]))[0])) / ref - 1))
                    pts += 1
        return verified(worst < 1e-13, "the class's P(0 < T <= x) = -expm1(-u (u/2 + theta) - J(theta, u))/2 vs "
                        "1/2 - derived sf at 50 digits", pts, "50 digits", mpmath.nstr(worst, 2),
                        evidence=[f"- {pts} points, x (1 + theta) log-uniform in [1e-4, 30]: worst relative error "
                                  f"{mpmath.nstr(worst, 2)}"])

    topic.add(constants, obj="var, E[T^n], h", paper="derived",
              claim="the class's stable moment forms = the derived closed forms", name="constants")
    topic.add(isf, obj="isf", paper="derived", claim="the class's isf = the derived inverse", name="isf")
    topic.add(half_mass, obj="P(0<T<=x)", paper="derived", claim="1/2 - derived sf = the class's stable form",
              name="half_mass")
    _plan_rows(topic, "osgt", dv)
    return topic


topics.append(_osgt_topic())
