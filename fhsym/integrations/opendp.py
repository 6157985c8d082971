"""Flipped Huber noise as an OpenDP ``Measurement`` (optional: ``pip install 'fhsym[opendp]'``).

:func:`make_flipped_huber` returns a measurement M(x) = x + T with T drawn by fhsym's sampler
(:meth:`fhsym.FlippedHuber.rvs`, i.i.d. per coordinate), whose output measure is OpenDP's
``smoothed_max_divergence``: the privacy map sends a sensitivity ``d_in`` to a privacy profile
eps -> delta(eps), a certified upper bound on the exact profile of fhsym.

Supported input spaces and the sensitivity set each certifies:

================================================  ==========================  ==========================================
input_domain                                      input_metric                profile used for d_in
================================================  ==========================  ==========================================
``atom_domain(T=float, nan=False)`` (default)     ``absolute_distance(float)`` exact 1-D profile (Theorem 3, eq 13) at
                                                                              sensitivity d_in, times 1 + PROFILE_RTOL
``vector_domain(atom_domain(T=float, nan=False),   ``linf_distance(float)``    every difference d with ||d||_inf <= d_in:
size=K)``                                                                     the K-fold profile at the corner
                                                                              (d_in, ..., d_in), the worst case in the box
                                                                              (:mod:`fhsym.accounting.kdim`), certified upper
                                                                              bound of fhsym's PLD (K >= 2)
same vector domain                                ``l2_distance(float)``      every d with ||d||_2 <= d_in, through the box
                                                                              ||d||_inf <= d_in that contains the ball:
                                                                              certified but conservative (the supremum over
                                                                              the ball is not known in closed form)
================================================  ==========================  ==========================================

Anything else raises ``ValueError``.  K = 1 vectors use the 1-D closed form.  A K-fold PLD whose grid
would be too large raises ``ValueError`` from :func:`fhsym.accounting.kdim_pld` when the map is evaluated.

Composition.  OpenDP 0.16 does not compose ``smoothed_max_divergence`` measurements directly
(``make_composition`` reports "No match for concrete type SmoothedMaxDivergence"); fix delta first
(``dp.c.make_fix_delta(m, delta)``, giving ``approximate(max_divergence())``) and compose those with
``dp.c.make_composition`` (basic composition: the epsilons and the deltas add).

OpenDP requires ``dp.enable_features("contrib", "honest-but-curious")`` for user-defined measurements
(this module never enables features itself; without them OpenDP raises its own error).  The noise is
fhsym's floating-point sampler, seeded from the operating system's entropy: like every float sampler it
is exposed to the floating-point attacks of Mironov (2012).

>>> import opendp.prelude as dp
>>> dp.enable_features("contrib", "honest-but-curious")
>>> m = make_flipped_huber(alpha=1.0, gamma=2.0)
>>> round(m.map(1.0).delta(1.0), 6)        # the exact profile delta(1) of FH(1, 4) at sensitivity 1
0.006715
>>> isinstance(m(3.0), float)
True
"""

from __future__ import annotations

import functools
import math
from typing import Any, Callable, Optional

import numpy as np

try:
    import opendp.prelude as dp
except ImportError as exc:  # pragma: no cover - exercised only without the optional dependency
    raise ImportError("fhsym.integrations.opendp needs OpenDP: pip install 'fhsym[opendp]'", name="opendp") from exc

from .._core import domains as V
from ..noise.flipped_huber import FlippedHuber
from ..privacy.profile import PROFILE_RTOL, privacy_profile
from ._accounting import kdim_pld

__all__ = ["make_flipped_huber", "privacy_curve"]

_D_IN = V.Domain("d_in", 0.0, math.inf, closed_lower=True)
_EPS = V.Domain("epsilon", 0.0, math.inf, closed_lower=True)
_STEP = V.Domain("step", 0.0, math.inf)


def privacy_curve(alpha: float, gamma: float, d_in: float, dim: int = 1, step: Optional[float] = None) -> Callable[[float], float]:
    """eps -> certified upper bound on delta(eps) of i.i.d. FH(alpha, gamma^2) noise in ``dim`` coordinates.

    ``dim = 1``: the exact profile of Theorem 3 (eq 13) at sensitivity ``d_in`` times 1 + PROFILE_RTOL.
    ``dim = K >= 2``: the certified upper bound of fhsym's K-fold PLD at the corner (d_in, ..., d_in),
    which covers every difference with ||d||_inf <= d_in.  ``d_in = 0`` gives delta = 0.  The curve
    raises ``ValueError`` for eps < 0 or NaN and returns values in [0, 1].

    >>> curve = privacy_curve(1.0, 2.0, 1.0)
    >>> round(curve(1.0), 6)
    0.006715
    """
    a = V.check_scalar(alpha, V.ALPHA)
    g = V.check_scalar(gamma, V.GAMMA)
    d = V.check_scalar(d_in, _D_IN)
    K = V.check_int(dim, "dim", 1)
    if d == 0.0:
        def zero(epsilon: float) -> float:
            V.check_scalar(epsilon, _EPS)
            return 0.0

        return zero
    if K == 1:
        def curve_1d(epsilon: float) -> float:
            e = V.check_scalar(epsilon, _EPS)
            return float(min(float(privacy_profile(e, a, g, d)) * (1.0 + PROFILE_RTOL), 1.0))

        return curve_1d
    pld = kdim_pld(a, g, K, d, step=None if step is None else V.check_scalar(step, _STEP), upper_only=True)

    def curve_kd(epsilon: float) -> float:
        e = V.check_scalar(epsilon, _EPS)
        return float(min(float(pld.delta_upper(e)), 1.0))

    return curve_kd


