"""Hidden Rules: an independent rules audit of the engine (engines/hidden_rules*.py).

Every test names and quotes the sentence of the seed (seeds/hidden_rules.txt) or of the
ruling (RULINGS.md, Hidden Rules / General) it checks. Scenarios are scripted deals with exact
expected totals and scores. The rules used are (trigger id, action id) pairs from
data/hidden_rules/cards.json, named below.
"""

from __future__ import annotations

import json
import random

import pytest

from engines.cards import Card, make_deck, parse_cards
from engines.core import IllegalActionError, NotYourTurnError
from engines.hidden_rules.decks import (
    ACTION_CHECKS,
    ACTIONS,
    TRIGGER_CHECKS,
    TRIGGERS,
    PlayContext,
    broken,
)
from engines.hidden_rules.rules import (
    CARD_BIT,
    ENGINE,
    Accept,
    Challenge,
    Enforce,
    Keep,
    Options,
    Pass,
    Play,
    StartTrick,
    TimeOut,
)
from tests.engines.test_hidden_rules import scripted

C = Card.parse
SPADE_YAWP = (7, 1)  # T07 a spade → A01 shout "YAWP"
HEART_PLEASE = (6, 8)  # T06 a heart → A08 say "please"
ACE_SORRY = (1, 12)  # T01 an ace → A12 say "sorry"
ZERO_NAME = (9, 3)  # T09 total exactly 0 → A03 name the card
LAST_UPOVER = (15, 15)  # T15 last card in hand → A15 say "up and over"
SAME_RANK_PLEASE = (3, 8)  # T03 same rank as the card before → A08 "please"
HEART_ANIMAL = (6, 5)  # T06 a heart → A05 an animal not named yet this game
BELOW_ZERO_WORDS = (12, 4)  # T12 total below zero → A04 the new total in words
EXACT21_NICE = (13, 2)  # T13 exactly 21 → A02 "have a nice day"
FOUR = [SPADE_YAWP, ACE_SORRY, HEART_PLEASE, ZERO_NAME]


def act(s, seat, action):
    step = ENGINE.apply(s, seat, action)
    return step.state, step.events


def kinds(events):
    return [e.kind for e in events]


def cards_in_play(s) -> list[Card]:
    return [c for h in s.hands for c in h] + s.deck + s.pile + [c for _, c, _, _ in s.trick]


# =========================================================================== setup
def test_options_defaults_follow_the_rulings():
    """RULINGS: target 3 ("first player with ≥ 3 points"), hand size 5 ("option: one fewer"),
    time limit "default 60 s, 0 = off", `referee` "off by default"."""
    o = Options()
    assert (o.target, o.smaller_hands, o.turn_seconds, o.referee) == (3, False, 60, False)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_deal_two_triggers_and_two_actions_each_rest_out_of_play(n):
    """Seed: "Deal two triggers and two actions to each player. Set the rest aside, out of
    play." Each seat sees only its own four cards; no card is dealt twice."""
    s = ENGINE.new_game(n, 40 + n)
    triggers = [t for pair in s.dealt_t for t in pair]
    actions = [a for pair in s.dealt_a for a in pair]
    assert len(triggers) == len(set(triggers)) == 2 * n
    assert len(actions) == len(set(actions)) == 2 * n
    for seat in range(n):
        dealt = ENGINE.view(s, seat)["dealt"]
        assert sorted(t["id"] for t in dealt["triggers"]) == sorted(s.dealt_t[seat])
        assert sorted(a["id"] for a in dealt["actions"]) == sorted(s.dealt_a[seat])
        blob = json.dumps(ENGINE.view(s, seat), ensure_ascii=False)
        for other in range(n):
            if other != seat:
                for t in s.dealt_t[other]:
                    assert TRIGGERS[t].label not in blob
    assert "dealt" not in ENGINE.view(s, None)


def test_keep_one_of_your_own_triggers_and_actions_only():
    """Seed: "Pick one of your triggers and one of your actions to keep." A seat cannot keep a
    card it was not dealt, nor choose twice."""
    s = ENGINE.new_game(3, 12)
    t_other = s.dealt_t[1][0]
    with pytest.raises(IllegalActionError):
        ENGINE.apply(s, 0, Keep(t_other, s.dealt_a[0][0]))
    keep = Keep(s.dealt_t[0][1], s.dealt_a[0][0])
    s, _ = act(s, 0, keep)
    assert (s.rule_t[0], s.rule_a[0]) == (keep.trigger, keep.action)
    assert s.phase == "choose" and ENGINE.to_act(s) == {1, 2}
    with pytest.raises(NotYourTurnError):
        ENGINE.apply(s, 0, Keep(s.dealt_t[0][0], s.dealt_a[0][0]))
    # nobody plays a card before every rule is kept ("before the first trick")
    assert s.trick == [] and ENGINE.view(s, None)["to_play"] is None


def test_dealer_is_random_for_the_first_deal():
    """RULINGS General: "Dealer: random for the first deal"; hands are dealt from the dealer's
    left and the dealer turns up the first card."""
    dealers = {ENGINE.new_game(4, seed).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}


# =========================================================================== the base game
def test_play_goes_clockwise_lap_after_lap_including_the_starter():
    """RULINGS: "players in clockwise order from the starter's left each play one hand card,
    lap after lap" (left of X = the next seat clockwise)."""
    s = scripted(["2c 2d", "3c 3d", "Jc Jd"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY],
                 turned="4c", starter=1)
    order = []
    for card in ("Jc", "2c", "3c", "Jd", "2d"):
        order.append(s.to_play)
        s, _ = act(s, s.to_play, Play(C(card)))
    assert order == [2, 0, 1, 2, 0]
    assert s.total == 4 + 0 + 2 + 3 + 0 + 2


def test_playing_out_of_turn_is_illegal():
    """Seed: "Playing out of turn is illegal." Only the seat to play may play a card."""
    s = scripted(["2c 3c", "6d 4d", "9c 8d"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY])
    assert s.to_play == 1
    for seat in (0, 2):
        with pytest.raises(NotYourTurnError):
            ENGINE.apply(s, seat, Play(s.hands[seat][0]))


def test_below_21_play_continues_and_negative_totals_are_fine():
    """Seed: "If the sum is less than 21, play continues normally" — a total may go below zero
    (J 0, Q −2, K −4)."""
    s = scripted(["Kc 2c", "Qd 4d", "Ks 8d"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY],
                 turned="2h")
    s, _ = act(s, 1, Play(C("Qd")))  # 0
    s, _ = act(s, 2, Play(C("Ks"), say="yawp"))  # -4
    s, _ = act(s, 0, Play(C("Kc")))  # -8
    assert s.total == -8 and not s.trick_over and s.to_play == 1


