"""`python -m bot` as a real process against the fake Discord: ready line, a command, and a
clean shutdown on SIGTERM or SIGINT (storage closed, no destroyed-task warnings), on SQLite
and on PostgreSQL."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[2]


async def _read_until(stream, needle: str, seen: list[str], timeout: float = 30) -> None:
    async def loop():
        while True:
            line = await stream.readline()
            if not line:
                raise AssertionError("bot exited early:\n" + "".join(seen))
            seen.append(line.decode(errors="replace"))
            if needle in seen[-1]:
                return

    await asyncio.wait_for(loop(), timeout)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
async def test_process_starts_answers_and_stops_cleanly(fake, world, tmp_path, database, sig):
    """On each database (a SQLite file, a PostgreSQL schema: sessions and shard locks)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    env.update({"DISCORD_TOKEN": "fake-token", "THREADS": "false", "DISCORD_API_BASE": fake.rest_base,
                "DISCORD_GATEWAY_URL": fake.gateway_url, **database.env,
                "DEV_GUILD_ID": str(world.guild.id), "LOG_LEVEL": "INFO",
                "PYTHONPATH": str(ROOT), "PYTHONWARNINGS": "default"})
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-X", "dev", "-m", "bot", cwd=tmp_path, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    seen: list[str] = []
    try:
        await _read_until(proc.stderr, "ready as", seen)
        assert any("1 guild" in line for line in seen)
        result = await fake.slash(world.alice, "help", channel=world.channel)
        assert result.ephemeral and "Suspense" in result.text
        proc.send_signal(sig)
        rest = await asyncio.wait_for(proc.stderr.read(), 30)
        code = await asyncio.wait_for(proc.wait(), 30)
    finally:
        if proc.returncode is None:
            proc.kill()
    log = "".join(seen) + rest.decode(errors="replace")
    assert code == 0, log
    assert "shutting down" in log
    assert "Task was destroyed" not in log and "Traceback" not in log, log
    assert "was never awaited" not in log and "Unclosed" not in log, log
