"""python -m bot.copy_database: a bot's SQLite file copied into PostgreSQL, ids and all, with
no bot running on either, into an empty database only."""

from __future__ import annotations

import pytest

from bot.copy_database import CopyRefused, copy, main
from bot.storage import Storage, StorageUnavailable
from tests.databases import fresh_postgres_database


@pytest.fixture
async def url():
    async with fresh_postgres_database() as url:
        yield url


async def _fill(path):
    store = await Storage.open(path)
    seats = [{"user_id": 1, "name": "Ann"}, {"user_id": 2, "name": "Bo"}]
    done = await store.create_table(guild_id=7, channel_id=1, game="taboo", host_id=1,
                                    seats=seats, options={"game": {}})
    done.started_at = 10.0
    await store.finish_table(done, scores={0: 3, 1: 1}, winners={0}, reason="out",
                             finished_at=70.0, record='{"r": 1}')
    running = await store.create_table(guild_id=7, channel_id=2, game="taboo", host_id=2,
                                       seats=seats, options={})
    running.status, running.state, running.version = "playing", '{"s": 1}', 1
    running.actions_tail = "line\n"
    await store.save_table(running, expected_version=0)
    await store.set_game_settings(7, "taboo", {"max_turns": 50})
    await store.set_user_settings(2, {"notify": "dm"})
    await store.append_history([(running.id, 1, "Ann played")])
    await store.close()
    return running


async def test_every_row_is_copied_with_its_id_and_new_ids_follow(tmp_path, url):
    path = tmp_path / "bot.db"
    running = await _fill(path)
    lines: list[str] = []
    copied = await copy(path, url, out=lines.append)
    assert copied["matches"] == 1 and copied["game_tables"] == 1 and copied["player_stats"] == 2
    assert "game_tables: 1 row(s)" in lines
    store = await Storage.open(url)
    try:
        [row] = await store.active_tables()
        assert (row.id, row.version, row.state) == (running.id, 1, '{"s": 1}')
        assert await store.table_actions(row.id) == "line\n"
        assert [(r.name, r.wins) for r in await store.leaderboard(7, "taboo")] == [
            ("Ann", 1), ("Bo", 0)]
        [match] = await store.recent_matches(7)
        assert await store.match_record(match["id"]) == '{"r": 1}'
        assert await store.get_game_settings(7, "taboo") == {"max_turns": 50}
        assert await store.get_user_settings(2) == {"notify": "dm"}
        assert await store.history(row.id) == ["Ann played"]
        new = await store.create_table(guild_id=7, channel_id=3, game="taboo", host_id=1,
                                       seats=[], options={})
        assert new.id > running.id  # ids go on after the copied ones
    finally:
        await store.close()
    with pytest.raises(CopyRefused, match="already holds data"):  # never twice
        await copy(path, url, out=lines.append)


async def test_the_copy_refuses_while_a_bot_runs_on_either(tmp_path, url):
    path = tmp_path / "bot.db"
    await _fill(path)
    bot = await Storage.open(url, shard_count=2, shard_ids=[1])
    try:
        with pytest.raises(StorageUnavailable, match="SHARD_COUNT=2 still run"):
            await copy(path, url)
    finally:
        await bot.close()
    bot = await Storage.open(path)
    try:
        with pytest.raises(StorageUnavailable, match="Another bot process"):
            await copy(path, url)
    finally:
        await bot.close()


def test_the_command_says_what_is_missing_in_one_sentence(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert main(["--from", str(tmp_path / "none.db")]) == 2
    assert "--to postgresql://" in capsys.readouterr().err
    assert main(["--from", str(tmp_path / "none.db"), "--to", "postgresql://x@127.0.0.1:1/x"]) == 2
    assert "no SQLite file" in capsys.readouterr().err
