"""Hidden Rules: the rulings amended or added after the audit (issue 19). Each test names the
RULINGS.md passage it checks. The behaviour tests fail on the engine before the fix (commit
51097ca) by their assertions; helpers that came with the fix (say_parts,
unnecessary_parts) are imported only by the tests of those helpers."""

from __future__ import annotations

import pytest

from engines.cards import Card
from engines.core import IllegalActionError
from engines.hidden_rules import rules as hidden_rules
from engines.hidden_rules.decks import PlayContext, card_named
from engines.hidden_rules.rules import (
    ENGINE,
    Challenge,
    Enforce,
    Keep,
    Pass,
    Play,
    StartTrick,
)
from tests.engines.test_hidden_rules import HEART_PLEASE, SPADE_YAWP, act, scripted

C = Card.parse
# Enforce(QUIET) names "unnecessary talking" instead of a holder (-1 when the engine has no
# such rule yet, so the tests below fail on their assertions there)
QUIET = getattr(hidden_rules, "QUIET", -1)
# One line that performs 15 of the 16 actions for a 7♥ played onto 5♣ (the audit's dodge).
RECITAL = ("YAWP have a nice day please sorry up and over red hearts seven of hearts twelve "
           "zebra Batman 4")


# --------------------------------------------------------------------------- order (amended)
def test_hand_is_hidden_until_the_rule_is_kept():
    """RULINGS, Hidden Rules, order (amended): "rules are kept first; no player sees their
    playing cards until they have kept their rule"."""
    s = ENGINE.new_game(3, 11)
    for seat in range(3):
        view = ENGINE.view(s, seat)
        assert view["hand"] == [] and view["hand_hidden"]
        assert {str(c) for c in s.hands[seat]} <= ENGINE.secret_labels(s, seat)
    keep = ENGINE.legal_actions(s, 0)[0]
    assert isinstance(keep, Keep)
    s = ENGINE.apply(s, 0, keep).state
    assert ENGINE.view(s, 0)["hand"] == [str(c) for c in s.hands[0]]
    assert not {str(c) for c in s.hands[0]} & ENGINE.secret_labels(s, 0)
    assert ENGINE.view(s, 1)["hand"] == [] and ENGINE.view(s, 1)["hand_hidden"]


# --------------------------------------------------------------------------- naming cards
@pytest.mark.parametrize(("say", "card", "named"), [
    ("I play a heart", "Ah", False),  # the article "a" is never the ace
    ("a hearts", "Ah", False),
    ("a ♥", "Ah", False),
    ("ah", "Ah", False),  # "ah", "as", "ad", "ac" are words
    ("A♥", "Ah", True),
    ("A of hearts", "Ah", True),
    ("ace of hearts", "Ah", True),
    ("Q♥", "Qh", True),
    ("queen hearts", "Qh", True),
    ("10 of hearts", "Th", True),
    ("t of hearts", "Th", False),  # letters are A, J, Q, K only
    ("seven of hearts", "7h", True),
    ("7♥", "7h", True),
])
def test_naming_cards(say, card, named):
    """RULINGS, naming cards: "a rank is a rank word ..., a number 2–10, or a letter A, J, Q,
    K only when written with its suit (A♠, A of spades, Q♥); the English article "a" is never
    the ace"."""
    assert card_named(say, C(card)) is named


def test_saying_a_heart_does_not_satisfy_name_the_card():
    """RULINGS, naming cards: with the rule "an ace → name the card", "I play a heart" with
    the A♥ breaks it (before the fix the article counted as the ace)."""
    s = scripted(["2c 4d", "Ah 3c"], [HEART_PLEASE, (1, 3)], turned="5c")
    s = act(s, 1, Play(C("Ah"), 1, say="I play a heart"))[0]
    s = act(s, 0, Enforce(1, hint="name it"))[0]
    s = act(s, 1, Challenge())[0]
    assert s.history[-1].result == "right"


# --------------------------------------------------------------------------- unnecessary talking
def _ctx(card: str, say: str, prev: str = "5c", prev_total: int = 5) -> PlayContext:
    c = C(card)
    value = 1 if c.rank == 1 else {11: 0, 12: -2, 13: -4}.get(c.rank, c.rank)
    return PlayContext(c, value, C(prev), prev_total, prev_total + value, 4, say)


