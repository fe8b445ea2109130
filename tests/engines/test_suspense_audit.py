"""Independent rules audit of the Suspense engine (seeds/suspense.txt, RULINGS.md "Suspense").

Every test names and quotes the rule it checks. Scenarios are scripted deals played through
`apply`, so the figures checked are the ones a player would see. Tests named `test_issue_*`
are the scenarios the issue lists; `test_rule_*` cover the remaining rule sentences and edges;
`test_hidden_*` check views, events and `determinize` against hidden information.
"""

from __future__ import annotations

import itertools
import json
import random

import pytest
from pydantic import ValidationError

from engines.core import IllegalActionError
from engines.suspense.rules import (
    CARD_LABELS,
    CONDITION_SPEC,
    ENGINE,
    FOLD,
    LABEL_INDEX,
    PASS,
    VALUE,
    Play,
    SuspenseState,
    meeters,
)

E = ENGINE
ALL = (1 << 13) - 1


# --------------------------------------------------------------------------- helpers
def mask(labels: str) -> int:
    return sum(1 << LABEL_INDEX[label] for label in labels.split())


def labels_of(m: int) -> list[str]:
    return [CARD_LABELS[i] for i in range(13) if m >> i & 1]


def rig(state: SuspenseState, hands: list[str], played: list[str], secret: str, *,
        dealer: int | None = None, turn: int | None = None, folded: tuple[int, ...] = (),
        passed: tuple[int, ...] = (), scores: list[int] | None = None) -> SuspenseState:
    """A copy of `state` whose current match has these hands, face-up cards and secret card
    (space-separated labels); scores, match number and options are kept unless given."""
    s = state.clone()
    n = s.n
    assert len(hands) == len(played) == n
    s.hands = [mask(h) for h in hands]
    s.played = [[LABEL_INDEX[c] for c in p.split()] for p in played]
    s.play_masks = [mask(p) for p in played]
    s.secret = LABEL_INDEX[secret]
    if dealer is not None:
        s.dealer = dealer
    s.turn = s.dealer if turn is None else turn
    s.folded = sum(1 << p for p in folded)
    s.passed = sum(1 << p for p in passed)
    s.total = sum(VALUE[c] for p in s.played for c in p)
    if scores is not None:
        s.scores = list(scores)
    s.log = [(p, "play", c) for p in range(n) for c in s.played[p]]
    s.seen = [s.hands[p] | s.play_masks[p] | (1 << s.secret if p == s.dealer else 0)
              for p in range(n)]
    s.seen_public = sum(s.play_masks)
    every = [*s.hands, *s.play_masks, 1 << s.secret]
    assert sum(every) == ALL and sum(m.bit_count() for m in every) == 13, \
        "a scripted deal uses each of the 13 cards exactly once"
    return s


def deal(hands: list[str], played: list[str], secret: str, options=None, **kw) -> SuspenseState:
    return rig(E.new_game(len(hands), 1, options), hands, played, secret, **kw)


def run(state: SuspenseState, *actions):
    """Apply actions for whoever is to act; return (final state, all events)."""
    events = []
    for action in actions:
        step = E.apply(state, state.turn, action)
        state = step.state
        events.extend(step.events)
    return state, events


def end_event(events):
    ends = [e for e in events if e.kind == "match_end"]
    assert len(ends) == 1, [e.kind for e in events]
    return ends[0]


def ended(events) -> bool:
    return any(e.kind == "match_end" for e in events)


# --------------------------------------------------------------------------- the deal
@pytest.mark.parametrize("n, size", [(2, 6), (3, 4)])
def test_issue_deal_with_the_secret_card(n, size):
    """Seed: "the dealer shuffles the cards and evenly deals them out ... Dealing the cards
    evenly should leave behind one extra card. The dealer places this secret card face-down"
    — 6 each with 2 players, 4 each with 3, the 13th card is the secret, nothing face up."""
    secrets = set()
    for seed in range(30):
        s = E.new_game(n, seed)
        assert [h.bit_count() for h in s.hands] == [size] * n
        assert sum(s.hands) | 1 << s.secret == ALL
        assert sum(h.bit_count() for h in s.hands) == 12
        assert not any(s.play_masks) and s.total == 0 and s.match_no == 1
        assert s.folded == 0 and s.passed == 0
        secrets.add(s.secret)
    assert len(secrets) >= 8  # the secret card is a shuffled card, not a fixed one


def test_issue_dealers_private_look():
    """Seed: "DEALER'S PRIVILEGE — Only the dealer may look at the secret card." Only the
    dealer's view and a private event show it; other seats and spectators never do, in any
    match (the privilege moves with the deal)."""
    state = E.new_game(3, 21)
    rng = random.Random(5)
    matches = 0
    step_events = []
    while E.to_act(state) and matches < 4:
        label = CARD_LABELS[state.secret]
        for seat in (None, 0, 1, 2):
            view = E.view(state, seat)
            blob = json.dumps({k: v for k, v in view.items() if k != "last_match"},
                              ensure_ascii=False)
            if seat == state.dealer:
                assert view["you"]["secret"] == label and view["you"]["is_dealer"]
            else:
                assert (view["you"] or {}).get("secret") is None
                assert label not in blob, (seat, label)
        for e in step_events:
            if e.kind == "secret_card":
                assert e.visible_to == frozenset({state.dealer})
                assert label in e.text and e.data["card"] == label
            elif e.visible_to is None and e.kind != "match_end":
                assert label not in e.text + json.dumps(dict(e.data), ensure_ascii=False)
        legal = E.legal_actions(state, state.turn)
        step = E.apply(state, state.turn, PASS if PASS in legal else rng.choice(legal))
        step_events = list(step.events)
        matches += any(e.kind == "match_start" for e in step.events)
        state = step.state
    assert matches >= 2


