"""Wording of private views as a player reads them (found by a stranger's review)."""

from __future__ import annotations

import random

from cogs.suit_taboo.cog import SuitTabooUI
from engines import ENGINES


def _text(embed) -> str:
    return "\n".join([embed.title or "", embed.description or "",
                      *(f"{f.name}\n{f.value}" for f in embed.fields)])


def _suit_taboo_tally_lines(rng_seed: int, moves: int):
    """The "So far:" tally lines every seat's private view shows, one set per random
    3-player game (40 games, random legal moves), so a test can stop once it saw enough."""
    engine = ENGINES["suit_taboo"]
    rng = random.Random(rng_seed)
    for seed in range(40):
        state = engine.new_game(3, seed)
        lines: set[str] = set()
        for _ in range(moves):
            if engine.outcome(state) is not None:
                break
            for seat in range(3):
                view = engine.view(state, seat)
                text = _text(SuitTabooUI().render_private(view, ["Ann", "Bob", "Cat"], seat))
                lines |= {line for line in text.splitlines() if line.startswith("So far:")}
            seat = min(engine.to_act(state))
            state = engine.apply(state, seat, rng.choice(list(engine.legal_actions(state, seat)))
                                 ).state
        yield lines


def test_suit_taboo_tally_agrees_with_one_shield():
    """"your 1 shield cancel 0" read wrong: one shield cancels, several cancel."""
    seen = set()
    for lines in _suit_taboo_tally_lines(2, 400):
        seen |= {line.split("your ", 1)[1].split(" →")[0] for line in lines if "your " in line}
        if any(s.startswith("1 shield") for s in seen):
            break
    ones = [s for s in seen if s.startswith("1 shield ")]
    assert ones, seen
    assert all(s.startswith("1 shield cancels ") for s in ones), ones
    assert all(" shields cancel " in s for s in seen if not s.startswith("1 shield ")), seen


def test_taboo_hand_says_what_a_drawn_card_can_do():
    """A drawn joker read "use it at once (capture with it, or play it if it is a jack or a
    joker)" and the hand showed "🃏Joker(joker)". The hint names what that card does, and a
    joker is not labelled twice."""
    from cogs.taboo.cog import TabooUI
    from engines.cards import Card
    from engines.taboo.rules import USE

    engine = ENGINES["taboo"]
    seen: dict[str, str] = {}
    for seed in range(60):
        state = engine.new_game(3, seed)
        rng = random.Random(seed)
        for _ in range(200):
            if engine.outcome(state) is not None:
                break
            seat = min(engine.to_act(state))
            view = engine.view(state, seat)
            text = _text(TabooUI().render_private(view, ["Ann", "Bob", "Cat"], seat))
            assert "Joker`(joker)" not in text and "if it is a jack or a joker" not in text
            if view["phase"] == USE and view.get("drawn"):
                rank = Card.parse(view["drawn"]).rank
                kind = "joker" if rank == 0 else "jack" if rank == 11 else "number"
                seen[kind] = next(line for line in text.splitlines()
                                  if line.startswith(f"`{view['drawn']}`:"))
            state = engine.apply(state, seat, rng.choice(list(engine.legal_actions(state, seat)))
                                 ).state
        if len(seen) == 3:
            break
    assert "everyone else draws" in seen["joker"] and "clears the row" in seen["jack"]
    assert "capture with it at once, or place any hand card face up" in seen["number"]


def test_stats_points_read_singular_for_minus_one():
    """/stats said "−1 points" where the Hidden Rules board says "−1 pt": ±1 is singular."""
    from cogs.stats import plural_points

    assert plural_points(-1) == "−1 point"
    assert plural_points(1) == "1 point"
    assert plural_points(0) == "0 points"
    assert plural_points(-2) == "−2 points"
    assert plural_points(1.5) == "1.5 points"


def test_hidden_rules_enforcement_line_names_the_hint_apart_from_what_was_said():
    """"said “please”: “wrong word”" read as two things the player said; the enforcer's
    words are a hint, and the line says so. A referee line no longer runs "said nothing
    broke …" together."""
    from cogs.hidden_rules.cog import HiddenRulesUI
    from engines.hidden_rules.rules import QUIET

    names = ["Ann", "Bob", "Cat"]
    record = {"accused": 0, "holder": 1, "enforcer": 2, "card": "9♥", "total": 25,
              "say": "please", "hint": "wrong word", "result": "accepted", "changes": [-1, 0, 0]}
    line = HiddenRulesUI.history_line(record, names)
    assert "said “please” · hint “wrong word” → accepted" in line, line
    silent = HiddenRulesUI.history_line({**record, "say": ""}, names)
    assert "said nothing · hint “wrong word”" in silent, silent
    referee = HiddenRulesUI.history_line(
        {**record, "say": "", "result": "referee", "enforcer": -1, "holder": QUIET}, names)
    assert "said nothing — was **" in referee, referee


def test_suit_taboo_tally_says_no_shields_and_exposed_in_words():
    """"your 0 shields cancel 0 → **1 uncovered**": no shields is said so, and a tally with
    penalties left says the rules' word, exposed, with how many are not cancelled."""
    lines = set().union(*_suit_taboo_tally_lines(5, 300))
    assert lines
    assert not any("0 shields" in line or "uncovered" in line for line in lines), lines
    assert any(", no shields → **exposed** (" in line for line in lines), lines
    assert any(line.endswith("→ **unexposed**") for line in lines), lines
