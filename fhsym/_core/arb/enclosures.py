"""Rigorous ball-arithmetic enclosures of exact 1-D privacy profiles (python-flint ``arb``).

For an additive mechanism with noise density ``g`` and sensitivity ``Delta``::

    delta(eps) = int [g(t) - e^eps g(t + Delta)]_+ dt

:func:`enclose` returns floats ``lower <= delta(eps) <= upper`` at the
EXACT binary values of the float inputs, proven by ball arithmetic.  It is the
single source of truth for re-checking a calibration from its recorded inputs:
it uses only python-flint, exact rationals (``fmpq``) and Python integers -- no
numpy, scipy, generated kernels or float kernels of fhsym.

Why the returned ball contains delta(eps)
-----------------------------------------
1. *Exact inputs.*  Each float is converted to the rational it denotes
   (``float.as_integer_ratio``); ratios such as ``b = alpha/gamma``,
   ``D = Delta/gamma`` are formed in Q (``fmpq``), never rounded.
2. *Exact case selection.*  Every case boundary (Table I of the paper for FH,
   the OSGT switch ``eps = varpi Delta/(2 varrho^2)``, Laplace's ``eps = Delta/beta``,
   the staircase level counts ...) is a rational function of the inputs and is
   decided by exact comparison in Q.  No ball comparison ever chooses a formula,
   so a point on or next to a boundary (e.g. the FH kink ``eps = alpha Delta/gamma^2``)
   cannot be misclassified.
3. *Crossing point.*  For the log-concave mechanisms (FH, Gaussian, OSGT,
   Laplace, truncated Laplace) the privacy loss ``L(t) = log g(t)/g(t + Delta)``
   is non-decreasing, the integrand is positive exactly where ``L > eps`` and
   zero where ``L = eps`` (where the FH loss is flat, any point of the flat
   stretch serves), so ``delta = S(t1) - e^eps S(t1 + Delta)`` (``S`` the survival
   function) at any ``t1`` with ``L(t1) = eps``.  ``t1`` is an exact rational,
   or (FH cases (iii)/(iv)) the root of a quadratic with rational coefficients
   on a known piece, enclosed by an arb square root of an exact rational and
   intersected with the piece.
4. *Enclosed formulas.*  The closed forms (module docstrings of
   :mod:`.flipped_huber` and of the shipped laws' plans, :mod:`fhsym.noise.plans`)
   are algebraic identities for
   ``S(t1) - e^eps S(t1 + Delta)``, rewritten so that ``e^eps`` never appears and
   differences of like terms are formed as sums of non-negative terms where
   possible.  They are evaluated with arb operations (``exp``, ``expm1``,
   ``erf``, ``erfc``, ``sqrt``, field operations), each of which returns a ball
   containing the exact result for every point of its input balls; the Mills
   ratio enclosure of :mod:`.core` adds a proven series remainder and a
   mean-value bound.  Hence the final ball contains the true delta(eps).
5. *Clipping.*  delta is in [0, 1] by definition, so the ball is intersected
   with [0, 1]; a ball that is not finite is replaced by [0, 1].
6. *Floats.*  ``upper`` is the ball's upper end rounded toward +inf and checked
   by exact rational comparison (``lower`` likewise toward -inf); below the
   smallest subnormal ``upper`` is ``5e-324`` and ``lower`` is ``0.0``.

Exact zeros and ones: delta = 0 exactly for Laplace at ``eps >= Delta/beta`` and
for the staircase when no level difference exceeds ``eps/eps0``; delta = 1 for
truncated Laplace when ``Delta >= 2 bound`` (disjoint supports).  These are
decided in Q and returned as ``[0, 0]`` / ``[1, 1]``.

Precision.  The ball is computed at ``p + boost`` bits, ``boost`` about
``2 log2`` of the largest exponent argument (so ``e^{-x}`` for huge ``x`` keeps
``p`` bits); ``p`` starts at 128 and doubles until the relative width
``(upper - lower)/lower <= rel_width``, or the next step would exceed
``max_prec``, or the ball's upper end is below the smallest positive subnormal
(then more bits cannot change the float pair ``(0.0, 5e-324)``).  Cancellation
(e.g. ``R(t1) - R(t1 + D)`` for ``D << t1``) costs about ``log2`` of the
cancellation ratio in bits.  A ball that ``max_prec`` cannot resolve is still
valid, just wide.

``flint.ctx.prec`` is process-global: the computation sets it in a
``with ctx.workprec(...)`` block and restores it, which is not thread-safe.

Example
-------
>>> from functools import partial
>>> from fhsym.noise.plans.flipped_huber import flipped_huber_plan  # a law's plan (it lives with the law)
>>> e = enclose(partial(flipped_huber_plan, alpha=1.0, gamma=2.0), 1.0, 1.0)
>>> f"{e.lower:.15g} {e.upper:.15g}", e.upper - e.lower < 1e-17
('0.00671505572698433 0.00671505572698433', True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, List, Tuple

from flint import arb, ctx, fmpq

from .core import exact, float_down, float_up

__all__ = [
    "Enclosure",
    "Plan",
    "ball",
    "enclose",
    "profile_upper_ends",
]

START_PREC = 128


@dataclass(frozen=True)
class Enclosure:
    """A proven enclosure ``lower <= delta(eps) <= upper`` (floats) with its arb ball."""

    lower: float
    upper: float
    ball: str
    prec: int
    method: str

    def as_arb(self) -> arb:
        """The ball re-parsed at ``prec`` bits (it contains the computed ball, hence delta(eps)).

        >>> from functools import partial
        >>> from fhsym.noise.plans.flipped_huber import flipped_huber_plan  # a law's plan (it lives with the law)
        >>> g = partial(flipped_huber_plan, alpha=1.0, gamma=2.0)
        >>> e = enclose(g, 0.25, 1.0)
        >>> with ctx.workprec(e.prec):                  # a ball of delta at 512 bits lies inside the re-parsed one
        ...     bool(e.as_arb().contains(ball(g, 0.25, 1.0, 512)))
        True
        """
        with ctx.workprec(self.prec):
            return arb(self.ball)

    def upper_man_exp(self) -> Tuple[int, int]:
        """The upper end of the ball exactly, as integers (man, exp) with upper = man * 2^exp.

        >>> from functools import partial
        >>> from fhsym.noise.plans.flipped_huber import flipped_huber_plan  # a law's plan (it lives with the law)
        >>> e = enclose(partial(flipped_huber_plan, alpha=1.0, gamma=2.0), 0.25, 1.0)
        >>> man, exp = e.upper_man_exp()
        >>> from fractions import Fraction
        >>> bool(0 < Fraction(man) * Fraction(2) ** exp <= Fraction(e.upper))   # the float upper end rounds it up
        True
        """
        with ctx.workprec(self.prec):
            man, exp = self.as_arb().upper().man_exp()
        return int(man), int(exp)


# ---------------------------------------------------------------------------
# validation (pure Python; same wording as fhsym._core.domains.Domain)


@dataclass(frozen=True)
class _Range:
    name: str
    lower: float
    upper: float
    closed_lower: bool = False
    closed_upper: bool = False

    def describe(self) -> str:
        lo = "[" if self.closed_lower else "("
        hi = "]" if self.closed_upper else ")"
        up = "inf" if self.upper == math.inf else f"{self.upper:g}"
        return f"a finite real number in {lo}{self.lower:g}, {up}{hi}"

    def check(self, value: object) -> fmpq:
        def msg() -> str:  # built only when raised (a proven PLD checks thousands of nodes)
            return f"{self.name} must be {self.describe()}; got {value!r}"

        if isinstance(value, (bool, str, bytes)) or value is None:
            raise ValueError(msg())
        try:
            f = float(value)  # type: ignore[arg-type]  # any object: float() decides, its errors are caught
        except (TypeError, ValueError):
            raise ValueError(msg()) from None
        if not math.isfinite(f):
            raise ValueError(msg())
        ok_lo = f >= self.lower if self.closed_lower else f > self.lower
        ok_hi = f <= self.upper if self.closed_upper else f < self.upper
        if not (ok_lo and ok_hi):
            raise ValueError(msg())
        ratio = getattr(value, "as_integer_ratio", None)
        if ratio is None or ratio() != f.as_integer_ratio():
            raise ValueError(f"{self.name} must be exactly representable as a binary64 float; got {value!r}")
        return exact(f)


EPSILON = _Range("epsilon", 0.0, math.inf, closed_lower=True)
SENSITIVITY = _Range("sensitivity", 0.0, math.inf)

#: a plan: (evaluate(plan, prec) -> arb ball, plan, text saying which formula/case applies)
Plan = Tuple[Callable[[Any, int], arb], Any, str]


# ---------------------------------------------------------------------------
# plans: exact work done once (at the exact binary values of the floats), evaluated at increasing precision.
# Every shipped law's plan lives with the law (fhsym.noise.plans: flipped Huber's with its PLD nodes' fast path,
# piecewise uniform's exact bounds, the Gaussian, Laplace, OSGT, truncated Laplace, staircase and truncated
# staircase); a declared law's is the generic crossing bracket (:mod:`.crossing`).  The noise
# classes (fhsym.noise) call theirs from ``_arb_plan``.


_UNIT = arb(fmpq(1, 2), fmpq(1, 2))  # the interval [0, 1]


def clip_unit(x: arb) -> arb:
    """Intersect with [0, 1] (delta is a probability difference in [0, 1])."""
    if not x.is_finite():
        return +_UNIT
    if not x.overlaps(_UNIT):  # pragma: no cover - would contradict the proof
        raise ArithmeticError(f"enclosure {x.str(10)} lies outside [0, 1]")
    return x.intersection(_UNIT)


def _boost(plan: object) -> int:
    boost: int = getattr(plan, "boost", 16) if plan is not None else 16  # the plans' guard bits (an int field)
    return boost


def _tight(x: arb, rel: float) -> bool:
    """(upper - lower) <= rel * lower, decided on exact end points (a True is certain)."""
    lo, hi = x.lower(), x.upper()
    if lo == hi:
        return True
    with ctx.workprec(ctx.prec + 64):
        return bool(lo > 0 and (hi - lo) <= lo * arb(rel))


#: the smallest positive subnormal double as an exact ball (a float is exact at any precision)
SUBNORMAL = arb(5e-324)


def below_subnormal(x: arb) -> bool:
    """Whether the ball's upper end is below the smallest subnormal (its upper end rounds to 0 as a float)."""
    return bool(x.upper() < SUBNORMAL)


