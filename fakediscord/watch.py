"""Knowing that a bot still has requests to send, though the wire is quiet.

With Discord's rate limits on, a quiet wire no longer means a bot is done: discord.py
sleeps before a request when the bucket's ``X-RateLimit-Remaining`` reached 0, after a
429, and a bot may hold requests back in its own pacing (the project's request budget).
:meth:`FakeDiscord.settle` would then return while the board edit is still to come.

So the fake counts the requests a watched bot has *started* and not yet *finished*: the
outermost wrapper of its ``HTTPClient.request`` (:func:`watch_client`, installed after the
bot's own wrappers so its pacing is counted too), and discord.py's webhook adapter
(interaction followups and edits by token), wrapped once per process: a class attribute
patched and restored per test would drop wrappers other code added after it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: Counters of the fakes that watch webhook requests (normally one; every one counts).
_webhook_counters: list[list[int]] = []
_webhook_wrapped: list[bool] = []


class PendingRequests:
    """How many requests watched bots have started and not finished."""

    def __init__(self) -> None:
        self._rest = [0]
        self._webhooks = [0]
        self.watched = 0  # clients watched (settle's docstring: only they are counted)

    @property
    def count(self) -> int:
        return self._rest[0] + self._webhooks[0]

    def start(self) -> None:
        """Count webhook requests from now on (the fake started)."""
        _wrap_webhook_adapter()
        if self._webhooks not in _webhook_counters:
            _webhook_counters.append(self._webhooks)

    def stop(self) -> None:
        if self._webhooks in _webhook_counters:
            _webhook_counters.remove(self._webhooks)

    def watch(self, http: Any) -> None:
        """Count every request of a discord.py ``HTTPClient`` from its call to its answer,
        including the time it waits in the bot's own pacing and in discord.py's buckets."""
        send = http.request
        counter = self._rest

        async def request(route: Any, **kwargs: Any) -> Any:
            counter[0] += 1
            try:
                return await send(route, **kwargs)
            finally:
                counter[0] -= 1

        http.request = request
        self.watched += 1


def _wrap_webhook_adapter() -> None:
    if _webhook_wrapped:
        return
    _webhook_wrapped.append(True)
    from discord.webhook import async_ as webhook

    adapter = webhook.AsyncWebhookAdapter
    send: Callable[..., Any] = adapter.request

    async def request(self: Any, *args: Any, **kwargs: Any) -> Any:
        counters = list(_webhook_counters)
        for counter in counters:
            counter[0] += 1
        try:
            return await send(self, *args, **kwargs)
        finally:
            for counter in counters:
                counter[0] -= 1

    adapter.request = request  # type: ignore[method-assign]

