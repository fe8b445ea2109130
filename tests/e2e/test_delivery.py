"""Delivery of private views under moves that outrun it (end to end, through the fake)."""

from __future__ import annotations

import itertools

import pytest

from tests.e2e.driver import TableDriver, dm_updates

pytestmark = pytest.mark.e2e


async def play_moves(d: TableDriver, count: int, *, wait_for_delivery: bool) -> None:
    """Up to `count` moves, each by the first human the game waits for."""
    for _ in range(count):
        table = d.table
        if table is None:
            return
        humans = [s for s in sorted(table.engine.waiting_for(table.state))
                  if not table.is_ai(s)]
        if not humans:
            return
        await d.take_turn(d.seat_user(humans[0]))
        if wait_for_delivery:
            await d.synced()


def assert_no_dm_repeats_the_last(fake, users) -> None:
    for user in users:
        texts = [v.text for v in dm_updates(fake, user)]
        assert len(texts) > 1
        repeats = [a for a, b in itertools.pairwise(texts) if a == b]
        assert not repeats, (user.name, repeats[0][:200])


@pytest.mark.parametrize("command, others", [("suspense", 1), ("taboo", 2), ("suittaboo", 2)])
async def test_moves_made_while_dms_are_on_their_way_send_no_dm_identical_to_the_last(
        fake, world, bots, bot, command, others):
    """Issue (benchmarks): one DM per player whose private view changed. Players here move
    back to back without waiting for the bot's deliveries, so moves land while DMs are
    being sent; every DM must still differ from the one before it (a view compared with a
    spectator view one move older once made public fields look private and changed)."""
    d = TableDriver(fake, world, bots, command)
    users = [world.alice, world.bob, world.carol][:others + 1]
    await d.open(users[0], users[1:])
    await play_moves(d, 12, wait_for_delivery=False)
    await fake.settle()
    assert_no_dm_repeats_the_last(fake, users)


async def test_a_view_change_the_dm_would_not_show_sends_no_dm(fake, world, bots, bot,
                                                                 monkeypatch):
    """A private view that changes only in something the DM does not render (here a
    counter added to every seat view) must not send players a DM identical to their last."""
    d = TableDriver(fake, world, bots, "suspense")
    await d.open(world.alice, [world.bob])
    engine_type = type(d.table.engine)
    real_view = engine_type.view
    ticks = itertools.count()

    def noisy_view(self, state, seat=None):
        view = real_view(self, state, seat)
        return view if seat is None else {**view, "noise": next(ticks)}

    monkeypatch.setattr(engine_type, "view", noisy_view)
    await play_moves(d, 8, wait_for_delivery=True)
    assert_no_dm_repeats_the_last(fake, [world.alice, world.bob])


async def test_a_dm_does_not_wait_behind_the_old_boards_delete(fake, world, bots, bot):
    """When the turn passes, the board is posted anew and the old one deleted. A delete can
    wait seconds for the channel's rate-limit bucket; the mover's DM (another channel,
    another bucket) came only after it, since one delivery did both in turn. The private
    hand no longer waits behind public housekeeping: here the delete is held back until
    the DM has arrived, then the old board goes as before."""
    import asyncio

    janitor = bot.tables.publisher.janitor
    real, gate, held = janitor._delete, asyncio.Event(), []

    async def held_delete(message_id, channel_id):
        held.append(message_id)
        await gate.wait()
        return await real(message_id, channel_id)

    d = TableDriver(fake, world, bots, "suspense")
    await d.open(world.alice, [world.bob])
    seat = await d.next_human()
    mover = d.seat_user(seat)
    old_board, dms = d.board(), len(dm_updates(fake, mover))
    janitor._delete = held_delete
    try:
        await d.take_turn(mover)  # the first move of a match plays a card: the hand changes
        assert await fake._wait_until(lambda: len(dm_updates(fake, mover)) > dms, 20), (
            "the mover's DM waited for the old board's delete")
        assert held == [old_board.id] and not old_board.deleted
    finally:
        gate.set()
    await d.synced()
    assert old_board.deleted and d.board().id != old_board.id
    d.assert_no_leaks()
