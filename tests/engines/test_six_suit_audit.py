"""Six Suit rules audit: one scripted scenario per rule sentence of the seed and the rulings
that tests/engines/test_six_suit.py does not already pin down, with exact expected figures.

Each test's docstring quotes (briefly) the seed ("Seed 4B: ...") or the ruling ("Ruling: ...")
it checks. Card shorthand as in test_six_suit.py: number (1-4 or ?), colour (r y g b k=black),
shape (c h t s b=blob), e.g. "3rt" = 3 red triangle, "?kb" = question-mark black blob.
"""

from __future__ import annotations

import json
import random

import pytest

from engines.six_suit.cards import COL, DECK_SIZE, NUM, SHP, is_six_suit
from engines.six_suit.rules import ENGINE as E
from engines.six_suit.rules import Consent, Discard, Play, Predict, SixSuitState, Veto
from tests.engines.test_six_suit import C, act, build, cards, kinds, miss_prediction, turn


def declare(code: str) -> Predict:
    """The prediction naming exactly this card's three attributes."""
    c = C(code)
    return Predict(NUM[c], COL[c], SHP[c])


def blank_turn(s: SixSuitState) -> tuple[SixSuitState, list]:
    """The current player draws with a prediction that cannot succeed and discards the card."""
    seat = s.current
    s, ev1 = act(s, seat, miss_prediction_for_next(s))
    s, ev2 = act(s, seat, Discard(s.drawn[0]))
    return s, ev1 + ev2


def miss_prediction_for_next(s: SixSuitState) -> Predict:
    top = s.draw[-1]
    return Predict((NUM[top] + 1) % 5, (COL[top] + 1) % 5, (SHP[top] + 1) % 5)


def _next_code(s: SixSuitState) -> str:
    """The shorthand of the card on top of the draw pile (for `turn`)."""
    c = s.draw[-1]
    return "1234?"[NUM[c]] + "rygbk"[COL[c]] + "chtsb"[SHP[c]]


def all_cards(s: SixSuitState) -> list[int]:
    return ([c for c in s.tops if c >= 0] + [c for u in s.under for c in u]
            + [c for h in s.hands for c in h] + s.draw + s.discard
            + ([s.offer[0]] if s.offer else []))


def kill(s: SixSuitState, seat: int) -> None:
    """Test set-up: `seat` is already a ghost (its six piles gone)."""
    alive = s.alive[:]
    alive[seat] = False
    s.alive = alive
    s.tops[seat * 6:seat * 6 + 6] = [-1] * 6


# =========================================================================== options
def test_option_defaults_follow_the_rulings():
    """Ruling: free time is "the first two full rounds", the final phase "2 more full rounds",
    "Option `max_rounds` (default 60)"; solo by default ("2 to 12 players, solo or equal
    teams"); "Where a ruling offers an option, the default is the first value named"."""
    o = E.Options()
    assert (o.teams, o.free_time_rounds, o.final_rounds, o.max_rounds) == (0, 2, 2, 60)
    assert (E.min_players, E.max_players) == (2, 12)
    s = E.new_game(12, 1, {"teams": 6})
    assert [s.faction(i) for i in range(12)] == [i % 6 for i in range(12)]


# =========================================================================== prediction (3A-3B)
@pytest.mark.parametrize("declared", ["2yc", "2rh", "3yh"])
def test_any_two_right_of_three_shows_the_card_and_draws_one_more(declared):
    """Seed 3B: "If 2 or more of the declared variables are correct ... show it ... then put it
    and another face down card in your hidden hand" — number+colour, number+shape or
    colour+shape alike (drawn card 2 yellow heart)."""
    s = build(3, hands={0: "1rc"}, draw="2yh 4gt")
    s, ev = act(s, 0, declare(declared))
    assert s.hands[0] == sorted(cards("1rc 2yh 4gt"))
    assert s.shown == C("2yh") and E.view(s, 2)["revealed"] == "2🟨♥"
    pred = next(e for e in ev if e.kind == "predict")
    assert pred.visible_to is None and pred.data["right"] == 2 and pred.data["count"] == 2
    assert E.view(s, 2)["seats"][0]["known_hand"] == ["2🟨♥"]       # 4gt stays hidden
    assert E.view(s, 2)["seats"][0]["hand_count"] == 3


@pytest.mark.parametrize(("declared", "drawn", "right"), [
    ("1rc", "?rh", 1),   # a ? drawn is not a 1
    ("?rc", "1rh", 1),   # a declared ? is not a 1
    ("?yc", "?rc", 2),   # ? matches ? naturally
    ("1rc", "1kh", 1),   # "A Black drawn doesn't match any color declaration"
    ("1kc", "2rc", 1),   # a declared black is not red
    ("4kc", "3kb", 1),   # "a black circle 4 declaration must be matched with a natural black
    ("4kc", "3kc", 2),   #  circle 'some other number', not a black blob"
    ("3rc", "3yb", 1),   # a blob drawn is not a circle
    ("3rb", "4yc", 0),   # a declared blob is not a circle
    ("3rb", "3yb", 2),   # blob matches blob
    ("?kb", "?kb", 3),   # "... or a black blob question mark": all three wilds declared
])
def test_each_wild_must_be_matched_naturally_in_predictions(declared, drawn, right):
    """Seed 3B: "the wild variables are separate possibilities and must be matched naturally,
    both in declaration and in drawing"; ruling: "natural equality: declaring 'black' is right
    only for a black card". 0-1 right: 1 hidden card; 2: shown + 1 more; 3: 2 more."""
    s = build(3, hands={0: "1gt"}, draw=f"{drawn} 2gs 3gs")
    s, ev = act(s, 0, declare(declared))
    assert next(e for e in ev if e.kind == "predict").data["right"] == right
    assert len(s.hands[0]) == 1 + (right if right >= 2 else 1)
    assert s.shown == (C(drawn) if right >= 2 else -1)


