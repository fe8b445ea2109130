"""`/config`: anyone may see a game's defaults on this server; members with Manage Server
change them."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.tables.service import TableError
from bot.tables.settings import (
    SERVER_KEY,
    OptionsError,
    ServerSettings,
    TableSettings,
    describe_model,
    describe_options,
    option_fields,
    resolve_options,
    resolve_server,
    shown,
)
from bot.ui.notes import explained, refuse_notes
from bot.ui.replies import Refusal, reply, reply_error
from bot.ui.text import OPTION_LIMIT, plain
from cogs.stats import GAME_CHOICES
from engines import ENGINES


def _can_manage(interaction: discord.Interaction) -> bool:
    perms = interaction.permissions
    return bool(perms and (perms.manage_guild or perms.administrator))


MANAGERS_ONLY = ("Only members with **Manage Server** can change game settings. Anyone can "
                 "see them with `/config show`.")
NO_GAME_YET = "Choose the game first: its options are suggested then."
NOTE_PICKED = ("That choice was only a note: pick one of the options the suggestions list "
               "(`/config show` has them all).")


def _managers_only(interaction: discord.Interaction) -> bool:
    """The check on `set` and `reset`. It refuses by raising (the error handler gives the one
    answer); `show` stays open to everyone, so the whole group is not hidden by
    default_member_permissions (Discord applies that to a top-level command only)."""
    if not _can_manage(interaction):
        raise Refusal(MANAGERS_ONLY)
    return True


@app_commands.guild_only()
class ConfigGroup(app_commands.Group, name="config",
                  description="See each game's defaults on this server; Manage Server changes "
                  "them."):
    def __init__(self, bot) -> None:
        super().__init__()
        self.bot = bot

    async def _show(self, interaction: discord.Interaction, game: str, note: str = "") -> None:
        engine = ENGINES[game]
        stored = await self.bot.storage.get_game_settings(interaction.guild_id, game)
        base = {key: value for key, value in (("turn_seconds", self.bot.settings.turn_seconds),
                                              ("afk_turns", self.bot.settings.afk_turns))
                if key not in engine.Options.model_fields}
        options, table = resolve_options(engine, base, stored)
        lines = describe_options(engine, options, table)
        embed = discord.Embed(title=f"⚙️ {engine.title} defaults on this server",
                              description=(note + "\n\n" if note else "") + "\n".join(lines),
                              colour=0x95A5A6)
        embed.set_footer(text="/config set game: option: value: · /config reset game:")
        await reply(interaction, embed=embed, ephemeral=True)

    @app_commands.command(name="show", description="Show a game's default options here.")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=GAME_CHOICES)
    async def show(self, interaction: discord.Interaction, game: str) -> None:
        await self._show(interaction, game)

    @app_commands.command(name="set", description="Set one default option of a game (Manage "
                          "Server).")
    @app_commands.check(_managers_only)
    @app_commands.describe(game="Which game", option="Option name (suggestions list them)",
                           value="New value")
    @app_commands.choices(game=GAME_CHOICES)
    async def set(self, interaction: discord.Interaction, game: str, option: str,
                  value: str) -> None:
        engine = ENGINES[game]
        refuse_notes(option, then=NOTE_PICKED)
        key = option.strip().lower()
        stored = await self.bot.storage.get_game_settings(interaction.guild_id, game)
        try:
            options, table = resolve_options(engine, {**stored, key: value})
        except OptionsError as exc:
            await reply_error(interaction, f"{exc} Nothing was changed.")
            return
        typed = getattr(options if key in engine.Options.model_fields else table, key)
        await self.bot.storage.set_game_settings(interaction.guild_id, game,
                                                 {**stored, key: typed})
        await self._show(interaction, game, f"✅ `{key}` is now **{shown(typed)}** for new "
                         "tables.")

    @set.autocomplete("option")
    @explained()
    async def _option_autocomplete(self, interaction: discord.Interaction, current: str):
        """The game's options (none: a note says why, bot.ui.notes): a member who may not
        change them is told so before choosing one, as `set` would refuse."""
        if not _can_manage(interaction):
            raise TableError(MANAGERS_ONLY)
        game = interaction.namespace.game
        if game not in ENGINES:
            raise TableError(NO_GAME_YET)
        fields = option_fields(ENGINES[game])
        return [app_commands.Choice(name=plain(f"{k} — {f.description}", OPTION_LIMIT), value=k)
                for k, f in fields.items() if current.lower() in k][:25]

    @app_commands.command(name="server", description="Show the server-wide settings; set one "
                          "(Manage Server).")
    @app_commands.describe(setting="Which setting (leave empty to list them)",
                           value="Its new value")
    @app_commands.choices(setting=[app_commands.Choice(name=key, value=key)
                                   for key in ServerSettings.model_fields])
    async def server(self, interaction: discord.Interaction, setting: str | None = None,
                     value: str | None = None) -> None:
        stored = await self.bot.storage.get_game_settings(interaction.guild_id, SERVER_KEY)
        note = ""
        if setting is not None:
            if not _can_manage(interaction):
                raise Refusal("Only members with **Manage Server** can change server "
                              "settings. Anyone can see them with `/config server`.")
            if value is None:
                await reply_error(interaction, f"Give a `value` for `{setting}`. Nothing was "
                                  "changed.")
                return
            try:
                typed = getattr(resolve_server(stored, **{setting: value}), setting)
            except OptionsError as exc:
                await reply_error(interaction, f"{exc} Nothing was changed.")
                return
            stored = {**stored, setting: typed}
            await self.bot.storage.set_game_settings(interaction.guild_id, SERVER_KEY, stored)
            self.bot.tables.publisher.pictures.server_changed(interaction.guild_id)
            note = f"✅ `{setting}` is now **{shown(typed)}**."
        lines = describe_model(resolve_server(stored))
        embed = discord.Embed(title="⚙️ Server settings",
                              description=(note + "\n\n" if note else "") + "\n".join(lines),
                              colour=0x95A5A6)
        embed.set_footer(text="/config server setting: value:")
        await reply(interaction, embed=embed, ephemeral=True)

    @app_commands.command(name="reset", description="Forget this server's defaults for a game "
                          "(Manage Server).")
    @app_commands.check(_managers_only)
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=GAME_CHOICES)
    async def reset(self, interaction: discord.Interaction, game: str) -> None:
        await self.bot.storage.reset_game_settings(interaction.guild_id, game)
        await self._show(interaction, game, "✅ Back to the built-in defaults.")


class ConfigCog(commands.Cog):
    def __init__(self, bot) -> None:
        self.bot = bot
        self.group = ConfigGroup(bot)

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.group)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.group.name)


async def setup(bot) -> None:
    await bot.add_cog(ConfigCog(bot))


__all__ = ["TableSettings", "setup"]
