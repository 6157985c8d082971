"""Rows ``certificate_plan`` and ``certificate_plan_balls`` of the shipped laws whose certificate plan stays hand-written.

The certificate plans of the Gaussian, Laplace, OSGT, truncated Laplace and staircase (``fhsym/noise/plans/``) are
hand-written stable forms, not printed from the laws' declarations (why: ``fhsym/noise/plans/__init__.py``).  Each
stays with two rows in its law's topic:

* ``certificate_plan`` (PROVEN): the plan's formula, transcribed here into SymPy term by term from its ``*_eval``
  (``R`` the Mills ratio and ``G`` the strip integral by their definitions), equals the profile derived from the
  declaration, ``F(y*) - e^eps F(y* - D)`` at the derivation's own crossing y* with its own sf, in every case the
  plan decides (eps is written through y*, so that ``e^eps`` cancels symbolically); and the plan's case tests (exact
  comparisons in Q) are the derivation's case boundaries;
* ``certificate_plan_balls`` (VERIFIED): the class's public ``profile_enclosure`` (the plan, through
  :func:`fhsym._core.arb.enclose`, default ``rel_width`` 2^-60) contains the derived profile (or quadrature of the
  definition), evaluated at 50 digits, at points that include every case boundary of the plan and far tails, and the
  ball's relative width is within ``rel_width`` wherever delta is above the smallest subnormal.

The 50-digit references are evaluated by :func:`digits50`: mpmath at increasing working precision until two
successive values agree to 1e-55 relative (the derived forms cancel: Laplace's 1 - e^{-D/2} at D = 1e-300 needs ~350
digits).
"""

from __future__ import annotations

from typing import Any, Callable, List, Sequence, Tuple

import mpmath
import sympy as sp
from flint import ctx as fctx

from fhsym.symbolic.derivation import D, Derivation, eps

from ._harness import Outcome, proven, verified

DPS = 50
REL_WIDTH = 2.0**-60  # the default of profile_enclosure
SUBNORMAL = 5e-324
NORMAL = 2.2250738585072014e-308  # below it the float ends are subnormals, coarser than 1 ulp of a normal


def digits50(fn: Callable[[], Any]) -> mpmath.mpf:
    """``fn()`` (an mpmath computation at the current precision) to 50 digits: working precision 60, 120, ... digits
    until two successive values agree to 1e-55 relative; an exact 0 only when it persists to 960 digits (a
    difference that cancels to 0 at low precision is not a zero)."""
    prev = None
    dps = DPS + 10
    while dps <= 2400:
        with mpmath.workdps(dps):
            val = fn()
        val = mpmath.mpf(val)
        if val == 0 and prev == 0 and dps >= 960:
            return val
        if prev is not None and val != 0 and abs(val - prev) <= abs(val) * mpmath.mpf(10) ** -(DPS + 5):
            return val
        prev = val
        dps *= 2
    raise ArithmeticError("the reference did not settle by 2400 digits")


def _F(sf: Callable[[Any], Any], v: Any) -> Any:
    """F(v) of a symmetric law on R from its sf on [0, oo): sf(-v) below 0, 1 - sf(v) above (derived_crossing_profile
    serves one-piece laws on R only; the truncated Laplace's reference is proofs/shipped_truncated_laplace.py's)."""
    return sf(-v) if v < 0 else 1 - sf(v)


def derived_crossing_profile(dv: Derivation) -> Callable[..., Any]:
    """delta(eps, D, *shapes) = F(y*) - e^eps F(y* - D) at the first derived crossing y* that lies in its own region (the
    derivation's ``crossings``; a one-piece law on R), 0 when eps >= the derived sup of the loss; standard units,
    mpmath at the caller's precision."""
    sym = dv.decl.shape_symbols
    sf = sp.lambdify((dv.t, *sym), dv.sf[0], "mpmath")
    sup = sp.lambdify((D, *sym), dv.loss_sup, "mpmath")
    roots = [(what, sp.lambdify((D, eps, *sym), r, "mpmath")) for what, r in dv.crossings]

    def delta(e: Any, d: Any, *shapes: Any) -> Any:
        e, d = mpmath.mpf(e), mpmath.mpf(d)
        sh = [mpmath.mpf(s) for s in shapes]
        if dv.loss_sup != sp.oo and e >= sup(d, *sh):
            return mpmath.mpf(0)
        for what, root in roots:
            y = root(d, e, *sh)
            inside = y < 0 if what.startswith("y < 0") else (0 <= y < d if what.startswith("0 <= y") else y >= d)
            if inside:
                return _F(lambda v: sf(v, *sh), y) - mpmath.exp(e) * _F(lambda v: sf(v, *sh), y - d)
        raise ArithmeticError(f"no derived crossing in its region at eps = {e}, D = {d}")

    return delta


