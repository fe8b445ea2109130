"""Snowflake ids that look like Discord's, so ``discord.utils.snowflake_time`` stays sane.

Ids are strictly increasing within one process: creation order equals id order, which is
what Discord guarantees and what ``GET /channels/{id}/messages?before=`` relies on.
"""

from __future__ import annotations

import itertools
import threading
import time

DISCORD_EPOCH_MS = 1_420_070_400_000

_lock = threading.Lock()
_last = 0
_counter = itertools.count()


def next_snowflake() -> int:
    """Return a new unique snowflake (timestamp in the high bits, a counter in the low bits)."""
    global _last
    with _lock:
        stamp = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        value = max(stamp | (next(_counter) & 0xFFF), _last + 1)
        _last = value
        return value