def test_turned_up_ace_counts_one():
    """Interpretation (the seed: the starter "announces its value"; the turned-up card is no
    player's choice): a turned-up ace counts 1, as data/hidden_rules/rules.md says."""
    s = scripted(["2c", "3d"], [SPADE_YAWP, HEART_PLEASE], turned="As")
    assert s.total == 1 and s.trick[0][2] == 1


def test_exactly_21_scripted_trick_take_score_refill_and_next_start():
    """Seed: "If you bring the sum to exactly 21, you take the trick ... add one to your score";
    "each trick begins when the last player to take a trick takes the top card"; RULINGS:
    "everyone refills to full hand, starting from the taker"."""
    s = scripted(["2c 3c", "Jd 4d", "Ad 8d"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY],
                 turned="10c", deck="2h 3h 4h 5h 6h 7h 7d 8h 9h 9d Qh Kc")
    s, _ = act(s, 1, Play(C("Jd")))  # 10
    s, events = act(s, 2, Play(C("Ad"), 11, say="sorry"))  # 21 with an ace declared 11
    assert s.total == 21 and s.trick_over and s.taker == 2 and s.to_play == -1
    assert ENGINE.view(s, None)["trick"]["taker"] == 2
    assert ENGINE.legal_actions(s, 2)[0] == StartTrick()
    assert StartTrick() not in ENGINE.legal_actions(s, 0)
    s, events = act(s, 2, StartTrick())
    assert s.scores == [0, 0, 1]
    assert s.hands[2] == sorted([C("8d"), *parse_cards("2h 3h 4h 5h")])
    assert s.hands[0] == sorted(parse_cards("2c 3c 6h 7h 7d"))
    assert s.hands[1] == sorted(parse_cards("4d 8h 9h 9d Qh"))
    assert [e.data["seat"] for e in events if e.kind == "drew"] == [2, 0, 1]
    assert s.starter == 2 and s.trick[0][1] == C("Kc") and s.total == -4
    assert s.to_play == 0  # the taker's left
    assert s.pile == [C("10c"), C("Jd"), C("Ad")]
    assert len(cards_in_play(s)) == 52


def test_over_21_the_player_to_the_right_takes_wrapping_around():
    """Seed: "If you push the sum over 21, the player to your right takes the trick"; RULINGS:
    "right of X is the previous seat" — seat 0's right is the last seat."""
    s = scripted(["5c", "9d 2d", "Kd", "9c 3c"], FOUR, turned="10c", starter=2)
    assert s.to_play == 3
    s, _ = act(s, 3, Play(C("3c")))  # 13
    s, _ = act(s, 0, Play(C("5c")))  # 18
    s, _ = act(s, 1, Play(C("9d")))  # 27: seat 1 pushed it over
    assert s.trick_over and s.taker == 0 and s.total == 27
    s, _ = act(s, 0, StartTrick())
    assert s.scores == [1, 0, 0, 0] and s.starter == 0 and s.to_play == 1
    s = scripted(["Qc 9c", "5d", "5h", "3c"], FOUR, turned="10c", starter=2)
    s, _ = act(s, 3, Play(C("3c")))  # 13
    s, _ = act(s, 0, Play(C("9c")))  # 22: seat 0 pushed it over; its right is seat 3
    assert s.taker == 3
    s, _ = act(s, 3, StartTrick())
    assert s.scores == [0, 0, 0, 1] and s.starter == 3 and s.to_play == 0


def test_over_21_taker_is_the_right_neighbour_even_with_an_empty_hand():
    """RULINGS: "over 21 (the player to the right of the one who pushed it over takes it)" —
    taken literally, whether or not that player still holds cards."""
    s = scripted(["Kc 9c", "", "5h 2h"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY], turned="10c",
                 starter=1)
    s, _ = act(s, 2, Play(C("5h"), say="please"))  # 15
    s, _ = act(s, 0, Play(C("9c")))  # 24: seat 0 pushed it over; its right is seat 2
    assert s.taker == 2
    s = scripted(["Kc 9c", "5d", ""], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY], turned="10c",
                 starter=2)
    s, _ = act(s, 0, Play(C("9c")))  # 19
    s, _ = act(s, 1, Play(C("5d")))  # 24: seat 1 pushed it over; its right is seat 0
    assert s.taker == 0


def test_ace_declared_eleven_can_push_over_21():
    """RULINGS: "A 1 or 11 (declared; two distinct legal actions)" — the declared value
    counts: 11 on 12 is over 21, 1 on 12 is 13."""
    s = scripted(["2c", "Ah 3d", "4c"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY], turned="Qc")
    s.total = 12
    over, _ = act(s, 1, Play(C("Ah"), 11, say="please sorry"))
    assert over.total == 23 and over.trick_over and over.taker == 0
    under, _ = act(s, 1, Play(C("Ah"), 1, say="please sorry"))
    assert under.total == 13 and not under.trick_over
    with pytest.raises(IllegalActionError):
        ENGINE.apply(s, 1, Play(C("Ah"), 5))


def test_taken_trick_goes_face_down_and_cannot_be_looked_at():
    """Seed: "gather the cards from the trick into a pile face-down ... Once taken, the cards
    from a trick may not be looked at" — views show only the pile's size."""
    s = scripted(["2c 3c", "6d 4d", "5c 8d"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY],
                 turned="10c")
    s, _ = act(s, 1, Play(C("6d")))  # 16
    s, _ = act(s, 2, Play(C("5c")))  # 21
    s, _ = act(s, 2, StartTrick())
    for seat in (None, 0, 1, 2):
        v = ENGINE.view(s, seat)
        assert v["pile_size"] == 3 and "pile" not in v
        assert [c["card"] for c in v["trick"]["cards"]] == [str(s.trick[0][1])]


