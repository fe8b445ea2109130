"""Hidden Rules engine: the Up 'N Over base game, secret rules, enforcement and the AI.

Each test quotes the seed text (seeds/hidden_rules.txt) or the ruling (RULINGS.md, Hidden
Rules) it checks. Scenarios use `scripted`, which builds a state with chosen hands, deck,
rules and turned-up card.
"""

from __future__ import annotations

import json
import random

import pytest

from engines import ENGINES
from engines.cards import Card, make_deck, parse_cards
from engines.core import IllegalActionError, NotYourTurnError, render_seats, typed
from engines.hidden_rules.ai import Beliefs
from engines.hidden_rules.decks import ACTIONS, TRIGGERS
from engines.hidden_rules.rules import (
    ENGINE,
    Accept,
    Challenge,
    Enforce,
    HiddenRulesState,
    Keep,
    Pass,
    Play,
    StartTrick,
    TimeOut,
)

C = Card.parse
# rules used by the scenarios: (trigger, action)
SPADE_YAWP = (7, 1)  # a spade → say "YAWP"
HEART_PLEASE = (6, 8)  # a heart → say "please"
ACE_SORRY = (1, 12)  # an ace → say "sorry"
ZERO_NAME = (9, 3)  # total exactly 0 → name the card
LAST_UPOVER = (15, 15)  # last card → say "up and over"


def scripted(hands: list[str], rules: list[tuple[int, int]], turned: str = "5c",
             deck: str = "", starter: int = 0, scores: list[int] | None = None,
             fill: bool = True, **options) -> HiddenRulesState:
    """A play-phase state: `hands` per seat, `turned` face up, then `deck` drawn left to right
    (followed, with `fill`, by every other card in a fixed order)."""
    n = len(hands)
    s = ENGINE.new_game(n, 7, options or None)
    s.hands = [parse_cards(h) if h else [] for h in hands]
    order = parse_cards(deck) if deck else []
    if fill:
        used = {c for h in s.hands for c in h} | set(order) | {C(turned)}
        order += [c for c in make_deck() if c not in used]
    s.deck = list(reversed(order))
    s.deck.append(C(turned))
    used_t = {t for t, _ in rules}
    used_a = {a for _, a in rules}
    spare_t = [t for t in TRIGGERS if t not in used_t]
    spare_a = [a for a in ACTIONS if a not in used_a]
    s.rule_t = [t for t, _ in rules]
    s.rule_a = [a for _, a in rules]
    s.dealt_t = [(t, spare_t[i]) for i, (t, _) in enumerate(rules)]
    s.dealt_a = [(a, spare_a[i]) for i, (_, a) in enumerate(rules)]
    s.phase = "play"
    s.dealer = starter
    if scores:
        s.scores = list(scores)
    ENGINE._start_trick(s, starter, [])
    return s


def act(s, seat, action):
    step = ENGINE.apply(s, seat, action)
    return step.state, step.events


def kinds(events):
    return [e.kind for e in events]


# --------------------------------------------------------------------------- setup
def test_registered_identity():
    """DESIGN §2: registered as `hidden_rules`, title "Hidden Rules", 2 to 5 players."""
    assert ENGINES["hidden_rules"] is ENGINE
    assert (ENGINE.title, ENGINE.min_players, ENGINE.max_players) == ("Hidden Rules", 2, 5)


@pytest.mark.parametrize(("n", "smaller", "size"),
                         [(3, False, 5), (5, False, 5), (3, True, 5), (4, True, 4), (5, True, 3)])
def test_hand_size_and_smaller_hands_variant(n, smaller, size):
    """RULINGS: "Hand size 5; option: one fewer per player above three (4 players 4, 5 players
    3)"."""
    s = ENGINE.new_game(n, 11, {"smaller_hands": smaller})
    assert all(len(h) == size for h in s.hands)
    assert len(s.deck) == 52 - n * size
    assert not any(c.is_joker for h in s.hands for c in h)  # "52 cards, no jokers"


