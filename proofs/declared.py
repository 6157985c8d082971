"""Declared noise laws (issue 28): one report section per law declared in ``docs/examples/*_law.py``.

Each module there declares a law with :class:`fhsym.Declaration` (and registers it with
:func:`fhsym.declare_law`); this module registers, for each, a topic ``declared_<stem>`` whose checks
show that every derived formula follows from the declared density:

* facts (symmetric, log-concave): the status :func:`fhsym.symbolic.declaration.prove_facts` gives;
* sf: PROVEN when SymPy shows d sf_k/dt = -g_k/Z on every piece, sf continuous at the joins,
  sf(0) = 1/2 and sf(oo) = 0 (so g/Z is normalised and sf is its tail);
* the float rewrite of log sf, the inverse (isf) and the crossing roots: PROVEN by SymPy where it
  closes ``exp(stable) - sf``, ``sf(isf(q)) - q``, ``loss(root) - eps``, else VERIFIED at 50 digits;
* variance, Fisher information, entropy (closed form or the numerics' quadrature) and the certified
  profile enclosure: VERIFIED against mpmath quadrature of the declared density (50 digits);
* a declared law that has a hand-written twin in fhsym (``TWIN`` in its module: the class, or for a law with a
  shape a function ``TWIN(scale, shape)`` giving the hand-written member; ``TWIN_SHAPES`` the shapes compared):
  CROSS-CHECK of logpdf, sf, isf, var and the float profile against it.

A law with a shape parameter is checked at shapes drawn from its typical range (the numeric steps) and, where SymPy
closes an identity, for every shape.
"""

from __future__ import annotations

import ast
import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

import mpmath
import numpy as np
import sympy as sp

from fhsym.noise import NOISE_CLASSES
from fhsym.symbolic.derivation import D, eps, q, y

from ._harness import Context, Outcome, Topic, cross_check, proven, verified

#: the declared example laws: docs/examples in a checkout, examples/ beside this module in the wheel (fhsym._proofs)
EXAMPLES = next((p for p in (Path(__file__).resolve().parent / "examples",
                             Path(__file__).resolve().parent.parent / "docs" / "examples") if p.is_dir()),
                Path(__file__).resolve().parent.parent / "docs" / "examples")
DPS = 50


