"""Rules audit of Suit Taboo (seeds/suit_taboo.txt + RULINGS.md "Suit Taboo").

An independent reviewer's pass: every rule and ruling sentence has a test here or in
test_suit_taboo.py, and the scenarios the issue lists are scripted deals with exact figures
(names start with `test_scenario_`). Each docstring quotes the rule it checks, briefly.
"""

from __future__ import annotations

import json
import random

import pytest

from engines.core import IllegalActionError, NotYourTurnError
from engines.suit_taboo.rules import (
    ENGINE,
    PLAY_CARDS,
    Accuse,
    Build,
    Cast,
    DropOut,
    Pick,
    penalty,
)

from .test_suit_taboo import C, cs, end_round, kinds, line, play, scripted

E = ENGINE
WIRE = {"wire": True}


def public_texts(events):
    return [e.text for e in events if e.visible_to is None]


# =========================================================================== setup and turns
def test_options_defaults_match_rulings():
    """"Match: first to 2 round wins (option: 3)"; "Taboo on the Wire (option, off by
    default)"; "Option max_reshuffles (default: none)"."""
    opts = E.Options()
    assert (opts.wins_needed, opts.wire, opts.max_reshuffles) == (2, False, None)
    assert E.Options(wins_needed=3).wins_needed == 3


def test_turns_flow_clockwise_from_left_of_dealer():
    """"The player on the dealer's left starts the round, and turns flow clockwise" (left of X
    = the next seat clockwise)."""
    s = E.new_game(5, 11)
    order = []
    for _ in range(6):
        (seat,) = E.to_act(s)
        order.append(seat)
        s, _ = play(s, seat, Pick(None) if len(s.hands[seat]) < 5 else E.legal_actions(s, seat)[0])
    d = s.dealer
    assert order == [(d + 1 + i) % 5 for i in range(6)]


def test_next_round_next_dealer_clockwise_and_new_roles():
    """"In the next round, the next player clockwise deals" and the player on his left starts;
    every round deals the suit cards again."""
    s = scripted(n=4, roles="As Ah Ad Ac", dealer=2)
    s2, events = end_round(s)
    assert s2.round_no == 2 and s2.dealer == 3 and E.to_act(s2) == {0}
    start = next(e for e in events if e.kind == "round_start")
    assert start.data == {"round": 2, "dealer": 3, "starter": 0}
    assert sorted(s2.roles + s2.out_roles) == sorted(cs("As Ah Ad Ac joker"))
    assert all(len(h) == 2 for h in s2.hands) and len(s2.open) == 2 and s2.dump == []
    assert s2.shields == [[]] * 4 and s2.doubts == [[]] * 4 and s2.wins == [1, 1, 1, 1]


def test_role_is_private_to_its_holder():
    """"deals each player a suit card (face down) ... Each should check their suit": only the
    holder learns it (a private event and the seat's own view)."""
    s = E.new_game(4, 21)
    for seat in range(4):
        assert E.view(s, seat)["you"]["role"] == str(s.roles[seat])
        for other in range(4):
            if other != seat:
                assert str(s.roles[seat]) in E.secret_labels(s, other)
    _, events = end_round(scripted(n=4))
    roles = [e for e in events if e.kind == "role"]
    assert len(roles) == 4 and all(len(e.visible_to) == 1 for e in roles)


# =========================================================================== pick
def test_pick_open_card_replaced_so_two_open_at_turn_start():
    """"After picking an open card, a new one is drawn from the deck, so that there are always
    2 open cards when a turn starts (except in the end of the round)."""
    s = scripted(hands=("2h",), open_="7c 8c", deck="Kd 5s 6s")
    s2, _ = play(s, 0, Pick(C("7c")))
    assert s2.open == [C("8c"), C("Kd")] and s2.hands[0] == cs("2h 7c")
    assert s2.deck == [C("6s"), C("5s")]


def test_open_refill_continues_through_a_reshuffle_then_end_mode():
    """"If included open cards, new ones are drawn from the deck after the shot" + "When the
    deck runs out, it's reshuffled from the dumped cards (if any)"; with deck and dump both
    empty the open row stays short ("except in the end of the round")."""
    s = scripted(hands=("2h",), catapults=("7h",), open_="7c 7d", deck="Kd", dump="3c")
    s2, events = play(s, 0, Cast("number", ((C("7d"), 1), (C("7c"), 2))))
    # Kd empties the deck -> the dump (3c) is reshuffled -> 3c empties it again, dump empty
    assert s2.open == [C("Kd"), C("3c")]
    assert s2.reshuffles == 1 and s2.end_mode and s2.deck == [] and s2.dump == []
    assert kinds(events).count("reshuffle") == 1 and "end_mode" in kinds(events)
    assert s2.shields[0] == [C("7h")]


def test_deck_reshuffled_again_when_it_runs_out_again():
    """"If happens again, shuffled again." (each time the deck runs out with a dump)"""
    s = scripted(n=3, roles="As Ah Ad", hands=("2h", "3d 4d", "5h"), catapults=(None, "9c"),
                 open_="7c 8c", deck="Kd", dump="Qd")
    s2, _ = play(s, 0, Pick(None))  # Kd; the dump (Qd) becomes the deck
    assert s2.deck == [C("Qd")] and s2.dump == [] and s2.reshuffles == 1
    s3, _ = play(s2, 1, Build(C("3d")))  # old catapult 9c to the dump
    assert s3.dump == [C("9c")]
    s4, events = play(s3, 2, Pick(None))  # Qd: the deck runs out again, 9c is reshuffled
    assert s4.deck == [C("9c")] and s4.reshuffles == 2 and not s4.end_mode
    assert "reshuffle" in kinds(events)


