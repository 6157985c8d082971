"""The C99 library: compiled with the system C compiler, checked against mpmath and the numpy API.

The library is the hand-written translation unit ``fhsym/codegen/c/fhsym.c`` (with ``fhsym.h`` and the
runtime ``fhsym_special.c``) including the generated ``fhsym/_generated/c/fhsym_kernels.inc``;
``python -m fhsym.codegen --target c --out DIR`` writes all four into DIR, and every test here builds
the library from such a DIR.

* It compiles as strict C99 with every warning an error, and links against libm only.
* A C driver linked against it evaluates every pointwise function and the profile three ways (the
  one-call API, the handle ``fhsym_dist`` point by point, the handle's ``_n`` loops, which read the
  kernels' parameter-only subexpressions set up once), requires the three bit for bit equal, and
  the values match the numpy API (rtol 1e-12; the profile 1e-10) over alpha/gamma from 0 to 1e3.
* Every public function against the mpmath ground truth of ``tests/data`` (quadrature of the
  *definition*, ``proofs/reference.py``; not fhsym's numpy kernels): the 1104 pointwise points
  (pdf, logpdf, cdf, sf, logsf), the 429 quantiles (ppf) and the 36 moments (variance) over
  alpha/gamma in {0} U [1e-6, 1e4], gamma in {1e-6, 1, 1e6}, far tails and |t| = alpha
  (rtol 1e-12); the 1224 privacy-profile points (rtol 1e-10; absolute 1e-300 where delta
  underflows).
* Every runtime special function (``fhsym/codegen/c/fhsym_special.c``) against mpmath at 40+
  digits over grids spanning its range (``log_gauss_profile`` as the profile: the relative
  error of H = exp(log H) where H >= 1e-300 -- log H ~ 0 where H ~ 1 -- and of log H below).
* Invalid parameters give NaN with errno = EDOM; valid calls leave errno alone.

``pytest -s`` prints the worst relative error of each function (the table of docs/codegen.md).
Skipped, with the reason, when no C compiler is found.
"""

from __future__ import annotations

import ctypes
import errno
import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import mpmath
import numpy as np
import pytest
from mpmath import mp, mpf

from fhsym.codegen import generate as G

C_DIR = G.GENERATED_DIR / "c"  # the generated kernels
SRC_DIR = Path(G.__file__).parent / "c"  # the hand-written translation unit, header and runtime
DATA = Path(__file__).parent / "data"
FLOOR = mpf("1e-300")
CFLAGS = ["-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", "-O2", "-fPIC", "-shared"]

HANDLE_FUNCTIONS = ("logpdf", "pdf", "cdf", "sf", "logsf", "ppf", "privacy_profile")
PUBLIC = {
    "fhsym_logpdf": 3, "fhsym_pdf": 3, "fhsym_cdf": 3, "fhsym_sf": 3, "fhsym_logsf": 3, "fhsym_ppf": 3,
    "fhsym_variance": 2, "fhsym_privacy_profile": 4,
}
RUNTIME = {
    "fhsym_erfcx": 1, "fhsym_log_ndtr": 1, "fhsym_ndtri": 1, "fhsym_ndtri_exp": 1, "fhsym_exprel": 1, "fhsym_erfinv": 1,
    "fhsym_lowergamma3_scaled": 1, "fhsym_log1mexp": 1, "fhsym_logaddexp": 2, "fhsym_erfcx_diff": 2,
    "fhsym_gauss_profile": 2, "fhsym_log_gauss_profile": 2, "fhsym_sub_prod": 3, "fhsym_abs_sum_sub": 3,
}


def _compiler():
    for cc in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if cc and shutil.which(cc):
            return cc
    return None


def _generate(tmp):
    """``python -m fhsym.codegen --target c --out tmp``: the whole library, the kernels identical to the checked-in copy."""
    gen = subprocess.run([sys.executable, "-m", "fhsym.codegen", "--target", "c", "--out", str(tmp)], capture_output=True, text=True)
    assert gen.returncode == 0, gen.stdout + gen.stderr
    assert sorted(p.name for p in tmp.iterdir()) == ["fhsym.c", "fhsym.h", "fhsym_kernels.inc", "fhsym_special.c"]
    assert (tmp / "fhsym_kernels.inc").read_text() == (C_DIR / "fhsym_kernels.inc").read_text(), "checked-in copy is stale"
    for name in ("fhsym.c", "fhsym.h", "fhsym_special.c"):  # verbatim copies of the hand-written sources
        assert (tmp / name).read_text() == (SRC_DIR / name).read_text()
    return tmp


