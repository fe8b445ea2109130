"""`/history` and `/replay`: a server's finished games, and stepping through one of them
(the screens and their buttons are in bot.ui.replays)."""

from __future__ import annotations

import time

import discord
from discord import app_commands
from discord.ext import commands

from bot.tables.service import TableError
from bot.ui.names import clean_name
from bot.ui.notes import NOTE_NUMBER, explained, is_note, refuse_notes
from bot.ui.text import OPTION_LIMIT, plain
from cogs.stats import GAME_CHOICES
from engines import ENGINES

NO_REPLAYS = ("There's no finished game here you can replay yet: once one ends, `/replay` "
              "lists it.")
# (0 typed by hand too: `game:` starts at 0 only for the note)
NOTE_PICKED = ("Game 0 is only a note, no game: pick a game from the suggestions, or type its "
               "number (`/history` lists them).")


class HistoryCog(commands.Cog):
    def __init__(self, bot) -> None:
        self.bot = bot

    @app_commands.command(name="history", description="This server's finished games, newest "
                          "first, with their results.")
    @app_commands.describe(game="Only this game", player="Only the games this member played")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def history(self, interaction: discord.Interaction, game: str | None = None,
                      player: discord.User | None = None) -> None:
        await self.bot.replays.history(interaction, game=game,
                                       user_id=player.id if player else None, page=0,
                                       edit=False)

    @app_commands.command(name="replay", description="Step through a finished game as the "
                          "channel saw it (players: also their own view).")
    @app_commands.describe(game="The game's number (suggestions list recent ones; /history "
                           "has them all)")
    @app_commands.guild_only()
    async def replay(self, interaction: discord.Interaction,
                     game: app_commands.Range[int, NOTE_NUMBER, 2**53 - 1]) -> None:
        if is_note(game):  # the note of an empty list of suggestions, picked anyway
            await self._visible(interaction)
            refuse_notes(game, then=NOTE_PICKED)
        await self.bot.replays.open(interaction, game)

    async def _visible(self, interaction: discord.Interaction) -> list[dict]:
        """The recent games with a replay that this member may see, or why there is none."""
        matches = await self.bot.storage.history_matches(interaction.guild_id, limit=50,
                                                         replayable=True)
        visible = [m for m in matches if self.bot.replays.may_see(interaction, m)]
        if not visible:
            raise TableError(NO_REPLAYS)
        return visible

    @replay.autocomplete("game")
    @explained(NOTE_NUMBER)
    async def _recent(self, interaction: discord.Interaction, current: str
                      ) -> list[app_commands.Choice[int]]:
        """Recent games with a replay that this member may see, filtered by the number
        typed so far (none: a note says why, bot.ui.notes)."""
        typed = "".join(c for c in current if c.isdigit())
        choices = []
        for match in await self._visible(interaction):
            if typed and typed not in str(match["id"]):
                continue
            engine = ENGINES.get(match["game"])
            names = ", ".join(clean_name(p.get("name")) for p in match["players"])
            when = time.strftime("%d %b %H:%M UTC", time.gmtime(match["finished_at"]))
            label = f"#{match['id']} {engine.title if engine else match['game']} — {when} — {names}"
            choices.append(app_commands.Choice(name=plain(label, OPTION_LIMIT),
                                               value=match["id"]))
            if len(choices) == 25:
                break
        return choices


async def setup(bot) -> None:
    await bot.add_cog(HistoryCog(bot))
