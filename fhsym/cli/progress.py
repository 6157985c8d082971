"""A dependency-free progress bar on stderr."""

from __future__ import annotations

import sys
import time
from typing import Optional, TextIO




class Progress:
    """A tiny text progress bar on a stream (stderr by default).

    On a terminal the bar is redrawn in place; elsewhere (CI logs, pipes) a line
    is written per 10 % of progress (and at least every 30 s), so logs stay short.  ``enabled=False`` makes
    every call a no-op.

    Examples
    --------
    >>> import io
    >>> buf = io.StringIO()
    >>> bar = Progress(4, "demo", stream=buf, width=8)
    >>> for i in range(4):
    ...     bar.advance(f"step {i}")
    >>> bar.close()
    >>> print(buf.getvalue().splitlines()[-1])
    demo [########] 4/4 100% step 3
    """

    def __init__(self, total: int, label: str = "", stream: Optional[TextIO] = None, width: int = 30,
                 enabled: bool = True) -> None:
        self.total = max(int(total), 0)
        self.label = label
        self.stream = sys.stderr if stream is None else stream
        self.width = width
        self.enabled = enabled
        self.done = 0
        self._tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self._last_decile = -1
        self._last_write = time.perf_counter()
        self._last_len = 0
        self._t0 = time.perf_counter()

    def _line(self, note: str) -> str:
        frac = 1.0 if self.total == 0 else min(self.done / self.total, 1.0)
        filled = int(round(frac * self.width))
        bar = "#" * filled + "." * (self.width - filled)
        head = f"{self.label} " if self.label else ""
        return f"{head}[{bar}] {self.done}/{self.total} {frac:4.0%} {note}".rstrip()

    def advance(self, note: str = "", n: int = 1) -> None:
        """Count ``n`` more units of work done; ``note`` says what was just done.

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
        line = self._line(note)
        if self._tty:
            pad = max(self._last_len - len(line), 0)
            self.stream.write("\r" + line + " " * pad)
            self._last_len = len(line)
        else:
            decile = 10 if self.total == 0 else int(10 * min(self.done / self.total, 1.0))
            quiet_for = time.perf_counter() - self._last_write
            if decile == self._last_decile and self.done < self.total and quiet_for < 30.0:
                return
            self._last_decile = decile
            self._last_write = time.perf_counter()
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
        return time.perf_counter() - self._t0


# ---------------------------------------------------------------------------
# the source checkout (for verify / reproduce)
# ---------------------------------------------------------------------------
