"""Issue #20: two bot processes on two shards of one fake Discord and one PostgreSQL.

Each process runs `python -m bot` with SHARD_COUNT=2 and its own SHARD_IDS, as the launcher
starts them. Tables are played in a server on each shard; then one process is killed with
kill -9 in the middle of its games and a replacement takes its shards over: every move
confirmed before the kill is in the database, the boards the dead process posted still
work, and play carries on. The same through `python -m bot.launcher`, which must restart the
dead process by itself. SQLite cannot do this (one process per file), so these run on
PostgreSQL only.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import time
from pathlib import Path

import asyncpg
import pytest

from tests.databases import fresh_postgres_database
from tests.e2e.driver import CONFIRM, TableDriver
from tests.e2e.test_process import _read_until
from tests.e2e.test_shards import guild_on_shard

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def url():
    async with fresh_postgres_database() as url:
        yield url


def _env(fake, url: str, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DISCORD_", "DATABASE_", "SQLITE_", "SHARD_"))}
    env.update({"DISCORD_TOKEN": "fake-token", "THREADS": "false", "DISCORD_API_BASE": fake.rest_base,
                "DISCORD_GATEWAY_URL": fake.gateway_url, "DATABASE_URL": url,
                "LOG_LEVEL": "INFO", "PYTHONPATH": str(ROOT), "AI_DELAY": "0",
                "TURN_SECONDS": "0", "REST_REQUESTS_PER_SECOND": "0", "PICTURES": "false",
                "GAME_SEED": "1", "SHARD_COUNT": "2", **extra})
    return env


async def _spawn(fake, url: str, shard: int, cwd: Path) -> asyncio.subprocess.Process:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=cwd, env=_env(fake, url, SHARD_IDS=str(shard)),
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
    seen: list[str] = []
    await _read_until(proc.stderr, "ready as", seen, timeout=60)
    proc.drain = asyncio.create_task(proc.stderr.read())  # type: ignore[attr-defined]
    return proc


class _Remote:
    """TableDriver's bot runner when the bot is another process (only clicks are used)."""

    current = None


class Table:
    """A Suspense table of alice and bob in `channel`, played through the fake only."""

    def __init__(self, fake, world, channel) -> None:
        self.fake, self.world, self.channel = fake, world, channel
        self.driver = TableDriver(fake, world, _Remote(), "suspense")
        self.confirmed: list[int] = []  # the stored version after each confirmed move

    @contextlib.contextmanager
    def here(self):
        """The driver works in world.channel: this table's channel meanwhile."""
        self.world.channel, saved = self.channel, self.world.channel
        try:
            yield
        finally:
            self.world.channel = saved

    def board(self):
        with self.here():
            return self.driver.board()

    async def open(self) -> None:
        world = self.world
        with self.here():
            lobby = (await self.fake.slash(world.alice, "suspense new",
                                           channel=self.channel)).message
            self.driver.table_id = int(lobby.buttons()[0]["custom_id"].split(":")[1])
            await self.driver.click(world.bob, lobby, "Join")
            await self.driver.click(world.alice, lobby, "Start")
            await _until(lambda: any(m.buttons() for m in
                                     self.fake.channel_messages(self.channel)))

    async def move(self, url: str) -> None:
        """A confirmed move by whoever must act; the stored version right after the ✅."""
        world = self.world
        with self.here():
            for _ in range(100):
                for user in (world.alice, world.bob):
                    await _until(lambda: self.driver.board() is not None)
                    text = await self.driver.take_turn(user)
                    if CONFIRM in text:
                        self.confirmed.append(await stored_version(url, self.driver.table_id))
                        return
                await asyncio.sleep(0.05)  # the board of the last move is on its way
            raise AssertionError("nobody could move")


async def stored_version(url: str, table_id: int) -> int | None:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetchval("SELECT version FROM game_tables WHERE id = $1", table_id)
    finally:
        await conn.close()


async def _until(predicate, timeout: float = 30) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            if predicate():
                return
        except AssertionError:
            pass
        await asyncio.sleep(0.02)
    raise AssertionError("timed out waiting")


async def _world_on_two_shards(fake, world):
    """world.guild on its shard, another server with a channel on the other one."""
    from fakediscord.gateway import shard_of

    home = shard_of(world.guild.id, 2)
    other = await guild_on_shard(fake, 1 - home, 2)
    channel = fake.add_channel(other, "games")
    for user in (world.alice, world.bob):
        fake.add_member(other, user)
    return {home: world.channel, 1 - home: channel}


def _stop(proc) -> None:
    if proc.returncode is None:
        proc.kill()


