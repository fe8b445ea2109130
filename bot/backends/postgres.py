"""PostgreSQL through asyncpg: one database shared by every shard process of the bot.

Two kinds of connection:

- **the writer**: one long-lived session that holds this process's shard locks
  (bot.ownership.ShardOwnership: a session-level advisory lock per shard) and runs every
  write, one at a time (the caller serialises them, as on SQLite). Writes on the session
  that holds the locks are fenced by them: if the session ends (the server restarted, the
  network went, someone terminated it) the locks go with it and so does every later write —
  a process can never write a table whose shard another process has meanwhile taken. The
  repository then reports the loss (`Storage.on_lost`) and the process stops; its
  replacement (the launcher, a supervisor) reloads its shards' tables from the database.
- **a small pool for reads** (leaderboards, settings, loading tables at start-up), so a read
  never waits behind a commit.

Durability: `synchronous_commit=on` is set on every session, whatever the server's default:
a commit returns once its WAL record is flushed to disk on the server, so a move the player
saw confirmed survives a crash of the database server or its machine.

Queries come in the portable form of `bot.storage` (`?` placeholders) and are rewritten to
PostgreSQL's `$1, $2, …` once per statement text (cached). Text parameters lose NUL
characters (PostgreSQL's text cannot hold them; they become U+FFFD).

Not through a transaction-mode pooler (PgBouncer `pool_mode=transaction`): session advisory
locks and prepared statements need a session of their own. Point DATABASE_URL at the server
or a session-mode pooler.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time
import zlib
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from typing import Any

import asyncpg

from bot.backends import POSTGRESQL, Migration, ddl
from bot.ownership import DEFAULT_NAMESPACE, OwnershipError, ShardOwnership

CONNECT_TIMEOUT = 10.0  # seconds to open a session
COMMAND_TIMEOUT = 10.0  # seconds any one statement may take before it is given up
READ_POOL = (1, 4)  # min, max read connections
# Every session: commits wait for the WAL flush; the server notices a dead client machine
# within about 25 s (TCP keepalives), so its shard locks pass to a replacement then.
SESSION = {"synchronous_commit": "on", "tcp_keepalives_idle": "10",
           "tcp_keepalives_interval": "5", "tcp_keepalives_count": "3"}

# The server answered with an error: the statement (and its transaction) did nothing.
# Anything else (the connection broke, a timeout) leaves a commit in doubt.
DEFINITE = asyncpg.PostgresError
IN_DOUBT: tuple[type[BaseException], ...] = (asyncpg.PostgresConnectionError,
                                             asyncpg.InterfaceError, OSError, TimeoutError)


@functools.lru_cache(maxsize=1024)
def placeholders(sql: str) -> str:
    """`?` -> `$1, $2, …` outside quoted strings and identifiers."""
    out, n, quote = [], 0, ""
    for ch in sql:
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "?":
            n += 1
            out.append(f"${n}")
            continue
        out.append(ch)
    return "".join(out)


def _clean(args: Sequence[Any]) -> tuple:
    return tuple(a.replace("\x00", "\ufffd") if isinstance(a, str) and "\x00" in a else a
                 for a in args)


def _clean_arrays(columns: list[list[Any]]) -> list[list[Any]]:
    """`_clean` for the group commit's column arrays (only text ones can hold a NUL)."""
    return [list(_clean(col)) if any(isinstance(v, str) and "\x00" in v for v in col) else col
            for col in columns]


def _rows_changed(status: str) -> int:
    """asyncpg's command tag ("UPDATE 3", "INSERT 0 1", "DELETE 0") -> rows changed."""
    tail = status.rsplit(" ", 1)[-1]
    return int(tail) if tail.isdigit() else 0


