"""The fake's threads follow Discord's documentation (topics/threads.mdx, resources/
channel.mdx; the docs win over the spec):

- Start Thread from Message: a public thread with the message's id, one per message
  (160004), Create Public Threads needed (50013), not in a thread or a voice channel's chat
  (50024), name 1–100 characters and an auto-archive duration of 60/1440/4320/10080
  (50035); the message then carries the thread, the parent gets a THREAD_CREATED note and
  the thread a THREAD_STARTER_MESSAGE;
- Start Thread without Message: `type` defaults to a *private* thread;
- in a thread Send Messages in Threads counts, not Send Messages; a message unarchives an
  archived thread, an edit there is refused (50083); a locked thread takes nothing from a
  bot without Manage Threads; a deleted thread is 10003;
- Modify Channel on a thread: archive as its creator, lock only with Manage Threads, an
  archived thread takes only a request that unarchives it (50083);
- every thread answer matches the spec's ThreadResponse; discord.py's cache follows
  THREAD_CREATE, THREAD_UPDATE, THREAD_DELETE and GUILD_CREATE's active threads.
"""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import discord
from discord.ext import commands

from fakediscord import FakeDiscord, running_bot
from fakediscord.models import (
    CHANNEL_GUILD_VOICE,
    CHANNEL_PRIVATE_THREAD,
    CHANNEL_PUBLIC_THREAD,
    CREATE_PUBLIC_THREADS,
    MANAGE_THREADS,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
)
from fakediscord.validation import response_validator, schema_errors

pytest_plugins = ["fakediscord.pytest_plugin"]  # the `fake` fixture
THREAD_ROUTE = "POST /channels/{channel_id}/messages/{message_id}/threads"


async def call(session: aiohttp.ClientSession, method: str, url: str,
               body: dict | None = None) -> tuple[int, Any]:
    async with session.request(method, url, json=body) as resp:
        return resp.status, (await resp.json() if resp.status != 204 else None)


def valid(route: str, status: str, payload: Any) -> None:
    errors = schema_errors(response_validator(route, status), payload)
    assert not errors, errors.payload() if hasattr(errors, "payload") else errors


async def test_a_thread_from_a_message(fake: FakeDiscord) -> None:
    guild = fake.add_guild("g")
    channel = fake.add_channel(guild, "c")
    base = fake.rest_base
    async with aiohttp.ClientSession() as s:
        _, lobby = await call(s, "POST", f"{base}/channels/{channel.id}/messages",
                              {"content": "lobby"})
        url = f"{base}/channels/{channel.id}/messages/{lobby['id']}/threads"
        for bad in ({"name": ""}, {"name": "x" * 101}, {"name": "ok", "auto_archive_duration": 30}):
            status, error = await call(s, "POST", url, bad)
            assert status == 400 and error["code"] == 50035, bad
        status, thread = await call(s, "POST", url, {"name": "🃏 Taboo", "auto_archive_duration":
                                                     1440, "rate_limit_per_user": None})
        assert status == 201, thread
        valid(THREAD_ROUTE, "201", thread)
        assert thread["id"] == lobby["id"] and thread["type"] == CHANNEL_PUBLIC_THREAD
        assert thread["parent_id"] == str(channel.id) and thread["owner_id"] == str(fake.bot_user.id)
        assert thread["thread_metadata"]["archived"] is False
        assert thread["member"]["user_id"] == str(fake.bot_user.id)
        status, again = await call(s, "POST", url, {"name": "again"})
        assert status == 400 and again["code"] == 160004
        # the message carries its thread; the channel got Discord's note, the thread its
        # starter message
        _, message = await call(s, "GET", f"{base}/channels/{channel.id}/messages/{lobby['id']}")
        assert message["thread"]["id"] == thread["id"] and message["flags"] & 32
        [note] = [m for m in fake.channel_messages(channel) if m.type == 18]
        assert note.content == "🃏 Taboo"
        assert note.message_reference["channel_id"] == thread["id"]
        [starter] = fake.channel_messages(int(thread["id"]))
        assert starter.type == 21 and starter.message_reference["message_id"] == lobby["id"]
        # no thread of a thread, nor in a voice channel's chat
        _, inner = await call(s, "POST", f"{base}/channels/{thread['id']}/messages",
                              {"content": "in the thread"})
        status, error = await call(s, "POST", f"{base}/channels/{thread['id']}/messages/"
                                   f"{inner['id']}/threads", {"name": "deeper"})
        assert status == 400 and error["code"] == 50024
        voice = fake.add_channel(guild, "v", type=CHANNEL_GUILD_VOICE)
        _, said = await call(s, "POST", f"{base}/channels/{voice.id}/messages", {"content": "x"})
        status, error = await call(s, "POST", f"{base}/channels/{voice.id}/messages/"
                                   f"{said['id']}/threads", {"name": "t"})
        assert status == 400 and error["code"] == 50024


