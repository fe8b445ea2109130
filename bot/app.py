"""The bot factory. Tests and the process entry point both build the bot with `create_bot`."""

from __future__ import annotations

import asyncio
import gc
import logging
import pkgutil
from pathlib import Path

import discord
from discord import app_commands
from discord.ext import commands

from bot import http_buckets, log_privacy, request_budget, rest_timeout, user_agent
from bot.late_interactions import is_expiry, note_expired, too_late
from bot.settings import Settings
from bot.storage import Storage

log = logging.getLogger("cardtable")
COGS_DIR = Path(__file__).resolve().parents[1] / "cogs"


def cog_modules() -> list[str]:
    """Every module in `cogs/` (a game lands by adding its cog file)."""
    return sorted(f"cogs.{m.name}" for m in pkgutil.iter_modules([str(COGS_DIR)])
                  if not m.name.startswith("_"))


class CardTableBot(commands.Bot):
    """The bot: owns storage and the table service; cogs reach them through `bot`."""

    def __init__(self, settings: Settings, *, freeze_gc: bool = False,
                 storage: Storage | None = None, **kwargs) -> None:
        """`freeze_gc`: once ready, move every object alive then (modules, discord.py, the
        guild cache, restored tables) out of the garbage collector's reach. The process
        entry point sets it; tests, which build many bots in one process, do not.
        `storage`: already open (the process entry point opens it before logging in, so an
        unusable database stops it before anything else); else opened in setup_hook."""
        # Slash commands and components arrive as interactions: the bot needs no message,
        # member or presence events, and no message cache (each costs CPU per event).
        intents = discord.Intents.none()
        intents.guilds = True
        kwargs.setdefault("guild_ready_timeout", 2.0)
        kwargs.setdefault("max_messages", None)
        # Nobody is pinged unless a message names them in its own allowed_mentions
        # (bot.ui.names.pings): a name written as <@id> or @everyone pings no one.
        kwargs.setdefault("allowed_mentions", discord.AllowedMentions.none())
        # interaction replies too carry Discord's User-Agent (bot.user_agent)
        kwargs.setdefault("http_trace", user_agent.trace(lambda: self.http.user_agent))
        super().__init__(command_prefix=commands.when_mentioned, intents=intents,
                         help_command=None, **kwargs)
        self.settings = settings
        self._freeze_gc = freeze_gc
        self.bucket_sweeper = http_buckets.install(self.http)
        # the timeout inside the budget: a request that hangs frees its slot when it ends
        rest_timeout.install(self.http, settings.rest_timeout)
        self.request_budget: request_budget.RequestBudget | None = None
        if settings.rest_requests_per_second:
            self.request_budget = request_budget.RequestBudget(settings.rest_requests_per_second)
            request_budget.install(self.http, self.request_budget)
        self.storage: Storage | None = storage
        self.exit_code = 0  # set when the bot stops itself (see _storage_lost)
        self._closing: asyncio.Future[None] | None = None
        self.tree.on_error = self.on_app_command_error
        self.tree.interaction_check = _fresh_only
        from bot.cooldowns import Cooldowns
        from bot.tables.service import TableService  # local: service imports bot types
        from bot.ui.handlers import TableInteractions
        from bot.ui.replays import ReplayInteractions

        self.cooldowns = Cooldowns(settings.command_cooldown)
        self.tables = TableService(self)
        self.table_ui = TableInteractions(self)
        self.replays = ReplayInteractions(self)
        self.synced_commands: list[app_commands.AppCommand] = []

    async def setup_hook(self) -> None:
        if self.storage is None:
            self.storage = await Storage.for_settings(
                self.settings, claim_wait=self.settings.shard_wait_seconds)
        self.storage.on_lost(self._storage_lost)
        for module in cog_modules():
            try:
                await self.load_extension(module)
            except commands.ExtensionError:
                # one broken game must not take the others down with it
                log.exception("could not load %s; the bot runs without it", module)
        await self.tables.start()
        if self.settings.sync_commands:
            if self.settings.dev_guild_id:
                guild = discord.Object(id=self.settings.dev_guild_id)
                self.tree.copy_global_to(guild=guild)
                self.synced_commands = await self.tree.sync(guild=guild)
            else:
                self.synced_commands = await self.tree.sync()
            log.info("synced %d commands", len(self.synced_commands))

    def _storage_lost(self) -> None:
        """PostgreSQL: the session holding this process's shards ended (server restart,
        network): another process may run them now, so this one stops (exit status 3; the
        launcher or a supervisor starts it again, and it takes its shards back)."""
        self.exit_code = 3
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close())
            self._closing.add_done_callback(_log_close_error)

    async def on_ready(self) -> None:
        log.info("ready as %s in %d guild(s)", self.user, len(self.guilds))
        if self._freeze_gc:
            # Full collections otherwise rescan those ~100k long-lived objects: at 100 busy
            # tables GC took 21 % of the bot's time with pauses up to 110 ms; frozen, 12 %
            # and 37 ms, and 14 % more moves per second (bench.load A/B, 2026-11-23).
            self._freeze_gc = False
            gc.collect()
            gc.freeze()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Route our buttons, menus and move forms (modals) by custom id (restart-proof; see
        bot.ui.components for why not through discord.py's DynamicItem). Late ones are
        ignored (bot.late_interactions; slash commands: `_fresh_only`)."""
        if interaction.type in (discord.InteractionType.component,
                                discord.InteractionType.modal_submit) and too_late(interaction):
            return
        if interaction.type is discord.InteractionType.component:
            from bot.ui.components import route

            await route(interaction)
            return
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        data = interaction.data or {}
        custom_id = data.get("custom_id", "")
        if not custom_id.startswith("tm:"):
            return
        text = ""
        for row in data.get("components", []):
            for comp in row.get("components", [row.get("component", {})]):
                if comp.get("custom_id") == "text":
                    text = comp.get("value", "")
        await self.table_ui.on_text_submit(interaction, custom_id, text)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.tables.channel_deleted(channel.id)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """A game's thread deleted (bot.threads): its table pauses, like a deleted channel's
        (raw: an archived thread is not in discord.py's cache)."""
        await self.tables.channel_deleted(payload.thread_id)

    async def close(self) -> None:
        """Stop the tables, disconnect, close the database — once: a second call (the bot
        stopping itself after losing its database session, then its supervisor) waits for
        the first."""
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close())
        await asyncio.shield(self._closing)

    async def _close(self) -> None:
        try:
            await self.tables.stop()
        finally:
            await super().close()
            if self.storage is not None:
                await self.storage.close()
                self.storage = None

    async def on_app_command_error(self, interaction: discord.Interaction,
                                   error: app_commands.AppCommandError) -> None:
        """Every failure gets a friendly ephemeral answer; the bot keeps running."""
        from bot.tables.service import TableError
        from bot.tables.settings import OptionsError
        from bot.ui.replies import SOMETHING_WENT_WRONG, Refusal, reply_error

        original = getattr(error, "original", error)
        if is_expiry(original):  # its answer came too late: nothing more can be said
            note_expired(interaction)
            return
        if isinstance(original, TableError | OptionsError | Refusal):
            text = str(original)
        elif isinstance(error, app_commands.CommandNotFound):
            text = "I don't know that command any more. Try `/help` for the current list."
        elif isinstance(error, app_commands.MissingPermissions | app_commands.CheckFailure):
            text = "You don't have permission to use that command here."
        elif isinstance(error, app_commands.TransformerError):
            from bot.ui.names import echo

            text = f"I couldn't understand {echo(error.value)}. Please pick from the suggestions."
        else:
            log.exception("command failed", exc_info=original)
            text = SOMETHING_WENT_WRONG
        await reply_error(interaction, text)


def _log_close_error(closing: asyncio.Future) -> None:
    if not closing.cancelled() and closing.exception() is not None:
        log.error("stopping after the database session was lost failed",
                  exc_info=closing.exception())


async def _fresh_only(interaction: discord.Interaction) -> bool:
    """The command tree's global check: a command or autocomplete that arrives after
    Discord's window is dropped without an answer (Discord would refuse it). A server-only
    command (scores, settings) used in a DM is refused politely (`server_only_refusal`)."""
    if too_late(interaction):
        return False
    refusal = server_only_refusal(interaction)
    if refusal is not None:
        raise refusal
    return True


def server_only_refusal(interaction: discord.Interaction):
    """The Refusal for a guild-only command reaching us from a DM, else None. Discord does
    not offer such commands in DMs, but a client with a stale command list can still send
    one; it must not answer "on this server" about no server."""
    from bot.ui.replies import Refusal

    if interaction.guild_id is not None or \
            interaction.type is not discord.InteractionType.application_command:
        return None
    command = interaction.command
    guild_only = False
    node = command
    while node is not None:
        guild_only |= bool(getattr(node, "guild_only", False))
        node = getattr(node, "parent", None)
    if not guild_only:
        return None
    return Refusal(f"`/{command.qualified_name}` works in a server's channels (its scores and "
                   "settings belong to that server), not in DMs.")


class ShardedCardTableBot(CardTableBot, commands.AutoShardedBot):
    """The bot on some of Discord's shards (SHARD_COUNT, SHARD_IDS): discord.py's own
    AutoShardedBot runs one gateway connection per shard in this process."""


def create_bot(settings: Settings, **kwargs) -> CardTableBot:
    """Build a fresh bot (no module-level bot object, so tests can make many)."""
    log_privacy.install()  # discord.py's DEBUG lines carry DM texts: see bot/log_privacy
    if settings.shard_count is not None:
        kwargs.setdefault("shard_count", settings.shard_count)
        if settings.shard_ids is not None:
            kwargs.setdefault("shard_ids", list(settings.shard_ids))
        return ShardedCardTableBot(settings, **kwargs)
    return CardTableBot(settings, **kwargs)
