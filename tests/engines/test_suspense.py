"""Rule tests for Suspense (seeds/suspense.txt and the Suspense section of RULINGS.md).

Each test quotes the rule it checks. Scenarios use `scripted`, which builds a state with
chosen hands, face-up cards and secret card.
"""

from __future__ import annotations

import json
import random

import pytest
from pydantic import ValidationError

from engines import ENGINES
from engines.core import GameOverError, IllegalActionError, NotYourTurnError
from engines.suspense.rules import (
    CARD_LABELS,
    CONDITION_SPEC,
    ENGINE,
    FOLD,
    LABEL_INDEX,
    PASS,
    VALUE,
    Fold,
    Pass,
    Play,
    SuspenseState,
    condition_table,
    condition_text,
    match_points,
    meeters,
)

E = ENGINE


def mask(labels: str | list[str]) -> int:
    if isinstance(labels, str):
        labels = labels.split()
    return sum(1 << LABEL_INDEX[label] for label in labels)


def scripted(hands: list[str], played: list[str] | None = None, secret: str = "⚫6", *,
             dealer: int = 0, turn: int | None = None, folded: tuple[int, ...] = (),
             passed: tuple[int, ...] = (), scores: list[int] | None = None,
             match_no: int = 1, options=None) -> SuspenseState:
    """A state in the middle of a match: hands and face-up cards as space-separated labels."""
    n = len(hands)
    state = E.new_game(n, 1, options)
    played = played or [""] * n
    state.hands = [mask(h) for h in hands]
    state.played = [[LABEL_INDEX[c] for c in p.split()] for p in played]
    state.play_masks = [mask(p) for p in played]
    state.secret = LABEL_INDEX[secret]
    state.dealer = dealer
    state.turn = dealer if turn is None else turn
    state.folded = sum(1 << s for s in folded)
    state.passed = sum(1 << s for s in passed)
    state.total = sum(VALUE[c] for p in state.played for c in p)
    state.scores = scores or [0] * n
    state.match_no = match_no
    state.seen = [state.hands[s] | (1 << state.secret if s == dealer else 0) for s in range(n)]
    state.seen_public = sum(state.play_masks)
    state.log = []
    all_cards = sum(state.hands) | sum(state.play_masks) | 1 << state.secret
    assert all_cards == (1 << 13) - 1, "a scripted deal must use all 13 cards exactly once"
    return state


def meet_set(secret: str, hands: list[str], played: list[str]) -> set[int]:
    m = meeters(LABEL_INDEX[secret], [mask(p) for p in played], [mask(h) for h in hands])
    return {s for s in range(len(hands)) if m >> s & 1}


def act(state, action, seat=None):
    return E.apply(state, state.turn if seat is None else seat, action)


# --------------------------------------------------------------------------- deck and deal
def test_registered_and_identity():
    """DESIGN §2: the engine is registered as "suspense", 2–3 players."""
    assert ENGINES["suspense"] is E
    assert (E.title, E.min_players, E.max_players) == ("Suspense", 2, 3)


def test_deck_is_thirteen_cards_and_bang_counts_zero():
    """Seed: "six white numbered cards 1–6, six black numbered cards 1–6, and one "!" card
    which is considered a zero"."""
    assert CARD_LABELS == ("❗", "⚪1", "⚪2", "⚪3", "⚪4", "⚪5", "⚪6",
                           "⚫1", "⚫2", "⚫3", "⚫4", "⚫5", "⚫6")
    state = scripted(["❗ ⚪1 ⚪2 ⚪3 ⚪4 ⚪5", "⚪6 ⚫1 ⚫2 ⚫3 ⚫4 ⚫5"])
    step = act(state, Play("❗"))
    assert step.state.total == 0


@pytest.mark.parametrize("n, size", [(2, 6), (3, 4)])
def test_deal_all_but_one_evenly(n, size):
    """Seed: "evenly deals them out ... should leave behind one extra card" (the secret)."""
    for seed in range(20):
        state = E.new_game(n, seed)
        assert [h.bit_count() for h in state.hands] == [size] * n
        union = 0
        for h in state.hands:
            assert not union & h
            union |= h
        assert union | 1 << state.secret == (1 << 13) - 1
        assert not union >> state.secret & 1


