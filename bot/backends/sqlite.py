"""SQLite through aiosqlite: the embedded default (one file, one process).

One connection in autocommit mode: a single statement is its own transaction (a move's save
is one UPDATE, so one trip through aiosqlite's thread); `transaction()` says BEGIN/COMMIT.

Durability: `synchronous=FULL` in WAL mode by default. SQLite's documentation: in WAL mode
with NORMAL "a transaction committed in WAL mode with synchronous=NORMAL might roll back
following a power loss or system crash"; with FULL the WAL is synced at every commit, so a
move the player saw confirmed (the ✅ is sent only after its save) survives power loss.
A process crash or kill -9 loses nothing in either mode (the OS still has the writes).

One process owns the file (bot.ownership.FileOwnership): a second one is refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable, Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from bot.backends import SQLITE, Migration, ddl
from bot.ownership import FileOwnership, OwnershipError

SYNCHRONOUS_MODES = ("FULL", "NORMAL")
_BATCH_ROWS = 200  # rows per UPDATE (12 parameters each, far below SQLite's limit)


class SqliteBackend:
    dialect = SQLITE
    errors: tuple[type[BaseException], ...] = (sqlite3.Error, OSError)

    def __init__(self, db: aiosqlite.Connection, path: Path,
                 owner: FileOwnership | None) -> None:
        self._db = db
        self.path = path
        self._owner = owner
        self.where = f"the database file {path}"
        self.writer = self  # one connection: writes and reads alike

    @classmethod
    async def open(cls, path: str | Path, *, synchronous: str = "FULL") -> SqliteBackend:
        """Claim the file for this process and open it. Raises StorageUnavailable, with one
        sentence for the operator, if it can't be used; then nothing is left open (an open
        aiosqlite thread kept the process from exiting)."""
        from bot.storage import StorageUnavailable

        if synchronous.upper() not in SYNCHRONOUS_MODES:
            raise ValueError(f"synchronous must be one of {SYNCHRONOUS_MODES}")
        path = Path(path)
        memory = str(path) == ":memory:"
        owner: FileOwnership | None = None
        db: aiosqlite.Connection | None = None
        try:
            if not memory:
                if path.is_dir():
                    raise StorageUnavailable(
                        f"DATABASE_PATH {path} is a folder; point it at a file (for example "
                        f"{path / 'cardtable.db'}).")
                path.parent.mkdir(parents=True, exist_ok=True)
                owner = FileOwnership.claim(path)
            db = await aiosqlite.connect(str(path), isolation_level=None)
            await db.execute("PRAGMA journal_mode=WAL")
            await db.execute("PRAGMA foreign_keys=ON")
            await db.execute(f"PRAGMA synchronous={synchronous.upper()}")
            if not memory:
                # A damaged file otherwise fails later, in the middle of start-up. quick_check
                # reads every page once (8 ms for a 7 MiB database here).
                async with db.execute("PRAGMA quick_check") as cur:
                    verdict = (await cur.fetchone())[0]
                if verdict != "ok":
                    raise sqlite3.DatabaseError(f"database disk image is malformed: {verdict}")
            return cls(db, path, owner)
        except BaseException as exc:
            if db is not None:
                with contextlib.suppress(Exception):
                    await db.close()
            if owner is not None:
                owner.release()
            if isinstance(exc, StorageUnavailable):
                raise
            if isinstance(exc, OwnershipError):
                raise StorageUnavailable(str(exc)) from None
            if isinstance(exc, sqlite3.Error | OSError):
                raise StorageUnavailable(unusable(path, exc)) from exc
            raise

    async def close(self) -> None:
        try:
            await self._db.close()
        finally:
            if self._owner is not None:
                self._owner.release()
                self._owner = None

    def unusable(self, exc: BaseException) -> str | None:
        """One sentence if `exc` means the database can't be used at all (a corrupt page
        found after the start-up check), else None."""
        text = str(exc)
        if isinstance(exc, sqlite3.DatabaseError) and ("not a database" in text
                                                       or "malformed" in text):
            return unusable(self.path, exc)
        return None

    # One process on one file: nothing to tell other processes, no session to lose, and a
    # failed write's outcome is never in doubt (see PostgresBackend for what these do there).
    def on_lost(self, callback) -> None:
        pass

    async def alive(self) -> bool:
        return True

    async def written(self, ids: Sequence[int], stamp: float) -> set[int] | None:
        return None

    async def notify(self, session, channel: str, payload: str) -> None:
        pass

    async def listen(self, channel: str, callback) -> None:
        pass

    async def synchronous(self) -> str:
        """The connection's `PRAGMA synchronous`, by name."""
        value = await self.fetchval("PRAGMA synchronous")
        return {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}.get(value, str(value))

    # ------------------------------------------------------------------ statements
    async def fetch(self, sql: str, *args: Any) -> list[tuple]:
        return list(await self._db.execute_fetchall(sql, args))

    async def fetchrow(self, sql: str, *args: Any) -> tuple | None:
        rows = await self._db.execute_fetchall(sql, args)
        return tuple(rows[0]) if rows else None

    async def fetchval(self, sql: str, *args: Any) -> Any:
        row = await self.fetchrow(sql, *args)
        return row[0] if row else None

    async def fetchrow_dict(self, sql: str, *args: Any) -> dict[str, Any] | None:
        async with self._db.execute(sql, args) as cur:
            row = await cur.fetchone()
            names = [d[0] for d in cur.description]
        return dict(zip(names, row, strict=True)) if row is not None else None

    async def execute(self, sql: str, *args: Any) -> int:
        """Run one statement; the number of rows it changed."""
        cursor = await self._db.execute(sql, args)
        return cursor.rowcount

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._db.executemany(sql, rows)

    async def recover(self) -> None:
        """Roll back a transaction a cancelled write left open (its BEGIN ran to its end in
        aiosqlite's thread after the coroutine gave up): otherwise every later write would
        join it and never be committed. The caller holds the write lock, so an open
        transaction here is always an abandoned one."""
        if self._db.in_transaction:
            await self._db.execute("ROLLBACK")

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteBackend]:
        await self.recover()
        await self._db.execute("BEGIN")
        try:
            yield self
        except BaseException:
            # shielded: a second cancellation must not leave the transaction open
            await asyncio.shield(self._db.execute("ROLLBACK"))
            raise
        await asyncio.shield(self._db.execute("COMMIT"))

    async def update_rows(self, columns: Sequence[tuple[str, str]], rows: list[Sequence[Any]],
                          *, stamp: float, appended: Sequence[str] = ()) -> set[int]:
        """UPDATE game_tables from `rows` (values in `columns` order: `id` first, then, for
        versioned saves, `expected`, the version a row must still be at to be written); every
        other column is set. Returns the ids written. `stamp` is the rows' `updated_at`, which
        no other write of this process used: when some rows were stale, the ones written are
        found by it. `appended` columns get the value added to their end (`||`), not set."""
        names = tuple(name for name, _ in columns)
        written = 0
        for start in range(0, len(rows), _BATCH_ROWS):
            chunk = rows[start:start + _BATCH_ROWS]
            cursor = await self._db.execute(_batch_update_sql(names, len(chunk), tuple(appended)),
                                            [v for row in chunk for v in row])
            written += cursor.rowcount
        ids = [row[0] for row in rows]
        if written == len(rows):
            return set(ids)
        # Some were stale (rare): the rows written are those stamped with this batch's
        # updated_at, which no other write used.
        marks = ",".join("?" * len(ids))
        return {i for (i,) in await self._db.execute_fetchall(
            f"SELECT id FROM game_tables WHERE updated_at = ? AND id IN ({marks})",
            [stamp, *ids])}

    async def apply_migrations(self, migrations: list[tuple[int, Migration]]) -> list[int]:
        """Apply every migration not yet recorded in `schema_migrations`, each in its own
        transaction with its record; the versions applied now."""
        await self._db.execute(ddl("CREATE TABLE IF NOT EXISTS schema_migrations "
                                   "(version INTEGER PRIMARY KEY, applied_at REAL NOT NULL)",
                                   SQLITE))
        done = {row[0] for row in await self.fetch("SELECT version FROM schema_migrations")}
        applied = []
        for version, migration in migrations:
            if version in done:
                continue
            await self._db.executescript(
                f"BEGIN;\n{ddl(migration, SQLITE)}\nINSERT INTO schema_migrations "
                f"VALUES ({version}, {time.time()});\nCOMMIT;")
            applied.append(version)
        return applied

    async def columns(self) -> dict[str, list[tuple[str, str, bool]]]:
        """Every table's (column, declared type, nullable), for the schema test."""
        out: dict[str, list[tuple[str, str, bool]]] = {}
        for (table,) in await self.fetch(
                "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%'"):
            out[table] = [(r[1], r[2], not r[3] and not r[5])
                          for r in await self.fetch(f"PRAGMA table_info({table})")]
        return out


