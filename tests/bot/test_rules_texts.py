"""The rules summaries (data/<game>/rules.md) as Discord shows them (issue 16, "Rules that read
well in Discord"; issue 19, "Rules summaries"): a `## Quick start` of at most 10 lines comes
first, then the full rules; no markdown tables (Discord does not render them), no prose
hard-wrapped over several lines, no list given twice, proper plurals and one minus sign, and
every piece within Discord's embed limits."""

from __future__ import annotations

import json
import re

import pytest

from bot.game_ui import DATA_DIR, registered_uis
from bot.ui.text import DESCRIPTION_LIMIT, chunks
from engines import ENGINES

GAMES = sorted(ENGINES)
EMBEDS_TOTAL_LIMIT = 6000  # Discord: all embeds of one message together
TITLE_ROOM = 60  # the "<emoji> <Game> — rules" title of the first embed
LIST_ITEM = re.compile(r"^(\s*[-•*] |\d+\. )")


def _text(game: str) -> str:
    return (DATA_DIR / game / "rules.md").read_text(encoding="utf-8")


def _sections(text: str) -> list[tuple[str, str]]:
    sections: list[tuple[str, str]] = []
    for block in re.split(r"(?m)^(?=## )", text):
        if block.strip():
            head, _, body = block.partition("\n")
            sections.append((head.strip(), body.strip()))
    return sections


@pytest.mark.parametrize("game", GAMES)
def test_quick_start_comes_first_and_is_short(game):
    """Issue 16: "each game has a quick start (≤ 10 lines: goal, a turn, how to win) shown
    first"; the heading is exactly `## Quick start` (the rules view looks for it)."""
    text = _text(game)
    assert text.startswith("## Quick start\n")
    head, body = _sections(text)[0]
    assert head == "## Quick start"
    lines = [line for line in body.splitlines() if line.strip()]
    assert 3 <= len(lines) <= 10, lines
    assert "goal" in body.lower()
    assert len(_sections(text)) >= 4  # then the full rules


@pytest.mark.parametrize("game", GAMES)
def test_no_tables_and_no_hard_wrapped_lines(game):
    """Issue 16: "no tables or hard-wrapped lines": one paragraph or list item per line, so
    no line is a sentence carried on from the line above."""
    lines = _text(game).splitlines()
    for i, line in enumerate(lines):
        assert not line.lstrip().startswith("|"), f"table row: {line}"
        if not line.strip() or line.startswith("#"):
            continue
        assert not line.endswith(("\\", " ")), f"trailing break: {line!r}"
        if not LIST_ITEM.match(line):
            assert line[-1] in ".!?:)*`", f"line does not end a sentence: {line!r}"
        starts_lower = line[0].islower()
        assert not starts_lower or LIST_ITEM.match(line), f"carried-on line {i}: {line!r}"


@pytest.mark.parametrize("game", GAMES)
def test_plurals_and_minus_signs(game):
    """Issue 16: "proper plurals, one minus sign": no "1 points", no "card(s)", and a score
    change or card value is written with − (U+2212), never a hyphen."""
    text = registered_uis()[game].rules_markdown()
    assert not re.search(r"\b1 (points|cards|players|rounds|turns|wins)\b", text)
    assert "(s)" not in text
    assert not re.search(r"(^|[\s(=,])-\d", text), "use − for negative numbers"


@pytest.mark.parametrize("game", GAMES)
def test_fits_discord_embeds(game):
    """Discord: an embed description holds 4,096 characters and one message's embeds 6,000
    together; `/<game> rules` shows the text cut at line breaks into embeds, each section
    fitting one description."""
    ui = registered_uis()[game]
    text = ui.rules_markdown()
    for head, body in _sections(text):
        assert len(head) + 1 + len(body) <= DESCRIPTION_LIMIT, head
    parts = chunks(text, DESCRIPTION_LIMIT)
    assert len(parts) <= 5
    assert sum(len(p) for p in parts) + TITLE_ROOM <= EMBEDS_TOTAL_LIMIT


def test_suspense_lists_its_13_cards_once():
    """Issue 16: "list Suspense's 13 cards twice" was a slip: the rules show the 13
    conditions once, each as data/suspense/cards.json words it."""
    text = registered_uis()["suspense"].rules_markdown()
    cards = json.loads((DATA_DIR / "suspense" / "cards.json").read_text(encoding="utf-8"))
    for card in cards["cards"]:
        entry = f"`{card['label']}` {card['condition']}"
        assert text.count(entry) == 1, entry
        assert text.count(f"`{card['label']}`") == 1, card["label"]


@pytest.mark.parametrize(("game", "must", "must_not"), [
    ("six_suit", ["A ? card can therefore cover any card of its colour or its shape",
                  "black only black, blob only blob", "starting with an empty hand",
                  "help living teammates", "Extra turns do not count towards",
                  "nothing left to draw, you pass", "Safety cap: after 3 vetoes"],
     ["covers only a ?"]),
    ("hidden_rules", ["lap after lap", "the seat before yours",
                      "more specific than the rule that was broken",
                      "Triggers are about", "lose 3 points", "Unnecessary talking",
                      "You see your cards once you have kept it"], []),
    ("suit_taboo", ["never build with your own suit", "out for the rest of the round at once",
                    "sit out the rest of the round", "no pause and no accusation",
                    "The pause tells everyone who McNulty is"], []),
    ("taboo", ["a race", "going out while behind can still lose",
               "You may draw even when you could capture", "The jack-or-joker limit applies "
               "here too", "two_decks_from"], []),
    ("suspense", ["**Goal:**", "only counts when that card is the secret one",
                  "they meet the condition and the others do not",
                  "players tied on it win together", "never shown"], ["wins when"]),
])
def test_summaries_cover_the_audit_findings(game, must, must_not):
    """Issue 19, "Rules summaries": each error and gap the audit listed is fixed."""
    text = _text(game)
    for phrase in must:
        assert phrase in text, phrase
    for phrase in must_not:
        assert phrase not in text, phrase
