"""Rule tests for Taboo (seeds/taboo.txt and RULINGS.md "Taboo").

Each test quotes the seed text or the ruling it checks. Scenarios use `deal()`, which builds a
state with chosen hands, row, stock and discard pile.
"""

from __future__ import annotations

import json
import random
import statistics
import time

import pytest

from engines import ENGINES
from engines.core import GameOverError, IllegalActionError, InvalidActionError, NotYourTurnError
from engines.taboo.rules import (
    _ALL_CARDS,
    EMPTY,
    ENGINE,
    OVER,
    PLACE,
    TURN,
    USE,
    Capture,
    Draw,
    Jack,
    Joker,
    Place,
    TabooState,
    clearing_values,
    rules_markdown,
    value,
)

E = ENGINE


def C(code: str):
    return _ALL_CARDS[code]


def cards(text: str) -> list:
    return [C(c) for c in text.split()] if text else []


def deal(hands: list[str], row: str = "", stock: str = "", discard: str = "",
         current: int = 0, phase: str | None = None, drawn: str | None = None,
         points: list[str] | None = None, **options) -> TabooState:
    """A scripted state: stock is listed bottom to top (the last card is drawn first)."""
    n = len(hands)
    row_cards = cards(row)
    state = TabooState(
        n=n, seed=7, rng_counter=1, options=E.Options(**options),
        hands=[sorted(cards(h)) for h in hands], row=row_cards, stock=cards(stock),
        discard=cards(discard), points=[cards(p) for p in (points or [""] * n)],
        dealer=(current - 1) % n, current=current,
        phase=phase or (TURN if row_cards else EMPTY),
        drawn=C(drawn) if drawn else None)
    return state


def act(state, action, seat=None):
    return E.apply(state, state.current if seat is None else seat, action)


def captures(state):
    return [a for a in E.legal_actions(state, state.current) if isinstance(a, Capture)]


def cap(card: str, single: bool, group=()):
    return Capture(C(card), single, tuple(group))


# --------------------------------------------------------------------------- identity
def test_registered():
    """DESIGN §2: the engine registers under the contract name "taboo", 2-6 players."""
    assert ENGINES["taboo"] is E
    assert (E.name, E.title, E.min_players, E.max_players) == ("taboo", "Taboo", 2, 6)


# --------------------------------------------------------------------------- setup
@pytest.mark.parametrize("n,total", [(2, 54), (3, 54), (4, 54), (5, 108), (6, 108)])
def test_deck_size(n, total):
    """Ruling: "52 cards + 2 jokers; two such decks for 5+ players"."""
    s = E.new_game(n, 11)
    count = len(s.stock) + len(s.row) + sum(len(h) for h in s.hands)
    assert count == total
    jokers = sum(1 for z in (s.stock, s.row, *s.hands) for c in z if c.rank == 0)
    assert jokers == (2 if n < 5 else 4)


def test_two_decks_option():
    """Ruling: two decks for 5+ players; option `two_decks_from` moves that threshold."""
    s = E.new_game(3, 1, {"two_decks_from": 3})
    assert len(s.stock) + 4 + 15 == 108
    s = E.new_game(6, 1, {"two_decks_from": 7})
    assert len(s.stock) + 4 + 30 == 54


def test_deal_five_each_and_four_face_up_without_specials():
    """Ruling: "Deal 5 each; 4 face up (a J or joker turned up is replaced and put back at a
    random place in the stock)"."""
    for seed in range(40):
        s = E.new_game(4, seed)
        assert all(len(h) == 5 for h in s.hands)
        assert len(s.row) == 4
        assert not any(c.rank in (0, 11) for c in s.row)
        # specials went back into the stock, not out of the game
        assert sum(1 for c in s.stock if c.rank == 0) + sum(
            1 for h in s.hands for c in h if c.rank == 0) == 2


def test_left_of_dealer_plays_first():
    """Seed 2: "the hand to the dealer's left plays first" (dealer random, RULINGS General)."""
    dealers = set()
    for seed in range(30):
        s = E.new_game(3, seed)
        dealers.add(s.dealer)
        assert E.to_act(s) == {(s.dealer + 1) % 3}
    assert dealers == {0, 1, 2}


