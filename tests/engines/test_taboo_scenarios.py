"""Taboo: scenario tests from a second, independent rules audit (the largest table and the
joker's draws). Each test names the ruling (RULINGS.md, Taboo) it checks; states are scripted
with `deal` from test_taboo.
"""

from __future__ import annotations

from engines.taboo.rules import ENGINE as E
from engines.taboo.rules import Joker
from tests.engines.test_taboo import C, act, deal


def test_six_players_play_with_two_decks_five_cards_each_and_four_face_up():
    """Ruling: "52 cards + 2 jokers; two such decks for 5+ players. ... Deal 5 each; 4 face
    up"; at the largest table (6 players) that is 108 cards, 30 dealt and 4 in the row, none
    of them a jack or joker, and the player left of the dealer starts."""
    s = E.new_game(6, 21)
    assert [len(h) for h in s.hands] == [5] * 6 and len(s.row) == 4
    assert sum(map(len, s.hands)) + len(s.row) + len(s.stock) == 108
    assert all(c.rank not in (0, 11) for c in s.row)
    assert s.current == (s.dealer + 1) % 6 and E.to_act(s) == {s.current}


def test_a_joker_at_six_players_makes_the_five_others_draw_in_turn_order():
    """Ruling: "Joker: every other player draws one card; the joker goes to the discard
    pile." Seat 4 plays it at a 6-player table: seats 5, 0, 1, 2, 3 each draw one card from
    the top of the stock, in turn order; seat 4 draws none; then seat 5 plays."""
    s = deal(["2c", "3c", "4c", "5c", "joker 6c", "7c"], row="9d",
             stock="Ks Qs 10s 9s 8s 7s", current=4)
    t = act(s, Joker()).state
    drawn = {seat: [c for c in t.hands[seat] if c not in s.hands[seat]] for seat in range(6)}
    assert drawn == {5: [C("7s")], 0: [C("8s")], 1: [C("9s")], 2: [C("10s")],
                     3: [C("Qs")], 4: []}
    assert t.hands[4] == [C("6c")] and t.discard[-1] == C("joker") and t.current == 5
