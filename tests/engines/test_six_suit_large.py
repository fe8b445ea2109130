"""Six Suit's hard level at large tables (5 to 12 players, everyone for themselves): its own
move ranking (`engines.six_suit.large`), used only there; every other table's hard moves
are unchanged."""

from __future__ import annotations

import hashlib
import random

import pytest

from engines import ENGINES
from engines.ai_levels import with_level
from engines.six_suit.rules import PLAY

ENGINE = ENGINES["six_suit"]


def _hard_play_moves(n: int, teams: int, seed: int = 11, count: int = 10) -> str:
    """sha256 (16 hex digits) of the hard moves at every third PLAY decision after free time
    (more than one legal move) of a normal self-play deal, `count` of them."""
    state = ENGINE.new_game(n, seed, {"teams": teams})
    rng = random.Random(seed)
    moves: list[str] = []
    decisions = 0
    while ENGINE.outcome(state) is None and len(moves) < count:
        seat = min(ENGINE.to_act(state))
        if (state.phase == PLAY and not state.in_free_time()
                and len(ENGINE.legal_actions(state, seat)) > 1):
            decisions += 1
            if decisions % 3 == 0:
                moves.append(repr(ENGINE.ai_action(with_level(state, "hard"), seat, random.Random(5))))
        state = ENGINE.apply(state, seat, ENGINE.ai.choose(ENGINE, state, seat, rng)).state
    assert len(moves) == count
    return hashlib.sha256("\n".join(moves).encode()).hexdigest()[:16]


# As main played them before the large-table ranking (a33ab5d).
HARD_PLAY_DIGESTS = {
    (2, 0): "fb3cd7f2bc89d047", (3, 0): "2555f11c398720f1", (4, 0): "954a7fd87f46e6f0",
    (4, 2): "1b907e9a2b7cc581", (6, 2): "f76ce3170189bd49", (6, 3): "c7701cb72fe777d0",
    (8, 4): "aed28f5f06646559",
}


@pytest.mark.parametrize(("n", "teams"), sorted(HARD_PLAY_DIGESTS))
def test_hard_plays_at_two_to_four_players_and_in_teams_hash_as_before(n, teams):
    """The large-table ranking changes no hard play at 2, 3 or 4 players, nor in team games
    of any size: the hard moves at PLAY decisions of a normal deal hash as they did."""
    assert _hard_play_moves(n, teams) == HARD_PLAY_DIGESTS[(n, teams)]


@pytest.mark.parametrize(("n", "teams", "large"), [
    (2, 0, False), (3, 0, False), (4, 0, False), (4, 2, False), (6, 2, False),
    (6, 3, False), (8, 4, False), (12, 6, False),
    (5, 0, True), (6, 0, True), (7, 0, True), (8, 0, True), (12, 0, True)])
def test_large_plan_is_used_only_at_five_or_more_players_without_teams(n, teams, large):
    """The hard level takes the large-table plan (its own ranking, unsearched) at 5 to 12
    players everyone for themselves; at 2-4 players and in team games of any size it keeps
    the search around the normal move."""
    from engines.six_suit.ai import LARGE_PLAN, PLAN

    state = ENGINE.new_game(n, 3, {"teams": teams})
    plan = PLAN.for_state(state)
    assert (plan is LARGE_PLAN) is large
    if not large:
        assert plan is PLAN and plan.candidates == 3 and plan.own_first_at == 0


@pytest.mark.parametrize("n", [5, 8, 12])
def test_hard_at_large_tables_plays_its_planned_or_normal_move_without_a_search(
        n, monkeypatch):
    """At 5+ players everyone for themselves, hard plays a sure elimination or the chain
    planner's move when it has one, else the normal move: no playout is ever simulated."""
    import engines.ai_levels as levels
    from engines.six_suit.ai import sure_elimination
    from engines.six_suit.chains import chain_move

    def no_playout(*args, **kwargs):
        raise AssertionError("a large table's hard move was searched")

    monkeypatch.setattr(levels, "_playout", no_playout)
    state = ENGINE.new_game(n, 21)
    rng = random.Random(21)
    checked = 0
    while ENGINE.outcome(state) is None and checked < 12:
        seat = min(ENGINE.to_act(state))
        if state.phase == PLAY and not state.in_free_time():
            hard = ENGINE.ai_action(with_level(state, "hard"), seat, random.Random(4))
            normal = ENGINE.ai_action(state, seat, random.Random(4))
            own = ENGINE.determinize(state, seat, random.Random(0))
            planned = sure_elimination(ENGINE, own, seat) or chain_move(ENGINE, own, seat,
                                                                        normal)
            assert hard == (planned or normal)
            checked += 1
        state = ENGINE.apply(state, seat, ENGINE.ai.choose(ENGINE, state, seat, rng)).state
    assert checked == 12
