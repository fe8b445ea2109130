"""Buttons and selects routed by custom id, so they survive restarts.

Custom ids: `t:{table}:{op}[:{arg}]` for buttons, `ps:{table}:{version}:{prefix}` for the
turn panel's select, `lt:{table}` for a lobby's team menu, `lr:{table}` for the host's
"remove a seat" menu, `ra:{match}` for **Play again** under a result, `rl:{game}` for
**Full rules** under a quick start, and `rp:`, `rx:`, `hs:`, `hp:` for replays and /history
(see bot.ui.replays). `route` parses a click's custom
id and hands it to `bot.ui.handlers`; `CardTableBot.on_interaction` calls it for every
component click.

The bot routes clicks itself rather than through discord.py's DynamicItem: for each click
on a DynamicItem discord.py rebuilds a whole `View` from the clicked message (every button
and every option of the panel's menu) and a fresh item, only to read the custom id again —
per-click work that showed up among the event-loop stalls at 500 busy tables (bench.load).
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.late_interactions import is_expiry, note_expired
from bot.ui.replies import SOMETHING_WENT_WRONG, reply_error
from bot.ui.text import OPTION_LIMIT, plain

log = logging.getLogger("cardtable.ui")

BUTTON_ID = re.compile(r"t:(?P<table>\d+):(?P<op>[a-z]+)(?::(?P<arg>[0-9a-z.:_-]*))?")
SELECT_ID = re.compile(r"ps:(?P<table>\d+):(?P<version>\d+):(?P<prefix>[0-9.]*)")
TEAM_ID = re.compile(r"lt:(?P<table>\d+)")
REMOVE_ID = re.compile(r"lr:(?P<table>\d+)")
REMATCH_ID = re.compile(r"ra:(?P<match>\d+)")
RULES_ID = re.compile(r"rl:(?P<game>[a-z_]+)")
REPLAY_ID = re.compile(r"rp:(?P<match>\d{1,19}):(?P<view>[cm]):(?P<op>[a-z]):(?P<step>-?\d{1,7})")
EXPORT_ID = re.compile(r"rx:(?P<match>\d{1,19}):(?P<view>[cm])")
HISTORY_ID = re.compile(r"hs:(?P<game>[a-z_]+|-):(?P<user>\d{1,20}):(?P<page>\d{1,5})")
HISTORY_PICK_ID = re.compile(r"hp:\d{1,5}")
# The answer to a click whose custom id or value the bot never made (a modified client, or
# a message from an older version of the bot): Discord would otherwise say it "failed".
STALE_BUTTON = "That button is out of date or not one of mine: use the newest board."


def on_clicked_message(interaction: discord.Interaction) -> bool:
    """True if the clicked component is one the bot put on the message it was clicked on
    (Discord sends the message with every click; a crafted custom id is not on it)."""
    if interaction.type is not discord.InteractionType.component:
        return True  # a form's submit: its custom id is checked by its handler
    custom_id = (interaction.data or {}).get("custom_id")
    message = interaction.message
    if message is None or custom_id is None:
        return False
    return any(getattr(child, "custom_id", None) == custom_id
               for row in message.components for child in getattr(row, "children", [row]))


class RoutedView(discord.ui.View):
    """A view whose items are routed by custom id (`route`), so discord.py need not keep it.

    discord.py stores every sent view (with a timeout task) to dispatch its clicks; storing
    ours would only cost memory and garbage collection (measured: thousands of ephemeral
    panels at 500 tables).
    """

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_finished(self) -> bool:
        return True


def button_id(table_id: int, op: str, arg: str = "") -> str:
    return f"t:{table_id}:{op}" + (f":{arg}" if arg else "")


class TableButton(discord.ui.Button):
    def __init__(self, table_id: int, op: str, arg: str = "", *, label: str | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 emoji: str | None = None, row: int | None = None,
                 disabled: bool = False) -> None:
        super().__init__(label=label, style=style, emoji=emoji, row=row, disabled=disabled,
                         custom_id=button_id(table_id, op, arg))


class PanelSelect(discord.ui.Select):
    def __init__(self, table_id: int, version: int, prefix: str,
                 options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        super().__init__(custom_id=f"ps:{table_id}:{version}:{prefix}", placeholder=placeholder,
                         options=options or [discord.SelectOption(label="…", value="0")])


class TeamSelect(discord.ui.Select):
    """A lobby's "choose your team" menu (games played in teams)."""

    def __init__(self, table_id: int, teams: int = 2) -> None:
        super().__init__(custom_id=f"lt:{table_id}", placeholder="Choose your team",
                         options=[discord.SelectOption(label=f"Team {i + 1}", value=str(i))
                                  for i in range(max(teams, 2))])