def test_an_extra_turn_predicts_again_even_after_a_correct_prediction():
    """Seed 4D: "this extra turn lets you predict another card to earn an extra card, even if
    you correctly predicted the previous turn"; ruling: "earns one more turn (with
    prediction)"."""
    s = build(3, tops={1: "4bb 1rc 2ks 3gt 1gs 2bc"}, hands={0: "4rb"},
              draw="2yh 4gt 3ys 1gc")
    s, _ = act(s, 0, declare("2yc"))                 # 2 right: 2yh shown, 4gt hidden
    assert len(s.hands[0]) == 3
    s, _ = act(s, 0, Play(C("4rb"), 1, 0))           # double match on 4 blue blob
    assert s.phase == "predict" and s.chain == 1 and s.current == 0
    s, ev = act(s, 0, declare("3yc"))                # 2 right again: 3ys shown, 1gc hidden
    assert next(e for e in ev if e.kind == "predict").data["right"] == 2
    assert s.hands[0] == sorted(cards("2yh 4gt 3ys 1gc"))


# =========================================================================== changing cards (2)
@pytest.mark.parametrize(("card", "top", "legal"), [
    ("?rc", "1yh", False),   # a ? is not the 1 ...
    ("1rc", "?yh", False),   # ... nor is a 1 the ? it might stand for
    ("?rc", "?yh", True),
    ("3kc", "2rh", False),   # black is no colour but black
    ("3rc", "2kh", False),
    ("3kc", "2kh", True),
    ("3rb", "2yh", False),   # blob is no shape but blob
    ("3rh", "2yb", False),
    ("3rb", "2yb", True),
])
def test_each_wild_must_be_matched_naturally_when_changing_cards(card, top, legal):
    """Seed 2: "Wilds must be matched naturally ... It works both ways. Natural cards must be
    matched with a natural, not on a wild that currently represents the card you're playing";
    ruling: "? matches only ?, black only black, blob only blob"."""
    s = build(3, tops={1: f"{top} 4gt 1gs 2bs 4bc 1bt"}, hands={0: card}, draw="4ys")
    s, _ = act(s, 0, miss_prediction("4ys"))
    action = Play(C(card), 1, 0)
    assert (action in E.legal_actions(s, 0)) is legal
    if legal:
        s, _ = act(s, 0, action)
        assert s.tops[6] == C(card) and s.under[1] == [C(top)]
    else:
        with pytest.raises(ValueError):
            E.apply(s, 0, action)


def test_one_card_per_turn_then_the_next_player():
    """Seed 3C/3D: after drawing, "play one of your ... down cards ... on someone's up card"
    (one card, "Limit one extra card per play"); a single match ends the turn; the hand keeps
    the unplayed cards ("including any previously saved cards")."""
    s = build(3, tops={1: "4bb 1rc 2yh 3gt 1gs 2bc"}, hands={0: "4rc 3ks"}, draw="1ys")
    s, _ = turn(s, 0, "1ys", Play(C("4rc"), 1, 0))
    assert s.current == 1 and s.phase == "predict"
    assert s.hands[0] == sorted(cards("3ks 1ys"))


# =========================================================================== extra turns (4)
@pytest.mark.parametrize(("card", "top"), [
    ("4rb", "4bb"),   # number + shape (seed: "a red blob 4 on a blue blob 4")
    ("4rc", "4rh"),   # number + colour
    ("1rb", "3rb"),   # colour + shape
    ("?kc", "?kh"),   # ? and black matched naturally
    ("1kb", "3kb"),   # black and blob matched naturally
])
def test_double_match_on_any_two_attributes_earns_an_extra_turn(card, top):
    """Seed 4A: "If you match any card with 2 out of the 3 variables ... you get another turn
    afterwards, where you draw a card and play again"."""
    s = build(3, tops={1: f"{top} 1gs 2bt 3gc 4yt 2gh"}, hands={0: card}, draw="1ys")
    s, ev = turn(s, 0, "1ys", Play(C(card), 1, 0))
    play_ev = next(e for e in ev if e.kind == "play")
    assert play_ev.data["double"] is True
    assert "extra_turn" in kinds(ev)
    assert s.current == 0 and s.phase == "predict" and s.chain == 1 and s.chain_target == 1


def test_double_match_on_ones_own_pile_earns_an_extra_turn():
    """Seed 4A: a double match "from the same person, whether self, teammate, temporary ally,
    or opponent" — the player's own pile counts."""
    s = build(3, tops={0: "4bb 1gs 2bt 3gc 4yt 2gh"}, hands={0: "4rb"}, draw="1ys")
    s, ev = turn(s, 0, "1ys", Play(C("4rb"), 0, 0))
    assert s.current == 0 and s.chain == 1 and "extra_turn" in kinds(ev)


def _team_chain_state() -> SixSuitState:
    tops = {1: "4bb 1rc 2yh 3gt 1gs 2bc", 3: "4yb 3rh 4yc 1ks 2bt 3bc"}
    s = build(4, tops=tops, hands={0: "4rb 4gb"}, draw="1ys 2gc", teams=2)
    s, _ = turn(s, 0, "1ys", Play(C("4rb"), 1, 0))   # double match on seat 1
    assert s.chain == 1 and s.chain_target == 1
    return s


def test_extra_turn_chain_continues_with_a_double_match_on_the_same_player():
    """Seed 4A: "If this is already an extra turn on the same orbit, you must double match
    from the same person ... to earn another consecutive turn"."""
    s = _team_chain_state()
    s, ev = turn(s, 0, "2gc", Play(C("4gb"), 1, 0))     # 4gb on 4rb: same player, double
    assert s.chain == 2 and s.current == 0 and "extra_turn" in kinds(ev)


