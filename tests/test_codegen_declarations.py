"""The declarations the generator prints: every kernel's negative control, every piecewise function's regions.

* Each kernel (distribution, privacy, K-dim) declares its naive float64 paper form and a stress
  point: there the naive form must be measurably wrong (relative error >= 1e-7, or non-finite)
  and the generated float64 kernel right (<= 1e-13), both against the kernel's *paper* SymPy
  expression evaluated in mpmath at the exact binary inputs (precision raised until two
  working precisions agree to 20 digits).  A kernel whose paper form does not fail declares
  why (``no_stress``); there only the kernel's accuracy is required.  ``proofs/`` runs this
  control for the distribution and privacy kernels (it reads the same declarations through
  ``proofs/_naive.py``); here it runs for the kernels proofs/ does not register (K dims), and
  for all of them with ``FHSYM_ALL_CONTROLS=1`` (measured: every kernel <= 3.5e-15).
* Each piecewise function's regions are disjoint and cover the domain: at exact rational
  points (random, plus coincidences of the arguments and the thresholds), exactly one region
  holds.
* The profile's regions are Table I's cases (``symbolic.privacy.TABLE_I``) in standard units:
  where exactly one row of Table I holds, its kernel is the one the dispatch applies.
"""

from __future__ import annotations

import functools
import math
import os
import random
import warnings
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp

from fhsym._generated import flipped_huber, kdim, privacy_loss, privacy_profile
from fhsym.symbolic import kdim as SK
from fhsym.symbolic import laplace_limit as SL
from fhsym.symbolic import privacy as SP
from fhsym.symbolic import stable as SS
from fhsym.symbolic.piecewise import PiecewiseFunction
from fhsym.symbolic.special import rewrite_naive

KERNELS = [(k, flipped_huber) for k in SS.KERNELS]
KERNELS += [(k, privacy_profile) for k in SP.PROFILE_KERNELS] + [(k, privacy_loss) for k in SP.LOSS_KERNELS]
KERNELS += [(k, kdim) for k in SK.KDIM_KERNELS]
FUNCTIONS = [f for f in SL.DISTRIBUTION_FUNCTIONS + SP.PRIVACY_FUNCTIONS + SK.KDIM_FUNCTIONS if isinstance(f, PiecewiseFunction)]

KERNEL_TOL = 1e-13
NAIVE_MIN_ERR = 1e-7


def _exact(x):
    return sp.Rational(*float(x).as_integer_ratio()) if not isinstance(x, int) else sp.Integer(x)


def _paper_value(kernel, point):
    """The kernel's paper expression at the exact point, to 20 digits (mpmath, adaptive precision)."""
    args = [a for a in kernel.args if a != SS.lw]
    paper = rewrite_naive(kernel.paper.subs(SS.lw, SS.LW_PAPER))
    vals = dict(zip(args, (_exact(x) for x in point)))
    if paper.has(sp.Integral):  # moment_std's definition: SymPy's own numerical integration
        expr = paper.subs(vals)
        return mpmath.mpf(str(sp.N(expr, 30))), 30
    f = sp.lambdify(args, paper, modules="mpmath")
    # the paper's forms subtract quantities that agree to ~e^{-b^2}: start with that many digits more
    bv = float(vals.get(SS.b, 0))
    dps0 = 60 + int(bv * bv / math.log(10.0))
    prev = None
    for dps in (dps0 << k for k in range(7)):
        with mpmath.workdps(dps):
            v = f(*[mpmath.mpf(int(x.p)) / int(x.q) for x in vals.values()])
            v = mpmath.re(v) if isinstance(v, mpmath.mpc) and mpmath.im(v) == 0 else v
        if prev is not None and v != 0 and abs(v - prev) <= abs(v) * mpmath.mpf(10) ** -20:
            return v, dps
        prev = v
    raise AssertionError(f"{kernel.name}: the paper form did not converge at {point}")


def _rel(value, truth):
    if not math.isfinite(value):
        return math.inf
    return float(abs(mpmath.mpf(value) - truth) / abs(truth))


@pytest.mark.parametrize("kernel,module", KERNELS, ids=[k.name for k, _ in KERNELS])
def test_kernel_declares_its_piece(kernel, module):
    assert kernel.naive is not None, f"{kernel.name}: no naive paper form declared"
    assert kernel.stress is not None, f"{kernel.name}: no stress point declared"
    point, why = kernel.stress
    assert len(point) == len([a for a in kernel.args if a != SS.lw]) and why
    assert hasattr(module, kernel.name), f"{kernel.name} is not generated into {module.__name__}"
    assert isinstance(kernel.region, sp.logic.boolalg.Boolean)


CONTROLLED = KERNELS if os.environ.get("FHSYM_ALL_CONTROLS") else [(k, kdim) for k in SK.KDIM_KERNELS]