def _describe(x: Any) -> str:
    return f"{x} ({getattr(x, 'type', type(x).__name__)})"


def _is_float_atom(domain: Any) -> bool:
    return getattr(domain, "type", None) == "AtomDomain<f64>" and getattr(domain, "nan", True) is False


def _space(input_domain: Any, input_metric: Any) -> int:
    """The dimension K of a supported (domain, metric) pair (0 for the scalar space); ValueError otherwise."""
    mtype = getattr(input_metric, "type", None)
    if _is_float_atom(input_domain):
        if mtype != "AbsoluteDistance<f64>":
            raise ValueError(f"input_metric must be dp.absolute_distance(T=float) for a scalar input_domain; got {_describe(input_metric)}")
        return 0
    if getattr(input_domain, "type", None) == "VectorDomain<AtomDomain<f64>>":
        if not _is_float_atom(input_domain.element_domain):
            raise ValueError("input_domain must have elements dp.atom_domain(T=float, nan=False); "
                             f"got {_describe(input_domain.element_domain)}")
        K = input_domain.size
        if K is None:
            raise ValueError("input_domain must have a fixed size (dp.vector_domain(..., size=K)): the privacy map "
                             "of i.i.d. noise depends on the dimension K")
        if mtype not in ("opendp::metrics::LInfDistance<f64>", "LInfDistance<f64>", "L2Distance<f64>"):
            raise ValueError("input_metric must be dp.linf_distance(T=float) or dp.l2_distance(T=float) for a vector "
                             f"input_domain; got {_describe(input_metric)}")
        return int(K)
    raise ValueError("input_domain must be dp.atom_domain(T=float, nan=False) or "
                     f"dp.vector_domain(dp.atom_domain(T=float, nan=False), size=K); got {_describe(input_domain)}")


def make_flipped_huber(alpha: float, gamma: float, input_domain: Any = None, input_metric: Any = None, *,
                       step: Optional[float] = None) -> "dp.Measurement":
    """OpenDP measurement adding flipped Huber noise FH(alpha, gamma^2) (paper eq 8) to a float or a float vector.

    The output measure is ``dp.smoothed_max_divergence()``; ``m.map(d_in)`` is a privacy profile whose
    ``delta(eps)`` is :func:`privacy_curve` (alpha, gamma, d_in, K): the exact 1-D profile (Theorem 3,
    eq 13) for scalars, fhsym's certified K-fold PLD upper bound for vectors of size K (see the module
    docstring for the sensitivity set each metric certifies).  ``step`` sets the loss-grid spacing of
    the K-fold PLD (default :func:`fhsym.accounting.default_step`); it is refused for scalar inputs.
    The noise comes from :meth:`fhsym.FlippedHuber.rvs`.

    >>> import opendp.prelude as dp
    >>> dp.enable_features("contrib", "honest-but-curious")
    >>> space = dp.vector_domain(dp.atom_domain(T=float, nan=False), size=3), dp.linf_distance(T=float)
    >>> m = make_flipped_huber(1.0, 2.0, *space)
    >>> len(m([0.0, 1.0, 2.0]))
    3
    >>> 0.0 < m.map(1.0).delta(1.0) < 0.1
    True
    """
    fh = FlippedHuber(alpha, gamma)
    if input_domain is None:
        input_domain = dp.atom_domain(T=float, nan=False)
    if input_metric is None:
        input_metric = dp.absolute_distance(T=float)
    K = _space(input_domain, input_metric)
    if K == 0 and step is not None:
        raise ValueError("step is used only for vector inputs (the K-fold PLD); a scalar input uses the exact "
                         "closed-form profile: leave step=None")
    rng = np.random.default_rng()  # fresh OS entropy

    if K == 0:
        def function(x: float) -> float:
            return float(x) + float(fh.rvs(random_state=rng))

        TO: Any = float
    else:
        def function(x):
            v = np.asarray(x, dtype=float)
            if v.shape != (K,):
                raise ValueError(f"x must be a vector of length {K}; got shape {v.shape}")
            return [float(t) for t in v + np.asarray(fh.rvs(K, random_state=rng), dtype=float)]

        TO = "Vec<f64>"

    @functools.lru_cache(maxsize=64)
    def curve_for(d_in: float):
        return privacy_curve(fh.alpha, fh.gamma, d_in, max(K, 1), step)

    def privacy_map(d_in):
        profile = dp.new_privacy_profile(curve_for(V.check_scalar(d_in, _D_IN)))
        # OpenDP 0.16's Python layer converts a map's result to an AnyObject only when it is already one:
        # hand over the profile's underlying object (OpenDP takes ownership, as for every callback result)
        return profile.curve

    return dp.m.make_user_measurement(input_domain, input_metric, dp.smoothed_max_divergence(), function, privacy_map, TO=TO)