def test_extra_turn_chain_ends_on_a_double_match_on_the_previous_targets_teammate():
    """Seed 4A: "If you play a double match on someone else, even if it's the same team, you
    don't get another turn" (seat 3 is seat 1's teammate)."""
    s = _team_chain_state()
    s, ev = turn(s, 0, "2gc", Play(C("4gb"), 3, 0))     # 4gb on 4yb: double, other player
    assert next(e for e in ev if e.kind == "play").data["double"] is True
    assert s.chain == 0 and s.current == 1 and "extra_turn" not in kinds(ev)


def test_extra_turn_chain_ends_on_a_discard_or_a_single_match():
    """Seed 4C: "the discard pile cannot be double matched and cannot give you another turn";
    a single match earns nothing either."""
    s = _team_chain_state()
    d, _ = turn(s, 0, "2gc", Discard(C("4gb")))
    assert d.chain == 0 and d.current == 1 and d.discard == [C("4gb")]
    one, _ = turn(s, 0, "2gc", Play(C("2gc"), 1, 2))      # 2gc on 2yh: the number only
    assert one.chain == 0 and one.current == 1


def test_elimination_by_a_single_match_gives_no_extra_turn():
    """Seed 4B: the extra turn after an elimination comes from "such a play" (a double match);
    an elimination by a single match ends the turn."""
    s = build(3, tops={1: "1rh 2yh 3gh 1bh 2kh 4bc"}, hands={0: "4rh"}, draw="1ys")
    s, ev = turn(s, 0, "1ys", Play(C("4rh"), 1, 5))
    assert "eliminate" in kinds(ev) and "extra_turn" not in kinds(ev)
    assert s.current == 1 and s.chain == 0


def test_elimination_inside_a_chain_then_a_double_match_on_anyone_else_continues():
    """Seed 4B: "If you eliminate someone with such a play, you can get yet another extra turn
    by playing a double match on anyone else, from any team"; ruling: "after an elimination
    made by a play, a double match on any other player also earns one"."""
    tops = {1: "1rh 2yh 3gh 1bh 2kh 4bc", 2: "3rc 4yc 1gs 2bt 3bs 4gt"}
    s = build(3, tops=tops, hands={0: "1yh 4bh 2gs"}, draw="1ys 2yc 3bh")
    s, _ = turn(s, 0, "1ys", Play(C("1yh"), 1, 0))       # double on seat 1, five hearts still
    assert s.chain == 1 and s.alive[1]
    s, ev = turn(s, 0, "2yc", Play(C("4bh"), 1, 5))      # same player, double, six hearts
    assert "eliminate" in kinds(ev) and s.chain == 2 and s.chain_elim
    assert s.scores == [3 + 1, 0, 1]
    s, ev = turn(s, 0, "3bh", Play(C("2gs"), 2, 2))      # 2gs on 1gs: double on seat 2
    assert s.chain == 3 and s.current == 0 and "extra_turn" in kinds(ev)


def test_an_eliminating_double_match_on_another_player_mid_chain_ends_the_chain():
    """Ruling (interpretation): "On an extra turn, another extra turn needs a double match on
    the same player as the previous double match; AFTER an elimination made by a play, a double
    match on any other player also earns one" — the eliminating play itself must follow the
    chain rule; it frees only the double match that follows it."""
    tops = {1: "1rh 2yh 3gh 1bh 2kh 4bc", 2: "3rc 4yc 1gs 2bt 3bs 4gt"}
    s = build(3, tops=tops, hands={0: "2gs 4bh"}, draw="1ys 2yc")
    s, _ = turn(s, 0, "1ys", Play(C("2gs"), 2, 2))       # double on seat 2
    s, ev = turn(s, 0, "2yc", Play(C("4bh"), 1, 5))      # double on seat 1: eliminates
    assert "eliminate" in kinds(ev) and not s.alive[1]
    assert s.chain == 0 and s.current == 1               # the ghost's turn


def test_extra_turn_does_not_count_as_a_turn_of_the_round():
    """Ruling: free time is "the first two full rounds of turns" — an extra turn is part of
    the same turn ("another turn afterwards"), so the round does not advance."""
    s = build(3, tops={0: "4bb 1gs 2bt 3gc 4yt 2gh"}, hands={0: "4rb"}, draw="1ys 2ys",
              round_=1)
    s, _ = turn(s, 0, "1ys", Play(C("4rb"), 0, 0))
    assert s.round == 1 and s.turn_no == 1 and s.current == 0
    s, _ = turn(s, 0, "2ys", Discard(C("2ys")))
    assert s.current == 1 and s.turn_no == 2


# =========================================================================== six suits (1, 6A)
@pytest.mark.parametrize(("tops", "attribute"), [
    ("?rc ?yh 2gt 2bs 2yc 2gh", "number"),    # 2 ?'s + four 2s (seed 1: "2 ?'s and 4 1's")
    ("1kh 2kt 3kc 4ks 2rc 1rt", "colour"),    # 4 blacks + 2 reds (seed 1)
    ("1rb 2yb 3gh 4bh 2kh ?rh", "shape"),     # 2 blobs + 4 hearts
    ("?rc ?yh ?gt ?bs ?kc 3rh", "number"),    # seed 1: "5 wilds"
    ("1kc 2kh 3kt 4ks ?kb 1yc", "colour"),
    ("1rb 2yb 3gb 4bb ?kb 1yt", "shape"),
    ("?rc ?yh ?gt ?bs ?yc ?gh", "number"),    # ruling: "six wilds count"
])
def test_each_wild_counts_towards_a_six_suit(tops, attribute):
    """Seed 1: wilds "always bring the person who holds it closer to elimination. 5 wilds, or
    less wilds and a match of the same type of variable ... will eliminate that person"."""
    s = build(3, tops={0: tops})
    v = E.view(s, None)["seats"][0]
    assert v["six_suit"] is True
    assert v["reach"][("number", "colour", "shape").index(attribute)] == 6
    assert E.view(s, None)["pending_six_suits"] == [0]


