"""The databases tests run on: SQLite files, and fresh databases on a PostgreSQL server.

Tests that take the `database` fixture (tests/conftest.py) run once per backend: the storage
suite, and through `bots` every end-to-end test. PostgreSQL is found at TEST_DATABASE_URL
(default: the local server, user postgres, database test). Without a server the PostgreSQL
runs are skipped with the reason — except when CI is set: there a missing server fails, so
CI can never pass by skipping. `TEST_BACKENDS=sqlite` runs only SQLite (for quick local
runs; under CI leaving a backend out fails too).

Other test runs (other engineers, pytest-xdist workers) use the same server at the same
time, so every test gets a schema of its own in the database of TEST_DATABASE_URL, created
empty under a unique name (`cardtable_test_<host>_<pid>_<random>`) and dropped afterwards.
The test's URL names it twice: `search_path` (where the bot's tables go; its shard locks are
namespaced by it) and `application_name` (so the teardown can end any session a test's bot
process left before it drops the schema). A schema is made and dropped in milliseconds; a
database took 0.3–0.5 s each way on the loaded machine. A run killed before it could drop
its schemas leaves them behind; the next run on this machine drops those whose process is
gone.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import socket
import sqlite3
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL",
                                   "postgresql://postgres@127.0.0.1:5432/test")
BACKENDS = [b for b in os.environ.get("TEST_BACKENDS", "sqlite,postgresql").split(",") if b]
PREFIX = "cardtable_test_"
DROP_SECONDS = 60.0
HOST = hashlib.sha1(socket.gethostname().encode()).hexdigest()[:6]

_unreachable: str | None = None  # why the server could not be reached (checked once)
_swept = False


def _in_schema(url: str, name: str) -> str:
    parts = urlsplit(url)
    query = "&".join(q for q in (parts.query, f"search_path={name}&application_name={name}")
                     if q)
    return urlunsplit(parts._replace(query=query))


async def _admin():
    import asyncpg

    return await asyncpg.connect(TEST_DATABASE_URL, timeout=5)


async def require_postgres() -> str:
    """The test server's URL, after checking it answers (skip, or fail under CI)."""
    global _unreachable
    if _unreachable is None:
        try:
            conn = await _admin()
        except Exception as exc:  # any failure: no server here
            _unreachable = (f"no PostgreSQL at TEST_DATABASE_URL={TEST_DATABASE_URL} "
                            f"({type(exc).__name__}: {exc})")
        else:
            _unreachable = ""
            await conn.close()
    if _unreachable:
        if os.environ.get("CI"):
            pytest.fail(f"{_unreachable}; CI must run the PostgreSQL tests")
        pytest.skip(_unreachable)
    return TEST_DATABASE_URL


async def _sweep(conn) -> None:
    """Drop this machine's test schemas whose test process is gone (a killed run)."""
    global _swept
    if _swept:
        return
    _swept = True
    for (name,) in await conn.fetch("SELECT nspname FROM pg_namespace WHERE nspname LIKE $1",
                                    f"{PREFIX}{HOST}_%"):
        try:
            pid = int(name[len(PREFIX) + len(HOST) + 1:].split("_")[0])
        except ValueError:
            continue
        if not _alive(pid):
            with contextlib.suppress(Exception):
                await _drop(conn, name)


async def _drop(conn, name: str) -> None:
    """End the sessions a test left on its schema, then drop it with everything in it."""
    await conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                       "WHERE application_name = $1 AND pid <> pg_backend_pid()", name,
                       timeout=DROP_SECONDS)
    # bounded: a lock someone still holds in it fails the teardown rather than hanging it
    await conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE', timeout=DROP_SECONDS)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@contextlib.asynccontextmanager
async def fresh_postgres_database() -> AsyncIterator[str]:
    """A new, empty schema on the test server: the URL that puts a bot in it. Dropped
    afterwards, with whatever is in it."""
    await require_postgres()
    name = f"{PREFIX}{HOST}_{os.getpid()}_{uuid.uuid4().hex[:10]}"
    conn = await _admin()
    try:
        await _sweep(conn)
        await conn.execute(f'CREATE SCHEMA "{name}"')
    finally:
        await conn.close()
    try:
        yield _in_schema(TEST_DATABASE_URL, name)
    finally:
        conn = await _admin()
        try:
            await _drop(conn, name)
        finally:
            await conn.close()


@dataclass
class Database:
    """One test's database: `target` is what Storage.open and the settings take (a SQLite
    file path, or a postgresql:// URL)."""

    dialect: str
    target: Path | str

    @property
    def settings(self) -> dict[str, Any]:
        """The bot's settings for it."""
        if self.dialect == "sqlite":
            return {"database_path": self.target}
        return {"database_url": self.target}

    @property
    def env(self) -> dict[str, str]:
        """The environment of a `python -m bot` process on it."""
        if self.dialect == "sqlite":
            return {"DATABASE_PATH": str(self.target)}
        return {"DATABASE_URL": str(self.target)}

    async def execute(self, sql: str, *args: Any) -> None:
        """Run one statement (`?` placeholders) on the database directly, as an operator
        would — the bot must not be running on it."""
        if self.dialect == "sqlite":
            with sqlite3.connect(self.target) as db:
                db.execute(sql, args)
            return
        import asyncpg

        from bot.backends.postgres import placeholders

        conn = await asyncpg.connect(str(self.target), timeout=5)
        try:
            await conn.execute(placeholders(sql), *args)
        finally:
            await conn.close()

    def disk_full(self) -> BaseException:
        """The error this database's driver raises when its disk is full."""
        if self.dialect == "sqlite":
            return sqlite3.OperationalError("database or disk is full")
        import asyncpg

        return asyncpg.DiskFullError("could not extend file: No space left on device")


@contextlib.asynccontextmanager
async def database_for(dialect: str, folder: Path) -> AsyncIterator[Database]:
    if dialect not in BACKENDS:
        left_out = f"TEST_BACKENDS={','.join(BACKENDS)} leaves {dialect} out"
        if os.environ.get("CI"):  # CI runs both databases: it may not pass by skipping one
            pytest.fail(f"{left_out}; CI must run every test on both databases")
        pytest.skip(left_out)
    if dialect == "sqlite":
        yield Database("sqlite", folder / "db" / "bot.db")
        return
    async with fresh_postgres_database() as url:
        yield Database("postgresql", url)