def test_only_dealer_sees_secret_card():
    """Seed: "Only the dealer may look at the secret card." (private event + dealer's view)."""
    state = E.new_game(3, 11)
    label = CARD_LABELS[state.secret]
    for seat in range(3):
        you = E.view(state, seat)["you"]
        assert you["secret"] == (label if seat == state.dealer else None)
        assert (label in E.secret_labels(state, seat)) == (seat != state.dealer)
    assert label in E.secret_labels(state, None)
    # the next deal happens inside an apply: check the event stream of a match end
    s = scripted(["❗ ⚪1 ⚪2 ⚪3 ⚪4 ⚪5", "⚪6 ⚫1 ⚫2 ⚫3 ⚫4 ⚫5"], dealer=0)
    s = act(s, Play("⚪5")).state
    s = act(s, Play("⚫5")).state
    s = act(s, PASS).state
    step = act(s, PASS)
    new = step.state
    secret_events = [e for e in step.events if e.kind == "secret_card"]
    assert len(secret_events) == 1
    assert secret_events[0].visible_to == frozenset({new.dealer})
    assert CARD_LABELS[new.secret] in secret_events[0].text
    public_texts = " ".join(e.text for e in step.events if e.visible_to is None
                            and e.kind != "match_end")
    assert CARD_LABELS[new.secret] not in public_texts


def test_first_dealer_random_from_seed():
    """RULINGS General: "Dealer: random for the first deal (the bot cannot know ages)"."""
    dealers = {E.new_game(3, seed).dealer for seed in range(40)}
    assert dealers == {0, 1, 2}
    assert E.new_game(3, 5).dealer == E.new_game(3, 5).dealer


def test_view_never_shows_seed_or_other_hands():
    """DESIGN §2: views hold everything that seat may know, never the seed or rng counter."""
    state = E.new_game(2, 3)
    view = E.view(state, 0)
    text = json.dumps(view, ensure_ascii=False)
    assert "seed" not in view and "rng_counter" not in text
    for label in E.secret_labels(state, 0):
        assert label not in text
    assert E.view(state, None)["you"] is None


# --------------------------------------------------------------------------- turns
def test_turn_order_starts_with_dealer_and_goes_clockwise():
    """Seed: "Each player takes turns, starting with the dealer, clockwise"."""
    state = scripted(["❗ ⚪1 ⚪2 ⚪3", "⚪4 ⚪5 ⚪6 ⚫1", "⚫2 ⚫3 ⚫4 ⚫5"], secret="⚫6", dealer=1)
    assert E.to_act(state) == {1}
    state = act(state, Play("⚪4")).state
    assert E.to_act(state) == {2}
    state = act(state, Play("⚫2")).state
    assert E.to_act(state) == {0}


def test_first_turn_must_play():
    """Seed: "On your first turn of a match, you MUST choose one card from your hand and play
    it"."""
    state = scripted(["❗ ⚪1 ⚪2 ⚪3 ⚪4 ⚪5", "⚪6 ⚫1 ⚫2 ⚫3 ⚫4 ⚫5"])
    legal = E.legal_actions(state, 0)
    assert all(isinstance(a, Play) for a in legal) and len(legal) == 6
    for bad in (PASS, FOLD):
        with pytest.raises(IllegalActionError):
            act(state, bad)


def test_later_turns_play_pass_or_fold():
    """Seed: "On subsequent turns, do one of the following: Play ... Pass ... Fold"."""
    state = scripted(["⚪1 ⚪2 ⚪3 ⚪4 ⚪5", "⚪6 ⚫1 ⚫2 ⚫3 ⚫4"], ["❗", "⚫5"], turn=0)
    legal = E.legal_actions(state, 0)
    assert legal[-2:] == [PASS, FOLD]
    assert {a.card for a in legal[:-2]} == {"⚪1", "⚪2", "⚪3", "⚪4", "⚪5"}
    assert E.legal_actions(state, 1) == []


def test_errors_not_your_turn_game_over_and_garbage():
    """DESIGN §2: apply raises NotYourTurnError / IllegalActionError / GameOverError."""
    state = scripted(["❗ ⚪1 ⚪2 ⚪3 ⚪4 ⚪5", "⚪6 ⚫1 ⚫2 ⚫3 ⚫4 ⚫5"])
    with pytest.raises(NotYourTurnError):
        E.apply(state, 1, Play("⚪6"))
    with pytest.raises(IllegalActionError):
        act(state, Play("⚪6"))  # not in hand
    with pytest.raises(IllegalActionError):
        act(state, Play("X9"))
    with pytest.raises(IllegalActionError):
        act(state, "play ⚪1")
    state.over = True
    with pytest.raises(GameOverError):
        act(state, Play("⚪1"))


def test_fold_lasts_the_match_and_folded_seat_is_skipped():
    """RULINGS: "Fold lasts the rest of the match; a folded player takes no more turns"."""
    state = scripted(["⚪1 ⚪2 ⚪3", "⚪5 ⚪6 ⚫1", "⚫3 ⚫4 ⚫5"], ["❗", "⚪4", "⚫2"],
                     secret="⚫6", turn=0)
    state = act(state, FOLD).state
    assert E.to_act(state) == {1}
    state = act(state, Play("⚫1")).state
    state = act(state, Play("⚫3")).state
    assert E.to_act(state) == {1}  # seat 0 skipped
    assert E.view(state, None)["players"][0]["folded"] is True


