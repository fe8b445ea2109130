"""Suit Taboo end to end through the fake Discord: panel games, every slash command, refusals,
the round-end reveal, Taboo on the Wire's accusation, and no hidden card ever shown."""

from __future__ import annotations

import pytest

from engines.cards import JOKER, Card
from engines.core import render_seats
from engines.suit_taboo.rules import Build, Cast, DropOut, Pick
from tests.e2e import screens
from tests.e2e.driver import TableDriver, dm_updates

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
    assert "Players · 🏹 catapult" in board.text and "Open cards" in board.text
    d.assert_no_leaks()
    moves = await d.play_to_end()
    assert moves > 0
    # each round's reveal stays on the board, a line per player (who was what, who won);
    # the last round's reveal comes whole with the result: every history line, and why
    reveals = [v.text for v in d.board_versions() if "Round 1 reveal" in v.text]
    assert reveals
    names = [s["name"] for s in table.seats]
    reveal = reveals[0][reveals[0].index("Round 1 reveal"):]
    assert all(f"{name} was " in reveal for name in names)
    result = next(m.text for m in fake.channel_messages(world.channel) if "game over" in m.text)
    final = result[result.index(" reveal"):]
    assert final.count("**Wins:**") + final.count("**Loses:**") == 4
    assert "Doubts (rightful in bold)" in final and "Penalties" in final
    assert any("game over" in m.text for m in fake.channel_messages(world.channel))



# --------------------------------------------------------------------------- helpers




def private_view(d: TableDriver, seat: int) -> dict:
    return d.table.engine.view(d.table.state, seat)["you"]


def code(label: str) -> str:
    """"7♥" → "7h": what someone types."""
    return Card.parse(label).code






# --------------------------------------------------------------------------- slash commands
async def test_every_move_by_slash_command_with_autocomplete_and_refusals(fake, world, bots,
                                                                           bot):
    """pick / build / cast / dropout typed with autocomplete (suggestions = legal moves of that
    kind only), and the friendly refusals: not your turn, drop out before end mode, cast
    without a catapult, a card not in hand, one's own suit as a catapult."""
    d = driver(fake, world, bots)
    await d.open(world.alice, [world.bob, world.carol], ai=1,
                 options="max_reshuffles=0 max_turns_per_round=150")
    seat = await d.next_human()
    user = d.seat_user(seat)
    other = next(u for u in d.players if u is not user)
    # first move of the round: no catapult, no end mode
    await d.refused(other, "pick", {"source": "deck"}, says="not your turn")
    await d.refused(user, "dropout", says="only drop out in end mode")
    await d.refused(user, "cast", {"shot": "anything"}, says="need a catapult")
    # (a deal may leave the first player nothing to build with: that refusal wins then)
    no_build = "no card you may build"
    text = await d.refused(user, "build", {"card": "banana"})
    assert "isn't a legal move" in text or no_build in text, text
    # an open card is public, so naming it reveals nothing; it isn't in the hand
    missing = d.table.engine.view(d.table.state, None)["open"][0]
    text = await d.refused(user, "build", {"card": code(missing)})
    assert "isn't in your hand" in text or no_build in text, text
    await d.note(other, "pick", "source", says="not your turn")

    used: set[str] = set()
    own_suit_refused = full_hand_refused = False
    rng = d.rng
    for _ in range(600):
        seat = await d.next_human()
        if seat is None or (used >= {"pick", "build", "cast", "dropout"} and own_suit_refused):
            break
        user = d.seat_user(seat)
        moves = d.legal(seat)
        you = private_view(d, seat)
        # the private view names the role; an ace may never build its own suit
        own = you["role"][-1] if you["role"].startswith("A") else None
        mine = [c for c in you["hand"] if own and c.endswith(own)]
        if mine and not own_suit_refused:
            text = await d.refused(user, "build", {"card": code(mine[0])},
                                 says="your own suit")
            assert mine[0] in text
            offered = await fake.autocomplete(user, "suittaboo build", focused="card",
                                              channel=d.channel)
            assert mine[0] not in {c["name"] for c in offered}
            own_suit_refused = True
        kinds = {type(a) for a in moves}
        if len(you["hand"]) == 5 and not full_hand_refused:
            await d.refused(user, "pick", {"source": "deck"}, says="already hold 5")
            full_hand_refused = True
        if DropOut in kinds:
            result = await fake.slash(user, "suittaboo dropout", channel=d.channel)
            used.add("dropout")
        elif Cast in kinds and ("cast" not in used or rng.random() < 0.5):
            choices = await fake.autocomplete(user, "suittaboo cast", focused="shot",
                                              channel=d.channel)
            casts = [a for a in moves if isinstance(a, Cast)]
            assert 0 < len(choices) <= 25 and len(choices) == min(25, len(casts))
            assert all(isinstance(d.action_at(seat, c["value"]), Cast) for c in choices)
            # typing a card and a name narrows the suggestions to the casts with both
            action = d.action_at(seat, choices[-1]["value"])
            card, target = action.shots[0]
            typed = f"{card.code} {d.table.names[target]}"
            narrowed = await fake.autocomplete(user, "suittaboo cast", {"shot": typed},
                                               focused="shot", channel=d.channel)
            assert narrowed and all(str(card) in c["name"] and d.table.names[target]
                                    in c["name"] for c in narrowed)
            from_hand = str(card) in you["hand"]
            target_user = d.seat_user(target)
            before = len(dm_updates(fake, target_user)) if target_user else 0
            result = await fake.slash(user, "suittaboo cast", {"shot": choices[-1]["value"]},
                                      channel=d.channel)
            used.add("cast")
            await d.synced()
            if from_hand and target_user is not None:
                # "a card from your hand is seen only by its target": the target's DM shows it
                assert any(str(card) in v.text for v in dm_updates(fake, target_user)[before:])
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
        d.assert_no_leaks()  # on what was delivered so far: players move without waiting
    await d.synced()
    d.assert_no_leaks()
    assert used == {"pick", "build", "cast", "dropout"}, used
    assert own_suit_refused
    if d.table is not None:
        done = await fake.slash(world.alice, "suittaboo cancel", channel=d.channel)
        assert "Cancelled" in done.text and d.table is None