def test_card_values():
    """Ruling: "Values: A 1, 2-10 face, Q 11, K 12; J and jokers 0 and special"."""
    assert [value(C(x)) for x in ("As", "2h", "10d", "Qc", "Ks", "Jh", "joker")] == [
        1, 2, 10, 11, 12, 0, 0]


# --------------------------------------------------------------------------- capture
def test_capture_one_equal_card_at_most():
    """Ruling: capture "take at most one face-up card of value v" - never two singles."""
    s = deal(["7s 2c", "3c"], row="7d 7h 9c", stock="5s 5h")
    opts = {(a.single, a.group) for a in captures(s) if a.card == C("7s")}
    assert opts == {(True, ())}


def test_capture_group_of_two_or_more_summing():
    """Ruling: "and/or one group of two or more face-up cards summing to v"."""
    s = deal(["7s 2c", "3c"], row="3c 4h 2d 5s Ks", stock="5s 5h")
    groups = {a.group for a in captures(s) if a.card == C("7s")}
    assert groups == {(4, 3), (5, 2)}  # never both groups at once
    # a single card is not a "group" (the 2 cannot take a lone 2 as a group)
    assert all(a.group == () or len(a.group) >= 2 for a in captures(s))


def test_capture_single_and_group_together():
    """Ruling: "at most one face-up card of value v and/or one group" (both at once)."""
    s = deal(["7s 2c", "3c"], row="7d 3c 4h 9s", stock="5s 5h")
    opts = {(a.single, a.group) for a in captures(s) if a.card == C("7s")}
    assert opts == {(True, ()), (False, (4, 3)), (True, (4, 3))}


def test_capture_needs_something_taken():
    """Ruling: "(at least one of the two)": no match, no capture."""
    s = deal(["8s 2c", "3c"], row="7d 3c 9s", stock="5s 5h")
    assert not [a for a in captures(s) if a.card == C("8s")]
    with pytest.raises(IllegalActionError):
        act(s, cap("8s", False, ()))


def test_capture_clearing_row_scores_points():
    """Ruling: "If this empties the face-up row, the played and taken cards go to the player's
    points pile"."""
    s = deal(["7s 2c", "3c"], row="7d 3c 4h", stock="5s 5h")
    step = act(s, cap("7s", True, (4, 3)))
    t = step.state
    assert t.row == [] and sorted(t.points[0]) == sorted(cards("7s 7d 3c 4h"))
    assert t.discard == []
    assert any(e.kind == "capture" and e.data["cleared"] for e in step.events)
    assert t.current == 1 and t.phase == EMPTY  # next player must draw and place


def test_capture_not_clearing_goes_to_discard():
    """Ruling: "otherwise to the discard pile"."""
    s = deal(["7s 2c", "3c"], row="7d 3c 4h 9s", stock="5s 5h")
    t = act(s, cap("7s", True, ())).state
    assert t.points[0] == [] and sorted(t.discard) == sorted(cards("7s 7d"))
    assert t.row == cards("3c 4h 9s") and t.hands[0] == [C("2c")]


def test_face_up_jack_counts_zero_in_group():
    """Ruling: J and jokers are value 0: one face up (placed from an all-special hand) can
    join a group without changing its sum."""
    s = deal(["7s 2c", "3c"], row="Jd 3c 4h", stock="5s")
    assert cap("7s", False, (4, 3, 0)) in captures(s)
    t = act(s, cap("7s", False, (4, 3, 0))).state
    assert t.row == [] and len(t.points[0]) == 4


# --------------------------------------------------------------------------- jack, joker
def test_jack_clears_row_to_discard_without_points():
    """Ruling: "Jack: clears the face-up row to the discard pile with the jack (no points)"."""
    s = deal(["Js 2c", "3c 4d"], row="7d 3c", stock="5s 5h")
    t = act(s, Jack()).state
    assert t.row == [] and t.points[0] == [] and sorted(t.discard) == sorted(cards("7d 3c Js"))
    # seed 6: "force the next player to draw a card and place one face up"
    assert t.phase == EMPTY and E.legal_actions(t, 1) == (Draw(),)


