"""Independent rules audit of Taboo (seeds/taboo.txt, RULINGS.md "Taboo" and "General").

Every test names the rule it checks and quotes it in its docstring ("Seed n" = numbered rule of
the seed text, "Ruling" = RULINGS.md, binding where it differs). Scenarios are scripted with
`deal()` (stock listed bottom to top: the last card is drawn first) and checked with exact
figures. The scenarios the issue asks for are in the section "Issue scenarios" below.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from engines.cards import Card, make_deck
from engines.core import IllegalActionError
from engines.taboo.rules import (
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
)
from tests.engines.test_taboo import C, act, cap, captures, cards, deal

E = ENGINE


def legal(state):
    return list(E.legal_actions(state, state.current))


def places(state):
    return [a.card for a in legal(state) if isinstance(a, Place)]


def visible(events, seat):
    return [e for e in events if e.visible(seat)]


# =========================================================================== issue scenarios
def test_capture_with_clearing_scores_the_played_and_taken_cards():
    """Ruling "Capture": "If this empties the face-up row, the played and taken cards go to the
    player's points pile" - 9 takes 9 + (2,3,4) from a row of exactly those four cards."""
    s = deal(["9s 5c", "3c 4d"], row="9d 2h 3s 4c", stock="6s 7s")
    step = act(s, cap("9s", True, (4, 3, 2)))
    t = step.state
    assert t.row == [] and t.discard == []
    assert sorted(t.points[0]) == sorted(cards("9s 9d 2h 3s 4c"))
    assert E.view(t, None)["points"][0]["total"] == 27  # 9 + 9 + 2 + 3 + 4
    assert E.view(t, 0)["score_now"] == 27 - 5
    assert t.hands[0] == [C("5c")]
    ev = next(e for e in step.events if e.kind == "capture")
    assert ev.visible_to is None and ev.data["cleared"] is True and ev.data["points"] == 27
    # seed 4: "Whenever the face up cards are cleared, the next player must draw ..."
    assert t.current == 1 and t.phase == EMPTY and legal(t) == [Draw()]


def test_capture_without_clearing_goes_to_the_discard_pile_for_no_points():
    """Ruling "Capture": "... otherwise to the discard pile" - the same capture with a K left in
    the row scores nothing."""
    s = deal(["9s 5c", "3c 4d"], row="9d 2h 3s 4c Kh", stock="6s 7s")
    step = act(s, cap("9s", True, (4, 3, 2)))
    t = step.state
    assert t.row == [C("Kh")] and t.points == [[], []]
    assert sorted(t.discard) == sorted(cards("9s 9d 2h 3s 4c"))
    v = E.view(t, None)
    assert v["discard_size"] == 5 and v["points"][0]["total"] == 0
    assert v["row_total"] == 12 and v["row_clears_with"] == [12]
    ev = next(e for e in step.events if e.kind == "capture")
    assert ev.data["cleared"] is False and ev.data["points"] == 0
    assert t.current == 1 and t.phase == TURN  # the row is not empty: a normal turn


def test_capture_group_only_without_clearing():
    """Ruling "Capture": "one group of two or more face-up cards summing to v" on its own
    (no single): 9 takes (4,5) and leaves the other 9 face up."""
    s = deal(["9s 5c", "3c"], row="5d 9c 4h", stock="6s")
    assert cap("9s", False, (5, 4)) in captures(s)
    t = act(s, cap("9s", False, (5, 4))).state
    assert t.row == [C("9c")] and sorted(t.discard) == sorted(cards("9s 5d 4h"))
    assert t.points[0] == []