class _Session:
    """Statements on one connection (the writer, inside or outside a transaction)."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self._conn = conn

    async def fetch(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        return await self._conn.fetch(placeholders(sql), *_clean(args))

    async def fetchrow(self, sql: str, *args: Any) -> asyncpg.Record | None:
        return await self._conn.fetchrow(placeholders(sql), *_clean(args))

    async def fetchval(self, sql: str, *args: Any) -> Any:
        return await self._conn.fetchval(placeholders(sql), *_clean(args))

    async def fetchrow_dict(self, sql: str, *args: Any) -> dict[str, Any] | None:
        row = await self.fetchrow(sql, *args)
        return dict(row.items()) if row is not None else None

    async def execute(self, sql: str, *args: Any) -> int:
        return _rows_changed(await self._conn.execute(placeholders(sql), *_clean(args)))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._conn.executemany(placeholders(sql), [_clean(r) for r in rows])


class PostgresBackend:
    dialect = POSTGRESQL
    errors: tuple[type[BaseException], ...] = (asyncpg.PostgresError, *IN_DOUBT)
    in_doubt = IN_DOUBT

    def __init__(self, writer: asyncpg.Connection, pool: asyncpg.Pool,
                 ownership: ShardOwnership, schema: str, where: str) -> None:
        self._writer = writer
        self._pool = pool
        self.ownership = ownership
        self.schema = schema
        self.where = where
        self.writer = _Session(writer)
        self.path = None
        self._closing = False
        self._lost: list[Callable[[], None]] = []
        writer.add_termination_listener(self._terminated)

    @classmethod
    async def open(cls, url: str, *, shard_count: int | None = None,
                   shard_ids: Sequence[int] | None = None,
                   claim_wait: float | None = None) -> PostgresBackend:
        """Connect, take this process's shards (all `shard_count` of them unless `shard_ids`;
        unsharded = shard 0 of 1) and open the read pool. `claim_wait`: seconds to wait for
        shards another session still holds (a replacement started while the dead process's
        session is being torn down). Raises StorageUnavailable with one sentence."""
        from bot.storage import StorageUnavailable

        count = shard_count or 1
        shards = list(shard_ids) if shard_ids is not None else list(range(count))
        where = describe(url)
        writer: asyncpg.Connection | None = None
        pool: asyncpg.Pool | None = None
        try:
            writer = await asyncpg.connect(url, timeout=CONNECT_TIMEOUT,
                                           command_timeout=COMMAND_TIMEOUT,
                                           server_settings=SESSION)
            schema = await writer.fetchval("SELECT current_schema()")
            if schema is None:
                raise StorageUnavailable(
                    f"The PostgreSQL database {where} has no schema to write to (the "
                    "search_path of DATABASE_URL names none that exists); create it or fix "
                    "the URL.")
            ownership = await ShardOwnership.claim_on(
                writer, shards, shard_count=count, namespace=f"{DEFAULT_NAMESPACE}:{schema}",
                wait=claim_wait)
            pool = await asyncpg.create_pool(url, min_size=READ_POOL[0], max_size=READ_POOL[1],
                                             timeout=CONNECT_TIMEOUT,
                                             command_timeout=COMMAND_TIMEOUT,
                                             server_settings=SESSION)
            return cls(writer, pool, ownership, schema, where)
        except BaseException as exc:
            if pool is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(pool.close(), 5)
            if writer is not None:
                await _close(writer)
            if isinstance(exc, StorageUnavailable):
                raise
            if isinstance(exc, OwnershipError):
                raise StorageUnavailable(str(exc)) from None
            if isinstance(exc, asyncpg.PostgresError | OSError | TimeoutError | ValueError
                          | asyncpg.InterfaceError):
                raise StorageUnavailable(
                    f"Can't use the PostgreSQL database {where} of DATABASE_URL "
                    f"({type(exc).__name__}: {exc}); check the URL, that the server is up "
                    "and that the user may create tables there.") from None
            raise

    async def close(self) -> None:
        self._closing = True
        try:
            await asyncio.wait_for(self._pool.close(), 5)
        except Exception:
            self._pool.terminate()
        finally:
            await _close(self._writer)  # the shard locks go with the session

    def on_lost(self, callback: Callable[[], None]) -> None:
        """Call `callback` once if the writer's session ends while the process runs."""
        self._lost.append(callback)

    def _terminated(self, _conn: Any) -> None:
        if self._closing:
            return
        self._closing = True
        for callback in self._lost:
            callback()

    async def alive(self) -> bool | None:
        """Whether the writer's session still holds every shard lock (a statement on it: the
        caller holds the write lock): False once the session is gone or the server says it
        no longer holds them, None when the check itself did not get an answer (a slow
        server, a stalled event loop): the caller asks again later rather than give up its
        shards for nothing."""
        if self._writer.is_closed():
            return False
        try:
            return await asyncio.wait_for(self.ownership.check(), COMMAND_TIMEOUT)
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError):
            return False if self._writer.is_closed() else None

    def lost(self) -> None:
        """Give the shards up now (the session is unusable): close it and tell on_lost."""
        self._writer.terminate()
        self._terminated(self._writer)

    def unusable(self, exc: BaseException) -> str | None:
        return None

    async def synchronous(self) -> str:
        return await self._writer.fetchval("SHOW synchronous_commit")

    # ------------------------------------------------------------------ statements
    async def fetch(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        return await self._pool.fetch(placeholders(sql), *_clean(args))

    async def fetchrow(self, sql: str, *args: Any) -> asyncpg.Record | None:
        return await self._pool.fetchrow(placeholders(sql), *_clean(args))

    async def fetchval(self, sql: str, *args: Any) -> Any:
        return await self._pool.fetchval(placeholders(sql), *_clean(args))

    async def fetchrow_dict(self, sql: str, *args: Any) -> dict[str, Any] | None:
        row = await self.fetchrow(sql, *args)
        return dict(row.items()) if row is not None else None

    async def recover(self) -> None:
        """Roll back a transaction a cancelled write left open on the writer (the caller
        holds the write lock: an open one is abandoned)."""
        if not self._writer.is_closed() and self._writer.is_in_transaction():
            await self._writer.execute("ROLLBACK")

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[_Session]:
        async with self._writer.transaction():
            yield self.writer

    async def update_rows(self, columns: Sequence[tuple[str, str]], rows: list[Sequence[Any]],
                          *, stamp: float, appended: Sequence[str] = ()) -> set[int]:
        """The group commit's UPDATE (see SqliteBackend.update_rows): one statement whatever
        the number of rows, each column passed as one typed array and joined by `unnest`, so
        the statement text (and its prepared plan) is the same for every batch size;
        `RETURNING` names the rows written (a stale one is not)."""
        values = [list(col) for col in zip(*rows, strict=True)] if rows else []
        records = await self._writer.fetch(_unnest_update_sql(tuple(columns), tuple(appended)),
                                           *_clean_arrays(values))
        return {r[0] for r in records}

    async def written(self, ids: Sequence[int], stamp: float) -> set[int] | None:
        """After a write whose outcome is in doubt (the connection broke during it): which
        of `ids` carry its `stamp`, read on another session; None if that fails too."""
        if not ids:
            return set()
        try:
            rows = await asyncio.wait_for(self._pool.fetch(
                "SELECT id FROM game_tables WHERE updated_at = $1 AND id = ANY($2::bigint[])",
                stamp, list(ids)), COMMAND_TIMEOUT)
        except (Exception, TimeoutError):
            return None
        return {r[0] for r in rows}

    def _channel(self, channel: str) -> str:
        """`channel` for this schema only. NOTIFY reaches every session of the database, so
        bots in two schemas of one database (several deployments, or parallel test runs)
        heard each other's changes; the schema's hash keeps the name under PostgreSQL's
        63-byte limit on channel names."""
        return f"{channel}_{zlib.crc32(self.schema.encode()):08x}"

    async def notify(self, session: _Session, channel: str, payload: str) -> None:
        """Tell every process's `listen(channel)` on this schema (sent at commit)."""
        await session.execute("SELECT pg_notify(?, ?)", self._channel(channel), payload)

    async def listen(self, channel: str, callback: Callable[[str], None]) -> None:
        await self._writer.add_listener(self._channel(channel),
                                        lambda _c, _pid, _ch, payload: callback(payload))

    async def apply_migrations(self, migrations: list[tuple[int, Migration]]) -> list[int]:
        """Apply every migration not yet recorded, with their records, in one transaction
        (PostgreSQL's DDL is transactional: all of them or none), under a transaction-level
        advisory lock: two processes starting at once apply each migration once (the second
        waits, then finds them recorded)."""
        key = _signed32(zlib.crc32(f"cardtable-migrations:{self.schema}".encode()))
        applied = []
        async with self._writer.transaction():
            await self._writer.execute("SELECT pg_advisory_xact_lock($1, 0)", key)
            await self._writer.execute(ddl(
                "CREATE TABLE IF NOT EXISTS schema_migrations "
                "(version INTEGER PRIMARY KEY, applied_at REAL NOT NULL)", POSTGRESQL))
            done = {r[0] for r in await self._writer.fetch("SELECT version FROM schema_migrations")}
            for version, migration in migrations:
                if version in done:
                    continue
                await self._writer.execute(ddl(migration, POSTGRESQL))
                await self._writer.execute("INSERT INTO schema_migrations VALUES ($1, $2)",
                                           version, time.time())
                applied.append(version)
        return applied

    async def columns(self) -> dict[str, list[tuple[str, str, bool]]]:
        """Every table's (column, type, nullable) in this schema, for the schema test."""
        out: dict[str, list[tuple[str, str, bool]]] = {}
        for r in await self._pool.fetch(
                "SELECT table_name, column_name, data_type, is_nullable = 'YES' "
                "FROM information_schema.columns WHERE table_schema = current_schema() "
                "ORDER BY table_name, ordinal_position"):
            out.setdefault(r[0], []).append((r[1], r[2], r[3]))
        return out


_PG_TYPES = {"INTEGER": "bigint", "TEXT": "text", "REAL": "double precision"}


@functools.cache
def _unnest_update_sql(columns: tuple[tuple[str, str], ...], appended: tuple[str, ...]) -> str:
    names = [name for name, _ in columns]
    arrays = ", ".join(f"${i}::{_PG_TYPES[kind]}[]" for i, (_, kind) in enumerate(columns, 1))
    sets = ", ".join(f"{c} = game_tables.{c} || v.{c}" if c in appended else f"{c} = v.{c}"
                     for c in names if c not in ("id", "expected"))
    versioned = " AND game_tables.version = v.expected" if "expected" in names else ""
    return (f"UPDATE game_tables SET {sets} FROM unnest({arrays}) AS v({', '.join(names)}) "
            f"WHERE game_tables.id = v.id{versioned} RETURNING game_tables.id")


def _signed32(value: int) -> int:
    return value - 2**32 if value >= 2**31 else value


def describe(url: str) -> str:
    """host:port/database of a URL, without the password (for messages and logs)."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(url)
        host = parts.hostname or "localhost"
        port = f":{parts.port}" if parts.port else ""
        return f"{host}{port}{parts.path or '/'}"
    except ValueError:
        return "(unparseable URL)"


async def _close(conn: asyncpg.Connection) -> None:
    with contextlib.suppress(Exception):
        await asyncio.wait_for(conn.close(), 5)
    if not conn.is_closed():
        conn.terminate()