# =========================================================================== build
def test_build_allowed_with_full_hand_and_without_old_catapult():
    """"Build a new doubt catapult: by putting one hand card face up" (no hand limit applies to
    building; a first catapult dumps nothing)."""
    s = scripted(roles="Ah As Ad Ac", hands=("2s 3s 4s 5s 6s",))
    s2, events = play(s, 0, Build(C("4s")))
    assert s2.catapult[0] == C("4s") and s2.dump == [] and len(s2.hands[0]) == 4
    assert "4♠" in " ".join(public_texts(events))


def test_dumped_catapult_reemerges_only_after_the_deck_runs_out():
    """"the old one is dumped into the center face down. (It will re-emerge from the deck after
    the current deck has run out.)\""""
    s = scripted(hands=("3h 4d",), catapults=("9c",), deck="2c 2d")
    s2, _ = play(s, 0, Build(C("4d")))
    assert s2.dump == [C("9c")] and C("9c") not in s2.deck


# =========================================================================== cast
def test_scenario_same_number_triple_shot_with_an_open_card():
    """Scenario: "1 - 3 cards of the same number ... collected face up into the shooter's
    history line (as a doubt shield)"; "may use hand or open cards as ammunition, or mix in
    both"; "new ones are drawn from the deck after the shot"; "allowed to cast all to one";
    "Same number shots allow ace roles to cast away their own suit".

    ♦A (seat 0) holds 7♦ 7♣, catapult 7♠, open 7♥ 2♣: shoots 7♥ (open) and 7♦ at seat 1 (♥A),
    7♣ at seat 2 (♣A). Scored: seat 1 has 1 rightful low doubt (7♥) -> 1 penalty, exposed;
    seat 2 likewise (7♣); seat 0 has a shield and no doubts; seat 3 untouched."""
    s = scripted(n=4, roles="Ad Ah Ac As", hands=("7d 7c",), catapults=("7s",),
                 open_="7h 2c", deck="9s 4d")
    shot = Cast("number", ((C("7h"), 1), (C("7d"), 1), (C("7c"), 2)))
    assert shot in E.legal_actions(s, 0)
    s2, events = play(s, 0, shot)
    assert s2.catapult[0] is None and s2.shields[0] == [C("7s")] and s2.hands[0] == []
    assert s2.doubts[1] == [(C("7h"), 0, True), (C("7d"), 0, False)]
    assert s2.doubts[2] == [(C("7c"), 0, False)]
    assert s2.open == [C("2c"), C("9s")] and s2.deck == [C("4d")] and s2.dump == []
    spec = E.view(s2, None)["players"]
    assert [p["doubts"] for p in spec] == [0, 2, 1, 0]
    assert spec[1]["open_doubts"] == ["7♥"] and spec[0]["shields"] == ["7♠"]
    pub = " ".join(public_texts(events))
    assert "7♥" in pub and "7♦" not in pub and "7♣" not in pub
    assert E.view(s2, 1)["you"]["doubts"] == [{"card": "7♥", "from": 0, "open": True},
                                             {"card": "7♦", "from": 0, "open": False}]
    assert E.view(s2, 2)["you"]["doubts"] == [{"card": "7♣", "from": 0, "open": False}]
    assert "7♦" not in json.dumps(E.view(s2, 2), ensure_ascii=False)
    s3, _ = end_round(s2)
    assert [line(s3, p)["penalties"] for p in range(4)] == [0, 1, 1, 0]
    assert [line(s3, p)["rightful"] for p in range(4)] == [[], ["7♥"], ["7♣"], []]
    assert [line(s3, p)["won"] for p in range(4)] == [True, False, False, True]
    assert s3.wins == [1, 0, 0, 1]


def test_cast_shots_may_be_named_in_any_order():
    """A multi-shot names its cards in any order (the engine sorts them as legal_actions
    lists them)."""
    s = scripted(n=4, roles="Ad Ah Ac As", hands=("7d 7c",), catapults=("7s",),
                 open_="7h 2c", deck="9s 4d")
    a, _ = play(s, 0, Cast("number", ((C("7c"), 2), (C("7d"), 1), (C("7h"), 1))))
    b, _ = play(s, 0, Cast("number", ((C("7h"), 1), (C("7d"), 1), (C("7c"), 2))))
    assert E.dump(a) == E.dump(b)
    with pytest.raises(IllegalActionError):
        E.apply(s, 0, Cast("number", ((C("7c"), 2), (C("7c"), 1))))


