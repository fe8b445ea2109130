"""bot.log_window: a burst of one kind of log line becomes a few lines and a count."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter

import pytest

import bot.tables.service as service
from bot.log_window import LogWindow


async def test_the_first_lines_of_a_window_are_shown_and_the_window_is_summarised() -> None:
    summaries: list[tuple[Counter, int]] = []
    window = LogWindow(0.05, lambda counts, total: summaries.append((counts, total)), limit=2)
    shown = [window.note("timeout"), window.note("timeout"), window.note("503")]
    assert shown == [True, True, False]
    assert not summaries  # not before the window ends
    await asyncio.sleep(0.2)
    assert summaries == [(Counter({"timeout": 2, "503": 1}), 3)]
    assert window.note("timeout")  # a new window: shown again
    await asyncio.sleep(0.2)
    assert summaries[-1] == (Counter({"timeout": 1}), 4)


async def test_a_quiet_window_says_nothing() -> None:
    summaries: list = []
    window = LogWindow(0.05, lambda counts, total: summaries.append(counts))
    window.flush()
    await asyncio.sleep(0.1)
    assert summaries == []


def test_without_an_event_loop_the_count_is_given_at_once() -> None:
    summaries: list = []
    window = LogWindow(60, lambda counts, total: summaries.append(counts))
    assert window.note("x")
    assert summaries == [Counter({"x": 1})]


@pytest.mark.parametrize(("exc", "text"), [
    (TimeoutError(), "TimeoutError"),
    (RuntimeError("the picture worker did not answer"),
     "RuntimeError: the picture worker did not answer"),
])
def test_a_failed_delivery_always_says_what_failed(exc: BaseException, text: str) -> None:
    assert service.failure_text(exc) == text


async def test_delivery_failures_summary_names_the_causes(caplog) -> None:
    caplog.set_level(logging.WARNING, "cardtable.tables")
    service._delivery_summary(Counter({"RestTimeout: POST /x: no answer within 10 s": 12,
                                       "TimeoutError": 3}), 40)
    [line] = [r.getMessage() for r in caplog.records]
    assert line.startswith("15 delivery attempt(s) failed in the last 60 s")
    assert "10 shown above one by one; 40 since the bot started" in line
    assert "12× RestTimeout: POST /x: no answer within 10 s; 3× TimeoutError" in line