def test_wilds_count_for_whatever_the_tops_show_now():
    """Seed 6A: wilds count "as whatever brings them closer to elimination, and can change as
    the situation changes and count as long as they're exposed as the top card"."""
    assert is_six_suit(cards("?rc ?yh 2gt 2bs 2yc 2gh"))      # the ?s are 2s
    assert is_six_suit(cards("?rc ?yh 3gt 3bs 3yc 3gh"))      # the same ?s are 3s
    assert not is_six_suit(cards("?rc ?yh 2gt 2bs 3yc 2gh"))  # 2s and a 3: no six suit
    assert not is_six_suit(cards("?rc ?yh 2gt 2bs 2yc 2gh")[:5])


def test_opponent_elimination_exact_scores_and_all_cards_to_the_discard():
    """Seed 6A: "When a person is eliminated, he/she puts all their cards in the center
    garbage pile" (ruling: "piles and hand go to the discard pile"); 6C: "in a 4 player game,
    the first eliminator gets 4 points"; 6D: every player with face-up cards gets 1."""
    s = build(4, tops={2: "1rh 2yh 3gh 1bh 2kh 4bc"}, hands={0: "4rh", 2: "3ys ?kb"},
              draw="1ys 4gc 4gh")
    s.draw = [c for c in s.draw if c not in cards("4gc 4gh")]
    s.under[2] = cards("4gc 4gh")                            # cards beneath seat 2's piles
    s, ev = turn(s, 0, "1ys", Play(C("4rh"), 2, 5))
    assert not s.alive[2] and s.elims == [[2, 0, 4, 1]]
    assert s.scores == [4 + 1, 1, 0, 1]
    assert sorted(s.discard) == sorted(cards("4gc 4gh 4bc 1rh 2yh 3gh 1bh 2kh 4rh 3ys ?kb"))
    assert s.under[2] == [] and s.hands[2] == [] and s.tops[12:18] == [-1] * 6
    elim = next(e for e in ev if e.kind == "eliminate")
    assert elim.visible_to is None and elim.data["points"] == 4
    assert elim.data["survivors"] == [0, 1, 3]
    assert sorted(all_cards(s)) == list(range(DECK_SIZE))


def test_no_bonus_for_a_six_suit_on_two_attributes_at_once():
    """Seed 6B: "There is no bonus for eliminating a person 2 or 3 ways"."""
    s = build(3, tops={1: "2kh 2kt ?kc 2ks 2kb 3rc"}, hands={0: "2kc"}, draw="1ys")
    s, ev = turn(s, 0, "1ys", Play(C("2kc"), 1, 5))         # six 2s and six blacks
    elim = next(e for e in ev if e.kind == "eliminate")
    assert elim.data["attributes"] == "number and colour"
    assert s.scores == [3 + 1, 0, 1]


def test_elimination_points_count_players_at_the_start_and_drop_by_one():
    """Seed 6C: "The first elimination is worth as many points as there are players ... each
    elimination after that is reduced by one point"; 6D: "the number of survivors decrease by
    one after each elimination" (5 players: 5 then 4 then 3)."""
    tops = {0: "3yt 4gs 3bc 4rt 3gt 4bh", 1: "1rh 2yh 3gh 1bh 2kh 4bc",
            2: "1rc 2yc 3gc 1bc 2kc 4bt", 3: "1rs 2ys 3gs 1bs 2ks 4yt",
            4: "2rt 3rs 4gc 1gt 2bs 3yh"}
    s = build(5, tops=tops, hands={0: "4rh 4yc 4ys"}, draw="1yt 2gt 3bt")
    s, _ = turn(s, 0, "1yt", Play(C("4rh"), 1, 5))   # single: #1 pays 5, 4 survivors
    assert s.scores == [6, 0, 1, 1, 1]
    s.current = 0                                     # (let seat 0 go again for brevity)
    s, _ = turn(s, 0, "2gt", Play(C("4yc"), 2, 5))   # #2 pays 4, 3 survivors
    assert s.scores == [11, 0, 1, 2, 2]
    s.current = 0
    s, _ = turn(s, 0, "3bt", Play(C("4ys"), 3, 5))   # double (4, y): #3 pays 3, 2 survivors
    assert s.scores == [15, 0, 1, 2, 3]
    assert [e[2] for e in s.elims] == [5, 4, 3]
    assert E.view(s, None)["eliminations"][2] == {"victim": 3, "by": 0, "points": 3,
                                                  "number": 3}


# ================================================================ self-made six suits (6B, 11)
def _own_six_suit_3p():
    s = build(3, tops={0: "1rh 2yh 3gh 1bh 2kh 4bc"}, hands={0: "4rh 4gc", 1: "2bh 3rs"},
              draw="1ys 3ys 4ys 2ys")
    s, ev = turn(s, 0, "1ys", Play(C("4rh"), 0, 5))     # seat 0 makes six hearts on itself
    assert s.alive[0] and "six_suit" in kinds(ev) and "eliminate" not in kinds(ev)
    assert s.pending() == [0] and E.view(s, 1)["pending_six_suits"] == [0]
    return s


def test_self_made_six_suit_then_an_opponent_completes_it():
    """Seed 6B: "If a person accidentally eliminates him/herself ... then the next player not
    on that person's team who plays a card and maintains the six suit gets the points";
    ruling: "the next opponent who plays any card on that player while the six suit still
    holds eliminates them". 3 players: the finisher scores 3 + 1, the other survivor 1."""
    s = _own_six_suit_3p()
    s, ev = turn(s, 1, "3ys", Play(C("2bh"), 0, 1))     # 2bh on 2yh keeps six hearts
    assert "eliminate" in kinds(ev) and not s.alive[0] and s.elims == [[0, 1, 3, 1]]
    assert s.scores == [0, 3 + 1, 1]
    assert s.chain == 1 and s.current == 1               # 2bh on 2yh was a double match too


