"""Suit Taboo: scenario tests from a second, independent rules audit.

Each test names the seed rule (seeds/suit_taboo.txt) or the ruling (RULINGS.md, Suit Taboo)
it checks; states are scripted with `scripted` from test_suit_taboo.
"""

from __future__ import annotations

from engines.suit_taboo.rules import ENGINE as E
from engines.suit_taboo.rules import Build, Cast, DropOut, Pick
from tests.engines.test_suit_taboo import C, cs, kinds, play, scripted


def test_the_last_deck_card_laid_open_starts_end_mode_and_later_dumps_never_reshuffle():
    """RULINGS: "Deck and dump both empty → end mode: no more reshuffles even if cards are
    dumped later; the open cards may still be picked". Seat 0 takes an open card; its
    replacement is the deck's last card and the dump is empty: end mode starts, that card
    still lies open, and a catapult dumped afterwards (seat 1 builds anew) is never shuffled
    into a deck."""
    s = scripted(n=3, roles="As Ah Ad", hands=("2h", "3s 4c", "5c"), catapults=(None, "6c"),
                 open_="7c 8c", deck="9d")
    s, ev = play(s, 0, Pick(C("7c")))
    assert s.end_mode and s.deck == [] and s.open == cs("8c 9d") and "end_mode" in kinds(ev)
    s, ev = play(s, 1, Build(C("3s")))
    assert s.dump == cs("6c") and s.deck == [] and "reshuffle" not in kinds(ev)
    assert Pick(C("9d")) in E.legal_actions(s, 2) and Pick(None) not in E.legal_actions(s, 2)


def test_an_empty_hand_in_end_mode_may_still_cast_open_cards():
    """RULINGS: a cast sends "1–3 cards from hand and/or the open cards", and a player is done
    only "with an empty hand and nothing to pick": an empty-handed player with a catapult
    may still shoot an open card that fits it."""
    s = scripted(n=3, roles="As Ah Ad", hands=("2h", "", "5c"), catapults=(None, "9c"),
                 open_="9d", deck="")
    s.end_mode = True
    s, _ = play(s, 0, DropOut())
    assert E.to_act(s) == {1} and s.status[1] == "active"
    legal = E.legal_actions(s, 1)
    assert Cast("number", ((C("9d"), 0),)) in legal and Cast("suit", ((C("9d"), 2),)) not in legal
    s, _ = play(s, 1, Cast("number", ((C("9d"), 2),)))
    assert s.shields[1] == cs("9c") and s.open == [] and s.doubts[2][0][0] == C("9d")
    assert E.view(s, 0)["players"][2]["open_doubts"] == ["9♦"]  # an open card shot is public


def test_five_players_deal_every_role_and_three_players_leave_two_out():
    """RULINGS: "Each player gets one suit card (role); leftover role cards stay out of play
    face down": with 5 players all five role cards are dealt, with 3 two stay out, unseen."""
    five = E.new_game(5, 11)
    assert sorted(map(str, five.roles)) == sorted(["A♠", "A♥", "A♦", "A♣", "🃏Joker"])
    assert five.out_roles == [] and E.view(five, 0)["out_of_play_roles"] == 0
    three = E.new_game(3, 11)
    assert len(three.out_roles) == 2 and E.view(three, 0)["out_of_play_roles"] == 2
    secret = E.secret_labels(three, 0)
    assert all(str(r) in secret for r in three.out_roles)
    assert str(three.roles[0]) not in secret and str(three.roles[1]) in secret
