"""Counting a kind of log line per time window, for a summary line instead of a flood.

Some conditions are expected under load and come in bursts (a CPU-starved bot answering
clicks too late, deliveries timing out while Discord or the machine is slow): a line per
occurrence with a traceback buried the real errors, and hundreds of lines a minute say no
more than one count. A `LogWindow` counts occurrences by cause; the first `limit` of a window
are logged in full by the caller, and at the end of every window in which any happened the
summary gets the counts once.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable


class LogWindow:
    """Occurrences counted per window of `seconds` by cause; `summary(counts, total)` runs at
    the end of each window that had any (`total`: since the process started)."""

    def __init__(self, seconds: float, summary: Callable[[Counter, int], None],
                 limit: int | None = None) -> None:
        self.seconds, self.summary, self.limit = seconds, summary, limit
        self.counts: Counter = Counter()
        self.total = 0
        self._timer: asyncio.TimerHandle | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def note(self, cause: str = "") -> bool:
        """Count one occurrence; True if it is among the first `limit` of its window (the
        caller logs those in full; the others only reach the summary)."""
        self.total += 1
        self.counts[cause] += 1
        self._schedule()
        return self.limit is None or sum(self.counts.values()) <= self.limit

    def _schedule(self) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop: nothing can run the summary later; give it now
            self.flush()
            return
        if self._timer is not None and self._loop is loop and not loop.is_closed():
            return
        self._loop = loop
        self._timer = loop.call_later(self.seconds, self.flush)

    def flush(self) -> None:
        """End the window: the summary of its counts, if it had any."""
        self._timer = None
        if self.counts:
            counts, self.counts = self.counts, Counter()
            self.summary(counts, self.total)