@pytest.fixture(scope="module")
def generated(shared_dir):
    """The generated library (read only): ``_generate`` once per session, shared by the xdist workers
    (tests/conftest.py)."""
    if _compiler() is None:
        pytest.skip("no C compiler found (tried $CC, cc, gcc, clang): the C target cannot be built here")
    return shared_dir("fhsym_c", _generate)


@pytest.fixture(scope="module")
def build(tmp_path_factory):
    """This worker's directory for what is compiled from ``generated``."""
    return tmp_path_factory.mktemp("fhsym_c_build")


@pytest.fixture(scope="module")
def lib(generated, build):
    out = build / "libfhsym.so"
    cmd = [_compiler(), *CFLAGS, str(generated / "fhsym.c"), "-o", str(out), "-lm"]  # nothing but DIR/fhsym.c
    res = subprocess.run(cmd, capture_output=True, text=True)
    assert res.returncode == 0, f"{' '.join(cmd)}\n{res.stdout}{res.stderr}"
    so = ctypes.CDLL(str(out), use_errno=True)
    for name, n in {**PUBLIC, **RUNTIME}.items():
        f = getattr(so, name)
        f.restype = ctypes.c_double
        f.argtypes = [ctypes.c_double] * n
    return so


def rel_err(actual: float, expected) -> mpf:
    """|a - e| / max(|e|, 1e-300), a the exact double returned (as tests/test_distribution_accuracy.py)."""
    with mp.workdps(40):
        e = mpf(expected)
        if math.isnan(actual):
            return mp.inf
        if mpmath.isinf(e) or math.isinf(actual):
            return mpf(0) if actual == e else mp.inf
        return abs(mpf(actual) - e) / max(abs(e), FLOOR)


class Worst:
    def __init__(self, name):
        self.name, self.rows = name, []

    def add(self, err, where):
        self.rows.append((err, where))

    def check(self, tol):
        assert self.rows, f"{self.name}: nothing compared"
        self.rows.sort(key=lambda r: r[0], reverse=True)
        worst, where = self.rows[0]
        print(f"\nC {self.name}: worst rel err {mpmath.nstr(worst, 3)} at {where} over {len(self.rows)} points (rtol {tol:g})")
        bad = [r for r in self.rows if not r[0] <= tol]
        assert not bad, f"C {self.name}: {len(bad)} points exceed {tol:g}; worst: " + "; ".join(
            f"{mpmath.nstr(e, 3)} at {w}" for e, w in bad[:8])


def _data():
    return json.loads((DATA / "fh_reference.json").read_text())


def _includes(path):
    return sorted({line.split()[1] for line in path.read_text().splitlines() if line.startswith("#include")})


def test_compiles_as_strict_c99_with_libm_only(lib):
    assert _includes(SRC_DIR / "fhsym.c") == ['"fhsym.h"', '"fhsym_kernels.inc"', '"fhsym_special.c"', "<errno.h>", "<math.h>"]
    assert _includes(SRC_DIR / "fhsym_special.c") == _includes(C_DIR / "fhsym_kernels.inc") == []
    assert _includes(SRC_DIR / "fhsym.h") == ["<stddef.h>"]


@pytest.mark.parametrize("name", ["pdf", "logpdf", "cdf", "sf", "logsf"])
def test_pointwise_against_quadrature(lib, name):
    f = getattr(lib, f"fhsym_{name}")
    worst = Worst(name)
    for r in _data()["pointwise"]:
        x, a, g = float(r["x"]), float(r["alpha"]), float(r["gamma"])
        worst.add(rel_err(f(x, a, g), r[name]), f"alpha={r['alpha']} gamma={r['gamma']} x={r['x']}")
    worst.check(1e-12)


def test_ppf_against_quadrature(lib):
    worst = Worst("ppf")
    for r in _data()["quantiles"]:
        q, a, g = float(r["q"]), float(r["alpha"]), float(r["gamma"])
        worst.add(rel_err(lib.fhsym_ppf(q, a, g), r["ppf"]), f"alpha={r['alpha']} gamma={r['gamma']} q={r['q']}")
    worst.check(1e-12)


