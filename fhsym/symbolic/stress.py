"""Views of the kernels' declarations for ``proofs/``: kernel name -> naive float64 form, stress point, exemption.

Each :class:`fhsym.symbolic.stable.Kernel` declares its naive paper form (``naive``, from
:mod:`fhsym.symbolic.naive`), a stress point where that form fails (``stress``) or why it has
none (``no_stress``).  ``NAIVE``/``STRESS``/``NO_STRESS`` collect those of the distribution
kernels, ``PRIVACY_*`` those of the privacy profile and loss kernels.

>>> "log_omega_tilde" in NAIVE and "log_omega_tilde" in STRESS
True
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Sequence, Tuple

from .privacy import LOSS_KERNELS, PROFILE_KERNELS
from .stable import KERNELS, Kernel

__all__ = ["NAIVE", "STRESS", "NO_STRESS", "PRIVACY_NAIVE", "PRIVACY_STRESS", "PRIVACY_NO_STRESS"]


def _tables(kernels: Sequence[Kernel]) -> Tuple[Dict[str, Callable[..., Any]], Dict[str, Tuple[Tuple[float, ...], str]], Dict[str, str]]:
    naive = {k.name: k.naive for k in kernels if k.naive is not None}
    stress = {k.name: k.stress for k in kernels if k.stress is not None}
    exempt = {k.name: k.no_stress for k in kernels if k.no_stress is not None}
    return naive, stress, exempt


NAIVE, STRESS, NO_STRESS = _tables(KERNELS)
PRIVACY_NAIVE, PRIVACY_STRESS, PRIVACY_NO_STRESS = _tables(PROFILE_KERNELS + LOSS_KERNELS)
