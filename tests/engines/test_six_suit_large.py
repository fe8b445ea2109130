"""Six Suit's hard level at large tables (5 to 12 players, teams or not): no search, its
own move ranking (`rank` by `large_value`: no gifts of a kill), used only there; the hard
moves at 2 to 4 players (4 in 2 teams included) are unchanged."""

from __future__ import annotations

import hashlib
import random

import pytest

from engines import ENGINES
from engines.ai_levels import with_level
from engines.six_suit.ai import gives_kill, rank
from engines.six_suit.cards import card_of
from engines.six_suit.rules import PLAY, Play

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
    (4, 2): "1b907e9a2b7cc581",
}


@pytest.mark.parametrize(("n", "teams"), sorted(HARD_PLAY_DIGESTS))
def test_hard_plays_at_two_to_four_players_hash_as_before(n, teams):
    """The large-table ranking changes no hard play at 2, 3 or 4 players (4 in 2 teams
    too): the hard moves at PLAY decisions of a normal deal hash as they did."""
    assert _hard_play_moves(n, teams) == HARD_PLAY_DIGESTS[(n, teams)]


@pytest.mark.parametrize(("n", "teams", "large"), [
    (2, 0, False), (3, 0, False), (4, 0, False), (4, 2, False), (6, 2, True),
    (6, 3, True), (8, 4, True), (12, 6, True), (12, 2, True),
    (5, 0, True), (6, 0, True), (7, 0, True), (8, 0, True), (12, 0, True)])
def test_large_plan_is_used_at_five_or_more_players_teams_or_not(n, teams, large):
    """The hard level takes the large-table plan (its own ranking, unsearched) at 5 to 12
    players, in teams or not (team tables since the screens of 2026-11-25: side against
    side it beat normal by more than the search did); at 2-4 players, 4 in 2 teams
    included, it keeps the search around the normal move."""
    from engines.six_suit.ai import LARGE_PLAN, PLAN

    state = ENGINE.new_game(n, 3, {"teams": teams})
    plan = PLAN.for_state(state)
    assert (plan is LARGE_PLAN) is large
    if not large:
        assert plan is PLAN and plan.candidates == 3 and plan.own_first_at == 0


@pytest.mark.parametrize(("n", "teams"), [(5, 0), (8, 0), (12, 0), (6, 2), (6, 3), (8, 4),
                                          (12, 2), (12, 6)])
def test_hard_at_large_tables_plays_its_planned_or_own_first_move_without_a_search(
        n, teams, monkeypatch):
    """At 5+ players, teams or not, hard plays a sure elimination or the chain planner's
    move when it has one, else the first move of its own ranking: no playout is ever
    simulated."""
    import engines.ai_levels as levels
    from engines.six_suit.ai import sure_elimination
    from engines.six_suit.chains import chain_move

    def no_playout(*args, **kwargs):
        raise AssertionError("a large table's hard move was searched")

    monkeypatch.setattr(levels, "_playout", no_playout)
    state = ENGINE.new_game(n, 21, {"teams": teams})
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
            assert hard == (planned or rank(ENGINE, own, seat, random.Random(0))[0])
            checked += 1
        state = ENGINE.apply(state, seat, ENGINE.ai.choose(ENGINE, state, seat, rng)).state
    assert checked == 12


def _four_red_tops(state, target: int) -> None:
    """`target`'s tops: four red cards and two yellow ones (reach 4 on colour), numbers and
    shapes mixed so that no other attribute is near a six suit."""
    state.tops[target * 6:target * 6 + 6] = [
        card_of(0, 0, 0), card_of(1, 0, 1), card_of(2, 0, 2), card_of(3, 0, 3),
        card_of(0, 1, 1), card_of(1, 1, 2)]


def test_gives_kill_is_a_play_that_leaves_an_opponent_one_card_from_a_six_suit():
    """Rule (hard, large tables): covering an opponent's yellow pile with a red card leaves
    them at five reds (reach 5: a red or black card that may cover the last pile finishes
    them) — a gift; the same play in free time (no eliminations yet) or on the seat's own
    piles is not."""
    state = ENGINE.new_game(8, 3)
    state.round = state.options.free_time_rounds  # free time is over
    _four_red_tops(state, 2)
    red = card_of(1, 0, 1)  # a red 2 heart on the yellow 1 heart (pile 4): five reds
    assert gives_kill(state, 0, red, 2, 4)
    assert not gives_kill(state, 0, card_of(1, 2, 1), 2, 4)  # green: still four reds
    assert not gives_kill(state, 2, red, 2, 4)  # the seat's own pile
    state.round = 0
    assert not gives_kill(state, 0, red, 2, 4)  # free time


def test_gives_kill_in_teams_is_a_setup_on_an_opponent_never_on_a_teammate():
    """Rule (hard, large team tables): the same five-reds play is a gift of a kill on an
    opponent, and none on a teammate (teammates never eliminate each other)."""
    state = ENGINE.new_game(6, 3, {"teams": 2})  # seats 0, 2, 4 against 1, 3, 5
    state.round = state.options.free_time_rounds
    _four_red_tops(state, 2)
    _four_red_tops(state, 3)
    red = card_of(1, 0, 1)
    assert not gives_kill(state, 0, red, 2, 4)  # seat 2 is seat 0's teammate
    assert gives_kill(state, 0, red, 3, 4)


@pytest.mark.parametrize("n", [5, 8, 12])
def test_hard_at_large_tables_never_gives_a_kill_where_normal_does(n):
    """Rule (hard, large tables): outside its own planned kills, the hard seat never leaves
    an opponent one card from a six suit (someone else would finish them), where the
    normal AI, which credits raising an opponent's danger, does so at times."""
    from engines.six_suit.ai import sure_elimination
    from engines.six_suit.chains import chain_move

    normal_gifts = hard_gifts = 0
    for seed in range(3):
        state = ENGINE.new_game(n, 40 + seed)
        rng = random.Random(seed)
        while ENGINE.outcome(state) is None:
            seat = min(ENGINE.to_act(state))
            if state.phase == PLAY and not state.in_free_time() and state.current == seat:
                normal = ENGINE.ai_action(state, seat, random.Random(4))
                hard = ENGINE.ai_action(with_level(state, "hard"), seat, random.Random(4))
                own = ENGINE.determinize(state, seat, random.Random(0))
                planned = sure_elimination(ENGINE, own, seat) or chain_move(
                    ENGINE, own, seat, normal)
                normal_gifts += isinstance(normal, Play) and gives_kill(
                    state, seat, normal.card, normal.target, normal.pile)
                hard_gifts += hard != planned and isinstance(hard, Play) and gives_kill(
                    state, seat, hard.card, hard.target, hard.pile)
            state = ENGINE.apply(state, seat, ENGINE.ai.choose(ENGINE, state, seat, rng)).state
    assert normal_gifts > 0 and hard_gifts == 0
