"""The proven PLD's profile nodes: the flipped Huber fast path gives the general path's ball ends, bit for bit.

A certificate of claim ``"pld-kfold"`` records a grid; :func:`fhsym.verify_certificate` recomputes the nodes on it
and requires the recorded bound exactly (``fhsym.calibration.verify``).  So the nodes must not change: the fast path
(:func:`fhsym.noise.plans.fh_nodes.fh_upper_ends`, behind ``FlippedHuber.profile_upper_ends``) is compared end for end
with the general one (:func:`fhsym._core.arb.profile_upper_ends` of the law's plan), and the general one with digests
of its ends computed before either was sped up (fhsym at commit 43215c4, issue 31 item 3).
"""

from __future__ import annotations

import hashlib
import math
from fractions import Fraction

import pytest

import fhsym
from fhsym._core.arb import profile_upper_ends
from fhsym.accounting.pld_exact import _node_eps  # the nodes' eps as the proven PLD forms them

# (alpha, gamma, Delta, step, nodes) -> the first 16 hex digits of sha256(repr(ends)) at commit 43215c4
PINNED = [
    ((7.536565923492036, 13.498749710856355, 1.0, Fraction(1, 5343), 3000), "742dab49af8bccbb"),
    ((1.0, 2.0, 1.0, Fraction(1, 256), 1500), "5e222fa7c34cd85b"),
    ((0.0, 3.0, 0.5, Fraction(3, 1024), 800), "8efccce9d6faa4f8"),
    ((40.0, 5.0, 1.0, Fraction(1, 997), 900), "b8501a268db4c718"),
]


def _general(fh, eps, D, **kw):
    return profile_upper_ends(fh._arb_plan, eps, D, **kw)


@pytest.mark.parametrize("args,digest", PINNED)
def test_nodes_as_before_and_fast_path_identical(args, digest):
    alpha, gamma, D, step, n = args
    fh = fhsym.FlippedHuber(alpha, gamma)
    eps = _node_eps(step, n)
    general = _general(fh, eps, D)
    assert hashlib.sha256(repr(general).encode()).hexdigest()[:16] == digest
    assert fh.profile_upper_ends(eps, D) == general


@pytest.mark.parametrize("alpha,gamma,D", [(1.0, 2.0, 1.0), (0.0, 1.5, 1.0), (5.0, 1.0, 1.0), (0.3, 0.7, 0.5),
                                           (100.0, 20.0, 1.0), (2.0, 2.0, 4.0), (0.01, 5.0, 1.0), (1e-3, 40.0, 3.0)])
def test_fast_path_at_kinks_breakpoints_and_extremes(alpha, gamma, D):
    """Every Table I case, the exact breakpoints (the kink eps = alpha Delta/gamma^2 and its neighbours), the
    asymptotic Mills regime, a tiny and a huge eps, and other precision policies: the same ends."""
    fh = fhsym.FlippedHuber(alpha, gamma)
    b, d = alpha / gamma, D / gamma
    kink = b * d
    eps = [0.0, 5e-324, 1e-300, kink, math.nextafter(kink, 0.0), math.nextafter(kink, 1.0), kink / 2, 3 * kink,
           b * d + d * d / 2, d * d / 2, 0.5, 1.0, 3.0, 20.0, 200.0, 1e6]
    eps += [k * 0.013 for k in range(1, 120)]
    for kw in ({}, {"rel_width": 2.0**-80, "max_prec": 4096}, {"rel_width": 0.5, "max_prec": 64}):
        assert fh.profile_upper_ends(eps, D, **kw) == _general(fh, eps, D, **kw), kw


def test_fast_path_checks_its_inputs():
    fh = fhsym.FlippedHuber(1.0, 2.0)
    for bad in (-1.0, math.inf, math.nan, "1"):
        with pytest.raises(ValueError):
            fh.profile_upper_ends([bad], 1.0)
    with pytest.raises(ValueError):
        fh.profile_upper_ends([1.0], 0.0)
    with pytest.raises(ValueError):
        fh.profile_upper_ends([1.0], 1.0, rel_width=0.0)
