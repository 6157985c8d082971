"""fhsym.jax, the JAX target (fhsym/_generated/jax_kernels.py): values, gradients, jit/vmap, errors.

* Values against fhsym's numpy API (the same SymPy kernels through another printer) and against
  the mpmath ground truth of ``tests/data`` (quadrature of the definition): pointwise functions,
  quantiles, variance (rtol 1e-12) and the privacy profile (rtol 1e-10), in one broadcast call
  per function over all reference points (alpha and gamma vary across the call).
* Gradients: d logpdf/d alpha and d variance/d gamma against the SymPy derivatives of the paper's
  log density (eq 7-9) and variance (eq 11) evaluated in mpmath (two precisions agreeing); and
  every function's gradient finite over a grid that includes alpha = 0 and alpha/gamma = 1e4.
* ``jit`` gives the eager values; concrete invalid input raises ``ValueError``, traced gives NaN.

XLA on CPU flushes subnormal results to zero, so where the true value is below the smallest
normal double (2.2e-308) the JAX result is only required to be below it as well (counted and
printed); everywhere else the relative error is measured as for the C and numpy targets.

Skipped when jax is not installed (``pip install 'fhsym[jax]'``).  ``pytest -s`` prints the worst errors.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import mpmath
import numpy as np
import pytest
import sympy as sp

jax = pytest.importorskip("jax", reason="the JAX target needs the optional extra: pip install 'fhsym[jax]'")

import jax.numpy as jnp  # noqa: E402

import fhsym  # noqa: E402
from fhsym import jax as fhj  # noqa: E402
from fhsym._core import numerics  # noqa: E402
from fhsym.symbolic import definitions as SD  # noqa: E402

DATA = Path(__file__).parent / "data"
TINY = 2.2250738585072014e-308  # the smallest normal double: XLA flushes results below it to 0


def _rel(got, ref):
    """Elementwise |got - ref| / |ref| (ref: mpmath strings); 0 where both are below the smallest normal."""
    out = []
    with mpmath.workdps(40):
        for g, r in zip(np.ravel(got), np.ravel(ref)):
            r = mpmath.mpf(r)
            g = float(g)
            if math.isnan(g):
                out.append(math.inf)
            elif mpmath.isinf(r) or math.isinf(g):
                out.append(0.0 if g == r else math.inf)
            elif abs(r) < TINY:
                out.append(0.0 if abs(g) <= TINY else math.inf)
            else:
                out.append(float(abs(mpmath.mpf(g) - r) / abs(r)))
    return np.array(out)


def _report(label, err, where, ref=None):
    i = int(np.argmax(err))
    flushed = "" if ref is None else f" ({sum(abs(mpmath.mpf(r)) < TINY for r in ref)} below the smallest normal)"
    print(f"\nJAX {label}: worst rel err {err[i]:.3g} at {where[i]} over {len(err)} points{flushed}")
    return err[i]


def _numpy_api(name, rows, arg):
    """fhsym's numpy API on the same points, one FlippedHuber per (alpha, gamma)."""
    out = np.empty(len(rows))
    groups = {}
    for i, r in enumerate(rows):
        groups.setdefault((r["alpha"], r["gamma"]), []).append(i)
    for (a, g), idx in groups.items():
        fh = fhsym.FlippedHuber(float(a), float(g))
        out[idx] = np.asarray(getattr(fh, name)(np.array([float(rows[i][arg]) for i in idx])), dtype=float)
    return [repr(float(v)) for v in out]


@pytest.fixture(scope="module")
def ref():
    return json.loads((DATA / "fh_reference.json").read_text())


@pytest.mark.parametrize("name", ["pdf", "logpdf", "cdf", "sf", "logsf"])
def test_pointwise_values(ref, name):
    rows = ref["pointwise"]
    x, a, g = (np.array([float(r[k]) for r in rows]) for k in ("x", "alpha", "gamma"))
    got = np.asarray(jax.jit(getattr(fhj, name))(x, a, g))
    where = [f"alpha={r['alpha']} gamma={r['gamma']} x={r['x']}" for r in rows]
    refs = [r[name] for r in rows]
    assert _report(name + " vs quadrature", _rel(got, refs), where, refs) <= 1e-12
    assert _report(name + " vs numpy API", _rel(got, _numpy_api(name, rows, "x")), where) <= 1e-13


