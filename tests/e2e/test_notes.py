"""Suggestions that say why there are none (bot.ui.notes).

Typing `/taboo play` when nothing can be captured showed Discord's bare "no options": a new
player could not tell whether it was not their turn, they had no such move, they were not
playing or the game was over (found playing as a new user). Every game command with
suggestions now offers one note instead, its name saying why in the command's own words;
its value, if submitted, is refused in those same words (or, once the game moved on, as
"only a note") and changes nothing; the note that no suggestion matches what was typed
sends what was typed. Each test drives the real bot through the fake.
"""

from __future__ import annotations

import pytest

from bot.ui.notes import NOTE_PICKED
from engines.six_suit.cards import LABELS
from engines.six_suit.rules import Play as SixPlay
from engines.taboo.rules import TURN, Capture
from tests.e2e.driver import TableDriver

pytestmark = pytest.mark.e2e

ONLY_A_NOTE = "only a note"

GAMES = [("suspense", "Suspense", ""), ("taboo", "Taboo", ""),
         ("suittaboo", "Suit Taboo", ""), ("sixsuit", "Six Suit", ""),
         ("hiddenrules", "Hidden Rules", "turn_seconds=0")]


@pytest.mark.parametrize(("command", "title", "options"), GAMES)
async def test_move_suggestions_say_why_there_are_none(fake, world, bots, bot, command,
                                                       title, options):
    """`/<game> move`: to a member who is not playing, to a player out of turn, and where no
    table is, one note saying so, refused in the same words when submitted."""
    d = TableDriver(fake, world, bots, command)
    await d.open(world.alice, [world.bob, world.carol], options=options or None)
    await d.note_refused(world.outsider, "move", "action", says="not playing")
    if command == "hiddenrules":  # everyone chooses a rule at once: nobody is out of turn
        await d.note_refused(world.outsider, "keep", "trigger", {"action": "1"},
                             says="not playing")
    else:
        seat = await d.next_human()
        other = next(u for u in d.players if u is not d.seat_user(seat))
        waiting = d.table.plain_names[seat]
        await d.note_refused(other, "move", "action", says=f"It's not your turn — waiting "
                             f"for {waiting}")
    text = await d.note_refused(world.outsider, "move", "action", says=f"no {title} table",
                                channel=world.other_channel)
    assert f"/{command} new" in text
    # a player in the wrong channel is sent to theirs, by name (a choice shows no links)
    text = await d.note_refused(world.alice, "move", "action",
                                says=f"Your {title} game is in #{world.channel.name}: use "
                                f"/{command} there", channel=world.other_channel)
    assert f"<#{world.channel.id}>" in text


async def test_a_note_picked_after_the_game_moved_on_is_refused_as_a_note(fake, world, bots,
                                                                           bot):
    """The note a player out of turn was offered, submitted once it is their turn: refused
    as only a note (its reason no longer holds), nothing played."""
    d = TableDriver(fake, world, bots, "suspense")
    await d.open(world.alice, [world.bob])
    seat = await d.next_human()
    other = next(u for u in d.players if u is not d.seat_user(seat))
    choice = await d.note(other, "play", "card", says="not your turn")
    await d.take_turn(d.seat_user(seat))
    assert await d.next_human() == d.table.seat_of(other.id)
    text = await d.refused(other, "play", {"card": choice["value"]}, says=ONLY_A_NOTE)
    assert text == f"⚠️ {NOTE_PICKED}"


async def test_typed_text_that_matches_nothing_says_so(fake, world, bots, bot):
    """A card typed that no suggestion matches: one note saying no suggestion matches what
    was typed (quoted), not an empty list; picked, it sends what was typed, which the
    command refuses as typed text (nothing changed)."""
    d = TableDriver(fake, world, bots, "suspense")
    await d.open(world.alice, [world.bob])
    user = d.seat_user(await d.next_human())
    choice = await d.note(user, "play", "card", {"card": "zebra"},
                          says="No suggestion matches “zebra”", sends="zebra")
    await d.refused(user, "play", {"card": choice["value"]},
                    says="`zebra` isn't a legal move right now")


async def test_suggestions_after_the_game_is_over_say_there_is_no_table(fake, world, bots,
                                                                        bot):
    d = TableDriver(fake, world, bots, "suspense")
    await d.open(world.alice, [world.bob], options="points_target=2")
    await d.play_to_end()
    await d.note_refused(world.alice, "play", "card", says="no Suspense table in this channel")


