"""Six Suit: scenario tests from a second, independent rules audit.

Option values at their limits, the largest tables and the view of each seat. Each test names
the seed rule (seeds/six_suit.txt) or the ruling (RULINGS.md, Six Suit) it checks; states are
scripted with `build` from test_six_suit (card shorthand: "3rt" = 3 red triangle).
"""

from __future__ import annotations

import pytest

from engines.core import IllegalActionError
from engines.six_suit.cards import LABELS
from engines.six_suit.rules import ENGINE as E
from engines.six_suit.rules import Consent, Discard, Play, Veto
from tests.engines.test_six_suit import C, act, build, cards, kinds, miss_prediction, turn


def test_no_free_time_a_six_suit_dealt_is_pending_and_the_first_opponent_finishes_it():
    """Ruling: "Made by the player or a teammate (or already showing when free time ends):
    not yet eliminated; the next opponent who plays any card on that player while the six suit
    still holds eliminates them." With `free_time_rounds=0` free time is over from the deal:
    a six suit dealt to seat 1 waits, and seat 0's first card on seat 1 that keeps it
    eliminates seat 1 (3 players: 3 points, every survivor 1)."""
    six = {1: "1rh 2yh 3gh 1bh 2kh 4bh"}
    s = build(3, tops=six, hands={0: "4rc"}, draw="1ys", round_=0, free_time_rounds=0)
    view = E.view(s, None)
    assert not view["free_time"] and view["pending_six_suits"] == [1] and s.alive[1]
    saved, ev = turn(s, 0, "1ys", Play(C("4rc"), 1, 5))  # a circle breaks the six hearts
    assert saved.alive[1] and "eliminate" not in kinds(ev) and saved.pending() == []
    s = build(3, tops=six, hands={0: "4rh"}, draw="1ys", round_=0, free_time_rounds=0)
    s, ev = turn(s, 0, "1ys", Play(C("4rh"), 1, 5))  # a heart keeps it
    assert not s.alive[1] and s.elims == [[1, 0, 3, 1]] and s.scores == [3 + 1, 0, 1]
    assert "eliminate" in kinds(ev)


def test_max_vetoes_zero_leaves_only_own_piles_in_free_time():
    """Ruling: "Option `max_vetoes` ...: after that many vetoes in one turn only the player's
    own piles or a discard remain" — at its lower limit 0, a free-time player of a 3-player
    table can never offer a card to another player."""
    s = build(3, hands={0: "1rc 2yh 3gt"}, draw="4bs", round_=0, max_vetoes=0)
    s, _ = act(s, 0, miss_prediction("4bs"))
    legal = E.legal_actions(s, 0)
    assert {a.target for a in legal if isinstance(a, Play)} == {0}
    assert {a.card for a in legal if isinstance(a, Discard)} == set(s.hands[0])
    with pytest.raises(IllegalActionError):
        E.apply(s, 0, Play(C("1rc"), 1, 0))  # seat 1's pile 1 holds a card sharing red


def test_the_veto_cap_takes_effect_exactly_after_the_last_allowed_veto():
    """Ruling: "after that many vetoes in one turn only the player's own piles or a discard
    remain": with `max_vetoes=1` the first offer may be vetoed, and after that one veto the
    card can only go on the player's own piles or the discard pile."""
    s = build(3, tops={0: "1rc 2yh 3gt 4bs 1yt 2gs", 1: "4bb 1rh 2yc 3gc 1gh 2bc"},
              hands={0: "4rb"}, draw="1ys", round_=0, max_vetoes=1)
    s, _ = turn(s, 0, "1ys", Play(C("4rb"), 1, 0))
    assert s.phase == "consent"
    s, ev = act(s, 1, Veto())
    assert "veto" in kinds(ev) and s.phase == "play"
    assert all(a.target == 0 for a in E.legal_actions(s, 0) if isinstance(a, Play))
    with pytest.raises(IllegalActionError):
        E.apply(s, 0, Play(C("4rb"), 1, 1))  # 4rb on 1rh shares red: offered before the cap


def test_consented_free_time_play_that_makes_a_six_suit_does_not_eliminate():
    """Ruling: "Free time: the first two full rounds of turns. No eliminations." A six suit
    made on another player with their consent in free time waits like any other."""
    s = build(3, tops={1: "1rh 2yh 3gh 1bh 2kh 4bc"}, hands={0: "4rh"}, draw="1ys",
              round_=1)
    s, _ = turn(s, 0, "1ys", Play(C("4rh"), 1, 5))
    s, ev = act(s, 1, Consent())
    assert s.alive[1] and s.pending() == [1] and "eliminate" not in kinds(ev)
    assert "six_suit" in kinds(ev)


