"""A player's living hand DM once their part in the game is over: when the game ends, is
cancelled, or they leave it, the DM says so. It used to keep its last words, "🎯 Your turn
in … came up: **Take my turn** on the board" and "the board, **My hand** and **Take my
turn** there show the game as it is now", pointing at a board that no longer takes a move
(found playing as new users, issue: audit-play)."""

from __future__ import annotations

import pytest

from tests.e2e.driver import TableDriver

pytestmark = pytest.mark.e2e

TURN_LINE = "Your turn in"
LIVE_LINE = "show the game as it is now"


def living_dm(fake, user):
    [dm] = fake.dms(user)  # one living DM per game
    return dm.text


async def dm_pings(fake, world, *users) -> None:
    """Every turn starts with a new DM carrying the turn line (`/notify dm`)."""
    for user in users:
        await fake.slash(user, "notify", {"mode": "dm"}, channel=world.channel)


async def test_when_the_game_ends_every_hand_dm_says_it_is_over(fake, world, bots, bot):
    await dm_pings(fake, world, world.alice, world.bob)
    d = TableDriver(fake, world, bots, "suspense")
    await d.open(world.alice, [world.bob], options="points_target=2")
    await d.play_to_end()
    result_channel = f"<#{world.channel.id}>"
    for user in (world.alice, world.bob):
        text = living_dm(fake, user)
        assert TURN_LINE not in text and LIVE_LINE not in text, text
        assert "🏁" in text and "over" in text and result_channel in text, text


async def test_a_cancelled_game_says_so_in_every_hand_dm(fake, world, bots, bot):
    await dm_pings(fake, world, world.alice, world.bob, world.carol)
    d = TableDriver(fake, world, bots, "taboo")
    await d.open(world.alice, [world.bob, world.carol])
    await d.next_human()
    hands = set(d.table.engine.secret_labels(d.table.state, None))
    answer = await fake.slash(world.alice, "taboo cancel", channel=d.channel)
    assert not answer.ephemeral, answer.text
    await fake.settle()
    for user in (world.alice, world.bob, world.carol):
        text = living_dm(fake, user)
        assert TURN_LINE not in text and LIVE_LINE not in text, text
        assert "cancelled" in text, text
        # no cards of a game that is gone (a DM edited after the next game began showed
        # them among that game's: tests/e2e/test_suit_taboo.py's wire test took it for a leak)
        assert not [card for card in hands if card in text], text


async def test_a_player_who_left_is_told_in_their_dm_and_no_longer_shown_the_seat(
        fake, world, bots, bot):
    await dm_pings(fake, world, world.alice, world.bob, world.carol)
    d = TableDriver(fake, world, bots, "taboo")
    await d.open(world.alice, [world.bob, world.carol])
    seat = await d.next_human()
    leaver = d.seat_user(seat)  # their DM carries the turn line now
    ask = await d.click(leaver, d.board(), "Leave")
    done = await d.click(leaver, ask.message, "Leave the game")
    assert "You left" in done.text, done.text
    await d.synced()
    text = living_dm(fake, leaver)
    assert TURN_LINE not in text and LIVE_LINE not in text, text
    assert "You left" in text, text
    hand = set(d.table.engine.secret_labels(d.table.state, None)) - set(
        d.table.engine.secret_labels(d.table.state, seat))
    assert not [card for card in hand if card in text], "the seat's hand the AI now plays"
    # the others' DMs carry on as before
    others = [u for u in (world.alice, world.bob, world.carol) if u is not leaver]
    assert all(LIVE_LINE in living_dm(fake, u) for u in others)


async def test_a_player_an_ai_replaced_after_timeouts_is_told_the_game_is_over(
        fake, world, bots):
    """They walked away: the timer gave their seat to an AI, which played it to the end.
    Their DM is the first thing they see when they come back."""
    await bots.start(turn_seconds=300, timer_tick=60)
    await dm_pings(fake, world, world.alice, world.bob)
    d = TableDriver(fake, world, bots, "taboo")
    await d.open(world.alice, [world.bob], options="turn_seconds=300 afk_turns=1 max_turns=30")
    table = d.table
    while d.table is not None:
        seat = await d.next_human()
        if seat is None:
            break
        if d.seat_user(seat) is world.bob:
            await d.bot.tables.expire(table.id)  # bob's time runs out: an AI takes over
        else:
            await d.take_turn(world.alice)
    await d.result_posted()
    assert table.seats[[s.get("user_id") for s in table.seats].index(world.bob.id)].get(
        "replaced"), "bob's seat was handed to an AI"
    text = living_dm(fake, world.bob)
    assert TURN_LINE not in text and LIVE_LINE not in text, text
    assert "🏁" in text and "over" in text, text


