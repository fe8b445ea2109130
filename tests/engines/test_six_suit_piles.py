"""Six Suit counts the cards under each pile (issue 17: the board shows every pile's depth).

Piles are face up and every play is announced with the pile it covers (rulings: a play goes
"on any player's top card"), so how deep each pile is is public: the view gives it per pile.
Recycling ("all cards under the top card of every pile ... are shuffled into a new draw
pile") empties every pile down to its top card; an eliminated player's piles go to the
discard pile. A game saved before piles were counted loads with the depth unknown, and
counts again from the next recycle, when every pile is one card deep."""

from __future__ import annotations

import json
import random
from pathlib import Path

from bot.pictures.samples import random_states
from engines.six_suit.rules import ENGINE as E
from engines.six_suit.rules import Play, Predict
from tests.engines.test_six_suit import C, act, build, turn

DATA = Path(__file__).resolve().parents[1] / "bot" / "data"


def test_a_play_deepens_only_the_pile_it_covers():
    """Rule: a play goes on one named pile of any player; the covered card stays under it."""
    s = build(3, hands={0: "1yh 3ks"}, draw="4bb 4ks")
    s, _ = turn(s, 0, "4bb", Play(C("1yh"), 0, 0))  # 1yh on 1rc: number only
    seats = E.view(s, None)["seats"]
    assert seats[0]["depth"] == [1, 0, 0, 0, 0, 0]
    assert seats[1]["depth"] == seats[2]["depth"] == [0] * 6
    assert sum(seats[0]["depth"]) == len(seats[0]["under"])


def test_depth_matches_the_covered_cards_through_whole_games():
    """Through random games (recycles and eliminations included) every living player's
    pile depths add up to the cards under their piles, a play adds one to its pile only,
    a recycle leaves every pile one card deep and a ghost has no piles."""
    recycled = eliminated = 0
    for n, seed in ((12, 1), (5, 2), (2, 3), (4, 4)):
        before = E.new_game(n, seed)
        for state in random_states(E, n, seed, 900):
            view = E.view(state, None)
            for seat in view["seats"]:
                if seat["alive"]:
                    assert sum(seat["depth"]) == len(seat["under"])
                else:
                    assert seat["depth"] == [] and seat["piles"] == []
            if state.last and state.last is not before.last and before.alive == state.alive:
                _, _, t, p, _ = state.last
                grew = [a - b for a, b in zip(state.depth, before.depth, strict=True)]
                if len(state.draw) <= len(before.draw):  # no recycle in between
                    assert grew[t * 6 + p] == 1 and sum(grew) == 1
            if len(state.draw) > len(before.draw) + 1:
                recycled += 1
                assert all(d in (0, 1) for d in state.depth)
            eliminated += before.alive != state.alive
            before = state
    assert recycled and eliminated


def test_a_game_saved_before_piles_were_counted_loads_with_depth_unknown():
    """A state dumped by the version before this one (no `depth`) loads; its piles' depths
    are unknown (None in the view, the per-player count of covered cards still given) until
    the next recycle, from when they are counted again."""
    state = E.load((DATA / "six_suit_state_before_pile_depth.json").read_text())
    assert state.depth == []
    view = E.view(state, None)
    assert all(seat["depth"] is None for seat in view["seats"] if seat["alive"])
    assert any(seat["under"] for seat in view["seats"])
    assert E.dump(E.load(E.dump(state))) == E.dump(state)
    rng = random.Random(5)
    while E.to_act(state) and state.depth == []:
        seat = rng.choice(sorted(E.to_act(state)))
        state = E.apply(state, seat, rng.choice(list(E.legal_actions(state, seat)))).state
    assert E.to_act(state)  # a recycle came: counted again, every pile down to its top card
    assert len(state.depth) == 6 * state.n
    for seat in E.view(state, None)["seats"]:
        if seat["alive"]:
            assert sum(seat["depth"]) == len(seat["under"])


def test_recycling_leaves_every_pile_one_card_deep():
    """Ruling: recycling shuffles every card under the top cards into the new draw pile."""
    s = build(2, hands={0: "4rb"})
    s.draw = []
    s.under = [[C("1ys")], [C("2gc")]]
    s.depth = [0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0]
    s, _ = act(s, 0, Predict(0, 0, 0))
    assert s.depth == [0] * 12
    assert json.loads(E.dump(s))["depth"] == [0] * 12