def test_self_made_six_suit_broken_by_the_player_on_their_next_turn():
    """Seed 11B/11D: "it is possible to survive if you correct it on your turn before they
    notice it"; "if the team in danger ruins the six suit before an opponent can play a card
    to keep it, they are still in the game and doesn't count as an elimination"."""
    s = _own_six_suit_3p()
    s, _ = turn(s, 1, "3ys", Discard(C("3ys")))          # the opponents let it stand
    s, _ = turn(s, 2, "4ys", Discard(C("4ys")))
    s, ev = turn(s, 0, "2ys", Play(C("4gc"), 0, 5))      # 4gc covers 4rh: hearts broken
    assert s.pending() == [] and "eliminate" not in kinds(ev)
    s, ev = turn(s, 1, _next_code(s), Play(C("2bh"), 0, 1))   # an opponent's card on seat 0
    assert s.alive[0] and s.elims == [] and s.scores == [0, 0, 0]


def test_self_made_six_suit_the_team_breaks_first():
    """Seed 11D: "if the team in danger ruins the six suit before an opponent can play a card
    to keep it, they are still in the game"; ruling: "the player's team may break it first".
    4 players, 2 teams (0+2 vs 1+3): seat 0 makes it, seat 2 breaks it, seat 3's card on seat 0
    then eliminates nobody."""
    s = build(4, tops={0: "1rh 2yh 3gh 1bh 2kh 4bc"}, hands={0: "4rh", 2: "4gc", 3: "1kh"},
              draw="1ys 2ys 3ys 4ys", teams=2)
    s, _ = turn(s, 0, "1ys", Play(C("4rh"), 0, 5))
    assert s.pending() == [0]
    s, _ = turn(s, 1, "2ys", Discard(C("2ys")))          # the opponent plays elsewhere
    s, ev = turn(s, 2, "3ys", Play(C("4gc"), 0, 5))      # teammate covers 4rh with 4gc
    assert s.pending() == [] and "eliminate" not in kinds(ev)
    s, ev = turn(s, 3, "4ys", Play(C("1kh"), 0, 0))      # 1kh on 1rh: 5 hearts + 4gc only
    assert s.alive == [True] * 4 and s.elims == [] and s.scores == [0, 0, 0, 0]


def test_teammate_keeping_a_pending_six_suit_does_not_eliminate():
    """Seed 6A: "as long as they are on different teams, that person is eliminated"; ruling:
    only "the next opponent" finishes a pending six suit."""
    s = build(4, tops={0: "1rh 2yh 3gh 1bh 2kh 4rh"}, hands={2: "4yh"}, draw="1ys",
              teams=2, current=2)
    s, ev = turn(s, 2, "1ys", Play(C("4yh"), 0, 5))      # still six hearts
    assert s.alive[0] and s.pending() == [0] and "eliminate" not in kinds(ev)


def test_opponent_card_making_a_different_six_suit_on_a_pending_player_eliminates():
    """Seed 6B: "It does NOT count as a elimination until an opponent places a card on them
    that either keeps the same nature, or has a different six of a kind, or both"."""
    s = build(3, tops={0: "1rh 1yh 1gh 1bh 1kh 4rh"}, hands={1: "1rc"}, draw="1ys",
              current=1)
    assert s.pending() == [0]                            # six hearts
    s, ev = turn(s, 1, "1ys", Play(C("1rc"), 0, 5))      # hearts broken, six 1s made
    elim = next(e for e in ev if e.kind == "eliminate")
    assert elim.data["attributes"] == "number" and s.scores == [0, 3 + 1, 1]


def test_a_ghost_cannot_finish_a_teammate_but_can_finish_an_opponent():
    """Seed 7C: a ghost may help "your non-ghost teammate defend"; seed 7B: a ghost may keep
    "eliminating opponents in order to add to your player/team point total"."""
    s = build(4, tops={0: "1rh 2yh 3gh 1bh 2kh 4rh"}, hands={2: "4yh"}, draw="1ys",
              teams=2, current=2)
    kill(s, 2)                                           # seat 2 (team 0) is a ghost
    s2, ev = turn(s, 2, "1ys", Play(C("4yh"), 0, 5))
    assert s2.alive[0] and "eliminate" not in kinds(ev)
    s = build(4, tops={0: "1rh 2yh 3gh 1bh 2kh 4rh"}, hands={1: "4yh"}, draw="1ys",
              teams=2, current=1)
    kill(s, 1)                                           # seat 1 (team 1) is a ghost
    s.elims = [[1, 0, 4, 1]]
    s1, ev = turn(s, 1, "1ys", Play(C("4yh"), 0, 5))
    assert not s1.alive[0] and s1.elims[-1] == [0, 1, 3, 2]
    assert s1.scores == [0, 3, 1, 1]                     # the ghost: 3, no survival point


# =========================================================================== ghosts (7)
def test_ghost_scores_elimination_points_but_never_survival_points():
    """Seed 7A: "If you are eliminated, you can still play your normal turn"; 7D: "you can no
    longer get points for yourself for surviving". 4 solo players: seat 0 eliminates seat 1
    (4 + 1), ghost seat 1 eliminates seat 2 (3, no survival point), seat 3 survives both."""
    tops = {1: "1rh 2yh 3gh 1bh 2kh 4bc", 2: "1rc 2yc 3gc 1bc 2kc 4bt"}
    s = build(4, tops=tops, hands={0: "4rh"}, draw="1ys 4yc")
    s, _ = turn(s, 0, "1ys", Play(C("4rh"), 1, 5))
    assert s.scores == [5, 0, 1, 1] and s.current == 1
    assert E.view(s, None)["seats"][1]["piles"] == [] and s.hands[1] == []
    s, ev = turn(s, 1, "4yc", Play(C("4yc"), 2, 5))      # the ghost draws and plays
    assert s.elims[-1] == [2, 1, 3, 2]
    assert s.scores == [6, 3, 1, 2]
    assert next(e for e in ev if e.kind == "eliminate").data["survivors"] == [0, 3]