def test_rule_first_dealer_random_then_clockwise_each_match():
    """RULINGS General: "Dealer: random for the first deal ..., then one seat clockwise each
    deal"; seed: turns start "with the dealer" in every match."""
    assert {E.new_game(3, seed).dealer for seed in range(30)} == {0, 1, 2}
    assert {E.new_game(2, seed).dealer for seed in range(30)} == {0, 1}
    state = E.new_game(3, 8, {"points_target": 20})
    dealers = [state.dealer]
    assert E.to_act(state) == {state.dealer}
    while len(dealers) < 7:
        legal = E.legal_actions(state, state.turn)
        step = E.apply(state, state.turn, PASS if PASS in legal else legal[0])
        state = step.state
        if any(e.kind == "match_start" for e in step.events):
            dealers.append(state.dealer)
            assert E.to_act(state) == {state.dealer}
            assert E.view(state, None)["dealer"] == state.dealer
    assert all(b == (a + 1) % 3 for a, b in itertools.pairwise(dealers))


# --------------------------------------------------------------------------- turns
def test_issue_forced_first_play():
    """Seed: "On your first turn of a match, you MUST choose one card from your hand and play
    it face-up" — for the dealer and for every other seat, even after others have played."""
    s = deal(["❗ ⚪1 ⚪2 ⚪3", "⚪4 ⚪5 ⚪6 ⚫1", "⚫2 ⚫3 ⚫4 ⚫5"], ["", "", ""], "⚫6", dealer=2)
    for seat in (2, 0, 1):
        assert E.to_act(s) == {seat}
        legal = E.legal_actions(s, seat)
        assert legal == [Play(c) for c in labels_of(s.hands[seat])]
        for bad in (PASS, FOLD):
            with pytest.raises(IllegalActionError):
                E.apply(s, seat, bad)
        s = E.apply(s, seat, legal[0]).state
    # second turn of the dealer: now Play, Pass or Fold
    assert E.to_act(s) == {2}
    assert E.legal_actions(s, 2)[-2:] == [PASS, FOLD]


def test_issue_play_pass_fold():
    """Seed: "On subsequent turns, do one of the following: Play ... This card is now said to
    be in play. Pass: Skip your turn. Note: You are still in the game. Fold ... " RULINGS:
    "Fold lasts the rest of the match; a folded player takes no more turns"."""
    s = deal(["⚪1 ⚪2 ⚪3", "⚪5 ⚪6 ⚫1", "⚫3 ⚫4 ⚫5"], ["❗", "⚪4", "⚫2"], "⚫6", turn=0)
    # Play: the card leaves the hand, goes face up in front of the player, total grows
    s, ev = run(s, Play("⚪3"))
    assert E.view(s, None)["players"][0]["in_play"] == ["❗", "⚪3"]
    assert E.view(s, 0)["you"]["hand"] == ["⚪1", "⚪2"]
    assert s.total == 9 and ev[0].data == {"seat": 0, "card": "⚪3", "total": 9}
    # Pass: skip the turn, still in — the seat gets its next turn and may still play
    s, _ = run(s, PASS)
    assert E.to_act(s) == {2} and E.view(s, None)["players"][1]["passed"] is True
    s, _ = run(s, Play("⚫3"))  # a play; seat 1's pass no longer counts
    assert E.view(s, None)["players"][1]["passed"] is False
    # Fold: seat 0 leaves the match for good
    s, ev = run(s, FOLD)
    assert [e.kind for e in ev] == ["fold"] and E.to_act(s) == {1}
    assert E.legal_actions(s, 0) == []
    s, _ = run(s, Play("⚫1"))  # seat 1 (who passed before) plays: still in the game
    assert E.to_act(s) == {2}
    s, _ = run(s, PASS)
    assert E.to_act(s) == {1}  # seat 0 skipped: folded
    s, ev = run(s, PASS)
    end = end_event(ev)
    assert end.data["folded"] == [0] and end.data["why"] == "everyone still in passed"


def test_rule_fold_ends_with_the_match():
    """RULINGS: "Fold lasts the rest of the match" — not longer: in the next match the seat
    is dealt in and plays again."""
    s = deal(["⚪1 ⚪2 ⚪3 ⚪4", "⚪6 ⚫1 ⚫2 ⚫3"], ["❗", "⚪5 ⚫4 ⚫5"], "⚫6", dealer=1, turn=0)
    s, ev = run(s, FOLD, PASS)
    assert end_event(ev).data["folded"] == [0]
    assert s.folded == 0 and s.match_no == 2 and s.dealer == 0
    assert E.to_act(s) == {0} and all(isinstance(a, Play) for a in E.legal_actions(s, 0))
    assert E.view(s, None)["players"][0]["folded"] is False


def test_rule_empty_hand_passes_automatically_even_for_the_player_who_just_emptied_it():
    """RULINGS: "A player with an empty hand passes automatically." A player who plays their
    last card while everyone else has folded has passed since that play: the match ends."""
    s = deal(["⚪1", "⚪2 ⚪3 ⚪4 ⚪6", "⚫1 ⚫2"], ["❗ ⚪5", "⚫3", "⚫4 ⚫5"], "⚫6",
             turn=0, folded=(1, 2))
    s, ev = run(s, Play("⚪1"))
    assert [e.kind for e in ev][:3] == ["play", "auto_pass", "match_end"]
    assert ev[1].data == {"seat": 0}


def test_rule_auto_pass_counts_as_a_pass_since_the_last_play():
    """RULINGS: the match ends "when every player still in has passed since the last play";
    an automatic pass (empty hand) counts, and a later play resets it."""
    s = deal(["⚪5 ⚪6 ⚫4", "", "⚫1 ⚫2 ⚫3"], ["⚪3", "❗ ⚪1 ⚪2 ⚪4", "⚫5"], "⚫6", turn=0)
    s, ev = run(s, PASS)  # seat 1 empty: auto-pass, seat 2 to act
    assert [e.kind for e in ev] == ["pass", "auto_pass"] and E.to_act(s) == {2}
    s, ev = run(s, Play("⚫1"))  # resets passes; seat 0 next
    assert E.to_act(s) == {0} and not ended(ev)
    s, ev = run(s, PASS)
    assert [e.kind for e in ev] == ["pass", "auto_pass"] and E.to_act(s) == {2}
    s, ev = run(s, PASS)
    assert end_event(ev).data["why"] == "everyone still in passed"


