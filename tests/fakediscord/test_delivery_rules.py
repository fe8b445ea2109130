"""The fake follows Discord where a bot's deliveries depend on it (issues 14 and 15):

- Create Message's `nonce` (≤ 25 characters) and `enforce_nonce`: the same author's same
  nonce within the past few minutes returns the earlier message and creates none
  (resources/message.mdx, Create Message);
- Get Channel Messages: newest first, `limit` 1–100, `before`/`after`/`around` exclusive,
  nothing without Read Message History, other people's content empty without the
  MESSAGE_CONTENT intent (message.mdx, events/gateway.mdx "Message Content Intent");
- a followup is shown as a reply to the interaction's original response: type 19 with a
  `message_reference` (discord/discord-api-docs#2733);
- failure injection for "done, but the answer was lost" (`lose_answer_next`).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import aiohttp
import discord
import pytest
from discord.ext import commands

from fakediscord import FakeDiscord, running_bot
from fakediscord.models import READ_MESSAGE_HISTORY


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    fake = await FakeDiscord().start()
    fake.patch_discord(monkeypatch)
    yield fake
    await fake.stop()


async def post(session: aiohttp.ClientSession, url: str, body: dict) -> tuple[int, dict]:
    async with session.post(url, json=body) as resp:
        return resp.status, await resp.json()


async def get(session: aiohttp.ClientSession, url: str) -> tuple[int, object]:
    async with session.get(url) as resp:
        return resp.status, await resp.json()


async def test_enforce_nonce_returns_the_earlier_message(fake: FakeDiscord) -> None:
    channel = fake.add_channel(fake.add_guild("g"), "c")
    url = f"{fake.rest_base}/channels/{channel.id}/messages"
    async with aiohttp.ClientSession() as session:
        status, first = await post(session, url, {"content": "a", "nonce": "n1",
                                                  "enforce_nonce": True})
        assert status == 200 and first["nonce"] == "n1"
        status, again = await post(session, url, {"content": "b", "nonce": "n1",
                                                  "enforce_nonce": True})
        assert status == 200 and again["id"] == first["id"] and again["content"] == "a"
        # without enforce_nonce the nonce is only echoed: a second message is created
        status, other = await post(session, url, {"content": "c", "nonce": "n1"})
        assert status == 200 and other["id"] != first["id"]
        status, error = await post(session, url, {"content": "d", "nonce": "x" * 26,
                                                  "enforce_nonce": True})
        assert status == 400 and error["code"] == 50035
        status, _ = await post(session, url, {"content": "d", "nonce": "x" * 25,
                                              "enforce_nonce": True})
        assert status == 200
    assert [m.content for m in fake.channel_messages(channel)] == ["a", "c", "d"]


async def test_an_answer_lost_after_the_work_was_done(fake: FakeDiscord) -> None:
    channel = fake.add_channel(fake.add_guild("g"), "c")
    url = f"{fake.rest_base}/channels/{channel.id}/messages"
    fake.lose_answer_next("POST", r"/messages$", status=500)
    async with aiohttp.ClientSession() as session:
        status, _ = await post(session, url, {"content": "a"})
        assert status == 500
        assert [m.content for m in fake.channel_messages(channel)] == ["a"]
        fake.lose_answer_next("POST", r"/messages$", stall=0.3)
        with pytest.raises(asyncio.TimeoutError):
            async with asyncio.timeout(0.1):
                await post(session, url, {"content": "b"})
        assert [m.content for m in fake.channel_messages(channel)] == ["a", "b"]
        status, _ = await post(session, url, {"content": "c"})  # used up: answered again
        assert status == 200


async def test_get_channel_messages_as_discord_answers_it(fake: FakeDiscord) -> None:
    # raw requests, a dozen at one route in a second: this checks the route's answers, and
    # the rate limits have their own tests (tests/fakediscord/test_fake_discord.py)
    fake.disable_rate_limits()
    guild = fake.add_guild("g")
    channel = fake.add_channel(guild, "c")
    alice = fake.add_user("alice")
    fake.add_member(guild, alice)
    url = f"{fake.rest_base}/channels/{channel.id}/messages"
    async with aiohttp.ClientSession() as session:
        for text in ("one", "two", "three"):
            await post(session, url, {"content": text, "components": [{"type": 1, "components": [
                {"type": 2, "style": 2, "label": "b", "custom_id": f"id-{text}"}]}]})
        theirs = await fake.send_as(alice, channel, "hello from alice")
        status, listed = await get(session, f"{url}?limit=3")
        assert status == 200
        assert [m["content"] for m in listed] == ["", "three", "two"]  # newest first
        assert listed[0]["id"] == str(theirs.id) and listed[0]["components"] == []
        assert listed[1]["components"][0]["components"][0]["custom_id"] == "id-three"
        for bad in ("limit=0", "limit=101", f"before={theirs.id}&after=1"):
            status, error = await get(session, f"{url}?{bad}")
            assert status == 400 and error["code"] == 50035, bad
        status, older = await get(session, f"{url}?before={theirs.id}&limit=100")
        assert [m["content"] for m in older] == ["three", "two", "one"]
        channel.bot_denied |= READ_MESSAGE_HISTORY
        status, listed = await get(session, url)
        assert status == 200 and listed == []


async def test_a_followup_is_shown_as_a_reply_and_a_channel_post_is_not(
        fake: FakeDiscord) -> None:
    guild = fake.add_guild("g")
    channel = fake.add_channel(guild, "c")
    alice = fake.add_user("alice")
    fake.add_member(guild, alice)
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())

    @bot.tree.command(description="Reply, then a followup and a channel post")
    async def both(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("answer", ephemeral=True)
        await interaction.followup.send("followup")
        await interaction.channel.send("plain")  # type: ignore[union-attr]

    async def setup_hook() -> None:
        await bot.tree.sync()

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    async with running_bot(fake, bot):
        result = await fake.slash(alice, "both", channel=channel)
        await fake.settle()
    [followup] = result.followups
    assert followup.type == 19 and followup.shows_header
    assert followup.message_reference["message_id"] == str(result.message.id)
    assert followup.payload()["message_reference"]["channel_id"] == str(channel.id)
    [plain] = [m for m in fake.channel_messages(channel) if m.content == "plain"]
    assert plain.type == 0 and not plain.shows_header
    assert "message_reference" not in plain.payload()


async def test_get_channel_message_takes_read_message_history(fake: FakeDiscord) -> None:
    """message.mdx, Get Channel Message: View Channel and Read Message History; without the
    latter 403 Missing Access (50001). In a DM no permissions apply."""
    fake.disable_rate_limits()  # raw requests, faster than a bucket allows
    channel = fake.add_channel(fake.add_guild("g"), "c")
    url = f"{fake.rest_base}/channels/{channel.id}/messages"
    async with aiohttp.ClientSession() as session:
        status, sent = await post(session, url, {"content": "a"})
        status, got = await get(session, f"{url}/{sent['id']}")
        assert status == 200 and got["id"] == sent["id"]
        channel.bot_denied |= READ_MESSAGE_HISTORY
        status, refused = await get(session, f"{url}/{sent['id']}")
        assert status == 403 and refused["code"] == 50001
