"""A request budget that keeps the bot under Discord's global rate limit.

Discord allows a bot about 50 REST requests per second in total. discord.py handles the
per-route buckets ahead of time (it reads the remaining-count headers), but it only *reacts* to
the global limit: after a global 429 it stops every request for a second or more. Under load
(many tables delivering boards, turn notices and DMs at once) that showed up as thousands of
429s and stalls (``bench.load``). Spacing our own requests below the limit avoids the 429s,
and the waiting is not wasted: while a table's delivery waits, further moves at that table
pile up and are delivered as one board edit (the publisher always renders the table as it is
*now*), so a busy bot sends fewer requests per move.

Interaction replies do not count: discord.py sends them through its webhook adapter, not
through ``HTTPClient.request``, and Discord does not bind interaction endpoints to the
global limit — so acknowledging a click never waits here.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

WINDOW_SECONDS = 1.0


class RequestBudget:
    """At most `per_second` requests start in any sliding window of one second.

    Discord counts its global limit over a rolling second, so a token bucket (which allows a
    burst *plus* the rate in one second) could overshoot; a sliding window cannot. Waiters are
    served in arrival order (one lock), so no table's delivery starves.
    """

    def __init__(self, per_second: int, *, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep) -> None:
        if per_second < 1:
            raise ValueError("per_second must be at least 1")
        self.per_second = per_second
        self._clock = clock
        self._sleep = sleep
        self._started: deque[float] = deque()
        self._lock = asyncio.Lock()
        self.waits = 0  # requests that had to wait (for logs and benchmarks)

    def _forget_old(self, now: float) -> None:
        while self._started and now - self._started[0] >= WINDOW_SECONDS:
            self._started.popleft()

    async def acquire(self) -> None:
        """Return when one more request may start without passing the limit."""
        async with self._lock:
            now = self._clock()
            self._forget_old(now)
            while len(self._started) >= self.per_second:
                self.waits += 1
                await self._sleep(self._started[0] + WINDOW_SECONDS - now)
                now = self._clock()
                self._forget_old(now)
            self._started.append(now)


def install(http: Any, budget: RequestBudget) -> None:
    """Make every request of a discord.py ``HTTPClient`` pass through `budget` first.

    Wrapping the instance's bound method keeps discord.py's own bucket and retry logic intact
    (its internal retries after a per-route 429 are not counted again, which errs on the side
    of sending less).
    """
    send = http.request

    async def request(route: Any, **kwargs: Any) -> Any:
        await budget.acquire()
        return await send(route, **kwargs)

    http.request = request