# --------------------------------------------------------------------------- match end
@pytest.mark.parametrize("played, card, total, ends", [
    (["⚪1 ⚫4", "⚫3 ⚫1"], "⚪5", 14, False),
    (["⚪1 ⚫4", "⚫3 ⚫1"], "⚪6", 15, True),  # "15 or higher"
    (["⚪2 ⚫4 ⚫2", "⚫3 ⚫1 ❗"], "⚪6", 18, True),  # overshooting ends too
    (["⚪1 ⚪2", "⚪3 ⚪4", "⚫4"], "⚪5", 19, False),
    (["⚪1 ⚪2", "⚪3 ⚪4", "⚫4"], "⚪6", 20, True),  # "20 or higher"
])
def test_issue_end_condition_face_up_total(played, card, total, ends):
    """Seed: "The match ends if ... The sum of the face-up numbers is 15 or higher (in a
    2-player game) or 20 or higher (in a 3-player game)"; RULINGS: "checked after every
    play" (the total counts every player's face-up cards; ❗ counts 0)."""
    n = len(played)
    rest = labels_of(ALL & ~mask(" ".join(played)) & ~mask(card) & ~mask("⚫6"))
    hands = [[card], *[[] for _ in range(n - 1)]]
    for k, label in enumerate(rest):
        hands[(k + 1) % n].append(label)
    s = deal([" ".join(h) for h in hands], played, "⚫6", turn=0)
    s2, ev = run(s, Play(card))
    assert ended(ev) == ends
    if ends:
        assert end_event(ev).data["why"] == f"the face-up total reached {total}"
        assert s2.match_no == 2 and s2.total == 0
    else:
        assert s2.match_no == 1 and s2.total == total
        assert E.view(s2, None)["total"] == total
        assert E.view(s2, None)["threshold"] == (15 if n == 2 else 20)


def test_issue_end_condition_everyone_passed():
    """Seed: "The match ends if ... All players choose to pass"; RULINGS: "when every player
    still in has passed since the last play". A play in between resets the count."""
    s = deal(["⚪1 ⚪2 ⚪3 ⚪4", "⚪6 ⚫1 ⚫2 ⚫3 ⚫5"], ["❗", "⚪5 ⚫4"], "⚫6", turn=0)
    s, ev = run(s, PASS, Play("⚫1"), PASS)  # seat 0 passed before the play: not yet
    assert not ended(ev) and E.to_act(s) == {1}
    s, ev = run(s, PASS)
    assert end_event(ev).data["why"] == "everyone still in passed"
    # 3 players: a folded seat need not pass
    s = deal(["⚪1 ⚪2", "⚪3 ⚪4 ⚫1", "⚫2 ⚫3 ⚫5"], ["❗ ⚪5", "⚪6", "⚫4"], "⚫6", turn=0)
    s, ev = run(s, FOLD, PASS)
    assert not ended(ev) and E.to_act(s) == {2}
    s, ev = run(s, PASS)
    assert end_event(ev).data["why"] == "everyone still in passed"


def test_rule_end_everyone_folded():
    """RULINGS: the match ends "when everyone has folded"."""
    s = deal(["⚪1 ⚪2", "⚪3 ⚪4 ⚫1", "⚫2 ⚫3 ⚫5"], ["❗ ⚪5", "⚪6", "⚫4"], "⚫6", turn=0)
    s, ev = run(s, FOLD, FOLD)
    assert not ended(ev) and E.to_act(s) == {2}
    s, ev = run(s, FOLD)
    end = end_event(ev)
    assert end.data["why"] == "everyone folded" and end.data["folded"] == [0, 1, 2]
    # ⚫6 = "biggest number kept in hand": ⚪2 / ⚪4 / ⚫5 → seat 2 meets although folded (0);
    # the others folded without meeting (1 each)
    assert end.data["met"] == [2] and end.data["points"] == [1, 1, 0]


def test_rule_lone_player_left_in_plays_on_until_passing():
    """RULINGS: the match ends when "every player still in has passed since the last play" —
    with everyone else folded, the last player in keeps taking turns until passing."""
    s = deal(["⚪1 ⚪2 ⚪3 ⚪4", "⚪6 ⚫1 ⚫2 ⚫3 ⚫5"], ["❗", "⚪5 ⚫4"], "⚫6", turn=0)
    s, ev = run(s, FOLD)
    assert E.to_act(s) == {1}
    s, ev = run(s, Play("⚫1"))
    assert not ended(ev) and E.to_act(s) == {1}
    s, ev = run(s, PASS)
    end = end_event(ev)
    assert end.data["why"] == "everyone still in passed"
    # ⚫6 "biggest number kept in hand": seat 1 keeps ⚪6 ⚫2 ⚫3 → meets alone (2); seat 0
    # folded without meeting (1)
    assert end.data["met"] == [1] and end.data["points"] == [1, 2]


