"""One process owns a database: a second bot on the same SQLite file refuses to start.

Two processes on one database (a rolling deploy that starts the new bot before stopping the
old one, a second `python -m bot` by mistake) would both hold every table in memory and
overwrite each other's saved moves. On SQLite the owner is the process holding an exclusive
OS lock (`flock`) on a lock file next to the database, `<database>.lock`, for its whole life.
The OS drops the lock when the process ends however it ends (exit, crash, kill -9, power
loss), so a stale lock never blocks a restart, and no clock or heartbeat is involved. The
lock file holds the owner's process id, for the operator only.

On PostgreSQL (several shard processes on several machines) ownership is per shard, not
per file: `ShardOwnership.claim_on(session, shard_ids)` takes a session-level
`pg_try_advisory_lock(classid, objid)` per shard, with `shard_lock_key` = (a 32-bit hash of
a namespace, the shard id). The server releases those locks when the session ends (exit,
crash, kill -9, network loss), which is what the OS does for the file lock here, so a
replacement process that waits in `claim_on` picks the dead one's shards up without any
clock or lease. The PostgreSQL backend (bot.backends.postgres) claims on the session it
writes on, namespaced by its schema, so its writes die with its locks; it checks the session
every few seconds (`holds()`) so a session lost silently stops the process. A process loads
and saves only the tables of its shards' guilds (`Settings.owns`).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import time
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any


class OwnershipError(Exception):
    """Another process owns the database; the message is one sentence for the operator."""


class FileOwnership:
    """An exclusive lock on `<database>.lock`, held until `release` or the process ends."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    @classmethod
    def claim(cls, database: Path) -> FileOwnership:
        """Take the database or raise OwnershipError. `flock` locks belong to one open file
        description, so a second claim fails even inside the same process."""
        path = database.with_name(database.name + ".lock")
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            owner = ""
            with contextlib.suppress(OSError):
                owner = os.read(fd, 32).decode(errors="replace").strip()
            os.close(fd)
            pid = f" (process {owner})" if owner.isdigit() else ""
            raise OwnershipError(
                f"Another bot process{pid} is already using the database {database}: stop it "
                "first, or give this one its own DATABASE_PATH.") from None
        except BaseException:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        return cls(path, fd)

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the file drops the lock
            self._fd = None


DEFAULT_NAMESPACE = "cardtable"


def shard_lock_key(namespace: str, shard_id: int) -> tuple[int, int]:
    """The (classid, objid) pair of PostgreSQL's two-int advisory lock for one shard: a signed
    32-bit CRC of the namespace and the shard id. Two ints, not one hashed bigint, so the
    lock is readable in `pg_locks` (classid, objid) and shard ids can never collide."""
    if not 0 <= shard_id < 2**31:
        raise ValueError(f"shard id out of range: {shard_id}")
    crc = zlib.crc32(namespace.encode())
    return (crc - 2**32 if crc >= 2**31 else crc), shard_id


