"""The entry point: parse, run, print, exit status."""

from __future__ import annotations

import json
import sys
from typing import Optional, Sequence


from .commands import (_cmd_calibrate, _cmd_check_certificate, _cmd_profile, _cmd_reproduce, _cmd_sample,
                       _cmd_verify)
from .common import CLIError
from .output import _json_ready, _print_human
from .parser import _build


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the CLI with ``argv`` (default ``sys.argv[1:]``); return the exit status.

    0 on success, 1 when ``verify`` finds a failing check (or ``reproduce`` a failing
    step), 2 on bad input (one line on stderr naming the parameter) or when a
    feature is unavailable (no source checkout, no matplotlib, a calibration the
    library reports as not implemented).  ``fhsym`` (the console script) and
    ``python -m fhsym`` call it.

    Examples
    --------
    >>> main(["calibrate", "--epsilon", "1", "--delta", "2"])
    2
    >>> main(["--version"])  # doctest: +ELLIPSIS
    fhsym ...
    0
    """
    parser = _build()
    try:
        ns = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: --help/--version (0) or a usage error (2)
        return int(exc.code or 0)
    handlers = {"calibrate": _cmd_calibrate, "check-certificate": _cmd_check_certificate, "profile": _cmd_profile,
                "sample": _cmd_sample, "verify": _cmd_verify, "reproduce": _cmd_reproduce}
    try:
        res, status = handlers[ns.command](ns)
    except CLIError as exc:
        print(f"fhsym {ns.command}: error: {exc}", file=sys.stderr)
        return 2
    except (ValueError, NotImplementedError, OverflowError) as exc:
        print(f"fhsym {ns.command}: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    if ns.json:
        print(json.dumps(_json_ready(res), allow_nan=False))
    else:
        _print_human(ns.command, res)
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
