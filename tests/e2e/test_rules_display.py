"""Issue 16, rules that read well in Discord (the display; the texts are data/<game>/rules.md):
a rules text with a `## Quick start` section is shown by that section first, with a
**Full rules** button for the whole text; a text without one is shown whole."""

from __future__ import annotations

import pytest

from bot.game_ui import quick_start_of

pytestmark = pytest.mark.e2e

TEXT = """# Suspense

## Quick start
Goal: score 6 points first.
A turn: play a card face up, pass or fold.

## Full rules
Every card carries a victory condition. Fold-only wording here.
"""


def test_the_quick_start_section_is_found_up_to_the_next_heading():
    assert quick_start_of(TEXT) == ("Goal: score 6 points first.\n"
                                    "A turn: play a card face up, pass or fold.")
    assert quick_start_of("# Title\n\nNo such section.") is None


async def test_rules_show_the_quick_start_first_with_a_full_rules_button(fake, world, bot,
                                                                          monkeypatch):
    ui = bot.tables.uis["suspense"]
    monkeypatch.setattr(type(ui), "rules_markdown", lambda self: TEXT)
    quick = await fake.slash(world.alice, "suspense rules", channel=world.channel)
    assert quick.ephemeral and "quick start" in quick.text and "Goal: score 6" in quick.text
    assert "Fold-only wording" not in quick.text
    button = next(b for b in quick.message.buttons() if b.get("label") == "Full rules")
    full = await fake.click(world.alice, quick.message, button["custom_id"])
    assert full.ephemeral and "Fold-only wording" in full.text and "Goal: score 6" in full.text


async def test_a_text_without_a_quick_start_is_shown_whole(fake, world, bot, monkeypatch):
    ui = bot.tables.uis["taboo"]
    monkeypatch.setattr(type(ui), "rules_markdown", lambda self: "# Taboo\n\nAll of it.")
    shown = await fake.slash(world.alice, "taboo rules", channel=world.channel)
    assert shown.ephemeral and "All of it." in shown.text
    assert not any(b.get("label") == "Full rules" for b in shown.message.buttons())
