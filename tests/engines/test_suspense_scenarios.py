"""Suspense: scenario tests from a second, independent rules audit.

Each test names the seed rule (seeds/suspense.txt) or the ruling (RULINGS.md, Suspense) it
checks; deals are rigged with `deal` from test_suspense_audit.
"""

from __future__ import annotations

from engines.suspense.rules import ENGINE as E
from engines.suspense.rules import FOLD, PASS, Play
from tests.engines.test_suspense_audit import deal, end_event, ended, run


def test_a_fold_after_everyone_else_still_in_passed_ends_the_match():
    """RULINGS: the match ends "when every player still in has passed since the last play".
    Three players who have all played: seats 0 and 1 pass, then seat 2 folds: the two still
    in have both passed since the last play, so the fold itself ends the match."""
    s = deal(["⚪1 ⚪2", "⚪3 ⚪4 ⚫1", "⚫2 ⚫3 ⚫5"], ["❗ ⚪5", "⚪6", "⚫4"], "⚫6", turn=0)
    s, ev = run(s, PASS, PASS)
    assert not ended(ev) and E.to_act(s) == {2}
    s, ev = run(s, FOLD)
    end = end_event(ev)
    assert end.data["why"] == "everyone still in passed" and end.data["folded"] == [2]
    # ⚫6 "biggest number kept in hand": ⚪2 / ⚪4 / ⚫5 → folded seat 2 meets (0 points), the
    # other two neither fold nor meet (0 each)
    assert end.data["met"] == [2] and end.data["points"] == [0, 0, 0]
    assert end.data["deciding"][2] == []  # the ⚫5 that decided it stays hidden in the hand


def test_a_play_after_passes_keeps_the_match_going_for_everyone():
    """RULINGS: "every player still in has passed since the last play": a play in between
    means the earlier passes no longer count, for every player."""
    s = deal(["⚪1 ⚪2", "⚪3 ⚪4 ⚫1", "⚫2 ⚫3 ⚫5"], ["❗ ⚪5", "⚪6", "⚫4"], "⚫6", turn=0)
    s, ev = run(s, PASS, PASS, Play("⚫2"), PASS, PASS)
    assert not ended(ev) and E.to_act(s) == {2}
    s, ev = run(s, PASS)
    assert end_event(ev).data["why"] == "everyone still in passed"


def test_the_match_cap_at_its_lower_limit_ends_the_game_after_one_match():
    """RULINGS General: a cap "when the cap ends a game, Outcome.reason says so": with
    `max_matches=1` the first match ends the game, the highest score wins."""
    s = deal(["⚪1 ⚪2 ⚪3 ⚪4", "⚪6 ⚫1 ⚫2 ⚫3 ⚫5"], ["❗", "⚪5 ⚫4"], "⚫6", turn=0,
             options={"max_matches": 1})
    s, _ = run(s, PASS, PASS)
    out = E.outcome(s)
    assert out is not None and out.winners == {1} and "safety cap" in out.reason
    assert E.to_act(s) == frozenset() and s.scores == [0, 2]
