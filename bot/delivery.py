"""Delivery of public and private views: the board (which names who must act) and DMs.

The publisher renders the table as it is *now* (coalescing bursts of moves into one edit) and
remembers what each player's DM last showed, so a DM is edited only when what it shows
changed. A DM shows only the player's own secrets and where the table is, never the public
table (`GameUI.render_private(with_table=False)`): the table changes on nearly every move,
and a DM showing it either went stale (it was edited only when the private view changed) or
would cost an edit of every player's DM per move.
A closed DM (403) is reported once in the channel, without the secret, and the bot sends
that player no more DMs for the rest of that game: Discord counts every 401/403/429 answer
and bans a bot that collects 10,000 in 10 minutes. A player with closed DMs used to cost a
refused DM on every change to their private view (59 in one Taboo game), and later one per
click, since every interaction allowed one more try (bench.load: 83-111 refusals per 1,000
moves with 10 % closed-DM players). Now their clicks change nothing; their ephemeral
answers (My hand, the move panel) say once that DMs stopped, with a **Try DMs again**
button (`retry_dms`; `/notify dm` does the same) that allows exactly one new try.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable
from typing import TYPE_CHECKING, TypeVar

import discord

from bot import uploads
from bot.board_janitor import BoardJanitor, maybe_created
from bot.hooks import NEVER, by_token
from bot.pictures import Picture
from bot.pictures.prefs import PicturePrefs
from bot.ratings import ordinal, rating_text, trend_text
from bot.threads import TableThreads, archived
from bot.ui import render
from bot.ui.components import RematchButton, ReplayButton, RoutedView
from bot.ui.names import pings
from bot.ui.text import CONTENT_LIMIT, DESCRIPTION_LIMIT, clip, shown

if TYPE_CHECKING:
    from bot.app import CardTableBot
    from bot.hooks import Hook
    from bot.tables.live import LiveTable
    from bot.tables.service import TableService

log = logging.getLogger("cardtable.delivery")
T = TypeVar("T")
# /notify: where a player's turn pings them (stored per user, `channel` by default)
CHANNEL, DM, OFF = "channel", "dm", "off"
NOTIFY_MODES = (CHANNEL, DM, OFF)


class DeliveryIncomplete(Exception):
    """Part of a delivery failed for a passing reason; the table service retries it."""


def _digest(obj) -> str:
    return hashlib.sha1(json.dumps(obj, sort_keys=True, default=str).encode()).hexdigest()[:16]


def dms_paused(table: LiveTable, user_id: int) -> bool:
    """The player's DMs were refused in this game: no DM is tried (kept in the table's meta,
    so a restart does not try again either). Tables saved when the list was called
    `dm_failed` are read as such."""
    meta = table.meta
    if "dm_failed" in meta:  # saved before DMs paused: told, and stopped
        legacy = meta.pop("dm_failed")
        meta.setdefault("dm_told", list(legacy))
        meta.setdefault("dm_closed", list(legacy))
    return user_id in meta.get("dm_closed", ())


def dm_pause_hint(table: LiveTable, user_id: int) -> bool:
    """True once per pause: the player's next ephemeral answer (My hand, the move panel)
    should say that DMs stopped, with the Try DMs again button."""
    if not dms_paused(table, user_id):
        return False
    hinted = table.meta.setdefault("dm_hinted", [])
    if user_id in hinted:
        return False
    hinted.append(user_id)
    return True


def _add(items: list, item) -> None:
    if item not in items:
        items.append(item)


REFUSED = object()  # what `_hooked` returns when the token itself was refused
# meta "turn_refresh" (set by /<game> board): the board is posted anew; AGAIN also pings
# those it asks to act again (a table carrying on after a pause), True does not
AGAIN = "again"


async def _hooked(hook: Hook, call: Awaitable[T]) -> T | object:
    """Await a call made with an interaction token; REFUSED if Discord refused the token
    itself (expired or unknown: the hook is dead and the caller uses the channel instead)."""
    try:
        return await call
    except discord.HTTPException as exc:
        if hook.refused(exc):
            log.info("interaction token refused (%s); using the channel", exc)
            return REFUSED
        raise


# Errors that say a kept DM channel is not usable by this bot at all (as opposed to 50007,
# "Cannot send messages to this user": the player's DMs are closed): Unknown Channel, and
# Missing Access (a channel of another bot, e.g. a database carried over to a new token).
STALE_DM_CODES = frozenset({10003, 50001})


def _upload(picture: Picture | None) -> dict:
    """The `file=` argument that uploads a picture with a new message (nothing without one)."""
    return {"file": render.picture_file(picture)} if picture is not None else {}


class Publisher:
    def __init__(self, bot: CardTableBot, service: TableService) -> None:
        self.bot = bot
        self.service = service
        # user id -> DM channel id, kept in the database too (dm_channels): Discord gives
        # the same channel every time, and discord.py caches only 128 DM channels (LRU,
        # ConnectionState._add_private_channel) and none across a restart, so with more
        # players than that, or after a restart, every DM cost an extra open (bench.load).
        self._dm_channels: dict[int, int] = {}
        # Opening a DM channel (POST /users/@me/channels) has no channel, guild or webhook
        # in its path, and Discord scopes per-route limits only by those (rate-limits.mdx),
        # so it is one rate-limit bucket for the whole bot, in Discord and in discord.py
        # alike: opens sent together go no faster;
        # it holds those past the bucket's count, and sleeps out the window inside the call
        # that spent it — on REST_TIMEOUT's clock, each holding a request-budget slot.
        # When many tables started at once (bench.load: 50, about 200 new players) queued
        # opens hit the 10 s limit ("delivery failed ()", then retried) while their slots
        # sat idle. One open at a time, the queue is here, outside both, and no open waits
        # longer than one bucket window.
        self._opening_dm = asyncio.Lock()
        # opens running in the background (open_dm_soon), and players whose open there
        # failed: their next DM opens it itself, with dm()'s handling of its errors
        self.dm_opens: dict[int, asyncio.Task] = {}
        self._open_failed: set[int] = set()
        self.pictures = PicturePrefs(service)
        self.janitor = BoardJanitor(self)  # old boards, until their delete is confirmed
        self.threads = TableThreads(self)  # the game's own thread (bot.threads)

    def channel(self, table: LiveTable) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(table.row.channel_id)

    # ------------------------------------------------------------------ one sync
    async def sync(self, table: LiveTable) -> None:
        if not table.playing:
            return  # lobbies are updated by the clicks that change them
        if table.finished and table.meta.get("final_posted"):
            # delivered whole with its result: a later sync (a delivery asked for while the
            # last one waited on Discord's rate limits) would edit the board of an archived
            # thread, which is refused, and post it anew, which reopens the thread
            return
        # What this sync delivers at least. A move saved while it runs is delivered by the
        # next sync (the table is dirty again); until then `delivered_version` must not
        # claim it: a process killed in between would have its replacement trust a board
        # one move behind the database and never send it (bench.failover found boards
        # stuck so after a kill -9).
        version = table.version
        if self.threads.pending(table):
            await self.threads.open(table)  # before the first board: it goes in there
        # the result (and the thread's archiving) only after a board showing the end: a
        # last move made while this sync ran is shown by the next one first
        finished = table.finished
        before = set(table.meta.get("turn_for") or [])
        waiting = [] if finished else [
            table.seats[s]["user_id"] for s in sorted(table.engine.waiting_for(table.state))
            if not table.is_ai(s)]
        modes = await self.service.notify_modes(waiting)
        await self._board(table, modes)
        while table.notices:
            await self.announce(table, table.notices.pop(0))
        await self._private_views(table, {uid for uid in waiting if uid not in before}, modes)
        if finished:
            await self._final(table)
            return
        if table.finished:
            # it ended while the board above was being sent: sync again (the board, then
            # the result). Archiving the thread first had the final board's edit refused
            # (50083) and its repost reopened the finished game's thread.
            table.dirty = True
            return
        table.meta["delivered_version"] = version
        self.service.meta_changed(table)

    async def _board(self, table: LiveTable, modes: dict[int, str]) -> None:
        """Bring the board up to date; it also carries the turn notice.

        When the turn passes to people who want turn pings in the channel (`/notify`), the
        board is posted anew at the bottom of the channel, naming them (a mention pings only
        in a new message, never in an edit), and the old board is deleted: two public calls.
        Otherwise it is edited in place: one. Players who chose DM pings or none are named
        without a ping (allowed_mentions lists only the others).
        A separate notice message cost a third call on most moves (bench.load).
        """
        await self._drop_legacy_notice(table)
        humans = [] if table.finished else sorted(
            s for s in table.engine.waiting_for(table.state) if not table.is_ai(s))
        key = [table.seats[s]["user_id"] for s in humans]
        # who chose DM pings but refuses the bot's DMs would hear of their turn nowhere:
        # the board pings them in the channel instead, until a DM goes through again
        pinged = [uid for uid in key if modes.get(uid, CHANNEL) == CHANNEL
                  or (modes.get(uid) == DM and dms_paused(table, uid))]
        if not table.finished:  # (a finished table is not paused: its result goes out)
            uploads.need_embeds(self.bot, table)  # a board without its embeds shows nothing
        text = self._turn_text(table, key) if key else None
        embeds = render.board_embeds(table, text)
        # ping only whoever must act (/notify) and was not asked already: a board reposted
        # by someone's /<game> board pinged the player to move again, every cooldown
        fresh = set(pinged) - set(table.meta.get("turn_for") or [])
        again = table.meta.get("turn_refresh") == AGAIN
        content = {"view": render.board_view(table), "content": text,
                   "allowed_mentions": pings(*(u for u in pinged if again or u in fresh))}
        picture = None
        if (uploads.allowed(self.bot, table)  # Attach Files (bot.uploads)
                and await self.pictures.server(table.row.guild_id)):
            picture = await render.draw(render.board_picture_job(table))  # same state as text
        content["embeds"] = embeds
        if picture is not None:
            render.show_picture(embeds[-1], picture)
        repost = bool(table.meta.get("turn_refresh") or (key and fresh))
        async with table.board_lock:  # (bot.board_janitor reads the channel under it)
            send = self._repost if repost else self._edit_or_post
            try:
                await send(table, picture, **content)
            except discord.Forbidden as exc:
                if picture is None or exc.code != uploads.MISSING_PERMISSIONS:
                    raise
                # Attach Files denied in the channel: Discord refuses the whole message,
                # and the board's text is complete without its picture (a table paused
                # for "can't post" here would be wrong: text boards go through)
                content["embeds"] = render.board_embeds(table, text)
                await send(table, None, **content)
                uploads.refused(self.bot, table)
            table.meta["turn_for"] = key
            table.meta.pop("turn_refresh", None)

    def _turn_text(self, table: LiveTable, user_ids: list[int]) -> str:
        # Public text: only who must act and a door to their ephemeral panel (the board's
        # Take my turn button), never the choices themselves (legal moves can reveal a hand).
        mentions = " ".join(f"<@{uid}>" for uid in user_ids)
        deadline = table.meta.get("deadline")
        clock = f" (time runs out <t:{int(deadline)}:R>)" if deadline else ""
        hint = table.ui.turn_hint(table.engine.view(table.state, None), table.names)
        return (f"🎯 {mentions}, it's your move in **{table.engine.title}**"
                f"{' — ' + hint if hint else ''}{clock}.")

    async def _repost(self, table: LiveTable, picture: Picture | None, **content) -> None:
        """Post the board anew, then delete the old one (never the other way round: a failed
        post leaves the old board in place for the retry). The delete is the janitor's
        (bot.board_janitor), in the background, tried again if it fails: it never fails or
        holds up the delivery, whose retry would post yet another board and whose DMs
        would wait behind the channel's rate limit."""
        old, old_hook = table.row.board_message_id, self._board_hook(table)
        table.row.board_message_id = await self._post_board(table, picture, **content)
        if old:  # in the background: the DMs of this delivery must not wait for it
            self.janitor.retire_soon(table, old, hook=old_hook)

    async def _edit_or_post(self, table: LiveTable, picture: Picture | None,
                            **content) -> None:
        """Edit the board in place; its `attachments` list is the new picture alone (or
        nothing), so the old picture is replaced, never left beside the new one. The edit
        goes through the token that posted the board while it is fresh (bot.hooks)."""
        content.setdefault("view", None)
        board = table.row.board_message_id
        if board:
            attachments = [render.picture_file(picture)] if picture else []
            hook = self._board_hook(table)
            try:
                if hook is not None and await _hooked(hook, hook.interaction.followup.edit_message(
                        board, **content, attachments=attachments)) is not REFUSED:
                    return
                if hook is not None:  # the token was refused: a fresh file for the retry
                    attachments = [render.picture_file(picture)] if picture else []
                await self.channel(table).get_partial_message(board).edit(
                    **content, attachments=attachments)
                return
            except discord.NotFound:
                table.row.board_message_id = None
            except discord.HTTPException as exc:
                if not archived(exc):
                    raise
                if table.meta.get("thread_closed"):
                    return  # the game is over and its thread archived: a post would reopen it
                # someone archived the game's thread: an edit there is refused, a new
                # message reopens it (bot.threads); the old board goes as on a repost
                await self._repost(table, picture, **content)
                return
        table.row.board_message_id = await self._post_board(table, picture, **content)

    def _board_hook(self, table: LiveTable) -> Hook | None:
        """The token that posted the current board, if it can still edit and delete it."""
        hook = table.board_hook
        if hook is not None and not (self.bot.settings.webhook_deliveries != NEVER
                                     and hook.fresh()):
            table.board_hook = hook = None
        return hook

    async def _post_board(self, table: LiveTable, picture: Picture | None, **content) -> int:
        """Post a new board: in the channel, a clean message, unless `by_token` says to post
        it as a followup of the latest move's interaction (not bound by the global limit,
        but shown as a reply to the move's ephemeral panel; bot.hooks).

        A post that fails in a way that may have created its message has the janitor read
        the channel for it (bot.board_janitor). A channel post carries a nonce with
        `enforce_nonce`, the same for every try at this version, so a retry returns the
        message an earlier try created (its answer lost or late) instead of a second one."""
        hook = table.hook
        if (hook is not None and by_token(self.bot.settings, self.bot.request_budget)
                and hook.channel_id == table.row.channel_id and await hook.ready()):
            sent = {key: value for key, value in content.items() if value is not None}
            try:
                message = await _hooked(hook, hook.interaction.followup.send(
                    wait=True, **sent, **_upload(picture)))
            except Exception as exc:
                if maybe_created(exc):
                    self.janitor.uncertain(table)
                raise
            if message is not REFUSED:
                table.board_hook = hook
                return message.id
        nonce = self._board_nonce(table)
        try:
            message = await self.channel(table).send(**content, nonce=nonce, **_upload(picture))
        except Exception as exc:
            if maybe_created(exc):
                self.janitor.uncertain(table)
            else:  # refused: nothing was created, the next try is a new post
                table.board_nonce = None
            raise
        table.board_nonce = None
        table.board_hook = None
        return message.id

    @staticmethod
    def _board_nonce(table: LiveTable) -> str:
        """The nonce of this version's board post: the same for its retries, a new one for
        a later version (a post of an earlier version that landed late is then found by
        the janitor's scan: returning it would show an old board, or miss a ping)."""
        kept = table.board_nonce
        if kept and kept[1] == table.version:
            return kept[0]
        nonce = secrets.token_hex(10)  # 20 characters (Discord takes up to 25)
        table.board_nonce = (nonce, table.version)
        return nonce

    async def _drop_legacy_notice(self, table: LiveTable) -> None:
        """Tables saved before the board carried the turn notice have a separate notice
        message; it is deleted once."""
        old = table.meta.pop("turn_message_id", None)
        if old:
            with contextlib.suppress(discord.HTTPException):
                await self.channel(table).get_partial_message(old).delete()

    async def _private_views(self, table: LiveTable, turn_started: set[int],
                             modes: dict[int, str]) -> None:
        """Keep every player's one living DM showing their own secrets (module docstring).

        The DM is edited in place when what it shows changed (an edit does not notify): it
        is rendered for every player on every sync and compared with what it showed (a few
        µs to a few tens of µs a seat), so it can never show something out of date. A new
        DM, which notifies, is sent only when the player's turn starts and they either
        asked for DM pings (`/notify`) or a secret arrived with it that they must act on;
        the old one is then deleted. Its turn line is an event with its time ("came up
        <t:…:R>"), and the next edit drops it.

        Every DM is rendered from one state, before the first DM is awaited: a move made
        while a DM was on its way used to give later seats a newer state than earlier ones."""
        shown = table.meta.setdefault("private_shown", {})
        outgoing = []
        living = table.meta.setdefault("dm_message", {})
        if table.finished:
            # it ended since the sync read whose turn it was: the DMs rendered below show
            # the end, and a turn line on them would never be edited away
            turn_started = set()
        for seat, info in enumerate(table.seats):
            events = table.pending_private.pop(seat, [])
            user_id = info.get("user_id")
            # an AI seat has no DM; one playing for a timed-out player keeps theirs as it
            # was (they may take it back), until the game's end says it is over
            if not user_id or (info.get("ai") and not info.get("left")
                               and not (table.finished and info.get("replaced"))):
                continue
            closed = render.closed_embed(table, seat)  # they left, or it was cancelled
            if closed is not None:  # said once, by editing their DM (never a new one)
                looks = _digest(closed.to_dict())
                if str(seat) in living and looks != shown.get(str(seat)):
                    outgoing.append((seat, user_id, looks, [], (closed, None), False))
                continue
            ping = user_id in turn_started and (modes.get(user_id) == DM or bool(events))
            base = render.private_embed(table, seat, with_table=False)
            looks = _digest(base.to_dict())
            if looks == shown.get(str(seat)) and not events and not ping:
                continue  # nothing the player would see is new
            embed = (render.private_embed(table, seat, events, with_table=False) if events
                     else base)
            # this state's view, like the embed
            job = render.hand_picture_job(table, seat, with_table=False)
            new = ping or str(seat) not in living
            outgoing.append((seat, user_id, looks, events, (embed, job), new))
        for index, (seat, user_id, looks, events, (embed, job), new) in enumerate(outgoing):
            if dms_paused(table, user_id):  # stopped after a 403: no picture drawn
                shown[str(seat)] = looks
                continue
            if not table.finished and not await self.dm_ready(table, user_id):
                # its channel is being opened (one bucket for the whole bot, see
                # __init__): the sync run when it is open sends this; the boards meanwhile
                # do not wait. (A game's last sync waits: none follows it.)
                table.pending_private[seat][:0] = events
                continue
            picture = None
            if job is not None and await self.pictures.for_user(user_id, table.row.guild_id):
                picture = await render.draw(job)
            render.show_picture(embed, picture)
            content = (f"🎯 Your turn in {table.engine.title} came up <t:{int(time.time())}:R> "
                       f"in <#{table.row.channel_id}>: **Take my turn** on the board."
                       if new and user_id in turn_started else None)
            delivered = await self.dm(table, user_id, embed=embed, content=content,
                                      picture=picture,
                                      edit=None if new else living.get(str(seat)),
                                      replace=living.get(str(seat)) if new else None)
            if delivered is None:  # a passing failure: keep the news for the retry
                if table.dropped:  # none for a cancelled game: the others' DMs still go
                    continue
                for later, _, _, events, _, _ in outgoing[index:]:
                    table.pending_private[later][:0] = events
                raise DeliveryIncomplete(f"DM to seat {seat} failed")
            if delivered is not False:
                living[str(seat)] = delivered
            shown[str(seat)] = looks

    async def _known_dm(self, user_id: int) -> int | None:
        """The player's DM channel if it was ever opened: from memory, else the database
        (read outside the open queue, so a known player never waits behind others' opens).
        The database is only a saving here: if it fails, the channel is opened again."""
        channel_id = self._dm_channels.get(user_id)
        if channel_id is None:
            try:
                channel_id = await self.service.storage.dm_channel(user_id)
            except Exception:  # the database down must not stop the DM
                log.warning("could not read %s's DM channel", user_id, exc_info=True)
            if channel_id is not None:
                self._dm_channels[user_id] = channel_id
        return channel_id

    async def dm_channel_id(self, user_id: int) -> int:
        """The player's DM channel: known (`_known_dm`), else opened (one open at a time:
        see __init__) and stored."""
        channel_id = await self._known_dm(user_id)
        if channel_id is not None:
            return channel_id
        async with self._opening_dm:
            channel_id = self._dm_channels.get(user_id)  # opened while we waited?
            if channel_id is not None:
                return channel_id
            channel_id = (await self.bot.create_dm(discord.Object(id=user_id))).id
            self._dm_channels[user_id] = channel_id
        try:
            await self.service.storage.set_dm_channel(user_id, channel_id)
        except Exception:  # kept in memory only: opened again after a restart
            log.warning("could not store %s's DM channel", user_id, exc_info=True)
        return channel_id

    async def dm_ready(self, table: LiveTable, user_id: int) -> bool:
        """Whether a DM to the player can go now without waiting for an open: its channel
        is known, or an open ahead failed (the DM then opens it itself). If not, it is
        opened in the background and the table is delivered again once it is."""
        if user_id in self._open_failed or await self._known_dm(user_id) is not None:
            return True
        self.open_dm_soon(user_id, table)
        return False

    def open_dm_soon(self, user_id: int, table: LiveTable | None = None) -> None:
        """Open the player's DM channel in the background (once, however often asked);
        then deliver `table` again, if given and still live."""
        if user_id in self._dm_channels:
            return
        task = self.dm_opens.get(user_id)
        if task is None:
            task = self.dm_opens[user_id] = asyncio.create_task(
                self._open_ahead(user_id), name=f"dm-open-{user_id}")
            task.add_done_callback(lambda _: self.dm_opens.pop(user_id, None))
        if table is not None:
            task.add_done_callback(lambda done: self._opened_for(table, done))

    async def _open_ahead(self, user_id: int) -> None:
        try:
            await self.dm_channel_id(user_id)
            self._open_failed.discard(user_id)
        except Exception as exc:
            log.info("could not open %s's DM channel ahead (%s); their next DM will",
                     user_id, exc)
            self._open_failed.add(user_id)

    def _opened_for(self, table: LiveTable, done: asyncio.Task) -> None:
        if not done.cancelled() and not table.dropped \
                and self.service.live.get(table.id) is table:
            self.service.schedule_delivery(table)

    async def dm(self, table: LiveTable, user_id: int, *, edit: int | None = None,
                 replace: int | None = None, picture: Picture | None = None,
                 **content) -> int | bool | None:
        """DM a player: edit their message `edit` in place (no notification), or send a new
        one (deleting `replace` after it). The message id = delivered; False = their DMs
        are closed (the channel is told once, never the secret itself; no DM is tried again
        until they interact); None = a passing failure (e.g. rate limited): retry later."""
        if dms_paused(table, user_id):
            return False
        try:
            channel_id = await self.dm_channel_id(user_id)
            try:
                return await self._send_dm(channel_id, edit, replace, picture, content)
            except (discord.NotFound, discord.Forbidden) as exc:
                if exc.code not in STALE_DM_CODES:
                    raise
                # The channel we kept is not this bot's any more (the database came from
                # another bot token, or Discord dropped it): forget it, open the player's
                # channel afresh and send once more, as a new message.
                log.warning("table %s: %s's stored DM channel %s is gone (%s); opening it "
                            "again", table.id, user_id, channel_id, exc.code)
                await self.forget_dm_channel(user_id, channel_id)
                return await self._send_dm(await self.dm_channel_id(user_id), None, None,
                                           picture, content)
        except discord.Forbidden as exc:
            log.info("table %s: DM to %s refused (%s); no more DMs to them in this game",
                     table.id, user_id, exc)
            _add(table.meta.setdefault("dm_closed", []), user_id)
            told = table.meta.setdefault("dm_told", [])
            # not once their part is over (the game ended or was cancelled, or they left):
            # the note sends them to **My hand** for cards there are none of to see
            if user_id not in told and not table.finished and table.seat_of(user_id) is not None:
                told.append(user_id)
                await self.announce(table, f"📪 <@{user_id}>, I can't send you direct messages "
                                    "(they may be closed for this server). Use the **My hand** "
                                    f"button or `/{table.ui.command} hand` to see your cards.",
                                    ping=(user_id,))
            self.service.meta_changed(table)
            return False
        except discord.HTTPException as exc:
            log.warning("table %s: DM to %s failed for now (%s)", table.id, user_id, exc)
            return None

    async def _send_dm(self, channel_id: int, edit: int | None, replace: int | None,
                       picture: Picture | None, content: dict) -> int:
        """Edit message `edit` in the DM channel, or send a new one and delete `replace`."""
        channel = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
        if edit is not None:
            try:
                # the attachments list is the new picture alone: the old one goes
                await channel.get_partial_message(edit).edit(
                    **content, attachments=[render.picture_file(picture)] if picture else [])
                return edit
            except discord.NotFound as exc:
                if exc.code in STALE_DM_CODES:
                    raise
                # the message is gone: send a new one
        message = await channel.send(**content, **_upload(picture))
        if replace is not None:
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(replace).delete()
        return message.id

    async def forget_dm_channel(self, user_id: int, channel_id: int) -> None:
        """Drop a DM channel that no longer works, in memory and in the database, so the
        next DM opens the player's channel again (only that id: a newer one stays)."""
        if self._dm_channels.get(user_id) == channel_id:
            del self._dm_channels[user_id]
        try:
            await self.service.storage.forget_dm_channel(user_id, channel_id)
        except Exception:  # the next restart reads it back once and forgets it again
            log.warning("could not forget %s's DM channel", user_id, exc_info=True)

    def retry_dms(self, user_id: int, tables: list[LiveTable]) -> list[LiveTable]:
        """The player asked for DMs again (**Try DMs again**, `/notify dm`): at each of
        `tables` where their DMs were stopped, the next delivery makes exactly one new try
        at their hand DM (a refusal stops them again; the channel is not told twice).
        Returns the tables where DMs had been stopped."""
        resumed = []
        for table in tables:
            paused = table.meta.get("dm_closed")
            if not paused or user_id not in paused:
                continue
            paused.remove(user_id)
            hinted = table.meta.get("dm_hinted")
            if hinted and user_id in hinted:
                hinted.remove(user_id)  # stopped again: say so again
            seat = next((s for s, info in enumerate(table.seats)
                         if info.get("user_id") == user_id), None)
            if seat is not None:  # what the DM shows is due again
                table.meta.get("private_shown", {}).pop(str(seat), None)
            self.service.meta_changed(table)
            self.service.schedule_delivery(table)
            resumed.append(table)
        return resumed

    async def close_private_views(self, table: LiveTable) -> None:
        """A cancelled game's living DMs say so (`render.closed_embed`), once, by an edit. A
        DM that can't be edited now stays as it was: the table is gone, nothing retries it
        (and the others are edited all the same: `_private_views` goes on past it)."""
        if table.state is None or not table.meta.get("dm_message"):
            return  # a lobby: no DMs yet
        try:
            await self._private_views(table, set(), {})
        except discord.HTTPException:
            log.warning("table %s: could not mark its DMs cancelled", table.id, exc_info=True)

    async def _final(self, table: LiveTable) -> None:
        if table.meta.get("final_posted"):
            return  # a later sync of a finished table must not post the result again
        table.meta["final_posted"] = True
        engine = table.engine
        outcome = engine.outcome(table.state)
        # the result goes to the lobby's channel, also when the game had its own thread
        channel = self.bot.get_partial_messageable(table.row.parent_id or table.row.channel_id)
        safe = table.names
        names = [f"{name} (left)" if s.get("left") else name
                 for s, name in zip(table.seats, safe, strict=True)]
        text = table.ui.render_result(outcome, engine.view(table.state, None), names)
        left = [name for s, name in zip(table.seats, safe, strict=True) if s.get("left")]
        if left:
            text += (f"\n\n🚪 {', '.join(left)} left during the game; an AI finished for "
                     f"{'them' if len(left) > 1 else 'that seat'} (counted as played, not won).")
        replaced = [name for s, name in zip(table.seats, safe, strict=True)
                    if s.get("replaced") and not s.get("left")]
        if replaced:
            text += (f"\n\n🤖 An AI finished the game for {', '.join(replaced)} after their "
                     "time ran out; the result counts as "
                     "theirs, win or loss.")
        text += await self._rating_lines(table)
        embed = discord.Embed(title=f"🏁 {engine.title} — game over",
                              description=clip(text, DESCRIPTION_LIMIT),
                              colour=table.ui.colour)
        reason = shown(outcome.reason, table.plain_names, markdown=False)  # a footer: raw
        embed.set_footer(text=f"{reason} · /leaderboard and /stats keep the score")
        view = None
        if table.meta.get("match_id"):
            view = RoutedView()
            if any(s.get("user_id") for s in table.seats):
                view.add_item(RematchButton(table.meta["match_id"]))
            view.add_item(ReplayButton(table.meta["match_id"]))
        await channel.send(embeds=render.result_embeds(table, embed),
                           **({"view": view} if view else {}))
        await self.threads.close(table)

    async def _rating_lines(self, table: LiveTable) -> str:
        """How the game moved its players' ratings, for the result (where the server shows
        ratings); nothing if that can't be read now: the result goes out regardless."""
        match_id = table.meta.get("match_id")
        if not match_id or table.row.guild_id is None:
            return ""
        try:
            if not (await self.service.server_settings(table.row.guild_id)).ratings:
                return ""
            changes = await self.service.storage.match_rating_changes(match_id)
        except Exception:
            log.warning("table %s: could not read its rating changes", table.id, exc_info=True)
            return ""
        names = {f"u:{s['user_id']}": name for s, name in zip(table.seats, table.names,
                                                               strict=True) if s.get("user_id")}
        parts = [f"**{names[c['player']]}** {rating_text(*c['after'])} "
                 f"({trend_text(ordinal(*c['after']) - ordinal(*c['before']))})"
                 for c in changes if c["player"] in names]
        return "\n\n📈 Ratings: " + " · ".join(parts) if parts else ""

    # ------------------------------------------------------------------ one-offs
    async def announce(self, table: LiveTable, text: str, *, ping: tuple[int, ...] = ()
                       ) -> None:
        """Post a note in the table's channel; it may ping exactly the users in `ping`. A
        passing failure is logged; a channel that is gone or unwritable raises, so the
        delivery task pauses the table."""
        from bot.tables.service import channel_unusable

        try:
            await self.channel(table).send(clip(text, CONTENT_LIMIT),
                                           allowed_mentions=pings(*ping))
        except discord.HTTPException as exc:
            if channel_unusable(exc):
                raise
            log.warning("table %s: could not post to channel", table.id, exc_info=True)

    async def post_when_ready(self, channel_id: int, text: str) -> None:
        """A note for a channel with no live table (e.g. one that could not be restored),
        once the bot is connected."""
        await self.bot.wait_until_ready()
        try:
            await self.bot.get_partial_messageable(channel_id).send(
                clip(text, CONTENT_LIMIT), allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.warning("could not post to channel %s", channel_id, exc_info=True)

    async def close_lobby(self, table: LiveTable, text: str) -> None:
        """Turn a closed lobby's message into a note (its buttons go)."""
        if table.row.board_message_id:
            with contextlib.suppress(discord.HTTPException):
                await self.channel(table).get_partial_message(table.row.board_message_id).edit(
                    content=text, embeds=[], view=None)

    async def refresh_lobby(self, table: LiveTable) -> None:
        """Show a lobby changed by a command (clicks edit it through their interaction)."""
        if table.row.board_message_id:
            with contextlib.suppress(discord.HTTPException):
                await self.channel(table).get_partial_message(table.row.board_message_id).edit(
                    embed=render.lobby_embed(table), view=render.lobby_view(table))

    async def show_closed(self, table: LiveTable, why: str) -> None:
        if table.row.board_message_id:
            what = "table" if table.playing else "lobby"
            with contextlib.suppress(discord.HTTPException):
                await self.channel(table).get_partial_message(table.row.board_message_id).edit(
                    content=f"❌ This {table.engine.title} {what} was {why}.", embeds=[],
                    view=None)
        await self._drop_legacy_notice(table)
