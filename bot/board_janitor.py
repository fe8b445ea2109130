"""Exactly one live board per table, whatever Discord does.

A board is replaced by posting the new one first and deleting the old one after (a failed
post leaves the old board for the retry). Both halves can fail: a delete can meet 5xx
answers or time out, and a post can time out on our side after Discord created the message
(its answer was lost, or it arrived after `REST_TIMEOUT`). Before, each retry of a delivery
posted yet another board and never tried the old deletes again (12 failed deletes left four
live boards; a slow post left two). So every board the bot may have posted is remembered
until its delete is confirmed:

- `retire(table, message_id)`: a board that is no longer current. It goes on the table's
  `stale_boards` list, saved with the table's bookkeeping, so a restart carries on; it is
  deleted through the token that posted it while that is fresh (outside the global limit)
  and else through the channel, retried 2 s, 4 s, 8 s … up to 5 minutes apart, at most
  `MAX_TRIES` times. Deleted, or already gone (404), it leaves the list.
- `uncertain(table)`: a board post failed in a way that may have created it (a timeout, a
  5xx, a dropped connection). The channel's newest messages are read (one `GET
  /channels/{id}/messages`) a little after the post could have landed, and once more a
  minute later, and every board of this table that is not the current one is retired.
  Boards are recognised by the bot's own authorship and their History button, whose custom
  id names the table (`t:{table}:hist`); the bot always sees its own messages' components,
  intent or not. A scan holds the table's board lock, so it never mistakes a board being
  posted right then for a stale one. A restart after a move whose delivery was cut off
  scans once too: the board posted just before the crash may not be in the saved
  bookkeeping.

Channel posts carry a `nonce` with `enforce_nonce` (bot.delivery), so a retried post of the
same board returns the message an earlier try created instead of making a second one; the
interaction webhook has no nonce, hence the scans.

The work is bounded, so a failing Discord is not met with a storm of requests (each 4xx
counts toward Discord's invalid-request limit): one request per stale board per try, at most
two scans pending per table (a new uncertain post replaces them), and a delete Discord
refuses with 403 is dropped at once (the table pauses on its next post if the bot lost the
channel).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import TYPE_CHECKING

import aiohttp
import discord

from bot.ui.components import button_id

if TYPE_CHECKING:
    from bot.delivery import Publisher
    from bot.hooks import Hook
    from bot.tables.live import LiveTable

log = logging.getLogger("cardtable.boards")

STALE_KEY = "stale_boards"  # [[message id, channel id, tries, due (epoch s)], ...]
SCAN_KEY = "board_scans"  # [due (epoch s), ...]: at most two
MAX_TRIES = 10  # a stale board's deletes, 2 s … 5 min apart (about 20 minutes in all)
FIRST_BACKOFF = 2.0
MAX_BACKOFF = 300.0
SCAN_LIMIT = 50  # messages read per scan (Discord allows 1-100)
LATE_SCAN = 60.0  # seconds after an uncertain post for the second scan
SCAN_TRIES = 5  # a scan that fails is tried again, then given up
DELETES_WAIT = 30.0  # seconds a thread's archiving waits for its old boards' deletes


def backoff(tries: int) -> float:
    """Seconds before the next try after `tries` failed ones: 2, 4, 8 … up to 5 minutes."""
    return min(MAX_BACKOFF, FIRST_BACKOFF * 2.0 ** (tries - 1))


def _passing(exc: BaseException) -> bool:
    """A failure worth another try later (Discord or the network, not a refusal)."""
    if isinstance(exc, discord.HTTPException):
        return exc.status >= 500 or exc.status == 429
    return isinstance(exc, TimeoutError | aiohttp.ClientError | OSError)


def maybe_created(exc: BaseException) -> bool:
    """A post that failed with `exc` may still have created its message: anything but a
    4xx answer, which says Discord refused it."""
    return not (isinstance(exc, discord.HTTPException) and 400 <= exc.status < 500)


class BoardJanitor:
    def __init__(self, publisher: Publisher) -> None:
        self.publisher = publisher
        self._tasks: dict[int, asyncio.Task] = {}
        self._wake: dict[int, asyncio.Event] = {}
        self._hooks: dict[int, Hook] = {}  # stale board id -> the token that posted it
        self._scan_failures: dict[int, int] = {}
        # retire_soon's deletes under way, by table id
        self._deleting: dict[int, set[asyncio.Task]] = {}

    @property
    def bot(self):
        return self.publisher.bot

    # ------------------------------------------------------------------ what to clean
    def retire(self, table: LiveTable, message_id: int, channel_id: int | None = None, *,
               hook: Hook | None = None, tries: int = 0) -> None:
        """`message_id` is a board of `table` that is not current any more: delete it (after
        `tries` failed tries already, later)."""
        stale = table.meta.setdefault(STALE_KEY, [])
        if message_id == table.row.board_message_id or any(e[0] == message_id for e in stale):
            return
        due = time.time() + backoff(tries) if tries else 0.0
        stale.append([message_id, channel_id or self.publisher.channel(table).id, tries, due])
        if hook is not None:
            self._hooks[message_id] = hook
        self.publisher.service.meta_changed(table)
        self.wake(table)

    def retire_soon(self, table: LiveTable, message_id: int, *,
                    hook: Hook | None = None) -> None:
        """`retire_now` in a task of its own: the delivery that replaced the board goes on
        to the players' DMs at once. A delete can wait seconds for the channel's rate-limit
        bucket when boards are reposted often, and a player's hand must not wait behind
        public housekeeping (a DM goes to another channel, another bucket). A delete cut
        off by a shutdown is `retire`d, so it is kept in the table's meta and tried after
        the restart."""
        async def delete() -> None:
            try:
                await self.retire_now(table, message_id, hook=hook)
            except asyncio.CancelledError:
                self.retire(table, message_id, hook=hook, tries=1)
                raise

        task = asyncio.create_task(delete(), name=f"retire-{table.id}-{message_id}")
        tasks = self._deleting.setdefault(table.id, set())
        tasks.add(task)

        def done(task: asyncio.Task) -> None:
            tasks.discard(task)
            if not tasks and self._deleting.get(table.id) is tasks:
                del self._deleting[table.id]

        task.add_done_callback(done)

    async def retire_now(self, table: LiveTable, message_id: int, *,
                         hook: Hook | None = None) -> None:
        """Delete the board just replaced at once (the usual case: one call); if that fails
        for a passing reason it is `retire`d, to be tried again later."""
        channel_id = self.publisher.channel(table).id
        if hook is not None:
            self._hooks[message_id] = hook
        done = await self._delete(message_id, channel_id)
        if done is None:
            self.retire(table, message_id, channel_id, hook=hook, tries=1)
        else:
            self._hooks.pop(message_id, None)

    def uncertain(self, table: LiveTable) -> None:
        """A board post may have created a message we do not know: scan the channel soon
        (once the post could have landed) and a minute later."""
        now = time.time()
        table.meta[SCAN_KEY] = [now + self.bot.settings.rest_timeout + 2.0, now + LATE_SCAN]
        self._scan_failures.pop(table.id, None)
        self.publisher.service.meta_changed(table)
        self.wake(table)

    def resume(self, table: LiveTable, *, undelivered: bool) -> None:
        """After a restart: carry on with the saved list; scan once if the last move's
        delivery was cut off (its board may have been posted but not saved)."""
        if undelivered:
            table.meta[SCAN_KEY] = [time.time()]
        if table.meta.get(STALE_KEY) or table.meta.get(SCAN_KEY):
            self.wake(table)

    def pending(self, table: LiveTable) -> bool:
        return bool(table.meta.get(STALE_KEY) or table.meta.get(SCAN_KEY))

    # ------------------------------------------------------------------ the work
    def wake(self, table: LiveTable) -> None:
        event = self._wake.setdefault(table.id, asyncio.Event())
        event.set()
        task = self._tasks.get(table.id)
        if task is None or task.done():
            self._tasks[table.id] = asyncio.create_task(self._run(table),
                                                        name=f"boards-{table.id}")

    def busy(self) -> bool:
        return bool(self._deleting) or any(not task.done() for task in self._tasks.values())

    async def deletes_done(self, table: LiveTable, timeout: float = DELETES_WAIT) -> None:
        """Wait (a while at most) for the table's boards being deleted by `retire_soon`:
        before its thread is archived, where a delete is refused."""
        tasks = self._deleting.get(table.id)
        if tasks:
            await asyncio.wait(set(tasks), timeout=timeout)

    async def stop(self) -> None:
        tasks = [*(t for ts in self._deleting.values() for t in ts),
                 *(task for task in self._tasks.values() if not task.done())]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _run(self, table: LiveTable) -> None:
        event = self._wake[table.id]
        try:
            await self.bot.wait_until_ready()
            while self.pending(table):
                event.clear()
                now = time.time()
                dues = [e[3] for e in table.meta.get(STALE_KEY) or []]
                dues += table.meta.get(SCAN_KEY) or []
                wait = min(dues) - now
                if wait > 0:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(event.wait(), min(wait, MAX_BACKOFF))
                    continue
                await self._scan_if_due(table)
                await self._delete_due(table)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: cleaning up old boards failed", table.id)
        finally:
            self._wake.pop(table.id, None)

    async def _scan_if_due(self, table: LiveTable) -> None:
        scans = table.meta.get(SCAN_KEY) or []
        now = time.time()
        if not any(due <= now for due in scans):
            return
        try:
            if table.board_nonce is not None and table.board_nonce[1] == table.version:
                # A channel post is still to be tried again with its nonce, and Discord
                # answers that try with the message an earlier try created: it must not be
                # deleted first. Wait for the try (or a move, which drops the nonce).
                raise TimeoutError("a board post is still to be tried again")
            async with table.board_lock:  # no board is being posted meanwhile
                channel_id = self.publisher.channel(table).id
                messages = await self.bot.http.logs_from(channel_id, SCAN_LIMIT)
                current = table.row.board_message_id
                for message in messages:
                    if self._is_board(table, message) and int(message["id"]) != current:
                        log.info("table %s: a stale board %s found in the channel", table.id,
                                 message["id"])
                        self.retire(table, int(message["id"]), channel_id)
        except Exception as exc:
            failures = self._scan_failures.get(table.id, 0) + 1
            self._scan_failures[table.id] = failures
            if _passing(exc) and failures < SCAN_TRIES:
                log.warning("table %s: reading the channel failed (%s); trying again",
                            table.id, exc)
                table.meta[SCAN_KEY] = [now + backoff(failures),
                                        *(d for d in scans if d > now)][:2]
            else:
                log.warning("table %s: reading the channel failed (%s); not trying again",
                            table.id, exc)
                table.meta[SCAN_KEY] = [d for d in scans if d > now]
            self.publisher.service.meta_changed(table)
            return
        self._scan_failures.pop(table.id, None)
        table.meta[SCAN_KEY] = [d for d in scans if d > now]
        if not table.meta[SCAN_KEY]:
            table.meta.pop(SCAN_KEY)
        self.publisher.service.meta_changed(table)

    def _is_board(self, table: LiveTable, message: dict) -> bool:
        """One of this table's boards: the bot's message with its History button."""
        me = self.bot.user
        if me is None or str((message.get("author") or {}).get("id")) != str(me.id):
            return False
        marker = button_id(table.id, "hist")
        return any(child.get("custom_id") == marker
                   for row in message.get("components") or []
                   for child in row.get("components") or [row])

    async def _delete_due(self, table: LiveTable) -> None:
        for entry in list(table.meta.get(STALE_KEY) or []):
            message_id, channel_id, tries, due = entry
            if due > time.time():
                continue
            done = await self._delete(message_id, channel_id)
            stale = table.meta.get(STALE_KEY) or []
            if done is None and tries + 1 < MAX_TRIES:
                entry[2] = tries + 1
                entry[3] = time.time() + backoff(tries + 1)
            else:
                if done is None:
                    log.warning("table %s: board %s could not be deleted after %s tries; "
                                "given up", table.id, message_id, MAX_TRIES)
                with contextlib.suppress(ValueError):
                    stale.remove(entry)
                self._hooks.pop(message_id, None)
            if not stale:
                table.meta.pop(STALE_KEY, None)
            self.publisher.service.meta_changed(table)

    async def _delete(self, message_id: int, channel_id: int) -> bool | None:
        """True: deleted or already gone; False: Discord refuses (not tried again); None:
        a passing failure (tried again later)."""
        from bot.delivery import REFUSED, _hooked

        hook = self._hooks.get(message_id)
        try:
            if hook is not None and hook.fresh() and await _hooked(
                    hook, hook.interaction.followup.delete_message(message_id)) is not REFUSED:
                return True
            await self.bot.get_partial_messageable(channel_id).get_partial_message(
                message_id).delete()
            return True
        except discord.NotFound:
            return True
        except Exception as exc:
            if _passing(exc):
                log.info("deleting old board %s failed for now (%s)", message_id, exc)
                return None
            log.warning("deleting old board %s refused (%s)", message_id, exc)
            return False
