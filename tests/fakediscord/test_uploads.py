"""Uploads as Discord documents them ("Uploading Files", "Edit Message"): a file's
description from the `attachments` list, `attachment://name` in an embed resolved to the
attachment, and an edit whose `attachments` list names the new file replacing the old."""

from __future__ import annotations

import io
import json
from collections.abc import AsyncIterator

import aiohttp
import discord
import pytest
from discord.ext import commands

from fakediscord import FakeDiscord, running_bot
from fakediscord.formerrors import leaf_errors


def _embed() -> discord.Embed:
    return discord.Embed(title="board").set_image(url="attachment://board.png")


def _file(data: bytes, description: str) -> discord.File:
    return discord.File(io.BytesIO(data), filename="board.png", description=description)


async def test_upload_then_replace_then_remove_the_picture(monkeypatch) -> None:
    fake = await FakeDiscord().start()
    fake.patch_discord(monkeypatch)
    try:
        guild = fake.add_guild("Uploads")
        channel = fake.add_channel(guild, "games")
        bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
        async with running_bot(fake, bot):
            where = bot.get_partial_messageable(channel.id)
            sent = await where.send(embed=_embed(), file=_file(b"one", "first picture"))
            stored = fake.messages[sent.id]
            [first] = stored.attachments
            assert first["description"] == "first picture"
            assert fake.upload_data(first) == b"one"
            assert stored.embeds[0]["image"]["url"] == first["url"]
            [call] = fake.calls_matching("POST", "/messages$")
            assert call.json["attachments"][0]["id"] in (0, "0")
            assert "data" not in call.files[0]  # the call record keeps no bytes

            await where.get_partial_message(sent.id).edit(
                embed=_embed(), attachments=[_file(b"two", "second picture")])
            [second] = stored.attachments  # replaced, not added beside the first
            assert second["id"] != first["id"]
            assert second["description"] == "second picture"
            assert fake.upload_data(second) == b"two"
            assert stored.embeds[0]["image"]["url"] == second["url"]

            await where.get_partial_message(sent.id).edit(content="text only", embeds=[],
                                                          attachments=[])
            assert stored.attachments == []
    finally:
        await fake.stop()


async def test_uploading_in_a_server_channel_takes_attach_files(monkeypatch) -> None:
    """Without Attach Files in a channel, a message or an edit carrying a file is refused
    whole (403, 50013), as on Discord; without a file it goes through, and DMs need none."""
    from fakediscord.models import ATTACH_FILES

    fake = await FakeDiscord().start()
    fake.patch_discord(monkeypatch)
    try:
        guild = fake.add_guild("Uploads")
        channel = fake.add_channel(guild, "games")
        fake.deny_bot(channel, ATTACH_FILES)
        user = fake.add_user("reader")
        bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
        async with running_bot(fake, bot):
            where = bot.get_partial_messageable(channel.id)
            try:
                await where.send(embed=_embed(), file=_file(b"one", "a picture"))
            except discord.Forbidden as exc:
                assert exc.code == 50013
            else:
                raise AssertionError("an upload without Attach Files went through")
            sent = await where.send(content="text only")
            try:
                await where.get_partial_message(sent.id).edit(
                    embed=_embed(), attachments=[_file(b"two", "a picture")])
            except discord.Forbidden as exc:
                assert exc.code == 50013
            else:
                raise AssertionError("an edit adding a file without Attach Files went through")
            assert fake.messages[sent.id].attachments == []
            await where.get_partial_message(sent.id).edit(content="still text")
            dm = await (await bot.fetch_user(user.id)).create_dm()
            await dm.send(file=_file(b"three", "a picture"))
    finally:
        await fake.stop()


# -- the limits, each at the limit (accepted) and one past it (refused) ----------------------
MIB = 1024 * 1024


async def _send(fake: FakeDiscord, path: str, payload: dict | None,
                files: list[tuple[str, str, int]], method: str = "POST") -> tuple[int, dict]:
    """A raw multipart request: `files` are (field, filename, size in bytes)."""
    form = aiohttp.FormData(quote_fields=False)
    if payload is not None:
        form.add_field("payload_json", json.dumps(payload), content_type="application/json")
    for field, name, size in files:
        form.add_field(field, b"\0" * size, filename=name, content_type="image/png")
    async with aiohttp.ClientSession() as session, session.request(
            method, f"{fake.rest_base}{path}", data=form) as resp:
        return resp.status, await resp.json()


def _channel(fake: FakeDiscord) -> str:
    guild = fake.add_guild("Uploads")
    return f"/channels/{fake.add_channel(guild, 'games').id}/messages"


def _pictures(count: int, size: int = 10) -> list[tuple[str, str, int]]:
    return [(f"files[{i}]", f"p{i}.png", size) for i in range(count)]


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    fake = await FakeDiscord().start()
    yield fake
    await fake.stop()


async def test_ten_files_in_a_message_and_not_eleven(fake: FakeDiscord) -> None:
    path = _channel(fake)
    status, _ = await _send(fake, path, {"content": "ten"}, _pictures(10))
    assert status == 200
    status, error = await _send(fake, path, {"content": "eleven"}, _pictures(11))
    assert (status, error["code"]) == (400, 30015), error