@pytest.mark.parametrize("kernel,module", CONTROLLED, ids=[k.name for k, _ in CONTROLLED])
def test_negative_control(kernel, module):
    point, why = kernel.stress
    truth, _ = _paper_value(kernel, point)
    xs = [np.float64(x) if not isinstance(x, int) else x for x in point]
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if SS.lw in kernel.args:
            b = np.float64(point[kernel.args.index(SS.b)])
            lw = flipped_huber.log_omega_tilde(b)
            kv = float(getattr(module, kernel.name)(*xs, lw))
        else:
            kv = float(getattr(module, kernel.name)(*xs))
        nv = float(kernel.naive(*point))
    kerr, nerr = _rel(kv, truth), _rel(nv, truth)
    print(f"{kernel.name} at {point} ({why}): kernel {kerr:.1e}, naive {nerr:.1e}")
    assert kerr <= KERNEL_TOL, f"{kernel.name}: generated kernel off by {kerr:.2e} at its stress point {point}"
    if kernel.no_stress is None:
        assert nerr >= NAIVE_MIN_ERR, f"{kernel.name}: the naive form is right ({nerr:.1e}) at the declared stress point ({why})"


# ----------------------------------------------------------------------------
# regions
# ----------------------------------------------------------------------------
_POOL = [Fraction(0), Fraction(1, 4), Fraction(1, 2), Fraction(1), Fraction(2), Fraction(3, 7), Fraction(10),
         Fraction(1, 1000), Fraction(1000), Fraction(-1, 3), Fraction(-5), Fraction(64)]  # 64: the Laplace-limit switch


def _points(fn, n, seed):
    """Points of fn's domain as exact rationals: a shared pool (so arguments often coincide) plus random values."""
    rng = random.Random(seed)
    nonneg = {"b", "s", "D", "epsilon", "lw", "s_q", "p", "h", "p_tail", "p_direct", "alpha", "Delta", "nu"}
    for _ in range(n):
        pt = {}
        for a in fn.args:
            pool = _POOL + [Fraction(rng.randint(1, 10**6), rng.randint(1, 10**4))] + list(pt.values())
            v = rng.choice(pool)
            if a.name in nonneg:
                v = abs(v)
            if a.name in ("D", "p", "p_tail", "p_direct", "Delta") and v == 0:
                v = Fraction(1, 3)
            if a.name in ("p", "p_tail"):
                v = min(v, Fraction(1, 2))
            pt[a] = v
        if {"p", "h"} <= {a.name for a in fn.args}:  # the dispatch's contract: h = 1/2 - p
            p = next(a for a in fn.args if a.name == "p")
            h = next(a for a in fn.args if a.name == "h")
            pt[h] = Fraction(1, 2) - pt[p]
        yield pt


@functools.lru_cache(maxsize=None)
def _naive_region(region):
    return rewrite_naive(region)


def _holds(region, pt):
    r = _naive_region(region).subs({a: sp.Rational(v.numerator, v.denominator) for a, v in pt.items()})
    if r in (sp.true, sp.false):
        return bool(r)
    return bool(r.evalf(60) if not isinstance(r, sp.logic.boolalg.Boolean) else r.simplify())


@pytest.mark.parametrize("fn", FUNCTIONS, ids=[f.name for f in FUNCTIONS])
def test_regions_are_disjoint_and_cover(fn):
    n = 0
    for pt in _points(fn, 60, seed=hash(fn.name) % 1000):
        hits = [pc.name for pc in fn.pieces if _holds(pc.condition, pt)]
        assert len(hits) == 1, f"{fn.name} at {pt}: regions holding: {hits}"
        n += 1
    assert n == 60


@pytest.mark.slow  # Table I region by region in SymPy (~10 s)
def test_profile_regions_are_table_I():
    """The piece the profile dispatch applies is the row of Table I (standard units) that holds."""
    kernel_of = {"i": "profile_case_i", "ii": "profile_case_ii", "iii": "log_profile_case_iii",
                 "iv": "log_profile_case_iv", "v": "log_profile_case_v"}
    b, D, eps = SS.b, SP.Dn, SP.eps
    rng = random.Random(5)
    decided = 0
    for i in range(120):
        bv = Fraction(rng.randint(0, 4000), rng.randint(1, 1000))
        Dv = Fraction(rng.randint(1, 4000), rng.randint(1, 1000))
        sub = {b: sp.Rational(bv.numerator, bv.denominator), D: sp.Rational(Dv.numerator, Dv.denominator)}
        bounds = sorted({SP.E3_STD.subs(sub), SP.NU1_STD.subs(sub), SP.NU2_STD.subs(sub)})
        ev = rng.choice(bounds + [sp.Rational(rng.randint(0, 10**6), 10**4)])
        ev = max(ev, sp.Integer(0))
        pt = {b: bv, D: Dv, eps: Fraction(int(ev.p), int(ev.q))}
        rows = [name for name, lo, hi, cond in SP.TABLE_I_STD
                if bool(cond.subs(sub)) and lo.subs(sub) <= ev < hi.subs(sub)]
        piece = [pc.name for pc in SP.LOG_PROFILE_STD.pieces if _holds(pc.condition, pt)]
        assert len(piece) == 1
        if len(rows) == 1:
            decided += 1
            assert piece[0] == kernel_of[rows[0]], f"b={bv}, D={Dv}, eps={ev}: Table I says ({rows[0]}), dispatch applies {piece[0]}"
    assert decided >= 90, decided


def test_numpy_dispatch_never_selects_over_all_branches():
    import inspect

    from fhsym._generated import flipped_huber_pieces, privacy_pieces

    for mod in (flipped_huber_pieces, privacy_pieces, kdim):
        src = inspect.getsource(mod)
        assert "np.select" not in src and "numpy.select" not in src and "np.where(" not in src
