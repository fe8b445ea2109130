"""Suit Taboo end to end through the fake Discord: panel games, every slash command, refusals,
the round-end reveal, Taboo on the Wire's accusation, and no hidden card ever shown."""

from __future__ import annotations

import pytest

from engines.cards import Card
from engines.suit_taboo import Build, Cast, DropOut, Pick
from tests.e2e.driver import TableDriver

pytestmark = pytest.mark.e2e

SHORT = "max_reshuffles=0 max_turns_per_round=60"


def driver(fake, world, bots) -> TableDriver:
    return TableDriver(fake, world, bots, "suittaboo")


async def test_four_seats_humans_and_ai_play_a_whole_game_through_the_panel(fake, world, bots,
                                                                           bot):
    d = driver(fake, world, bots)
    await d.open(world.alice, [world.bob, world.carol], ai=1, options=SHORT)
    table = d.table
    assert len(table.seats) == 4 and table.seats[3]["ai"]
    for user in (world.alice, world.bob, world.carol):
        dms = fake.dms(user)
        assert dms and "Your role this round" in dms[0].text
    board = d.board()
    assert "History lines" in board.text and "Open cards" in board.text
    d.assert_no_leaks()
    moves = await d.play_to_end()
    assert moves > 0
    texts = board.version_texts()
    assert any("Round 1 reveal" in t for t in texts)
    assert any("game over" in m.text for m in fake.channel_messages(world.channel))



# --------------------------------------------------------------------------- helpers
async def next_human(fake, d: TableDriver) -> int | None:
    """Let AI seats move until a human must act; that human's seat (None once it's over)."""
    for _ in range(500):
        table = d.table
        if table is None:
            return None
        humans = sorted(s for s in table.engine.waiting_for(table.state) if not table.is_ai(s))
        if humans:
            return humans[0]
        await fake.settle()
        await d._wait_for_ai()
    raise AssertionError("no human was ever asked to move")


def legal(d: TableDriver, seat: int) -> list:
    return list(d.table.engine.legal_actions(d.table.state, seat))


def private_view(d: TableDriver, seat: int) -> dict:
    return d.table.engine.view(d.table.state, seat)["you"]


def code(label: str) -> str:
    """"7♥" → "7h": what someone types."""
    return Card.parse(label).code


def action_at(d: TableDriver, seat: int, value: str):
    version, _, index = value.partition(".")
    assert int(version) == d.table.version
    return legal(d, seat)[int(index)]


async def refused(fake, d: TableDriver, user, command: str, options=None, *,
                  says: str = "") -> str:
    """A slash command that must be refused ephemerally and change nothing."""
    version = d.table.version
    result = await fake.slash(user, f"suittaboo {command}", options or {}, channel=d.channel)
    assert result.ephemeral and "⚠️" in result.text, result.text
    assert says in result.text, result.text
    assert d.table.version == version
    return result.text


