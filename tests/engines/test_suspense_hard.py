"""The hard Suspense AI (issue 19): its worlds spread over the possible secret cards, its
decisions reproducible from the rng, its search a counted budget."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from engines import ENGINES
from engines.ai_levels import with_level, worlds_for
from engines.suspense import ai
from engines.suspense.rules import ALL_CARDS, LABEL_INDEX
from tests.engines.test_suspense import scripted

E = ENGINES["suspense"]


def _three_player_middle(dealer: int = 0):
    """Three players, one card face up each, seat 1 to move; nine cards unseen by seat 1."""
    return scripted(["⚪1 ⚪2 ⚪3", "⚪5 ⚪6 ⚫1", "⚫3 ⚫4 ⚫5 ❗"], ["⚪4", "⚫2", ""],
                    secret="⚫6", dealer=dealer, turn=1)


def test_determinize_can_fix_the_secret_card_and_hides_the_rest():
    s = _three_player_middle(dealer=0)
    for secret in ("❗", "⚪1", "⚫6"):
        w = E.determinize(s, 1, random.Random(3), secret=LABEL_INDEX[secret])
        assert w.secret == LABEL_INDEX[secret]
        assert w.hands[1] == s.hands[1] and w.play_masks == s.play_masks
        assert [h.bit_count() for h in w.hands] == [h.bit_count() for h in s.hands]
        assert sum(w.hands) | sum(w.play_masks) | 1 << w.secret == ALL_CARDS
    with pytest.raises(ValueError):  # a card seat 1 holds cannot be the secret
        E.determinize(s, 1, random.Random(3), secret=LABEL_INDEX["⚪5"])


@pytest.mark.parametrize("count", [4, 9, 16, 24])
def test_search_worlds_spread_evenly_over_the_possible_secrets(count):
    """Every card seat 1 cannot see is the secret in count // 9 or count // 9 + 1 worlds,
    never more (independent worlds would leave secrets untried and draw others twice)."""
    s = _three_player_middle(dealer=0)
    unseen = ALL_CARDS & ~(s.hands[1] | sum(s.play_masks))
    worlds = ai.search_worlds(E, s, 1, random.Random(5), count)
    assert len(worlds) == count
    per_secret = Counter(w.secret for w in worlds)
    assert all(unseen >> c & 1 for c in per_secret)
    assert max(per_secret.values()) - min(per_secret.values(), default=0) <= 1
    assert len(per_secret) == min(count, unseen.bit_count())
    for w in worlds:
        assert w.hands[1] == s.hands[1] and w.play_masks == s.play_masks
        assert sum(w.hands) | sum(w.play_masks) | 1 << w.secret == ALL_CARDS


def test_search_worlds_of_the_dealer_keep_the_secret_it_saw():
    s = _three_player_middle(dealer=1)
    worlds = ai.search_worlds(E, s, 1, random.Random(5), 12)
    assert {w.secret for w in worlds} == {s.secret}
    assert len({tuple(w.hands) for w in worlds}) > 1  # the other hands are still resampled


def test_search_worlds_are_reproducible_from_the_rng():
    s = _three_player_middle(dealer=0)
    a = ai.search_worlds(E, s, 1, random.Random(9), 16)
    b = ai.search_worlds(E, s, 1, random.Random(9), 16)
    assert [(w.secret, w.hands) for w in a] == [(w.secret, w.hands) for w in b]


def test_hard_decision_is_the_same_from_the_same_rng_at_three_players():
    s = _three_player_middle(dealer=0)
    s = with_level(s, "hard")
    moves = {E.ai_action(s, 1, random.Random(seed)) for seed in range(3)}
    for seed in range(3):
        assert E.ai_action(s, 1, random.Random(seed)) == E.ai_action(s, 1, random.Random(seed))
    assert moves <= set(E.legal_actions(s, 1))


def test_hard_search_samples_the_plans_number_of_worlds(monkeypatch):
    """The budget is a count: the search asks the sampler for exactly worlds_for(plan) worlds
    and plays each candidate once in each (no more worlds on a quiet machine)."""
    s = _three_player_middle(dealer=0)
    s = with_level(s, "hard")
    asked: list[int] = []
    real = ai.search_worlds

    def counting(engine, state, seat, rng, count):
        asked.append(count)
        return real(engine, state, seat, rng, count)

    monkeypatch.setattr(E, "ai", dataclasses.replace(E.ai, worlds=counting))
    E.ai_action(s, 1, random.Random(1))
    assert asked == [worlds_for(ai.PLAN, s)]


def test_hard_dealer_stays_in_while_the_card_that_beats_it_may_still_be_played():
    """Idea: the dealer (seat 1) sees the secret ⚪3, "lowest white number kept in hand". It
    holds ⚪2, but ⚪1 is in an opponent's hand (not face up, not the secret), so right now
    the dealer would not meet it, and the normal AI, which judges a move as if the match
    ended after it, folds for its 1 point. But the match goes on: if the holder plays ⚪1,
    the dealer's ⚪2 wins 2 points. The hard search plays the match out and stays in."""
    from engines.suspense.rules import FOLD

    s = scripted(["⚫2 ⚫3 ⚫4", "❗ ⚪2 ⚫5", "⚪1 ⚪5 ⚪6"], ["⚫1", "⚪4", "⚫6"],
                 secret="⚪3", dealer=1, turn=1)
    s.log = [(1, "play", LABEL_INDEX["⚪4"]), (2, "play", LABEL_INDEX["⚫6"]),
             (0, "play", LABEL_INDEX["⚫1"])]
    assert {E.ai_action(s, 1, random.Random(seed)) for seed in range(5)} == {FOLD}
    s = with_level(s, "hard")
    hard = [E.ai_action(s, 1, random.Random(seed)) for seed in range(10)]
    assert FOLD not in hard
    assert all(getattr(move, "card", None) for move in hard)  # it plays on, never passes
