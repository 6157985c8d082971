"""The incomplete-gamma forms of the declared laws in C99 and JAX (issue 28, item 3): the runtime functions
``lowergamma_scaled(n, y)`` (int_0^1 u^n e^{-yu} du), ``Gamma(a, x)`` and ``log Gamma(a, x)`` (fhsym/codegen/c/
fhsym_special.c, fhsym/_core/numerics_jax.py), and what they let the generator print: the truncated Laplace's
entropy (fhsym/_generated/c/declared_truncated_laplace.c, fhsym/_generated/declared/jax_truncated_laplace.py) and
the generalised Gaussian example law's sf, log sf, variance, Fisher information and entropy
(docs/examples/gengauss_law.py: ``c_source()``, ``jax_source()``).

References: mpmath at 50 digits (``gammainc``) for the runtime functions; for the laws, mpmath quadrature at 40
digits of the density as declared, normalised by quadrature (never fhsym's forms).  C is compiled with -Werror
(tests/conftest.py), JAX runs under ``jax.jit``.  Each test prints its measured worst relative error.
"""

from __future__ import annotations

import ctypes
import functools
import importlib

import mpmath
import numpy as np
import pytest

from declared_examples import example
from fhsym.codegen import declared_laws as DL
from fhsym.codegen import generate as G

#: the shapes a of Gamma(a, x) checked (the generalised Gaussian's sf calls a = 2/3; its moments (n + 1)/p)
AS = (1 / 6, 1 / 3, 0.5, 2 / 3, 1.0, 5 / 3, 3.5, 10.0)
XS = [0.0] + [10 ** (k / 8) for k in range(-100, 40)]  # 1e-12.5 .. 7.5e4
YS = [0.0] + [10 ** (k / 8) for k in range(-100, 40)]
TOL = {"lowergamma_scaled": 5e-15, "uppergamma": 2e-14, "log_uppergamma": 2e-14}


@functools.lru_cache(maxsize=None)
def _refs():
    """(function, args, reference) rows at 50 digits; log Gamma compared absolutely where |log| < 1 (computed on
    first use, not at import: every pytest-xdist worker imports this module at collection, ~1-2 s each)."""
    rows = []
    with mpmath.workdps(50):
        for n in range(9):
            for y in YS:
                ref = mpmath.gammainc(n + 1, 0, mpmath.mpf(y)) / mpmath.mpf(y) ** (n + 1) if y else mpmath.mpf(1) / (n + 1)
                rows.append(("lowergamma_scaled", (n, y), ref))
        for a in AS:
            for x in XS:
                ref = mpmath.gammainc(mpmath.mpf(a), mpmath.mpf(x))
                if ref > mpmath.mpf("1e-300"):
                    rows.append(("uppergamma", (a, x), ref))
                rows.append(("log_uppergamma", (a, x), mpmath.log(ref)))
    return tuple(rows)


def _worst(values):
    worst = {}
    for (fn, args, ref), v in zip(_refs(), values):
        err = float(abs(mpmath.mpf(v) - ref) / max(abs(ref), 1 if fn == "log_uppergamma" else 0))
        if err > worst.get(fn, (0.0,))[0]:
            worst[fn] = (err, args)
    return worst


def _assert_worst(worst, label):
    print(f"\n{label}: worst relative error vs 50-digit mpmath: "
          + ", ".join(f"{k} {v[0]:.1e} at {v[1]}" for k, v in sorted(worst.items())))
    for fn, (err, args) in worst.items():
        assert err <= TOL[fn], (fn, args, err)


@pytest.fixture(scope="module")
def lib(build_c_library):
    files = {rel: (G.default_dir("c") / rel).read_text() for rel in ("declared_truncated_laplace.c",)}
    files["gengauss.c"] = example("gengauss").GenGauss.c_source()
    so = build_c_library("declared_special_c", files)
    so.fhsym_lowergamma_scaled.restype, so.fhsym_lowergamma_scaled.argtypes = ctypes.c_double, [ctypes.c_int, ctypes.c_double]
    for name in ("fhsym_uppergamma", "fhsym_log_uppergamma"):
        getattr(so, name).restype, getattr(so, name).argtypes = ctypes.c_double, [ctypes.c_double] * 2
    return so