# --------------------------------------------------------------------------------------------- PROVEN: the identities
_u = sp.Symbol("u", real=True)


def _mills_definition(v: sp.Expr) -> sp.Expr:
    """R(v) = e^{v^2/2} int_v^oo e^{-u^2/2} du, the Mills ratio (fhsym._core.arb.core.mills encloses it)."""
    return sp.exp(v**2 / 2) * sp.Integral(sp.exp(-_u**2 / 2), (_u, v, sp.oo))


def _mills(v: sp.Expr) -> sp.Expr:
    """R(v) in closed form, sqrt(pi/2) e^{v^2/2} erfc(v/sqrt 2) (equal to the definition: a step of osgt_identity)."""
    return sp.sqrt(sp.pi / 2) * sp.exp(v**2 / 2) * sp.erfc(v / sp.sqrt(2))


def _strip(theta: sp.Expr, w: sp.Expr) -> sp.Expr:
    """G(theta, w) = e^{theta^2/2} int_theta^{theta + w} e^{-u^2/2} du (fhsym._core.arb.core.gauss_strip)."""
    return sp.exp(theta**2 / 2) * sp.Integral(sp.exp(-_u**2 / 2), (_u, theta, theta + w))


def _zero(e: sp.Expr) -> bool:
    """SymPy closes ``e`` to 0: the integrals done, erf/erfc written as erfc, then simplify (or simplify of the
    expanded form with the exponentials' products combined, or expanded once more).  False when none closes it."""
    z = e.doit().rewrite(sp.erfc)
    if sp.simplify(z) == 0:
        return True
    if sp.simplify(sp.powsimp(sp.expand(z), combine="exp")) == 0:
        return True
    return bool(sp.simplify(sp.expand(sp.powsimp(sp.expand(z)))) == 0)


def osgt_identity(dv: Derivation, theta: sp.Expr) -> Outcome:
    """OSGT (theta the shape symbol) or the Gaussian (theta = 0): ``fhsym/noise/plans/osgt.py``'s osgt_plan/osgt_eval
    in units of varrho (S = D) against the derivation's crossing profile."""
    S = D
    y = sp.Symbol("y", nonnegative=True)
    sf = lambda v: dv.sf[0].subs(dv.t, v)  # noqa: E731
    switch = S * (S + 2 * theta) / 2  # the plan's case test: eps <= S(S + 2 theta)/2

    def plan(t1: sp.Expr, negative: bool) -> sp.Expr:  # osgt_eval, term by term
        ax = -t1 if negative else t1
        total = sp.exp(-ax * (ax + 2 * theta) / 2) * (_mills(ax + theta) - _mills(t1 + S + theta)) / (2 * _mills(theta))
        if negative:
            total += _strip(theta, ax) / _mills(theta)
        return total

    steps: List[str] = []
    ok = True
    th = sp.Symbol("theta_", positive=True)
    w = sp.Symbol("w", positive=True)
    for what, e in (("R(v) closed form - the definition e^{v^2/2} int_v^oo e^{-u^2/2} du", _mills(th)
                     - _mills_definition(th)),
                    ("G(theta, w) - e^{theta^2/2} sqrt(pi/2) (erf((theta + w)/sqrt 2) - erf(theta/sqrt 2)) (erf form)",
                     _strip(th, w) - sp.exp(th**2 / 2) * sp.sqrt(sp.pi / 2) * (sp.erf((th + w) / sp.sqrt(2))
                                                                              - sp.erf(th / sp.sqrt(2)))),
                    ("G(theta, w) - (R(theta) - e^{-w(w + 2 theta)/2} R(theta + w)) (Mills form)",
                     _strip(th, w) - (_mills(th) - sp.exp(-w * (w + 2 * th) / 2) * _mills(th + w)))):
        z = _zero(e)
        ok &= z
        steps.append(f"- {what} = 0 (v, theta, w > 0; both sides continuous at 0): {z}")
    cases = (("first case (eps <= S(S + 2 theta)/2): t1 = eps/(S + 2 theta) - S/2 <= 0", "0 <= y < D",
              eps / (S + 2 * theta) - S / 2, True, y),
             ("second case (eps > S(S + 2 theta)/2): t1 = (eps - S^2/2)/S - theta > 0", "y < 0",
              (eps - S * S / 2) / S - theta, False, -y))
    for label, region, t1, negative, ystar in cases:
        root = next(r for k, r in dv.crossings if k.startswith(region))
        z1 = sp.simplify(t1 + root) == 0
        z2 = sp.simplify(root.subs(eps, switch)) == 0
        slope = sp.diff(root, eps)
        z3 = bool(sp.simplify(slope).is_negative)
        e_y = sp.solve(sp.Eq(root, ystar), eps)[0]  # eps through the crossing y* = ystar
        derived = (1 - sf(ystar)) if negative else sf(-ystar)  # F(y*): y* >= 0 in the first case, < 0 in the second
        derived = derived - sp.exp(eps) * sf(D - ystar)  # F(y* - D) = sf(D - y*), y* - D < 0 in both
        z4 = _zero(plan(t1, negative).subs(eps, e_y) - derived.subs(eps, e_y))
        ok &= z1 and z2 and z3 and z4
        steps.append(f"- {label}: the plan's t1 = -y* with the derived crossing y* = {root} of region '{region}': "
                     f"{z1}; y* = 0 at the plan's switch eps = {switch}: {z2}; dy*/deps = {sp.simplify(slope)} < 0 "
                     f"(so the region holds on the plan's side of the switch): {z3}; the plan's formula - "
                     f"(F(y*) - e^eps F(y* - D)) with the derived sf, eps written through y*: 0: {z4}")
    return proven(ok, "SymPy: osgt_eval transcribed (R, G by their integrals) = the derived crossing profile in both "
                      "of the plan's cases; its case switch = the derivation's region boundary", steps)


