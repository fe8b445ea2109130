"""Answering interactions safely, whether or not they were already answered or deferred."""

from __future__ import annotations

import logging

import discord

log = logging.getLogger("cardtable.ui")

# What a person sees when a command or a click hits a bug of ours (logged, not shown).
SOMETHING_WENT_WRONG = "Something went wrong on my side; nothing was changed. Please try again."


async def reply(interaction: discord.Interaction, content: str | None = None, *,
                ephemeral: bool = True, embed: discord.Embed | None = None,
                embeds: list[discord.Embed] | None = None,
                view: discord.ui.View | None = None) -> None:
    """Send a reply, as the response if still possible, else as a followup."""
    kwargs: dict = {"ephemeral": ephemeral}
    if content is not None:
        kwargs["content"] = content
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
    except discord.HTTPException:
        log.warning("could not answer interaction %s", interaction.id, exc_info=True)


async def reply_error(interaction: discord.Interaction, text: str) -> None:
    """A friendly ephemeral error; never raises."""
    await reply(interaction, f"⚠️ {text}", ephemeral=True)