def test_say_is_split_into_parts():
    """RULINGS, unnecessary talking: "split into parts at , ; . ! ? and line breaks"."""
    from engines.hidden_rules.decks import say_parts

    assert say_parts("YAWP! please, sorry; up. and? over\nx") == [
        "YAWP", "please", "sorry", "up", "and", "over", "x"]


def test_the_recital_line_is_unnecessary_talking():
    """Issue 19: "one 96-character line satisfies 15 of the 16 actions". RULINGS: "A part that
    no rule triggered by that play asks for is unnecessary talking" — reciting phrases beside
    the one asked for makes the part unnecessary, while the asked phrase alone is fine."""
    from engines.hidden_rules.decks import unnecessary_parts

    assert len(RECITAL) <= 100
    heart_please = [HEART_PLEASE]
    assert unnecessary_parts(_ctx("7h", RECITAL), heart_please) == [RECITAL]
    assert unnecessary_parts(_ctx("7h", "please"), heart_please) == []
    assert unnecessary_parts(_ctx("7h", "Please!"), heart_please) == []
    # the card's name, asked, may also count as its suit and value: not recited extras
    assert unnecessary_parts(_ctx("7h", "seven of hearts"), [(6, 3)]) == []
    # nothing triggered asks for words: any talk is unnecessary
    assert unnecessary_parts(_ctx("7h", "nice one"), [SPADE_YAWP]) == ["nice one"]
    assert unnecessary_parts(_ctx("7h", "please, yawp"), heart_please) == ["yawp"]


def test_unnecessary_talking_enforced_and_challenged_right():
    """RULINGS, unnecessary talking: "any other player may enforce it (naming "unnecessary
    talking" instead of a holder) ... Challenge is judged by the bot: right → enforcer +1,
    accused −1 and the Accept penalty applies"."""
    s = scripted(["2c 4d", "7h 3c", "9d 8d"], [SPADE_YAWP, HEART_PLEASE, (16, 2)])
    s = act(s, 1, Play(C("7h"), say=RECITAL))[0]
    assert Enforce(QUIET) in ENGINE.legal_actions(s, 2)
    s = act(s, 2, Enforce(QUIET, hint="too chatty"))[0]
    assert ENGINE.view(s, 1)["pending"]["holder"] == QUIET
    s, events = act(s, 1, Challenge())
    assert not any(e.kind == "rule_revealed" for e in events)  # a public rule: nothing to show
    assert s.scores == [0, -2, 1] and C("7h") in s.hands[1]
    assert s.history[-1].holder == QUIET and s.history[-1].result == "right"


def test_unnecessary_talking_enforced_wrongly():
    """RULINGS, unnecessary talking: "wrong → enforcer −1, accused +1, play stands"."""
    s = scripted(["2c 4d", "7h 3c", "9d 8d"], [SPADE_YAWP, HEART_PLEASE, (16, 2)])
    s = act(s, 1, Play(C("7h"), say="please"))[0]
    s = act(s, 0, Enforce(QUIET, hint="shh"))[0]
    s = act(s, 1, Challenge())[0]
    assert s.scores == [-1, 1, 0] and C("7h") not in s.hands[1] and s.total == 12


def test_quiet_table_limits_what_is_said():
    """RULINGS, unnecessary talking: "at most 3 parts, 100 characters"."""
    s = scripted(["2c 4d", "7h 3c"], [SPADE_YAWP, HEART_PLEASE])
    with pytest.raises(IllegalActionError):
        ENGINE.apply(s, 1, Play(C("7h"), say="a, b, c, d"))
    with pytest.raises(IllegalActionError):
        ENGINE.apply(s, 1, Play(C("7h"), say="x" * 101))
    with pytest.raises(IllegalActionError):
        ENGINE.apply(s, 1, Play(C("7h"), say="a\nb\nc\nd"))
    ENGINE.apply(s, 1, Play(C("7h"), say="please, please, please"))
    # counted as typed: 100 characters pass whatever they are, a line break counts one
    # (kept as one, shown as " / "), and markdown is never escaped before the count
    ENGINE.apply(s, 1, Play(C("7h"), say="*_-" * 33 + "x"))
    kept = ENGINE.apply(s, 1, Play(C("7h"), say="x" * 49 + "\n" + "y" * 50)).state
    assert kept.trick[-1][3] == "x" * 49 + "\n" + "y" * 50
    assert "x / y" in ENGINE.describe(s, Play(C("7h"), say="x\ny"))
    with pytest.raises(IllegalActionError, match="101 characters"):
        ENGINE.apply(s, 1, Play(C("7h"), say="x" * 50 + "\n" + "y" * 50))


