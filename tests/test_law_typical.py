"""Issue 28.5: parameter domains carry a typical range, and one scipy-style test runs over every registered law.

Every law of the registry (the built-ins, one test each, and every declared law, the example laws of
``tests/declared_examples.py`` declared inside the test) draws three parameter sets from its domains' typical ranges (``Domain.typical``, :meth:`Parametrised.typical_parameters`; a
seed per law name) and must construct from them; then the scipy surface of each law agrees with itself where two
methods compute the same number by different routes:

* ``cdf(x) + sf(x) = 1`` and ``isf(q)`` inverts ``sf`` (at q = 0.3, 0.1, 1e-3, 1e-8; on a lattice: the least lattice
  point with ``sf <= q``);
* the density (``pdf``, ``pmf`` on a lattice) is symmetric;
* ``var()`` (each law's closed form or derived formula) equals ``E[X^2]`` integrated from ``sf``:
  ``E[X^2] = int_0^inf 4 x sf(x) dx`` (scipy's adaptive quadrature, pieces at the quantiles), or on a lattice
  ``sum_k (k h)^2 pmf(k h)``.

A new law, built in or declared, is covered without an edit here; a law whose domain has no typical range fails.
"""

from __future__ import annotations

import math
import warnings
import zlib

import numpy as np
import pytest
from scipy import integrate

from fhsym.cli.parser import BUILTIN_MECHANISMS
from fhsym.noise import NOISE_CLASSES

_Q = (0.3, 0.1, 1e-3, 1e-8)


def _draws(cls):
    rng = np.random.default_rng(zlib.crc32(cls.name.encode()))
    return [cls.typical_parameters(rng) for _ in range(3)]


def test_every_registered_law_has_typical_ranges():
    from declared_examples import register_all

    register_all()
    for name, cls in NOISE_CLASSES.items():
        missing = [d.name for d in cls.parameter_domains if d.typical is None]
        assert not missing, (name, missing)
        for d in cls.parameter_domains:
            lo, hi = d.typical
            assert d.lower <= lo < hi <= d.upper, (name, d)


def test_a_domain_without_a_typical_range_is_refused_by_name():
    """Parametrised.typical_parameters raises ValueError naming the law and the parameter (not a silent default)."""
    from fhsym._core.domains import Domain
    from fhsym.noise.parametrised import Parametrised

    class NoTypical(Parametrised):
        parameter_domains = (Domain("x", 0.0, math.inf),)

    with pytest.raises(ValueError, match="NoTypical: parameter x has no typical range"):
        NoTypical.typical_parameters(np.random.default_rng(0))


@pytest.mark.parametrize("name", BUILTIN_MECHANISMS)
def test_scipy_surface_of_every_builtin_law(name):
    for params in _draws(NOISE_CLASSES[name]):
        _check(NOISE_CLASSES[name], params)


def test_scipy_surface_of_every_declared_law():
    """Every law registered by a declaration in this process, the examples included (declared here, inside the test:
    not at collection, which every xdist worker would pay)."""
    from declared_examples import register_all

    register_all()
    declared = sorted(set(NOISE_CLASSES) - set(BUILTIN_MECHANISMS))
    assert len(declared) >= 7, declared  # the 5 examples of docs/examples and the 2 bounded laws of the tests
    for name in declared:
        for params in _draws(NOISE_CLASSES[name]):
            _check(NOISE_CLASSES[name], params)


def _check(cls, params):
    law = cls.from_parameters(params)  # the typical ranges give a valid law
    xs = np.array([float(law.isf(q)) for q in _Q])
    if law.lattice:  # the least lattice point with sf <= q
        h = law.step
        assert all(float(law.sf(x)) <= q < float(law.sf(x - h)) for x, q in zip(xs, _Q)), xs
    else:  # isf inverts sf: q lies between sf at x (1 -+ 1e-10) (the inverse is accurate in x; sf is steep there)
        for x, q in zip(xs, _Q):
            assert float(law.sf(x * (1 - 1e-10))) >= q * (1 - 1e-13) and float(law.sf(x * (1 + 1e-10))) <= q * (1 + 1e-13)
    for x in np.concatenate([xs, -xs, [0.0]]):
        assert abs(float(law.cdf(x)) + float(law.sf(x)) - 1.0) <= 1e-14, x
    var = float(law.var())
    if law.lattice:
        assert float(law.pmf(xs[0])) == pytest.approx(float(law.pmf(-xs[0])), rel=1e-13)
        k = np.arange(-int(float(law.isf(1e-18)) / h) - 2, int(float(law.isf(1e-18)) / h) + 3)
        ref = math.fsum((k * h) ** 2 * law.pmf(k * h))
        assert var == pytest.approx(ref, rel=1e-10)
        return
    np.testing.assert_allclose(law.pdf(xs), law.pdf(-xs), rtol=1e-12)
    ends = [0.0] + sorted(float(law.isf(q)) for q in (0.45, 0.4, 0.3, 0.2, 0.1, 1e-2, 1e-3, 1e-5, 1e-8, 1e-12,
                                                      1e-17))
    with warnings.catch_warnings():  # quadpack's roundoff notes at 1e-11 (the comparison below is at 1e-7)
        warnings.simplefilter("ignore", integrate.IntegrationWarning)
        ref = math.fsum(integrate.quad(lambda x: 4.0 * x * float(law.sf(x)), a, b, limit=400, epsabs=0.0,
                                       epsrel=1e-11)[0] for a, b in zip(ends, ends[1:]) if b > a)
    assert var == pytest.approx(ref, rel=1e-7)