def test_jack_then_next_player_forced_to_draw_and_place():
    """Seed 6 / Ruling "Jack": "clears the face-up row to the discard pile with the jack (no
    points)" and "does force the next player to draw a card and place one face up, preventing
    them from reducing the number of cards in hand"."""
    s = deal(["Js 8c", "3c 4d", "6h 6s"], row="7d 3h Kc", stock="2s 5h 10c")
    step = act(s, Jack())
    t = step.state
    assert t.row == [] and t.points == [[], [], []] and t.hands[0] == [C("8c")]
    assert sorted(t.discard) == sorted(cards("7d 3h Kc Js"))
    jack_ev = next(e for e in step.events if e.kind == "jack")
    assert sorted(jack_ev.data["swept"]) == sorted(["7d", "3h", "Kc"])
    # the next player: the whole turn is draw, then place
    assert t.current == 1 and t.phase == EMPTY and legal(t) == [Draw()]
    for bad in (cap("3c", True), Jack(), Joker(), Place(C("3c"))):
        with pytest.raises(IllegalActionError):
            act(t, bad)
    step = act(t, Draw())
    u = step.state
    assert u.phase == PLACE and u.drawn == C("10c") and u.hands[1] == cards("3c 4d 10c")
    assert [e.kind for e in visible(step.events, 0)] == ["draw"]  # others: no card named
    assert "10♣" in next(e.text for e in step.events if e.kind == "drew")
    assert legal(u) == [Place(C("3c")), Place(C("4d")), Place(C("10c"))]  # nothing else
    # seed 4: "either place it face up ... or add it to their hand and place another card"
    put_drawn = act(u, Place(C("10c"))).state
    assert put_drawn.row == [C("10c")] and put_drawn.hands[1] == cards("3c 4d")
    keep_drawn = act(u, Place(C("4d"))).state
    assert keep_drawn.row == [C("4d")] and keep_drawn.hands[1] == cards("3c 10c")
    assert len(keep_drawn.hands[1]) == 2  # hand size unchanged by the forced turn
    assert keep_drawn.current == 2 and keep_drawn.phase == TURN
    assert keep_drawn.stock == cards("2s 5h")


def test_joker_in_a_four_player_game():
    """Seed 7 / Ruling "Joker": "every other player draws one card; the joker goes to the
    discard pile" and "play continues with the next player" - 4 players, clockwise from the
    joker player's left, each sees only their own card."""
    s = deal(["joker 5c 6c", "2d", "3d", "4d"], row="9h Kd", stock="Qs 8s 7s Ah")
    step = act(s, Joker())
    t = step.state
    assert t.hands == [cards("5c 6c"), cards("Ah 2d"), cards("3d 7s"), cards("4d 8s")]
    assert t.stock == [C("Qs")] and t.discard == [C("joker")]
    assert t.row == cards("9h Kd") and t.points == [[], [], [], []]
    assert t.current == 1 and t.phase == TURN
    v = E.view(t, None)
    assert v["hand_sizes"] == [2, 2, 2, 2] and v["stock_size"] == 1
    assert v["discard_top"] == "🃏Joker"
    drew = [e for e in step.events if e.kind == "drew"]
    assert [(sorted(e.visible_to), e.data["card"]) for e in drew] == [
        ([1], "Ah"), ([2], "7s"), ([3], "8s")]
    for seat in range(4):
        others = {"A♥", "7♠", "8♠"} - {str(c) for c in t.hands[seat]}
        for e in visible(step.events, seat):
            assert not any(label in e.text for label in others)


def test_stock_rebuilding_from_the_discard_pile():
    """Seed 9 / Ruling "Stock empty: the discard pile is shuffled into a new stock" - the draw
    that needs a card rebuilds the stock from the whole discard pile."""
    s = deal(["8c 9c", "2d"], row="Kh", stock="", discard="3s 4s 5s 6s")
    step = act(s, Draw())
    t = step.state
    assert t.reshuffles == 1 and t.discard == [] and len(t.stock) == 3
    assert t.drawn in cards("3s 4s 5s 6s") and t.drawn in t.hands[0]
    assert sorted([*t.stock, t.drawn]) == sorted(cards("3s 4s 5s 6s"))
    ev = next(e for e in step.events if e.kind == "reshuffle")
    assert ev.visible_to is None and ev.data["size"] == 4
    v = E.view(t, 1)
    assert (v["stock_size"], v["discard_size"], v["discard_top"], v["reshuffles"]) == (
        3, 0, None, 1)
    assert t.phase == USE