def test_secret_rule_choice_is_simultaneous_and_private():
    """RULINGS: "each player is dealt 2 triggers and 2 actions and secretly keeps one of each
    (a simultaneous private step before the first trick)"."""
    s = ENGINE.new_game(3, 5)
    assert ENGINE.to_act(s) == {0, 1, 2}
    for seat in range(3):
        options = ENGINE.legal_actions(s, seat)
        assert len(options) == 4 and all(isinstance(a, Keep) for a in options)
        assert ENGINE.view(s, seat)["dealt"]["triggers"][0]["label"].startswith("T")
    keep = ENGINE.legal_actions(s, 1)[3]
    s2, events = act(s, 1, keep)
    assert ENGINE.to_act(s2) == {0, 2}
    assert ENGINE.view(s2, 1)["my_rule"]["trigger"]["id"] == keep.trigger
    assert ENGINE.view(s2, 0)["my_rule"] is None
    secret = next(e for e in events if e.kind == "rule_kept")
    assert secret.visible_to == {1}
    assert TRIGGERS[keep.trigger].label not in json.dumps(ENGINE.view(s2, 0), ensure_ascii=False)
    assert TRIGGERS[keep.trigger].label in ENGINE.secret_labels(s2, 0)
    assert TRIGGERS[keep.trigger].label not in ENGINE.secret_labels(s2, 1)


def test_dealer_starts_first_trick_after_rules_are_kept():
    """Seed: "The dealer begins the first trick"; play then goes "Starting with the player to
    his or her left, and proceeding clockwise"."""
    s = ENGINE.new_game(4, 9)
    for seat in range(4):
        s, events = act(s, seat, ENGINE.legal_actions(s, seat)[0])
    assert s.phase == "play" and "trick_start" in kinds(events)
    assert s.starter == s.dealer and len(s.trick) == 1
    assert s.to_play == (s.dealer + 1) % 4
    assert ENGINE.to_act(s) == {s.to_play}


# --------------------------------------------------------------------------- base game
def test_card_values():
    """Seed: "2 through 10 are worth their face value ... Jacks are worth 0 points, Queens are
    worth -2 points, and Kings are worth -4 points"."""
    s = scripted(["2c 10d Jh", "Qs Kc 9h"], [SPADE_YAWP, HEART_PLEASE], turned="5c")
    expected = 5
    for seat, card, value in ((1, "Qs", -2), (0, "2c", 2), (1, "Kc", -4), (0, "10d", 10),
                              (1, "9h", 9), (0, "Jh", 0)):
        s, _ = act(s, seat, Play(C(card)))
        expected += value
        assert s.total == expected


def test_ace_is_one_or_eleven_as_two_actions():
    """RULINGS: "A 1 or 11 (declared; two distinct legal actions)"."""
    s = scripted(["2c", "Ah 3d"], [SPADE_YAWP, HEART_PLEASE])
    legal = ENGINE.legal_actions(s, 1)
    assert Play(C("Ah"), 1) in legal and Play(C("Ah"), 11) in legal and Play(C("Ah")) not in legal
    assert act(s, 1, Play(C("Ah"), 11))[0].total == 16
    assert act(s, 1, Play(C("Ah"), 1))[0].total == 6


def test_trick_is_collected_only_when_taker_starts_next():
    """Seed: "When you take a trick, add one to your score"; RULINGS: "The trick that a play
    ends is collected only when its taker starts the next trick"."""
    s = scripted(["2c 3c", "6h 4d", "9s 8d"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY],
                 turned="10c")
    s, _ = act(s, 1, Play(C("6h"), say="please"))  # 16
    s, events = act(s, 2, Play(C("8d")))  # 24: over, the player to the right takes
    assert s.trick_over and s.taker == 1
    assert s.scores == [0, 0, 0]  # not collected yet
    assert ENGINE.legal_actions(s, 1)[0] == StartTrick()
    assert ENGINE.to_act(s) == {0, 1}  # seat 0 may still enforce against seat 2's play
    s, events = act(s, 1, StartTrick())
    assert s.scores == [0, 1, 0] and "trick_taken" in kinds(events)
    assert s.starter == 1 and s.to_play == 2 and len(s.trick) == 1


