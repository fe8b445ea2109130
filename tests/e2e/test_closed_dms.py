"""Closed DMs cost one refused request per game, not a storm (issue 14 item 4).

Discord counts every 401/403/429 answer and bans a bot past 10,000 in 10 minutes. After a DM
is refused with 403 (code 50007) the bot sends that player no more DMs in that game, however
often they click; the channel is told once, without any secret, **My hand** keeps working
and says once that DMs stopped, and **Try DMs again** (or `/notify dm`) makes one new try."""

from __future__ import annotations

import asyncio

import pytest

from tests.e2e import screens
from tests.e2e.driver import TableDriver, dm_messages

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


async def test_a_closed_dm_player_costs_one_refusal_in_a_game(fake, world, bots):
    """The closed-DM player's hand changes again and again while they click My hand: one
    refused DM in all. Their first answer says DMs stopped, with **Try DMs again** (later
    ones do not repeat it); the button makes exactly one new try (still closed: one more
    refusal, no second channel notice, the hint is back); once their DMs are open, the
    button brings their hand by DM."""
    await bots.start(turn_seconds=1)
    closed = fake.add_user("closed", dm_open=False)
    fake.add_member(world.guild, closed)
    d = TableDriver(fake, world, bots, "suspense")
    await d.open(world.bob, [closed], ai=1, options="points_target=20 afk_turns=20")
    seat = d.table.seat_of(closed.id)
    await private_changes(d, seat, 2)
    assert len(refused_dms(fake, closed)) == 1
    assert len(notices(fake, world)) == 1
    first = await d.click(closed, d.board(), "My hand")  # My hand keeps working
    assert first.ephemeral and "Your Suspense hand" in first.text
    assert screens.STOPPED in first.text, first.text
    again = await d.click(closed, d.board(), "My hand")
    assert screens.STOPPED not in again.text  # said once
    await private_changes(d, seat, 2)
    assert len(refused_dms(fake, closed)) == 1  # clicking re-enabled nothing
    retry = await fake.click(closed, first.message, next(
        b["custom_id"] for b in first.message.buttons() if b.get("label") == "Try DMs again"))
    assert retry.ephemeral and "once more" in retry.text, retry.text
    await d.synced()
    assert len(refused_dms(fake, closed)) == 2  # exactly one new try, refused
    await private_changes(d, seat, 1)
    assert len(refused_dms(fake, closed)) == 2
    assert len(notices(fake, world)) == 1  # the channel is told once
    hint = await d.click(closed, d.board(), "My hand")
    assert screens.STOPPED in hint.text  # stopped again: said again
    closed.dm_open = True
    before = len(dm_messages(fake, closed))
    await fake.click(closed, hint.message, next(
        b["custom_id"] for b in hint.message.buttons() if b.get("label") == "Try DMs again"))
    await d.synced()
    # exactly one new DM. Not one new version: the game runs on a 1 s turn timer, so under
    # load a timed move can change the hand before `synced` returns, and the living DM is
    # then edited to show it (a fresh-clone CI run failed on the old count that way).
    assert len(dm_messages(fake, closed)) == before + 1
    assert "Your Suspense hand" in fake.dms(closed)[-1].text
    assert len(refused_dms(fake, closed)) == 2
    d.players.append(closed)
    d.assert_no_leaks()
    labels = d.table.engine.secret_labels(d.table.state, None)
    for text in notices(fake, world):
        assert not any(label in text for label in labels)


async def test_notify_dm_tries_a_stopped_dm_once_more(fake, world, bots):
    """`/notify dm` is the other way back: one new try at each game where DMs stopped."""
    await bots.start()
    closed = fake.add_user("closed", dm_open=False)
    fake.add_member(world.guild, closed)
    d = TableDriver(fake, world, bots, "suspense")
    await d.open(world.bob, [closed], ai=1)
    assert len(refused_dms(fake, closed)) == 1
    closed.dm_open = True
    answer = await fake.slash(closed, "notify", {"mode": "dm"}, channel=world.channel)
    assert "try once more" in answer.text, answer.text
    await d.synced()
    assert "Your Suspense hand" in fake.dms(closed)[-1].text
    assert len(refused_dms(fake, closed)) == 1


async def test_paused_dms_stay_paused_across_a_restart(fake, world, bots):
    """The pause is kept with the table: a restarted bot does not try the closed DMs again
    (one more refusal per restart would add up)."""
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
