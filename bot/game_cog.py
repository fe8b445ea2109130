"""The base cog of every game: `/<game> new|hand|rules|move|board|cancel` and shared helpers.

A game's cog subclasses `GameCog` with `group_name=...`, sets `ui`, and adds its own action
subcommands, which turn typed input into engine actions through `choose_action` /
`autocomplete_actions` and act through `perform`. Everything else is inherited.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.delivery import AGAIN
from bot.game_ui import GameUI
from bot.tables.live import LiveTable
from bot.tables.service import TableError
from bot.tables.settings import parse_option_text
from bot.ui.components import RoutedView, RulesButton
from bot.ui.handlers import display_name, is_moderator, missing_channel_permissions
from bot.ui.names import echo
from bot.ui.notes import MAX_CHOICES, explained, refuse_notes
from bot.ui.replies import reply
from bot.ui.text import DESCRIPTION_LIMIT, OPTION_LIMIT, clip, plain, shown

Why = Callable[[LiveTable, int, list[Any]], str]  # why no move fits: (table, seat, legal)
# An autocomplete value: `{version}.{index}`, ASCII digits of a sane length (typed text such
# as "².0" or a 5000-digit number is not one, and int() would refuse it).
_CHOICE_VALUE = re.compile(r"\s*([0-9]{1,12})\.([0-9]{1,6})\s*", re.ASCII)


def choice_value(text: str) -> tuple[int, int] | None:
    """(version, index) if `text` is an autocomplete value, else None."""
    match = _CHOICE_VALUE.fullmatch(str(text))
    return (int(match[1]), int(match[2])) if match else None


def fresh_choice(table: LiveTable, version: int) -> bool:
    """Whether an autocomplete value (`version.index`) was offered for the table as it is.
    One from an earlier version is refused: the game moved on since it was offered. One
    from a later version was never offered (a crafted value): False, and it is then read
    as typed text, which it matches nothing of ("out of date" would be untrue)."""
    if version < table.version:
        raise TableError("That choice is out of date (the game moved on). Please pick again "
                         "from the suggestions.")
    return version == table.version


class GameCog(commands.GroupCog):
    ui: ClassVar[GameUI]

    def __init__(self, bot) -> None:
        self.bot = bot
        bot.tables.register_ui(self.ui)

    # ------------------------------------------------------------------ helpers for subclasses
    def table_here(self, interaction: discord.Interaction, *, playing: bool = True,
                   paused_ok: bool = False) -> LiveTable:
        if interaction.guild_id is None:  # a DM: no table lives here, and any could be meant
            command = interaction.command
            name = command.qualified_name if command is not None else self.ui.command
            raise TableError(f"`/{name}` works where your {self.ui.engine.title} game is (its "
                             "channel or thread), not in DMs: use it there, or the buttons on "
                             "the game's board.")
        table = self.bot.tables.in_channel(interaction.channel_id)
        if table is None or table.engine.name != self.ui.engine.name:
            threaded = self._in_a_thread_here(interaction, paused=paused_ok and table is None)
            if threaded is not None:
                return threaded
            elsewhere = self._my_table_elsewhere(interaction)
            if elsewhere is not None:
                raise TableError(f"Your {self.ui.engine.title} game is in "
                                 f"<#{elsewhere.row.channel_id}>: use `/{self.ui.command}` "
                                 "there, or the buttons on its board.")
            raise TableError(f"There's no {self.ui.engine.title} table in this channel. Start "
                             f"one with `/{self.ui.command} new`.")
        if playing and not table.playing:
            raise TableError("The game hasn't started yet — the host presses **Start** in the "
                             "lobby.")
        return table

    def _in_a_thread_here(self, interaction: discord.Interaction, *, paused: bool
                          ) -> LiveTable | None:
        """A game of this channel played in its own thread (bot.threads): the command
        belongs there, so the answer points to it. `paused`: a table paused because its
        thread is gone is returned instead (`/board` and `/cancel` carry it on or end it
        from the lobby's channel)."""
        here = [t for t in self.bot.tables.in_thread_of(interaction.channel_id or 0)
                if t.engine.name == self.ui.engine.name]
        if not here:
            return None
        mine = next((t for t in here if t.seat_of(interaction.user.id) is not None), here[0])
        if paused and mine.paused:
            return mine
        name = interaction.command.qualified_name if interaction.command else self.ui.command
        raise TableError(f"This channel's {self.ui.engine.title} game is played in its thread "
                         f"<#{mine.row.channel_id}>: use `/{name}` there.")

    def _my_table_elsewhere(self, interaction: discord.Interaction) -> LiveTable | None:
        """A table of this game on this server where the member sits (the newest), for a
        command typed in the wrong channel: "start one with /… new" would send them to
        open a second game instead of to the one they are playing."""
        found = [t for t in self.bot.tables.live.values()
                 if t.row.guild_id == interaction.guild_id
                 and t.engine.name == self.ui.engine.name
                 and t.seat_of(interaction.user.id) is not None]
        return max(found, key=lambda t: t.id, default=None)

    def my_seat(self, table: LiveTable, interaction: discord.Interaction) -> int:
        return self.bot.tables.seat_for(table, interaction.user.id)

    def legal_for(self, interaction: discord.Interaction) -> tuple[LiveTable, int, list[Any]]:
        table = self.table_here(interaction)
        seat = self.my_seat(table, interaction)
        return table, seat, list(table.engine.legal_actions(table.state, seat))

    @staticmethod
    def not_your_turn(table: LiveTable) -> str:
        waiting = ", ".join(table.names[s] for s in sorted(table.engine.waiting_for(table.state)))
        return f"It's not your turn — waiting for {waiting or 'nobody'}."

    def legal_where(self, interaction: discord.Interaction, keep: Callable[[Any], bool],
                    why_not: str | Why | None = None, *, turn_first: bool = True
                    ) -> tuple[LiveTable, int, list[Any]]:
        """All of the player's legal moves (a suggestion's value indexes them), once at least
        one passes `keep`; else the friendly refusal saying why: "It's not your turn" when
        they have no move at all (unless `turn_first` is off: `why_not` says it in the
        game's words), else `why_not` (given the table, the seat and the legal moves). The
        one check a command and its suggestions share, so both say the same."""
        table, seat, legal = self.legal_for(interaction)
        if any(keep(a) for a in legal):
            return table, seat, legal
        if not legal and (turn_first or why_not is None):
            raise TableError(self.not_your_turn(table))
        if why_not is None:
            raise TableError("That move isn't possible right now.")
        raise TableError(why_not(table, seat, legal) if callable(why_not) else why_not)

    def moves_of(self, interaction: discord.Interaction, kind: type | tuple[type, ...],
                 why_not: str | Why) -> tuple[LiveTable, int, list[Any]]:
        """The player's legal moves of one kind, or a friendly refusal saying why there are
        none (`legal_where`)."""
        table, seat, legal = self.legal_where(interaction, lambda a: isinstance(a, kind),
                                              why_not)
        return table, seat, [a for a in legal if isinstance(a, kind)]

    def label(self, table: LiveTable, action: Any) -> str:
        """A move as suggestions list it and typed text is matched against (plain names:
        choices show no markdown)."""
        return shown(table.engine.describe(table.state, action), table.plain_names,
                     markdown=False)

    async def autocomplete_actions(self, interaction: discord.Interaction, current: str,
                                   keep: Callable[[Any], bool] = lambda a: True,
                                   label: Callable[[LiveTable, Any], str] | None = None,
                                   normal: Callable[[str], str] = str.lower,
                                   why_not: str | Why | None = None, *, turn_first: bool = True,
                                   fits: Callable[[str], bool] | None = None,
                                   ) -> list[app_commands.Choice[str]]:
        """Legal actions as choices; the value is `version.index` so it can't go stale.
        Every typed word must appear in a choice's label, both compared through `normal`
        (lower case; a game may also read "7s" as "7♠"), unless `fits` says which labels
        fit what was typed. With no move to offer it raises the refusal the command gives
        (`legal_where`): `explained` offers it as a note."""
        table, _seat, legal = self.legal_where(interaction, keep, why_not,
                                               turn_first=turn_first)
        label = label or self.label
        words = normal(current).split()
        fits = fits or (lambda text: all(word in normal(text) for word in words))
        choices = []
        for index, action in enumerate(legal):
            if not keep(action):
                continue
            text = label(table, action)
            if not fits(text):
                continue
            choices.append(app_commands.Choice(name=plain(text, OPTION_LIMIT),
                                               value=f"{table.version}.{index}"))
            if len(choices) == MAX_CHOICES:
                break
        return choices

    def choose_action(self, interaction: discord.Interaction, value: str,
                      keep: Callable[[Any], bool] = lambda a: True,
                      label: Callable[[LiveTable, Any], str] | None = None,
                      why_not: str | Why | None = None, *, turn_first: bool = True,
                      ) -> tuple[LiveTable, Any]:
        """Map an autocomplete value (or typed text) to one legal action, or explain why not
        (first as its suggestions did: `legal_where`)."""
        table, _seat, legal = self.legal_where(interaction, keep, why_not,
                                               turn_first=turn_first)
        refuse_notes(value)
        picked = choice_value(value)
        if picked is not None:
            version, index = picked
            if fresh_choice(table, version) and index < len(legal) and keep(legal[index]):
                return table, legal[index]
        label = label or self.label
        wanted = value.strip().lower()
        matches = [a for a in legal if keep(a) and label(table, a).lower() == wanted]
        if not matches:
            matches = [a for a in legal if keep(a) and wanted and wanted in label(table, a).lower()]
        if len(matches) == 1:
            return table, matches[0]
        if not matches:
            raise TableError(f"{echo(value)} isn't a legal move right now. Pick one of the "
                             "suggestions, or use **Take my turn** on the board.")
        raise TableError(f"{echo(value)} matches several moves; please pick one of the suggestions.")

    async def perform(self, interaction: discord.Interaction, table: LiveTable, action: Any
                      ) -> None:
        await self.bot.table_ui.perform(interaction, table, action)

    # ------------------------------------------------------------------ shared commands
    @app_commands.command(name="new", description="Open a lobby for this game in a server channel.")
    @app_commands.describe(options="Optional settings, e.g. turn_seconds=120 afk_turns=3 (the "
                           "lobby lists them all)")
    async def new(self, interaction: discord.Interaction, options: str | None = None) -> None:
        if interaction.guild_id is None:
            raise TableError("Games are played in server channels, not in DMs.")
        self.bot.cooldowns.ready(interaction.user.id, "lobby")
        overrides = parse_option_text(options)
        table = await self.bot.tables.open_lobby(
            self.ui.engine.name, guild_id=interaction.guild_id,
            channel_id=interaction.channel_id, host_id=interaction.user.id,
            host_name=display_name(interaction.user), overrides=overrides)
        self.bot.cooldowns.used(interaction.user.id, "lobby")
        await self.bot.table_ui.post_lobby(interaction, table)

    @app_commands.command(name="leave", description="Leave the game here (an AI takes "
                          "your seat) or its lobby.")
    async def leave(self, interaction: discord.Interaction) -> None:
        table = self.table_here(interaction, playing=False)
        if table.playing:
            self.my_seat(table, interaction)
            await self.bot.table_ui.confirm_leave(interaction, table)
            return
        # the lobby message is then edited through the channel (a request from the shared
        # budget): Join (a click) and /leave in a loop would cost one each time
        self.bot.cooldowns.ready(interaction.user.id, "lobby-leave")
        left = await self.bot.tables.leave(table.id, interaction.user.id)
        self.bot.cooldowns.used(interaction.user.id, "lobby-leave")
        await reply(interaction, "You left the lobby.", ephemeral=True)  # answer first
        if left is None:
            await self.bot.tables.publisher.close_lobby(
                table, f"The {table.engine.title} lobby closed: everyone left.")
        else:
            await self.bot.tables.publisher.refresh_lobby(left)

    @app_commands.command(name="hand", description="Show your cards and secrets (only you "
                          "see the answer).")
    async def hand(self, interaction: discord.Interaction) -> None:
        table = self.table_here(interaction)
        await self.bot.table_ui.show_hand(interaction, table)

    @app_commands.command(name="rules", description="How to play: a quick start, then the "
                          "full rules.")
    async def rules(self, interaction: discord.Interaction) -> None:
        quick = self.ui.quick_start()
        if quick is None:
            await self.bot.table_ui.show_rules(interaction, self.ui)
            return
        view = RoutedView()
        view.add_item(RulesButton(self.ui.engine.name))
        embed = discord.Embed(title=f"{self.ui.emoji} {self.ui.engine.title} — quick start",
                              description=clip(quick, DESCRIPTION_LIMIT), colour=self.ui.colour)
        await reply(interaction, embed=embed, view=view, ephemeral=True)

    @app_commands.command(name="move", description="Make any legal move (the suggestions list "
                          "them all).")
    @app_commands.describe(action="Start typing to filter your legal moves.")
    async def move(self, interaction: discord.Interaction, action: str) -> None:
        table, chosen = self.choose_action(interaction, action)
        await self.perform(interaction, table, chosen)

    @move.autocomplete("action")
    @explained()
    async def _move_autocomplete(self, interaction: discord.Interaction, current: str):
        return await self.autocomplete_actions(interaction, current)

    @app_commands.command(name="turn", description="Open your move panel (only you see it).")
    async def turn(self, interaction: discord.Interaction) -> None:
        table = self.table_here(interaction)
        seat = self.my_seat(table, interaction)
        await self.bot.table_ui.show_panel(interaction, table, seat, (), edit=False)

    @app_commands.command(name="board", description="Post the board again at the bottom of "
                          "the channel.")
    async def board(self, interaction: discord.Interaction) -> None:
        """Answer first; the delivery task posts the board anew and deletes the old one. On
        a paused table (channel unwritable) this is how play carries on."""
        table = self.table_here(interaction, paused_ok=True)
        if table.paused and (missing := missing_channel_permissions(interaction)):
            # carrying on would only pause it again (and DM its host again)
            await reply(interaction, f"This table is paused: {table.paused}. I still lack the "
                        f"{missing} permission here; once a moderator grants it, "
                        f"`/{table.ui.command} board` carries on.", ephemeral=True)
            return
        if table.row.parent_id == interaction.channel_id:  # its thread is gone: play here
            await self.bot.tables.publisher.threads.back_to_channel(table)
        # A repost costs two channel requests from the budget every table shares: once per
        # table per cooldown (others are pointed at the fresh one), once per member too.
        cooldowns = self.bot.cooldowns
        if cooldowns.left(table.id, "table-board") > 0:
            await reply(interaction, "The board was posted again a moment ago: it's the "
                        "newest board message in this channel.", ephemeral=True)
            return
        cooldowns.take(interaction.user.id, "board")
        cooldowns.used(table.id, "table-board")
        # a board carrying on after a pause asks whoever must act again (a ping)
        table.meta["turn_refresh"] = AGAIN if table.paused else True
        if await self.bot.tables.resume(table):
            text = "Carrying on: the board is posted again below."
        else:
            text = "Board posted again below."
            self.bot.tables.schedule_delivery(table)
        await reply(interaction, text, ephemeral=True)

    @app_commands.command(name="cancel", description="Cancel the table here (host or "
                          "moderators).")
    async def cancel(self, interaction: discord.Interaction) -> None:
        table = self.table_here(interaction, playing=False, paused_ok=True)
        await self.bot.tables.cancel(table.id, interaction.user.id,
                                     moderator=is_moderator(interaction))
        await reply(interaction, f"Cancelled the {table.engine.title} table.", ephemeral=False)
