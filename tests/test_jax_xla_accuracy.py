"""XLA on CPU against 40-digit mpmath: the XLA functions the generated JAX modules call, and the generated functions
where XLA is least accurate (docs/accuracy.md, "The JAX targets and XLA"; ``pytest -s`` prints every figure).

1. The audit of names: every ``xp.<name>(`` of the JAX modules (fhsym/_generated/declared/jax_*.py, and the numpy
   kernels fhsym/_generated/jax_kernels.py binds to JAX) is exact by construction (selection, rounding to integers,
   comparisons), a hand-written fhsym/_core/numerics_jax.py function, or an XLA function measured here; every
   ``jnp``/``jsc`` call of numerics_jax.py is exact or measured here.
2. Each measured XLA function, on the ranges the generated code can feed it (the edges included), in ulp of the
   40-digit value: worse than 4 ulp only where :data:`RANGES` says so (``log1p`` on [-0.5, -0.29]: 1 + x in
   [0.5, 1/sqrt 2]; ``erfc`` beyond 0.5, its error growing with x towards the underflow, as scipy's; ``erfinv``;
   ``gammaln``, measured in absolute terms, as ``uppergamma`` uses it, exp(gammaln(a))).  numpy/scipy's error on the
   same points is printed alongside.  A future jax whose functions lose digits fails here.
3. The modules' ``log1p`` (fhsym._core.numerics_jax.log1p: ``log(1 + x)`` below -0.25) within 2.5 ulp on every
   log1p range, XLA's bad one included.
4. (slow) The generated functions at the arguments that feed those ranges, against references of the definitions
   (the declared laws' densities of tests/test_declared_profile_targets.py integrated by mpmath; flipped Huber:
   proofs/reference.py): each within the project's 1e-12, and within 2e-15 where XLA's log1p was the weak point.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import math
import re
from pathlib import Path

import mpmath
import numpy as np
import pytest
import scipy.special as sps

jax = pytest.importorskip("jax", reason="the JAX target needs the optional extra: pip install 'fhsym[jax]'")

import jax.numpy as jnp  # noqa: E402
from jax.scipy import special as jsc  # noqa: E402

from fhsym._core import backends  # noqa: E402
from fhsym._core import numerics_jax  # noqa: E402,F401  (turns on jax_enable_x64)
from test_declared_profile_targets import LAWS, _ref  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TINY = 2.2250738585072014e-308  # XLA flushes subnormal results to 0: compared only above the smallest normal

#: names the modules call that round exactly (or only select, compare or build arrays)
EXACT = {"where", "minimum", "maximum", "floor", "ceil", "clip", "asarray", "arange", "abs", "any", "broadcast_arrays",
         "concatenate", "full_like", "ones_like", "zeros_like", "isfinite", "isinf", "isnan", "fori_loop", "cond", "sum"}


def _ndtri(p: mpmath.mpf) -> mpmath.mpf:
    if p > mpmath.mpf("1e-20"):
        return -mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * p)
    lp = mpmath.log(p)  # far tail: the root of log Phi(x) = log p (1 - 2p rounds to 1 at 40 digits)
    return mpmath.findroot(lambda x: mpmath.log(mpmath.ncdf(x)) - lp, -mpmath.sqrt(-2 * lp - mpmath.log(-4 * mpmath.pi * lp)))


#: XLA name -> (the function under jit, its numpy/scipy twin (printed alongside), its 40-digit mpmath value, "rel" (ulp
#: of the value) or "abs" (ulp of max(1, |value|)))
FUNCTIONS = {
    "exp": (jnp.exp, np.exp, mpmath.exp, "rel"),
    "expm1": (jnp.expm1, np.expm1, mpmath.expm1, "rel"),
    "log": (jnp.log, np.log, mpmath.log, "rel"),
    "log1p": (jnp.log1p, np.log1p, mpmath.log1p, "rel"),
    "sqrt": (jnp.sqrt, np.sqrt, mpmath.sqrt, "rel"),
    "power": (lambda x: x ** (-1.0), lambda x: x ** (-1.0), lambda x: 1 / x, "rel"),  # variance_std_laplace's b**(-1.0)
    "logaddexp": (lambda x: jnp.logaddexp(0.0, x), lambda x: np.logaddexp(0.0, x), lambda x: mpmath.log1p(mpmath.exp(x)), "rel"),
    "erf": (jsc.erf, sps.erf, mpmath.erf, "rel"),
    "erfc": (jsc.erfc, sps.erfc, mpmath.erfc, "rel"),
    "erfinv": (jsc.erfinv, sps.erfinv, mpmath.erfinv, "rel"),
    "ndtri": (jsc.ndtri, sps.ndtri, _ndtri, "rel"),
    "gammaln": (jsc.gammaln, sps.gammaln, mpmath.loggamma, "abs"),
}


def _lin(lo: float, hi: float, n: int) -> np.ndarray:
    return np.linspace(lo, hi, n)


def _geo(lo: float, hi: float, n: int) -> np.ndarray:
    return np.geomspace(lo, hi, n) if lo > 0 else -np.geomspace(-lo, -hi, n)


#: (XLA name, points, bound in ulp): the ranges the generated code can feed each function, edges included; the bound
#: is 4 ulp except where XLA was measured worse (jax 0.10.2 on CPU: the figures docs/accuracy.md gives)
RANGES = [
    ("exp", _lin(-745.0, 709.7, 400), 4), ("exp", _lin(-1.0, 1.0, 200), 4),
    ("expm1", _lin(-40.0, 709.7, 300), 4), ("expm1", _lin(-1.0, 1.0, 400), 4),
    ("expm1", _geo(1e-300, 1.0, 200), 4), ("expm1", _geo(-1e-300, -40.0, 200), 4),
    ("log", _geo(TINY, 1.7e308, 300), 4), ("log", _lin(0.5, 2.0, 200), 4),
    ("log1p", _lin(-1.0 + 2**-52, -0.5, 200), 4),
    ("log1p", _lin(-0.5, -0.2929, 1200), 160),  # XLA: 1 + x in [0.5, 1/sqrt 2]
    ("log1p", _lin(-0.2929, 0.0, 300), 4), ("log1p", _geo(-1e-300, -0.25, 200), 4),
    ("log1p", _geo(1e-300, 1.0, 200), 4), ("log1p", _geo(1.0, 1e300, 200), 4),
    ("sqrt", _geo(TINY, 1.7e308, 200), 4),
    ("power", _geo(1e-300, 1e300, 200), 4),
    ("logaddexp", _lin(-745.0, 709.0, 200), 4), ("logaddexp", _lin(-2.0, 2.0, 200), 4),
    ("erf", _lin(-6.0, 6.0, 300), 4), ("erf", _geo(1e-300, 1.0, 100), 4),
    ("erfc", _lin(-6.0, 0.0, 200), 4), ("erfc", _lin(0.0, 0.5, 200), 4),
    ("erfc", _lin(0.5, 1.0, 200), 16),
    ("erfc", _lin(1.0, 6.0, 400), 40),
    ("erfc", _lin(6.0, 26.5, 400), 700),  # grows like x^2: exp(-x^2) of the rounded x^2
    ("erfinv", _lin(-1.0 + 2**-52, 1.0 - 2**-53, 600), 25), ("erfinv", _geo(1e-300, 0.5, 100), 4),
    ("ndtri", _geo(1e-300, 0.5, 300), 4), ("ndtri", _lin(0.5, 1.0 - 2**-53, 300), 4),
    ("gammaln", _geo(1e-3, 170.0, 300), 16),  # absolute: near its zeros at 1 and 2
]


def _ulps(name: str, xs: np.ndarray) -> tuple[float, float, float]:
    """(worst error in ulp, its argument) of the XLA function ``name`` under jit on ``xs``, and the numpy/scipy twin's
    worst error on the same points."""
    f, twin, ref, kind = FUNCTIONS[name]
    got, other = np.asarray(jax.jit(f)(xs)), twin(xs)
    worst, worst_twin = (0.0, math.nan), 0.0
    with mpmath.workdps(40):
        for x, g, o in zip(xs, got, other):
            r = ref(mpmath.mpf(float(x)))
            scale = max(1.0, abs(float(r))) if kind == "abs" else abs(float(r))
            if scale < TINY or not math.isfinite(scale):
                continue
            u = math.ulp(scale)
            err = float(abs(mpmath.mpf(float(g)) - r)) / u if math.isfinite(g) else math.inf
            worst_twin = max(worst_twin, float(abs(mpmath.mpf(float(o)) - r)) / u if math.isfinite(o) else math.inf)
            if err > worst[0]:
                worst = (err, float(x))
    return worst[0], worst[1], worst_twin


def _called_names() -> tuple[set, set]:
    """(every name the JAX modules call through ``xp``, every jnp/jsc name numerics_jax.py calls)."""
    kernels = importlib.import_module("fhsym._generated.jax_kernels")
    src = [Path(kernels.__file__).read_text()]
    src += [inspect.getsource(f.func) for f in vars(kernels).values() if isinstance(f, functools.partial)]
    src += [p.read_text() for p in sorted((ROOT / "fhsym" / "_generated" / "declared").glob("jax_*.py"))]
    ours = Path(numerics_jax.__file__).read_text()
    return (set(re.findall(r"\bxp\.([A-Za-z_]\w*)\(", "\n".join(src))),
            set(re.findall(r"\b(?:jnp|jsc|jax\.lax)\.([A-Za-z_]\w*)\(", ours)))


def test_every_function_the_jax_modules_call_is_audited():
    """Each ``xp`` name is exact, a numerics_jax function, or an XLA function measured here; each XLA call of
    numerics_jax.py is exact or measured here."""
    modules, ours = _called_names()
    assert {"log1p", "erfc", "expm1", "ndtri", "erfcx"} <= modules and {"erfc", "log1p", "ndtri"} <= ours
    measured = {n for n, _, _ in RANGES}
    for name in sorted(modules - EXACT):
        module, attr = backends.IMPLEMENTATIONS[name][1].split(":")
        assert module == "fhsym._core.numerics_jax" or attr in measured, (
            f"xp.{name} ({module}.{attr}): called by a generated JAX module, neither exact nor measured here")
    assert not ours - EXACT - measured, f"numerics_jax.py calls XLA's {sorted(ours - EXACT - measured)}: measure them"


def test_xla_functions_against_mpmath():
    """Each XLA function on its ranges within its bound (ulp of the 40-digit value); prints the worst per range, and
    numpy/scipy's on the same points (what the numpy and C targets call: not asserted)."""
    lines, bad = [], []
    for name, xs, bound in RANGES:
        err, at, twin = _ulps(name, xs)
        lines.append(f"{name:9s} [{xs.min():.4g}, {xs.max():.4g}] ({len(xs)} points): {err:7.2f} ulp at {at!r} "
                     f"(numpy/scipy {twin:.2f})")
        if not err <= bound:
            bad.append((name, float(xs.min()), float(xs.max()), err, at, bound))
    print(f"\nXLA (jax {jax.__version__}, {jax.default_backend()}) against 40-digit mpmath, worst error in ulp:\n  "
          + "\n  ".join(lines))
    assert not bad, bad


