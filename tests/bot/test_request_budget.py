"""The request budget keeps the bot's own REST requests under Discord's global limit."""

from __future__ import annotations

import asyncio
import itertools
import random
import time

import pytest

from bot.request_budget import RequestBudget, install

WINDOW = 0.2  # a short "second" keeps the tests quick


class FakeServer:
    """Records when each request *arrives*, after a random network/event-loop delay."""

    def __init__(self, seed: int = 1) -> None:
        self.arrivals: list[float] = []
        self.starts: list[float] = []  # when each request left the bot (had its slot)
        self.rng = random.Random(seed)

    async def request(self, route, **kwargs):
        self.starts.append(time.monotonic())
        await asyncio.sleep(self.rng.uniform(0, WINDOW * 0.6))
        self.arrivals.append(time.monotonic())
        await asyncio.sleep(self.rng.uniform(0, WINDOW * 0.3))
        return route, kwargs

    def busiest_window(self) -> int:
        return max(sum(1 for b in self.arrivals if a <= b < a + WINDOW) for a in self.arrivals)


async def test_requests_within_the_budget_do_not_wait():
    budget = RequestBudget(5, window=WINDOW)
    server = FakeServer()
    install(server, budget)
    await asyncio.gather(*(server.request(i) for i in range(5)))
    assert budget.waits == 0


async def test_the_server_never_counts_more_than_the_budget_in_one_window():
    """Even when delays make late requests bunch up behind on-time ones."""
    budget = RequestBudget(4, window=WINDOW)
    server = FakeServer()
    install(server, budget)
    await asyncio.gather(*(server.request(i) for i in range(30)))
    assert len(server.arrivals) == 30
    assert server.busiest_window() <= 4
    assert budget.waits > 0


async def test_under_a_backlog_requests_leave_evenly_spaced_not_in_waves():
    """Slots taken together must not come back together: a wave of board updates makes
    every player it names click at the same moment (bench.load). Each slot is scheduled to
    come back at least window/per_second after the one before it.

    The test reads the times the budget *schedules* (loop.call_at), not when requests
    happened to start: on a busy machine a late wake-up of one release followed by an
    on-time one shows a short gap between starts that says nothing about the budget."""
    budget = RequestBudget(4, window=WINDOW)
    server = FakeServer()
    install(server, budget)
    loop = asyncio.get_running_loop()
    scheduled: list[float] = []
    call_at = loop.call_at

    def recording_call_at(when, callback, *args, **kwargs):
        if callback == budget._slots.release:
            scheduled.append(when)
        return call_at(when, callback, *args, **kwargs)

    loop.call_at = recording_call_at  # type: ignore[method-assign]
    try:
        await asyncio.gather(*(server.request(i) for i in range(16)))
    finally:
        del loop.call_at
    assert len(scheduled) == 16
    gaps = [b - a for a, b in itertools.pairwise(scheduled)]
    assert min(gaps) >= WINDOW / 4 - 1e-9
    assert server.busiest_window() <= 4


async def test_without_the_budget_the_same_burst_overshoots():
    """The control for the test above: the fake server does see bursts."""
    server = FakeServer()
    await asyncio.gather(*(server.request(i) for i in range(30)))
    assert server.busiest_window() > 4


async def test_install_passes_arguments_and_answers_through():
    budget = RequestBudget(1, window=0.01)

    class Http:
        async def request(self, route, **kwargs):
            return route, kwargs

    http = Http()
    install(http, budget)
    assert await http.request("r1", json={"a": 1}) == ("r1", {"json": {"a": 1}})
    assert await http.request("r2") == ("r2", {})


async def test_a_failed_request_gives_its_slot_back():
    budget = RequestBudget(1, window=0.01)

    class Http:
        async def request(self, route, **kwargs):
            raise RuntimeError("boom")

    http = Http()
    install(http, budget)
    for _ in range(3):
        with pytest.raises(RuntimeError):
            await asyncio.wait_for(http.request("r"), 1)


def test_a_budget_below_one_request_is_refused():
    with pytest.raises(ValueError):
        RequestBudget(0)
