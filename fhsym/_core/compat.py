"""Old module paths of fhsym 0.1 kept importable after the layered layout of 0.2.

fhsym 0.1 had flat modules (``fhsym.distribution``, ``fhsym.privacy_profile``,
``fhsym.certify``, ``fhsym.kdim.*``, ``fhsym.mechanisms.*``, ...).  Each old path is
registered in ``sys.modules`` as an alias of the module that now holds its code, so
``from fhsym.distribution import FlippedHuber`` keeps working (the same objects, not copies).
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType

__all__ = ["MOVED_MODULES", "register"]

#: old dotted path -> new dotted path
MOVED_MODULES = {
    "fhsym._validation": "fhsym._core.domains",
    "fhsym._numerics": "fhsym._core.numerics",
    "fhsym._random": "fhsym._core.random",
    "fhsym.distribution": "fhsym.noise.flipped_huber",
    "fhsym.privacy.discrete_calibration": "fhsym.calibration.discrete",
    "fhsym.privacy_profile": "fhsym.privacy.profile",
    "fhsym.certify": "fhsym.privacy.certify",
    "fhsym.kdim.pld": "fhsym.accounting.pld",
    "fhsym.kdim.profile": "fhsym.accounting.kdim",
    "fhsym.kdim.sufficient": "fhsym.accounting.sufficient",
    "fhsym.kdim.zcdp": "fhsym.accounting.zcdp",
    "fhsym.kdim.iterative": "fhsym.accounting.iterative",
    "fhsym.kdim.calibration": "fhsym.calibration.kdim",
    "fhsym.mechanisms.gaussian": "fhsym.noise.gaussian",
    "fhsym.mechanisms.laplace": "fhsym.noise.laplace",
    "fhsym.mechanisms.osgt": "fhsym.noise.osgt",
    "fhsym.mechanisms.staircase": "fhsym.noise.staircase",
    "fhsym.mechanisms.truncated_laplace": "fhsym.noise.truncated_laplace",
}


def register(prefix: str = "fhsym.") -> None:
    """Alias every old path that starts with ``prefix`` (its new module is imported now)."""
    for old, new in MOVED_MODULES.items():
        if old.startswith(prefix) and old not in sys.modules:
            mod: ModuleType = importlib.import_module(new)
            sys.modules[old] = mod
            parent, _, leaf = old.rpartition(".")
            # so that ``fhsym.distribution`` works as an attribute too (never over a public name:
            # ``fhsym.privacy_profile`` is the function, as it always was)
            if parent in sys.modules and not hasattr(sys.modules[parent], leaf):
                setattr(sys.modules[parent], leaf, mod)