async def test_taboo_says_why_nothing_can_be_captured_or_placed(fake, world, bots, bot):
    """The reported case: `/taboo play` when no card captures anything says so and what to
    do instead (draw); `take:` says the same; `/taboo place` before drawing says to draw
    first."""
    d = TableDriver(fake, world, bots, "taboo")
    await d.open(world.alice, [world.bob])
    seen_place = seen_capture = False
    for _ in range(300):
        seat = await d.next_human()
        assert seat is not None, "the game ended first"
        user = d.seat_user(seat)
        state = d.table.state
        if state.phase == TURN and not seen_place:
            await d.note_refused(user, "place", "card", says="only place a card face up "
                                 "after drawing")
            seen_place = True
        if state.phase == TURN and not any(isinstance(a, Capture) for a in d.legal(seat)):
            text = await d.note_refused(user, "play", "card",
                                        says="No capture is possible now: draw (/taboo draw)")
            assert "`/taboo draw`" in text
            await d.note_refused(user, "play", "take", {"card": "7s"},
                                 says="No capture is possible now")
            seen_capture = True
        if seen_place and seen_capture:
            return
        await d.take_turn(user)
        await d.synced()
    raise AssertionError("no turn without a capture came up")


async def test_suit_taboo_says_why_a_cast_or_an_accusation_is_not_possible(fake, world, bots,
                                                                          bot):
    d = TableDriver(fake, world, bots, "suittaboo")
    await d.open(world.alice, [world.bob, world.carol])
    user = d.seat_user(await d.next_human())
    await d.note_refused(user, "cast", "shot", says="You can't cast now: you need a catapult")
    await d.note_refused(user, "accuse", "holder", says="Only McNulty")


async def _predict(d: TableDriver, user, seat: int) -> list[SixPlay]:
    """`/sixsuit predict` by the player about to predict; then their legal plays."""
    result = await d.fake.slash(user, "sixsuit predict", {"number": "1", "colour": "red",
                                                          "shape": "circle"},
                                channel=d.channel)
    assert "✅" in result.text, result.text
    await d.synced()
    return [a for a in d.legal(seat) if isinstance(a, SixPlay)]


async def test_six_suit_says_predict_first_in_every_option_of_play(fake, world, bots, bot):
    """Before predicting, each of `/sixsuit play`'s suggestions (card, player and the
    whole-number pile, whose note's value is the integer 0) and `/sixsuit discard` say
    to predict first; after predicting, a card and player that fit nowhere say so."""
    d = TableDriver(fake, world, bots, "sixsuit")
    await d.open(world.alice, [world.bob, world.carol], options="max_rounds=4")
    seat = await d.next_human()
    user = d.seat_user(seat)
    hand = d.table.engine.view(d.table.state, seat)["hand"]
    filled = {"card": hand[0], "player": "me", "pile": 1}
    for focused in ("card", "player", "pile"):
        others = {k: v for k, v in filled.items() if k != focused}
        choice = await d.note(user, "play", focused, others, says="First predict")
        assert choice["value"] == (0 if focused == "pile" else "-"), choice
        await d.note_refused(user, "play", focused, others, says="First predict")
    await d.note_refused(user, "discard", "card", says="First predict")
    plays = await _predict(d, user, seat)
    view = d.table.engine.view(d.table.state, seat)
    for label in view["hand"]:
        card = LABELS.index(label)
        for pile in range(6):  # a card that fits this pile of nobody's: say so by player
            if not any(a.card == card and a.pile == pile for a in plays):
                text = await d.note_refused(user, "play", "player",
                                            {"card": label, "pile": pile + 1},
                                            says=f"{label} doesn't fit pile {pile + 1} of "
                                            "anyone you may play on")
                assert "choose another card or pile" in text
                return
    pytest.skip("every card fits every pile of someone's")


async def test_hidden_rules_says_why_while_rules_are_being_chosen(fake, world, bots, bot):
    """While rules are chosen: play and enforce say so; once a player has kept theirs, the
    keep suggestions say it is done."""
    d = TableDriver(fake, world, bots, "hiddenrules")
    await d.open(world.alice, [world.bob], options="turn_seconds=0")
    await d.note_refused(world.alice, "play", "card", says="still choosing a secret rule")
    await d.note_refused(world.alice, "enforce", "player", {"holder": "x", "hint": "h"},
                         says="still choosing a secret rule")
    await d.note_refused(world.alice, "enforce", "holder", {"player": "bob", "hint": "h"},
                         says="still choosing a secret rule")
    triggers = await fake.autocomplete(world.alice, "hiddenrules keep", focused="trigger",
                                       channel=d.channel)
    actions = await fake.autocomplete(world.alice, "hiddenrules keep",
                                      {"trigger": triggers[0]["value"]}, focused="action",
                                      channel=d.channel)
    result = await fake.slash(world.alice, "hiddenrules keep",
                              {"trigger": triggers[0]["value"], "action": actions[0]["value"]},
                              channel=d.channel)
    assert "✅" in result.text, result.text
    await d.synced()
    await d.note_refused(world.alice, "keep", "trigger", {"action": "1"},
                         says="already chosen your rule")
    await d.note_refused(world.alice, "keep", "action", {"trigger": "1"},
                         says="already chosen your rule")


