"""The exact lattice sampler: exactness of its pieces, goodness of fit, float-freedom.

* ``exp_neg_bounds``/``logistic_bounds`` enclose 2^n e^{-y} (2^n/(1+e^y)) by mpmath at 60 digits.
* Goodness of fit: 10^6 exact draws per shape (seeded PCG64, so deterministic) against the pmf
  computed *independently* by exact 80-digit summation of the definition
  (``proofs.discrete.Reference``); chi-square over the lattice points with expected count >= 5
  plus one pooled bin; the test fails if p < 1e-3 (a correct sampler with a fresh seed would
  fail with probability 1e-3 per shape).  10^6 draws per shape run in CI (about 1 s each).
* Float-freedom: an AST audit of ``fhsym/noise/exact_sampling.py`` (no float literal, no
  ``float``, no true division, no ``math``, only integer NumPy names) and a run-time audit with
  ``sys.settrace`` that inspects every local variable of every frame of the module while
  sampling (none may be a float, a NumPy floating scalar or a floating array).
"""

from __future__ import annotations

import ast
import inspect
import random
import sys
from fractions import Fraction
from pathlib import Path

import mpmath
import numpy as np
import pytest
from scipy import stats

from fhsym.noise import exact_sampling as XS
from fhsym.noise.discrete_flipped_huber import DiscreteFlippedHuber
from proofs.discrete import Reference

P_MIN = 1e-3
N_DRAWS = 10**6

SHAPES = [  # (alpha, gamma, step, label)
    (0.01, 1.0, 0.5, "alpha << step"),
    (1.0, 2.0, 1.0, "alpha = step"),
    (0.75, 1.0, 0.5, "alpha ~ step"),
    (5.0, 1.0, 0.01, "alpha >> step"),
    (3.0, 1.0, 1.0, "alpha >> gamma (Laplace-like)"),
    (1.0, 30.0, 0.5, "large gamma"),
    (0.0, 10.0, 1.0, "discrete Gaussian"),
    (0.3, 0.25, 0.25, "gamma ~ step"),
]


# ---------------------------------------------------------------------------
# exact probability oracles
# ---------------------------------------------------------------------------


def test_exp_and_logistic_bounds_enclose_the_truth():
    rng = random.Random(5)
    with mpmath.workdps(60):
        for _ in range(1500):
            y = Fraction(rng.randrange(0, 10**6), rng.randrange(1, 10**4)) * rng.choice([1, Fraction(1, 1000), 50])
            n = rng.choice([32, 64, 96, 160])
            ym = mpmath.mpf(y.numerator) / y.denominator
            lo, hi = XS.exp_neg_bounds(y, n)
            t = mpmath.exp(-ym) * mpmath.mpf(2) ** n
            assert lo <= t <= hi and hi - lo <= 2, (y, n)
            lo, hi = XS.logistic_bounds(y, n)
            t = mpmath.mpf(2) ** n / (1 + mpmath.exp(ym))
            assert lo <= t <= hi and hi - lo <= 2, (y, n)


def test_exact_probability_recognises_one_and_zero():
    assert XS.ExactProbability.exp_neg(0).always
    one = XS.bernoulli(XS.ExactProbability.exp_neg(0), 1000, XS.RandomBits(1))
    assert one.all()
    tiny = XS.ExactProbability.exp_neg(10**6)  # e^-1e6: never decided 1 by the first 32 bits
    assert tiny.lo == 0 and tiny.hi == 1


def test_refinement_path_is_exact():
    """A probability whose first-stage bounds are deliberately wide, so that half of the trials
    go through the scalar refinement: the frequency must still be p."""
    p_true = XS.ExactProbability.exp_neg(Fraction(1, 3))

    def wide(n):
        lo, hi = p_true.bounds(n)
        return (lo - (1 << 30), hi + (1 << 30)) if n == 32 else (lo, hi)

    p = XS.ExactProbability(wide, "wide")
    src = XS.RandomBits(11)
    n = 40_000
    x = XS.bernoulli(p, n, src)
    expected = float(mpmath.exp(-mpmath.mpf(1) / 3))
    z = (x.mean() - expected) / np.sqrt(expected * (1 - expected) / n)
    assert abs(z) < 4, z


