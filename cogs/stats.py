"""`/leaderboard` and `/stats`: per-server, per-game results of finished games."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.ui.replies import reply, reply_error
from engines import ENGINES

GAME_CHOICES = [app_commands.Choice(name=engine.title, value=name)
                for name, engine in sorted(ENGINES.items(), key=lambda kv: kv[1].title)]
MEDALS = ["🥇", "🥈", "🥉"]


def _points(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


class StatsCog(commands.Cog):
    def __init__(self, bot) -> None:
        self.bot = bot

    @app_commands.command(name="leaderboard", description="The best players of a game on "
                          "this server.")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        engine = ENGINES.get(game)
        if engine is None:
            await reply_error(interaction, "I don't know that game.")
            return
        rows = await self.bot.storage.leaderboard(interaction.guild_id, game, limit=10)
        if not rows:
            text = (f"No finished {engine.title} games on this server yet. Start one with "
                    f"`/{self.bot.tables.uis[game].command} new`!" if game in self.bot.tables.uis
                    else f"No finished {engine.title} games on this server yet.")
        else:
            text = "\n".join(
                f"{MEDALS[i] if i < 3 else f'`{i + 1}.`'} **{row.name}** — {row.wins} "
                f"win{'s' if row.wins != 1 else ''} in {row.played} "
                f"({row.win_rate:.0%}), {_points(row.points)} points"
                for i, row in enumerate(rows))
        embed = discord.Embed(title=f"🏆 {engine.title} leaderboard", description=text,
                              colour=0xF1C40F)
        await reply(interaction, embed=embed, ephemeral=False)

    @app_commands.command(name="stats", description="Someone's record on this server.")
    @app_commands.describe(user="Whose stats (default: yours)")
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction,
                    user: discord.User | None = None) -> None:
        who = user or interaction.user
        rows = await self.bot.storage.player_stats(interaction.guild_id, who.id)
        name = getattr(who, "display_name", who.name)
        embed = discord.Embed(title=f"📊 {name}", colour=0x3498DB)
        if not rows:
            embed.description = "No finished games on this server yet."
        for row in rows:
            title = ENGINES[row.game].title if row.game in ENGINES else row.game
            embed.add_field(name=title, value=(f"{row.played} played · {row.wins} won "
                                               f"({row.win_rate:.0%}) · {_points(row.points)} "
                                               "points"), inline=False)
        await reply(interaction, embed=embed, ephemeral=True)


async def setup(bot) -> None:
    await bot.add_cog(StatsCog(bot))