def _c(lib, name, n):
    f = getattr(lib, name)
    f.restype, f.argtypes = ctypes.c_double, [ctypes.c_double] * n
    return f


def test_c_runtime_incomplete_gamma_against_mpmath(lib):
    values = [getattr(lib, f"fhsym_{fn}")(*args) for fn, args, _ in _refs()]
    _assert_worst(_worst(values), "C runtime")
    import math
    assert math.isnan(lib.fhsym_lowergamma_scaled(-1, 1.0)) and math.isnan(lib.fhsym_lowergamma_scaled(1, -1.0))
    assert math.isnan(lib.fhsym_uppergamma(0.0, 1.0)) and math.isnan(lib.fhsym_log_uppergamma(1.0, -1.0))
    assert lib.fhsym_uppergamma(0.5, math.inf) == 0.0 and lib.fhsym_log_uppergamma(0.5, math.inf) == -math.inf
    assert lib.fhsym_lowergamma_scaled(2, math.inf) == 0.0
    # outside the tested range: small a near x = 1 (the series' Gamma(a) - ... cancels); docs/declare.md states it
    with mpmath.workdps(50):
        ref = mpmath.gammainc(mpmath.mpf(0.01), mpmath.mpf(1))
        err = float(abs(mpmath.mpf(lib.fhsym_uppergamma(0.01, 1.0)) - ref) / ref)
    print(f"C runtime outside the tested range: uppergamma(0.01, 1) relative error {err:.1e}")
    assert err < 1e-11, err


@pytest.mark.slow  # JAX compiles each (function, n) once
def test_jax_runtime_incomplete_gamma_under_jit_against_mpmath():
    jax = pytest.importorskip("jax", reason="the JAX target needs the optional extra jax")
    from fhsym._core import numerics_jax as J

    values = []
    lgs = {n: jax.jit(lambda y, n=n: J.lowergamma_scaled(n, y)) for n in range(9)}
    lug, ug = jax.jit(J.log_uppergamma), jax.jit(J.uppergamma)
    for fn, args, _ in _refs():
        f = lgs[args[0]] if fn == "lowergamma_scaled" else (lug if fn == "log_uppergamma" else ug)
        values.append(float(np.asarray(f(args[1]) if fn == "lowergamma_scaled" else f(*args))))
    _assert_worst(_worst(values), "JAX runtime (jit)")


# ------------------------------------------------------------------------------- the truncated Laplace's entropy
def _tl_entropy(a):
    """-int p log p of p = e^{-a|v|}/Z on [-1, 1], by quadrature at 40 digits (Z too)."""
    with mpmath.workdps(40):
        a = mpmath.mpf(a)
        cuts = sorted({mpmath.mpf(0), min(1 / a, mpmath.mpf(1)), min(10 / a, mpmath.mpf(1)), mpmath.mpf(1)})
        Z = 2 * mpmath.quad(lambda v: mpmath.exp(-a * v), cuts)
        return -2 * mpmath.quad(lambda v: mpmath.exp(-a * v) / Z * (-a * v - mpmath.log(Z)), cuts)


A_TL = (0.01, 0.5, 2.5, 40.0, 700.0)


def _check_entropy(fn, label):
    worst = 0.0
    for a in A_TL:
        ref = _tl_entropy(a)
        err = float(abs(mpmath.mpf(fn(a)) / ref - 1))
        worst = max(worst, err)
        assert err <= 1e-14, (label, a, fn(a), ref)
    print(f"\ntruncated Laplace entropy ({label}): worst relative error vs 40-digit quadrature {worst:.1e}")


