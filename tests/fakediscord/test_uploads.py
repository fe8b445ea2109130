"""Uploads as Discord documents them ("Uploading Files", "Edit Message"): a file's
description from the `attachments` list, `attachment://name` in an embed resolved to the
attachment, and an edit whose `attachments` list names the new file replacing the old."""

from __future__ import annotations

import io

import discord
from discord.ext import commands

from fakediscord import FakeDiscord, running_bot


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
