"""Taboo's refusals of `/taboo play` after a draw name the command that plays the drawn card.

Ruling "Draw": the drawn card may be used at once (a capture, a jack or a joker). When it is a
jack or a joker, `/taboo play` (captures) is the wrong command: the refusal, which is also the
suggestion note shown in `/taboo play`'s autocomplete, says which one plays it.
"""

from __future__ import annotations

from types import SimpleNamespace

from cogs.taboo.cog import TabooCog
from engines import ENGINES
from engines.taboo.rules import Capture, Draw
from tests.engines.test_taboo import act, deal


def _after_drawing(stock: str):
    state = act(deal(["2c 3c", "4c"], row="5d 6d", stock=stock), Draw()).state
    return SimpleNamespace(engine=ENGINES["taboo"], state=state)


def test_a_drawn_jack_is_played_with_taboo_jack():
    text = TabooCog._why_not(_after_drawing("9h Jd"), 0, Capture)
    assert "`/taboo jack`" in text and "`/taboo place`" in text, text
    assert "the card you just drew" in text.lower() and len(text) <= 100, text


def test_a_drawn_joker_is_played_with_taboo_joker():
    text = TabooCog._why_not(_after_drawing("9h joker"), 0, Capture)
    assert "`/taboo joker`" in text and "`/taboo place`" in text, text
    assert len(text) <= 100, text


def test_a_drawn_card_that_cannot_capture_says_place():
    text = TabooCog._why_not(_after_drawing("9h 8h"), 0, Capture)
    assert "`/taboo place`" in text and "jack" not in text, text
