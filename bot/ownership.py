"""One process owns a database: a second bot on the same SQLite file refuses to start.

Two processes on one database (a rolling deploy that starts the new bot before stopping the
old one, a second `python -m bot` by mistake) would both hold every table in memory and
overwrite each other's saved moves. On SQLite the owner is the process holding an exclusive
OS lock (`flock`) on a lock file next to the database, `<database>.lock`, for its whole life.
The OS drops the lock when the process ends however it ends (exit, crash, kill -9, power
loss), so a stale lock never blocks a restart, and no clock or heartbeat is involved. The
lock file holds the owner's process id, for the operator only.

On PostgreSQL (several shard processes on several machines) ownership is per shard, not
per file: `ShardOwnership.claim(dsn, shard_ids)` opens one long-lived session and takes a
session-level `pg_try_advisory_lock(classid, objid)` per shard, with `shard_lock_key` =
(a 32-bit hash of a namespace, the shard id). The server releases those locks when the
session ends (exit, crash, kill -9, network loss), which is what the OS does for the file
lock here, so a replacement process that waits in `claim` picks the dead one's shards up
without any clock or heartbeat. The namespace separates bots (or test runs) sharing one
PostgreSQL database. A process loads and saves only the tables of its shards' guilds
(`Settings.owns`); `holds()` re-checks that the session still has every lock (a save path
that must be certain can call it, or use `connection` so its writes die with the locks).
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
    session ends. Made by `claim`; the session is not used for anything else."""

    def __init__(self, connection: Any, namespace: str, shard_ids: list[int]) -> None:
        self.connection = connection
        self.namespace = namespace
        self.shard_ids = shard_ids

    @classmethod
    async def claim(cls, dsn: str, shard_ids: Iterable[int], *,
                    namespace: str = DEFAULT_NAMESPACE, wait: float | None = None,
                    poll: float = 1.0) -> ShardOwnership:
        """Take every shard in `shard_ids` or raise OwnershipError.

        wait=None: fail at once if another session holds one of them. wait=seconds: retry
        every `poll` seconds until all are free (a replacement process started while the
        dead one's session is still being torn down), then fail. Shards taken while others
        are busy are kept between retries, so two waiting processes cannot starve each
        other on disjoint sets; on failure everything taken is released."""
        import asyncpg

        shards = sorted(set(shard_ids))
        try:
            conn = await asyncpg.connect(dsn, timeout=10)
        except (OSError, TimeoutError, asyncpg.PostgresError,
                asyncpg.InterfaceError, ValueError) as exc:
            raise OwnershipError(
                "Cannot reach the PostgreSQL server of DATABASE_URL to claim shards "
                f"({type(exc).__name__}: {exc}); check the URL and that the server is up."
            ) from None
        deadline = None if wait is None else time.monotonic() + wait
        held: set[int] = set()
        try:
            while True:
                for shard in shards:
                    if shard not in held and await conn.fetchval(
                            "SELECT pg_try_advisory_lock($1, $2)",
                            *shard_lock_key(namespace, shard)):
                        held.add(shard)
                busy = [s for s in shards if s not in held]
                if not busy:
                    return cls(conn, namespace, shards)
                if deadline is None or time.monotonic() >= deadline:
                    raise OwnershipError(
                        f"Another bot process holds shard(s) {', '.join(map(str, busy))} "
                        f"of '{namespace}' on this PostgreSQL database: stop it first, or "
                        "give this process other SHARD_IDS.")
                await asyncio.sleep(min(poll, max(0.0, deadline - time.monotonic())))
        except BaseException:
            await _close(conn)
            raise

    async def holds(self) -> bool:
        """Whether this session still holds every shard's lock (False once the session is
        gone, e.g. after the server restarted: the process must stop using those shards)."""
        try:
            count = await self.connection.fetchval(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted"
                " AND pid = pg_backend_pid() AND objsubid = 2 AND classid::bigint = $1"
                " AND objid::bigint = ANY($2::bigint[])",
                shard_lock_key(self.namespace, 0)[0] % 2**32, self.shard_ids)
        except Exception:  # a broken session holds nothing
            return False
        return count == len(self.shard_ids)

    async def release(self) -> None:
        """Close the session; the server drops every lock with it."""
        await _close(self.connection)


async def _close(conn: Any) -> None:
    with contextlib.suppress(Exception):
        await asyncio.wait_for(conn.close(), 5)
    if not conn.is_closed():
        conn.terminate()