def test_scenario_same_suit_shot():
    """Scenario: "The catapult can shoot 1 card of the same suit (as the catapult). However
    after usage, it's dumped into the center face down (= no shield bonus)."

    ♥A (seat 0), catapult K♠, hand 3♠ 9♦, open 5♠ 8♣: may shoot 3♠ or 5♠ (one card only)
    at any other seat. Shoots 3♠ at seat 1 (♠A): K♠ goes to the dump, no shield; seat 1 ends
    with 1 penalty and no shield: exposed."""
    s = scripted(n=4, roles="Ah As Ad Ac", hands=("3s 9d",), catapults=("Ks",),
                 open_="5s 8c", deck="2d 4c")
    suit = [a for a in E.legal_actions(s, 0) if isinstance(a, Cast) and a.mode == "suit"]
    assert {(a.shots[0][0], a.shots[0][1]) for a in suit} == {
        (C(c), t) for c in ("3s", "5s") for t in (1, 2, 3)}
    assert not any(isinstance(a, Cast) and a.mode == "number" for a in E.legal_actions(s, 0))
    s2, events = play(s, 0, Cast("suit", ((C("3s"), 1),)))
    assert s2.catapult[0] is None and s2.shields[0] == [] and s2.dump == [C("Ks")]
    assert s2.doubts[1] == [(C("3s"), 0, False)] and s2.hands[0] == [C("9d")]
    assert s2.open == cs("5s 8c") and s2.deck == [C("4c"), C("2d")]  # no open card used
    assert "goes to the dump" in " ".join(public_texts(events))
    s3, _ = end_round(s2)
    assert line(s3, 1)["penalties"] == 1 and line(s3, 1)["exposed"]
    assert s3.wins == [1, 0, 1, 1]


def test_same_suit_shot_with_an_open_card_is_replaced():
    """"The player may use hand or open cards as ammunition ... If included open cards, new
    ones are drawn from the deck after the shot." (a same-suit shot with an open card)"""
    s = scripted(n=4, roles="Ah As Ad Ac", hands=("3s 9d",), catapults=("Ks",),
                 open_="5s 8c", deck="2d 4c")
    s2, _ = play(s, 0, Cast("suit", ((C("5s"), 2),)))
    assert s2.open == cs("8c 2d") and s2.doubts[2] == [(C("5s"), 0, True)]
    assert s2.hands[0] == cs("3s 9d") and s2.dump == [C("Ks")]
    assert E.view(s2, 3)["players"][2]["open_doubts"] == ["5♠"]


def test_same_number_shot_of_open_cards_only():
    """"1 - 3 fitting hand and/or open cards": a number shot may use open cards only."""
    s = scripted(n=3, roles="Ah As Ad", hands=("2c",), catapults=("9c",), open_="9s 9h",
                 deck="4d 5d 6d")
    shot = Cast("number", ((C("9s"), 1), (C("9h"), 2)))
    assert shot in E.legal_actions(s, 0)
    s2, _ = play(s, 0, shot)
    assert s2.open == cs("4d 5d") and s2.shields[0] == [C("9c")] and s2.hands[0] == [C("2c")]


def test_number_shot_has_at_most_three_cards_and_each_catapult_shoots_once():
    """"1 - 3 cards of the same number" and "Each catapult may only shoot once": after a
    shot the shooter has no catapult, so no further cast until a new one is built."""
    s = scripted(n=3, roles="Ah As Ad", hands=("9s 9h 9d 2c",), catapults=("9c",))
    sizes = {len(a.shots) for a in E.legal_actions(s, 0) if isinstance(a, Cast)}
    assert sizes == {1, 2, 3}
    s2, _ = play(s, 0, Cast("number", ((C("9s"), 1),)))
    s2.current, s2.cache = 0, {}
    assert not any(isinstance(a, Cast) for a in E.legal_actions(s2, 0))


def test_suit_shot_of_a_face_card_weighs_two():
    """"face cards (= J, Q, K) ... 2 penalties": a ♠ jack shot at the ♠ ace costs 2."""
    s = scripted(n=3, roles="Ah As Ad", hands=("Js",), catapults=("4s",))
    s2, _ = play(s, 0, Cast("suit", ((C("Js"), 1),)))
    s2.shields[1] = cs("2d")
    s3, _ = end_round(s2)
    assert line(s3, 1)["penalties"] == 2 and line(s3, 1)["left_penalties"] == 1


# =========================================================================== stuck
def test_scenario_player_gets_stuck():
    """Scenario: "GETTING STUCK: If you manage to fill your hand with your own suit (with an
    unfitting catapult), you won't be able to participate any longer" / "his turn will be
    skipped for the remaining round"; RULINGS: "a player with no legal action is skipped ...
    (the bot detects it; no declaration needed)".

    Seat 1 (♠A) holds four spades and a 9♦ catapult and takes the open 6♠: five spades, and
    the catapult fits nothing in hand or in the open row (10♣ K♥). He is out at once (the
    public "stuck" event comes with his pick) and seat 2 plays. A 9♣ then appears among the
    open cards (it would fit the 9♦) but he stays skipped. At the reveal he is scored like
    everyone (no doubts: a winner)."""
    s = scripted(n=4, roles="Ah As Ad Ac", hands=("2h", "2s 3s 4s 5s", "3h", "4h"),
                 catapults=(None, "9d"), open_="6s 10c", deck="Kh 9c 5h 5c 6h 6c",
                 current=1)
    s1, events = play(s, 1, Pick(C("6s")))
    assert s1.hands[1] == cs("2s 3s 4s 5s 6s") and s1.open == cs("10c Kh")
    assert s1.status == ["active", "stuck", "active", "active"] and E.to_act(s1) == {2}
    stuck = [e for e in events if e.kind == "stuck"]
    assert len(stuck) == 1 and stuck[0].visible_to is None and stuck[0].data["seat"] == 1
    s2, _ = play(s1, 2, Pick(C("10c")))  # 9♣ is drawn into the open row
    assert s2.open == cs("Kh 9c")
    s3, _ = play(s2, 3, Pick(None))
    s4, ev = play(s3, 0, Pick(None))
    assert E.to_act(s4) == {2} and s4.status[1] == "stuck" and "stuck" not in kinds(ev)
    assert E.legal_actions(s4, 1) == []
    with pytest.raises(NotYourTurnError):
        E.apply(s4, 1, Cast("number", ((C("9c"), 0),)))
    s5, _ = end_round(s4)
    assert line(s5, 1)["status"] == "stuck" and line(s5, 1)["won"]


