"""Bounded work: what fhsym refuses up front because it cannot finish (one policy for every mechanism).

Calibrations whose certificate is a K-fold composition (flipped Huber in K dimensions, the K-fold
Laplace, truncated Laplace and OSGT, each of T releases) build privacy-loss distributions whose
length grows like sqrt(K T) and search over them: above :data:`MAX_FOLDS` coordinates times releases
they are refused before any work, with a ``ValueError`` that names the limit and what to use instead.
Mechanisms whose guarantee does not depend on K T numerically (the Gaussian through its l2 radius,
pure Laplace through its l1 radius, the staircase through basic composition) have no such limit.
"""

from __future__ import annotations

from . import domains as V

__all__ = ["MAX_FOLDS", "check_folds"]

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
