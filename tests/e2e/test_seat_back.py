"""A player an AI replaced after their time ran out takes the seat back with **Take my turn**
(`TableService.reclaim`): only once it is saved, never undone by a move the AI thought out
before, kept across a restart, and never for a player who left (README: "an AI plays their
seat to the end")."""

from __future__ import annotations

import asyncio

import pytest

from bot.replay.record import parse_lines
from tests.e2e.driver import CONFIRM, TableDriver
from tests.e2e.test_reliability import eventually, refuse_writes

pytestmark = pytest.mark.e2e

TURN = 300  # the tick loop never fires by itself: the test times turns out


async def replaced_bob(fake, world, bots, **settings) -> tuple[TableDriver, int]:
    """alice and bob play Suspense; bob's turn times out and an AI takes his seat."""
    await bots.start(turn_seconds=TURN, timer_tick=60, **settings)
    d = TableDriver(fake, world, bots, "suspense")
    await d.open(world.alice, [world.bob],
                 options=f"turn_seconds={TURN} afk_turns=1 points_target=3")
    table = d.table
    bob = table.seat_of(world.bob.id)
    while (seat := await d.next_human()) != bob:
        await d.take_turn(d.seat_user(seat))
    await d.bot.tables.expire(table.id)
    assert table.is_ai(bob) and table.seats[bob].get("replaced")
    await d.synced()
    return d, bob


async def test_an_ai_move_thought_out_before_the_seat_was_taken_back_is_never_played(
        fake, world, bots, monkeypatch):
    """The AI works out the seat's move outside the table lock; bob takes the seat back
    meanwhile. Its move, arriving after, must be dropped (the table moved on: reclaim saved
    a new version), or it would be played on bob's turn as his."""
    d, bob = await replaced_bob(fake, world, bots)
    table, service = d.table, d.bot.tables
    thinking, release = asyncio.Event(), asyncio.Event()
    real = service._ai_move

    async def slow(engine, state, seat, rng):
        if seat == bob:
            thinking.set()
            await release.wait()
        return await real(engine, state, seat, rng)

    monkeypatch.setattr(service, "_ai_move", slow)
    while (seat := await d.next_human()) is not None and seat != bob:
        await d.take_turn(d.seat_user(seat))
        if thinking.is_set():
            break
    assert await eventually(thinking.is_set), "the AI never thought about bob's turn"
    await d.synced()
    back = await d.click(world.bob, d.board(), "Take my turn")
    assert back.ephemeral and "seat back" in back.text and "Your move" in back.text, back.text
    version = table.version
    release.set()
    assert await eventually(lambda: table.ai_task is None or table.ai_task.done())
    await d.synced()
    assert table.version == version, "the AI's move was played after bob took the seat back"
    assert table.engine.waiting_for(table.state) == {bob} and not table.is_ai(bob)
    assert CONFIRM in await d.take_turn(world.bob)
    # the game's record (replays) says who moved for the seat: the timer and the AI before
    # the seat was given back, bob himself after
    entries = parse_lines(await d.bot.storage.table_actions(table.id))
    back_at = max(i for i, e in enumerate(entries) if "is back" in e.get("note", ""))
    before = [e for e in entries[:back_at] if e.get("seat") == bob]
    after = [e for e in entries[back_at:] if e.get("seat") == bob]
    assert before[-1].get("by") in ("ai", "timer"), before
    assert after and not any(e.get("by") for e in after), after


async def test_a_seat_taken_back_is_saved_first_and_a_refused_save_changes_nothing(
        fake, world, bots, monkeypatch):
    """Taking the seat back is a change of the table like a move: with the database
    refusing it, bob is told it did not happen and the AI keeps the seat, in memory and
    in the database alike; once the database works, the next click gives it back."""
    d, bob = await replaced_bob(fake, world, bots)
    table, bot = d.table, d.bot
    storage = bot.storage
    real = storage._update_rows
    version = table.version
    refuse_writes(bots, monkeypatch)
    refused = await d.click(world.bob, d.board(), "Take my turn")
    assert refused.ephemeral and "did **not** happen" in refused.text, refused.text
    assert "seat back" not in refused.text, refused.text
    assert table.version == version and table.is_ai(bob) and table.seats[bob]["replaced"]
    stored = await storage.get_table(table.id)
    assert stored.seats[bob].get("replaced") and stored.seats[bob].get("ai")
    monkeypatch.setattr(storage, "_update_rows", real)
    back = await d.click(world.bob, d.board(), "Take my turn")
    assert back.ephemeral and "seat back" in back.text, back.text
    stored = await storage.get_table(table.id)
    assert not stored.seats[bob].get("replaced") and not stored.seats[bob].get("ai")