async def test_creating_threads_needs_the_permission(fake: FakeDiscord) -> None:
    guild = fake.add_guild("g")
    channel = fake.add_channel(guild, "c")
    fake.deny_bot(channel, CREATE_PUBLIC_THREADS)
    base = fake.rest_base
    async with aiohttp.ClientSession() as s:
        _, lobby = await call(s, "POST", f"{base}/channels/{channel.id}/messages",
                              {"content": "lobby"})
        status, error = await call(s, "POST", f"{base}/channels/{channel.id}/messages/"
                                   f"{lobby['id']}/threads", {"name": "t"})
        assert status == 403 and error["code"] == 50013
        status, error = await call(s, "POST", f"{base}/channels/{channel.id}/threads",
                                   {"name": "t", "type": CHANNEL_PUBLIC_THREAD})
        assert status == 403 and error["code"] == 50013
        # without `type` the thread is private (channel.mdx), which needs another permission
        status, private = await call(s, "POST", f"{base}/channels/{channel.id}/threads",
                                     {"name": "t"})
        assert status == 201 and private["type"] == CHANNEL_PRIVATE_THREAD
        valid("POST /channels/{channel_id}/threads", "201", private)
    assert not fake.threads_of(channel)[0].archived


async def test_writing_in_threads(fake: FakeDiscord) -> None:
    # raw requests, a dozen at one thread's routes in a second: this checks what threads
    # accept, and the rate limits have their own tests (test_fake_discord.py)
    fake.disable_rate_limits()
    guild = fake.add_guild("g")
    channel = fake.add_channel(guild, "c")
    base = fake.rest_base
    async with aiohttp.ClientSession() as s:
        status, t = await call(s, "POST", f"{base}/channels/{channel.id}/threads",
                               {"name": "t", "type": CHANNEL_PUBLIC_THREAD})
        thread = fake.channels[int(t["id"])]
        post = f"{base}/channels/{thread.id}/messages"
        _, first = await call(s, "POST", post, {"content": "one"})
        # Send Messages has no effect in threads; Send Messages in Threads does
        fake.deny_bot(channel, SEND_MESSAGES)
        status, _ = await call(s, "POST", post, {"content": "two"})
        assert status == 200
        fake.deny_bot(channel, SEND_MESSAGES_IN_THREADS)
        status, error = await call(s, "POST", post, {"content": "three"})
        assert status == 403 and error["code"] == 50013
        channel.bot_denied = 0
        # archived by someone: an edit is refused, a new message unarchives it
        fake.update_thread(thread, archived=True)
        edit = f"{post}/{first['id']}"
        status, error = await call(s, "PATCH", edit, {"content": "one!"})
        assert status == 400 and error["code"] == 50083
        status, _ = await call(s, "POST", post, {"content": "four"})
        assert status == 200 and not thread.archived
        # locked: nothing from a bot without Manage Threads, archived or not
        fake.update_thread(thread, locked=True)
        status, error = await call(s, "POST", post, {"content": "five"})
        assert status == 403 and error["code"] == 160005
        fake.update_thread(thread, archived=True)
        status, error = await call(s, "POST", post, {"content": "six"})
        assert status == 400 and error["code"] == 50083
        status, error = await call(s, "DELETE", edit)
        assert status == 400 and error["code"] == 50083
        # deleted
        fake.delete_channel(thread)
        status, error = await call(s, "POST", post, {"content": "seven"})
        assert status == 404 and error["code"] == 10003
    assert [m.content for m in fake.channel_messages(thread)] == ["one", "two", "four"]


