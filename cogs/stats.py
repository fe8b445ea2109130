"""`/leaderboard` and `/stats`: per-server, per-game results of finished games and the
players' skill ratings (bot.ratings)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.ratings import MODEL, Z, ordinal, place_text, rating_text, trend_text
from bot.ui.names import safe_name
from bot.ui.replies import reply, reply_error
from bot.ui.text import plural
from engines import ENGINES

GAME_CHOICES = [app_commands.Choice(name=engine.title, value=name)
                for name, engine in sorted(ENGINES.items(), key=lambda kv: kv[1].title)]
MEDALS = ["🥇", "🥈", "🥉"]


def _points(value: float) -> str:
    return str(int(value)).replace("-", "−") if float(value).is_integer() else \
        f"{value:.1f}".replace("-", "−")


def plural_points(value: float) -> str:
    return f"{_points(value)} point{'' if abs(value) == 1 else 's'}"


def _rank(index: int, wins: int) -> str:
    """A medal for the top three, but only for someone who has won."""
    return MEDALS[index] if index < 3 and wins > 0 else f"`{index + 1}.`"


RECENT_GAMES = 5  # games /stats shows the form and trend of


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
        server = await self.bot.tables.server_settings(interaction.guild_id)
        least = server.leaderboard_min_games
        storage = self.bot.storage
        if server.ratings:
            rows = await storage.rated_leaderboard(interaction.guild_id, game, limit=10,
                                                   min_games=least,
                                                   default=(MODEL.mu, MODEL.sigma), z=Z)
        else:
            rows = await storage.leaderboard(interaction.guild_id, game, limit=10,
                                             min_games=least)
        if not rows:
            start = (f" Start one with `/{self.bot.tables.uis[game].command} new`!"
                     if game in self.bot.tables.uis else "")
            text = (f"Nobody on this server has finished the {plural(least, 'game')} of "
                    f"{engine.title} it takes to be listed yet.{start}")
        else:
            text = "\n".join(
                f"{_rank(i, row.wins)} **{safe_name(row.name)}** — "
                + (f"**{rating_text(row.mu, row.sigma)}** · " if server.ratings else "")
                + f"{plural(row.wins, 'win')} in {plural(row.played, 'game')} "
                f"({row.win_rate:.0%}), {plural_points(row.points)}"
                for i, row in enumerate(rows))
        embed = discord.Embed(title=f"🏆 {engine.title} leaderboard", description=text,
                              colour=0xF1C40F)
        if server.ratings:
            footer = (f"Ranked by rating: skill minus three times its uncertainty, so it "
                      f"grows with games played; everyone starts at 0 · at least "
                      f"{plural(least, 'game')}")
            levels = await storage.ai_ratings(interaction.guild_id, game)
            if levels:
                footer += " · AI here: " + ", ".join(
                    f"{level} {rating_text(mu, sigma)}" for level, mu, sigma, _ in levels)
            embed.set_footer(text=footer)
        # One public leaderboard per channel per cooldown: asked again meanwhile (by anyone),
        # it is shown to the asker alone rather than flooding the channel with copies.
        cooldowns, channel = self.bot.cooldowns, interaction.channel_id or 0
        public = cooldowns.left(channel, "leaderboard") <= 0
        if public:
            cooldowns.used(channel, "leaderboard")
        else:
            embed.description = (embed.description or "") + (
                "\n\n*Only you see this copy: this channel got the leaderboard a moment ago.*")
        await reply(interaction, embed=embed, ephemeral=not public)

    @app_commands.command(name="stats", description="Someone's record on this server.")
    @app_commands.describe(user="Whose stats (default: yours)")
    @app_commands.guild_only()
    async def stats(self, interaction: discord.Interaction,
                    user: discord.User | None = None) -> None:
        who = user or interaction.user
        storage = self.bot.storage
        rows = await storage.player_stats(interaction.guild_id, who.id)
        server = await self.bot.tables.server_settings(interaction.guild_id)
        name = safe_name(getattr(who, "display_name", None) or who.name)
        embed = discord.Embed(title=f"📊 {name}", colour=0x3498DB)
        if not rows:
            embed.description = "No finished games on this server yet."
        for row in rows[:25]:
            title = ENGINES[row.game].title if row.game in ENGINES else row.game
            value = (f"{row.played} played · {row.wins} won ({row.win_rate:.0%}) · "
                     f"{plural_points(row.points)}")
            if server.ratings:
                value = f"Rating **{rating_text(row.mu, row.sigma)}** · {value}"
                recent = await storage.recent_ratings(interaction.guild_id, row.game, who.id,
                                                      limit=RECENT_GAMES)
                if recent:
                    delta = ordinal(*recent[0]["after"]) - ordinal(*recent[-1]["before"])
                    places = " · ".join("🏆" if r["won"] else place_text(r["placement"])
                                        for r in reversed(recent))
                    value += (f"\nLast {plural(len(recent), 'game')}: {places} (newest "
                              f"last) · rating {trend_text(delta)}")
            embed.add_field(name=title, value=value, inline=False)
        if server.ratings and rows:
            embed.set_footer(text="Rating: skill minus three times its uncertainty (starts "
                             "at 0, grows with games played) · /leaderboard ranks by it")
        await reply(interaction, embed=embed, ephemeral=True)


async def setup(bot) -> None:
    await bot.add_cog(StatsCog(bot))
