"""Issue 16, fewer notifications: one living DM per player per game, edited in place when
their private view changes; a new DM (which notifies) only when their turn starts and they
asked for DM pings (or a secret they must act on arrived with it); `/notify` chooses how a
turn pings: in the channel (default), by DM, or not at all."""

from __future__ import annotations

import pytest

from tests.e2e.driver import TableDriver, dm_updates, notifying_dms, pings

pytestmark = pytest.mark.e2e


async def test_one_living_dm_is_edited_in_place_and_channel_pings_by_default(fake, world,
                                                                              bots, bot):
    d = TableDriver(fake, world, bots, "taboo")
    await d.open(world.alice, [world.bob, world.carol], options="max_turns=24")
    moves = await d.play_to_end(sync_every=1)  # each turn shown before the next move
    for user in (world.alice, world.bob, world.carol):
        updates, new = dm_updates(fake, user), notifying_dms(fake, user)
        # the first DM, then new ones only when a turn starts with news only they see
        assert all("Just now (only you see this)" in m.versions()[0].text for m in new[1:])
        assert len(updates) > 2, "the hand DM was kept up to date by edits"
        assert len(fake.dms(user)) == 1, "one living DM per game"
        assert pings(fake, user, world.channel) >= 1
    assert moves > 10


async def test_notify_dm_sends_a_new_dm_when_the_turn_starts_and_no_channel_ping(
        fake, world, bots, bot):
    shown = await fake.slash(world.bob, "notify", channel=world.channel)
    assert shown.ephemeral and "**channel**" in shown.text
    chosen = await fake.slash(world.bob, "notify", {"mode": "dm"}, channel=world.channel)
    assert chosen.ephemeral and "**dm**" in chosen.text
    await fake.slash(world.carol, "notify", {"mode": "off"}, channel=world.channel)
    d = TableDriver(fake, world, bots, "taboo")
    await d.open(world.alice, [world.bob, world.carol], options="max_turns=24")
    await d.play_to_end(sync_every=1)  # each turn shown before the next move (as people do)
    bob_turns = sum(1 for m in notifying_dms(fake, world.bob)
                    if "Your turn in" in m.versions()[0].text)
    assert bob_turns >= 2, "bob is told by DM each time his turn starts"
    assert len(fake.dms(world.bob)) == 1, "the previous DM is deleted: one living DM"
    assert pings(fake, world.bob, world.channel) == 0
    assert pings(fake, world.carol, world.channel) == 0
    # off: the first hand DM, and a new one only with a secret she must act on (under
    # Discord's rate limits a move's news and the next turn may go out in one delivery)
    carol = notifying_dms(fake, world.carol)
    assert all("Just now (only you see this)" in m.versions()[0].text for m in carol[1:])
    assert not [m for m in carol if "Your turn in" in m.versions()[0].text
                and "Just now" not in m.versions()[0].text], "off: no turn DM without news"
    assert pings(fake, world.alice, world.channel) >= 2, "alice kept the default"
    assert f"<@{world.bob.id}>" in "\n".join(
        v.content for m in d.boards() for v in m.versions()), "bob is still named"


async def test_dm_pings_to_closed_dms_fall_back_to_a_channel_ping(fake, world, bots, bot):
    """A player who chose DM pings but whose DMs refuse the bot heard of their turn
    nowhere: the board named them without a ping and every DM was refused. Until a DM goes
    through again, the board pings them in the channel; `off` still pings nobody."""
    closed = fake.add_user("closed", dm_open=False)
    quiet = fake.add_user("quiet", dm_open=False)
    for user in (closed, quiet):
        fake.add_member(world.guild, user)
    await fake.slash(closed, "notify", {"mode": "dm"}, channel=world.channel)
    await fake.slash(quiet, "notify", {"mode": "off"}, channel=world.channel)
    d = TableDriver(fake, world, bots, "taboo")
    await d.open(world.alice, [closed, quiet], options="max_turns=24")
    notice = pings(fake, closed, world.channel)  # the one "I can't send you DMs" notice
    turns = 0
    for _ in range(12):
        if d.table is None:
            break
        seat = await d.next_human()
        if seat is None:
            break
        user = d.seat_user(seat)
        turns += user is closed
        await d.take_turn(user)
        await d.synced()
    assert turns >= 2
    assert pings(fake, closed, world.channel) - notice >= turns - 1, "pinged at their turns"
    assert pings(fake, quiet, world.channel) <= 1, "off: the closed-DM notice at most"