def test_joker_makes_every_other_player_draw():
    """Ruling: "Joker: every other player draws one card; the joker goes to the discard
    pile"."""
    s = deal(["joker 2c", "3c", "4d", "5h"], row="7d", stock="2h 8s 9s 10s")
    step = act(s, Joker())
    t = step.state
    assert [len(h) for h in t.hands] == [1, 2, 2, 2]
    assert t.discard == [C("joker")] and t.row == [C("7d")] and t.current == 1
    assert C("10s") in t.hands[1] and C("9s") in t.hands[2] and C("8s") in t.hands[3]
    drew = [e for e in step.events if e.kind == "drew"]
    assert [sorted(e.visible_to) for e in drew] == [[1], [2], [3]]
    assert all("10♠" not in e.text for e in step.events if e.visible(2))


def test_last_card_joker_still_makes_others_draw_then_ends():
    """Interpretation: a joker played as the last card takes effect, then the game ends."""
    s = deal(["joker", "3c"], row="7d", stock="8s")
    t = act(s, Joker()).state
    assert t.phase == OVER and t.hands[1] == cards("3c 8s")
    assert E.outcome(t).scores == {0: 0.0, 1: -11.0}


# --------------------------------------------------------------------------- draw
def test_draw_then_use_drawn_card_for_capture_only():
    """Ruling: "Draw: take the stock's top card, then either use it at once (capture ...)"."""
    s = deal(["7s 2c", "3c"], row="5d 3c", stock="9h 8h")
    t = act(s, Draw()).state
    assert t.phase == USE and t.drawn == C("8h") and C("8h") in t.hands[0]
    legal = E.legal_actions(t, 0)
    assert cap("8h", False, (5, 3)) in legal
    assert not any(isinstance(a, Capture) and a.card != C("8h") for a in legal)
    u = act(t, cap("8h", False, (5, 3))).state
    assert sorted(u.points[0]) == sorted(cards("8h 5d 3c")) and u.hands[0] == cards("2c 7s")


def test_draw_then_use_drawn_jack_or_joker():
    """Ruling: the drawn card may be used at once as a "jack or joker"; a held one may not."""
    s = deal(["Js joker 2c", "3c"], row="5d", stock="9h")
    t = act(s, Draw()).state
    assert Jack() not in E.legal_actions(t, 0) and Joker() not in E.legal_actions(t, 0)
    s = deal(["2c", "3c"], row="5d", stock="9h Jd")
    t = act(s, Draw()).state
    assert Jack() in E.legal_actions(t, 0)
    s = deal(["2c", "3c"], row="5d", stock="9h joker")
    t = act(s, Draw()).state
    assert Joker() in E.legal_actions(t, 0)
    u = act(t, Joker()).state
    assert u.hands[1] == cards("3c 9h")


def test_draw_then_place_any_hand_card_but_specials():
    """Ruling: "or place any hand card face up (never a J or joker unless the hand holds
    nothing else)"."""
    s = deal(["7s Js joker", "3c"], row="5d", stock="9h")
    t = act(s, Draw()).state
    places = {a.card for a in E.legal_actions(t, 0) if isinstance(a, Place)}
    assert places == {C("7s"), C("9h")}
    u = act(t, Place(C("7s"))).state
    assert u.row == cards("5d 7s") and u.current == 1 and u.phase == TURN
    # only specials left: then one of them may be placed
    s = deal(["Js", "3c"], row="5d", stock="joker")
    t = act(s, Draw()).state
    assert {a.card for a in E.legal_actions(t, 0) if isinstance(a, Place)} == {
        C("Js"), C("joker")}


def test_draw_is_always_allowed_even_with_a_capture():
    """Seed 5: the player "cannot match any cards (or chooses not to)" - drawing is a choice."""
    s = deal(["7s", "3c"], row="7d", stock="9h")
    assert Draw() in E.legal_actions(s, 0)


def test_empty_row_turn_is_draw_then_place():
    """Ruling: "when the row is empty at the start of a turn, that whole turn is: draw the top
    card, then place either it or another hand card face up"."""
    s = deal(["7s Js", "3c"], row="", stock="9h 7d")
    assert s.phase == EMPTY and E.legal_actions(s, 0) == (Draw(),)
    t = act(s, Draw()).state
    assert t.phase == PLACE
    assert E.legal_actions(t, 0) == (Place(C("7d")), Place(C("7s")))  # no capture, no jack
    u = act(t, Place(C("7s"))).state
    assert u.row == [C("7s")] and u.hands[0] == cards("7d Js") and u.phase == TURN