def test_bernoulli_exp_minus_one_frequency():
    p = XS.ExactProbability.exp_neg(1)
    n = 10**6
    x = XS.bernoulli(p, n, XS.RandomBits(3))
    e = float(mpmath.exp(-1))
    z = (x.mean() - e) / np.sqrt(e * (1 - e) / n)
    assert abs(z) < 4, z


# ---------------------------------------------------------------------------
# goodness of fit
# ---------------------------------------------------------------------------


def _chi2(k: np.ndarray, probs: dict) -> tuple:
    """Chi-square over lattice points with expected >= 5, the rest pooled in one bin."""
    n = k.size
    keys = sorted(probs)
    vals, counts = np.unique(k, return_counts=True)
    got = dict(zip(vals.tolist(), counts.tolist()))
    obs, exp = [], []
    pooled_o, pooled_e = n, float(n)
    for key in keys:
        e = probs[key] * n
        if e >= 5:
            obs.append(got.get(key, 0))
            exp.append(e)
            pooled_o -= got.get(key, 0)
            pooled_e -= e
    obs.append(pooled_o)
    exp.append(max(pooled_e, 0.0))
    obs, exp = np.array(obs, float), np.array(exp)
    if exp[-1] < 5:  # merge a tiny pooled bin into the smallest other bin
        j = int(np.argmin(exp[:-1]))
        obs[j] += obs[-1]
        exp[j] += exp[-1]
        obs, exp = obs[:-1], exp[:-1]
    chi = float(((obs - exp) ** 2 / exp).sum())
    df = len(obs) - 1
    return chi, df, float(stats.chi2.sf(chi, df))


def _exact_pmf(alpha, gamma, step, kmax):
    ref = Reference(alpha, gamma, step)
    with mpmath.workdps(40):
        return {k: float(ref.w(k) / ref.Z) for k in range(-kmax, kmax + 1)}


@pytest.mark.parametrize("alpha,gamma,step,label", SHAPES)
def test_goodness_of_fit_1e6_draws(alpha, gamma, step, label):
    d = DiscreteFlippedHuber(alpha, gamma, step)
    k = d.rvs(N_DRAWS, random_state=20240611, output="index")
    assert k.dtype == np.int64 and k.shape == (N_DRAWS,)
    kmax = int(np.abs(k).max()) + 5
    probs = _exact_pmf(alpha, gamma, step, kmax)
    chi, df, p = _chi2(k, probs)
    print(f"\n[chi2] {label} (alpha={alpha}, gamma={gamma}, step={step}): {N_DRAWS} draws, chi2 = {chi:.1f}, df = {df}, p = {p:.3f}")
    assert df >= 1
    assert p > P_MIN


def test_point_mass_regime():
    """gamma << step: P(k != 0) = 2 e^{-(c^2 + b^2)/2}/Z = 2 e^{-50}-ish; 10^5 draws are all 0."""
    d = DiscreteFlippedHuber(1.0, 0.1, 1.0)
    k = d.rvs(10**5, random_state=1, output="index")
    assert (k == 0).all()


@pytest.mark.parametrize("sigma", [Fraction(1, 2), 3, 10.5])
def test_discrete_gaussian_sampler(sigma):
    s = Fraction(sigma)
    k = XS.sample_discrete_gaussian(sigma, 300_000, random_state=7)
    kmax = int(np.abs(k).max()) + 3
    with mpmath.workdps(40):
        w = {j: mpmath.exp(-mpmath.mpf(j * j) / (2 * mpmath.mpf(s.numerator) ** 2 / s.denominator**2)) for j in range(-kmax - 200, kmax + 201)}
        Z = mpmath.fsum(w.values())
        probs = {j: float(v / Z) for j, v in w.items()}
    chi, df, p = _chi2(k, probs)
    assert p > P_MIN, (chi, df)


