"""The C99 and JAX wrappers every declared law's printed functions share (continuous, step, cell and lattice laws).

Each law's module prints its derived forms with its own printer (:class:`~.declared_laws.CDeclaredPrinter`,
:class:`~.step_laws.CStepPrinter`, ...) and wraps each printed body here, so that one text serves every law:

* :func:`c_function`: ``double <name>(double a, ...) { return <body>; }``, ``(void)`` for a parameter the body does
  not name (``-Wextra``'s unused-parameter warning, an error under ``-Werror``), ``void`` for none;
* :func:`c_helpers`: the file-local NaN-propagating ``fhsym__min``/``fhsym__max`` the body calls (they are static in
  ``fhsym_special.c``, so each generated file that calls them repeats them);
* :func:`py_function` and :data:`JAX_PREAMBLE`: ``def <name>(a: Any, ...) -> Any: return <body>`` on the namespace
  ``xp`` of :mod:`fhsym._core.backends` (float64).
"""

from __future__ import annotations

import re
from typing import Sequence

__all__ = ["C_HELPERS", "JAX_PREAMBLE", "c_function", "c_helpers", "py_function"]

#: the static helpers of fhsym_special.c that printed forms call (file-local there: repeated in each file calling them)
C_HELPERS = {
    "fhsym__min": "static double fhsym__min(double a, double b) { return (a != a || b != b) ? NAN : (a < b ? a : b); }",
    "fhsym__max": "static double fhsym__max(double a, double b) { return (a != a || b != b) ? NAN : (a > b ? a : b); }",
}

#: the imports and namespace of a generated JAX module, up to its first function
JAX_PREAMBLE = "from typing import Any\n\nfrom fhsym._core.backends import jax_namespace\n\nxp = jax_namespace()\n\n\n"


def c_function(name: str, body: str, params: Sequence[str], static: bool = False) -> str:
    """``double name(double p, ...)`` returning the C expression ``body``; a parameter ``body`` does not name is
    ``(void)``-ed, no parameter is ``(void)``.

    >>> print(c_function("f", "2*x", ["x", "y"]), end="")
    double f(double x, double y)
    {
        (void)y;
        return 2*x;
    }
    """
    unused = "".join(f"    (void){p};\n" for p in params if not re.search(rf"\b{re.escape(p)}\b", body))
    plist = ", ".join(f"double {p}" for p in params) or "void"
    return f"{'static ' if static else ''}double {name}({plist})\n{{\n{unused}    return {body};\n}}\n"


def c_helpers(text: str) -> str:
    """The :data:`C_HELPERS` that ``text`` calls, one a line, each followed by a newline ('' for none)."""
    return "".join(h + "\n" for name, h in C_HELPERS.items() if f"{name}(" in text)


def py_function(name: str, body: str, params: Sequence[str]) -> str:
    """``def name(p: Any, ...) -> Any: return body`` (the body printed against ``xp``)."""
    return f"def {name}({', '.join(f'{p}: Any' for p in params)}) -> Any:\n    return {body}\n"