def test_quantile_values(ref):
    rows = ref["quantiles"]
    q, a, g = (np.array([float(r[k]) for r in rows]) for k in ("q", "alpha", "gamma"))
    got = np.asarray(jax.jit(fhj.ppf)(q, a, g))
    where = [f"alpha={r['alpha']} gamma={r['gamma']} q={r['q']}" for r in rows]
    assert _report("ppf vs quadrature", _rel(got, [r["ppf"] for r in rows]), where) <= 1e-12
    assert _report("ppf vs numpy API", _rel(got, _numpy_api("ppf", rows, "q")), where) <= 1e-13


def test_variance_values(ref):
    rows = ref["moments"]
    a, g = (np.array([float(r[k]) for r in rows]) for k in ("alpha", "gamma"))
    got = np.asarray(jax.jit(fhj.variance)(a, g))
    where = [f"alpha={r['alpha']} gamma={r['gamma']}" for r in rows]
    assert _report("variance vs quadrature", _rel(got, [r["variance"] for r in rows]), where) <= 1e-12


@pytest.mark.slow  # JAX compilations (~5-30 s each)
def test_variance_in_the_laplace_limit():
    """alpha/gamma in [64, 1e150] (the Laplace-limit piece): against mpmath of the cancellation-free form of eq 11
    (proofs/laplace_limit.py proves it equal to eq 11), and its gradient d/d alpha finite."""
    from proofs.laplace_limit import references

    bs = [63.99, 64.0, 64.01, 100.0, 1e4, 1e15, 1e51, 1e60, 1e102, 1e150]
    a, g = (np.array(v) for v in zip(*[(b * gm, gm) for b in bs for gm in (1e-6, 1.0, 1e6)]))
    got = np.asarray(jax.jit(fhj.variance)(a, g))
    with mpmath.workdps(50):
        refs = [str(references(mpmath.mpf(x) / mpmath.mpf(y))["variance_of_b"] * mpmath.mpf(y) ** 2) for x, y in zip(a, g)]
    assert _report("variance, alpha/gamma in [64, 1e150], vs mpmath", _rel(got, refs), [f"alpha={x!r} gamma={y!r}" for x, y in zip(a, g)]) <= 1e-12
    assert np.all(np.isfinite(np.asarray(jax.vmap(jax.grad(fhj.variance))(a, g))))


@pytest.mark.slow  # JAX compilations (~5-30 s each)
def test_privacy_profile_values_and_gradients():
    """Values at the 1224 reference points, and every partial derivative finite there (one compile).

    Excluded from the gradient check: points exactly at the kink eps = bD (b = alpha/gamma, D = Delta/gamma,
    eps - bD = 0 in the error-free product), where case (iv)'s kernel takes sqrt(eps - bD)."""
    rows = json.loads((DATA / "privacy_profile_reference.json").read_text())["rows"]
    e, a, g, D = (np.array([float(r[k]) for r in rows]) for k in ("eps", "alpha", "gamma", "Delta"))
    vg = jax.jit(jax.vmap(jax.value_and_grad(fhj.privacy_profile, argnums=(0, 1, 2, 3))))
    got, grads = vg(e, a, g, D)
    got = np.asarray(got)
    with mpmath.workdps(40):
        refs = [str(mpmath.exp(mpmath.mpf(r["log_delta"]))) if r["log_delta"] != "-inf" else "0" for r in rows]
    where = [f"eps={r['eps']} alpha={r['alpha']} gamma={r['gamma']} Delta={r['Delta']}" for r in rows]
    assert _report("privacy_profile vs quadrature", _rel(got, refs), where, refs) <= 1e-10
    numpy = fhsym.privacy_profile(e, a, g, D)
    assert _report("privacy_profile vs numpy API", _rel(got, [repr(float(v)) for v in numpy]), where) <= 1e-12
    kink = np.asarray(numerics.sub_prod(e, a / g, D / g)) == 0.0
    for k, gk in enumerate(grads):
        bad = ~np.isfinite(np.asarray(gk)) & ~kink
        assert not bad.any(), f"d privacy_profile/d arg{k} not finite at {[where[i] for i in np.flatnonzero(bad)[:5]]}"
    print(f"JAX privacy_profile gradients: finite at all {int((~kink).sum())} points off the exact kink ({int(kink.sum())} on it)")