async def _note_then_refusal(fake, user, command: str, focused: str, options: dict,
                             submit: dict, channel) -> tuple[dict, str]:
    """One note offered for `focused` of `/command`; its value submitted with `submit`:
    the note and the refusal's text."""
    choices = await fake.autocomplete(user, command, options, focused=focused,
                                      channel=channel)
    assert len(choices) == 1, choices
    [choice] = choices
    assert 1 <= len(choice["name"]) <= 100 and "`" not in choice["name"], choice
    result = await fake.slash(user, command, {**submit, focused: choice["value"]},
                              channel=channel)
    assert result.ephemeral and result.text.startswith("⚠️ "), result.text
    return choice, result.text


async def test_replay_suggestions_say_when_there_is_nothing_to_replay(fake, world, bots,
                                                                      bot):
    """`/replay game:` (a whole-number option: the note's value is 0): on a server with no
    finished game yet, and for a number that matches no game."""
    choice, text = await _note_then_refusal(fake, world.outsider, "replay", "game", {}, {},
                                            world.channel)
    assert choice["value"] == 0 and "no finished game here you can replay yet" in \
        choice["name"], choice
    assert text == "⚠️ There's no finished game here you can replay yet: once one ends, " \
        "`/replay` lists it.", text
    d = TableDriver(fake, world, bots, "suspense")
    await d.open(world.alice, [world.bob], options="points_target=2")
    await d.play_to_end()
    choice, text = await _note_then_refusal(fake, world.outsider, "replay", "game",
                                            {"game": "99999"}, {}, world.channel)
    assert choice == {"name": "No suggestion matches “99999”: send it as typed, or clear it "
                              "to see all.", "value": 99999}, choice
    assert "99999" in text and ONLY_A_NOTE not in text, text


async def test_config_option_suggestions_say_who_may_set_and_what_comes_first(fake, world,
                                                                             bots, bot):
    """`/config set option:`: to a member without Manage Server, that only managers change
    settings (as `set` refuses them); to a manager who has not chosen the game yet, to
    choose it first; picked anyway, the note is refused and nothing is stored."""
    args = {"game": "suspense", "value": "3"}
    choice, text = await _note_then_refusal(fake, world.alice, "config set", "option",
                                            {"game": "suspense"}, args, world.channel)
    assert "Only members with Manage Server can change game settings" in choice["name"]
    assert "Only members with **Manage Server** can change game settings" in text, text
    choice, text = await _note_then_refusal(fake, world.mod, "config set", "option", {},
                                            args, world.channel)
    assert choice["name"] == "Choose the game first: its options are suggested then."
    assert ONLY_A_NOTE in text
    choice, _ = await _note_then_refusal(fake, world.mod, "config set", "option",
                                         {"game": "suspense", "option": "zebra"}, args,
                                         world.channel)
    assert "No suggestion matches “zebra”" in choice["name"], choice
    assert await bot.storage.get_game_settings(world.guild.id, "suspense") == {}


def _never_enforce(labels: list[str]) -> int:
    """A panel pick that lets every play stand (so that tricks end quickly)."""
    return next((i for i, label in enumerate(labels)
                 if label.startswith(("Pass", "Let the play stand"))), 0)


async def test_hidden_rules_tells_the_tricks_starter_to_start_it(fake, world, bots, bot):
    """Once a trick is over, `/hiddenrules play` told its next starter "It's not your turn
    to play — waiting for <them>"; it says to start the next trick, and to the other player
    whom the game waits for."""
    d = TableDriver(fake, world, bots, "hiddenrules")
    await d.open(world.alice, [world.bob], options="turn_seconds=0 max_turns=200")
    for _ in range(300):
        seat = await d.next_human()
        assert seat is not None, "the game ended first"
        view = d.table.engine.view(d.table.state, None)
        if view["phase"] == "play" and view["trick"]["over"] and view.get("pending") is None:
            starter = view["next_starter"]
            user, other = d.seat_user(starter), d.seat_user(1 - starter)
            await d.note_refused(user, "play", "card", says="The trick is over: you start "
                                 "the next one first (/hiddenrules next or Take my turn)")
            await d.note_refused(other, "play", "card", says="The trick is over: waiting for "
                                 f"{d.table.plain_names[starter]} to start the next one")
            return
        await d.take_turn(d.seat_user(seat), choose=_never_enforce)
        await d.synced()
    raise AssertionError("no trick ended")