def test_variance_against_quadrature(lib):
    worst = Worst("variance")
    for r in _data()["moments"]:
        a, g = float(r["alpha"]), float(r["gamma"])
        worst.add(rel_err(lib.fhsym_variance(a, g), r["variance"]), f"alpha={r['alpha']} gamma={r['gamma']}")
    worst.check(1e-12)


def test_variance_in_the_laplace_limit(lib):
    """alpha/gamma from 64 to 1e300 (the Laplace-limit piece, b > 64): against mpmath of the cancellation-free form of
    eq 11 (proven equal to it in proofs/laplace_limit.py); subnormal results to 1 unit of 4.9e-324."""
    from proofs.laplace_limit import references

    worst, sub = Worst("variance (alpha/gamma in [64, 1e300])"), 0.0
    for b in [63.99, 64.0, 64.01, 100.0, 1e4, 1e15, 1e51, 1e60, 1e102, 1e150, 1e153, 1e155, 1e200, 1e300]:
        for g in (1.0, 1e-6, 1e6):
            a = b * g
            if not math.isfinite(a):
                continue
            with mp.workdps(50):
                ref = references(mpf(a) / mpf(g))["variance_of_b"] * mpf(g) ** 2
                got = lib.fhsym_variance(a, g)
                if abs(ref) < mpf("2.2250738585072014e-308"):
                    sub = max(sub, float(abs(mpf(got) - ref) / mpf("4.9406564584124654e-324")))
                    continue
            worst.add(rel_err(got, ref), f"alpha={a!r} gamma={g!r}")
    print(f"C variance below the smallest normal: worst error {sub:.2f} units of 4.9e-324")
    assert sub <= 1.0
    worst.check(1e-12)


def _exact_units(a, g, D):
    """b = alpha/gamma and D/gamma are exact doubles (then the kink eps = bD is where the kernels see it)."""
    return all(math.ldexp(*math.frexp(x / g)) * g == x and mpf(x) / mpf(g) == mpf(x / g) for x in (a, D))


def test_privacy_profile_against_quadrature(lib):
    """delta vs quadrature of int [g(t) - e^eps g(t + Delta)]_+ dt: rtol 1e-10 (absolute 1e-300 below).

    Within 1e-6 (relative) of the kink eps = alpha Delta/gamma^2, where alpha/gamma or Delta/gamma is not
    an exact double, the kernels see eps - bD through the rounded ratios (up to ~1e-8 relative in delta);
    the Python API re-evaluates those points in mpmath, the C library cannot.  They are reported
    separately and held to 1e-7.
    """
    rows = json.loads((DATA / "privacy_profile_reference.json").read_text())["rows"]
    worst, near = Worst("privacy_profile"), Worst("privacy_profile near the kink, inexact alpha/gamma or Delta/gamma")
    for r in rows:
        eps, a, g, D = (float(r[k]) for k in ("eps", "alpha", "gamma", "Delta"))
        with mp.workdps(40):
            ref = mp.exp(mpf(r["log_delta"])) if r["log_delta"] != "-inf" else mpf(0)
        got = lib.fhsym_privacy_profile(eps, a, g, D)
        where = f"eps={r['eps']} alpha={r['alpha']} gamma={r['gamma']} Delta={r['Delta']}"
        b, Dn = a / g, D / g
        kink = abs(eps - b * Dn) <= 1e-6 * max(1.0, b * Dn)
        (near if kink and not _exact_units(a, g, D) else worst).add(rel_err(got, ref), where)
    worst.check(1e-10)
    if near.rows:
        near.check(1e-7)