def laplace_identity(dv: Derivation) -> Outcome:
    """``fhsym/noise/plans/laplace.py``: -expm1((eps - s)/2) for eps < s, exactly 0 for eps >= s (s = D)."""
    y = sp.Symbol("y", nonnegative=True)
    sf = lambda v: dv.sf[0].subs(dv.t, v)  # noqa: E731
    root = next(r for k, r in dv.crossings if k.startswith("0 <= y"))
    e_y = sp.solve(sp.Eq(root, y), eps)[0]
    derived = (1 - sf(y)) - sp.exp(eps) * sf(D - y)
    plan = 1 - sp.exp((eps - D) / 2)  # -expm1(z) = 1 - e^z
    z1 = _zero((plan - derived).subs(eps, e_y))
    z2 = sp.simplify(dv.loss_sup - D) == 0
    z3 = sp.simplify(root.subs(eps, D)) == 0 and plan.subs(eps, D) == 0
    steps = [f"- derived crossing y* = {root} (region 0 <= y < D, i.e. -D < eps <= D); with eps = {e_y}: "
             f"-expm1((eps - D)/2) - (F(y*) - e^eps F(y* - D)) = 0: {z1}",
             f"- the plan's zero case eps >= s: the derived sup of the loss is {dv.loss_sup} = D (eps >= sup: no "
             f"crossing, delta = 0): {z2}",
             f"- at eps = D the crossing is y* = 0 and the plan's form is 0 (the cases meet): {z3}"]
    return proven(z1 and z2 and z3, "SymPy: laplace_eval's form = the derived crossing profile; its zero case = "
                                    "eps >= the derived sup of the loss", steps)


