"""Command-line interface: ``fhsym calibrate | profile | sample | verify | reproduce``.

Every subcommand takes ``--json`` for machine-readable output on stdout (progress
bars and logs go to stderr).  Invalid input prints ONE line naming the parameter
to stderr and exits with status 2::

    $ fhsym calibrate --epsilon 1 --delta 1.5
    fhsym calibrate: error: argument --delta: delta must be a finite real number in (0, 1); got 1.5

Exit status: 0 on success, 1 when ``fhsym verify`` finds a failing proof (or
``fhsym reproduce`` a failing step), 2 on bad input or an unavailable feature,
141 (128 + SIGPIPE, as a shell reports a program ended by SIGPIPE) when the reader
of the output went away (``fhsym sample -n 1000000 | head``): no traceback.

``verify`` and ``reproduce`` run code that lives in the source checkout, not in
the installed package (``proofs/`` and ``scripts/``); they work after
``pip install -e .`` from a clone of the repository and otherwise fail with a
message saying so.

The parser can be driven in-process, which is how the examples below run:

Examples
--------
>>> main(["profile", "--alpha", "1", "--gamma", "2", "--epsilon", "0.5", "--json"])  # doctest: +ELLIPSIS
{"alpha": 1.0, "gamma": 2.0, "sensitivity": 1.0, "epsilon": [0.5], "delta": [0.05156084571...]}
0
>>> main(["sample", "--alpha", "1", "--gamma", "2", "-n", "-3"])
2
"""

from .app import main
from .common import source_root
from .progress import Progress

__all__ = ["main", "Progress", "source_root"]
