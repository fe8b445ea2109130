"""One process owns a database: a second bot on the same SQLite file refuses to start.

Two processes on one database (a rolling deploy that starts the new bot before stopping the
old one, a second `python -m bot` by mistake) would both hold every table in memory and
overwrite each other's saved moves. On SQLite the owner is the process holding an exclusive
OS lock (`flock`) on a lock file next to the database, `<database>.lock`, for its whole life.
The OS drops the lock when the process ends however it ends (exit, crash, kill -9, power
loss), so a stale lock never blocks a restart, and no clock or heartbeat is involved. The
lock file holds the owner's process id, for the operator only.

Room for PostgreSQL (several shard processes on several machines, a later issue): ownership
is then per shard, not per file. Each process opens one long-lived session and takes
`pg_try_advisory_lock(<shard id>)` for every shard it runs (discord.py's shard ids); the
server releases those locks when the session ends, which is what the file lock does here. A
process loads and saves only the tables of its shards' guilds (`(guild_id >> 22) %
shard_count`), and every save's `UPDATE` carries `AND shard = $n` and runs on a connection
that still holds that shard's lock (a lease column checked by each save would do the same
without advisory locks). `claim` is the one call the storage makes; a `ShardOwnership`
with the same `release` would replace `FileOwnership` there.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path


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
