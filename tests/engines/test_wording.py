"""Every text an engine writes for players, as the bot shows it (`shown`: names, one minus
sign), over random whole games of every game: proper plurals and one minus sign (issue 16:
"`38 card(s)`, `1 points`, `-2` beside `−2`")."""

from __future__ import annotations

import random
import re

import pytest

from bot.ui.text import shown
from engines import ENGINES

NOUNS = ("round win", "hand card", "card", "point", "turn", "round", "match", "win", "doubt",
         "penalty", "shield", "player", "trick", "part", "character", "elimination",
         "survivor", "game", "reshuffle")
_PLURALS = {"penalty": "penalties", "match": "matches"}
SINGULAR_WITH_PLURAL = re.compile(
    r"(?<![\d.,])\b1 (" + "|".join(_PLURALS.get(n, n + "s") for n in NOUNS) + r")\b")
PLURAL_WITH_SINGULAR = re.compile(
    r"(?<![\d.,#/])\b(?:0|[2-9]|\d{2,}) (" + "|".join(NOUNS) + r")\b(?!s|-| of| or| wins?\b)")
SLIPS = (re.compile(r"\w\(s\)"), re.compile(r"(?<![\w\-−/“\"'`(])-\d"))


def _texts(game: str, seed: int):
    engine = ENGINES[game]
    rng = random.Random(seed)
    n = rng.randint(engine.min_players, min(engine.max_players, 5))
    options = {"six_suit": {"max_rounds": 6, "free_time_rounds": 1},
               "taboo": {"max_turns": 120}, "hidden_rules": {"max_turns": 120},
               "suit_taboo": {"max_turns_per_round": 80, "max_rounds": 3}}.get(game)
    state = engine.new_game(n, seed, options)
    names = [f"P{i}" for i in range(n)]
    for _ in range(3000):
        if engine.outcome(state) is not None:
            yield shown(engine.outcome(state).reason, names, markdown=False)
            return
        seat = min(engine.to_act(state))
        action = rng.choice(list(engine.legal_actions(state, seat)))
        yield shown(engine.describe(state, action), names, markdown=False)
        for event in engine.apply(state, seat, action).events:
            yield shown(event.text, names, markdown=False)
        state = engine.apply(state, seat, action).state


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_engine_texts_use_proper_plurals_and_one_minus_sign(game):
    bad = set()
    for seed in range(6):
        for text in _texts(game, seed):
            for pattern in (SINGULAR_WITH_PLURAL, PLURAL_WITH_SINGULAR, *SLIPS):
                if pattern.search(text):
                    bad.add(text)
    assert not bad, "\n".join(sorted(bad)[:20])