class ShardOwnership:
    """Session-level advisory locks on PostgreSQL, one per shard, held until `release` or the
    session ends. Made by `claim` (a session of its own) or `claim_on` (a session the caller
    keeps using: the PostgreSQL backend writes on it, so its writes are fenced by the locks).

    Besides its shards, a process holds a shared lock on its SHARD_COUNT, `(namespace,
    -shard_count)`: processes of one bot must agree on it (with another count a server's
    shard is another number, and two processes would run its tables), so a claim is refused
    while a process with another count still runs on the database."""

    def __init__(self, connection: Any, namespace: str, shard_ids: list[int],
                 shard_count: int | None = None) -> None:
        self.connection = connection
        self.namespace = namespace
        self.shard_ids = shard_ids
        self.shard_count = shard_count

    @classmethod
    async def claim(cls, dsn: str, shard_ids: Iterable[int], *,
                    namespace: str = DEFAULT_NAMESPACE, shard_count: int | None = None,
                    wait: float | None = None, poll: float = 1.0) -> ShardOwnership:
        """`claim_on` a new session of its own (closed again if the claim fails)."""
        import asyncpg

        try:
            conn = await asyncpg.connect(dsn, timeout=10)
        except (OSError, TimeoutError, asyncpg.PostgresError,
                asyncpg.InterfaceError, ValueError) as exc:
            raise OwnershipError(
                "Cannot reach the PostgreSQL server of DATABASE_URL to claim shards "
                f"({type(exc).__name__}: {exc}); check the URL and that the server is up."
            ) from None
        try:
            return await cls.claim_on(conn, shard_ids, namespace=namespace,
                                      shard_count=shard_count, wait=wait, poll=poll)
        except BaseException:
            await _close(conn)
            raise

    @classmethod
    async def claim_on(cls, conn: Any, shard_ids: Iterable[int], *,
                       namespace: str = DEFAULT_NAMESPACE, shard_count: int | None = None,
                       wait: float | None = None, poll: float = 1.0) -> ShardOwnership:
        """Take every shard in `shard_ids` on the session `conn`, or raise OwnershipError.

        wait=None: fail at once if another session holds one of them. wait=seconds: retry
        every `poll` seconds until all are free (a replacement process started while the
        dead one's session is still being torn down), then fail. Shards taken while others
        are busy are kept between retries, so two waiting processes cannot starve each
        other on disjoint sets; on failure everything taken is released."""
        shards = sorted(set(shard_ids))
        deadline = None if wait is None else time.monotonic() + wait
        held: set[int] = set()
        counted = False
        try:
            while True:
                others: list[int] = []
                if shard_count is not None:
                    if not counted:
                        await conn.execute("SELECT pg_advisory_lock_shared($1, $2)",
                                           *count_lock_key(namespace, shard_count))
                        counted = True
                    others = await _other_counts(conn, namespace, shard_count)
                if not others:
                    for shard in shards:
                        if shard not in held and await conn.fetchval(
                                "SELECT pg_try_advisory_lock($1, $2)",
                                *shard_lock_key(namespace, shard)):
                            held.add(shard)
                busy = [s for s in shards if s not in held]
                if not busy and not others:
                    return cls(conn, namespace, shards, shard_count)
                if deadline is None or time.monotonic() >= deadline:
                    if others:
                        raise OwnershipError(
                            f"Bot processes with SHARD_COUNT={others[0]} still run on this "
                            f"PostgreSQL database, and this one has SHARD_COUNT={shard_count}: "
                            "every process of the bot must use the same count; stop them all "
                            "before changing it.")
                    raise OwnershipError(
                        f"Another bot process holds shard(s) {', '.join(map(str, busy))} "
                        f"of '{namespace}' on this PostgreSQL database: stop it first, or "
                        "give this process other SHARD_IDS.")
                await asyncio.sleep(min(poll, max(0.0, deadline - time.monotonic())))
        except BaseException:
            with contextlib.suppress(Exception):
                for shard in held:
                    await conn.execute("SELECT pg_advisory_unlock($1, $2)",
                                       *shard_lock_key(namespace, shard))
                if counted:
                    await conn.execute("SELECT pg_advisory_unlock_shared($1, $2)",
                                       *count_lock_key(namespace, shard_count))
            raise

    async def holds(self) -> bool:
        """Whether this session still holds every shard's lock (False once the session is
        gone, e.g. after the server restarted: the process must stop using those shards)."""
        try:
            return await self.check()
        except Exception:  # a broken session holds nothing
            return False

    async def check(self) -> bool:
        """`holds`, raising the driver's error when the session could not be asked."""
        count = await self.connection.fetchval(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted"
            " AND pid = pg_backend_pid() AND objsubid = 2 AND classid::bigint = $1"
            " AND objid::bigint = ANY($2::bigint[])",
            shard_lock_key(self.namespace, 0)[0] % 2**32, self.shard_ids)
        return count == len(self.shard_ids)

    async def release(self) -> None:
        """Close the session; the server drops every lock with it."""
        await _close(self.connection)


def count_lock_key(namespace: str, shard_count: int) -> tuple[int, int]:
    """The shared lock every process with `shard_count` holds: (namespace, -shard_count)."""
    if not 1 <= shard_count < 2**31:
        raise ValueError(f"shard count out of range: {shard_count}")
    return shard_lock_key(namespace, 0)[0], -shard_count


async def _other_counts(conn: Any, namespace: str, shard_count: int) -> list[int]:
    """SHARD_COUNTs other than ours that live sessions hold on this database."""
    classid = shard_lock_key(namespace, 0)[0] % 2**32
    rows = await conn.fetch(
        "SELECT DISTINCT 4294967296 - objid::bigint AS count FROM pg_locks"
        " WHERE locktype = 'advisory' AND granted AND objsubid = 2"
        " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
        " AND classid::bigint = $1 AND objid::bigint >= 2147483648"
        " AND objid::bigint <> $2 ORDER BY 1", classid, 2**32 - shard_count)
    return [r[0] for r in rows]


async def _close(conn: Any) -> None:
    with contextlib.suppress(Exception):
        await asyncio.wait_for(conn.close(), 5)
    if not conn.is_closed():
        conn.terminate()