def test_exactly_21_player_takes():
    """Seed: "If you bring the sum to exactly 21, you take the trick"."""
    s = scripted(["2c 3c", "6h 4d", "5s 8d"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY], turned="10c")
    s, _ = act(s, 1, Play(C("6h"), say="please"))  # 16
    s, _ = act(s, 2, Play(C("5s"), say="yawp"))  # 21
    assert s.trick_over and s.taker == 2 and ENGINE.to_act(s) >= {2}


def test_over_21_player_to_the_right_takes():
    """Seed: "If you push the sum over 21, the player to your right takes the trick"."""
    s = scripted(["9c", "10d", "Kd"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY], turned="10c",
                 starter=2)
    s, _ = act(s, 0, Play(C("9c")))  # 19
    s, _ = act(s, 1, Play(C("10d")))  # 29: seat 1 pushed it over
    assert s.taker == 0


def test_player_without_cards_is_skipped_and_dead_trick_is_discarded():
    """RULINGS: "A player with no cards is skipped; if no one can play, the trick is
    discarded"."""
    s = scripted(["2c", "", "3d"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY], turned="5c")
    assert s.to_play == 2  # seat 1 has no cards: skipped
    s, _ = act(s, 2, Play(C("3d")))
    assert s.to_play == 0
    s, events = act(s, 0, Play(C("2c")))
    assert s.trick_over and s.taker == -1 and "trick_end" in kinds(events)
    s, events = act(s, 0, StartTrick())  # the starter starts again; nobody scores
    assert s.scores == [0, 0, 0] and "trick_discarded" in kinds(events)
    assert all(len(h) == 5 for h in s.hands)


def test_refill_starts_from_taker_and_reshuffles_previous_tricks():
    """Seed: "When a trick is taken, draw your hand back up ... If there are not enough cards
    ... take the cards from all previous tricks, shuffle them to create a new deck"; RULINGS:
    "everyone refills to full hand, starting from the taker"."""
    s = scripted(["9c 2c 2d 2h 2s", "3c 3d 3h 3s 4c", "4d 4h 4s 5d 5h"],
                 [SPADE_YAWP, HEART_PLEASE, ACE_SORRY], turned="10c", deck="Kd", fill=False)
    s.pile = parse_cards("6c 6d 6h 6s 7c")
    s, _ = act(s, 1, Play(C("3c")))  # 13
    s, _ = act(s, 2, Play(C("4d")))  # 17
    s, _ = act(s, 0, Play(C("2c")))  # 19
    s, _ = act(s, 1, Play(C("3d")))  # 22 → seat 0 takes
    assert s.taker == 0
    s, events = act(s, 0, StartTrick())
    draws = [e for e in events if e.kind == "drew"]
    assert [e.data["seat"] for e in draws] == [0, 1, 2]  # starting from the taker
    assert C("Kd") in s.hands[0]  # the taker draws the last deck card first
    assert "reshuffle" in kinds(events)
    assert all(len(h) == 5 for h in s.hands)


# --------------------------------------------------------------------------- enforcement
def test_enforcement_window_after_a_play():
    """RULINGS: "after any play, until the next card is played (or the next trick is started),
    any player may enforce against it"; the player of the card cannot enforce against it, and
    each seat enforces or passes at most once per play."""
    s = scripted(["2c 3c", "6s 4d", "9h 8d"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY])
    s, _ = act(s, 1, Play(C("6s")))
    assert ENGINE.to_act(s) == {0, 2}
    assert Enforce(0) in ENGINE.legal_actions(s, 0) and Pass() in ENGINE.legal_actions(s, 0)
    assert Enforce(0) in ENGINE.legal_actions(s, 2) and Pass() not in ENGINE.legal_actions(s, 2)
    assert ENGINE.legal_actions(s, 1) == []
    with pytest.raises(NotYourTurnError):
        ENGINE.apply(s, 1, Enforce(0))
    s_pass, _ = act(s, 0, Pass())
    assert ENGINE.to_act(s_pass) == {2}
    s_next, _ = act(s, 2, Play(C("9h"), say="please"))  # the next card closes the window
    assert ENGINE.to_act(s_next) == {0, 1}  # a new window on seat 2's play
    assert s_next.last is not None and s_next.last.seat == 2


