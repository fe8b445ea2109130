"""Amortised clean-up of discord.py's rate-limit buckets.

discord.py keeps one rate-limit bucket per route and channel (so one per DM channel too) and
drops those idle for five minutes. It looks for idle ones each time it creates a bucket, and
once it holds 256 or more it walks *all* of them every time: at 500 tables the bot holds
about 3,100 live buckets, every new one cost a walk of 0.4 ms, and the first move at every
table (its first board repost opens a DELETE bucket per channel) made 500 walks in a row,
the largest single item in a cProfile of that burst (bench.load, 2026-11-23).

Walking only when the number of buckets has doubled since the last walk keeps the cost of
a new bucket constant on average, and at most twice as many idle buckets are held.
"""

from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger("cardtable.http")

FIRST_WALK = 256  # discord.py's own threshold


class BucketSweeper:
    """Replaces ``HTTPClient._try_clear_expired_ratelimits`` on one client instance."""

    def __init__(self, http: Any) -> None:
        self.http = http
        self.next_walk = FIRST_WALK
        self.walks = 0  # for tests and benchmarks

    def __call__(self) -> None:
        buckets = self.http._buckets
        if len(buckets) < self.next_walk:
            return
        self.walks += 1
        for key in [key for key, bucket in buckets.items() if bucket.is_inactive()]:
            del buckets[key]
        self.next_walk = max(FIRST_WALK, 2 * len(buckets))


def install(http: Any) -> BucketSweeper | None:
    """Give `http` (a discord.py ``HTTPClient``) the amortised sweep; None if this
    discord.py has no such hook (then its own clean-up stays, which is only slower)."""
    if not callable(getattr(http, "_try_clear_expired_ratelimits", None)) or not isinstance(
            getattr(http, "_buckets", None), dict):
        log.warning("discord.py has no rate-limit bucket sweep to replace; keeping its own")
        return None
    sweeper = BucketSweeper(http)
    http._try_clear_expired_ratelimits = sweeper
    return sweeper
