"""`/pictures`: a member's own choice of pictures in what only they see (DMs, My hand).

Boards follow the server's `/config server pictures` setting (one message for everyone).
Text is always complete, so turning pictures off loses nothing.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.ui.replies import reply

CHOICES = {"on": True, "off": False, "server": None}


class PictureSettingsCog(commands.Cog):
    def __init__(self, bot) -> None:
        self.bot = bot

    @app_commands.command(name="pictures", description="Cards as pictures in your DMs and "
                          "My hand: on, off, or as the server sets it.")
    @app_commands.describe(mode="on, off, or server (follow this server's setting)")
    @app_commands.choices(mode=[app_commands.Choice(name=k, value=k) for k in CHOICES])
    async def pictures(self, interaction: discord.Interaction,
                       mode: app_commands.Choice[str] | None = None) -> None:
        prefs = self.bot.tables.publisher.pictures
        if mode is not None:
            await prefs.set_user(interaction.user.id, CHOICES[mode.value])
        choice = await prefs.user_choice(interaction.user.id)
        if choice is None and interaction.guild_id is None:  # a DM: no server to name
            now = ("You follow each server's setting: pictures are on or off as the server "
                   "of your game sets them.")
        elif choice is None:
            server = await prefs.server(interaction.guild_id)
            now = (f"You follow the server: pictures are **{'on' if server else 'off'}** "
                   "here.")
        else:
            now = f"Pictures are **{'on' if choice else 'off'}** for you, on every server."
        text = ("✅ Saved. " if mode is not None else "") + now + (
            "\nThis covers your DMs and **My hand**; boards follow the server's "
            "`/config server pictures`. Every picture also comes as complete text.")
        await reply(interaction, text, ephemeral=True)


async def setup(bot) -> None:
    await bot.add_cog(PictureSettingsCog(bot))