# =========================================================================== a team game
def test_team_game_scores_sum_per_team_through_the_final_payout():
    """A whole 4-player, 2-team deal (seats 0+2 vs 1+3). Ruling: "Team score = sum"; seed 6B:
    "If the person who eliminated that person is not the self or a teammate ... receives
    positive points"; 7B ghosts eliminate "to add to your player/team point total"; 8A: the
    final 2 rounds start after the eliminator's extra turn(s) and the eliminator "would be the
    final one to play at the end"; 8C: the survivor collects #4's point × (2 − 1).
      #1 seat 0 → seat 1: 4 pts, survivors 0 2 3 → [5, 0, 1, 1]
      #2 ghost 1 → seat 2: 3 pts, survivors 0 3   → [6, 3, 1, 2]
      #3 ghost 2 → seat 3: 2 pts, survivor 0      → [7, 3, 3, 2]  (only team 0 is left)
      payout: #4 would pay 1, × 1                  → [8, 3, 3, 2]; teams 11 : 5."""
    tops = {0: "3yt 4gs 3bc 4rt 3gt 4bh", 1: "1rh 2yh 3gh 1bh 2kh 4bc",
            2: "1rc 2yc 3gc 1bc 2kc 4bt", 3: "1rs 2ys 3gs 1bs 2ks 4yt"}
    s = build(4, tops=tops, hands={0: "4rh"}, draw="1yt 4yc 4ys 2gt", teams=2)
    s, _ = turn(s, 0, "1yt", Play(C("4rh"), 1, 5))
    assert s.scores == [5, 0, 1, 1]
    s, _ = turn(s, 1, "4yc", Play(C("4yc"), 2, 5))       # ghost 1 eliminates seat 2
    assert s.scores == [6, 3, 1, 2]
    s, ev = turn(s, 2, "4ys", Play(C("4ys"), 3, 5))      # ghost 2: double match, eliminates 3
    assert s.scores == [7, 3, 3, 2] and "final_phase" in kinds(ev)
    assert s.current == 2 and s.chain == 1               # its extra turn comes first
    s, _ = turn(s, 2, "2gt", Discard(C("2gt")))
    assert s.final_left == 8
    order = []
    while E.outcome(s) is None:
        order.append(s.current)
        s, ev = blank_turn(s)
    assert order == [3, 0, 1, 2, 3, 0, 1, 2]              # the eliminator plays last
    payout = next(e for e in ev if e.kind == "payout")
    assert payout.data["pot"] == 1 and payout.data["survivors"] == [0]
    out = E.outcome(s)
    assert out.scores == {0: 8.0, 1: 3.0, 2: 3.0, 3: 2.0}
    assert out.winners == frozenset({0, 2})
    assert E.view(s, None)["team_scores"] == [{"team": 0, "score": 11},
                                              {"team": 1, "score": 5}]


# =========================================================================== free time (10)
def test_free_time_veto_returns_the_card_which_is_then_played_elsewhere():
    """Seed 10: "the person whose card you change has the right to veto the card and/or
    placement on their side"; ruling: "a vetoed card returns to the hand and the player plays
    again or discards". The veto is public, the pile unchanged, the turn goes on."""
    s = build(3, tops={0: "4gc 1ys 2bt 3gc 4yt 2gh", 1: "4bb 1rc 2yh 3gt 1gs 2bc"},
              hands={0: "4rb"}, draw="2ys", round_=0)
    s, ev = turn(s, 0, "2ys", Play(C("4rb"), 1, 0))
    offer = next(e for e in ev if e.kind == "offer")
    assert offer.visible_to is None and s.phase == "consent" and E.to_act(s) == {1}
    assert C("4rb") not in s.hands[0]
    s, ev = act(s, 1, Veto())
    assert "veto" in kinds(ev) and s.phase == "play" and s.current == 0
    assert s.tops[6] == C("4bb") and s.under[1] == []
    assert C("4rb") in s.hands[0] and E.view(s, 2)["seats"][0]["known_hand"] == ["4🟥☁"]
    assert E.view(s, None)["vetoed"] == [{"card": "4🟥☁", "target": 1, "pile": 0}]
    s, ev = act(s, 0, Play(C("4rb"), 0, 0))              # 4rb on own 4gc: no consent needed
    assert s.tops[0] == C("4rb") and s.current == 1 and s.vetoed == []
    assert E.view(s, 2)["seats"][0]["known_hand"] == []


def test_free_time_play_on_a_teammate_also_needs_consent():
    """Ruling: "with more [than 2 players], a play on another player's pile needs that
    player's consent" — seed 10: "whether it be a partner, temporary ally, or opponent"."""
    s = build(4, tops={2: "4bb 1rc 2yh 3gt 1gs 2bc"}, hands={0: "4rc"}, draw="1ys",
              round_=0, teams=2)
    s, _ = turn(s, 0, "1ys", Play(C("4rc"), 2, 0))
    assert s.phase == "consent" and E.to_act(s) == {2}
    s, ev = act(s, 2, Consent())
    assert s.tops[12] == C("4rc") and s.current == 1 and "consent" in kinds(ev)