def tl_identity(dv: Derivation, a: sp.Symbol) -> Outcome:
    """``fhsym/noise/plans/truncated_laplace.py`` (units of lambda: a = A/lambda, s = Delta/lambda = a D, D = Delta/A)
    against the derived bounded-support profile F(y*) - e^eps F(y* - D), y* = min(max(y_c, D - 1), 1)."""
    y = sp.Symbol("y", positive=True)
    sf = lambda v: dv.sf[0].subs(dv.t, v)  # noqa: E731
    yc = next(r for _, r in dv.crossings)
    s = a * D
    x = a - s

    def plan(x_nonneg: bool, eps_lt_s: bool, t0_lt_u: bool) -> sp.Expr:  # tl_eval, term by term (the plan decides
        n2 = 2 * (1 - sp.exp(-a))                                          # each flag by an exact comparison)
        if x_nonneg:
            total, u = sp.exp(-x) * (1 - sp.exp(-s)) / n2, sp.Integer(0)
        else:
            total, u = sp.Rational(1, 2) + (1 - sp.exp(x)) / n2, x
        if eps_lt_s:
            t0 = (eps - s) / 2
            if t0_lt_u:
                g = 1 - sp.exp(-(u - t0))
                total += sp.exp(u) * g * g / n2
            if x_nonneg:  # the plan adds it for x > 0; at x = 0 it is 0
                total += (1 - sp.exp(-x)) * (1 - sp.exp(eps - s)) / n2
        return total

    e_y = sp.solve(sp.Eq(yc, y), eps)[0]
    inner = (1 - sf(y)) - sp.exp(eps) * sf(D - y)  # y* = y_c in (0, D/2]: F(y*) = 1 - sf(y*), F(y* - D) = sf(D - y*)
    cases = (("D <= 1 (x >= 0), eps < s: y* = y_c > 0", plan(True, True, True).subs(eps, e_y), inner.subs(eps, e_y)),
             ("D <= 1, eps >= s: y* = D - 1 <= 0, F(y* - D) = F(-1) = 0", plan(True, False, False), sf(1 - D)),
             ("1 < D < 2 (x < 0), y_c > D - 1 (t0 < u): y* = y_c", plan(False, True, True).subs(eps, e_y),
              inner.subs(eps, e_y)),
             ("1 < D < 2, eps < s, y_c <= D - 1 (t0 >= u): y* = D - 1 > 0", plan(False, True, False), 1 - sf(D - 1)),
             ("1 < D < 2, eps >= s: y* = D - 1", plan(False, False, False), 1 - sf(D - 1)))
    steps, ok = [], True
    for label, p, der in cases:
        z = _zero(p - der)
        ok &= z
        steps.append(f"- {label}: the plan's formula - (F(y*) - e^eps F(y* - D)) with the derived sf = 0: {z}")
    t0 = (eps - s) / 2
    flags = ((f"x = a - s = a (1 - D): x >= 0 iff D <= 1", sp.simplify(x - a * (1 - D)) == 0),
             (f"t0 = (eps - s)/2 = -a y_c (y_c = {yc}): eps < s iff y_c > 0, and t0 < u = -a max(0, D - 1) iff "
              f"y_c > max(0, D - 1), where the derived clamp y* = min(max(y_c, D - 1), 1) is y_c",
              sp.simplify(t0 + a * yc) == 0),
             ("the plan's 'one' case s >= 2a iff D >= 2 (disjoint supports: delta = 1 in the derivation)",
              sp.simplify(s / a - D) == 0))
    for label, z in flags:
        ok &= z
        steps.append(f"- {label}: {z}")
    return proven(ok, "SymPy: tl_eval transcribed = the derived bounded-support profile in each of the plan's cases; "
                      "its case tests = the derivation's clamp of y*", steps)


# ------------------------------------------------------------------------------------------ VERIFIED: the balls
Case = Tuple[Any, float, float, Callable[[], Any], str]  # (noise, eps, Delta, the 50-digit reference (thunk), label)


def _ball_width(enc: Any) -> Any:
    """(upper - lower)/lower of the enclosure's ball (re-parsed at its precision); 0 for an exact ball."""
    with fctx.workprec(enc.prec):
        x = enc.as_arb()
        lo, hi = x.lower(), x.upper()
        if lo == hi:
            return mpmath.mpf(0)
        if not lo > 0:
            return mpmath.inf
        return mpmath.mpf(((hi - lo) / lo).upper().str(5, radius=False))


def _ball_ends(enc: Any) -> Tuple[Any, Any]:
    """The ends of the enclosure's ball (not its float ends) at 80 digits; the float ends where the enclosure stopped
    below the smallest subnormal (no ball kept)."""
    if (enc.lower, enc.upper) == (0.0, SUBNORMAL):
        return mpmath.mpf(enc.lower), mpmath.mpf(enc.upper)
    x = enc.as_arb()
    with mpmath.workdps(90), fctx.workprec(max(enc.prec, 53) + 64):  # the ends at the ball's precision, not flint's 53 bits
        return (mpmath.mpf(x.lower().str(80, radius=False)), mpmath.mpf(x.upper().str(80, radius=False)))