def test_the_modules_log1p_where_xla_loses_digits():
    """The generated JAX modules' ``xp.log1p`` (fhsym._core.numerics_jax.log1p: ``log(1 + x)`` below -0.25) within
    2.5 ulp of 40-digit mpmath on XLA's bad range (XLA's own: 127.9 ulp there) and within 1 ulp on log1p's other
    ranges of :data:`RANGES` (where it is XLA's)."""
    xp = backends.jax_namespace()
    assert xp.log1p is numerics_jax.log1p
    FUNCTIONS["modules' log1p"] = (xp.log1p,) + FUNCTIONS["log1p"][1:]
    try:
        worst = [(_ulps("modules' log1p", xs)[:2], xs) for n, xs, _ in RANGES if n == "log1p"]
    finally:
        del FUNCTIONS["modules' log1p"]
    print("\nthe modules' log1p against 40-digit mpmath, worst error in ulp: " + "; ".join(
        f"[{xs.min():.4g}, {xs.max():.4g}] {e:.2f} at {at!r}" for (e, at), xs in worst))
    assert max(e for (e, _), _ in worst) <= 2.5, [w for w, _ in worst]
    assert all(e <= 1.0 for (e, _), xs in worst if xs.max() <= -0.5 or xs.min() >= -0.25), worst
    # grad-compatible as the rest of numerics_jax: d/dx = 1/(1 + x) (x + 1 exact here), XLA's inf at x = -1, not NaN
    grad = jax.jit(jax.grad(xp.log1p))
    assert float(grad(-1.0)) == math.inf
    for x in (-1.0 + 2**-40, -0.75, -0.5, -0.25, -0.25 + 2**-54, 0.0, 1e300):
        assert abs(float(grad(x)) * (1.0 + x) - 1.0) <= 4e-16, x