def test_two_decks_at_five_players():
    """Seed 1 / Ruling: "52 cards + 2 jokers; two such decks for 5+ players" - 108 cards, every
    card twice, 8 jacks, 4 jokers; still 5 dealt each and 4 face up."""
    s = E.new_game(5, 3)
    everything = s.stock + s.row + [c for h in s.hands for c in h]
    assert len(everything) == 108
    counts = Counter(everything)
    assert counts[C("joker")] == 4
    assert all(counts[c] == 2 for c in make_deck()) and len(counts) == 53
    assert sum(1 for c in everything if c.rank == 11) == 8
    assert [len(h) for h in s.hands] == [5] * 5 and len(s.row) == 4
    assert len(s.stock) == 108 - 25 - 4
    assert E.view(s, None)["decks"] == 2
    four = E.new_game(4, 3)
    assert len(four.stock) == 54 - 20 - 4 and E.view(four, None)["decks"] == 1


def test_end_scoring_with_a_negative_score():
    """Seed 8 / Ruling "End": "Score = points pile minus hand, same values" (J and joker 0) -
    a hand worth more than the points pile scores below zero."""
    s = deal(["5s", "Kd Qd Js joker", "2h"], row="5d 2c", stock="6s",
             points=["Kc Qc", "3h", ""])
    step = act(s, cap("5s", True))
    t = step.state
    assert t.phase == OVER and t.row == [C("2c")]  # not cleared: 5s 5d went to the discard
    out = E.outcome(t)
    assert out.scores == {0: 23.0, 1: 3.0 - 12 - 11 - 0 - 0, 2: -2.0}
    assert out.scores[1] == -20.0 and out.winners == {0}
    v = E.view(t, 2)
    assert v["outcome"]["scores"] == [23.0, -20.0, -2.0] and v["outcome"]["winners"] == [0]
    assert v["final_hands"][1] == ["🃏Joker", "J♠", "Q♦", "K♦"]  # every hand shown at the end
    over = next(e for e in step.events if e.kind == "game_over")
    assert over.data["scores"] == {"0": 23.0, "1": -20.0, "2": -2.0}


def test_highest_score_wins_even_when_every_score_is_negative():
    """Ruling "End": "Highest wins" - with all scores negative the least negative wins (here the
    game ends by the `max_turns` cap, "with the same scoring")."""
    s = deal(["7s 8s", "Kc 4c"], row="Kd", stock="2h 2d", max_turns=20)
    s.turns = 19
    t = act(act(s, Draw()).state, Place(C("2d"))).state
    assert t.phase == OVER and t.capped
    out = E.outcome(t)
    assert out.scores == {0: -15.0, 1: -16.0} and out.winners == {0}
    assert "20-turn safety cap was reached" in out.reason


# =========================================================================== setup
def test_one_deck_is_52_cards_and_2_jokers_below_five_players():
    """Seed 1 / Ruling: "52 cards + 2 jokers" (one deck for 2-4 players): each card once."""
    for n in (2, 3, 4):
        s = E.new_game(n, 8)
        counts = Counter(s.stock + s.row + [c for h in s.hands for c in h])
        assert counts[C("joker")] == 2 and all(counts[c] == 1 for c in make_deck())
        assert sum(counts.values()) == 54


def test_turned_up_jacks_and_jokers_are_replaced_and_go_back_into_the_stock():
    """Seed 2 / Ruling: "4 face up (a J or joker turned up is replaced and put back at a random
    place in the stock)" - no special in the row, all 4 jacks and 2 jokers still in play."""
    for seed in range(60):
        s = E.new_game(2, seed)
        assert len(s.row) == 4 and not any(c.rank in (0, 11) for c in s.row)
        in_play = s.stock + [c for h in s.hands for c in h]
        assert sum(1 for c in in_play if c.rank == 11) == 4
        assert sum(1 for c in in_play if c.rank == 0) == 2


def test_play_goes_clockwise_and_wraps_round():
    """Seed 2: "Play is clockwise"; RULINGS General: "left of X" is the next seat clockwise -
    after seat n-1 comes seat 0."""
    s = deal(["2c 3c", "4c 5c", "6c 7c"], row="Kd", stock="8h 9h", current=2)
    t = act(act(s, Draw()).state, Place(C("6c"))).state
    assert t.current == 0 and t.phase == TURN


