"""Fixtures shared by every test folder, and the per-test timeout's report."""

from __future__ import annotations

import os
import signal
import threading

import pytest

from tests.databases import database_for
from tests.stacks import asyncio_stacks

# The picture worker runs at the bot's priority in tests (README: PICTURE_WORKER_NICE): the
# other test workers' bots are not its bot, and at nice 10 it starved behind them (a Six
# Suit board still undrawn after 20 s at load 25, sent as text only).
os.environ.setdefault("PICTURE_WORKER_NICE", "0")


@pytest.fixture(params=["sqlite", "postgresql"])
async def database(request, tmp_path):
    """A fresh database of each backend in turn (tests/databases.py): SQLite, then PostgreSQL."""
    async with database_for(request.param, tmp_path) as db:
        yield db


@pytest.hookimpl(tryfirst=True)
def pytest_timeout_set_timer(item, settings):
    """pytest-timeout's signal method (pyproject.toml `timeout`), plus the asyncio tasks'
    stacks in the report when a test runs out of time."""
    if settings.method != "signal" or threading.current_thread() is not threading.main_thread():
        return None  # pytest-timeout's own timer
    import pytest_timeout

    def handler(signum, frame):
        __tracebackhide__ = True
        stacks = asyncio_stacks()
        if stacks:
            terminal = item.config.get_terminal_writer()
            terminal.sep("+", title=f"asyncio tasks of {item.nodeid} at the timeout")
            terminal.write(stacks)
        pytest_timeout.timeout_sigalrm(item, settings)

    def cancel():
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)

    item.cancel_timeout = cancel
    signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, settings.timeout)
    return True
