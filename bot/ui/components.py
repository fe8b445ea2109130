"""Buttons and selects routed by custom id (discord.py DynamicItem), so they survive restarts.

Custom ids: `t:{table}:{op}[:{arg}]` for buttons and `ps:{table}:{version}:{prefix}` for the
turn panel's select. The callbacks only parse and hand over to `bot.ui.handlers`.
"""

from __future__ import annotations

import discord

BUTTON_ID = r"t:(?P<table>\d+):(?P<op>[a-z]+)(?::(?P<arg>[0-9a-z.:_-]*))?"
SELECT_ID = r"ps:(?P<table>\d+):(?P<version>\d+):(?P<prefix>[0-9.]*)"


class RoutedView(discord.ui.View):
    """A view whose items are routed by custom id, so discord.py need not keep it.

    discord.py stores every sent view (with a timeout task) to dispatch its clicks; ours are
    dispatched through the DynamicItem templates instead, so storing them would only cost
    memory and garbage collection (measured: thousands of ephemeral panels at 500 tables).
    """

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_finished(self) -> bool:
        return True


def button_id(table_id: int, op: str, arg: str = "") -> str:
    return f"t:{table_id}:{op}" + (f":{arg}" if arg else "")


class TableButton(discord.ui.DynamicItem[discord.ui.Button], template=BUTTON_ID):
    def __init__(self, table_id: int, op: str, arg: str = "", *, label: str | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 emoji: str | None = None, row: int | None = None,
                 disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, emoji=emoji, row=row,
                                           disabled=disabled,
                                           custom_id=button_id(table_id, op, arg)))
        self.table_id, self.op, self.arg = table_id, op, arg

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match, /) -> TableButton:
        return cls(int(match["table"]), match["op"], match["arg"] or "", label=item.label,
                   style=item.style)

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.client.table_ui.on_button(interaction, self.table_id, self.op, self.arg)


class PanelSelect(discord.ui.DynamicItem[discord.ui.Select], template=SELECT_ID):
    def __init__(self, table_id: int, version: int, prefix: str,
                 options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"ps:{table_id}:{version}:{prefix}", placeholder=placeholder,
            options=options or [discord.SelectOption(label="…", value="0")]))
        self.table_id, self.version, self.prefix = table_id, version, prefix

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select,
                             match, /) -> PanelSelect:
        return cls(int(match["table"]), int(match["version"]), match["prefix"],
                   options=item.options or None)

    async def callback(self, interaction: discord.Interaction) -> None:
        value = self.item.values[0] if self.item.values else ""
        await interaction.client.table_ui.on_panel_select(
            interaction, self.table_id, self.version, self.prefix, value)


class TeamSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"lt:(?P<table>\d+)"):
    """A lobby's "choose your team" menu (games played in teams)."""

    def __init__(self, table_id: int, teams: int = 2) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"lt:{table_id}", placeholder="Choose your team",
            options=[discord.SelectOption(label=f"Team {i + 1}", value=str(i))
                     for i in range(max(teams, 2))]))
        self.table_id = table_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select,
                             match, /) -> TeamSelect:
        return cls(int(match["table"]), len(item.options) or 2)

    async def callback(self, interaction: discord.Interaction) -> None:
        value = self.item.values[0] if self.item.values else "0"
        await interaction.client.table_ui.on_team(interaction, self.table_id, int(value))


DYNAMIC_ITEMS = (TableButton, PanelSelect, TeamSelect)