def test_refill_reshuffles_previous_tricks_only_when_the_deck_runs_short():
    """Seed: "If there are not enough cards to fill all players' hands, take the cards from all
    previous tricks, shuffle them to create a new deck, and continue filling hands"; the old
    deck's last cards are drawn first (from the taker on), then the new deck."""
    # exactly enough cards left (11 to draw + 1 to turn up): no reshuffle
    s = scripted(["2c 3c", "6d 4d", "5c 8d"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY],
                 turned="10c", deck="2h 3h 4h 5h 6h 7h 7d 8h 9h 10h Jh Qh", fill=False)
    s.pile = parse_cards("9c 9d 9h 9s")
    s, _ = act(s, 1, Play(C("6d")))  # 16
    s, _ = act(s, 2, Play(C("5c")))  # 21
    s, events = act(s, 2, StartTrick())
    assert "reshuffle" not in kinds(events)
    assert [len(h) for h in s.hands] == [5, 5, 5] and s.deck == []
    assert s.trick[0][1] == C("Qh") and len(s.pile) == 7
    # short deck: seat 2 (taker) and seat 0 get the last 2 deck cards, then the previous
    # tricks (the one just taken included) are shuffled into a new deck for seat 1 and the
    # next turned-up card
    s = scripted(["2c 3c 7c 7d", "6d 4d Qc Qd Qh", "5c 8d Kc Kd Kh"],
                 [SPADE_YAWP, HEART_PLEASE, ACE_SORRY], turned="10c", deck="2h 3h", fill=False)
    pile = parse_cards("9c 9d 9h 9s 8c 8h")
    s.pile = pile[:]
    s, _ = act(s, 1, Play(C("6d")))  # 16
    s, _ = act(s, 2, Play(C("5c")))  # 21
    s, events = act(s, 2, StartTrick())
    refill = [(e.kind, e.data.get("seat")) for e in events if e.kind in ("drew", "reshuffle")]
    assert refill == [("drew", 2), ("drew", 0), ("reshuffle", None), ("drew", 1)]
    assert C("2h") in s.hands[2] and C("3h") in s.hands[0]
    assert [len(h) for h in s.hands] == [5, 5, 5] and s.pile == [] and len(s.trick) == 1
    back = set(pile) | {C("10c"), C("6d"), C("5c")}
    new_cards = (set(s.hands[1]) - set(parse_cards("4d Qc Qd Qh"))) | set(s.deck) | {
        s.trick[0][1]}
    assert new_cards == back and len(s.deck) == 7
    assert len(cards_in_play(s)) == 23


# =========================================================================== enforcement
def _four(play: Play, scores=(1, 1, 1, 1), **options):
    """4 seats, rules FOUR (0: spade→YAWP, 1: ace→sorry, 2: heart→please, 3: zero→name);
    5♣ turned up by seat 0; seat 1 plays `play`."""
    s = scripted(["2c 3c", "6s 6h Ah 2d", "9c 8d", "4c 5d"], FOUR, turned="5c",
                 scores=list(scores), **options)
    return act(s, 1, play)[0]


OUTCOMES = [
    # name, play by seat 1, enforcer, holder, reply, expected scores (all start at 1), undone
    ("accept", Play(C("6s")), 0, 0, Accept(), [1, 0, 1, 1], True),
    ("own_rule_right", Play(C("6s")), 0, 0, Challenge(), [2, -1, 1, 1], True),
    ("own_rule_wrong", Play(C("6s"), say="YAWP!"), 0, 0, Challenge(), [0, 2, 1, 1], False),
    ("own_rule_wrong_not_triggered", Play(C("6h")), 0, 0, Challenge(), [0, 2, 1, 1], False),
    ("other_rule_right", Play(C("6h")), 0, 2, Challenge(), [2, -1, 0, 1], True),
    ("other_rule_wrong", Play(C("6h"), say="please"), 0, 2, Challenge(), [0, 2, 2, 1], False),
    ("other_rule_wrong_not_triggered", Play(C("6s"), say="yawp"), 3, 2, Challenge(),
     [1, 2, 2, 0], False),
    ("next_player_enforces_own_rule_right", Play(C("6h")), 2, 2, Challenge(),
     [1, -1, 2, 1], True),
    ("accuseds_own_rule_right", Play(C("Ah"), 1), 0, 1, Challenge(), [2, -2, 1, 1], True),
    ("accuseds_own_rule_wrong", Play(C("Ah"), 1, say="sorry"), 0, 1, Challenge(),
     [0, 3, 1, 1], False),
    ("accept_other_rule", Play(C("6h")), 3, 2, Accept(), [1, 0, 1, 1], True),
    ("accept_even_if_not_broken", Play(C("6h"), say="please"), 3, 2, Accept(),
     [1, 0, 1, 1], True),
]


@pytest.mark.parametrize(("name", "play", "enforcer", "holder", "reply", "scores", "undone"),
                         OUTCOMES, ids=[o[0] for o in OUTCOMES])
def test_each_enforcement_outcome_with_exact_scores(name, play, enforcer, holder, reply,
                                                    scores, undone):
    """RULINGS: "Accept: the card goes back to the hand, the total ... undone, the accused
    loses 1 point, and their turn ends." "Challenge ... Holder enforcing own rule: right →
    enforcer +1, challenger −1 and the Accept penalty applies; wrong → enforcer −1, challenger
    +1, play stands. Enforcing someone else's rule: right → enforcer +1, challenger −1, holder
    −1 and the penalty applies; wrong → enforcer −1, challenger +1, holder +1, play stands."
    (When the named holder is the accused, both of the accused's shares apply.)"""
    s = _four(play)
    value = play.ace_as or 6
    assert s.total == 5 + value and s.to_play == 2
    s, events = act(s, enforcer, Enforce(holder, hint="a hint"))
    assert s.phase == "pending" and ENGINE.to_act(s) == {1}
    s, events = act(s, 1, reply)
    assert s.scores == scores, name
    assert s.phase == "play" and s.to_play == 2  # the accused's turn is over either way
    if undone:
        assert play.card in s.hands[1] and s.total == 5 and len(s.trick) == 1
        assert s.last is None and ENGINE.to_act(s) == {2}  # nothing left to enforce against
    else:
        assert play.card not in s.hands[1] and s.total == 5 + value and len(s.trick) == 2
        assert s.last is not None and enforcer not in ENGINE.to_act(s)
    record = s.history[-1]
    assert (record.enforcer, record.holder, record.accused) == (enforcer, holder, 1)
    assert list(record.changes) == [b - 1 for b in scores]
    revealed = [e for e in events if e.kind == "rule_revealed"]
    if isinstance(reply, Challenge):
        assert record.result == ("right" if undone else "wrong")
        assert len(revealed) == 1 and revealed[0].visible_to == {1}
        assert TRIGGERS[FOUR[holder][0]].label in revealed[0].text
        assert s.knows_rule(1, holder)
        assert all(not s.knows_rule(p, holder) for p in range(4) if p not in (1, holder))
    else:
        assert record.result == "accepted" and revealed == []
        assert not any(s.knows_rule(1, p) for p in range(4) if p != 1)