def test_c_truncated_laplace_entropy_against_quadrature(lib):
    _check_entropy(_c(lib, "fhsym_truncated_laplace_entropy", 1), "C")


@pytest.mark.slow
def test_jax_truncated_laplace_entropy_under_jit_against_quadrature():
    jax = pytest.importorskip("jax", reason="the JAX target needs the optional extra jax")
    m = importlib.import_module(f"{DL.PACKAGE}.jax_truncated_laplace")
    assert m.ENTROPY is m.entropy
    f = jax.jit(m.entropy)
    _check_entropy(lambda a: float(np.asarray(f(np.float64(a)))), "JAX jit")


# ------------------------------------------------------------------------- the generalised Gaussian (p = 3/2)
def _gg():
    """(log p, sf by quadrature, variance, Fisher information, entropy) of e^{-|v|^{3/2}}/Z at 40 digits."""
    g = lambda v: mpmath.exp(-abs(v) ** mpmath.mpf(1.5))  # noqa: E731 - the declared g(t)
    Z = 2 * mpmath.quad(g, [0, 1, 10, mpmath.inf])

    def sf(t):
        c = g(t)
        return c * mpmath.quad(lambda v: g(v) / c, [t, t + 1, t + 10, mpmath.inf]) / Z

    def mean(h):
        return 2 * mpmath.quad(lambda v: h(v) * g(v) / Z, [0, 1, 10, mpmath.inf])

    return (lambda v: mpmath.log(g(v) / Z), sf, mean(lambda v: v * v),
            mean(lambda v: (mpmath.mpf(1.5) * mpmath.sqrt(v)) ** 2),  # psi' = (3/2) t^{1/2}
            mean(lambda v: -mpmath.log(g(v) / Z)))


TS = (0.0, 0.3, 2.5, 9.0, 40.0, 300.0, 2e4)


def _check_gengauss(get, label):
    worst = {}
    with mpmath.workdps(40):
        logp, sf, var, fisher, ent = _gg()
        for t in TS:
            s, ls = sf(mpmath.mpf(t)), None
            ls = mpmath.log(s)
            rows = [("logsf", get("logsf_0")(t), ls, max(1, abs(ls))), ("logpdf", get("logpdf_0")(t), logp(mpmath.mpf(t)),
                                                                        max(1, abs(logp(mpmath.mpf(t)))))]
            if s > mpmath.mpf("1e-290"):
                rows.append(("sf", get("sf_0")(t), s, s))
            for k, v, ref, scale in rows:
                err = float(abs(mpmath.mpf(v) - ref) / scale)
                worst[k] = max(worst.get(k, 0.0), err)
                assert err <= 2e-14, (label, k, t, v, ref)
        for k, ref in (("variance", var), ("fisher", fisher), ("entropy", ent)):
            err = float(abs(mpmath.mpf(get(k)()) / ref - 1))
            worst[k] = err
            assert err <= 2e-15, (label, k, get(k)(), ref)
    print(f"\ngeneralised Gaussian p = 3/2 ({label}): worst relative error vs 40-digit quadrature: "
          + ", ".join(f"{k} {v:.1e}" for k, v in worst.items()))


def test_c_gengauss_against_quadrature(lib):
    _check_gengauss(lambda k: _c(lib, f"fhsym_gengauss_{k}", 0 if k in ("variance", "fisher", "entropy") else 1), "C")


@pytest.mark.slow
def test_jax_gengauss_under_jit_against_quadrature():
    jax = pytest.importorskip("jax", reason="the JAX target needs the optional extra jax")
    law = example("gengauss").GenGauss
    ns: dict = {}
    exec(compile(law.jax_source(), "<gengauss jax>", "exec"), ns)
    assert ns["DIGEST"] == law.declaration.digest() and ns["ENTROPY"] is ns["entropy"]

    def get(k):
        f = jax.jit(ns[k])
        return lambda *a: float(np.asarray(f(*(np.float64(v) for v in a))))

    _check_gengauss(get, "JAX jit")