def _tail(logp, t: mpmath.mpf, end: mpmath.mpf) -> mpmath.mpf:
    """int_t^end exp(logp) by quadrature, scaled by the density at t (far tails keep their digits)."""
    c = mpmath.exp(logp(t))
    pts = [t, end] if end != mpmath.inf else [t, t + 1, t + 10, mpmath.inf]
    return c * mpmath.quad(lambda v: mpmath.exp(logp(v)) / c, pts)


def _law_refs(name: str, shapes: tuple):
    logp, end, _ = LAWS[name]
    s = [mpmath.mpf(v) for v in shapes]
    return (lambda v: logp(v, s)), end


def _rel(got: float, ref: mpmath.mpf) -> float:
    if abs(ref) < TINY:
        return 0.0 if abs(got) <= TINY else math.inf
    return float(abs(mpmath.mpf(got) / ref - 1))


#: declared law -> (shapes, y of logcdf: sf(y) in [0.29, 0.5], where logcdf's log1p(-sf(y)) is in XLA's bad range)
LOGCDF_POINTS = {
    "gaussian": ((), _lin(1e-3, 0.55, 12)), "laplace": ((), _lin(1e-3, 0.54, 12)),
    "osgt": ((0.7,), _lin(1e-3, 0.35, 12)), "truncated_laplace": ((2.5,), _lin(1e-3, 0.2, 12)),
}
#: (eps, D) of the declared profiles where the crossing y* has sf(y*) in [0.29, 0.5] (and the profile's -expm1 of
#: eps + log F(y* - D) - log F(y*) scales that log's error by |log F|/|x|)
PROFILE_POINTS = {"laplace": ((), [(0.5, 1.0), (0.9, 1.0), (0.99, 1.0), (0.25, 0.3)]),
                  "gaussian": ((), [(0.001, 0.01), (0.01, 0.1), (0.05, 0.5)]),
                  "osgt": ((0.7,), [(0.05, 0.05), (0.1, 0.3)])}