def test_stuck_when_the_fitting_open_card_is_gone_by_his_turn():
    """RULINGS: "a player with no legal action is skipped": five own-suit cards are not stuck
    while an open card fits the catapult, but if it is taken before his turn he is skipped."""
    s = scripted(n=4, roles="Ah As Ad Ac", hands=("2h", "2s 3s 4s 5s 6s", "3h", "4h"),
                 catapults=(None, "9d"), open_="9h 10c", deck="Kh 5h 5c")
    s1, events = play(s, 0, Pick(C("9h")))
    assert s1.open == cs("10c Kh") and s1.status[1] == "stuck" and E.to_act(s1) == {2}
    assert "stuck" in kinds(events)


def test_stuck_only_without_any_legal_action():
    """"fill your hand with your own suit (with an unfitting catapult)": a full hand of the own
    suit is not stuck while the catapult fits an open card, and the joker (any suit builds)
    is never stuck; with no catapult at all a full own-suit hand is stuck."""
    base = {"n": 4, "roles": "Ah As Ad Ac", "open_": "10c 9h", "deck": "Kh 5h 5c"}
    s = scripted(hands=("2h", "2s 3s 4s 5s 6s"), catapults=(None, "9d"), **base)
    s2, _ = play(s, 0, Pick(None))
    assert s2.status[1] == "active" and E.to_act(s2) == {1}
    assert E.legal_actions(s2, 1) == [Cast("number", ((C("9h"), t),)) for t in (0, 2, 3)]
    s = scripted(hands=("2h", "2s 3s 4s 5s 6s"), catapults=(None, None), **base)
    s2, _ = play(s, 0, Pick(None))
    assert s2.status[1] == "stuck"
    s = scripted(hands=("2h", "2s 3s 4s 5s 6s"), catapults=(None, None),
                 **{**base, "roles": "Ah joker Ad Ac"})
    s2, _ = play(s, 0, Pick(None))
    assert s2.status[1] == "active"
    assert E.legal_actions(s2, 1) == [Build(c) for c in cs("2s 3s 4s 5s 6s")]


# =========================================================================== end mode
def test_scenario_end_mode_with_drop_outs():
    """Scenario: "When the deck runs out and there are no dump cards to rebuild it from, the
    game transitions to an end mode": "NO DECK: The deck won't be reshuffled any more (even if
    more dumped cards appear), but the 2 open cards may still be picked"; "DROP OUT ... dump
    remaining hand cards (and an unused catapult) face down into the center"; "ENDING: When
    all are empty handed ... the round stops and history lines are flipped."

    3 players. Seat 0 (♠A) takes the last deck card: end mode. Seat 1 (♥A) drops out (4♠ 5♦
    and the K♥ catapult to the dump: 3 cards, no reshuffle). Seat 2 (♦A) takes open 7♣ (not
    replaced). Seat 0 shoots open 8♦ at seat 2 with the 8♣ catapult (shield; the open row is
    now empty). Seat 2 and seat 0 drop out: the round ends. Seat 2 has one rightful 8♦ and no
    shield: exposed; seats 0 and 1 win."""
    s = scripted(n=3, roles="As Ah Ad", hands=("2h 3h", "4s 5d", "6c"),
                 catapults=("8c", "Kh"), open_="7c 8d", deck="10s")
    s1, ev = play(s, 0, Pick(None))
    assert s1.end_mode and s1.deck == [] and "end_mode" in kinds(ev)
    assert Pick(None) not in E.legal_actions(s1, 1) and DropOut() in E.legal_actions(s1, 1)
    s2, ev = play(s1, 1, DropOut())
    assert s2.status[1] == "dropped" and s2.hands[1] == [] and s2.catapult[1] is None
    assert s2.dump == cs("4s 5d Kh") and s2.deck == [] and "drop" in kinds(ev)
    drop = next(e for e in ev if e.kind == "drop")
    assert drop.visible_to is None and "4♠" not in drop.text and drop.data["cards"] == 2
    s3, _ = play(s2, 2, Pick(C("7c")))
    assert s3.open == [C("8d")] and s3.deck == [] and len(s3.dump) == 3
    s4, _ = play(s3, 0, Cast("number", ((C("8d"), 2),)))
    assert s4.open == [] and s4.shields[0] == [C("8c")] and s4.reshuffles == 0
    assert E.to_act(s4) == {2}  # seat 1 dropped out: skipped
    s5, _ = play(s4, 2, DropOut())
    assert s5.dump == cs("4s 5d Kh 6c 7c") and E.to_act(s5) == {0}
    s6, ev = play(s5, 0, DropOut())
    assert "round_end" in kinds(ev) and s6.round_no == 2
    end = next(e for e in ev if e.kind == "round_end")
    assert end.data["winners"] == [0, 1] and end.data["wins"] == [1, 1, 0]
    assert [line(s6, p)["status"] for p in range(3)] == ["dropped"] * 3
    assert line(s6, 2)["rightful"] == ["8♦"] and line(s6, 2)["exposed"]