# --------------------------------------------------------------------------- Taboo on the Wire
async def open_with_human_joker(fake, world, d: TableDriver, options: str) -> int:
    """Open wire tables until round 1 deals the joker to a human (3 of the 4 seats are
    human, so this takes one or two tries); returns McNulty's seat."""
    for _ in range(25):
        await d.open(world.alice, [world.bob, world.carol], ai=1, options=options)
        table = d.table
        for seat in range(len(table.seats)):
            if not table.is_ai(seat) and private_view(d, seat)["role"] == str(JOKER):
                return seat
        done = await fake.slash(world.alice, "suittaboo cancel", channel=d.channel)
        assert "Cancelled" in done.text
    raise AssertionError("the joker never went to a human")


async def test_wire_round_pauses_for_a_human_mcnulty_to_accuse(fake, world, bots, bot):
    d = driver(fake, world, bots)
    joker = await open_with_human_joker(fake, world, d, "wire=true " + SHORT)
    mcnulty = d.seat_user(joker)
    board = d.board()
    assert "Taboo on the Wire" in board.text
    dm = fake.dms(mcnulty)[-1].text
    assert "On the wire you are **McNulty**" in dm
    # play round 1 through the panel until it ends: then only McNulty may act
    for _ in range(200):
        seat = await d.next_human()
        if d.table.state.phase == "accuse":
            break
        assert d.table.state.round_no == 1
        assert "✅" in await d.take_turn(d.seat_user(seat))
        d.assert_no_leaks()  # on what was delivered so far: players move without waiting
    assert d.table.state.phase == "accuse" and seat == joker
    await d.synced()
    d.assert_no_leaks()
    board = d.board()
    assert "Accusation" in board.text and d.table.names[joker] in board.text
    assert "Round 1 reveal" not in board.text
    others = [u for u in d.players if u is not mcnulty]
    await d.refused(others[0], "accuse", {"holder": "out"}, says="not your turn")
    nope = await d.click(others[1], board, "Take my turn")
    assert nope.ephemeral and "not your turn" in nope.text
    hand = await fake.slash(mcnulty, "suittaboo hand", channel=d.channel)
    assert hand.ephemeral and "Name who holds each black ace" in hand.text
    await d.refused(mcnulty, "pick", {"source": "deck"}, says="round is over")
    # the suggestions are every player and "Out of play" (a wrong name is judged, not refused)
    choices = await fake.autocomplete(mcnulty, "suittaboo accuse", {"ace": "s"},
                                      focused="holder", channel=d.channel)
    names = d.table.names
    assert sorted(c["name"] for c in choices) == sorted([*names, "Out of play"])
    choices = [c for c in choices if c["name"] != names[joker]]
    spade = await fake.slash(mcnulty, "suittaboo accuse",
                             {"ace": "s", "holder": choices[0]["value"]}, channel=d.channel)
    assert spade.ephemeral and "✅" in spade.text and "spades" in spade.text
    await d.synced()
    # still secret: the board shows no accusation yet, McNulty's own view does
    assert "McNulty's accusations" not in d.board().text
    mine = await fake.slash(mcnulty, "suittaboo hand", channel=d.channel)
    assert "Your accusations" in mine.text and choices[0]["name"] in mine.text
    # the club by the panel: one step, a button per player (and out of play)
    panel = await d.click(mcnulty, d.board(), "Take my turn")
    labels = [b["label"] for b in panel.message.buttons() if b.get("label") != "Back"]
    assert "Out of play" in labels and "Ace of clubs" in panel.text
    await d.refused(mcnulty, "accuse", {"ace": "s", "holder": "out"},
                  says="already named")
    labels = [label for label in labels if label != names[joker]]
    done = await d.fake.click(mcnulty, panel.message, d.custom_id(panel.message, labels[-1]))
    assert "✅" in done.text
    await d.synced()
    # the reveal: every history line, why each won or lost, and McNulty's named suspects
    text = d.board().text
    assert "Round 1 reveal" in text and "McNulty's accusations" in text
    for name in names:
        assert name in text
    assert text.count("was ") >= len(names)
    assert "bad guy" in text and "detective" in text
    # a verdict per player (why, line by line, is in History and, at the end, the result)
    reveal = text[text.index("Round 1 reveal"):]
    assert reveal.count("✅ ") + reveal.count("❌ ") >= len(names)
    d.assert_no_leaks()
    done = await fake.slash(world.alice, "suittaboo cancel", channel=d.channel)
    assert "Cancelled" in done.text