# =========================================================================== capture rules
def test_capture_group_of_three_cards():
    """Seed 3: "two or more that add up to their card" - a group of three: 9 takes (2,3,4)."""
    s = deal(["9s 5c", "3c"], row="2h 3s 4c Kh", stock="6s")
    assert cap("9s", False, (4, 3, 2)) in captures(s)
    t = act(s, cap("9s", False, (4, 3, 2))).state
    assert t.row == [C("Kh")] and len(t.discard) == 4


def test_capture_group_may_be_named_in_any_order():
    """Ruling "Capture": a group is a set of face-up cards - (2,3,4) and (4,3,2) are one move."""
    s = deal(["9s 5c", "3c"], row="2h 3s 4c Kh", stock="6s")
    a = act(s, Capture(C("9s"), False, (2, 3, 4))).state
    b = act(s, Capture(C("9s"), False, [3, 4, 2])).state  # type: ignore[arg-type]
    assert a.row == b.row == [C("Kh")] and a.discard == b.discard


def test_jacks_and_jokers_cannot_capture():
    """Ruling: "J and jokers 0 and special" - they are played as Jack/Joker, never as a
    capturing card."""
    s = deal(["Js joker", "3c"], row="5c 2d", stock="6s")
    assert captures(s) == []
    assert set(legal(s)) == {Jack(), Joker(), Draw()}
    with pytest.raises(IllegalActionError):
        act(s, cap("Js", False, (5, 2)))


def test_capture_with_a_king_takes_queen_ace_group():
    """Seed 1: "Ace=1, Queen=11, King=12" - a K (12) takes (A,Q) and a 12 as a single."""
    s = deal(["Ks 2c", "3c"], row="Ad Qh Kc", stock="6s")
    t = act(s, cap("Ks", True, (11, 1))).state
    assert t.row == [] and E.view(t, None)["points"][0]["total"] == 12 + 12 + 1 + 11


# =========================================================================== draw rules
def test_draw_is_allowed_with_a_jack_or_joker_in_hand():
    """Seed 5: "does not have a Jack or Joker in their hand (or chooses not to use them) then
    they must draw" - holding specials and a capture, drawing is still a choice."""
    s = deal(["Js joker 7s", "3c"], row="7d", stock="9h")
    assert {Jack(), Joker(), Draw(), cap("7s", True)} <= set(legal(s))


def test_drawn_jack_used_at_once_forces_the_next_draw_and_place():
    """Ruling "Draw": "use it at once (capture, jack or joker)" - a drawn jack clears the row,
    so the next player's turn is draw-and-place."""
    s = deal(["2c 3c", "4c"], row="5d 6d", stock="9h Jd")
    t = act(s, Draw()).state
    assert t.phase == USE and Jack() in legal(t)
    u = act(t, Jack()).state
    assert u.hands[0] == cards("2c 3c") and u.row == [] and u.points == [[], []]
    assert sorted(u.discard) == sorted(cards("5d 6d Jd"))
    assert u.current == 1 and u.phase == EMPTY


def test_drawn_card_capture_that_clears_scores():
    """Ruling "Draw" + "Capture": a capture with the drawn card that empties the row scores,
    and the next player must draw and place."""
    s = deal(["2c", "4c"], row="5d 3d", stock="9h 8s")
    u = act(act(s, Draw()).state, cap("8s", False, (5, 3))).state
    assert E.view(u, None)["points"][0]["total"] == 16 and u.hands[0] == [C("2c")]
    assert u.current == 1 and u.phase == EMPTY


def test_draw_then_place_keeps_hand_size():
    """Seed 5: "or place a card from their hand face up with the other face up cards" - the
    draw turn ends after one placement; the hand is the same size as before."""
    s = deal(["2c 3c", "4c"], row="Kd", stock="9h")
    t = act(act(s, Draw()).state, Place(C("9h"))).state
    assert t.hands[0] == cards("2c 3c") and t.row == cards("Kd 9h") and t.current == 1


