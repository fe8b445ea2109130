"""Issue 16, timers per step: each step of a turn gets the turn's full time, and a turn that
times out counts once toward `afk_turns`, whatever its number of steps (Taboo: draw, then
place; Six Suit: predict, then play)."""

from __future__ import annotations

import time

import pytest

from tests.e2e.driver import TableDriver

pytestmark = pytest.mark.e2e

TURN = 300  # long enough that the tick loop never fires by itself: the test expires turns


async def _time_out_one_turn(d: TableDriver) -> tuple[int, int]:
    """Let the waiting human's whole turn time out, one step at a time; (seat, steps)."""
    seat = await d.next_human()
    steps = 0
    while (d.table is not None and d.table.engine.waiting_for(d.table.state) == {seat}
           and not d.table.is_ai(seat)):
        table = d.table
        before = time.time()
        await d.bot.tables.expire(table.id)
        steps += 1
        assert steps < 30
        if (d.table is not None and d.table.engine.waiting_for(d.table.state) == {seat}
                and not table.is_ai(seat)):
            # the same turn goes on: its next step gets the full time again
            assert table.meta["deadline"] >= before + TURN - 1, "the next step got no time"
    await d.synced()
    return seat, steps


@pytest.mark.parametrize("command", ["taboo", "sixsuit"])
async def test_every_step_gets_the_full_time_and_a_timed_out_turn_counts_once(
        fake, world, bots, command):
    await bots.start(turn_seconds=TURN, timer_tick=60)
    d = TableDriver(fake, world, bots, command)
    await d.open(world.alice, [world.bob], options=f"turn_seconds={TURN} afk_turns=2")
    multi_step = False
    timed_out: dict[int, int] = {}
    for _ in range(8):
        seat, steps = await _time_out_one_turn(d)
        multi_step |= steps >= 2
        timed_out[seat] = timed_out.get(seat, 0) + 1
        table = d.table
        if table is None:
            break
        if timed_out[seat] == 1:
            assert not table.is_ai(seat), f"one timed-out turn of {steps} steps replaced them"
            assert table.meta["expiries"].get(str(seat)) == 1
        else:
            assert table.is_ai(seat), "two timed-out turns in a row hand the seat to an AI"
            break
    assert multi_step, "no turn of several steps was seen"
    texts = "\n".join(v.text for m in fake.channel_messages(world.channel) for v in m.versions())
    assert "(2 turns timed out)" in texts
    assert "time runs out in 0 seconds" not in texts


async def test_a_replaced_player_takes_their_seat_back_with_take_my_turn(fake, world, bots):
    """"🤖 An AI now plays for bob … Act again to take it back": bob came back and pressed
    **Take my turn**, and was told it was not his turn; his seat's turns were the AI's,
    played a second or so after they came up, so he could never act again and never got
    the seat back (found playing as new users). Now the panel gives it back at once."""
    await bots.start(turn_seconds=TURN, timer_tick=60)
    d = TableDriver(fake, world, bots, "taboo")
    await d.open(world.alice, [world.bob, world.carol],
                 options=f"turn_seconds={TURN} afk_turns=1 max_turns=40")
    table = d.table
    bob = table.seat_of(world.bob.id)
    while await d.next_human() != bob:
        await d.take_turn(d.seat_user(await d.next_human()))
    await d.bot.tables.expire(table.id)  # bob walked away: an AI takes his seat
    assert d.table.is_ai(bob)
    other = await d.next_human()
    assert other != bob  # the AI played bob's turn at once
    back = await d.click(world.bob, d.board(), "Take my turn")
    assert back.ephemeral and "seat back" in back.text and "not your turn" in back.text, \
        back.text
    assert not d.table.is_ai(bob) and not d.table.seats[bob].get("replaced")
    while (seat := await d.next_human()) != bob:  # his next turn waits for him again
        await d.take_turn(d.seat_user(seat))
    assert "✅" in await d.take_turn(world.bob)
    assert "bob is back and plays again." in await d.history()
    # the game's record replays with the seat given back between two moves
    await d.play_to_end()
    result = d.results()[-1]
    replay = await d.click(world.bob, result, "Replay")
    last = await d.click(world.bob, replay.message, "Last")
    assert "⚠️" not in last.text and "replay" in last.text, last.text