# --------------------------------------------------------------------------- the 13 conditions
# (secret, hands, face-up, who meets, points). Two players; both pass to end the match.
CONDITION_SCENARIOS = {
    "❗": ("⚪3 ⚪4 ⚪5 ⚪6", "⚫1 ⚫2 ⚫5 ⚫6", "⚪2 ⚫4", "⚪1 ⚫3", [1], [0, 2]),
    "⚪1": ("⚫1 ⚫2 ⚫3 ⚫4", "⚪3 ⚪4 ⚪5 ⚫6", "❗ ⚫5", "⚪2 ⚪6", [1], [0, 2]),
    "⚪2": ("⚪1 ⚪5 ⚪6 ❗", "⚫3 ⚫4 ⚫5 ⚫6", "⚫1 ⚪4", "⚪3 ⚫2", [1], [0, 2]),
    "⚪3": ("⚪5 ⚫1 ⚫2 ❗ ⚪6", "⚪4 ⚫3 ⚫4 ⚫5 ⚫6", "⚪1", "⚪2", [1], [0, 2]),
    "⚪4": ("⚪6 ⚫1 ⚫2 ⚫3", "❗ ⚪1 ⚪2 ⚫4 ⚫5", "⚪3 ⚫6", "⚪5", [1], [0, 2]),
    "⚪5": ("⚪2 ⚫6 ⚫5 ❗ ⚫4", "⚪4 ⚪3 ⚫1 ⚫2 ⚫3", "⚪6", "⚪1", [1], [0, 2]),
    "⚪6": ("⚪2 ⚪3 ⚫1", "⚪5 ⚫3 ⚫4 ⚫6", "⚫5 ⚪1", "⚪4 ❗ ⚫2", [0], [2, 0]),
    "⚫1": ("⚪3 ⚪4 ⚫5 ⚫6", "⚪2 ⚪5 ⚪6 ⚫3 ⚫4", "⚪1", "❗ ⚫2", [1], [0, 2]),
    "⚫2": ("⚫1 ⚪2 ⚪3 ⚪4", "⚪5 ⚪6 ⚫5 ⚫6", "⚫3 ⚪1", "⚫4 ❗", [0], [2, 0]),
    "⚫3": ("⚪1 ⚪2 ⚫5 ⚫6 ❗", "⚫4 ⚪3 ⚪4 ⚪5 ⚪6", "⚫1", "⚫2", [1], [0, 2]),
    "⚫4": ("❗ ⚪2 ⚪3 ⚪4", "⚪5 ⚫1 ⚫5 ⚫6", "⚫3 ⚪1", "⚫2 ⚪6", [0], [2, 0]),
    "⚫5": ("⚫4 ⚪1 ⚪2 ⚪3 ❗", "⚫3 ⚫2 ⚫1 ⚪4 ⚪5", "⚫6", "⚪6", [0], [2, 0]),
    "⚫6": ("⚪5 ⚪2 ⚪3 ❗ ⚫1", "⚫5 ⚫2 ⚫3 ⚫4 ⚪4", "⚪6", "⚪1", [0, 1], [1, 1]),
}
WHY = {
    "❗": "lowest face-up sum: seat 0 has 2+4=6, seat 1 has 1+3=4",
    "⚪1": "lowest face-up number: ❗ is not a number, so seat 0's lowest is 5; seat 1 has 2",
    "⚪2": "lowest face-up white: seat 0's ⚫1 is black and ⚪1 is in hand; 4 vs 3",
    "⚪3": "lowest white in hand: 5 vs 4 (seat 0's ⚫1 is black)",
    "⚪4": "highest face-up white: 3 vs 5 (seat 0's ⚫6 is black, ⚪6 in hand)",
    "⚪5": "highest white in hand: 2 vs 4 (seat 0's ⚪6 is face up)",
    "⚪6": "highest face-up number: 5 vs 4 (seat 1's ⚫6 is in hand)",
    "⚫1": "lowest number in hand: 3 vs 2 (⚪1 is face up, ❗ not a number)",
    "⚫2": "lowest face-up black: 3 vs 4 (seat 0's ⚫1 is in hand)",
    "⚫3": "lowest black in hand: 5 vs 4 (seat 0's ⚪1 is white)",
    "⚫4": "highest face-up black: 3 vs 2 (seat 1's ⚪6 is white)",
    "⚫5": "highest black in hand: 4 vs 3 (⚫6 is face up)",
    "⚫6": "highest number in hand: ⚪5 and ⚫5 — a tie, 1 point each",
}


@pytest.mark.parametrize("secret", list(CONDITION_SCENARIOS), ids=lambda c: WHY[c].split(":")[0])
def test_issue_victory_condition(secret):
    """RULINGS table ("! Lowest sum of numbers in play ... B5 Highest black number in hand");
    "The player holding the most extreme qualifying card meets it"; "equal numbers of
    different colours are a tie"; seed: "In a tie, both players win 1 point"."""
    h0, h1, p0, p1, met, points = CONDITION_SCENARIOS[secret]
    s = deal([h0, h1], [p0, p1], secret, turn=0, scores=[1, 2])
    s, ev = run(s, PASS, PASS)
    end = end_event(ev)
    assert end.data["secret"] == secret, WHY[secret]
    assert (end.data["met"], end.data["points"]) == (met, points), WHY[secret]
    assert s.scores == [1 + points[0], 2 + points[1]]
    # RULINGS match-end reveal (amended): only the deciding card(s) of each meeter, never hands
    assert "hands" not in end.data
    for seat in (0, 1):
        decided = end.data["deciding"][seat]
        assert (decided is not None) == (seat in met), WHY[secret]
        if decided:
            zone = (h0, h1)[seat] if CONDITION_SPEC[LABEL_INDEX[secret]][0] == "hand" else (p0, p1)[seat]
            assert set(decided) <= set(zone.split()), WHY[secret]


def test_issue_all_thirteen_conditions_have_a_scenario():
    """Issue: "the 13 victory conditions (the card texts in data/)" — each card text is
    covered by one scenario above."""
    assert set(CONDITION_SCENARIOS) == set(CARD_LABELS)


# An independent reading of the RULINGS table, to cross-check the engine on random deals.
RULING_TABLE = {
    "!": ("play", "sum", None), "W1": ("play", "low", None), "B1": ("hand", "low", None),
    "W6": ("play", "high", None), "B6": ("hand", "high", None),
    "W2": ("play", "low", "W"), "W3": ("hand", "low", "W"), "W4": ("play", "high", "W"),
    "W5": ("hand", "high", "W"), "B2": ("play", "low", "B"), "B3": ("hand", "low", "B"),
    "B4": ("play", "high", "B"), "B5": ("hand", "high", "B"),
}
CODE = {"❗": "!", **{f"⚪{v}": f"W{v}" for v in range(1, 7)},
        **{f"⚫{v}": f"B{v}" for v in range(1, 7)}}