def test_drop_out_only_in_end_mode():
    """"The players have an extra one-way option to drop out" — only in end mode."""
    s = scripted(hands=("2h 3d",), open_="7c 8c")
    assert DropOut() not in E.legal_actions(s, 0)
    with pytest.raises(IllegalActionError):
        E.apply(s, 0, DropOut())


def test_empty_hand_in_end_mode_may_still_pick_open_cards():
    """"the 2 open cards may still be picked"; done only "with an empty hand and nothing to
    pick": an empty-handed player keeps his turn while open cards remain."""
    s = scripted(n=3, roles="As Ah Ad", hands=("2h", "", "3c"), open_="7c", deck="")
    s.end_mode = True
    s2, _ = play(s, 0, DropOut())
    assert s2.status[1] == "active" and E.to_act(s2) == {1}
    assert E.legal_actions(s2, 1) == [Pick(C("7c")), DropOut()]
    s3, _ = play(s2, 1, Pick(C("7c")))
    assert s3.open == [] and s3.hands[1] == [C("7c")]


def test_cast_in_end_mode_open_cards_not_replaced():
    """"NO DECK: The deck won't be reshuffled any more": open cards shot in end mode are not
    replaced, even with cards in the dump."""
    s = scripted(n=3, roles="As Ah Ad", hands=("2h", "3d", "4d"), catapults=("9c",),
                 open_="9d 5c", deck="", dump="Kc Qc")
    s.end_mode = True
    s2, _ = play(s, 0, Cast("number", ((C("9d"), 1),)))
    assert s2.open == [C("5c")] and s2.deck == [] and s2.dump == cs("Kc Qc")


# =========================================================================== scoring
@pytest.mark.parametrize("rank", range(2, 14))
def test_penalty_low_cards_one_face_cards_two(rank):
    """"Each rightful doubt with a low card (= 2 - 10) carries 1 penalty, while face cards
    (= J, Q, K) ... 2 penalties.\""""
    assert penalty(C(f"{'JQK'[rank - 11] if rank > 10 else rank}h")) == (2 if rank > 10 else 1)


def test_ace_discards_doubts_of_other_suits():
    """"For ace roles only doubts of the ace's suit are rightful - others can be discarded":
    the ♦ ace with K♠ Q♥ J♣ doubts and no shield is unexposed."""
    s = scripted(n=4, roles="Ad As Ah Ac")
    s.doubts[0] = [(C("Ks"), 1, False), (C("Qh"), 2, False), (C("Jc"), 3, True)]
    s2, _ = end_round(s)
    assert line(s2, 0)["penalties"] == 0 and line(s2, 0)["won"]


JOKER_CASES = [
    # doubts, shields, penalties, cancelled, left penalties, won
    ("Ks Qh 5d 3c", "4d 4h 4s", 6, 6, 0, True),  # half the shields (3 for 6): a winner
    ("Ks Qh 5d 3c", "4d 4h", 6, 4, 2, False),
    ("Kc 5d", "4d 4h", 3, 3, 0, True),  # an odd total needs the next shield up
    ("Kc 5d", "4d", 3, 2, 1, False),
]


@pytest.mark.parametrize(("doubts", "shields", "pens", "cancelled", "left", "won"), JOKER_CASES)
def test_scenario_joker_wins_with_half_the_shields(doubts, shields, pens, cancelled, left, won):
    """Scenario: "For joker all are half-rightful (= cheaper to block)"; "Each doubt shield
    ... can then cancel 1 penalty for ace roles, or 2 penalties for joker"; RULINGS: "Joker:
    every doubt is rightful, each shield cancels 2 penalties.\""""
    s = scripted(n=3, roles="joker Ah Ad")
    s.doubts[0] = [(c, 1, False) for c in cs(doubts)]
    s.shields[0] = cs(shields)
    s2, _ = end_round(s)
    j = line(s2, 0)
    assert (j["penalties"], j["cancelled"], j["left_penalties"], j["won"]) == (
        pens, cancelled, left, won)
    assert j["per_shield"] == 2 and j["exposed"] == (not won)


def test_same_history_line_ace_needs_twice_the_joker_shields():
    """"each shield cancels 1 penalty" for an ace: the ♥ ace with K♥ Q♥ 5♥ 3♥ (6 penalties)
    needs 6 shields where the joker needed 3."""
    for shields, won in (("2c 3c 4c 5c 6c 7c", True), ("2c 3c 4c 5c 6c", False)):
        s = scripted(n=3, roles="Ah joker Ad")
        s.doubts[0] = [(c, 1, False) for c in cs("Kh Qh 5h 3h")]
        s.shields[0] = cs(shields)
        s2, _ = end_round(s)
        assert line(s2, 0)["penalties"] == 6 and line(s2, 0)["won"] is won


def test_reveal_event_explains_each_result():
    """"the doubts take effect ... The flipped history lines then indicate winners (=
    unexposed) from losers (= exposed)": every player's reveal says role, doubts and why."""
    s = scripted(n=3, roles="As Ah Ad")
    s.doubts[1] = [(C("Kh"), 0, False)]
    s.shields[1] = cs("2c")
    _, events = end_round(s)
    reveal = [e for e in events if e.kind == "reveal"]
    assert len(reveal) == 3 and all(e.visible_to is None for e in reveal)
    assert "A♥" in reveal[1].text and "K♥" in reveal[1].text and "Loses" in reveal[1].text
    assert "2 penalties" in reveal[1].text and "1 cancelled" in reveal[1].text


