"""Run a discord.py bot against a fake for the duration of a block.

Why a helper: ``bot.start()`` must run as a task, ``wait_until_ready`` never returns if
login crashes (the exception sits in the task), and teardown must ``await`` the task so a
crash inside the bot (e.g. a KeyError from a malformed gateway payload) fails the test
instead of disappearing.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .server import FakeDiscord


@contextlib.asynccontextmanager
async def running_bot(
    fake: FakeDiscord, bot: Any, *, token: str = "fake-token", timeout: float = 5.0
) -> AsyncIterator[Any]:
    """``async with running_bot(fake, bot): ...`` — start, wait for ready, then close cleanly.

    ``bot`` is any ``discord.Client``; build it with ``guild_ready_timeout=0.05`` (or a
    small value) or ``on_ready`` waits 2 s for more GUILD_CREATEs. discord.py must already
    point at the fake (:meth:`FakeDiscord.patch_discord`).
    """
    fake.watch_client(bot)  # settle() waits for the requests the bot holds back
    task = asyncio.create_task(bot.start(token), name="fakediscord-bot")
    ready = asyncio.create_task(bot.wait_until_ready())
    try:
        done, _ = await asyncio.wait(
            {task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if task in done:
            task.result()  # re-raise the login/connect failure
            raise RuntimeError("bot.start() returned before the bot was ready")
        if ready not in done:
            raise TimeoutError(
                f"bot not ready after {timeout}s (is discord.py patched to the fake?)"
            )
        await fake.wait_for_bot(timeout)
        yield bot
    finally:
        ready.cancel()
        await bot.close()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, timeout)
