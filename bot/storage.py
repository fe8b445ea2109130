"""All SQL lives here: the repository, one class over either database (bot.backends).

Every query is written once, in SQL that SQLite and PostgreSQL both accept, with `?`
placeholders (see bot.backends for the portable forms); the cogs and the table service never
see which database runs it. SQLite (`DATABASE_PATH`, a file) is the embedded default;
`DATABASE_URL=postgresql://…` puts the bot on PostgreSQL, which several shard processes share.

Numbered migrations run at start-up and are recorded in `schema_migrations`, so opening a
database twice (or one written by an older version) is safe. One list for both databases,
in SQLite's DDL; bot.backends.ddl maps the types for PostgreSQL (that mapping is the whole
difference; a migration that needs more gives both texts as a dict).

Faults: a write that fails (disk full, database locked or read-only, an I/O error, the
PostgreSQL server gone) raises `StorageError` and wrote nothing; the table service then
leaves its memory as it was. A database that cannot be used at all (a folder, an unwritable
place, a corrupt file, owned by another process, an unreachable or refusing server) raises
`StorageUnavailable` from `open`, with one sentence for the operator.

Durability: a save returns only once it is on disk — SQLite `synchronous=FULL` in WAL mode
(bot.backends.sqlite), PostgreSQL `synchronous_commit=on` (bot.backends.postgres) — so a
move its player saw confirmed survives a crash and a power loss. Saves arriving together are
written in one statement and one commit (group commit, `save_table`).

Ownership: on SQLite one process owns the file; on PostgreSQL each process owns its shards
(advisory locks on the session it writes on, bot.ownership) and loads only their tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.backends import Migration, is_postgres_url

log = logging.getLogger("cardtable.storage")

MIGRATIONS: list[tuple[int, Migration]] = [
    (1, """
    CREATE TABLE guild_settings (
        guild_id   INTEGER NOT NULL,
        game       TEXT    NOT NULL,
        options    TEXT    NOT NULL,
        updated_at REAL    NOT NULL,
        PRIMARY KEY (guild_id, game)
    );
    CREATE TABLE game_tables (
        id               INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id         INTEGER,
        channel_id       INTEGER NOT NULL UNIQUE,
        game             TEXT    NOT NULL,
        status           TEXT    NOT NULL CHECK (status IN ('lobby', 'playing')),
        host_id          INTEGER NOT NULL,
        seats            TEXT    NOT NULL,
        options          TEXT    NOT NULL,
        state            TEXT,
        version          INTEGER NOT NULL DEFAULT 0,
        board_message_id INTEGER,
        meta             TEXT    NOT NULL DEFAULT '{}',
        created_at       REAL    NOT NULL,
        started_at       REAL,
        updated_at       REAL    NOT NULL
    );
    CREATE TABLE matches (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id    INTEGER,
        channel_id  INTEGER,
        game        TEXT    NOT NULL,
        players     TEXT    NOT NULL,
        scores      TEXT    NOT NULL,
        winners     TEXT    NOT NULL,
        reason      TEXT    NOT NULL,
        started_at  REAL,
        finished_at REAL    NOT NULL,
        duration    REAL
    );
    CREATE INDEX matches_by_guild_game ON matches (guild_id, game, finished_at);
    CREATE TABLE player_stats (
        guild_id    INTEGER NOT NULL,
        game        TEXT    NOT NULL,
        user_id     INTEGER NOT NULL,
        name        TEXT    NOT NULL,
        played      INTEGER NOT NULL DEFAULT 0,
        wins        INTEGER NOT NULL DEFAULT 0,
        points      REAL    NOT NULL DEFAULT 0,
        last_played REAL    NOT NULL,
        PRIMARY KEY (guild_id, game, user_id)
    );
    """),
    (2, """
    CREATE TABLE quarantined_tables (
        id             INTEGER PRIMARY KEY,
        guild_id       INTEGER,
        channel_id     INTEGER,
        game           TEXT,
        row            TEXT    NOT NULL,
        reason         TEXT    NOT NULL,
        quarantined_at REAL    NOT NULL
    );
    """),
    # Numbered 3 so that it does not collide with another change adding migration 2; any
    # migration not yet recorded runs, whatever its number.
    (3, """
    ALTER TABLE matches ADD COLUMN options TEXT;
    CREATE TABLE user_settings (
        user_id    INTEGER PRIMARY KEY,
        settings   TEXT    NOT NULL,
        updated_at REAL    NOT NULL
    );
    """),
    (4, """
    CREATE TABLE table_history (
        table_id INTEGER NOT NULL,
        seq      INTEGER NOT NULL,
        line     TEXT    NOT NULL,
        PRIMARY KEY (table_id, seq)
    );
    """),
    # Replays (issue 18). Written to run unchanged on SQLite and PostgreSQL: BIGINT for ids
    # (Discord snowflakes need 64 bits), DOUBLE PRECISION for times (PostgreSQL's REAL has
    # 24 bits, too few for a Unix time). A running game's moves are JSON lines appended to
    # `game_tables.actions` by the very statement that saves each move, and moved in
    # chunks to `table_moves` off the move path (see spill_actions) so the row stays small;
    # `match_records` keeps them, with the seed, options and seats, once the game is over.
    (5, """
    ALTER TABLE game_tables ADD COLUMN actions TEXT NOT NULL DEFAULT '';
    CREATE TABLE table_moves (
        table_id BIGINT  NOT NULL,
        seq      INTEGER NOT NULL,
        lines    TEXT    NOT NULL,
        PRIMARY KEY (table_id, seq)
    );
    CREATE TABLE match_records (
        match_id    BIGINT           PRIMARY KEY REFERENCES matches (id) ON DELETE CASCADE,
        guild_id    BIGINT,
        game        TEXT             NOT NULL,
        record      TEXT             NOT NULL,
        finished_at DOUBLE PRECISION NOT NULL
    );
    CREATE INDEX match_records_by_time ON match_records (finished_at);
    """),
    # Ratings and /history (issue 18). `player` is "u:<user id>" or "ai:<level>"
    # (bot.ratings.player_key); `match_players` lets /history find a member's games without
    # reading every match's JSON; `match_records.moves` gives a game's length.
    (6, """
    ALTER TABLE match_records ADD COLUMN moves INTEGER;
    CREATE TABLE ratings (
        guild_id   INTEGER NOT NULL,
        game       TEXT    NOT NULL,
        player     TEXT    NOT NULL,
        user_id    INTEGER,
        mu         REAL    NOT NULL,
        sigma      REAL    NOT NULL,
        games      INTEGER NOT NULL,
        updated_at REAL    NOT NULL,
        PRIMARY KEY (guild_id, game, player)
    );
    CREATE TABLE rating_changes (
        match_id     INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        guild_id     INTEGER NOT NULL,
        game         TEXT    NOT NULL,
        player       TEXT    NOT NULL,
        user_id      INTEGER,
        mu_before    REAL    NOT NULL,
        sigma_before REAL    NOT NULL,
        mu_after     REAL    NOT NULL,
        sigma_after  REAL    NOT NULL,
        placement    INTEGER NOT NULL,
        won          INTEGER NOT NULL,
        finished_at  REAL    NOT NULL,
        PRIMARY KEY (match_id, player)
    );
    CREATE INDEX rating_changes_by_player ON rating_changes (guild_id, game, player,
                                                             finished_at);
    CREATE TABLE match_players (
        match_id    INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        guild_id    INTEGER,
        game        TEXT    NOT NULL,
        user_id     INTEGER NOT NULL,
        seat        INTEGER NOT NULL,
        finished_at REAL    NOT NULL,
        PRIMARY KEY (match_id, seat)
    );
    CREATE INDEX match_players_by_user ON match_players (guild_id, user_id, finished_at);
    """),
    # A thread per table (issue 16): a game played in a thread of its lobby's channel keeps
    # the thread as `channel_id` and that channel as `parent_id`, so /history and /replay
    # can judge who may see it by the channel (archived threads leave discord.py's cache).
    (7, """
    ALTER TABLE matches ADD COLUMN parent_id BIGINT;
    """),
    # Each player's DM channel with the bot (bot.delivery.Publisher.dm_channel_id). Discord
    # gives the same one every time, but opening it (POST /users/@me/channels) is one
    # rate-limit bucket for the whole bot, so a restart that forgot them all had every
    # player's first DM queue behind everyone else's open.
    (8, """
    CREATE TABLE dm_channels (
        user_id    BIGINT PRIMARY KEY,
        channel_id BIGINT NOT NULL
    );
    """),
]

SYNCHRONOUS_MODES = ("FULL", "NORMAL")
USER_SETTINGS_CHANNEL = "cardtable_user_settings"  # PostgreSQL NOTIFY channel (see watch)
WATCH_SECONDS = 5.0  # how often a PostgreSQL process checks it still holds its shards
CLOSE_SECONDS = 30.0  # at most this long for queued saves at close


class StaleVersionError(Exception):
    """The table moved on since the caller read it (optimistic lock failed)."""


class StorageError(Exception):
    """A write failed (disk full, database locked or read-only, I/O error): nothing of it
    was written."""


class StorageUnavailable(StorageError):
    """The database cannot be used at all; the message is one sentence for the operator."""


@dataclass
class UnreadableRow:
    """A stored table that could not be decoded (kept for `quarantine_table`)."""

    id: int
    guild_id: int | None
    channel_id: int | None
    game: str | None
    reason: str


@dataclass
class TableRow:
    """One in-progress table as stored (lobby or game)."""

    id: int
    guild_id: int | None
    channel_id: int
    game: str
    status: str
    host_id: int
    seats: list[dict[str, Any]]
    options: dict[str, Any]
    state: str | None
    version: int
    board_message_id: int | None
    meta: dict[str, Any] = field(default_factory=dict)
    created_at: float = 0.0
    started_at: float | None = None
    # Move lines (bot.replay.record) to append to the stored `actions` with the next save;
    # the stored list itself is not loaded (only a finished game's record reads it).
    actions_tail: str = ""

    @property
    def parent_id(self) -> int | None:
        """The lobby's channel while the game is played in a thread of it (bot.threads),
        else None: `channel_id` is then where it all happens."""
        lobby = self.meta.get("lobby_channel_id")
        return int(lobby) if lobby and int(lobby) != self.channel_id else None


@dataclass
class StatRow:
    user_id: int
    name: str
    game: str
    played: int
    wins: int
    points: float
    mu: float | None = None  # the rating (bot.ratings), None if never rated
    sigma: float | None = None

    @property
    def win_rate(self) -> float:
        return self.wins / self.played if self.played else 0.0


_TABLE_COLUMNS = ("id, guild_id, channel_id, game, status, host_id, seats, options, state, "
                  "version, board_message_id, meta, created_at, started_at")


def _table_from(row: Iterable[Any]) -> TableRow:
    (id_, guild_id, channel_id, game, status, host_id, seats, options, state, version,
     board, meta, created, started) = row
    return TableRow(id_, guild_id, channel_id, game, status, host_id, json.loads(seats),
                    json.loads(options), state, version, board, json.loads(meta), created,
                    started)


_MATCH_COLUMNS = ("m.id, m.guild_id, m.channel_id, m.game, m.players, m.scores, m.winners, "
                  "m.reason, m.started_at, m.finished_at, m.duration, r.moves, m.parent_id")


def _match_from(row: Iterable[Any]) -> dict[str, Any]:
    (id_, guild_id, channel_id, game, players, scores, winners, reason, started, finished,
     duration, moves, parent_id) = list(row)[:13]
    return {"id": id_, "guild_id": guild_id, "channel_id": channel_id, "game": game,
            "players": json.loads(players), "scores": json.loads(scores),
            "winners": json.loads(winners), "reason": reason, "started_at": started,
            "finished_at": finished, "duration": duration, "moves": moves,
            "parent_id": parent_id}


_SAVE_BATCH = 200  # saves per statement
# (column, SQLite type) of the group commit's UPDATE (bot.backends: update_rows)
_SAVE_COLUMNS = (("id", "INTEGER"), ("expected", "INTEGER"), ("status", "TEXT"),
                 ("host_id", "INTEGER"), ("seats", "TEXT"), ("options", "TEXT"),
                 ("state", "TEXT"), ("version", "INTEGER"), ("board_message_id", "INTEGER"),
                 ("meta", "TEXT"), ("started_at", "REAL"), ("updated_at", "REAL"),
                 ("actions", "TEXT"))
_APPENDED = ("actions",)  # columns a save appends to instead of replacing
_META_BATCH = 500  # tables per meta statement
_META_COLUMNS = (("id", "INTEGER"), ("board_message_id", "INTEGER"), ("meta", "TEXT"),
                 ("updated_at", "REAL"))

SaveBatch = list[tuple[TableRow, int, asyncio.Future[None]]]


def _settle_saves(batch: SaveBatch, errors: tuple[type[BaseException], ...],
                  write: asyncio.Future) -> None:
    """Tell each save of a batch how it went: written, stale, or the statement's error.
    `write` gives (ids written, the error of the others or None: then they were stale)."""
    if write.cancelled():
        written, error = set(), StorageError("the save was interrupted")
    elif write.exception() is not None:
        written, error = set(), write.exception()
    else:
        written, error = write.result()
    if error is not None:
        error = _storage_error(error, errors)
    for row, expected, done in batch:
        if done.done():
            continue
        if row.id in written:
            done.set_result(None)
        elif error:
            done.set_exception(error)
        else:
            done.set_exception(StaleVersionError(f"table {row.id} is not at version {expected}"))


def _storage_error(exc: BaseException, errors: tuple[type[BaseException], ...]
                   ) -> BaseException:
    """The database driver's errors (and an OS error under them) as the StorageError
    callers handle; anything else (a bug) as it is."""
    if isinstance(exc, errors):
        error = StorageError(f"the database refused the write: {exc}")
        error.__cause__ = exc
        return error
    return exc


def _writes(method):
    """Run a write alone: otherwise another coroutine's statement could land inside an open
    multi-statement transaction and be committed or rolled back with it."""

    @functools.wraps(method)
    async def locked(self, *args, **kwargs):
        async with self._write:
            try:
                await self._db.recover()
                return await method(self, *args, **kwargs)
            except self._db.errors as exc:
                raise _storage_error(exc, self._db.errors) from exc

    return locked


class Storage:
    """The repository. Open with `await Storage.open(path_or_url)` (or `for_settings`);
    close with `await close()`. `self._db` is the backend (bot.backends): reads go through
    it, writes through `self._db.writer` or a `self._db.transaction()`, inside `@_writes`."""

    def __init__(self, db: Any) -> None:
        self._db = db
        self.dialect: str = db.dialect
        self.path: Path | None = db.path  # the SQLite file (None on PostgreSQL)
        self._write = asyncio.Lock()
        # save_table calls waiting to be written, in order, and the task writing them in
        # batches (see save_table)
        self._saves: SaveBatch = []
        self._saver: asyncio.Task[None] | None = None
        self._last_stamp = 0.0
        self._user_settings_watchers: list[Callable[[int], None]] = []
        self._lost_watchers: list[Callable[[], None]] = []
        self._watchdog: asyncio.Task[None] | None = None
        self._closing = False  # the watchdog's stop sign (see _watch)
        self.lost = False

    # ------------------------------------------------------------------ lifecycle
    @classmethod
    async def open(cls, target: str | Path, *, synchronous: str = "FULL",
                   shard_count: int | None = None, shard_ids: Sequence[int] | None = None,
                   claim_wait: float | None = None) -> Storage:
        """Open and migrate the database at `target`: a SQLite file path, or a
        postgresql:// URL (then this process claims its shards: all of `shard_count`
        unless `shard_ids`, waiting up to `claim_wait` seconds for ones still held).
        Raises StorageUnavailable, with one sentence for the operator, if it can't be used;
        then nothing is left open."""
        if is_postgres_url(target):
            from bot.backends.postgres import PostgresBackend

            db = await PostgresBackend.open(str(target), shard_count=shard_count,
                                            shard_ids=shard_ids, claim_wait=claim_wait)
        else:
            from bot.backends.sqlite import SqliteBackend

            db = await SqliteBackend.open(target, synchronous=synchronous)
        store = cls(db)
        try:
            await store.migrate()
            await db.listen(USER_SETTINGS_CHANNEL, store._user_settings_changed)
        except BaseException as exc:
            with contextlib.suppress(Exception):
                await db.close()
            if isinstance(exc, db.errors):
                raise StorageUnavailable(
                    f"Can't prepare {db.where} for the bot ({type(exc).__name__}: {exc}); "
                    "check that this user may create tables there.") from exc
            raise
        db.on_lost(store._session_lost)
        if store.dialect != "sqlite":
            store._watchdog = asyncio.create_task(store._watch(), name="storage-watchdog")
        return store

    @classmethod
    async def for_settings(cls, settings: Any, *, claim_wait: float | None = None) -> Storage:
        """The database the settings name: DATABASE_URL if set, else DATABASE_PATH."""
        return await cls.open(settings.database_url or settings.database_path,
                              synchronous=settings.sqlite_synchronous,
                              shard_count=settings.shard_count, shard_ids=settings.shard_ids,
                              claim_wait=claim_wait)

    async def close(self) -> None:
        try:
            if self._saver is not None and not self._saver.done():
                # saves already asked for are written first (each statement gives up on
                # its own; this bounds a database that stopped answering altogether)
                await asyncio.wait_for(asyncio.shield(self._saver), CLOSE_SECONDS)
        except (Exception, TimeoutError):
            log.warning("saves still queued at close could not all be written")
        finally:
            self._closing = True
            if self._watchdog is not None:
                self._watchdog.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._watchdog
            await self._db.close()

    def on_lost(self, callback: Callable[[], None]) -> None:
        """PostgreSQL: `callback()` once if this process loses its session, and with it its
        shards (another process may take them now: this one must stop). Never on SQLite."""
        self._lost_watchers.append(callback)

    def _session_lost(self) -> None:
        if self.lost:
            return
        self.lost = True
        log.critical("lost the database session of %s and with it this process's shards; "
                     "every write fails from now on", self._db.where)
        for callback in self._lost_watchers:
            callback()

    async def _watch(self) -> None:
        """Check every few seconds that the session still holds this process's shards: a
        session dropped without the connection noticing (a network cut) would otherwise
        only show at the next write.

        It also stops on `_closing`, not only on its cancellation: Python 3.11's wait_for
        (in the backend's check) drops a cancellation that arrives as the check finishes,
        and the watchdog went on checking every few seconds while close() waited for it
        forever (a bot that never stopped; seen in a test run's teardown)."""
        while not self.lost and not self._closing:
            await asyncio.sleep(WATCH_SECONDS)
            if self._closing:
                return
            async with self._write:
                alive = await self._db.alive()
            if alive is None:
                log.warning("could not check this process's shard locks on %s; trying again "
                            "in %.0f s", self._db.where, WATCH_SECONDS)
            elif not alive and not self.lost:
                log.error("the database session no longer holds this process's shard locks")
                self._db.lost()

    def on_user_settings_changed(self, callback: Callable[[int], None]) -> None:
        """`callback(user_id)` when a user's settings change in any process of the bot (on
        PostgreSQL through NOTIFY; on SQLite there is no other process): caches of them
        drop the user."""
        self._user_settings_watchers.append(callback)

    def _user_settings_changed(self, payload: str) -> None:
        with contextlib.suppress(ValueError):
            user_id = int(payload)
            for callback in self._user_settings_watchers:
                callback(user_id)

    async def synchronous(self) -> str:
        """SQLite: `PRAGMA synchronous` by name (FULL, NORMAL); PostgreSQL: the session's
        `synchronous_commit` (on), as the writing session has it (under the write lock: on
        PostgreSQL that session runs one statement at a time)."""
        async with self._write:
            return await self._db.synchronous()

    async def migrate(self) -> list[int]:
        """Apply every migration not yet recorded; return the versions applied now."""
        return await self._db.apply_migrations(MIGRATIONS)

    async def schema_versions(self) -> list[int]:
        return [row[0] for row in await self._db.fetch(
            "SELECT version FROM schema_migrations ORDER BY version")]

    # ------------------------------------------------------------------ guild settings
    async def get_game_settings(self, guild_id: int, game: str) -> dict[str, Any]:
        value = await self._db.fetchval(
            "SELECT options FROM guild_settings WHERE guild_id=? AND game=?", guild_id, game)
        return json.loads(value) if value is not None else {}

    @_writes
    async def set_game_settings(self, guild_id: int, game: str, options: dict[str, Any]) -> None:
        await self._db.writer.execute(
            "INSERT INTO guild_settings (guild_id, game, options, updated_at) VALUES (?,?,?,?) "
            "ON CONFLICT (guild_id, game) DO UPDATE SET options=excluded.options, "
            "updated_at=excluded.updated_at",
            guild_id, game, json.dumps(options, sort_keys=True), time.time())

    @_writes
    async def reset_game_settings(self, guild_id: int, game: str) -> None:
        await self._db.writer.execute("DELETE FROM guild_settings WHERE guild_id=? AND game=?",
                                      guild_id, game)

    # ------------------------------------------------------------------ tables
    @_writes
    async def create_table(self, *, guild_id: int | None, channel_id: int, game: str,
                           host_id: int, seats: list[dict[str, Any]],
                           options: dict[str, Any], meta: dict[str, Any] | None = None,
                           ) -> TableRow | None:
        """Insert a lobby; None if the channel already has a table (one per channel)."""
        now = time.time()
        row = await self._db.writer.fetchrow(
            "INSERT INTO game_tables (guild_id, channel_id, game, status, host_id, seats, "
            "options, meta, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?,?) "
            f"ON CONFLICT (channel_id) DO NOTHING RETURNING {_TABLE_COLUMNS}",
            guild_id, channel_id, game, "lobby", host_id, json.dumps(seats),
            json.dumps(options), json.dumps(meta or {}), now, now)
        return _table_from(row) if row is not None else None

    async def get_table(self, table_id: int) -> TableRow | None:
        row = await self._db.fetchrow(
            f"SELECT {_TABLE_COLUMNS} FROM game_tables WHERE id=?", table_id)
        return _table_from(row) if row else None

    async def table_in_channel(self, channel_id: int) -> TableRow | None:
        row = await self._db.fetchrow(
            f"SELECT {_TABLE_COLUMNS} FROM game_tables WHERE channel_id=?", channel_id)
        return _table_from(row) if row else None

    async def active_tables(self) -> list[TableRow | UnreadableRow]:
        """Every stored table, decoded one by one: a row that can't be decoded comes back as
        an UnreadableRow (the rest still load), for the service to quarantine. A database
        found corrupt here (past the start-up check) is StorageUnavailable."""
        try:
            rows = await self._db.fetch(f"SELECT {_TABLE_COLUMNS} FROM game_tables ORDER BY id")
        except self._db.errors as exc:
            sentence = self._db.unusable(exc)
            if sentence is None:
                raise _storage_error(exc, self._db.errors) from exc
            raise StorageUnavailable(sentence) from exc
        out: list[TableRow | UnreadableRow] = []
        for row in rows:
            try:
                out.append(_table_from(row))
            except (ValueError, TypeError) as exc:
                out.append(UnreadableRow(row[0], row[1], row[2], row[3],
                                         f"unreadable row: {exc}"))
        return out

    @_writes
    async def quarantine_table(self, table_id: int, reason: str) -> None:
        """Move a table that can't be restored out of the way, kept as it was stored (as
        JSON of its columns) with the reason, for the operator to look at."""
        async with self._db.transaction() as tx:
            record = await tx.fetchrow_dict("SELECT * FROM game_tables WHERE id=?", table_id)
            if record is None:
                return
            await tx.execute(
                "INSERT INTO quarantined_tables (id, guild_id, channel_id, game, row, reason, "
                "quarantined_at) VALUES (?,?,?,?,?,?,?) ON CONFLICT (id) DO UPDATE SET "
                "guild_id=excluded.guild_id, channel_id=excluded.channel_id, "
                "game=excluded.game, row=excluded.row, reason=excluded.reason, "
                "quarantined_at=excluded.quarantined_at",
                table_id, record.get("guild_id"), record.get("channel_id"), record.get("game"),
                json.dumps(record, default=str), reason, time.time())
            await tx.execute("DELETE FROM game_tables WHERE id=?", table_id)

    async def quarantined(self) -> list[dict[str, Any]]:
        return [{"id": r[0], "guild_id": r[1], "channel_id": r[2], "game": r[3],
                 "row": json.loads(r[4]), "reason": r[5]} for r in await self._db.fetch(
                "SELECT id, guild_id, channel_id, game, row, reason FROM quarantined_tables "
                "ORDER BY id")]

    async def save_table(self, table: TableRow, *, expected_version: int) -> None:
        """Write the whole row; the version bump and the state go in one transaction.

        Raises StaleVersionError if someone else saved a newer version first, and
        StorageError if the database refused the write (then nothing was written).

        Group commit: saves go to a queue that one writer task empties, all queued saves in
        one statement and one commit. With a trip (and a turn at the write lock) per save,
        a burst of saves at 500 busy tables waited up to 0.6 s although each trip took
        < 13 ms (bench.load): the lock is handed to one waiter per event-loop iteration.
        Values are read from the rows when written, as a lone save did.
        """
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        item = (table, expected_version, done)
        self._saves.append(item)
        if self._saver is None or self._saver.done():
            self._saver = asyncio.create_task(self._save_queued(), name="storage-saves")
        try:
            await done
        except asyncio.CancelledError:
            if item in self._saves:  # not written yet: a cancelled save does not happen
                self._saves.remove(item)
            raise

    async def _save_queued(self) -> None:
        """The writer task: write batches until the queue is empty."""
        try:
            while self._saves:
                async with self._write:
                    with contextlib.suppress(*self._db.errors):  # its own error comes next
                        await self._db.recover()
                    await self._write_saves()
        except BaseException:
            for _, _, done in self._saves:
                if not done.done():
                    done.set_exception(StorageError("storage is closing"))
            self._saves.clear()
            raise

    async def _write_saves(self) -> None:
        """Write every queued save (the write lock is held). A table queued twice (not done
        by the bot, which saves a table only after its previous save) waits for the next
        batch, so its saves still land in order."""
        batch: SaveBatch = []
        ids: set[int] = set()
        later = []
        for item in self._saves:
            if item[0].id in ids or len(batch) >= _SAVE_BATCH:
                later.append(item)
            else:
                ids.add(item[0].id)
                batch.append(item)
        self._saves = later
        if not batch:
            return  # the only queued save was cancelled meanwhile
        now = self._stamp()
        rows = [(row.id, expected, row.status, row.host_id, json.dumps(row.seats),
                 json.dumps(row.options), row.state, row.version, row.board_message_id,
                 json.dumps(row.meta), row.started_at, now, row.actions_tail)
                for row, expected, _ in batch]
        # The statement runs to its end even if the task that started it is cancelled, so
        # the batch's outcome is handed out when it ends, not by this task.
        write = asyncio.ensure_future(self._write_batch(batch, rows, now))
        write.add_done_callback(functools.partial(_settle_saves, batch, self._db.errors))
        with contextlib.suppress(Exception):  # the savers hear of it from _settle_saves
            await asyncio.shield(write)

    async def _write_batch(self, batch: SaveBatch, rows: list[tuple], stamp: float,
                           ) -> tuple[set[int], BaseException | None]:
        """(ids written, None) — or, when the write failed, (ids written anyway, the error).
        On PostgreSQL a failure on the way (the connection broke during the commit) leaves
        the commit in doubt: the rows are then read back on another session, by the batch's
        unique `updated_at`, so no player is told "not saved" about a move that was."""
        try:
            return await self._update_rows(batch, rows, stamp), None
        except self._db.errors as exc:
            if not isinstance(exc, getattr(self._db, "in_doubt", ())):
                raise
            written = await self._db.written([row.id for row, _, _ in batch], stamp)
            if written is None:
                raise
            log.warning("a save's commit was in doubt (%s); read back: %d of %d written",
                        exc, len(written), len(batch))
            return written, exc

    def _stamp(self) -> float:
        """An updated_at no other write of this process used: a batch of saves finds which
        of its rows it wrote by it (see update_rows, _write_batch)."""
        self._last_stamp = max(time.time(), self._last_stamp + 1e-6)
        return self._last_stamp

    async def _update_rows(self, batch: SaveBatch, rows: list[tuple], stamp: float) -> set[int]:
        """Run one batch's UPDATE; the ids of the rows it wrote."""
        return await self._db.update_rows(_SAVE_COLUMNS, rows, stamp=stamp, appended=_APPENDED)

    @_writes
    async def save_meta(self, table: TableRow) -> None:
        """Save message ids and bookkeeping without touching state or version."""
        await self._db.writer.execute(
            "UPDATE game_tables SET board_message_id=?, meta=?, updated_at=? WHERE id=?",
            table.board_message_id, json.dumps(table.meta), self._stamp(), table.id)

    @_writes
    async def move_table(self, table: TableRow) -> None:
        """The table's game moved to another channel (into its thread, or back to the
        lobby's channel when the thread is gone): its channel id and bookkeeping at once,
        so a restart finds it where it is played."""
        await self._db.writer.execute(
            "UPDATE game_tables SET channel_id=?, board_message_id=?, meta=?, updated_at=? "
            "WHERE id=?", table.channel_id, table.board_message_id, json.dumps(table.meta),
            self._stamp(), table.id)

    @_writes
    async def save_metas(self, tables: list[TableRow]) -> None:
        """`save_meta` for many tables (the service batches them): one statement per 500
        tables (see update_rows)."""
        now = self._stamp()
        for start in range(0, len(tables), _META_BATCH):
            rows = [(t.id, t.board_message_id, json.dumps(t.meta), now)
                    for t in tables[start:start + _META_BATCH]]
            await self._db.update_rows(_META_COLUMNS, rows, stamp=now)

    @_writes
    async def delete_table(self, table_id: int) -> None:
        async with self._db.transaction() as tx:
            await tx.execute("DELETE FROM table_moves WHERE table_id=?", table_id)
            await tx.execute("DELETE FROM game_tables WHERE id=?", table_id)

    @_writes
    async def spill_actions(self, table_ids: list[int]) -> None:
        """Move these tables' move lines out of their rows into `table_moves`, as one chunk
        each, in one transaction. Every save appends to the row (one statement, nothing
        else on the move path); without this a long game's row would grow with every move
        and be rewritten whole by each save (a 1,600-move Six Suit game wrote 142 MB of
        log for its saves instead of 14 MB: bench.move_log)."""
        if not table_ids:
            return
        marks = ",".join("?" * len(table_ids))
        async with self._db.transaction() as tx:
            await tx.execute(
                "INSERT INTO table_moves (table_id, seq, lines) "
                "SELECT g.id, (SELECT COUNT(*) FROM table_moves m WHERE m.table_id = g.id), "
                f"g.actions FROM game_tables g WHERE g.id IN ({marks}) AND g.actions <> ''",
                *table_ids)
            await tx.execute(
                f"UPDATE game_tables SET actions = '' WHERE id IN ({marks})", *table_ids)

    # ------------------------------------------------------------------ results
    @_writes
    async def finish_table(self, table: TableRow, *, scores: dict[int, float],
                           winners: Iterable[int], reason: str, finished_at: float,
                           record: str | None = None, moves: int | None = None,
                           rating: Any = None) -> int:
        """Record a finished game, update stats and ratings, keep its replay `record` (JSON,
        see bot.replay.record, of `moves` moves) and drop the table, all in one transaction:
        a game is rated exactly once, and a refused write leaves everything as it was.

        `scores`/`winners` are by seat; seats without a user id (AI) get no stats row.
        `rating` (a bot.ratings.RatingJob) names whose ratings to read and computes the new
        ones from them; read and written inside the transaction, so two games of a server
        finishing together both count.
        """
        winners = set(winners)
        players = [{"seat": i, "user_id": s.get("user_id"), "name": s.get("name"),
                    "ai": bool(s.get("ai")), "left": bool(s.get("left")),
                    "replaced": bool(s.get("replaced"))}
                   for i, s in enumerate(table.seats)]
        duration = finished_at - table.started_at if table.started_at else None
        async with self._db.transaction() as tx:
            match_id = await tx.fetchval(
                "INSERT INTO matches (guild_id, channel_id, game, players, scores, winners, "
                "reason, started_at, finished_at, duration, options, parent_id) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?) RETURNING id",
                table.guild_id, table.channel_id, table.game, json.dumps(players),
                json.dumps({str(k): v for k, v in scores.items()}), json.dumps(sorted(winners)),
                reason, table.started_at, finished_at, duration, json.dumps(table.options),
                table.parent_id)
            if record is not None:
                await tx.execute(
                    "INSERT INTO match_records (match_id, guild_id, game, record, finished_at, "
                    "moves) VALUES (?,?,?,?,?,?)", match_id, table.guild_id, table.game,
                    record, finished_at, moves)
            if table.guild_id is not None:
                for player in players:
                    # an AI seat has no user id; a human whom an AI replaced (time ran out)
                    # or who left keeps theirs: the result is theirs, so a loss can't be
                    # dodged by going idle
                    if player["user_id"] is None:
                        continue
                    seat = player["seat"]
                    # a player who left is counted as having played and lost, with no points
                    won = int(seat in winners and not player["left"])
                    points = 0.0 if player["left"] else float(scores.get(seat, 0.0))
                    await tx.execute(
                        "INSERT INTO player_stats (guild_id, game, user_id, name, played, wins, "
                        "points, last_played) VALUES (?,?,?,?,1,?,?,?) "
                        "ON CONFLICT (guild_id, game, user_id) DO UPDATE SET "
                        "name=excluded.name, played=player_stats.played+1, "
                        "wins=player_stats.wins+excluded.wins, "
                        "points=player_stats.points+excluded.points, "
                        "last_played=excluded.last_played",
                        table.guild_id, table.game, player["user_id"], player["name"],
                        won, points, finished_at)
                for player in players:
                    if player["user_id"] is not None:
                        await tx.execute(
                            "INSERT INTO match_players (match_id, guild_id, game, user_id, "
                            "seat, finished_at) VALUES (?,?,?,?,?,?)",
                            match_id, table.guild_id, table.game, player["user_id"],
                            player["seat"], finished_at)
                if rating is not None:
                    await self._rate(tx, match_id, table.guild_id, table.game, rating,
                                     finished_at)
            await tx.execute("DELETE FROM table_moves WHERE table_id=?", table.id)
            await tx.execute("DELETE FROM game_tables WHERE id=?", table.id)
        return match_id

    @staticmethod
    async def _rate(tx: Any, match_id: int, guild_id: int, game: str, job: Any,
                    finished_at: float) -> None:
        """Inside finish_table's transaction: read the players' ratings, let `job` compute
        the new ones, write them and the game's rating changes."""
        keys = job.keys
        marks = ",".join("?" * len(keys))
        current = {row[0]: (row[1], row[2]) for row in await tx.fetch(
            f"SELECT player, mu, sigma FROM ratings WHERE guild_id=? AND game=? "
            f"AND player IN ({marks})", guild_id, game, *keys)}
        for change in job.compute(current):
            await tx.execute(
                "INSERT INTO ratings (guild_id, game, player, user_id, mu, sigma, games, "
                "updated_at) VALUES (?,?,?,?,?,?,1,?) "
                "ON CONFLICT (guild_id, game, player) DO UPDATE SET mu=excluded.mu, "
                "sigma=excluded.sigma, games=ratings.games+1, updated_at=excluded.updated_at",
                guild_id, game, change.player, change.user_id, change.after.mu,
                change.after.sigma, finished_at)
            await tx.execute(
                "INSERT INTO rating_changes (match_id, guild_id, game, player, user_id, "
                "mu_before, sigma_before, mu_after, sigma_after, placement, won, finished_at) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                match_id, guild_id, game, change.player, change.user_id, change.before.mu,
                change.before.sigma, change.after.mu, change.after.sigma, change.placement,
                int(change.won), finished_at)

    # ------------------------------------------------------------------ ratings
    async def rated_leaderboard(self, guild_id: int, game: str, *, limit: int,
                                min_games: int, default: tuple[float, float], z: float
                                ) -> list[StatRow]:
        """The best players of a game by conservative rating, mu − z·sigma (a player with
        results from before ratings existed counts as `default`), among those with
        `min_games` finished games."""
        mu0, sigma0 = default
        return [StatRow(*row) for row in await self._db.fetch(
            "SELECT s.user_id, s.name, s.game, s.played, s.wins, s.points, r.mu, r.sigma "
            "FROM player_stats s LEFT JOIN ratings r ON r.guild_id = s.guild_id AND "
            "r.game = s.game AND r.user_id = s.user_id "
            "WHERE s.guild_id=? AND s.game=? AND s.played>=? "
            "ORDER BY COALESCE(r.mu, CAST(? AS DOUBLE PRECISION)) - "
            "CAST(? AS DOUBLE PRECISION) * COALESCE(r.sigma, CAST(? AS DOUBLE PRECISION)) "
            "DESC, s.wins DESC, s.name LIMIT ?",
            guild_id, game, min_games, mu0, z, sigma0, limit)]

    async def ai_ratings(self, guild_id: int, game: str) -> list[tuple[str, float, float, int]]:
        """(level, mu, sigma, games) of a game's AI levels on a server."""
        return [(row[0].removeprefix("ai:"), row[1], row[2], row[3]) for row in
                await self._db.fetch(
                    "SELECT player, mu, sigma, games FROM ratings WHERE guild_id=? AND game=? "
                    "AND user_id IS NULL ORDER BY player", guild_id, game)]

    async def recent_ratings(self, guild_id: int, game: str, user_id: int, limit: int = 10
                             ) -> list[dict[str, Any]]:
        """A member's last `limit` rated games of a game, newest first."""
        rows = await self._db.fetch(
            "SELECT match_id, mu_before, sigma_before, mu_after, sigma_after, placement, "
            "won, finished_at FROM rating_changes WHERE guild_id=? AND game=? AND "
            "player=? ORDER BY finished_at DESC, match_id DESC LIMIT ?",
            guild_id, game, f"u:{user_id}", limit)
        return [{"match_id": r[0], "before": (r[1], r[2]), "after": (r[3], r[4]),
                 "placement": r[5], "won": bool(r[6]), "finished_at": r[7]} for r in rows]

    async def match_rating_changes(self, match_id: int) -> list[dict[str, Any]]:
        """How one game moved its players' ratings."""
        return [{"player": r[0], "user_id": r[1], "before": (r[2], r[3]),
                 "after": (r[4], r[5]), "placement": r[6], "won": bool(r[7])}
                for r in await self._db.fetch(
                    "SELECT player, user_id, mu_before, sigma_before, mu_after, sigma_after, "
                    "placement, won FROM rating_changes WHERE match_id=? ORDER BY placement, "
                    "player", match_id)]

    async def table_actions(self, table_id: int) -> str:
        """A table's stored move lines (bot.replay.record), "" if there are none;
        StorageError if the database can't be read."""
        try:  # one statement: a spill can't move lines between two reads
            rows = await self._db.fetch(
                "SELECT seq, lines FROM table_moves WHERE table_id=? UNION ALL "
                "SELECT -1, actions FROM game_tables WHERE id=? ORDER BY 1",
                table_id, table_id)
        except self._db.errors as exc:
            raise _storage_error(exc, self._db.errors) from exc
        # the spilled chunks in order, then what is still in the row (seq -1 sorts first)
        return "".join(r[1] for r in rows if r[0] >= 0) + "".join(r[1] for r in rows
                                                                  if r[0] < 0)

    async def match_record(self, match_id: int) -> str | None:
        """A finished game's replay record (JSON), None if none was kept."""
        return await self._db.fetchval("SELECT record FROM match_records WHERE match_id=?",
                                       match_id)

    @_writes
    async def prune_records(self, finished_before: float) -> int:
        """Drop the replay records of games finished before `finished_before` (the results,
        stats and ratings stay); how many were dropped."""
        return max(await self._db.writer.execute(
            "DELETE FROM match_records WHERE finished_at < ?", finished_before), 0)

    async def recent_matches(self, guild_id: int, game: str | None = None,
                             limit: int = 10) -> list[dict[str, Any]]:
        query = ("SELECT id, game, players, scores, winners, reason, finished_at, duration "
                 "FROM matches WHERE guild_id=?")
        args: list[Any] = [guild_id]
        if game:
            query += " AND game=?"
            args.append(game)
        query += " ORDER BY finished_at DESC, id DESC LIMIT ?"
        args.append(limit)
        return [{"id": r[0], "game": r[1], "players": json.loads(r[2]),
                 "scores": json.loads(r[3]), "winners": json.loads(r[4]), "reason": r[5],
                 "finished_at": r[6], "duration": r[7]} for r in await self._db.fetch(query, *args)]

    async def match(self, match_id: int) -> dict[str, Any] | None:
        """One finished game: its place, players, options (for **Play again**) and result
        (see history_matches; `moves` is None when no replay record is kept)."""
        row = await self._db.fetchrow(
            f"SELECT {_MATCH_COLUMNS}, m.options FROM matches m LEFT JOIN match_records r "
            "ON r.match_id = m.id WHERE m.id=?", match_id)
        if row is None:
            return None
        return {**_match_from(row), "options": json.loads(row[-1] or "{}")}

    async def history_matches(self, guild_id: int, *, game: str | None = None,
                              user_id: int | None = None, before: int | None = None,
                              limit: int = 50, replayable: bool = False
                              ) -> list[dict[str, Any]]:
        """A server's finished games, newest first: of one game, one member's, older than
        the match id `before`, only those with a replay record."""
        query = (f"SELECT {_MATCH_COLUMNS} FROM matches m LEFT JOIN match_records r "
                 "ON r.match_id = m.id WHERE m.guild_id=?")
        args: list[Any] = [guild_id]
        if game:
            query += " AND m.game=?"
            args.append(game)
        if user_id is not None:
            query += (" AND m.id IN (SELECT match_id FROM match_players WHERE guild_id=? AND "
                      "user_id=?)")
            args += [guild_id, user_id]
        if before is not None:
            query += " AND m.id < ?"
            args.append(before)
        if replayable:
            query += " AND r.match_id IS NOT NULL"
        query += " ORDER BY m.id DESC LIMIT ?"
        args.append(limit)
        return [_match_from(row) for row in await self._db.fetch(query, *args)]

    async def leaderboard(self, guild_id: int, game: str, limit: int = 10,
                          min_games: int = 1) -> list[StatRow]:
        return [StatRow(*row) for row in await self._db.fetch(
            "SELECT user_id, name, game, played, wins, points FROM player_stats "
            "WHERE guild_id=? AND game=? AND played>=? ORDER BY wins DESC, "
            "CAST(wins AS DOUBLE PRECISION)/played DESC, points DESC, name LIMIT ?",
            guild_id, game, min_games, limit)]

    # ------------------------------------------------------------------ history
    @_writes
    async def append_history(self, rows: list[tuple[int, int, str]]) -> None:
        """(table id, sequence number, line) rows of tables' public history, written in
        batches off the move path (a line written twice is kept once)."""
        async with self._db.transaction() as tx:
            await tx.executemany(
                "INSERT INTO table_history (table_id, seq, line) VALUES (?,?,?) "
                "ON CONFLICT (table_id, seq) DO NOTHING", rows)

    async def history(self, table_id: int) -> list[str]:
        return [row[0] for row in await self._db.fetch(
            "SELECT line FROM table_history WHERE table_id=? ORDER BY seq", table_id)]

    # ------------------------------------------------------------------ DM channels
    async def dm_channel(self, user_id: int) -> int | None:
        """The user's DM channel with the bot, if it was ever opened (see migration 8)."""
        return await self._db.fetchval("SELECT channel_id FROM dm_channels WHERE user_id=?",
                                       user_id)

    @_writes
    async def set_dm_channel(self, user_id: int, channel_id: int) -> None:
        async with self._db.transaction() as tx:
            await tx.execute(
                "INSERT INTO dm_channels (user_id, channel_id) VALUES (?,?) "
                "ON CONFLICT (user_id) DO UPDATE SET channel_id=excluded.channel_id",
                user_id, channel_id)

    @_writes
    async def forget_dm_channel(self, user_id: int, channel_id: int) -> None:
        """Forget a DM channel that stopped working (only if it is still the one kept)."""
        async with self._db.transaction() as tx:
            await tx.execute("DELETE FROM dm_channels WHERE user_id=? AND channel_id=?",
                             user_id, channel_id)

    # ------------------------------------------------------------------ user settings
    async def get_user_settings(self, user_id: int) -> dict[str, Any]:
        value = await self._db.fetchval("SELECT settings FROM user_settings WHERE user_id=?",
                                        user_id)
        return json.loads(value) if value is not None else {}

    @_writes
    async def set_user_settings(self, user_id: int, settings: dict[str, Any]) -> None:
        """Store a user's settings; every other process of the bot hears of it (their
        caches drop the user, see on_user_settings_changed)."""
        async with self._db.transaction() as tx:
            await tx.execute(
                "INSERT INTO user_settings (user_id, settings, updated_at) VALUES (?,?,?) "
                "ON CONFLICT (user_id) DO UPDATE SET settings=excluded.settings, "
                "updated_at=excluded.updated_at",
                user_id, json.dumps(settings, sort_keys=True), time.time())
            await self._db.notify(tx, USER_SETTINGS_CHANNEL, str(user_id))

    async def player_stats(self, guild_id: int, user_id: int) -> list[StatRow]:
        """A member's record per game on a server, with their rating where they have one."""
        return [StatRow(*row) for row in await self._db.fetch(
            "SELECT s.user_id, s.name, s.game, s.played, s.wins, s.points, r.mu, r.sigma "
            "FROM player_stats s LEFT JOIN ratings r ON r.guild_id = s.guild_id AND "
            "r.game = s.game AND r.player = ? "
            "WHERE s.guild_id=? AND s.user_id=? ORDER BY s.game",
            f"u:{user_id}", guild_id, user_id)]