def balls_outcome(cases: Sequence[Case], where: str) -> Outcome:
    """Every case's ``profile_enclosure`` contains its 50-digit reference; balls within REL_WIDTH above subnormal."""
    bad, near, worst_w, worst_f, n, tails = [], [], mpmath.mpf(0), mpmath.mpf(0), 0, 0
    for noise, e, d, ref_fn, label in cases:
        ref = ref_fn()
        enc = noise.profile_enclosure(e, d)
        n += 1
        tol = abs(ref) * mpmath.mpf(10) ** -45  # the reference's own error (50 digits)
        lo, hi = mpmath.mpf(enc.lower), mpmath.mpf(enc.upper)  # the float ends (outward-rounded)
        blo, bhi = _ball_ends(enc)  # the ball itself: a plan off by more than its width fails here, not at 2^-54
        if not blo - tol <= ref <= bhi + tol:
            bad.append(f"{label}: {noise} eps = {e!r}, Delta = {d!r}: [{enc.lower!r}, {enc.upper!r}] vs "
                       f"{mpmath.nstr(ref, 20)}")
        elif not blo <= ref <= bhi:
            near.append(f"{label}: within the reference's 1e-45 only")
        if 0 < ref < 1e-290:
            tails += 1
        if (enc.lower, enc.upper) != (0.0, SUBNORMAL) and ref > 0:  # enclose stops below the smallest subnormal
            wb = _ball_width(enc)
            worst_w = max(worst_w, wb)
            if ref >= NORMAL:
                worst_f = max(worst_f, (hi - lo) / ref)
            if wb > REL_WIDTH:
                bad.append(f"{label}: ball relative width {mpmath.nstr(wb, 3)} > 2^-60")
    steps = [f"- {n} points ({where}); {tails} with delta below 1e-290: every ball contains the reference: "
             f"{not any('width' not in b for b in bad)}; worst ball relative width {mpmath.nstr(worst_w, 3)} "
             f"(requested 2^-60 = {REL_WIDTH:.2e}); worst float-end width {mpmath.nstr(worst_f, 3)} relative (delta in "
             f"the normal floats)"]
    steps += [f"  - {b}" for b in bad] + [f"  - {x}" for x in near]
    return verified(not bad and n >= 1, "profile_enclosure's ball (the plan through fhsym._core.arb.enclose, rel_width "
                    "2^-60) contains the derived profile at 50 digits; ball width <= 2^-60 relative above the smallest "
                    "subnormal", n, "50 digits", f"0 outside; ball width {mpmath.nstr(worst_w, 2)}", evidence=steps)


# ------------------------------------------------------------------------------------------ the points per law
def _switch(S: float, theta_num: float, theta_den: float) -> float:
    """The float nearest the OSGT switch eps = S(S + 2 theta)/2, S = Delta/varrho, theta = vartheta/varrho (exact)."""
    from fractions import Fraction

    s, th = Fraction(S) / Fraction(theta_den), Fraction(theta_num) / Fraction(theta_den)
    return float(s * (s + 2 * th) / 2)


def gaussian_cases(ctx: Any, dv: Derivation) -> List[Case]:
    """sigma, eps, Delta: the switch eps = Delta^2/(2 sigma^2) (t1 = 0) and its float neighbours, t1 = -Delta/2
    (eps = 0), S = Delta/sigma from 1e-3 to 100, delta near 1e-300 (eps 37.4 at S = 1) and below the subnormals."""
    import math

    import fhsym

    prof = derived_crossing_profile(dv)
    fixed = [(1.0, 0.0, 1.0), (1.0, 0.5, 1.0), (1.0, math.nextafter(0.5, 0.0), 1.0), (1.0, math.nextafter(0.5, 1.0), 1.0),
             (2.0, 0.125, 1.0), (1.0, 1.0, 1.0), (1.0, 3.0, 1.0), (1.0, 10.0, 1.0), (1.0, 37.4, 1.0), (1.0, 40.0, 1.0),
             (1e3, 1e-3, 1.0), (1e3, 0.0, 1.0), (0.01, 5.0, 1.0), (4.224678889326917, 1.0, 1.0), (0.3, 2.0, 0.7)]
    r = ctx.rng("gaussian plan points")
    rand = [(float(10 ** r.uniform(-1, 1)), float(r.uniform(0, 10)), 1.0) for _ in range(ctx.n(20, 4))]
    return [(fhsym.Gaussian(sg), e, d, (lambda sg=sg, e=e, d=d: digits50(lambda: prof(e, mpmath.mpf(d) / mpmath.mpf(sg)))),
             f"sigma = {sg:g}") for sg, e, d in fixed + rand]