@pytest.mark.parametrize(("command", "options"), [
    ("suspense", "points_target=2"), ("taboo", "max_turns=24"),
    ("suittaboo", "max_turns_per_round=60 max_rounds=3"),
    ("hiddenrules", "target=1 turn_seconds=0"), ("sixsuit", "max_rounds=3")])
async def test_every_game_ends_with_every_hand_dm_saying_it_is_over(fake, world, bots, bot,
                                                                    command, options):
    """The same in each of the five games, played to the end through the panel."""
    d = TableDriver(fake, world, bots, command)
    await d.open(world.alice, [world.bob], ai=1, options=options)
    await d.play_to_end()
    for user in (world.alice, world.bob):
        text = living_dm(fake, user)
        assert TURN_LINE not in text and LIVE_LINE not in text, (command, text)
        assert "🏁 Game over" in text, (command, text)


async def test_a_cancelled_games_dm_that_discord_refuses_for_now_does_not_keep_the_others(
        fake, world, bots, bot):
    """The closing edits are tried once each (nothing retries them: the table is gone). A
    passing failure of the first one (503) used to end them all: the other players' DMs
    kept the cancelled game's cards and its turn line."""
    await dm_pings(fake, world, world.alice, world.bob, world.carol)
    d = TableDriver(fake, world, bots, "taboo")
    await d.open(world.alice, [world.bob, world.carol])
    await d.next_human()
    await d.synced()
    first = d.seat_user(0)
    [dm] = fake.dms(first)
    fake.fail_next("PATCH", rf"/channels/{dm.channel_id}/messages/\d+$", status=503)
    answer = await fake.slash(world.alice, "taboo cancel", channel=d.channel)
    assert not answer.ephemeral, answer.text
    await fake.settle()
    assert "cancelled" not in living_dm(fake, first), "503: that one stays as it was"
    for user in (world.alice, world.bob, world.carol):
        if user is not first:
            text = living_dm(fake, user)
            assert "cancelled" in text and LIVE_LINE not in text, (user.name, text)


CLOSED_NOTE = "I can't send you direct messages"


async def test_a_refused_closing_edit_is_tried_once_and_sends_no_closed_dm_note(
        fake, world, bots, bot):
    """A closing edit Discord refuses (403, the player's DMs closed) counts once toward
    Discord's limit of invalid requests and is not tried again. Nor is the channel told
    "use **My hand** to see your cards", with a ping: of a game that is gone (cancelled)
    or a seat that is no longer theirs (they left), there is nothing to see."""
    await dm_pings(fake, world, world.alice, world.bob, world.carol)
    d = TableDriver(fake, world, bots, "taboo")
    await d.open(world.alice, [world.bob, world.carol])
    await d.next_human()
    await d.synced()
    leaver, canceller = d.seat_user(1), d.seat_user(0)
    refusals = {}
    for user in (leaver, canceller):
        [dm] = fake.dms(user)
        refusals[user.id] = fake.fail_next(
            "PATCH", rf"/channels/{dm.channel_id}/messages/\d+$", status=403, times=5,
            code=50007, message="Cannot send messages to this user")
    ask = await d.click(leaver, d.board(), "Leave")
    await d.click(leaver, ask.message, "Leave the game")
    await d.synced()
    assert refusals[leaver.id].hits == 1
    answer = await fake.slash(canceller, "taboo cancel", channel=d.channel)
    assert not answer.ephemeral, answer.text
    await fake.settle()
    assert refusals[leaver.id].hits == 1 and refusals[canceller.id].hits == 1
    notes = [m.text for m in fake.channel_messages(world.channel) if CLOSED_NOTE in m.text]
    assert not notes, notes
    others = [u for u in (world.alice, world.bob, world.carol) if u not in (leaver, canceller)]
    assert all("cancelled" in living_dm(fake, u) for u in others)