def test_invalid_parameters_are_nan_with_edom(lib):
    bad = [
        ("fhsym_logpdf", (0.0, -1.0, 1.0)), ("fhsym_pdf", (0.0, 1.0, 0.0)), ("fhsym_cdf", (math.nan, 1.0, 1.0)),
        ("fhsym_sf", (0.0, math.inf, 1.0)), ("fhsym_logsf", (0.0, 1.0, -2.0)), ("fhsym_ppf", (1.5, 1.0, 1.0)),
        ("fhsym_ppf", (-0.1, 1.0, 1.0)), ("fhsym_variance", (1.0, math.nan)), ("fhsym_variance", (1e300, 1e-300)),
        ("fhsym_privacy_profile", (-1.0, 1.0, 1.0, 1.0)), ("fhsym_privacy_profile", (1.0, 1.0, 1.0, 0.0)),
        ("fhsym_privacy_profile", (math.inf, 1.0, 1.0, 1.0)), ("fhsym_privacy_profile", (1.0, 1.0, 1e-300, 1e300)),
    ]
    for name, args in bad:
        ctypes.set_errno(0)
        v = getattr(lib, name)(*args)
        assert math.isnan(v) and ctypes.get_errno() == errno.EDOM, (name, args, v, ctypes.get_errno())
    good = [("fhsym_sf", (1e4, 1.0, 1.0)), ("fhsym_pdf", (1e4, 1.0, 1.0)), ("fhsym_privacy_profile", (2000.0, 1.0, 2.0, 1.0)),
            ("fhsym_cdf", (math.inf, 1.0, 1.0)), ("fhsym_ppf", (0.0, 1.0, 1.0))]
    for name, args in good:
        ctypes.set_errno(0)
        v = getattr(lib, name)(*args)
        assert not math.isnan(v) and ctypes.get_errno() == 0, (name, args, v, ctypes.get_errno())
    assert lib.fhsym_cdf(math.inf, 1.0, 1.0) == 1.0 and lib.fhsym_ppf(1.0, 1.0, 2.0) == math.inf


# ----------------------------------------------------------------------------
# a C program linked against the generated library: the handle, its loops and the one-call API
# against each other (bit for bit) and against the numpy API
# ----------------------------------------------------------------------------
DRIVER = Path(__file__).parent / "c" / "fhsym_driver.c"
SHAPES = [(a * g, g) for a in (0.0, 0.5, 1.0, 2.0, 10.0, 1e3) for g in (1e-3, 1.0, 7.0)]


@pytest.fixture(scope="module")
def driver(generated, build):
    exe = build / "fhsym_driver"
    cmd = [_compiler(), "-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", "-O2", "-I", str(generated), str(DRIVER),
           str(generated / "fhsym.c"), "-o", str(exe), "-lm"]
    res = subprocess.run(cmd, capture_output=True, text=True)
    assert res.returncode == 0, f"{' '.join(cmd)}\n{res.stdout}{res.stderr}"
    return exe