def test_twelve_players_in_six_teams_first_elimination_pays_twelve():
    """Ruling: "the k-th elimination earns its eliminator N − k + 1 (N = players at the
    start); each player still alive gets 1 survival point"; "Team score = sum". At the
    largest table (12 players, 6 teams of 2: seat i on team i % 6) seat 0 eliminates seat 1:
    12 points plus its own survival point; the 10 other living players get 1 each."""
    s = E.new_game(12, 3, {"teams": 6})
    s.round, s.current = 2, 0
    near_six = cards("1rh 2yh 3gh 1bh 2kh 4bc")  # five hearts and a circle
    wanted = [(s.tops, 6 + i, card) for i, card in enumerate(near_six)]
    wanted += [(s.hands[0], 0, C("4rh")), (s.draw, len(s.draw) - 1, C("1ys"))]
    for zone, index, card in wanted:  # swap each wanted card into its place
        home = next(z for z in [s.tops, *s.hands, s.draw] if card in z)
        home[home.index(card)], zone[index] = zone[index], card
    assert sorted(s.tops + [c for h in s.hands for c in h] + s.draw) == list(range(125))
    assert 1 not in E.view(s, None)["pending_six_suits"]
    s, ev = turn(s, 0, "1ys", Play(C("4rh"), 1, 5))
    assert not s.alive[1] and s.elims == [[1, 0, 12, 1]]
    assert s.scores == [13, 0] + [1] * 10
    totals = {t["team"]: t["score"] for t in E.view(s, 5)["team_scores"]}
    assert totals == {0: 13 + 1, 1: 0 + 1, 2: 2, 3: 2, 4: 2, 5: 2}
    assert "final_phase" not in kinds(ev)  # every team still has a living player


def test_a_ghost_may_not_finish_a_pending_six_suit_of_its_own_teammate():
    """Ruling: a pending six suit is finished by "the next opponent who plays any card on that
    player"; a ghost keeps its team, so its card on a living teammate never eliminates."""
    s = build(4, tops={0: "1rh 2yh 3gh 1bh 2kh 4rh"}, hands={2: "4yh"}, draw="1ys",
              teams=2, current=2)
    alive = s.alive[:]
    alive[2] = False
    s.alive = alive
    s.tops[12:18] = [-1] * 6
    s, ev = turn(s, 2, "1ys", Play(C("4yh"), 0, 5))
    assert s.alive[0] and "eliminate" not in kinds(ev) and s.pending() == [0]


def test_an_eliminated_players_hand_goes_face_up_to_the_discard_pile():
    """Ruling: "Eliminated players' piles and hand go to the discard pile" (the discard pile
    is public, seed 3C): every seat now sees the victim's former hand cards there, and the
    ghost starts with no cards at all."""
    s = build(3, tops={1: "1rh 2yh 3gh 1bh 2kh 4bc"}, hands={0: "4rh", 1: "3ys 2gc"},
              draw="1ys")
    s, _ = turn(s, 0, "1ys", Play(C("4rh"), 1, 5))
    view = E.view(s, 2)
    assert {LABELS[C("3ys")], LABELS[C("2gc")]} <= set(view["discard"])
    assert view["seats"][1]["hand_count"] == 0 and view["seats"][1]["piles"] == []
    assert LABELS[C("3ys")] not in E.secret_labels(s, 2)


def test_a_seats_view_shows_its_own_hand_and_only_counts_for_the_others():
    """DESIGN §2: `view(state, seat)` is "everything that seat may know": its own hand and
    this turn's draws, the others' hand sizes and publicly shown cards, never the draw
    pile's order."""
    s = build(3, hands={0: "1rc 2yh", 1: "3gt", 2: "4bs 1yt 2gs"}, draw="3ys")
    s, _ = act(s, 0, miss_prediction("3ys"))
    mine, theirs = E.view(s, 0), E.view(s, 1)
    assert sorted(mine["hand"]) == sorted(LABELS[c] for c in s.hands[0])
    assert mine["drawn"] == [LABELS[C("3ys")]] and theirs["drawn"] == []
    assert theirs["hand"] == [LABELS[C("3gt")]]
    assert [p["hand_count"] for p in theirs["seats"]] == [3, 1, 3]
    assert all(p["known_hand"] == [] for p in theirs["seats"])
    assert isinstance(theirs["draw_pile"], int)
    assert "seed" not in theirs and str(s.seed) not in str(theirs)