def reference_meeters(secret: str, play: list[list[str]], hand: list[list[str]]) -> set[int]:
    zone, how, colour = RULING_TABLE[CODE[secret]]
    scores = {}
    for seat, cards in enumerate(play if zone == "play" else hand):
        numbers = [int(CODE[c][1]) for c in cards if CODE[c] != "!"
                   and (colour is None or CODE[c][0] == colour)]
        if not numbers:
            continue  # no qualifying card ("a player needs at least one numbered card")
        scores[seat] = sum(numbers) if how == "sum" else (max if how == "high" else min)(numbers)
    if not scores:
        return set()
    best = (max if how == "high" else min)(scores.values())
    return {seat for seat, v in scores.items() if v == best}


def test_rule_conditions_match_an_independent_reading_on_random_deals():
    """RULINGS: "The player holding the most extreme qualifying card meets it; equal numbers
    of different colours are a tie"; ❗ "is not a number for any condition" — the engine
    agrees with a direct reading of the table on 4000 random end-of-match positions."""
    rng = random.Random(13)
    for _ in range(4000):
        n = rng.choice((2, 3))
        cards = list(CARD_LABELS)
        rng.shuffle(cards)
        secret = cards.pop()
        play = [[] for _ in range(n)]
        hand = [[] for _ in range(n)]
        for c in cards:
            (play if rng.random() < 0.5 else hand)[rng.randrange(n)].append(c)
        got = meeters(LABEL_INDEX[secret], [mask(" ".join(p)) for p in play],
                      [mask(" ".join(h)) for h in hand])
        assert {s for s in range(n) if got >> s & 1} == reference_meeters(secret, play, hand)


@pytest.mark.parametrize("secret, hands, played, met", [
    ("⚫1", ["❗", "⚫6"], ["", ""], {1}),  # ❗ alone in hand is not "a number in hand"
    ("⚪1", ["", ""], ["❗", "⚪6"], {1}),  # ❗ alone face up is not "a number in play"
    ("❗", ["", ""], ["❗", "⚪6"], {1}),  # ! needs a numbered card face up
    ("⚫1", ["⚪3 ⚫3", "⚪4"], ["", ""], {0}),  # one seat holding both 3s: no tie, just it
    ("⚪6", ["", "", ""], ["⚪6", "⚫6", "⚫5"], {0, 1}),  # the two 6s tie; third seat out
])
def test_rule_condition_edges(secret, hands, played, met):
    """Seed comment: "The ! is not a number, so it does not count as a number when determining
    a victory condition"; RULINGS: "equal numbers of different colours are a tie"."""
    got = meeters(LABEL_INDEX[secret], [mask(p) for p in played], [mask(h) for h in hands])
    assert {s for s in range(len(hands)) if got >> s & 1} == met


def test_rule_bang_condition_three_way_tie_on_equal_sums():
    """Card ❗ (RULINGS "Lowest sum of numbers in play"); rules summary: "equal totals tie"
    — three equal sums, three non-folded meeters, 1 point each."""
    s = deal(["⚪4 ⚪5 ⚪6", "⚫1 ⚫2", "⚫3 ⚫6"], ["⚪1 ⚫4", "⚪2 ⚪3", "⚫5"], "❗", turn=0)
    assert s.total == 15
    s, ev = run(s, PASS, PASS, PASS)
    end = end_event(ev)
    assert end.data["met"] == [0, 1, 2] and end.data["points"] == [1, 1, 1]
    assert s.scores == [1, 1, 1]


# --------------------------------------------------------------------------- scoring
# Three players, secret ⚪6 = "highest number in play"; everyone has played, seats act 0, 1, 2.
ALONE = (["⚪2 ⚪3 ⚪4", "⚫1 ⚫2 ⚫3", "❗ ⚫4 ⚫5"], ["⚪5", "⚫6", "⚪1"])  # seat 1's ⚫6 meets
TIED = (["⚪2 ⚪3 ⚪4", "⚫1 ⚫2 ⚫3", "❗ ⚫4 ⚫6"], ["⚪5", "⚫5", "⚪1"])  # ⚪5 and ⚫5 tie


@pytest.mark.parametrize("layout, folds, met, points", [
    # "The player who meets ... wins 2 points"; "did not fold and does not meet ... 0"
    (ALONE, (), [1], [0, 2, 0]),
    # "In a tie, both players win 1 point"
    (TIED, (), [0, 1], [1, 1, 0]),
    # "A player who folded and does not meet the revealed victory condition win 1 point"
    (ALONE, (0,), [1], [1, 2, 0]),
    (ALONE, (2,), [1], [0, 2, 1]),
    # "A player who folded and meets the victory condition gets 0 points"
    (ALONE, (1,), [1], [0, 0, 0]),
    # RULINGS: only non-folded meeters share: a tie with a folded player leaves one → 2
    (TIED, (0,), [0, 1], [0, 2, 0]),
    (TIED, (0, 1), [0, 1], [0, 0, 0]),
    # everyone folded: the meeter 0, the others 1
    (ALONE, (0, 1, 2), [1], [1, 0, 1]),
], ids=["alone_2", "tie_1_1", "fold_not_meeting_1", "fold_not_meeting_other_meets",
        "fold_meeting_0", "tie_with_folded", "both_tied_folded", "all_fold"])
def test_issue_scoring(layout, folds, met, points):
    """Seed END OF MATCH scoring; RULINGS: "non-folded players who meet the condition share:
    one alone gets 2, several get 1 each. Folded and meets: 0. Folded and does not meet: 1.
    Not folded, does not meet: 0." Played out through apply with exact points."""
    hands, played = layout
    s = deal(hands, played, "⚪6", turn=0, scores=[2, 3, 4])
    s, ev = run(s, *[FOLD if seat in folds else PASS for seat in range(3)])
    end = end_event(ev)
    assert end.data["met"] == met and end.data["points"] == points
    assert end.data["folded"] == sorted(folds)
    assert s.scores == [2 + points[0], 3 + points[1], 4 + points[2]]
    assert E.view(s, None)["scores"] == s.scores