# --------------------------------------------------------------------------- slash commands
async def test_every_move_by_slash_command_with_autocomplete_and_refusals(fake, world, bots,
                                                                           bot):
    """pick / build / cast / dropout typed with autocomplete (suggestions = legal moves of that
    kind only), and the friendly refusals: not your turn, drop out before end mode, cast
    without a catapult, a card not in hand, one's own suit as a catapult."""
    d = driver(fake, world, bots)
    await d.open(world.alice, [world.bob, world.carol], ai=1,
                 options="max_reshuffles=0 max_turns_per_round=150")
    seat = await next_human(fake, d)
    user = d.seat_user(seat)
    other = next(u for u in d.players if u is not user)
    # first move of the round: no catapult, no end mode
    await refused(fake, d, other, "pick", {"source": "deck"}, says="not your turn")
    await refused(fake, d, user, "dropout", says="only drop out in end mode")
    await refused(fake, d, user, "cast", {"shot": "anything"}, says="need a catapult")
    await refused(fake, d, user, "build", {"card": "banana"}, says="isn't a legal move")
    # an open card is public, so naming it reveals nothing; it isn't in the hand
    missing = d.table.engine.view(d.table.state, None)["open"][0]
    await refused(fake, d, user, "build", {"card": code(missing)}, says="isn't in your hand")
    assert await fake.autocomplete(other, "suittaboo pick", focused="source",
                                   channel=d.channel) == []

    used: set[str] = set()
    own_suit_refused = full_hand_refused = False
    rng = d.rng
    for _ in range(600):
        seat = await next_human(fake, d)
        if seat is None or (used >= {"pick", "build", "cast", "dropout"} and own_suit_refused):
            break
        user = d.seat_user(seat)
        moves = legal(d, seat)
        you = private_view(d, seat)
        # the private view names the role; an ace may never build its own suit
        own = you["role"][-1] if you["role"].startswith("A") else None
        mine = [c for c in you["hand"] if own and c.endswith(own)]
        if mine and not own_suit_refused:
            text = await refused(fake, d, user, "build", {"card": code(mine[0])},
                                 says="your own suit")
            assert mine[0] in text
            offered = await fake.autocomplete(user, "suittaboo build", focused="card",
                                              channel=d.channel)
            assert mine[0] not in {c["name"] for c in offered}
            own_suit_refused = True
        kinds = {type(a) for a in moves}
        if len(you["hand"]) == 5 and not full_hand_refused:
            await refused(fake, d, user, "pick", {"source": "deck"}, says="already hold 5")
            full_hand_refused = True
        if DropOut in kinds:
            result = await fake.slash(user, "suittaboo dropout", channel=d.channel)
            used.add("dropout")
        elif Cast in kinds and ("cast" not in used or rng.random() < 0.5):
            choices = await fake.autocomplete(user, "suittaboo cast", focused="shot",
                                              channel=d.channel)
            casts = [a for a in moves if isinstance(a, Cast)]
            assert 0 < len(choices) <= 25 and len(choices) == min(25, len(casts))
            assert all(isinstance(action_at(d, seat, c["value"]), Cast) for c in choices)
            # typing a card and a name narrows the suggestions to the casts with both
            action = action_at(d, seat, choices[-1]["value"])
            card, target = action.shots[0]
            typed = f"{card.code} {d.table.names[target]}"
            narrowed = await fake.autocomplete(user, "suittaboo cast", {"shot": typed},
                                               focused="shot", channel=d.channel)
            assert narrowed and all(str(card) in c["name"] and d.table.names[target]
                                    in c["name"] for c in narrowed)
            from_hand = str(card) in you["hand"]
            target_user = d.seat_user(target)
            before = len(fake.dms(target_user)) if target_user else 0
            result = await fake.slash(user, "suittaboo cast", {"shot": choices[-1]["value"]},
                                      channel=d.channel)
            used.add("cast")
            await fake.settle()
            if from_hand and target_user is not None:
                # "a card from your hand is seen only by its target": the target's DM shows it
                assert any(str(card) in m.text for m in fake.dms(target_user)[before:])
        elif Build in kinds and (not any(isinstance(a, Pick) for a in moves)
                                 or rng.random() < 0.4):
            choices = await fake.autocomplete(user, "suittaboo build", focused="card",
                                              channel=d.channel)
            builds = [a for a in moves if isinstance(a, Build)]
            assert sorted(c["name"] for c in choices) == sorted(str(a.card) for a in builds)
            card = rng.choice(builds).card
            # typed as a code (7h) rather than picked from the suggestions
            result = await fake.slash(user, "suittaboo build", {"card": card.code},
                                      channel=d.channel)
            used.add("build")
        elif Pick in kinds:
            choices = await fake.autocomplete(user, "suittaboo pick", focused="source",
                                              channel=d.channel)
            picks = [a for a in moves if isinstance(a, Pick)]
            assert len(choices) == len(picks)
            value = "deck" if rng.random() < 0.5 else rng.choice(choices)["value"]
            result = await fake.slash(user, "suittaboo pick", {"source": value},
                                      channel=d.channel)
            used.add("pick")
        else:
            result = await d.take_turn(user)
            continue
        assert result.ephemeral and "✅" in result.text, result.text
        await fake.settle()
        d.assert_no_leaks()
    assert used == {"pick", "build", "cast", "dropout"}, used
    assert own_suit_refused
    if d.table is not None:
        done = await fake.slash(world.alice, "suittaboo cancel", channel=d.channel)
        assert "Cancelled" in done.text and d.table is None