# --------------------------------------------------------------------------- stock
def test_empty_stock_reshuffles_discard_pile():
    """Ruling: "Stock empty: the discard pile is shuffled into a new stock"."""
    s = deal(["7s", "3c"], row="5d", stock="", discard="2h 4h 6h")
    step = act(s, Draw())
    t = step.state
    assert t.reshuffles == 1 and t.discard == [] and len(t.stock) == 2
    assert t.drawn in cards("2h 4h 6h")
    assert any(e.kind == "reshuffle" for e in step.events)


def test_both_empty_draw_skipped_no_deadlock():
    """Ruling: "if both are empty, draws are skipped" - the player still places a card."""
    s = deal(["7s 8s", "3c"], row="5d", stock="", discard="")
    step = act(s, Draw())
    t = step.state
    assert t.phase == PLACE and t.drawn is None and len(t.hands[0]) == 2
    assert any(e.kind == "draw_skipped" for e in step.events)
    assert E.legal_actions(t, 0) == (Place(C("7s")), Place(C("8s")))
    # a joker with nothing to draw is harmless too
    s = deal(["joker 2c", "3c"], row="5d", stock="", discard="")
    assert act(s, Joker()).state.hands[1] == [C("3c")]


# --------------------------------------------------------------------------- end and score
def test_game_ends_when_a_hand_is_empty_and_scores():
    """Ruling: "End: as soon as a player's hand is empty. Score = points pile minus hand, same
    values. Highest wins"."""
    s = deal(["7s", "Kc Qd Js"], row="7d", stock="9h", points=["", "As"])
    step = act(s, cap("7s", True))
    t = step.state
    assert t.phase == OVER and E.to_act(t) == frozenset()
    out = E.outcome(t)
    assert out.scores == {0: 14.0, 1: 1.0 - 12 - 11 - 0}
    # the reason names who went out (every place showing a reason renders seat names)
    assert out.winners == {0} and out.reason == "{P0} played their last card."
    assert any(e.kind == "game_over" for e in step.events)
    with pytest.raises(GameOverError):
        E.apply(t, 1, Draw())


def test_ties_share_the_win():
    """Ruling: "Highest wins; ties share"."""
    s = deal(["2s", "2c", "5h 3d"], row="9d 4c", stock="9h", points=["", "4h", "9c 3s"])
    t = act(s, Draw()).state
    t = act(t, Place(C("2s"))).state  # hand still 1 card (drew 9h)
    t = act(t, Draw()).state  # P1 draws from an empty stock + discard: skipped
    t = act(t, Place(C("2c"))).state
    assert t.phase == OVER
    out = E.outcome(t)
    assert out.scores == {0: -9.0, 1: 4.0, 2: 4.0} and out.winners == {1, 2}


def test_turn_cap_ends_game_and_says_so():
    """Ruling: "Option `max_turns` (default 500) ends the game with the same scoring"."""
    assert E.Options().max_turns == 500
    s = deal(["7s 8s", "3c 4c"], row="Kd", stock="2h 2d 2c 2s", max_turns=20)
    s.turns = 19
    t = act(act(s, Draw()).state, Place(C("7s"))).state
    assert t.phase == OVER and t.capped
    assert "20-turn safety cap was reached" in E.outcome(t).reason


def test_random_games_always_end_within_cap():
    """RULINGS General: every game ends after a bounded number of actions (<= 2 per turn)."""
    rng = random.Random(3)
    for seed in range(30):
        s = E.new_game(rng.randint(2, 6), seed, {"max_turns": 60})
        for _ in range(130):
            if s.phase == OVER:
                break
            s = act(s, rng.choice(E.legal_actions(s, s.current))).state
        assert s.phase == OVER