async def test_two_processes_one_killed_and_replaced_lose_nothing(fake, world, url, tmp_path):
    channels = await _world_on_two_shards(fake, world)
    procs = {shard: await _spawn(fake, url, shard, tmp_path) for shard in (0, 1)}
    try:
        tables = {shard: Table(fake, world, channels[shard]) for shard in (0, 1)}
        for table in tables.values():
            await table.open()
        for _ in range(3):
            for table in tables.values():
                await table.move(url)
        victim = 1
        procs[victim].send_signal(signal.SIGKILL)  # right after a ✅: no shutdown, no flush
        await asyncio.wait_for(procs[victim].wait(), 30)
        # the other shard keeps playing meanwhile
        await tables[1 - victim].move(url)
        for table in tables.values():  # every confirmed move is stored
            assert table.confirmed == sorted(table.confirmed)
            assert await stored_version(url, table.driver.table_id) == table.confirmed[-1]
        old_board = tables[victim].board()
        procs[victim] = await _spawn(fake, url, victim, tmp_path)  # the replacement
        # the dead process's board still works: its Take my turn opens a panel (unless it
        # was a board the dead process posted but never saved: the replacement finds such a
        # board and replaces it, bot.board_janitor; then the board people see works)
        for user in (world.alice, world.bob):
            board = old_board if not old_board.deleted else tables[victim].board()
            answer = await tables[victim].driver.click(user, board, "Take my turn")
            assert answer.ephemeral and answer.text, answer
        before = tables[victim].confirmed[-1]
        await tables[victim].move(url)  # and play carries on from the stored version
        assert tables[victim].confirmed[-1] > before
        await tables[1 - victim].move(url)
        # results and stats read across the shards: both servers' tables are in one place
        conn = await asyncpg.connect(url)
        try:
            guilds = await conn.fetch("SELECT DISTINCT guild_id FROM game_tables")
        finally:
            await conn.close()
        assert len(guilds) == 2
    finally:
        for proc in procs.values():
            _stop(proc)
            await proc.wait()


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        path = task / "children"
        found += [int(x) for x in (path.read_text().split() if path.exists() else [])]
    return found


def _shard_of_process(pid: int) -> str | None:
    try:
        environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:
        return None
    for item in environ:
        if item.startswith(b"SHARD_IDS="):
            return item.split(b"=", 1)[1].decode()
    return None


async def test_the_launcher_restarts_a_killed_process_which_resumes_its_tables(
        fake, world, url, tmp_path):
    channels = await _world_on_two_shards(fake, world)
    launcher = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.launcher", "--processes", "2", cwd=tmp_path,
        env=_env(fake, url), stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE)
    seen: list[str] = []
    try:
        for _ in range(2):
            await _read_until(launcher.stderr, "ready as", seen, timeout=60)
        tables = {shard: Table(fake, world, channels[shard]) for shard in (0, 1)}
        for table in tables.values():
            await table.open()
            await table.move(url)
        victim = 1
        [pid] = [p for p in _children(launcher.pid) if _shard_of_process(p) == str(victim)]
        os.kill(pid, signal.SIGKILL)
        await _read_until(launcher.stderr, "restarting in", seen, timeout=30)
        await _read_until(launcher.stderr, "ready as", seen, timeout=60)
        [new_pid] = [p for p in _children(launcher.pid) if _shard_of_process(p) == str(victim)]
        assert new_pid != pid
        before = tables[victim].confirmed[-1]
        assert await stored_version(url, tables[victim].driver.table_id) == before
        await tables[victim].move(url)  # the old board, served by the new process
        assert tables[victim].confirmed[-1] > before
        launcher.send_signal(signal.SIGTERM)
        rest = await asyncio.wait_for(launcher.stderr.read(), 60)
        assert await asyncio.wait_for(launcher.wait(), 60) == 0, "".join(seen) + rest.decode()
    finally:
        if launcher.returncode is None:  # the test failed: end it and its processes
            children = _children(launcher.pid)
            launcher.kill()
            await launcher.wait()
            for pid in children:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)


async def test_a_bot_that_loses_its_session_stops_and_a_new_one_resumes(fake, world, url):
    """In-process: the session holding the shard locks is ended (as a failover does); the
    bot stops itself (exit code 3), a second close just waits for it, and a new bot on the
    same database takes the shards and the table back."""
    from tests.databases import Database
    from tests.e2e.conftest import BotRunner

    runner = BotRunner(fake, world, Database("postgresql", url))
    bot = await runner.start()
    try:
        d = TableDriver(fake, world, runner, "suspense")
        await d.open(world.alice, [world.bob], ai=1)
        table_id, version = d.table_id, d.table.version
        conn = await asyncpg.connect(url)
        try:
            await conn.execute("SELECT pg_terminate_backend($1)",
                               bot.storage._db._writer.get_server_pid())
        finally:
            await conn.close()
        await _until(bot.is_closed)
        assert bot.exit_code == 3
        await asyncio.wait_for(runner.stop(), 30)  # a second close
        again = await runner.start()
        assert again.tables.live[table_id].version >= version
    finally:
        await runner.stop()