def test_the_hint_is_not_judged():
    """RULINGS: "name the rule holder ... and give a hint"; the bot checks "whether the play
    really broke the named holder's rule" — a misleading hint does not change the result, and
    the hint is public."""
    s = _four(Play(C("6s")))
    s, _ = act(s, 0, Enforce(0, hint="you forgot to say please"))
    assert ENGINE.view(s, 3)["pending"]["hint"] == "you forgot to say please"
    s, _ = act(s, 1, Challenge())
    assert s.scores == [2, -1, 1, 1]


def test_enforcing_pauses_the_game_until_the_accused_answers():
    """RULINGS: "The game pauses; the accused chooses Accept or Challenge (timeout = Accept)"."""
    s = _four(Play(C("6s")))
    s, _ = act(s, 3, Enforce(0))
    assert ENGINE.to_act(s) == {1} and ENGINE.waiting_for(s) == {1}
    assert ENGINE.legal_actions(s, 1) == [Accept(), Challenge()]
    for seat in (0, 2, 3):
        assert ENGINE.legal_actions(s, seat) == []
    with pytest.raises(NotYourTurnError):
        ENGINE.apply(s, 2, Play(C("9c")))
    with pytest.raises(NotYourTurnError):
        ENGINE.apply(s, 0, Enforce(0))
    assert ENGINE.default_action(s, 1) == Accept()
    s, _ = act(s, 1, ENGINE.default_action(s, 1))
    assert s.scores == [1, 0, 1, 1]


def test_window_closes_when_the_next_card_is_played():
    """RULINGS: "after any play, until the next card is played ... any player may enforce
    against it" — once the next card is down only that new play can be enforced against."""
    s = _four(Play(C("6s")))
    s, _ = act(s, 2, Play(C("9c")))
    assert s.last.seat == 2 and s.last.ctx.card == C("9c")
    s, _ = act(s, 0, Enforce(0))  # "your spade" — but the open play is seat 2's 9♣
    s, _ = act(s, 2, Challenge())
    assert s.scores == [0, 1, 2, 1] and C("6s") not in s.hands[1]


def test_window_stays_open_after_a_time_out():
    """RULINGS: the window lasts "until the next card is played (or the next trick is
    started)"; a time-out plays no card, so the earlier play can still be enforced. (Fixed:
    the engine used to close the window on a time-out.)"""
    s = _four(Play(C("6s")))
    s, _ = act(s, 2, TimeOut())
    assert s.scores == [1, 1, 0, 1] and s.to_play == 3
    assert s.last is not None and ENGINE.to_act(s) == {0, 2, 3}
    s, _ = act(s, 0, Enforce(0))
    s, _ = act(s, 1, Challenge())
    assert s.scores == [2, -1, 0, 1] and C("6s") in s.hands[1]
    assert s.to_play == 2  # the accused's turn ends: the next seat plays


def test_each_seat_enforces_or_passes_once_per_play_and_not_on_its_own_play():
    """Our model of "any player may enforce against it": each other seat acts at most once
    per play (so enforcement cannot loop); the player of the card does not enforce against it
    (interpretation: it could only buy back its own card for a point)."""
    s = _four(Play(C("6s")))
    assert ENGINE.to_act(s) == {0, 2, 3}
    assert ENGINE.legal_actions(s, 1) == []
    s, _ = act(s, 3, Pass())
    with pytest.raises(NotYourTurnError):
        ENGINE.apply(s, 3, Enforce(0))
    s, _ = act(s, 2, Enforce(2))
    s, _ = act(s, 1, Challenge())  # wrong: no heart
    assert ENGINE.to_act(s) == {0, 2}  # seat 2 may still play, not enforce again
    assert Enforce(2) not in ENGINE.legal_actions(s, 2)
    s, _ = act(s, 0, Enforce(0))
    s, _ = act(s, 1, Challenge())  # right: the spade without the shout
    assert s.scores == [2, 0, 0, 1] and C("6s") in s.hands[1]


# =========================================================================== undoing a trick end
def test_undo_a_21_play_by_accepting():
    """RULINGS: "The trick that a play ends is collected only when its taker starts the next
    trick, so it can still be undone by an enforcement until then"; Accept undoes "the total
    and any trick it ended"."""
    s = scripted(["2c 3c", "6h 4d", "5s 8d"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY],
                 turned="10c", scores=[0, 2, 2])
    s, _ = act(s, 1, Play(C("6h"), say="please"))  # 16
    s, _ = act(s, 2, Play(C("5s")))  # 21, but no YAWP
    assert s.trick_over and s.taker == 2 and ENGINE.to_act(s) == {0, 1, 2}
    s, _ = act(s, 0, Enforce(0, hint="spades are loud"))
    s, _ = act(s, 2, Accept())
    assert s.scores == [0, 2, 1] and not s.trick_over and s.taker == -1
    assert s.total == 16 and C("5s") in s.hands[2] and s.to_play == 0
    assert StartTrick() not in ENGINE.legal_actions(s, 2)
    s, _ = act(s, 0, Play(C("3c")))  # 19: the trick simply goes on
    assert s.total == 19 and s.to_play == 1


def test_undo_an_over_21_play_by_a_right_challenge_of_someone_elses_rule():
    """RULINGS: "Enforcing someone else's rule: right → enforcer +1, challenger −1, holder −1
    and the penalty applies" on a play that pushed the total over 21 (the right neighbour's
    trick is undone, nobody scores it)."""
    s = scripted(["2c 3c", "Kd 4d", "9h 8d", "2d"], FOUR, turned="10c", scores=[0, 0, 0, 0])
    s, _ = act(s, 1, Play(C("4d")))  # 14
    s, _ = act(s, 2, Play(C("9h")))  # 23: over, seat 1 takes; heart without "please"
    assert s.trick_over and s.taker == 1
    s, _ = act(s, 3, Enforce(2, hint="manners"))
    s, _ = act(s, 2, Challenge())
    assert s.scores == [0, 0, -3, 1]  # accused and holder: −1 (challenge) −1 (holder) −1
    assert not s.trick_over and s.taker == -1 and s.total == 14 and s.to_play == 3
    s, _ = act(s, 3, Play(C("2d")))
    assert s.total == 16


