"""`/pictures`: a member's own choice of pictures in what only they see (DMs, My hand).

The channel's board is one message for everyone, so it follows the server's `/config server
pictures` setting. A member who turns pictures on where the server has them off also gets the
board as a picture in their **My hand** answer; one who turns them off gets text in their DMs
and My hand (the channel's board keeps its picture: Discord's own setting for showing
images is the way to hide it). Text is always complete, so turning pictures off loses
nothing.
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
            "\nThis covers your DMs and **My hand** (which also brings the board as a "
            "picture where the server's boards are text). The board in the channel is the "
            "same message for everyone and follows the server's `/config server pictures`. "
            "Every picture also comes as complete text.")
        await reply(interaction, text, ephemeral=True)


async def setup(bot) -> None:
    await bot.add_cog(PictureSettingsCog(bot))