def test_accept_undoes_play_and_turn_passes():
    """RULINGS: "Accept: the card goes back to the hand, the total and any trick it ended are
    undone, the accused loses 1 point, and their turn ends"."""
    s = scripted(["2c 3c", "6s Kd", "9h 8d"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY],
                 turned="Jc")
    s = act(s, 1, Play(C("Kd")))[0]
    s = act(s, 2, Play(C("9h"), say="please"))[0]
    s = act(s, 0, Play(C("3c")))[0]
    s = act(s, 1, Play(C("6s")))[0]  # a spade without YAWP: seat 0's rule broken
    s = act(s, 0, Enforce(0, hint="spades need a shout"))[0]
    assert s.phase == "pending" and ENGINE.to_act(s) == {1}
    assert ENGINE.view(s, None)["pending"]["hint"] == "spades need a shout"
    assert ENGINE.default_action(s, 1) == Accept()
    before_total = 8
    s, _events = act(s, 1, Accept())
    assert C("6s") in s.hands[1] and s.total == before_total
    assert s.scores == [0, -1, 0]
    assert s.to_play == 2  # seat 1's turn ends


def test_accept_undoes_the_trick_it_ended():
    """RULINGS: "any trick it ended [is] undone" — the taker can no longer start the next one."""
    s = scripted(["2c", "6h 4d", "5s 8d"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY], turned="10c")
    s = act(s, 1, Play(C("6h"), say="please"))[0]
    s = act(s, 2, Play(C("5s")))[0]  # 21 without the YAWP
    assert s.trick_over and s.taker == 2
    s = act(s, 0, Enforce(0))[0]
    s = act(s, 2, Accept())[0]
    assert not s.trick_over and s.taker == -1 and s.total == 16 and s.to_play == 0


@pytest.mark.parametrize(("play", "right"), [(Play(C("6s")), True),
                                             (Play(C("6s"), say="YAWP"), False)])
def test_challenge_own_rule(play, right):
    """RULINGS: "Holder enforcing own rule: right → enforcer +1, challenger −1 and the Accept
    penalty applies; wrong → enforcer −1, challenger +1, play stands"; the bot "shows that rule
    privately to the challenger"."""
    s = scripted(["2c 3c", "6s 4d", "9h 8d"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY])
    s = act(s, 1, play)[0]
    s = act(s, 0, Enforce(0, hint="shout"))[0]
    s, events = act(s, 1, Challenge())
    reveal = next(e for e in events if e.kind == "rule_revealed")
    assert reveal.visible_to == {1} and TRIGGERS[7].label in reveal.text
    assert ENGINE.view(s, 1)["known_rules"]["0"]["trigger"]["id"] == 7
    assert "0" not in ENGINE.view(s, 2)["known_rules"]
    if right:
        assert s.scores == [1, -2, 0] and C("6s") in s.hands[1]
    else:
        assert s.scores == [-1, 1, 0] and C("6s") not in s.hands[1] and s.total == 11
    assert s.history[-1].result == ("right" if right else "wrong")


@pytest.mark.parametrize(("play", "right"), [(Play(C("6h")), True),
                                             (Play(C("6h"), say="please"), False)])
def test_challenge_someone_elses_rule(play, right):
    """RULINGS: "Enforcing someone else's rule: right → enforcer +1, challenger −1, holder −1
    and the penalty applies; wrong → enforcer −1, challenger +1, holder +1, play stands"."""
    s = scripted(["2c 3c", "6h 4d", "9h 8d"], [SPADE_YAWP, ACE_SORRY, HEART_PLEASE])
    s = act(s, 1, play)[0]
    s = act(s, 0, Enforce(2, hint="manners"))[0]  # seat 0 enforces seat 2's rule
    s = act(s, 1, Challenge())[0]
    if right:
        assert s.scores == [1, -2, -1] and C("6h") in s.hands[1]
    else:
        assert s.scores == [-1, 1, 1] and s.total == 11