def test_undo_the_play_that_left_nobody_able_to_play():
    """RULINGS: "if no one can play, the trick is discarded" — and that end is undone too when
    the play that caused it is taken back."""
    s = scripted(["2c", "6s"], [SPADE_YAWP, HEART_PLEASE], turned="3c")
    s, _ = act(s, 1, Play(C("6s")))  # 9
    s, _ = act(s, 0, Play(C("2c")))  # 11, nobody has cards left
    assert s.trick_over and s.taker == -1 and ENGINE.to_act(s) == {0, 1}
    s, _ = act(s, 1, Enforce(1))
    s, _ = act(s, 0, Accept())  # not broken, but accepted: the card goes back anyway
    assert not s.trick_over and s.hands[0] == [C("2c")] and s.to_play == 0 and s.total == 9


def test_starting_the_next_trick_locks_the_point():
    """RULINGS: the window closes when "the next trick is started": after StartTrick the
    trick-ending play can no longer be enforced against, and the point is scored."""
    s = scripted(["2c 3c", "6h 4d", "5s 8d"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY],
                 turned="10c")
    s, _ = act(s, 1, Play(C("6h"), say="please"))
    s, _ = act(s, 2, Play(C("5s")))  # 21 without the YAWP
    s, _ = act(s, 2, StartTrick())
    assert s.scores == [0, 0, 1] and s.last is None and ENGINE.to_act(s) == {0}
    assert all(not isinstance(a, Enforce) for a in ENGINE.legal_actions(s, 0))


# =========================================================================== floor and winning
def test_score_floor_on_accept_timeout_and_challenges():
    """Seed: "No player's score can go lower than -10." — for the accused (accept, time-out,
    a right challenge worth −2), a wrong enforcer, and a holder at the floor."""
    s = _four(Play(C("6s")), scores=(0, -10, 0, 0))
    assert act(act(s, 0, Enforce(0))[0], 1, Accept())[0].scores == [0, -10, 0, 0]
    s = _four(Play(C("6s")), scores=(0, -9, 0, 0))
    assert act(act(s, 0, Enforce(0))[0], 1, Challenge())[0].scores == [1, -10, 0, 0]
    s = _four(Play(C("6s"), say="yawp"), scores=(-10, 0, 0, 0))
    assert act(act(s, 0, Enforce(0))[0], 1, Challenge())[0].scores == [-10, 1, 0, 0]
    s = _four(Play(C("6h")), scores=(0, 0, -10, 0))
    assert act(act(s, 3, Enforce(2))[0], 1, Challenge())[0].scores == [0, -2, -10, 1]
    s = _four(Play(C("6h")), scores=(0, -10, 0, 0))
    s, events = act(s, 2, TimeOut())
    assert s.scores == [0, -10, -1, 0]
    s = _four(Play(C("6h")), scores=(0, 0, -10, 0))
    s, events = act(s, 2, TimeOut())
    assert s.scores == [0, 0, -10, 0]
    assert next(e for e in events if e.kind == "timeout").data["changes"] == [0, 0, 0, 0]


def test_win_at_collection_highest_score_wins_and_ties_share():
    """RULINGS: "The first player with ≥ 3 points when a trick is collected wins" — points won
    by enforcing count, but only when a trick is collected; if several have ≥ 3 then, the
    highest wins (a tie shares the win: interpretation)."""
    def game(scores):
        s = scripted(["2c 3c", "6h 4d", "5s 8d"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY],
                     turned="10c", scores=scores)
        s, _ = act(s, 1, Play(C("6h"), say="please"))
        s, _ = act(s, 2, Play(C("5s"), say="yawp"))  # 21: seat 2 takes
        return s

    s = game([2, 0, 2])
    s, _ = act(s, 0, Enforce(0))
    s, _ = act(s, 2, Challenge())  # wrong: seat 0 −1, seat 2 +1 → 3 points mid-trick
    assert s.scores == [1, 0, 3] and ENGINE.outcome(s) is None
    s, _ = act(s, 2, StartTrick())
    assert ENGINE.outcome(s).winners == {2} and s.scores == [1, 0, 4]
    s = act(game([5, 0, 1]), 2, StartTrick())[0]  # the taker reaches 2; seat 0 has 5
    assert ENGINE.outcome(s).winners == {0}
    s = act(game([3, 0, 2]), 2, StartTrick())[0]
    assert ENGINE.outcome(s).winners == {0, 2}
    s = act(game([0, 0, 1]), 2, StartTrick())[0]
    assert ENGINE.outcome(s) is None and s.scores == [0, 0, 2]


def test_game_over_reveals_every_rule_and_stops_all_actions():
    """DESIGN §2: "to_act ... empty once the game is over"; at the end every rule is shown."""
    s = scripted(["2c", "6h 4d", "5s 8d"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY], turned="10c",
                 target=1)
    s, _ = act(s, 1, Play(C("6h"), say="please"))
    s, _ = act(s, 2, Play(C("5s"), say="yawp"))
    s, events = act(s, 2, StartTrick())
    assert ENGINE.to_act(s) == frozenset() and all(ENGINE.legal_actions(s, p) == [] for p in
                                                    range(3))
    shown = [e for e in events if e.kind == "rule_shown"]
    assert len(shown) == 3 and all(e.visible_to is None for e in shown)
    assert [r["action"]["id"] for r in ENGINE.view(s, None)["all_rules"]] == [1, 8, 12]


# =========================================================================== time limit
def test_time_out_passes_the_turn_without_a_card():
    """RULINGS: "Running out = −1 point and the turn passes with no card played"; the timer
    runs against the player to play only, never against optional enforcers."""
    s = _four(Play(C("6s")), scores=(0, 0, 0, 0))
    assert ENGINE.waiting_for(s) == {2} and ENGINE.default_action(s, 2) == TimeOut()
    s, _ = act(s, 2, TimeOut())
    assert s.scores == [0, 0, -1, 0] and s.to_play == 3
    assert len(s.hands[2]) == 2 and s.total == 11 and len(s.trick) == 2
    assert ENGINE.waiting_for(s) == {3}


# =========================================================================== referee mode
def test_referee_catches_the_players_own_rule_privately():
    """RULINGS: "option `referee` ... makes it enforce every rule automatically" — the accused's
    own rule too; the card goes back, −1 point, the turn passes; the rule is shown to the
    accused only."""
    s = _four(Play(C("Ah"), 1), scores=(0, 0, 0, 0), referee=True)
    assert s.scores == [0, -1, 0, 0] and C("Ah") in s.hands[1] and s.total == 5
    assert s.to_play == 2 and s.history[-1].result == "referee"
    assert s.history[-1].holder == 1 and s.history[-1].enforcer == -1


