"""Wording of private views as a player reads them (found by a stranger's review)."""

from __future__ import annotations

import random

from cogs.suit_taboo.cog import SuitTabooUI
from engines import ENGINES


def _text(embed) -> str:
    return "\n".join([embed.title or "", embed.description or "",
                      *(f"{f.name}\n{f.value}" for f in embed.fields)])


def test_suit_taboo_tally_agrees_with_one_shield():
    """"your 1 shield cancel 0" read wrong: one shield cancels, several cancel."""
    engine = ENGINES["suit_taboo"]
    rng = random.Random(2)
    seen = set()
    for seed in range(40):
        state = engine.new_game(3, seed)
        for _ in range(400):
            if engine.outcome(state) is not None:
                break
            for seat in range(3):
                view = engine.view(state, seat)
                text = _text(SuitTabooUI().render_private(view, ["Ann", "Bob", "Cat"], seat))
                for line in text.splitlines():
                    if line.startswith("So far:"):
                        seen.add(line.split("your ", 1)[1].split(" →")[0])
            seat = min(engine.to_act(state))
            state = engine.apply(state, seat, rng.choice(list(engine.legal_actions(state, seat)))
                                 ).state
        if any(s.startswith("1 shield") for s in seen):
            break
    ones = [s for s in seen if s.startswith("1 shield ")]
    assert ones, seen
    assert all(s.startswith("1 shield cancels ") for s in ones), ones
    assert all(" shields cancel " in s for s in seen if not s.startswith("1 shield ")), seen