def test_wrong_enforcement_keeps_window_open_for_others():
    """Our model: a failed enforcement leaves the play standing and other seats may still
    enforce against it (each seat once per play)."""
    s = scripted(["2c 3c", "6h 4d", "9h 8d"], [SPADE_YAWP, ACE_SORRY, HEART_PLEASE])
    s = act(s, 1, Play(C("6h")))[0]
    s = act(s, 0, Enforce(0))[0]
    s = act(s, 1, Challenge())[0]  # seat 0's spade rule was not broken
    assert ENGINE.to_act(s) == {2} and Enforce(2) in ENGINE.legal_actions(s, 2)
    assert Enforce(0) not in ENGINE.legal_actions(s, 0)
    s = act(s, 2, Enforce(2))[0]
    s = act(s, 1, Accept())[0]
    assert s.scores == [-1, 0, 0] and C("6h") in s.hands[1]


def test_score_floor_minus_ten():
    """Seed and RULINGS: "No score below −10"."""
    s = scripted(["2c 3c", "6s 4d", "9h 8d"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY],
                 scores=[0, -10, 0])
    s = act(s, 1, Play(C("6s")))[0]
    s = act(s, 0, Enforce(0))[0]
    s = act(s, 1, Challenge())[0]
    assert s.scores == [1, -10, 0]


def test_win_only_when_a_trick_is_collected():
    """RULINGS: "The first player with ≥ 3 points when a trick is collected wins (option:
    target)"."""
    s = scripted(["2c 3c", "6h 4d", "5s 8d"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY],
                 turned="10c", scores=[3, 2, 0], deck="2d 2h 2s 3d 3h 3s 4s 4h 5c 5d")
    assert ENGINE.outcome(s) is None  # 3 points are not enough until a trick is collected
    s = act(s, 1, Play(C("6h"), say="please"))[0]
    s = act(s, 2, Play(C("5s"), say="yawp"))[0]
    s, events = act(s, 2, StartTrick())
    result = ENGINE.outcome(s)
    assert result is not None and result.winners == {0} and "3 points" in result.reason
    assert ENGINE.to_act(s) == frozenset() and "game_over" in kinds(events)
    assert ENGINE.view(s, 1)["all_rules"][0]["trigger"]["id"] == 7


def test_target_option():
    """RULINGS: "(option: target)" — the taker wins at once with target 1."""
    s = scripted(["2c", "6h 4d", "5s 8d"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY], turned="10c",
                 target=1)
    s = act(s, 1, Play(C("6h"), say="please"))[0]
    s = act(s, 2, Play(C("5s"), say="yawp"))[0]
    s = act(s, 2, StartTrick())[0]
    assert ENGINE.outcome(s).winners == {2}


# --------------------------------------------------------------------------- timer, referee
def test_time_out_costs_a_point_and_passes_the_turn():
    """RULINGS: "the seed's 5 seconds becomes an option (default 60 s, 0 = off). Running out =
    −1 point and the turn passes with no card played"."""
    s = scripted(["2c 3c", "6s 4d", "9h 8d"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY])
    assert TimeOut() not in ENGINE.legal_actions(s, 1)
    assert ENGINE.default_action(s, 1) == TimeOut()
    s2, _events = act(s, 1, TimeOut())
    assert s2.scores == [0, -1, 0] and s2.to_play == 2 and len(s2.hands[1]) == 2
    with pytest.raises(NotYourTurnError):
        ENGINE.apply(s, 2, TimeOut())
    off = scripted(["2c 3c", "6s 4d", "9h 8d"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY],
                   turn_seconds=0)
    with pytest.raises(IllegalActionError):
        ENGINE.apply(off, 1, TimeOut())
    assert isinstance(ENGINE.default_action(off, 1), Play)


def test_referee_option_enforces_automatically():
    """RULINGS: "option `referee`, off by default, makes it enforce every rule automatically"."""
    s = scripted(["2c 3c", "6s 4d", "9h 8d"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY],
                 referee=True)
    s, events = act(s, 1, Play(C("6s")))
    assert "referee" in kinds(events) and C("6s") in s.hands[1] and s.scores == [0, -1, 0]
    assert s.to_play == 2 and ENGINE.view(s, 1)["known_rules"]["0"]["action"]["id"] == 1
    s, events = act(s, 2, Play(C("9h"), say="Please!"))
    assert "referee" not in kinds(events)