# --------------------------------------------------------------------------- errors
def test_errors():
    """DESIGN §2: NotYourTurnError for a seat not in to_act, IllegalActionError otherwise."""
    s = deal(["7s", "3c"], row="7d", stock="9h")
    with pytest.raises(NotYourTurnError):
        E.apply(s, 1, Draw())
    for bad in (object(), None, "draw", Place(C("7s")), cap("3c", True), cap("7s", False, (7,))):
        with pytest.raises(IllegalActionError):
            E.apply(s, 0, bad)


# --------------------------------------------------------------------------- text and menus
def test_a_capture_reads_as_a_player_says_it():
    """A capture names the cards, as a player would say it ("9♥ captures 2♣ + 7♦"), not
    "7 takes 7 + (3,4)": the card of the same value first, then the group low to high, and
    "(clears the row)" when it scores. One wording for the confirmation (describe), the
    panel (menu_path) and the board and history (the event)."""
    s = deal(["7s Qs", "3c"], row="7d 3c 4h 5h 6d", stock="9h")
    assert E.describe(s, cap("7s", True, (4, 3))) == "7♠ captures 7♦ and 3♣ + 4♥"
    assert E.describe(s, cap("7s", True)) == "7♠ captures 7♦"
    assert E.describe(s, cap("Qs", False, (6, 5))) == "Q♠ captures 5♥ + 6♦"
    assert E.menu_path(s, cap("Qs", False, (6, 5))) == ("Capture", "Q♠", "Q♠ captures 5♥ + 6♦")
    event = act(s, cap("Qs", False, (6, 5))).events[0]
    assert event.text == "{P0}'s Q♠ captures 5♥ + 6♦; the cards go to the discard pile."


def test_menu_path_shapes():
    """Brief: menu_path e.g. ("Capture", "7♠", "7♠ captures 7♦ and 3♣ + 4♥ (clears the row)")."""
    s = deal(["7s Js joker", "3c"], row="7d 3c 4h", stock="9h")
    assert E.menu_path(s, cap("7s", True, (4, 3))) == (
        "Capture", "7♠", "7♠ captures 7♦ and 3♣ + 4♥ (clears the row)")
    assert E.menu_path(s, cap("7s", True)) == ("Capture", "7♠", "7♠ captures 7♦")
    assert act(s, cap("7s", True, (4, 3))).events[0].text == (
        "{P0}'s 7♠ captures 7♦ and 3♣ + 4♥, clearing the row: +21 points.")
    assert E.menu_path(s, Jack()) == ("Jack (clear the row)",)
    assert E.menu_path(s, Joker()) == ("Joker (others draw)",)
    assert E.menu_path(s, Draw()) == ("Draw",)
    t = act(s, Draw()).state
    assert E.menu_path(t, Place(C("9h"))) == ("Place", "9♥")


def test_duplicate_cards_with_two_decks_are_unambiguous():
    """Brief: with two decks, actions name row cards by value, so identical duplicates never
    make a capture ambiguous (and appear once in the list)."""
    s = deal(["7s 7s", "3c", "2c", "2d", "2h"], row="7d 7d 3c 4h", stock="9h")
    legal = E.legal_actions(s, 0)
    assert len(legal) == len(set(legal))
    t = act(s, cap("7s", True, (4, 3))).state
    assert t.row == [C("7d")] and t.hands[0] == [C("7s")]


# --------------------------------------------------------------------------- views
def test_views_hide_hands_and_drawn_card():
    """Brief: hands private (own hand visible), everything else public."""
    s = deal(["7s 2c", "3c Kd"], row="5d 3h", stock="9h 8h", discard="Qs",
             points=["", "4c 4s"])
    t = act(s, Draw()).state
    v0, v1, spec = E.view(t, 0), E.view(t, 1), E.view(t, None)
    assert [c["card"] for c in v0["hand"]] == ["2♣", "7♠", "8♥"] and v0["drawn"] == "8♥"
    assert "drawn" not in v1 and "hand" not in spec
    assert v1["hand_sizes"] == [3, 2] and spec["stock_size"] == 1
    assert spec["discard_top"] == "Q♠" and spec["discard_size"] == 1
    assert spec["points"][1] == {"cards": ["4♣", "4♠"], "total": 8}
    assert [c["card"] for c in spec["row"]] == ["5♦", "3♥"] and spec["row_total"] == 8
    assert spec["row_clears_with"] == [8]
    for view in (v0, v1, spec):
        json.dumps(view)
        assert "seed" not in view and "rng_counter" not in view
    assert "8♥" not in json.dumps(v1, ensure_ascii=False)
    assert "8♥" in E.secret_labels(t, 1) and "8♥" not in E.secret_labels(t, 0)