def test_free_time_six_suit_from_a_consented_play_waits_for_an_opponent_after_free_time():
    """Ruling: "Free time ... No eliminations"; seed 11A: "If, after the initial 2 complete
    turns, any six suits are exposed, the people are eliminated when one person other than the
    player or a teammate places a card on that person that keeps it a six suit"."""
    s = build(3, tops={1: "1rh 2yh 3gh 1bh 2kh 4bc"}, hands={0: "4rh 2gh"},
              draw="1ys 2ys 3ys 4ys", round_=1)
    s, _ = turn(s, 0, "1ys", Play(C("4rh"), 1, 5))      # offered in free time ...
    s, ev = act(s, 1, Consent())                         # ... and (unwisely) accepted
    assert s.alive[1] and "six_suit" in kinds(ev) and "eliminate" not in kinds(ev)
    s, _ = turn(s, 1, "2ys", Discard(C("2ys")))
    s, ev = turn(s, 2, "3ys", Discard(C("3ys")))         # the second round ends
    over = next(e for e in ev if e.kind == "free_time_over")
    assert over.data["pending"] == [1] and not s.in_free_time()
    s, ev = turn(s, 0, "4ys", Play(C("2gh"), 1, 1))      # 2gh on 2yh keeps six hearts
    assert not s.alive[1] and s.elims == [[1, 0, 3, 1]] and s.scores == [4, 0, 1]


# =========================================================================== recycling (5)
def test_recycling_mid_prediction_uses_every_under_card_and_the_discard_pile():
    """Seed 5: "each player takes all the cards underneath the top card on each up-pile ...
    the dealer takes those piles and every card in the center garbage pile, and shuffle
    them"; top cards stay. Here the last card is drawn, 2 right, and the extra card comes from
    the recycled pile."""
    s = build(3, hands={0: "1rc"}, draw="2yh")
    rest = [c for c in s.draw if c != C("2yh")]
    s.draw = [C("2yh")]
    s.under = [rest[:5], rest[5:8], []]
    s.discard = rest[8:]
    pool = len(rest)
    tops = s.tops[:]
    s, ev = act(s, 0, declare("2yc"))
    rec = next(e for e in ev if e.kind == "recycle")
    assert rec.visible_to is None and rec.data["count"] == pool
    assert s.under == [[], [], []] and s.discard == [] and s.tops == tops
    assert len(s.draw) == pool - 1 and len(s.hands[0]) == 3
    assert sorted(all_cards(s)) == list(range(DECK_SIZE))
    assert E.view(s, 1)["draw_pile"] == pool - 1


def test_cards_are_never_lost_or_duplicated():
    """Seed: "one card for each combination ... totaling 125" — through dealing, plays, offers,
    eliminations, ghost turns and recycling, every card is in exactly one place."""
    rng = random.Random(4)
    s = E.new_game(5, 17, {"free_time_rounds": 1})
    for _ in range(1500):
        seats = E.to_act(s)
        if not seats:
            break
        seat = min(seats)
        s = E.apply(s, seat, rng.choice(E.legal_actions(s, seat))).state
        assert sorted(all_cards(s)) == list(range(DECK_SIZE))


# =========================================================================== final phase (8)
def _final_state(n: int, teams: int, alive: list[int], scores: list[int]) -> SixSuitState:
    """The last turn of the final phase is about to start (seat 0 acts)."""
    s = build(n, hands={0: "1ys"}, draw="2ys", teams=teams)
    for i in range(n):
        if i not in alive:
            kill(s, i)
    dead = [i for i in range(n) if i not in alive]
    s.elims = [[v, alive[0], n - k, k + 1] for k, v in enumerate(dead)]
    s.scores = scores
    s.final_left = 1
    return s


def test_final_payout_single_survivor_of_four_solo_players():
    """Seed 8C: "all the points that would have gone to the eliminators if they were
    eliminated go to the survivors ... multiplied by the number of teams ... minus 1 ... a 4
    team game gets 3:1 payout". 4 solo players, 3 fallen: #4 would pay 1 → 1 × 3 = 3."""
    s = _final_state(4, 0, [0], [12, 0, 1, 2])
    s, ev = blank_turn(s)
    assert next(e for e in ev if e.kind == "payout").data["pot"] == 3
    assert E.outcome(s).scores == {0: 15.0, 1: 0.0, 2: 1.0, 3: 2.0}


def test_final_payout_two_survivors_in_a_three_team_game():
    """Seed 8C: "if multiple people survive, any survival points that would have been awarded
    ... go to the survivors ... a 3 team game gets 2:1 point payout". 6 players, teams of 2,
    team 0 (seats 0 and 3) alive after 4 falls: #5 pays 2 + 1 survivor point, #6 pays 1 →
    4 × 2 = 8, shared 4 + 4."""
    s = _final_state(6, 3, [0, 3], [10, 0, 0, 5, 0, 0])
    s, ev = blank_turn(s)
    payout = next(e for e in ev if e.kind == "payout")
    assert payout.data["pot"] == 8 and payout.data["survivors"] == [0, 3]
    assert E.outcome(s).scores == {0: 14.0, 1: 0.0, 2: 0.0, 3: 9.0, 4: 0.0, 5: 0.0}
    assert E.outcome(s).winners == frozenset({0, 3})


def test_final_phase_elimination_scores_normally_without_multiplier():
    """Seed 8B/8C: "If a player gets eliminated in this time, the player who made the
    elimination gets the points"; "Eliminations within the final 2 turns for each team don't
    get multiplied." 4 players, 2 teams, team 0 (0, 2) left; ghost 1 takes seat 2 as #3:
    2 points (× 1, not multiplied anyway) and seat 0 survives it (+1); at the end seat 0
    collects #4 = 1."""
    s = build(4, tops={2: "1rh 2yh 3gh 1bh 2kh 4bc"}, hands={1: "4rh"},
              draw="1ys", teams=2, current=1)
    kill(s, 1)
    kill(s, 3)
    s.elims = [[1, 0, 4, 1], [3, 2, 3, 2]]
    s.scores = [6, 0, 4, 0]
    s.final_left = 8                                      # the final phase has just begun
    s, ev = turn(s, 1, "1ys", Play(C("4rh"), 2, 5))
    assert s.elims[-1] == [2, 1, 2, 3] and s.scores == [7, 2, 4, 0]
    assert s.final_left == 7 and "final_phase" not in kinds(ev)
    while E.outcome(s) is None:
        s, ev = blank_turn(s)
    assert next(e for e in ev if e.kind == "payout").data["pot"] == 1
    assert E.outcome(s).scores == {0: 8.0, 1: 2.0, 2: 4.0, 3: 0.0}