def test_no_automatic_enforcement_by_default():
    """RULINGS: "The bot never enforces hidden rules by itself" (referee off)."""
    s = scripted(["2c 3c", "6s 4d", "9h 8d"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY])
    s, events = act(s, 1, Play(C("6s")))
    assert "referee" not in kinds(events) and s.scores == [0, 0, 0]


def test_safety_cap_ends_the_game_with_a_reason():
    """RULINGS General: "Every game must end after a bounded number of legal actions ... when
    the cap ends a game, `Outcome.reason` says so"."""
    s = scripted(["2c 3c", "6s 4d", "9h 8d"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY],
                 max_turns=50)
    s.turns = 49
    s = act(s, 1, TimeOut())[0]
    result = ENGINE.outcome(s)
    assert result is not None and "cap" in result.reason and result.winners == {0, 2}


# --------------------------------------------------------------------------- say, views, io
def test_say_text_is_not_part_of_action_equality():
    """Plays carry a `say` text; any say matches the listed play and apply uses it."""
    s = scripted(["2c 3c", "6s 4d", "9h 8d"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY])
    play = Play(C("6s"), say="YAWP a lion")
    assert play in ENGINE.legal_actions(s, 1) and play == Play(C("6s"))
    s, events = act(s, 1, play)
    assert events[0].data["say"] == "YAWP a lion"
    assert ENGINE.view(s, None)["trick"]["cards"][-1]["say"] == "YAWP a lion"
    assert ENGINE.view(s, None)["named"]["animals"] == ["lion"]


def test_views_show_only_what_a_seat_may_know():
    """RULINGS: each player sees their own rule and rules shown to them by challenges; hints,
    point changes, the trick, scores, hand sizes and deck size are public."""
    s = scripted(["2c 3c", "6s 4d", "9h 8d"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY])
    spectator = ENGINE.view(s, None)
    assert "hand" not in spectator and "my_rule" not in spectator
    assert spectator["hand_sizes"] == [2, 2, 2] and spectator["trick"]["total"] == 5
    mine = ENGINE.view(s, 1)
    assert sorted(mine["hand"]) == ["4♦", "6♠"] and mine["my_rule"]["action"]["id"] == 8
    blob = json.dumps(mine, ensure_ascii=False)
    assert "seed" not in blob and TRIGGERS[7].label not in blob
    assert TRIGGERS[7].label in ENGINE.secret_labels(s, 1)
    assert "9♥" in ENGINE.secret_labels(s, 1) and "6♠" not in ENGINE.secret_labels(s, 1)


def test_determinize_keeps_the_seats_knowledge():
    """DESIGN §2: determinize resamples what the seat does not know, its view stays equal."""
    s = scripted(["2c 3c", "6h 4d", "9h 8d"], [SPADE_YAWP, ACE_SORRY, HEART_PLEASE])
    s = act(s, 1, Play(C("6h")))[0]
    s = act(s, 0, Enforce(2))[0]
    s = act(s, 1, Challenge())[0]  # seat 1 now knows seat 2's rule
    for k in range(20):
        d = ENGINE.determinize(s, 1, random.Random(k))
        assert ENGINE.view(d, 1) == ENGINE.view(s, 1)
        assert (d.rule_t[2], d.rule_a[2]) == HEART_PLEASE


def test_dump_load_round_trip_mid_enforcement():
    """DESIGN §2: `load(dump(s))` equal in every view and action."""
    s = scripted(["2c 3c", "6s 4d", "9h 8d"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY])
    s = act(s, 1, Play(C("6s"), say="a cat"))[0]
    s = act(s, 0, Enforce(0, hint="loud"))[0]
    again = ENGINE.load(ENGINE.dump(s))
    assert ENGINE.dump(again) == ENGINE.dump(s)
    for seat in (None, 0, 1, 2):
        assert ENGINE.view(again, seat) == ENGINE.view(s, seat)