# --------------------------------------------------------------------------- matches and game
def test_issue_matches_to_the_points_target_with_rotating_dealer():
    """Seed: "The game is played in a series of matches"; "When a player has 6 points, she
    wins!"; RULINGS: dealer "one seat clockwise each deal", turn order "starts with the
    dealer". Three scripted matches, exact scores after each."""
    state = E.new_game(3, 4)
    # match 1, dealer 2: secret ⚪6 "highest number in play", seat 1's ⚫6 meets alone
    s = rig(state, *ALONE, "⚪6", dealer=2, turn=0, scores=[0, 0, 0])
    s, ev = run(s, PASS, PASS, PASS)
    assert end_event(ev).data["points"] == [0, 2, 0] and s.scores == [0, 2, 0]
    assert (s.match_no, s.dealer, E.to_act(s)) == (2, 0, {0})
    assert [e.kind for e in ev][-5:] == ["match_start", "hand", "hand", "hand", "secret_card"]
    # match 2, dealer 0: the dealer must open; seat 0 folds later and does not meet (+1)
    s = rig(s, ["⚪2 ⚪3 ⚪4 ⚪5", "⚫1 ⚫2 ⚫3 ⚫6", "❗ ⚫4 ⚫5"], ["", "", "⚪1"], "⚪6", turn=0)
    s, ev = run(s, Play("⚪5"), Play("⚫6"), PASS, FOLD)
    assert not ended(ev) and E.to_act(s) == {1}
    s, ev = run(s, PASS)
    assert end_event(ev).data["points"] == [1, 2, 0]
    assert s.scores == [1, 4, 0] and (s.match_no, s.dealer, E.to_act(s)) == (3, 1, {1})
    # match 3, dealer 1: seat 1 meets alone again and reaches 6: the game ends
    s = rig(s, *ALONE, "⚪6", turn=1)
    s, ev = run(s, PASS, PASS, PASS)
    out = E.outcome(s)
    assert s.scores == [1, 6, 0] and out.winners == {1}
    assert out.scores == {0: 1.0, 1: 6.0, 2: 0.0}
    assert out.reason == "{P1} reached 6 points after match 3"
    assert ev[-1].kind == "game_over" and ev[-1].data["winners"] == [1]
    assert not any(e.kind == "match_start" for e in ev)  # no further deal
    assert E.to_act(s) == frozenset() and E.view(s, None)["result"]["winners"] == [1]


@pytest.mark.parametrize("start, final, winners, reason", [
    ([5, 4, 5], [6, 6, 5], {0, 1}, "{P0} and {P1} reached 6 points after match 1"),
    ([5, 5, 5], [6, 7, 5], {0, 1}, "{P0} and {P1} reached 6 points after match 1"),
    ([4, 4, 5], [5, 6, 5], {1}, "{P1} reached 6 points after match 1"),
], ids=["both_at_6", "6_and_7", "one_only"])
def test_issue_joint_wins(start, final, winners, reason):
    """Seed: "If two players reach 6 points in the same match, they both win!"; RULINGS:
    "everyone at 6+ after the same match wins together" (7 and 6 win together; 5 does not)."""
    # seat 0 folds and does not meet (+1), seat 1 meets alone (+2), seat 2 passes (0)
    s = deal(*ALONE, "⚪6", turn=0, scores=start)
    s, _ = run(s, FOLD, PASS, PASS)
    out = E.outcome(s)
    assert s.scores == final and out.winners == winners and out.reason == reason
    assert out.scores == {p: float(v) for p, v in enumerate(final)}


def test_rule_joint_win_two_players_both_tied_meeters():
    """Seed: "In a tie, both players win 1 point" + "If two players reach 6 points in the
    same match, they both win!" (two players, both at 5, tie on the condition)."""
    h0, h1, p0, p1, _, _ = CONDITION_SCENARIOS["⚫6"]
    s = deal([h0, h1], [p0, p1], "⚫6", turn=0, scores=[5, 5])
    s, _ = run(s, PASS, PASS)
    assert E.outcome(s).winners == {0, 1} and s.scores == [6, 6]


def test_issue_options_model():
    """RULINGS: "Points target is an option (default 6)"; General: a game that could go on
    forever gets a documented cap (max_matches, default 50). Options are validated, bounded,
    described, and reach the game."""
    opts = E.Options()
    assert (opts.points_target, opts.max_matches) == (6, 50)
    for name, f in E.Options.model_fields.items():
        assert f.description, name
    for bad in ({"points_target": 1}, {"points_target": 21}, {"max_matches": 0},
                {"max_matches": 201}, {"unknown": 1}):
        with pytest.raises(ValidationError):
            E.Options(**bad)
    for given in ({"points_target": 3}, E.Options(points_target=3)):
        s = E.new_game(2, 1, given)
        assert s.options.points_target == 3 and E.view(s, 0)["points_target"] == 3
    assert E.load(E.dump(E.new_game(3, 1, {"max_matches": 7}))).options.max_matches == 7
    # a target of 3 is reached with 3 points
    s = deal(*ALONE, "⚪6", options={"points_target": 3}, turn=0, scores=[0, 1, 2])
    s, _ = run(s, PASS, PASS, PASS)
    assert s.scores == [0, 3, 2] and E.outcome(s).winners == {1}


def test_rule_match_cap_ends_the_game_and_says_so():
    """RULINGS General: "Every game must end after a bounded number of legal actions ... when
    the cap ends a game, Outcome.reason says so" — after max_matches the highest score wins
    (all tied leaders together)."""
    s = deal(*TIED, "⚪6", options={"max_matches": 3}, turn=0, scores=[2, 2, 0])
    s.match_no = 3
    s, ev = run(s, PASS, PASS, PASS)
    out = E.outcome(s)
    assert s.scores == [3, 3, 0] and out.winners == {0, 1}
    assert out.reason == "The 3-match safety cap was reached: the highest score wins"
    assert ev[-1].kind == "game_over"
    # one match before the cap the game goes on
    s = deal(*TIED, "⚪6", options={"max_matches": 3}, turn=0, scores=[2, 2, 0])
    s.match_no = 2
    s, _ = run(s, PASS, PASS, PASS)
    assert E.outcome(s) is None and s.match_no == 3


