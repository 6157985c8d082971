"""Bounded work: what fhsym refuses up front because it cannot finish (one policy for every mechanism).

Calibrations whose certificate is a K-fold composition (flipped Huber in K dimensions, the K-fold
Laplace, truncated Laplace and OSGT, each of T releases) build privacy-loss distributions whose
length grows like sqrt(K T) and search over them: above :data:`MAX_FOLDS` coordinates times releases
they are refused before any work, with a ``ValueError`` that names the limit and what to use instead.
Mechanisms whose guarantee does not depend on K T numerically (the Gaussian through its l2 radius,
pure Laplace through its l1 radius, the staircase through basic composition) have no such limit.

Re-checking a certificate (:func:`fhsym.verify_certificate`) is bounded the same way: each claim states
the :class:`Cost` its recorded inputs imply (profile nodes x bits, products x window x bits, lattice
terms) before computing anything, and the verifier refuses a certificate whose cost exceeds the
:class:`Budget` (default :data:`VERIFY_BUDGET`: 60 s and 2 GiB on the reference machine, a 2-core
machine where the rates below were measured; ``docs/certificates.md``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from . import domains as V

__all__ = ["MAX_FOLDS", "check_folds", "Cost", "Budget", "OverBudget", "REUSE_BUDGET", "VERIFY_BUDGET", "base_cost", "NODE_SECONDS", "PRODUCT_SECONDS",
           "PRODUCT_BYTES_PER_BIT", "PRODUCT_BYTES_PER_TERM", "TERM_SECONDS", "BASE_SECONDS", "BASE_BYTES"]

#: the largest dim * compositions of a calibration certified by a K-fold privacy-loss distribution
MAX_FOLDS = 100_000


def check_folds(dim: int, compositions: int = 1, what: str = "the exact K-fold calibration") -> int:
    """``dim * compositions`` if it is at most :data:`MAX_FOLDS`, else ``ValueError`` naming the limit.

    >>> check_folds(20, 5)
    100
    >>> check_folds(100_001)
    Traceback (most recent call last):
    ...
    ValueError: dim * compositions must be at most 100000 for the exact K-fold calibration; got dim = 100001, compositions = 1 (100001): its privacy-loss distributions grow like sqrt(dim * compositions) and the search evaluates ~50 of them. For more coordinates use mechanism='gaussian' (its guarantee depends on the l2 radius only), mechanism='laplace' with method='pure', or zCDP accounting (fhsym.accounting.zcdp)
    """
    K = V.check_int(dim, "dim", 1)
    T = V.check_int(compositions, "compositions", 1)
    if K * T > MAX_FOLDS:
        raise ValueError(
            f"dim * compositions must be at most {MAX_FOLDS} for {what}; got dim = {K}, compositions = {T} ({K * T}): "
            f"its privacy-loss distributions grow like sqrt(dim * compositions) and the search evaluates ~50 of them. "
            f"For more coordinates use mechanism='gaussian' (its guarantee depends on the l2 radius only), "
            f"mechanism='laplace' with method='pure', or zCDP accounting (fhsym.accounting.zcdp)")
    return K * T


# ---------------------------------------------------------------------------
# the cost of re-checking a certificate (fhsym.verify_certificate), stated before any work

#: seconds of one profile node of a proven PLD (a ball-arithmetic enclosure at rel_width 2^-40): the slowest
#: law measured (flipped Huber, 0.47 ms; OSGT 0.35, Gaussian 0.25, truncated Laplace 0.10, Laplace 0.04 ms)
NODE_SECONDS = 5e-4
#: seconds of one product of the proven PLD (fmpz_poly product, re-rounding up, window cut) per coefficient
#: entering it x (2 bits + 64) x (1 + bits/512): fitted to a dim-100000 Laplace certificate (21 products of up
#: to 2.9e6 coefficients of 79 bits: 25 s of CPU) and a grid of 4096 bits (43-66 s), rounded up
PRODUCT_SECONDS = 4e-9
#: peak bytes per coefficient x bit entering one product, and per coefficient (resident memory measured:
#: 939 MB for 2e5 coefficients x 4096 bits, 178 MB for 8e5 x 64), and per profile node x bit of the pair
PRODUCT_BYTES_PER_BIT = 1.4
PRODUCT_BYTES_PER_TERM = 160
#: seconds of one exact-rational term [b n_k - a n_{k+j}]_+ of the piecewise-uniform sup (measured 0.5-1.4 us)
TERM_SECONDS = 1.2e-6
#: seconds and bytes of a re-check whose cost does not grow with its inputs (one ball-arithmetic enclosure)
BASE_SECONDS = 0.05
BASE_BYTES = 64 << 20


@dataclass(frozen=True)
class Cost:
    """What re-deriving a claim's evidence will take, stated before any of it is computed.

    ``seconds`` and ``bytes``: estimates on the reference machine (2 cores; the rates above were measured there),
    ``field``: the certificate field that drives the cost, ``work``: the count in words.

    >>> c = Cost(0.5, 1 << 20, "parameters.weights", "1000 exact terms")
    >>> c.within(VERIFY_BUDGET), Cost(90.0, 0, "grid.nodes", "").within(VERIFY_BUDGET)
    (True, False)
    """

    seconds: float
    bytes: int
    field: str
    work: str

    def within(self, budget: "Budget") -> bool:
        """Whether both estimates are within ``budget``."""
        return self.seconds <= budget.seconds and self.bytes <= budget.bytes


class OverBudget(ValueError):
    """A re-check refused because its :class:`Cost` exceeds the :class:`Budget` (a ``ValueError`` naming the field
    that drives the cost; callers that serve recorded certificates tell it apart from a malformed one)."""


@dataclass(frozen=True)
class Budget:
    """The most a re-check may cost: ``seconds`` and ``bytes`` (estimated by :class:`Cost`, before any work).

    >>> Budget(10.0, 512 << 20)
    Budget(seconds=10.0, bytes=536870912)
    >>> Budget(0.0, 1)
    Traceback (most recent call last):
    ...
    ValueError: budget seconds must be a finite number > 0; got 0.0
    """

    seconds: float
    bytes: int

    def __post_init__(self) -> None:
        if isinstance(self.seconds, bool) or not isinstance(self.seconds, (int, float)) or not (
                math.isfinite(self.seconds) and self.seconds > 0):
            raise ValueError(f"budget seconds must be a finite number > 0; got {self.seconds!r}")
        if isinstance(self.bytes, bool) or not isinstance(self.bytes, int) or self.bytes < 1:
            raise ValueError(f"budget bytes must be an integer >= 1; got {self.bytes!r}")


#: the default budget of fhsym.verify_certificate: 60 s and 2 GiB (estimated) on the reference machine.  It admits
#: every certificate fhsym.calibrate issues (the calibrator refuses to issue one above it); the costliest of the
#: frontier data is estimated at 50.3 s and 1.52 GiB (the K-fold Laplace at dim 100000; 25 s of CPU and 1.07 GB measured)
VERIFY_BUDGET = Budget(60.0, 2 << 30)
#: the budget of fhsym.advise for re-checking a recorded certificate before it serves it (10 s, 512 MB)
REUSE_BUDGET = Budget(10.0, 512 << 20)


def base_cost(field: str, work: str = "one ball-arithmetic or exact-rational enclosure") -> Cost:
    """The cost of a re-check that does not grow with its inputs.

    >>> base_cost("parameters").within(VERIFY_BUDGET)
    True
    """
    return Cost(BASE_SECONDS, BASE_BYTES, field, work)
