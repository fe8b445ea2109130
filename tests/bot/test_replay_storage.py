"""Storage of game records (issue 18): a running game's moves are appended by the very save
that makes them (a stale or refused save appends nothing), a finished game's record is kept
with its result, and the retention setting drops old records but not results."""

from __future__ import annotations

import asyncio

import pytest

from bot.replay.record import entry_lines, parse_lines
from bot.storage import StaleVersionError, Storage


@pytest.fixture
async def store(database):  # SQLite, then PostgreSQL
    storage = await Storage.open(database.target)
    yield storage
    await storage.close()


async def _table(store, channel=10):
    return await store.create_table(guild_id=1, channel_id=channel, game="suspense",
                                    host_id=5, seats=[{"user_id": 5, "name": "Ann"}],
                                    options={"game": {}, "table": {}})


async def test_each_save_appends_its_moves_and_a_stale_one_appends_nothing(store):
    table = await _table(store)
    assert await store.table_actions(table.id) == ""
    table.version, table.actions_tail = 1, entry_lines(1, [{"start": {"seed": "3", "n": 2}}])
    await store.save_table(table, expected_version=0)
    table.version, table.actions_tail = 2, entry_lines(2, [{"seat": 0, "act": {"Pass": []}}])
    await store.save_table(table, expected_version=1)
    stale = entry_lines(2, [{"seat": 1, "act": {"Fold": []}}])
    table.actions_tail = stale
    with pytest.raises(StaleVersionError):
        await store.save_table(table, expected_version=1)
    lines = parse_lines(await store.table_actions(table.id))
    assert [e["v"] for e in lines] == [1, 2]
    assert lines[1] == {"v": 2, "seat": 0, "act": {"Pass": []}}
    table.actions_tail = ""  # a bookkeeping-only save leaves the moves alone
    table.meta["x"] = 1
    await store.save_meta(table)
    await store.save_metas([table])
    assert len(parse_lines(await store.table_actions(table.id))) == 2


async def test_saves_batched_together_each_append_to_their_own_table(store):
    tables = [await _table(store, channel=100 + i) for i in range(5)]
    for i, table in enumerate(tables):
        table.version, table.actions_tail = 1, entry_lines(1, [{"note": f"t{i}"}])
    await asyncio.gather(*(store.save_table(t, expected_version=0) for t in tables))
    for i, table in enumerate(tables):
        assert parse_lines(await store.table_actions(table.id)) == [{"v": 1, "note": f"t{i}"}]


async def test_a_finished_game_keeps_its_record_until_the_retention_drops_it(store):
    old = await _table(store, channel=20)
    new = await _table(store, channel=21)
    first = await store.finish_table(old, scores={0: 1}, winners={0}, reason="r",
                                     finished_at=1000.0, record='{"old": true}')
    second = await store.finish_table(new, scores={0: 1}, winners={0}, reason="r",
                                      finished_at=5000.0, record='{"new": true}')
    assert await store.match_record(first) == '{"old": true}'
    assert await store.prune_records(finished_before=2000.0) == 1
    assert await store.match_record(first) is None
    assert await store.match_record(second) == '{"new": true}'
    assert len(await store.recent_matches(1)) == 2, "results stay"
    third = await store.finish_table(await _table(store, channel=22), scores={0: 1},
                                     winners={0}, reason="r", finished_at=6000.0)
    assert await store.match_record(third) is None  # a game without a record: none kept


async def test_lines_spilled_out_of_the_row_read_back_in_order(store):
    """Move lines go to table_moves in chunks (off the move path); reading them back gives
    every line once, in order, whichever part is still in the row; finishing or dropping
    the table takes its chunks with it."""
    table = await _table(store)
    expected = []
    for version in range(1, 8):
        entries = [{"seat": 0, "act": {"Play": [str(version)]}}]
        table.version, table.actions_tail = version, entry_lines(version, entries)
        expected.append(version)
        await store.save_table(table, expected_version=version - 1)
        if version in (2, 3, 5):
            await store.spill_actions([table.id, 999])
    assert [e["v"] for e in parse_lines(await store.table_actions(table.id))] == expected
    rows = await store._db.fetch("SELECT seq FROM table_moves WHERE table_id=?", table.id)
    assert sorted(r[0] for r in rows) == [0, 1, 2]
    rest = await store._db.fetchval("SELECT actions FROM game_tables WHERE id=?", table.id)
    assert len(parse_lines(rest)) == 2, "the row keeps only the rest"
    await store.finish_table(table, scores={0: 1}, winners={0}, reason="r", finished_at=1.0)
    other = await _table(store, channel=11)
    table.actions_tail = ""
    other.version, other.actions_tail = 1, entry_lines(1, [{"note": "x"}])
    await store.save_table(other, expected_version=0)
    await store.spill_actions([other.id])
    await store.delete_table(other.id)
    assert await store._db.fetchval("SELECT COUNT(*) FROM table_moves") == 0