# ----------------------------------------------------------------------------
# gradients against the SymPy derivative of the paper's formulas, in mpmath
# ----------------------------------------------------------------------------
def _mp_eval(expr, args, point):
    """expr at the exact binary point, to 20 digits (two working precisions agreeing)."""
    f = sp.lambdify(args, expr, modules="mpmath")
    prev = None
    for dps in (60, 120, 240, 480, 960):
        with mpmath.workdps(dps):
            v = f(*[mpmath.mpf(x) for x in point])
        if prev is not None and abs(v - prev) <= abs(v) * mpmath.mpf(10) ** -20:
            return v
        prev = v
    raise AssertionError(f"no convergence at {point}")


def test_grad_logpdf_alpha_against_sympy():
    """d log g/d alpha = -d rho/d alpha / gamma^2 - d log kappa/d alpha, two terms that cancel as alpha -> 0
    (the Gaussian limit, where the derivative is O(alpha)): required to 1e-10 relative or 2e-15 of the
    size of those terms, (|t| + alpha)/gamma^2 + 1/gamma."""
    log_g = -SD.rho() / SD.gamma**2 - sp.log(SD.kappa)  # eq 8 with eq 7 and eq 9
    d_alpha = sp.diff(log_g, SD.alpha)
    grad = jax.jit(jax.vmap(jax.grad(fhj.logpdf, argnums=1)))
    pts = [(t, a, gm) for gm in (0.5, 1.0, 2.0) for a in (1e-3, 0.5, 1.0, 3.0, 40.0) for t in (-3.0, -0.4, 0.2, 1.5, 12.0, 200.0)]
    t, a, gm = (np.array(v) for v in zip(*pts))
    got = np.asarray(grad(t, a, gm))
    refs = [_mp_eval(d_alpha, (SD.t, SD.alpha, SD.gamma), p) for p in pts]
    rel = _rel(got, [str(r) for r in refs])
    scale = (np.abs(t) + a) / gm**2 + 1.0 / gm
    absolute = np.array([float(abs(mpmath.mpf(float(g)) - r)) for g, r in zip(got, refs)]) / scale
    where = [str(p) for p in pts]
    _report("d logpdf/d alpha vs SymPy derivative (relative)", rel, where)
    _report("d logpdf/d alpha vs SymPy derivative (relative to the size of its terms)", absolute, where)
    assert np.all((rel <= 1e-10) | (absolute <= 2e-15))


def test_grad_variance_gamma_against_sympy():
    d_gamma = sp.diff(SD.variance, SD.gamma)  # eq 11
    grad = jax.jit(jax.vmap(jax.grad(fhj.variance, argnums=1)))
    pts = [(a, gm) for gm in (0.5, 1.0, 2.0, 30.0) for a in (1e-3, 0.1, 0.5, 1.0, 3.0, 10.0, 40.0, 100.0)]
    a, gm = (np.array(v) for v in zip(*pts))
    got = np.asarray(grad(a, gm))
    refs = [str(_mp_eval(d_gamma, (SD.alpha, SD.gamma), p)) for p in pts]
    worst = _report("d variance/d gamma vs SymPy derivative", _rel(got, refs), [str(p) for p in pts])
    assert worst <= 1e-10


@pytest.mark.slow  # JAX compilations (~5-30 s each)
@pytest.mark.parametrize("name", ["logpdf", "pdf", "cdf", "sf", "logsf", "ppf", "variance"])
def test_gradients_are_finite(name):
    """Every partial derivative finite on a grid with alpha = 0, tiny and huge alpha/gamma, far tails
    (the privacy profile: at its reference points, above)."""
    f = getattr(fhj, name)
    alphas, gammas = [0.0, 1e-6, 0.3, 1.0, 7.0, 100.0], [0.5, 2.0]
    if name == "variance":
        pts = [(a, g) for a in alphas for g in gammas]
    elif name == "ppf":
        pts = [(q, a, g) for q in (1e-300, 1e-20, 0.1, 0.3, 0.5, 0.8, 1 - 1e-12) for a in alphas for g in gammas]
    else:
        pts = [(x, a, g) for x in (-1e3, -30.0, -2.0, -0.1, 0.0, 0.25, 3.0, 50.0) for a in alphas for g in gammas]
    cols = [np.array(c) for c in zip(*pts)]
    grads = jax.jit(jax.vmap(jax.grad(f, argnums=tuple(range(len(cols))))))(*cols)
    for k, gk in enumerate(grads):
        bad = ~np.isfinite(np.asarray(gk))
        assert not bad.any(), f"d {name}/d arg{k} not finite at {[pts[i] for i in np.flatnonzero(bad)[:5]]}"


