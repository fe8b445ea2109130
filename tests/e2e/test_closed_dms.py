"""Closed DMs cost one refused request, not a storm (issue 14 item 4).

Discord counts every 401/403/429 answer and bans a bot past 10,000 in 10 minutes. After a DM
is refused with 403 (code 50007) the bot stops DMing that player until they interact again
(any click or command); the channel is told once, without any secret, and **My hand** keeps
working."""

from __future__ import annotations

import asyncio

import pytest

from tests.e2e import screens
from tests.e2e.driver import TableDriver, dm_updates

pytestmark = pytest.mark.e2e


def refused_dms(fake, user) -> list:
    return screens.refused_dms(fake, user)


def notices(fake, world) -> list[str]:
    return [m.text for m in fake.channel_messages(world.channel) if screens.NOTICE in m.text]


async def private_changes(d: TableDriver, seat: int, count: int) -> None:
    """Let the game run (others move by clicks, the closed player's turns time out) until
    what the seat's DM shows changed `count` times (each change would have been a DM)."""
    seen = d.table.meta["private_shown"].get(str(seat))
    changes = 0
    for _ in range(3000):
        table = d.table
        assert table is not None, "the game ended too soon"
        now = table.meta["private_shown"].get(str(seat))
        if now != seen:
            seen, changes = now, changes + 1
            if changes == count:
                return
        humans = [s for s in sorted(table.engine.waiting_for(table.state))
                  if not table.is_ai(s) and s != seat]
        if humans:
            await d.take_turn(d.seat_user(humans[0]))
            await d.synced()
        else:
            await asyncio.sleep(0.02)
    raise AssertionError("the private view did not change often enough")


async def test_a_closed_dm_player_costs_one_refusal_until_they_interact(fake, world, bots):
    """The closed-DM player never clicks for a while: their turns time out, their hand changes
    again and again, and exactly one DM was tried. A click (My hand) allows one more try (DMs
    still closed: one more refusal, no second notice); once they open their DMs and click,
    the next change is DM'd."""
    await bots.start(turn_seconds=1)
    closed = fake.add_user("closed", dm_open=False)
    fake.add_member(world.guild, closed)
    d = TableDriver(fake, world, bots, "suspense")
    await d.open(world.bob, [closed], ai=1, options="points_target=20 afk_turns=20")
    seat = d.table.seat_of(closed.id)
    await private_changes(d, seat, 2)
    assert len(refused_dms(fake, closed)) == 1
    assert len(notices(fake, world)) == 1
    hand = await d.click(closed, d.board(), "My hand")  # My hand keeps working
    assert hand.ephemeral and "Your Suspense hand" in hand.text
    await private_changes(d, seat, 1)
    assert len(refused_dms(fake, closed)) == 2  # one try after the click, then paused again
    assert len(notices(fake, world)) == 1  # the channel is told once
    closed.dm_open = True
    before = len(dm_updates(fake, closed))
    await d.click(closed, d.board(), "My hand")
    await private_changes(d, seat, 1)
    await d.synced()
    assert len(dm_updates(fake, closed)) == before + 1
    assert "Your Suspense hand" in fake.dms(closed)[-1].text
    assert len(refused_dms(fake, closed)) == 2
    d.players.append(closed)
    d.assert_no_leaks()
    labels = d.table.engine.secret_labels(d.table.state, None)
    for text in notices(fake, world):
        assert not any(label in text for label in labels)


async def test_paused_dms_stay_paused_across_a_restart(fake, world, bots):
    """The pause is kept with the table: a restarted bot does not try the closed DMs again
    (one more refusal per restart would add up), until the player interacts."""
    await bots.start(turn_seconds=1)
    closed = fake.add_user("closed", dm_open=False)
    fake.add_member(world.guild, closed)
    d = TableDriver(fake, world, bots, "suspense")
    await d.open(world.bob, [closed], ai=1, options="points_target=20 afk_turns=20")
    seat = d.table.seat_of(closed.id)
    assert len(refused_dms(fake, closed)) == 1
    await d.synced()
    await bots.restart(turn_seconds=1)
    await private_changes(d, seat, 2)
    assert len(refused_dms(fake, closed)) == 1
    assert len(notices(fake, world)) == 1
