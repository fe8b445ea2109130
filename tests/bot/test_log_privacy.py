"""What the bot logs never holds a player's private text (bot.log_privacy, bot.ui.replies)."""

from __future__ import annotations

import json
import logging
from types import SimpleNamespace

import discord

from bot import log_privacy
from bot.ui.replies import reply_error

SECRET = "Your hand: 7♥ Q♠ — your role: the Wire"


async def test_an_error_not_sent_twice_is_logged_by_kind_not_text(caplog):
    """An error after the interaction was answered is withheld; the log says which
    interaction and what kind of answer, not the words (they were meant for one person)."""
    interaction = SimpleNamespace(
        id=1234, type=discord.InteractionType.component,
        response=SimpleNamespace(type=discord.InteractionResponseType.channel_message))
    caplog.set_level(logging.DEBUG)
    await reply_error(interaction, SECRET)
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert "1234" in text and "component" in text and "error" in text
    assert "7♥" not in text and "Wire" not in text


def test_discord_and_database_debug_lines_keep_their_shape_not_their_payloads(caplog):
    log_privacy.install()
    log_privacy.install()  # twice: one filter
    http = logging.getLogger("discord.http")
    assert http.filters.count(log_privacy._FILTER) == 1
    caplog.set_level(logging.DEBUG)
    body = json.dumps({"content": SECRET})
    http.debug("%s %s with %s has returned %s", "POST", "https://x/channels/1/messages",
               body, 200)
    http.debug("%s %s has received %s", "POST", "https://x/channels/1/messages",
               {"id": "1", "content": SECRET})
    logging.getLogger("discord.gateway").debug(
        "For Shard ID %s: WebSocket Event: %s", 0,
        {"op": 0, "t": "MESSAGE_CREATE", "s": 7, "d": {"content": SECRET}})
    logging.getLogger("aiosqlite").debug("executing %s", ("UPDATE t SET state=?", [SECRET]))
    logging.getLogger("aiosqlite").debug("returning exception %s", ValueError(SECRET * 9))
    lines = [r.getMessage() for r in caplog.records]
    assert not any("7♥" in line for line in lines), lines
    assert lines[0] == ("POST https://x/channels/1/messages with <payload withheld: "
                        f"{len(body)} chars> has returned 200")
    assert "t=MESSAGE_CREATE" in lines[2]
    assert lines[4].startswith("returning exception ValueError: <payload withheld")


def test_plain_arguments_pass_unchanged():
    assert log_privacy.withheld("GET") == "GET"
    assert log_privacy.withheld(429) == 429
    assert log_privacy.withheld(None) is None