def test_secret_labels_skip_visible_duplicates():
    """Brief: "secret_labels must only contain labels of which no copy is visible"."""
    s = deal(["7s 2c", "7s Kd", "3c", "4c", "5c"], row="Kd 3h", stock="9h")
    secrets = E.secret_labels(s, 0)
    assert "7♠" not in secrets  # seat 0 holds a copy
    assert "K♦" not in secrets  # a copy is face up
    assert "9♥" in secrets and "3♣" in secrets


def test_determinize_keeps_own_knowledge():
    """DESIGN §2: determinize resamples only what the seat cannot see."""
    s = E.new_game(4, 5)
    for seed in range(5):
        d = E.determinize(s, 2, random.Random(seed))
        assert E.view(d, 2) == E.view(s, 2)
        assert sorted(d.stock + d.hands[0] + d.hands[1] + d.hands[3]) == sorted(
            s.stock + s.hands[0] + s.hands[1] + s.hands[3])


def test_dump_load_round_trip():
    """DESIGN §2: `load(dump(s))` equal in every view and action."""
    s = act(deal(["7s 2c", "3c"], row="5d 3h", stock="9h 8h"), Draw()).state
    t = E.load(E.dump(s))
    assert E.dump(t) == E.dump(s)
    assert E.legal_actions(t, 0) == E.legal_actions(s, 0)
    assert E.view(t, 0) == E.view(s, 0)


def test_clearing_values():
    """Helper for hints and the AI: card values that would take the whole row."""
    assert clearing_values([7]) == {7}
    assert clearing_values([3, 4]) == {7}
    assert clearing_values([7, 3, 4]) == {7}
    assert clearing_values([9, 9]) == set()  # 18 > 12 and no single+group split
    assert clearing_values([]) == set()


# --------------------------------------------------------------------------- timer and AI
def test_default_action_clears_or_draws_or_places_low():
    """Brief: the turn timer plays a safe, sensible move."""
    s = deal(["7s 2c", "3c"], row="7d", stock="9h Kh")
    assert E.default_action(s, 0) == cap("7s", True)
    s = deal(["8s 2c", "3c"], row="7d", stock="9h Kh")
    assert E.default_action(s, 0) == Draw()
    t = act(s, Draw()).state
    assert E.default_action(t, 0) == Place(C("2c"))


def ai(state):
    return E.ai_action(state, state.current, random.Random(1))


def test_ai_prefers_clearing_capture():
    """Brief: the AI "prefers captures that clear the row (points)"."""
    s = deal(["9s 2c 5h", "3c 4c 5c"], row="9d 6h 3h", stock="9h Kh 8c 8d")
    assert ai(s) == cap("9s", True, (6, 3))


def test_ai_jokers_an_opponent_about_to_go_out():
    """Brief: the AI "times jokers (e.g. when opponents are close to going out)"."""
    s = deal(["joker 9c Kh", "3c"], row="Qd Qh", stock="9h Kh 8c 8d 2s 2h")
    assert ai(s) == Joker()


def test_ai_jacks_an_easy_clear_for_the_next_player():
    """Brief: the AI "uses jacks to deny the next player": a lone 10 with tens about."""
    s = deal(["Js 2c", "3c 4c 5h 6h"], row="10d", stock="9h Kh 8c 8d 2s 2h 10s 10c 10h")
    assert ai(s) == Jack()


def test_ai_places_a_card_that_is_hard_to_clear():
    """Brief: the AI places "not cards that give the next player an easy clear"."""
    s = deal(["6s Kc 2d", "3c 4c 5c"], row="", stock="Kh 8c 8d 2s 6h 6d 6c", phase=PLACE,
             drawn=None)
    s.hands[0] = sorted(cards("6s Kc 2d"))
    choice = ai(s)
    assert isinstance(choice, Place)
    assert choice.card != C("6s")  # the stock is full of sixes: a 6 would be an easy clear