# --------------------------------------------------------------------------- the cast panel
async def test_cast_panel_offers_only_legal_steps(fake, world, bots, bot):
    """"Take my turn" → Cast → shot type → ammunition → a target per card; every option
    offered belongs to a legal cast, and nobody sees a card hidden from them."""
    d = driver(fake, world, bots)
    await d.open(world.alice, [world.bob, world.carol], ai=1, options=SHORT)
    engine = d.table.engine
    casts: list[list[list[str]]] = []

    def chooser(seat: int):
        steps: list[list[str]] = []
        table = d.table
        paths = [tuple(render_seats(x, table.names) for x in engine.menu_path(table.state, a))
                 for a in d.legal(seat)]
        offered_anywhere = {label for p in paths for label in p}

        def choose(labels: list[str]) -> int:
            assert set(labels) <= offered_anywhere, (labels, paths)
            steps.append(labels)
            for preferred in ("Cast", "Build catapult", "Pick"):
                if preferred in labels:
                    return labels.index(preferred)
            return d.rng.randrange(len(labels))
        return steps, choose

    for _ in range(200):
        seat = await d.next_human()
        if seat is None or len(casts) >= 3:
            break
        steps, choose = chooser(seat)
        was_cast = any(isinstance(a, Cast) for a in d.legal(seat))
        text = await d.take_turn(d.seat_user(seat), choose)
        assert "✅" in text, text
        if was_cast:
            assert text.startswith("✅ Cast"), text
            assert steps[0][:1] and "Cast" in steps[0]
            # after "Cast": shot types, then ammunition, then targets (single options are
            # stepped through), always at least the choice of a target among 3 players
            later = [label for level in steps[1:] for label in level]
            assert later and any("→" in label for label in later), steps
            casts.append(steps)
        await fake.settle()
        d.assert_no_leaks()
    assert casts, "no human could cast in 200 moves"
    done = await fake.slash(world.alice, "suittaboo cancel", channel=d.channel)
    assert "Cancelled" in done.text