def test_empty_hand_passes_automatically():
    """RULINGS: "A player with an empty hand passes automatically"."""
    # seat 1 has played everything; after seat 0 plays, seat 1 auto-passes and seat 0 is up
    state = scripted(["⚪1 ⚪2 ⚪3 ⚪4 ⚪5 ⚪6 ⚫1 ⚫2", ""],
                     ["", "❗ ⚫3 ⚫4 ⚫5"], secret="⚫6", turn=0)
    step = act(state, Play("⚪1"))
    kinds = [e.kind for e in step.events]
    assert kinds == ["play", "auto_pass"]
    assert E.to_act(step.state) == {0}
    # seat 0 passes too: everyone still in has passed since the last play
    step = act(step.state, PASS)
    assert any(e.kind == "match_end" for e in step.events)


# --------------------------------------------------------------------------- match end
def test_match_ends_at_15_with_two_players():
    """Seed: "The sum of the face-up numbers is 15 or higher (in a 2-player game)"."""
    state = scripted(["⚪1 ⚪2 ⚪3 ⚪6", "⚫1 ⚫2 ⚫3 ⚫4 ⚫5"], ["❗ ⚪4", "⚪5"], turn=0)
    assert state.total == 9
    step = act(state, Play("⚪3"))  # 12: not yet
    assert not any(e.kind == "match_end" for e in step.events)
    step = act(step.state, Play("⚫3"))  # 15: ends
    ends = [e for e in step.events if e.kind == "match_end"]
    assert ends and "15" in ends[0].data["why"]
    assert step.state.match_no == 2


def test_match_ends_at_20_with_three_players():
    """Seed: "... or 20 or higher (in a 3-player game)"."""
    state = scripted(["❗ ⚪1 ⚪6", "⚪5 ⚫1", "⚫2 ⚫3"], ["⚪2", "⚪3 ⚪4", "⚫4 ⚫5"],
                     secret="⚫6", turn=0)
    assert state.total == 18
    step = act(state, Play("⚪1"))  # 19
    assert not any(e.kind == "match_end" for e in step.events)
    step = act(step.state, Play("⚫1"))  # 20
    assert any(e.kind == "match_end" for e in step.events)


def test_match_ends_when_everyone_still_in_passed():
    """RULINGS: "when every player still in has passed since the last play"."""
    state = scripted(["⚪5 ⚪6", "⚪4 ⚫1", "⚫4 ⚫5"], ["❗ ⚪1", "⚪2 ⚫2", "⚪3 ⚫3"],
                     secret="⚫6", turn=0)
    state = act(state, PASS).state
    state = act(state, Play("⚫1")).state  # a play resets the passes
    state = act(state, PASS).state
    state = act(state, FOLD).state  # seat 0 folds: still in = {1, 2}
    step = act(state, PASS)  # seat 1: now 1 and 2 have both passed since the play
    assert [e.kind for e in step.events][:2] == ["pass", "match_end"]
    assert step.events[1].data["why"] == "everyone still in passed"


def test_match_ends_when_everyone_folded():
    """RULINGS: "... or when everyone has folded"."""
    state = scripted(["⚪1 ⚪2 ⚪3 ⚪4", "⚪6 ⚫1 ⚫2 ⚫3"], ["❗", "⚪5 ⚫4 ⚫5"], turn=0)
    state = act(state, FOLD).state
    step = act(state, FOLD)
    end = next(e for e in step.events if e.kind == "match_end")
    assert end.data["why"] == "everyone folded"
    assert end.data["folded"] == [0, 1]