def _run_driver(exe, blocks):
    """blocks: (function, alpha, gamma, sensitivity, points); returns per block (return code, errno, values)."""
    text = "".join(f"{f} {a.hex()} {g.hex()} {s.hex()} {len(x)}\n" + " ".join(float(v).hex() for v in x) + "\n"
                   for f, a, g, s, x in blocks)
    res = subprocess.run([str(exe)], input=text, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr
    lines, out = res.stdout.splitlines(), []
    for f, _, _, _, x in blocks:
        if f == "variance":
            out.append((0, 0, np.array([float.fromhex(lines.pop(0))])))
            continue
        rc, err = map(int, lines.pop(0).split())
        out.append((rc, err, np.array([float.fromhex(lines.pop(0)) for _ in x])))
    assert not lines
    return out


def _points(a, g, rng):
    """t over the centre, |t| = alpha, the tails and +-inf; q over (0, 1) and its ends; eps off the kink (sensitivity gamma)."""
    b = a / g
    s = np.concatenate([rng.normal(0, 1, 150), rng.normal(0, 1, 50) * (b + 1) * 3, [0.0, b, -b, 40.0, -40.0, 1e4]])
    t = np.concatenate([s * g, [np.inf, -np.inf]])
    q = np.concatenate([rng.uniform(0, 1, 150), 10.0 ** rng.uniform(-300, -1, 40), 1 - 10.0 ** rng.uniform(-16, -1, 20),
                        [0.0, 1.0, 0.25, 0.5, 0.75]])
    eps = np.concatenate([rng.uniform(0, 2 * b + 3, 150), 10.0 ** rng.uniform(-4, 2.5, 50), [0.0]])
    eps = eps[np.abs(eps - b) > 1e-6 * max(1.0, b)]
    return t, q, eps


def test_handle_loops_and_one_call_api_agree_and_match_the_numpy_api(driver):
    import fhsym

    rng = np.random.default_rng(20261127)
    blocks, refs = [], []
    for a, g in SHAPES:
        fh = fhsym.FlippedHuber(a, g)
        t, q, eps = _points(a, g, rng)
        for name in HANDLE_FUNCTIONS[:5]:
            blocks.append((name, a, g, 0.0, t))
            refs.append(np.asarray(getattr(fh, name)(t), dtype=float))
        blocks.append(("ppf", a, g, 0.0, q))
        refs.append(np.asarray(fh.ppf(q), dtype=float))
        blocks.append(("privacy_profile", a, g, g, eps))
        refs.append(np.asarray(fhsym.privacy_profile(eps, a, g, g), dtype=float))
        blocks.append(("variance", a, g, 0.0, np.array([])))
        refs.append(np.array([fh.var()]))
    worst = {}
    for (name, a, g, _, x), (rc, err, got), ref in zip(blocks, _run_driver(driver, blocks), refs):
        assert rc == 0 and err == 0, (name, a, g, rc, err)  # valid points: the loop returns 0, errno untouched
        with np.errstate(invalid="ignore"):  # inf - inf where both are the same infinity (0 below)
            rel = np.where(got == ref, 0.0, np.abs(got - ref) / np.maximum(np.abs(ref), 1e-300))
        rel[np.isnan(rel)] = np.inf
        i = int(np.argmax(rel))
        if rel[i] >= worst.get(name, (-1.0,))[0]:
            worst[name] = (float(rel[i]), f"alpha={a!r} gamma={g!r} x={float(x[i])!r}" if len(x) else f"alpha={a!r} gamma={g!r}")
    for name, (err, where) in sorted(worst.items()):
        print(f"\nC handle loop {name} vs numpy API: worst rel err {err:.3g} at {where}")
        assert err <= (1e-10 if name == "privacy_profile" else 1e-12), (name, err, where)
    assert set(worst) == set(HANDLE_FUNCTIONS) | {"variance"}


def test_handle_refuses_invalid_parameters_and_points(driver):
    bad = [("cdf", -1.0, 1.0), ("pdf", 1.0, 0.0), ("ppf", math.nan, 1.0), ("sf", 1.0, math.inf), ("variance", 1e300, 1e-300)]
    res = subprocess.run([str(driver)], input="".join(f"{f} {a!r} {g!r} 1 0\n" for f, a, g in bad), capture_output=True, text=True)
    assert res.returncode == 0 and res.stdout.split("\n")[:-1] == ["EDOM 1"] * len(bad), res.stdout
    blocks = [("cdf", 1.0, 2.0, 0.0, np.array([0.5, np.nan, 3.0])), ("ppf", 1.0, 2.0, 0.0, np.array([0.3, 1.5, -0.1, 0.9])),
              ("privacy_profile", 1.0, 2.0, 1.0, np.array([0.5, -1.0, np.inf, 2.0])),
              ("privacy_profile", 1.0, 2.0, 0.0, np.array([0.5, 1.0]))]  # sensitivity 0: every point refused
    ok_points = [[0, 2], [0, 3], [0, 3], []]
    for (name, _, _, _, x), (rc, err, got), ok in zip(blocks, _run_driver(driver, blocks), ok_points):
        assert rc == errno.EDOM and err == errno.EDOM, (name, rc, err)
        bad_points = [i for i in range(len(x)) if i not in ok]
        assert np.isnan(got[bad_points]).all() and np.isfinite(got[ok]).all(), (name, got)


# ----------------------------------------------------------------------------
# the runtime special functions against mpmath
# ----------------------------------------------------------------------------
def _logspace(lo, hi, n):
    return [10.0 ** (lo + (hi - lo) * i / (n - 1)) for i in range(n)]


def _ncdf_log(x):
    """log Phi(x); log1p(-Phi(-x)) on the right, where Phi(x) = 1 - tiny."""
    x = mpf(x)
    return mpmath.log(mpmath.ncdf(x)) if x <= 0 else mpmath.log1p(-mpmath.ncdf(-x))


def _erfcx_ref(x):
    """exp(x^2) erfc(x); for x >= 1e10 the asymptotic series 1/(x sqrt(pi)) (1 - 1/(2x^2)), remainder < 1e-40."""
    x = mpf(x)
    if x >= 1e10:
        return (1 - 1 / (2 * x * x)) / (x * mpmath.sqrt(mpmath.pi))
    return mpmath.exp(x * x) * mpmath.erfc(x)


def _ndtri_ref(p):
    """The root of log Phi(x) = log p (p <= 1/2) or log Phi(-x) = log(1 - p), by mpmath.findroot at 50 digits."""
    if p == 0.5:
        return mpf(0)
    with mp.workdps(50):
        if p > 0.5:
            return -_ndtri_ref_low(1 - mpf(p))
        return _ndtri_ref_low(mpf(p))


def _ndtri_ref_low(p):
    x0 = -mpmath.sqrt(-2 * mpmath.log(p)) if p < 0.1 else mpf(-0.5)
    return mpmath.findroot(lambda x: _ncdf_log(x) - mpmath.log(p), x0, tol=mpf(10) ** -45)


def _ndtri_exp_ref(y, start):
    with mp.workdps(50):
        return mpmath.findroot(lambda x: _ncdf_log(x) - y, mpf(start), tol=mpf(10) ** -45)


def _gauss_profile_ref(x, D):
    # the two terms agree to at most ~1/(D max(1, |x|)) relative: 100 digits cover every point of the grid
    with mp.workdps(100):
        x, D = mpf(x), mpf(D)
        return mpmath.ncdf(-x) - mpmath.exp(D * x + D * D / 2) * mpmath.ncdf(-(x + D))


SPECIAL = {
    # name: (points, mpmath reference, rtol)
    "fhsym_erfcx": ([-26.0, -5.0, -1.0, -1e-8, 0.0] + _logspace(-10, 300, 120),
                    _erfcx_ref, 1e-14),
    "fhsym_log_ndtr": ([-x for x in _logspace(-8, 5, 80)] + [0.0] + _logspace(-8, 1.6, 60),
                       _ncdf_log, 1e-14),
    "fhsym_ndtri": (_logspace(-300, -0.31, 120) + [0.5, 0.5 + 1e-12, 0.75, 0.9, 1 - 1e-10, 1 - 2.0**-53],
                    _ndtri_ref, 1e-14),
    "fhsym_exprel": ([-700.0, -30.0, -1.0, -1e-3, -1e-12, 0.0, 1e-12, 1e-3, 1.0, 30.0, 700.0],
                     lambda x: mpmath.expm1(x) / x if x != 0 else mpf(1), 1e-15),
    "fhsym_erfinv": ([-0.999, -0.5, -1e-9] + [1 - 10.0**-k for k in range(1, 16)] + _logspace(-300, -0.01, 40),
                     lambda z: mpmath.erfinv(z), 1e-14),
    "fhsym_lowergamma3_scaled": ([0.0] + _logspace(-12, 12, 80),
                                 lambda y: mpmath.gammainc(3, 0, y) / mpf(y) ** 3 if y else mpf(1) / 3, 1e-14),
    "fhsym_log1mexp": (_logspace(-12, 2.8, 60), lambda x: mpmath.log1p(-mpmath.exp(-mpf(x))), 1e-14),
}


@pytest.mark.parametrize("name", sorted(SPECIAL) + ["fhsym_ndtri_exp", "fhsym_erfcx_diff", "fhsym_gauss_profile",
                                                   "fhsym_log_gauss_profile", "fhsym_logaddexp", "fhsym_sub_prod",
                                                   "fhsym_abs_sum_sub"])
def test_runtime_special_function_against_mpmath(lib, name):
    f = getattr(lib, name)
    worst = Worst(name.replace("fhsym_", "runtime "))
    if name in SPECIAL:
        pts, ref, tol = SPECIAL[name]
        for x in pts:
            with mp.workdps(50):
                worst.add(rel_err(f(x), ref(x)), f"x={x!r}")
    elif name == "fhsym_ndtri_exp":
        tol = 1e-14
        for y in [-x for x in _logspace(-12, 6, 90)]:
            got = f(y)
            worst.add(rel_err(got, _ndtri_exp_ref(y, got)), f"y={y!r}")
    elif name == "fhsym_erfcx_diff":
        tol = 1e-13
        for y in [-26.0, -10.0, -1.0, 0.0, 0.5, 3.0, 6.9, 7.0, 9.0, 15.0, 40.0, 1e3, 1e6, 1e8]:
            for k in [0.0, 1e-12, 1e-6, 1e-3, 0.3, 1.0, 10.0, 1e3, 1e8]:
                with mp.workdps(80):
                    ref = _erfcx_ref(y) - _erfcx_ref(mpf(y) + mpf(k))
                worst.add(rel_err(f(y, k), ref) if ref != 0 else mpf(abs(f(y, k))), f"y={y!r} k={k!r}")
        for k in [0.0, 1.0, math.inf]:  # the limit erfcx(inf) - erfcx(inf + k) = 0 (was NaN)
            assert f(math.inf, k) == 0.0, f"erfcx_diff(inf, {k}) = {f(math.inf, k)}"
    elif name in ("fhsym_gauss_profile", "fhsym_log_gauss_profile"):
        tol = 2e-13
        for x in [-40.0, -12.0, -5.5, -5.0, -1.0, 0.0, 0.5, 3.0, 10.0, 37.0, 1e3, 1e5]:
            for D in [1e-10, 1e-4, 0.1, 1.0, 7.0, 30.0, 100.0]:
                ref = _gauss_profile_ref(x, D)
                if name == "fhsym_log_gauss_profile":  # as the profile: relative on H >= 1e-300, on log H below
                    with mp.workdps(100):
                        got, lref = mpf(f(x, D)), mpmath.log(ref)
                        err = abs(mpmath.expm1(got - lref)) if ref >= FLOOR else abs(got - lref) / abs(lref)
                    worst.add(err, f"x={x!r} D={D!r}")
                    continue
                worst.add(rel_err(f(x, D), ref), f"x={x!r} D={D!r}")
    elif name == "fhsym_logaddexp":
        tol = 1e-15
        for x in [-800.0, -30.0, -1.0, 0.0, 2.5, 700.0]:
            for y in [-800.0, -31.0, -1.0, 0.0, 1e-10, 3.0, 710.0]:
                with mp.workdps(50):
                    worst.add(rel_err(f(x, y), mpmath.log(mpmath.exp(x) + mpmath.exp(y))), f"x={x!r} y={y!r}")
    elif name == "fhsym_sub_prod":
        tol = 1.2e-16  # one rounding
        for e, x, y in [(3.0, 1.0 / 3.0, 9.0), (1.0, 0.1, 10.0), (30.0, 6.62, 4.5317), (1e-300, 1e-150, 1e-150), (2.0, 3.0, -5.0)]:
            with mp.workdps(50):
                ref = mpf(e) - mpf(x) * mpf(y)
            worst.add(rel_err(f(e, x, y), ref) if ref != 0 else mpf(abs(f(e, x, y))), f"e={e!r} x={x!r} y={y!r}")
    else:  # fhsym_abs_sum_sub
        tol = 1.2e-16
        for x, y, c in [(1.0, 1e-17, 1.0), (-1.0 - 1e-12, 2e-12, 1.0), (5.0, 1e-12, 10.0), (-3.0, 1.0, 0.5), (0.7, 0.35, 1.05)]:
            with mp.workdps(50):
                ref = abs(mpf(x) + mpf(y)) - mpf(c)
            worst.add(rel_err(f(x, y, c), ref) if ref != 0 else mpf(abs(f(x, y, c))), f"x={x!r} y={y!r} c={c!r}")
    worst.check(tol)


def test_documented_example_builds_and_runs(tmp_path, generated):
    """The C example of docs/codegen.md, built with the documented commands (the library generated into a
    directory -- the ``generated`` fixture runs that command, ``_generate``; copied here -- then one cc call),
    prints what it says."""
    cc = _compiler()
    doc = (Path(__file__).parent.parent / "docs" / "codegen.md").read_text()
    assert "python -m fhsym.codegen --target c --out fhsym_c" in doc
    assert "cc -std=c99 -O2 -I fhsym_c example.c fhsym_c/fhsym.c -o example -lm" in doc
    shutil.copytree(generated, tmp_path / "fhsym_c")
    example = doc.split("```c\n", 1)[1].split("```", 1)[0]
    (tmp_path / "example.c").write_text(example)
    cmd = [cc, "-std=c99", "-O2", "-Wall", "-Wextra", "-Werror", "-I", "fhsym_c", "example.c", "fhsym_c/fhsym.c", "-o", "example", "-lm"]
    res = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path)
    assert res.returncode == 0, f"{' '.join(cmd)}\n{res.stderr}"
    out = subprocess.run([str(tmp_path / "example")], capture_output=True, text=True, check=True).stdout.split("\n")
    expected = [line.split("/*")[1].split("*/")[0].strip() for line in example.splitlines() if "printf" in line]
    assert out[: len(expected)] == expected