def _arena(n: int, games: int) -> tuple[float, float]:
    wins = 0.0
    margins = []
    for g in range(games):
        ai_seat = g % n
        s = E.new_game(n, 4000 + g)
        rng = random.Random(g)
        while s.phase != OVER:
            seat = s.current
            if seat == ai_seat:
                a = E.ai_action(s, seat, rng)
            else:
                a = rng.choice(E.legal_actions(s, seat))
            s = E.apply(s, seat, a).state
        out = E.outcome(s)
        if ai_seat in out.winners:
            wins += 1 / len(out.winners)
        margins.append(out.scores[ai_seat]
                       - statistics.mean(v for k, v in out.scores.items() if k != ai_seat))
    return wins / games, statistics.mean(margins)


def test_ai_beats_random_players():
    """DESIGN §6: the AI plays sensibly - it clearly beats random legal play.

    Measured with these seeds: 2 players 69% wins (fair 50%), 4 players 45% (fair 25%);
    `python -m bench.ai --engines taboo --players all --games 200`: 72% / 55% / 40% (6p).
    """
    start = time.process_time()
    win2, margin2 = _arena(2, 80)
    win4, margin4 = _arena(4, 60)
    assert win2 >= 0.6, (win2, margin2)  # fair share 0.5
    assert win4 >= 0.38, (win4, margin4)  # fair share 0.25
    assert margin2 > 0 and margin4 > 0
    assert time.process_time() - start < 20


def test_rules_summary_is_short_and_covers_the_moves():
    """Brief: rules.md short (a quick start, then the full rules within Discord's embed
    limits, checked in tests/bot/test_rules_texts.py) covering every rule a player needs."""
    text = rules_markdown()
    assert len(text) < 5000
    for word in ("Capture", "Jack", "Joker", "Draw", "Empty row", "minus", "max_turns"):
        assert word in text


def test_find_capture_reads_the_play_command():
    """Brief: `/taboo play card: take:` with a capture written like "7 takes 7 + (3,4)"."""
    s = deal(["7s Qs 2c", "3c"], row="7d 3c 4h 5h 6d", stock="9h")
    assert E.find_capture(s, 0, "7♠", "7 + (3,4)") == cap("7s", True, (4, 3))
    assert E.find_capture(s, 0, "7s", "(4,3)") == cap("7s", False, (4, 3))
    assert E.find_capture(s, 0, "7", "7") == cap("7s", True)
    assert E.find_capture(s, 0, "7", "7+3+4") == cap("7s", True, (4, 3))
    assert E.find_capture(s, 0, "Q", "5 6") == cap("Qs", False, (6, 5))
    assert E.find_capture(s, 0, "Q♠", "(5♥, 6♦)") == cap("Qs", False, (6, 5))
    # the cards as a capture now reads: "7♠ captures 7♦ and 3♣ + 4♥"
    assert E.find_capture(s, 0, "7♠", "7♦ and 3♣ + 4♥") == cap("7s", True, (4, 3))
    assert E.find_capture(s, 0, "Q♠", "5♥ + 6♦") == cap("Qs", False, (6, 5))
    best = E.find_capture(s, 0, "7s")  # no take: the best capture first
    assert best == E.legal_actions(s, 0)[0] and best.card == C("7s")
    with pytest.raises(IllegalActionError):
        E.find_capture(s, 0, "2c", "2")
    with pytest.raises(IllegalActionError):
        E.find_capture(s, 0, "7s", "(5,2)")
    with pytest.raises(InvalidActionError):
        E.find_capture(s, 0, "7s", "seven")


def test_actions_built_from_parsed_cards_are_accepted():
    """DESIGN §2: an action equal to a listed one is legal even if the cog built it from text
    (Card.parse makes new card objects); the state keeps only the engine's own cards."""
    from engines.cards import Card

    s = deal(["7s 2c", "3c"], row="7d 3c 4h", stock="9h")
    t = E.apply(s, 0, Capture(Card.parse("7♠"), True, (4, 3))).state
    assert t.points[0][0] is C("7s")
    s = deal(["7s 2c", "3c"], row="5d", stock="9h")
    t = act(s, Draw()).state
    u = E.apply(t, 0, Place(Card.parse("2c"))).state
    assert u.row[-1] is C("2c")