# --------------------------------------------------------------------------- hidden information
def _playout_states(n: int, seed: int, limit: int = 400):
    """(state, seat, action, step) along a game of biased random play (passes and folds
    happen, so every end of match shows up)."""
    rng = random.Random(seed)
    state = E.new_game(n, seed)
    for _ in range(limit):
        if not E.to_act(state):
            return
        seat = state.turn
        legal = E.legal_actions(state, seat)
        r = rng.random()
        if FOLD in legal and r < 0.12:
            action = FOLD
        elif PASS in legal and r < 0.55:
            action = PASS
        else:
            action = rng.choice([a for a in legal if isinstance(a, Play)] or legal)
        step = E.apply(state, seat, action)
        yield state, seat, action, step
        state = step.state


def _indistinguishable(state: SuspenseState, seat: int | None, rng: random.Random
                       ) -> SuspenseState:
    """Another real state `seat` cannot tell apart: the cards hidden from it (other hands,
    the secret card unless it dealt) dealt differently, hand sizes kept."""
    s = state.clone()
    others = [p for p in range(s.n) if p != seat]
    pool = [c for p in others for c in range(13) if s.hands[p] >> c & 1]
    hides_secret = seat != s.dealer
    if hides_secret:
        pool.append(s.secret)
    rng.shuffle(pool)
    for p in others:
        size = s.hands[p].bit_count()
        s.hands[p] = sum(1 << c for c in pool[:size])
        del pool[:size]
    if hides_secret:
        s.secret = pool.pop()
    for p in others:
        s.seen[p] = s.seen_public | s.hands[p] | (1 << s.secret if p == s.dealer else 0)
    s.seed = rng.randrange(2**40)  # the future deals are hidden as well
    return s


def test_hidden_views_show_nothing_a_seat_may_not_know():
    """Seed: "Players keep cards in hand hidden from other players"; "Only the dealer may look
    at the secret card"; DESIGN §2: view(state, seat) is "everything that seat may know" —
    so it is the same in every deal of the hidden cards that seat cannot tell apart."""
    rng = random.Random(1)
    checked = 0
    for n, seed in ((2, 1), (3, 2), (2, 3), (3, 4)):
        for state, *_ in _playout_states(n, seed, 120):
            for seat in (None, *range(n)):
                view = E.view(state, seat)
                for _ in range(2):
                    assert E.view(_indistinguishable(state, seat, rng), seat) == view
                if seat is not None:
                    assert view["you"]["hand"] == labels_of(state.hands[seat])
                checked += 1
    assert checked > 500


def test_hidden_determinize_resamples_everything_hidden():
    """DESIGN §2: determinize returns "a state that seat cannot tell apart from this one: all
    hidden information that seat does not know is resampled" — two real states the seat
    cannot tell apart determinize to the very same state (nothing hidden survives: other
    hands, the secret unless the seat dealt, other seats' memory, the seed of future deals);
    the AI's choice is therefore the same in both."""
    rng = random.Random(2)
    for n, seed in ((2, 11), (3, 12), (3, 13)):
        for k, (state, *_) in enumerate(_playout_states(n, seed, 150)):
            if k % 3:
                continue
            for seat in range(n):
                alt = _indistinguishable(state, seat, rng)
                a = E.determinize(state, seat, random.Random(k))
                b = E.determinize(alt, seat, random.Random(k))
                assert E.dump(a) == E.dump(b), (n, seed, k, seat)
                assert E.view(a, seat) == E.view(state, seat)
                assert a.seed != state.seed
                if seat == state.turn and k % 2 == 0:
                    assert (E.ai_action(state, seat, random.Random(k))
                            == E.ai_action(alt, seat, random.Random(k)))


def test_hidden_determinize_covers_every_possibility():
    """DESIGN §2 determinize: a non-dealer's view of the secret card and of the other hands
    is resampled over every unseen card (hand sizes kept); the dealer keeps the secret card;
    the next deal is not the real one (the seed is hidden too)."""
    s = deal(["⚪1 ⚪2 ⚪3", "⚪4 ⚪5 ⚫1", "⚫2 ⚫3 ⚫4"], ["❗", "⚪6", "⚫5"], "⚫6",
             dealer=2, turn=0)
    unseen_by_0 = mask("⚪4 ⚪5 ⚫1 ⚫2 ⚫3 ⚫4 ⚫6")
    secrets, in_hand1, in_hand2 = set(), 0, 0
    for k in range(120):
        d = E.determinize(s, 0, random.Random(k))
        assert d.hands[0] == s.hands[0] and d.play_masks == s.play_masks
        assert [h.bit_count() for h in d.hands] == [3, 3, 3]
        assert d.hands[1] | d.hands[2] | 1 << d.secret == unseen_by_0
        secrets.add(d.secret)
        in_hand1 |= d.hands[1]
        in_hand2 |= d.hands[2]
        dd = E.determinize(s, 2, random.Random(k))  # the dealer
        assert dd.secret == s.secret and dd.hands[2] == s.hands[2]
        assert dd.hands[0] | dd.hands[1] == s.hands[0] | s.hands[1]
    assert sum(1 << c for c in secrets) == unseen_by_0
    assert in_hand1 == in_hand2 == unseen_by_0
    # the future: end the match in the real state and in determinized ones
    real_next, _ = run(s, PASS, PASS, PASS)
    nexts = {tuple(run(E.determinize(s, 0, random.Random(k)), PASS, PASS, PASS)[0].hands)
             for k in range(10)}
    assert tuple(real_next.hands) not in nexts and len(nexts) == 10


def _labels_in(event) -> set[str]:
    blob = event.text + json.dumps(dict(event.data), ensure_ascii=False)
    return {label for label in CARD_LABELS if label in blob}


