"""Hidden Rules decks: every trigger and action checker, plus the forgiving text matching.

RULINGS (Hidden Rules): "every one checkable by the bot from the played card, the trick and
the text the player sends with the play (`say`)". Each checker gets a positive and a negative
case below.
"""

from __future__ import annotations

import json

import pytest

from engines.cards import Card
from engines.hidden_rules.decks import (
    ACTION_CHECKS,
    ACTION_IDS,
    ACTION_SAYS,
    ACTIONS,
    TRIGGER_CHECKS,
    TRIGGER_IDS,
    TRIGGERS,
    PlayContext,
    broken,
    card_named,
)
from engines.hidden_rules.text import (
    ANIMALS,
    CHARACTERS,
    DATA_DIR,
    has_phrase,
    number_words,
    numbers_in,
    tokens,
)

C = Card.parse


def ctx(card="7h", prev="5c", prev_total=5, value=None, hand_left=3, say="", animals=(),
        characters=()) -> PlayContext:
    card_ = C(card)
    if value is None:
        value = {1: 1, 11: 0, 12: -2, 13: -4}.get(card_.rank, card_.rank)
    return PlayContext(card_, value, C(prev), prev_total, prev_total + value, hand_left, say,
                       frozenset(animals), frozenset(characters))


def test_data_cards_all_have_checkers():
    """RULINGS: "The project designs its own trigger deck and action deck (about 16 each, in
    `data/`)" — every card in data/hidden_rules/cards.json has a checker and a say-maker."""
    raw = json.loads((DATA_DIR / "cards.json").read_text(encoding="utf-8"))
    assert len(raw["triggers"]) == 16 and len(raw["actions"]) == 16
    assert set(TRIGGER_IDS) == set(TRIGGER_CHECKS) == {c["id"] for c in raw["triggers"]}
    assert set(ACTION_IDS) == set(ACTION_CHECKS) == set(ACTION_SAYS)
    for card in [*TRIGGERS.values(), *ACTIONS.values()]:
        assert card.text and card.hint and len(card.label) <= 100


# --------------------------------------------------------------------------- triggers
TRIGGER_CASES = {
    # id: (fires, does not fire)
    1: (ctx("As", value=11), ctx("2s")),
    2: (ctx("Qd"), ctx("10d")),
    3: (ctx("5h", prev="5c"), ctx("6h", prev="5c")),
    4: (ctx("7h", prev="5c"), ctx("7h", prev="5d")),
    5: (ctx("8c"), ctx("9c")),
    6: (ctx("3h"), ctx("3d")),
    7: (ctx("3s"), ctx("3c")),
    8: (ctx("3c", prev="9c"), ctx("3h", prev="9c")),
    9: (ctx("Ks", prev_total=4), ctx("Ks", prev_total=5)),
    10: (ctx("3h", prev_total=14), ctx("3h", prev_total=16)),
    11: (ctx("5h", prev_total=5), ctx("Js", prev_total=0)),
    12: (ctx("Qh", prev_total=1), ctx("Qh", prev_total=2)),
    13: (ctx("6h", prev_total=15), ctx("6h", prev_total=14)),
    14: (ctx("6h", prev_total=16), ctx("6h", prev_total=15)),
    15: (ctx("6h", hand_left=0), ctx("6h", hand_left=1)),
    16: (ctx("4h", prev="9c"), ctx("Kh", prev="9c")),
}


@pytest.mark.parametrize("tid", TRIGGER_IDS)
def test_trigger_checkers(tid):
    """Each trigger text (T01 ace, T02 face card, T03 same rank as previous, T04 red on black,
    T05 even number, T06 heart, T07 spade, T08 same suit, T09 total exactly 0, T10 crossing 15,
    T11 multiple of 5, T12 below zero, T13 exactly 21, T14 over 21, T15 last card, T16 lower
    rank) fires on its positive case and stays quiet on its negative case."""
    yes, no = TRIGGER_CASES[tid]
    assert TRIGGER_CHECKS[tid](yes), TRIGGERS[tid].text
    assert not TRIGGER_CHECKS[tid](no), TRIGGERS[tid].text


def test_ace_is_aces_low_for_lower_rank():
    """T16 "ranks lower than the card just before it (aces low)": an ace under a 2 is lower."""
    assert TRIGGER_CHECKS[16](ctx("Ah", prev="2c"))
    assert not TRIGGER_CHECKS[16](ctx("2h", prev="Ac"))


# --------------------------------------------------------------------------- actions
ACTION_CASES = {
    # id: (performed, not performed) — forgiving variants on the positive side
    1: (ctx(say="Yawp!!"), ctx(say="yap")),
    2: (ctx(say="Have a NICE day :)"), ctx(say="nice day")),
    3: (ctx("7h", say="Seven of Hearts"), ctx("7h", say="seven of spades")),
    4: (ctx("Qh", prev_total=1, say="minus one"), ctx("Qh", prev_total=1, say="-1")),
    5: (ctx(say="a polar bear!"), ctx(say="a rock")),
    6: (ctx(say="Sherlock Holmes"), ctx(say="Neil Armstrong")),
    7: (ctx("7h", say="heart"), ctx("7h", say="diamonds")),
    8: (ctx(say="Please."), ctx(say="pleased")),
    9: (ctx("7d", say="RED"), ctx("7d", say="black")),
    10: (ctx("Qh", say="-2"), ctx("Qh", say="2")),
    11: (ctx(say="  ... "), ctx(say="hi")),
    12: (ctx(say="so sorry"), ctx(say="sorrow")),
    13: (ctx(prev_total=14, say="it was fourteen"), ctx(prev_total=14, say="fifteen")),
    14: (ctx("Qh", say="extinguisher"), ctx("Qh", say="extinguish")),
    15: (ctx(say="Up-and-over!"), ctx(say="up over")),
    16: (ctx(hand_left=2, say="2 left"), ctx(hand_left=2, say="three left")),
}