@pytest.mark.slow  # JAX compilations (~5-30 s each)
def test_jit_matches_eager_and_vmap():
    x = jnp.array([-40.0, -1.0, 0.0, 0.3, 2.5, 90.0])
    eager = np.asarray(fhj.cdf(x, 1.0, 2.0))
    # XLA compiles the jitted graph as a whole (fused, possibly contracted to FMA): equal to a few ulp, not bitwise
    jitted = np.asarray(jax.jit(fhj.cdf)(x, 1.0, 2.0))
    rel = np.abs(jitted - eager) / np.abs(eager)
    print(f"JAX cdf: jit vs eager, worst relative difference {rel.max():.2e}")
    assert rel.max() <= 8 * np.finfo(float).eps
    np.testing.assert_allclose(np.asarray(jax.vmap(fhj.cdf, in_axes=(0, None, None))(x, 1.0, 2.0)), eager, rtol=8 * np.finfo(float).eps, atol=0)


# ----------------------------------------------------------------------------
# large arrays: piecewise_where sorts the points by piece and evaluates one piece per block
# ----------------------------------------------------------------------------
def _tiled(columns, refs, seed):
    """The reference points repeated and shuffled to at least 4 BLOCK + 1 points (the block dispatch)."""
    from fhsym._core.backends import BLOCK

    rep = -(-(4 * BLOCK + 1) // len(refs))
    perm = np.random.default_rng(seed).permutation(len(refs) * rep)
    return [np.tile(c, rep)[perm] for c in columns], [refs[i % len(refs)] for i in perm]


def _small_path(f, cols):
    """f on chunks of 1000 points: below 4 BLOCK, every piece merged with jnp.where."""
    chunks = [np.asarray(f(*[c[i:i + 1000] for c in cols])) for i in range(0, len(cols[0]), 1000)]
    return np.concatenate(chunks, axis=-1)


def _grads_agree(big, small, skip):
    for k, (u, v) in enumerate(zip(big, small)):
        u, v = np.asarray(u)[~skip], np.asarray(v)[~skip]
        assert np.isfinite(u).all(), f"arg{k}: gradient not finite at {int((~np.isfinite(u)).sum())} points"
        # |u - v| <= 1e-9 |v| + 1e-14 max|v|: where the derivative is the difference of two large terms (d/d alpha as
        # alpha -> 0, as in test_grad_logpdf_alpha_against_sympy), the float derivatives of both paths are noise below that
        scale = np.max(np.abs(v))
        err = np.abs(u - v) / (np.abs(v) + 1e-5 * scale)
        print(f"JAX blocks vs merge, gradient arg{k}: worst {err.max():.3g} (relative, floor 1e-5 of the largest)")
        assert err.max() <= 1e-9


@pytest.mark.parametrize("name", ["cdf", "ppf"])
def test_block_dispatch_on_large_arrays(ref, name):
    """>= 4 BLOCK points with alpha and gamma varying (and, for cdf, scalar alpha, gamma: kept scalar in the blocks):
    the values as the quadrature (1e-12), as the small-array merge (1e-13), NaN at NaN points and (traced) invalid q."""
    rows, arg = (ref["quantiles"], "q") if name == "ppf" else (ref["pointwise"], "x")
    cols, refs = _tiled([np.array([float(r[k]) for r in rows]) for k in (arg, "alpha", "gamma")], [r[name] for r in rows], 7)
    cols[0][:3] = [np.nan, np.nan, 1.5 if name == "ppf" else np.nan]
    f = jax.jit(getattr(fhj, name))
    got = np.asarray(f(*cols))
    assert np.isnan(got[:3]).all() and not np.isnan(got[3:]).any()
    where = [f"point {i}" for i in range(3, len(got))]
    assert _report(f"{name} on {len(got)} points (blocks) vs quadrature", _rel(got[3:], refs[3:]), where, refs[3:]) <= 1e-12
    small = _small_path(f, cols)
    assert _report(f"{name} blocks vs merge", _rel(got[3:], [repr(float(v)) for v in small[3:]]), where) <= 1e-13
    if name == "cdf":
        t = cols[0][3:] * 2.0
        one = np.asarray(f(t, 1.0, 2.0))
        assert _report("cdf blocks, scalar alpha, gamma vs numpy API", _rel(one, [repr(float(v)) for v in fhsym.FlippedHuber(1.0, 2.0).cdf(t)]),
                       [f"t={float(v)!r}" for v in t]) <= 1e-13
        grad = jax.jit(jax.grad(lambda *c: jnp.sum(fhj.cdf(*c)), argnums=(0, 1, 2)))
        small_grad = jax.jit(jax.vmap(jax.grad(fhj.cdf, argnums=(0, 1, 2))))
        _grads_agree(grad(*[c[3:] for c in cols]), small_grad(*[c[3:] for c in cols]), np.zeros(len(got) - 3, dtype=bool))


@pytest.mark.slow
def test_block_dispatch_privacy_profile():
    """The privacy profile on >= 4 BLOCK points: as the quadrature (1e-10) and as the merge (1e-13) (the gradients:
    the test below).  Deep: JAX 0.10.2 takes ~2 min on this 2-core machine to compile the block dispatch of the five
    cases (the merge path below 4 BLOCK points is checked by the default run's tests above)."""
    rows = json.loads((DATA / "privacy_profile_reference.json").read_text())["rows"]
    with mpmath.workdps(40):
        refs = [str(mpmath.exp(mpmath.mpf(r["log_delta"]))) if r["log_delta"] != "-inf" else "0" for r in rows]
    cols, refs = _tiled([np.array([float(r[k]) for r in rows]) for k in ("eps", "alpha", "gamma", "Delta")], refs, 11)
    f = jax.jit(fhj.privacy_profile)
    got = np.asarray(f(*cols))
    where = [f"point {i}" for i in range(len(got))]
    assert _report(f"privacy_profile on {len(got)} points (blocks) vs quadrature", _rel(got, refs), where, refs) <= 1e-10
    assert _report("privacy_profile blocks vs merge", _rel(got, [repr(float(v)) for v in _small_path(f, cols)]), where) <= 1e-13


@pytest.mark.slow
def test_block_dispatch_privacy_profile_gradients():
    """The privacy profile's gradients on >= 4 BLOCK points: finite off the exact kink and as the merge's (deep: JAX
    0.10 takes minutes on 2 cores to compile the gradients of the five-case dispatch)."""
    rows = json.loads((DATA / "privacy_profile_reference.json").read_text())["rows"]
    cols, _ = _tiled([np.array([float(r[k]) for r in rows]) for k in ("eps", "alpha", "gamma", "Delta")],
                     ["0"] * len(rows), 11)
    e, a, g, D = cols
    kink = np.asarray(numerics.sub_prod(e, a / g, D / g)) == 0.0
    grad = jax.jit(jax.grad(lambda *c: jnp.sum(fhj.privacy_profile(*c)), argnums=(0, 1, 2, 3)))
    small = jax.jit(jax.vmap(jax.grad(fhj.privacy_profile, argnums=(0, 1, 2, 3))))
    _grads_agree(grad(*cols), small(*cols), kink)


def test_invalid_input():
    with pytest.raises(ValueError, match="gamma"):
        fhj.cdf(0.0, 1.0, -1.0)
    with pytest.raises(ValueError, match="alpha"):
        fhj.variance(-1.0, 1.0)
    with pytest.raises(ValueError, match="q"):
        fhj.ppf(1.5, 1.0, 1.0)
    with pytest.raises(ValueError, match="sensitivity"):
        fhj.privacy_profile(1.0, 1.0, 1.0, 0.0)
    traced = jax.jit(fhj.sf)(0.3, jnp.array([1.0, -1.0]), 1.0)
    assert np.isfinite(traced[0]) and np.isnan(traced[1])