def test_held_capture_not_allowed_after_a_draw():
    """Ruling "Draw": "either use it at once ... or place" - the drawn card, not a held one."""
    s = deal(["7s 2c", "4c"], row="7d", stock="9h")
    t = act(s, Draw()).state
    with pytest.raises(IllegalActionError):
        act(t, cap("7s", True))


# =========================================================================== empty row
def test_empty_row_with_a_drawn_jack_places_a_plain_card():
    """Ruling "Empty row": "draw the top card, then place either it or another hand card face
    up" with "never a J or joker unless the hand holds nothing else" (interpretation: the
    Draw bullet's limit applies to this draw too); the jack is kept, never played."""
    s = deal(["2c", "3c 4c"], row="", stock="9h Jd", current=1)
    t = act(s, Draw()).state
    assert t.phase == PLACE and legal(t) == [Place(C("3c")), Place(C("4c"))]
    u = act(t, Place(C("3c"))).state
    assert u.row == [C("3c")] and u.hands[1] == cards("4c Jd")


def test_empty_row_with_only_specials_places_one_of_them():
    """Ruling "Draw": "(never a J or joker unless the hand holds nothing else)"."""
    s = deal(["2c", "Js"], row="", stock="9h joker", current=1)
    t = act(s, Draw()).state
    assert set(places(t)) == {C("Js"), C("joker")}
    u = act(t, Place(C("joker"))).state
    assert u.row == [C("joker")] and u.current == 0 and u.phase == TURN


def test_empty_row_and_nothing_to_draw_still_places_a_card():
    """Ruling "Stock empty": "if both are empty, draws are skipped" - on an empty row the turn
    is then just placing a hand card."""
    s = deal(["2c", "3c 4c"], row="", stock="", discard="", current=1)
    step = act(s, Draw())
    t = step.state
    assert t.phase == PLACE and t.drawn is None and t.hands[1] == cards("3c 4c")
    assert any(e.kind == "draw_skipped" for e in step.events)
    assert act(t, Place(C("4c"))).state.row == [C("4c")]


# =========================================================================== joker, stock
def test_joker_draws_rebuild_the_stock_without_the_joker():
    """Seed 9 + Ruling "Joker": the others draw first (reshuffling the discard pile when the
    stock runs out), then "the joker goes to the discard pile"."""
    s = deal(["joker 2c", "3c", "4c"], row="Kd", stock="Ah", discard="5d 6d")
    step = act(s, Joker())
    t = step.state
    assert t.hands[1] == cards("Ah 3c") and t.reshuffles == 1
    assert t.hands[2][0] == C("4c") and t.hands[2][1] in cards("5d 6d")
    assert len(t.stock) == 1 and t.stock[0] in cards("5d 6d") and t.discard == [C("joker")]


def test_stock_is_rebuilt_as_soon_as_it_is_used_up():
    """Seed 9: "If the stock pile is used up ... the discard pile is shuffled and placed face
    down as the stock pile" — right away: the last card drawn, the discard pile becomes the
    new stock (so the stock never shows empty while the discard pile holds cards)."""
    s = deal(["2c 3c", "4c 5c"], row="Kd", stock="9h", discard="6d")
    t = act(s, Draw()).state
    assert t.stock == [C("6d")] and t.discard == [] and t.reshuffles == 1
    assert E.view(t, None)["stock_size"] == 1 and E.view(t, None)["discard_size"] == 0
    u = act(t, Place(C("2c"))).state
    v = act(u, Draw()).state
    assert v.drawn == C("6d") and v.reshuffles == 1


# =========================================================================== end of game
def test_game_ends_when_the_last_card_is_a_jack():
    """Seed 8: "The game ends when a player has played his last card" - a jack as the last
    card clears the row and ends the game (no forced draw follows)."""
    s = deal(["Js", "3c"], row="7d", stock="9h", points=["", "2h"])
    t = act(s, Jack()).state
    assert t.phase == OVER and E.to_act(t) == frozenset()
    assert E.outcome(t).scores == {0: 0.0, 1: -1.0} and E.outcome(t).winners == {0}