def laplace_cases(ctx: Any, dv: Derivation) -> List[Case]:
    """beta, eps, Delta: the boundary eps = s = Delta/beta (exactly 0) and its float neighbour below, eps = 0,
    s = 1e-300 and 1e-310 (delta ~ s/2), s = 1000 (delta ~ 1)."""
    import math

    import fhsym

    prof = derived_crossing_profile(dv)
    fixed = [(1.0, 0.0, 1.0), (1.0, 0.5, 1.0), (1.0, math.nextafter(1.0, 0.0), 1.0), (1.0, 1.0, 1.0), (1.0, 2.0, 1.0),
             (1.0, 0.0, 1e-300), (1.0, 0.0, 1e-310), (1.0, 5e-301, 1e-300), (1e-3, 5.0, 1.0), (3.0, 0.1, 1.0),
             (3.0, 1.0 / 3.0, 1.0), (0.5, math.nextafter(2.0, 0.0), 1.0)]
    r = ctx.rng("laplace plan points")
    rand = []
    for _ in range(ctx.n(20, 4)):
        b = float(10 ** r.uniform(-1, 1))
        rand.append((b, float(r.uniform(0, 1.2 / b)), 1.0))
    return [(fhsym.Laplace(b), e, d, (lambda b=b, e=e, d=d: digits50(lambda: prof(e, mpmath.mpf(d) / mpmath.mpf(b)))), f"beta = {b:g}")
            for b, e, d in fixed + rand]


def osgt_cases(ctx: Any, dv: Derivation) -> List[Case]:
    """vartheta, varrho, eps, Delta: the switch eps = S(S + 2 theta)/2 (nearest float and neighbours) at theta = 1,
    1/8, 1e-3 and the calibrated (183942.39, 428.89) (switch ~ 1), eps = 0, delta near 1e-300 (eps 37.4 at
    theta = S = 1) and below the subnormals."""
    import math

    import fhsym

    prof = derived_crossing_profile(dv)
    big = (183942.38784311805, 428.88680069089565)
    fixed = []
    for vt, vr, d in ((1.0, 1.0, 1.0), (0.5, 4.0, 2.0), (1e-3, 1.0, 1.0), (big[0], big[1], 1.0)):
        sw = _switch(d, vt, vr)
        fixed += [(vt, vr, sw, d), (vt, vr, math.nextafter(sw, 0.0), d), (vt, vr, math.nextafter(sw, math.inf), d)]
    fixed += [(1.0, 1.0, 0.0, 1.0), (1.0, 1.0, 10.0, 1.0), (1.0, 1.0, 37.4, 1.0), (1.0, 1.0, 40.0, 1.0),
              (big[0], big[1], 0.5, 1.0), (0.0, 1.0, 0.5, 1.0), (20.0, 0.5, 3.0, 1.0)]
    r = ctx.rng("osgt plan points")
    rand = [(float(10 ** r.uniform(-3, 4)), 1.0, float(r.uniform(0, 10)), 1.0) for _ in range(ctx.n(16, 4))]

    def ref(vt: float, vr: float, e: float, d: float) -> Any:  # standard units: D = Delta/varrho, theta = vartheta/varrho
        return prof(e, mpmath.mpf(d) / mpmath.mpf(vr), mpmath.mpf(vt) / mpmath.mpf(vr))

    return [(fhsym.OSGT(vt, vr), e, d, (lambda vt=vt, vr=vr, e=e, d=d: digits50(lambda: ref(vt, vr, e, d))), f"theta = {vt / vr:g}")
            for vt, vr, e, d in fixed + rand]