# --------------------------------------------------------------------------- conditions
@pytest.mark.parametrize("secret, hands, played, expected", [
    # ! : lowest sum of numbers in play, needs a numbered card
    ("❗", ["", "", ""], ["⚪1 ⚪2", "⚪4", "⚫5"], {0}),
    ("❗", ["", "", ""], ["⚪1 ⚪3", "⚫4", "❗"], {0, 1}),
    # W1 lowest number in play
    ("⚪1", ["⚫1", ""], ["⚪2 ⚪5", "⚫3"], {0}),
    # B1 lowest number in hand
    ("⚫1", ["⚪2 ⚪6", "⚫3"], ["", ""], {0}),
    # W6 highest number in play
    ("⚪6", ["⚫6", ""], ["⚪5", "⚫4"], {0}),
    # B6 highest number in hand
    ("⚫6", ["⚪5 ⚪1", "⚫4"], ["", ""], {0}),
    # W2 lowest white number in play
    ("⚪2", ["", ""], ["⚪3 ⚫1", "⚪4"], {0}),
    # W3 lowest white number in hand
    ("⚪3", ["⚪4 ⚫1", "⚪5"], ["", ""], {0}),
    # W4 highest white number in play
    ("⚪4", ["", ""], ["⚪5 ⚫6", "⚪3"], {0}),
    # W5 highest white number in hand
    ("⚪5", ["⚪6 ⚫1", "⚪4"], ["", ""], {0}),
    # B2 lowest black number in play
    ("⚫2", ["", ""], ["⚫3 ⚪1", "⚫4"], {0}),
    # B3 lowest black number in hand
    ("⚫3", ["⚫2 ⚪1", "⚫4"], ["", ""], {0}),
    # B4 highest black number in play
    ("⚫4", ["", ""], ["⚫5 ⚪6", "⚫3"], {0}),
    # B5 highest black number in hand
    ("⚫5", ["⚫6 ⚪1", "⚫4"], ["", ""], {0}),
])
def test_each_condition(secret, hands, played, expected):
    """RULINGS table, one case per card: e.g. "W1 | Lowest number in play", "B6 | Highest
    number in hand"; "The player holding the most extreme qualifying card meets it"."""
    assert meet_set(secret, hands, played) == expected
    # swap seats 0 and 1: the result follows the cards, not the seat
    swapped_hands = [hands[1], hands[0], *hands[2:]]
    swapped_played = [played[1], played[0], *played[2:]]
    swapped = {1 - s if s < 2 else s for s in expected}
    assert meet_set(secret, swapped_hands, swapped_played) == swapped


def test_all_thirteen_conditions_are_paired_as_in_rulings():
    """RULINGS: the pairing of cards and conditions is binding (and the data texts match)."""
    assert set(CONDITION_SPEC) == set(range(13))
    expect = {
        "❗": ("play", "lowest_sum", None), "⚪1": ("play", "lowest", None),
        "⚫1": ("hand", "lowest", None), "⚪6": ("play", "highest", None),
        "⚫6": ("hand", "highest", None), "⚪2": ("play", "lowest", "white"),
        "⚪3": ("hand", "lowest", "white"), "⚪4": ("play", "highest", "white"),
        "⚪5": ("hand", "highest", "white"), "⚫2": ("play", "lowest", "black"),
        "⚫3": ("hand", "lowest", "black"), "⚫4": ("play", "highest", "black"),
        "⚫5": ("hand", "highest", "black"),
    }
    for label, spec in expect.items():
        assert CONDITION_SPEC[LABEL_INDEX[label]] == spec
        text = condition_text(label).lower()
        assert ("hand" in text) == (spec[0] == "hand")
        assert (spec[2] or "") in text
    assert [row["card"] for row in condition_table()] == list(CARD_LABELS)


@pytest.mark.parametrize("secret, played, hands", [
    ("⚪1", ["⚪3", "⚫3"], ["", ""]),
    ("⚪6", ["⚪5", "⚫5"], ["", ""]),
    ("⚫1", ["", ""], ["⚪2 ⚪5", "⚫2 ⚫6"]),
    ("⚫6", ["", ""], ["⚪4 ⚪1", "⚫4 ⚫2"]),
])
def test_equal_numbers_of_different_colours_tie(secret, played, hands):
    """RULINGS: "equal numbers of different colours are a tie"."""
    assert meet_set(secret, hands, played) == {0, 1}


def test_bang_is_not_a_number():
    """Seed comments: "The ! is not a number, so it does not count as a number when
    determining a victory condition" (e.g. not the lowest number in hand)."""
    assert meet_set("⚫1", ["❗ ⚪4", "⚫3"], ["", ""]) == {1}
    assert meet_set("⚪1", ["", ""], ["❗ ⚪4", "⚫3"]) == {1}


def test_bang_condition_needs_a_numbered_card_in_play():
    """RULINGS: "! | Lowest sum of numbers in play (a player needs at least one numbered card
    in play)"."""
    assert meet_set("❗", ["", ""], ["❗", "⚪5"]) == {1}
    assert meet_set("❗", ["", ""], ["", "⚪5 ⚫6"]) == {1}
    assert meet_set("❗", ["⚪1", "⚪2"], ["❗", ""]) == set()


@pytest.mark.parametrize("secret, hands, played", [
    ("⚪2", ["⚪1", "⚪3"], ["⚫1", "⚫2"]),  # no white face up
    ("⚫5", ["⚪1", "⚪3"], ["⚫1", "⚫2"]),  # no black in hand
    ("⚫1", ["", ""], ["⚪1", "⚫2"]),  # empty hands
    ("❗", ["⚪1", ""], ["", ""]),  # nobody has a numbered card face up
])
def test_nobody_meets_when_nobody_has_a_qualifying_card(secret, hands, played):
    """RULINGS edge case: nobody holds a fitting card → nobody meets the condition."""
    assert meet_set(secret, hands, played) == set()