async def test_a_replaced_seat_is_still_theirs_to_take_back_after_a_restart(fake, world, bots):
    d, bob = await replaced_bob(fake, world, bots)
    await bots.restart(turn_seconds=TURN, timer_tick=60)
    table = d.table
    assert table.is_ai(bob) and table.seats[bob].get("replaced"), "read back from the database"
    await d.synced()
    back = await d.click(world.bob, d.board(), "Take my turn")
    assert back.ephemeral and "seat back" in back.text, back.text
    assert not d.table.is_ai(bob)
    assert "bob is back and plays again." in await d.history()


async def test_a_replaced_player_who_then_left_cannot_take_the_seat_back(fake, world, bots):
    """Leaving is for good (README: an AI plays their seat to the end; the Leave prompt:
    "You can't come back to this game"), also for a player whose seat an AI had already
    taken over: Take my turn refuses, and the AI keeps the seat."""
    d, bob = await replaced_bob(fake, world, bots)
    ask = await d.click(world.bob, d.board(), "Leave")
    await d.click(world.bob, ask.message, "Leave the game")
    await d.synced()
    table = d.table
    assert table.seats[bob].get("left") and not table.seats[bob].get("replaced")
    again = await d.click(world.bob, d.board(), "Take my turn")
    assert again.ephemeral and "You left this game" in again.text, again.text
    typed = await fake.slash(world.bob, "suspense turn", channel=d.channel)
    assert typed.ephemeral and "You left this game" in typed.text, typed.text
    assert table.is_ai(bob) and table.seats[bob].get("left")


async def test_a_seat_is_not_taken_back_from_a_game_over_whose_result_is_not_recorded_yet(
        fake, world, bots, monkeypatch):
    """The last move is saved but the database refused the result (`finish_pending`: the
    timer loop tries again): the game is over, and Take my turn must not hand bob a seat
    of it. It did ("🙋 You have your seat back", "bob is back and plays again." after the
    end), and the result then recorded him as having played it to the end himself: the
    result message lost "An AI finished the game for bob"."""
    from bot.storage import StorageError

    d, bob = await replaced_bob(fake, world, bots)
    table, storage = d.table, d.bot.storage
    real = storage.finish_table

    async def refused(*args, **kwargs):
        raise StorageError("disk full")

    monkeypatch.setattr(storage, "finish_table", refused)
    while not table.finish_pending:  # (the AI may make the last move: no human is asked)
        humans = [s for s in table.engine.waiting_for(table.state) if not table.is_ai(s)]
        if humans:
            await d.take_turn(d.seat_user(humans[0]))
        await asyncio.sleep(0.01)
    assert table.finish_pending and table.engine.outcome(table.state) is not None
    click = await d.click(world.bob, d.board(), "Take my turn")
    assert click.ephemeral and "seat back" not in click.text, click.text
    assert table.is_ai(bob) and table.seats[bob].get("replaced")
    monkeypatch.setattr(storage, "finish_table", real)
    async with table.lock:  # what the timer loop does next
        await d.bot.tables._finish(table)
    result = await d.result_posted()
    assert "An AI finished the game for bob" in result.text, result.text


async def test_a_double_click_takes_the_seat_back_once(fake, world, bots):
    """Take my turn pressed twice at once (and `/suspense turn`, the README's other way):
    one gives the seat back, the others find it given back already; one note in the
    history, one saved change."""
    d, bob = await replaced_bob(fake, world, bots)
    table = d.table
    version = table.version
    board = d.board()
    answers = await asyncio.gather(
        d.click(world.bob, board, "Take my turn"), d.click(world.bob, board, "Take my turn"),
        fake.slash(world.bob, "suspense turn", channel=d.channel))
    assert all(a.ephemeral for a in answers)
    assert sum("seat back" in a.text for a in answers) == 1, [a.text for a in answers]
    assert table.version == version + 1 and not table.is_ai(bob)
    assert (await d.history()).count("bob is back and plays again.") == 1