def flipped_huber_cases(ctx: Any, decl: Any, d: Any) -> List[Case]:
    """alpha, gamma, eps, Delta: eps = L(p) at each point p of the plan's P = {-b - D, -D, b - D, -b, 0, b} (every
    Table I case boundary, the flat stretch eps = b D of the kink among them) with its float neighbours, eps = 0, b
    from 1e-2 to 30, D from 1e-3 to 10, gamma != 1, delta near 1e-300 and below the subnormals: reference F(t1) -
    e^eps F(t1 + D) with F from the declaration's derived sf (``derive_basics``, units of alpha, c = b^2) and t1 the
    crossing of the definition's loss r(s + D) - r(s) = eps (eq 7; bisection at the working precision); ``d`` the
    declaration's ``derive_basics``."""
    import math
    from fractions import Fraction

    import fhsym

    c_ = decl.shape_symbols[0]
    sf = [sp.lambdify((decl.t, c_), s, "mpmath") for s in d.sf]

    def profile(b: Any, D_: Any, e: Any) -> Any:
        """delta in standard units (gamma = 1) at the caller's precision."""
        c = b * b

        def U(x: Any) -> Any:  # P(T > x), T in units of alpha from the derived sf pieces
            u = abs(x) / b
            s = sf[0](u, c) if u < 1 else sf[1](u, c)
            return s if x >= 0 else 1 - s

        def r(x: Any) -> Any:  # eq 7 at gamma = 1
            ax = abs(x)
            return b * ax if ax <= b else (x * x + b * b) / 2

        L = lambda s: r(s + D_) - r(s)  # noqa: E731 - non-decreasing (h log-concave)
        lo, hi = -(abs(e) / D_ + D_ + b + 1), abs(e) / D_ + D_ + b + 1
        for _ in range(mpmath.mp.prec + 20):  # L(lo) <= eps < L(hi): the flat stretch L = eps gives one value of F
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if L(mid) <= e else (lo, mid)
        return U(hi) - mpmath.exp(e) * U(hi + D_)

    def boundaries(b: float, D_: float) -> List[float]:
        bq, dq = Fraction(b), Fraction(D_)
        r = lambda x: bq * abs(x) if abs(x) <= bq else (x * x + bq * bq) / 2  # noqa: E731
        out = []
        for p in (-bq - dq, -dq, bq - dq, -bq, Fraction(0), bq):
            e = float(r(p + dq) - r(p))
            if e >= 0:
                out += [e, math.nextafter(e, 0.0), math.nextafter(e, math.inf)]
        return sorted(set(x for x in out if x >= 0))

    rows = []
    for a, g, D_ in ((1.0, 1.0, 1.0), (0.25, 1.0, 1.0), (1.0, 1.0, 0.125), (3.0, 1.0, 0.5), (0.01, 1.0, 1.0),
                     (30.0, 1.0, 2.0), (0.5, 0.5, 0.25), (1.0, 1.0, 1e-3), (0.3, 1.0, 10.0)):
        pts = boundaries(a / g, D_ / g)
        rows += [(a, g, e, D_) for e in pts[:ctx.n(len(pts), 2)]]
    rows += [(1.0, 1.0, 0.0, 1.0), (1.0, 1.0, 37.0, 1.0), (1.0, 1.0, 40.0, 1.0), (0.5, 1.0, 700.0, 1.0)]
    g_ = ctx.rng("flipped huber plan points")
    rows += [(float(10 ** g_.uniform(-2, 1.5)), 1.0, float(g_.uniform(0, 8)), float(10 ** g_.uniform(-1, 0.7)))
             for _ in range(ctx.n(12, 3))]

    def ref(a: float, g: float, e: float, D_: float) -> Any:
        return profile(mpmath.mpf(a) / mpmath.mpf(g), mpmath.mpf(D_) / mpmath.mpf(g), mpmath.mpf(e))

    return [(fhsym.FlippedHuber(a, g), e, D_, (lambda a=a, g=g, e=e, D_=D_: digits50(lambda: ref(a, g, e, D_))),
             f"b = {a / g:g}, D = {D_ / g:g}") for a, g, e, D_ in rows]


