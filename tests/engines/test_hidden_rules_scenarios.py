"""Hidden Rules: scenario tests from a second, independent rules audit.

Each test names the seed sentence (seeds/hidden_rules.txt) or the ruling (RULINGS.md, Hidden
Rules) it checks; states are scripted with `scripted` from test_hidden_rules.
"""

from __future__ import annotations

from engines.cards import Card
from engines.hidden_rules.rules import ENGINE, Challenge, Enforce, Play, StartTrick
from tests.engines.test_hidden_rules import scripted

C = Card.parse
SPADE_YAWP = (7, 1)  # T07 a spade → A01 shout "YAWP"
HEART_PLEASE = (6, 8)  # T06 a heart → A08 say "please"
ACE_SORRY = (1, 12)  # T01 an ace → A12 say "sorry"


def act(s, seat, action):
    step = ENGINE.apply(s, seat, action)
    return step.state, list(step.events)


def _dead_trick(scores: list[int]):
    """Three players, seat 1 empty-handed: seat 2 then seat 0 play their last cards and the
    total stays below 21, so nobody can play and the trick will be discarded."""
    s = scripted(["2c", "", "3d"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY], turned="5c",
                 scores=scores)
    s, _ = act(s, 2, Play(C("3d")))
    s, _ = act(s, 0, Play(C("2c")))
    assert s.trick_over and s.taker == -1
    return s


def test_target_is_checked_when_a_discarded_trick_is_collected_too():
    """Seed: "The first player to end a round with 3 or more points ... wins"; RULINGS: "The
    first player with ≥ 3 points when a trick is collected wins". A discarded trick ends a
    round as well: points won by enforcing during it count when its opener starts the next
    one. (Fixed: the target used to be checked only when a trick was taken.)"""
    s = _dead_trick([2, 0, 0])
    # Seat 1 wrongly enforces seat 2's rule on seat 0's 2♣ (no ace): seat 0 challenges and
    # wins, +1 → 3 points while the dead trick waits to be collected.
    s, _ = act(s, 1, Enforce(2, hint="no apology"))
    s, _ = act(s, 0, Challenge())
    assert s.scores == [3, -1, 1] and ENGINE.outcome(s) is None
    s, events = act(s, 0, StartTrick())
    result = ENGINE.outcome(s)
    assert result is not None and result.winners == {0} and "3 points" in result.reason
    assert [e.kind for e in events][:2] == ["trick_discarded", "game_over"]
    assert ENGINE.to_act(s) == frozenset()


def test_a_discarded_trick_below_the_target_just_starts_the_next_one():
    """RULINGS: "if no one can play, the trick is discarded" — nobody scores for it and play
    goes on with fresh hands when nobody has reached the target."""
    s = _dead_trick([2, 0, 0])
    s, events = act(s, 0, StartTrick())
    assert ENGINE.outcome(s) is None and s.scores == [2, 0, 0]
    assert "trick_discarded" in [e.kind for e in events] and all(len(h) == 5 for h in s.hands)