@pytest.mark.slow  # quadrature references: ~10 s
def test_generated_functions_where_xla_is_least_accurate():
    """The generated JAX functions at arguments feeding XLA's inaccurate ranges, against the definitions: declared
    laws' logcdf (log1p), truncated Laplace isf (log1p), Gaussian and flipped Huber far-tail sf (erfc to 26.5),
    flipped Huber ppf near the median (log1p in isf_center_near_half), the declared profiles; each within 1e-12, and
    those whose weak point was XLA's log1p (now numerics_jax.log1p) within 2e-15."""
    worst = {}

    def note(label, err, at):
        if err >= worst.get(label, (-1.0,))[0]:
            worst[label] = (err, at)

    with mpmath.workdps(40):
        for name, (sh, ys) in LOGCDF_POINTS.items():
            mod = importlib.import_module(f"fhsym._generated.declared.jax_{name}")
            got = np.asarray(jax.jit(mod.logcdf)(ys, *sh))
            logp, end = _law_refs(name, sh)
            for y, g in zip(ys, got):
                note(f"{name} logcdf", _rel(float(g), mpmath.log1p(-_tail(logp, mpmath.mpf(float(y)), end))), float(y))
        tl = importlib.import_module("fhsym._generated.declared.jax_truncated_laplace")
        logp, end = _law_refs("truncated_laplace", (2.5,))
        qs = _lin(0.24, 0.33, 8)  # (1 - 2q) expm1(-2.5) in [-0.5, -0.29]
        for q, g in zip(qs, np.asarray(jax.jit(tl.isf_0)(qs, 2.5))):
            ref = mpmath.findroot(lambda t: _tail(logp, t, end) - q, mpmath.mpf(float(g)))
            note("truncated_laplace isf", _rel(float(g), ref), float(q))
        gs = importlib.import_module("fhsym._generated.declared.jax_gaussian")
        logp, end = _law_refs("gaussian", ())
        ts = _lin(28.0, 37.5, 8)  # erfc(t/sqrt 2) with t/sqrt 2 up to 26.5
        for t, g in zip(ts, np.asarray(jax.jit(gs.sf_0)(ts))):
            note("gaussian sf far tail", _rel(float(g), _tail(logp, mpmath.mpf(float(t)), end)), float(t))
        for name, (sh, pts) in PROFILE_POINTS.items():
            mod = importlib.import_module(f"fhsym._generated.declared.jax_{name}")
            f = jax.jit(mod.profile)
            for e, d in pts:
                note(f"{name} profile", _rel(float(f(e, d, *sh)), _ref(name, sh, e, d)), (e, d))
    from fhsym import jax as fhj
    from proofs import reference as R

    fh = [("flipped Huber sf far tail", fhj.sf, R.sf, [(t, a) for a in (0.0, 1.0) for t in _lin(28.0, 37.5, 5)]),
          ("flipped Huber ppf near the median", fhj.ppf, R.ppf, [(q, a) for a in (0.3, 3.0) for q in _lin(0.26, 0.49, 6)])]
    for label, f, ref, pts in fh:
        x, a = (np.array(c) for c in zip(*pts))
        for p, g in zip(pts, np.asarray(jax.jit(f)(x, a, 1.0))):
            note(label, _rel(float(g), ref(p[0], p[1], 1.0, dps=30)), p)
    print("\ngenerated JAX functions where XLA is least accurate, worst relative error against the definitions:\n  "
          + "\n  ".join(f"{k}: {v[0]:.2e} at {v[1]}" for k, v in worst.items()))
    assert all(v[0] <= 1e-12 for v in worst.values()), worst
    # where only log1p was XLA's weak point: a few ulp (XLA's log1p gave 1.1e-14 to 2.1e-14 in logcdf, 1.7e-14 in isf)
    assert all(v[0] <= 2e-15 for k, v in worst.items() if k.endswith(("logcdf", "isf", "median"))), worst
