"""What a training run prints on stderr: timestamped lines and progress bars."""

from __future__ import annotations

import sys
import time

__all__ = ["log", "Bar"]


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


class Bar:
    """A one-line progress bar on stderr (rewritten in place on a terminal, else every 10 %)."""

    def __init__(self, what: str, total: int) -> None:
        self.what, self.total, self.done, self.t0 = what, max(1, total), 0, time.time()
        self.tty = sys.stderr.isatty()
        self.shown = -1
        self.skipped = 0

    def skip(self, n: int) -> None:
        """``n`` items were done before this run (a resumed run): shown, not in the rate."""
        self.done += n
        self.skipped += n

    def update(self, n: int = 1, note: str = "") -> None:
        self.done += n
        tenth = 10 * self.done // self.total
        if not self.tty and tenth == self.shown and self.done < self.total:
            return
        self.shown = tenth
        rate = (self.done - self.skipped) / max(1e-9, time.time() - self.t0)
        eta = (self.total - self.done) / rate if rate > 0 else 0.0
        width = 30
        full = width * self.done // self.total
        line = (f"{self.what} [{'#' * full}{'.' * (width - full)}] {self.done}/{self.total} "
                f"{rate:.1f}/s eta {eta:.0f}s {note}")
        print(("\r" if self.tty else "") + line, end="" if self.tty else "\n", file=sys.stderr,
              flush=True)
        if self.tty and self.done >= self.total:
            print(file=sys.stderr)