async def test_archiving_and_locking_a_thread(fake: FakeDiscord) -> None:
    guild = fake.add_guild("g")
    channel = fake.add_channel(guild, "c")
    base = fake.rest_base
    async with aiohttp.ClientSession() as s:
        _, t = await call(s, "POST", f"{base}/channels/{channel.id}/threads",
                          {"name": "t", "type": CHANNEL_PUBLIC_THREAD})
        url = f"{base}/channels/{t['id']}"
        thread = fake.channels[int(t["id"])]
        status, error = await call(s, "PATCH", url, {"name": ""})
        assert status == 400 and error["code"] == 50035, "1-100 characters (the docs)"
        status, error = await call(s, "PATCH", url, {"archived": True, "locked": True})
        assert status == 403 and error["code"] == 50013, "locking needs Manage Threads"
        assert not thread.archived
        status, done = await call(s, "PATCH", url, {"archived": True})
        assert status == 200 and done["thread_metadata"]["archived"] is True, "its creator"
        valid("PATCH /channels/{channel_id}", "200", done)
        status, error = await call(s, "PATCH", url, {"name": "renamed"})
        assert status == 400 and error["code"] == 50083
        status, done = await call(s, "PATCH", url, {"archived": False})
        assert status == 200 and not thread.archived
        # another's thread, with Manage Threads: archive and lock together
        other = fake.make_thread(channel, "theirs", fake.add_user("mod"))
        status, error = await call(s, "PATCH", f"{base}/channels/{other.id}",
                                   {"archived": True})
        assert status == 403 and error["code"] == 50013
        guild.roles[-1].permissions |= MANAGE_THREADS
        status, done = await call(s, "PATCH", f"{base}/channels/{other.id}",
                                  {"archived": True, "locked": True})
        assert status == 200 and other.archived and other.locked
        status, got = await call(s, "GET", f"{base}/channels/{thread.id}")
        valid("GET /channels/{channel_id}", "200", got)
        assert got["member"]["user_id"] == str(fake.bot_user.id)


async def test_discord_py_follows_thread_events(fake: FakeDiscord) -> None:
    guild = fake.add_guild("g")
    channel = fake.add_channel(guild, "c")
    alice = fake.add_user("alice")
    fake.add_member(guild, alice)
    early = fake.make_thread(channel, "early", alice)
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())
    deleted: list[int] = []

    @bot.event
    async def on_raw_thread_delete(payload: discord.RawThreadDeleteEvent) -> None:
        deleted.append(payload.thread_id)

    async with running_bot(fake, bot):
        g = bot.get_guild(guild.id)
        assert g is not None and g.get_thread(early.id) is not None, "GUILD_CREATE's threads"
        thread = fake.make_thread(channel, "late", alice)
        await fake.settle()
        cached = g.get_thread(thread.id)
        assert cached is not None and cached.parent_id == channel.id
        fake.update_thread(thread, archived=True, locked=True)
        await fake.settle()
        assert cached.archived and cached.locked
        fake.delete_channel(thread)
        for _ in range(50):
            if deleted:
                break
            await asyncio.sleep(0.02)
        assert deleted == [thread.id] and g.get_thread(thread.id) is None


async def test_a_followup_in_a_locked_thread_is_refused(fake: FakeDiscord) -> None:
    """Messages by interaction token go where the interaction was: a thread locked since
    takes none from a bot without Manage Threads, as by the channel endpoints."""
    guild = fake.add_guild("g")
    channel = fake.add_channel(guild, "c")
    alice = fake.add_user("alice")
    fake.add_member(guild, alice)
    thread = fake.make_thread(channel, "t", alice)
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    outcomes: list[object] = []

    @bot.tree.command(description="Answer, then a followup after the thread was locked")
    async def late(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("answer")
        fake.update_thread(thread, locked=True)
        try:
            await interaction.followup.send("followup")
            outcomes.append("sent")
        except discord.HTTPException as exc:
            outcomes.append(exc.code)

    async def setup_hook() -> None:
        await bot.tree.sync()

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    async with running_bot(fake, bot):
        await fake.slash(alice, "late", channel=thread)
        await fake.settle()
    assert outcomes == [160005]
    assert [m.content for m in fake.channel_messages(thread)] == ["answer"]