# =========================================================================== Taboo on the Wire
def test_wire_roles_named_privately_at_the_deal():
    """"The black aces ♤A and ♧A are the bad guys", "The red aces ♥A and ♦A are detectives",
    "The joker is detective McNulty" — each learns his own role only."""
    s = E.new_game(5, 3, WIRE)
    names = {"s": "bad guy", "c": "bad guy", "h": "detective", "d": "detective"}
    for seat in range(5):
        role = s.roles[seat]
        want = "McNulty" if role.is_joker else names[role.suit]
        assert E.view(s, seat)["you"]["wire_role"] == want
    assert "you" not in E.view(s, None)


def test_scenario_wire_bad_guy_wins_with_a_spare_shield():
    """Scenario (bad guy wins): "to win must have at least 1 shield (after blocking the
    rightful doubts)". ♠A: 5♠ (1 penalty) + 9♥ (not rightful), shields 3♥ 4♦ -> 1 cancelled,
    1 shield to spare: wins."""
    s = scripted(n=4, roles="As Ah Ad Ac", options=WIRE)
    s.doubts[0] = [(C("5s"), 1, False), (C("9h"), 2, False)]
    s.shields[0] = cs("3h 4d")
    s.shields[3] = cs("2h")
    s2, _ = end_round(s)
    bad = line(s2, 0)
    assert (bad["penalties"], bad["cancelled"], bad["left_shields"]) == (1, 1, 1)
    assert bad["won"] and bad["verdict"] == "unexposed with a shield to spare"
    assert line(s2, 3)["won"]  # the other bad guy: no doubts, one shield left
    assert not line(s2, 1)["won"] and not line(s2, 2)["won"]  # both bad guys got away


@pytest.mark.parametrize(("doubts", "shields", "verdict"), [
    ("5s", "3h", "unexposed but no shield left over"),  # every shield spent blocking
    ("", "", "unexposed but no shield left over"),  # never earned a shield
    ("Ks", "3h", "exposed"),  # 2 penalties, 1 shield
])
def test_scenario_wire_bad_guy_loses(doubts, shields, verdict):
    """Scenario (bad guy loses): "For all roles it still applies that you can only win if you
    remain unexposed ... But each has extra requirements": a bad guy with no shield left after
    blocking loses even unexposed, and an exposed one loses."""
    s = scripted(n=4, roles="As Ah Ad Ac", options=WIRE)
    s.doubts[0] = [(c, 1, False) for c in cs(doubts)]
    s.shields[0] = cs(shields)
    s2, _ = end_round(s)
    bad = line(s2, 0)
    assert not bad["won"] and bad["verdict"] == verdict
    assert bad["left_shields"] == 0


def test_scenario_wire_detective_wins_with_extra_shields():
    """Scenario (detective wins): "can only win if all the bad guys present in the round are
    exposed"; "For each exposed bad guy, the detectives gain 1 extra shield".

    Both bad guys exposed -> each detective gets 2 extra shields: ♥A with Q♥ (2 penalties)
    and no shield of his own is saved by them; ♦A with no doubts wins too."""
    s = scripted(n=4, roles="As Ac Ah Ad", options=WIRE)
    s.doubts[0] = [(C("5s"), 2, False)]
    s.doubts[1] = [(C("Kc"), 3, False)]
    s.doubts[2] = [(C("Qh"), 0, False)]
    s2, _ = end_round(s)
    assert line(s2, 0)["exposed"] and line(s2, 1)["exposed"]
    det = line(s2, 2)
    assert (det["extra_shields"], det["penalties"], det["cancelled"]) == (2, 2, 2)
    assert det["won"] and det["verdict"] == "unexposed and every bad guy exposed"
    assert line(s2, 3)["won"] and line(s2, 3)["extra_shields"] == 2
    assert s2.wins == [0, 0, 1, 1]


def test_scenario_wire_detective_loses():
    """Scenario (detective loses): a bad guy who stays unexposed ("all the bad guys present
    ... are exposed" fails) beats the detectives; and a detective exposed despite his extra
    shields loses. One exposed bad guy = 1 extra shield each."""
    s = scripted(n=4, roles="As Ac Ah Ad", options=WIRE)
    s.doubts[0] = [(C("5s"), 2, False)]  # ♠ exposed; ♣ has no doubts: got away
    s.doubts[3] = [(C("Jd"), 0, False), (C("9d"), 1, False)]  # 3 penalties vs 1 extra
    s2, _ = end_round(s)
    assert [line(s2, p)["exposed"] for p in range(4)] == [True, False, False, True]
    assert line(s2, 2)["extra_shields"] == 1 and not line(s2, 2)["won"]
    assert line(s2, 2)["verdict"] == "unexposed but a bad guy got away"
    assert line(s2, 3)["extra_shields"] == 1 and line(s2, 3)["left_penalties"] == 2
    assert not line(s2, 3)["won"] and line(s2, 3)["verdict"] == "exposed"


