"""Suspense in Discord: rendering and the `/suspense` commands (play, pass, fold)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.game_cog import GameCog
from bot.game_ui import GameUI
from bot.ui.notes import explained
from bot.ui.text import clip, plural
from engines import ENGINES
from engines.suspense.rules import Fold, Pass, Play, condition_text

from . import pictures

ENGINE = ENGINES["suspense"]


def _cards(labels: list[str]) -> str:
    return " ".join(f"`{label}`" for label in labels) or "—"


class SuspenseUI(GameUI):
    engine = ENGINE
    pictures = pictures
    command = "suspense"
    emoji = "🎭"
    colour = 0x9B59B6
    blurb = ("2–3 players bluff and deduce which of 13 cards is the secret one: its victory "
             "condition decides who scores.")

    def render_board(self, view: dict[str, Any], names: list[str]) -> list[discord.Embed]:
        lines = [f"**Match {view['match']}** · dealer **{names[view['dealer']]}** · face-up "
                 f"total **{view['total']}** / {view['threshold']} · first to "
                 f"{plural(view['points_target'], 'point')} wins"]
        for player in view["players"]:  # one line each: a phone shows ~20 lines at once
            seat = player["seat"]
            status = []
            if seat == view["turn"]:
                status.append("▶️ to play")
            if player["folded"]:
                status.append("folded")
            elif player["passed"]:
                status.append("passed")
            face_up = " ".join(f"`{c}`" for c in player["in_play"]) or "none"
            lines.append(f"**{names[seat]}** — {plural(player['score'], 'pt')}"
                         + (f" ({', '.join(status)})" if status else "")
                         + f" · {plural(player['hand_size'], 'card')} in hand · face up: "
                         f"{face_up}")
        embeds = [discord.Embed(colour=self.colour, description=clip("\n".join(lines), 4096))]
        last = view.get("last_match")
        if last:
            embeds.append(discord.Embed(title=f"Match {last['match']} result",
                                        description=clip(self._recap_text(last, names), 4096),
                                        colour=0x7F8C8D))
        return embeds

    @staticmethod
    def _recap_text(last: dict[str, Any], names: list[str]) -> str:
        """The secret card, who met it with the card(s) that decided it, and the points.
        RULINGS (match-end reveal, amended): never whole hands, so a folded hand cannot be
        rebuilt from what is shown."""
        deciding = last.get("deciding") or [None] * len(last["points"])
        met = ", ".join(
            f"**{names[s]}**" + (f" ({_cards(deciding[s])})" if deciding[s] else "")
            for s in last["met"]) or "nobody"
        gains = ", ".join(f"{names[s]} +{p}" for s, p in enumerate(last["points"]))
        return (f"Secret card `{last['secret']}`: *{last['condition']}*\n"
                f"Met by: {met} · {gains}")

    def render_private(self, view: dict[str, Any], names: list[str], seat: int, *,
                       with_table: bool = True) -> discord.Embed:
        you = view["you"]
        embed = discord.Embed(title="🎭 Your Suspense hand", colour=self.colour)
        embed.description = "\n".join(f"`{c}` {condition_text(c)}" for c in you["hand"]) or \
            "Your hand is empty."
        if you.get("secret"):
            embed.add_field(name="🤫 Secret card (you are the dealer)",
                            value=f"`{you['secret']}` {condition_text(you['secret'])}",
                            inline=False)
        me = view["players"][seat]
        if with_table and view["turn"] == seat and not me["in_play"] and not view["over"]:
            embed.add_field(name="Your first turn", value="You must play a card this turn.",
                            inline=False)
        return embed


class SuspenseCog(GameCog, group_name="suspense", group_description="Play Suspense."):
    ui = SuspenseUI()

    @staticmethod
    def _is_play(action: Any) -> bool:
        return isinstance(action, Play)

    NO_CARD = ("You have no card left to play: pass (`/suspense pass`) or fold "
               "(`/suspense fold`).")

    @app_commands.command(name="play", description="Play a card face up.")
    @app_commands.describe(card="The card to play (suggestions show your hand).")
    async def play(self, interaction: discord.Interaction, card: str) -> None:
        table, action = self.choose_action(interaction, card, self._is_play, why_not=self.NO_CARD)
        await self.perform(interaction, table, action)

    @play.autocomplete("card")
    @explained()
    async def _play_autocomplete(self, interaction: discord.Interaction, current: str):
        return await self.autocomplete_actions(
            interaction, current, self._is_play,
            label=lambda table, a: f"{a.card} — {condition_text(a.card)}", why_not=self.NO_CARD)

    # Pass and fold are refused only on a player's first turn of a match (a play is due);
    # the generic refusal sent them to "the suggestions" of a command that has none.
    MUST_PLAY = ("Your first turn of a match must be a play: choose a card with "
                 "`/suspense play` or **Take my turn** on the board.")

    @app_commands.command(name="pass", description="Skip this turn (you stay in the match).")
    async def pass_(self, interaction: discord.Interaction) -> None:
        table, _seat, [action] = self.moves_of(interaction, Pass, self.MUST_PLAY)
        await self.perform(interaction, table, action)

    @app_commands.command(name="fold", description="Fold for the rest of this match.")
    async def fold(self, interaction: discord.Interaction) -> None:
        table, _seat, [action] = self.moves_of(interaction, Fold, self.MUST_PLAY)
        await self.perform(interaction, table, action)


async def setup(bot) -> None:
    await bot.add_cog(SuspenseCog(bot))
