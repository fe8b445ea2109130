"""`/help`: what the bot does and how to play, shown only to the asker."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.ui.replies import reply


class HelpCog(commands.Cog):
    def __init__(self, bot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="How to play: the games and the commands.")
    async def help(self, interaction: discord.Interaction) -> None:
        await reply(interaction, embed=self.embed(in_server=interaction.guild_id is not None),
                    ephemeral=True)

    def embed(self, *, in_server: bool) -> discord.Embed:
        """The help, worded for where it is asked: a server's channel, or a DM (where games,
        scores and settings cannot be used, only read about)."""
        where = ("I run hidden-information card games in this server's channels." if in_server
                 else "I run hidden-information card games in Discord servers: the games, "
                 "scores and settings live in a server's channels, and here in DMs you can "
                 "read the rules (`/<game> rules`) and set `/notify` and `/pictures`.")
        embed = discord.Embed(
            title="🎴 Card table — help",
            description=(
                f"{where} Your cards, roles and secret rules reach only you: by DM, and always "
                "through the **My hand** button (only you see its answer).\n\n**Start a "
                "game:** `/<game> new` " + ("" if in_server else "in a server channel ") +
                "opens a lobby — players press **Join**, the host can **Add AI** seats, then "
                "**Start**; the game then gets its own thread of the channel (unless the "
                "server keeps games in the channel) and its result comes back to the channel. "
                "On the board, **Take my turn** opens your move panel; every move also has a "
                "slash command."),
            colour=0x5865F2)
        for ui in sorted(self.bot.tables.uis.values(), key=lambda u: u.engine.title):
            engine = ui.engine
            embed.add_field(
                name=f"{ui.emoji} {engine.title} ({engine.min_players}–{engine.max_players} "
                     "players)",
                value=f"{ui.blurb}\n`/{ui.command} new` · `/{ui.command} rules` · "
                      f"`/{ui.command} hand`",
                inline=False)
        embed.add_field(
            name="Every game" + ("" if in_server else " (where the game is)"),
            value=("`/<game> turn` your move panel · `/<game> move` any legal move by name · "
                   "`/<game> board` repost the board · `/<game> leave` leave (an AI takes your "
                   "seat) · `/<game> cancel` (host or moderator) · `/notify` how your turn "
                   "pings you"),
            inline=False)
        here = "here" if in_server else "on a server"
        embed.add_field(
            name="Scores and settings" + ("" if in_server else " (in a server)"),
            value=(f"`/leaderboard game:` best players {here}, by rating · `/stats [user]` "
                   "someone's rating and record · `/history [game] [player]` finished games · "
                   "`/replay game:` step through one, or export it · "
                   "`/config show` game defaults · `/config set|reset` change them (Manage "
                   "Server) · `/config server` server-wide settings (lobbies, threads, "
                   "pictures, ratings) · `/pictures` cards as pictures for you, or text only"),
            inline=False)
        return embed


async def setup(bot) -> None:
    await bot.add_cog(HelpCog(bot))
