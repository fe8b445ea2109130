"""Every request to Discord names the bot's library in its User-Agent.

Discord asks every HTTP client for a `DiscordBot (url, version)` User-Agent and may block
requests without one (reference.mdx, User Agent). discord.py sets it on the requests of its
HTTP client, but its webhook adapter — every interaction reply, followup and token edit,
about half the bot's requests in a game — sends aiohttp's default `Python/3.11 aiohttp/…`.
An aiohttp trace (discord.py's `http_trace`) gives those requests the client's own
User-Agent before they leave (aiohttp documents the request-start headers as mutable).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import aiohttp

PREFIX = "DiscordBot ("


def trace(agent: Callable[[], str]) -> aiohttp.TraceConfig:
    """A trace that sets `agent()` as the User-Agent of any request that lacks Discord's."""
    config = aiohttp.TraceConfig()

    async def on_request_start(session: Any, context: Any,
                               params: aiohttp.TraceRequestStartParams) -> None:
        if not params.headers.get("User-Agent", "").startswith(PREFIX):
            params.headers["User-Agent"] = agent()

    config.on_request_start.append(on_request_start)
    return config
