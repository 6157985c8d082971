"""The entry point: parse, run, print, exit status."""

from __future__ import annotations

import json
import sys
from typing import Optional, Sequence


from .commands import (cmd_advise, cmd_calibrate, cmd_check_certificate, cmd_profile, cmd_reproduce, cmd_sample,
                       cmd_verify)
from .common import CLIError
from .output import json_ready, print_human
from .parser import build_parser


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
    parser = build_parser()
    try:
        ns = parser.parse_args(argv)
    except SystemExit as exc:  # argparse: --help/--version (0) or a usage error (2)
        return int(exc.code or 0)
    handlers = {"advise": cmd_advise, "calibrate": cmd_calibrate, "check-certificate": cmd_check_certificate, "profile": cmd_profile,
                "sample": cmd_sample, "verify": cmd_verify, "reproduce": cmd_reproduce}
    try:
        res, status = handlers[ns.command](ns)
    except CLIError as exc:
        print(f"fhsym {ns.command}: error: {exc}", file=sys.stderr)
        return 2
    except (ValueError, NotImplementedError, OverflowError) as exc:
        print(f"fhsym {ns.command}: error: {' '.join(str(exc).split())}", file=sys.stderr)
        return 2
    if ns.json:
        print(json.dumps(json_ready(res), allow_nan=False))
    else:
        print_human(ns.command, res)
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
