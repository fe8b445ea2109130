"""A request budget that keeps the bot under Discord's global rate limit.

Discord allows a bot about 50 REST requests per second in total. discord.py handles the
per-route buckets ahead of time (it reads the remaining-count headers), but it only *reacts* to
the global limit: after a global 429 it stops every request for a second or more. Under load
(many tables delivering boards, turn notices and DMs at once) that showed up as thousands of
429s and stalls (``bench.load``). Spacing our own requests below the limit avoids the 429s,
and the waiting is not wasted: while a table's delivery waits, further moves at that table
pile up and are delivered as one board edit (the publisher always renders the table as it is
*now*), so a busy bot sends fewer requests per move.

A request Discord never answers is cut off by `bot.rest_timeout` (installed inside the
slot), so it gives its slot back like any other; without that, a hung request held its slot
for aiohttp's five minutes.

Interaction replies do not count: discord.py sends them through its webhook adapter, not
through ``HTTPClient.request``, and Discord does not bind interaction endpoints to the
global limit — so acknowledging a click never waits here.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

WINDOW_SECONDS = 1.0


class RequestBudget:
    """At most `per_second` requests in any one second, as Discord counts them.

    Discord counts a request when it *arrives*, which can be a while after we decide to send
    it (a busy event loop, a slow network), so spacing start times is not enough: late
    requests bunch up behind on-time ones and overshoot (bench.load saw this at 100 tables).
    Instead each request holds one of `per_second` slots from before it is sent until one
    second after its answer came back. Every request Discord counted in a given second still
    held its slot at that moment, so Discord never sees more than `per_second` of them.
    Waiters are served in arrival order, so no table's delivery starves.

    Slots also come back evenly spaced, at least `window / per_second` apart. Handed back
    exactly one window after their answers, slots taken together came back together, so
    under a backlog the bot sent its requests in waves: every second about `per_second`
    boards changed within a few milliseconds, the players they named all clicked at once,
    and the bot answered those clicks one after another. Spaced (bench.load, 500 tables,
    play after the opening burst): ack p50 3.5 -> 1.7 ms, p99 21 -> 6.8 ms, for about 2 ms
    more CPU per move (more event-loop turns). Spacing keeps the same rate and the same
    guarantee (a slot is never back earlier than a window after its answer).
    """

    def __init__(self, per_second: int, *, window: float = WINDOW_SECONDS) -> None:
        if per_second < 1:
            raise ValueError("per_second must be at least 1")
        self.per_second = per_second
        self.window = window
        self._slots = asyncio.Semaphore(per_second)
        self._spacing = window / per_second
        self._next_release = 0.0  # loop time before which no further slot comes back
        self.waits = 0  # requests that had to wait (for logs and benchmarks)
        self.waiting = 0  # requests waiting for a slot right now (a backlog, for benchmarks)

    @contextlib.asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        """Hold a slot for one request; it is given back `window` seconds after the answer."""
        if self._slots.locked():
            self.waits += 1
        self.waiting += 1
        try:
            await self._slots.acquire()
        finally:
            self.waiting -= 1
        try:
            yield
        finally:
            self._release_later()

    def _release_later(self) -> None:
        """Give the slot back a window from now, and not sooner than `_spacing` after the
        slot given back before it."""
        loop = asyncio.get_running_loop()
        at = max(loop.time() + self.window, self._next_release)
        self._next_release = at + self._spacing
        loop.call_at(at, self._slots.release)


def install(http: Any, budget: RequestBudget) -> None:
    """Make every request of a discord.py ``HTTPClient`` pass through `budget` first.

    Wrapping the instance's bound method keeps discord.py's own bucket and retry logic intact
    (a retry after a per-route 429 happens inside the same slot).
    """
    send = http.request

    async def request(route: Any, **kwargs: Any) -> Any:
        async with budget.slot():
            return await send(route, **kwargs)

    http.request = request