async def test_every_suggested_option_takes_its_notes_value(fake, world, bot):
    """A note picked is sent only if the option takes its value: a client checks an
    integer against min_value/max_value and a string against min_length/max_length before
    it sends the command (discord-api-docs#3967: a choice outside min/max is refused at
    send; #6471: the length check is on the chosen value), and "This validation is
    client-side only" (application-commands.mdx, Autocomplete). With `pile:` and `game:`
    starting at 1, the note 0 could be picked and never sent: the player got the client's
    bare error, not the note's words. Every option with suggestions takes `-` or 0."""
    def options(nodes, path=""):
        for node in nodes:
            name = f"{path} {node['name']}".strip()
            if node.get("type") in (None, 1, 2):
                yield from options(node.get("options") or [], name)
            else:
                yield name, node

    suggested = [(name, o) for name, o in options(fake.synced_commands(world.guild))
                 if o.get("autocomplete")]
    assert len(suggested) > 20, suggested
    integers = {name for name, o in suggested if o["type"] == 4}
    assert integers == {"sixsuit play pile", "replay game"}, integers
    for name, option in suggested:
        if option["type"] == 4:
            assert option.get("min_value", 0) <= 0 <= option.get("max_value", 2**53), \
                (name, option)
        else:
            assert option["type"] == 3, (name, option)
            assert option.get("min_length", 0) <= 1 <= option.get("max_length", 6000), \
                (name, option)


async def test_a_zero_typed_by_hand_is_refused_as_no_pile_or_game(fake, world, bots, bot):
    """`pile:` and `game:` take 0 so that their note can be picked; a 0 typed by hand got
    "That choice was only a note", about a choice the player never made. It says there is
    no pile 0 (piles are 1–6) and no game 0, and changes nothing."""
    d = TableDriver(fake, world, bots, "sixsuit")
    await d.open(world.alice, [world.bob, world.carol], options="max_rounds=4")
    seat = await d.next_human()
    user = d.seat_user(seat)
    plays = await _predict(d, user, seat)
    if not plays:
        pytest.skip("no card fits any pile")
    play = plays[0]
    text = await d.refused(user, "play", {"card": LABELS[play.card],
                                          "player": str(play.target + 1), "pile": 0},
                           says="Pile 0 is only a note, no pile: choose pile 1–6")
    assert "That choice" not in text, text
    await d.play_to_end()
    result = await fake.slash(world.alice, "replay", {"game": 0}, channel=world.channel)
    assert result.ephemeral and result.text.startswith("⚠️ Game 0 is only a note, no "
                                                       "game:"), result.text


async def test_typed_text_the_suggestions_do_not_list_is_sent_as_typed(fake, world, bots, bot):
    """`/hiddenrules play card:7h` plays the 7♥ (its refusal says to type cards like `7h`),
    but the suggestions list `7♥`: typing `7h` offered the note "Nothing matches" whose
    value, picked (or taken by Enter), was refused as only a note. The note says no
    suggestion matches and, picked, sends `7h` as typed: the card is played."""
    from tests.e2e.test_hidden_rules import keep_by_slash

    d = TableDriver(fake, world, bots, "hiddenrules")
    await d.open(world.alice, [world.bob, world.carol], options="turn_seconds=0")
    for user in (world.alice, world.bob, world.carol):
        await keep_by_slash(fake, world, user)
    await d.synced()
    seat = await d.next_human()
    user = d.seat_user(seat)
    hand = d.table.engine.view(d.table.state, seat)["hand"]
    card = next((c for c in hand if not c.startswith("A")), None)
    if card is None:
        pytest.skip("a hand of aces only")
    typed = card[:-1] + {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}[card[-1]]
    choice = await d.note(user, "play", "card", {"card": typed},
                          says=f"No suggestion matches “{typed}”", sends=typed)
    result = await fake.slash(user, "hiddenrules play", {"card": choice["value"]},
                              channel=d.channel)
    assert result.ephemeral and "✅" in result.text, result.text
    await d.synced()
    assert card not in d.table.engine.view(d.table.state, seat)["hand"]