def test_quiet_table_parts_split_only_at_the_ruling_separators():
    """RULINGS, unnecessary talking: parts are split at , ; . ! ? and line breaks, and at
    nothing else: a typed "/" ("red/black/blue/green") stays inside one part."""
    from engines.hidden_rules.decks import say_parts
    assert say_parts("red/black/blue/green") == ["red/black/blue/green"]
    s = scripted(["2c 4d", "7h 3c"], [SPADE_YAWP, HEART_PLEASE])
    ENGINE.apply(s, 1, Play(C("7h"), say="a/b/c/d"))  # one part: allowed at a quiet table
    with pytest.raises(IllegalActionError, match="4 parts"):
        ENGINE.apply(s, 1, Play(C("7h"), say="a/b\nc\nd\ne"))


def test_quiet_table_option_off():
    """RULINGS, unnecessary talking: option `quiet_table`, on by default; off, nobody can
    enforce it and long texts are allowed."""
    assert ENGINE.parse_options(None).quiet_table is True
    s = scripted(["2c 4d", "7h 3c", "9d 8d"], [SPADE_YAWP, HEART_PLEASE, (16, 2)],
                 quiet_table=False)
    s = act(s, 1, Play(C("7h"), say=RECITAL + ", a, b, c"))[0]
    assert Enforce(QUIET) not in ENGINE.legal_actions(s, 2)
    with pytest.raises(IllegalActionError):
        ENGINE.apply(s, 2, Enforce(QUIET))


def test_referee_also_enforces_unnecessary_talking():
    """RULINGS: `referee` "makes it enforce every rule automatically", the standing
    unnecessary-talking rule included."""
    s = scripted(["2c 4d", "7h 3c"], [SPADE_YAWP, HEART_PLEASE], referee=True)
    s = act(s, 1, Play(C("7h"), say="please, nice"))[0]
    assert C("7h") in s.hands[1] and s.scores[1] == -1
    assert s.history[-1].holder == QUIET



def test_a_target_of_one_point_reads_in_the_singular():
    """Issue 16: "proper plurals" — a game to 1 point ends with "reached 1 point"."""
    s = scripted(["2c 4d", "Ah 3c"], [SPADE_YAWP, HEART_PLEASE], turned="Tc", target=1,
                 quiet_table=False)
    s = act(s, 1, Play(C("Ah"), 11))[0]  # 10 + 11 = 21: seat 1 takes the trick
    s = act(s, 0, Pass())[0]
    s, events = act(s, 1, StartTrick())
    text = " ".join(e.text for e in events) + ENGINE.outcome(s).reason
    assert "1 point" in text and "1 points" not in text


def test_a_win_past_the_target_says_the_winning_score():
    """RULINGS: "The first player with ≥ 3 points when a trick is collected wins" — the
    check waits for a collection, so the winner can be past the target (enforcements score
    too). A winner on 3 points with a 1-point target read "Target of 1 point reached"; the
    reason and the game-over line now say the winning score as well."""
    s = scripted(["2c 4d", "Ah 3c"], [SPADE_YAWP, HEART_PLEASE], turned="Tc", target=1,
                 quiet_table=False, scores=[0, 2])
    s = act(s, 1, Play(C("Ah"), 11))[0]  # 10 + 11 = 21: seat 1 takes the trick
    s = act(s, 0, Pass())[0]
    s, events = act(s, 1, StartTrick())
    assert s.scores == [0, 3]
    assert ENGINE.outcome(s).reason == "Target of 1 point passed: the winner ends with 3 points."
    over = next(e for e in events if e.kind == "game_over")
    assert over.text == "Game over: {P1} wins with 3 points (target: 1 point)."