def test_wire_mcnulty_gets_no_extra_shields():
    """RULINGS: "red aces are detectives ... each exposed bad guy gives every detective 1
    extra shield" — the joker (McNulty) is not one of them: his 5♥ stays uncancelled."""
    s = scripted(n=4, roles="As joker Ah Ad", options=WIRE)
    s.doubts[0] = [(C("Ks"), 2, False)]  # the bad guy is exposed
    s.doubts[1] = [(C("5h"), 0, False)]
    s2, _ = end_round(s)
    s3, _ = play(s2, 1, Accuse("s", 0))
    s4, _ = play(s3, 1, Accuse("c", None))
    assert line(s4, 1)["extra_shields"] == 0 and line(s4, 1)["exposed"]
    assert line(s4, 2)["extra_shields"] == 1 and line(s4, 2)["won"]


def test_wire_detectives_win_when_no_bad_guy_is_dealt():
    """"every bad guy dealt this round" — with both black aces out of play the detectives need
    only stay unexposed (and McNulty must say both are out of play)."""
    s = scripted(n=3, roles="Ah Ad joker", options=WIRE)
    s2, _ = end_round(s)
    assert s2.phase == "accuse" and E.to_act(s2) == {2}
    assert Accuse("s", None) in E.legal_actions(s2, 2)
    s3, _ = play(s2, 2, Accuse("s", None))
    s4, _ = play(s3, 2, Accuse("c", None))
    assert [line(s4, p)["won"] for p in range(3)] == [True, True, True]


def _mcnulty_round(doubts: str = "", shields: str = ""):
    """4 players, seat 1 is McNulty, ♠A at seat 2, ♣A out of play."""
    s = scripted(n=4, roles="Ah joker As Ad", options=WIRE)
    s.doubts[1] = [(c, 0, False) for c in cs(doubts)]
    s.shields[1] = cs(shields)
    s2, events = end_round(s)
    assert s2.phase == "accuse" and E.to_act(s2) == {1}
    return s2, events


def test_scenario_mcnulty_right_wins():
    """Scenario (McNulty right): "wins if he can figure out the network and point out to
    everyone where the bad guys are ... (= which suit is which player, or whether out)";
    RULINGS: "he wins only if unexposed and every name is right".

    McNulty has K♦ 5♥ (3 penalties) and 2 shields (4 cancelled): unexposed; he names ♠ -> seat
    2 and ♣ -> out of play, both right: wins. The bad guy at seat 2 is not exposed and that
    makes no difference to him."""
    s, _ = _mcnulty_round("Kd 5h", "2c 3c")
    s2, _ = play(s, 1, Accuse("s", 2))
    s3, events = play(s2, 1, Accuse("c", None))
    mc = line(s3, 1)
    assert mc["won"] and mc["verdict"] == "unexposed and named every bad guy right"
    assert s3.last_round["accusations"] == [
        {"suit": "♠", "named": 2, "truth": 2, "right": True},
        {"suit": "♣", "named": None, "truth": None, "right": True}]
    assert not line(s3, 2)["exposed"]
    acc = next(e for e in events if e.kind == "accusations")
    assert acc.visible_to is None and "right" in acc.text  # made public with the reveal


@pytest.mark.parametrize(("names", "doubts", "shields", "verdict"), [
    ((("s", 0), ("c", None)), "", "", "unexposed but an accusation was wrong"),
    ((("s", 2), ("c", 3)), "", "", "unexposed but an accusation was wrong"),
    ((("s", 2), ("c", None)), "Kd 5h", "2c", "exposed"),
])
def test_scenario_mcnulty_wrong_or_exposed_loses(names, doubts, shields, verdict):
    """Scenario (McNulty wrong): one wrong name loses; and "Like others McNulty must remain
    unexposed" — all names right but exposed (3 penalties vs 1 shield = 2) loses too."""
    s, _ = _mcnulty_round(doubts, shields)
    for suit, target in names:
        s, _ = play(s, 1, Accuse(suit, target))
    mc = line(s, 1)
    assert not mc["won"] and mc["verdict"] == verdict


def test_mcnulty_accusation_is_private_until_the_reveal():
    """"The round pauses for this accusation (private to the joker)": only McNulty acts and
    sees his names; nobody else learns them before the reveal."""
    s, _ = _mcnulty_round()
    assert E.legal_actions(s, 0) == [] and E.to_act(s) == {1}
    s2, events = play(s, 1, Accuse("s", 2))
    assert all(e.visible_to == {1} for e in events)
    assert E.view(s2, 1)["you"]["accusations"] == [{"suit": "♠", "target": 2}]
    for seat in (0, 2, 3):
        assert E.view(s2, seat)["you"]["accusations"] is None
    assert E.view(s2, 0) == E.view(s, 0)


def test_mcnulty_saying_out_of_play_with_five_players_is_simply_wrong():
    """"(= which suit is which player, or whether out)": with 5 players every role is dealt,
    so "out of play" can only be wrong; the ruling forbids no naming, it judges it."""
    s = scripted(n=5, roles="Ah joker As Ad Ac", options=WIRE)
    s2, _ = end_round(s)
    assert Accuse("s", None) in E.legal_actions(s2, 1)
    s3, _ = play(s2, 1, Accuse("s", None))
    s4, _ = play(s3, 1, Accuse("c", 4))
    assert not line(s4, 1)["won"]
    assert [a["right"] for a in s4.last_round["accusations"]] == [False, True]


def test_no_accusation_without_the_wire():
    """The accusation belongs to "Taboo on the Wire" only: in the basic game the joker is just
    the joker and the round is scored at once."""
    s = scripted(n=4, roles="Ah joker As Ad")
    s2, _ = end_round(s)
    assert s2.round_no == 2 and s2.phase == "play"
    assert s2.last_round["accusations"] is None and line(s2, 1)["wire_role"] is None


