"""A dependency-free progress bar on stderr."""

from __future__ import annotations

import sys
import time
from typing import Callable, Optional, TextIO

from .eta import format_seconds




class Progress:
    """A tiny text progress bar on a stream (stderr by default).

    On a terminal the bar is redrawn in place; elsewhere (CI logs, pipes) a line
    is written per 10 % of progress (and at least every 30 s), so logs stay short.  ``enabled=False`` makes
    every call a no-op.  Each line shows the time elapsed and an ETA: the caller's estimate
    (``advance(..., eta=seconds)``, e.g. :class:`fhsym.cli.eta.CheckTimes`) or else the mean time per
    unit so far times the units left.

    Examples
    --------
    >>> import io
    >>> buf = io.StringIO()
    >>> ticks = iter(range(0, 100, 10))          # a clock: 0 s at the start, then 10 s per call
    >>> bar = Progress(4, "demo", stream=buf, width=8, clock=lambda: float(next(ticks)))
    >>> for i in range(4):
    ...     bar.advance(f"step {i}")
    >>> bar.close()
    >>> print(buf.getvalue().splitlines()[0])    # 10 s for 1 of 4: 30 s to go
    demo [##......] 1/4  25% 10s elapsed, ETA 30s | step 0
    >>> print(buf.getvalue().splitlines()[-1])
    demo [########] 4/4 100% 40s elapsed | step 3
    """

    def __init__(self, total: int, label: str = "", stream: Optional[TextIO] = None, width: int = 30,
                 enabled: bool = True, clock: Optional[Callable[[], float]] = None) -> None:
        self.total = max(int(total), 0)
        self.label = label
        self.stream = sys.stderr if stream is None else stream
        self.width = width
        self.enabled = enabled
        self.done = 0
        self._tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self._clock = clock or time.perf_counter
        self._last_decile = -1
        self._last_len = 0
        self._t0 = self._clock()
        self._last_write = self._t0

    def _line(self, note: str, eta: Optional[float], clock: float) -> str:
        frac = 1.0 if self.total == 0 else min(self.done / self.total, 1.0)
        filled = int(round(frac * self.width))
        bar = "#" * filled + "." * (self.width - filled)
        head = f"{self.label} " if self.label else ""
        now = clock - self._t0
        timing = f"{format_seconds(now)} elapsed"
        if 0 < self.done < self.total:
            if eta is None:  # the mean time per unit so far, times the units left
                eta = now / self.done * (self.total - self.done)
            if eta == eta:  # not NaN
                timing += f", ETA {format_seconds(eta)}"
        return f"{head}[{bar}] {self.done}/{self.total} {frac:4.0%} {timing}" + (f" | {note}" if note else "")

    def advance(self, note: str = "", n: int = 1, eta: Optional[float] = None) -> None:
        """Count ``n`` more units of work done; ``note`` says what was just done; ``eta`` (seconds), if
        given, replaces the bar's own estimate of the time left.

        Examples
        --------
        >>> import io
        >>> bar = Progress(2, "job", stream=io.StringIO(), width=4)
        >>> bar.advance("first"); bar.done
        1
        """
        self.done += n
        if not self.enabled:
            return
        clock = self._clock()
        line = self._line(note, eta, clock)
        if self._tty:
            pad = max(self._last_len - len(line), 0)
            self.stream.write("\r" + line + " " * pad)
            self._last_len = len(line)
        else:
            decile = 10 if self.total == 0 else int(10 * min(self.done / self.total, 1.0))
            if decile == self._last_decile and self.done < self.total and clock - self._last_write < 30.0:
                return
            self._last_decile = decile
            self._last_write = clock
            self.stream.write(line + "\n")
        self.stream.flush()

    def message(self, text: str) -> None:
        """Write a line of log text without garbling the bar.

        Examples
        --------
        >>> import io
        >>> buf = io.StringIO()
        >>> Progress(1, stream=buf).message("hello")
        >>> buf.getvalue()
        'hello\\n'
        """
        if not self.enabled:
            return
        if self._tty and self._last_len:
            self.stream.write("\r" + " " * self._last_len + "\r")
            self._last_len = 0
        self.stream.write(text + "\n")
        self.stream.flush()

    def close(self) -> None:
        """End the bar (on a terminal: move to a new line).

        Examples
        --------
        >>> import io
        >>> bar = Progress(1, stream=io.StringIO())
        >>> bar.advance(); bar.close()
        """
        if self.enabled and self._tty and self._last_len:
            self.stream.write("\n")
            self.stream.flush()
        self._last_len = 0

    @property
    def elapsed(self) -> float:
        return self._clock() - self._t0


# ---------------------------------------------------------------------------
# the source checkout (for verify / reproduce)
# ---------------------------------------------------------------------------
