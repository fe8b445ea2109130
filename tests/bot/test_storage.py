"""Storage: migrations, tables with optimistic versions, results and stats — each test on
SQLite (a real file) and on PostgreSQL (a fresh database), through the `database` fixture."""

from __future__ import annotations

import pytest

from bot.storage import MIGRATIONS, StaleVersionError, Storage


@pytest.fixture
async def store(database):
    storage = await Storage.open(database.target)
    yield storage
    await storage.close()


async def test_migrations_are_recorded_and_safe_to_run_twice(database):
    first = await Storage.open(database.target)
    assert first.dialect == database.dialect
    assert await first.schema_versions() == [v for v, _ in MIGRATIONS]
    assert await first.migrate() == []
    await first.close()
    second = await Storage.open(database.target)
    assert await second.schema_versions() == [v for v, _ in MIGRATIONS]
    await second.close()


async def test_sqlite_runs_in_wal_mode_with_foreign_keys(tmp_path):
    store = await Storage.open(tmp_path / "wal.db")
    assert await store._db.fetchval("PRAGMA journal_mode") == "wal"
    assert await store._db.fetchval("PRAGMA foreign_keys") == 1
    await store.close()


async def test_one_table_per_channel_and_versioned_saves(store):
    table = await store.create_table(guild_id=1, channel_id=10, game="suspense", host_id=5,
                                     seats=[{"user_id": 5, "name": "Ann", "ai": False}],
                                     options={"game": {}, "table": {}})
    assert table is not None and table.version == 0 and table.status == "lobby"
    again = await store.create_table(guild_id=1, channel_id=10, game="taboo", host_id=6,
                                     seats=[], options={})
    assert again is None
    table.status, table.state, table.version = "playing", '{"x": 1}', 1
    await store.save_table(table, expected_version=0)
    with pytest.raises(StaleVersionError):
        await store.save_table(table, expected_version=0)
    loaded = await store.get_table(table.id)
    assert loaded.version == 1 and loaded.state == '{"x": 1}' and loaded.status == "playing"


async def test_tables_survive_reopening(database):
    first = await Storage.open(database.target)
    table = await first.create_table(guild_id=1, channel_id=11, game="taboo", host_id=1,
                                     seats=[{"user_id": 1, "name": "A"}], options={})
    table.meta["deadline"] = 123.0
    await first.save_meta(table)
    await first.close()
    second = await Storage.open(database.target)
    [row] = await second.active_tables()
    assert row.id == table.id and row.meta == {"deadline": 123.0}
    await second.close()


async def test_finish_records_match_and_stats_and_drops_the_table(store):
    seats = [{"user_id": 1, "name": "Ann", "ai": False}, {"user_id": 2, "name": "Bo", "ai": False},
             {"user_id": None, "name": "🤖 Ada", "ai": True}]
    for round_ in range(2):
        table = await store.create_table(guild_id=7, channel_id=20, game="suspense", host_id=1,
                                         seats=seats, options={})
        table.started_at = 100.0
        await store.finish_table(table, scores={0: 6, 1: 2 + round_, 2: 1}, winners={0},
                                 reason="points target", finished_at=160.0)
        assert await store.table_in_channel(20) is None
    board = await store.leaderboard(7, "suspense")
    assert [(r.name, r.played, r.wins, r.points) for r in board] == [("Ann", 2, 2, 12.0),
                                                                     ("Bo", 2, 0, 5.0)]
    [mine] = await store.player_stats(7, 2)
    assert mine.game == "suspense" and mine.win_rate == 0.0
    matches = await store.recent_matches(7, "suspense")
    assert len(matches) == 2 and matches[0]["duration"] == 60.0
    assert matches[0]["winners"] == [0]


async def test_guild_settings_set_and_reset(store):
    assert await store.get_game_settings(1, "taboo") == {}
    await store.set_game_settings(1, "taboo", {"max_turns": 100})
    assert await store.get_game_settings(1, "taboo") == {"max_turns": 100}
    await store.reset_game_settings(1, "taboo")
    assert await store.get_game_settings(1, "taboo") == {}