# =========================================================================== hidden information
def test_known_open_card_in_hand_not_tracked_after_a_hidden_shot():
    """"hand cards sent are seen only by their target": after an open card was taken into a
    hand (public), a same-number shot from the hand must not tell others whether that card or
    another of the number went out (the public "known" list may not single it out)."""
    s = scripted(n=4, roles="Ad Ah Ac As", hands=("8h 3d",), catapults=("8s",), open_="8c 2c",
                 deck="Kd Qd Jd")
    s, _ = play(s, 0, Pick(C("8c")))
    assert E.view(s, 2)["players"][0]["known_hand"] == ["8♣"]
    s.current, s.cache = 0, {}
    views = []
    for card in ("8h", "8c"):
        s2, _ = play(s, 0, Cast("number", ((C(card), 1),)))
        views.append(E.view(s2, 2))
    assert views[0] == views[1]
    assert views[0]["players"][0]["known_hand"] == []


def test_known_card_stays_known_when_it_cannot_have_been_shot():
    """A known hand card that does not fit the shot (other suit and number) is still known."""
    s = scripted(n=4, roles="Ad Ah Ac As", hands=("8h",), catapults=("8s",), open_="2c 3c",
                 deck="Kd Qd Jd")
    s, _ = play(s, 0, Pick(C("2c")))
    s.current, s.cache = 0, {}
    s2, _ = play(s, 0, Cast("number", ((C("8h"), 1),)))
    assert E.view(s2, 3)["players"][0]["known_hand"] == ["2♣"]


def _busy_state():
    """Mid-round, 4 players: hidden hands, doubts of every kind, a dump and a known card."""
    s = scripted(n=4, roles="Ah As Ad Ac", hands=("2h 3d", "4c 5c", "6d 7s", "8h 9c"),
                 catapults=(None, "Kh", "Qh", "Jd"), open_="10c 10d",
                 dump="2s 3s 4s")
    s.doubts[0] = [(C("Kd"), 1, False)]
    s.doubts[1] = [(C("Qc"), 0, False), (C("Jh"), 2, True)]
    s.doubts[2] = [(C("9s"), 3, False)]
    s.doubts[3] = [(C("8d"), 2, False)]
    s.deck = [c for c in s.deck if c not in cs("Kd Qc Jh 9s 8d")]
    s.known[2] = [C("7s")]
    s.cache = {}
    return s


def test_determinize_resamples_everything_hidden_and_keeps_what_seat_knows():
    """determinize (DESIGN §2): "all hidden information that seat does not know is resampled":
    other hands (except publicly known cards), deck, dump, doubts the seat neither received nor
    sent nor saw open, other roles and out-of-play roles; the seat's own cards, doubts and
    every public thing stay."""
    s = _busy_state()
    seen = {k: set() for k in ("h1", "h2", "h3", "deck", "dump", "d2", "d3", "roles", "out")}
    for seed in range(40):
        d = E.determinize(s, 0, random.Random(seed))
        assert E.view(d, 0) == E.view(s, 0)
        assert E.legal_actions(d, 0) == E.legal_actions(s, 0)
        assert d.hands[0] == s.hands[0] and d.doubts[0] == s.doubts[0]
        assert d.doubts[1] == s.doubts[1]  # Qc sent by seat 0, Jh was open
        assert C("7s") in d.hands[2]  # taken from the open row: public
        assert d.roles[0] == s.roles[0] and d.open == s.open and d.catapult == s.catapult
        every = [*d.deck, *d.dump, *d.open, *(c for h in d.hands for c in h),
                 *(c for x in d.doubts for c, _, _ in x), *(c for c in d.catapult if c)]
        assert sorted(every) == sorted(PLAY_CARDS)
        seen["h1"].add(tuple(d.hands[1]))
        seen["h2"].add(tuple(d.hands[2]))
        seen["h3"].add(tuple(d.hands[3]))
        seen["deck"].add(tuple(d.deck))
        seen["dump"].add(tuple(d.dump))
        seen["d2"].add(d.doubts[2][0][0])
        seen["d3"].add(d.doubts[3][0][0])
        seen["roles"].add(tuple(d.roles))
        seen["out"].add(tuple(d.out_roles))
    assert all(len(v) > 1 for v in seen.values()), {k: len(v) for k, v in seen.items()}


def test_determinize_does_not_keep_the_future_deal():
    """determinize: the next reshuffles and deals are hidden too, so the seed is replaced
    (otherwise a search could read the true next round from the state)."""
    s = _busy_state()
    later = set()
    for seed in range(8):
        d = E.determinize(s, 0, random.Random(seed))
        nxt, _ = end_round(d)
        later.add((tuple(nxt.roles), tuple(nxt.hands[0])))
    assert len(later) > 1


def test_determinize_resamples_mcnulty_names_for_the_others():
    """McNulty's accusation is private: determinize for another seat does not keep it; for
    McNulty himself it does."""
    s, _ = _mcnulty_round()
    s, _ = play(s, 1, Accuse("s", 2))
    targets = {E.determinize(s, 0, random.Random(k)).accusations[0] for k in range(30)}
    assert len(targets) > 1 and {suit for suit, _ in targets} <= {"s", "c"}
    assert all(len(E.determinize(s, 0, random.Random(k)).accusations) == 1 for k in range(5))
    for k in range(5):
        assert E.determinize(s, 1, random.Random(k)).accusations == [("s", 2)]