def test_hidden_events_reveal_only_what_the_rules_reveal():
    """Seed: hands are hidden, the secret card is the dealer's alone until "the secret card's
    revealed victory condition" at match end; "Fold: ... Keep your hand of cards hidden".
    Per event: a play shows the played card; a hand event goes to its owner only; the secret
    card event to the dealer only; the match end shows only face-up cards, the secret card
    and the deciding card(s) of each meeter (RULINGS, amended) — never a folded hand;
    other events name no card."""
    seen_fold_end = 0
    for n, seed in ((2, 21), (3, 22), (2, 23), (3, 24), (3, 25)):
        for before, seat, action, step in _playout_states(n, seed):
            after = step.state
            folded = before.folded | ((1 << seat) if action == FOLD else 0)
            played = sum(before.play_masks)
            hands_end = [before.hands[p] for p in range(n)]
            if isinstance(action, Play):
                played |= mask(action.card)
                hands_end[seat] &= ~mask(action.card)
            for e in step.events:
                got = _labels_in(e)
                if e.kind == "play":
                    assert e.visible_to is None and got == {action.card}
                elif e.kind == "hand":
                    (owner,) = e.visible_to
                    assert got == set(labels_of(after.hands[owner]))
                elif e.kind == "secret_card":
                    assert e.visible_to == frozenset({after.dealer})
                    assert got == {CARD_LABELS[after.secret]}
                elif e.kind == "match_end":
                    # RULINGS reveal (amended): face-up cards, the secret card and the
                    # deciding card(s) of each meeter; never a whole hand
                    assert "hands" not in e.data
                    for p in range(n):
                        decided = set(e.data["deciding"][p] or ())
                        if folded >> p & 1:
                            assert not got & set(labels_of(hands_end[p]))
                            seen_fold_end += bool(hands_end[p])
                        else:
                            assert decided <= set(labels_of(hands_end[p] | before.play_masks[p]
                                                            | (played & ~sum(before.play_masks))))
                        hidden = set(labels_of(hands_end[p])) - decided
                        assert not got & hidden
                    assert e.visible_to is None
                else:
                    assert e.kind in {"pass", "fold", "auto_pass", "match_start", "game_over"}
                    assert got == set() and e.visible_to is None
    assert seen_fold_end >= 3


def test_hidden_folded_hand_stays_out_of_every_other_view():
    """Seed: "Fold: ... Keep your hand of cards hidden." RULINGS: the folded player "keeps
    the hand hidden" — for the rest of the match and in the next match's summary, no other
    seat's view and no spectator view names those cards."""
    s = deal(["⚪1 ⚪2 ⚪3", "⚪5 ⚪6 ⚫1", "⚫3 ⚫4 ⚫5"], ["❗", "⚪4", "⚫2"], "⚫6", turn=0)
    secret_hand = {"⚪1", "⚪2", "⚪3"}
    s, _ = run(s, FOLD, Play("⚫1"), PASS)
    for seat in (None, 1, 2):
        blob = json.dumps(E.view(s, seat), ensure_ascii=False)
        assert not {c for c in secret_hand if c in blob}, seat
    s, ev = run(s, PASS)
    end = end_event(ev)
    # ⚫6 "biggest number kept in hand": ⚪3 / ⚪6 / ⚫5 → seat 1 alone (2); seat 0 folded and
    # does not meet (1)
    assert end.data["met"] == [1] and end.data["points"] == [1, 2, 0]
    # RULINGS reveal (amended): only the deciding ⚪6; showing the other hands would give the
    # folded one away as "the 13 cards minus everything shown"
    assert s.last_match["deciding"] == [None, ["⚪6"], None]
    last = json.dumps(E.view(s, None)["last_match"], ensure_ascii=False)
    assert not {c for c in secret_hand if c in last}
    assert not {c for c in ("⚪5", "⚫3", "⚫4", "⚫5") if c in last}


# --------------------------------------------------------------------------- remaining rules
def test_rule_dealer_may_fold_and_scores_as_folded():
    """Seed comment: "The dealer being able to fold was very thoroughly tested and shown to be
    a valuable social mechanic" — the dealer may fold like anyone (after the forced first
    play) and is scored as a folded player."""
    s = deal(["⚪1 ⚪2 ⚪3 ⚪4", "⚪6 ⚫1 ⚫2 ⚫3 ⚫5"], ["❗", "⚪5 ⚫4"], "⚫6", dealer=0, turn=0)
    assert FOLD in E.legal_actions(s, 0)
    s, ev = run(s, FOLD, PASS)
    end = end_event(ev)
    # ⚫6 "biggest number kept in hand": the dealer's ⚪4 loses to seat 1's ⚪6 → 1 and 2
    assert end.data["folded"] == [0] and end.data["points"] == [1, 2]


def test_rule_card_texts_in_data_say_what_the_rulings_table_says():
    """RULINGS: "Victory conditions (the card text for this project)" — each text in
    data/suspense/cards.json names the same zone (face up / in hand), extreme (smallest /
    biggest) and colour as the table; ❗'s text asks for the smallest face-up total and
    a numbered card face up."""
    from engines.suspense.rules import condition_text

    for label in CARD_LABELS:
        zone, how, colour = RULING_TABLE[CODE[label]]
        text = condition_text(label).lower()
        assert ("in hand" in text) == (zone == "hand") and ("face-up" in text) == (zone == "play")
        assert ("biggest" in text) == (how == "high")
        assert ("smallest" in text) == (how in ("low", "sum"))
        assert ("white" in text) == (colour == "W") and ("black" in text) == (colour == "B")
        assert ("total" in text) == (how == "sum")
    assert "at least one numbered card" in condition_text("❗")


def test_rule_ai_keeps_a_winning_card_in_hand():
    """Issue: "An AI player that plays sensibly from what its seat knows." The dealer knows
    the secret is ⚫6 ("biggest number kept in hand") and holds ⚪6: it neither folds nor
    plays the ⚪6 away."""
    s = deal(["⚪6 ⚪1 ⚪2", "⚫1 ⚫2 ⚫3 ⚫4 ⚫5"], ["❗ ⚪3", "⚪4 ⚪5"], "⚫6", dealer=0, turn=0)
    for k in range(3):
        assert E.ai_action(s, 0, random.Random(k)) not in (FOLD, Play("⚪6"))