def test_referee_event_visibility_and_one_penalty_per_play():
    """Referee mode: the public event names the holder and the action's hint, never the rule;
    the broken rule is shown to the accused privately; one play is taken back once (−1) even
    when it breaks two rules."""
    rules = [SPADE_YAWP, ACE_SORRY, (8, 8), ZERO_NAME]  # seat 2: same suit as before → please
    s = scripted(["2c 3c", "6s 4d", "9c 8d", "4c 5d"], rules, turned="5s", referee=True)
    s, events = act(s, 1, Play(C("6s")))  # a spade on a spade: seats 0 and 2's rules broken
    assert s.scores == [0, -1, 0, 0] and C("6s") in s.hands[1]
    pub = next(e for e in events if e.kind == "referee")
    assert pub.visible_to is None and pub.data["holder"] == 0
    assert TRIGGERS[7].label not in pub.text and ACTIONS[1].label not in pub.text
    priv = next(e for e in events if e.kind == "rule_revealed")
    assert priv.visible_to == {1} and TRIGGERS[7].label in priv.text
    assert ENGINE.view(s, 1)["known_rules"]["0"]["trigger"]["id"] == 7
    assert ENGINE.view(s, 3)["known_rules"] == {}


def test_referee_undoes_a_trick_ending_play_and_lets_clean_plays_stand():
    """Referee mode: a play that made 21 but broke a rule is taken back at once (no trick);
    a play that breaks no rule stands and the players may still enforce (wrongly) against it."""
    s = scripted(["2c 3c", "6h 4d", "5s 5d"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY],
                 turned="10c", referee=True)
    s, events = act(s, 1, Play(C("6h"), say="please"))  # 16, clean
    assert "referee" not in kinds(events) and ENGINE.to_act(s) == {0, 2}
    s, events = act(s, 2, Play(C("5s")))  # 21 without the YAWP
    assert "referee" in kinds(events)
    assert not s.trick_over and s.taker == -1 and s.total == 16 and s.scores == [0, 0, -1]
    assert s.to_play == 0
    s, _ = act(s, 0, Play(C("2c")))  # 18
    s, _ = act(s, 1, Play(C("4d")))  # 22: clean bust, seat 0 takes
    assert s.trick_over and s.taker == 0 and s.scores == [0, 0, -1]


def test_referee_respects_the_floor():
    """Referee penalty at −10 stays at −10 ("No player's score can go lower than -10")."""
    s = _four(Play(C("6s")), scores=(0, -10, 0, 0), referee=True)
    assert s.scores == [0, -10, 0, 0] and C("6s") in s.hands[1]


# =========================================================================== plays in context
def test_the_turned_up_card_is_the_card_before_the_first_play():
    """T03 "same rank as the card just before it" sees the turned-up card under the first
    play (checked by the referee in a real trick)."""
    s = scripted(["2c", "5h 4d", "9c"], [SPADE_YAWP, SAME_RANK_PLEASE, ACE_SORRY],
                 turned="5c", referee=True)
    bad, _ = act(s, 1, Play(C("5h")))
    assert bad.scores == [0, -1, 0]
    good, _ = act(s, 1, Play(C("5h"), say="please"))
    assert good.scores == [0, 0, 0] and good.total == 10


def test_last_card_in_hand_is_counted_after_the_play():
    """T15 "When you play the final card left in your hand…" fires on the hand's last card."""
    s = scripted(["2c 3c", "4d", "9c 8d"], [SPADE_YAWP, LAST_UPOVER, ACE_SORRY],
                 turned="5c", referee=True)
    assert act(s, 1, Play(C("4d")))[0].scores == [0, -1, 0]
    assert act(s, 1, Play(C("4d"), say="Up and over!"))[0].scores == [0, 0, 0]
    s2 = scripted(["2c 3c", "4d 2d", "9c 8d"], [SPADE_YAWP, LAST_UPOVER, ACE_SORRY],
                  turned="5c", referee=True)
    assert act(s2, 1, Play(C("4d")))[0].scores == [0, 0, 0]


def test_a_name_counts_as_used_once_said_in_the_game():
    """A05 "name an animal nobody has named yet this game" (seed: "Name an animal ... that
    hasn't been named before in the game"): a name said with any earlier play, by anyone, is
    used up, aliases included; a new one is fine. Interpretation: a name said with a play that
    was taken back was still said."""
    s = scripted(["2h 3h", "4h 5s", "Jc Qc Kc"], [HEART_ANIMAL, SPADE_YAWP, ACE_SORRY],
                 turned="5c", starter=2, referee=True)
    s, _ = act(s, 0, Play(C("2h"), say="a cat"))  # 7: a new animal
    assert s.scores == [0, 0, 0]
    s, _ = act(s, 1, Play(C("5s"), say="lion"))  # no YAWP: taken back, but "lion" was said
    assert s.scores == [0, -1, 0] and ENGINE.view(s, None)["named"]["animals"] == ["cat", "lion"]
    s, _ = act(s, 2, Play(C("Jc")))  # 7
    s, _ = act(s, 0, Play(C("3h"), say="lion"))  # already named
    assert s.scores == [-1, -1, 0] and C("3h") in s.hands[0]
    s, _ = act(s, 1, Play(C("4h"), say="kitty"))  # alias of cat: already named
    assert s.scores == [-1, -2, 0] and C("4h") in s.hands[1]
    s, _ = act(s, 2, Play(C("Qc")))  # 5
    s, _ = act(s, 0, Play(C("3h"), say="two wolves and an aardvark"))
    assert s.scores == [-1, -2, 0] and s.total == 8
    assert ENGINE.view(s, None)["named"]["animals"] == ["aardvark", "cat", "lion", "wolf"]


def test_total_in_words_below_zero_through_the_engine():
    """T12 "leaves the total below zero" + A04 "spell out the new total in words (for example
    “minus four”)": digits do not count, words do."""
    s = scripted(["2c", "Kd 4d", "9c"], [SPADE_YAWP, BELOW_ZERO_WORDS, ACE_SORRY],
                 turned="3c", referee=True)
    assert act(s, 1, Play(C("Kd"), say="-1"))[0].scores == [0, -1, 0]
    assert act(s, 1, Play(C("Kd"), say="Minus one!"))[0].scores == [0, 0, 0]