@pytest.mark.parametrize("aid", ACTION_IDS)
def test_action_checkers(aid):
    """Each action (A01 "YAWP", A02 "have a nice day", A03 card's name, A04 total in words,
    A05 new animal, A06 new fictional character, A07 suit, A08 "please", A09 colour, A10 card
    value, A11 silence, A12 "sorry", A13 previous total, A14 word of rank length, A15 "up and
    over", A16 cards left) is recognised when done and not when missed."""
    yes, no = ACTION_CASES[aid]
    assert ACTION_CHECKS[aid](yes), ACTIONS[aid].text
    assert not ACTION_CHECKS[aid](no), ACTIONS[aid].text


@pytest.mark.parametrize("aid", ACTION_IDS)
@pytest.mark.parametrize("card", ["As", "7h", "10d", "Jc", "Qs", "Kh", "2c"])
def test_say_maker_performs_its_action(aid, card):
    """The AI's say text for each action actually performs it (so the AI can obey rules)."""
    c = ctx(card, prev_total=3, hand_left=2, animals={"aardvark"}, characters={"sherlock holmes"})
    c = PlayContext(c.card, c.value, c.prev, c.prev_total, c.total, c.hand_left,
                    ACTION_SAYS[aid](c), c.named_animals, c.named_characters)
    assert ACTION_CHECKS[aid](c)


def test_not_yet_named_this_game():
    """Seed example: a name "that hasn't been named previously this game" — a second use of the
    same animal or character does not count; aliases and plurals count as the same name."""
    assert not ACTION_CHECKS[5](ctx(say="Polar bears", animals={"polar bear"}))
    assert ACTION_CHECKS[5](ctx(say="polar bear and a wolf", animals={"polar bear"}))
    assert not ACTION_CHECKS[5](ctx(say="kitten", animals={"cat"}))
    assert not ACTION_CHECKS[6](ctx(say="sherlock", characters={"sherlock holmes"}))
    assert ACTION_CHECKS[6](ctx(say="Gandalf", characters={"sherlock holmes"}))


def test_card_name_forms():
    """A03 "say the card's full name": words, short codes and suit symbols are all accepted."""
    for say in ("queen of spades", "Queen spades", "Q♠", "qs", "q of spade"):
        assert card_named(say, C("Qs")), say
    assert card_named("10 of diamonds", C("10d")) and card_named("ten diamonds", C("10d"))
    assert card_named("deuce of clubs", C("2c"))
    assert not card_named("queen", C("Qs")) and not card_named("spades", C("Qs"))
    assert not card_named("as", C("As"))  # the ordinary word "as" is not a card name
    assert card_named("ace of spades", C("As"))


def test_broken_means_triggered_and_not_performed():
    """RULINGS: the bot "checks whether the play really broke the named holder's rule": broken
    exactly when the trigger fires and the action was not performed."""
    spade = ctx("3s")
    assert broken(7, 1, spade)  # spade played, no YAWP
    assert not broken(7, 1, ctx("3s", say="yawp"))
    assert not broken(6, 1, spade)  # not a heart: the rule never fired


# --------------------------------------------------------------------------- text matching
def test_tokens_are_forgiving():
    """Matching ignores case, accents, punctuation and apostrophes."""
    assert tokens("Héllo, WORLD!!  it's") == ("hello", "world", "its")
    assert tokens("") == ()
    assert has_phrase("UP... and ... OVER", "up and over")
    assert has_phrase("upandover", "up and over")
    assert not has_phrase("up the over", "up and over")


def test_numbers_digits_and_words():
    """Totals may be said as digits or words ("twenty-one", "21", "minus four", "-4")."""
    assert 21 in numbers_in("twenty-one") and 21 in numbers_in("21") and 21 in numbers_in("twentyone")
    assert -4 in numbers_in("minus four") and -4 in numbers_in("-4") and -4 in numbers_in("negative 4")
    assert 0 in numbers_in("zero") and 0 in numbers_in("nil")
    assert 21 not in numbers_in("21", words_only=True)
    assert 1 not in numbers_in("twenty one")  # the "one" belongs to twenty-one
    assert numbers_in("twenty-one") == {21}
    for n in range(-40, 41):
        assert n in numbers_in(number_words(n), words_only=True)


def test_word_lists_are_big_and_lower_case():
    """Word lists in data/hidden_rules: a few hundred animals and fictional characters."""
    assert len(ANIMALS.canonical) >= 300 and len(CHARACTERS.canonical) >= 300
    for name in ANIMALS.canonical + CHARACTERS.canonical:
        assert name == name.lower() and name.strip()
    assert "neil armstrong" not in CHARACTERS.canonical
    assert ANIMALS.found("Two MICE and an ox") == {"mouse", "ox"}
