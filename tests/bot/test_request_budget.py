"""The request budget keeps the bot's own REST requests under Discord's global limit."""

from __future__ import annotations

import asyncio

import pytest

from bot.request_budget import RequestBudget, install


class FakeClock:
    """A clock that only moves when the budget sleeps, so the tests are exact and instant."""

    def __init__(self) -> None:
        self.now = 100.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


async def test_requests_within_the_budget_do_not_wait():
    clock = FakeClock()
    budget = RequestBudget(5, clock=clock, sleep=clock.sleep)
    for _ in range(5):
        await budget.acquire()
    assert clock.sleeps == [] and budget.waits == 0


async def test_no_sliding_second_ever_holds_more_than_the_budget():
    clock = FakeClock()
    budget = RequestBudget(5, clock=clock, sleep=clock.sleep)
    started = []
    for i in range(23):
        await budget.acquire()
        started.append(clock.now)
        clock.now += 0.07 if i % 3 else 0.0  # irregular bursts
    for t in started:
        assert sum(1 for s in started if t <= s < t + 1.0) <= 5
    assert budget.waits > 0


async def test_the_sixth_request_waits_until_the_first_leaves_the_window():
    clock = FakeClock()
    budget = RequestBudget(5, clock=clock, sleep=clock.sleep)
    for _ in range(5):
        await budget.acquire()
        clock.now += 0.1
    await budget.acquire()
    assert clock.sleeps == [pytest.approx(0.5)]


async def test_concurrent_waiters_are_served_in_arrival_order():
    budget = RequestBudget(2)
    order: list[int] = []

    async def worker(i: int) -> None:
        await budget.acquire()
        order.append(i)

    await asyncio.gather(*(worker(i) for i in range(4)))
    assert order == [0, 1, 2, 3]


def test_a_budget_below_one_request_is_refused():
    with pytest.raises(ValueError):
        RequestBudget(0)


async def test_install_passes_every_request_through_the_budget():
    clock = FakeClock()
    budget = RequestBudget(1, clock=clock, sleep=clock.sleep)

    class Http:
        async def request(self, route, **kwargs):
            return route, kwargs

    http = Http()
    install(http, budget)
    assert await http.request("r1", json={"a": 1}) == ("r1", {"json": {"a": 1}})
    assert await http.request("r2") == ("r2", {})
    assert clock.sleeps == [pytest.approx(1.0)]