def test_game_ends_when_a_card_is_placed_as_the_last_one():
    """Ruling "End": "as soon as a player's hand is empty" - also by placing (a skipped draw)."""
    s = deal(["Qs", "3c"], row="7d", stock="", discard="", points=["5h", ""])
    t = act(act(s, Draw()).state, Place(C("Qs"))).state
    assert t.phase == OVER and E.outcome(t).scores == {0: 5.0, 1: -3.0}


# =========================================================================== hidden information
def _playouts(n_games: int = 5):
    rng = random.Random(11)
    for g in range(n_games):
        s = E.new_game(2 + g % 5, 100 + g, {"max_turns": 40})
        while s.phase != OVER:
            seat = s.current
            step = E.apply(s, seat, rng.choice(E.legal_actions(s, seat)))
            yield s, step
            s = step.state


def _strings(obj) -> set[str]:
    if isinstance(obj, str):
        return {obj}
    if isinstance(obj, dict):
        return set().union(*(_strings(v) for v in obj.values())) if obj else set()
    if isinstance(obj, list | tuple | set | frozenset):
        return set().union(*(_strings(v) for v in obj)) if obj else set()
    return set()


def test_no_event_or_view_reveals_another_seats_hidden_cards():
    """DESIGN §2/§6: events visible to a seat and its view never name a card hidden from it
    (other hands, the stock, another seat's drawn card)."""
    for _before, step in _playouts():
        after = step.state
        for seat in [None, *range(after.n)]:
            secret = E.secret_labels(after, seat)
            codes = {Card.parse(lab).code if lab != "🃏Joker" else "joker" for lab in secret}
            for e in step.events:
                if not e.visible(seat):
                    continue
                assert not any(lab in e.text for lab in secret), (seat, e)
                assert not codes & _strings(dict(e.data)), (seat, e)
            blob = json.dumps(E.view(after, seat), ensure_ascii=False)
            assert not any(lab in blob for lab in secret)


def test_view_shows_only_sizes_of_hidden_zones():
    """Seed 2: the stock "is facing down"; hands are private - other seats see sizes only, the
    drawn card only its drawer."""
    s = deal(["7s 2c", "3c Kd", "4h"], row="5d", stock="9h 8h")
    t = act(s, Draw()).state
    for seat in (1, 2, None):
        v = E.view(t, seat)
        assert v["hand_sizes"] == [3, 2, 1] and v["stock_size"] == 1 and "drawn" not in v
        assert "stock" not in v and "hands" not in v and "final_hands" not in v
        blob = json.dumps(v, ensure_ascii=False)
        assert "8♥" not in blob and "9♥" not in blob and "7♠" not in blob
    assert E.view(t, 0)["drawn"] == "8♥"


def test_determinize_resamples_every_hidden_card():
    """DESIGN §2: determinize = "all hidden information that seat does not know is resampled":
    other hands, the stock order and another seat's drawn card; the seat's own knowledge
    (hand, row, discard, points piles, sizes) is kept."""
    s = deal(["7s 2c", "3c Kd 5h", "4h 6s"], row="5d 9c", stock="9h 8h 10s Qc Ac",
             discard="2d", points=["", "3d", ""])
    t = act(s, Draw(), seat=0).state
    t = act(t, Place(C("2c"))).state  # seat 1 to move
    t = act(t, Draw()).state  # seat 1 holds a drawn card (USE)
    assert t.current == 1 and t.phase == USE
    hidden = sorted(t.stock + t.hands[1] + t.hands[2])
    seen_hands, seen_stock, seen_drawn = set(), set(), set()
    for k in range(40):
        d = E.determinize(t, 0, random.Random(k))
        assert E.view(d, 0) == E.view(t, 0)
        assert d.hands[0] == t.hands[0] and d.row == t.row and d.discard == t.discard
        assert d.points == t.points and (d.current, d.phase) == (t.current, t.phase)
        assert [len(h) for h in d.hands] == [len(h) for h in t.hands]
        assert sorted(d.stock + d.hands[1] + d.hands[2]) == hidden
        assert d.drawn in d.hands[1]
        seen_hands.add(tuple(d.hands[1]))
        seen_stock.add(tuple(d.stock))
        seen_drawn.add(d.drawn)
    assert len(seen_hands) > 10 and len(seen_stock) > 10 and len(seen_drawn) > 3
    # the drawer keeps its own drawn card and hand
    d = E.determinize(t, 1, random.Random(1))
    assert d.drawn == t.drawn and d.hands[1] == t.hands[1]
    assert E.legal_actions(d, 1) == E.legal_actions(t, 1)