def test_exactly_21_trigger_with_an_ace_as_eleven():
    """T13 "makes exactly 21 and wins you the trick" with an ace declared 11 + A02 "have a
    nice day"."""
    s = scripted(["2c", "Ad 4d", "9c"], [SPADE_YAWP, EXACT21_NICE, HEART_PLEASE],
                 turned="10c", referee=True)
    assert act(s, 1, Play(C("Ad"), 11))[0].scores == [0, -1, 0]
    ok = act(s, 1, Play(C("Ad"), 11, say="have a nice day"))[0]
    assert ok.scores == [0, 0, 0] and ok.trick_over and ok.taker == 1
    assert act(s, 1, Play(C("Ad"), 1))[0].scores == [0, 0, 0]  # 11 ≠ 21: not triggered


def _ctx(card="7h", prev="5c", prev_total=5, value=None, hand_left=3, say=""):
    c = C(card)
    if value is None:
        value = {1: 1, 11: 0, 12: -2, 13: -4}.get(c.rank, c.rank)
    return PlayContext(c, value, C(prev), prev_total, prev_total + value, hand_left, say)


EDGE_TRIGGERS = [
    # (trigger, context, fires)
    (1, _ctx("Ac", value=1), True),
    (2, _ctx("Jc"), True), (2, _ctx("Kh"), True), (2, _ctx("Ac"), False),
    (3, _ctx("Kd", prev="Ks"), True), (3, _ctx("Kd", prev="Qd"), False),
    (4, _ctx("2d", prev="Js"), True), (4, _ctx("2c", prev="Jh"), False),
    (4, _ctx("2h", prev="Jd"), False),
    (5, _ctx("10c"), True), (5, _ctx("2c"), True), (5, _ctx("Qc"), False), (5, _ctx("Ac"), False),
    (8, _ctx("Kd", prev="2d"), True), (8, _ctx("Kd", prev="Kh"), False),
    (9, _ctx("Jc", prev_total=0), True), (9, _ctx("Qc", prev_total=2), True),
    (9, _ctx("Qc", prev_total=0), False),
    (10, _ctx("Ac", prev_total=5, value=11), True), (10, _ctx("2c", prev_total=15), True),
    (10, _ctx("2c", prev_total=13), False), (10, _ctx("Kc", prev_total=18), False),
    (11, _ctx("Kc", prev_total=-1), True), (11, _ctx("9c", prev_total=16), True),
    (11, _ctx("Jc", prev_total=10), True), (11, _ctx("Qc", prev_total=2), False),
    (12, _ctx("Kc", prev_total=3), True), (12, _ctx("Kc", prev_total=4), False),
    (13, _ctx("Ac", prev_total=10, value=11), True), (13, _ctx("Ac", prev_total=10), False),
    (14, _ctx("Ac", prev_total=11, value=11), True), (14, _ctx("Kc", prev_total=25), False),
    (16, _ctx("Ac", prev="Kc"), True), (16, _ctx("Kc", prev="Ac"), False),
    (16, _ctx("5c", prev="5d"), False),
]


@pytest.mark.parametrize(("tid", "ctx", "fires"), EDGE_TRIGGERS)
def test_trigger_edges(tid, ctx, fires):
    """Trigger edges: T02 J/Q/K only; T03/T08 compare with the card just before; T04 red on
    black only; T05 even number cards only (not Q); T09 a jack on zero still makes zero;
    T10 crossing 15 (ace as 11 too); T11 multiples of 5 incl. −5 and 10, not 0; T12 below
    zero; T13/T14 use the declared ace; T16 aces low."""
    assert TRIGGER_CHECKS[tid](ctx) is fires, TRIGGERS[tid].text


EDGE_ACTIONS = [
    # (action, context, performed)
    (3, _ctx("10d", say="10♦"), True), (3, _ctx("10d", say="ten of diamonds"), True),
    (3, _ctx("Ac", say="Ace of clubs!"), True), (3, _ctx("Kh", say="king"), False),
    (4, _ctx("9c", prev_total=12, say="twenty-one"), True),
    (4, _ctx("9c", prev_total=12, say="21"), False),
    (4, _ctx("Jc", prev_total=0, say="zero"), True),
    (7, _ctx("Qs", say="♠"), True), (7, _ctx("Qs", say="spade"), True),
    (7, _ctx("Qs", say="clubs"), False),
    (9, _ctx("Qs", say="black"), True), (9, _ctx("Qh", say="black"), False),
    (10, _ctx("Ac", value=11, say="eleven"), True), (10, _ctx("Ac", value=11, say="1"), False),
    (10, _ctx("Jc", say="0"), True), (10, _ctx("Kc", say="(-4)"), True),
    (10, _ctx("Kc", say="4"), False),
    (11, _ctx(say=""), True), (11, _ctx(say="ok"), False),
    (13, _ctx(prev_total=-3, say="minus three"), True), (13, _ctx(prev_total=-3, say="3"), False),
    (14, _ctx("Ac", say="I"), True), (14, _ctx("10c", say="everything"), True),
    (14, _ctx("10c", say="everything!!"), True), (14, _ctx("3c", say="four"), False),
    (16, _ctx(hand_left=0, say="zero"), True), (16, _ctx(hand_left=0, say="none left"), True),
    (16, _ctx(hand_left=4, say="four cards"), True), (16, _ctx(hand_left=4, say="3"), False),
]


@pytest.mark.parametrize(("aid", "ctx", "done"), EDGE_ACTIONS)
def test_action_edges(aid, ctx, done):
    """Action edges: A03 full name (symbols, ten, ace; rank alone is not enough); A04 words
    only; A07 suit word or symbol; A09 colour; A10 declared value (ace 11, jack 0, king −4,
    also "(-4)"); A11 nothing said; A13 negative totals; A14 word length = rank; A16 zero."""
    assert ACTION_CHECKS[aid](ctx) is done, ACTIONS[aid].text


# =========================================================================== secrets
def _events_leak_check(n: int, seed: int, referee: bool) -> int:
    rng = random.Random(seed)
    s = ENGINE.new_game(n, seed, {"referee": referee})
    says = ["", "yawp", "a cat", "please", "sorry", "seven of hearts", "up and over"]
    checked = 0
    for _ in range(300):
        seats = sorted(ENGINE.to_act(s))
        if not seats:
            break
        seat = rng.choice(seats)
        action = rng.choice(ENGINE.legal_actions(s, seat))
        if isinstance(action, Play):
            action = Play(action.card, action.ace_as, rng.choice(says))
        step = ENGINE.apply(s, seat, action)
        s = step.state
        for viewer in [None, *range(n)]:
            secrets = ENGINE.secret_labels(s, viewer)
            for e in step.events:
                if not e.visible(viewer):
                    continue
                blob = e.text + json.dumps(dict(e.data), ensure_ascii=False, default=str)
                for label in secrets:
                    assert label not in blob, (e.kind, label, viewer)
                checked += 1
    return checked


