"""A plain-text progress bar for long runs."""

from __future__ import annotations

import sys
import time
from typing import IO, Optional

__all__ = ["Progress"]


class Progress:
    """A plain-text progress bar on a stream, shown only once a run has taken a second."""

    def __init__(self, total: int, stream: Optional[IO[str]] = None, enabled: bool = True) -> None:
        self.total = total
        self.done = 0
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self.start = time.perf_counter()
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self._last = 0.0
        self._shown = False
        self._last_tenth = -1

    def update(self, n: int) -> None:
        self.done += n
        if not self.enabled:
            return
        now = time.perf_counter()
        elapsed = now - self.start
        if elapsed < 1.0 and self.done < self.total:
            return
        if self.tty:
            if now - self._last < 0.1 and self.done < self.total:
                return
            self._last = now
            self.stream.write("\r" + self._line(elapsed))
        else:
            tenth = 10 * self.done // max(1, self.total)
            if tenth == self._last_tenth or (not self._shown and elapsed < 1.0):
                return
            self._last_tenth = tenth
            self.stream.write(self._line(elapsed) + "\n")
        self._shown = True
        self.stream.flush()

    def _line(self, elapsed: float) -> str:
        frac = self.done / max(1, self.total)
        bar = "#" * int(30 * frac) + "." * (30 - int(30 * frac))
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - self.done) / rate if rate > 0 else 0.0
        return (f"[{bar}] {self.done}/{self.total} hands {100 * frac:3.0f}%  "
                f"{rate:.0f} hands/s  eta {eta:.0f} s ")

    def close(self) -> None:
        if self.enabled and self._shown and self.tty:
            self.stream.write("\n")
            self.stream.flush()
