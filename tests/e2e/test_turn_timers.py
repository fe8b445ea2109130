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