@pytest.mark.parametrize(("n", "seed", "referee"), [(3, 1, False), (4, 2, True), (5, 3, False)])
def test_events_never_show_a_seat_anothers_secret(n, seed, referee):
    """DESIGN §2: events are "each visible to everyone or to a set of seats" — no event a seat
    can see names a card in another hand or the deck, or a rule card it does not know."""
    assert _events_leak_check(n, seed, referee) > 100


def _mid_game():
    """Seat 1's 6♠ was taken back (everyone knows it is in seat 1's hand), seat 3's rule was
    publicly found unbroken by seat 2's 9♣, and a right challenge showed seat 2's rule to seat
    1 only (taking back seat 1's 6♥ too)."""
    s = scripted(["2c 3c", "6s 6h Ah 2d", "9c 8d", "4c 5d"], FOUR, turned="5c")
    s, _ = act(s, 1, Play(C("6s")))
    s, _ = act(s, 0, Enforce(0))
    s, _ = act(s, 1, Accept())  # 6♠ back to seat 1's hand
    s, _ = act(s, 2, Play(C("9c")))  # 14
    s, _ = act(s, 1, Enforce(3))
    s, _ = act(s, 2, Challenge())  # wrong: seat 3's rule (total 0) was not broken
    s, _ = act(s, 3, Play(C("4c")))  # 18
    s, _ = act(s, 0, Play(C("2c")))  # 20
    s, _ = act(s, 1, Play(C("6h")))  # 26
    s, _ = act(s, 0, Enforce(2))
    s, _ = act(s, 1, Challenge())  # right: seat 1 now knows seat 2's rule; 6♥ back
    assert [r.result for r in s.history] == ["accepted", "wrong", "right"]
    assert s.scores == [1, -4, 0, 1]
    return s


def test_determinize_resamples_everything_hidden_and_keeps_what_is_known():
    """DESIGN §2: determinize gives "a state that seat cannot tell apart from this one: all
    hidden information that seat does not know is resampled" — other hands, deck order, other
    rules and set-aside rule cards vary; the seat's hand, rule, rules shown to it, cards
    everyone saw go back into a hand, and every public challenge result stay true."""
    s = _mid_game()
    rec = s.history[1]
    assert rec.result == "wrong" and rec.holder == 3
    hands0, decks, rules3, rules0, aside = set(), set(), set(), set(), set()
    for k in range(40):
        d = ENGINE.determinize(s, 1, random.Random(k))
        assert ENGINE.view(d, 1) == ENGINE.view(s, 1)
        assert sorted(cards_in_play(d)) == sorted(cards_in_play(s))
        assert d.hands[1] == s.hands[1] and (d.rule_t[2], d.rule_a[2]) == HEART_PLEASE
        assert (d.rule_t[1], d.rule_a[1]) == ACE_SORRY
        assert [len(h) for h in d.hands] == [len(h) for h in s.hands]
        assert not broken(d.rule_t[3], d.rule_a[3], rec.ctx)  # consistent with "wrong"
        assert d.rule_t[0] not in s.dealt_t[1] and d.rule_a[0] not in s.dealt_a[1]
        ts = [d.rule_t[p] for p in range(4)] + [d.dealt_t[p][1] for p in range(4)]
        assert len(set(ts)) == 8
        hands0.add(tuple(d.hands[0]))
        decks.add(tuple(d.deck))
        rules3.add((d.rule_t[3], d.rule_a[3]))
        rules0.add((d.rule_t[0], d.rule_a[0]))
        aside.add(d.dealt_t[2][1])
    assert min(len(hands0), len(decks), len(rules3), len(rules0), len(aside)) > 5
    # seat 0 knows seat 1 holds the taken-back 6♠, but not which other cards
    for k in range(20):
        d = ENGINE.determinize(s, 0, random.Random(k))
        assert {C("6s"), C("6h")} <= set(d.hands[1]) and d.known_in_hand & CARD_BIT[C("6s")]
        assert ENGINE.view(d, 0) == ENGINE.view(s, 0)


def test_determinize_keeps_a_right_challenge_true_for_every_seat():
    """A public "right" result means the play broke the holder's rule: every resampled rule for
    that holder is one the play breaks."""
    s = _mid_game()
    right = next(r for r in s.history if r.result == "right")
    for seat in (0, 3):
        for k in range(15):
            d = ENGINE.determinize(s, seat, random.Random(k))
            assert broken(d.rule_t[2], d.rule_a[2], right.ctx)


def test_determinize_after_the_game_still_hides_the_set_aside_cards():
    """Seed: the unkept trigger and action are "out of play" and never shown: even after the
    game (when every kept rule is public) determinize resamples them."""
    s = scripted(["2c", "6h 4d", "5s 8d"], [SPADE_YAWP, HEART_PLEASE, ACE_SORRY], turned="10c",
                 target=1)
    s, _ = act(s, 1, Play(C("6h"), say="please"))
    s, _ = act(s, 2, Play(C("5s"), say="yawp"))
    s, _ = act(s, 2, StartTrick())
    assert s.phase == "over"
    aside = {ENGINE.determinize(s, 0, random.Random(k)).dealt_t[1][1] for k in range(20)}
    assert len(aside) > 3


def test_taken_back_card_survives_dump_and_load():
    """DESIGN §2: `load(dump(s))` equal — including which hand cards are publicly known."""
    s = _mid_game()
    again = ENGINE.load(ENGINE.dump(s))
    assert again.known_in_hand == s.known_in_hand != 0
    legacy = json.loads(ENGINE.dump(s))
    del legacy["known_in_hand"]  # a game saved before the field existed still loads
    assert ENGINE.load(json.dumps(legacy)).known_in_hand == 0


def test_all_52_cards_stay_in_play_through_a_long_game():
    """Seed: one "standard Poker deck (Jokers removed)": tricks, refills and reshuffles never
    lose or duplicate a card."""
    rng = random.Random(5)
    s = ENGINE.new_game(4, 5)
    full = sorted(make_deck())
    for _ in range(400):
        seats = sorted(ENGINE.to_act(s))
        if not seats:
            break
        seat = rng.choice(seats)
        s = ENGINE.apply(s, seat, rng.choice(ENGINE.legal_actions(s, seat))).state
        assert sorted(cards_in_play(s)) == full
