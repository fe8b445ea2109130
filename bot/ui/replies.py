"""Answering interactions safely, whether or not they were already answered or deferred."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.late_interactions import expired, is_expiry, note_expired
from bot.ui.text import CONTENT_LIMIT, clip

log = logging.getLogger("cardtable.ui")

# What a person sees when a command or a click hits a bug of ours (logged, not shown).
SOMETHING_WENT_WRONG = "Something went wrong on my side; nothing was changed. Please try again."


class Refusal(app_commands.CheckFailure):
    """A command check that refuses the person, saying why in words meant for them.

    Raised from a check (never answered there): the tree's error handler sends the one
    answer. A check that answered itself and returned False made discord.py raise a
    CheckFailure too, and the error handler answered a second time."""


async def reply(interaction: discord.Interaction, content: str | None = None, *,
                ephemeral: bool = True, embed: discord.Embed | None = None,
                embeds: list[discord.Embed] | None = None,
                view: discord.ui.View | None = None, file: discord.File | None = None,
                files: list[discord.File] | None = None) -> None:
    """Send a reply, as the response if still possible, else as a followup. Not to an
    interaction Discord already refused as expired (it would refuse this too)."""
    if expired(interaction):
        return
    kwargs: dict = {"ephemeral": ephemeral}
    if file is not None:
        kwargs["file"] = file
    if files:
        kwargs["files"] = files
    if content is not None:
        kwargs["content"] = clip(content, CONTENT_LIMIT)  # never past Discord's 2000
    if embed is not None:
        kwargs["embed"] = embed
    if embeds:
        kwargs["embeds"] = embeds
    if view is not None:
        kwargs["view"] = view
    try:
        if interaction.response.is_done():
            await interaction.followup.send(**kwargs)
        else:
            await interaction.response.send_message(**kwargs)
    except discord.HTTPException as exc:
        if is_expiry(exc):
            note_expired(interaction)
        else:
            log.warning("could not answer interaction %s", interaction.id, exc_info=True)


# Seconds a click's work before its answer (a move's save: the disk's fsync) may take before
# the click is acknowledged first: Discord drops an interaction not answered within 3 s of
# its creation, and the gateway's delivery and a busy loop take part of those.
ACK_AFTER = 1.0


async def acknowledge(interaction: discord.Interaction, *, edit: bool) -> None:
    """Answer now, the content to follow: a click whose answer edits its message is deferred
    as an update (nothing changes yet), anything else as an ephemeral "thinking…". Never
    raises: a defer that failed leaves the response open for the real answer."""
    if interaction.response.is_done():
        return
    try:
        if edit:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
    except discord.HTTPException as exc:
        if is_expiry(exc):
            note_expired(interaction)
        else:
            log.warning("could not acknowledge interaction %s", interaction.id, exc_info=True)


async def edit_answer(interaction: discord.Interaction, **fields) -> None:
    """Edit the message the interaction came from: as its response, or, once it was
    acknowledged (`acknowledge`), through its token."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**fields)
    else:
        await interaction.response.edit_message(**fields)


def already_answered(interaction: discord.Interaction) -> bool:
    """Whether the interaction already has its answer (a message, an edit or a form).

    A deferred interaction has not: its followup is the answer."""
    kind = interaction.response.type
    return kind is not None and kind not in (
        discord.InteractionResponseType.deferred_channel_message,
        discord.InteractionResponseType.deferred_message_update)


async def reply_error(interaction: discord.Interaction, text: str) -> None:
    """A friendly ephemeral error; never raises. One answer per interaction: an error after
    the interaction was answered (e.g. a failure after a move was confirmed) is logged, not
    sent as a second message that would contradict the first. The log names the
    interaction and the kind of answer withheld, never its text: that text was meant for
    one person and may name their cards, role or secret rule."""
    if already_answered(interaction):
        log.warning("not answering interaction %s (%s) twice: an error message was withheld",
                    interaction.id, getattr(interaction.type, "name", interaction.type))
        return
    await reply(interaction, f"⚠️ {text}", ephemeral=True)