@pytest.mark.parametrize("scale", [Fraction(1, 3), 2, 25.0])
def test_discrete_laplace_sampler(scale):
    t = Fraction(scale)
    k = XS.sample_discrete_laplace(scale, 300_000, random_state=8)
    kmax = int(np.abs(k).max()) + 3
    r = mpmath.exp(-mpmath.mpf(t.denominator) / t.numerator)
    probs = {j: float((1 - r) / (1 + r) * r ** abs(j)) for j in range(-kmax, kmax + 1)}
    chi, df, p = _chi2(k, probs)
    assert p > P_MIN, (chi, df)


def test_geometric_sampler_mean():
    theta = Fraction(1, 50)
    g = XS.Geometric(theta).sample(400_000, XS.RandomBits(9))
    r = float(mpmath.exp(-mpmath.mpf(1) / 50))
    mean, var = r / (1 - r), r / (1 - r) ** 2
    z = (g.mean() - mean) / np.sqrt(var / g.size)
    assert abs(z) < 4


# ---------------------------------------------------------------------------
# randomness sources
# ---------------------------------------------------------------------------


def test_seeded_sources_are_reproducible_and_distinct():
    d = DiscreteFlippedHuber(1.0, 2.0, 0.25)
    a = d.rvs(1000, random_state=42, output="index")
    b = d.rvs(1000, random_state=42, output="index")
    c = d.rvs(1000, random_state=43, output="index")
    assert (a == b).all() and not (a == c).all()
    r1 = d.rvs(500, random_state=random.Random(5), output="index")
    r2 = d.rvs(500, random_state=random.Random(5), output="index")
    assert (r1 == r2).all()
    g = d.rvs(500, random_state=np.random.default_rng(5), output="index")
    assert g.shape == (500,)
    legacy = d.rvs(500, random_state=np.random.RandomState(5), output="index")
    assert legacy.shape == (500,)
    os_draw = d.rvs(500, output="index")  # the OS CSPRNG
    assert os_draw.shape == (500,)


@pytest.mark.parametrize("bad", [-1, 1.5, "seed", object()])
def test_bad_random_state_raises(bad):
    with pytest.raises(ValueError, match="random_state"):
        XS.RandomBits(bad)


def test_outputs_and_shapes():
    d = DiscreteFlippedHuber(1.0, 2.0, 0.25)
    x = d.rvs((3, 4), random_state=1)
    k = d.rvs((3, 4), random_state=1, output="index")
    f = d.rvs((3, 4), random_state=1, output="fraction")
    assert x.shape == k.shape == f.shape == (3, 4)
    assert all(Fraction(v) == int(kk) * Fraction(0.25) for v, kk in zip(f.ravel(), k.ravel()))
    assert np.array_equal(x, k * 0.25)
    assert np.ndim(d.rvs(random_state=1)) == 0
    with pytest.raises(ValueError, match="output"):
        d.rvs(3, output="float")
    for bad in (-1, 2.5, True, (2, -1)):
        with pytest.raises(ValueError, match="size"):
            d.rvs(bad)


def test_sampler_parameter_validation():
    with pytest.raises(ValueError, match="step/gamma"):
        XS.discrete_flipped_huber_sampler(1.0, 1.0, 2.0**-40)
    with pytest.raises(ValueError, match="gamma"):
        XS.discrete_flipped_huber_sampler(1.0, 0.0, 1.0)
    with pytest.raises(ValueError, match="alpha"):
        XS.discrete_flipped_huber_sampler(-1.0, 1.0, 1.0)
    with pytest.raises(ValueError):
        XS.as_fraction(float("nan"))


# ---------------------------------------------------------------------------
# float-freedom audits
# ---------------------------------------------------------------------------

_NP_ALLOWED = {
    "uint32", "uint8", "int64", "integer", "ndarray", "empty", "zeros", "ones", "frombuffer",
    "flatnonzero", "where", "abs", "concatenate", "unpackbits", "random", "array",
}
_NP_RANDOM_ALLOWED = {"Generator", "PCG64", "RandomState"}
_METHODS_ALLOWED_ON_GENERATORS = {"integers", "randint", "getrandbits"}