def enclose(
    plan: Callable[[fmpq, fmpq], Plan],
    epsilon: float,
    sensitivity: float,
    *,
    rel_width: float = 2.0**-60,
    max_prec: int = 1 << 14,
) -> Enclosure:
    """Proven bounds ``lower <= delta(eps) <= upper`` at the exact float inputs.

    delta(eps) = int [g(t) - e^eps g(t + Delta)]_+ dt, ``Delta`` = ``sensitivity``, for the noise
    law whose plan builder is ``plan(eps, Delta)`` (exact rationals in; a law's plan function with its
    parameters bound, which is what :meth:`fhsym.NoiseDistribution.profile_enclosure` passes).  See the module docstring for the
    proof that the ball contains delta(eps).

    The precision doubles from 128 bits until ``(upper - lower)/lower <= rel_width``,
    ``max_prec`` is reached, or the upper end is below the smallest subnormal.

    >>> from functools import partial
    >>> from fhsym.noise.plans.flipped_huber import flipped_huber_plan  # a law's plan (it lives with the law)
    >>> e = enclose(partial(flipped_huber_plan, alpha=0.5, gamma=1.0), 1.0, 1.0)
    >>> f"{e.lower:.12g} {e.upper:.12g}"
    '0.124807879276 0.124807879276'
    """
    evaluate, built, method = plan(EPSILON.check(epsilon), SENSITIVITY.check(sensitivity))
    if not (isinstance(rel_width, (int, float)) and not isinstance(rel_width, bool) and rel_width > 0):
        raise ValueError(f"rel_width must be a finite real number in (0, inf); got {rel_width!r}")
    if isinstance(max_prec, bool) or not isinstance(max_prec, int) or max_prec < 2:
        raise ValueError(f"max_prec must be an integer >= 2; got {max_prec!r}")
    boost = _boost(built)
    p = min(START_PREC, max_prec)
    while True:
        used = p + boost
        with ctx.workprec(used):  # every operation on the ball at its own precision
            x = clip_unit(evaluate(built, p))
            done = _tight(x, float(rel_width)) or below_subnormal(x)
        if done or 2 * p + boost > max_prec:
            break
        p *= 2
    with ctx.workprec(used):
        # delta is in [0, 1]: clamping the rounded end points keeps them valid
        lower, upper = max(float_down(x), 0.0), min(float_up(x), 1.0)
        return Enclosure(lower, upper, x.str(25), used, f"{method}; {used} bits")


