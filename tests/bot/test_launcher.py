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


def test_a_launcher_on_one_of_several_machines_runs_only_its_shard_ids():
    """SHARD_COUNT=8, this machine SHARD_IDS=4,5,6,7: its processes split those four."""
    assert launcher.assign(8, 2, [4, 5, 6, 7]) == [[4, 6], [5, 7]]
    assert launcher.assign(8, 1, [7, 3]) == [[3, 7]]
    with pytest.raises(ValueError, match="between 1 and the 2 shards"):
        launcher.assign(8, 3, [1, 2])
    with pytest.raises(ValueError, match="from 0 to 7"):
        launcher.assign(8, 1, [8])


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


def test_each_process_gets_the_budget_share_of_its_shards(monkeypatch):
    """Two machines, each a launcher of 2 processes on 4 of 8 shards: each process holds a
    quarter of the shards and gets a quarter of the bot's 45/s (4 × 11 ≤ 45 in all)."""
    monkeypatch.setenv("REST_REQUESTS_PER_SECOND", "45")
    machine = launcher.Launcher(2, 8, ["true"], [0, 1, 2, 3])
    assert [machine.env(i)["SHARD_IDS"] for i in (0, 1)] == ["0,2", "1,3"]
    assert [machine.env(i)["REST_REQUESTS_PER_SECOND"] for i in (0, 1)] == ["11", "11"]
    uneven = launcher.Launcher(2, 3, ["true"])  # shards [0, 2] and [1]
    assert [uneven.env(i)["REST_REQUESTS_PER_SECOND"] for i in (0, 1)] == ["30", "15"]


def test_the_launcher_reads_shard_settings_as_the_bot_does(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SHARD_COUNT", raising=False)
    monkeypatch.setenv("SHARD_IDS", "1")
    with pytest.raises(SystemExit) as stopped:
        launcher.main(["--processes", "1"])
    assert stopped.value.code == 2
    assert "SHARD_IDS needs SHARD_COUNT" in capsys.readouterr().err


def test_several_processes_on_sqlite_are_refused_with_one_sentence(tmp_path, monkeypatch,
                                                                    capsys):
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.delenv("DATABASE_URL", raising=False)
    with pytest.raises(SystemExit) as stopped:
        launcher.main(["--processes", "2"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err.strip()
    assert "DATABASE_URL" in err and len(err.splitlines()) == 1