def test_menu_paths_and_describe():
    """Turn panel labels: ("Play", card), ("Enforce", "Rule of {P2}"), ("Keep a rule", T, A)."""
    s = scripted(["2c 3c", "Ah 4d", "9h 8d"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY])
    assert ENGINE.menu_path(s, Play(C("Ah"), 11)) == ("Play", "A♥ as 11")
    assert ENGINE.menu_path(s, Enforce(2)) == ("Enforce", "Rule of {P2}")
    assert ENGINE.menu_path(s, Pass()) == ("Let the play stand",)
    fresh = ENGINE.new_game(2, 3)
    path = ENGINE.menu_path(fresh, ENGINE.legal_actions(fresh, 0)[0])
    assert path[0] == "Keep a rule" and path[1].startswith("T") and path[2].startswith("A")
    assert all(len(label) <= 80 for label in path)
    described = ENGINE.describe(s, Play(C("Ah"), 1, say="sorry"))
    assert render_seats(described, []) == "Play A♥ as 1 saying “sorry”"
    assert described == f"Play A♥ as 1 saying “{typed('sorry')}”"  # shown literally


def test_garbage_actions_are_rejected():
    """DESIGN §2: apply raises IllegalActionError for anything not legal."""
    s = scripted(["2c 3c", "6s 4d", "9h 8d"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY])
    for bad in (object(), Play(C("2c")), Play(C("6s"), 11), Enforce(0), StartTrick(), "6s"):
        with pytest.raises(IllegalActionError):
            ENGINE.apply(s, 1, bad)


# --------------------------------------------------------------------------- AI
def test_ai_says_what_its_own_rule_requires():
    """AI: "says what its own rule requires when it triggers it"."""
    s = scripted(["2c 3c", "6s", "9h 8d"], [SPADE_YAWP, LAST_UPOVER, ACE_SORRY])
    action = ENGINE.ai_action(s, 1, random.Random(1))
    assert isinstance(action, Play) and "up and over" in action.say.lower()


def test_ai_enforces_its_own_rule():
    """AI: "enforces its own rule when others break it"."""
    s = scripted(["2c 3c", "6s 4d", "9h 8d"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY])
    s = act(s, 1, Play(C("6s")))[0]
    action = ENGINE.ai_action(s, 0, random.Random(1))
    assert action == Enforce(0) and action.hint


def test_ai_challenges_a_wrong_enforcement_of_its_own_rule():
    """AI: "challenges when it judges an enforcement wrong" (here: its own rule, not broken)."""
    s = scripted(["2c 3c", "6s 4d", "9h 8d"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY])
    s = act(s, 1, Play(C("6s")))[0]
    s = act(s, 0, Enforce(1))[0]  # seat 1's rule is about hearts
    assert ENGINE.ai_action(s, 1, random.Random(1)) == Challenge()


def test_ai_learns_a_rule_from_public_history():
    """AI: "learns rules it has seen enforced ... and follows/enforces them"."""
    s = scripted(["2c 3c 4c", "6s 4d As", "9h 8d Qd"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY])
    s = act(s, 1, Play(C("6s")))[0]
    s = act(s, 0, Enforce(0))[0]
    s = act(s, 1, Challenge())[0]  # right: 6s goes back, the turn passes to seat 2
    s = act(s, 2, Play(C("9h"), say="please"))[0]  # 14
    s = act(s, 0, Play(C("2c")))[0]  # 16
    s = act(s, 1, Play(C("As"), 1))[0]  # 17: another spade without a shout
    s = act(s, 0, Enforce(0))[0]
    s = act(s, 1, Challenge())[0]  # seat 1 challenged; seat 2 only watched
    assert not s.knows_rule(2, 0)
    beliefs = Beliefs(s, 2)
    assert beliefs.best_guess(0)[0] == 7  # seat 2 now believes seat 0's trigger is "a spade"
    # Seat 2 now plays a spade: it shouts, following the rule it learned.
    s.hands[2] = [C("Ks")]
    s.to_play = 2
    action = ENGINE.ai_action(s, 2, random.Random(3))
    assert action.card == C("Ks") and "yawp" in action.say.lower()


def _ai_game(n: int, seed: int) -> bool:
    rng = random.Random(seed)
    s = ENGINE.new_game(n, seed)
    for _ in range(20_000):
        seats = sorted(ENGINE.to_act(s))
        if not seats:
            break
        seat = rng.choice(seats)
        if seat == 0:
            action = ENGINE.ai_action(s, 0, random.Random(rng.random()))
        else:
            action = rng.choice(ENGINE.legal_actions(s, seat))
        s = ENGINE.apply(s, seat, action).state
    result = ENGINE.outcome(s)
    return result is not None and result.winners == {0}