def ball(plan: Callable[[fmpq, fmpq], Plan], epsilon: float, sensitivity: float, prec: int) -> arb:
    """The ball of :func:`enclose` at one base precision ``prec`` (plus the plan's guard bits)."""
    if isinstance(prec, bool) or not isinstance(prec, int) or prec < 2:
        raise ValueError(f"prec must be an integer >= 2; got {prec!r}")
    evaluate, built, _ = plan(EPSILON.check(epsilon), SENSITIVITY.check(sensitivity))
    with ctx.workprec(prec + _boost(built)):
        return clip_unit(evaluate(built, prec))


def profile_upper_ends(
    plan: Callable[[fmpq, fmpq], Plan],
    epsilons: Iterable[float],
    sensitivity: float,
    *,
    rel_width: float = 2.0**-40,
    max_prec: int = 1024,
) -> List[Tuple[int, int]]:
    """The upper ends of :func:`enclose`'s balls at many epsilons, exactly: ``(man, exp)`` pairs.

    ``man * 2**exp >= delta(eps)`` for each ``eps`` of ``epsilons`` (floats >= 0).  The same plans,
    evaluations and precision policy as :func:`enclose` (``rel_width``, ``max_prec``), with neither
    float rounding nor the ball's text: for many nodes of one noise law (the proven PLD,
    :mod:`fhsym.accounting.pld_exact`).

    >>> from functools import partial
    >>> from fhsym.noise.plans.flipped_huber import flipped_huber_plan  # a law's plan (it lives with the law)
    >>> g = partial(flipped_huber_plan, alpha=0.5, gamma=1.0)
    >>> ends = profile_upper_ends(g, [0.5, 1.0], 1.0)
    >>> [bool(m * 2.0**e >= enclose(g, x, 1.0).lower) for (m, e), x in zip(ends, [0.5, 1.0])]
    [True, True]
    """
    dl = SENSITIVITY.check(sensitivity)
    rel = check_end_options(rel_width, max_prec)
    return [upper_end(*plan(EPSILON.check(e), dl)[:2], rel, max_prec) for e in epsilons]


def check_end_options(rel_width: object, max_prec: object) -> float:
    """The options of :func:`profile_upper_ends` checked (``ValueError`` naming the bad one); ``rel_width`` as a float."""
    if not (isinstance(rel_width, (int, float)) and not isinstance(rel_width, bool) and rel_width > 0):
        raise ValueError(f"rel_width must be a finite real number in (0, inf); got {rel_width!r}")
    if isinstance(max_prec, bool) or not isinstance(max_prec, int) or max_prec < 2:
        raise ValueError(f"max_prec must be an integer >= 2; got {max_prec!r}")
    return float(rel_width)


def upper_end(evaluate: Callable[[Any, int], arb], built: Any, rel_width: float, max_prec: int) -> Tuple[int, int]:
    """The upper end of one ball of :func:`profile_upper_ends` (the plan ``built`` and its ``evaluate``)."""
    boost = _boost(built)
    pr = min(START_PREC, max_prec)
    while True:
        with ctx.workprec(pr + boost):
            x = clip_unit(evaluate(built, pr))
            done = _tight(x, rel_width) or below_subnormal(x)
        if done or 2 * pr + boost > max_prec:
            break
        pr *= 2
    man, ex = x.upper().man_exp()
    return int(man), int(ex)