def test_determinize_after_the_game_keeps_the_shown_hands():
    """DESIGN §2: at the end every hand is shown, so only the stock order is resampled."""
    s = deal(["7s", "3c Kd", "4h"], row="7d", stock="9h 8h 10s")
    t = act(s, cap("7s", True)).state
    assert t.phase == OVER
    d = E.determinize(t, 0, random.Random(3))
    assert d.hands == t.hands and sorted(d.stock) == sorted(t.stock)


def test_legal_actions_follow_a_state_edited_in_place():
    """DESIGN §2: `legal_actions` lists every legal action of the state as it is - a scripted
    state edited after a first call must not get a stale list."""
    s = deal(["7s 2c", "3c"], row="8d", stock="9h")
    assert captures(s) == []
    s.row = cards("7d")
    assert captures(s) == [cap("7s", True)]
    s.hands[0].append(C("Js"))
    assert Jack() in legal(s)
    t = act(s, cap("7s", True)).state
    assert sorted(t.points[0]) == sorted(cards("7s 7d"))


# =========================================================================== capture list
_BY_VALUE = {0: "Jh", 1: "Ah", 2: "2h", 3: "3h", 4: "4h", 5: "5h", 6: "6h", 7: "7h", 8: "8h",
             9: "9h", 10: "10h", 11: "Qh", 12: "Kh"}
_SUITS = "hdcs"


def _brute_force(row_values: list[int], v: int) -> set[tuple[bool, tuple[int, ...]]]:
    """Every take allowed by the ruling, by trying every subset of the row: at most one card
    of value v, plus a group (empty, or two or more cards adding up to v), not both empty."""
    out = set()
    n = len(row_values)
    for mask in range(1, 1 << n):
        taken = [i for i in range(n) if mask >> i & 1]
        for single in [None, *taken]:
            if single is not None and row_values[single] != v:
                continue
            group = [row_values[i] for i in taken if i != single]
            if group and (len(group) < 2 or sum(group) != v):
                continue
            out.add((single is not None, tuple(sorted(group, reverse=True))))
    return out


def test_capture_list_is_exactly_every_legal_take():
    """Ruling "Capture": "take at most one face-up card of value v and/or one group of two or
    more face-up cards summing to v (at least one of the two)" - the listed captures equal a
    brute force over every subset of the row, and each one takes exactly those values."""
    rng = random.Random(5)
    for _ in range(250):
        row_values = [rng.choice([0] + list(range(1, 13)) * 3) for _ in range(rng.randint(1, 7))]
        row = [C(_BY_VALUE[x][:-1] + _SUITS[i % 4]) for i, x in enumerate(row_values)]
        v = rng.randint(1, 12)
        card = C(_BY_VALUE[v][:-1] + "s")
        s = deal(["2c", "3c"], stock="5s")
        s.hands[0] = sorted([card, C("Jc")])  # a second card: the game goes on
        s.row = row
        s.phase = TURN
        got = {(a.single, a.group) for a in captures(s) if a.card == card}
        assert got == _brute_force(row_values, v), (row_values, v)
        for single, group in sorted(got)[:3]:
            t = act(s, Capture(card, single, group)).state
            left = Counter(row_values)
            left.subtract(Counter(([v] if single else []) + list(group)))
            assert Counter(E.view(t, None)["row"][i]["value"] for i in range(len(t.row))) == +left
            assert (t.points[0] != []) == (t.row == [])
