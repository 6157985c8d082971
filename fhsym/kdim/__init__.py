"""Deprecated: old name of :mod:`fhsym.accounting` (K dimensions and composition), kept for fhsym 0.1 code.

Its modules moved: ``fhsym.kdim.pld`` -> :mod:`fhsym.accounting.pld`, ``fhsym.kdim.profile`` ->
:mod:`fhsym.accounting.kdim`, ``fhsym.kdim.sufficient`` / ``zcdp`` / ``iterative`` ->
:mod:`fhsym.accounting`, ``fhsym.kdim.calibration`` -> :mod:`fhsym.calibration.kdim`.
"""

from .._core import compat as _compat
from ..accounting import *  # noqa: F401,F403
from ..accounting import __all__ as _accounting_all
from ..calibration.kdim import calibrate_kdim

_compat.warn_package(__name__)


# fhsym.kdim.pld and the other old module paths as attributes (deprecated)
__getattr__ = _compat.module_getattr(__name__)


__all__ = ["calibrate_kdim", *_accounting_all]
