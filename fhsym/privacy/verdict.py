"""The outcome of re-checking a certificate: three verdicts (:func:`fhsym.verify_certificate`).

``PROVEN``: the claim is re-derived from the recorded inputs alone, holds, and its bound is proven;
``UNPROVEN``: it holds only as a floating-point estimate (``rigorous`` false: the ``zcdp`` claim);
``FALSE``: the certificate is well formed but its claim does not hold.  (A malformed certificate, or
one over the verification budget, raises ``ValueError`` instead.)  Only ``PROVEN`` is true in a
boolean context.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

__all__ = ["Verdict", "Verification"]


class Verdict(Enum):
    """The outcome of a re-check: ``PROVEN``, ``UNPROVEN`` (holds only as a float estimate) or ``FALSE``.

    Only ``PROVEN`` is true in a boolean context, so ``if fhsym.verify_certificate(c):`` accepts proven
    claims only.

    >>> bool(Verdict.PROVEN), bool(Verdict.UNPROVEN), bool(Verdict.FALSE)
    (True, False, False)
    """

    PROVEN = "proven"
    UNPROVEN = "unproven"
    FALSE = "false"

    def __bool__(self) -> bool:
        return self is Verdict.PROVEN


@dataclass(frozen=True)
class Verification:
    """The outcome of a re-check: ``ok`` (the claim is re-derived and holds), whether its bound is proven
    (``rigorous``), and why; :attr:`verdict` combines them.  True in a boolean context only when proven."""

    ok: bool
    lower: float
    upper: float
    rigorous: bool
    reason: str

    @property
    def verdict(self) -> Verdict:
        """``PROVEN`` (ok and rigorous), ``UNPROVEN`` (ok, a float estimate) or ``FALSE``."""
        if not self.ok:
            return Verdict.FALSE
        return Verdict.PROVEN if self.rigorous else Verdict.UNPROVEN

    def __bool__(self) -> bool:
        return self.verdict is Verdict.PROVEN