class RemoveSelect(discord.ui.Select):
    """The host's "remove a seat" menu in a lobby (AI seats and other players)."""

    def __init__(self, table_id: int, seats: list[tuple[int, str]]) -> None:
        super().__init__(custom_id=f"lr:{table_id}", placeholder="Host: remove a seat…",
                         options=[discord.SelectOption(label=plain(f"Remove {name}", OPTION_LIMIT),
                                                       value=str(seat))
                                  for seat, name in seats[:25]])


class RulesButton(discord.ui.Button):
    """**Full rules** under a game's quick start: `rl:{game}`."""

    def __init__(self, game: str) -> None:
        super().__init__(label="Full rules", emoji="📖", style=discord.ButtonStyle.secondary,
                         custom_id=f"rl:{game}")


class ReplayButton(discord.ui.Button):
    """**Replay** under a result: opens the game's replay for whoever clicks (ephemeral)."""

    def __init__(self, match_id: int) -> None:
        super().__init__(label="Replay", emoji="🎞️", style=discord.ButtonStyle.secondary,
                         custom_id=f"rp:{match_id}:c:o:0")


class RematchButton(discord.ui.Button):
    """**Play again** under a result: `ra:{match id}` (the table itself is gone)."""

    def __init__(self, match_id: int) -> None:
        super().__init__(label="Play again", emoji="🔁", style=discord.ButtonStyle.success,
                         custom_id=f"ra:{match_id}")


async def route(interaction: discord.Interaction) -> bool:
    """Hand a component click to its handler; False if the custom id is not ours. A bug in
    a handler gets the same friendly answer as a failing command, not "interaction failed".
    An answer refused because the interaction expired is no bug: one line, no traceback."""
    try:
        return await _route(interaction)
    except Exception as exc:
        if is_expiry(exc):
            note_expired(interaction)
            return True
        log.exception("component %s failed", (interaction.data or {}).get("custom_id"))
        await reply_error(interaction, SOMETHING_WENT_WRONG)
        return True


async def _route(interaction: discord.Interaction) -> bool:
    data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
    custom_id = str(data.get("custom_id", ""))
    values = data.get("values") or []
    handlers = interaction.client.table_ui  # type: ignore[attr-defined]
    if match := BUTTON_ID.fullmatch(custom_id):
        await handlers.on_button(interaction, int(match["table"]), match["op"],
                                 match["arg"] or "")
    elif match := SELECT_ID.fullmatch(custom_id):
        await handlers.on_panel_select(interaction, int(match["table"]), int(match["version"]),
                                       match["prefix"], values[0] if values else "")
    elif match := TEAM_ID.fullmatch(custom_id):
        await handlers.on_team(interaction, int(match["table"]), str(values[0] if values else ""))
    elif match := REMOVE_ID.fullmatch(custom_id):
        await handlers.on_remove(interaction, int(match["table"]), str(values[0] if values
                                                                        else ""))
    elif match := REMATCH_ID.fullmatch(custom_id):
        await handlers.on_rematch(interaction, int(match["match"]))
    elif match := REPLAY_ID.fullmatch(custom_id):
        await interaction.client.replays.on_step(  # type: ignore[attr-defined]
            interaction, int(match["match"]), match["view"], match["op"], int(match["step"]))
    elif match := EXPORT_ID.fullmatch(custom_id):
        await interaction.client.replays.on_export(  # type: ignore[attr-defined]
            interaction, int(match["match"]), match["view"])
    elif match := HISTORY_ID.fullmatch(custom_id):
        if not on_clicked_message(interaction):
            # a page number the bot never showed (a modified client's `hs:-:0:99999`) made
            # one click read every finished game of the server: pages come one at a time
            await reply_error(interaction, STALE_BUTTON)
            return True
        game = match["game"] if match["game"] != "-" else None
        await interaction.client.replays.history(  # type: ignore[attr-defined]
            interaction, game=game, user_id=int(match["user"]) or None,
            page=int(match["page"]), edit=True)
    elif HISTORY_PICK_ID.fullmatch(custom_id):
        picked = str(values[0]) if values else ""
        if not picked.isdigit() or len(picked) > 19:
            await reply_error(interaction, "That game is not in the list any more.")
        else:
            await interaction.client.replays.open(interaction, int(picked))  # type: ignore[attr-defined]
    elif match := RULES_ID.fullmatch(custom_id):
        ui = interaction.client.tables.uis.get(match["game"])  # type: ignore[attr-defined]
        if ui is None:
            await reply_error(interaction, "That game is not available any more.")
        else:
            await handlers.show_rules(interaction, ui)
    else:
        await reply_error(interaction, STALE_BUTTON)
        return False
    return True