# --------------------------------------------------------------------------- scoring
@pytest.mark.parametrize("meet, folded, expected", [
    ({0}, set(), [2, 0, 0]),  # "one alone gets 2"
    ({0, 1}, set(), [1, 1, 0]),  # "several get 1 each"
    ({0}, {0}, [0, 0, 0]),  # "Folded and meets: 0"
    ({1}, {0}, [1, 2, 0]),  # "Folded and does not meet: 1"
    ({0, 1}, {0}, [0, 2, 0]),  # the only non-folded meeter gets 2
    (set(), {2}, [0, 0, 1]),  # "Not folded, does not meet: 0"
])
def test_scoring(meet, folded, expected):
    """RULINGS Scoring: non-folded meeters share (alone 2, several 1 each); folded and meets 0;
    folded and does not meet 1; not folded and does not meet 0."""
    m = sum(1 << s for s in meet)
    f = sum(1 << s for s in folded)
    assert match_points(m, f, 3) == expected


def test_folded_player_is_evaluated_but_hand_stays_hidden():
    """Seed: "Fold: ... Keep your hand of cards hidden"; RULINGS: "every hand is checked by
    the bot" — a folded player's cards count, but their hand is never shown (amended reveal:
    a folded meeter's deciding card is named only if it is face up already)."""
    # secret ⚫6 = biggest number in hand; seat 0 folds holding ⚪6
    state = scripted(["⚪6 ⚪1", "⚫5 ⚫4"], ["❗ ⚪2 ⚪3", "⚫1 ⚫2 ⚫3 ⚪4 ⚪5"],
                     secret="⚫6", turn=0)
    state = act(state, FOLD).state
    step = act(state, PASS)
    end = next(e for e in step.events if e.kind == "match_end")
    assert end.data["met"] == [0]
    assert end.data["points"] == [0, 0]  # folded & meets 0; not folded & not meeting 0
    assert end.data["deciding"] == [[], None]
    public_text = " ".join(e.text for e in step.events if e.visible_to is None)
    assert "⚪6" not in public_text and "⚪1" not in public_text
    after = step.state
    assert "hands" not in after.last_match
    # the folded hand never becomes "seen" by the other seat
    assert not after.seen_public >> LABEL_INDEX["⚪6"] & 1


def _public_after_match_end(step) -> tuple[set[str], dict]:
    """Every card label a spectator can read once the match ended: public event texts and
    data, plus the public view (the face-up cards of the ended match are in `last_match`)."""
    public_view = E.view(step.state, None)
    blob = json.dumps([public_view["last_match"], [(e.text, e.data) for e in step.events
                       if e.visible_to is None and e.kind == "match_end"]],
                      ensure_ascii=False)
    return {label for label in CARD_LABELS if label in blob}, public_view


@pytest.mark.parametrize("secret", ["⚫6", "⚪1", "⚫1", "⚪3", "⚪5", "❗"])
def test_reveal_never_lets_anyone_rebuild_a_folded_hand(secret):
    """RULINGS, Suspense match-end reveal (amended): "a folded hand stays hidden for good, so
    the public result must not let anyone rebuild it. Show the secret card, who met its
    condition and ... the card(s) that decided it; never whole hands." Leak check: after the
    match, the 13 cards minus everything shown must still hide each folded card."""
    layout = ["⚪5 ⚫2", "⚪3 ⚪4", "⚫3 ⚫4"], ["⚪1 ⚫1", "⚫5 ❗", "⚪2 ⚪6"]  # secret ⚫6
    hands, played = ([" ".join("⚫6" if c == secret else c for c in cards.split())
                      for cards in part] for part in layout)
    state = scripted(hands, played, secret=secret, turn=0)
    state = act(state, FOLD).state  # seat 0 folds holding its hand
    state = act(state, PASS).state
    step = act(state, PASS)
    assert any(e.kind == "match_end" for e in step.events)
    shown, _ = _public_after_match_end(step)
    folded_hand = set(hands[0].split())
    assert not folded_hand & shown, (secret, folded_hand & shown)
    # and nobody's whole hand is shown: at most the deciding card(s) of each meeter
    end = next(e for e in step.events if e.kind == "match_end")
    for seat, decided in enumerate(end.data["deciding"]):
        assert decided is None or len(decided) <= 2 or secret == "❗"
        if decided is None:
            assert seat not in end.data["met"]


