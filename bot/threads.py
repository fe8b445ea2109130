"""A thread per table (issue 16): the lobby stays in its channel, the game is played in a
public thread started from the lobby's message, and the result comes back to the channel.

Why a thread: a game reposts its board at the bottom of its channel on every turn change
(so the mention pings whoever must act), dozens of times a game. In a thread those reposts
and pings stay out of the channel people talk in; the channel sees the lobby, Discord's one
"started a thread" line and the result.

Where it is decided: **Start** (bot.ui.handlers) asks `thread_refusal` whether the bot may
make a thread in the lobby's channel (the server's `table_place`, the channel's type, the
bot's Create Public Threads and Send Messages in Threads there, from the click's
`app_permissions`) and records the wish (`meta["place"]`) with the start. The table's
delivery task then opens the thread before the first board (`TableThreads.open`): outside
any table lock, retried like any delivery, and safe across a restart (a thread made from a
message has that message's id, so a second try that Discord refuses with 160004 finds the
first one's thread). Once open, the table's `channel_id` is the thread (saved at once with
`Storage.move_table`) and `meta["lobby_channel_id"]` the channel. If the thread can't be
made, the game is played in the channel and the lobby's note says why, once.

At the end the result is posted in the lobby's channel and the thread archived (and locked
when the bot has Manage Threads: then nobody reopens it by writing in it). A thread that
someone archives during the game is reopened by the next board (Discord unarchives a thread
a message is sent to; an edit there is refused, 50083, so the board is posted anew); a
thread that is locked or deleted pauses the table, and `/<game> board` in the lobby's
channel carries it on there.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING

import discord

from bot.ui.names import clean_name
from bot.ui.text import clip

if TYPE_CHECKING:
    from bot.delivery import Publisher
    from bot.tables.live import LiveTable

log = logging.getLogger("cardtable.threads")

THREAD, CHANNEL = "thread", "channel"
# Minutes of quiet before Discord hides the thread from the channel list: a day, so a slow
# game stays listed overnight; a board sent after that brings it back anyway.
AUTO_ARCHIVE_MINUTES = 1440
NAME_LIMIT = 100  # characters of a thread name (channel.mdx: 1-100)
ARCHIVED = 50083  # "operation on an archived thread" (topics/opcodes-and-status-codes.mdx)
LOCKED = 160005  # "thread is locked"
THREAD_EXISTS = 160004  # "a thread has already been created for this message"
UNKNOWN_MESSAGE = 10008
WRONG_CHANNEL_TYPE = 50024


def thread_refusal(interaction: discord.Interaction) -> str | None:
    """Why the game started by this click can't have a thread of the click's channel (the
    lobby's), in words for the lobby's note; None if it can. Discord sends the bot's
    permissions in that channel with every interaction (`app_permissions`)."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread):
        return "this lobby is already in a thread"
    if not isinstance(channel, discord.TextChannel):
        return "threads can't be made in this kind of channel"
    perms = interaction.app_permissions
    missing = [name for attr, name in (("create_public_threads", "Create Public Threads"),
                                       ("send_messages_in_threads", "Send Messages in Threads"))
               if not getattr(perms, attr)]
    if missing:
        return f"I'm missing the {' and '.join(missing)} permission here"
    return None


def thread_name(table: LiveTable) -> str:
    """The game and its players, as a thread name (shown raw, never as markdown: the
    names as typed, one line each; 1-100 characters)."""
    names = ", ".join(clean_name(s["name"]) for s in table.seats)
    return clip(f"{table.ui.emoji} {table.engine.title}: {names}", NAME_LIMIT)


def thread_gone(exc: BaseException) -> str | None:
    """Why a table's thread can't take its board, if a delivery failed for that reason:
    locked by a moderator (403 / 160005, or 400 / 50083 once it is also archived)."""
    if isinstance(exc, discord.HTTPException) and exc.code in (LOCKED, ARCHIVED):
        return "its thread was locked"
    return None


def archived(exc: BaseException) -> bool:
    """An edit refused because the thread is archived (the board is then posted anew:
    a new message unarchives a thread that is not locked)."""
    return isinstance(exc, discord.HTTPException) and exc.code == ARCHIVED


class TableThreads:
    """Opens, closes and gives up a table's thread, for the table's delivery task."""

    def __init__(self, publisher: Publisher) -> None:
        self.publisher = publisher

    @property
    def http(self):
        return self.publisher.bot.http

    @staticmethod
    def pending(table: LiveTable) -> bool:
        """Start asked for a thread that is not open yet (nor given up)."""
        meta = table.meta
        return (meta.get("place") == THREAD and table.row.parent_id is None
                and not meta.get("thread_failed"))

    async def open(self, table: LiveTable) -> None:
        """Open the game's thread from the lobby's message (without one if that message is
        gone) and move the table into it. A passing failure (5xx, a timeout) raises, so the
        delivery is tried again; a refusal plays the game in the channel and says why."""
        channel_id = table.row.channel_id
        name = thread_name(table)
        lobby = table.meta.get("lobby_message_id")
        try:
            thread_id = await self._create(table.row.guild_id, channel_id, lobby, name)
        except discord.HTTPException as exc:
            if exc.status >= 500 or exc.status == 429:
                raise
            log.warning("table %s: no thread in channel %s (%s); playing in the channel",
                        table.id, channel_id, exc)
            why = ("I'm missing a permission for threads here" if exc.status == 403
                   else "Discord refused to make one")
            table.meta["thread_failed"] = why
            self.publisher.service.meta_changed(table)
            await self._note_lobby(table, f"The game is played here in the channel: I couldn't "
                                   f"open a thread for it ({why}).")
            return
        table.row.channel_id = thread_id
        table.row.board_message_id = None
        await self._moved(table)
        await self._note_lobby(table, f"The game is played in its thread <#{thread_id}>.")

    async def _create(self, guild_id: int | None, channel_id: int, lobby: int | None,
                      name: str) -> int:
        if lobby and self._cached(guild_id, lobby) is not None:
            return int(lobby)  # someone (or an earlier try) made the lobby's thread: play there
        if lobby:
            try:
                data = await self.http.start_thread_with_message(
                    channel_id, lobby, name=name, auto_archive_duration=AUTO_ARCHIVE_MINUTES)
                return int(data["id"])
            except discord.HTTPException as exc:
                if exc.code == THREAD_EXISTS:
                    return int(lobby)  # an earlier try made it (its answer was lost)
                if exc.code != UNKNOWN_MESSAGE:
                    raise
        # the kind of thread the channel has: an announcement channel's are announcement
        # threads (a public thread is refused there), a text channel's public ones
        channel = self.publisher.bot.get_channel(channel_id)
        news = isinstance(channel, discord.TextChannel) and channel.is_news()
        kind = discord.ChannelType.news_thread if news else discord.ChannelType.public_thread
        data = await self.http.start_thread_without_message(
            channel_id, name=name, auto_archive_duration=AUTO_ARCHIVE_MINUTES, type=kind.value)
        return int(data["id"])

    async def _moved(self, table: LiveTable) -> None:
        """Save where the table now is at once (a restart must find its thread); if the
        database refuses, the bookkeeping batch saves it later."""
        from bot.storage import StorageError

        try:
            await self.publisher.service.storage.move_table(table.row)
        except StorageError as exc:
            log.warning("table %s: its move could not be saved yet (%s)", table.id, exc)
            self.publisher.service.meta_changed(table)

    async def note_closed(self, table: LiveTable) -> None:
        """A cancelled game's start note in the lobby's channel says so: it kept "has started
        … played in its thread" for good, and the channel never heard of the game again (a
        finished game's result comes back there; a cancelled one has none)."""
        if table.row.parent_id is None:
            return
        names = ", ".join(table.names)
        await self._note_lobby(table, f"Its thread: <#{table.row.channel_id}>.",
                               lead=f"❌ **{table.engine.title}** with {names} was "
                               f"{table.closing_note}.")

    async def _note_lobby(self, table: LiveTable, where: str, *, lead: str | None = None
                          ) -> None:
        """The lobby's message (now the start note) says where the game is played."""
        lobby = table.meta.get("lobby_message_id")
        parent = table.row.parent_id or table.row.channel_id
        if not lobby:
            return
        names = ", ".join(table.names)
        lead = lead or f"▶️ **{table.engine.title}** has started with {names}."
        with contextlib.suppress(discord.HTTPException):
            await self.publisher.bot.get_partial_messageable(parent).get_partial_message(
                lobby).edit(content=f"{lead} {where}", embeds=[], view=None)

    async def close(self, table: LiveTable) -> None:
        """The game is over: archive its thread, and lock it too where the bot may (Manage
        Threads), so the finished game is not reopened by someone writing in it."""
        if table.row.parent_id is None or table.meta.get("thread_closed"):
            return
        await self.publisher.janitor.deletes_done(table)  # refused once it is archived
        table.meta["thread_closed"] = True
        self.publisher.service.meta_changed(table)
        thread_id = table.row.channel_id
        if not self._may_archive(table):
            log.info("table %s: its thread %s is someone else's: left open", table.id, thread_id)
            return
        try:
            await self.http.edit_channel(thread_id, archived=True,
                                         **({"locked": True} if self._may_lock(table) else {}))
        except discord.HTTPException as exc:
            log.info("table %s: its thread %s was not archived (%s)", table.id, thread_id, exc)

    def _cached(self, guild_id: int | None, thread_id: int) -> discord.Thread | None:
        """A thread in discord.py's cache (active threads, from the gateway)."""
        guild = self.publisher.bot.get_guild(guild_id or 0)
        return guild.get_thread(thread_id) if guild is not None else None

    def _may_lock(self, table: LiveTable) -> bool:
        thread = self._cached(table.row.guild_id, table.row.channel_id)
        return thread is not None and thread.permissions_for(thread.guild.me).manage_threads

    def _may_archive(self, table: LiveTable) -> bool:
        """Archiving takes being the thread's creator or Manage Threads (topics/threads.mdx,
        Editing & Deleting Threads): a thread someone made on the lobby before Start is not
        the bot's. Unknown (not cached): try, Discord decides."""
        thread = self._cached(table.row.guild_id, table.row.channel_id)
        if thread is None:
            return True
        me = thread.guild.me
        return thread.owner_id == me.id or thread.permissions_for(me).manage_threads

    async def back_to_channel(self, table: LiveTable) -> None:
        """Play on in the lobby's channel (the thread was deleted or locked): the table
        leaves the thread for good."""
        parent = table.row.parent_id
        if parent is None:
            return
        table.row.channel_id = parent
        table.row.board_message_id = None
        table.meta["thread_failed"] = "its thread was closed"
        table.meta.pop("turn_for", None)
        await self._moved(table)