async def test_a_failed_finish_rolls_back_and_leaves_other_writes_alone(store):
    """Writes never interleave with an open transaction: a finish that fails midway undoes
    itself only, and a save made meanwhile by another table stays."""
    import asyncio

    a = await store.create_table(guild_id=1, channel_id=30, game="taboo", host_id=1,
                                 seats=[{"user_id": 1, "name": "A"}], options={})
    b = await store.create_table(guild_id=1, channel_id=31, game="taboo", host_id=2,
                                 seats=[{"user_id": 2, "name": "B"}], options={})
    b.state, b.version = "{}", 1
    # a score that cannot be stored breaks finish_table inside its transaction
    failing = asyncio.create_task(store.finish_table(a, scores={0: object()}, winners={0},
                                                     reason="x", finished_at=1.0))
    saving = asyncio.create_task(store.save_table(b, expected_version=0))
    results = await asyncio.gather(failing, saving, return_exceptions=True)
    assert isinstance(results[0], TypeError) and results[1] is None
    assert (await store.get_table(a.id)) is not None  # the finish was undone
    assert (await store.get_table(b.id)).version == 1  # the other save stayed
    assert await store.recent_matches(1) == []


async def _tables(store, count: int):
    tables = []
    for i in range(count):
        tables.append(await store.create_table(
            guild_id=1, channel_id=100 + i, game="taboo", host_id=1,
            seats=[{"user_id": 1, "name": "A"}], options={}))
    return tables


async def test_concurrent_saves_are_written_together_and_each_hears_its_own_outcome(store):
    """Group commit: saves queued behind a running write go out in one statement; a stale
    one among them fails alone and the others are written with their own values."""
    import asyncio

    tables = await _tables(store, 30)
    trips = []
    original = store._update_rows

    async def counting(batch, rows, stamp):  # the saves' UPDATE statements
        trips.append(len(rows))
        return await original(batch, rows, stamp)

    store._update_rows = counting
    for i, table in enumerate(tables):
        table.state, table.version, table.meta = f'{{"n": {i}}}', 1, {"i": i}
    stale = tables[7]
    results = await asyncio.gather(
        *(store.save_table(t, expected_version=5 if t is stale else 0) for t in tables),
        return_exceptions=True)
    assert isinstance(results[7], StaleVersionError)
    assert all(r is None for i, r in enumerate(results) if i != 7)
    assert 1 <= len(trips) <= 2  # the first save alone, then everyone queued behind it
    assert sum(trips) == 30
    for i, table in enumerate(tables):
        loaded = await store.get_table(table.id)
        if i == 7:
            assert loaded.version == 0 and loaded.state is None
        else:
            assert (loaded.version, loaded.state, loaded.meta) == (1, f'{{"n": {i}}}', {"i": i})


async def test_two_queued_saves_of_one_table_land_in_order(store):
    import asyncio
    from dataclasses import replace

    [table] = await _tables(store, 1)
    first = replace(table, state='{"v": 1}', version=1)
    second = replace(table, state='{"v": 2}', version=2)
    await asyncio.gather(store.save_table(first, expected_version=0),
                         store.save_table(second, expected_version=1))
    loaded = await store.get_table(table.id)
    assert (loaded.version, loaded.state) == (2, '{"v": 2}')


async def test_a_save_cancelled_before_its_turn_is_not_written(store):
    import asyncio

    [table] = await _tables(store, 1)
    table.state, table.version = '{"x": 1}', 1
    async with store._write:  # another write is running
        task = asyncio.create_task(store.save_table(table, expected_version=0))
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    assert (await store.get_table(table.id)).version == 0
    assert store._saves == []


async def test_a_batch_with_a_stale_save_that_repeats_the_current_row_still_fails_it(store):
    """The stale one in a batch is told so even when its values equal what is stored (the
    batch finds its own rows by its unique updated_at, not by comparing contents)."""
    import asyncio

    tables = await _tables(store, 3)
    for table in tables:
        table.state, table.version = '{"same": true}', 1
    await store.save_table(tables[0], expected_version=0)
    results = await asyncio.gather(
        *(store.save_table(t, expected_version=0) for t in tables), return_exceptions=True)
    assert isinstance(results[0], StaleVersionError)
    assert results[1:] == [None, None]