def test_reveal_names_the_deciding_card():
    """RULINGS, Suspense match-end reveal (amended): "for each player who met it, the card(s)
    that decided it". ⚫6 = biggest number in hand: seat 1's ⚪6 decides it; no other card
    of either hand is shown."""
    state = scripted(["⚪1 ⚪2 ⚪3 ⚪4", "⚪6 ⚫1 ⚫2 ⚫3"], ["❗", "⚪5 ⚫4 ⚫5"],
                     secret="⚫6", dealer=1, turn=0)
    state = act(state, PASS).state
    step = act(state, PASS)
    end = next(e for e in step.events if e.kind == "match_end")
    assert end.data["deciding"] == [None, ["⚪6"]]
    assert "⚪6" in end.text
    for label in ("⚪1", "⚪2", "⚪3", "⚫1", "⚫2", "⚫3"):
        assert label not in end.text
    assert "⚪6" in E.view(step.state, None)["last_match"]["deciding"][1]


def test_lowest_sum_reveal_names_the_face_up_numbers():
    """RULINGS: the "!" condition is the lowest sum of numbers in play, so the cards that
    decided it are the meeter's face-up numbered cards (public already)."""
    state = scripted(["⚪3 ⚪4 ⚪5 ⚪6", "⚫1 ⚫2 ⚫5 ⚫6"], ["⚪2 ⚫4", "⚪1 ⚫3 ❗"],
                     secret="❗", turn=0)
    state = act(state, PASS).state
    end = next(e for e in act(state, PASS).events if e.kind == "match_end")
    assert end.data["met"] == [1] and end.data["deciding"] == [None, ["⚪1", "⚫3"]]


def test_match_end_event_summarises_and_next_match_is_dealt():
    """Brief: the next match is dealt inside the apply that ends a match, with a public
    summary (secret card, condition, who met it, points); the dealer rotates clockwise."""
    state = scripted(["⚪1 ⚪2 ⚪3 ⚪4", "⚪6 ⚫1 ⚫2 ⚫3"], ["❗", "⚪5 ⚫4 ⚫5"],
                     secret="⚫6", dealer=1, turn=0)
    state = act(state, PASS).state
    step = act(state, PASS)
    kinds = [e.kind for e in step.events]
    assert kinds == ["pass", "match_end", "match_start", "hand", "hand", "secret_card"]
    end = step.events[1]
    assert "⚫6" in end.text and condition_text("⚫6") in end.text
    assert end.data["met"] == [1]  # ⚪6 in seat 1's hand beats seat 0's ⚪4
    assert end.data["secret"] == "⚫6"
    new = step.state
    assert new.match_no == 2 and new.dealer == 0 and E.to_act(new) == {0}
    assert [h.bit_count() for h in new.hands] == [6, 6]
    assert new.total == 0 and new.log == []


def test_highest_in_hand_scenario_points():
    """Seed: "The player who meets the secret card's revealed victory condition wins 2
    points"."""
    state = scripted(["⚪1 ⚪2 ⚪3 ⚪4", "⚪6 ⚫1 ⚫2 ⚫3"], ["❗", "⚪5 ⚫4 ⚫5"],
                     secret="⚫6", dealer=1, turn=0)
    state = act(state, PASS).state
    step = act(state, PASS)
    end = step.events[1]
    # ⚪6 in seat 1's hand is the highest number in hand
    assert end.data["met"] == [1] and end.data["points"] == [0, 2]
    assert step.state.scores == [0, 2]


# --------------------------------------------------------------------------- game end
def test_first_to_target_wins():
    """Seed: "When a player has 6 points, she wins!"."""
    state = scripted(["⚪1 ⚪2 ⚪3 ⚪4", "⚪6 ⚫1 ⚫2 ⚫3"], ["❗", "⚪5 ⚫4 ⚫5"],
                     secret="⚫6", turn=0, scores=[3, 4])
    state = act(state, PASS).state
    step = act(state, PASS)
    out = E.outcome(step.state)
    assert out is not None and out.winners == {1} and out.scores == {0: 3.0, 1: 6.0}
    assert "6 points" in out.reason
    assert E.to_act(step.state) == frozenset()
    assert step.events[-1].kind == "game_over"


def test_everyone_at_target_after_same_match_wins_together():
    """Seed: "If two players reach 6 points in the same match, they both win!"."""
    # seat 0 folds and does not meet (+1), seat 1 meets (+2)
    state = scripted(["⚪1 ⚪2 ⚪3 ⚪4", "⚪6 ⚫1 ⚫2 ⚫3"], ["❗", "⚪5 ⚫4 ⚫5"],
                     secret="⚫6", turn=0, scores=[5, 4])
    state = act(state, FOLD).state
    step = act(state, PASS)
    out = E.outcome(step.state)
    assert out.winners == {0, 1}
    assert out.scores == {0: 6.0, 1: 6.0}