async def test_a_file_of_10_mib_and_not_one_byte_more(fake: FakeDiscord) -> None:
    path = _channel(fake)
    status, _ = await _send(fake, path, {"content": "x"}, [("files[0]", "a.png", 10 * MIB)])
    assert status == 200
    status, error = await _send(fake, path, {"content": "x"},
                                [("files[0]", "a.png", 10 * MIB + 1)])
    assert (status, error["code"]) == (413, 40005), error


async def test_a_request_of_25_mib_of_files_and_not_one_byte_more(fake: FakeDiscord) -> None:
    path = _channel(fake)
    files = [("files[0]", "a.png", 10 * MIB), ("files[1]", "b.png", 10 * MIB)]
    status, _ = await _send(fake, path, {"content": "x"}, [*files, ("files[2]", "c.png", 5 * MIB)])
    assert status == 200
    status, error = await _send(fake, path, {"content": "x"},
                                [*files, ("files[2]", "c.png", 5 * MIB + 1)])
    assert (status, error["code"]) == (413, 40005), error


async def test_the_attachments_list_names_the_files_sent(fake: FakeDiscord) -> None:
    path = _channel(fake)
    status, sent = await _send(fake, path, {"attachments": [{"id": 0, "description": "d"}]},
                               [("files[0]", "a.png", 10)])
    assert status == 200, sent
    status, error = await _send(fake, path, {"attachments": [{"id": 1}]},
                                [("files[0]", "a.png", 10)])
    assert status == 400 and error["code"] == 50035
    assert leaf_errors(error["errors"], ("attachments", 0, "id")), error
    status, error = await _send(fake, path, {"content": "x"}, [("file", "a.png", 10)])
    assert status == 400 and leaf_errors(error["errors"], ("file",)), error
    status, error = await _send(fake, path, {"content": "x"},
                                [("files[0]", "a.png", 10), ("files[0]", "b.png", 10)])
    assert status == 400 and error["code"] == 50035, error
    # an edit keeps an attachment the message has by its id; an unknown id is refused
    kept = sent["attachments"][0]["id"]
    edit = f"{path}/{sent['id']}"
    status, edited = await _send(fake, edit, {"attachments": [{"id": kept}, {"id": 0}]},
                                 [("files[0]", "b.png", 10)], method="PATCH")
    assert status == 200 and len(edited["attachments"]) == 2, edited
    status, error = await _send(fake, edit, {"attachments": [{"id": "12345678901234567"}]},
                                [], method="PATCH")
    assert status == 400 and leaf_errors(error["errors"], ("attachments", 0, "id")), error


async def test_an_embed_shows_only_a_picture_attached_to_its_message(fake: FakeDiscord) -> None:
    path = _channel(fake)

    def board(name: str) -> dict:
        return {"embeds": [{"title": "b", "image": {"url": f"attachment://{name}"}}]}

    status, sent = await _send(fake, path, board("a.png"), [("files[0]", "a.png", 10)])
    assert status == 200 and sent["embeds"][0]["image"]["url"].startswith("https://"), sent
    status, error = await _send(fake, path, board("other.png"), [("files[0]", "a.png", 10)])
    assert status == 400 and leaf_errors(error["errors"], ("embeds", 0, "image", "url")), error
    status, error = await _send(fake, path, board("a.txt"), [("files[0]", "a.txt", 10)])
    assert status == 400 and leaf_errors(error["errors"], ("embeds", 0, "image", "url")), error
    # an edit may show a picture the message keeps
    status, edited = await _send(fake, f"{path}/{sent['id']}", board("a.png"), [],
                                 method="PATCH")
    assert status == 200, edited


async def test_embeds_in_a_server_channel_take_embed_links(monkeypatch) -> None:
    """Without Embed Links a bot's embeds are dropped without an error when the message
    has content (its edits too), and an embed-only message is refused (403, 50013), as on
    Discord (discord/discord-api-docs#2601); DMs need no permission."""
    from fakediscord.models import EMBED_LINKS

    fake = await FakeDiscord().start()
    fake.patch_discord(monkeypatch)
    try:
        guild = fake.add_guild("Embeds")
        channel = fake.add_channel(guild, "games")
        fake.deny_bot(channel, EMBED_LINKS)
        user = fake.add_user("reader")
        bot = commands.Bot(command_prefix="!", intents=discord.Intents.none())
        async with running_bot(fake, bot):
            where = bot.get_partial_messageable(channel.id)
            sent = await where.send(content="the ping line", embed=discord.Embed(title="board"))
            assert fake.messages[sent.id].embeds == [] and sent.embeds == []
            try:
                await where.send(embed=discord.Embed(title="board"))
            except discord.Forbidden as exc:
                assert exc.code == 50013
            else:
                raise AssertionError("an embed-only message without Embed Links went through")
            await where.get_partial_message(sent.id).edit(content="edited", embed=discord.Embed(title="board"))
            assert fake.messages[sent.id].embeds == []
            fake.allow_bot(channel, EMBED_LINKS)
            await where.get_partial_message(sent.id).edit(embed=discord.Embed(title="board"))
            assert fake.messages[sent.id].embeds
            dm = await (await bot.fetch_user(user.id)).create_dm()
            fake.deny_bot(channel, EMBED_LINKS)
            assert (await dm.send(embed=discord.Embed(title="board"))).embeds
    finally:
        await fake.stop()
