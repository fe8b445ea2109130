"""Shared playing-card primitives: parsing, rendering, decks."""

import pytest

from engines.cards import JOKER, Card, make_deck, parse_cards
from engines.core import InvalidActionError


@pytest.mark.parametrize(
    ("text", "card"),
    [("10h", Card(10, "h")), ("Q♠", Card(12, "s")), ("qs", Card(12, "s")), ("AH", Card(1, "h")),
     ("t♦", Card(10, "d")), ("joker", JOKER), ("Joker", JOKER), ("queen of spades", Card(12, "s")),
     ("2c", Card(2, "c")), ("K♧", Card(13, "c"))],
)
def test_parse(text, card):
    assert Card.parse(text) == card


@pytest.mark.parametrize("text", ["", "11h", "1s", "Zs", "10x", "ace of cups"])
def test_parse_rejects_garbage(text):
    with pytest.raises(InvalidActionError):
        Card.parse(text)


def test_render_and_code_round_trip():
    for card in make_deck(jokers=1):
        assert Card.parse(card.code) == card
        assert Card.parse(str(card).replace("🃏", "")) == card
    assert str(Card(10, "h")) == "10♥"
    assert Card(12, "s").name == "queen of spades"


def test_decks():
    assert len(make_deck()) == 52
    assert len(set(make_deck())) == 52
    assert len(make_deck(jokers=2, decks=2)) == 108
    assert parse_cards("10h, Q♠ joker") == [Card(10, "h"), Card(12, "s"), JOKER]


@pytest.mark.parametrize("rank, suit", [(5.0, "h"), (True, "s"), ("5", "h"), (5, None)])
def test_a_card_is_made_only_from_an_int_rank_and_a_suit_letter(rank, suit):
    """A rank of 5.0 or True equals 5 or 1 under ==: such a card would pass for the one in a
    hand and then show as "5.0♥", so it cannot be made."""
    with pytest.raises(InvalidActionError):
        Card(rank, suit)