def test_final_phase_counts_two_full_rounds_with_ghost_turns_and_extra_turns():
    """Ruling: "the game goes on for 2 more full rounds after the turn (with its extra turns)
    that caused it" — ghosts' turns count; extra turns inside the final phase do not."""
    s = build(3, tops={1: "4bb 1rc 2yh 3gt 1gs 2bc"}, hands={2: "4rb"},
              draw="1ys 2ys", current=2)
    kill(s, 0)
    s.elims = [[0, 1, 3, 1]]
    s.final_left = 6                                      # seats 2 0 1 2 0 1 still to play
    s, _ = turn(s, 2, "1ys", Play(C("4rb"), 1, 0))        # a double match: extra turn
    assert s.current == 2 and s.chain == 1 and s.final_left == 6
    s, _ = turn(s, 2, "2ys", Discard(C("2ys")))
    assert s.final_left == 5 and s.current == 0           # the ghost's turn counts
    seats = []
    while E.outcome(s) is None:
        seats.append(s.current)
        s, _ = blank_turn(s)
    assert seats == [0, 1, 2, 0, 1]


def test_view_counts_down_the_final_rounds():
    """Ruling: the final phase lasts "2 more full rounds"; the view says how many are left."""
    s = build(3, hands={0: "1ys"})
    kill(s, 2)
    s.final_left = 6
    v = E.view(s, None)
    assert v["final_phase"] is True and v["final_rounds_left"] == 2
    assert v["final_turns_left"] == 6
    s.final_left = 3
    assert E.view(s, None)["final_rounds_left"] == 1


# =========================================================================== secrecy
def _recycled_hidden_draw() -> SixSuitState:
    """Seat 1 has just drawn, face down, a card that was once face up and got recycled."""
    s = build(3, hands={0: "1rc", 1: "2yh", 2: "3gt"}, current=1)
    rest = s.draw[:]
    s.draw = []
    s.under = [[], [], rest]
    for c in rest:
        s.seen |= 1 << c                                  # they were all face up once
    s, _ = act(s, 1, Predict(0, 0, 0))
    if s.shown >= 0:                                      # (make sure the draw was hidden)
        raise AssertionError("pick a failing prediction")
    return s


def test_determinize_resamples_a_hidden_draw_even_of_a_once_seen_card():
    """Contract: determinize resamples "all hidden information that seat does not know" —
    including which card the current player just drew face down (a recycled card was face up
    once, but its draw was hidden)."""
    s = _recycled_hidden_draw()
    [drawn] = s.drawn
    results = set()
    for k in range(12):
        det = E.determinize(s, 0, random.Random(k))
        assert det.drawn[0] in det.hands[1]
        assert E.view(det, 0) == E.view(s, 0)
        results.add(det.drawn[0])
    assert len(results) > 1                              # not pinned to the real card
    own = E.determinize(s, 1, random.Random(0))
    assert own.drawn == [drawn] and own.hands[1] == s.hands[1]


def test_determinize_keeps_public_facts_and_resamples_everything_hidden():
    """Contract: determinize keeps the seat's own hand, every face-up card, publicly shown hand
    cards and the hand sizes, and resamples other hands' hidden cards and the draw pile."""
    s = build(3, tops={1: "4bb 1rc 2ks 3gt 1gs 2bc"}, hands={0: "3ks", 1: "1kb", 2: "4gs"},
              draw="2yh 4gt", current=2)
    s, _ = act(s, 2, declare("2yc"))                     # 2yh shown, 4gt hidden (seat 2)
    changed_hand = changed_draw = False
    for k in range(10):
        det = E.determinize(s, 0, random.Random(k))
        assert det.hands[0] == s.hands[0] and det.tops == s.tops
        assert C("2yh") in det.hands[2] and len(det.hands[2]) == 3
        assert len(det.hands[1]) == 1 and len(det.draw) == len(s.draw)
        assert sorted(all_cards(det)) == list(range(DECK_SIZE))
        assert E.view(det, 0) == E.view(s, 0)
        assert E.legal_actions(det, 0) == E.legal_actions(s, 0)
        changed_hand |= det.hands[1] != s.hands[1] or det.hands[2] != s.hands[2]
        changed_draw |= det.draw != s.draw
        assert det.seed != s.seed
    assert changed_hand and changed_draw


def test_views_and_events_of_a_turn_never_show_another_seats_hidden_cards():
    """Ruling: "Drawn cards are hidden unless the prediction succeeded"; the hand is secret;
    the shown card, offers, plays, discards and eliminated hands are public."""
    s = build(3, tops={1: "4bb 1rc 2ks 3gt 1gs 2bc"}, hands={0: "3ks", 1: "1kb", 2: "4gs"},
              draw="2yh 4gt", round_=0)
    s, ev = act(s, 0, declare("2yc"))
    secret = "4🟩▲"
    for seat in (1, 2, None):
        blob = json.dumps(E.view(s, seat), ensure_ascii=False)
        assert secret not in blob and "3⬛■" not in blob and "2🟨♥" in blob
        assert all(secret not in e.text for e in ev if e.visible(seat))
    assert secret in json.dumps(E.view(s, 0), ensure_ascii=False)
    assert E.view(s, 1)["hand"] == ["1⬛☁"] and E.view(s, 1)["drawn"] == []
    assert E.view(s, 0)["drawn"] == ["2🟨♥", "4🟩▲"]
