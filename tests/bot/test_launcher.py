"""bot.launcher: N processes on disjoint shards, a dead one started again (issue #20)."""

from __future__ import annotations

import asyncio
import sys

import pytest

import bot.launcher as launcher


def test_shards_are_split_across_processes_without_overlap():
    assert launcher.assign(4, 2) == [[0, 2], [1, 3]]
    assert launcher.assign(3, 3) == [[0], [1], [2]]
    with pytest.raises(ValueError):
        launcher.assign(2, 3)


async def test_a_process_that_dies_is_started_again_with_the_same_shards(tmp_path,
                                                                         monkeypatch):
    monkeypatch.setattr(launcher, "BACKOFF_START", 0.01)
    log = tmp_path / "starts"
    code = ("import os, sys; f = open(sys.argv[1], 'a'); "
            "f.write(os.environ['SHARD_COUNT'] + ':' + os.environ['SHARD_IDS'] + '\\n'); "
            "f.close()\nif os.environ['SHARD_IDS'].startswith('0'): sys.exit(1)\n")
    # process 0 exits at once (and is restarted); process 1 stays up until stopped
    command = [sys.executable, "-c", code + "import time; time.sleep(60)", str(log)]
    runner = launcher.Launcher(2, 4, command)
    task = asyncio.create_task(runner.run())
    for _ in range(1000):
        lines = log.read_text().splitlines() if log.exists() else []
        if lines.count("4:0,2") >= 3 and "4:1,3" in lines:
            break
        await asyncio.sleep(0.02)
    runner.stop()
    await asyncio.wait_for(task, 30)
    assert lines.count("4:0,2") >= 3 and lines.count("4:1,3") == 1
    assert runner.restarts >= 2


def test_the_request_budget_is_shared_between_the_processes(monkeypatch):
    """Discord's global limit is per bot: 2 processes get 22 requests/s each of the 45."""
    monkeypatch.delenv("REST_REQUESTS_PER_SECOND", raising=False)
    runner = launcher.Launcher(2, 2, ["true"])
    assert runner.env(0)["REST_REQUESTS_PER_SECOND"] == "22"
    assert runner.env(1)["SHARD_IDS"] == "1" and runner.env(1)["SHARD_COUNT"] == "2"
    monkeypatch.setenv("REST_REQUESTS_PER_SECOND", "0")
    assert runner.env(0)["REST_REQUESTS_PER_SECOND"] == "0"


def test_several_processes_on_sqlite_are_refused_with_one_sentence(tmp_path, monkeypatch,
                                                                    capsys):
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.delenv("DATABASE_URL", raising=False)
    with pytest.raises(SystemExit) as stopped:
        launcher.main(["--processes", "2"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "DATABASE_URL" in err and len(err.splitlines()) == 1
