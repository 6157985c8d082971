"""Flipped Huber noise as OpenDP measurements, written as OpenDP writes its own (``pip install 'fhsym[opendp]'``).

``make_flipped_huber(input_domain, input_metric, alpha, gamma, k=None)`` and its partial
``then_flipped_huber(alpha, gamma, k=None)`` follow ``dp.m.make_laplace(input_domain, input_metric,
scale, k=None)`` / ``dp.m.then_laplace``: the space first, then the noise, then the granularity 2^k of
the output lattice.  The noise is fhsym's *exact* lattice mechanism
(:mod:`fhsym.integrations.lattice_privacy`): the input is snapped to 2^k Z exactly and
``DiscreteFlippedHuber(alpha, gamma, 2^k)`` noise is added with integer arithmetic only, from the
operating system's CSPRNG (:mod:`fhsym.noise.exact_sampling`); floats come out on the lattice, as
from OpenDP's own float Laplace.  Integer inputs use the integer lattice (k must be None) and
saturate at the bounds of their type, as OpenDP's integer Laplace.

Supported spaces (anything else raises ``ValueError``):

==============================================================  ==============================================
input_domain                                                    input_metric
==============================================================  ==============================================
``atom_domain(T=float, nan=False)`` (f64)                       ``absolute_distance(T=float)``
``atom_domain(T=int)`` (i32, i64, u32, u64, usize)              ``absolute_distance(T=<integer type>)``
``vector_domain(atom_domain(...as above...), size=K)``          ``linf_distance``, ``l2_distance`` or
                                                                ``l1_distance`` of the element kind
==============================================================  ==============================================

The output measure is ``smoothed_max_divergence()``: ``m.map(d_in)`` is the whole privacy profile
eps -> delta(eps), certified (:func:`fhsym.integrations.lattice_privacy.lattice_privacy_curve`): the arb
enclosure's upper end of the exact lattice profile at S = ceil(d_in / 2^k) steps for scalars; fhsym's
K-fold PLD upper bound at the corner (S, ..., S) for vectors of size K (every metric above bounds
each coordinate's change by d_in, so the box |d_i| <= d_in covers it; for l1 and l2 this is
conservative).  The default k is the largest with 2^k <= gamma 2^-20.

Composition.  OpenDP 0.16 composes ``smoothed_max_divergence`` measurements only after fixing delta
(``dp.c.make_fix_delta``, giving ``approximate(max_divergence())``; then ``dp.c.make_composition``
adds the epsilons and the deltas), and chains them after transformations as usual
(``dp.t.make_clamp(...) >> dp.t.then_sum() >> then_flipped_huber(...)``).
``dp.binary_search_param`` over ``make_fix_delta(make_flipped_huber(...), delta)`` works for every space;
:func:`make_calibrated_flipped_huber` needs no search (scalars: fhsym's certified calibration of the lattice
mechanism; vectors: the continuous K-fold calibration checked, and raised if needed, by the measurement's own
map).  Measured times: ``docs/integrations.md`` ("Calibration"), ``benchmarks/bench_opendp.py``.

OpenDP requires ``dp.enable_features("contrib", "honest-but-curious")`` for measurements defined
outside its library; this module never enables features itself.

>>> import opendp.prelude as dp
>>> dp.enable_features("contrib", "honest-but-curious")
>>> space = dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float)
>>> m = make_flipped_huber(*space, alpha=1.0, gamma=2.0, k=-10)
>>> round(m.map(1.0).delta(1.0), 6)          # delta(1) of the lattice FH(1, 4) at 1024 steps
0.006715
>>> float(m(3.0) * 2**10).is_integer()       # the output lies on the lattice 2^-10 Z
True
>>> m2 = space >> then_flipped_huber(1.0, 2.0, k=-10)
>>> m2.map(1.0).delta(1.0) == m.map(1.0).delta(1.0)
True
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import Any, Callable, List, Optional, Tuple, cast

import numpy as np

try:
    import opendp.mod
    import opendp.prelude as dp
except ImportError as exc:  # pragma: no cover - exercised only without the optional dependency
    raise ImportError("fhsym.integrations.opendp needs OpenDP: pip install 'fhsym[opendp]'", name="opendp") from exc

from .._core import domains as V
from .._core.search import CalibrationError
from ..calibration import calibrate
from ..calibration.search_kfold import search_kfold
from ..noise.flipped_huber import FlippedHuber
from ..noise.discrete_flipped_huber import DiscreteFlippedHuber, lattice_index
from ..noise.exact_sampling import RandomBits
from .lattice_privacy import FINEST_RELATIVE_GRANULARITY, default_granularity, lattice_privacy_curve, lattice_steps

__all__ = ["make_flipped_huber", "then_flipped_huber", "make_calibrated_flipped_huber", "then_calibrated_flipped_huber"]

_INT_BITS = {"i8": 8, "i16": 16, "i32": 32, "i64": 64, "i128": 128, "isize": 64,
             "u8": 8, "u16": 16, "u32": 32, "u64": 64, "u128": 128, "usize": 64}
_VECTOR_METRICS = ("L1Distance", "L2Distance", "LInfDistance")
_F64_MAX = np.finfo(np.float64).max
_SAFE = 1 << 60  # below this, lattice indices and noise add in int64 without overflow


def _describe(x: Any) -> str:
    return f"{x} ({getattr(x, 'type', type(x).__name__)})"


def _metric(input_metric: Any) -> Tuple[str, str]:
    """(name, distance type) of an OpenDP metric, e.g. ("LInfDistance", "f64")."""
    t = str(getattr(input_metric, "type", ""))
    name = t.split("<", 1)[0].rsplit("::", 1)[-1]
    return name, str(getattr(input_metric, "distance_type", ""))


def _element(domain: Any, what: str) -> str:
    """'f64' or an integer type name for a supported atom domain; ValueError otherwise."""
    carrier = str(getattr(domain, "carrier_type", ""))
    if str(getattr(domain, "type", "")).startswith("AtomDomain<") and carrier == "f64":
        if domain.nan is not False:
            raise ValueError(f"{what} must not contain NaN: use dp.atom_domain(T=float, nan=False); got {_describe(domain)}")
        return carrier
    if str(getattr(domain, "type", "")).startswith("AtomDomain<") and carrier in _INT_BITS:
        return carrier
    raise ValueError(f"{what} must be dp.atom_domain(T=float, nan=False) or an integer dp.atom_domain; got {_describe(domain)}")


def _space(input_domain: Any, input_metric: Any) -> Tuple[str, int]:
    """(element type, K) of a supported pair, K = 0 for scalars; ValueError naming the argument otherwise."""
    mname, mtype = _metric(input_metric)
    if str(getattr(input_domain, "type", "")).startswith("VectorDomain<"):
        el = _element(input_domain.element_domain, "input_domain's elements")
        K = input_domain.size
        if K is None:
            raise ValueError("input_domain must have a fixed size (dp.vector_domain(..., size=K)): the privacy map of "
                             "i.i.d. noise depends on the dimension K")
        if mname not in _VECTOR_METRICS or (mtype == "f64") != (el == "f64") or not (mtype == "f64" or mtype in _INT_BITS):
            kind = "float" if el == "f64" else "an integer type"
            raise ValueError(f"input_metric must be dp.linf_distance, dp.l2_distance or dp.l1_distance of {kind} for "
                             f"vectors of {el}; got {_describe(input_metric)}")
        return el, int(K)
    el = _element(input_domain, "input_domain")
    if mname != "AbsoluteDistance" or (mtype == "f64") != (el == "f64") or not (mtype == "f64" or mtype in _INT_BITS):
        kind = "T=float" if el == "f64" else "an integer T"
        raise ValueError(f"input_metric must be dp.absolute_distance({kind}) for a scalar input_domain of {el}; "
                         f"got {_describe(input_metric)}")
    return el, 0


def _granularity(k: Optional[int], el: str, gamma: float) -> Tuple[Optional[int], float]:
    """(k, lattice step) for the element type: 2^k for floats (default from gamma), 1 for integers."""
    if el != "f64":
        if k is not None:
            raise ValueError(f"k is only used for float domains (the noise of an integer domain lives on the integers); "
                             f"got k={k!r} for {el}")
        return None, 1.0
    if k is None:
        k = default_granularity(gamma)
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not -1022 <= int(k) <= 1023:
        raise ValueError(f"k must be an integer in [-1022, 1023] (the output lattice 2^k Z); got {k!r}")
    return int(k), math.ldexp(1.0, int(k))


def _check_sampler_range(gamma: float, step: float, k: Optional[int]) -> None:
    if Fraction(step) < Fraction(gamma) / (1 << FINEST_RELATIVE_GRANULARITY):
        raise ValueError(f"k must give a lattice step 2^k >= gamma 2^-{FINEST_RELATIVE_GRANULARITY} (the exact sampler's "
                         f"range); got k={k!r} (step {step!r}) for gamma={gamma!r}")


def _int_bounds(el: str) -> Tuple[int, int]:
    bits = _INT_BITS[el]
    return (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if el.startswith("i") else (0, (1 << bits) - 1)


def _to_float(index: int, step: float) -> float:
    """index * step rounded once to a float, saturated at +-max float (post-processing of the exact value)."""
    try:
        return float(Fraction(index) * Fraction(step))
    except OverflowError:
        return float(math.copysign(_F64_MAX, index))


def _float_indices(x: Any, k: int, K: int) -> List[int]:
    """floor(x_i/2^k + 1/2) exactly for each coordinate (values clipped to +-max float first)."""
    v = np.clip(np.asarray(x, dtype=np.float64).reshape(-1), -_F64_MAX, _F64_MAX)
    if v.shape != (K,):
        raise ValueError(f"x must be a vector of length {K}; got {np.shape(x)}")
    t = np.ldexp(v, -k)  # exact unless subnormal (then |t| < 1/2: index 0 either way) or overflowing
    if np.all(np.abs(t) < _SAFE):
        fl = np.floor(t)
        out: List[int] = (fl.astype(np.int64) + (t - fl >= 0.5)).tolist()  # t - floor(t) is exact
        return out
    step = Fraction(1, 1 << -k) if k < 0 else Fraction(1 << k)
    # lattice_index takes an exact Fraction step too (its annotation says float only)
    return [lattice_index(float(xi), cast(float, step)) for xi in v.tolist()]


class _Release:
    """x -> lattice(x) + exact noise, for one supported space (the measurement's function)."""

    def __init__(self, noise: Optional[DiscreteFlippedHuber], step: float, el: str, K: int, k: Optional[int]) -> None:
        self.noise, self.step, self.el, self.K, self.k = noise, step, el, K, k
        self._bits: Optional[RandomBits] = None

    def _draw(self, n: Optional[int]) -> Any:
        if self.noise is None:  # gamma = 0
            return 0 if n is None else np.zeros(n, dtype=np.int64)
        if self._bits is None:
            self._bits = RandomBits(None)  # the operating system's CSPRNG, buffered
        return self.noise.rvs(n, random_state=self._bits, output="index")

    def _saturate(self, values: List[int]) -> List[int]:
        lo, hi = _int_bounds(self.el)
        return [min(max(int(v), lo), hi) for v in values]

    def __call__(self, x: Any) -> Any:
        if self.K == 0:
            if self.el == "f64":
                i = lattice_index(float(np.clip(float(x), -_F64_MAX, _F64_MAX)), self.step)
                return _to_float(i + int(self._draw(None)), self.step)
            return self._saturate([int(x) + int(self._draw(None))])[0]
        noise = self._draw(self.K).tolist()
        if self.el == "f64":
            assert self.k is not None
            idx = _float_indices(x, self.k, self.K)
            tot = [a + b for a, b in zip(idx, noise)]
            if max(abs(t) for t in tot) < (1 << 53):  # exact in float
                return np.ldexp(np.asarray(tot, dtype=np.float64), self.k).tolist()
            return [_to_float(t, self.step) for t in tot]
        xs = [int(v) for v in x]
        if len(xs) != self.K:
            raise ValueError(f"x must be a vector of length {self.K}; got {len(xs)}")
        return self._saturate([a + b for a, b in zip(xs, noise)])


def _no_privacy(epsilon: float) -> float:
    V.check_scalar(epsilon, V.EPSILON)
    return 1.0


def make_flipped_huber(input_domain: Any, input_metric: Any, alpha: float, gamma: float, k: Optional[int] = None) -> "dp.Measurement":
    """Make a Measurement that adds exact lattice flipped Huber noise FH(alpha, gamma^2) (paper eq 7-8) to the input.

    Argument order and meaning as ``dp.m.make_laplace(input_domain, input_metric, scale, k)``:
    ``alpha >= 0`` (transition) and ``gamma >= 0`` (scale) of the noise, ``k`` the noise granularity
    2^k for float domains (default: the largest 2^k <= gamma 2^-20; the exact sampler needs
    2^k >= gamma 2^-30), ``None`` for integer domains.  ``gamma = 0`` is no noise (as OpenDP's
    ``scale = 0``; its map is delta = 1 for every d_in > 0), so that ``dp.binary_search_param`` can probe 0.
    Output measure
    ``dp.smoothed_max_divergence()``; the map's profile is certified (module docstring).

    >>> import opendp.prelude as dp
    >>> dp.enable_features("contrib", "honest-but-curious")
    >>> space = dp.vector_domain(dp.atom_domain(T=int), size=3), dp.linf_distance(T=int)
    >>> m = make_flipped_huber(*space, alpha=2.0, gamma=3.0)
    >>> [isinstance(v, int) for v in m([0, 10, 20])]
    [True, True, True]
    """
    el, K = _space(input_domain, input_metric)
    a = V.check_scalar(alpha, V.ALPHA)
    g = V.check_scalar(gamma, V.Domain("gamma", 0.0, math.inf, closed_lower=True))
    noise: Optional[DiscreteFlippedHuber] = None
    if g == 0.0:  # no noise, as OpenDP's scale = 0: the lattice value itself, delta = 1 for any d_in > 0
        k, step = _granularity(-1022 if (k is None and el == "f64") else k, el, 1.0)
    else:
        k, step = _granularity(k, el, g)
        _check_sampler_range(g, step, k)
        noise = DiscreteFlippedHuber(a, g, step)
    release = _Release(noise, step, el, K, k)
    dim = max(K, 1)

    @functools.lru_cache(maxsize=64)
    def curve_for(steps: int) -> Callable[[float], float]:
        if noise is None:
            return _no_privacy if steps > 0 else lattice_privacy_curve(0.0, 1.0, 1.0, 0)
        return lattice_privacy_curve(a, g, step, steps, dim)

    def privacy_map(d_in: Any) -> Any:
        if el == "f64":
            S = lattice_steps(V.check_scalar(d_in, V.Domain("d_in", 0.0, math.inf, closed_lower=True)), step)
        else:
            if isinstance(d_in, bool) or not isinstance(d_in, (int, np.integer)) or d_in < 0:
                raise ValueError(f"d_in must be an integer >= 0; got {d_in!r}")
            S = int(d_in)
        # OpenDP 0.16's Python layer converts a map's result to an AnyObject only when it is already one:
        # hand over the profile's underlying object (OpenDP takes ownership, as for every callback result)
        return dp.new_privacy_profile(curve_for(S)).curve

    TO = el if K == 0 else f"Vec<{el}>"
    return dp.m.make_user_measurement(input_domain, input_metric, dp.smoothed_max_divergence(), release, privacy_map, TO=TO)


def then_flipped_huber(alpha: float, gamma: float, k: Optional[int] = None) -> Any:
    """Partial constructor of :func:`make_flipped_huber` (chain it after a space or a transformation with ``>>``).

    >>> import opendp.prelude as dp
    >>> dp.enable_features("contrib", "honest-but-curious")
    >>> sum_ = (dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.symmetric_distance()) >> \\
    ...     dp.t.then_clamp((0.0, 1.0)) >> dp.t.then_sum()
    >>> m = sum_ >> then_flipped_huber(alpha=1.0, gamma=2.0)
    >>> m.map(1).delta(1.0) < 0.01                           # one record moves the sum by about 1
    True
    """
    # OpenDP's own then_* (and its extras' to_then) build this class; 0.16 has no public name for it
    return opendp.mod._PartialConstructor(
        lambda input_domain, input_metric: make_flipped_huber(input_domain, input_metric, alpha, gamma, k))


#: the vector calibration's steps up from the continuous answer: (alpha, gamma) times 1 + 2^-j, j = 12, 11, ..., 1, then
#: doubling; every candidate is checked by the measurement's own map
_VECTOR_FIRST_BUMP = 12
_VECTOR_MAX_TRIES = 24


@functools.lru_cache(maxsize=64)
def _calibrate_vector(eps: float, delta: float, d_in: Any, step: float, K: int) -> Tuple[float, float]:
    """(alpha, gamma) whose lattice FH measurement on K coordinates is (d_in, (eps, delta))-close by its own map.

    fhsym has no K-fold calibration of the lattice law (``calibrate(..., mechanism="discrete_flipped_huber")`` is
    one coordinate, one release), so the start is the minimum-variance member that ``fhsym.calibrate(eps, delta,
    dim=K)`` searches for the continuous flipped Huber law on the box |d_i| <= S*step (the box the map covers;
    its search only, without its certification pass), and the proof is the map itself: the
    candidate is accepted only when :func:`~fhsym.integrations.lattice_privacy.lattice_privacy_curve` (the
    K-fold PLD upper bound the measurement reports) at eps is <= delta; otherwise alpha and gamma are raised
    together by 1 + 2^-12, 1 + 2^-11, ... (a larger scale of the same shape) and checked again.  Memoised (a
    pure function of its arguments).
    """
    S = lattice_steps(d_in, step)
    # the start needs no certificate of its own (the map below is the proof): fhsym's K-fold search of the
    # continuous law (the float K-fold PLD on a coarse lattice, pessimistic), without the certification pass
    family = FlippedHuber.family()
    shape, scale = search_kfold(family, eps, math.log(delta * (1.0 - 1e-6)), float(Fraction(S) * Fraction(step)), K,
                                1e-5)
    start = family.make(shape, scale)
    a0, g0 = float(start.alpha), float(start.gamma)
    for j in range(_VECTOR_MAX_TRIES):
        c = 1.0 if j == 0 else (1.0 + math.ldexp(1.0, j - 1 - _VECTOR_FIRST_BUMP) if j <= _VECTOR_FIRST_BUMP
                                else 2.0 ** (j - _VECTOR_FIRST_BUMP))
        a, g = a0 * c, g0 * c
        if lattice_privacy_curve(a, g, step, S, K)(eps) <= delta:
            return a, g
    raise CalibrationError(f"no lattice flipped Huber noise up to {c:g} times the continuous calibration meets "
                           f"(epsilon={eps!r}, delta={delta!r}) on {K} coordinates at d_in={d_in!r}")


def make_calibrated_flipped_huber(input_domain: Any, input_metric: Any, d_in: Any, d_out: Tuple[float, float],
                                  k: Optional[int] = None) -> "dp.Measurement":
    """The lattice FH measurement that is (d_in, d_out = (epsilon, delta))-close, without OpenDP's search.

    Like ``dp.m.make_canonical_noise(input_domain, input_metric, d_in, d_out)``.  Scalars: the minimum-variance
    (alpha, gamma) of fhsym's certified calibration of the lattice mechanism (``fhsym.calibrate(epsilon, delta,
    mechanism="discrete_flipped_huber", step=2^k)`` at the sensitivity S = ceil(d_in / 2^k) steps), whose arb
    certificate is the same enclosure as the measurement's map.  Vectors of size K (``linf``, ``l2`` or ``l1``
    distance; the map covers the box |d_i| <= d_in, so l2 and l1 are conservative): the K-fold search of
    ``fhsym.calibrate`` for the continuous flipped Huber law on that box, raised by 1 + 2^-12, 1 + 2^-11, ... until the
    measurement's own map (the K-fold PLD upper bound) gives delta(epsilon) <= delta; near the minimum variance
    of the continuous law, not a lattice optimum (fhsym has no K-fold lattice calibration).  Default k: the
    largest with 2^k <= d_in 2^-20 (recalibrated on gamma's default lattice when gamma > 2^10 d_in, beyond the
    exact sampler's range).

    >>> import opendp.prelude as dp
    >>> dp.enable_features("contrib", "honest-but-curious")
    >>> space = dp.atom_domain(T=int), dp.absolute_distance(T=int)
    >>> m = make_calibrated_flipped_huber(*space, d_in=1, d_out=(1.0, 1e-6))
    >>> m.map(1).delta(1.0) <= 1e-6
    True
    """
    el, K = _space(input_domain, input_metric)
    if not (isinstance(d_out, tuple) and len(d_out) == 2):
        raise ValueError(f"d_out must be a tuple (epsilon, delta); got {d_out!r}")
    eps = V.check_scalar(d_out[0], V.EPSILON)
    delta = V.check_scalar(d_out[1], V.DELTA)
    if el == "f64":
        d = V.check_scalar(d_in, V.Domain("d_in", 0.0, math.inf))
        kk, step = _granularity(k, el, d)  # first pass (default k) from the sensitivity
    else:
        if isinstance(d_in, bool) or not isinstance(d_in, (int, np.integer)) or d_in <= 0:
            raise ValueError(f"d_in must be an integer > 0; got {d_in!r}")
        kk, step = _granularity(k, el, 1.0)

    def cal_at(step: float) -> Tuple[float, float]:
        if K >= 2:
            return _calibrate_vector(eps, delta, d_in, step, K)
        S = lattice_steps(d_in, step)
        noise = cast(DiscreteFlippedHuber, calibrate(eps, delta, sensitivity=float(Fraction(S) * Fraction(step)),
                                                     mechanism=DiscreteFlippedHuber.name, step=step).mechanism)
        return noise.alpha, noise.gamma

    alpha, gamma = cal_at(step)
    if el == "f64" and k is None and Fraction(step) < Fraction(gamma) / (1 << FINEST_RELATIVE_GRANULARITY):
        kk, step = _granularity(None, el, gamma)  # a much larger gamma than d_in: recalibrate on its lattice
        alpha, gamma = cal_at(step)
    return make_flipped_huber(input_domain, input_metric, alpha, gamma, kk)


def then_calibrated_flipped_huber(d_in: Any, d_out: Tuple[float, float], k: Optional[int] = None) -> Any:
    """Partial constructor of :func:`make_calibrated_flipped_huber`."""
    return opendp.mod._PartialConstructor(
        lambda input_domain, input_metric: make_calibrated_flipped_huber(input_domain, input_metric, d_in, d_out, k))