def _load(path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(f"proofs_declared_{path.stem}", path)
    mod = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(mod)  # type: ignore[union-attr]
    return mod


class _Quad:
    """50-digit mpmath quadrature of the declared density (scale 1, the given shapes) -- the independent reference."""

    def __init__(self, decl: Any, shapes: Any = ()) -> None:
        self.decl = decl
        sub = dict(zip(decl.shape_symbols, (sp.Float(str(v), DPS) for v in shapes)))
        self.fns = [sp.lambdify(decl.t, g.subs(sub), "mpmath") for g, _ in decl.pieces]
        # d/dt log g_k: SymPy's derivative of the declared piece (exact; mpmath.diff of log g took half the time of
        # the Fisher quadrature, to fewer digits)
        self.dlogs = {f: sp.lambdify(decl.t, sp.diff(sp.log(g.subs(sub)), decl.t), "mpmath")
                      for f, (g, _) in zip(self.fns, decl.pieces)}
        self.edges = [(mpmath.mpf(float(a)), mpmath.inf if b is sp.oo else mpmath.mpf(float(b))) for _, (a, b) in decl.pieces]
        with mpmath.workdps(DPS + 10):
            self.Z = 2 * self.integral(lambda v, g: g(v), 0)

    def g(self, v: Any) -> Any:
        v = abs(v)
        for f, (a, b) in zip(self.fns, self.edges):
            if v < b:
                return f(v)
        return self.fns[-1](v)  # pragma: no cover

    def integral(self, h: Callable[[Any, Any], Any], lo: Any) -> Any:
        """int_lo^oo h(v, g_k) over the pieces (lo >= 0)."""
        total = mpmath.mpf(0)
        for f, (a, b) in zip(self.fns, self.edges):
            if b <= lo:
                continue
            a = max(a, lo)
            # breakpoints down to 1e-4: a law concentrated near 0 (OSGT at theta = 2e3 has width 1/theta) is resolved
            pts = [a + k for k in (0, 1e-4, 1e-3, 1e-2, 0.1, 1, 4, 16, 64)] + [b] if b == mpmath.inf else [a, b]
            c = h(a, f) or f(a) or mpmath.mpf(1)  # mpmath's tolerance is absolute: scale far tails to O(1)
            total += c * mpmath.quad(lambda v: h(v, f) / c, pts)
        return total

    def sf(self, v: Any) -> Any:
        return self.integral(lambda u, g: g(u), v) / self.Z

    def F(self, v: Any) -> Any:
        return self.sf(-v) if v <= 0 else 1 - self.sf(v)

    def profile(self, e: Any, d: Any) -> Any:
        """sup_y [F(y) - e^eps F(y - d)] at the root of log g(y)/g(y - d) = eps (or 0 beyond sup loss)."""
        gap = lambda v: mpmath.log(self.g(v)) - mpmath.log(self.g(v - d)) - e  # noqa: E731
        hi, lo = d / 2, d / 2 - 1
        while gap(lo) < 0 and lo > -1e4:
            lo = d / 2 - 2 * (d / 2 - lo)
        if gap(lo) < 0:
            return mpmath.mpf(0)
        ys = mpmath.findroot(gap, (lo, hi), solver="anderson")
        return self.F(ys) - mpmath.exp(e) * self.F(ys - d)


@dataclass(frozen=True)
class _Meta:
    """What the report and ``--list`` need of an example module, read from its source without running it: running it
    declares the law (``fhsym.declare_law``: the SymPy derivation, ~1-4 s per law), which the checks do once, in
    :func:`_law` (prepared once per parallel run, before its checks fork: ``Topic.shared``)."""

    name: str
    display_name: str
    twin: Optional[str]  # the class name of the module's TWIN (a hand-written twin: one more check), None without


def _meta(path: Path) -> Optional[_Meta]:
    """``DECLARATION = fhsym.Declaration(name="...", display_name="...", ...)`` and a top-level ``TWIN`` (``TWIN =
    fhsym.Class`` or ``def TWIN(...) -> fhsym.Class``), read by ``ast``; None when the source does not state them
    so (the module is then run at import)."""
    try:
        tree = ast.parse(path.read_text())
    except (OSError, SyntaxError, ValueError):
        return None
    kw: Dict[str, str] = {}
    twin: Optional[str] = None
    for node in tree.body:
        targets = [x.id for x in getattr(node, "targets", []) if isinstance(x, ast.Name)]
        if isinstance(node, ast.FunctionDef) and node.name == "TWIN":
            if not isinstance(node.returns, ast.Attribute):
                return None
            twin = node.returns.attr
        elif isinstance(node, ast.ClassDef) and node.name == "TWIN":
            return None
        elif "TWIN" in targets:
            if not isinstance(node, ast.Assign) or not isinstance(node.value, ast.Attribute):
                return None
            twin = node.value.attr
        if "DECLARATION" in targets and isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            kw = {k.arg: k.value.value for k in node.value.keywords
                  if k.arg and isinstance(k.value, ast.Constant) and isinstance(k.value.value, str)}
    if "name" not in kw or "display_name" not in kw:
        return None
    return _Meta(kw["name"], kw["display_name"], twin)


@dataclass(frozen=True)
class _Law:
    """The example module run: its declaration, the registered class and its derivation."""

    mod: Any
    decl: Any
    cls: Any
    dv: Any


def _law(path: Path, meta: Optional[_Meta]) -> _Law:
    """Run the example module (declare_law derives the law); a module that does not match what was read from its
    source (name, display name, TWIN) raises: every check of the topic then FAILs naming the mismatch."""
    mod = _load(path)
    decl = mod.DECLARATION
    got = _Meta(decl.name, decl.display_name, _twin_name(mod))
    if meta is not None and got != meta:
        raise ValueError(f"{path.name}: the module declares {got}, its source was read as {meta}")
    cls = NOISE_CLASSES[decl.name]
    return _Law(mod, decl, cls, cls.derivation)


def _twin_shapes(mod: Any) -> List[tuple]:
    return [(v,) for v in getattr(mod, "TWIN_SHAPES", ())] if mod.DECLARATION.shapes else [()]


def _twin_name(mod: Any) -> Optional[str]:
    """The class name of the module's hand-written twin (None without TWIN)."""
    twin = getattr(mod, "TWIN", None)
    if twin is None:
        return None
    return twin.__name__ if isinstance(twin, type) else type(twin(1.0, *_twin_shapes(mod)[0])).__name__


def _rel(a: Any, b: Any) -> Any:
    return abs(a - b) / abs(b) if b != 0 else abs(a)


def _worst(errs: List[Any]) -> str:
    return mpmath.nstr(max(errs), 2) if errs and max(errs) > 0 else "0"


def _description(law: _Law) -> str:
    decl, dv = law.decl, law.dv
    return (f"Declared in standard units: g(t) = {' ; '.join(f'{g} on [{a}, {b})' for g, (a, b) in decl.pieces)}"
            f" ({decl.source or 'no source given'}). Derived: Z = {dv.Z}, variance = {dv.variance}, "
            f"Fisher information = {dv.fisher}, entropy = {dv.entropy}, sup loss = {dv.loss_sup}. " + " ".join(dv.notes))


def _topic(path: Path) -> Topic:
    meta = _meta(path)
    eager = _law(path, None) if meta is None else None  # not readable from the source: run the module now
    if eager is not None:
        meta = _Meta(eager.decl.name, eager.decl.display_name, _twin_name(eager.mod))
    assert meta is not None
    stem = path.stem[: -len("_law")] if path.stem.endswith("_law") else path.stem
    topic = Topic(f"declared_{stem}", f"Declared law `{meta.name}` ({meta.display_name}): derived formulas vs the "
                  f"declared density (`docs/examples/{path.name}`)", order=60)
    loaded = topic.shared(lambda: eager or _law(path, meta))  # the module run and its derivation, shared by the checks
    topic.describe(lambda: _description(loaded()))
    rnd = lambda ctx, n: [mpmath.mpf(v) for v in ctx.rng("x").uniform(0.0, 12.0, n)]  # noqa: E731

    def shapes_of(ctx: Any, what: str, n: int) -> List[tuple]:
        """n shape tuples, log-uniform over the typical range (empty tuples without shapes)."""
        r = ctx.rng("shape " + what)
        return [tuple(float(np.exp(r.uniform(np.log(sh.typical[0]), np.log(sh.typical[1])))) for sh in loaded().decl.shapes)
                for _ in range(n)]

    def subs(shape: tuple) -> dict:
        return dict(zip(loaded().decl.shape_symbols, (sp.Float(str(v), DPS) for v in shape)))

    quads: dict = {}

    def quad_at(shape: tuple) -> _Quad:
        if shape not in quads:
            quads[shape] = _Quad(loaded().decl, shape)
        return quads[shape]

    def facts(ctx: Context) -> Outcome:
        dv = loaded().dv
        st = {f.name: f.status for f in dv.facts}
        steps = [f"- {f.name}: {f.status}: {f.method}" for f in dv.facts] + [f"  - {s}" for f in dv.facts for s in f.steps]
        ok = st.get("symmetric") == "PROVEN" and st.get("log-concave") in ("PROVEN", "VERIFIED")
        if st.get("log-concave") == "VERIFIED":
            return verified(ok, "50-digit points where SymPy could not decide a sign", 24, "50 digits", "0", evidence=steps)
        return proven(ok, "SymPy: psi'' >= 0 per piece, psi'(0+) >= 0, joins", steps)

    def sf_proof(ctx: Context) -> Outcome:
        decl, dv = loaded().decl, loaded().dv
        t = decl.t
        steps, ok = [], True
        for k, ((g, (a, b)), s) in enumerate(zip(decl.pieces, dv.sf)):
            d = sp.simplify(sp.diff(s, t) + g / dv.Z)
            ok &= d == 0
            steps.append(f"- piece {k}: d sf/dt + g/Z = {d}")
            if b is not sp.oo:
                j = sp.simplify(s.subs(t, b) - dv.sf[k + 1].subs(t, b))
                ok &= j == 0
                steps.append(f"- join t = {b}: jump {j}")
        s0, sinf = sp.simplify(dv.sf[0].subs(t, 0)), sp.limit(dv.sf[-1], t, sp.oo)
        ok &= s0 == sp.Rational(1, 2) and sinf == 0
        steps.append(f"- sf(0) = {s0}, sf(oo) = {sinf}")
        with mpmath.workdps(DPS + 10):
            pts = list(zip(rnd(ctx, ctx.n(8, 4)), shapes_of(ctx, "sf", ctx.n(8, 4))))
            errs = [_rel(sp.N(dv.sf[_piece(x)].subs(subs(sh)).subs(t, x), DPS), quad_at(sh).sf(x)) for x, sh in pts]
        steps.append(f"- confirmed against 50-digit quadrature at {len(errs)} points"
                     f"{' (shapes from the typical range)' if decl.shapes else ''}: worst {_worst(errs)}")
        return proven(bool(ok), "SymPy: diff(sf) = -g/Z, continuity, sf(0) = 1/2, sf(oo) = 0", steps)

    def _piece(x: Any) -> int:
        decl = loaded().decl
        for k, (_, (a, b)) in enumerate(decl.pieces):
            if b is sp.oo or x < b:
                return k
        return len(decl.pieces) - 1  # pragma: no cover

    def identities(ctx: Context) -> Outcome:
        decl, dv = loaded().decl, loaded().dv
        t = decl.t
        rows = [(f"log sf piece {k} (float rewrite)", sp.exp(st) - s, t) for k, (st, s) in enumerate(zip(dv.logsf_stable, dv.sf))]
        rows += [(f"logpdf piece {k} (float rewrite)", sp.exp(lp) - g / dv.Z, t)
                 for k, (lp, (g, _)) in enumerate(zip(dv.logpdf, decl.pieces)) if lp.has(sp.Function)]
        rows += [(f"isf piece {k}", dv.sf[k].subs(t, inv) - q, q) for k, inv in enumerate(dv.isf) if inv is not None]
        for what, root in dv.crossings:
            region = (y < 0) if what.startswith("y < 0") else None
            rows.append((f"crossing root ({what})", dv.loss(*_signs(what), 0, 0).subs(y, root) - eps, None))
            del region
        steps, closed_all, errs = [], True, []
        for what, e, var in rows:
            z = sp.simplify(e.rewrite(sp.exp))
            if z == 0:
                steps.append(f"- {what}: SymPy simplifies the difference to 0")
                continue
            closed_all = False
            with mpmath.workdps(DPS + 10):
                pts = [mpmath.mpf(v) for v in ctx.rng(what).uniform(0.01, 0.49 if var is q else 12.0, 20)]
                shs = shapes_of(ctx, what, 20)
                vals = [e.subs(subs(sh)).subs({var: p} if var is not None else {}) for p, sh in zip(pts, shs)]
                worst = max(abs(sp.N(v, DPS)) for v in vals)
            errs.append(worst)
            steps.append(f"- {what}: numeric at 20 points, 50 digits: |difference| <= {mpmath.nstr(worst, 2)}")
        if closed_all:
            return proven(True, "SymPy: simplify(difference) = 0 for each", steps)
        return verified(max(errs) < mpmath.mpf(10) ** -45, "SymPy where it closed, else 50 digits", 20, "50 digits",
                        _worst(errs), evidence=steps)

    def moments(ctx: Context) -> Outcome:
        cls, dv = loaded().cls, loaded().dv
        shape = shapes_of(ctx, "moments", 1)[0]
        law, quad = cls.from_family(shape[0] if shape else 0.0, 1.0), quad_at(shape)
        with mpmath.workdps(DPS + 10):
            v_ref = 2 * quad.integral(lambda v, g: v * v * g(v), 0) / quad.Z
            h_ref = -2 * quad.integral(lambda v, g: g(v) / quad.Z * mpmath.log(g(v) / quad.Z), 0)
            rows = [("variance", dv.variance, law.var(), v_ref), ("entropy", dv.entropy, law.entropy(), h_ref)]
            if dv.fisher is not None:
                f_ref = 2 * quad.integral(lambda v, g: quad.dlogs[g](v) ** 2 * g(v), 0) / quad.Z
                rows.append(("Fisher information", dv.fisher, None, f_ref))
            steps, errs = [], []
            for what, closed, flt, ref in rows:
                if closed is not None:
                    e = _rel(mpmath.mpf(str(sp.N(closed.subs(subs(shape)), DPS))), ref)
                    how = " of (d/dt log g)^2 g, d/dt log g by SymPy's diff of the declared piece" \
                        if what == "Fisher information" else ""
                    steps.append(f"- {what}: closed form {closed} vs quadrature{how}: {mpmath.nstr(e, 2)} (50 digits)")
                    errs.append(e)
                else:
                    e = _rel(mpmath.mpf(flt), ref)
                    steps.append(f"- {what}: SymPy did not close it; the float value (30-digit quadrature) vs 50-digit "
                                 f"quadrature: {mpmath.nstr(e, 2)}")
                    errs.append(e if e > 1e-15 else mpmath.mpf(0))
        steps.append(f"- at the shape {shape}" if shape else "- (no shape)")
        # closed forms to 30 digits: quadrature of a law of width 1e-3 (OSGT at theta = 2e3) agrees to 2.5e-32
        ok = all(e < 1e-15 for e in errs) and all(e < mpmath.mpf(10) ** -30 for (_, c, _, _), e in zip(rows, errs)
                                                  if c is not None)
        return verified(ok, "closed forms at 50 digits (float where flagged) vs mpmath quadrature of the declared density"
                        + (" (the Fisher integrand's d/dt log g by SymPy's diff)" if dv.fisher is not None else ""),
                        len(rows), "50 digits", _worst(errs), evidence=steps)

    def profile(ctx: Context) -> Outcome:
        cls = loaded().cls
        r = ctx.rng("profile")
        n = ctx.n(10, 4)
        pts = [(float(r.uniform(0, 3)), float(r.uniform(0.05, 4)), float(r.uniform(0.3, 3))) for _ in range(n)]
        steps, errs, ok = [], [], True
        with mpmath.workdps(DPS + 10):
            for (e, d, s), sh in zip(pts, shapes_of(ctx, "profile", n)):
                enc = cls.from_family(sh[0] if sh else 0.0, s).profile_enclosure(e, d)
                ref = quad_at(sh).profile(mpmath.mpf(e), mpmath.mpf(d) / mpmath.mpf(s))
                inside = enc.lower <= ref * (1 + mpmath.mpf(10) ** -40) and ref <= enc.upper * (1 + mpmath.mpf(10) ** -40)
                ok &= bool(inside)
                # the width of the float enclosure, relative, where delta is a normal float (below 1e-300 the upper
                # end is a float rounded up from a far smaller delta: containment is all that is asked there)
                errs.append(_rel(mpmath.mpf(enc.upper), ref) if ref > 1e-300 else mpmath.mpf(0))
                steps.append(f"- eps={e:.4g}, Delta={d:.4g}, scale={s:.4g}{f', shape={sh[0]:.4g}' if sh else ''}: "
                             f"[{enc.lower!r}, {enc.upper!r}] holds {mpmath.nstr(ref, 17)}: {inside}")
        return verified(ok, "certified enclosure (arb crossing bracket) contains 50-digit quadrature", len(pts),
                        "50 digits", _worst(errs), evidence=steps)

    topic.add(facts, obj="g", paper="declaration", claim="symmetric and log-concave", name="facts")
    topic.add(sf_proof, obj="sf", paper="derived", claim="sf_k = (int_t^b g_k + later masses)/Z is the tail of g/Z",
              name="sf")
    topic.add(identities, obj="logpdf, logsf, isf, y*", paper="derived",
              claim="float rewrites of log pdf and log sf, inverse of sf, crossing roots of loss = eps", name="identities")
    topic.add(moments, obj="var, I, h", paper="derived", claim="variance, Fisher information, entropy vs quadrature",
              name="moments")
    topic.add(profile, obj="delta(eps)", paper="Lemma 11", claim="certified profile enclosure contains quadrature",
              name="profile")
    twin_name = meta.twin
    if twin_name is not None:

        def twin_check(ctx: Context) -> Outcome:
            decl, cls, mod = loaded().decl, loaded().cls, loaded().mod
            twin, twin_shapes = mod.TWIN, _twin_shapes(mod)
            worst = {}
            xs, qs = np.array([-40.0, -3.3, -0.7, 0.2, 1.9, 8.0, 35.0]), np.array([1e-250, 1e-12, 1e-3, 0.2, 0.8])
            for s, sh in [(s, sh) for s in (0.25, 1.0, 3.7) for sh in twin_shapes]:
                a, b = cls.from_family(sh[0] if sh else 0.0, s), twin(s, *sh)
                for k, (u, v) in {"logpdf": (a.logpdf(xs), b.logpdf(xs)), "sf": (a.sf(xs), b.sf(xs)),
                                  "isf": (a.isf(qs), b.isf(qs)), "var": (a.var(), b.var()),
                                  "profile": (a.privacy_profile([0.01, 0.3, 1.0, 2.0], 1.0),
                                              b.privacy_profile([0.01, 0.3, 1.0, 2.0], 1.0))}.items():
                    u, v = np.asarray(u), np.asarray(v)
                    m = v > 1e-300
                    worst[k] = max(worst.get(k, 0.0), float(np.max(np.abs(u[m] / v[m] - 1), initial=0.0)))
            w = max(worst.values())
            w_other = max(v for k, v in worst.items() if k != "profile")
            where = f" at shapes {[v[0] for v in twin_shapes]}" if decl.shapes else ""
            return cross_check(w_other < 1e-12 and worst["profile"] < 1e-10,
                               f"declared {decl.name} vs fhsym.{twin_name} (code vs code){where}, scales 0.25, 1, 3.7",
                               f"{w:.1e}", evidence=[f"- {k}: {v:.1e}" for k, v in worst.items()])

        topic.add(twin_check, obj="all kernels", paper="-", claim=f"agrees with fhsym.{twin_name} to 1e-12 (float profile 1e-10)",
                  name="twin")
    return topic


def _signs(what: str) -> tuple:
    return {"y < 0": (-1, -1), "0 <= y < D": (1, -1), "y >= D": (1, 1)}[what.split(",")[0]]


#: one topic per declared law (the harness reads ``topics``: proofs._harness.discover)
topics = [_topic(p) for p in sorted(EXAMPLES.glob("*_law.py"))]
