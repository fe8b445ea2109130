"""Storage faults: one process per database, unusable paths and files, failed writes,
unreadable rows and the durability setting (issue 15). The tests that take `database` run
on SQLite and on PostgreSQL; PostgreSQL's own faults are in test_storage_postgres.py."""

from __future__ import annotations

import asyncio
import threading

import pytest

from bot.storage import Storage, StorageError, StorageUnavailable, UnreadableRow


async def _lobby(store, channel_id: int = 10, game: str = "suspense"):
    return await store.create_table(guild_id=1, channel_id=channel_id, game=game, host_id=5,
                                    seats=[{"user_id": 5, "name": "Ann", "ai": False}],
                                    options={"game": {}, "table": {}})


async def test_a_second_owner_of_the_same_file_is_refused_until_the_first_closes(tmp_path):
    path = tmp_path / "one.db"
    first = await Storage.open(path)
    with pytest.raises(StorageUnavailable) as refused:
        await Storage.open(path)
    text = str(refused.value)
    assert "Another bot process" in text and str(path) in text and "\n" not in text
    await first.close()
    second = await Storage.open(path)  # the lock went with the first owner
    await second.close()


async def test_a_folder_or_a_corrupt_file_is_one_sentence_and_leaves_nothing_running(tmp_path):
    def sqlite_threads() -> set[threading.Thread]:
        return {t for t in threading.enumerate()
                if getattr(t, "_target", None) is not None
                and t._target.__name__ == "_connection_worker_thread"}

    threads = sqlite_threads()
    with pytest.raises(StorageUnavailable, match="is a folder"):
        await Storage.open(tmp_path)
    corrupt = tmp_path / "corrupt.db"
    corrupt.write_bytes(b"this is not a database file at all " * 200)
    with pytest.raises(StorageUnavailable, match="corrupt") as bad:
        await Storage.open(corrupt)
    assert "\n" not in str(bad.value)
    blocked = tmp_path / "a-file"
    blocked.write_text("x")
    with pytest.raises(StorageUnavailable, match="DATABASE_PATH"):
        await Storage.open(blocked / "under" / "it.db")
    # aiosqlite's thread is not a daemon: one left open kept the process from ever exiting
    # (a closed connection's thread ends a moment after close returns)
    for _ in range(200):
        if sqlite_threads() <= threads:
            break
        await asyncio.sleep(0.01)
    assert sqlite_threads() <= threads
    # and the failed opens did not keep the corrupt file's lock
    with pytest.raises(StorageUnavailable, match="corrupt"):
        await Storage.open(corrupt)


async def raw(store, sql: str, *args) -> None:
    """One statement on the store's writing session, under its write lock: on PostgreSQL
    its watchdog checks the shard locks on that session every few seconds, and a second
    statement at the same time fails ("another operation is in progress")."""
    async with store._write:
        await store._db.writer.execute(sql, *args)


async def read_only(store, on: bool) -> None:
    """Make the database refuse every write from this process (or take it again)."""
    if store.dialect == "sqlite":
        await raw(store, f"PRAGMA query_only={int(on)}")
    else:
        await raw(store, f"SET default_transaction_read_only = {'on' if on else 'off'}")


async def test_a_refused_write_raises_storage_error_and_writes_nothing(database):
    store = await Storage.open(database.target)
    table = await _lobby(store)
    await read_only(store, True)  # the database now refuses every write
    table.state, table.version = '{"moved": true}', 1
    with pytest.raises(StorageError):
        await store.save_table(table, expected_version=0)
    with pytest.raises(StorageError):
        await store.save_meta(table)
    with pytest.raises(StorageError):
        await store.finish_table(table, scores={0: 1.0}, winners={0}, reason="x",
                                 finished_at=1.0)
    await read_only(store, False)
    stored = await store.get_table(table.id)
    assert stored.version == 0 and stored.state is None
    await store.save_table(table, expected_version=0)  # works again once the database does
    assert (await store.get_table(table.id)).version == 1
    await store.close()


async def test_unreadable_rows_come_back_one_by_one_and_can_be_quarantined(database):
    store = await Storage.open(database.target)
    good = await _lobby(store, 10)
    bad = await _lobby(store, 11)
    await raw(store, "UPDATE game_tables SET seats='{not json' WHERE id=?", bad.id)
    rows = await store.active_tables()
    assert [type(r) for r in rows] == [type(good), UnreadableRow]
    assert rows[1].id == bad.id and rows[1].channel_id == 11 and "unreadable" in rows[1].reason
    await store.quarantine_table(bad.id, "unreadable row")
    assert [r.id for r in await store.active_tables()] == [good.id]
    [kept] = await store.quarantined()
    assert kept["id"] == bad.id and kept["row"]["seats"] == "{not json"
    assert kept["reason"] == "unreadable row"
    await store.close()


async def test_confirmed_saves_are_synced_full_unless_told_otherwise(tmp_path):
    """synchronous=FULL in WAL mode: a commit is synced before the save returns, so a move
    confirmed to a player survives power loss (NORMAL only survives a process crash)."""
    store = await Storage.open(tmp_path / "full.db")
    assert await store.synchronous() == "FULL"
    await store.close()
    store = await Storage.open(tmp_path / "full.db", synchronous="normal")
    assert await store.synchronous() == "NORMAL"
    await store.close()


async def test_a_transaction_a_cancelled_write_left_open_is_rolled_back(database):
    """A write cancelled while its BEGIN was on its way leaves the transaction open (the
    statement still runs): the next write rolls it back first, so its own work is committed
    and not swallowed by the abandoned transaction."""
    store = await Storage.open(database.target)
    table = await _lobby(store)
    await raw(store, "BEGIN")  # as the cancelled write left it
    table.state, table.version = '{"moved": true}', 1
    await store.save_table(table, expected_version=0)
    await raw(store, "BEGIN")
    await store.set_game_settings(1, "taboo", {"x": 1})
    await store.close()
    store = await Storage.open(database.target)  # committed, both
    assert (await store.get_table(table.id)).version == 1
    assert await store.get_game_settings(1, "taboo") == {"x": 1}
    await store.close()