def fh_identity(d: Any, decl: Any) -> Outcome:
    """``fhsym/noise/plans/flipped_huber.py``: fh_eval's formula (V, H, R, G by their definitions), with x = |t1| and
    y = t2 = t1 + D (y - x = D for t1 >= 0, 2 t1 + D for t1 < 0), against F(t1) - e^eps F(t2) with the declaration's
    derived sf (units of alpha, c = b^2) and eps = r(t2) - r(t1), in each branch case the plan decides (t1 < 0 or not;
    |t1| <= b; t2 <= b); fh_plan's piece coefficients A s^2 + B s + C = r(s + D) - r(s) on every branch pair; and,
    exactly at rational (b, D), the package's pieces and exact crossings (``d``: the declaration's derive_basics)."""
    from fractions import Fraction

    from flint import fmpq

    from fhsym.noise.plans.flipped_huber import fh_geometry, fh_plan

    c = decl.shape_symbols[0]
    b, x, y, s, Dd = sp.symbols("b x y s D", positive=True)
    R = _mills
    ex = 1 / b - R(b)  # mills_excess(b)
    hb = (1 - sp.exp(-b**2)) / b
    Z = 2 * (hb + sp.exp(-b**2) * R(b))

    def sf(v: Any, lin: bool) -> Any:  # the derived sf at v >= 0, the piece u = v/b < 1 where lin
        return d.sf[0 if lin else 1].subs({decl.t: v / b, c: b**2})

    def r(v: Any, lin: bool) -> Any:  # eq 7 at v >= 0 (r is even)
        return b * v if lin else (v**2 + b**2) / 2

    def vdiff(xl: bool, yl: bool) -> Any:  # _vdiff transcribed, w = y - x
        if xl and yl:
            return ex * sp.exp(-b * (b - y)) * (1 - sp.exp(-b * (y - x)))
        if xl:
            return ex * (1 - sp.exp(-b * (b - x))) + R(b) - R(y)
        return R(x) - R(y)

    steps, ok = [], True
    for neg in (True, False):
        for xl, yl in ((True, True), (True, False), (False, False)):  # |t1| > b >= t2 cannot occur: t2 >= |t1|
            total = sp.exp(-r(x, xl)) * vdiff(xl, yl)
            if neg:
                total += 2 * ((1 - sp.exp(-b * x)) / b if xl else hb + sp.exp(-b**2) * _strip(b, x - b))
            derived = ((1 - sf(x, xl)) if neg else sf(x, xl)) - sp.exp(r(y, yl) - r(x, xl)) * sf(y, yl)
            z = _zero(total / Z - derived)
            ok &= z
            steps.append(f"- t1 {'< 0' if neg else '>= 0'}, |t1| {'<=' if xl else '>'} b, t2 {'<=' if yl else '>'} b: "
                         f"fh_eval's formula - (F(t1) - e^eps F(t2)) = 0: {z}")
    branches = {"s > b": (sp.Rational(1, 2), 0, b**2 / 2), "0 < s <= b": (0, b, 0), "-b <= s <= 0": (0, -b, 0),
                "s < -b": (sp.Rational(1, 2), 0, b**2 / 2)}  # _branch: r(s) = a s^2 + beta s + c on the branch
    coef_ok = True
    for (a0, b0, c0) in branches.values():
        for (a1, b1, c1) in branches.values():
            A, B, C = a1 - a0, 2 * a1 * Dd + b1 - b0, a1 * Dd**2 + b1 * Dd + c1 - c0  # _Piece's coefficients
            coef_ok &= sp.expand(a1 * (s + Dd)**2 + b1 * (s + Dd) + c1 - (a0 * s**2 + b0 * s + c0) - (A * s**2 + B * s + C)) == 0
    ok &= coef_ok
    steps.append(f"- _Piece's A, B, C (a1 - a0, 2 a1 D + b1 - b0, a1 D^2 + b1 D + c1 - c0) = the expansion of "
                 f"r(s + D) - r(s) for every pair of _branch's branches: {coef_ok}")
    bad, n = [], 0
    for bq, dq in ((Fraction(1), Fraction(1)), (Fraction(1, 4), Fraction(1)), (Fraction(3), Fraction(1, 2)),
                   (Fraction(1, 2), Fraction(2)), (Fraction(7, 3), Fraction(5, 2)), (Fraction(0), Fraction(1))):
        def L(v: Fraction) -> Fraction:
            rr = lambda u: bq * abs(u) if abs(u) <= bq else (u * u + bq * bq) / 2  # noqa: E731
            return rr(v + dq) - rr(v)
        geo = fh_geometry(fmpq(bq.numerator, bq.denominator), fmpq(dq.numerator, dq.denominator))
        pts = [Fraction(int(p.p), int(p.q)) for p in geo.pts]
        for e in sorted({L(p) for p in pts} | {L(p) + Fraction(1, 7) for p in pts} | {Fraction(0)}):
            if e < 0:
                continue
            pl = fh_plan(fmpq(e.numerator, e.denominator), geo.b, geo.D)
            n += 1
            if pl.t1 is not None:
                t1 = Fraction(int(pl.t1.p), int(pl.t1.q))
                good = L(t1) == e and (pl.neg, pl.x_lin, pl.y_lin) == (t1 < 0, bq > 0 and abs(t1) <= bq,
                                                                      bq > 0 and t1 + dq <= bq)
            else:
                A, B, C, lo, hi = (Fraction(int(v.p), int(v.q)) for v in pl.quad)
                mid = (lo + hi) / 2
                good = all(A * v * v + B * v + C == L(v) for v in (lo, mid, hi)) and L(lo) < e < L(hi)
            if not good:
                bad.append(f"b = {bq}, D = {dq}, eps = {e}")
    ok &= not bad
    steps.append(f"- fh_plan at {n} rational (b, D, eps) (eps at the loss of each point of P and 1/7 above it, b = 0 "
                 f"among them): an exact crossing t1 has L(t1) = eps and the branch flags of t1; a quadratic piece's "
                 f"A s^2 + B s + C = L(s) at its ends and midpoint, with L(lo) < eps < L(hi): {not bad}")
    steps += [f"  - {x_}" for x_ in bad]
    return proven(ok, "SymPy: fh_eval transcribed = the profile from the declaration's derived sf in each of its six "
                      "branch cases; the piece coefficients = r(s + D) - r(s); fh_plan's crossings exact at rational "
                      "points", steps)