def test_points_target_option():
    """RULINGS: "Points target is an option (default 6)"."""
    assert E.Options().points_target == 6
    state = scripted(["⚪1 ⚪2 ⚪3 ⚪4", "⚪6 ⚫1 ⚫2 ⚫3"], ["❗", "⚪5 ⚫4 ⚫5"],
                     secret="⚫6", turn=0, options={"points_target": 2})
    state = act(state, PASS).state
    assert E.outcome(act(state, PASS).state).winners == {1}
    with pytest.raises(ValidationError):
        E.Options(points_target=1)
    with pytest.raises(ValidationError):
        E.Options(points_target=21)


def test_match_cap_ends_game_and_says_so():
    """RULINGS General: every game ends after a bounded number of actions; the cap is named
    in Outcome.reason (option max_matches, default 50)."""
    assert E.Options().max_matches == 50
    state = E.new_game(2, 4, {"max_matches": 2})
    rng = random.Random(0)
    while E.outcome(state) is None:
        seat = state.turn
        legal = E.legal_actions(state, seat)
        state = E.apply(state, seat, PASS if PASS in legal else rng.choice(legal)).state
    out = E.outcome(state)
    assert state.match_no == 2 and max(state.scores) < 6
    assert "cap" in out.reason
    top = max(state.scores)
    assert out.winners == {s for s in range(2) if state.scores[s] == top}


def test_random_games_are_bounded():
    """RULINGS General: the game always ends (at most 12 plays and n passes/folds between
    plays per match, at most max_matches matches)."""
    for seed in range(30):
        rng = random.Random(seed)
        state = E.new_game(2 + seed % 2, seed)
        for _ in range(5000):
            if not E.to_act(state):
                break
            legal = E.legal_actions(state, state.turn)
            state = E.apply(state, state.turn, rng.choice(legal)).state
        assert E.outcome(state) is not None


# --------------------------------------------------------------------------- bot helpers
def test_menu_path_and_describe():
    """Brief: menu_path groups plays under "Play"; labels ≤ 80 chars."""
    state = scripted(["⚪1 ⚪2 ⚪3 ⚪4 ⚪5", "⚪6 ⚫1 ⚫2 ⚫3 ⚫4"], ["❗", "⚫5"], turn=0)
    paths = [E.menu_path(state, a) for a in E.legal_actions(state, 0)]
    assert paths[0] == ("Play", "⚪1") and paths[-2:] == [("Pass",), ("Fold",)]
    assert E.describe(state, Play("⚪3")) == "Play ⚪3"
    assert E.describe(state, Pass()) == "Pass" and E.describe(state, Fold()) == "Fold"


def test_default_action():
    """Brief: default is the forced first play of the lowest-risk card, otherwise Pass."""
    state = scripted(["❗ ⚪1 ⚪2 ⚪3 ⚪4 ⚪5", "⚪6 ⚫1 ⚫2 ⚫3 ⚫4 ⚫5"])
    assert E.default_action(state, 0) == Play("❗")
    state = scripted(["⚪1 ⚪2 ⚪3 ⚪4 ⚪5 ⚪6", "❗ ⚫1 ⚫2 ⚫3 ⚫4 ⚫5"])
    assert E.default_action(state, 0) in (Play("⚪3"), Play("⚪4"))
    state = scripted(["⚪1 ⚪2 ⚪3 ⚪4 ⚪5", "⚪6 ⚫1 ⚫2 ⚫3 ⚫4"], ["❗", "⚫5"], turn=0)
    assert E.default_action(state, 0) == PASS


def test_secret_labels_follow_what_each_seat_saw():
    """Brief: secret_labels = cards hidden from that seat now and never shown to it."""
    state = scripted(["❗ ⚪1 ⚪2 ⚪3 ⚪4 ⚪5", "⚪6 ⚫1 ⚫2 ⚫3 ⚫4 ⚫5"], secret="⚫6", dealer=0)
    assert E.secret_labels(state, 0) == {"⚪6", "⚫1", "⚫2", "⚫3", "⚫4", "⚫5"}
    assert E.secret_labels(state, 1) == {"❗", "⚪1", "⚪2", "⚪3", "⚪4", "⚪5", "⚫6"}
    state = act(state, Play("⚪3")).state
    assert "⚪3" not in E.secret_labels(state, 1)
    assert "⚪3" not in E.secret_labels(state, None)


def test_determinize_keeps_knowledge():
    """DESIGN §2: determinize resamples only what the seat cannot know; the dealer keeps the
    secret card, others get one of the unseen cards."""
    state = scripted(["⚪1 ⚪2 ⚪3 ⚪4 ⚪5", "⚪6 ⚫1 ⚫2 ⚫3 ⚫4"], ["❗", "⚫5"],
                     secret="⚫6", dealer=0, turn=0)
    secrets = set()
    for k in range(40):
        d0 = E.determinize(state, 0, random.Random(k))
        assert d0.secret == state.secret and d0.hands == state.hands
        d1 = E.determinize(state, 1, random.Random(k))
        assert d1.hands[1] == state.hands[1]
        assert E.view(d1, 1) == E.view(state, 1)
        secrets.add(CARD_LABELS[d1.secret])
    assert secrets == {"⚪1", "⚪2", "⚪3", "⚪4", "⚪5", "⚫6"}