def test_ai_clearly_beats_random_players():
    """Quality bar: the AI plays sensibly. One AI against random players wins most seeded
    games (3 seats: 1 in 3 by chance; 5 seats: 1 in 5)."""
    wins3 = sum(_ai_game(3, 500 + k) for k in range(30))
    wins5 = sum(_ai_game(5, 900 + k) for k in range(20))
    assert wins3 >= 20, wins3  # chance: 10 of 30
    assert wins5 >= 12, wins5  # chance: 4 of 20


def test_waiting_for_excludes_optional_enforcers():
    """RULINGS: "any player may enforce" — optional, so the turn timer only runs against the
    player to play (or the accused), never against the seats that may enforce."""
    import random

    from engines.hidden_rules.rules import ENGINE

    rng = random.Random(3)
    state = ENGINE.new_game(4, 11)
    for _ in range(400):
        seats = ENGINE.to_act(state)
        if not seats:
            break
        waiting = ENGINE.waiting_for(state)
        assert waiting <= seats and len(waiting) >= 1
        if state.phase == "play":
            assert len(waiting) == 1
        seat = rng.choice(sorted(seats))
        state = ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat))).state


def test_a_play_line_is_a_sentence_like_every_other_history_line():
    """History read "alice turns up 3♠ (total 3)." then "bob plays 7♣ (total 10)" with no
    full stop: a play line ends with one too, after what was said."""
    s = scripted(["2c 3c", "6h 4d", "5s 8d"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY], turned="10c")
    s, events = act(s, 1, Play(C("6h"), say="please"))
    [play] = [e for e in events if e.kind == "play"]
    assert render_seats(play.text, []).endswith("(total 16) — says “please”.")
    _, events = act(s, 2, Play(C("5s")))
    [play] = [e for e in events if e.kind == "play"]
    assert play.text.endswith("(total 21).")


# --------------------------------------------------------------------------- plays let stand
def test_passing_on_a_play_records_the_rules_it_broke_for_the_seat_that_passed():
    """A seat that lets a play stand shows it holds none of the rules the play broke (a
    trigger it fired with an action it missed); the record is public, per seat."""
    from engines.hidden_rules.decks import pair_bit

    s = scripted(["7s 2d", "5h 6h", "5d 6d"], [LAST_UPOVER, HEART_PLEASE, ACE_SORRY],
                 turned="5c", starter=2)
    s, _ = act(s, 0, Play(C("7s")))
    s, _ = act(s, 2, Pass())
    spade_yawp, spade_silent, heart_yawp = pair_bit(7, 1), pair_bit(7, 11), pair_bit(6, 1)
    assert s.let_stand[2] & spade_yawp  # a spade said with nothing: "YAWP" was missed
    assert not s.let_stand[2] & spade_silent  # silence was kept
    assert not s.let_stand[2] & heart_yawp  # no heart was played
    assert s.let_stand[1] == 0 and s.let_stand[0] == 0  # they did not pass
    again = ENGINE.load(ENGINE.dump(s))
    assert again.let_stand == s.let_stand
    old = json.loads(ENGINE.dump(s))
    del old["let_stand"]  # a game saved before the record existed
    assert ENGINE.load(json.dumps(old)).let_stand == ()


def test_hard_beliefs_drop_a_rule_its_holder_let_a_play_break():
    """The hard level's beliefs (`stands`) weigh a rule down once its holder let a play
    that broke it stand; the normal AI's beliefs do not read the record."""
    s = scripted(["7s 2d", "5h 6h", "5d 6d"], [LAST_UPOVER, HEART_PLEASE, ACE_SORRY],
                 turned="5c", starter=2)
    s, _ = act(s, 0, Play(C("7s")))
    s, _ = act(s, 2, Pass())
    normal, hard = Beliefs(s, 1), Beliefs(s, 1, stands=True)
    assert normal.pairs[2][(7, 1)] == normal.pairs[2][(5, 1)]  # no even card was played
    assert hard.pairs[2][(7, 1)] == pytest.approx(0.1 * hard.pairs[2][(5, 1)])
