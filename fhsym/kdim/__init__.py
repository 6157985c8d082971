"""Old name of :mod:`fhsym.accounting` (K dimensions and composition), kept for fhsym 0.1 code.

Its modules moved: ``fhsym.kdim.pld`` -> :mod:`fhsym.accounting.pld`, ``fhsym.kdim.profile`` ->
:mod:`fhsym.accounting.kdim`, ``fhsym.kdim.sufficient`` / ``zcdp`` / ``iterative`` ->
:mod:`fhsym.accounting`, ``fhsym.kdim.calibration`` -> :mod:`fhsym.calibration.kdim`.
"""

from .._core import compat as _compat
from ..accounting import *  # noqa: F401,F403
from ..accounting import __all__ as _accounting_all
from ..calibration.kdim import calibrate_kdim

_compat.register("fhsym.kdim.")

__all__ = ["calibrate_kdim", *_accounting_all]