def test_dump_load_round_trip():
    """DESIGN §2: load(dump(s)) equals s in every view and action."""
    state = E.new_game(3, 9, {"points_target": 4})
    rng = random.Random(2)
    for _ in range(40):
        text = E.dump(state)
        again = E.load(text)
        assert E.dump(again) == text
        for seat in (None, 0, 1, 2):
            assert E.view(again, seat) == E.view(state, seat)
        if not E.to_act(state):
            break
        state = E.apply(state, state.turn, rng.choice(E.legal_actions(state, state.turn))).state


# --------------------------------------------------------------------------- AI
def test_ai_dealer_plays_the_winning_card():
    """Brief: the AI plays sensibly from its knowledge. The dealer knows the secret is ⚪6
    ("biggest face-up number") and holds ⚫6: playing it secures the match."""
    state = scripted(["⚫6 ⚪1 ⚪2 ⚪3", "⚫1 ⚫2 ⚫3 ⚫4 ⚫5"], ["❗ ⚪4", "⚪5"], secret="⚪6",
                     dealer=0, turn=0)
    assert E.ai_action(state, 0, random.Random(1)) == Play("⚫6")


def test_ai_folds_a_lost_match():
    """Brief: the AI folds by expected points. As dealer it knows the secret is ⚫1 ("smallest
    number in hand") and sees every other card: seat 1 keeps ⚪1, the AI only sixes, so
    folding (1 point) beats staying (0)."""
    state = scripted(["⚪6 ⚫6", "⚪1 ⚫2 ⚫3 ⚫4 ⚫5"], ["❗ ⚪4 ⚪5", "⚪2 ⚪3"], secret="⚫1",
                     dealer=0, turn=0)
    assert E.ai_action(state, 0, random.Random(1)) == FOLD


def _play_vs_random(n: int, games: int) -> float:
    wins = 0
    for g in range(games):
        rng = random.Random(500 + g)
        ai = g % n
        state = E.new_game(n, 500 + g)
        while E.to_act(state):
            seat = state.turn
            if seat == ai:
                action = E.ai_action(state, seat, random.Random(rng.random()))
            else:
                action = rng.choice(E.legal_actions(state, seat))
            state = E.apply(state, seat, action).state
        wins += ai in E.outcome(state).winners
    return wins / games


def test_ai_beats_random_players():
    """Brief: the AI clearly beats random players (fair share: 1/2 and 1/3)."""
    two = _play_vs_random(2, 60)  # measured 0.92
    three = _play_vs_random(3, 30)  # measured 0.87
    assert two >= 0.75, two
    assert three >= 0.6, three


def test_events_never_leak_secret_labels():
    """Brief: leak tests scan every message a seat sees for `secret_labels`; no event a seat
    (or a spectator) can see may carry a card hidden from it."""
    for seed in range(25):
        n = 2 + seed % 2
        rng = random.Random(seed)
        state = E.new_game(n, seed)
        while E.to_act(state):
            step = E.apply(state, state.turn, rng.choice(E.legal_actions(state, state.turn)))
            state = step.state
            for seat in [None, *range(n)]:
                secrets = E.secret_labels(state, seat)
                seen = " ".join(e.text + json.dumps(dict(e.data), ensure_ascii=False)
                                for e in step.events if e.visible(seat))
                assert not [label for label in secrets if label in seen], (seed, seat)


def test_ai_reads_a_dealer_fold():
    """Seed tip: "If the dealer folds, she does not believe she has the card in play or in
    hand that would win the match". Worlds where the folded dealer met it weigh less."""
    from engines.suspense.ai import dealer_fold_weights, worlds

    state = scripted(["⚪1 ⚪2 ⚪3 ⚪4", "⚪6 ⚫1 ⚫2 ⚫3"], ["❗", "⚪5 ⚫4 ⚫5"],
                     secret="⚫6", dealer=0, turn=0)
    state.log = [(0, "play", LABEL_INDEX["❗"]), (1, "play", LABEL_INDEX["⚪5"]),
                 (0, "fold", -1)]
    state.folded = 1
    state.turn = 1
    sample = worlds(state, 1, random.Random(0))
    weights = dealer_fold_weights(state, 1, sample)
    assert weights is not None and len(weights) == len(sample)
    for (secret, hands), w in zip(sample, weights, strict=True):
        met = meeters(secret, [mask("❗"), mask("⚪5")], hands) & 1
        assert w == (0.2 if met else 1.0)
    assert dealer_fold_weights(state, 0, sample) is None