@functools.cache
def _batch_update_sql(columns: tuple[str, ...], rows: int, appended: tuple[str, ...]) -> str:
    """One UPDATE of `rows` game_tables rows from a VALUES list: `columns` starts with `id`
    (and, for versioned saves, `expected`: a row is written only if still at that version);
    every other column is set. One statement however many rows: sqlite3 seemed to hand the
    GIL over for every row it steps (a row per `executemany` item or `RETURNING` result),
    and a 125-save batch with `RETURNING` took 0.4 s on a busy event loop (bench.load)."""
    values = ", ".join(["(" + ",".join("?" * len(columns)) + ")"] * rows)
    sets = ", ".join(f"{c}=game_tables.{c} || v.{c}" if c in appended else f"{c}=v.{c}"
                     for c in columns if c not in ("id", "expected"))
    versioned = " AND game_tables.version = v.expected" if "expected" in columns else ""
    return (f"WITH v({', '.join(columns)}) AS (VALUES {values}) "
            f"UPDATE game_tables SET {sets} FROM v WHERE game_tables.id = v.id{versioned}")


def unusable(path: Path, exc: BaseException) -> str:
    """One sentence on why the database at `path` can't be opened."""
    text = str(exc)
    if isinstance(exc, sqlite3.DatabaseError) and ("not a database" in text
                                                   or "malformed" in text):
        return (f"The database file {path} is corrupt ({text}); restore it from a backup or "
                "move it away to start with an empty one.")
    return (f"Can't use the database at DATABASE_PATH {path} ({text}): it must be a file in "
            "a folder this process can write.")
