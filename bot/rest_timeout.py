"""A time limit on every REST call to Discord.

discord.py's HTTP session has no timeout of its own (aiohttp's default is five minutes), so
a request Discord never answers held its caller — and its slot in the request budget
(bot.request_budget) — for minutes: enough of them and every table's deliveries stopped.
With a limit the call raises TimeoutError, its budget slot comes back, and the table's
delivery task retries later like after any other failure.

Two paths carry the bot's requests: `HTTPClient.request` (channels, DMs, commands) and
discord.py's webhook adapter (interaction replies and followups), which bypasses the first.
Both get the limit. A call given up raises `RestTimeout` (a TimeoutError) naming its route
and the limit, so the log line of the delivery it broke says what was late.
"""

from __future__ import annotations

import asyncio
from typing import Any

from discord.webhook import async_ as webhook

_interaction_timeout: list[float] = []  # the limit for interaction replies, once installed


class RestTimeout(TimeoutError):
    """A REST call given up after the time limit. Its text names the route by its template
    (``POST /channels/{channel_id}/messages``: no ids, no interaction token)."""


async def _limited(route: Any, seconds: float, call: Any) -> Any:
    try:
        async with asyncio.timeout(seconds):
            return await call
    except TimeoutError as exc:
        if isinstance(exc, RestTimeout):
            raise
        what = f"{getattr(route, 'method', '?')} {getattr(route, 'path', '?')}"
        raise RestTimeout(f"{what}: no answer within {seconds:g} s") from exc


def install(http: Any, seconds: float) -> None:
    """Limit every request of a discord.py ``HTTPClient`` (and, process-wide, every
    interaction reply) to `seconds`. Install before the request budget, so the time spent
    waiting for a budget slot is not counted."""
    send = http.request

    async def request(route: Any, **kwargs: Any) -> Any:
        return await _limited(route, seconds, send(route, **kwargs))

    http.request = request
    _limit_interaction_replies(seconds)


def _limit_interaction_replies(seconds: float) -> None:
    if _interaction_timeout:
        _interaction_timeout[0] = seconds
        return
    _interaction_timeout.append(seconds)
    adapter = webhook.AsyncWebhookAdapter
    send = adapter.request

    async def request(self: Any, *args: Any, **kwargs: Any) -> Any:
        route = args[0] if args else kwargs.get("route")
        return await _limited(route, _interaction_timeout[0], send(self, *args, **kwargs))

    adapter.request = request  # type: ignore[method-assign]
