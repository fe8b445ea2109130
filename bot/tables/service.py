"""The table service: lobby, seats, turns, timers, AI seats, recovery and results.

Generic over engines: it never looks inside a game's state. Every change follows one path,
`_commit`: per-table lock, engine.apply on a draft of the table, persist the draft (the
version bump and the new state in one transaction), make the saved draft the live table, and
only then the messages (scheduled on the table's delivery task). A failed save leaves the
live table exactly as it was, so the next move works once the database does. No Discord call
is made while a table lock is held: notes for the channel go through the delivery task.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import time
from typing import TYPE_CHECKING, Any

import discord

from bot.log_window import LogWindow
from bot.ratings import RatingJob
from bot.replay.record import (
    RECORD_FORMAT,
    GameRecord,
    build_record,
    chain_link,
    entry_lines,
    move_entry,
    outcome_json,
    start_entry,
)
from bot.storage import StaleVersionError, StorageError, UnreadableRow
from bot.tables.live import LiveTable
from bot.tables.settings import SERVER_KEY, ServerSettings, resolve_options, resolve_server
from bot.threads import thread_gone
from bot.ui.text import plural, shown
from bot.uploads import EmbedsRefused
from engines.core import (
    Event,
    GameError,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    public,
)

if TYPE_CHECKING:
    from bot.app import CardTableBot
    from bot.game_ui import GameUI

log = logging.getLogger("cardtable.tables")
RETRY_LIMIT = 5  # delivery attempts after a failure before giving up until the next move
META_FLUSH_SECONDS = 0.5
META_RETRY_SECONDS = 5.0  # after the database refused a bookkeeping save
PRUNE_SECONDS = 3600.0  # how often old replay records are dropped
SPILL_BYTES = 4096  # move lines a table's row holds before they go to table_moves
AI_MARK = "🤖"  # in front of an AI seat's name, and of no member's (ui.handlers.display_name)
AI_NAMES = ("Ada", "Babbage", "Turing", "Lovelace", "Hopper", "Knuth", "Shannon", "Dijkstra",
            "Liskov", "Ritchie", "Wirth", "Hamilton")


class TableError(Exception):
    """A refusal shown to the user ephemerally; nothing was changed."""


class SaveFailed(TableError):
    """The database refused the save: the change did not happen (memory is unchanged)."""

    def __init__(self) -> None:
        # said of every change a save carries (a move, a join, a seat taken back, ...)
        super().__init__("I couldn't save that: the bot's database is failing right now, so "
                         "it did **not** happen and nothing changed. Please try again in a "
                         "moment.")


# How long a human who opened their move panel to act on the last move (Hidden Rules: to
# enforce) holds the AI seats' next move, at least: time to name the rule and type a hint.
PANEL_HOLD_SECONDS = 30.0
SAVE_RETRY_SECONDS = (1.0, 2.0, 5.0, 10.0, 30.0)  # an AI seat's waits after failed saves


def arrange_teams(seats: list[dict[str, Any]], k: int) -> list[dict[str, Any]]:
    """Seat k equal teams alternately (seat i belongs to team i % k), honouring choices.

    Players who picked no team (and AI seats) fill the smallest teams.
    """
    n = len(seats)
    if n % k:
        raise TableError(f"{n} players can't form {k} equal teams.")
    size = n // k
    teams: list[list[dict[str, Any]]] = [[] for _ in range(k)]
    free = []
    for seat in seats:
        team = seat.get("team")
        (teams[team] if isinstance(team, int) and 0 <= team < k else free).append(seat)
    for i, members in enumerate(teams):
        if len(members) > size:
            raise TableError(f"Teams must be equal: Team {i + 1} has {len(members)} players, "
                             f"the most is {size}.")
    for seat in free:
        smallest = min(range(k), key=lambda t: len(teams[t]))
        teams[smallest].append(seat)
    ordered = []
    for i in range(n):
        member = teams[i % k][i // k]
        member["team"] = i % k
        ordered.append(member)
    return ordered


class TableService:
    def __init__(self, bot: CardTableBot) -> None:
        self.bot = bot
        self.uis: dict[str, GameUI] = {}
        self.live: dict[int, LiveTable] = {}
        self._tick_task: asyncio.Task | None = None
        self._prune_task: asyncio.Task | None = None
        self._flush_task: asyncio.Task | None = None
        self._meta_dirty: dict[int, LiveTable] = {}
        self._opening: dict[tuple[int | None, int], int] = {}  # lobbies being created
        # background work stopped with the service: channel notes waiting for the
        # connection, DM channels opened as players sit down (open_dms_soon)
        self._notes: set[asyncio.Task] = set()
        self._notify: dict[int, str] = {}  # user id -> /notify choice
        self._history: list[tuple[int, int, str]] = []  # lines waiting for the next batch
        self._spill: set[int] = set()  # tables whose move lines go out of their row next
        self._flush_lock = asyncio.Lock()
        from bot.ai_worker import AiWorker
        from bot.delivery import Publisher

        self.publisher = Publisher(bot, self)
        self.ai_worker = AiWorker(workers=bot.settings.ai_workers,
                                  timeout=bot.settings.ai_worker_timeout)

    @property
    def storage(self):
        return self.bot.storage

    @property
    def settings(self):
        return self.bot.settings

    def register_ui(self, ui: GameUI) -> None:
        self.uis[ui.engine.name] = ui

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        """Re-attach every stored table; timers restart from now (downtime is not charged).

        Tables load one by one: one that can't be restored (unreadable row, a game that is
        not loaded, a state its engine refuses) is quarantined and its channel told, and the
        others start."""
        rows = await self.storage.active_tables()  # StorageUnavailable if corrupt
        self.storage.on_user_settings_changed(self._user_settings_changed)
        settings = self.bot.settings
        for row in rows:
            if not settings.owns(row.guild_id):
                continue  # another process runs this server's shard (SHARD_IDS)
            try:
                if isinstance(row, UnreadableRow):
                    raise ValueError(row.reason)
                await self._attach(row)
            except Exception as exc:  # whatever the row did, quarantine it
                self.live.pop(row.id, None)
                await self._quarantine(row, exc)
        self._tick_task = asyncio.create_task(self._tick_loop(), name="table-timers")
        self._prune_task = asyncio.create_task(self._prune_loop(), name="prune-records")

    async def _attach(self, row) -> None:
        ui = self.uis.get(row.game)
        if ui is None:
            raise ValueError(f"the game {row.game!r} is not loaded")
        table = LiveTable(row=row, ui=ui)
        if row.status == "playing":
            if not row.state:
                raise ValueError("a game without a state")
            table.state = ui.engine.load(row.state)
            over = ui.engine.outcome(table.state) is not None
        self.live[row.id] = table
        if not table.playing:
            return
        if over:
            await self._finish(table)
            return
        self.meta_changed(table)
        if table.paused:
            return  # waits for /board in its channel (see resume)
        self._reset_deadline(table, force=True)
        self._schedule_ai(table)
        undelivered = row.meta.get("delivered_version") != row.version
        if undelivered:
            self.schedule_delivery(table)  # messages for the last move may be missing
        # old boards still to delete; a board posted just before a crash may be unsaved
        self.publisher.janitor.resume(table, undelivered=undelivered)

    async def _quarantine(self, row, exc: Exception) -> None:
        """Set a table that can't be restored aside (kept in `quarantined_tables`) and tell
        its channel once the bot is connected."""
        reason = f"{type(exc).__name__}: {exc}"[:500]
        log.error("table %s (channel %s, %s) can't be restored and was quarantined: %s",
                  row.id, row.channel_id, row.game, reason)
        await self.storage.quarantine_table(row.id, reason)
        if row.channel_id:
            game = self.uis.get(row.game or "")
            name = f"**{game.engine.title}** " if game else ""
            how = f" `/{game.command} new` starts a new one." if game else ""
            self._notes.add(task := asyncio.create_task(self.publisher.post_when_ready(
                row.channel_id, f"⚠️ The {name}game in this channel could not be restored "
                f"after the bot restarted (its saved data is unreadable); it was set aside for "
                f"the bot's operator.{how}"), name=f"quarantine-note-{row.id}"))
            task.add_done_callback(self._notes.discard)

    def open_dms_soon(self, user_ids: list[int | None]) -> None:
        """Open the DM channels of players sitting down at a lobby, in the background (never
        in the answer to their click). Opening one is a single rate-limit bucket for the
        whole bot (bot.delivery.Publisher.dm_channel_id): left to the game's start, a
        12-player table's opens queued for about 10 s before its DMs; joins come one click
        at a time, so their opens rarely queue."""
        for user_id in user_ids:
            if user_id is not None:
                self.publisher.open_dm_soon(user_id)

    async def stop(self) -> None:
        """Stop timers, AI seats and deliveries without cutting a move in half: each table's
        lock is taken first, so a move being saved finishes before its task is cancelled."""
        tasks = [t for t in [self._tick_task, self._prune_task, *self._notes,
                             *self.publisher.dm_opens.values()] if t]
        for task in tasks:
            task.cancel()
        for table in list(self.live.values()):
            async with table.lock:
                for task in (table.ai_task, table.delivery_task):
                    if task and not task.done():
                        task.cancel()
                        tasks.append(task)
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.publisher.janitor.stop()  # what it had not deleted is in the tables' meta
        await self.ai_worker.close()
        if self._flush_task and not self._flush_task.done():
            self._flush_task.cancel()
            await asyncio.gather(self._flush_task, return_exceptions=True)
        try:
            await self.flush_meta()
        except StorageError as exc:  # e.g. the database session is gone: moves are safe
            log.warning("bookkeeping of %d table(s) could not be saved at shutdown (%s); "
                        "their boards may be sent again after the restart",
                        len(self._meta_dirty), exc)

    # ------------------------------------------------------------------ lookup
    def in_channel(self, channel_id: int) -> LiveTable | None:
        for table in self.live.values():
            if table.row.channel_id == channel_id:
                return table
        return None

    def get(self, table_id: int) -> LiveTable:
        table = self.live.get(table_id)
        if table is None:
            raise TableError("This table has ended or been cancelled.")
        return table

    # ------------------------------------------------------------------ lobby
    async def open_lobby(self, game: str, *, guild_id: int | None, channel_id: int,
                         host_id: int, host_name: str, overrides: dict[str, Any]) -> LiveTable:
        ui = self.uis[game]
        existing = self.in_channel(channel_id)
        if existing is not None:
            what = "a lobby" if not existing.playing else "a game"
            raise TableError(f"This channel already has {what} of {existing.ui.engine.title}. "
                             "Finish or cancel it first, or use another channel.")
        defaults = await self.storage.get_game_settings(guild_id, game) if guild_id else {}
        # the bot's settings, then the server's defaults, then the host's choices
        base = {key: value for key, value in (("turn_seconds", self.settings.turn_seconds),
                                              ("afk_turns", self.settings.afk_turns))
                if key not in ui.engine.Options.model_fields}  # a game's own limit wins
        _, server = resolve_options(ui.engine, base, defaults)
        if overrides and not server.host_options:
            raise TableError("On this server the game options are set by moderators "
                             "(`/config`); open the lobby without options.")
        options, table_settings = resolve_options(ui.engine, base, defaults, overrides)
        return await self._create_lobby(
            game, guild_id=guild_id, channel_id=channel_id, host_id=host_id,
            seats=[{"user_id": host_id, "name": host_name, "ai": False}],
            options={"game": options.model_dump(), "table": table_settings.model_dump()})

    async def _create_lobby(self, game: str, *, guild_id: int | None, channel_id: int,
                            host_id: int, seats: list[dict[str, Any]],
                            options: dict[str, Any], meta: dict[str, Any] | None = None,
                            ) -> LiveTable:
        server = await self.server_settings(guild_id)
        meta = {**(meta or {}), "touched": time.time(),
                "idle_seconds": server.lobby_idle_minutes * 60}
        host_key = (guild_id, host_id)
        self._check_lobby_cap(guild_id, host_id, server.lobbies_per_member)
        self._opening[host_key] = self._opening.get(host_key, 0) + 1  # until it is live
        try:
            row = await self.storage.create_table(
                guild_id=guild_id, channel_id=channel_id, game=game, host_id=host_id,
                seats=seats, options=options, meta=meta)
        except StorageError as exc:
            log.error("channel %s: could not open a lobby: %s", channel_id, exc)
            raise SaveFailed() from None
        finally:
            self._opening[host_key] -= 1
            if not self._opening[host_key]:
                del self._opening[host_key]
        if row is None:
            raise TableError("This channel already has a table.")
        table = LiveTable(row=row, ui=self.uis[game])
        self.live[row.id] = table
        self.open_dms_soon([s.get("user_id") for s in seats if not s.get("ai")])
        return table

    def _check_lobby_cap(self, guild_id: int | None, host_id: int, cap: int) -> None:
        """One member may host at most `cap` open lobbies on a server (the server setting
        `lobbies_per_member`), so nobody can hold lobbies in every channel; the refusal says
        where theirs are."""
        if guild_id is None:
            return
        mine = [t for t in self.live.values() if not t.playing and not t.finished
                and t.row.guild_id == guild_id and t.row.host_id == host_id]
        if len(mine) + self._opening.get((guild_id, host_id), 0) < cap:
            return
        where = ", ".join(f"<#{t.row.channel_id}>" for t in mine[:5]) or "another channel"
        raise TableError(f"You already host {plural(max(len(mine), 1), 'open lobby', 'open lobbies')} "
                         f"on this server (at most {cap}): {where}. Start or cancel "
                         f"{'it' if len(mine) <= 1 else 'one'} first.")

    async def notify_modes(self, user_ids: list[int]) -> dict[int, str]:
        """Each user's `/notify` choice (`channel` unless they chose otherwise); read from
        storage once per user and kept."""
        for uid in user_ids:
            if uid not in self._notify:
                stored = await self.storage.get_user_settings(uid)
                self._notify[uid] = stored.get("notify", "channel")
        return {uid: self._notify[uid] for uid in user_ids}

    def _user_settings_changed(self, user_id: int) -> None:
        """A process of the bot (on PostgreSQL maybe another one) stored this user's
        settings: read them again when next needed."""
        self._notify.pop(user_id, None)
        self.publisher.pictures.user_changed(user_id)

    async def set_notify(self, user_id: int, mode: str) -> None:
        stored = await self.storage.get_user_settings(user_id)
        await self.storage.set_user_settings(user_id, {**stored, "notify": mode})
        self._notify[user_id] = mode

    async def server_settings(self, guild_id: int | None) -> ServerSettings:
        stored = await self.storage.get_game_settings(guild_id, SERVER_KEY) if guild_id else {}
        return resolve_server(stored)

    async def rematch(self, match_id: int, *, user_id: int, name: str, guild_id: int | None,
                      channel_id: int) -> LiveTable:
        """**Play again**: a new lobby with the finished game's seats and options. The one
        who pressed it hosts; AI seats come back; the other players are invited and confirm
        by pressing Join."""
        match = await self.storage.match(match_id)
        if match is None or match["game"] not in self.uis:
            raise TableError("I no longer have that game's record; open a new lobby instead.")
        if match["guild_id"] != guild_id:  # a crafted button from another server
            raise TableError("That game was played on another server.")
        humans = [p for p in match["players"] if p.get("user_id")]  # AI seats have none
        if all(p["user_id"] != user_id for p in humans):
            raise TableError("Only the players of that game can start a rematch from it. "
                             f"Open your own lobby with `/{self.uis[match['game']].command} "
                             "new`.")
        existing = self.in_channel(channel_id)
        if existing is not None:
            what = "a lobby" if not existing.playing else "a game"
            raise TableError(f"This channel already has {what} of {existing.ui.engine.title}.")
        seats = [{"user_id": user_id, "name": name, "ai": False}]
        seats += [{"user_id": None, "name": p["name"], "ai": True} for p in match["players"]
                  if p.get("user_id") is None]
        invited = [p["user_id"] for p in humans if p["user_id"] != user_id
                   and not p.get("left")]
        return await self._create_lobby(
            match["game"], guild_id=guild_id, channel_id=channel_id, host_id=user_id,
            seats=seats[:self.uis[match["game"]].engine.max_players],
            options=match["options"], meta={"invited": invited, "rematch_of": match_id})

    async def join(self, table_id: int, user_id: int, name: str) -> LiveTable:
        table = self.get(table_id)
        async with table.lock:
            self._need_lobby(table)
            if table.seat_of(user_id) is not None:
                raise TableError("You're already seated at this table.")
            if user_id in (table.meta.get("removed") or []):
                raise TableError("The host removed you from this lobby, so you can't join it "
                                 "again. You can open a lobby of your own with "
                                 f"`/{table.ui.command} new` in another channel.")
            if len(table.seats) >= table.engine.max_players:
                raise TableError(f"The table is full ({table.engine.max_players} seats).")
            draft = table.draft()
            draft.seats.append({"user_id": user_id, "name": name, "ai": False})
            invited = draft.meta.get("invited") or []
            if user_id in invited:
                invited.remove(user_id)
            await self._save(table, draft)
        self.open_dms_soon([user_id])
        return table

    async def leave(self, table_id: int, user_id: int) -> LiveTable | None:
        """Leave a lobby; the host leaving hands the lobby over (or closes an empty one)."""
        table = self.get(table_id)
        async with table.lock:
            self._need_lobby(table)
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("You're not seated at this table.")
            draft = table.draft()
            draft.seats.pop(seat)
            humans = [s for s in draft.seats if not s.get("ai")]
            if not humans:
                await self._drop(table)
                return None
            if draft.row.host_id == user_id:
                draft.row.host_id = humans[0]["user_id"]
            await self._save(table, draft)
        return table

    async def remove_seat(self, table_id: int, user_id: int, seat: int) -> tuple[LiveTable, str]:
        """The host removes an AI seat or a player from the lobby (not themselves: they use
        Leave). A removed player can't join that lobby again (else removing would only
        cost them a click). Returns the table and the removed seat's name."""
        table = self.get(table_id)
        async with table.lock:
            self._need_lobby(table)
            if user_id != table.row.host_id:
                raise TableError("Only the host can remove seats.")
            if not 0 <= seat < len(table.seats):
                raise TableError("That seat is already empty.")
            if table.seats[seat].get("user_id") == user_id:
                raise TableError("That's your own seat: use **Leave** (the lobby passes to "
                                 "the next player) or **Cancel**.")
            draft = table.draft()
            removed = draft.seats.pop(seat)
            if removed.get("user_id") and not removed.get("ai"):
                draft.meta.setdefault("removed", []).append(removed["user_id"])
            await self._save(table, draft)
        return table, removed["name"]

    async def resign(self, table_id: int, user_id: int) -> tuple[LiveTable, str]:
        """A player leaves a running game: an AI plays their seat to the end, and the result
        records them as having left (played, not won). If nobody else is left, the game is
        cancelled. Returns the table and the notice for the channel."""
        table = self.get(table_id)
        async with table.lock:
            if not table.playing or table.finished:
                raise TableError("The game hasn't started: use **Leave** in the lobby.")
            seat = self.seat_for(table, user_id)
            others = [s for s in table.seats if s.get("user_id") and not s.get("ai")
                      and s.get("user_id") != user_id]
            if not others:
                await self._drop(table)
                cancelled = True
            else:
                cancelled = False
                draft = table.draft()
                info = draft.seats[seat]
                info.update(ai=True, left=True)
                info.pop("replaced", None)
                if draft.row.host_id == user_id:
                    draft.row.host_id = others[0]["user_id"]
                for key in ("expiries", "expired_turns"):
                    draft.meta.get(key, {}).pop(str(seat), None)
                note = f"🚪 {{P{seat}}} left the game; an AI plays their seat from now on."
                draft.add_note([public("left", note)])
                self._reset_deadline(draft)
                await self._save(table, draft)
        if cancelled:
            table.closing_note = "cancelled: the last player left"
            self.schedule_delivery(table)
            return table, f"🚪 {table.names[seat]} left; nobody else was playing, so the " \
                          "game was cancelled."
        self._schedule_ai(table)
        self.schedule_delivery(table)
        return table, shown(note, table.names)

    async def add_ai(self, table_id: int, user_id: int) -> LiveTable:
        table = self.get(table_id)
        async with table.lock:
            self._need_lobby(table)
            if user_id != table.row.host_id:
                raise TableError("Only the host can add AI players.")
            if len(table.seats) >= table.engine.max_players:
                raise TableError(f"The table is full ({table.engine.max_players} seats).")
            used = {s["name"] for s in table.seats}
            name = next((f"{AI_MARK} {n}" for n in AI_NAMES if f"{AI_MARK} {n}" not in used),
                        f"{AI_MARK} AI")
            draft = table.draft()
            draft.seats.append({"user_id": None, "name": name, "ai": True})
            await self._save(table, draft)
        return table

    async def start_game(self, table_id: int, user_id: int, *, place: str = "channel"
                         ) -> LiveTable:
        """Start the lobby's game. `place` "thread": the delivery task plays it in a thread
        of the lobby's channel (bot.threads; Start checked that the bot may make one)."""
        table = self.get(table_id)
        async with table.lock:
            self._need_lobby(table)
            if user_id != table.row.host_id:
                raise TableError("Only the host can start the game.")
            engine = table.engine
            n = len(table.seats)
            if not engine.min_players <= n <= engine.max_players:
                raise TableError(f"{engine.title} needs {engine.min_players}–"
                                 f"{engine.max_players} players; {n} seated.")
            fixed = self.settings.game_seed
            seed = (fixed * 1_000_003 + table.id if fixed is not None
                    else int.from_bytes(os.urandom(6), "big"))
            draft = table.draft()
            if table.table_settings.shuffle_seats:
                random.Random(seed).shuffle(draft.seats)
            if table.team_count >= 2:
                draft.row.seats = arrange_teams(draft.seats, table.team_count)
            try:
                state = engine.new_game(n, seed, table.game_options)
            except (GameError, ValueError) as exc:
                raise TableError(f"Can't start with these options: {exc}") from None
            draft.state = state
            draft.row.status = "playing"
            draft.row.started_at = time.time()
            draft.meta["seed"] = seed
            draft.record_entries.append(start_entry(seed, n))
            draft.meta["chain"] = chain_link("", engine, state)
            draft.meta["chain_format"] = RECORD_FORMAT
            # The lobby was an interaction reply; the board is a message of the bot's own.
            draft.meta["lobby_message_id"] = draft.row.board_message_id
            draft.meta["lobby_channel_id"] = draft.row.channel_id
            draft.meta["place"] = place
            draft.row.board_message_id = None
            draft.add_log([public("start", f"The game begins with {n} players.")])
            self._reset_deadline(draft, force=True)
            await self._save(table, draft)
        self._schedule_ai(table)
        self.schedule_delivery(table)
        return table

    async def choose_team(self, table_id: int, user_id: int, team: int) -> LiveTable:
        table = self.get(table_id)
        async with table.lock:
            self._need_lobby(table)
            seat = table.seat_of(user_id)
            if seat is None:
                raise TableError("Join the table first, then pick a team.")
            if not 0 <= team < table.team_count:
                raise TableError("There is no such team.")
            draft = table.draft()
            draft.seats[seat]["team"] = team
            await self._save(table, draft)
        return table

    async def cancel(self, table_id: int, user_id: int, *, moderator: bool) -> LiveTable:
        table = self.get(table_id)
        async with table.lock:
            if user_id != table.row.host_id and not moderator:
                raise TableError("Only the host or a moderator can cancel this table.")
            await self._drop(table)
        # closed by the delivery task, after any board post under way (which it then closes)
        self.schedule_delivery(table)
        return table

    # ------------------------------------------------------------------ playing
    async def act(self, table_id: int, user_id: int, action: Any, *,
                  version: int | None = None, hook: Any = None
                  ) -> tuple[LiveTable, str, list[str]]:
        """A human's move. Returns the table, a short text of what was done, and the texts
        of the private events only this player was told (e.g. the card they drew). `hook`
        (bot.hooks) becomes the table's as the move is saved, before the delivery it
        schedules can run, so that delivery may post with the move's token."""
        table = self.get(table_id)
        async with table.lock:
            if not table.playing:
                raise TableError("The game hasn't started yet.")
            need_unpaused(table)
            if version is not None and version != table.version:
                raise TableError("This board is out of date (someone moved since). "
                                 "Open **Take my turn** again.")
            seat = self.seat_for(table, user_id)
            draft = table.draft()
            self._seat_back(draft, seat)
            text = shown(table.engine.describe(table.state, action), table.names)
            events = await self._commit(table, seat, action, draft)
            if hook is not None:
                table.hook = hook  # no await since the delivery was scheduled
        secrets = [shown(e.text, table.names) for e in events
                   if e.visible_to is not None and seat in e.visible_to]
        return table, text, secrets

    @staticmethod
    def _seat_back(draft: LiveTable, seat: int) -> None:
        """The seat's player acts again: an AI that took the seat over after their time ran
        out gives it back, and their count of timed-out turns starts again."""
        if draft.seats[seat].get("replaced"):
            draft.seats[seat]["ai"] = False
            draft.seats[seat].pop("replaced", None)
            draft.add_note([public("back", f"{{P{seat}}} is back and plays again.")])
        draft.meta.setdefault("expiries", {}).pop(str(seat), None)
        draft.meta.setdefault("expired_turns", {}).pop(str(seat), None)

    async def reclaim(self, table_id: int, user_id: int) -> bool:
        """A player an AI replaced asks for their move panel: they have their seat back at
        once, whoever's turn it is. Taking it back only with a move could not be done: the
        seat's turns were the AI's, played a moment after they came up, and no other turn
        was theirs. True if the seat was given back."""
        table = self.get(table_id)
        async with table.lock:
            seat = table.seat_of(user_id)
            if (seat is None or not table.playing or table.finished or table.paused
                    or table.finish_pending  # over, its result not recorded yet: still the AI's
                    or not table.seats[seat].get("replaced")):
                return False
            draft = table.draft()
            self._seat_back(draft, seat)
            self._reset_deadline(draft)  # their turn, if it is now, gets its time
            await self._save(table, draft)  # (the AI's move being thought out is dropped)
        self.schedule_delivery(table)
        return True

    @staticmethod
    def seat_for(table: LiveTable, user_id: int) -> int:
        """The user's seat, or the refusal that says why they have none."""
        seat = table.seat_of(user_id)
        if seat is None:
            if table.left_seat_of(user_id) is not None:
                raise TableError("You left this game; an AI plays your seat now.")
            raise TableError("You're not playing at this table — only seated players can "
                             "do that.")
        return seat

    async def _commit(self, table: LiveTable, seat: int, action: Any,
                      draft: LiveTable | None = None, *, by: str | None = None) -> list[Event]:
        """Apply on a draft (one the caller already changed, or a fresh one), save it, make
        it the live table, then schedule messages. Caller holds the table lock. The move
        goes into the game's record in the same save (`by`: "ai" or "timer", see
        bot.replay.record.move_entry)."""
        engine = table.engine
        draft = draft or table.draft()
        try:
            step = engine.apply(draft.state, seat, action)
        except NotYourTurnError:
            waiting = ", ".join(table.names[s] for s in sorted(engine.waiting_for(table.state)))
            raise TableError(f"It's not your turn{' — waiting for ' + waiting if waiting else ''}."
                             ) from None
        except GameOverError:
            raise TableError("This game is already over.") from None
        except (IllegalActionError, GameError, ValueError) as exc:
            detail = str(exc).strip()
            raise TableError(detail or "That move isn't allowed right now.") from None
        draft.state = step.state
        events = list(step.events)
        draft.add_log(events)
        draft.record_entries.append(move_entry(seat, action, by))
        if "chain" in draft.meta:  # (not for a game begun before moves were recorded)
            draft.meta["chain"] = chain_link(draft.meta["chain"], engine, step.state, events,
                                             draft.meta.get("chain_format", 1))
        for event in events:
            if event.visible_to is not None:
                for who in event.visible_to:
                    draft.pending_private[who].append(event)
        self._reset_deadline(draft, actor=seat)
        opened = self._optional_humans(draft, draft.state) - self._optional_humans(table,
                                                                                   table.state)
        await self._save(table, draft)
        if opened:
            table.ai_hold_until = time.monotonic() + self.settings.ai_hold_seconds
        if engine.outcome(table.state) is not None:
            await self._finish(table)
        else:
            self._schedule_ai(table)
            self.schedule_delivery(table)
        return events

    async def _finish(self, table: LiveTable) -> None:
        """Record the result and drop the table, in one transaction. If the database refuses,
        the final move stays saved and the timer loop tries again (so does a restart)."""
        result = table.engine.outcome(table.state)
        try:
            record = self._record_of(table, await self.storage.table_actions(table.id))
            rating = RatingJob.of(table.seats, result.scores, result.winners,
                                  str(table.game_options.get("ai_level", "normal")))
            match_id = await self.storage.finish_table(
                table.row, scores=result.scores, winners=result.winners,
                reason=shown(result.reason, table.plain_names, markdown=False),
                finished_at=time.time(), record=record.to_json() if record else None,
                moves=record.moves if record else None, rating=rating)
        except StorageError as exc:
            table.finish_pending = True
            log.error("table %s: could not record the result yet: %s", table.id, exc)
            return
        table.finish_pending = False
        table.meta["match_id"] = match_id
        table.finished = True
        self.live.pop(table.id, None)
        self.schedule_delivery(table)

    @staticmethod
    def _record_of(table: LiveTable, lines: str) -> GameRecord | None:
        """The finished table's replay record, or None if its moves were not all recorded
        (it began before this version); a broken record never holds up a result."""
        result = table.engine.outcome(table.state)
        try:
            record = build_record(
                table.engine, lines=lines, options=table.game_options, seats=table.seats,
                outcome=outcome_json(result.scores, result.winners, result.reason),
                chain=table.meta.get("chain", ""), fmt=table.meta.get("chain_format", 1))
        except (ValueError, KeyError, TypeError):
            log.exception("table %s: its move record is unreadable; no replay kept", table.id)
            return None
        return record

    # ------------------------------------------------------------------ AI seats
    def _schedule_ai(self, table: LiveTable) -> None:
        if table.finished or not table.playing or table.paused:
            return
        if table.ai_task is not None and not table.ai_task.done():
            return
        if self._next_ai_seat(table) is None:
            return
        table.ai_task = asyncio.create_task(self._run_ai(table), name=f"ai-{table.id}")

    def _next_ai_seat(self, table: LiveTable, *,
                      optional: bool = False) -> tuple[int, bool] | None:
        """The AI seat to move next and whether the game waits for it: seats the game waits
        for first, then those that may act (only those with `optional`)."""
        engine = table.engine
        waiting = engine.waiting_for(table.state)
        for seat in sorted(() if optional else waiting):
            if table.is_ai(seat):
                return seat, True
        declined_version, declined = table.ai_declined
        for seat in sorted(engine.to_act(table.state) - waiting):
            if table.is_ai(seat) and not (declined_version == table.version and seat in declined):
                return seat, False
        return None

    async def _run_ai(self, table: LiveTable) -> None:
        failures = 0
        delay = self.settings.ai_delay
        try:
            while not table.finished and not table.paused:
                pick = self._next_ai_seat(table)
                if pick is None:
                    return
                await asyncio.sleep(delay)
                delay = self.settings.ai_delay
                async with table.lock:
                    pick = self._next_ai_seat(table)
                    if pick is None or table.finished:
                        return
                    seat, required = pick
                    state, version = table.state, table.version
                    hold = self._ai_hold_left(table) if required else 0.0
                    if hold > 0 and (other := self._next_ai_seat(table, optional=True)):
                        # while it holds, AI seats that may act on the last move do
                        seat, hold = other[0], 0.0
                if hold > 0:  # looked at often, so it moves as soon as the humans pass
                    await asyncio.sleep(min(hold, 0.25))
                    delay = 0.0  # its AI_DELAY is spent already
                    continue
                rng = random.Random(f"{table.meta.get('seed')}:{version}:{seat}")
                action = await self._ai_move(table.engine, state, seat, rng)
                async with table.lock:
                    if table.finished or table.version != version:
                        continue
                    if action is None:
                        ver, seats = table.ai_declined
                        table.ai_declined = (version, (seats if ver == version else frozenset())
                                             | {seat})
                        continue
                    try:
                        try:
                            await self._commit(table, seat, action, by="ai")
                        except SaveFailed:
                            raise
                        except TableError:
                            # not the refusal's text: it may name the move, a
                            # card from the AI seat's hidden hand
                            log.error("table %s: AI seat %s chose a move the rules "
                                      "refused; it plays the default move", table.id, seat)
                            fallback = table.engine.default_action(table.state, seat)
                            await self._commit(table, seat, fallback, by="ai")
                        failures = 0
                        continue
                    except SaveFailed:
                        wait = SAVE_RETRY_SECONDS[min(failures, len(SAVE_RETRY_SECONDS) - 1)]
                        failures += 1
                # the database refused the AI's move: the table is as it was; try again
                log.warning("table %s: AI seat %s's move could not be saved; trying again in "
                            "%.0f s", table.id, seat, wait)
                await asyncio.sleep(wait)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("table %s: AI task failed", table.id)

    @staticmethod
    def _optional_humans(table: LiveTable, state: Any) -> frozenset[int]:
        """Human seats that may act now without being waited for (Hidden Rules: enforcing
        against the card just played); empty when the game is over."""
        engine = table.engine
        if not table.playing or engine.outcome(state) is not None:
            return frozenset()
        return frozenset(s for s in engine.to_act(state) - engine.waiting_for(state)
                         if not table.is_ai(s))

    def _ai_hold_left(self, table: LiveTable) -> float:
        """Seconds an AI seat still holds a move that would end the humans' chance to act on
        the last one. Without it an AI playing next (after `AI_DELAY`, 1.5 s) closed Hidden
        Rules' enforcement window before a person could open their panel, name the rule
        and type a hint: a human could never enforce against a card an AI followed. The
        hold ends early once every such human has acted (or passed)."""
        if self.settings.ai_hold_seconds <= 0 or not self._optional_humans(table, table.state):
            return 0.0
        now = time.monotonic()
        if table.ai_hold_until is None:  # after a restart: the humans get the whole hold
            table.ai_hold_until = now + self.settings.ai_hold_seconds
        return table.ai_hold_until - now

    def hold_ai_for(self, table: LiveTable, seat: int) -> None:
        """A human who may act on the last move opened their move panel: hold the AI seats'
        next move long enough for them to finish (a hint is typed in a form)."""
        if self.settings.ai_hold_seconds > 0 and seat in self._optional_humans(table,
                                                                                table.state):
            until = time.monotonic() + max(self.settings.ai_hold_seconds, PANEL_HOLD_SECONDS)
            table.ai_hold_until = max(table.ai_hold_until or 0.0, until)

    async def _ai_move(self, engine, state, seat: int, rng: random.Random):
        """Hard decisions search for up to ~300 ms: they run in the worker process (see
        bot.ai_worker) so the loop is never held; the others take a millisecond."""
        from engines.ai_levels import level_of

        if level_of(engine, state) == "hard" and self.settings.ai_workers > 0:
            return await self.ai_worker.choose(engine, state, seat, rng)
        return await asyncio.to_thread(engine.ai_action, state, seat, rng)

    # ------------------------------------------------------------------ timers
    def _reset_deadline(self, table: LiveTable, *, force: bool = False,
                        actor: int | None = None) -> None:
        """Give the humans the game waits for a full turn's time.

        Every step of a turn gets the full time: when the seat that just moved is still
        waited for (Taboo's draw then place, Six Suit's predict then play) its clock starts
        again. Seats still waited for in a simultaneous phase keep their running clock when
        someone else moves. `turn_starts` remembers, per seat, the version at which its
        current turn began, so a turn that times out counts once however many steps it has.
        """
        seconds = table.timer_seconds
        humans = ([] if not table.playing or table.engine.outcome(table.state) is not None
                  else sorted(s for s in table.engine.waiting_for(table.state)
                              if not table.is_ai(s)))
        previous = table.meta.get("waiting") or []
        starts = table.meta.setdefault("turn_starts", {})
        for seat in humans:
            if seat not in previous or str(seat) not in starts:
                starts[str(seat)] = table.version
        for key in [k for k in starts if int(k) not in humans]:
            del starts[key]
        table.meta["waiting"] = humans
        if seconds <= 0 or not humans:
            table.meta["deadline"] = None
        elif (force or humans != previous or not table.meta.get("deadline")
              or actor in humans):
            table.meta["deadline"] = time.time() + seconds

    async def _tick_loop(self) -> None:
        while True:
            await asyncio.sleep(self.settings.timer_tick)
            now = time.time()
            for table in list(self.live.values()):
                if table.finish_pending:
                    async with table.lock:
                        if table.finish_pending:
                            await self._finish(table)
                    continue
                deadline = table.meta.get("deadline")
                try:
                    if table.playing and not table.paused and deadline and now >= deadline:
                        await self.expire(table.id)
                    elif not table.playing and now >= self._lobby_expiry(table):
                        await self.expire_lobby(table.id)
                except SaveFailed:
                    log.warning("table %s: a timed-out change could not be saved; trying "
                                "again", table.id)
                except Exception:
                    log.exception("table %s: timer failed", table.id)

    async def _prune_loop(self) -> None:
        """Drop replay records older than REPLAY_RETENTION_DAYS, at start and hourly."""
        days = self.settings.replay_retention_days
        while days > 0:
            try:
                dropped = await self.storage.prune_records(time.time() - days * 86_400)
                if dropped:
                    log.info("dropped %d replay record(s) older than %d days", dropped, days)
            except StorageError as exc:
                log.warning("could not drop old replay records: %s", exc)
            await asyncio.sleep(PRUNE_SECONDS)

    @staticmethod
    def _lobby_expiry(table: LiveTable) -> float:
        idle = table.meta.get("idle_seconds") or ServerSettings().lobby_idle_minutes * 60
        return (table.meta.get("touched") or table.row.created_at) + idle

    async def expire_lobby(self, table_id: int) -> None:
        """Close a lobby nobody touched for the server's `lobby_idle_minutes`."""
        table = self.get(table_id)
        async with table.lock:
            if table.playing or time.time() < self._lobby_expiry(table):
                return
            await self._drop(table)
        minutes = int(table.meta.get("idle_seconds", 0) // 60)
        await self.publisher.close_lobby(
            table, f"⌛ This {table.engine.title} lobby closed after "
            f"{plural(minutes, 'minute')} without activity. `/{table.ui.command} new` opens "
            "a new one.")

    async def expire(self, table_id: int) -> None:
        """Play the default action for every human the game is waiting on (time ran out).

        A turn counts once toward `afk_turns`, however many of its steps time out."""
        table = self.get(table_id)
        replaced: list[str] = []
        async with table.lock:
            if table.finished:
                return
            engine = table.engine
            limit = table.table_settings.afk_turns
            for seat in sorted(engine.waiting_for(table.state)):
                if table.finished or table.is_ai(seat) or seat not in engine.waiting_for(
                        table.state):
                    continue
                action = engine.default_action(table.state, seat)
                draft = table.draft()
                expiries = draft.meta.setdefault("expiries", {})
                counted = draft.meta.setdefault("expired_turns", {})
                turn = draft.meta.get("turn_starts", {}).get(str(seat))
                count = expiries.get(str(seat), 0)
                if turn is None or counted.get(str(seat)) != turn:
                    count += 1  # the first step of this turn to time out
                    counted[str(seat)] = turn
                expiries[str(seat)] = count
                note = [public("timeout", f"⏰ {{P{seat}}} ran out of time.")]
                if count >= limit:
                    draft.seats[seat]["ai"] = True
                    draft.seats[seat]["replaced"] = True
                    note.append(public("replaced", f"🤖 An AI now plays for {{P{seat}}} "
                                       f"({plural(count, 'turn')} timed out). Take my turn "
                                       "on the board takes it back."))
                    expiries.pop(str(seat), None)
                    counted.pop(str(seat), None)
                draft.add_note(note)
                await self._commit(table, seat, action, draft, by="timer")
                if count >= limit:
                    replaced.append(shown(note[-1].text, table.names))
        if replaced:  # posted by the delivery task: no Discord call in the lock or the timers
            table.notices.extend(replaced)
            self.schedule_delivery(table)

    # ------------------------------------------------------------------ delivery
    def schedule_delivery(self, table: LiveTable) -> None:
        """Have the table's delivery task bring its messages up to date (or, for a cancelled
        table, close them: in the same task, so a board being posted is closed too)."""
        if table.paused and not table.dropped:
            return
        table.dirty = True
        if table.delivery_task is None or table.delivery_task.done():
            table.delivery_task = asyncio.create_task(self._deliver(table),
                                                      name=f"deliver-{table.id}")

    async def _deliver(self, table: LiveTable) -> None:
        while table.dirty:
            table.dirty = False
            try:
                if table.dropped:
                    await self.publisher.show_closed(table, table.closing_note)
                    await self.publisher.close_private_views(table)
                    await self.publisher.threads.note_closed(table)
                    for note in table.notices:
                        with contextlib.suppress(discord.HTTPException):
                            await self.publisher.announce(table, note)
                    await self.publisher.threads.close(table)  # a cancelled game's thread
                    return
                await self.publisher.sync(table)
                table.delivery_failures = 0
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not (table.dropped or table.finished) and (why := channel_unusable(exc)):
                    if table.row.parent_id is not None:  # its thread, not the channel
                        why = why.replace("its channel", "its thread").replace(
                            "Send Messages", "Send Messages in Threads")
                    await self.pause(table, why)
                    return
                # Discord refused or rate limited us beyond discord.py's own retries: try
                # again a little later so the board and DMs do not stay behind.
                table.delivery_failures += 1
                if table.delivery_failures <= RETRY_LIMIT:
                    delay = min(30.0, 2.0 * table.delivery_failures)
                    if DELIVERY_FAILURES.note(failure_text(exc)[:120]):
                        log.warning("table %s: delivery failed (%s); retrying in %.0f s",
                                    table.id, failure_text(exc), delay)
                    asyncio.get_running_loop().call_later(delay, self.schedule_delivery, table)
                else:
                    log.exception("table %s: delivery failed", table.id)

    def meta_changed(self, table: LiveTable) -> None:
        """Bookkeeping (message ids, what was DM'd) is saved in batches, off the move path."""
        self._meta_dirty[table.id] = table
        if self._flush_task is None or self._flush_task.done():
            self._flush_task = asyncio.create_task(self._flush_meta_soon(), name="meta-flush")

    async def _flush_meta_soon(self) -> None:
        await asyncio.sleep(META_FLUSH_SECONDS)
        try:
            await self.flush_meta()
        except StorageError as exc:
            log.warning("bookkeeping of %d table(s) could not be saved (%s); trying again in "
                        "%.0f s", len(self._meta_dirty), exc, META_RETRY_SECONDS)
            await asyncio.sleep(META_RETRY_SECONDS)
            if self._meta_dirty:
                self._flush_task = asyncio.create_task(self._flush_meta_soon(),
                                                       name="meta-flush")

    def _queue_history(self, table: LiveTable, draft: LiveTable) -> None:
        """A saved draft's public lines go to the history table with the next meta batch
        (History button); a crash may lose the last half second of them, never a move."""
        if draft.history_pending:
            self._history.extend(draft.history_pending)
            draft.history_pending.clear()
            self.meta_changed(table)

    async def flush_meta(self) -> None:
        """Save the bookkeeping of every table that changed; if the database refuses, they
        stay queued (StorageError)."""
        async with self._flush_lock:  # one batch at a time: a reader waits for it
            tables = dict(self._meta_dirty)
            self._meta_dirty.clear()
            lines, self._history = self._history, []
            spill, self._spill = self._spill, set()
            try:
                if tables:
                    await self.storage.save_metas([t.row for t in tables.values()])
                if lines:
                    await self.storage.append_history(lines)
                if spill:
                    await self.storage.spill_actions(sorted(spill))
            except StorageError:
                for table_id, table in tables.items():
                    self._meta_dirty.setdefault(table_id, table)
                self._history[:0] = lines
                self._spill |= spill
                raise

    async def history(self, table_id: int) -> list[str]:
        """Every public line of a table so far (finished tables included): lines a running
        batch is writing are waited for (the flush lock), those still queued written first."""
        await self.flush_meta()
        return await self.storage.history(table_id)

    # ------------------------------------------------------------------ helpers
    def _need_lobby(self, table: LiveTable) -> None:
        if table.playing:
            raise TableError("The game has already started.")

    async def _save(self, table: LiveTable, draft: LiveTable) -> None:
        """Save a changed draft of `table` as its next version, then make it the live table.
        If the save fails the live table is untouched (SaveFailed)."""
        previous = table.version
        draft.row.version = previous + 1
        if draft.state is not None and draft.state is not table.state:
            draft.row.state = table.engine.dump(draft.state)
        draft.row.actions_tail = entry_lines(draft.row.version, draft.record_entries)
        if not draft.playing:
            draft.meta["touched"] = time.time()  # a lobby's idle time starts again
        try:
            await self.storage.save_table(draft.row, expected_version=previous)
        except StaleVersionError:
            log.error("table %s: the stored table is not at version %s", table.id, previous)
            raise TableError("The table changed meanwhile; please try again.") from None
        except StorageError as exc:
            log.error("table %s: save failed, nothing changed: %s", table.id, exc)
            raise SaveFailed() from None
        table.unspilled += len(draft.row.actions_tail)
        draft.row.actions_tail = ""  # appended: the next save must not append it again
        if table.unspilled >= SPILL_BYTES:  # moved out of the row with the next batch
            table.unspilled = 0
            self._spill.add(table.id)
            self.meta_changed(table)
        self._queue_history(table, draft)
        if table.adopt(draft):
            self.meta_changed(table)  # the delivery task wrote something after the draft

    async def _drop(self, table: LiveTable) -> None:
        try:
            await self.storage.delete_table(table.id)
        except StorageError as exc:
            log.error("table %s: could not delete it: %s", table.id, exc)
            raise SaveFailed() from None
        table.finished = table.dropped = True
        self.live.pop(table.id, None)
        for task in (table.ai_task,):
            if task and not task.done() and task is not asyncio.current_task():
                task.cancel()

    # ------------------------------------------------------------------ pause / resume
    async def pause(self, table: LiveTable, why: str) -> None:
        """Stop a table whose channel is gone or unwritable (no AI moves, no timers, no
        deliveries) instead of playing it out unseen, and tell its host by DM once."""
        if table.paused:
            return  # told once
        log.warning("table %s: paused: %s", table.id, why)
        table.meta["paused"] = why
        table.meta["deadline"] = None
        self.meta_changed(table)
        if table.ai_task and not table.ai_task.done() and table.ai_task is not \
                asyncio.current_task():
            table.ai_task.cancel()
        command = table.ui.command
        parent = table.row.parent_id
        if "channel was deleted" in why:
            carry_on = "it can't go on without its channel."
        elif parent is not None:  # its thread is gone (bot.threads): on in the channel
            carry_on = (f"`/{command} board` in <#{parent}> carries the game on there (or "
                        f"`/{command} cancel` there ends it).")
        else:
            carry_on = (f"then use `/{command} board` in that channel to carry on (or "
                        f"`/{command} cancel` to end it).")
        text = (f"⏸️ Your **{table.engine.title}** table in <#{table.row.channel_id}> is "
                f"paused: {why}. Nothing moves and nothing is recorded until it is fixed; "
                + carry_on)
        with contextlib.suppress(Exception):  # (a closed DM's channel note fails too)
            await self.publisher.dm(table, table.row.host_id, content=text)

    def in_thread_of(self, channel_id: int) -> list[LiveTable]:
        """The tables played in threads of this channel (bot.threads)."""
        return [t for t in self.live.values() if t.row.parent_id == channel_id]

    async def channel_deleted(self, channel_id: int) -> None:
        """Discord says a channel or thread is gone: its game pauses at once (not at its
        next failed post), and a lobby there closes, since nobody can reach it any more.
        A channel takes its threads' games with it."""
        for gone in self.in_thread_of(channel_id):
            await self.pause(gone, "its channel was deleted")
        table = self.in_channel(channel_id)
        if table is None or table.finished:
            return
        if table.playing:
            await self.pause(table, "its thread was deleted" if table.row.parent_id
                             else "its channel was deleted")
            return
        async with table.lock:
            if table.id in self.live and not table.playing:
                with contextlib.suppress(SaveFailed):  # then it closes when it expires
                    await self._drop(table)

    async def resume(self, table: LiveTable) -> bool:
        """Carry on with a paused table (`/<game> board` in its channel); False if it was not
        paused. Timers restart from now."""
        async with table.lock:
            if not table.paused:
                return False
            table.meta.pop("paused", None)
            self._reset_deadline(table, force=True)
            self.meta_changed(table)
        self._schedule_ai(table)
        self.schedule_delivery(table)
        return True


def need_unpaused(table: LiveTable) -> None:
    """Refuse moves (and move panels) while a table is paused."""
    if table.paused:
        raise TableError(f"This table is paused: {table.paused}. Once that is fixed, "
                         f"`/{table.ui.command} board` in its channel carries on.")


def channel_unusable(exc: BaseException) -> str | None:
    """Why a table's channel can't be used, if a delivery failed for that reason: deleted
    (404 Unknown Channel, code 10003) or the bot lacks View Channel (403 Missing Access,
    50001) or Send Messages / Embed Links (403 Missing Permissions, 50013)."""
    if isinstance(exc, discord.NotFound) and exc.code == 10003:
        return "its channel was deleted"
    if isinstance(exc, EmbedsRefused):
        return "I can't show its board in its channel (I need the Embed Links permission there)"
    if gone := thread_gone(exc):
        return gone
    if isinstance(exc, discord.Forbidden) and exc.code in (50001, 50013):
        return ("I can't post in its channel (I need the View Channel, Send Messages and "
                "Embed Links permissions there)")
    return None


def failure_text(exc: BaseException) -> str:
    """A failed delivery's cause for the log, never empty: a bare TimeoutError's text is ""
    (which made "delivery failed ()" lines that said nothing)."""
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _delivery_summary(counts, total: int) -> None:
    failed = sum(counts.values())
    shown = min(failed, DELIVERY_FAILURES.limit or failed)
    causes = "; ".join(f"{n}× {cause}" for cause, n in counts.most_common(5))
    log.warning("%d delivery attempt(s) failed in the last %.0f s and were retried (%d shown "
                "above one by one; %d since the bot started): %s", failed,
                DELIVERY_FAILURES.seconds, shown, total, causes)


# Under load (Discord or this machine slow) deliveries fail and are retried in bursts: the
# first few of a minute are logged with their table, then only the minute's count by cause.
DELIVERY_FAILURES = LogWindow(60.0, _delivery_summary, limit=10)
