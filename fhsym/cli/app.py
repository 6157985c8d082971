"""The entry point: parse, run, print, exit status."""

from __future__ import annotations

import json
import os
import select
import signal
import stat
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
    step, or ``check-certificate`` a false claim), 2 on bad input (one line on stderr
    naming the parameter) or when a feature is unavailable (no source checkout, no
    matplotlib, a calibration the library reports as not implemented), 3 when
    ``check-certificate`` finds a claim that holds only as a floating-point estimate
    (not proven).  ``fhsym`` (the console script) and ``python -m fhsym`` call it.

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
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away (`fhsym ... | head`): stop quietly
        if not (_reader_gone(sys.stdout) or _reader_gone(sys.stderr)):
            raise  # another pipe (a worker process, a subprocess): a real error
        return _broken_pipe()
    return status


def _reader_gone(stream: object) -> bool:
    """Whether ``stream`` is a pipe whose reading end is closed (poll reports POLLERR; where poll is
    unavailable, any pipe counts)."""
    try:
        fd = stream.fileno()  # type: ignore[attr-defined]  # any stream: one without fileno is caught below
        if not stat.S_ISFIFO(os.fstat(fd).st_mode):
            return False
    except (AttributeError, OSError, ValueError):
        return False
    if not hasattr(select, "poll"):
        return True
    poller = select.poll()
    poller.register(fd, select.POLLOUT)
    return any(event & select.POLLERR for _, event in poller.poll(0))


#: exit status after the reader of stdout or stderr closed the pipe: 128 + SIGPIPE, what a shell reports
#: for a program that SIGPIPE ended (status 1 would read as "a check failed")
BROKEN_PIPE_STATUS = 128 + int(getattr(signal, "SIGPIPE", 13))


def _broken_pipe() -> int:
    """Point stdout and stderr at the null device, so that the interpreter's final flush of the text
    still buffered for the closed pipe raises nothing (the recipe of Python's ``signal`` docs, "Note on
    SIGPIPE"), and return :data:`BROKEN_PIPE_STATUS`."""
    for stream in (sys.stdout, sys.stderr):
        try:
            fd = stream.fileno()
        except (AttributeError, OSError, ValueError):  # not a real file (e.g. redirected to a StringIO)
            continue
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)
    return BROKEN_PIPE_STATUS


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
