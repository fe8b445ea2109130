"""`python -m bot` as a real process: a database it can't use or another process owns ends
it at once with one sentence and status 2 (a SQLite file, a PostgreSQL URL), and a move
confirmed with ✅ survives kill -9 (on both)."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import sys
from pathlib import Path

import pytest

from bot.storage import Storage
from tests.databases import Database, fresh_postgres_database, require_postgres
from tests.e2e.driver import CONFIRM, TableDriver
from tests.e2e.test_process import _read_until

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]


def _env(database: Path | Database, **extra: str) -> dict[str, str]:
    if isinstance(database, Path):
        database = Database("sqlite", database)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DISCORD_", "DATABASE_", "SQLITE_", "SHARD_"))}
    env.update({"DISCORD_TOKEN": "fake-token", "THREADS": "false", **database.env,
                "LOG_LEVEL": "INFO", "PYTHONPATH": str(ROOT), **extra})
    return env


async def _refused(database: Path | Database, cwd: Path, **extra: str) -> str:
    """Run the bot on `database`; it must stop by itself with status 2 and one line."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=cwd, env=_env(database, **extra),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    try:
        _out, err = await asyncio.wait_for(proc.communicate(), 30)
    finally:
        if proc.returncode is None:
            proc.kill()
    text = err.decode(errors="replace").strip()
    assert proc.returncode == 2, text
    assert "Traceback" not in text and len(text.splitlines()) == 1, text
    return text


async def test_a_second_bot_on_the_same_database_refuses_to_start(tmp_path):
    path = tmp_path / "owned.db"
    owner = await Storage.open(path)  # the first bot (the lock is per open file, not per pid)
    try:
        text = await _refused(path, tmp_path)
    finally:
        await owner.close()
    assert "Another bot process" in text and str(path) in text


async def test_an_unusable_database_path_or_a_corrupt_file_ends_the_process(tmp_path):
    assert "is a folder" in await _refused(tmp_path, tmp_path)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    assert "DATABASE_PATH" in await _refused(blocker / "cardtable.db", tmp_path)
    corrupt = tmp_path / "corrupt.db"
    corrupt.write_bytes(b"garbage, not SQLite " * 500)
    assert "corrupt" in await _refused(corrupt, tmp_path)


async def test_an_unusable_postgresql_url_or_held_shards_end_the_process(tmp_path):
    await require_postgres()
    text = await _refused(Database("postgresql", "postgresql://postgres@127.0.0.1:1/x"), tmp_path)
    assert "Can't use the PostgreSQL database 127.0.0.1:1/x" in text
    async with fresh_postgres_database() as url:
        owner = await Storage.open(url, shard_count=2, shard_ids=[1])  # another process
        try:
            text = await _refused(Database("postgresql", url), tmp_path, SHARD_COUNT="2",
                                  SHARD_IDS="0,1", SHARD_WAIT_SECONDS="0")
        finally:
            await owner.close()
    assert "holds shard(s) 1 " in text


async def _spawn(fake, world, database: Path | Database, cwd: Path):
    env = _env(database, DISCORD_API_BASE=fake.rest_base, DISCORD_GATEWAY_URL=fake.gateway_url,
               DEV_GUILD_ID=str(world.guild.id), AI_DELAY="0", TURN_SECONDS="0",
               REST_REQUESTS_PER_SECOND="0")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=cwd, env=env,
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
    await _read_until(proc.stderr, "ready as", [])
    # keep reading its log: a full pipe stops asyncio from seeing the process end
    proc.drain = asyncio.create_task(proc.stderr.read())  # type: ignore[attr-defined]
    return proc


def _children(pid: int) -> list[int]:
    """The processes `pid` started (Linux: /proc/<pid>/task/*/children)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        text = (task / "children").read_text() if (task / "children").exists() else ""
        found += [int(x) for x in text.split()]
    return found


async def _stored_version(database: Database) -> int:
    """The only table's stored version, read as an operator would (the bot is not running)."""
    if database.dialect == "sqlite":
        with sqlite3.connect(database.target) as db:
            [(version,)] = db.execute("SELECT version FROM game_tables").fetchall()
        return version
    import asyncpg

    conn = await asyncpg.connect(str(database.target))
    try:
        [version] = [r[0] for r in await conn.fetch("SELECT version FROM game_tables")]
    finally:
        await conn.close()
    return version


class _Remote:
    """What TableDriver needs from a bot runner when the bot is another process: only the
    clicks and what the fake recorded are used (the driver's `table` is not)."""

    current = None


async def test_a_confirmed_move_survives_kill_9(fake, world, database, tmp_path):
    proc = await _spawn(fake, world, database, tmp_path)
    try:
        lobby = (await fake.slash(world.alice, "suspense new", channel=world.channel)).message
        d = TableDriver(fake, world, _Remote(), "suspense")
        d.table_id = int(lobby.buttons()[0]["custom_id"].split(":")[1])
        await d.click(world.bob, lobby, "Join")
        await d.click(world.alice, lobby, "Start")
        for _ in range(500):  # the first board, posted by the other process
            if any(m.buttons() for m in fake.channel_messages(world.channel)):
                break
            await asyncio.sleep(0.02)
        text = await d.take_turn(world.alice)
        if CONFIRM not in text:  # bob's turn first
            text = await d.take_turn(world.bob)
        assert CONFIRM in text
        children = _children(proc.pid)  # e.g. the picture worker
        proc.send_signal(signal.SIGKILL)  # right after the ✅: no shutdown, no flush
        await asyncio.wait_for(proc.wait(), 30)
        # what it started ends with it (an orphaned worker held the log pipe, and stayed)
        for _ in range(300):
            if not any(Path(f"/proc/{pid}").exists() for pid in children):
                break
            await asyncio.sleep(0.05)
        assert not [pid for pid in children if Path(f"/proc/{pid}").exists()]
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    version = await _stored_version(database)
    assert version == 3, version  # lobby join (1), start (2), the confirmed move (3)
    proc = await _spawn(fake, world, database, tmp_path)  # a new process carries on from it
    try:
        hand = await fake.slash(world.alice, "suspense hand", channel=world.channel)
        assert hand.ephemeral and "Your Suspense hand" in hand.text
    finally:
        proc.send_signal(signal.SIGTERM)
        await asyncio.wait_for(proc.wait(), 30)


async def test_a_process_that_loses_its_postgresql_session_stops_with_status_3(
        fake, world, tmp_path):
    """Its shards may be another process's now: it stops (status 3, one sentence on what
    to do), and a new process takes over from the database."""
    import asyncpg

    await require_postgres()
    async with fresh_postgres_database() as url:
        database = Database("postgresql", url)
        proc = await _spawn(fake, world, database, tmp_path)
        try:
            name = dict(p.split("=", 1) for p in url.split("?", 1)[1].split("&"))
            conn = await asyncpg.connect(url)
            try:  # as a server restart or a failover does to every session of the bot
                ended = await conn.fetchval(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                    "WHERE application_name = $1 AND pid <> pg_backend_pid()",
                    name["application_name"])
            finally:
                await conn.close()
            assert ended >= 1
            code = await asyncio.wait_for(proc.wait(), 30)
            log = (await proc.drain).decode(errors="replace")
            assert code == 3, log
            assert "lost its PostgreSQL session" in log.splitlines()[-1], log
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
        proc = await _spawn(fake, world, database, tmp_path)  # it takes its shards back
        try:
            assert (await fake.slash(world.alice, "help", channel=world.channel)).ephemeral
        finally:
            proc.send_signal(signal.SIGTERM)
            assert await asyncio.wait_for(proc.wait(), 30) == 0