def test_ast_audit_of_the_sampling_module():
    src = Path(XS.__file__).read_text()
    tree = ast.parse(src)
    problems = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, (float, complex)):
            problems.append(f"float literal {node.value!r} at line {node.lineno}")
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            problems.append(f"true division at line {node.lineno}")
        if isinstance(node, ast.Name) and node.id in {"float", "math", "complex"}:
            problems.append(f"name {node.id!r} at line {node.lineno}")
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            mods = [a.name for a in node.names] + ([node.module] if isinstance(node, ast.ImportFrom) else [])
            if any(m and m.split(".")[0] in {"math", "cmath", "scipy", "decimal", "statistics"} for m in mods):
                problems.append(f"import of {mods} at line {node.lineno}")
        if isinstance(node, ast.Attribute):
            base = node.value
            if isinstance(base, ast.Name) and base.id == "np" and node.attr not in _NP_ALLOWED:
                problems.append(f"np.{node.attr} at line {node.lineno}")
            if isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name) and base.value.id == "np" and base.attr == "random":
                if node.attr not in _NP_RANDOM_ALLOWED:
                    problems.append(f"np.random.{node.attr} at line {node.lineno}")
            if isinstance(base, ast.Attribute) and base.attr == "_gen" and node.attr not in _METHODS_ALLOWED_ON_GENERATORS:
                problems.append(f"generator method {node.attr} at line {node.lineno}")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "astype":
            arg = node.args[0] if node.args else None
            if not (isinstance(arg, ast.Attribute) and arg.attr in {"int64", "uint8", "uint32"}) and not (
                isinstance(arg, ast.Name) and arg.id in {"bool", "object"}
            ):
                problems.append(f"astype({ast.unparse(arg) if arg else ''}) at line {node.lineno}")
    assert not problems, "\n".join(problems)


def _is_floaty(v) -> bool:
    if isinstance(v, (float, complex, np.floating, np.complexfloating)):
        return True
    if isinstance(v, np.ndarray) and v.dtype.kind in "fc":
        return True
    if isinstance(v, (list, tuple)) and v and len(v) < 64:
        return any(_is_floaty(x) for x in v)
    return False


def test_runtime_audit_no_float_in_the_sampling_path():
    """Trace every line executed in exact_sampling.py while sampling; check all locals."""
    fname = inspect.getsourcefile(XS)
    shapes = [(1.0, 2.0, 0.25), (0.0, 10.0, 1.0), (5.0, 1.0, 0.01), (0.3, 0.25, 0.25)]
    samplers = [XS.discrete_flipped_huber_sampler(*s) for s in shapes]  # construction converts the float parameters
    seen = {"lines": 0, "frames": set()}
    bad = []

    def check(frame, where):
        for name, v in frame.f_locals.items():
            if _is_floaty(v):
                bad.append(f"{frame.f_code.co_name}:{frame.f_lineno} {where} local {name} = {type(v).__name__}")

    def tracer(frame, event, arg):
        if frame.f_code.co_filename != fname:
            return None
        seen["frames"].add(frame.f_code.co_name)

        def local(frame, event, arg):
            seen["lines"] += 1
            check(frame, event)
            if event == "return" and _is_floaty(arg):
                bad.append(f"{frame.f_code.co_name} returned {type(arg).__name__}")
            return local

        return local

    sys.settrace(tracer)
    try:
        outs = [s.sample(600, random_state=i) for i, s in enumerate(samplers)]
        outs.append(XS.sample_discrete_laplace(Fraction(7, 3), 500, random_state=3))
        outs.append(XS.sample_discrete_gaussian(Fraction(5, 2), 500, random_state=4))
    finally:
        sys.settrace(None)
    assert not bad, "\n".join(bad[:20])
    assert seen["lines"] > 1000
    assert {"sample", "_accept", "accept", "bernoulli"} <= seen["frames"]
    assert all(o.dtype == np.int64 for o in outs)
