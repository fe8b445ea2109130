"""The board mentions a safety cap only while it lies ahead: a finished game showed
"⚠️ 0 turns left before the safety cap" (Taboo, Six Suit) or "4 turns left" (Hidden Rules,
won on points) under its final standings."""

from __future__ import annotations

import random

import pytest

from cogs.hidden_rules.cog import HiddenRulesUI
from cogs.six_suit.cog import SixSuitUI
from cogs.taboo.cog import TabooUI
from engines import ENGINES


def _text(embeds) -> str:
    parts = []
    for embed in embeds:
        parts += [embed.title or "", embed.description or ""]
        parts += [f"{field.name} {field.value}" for field in embed.fields]
    return "\n".join(parts)


@pytest.mark.parametrize(("game", "ui", "options"), [
    ("taboo", TabooUI, {"max_turns": 20}),
    ("six_suit", SixSuitUI, {"max_rounds": 3, "free_time_rounds": 1}),
    ("hidden_rules", HiddenRulesUI, {"max_turns": 50, "target": 10}),
])
def test_a_finished_board_names_no_safety_cap(game, ui, options):
    engine = ENGINES[game]
    rng = random.Random(3)
    state = engine.new_game(3, 11, options)
    names = ["Ann", "Bob", "Cat"]
    warned = False
    for _ in range(5000):
        if engine.outcome(state) is not None:
            break
        warned |= "safety cap" in _text(ui().render_board(engine.view(state, None), names))
        seat = min(engine.to_act(state))
        state = engine.apply(state, seat, rng.choice(list(engine.legal_actions(state, seat)))
                             ).state
    assert engine.outcome(state) is not None
    assert warned, "the cap was never near, so the test checked nothing"
    assert "safety cap" not in _text(ui().render_board(engine.view(state, None), names))


def test_every_private_view_opens_with_its_games_emoji():
    """Each hand's title starts with the game's emoji ("🎭 Your Suspense hand"); Six Suit's
    alone read "Your Six Suit hand"."""
    from cogs.suit_taboo.cog import SuitTabooUI
    from cogs.suspense.cog import SuspenseUI

    for game, ui in (("six_suit", SixSuitUI), ("taboo", TabooUI), ("hidden_rules", HiddenRulesUI),
                     ("suit_taboo", SuitTabooUI), ("suspense", SuspenseUI)):
        engine = ENGINES[game]
        state = engine.new_game(3, 1)
        embed = ui().render_private(engine.view(state, 0), ["Ann", "Bob", "Cat"], 0)
        assert embed.title.startswith(ui.emoji), (game, embed.title)