# --------------------------------------------------------------------------- rules, hand, board
async def test_rules_and_hand_commands(fake, world, bots, bot):
    _quick, text = await screens.full_rules(fake, world.outsider, "suittaboo", world.channel)
    for words in ("Build a catapult", "same number", "Drop out", "Taboo on the Wire",
                  "/suittaboo cast"):
        assert words in text, words
    early = await fake.slash(world.alice, "suittaboo hand", channel=world.channel)
    assert early.ephemeral and "no Suit Taboo table" in early.text
    d = driver(fake, world, bots)
    await d.open(world.alice, [world.bob, world.carol])
    for user in (world.alice, world.bob, world.carol):
        seat = d.table.seat_of(user.id)
        you = private_view(d, seat)
        hand = await fake.slash(user, "suittaboo hand", channel=world.channel)
        assert hand.ephemeral and f"`{you['role']}`" in hand.text
        assert all(card in hand.text for card in you["hand"])
    outsider = await fake.slash(world.outsider, "suittaboo hand", channel=world.channel)
    assert outsider.ephemeral and "not playing" in outsider.text
    d.assert_no_leaks()


def test_board_fits_discord_limits_for_five_players_with_long_names():
    """The board (≤ 9 embeds of ours, ≤ 25 fields, field values ≤ 1024, well under the 6000
    characters of a message with the header) and the private view stay within Discord's
    limits in whole five-player games, basic and on the wire."""
    import random

    from cogs.suit_taboo.cog import SuitTabooUI

    ui = SuitTabooUI()
    engine = ui.engine
    names = [f"{'W' * 30}{i}" for i in range(5)]  # display names are at most 32 characters
    worst = 0
    for wire in (False, True):
        for game in range(3):
            rng = random.Random(game)
            state = engine.new_game(5, 900 + game, {"wire": wire})
            while engine.to_act(state):
                [seat] = engine.to_act(state)
                embeds = ui.render_board(engine.view(state, None), names)
                assert len(embeds) <= 9
                for embed in [*embeds, ui.render_private(engine.view(state, seat), names, seat)]:
                    assert len(embed.fields) <= 25 and len(embed) <= 4000
                    assert all(len(f.value) <= 1024 and len(f.name) <= 256 for f in embed.fields)
                worst = max(worst, sum(len(e) for e in embeds))
                action = (engine.ai_action(state, seat, rng) if rng.random() < 0.5
                          else rng.choice(engine.legal_actions(state, seat)))
                state = engine.apply(state, seat, action).state
    assert worst <= 3600, worst  # leaves room for the framework's header (≤ ~2200)


async def test_restart_mid_round_keeps_the_table_and_old_buttons(fake, world, bots, bot):
    d = driver(fake, world, bots)
    await d.open(world.alice, [world.bob, world.carol], ai=1, options=SHORT)
    for _ in range(4):
        seat = await d.next_human()
        assert "✅" in await d.take_turn(d.seat_user(seat))
        await fake.settle()
    # a human's turn, the AI seat done deciding: nothing moves between the snapshot and the
    # stop, nor after the start (the AI seat's turn, then, would be played at once)
    await d.next_human()
    await d._wait_for_ai_idle()
    await d.synced()  # and its board is the one the players see
    state_dump, version = d.table.row.state, d.table.version
    old_board = d.board()
    await bots.restart()
    assert d.table.row.state == state_dump and d.table.version == version
    seat = await d.next_human()
    user = d.seat_user(seat)
    hand = await fake.click(user, old_board, d.custom_id(old_board, "My hand"))
    assert hand.ephemeral and "Your role this round" in hand.text
    assert "✅" in await d.take_turn(user)
    d.assert_no_leaks()
